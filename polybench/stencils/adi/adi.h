/*
 * adi.h -- problem sizes and data type of the adi kernel
 * (alternating direction implicit solver).
 * Dataset sizes follow PolyBench/C 4.2.1; LARGE_DATASET is the default.
 * The sizes can also be set on the command line, all together:
 *   -DTSTEPS=<n> -DN=<n>
 */
#ifndef PB_ADI_H
# define PB_ADI_H

# if !defined(MINI_DATASET) && !defined(SMALL_DATASET) \
     && !defined(MEDIUM_DATASET) && !defined(LARGE_DATASET) \
     && !defined(EXTRALARGE_DATASET)
#  define LARGE_DATASET
# endif

# if !defined(TSTEPS) && !defined(N)
#  if defined(MINI_DATASET)
#   define TSTEPS 20
#   define N 20
#  elif defined(SMALL_DATASET)
#   define TSTEPS 40
#   define N 60
#  elif defined(MEDIUM_DATASET)
#   define TSTEPS 100
#   define N 200
#  elif defined(LARGE_DATASET)
#   define TSTEPS 500
#   define N 1000
#  elif defined(EXTRALARGE_DATASET)
#   define TSTEPS 1000
#   define N 2000
#  endif
# endif

# define _PB_TSTEPS POLYBENCH_LOOP_BOUND(TSTEPS, tsteps)
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

#endif /* !PB_ADI_H */
