/* Auteur: François, résultats */
#include <stdio.h>
#define N 100000
static double a[N];
int main(void)
{
    double s = 0.0;
#pragma omp parallel for reduction(+:s)
    for (int i = 0; i < N; i++) {
        a[i] = i * 0.5;
        s += a[i];
    }
    printf("résultat %.3f\n", s);
    return 0;
}
