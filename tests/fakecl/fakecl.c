/*
 * fakecl: a tiny OpenCL runtime for tests, built as libOpenCL.so.1 and put
 * in front of the real one with LD_LIBRARY_PATH.
 *
 * It exists because PoCL 3.1 miscompiles some correct kernels with
 * barriers (see docs/architecture-details.md), so a wrong result on PoCL does not tell
 * whether pencilc or PoCL is at fault. Here the kernel source is compiled
 * as plain C by the system compiler, every work-item of a work-group is a
 * POSIX thread, and barrier() is a real pthread barrier: what the OpenCL
 * specification promises, with nothing clever in between. It is slow, and
 * only the API subset that pencilc's host code uses is implemented.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* `host`: the user's memory of a CL_MEM_USE_HOST_PTR buffer, which this
 * device, as a discrete GPU would, copies at creation and at a map for
 * reading, not before: kernels write `data`. */
struct _cl_mem { void *data; size_t size; void *host; };
struct _cl_program { char *source; void *lib; };
struct _cl_kernel {
    cl_program program;
    void (*tramp)(void **);
    int nargs;
    void *args[64];      /* what each parameter receives */
    char is_buffer[64];
    /* __attribute__((reqd_work_group_size(x, y, z))) on the line before
     * the kernel, if any: a launch of another work-group is refused, as
     * OpenCL requires (and PoCL does). */
    int has_reqd;
    size_t reqd[3];
    char name[256];
};

static int fake_platform, fake_device, fake_context, fake_queue, fake_event;

cl_int clGetPlatformIDs(cl_uint n, cl_platform_id *p, cl_uint *count)
{
    if (p && n > 0) p[0] = (cl_platform_id)&fake_platform;
    if (count) *count = 1;
    return CL_SUCCESS;
}

cl_int clGetDeviceIDs(cl_platform_id p, cl_device_type t, cl_uint n, cl_device_id *d, cl_uint *count)
{
    (void)p; (void)t;
    if (d && n > 0) d[0] = (cl_device_id)&fake_device;
    if (count) *count = 1;
    return CL_SUCCESS;
}

cl_context clCreateContext(const cl_context_properties *props, cl_uint n, const cl_device_id *d,
                           void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
                           void *user, cl_int *err)
{
    (void)props; (void)n; (void)d; (void)notify; (void)user;
    if (err) *err = CL_SUCCESS;
    return (cl_context)&fake_context;
}

cl_command_queue clCreateCommandQueue(cl_context c, cl_device_id d, cl_command_queue_properties p, cl_int *err)
{
    (void)c; (void)d; (void)p;
    if (err) *err = CL_SUCCESS;
    return (cl_command_queue)&fake_queue;
}

cl_mem clCreateBuffer(cl_context c, cl_mem_flags f, size_t size, void *host, cl_int *err)
{
    struct _cl_mem *m = malloc(sizeof *m);
    (void)c; (void)f;
    m->size = size;
    m->data = calloc(1, size ? size : 1);
    m->host = (f & CL_MEM_USE_HOST_PTR) ? host : NULL;
    if (host) memcpy(m->data, host, size);
    if (err) *err = CL_SUCCESS;
    return m;
}

cl_int clReleaseMemObject(cl_mem m)
{
    free(m->data);
    free(m);
    return CL_SUCCESS;
}

cl_int clEnqueueWriteBuffer(cl_command_queue q, cl_mem m, cl_bool b, size_t off, size_t size, const void *p,
                            cl_uint n, const cl_event *w, cl_event *e)
{
    (void)q; (void)b; (void)n; (void)w;
    if (off + size > m->size) return CL_INVALID_VALUE;
    memcpy((char *)m->data + off, p, size);
    if (e) *e = (cl_event)&fake_event;
    return CL_SUCCESS;
}

cl_int clEnqueueReadBuffer(cl_command_queue q, cl_mem m, cl_bool b, size_t off, size_t size, void *p,
                           cl_uint n, const cl_event *w, cl_event *e)
{
    (void)q; (void)b; (void)n; (void)w;
    if (off + size > m->size) return CL_INVALID_VALUE;
    memcpy(p, (char *)m->data + off, size);
    if (e) *e = (cl_event)&fake_event;
    return CL_SUCCESS;
}

/* The largest work-group: FAKECL_MAX_WORK_GROUP, default 1024 (a GPU's).
 * A smaller one stands for a device that refuses some of pencilc's
 * work-groups; the program must then not launch them. */
