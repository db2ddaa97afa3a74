/* Output in order from the ordered region, but a progress line printed outside it:
 * that line's place in the output follows the schedule. */
#include <stdio.h>
#define N 64
static double a[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        a[i] = i * 0.5;
#pragma omp parallel for ordered
    for (int i = 0; i < N; i++) {
        double v = a[i] * a[i];
        if (i % 16 == 0)
            printf("block %d\n", i / 16);
#pragma omp ordered
        printf("%d %.2f\n", i, v);
    }
    return 0;
}
