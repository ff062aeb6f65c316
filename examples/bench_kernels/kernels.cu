// The kernels of `cargo run --release --example bench_kernels`, built by `streamsim cc` and run with
// STREAMSIM_RACES=off: each figure prints the best of 5 runs, in ns per element, of the kernel's launch and
// a synchronize. baseline.c is the same work as plain C loops.
#include <chrono>
#include <cstdio>
#include <cstdlib>

__global__ void vector_add(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

__global__ void shared_reduce(const int *in, int *out) {
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k /= 2) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) atomicAdd(out, s[0]);
}

__global__ void warp_reduce(const int *in, int *out) {
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x % 32 == 0) atomicAdd(out, v);
}

template <typename F> static double best_ns_per(int n, F f) {
    double best = 1e30;
    for (int r = 0; r < 5; r++) {
        auto t0 = std::chrono::steady_clock::now();
        f();
        cudaDeviceSynchronize();
        auto t1 = std::chrono::steady_clock::now();
        double ns = std::chrono::duration<double, std::nano>(t1 - t0).count() / n;
        if (ns < best) best = ns;
    }
    return best;
}

int main() {
    const int n = 1 << 22;
    float *a, *b, *c;
    int *in, *out;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    cudaMalloc(&c, n * sizeof(float));
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, sizeof(int));
    cudaMemset(a, 0, n * sizeof(float));
    cudaMemset(b, 0, n * sizeof(float));
    cudaMemset(in, 1, n * sizeof(int));
    cudaMemset(out, 0, sizeof(int));
    double add = best_ns_per(n, [&] { vector_add<<<n / 256, 256>>>(a, b, c, n); });
    double red = best_ns_per(n, [&] { shared_reduce<<<n / 256, 256>>>(in, out); });
    double warp = best_ns_per(n, [&] { warp_reduce<<<n / 256, 256>>>(in, out); });
    int err = (int)cudaGetLastError();
    printf("%.3f %.3f %.3f %d\n", add, red, warp, err);
    return 0;
}
