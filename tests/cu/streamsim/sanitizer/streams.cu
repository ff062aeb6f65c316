// Kernels on two streams with no order between them. MODE 0: a producer writes the buffer, a consumer on
// the other stream reads it with no event between them (a race); -DCORRECT records an event after the
// producer and makes the consumer's stream wait for it (none). MODE 1: two kernels write disjoint halves
// (none); MODE 2: their halves overlap by one element (a race on 4 bytes).
#include <cstdio>
#include <cuda_runtime.h>

#ifndef MODE
#define MODE 0
#endif

__global__ void produce(float *a, int from, int n) {
    int i = from + blockIdx.x * blockDim.x + threadIdx.x;
    if (i < from + n)
        a[i] = (float)i;
}

__global__ void consume(const float *a, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a[i] * 2.0f;
}

int main() {
    const int n = 4096;
    float *a, *out;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaStream_t s1, s2;
    cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
#if MODE == 0
    produce<<<n / 256, 256, 0, s1>>>(a, 0, n);
#ifdef CORRECT
    cudaEvent_t done;
    cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
    cudaEventRecord(done, s1);
    cudaStreamWaitEvent(s2, done, 0);
#endif
    consume<<<n / 256, 256, 0, s2>>>(a, out, n);
#elif MODE == 1
    produce<<<n / 2 / 256, 256, 0, s1>>>(a, 0, n / 2);
    produce<<<n / 2 / 256, 256, 0, s2>>>(a, n / 2, n / 2);
#else
    produce<<<n / 2 / 256 + 1, 256, 0, s1>>>(a, 0, n / 2 + 1);
    produce<<<n / 2 / 256, 256, 0, s2>>>(a, n / 2, n / 2);
#endif
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %d %s\n", (int)e, cudaGetErrorName(e));
    return 0;
}
