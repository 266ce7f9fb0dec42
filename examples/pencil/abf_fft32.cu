/* CUDA device implementation of fft32 for abf.c (the counterpart of
 * abf_fft32.cl): arrays reach kernels as flat buffers, row-major with the
 * declared extents (in[n][n][32]). */
__device__ void fft32(int i, int j, int n, float *in)
{
  float acc = 0.0f;
  for (int k = 0; k < 32; k++) {
    acc = acc * 0.5f + in[(i * n + j) * 32 + k];
    in[(i * n + j) * 32 + k] = acc;
  }
}
