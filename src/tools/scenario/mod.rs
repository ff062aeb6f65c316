//! Scenarios: small line-based programs, close to the seeds' code, that the `streamsim run` command executes
//! on a fresh machine, printing each call's answer (the vendor's code and name), the terminal timeline and
//! the race reports.
//!
//! ```
//! use streamsim::scenario;
//!
//! let text = "
//!     event start
//!     event stop
//!     record start
//!     kernel k 250us
//!     record stop
//!     sync event stop
//!     elapsed start stop
//! ";
//! let run = scenario::run(&scenario::parse(text)?);
//! assert!(run.stopped.is_none());
//! assert!(run.transcript().contains("0 cudaSuccess: 0.251 ms"));
//! assert!(run.races.is_empty());
//! assert!(run.report(80).lines().all(|l| l.chars().count() <= 80 || !l.contains('|')));
//! # Ok::<(), scenario::ParseError>(())
//! ```
//!
//! # The language
//!
//! One statement per line; `#` starts a comment; words are separated by spaces. Names (streams, events,
//! buffers, contexts, IPC handles, processes) are letters, digits and `_`, declared by the statement that
//! creates them and usable on later lines, in any process. Sizes are `4096`, `64KiB`, `1MiB`, `2GiB` (or `KB`,
//! `MB`, `GB` for powers of ten); durations are `800ns`, `200us` (or `µs`), `1.5ms`, `2s`.
//!
//! The configuration lines come before the first call: `dialect cuda` (the default) / `musa` / `acl`,
//! `devices N` (default 1), `seed N` (default 0), `engines off` or `engines [copy-engines N] [kernel-slots N]`
//! (the engine model, `docs/semantics/engine-model.md`). The dialect decides the semantics, the statements and
//! words allowed, and how answers are printed. The calls:
//!
//! | statement | CUDA / MUSA | ACL |
//! |---|---|---|
//! | `process NAME` | later lines run in that simulated process (created at first use; the first is `main`) | same |
//! | `set-device D`, `get-device`, `get-device-count` | `cudaSetDevice`, `cudaGetDevice`, `cudaGetDeviceCount` | `aclrtSetDevice`, `aclrtGetDevice`, `aclrtGetDeviceCount` |
//! | `reset-device` | `cudaDeviceReset()` (the current device) | — |
//! | `set-device-flags FLAG... [flags N]`, `get-device-flags` | `cudaSetDeviceFlags(flags)` (FLAG: `auto`, `spin`, `yield`, `blocking-sync`, `map-host`, `lmem-resize-to-max`, `sync-memops`), `cudaGetDeviceFlags` | — |
//! | `reset-device D`, `reset-device-force D` | — | `aclrtResetDevice(D)`, `aclrtResetDeviceForce(D)` |
//! | `context C [device D]`, `set-context C`, `destroy C` | — | `aclrtCreateContext(&C, D)` (D: the current device if absent), `aclrtSetCurrentContext`, `aclrtDestroyContext` |
//! | `stream S [non-blocking] [priority P] [flags N]` | `cudaStreamCreateWithPriority(&S, flags, P)` | `stream S [priority P]`: `aclrtCreateStreamWithConfig(&S, P, 0)` |
//! | `event E [blocking-sync] [disable-timing] [interprocess] [flags N]` | `cudaEventCreateWithFlags(&E, flags)` | — |
//! | `event E`, `event E FLAG... [flags N]`, `event E ex [FLAG...]` | — | `aclrtCreateEvent`, `aclrtCreateEventWithFlag`, `aclrtCreateEventExWithFlag`; FLAG: `sync`, `time-line`, `ipc`, `external`, `capture-stream-progress`, `device-use-only` |
//! | `malloc B SIZE` / `malloc-host B SIZE` | `cudaMalloc` / `cudaMallocHost` | `aclrtMalloc` / `aclrtMallocHost` |
//! | `pageable B SIZE` | ordinary host memory (no runtime call) | same |
//! | `free B`, `destroy S` / `destroy E` | `cudaFree` / `cudaFreeHost`, `cudaStreamDestroy` / `cudaEventDestroy` | `aclrtFree` / `aclrtFreeHost`, `aclrtDestroyStream` / `aclrtDestroyEvent` |
//! | `kernel K [on S] [DURATION] [reads B...] [writes B...]` | `K<<<…, S>>>()` (10 µs if no duration) | same |
//! | `memcpy DST SRC [SIZE]` / `memcpy-async DST SRC [SIZE] [on S]` | `cudaMemcpy` / `cudaMemcpyAsync` | `aclrtMemcpy` / `aclrtMemcpyAsync` |
//! | `memset B VALUE [SIZE]` / `memset-async B VALUE [SIZE] [on S]` | `cudaMemset` / `cudaMemsetAsync` | `aclrtMemset` / `aclrtMemsetAsync` |
//! | `host-fn [on S]` | `cudaLaunchHostFunc` | `aclrtLaunchHostFunc` |
//! | `record E [on S]` | `cudaEventRecord(E, S)` | `aclrtRecordEvent(E, S)` |
//! | `wait S E` | `cudaStreamWaitEvent(S, E, 0)` | `aclrtStreamWaitEvent(S, E)` |
//! | `query E` / `query S` (or `query event E`, `query stream S`) | `cudaEventQuery` / `cudaStreamQuery` | `aclrtQueryEventStatus` / `aclrtStreamQuery` |
//! | `sync event E` / `sync stream S` / `sync device` (or `sync NAME`) | `cudaEventSynchronize` / `cudaStreamSynchronize` / `cudaDeviceSynchronize` | `aclrtSynchronizeEvent` / `aclrtSynchronizeStream` / `aclrtSynchronizeDevice` |
//! | `sync event E timeout MS` / `sync stream S timeout MS` | — | `aclrtSynchronizeEventWithTimeout` / `aclrtSynchronizeStreamWithTimeout` (`-1`: forever) |
//! | `elapsed E1 E2` | `cudaEventElapsedTime(&ms, E1, E2)` | `aclrtEventElapsedTime(&ms, E1, E2)` |
//! | `get-last-error` / `peek-last-error` | `cudaGetLastError` / `cudaPeekAtLastError` | `get-last-error`: `aclGetRecentErrMsg` |
//! | `can-access-peer D P` | `cudaDeviceCanAccessPeer(&can, D, P)` | `aclrtDeviceCanAccessPeer(&can, D, P)` |
//! | `enable-peer-access P [flags N]`, `disable-peer-access P` | `cudaDeviceEnablePeerAccess(P, N)`, `cudaDeviceDisablePeerAccess(P)` | `aclrtDeviceEnablePeerAccess(P, N)`, `aclrtDeviceDisablePeerAccess(P)` |
//! | `ipc-get-event-handle E H`, `ipc-open-event-handle H E2` | `cudaIpcGetEventHandle(&H, E)`, `cudaIpcOpenEventHandle(&E2, H)` | `aclrtIpcGetEventHandle(E, &H)`, `aclrtIpcOpenEventHandle(H, &E2)` |
//! | `faulty-kernel K [on S] [DURATION]` | a kernel whose body faults (719, sticky) | same (507015 as the stream's failure mode says) |
//! | `failure-mode S continue\|stop`, `op-wait-timeout SECONDS` | — | `aclrtSetStreamFailureMode`, `aclrtSetOpWaitTimeout` |
//! | `notify N`, `destroy N`, `record-notify N [on S]`, `wait-notify S N [timeout SECONDS]` | — | `aclrtCreateNotify`, `aclrtDestroyNotify`, `aclrtRecordNotify`, `aclrtWaitAndResetNotify` |
//! | `value-write B VALUE [on S]`, `value-wait B geq\|eq\|and\|nor VALUE [on S]` | — | `aclrtValueWrite`, `aclrtValueWait` |
//! | `subscribe S`, `unsubscribe S`, `callback [on S] [block\|no-block]`, `process-report [timeout MS]` | — | `aclrtSubscribeReport`, `aclrtUnSubscribeReport`, `aclrtLaunchCallback`, `aclrtProcessReport` (on the process's one thread) |
//! | `begin-capture S [global\|thread-local\|relaxed]`, `end-capture S G`, `capture-info S`, `capture-mode M` | `cudaStreamBeginCapture`, `cudaStreamEndCapture` (a graph), `cudaStreamGetCaptureInfo`, `cudaThreadExchangeStreamCaptureMode` | `aclmdlRICaptureBegin`, `aclmdlRICaptureEnd` (a model), `aclmdlRICaptureGetInfo`, `aclmdlRICaptureThreadExchangeMode` |
//! | `instantiate G X`, `graph-launch X [on S]`, `graph-dot G`, `destroy G` / `destroy X` | `cudaGraphInstantiate`, `cudaGraphLaunch`, `cudaGraphDebugDotPrint` (printed after the transcript), `cudaGraphDestroy` / `cudaGraphExecDestroy` | `graph-launch M [on S]`: `aclmdlRIExecuteAsync`; `destroy M`: `aclmdlRIDestroy` |
//! | `mem-pool P [device D] [max-size SIZE]`, `destroy P` | `cudaMemPoolCreate`, `cudaMemPoolDestroy` | `aclrtMemPoolCreate`, `aclrtMemPoolDestroy` |
//! | `default-pool P [device D]`, `set-device-pool D P` | `cudaDeviceGetDefaultMemPool`, `cudaDeviceSetMemPool` | — |
//! | `malloc-async B SIZE [on S] [pool P]`, `free-async B [on S]` | `cudaMallocAsync` (`cudaMallocFromPoolAsync` with `pool P`), `cudaFreeAsync` | `aclrtMemPoolMallocAsync` (`on S pool P` required), `aclrtMemPoolFreeAsync` (`on S` required) |
//! | `pool-set P ATTR VALUE`, `pool-get P ATTR`, `trim-pool P SIZE` | `cudaMemPoolSetAttribute`, `cudaMemPoolGetAttribute`, `cudaMemPoolTrimTo` | `aclrtMemPoolSetAttr`, `aclrtMemPoolGetAttr`, `aclrtMemPoolTrimTo` |
//! | `sleep DURATION` | host time passes (no runtime call) | same |
//!
//! Streams can also be written `default` (the NULL stream: CUDA's legacy default stream of the current device,
//! ACL's default stream of the current context), and in CUDA / MUSA `legacy` and `per-thread`. Copies take the
//! kind of their buffers: `malloc` is device memory, `malloc-host` pinned host memory, `pageable` ordinary host
//! memory; `SIZE` defaults to the source's size (`memset`: the buffer's). IPC *memory* handles
//! (`cudaIpcGetMemHandle`) are not in the language (the library and the C API have them): `ipc-get-mem-handle` is
//! refused by the parser.
//!
//! A call that fails prints its code and the run goes on, as a C program that prints the code would. A
//! statement that cannot be carried out at all (using a variable whose creation failed) stops the run with
//! its line. A malformed file — or a statement or word the dialect does not have — is refused before anything
//! runs, with line, column, what was expected and what was found.

mod ast;
mod graphs;
mod lex;
mod outcome;
mod parse;
mod pools;
mod report;
mod run;
mod tasks;

pub use ast::{Engines, EventCall, Name, Scenario, Statement, Stmt, StreamRef, Target, Vendor};
pub use outcome::{CallRecord, Outcome, Race, Run, RunError};
pub use parse::{ParseError, parse};
pub use report::{error_code, error_message, error_name, outcome_text};
pub use run::{MAX_HOST_BUFFER, run};

/// Parses and runs `text`.
pub fn run_source(text: &str) -> Result<Run, ParseError> {
    Ok(run(&parse(text)?))
}
