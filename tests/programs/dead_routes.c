/* Routes by which an array or a scalar is read after a region without
 * being named there (the red team of 2026-12-05): each must come back from
 * the device. fakecuda's buffers are poisoned, so one left there prints
 * other values. */
#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>
#define N 40

static double seen;

static void show(double *p) { printf("cleanup %g\n", *p); }
static void look(double *p) { seen = p[5]; }
static void fill(double *p) { p[1] = 2; }
static double *kept;
static void keep(double *p) { kept = p; }

static int kernel(int n, double A[N])
{
#pragma scop
    for (int i = 0; i < n; i++)
        A[i] = 3.0 * i + 1;
#pragma endscop
    return 1;
}

/* A nested function and a `cleanup` handler read the scalars. */
static void scalars(int n, double A[N], double out[N])
{
    double w1 = -1;
    __attribute__((cleanup(show))) double w2 = -2;
    double peek(void) { return w1; }
#pragma scop
    for (int i = 0; i < n; i++) {
        w1 = A[i] * 2;
        w2 = A[i] + 7;
        out[i] = w1 + w2;
    }
#pragma endscop
    printf("peek %g %g\n", peek(), out[5]);
}

int main(void)
{
    /* Operands in no order: gcc reads A[3] after the call. */
    double *A = malloc(N * sizeof(double));
    A[3] = -1;
    double r = (A[3] += kernel(N, A));
    printf("order %g\n", r);
    free(A);

    /* A variable-length array type is evaluated by sizeof. */
    double *B = malloc(N * sizeof(double));
    kernel(N, B);
    printf("sizeof %d\n", (int) sizeof(char[(int) B[5] + 1]));
    free(B);

    /* The allocation's value is another name for the memory. */
    double *C, *view;
    view = C = malloc(N * sizeof(double));
    kernel(N, C);
    printf("view %g\n", view[5]);
    free(C);

    /* A variable named `free` that reads the array. */
    {
        void (*free)(double *) = look;
        double *D = malloc(N * sizeof(double));
        kernel(N, D);
        free(D);
        printf("free %g\n", seen);
    }

    /* A variable named like the file's `fill` keeps the array. */
    {
        void (*fill)(double *) = keep;
        double *E = malloc(N * sizeof(double));
        fill(E);
        kernel(N, E);
        printf("fill %g\n", kept[5]);
        free(E);
    }

    /* Code before the call runs again after it. */
    {
        static volatile int again;
        ucontext_t c;
        double *F = malloc(N * sizeof(double));
        F[5] = -1;
        getcontext(&c);
        printf("context %g\n", F[5]);
        if (!again) {
            again = 1;
            kernel(N, F);
            setcontext(&c);
        }
        free(F);
    }

    double In[N], out[N];
    for (int i = 0; i < N; i++)
        In[i] = i * 0.5;
    scalars(N, In, out);
    fill(In);
    return 0;
}
