/* PENCIL as a DSL compiler writes it (issue 15): generated names with
 * leading underscores and numeric suffixes, `const int` sizes, 2-d
 * variable-length array parameters spelled `[static const restrict n]`,
 * `<=`-bounded loops with `+= 1`, a per-iteration local array of run-time
 * size (private to each iteration of the outer loop, which is therefore
 * parallel), and a per-iteration scalar accumulator. */
#include <stdio.h>
#include <pencil.h>

static void __dsl_f0_s0(const int _n0, const int _n1, const float _in_0[static const restrict _n0][_n1],
                        float _out_1[static const restrict _n0][_n1], float _tmp_2[static const restrict _n0])
{
  for (int _i0_s0 = 0; _i0_s0 <= _n0 - 1; _i0_s0 += 1) {
    float _acc_s0[_n1];
    for (int _i1_s0 = 0; _i1_s0 <= _n1 - 1; _i1_s0 += 1)
      _acc_s0[_i1_s0] = _in_0[_i0_s0][_i1_s0] * 2.0f - (float)_i1_s0;
    float _sum_3 = 0.0f;
    for (int _i1_s1 = 0; _i1_s1 <= _n1 - 1; _i1_s1 += 1)
      _sum_3 += _acc_s0[_i1_s1];
    _tmp_2[_i0_s0] = _sum_3;
    for (int _i1_s2 = 0; _i1_s2 <= _n1 - 1; _i1_s2 += 1)
      _out_1[_i0_s0][_i1_s2] = _acc_s0[_n1 - 1 - _i1_s2] + _sum_3 * 0.25f;
  }
}

#define N0 37
#define N1 45

int main(void) {
  static float in[N0][N1], out[N0][N1], tmp[N0];
  for (int i = 0; i < N0; i++)
    for (int j = 0; j < N1; j++)
      in[i][j] = (float)((i * 7 + j * 3) % 11) * 0.5f;
  __dsl_f0_s0(N0, N1, in, out, tmp);
  for (int i = 0; i < N0; i++) {
    printf("%.9g", tmp[i]);
    for (int j = 0; j < N1; j += 4)
      printf(" %.9g", out[i][j]);
    printf("\n");
  }
  return 0;
}
