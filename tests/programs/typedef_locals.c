/* A region's own scalars declared with typedef'd types (`real_t s`,
 * `u8 t`), in the loop and before it: kernels know no user typedef, so
 * they are declared with the types the typedefs name. */
#include <stdio.h>

typedef float real_t;
typedef unsigned char u8;

real_t a[64], b[64], e[64];

int main(void)
{
    for (int i = 0; i < 64; i++) {
        a[i] = i % 9;
        b[i] = i % 4;
        e[i] = 1 + i % 3;
    }
#pragma scop
    for (int i = 0; i < 64; i++) {
        real_t s = a[i] * 2;
        u8 t = (u8)(i * 37);
        b[i] = s + t;
    }
    real_t carry = (real_t)0.5;
    for (int i = 0; i < 64; i++) {
        a[i] = carry * e[i];
        carry = b[i] + 1;
    }
#pragma endscop
    for (int i = 0; i < 64; i++)
        printf("%g %g\n", a[i], b[i]);
    return 0;
}
