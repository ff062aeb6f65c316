/*
 * C kernel bodies on device memory with CUDA names (cudasimLaunchKernelCtx and the streamsimKernel*
 * accessors; docs/semantics/kernel-bodies.md): what a body may touch, the faults for what it may not, and
 * that a fault is the vendor's sticky cudaErrorIllegalAddress (700) at the next synchronize, never a crash.
 * A kernel fault sticks to the process until its device is reset, so every case runs in a process of its own
 * machine (streamsimMachineCreate + streamsimBind).
 */
#include <cuda_runtime.h>

#include "check.h"

#define N 64

/* One case's machine and process, bound to this thread. */
typedef struct Sim {
    streamsimMachine machine;
    streamsimProcess process;
} Sim;

static Sim sim_begin(void) {
    Sim s;
    EXPECT(streamsimMachineCreate(&s.machine, STREAMSIM_DIALECT_CUDA, 1, 0), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessCreate(&s.process, s.machine), STREAMSIM_SUCCESS);
    EXPECT(streamsimBind(s.process), STREAMSIM_SUCCESS);
    return s;
}

static void sim_end(Sim s) {
    EXPECT(streamsimUnbind(), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessDestroy(s.process), STREAMSIM_SUCCESS);
    EXPECT(streamsimMachineDestroy(s.machine), STREAMSIM_SUCCESS);
}

static void *dmalloc(size_t bytes) {
    void *p = NULL;
    EXPECT(cudaMalloc(&p, bytes), cudaSuccess);
    return p;
}

/* What a body saw: the codes of its accessor calls, in order. */
typedef struct Seen {
    void *a;
    void *b;
    int codes[4];
    int ncodes;
    streamsimKernelCtx *ctx; /* kept to try it after the body returned */
} Seen;

static void note(Seen *s, int code) {
    if (s->ncodes < 4) {
        s->codes[s->ncodes++] = code;
    }
}

static streamsimAccess decl(const void *ptr, size_t bytes, int flags) {
    streamsimAccess a;
    a.ptr = ptr;
    a.bytes = bytes;
    a.flags = flags;
    return a;
}

/* ------------------------------------------------------------------ a body that keeps to its declarations */

/* b[i] = a[i] * 2 + 1 through the read/write calls; then a read-modify-write of b through a map. */
static void double_plus_one(streamsimKernelCtx *ctx, void *arg) {
    Seen *s = (Seen *)arg;
    s->ctx = ctx;
    int v[N];
    note(s, streamsimKernelRead(ctx, v, s->a, sizeof v));
    for (int i = 0; i < N; i++) {
        v[i] = v[i] * 2 + 1;
    }
    note(s, streamsimKernelWrite(ctx, s->b, v, sizeof v));
    void *m = NULL;
    note(s, streamsimKernelMap(ctx, s->b, sizeof v, &m));
    int *b = (int *)m;
    b[0] += 1000; /* a read-and-write access: reads what this body wrote, writes back at its end */
}

