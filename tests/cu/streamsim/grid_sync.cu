// Grid-wide synchronization (kernels-on-the-cpu.md · cooperative launches): cudaLaunchCooperativeKernel and
// cudaLaunchKernelExC with cudaLaunchAttributeCooperative run a grid whose grid.sync() waits for every block;
// the blocks' shared memory, dynamic shared memory and stack variables survive the barrier; is_valid() says
// whether the grid can synchronize; a grid larger than the device holds at once is
// cudaErrorCooperativeLaunchTooLarge (720); a captured cooperative launch replays cooperatively; a destroyed
// stream (400), a pointer that is not a kernel (98) and a block of no threads (9) are refused as in every
// launch; grid.sync() in a <<<>>> launch faults the kernel
// (cudaErrorLaunchFailure, 719, sticky). With an argument, one case of barrier divergence: `block-exits` (a
// block ends without reaching the grid barrier the others wait at) or `thread-exits` (a thread of each block
// ends before it; the others' barrier still completes, as at __syncthreads, unless synccheck runs) or `mixed`
// (thread 1 of each block waits at a __syncthreads while the others wait at the grid barrier).
#include <cstring>
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

// Each round, each block writes its slot and, after the grid barrier, reads its neighbour's: the value of
// round r of block b is b * 100 + r, plus what its neighbour held in the round before.
__global__ void rounds(int *slots, int *seen, int nrounds) {
    cg::grid_group grid = cg::this_grid();
    __shared__ int mine[64];
    extern __shared__ int dyn[];
    int carried[4]; // on the thread's stack, across barriers
    unsigned b = blockIdx.x, t = threadIdx.x, nb = gridDim.x;
    mine[t] = (int)(b * 1000 + t);
    dyn[t] = (int)(b * 7 + t);
    for (int i = 0; i < 4; i++)
        carried[i] = (int)(b + t + i);
    int acc = 0;
    for (int r = 0; r < nrounds; r++) {
        if (t == 0)
            slots[b] = (int)(b * 100 + r) + acc;
        grid.sync();
        acc = slots[(b + 1) % nb];
        grid.sync(); // every block has read before anyone writes again
    }
    int ok = mine[t] == (int)(b * 1000 + t) && dyn[t] == (int)(b * 7 + t);
    for (int i = 0; i < 4; i++)
        ok &= carried[i] == (int)(b + t + i);
    seen[b * blockDim.x + t] = ok ? acc : -1;
}

__global__ void valid(int *out) {
    if (threadIdx.x == 0)
        out[blockIdx.x] = cg::this_grid().is_valid();
}

__global__ void just_sync(int *count) {
    atomicAdd(count, 1);
    cg::sync(cg::this_grid());
    if (blockIdx.x == 0 && threadIdx.x == 0)
        count[1] = *count;
}

// Block `skip` (or, with `thread` set, thread 1 of every block) returns before the grid barrier.
__global__ void diverge(int *count, int skip, int thread) {
    if (thread ? threadIdx.x == 1 : blockIdx.x == (unsigned)skip)
        return;
    atomicAdd(count, 1);
    cg::this_grid().sync();
    if (blockIdx.x == 0 && threadIdx.x == 0)
        count[1] = *count;
}

__global__ void mixed(int *count) {
    if (threadIdx.x == 1)
        __syncthreads();
    else
        cg::this_grid().sync();
    atomicAdd(count, 1);
}

static int divergence(const char *mode, int *count) {
    int skip = 1, thread = strcmp(mode, "thread-exits") == 0;
    void *args[] = {&count, &skip, &thread};
    if (strcmp(mode, "mixed") == 0)
        printf("launch: %d\n", (int)cudaLaunchCooperativeKernel((void *)mixed, dim3(3), dim3(4), args, 0, 0));
    else
        printf("launch: %d\n", (int)cudaLaunchCooperativeKernel((void *)diverge, dim3(3), dim3(4), args, 0, 0));
    cudaError_t e = cudaDeviceSynchronize();
    printf("synchronize: %d %s\n", (int)e, cudaGetErrorName(e));
    if (e == cudaSuccess) {
        int hc[2];
        cudaMemcpy(hc, count, sizeof hc, cudaMemcpyDeviceToHost);
        printf("%d threads arrived, block 0 saw %d after the barrier\n", hc[0], hc[1]);
    }
    return 0;
}

