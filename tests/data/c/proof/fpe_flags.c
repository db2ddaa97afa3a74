/* A check for a division by zero in a field update, the way numerical codes make it:
   the exception flags after the loop. Each thread raises flags in its own floating-point
   environment; on one thread the warning prints, on several it prints only when the
   master ran the zero. */
#include <fenv.h>
#include <stdio.h>

#define N 100000

static double x[N], y[N];

int main(void)
{
    int i;
    for (i = 0; i < N; i++)
        x[i] = (i == 90000) ? 0.0 : 1.0 + i;
    feclearexcept(FE_ALL_EXCEPT);
#pragma omp parallel for
    for (i = 0; i < N; i++)
        y[i] = 1.0 / x[i];
    if (fetestexcept(FE_DIVBYZERO))
        printf("warning: division by zero\n");
    double s = 0;
    for (i = 0; i < N; i++)
        if (i != 90000)
            s += y[i];
    printf("%.6f\n", s);
    return 0;
}
