/*
 * pencil_opencl.h -- PENCIL's typed builtins and pencilc's atomic
 * reduction helpers for OpenCL C kernels.
 *
 * pencilc pastes this into every generated OpenCL kernel file.  OpenCL C
 * already has overloaded min, max, clamp, mix, fmin, fmax, atan2pi, ...;
 * the back end maps the float-suffixed PENCIL names onto those (mixf ->
 * mix, atan2pif -> atan2pi).  What OpenCL lacks under PENCIL's names is
 * defined here, with the same semantics as pencil_compat.h (plain C).
 * OpenCL's abs() returns an unsigned type, unlike C's; pencilc prints
 * calls to abs as pencilc_abs, which keeps C's signed result.
 */
#if defined(cl_khr_int64_base_atomics)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#endif

int pencilc_abs(int x) { return x < 0 ? -x : x; }
long labs(long x) { return x < 0 ? -x : x; }
int abs32(int x) { return x < 0 ? -x : x; }
long abs64(long x) { return x < 0 ? -x : x; }
int min32(int a, int b) { return a < b ? a : b; }
long min64(long a, long b) { return a < b ? a : b; }
int max32(int a, int b) { return a > b ? a : b; }
long max64(long a, long b) { return a > b ? a : b; }
int clamp32(int x, int lo, int hi) { return min32(max32(x, lo), hi); }
long clamp64(long x, long lo, long hi) { return min64(max64(x, lo), hi); }
int imin(int a, int b) { return a < b ? a : b; }
int imax(int a, int b) { return a > b ? a : b; }
long lmin(long a, long b) { return a < b ? a : b; }
long lmax(long a, long b) { return a > b ? a : b; }
long lclamp(long x, long lo, long hi) { return lmin(lmax(x, lo), hi); }
uint umin(uint a, uint b) { return a < b ? a : b; }
uint umax(uint a, uint b) { return a > b ? a : b; }
uint uclamp(uint x, uint lo, uint hi) { return umin(umax(x, lo), hi); }
ulong ulmin(ulong a, ulong b) { return a < b ? a : b; }
ulong ulmax(ulong a, ulong b) { return a > b ? a : b; }
float fclampf(float x, float lo, float hi) { return fmin(fmax(x, lo), hi); }
#if defined(cl_khr_fp64)
double fclamp(double x, double lo, double hi) { return fmin(fmax(x, lo), hi); }
#endif

/* Reductions of `#pragma pencil independent reduction(op: v)`: each update
 * of v is one atomic read-modify-write.  Integer add/min/max use OpenCL's
 * atomics; everything else a compare-and-swap loop on the bits. */
void pencilc_atomic_add_int(volatile __global int *p, int v) { atomic_add(p, v); }
void pencilc_atomic_add_uint(volatile __global uint *p, uint v) { atomic_add(p, v); }
void pencilc_atomic_min_int(volatile __global int *p, int v) { atomic_min(p, v); }
void pencilc_atomic_min_uint(volatile __global uint *p, uint v) { atomic_min(p, v); }
void pencilc_atomic_max_int(volatile __global int *p, int v) { atomic_max(p, v); }
void pencilc_atomic_max_uint(volatile __global uint *p, uint v) { atomic_max(p, v); }

#define PENCILC_OP_ADD(a, b) ((a) + (b))
#define PENCILC_OP_MUL(a, b) ((a) * (b))
#define PENCILC_OP_MIN(a, b) ((b) < (a) ? (b) : (a))
#define PENCILC_OP_MAX(a, b) ((b) > (a) ? (b) : (a))
#define PENCILC_CAS(NAME, T, BITS, CMPXCHG, OP)                          \
  void NAME(volatile __global T *p, T v)                               \
  {                                                                    \
    union { T t; BITS u; } o, n;                                       \
    do {                                                               \
      o.t = *p;                                                        \
      n.t = OP(o.t, v);                                                \
    } while (CMPXCHG((volatile __global BITS *)p, o.u, n.u) != o.u);   \
  }
PENCILC_CAS(pencilc_atomic_mul_int, int, uint, atomic_cmpxchg, PENCILC_OP_MUL)
PENCILC_CAS(pencilc_atomic_mul_uint, uint, uint, atomic_cmpxchg, PENCILC_OP_MUL)
PENCILC_CAS(pencilc_atomic_add_float, float, uint, atomic_cmpxchg, PENCILC_OP_ADD)
PENCILC_CAS(pencilc_atomic_mul_float, float, uint, atomic_cmpxchg, PENCILC_OP_MUL)
PENCILC_CAS(pencilc_atomic_min_float, float, uint, atomic_cmpxchg, PENCILC_OP_MIN)
PENCILC_CAS(pencilc_atomic_max_float, float, uint, atomic_cmpxchg, PENCILC_OP_MAX)
#if defined(cl_khr_int64_base_atomics)
PENCILC_CAS(pencilc_atomic_add_long, long, ulong, atom_cmpxchg, PENCILC_OP_ADD)
PENCILC_CAS(pencilc_atomic_mul_long, long, ulong, atom_cmpxchg, PENCILC_OP_MUL)
PENCILC_CAS(pencilc_atomic_min_long, long, ulong, atom_cmpxchg, PENCILC_OP_MIN)
PENCILC_CAS(pencilc_atomic_max_long, long, ulong, atom_cmpxchg, PENCILC_OP_MAX)
PENCILC_CAS(pencilc_atomic_add_ulong, ulong, ulong, atom_cmpxchg, PENCILC_OP_ADD)
PENCILC_CAS(pencilc_atomic_mul_ulong, ulong, ulong, atom_cmpxchg, PENCILC_OP_MUL)
PENCILC_CAS(pencilc_atomic_min_ulong, ulong, ulong, atom_cmpxchg, PENCILC_OP_MIN)
PENCILC_CAS(pencilc_atomic_max_ulong, ulong, ulong, atom_cmpxchg, PENCILC_OP_MAX)
#if defined(cl_khr_fp64)
PENCILC_CAS(pencilc_atomic_add_double, double, ulong, atom_cmpxchg, PENCILC_OP_ADD)
PENCILC_CAS(pencilc_atomic_mul_double, double, ulong, atom_cmpxchg, PENCILC_OP_MUL)
PENCILC_CAS(pencilc_atomic_min_double, double, ulong, atom_cmpxchg, PENCILC_OP_MIN)
PENCILC_CAS(pencilc_atomic_max_double, double, ulong, atom_cmpxchg, PENCILC_OP_MAX)
#endif
#endif
