/*
 * cuda_cxx_overloads.c — the C++ API of cuda_runtime.h and musa_runtime.h (the overloads and templates CUDA 12's
 * cuda_runtime.h has), with exact results: cudaEventCreate(&e, flags), cudaMallocHost(&p, size, flags),
 * cudaMalloc / cudaMallocHost / cudaHostAlloc / cudaHostGetDevicePointer on T **, the occupancy templates and
 * cudaOccupancyMaxPotentialBlockSize on the default profile (108 SMs, 1024 threads per block, 2048 threads and
 * 32 blocks per SM, 48 KiB of shared memory per block, 164 KiB per SM, 1 KiB of it reserved per block, allocated
 * in 128-byte units). Built as C11 it checks the C calls the
 * templates stand on; as C++17 also the templates. A CUDART_CB callback is registered in both.
 */
#include <stdint.h>
#include <string.h>

#include <cuda_runtime.h>
#include <musa_runtime.h>

#include "check.h"

static int callback_calls = 0;
static cudaError_t callback_status = cudaErrorUnknown;

static void CUDART_CB on_done(cudaStream_t stream, cudaError_t status, void *data) {
    (void)stream;
    callback_status = status;
    *(int *)data += 1;
}

/* Stands for a kernel: the occupancy calls take any non-NULL function. */
static void kernel_body(void *arg) { (void)arg; }

static void c_api(void) {
    cudaStream_t s;
    EXPECT(cudaStreamCreate(&s), cudaSuccess);
    EXPECT(cudaStreamAddCallback(s, on_done, &callback_calls, 0), cudaSuccess);
    EXPECT(cudaStreamSynchronize(s), cudaSuccess);
    CHECK_EQ(callback_calls, 1);
    CHECK_EQ(callback_status, cudaSuccess);
    int n = -1;
    EXPECT(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)(uintptr_t)kernel_body, 256, 0),
           cudaSuccess);
    CHECK_EQ(n, 8);
    EXPECT(cudaStreamDestroy(s), cudaSuccess);
    puts("c api: ok");
}

#ifdef __cplusplus
template <class Occupancy> static void potential(Occupancy occupancy, int want_grid, int want_block) {
    int grid = -1, block = -1;
    EXPECT(occupancy(&grid, &block), cudaSuccess);
    CHECK_EQ(grid, want_grid);
    CHECK_EQ(block, want_block);
}

static size_t smem_per_warp(int block) { return (size_t)((block + 31) / 32) * 4096; }

