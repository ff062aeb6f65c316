// Hazards on global memory between blocks of one launch (racecheck): the blocks of a grid run in any order.
// `halo` has each block read the slice its neighbour writes in the same launch; `last_block` is the
// threadFenceReduction pattern (each block writes its partial sum, the last block to take a ticket adds them)
// without the __threadfence that orders a block's write before its ticket.
// Built with -DCORRECT: the halo is read by a second launch, and the fence is there.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void halo_write(int *data) { data[blockIdx.x * blockDim.x + threadIdx.x] = (int)blockIdx.x; }

__global__ void halo_read(const int *data, int *out) {
    unsigned next = (blockIdx.x + 1) % gridDim.x;
    out[blockIdx.x * blockDim.x + threadIdx.x] = data[next * blockDim.x + threadIdx.x];
}

__global__ void halo(int *data, int *out) {
    data[blockIdx.x * blockDim.x + threadIdx.x] = (int)blockIdx.x;
    __syncthreads();
    unsigned next = (blockIdx.x + 1) % gridDim.x;
    out[blockIdx.x * blockDim.x + threadIdx.x] = data[next * blockDim.x + threadIdx.x];
}

__device__ unsigned int tickets;

__global__ void last_block(const int *in, int *partial, int *total) {
    __shared__ bool last;
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = in[blockIdx.x] * 10;
#ifdef CORRECT
        __threadfence();
#endif
        unsigned ticket = atomicInc(&tickets, gridDim.x);
        last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        int sum = 0;
        for (unsigned b = 0; b < gridDim.x; b++)
            sum += partial[b];
        *total = sum;
    }
}

int main() {
    int *data, *out, *in, *partial, *total, h[4] = {1, 2, 3, 4}, first[4], sum = 0;
    cudaMalloc(&data, 4 * 32 * sizeof(int));
    cudaMalloc(&out, 4 * 32 * sizeof(int));
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&partial, sizeof h);
    cudaMalloc(&total, sizeof(int));
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
#ifdef CORRECT
    halo_write<<<4, 32>>>(data);
    halo_read<<<4, 32>>>(data, out);
#else
    halo<<<4, 32>>>(data, out);
#endif
    last_block<<<4, 32>>>(in, partial, total);
    cudaError_t e = cudaDeviceSynchronize();
    for (int b = 0; b < 4; b++)
        cudaMemcpy(&first[b], out + b * 32, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(&sum, total, sizeof sum, cudaMemcpyDeviceToHost);
    printf("sync: %d %s\n", (int)e, cudaGetErrorName(e));
    printf("halo: %d %d %d %d, total %d\n", first[0], first[1], first[2], first[3], sum);
    return 0;
}
