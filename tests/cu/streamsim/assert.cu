// A failing device-side assert: CUDA's message on standard error, then cudaErrorAssert (710), sticky.
#include <cassert>
#include <cstdio>

__global__ void checked(const int *v) {
    if (threadIdx.x == 3) assert(*v > 0);
}

int main() {
    int *d, zero = 0;
    cudaMalloc(&d, sizeof zero);
    cudaMemcpy(d, &zero, sizeof zero, cudaMemcpyHostToDevice);
    checked<<<2, 8>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %d %s\n", (int)e, cudaGetErrorName(e));
    e = cudaMemcpy(&zero, d, sizeof zero, cudaMemcpyDeviceToHost);
    printf("after: %d %s\n", (int)e, cudaGetErrorName(e));
    return e == cudaErrorAssert ? 0 : 1;
}
