/*
 * polybench.h -- support header for the pencilc PolyBench test kernels.
 *
 * This is our own, independently written header.  It provides the macro
 * vocabulary of PolyBench/C 4.2.1 (array declaration/allocation macros,
 * loop-bound macros, dump macros, timing instruments) so that kernels
 * written in the PolyBench style build unchanged against it.
 *
 * Differences from the reference distribution:
 *   - kernel headers should use DATA_PRINTF_MODIFIER "%.17g " (double) /
 *     "%.9g " (float) so dumps carry full precision;
 *   - the only instrument is the wall-clock timer (POLYBENCH_TIME);
 *   - allocated arrays are zero-filled so every run is deterministic;
 *   - no array padding.
 *
 * The header is valid C99 and valid C++ (nvcc compiles host code as C++).
 *
 * Options (all given with -D on the command line):
 *   POLYBENCH_USE_C99_PROTO   array parameters use the run-time sizes
 *                             (C99 variable length arrays)
 *   POLYBENCH_USE_SCALAR_LB   _PB_* loop bounds are the compile-time sizes
 *                             (default: the run-time sizes, i.e. the kernel
 *                             function's parameters)
 *   POLYBENCH_STACK_ARRAYS    arrays are automatic variables instead of
 *                             heap allocations
 *   POLYBENCH_DUMP_ARRAYS     print_array() output goes to stderr
 *   POLYBENCH_TIME            print the kernel wall-clock time (seconds)
 *   POLYBENCH_NO_FLUSH_CACHE  do not flush the cache before timing
 *
 * The data-type macros (DATA_TYPE, DATA_PRINTF_MODIFIER, SCALAR_VAL,
 * SQRT_FUN, EXP_FUN, POW_FUN) are selected in each kernel header from
 * DATA_TYPE_IS_INT / DATA_TYPE_IS_FLOAT / DATA_TYPE_IS_DOUBLE, exactly as in
 * PolyBench, because the default type differs between kernels.
 */
#ifndef POLYBENCH_H
#define POLYBENCH_H

#include <stdio.h>
#include <stdlib.h>

/* The kernels delimit their static control part with "#pragma scop" /
   "#pragma endscop"; keep -Wall quiet about these unknown pragmas. */
#if defined(__GNUC__)
# pragma GCC diagnostic ignored "-Wunknown-pragmas"
#endif

/* ------------------------------------------------------------------ */
/* Selection between compile-time and run-time sizes.                 */
/* ------------------------------------------------------------------ */

#ifdef POLYBENCH_USE_C99_PROTO
# define POLYBENCH_C99_SELECT(fixed, dynamic) dynamic
#else
# define POLYBENCH_C99_SELECT(fixed, dynamic) fixed
#endif

/* As in PolyBench/C 4.2.1: loops are bounded by the run-time sizes (the
   kernel function's parameters) unless POLYBENCH_USE_SCALAR_LB asks for
   the compile-time constants. */
#ifdef POLYBENCH_USE_SCALAR_LB
# define POLYBENCH_LOOP_BOUND(fixed, dynamic) fixed
#else
# define POLYBENCH_LOOP_BOUND(fixed, dynamic) dynamic
#endif

/* ------------------------------------------------------------------ */
/* Array types, used for parameters: POLYBENCH_2D(A,N,M,n,m) gives     */
/* A[N][M] (or A[n][m] with POLYBENCH_USE_C99_PROTO).                 */
/* ------------------------------------------------------------------ */

#define POLYBENCH_1D(var, d1, dd1) \
  var[POLYBENCH_C99_SELECT(d1, dd1)]
#define POLYBENCH_2D(var, d1, d2, dd1, dd2) \
  var[POLYBENCH_C99_SELECT(d1, dd1)][POLYBENCH_C99_SELECT(d2, dd2)]
#define POLYBENCH_3D(var, d1, d2, d3, dd1, dd2, dd3) \
  var[POLYBENCH_C99_SELECT(d1, dd1)][POLYBENCH_C99_SELECT(d2, dd2)] \
     [POLYBENCH_C99_SELECT(d3, dd3)]
#define POLYBENCH_4D(var, d1, d2, d3, d4, dd1, dd2, dd3, dd4) \
  var[POLYBENCH_C99_SELECT(d1, dd1)][POLYBENCH_C99_SELECT(d2, dd2)] \
     [POLYBENCH_C99_SELECT(d3, dd3)][POLYBENCH_C99_SELECT(d4, dd4)]
