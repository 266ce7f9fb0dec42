/* Set-up statements at a region's start (deriche's filter coefficients,
 * adi's constants) run on the host before the device code, not in a
 * kernel of one thread: what they write reaches the kernels as values.
 * Those the loops write too (durbin's `beta`), or whose array the region
 * would not copy in otherwise, stay in the region; so does one that reads
 * what it writes (`s = s + 1`: a device version that cannot hold its
 * buffers runs the original code after the set-up, and that one must not
 * run twice). The variables the set-up writes keep their values after the
 * region. Every version must print what the sequential program prints. */
#include <math.h>
#include <stdio.h>

#define N 200

static float img[N][N], out[N][N];
static double x[N], y[N], z[N];

void filter(int w, int h, float alpha, float *kept)
{
  float k, a1, a2, b1;
  int off;
#pragma scop
  k = (1.0f - expf(-alpha)) * (1.0f - expf(-alpha)) / (1.0f + 2.0f * alpha * expf(-alpha) - expf(2.0f * alpha));
  a1 = k;
  a2 = k * expf(-alpha) * (alpha - 1.0f);
  b1 = powf(2.0f, -alpha);
  off = w / 3;
  for (int i = 0; i < h; i++)
    for (int j = 0; j < w; j++)
      out[i][j] = a1 * img[i][j] + a2 * img[i][(j + off) % w] + b1;
#pragma endscop
  *kept = k + a1 + a2 + b1 + off;
}

void chain(int n, double s[1])
{
  double t, b;
#pragma scop
  t = 0.25;
  x[0] = 1.5;
  s[0] = s[0] + 1.0;
  b = 1.0;
  for (int i = 1; i < n; i++) {
    b = b * 0.5 + y[i];
    x[i] = x[i - 1] * t + b;
  }
  for (int i = 0; i < n; i++)
    z[i] = x[i] * s[0];
#pragma endscop
}

int main(void)
{
  float kept = 0;
  double s[1] = {2.0}, sum = 0;
  for (int i = 0; i < N; i++) {
    y[i] = (i % 13) * 0.125;
    for (int j = 0; j < N; j++)
      img[i][j] = ((i * 7 + j * 3) % 17) * 0.0625f;
  }
  filter(N, N - 20, 0.75f, &kept);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      sum += out[i][j] * ((i + j) % 5 + 1);
  printf("%.6e %.6e\n", sum, (double)kept);
  chain(N, s);
  chain(N / 2, s);
  sum = 0;
  for (int i = 0; i < N; i++)
    sum += x[i] * (i % 3 + 1) + z[i];
  printf("%.9e %.9e\n", sum, s[0]);
  return 0;
}
