/* Record parsers move a cursor through a helper: next_field(&pos) and skip(&j) change
   a local without an assignment in the loop. The first loop's cursor steps back into
   the previous record, which the previous iteration writes; the second loop's counter
   jumps past its row's end into the next row's first field, which the next iteration
   reads. Run in order each iteration sees its predecessor's values; split between
   threads, the first iteration of the second thread sees the initial ones. */
#include <stdio.h>

#define ROWS 4096
#define W 256

static double out[ROWS * W + 2 * W];
static double res[ROWS];
static double tab[ROWS * W + 2 * W];
static double got[ROWS];

static void back_one(int *pos) { *pos -= 1; }

static void skip_to(int *j, int where) { *j = where; }

int main(void)
{
#pragma omp parallel for
    for (int i = 1; i < ROWS; i++) {
        int pos = i * W;
        back_one(&pos);
        res[i] = out[pos];
        for (int k = 0; k < W; k++)
            out[i * W + k] = i + 0.5 * k;
    }
#pragma omp parallel for
    for (int i = 0; i < ROWS; i++) {
        got[i] = tab[i * W + 1];
        for (int j = 0; j < W; j++) {
            if (j == W - 1)
                skip_to(&j, W + 1);
            tab[i * W + j] = i + 0.25 * j;
        }
    }
    double s = 0.0;
    for (int i = 0; i < ROWS; i++)
        s += (res[i] + got[i]) * (i % 7 + 1);
    printf("%.6f\n", s);
    return 0;
}