#define POLYBENCH_5D(var, d1, d2, d3, d4, d5, dd1, dd2, dd3, dd4, dd5) \
  var[POLYBENCH_C99_SELECT(d1, dd1)][POLYBENCH_C99_SELECT(d2, dd2)] \
     [POLYBENCH_C99_SELECT(d3, dd3)][POLYBENCH_C99_SELECT(d4, dd4)] \
     [POLYBENCH_C99_SELECT(d5, dd5)]

/* ------------------------------------------------------------------ */
/* Array variables.  By default an array is a pointer to a heap block  */
/* of array type:  double (*A)[N][M]  and the code passes              */
/* POLYBENCH_ARRAY(A) == *A  to the kernels.                          */
/* ------------------------------------------------------------------ */

#ifdef POLYBENCH_STACK_ARRAYS

# define POLYBENCH_ARRAY(x) x
# define POLYBENCH_FREE_ARRAY(x)
# define POLYBENCH_DECL_VAR(x) x
# define POLYBENCH_1D_ARRAY_DECL(var, type, d1, dd1) \
  type POLYBENCH_1D(var, d1, dd1)
# define POLYBENCH_2D_ARRAY_DECL(var, type, d1, d2, dd1, dd2) \
  type POLYBENCH_2D(var, d1, d2, dd1, dd2)
# define POLYBENCH_3D_ARRAY_DECL(var, type, d1, d2, d3, dd1, dd2, dd3) \
  type POLYBENCH_3D(var, d1, d2, d3, dd1, dd2, dd3)
# define POLYBENCH_4D_ARRAY_DECL(var, type, d1, d2, d3, d4, dd1, dd2, dd3, dd4) \
  type POLYBENCH_4D(var, d1, d2, d3, d4, dd1, dd2, dd3, dd4)
# define POLYBENCH_5D_ARRAY_DECL(var, type, d1, d2, d3, d4, d5, dd1, dd2, dd3, dd4, dd5) \
  type POLYBENCH_5D(var, d1, d2, d3, d4, d5, dd1, dd2, dd3, dd4, dd5)

#else /* heap arrays */

# define POLYBENCH_ARRAY(x) (*(x))
# define POLYBENCH_FREE_ARRAY(x) polybench_free_data((void *) (x))
# define POLYBENCH_DECL_VAR(x) (*x)

# define POLYBENCH_ALLOC_1D_ARRAY(n1, type) \
  ((type (*)[n1]) \
   polybench_alloc_data((unsigned long long) (n1), (int) sizeof(type)))
# define POLYBENCH_ALLOC_2D_ARRAY(n1, n2, type) \
  ((type (*)[n1][n2]) \
   polybench_alloc_data((unsigned long long) (n1) * (n2), (int) sizeof(type)))
# define POLYBENCH_ALLOC_3D_ARRAY(n1, n2, n3, type) \
  ((type (*)[n1][n2][n3]) \
   polybench_alloc_data((unsigned long long) (n1) * (n2) * (n3), \
                        (int) sizeof(type)))
# define POLYBENCH_ALLOC_4D_ARRAY(n1, n2, n3, n4, type) \
  ((type (*)[n1][n2][n3][n4]) \
   polybench_alloc_data((unsigned long long) (n1) * (n2) * (n3) * (n4), \
                        (int) sizeof(type)))
# define POLYBENCH_ALLOC_5D_ARRAY(n1, n2, n3, n4, n5, type) \
  ((type (*)[n1][n2][n3][n4][n5]) \
   polybench_alloc_data((unsigned long long) (n1) * (n2) * (n3) * (n4) * (n5), \
                        (int) sizeof(type)))

# define POLYBENCH_1D_ARRAY_DECL(var, type, d1, dd1) \
  type POLYBENCH_1D(POLYBENCH_DECL_VAR(var), d1, dd1) = \
    POLYBENCH_ALLOC_1D_ARRAY(POLYBENCH_C99_SELECT(d1, dd1), type)
# define POLYBENCH_2D_ARRAY_DECL(var, type, d1, d2, dd1, dd2) \
  type POLYBENCH_2D(POLYBENCH_DECL_VAR(var), d1, d2, dd1, dd2) = \
    POLYBENCH_ALLOC_2D_ARRAY(POLYBENCH_C99_SELECT(d1, dd1), \
                             POLYBENCH_C99_SELECT(d2, dd2), type)
