// A kernel writes a cudaMallocManaged buffer and the host reads its first element before synchronizing: the
// host's load may run while the kernel still writes (a race, naming the kernel's block and thread and the
// host's load); -DCORRECT synchronizes the device first (none). Both print the buffer's last element after
// synchronizing, so the output is the same whenever the kernel ran.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void produce(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = (float)i;
}

int main() {
    const int n = 1024;
    float *a;
    cudaMallocManaged(&a, n * sizeof(float));
    produce<<<n / 256, 256>>>(a, n);
#ifdef CORRECT
    cudaError_t e = cudaDeviceSynchronize();
#endif
    volatile float first = a[0];
#ifndef CORRECT
    cudaError_t e = cudaDeviceSynchronize();
#endif
    printf("sync: %d %s\n", (int)e, cudaGetErrorName(e));
    printf("a[%d] = %g\n", n - 1, a[n - 1]);
    (void)first;
    cudaFree(a);
    return 0;
}
