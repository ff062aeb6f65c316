//! # streamsim
//!
//! A simulator of accelerator runtime semantics — devices, contexts, streams, events, device memory, peer access
//! and IPC — as the CUDA/MUSA and Ascend ACL runtimes define them, with no hardware at all. Programs get the
//! vendor's answers (which calls fail, `NotReady` vs `Success`, the vendors' codes through [`cuda`], [`musa`]
//! and [`acl`]), deterministic virtual timestamps, a trace of what ran ([`export`] draws it), and
//! happens-before race reports ([`race`]).
//!
//! ## Quickstart
//!
//! The MUSA events article §2.1: time a kernel with two events.
//!
//! ```
//! use std::time::Duration;
//! use streamsim::{EventFlags, Kernel, Machine, Status, Stream};
//!
//! let machine = Machine::builder().devices(1).seed(7).build()?;
//! let p = machine.process();
//! let (start, stop) = (p.create_event(EventFlags::DEFAULT)?, p.create_event(EventFlags::DEFAULT)?);
//! p.record_event(start, Stream::DEFAULT)?;
//! p.launch(Stream::DEFAULT, Kernel::new("kernel").duration(Duration::from_millis(2)))?;
//! p.record_event(stop, Stream::DEFAULT)?;
//! assert_eq!(p.event_query(stop)?, Status::NotReady); // 2 ms of virtual work is still running
//! p.event_synchronize(stop)?;                         // returns at once in real time
//! let ms = p.event_elapsed_ms(start, stop)?;
//! // the kernel's 2 ms plus the 1 µs call overhead between the two launches: the same on every run
//! assert_eq!(ms, 2.001);
//! # Ok::<(), streamsim::SimError>(())
//! ```
//!
//! ## How it works
//!
//! Every stream is a worker thread running a FIFO of operations; cross-stream waits block the worker until
//! the recorded point has run. Timestamps do not come from those threads: each operation's virtual start and
//! end are computed on the host thread when it is enqueued, from program order alone (see [`time`]); a copy
//! between host and device waits for its device's copy engine of that direction, and a kernel for a free
//! kernel slot (the engine model, [`EngineModel`], on by default). A query
//! answers "complete" iff the work's virtual end is not after the calling thread's virtual clock, so a host
//! spin-loop on a query terminates and gives the same answer on every run; nothing ever sleeps.
//!
//! ## Code map
//!
//! Three layers, one folder each. **Dependencies point down only: tools → facade → engine.** Nothing in
//! `src/engine/` names the facade layer or the tools, and nothing in `src/facade/` names the tools
//! (`tests/suite/layers.rs` checks every file's paths). The public paths (`streamsim::Machine`,
//! `streamsim::cuda`, `streamsim::scenario`, …) are re-exports from here, so the folders are free to change.
//!
//! **The engine, `src/engine/`**: the vendor-neutral simulator. It takes explicit devices and handles and
//! returns [`SimError`]s; it never tests the dialect, it asks the rules table. Inside it, `core/` is the
//! vocabulary and imports nothing else of the engine; each runtime object has a folder that keeps its state
//! (`state.rs`, `config.rs`, tables: fields private to the folder where the others have no business with them)
//! apart from its calls (`calls.rs`: methods of [`Process`]); another object names only what an object keeps,
//! never its calls (`tests/suite/layers.rs`). No import circle crosses a folder: `machine/` lists its processes
//! as `Member`s (a trait `process/` implements), the serialize schedule sees a stream as `Progress` (a trait
//! `exec/` implements), and `Machine::process` lives in `process/`.
//!
//! | folder | what it holds |
//! |---|---|
//! | `core/` | the vocabulary: `calls.rs` (`EngineCall`: every engine call, typed, by the name its errors carry), [`error`] (with the error details in `problems.rs`), [`handle`] (ids and the handle layout; `registry.rs`: index + epoch registries), [`time`] ([`VirtualTime`], the [`CostModel`] and its [`EngineModel`], `schedule`), [`rules`] ([`Dialect`] → [`Rules`], the table of what each vendor allows), [`hang`] ([`Schedule`], [`WaitCycle`], [`HangReport`]), `races.rs` (the race report types; `race_kinds!` declares every [`RaceKind`]), `pointers.rs` (device and host addresses, copy endpoints, the device address layout), `labels.rs` (how reports write streams, events, operations), `status.rs`, `limits.rs` (`MAX_DEVICES`), `rng.rs` |
//! | `machine/` | [`Machine`] and its shared state (`mod.rs`: devices, the trace and race accessors, the process list), its builder (`builder.rs`) |
//! | `process/` | [`Process`]: per-thread state and `Process::call` (`thread.rs`), the registries and per-device state (`state.rs`), enqueue and the legacy default stream's edges (`enqueue.rs`), the pump and the live sets (`live.rs`), the wait board and timed waits (`board.rs`, `wait.rs`) |
//! | `exec/` | execution: the stream worker and its operations (`mod.rs`), record points and a stream's completion state (`point.rs`), a stream's queue (`queue.rs`: unbounded, lock-free for the enqueueing thread), the worker threads (`workers.rs`: hand-off, fork), held waits (`gate.rs`), blocking callbacks (`callback.rs`), sticky faults along happens-before edges (`faults.rs`), the copy-engine model (`copy_engines.rs`: copy engines and kernel slots, first fit; `docs/semantics/engine-model.md`) |
//! | `schedules/` | harsh schedules: the serialize schedule (`serialize.rs`) and the real-time watchdog (`watchdog.rs`); rules in `docs/semantics/schedules-and-hangs.md` |
//! | `observe/` | observation: the per-machine [`Trace`] (`trace.rs`) and what it keeps (`trace_store.rs`: [`TraceWindow`], [`TraceRecord`]), names given to streams and events (`names.rs`), race detection (`race/`: sparse vector clocks in `clock.rs`, shadow memory in `shadow.rs`) |
//! | `devices/` | the devices: configuration (`config.rs`: [`DeviceConfig`], [`Attribute`]), the default profile and PCI locations (`profile.rs`), a process's flags and limits ([`device_state`], `settings.rs`), set / get / reset device, ACL contexts, peer access (`calls.rs`), flags, limits, free memory and the occupancy calculator (`queries.rs`) |
//! | `streams/` | the stream calls (`calls.rs`: create, destroy, synchronize, query, device synchronize), a stream's registry entry (`entry.rs`: dispatch, race-detection clock, held operations), [`stream_info`] (`info.rs`) |
//! | `events/` | events: flags and configuration (`config.rs`), the record state shared through IPC (`state.rs`), the calls (`calls.rs`) |
//! | `notifies/`, `value_waits/`, `callbacks/` | ACL notifies, value waits and writes, stream callbacks run by subscribed threads (`reports.rs`: the subscriptions' queues): each `state.rs` and `calls.rs` |
//! | `kernels/` | [`Kernel`] and [`KernelCtx`] (`kernel.rs`), launches, host functions and stream callbacks (`launch.rs`) |
//! | `memory/` | device memory and pinned host memory (`mod.rs`), one allocation's bytes, lock and shadow (`block.rs`), pools' reservations (`reserve.rs`), freed pinned buffers (`freed_pinned.rs`), allocations and copies and memsets (`copies.rs`) |
//! | `host_memory/` | [`host_memory`]: registering host memory as pinned, pointer attributes |
//! | `pools/` | memory pools: chunks, freed ranges, reuse ([`pool`], `state.rs`) and the stream-ordered calls (`calls.rs`) |
//! | `graph/` | capture and graphs ([`graph`]): capture sequences and modes (`capture.rs`, `api.rs`), the capture rules other calls ask (`gate.rs`, `events.rs`), graphs and their inspection (`node.rs`, `graph_api.rs`), executable graphs (`exec_graph.rs`) replayed on lanes (`replay.rs`); rules in `docs/semantics/capture-and-graphs.md` |
//! | `ipc/` | interprocess event handles ([`ipc`], `events.rs`), memory ([`ipc_memory`], `memory.rs`), the machine's tables of both (`tables.rs`) |
//! | `host/` | real OS processes on one shared host: the segment and its layout, events and memory across OS processes (`events.rs`, `remote.rs`, `shared_mem.rs`), object names (`names.rs`), the SIGBUS guard (`guard.rs`) |
//!
//! **The facade layer, `src/facade/`**: the vendors' names, C types and codes, translated to engine calls.
//! It holds no simulator state.
//!
//! | file | what it holds |
//! |---|---|
//! | `binding.rs` ([`facade`]) | which process a call goes to ([`Process::bind`] or the default machine), panic containment, pointer helpers |
//! | `cuda_family.rs` | the CUDA/MUSA name table: one row per function, constant and type, expanded as [`cuda`] and [`musa`] |
//! | `cuda_runtime.rs` (with `cuda_memory.rs`, `cuda_ipc.rs`) | what the CUDA/MUSA functions do, and `code`: the one mapping of a [`SimError`] to a `cudaError_t`; memory calls and copies in `cuda_memory.rs`, IPC handles in `cuda_ipc.rs` |
//! | `cuda.rs`, `musa.rs` | the two expansions of the table |
//! | `cuda_device.rs`, `cuda_device_prop.rs` | device and runtime queries; `struct cudaDeviceProp` and the attribute table |
//! | `cuda_host_memory.rs`, `cuda_stream_info.rs` | `cudaHostAlloc` / `Register` / `PointerGetAttributes`; `cudaStreamGetId` / `GetDevice`, record / wait flags |
//! | `cuda_pool.rs` | stream-ordered memory: `cudaMallocAsync` / `cudaFreeAsync` / `cudaMallocFromPoolAsync`, `cudaMemPool*`, `cudaDevice{Get,Set,GetDefault}MemPool` |
//! | `acl/` ([`acl`]) | ACL: `types.rs` (C types, constants, codes), `mod.rs` (the `extern "C"` functions), `runtime.rs` (what they do, and `code`; events in `event_runtime.rs`, memory in `memory_runtime.rs`), `names.rs` (the ACL function behind each engine call, for messages), `control.rs` / `control_runtime.rs` (failure modes, wait tasks, notifies, callbacks, queries), `pool.rs` / `pool_runtime.rs` (stream-ordered memory allocation, `aclrtMemPool*`) |
//! | `capi.rs` ([`capi`]) | the C library's own calls (`include/streamsim.h`): machines, processes, bindings, kernel stand-ins |
//! | `capi_toolkit.rs` (in [`capi`]) | the C toolkit: machines with options (race mode, trace), race reports read from C, names for streams and events |
//! | `determinism_check.rs` | `STREAMSIM_CHECK_DETERMINISM=1`: at exit, the program runs itself again as a child and the two traces are compared |
//! | `exit.rs` | `STREAMSIM_RACES` printing, and what happens at exit: the trace, the timeline, the `fail` exit status |
//! | `kernel_ctx.rs` | C kernel bodies on device memory: the context of `…LaunchKernelCtx` and the `streamsimKernel*` accessors (re-exported by [`capi`]) |
//! | `cuda_graph.rs`, `acl/model.rs` | stream capture and graphs: `cudaStreamBeginCapture` … `cudaGraphLaunch`, `cudaGraphDebugDotPrint` (reached from `cuda_runtime.rs`); `aclmdlRICapture*`, `aclmdlRIExecuteAsync`, `aclmdlRIDestroy` |
//! | `cuda_graph_build.rs` | graphs built by hand: `cudaGraphCreate`, `cudaGraphAdd*Node`, node parameters, `cudaGraphExecUpdate` (CUDA 12.8 structs) |
//!
//! **The tools, `src/tools/`**: built on both.
//!
//! | file | what it holds |
//! |---|---|
//! | `scenario/` ([`scenario`]) | the scenario language: lexer, parser, runner (`run.rs`; `run/statements.rs`: what each statement calls), report; `tasks.rs` (execution control and ACL's wait tasks) and `pools.rs` (stream-ordered memory) parse and run their own statements (the `streamsim run` command is `src/main.rs`) |
//! | `cc/` ([`cc`]) | `streamsim cc`: the compiler driver (nvcc's options, clang's two passes, the link with `include/streamsim/cc/kernel_rt.c`) and `ir.rs`, the rewrite of the device pass's NVPTX IR for the host; what its programs call at run time is `src/facade/cc_runtime.rs` |
//! | `export/` ([`export`]) | exporters of a [`Trace`]: Chrome/Perfetto JSON (`chrome.rs`), the terminal timeline (`timeline.rs`), which draws [`export::TimelineModel`] (`timeline_model.rs`: lanes, bars, marks and waits in virtual time, no glyphs; what any other timeline renderer reads) |
//! | `testing.rs` (`testing`, feature `proptest`) | random stream programs for property tests: their steps and outcomes; `testing/strategy.rs`: the strategy (`program`, `Limits`); `testing/runner.rs`: running one (`Program::run`); `testing/capture.rs`: random stream captures; `testing/determinism.rs`: the determinism self-check (`check_determinism`); `testing/world.rs` (and `world/run.rs`): programs of several processes, host threads and devices; `testing/acl.rs`: ACL programs; `testing/codes.rs`: the facades' codes of errors |
//! | `c_trace.rs` | the C library's calls that need the exporters (`streamsimMachineWriteTrace`) |
//!
//! The vendor layer's exit actions write traces and timelines with the tools' exporters without naming the
//! tools: the crate root hands the exporters down (`C_EXPORTERS` in `lib.rs`).
//!
//! ### Where a change goes
//!
//! - **A new vendor call**, e.g. `cudaStreamGetDevice`: a row in the `fns` table of
//!   `src/facade/cuda_family.rs` (it becomes `cudaStreamGetDevice` and `musaStreamGetDevice`), its body in
//!   `src/facade/cuda_runtime.rs`, the prototype in `include/cuda_runtime_api.h` and
//!   `include/musa_runtime_api.h` (types and constants in `include/driver_types.h`; `tests/suite/c_headers.rs`
//!   fails until the three agree).
//!   An ACL call: the `extern "C"` function in `src/facade/acl/mod.rs`, its body in `src/facade/acl/runtime.rs`,
//!   constants in `src/facade/acl/types.rs`, the prototype in the header of `include/acl/` where CANN has it
//!   (`acl_rt.h` for most; `tests/suite/c_header_sets.rs` checks the place). If the engine cannot answer it
//!   yet, widen the engine's API first: a method of [`Process`] in the `calls.rs` of the object's folder
//!   (`src/engine/streams/calls.rs`, `src/engine/events/calls.rs`, …) rather than reaching into its internals.
//! - **A new rule with its own code**, e.g. "ACL refuses X": a field of [`Rules`] in `src/engine/core/rules.rs`,
//!   set in both dialects' tables there, asked by the engine where X happens (the object's `calls.rs`); the
//!   error it returns is a [`SimError`] variant (`src/engine/core/error.rs`, its details in `problems.rs`), and
//!   the vendor's code for it is chosen in the `code` function of `src/facade/acl/runtime.rs` (and of
//!   `src/facade/cuda_runtime.rs`; both match every variant, so an error without a code does not compile). A
//!   code that depends on the call matches the typed call, `EngineCall::of(what) == Some(EngineCall::…)`; a new
//!   engine call is a row of `engine_calls!` in `src/engine/core/calls.rs`, and `src/facade/acl/names.rs`
//!   does not compile until it has its ACL function. Its test names the row of `docs/semantics/`.
//! - **A new race kind**: a row of `race_kinds!` in `src/engine/core/races.rs` (the one list: the variant,
//!   [`RaceKind::ALL`], its title); the compiler then asks for it in [`RaceKind::is_lifetime`] and in the C
//!   constants (`c_kind`, `src/facade/capi_toolkit.rs`), and a unit test there asks for its `STREAMSIM_RACE_*`
//!   in `include/streamsim.h`. Detection that finds it goes in `src/engine/observe/race/`.
//! - **A new exporter**: a module in `src/tools/export/` that reads a [`Trace`] (see `chrome.rs`), declared and
//!   re-exported in `src/tools/export/mod.rs`; an SVG or HTML view of the timeline draws
//!   [`export::TimelineModel`] (`src/tools/export/timeline_model.rs`), as `timeline.rs` does.
//! - **A new schedule**: a variant of [`Schedule`] (`src/engine/core/hang.rs`), its machinery in
//!   `src/engine/schedules/` (see `serialize.rs`: a worker asks it before and after each operation, host threads
//!   tell it when they wait), chosen in `src/engine/machine/builder.rs`.