static size_t max_work_group(void)
{
    const char *v = getenv("FAKECL_MAX_WORK_GROUP");
    long n = v && *v ? atol(v) : 1024;
    return n > 0 ? (size_t)n : 1;
}

/* A discrete device (its memory is not the host's) with
 * max_work_group() work-items per group. */
cl_int clGetDeviceInfo(cl_device_id d, cl_device_info what, size_t size, void *v, size_t *ret)
{
    (void)d;
    if (what == CL_DEVICE_MAX_WORK_GROUP_SIZE) {
        if (ret) *ret = sizeof(size_t);
        if (v) {
            if (size < sizeof(size_t)) return CL_INVALID_VALUE;
            *(size_t *)v = max_work_group();
        }
        return CL_SUCCESS;
    }
    if (what != CL_DEVICE_HOST_UNIFIED_MEMORY) return CL_INVALID_VALUE;
    if (ret) *ret = sizeof(cl_bool);
    if (v) {
        if (size < sizeof(cl_bool)) return CL_INVALID_VALUE;
        *(cl_bool *)v = CL_FALSE;
    }
    return CL_SUCCESS;
}

void *clEnqueueMapBuffer(cl_command_queue q, cl_mem m, cl_bool b, cl_map_flags f, size_t off, size_t size,
                         cl_uint n, const cl_event *w, cl_event *e, cl_int *err)
{
    (void)q; (void)b; (void)n; (void)w; (void)e;
    if (off + size > m->size) {
        if (err) *err = CL_INVALID_VALUE;
        return NULL;
    }
    if (err) *err = CL_SUCCESS;
    if (!m->host) return (char *)m->data + off;
    if (f & CL_MAP_READ) memcpy((char *)m->host + off, (char *)m->data + off, size);
    return (char *)m->host + off;
}

/* Mapped for reading only (all pencilc maps): nothing goes back. */
cl_int clEnqueueUnmapMemObject(cl_command_queue q, cl_mem m, void *p, cl_uint n, const cl_event *w, cl_event *e)
{
    (void)q; (void)m; (void)p; (void)n; (void)w; (void)e;
    return CL_SUCCESS;
}

/* Commands are done when enqueued: every event has happened. */
cl_int clWaitForEvents(cl_uint n, const cl_event *e) { (void)n; (void)e; return CL_SUCCESS; }
cl_int clReleaseEvent(cl_event e) { (void)e; return CL_SUCCESS; }

cl_int clFinish(cl_command_queue q) { (void)q; return CL_SUCCESS; }
cl_int clFlush(cl_command_queue q) { (void)q; return CL_SUCCESS; }
cl_int clReleaseKernel(cl_kernel k) { free(k); return CL_SUCCESS; }
cl_int clReleaseProgram(cl_program p) { (void)p; return CL_SUCCESS; }
cl_int clReleaseCommandQueue(cl_command_queue q) { (void)q; return CL_SUCCESS; }
cl_int clReleaseContext(cl_context c) { (void)c; return CL_SUCCESS; }

cl_program clCreateProgramWithSource(cl_context c, cl_uint n, const char **s, const size_t *len, cl_int *err)
{
    struct _cl_program *p = calloc(1, sizeof *p);
    size_t total = 0, i;
    (void)c;
    for (i = 0; i < n; i++) total += len && len[i] ? len[i] : strlen(s[i]);
    p->source = malloc(total + 1);
    p->source[0] = '\0';
    for (i = 0; i < n; i++) strncat(p->source, s[i], len && len[i] ? len[i] : strlen(s[i]));
    if (err) *err = CL_SUCCESS;
    return p;
}

