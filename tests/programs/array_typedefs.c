/* Arrays declared through array typedefs: `row_t *a` is `double (*a)[8]`,
 * `row_t m[12]` is `double m[12][8]`, `mat_t` nests one in another, and a
 * region's own `row_t tmp` is a private array of 8. */
#include <stdio.h>

typedef double row_t[8];
typedef row_t mat_t[6];
typedef mat_t grid_t;

row_t v;
row_t m[12];

static void blend(grid_t *a, const row_t *w, row_t out, int n)
{
#pragma scop
    for (int k = 0; k < n; k++)
        for (int i = 0; i < 6; i++) {
            row_t tmp;
            for (int j = 0; j < 8; j++)
                tmp[j] = a[k][i][j] * w[i][j];
            for (int j = 0; j < 8; j++)
                a[k][i][j] = tmp[7 - j] + 1.0;
        }
    for (int j = 0; j < 8; j++)
        out[j] = a[0][0][j] + a[n - 1][5][j];
#pragma endscop
}

int main(void)
{
    static mat_t a[5];
    static row_t w[6], out;
    for (int k = 0; k < 5; k++)
        for (int i = 0; i < 6; i++)
            for (int j = 0; j < 8; j++)
                a[k][i][j] = (k + i * 3 + j) % 7;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 8; j++)
            w[i][j] = (i + j) % 3;
    for (int j = 0; j < 8; j++)
        v[j] = j % 5;
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 8; j++)
            m[i][j] = (i * 5 + j) % 9;
    blend(a, w, out, 4);
#pragma scop
    for (int i = 1; i < 12; i++)
        for (int j = 0; j < 8; j++)
            m[i][j] = m[i - 1][j] * 0.5 + v[j];
#pragma endscop
    double s = 0;
    for (int k = 0; k < 5; k++)
        for (int i = 0; i < 6; i++)
            for (int j = 0; j < 8; j++)
                s += a[k][i][j] * (k + i + 2 * j + 1);
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 8; j++)
            s += m[i][j] * (i + 3 * j + 1);
    printf("%.10g\n", s);
    for (int j = 0; j < 8; j++)
        printf("%g ", out[j]);
    printf("\n");
    return 0;
}
