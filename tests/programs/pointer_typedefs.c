/* Pointers declared through typedefs (`dptr a` of `typedef double
 * *dptr;`, chains of them, `restrict` and `const` in the typedef, `const`
 * beside the name, which qualifies the pointer): what `double *a`
 * declares. `f`'s `b` is `a + 1`, so that its loop carries a dependence
 * that only the overlap check keeps in order. */
#include <stdio.h>

typedef double *dptr;
typedef dptr dptr2;
typedef double *restrict rdp;
typedef const double *cdp;

static void f(int n, const dptr a, dptr2 b, cdp c)
{
#pragma scop
    for (int i = 0; i < n; i++)
        b[i] = a[i] + c[i];
#pragma endscop
}

static void g(int n, rdp x, rdp y)
{
#pragma scop
    for (int i = 0; i < n; i++)
        x[i] = y[i] * 3 + sizeof(dptr);
#pragma endscop
}

int main(void)
{
    double a[40], c[40], x[20], y[20];
    for (int i = 0; i < 40; i++) {
        a[i] = i;
        c[i] = 1 + i % 3;
    }
    f(30, a, a + 1, c);
    f(8, a + 20, a + 30, c);
    for (int i = 0; i < 20; i++)
        y[i] = i;
    g(20, x, y);
    for (int i = 0; i < 40; i++)
        printf("%g\n", a[i]);
    for (int i = 0; i < 20; i++)
        printf("%g\n", x[i]);
    return 0;
}
