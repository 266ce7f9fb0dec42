/* One search per row of a nest: each row's last match (`a = j` under a
 * condition on the data). With a copy of `a` per row, the rows run on
 * threads, each through its row; without, the rows run in order and
 * each row's search is a parallel maximum (scop::last_writes). The GPU
 * model picks: a reduction per row for a few long rows, a thread per row
 * for many short ones. */
#include <stdio.h>

#define R 3000
#define N 64

static double M[R][N];
static int rowat[R];

static void rows(int m, int n)
{
    int a;
#pragma scop
    for (int k = 0; k < m; k++) {
        a = -1;
        for (int j = 0; j < n; j++)
            if (M[k][j] > 0.5)
                a = j;
        rowat[k] = a;
    }
#pragma endscop
}

int main(void)
{
    for (int k = 0; k < R; k++)
        for (int j = 0; j < N; j++)
            M[k][j] = ((k * 13 + j * 17) % 211 - 105) / 7.0;
    rows(R, N);
    long s = 0;
    for (int k = 0; k < R; k++)
        s += (long) rowat[k] * (k % 7 + 1);
    rows(5, 40);
    for (int k = 0; k < R; k++)
        s += (long) rowat[k] * (k % 5 + 1);
    printf("%ld\n", s);
    return 0;
}
