/*
 * pencil_cuda.h -- PENCIL's typed builtins and pencilc's atomic reduction
 * helpers for CUDA kernels.  pencilc pastes what a kernel file uses of
 * this into it (each `//@ NAME [needs A B]` line starts an item, pasted
 * when the kernels mention NAME).  CUDA has min, max, abs, fminf, fmaxf, atan2f, ...;
 * what it lacks under PENCIL's names is defined here, with the semantics
 * of pencil_compat.h (plain C).
 */
#define PENCILC_DEV __device__ static inline
//@ abs32
PENCILC_DEV int abs32(int x) { return x < 0 ? -x : x; }
//@ abs64
PENCILC_DEV long long abs64(long long x) { return x < 0 ? -x : x; }
//@ min32
PENCILC_DEV int min32(int a, int b) { return a < b ? a : b; }
//@ min64
PENCILC_DEV long long min64(long long a, long long b) { return a < b ? a : b; }
//@ max32
PENCILC_DEV int max32(int a, int b) { return a > b ? a : b; }
//@ max64
PENCILC_DEV long long max64(long long a, long long b) { return a > b ? a : b; }
//@ clamp32 needs min32 max32
PENCILC_DEV int clamp32(int x, int lo, int hi) { return min32(max32(x, lo), hi); }
//@ clamp64 needs min64 max64
PENCILC_DEV long long clamp64(long long x, long long lo, long long hi)
{ return min64(max64(x, lo), hi); }
//@ clamp needs min32 max32
PENCILC_DEV int clamp(int x, int lo, int hi) { return min32(max32(x, lo), hi); }
//@ imin
PENCILC_DEV int imin(int a, int b) { return a < b ? a : b; }
//@ imax
PENCILC_DEV int imax(int a, int b) { return a > b ? a : b; }
//@ lmin
PENCILC_DEV long lmin(long a, long b) { return a < b ? a : b; }
//@ lmax
PENCILC_DEV long lmax(long a, long b) { return a > b ? a : b; }
//@ lclamp needs lmin lmax
PENCILC_DEV long lclamp(long x, long lo, long hi) { return lmin(lmax(x, lo), hi); }
//@ uclamp
/* umin and umax: CUDA's math library already has them, with the same meaning. */
PENCILC_DEV unsigned uclamp(unsigned x, unsigned lo, unsigned hi)
{ return umin(umax(x, lo), hi); }
//@ ulmin
PENCILC_DEV unsigned long ulmin(unsigned long a, unsigned long b) { return a < b ? a : b; }
//@ ulmax
PENCILC_DEV unsigned long ulmax(unsigned long a, unsigned long b) { return a > b ? a : b; }
//@ fclampf
PENCILC_DEV float fclampf(float x, float lo, float hi) { return fminf(fmaxf(x, lo), hi); }
//@ fclamp
PENCILC_DEV double fclamp(double x, double lo, double hi) { return fmin(fmax(x, lo), hi); }
//@ mixf
PENCILC_DEV float mixf(float x, float y, float a) { return x + (y - x) * a; }
//@ mix
PENCILC_DEV double mix(double x, double y, double a) { return x + (y - x) * a; }
//@ atan2pif
PENCILC_DEV float atan2pif(float y, float x) { return atan2f(y, x) * 0.318309886183790671538f; }
//@ atan2pi
PENCILC_DEV double atan2pi(double y, double x) { return atan2(y, x) * 0.318309886183790671538; }
//@ pencilc_atomic_add_int
/* Reductions that are not privatized (src/back/reduce.rs): one atomic
 * read-modify-write per update. */