static void cxx_api(void) {
    cudaEvent_t e;
    EXPECT(cudaEventCreate(&e, cudaEventDisableTiming), cudaSuccess);
    EXPECT(cudaEventRecord(e), cudaSuccess);
    EXPECT(cudaEventSynchronize(e), cudaSuccess);
    float ms = 0;
    EXPECT(cudaEventElapsedTime(&ms, e, e), cudaErrorInvalidResourceHandle); /* timing disabled */
    EXPECT(cudaEventDestroy(e), cudaSuccess);

    void *raw = NULL;
    EXPECT(cudaMallocHost(&raw, 64, cudaHostAllocMapped), cudaSuccess);
    EXPECT(cudaMallocHost(&raw, 64, 0x10u), cudaErrorInvalidValue);
    int *pinned = NULL, *mapped = NULL, *dev = NULL, *through = NULL;
    EXPECT(cudaMallocHost(&pinned, 64 * sizeof(int)), cudaSuccess);
    EXPECT(cudaHostAlloc(&mapped, 64 * sizeof(int), cudaHostAllocMapped), cudaSuccess);
    EXPECT(cudaMalloc(&dev, 64 * sizeof(int)), cudaSuccess);
    EXPECT(cudaHostGetDevicePointer(&through, mapped, 0), cudaSuccess);
    CHECK(through == mapped);
    cudaPointerAttributes a;
    EXPECT(cudaPointerGetAttributes(&a, dev), cudaSuccess);
    CHECK_EQ(a.type, cudaMemoryTypeDevice);
    EXPECT(cudaPointerGetAttributes(&a, raw), cudaSuccess);
    CHECK_EQ(a.type, cudaMemoryTypeHost);

    int n = -1;
    EXPECT(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel_body, 1024, 0), cudaSuccess);
    CHECK_EQ(n, 2);
    /* 48 KiB + the 1 KiB reserved = 49 KiB a block: 164 KiB / 49 KiB = 3. */
    EXPECT(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, kernel_body, 64, 49152, 0), cudaSuccess);
    CHECK_EQ(n, 3);
    /* 1024 threads: 2 blocks = 2048 resident threads, the most an SM holds: the search stops there. */
    potential([](int *g, int *b) { return cudaOccupancyMaxPotentialBlockSize(g, b, kernel_body); }, 2 * 108,
              1024);
    potential([](int *g, int *b) { return cudaOccupancyMaxPotentialBlockSize(g, b, kernel_body, 49152); },
              2 * 108, 1024);
    /* Over a block's 48 KiB at every size: no block fits. */
    potential([](int *g, int *b) { return cudaOccupancyMaxPotentialBlockSize(g, b, kernel_body, 49153); }, 0, 0);
    /* Limit 100: 100 → 16 blocks (1600 threads), 96 → 21 (2016), 64 → 32 blocks = 2048: stop. */
    potential([](int *g, int *b) { return cudaOccupancyMaxPotentialBlockSize(g, b, kernel_body, 0, 100); },
              32 * 108, 64);
    /* 4 KiB per warp, plus the 1 KiB reserved per block, against 48 + 1 KiB a block and 164 KiB an SM: 1024
     * threads → 129 KiB: no block; … 416 → 53 KiB: none; 384 → 49 KiB: 3 blocks (1152); 352 → 45 KiB: 3 (1056);
     * 320 → 41 KiB: 4 blocks = 164 KiB (1280); 288 → 37 KiB: 4 (1152); 256 → 33 KiB: 4 (1024); 224 → 29 KiB: 5
     * (1120); 192 → 25 KiB: 6 (1152); 160 → 21 KiB: 7 (1120); 128 → 17 KiB: 9 (1152); 96 → 13 KiB: 12 (1152);
     * 64 → 9 KiB: 18 (1152); 32 → 5 KiB: 32 blocks, the SM's limit (1024). The most threads: 320. */
    potential(
        [](int *g, int *b) {
            return cudaOccupancyMaxPotentialBlockSizeVariableSMem(g, b, kernel_body, smem_per_warp);
        },
        4 * 108, 320);
    potential([](int *g, int *b) { return cudaOccupancyMaxPotentialBlockSizeWithFlags(g, b, kernel_body, 0, 0, 0); },
              2 * 108, 1024);
    int grid = 0;
    EXPECT(cudaOccupancyMaxPotentialBlockSize(&grid, (int *)NULL, kernel_body), cudaErrorInvalidValue);

    EXPECT(cudaFreeHost(raw), cudaSuccess);
    EXPECT(cudaFreeHost(pinned), cudaSuccess);
    EXPECT(cudaFreeHost(mapped), cudaSuccess);
    EXPECT(cudaFree(dev), cudaSuccess);

    /* The MUSA twins. */
    musaEvent_t me;
    EXPECT(musaEventCreate(&me, musaEventBlockingSync), musaSuccess);
    EXPECT(musaEventDestroy(me), musaSuccess);
    float *mp = NULL;
    EXPECT(musaMallocHost(&mp, 16 * sizeof(float)), musaSuccess);
    EXPECT(musaFreeHost(mp), musaSuccess);
    potential([](int *g, int *b) { return musaOccupancyMaxPotentialBlockSize(g, b, kernel_body); }, 2 * 108, 1024);
    puts("cxx overloads: ok");
}
#endif

int main(void) {
    c_api();
#ifdef __cplusplus
    cxx_api();
#endif
    return 0;
}
