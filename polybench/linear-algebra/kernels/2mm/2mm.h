/*
 * 2mm.h -- problem sizes and data type of the 2mm kernel
 * (D := alpha*A*B*C + beta*D).
 * Dataset sizes follow PolyBench/C 4.2.1; LARGE_DATASET is the default.
 * The sizes can also be set on the command line, all together:
 *   -DNI=<n> -DNJ=<n> -DNK=<n> -DNL=<n>
 */
#ifndef PB_2MM_H
# define PB_2MM_H

# if !defined(MINI_DATASET) && !defined(SMALL_DATASET) \
     && !defined(MEDIUM_DATASET) && !defined(LARGE_DATASET) \
     && !defined(EXTRALARGE_DATASET)
#  define LARGE_DATASET
# endif

# if !defined(NI) && !defined(NJ) && !defined(NK) && !defined(NL)
#  if defined(MINI_DATASET)
#   define NI 16
#   define NJ 18
#   define NK 22
#   define NL 24
#  elif defined(SMALL_DATASET)
#   define NI 40
#   define NJ 50
#   define NK 70
#   define NL 80
#  elif defined(MEDIUM_DATASET)
#   define NI 180
#   define NJ 190
#   define NK 210
#   define NL 220
#  elif defined(LARGE_DATASET)
#   define NI 800
#   define NJ 900
#   define NK 1100
#   define NL 1200
#  elif defined(EXTRALARGE_DATASET)
#   define NI 1600
#   define NJ 1800
#   define NK 2200
#   define NL 2400
#  endif
# endif

# define _PB_NI POLYBENCH_LOOP_BOUND(NI, ni)
# define _PB_NJ POLYBENCH_LOOP_BOUND(NJ, nj)
# define _PB_NK POLYBENCH_LOOP_BOUND(NK, nk)
# define _PB_NL POLYBENCH_LOOP_BOUND(NL, nl)

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

#endif /* !PB_2MM_H */
