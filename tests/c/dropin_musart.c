/*
 * A MUSA host program (no kernels) linked with -lmusart, run by `streamsim exec` on the drop-in libmusart.so.4
 * (tests/suite/dropin.rs): copies timed with events on two streams, the second waiting on the first, each code
 * checked.
 */
#include <stdio.h>

#include <musa_runtime.h>

#include "check.h"

#define N 4096

int main(void) {
    int count = 0;
    EXPECT(musaGetDeviceCount(&count), musaSuccess);
    CHECK_EQ(count, 1);
    unsigned char *host, *back_host, *dev;
    EXPECT(musaMallocHost((void **)&host, N), musaSuccess);
    EXPECT(musaMallocHost((void **)&back_host, N), musaSuccess);
    EXPECT(musaMalloc((void **)&dev, N), musaSuccess);
    for (int i = 0; i < N; i++) {
        host[i] = (unsigned char)i;
        back_host[i] = 0;
    }
    musaStream_t a, b;
    EXPECT(musaStreamCreate(&a), musaSuccess);
    EXPECT(musaStreamCreate(&b), musaSuccess);
    musaEvent_t start, copied, back;
    EXPECT(musaEventCreate(&start), musaSuccess);
    EXPECT(musaEventCreate(&copied), musaSuccess);
    EXPECT(musaEventCreate(&back), musaSuccess);
    EXPECT(musaEventRecord(start, a), musaSuccess);
    EXPECT(musaMemcpyAsync(dev, host, N, musaMemcpyHostToDevice, a), musaSuccess);
    EXPECT(musaEventRecord(copied, a), musaSuccess);
    EXPECT(musaStreamWaitEvent(b, copied, 0), musaSuccess);
    EXPECT(musaMemcpyAsync(back_host, dev, N, musaMemcpyDeviceToHost, b), musaSuccess);
    EXPECT(musaEventRecord(back, b), musaSuccess);
    EXPECT(musaEventSynchronize(back), musaSuccess);
    for (int i = 0; i < N; i++) {
        CHECK_EQ(back_host[i], (unsigned char)i);
    }
    float ms = -1;
    EXPECT(musaEventElapsedTime(&ms, start, back), musaSuccess);
    printf("copy there and back on two streams: %.6f ms\n", ms);
    EXPECT(musaEventElapsedTime(&ms, back, NULL), musaErrorInvalidResourceHandle);
    EXPECT(musaFree(dev), musaSuccess);
    EXPECT(musaFreeHost(host), musaSuccess);
    EXPECT(musaFreeHost(back_host), musaSuccess);
    printf("dropin_musart: ok\n");
    return 0;
}
