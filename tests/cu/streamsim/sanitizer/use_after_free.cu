// Use after cudaFree (and, with -DASYNC, after cudaFreeAsync on the kernel's own stream). Built with
// -DCORRECT, the twin frees after the kernel. Verdict: cudaErrorIllegalAddress (700) and a memcheck report.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void inc(int *a) { a[threadIdx.x] += 1; }

int main() {
    int *a;
    cudaStream_t s;
    cudaStreamCreate(&s);
#ifdef ASYNC
    cudaMallocAsync(&a, 1000, s);
    cudaMemsetAsync(a, 0, 1000, s);
#ifndef CORRECT
    cudaFreeAsync(a, s);
#endif
    inc<<<1, 32, 0, s>>>(a);
#ifdef CORRECT
    cudaFreeAsync(a, s);
#endif
#else
    cudaMalloc(&a, 1000);
    cudaMemset(a, 0, 1000);
#ifndef CORRECT
    cudaFree(a);
#endif
    inc<<<1, 32, 0, s>>>(a);
#ifdef CORRECT
    cudaStreamSynchronize(s);
    cudaFree(a);
#endif
#endif
    cudaError_t e = cudaStreamSynchronize(s);
    printf("sync: %d %s\n", (int)e, cudaGetErrorName(e));
    return 0;
}
