/*
 * pencil_compat.h -- PENCIL as ordinary C99 (no __PENCIL__).
 *
 * Included by pencil.h only.  This is the mode used when a PENCIL program
 * is compiled by gcc/clang directly (debugging, CPU fallback) and when the
 * host C code that pencilc generates is compiled.  The spec asks that a
 * plain C99 compiler can "ignore the extensions safely", so:
 *
 *  - the analysis-only builtins (use, def, kill, assume) become no-ops that
 *    evaluate nothing;
 *  - __pencil_assert becomes assert() (it is a real run-time check);
 *  - __pencil_maybe() is 1 (it only appears in summary functions, which are
 *    never run);
 *  - the pencil_access / pencil function attributes disappear;
 *  - the math builtins that <math.h> lacks are implemented as static inline
 *    functions, with the OpenCL 1.2 semantics.
 */
#ifndef PENCILC_PENCIL_H
# error "include <pencil.h>, not pencil_compat.h"
#endif
#ifndef PENCILC_PENCIL_COMPAT_H
#define PENCILC_PENCIL_COMPAT_H

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* `#pragma pencil independent|ivdep|region` carry no meaning for a C
 * compiler, but -Wall includes -Wunknown-pragmas, which would flag every
 * one of them.  Silence that for the rest of the file, as the spec wants
 * these pragmas ignored "safely". */
#if (defined(__GNUC__) || defined(__clang__)) && \
    !defined(PENCIL_KEEP_PRAGMA_WARNINGS)
# pragma GCC diagnostic ignored "-Wunknown-pragmas"
#endif

/* ---- annotations ------------------------------------------------------ */

/* Summary-function attribute.  PENCIL_ACCESS(f) vanishes.  A literal
 * `__attribute__((pencil_access(f)))` in the source is turned into
 * `__attribute__((unused))`, an attribute every GNU C compiler knows, so
 * it does not trigger an "unknown attribute" warning. */
#define PENCIL_ACCESS(...)
#define pencil_access(...) unused
#if defined(__GNUC__) || defined(__clang__)
/* Summary functions are never called; static + unused lets them sit in a
 * header without duplicate symbols or unused-function warnings. */
# define PENCIL_SUMMARY_FUNC static __attribute__((unused))
#else
# define PENCIL_SUMMARY_FUNC static
#endif
#define PENCIL_FUNCTION

/* ---- PENCIL builtins -------------------------------------------------- */

/*
 * use/def/kill only inform pencilc's analysis, so they must not execute
 * anything (no memory may be read: a killed value may be garbage).  But
 * they should still name their arguments, so gcc type-checks them and
 * does not report summary-function parameters as unused.  Both at once:
 * the arguments go to a call inside sizeof, which is never evaluated, so
 * __pencil_unevaluated is declared but never defined or called.  Being a
 * call, it takes any number and type of arguments (`__pencil_kill(A, B)`)
 * without comma-operator warnings, and array parameters decay quietly.
 */
int __pencil_unevaluated(int, ...);
#define __pencil_use(...)  ((void)sizeof(__pencil_unevaluated(0, __VA_ARGS__)))
#define __pencil_def(...)  ((void)sizeof(__pencil_unevaluated(0, __VA_ARGS__)))
#define __pencil_kill(...) ((void)sizeof(__pencil_unevaluated(0, __VA_ARGS__)))

/* Assumptions are trusted, not checked.  sizeof keeps the expression
 * type-checked (catching typos) without evaluating it. */
#ifdef PENCIL_CHECK_ASSUME
# define __pencil_assume(e) assert(e)
#else
# define __pencil_assume(e) ((void)sizeof((e) ? 1 : 0))
#endif

#define __pencil_assert(e) assert(e)

/* Both spellings exist in the literature: `__pencil_maybe()` (spec,
 * headers) and bare `__pencil_maybe` (paper).  The function-like macro
 * only fires when followed by `(`; the bare name finds the enum constant. */
enum { __pencil_maybe = 1 };
#define __pencil_maybe() 1

/* Memory tags only guide pencilc's host/device copies. */
static inline void __pencil_npr_mem_tag(void *location, int mode)
{
  (void)location;
  (void)mode;
}

/* ---- integer builtins ------------------------------------------------- */

/* One set per type prefix (list in pencil.h).  Semantics from OpenCL 1.2:
 * clamp(x, lo, hi) = min(max(x, lo), hi); abs_diff(a, b) = |a - b| without
 * overflow, in the unsigned type; clz(0) is the bit width. */
#define __PENCIL_DEFINE_MINMAX(P, T)                                      \
  static inline T P##min(T a, T b) { return a < b ? a : b; }              \
  static inline T P##max(T a, T b) { return a > b ? a : b; }
