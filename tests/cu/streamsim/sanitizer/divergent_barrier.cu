// A __syncthreads that half the block does not reach (synccheck). Built with -DCORRECT, every thread reaches
// it. Verdict under STREAMSIM_CHECK=synccheck: a synccheck report and cudaErrorLaunchFailure (719).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void halves(int *a) {
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
#ifdef CORRECT
    __syncthreads();
#else
    if (threadIdx.x < 32)
        __syncthreads();
#endif
    a[threadIdx.x] = s[63 - threadIdx.x];
}

int main() {
    int *a;
    cudaMalloc(&a, 64 * sizeof(int));
    halves<<<1, 64>>>(a);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %d %s\n", (int)e, cudaGetErrorName(e));
    return 0;
}
