/*
 * doitgen.h -- problem sizes and data type of the doitgen kernel
 * (multiresolution analysis kernel (MADNESS)).
 * Dataset sizes follow PolyBench/C 4.2.1; LARGE_DATASET is the default.
 * The sizes can also be set on the command line, all together:
 *   -DNQ=<n> -DNR=<n> -DNP=<n>
 */
#ifndef PB_DOITGEN_H
# define PB_DOITGEN_H

# if !defined(MINI_DATASET) && !defined(SMALL_DATASET) \
     && !defined(MEDIUM_DATASET) && !defined(LARGE_DATASET) \
     && !defined(EXTRALARGE_DATASET)
#  define LARGE_DATASET
# endif

# if !defined(NQ) && !defined(NR) && !defined(NP)
#  if defined(MINI_DATASET)
#   define NQ 8
#   define NR 10
#   define NP 12
#  elif defined(SMALL_DATASET)
#   define NQ 20
#   define NR 25
#   define NP 30
#  elif defined(MEDIUM_DATASET)
#   define NQ 40
#   define NR 50
#   define NP 60
#  elif defined(LARGE_DATASET)
#   define NQ 140
#   define NR 150
#   define NP 160
#  elif defined(EXTRALARGE_DATASET)
#   define NQ 220
#   define NR 250
#   define NP 270
#  endif
# endif

# define _PB_NQ POLYBENCH_LOOP_BOUND(NQ, nq)
# define _PB_NR POLYBENCH_LOOP_BOUND(NR, nr)
# define _PB_NP POLYBENCH_LOOP_BOUND(NP, np)

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

#endif /* !PB_DOITGEN_H */
