/* Records with a fixed-size name, as inventory and particle codes keep them: each
 * iteration builds a record in a local struct (strcpy into its name, then the record
 * memcpy'd into its slot), and a second pass copies a reversed record and renames it
 * (strcpy into the slot's own name member). Each iteration touches its own record. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 3000

struct record {
    char name[16];
    int id;
    double value;
};

static struct record recs[N], copy[N];

int main(void)
{
    static const char *kinds[4] = {"bolt", "nut", "washer", "screw"};
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        struct record r;
        strcpy(r.name, kinds[i % 4]);
        r.id = i;
        r.value = i * 0.25;
        memcpy(&recs[i], &r, sizeof r);
    }
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        memcpy(&copy[i], &recs[N - 1 - i], sizeof copy[i]);
        strcpy(copy[i].name, recs[i].name);
        strcat(copy[i].name, "-r");
    }
    double s = 0.0;
    long chars = 0;
    for (int i = 0; i < N; i++) {
        s += copy[i].value * (i % 3) + copy[i].id;
        chars += (long)strlen(copy[i].name) * (i % 5) + copy[i].name[0];
    }
    printf("%.3f %ld\n", s, chars);
    return 0;
}
