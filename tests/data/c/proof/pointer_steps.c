/* Cursors a loop moves once a trip, as halo exchanges and record readers write them: a
   face packed into its own stretch of a send buffer (*buf++ = 2 * *src++), unpacked
   with the cursors moved in the loop's step, a record read value by value into a
   temporary, and a record's header read through its cursor (scale = *cur++). */
#include <stdio.h>
#include <stdlib.h>
#define NF 64
#define LEN 100

static double u[NF * LEN + 8], sendbuf[NF * LEN + 8], recvbuf[NF * LEN];

/* each face packed into its own stretch of the send buffer */
static void pack(void)
{
#pragma omp parallel for
    for (int face = 0; face < NF; face++) {
        double *buf = sendbuf + face * LEN;
        const double *src = u + face * LEN;
        for (int k = 0; k < LEN; k++)
            *buf++ = 2.0 * *src++;
    }
}

/* unpacked with the cursors moved in the loop's step */
static void unpack(void)
{
#pragma omp parallel for
    for (int face = 0; face < NF; face++) {
        double *dst = recvbuf + face * LEN;
        const double *src = sendbuf + face * LEN;
        for (int k = 0; k < LEN; k++, dst++, src++)
            *dst = *src + 1.0;
    }
}

/* a record copied value by value, the cursor read into a temporary */
static void copy_records(void)
{
#pragma omp parallel for
    for (int r = 0; r < NF; r++) {
        const double *in = recvbuf + r * LEN;
        double *out = u + r * LEN;
        for (int k = 0; k < LEN; k++) {
            double v = *in++;
            out[k] = v * 0.5;
        }
    }
}

/* each record scaled by its header, read through the cursor that then walks the values */
static void scale_records(double *recs, int nrec)
{
#pragma omp parallel for
    for (int r = 0; r < nrec; r++) {
        double *cur = recs + r * 6;
        double scale = *cur++;
        for (int k = 0; k < 5; k++)
            cur[k] *= scale;
    }
}

int main(void)
{
    for (int i = 0; i < NF * LEN; i++) u[i] = (i % 13) * 0.25;
    pack();
    unpack();
    copy_records();
    scale_records(recvbuf, NF * LEN / 6);
    double s = 0;
    for (int i = 0; i < NF * LEN; i++) s += u[i] + 2 * sendbuf[i] + 3 * recvbuf[i];
    printf("%.9e\n", s);
    return 0;
}
