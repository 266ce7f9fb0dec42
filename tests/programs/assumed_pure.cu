/* CUDA device definitions of assumed_pure.c's functions without a body. */
__device__ int f(int x)
{
  return x * 3 % 7;
}

__device__ double g(double x, int k)
{
  return x * 0.25 + k;
}

__device__ double avg3(const double *p)
{
  return (p[0] + p[1] + p[2]) / 3;
}

__device__ int rowsum(const int *row)
{
  return row[0] + 2 * row[1] + 3 * row[2] + 4 * row[3];
}
