// Seed 000, the MUSA events article (MUSA Event 相关接口使用), §2.1, §2.2 and §2.3, with the article's code as
// written (the lines between "as written" markers are the article's); the rest declares what it uses and
// checks what it promises. Built by `streamsim cc` (tests/suite/cc_programs.rs).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define CHECK(call, want)                                                                                  \
    do {                                                                                                   \
        int got_ = (int)(call);                                                                            \
        if (got_ != (int)(want)) {                                                                         \
            printf("FAIL line %d: %s = %d, want %d\n", __LINE__, #call, got_, (int)(want));               \
            exit(1);                                                                                       \
        }                                                                                                  \
    } while (0)

// What the kernels did, in the order they did it.
__device__ int ran[8];
__device__ int next;

__device__ void mark(int who) { ran[atomicAdd(&next, 1)] = who; }

__global__ void kernel() { mark(3); }
__global__ void kernel1() { mark(1); }
__global__ void kernel2() {
    // A long kernel: stream1's kernel must still wait for it.
    long long until = clock64() + 100000;
    while (clock64() < until) {
    }
    mark(2);
}

static void section_2_1() {
    musaEvent_t event1, event2;
    CHECK(musaEventCreate(&event1), musaSuccess);
    CHECK(musaEventCreate(&event2), musaSuccess);
    // as written
    musaEventRecord(event1);
    kernel<<<1, 1>>>();
    musaEventRecord(event2);
    musaEventSynchronize(event2);
    float time_ms;
    musaEventElapsedTime(&time_ms, event1, event2);
    // as written
    CHECK(musaGetLastError(), musaSuccess);
    CHECK(musaEventQuery(event2), musaSuccess);
    printf("2.1: kernel took %.6f ms\n", time_ms);
    musaEventDestroy(event1);
    musaEventDestroy(event2);
}

static void section_2_2() {
    musaStream_t stream1, stream2;
    musaEvent_t event1;
    CHECK(musaStreamCreate(&stream1), musaSuccess);
    CHECK(musaStreamCreate(&stream2), musaSuccess);
    CHECK(musaEventCreate(&event1), musaSuccess);
    int zero[9] = {0};
    CHECK(musaMemcpyToSymbol(ran, zero, sizeof(int) * 8), musaSuccess);
    CHECK(musaMemcpyToSymbol(next, zero, sizeof(int)), musaSuccess);
    // as written
    kernel1<<<1, 1, 0, stream1>>>();
    kernel2<<<1, 1, 0, stream2>>>();
    musaEventRecord(event1, stream2);
    musaStreamWaitEvent(stream1, event1);
    kernel<<<1, 1, 0, stream1>>>();
    // as written
    CHECK(musaDeviceSynchronize(), musaSuccess);
    int order[8], n = 0;
    CHECK(musaMemcpyFromSymbol(order, ran, sizeof order), musaSuccess);
    CHECK(musaMemcpyFromSymbol(&n, next, sizeof n), musaSuccess);
    CHECK(n, 3);
    // kernel (3) ran after kernel2 (2), whatever the order of kernel1 and kernel2.
    int pos2 = -1, pos3 = -1;
    for (int i = 0; i < n; i++) {
        if (order[i] == 2) pos2 = i;
        if (order[i] == 3) pos3 = i;
    }
    CHECK(pos3 > pos2, 1);
    printf("2.2: kernel ran after kernel2\n");
}

// §2.3: process A makes the event and passes its handle; process B opens it and waits on it.
static int process_b(const char *path) {
    musaIpcEventHandle_t ipc_handle;
    FILE *f = fopen(path, "rb");
    char IPC_Shared[sizeof(musaIpcEventHandle_t)];
    if (!f || fread(IPC_Shared, 1, sizeof IPC_Shared, f) != sizeof IPC_Shared) return 2;
    fclose(f);
    musaEvent_t event;
    // as written
    memcpy(&ipc_handle, IPC_Shared, sizeof(musaIpcEventHandle_t));
    musaIpcOpenEventHandle(&event, ipc_handle);
    // as written
    CHECK(musaGetLastError(), musaSuccess);
    musaStream_t s;
    CHECK(musaStreamCreate(&s), musaSuccess);
    CHECK(musaStreamWaitEvent(s, event, 0), musaSuccess);
    CHECK(musaStreamSynchronize(s), musaSuccess);
    CHECK(musaEventQuery(event), musaSuccess);
    float ms;
    // An interprocess event has no timestamps.
    CHECK(musaEventElapsedTime(&ms, event, event), musaErrorInvalidResourceHandle);
    printf("2.3 B: waited on A's event\n");
    fflush(stdout);
    return 0;
}

static void section_2_3(const char *self) {
    musaEvent_t event;
    musaIpcEventHandle_t handle;
    char IPC_Shared[sizeof(musaIpcEventHandle_t)];
    // as written
    musaEventCreateWithFlags(&event, musaEventDisableTiming | musaEventInterprocess);
    musaIpcGetEventHandle(&handle, event);
    memcpy(IPC_Shared, &handle, sizeof(musaIpcEventHandle_t));
    // as written
    CHECK(musaGetLastError(), musaSuccess);
    kernel2<<<1, 1>>>();
    CHECK(musaEventRecord(event, 0), musaSuccess);
    char path[64];
    snprintf(path, sizeof path, "seed000-handle-%d", (int)getpid());
    FILE *f = fopen(path, "wb");
    fwrite(IPC_Shared, 1, sizeof IPC_Shared, f);
    fclose(f);
    fflush(stdout);
    pid_t pid;
    char *argv[] = {(char *)self, (char *)"B", path, nullptr};
    CHECK(posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, argv, environ), 0);
    int status = 0;
    waitpid(pid, &status, 0);
    unlink(path);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, 1);
    printf("2.3 A: process B is done\n");
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "B") == 0) return process_b(argv[2]);
    section_2_1();
    section_2_2();
    section_2_3(argv[0]);
    printf("seed 000: PASS\n");
    return 0;
}
