/*
 * selftest.c -- exercises every construct pencil.h provides.
 *
 * Checked by scripts/check-headers.sh in both modes:
 *   plain C:  gcc -std=c99 -Wall -Wextra -pedantic -Werror, then run it
 *             (exit status 0 means every math builtin gave the OpenCL
 *             result);
 *   PENCIL:   gcc -D__PENCIL__ -E must leave the builtins as calls, and
 *             the preprocessed text must still be valid C.
 */
#include <pencil.h>

typedef struct { float real, imag; } Cplx;

/* --- summary functions, written the three accepted ways --------------- */

PENCIL_SUMMARY_FUNC
void summary_fft32(int i, int j, int n, float in[pencil_array n][n][n])
{
  for (int k = 0; k < 32; k++)
    __pencil_use(in[i][j][k]);
  for (int k = 0; k < 32; k++)
    __pencil_def(in[i][j][k]);
}

/* raw attribute, as in the paper */
__attribute__((pencil_access(summary_fft32)))
void fft32(int i, int j, int n, float in[pencil_array n][n][n]);

void fft32(int i, int j, int n, float in[pencil_array n][n][n])
{
  for (int k = 0; k < 32 && k < n; k++)
    in[i][j][k] = 2.0f * in[i][j][k];
}

PENCIL_SUMMARY_FUNC
void foo_summary(int n, int A[pencil_array n], Cplx d[pencil_array n])
{
  for (int i = 0; i < n; i++)
    USE(A[i]);
  for (int i = 10; i < n; i++)
    MAY_DEF(d[i].real);
  if (__pencil_maybe) {          /* the paper's spelling, without () */
    PENCIL_DEF(A[0]);
  }
  if (MAYBE) {
    DEF(A[15]);
  }
  __pencil_use(d);               /* a whole array */
}

PENCIL_ACCESS(foo_summary)
void foo(int n, int A[pencil_array n], Cplx d[PENCIL_ARRAY n]);

void foo(int n, int A[pencil_array n], Cplx d[PENCIL_ARRAY n])
{
  for (int i = 0; i < n; i++)
    A[i] = A[i] + 1;
  for (int i = 10; i < n; i++)
    d[i].real = 0.0f;
  A[15] = 7;
}

/* --- a PENCIL function using the statement-level builtins ------------- */

PENCIL_FUNCTION
void kernel(int n, int m, float A[pencil_attributes n][m],
            float B[pencil_array n][m], int flags[pencil_array 1])
{
  __pencil_assume(n > 0);
  __pencil_assume(m <= 1024);
  ASSUME(m > 0);
  __pencil_kill(A);
  KILL(B);
  __pencil_kill(A, B);          /* any number of arguments */
#pragma pencil independent
  for (int i = 0; i < n; i++) {
#pragma pencil ivdep
    for (int j = 0; j < m; j++) {
      A[i][j] = fclampf((float)(i + j), 0.0f, 10.0f);
      B[i][j] = mixf(A[i][j], 1.0f, 0.5f);
    }
  }
  __pencil_assert(n > 0);
  __pencil_npr_mem_tag(A, PENCIL_NPR_MEM_READ);
  __pencil_npr_mem_tag(B, PENCIL_NPR_MEM_NOACCESS);
  flags[0] = PENCIL_NPR_MEM_READWRITE | PENCIL_NPR_MEM_NOWRITE |
             PENCIL_NPR_MEM_NOREAD | PENCIL_NPR_MEM_WRITE;
  half h = 1.5f;
  flags[0] = flags[0] + (int)h;
}

/* --- value checks for the builtins plain C implements ------------------ */
/* Plain C only: in __PENCIL__ mode nothing is executed, and <stdio.h> or
 * the <math.h> classification macros (isnan, signbit) are not PENCIL. */
#ifndef __PENCIL__
#include <stdio.h>

static int failures = 0;

