// Out of bounds by one: the grid covers n + 1 elements and the kernel does not check its index.
// Built with -DCORRECT, the twin checks it. Verdict: cudaErrorIllegalAddress (700) at the synchronize, and a
// memcheck report naming the thread and the allocation. With -DNEIGHBOUR, 1024 elements (a multiple of 256 bytes)
// and a second allocation made right after: the element past the end is in the guard that follows every
// allocation, not in the neighbour, so the verdict is the same.
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
#ifdef NEIGHBOUR
    const int n = 1024;
#else
    const int n = 1000;
#endif
    float *a;
    cudaMalloc(&a, n * sizeof(float));
#ifdef NEIGHBOUR
    float *b;
    cudaMalloc(&b, n * sizeof(float));
#endif
    fill<<<5, 256>>>(a, n);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %d %s\n", (int)e, cudaGetErrorName(e));
    return 0;
}
