/* A loop's own `continue` that skips the rest of its body: the rest
 * becomes the `else` of the guard, and the loop stays a loop (it ran as
 * one statement, on one GPU thread). Guards nested in guards, a guard in
 * both branches (the rest copied), a `continue` of an inner loop, one
 * that ends the body, a sum after a guard, and a loop with a `break`
 * beside its `continue` (which keeps its code as written). */
#include <stdio.h>

#define N 200

double a[N], b[N], c[N], d[N][16], e[N];
int flag[N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        a[i] = (i * 7) % 11 - 5;
        b[i] = i % 4;
        c[i] = 0;
        e[i] = 0;
        flag[i] = (i * 13) % 3;
        for (int j = 0; j < 16; j++)
            d[i][j] = (i + j) % 6;
    }
    double sum = 0;
    int found = -1;
#pragma scop
    for (int i = 0; i < N; i++) {
        if (a[i] < 0) {
            c[i] = -a[i];
            continue;
        }
        double t = a[i] * 2;
        if (flag[i] == 1) {
            if (t > 6)
                continue;
            t = t + 100;
            continue;
        }
        c[i] = t + b[i];
    }
    for (int i = 0; i < N; i++) {
        if (flag[i] == 0) {
            if (a[i] > 2)
                continue;
            b[i] = 1;
        } else {
            if (a[i] < -2)
                continue;
            b[i] = 2;
        }
        e[i] = e[i] + b[i] * 3;
        continue;
    }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 16; j++) {
            if (d[i][j] == 0)
                continue;
            for (int k = 0; k < 4; k++) {
                if (k == j % 4)
                    continue;
                d[i][j] = d[i][j] + k;
            }
        }
    for (int i = 0; i < N; i++) {
        if (flag[i] == 2)
            continue;
        sum += a[i];
    }
    for (int i = 0; i < N; i++) {
        if (flag[i] == 1)
            continue;
        if (a[i] > 4) {
            found = i;
            break;
        }
    }
#pragma endscop
    double s = sum + found;
    for (int i = 0; i < N; i++) {
        s += c[i] * (i + 1) + b[i] * 3 + e[i] * 5;
        for (int j = 0; j < 16; j++)
            s += d[i][j] * (j + 1);
    }
    printf("%.10g %.10g %d\n", s, sum, found);
    return 0;
}
