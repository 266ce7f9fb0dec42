/* Device definition of address_args.c's `bump`. */
void bump(__global int *p, int v) { *p = *p * 2 + v; }