# define POLYBENCH_3D_ARRAY_DECL(var, type, d1, d2, d3, dd1, dd2, dd3) \
  type POLYBENCH_3D(POLYBENCH_DECL_VAR(var), d1, d2, d3, dd1, dd2, dd3) = \
    POLYBENCH_ALLOC_3D_ARRAY(POLYBENCH_C99_SELECT(d1, dd1), \
                             POLYBENCH_C99_SELECT(d2, dd2), \
                             POLYBENCH_C99_SELECT(d3, dd3), type)
# define POLYBENCH_4D_ARRAY_DECL(var, type, d1, d2, d3, d4, dd1, dd2, dd3, dd4) \
  type POLYBENCH_4D(POLYBENCH_DECL_VAR(var), d1, d2, d3, d4, dd1, dd2, dd3, dd4) = \
    POLYBENCH_ALLOC_4D_ARRAY(POLYBENCH_C99_SELECT(d1, dd1), \
                             POLYBENCH_C99_SELECT(d2, dd2), \
                             POLYBENCH_C99_SELECT(d3, dd3), \
                             POLYBENCH_C99_SELECT(d4, dd4), type)
# define POLYBENCH_5D_ARRAY_DECL(var, type, d1, d2, d3, d4, d5, dd1, dd2, dd3, dd4, dd5) \
  type POLYBENCH_5D(POLYBENCH_DECL_VAR(var), d1, d2, d3, d4, d5, dd1, dd2, dd3, dd4, dd5) = \
    POLYBENCH_ALLOC_5D_ARRAY(POLYBENCH_C99_SELECT(d1, dd1), \
                             POLYBENCH_C99_SELECT(d2, dd2), \
                             POLYBENCH_C99_SELECT(d3, dd3), \
                             POLYBENCH_C99_SELECT(d4, dd4), \
                             POLYBENCH_C99_SELECT(d5, dd5), type)

#endif /* POLYBENCH_STACK_ARRAYS */

/* ------------------------------------------------------------------ */
/* Output of the live-out data.                                        */
/* ------------------------------------------------------------------ */

/* Without POLYBENCH_DUMP_ARRAYS the print call sits behind a condition
   the optimiser cannot prove false, so the kernel is not dead code.
   main() must be declared as  int main(int argc, char **argv).  */
#ifdef POLYBENCH_DUMP_ARRAYS
# define polybench_prevent_dce(call) call
#else
# define polybench_prevent_dce(call) \
  if (argc > 42 && argv[0][0] == '\0') call
#endif

#define POLYBENCH_DUMP_TARGET stderr
#define POLYBENCH_DUMP_START \
  fprintf(POLYBENCH_DUMP_TARGET, "==BEGIN DUMP_ARRAYS==\n")
#define POLYBENCH_DUMP_FINISH \
  fprintf(POLYBENCH_DUMP_TARGET, "==END   DUMP_ARRAYS==\n")
#define POLYBENCH_DUMP_BEGIN(name) \
  fprintf(POLYBENCH_DUMP_TARGET, "begin dump: %s", name)
#define POLYBENCH_DUMP_END(name) \
  fprintf(POLYBENCH_DUMP_TARGET, "\nend   dump: %s\n", name)

/* ------------------------------------------------------------------ */
/* Instruments (wall-clock timer only).                                */
/* ------------------------------------------------------------------ */

#ifdef POLYBENCH_TIME
# define polybench_start_instruments polybench_timer_start()
# define polybench_stop_instruments polybench_timer_stop()
# define polybench_print_instruments polybench_timer_print()
#else
# define polybench_start_instruments
# define polybench_stop_instruments
# define polybench_print_instruments
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Time stamps (seconds) taken by polybench_timer_start/stop. */
extern double polybench_t_start;
extern double polybench_t_end;

/* Current wall-clock time in seconds (CLOCK_MONOTONIC). */
double polybench_get_time(void);

/* Evict the data caches by streaming through a large buffer. */
void polybench_flush_cache(void);

/* Called by polybench_timer_start: flushes the cache unless
   POLYBENCH_NO_FLUSH_CACHE is defined when polybench.c is compiled. */
void polybench_prepare_instruments(void);

void polybench_timer_start(void);
void polybench_timer_stop(void);
/* Prints polybench_t_end - polybench_t_start as "%0.6f\n" on stdout. */
void polybench_timer_print(void);

/* Page-aligned, zero-filled allocation of n elements of elt_size bytes;
   exits the program when memory is exhausted. */
void *polybench_alloc_data(unsigned long long int n, int elt_size);
void polybench_free_data(void *ptr);

#ifdef __cplusplus
}
#endif

#endif /* !POLYBENCH_H */
