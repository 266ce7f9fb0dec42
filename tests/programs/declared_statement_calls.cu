/* The CUDA device definition of declared_statement_calls.c's `bump`. */
__device__ void bump(int *x, int by)
{
  *x = *x * 2 + by;
}
