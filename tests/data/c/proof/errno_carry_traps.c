/* errno tested before this iteration clears it: what an earlier iteration's failing
 * parse left in the thread's errno decides the result. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#define N 3000
static char text[N][24];
static int flagged[N];

int main(void)
{
  for (int i = 0; i < N; i++)
    snprintf(text[i], sizeof text[i], i % 97 ? "%d.25" : "1e999", i);
  errno = 0;
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    flagged[i] = errno == ERANGE;
    errno = 0;
    (void)strtod(text[i], NULL);
  }
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += flagged[i];
  printf("%d\n", bad);
  return 0;
}
