// cudaLaunchKernelEx / cudaLaunchKernelExC (kernels-on-the-cpu.md · cudaLaunchKernelExC): the config's grid,
// block, shared memory and stream; the attributes the simulator honours (Ignore, a 1x1x1 cluster, a
// cooperative or non-cooperative launch) and the refusal of the others (cudaErrorNotSupported, 801); NULL
// config or attrs (1).
#include <cstdio>

__global__ void scale(int *a, int k) { a[blockIdx.x * blockDim.x + threadIdx.x] *= k; }
__global__ void nothing() {}

int main() {
    int *a;
    int h[64];
    for (int i = 0; i < 64; i++) h[i] = i;
    cudaMalloc(&a, sizeof h);
    cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(2);
    cfg.blockDim = dim3(32);
    cfg.stream = s;
    cudaLaunchAttribute attrs[2] = {};
    attrs[0].id = cudaLaunchAttributeIgnore;
    attrs[1].id = cudaLaunchAttributeClusterDimension;
    attrs[1].val.clusterDim.x = 1;
    attrs[1].val.clusterDim.y = 1;
    attrs[1].val.clusterDim.z = 1;
    cfg.attrs = attrs;
    cfg.numAttrs = 2;
    printf("ex: %d\n", (int)cudaLaunchKernelEx(&cfg, scale, a, 3));
    attrs[1].id = cudaLaunchAttributeCooperative;
    attrs[1].val.cooperative = 0;
    printf("not cooperative: %d\n", (int)cudaLaunchKernelEx(&cfg, scale, a, 2));
    attrs[1].val.cooperative = 1;
    printf("cooperative: %d\n", (int)cudaLaunchKernelEx(&cfg, scale, a, 5));
    attrs[1].id = cudaLaunchAttributePriority;
    attrs[1].val.priority = -1;
    printf("priority: %d\n", (int)cudaLaunchKernelEx(&cfg, scale, a, 5));
    attrs[1].id = cudaLaunchAttributeClusterDimension;
    attrs[1].val.clusterDim.x = 2;
    printf("cluster of 2: %d\n", (int)cudaLaunchKernelEx(&cfg, scale, a, 5));
    cfg.numAttrs = 0;
    cfg.attrs = nullptr;
    printf("no parameters: %d\n", (int)cudaLaunchKernelEx(&cfg, nothing));
    cfg.numAttrs = 1;
    printf("NULL attrs: %d\n", (int)cudaLaunchKernelEx(&cfg, nothing));
    printf("NULL config: %d\n", (int)cudaLaunchKernelExC(nullptr, (const void *)scale, nullptr));
    printf("last error: %d\n", (int)cudaGetLastError());
    cudaStreamSynchronize(s);
    cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost);
    printf("a: %d %d %d ... %d\n", h[0], h[1], h[2], h[63]);
    return 0;
}
