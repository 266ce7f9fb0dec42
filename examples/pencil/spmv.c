/* Sparse matrix-vector product in CSR: the inner loop's bounds come from
 * row_ptr, so it is one statement per row; rows stay parallel. */
#include <pencil.h>
#include <stdio.h>

static void spmv(int n, int nnz, const int row_ptr[pencil_array n + 1],
                 const int col[pencil_array nnz], const float val[pencil_array nnz],
                 const float x[pencil_array n], float y[pencil_array n])
{
  for (int i = 0; i < n; i++) {
    float sum = 0.0f;
    for (int k = row_ptr[i]; k < row_ptr[i + 1]; k++)
      sum += val[k] * x[col[k]];
    y[i] = sum;
  }
}

int main(void)
{
  enum { N = 5000, PER = 7 };
  static int row_ptr[N + 1], col[N * PER];
  static float val[N * PER], x[N], y[N];
  int nnz = 0;
  for (int i = 0; i < N; i++) {
    row_ptr[i] = nnz;
    for (int k = 0; k < 1 + i % PER; k++) {
      col[nnz] = (i * 31 + k * 97) % N;
      val[nnz] = (float)((i + k) % 5) - 2.0f;
      nnz++;
    }
    x[i] = (float)(i % 11) / 11.0f;
  }
  row_ptr[N] = nnz;
  spmv(N, nnz, row_ptr, col, val, x, y);
  double check = 0;
  for (int i = 0; i < N; i++)
    check += y[i] * (i % 13);
  printf("check=%.3f\n", check);
  return 0;
}
