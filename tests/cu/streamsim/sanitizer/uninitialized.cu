// A kernel that reads a cudaMalloc buffer nothing wrote (initcheck). Built with -DCORRECT, a cudaMemset
// writes it first. With -DHALF, a kernel writes the first half and the reader reads it all: the reads of
// the second half are the uninitialized ones. Verdict under STREAMSIM_CHECK=initcheck: one initcheck report
// naming the allocation, and a successful run; the twins none. With -DCOPY, no kernel reads the buffer and a
// cudaMemcpy copies it back to the host: initcheck reports the copy's read.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void half(int *a, int n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 2)
        a[i] = 1;
}

__global__ void sum(const int *a, int *out, int n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(out, a[i]);
}

int main() {
    const int n = 256;
    int *a, *out, total = -1;
    cudaMalloc(&a, n * sizeof(int));
    cudaMalloc(&out, sizeof(int));
    cudaMemset(out, 0, sizeof(int));
#if defined(CORRECT)
    cudaMemset(a, 0, n * sizeof(int));
#elif defined(HALF)
    half<<<2, 128>>>(a, n);
#endif
#if defined(COPY)
    int back[n];
    cudaMemcpy(back, a, sizeof back, cudaMemcpyDeviceToHost);
#else
    sum<<<2, 128>>>(a, out, n);
#endif
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(&total, out, sizeof(int), cudaMemcpyDeviceToHost);
    printf("sync: %d %s\n", (int)e, cudaGetErrorName(e));
    printf("total: %d\n", total);
    return 0;
}
