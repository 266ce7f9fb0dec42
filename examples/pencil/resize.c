/* Bilinear image resize (after the PENCIL specification's example): the
 * source coordinates come from floor(), so the reads are non-affine
 * may-reads; the kills say the output's old contents and the input after
 * the call are dead. */
#include <pencil.h>
#include <stdio.h>

static void resize(int rows, int cols, int orows, int ocols,
                   const float original[pencil_array rows][cols],
                   float resampled[pencil_array orows][ocols])
{
  __pencil_assume(rows > 1 && cols > 1 && orows > 0 && ocols > 0);
  __pencil_kill(resampled);
  for (int i = 0; i < orows; i++)
    for (int j = 0; j < ocols; j++) {
      float y = (i + 0.5f) * rows / orows - 0.5f;
      float x = (j + 0.5f) * cols / ocols - 0.5f;
      int r0 = clamp((int)floorf(y), 0, rows - 2);
      int c0 = clamp((int)floorf(x), 0, cols - 2);
      float fy = fclampf(y - r0, 0.0f, 1.0f);
      float fx = fclampf(x - c0, 0.0f, 1.0f);
      float top = mixf(original[r0][c0], original[r0][c0 + 1], fx);
      float bottom = mixf(original[r0 + 1][c0], original[r0 + 1][c0 + 1], fx);
      resampled[i][j] = mixf(top, bottom, fy);
    }
}

int main(void)
{
  enum { R = 200, C = 300, OR = 333, OC = 222 };
  static float in[R][C], out[OR][OC];
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      in[i][j] = (float)((i * 11 + j * 5) % 23);
  resize(R, C, OR, OC, in, out);
  double check = 0;
  for (int i = 0; i < OR; i++)
    for (int j = 0; j < OC; j++)
      check += out[i][j] * ((i + 2 * j) % 9);
  printf("check=%.1f\n", check);
  return 0;
}
