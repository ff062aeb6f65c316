/*
 * cublas_v2.h — a test stand-in for the five cuBLAS calls NVIDIA's cuda-samples UnifiedMemoryStreams makes
 * (cublasCreate, cublasSetStream, cublasDgemv, cublasDestroy, and the status enum that Common/helper_cuda.h's
 * checkCudaErrors prints), so that the sample builds unmodified with `streamsim cc -I tests/cu/standins`. It is
 * not cuBLAS and not part of streamsim: cuBLAS is a library on top of the runtime, which streamsim does not
 * provide.
 *
 * cublasDgemv computes y = alpha * op(A) * x + beta * y for op N (A column-major, m x n, leading dimension lda),
 * as cuBLAS defines it, with one thread per row of a kernel launched on the handle's stream (the stream
 * cublasSetStream gave it; the legacy stream at first). With beta 0, y is not read (cuBLAS's rule).
 */
#ifndef CUBLAS_V2_H_
#define CUBLAS_V2_H_
#define CUBLAS_API_H_

#include <cuda_runtime.h>
#include <stdlib.h>

typedef enum {
    CUBLAS_STATUS_SUCCESS = 0,
    CUBLAS_STATUS_NOT_INITIALIZED = 1,
    CUBLAS_STATUS_ALLOC_FAILED = 3,
    CUBLAS_STATUS_INVALID_VALUE = 7,
    CUBLAS_STATUS_ARCH_MISMATCH = 8,
    CUBLAS_STATUS_MAPPING_ERROR = 11,
    CUBLAS_STATUS_EXECUTION_FAILED = 13,
    CUBLAS_STATUS_INTERNAL_ERROR = 14,
    CUBLAS_STATUS_NOT_SUPPORTED = 15,
    CUBLAS_STATUS_LICENSE_ERROR = 16
} cublasStatus_t;

typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1, CUBLAS_OP_C = 2 } cublasOperation_t;

struct cublasContext {
    cudaStream_t stream;
};
typedef struct cublasContext *cublasHandle_t;

static inline cublasStatus_t cublasCreate(cublasHandle_t *handle) {
    if (handle == NULL) {
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    *handle = (cublasHandle_t)calloc(1, sizeof(struct cublasContext));
    return *handle == NULL ? CUBLAS_STATUS_ALLOC_FAILED : CUBLAS_STATUS_SUCCESS;
}

static inline cublasStatus_t cublasDestroy(cublasHandle_t handle) {
    if (handle == NULL) {
        return CUBLAS_STATUS_NOT_INITIALIZED;
    }
    free(handle);
    return CUBLAS_STATUS_SUCCESS;
}

static inline cublasStatus_t cublasSetStream(cublasHandle_t handle, cudaStream_t stream) {
    if (handle == NULL) {
        return CUBLAS_STATUS_NOT_INITIALIZED;
    }
    handle->stream = stream;
    return CUBLAS_STATUS_SUCCESS;
}

__global__ void streamsim_standin_dgemv_n(int m, int n, double alpha, const double *A, int lda, const double *x,
                                          int incx, double beta, double *y, int incy) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) {
        return;
    }
    double sum = 0.0;
    for (int j = 0; j < n; j++) {
        sum += A[i + (size_t)j * lda] * x[(size_t)j * incx];
    }
    double *out = &y[(size_t)i * incy];
    *out = beta == 0.0 ? alpha * sum : alpha * sum + beta * *out;
}

static inline cublasStatus_t cublasDgemv(cublasHandle_t handle, cublasOperation_t trans, int m, int n,
                                         const double *alpha, const double *A, int lda, const double *x, int incx,
                                         const double *beta, double *y, int incy) {
    if (handle == NULL) {
        return CUBLAS_STATUS_NOT_INITIALIZED;
    }
    if (trans != CUBLAS_OP_N) {
        return CUBLAS_STATUS_NOT_SUPPORTED; /* the stand-in computes op N only */
    }
    if (m < 0 || n < 0 || lda < (m > 1 ? m : 1) || incx <= 0 || incy <= 0) {
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    if (m == 0 || n == 0) {
        return CUBLAS_STATUS_SUCCESS;
    }
    streamsim_standin_dgemv_n<<<(m + 255) / 256, 256, 0, handle->stream>>>(m, n, *alpha, A, lda, x, incx, *beta, y,
                                                                          incy);
    return cudaGetLastError() == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_EXECUTION_FAILED;
}

#endif