int main(int argc, char **argv) {
    const int nb = 5, nt = 64, nrounds = 3;
    int *slots, *seen, *count;
    cudaMalloc(&slots, nb * sizeof(int));
    cudaMalloc(&seen, nb * nt * sizeof(int));
    cudaMalloc(&count, 2 * sizeof(int));
    cudaMemset(count, 0, 2 * sizeof(int));
    if (argc > 1)
        return divergence(argv[1], count);
    int r = nrounds;
    void *args[] = {&slots, &seen, &r};
    printf("cooperative: %d\n", (int)cudaLaunchCooperativeKernel((void *)rounds, dim3(nb), dim3(nt), args,
                                                                  nt * sizeof(int), 0));
    printf("synchronize: %d\n", (int)cudaDeviceSynchronize());
    int h[nb * nt];
    cudaMemcpy(h, seen, sizeof h, cudaMemcpyDeviceToHost);
    for (int b = 0; b < nb; b++) {
        int same = 1;
        for (int t = 1; t < nt; t++)
            same &= h[b * nt + t] == h[b * nt];
        printf("block %d saw %d%s\n", b, h[b * nt], same ? "" : " (threads differ)");
    }

    // is_valid(): true in a cooperative launch, false in <<<>>>.
    int *v, hv[2];
    cudaMalloc(&v, 2 * sizeof(int));
    void *vargs[] = {&v};
    cudaLaunchCooperativeKernel(valid, dim3(2), dim3(32), vargs);
    cudaMemcpy(hv, v, sizeof hv, cudaMemcpyDeviceToHost);
    printf("is_valid cooperative: %d %d\n", hv[0], hv[1]);
    valid<<<2, 32>>>(v);
    cudaMemcpy(hv, v, sizeof hv, cudaMemcpyDeviceToHost);
    printf("is_valid <<<>>>: %d %d\n", hv[0], hv[1]);

    // cudaLaunchKernelExC with cudaLaunchAttributeCooperative = 1: the same launch.
    cudaMemset(count, 0, 2 * sizeof(int));
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(3);
    cfg.blockDim = dim3(32);
    cudaLaunchAttribute attr = {};
    attr.id = cudaLaunchAttributeCooperative;
    attr.val.cooperative = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    printf("ex cooperative: %d\n", (int)cudaLaunchKernelEx(&cfg, just_sync, count));
    int hc[2];
    cudaMemcpy(hc, count, sizeof hc, cudaMemcpyDeviceToHost);
    printf("ex: %d threads arrived, block 0 saw %d after the barrier\n", hc[0], hc[1]);

    // The largest grid the device holds at once runs; one block more is 720, also as the last error.
    int per_sm = 0, sms = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, just_sync, 256, 0);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    int most = per_sm * sms;
    cudaMemset(count, 0, 2 * sizeof(int));
    void *cargs[] = {&count};
    printf("%d blocks of 256: %d\n", most,
           (int)cudaLaunchCooperativeKernel((void *)just_sync, dim3(most), dim3(256), cargs, 0, 0));
    cudaMemcpy(hc, count, sizeof hc, cudaMemcpyDeviceToHost);
    printf("%d threads arrived, block 0 saw %d after the barrier\n", hc[0], hc[1]);
    printf("%d blocks of 256: %d\n", most + 1,
           (int)cudaLaunchCooperativeKernel((void *)just_sync, dim3(most + 1), dim3(256), cargs, 0, 0));
    printf("last error: %d, then %d\n", (int)cudaGetLastError(), (int)cudaGetLastError());

    // Captured: the graph's kernel node runs cooperatively at each launch.
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaMemset(count, 0, 2 * sizeof(int));
    cudaGraph_t g;
    cudaGraphExec_t ge;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    printf("captured: %d\n", (int)cudaLaunchCooperativeKernel((void *)just_sync, dim3(4), dim3(8), cargs, 0, s));
    cudaStreamEndCapture(s, &g);
    cudaGraphInstantiate(&ge, g, 0);
    cudaGraphLaunch(ge, s);
    cudaStreamSynchronize(s);
    cudaMemcpy(hc, count, sizeof hc, cudaMemcpyDeviceToHost);
    printf("graph: %d threads arrived, block 0 saw %d after the barrier\n", hc[0], hc[1]);
    cudaGraphExecDestroy(ge);
    cudaGraphDestroy(g);

    // A destroyed stream, a pointer that is not a kernel, a block of no threads: as for every launch.
    cudaStreamDestroy(s);
    printf("destroyed stream: %d\n",
           (int)cudaLaunchCooperativeKernel((void *)just_sync, dim3(1), dim3(1), cargs, 0, s));
    printf("not a kernel: %d\n", (int)cudaLaunchCooperativeKernel((void *)&main, dim3(1), dim3(1), cargs, 0, 0));
    printf("no threads: %d\n", (int)cudaLaunchCooperativeKernel((void *)just_sync, dim3(1), dim3(0), cargs, 0, 0));
    cudaGetLastError();

    // grid.sync() in a launch that is not cooperative: the kernel faults, and the fault is sticky.
    just_sync<<<2, 32>>>(count);
    printf("<<<>>> launch: %d\n", (int)cudaGetLastError());
    cudaError_t e = cudaDeviceSynchronize();
    printf("synchronize: %d %s\n", (int)e, cudaGetErrorName(e));
    printf("after: %d\n", (int)cudaLaunchCooperativeKernel((void *)just_sync, dim3(1), dim3(1), cargs, 0, 0));
    return 0;
}
