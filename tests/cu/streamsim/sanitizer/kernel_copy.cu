// A kernel and a copy or memset on two streams with no order between them. MODE 0: a kernel on one stream
// writes the buffer and a cudaMemcpyAsync on the other copies it out with no event between them (a race);
// MODE 1: a cudaMemsetAsync on one stream writes the buffer that a kernel on the other reads (a race, the
// memset first); -DCORRECT records an event after the first and makes the other stream wait for it (none).
// MODE 2: the kernel writes the first half and the copy reads the second (none). MODE 3: a kernel on a
// non-blocking stream, then a synchronous cudaMemcpy on the legacy default stream, which does not wait for
// a non-blocking stream (a race); -DCORRECT launches on a blocking stream, which it waits for (none).
// MODE 4: a copy into the buffer on one stream, a kernel writing it on the other, then a memset on the first
// stream that overwrites the copy's bytes (two races: the copy and the kernel, the kernel and the memset);
// the host sleeps before the memset, so that the kernel has most likely run by then under the default
// schedule, and has not under the serialize schedule (kernels run only while the host waits): the verdicts
// are the same. -DCORRECT orders the three with events (none). MODE 5: cudaMallocAsync on one stream, a
// kernel writing the memory on the other, cudaFreeAsync back on the first, with no event between them (a use
// before allocation and a use after free, each naming the kernel); -DCORRECT orders them with events (none).
// MODE 6: MODE 0 on managed memory (cudaMallocManaged): the kernel's writes to it are tracked as device
// memory's (a race); -DCORRECT records the event (none).
#include <cstdio>
#include <unistd.h>
#include <cuda_runtime.h>

#ifndef MODE
#define MODE 0
#endif

__global__ void produce(float *a, int from, int n) {
    int i = from + blockIdx.x * blockDim.x + threadIdx.x;
    if (i < from + n)
        a[i] = (float)i;
}

__global__ void twice(const float *a, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a[i] * 2.0f;
}

int main() {
    const int n = 1024;
    float *a, *out, *host;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMallocHost(&host, n * sizeof(float));
    cudaStream_t s1, s2;
#if MODE == 3 && defined(CORRECT)
    cudaStreamCreate(&s1);
#else
    cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
#endif
    cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
    cudaEvent_t done;
    cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
#if MODE == 0
    produce<<<n / 256, 256, 0, s1>>>(a, 0, n);
#ifdef CORRECT
    cudaEventRecord(done, s1);
    cudaStreamWaitEvent(s2, done, 0);
#endif
    cudaMemcpyAsync(host, a, n * sizeof(float), cudaMemcpyDeviceToHost, s2);
#elif MODE == 1
    cudaMemsetAsync(a, 0, n * sizeof(float), s1);
#ifdef CORRECT
    cudaEventRecord(done, s1);
    cudaStreamWaitEvent(s2, done, 0);
#endif
    twice<<<n / 256, 256, 0, s2>>>(a, out, n);
#elif MODE == 2
    produce<<<n / 2 / 256, 256, 0, s1>>>(a, 0, n / 2);
    cudaMemcpyAsync(host, a + n / 2, n / 2 * sizeof(float), cudaMemcpyDeviceToHost, s2);
#elif MODE == 3
    produce<<<n / 256, 256, 0, s1>>>(a, 0, n);
    cudaMemcpy(host, a, n * sizeof(float), cudaMemcpyDeviceToHost);
#elif MODE == 4
    cudaMemcpyAsync(a, host, n * sizeof(float), cudaMemcpyHostToDevice, s2);
#ifdef CORRECT
    cudaEventRecord(done, s2);
    cudaStreamWaitEvent(s1, done, 0);
#endif
    produce<<<n / 256, 256, 0, s1>>>(a, 0, n);
#ifdef CORRECT
    cudaEvent_t done2;
    cudaEventCreateWithFlags(&done2, cudaEventDisableTiming);
    cudaEventRecord(done2, s1);
    cudaStreamWaitEvent(s2, done2, 0);
#endif
    usleep(200000);
    cudaMemsetAsync(a, 0, n * sizeof(float), s2);
#elif MODE == 5
    float *b;
    cudaMallocAsync(&b, n * sizeof(float), s1);
#ifdef CORRECT
    cudaEventRecord(done, s1);
    cudaStreamWaitEvent(s2, done, 0);
#endif
    produce<<<n / 256, 256, 0, s2>>>(b, 0, n);
#ifdef CORRECT
    cudaEvent_t done2;
    cudaEventCreateWithFlags(&done2, cudaEventDisableTiming);
    cudaEventRecord(done2, s2);
    cudaStreamWaitEvent(s1, done2, 0);
#endif
    cudaFreeAsync(b, s1);
#elif MODE == 6
    float *m;
    cudaMallocManaged(&m, n * sizeof(float));
    produce<<<n / 256, 256, 0, s1>>>(m, 0, n);
#ifdef CORRECT
    cudaEventRecord(done, s1);
    cudaStreamWaitEvent(s2, done, 0);
#endif
    cudaMemcpyAsync(host, m, n * sizeof(float), cudaMemcpyDefault, s2);
#endif
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %d %s\n", (int)e, cudaGetErrorName(e));
    return 0;
}
