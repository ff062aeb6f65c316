/*
 * cuda_runtime.h — the CUDA runtime API as streamsim simulates it (libstreamsim, no GPU needed).
 *
 * Compile unchanged CUDA host code against this directory and link libstreamsim instead of libcudart:
 *     cc app.c -I include -L target/release -lstreamsim
 * Names, argument order, constants and error codes are CUDA's; the semantics are the rows of streamsim's
 * reference table (docs/semantics/cuda-musa.md). `kernel<<<…, stream>>>(…)` becomes cudasimLaunchKernel (see
 * streamsim.h). Only the functions below are simulated.
 */
#ifndef STREAMSIM_CUDA_RUNTIME_H
#define STREAMSIM_CUDA_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------------ types */

/* The error codes the simulator produces (CUDA's values). */
enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorDeviceUninitialized = 201,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorPeerAccessAlreadyEnabled = 704,
    cudaErrorPeerAccessNotEnabled = 705,
    cudaErrorContextIsDestroyed = 709,
    cudaErrorTooManyPeers = 711,
    cudaErrorLaunchFailure = 719,
    cudaErrorNotPermitted = 800,
    cudaErrorNotSupported = 801,
    cudaErrorTimeout = 909,
    cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;

/* Opaque handles; NULL is the legacy default stream of the current device. */
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4 /* inferred from the pointers */
};
typedef enum cudaMemcpyKind cudaMemcpyKind;

/* The device attributes the simulator models. */
enum cudaDeviceAttr {
    cudaDevAttrWarpSize = 10,
    cudaDevAttrMultiProcessorCount = 16
};
typedef enum cudaDeviceAttr cudaDeviceAttr;

typedef void (*cudaHostFn_t)(void *userData);
typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void *userData);

/* An IPC event handle's 64 bytes are opaque; bytes 24..27 hold the exporting OS process's id and are the only
 * ones that differ between runs of the same program. */
#define CUDA_IPC_HANDLE_SIZE 64
typedef struct cudaIpcEventHandle_st {
    char reserved[CUDA_IPC_HANDLE_SIZE];
} cudaIpcEventHandle_t;

#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaEventInterprocess 0x04
#define cudaEventRecordDefault 0x00
#define cudaEventWaitDefault 0x00
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)

/* Grid and block dimensions: accepted for source compatibility; the simulator does not model threads. */
#ifndef STREAMSIM_DIM3
#define STREAMSIM_DIM3
typedef struct dim3 {
    unsigned int x, y, z;
#ifdef __cplusplus
    dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
#endif
} dim3;
#endif

/* C++ default arguments, as in CUDA's header. */
#ifndef STREAMSIM_DEFAULT_ARG
#ifdef __cplusplus
#define STREAMSIM_DEFAULT_ARG(value) = value
#else
#define STREAMSIM_DEFAULT_ARG(value)
#endif
#endif

/* ------------------------------------------------------------------------------------------------ devices */

cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice);
cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
cudaError_t cudaDeviceDisablePeerAccess(int peerDevice);
cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);

/* ------------------------------------------------------------------------------------------------ streams */

cudaError_t cudaStreamCreate(cudaStream_t *pStream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
/* On the NULL stream (cudaStreamLegacy): also all earlier work of the device's blocking streams. */
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                unsigned int flags STREAMSIM_DEFAULT_ARG(0));
cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags);
cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority);
/* A host function is not called once its stream has seen a device fault; a stream callback
 * (cudaStreamAddCallback) is called exactly once, with cudaSuccess or the fault's error (e.g. 719, 700). */
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData);
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                  unsigned int flags);

/* ------------------------------------------------------------------------------------------------ events */

cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream STREAMSIM_DEFAULT_ARG(0));
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream STREAMSIM_DEFAULT_ARG(0),
                                     unsigned int flags STREAMSIM_DEFAULT_ARG(0));
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t *handle, cudaEvent_t event);
/* A handle that was not exported on this simulated machine (zeroed, forged, or from another OS process:
 * IPC between OS processes is not simulated) is cudaErrorInvalidValue; streamsimGetLastErrorMessage says
 * why. The opened event belongs to the calling thread's current device (not the exporter's) and shares the
 * exporter's records: record it on a stream of that device. */
cudaError_t cudaIpcOpenEventHandle(cudaEvent_t *event, cudaIpcEventHandle_t handle);

/* ------------------------------------------------------------------------------------------------ memory */

cudaError_t cudaMalloc(void **devPtr, size_t size);
cudaError_t cudaFree(void *devPtr);
cudaError_t cudaMallocHost(void **ptr, size_t size);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream STREAMSIM_DEFAULT_ARG(0));
cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count);
cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
                                cudaStream_t stream STREAMSIM_DEFAULT_ARG(0));
cudaError_t cudaMemset(void *devPtr, int value, size_t count);
cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
                            cudaStream_t stream STREAMSIM_DEFAULT_ARG(0));

/* ------------------------------------------------------------------------------------------------ errors */

cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorName(cudaError_t error);
const char *cudaGetErrorString(cudaError_t error);

#ifdef __cplusplus
}
#endif

#include "streamsim.h"

#endif /* STREAMSIM_CUDA_RUNTIME_H */
