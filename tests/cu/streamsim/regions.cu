// Kernels with barriers and warp functions whose threads run as region loops (the kernel cut at each barrier,
// src/tools/cc/fission.rs) unless a check needs fibers: each prints what its threads computed, so that a run
// with region loops and one with fibers (STREAMSIM_CHECK=synccheck, or STREAMSIM_REGIONS=off) can be compared.
#include <cstdio>

// Threads of one block wait at two different __syncthreads: fibers release them together, and so must the
// region loops, each thread going on from its own barrier.
__global__ void divergent_sites(int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t * 3;
    if (t < 16)
        __syncthreads();
    else
        __syncthreads();
    out[t] = s[63 - t] + (t < 16 ? 1000 : 2000);
}

// Threads that return before the barrier count as arrived.
__global__ void early_return(int *out, int n) {
    __shared__ int s[64];
    int t = threadIdx.x;
    if (t >= n)
        return;
    s[t] = t + 1;
    __syncthreads();
    out[t] = s[(t + 1) % n];
}

__global__ void count_and_or(int *out) {
    int t = threadIdx.x;
    int c = __syncthreads_count(t % 3 == 0);
    int a = __syncthreads_and(t < 1000);
    int o = __syncthreads_or(t == 5);
    out[t] = c * 100 + a * 10 + o;
}

__global__ void shuffle_reduce(const int *in, int *out) {
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffffu, v, o);
    unsigned ballot = __ballot_sync(0xffffffffu, v & 1);
    if (threadIdx.x % 32 == 0)
        out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] = v ^ (int)ballot;
}

// Every kind of shuffle and vote, each with the full mask at one site for every thread of a block of whole
// warps (released per warp without the general scheduler), with widths and offsets per lane.
__global__ void shuffle_kinds(const int *in, int *out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[t];
    int a = __shfl_sync(0xffffffffu, v, (threadIdx.x * 5 + 3) % 37);
    int b = __shfl_up_sync(0xffffffffu, v, threadIdx.x % 5, 16);
    int c = __shfl_xor_sync(0xffffffffu, v, 5, 8);
    int d = __shfl_down_sync(0xffffffffu, v, 7, 16);
    int e = __shfl_down_sync(0xffffffffu, v, 40);
    int f = __any_sync(0xffffffffu, v > 600);
    int g = __all_sync(0xffffffffu, v > -250);
    unsigned h = __ballot_sync(0xffffffffu, v & 1);
    out[t] = (a + 3 * b + 5 * c + 7 * d + 9 * e + 11 * f + 13 * g) ^ (int)h;
}

// The same operations where the general release must answer: a partial mask, a width that is not a power of
// two, and a block whose last warp is not whole.
__global__ void shuffle_partial(const int *in, int *out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[t];
    if (threadIdx.x % 32 < 16)
        v += __shfl_down_sync(0x0000ffffu, v, 1, 16);
    int w = __shfl_xor_sync(0xffffffffu, v, 3, 12);
    unsigned h = __ballot_sync(0xffffffffu, w > 0);
    out[t] = v * 3 + w ^ (int)h;
}

// clock64()'s counter is the thread's own across a barrier.
__global__ void clock_across(int *out) {
    long long a = clock64();
    __syncthreads();
    long long b = clock64();
    b += clock64();
    out[threadIdx.x] = (int)(b * 3 + a) + __shfl_xor_sync(0xffffffffu, (int)a, 1);
}

// A barrier in a loop, with values (k, t, the running sum) that live across it.
__global__ void loop_barrier(const int *in, int *out) {
    __shared__ int s[128];
    int t = threadIdx.x;
    long acc = 0;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k /= 2) {
        if (t < k)
            s[t] += s[t + k];
        acc += s[t % k == 0 ? 0 : t % k];
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + t] = (int)acc;
    if (t == 0)
        printf("block %d: %d\n", blockIdx.x, s[0]);
}

// A by-value struct (each thread's own copy), a local array and a device function with a barrier (inlined
// before the cut) across a barrier.
struct Params {
    int a[5];
    float f;
};
__device__ int doubled_after_barrier(int v) {
    __syncthreads();
    return v * 2;
}
__global__ void by_value(Params p, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    int local[4];
    for (int i = 0; i < 4; i++)
        local[i] = t * i + p.a[i % 5];
    s[t] = local[t % 4];
    __syncthreads();
    p.a[0] += t;
    out[t] = s[63 - t] + p.a[0] + doubled_after_barrier(local[(t + 1) % 4]) + (int)p.f;
}

// A thread that faults after a barrier ends the launch as it would with fibers.
__global__ void fault_after_barrier(int *out) {
    __shared__ int s[32];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    int *p = threadIdx.x == 7 ? (int *)0x10 : out;
    p[threadIdx.x] = s[31 - threadIdx.x];
}

int main(int argc, char **argv) {
    // `uniform`: only the kernels whose threads all reach the same barriers (synccheck's view of them).
    bool uniform = argc > 1 && argv[1][0] == 'u';
    if (argc > 1 && argv[1][0] == 'f') {
        int *o;
        cudaMalloc(&o, 32 * sizeof(int));
        fault_after_barrier<<<1, 32>>>(o);
        printf("fault: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
        return 0;
    }
    int *out, *in;
    cudaMallocManaged(&out, 4096 * sizeof(int));
    cudaMallocManaged(&in, 4096 * sizeof(int));
    for (int i = 0; i < 4096; i++)
        in[i] = (i * 7919) % 1000 - 300;
    if (!uniform) {
        divergent_sites<<<1, 64>>>(out);
        cudaDeviceSynchronize();
        for (int i = 0; i < 64; i++)
            printf("%d%c", out[i], i % 16 == 15 ? '\n' : ' ');
        early_return<<<1, 64>>>(out, 40);
        cudaDeviceSynchronize();
        for (int i = 0; i < 40; i++)
            printf("%d%c", out[i], i % 20 == 19 ? '\n' : ' ');
    }
    count_and_or<<<1, 96>>>(out);
    cudaDeviceSynchronize();
    printf("count/and/or: %d %d %d\n", out[0], out[5], out[95]);
    shuffle_reduce<<<8, 128>>>(in, out);
    cudaDeviceSynchronize();
    for (int i = 0; i < 32; i++)
        printf("%d%c", out[i], i % 8 == 7 ? '\n' : ' ');
    shuffle_kinds<<<4, 64>>>(in, out);
    cudaDeviceSynchronize();
    for (int i = 0; i < 256; i++)
        printf("%d%c", out[i], i % 16 == 15 ? '\n' : ' ');
    shuffle_partial<<<3, 48>>>(in, out);
    cudaDeviceSynchronize();
    for (int i = 0; i < 144; i++)
        printf("%d%c", out[i], i % 16 == 15 ? '\n' : ' ');
    clock_across<<<1, 64>>>(out);
    cudaDeviceSynchronize();
    for (int i = 0; i < 64; i++)
        printf("%d%c", out[i], i % 16 == 15 ? '\n' : ' ');
    Params p = {{1, 2, 3, 4, 5}, 2.5f};
    by_value<<<1, 64>>>(p, out);
    cudaDeviceSynchronize();
    for (int i = 0; i < 64; i++)
        printf("%d%c", out[i], i % 16 == 15 ? '\n' : ' ');
    loop_barrier<<<4, 128>>>(in, out);
    cudaError_t e = cudaDeviceSynchronize();
    long sum = 0;
    for (int i = 0; i < 512; i++)
        sum += out[i] * (i % 13);
    printf("loop: %ld (%s)\n", sum, cudaGetErrorString(e));
    return 0;
}
