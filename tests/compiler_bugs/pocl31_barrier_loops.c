/* A wrong-code bug of PoCL 3.1 (Debian 12's libpocl2 3.1-3+deb12u1, LLVM
 * 15, CPU device), shrunk by hand from the OpenCL output of pencilc's
 * differential family 105, case 104: optimised, the kernel below loses the
 * stores of work-item h0 to A. Every barrier is reached by every
 * work-item of the group on every iteration (the loops' bounds depend on
 * m alone), s[0] is written before the barrier that precedes each read of
 * it, and every store is in bounds, so the program should print the same
 * count twice. It prints 170 with -cl-opt-disable and 0 without (0 with
 * POCL_WORK_GROUP_METHOD=loops and =cbs too). The kernel as LLVM optimises it for one
 * work-item (the cache's program.bc) still stores; the work-group
 * function PoCL builds from it (parallel.bc) does not. Storing a constant
 * instead of s[0], bounding c4 by `c4 <= c2 + 8 && c4 <= m` instead of
 * min(), dropping the barrier that ends the c2 loop or the c1 loop, or an
 * outer loop of one iteration gives
 * 170 both times. This is the shape of pencilc's tiled kernels (a tile
 * loop with a copy into local memory, a barrier, a loop nest under a
 * condition on the thread, a barrier); the family's kernel is right
 * unoptimised on PoCL and as emulated CUDA with the sanitizers silent.
 * Not part of pencilc: the evidence that the wrong output is PoCL's.
 *
 *   cc pocl31_barrier_loops.c -lOpenCL -o repro && ./repro   */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>

static const char *source =
    "__kernel void k(__global double *A, __global const double *B, int h0, int m)\n"
    "{\n"
    "    int t0 = get_local_id(0);\n"
    "    __local double s[1];\n"
    "    for (int c1 = 0; c1 < m; c1 += 64) {\n"
    "        for (int c2 = 0; c2 <= m; c2 += 8) {\n"
    "            if (t0 == 0)\n"
    "                s[0] = B[0];\n"
    "            barrier(CLK_LOCAL_MEM_FENCE);\n"
    "            if (t0 == h0)\n"
    "                for (int c4 = c2; c4 <= min(m, c2 + 8); c4 += 1)\n"
    "                    A[c4 * 8 + t0] = s[0];\n"
    "            barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        }\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "}\n";

/* How many elements of A the kernel writes, launched for h0 = 0..4 on one
 * group of 32 work-items with m = 33, built with `options`. */
static int written(cl_context context, cl_device_id device, cl_command_queue queue, const char *options)
{
    enum { N = 34 * 8 };
    double A[N], B[1] = { 1.0 };
    for (int i = 0; i < N; i++)
        A[i] = 0.0;
    cl_int err;
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    if (err || clBuildProgram(program, 1, &device, options, NULL, NULL))
        return -1;
    cl_kernel kernel = clCreateKernel(program, "k", &err);
    if (err)
        return -4;
    cl_mem a = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof A, A, &err);
    if (err)
        return -5;
    cl_mem b = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof B, B, &err);
    if (err)
        return -5;
    int m = 33;
    for (int h0 = 0; h0 <= 4; h0++) {
        size_t global = 32, local = 32;
        if (clSetKernelArg(kernel, 0, sizeof a, &a) || clSetKernelArg(kernel, 1, sizeof b, &b)
            || clSetKernelArg(kernel, 2, sizeof h0, &h0) || clSetKernelArg(kernel, 3, sizeof m, &m))
            return -6;
        if (clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL))
            return -2;
    }
    if (clEnqueueReadBuffer(queue, a, CL_TRUE, 0, sizeof A, A, 0, NULL, NULL))
        return -3;
    int n = 0;
    for (int i = 0; i < N; i++)
        n += A[i] == 1.0;
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    return n;
}

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    if (clGetPlatformIDs(1, &platform, NULL) || clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL)) {
        fprintf(stderr, "no OpenCL device\n");
        return 2;
    }
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
    int plain = written(context, device, queue, "-cl-opt-disable");
    int optimised = written(context, device, queue, "");
    printf("elements written: %d unoptimised, %d optimised (expected 170)\n", plain, optimised);
    return plain == optimised ? 0 : 1;
}
