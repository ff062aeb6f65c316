/*
 * copy_engines.c — the engine model from C (docs/semantics/engine-model.md · Copy engines): two host-to-device
 * copies of 160 000 bytes (2 µs + 10 µs each at 16 GB/s) on two non-blocking streams of the default machine,
 * timed with events from the first stream's start to the second's end (joined back with a stream wait), and a
 * kernel that overlaps a copy. With STREAMSIM_ENGINES=on (the default) the copies share the device's H2D engine
 * and run one after the other; with STREAMSIM_ENGINES=off they overlap. The program prints the two elapsed
 * times; tests/suite/c_runtime_api.rs checks them against the model (each call of a fresh thread acts 1 µs after
 * the previous one, an operation is ready 2 µs after its call).
 */
#include <cuda_runtime.h>
#include <stdio.h>

#include "check.h"

#define BYTES 160000

int main(void) {
    cudaStream_t s1, s2;
    void *d1, *d2, *h;
    cudaEvent_t start, joined, stop;
    EXPECT(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), cudaSuccess); /* t1 */
    EXPECT(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), cudaSuccess); /* t2 */
    EXPECT(cudaMalloc(&d1, BYTES), cudaSuccess);                                /* t3 */
    EXPECT(cudaMalloc(&d2, BYTES), cudaSuccess);                                /* t4 */
    EXPECT(cudaMallocHost(&h, BYTES), cudaSuccess);                             /* t5 */
    EXPECT(cudaEventCreate(&start), cudaSuccess);                               /* t6 */
    EXPECT(cudaEventCreate(&joined), cudaSuccess);                              /* t7 */
    EXPECT(cudaEventCreate(&stop), cudaSuccess);                                /* t8 */
    EXPECT(cudaEventRecord(start, s1), cudaSuccess);                            /* t9: at 11 µs */
    /* t10: ready at 12 µs, 12..24 */
    EXPECT(cudaMemcpyAsync(d1, h, BYTES, cudaMemcpyHostToDevice, s1), cudaSuccess);
    /* t11: ready at 13 µs; the H2D engine is busy until 24: 24..36 (off: 13..25) */
    EXPECT(cudaMemcpyAsync(d2, h, BYTES, cudaMemcpyHostToDevice, s2), cudaSuccess);
    EXPECT(cudaEventRecord(joined, s2), cudaSuccess);    /* t12: 36 (off: 25) */
    EXPECT(cudaStreamWaitEvent(s1, joined, 0), cudaSuccess); /* t13 */
    EXPECT(cudaEventRecord(stop, s1), cudaSuccess);      /* t14: 36 (off: 25) */
    EXPECT(cudaEventSynchronize(stop), cudaSuccess);     /* t15 */
    float ms = 0;
    EXPECT(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
    printf("two H2D copies on two streams: %.3f ms\n", ms);

    /* A 20 µs kernel on s1 and a device-to-host copy on s2, issued together: they overlap whatever the setting
     * (the D2H engine is not the kernel's). */
    EXPECT(cudaEventRecord(start, s1), cudaSuccess);
    EXPECT(cudasimLaunchKernel(s1, "k", 20000, NULL, NULL), cudaSuccess);
    EXPECT(cudaMemcpyAsync(h, d1, BYTES, cudaMemcpyDeviceToHost, s2), cudaSuccess);
    EXPECT(cudaEventRecord(joined, s2), cudaSuccess);
    EXPECT(cudaStreamWaitEvent(s1, joined, 0), cudaSuccess);
    EXPECT(cudaEventRecord(stop, s1), cudaSuccess);
    EXPECT(cudaEventSynchronize(stop), cudaSuccess);
    EXPECT(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
    printf("a kernel and a D2H copy on two streams: %.3f ms\n", ms);

    EXPECT(cudaFreeHost(h), cudaSuccess);
    EXPECT(cudaFree(d1), cudaSuccess);
    EXPECT(cudaFree(d2), cudaSuccess);
    return 0;
}