/* OpenCL C as C: each work-item is a thread; its ids are thread-locals. */
static const char *prelude =
    "#include <tgmath.h> /* exp(float) is a float, as in OpenCL C */\n"
    "#include <pthread.h>\n"
    "#define __kernel\n#define __global\n#define __constant const\n"
    "#define __private\n#define __local static\n"
    "#define CLK_LOCAL_MEM_FENCE 1\n#define CLK_GLOBAL_MEM_FENCE 2\n"
    "#define cl_khr_fp64 1\n#define cl_khr_int64_base_atomics 1\n"
    "typedef unsigned int uint; typedef unsigned long ulong;\n"
    "extern __thread int fakecl_lid[3], fakecl_gid[3];\n"
    "extern int fakecl_lsize[3], fakecl_ngroups[3];\n"
    "extern pthread_barrier_t fakecl_barrier;\n"
    "#define get_local_id(d) fakecl_lid[d]\n#define get_group_id(d) fakecl_gid[d]\n"
    "#define get_local_size(d) fakecl_lsize[d]\n#define get_num_groups(d) fakecl_ngroups[d]\n"
    "#define get_global_id(d) (fakecl_gid[d] * fakecl_lsize[d] + fakecl_lid[d])\n"
    "#define get_global_size(d) (fakecl_ngroups[d] * fakecl_lsize[d])\n"
    "#define barrier(f) pthread_barrier_wait(&fakecl_barrier)\n"
    "#define atomic_add(p, v) __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST)\n"
    "#define atomic_and(p, v) __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST)\n"
    "#define atomic_or(p, v) __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST)\n"
    "#define atomic_xor(p, v) __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST)\n"
    "#define atomic_min(p, v) ({ __typeof__(*(p)) o_ = *(p); while ((v) < o_ && !__atomic_compare_exchange_n(p, &o_, (v), 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)); o_; })\n"
    "#define atomic_max(p, v) ({ __typeof__(*(p)) o_ = *(p); while ((v) > o_ && !__atomic_compare_exchange_n(p, &o_, (v), 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)); o_; })\n"
    "#define atomic_cmpxchg(p, c, v) ({ __typeof__(*(p)) e_ = (c); __atomic_compare_exchange_n(p, &e_, (v), 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); e_; })\n"
    "#define atom_cmpxchg atomic_cmpxchg\n";

__thread int fakecl_lid[3], fakecl_gid[3];
int fakecl_lsize[3], fakecl_ngroups[3];
pthread_barrier_t fakecl_barrier;

/* The parameters of `__kernel void NAME(...)` in `src`, split at commas. */
static int params(const char *src, const char *name, char out[64][256])
{
    char pat[300];
    const char *at, *open, *p;
    int n = 0, len = 0;
    snprintf(pat, sizeof pat, "void %s(", name);
    at = strstr(src, pat);
    if (!at) return -1;
    open = at + strlen(pat);
    for (p = open; *p && *p != ')'; p++) {
        if (*p == ',') { out[n][len] = '\0'; n++; len = 0; continue; }
        if (len < 255) out[n][len++] = *p;
    }
    out[n][len] = '\0';
    if (len > 0) n++;
    return n;
}

/* Writes a trampoline `NAME__fakecl(void **a)` per kernel of the source. */
static void trampolines(FILE *f, const char *src)
{
    const char *p = src;
    while ((p = strstr(p, "__kernel void ")) != NULL) {
        char name[256], ps[64][256];
        int i, n, len = 0;
        p += strlen("__kernel void ");
        while (p[len] && p[len] != '(' && len < 255) { name[len] = p[len]; len++; }
        name[len] = '\0';
        n = params(src, name, ps);
        fprintf(f, "void %s__fakecl(void **a) { %s(", name, name);
        for (i = 0; i < n; i++) {
            /* Everything before the parameter's name is its type. */
            char type[256];
            int end = (int)strlen(ps[i]);
            while (end > 0 && (ps[i][end - 1] == ' ')) end--;
            while (end > 0 && (ps[i][end - 1] == '_' || (ps[i][end - 1] >= 'a' && ps[i][end - 1] <= 'z') ||
                               (ps[i][end - 1] >= 'A' && ps[i][end - 1] <= 'Z') ||
                               (ps[i][end - 1] >= '0' && ps[i][end - 1] <= '9')))
                end--;
            memcpy(type, ps[i], end);
            type[end] = '\0';
            if (strchr(type, '*'))
                fprintf(f, "%s(%s) a[%d]", i ? ", " : "", type, i);
            else
                fprintf(f, "%s*(%s *) a[%d]", i ? ", " : "", type, i);
        }
        fprintf(f, "); }\n");
    }
}

