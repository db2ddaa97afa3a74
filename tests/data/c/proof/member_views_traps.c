/* Records read through a second pointer that starts inside the first record: one member
 * of element i through it is another member of element i + 1. Member names cannot keep
 * the two apart; each loop varies only behind a test of the address ranges, which the
 * program fails. */
#include <stdio.h>

#define N 1000

struct point {
    double x;
    double y;
};

struct pair {
    double a[2];
    double b[2];
};

static struct point p[N + 1];
static struct pair r[N + 1];

int main(void)
{
    for (int i = 0; i <= N; i++) {
        p[i].x = i;
        p[i].y = -i;
        r[i].a[0] = r[i].a[1] = i;
        r[i].b[0] = r[i].b[1] = -i;
    }
    struct point *byte_view = (struct point *)((char *)p + sizeof(double));
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        p[i].x = byte_view[i].y * 0.5 + 1.0;
    double *d = (double *)p;
    struct point *double_view = (struct point *)(d + 1);
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        p[i].x = double_view[i].y * 0.25 + 2.0;
    struct pair *half = (struct pair *)((double *)r + 2);
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        for (int c = 0; c < 2; c++)
            r[i].a[c] = half[i].b[c] * 0.5 + 1.0;
    double s = 0.0;
    for (int i = 0; i <= N; i++)
        s += p[i].x + p[i].y + r[i].a[0] + r[i].b[1];
    printf("%.3f\n", s);
    return 0;
}
