#ifndef AUTOTUNE_STUB_TIME_H
#define AUTOTUNE_STUB_TIME_H
#include "_autotune_types.h"
#define CLOCKS_PER_SEC 1000000L
#define CLOCK_MONOTONIC 1
#define CLOCK_REALTIME 0
struct timespec { time_t tv_sec; long tv_nsec; };
clock_t clock(void);
time_t time(time_t *t);
int clock_gettime(int clk, struct timespec *ts);
double difftime(time_t a, time_t b);
#endif
