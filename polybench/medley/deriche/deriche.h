/*
 * deriche.h -- problem sizes and data type of the deriche kernel
 * (Deriche recursive edge-detection filter).
 * Dataset sizes follow PolyBench/C 4.2.1; LARGE_DATASET is the default.
 * The sizes can also be set on the command line, all together:
 *   -DW=<n> -DH=<n>
 */
#ifndef PB_DERICHE_H
# define PB_DERICHE_H

# if !defined(MINI_DATASET) && !defined(SMALL_DATASET) \
     && !defined(MEDIUM_DATASET) && !defined(LARGE_DATASET) \
     && !defined(EXTRALARGE_DATASET)
#  define LARGE_DATASET
# endif

# if !defined(W) && !defined(H)
#  if defined(MINI_DATASET)
#   define W 64
#   define H 64
#  elif defined(SMALL_DATASET)
#   define W 192
#   define H 128
#  elif defined(MEDIUM_DATASET)
#   define W 720
#   define H 480
#  elif defined(LARGE_DATASET)
#   define W 4096
#   define H 2160
#  elif defined(EXTRALARGE_DATASET)
#   define W 7680
#   define H 4320
#  endif
# endif

# define _PB_W POLYBENCH_LOOP_BOUND(W, w)
# define _PB_H POLYBENCH_LOOP_BOUND(H, h)

/* Element type: float unless DATA_TYPE_IS_* says otherwise. */
# if !defined(DATA_TYPE_IS_INT) && !defined(DATA_TYPE_IS_FLOAT) \
     && !defined(DATA_TYPE_IS_DOUBLE)
#  define DATA_TYPE_IS_FLOAT
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

#endif /* !PB_DERICHE_H */
