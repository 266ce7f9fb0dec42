/*
 * durbin.h -- problem sizes and data type of the durbin kernel
 * (Levinson-Durbin Toeplitz solver).
 * Dataset sizes follow PolyBench/C 4.2.1; LARGE_DATASET is the default.
 * The sizes can also be set on the command line, all together:
 *   -DN=<n>
 */
#ifndef PB_DURBIN_H
# define PB_DURBIN_H

# if !defined(MINI_DATASET) && !defined(SMALL_DATASET) \
     && !defined(MEDIUM_DATASET) && !defined(LARGE_DATASET) \
     && !defined(EXTRALARGE_DATASET)
#  define LARGE_DATASET
# endif

# if !defined(N)
#  if defined(MINI_DATASET)
#   define N 40
#  elif defined(SMALL_DATASET)
#   define N 120
#  elif defined(MEDIUM_DATASET)
#   define N 400
#  elif defined(LARGE_DATASET)
#   define N 2000
#  elif defined(EXTRALARGE_DATASET)
#   define N 4000
#  endif
# endif

# define _PB_N POLYBENCH_LOOP_BOUND(N, n)

/* Element type: double unless DATA_TYPE_IS_* says otherwise. */
# if !defined(DATA_TYPE_IS_INT) && !defined(DATA_TYPE_IS_FLOAT) \
     && !defined(DATA_TYPE_IS_DOUBLE)
#  define DATA_TYPE_IS_DOUBLE
# endif

# if defined(DATA_TYPE_IS_INT)
#  define DATA_TYPE int
#  define DATA_PRINTF_MODIFIER "%d "
#  define SCALAR_VAL(x) x
#  define SQRT_FUN(x) sqrt(x)
#  define EXP_FUN(x) exp(x)
#  define POW_FUN(x, y) pow(x, y)
# elif defined(DATA_TYPE_IS_FLOAT)
#  define DATA_TYPE float
#  define DATA_PRINTF_MODIFIER "%.9g "
#  define SCALAR_VAL(x) x##f
#  define SQRT_FUN(x) sqrtf(x)
#  define EXP_FUN(x) expf(x)
#  define POW_FUN(x, y) powf(x, y)
# else
#  define DATA_TYPE double
#  define DATA_PRINTF_MODIFIER "%.17g "
#  define SCALAR_VAL(x) x
#  define SQRT_FUN(x) sqrt(x)
#  define EXP_FUN(x) exp(x)
#  define POW_FUN(x, y) pow(x, y)
# endif

#endif /* !PB_DURBIN_H */
