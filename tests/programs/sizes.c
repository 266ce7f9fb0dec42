/* `sizeof` in a region: of types (typedefs, arrays of constant extents,
 * pointers), of variables and their rows and elements (a parameter's
 * array is a pointer), in loop bounds (`sizeof loc / sizeof loc[0]`), in
 * subscripts and in unsigned arithmetic, where `size_t` wraps. */
#include <stdio.h>

#define N 40

typedef float vec4[4];
typedef long idx_t;

enum { LANES = sizeof(vec4) / sizeof(float), WIDE = sizeof(idx_t) * 2 + 1 };

static void sizes(int n, double A[N][5], double *p, long out[16])
{
    double loc[3][7];
    vec4 v;
    unsigned char tag[N];
#pragma scop
    for (int i = 0; i < (int)(sizeof loc / sizeof loc[0]); i++)
        for (int j = 0; j < (int)(sizeof(loc[0]) / sizeof(loc[0][0])); j++)
            loc[i][j] = i * 10 + j;
    for (int k = 0; k < 4; k++)
        v[k] = k * sizeof(v[0]);
    int w[] = {3, 1, 4, 1, 5};
    for (int k = 0; k < (int)(sizeof w / sizeof w[0]); k++)
        out[14] += w[k] * (k + 1);
    out[0] = sizeof(A);
    out[1] = sizeof A[0];
    out[2] = sizeof(A[1][2]);
    out[3] = sizeof(p);
    out[4] = sizeof p[3];
    out[5] = sizeof(vec4) + v[3];
    out[6] = sizeof(v);
    out[7] = sizeof(idx_t) + sizeof(unsigned char) + sizeof(short[3][2]);
    out[8] = sizeof(int *);
    out[9] = (long)(sizeof(char) - 2);
    out[10] = sizeof(n);
    out[11] = sizeof(loc[2]);
    out[13] = LANES * 100 + WIDE;
    out[15] = sizeof(_Bool) * 1000 + sizeof(vec4[2]);
    for (int i = 0; i < N - (int)sizeof(double); i++) {
        A[i][0] = A[i][0] + loc[i % 3][i % 7] * sizeof(float);
        A[i][sizeof(int)] = A[i][1] * 2;
        /* size_t arithmetic: (i - 20) * 8 wraps, and the cast takes
           the low 8 bits. */
        tag[i] = (unsigned char)((i - 20) * sizeof(double));
    }
#pragma endscop
    for (int i = 0; i < N - 8; i++)
        out[12] += tag[i] * (i + 1);
}

int main(void)
{
    double A[N][5];
    double p[8];
    long out[16] = {0};
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 5; j++)
            A[i][j] = i + j;
    sizes(3, A, p, out);
    for (int i = 0; i < 16; i++)
        printf("%ld\n", out[i]);
    for (int i = 0; i < N; i++)
        printf("%g %g\n", A[i][0], A[i][4]);
    return 0;
}
