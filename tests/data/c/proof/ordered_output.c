/* A sweep computes each row's norm in parallel and reports the rows in order, with a
 * running (exponentially smoothed) norm: the ordered region runs one iteration at a
 * time in the iterations' order, so output and recurrence are the same under any
 * schedule or team. */
#include <stdio.h>
#define ROWS 600
#define COLS 200
static double m[ROWS][COLS];

int main(void)
{
    double smooth = 0.0;
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++)
            m[i][j] = ((i * 7 + j * 3) % 23) * 0.125;
#pragma omp parallel for ordered schedule(static)
    for (int i = 0; i < ROWS; i++) {
        double s = 0.0;
        for (int j = 0; j < COLS; j++)
            s += m[i][j] * m[i][j];
#pragma omp ordered
        {
            smooth = 0.9 * smooth + 0.1 * s;
            if (i % 50 == 0)
                printf("row %d norm2 %.4f smoothed %.6f\n", i, s, smooth);
        }
    }
    printf("final %.9f\n", smooth);
    return 0;
}
