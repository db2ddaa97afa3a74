/* Conjugate gradient in the style of the NAS parallel benchmarks (C/OpenMP
 * ports): global arrays, one parallel region per solve holding several
 * worksharing loops, a master block, and the iteration loop executed by
 * every thread inside the region. Written for the autotune tests. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <omp.h>

#ifndef NA
#define NA 1400
#endif
#ifndef HALFBW
#define HALFBW 3
#endif
#ifndef NITER
#define NITER 15
#endif
#ifndef CGITMAX
#define CGITMAX 25
#endif
#ifndef BS
#define BS 50
#endif

#define NB (NA / BS)
#define ROWLEN (2 * HALFBW + 1)
#define NZ (NA * ROWLEN)

/* common /main_int_mem/ */
static int colidx[NZ];
static int rowstr[NA + 1];

/* common /main_flt_mem/ */
static double a[NZ];
static double x[NA];
static double z[NA];
static double p[NA];
static double q[NA];
static double r[NA];
static double zblk[NB][BS];

static double rho, rho0, dsum;

/* Symmetric banded matrix with wrap-around, strictly diagonally dominant. */
static void makea(void)
{
    int i, d, nz = 0;
    for (i = 0; i < NA; i++) {
        rowstr[i] = nz;
        for (d = -HALFBW; d <= HALFBW; d++) {
            int j = (i + d + NA) % NA;
            colidx[nz] = j;
            a[nz] = (d == 0) ? 2.0 * HALFBW + 1.5 : -1.0 / (1.0 + abs(d));
            nz++;
        }
    }
    rowstr[NA] = nz;
}

static void conj_grad(double *rnorm)
{
    int j, k, cgit;
    double sum, alpha, beta;

    rho = 0.0;
    dsum = 0.0;

#pragma omp parallel default(shared) private(j, k, cgit, sum, alpha, beta)
    {
        /* Initialize the CG algorithm */
#pragma omp for nowait
        for (j = 0; j < NA; j++) {
            q[j] = 0.0;
            z[j] = 0.0;
        }
#pragma omp for reduction(+:rho)
        for (j = 0; j < NA; j++) {
            r[j] = x[j];
            p[j] = r[j];
            rho = rho + r[j] * r[j];
        }

        /* The conjugate gradient iteration loop */
        for (cgit = 1; cgit <= CGITMAX; cgit++) {
#pragma omp master
            {
                rho0 = rho;
                rho = 0.0;
                dsum = 0.0;
            }
#pragma omp barrier

            /* q = A.p */
#pragma omp for schedule(static)
            for (j = 0; j < NA; j++) {
                sum = 0.0;
                for (k = rowstr[j]; k < rowstr[j + 1]; k++)
                    sum = sum + a[k] * p[colidx[k]];
                q[j] = sum;
            }

#pragma omp for reduction(+:dsum)
            for (j = 0; j < NA; j++)
                dsum = dsum + p[j] * q[j];

            alpha = (dsum != 0.0) ? rho0 / dsum : 0.0;

#pragma omp for reduction(+:rho)
            for (j = 0; j < NA; j++) {
                z[j] = z[j] + alpha * p[j];
                r[j] = r[j] - alpha * q[j];
                rho = rho + r[j] * r[j];
            }

            beta = (rho0 != 0.0) ? rho / rho0 : 0.0;

#pragma omp for
            for (j = 0; j < NA; j++)
                p[j] = r[j] + beta * p[j];
        } /* end of do cgit=1,cgitmax */

        /* Copy z into blocks for the caller's block norms */
#pragma omp for collapse(2) schedule(static)
        for (j = 0; j < NB; j++)
            for (k = 0; k < BS; k++)
                zblk[j][k] = z[j * BS + k];
    } /* end omp parallel */

    *rnorm = sqrt(rho);
}

int main(void)
{
    int it, i, b;
    double rnorm = 0.0, zeta = 0.0;
    double norm_temp1, norm_temp2;

    makea();
    for (i = 0; i < NA; i++)
        x[i] = 1.0;

    for (it = 1; it <= NITER; it++) {
        conj_grad(&rnorm);

        norm_temp1 = 0.0;
        norm_temp2 = 0.0;
#pragma omp parallel for default(shared) private(i) reduction(+:norm_temp1, norm_temp2)
        for (i = 0; i < NA; i++) {
            norm_temp1 = norm_temp1 + x[i] * z[i];
            norm_temp2 = norm_temp2 + z[i] * z[i];
        }
        norm_temp2 = 1.0 / sqrt(norm_temp2);
        zeta = 10.0 + 1.0 / norm_temp1;

        /* Normalize z to obtain x (sequential, over the blocks) */
        for (b = 0; b < NB; b++)
            for (i = 0; i < BS; i++)
                x[b * BS + i] = norm_temp2 * zblk[b][i] * (1.0 + 1.0e-3 * (b % 3));
    }

    printf("checksum: %.12e\n", zeta + rnorm);
    return 0;
}