PENCILC_DEV void pencilc_atomic_add_int(int *p, int v) { atomicAdd(p, v); }
//@ pencilc_atomic_add_uint
PENCILC_DEV void pencilc_atomic_add_uint(unsigned *p, unsigned v) { atomicAdd(p, v); }
//@ pencilc_atomic_add_float
PENCILC_DEV void pencilc_atomic_add_float(float *p, float v) { atomicAdd(p, v); }
//@ pencilc_atomic_min_int
PENCILC_DEV void pencilc_atomic_min_int(int *p, int v) { atomicMin(p, v); }
//@ pencilc_atomic_max_int
PENCILC_DEV void pencilc_atomic_max_int(int *p, int v) { atomicMax(p, v); }
//@ pencilc_atomic_min_uint
PENCILC_DEV void pencilc_atomic_min_uint(unsigned *p, unsigned v) { atomicMin(p, v); }
//@ pencilc_atomic_max_uint
PENCILC_DEV void pencilc_atomic_max_uint(unsigned *p, unsigned v) { atomicMax(p, v); }
//@ pencilc_atomic_and_int
PENCILC_DEV void pencilc_atomic_and_int(int *p, int v) { atomicAnd(p, v); }
//@ pencilc_atomic_and_uint
PENCILC_DEV void pencilc_atomic_and_uint(unsigned *p, unsigned v) { atomicAnd(p, v); }
//@ pencilc_atomic_or_int
PENCILC_DEV void pencilc_atomic_or_int(int *p, int v) { atomicOr(p, v); }
//@ pencilc_atomic_or_uint
PENCILC_DEV void pencilc_atomic_or_uint(unsigned *p, unsigned v) { atomicOr(p, v); }
//@ pencilc_atomic_xor_int
PENCILC_DEV void pencilc_atomic_xor_int(int *p, int v) { atomicXor(p, v); }
//@ pencilc_atomic_xor_uint
PENCILC_DEV void pencilc_atomic_xor_uint(unsigned *p, unsigned v) { atomicXor(p, v); }
//@ PENCILC_CAS
#define PENCILC_OP_ADD(a, b) ((a) + (b))
#define PENCILC_OP_MUL(a, b) ((a) * (b))
#define PENCILC_OP_MIN(a, b) ((b) < (a) ? (b) : (a))
#define PENCILC_OP_MAX(a, b) ((b) > (a) ? (b) : (a))
#define PENCILC_OP_AND(a, b) ((a) & (b))
#define PENCILC_OP_OR(a, b) ((a) | (b))
#define PENCILC_OP_XOR(a, b) ((a) ^ (b))
#define PENCILC_CAS(NAME, T, BITS, OP)                                   \
  PENCILC_DEV void NAME(T *p, T v)                                       \
  {                                                                      \
    union { T t; BITS u; } o, n;                                         \
    BITS *q = (BITS *)p;                                                 \
    o.u = *q;                                                            \
    for (;;) {                                                           \
      n.t = OP(o.t, v);                                                  \
      BITS seen = atomicCAS(q, o.u, n.u);                                \
      if (seen == o.u)                                                   \
        break;                                                           \
      o.u = seen;                                                        \
    }                                                                    \
  }
//@ pencilc_atomic_mul_int needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_mul_int, int, unsigned, PENCILC_OP_MUL)
//@ pencilc_atomic_mul_uint needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_mul_uint, unsigned, unsigned, PENCILC_OP_MUL)
//@ pencilc_atomic_mul_float needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_mul_float, float, unsigned, PENCILC_OP_MUL)
//@ pencilc_atomic_min_float needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_min_float, float, unsigned, PENCILC_OP_MIN)
//@ pencilc_atomic_max_float needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_max_float, float, unsigned, PENCILC_OP_MAX)
//@ pencilc_atomic_add_long needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_add_long, long, unsigned long long, PENCILC_OP_ADD)
//@ pencilc_atomic_mul_long needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_mul_long, long, unsigned long long, PENCILC_OP_MUL)
//@ pencilc_atomic_min_long needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_min_long, long, unsigned long long, PENCILC_OP_MIN)
//@ pencilc_atomic_max_long needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_max_long, long, unsigned long long, PENCILC_OP_MAX)
//@ pencilc_atomic_add_ulong needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_add_ulong, unsigned long, unsigned long long, PENCILC_OP_ADD)
//@ pencilc_atomic_mul_ulong needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_mul_ulong, unsigned long, unsigned long long, PENCILC_OP_MUL)
//@ pencilc_atomic_min_ulong needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_min_ulong, unsigned long, unsigned long long, PENCILC_OP_MIN)
//@ pencilc_atomic_max_ulong needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_max_ulong, unsigned long, unsigned long long, PENCILC_OP_MAX)
//@ pencilc_atomic_add_double needs PENCILC_CAS
/* The hardware's own from compute capability 6.0 on: a compare-and-swap
 * loop on an address that many threads update retries for every other
 * thread's update (ludcmp's back substitution spent some 800 ms in them
 * on an H200). */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 600
PENCILC_CAS(pencilc_atomic_add_double, double, unsigned long long, PENCILC_OP_ADD)
#else
PENCILC_DEV void pencilc_atomic_add_double(double *p, double v) { atomicAdd(p, v); }
#endif
//@ pencilc_atomic_mul_double needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_mul_double, double, unsigned long long, PENCILC_OP_MUL)
//@ pencilc_atomic_min_double needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_min_double, double, unsigned long long, PENCILC_OP_MIN)
//@ pencilc_atomic_max_double needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_max_double, double, unsigned long long, PENCILC_OP_MAX)
//@ pencilc_atomic_and_long needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_and_long, long, unsigned long long, PENCILC_OP_AND)
//@ pencilc_atomic_and_ulong needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_and_ulong, unsigned long, unsigned long long, PENCILC_OP_AND)
//@ pencilc_atomic_or_long needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_or_long, long, unsigned long long, PENCILC_OP_OR)
//@ pencilc_atomic_or_ulong needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_or_ulong, unsigned long, unsigned long long, PENCILC_OP_OR)
//@ pencilc_atomic_xor_long needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_xor_long, long, unsigned long long, PENCILC_OP_XOR)
//@ pencilc_atomic_xor_ulong needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_xor_ulong, unsigned long, unsigned long long, PENCILC_OP_XOR)
