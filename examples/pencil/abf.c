/* The ABF radar code's call pattern (PENCIL paper, Fig. 4): fft32 reads
 * and writes only in[i][j][0..31]; its summary says so, which makes the
 * (i, j) nest parallel.  The device implementation of fft32 comes from
 * abf_fft32.cl (--opencl-include-file); plain C uses the one below.
 * nvcc compiles pencilc's CUDA host file as C++, which has no C99 array
 * parameters; pencilc makes those of ABF and the fft32 prototype
 * pointers there, but the summary and the host fft32 index their arrays,
 * so the CUDA build (whose fft32 is device code, abf_fft32.cu) skips them. */
#include <pencil.h>
#include <stdio.h>

#ifndef __CUDACC__
PENCIL_SUMMARY_FUNC
void summary_fft32(int i, int j, int n, float in[pencil_array n][n][32])
{
  for (int k = 0; k < 32; k++)
    __pencil_use(in[i][j][k]);
  for (int k = 0; k < 32; k++)
    __pencil_def(in[i][j][k]);
}
#endif

#ifndef NO_SUMMARY
__attribute__((pencil_access(summary_fft32)))
#endif
void fft32(int i, int j, int n, float in[pencil_array n][n][32]);

void ABF(int n, float in[pencil_array n][n][32])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      fft32(i, j, n, in);
}

#if !defined(__PENCIL__) && !defined(__CUDACC__)
/* Not a real FFT: a stand-in with the same access pattern. */
void fft32(int i, int j, int n, float in[pencil_array n][n][32])
{
  float acc = 0.0f;
  for (int k = 0; k < 32; k++) {
    acc = acc * 0.5f + in[i][j][k];
    in[i][j][k] = acc;
  }
}
#endif

int main(void)
{
  enum { N = 64 };
  static float in[N][N][32];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < 32; k++)
        in[i][j][k] = (float)((i + j * 3 + k * 5) % 9);
  ABF(N, in);
  double check = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < 32; k++)
        check += in[i][j][k] * ((i + j + k) % 5);
  printf("check=%.2f\n", check);
  return 0;
}