//! ## CUDA ↔ ACL ↔ streamsim
//!
//! | CUDA / MUSA | ACL | streamsim |
//! |---|---|---|
//! | `cudaSetDevice` | `aclrtSetDevice` | [`Process::set_device`] |
//! | `cudaStreamCreateWithFlags` | `aclrtCreateStreamWithConfig` | [`Process::create_stream`] |
//! | `cudaStreamDestroy` | `aclrtDestroyStream` | [`Process::destroy_stream`] |
//! | `cudaStreamSynchronize` | `aclrtSynchronizeStream` | [`Process::stream_synchronize`] |
//! | `cudaStreamQuery` | `aclrtStreamQuery` | [`Process::stream_query`] |
//! | `cudaStreamWaitEvent(s, e)` | `aclrtStreamWaitEvent(s, e)` | [`Process::stream_wait_event`] |
//! | `cudaEventCreateWithFlags` | `aclrtCreateEventWithFlag` | [`Process::create_event`] |
//! | `cudaEventRecord(e, s)` | `aclrtRecordEvent(e, s)` | [`Process::record_event`] |
//! | `cudaEventQuery` | `aclrtQueryEventStatus` | [`Process::event_query`] |
//! | `cudaEventSynchronize` | `aclrtSynchronizeEvent` | [`Process::event_synchronize`] |
//! | `cudaEventElapsedTime` | `aclrtEventElapsedTime` | [`Process::event_elapsed_ms`] |
//! | `cudaStreamBeginCapture` | `aclmdlRICaptureBegin` | [`Process::begin_capture`] |
//! | `cudaStreamEndCapture` | `aclmdlRICaptureEnd` (also instantiates) | [`Process::end_capture`] ([`Process::end_capture_executable`]) |
//! | `cudaStreamGetCaptureInfo` | `aclmdlRICaptureGetInfo` | [`Process::capture_info`] |
//! | `cudaThreadExchangeStreamCaptureMode` | `aclmdlRICaptureThreadExchangeMode` | [`Process::exchange_capture_mode`] |
//! | `cudaGraphInstantiate` | — | [`Process::instantiate_graph`] |
//! | `cudaGraphLaunch` | `aclmdlRIExecuteAsync` | [`Process::launch_graph`] |
//! | `cudaGraphExecDestroy` / `cudaGraphDestroy` | `aclmdlRIDestroy` | [`Process::destroy_graph_exec`] / [`Process::destroy_graph`] |
//! | `cudaGraphDebugDotPrint` | — | [`Process::graph_dot`] |
//! | `cudaGraphCreate` / `cudaGraphAdd*Node`, `cudaGraphAddNode` | — (`aclmdlRIBuildBegin` … is stream-based, not simulated) | [`Process::create_graph`] / [`Process::add_graph_node`] |
//! | `cudaGraphAddDependencies` / `…RemoveDependencies` / `cudaGraphDestroyNode` | — | [`Process::add_graph_dependencies`] / [`Process::remove_graph_dependencies`] / [`Process::destroy_graph_node`] |
//! | `cudaGraph*NodeSetParams` / `cudaGraphExec*NodeSetParams` / `cudaGraphNodeSetEnabled` | — | [`Process::set_graph_node`] / [`Process::set_exec_node`] / [`Process::set_exec_node_enabled`] |
//! | `cudaGraphExecUpdate` / `cudaGraphUpload` | — | [`Process::update_graph_exec`] / [`Process::upload_graph`] |
//! | `kernel<<<…, s>>>` | `kernel<<<…, s>>>` | [`Process::launch`] with a [`Kernel`] |
//! | `cudaMemcpy` / `cudaMemcpyAsync` | `aclrtMemcpy` / `aclrtMemcpyAsync` | [`Process::memcpy`] / [`Process::memcpy_async`] |
//! | `cudaMemset(Async)` | `aclrtMemset(Async)` | [`Process::memset`] / [`Process::memset_async`] |
//! | `cudaLaunchHostFunc` | `aclrtLaunchHostFunc` | [`Process::launch_host_func`] |
//! | `cudaStreamAddCallback` | — | [`Process::stream_add_callback`] |
//! | — | `aclrtMemset(Async)` of `aclrtMallocHost` memory | [`Process::memset_host`] / [`Process::memset_host_async`] |
//! | `cudaMalloc` / `cudaMallocHost` | `aclrtMalloc` / `aclrtMallocHost` | [`Process::malloc`] / [`Process::malloc_host`] |
//! | `cudaMallocManaged` / `cudaMemPrefetchAsync` / `cudaMemAdvise` | (`aclrtMemAllocManaged`, not simulated) | [`Process::malloc_managed`] / [`Process::mem_prefetch_async`] / [`Process::mem_advise`] |
//! | `cudaDeviceSynchronize` | `aclrtSynchronizeDevice` | [`Process::device_synchronize`] |
//! | `cudaMallocAsync` / `cudaMallocFromPoolAsync` | `aclrtMemPoolMallocAsync` | [`Process::malloc_async`] / [`Process::malloc_from_pool_async`] |
//! | `cudaFreeAsync` | `aclrtMemPoolFreeAsync` | [`Process::free_async`] |
//! | `cudaMemPoolCreate` / `cudaMemPoolDestroy` | `aclrtMemPoolCreate` / `aclrtMemPoolDestroy` | [`Process::create_pool`] / [`Process::destroy_pool`] |
//! | `cudaMemPoolSetAttribute` / `GetAttribute` / `TrimTo` | `aclrtMemPoolSetAttr` / `GetAttr` / `TrimTo` | [`Process::set_pool_attribute`] / [`Process::pool_attribute`] / [`Process::trim_pool`] |
//! | NULL stream (legacy default stream) | NULL stream (context default stream) | [`Stream::DEFAULT`] |
//! | `cudaGetLastError` | `aclGetRecentErrMsg` | [`Process::take_last_error`] |
#![deny(missing_docs)]
#![deny(missing_debug_implementations)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod engine;
pub mod facade;
mod tools;

