/*
 * exit_calls.c — runtime calls made while the process exits, where cleanup code of real programs makes them:
 *   - an atexit handler (on the main thread, after its thread-locals are destroyed);
 *   - a global destructor (C++ build: a global object's destructor, registered before main; C build:
 *     __attribute__((destructor)); both run after the atexit handler);
 *   - a pthread key destructor of another thread (glibc runs it after that thread's C++ / Rust thread-locals
 *     are destroyed).
 * Each frees memory, synchronizes, and destroys streams and events, with CUDA and ACL names, and checks every
 * code. Before the fix these calls aborted the process (SIGABRT, "panic in a function that cannot unwind").
 *
 * What the calls see (src/engine/process/thread.rs): the main thread keeps its state (current device or
 * context, last error), so its cleanup works as in main; another thread whose thread-locals are gone is a
 * fresh host thread (CUDA device 0; ACL no current context until it sets one).
 *
 * Run with STREAMSIM_DEVICES=2. Prints "atexit: ok", "thread destructor: ok" and "destructor: ok"; on a
 * mismatch it prints the call and exits with status 1 (with _exit: exit() must not be called again).
 */
#include <cuda_runtime.h>

#include "acl/acl.h"

#include <pthread.h>
#include <unistd.h>

#include "check.h"

/* EXIT_EXPECT(call, code) in code that runs during exit: on a mismatch, report and _exit(1). */
#define EXIT_EXPECT(call, want) exit_check(__FILE__, __LINE__, #call, (long long)(call), (long long)(want))

static void exit_check(const char *file, int line, const char *what, long long got, long long want) {
    if (got != want) {
        fprintf(stderr, "%s:%d: %s\n  got %lld, expected %lld\n", file, line, what, got, want);
        check_messages();
        fflush(stdout);
        _exit(1);
    }
}

/* What main leaves for the cleanup code. */
static struct {
    /* for the atexit handler */
    cudaStream_t stream;
    cudaEvent_t event;
    void *dev;
    void *host;
    aclrtContext ctx;
    aclrtStream astream;
    aclrtEvent aevent;
    void *adev;
    /* for the global destructor */
    cudaStream_t stream2;
    cudaEvent_t event2;
    void *dev2;
    aclrtStream astream2;
    void *adev2;
    /* a machine made from C: bound in the atexit handler, released in the global destructor */
    streamsimMachine machine;
    streamsimProcess process;
} g;

static pthread_key_t key;

/* The cleanup of the atexit handler: main's state is still the thread's. */
static void at_exit_cleanup(void) {
    int device = -1;
    EXIT_EXPECT(cudaGetDevice(&device), cudaSuccess);
    EXIT_EXPECT(device, 1); /* main's cudaSetDevice(1) still holds */
    EXIT_EXPECT(cudaEventQuery(g.event), cudaErrorNotReady); /* main's clock: the 5 ms kernel still runs */
    EXIT_EXPECT(cudaEventSynchronize(g.event), cudaSuccess);
    EXIT_EXPECT(cudaEventQuery(g.event), cudaSuccess);
    EXIT_EXPECT(cudaStreamSynchronize(g.stream), cudaSuccess);
    EXIT_EXPECT(cudaFree(g.dev), cudaSuccess);
    EXIT_EXPECT(cudaFree(g.dev), cudaErrorInvalidValue); /* freed twice */
    EXIT_EXPECT(cudaFreeHost(g.host), cudaSuccess);
    EXIT_EXPECT(cudaEventDestroy(g.event), cudaSuccess);
    EXIT_EXPECT(cudaStreamDestroy(g.stream), cudaSuccess);
    EXIT_EXPECT(cudaStreamDestroy(g.stream), cudaErrorInvalidResourceHandle); /* destroyed */
    /* The last error is kept from call to call, as in main. */
    EXIT_EXPECT(cudaGetLastError(), cudaErrorInvalidResourceHandle);
    EXIT_EXPECT(cudaGetLastError(), cudaSuccess);
    /* New objects work too (a stream starts its worker thread). */
    cudaStream_t s = NULL;
    EXIT_EXPECT(cudaStreamCreate(&s), cudaSuccess);
    EXIT_EXPECT(cudasimLaunchKernel(s, "late", 1000, NULL, NULL), cudaSuccess);
    EXIT_EXPECT(cudaStreamSynchronize(s), cudaSuccess);
    EXIT_EXPECT(cudaStreamDestroy(s), cudaSuccess);
    /* ACL: main's current context still holds (aclrtDestroyStream requires it). */
    EXIT_EXPECT(aclrtSynchronizeStream(g.astream), ACL_SUCCESS);
    EXIT_EXPECT(aclrtFree(g.adev), ACL_SUCCESS);
    EXIT_EXPECT(aclrtDestroyEvent(g.aevent), ACL_SUCCESS);
    EXIT_EXPECT(aclrtDestroyStream(g.astream), ACL_SUCCESS);
    EXIT_EXPECT(streamsimGetLastErrorMessage(STREAMSIM_API_CUDA) == NULL, 1);
    /* Binding another process works as in main. */
    int n = 0;
    EXIT_EXPECT(streamsimBind(g.process), STREAMSIM_SUCCESS);
    EXIT_EXPECT(cudaGetDeviceCount(&n), cudaSuccess);
    EXIT_EXPECT(n, 3);
    void *p = NULL;
    EXIT_EXPECT(cudaMalloc(&p, 64), cudaSuccess);
    EXIT_EXPECT(cudaFree(p), cudaSuccess);
    EXIT_EXPECT(streamsimUnbind(), STREAMSIM_SUCCESS);
    EXIT_EXPECT(streamsimUnbind(), STREAMSIM_ERROR_NOT_BOUND);
    EXIT_EXPECT(cudaGetDeviceCount(&n), cudaSuccess);
    EXIT_EXPECT(n, 2);
    printf("atexit: ok\n");
}

