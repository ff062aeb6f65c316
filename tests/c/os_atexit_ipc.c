/*
 * An atexit handler registered before the program's first IPC call makes IPC calls at exit (issue 27, item 11):
 * the handler runs after the handlers registered later, among them the one the shared host was joined with.
 *
 *   os_atexit_ipc     main registers `late` with atexit, then exports an IPC event (joining the shared host) and
 *                     returns; `late` records the exported event and exports it again, and prints both codes:
 *                     both 0 (ruled out: the calls still work after the host was left, and nothing of the host
 *                     is left behind; other processes no longer see this one's records, as after any exit).
 */
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>

#include "check.h"

static cudaEvent_t e;

static void late(void) {
    cudaError_t record = cudaEventRecord(e, 0);
    cudaIpcEventHandle_t h;
    cudaError_t handle = cudaIpcGetEventHandle(&h, e);
    printf("late: record %d, handle %d\n", (int)record, (int)handle);
    if (record != cudaSuccess || handle != cudaSuccess) {
        printf("late: %s\n", streamsimGetLastErrorMessage(STREAMSIM_API_CUDA));
    }
    fflush(stdout);
}

int main(void) {
    CHECK(atexit(late) == 0);
    EXPECT(cudaEventCreateWithFlags(&e, cudaEventDisableTiming | cudaEventInterprocess), cudaSuccess);
    cudaIpcEventHandle_t h;
    EXPECT(cudaIpcGetEventHandle(&h, e), cudaSuccess);
    printf("main: exported\n");
    return 0;
}
