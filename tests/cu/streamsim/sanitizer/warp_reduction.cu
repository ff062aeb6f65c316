// A warp's sum of 32 values in shared memory, warp-synchronously: each step reads a partner's value and then
// adds it to its own. Built without -DCORRECT, nothing orders the steps (no __syncwarp between the read and the
// write of a step, nor between steps), so lanes read values that other lanes overwrite (racecheck: a hazard
// between two lanes of one warp). Built with -DCORRECT, __syncwarp orders them: no hazard. The kernel also
// shows that threads that do not synchronise with __syncthreads at all are checked (one barrier interval).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void warp_sum(const int *in, int *out) {
    __shared__ int s[32];
    unsigned t = threadIdx.x;
    s[t] = in[t];
    __syncwarp();
    for (unsigned half = 16; half > 0; half /= 2) {
        int v = 0;
        if (t < half)
            v = s[t + half];
#ifdef CORRECT
        __syncwarp();
#endif
        if (t < half)
            s[t] += v;
#ifdef CORRECT
        __syncwarp();
#endif
    }
    if (t == 0)
        *out = s[0];
}

int main() {
    int h[32], *in, *out, sum = 0;
    for (int i = 0; i < 32; i++)
        h[i] = i;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof sum);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    warp_sum<<<1, 32>>>(in, out);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(&sum, out, sizeof sum, cudaMemcpyDeviceToHost);
    printf("sync: %d %s\n", (int)e, cudaGetErrorName(e));
    printf("sum: %d\n", sum);
    return 0;
}
