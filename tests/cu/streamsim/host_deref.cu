// Host code dereferencing device pointers: each mode makes one such access, which is a segmentation fault on
// a GPU too; streamsim says which allocation the pointer is in before the process dies of it.
// `null` dereferences a host NULL pointer: a plain crash, with nothing from streamsim.
#include <cstdio>
#include <cstring>

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "read";
    float *a = nullptr, *b = nullptr;
    if (cudaMalloc(&a, 256) != cudaSuccess || cudaMalloc(&b, 4096) != cudaSuccess) {
        printf("cudaMalloc failed\n");
        return 1;
    }
    printf("allocated\n");
    fflush(stdout);
    volatile float *vb = b;
    if (strcmp(mode, "read") == 0) {
        printf("%f\n", vb[4]);
    } else if (strcmp(mode, "write") == 0) {
        vb[1000] = 2.0f;
    } else if (strcmp(mode, "freed") == 0) {
        cudaFree(b);
        printf("%f\n", vb[2]);
    } else if (strcmp(mode, "null") == 0) {
        volatile float *none = nullptr;
        printf("%f\n", none[1]);
    }
    printf("not reached\n");
    return 0;
}