pub use engine::core::{error, handle, hang, rules, time};
pub use engine::devices::settings as device_state;
pub use engine::host_memory::calls as host_memory;
pub use engine::ipc::{events as ipc, memory as ipc_memory};
pub use engine::kernels::kernel;
pub use engine::observe::{race, trace};
pub use engine::pools::state as pool;
pub use engine::streams::info as stream_info;
pub use engine::{graph, machine, memory};
// The facades are documented at the crate root (`streamsim::cuda`, …), their paths since the first release.
pub use facade::cc_check::{CheckOp, CheckReport, MAX_CHECK_REPORTS, check_reports};
#[doc(inline)]
pub use facade::{acl, capi, cuda, musa};

#[cfg(feature = "proptest")]
#[cfg_attr(docsrs, doc(cfg(feature = "proptest")))]
pub use tools::testing;
pub use tools::{cc, exec, export, scenario};

/// The stream queue, for the bench's comparison with crossbeam-channel; not part of the API.
#[doc(hidden)]
pub use engine::exec::queue::bench as bench_queue;

/// The exporters that the C library's exit actions use (`src/facade/exit.rs`: the trace written for
/// `STREAMSIM_TRACE`, the timeline for `STREAMSIM_TIMELINE`). The vendor layer does not name the tools; the
/// crate root, which knows every layer, hands them down here.
pub(crate) static C_EXPORTERS: facade::exit::Exporters = facade::exit::Exporters {
    chrome: tools::c_trace::chrome_json,
    timeline: tools::c_trace::timeline_text,
};

