/*
 * Fork without exec, every call (docs/semantics/fork.md): a child that inherited the parent's machines gets
 * the vendor's "not initialised" code at every call on them, never a hang, and a machine it makes itself works.
 *
 *   os_fork_calls     the parent makes a CUDA stream with work, an event, device memory, and an ACL stream,
 *                     then forks. In the child: cudasimLaunchKernel on the parent's stream, cudaStreamSynchronize,
 *                     cudaEventRecord, cudaMemset, cudaStreamCreate and cudaDeviceSynchronize are each
 *                     cudaErrorInitializationError (3), the message naming both OS processes and "without exec";
 *                     aclrtSynchronizeStream and aclrtCreateStream are ACL_ERROR_UNINITIALIZE (100001); a machine
 *                     made in the child runs a stream and synchronizes it. The child is killed by an alarm if
 *                     anything hangs. The parent's machines work after the child exits.
 */
#define _DEFAULT_SOURCE
#include <sys/wait.h>
#include <unistd.h>

#include <cuda_runtime.h>

#include "acl/acl.h"
#include "check.h"

static int ran = 0;

static void body(void *arg) { *(int *)arg = 1; }

int main(void) {
    cudaStream_t s;
    EXPECT(cudaStreamCreate(&s), cudaSuccess);
    EXPECT(cudasimLaunchKernel(s, "before", 1000, NULL, NULL), cudaSuccess);
    cudaEvent_t e;
    EXPECT(cudaEventCreate(&e), cudaSuccess);
    void *buf = NULL;
    EXPECT(cudaMalloc(&buf, 256), cudaSuccess);
    EXPECT(aclInit(NULL), ACL_SUCCESS);
    EXPECT(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream as;
    EXPECT(aclrtCreateStream(&as), ACL_SUCCESS);
    fflush(stdout);
    pid_t child = fork();
    CHECK(child >= 0);
    if (child == 0) {
        alarm(20);
        EXPECT(cudasimLaunchKernel(s, "in child", 1000, NULL, NULL), cudaErrorInitializationError);
        CHECK_CONTAINS(streamsimGetLastErrorMessage(STREAMSIM_API_CUDA), "forked from it without exec");
        EXPECT(cudaStreamSynchronize(s), cudaErrorInitializationError);
        EXPECT(cudaEventRecord(e, s), cudaErrorInitializationError);
        EXPECT(cudaMemset(buf, 0, 256), cudaErrorInitializationError);
        cudaStream_t s2;
        EXPECT(cudaStreamCreate(&s2), cudaErrorInitializationError);
        EXPECT(cudaDeviceSynchronize(), cudaErrorInitializationError);
        EXPECT(aclrtSynchronizeStream(as), ACL_ERROR_UNINITIALIZE);
        aclrtStream as2;
        EXPECT(aclrtCreateStream(&as2), ACL_ERROR_UNINITIALIZE);
        CHECK_CONTAINS(aclGetRecentErrMsg(), "forked from it without exec");
        /* A machine of the child's own works: its streams get threads in the child. */
        streamsimMachine m;
        streamsimProcess p;
        EXPECT(streamsimMachineCreate(&m, STREAMSIM_DIALECT_CUDA, 1, 0), STREAMSIM_SUCCESS);
        EXPECT(streamsimProcessCreate(&p, m), STREAMSIM_SUCCESS);
        EXPECT(streamsimBind(p), STREAMSIM_SUCCESS);
        cudaStream_t mine;
        EXPECT(cudaStreamCreate(&mine), cudaSuccess);
        EXPECT(cudasimLaunchKernel(mine, "child's own", 1000, body, &ran), cudaSuccess);
        EXPECT(cudaStreamSynchronize(mine), cudaSuccess);
        CHECK(ran == 1);
        EXPECT(cudaStreamDestroy(mine), cudaSuccess);
        EXPECT(streamsimUnbind(), STREAMSIM_SUCCESS);
        printf("child: every call on the parent's machines refused; its own machine ran\n");
        fflush(stdout);
        exit(0);
    }
    int status = 0;
    CHECK(waitpid(child, &status, 0) == child);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    EXPECT(cudasimLaunchKernel(s, "after", 1000, NULL, NULL), cudaSuccess);
    EXPECT(cudaStreamSynchronize(s), cudaSuccess);
    EXPECT(aclrtSynchronizeStream(as), ACL_SUCCESS);
    printf("parent: ok\n");
    return 0;
}
