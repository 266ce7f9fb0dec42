/* Arg-max and arg-min loops (`if (E > m) { m = E; at = i; }`): the
 * maximum is a reduction and a second loop finds the iteration that
 * reached it first (`>`) or last (`>=`) (scop::last_writes::extremes).
 * Ties, both directions, float, int and double values, a value the loop
 * writes before comparing it, one search per row; and two loops the
 * rewrite must leave in order (a value that changes after the `if`, a
 * double compared with a float variable, an int kept in a short). Each call prints what it
 * leaves. */
#include <stdio.h>
#include <math.h>
#define N 5000
#define R 30
static double A[N], M[R][N];
static float F[N];
static int I[N];
static double best, low, rowbest[R];
static float fbest;
static int at, lat, iat, ibest, rowat[R], fat, tie_at;
static void argmax(int n)
{
#pragma scop
    for (int i = 0; i < n; i++)
        if (A[i] > best) {
            best = A[i];
            at = i;
        }
    for (int i = n - 1; i >= 0; i--)
        if (low >= A[i] * 2.0) {           /* min, non-strict, counting down */
            low = A[i] * 2.0;
            lat = i;
        }
    for (int i = 0; i < n; i += 3) {
        F[i] = F[i] * 0.5f;
        if (F[i] >= fbest) {               /* float max, non-strict, element written first */
            fbest = F[i];
            fat = i;
        }
    }
    for (int i = 0; i < n; i++)
        if (ibest < I[i] % 97) {           /* int max, m on the left */
            ibest = I[i] % 97;
            iat = i;
            tie_at = i * 2 + 1;
        }
#pragma endscop
}
static double later[N];
static float narrow;
static short small;
static int later_at, narrow_at, small_at;
static void left_alone(int n)
{
#pragma scop
    for (int i = 0; i < n; i++) {
        if (later[i] > best) {
            best = later[i];
            later_at = i;
        }
        later[i] = later[i] * 0.5 + 0.25;
    }
    for (int i = 0; i < n; i++)
        if (A[i] * 0.999999999 > narrow) {
            narrow = A[i] * 0.999999999;
            narrow_at = i;
        }
    /* A `short` keeps 40000 as -25536, which no value then equals. */
    for (int i = 0; i < n; i++)
        if (I[i] > small) {
            small = I[i];
            small_at = i;
        }
#pragma endscop
}

static void rows(int m, int n)
{
    double b;
    int a;
#pragma scop
    for (int k = 0; k < m; k++) {
        b = -1.0;
        a = -1;
        for (int j = 0; j < n; j++)
            if (fabs(M[k][j]) > b) {
                b = fabs(M[k][j]);
                a = j;
            }
        rowbest[k] = b;
        rowat[k] = a;
    }
#pragma endscop
}
int main(void)
{
    for (int i = 0; i < N; i++) {
        A[i] = ((i * 7919) % 1009) / 1009.0 + ((i % 997) == 0 ? 1.0 : 0.0);
        F[i] = (float) (((i * 31) % 101) / 50.0);
        I[i] = (i * 131) % 1000;
        later[i] = ((i * 53) % 89) / 40.0;
        if (i % 997 == 996)
            I[i] = 40000;
    }
    for (int k = 0; k < R; k++) for (int j = 0; j < N; j++) M[k][j] = ((k * 13 + j * 17) % 211 - 105) / 7.0;
    int sizes[] = {N, 1, 0, 997, 998, 2000};
    for (int c = 0; c < 6; c++) {
        best = 0.5; low = 3.0; fbest = 0.3f; ibest = 90; at = lat = fat = iat = tie_at = -9;
        argmax(sizes[c]);
        printf("%d: %.17g %d | %.17g %d | %.9g %d | %d %d %d\n", c, best, at, low, lat, fbest, fat, ibest, iat, tie_at);
        narrow = 0.25f; small = 0; later_at = narrow_at = small_at = -9;
        left_alone(sizes[c]);
        printf("   later %.17g %d narrow %.9g %d small %d %d\n", best, later_at, narrow, narrow_at, small, small_at);
        rows(c == 2 ? 0 : R, sizes[c]);
        long s = 0; double t = 0;
        for (int k = 0; k < R; k++) { s += rowat[k] * (k + 1); t += rowbest[k]; }
        printf("   rows %ld %.17g\n", s, t);
    }
    double z = 0; for (int i = 0; i < N; i++) z += F[i];
    printf("%.9g\n", z);
    return 0;
}
