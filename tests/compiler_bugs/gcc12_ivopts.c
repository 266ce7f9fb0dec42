/* A wrong-code bug of gcc 12.2 (Debian 12) that pencilc's generated code
 * met in the differential test (family 1002, cases 605 and 686): this
 * program prints 18846.144636168443 at -O0, with clang, with -fwrapv and
 * with -fno-ivopts, and 18731.243243243236 at -O1, -O2 and -O3. It has no
 * undefined behaviour (UBSan and ASan are silent; every index is within
 * C). The store C[c1*4 + c0] and the load C[c1*4 + (c2 - c1)] meet at
 * c2 = c1 + c0, which the optimised loop misses. Kept as evidence for
 * the test harness's triage (tests/schedule_property.rs,
 * `host_compiler_triage`); not part of pencilc. */
#include <stdio.h>
#define min(a,b) ((a)<(b)?(a):(b))
__attribute__((noinline)) void k(double *C, int b1)
{
    for (int c0 = 2; c0 <= 3; c0 += 1)
        for (int c1 = c0 - 1; c1 <= 29; c1 += 1)
            for (int c2 = c1 + 2; c2 <= min(32 * b1 + 31, c0 + c1); c2 += 1)
                C[c1 * 4 + c0] += 0.125 * C[c1 * 4 + (c2 - c1)] * C[(c2 - c1) * 4 + c0];
}
double C[280];
int main(void)
{
    for (int i = 0; i < 280; i++) C[i] = (i % 37) / 37.0;
    k(C, 0);
    double s = 0;
    for (int i = 0; i < 280; i++) s += C[i] * (i + 1);
    printf("%.17g\n", s);
}
