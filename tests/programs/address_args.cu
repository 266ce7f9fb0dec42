/* CUDA device definition of address_args.c's `bump`. */
__device__ void bump(int *p, int v) { *p = *p * 2 + v; }
