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
