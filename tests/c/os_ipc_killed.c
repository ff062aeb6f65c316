/*
 * An OS process killed (SIGKILL) while another waits on its record, and the run after it.
 *
 *   os_ipc_killed export FILE   exports an IPC event whose record is queued behind a host function that never
 *                               returns, writes the handle to FILE, then sleeps until it is killed
 *   os_ipc_killed wait FILE     opens the handle, makes a stream wait for the record and synchronizes: the
 *                               call returns once the exporter is gone (the record counts as run)
 *   os_ipc_killed stale FILE    (a later run) the handle of the killed run is refused: cudaErrorInvalidValue,
 *                               "earlier run"; a fresh export and open in this run work
 */
#define _DEFAULT_SOURCE
#include <unistd.h>

#include <cuda_runtime.h>

#include "check.h"

static void CUDART_CB never_returns(void *unused) {
    (void)unused;
    for (;;) {
        pause();
    }
}

static void write_handle(const char *path, const cudaIpcEventHandle_t *h) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    CHECK(f != NULL);
    CHECK(fwrite(h, sizeof *h, 1, f) == 1);
    CHECK(fclose(f) == 0);
    CHECK(rename(tmp, path) == 0);
}

static void read_handle(const char *path, cudaIpcEventHandle_t *h) {
    FILE *f = NULL;
    for (int i = 0; f == NULL && i < 6000; i++) {
        f = fopen(path, "rb");
        if (f == NULL) {
            usleep(10000);
        }
    }
    CHECK(f != NULL);
    CHECK(fread(h, sizeof *h, 1, f) == 1);
    CHECK(fclose(f) == 0);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s export|wait|stale FILE\n", argv[0]);
        return 2;
    }
    const char *mode = argv[1], *path = argv[2];
    if (strcmp(mode, "export") == 0) {
        cudaStream_t s;
        EXPECT(cudaStreamCreate(&s), cudaSuccess);
        cudaEvent_t e;
        EXPECT(cudaEventCreateWithFlags(&e, cudaEventDisableTiming | cudaEventInterprocess), cudaSuccess);
        cudaIpcEventHandle_t h;
        EXPECT(cudaIpcGetEventHandle(&h, e), cudaSuccess);
        EXPECT(cudaLaunchHostFunc(s, never_returns, NULL), cudaSuccess);
        EXPECT(cudaEventRecord(e, s), cudaSuccess);
        write_handle(path, &h);
        printf("exported\n");
        fflush(stdout);
        for (;;) {
            pause();
        }
    } else if (strcmp(mode, "wait") == 0) {
        cudaIpcEventHandle_t h;
        read_handle(path, &h);
        cudaEvent_t e;
        EXPECT(cudaIpcOpenEventHandle(&e, h), cudaSuccess);
        cudaStream_t s;
        EXPECT(cudaStreamCreate(&s), cudaSuccess);
        EXPECT(cudaStreamWaitEvent(s, e, 0), cudaSuccess);
        printf("waiting\n");
        fflush(stdout);
        EXPECT(cudaStreamSynchronize(s), cudaSuccess);
        EXPECT(cudaEventSynchronize(e), cudaSuccess);
        EXPECT(cudaEventQuery(e), cudaSuccess);
        EXPECT(cudaEventDestroy(e), cudaSuccess);
        printf("the wait ended\n");
    } else if (strcmp(mode, "stale") == 0) {
        cudaIpcEventHandle_t old;
        read_handle(path, &old);
        cudaEvent_t e = NULL;
        EXPECT(cudaIpcOpenEventHandle(&e, old), cudaErrorInvalidValue);
        CHECK_CONTAINS(streamsimGetLastErrorMessage(STREAMSIM_API_CUDA), "earlier run");
        /* The host works as new: an export of this run is refused in this same process (cudaErrorDeviceUninitialized), and
         * opens in a second simulated process. */
        cudaEvent_t mine;
        EXPECT(cudaEventCreateWithFlags(&mine, cudaEventDisableTiming | cudaEventInterprocess), cudaSuccess);
        cudaIpcEventHandle_t h;
        EXPECT(cudaIpcGetEventHandle(&h, mine), cudaSuccess);
        EXPECT(cudaIpcOpenEventHandle(&e, h), cudaErrorDeviceUninitialized);
        streamsimProcess a, b;
        streamsimMachine m;
        EXPECT(streamsimDefaultProcess(&a, STREAMSIM_API_CUDA), STREAMSIM_SUCCESS);
        EXPECT(streamsimProcessGetMachine(a, &m), STREAMSIM_SUCCESS);
        EXPECT(streamsimProcessCreate(&b, m), STREAMSIM_SUCCESS);
        EXPECT(streamsimBind(b), STREAMSIM_SUCCESS);
        EXPECT(cudaIpcOpenEventHandle(&e, h), cudaSuccess);
        EXPECT(cudaEventQuery(e), cudaSuccess);
        EXPECT(streamsimUnbind(), STREAMSIM_SUCCESS);
        printf("stale handle refused; new run ok\n");
    } else {
        fprintf(stderr, "unknown mode %s\n", mode);
        return 2;
    }
    return 0;
}
