/*
 * musa_runtime.h — the MUSA (Moore Threads) runtime API as streamsim simulates it (libstreamsim, no GPU
 * needed).
 *
 * Compile unchanged MUSA host code against this directory and link libstreamsim instead of libmusart:
 *     cc app.c -I include -L target/release -lstreamsim
 * MUSA mirrors the CUDA runtime: musaX = cudaX, with the same argument order, constants and error codes (see
 * cuda_runtime.h); the semantics are the rows of streamsim's reference table (docs/semantics/cuda-musa.md).
 * `kernel<<<…, stream>>>(…)` becomes musasimLaunchKernel (see streamsim.h). Only the functions below are
 * simulated.
 */
#ifndef STREAMSIM_MUSA_RUNTIME_H
#define STREAMSIM_MUSA_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------------ types */

/* The error codes the simulator produces (the same values as CUDA's). */
enum musaError {
    musaSuccess = 0,
    musaErrorInvalidValue = 1,
    musaErrorMemoryAllocation = 2,
    musaErrorInitializationError = 3,
    musaErrorInvalidConfiguration = 9,
    musaErrorInvalidMemcpyDirection = 21,
    musaErrorNoDevice = 100,
    musaErrorInvalidDevice = 101,
    musaErrorDeviceUninitialized = 201,
    musaErrorInvalidResourceHandle = 400,
    musaErrorNotReady = 600,
    musaErrorIllegalAddress = 700,
    musaErrorPeerAccessAlreadyEnabled = 704,
    musaErrorPeerAccessNotEnabled = 705,
    musaErrorContextIsDestroyed = 709,
    musaErrorTooManyPeers = 711,
    musaErrorLaunchFailure = 719,
    musaErrorNotPermitted = 800,
    musaErrorNotSupported = 801,
    musaErrorTimeout = 909,
    musaErrorUnknown = 999
};
typedef enum musaError musaError_t;

/* Opaque handles; NULL is the legacy default stream of the current device. */
typedef struct MUstream_st *musaStream_t;
typedef struct MUevent_st *musaEvent_t;

enum musaMemcpyKind {
    musaMemcpyHostToHost = 0,
    musaMemcpyHostToDevice = 1,
    musaMemcpyDeviceToHost = 2,
    musaMemcpyDeviceToDevice = 3,
    musaMemcpyDefault = 4 /* inferred from the pointers */
};
typedef enum musaMemcpyKind musaMemcpyKind;

/* The device attributes the simulator models. */
enum musaDeviceAttr {
    musaDevAttrWarpSize = 10,
    musaDevAttrMultiProcessorCount = 16
};
typedef enum musaDeviceAttr musaDeviceAttr;

typedef void (*musaHostFn_t)(void *userData);
typedef void (*musaStreamCallback_t)(musaStream_t stream, musaError_t status, void *userData);

/* An IPC event handle's 64 bytes are opaque; bytes 24..27 hold the exporting OS process's id and are the only
 * ones that differ between runs of the same program. */
#define MUSA_IPC_HANDLE_SIZE 64
typedef struct musaIpcEventHandle_st {
    char reserved[MUSA_IPC_HANDLE_SIZE];
} musaIpcEventHandle_t;

#define musaEventDefault 0x00
#define musaEventBlockingSync 0x01
#define musaEventDisableTiming 0x02
#define musaEventInterprocess 0x04
#define musaEventRecordDefault 0x00
#define musaEventWaitDefault 0x00
#define musaStreamDefault 0x00
#define musaStreamNonBlocking 0x01
#define musaStreamLegacy ((musaStream_t)0x1)
#define musaStreamPerThread ((musaStream_t)0x2)

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

musaError_t musaGetDeviceCount(int *count);
musaError_t musaSetDevice(int device);
musaError_t musaGetDevice(int *device);
musaError_t musaDeviceSynchronize(void);
musaError_t musaDeviceReset(void);
musaError_t musaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice);
musaError_t musaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
musaError_t musaDeviceDisablePeerAccess(int peerDevice);
musaError_t musaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
musaError_t musaDeviceGetAttribute(int *value, enum musaDeviceAttr attr, int device);

