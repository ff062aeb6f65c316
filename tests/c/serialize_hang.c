/*
 * serialize_hang.c — a program that needs two streams to progress concurrently, and the same program with the
 * right event, under STREAMSIM_SCHEDULE=serialize (docs/semantics/schedules-and-hangs.md).
 *
 * A host function on stream 1 ("wait_flag") spins until a flag is set; only a host function on stream 2
 * ("set_flag"), enqueued after it, sets it. CUDA does not promise that the two streams progress at once ("their
 * execution may be serialized, even if there is not a mandated order between them": CUDA directive 1.5,
 * callbacks should not wait for other callbacks), so the program may hang on a device. Under the serialize
 * schedule, the seed (STREAMSIM_SEED) chooses which of the two runs first.
 *
 *   flag deadlock   no event; the seed runs wait_flag first: cudaDeviceSynchronize fails with cudaErrorUnknown
 *                   (999) and the last error message names the cycle; the work is not lost (the schedule is
 *                   given up: a second synchronize succeeds and both functions ran).
 *   flag pass       no event; the seed runs set_flag first (or the schedule is concurrent): success.
 *   events pass     stream 1 waits for an event recorded on stream 2 after set_flag: success on every seed.
 *
 * Prints "serialize_hang: <mode> <expect>: ok" on success.
 */
#include <cuda_runtime.h>

#include "check.h"

static volatile int flag;
static volatile int ran_wait;
static volatile int ran_set;

static void CUDART_CB wait_flag(void *arg) {
    (void)arg;
    while (!__atomic_load_n(&flag, __ATOMIC_SEQ_CST)) {
    }
    __atomic_store_n(&ran_wait, 1, __ATOMIC_SEQ_CST);
}

static void CUDART_CB set_flag(void *arg) {
    (void)arg;
    __atomic_store_n(&flag, 1, __ATOMIC_SEQ_CST);
    __atomic_store_n(&ran_set, 1, __ATOMIC_SEQ_CST);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: serialize_hang flag|events deadlock|pass\n");
        return 2;
    }
    int events = strcmp(argv[1], "events") == 0;
    int deadlock = strcmp(argv[2], "deadlock") == 0;
    cudaStream_t s1, s2;
    EXPECT(cudaStreamCreate(&s1), cudaSuccess);
    EXPECT(cudaStreamCreate(&s2), cudaSuccess);
    if (events) {
        cudaEvent_t e;
        EXPECT(cudaEventCreate(&e), cudaSuccess);
        EXPECT(cudaLaunchHostFunc(s2, set_flag, NULL), cudaSuccess);
        EXPECT(cudaEventRecord(e, s2), cudaSuccess);
        EXPECT(cudaStreamWaitEvent(s1, e, 0), cudaSuccess);
        EXPECT(cudaLaunchHostFunc(s1, wait_flag, NULL), cudaSuccess);
        EXPECT(cudaDeviceSynchronize(), cudaSuccess);
        EXPECT(cudaEventDestroy(e), cudaSuccess);
    } else {
        EXPECT(cudaLaunchHostFunc(s1, wait_flag, NULL), cudaSuccess);
        EXPECT(cudaLaunchHostFunc(s2, set_flag, NULL), cudaSuccess);
        if (deadlock) {
            EXPECT(cudaDeviceSynchronize(), cudaErrorUnknown);
            const char *m = streamsimGetLastErrorMessage(STREAMSIM_API_CUDA);
            /* The CUDA facade's messages name the engine's calls. */
            CHECK_CONTAINS(m, "device_synchronize would wait forever for stream 1: host thread 0 of process 0 "
                              "in device_synchronize");
            CHECK_CONTAINS(m, "host-fn \"host function\" (stream 1 op 1), running and not returned after");
            CHECK_CONTAINS(m, "\"host function\" (stream 2 op 1), ready and held back by the serialize schedule");
            EXPECT(cudaGetLastError(), cudaErrorUnknown);
            /* Nothing was lost: once the schedule is given up, both functions run. */
            EXPECT(cudaDeviceSynchronize(), cudaSuccess);
        } else {
            EXPECT(cudaDeviceSynchronize(), cudaSuccess);
        }
    }
    CHECK_EQ(__atomic_load_n(&ran_set, __ATOMIC_SEQ_CST), 1);
    CHECK_EQ(__atomic_load_n(&ran_wait, __ATOMIC_SEQ_CST), 1);
    EXPECT(cudaStreamDestroy(s1), cudaSuccess);
    EXPECT(cudaStreamDestroy(s2), cudaSuccess);
    printf("serialize_hang: %s %s: ok\n", argv[1], argv[2]);
    return 0;
}
