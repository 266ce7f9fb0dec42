/* Whole structs copied (issue 33: `s[i] = t[i]` was E0111, "a whole
 * struct is used"): each copy is a loop over the struct's places, which
 * the model holds exactly: rows of structs reversed, a transpose of
 * structs in place followed by an update of a member, a struct parameter
 * copied into every element, and back, and a chain `r[i] = p[i][0] =
 * q[N - 1 - i]`. Every target and version prints
 * the sequential results. */
#include <stdio.h>
struct cell { int a[3][4]; int b; };
struct pt { double x, y; };
#define N 10
static void run(struct cell s[N], struct cell t[N], struct pt p[N][N], struct pt *q, struct pt origin, struct pt r[N]) {
#pragma scop
  for (int i = 0; i < N; ++i)
    t[i] = s[N - 1 - i];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      p[i][j] = p[j][i];
      p[i][j].x += 1;
    }
  for (int i = 0; i < N; ++i)
    q[i] = origin;
  origin = q[3];
  q[9].y = origin.x + 2;
  for (int i = 0; i < N; ++i)
    r[i] = p[i][0] = q[N - 1 - i];
#pragma endscop
}
int main(void) {
  static struct cell s[N], t[N]; static struct pt p[N][N], q[N], r[N];
  struct pt o = {1.5, -2};
  for (int i = 0; i < N; ++i) { s[i].b = i; for (int k = 0; k < 3; ++k) for (int l = 0; l < 4; ++l) s[i].a[k][l] = i * 100 + k * 10 + l; for (int j = 0; j < N; ++j) { p[i][j].x = i; p[i][j].y = j; } }
  run(s, t, p, q, o, r);
  long sum = 0;
  for (int i = 0; i < N; ++i) { sum += t[i].b * (i + 1) + t[i].a[2][3] * 7 + t[i].a[0][1]; for (int j = 0; j < N; ++j) sum += (long)(p[i][j].x * 3 + p[i][j].y * (i + 2)); sum += (long)(r[i].x * 5 + r[i].y * 11); }
  printf("%ld %g %g %g\n", sum, q[2].x, q[9].y, q[0].y);
  return 0;
}
