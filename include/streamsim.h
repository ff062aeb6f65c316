/*
 * streamsim.h — the streamsim-specific part of the C API of libstreamsim.
 *
 * The vendor headers (cuda_runtime.h, musa_runtime.h, acl/acl.h) include this file; include it yourself only
 * for the streamsim* calls. It declares:
 *   - the kernel-launch stand-ins: C has no `kernel<<<grid, block, shmem, stream>>>(args)`, so a launch is
 *     `cudasimLaunchKernel(stream, "kernel", durationNs, body, arg)` (musasim*, aclsim* likewise): a kernel
 *     of `durationNs` nanoseconds of virtual time whose body, if not NULL, runs `body(arg)` on the host when
 *     the stream reaches it. The `Ex` variants declare the device memory the kernel reads and writes (for race
 *     detection); the `Fallible` variants take a body that returns a fault code (to test error handling);
 *   - simulated machines and processes as opaque handles, and binding a process to the calling thread, so
 *     that one OS process can play several simulated processes (e.g. both ends of an IPC event);
 *   - the message of the calling thread's last error.
 *
 * Every streamsim* call returns a streamsimError (STREAMSIM_SUCCESS = 0) and refuses NULL, destroyed and
 * garbage handles with STREAMSIM_ERROR_INVALID_HANDLE. The vendor calls (cuda*, musa*, acl*) go to the process
 * bound on the calling thread, or else to the vendor's default machine, built on first use from the
 * environment: STREAMSIM_DEVICES (number of devices, default 1) and STREAMSIM_SEED (default 0).
 */
#ifndef STREAMSIM_H
#define STREAMSIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------------ codes */

/* The result of a streamsim* call. */
typedef enum streamsimError {
    STREAMSIM_SUCCESS = 0,
    /* A NULL output pointer, an unknown dialect or API, a device count above 1024. */
    STREAMSIM_ERROR_INVALID_VALUE = 1,
    /* A NULL, destroyed or garbage machine or process handle. */
    STREAMSIM_ERROR_INVALID_HANDLE = 2,
    /* streamsimUnbind without a streamsimBind on this thread. */
    STREAMSIM_ERROR_NOT_BOUND = 3,
    /* The default machine cannot be built from STREAMSIM_DEVICES / STREAMSIM_SEED (the message is printed
     * to standard error). */
    STREAMSIM_ERROR_CONFIG = 4,
    /* A streamsim* call from inside a host function or kernel body. */
    STREAMSIM_ERROR_NOT_PERMITTED = 5,
    /* A bug in the simulator (please report it). */
    STREAMSIM_ERROR_INTERNAL = 999
} streamsimError;

/* Whose semantics a machine follows. */
typedef enum streamsimDialect {
    STREAMSIM_DIALECT_CUDA = 0, /* CUDA and MUSA */
    STREAMSIM_DIALECT_ACL = 1   /* Ascend ACL */
} streamsimDialect;

/* A vendor facade: which functions a call is about. */
typedef enum streamsimApi {
    STREAMSIM_API_CUDA = 0, /* cuda* */
    STREAMSIM_API_MUSA = 1, /* musa* */
    STREAMSIM_API_ACL = 2   /* acl*  */
} streamsimApi;

/* A static description of a code. */
const char *streamsimGetErrorString(streamsimError error);

/* The message of the calling thread's last error in the process that `api`'s calls go to (what
 * cudaPeekAtLastError / aclGetRecentErrMsg would report, with the simulator's explanation: which handle,
 * which device, why), or NULL if there is none. Valid until the next call of this function on this thread. */
const char *streamsimGetLastErrorMessage(streamsimApi api);

/* ------------------------------------------------------------------------------------------------ kernels */

/* The body of a kernel stand-in: runs on the host, on the stream's worker thread, when the stream reaches
 * the kernel. It must not call the runtime (such calls fail, as inside a host function). */
typedef void (*streamsimKernelBody)(void *arg);

/* The body of a fallible kernel stand-in: returns STREAMSIM_FAULT_NONE, or a fault. */
typedef int (*streamsimFallibleKernelBody)(void *arg);

