// A kernel on device 0 writing memory of device 1 (run with STREAMSIM_DEVICES=2). Without peer access from
// device 0 to device 1 the kernel faults: cudaErrorIllegalAddress (700) and a memcheck report. Built with
// -DCORRECT, the twin enables peer access first (or, with -DPOOL, gives device 0 access to the pool).
//   -DDISABLE  peer access is enabled, then disabled again before the launch
//   -DPOOL     the buffer comes from a memory pool of device 1 (cudaMallocFromPoolAsync); peer access is
//              enabled, which does not reach pool memory; the twin calls cudaMemPoolSetAccess
//   -DHOST     the buffer is managed memory and the result pinned host memory: every device reaches them
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(int *a, int v) { a[threadIdx.x] = v + threadIdx.x; }

int main() {
    int *a;
    cudaSetDevice(1);
#if defined(POOL)
    cudaStream_t s1;
    cudaStreamCreate(&s1);
    cudaMemPool_t pool;
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 1;
    cudaMemPoolCreate(&pool, &props);
    cudaMallocFromPoolAsync((void **)&a, 4096, pool, s1);
    cudaStreamSynchronize(s1);
#elif defined(HOST)
    cudaMallocManaged(&a, 4096);
#else
    cudaMalloc(&a, 4096);
#endif
    cudaSetDevice(0);
#if defined(POOL)
    cudaDeviceEnablePeerAccess(1, 0);
#ifdef CORRECT
    cudaMemAccessDesc desc = {};
    desc.location.type = cudaMemLocationTypeDevice;
    desc.location.id = 0;
    desc.flags = cudaMemAccessFlagsProtReadWrite;
    cudaMemPoolSetAccess(pool, &desc, 1);
#endif
#elif defined(DISABLE)
    cudaDeviceEnablePeerAccess(1, 0);
#ifndef CORRECT
    cudaDeviceDisablePeerAccess(1);
#endif
#elif defined(CORRECT)
    cudaDeviceEnablePeerAccess(1, 0);
#endif
    fill<<<1, 32>>>(a, 7);
#if defined(HOST)
    int *h;
    cudaMallocHost(&h, 4096);
    fill<<<1, 32>>>(h, 7);
#endif
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %d %s\n", (int)e, cudaGetErrorName(e));
    if (e == cudaSuccess) {
        int out[32];
        cudaMemcpy(out, a, sizeof out, cudaMemcpyDefault);
        printf("a[31] = %d\n", out[31]);
#if defined(HOST)
        printf("h[31] = %d\n", h[31]);
#endif
    }
    return 0;
}