// The root names of engine items. Items of a public module are documented at that module's path
// (`streamsim::machine::Machine`), so `no_inline`; those of `event` and `process` have no other path.
#[doc(no_inline)]
pub use engine::core::error::{
    CaptureProblem, FaultKind, HandleProblem, HostMemoryProblem, InitProblem, IpcProblem,
    ObjectKind, ObjectLimit, PeerProblem, PoolProblem, Result, SimError, SubscriptionProblem,
};
#[doc(no_inline)]
pub use engine::core::handle::{
    Context, Event, EventId, Graph, GraphExec, GraphNode, MemPool, Notify, NotifyId, ProcessId,
    Stream, StreamId, StreamKind,
};
#[doc(no_inline)]
pub use engine::core::hang::{HangReport, IPC_WAIT, RemoteState, Schedule, WaitCycle, WaitLink};
#[doc(no_inline)]
pub use engine::core::rules::{Dialect, FailureMode, PoolRules, Rules};
#[doc(no_inline)]
pub use engine::core::time::{CopyPath, CostModel, EngineModel, LinkCost, VirtualTime};
#[doc(no_inline)]
pub use engine::devices::settings::{DeviceFlags, DeviceLimit, WaitPolicy};
pub use engine::events::config::{EventConfig, EventFlags, RecordStatus, UnrecordedWait};
#[doc(no_inline)]
pub use engine::graph::memory::GraphMemAttr;
pub use engine::graph::{
    CaptureInfo, CaptureMode, CaptureStatus, MemsetShape, NodeMem, NodeSpec, NodeType,
    UpdateOutcome, UpdateResult,
};
#[doc(no_inline)]
pub use engine::host_memory::calls::{MemoryKind, PointerAttributes};
#[doc(no_inline)]
pub use engine::host_memory::managed::{
    MANAGED_PAGE, ManagedAdvice, ManagedAttach, ManagedLocation, ManagedRangeAttributes,
};
#[doc(no_inline)]
pub use engine::ipc::events::IpcEventHandle;
#[doc(no_inline)]
pub use engine::ipc::memory::IpcMemHandle;
#[doc(no_inline)]
pub use engine::kernels::kernel::{Access, Kernel, KernelCtx, KernelError};
#[doc(no_inline)]
pub use engine::machine::{Attribute, DeviceConfig, Machine, MachineBuilder};
/// Pitched copies and memsets.
pub use engine::memory::pitched::{Extent, Pitch};
#[doc(no_inline)]
pub use engine::memory::{AddressSpace, DevicePtr, Dst, HostPtr, Src};
#[doc(no_inline)]
pub use engine::observe::race::{
    Accessor, KernelThread, RaceAccess, RaceDetection, RaceKind, RaceReport,
};
#[doc(no_inline)]
pub use engine::observe::trace::{
    Dropped, FailedCall, HostEvent, OpKind, Trace, TraceEvent, TraceNames, TraceRecord, TraceWindow,
};
#[doc(no_inline)]
pub use engine::pools::access::PoolAccess;
#[doc(no_inline)]
pub use engine::pools::state::{PoolAttr, PoolProps, ReusePolicy};
pub use engine::process::{Process, Status, StreamFlags};
pub use engine::value_waits::state::ValueCondition;
