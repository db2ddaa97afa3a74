/* The cross-section lookup: pure, reads the table only. */
double lookup(int i, const double *table, int n)
{
    double v = 0.0;
    for (int k = 0; k < 4; k++)
        v += table[(i * 7 + k) % n];
    return v;
}
