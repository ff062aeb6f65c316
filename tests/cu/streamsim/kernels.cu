// Kernels as written, run on the CPU by `streamsim cc`: each check prints its result and the program exits
// non-zero on the first mismatch (tests/suite/cc_programs.rs runs it and compares the output).
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK(call, want)                                                                                  \
    do {                                                                                                   \
        int got_ = (int)(call);                                                                            \
        if (got_ != (want)) {                                                                              \
            printf("FAIL line %d: %s = %d, want %d\n", __LINE__, #call, got_, (int)(want));               \
            exit(1);                                                                                       \
        }                                                                                                  \
    } while (0)

__constant__ float scale[2];
__device__ int counter;

__global__ void saxpy(const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = scale[0] * x[i] + y[i];
    atomicAdd(&counter, 1);
}

__global__ void block_sum(const int *in, int *out) {
    __shared__ int s[256];
    s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k /= 2) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

__global__ void warp_sum(int *out) {
    int v = threadIdx.x;
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    unsigned even = __ballot_sync(0xffffffffu, threadIdx.x % 2 == 0);
    if (threadIdx.x % 32 == 0) {
        out[threadIdx.x / 32] = v;
        printf("warp %d: sum %d, ballot %08x\n", threadIdx.x / 32, v, even);
    }
}

extern __shared__ float dyn[];
__global__ void reverse(float *a, int n) {
    dyn[threadIdx.x] = a[threadIdx.x];
    __syncthreads();
    a[threadIdx.x] = dyn[n - 1 - threadIdx.x];
}

__global__ void poke(int *p) { p[threadIdx.x] = 1; }

__global__ void add_one(int *count) { atomicAdd(count, 1); }

__global__ void big_shared(char *out) {
    __shared__ char big[40000];
    big[threadIdx.x] = (char)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = big[31 - threadIdx.x];
}

__global__ void checked(int v) { assert(v > 0); }

int main() {
    const int n = 1000;
    float hx[n], hy[n];
    for (int i = 0; i < n; i++) {
        hx[i] = (float)i;
        hy[i] = 1.0f;
    }
    float *x, *y;
    CHECK(cudaMalloc(&x, sizeof hx), cudaSuccess);
    CHECK(cudaMalloc(&y, sizeof hy), cudaSuccess);
    CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice), cudaSuccess);
    CHECK(cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice), cudaSuccess);
    float sc[2] = {2.0f, 0.0f};
    CHECK(cudaMemcpyToSymbol(scale, sc, sizeof sc), cudaSuccess);
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s), cudaSuccess);
    saxpy<<<(n + 127) / 128, 128, 0, s>>>(x, y, n);
    CHECK(cudaGetLastError(), cudaSuccess);
    CHECK(cudaMemcpyAsync(hy, y, sizeof hy, cudaMemcpyDeviceToHost, s), cudaSuccess);
    CHECK(cudaStreamSynchronize(s), cudaSuccess);
    for (int i = 0; i < n; i++) CHECK(hy[i], 2 * i + 1);
    int launched = 0;
    CHECK(cudaMemcpyFromSymbol(&launched, counter, sizeof launched), cudaSuccess);
    CHECK(launched, 1024);
    printf("saxpy: ok, %d threads\n", launched);

    int hin[1024], hout[4];
    for (int i = 0; i < 1024; i++) hin[i] = i;
    int *din, *dout;
    CHECK(cudaMalloc(&din, sizeof hin), cudaSuccess);
    CHECK(cudaMalloc(&dout, sizeof hout), cudaSuccess);
    CHECK(cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice), cudaSuccess);
    block_sum<<<4, 256>>>(din, dout);
    CHECK(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int b = 0; b < 4; b++) CHECK(hout[b], 256 * 256 * b + 255 * 256 / 2);
    printf("block_sum: ok\n");

    warp_sum<<<1, 64>>>(dout);
    CHECK(cudaMemcpy(hout, dout, 2 * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK(hout[0], 31 * 32 / 2);
    CHECK(hout[1], (32 + 63) * 32 / 2);

    float r[64];
    for (int i = 0; i < 64; i++) r[i] = (float)i;
    CHECK(cudaMemcpy(x, r, sizeof r, cudaMemcpyHostToDevice), cudaSuccess);
    reverse<<<1, 64, 64 * sizeof(float)>>>(x, 64);
    CHECK(cudaMemcpy(r, x, sizeof r, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < 64; i++) CHECK(r[i], 63 - i);
    printf("reverse: ok\n");

    // A captured launch is a kernel node: each launch of the graph runs the kernel again, with the arguments
    // it was captured with.
    int *count;
    CHECK(cudaMalloc(&count, sizeof(int)), cudaSuccess);
    CHECK(cudaMemset(count, 0, sizeof(int)), cudaSuccess);
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    poke<<<1, 1, 0, s>>>(dout);
    add_one<<<2, 32, 0, s>>>(count);
    CHECK(cudaStreamEndCapture(s, &graph), cudaSuccess);
    CHECK(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    for (int i = 0; i < 3; i++) CHECK(cudaGraphLaunch(exec, s), cudaSuccess);
    CHECK(cudaStreamSynchronize(s), cudaSuccess);
    int total = 0;
    CHECK(cudaMemcpy(&total, count, sizeof total, cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK(total, 3 * 64);
    printf("graph: ok\n");

    // What the registered kernels need: static shared memory and constants they reach, the dynamic shared
    // memory they may have (48 KiB less the static part, up to the 163 KiB opt-in), their names.
    static_assert(sizeof(cudaFuncAttributes) == 144, "CUDA 12's cudaFuncAttributes");
    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, block_sum), cudaSuccess);
    CHECK(fa.sharedSizeBytes, 1024);
    CHECK(fa.maxDynamicSharedSizeBytes, 49152 - 1024);
    CHECK(fa.maxThreadsPerBlock, 1024);
    CHECK(cudaFuncGetAttributes(&fa, saxpy), cudaSuccess);
    CHECK(fa.sharedSizeBytes, 0);
    CHECK(fa.constSizeBytes, 2 * sizeof(float));
    CHECK(cudaFuncSetAttribute(reverse, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000), cudaSuccess);
    CHECK(cudaFuncGetAttributes(&fa, reverse), cudaSuccess);
    CHECK(fa.maxDynamicSharedSizeBytes, 100000);
    CHECK(cudaFuncSetAttribute(reverse, cudaFuncAttributeMaxDynamicSharedMemorySize, 166913), cudaErrorInvalidValue);
    const char *name = nullptr;
    CHECK(cudaFuncGetName(&name, saxpy), cudaSuccess);
    CHECK(strcmp(name, "_Z5saxpyPKfPfi"), 0);
    CHECK(cudaFuncGetAttributes(&fa, (const void *)main), cudaErrorInvalidDeviceFunction);
    // The occupancy calculator counts a kernel's static shared memory: 40000 bytes and the 1 KiB each block
    // reserves, in the 164 KiB of a multiprocessor, leave room for 4 blocks (32 if it did not count them).
    int blocks = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, big_shared, 32, 0), cudaSuccess);
    CHECK(blocks, 4);
    // The link attributes of one device: the same device, or a device the machine does not have, is 101; a
    // NULL value or an unknown attribute, 1.
    int v = -1;
    CHECK(cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0, 0), cudaErrorInvalidDevice);
    CHECK(cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0, 5), cudaErrorInvalidDevice);
    CHECK(cudaDeviceGetP2PAttribute(nullptr, cudaDevP2PAttrAccessSupported, 0, 0), cudaErrorInvalidValue);
    CHECK(cudaDeviceGetP2PAttribute(&v, (cudaDeviceP2PAttr)9, 0, 0), cudaErrorInvalidValue);
    CHECK(cudaGetLastError(), cudaErrorInvalidValue);
    printf("attributes: ok\n");

    // A block of 1025 threads is an invalid configuration, reported at the launch and by cudaGetLastError.
    poke<<<1, 1025>>>(din);
    CHECK(cudaGetLastError(), cudaErrorInvalidConfiguration);
    CHECK(cudaGetLastError(), cudaSuccess);
    printf("configuration: ok\n");

    // A kernel that writes past the end of its allocation faults: the next synchronize says 700, sticky.
    poke<<<1, 64>>>(dout + 2);
    CHECK(cudaGetLastError(), cudaSuccess);
    CHECK(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    CHECK(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    printf("illegal address: ok\n");
    return 0;
}