/* The cleanup of the global destructor, after the atexit handler. */
static void late_cleanup(void) {
    EXIT_EXPECT(cudaDeviceSynchronize(), cudaSuccess);
    EXIT_EXPECT(cudaFree(g.dev2), cudaSuccess);
    EXIT_EXPECT(cudaEventDestroy(g.event2), cudaSuccess);
    EXIT_EXPECT(cudaStreamDestroy(g.stream2), cudaSuccess);
    EXIT_EXPECT(cudaDeviceReset(), cudaSuccess);
    EXIT_EXPECT(aclrtSynchronizeStream(g.astream2), ACL_SUCCESS);
    EXIT_EXPECT(aclrtFree(g.adev2), ACL_SUCCESS);
    EXIT_EXPECT(aclrtDestroyStream(g.astream2), ACL_SUCCESS);
    EXIT_EXPECT(aclrtDestroyContext(g.ctx), ACL_SUCCESS);
    EXIT_EXPECT(aclrtResetDevice(0), ACL_SUCCESS);
    EXIT_EXPECT(aclFinalize(), ACL_SUCCESS);
    EXIT_EXPECT(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
    /* Releasing a machine's last handles shuts it down (its workers are joined). */
    EXIT_EXPECT(streamsimProcessDestroy(g.process), STREAMSIM_SUCCESS);
    EXIT_EXPECT(streamsimMachineDestroy(g.machine), STREAMSIM_SUCCESS);
    EXIT_EXPECT(streamsimMachineDestroy(g.machine), STREAMSIM_ERROR_INVALID_HANDLE);
    printf("destructor: ok\n");
    fflush(stdout);
}

#ifdef __cplusplus
/* A global object whose destructor cleans up: registered with __cxa_atexit before main, so it runs after the
 * atexit handler main registers. */
struct Cleanup {
    ~Cleanup() { late_cleanup(); }
};
static Cleanup cleanup;
#else
__attribute__((destructor)) static void cleanup(void) { late_cleanup(); }
#endif

/* What a thread leaves for its key destructor. */
struct ThreadObjects {
    cudaStream_t stream;
    aclrtStream astream;
};

static struct ThreadObjects thread_objects;
static int thread_destructor_ran = 0;

/* The pthread key destructor: the thread's thread-locals are gone, so it is a fresh host thread. */
static void thread_cleanup(void *arg) {
    struct ThreadObjects *o = (struct ThreadObjects *)arg;
    int device = -1;
    EXIT_EXPECT(cudaGetDevice(&device), cudaSuccess);
    EXIT_EXPECT(device, 0); /* fresh: the thread's cudaSetDevice(1) is not seen */
    EXIT_EXPECT(cudaStreamSynchronize(o->stream), cudaSuccess);
    EXIT_EXPECT(cudaStreamDestroy(o->stream), cudaSuccess);
    /* ACL: no current context yet (aclrtDestroyStream needs the stream's), until the thread sets one. */
    EXIT_EXPECT(aclrtDestroyStream(o->astream), ACL_ERROR_RT_CONTEXT_NULL);
    EXIT_EXPECT(aclrtSetCurrentContext(g.ctx), ACL_SUCCESS);
    EXIT_EXPECT(aclrtDestroyStream(o->astream), ACL_SUCCESS);
    thread_destructor_ran = 1;
}

static void *thread_main(void *unused) {
    (void)unused;
    EXPECT(cudaSetDevice(1), cudaSuccess);
    EXPECT(cudaStreamCreate(&thread_objects.stream), cudaSuccess);
    EXPECT(cudasimLaunchKernel(thread_objects.stream, "thread_kernel", 2000000, NULL, NULL), cudaSuccess);
    EXPECT(aclrtSetCurrentContext(g.ctx), ACL_SUCCESS);
    EXPECT(aclrtCreateStream(&thread_objects.astream), ACL_SUCCESS);
    EXPECT(aclsimLaunchKernel(thread_objects.astream, "thread_kernel", 2000000, NULL, NULL), ACL_SUCCESS);
    EXPECT(pthread_setspecific(key, &thread_objects), 0);
    return NULL;
}

int main(void) {
    /* CUDA, on device 1. */
    EXPECT(cudaSetDevice(1), cudaSuccess);
    EXPECT(cudaStreamCreate(&g.stream), cudaSuccess);
    EXPECT(cudaStreamCreate(&g.stream2), cudaSuccess);
    EXPECT(cudaEventCreate(&g.event), cudaSuccess);
    EXPECT(cudaEventCreate(&g.event2), cudaSuccess);
    EXPECT(cudaMalloc(&g.dev, 4096), cudaSuccess);
    EXPECT(cudaMalloc(&g.dev2, 4096), cudaSuccess);
    EXPECT(cudaMallocHost(&g.host, 4096), cudaSuccess);
    EXPECT(cudaMemcpyAsync(g.dev, g.host, 4096, cudaMemcpyHostToDevice, g.stream), cudaSuccess);
    EXPECT(cudasimLaunchKernel(g.stream, "kernel", 5000000, NULL, NULL), cudaSuccess); /* 5 ms */
    EXPECT(cudaEventRecord(g.event, g.stream), cudaSuccess);
    EXPECT(cudasimLaunchKernel(g.stream2, "kernel2", 1000000, NULL, NULL), cudaSuccess);
    EXPECT(cudaEventRecord(g.event2, g.stream2), cudaSuccess);

    /* ACL, on device 0, in an explicit context. */
    EXPECT(aclInit(NULL), ACL_SUCCESS);
    EXPECT(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT(aclrtCreateContext(&g.ctx, 0), ACL_SUCCESS);
    EXPECT(aclrtCreateStream(&g.astream), ACL_SUCCESS);
    EXPECT(aclrtCreateStream(&g.astream2), ACL_SUCCESS);
    EXPECT(aclrtCreateEvent(&g.aevent), ACL_SUCCESS);
    EXPECT(aclrtMalloc(&g.adev, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT(aclrtMalloc(&g.adev2, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT(aclsimLaunchKernel(g.astream, "kernel", 3000000, NULL, NULL), ACL_SUCCESS);
    EXPECT(aclrtRecordEvent(g.aevent, g.astream), ACL_SUCCESS);
    EXPECT(aclsimLaunchKernel(g.astream2, "kernel2", 3000000, NULL, NULL), ACL_SUCCESS);

    /* A machine of 3 devices with a stream that has run work (so that shutting it down joins a worker). */
    EXPECT(streamsimMachineCreate(&g.machine, STREAMSIM_DIALECT_CUDA, 3, 0), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessCreate(&g.process, g.machine), STREAMSIM_SUCCESS);
    EXPECT(streamsimBind(g.process), STREAMSIM_SUCCESS);
    EXPECT(cudasimLaunchKernel(NULL, "on_machine", 1000, NULL, NULL), cudaSuccess);
    EXPECT(streamsimUnbind(), STREAMSIM_SUCCESS);

    /* A thread whose key destructor cleans up after its thread-locals are gone. */
    EXPECT(pthread_key_create(&key, thread_cleanup), 0);
    pthread_t t;
    EXPECT(pthread_create(&t, NULL, thread_main, NULL), 0);
    EXPECT(pthread_join(t, NULL), 0);
    CHECK(thread_destructor_ran);
    printf("thread destructor: ok\n");

    EXPECT(atexit(at_exit_cleanup), 0);
    fflush(stdout);
    return 0;
}