/* What a fallible kernel body returns. A fault is reported by the next synchronize (or query) that covers
 * the kernel and then sticks to the device until it is reset: CUDA/MUSA cudaErrorLaunchFailure (719) or
 * cudaErrorIllegalAddress (700); ACL ACL_ERROR_RT_AICORE_EXCEPTION (507015). Any other non-zero value is a
 * launch failure. */
typedef enum streamsimFault {
    STREAMSIM_FAULT_NONE = 0,
    STREAMSIM_FAULT_LAUNCH_FAILURE = 1,
    STREAMSIM_FAULT_ILLEGAL_ADDRESS = 2
} streamsimFault;

/* A declared access of a kernel stand-in (the Ex variants) to device memory. */
typedef struct streamsimAccess {
    const void *ptr; /* start of the range (device memory) */
    size_t bytes;    /* length in bytes */
    int write;       /* STREAMSIM_ACCESS_READ or STREAMSIM_ACCESS_WRITE */
} streamsimAccess;

#define STREAMSIM_ACCESS_READ 0
#define STREAMSIM_ACCESS_WRITE 1

/* ------------------------------------------------------------------------------------------------ machines */

/* Opaque handles. A handle is an id, never dereferenced: a destroyed or garbage one is refused. */
typedef struct streamsimMachine_st *streamsimMachine;
typedef struct streamsimProcess_st *streamsimProcess;

/* A new simulated machine: `devices` devices (0 to 1024) with `dialect`'s semantics, seeded with `seed`, every
 * pair of devices linked for peer access, the default cost model. */
streamsimError streamsimMachineCreate(streamsimMachine *machine, streamsimDialect dialect, uint32_t devices,
                                      uint64_t seed);

/* Releases a machine handle. The machine shuts down (its queued work completes) when its last handle is
 * released: machine handles, process handles and bindings all count. */
streamsimError streamsimMachineDestroy(streamsimMachine machine);

/* The machine's number of devices. */
streamsimError streamsimMachineGetDeviceCount(streamsimMachine machine, uint32_t *count);

/* ------------------------------------------------------------------------------------------------ processes */

/* A new simulated process on `machine`: its own streams, events, memory and per-thread state (current
 * device, last error). Another process's handles are refused; IPC handles can be opened across processes. */
streamsimError streamsimProcessCreate(streamsimProcess *process, streamsimMachine machine);

/* Releases a process handle. The simulated process and its objects live as long as its machine; a binding
 * made with the handle stays in force until streamsimUnbind. */
streamsimError streamsimProcessDestroy(streamsimProcess process);

/* A new handle of the process's machine (release it with streamsimMachineDestroy). */
streamsimError streamsimProcessGetMachine(streamsimProcess process, streamsimMachine *machine);

/* The process's ordinal on its machine (0 for the first process). */
streamsimError streamsimProcessGetId(streamsimProcess process, uint32_t *id);

/* A new handle of the process that `api`'s calls go to when nothing is bound: the vendor's default machine
 * (built on first use from STREAMSIM_DEVICES / STREAMSIM_SEED; STREAMSIM_ERROR_CONFIG if it cannot be). To
 * play the other end of an IPC exchange, create a second process on its machine. */
streamsimError streamsimDefaultProcess(streamsimProcess *process, streamsimApi api);

/* A new handle of the process that `api`'s calls from this thread go to now (the innermost binding, or the
 * default process). STREAMSIM_ERROR_INVALID_VALUE if the innermost binding's machine has the other dialect
 * (then `api`'s calls fail). */
streamsimError streamsimCurrentProcess(streamsimProcess *process, streamsimApi api);

/* Routes the calling thread's cuda* / musa* / acl* calls to `process` until the matching streamsimUnbind
 * (bindings nest; other threads are not affected). Calls through a facade of the other dialect then fail
 * (CUDA/MUSA: cudaErrorNotSupported 801; ACL: ACL_ERROR_RT_FEATURE_NOT_SUPPORT 207000). Works in atexit
 * handlers and global destructors too; on another thread whose thread-locals are being destroyed (a C++
 * thread_local destructor, a pthread key destructor) no binding can last: STREAMSIM_ERROR_NOT_PERMITTED. */
