/* Vector accesses wider than the loop's step: two lanes stored at every index (each
   store overlaps the next iteration's), a shifted two-lane update reading what the
   next iteration writes, a pair of ints read and written as one long long (a
   may_alias word, as hashing codes declare one), four float lanes through a user
   vector type at every second index, an integer store through the vector pointer
   an intrinsic takes, and a lane of a thread's own vector read before the iteration
   sets it. Run in order each iteration sees what the one before left; split between
   threads, another result. */
#include <stdio.h>
#include <emmintrin.h>

#define N 8192

typedef float v4sf_u __attribute__((vector_size(16), __may_alias__, __aligned__(4)));
typedef long long __attribute__((__may_alias__)) word_alias;

static double y[N + 2], z[N + 2];
static int w[N + 2], q[N + 4];
static float f[N + 4];
static double lo[N], x2[N];

int main(void)
{
    for (int i = 0; i < N + 2; i++) {
        y[i] = (i % 7) * 0.5;
        z[i] = (i % 5) * 0.25;
        w[i] = i % 9;
    }
    for (int i = 0; i < N + 4; i++) {
        f[i] = (float)(i % 3);
        q[i] = i % 4;
    }
    const __m128d two = _mm_set1_pd(2.0);
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        _mm_storeu_pd(&y[i], _mm_mul_pd(_mm_loadu_pd(&y[i]), two));
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        _mm_storeu_pd(&z[i], _mm_add_pd(_mm_loadu_pd(&z[i + 1]), two));
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        long long v = *(word_alias *)&w[i];
        *(word_alias *)&w[i] = v * 3 + 1;
    }
    const v4sf_u half = {0.5f, 0.5f, 0.5f, 0.5f};
#pragma omp parallel for
    for (int i = 0; i < N; i += 2)
        *(v4sf_u *)&f[i] = *(v4sf_u *)&f[i] * half + half;
    const __m128i one = _mm_set1_epi32(1);
#pragma omp parallel for
    for (int i = 0; i < N; i += 2) {
        __m128i v = _mm_loadu_si128((const __m128i *)&q[i]);
        _mm_storeu_si128((__m128i *)&q[i], _mm_add_epi32(v, one));
    }
    for (int i = 0; i < N; i++)
        x2[i] = (i % 6) * 0.5;
    __m128d acc = _mm_setzero_pd();
#pragma omp parallel for firstprivate(acc)
    for (int i = 0; i < N; i++) {
        acc[0] = x2[i];
        lo[i] = acc[0] + acc[1];
        acc[1] = x2[i];
    }
    double s = 0.0;
    long t = 0;
    for (int i = 0; i < N + 2; i++) {
        s += y[i] * (i % 3) + z[i];
        t += (long)w[i] * (i % 5);
    }
    for (int i = 0; i < N + 4; i++)
        s += f[i] * (i % 7) + q[i];
    for (int i = 0; i < N; i++)
        s += lo[i] * (i % 5);
    printf("%.6f %ld\n", s, t);
    return 0;
}
