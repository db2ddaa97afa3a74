int main(void)
{
    int i, s = 0;
#pragma omp parallel for
    for (i = 0; i < 10; i++)
        s += i
    return s;
}
