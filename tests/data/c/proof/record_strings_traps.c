/* Names written where iterations meet: one shared record renamed by every iteration
 * (the last one's name is kept), two iterations renaming one slot (i / 2), and a name
 * member that is a pointer into one shared buffer, so every strcpy writes the same
 * bytes. Each prints another result under another schedule or team. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 3000

struct record {
    char name[16];
    int id;
};

struct label {
    char *name;
    int id;
};

static struct record recs[N], last;
static struct label labels[N];
static char shared_name[32];

int main(void)
{
    for (int i = 0; i < N; i++)
        labels[i].name = shared_name;
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        recs[i].id = i;
        strcpy(last.name, i % 2 ? "odd" : "even-number");
    }
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        strcpy(recs[i / 2].name, i % 3 ? "ab" : "abcdefgh");
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        strcpy(labels[i].name, i % 2 ? "x" : "yyyyyy");
        labels[i].id = (int)strlen(labels[i].name);
    }
    long s = 0;
    for (int i = 0; i < N; i++)
        s += (long)strlen(recs[i].name) * (i % 7) + labels[i].id * (i % 5);
    printf("%s %ld\n", last.name, s);
    return 0;
}