streamsimError streamsimBind(streamsimProcess process);

/* Ends the calling thread's innermost streamsimBind; the previous routing comes back.
 * STREAMSIM_ERROR_NOT_BOUND if there is none. */
streamsimError streamsimUnbind(void);

#ifdef __cplusplus
}
#endif

#endif /* STREAMSIM_H */

/* ------------------------------------------------------------------------------------------------ stand-ins
 * One section per vendor header that includes this file (each after its types are declared). */

#if defined(STREAMSIM_CUDA_RUNTIME_H) && !defined(STREAMSIM_H_CUDA)
#define STREAMSIM_H_CUDA
#ifdef __cplusplus
extern "C" {
#endif
/* kernel<<<grid, block, shmem, stream>>>(args): a kernel named `name` of `durationNs` virtual nanoseconds on
 * `stream` (NULL: the legacy default stream), running `body(arg)` if `body` is not NULL. Launch errors are
 * the vendor's (e.g. cudaErrorInvalidResourceHandle 400 for a stream of another device). */
cudaError_t cudasimLaunchKernel(cudaStream_t stream, const char *name, uint64_t durationNs,
                                streamsimKernelBody body, void *arg);
/* cudasimLaunchKernel with the kernel's `count` declared accesses to device memory. */
cudaError_t cudasimLaunchKernelEx(cudaStream_t stream, const char *name, uint64_t durationNs,
                                  streamsimKernelBody body, void *arg, const streamsimAccess *accesses,
                                  size_t count);
/* cudasimLaunchKernel whose body returns a streamsimFault. */
cudaError_t cudasimLaunchFallibleKernel(cudaStream_t stream, const char *name, uint64_t durationNs,
                                        streamsimFallibleKernelBody body, void *arg);
#ifdef __cplusplus
}
#endif
#endif

#if defined(STREAMSIM_MUSA_RUNTIME_H) && !defined(STREAMSIM_H_MUSA)
#define STREAMSIM_H_MUSA
#ifdef __cplusplus
extern "C" {
#endif
/* kernel<<<grid, block, shmem, stream>>>(args) in MUSA: see cudasimLaunchKernel. */
musaError_t musasimLaunchKernel(musaStream_t stream, const char *name, uint64_t durationNs,
                                streamsimKernelBody body, void *arg);
musaError_t musasimLaunchKernelEx(musaStream_t stream, const char *name, uint64_t durationNs,
                                  streamsimKernelBody body, void *arg, const streamsimAccess *accesses,
                                  size_t count);
musaError_t musasimLaunchFallibleKernel(musaStream_t stream, const char *name, uint64_t durationNs,
                                        streamsimFallibleKernelBody body, void *arg);
#ifdef __cplusplus
}
#endif
#endif

#if defined(STREAMSIM_ACL_H) && !defined(STREAMSIM_H_ACL)
#define STREAMSIM_H_ACL
#ifdef __cplusplus
extern "C" {
#endif
/* myKernel<<<blockDim, l2ctrl, stream>>>(args) in ACL: a kernel on `stream` (NULL: the current context's
 * default stream), which must belong to the current context (else ACL_ERROR_RT_STREAM_CONTEXT 107003). */
aclError aclsimLaunchKernel(aclrtStream stream, const char *name, uint64_t durationNs, streamsimKernelBody body,
                            void *arg);
aclError aclsimLaunchKernelEx(aclrtStream stream, const char *name, uint64_t durationNs,
                              streamsimKernelBody body, void *arg, const streamsimAccess *accesses,
                              size_t count);
aclError aclsimLaunchFallibleKernel(aclrtStream stream, const char *name, uint64_t durationNs,
                                    streamsimFallibleKernelBody body, void *arg);
#ifdef __cplusplus
}
#endif
#endif
