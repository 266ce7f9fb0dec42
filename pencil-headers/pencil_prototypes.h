/*
 * pencil_prototypes.h -- what pencilc sees (__PENCIL__ mode).
 *
 * Included by pencil.h only.  pencilc preprocesses a PENCIL file with
 * `-D__PENCIL__` and then parses the result, so everything here ends up in
 * the text pencilc parses.  Hence the rules followed in this file:
 *
 *  - No macro is defined for __pencil_kill, __pencil_use, __pencil_def,
 *    __pencil_maybe, __pencil_assume, __pencil_assert or
 *    __pencil_npr_mem_tag: after preprocessing they remain plain call
 *    expressions, which pencilc recognises by name.
 *  - The builtins and math functions are declared, so that the
 *    preprocessed text is still valid C (given the standard types, see
 *    below) and so that pencilc and a reader of its input can see every
 *    builtin's type.  The polymorphic builtins (use/def/kill take any
 *    lvalue, kill any number of them) cannot be prototyped in C; they get
 *    old-style declarations without a parameter list.
 *  - No system header with declarations (<math.h>, <stdlib.h>,
 *    <stdint.h>) is included: glibc's versions are large and full of GNU
 *    extensions (asm labels, __extension__, _Float128) that a PENCIL front
 *    end should not have to parse.
 */
#ifndef PENCILC_PENCIL_H
# error "include <pencil.h>, not pencil_prototypes.h"
#endif
#ifndef PENCILC_PENCIL_PROTOTYPES_H
#define PENCILC_PENCIL_PROTOTYPES_H

/* <limits.h> and <float.h> only define macros: safe to include. */
#include <limits.h>
#include <float.h>

/*
 * Standard types.  pencilc parses with tree-sitter-c, which already knows
 * bool, size_t, ptrdiff_t, intptr_t, uintptr_t, intN_t and uintN_t as
 * primitive type names, so they are deliberately NOT typedef'd here:
 * leaving them as written gives pencilc one node kind to look at, where
 * <stdbool.h>/<stdint.h> would turn bool into _Bool and add typedefs from
 * glibc's internal types.  (To syntax-check this mode's output with gcc,
 * pass -include stdbool.h -include stdint.h -include stddef.h.)
 */
/* The C compiler's check of pencilc's input (`cc -fsyntax-only` with
 * __pencilc_cc_check__) sees the same text and needs the typedefs; and
 * `bool` as the program's own build sees it (pencil_compat.h includes
 * <stdbool.h>), so that a variable named `bool` is refused here rather
 * than in the build of pencilc's output. */
#ifdef __pencilc_cc_check__
# include <stdint.h>
# include <stdbool.h>
#endif
#define true  1
#define false 0
#define __bool_true_false_are_defined 1
#ifndef NULL
# define NULL ((void *)0)
#endif

/* ---- <math.h> constants, as plain constant expressions ---------------- */
#ifndef INFINITY
# define INFINITY (1.0f / 0.0f)
#endif
#ifndef NAN
# define NAN (0.0f / 0.0f)
#endif
#ifndef HUGE_VALF
# define HUGE_VALF (1.0f / 0.0f)
#endif
#ifndef HUGE_VAL
# define HUGE_VAL (1.0 / 0.0)
#endif

/* ---- annotations ------------------------------------------------------ */

/* pencil_access(summary): the function's memory accesses are those of
 * `summary`, a function with the same signature that is never run. */
#define PENCIL_ACCESS(...) __attribute__((pencil_access(__VA_ARGS__)))
/* Marks a summary function; nothing to do for pencilc. */
#define PENCIL_SUMMARY_FUNC
/* Marks a PENCIL function inside an otherwise non-PENCIL C file. */
#define PENCIL_FUNCTION __attribute__((pencil))

/* ---- PENCIL builtins (spec "Builtin functions") ----------------------- */
void __pencil_use();             /* (T location): a read may happen here  */
void __pencil_def();             /* (T location): a write must happen here */
void __pencil_kill();            /* (T location, ...): value(s) dead here  */
int  __pencil_maybe(void);       /* nondeterministic boolean               */
void __pencil_assume(int expression);  /* trusted, never checked          */
void __pencil_assert(int expression);  /* checked at run time             */
void __pencil_npr_mem_tag(void *location, int mode); /* PENCIL_NPR_MEM_*  */

/* ---- math builtins ---------------------------------------------------- */
/* They have no side effects (not even on errno), hence `const`. */
#define __PENCIL_PURE __attribute__((const))

/* Floating-point functions: double `name`, float `name##f` (C99 naming). */
#define __PENCIL_F1(n) \
  __PENCIL_PURE double n(double); __PENCIL_PURE float n##f(float);
#define __PENCIL_F2(n) \
  __PENCIL_PURE double n(double, double); \
  __PENCIL_PURE float n##f(float, float);
