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
 *     the `Ctx` variants give the body a context through which it reads and writes the memory it declared
 *     (streamsimKernelRead / streamsimKernelWrite / streamsimKernelMap), so a C program can compute on the
 *     device and check its data;
 *   - simulated machines and processes as opaque handles, and binding a process to the calling thread, so
 *     that one OS process can play several simulated processes (e.g. both ends of an IPC event);
 *   - the message of the calling thread's last error;
 *   - the toolkit for testing C/C++ programs: race reports (count, text, struct), machines made with options
 *     (race mode, trace), the Chrome trace on demand, and names for streams and events.
 *
 * Every streamsim* call returns a streamsimError (STREAMSIM_SUCCESS = 0) and refuses NULL, destroyed and
 * garbage handles with STREAMSIM_ERROR_INVALID_HANDLE. The vendor calls (cuda*, musa*, acl*) go to the process
 * bound on the calling thread, or else to the vendor's default machine, built on first use from the
 * environment:
 *   STREAMSIM_DEVICES   number of devices (0 to 1024; default 1)
 *   STREAMSIM_SEED      the machine's seed (default 0)
 *   STREAMSIM_RACES     off | collect | print | fail (default print): print writes each new race report to
 *                       standard error as it is found; fail also makes the process exit with status
 *                       STREAMSIM_RACES_EXITCODE at exit if any race was found; collect is silent (read the
 *                       reports with streamsimMachineGetRace*); off does no race detection
 *   STREAMSIM_RACES_EXITCODE  the exit status of fail (0 to 255, default 66 as ThreadSanitizer's; 0 leaves
 *                       the program's status alone)
 *   STREAMSIM_TRACE     a file to write the Chrome trace to at exit (open it in https://ui.perfetto.dev)
 *   STREAMSIM_TIMELINE  1: print the terminal timeline to standard error at exit (default 0)
 *   STREAMSIM_SCHEDULE  concurrent | serialize (default concurrent): serialize runs one operation at a time,
 *                       in an order the seed chooses, only while the host waits for the device; a program
 *                       that needs two streams to progress at once then fails with cudaErrorUnknown /
 *                       ACL_ERROR_RT_INTERNAL_ERROR naming the wait-for cycle
 *                       (docs/semantics/schedules-and-hangs.md)
 *   STREAMSIM_WATCHDOG_MS  report (on standard error) a host function or kernel body that has not returned
 *                       after this many ms of real time; 0 off (default off; 1000 under serialize)
 *   STREAMSIM_CHECK_DETERMINISM  1: at exit, run the program once more as a child and compare the two runs'
 *                       traces; a difference is printed and the process exits with status 67
 *   STREAMSIM_ENGINES   on | off (default on): the engine model of virtual time (copy engines per direction,
 *                       128 kernel slots per device; docs/semantics/engine-model.md); off: every operation
 *                       starts when it is ready. Machines of streamsimMachineCreate* have it on.
 * The default machine keeps a trace only when STREAMSIM_TRACE or STREAMSIM_TIMELINE asks for one. A bad
 * value is not replaced by a default: every call of that vendor fails (CUDA/MUSA cudaErrorNoDevice, ACL
 * ACL_ERROR_UNINITIALIZE) and the message naming the variable is printed once to standard error. The exit
 * actions run after every atexit handler and global destructor.
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
    /* A Ctx kernel body's access outside its declared accesses, past the end of an allocation, or a write
     * into a range declared read-only: the kernel faults (700 / 507015 at the next synchronize). */
    STREAMSIM_ERROR_ILLEGAL_ADDRESS = 6,
    /* streamsimMachineWriteTrace on a machine that keeps no trace. */
    STREAMSIM_ERROR_NO_TRACE = 7,
    /* A file cannot be written (the message is printed to standard error). */
    STREAMSIM_ERROR_IO = 8,
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
 * the kernel: CUDA/MUSA cudaErrorLaunchFailure (719) or cudaErrorIllegalAddress (700), which then sticks to the
 * device until it is reset; ACL ACL_ERROR_RT_AICORE_EXCEPTION (507015), as the stream's failure mode says
 * (aclrtSetStreamFailureMode: by default reported once by a synchronize, later tasks still run). Any other
 * non-zero value is a launch failure. */
typedef enum streamsimFault {
    STREAMSIM_FAULT_NONE = 0,
    STREAMSIM_FAULT_LAUNCH_FAILURE = 1,
    STREAMSIM_FAULT_ILLEGAL_ADDRESS = 2
} streamsimFault;

/* A declared access of a kernel stand-in (the Ex and Ctx variants) to device memory: the race detector checks
 * it, and a Ctx body may touch only what its kernel declared (see docs/semantics/kernel-bodies.md).
 *
 * `ptr` is device memory; in CUDA and MUSA it may also be pinned host memory (cudaMallocHost), which kernels
 * reach at its host address under unified addressing; ACL refuses pinned host memory (107000: aclrtMallocHost
 * memory reaches a kernel only through aclrtHostRegister, which is not simulated).
 *
 * `flags` is STREAMSIM_ACCESS_READ, STREAMSIM_ACCESS_WRITE, or both OR-ed (the kernel reads and writes the
 * range). A write conflicts with every access, so a WRITE range may also be read. Any other value (0
 * included) is refused by the launch (cudaErrorInvalidValue 1, ACL_ERROR_INVALID_PARAM 100000). */
typedef struct streamsimAccess {
    const void *ptr; /* start of the range */
    size_t bytes;    /* length in bytes */
    int flags;       /* STREAMSIM_ACCESS_READ, STREAMSIM_ACCESS_WRITE, or both OR-ed */
} streamsimAccess;

#define STREAMSIM_ACCESS_WRITE 1
#define STREAMSIM_ACCESS_READ 2

/* ------------------------------------------------------------------------------------------------ kernel bodies
 * C kernel bodies on device memory: cudasimLaunchKernelCtx / musasimLaunchKernelCtx / aclsimLaunchKernelCtx
 * (declared with each vendor's types at the end of this file) run `body(ctx, arg)` when the stream reaches
 * the kernel, and the body reads and writes the memory its launch declared (streamsimAccess) through `ctx`.
 * Semantics, row by row: docs/semantics/kernel-bodies.md. In short:
 *   - Reading is allowed anywhere in a declared range; writing only in a range declared
 *     STREAMSIM_ACCESS_WRITE. The ranges are those resolved at the launch (memory freed after the launch is
 *     still there for the body, as for copies).
 *   - Any other access (undeclared, past the end of an allocation, a write into a read-only range) returns
 *     STREAMSIM_ERROR_ILLEGAL_ADDRESS and faults the kernel: the next synchronize (or query) covering it
 *     returns cudaErrorIllegalAddress (700) / musaErrorIllegalAddress / ACL_ERROR_RT_AICORE_EXCEPTION
 *     (507015), sticky until the device is reset, as for a fallible kernel. After a fault the body's further
 *     accesses do nothing and return STREAMSIM_ERROR_ILLEGAL_ADDRESS again; its maps are not written back.
 *   - `ctx` is valid only inside the body, on the thread running it: another value, or the same one after the
 *     body returned or from another thread, is STREAMSIM_ERROR_INVALID_HANDLE (never dereferenced).
 *   - Host-side pointers: NULL (with bytes > 0) or an address in a device's range is
 *     STREAMSIM_ERROR_INVALID_VALUE (the kernel does not fault); others must be valid host memory.
 *   - Data races are real: two kernels on unsynchronized streams see whatever the other had written when they
 *     read (and the race detector reports the pair from their declared accesses).
 *   - A kernel launched into a stream capture is a node of the graph (model): its body runs at each launch of
 *     the executable graph (each aclmdlRIExecuteAsync), with the same `arg`, so `arg` must outlive the graph
 *     and the body must not free it (docs/semantics/capture-and-graphs.md).
 */

/* The context of a running Ctx kernel body (opaque). */
typedef struct streamsimKernelCtx streamsimKernelCtx;

/* The body of a Ctx kernel stand-in. It must not call the runtime (such calls fail, as inside a host
 * function); it reaches device memory only through `ctx`. */
typedef void (*streamsimKernelCtxBody)(streamsimKernelCtx *ctx, void *arg);

/* Copies `bytes` bytes of the declared memory at `src` (device, or pinned host memory the kernel declared)
 * into host memory at `dst`. Sees what this body wrote through its maps. */
streamsimError streamsimKernelRead(streamsimKernelCtx *ctx, void *dst, const void *src, size_t bytes);

/* Copies `bytes` bytes of host memory at `src` into the declared memory at `dst`, which must lie in ranges
 * declared STREAMSIM_ACCESS_WRITE. The body's maps of those bytes see the new values. */
streamsimError streamsimKernelWrite(streamsimKernelCtx *ctx, void *dst, const void *src, size_t bytes);

/* Sets `*host` to a host pointer to a copy of the `bytes` (> 0) declared bytes at `ptr`, taken now, valid
 * until the body returns, aligned as `ptr` is modulo 64. When the body returns, the bytes it changed there are
 * written back: all of them must lie in ranges declared STREAMSIM_ACCESS_WRITE, or the kernel faults (the
 * first such change ends the write-back). A range inside an earlier map gives a pointer into that map; one
 * that only partly overlaps an earlier map is STREAMSIM_ERROR_INVALID_VALUE. `bytes` = 0 or a NULL `host` is
 * STREAMSIM_ERROR_INVALID_VALUE. */
streamsimError streamsimKernelMap(streamsimKernelCtx *ctx, const void *ptr, size_t bytes, void **host);

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

/* Releases a process handle. The simulated process and its objects live until its last handle (and the last
 * binding made with one) is released; then its queued work still runs and its streams' threads are released.
 * A binding made with the handle stays in force until streamsimUnbind. */
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

/* ------------------------------------------------------------------------------------------------ toolkit
 * Race verdicts, traces and names for testing C/C++ programs (README: "Testing your C/C++ program"). */

/* What a machine does about races. */
typedef enum streamsimRaceMode {
    STREAMSIM_RACES_OFF = 0,     /* no race detection */
    STREAMSIM_RACES_COLLECT = 1, /* reports are collected silently */
    STREAMSIM_RACES_PRINT = 2,   /* each new report is written to standard error as it is found */
    STREAMSIM_RACES_FAIL = 3     /* as PRINT, and the process exits with STREAMSIM_RACES_EXITCODE (66) at exit
                                    if any race was found */
} streamsimRaceMode;

/* How streamsimMachineCreateWithOptions builds a machine. Fill it with streamsimMachineOptionsInit, then set
 * what differs. (streamsimMachineCreate is the same with races COLLECT and trace 1.) */
typedef struct streamsimMachineOptions {
    streamsimDialect dialect; /* default STREAMSIM_DIALECT_CUDA */
    uint32_t devices;         /* 0 to 1024; default 1 */
    uint64_t seed;            /* default 0 */
    streamsimRaceMode races;  /* default STREAMSIM_RACES_PRINT */
    int trace;                /* non-zero: keep a trace for streamsimMachineWriteTrace (default 0: none, so
                                 that a long-running program does not grow) */
} streamsimMachineOptions;

/* The defaults: CUDA, 1 device, seed 0, races printed, no trace. */
streamsimError streamsimMachineOptionsInit(streamsimMachineOptions *options);

/* A new machine as `options` say; every pair of devices linked for peer access, the default cost model.
 * STREAMSIM_ERROR_INVALID_VALUE for NULL pointers, an unknown dialect or race mode, more than 1024 devices;
 * with STREAMSIM_RACES_FAIL, STREAMSIM_ERROR_CONFIG if STREAMSIM_RACES_EXITCODE is not an exit status. */
streamsimError streamsimMachineCreateWithOptions(streamsimMachine *machine,
                                                 const streamsimMachineOptions *options);

/* A new handle of the machine `api`'s calls go to when nothing is bound (the vendor's default machine, built
 * on first use from the environment; STREAMSIM_ERROR_CONFIG if it cannot be). */
streamsimError streamsimDefaultMachine(streamsimMachine *machine, streamsimApi api);

/* Who made one side of a race. */
#define STREAMSIM_ACCESSOR_OPERATION 0 /* an operation on a stream: kernel, copy, memset */
#define STREAMSIM_ACCESSOR_HOST 1      /* a host thread */

/* Which memory raced. */
#define STREAMSIM_MEMORY_DEVICE 0
#define STREAMSIM_MEMORY_PINNED_HOST 1

/* What kind of report it is: a data race, or a use of memory outside its allocation's lifetime (stream-ordered
 * allocation: docs/semantics/stream-ordered-memory.md). */
#define STREAMSIM_RACE_DATA 0             /* two accesses, at least one a write, neither ordered first */
#define STREAMSIM_RACE_USE_BEFORE_ALLOC 1 /* not ordered after the allocation (first: operation "alloc") */
#define STREAMSIM_RACE_USE_AFTER_FREE 2   /* not ordered before the free (second: operation "free"), or after it */

/* One side of a race report. The strings belong to the machine handle the report was read through: valid
 * until streamsimMachineDestroy releases it. */
typedef struct streamsimRaceAccess {
    int accessor;           /* STREAMSIM_ACCESSOR_OPERATION or STREAMSIM_ACCESSOR_HOST */
    int wrote;              /* 1 if it wrote, 0 if it read */
    const char *operation;  /* "kernel", "memcpy", "memset"; for a host thread the call ("host_write") */
    const char *name;       /* the kernel's name, or the copy's call ("memcpy_async"); NULL for a host thread */
    const char *stream;     /* the stream as the report writes it ("stream `copy`", "stream 2"); NULL for a
                               host thread */
    const char *streamName; /* the name given with streamsimNameStream; NULL if none */
    uint32_t device;        /* the stream's device (UINT32_MAX for a host thread) */
    uint32_t process;       /* the process's ordinal on its machine */
    uint32_t thread;        /* the host thread's ordinal (UINT32_MAX for an operation) */
    uint64_t seq;           /* the operation's position in its stream, from 1, as in the trace (0 for a host
                               thread) */
} streamsimRaceAccess;

/* A race report: two accesses to the same bytes, at least one a write, neither ordered before the other; or
 * (kind) an access outside its allocation's lifetime. */
typedef struct streamsimRaceReport {
    streamsimRaceAccess first;  /* the earlier access in program order */
    streamsimRaceAccess second; /* the later one, which completed the race */
    uint64_t allocation;        /* the allocation's number in its memory, in allocation order (1 first) */
    uint64_t offset;            /* the first byte both touch, from the start of the allocation */
    uint64_t bytes;             /* how many bytes both touch */
    uint64_t occurrences;       /* how many times this pair raced (the report is kept once) */
    int memory;                 /* STREAMSIM_MEMORY_DEVICE or STREAMSIM_MEMORY_PINNED_HOST */
    uint32_t memoryDevice;      /* the device of device memory (UINT32_MAX for pinned host memory) */
    const char *fix;            /* the one-line fix */
    int kind;                   /* STREAMSIM_RACE_DATA, _USE_BEFORE_ALLOC or _USE_AFTER_FREE */
} streamsimRaceReport;

/* How many race reports the machine holds (each pair of accesses once, in the order found). */
streamsimError streamsimMachineGetRaceCount(streamsimMachine machine, size_t *count);

/* Report `index` (from 0) as the text STREAMSIM_RACES=print writes. Like snprintf: at most size - 1 bytes and
 * a NUL go to `buffer` (nothing if size is 0; buffer may then be NULL), the full length without the NUL to
 * `length` (if not NULL). STREAMSIM_ERROR_INVALID_VALUE for an index past the last report. */
streamsimError streamsimMachineGetRaceText(streamsimMachine machine, size_t index, char *buffer, size_t size,
                                           size_t *length);

/* Report `index` (from 0) as a struct. STREAMSIM_ERROR_INVALID_VALUE for an index past the last report. */
streamsimError streamsimMachineGetRace(streamsimMachine machine, size_t index, streamsimRaceReport *report);

/* Waits for the machine's queued work, then writes its Chrome trace (Perfetto, chrome://tracing) to `path`:
 * every operation, blocking call and failed call (with the vendor's code), each race as an instant on both
 * operations' tracks joined by an arrow. STREAMSIM_ERROR_NO_TRACE if the machine keeps no trace,
 * STREAMSIM_ERROR_IO if the file cannot be written. */
streamsimError streamsimMachineWriteTrace(streamsimMachine machine, const char *path);

/* The calling thread (of the process `api`'s calls go to) spends `ns` nanoseconds outside the runtime: its virtual
 * clock moves by `ns`, as a sleep or host computation takes time on hardware (nothing sleeps in real time). Not a
 * runtime call. */
streamsimError streamsimHostSleep(streamsimApi api, uint64_t ns);

/* Names a stream (a cudaStream_t, musaStream_t or aclrtStream of the process `api`'s calls go to; NULL is the
 * default stream) or an event for race reports, traces and timelines: "stream `copy stream`" instead of
 * "stream 2". NULL or "" removes the name. Not a runtime call (the virtual clock and the last error do not
 * change). STREAMSIM_ERROR_INVALID_HANDLE for a destroyed, foreign or garbage handle. */
streamsimError streamsimNameStream(streamsimApi api, void *stream, const char *name);
streamsimError streamsimNameEvent(streamsimApi api, void *event, const char *name);

/* Later launches of the kernel `func` (a __global__ function of a program built with `streamsim cc`) take
 * `ns` virtual nanoseconds instead of the cost model's (for teaching: a timeline with chosen proportions);
 * 0 restores the cost model. STREAMSIM_ERROR_INVALID_VALUE if `func` is not a registered kernel. */
streamsimError streamsimSetKernelDuration(const void *func, uint64_t ns);
/* The sanitizer's reports on kernels of a program built with `streamsim cc` (STREAMSIM_CHECK: memcheck,
 * racecheck, synccheck, initcheck): how many were made, and the i-th kept one as "<tool>: <text>",
 * NUL-terminated and cut to `len` bytes (the return value is the whole text's length, or -1 for no such
 * report). Each is also written to standard error, and counts for STREAMSIM_RACES=fail. */
uint64_t streamsimCheckReportCount(void);
int streamsimCheckReportText(uint64_t i, char *buf, size_t len);

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
/* cudasimLaunchKernelEx whose body gets a context on the declared memory (see "kernel bodies" above):
 * kernel<<<…, stream>>>(d_A, d_B, d_C, n) with accesses {d_A, READ}, {d_B, READ}, {d_C, WRITE}. */
cudaError_t cudasimLaunchKernelCtx(cudaStream_t stream, const char *name, uint64_t durationNs,
                                   streamsimKernelCtxBody body, void *arg, const streamsimAccess *accesses,
                                   size_t count);
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
musaError_t musasimLaunchKernelCtx(musaStream_t stream, const char *name, uint64_t durationNs,
                                   streamsimKernelCtxBody body, void *arg, const streamsimAccess *accesses,
                                   size_t count);
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
/* aclsimLaunchKernelEx whose body gets a context on the declared memory (see "kernel bodies" above); a fault
 * is ACL_ERROR_RT_AICORE_EXCEPTION (507015) at the next synchronize. Pinned host memory cannot be declared
 * (ACL_ERROR_RT_PARAM_INVALID 107000). */
aclError aclsimLaunchKernelCtx(aclrtStream stream, const char *name, uint64_t durationNs,
                               streamsimKernelCtxBody body, void *arg, const streamsimAccess *accesses,
                               size_t count);
#ifdef __cplusplus
}
#endif
#endif
