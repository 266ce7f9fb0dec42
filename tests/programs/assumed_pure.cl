/* Device definitions of assumed_pure.c's functions without a body. */
int f(int x)
{
  return x * 3 % 7;
}

double g(double x, int k)
{
  return x * 0.25 + k;
}

double avg3(__global const double *p)
{
  return (p[0] + p[1] + p[2]) / 3;
}

int rowsum(__global const int *row)
{
  return row[0] + 2 * row[1] + 3 * row[2] + 4 * row[3];
}
