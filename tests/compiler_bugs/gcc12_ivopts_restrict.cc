/* A wrong-code bug of g++ 12.2 (Debian 12), in the kernel of pencilc's
 * CUDA output built for the emulation (differential family 110, case 322,
 * shrunk): the kernel runs the loop nest on one thread. This program
 * prints 345.84974662162176 at -O0, with -O2 -fno-ivopts and under the
 * sanitizers, and 334.68918918918928 at -O1 and -O2.
 * Without the `__restrict__` qualifiers the optimised build is right too,
 * but the qualifiers promise nothing false: A, B and C are three distinct
 * arrays, and every access is within them (UBSan and ASan are silent).
 * The harness's triage (tests/schedule_property.rs, `host_compiler_triage`)
 * counts a case right without `restrict` as pencilc's, so it reported this
 * one as a wrong output; this file is the evidence that it is the
 * compiler's. Not part of pencilc. */
#include <cstdio>
__attribute__((noinline)) void kernel0(double *__restrict__ A, double *__restrict__ B, double *__restrict__ C)
{
    for (int c0 = 3; c0 <= 5; c0 += 1) {
        for (int c1 = c0 + 2; c1 < 2 * c0; c1 += 1) {
            (A[0]) += 0.3 * C[(2 * (-c0 + c1)) * 6 + ((-c0 + c1))];
            C[(c0 - 1) * 6 + c0] += 0.3 * B[(c0 + (-c0 + c1)) * 10 + c0];
            (A[0]) = 0.375 * C[(c0 - 1) * 6 + c0] - 0.5 * B[((-c0 + c1)) * 10 + (9 - c0)] + 0.125 * B[(c0 + (-c0 + c1)) * 10 + (c0 + (-c0 + c1))];
        }
    }
}
int main()
{
    static double A[1], B[100], C[54];
    A[0] = 3.0 / 37.0 - 0.25;
    for (int x0 = 0; x0 < 10; x0++)
        for (int x1 = 0; x1 < 10; x1++)
            B[x0 * 10 + x1] = (double) ((5 + 7 * x0 + 13 * x1) % 37) / 37.0 - 0.25;
    for (int x0 = 0; x0 < 9; x0++)
        for (int x1 = 0; x1 < 6; x1++)
            C[x0 * 6 + x1] = (double) ((7 + 7 * x0 + 13 * x1) % 37) / 37.0 - 0.25;
    kernel0(A, B, C);
    double s = A[0];
    for (int i = 0; i < 54; i++)
        s += C[i] * (i + 1);
    printf("%.17g\n", s);
}
