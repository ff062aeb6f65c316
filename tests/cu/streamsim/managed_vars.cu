// __managed__ variables with initialisers, one at namespace scope and one in a namespace, read and written by a
// kernel by name and by host code: built by nvcc, run with `streamsim exec --kernels`, host code and kernels
// share the bytes and start from the initialisers (managed-memory.md, `__cudaRegisterManagedVar`).
#include <cstdio>
__device__ __managed__ int mv = 5;
namespace ns {
__device__ __managed__ int arr[4] = {1, 2, 3, 4};
}
__global__ void k() {
    mv += 10;
    ns::arr[3] += 100;
}
int main() {
    printf("before %d %d\n", mv, ns::arr[3]);
    k<<<1, 1>>>();
    cudaDeviceSynchronize();
    printf("mv %d arr %d\n", mv, ns::arr[3]);
    cudaPointerAttributes a;
    cudaPointerGetAttributes(&a, &mv);
    printf("type %d\n", (int)a.type);
    return 0;
}
