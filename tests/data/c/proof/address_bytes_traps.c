/* Addresses of a thread's own storage that reach the result without a cast: printed
 * with %p into a tag, copied byte by byte into a key, hashed by a helper. Which thread
 * ran the item shows in each. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N 2000
static unsigned long tag[N];

static unsigned bucket_of(const void *p)
{
    return (unsigned)(((uintptr_t)p >> 4) % 97u);
}

int main(void)
{
    double scratch[4];
#pragma omp parallel for private(scratch)
    for (int i = 0; i < N; i++) {
        char text[32];
        unsigned long h = 0;
        scratch[0] = i;
        snprintf(text, sizeof text, "%d@%p", i, (void *)scratch);
        for (size_t c = 0; c < strlen(text); c++)
            h = h * 31 + (unsigned char)text[c];
        tag[i] = h % 1000;
    }
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        double cell = i;
        double *p = &cell;
        unsigned long key;
        memcpy(&key, &p, sizeof key);
        tag[i] += (key >> 4) % 97 + (unsigned long)*p;
    }
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        double row[2] = {i, 0.0};
        tag[i] += bucket_of(row);
    }
    unsigned long s = 0;
    for (int i = 0; i < N; i++)
        s += tag[i] * (i % 7 + 1);
    printf("%lu\n", s);
    return 0;
}
