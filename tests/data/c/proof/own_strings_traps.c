/* The iteration's own strings read past what it wrote: a terminator overwritten, a
 * copy hashed as a whole buffer, a scan that looks one byte ahead of the terminator
 * it stops at. */
#include <stdio.h>
#include <string.h>

#define N 2000

static unsigned long bucket[N];
static const char *kinds[3] = {"fuel", "cladding", "water"};

int main(void)
{
    unsigned long t = 0;
    /* the terminator is overwritten: strlen runs into bytes an earlier item left */
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        char key[24];
        snprintf(key, sizeof key, "k%d", i);
        key[strlen(key)] = '-';
        bucket[i] = strlen(key);
    }
    /* the whole buffer is hashed, past the copied string */
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        char key[16];
        unsigned long h = 5381;
        strcpy(key, kinds[i % 3]);
        for (int c = 0; c < (int)sizeof key; c++)
            h = h * 33 + (unsigned char)key[c];
        bucket[i] += h % 1024;
    }
    /* the scan changes the string it scans */
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        char tag[20];
        unsigned long h = 0;
        snprintf(tag, sizeof tag, "t%d", i);
        for (int c = 0; tag[c]; c++) {
            if (tag[c] == '1')
                tag[c + 1] = 'x';
            h = h * 31 + (unsigned char)tag[c];
        }
        bucket[i] += h % 100;
    }
    for (int i = 0; i < N; i++)
        t += bucket[i] * (unsigned long)(i + 1);
    printf("%lu\n", t);
    return 0;
}
