// A 4-byte store at an address 2 bytes into an allocation. Built with -DCORRECT, at 4 bytes in. Verdict:
// cudaErrorMisalignedAddress (716) at the synchronize, and a memcheck report.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void store(char *a, int at) { *(int *)(a + at) = 1; }

int main() {
    char *a;
    cudaMalloc(&a, 64);
#ifdef CORRECT
    store<<<1, 1>>>(a, 4);
#else
    store<<<1, 1>>>(a, 2);
#endif
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %d %s\n", (int)e, cudaGetErrorName(e));
    return 0;
}
