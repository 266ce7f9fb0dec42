/*
 * pencil_opencl.h -- PENCIL's typed builtins and pencilc's atomic
 * reduction helpers for OpenCL C kernels.
 *
 * pencilc pastes what a kernel file uses of this into it.  OpenCL C
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
/*
 * Each definition is one item, introduced by a `//@ NAME [needs A B]`
 * line: pencilc pastes the text above the first item, then only the items
 * whose NAME its kernels (or the user's device code) mention, with the
 * items they need.
 */
//@ pencilc_barrier
/* OpenCL's names, for kernels where a user's variable of that name is
 * spelled pencilc_user_<name> (src/back/device_names.rs). */
#define pencilc_barrier() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
//@ pencilc_local_barrier
#define pencilc_local_barrier() barrier(CLK_LOCAL_MEM_FENCE)
//@ pencilc_inf_float
#define pencilc_inf_float INFINITY
//@ pencilc_inf_double
#define pencilc_inf_double HUGE_VAL
//@ pencilc_abs
int pencilc_abs(int x) { return x < 0 ? -x : x; }
//@ labs
long labs(long x) { return x < 0 ? -x : x; }
//@ abs32
int abs32(int x) { return x < 0 ? -x : x; }
//@ abs64
long abs64(long x) { return x < 0 ? -x : x; }
//@ min32
int min32(int a, int b) { return a < b ? a : b; }
//@ min64
long min64(long a, long b) { return a < b ? a : b; }
//@ max32
int max32(int a, int b) { return a > b ? a : b; }
//@ max64
long max64(long a, long b) { return a > b ? a : b; }
//@ clamp32 needs min32 max32
int clamp32(int x, int lo, int hi) { return min32(max32(x, lo), hi); }
//@ clamp64 needs min64 max64
long clamp64(long x, long lo, long hi) { return min64(max64(x, lo), hi); }
//@ imin
int imin(int a, int b) { return a < b ? a : b; }
//@ imax
int imax(int a, int b) { return a > b ? a : b; }
//@ lmin
long lmin(long a, long b) { return a < b ? a : b; }
//@ lmax
long lmax(long a, long b) { return a > b ? a : b; }
//@ lclamp needs lmin lmax
long lclamp(long x, long lo, long hi) { return lmin(lmax(x, lo), hi); }
//@ umin
uint umin(uint a, uint b) { return a < b ? a : b; }
//@ umax
uint umax(uint a, uint b) { return a > b ? a : b; }
//@ uclamp needs umin umax
uint uclamp(uint x, uint lo, uint hi) { return umin(umax(x, lo), hi); }
//@ ulmin
ulong ulmin(ulong a, ulong b) { return a < b ? a : b; }
//@ ulmax
ulong ulmax(ulong a, ulong b) { return a > b ? a : b; }
//@ fclampf
float fclampf(float x, float lo, float hi) { return fmin(fmax(x, lo), hi); }
//@ fclamp
#if defined(cl_khr_fp64)
double fclamp(double x, double lo, double hi) { return fmin(fmax(x, lo), hi); }
#endif

//@ pencilc_atomic_add_int
/* Reductions of `#pragma pencil independent reduction(op: v)` that are not
 * privatized (src/back/reduce.rs): each update of v is one atomic
 * read-modify-write.  Integer add/min/max use OpenCL's atomics; everything
 * else a compare-and-swap loop on the bits. */
void pencilc_atomic_add_int(volatile __global int *p, int v) { atomic_add(p, v); }
//@ pencilc_atomic_add_uint
void pencilc_atomic_add_uint(volatile __global uint *p, uint v) { atomic_add(p, v); }
//@ pencilc_atomic_min_int
void pencilc_atomic_min_int(volatile __global int *p, int v) { atomic_min(p, v); }
//@ pencilc_atomic_min_uint
void pencilc_atomic_min_uint(volatile __global uint *p, uint v) { atomic_min(p, v); }
//@ pencilc_atomic_max_int
void pencilc_atomic_max_int(volatile __global int *p, int v) { atomic_max(p, v); }
//@ pencilc_atomic_max_uint
void pencilc_atomic_max_uint(volatile __global uint *p, uint v) { atomic_max(p, v); }

