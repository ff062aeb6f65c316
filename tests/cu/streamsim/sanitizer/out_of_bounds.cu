// Out of bounds by one: the grid covers n + 1 elements and the kernel does not check its index.
// Built with -DCORRECT, the twin checks it. Verdict: cudaErrorIllegalAddress (700) at the synchronize, and a
// memcheck report naming the thread and the allocation.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef CORRECT
    if (i >= n)
        return;
#else
    if (i > n)
        return;
#endif
    a[i] = 1.0f;
}

int main() {
    const int n = 1000;
    float *a;
    cudaMalloc(&a, n * sizeof(float));
    fill<<<4, 256>>>(a, n);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %d %s\n", (int)e, cudaGetErrorName(e));
    return 0;
}