#define __PENCIL_F3(n) \
  __PENCIL_PURE double n(double, double, double); \
  __PENCIL_PURE float n##f(float, float, float);
#define __PENCIL_FI(n) \
  __PENCIL_PURE double n(double, int); __PENCIL_PURE float n##f(float, int);

/* The C99 <math.h> functions that are also OpenCL 1.2 builtins. */
__PENCIL_F1(acos) __PENCIL_F1(asin) __PENCIL_F1(atan)
__PENCIL_F1(acosh) __PENCIL_F1(asinh) __PENCIL_F1(atanh)
__PENCIL_F1(cos) __PENCIL_F1(sin) __PENCIL_F1(tan)
__PENCIL_F1(cosh) __PENCIL_F1(sinh) __PENCIL_F1(tanh)
__PENCIL_F1(exp) __PENCIL_F1(exp2) __PENCIL_F1(expm1)
__PENCIL_F1(log) __PENCIL_F1(log10) __PENCIL_F1(log1p) __PENCIL_F1(log2)
__PENCIL_F1(logb) __PENCIL_F1(cbrt) __PENCIL_F1(sqrt)
__PENCIL_F1(erf) __PENCIL_F1(erfc) __PENCIL_F1(lgamma) __PENCIL_F1(tgamma)
__PENCIL_F1(ceil) __PENCIL_F1(floor) __PENCIL_F1(rint) __PENCIL_F1(round)
__PENCIL_F1(trunc) __PENCIL_F1(fabs)
__PENCIL_F2(atan2) __PENCIL_F2(pow) __PENCIL_F2(hypot) __PENCIL_F2(fmod)
__PENCIL_F2(remainder) __PENCIL_F2(copysign) __PENCIL_F2(fdim)
__PENCIL_F2(fmax) __PENCIL_F2(fmin) __PENCIL_F2(nextafter)
__PENCIL_F3(fma)
__PENCIL_FI(ldexp)
__PENCIL_PURE int ilogb(double); __PENCIL_PURE int ilogbf(float);

/* OpenCL builtins that C99 lacks (plain C gets them from pencil_compat.h). */
__PENCIL_F1(acospi) __PENCIL_F1(asinpi) __PENCIL_F1(atanpi)
__PENCIL_F1(cospi) __PENCIL_F1(sinpi) __PENCIL_F1(tanpi)
__PENCIL_F1(exp10) __PENCIL_F1(rsqrt)
__PENCIL_F2(atan2pi) __PENCIL_F2(powr) __PENCIL_F2(maxmag) __PENCIL_F2(minmag)
__PENCIL_F3(mad)
__PENCIL_FI(pown) __PENCIL_FI(rootn)
/* OpenCL "common" functions.  clamp on floats is fclamp/fclampf, because
 * the bare name clamp is the int version. */
__PENCIL_F1(degrees) __PENCIL_F1(radians) __PENCIL_F1(sign)
__PENCIL_F2(step)          /* step(edge, x) */
__PENCIL_F3(mix)           /* mix(x, y, a) = x + (y - x) * a */
__PENCIL_F3(smoothstep)    /* smoothstep(edge0, edge1, x) */
__PENCIL_F3(fclamp)        /* fclamp(x, minval, maxval) */

/* Integer functions, one set per type prefix (see pencil.h):
 *   min, max, clamp(x, minval, maxval), abs_diff (returns the unsigned
 *   type), popcount, clz. */
#define __PENCIL_DECLARE_INT(P, T, UT)                                    \
  __PENCIL_PURE T P##min(T, T); __PENCIL_PURE T P##max(T, T);             \
  __PENCIL_PURE T P##clamp(T, T, T); __PENCIL_PURE UT P##abs_diff(T, T);  \
  __PENCIL_PURE T P##popcount(T); __PENCIL_PURE T P##clz(T);
__PENCIL_FOR_EACH_INT_TYPE(__PENCIL_DECLARE_INT)

/* abs: int and long are C's abs/labs; char and short follow OpenCL and
 * return the unsigned type, since |CHAR_MIN| does not fit in a char. */
__PENCIL_PURE int abs(int);
__PENCIL_PURE long labs(long);
__PENCIL_PURE unsigned char babs(signed char);
__PENCIL_PURE unsigned short sabs(short);

/* Fixed-width variants, as in the reference PENCIL headers. */
__PENCIL_PURE int32_t abs32(int32_t);
__PENCIL_PURE int64_t abs64(int64_t);
__PENCIL_PURE int32_t min32(int32_t, int32_t);
__PENCIL_PURE int64_t min64(int64_t, int64_t);
__PENCIL_PURE int32_t max32(int32_t, int32_t);
__PENCIL_PURE int64_t max64(int64_t, int64_t);
__PENCIL_PURE int32_t clamp32(int32_t, int32_t, int32_t);
__PENCIL_PURE int64_t clamp64(int64_t, int64_t, int64_t);

#endif /* PENCILC_PENCIL_PROTOTYPES_H */