//@ pencilc_atomic_and_int
void pencilc_atomic_and_int(volatile __global int *p, int v) { atomic_and(p, v); }
//@ pencilc_atomic_and_uint
void pencilc_atomic_and_uint(volatile __global uint *p, uint v) { atomic_and(p, v); }
//@ pencilc_atomic_or_int
void pencilc_atomic_or_int(volatile __global int *p, int v) { atomic_or(p, v); }
//@ pencilc_atomic_or_uint
void pencilc_atomic_or_uint(volatile __global uint *p, uint v) { atomic_or(p, v); }
//@ pencilc_atomic_xor_int
void pencilc_atomic_xor_int(volatile __global int *p, int v) { atomic_xor(p, v); }
//@ pencilc_atomic_xor_uint
void pencilc_atomic_xor_uint(volatile __global uint *p, uint v) { atomic_xor(p, v); }

//@ PENCILC_CAS
#define PENCILC_OP_ADD(a, b) ((a) + (b))
#define PENCILC_OP_MUL(a, b) ((a) * (b))
#define PENCILC_OP_MIN(a, b) ((b) < (a) ? (b) : (a))
#define PENCILC_OP_MAX(a, b) ((b) > (a) ? (b) : (a))
#define PENCILC_OP_AND(a, b) ((a) & (b))
#define PENCILC_OP_OR(a, b) ((a) | (b))
#define PENCILC_OP_XOR(a, b) ((a) ^ (b))
#define PENCILC_CAS(NAME, T, BITS, CMPXCHG, OP)                          \
  void NAME(volatile __global T *p, T v)                               \
  {                                                                    \
    union { T t; BITS u; } o, n;                                       \
    do {                                                               \
      o.t = *p;                                                        \
      n.t = OP(o.t, v);                                                \
    } while (CMPXCHG((volatile __global BITS *)p, o.u, n.u) != o.u);   \
  }
