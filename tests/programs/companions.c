/* Loops that declare and step a second variable beside their iterator
 * (`for (int i = 0, j = N - 1; i < N; i++, j--)`): the second is a
 * function of the first, in the body and in the condition, whatever the
 * steps, the order of the increments, an initialiser that reads the
 * iterator or an outer loop's, an unsigned one that wraps, and one
 * beside an unsigned iterator that counts down. */
#include <stdio.h>

#define N 64

double a[N], b[N];
int c[N], d[200], e[8][8];
unsigned u[16], w[8];

int main(void)
{
    for (int i = 0; i < N; i++) {
        b[i] = i * 3 % 11;
        c[i] = -1;
    }
    for (int i = 0; i < 200; i++)
        d[i] = 0;
#pragma scop
    for (int i = 0, j = N - 1; i < N; i++, j--)
        a[i] = b[j] + j;
    for (int i = 0, j = 40; j > 0; j -= 3, i++)
        c[i] = j * 10 + i;
    for (int i = 1, j = i * 2; i < 50; i += 3, j += 5)
        d[j] = i;
    for (unsigned i = 0, j = 5; i < 16; i++, j--)
        u[i] = j;
    for (unsigned i = 8, j = 0; i > 0; i--, j++)
        w[i - 1] = j * 3;
    for (int k = 0; k < 8; k++)
        for (int i = k, j = 2 * k; i < k + 8; i++, j++)
            e[k][i - k] = j * 100 + i;
#pragma endscop
    for (int i = 0; i < N; i++)
        printf("%g %d\n", a[i], c[i]);
    for (int i = 0; i < 200; i++)
        printf("%d ", d[i]);
    for (int i = 0; i < 16; i++)
        printf("%u ", u[i]);
    for (int i = 0; i < 8; i++)
        printf("%u ", w[i]);
    for (int k = 0; k < 8; k++)
        for (int i = 0; i < 8; i++)
            printf("%d ", e[k][i]);
    printf("\n");
    return 0;
}
