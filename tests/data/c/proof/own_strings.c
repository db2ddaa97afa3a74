/* Labels and keys the iteration formats or copies into its own buffers and then uses
 * as C strings, as readers of input decks and hash tables do: every read stops at the
 * terminator the iteration wrote, so every loop varies. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 2000

static unsigned long bucket[N];
static double value[N];
static const char *kinds[3] = {"fuel", "cladding", "water"};

int main(void)
{
    unsigned long t = 0;
    double s = 0.0;
    /* a label hashed up to its length */
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        char label[24];
        unsigned long h = 5381;
        snprintf(label, sizeof label, "cell-%d", i);
        for (size_t c = 0; c < strlen(label); c++)
            h = h * 33 + (unsigned char)label[c];
        bucket[i] = h % 1024;
    }
    /* a number formatted and parsed back, and compared */
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        char num[32];
        snprintf(num, sizeof num, "%d.5", i);
        value[i] = atof(num) + (strcmp(num, "100.5") == 0);
    }
    /* a key built by copying and appending */
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        char key[24];
        strcpy(key, kinds[i % 3]);
        strcat(key, "-hot");
        bucket[i] += strlen(key);
    }
    /* a tag scanned to its terminator */
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        char tag[20];
        unsigned long h = 0;
        snprintf(tag, sizeof tag, "t%d", i * 7);
        for (int c = 0; tag[c] != '\0'; c++)
            h = h * 31 + (unsigned char)tag[c];
        bucket[i] += h % 100;
    }
    /* a copy made by strdup, measured and freed */
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        char *copy = strdup(kinds[i % 3]);
        if (copy == NULL)
            abort();
        bucket[i] += strlen(copy) + (copy[0] == 'w');
        free(copy);
    }
    for (int i = 0; i < N; i++) {
        t += bucket[i] * (unsigned long)(i + 1);
        s += value[i];
    }
    printf("%lu %.2f\n", t, s);
    return 0;
}