static void check(int ok, const char *what)
{
  if (!ok) {
    printf("FAIL: %s\n", what);
    failures++;
  }
}

#define CLOSE(a, b) (fabs((double)(a) - (double)(b)) < 1e-5)

int main(void)
{
  /* integer builtins, every prefix */
  check(min(3, -2) == -2 && max(3, -2) == 3 && clamp(12, 0, 10) == 10, "int");
  check(umin(3u, 7u) == 3u && umax(3u, 7u) == 7u && uclamp(1u, 2u, 5u) == 2u,
        "uint");
  check(lmin(-5L, 4L) == -5L && lmax(-5L, 4L) == 4L && lclamp(9L, 0L, 3L) == 3L,
        "long");
  check(ulmin(1UL, 2UL) == 1UL && ulmax(1UL, 2UL) == 2UL &&
        ulclamp(0UL, 1UL, 2UL) == 1UL, "ulong");
  check(bmin(-1, 1) == -1 && bmax(-1, 1) == 1 && bclamp(100, -5, 5) == 5,
        "char");
  check(ubmin(200, 100) == 100 && ubmax(200, 100) == 200 &&
        ubclamp(250, 0, 200) == 200, "uchar");
  check(smin(-300, 300) == -300 && smax(-300, 300) == 300 &&
        sclamp(-400, -300, 300) == -300, "short");
  check(usmin(60000, 1) == 1 && usmax(60000, 1) == 60000 &&
        usclamp(5, 10, 20) == 10, "ushort");
  check(abs_diff(-3, 4) == 7u && babs_diff(-128, 127) == 255 &&
        ulabs_diff(1UL, 3UL) == 2UL && uabs_diff(5u, 2u) == 3u &&
        sabs_diff(1, -1) == 2 && usabs_diff(1, 3) == 2 &&
        ubabs_diff(1, 3) == 2 && labs_diff(-2L, 2L) == 4UL, "abs_diff");
  check(popcount(-1) == 32 && bpopcount(-1) == 8 && upopcount(6u) == 2 &&
        lpopcount(-1L) == (long)(sizeof(long) * CHAR_BIT) &&
        spopcount(-1) == 16 && ulpopcount(3UL) == 2 && ubpopcount(255) == 8 &&
        uspopcount(1) == 1, "popcount");
  check(clz(1) == 31 && clz(0) == 32 && uclz(0x80000000u) == 0 &&
        bclz(1) == 7 && ubclz(0) == 8 && sclz(1) == 15 && usclz(0) == 16 &&
        lclz(1L) == (long)(sizeof(long) * CHAR_BIT) - 1 && ulclz(0UL) ==
        (unsigned long)(sizeof(long) * CHAR_BIT), "clz");
  check(abs(-4) == 4 && labs(-4L) == 4L && babs(-128) == 128 &&
        sabs(-32768) == 32768u, "abs");
  check(abs32(-7) == 7 && abs64(-7) == 7 && min32(1, 2) == 1 &&
        max32(1, 2) == 2 && min64(1, 2) == 1 && max64(1, 2) == 2 &&
        clamp32(5, 0, 3) == 3 && clamp64(-5, 0, 3) == 0, "fixed width");

  /* floating-point builtins */
  check(fmin(1.0, 2.0) == 1.0 && fmaxf(1.0f, 2.0f) == 2.0f, "fmin/fmax");
  check(fclamp(5.0, 0.0, 1.0) == 1.0 && fclampf(-5.0f, 0.0f, 1.0f) == 0.0f,
        "fclamp");
  check(mix(2.0, 4.0, 0.25) == 2.5 && mixf(2.0f, 4.0f, 0.25f) == 2.5f,
        "mix");
  check(step(1.0, 0.5) == 0.0 && stepf(1.0f, 1.0f) == 1.0f, "step");
  check(smoothstep(0.0, 1.0, 0.5) == 0.5 && smoothstepf(0.0f, 1.0f, 2.0f) ==
        1.0f, "smoothstep");
  check(sign(-3.0) == -1.0 && signf(2.0f) == 1.0f && sign(0.0) == 0.0 &&
        signf(NAN) == 0.0f && signbit(sign(-0.0)), "sign");
  check(CLOSE(degrees(M_PI), 180.0) && CLOSE(degreesf((float)M_PI), 180.0) &&
        CLOSE(radians(180.0), M_PI) && CLOSE(radiansf(90.0f), M_PI / 2),
        "degrees/radians");
  check(mad(2.0, 3.0, 1.0) == 7.0 && madf(2.0f, 3.0f, 1.0f) == 7.0f, "mad");
  check(maxmag(-3.0, 2.0) == -3.0 && minmagf(-3.0f, 2.0f) == 2.0f &&
        maxmagf(2.0f, -2.0f) == 2.0f && minmag(2.0, -2.0) == -2.0, "maxmag");
  check(CLOSE(acospi(-1.0), 1.0) && CLOSE(asinpif(1.0f), 0.5) &&
        CLOSE(atanpi(1.0), 0.25) && CLOSE(atan2pif(1.0f, -1.0f), 0.75) &&
        CLOSE(acospif(0.0f), 0.5) && CLOSE(asinpi(-1.0), -0.5) &&
        CLOSE(atanpif(-1.0f), -0.25) && CLOSE(atan2pi(-1.0, 0.0), -0.5),
        "inverse trig pi");
  check(cospi(1e9) == 1.0 && CLOSE(sinpi(0.5), 1.0) && CLOSE(cospif(1.0f), -1.0)
        && CLOSE(sinpif(1.5f), -1.0) && CLOSE(tanpi(0.25), 1.0) &&
        CLOSE(tanpif(-0.25f), -1.0), "trig pi");
  check(CLOSE(exp10(2.0), 100.0) && CLOSE(exp10f(-1.0f), 0.1), "exp10");
  check(rsqrt(4.0) == 0.5 && rsqrtf(16.0f) == 0.25f, "rsqrt");
  check(pown(2.0, 10) == 1024.0 && pownf(2.0f, -1) == 0.5f, "pown");
  check(powr(4.0, 0.5) == 2.0 && isnan(powrf(-1.0f, 2.0f)), "powr");
  check(CLOSE(rootn(-8.0, 3), -2.0) && CLOSE(rootnf(16.0f, 4), 2.0) &&
        isnan(rootn(-16.0, 2)), "rootn");
  {
    double (*fp)(double) = sinpi;   /* renamed builtins are addressable */
    check(CLOSE(fp(0.5), 1.0), "&sinpi");
  }
  /* C99 <math.h> builtins are the libc ones; spot-check a few names. */
  check(floorf(1.5f) == 1.0f && ceil(1.5) == 2.0 && fabsf(-1.0f) == 1.0f &&
        ldexp(1.0, 3) == 8.0 && ilogb(8.0) == 3, "libm");

  /* annotations as statements in ordinary code */
  {
    int n = 3, m = 4, flags[1] = { 0 };
    float A[3][4], B[3][4];
    kernel(n, m, A, B, flags);
    check(A[2][3] == 5.0f && B[2][3] == 3.0f, "kernel");
    check(flags[0] == (12 | 1 | 2 | 8) + 1, "npr tags");
  }
  {
    int n = 2;
    float in[2][2][2] = { { { 1, 2 }, { 3, 4 } }, { { 5, 6 }, { 7, 8 } } };
    int A[16] = { 0 };
    Cplx d[16];
    fft32(1, 1, n, in);
    check(in[1][1][1] == 16.0f && in[0][0][0] == 1.0f, "fft32");
    foo(16, A, d);
    check(A[15] == 7 && A[0] == 1, "foo");
  }

  if (failures == 0)
    printf("pencil.h selftest: ok\n");
  return failures != 0;
}
#endif /* !__PENCIL__ */