cl_int clBuildProgram(cl_program p, cl_uint n, const cl_device_id *d, const char *opts,
                      void (CL_CALLBACK *notify)(cl_program, void *), void *user)
{
    char dir[] = "/tmp/fakecl-XXXXXX", c_path[300], so_path[300], cmd[1000];
    FILE *f;
    (void)n; (void)d; (void)opts; (void)notify; (void)user;
    if (!mkdtemp(dir)) return CL_BUILD_PROGRAM_FAILURE;
    snprintf(c_path, sizeof c_path, "%s/k.c", dir);
    snprintf(so_path, sizeof so_path, "%s/k.so", dir);
    f = fopen(c_path, "w");
    if (!f) return CL_BUILD_PROGRAM_FAILURE;
    fputs(prelude, f);
    fputs(p->source, f);
    fputs("\n", f);
    trampolines(f, p->source);
    fclose(f);
    snprintf(cmd, sizeof cmd, "cc -std=gnu99 -O1 -w -fPIC -shared -pthread -o %s %s -lm", so_path, c_path);
    if (system(cmd) != 0) {
        fprintf(stderr, "fakecl: compiling the kernels failed (%s)\n", c_path);
        return CL_BUILD_PROGRAM_FAILURE;
    }
    p->lib = dlopen(so_path, RTLD_NOW | RTLD_GLOBAL);
    if (!p->lib) {
        fprintf(stderr, "fakecl: %s\n", dlerror());
        return CL_BUILD_PROGRAM_FAILURE;
    }
    /* The library stays mapped once loaded: its files can go (a failed
       build keeps them, for the message above to point at). */
    unlink(so_path);
    unlink(c_path);
    rmdir(dir);
    return CL_SUCCESS;
}

cl_int clGetProgramBuildInfo(cl_program p, cl_device_id d, cl_program_build_info what, size_t size, void *v,
                             size_t *ret)
{
    (void)p; (void)d; (void)what;
    if (ret) *ret = 1;
    if (v && size > 0) ((char *)v)[0] = '\0';
    return CL_SUCCESS;
}

/* The start of the line before the one at `at` in `src`; NULL at the
 * first line. */
static const char *line_before(const char *src, const char *at)
{
    const char *line;
    if (at == src || at[-1] != '\n') return NULL;
    line = at - 1;
    while (line > src && line[-1] != '\n') line--;
    return line;
}

/* The work-group size kernel `name` requires, from the line before its
 * `__kernel void name(` in `src`; 0 where it requires none. pencilc
 * puts the attribute of a kernel that plays a loop's launches between
 * `#if !defined(PENCILC_MAX_GROUP) || PENCILC_MAX_GROUP >= N` and
 * `#endif`: it holds where this device allows N work-items, as the
 * program's build defines PENCILC_MAX_GROUP. */
static int required_size(const char *src, const char *name, size_t out[3])
{
    char pat[300];
    const char *at, *line, *cond;
    unsigned long x, y, z, n;
    snprintf(pat, sizeof pat, "__kernel void %s(", name);
    at = strstr(src, pat);
    if (!at || !(line = line_before(src, at))) return 0;
    if (strncmp(line, "#endif\n", 7) == 0) {
        if (!(line = line_before(src, line)) || !(cond = line_before(src, line))) return 0;
        if (sscanf(cond, "#if !defined(PENCILC_MAX_GROUP) || PENCILC_MAX_GROUP >= %lu", &n) != 1)
            return 0;
        if (max_work_group() < n) return 0;
    }
    if (sscanf(line, "__attribute__((reqd_work_group_size(%lu, %lu, %lu)))", &x, &y, &z) != 3)
        return 0;
    out[0] = x; out[1] = y; out[2] = z;
    return 1;
}

/* A kernel's largest work-group: the device's. */
cl_int clGetKernelWorkGroupInfo(cl_kernel k, cl_device_id d, cl_kernel_work_group_info what, size_t size,
                                void *v, size_t *ret)
{
    (void)k; (void)d;
    if (what != CL_KERNEL_WORK_GROUP_SIZE) return CL_INVALID_VALUE;
    if (ret) *ret = sizeof(size_t);
    if (v) {
        if (size < sizeof(size_t)) return CL_INVALID_VALUE;
        *(size_t *)v = max_work_group();
    }
    return CL_SUCCESS;
}

cl_kernel clCreateKernel(cl_program p, const char *name, cl_int *err)
{
    char sym[300], ps[64][256];
    struct _cl_kernel *k = calloc(1, sizeof *k);
    int i;
    snprintf(sym, sizeof sym, "%s__fakecl", name);
    k->program = p;
    k->tramp = (void (*)(void **))dlsym(p->lib, sym);
    k->nargs = params(p->source, name, ps);
    for (i = 0; i < k->nargs; i++) k->is_buffer[i] = strchr(ps[i], '*') != NULL;
    k->has_reqd = required_size(p->source, name, k->reqd);
    snprintf(k->name, sizeof k->name, "%s", name);
    if (!k->tramp || k->nargs < 0) {
        if (err) *err = CL_INVALID_KERNEL_NAME;
        free(k);
        return NULL;
    }
    if (err) *err = CL_SUCCESS;
    return k;
}

