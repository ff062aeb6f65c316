// peer_access.cu in MUSA's names (run with STREAMSIM_DEVICES=2): a kernel on device 0 writing an allocation of
// device 1 without peer access faults with musaErrorIllegalAddress (700) and a memcheck report. Built with
// -DCORRECT, the twin enables peer access first.
#include <cstdio>

__global__ void fill(int *a, int v) { a[threadIdx.x] = v + threadIdx.x; }

int main() {
    int *a;
    musaSetDevice(1);
    musaMalloc(&a, 4096);
    musaSetDevice(0);
#ifdef CORRECT
    musaDeviceEnablePeerAccess(1, 0);
#endif
    fill<<<1, 32>>>(a, 7);
    musaError_t e = musaDeviceSynchronize();
    printf("sync: %d %s\n", (int)e, musaGetErrorName(e));
    return 0;
}
