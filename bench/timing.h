/* Timing helpers shared by the C floors in bench/: a monotonic clock and a qsort comparator for
 * samples, so each program takes medians the same way. */
#ifndef BENCH_TIMING_H
#define BENCH_TIMING_H
#include <time.h>

static inline double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static inline int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}
#endif