static void a_body_computes_on_what_it_declared(void) {
    Sim sim = sim_begin();
    int host[N];
    for (int i = 0; i < N; i++) {
        host[i] = i;
    }
    Seen s;
    memset(&s, 0, sizeof s);
    s.a = dmalloc(sizeof host);
    s.b = dmalloc(sizeof host);
    EXPECT(cudaMemcpy(s.a, host, sizeof host, cudaMemcpyHostToDevice), cudaSuccess);
    streamsimAccess acc[2] = {decl(s.a, sizeof host, STREAMSIM_ACCESS_READ),
                              decl(s.b, sizeof host, STREAMSIM_ACCESS_READ | STREAMSIM_ACCESS_WRITE)};
    EXPECT(cudasimLaunchKernelCtx(NULL, "doublePlusOne", 5000, double_plus_one, &s, acc, 2), cudaSuccess);
    EXPECT(cudaMemcpy(host, s.b, sizeof host, cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK_EQ(s.ncodes, 3);
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(s.codes[i], STREAMSIM_SUCCESS);
    }
    CHECK_EQ(host[0], 1001);
    for (int i = 1; i < N; i++) {
        CHECK_EQ(host[i], 2 * i + 1);
    }
    EXPECT(cudaDeviceSynchronize(), cudaSuccess);
    /* The context after its body returned, and a forged one: refused, nothing happens. */
    int x = 0;
    EXPECT(streamsimKernelRead(s.ctx, &x, s.a, sizeof x), STREAMSIM_ERROR_INVALID_HANDLE);
    EXPECT(streamsimKernelRead(NULL, &x, s.a, sizeof x), STREAMSIM_ERROR_INVALID_HANDLE);
    EXPECT(streamsimKernelWrite((streamsimKernelCtx *)&x, s.a, &x, sizeof x), STREAMSIM_ERROR_INVALID_HANDLE);
    sim_end(sim);
}

/* ------------------------------------------------------------------ faults */

typedef enum Misuse { UNDECLARED, PAST_THE_END, WRITE_READ_ONLY, MAP_WRITE_READ_ONLY } Misuse;

typedef struct Bad {
    Seen seen;
    Misuse misuse;
} Bad;

static void misbehave(streamsimKernelCtx *ctx, void *arg) {
    Bad *bad = (Bad *)arg;
    Seen *s = &bad->seen;
    s->ctx = ctx;
    int v[N + 1];
    memset(v, 0, sizeof v);
    void *m = NULL;
    switch (bad->misuse) {
    case UNDECLARED: /* b is allocated but not declared */
        note(s, streamsimKernelRead(ctx, v, s->b, sizeof(int)));
        break;
    case PAST_THE_END: /* one int past the N-int allocation a */
        note(s, streamsimKernelWrite(ctx, s->a, v, sizeof v));
        break;
    case WRITE_READ_ONLY: /* a is declared read-only */
        note(s, streamsimKernelWrite(ctx, s->a, v, sizeof(int)));
        break;
    case MAP_WRITE_READ_ONLY: /* the map works; the change is refused when the body returns */
        note(s, streamsimKernelMap(ctx, s->a, sizeof(int) * N, &m));
        ((int *)m)[3] = 42;
        break;
    }
    /* After a fault the body's accesses do nothing (a read of a declared range included). */
    note(s, streamsimKernelRead(ctx, v, s->a, sizeof(int)));
}

static void a_misuse_faults_the_kernel(Misuse misuse, int first, int second) {
    Sim sim = sim_begin();
    Bad bad;
    memset(&bad, 0, sizeof bad);
    bad.misuse = misuse;
    bad.seen.a = dmalloc(sizeof(int) * N);
    bad.seen.b = dmalloc(sizeof(int) * N);
    cudaStream_t stream;
    EXPECT(cudaStreamCreate(&stream), cudaSuccess);
    streamsimAccess acc = decl(bad.seen.a, sizeof(int) * N,
                                 misuse == PAST_THE_END ? STREAMSIM_ACCESS_WRITE : STREAMSIM_ACCESS_READ);
    EXPECT(cudasimLaunchKernelCtx(stream, "misbehave", 1000, misbehave, &bad, &acc, 1), cudaSuccess);
    /* The fault is the next synchronize's, and sticks: every later call of the process returns it. */
    EXPECT(cudaStreamSynchronize(stream), cudaErrorIllegalAddress);
    CHECK_CONTAINS(streamsimGetLastErrorMessage(STREAMSIM_API_CUDA), "misbehave");
    CHECK_EQ(bad.seen.ncodes, 2);
    CHECK_EQ(bad.seen.codes[0], first);
    CHECK_EQ(bad.seen.codes[1], second);
    void *p = NULL;
    EXPECT(cudaMalloc(&p, 16), cudaErrorIllegalAddress);
    EXPECT(cudaGetLastError(), cudaErrorIllegalAddress);
    EXPECT(cudaDeviceReset(), cudaSuccess);
    EXPECT(cudaMalloc(&p, 16), cudaSuccess);
    sim_end(sim);
}

/* ------------------------------------------------------------------ host-side mistakes: no fault */

static void host_mistakes(streamsimKernelCtx *ctx, void *arg) {
    Seen *s = (Seen *)arg;
    int x = 7;
    void *m = NULL;
    note(s, streamsimKernelRead(ctx, NULL, s->a, sizeof x)); /* NULL destination */
    note(s, streamsimKernelWrite(ctx, s->a, s->b, sizeof x)); /* a device pointer as the host source */
    note(s, streamsimKernelMap(ctx, s->a, 0, &m));           /* zero bytes */
    note(s, streamsimKernelMap(ctx, s->a, sizeof x, NULL));  /* no out-pointer */
}

static void host_side_mistakes_are_refused_without_a_fault(void) {
    Sim sim = sim_begin();
    Seen s;
    memset(&s, 0, sizeof s);
    s.a = dmalloc(64);
    s.b = dmalloc(64);
    streamsimAccess acc = decl(s.a, 64, STREAMSIM_ACCESS_WRITE);
    EXPECT(cudasimLaunchKernelCtx(NULL, "hostMistakes", 1000, host_mistakes, &s, &acc, 1), cudaSuccess);
    EXPECT(cudaDeviceSynchronize(), cudaSuccess);
    CHECK_EQ(s.ncodes, 4);
    for (int i = 0; i < 4; i++) {
        CHECK_EQ(s.codes[i], STREAMSIM_ERROR_INVALID_VALUE);
    }
    sim_end(sim);
}

/* ------------------------------------------------------------------ declared accesses */

static void declarations_are_checked_at_the_launch(void) {
    Sim sim = sim_begin();
    void *d = dmalloc(64);
    streamsimAccess zero = decl(d, 64, 0);
    EXPECT(cudasimLaunchKernelCtx(NULL, "k", 1000, NULL, NULL, &zero, 1), cudaErrorInvalidValue);
    CHECK_CONTAINS(streamsimGetLastErrorMessage(STREAMSIM_API_CUDA), "STREAMSIM_ACCESS_READ");
    streamsimAccess four = decl(d, 64, 4);
    EXPECT(cudasimLaunchKernelCtx(NULL, "k", 1000, NULL, NULL, &four, 1), cudaErrorInvalidValue);
    streamsimAccess rw = decl(d, 64, STREAMSIM_ACCESS_READ | STREAMSIM_ACCESS_WRITE);
    EXPECT(cudasimLaunchKernelCtx(NULL, "k", 1000, NULL, NULL, &rw, 1), cudaSuccess);
    EXPECT(cudaDeviceSynchronize(), cudaSuccess);
    sim_end(sim);
}

/* ------------------------------------------------------------------ mapped pinned host memory */

static void fill_pinned(streamsimKernelCtx *ctx, void *arg) {
    Seen *s = (Seen *)arg;
    void *m = NULL;
    note(s, streamsimKernelMap(ctx, s->a, sizeof(int) * N, &m));
    if (m != NULL) {
        for (int i = 0; i < N; i++) {
            ((int *)m)[i] = 3 * i;
        }
    }
}

/* Under unified addressing a kernel reaches cudaMallocHost memory at its host address (zero-copy). */
static void a_kernel_writes_pinned_host_memory(void) {
    Sim sim = sim_begin();
    Seen s;
    memset(&s, 0, sizeof s);
    EXPECT(cudaMallocHost(&s.a, sizeof(int) * N), cudaSuccess);
    streamsimAccess acc = decl(s.a, sizeof(int) * N, STREAMSIM_ACCESS_WRITE);
    EXPECT(cudasimLaunchKernelCtx(NULL, "fillPinned", 1000, fill_pinned, &s, &acc, 1), cudaSuccess);
    EXPECT(cudaDeviceSynchronize(), cudaSuccess);
    CHECK_EQ(s.codes[0], STREAMSIM_SUCCESS);
    const int *h = (const int *)s.a;
    for (int i = 0; i < N; i++) {
        CHECK_EQ(h[i], 3 * i);
    }
    EXPECT(cudaFreeHost(s.a), cudaSuccess);
    sim_end(sim);
}

int main(void) {
    a_body_computes_on_what_it_declared();
    a_misuse_faults_the_kernel(UNDECLARED, STREAMSIM_ERROR_ILLEGAL_ADDRESS, STREAMSIM_ERROR_ILLEGAL_ADDRESS);
    a_misuse_faults_the_kernel(PAST_THE_END, STREAMSIM_ERROR_ILLEGAL_ADDRESS, STREAMSIM_ERROR_ILLEGAL_ADDRESS);
    a_misuse_faults_the_kernel(WRITE_READ_ONLY, STREAMSIM_ERROR_ILLEGAL_ADDRESS, STREAMSIM_ERROR_ILLEGAL_ADDRESS);
    /* The map succeeds and so does the read after it; the fault comes when the body returns. */
    a_misuse_faults_the_kernel(MAP_WRITE_READ_ONLY, STREAMSIM_SUCCESS, STREAMSIM_SUCCESS);
    host_side_mistakes_are_refused_without_a_fault();
    declarations_are_checked_at_the_launch();
    a_kernel_writes_pinned_host_memory();
    printf("kernel bodies (CUDA): ok\n");
    return 0;
}
