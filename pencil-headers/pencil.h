/*
 * pencil.h -- the one header every PENCIL source file includes.
 *
 * PENCIL (Baghdadi et al., PACT 2015; INRIA RR-8706) is a restricted C99
 * with a handful of extensions: builtins such as __pencil_assume and
 * __pencil_kill, the pencil_access summary-function attribute, the
 * pencil_array parameter qualifier and typed math builtins (fminf, mixf,
 * lclamp, ...).  The specification requires that the same source can be
 *
 *   (a) fed to a PENCIL compiler, which defines __PENCIL__; and
 *   (b) compiled unchanged by an ordinary C99 compiler, which must treat
 *       the extensions as no-ops (or, for __pencil_assert, as assert()).
 *
 * This header makes both work.  It has two modes, chosen by __PENCIL__:
 *
 *   __PENCIL__ defined (pencilc runs the system preprocessor with
 *   `-D__PENCIL__ -I pencil-headers` before parsing):
 *       the builtins are left alone, so after preprocessing they are
 *       ordinary call expressions (`__pencil_kill(A);`) that pencilc
 *       recognises by name.  The math builtins are only declared (see
 *       pencil_prototypes.h); no system header that contains declarations
 *       is pulled in, so the preprocessed text stays small and plain C99.
 *
 *   __PENCIL__ not defined (gcc, clang, and the C host code pencilc emits):
 *       the annotations become no-ops, __pencil_assert becomes assert(),
 *       and the math builtins that <math.h> lacks are implemented as
 *       static inline functions (see pencil_compat.h).
 *
 * Knobs (define before including):
 *   PENCIL_NO_SHORT_NAMES     do not define USE, DEF, MAYBE, MAY_DEF, KILL,
 *                             ASSUME, ACCESS, CONST (they collide easily).
 *   PENCIL_NO_HALF            do not declare the optional `half` type.
 *   PENCIL_CHECK_ASSUME       plain C only: check __pencil_assume at run
 *                             time with assert() (a debugging aid; the
 *                             spec says assumptions are not checked).
 *   PENCIL_KEEP_PRAGMA_WARNINGS  plain C only: keep GCC's warnings about
 *                             the unknown `#pragma pencil ...` lines.
 *
 * This is a C99 header; C++ is not supported.  scripts/check-headers.sh
 * checks both modes (pencil-headers/selftest.c uses every construct).
 */
#ifndef PENCILC_PENCIL_H
#define PENCILC_PENCIL_H

/* ------------------------------------------------------------------------
 * Part 1: definitions that mean the same in both modes.
 * ---------------------------------------------------------------------- */

/*
 * Array parameters.  The spec requires every array parameter to be written
 * `T a[pencil_array n]`, i.e. `static const restrict`: the length is known
 * (static), the parameter is never reassigned (const) and arrays never
 * alias (restrict).  These are standard C99 qualifiers, so they stay as
 * keywords in both modes.  The paper spells the macro `pencil_attributes`,
 * older headers `PENCIL_ARRAY`; all three are accepted.
 */
#define pencil_array      static const restrict
#define PENCIL_ARRAY      static const restrict
#define pencil_attributes static const restrict

/*
 * Memory tags for __pencil_npr_mem_tag(ptr, mode) ("non-PENCIL region
 * memory tag", spec v1.1).  They are bit sets (NOACCESS = NOWRITE|NOREAD,
 * READWRITE = READ|WRITE).  They are macros expanding to integer literals,
 * not enum constants, so that pencilc sees the value directly after
 * preprocessing; the builtin's mode parameter is an int.
 */
#define PENCIL_NPR_MEM_NOWRITE   1
#define PENCIL_NPR_MEM_NOREAD    2
#define PENCIL_NPR_MEM_NOACCESS  3
#define PENCIL_NPR_MEM_READ      4
#define PENCIL_NPR_MEM_WRITE     8
#define PENCIL_NPR_MEM_READWRITE 12

/*
 * Upper-case aliases of the summary builtins.  They expand to the
 * builtins, so in __PENCIL__ mode pencilc still sees __pencil_use(...)
 * and in plain C they inherit the no-op definitions.
 */
#define PENCIL_USE    __pencil_use
#define PENCIL_DEF    __pencil_def
#define PENCIL_KILL   __pencil_kill
#define PENCIL_ASSUME __pencil_assume
#define PENCIL_MAYBE  (__pencil_maybe())
/* "may write": the idiom from the paper, `if (maybe) def(x)`. */
#define PENCIL_MAY_DEF(x) if (__pencil_maybe()) __pencil_def(x)

/* Abbreviations used by the spec's examples.  Short and collision-prone,
 * hence the opt-out. */
#ifndef PENCIL_NO_SHORT_NAMES
# define USE     PENCIL_USE
# define DEF     PENCIL_DEF
# define MAYBE   PENCIL_MAYBE
# define MAY_DEF PENCIL_MAY_DEF
# define KILL    PENCIL_KILL
# define ASSUME  PENCIL_ASSUME
# define ACCESS(...) PENCIL_ACCESS(__VA_ARGS__)
/* GCC's const attribute: the function reads only its arguments and has no
 * side effects.  The spec uses it to allow calls such as sin/cos/min. */
# define CONST   __attribute__((const))
#endif

/*
 * The optional `half` scalar type.  The spec lets compilers skip real
 * half-precision support; we store it as float in both modes so host code
 * and generated kernels always agree on the element size.
 */
#ifndef PENCIL_NO_HALF
typedef float half;
#endif

/*
 * The integer builtins exist once per OpenCL integer type.  PENCIL has no
 * overloading, so the type is encoded in a name prefix (spec, "Math
 * builtins"): b = char, s = short, none = int, l = long, and a leading u
 * for the unsigned versions (bmax, ubmax, smax, usmax, max, umax, lmax,
 * ulmax).  Both modes expand this one list, so the names pencilc sees
 * declared and the names plain C implements cannot drift apart.
 *   X(prefix, type, unsigned type of the same width)
 * (An empty macro argument is valid C99; `##` then yields the bare name.)
 */
#define __PENCIL_FOR_EACH_INT_TYPE(X)          \
  X(b,  signed char,    unsigned char)         \
  X(ub, unsigned char,  unsigned char)         \
  X(s,  short,          unsigned short)        \
  X(us, unsigned short, unsigned short)        \
  X(,   int,            unsigned int)          \
  X(u,  unsigned int,   unsigned int)          \
  X(l,  long,           unsigned long)         \
  X(ul, unsigned long,  unsigned long)

/* M_PI is POSIX, not C99: strict -std=c99 hides it, but PENCIL code (and
 * the math builtins) use it.  Same spelling as glibc, so a definition by a
 * later <math.h> would be an identical, allowed redefinition. */
#ifndef M_PI
# define M_PI 3.14159265358979323846
#endif

/* ------------------------------------------------------------------------
 * Part 2: mode-specific definitions.
 * ---------------------------------------------------------------------- */
#ifdef __PENCIL__
# include "pencil_prototypes.h"
#else
# include "pencil_compat.h"
#endif

#endif /* PENCILC_PENCIL_H */