__PENCIL_DEFINE_MINMAX(b, signed char)
__PENCIL_DEFINE_MINMAX(ub, unsigned char)
__PENCIL_DEFINE_MINMAX(s, short)
__PENCIL_DEFINE_MINMAX(us, unsigned short)
/* nvcc (pencilc's CUDA host files are .cu) already defines min(int, int),
 * max, umin and umax, with the same meaning, for host and device. */
#ifndef __CUDACC__
__PENCIL_DEFINE_MINMAX(, int)
__PENCIL_DEFINE_MINMAX(u, unsigned int)
#endif
__PENCIL_DEFINE_MINMAX(l, long)
__PENCIL_DEFINE_MINMAX(ul, unsigned long)
#define __PENCIL_DEFINE_INT(P, T, UT)                                     \
  static inline T P##clamp(T x, T lo, T hi)                               \
  { return P##min(P##max(x, lo), hi); }                                   \
  static inline UT P##abs_diff(T a, T b)                                  \
  { return a > b ? (UT)((UT)a - (UT)b) : (UT)((UT)b - (UT)a); }          \
  static inline T P##popcount(T x)                                        \
  {                                                                       \
    UT v = (UT)x;                                                         \
    T n = 0;                                                              \
    for (; v != 0; v = (UT)(v & (UT)(v - 1)))                             \
      n++;                                                                \
    return n;                                                             \
  }                                                                       \
  static inline T P##clz(T x)                                             \
  {                                                                       \
    UT v = (UT)x;                                                         \
    T n = (T)(sizeof(T) * CHAR_BIT);                                      \
    for (; v != 0; v = (UT)(v >> 1))                                      \
      n--;                                                                \
    return n;                                                             \
  }
__PENCIL_FOR_EACH_INT_TYPE(__PENCIL_DEFINE_INT)

/* abs/labs come from <stdlib.h>.  char/short return the unsigned type. */
static inline unsigned char babs(signed char x)
{ return x < 0 ? (unsigned char)(0u - (unsigned)x) : (unsigned char)x; }
static inline unsigned short sabs(short x)
{ return x < 0 ? (unsigned short)(0u - (unsigned)x) : (unsigned short)x; }

static inline int32_t abs32(int32_t x) { return x < 0 ? -x : x; }
static inline int64_t abs64(int64_t x) { return x < 0 ? -x : x; }
static inline int32_t min32(int32_t a, int32_t b) { return a < b ? a : b; }
static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int32_t max32(int32_t a, int32_t b) { return a > b ? a : b; }
static inline int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int32_t clamp32(int32_t x, int32_t lo, int32_t hi)
{ return min32(max32(x, lo), hi); }
static inline int64_t clamp64(int64_t x, int64_t lo, int64_t hi)
{ return min64(max64(x, lo), hi); }

/* ---- floating-point builtins missing from C99 <math.h> ---------------- */

/* OpenCL "common" functions: plain names.  Nothing in libc uses them. */
static inline double degrees(double r) { return r * (180.0 / M_PI); }
static inline float degreesf(float r) { return r * (float)(180.0 / M_PI); }
static inline double radians(double d) { return d * (M_PI / 180.0); }
static inline float radiansf(float d) { return d * (float)(M_PI / 180.0); }
/* sign: 1, -1, or x itself for +-0; 0 for NaN. */
static inline double sign(double x)
{ return x > 0.0 ? 1.0 : x < 0.0 ? -1.0 : x == 0.0 ? x : 0.0; }
static inline float signf(float x)
{ return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : x == 0.0f ? x : 0.0f; }
static inline double step(double edge, double x)
{ return x < edge ? 0.0 : 1.0; }
static inline float stepf(float edge, float x)
{ return x < edge ? 0.0f : 1.0f; }
static inline double mix(double x, double y, double a)
{ return x + (y - x) * a; }
static inline float mixf(float x, float y, float a)
{ return x + (y - x) * a; }
static inline double fclamp(double x, double lo, double hi)
{ return fmin(fmax(x, lo), hi); }
static inline float fclampf(float x, float lo, float hi)
{ return fminf(fmaxf(x, lo), hi); }
static inline double smoothstep(double e0, double e1, double x)
{
  double t = fclamp((x - e0) / (e1 - e0), 0.0, 1.0);
  return t * t * (3.0 - 2.0 * t);
}
static inline float smoothstepf(float e0, float e1, float x)
{
  float t = fclampf((x - e0) / (e1 - e0), 0.0f, 1.0f);
  return t * t * (3.0f - 2.0f * t);
}
static inline double mad(double a, double b, double c) { return a * b + c; }
static inline float madf(float a, float b, float c) { return a * b + c; }
/* maxmag/minmag: the argument of larger/smaller magnitude. */
static inline double maxmag(double x, double y)
{ double ax = fabs(x), ay = fabs(y); return ax > ay ? x : ay > ax ? y : fmax(x, y); }
static inline float maxmagf(float x, float y)
{ float ax = fabsf(x), ay = fabsf(y); return ax > ay ? x : ay > ax ? y : fmaxf(x, y); }
static inline double minmag(double x, double y)
{ double ax = fabs(x), ay = fabs(y); return ax < ay ? x : ay < ax ? y : fmin(x, y); }
static inline float minmagf(float x, float y)
{ float ax = fabsf(x), ay = fabsf(y); return ax < ay ? x : ay < ax ? y : fminf(x, y); }

/*
 * The OpenCL math functions below also exist as GNU extensions (exp10) or
 * in C23 (sinpi, rsqrt, pown, ...), so a libc may declare them with
 * external linkage.  To never clash with such a declaration they are
 * defined under reserved names and the PENCIL name is mapped onto them
 * with an object-like macro (calls and `&name` both work).
 */
static inline double __pencil_acospi(double x) { return acos(x) / M_PI; }
static inline float __pencil_acospif(float x) { return acosf(x) / (float)M_PI; }
static inline double __pencil_asinpi(double x) { return asin(x) / M_PI; }
static inline float __pencil_asinpif(float x) { return asinf(x) / (float)M_PI; }
static inline double __pencil_atanpi(double x) { return atan(x) / M_PI; }
static inline float __pencil_atanpif(float x) { return atanf(x) / (float)M_PI; }
static inline double __pencil_atan2pi(double y, double x)
{ return atan2(y, x) / M_PI; }
static inline float __pencil_atan2pif(float y, float x)
{ return atan2f(y, x) / (float)M_PI; }
/* cospi/sinpi/tanpi: reduce by the period first, so that e.g. cospi(1e9)
 * is exactly 1 instead of cos() of a large, rounded multiple of pi. */
static inline double __pencil_cospi(double x)
{ return cos(M_PI * fmod(x, 2.0)); }
static inline float __pencil_cospif(float x)
{ return (float)cos(M_PI * fmod((double)x, 2.0)); }
static inline double __pencil_sinpi(double x)
{ return sin(M_PI * fmod(x, 2.0)); }
static inline float __pencil_sinpif(float x)
{ return (float)sin(M_PI * fmod((double)x, 2.0)); }
static inline double __pencil_tanpi(double x)
{ return tan(M_PI * fmod(x, 1.0)); }
static inline float __pencil_tanpif(float x)
{ return (float)tan(M_PI * fmod((double)x, 1.0)); }
static inline double __pencil_exp10(double x) { return pow(10.0, x); }
static inline float __pencil_exp10f(float x) { return powf(10.0f, x); }
static inline double __pencil_rsqrt(double x) { return 1.0 / sqrt(x); }
static inline float __pencil_rsqrtf(float x) { return 1.0f / sqrtf(x); }
/* pown: integer power; powr: pow restricted to x >= 0 (NaN otherwise);
 * rootn: the n-th root, defined for negative x when n is odd. */
static inline double __pencil_pown(double x, int n) { return pow(x, (double)n); }
static inline float __pencil_pownf(float x, int n) { return powf(x, (float)n); }
static inline double __pencil_powr(double x, double y)
{ return x < 0.0 ? NAN : pow(x, y); }
static inline float __pencil_powrf(float x, float y)
{ return x < 0.0f ? NAN : powf(x, y); }
static inline double __pencil_rootn(double x, int n)
{
  if (x < 0.0 && (n & 1))
    return -pow(-x, 1.0 / n);
  return pow(x, 1.0 / n);
}
static inline float __pencil_rootnf(float x, int n)
{
  if (x < 0.0f && (n & 1))
    return -powf(-x, 1.0f / (float)n);
  return powf(x, 1.0f / (float)n);
}
#define acospi   __pencil_acospi
#define acospif  __pencil_acospif
#define asinpi   __pencil_asinpi
#define asinpif  __pencil_asinpif
#define atanpi   __pencil_atanpi
#define atanpif  __pencil_atanpif
#define atan2pi  __pencil_atan2pi
#define atan2pif __pencil_atan2pif
#define cospi    __pencil_cospi
#define cospif   __pencil_cospif
#define sinpi    __pencil_sinpi
#define sinpif   __pencil_sinpif
#define tanpi    __pencil_tanpi
#define tanpif   __pencil_tanpif
#define exp10    __pencil_exp10
#define exp10f   __pencil_exp10f
#define rsqrt    __pencil_rsqrt
#define rsqrtf   __pencil_rsqrtf
#define pown     __pencil_pown
#define pownf    __pencil_pownf
#define powr     __pencil_powr
#define powrf    __pencil_powrf
#define rootn    __pencil_rootn
#define rootnf   __pencil_rootnf

#endif /* PENCILC_PENCIL_COMPAT_H */
