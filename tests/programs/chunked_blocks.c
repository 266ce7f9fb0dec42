/* Rodinia hotspot's chunked loop: blocks of 16 x 16 found by `/` and `%`
 * by variables, a `continue`. The flat subscripts `r * col + c` cannot be
 * shown to stay in their rows here (the bounds are not affine), so the
 * arrays stay flat and the region keeps its code, with a warning that
 * says so; before, pencilc proposed the run-time check `num_chunk <= 0`
 * (`__pencil_assume(num_chunk <= 0)` "would prove it"), under which the
 * generated code, one GPU thread, ran only where the loop does nothing. */
#include <stdio.h>
static void blocks(float *result, const float *temp, int row, int col)
{
  int r, c, chunk;
  int num_chunk = row * col / (16 * 16);
  int chunks_in_row = col / 16;
  int chunks_in_col = row / 16;
#pragma scop
  for (chunk = 0; chunk < num_chunk; ++chunk) {
    int r_start = 16 * (chunk / chunks_in_col);
    int c_start = 16 * (chunk % chunks_in_row);
    if (r_start == 0 || c_start == 0) {
      for (r = r_start; r < r_start + 16; ++r)
        for (c = c_start; c < c_start + 16; ++c)
          result[r * col + c] = temp[r * col + c] + 1.0f;
      continue;
    }
    for (r = r_start; r < r_start + 16; ++r)
      for (c = c_start; c < c_start + 16; ++c)
        result[r * col + c] = 2.0f * temp[r * col + c];
  }
#pragma endscop
}
int main(void)
{
  static float t[64 * 64], res[64 * 64];
  for (int i = 0; i < 64 * 64; i++)
    t[i] = i % 17;
  blocks(res, t, 64, 64);
  double s = 0;
  for (int i = 0; i < 64 * 64; i++)
    s += res[i] * (i % 13 + 1);
  printf("%.10g\n", s);
  return 0;
}
