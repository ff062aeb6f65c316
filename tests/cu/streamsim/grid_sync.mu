// MUSA's twin of grid_sync.cu (kernels-on-the-cpu.md · cooperative launches): musaLaunchCooperativeKernel runs
// a grid whose grid.sync() waits for every block, is_valid() is true in it; a grid larger than the device holds
// at once is musaErrorCooperativeLaunchTooLarge (720); grid.sync() in a <<<>>> launch faults the kernel (719).
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void neighbours(int *slots, int *seen) {
    cg::grid_group grid = cg::this_grid();
    if (threadIdx.x == 0)
        slots[blockIdx.x] = blockIdx.x + 1;
    grid.sync();
    if (threadIdx.x == 0)
        seen[blockIdx.x] = slots[(blockIdx.x + 1) % gridDim.x] * (grid.is_valid() ? 1 : -1);
}

int main() {
    int *slots, *seen, h[3];
    musaMalloc(&slots, sizeof h);
    musaMalloc(&seen, sizeof h);
    void *args[] = {&slots, &seen};
    printf("launch: %d\n", (int)musaLaunchCooperativeKernel((void *)neighbours, dim3(3), dim3(8), args, 0, 0));
    printf("synchronize: %d\n", (int)musaDeviceSynchronize());
    musaMemcpy(h, seen, sizeof h, musaMemcpyDeviceToHost);
    printf("seen: %d %d %d\n", h[0], h[1], h[2]);
    musaError_t e = musaLaunchCooperativeKernel((void *)neighbours, dim3(100000), dim3(8), args, 0, 0);
    printf("100000 blocks: %d, last error %d\n", (int)e, (int)musaGetLastError());
    neighbours<<<3, 8>>>(slots, seen);
    e = musaDeviceSynchronize();
    printf("<<<>>> launch: %d %s\n", (int)e, musaGetErrorName(e));
    return 0;
}