/* ------------------------------------------------------------------------------------------------ streams */

musaError_t musaStreamCreate(musaStream_t *pStream);
musaError_t musaStreamCreateWithFlags(musaStream_t *pStream, unsigned int flags);
musaError_t musaStreamCreateWithPriority(musaStream_t *pStream, unsigned int flags, int priority);
musaError_t musaStreamDestroy(musaStream_t stream);
/* On the NULL stream (musaStreamLegacy): also all earlier work of the device's blocking streams. */
musaError_t musaStreamSynchronize(musaStream_t stream);
musaError_t musaStreamQuery(musaStream_t stream);
musaError_t musaStreamWaitEvent(musaStream_t stream, musaEvent_t event,
                                unsigned int flags STREAMSIM_DEFAULT_ARG(0));
musaError_t musaStreamGetFlags(musaStream_t hStream, unsigned int *flags);
musaError_t musaStreamGetPriority(musaStream_t hStream, int *priority);
/* A host function is not called once its stream has seen a device fault; a stream callback
 * (musaStreamAddCallback) is called exactly once, with musaSuccess or the fault's error (e.g. 719, 700). */
musaError_t musaLaunchHostFunc(musaStream_t stream, musaHostFn_t fn, void *userData);
musaError_t musaStreamAddCallback(musaStream_t stream, musaStreamCallback_t callback, void *userData,
                                  unsigned int flags);

/* ------------------------------------------------------------------------------------------------ events */

musaError_t musaEventCreate(musaEvent_t *event);
musaError_t musaEventCreateWithFlags(musaEvent_t *event, unsigned int flags);
musaError_t musaEventDestroy(musaEvent_t event);
musaError_t musaEventRecord(musaEvent_t event, musaStream_t stream STREAMSIM_DEFAULT_ARG(0));
musaError_t musaEventRecordWithFlags(musaEvent_t event, musaStream_t stream STREAMSIM_DEFAULT_ARG(0),
                                     unsigned int flags STREAMSIM_DEFAULT_ARG(0));
musaError_t musaEventQuery(musaEvent_t event);
musaError_t musaEventSynchronize(musaEvent_t event);
musaError_t musaEventElapsedTime(float *ms, musaEvent_t start, musaEvent_t end);
musaError_t musaIpcGetEventHandle(musaIpcEventHandle_t *handle, musaEvent_t event);
/* A handle that was not exported on this simulated machine (zeroed, forged, or from another OS process:
 * IPC between OS processes is not simulated) is musaErrorInvalidValue; streamsimGetLastErrorMessage says
 * why. The opened event belongs to the calling thread's current device (not the exporter's) and shares the
 * exporter's records: record it on a stream of that device. */
musaError_t musaIpcOpenEventHandle(musaEvent_t *event, musaIpcEventHandle_t handle);

/* ------------------------------------------------------------------------------------------------ memory */

musaError_t musaMalloc(void **devPtr, size_t size);
musaError_t musaFree(void *devPtr);
musaError_t musaMallocHost(void **ptr, size_t size);
musaError_t musaFreeHost(void *ptr);
musaError_t musaMemcpy(void *dst, const void *src, size_t count, enum musaMemcpyKind kind);
musaError_t musaMemcpyAsync(void *dst, const void *src, size_t count, enum musaMemcpyKind kind,
                            musaStream_t stream STREAMSIM_DEFAULT_ARG(0));
musaError_t musaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count);
musaError_t musaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
                                musaStream_t stream STREAMSIM_DEFAULT_ARG(0));
musaError_t musaMemset(void *devPtr, int value, size_t count);
musaError_t musaMemsetAsync(void *devPtr, int value, size_t count,
                            musaStream_t stream STREAMSIM_DEFAULT_ARG(0));

/* ------------------------------------------------------------------------------------------------ errors */

musaError_t musaGetLastError(void);
musaError_t musaPeekAtLastError(void);
const char *musaGetErrorName(musaError_t error);
const char *musaGetErrorString(musaError_t error);

#ifdef __cplusplus
}
#endif

#include "streamsim.h"

#endif /* STREAMSIM_MUSA_RUNTIME_H */
