/* Neighbour lists that spill into the next atom's row: a test of the row length by
 * <=, a counter stored before its test (++cnt), a counter that can step back, a
 * counter that starts at -1, a test of another counter than the one stored through,
 * and a counter a helper moves through its address. Each writes a slot of row i + 1
 * from iteration i. */
#include <stdio.h>
#include <stdlib.h>

static void push(int *list, int *cnt, int j) { list[(*cnt)++] = j; }

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 300;
    int maxn = 4;
    int *list = calloc((size_t)(n + 1) * maxn, sizeof(int));
    long sum = 0;
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
        int cnt = 0;
        for (int j = 0; j < n; j++)
            if ((i + j) % 7 == 0 && cnt <= maxn)
                list[i * maxn + cnt++] = j + 1;
    }
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
        int cnt = 0;
        for (int j = 0; j < n; j++)
            if ((i * j) % 5 == 1 && cnt < maxn)
                list[i * maxn + ++cnt] = j + 2;
    }
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
        int cnt = 0;
        for (int j = 0; j < n; j++) {
            if ((i + 2 * j) % 9 == 0 && cnt < maxn)
                list[i * maxn + cnt++] = j + 3;
            if (j % 11 == 10 && cnt > 0)
                cnt -= 2;
        }
    }
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
        int cnt = -1;
        for (int j = 0; j < n; j++)
            if ((i + j) % 13 == 0 && cnt < maxn - 1)
                list[i * maxn + cnt++] = j + 4;
    }
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
        int cnt = 0, seen = 0;
        for (int j = 0; j < n; j++)
            if ((i + j) % 3 == 0) {
                if (seen < maxn)
                    list[i * maxn + cnt] = j + 5;
                cnt++;
                seen += (j % 2);
            }
    }
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
        int cnt = 0;
        for (int j = 0; j < n && cnt < maxn + 1; j++)
            if ((i + j) % 17 == 0)
                push(&list[i * maxn], &cnt, j + 6);
    }
    for (int i = 0; i < (n + 1) * maxn; i++)
        sum += (long)list[i] * (i % 9 + 1);
    printf("%ld\n", sum);
    return 0;
}
