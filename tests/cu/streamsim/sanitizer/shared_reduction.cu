// A shared-memory sum of each block's 64 values that leaves out the __syncthreads between filling the
// shared array and the first step of the tree (racecheck). Built with -DCORRECT, the barrier is there.
// Verdict under STREAMSIM_CHECK=racecheck: one racecheck report (a read-after-write hazard on shared memory,
// naming both threads) and a successful run; the correct twin none. With -DREPORTS, the program reads the
// reports back through streamsim.h's C API.
#include <cstdio>
#include <cuda_runtime.h>
#ifdef REPORTS
#include <streamsim.h>
#endif

__global__ void block_sum(const int *in, int *out) {
    __shared__ int s[64];
    unsigned t = threadIdx.x;
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
    int h[128], *in, *out, sums[2];
    for (int i = 0; i < 128; i++)
        h[i] = i;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof sums);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    block_sum<<<2, 64>>>(in, out);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(sums, out, sizeof sums, cudaMemcpyDeviceToHost);
    printf("sync: %d %s\n", (int)e, cudaGetErrorName(e));
    printf("sums: %d %d\n", sums[0], sums[1]);
#ifdef REPORTS
    char text[512];
    int n = streamsimCheckReportText(0, text, sizeof text);
    printf("reports: %llu, the first %d bytes: %s\n", (unsigned long long)streamsimCheckReportCount(), n, text);
    printf("past the last: %d\n", streamsimCheckReportText(1, text, sizeof text));
#endif
    return 0;
}
