/* Counts the distinct threads (kernel thread ids) two alternating teams ran on: each
   thread libgomp starts gets a new id. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAXT 100000
static long seen[MAXT];
static int nseen;

static void note(void)
{
  long tid = syscall(SYS_gettid);
#pragma omp critical
  {
    int k;
    for (k = 0; k < nseen && seen[k] != tid; k++)
      ;
    if (k == nseen && nseen < MAXT)
      seen[nseen++] = tid;
  }
}

int main(int argc, char **argv)
{
  int a = atoi(argv[1]), b = atoi(argv[2]), steps = atoi(argv[3]);
  for (int t = 0; t < steps; t++) {
#pragma omp parallel num_threads(a)
    note();
#pragma omp parallel num_threads(b)
    note();
  }
  printf("%d\n", nseen);
  return 0;
}
