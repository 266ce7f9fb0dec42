/* `switch` in a region: labels that share a group, a block that ends in
 * `break`, `default` before a label, a `continue` of the loop inside a
 * case, a `break` of an inner loop inside a case; cases that leave by
 * `break` from inside an `if` or by `continue`. */
#include <stdio.h>
int idx[100];
double a[100], b[100], c[100];
int main(void)
{
  for (int i = 0; i < 100; i++) { idx[i] = (i * 7) % 5 - 1; a[i] = i % 9; b[i] = i % 4; c[i] = 0; }
#pragma scop
  for (int i = 0; i < 100; i++) {
    switch (idx[i]) {
      case -1:
        c[i] = a[i] + b[i];
        break;
      case 0:
      case 1: {
        double t = a[i] * 2;
        for (int k = 0; k < 3; k++) {
          if (t > 10) break;
          t += b[i];
        }
        c[i] = t;
        break;
      }
      default:
        if (a[i] > 3) { c[i] = -1; continue; }
        c[i] = 7;
    }
    b[i] = b[i] + 1;
  }
  for (int i = 0; i < 100; i++)
    switch (i % 3) {
      case 2: a[i] = 0; break;
      default: break;
      case 1: a[i] += c[i];
    }
  for (int i = 0; i < 100; i++) {
    switch (idx[i]) {
      case 0:
        if (a[i] > 4) { b[i] = 1; break; } else { b[i] = 2; break; }
      case 1:
        if (a[i] > 6)
          break;
        b[i] = b[i] * 3;
        c[i] = c[i] + 1;
        break;
      case 2:
        a[i] = a[i] + 0.5;
        continue;
      default:
        a[i] = -a[i];
    }
    a[i] = a[i] + 100;
  }
#pragma endscop
  for (int i = 0; i < 100; i++) printf("%g %g %g\n", a[i], b[i], c[i]);
  return 0;
}