cl_int clSetKernelArg(cl_kernel k, cl_uint i, size_t size, const void *value)
{
    if ((int)i >= k->nargs) return CL_INVALID_ARG_INDEX;
    /* pencilc's kernels declare their local memory inside: no __local
     * parameters, so every argument has a value. */
    if (!value) return CL_INVALID_ARG_VALUE;
    free(k->args[i]);
    k->args[i] = malloc(size);
    memcpy(k->args[i], value, size);
    return CL_SUCCESS;
}

struct item { cl_kernel k; void **args; int lid[3]; size_t groups[3]; };

/* One work-item, through every work-group in turn; all items of the launch
 * meet at a barrier between groups, so static __local arrays are never
 * shared by two groups at once. */
static void *work_item(void *x)
{
    struct item *it = x;
    size_t g0, g1, g2;
    memcpy(fakecl_lid, it->lid, sizeof fakecl_lid);
    for (g2 = 0; g2 < it->groups[2]; g2++)
        for (g1 = 0; g1 < it->groups[1]; g1++)
            for (g0 = 0; g0 < it->groups[0]; g0++) {
                fakecl_gid[0] = (int)g0; fakecl_gid[1] = (int)g1; fakecl_gid[2] = (int)g2;
                it->k->tramp(it->args);
                pthread_barrier_wait(&fakecl_barrier);
            }
    return NULL;
}

/* With FAKECL_LAUNCHES=FILE, each launch appends a line to FILE: the
 * kernel, its work-items per group and its groups. */
static void log_launch(const char *name, size_t items, size_t groups)
{
    const char *path = getenv("FAKECL_LAUNCHES");
    FILE *f;
    if (!path || !*path || !(f = fopen(path, "a"))) return;
    fprintf(f, "%s %zu %zu\n", name, items, groups);
    fclose(f);
}

cl_int clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *offset,
                              const size_t *global, const size_t *local, cl_uint n, const cl_event *w,
                              cl_event *e)
{
    size_t lsize[3] = {1, 1, 1}, groups[3] = {1, 1, 1}, total, t;
    void *args[64];
    struct item *items;
    pthread_t *threads;
    cl_uint d;
    int i;
    (void)q; (void)offset; (void)n; (void)w; (void)e;
    for (d = 0; d < dim; d++) {
        lsize[d] = local ? local[d] : 1;
        if (global[d] % lsize[d]) return CL_INVALID_WORK_GROUP_SIZE;
        groups[d] = global[d] / lsize[d];
    }
    if (k->has_reqd && (!local || lsize[0] != k->reqd[0] || lsize[1] != k->reqd[1] || lsize[2] != k->reqd[2]))
        return CL_INVALID_WORK_GROUP_SIZE;
    total = lsize[0] * lsize[1] * lsize[2];
    if (total > max_work_group()) return CL_INVALID_WORK_GROUP_SIZE;
    log_launch(k->name, total, groups[0] * groups[1] * groups[2]);
    for (d = 0; d < 3; d++) { fakecl_lsize[d] = (int)lsize[d]; fakecl_ngroups[d] = (int)groups[d]; }
    for (i = 0; i < k->nargs; i++)
        args[i] = k->is_buffer[i] ? (*(cl_mem *)k->args[i])->data : k->args[i];
    items = calloc(total, sizeof *items);
    threads = calloc(total, sizeof *threads);
    pthread_barrier_init(&fakecl_barrier, NULL, (unsigned)total);
    for (t = 0; t < total; t++) {
        items[t].k = k;
        items[t].args = args;
        items[t].lid[0] = (int)(t % lsize[0]);
        items[t].lid[1] = (int)(t / lsize[0] % lsize[1]);
        items[t].lid[2] = (int)(t / (lsize[0] * lsize[1]));
        memcpy(items[t].groups, groups, sizeof groups);
        if (pthread_create(&threads[t], NULL, work_item, &items[t]) != 0) {
            fprintf(stderr, "fakecl: cannot start %zu threads\n", total);
            exit(1);
        }
    }
    for (t = 0; t < total; t++) pthread_join(threads[t], NULL);
    pthread_barrier_destroy(&fakecl_barrier);
    free(items);
    free(threads);
    return CL_SUCCESS;
}
