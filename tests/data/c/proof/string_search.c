/* Records parsed in parallel as input readers do: each line's key before the ':' and
 * its value after it (strchr into the record's own row), and a copy of the line cut at
 * the separator by a stored terminator before it is read again. Every loop varies. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 1500
#define LEN 32

static char lines[N][LEN];
static double value[N];
static int key[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        snprintf(lines[i], sizeof lines[i], "%d:%d.25", i % 97, i);
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        char *colon = strchr(lines[i], ':');
        key[i] = atoi(lines[i]);
        value[i] = colon != NULL ? atof(colon + 1) : 0.0;
    }
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        char field[LEN];
        strcpy(field, lines[i]);
        char *dot = strrchr(field, '.');
        if (dot != NULL)
            *dot = '\0';
        key[i] += (int)strlen(field) + atoi(field);
    }
    double s = 0.0;
    long k = 0;
    for (int i = 0; i < N; i++) {
        s += value[i];
        k += key[i];
    }
    printf("%.2f %ld\n", s, k);
    return 0;
}
