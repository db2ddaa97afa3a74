/* autotune's OpenMP runtime micro-benchmarks: what the runtime costs on this machine.
 *
 * Usage: microbench THREADS BANDWIDTH_BYTES
 * Prints one line of JSON for THREADS threads:
 *   forkjoin_s      one empty parallel region (fork, implied barrier, join)
 *   barrier_s       one barrier inside a region
 *   dispatch_s      one chunk handed out by schedule(dynamic,1), per thread, beyond static
 *   static_penalty  balanced work: time with schedule(static) / with schedule(dynamic,1)
 *                   (above 1 when a slow or shared core holds static's fixed share back)
 *   bandwidth_gbs   STREAM-style triad over three arrays of BANDWIDTH_BYTES/3 bytes
 *   op_s            one weighted operation (an add or a multiply) on one thread
 * Each figure is the median of several trials. Written for autotune; compiled
 * with the user's compiler by `autotune calibrate`.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define TRIALS 7

static double median(double *v, int n) {
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
      double t = v[j]; v[j] = v[j - 1]; v[j - 1] = t;
    }
  return v[n / 2];
}

static double forkjoin(int threads) {
  double t[TRIALS];
  const int reps = 2000;
  for (int k = 0; k < TRIALS; k++) {
    double t0 = omp_get_wtime();
    for (int r = 0; r < reps; r++) {
#pragma omp parallel num_threads(threads)
      { __asm__ volatile("" ::: "memory"); }
    }
    t[k] = (omp_get_wtime() - t0) / reps;
  }
  return median(t, TRIALS);
}

static double barrier(int threads) {
  double t[TRIALS];
  const int reps = 2000;
  for (int k = 0; k < TRIALS; k++) {
    double t0 = 0.0, t1 = 0.0;
#pragma omp parallel num_threads(threads)
    {
#pragma omp barrier
#pragma omp single
      t0 = omp_get_wtime();
      for (int r = 0; r < reps; r++) {
#pragma omp barrier
      }
#pragma omp single
      t1 = omp_get_wtime();
    }
    t[k] = (t1 - t0) / reps;
  }
  return median(t, TRIALS);
}

/* Work of about a microsecond that the compiler cannot remove or vectorise away. */
static double spin(double x, int n) {
  for (int i = 0; i < n; i++) x = x * 0.9999999 + 1e-7;
  return x;
}

static double timed_loop(int threads, int dynamic, long n, int work, double *sink) {
  double acc = 0.0, t0 = omp_get_wtime();
  if (dynamic) {
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) reduction(+ : acc)
    for (long i = 0; i < n; i++) acc += spin((double)i, work);
  } else {
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : acc)
    for (long i = 0; i < n; i++) acc += spin((double)i, work);
  }
  *sink += acc;
  return omp_get_wtime() - t0;
}

static void schedules(int threads, double *dispatch, double *penalty, double *sink) {
  double d[TRIALS], p[TRIALS];
  const long n_tiny = 200000L * threads;
  const long n_work = 256L * threads;
  for (int k = 0; k < TRIALS; k++) {
    double ts = timed_loop(threads, 0, n_tiny, 1, sink);
    double td = timed_loop(threads, 1, n_tiny, 1, sink);
    d[k] = (td - ts) / ((double)n_tiny / threads);
    p[k] = timed_loop(threads, 0, n_work, 2000, sink) / timed_loop(threads, 1, n_work, 2000, sink);
  }
  *dispatch = median(d, TRIALS);
  *penalty = median(p, TRIALS);
}

static double bandwidth(int threads, long bytes) {
  long n = bytes / 3 / (long)sizeof(double);
  if (n < 1024) n = 1024;
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double)),
         *c = malloc(n * sizeof(double));
  if (!a || !b || !c) return -1.0;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (long i = 0; i < n; i++) { a[i] = 0.0; b[i] = 1.0; c[i] = 2.0; }
  double t[TRIALS];
  for (int k = 0; k < TRIALS; k++) {
    double t0 = omp_get_wtime();
#pragma omp parallel for num_threads(threads) schedule(static)
    for (long i = 0; i < n; i++) a[i] = b[i] + 3.0 * c[i];
    t[k] = omp_get_wtime() - t0;
  }
  double gbs = 3.0 * (double)n * sizeof(double) / median(t, TRIALS) / 1e9;
  if (a[n / 2] != 7.0) gbs = -1.0;
  free(a); free(b); free(c);
  return gbs;
}

static double op_time(double *sink) {
  double t[TRIALS];
  const int n = 2000000;
  for (int k = 0; k < TRIALS; k++) {
    double x0 = 1.0, x1 = 2.0, x2 = 3.0, x3 = 4.0, t0 = omp_get_wtime();
    for (int i = 0; i < n; i++) { /* 4 independent multiply-add chains: 8 ops */
      x0 = x0 * 0.9999999 + 1e-7; x1 = x1 * 0.9999999 + 1e-7;
      x2 = x2 * 0.9999999 + 1e-7; x3 = x3 * 0.9999999 + 1e-7;
    }
    t[k] = (omp_get_wtime() - t0) / (8.0 * n);
    *sink += x0 + x1 + x2 + x3;
  }
  return median(t, TRIALS);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s THREADS BANDWIDTH_BYTES\n", argv[0]);
    return 2;
  }
  int threads = atoi(argv[1]);
  long bytes = atol(argv[2]);
  if (threads < 1 || bytes < 1) {
    fprintf(stderr, "THREADS and BANDWIDTH_BYTES must be positive\n");
    return 2;
  }
  double sink = 0.0, dispatch, penalty;
  double fj = forkjoin(threads), bar = barrier(threads);
  schedules(threads, &dispatch, &penalty, &sink);
  double bw = bandwidth(threads, bytes);
  double op = op_time(&sink);
  printf("{\"threads\": %d, \"forkjoin_s\": %.6e, \"barrier_s\": %.6e, \"dispatch_s\": %.6e, "
         "\"static_penalty\": %.4f, \"bandwidth_gbs\": %.4f, \"op_s\": %.6e, \"sink\": %.3g}\n",
         threads, fj, bar, dispatch, penalty, bw, op, sink > 0 ? 1.0 : 0.0);
  return 0;
}
