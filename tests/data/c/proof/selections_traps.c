/* Selections whose result follows the schedule or the team: no tie-break (which of two
 * equal candidates a thread meets first is the schedule's), a merge that breaks ties the
 * other way from the loop, a tie-break on a value two iterations share (between -0.0
 * and 0.0, which compare equal), a merge made by the master alone (its share only), and a start above every value whose index is the thread's own
 * (the team's size picks the start that wins). */
#include <omp.h>
#include <stdio.h>

#define N 20000

static double v[N], z[N], w[N];
static int key[N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        v[i] = (double)((i * 7919) % 100);
        key[i] = i % 7;
        z[i] = i % 2 ? -0.0 : 0.0;  /* equal as compared, not as printed */
        w[i] = v[i];
    }
    w[N - 1] = 1000.0;
    double b1 = -1.0, b2 = -1.0, b3 = -1.0, b4 = -1.0, b5 = -1.0;
    int i1 = -1, i2 = -1, i3 = -1, i4 = -1, i5 = -1;
#pragma omp parallel
    {
        double m = -1.0;
        int k = -1;
#pragma omp for
        for (int i = 0; i < N; i++)
            if (v[i] > m) {
                m = v[i];
                k = i;
            }
#pragma omp critical
        if (m > b1) {
            b1 = m;
            i1 = k;
        }
    }
#pragma omp parallel
    {
        double m = -1.0;
        int k = -1;
#pragma omp for
        for (int i = 0; i < N; i++)
            if (v[i] > m || (v[i] == m && i < k)) {
                m = v[i];
                k = i;
            }
#pragma omp critical
        if (m > b2 || (m == b2 && k > i2)) {
            b2 = m;
            i2 = k;
        }
    }
#pragma omp parallel
    {
        double m = -1.0;
        int k = -1;
#pragma omp for
        for (int i = 0; i < N; i++)
            if (z[i] > m || (z[i] == m && key[i] / 7 < k)) {
                m = z[i];
                k = key[i] / 7;
            }
#pragma omp critical
        if (m > b3 || (m == b3 && k < i3)) {
            b3 = m;
            i3 = k;
        }
    }
#pragma omp parallel
    {
        double m = -1.0;
        int k = -1;
#pragma omp for
        for (int i = 0; i < N; i++)
            if (w[i] > m || (w[i] == m && i < k)) {
                m = w[i];
                k = i;
            }
#pragma omp master
        if (m > b4 || (m == b4 && k < i4)) {
            b4 = m;
            i4 = k;
        }
    }
#pragma omp parallel
    {
        double m = 100.0;
        int k = N - omp_get_thread_num();
#pragma omp for
        for (int i = 0; i < N; i++)
            if (v[i] > m || (v[i] == m && i < k)) {
                m = v[i];
                k = i;
            }
#pragma omp critical
        if (m > b5 || (m == b5 && k < i5)) {
            b5 = m;
            i5 = k;
        }
    }
    printf("%g %d %g %d %g %d %g %d %g %d\n", b1, i1, b2, i2, b3, i3, b4, i4, b5, i5);
    return 0;
}
