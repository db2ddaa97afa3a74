/* A checkpoint written through a descriptor whose check is the wrong one: open fails
   with -1, and descriptor 0 is a valid one (stdin closed), so after '!fd' holds errno
   need not have been set by open; perror may print what a failing sqrt of the loop set
   on the master thread. The loop is kept. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <unistd.h>

#define N 100000

static double x[N], y[N];

int main(int argc, char **argv)
{
    int i;
    double s = 0.0;
    for (i = 0; i < N; i++)
        x[i] = (i % 997 == 5) ? -1.0 : 1.0 + i;
#pragma omp parallel for
    for (i = 0; i < N; i++)
        y[i] = sqrt(x[i]);
    int fd = open(argc > 1 ? argv[1] : "/dev/null", O_WRONLY);
    if (!fd) {
        perror("checkpoint");
        return 1;
    }
    for (i = 0; i < N; i++)
        if (y[i] == y[i])
            s += y[i];
    dprintf(fd, "%.6f\n", s);
    close(fd);
    printf("%.6f\n", s);
    return 0;
}
