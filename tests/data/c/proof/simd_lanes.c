/* Hand-vectorised kernels as HPC codes write them with SSE2 intrinsics: a daxpy two
   lanes at a time, a three-point smoothing reading unaligned neighbours into another
   array, a user vector type of four floats scaled through a cast, and four ints added
   through the vector pointer an intrinsic takes, and the upper lane of a load stored
   (a lane of a vector value, not memory). Each iteration touches its own lanes
   only. */
#include <stdio.h>
#include <emmintrin.h>

#define N 8192

typedef float v4sf __attribute__((vector_size(16)));

static double x[N], y[N], s[N + 2], t[N];
static float f[N];
static int q[N];
static double hi[N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        x[i] = (i % 13) * 0.25;
        y[i] = (i % 7) * 0.5;
        f[i] = (float)(i % 5);
        q[i] = i % 9;
    }
    for (int i = 0; i < N + 2; i++)
        s[i] = (i % 11) * 0.125;
    const __m128d a = _mm_set1_pd(0.5);
#pragma omp parallel for
    for (int i = 0; i < N; i += 2) {
        __m128d vx = _mm_loadu_pd(&x[i]);
        __m128d vy = _mm_loadu_pd(&y[i]);
        _mm_storeu_pd(&y[i], _mm_add_pd(vy, _mm_mul_pd(a, vx)));
    }
    const __m128d third = _mm_set1_pd(1.0 / 3.0);
#pragma omp parallel for
    for (int i = 0; i < N; i += 2) {
        __m128d l = _mm_loadu_pd(&s[i]);
        __m128d c = _mm_loadu_pd(&s[i + 1]);
        __m128d r = _mm_loadu_pd(&s[i + 2]);
        _mm_storeu_pd(&t[i], _mm_mul_pd(third, _mm_add_pd(_mm_add_pd(l, c), r)));
    }
    const v4sf two = {2.0f, 2.0f, 2.0f, 2.0f};
#pragma omp parallel for
    for (int i = 0; i < N; i += 4)
        *(v4sf *)&f[i] = *(v4sf *)&f[i] * two;
    const __m128i one = _mm_set1_epi32(1);
#pragma omp parallel for
    for (int i = 0; i < N; i += 4) {
        __m128i v = _mm_loadu_si128((const __m128i *)&q[i]);
        _mm_storeu_si128((__m128i *)&q[i], _mm_add_epi32(v, one));
    }
#pragma omp parallel for
    for (int i = 0; i < N - 1; i++)
        _mm_storeh_pd(&hi[i], _mm_loadu_pd(&x[i]));
    double sum = 0.0;
    for (int i = 0; i < N; i++)
        sum += y[i] * (i % 3) + t[i] + f[i] + q[i] + hi[i];
    printf("%.6f\n", sum);
    return 0;
}
