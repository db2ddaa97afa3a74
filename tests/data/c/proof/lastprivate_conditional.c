/* A solver's sweep remembers the last row whose residual is still above the
 * tolerance: lastprivate(conditional:) leaves the value of the sequentially last
 * iteration that set it, under any schedule and team (OpenMP 5.0). */
#include <stdio.h>
#define ROWS 4000
#define COLS 64
static double x[ROWS][COLS], r[ROWS];

int main(void)
{
    int last_bad = -1;
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++)
            x[i][j] = ((i * 131 + j * 17) % 97) * (i < 3500 ? 0.01 : 0.001);
#pragma omp parallel for lastprivate(conditional: last_bad)
    for (int i = 0; i < ROWS; i++) {
        double s = 0.0;
        for (int j = 0; j < COLS; j++)
            s += x[i][j] * x[i][j];
        r[i] = s;
        if (r[i] > 18.5)
            last_bad = i;
    }
    double total = 0.0;
    for (int i = 0; i < ROWS; i++)
        total += r[i];
    printf("%d %.6f\n", last_bad, total);
    return 0;
}