//@ pencilc_atomic_mul_int needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_mul_int, int, uint, atomic_cmpxchg, PENCILC_OP_MUL)
//@ pencilc_atomic_mul_uint needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_mul_uint, uint, uint, atomic_cmpxchg, PENCILC_OP_MUL)
//@ pencilc_atomic_add_float needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_add_float, float, uint, atomic_cmpxchg, PENCILC_OP_ADD)
//@ pencilc_atomic_mul_float needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_mul_float, float, uint, atomic_cmpxchg, PENCILC_OP_MUL)
//@ pencilc_atomic_min_float needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_min_float, float, uint, atomic_cmpxchg, PENCILC_OP_MIN)
//@ pencilc_atomic_max_float needs PENCILC_CAS
PENCILC_CAS(pencilc_atomic_max_float, float, uint, atomic_cmpxchg, PENCILC_OP_MAX)
//@ pencilc_atomic_add_long needs PENCILC_CAS
#if defined(cl_khr_int64_base_atomics)
PENCILC_CAS(pencilc_atomic_add_long, long, ulong, atom_cmpxchg, PENCILC_OP_ADD)
#endif
//@ pencilc_atomic_mul_long needs PENCILC_CAS
#if defined(cl_khr_int64_base_atomics)
PENCILC_CAS(pencilc_atomic_mul_long, long, ulong, atom_cmpxchg, PENCILC_OP_MUL)
#endif
//@ pencilc_atomic_min_long needs PENCILC_CAS
#if defined(cl_khr_int64_base_atomics)
PENCILC_CAS(pencilc_atomic_min_long, long, ulong, atom_cmpxchg, PENCILC_OP_MIN)
#endif
//@ pencilc_atomic_max_long needs PENCILC_CAS
#if defined(cl_khr_int64_base_atomics)
PENCILC_CAS(pencilc_atomic_max_long, long, ulong, atom_cmpxchg, PENCILC_OP_MAX)
#endif
//@ pencilc_atomic_add_ulong needs PENCILC_CAS
#if defined(cl_khr_int64_base_atomics)
PENCILC_CAS(pencilc_atomic_add_ulong, ulong, ulong, atom_cmpxchg, PENCILC_OP_ADD)
#endif
//@ pencilc_atomic_mul_ulong needs PENCILC_CAS
#if defined(cl_khr_int64_base_atomics)
PENCILC_CAS(pencilc_atomic_mul_ulong, ulong, ulong, atom_cmpxchg, PENCILC_OP_MUL)
#endif
//@ pencilc_atomic_min_ulong needs PENCILC_CAS
#if defined(cl_khr_int64_base_atomics)
PENCILC_CAS(pencilc_atomic_min_ulong, ulong, ulong, atom_cmpxchg, PENCILC_OP_MIN)
#endif
//@ pencilc_atomic_max_ulong needs PENCILC_CAS
#if defined(cl_khr_int64_base_atomics)
PENCILC_CAS(pencilc_atomic_max_ulong, ulong, ulong, atom_cmpxchg, PENCILC_OP_MAX)
#endif
//@ pencilc_atomic_add_double needs PENCILC_CAS
#if defined(cl_khr_int64_base_atomics) && defined(cl_khr_fp64)
PENCILC_CAS(pencilc_atomic_add_double, double, ulong, atom_cmpxchg, PENCILC_OP_ADD)
#endif
//@ pencilc_atomic_mul_double needs PENCILC_CAS
#if defined(cl_khr_int64_base_atomics) && defined(cl_khr_fp64)
PENCILC_CAS(pencilc_atomic_mul_double, double, ulong, atom_cmpxchg, PENCILC_OP_MUL)
#endif
//@ pencilc_atomic_min_double needs PENCILC_CAS
#if defined(cl_khr_int64_base_atomics) && defined(cl_khr_fp64)
PENCILC_CAS(pencilc_atomic_min_double, double, ulong, atom_cmpxchg, PENCILC_OP_MIN)
#endif
//@ pencilc_atomic_max_double needs PENCILC_CAS
#if defined(cl_khr_int64_base_atomics) && defined(cl_khr_fp64)
PENCILC_CAS(pencilc_atomic_max_double, double, ulong, atom_cmpxchg, PENCILC_OP_MAX)
#endif
//@ pencilc_atomic_and_long needs PENCILC_CAS
#if defined(cl_khr_int64_base_atomics)
PENCILC_CAS(pencilc_atomic_and_long, long, ulong, atom_cmpxchg, PENCILC_OP_AND)
#endif
//@ pencilc_atomic_and_ulong needs PENCILC_CAS
#if defined(cl_khr_int64_base_atomics)
PENCILC_CAS(pencilc_atomic_and_ulong, ulong, ulong, atom_cmpxchg, PENCILC_OP_AND)
#endif
//@ pencilc_atomic_or_long needs PENCILC_CAS
#if defined(cl_khr_int64_base_atomics)
PENCILC_CAS(pencilc_atomic_or_long, long, ulong, atom_cmpxchg, PENCILC_OP_OR)
#endif
//@ pencilc_atomic_or_ulong needs PENCILC_CAS
#if defined(cl_khr_int64_base_atomics)
PENCILC_CAS(pencilc_atomic_or_ulong, ulong, ulong, atom_cmpxchg, PENCILC_OP_OR)
#endif
//@ pencilc_atomic_xor_long needs PENCILC_CAS
#if defined(cl_khr_int64_base_atomics)
PENCILC_CAS(pencilc_atomic_xor_long, long, ulong, atom_cmpxchg, PENCILC_OP_XOR)
#endif
//@ pencilc_atomic_xor_ulong needs PENCILC_CAS
#if defined(cl_khr_int64_base_atomics)
PENCILC_CAS(pencilc_atomic_xor_ulong, ulong, ulong, atom_cmpxchg, PENCILC_OP_XOR)
#endif
