/*
 * A racy two-stream program whose kernels compute on device memory (cudasimLaunchKernelCtx): `produce` on
 * stream 1 writes buf[i] = i + 1, `consume` on stream 2 copies buf into out — with no event between them, the
 * bug. On hardware `consume` may read buf before, while or after `produce` writes it; so it may here.
 *
 *   racy_kernels fixed   the fix (record an event on stream 1 after produce, stream 2 waits on it): every
 *                        element of out is i + 1.
 *   racy_kernels forced  the bug, with the schedule that shows it forced (produce's body waits until consume's
 *                        body has run, through a host-side flag the simulator does not see): every element of
 *                        out is stale (0), every element of buf is i + 1.
 *   racy_kernels racy    the bug as the OS schedules it: each element of out is 0 or i + 1 (never anything
 *                        else); prints how many are stale, which varies between runs.
 *
 * Which schedule a run of the bug gets is decided by the OS threads that run the two streams, not by the
 * seed, so the wrong data cannot be made deterministic without forcing it; the race itself is reported
 * deterministically by the race detector (asserted in tests/suite/c_kernels.rs through the same C calls).
 */
#include <cuda_runtime.h>
#include <time.h>

#include "check.h"

#define N 4096

typedef struct Shared {
    int *buf;
    int *out;
    int force;            /* forced mode: produce waits for consume */
    int consumed;         /* set by consume's body (host-side, invisible to the simulator) */
    int produce_code;
    int consume_code;
    int produce_waited_out; /* forced mode: consume never ran */
} Shared;

static void produce(streamsimKernelCtx *ctx, void *arg) {
    Shared *s = (Shared *)arg;
    if (s->force) {
        time_t start = time(NULL);
        while (!__atomic_load_n(&s->consumed, __ATOMIC_ACQUIRE)) {
            if (time(NULL) - start > 20) {
                s->produce_waited_out = 1;
                break;
            }
        }
    }
    void *m = NULL;
    s->produce_code = streamsimKernelMap(ctx, s->buf, N * sizeof(int), &m);
    if (m != NULL) {
        for (int i = 0; i < N; i++) {
            ((int *)m)[i] = i + 1;
        }
    }
}

static void consume(streamsimKernelCtx *ctx, void *arg) {
    Shared *s = (Shared *)arg;
    void *in = NULL, *out = NULL;
    s->consume_code = streamsimKernelMap(ctx, s->buf, N * sizeof(int), &in);
    if (s->consume_code == STREAMSIM_SUCCESS) {
        s->consume_code = streamsimKernelMap(ctx, s->out, N * sizeof(int), &out);
    }
    if (s->consume_code == STREAMSIM_SUCCESS) {
        memcpy(out, in, N * sizeof(int));
    }
    __atomic_store_n(&s->consumed, 1, __ATOMIC_RELEASE);
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "racy";
    int fixed = strcmp(mode, "fixed") == 0, forced = strcmp(mode, "forced") == 0;
    CHECK(fixed || forced || strcmp(mode, "racy") == 0);

    static Shared s;
    s.force = forced;
    EXPECT(cudaMalloc((void **)&s.buf, N * sizeof(int)), cudaSuccess);
    EXPECT(cudaMalloc((void **)&s.out, N * sizeof(int)), cudaSuccess);
    EXPECT(cudaMemset(s.buf, 0, N * sizeof(int)), cudaSuccess);
    cudaStream_t stream1, stream2;
    EXPECT(cudaStreamCreate(&stream1), cudaSuccess);
    EXPECT(cudaStreamCreate(&stream2), cudaSuccess);
    cudaEvent_t produced;
    EXPECT(cudaEventCreateWithFlags(&produced, cudaEventDisableTiming), cudaSuccess);

    streamsimAccess writes_buf = {s.buf, N * sizeof(int), STREAMSIM_ACCESS_WRITE};
    streamsimAccess consume_acc[2] = {{s.buf, N * sizeof(int), STREAMSIM_ACCESS_READ},
                                      {s.out, N * sizeof(int), STREAMSIM_ACCESS_WRITE}};
    /* produce<<<…, stream1>>>(buf): 500 µs of virtual time */
    EXPECT(cudasimLaunchKernelCtx(stream1, "produce", 500000, produce, &s, &writes_buf, 1), cudaSuccess);
    if (fixed) {
        EXPECT(cudaEventRecord(produced, stream1), cudaSuccess);
        EXPECT(cudaStreamWaitEvent(stream2, produced, 0), cudaSuccess);
    }
    /* consume<<<…, stream2>>>(buf, out) */
    EXPECT(cudasimLaunchKernelCtx(stream2, "consume", 10000, consume, &s, consume_acc, 2), cudaSuccess);
    EXPECT(cudaStreamSynchronize(stream1), cudaSuccess);
    EXPECT(cudaStreamSynchronize(stream2), cudaSuccess);
    CHECK_EQ(s.produce_code, STREAMSIM_SUCCESS);
    CHECK_EQ(s.consume_code, STREAMSIM_SUCCESS);
    CHECK_EQ(s.produce_waited_out, 0);

    static int out[N], buf[N];
    EXPECT(cudaMemcpy(out, s.out, sizeof out, cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT(cudaMemcpy(buf, s.buf, sizeof buf, cudaMemcpyDeviceToHost), cudaSuccess);
    int stale = 0;
    for (int i = 0; i < N; i++) {
        CHECK_EQ(buf[i], i + 1);
        CHECK(out[i] == 0 || out[i] == i + 1);
        stale += out[i] == 0;
    }
    if (fixed) {
        CHECK_EQ(stale, 0);
        printf("fixed: every element is fresh\n");
    } else if (forced) {
        CHECK_EQ(stale, N);
        printf("forced: every element is stale\n");
    } else {
        printf("racy: %d of %d elements stale\n", stale, N);
    }
    return 0;
}
