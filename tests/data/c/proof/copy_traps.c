/* Copies that reach other iterations' elements: two rows at a time, a + i of a 2-D array
   (which moves by rows), a flat copy one element too long, a byte view. */
#include <stdio.h>
#include <string.h>
#define N 64
#define M 32
static double a[N][M], b[N][M], c[N * M + M];
int main(void) {
  for (int i = 0; i < N; i++) for (int j = 0; j < M; j++) b[i][j] = i * 0.5 + j;
  /* two rows per copy: row i and row i + 1 */
  #pragma omp parallel for
  for (int i = 0; i < N - 1; i++)
    memcpy(a[i], b[i], 2 * sizeof a[i]);
  /* a + i moves by rows: each copy a whole row and one element of the next */
  #pragma omp parallel for
  for (int i = 0; i < N - 1; i++)
    memcpy(a + i, b, sizeof a[0] + sizeof(double));
  /* flat copies one element too long */
  #pragma omp parallel for
  for (int i = 0; i < N; i++)
    memcpy(&c[i * M], b[i], (M + 1) * sizeof(double));
  /* a char view: bytes, not doubles */
  #pragma omp parallel for
  for (int i = 0; i < N; i++)
    memset((char *)c + i * 8, i, 16);
  double s = 0; for (int i = 0; i < N; i++) for (int j = 0; j < M; j++) s += a[i][j] * (j % 3);
  for (int i = 0; i < N * M + M; i++) s += c[i] * (i % 5);
  printf("%.3f\n", s);
  return 0;
}
