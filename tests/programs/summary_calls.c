/* A summary function written for pet (its tests/summary.c): `maybe()`
 * makes the writes it guards may-writes. A summary never runs, so what
 * `maybe` does (here it counts its calls) does not matter. */
#include <stdio.h>

static int calls;
int maybe(void) { return calls++ & 1; }

void set_odd_summary(int n, int A[static n])
{
	for (int i = 1; i < n; i += 2)
		if (maybe())
			A[i] = 0;
}

__attribute__((pencil_access(set_odd_summary)))
void set_odd(int n, int A[static n]);

void set_odd(int n, int A[static n])
{
	for (int i = 0; 2 * i + 1 < n; ++i)
		A[2 * i + 1] = i;
}

void foo(int n, int A[static n][n])
{
#pragma scop
	for (int i = 0; i < n; ++i)
		set_odd(n, A[i]);
#pragma endscop
}

int main(void)
{
	static int A[20][20];
	for (int i = 0; i < 20; i++)
		for (int j = 0; j < 20; j++)
			A[i][j] = i - j;
	foo(20, A);
	for (int i = 0; i < 20; i++)
		for (int j = 0; j < 20; j++)
			printf("%d\n", A[i][j]);
	printf("%d\n", calls);
	return 0;
}
