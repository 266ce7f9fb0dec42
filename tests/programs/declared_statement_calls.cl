/* The device definition of declared_statement_calls.c's `bump`. */
void bump(__global int *x, int by)
{
  *x = *x * 2 + by;
}
