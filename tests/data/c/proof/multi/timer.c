/* The wall clock, as proxy apps keep it in a file of its own. */
#include <sys/time.h>

double wall_time(void)
{
    struct timeval tv;
    gettimeofday(&tv, 0);
    return tv.tv_sec + 1e-6 * tv.tv_usec;
}
