/*
 * Fork without exec: a child that inherited a machine joined to a shared host gets a clear error at its next
 * IPC call, and does not leave the host for its parent (host/mod.rs, "Fork without exec"; the CUDA samples
 * note "CUDA has minimal support for fork() without a corresponding exec() in the child process").
 *
 *   os_fork_no_exec     the parent exports an IPC event and memory, forks; the child's cudaIpcGetEventHandle,
 *                       cudaEventRecord of the exported event, cudaIpcGetMemHandle and cudaIpcOpenMemHandle are
 *                       each cudaErrorInitializationError (every call in a forked child on
 *                       the parent's machine is: os_fork_calls.c), the message naming both OS processes and
 *                       "without exec"; the child exits (running its atexit handlers); the parent's export still opens
 *                       in a second simulated process.
 */
#define _DEFAULT_SOURCE
#include <sys/wait.h>
#include <unistd.h>

#include <cuda_runtime.h>

#include "check.h"

int main(void) {
    cudaEvent_t e;
    EXPECT(cudaEventCreateWithFlags(&e, cudaEventDisableTiming | cudaEventInterprocess), cudaSuccess);
    cudaIpcEventHandle_t h;
    EXPECT(cudaIpcGetEventHandle(&h, e), cudaSuccess);
    void *buf = NULL;
    EXPECT(cudaMalloc(&buf, 256), cudaSuccess);
    cudaIpcMemHandle_t mh;
    EXPECT(cudaIpcGetMemHandle(&mh, buf), cudaSuccess);
    fflush(stdout);
    pid_t child = fork();
    CHECK(child >= 0);
    if (child == 0) {
        cudaIpcEventHandle_t h2;
        EXPECT(cudaIpcGetEventHandle(&h2, e), cudaErrorInitializationError);
        CHECK_CONTAINS(streamsimGetLastErrorMessage(STREAMSIM_API_CUDA), "forked from it without exec");
        EXPECT(cudaEventRecord(e, 0), cudaErrorInitializationError);
        cudaIpcMemHandle_t mh2;
        EXPECT(cudaIpcGetMemHandle(&mh2, buf), cudaErrorInitializationError);
        void *p = NULL;
        EXPECT(cudaIpcOpenMemHandle(&p, mh, cudaIpcMemLazyEnablePeerAccess), cudaErrorInitializationError);
        printf("child: IPC refused after fork without exec\n");
        fflush(stdout);
        exit(0);
    }
    int status = 0;
    CHECK(waitpid(child, &status, 0) == child);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    /* The child did not leave the host for the parent: the export still opens in a second simulated process. */
    streamsimProcess a, b;
    streamsimMachine m;
    EXPECT(streamsimDefaultProcess(&a, STREAMSIM_API_CUDA), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessGetMachine(a, &m), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessCreate(&b, m), STREAMSIM_SUCCESS);
    EXPECT(streamsimBind(b), STREAMSIM_SUCCESS);
    cudaEvent_t opened;
    EXPECT(cudaIpcOpenEventHandle(&opened, h), cudaSuccess);
    void *mapped = NULL;
    EXPECT(cudaIpcOpenMemHandle(&mapped, mh, cudaIpcMemLazyEnablePeerAccess), cudaSuccess);
    EXPECT(cudaIpcCloseMemHandle(mapped), cudaSuccess);
    EXPECT(streamsimUnbind(), STREAMSIM_SUCCESS);
    printf("parent: ok\n");
    return 0;
}
