/*
 * polybench.c -- run-time support for the pencilc PolyBench test kernels:
 * aligned allocation, cache flushing and a wall-clock timer.
 * Our own implementation of the PolyBench/C 4.2.1 utility interface;
 * compiles as C99 and as C++.
 */
#ifndef _POSIX_C_SOURCE
# define _POSIX_C_SOURCE 200112L
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "polybench.h"

/* Size of the buffer streamed through by polybench_flush_cache (KiB);
   must exceed the last-level cache. */
#ifndef POLYBENCH_CACHE_SIZE_KB
# define POLYBENCH_CACHE_SIZE_KB 32770
#endif

/* Alignment of the arrays returned by polybench_alloc_data. */
#ifndef POLYBENCH_ALLOC_ALIGNMENT
# define POLYBENCH_ALLOC_ALIGNMENT 4096
#endif

double polybench_t_start = 0.0;
double polybench_t_end = 0.0;

double polybench_get_time(void)
{
  struct timespec ts;

  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
    return 0.0;
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1.0e-9;
}

void polybench_flush_cache(void)
{
  size_t count = (size_t) POLYBENCH_CACHE_SIZE_KB * 1024 / sizeof(double);
  double *buffer = (double *) calloc(count, sizeof(double));
  volatile double sink = 0.0;
  double acc = 0.0;
  size_t i;

  if (buffer == NULL)
    return;
  for (i = 0; i < count; i++)
    acc += buffer[i];
  sink = acc;
  (void) sink;
  free(buffer);
}

void polybench_prepare_instruments(void)
{
#ifndef POLYBENCH_NO_FLUSH_CACHE
  polybench_flush_cache();
#endif
}

void polybench_timer_start(void)
{
  polybench_prepare_instruments();
  polybench_t_start = polybench_get_time();
}

void polybench_timer_stop(void)
{
  polybench_t_end = polybench_get_time();
}

void polybench_timer_print(void)
{
  printf("%0.6f\n", polybench_t_end - polybench_t_start);
}

void *polybench_alloc_data(unsigned long long int n, int elt_size)
{
  size_t bytes = (size_t) n * (size_t) elt_size;
  void *ptr = NULL;

  if (bytes == 0)
    bytes = 1;
  if (posix_memalign(&ptr, POLYBENCH_ALLOC_ALIGNMENT, bytes) != 0
      || ptr == NULL)
    {
      fprintf(stderr, "[PolyBench] cannot allocate %llu bytes\n",
              (unsigned long long) bytes);
      exit(1);
    }
  memset(ptr, 0, bytes);
  return ptr;
}

void polybench_free_data(void *ptr)
{
  free(ptr);
}
