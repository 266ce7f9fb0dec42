/*
 * fdtd-2d.h -- problem sizes and data type of the fdtd-2d kernel
 * (2-D finite-difference time-domain kernel).
 * Dataset sizes follow PolyBench/C 4.2.1; LARGE_DATASET is the default.
 * The sizes can also be set on the command line, all together:
 *   -DTMAX=<n> -DNX=<n> -DNY=<n>
 */
#ifndef PB_FDTD_2D_H
# define PB_FDTD_2D_H

# if !defined(MINI_DATASET) && !defined(SMALL_DATASET) \
     && !defined(MEDIUM_DATASET) && !defined(LARGE_DATASET) \
     && !defined(EXTRALARGE_DATASET)
#  define LARGE_DATASET
# endif

# if !defined(TMAX) && !defined(NX) && !defined(NY)
#  if defined(MINI_DATASET)
#   define TMAX 20
#   define NX 20
#   define NY 30
#  elif defined(SMALL_DATASET)
#   define TMAX 40
#   define NX 60
#   define NY 80
#  elif defined(MEDIUM_DATASET)
#   define TMAX 100
#   define NX 200
#   define NY 240
#  elif defined(LARGE_DATASET)
#   define TMAX 500
#   define NX 1000
#   define NY 1200
#  elif defined(EXTRALARGE_DATASET)
#   define TMAX 1000
#   define NX 2000
#   define NY 2600
#  endif
# endif

# define _PB_TMAX POLYBENCH_LOOP_BOUND(TMAX, tmax)
# define _PB_NX POLYBENCH_LOOP_BOUND(NX, nx)
# define _PB_NY POLYBENCH_LOOP_BOUND(NY, ny)

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

#endif /* !PB_FDTD_2D_H */
