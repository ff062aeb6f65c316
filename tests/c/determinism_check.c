/*
 * determinism_check.c — STREAMSIM_CHECK_DETERMINISM=1 (docs/semantics/schedules-and-hangs.md): at exit the
 * program runs itself again as a child and compares the two runs' traces.
 *
 *   same   two streams, an event between them, a host function: the same trace on every run.
 *   differ a kernel whose virtual duration differs in the second run (it reads the variable that marks the
 *          second run, as a program might read its process id or the clock): the check finds the difference
 *          and the program exits with status 67.
 *
 * Prints "determinism_check: <mode>: ok" when its own checks pass (the second run's output goes to /dev/null).
 */
#include <cuda_runtime.h>

#include "check.h"

static void CUDART_CB nothing(void *arg) { (void)arg; }

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: determinism_check same|differ\n");
        return 2;
    }
    cudaStream_t s1, s2;
    cudaEvent_t e;
    EXPECT(cudaStreamCreate(&s1), cudaSuccess);
    EXPECT(cudaStreamCreate(&s2), cudaSuccess);
    EXPECT(cudaEventCreate(&e), cudaSuccess);
    int second = getenv("STREAMSIM_DETERMINISM_CHILD") != NULL;
    uint64_t ns = strcmp(argv[1], "differ") == 0 && second ? 1500 : 1000;
    EXPECT(cudasimLaunchKernel(s1, "work", ns, NULL, NULL), cudaSuccess);
    EXPECT(cudaEventRecord(e, s1), cudaSuccess);
    EXPECT(cudaStreamWaitEvent(s2, e, 0), cudaSuccess);
    EXPECT(cudaLaunchHostFunc(s2, nothing, NULL), cudaSuccess);
    EXPECT(cudaDeviceSynchronize(), cudaSuccess);
    printf("determinism_check: %s: ok\n", argv[1]);
    return 0;
}
