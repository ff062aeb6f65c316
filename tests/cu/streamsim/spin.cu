// A kernel that spins until a kernel on another stream sets a flag. CUDA does not promise that the two run
// at once; under STREAMSIM_SCHEDULE=serialize they do not, and the watchdog reports the hang, then lets the
// other stream run so that the program finishes.
#include <cstdio>

__global__ void wait_for(volatile int *flag, int *seen) {
    while (*flag == 0) {
    }
    *seen = *flag;
}

__global__ void set(volatile int *flag) { *flag = 7; }

int main() {
    int *flag, *seen;
    cudaMalloc(&flag, sizeof(int));
    cudaMalloc(&seen, sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
    cudaMemset(seen, 0, sizeof(int));
    cudaStream_t a, b;
    cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking);
    wait_for<<<1, 1, 0, a>>>(flag, seen);
    set<<<1, 1, 0, b>>>(flag);
    cudaError_t e = cudaDeviceSynchronize();
    int h = 0;
    cudaMemcpy(&h, seen, sizeof h, cudaMemcpyDeviceToHost);
    printf("synchronize: %d, the spinning kernel saw %d\n", (int)e, h);
    return 0;
}
