// The shared-memory reduction of shared_reduction.cu done in a global scratch buffer (each block its own
// 64 ints), with the same missing __syncthreads (racecheck on global memory, between threads of one block).
// Built with -DCORRECT, the barrier is there. The blocks write disjoint parts of the scratch buffer and the
// output, so racecheck between blocks finds nothing there.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void block_sum(const int *in, int *scratch, int *out) {
    unsigned t = threadIdx.x;
    int *s = scratch + blockIdx.x * blockDim.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
#ifdef CORRECT
    __syncthreads();
#endif
    for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
        if (t < half)
            s[t] += s[t + half];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

int main() {
    int h[128], *in, *scratch, *out, sums[2];
    for (int i = 0; i < 128; i++)
        h[i] = i;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&scratch, sizeof h);
    cudaMalloc(&out, sizeof sums);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    block_sum<<<2, 64>>>(in, scratch, out);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(sums, out, sizeof sums, cudaMemcpyDeviceToHost);
    printf("sync: %d %s\n", (int)e, cudaGetErrorName(e));
    printf("sums: %d %d\n", sums[0], sums[1]);
    return 0;
}
