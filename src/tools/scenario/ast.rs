//! The parsed form of a scenario: one [`Statement`] per non-empty line.

use std::time::Duration;

use crate::engine::core::rules::Dialect;

/// Which vendor's runtime a scenario is written for: the semantics (CUDA and MUSA share theirs), the
/// statements allowed, and the codes and names the answers are printed with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Vendor {
    /// NVIDIA CUDA (`dialect cuda`, the default).
    #[default]
    Cuda,
    /// Moore Threads MUSA (`dialect musa`): CUDA's semantics under `musa` names.
    Musa,
    /// Ascend CANN ACL (`dialect acl`).
    Acl,
}

impl Vendor {
    /// Whether this is ACL (contexts, refcounted device reset, ACL event flags, timeouts).
    pub fn is_acl(self) -> bool {
        self == Vendor::Acl
    }

    /// The core dialect this vendor's semantics follow.
    pub fn dialect(self) -> Dialect {
        match self {
            Vendor::Cuda | Vendor::Musa => Dialect::Cuda,
            Vendor::Acl => Dialect::Acl,
        }
    }

    /// The word used in scenarios: `cuda`, `musa`, `acl`.
    pub fn keyword(self) -> &'static str {
        match self {
            Vendor::Cuda => "cuda",
            Vendor::Musa => "musa",
            Vendor::Acl => "acl",
        }
    }
}

/// A name written in a scenario, with where it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name {
    /// The name.
    pub text: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
}

/// A stream operand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamRef {
    /// `default`: the NULL stream (CUDA: the legacy default stream of the current device; ACL: the current
    /// context's default stream).
    Default,
    /// `legacy`: `cudaStreamLegacy` (CUDA and MUSA only).
    Legacy,
    /// `per-thread`: `cudaStreamPerThread` (CUDA and MUSA only).
    PerThread,
    /// A stream created with `stream NAME`.
    Named(Name),
}

/// What `query` and `sync` act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A stream.
    Stream(StreamRef),
    /// An event.
    Event(Name),
    /// The current device (`sync device` only).
    Device,
}

/// Which call an `event` line makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventCall {
    /// CUDA / MUSA: `cudaEventCreateWithFlags(&E, flags)`; ACL: `aclrtCreateEvent(&E)` (no flags given).
    Create,
    /// ACL: `aclrtCreateEventWithFlag(&E, flags)`.
    WithFlag,
    /// ACL: `aclrtCreateEventExWithFlag(&E, flags)`.
    ExWithFlag,
}

/// The engine model a scenario's machine has (`docs/semantics/engine-model.md`): the `engines` statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Engines {
    /// `engines off`: every operation starts when it is ready.
    pub off: bool,
    /// `copy-engines N`: the device's `AsyncEngineCount` (default 3: one engine per direction).
    pub copy_engines: Option<u32>,
    /// `kernel-slots N`: how many kernels a device runs at once (default 128).
    pub kernel_slots: Option<u32>,
}

impl Engines {
    /// How the transcript's header says it: `engines off`, `copy engines 1 · kernel slots 2`.
    pub fn describe(&self) -> String {
        if self.off {
            return "engines off".to_string();
        }
        let mut parts = Vec::new();
        if let Some(n) = self.copy_engines {
            parts.push(format!("copy engines {n}"));
        }
        if let Some(n) = self.kernel_slots {
            parts.push(format!("kernel slots {n}"));
        }
        parts.join(" · ")
    }
}

/// One statement of a scenario.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Stmt {
    /// `dialect cuda|musa|acl`
    Dialect(Vendor),
    /// `devices N`
    Devices(u32),
    /// `seed N`
    Seed(u64),
    /// `engines off` or `engines [copy-engines N] [kernel-slots N]`: the engine model (see [`Engines`]).
    Engines(Engines),
    /// `process NAME`: later statements run in this simulated process (created at its first use).
    Process(Name),
    /// `set-device D`
    SetDevice(i64),
    /// `stream NAME [non-blocking] [priority P] [flags N]` (ACL: `stream NAME [priority P]`)
    Stream {
        /// The variable.
        name: Name,
        /// Raw flags (non-blocking sets bit 0; always 0 in ACL).
        flags: u32,
        /// Priority, if given.
        priority: Option<i32>,
    },
    /// `event NAME [blocking-sync] [disable-timing] [interprocess] [flags N]` (CUDA, MUSA) or
    /// `event NAME [ex] [sync] [time-line] [ipc] [external] [capture-stream-progress] [device-use-only]
    /// [flags N]` (ACL)
    Event {
        /// The variable.
        name: Name,
        /// Raw flags (the dialect's own bits).
        flags: u32,
        /// Which create call.
        call: EventCall,
    },
    /// `malloc NAME SIZE` (device memory on the current device)
    Malloc {
        /// The variable.
        name: Name,
        /// Bytes.
        bytes: u64,
    },
    /// `malloc-host NAME SIZE` (pinned host memory)
    MallocHost {
        /// The variable.
        name: Name,
        /// Bytes.
        bytes: u64,
    },
    /// `pageable NAME SIZE` (ordinary host memory, e.g. `malloc` / `std::vector`)
    Pageable {
        /// The variable.
        name: Name,
        /// Bytes.
        bytes: u64,
    },
    /// `free BUF`
    Free(Name),
    /// `destroy NAME` (a stream, event, context, notify or memory pool)
    Destroy(Name),
    /// `kernel NAME [on STREAM] [DURATION] [reads BUF...] [writes BUF...]`
    Kernel {
        /// The kernel's name (a label, not a variable).
        name: String,
        /// Where it runs.
        stream: StreamRef,
        /// Its virtual duration (the cost model's default if absent).
        duration: Option<Duration>,
        /// Device buffers it reads.
        reads: Vec<Name>,
        /// Device buffers it writes.
        writes: Vec<Name>,
    },
    /// `memcpy DST SRC [SIZE]` or `memcpy-async DST SRC [SIZE] [on STREAM]`
    Memcpy {
        /// Destination buffer.
        dst: Name,
        /// Source buffer.
        src: Name,
        /// Bytes (the source's size if absent).
        bytes: Option<u64>,
        /// `Some` for `memcpy-async`.
        stream: Option<StreamRef>,
    },
    /// `memset BUF VALUE [SIZE]` or `memset-async BUF VALUE [SIZE] [on STREAM]`
    Memset {
        /// The device buffer.
        buf: Name,
        /// The byte value.
        value: u8,
        /// Bytes (the buffer's size if absent).
        bytes: Option<u64>,
        /// `Some` for `memset-async`.
        stream: Option<StreamRef>,
    },
    /// `host-fn [on STREAM]`
    HostFn(StreamRef),
    /// `record EVENT [on STREAM]`
    Record {
        /// The event.
        event: Name,
        /// The stream.
        stream: StreamRef,
    },
    /// `wait STREAM EVENT`
    Wait {
        /// The waiting stream.
        stream: StreamRef,
        /// The event.
        event: Name,
    },
    /// `query NAME`, `query stream S`, `query event E`
    Query(Target),
    /// `sync NAME`, `sync stream S`, `sync event E`, `sync device`; ACL also `sync stream S timeout MS`,
    /// `sync event E timeout MS`
    Sync {
        /// What is waited for.
        target: Target,
        /// ACL's `timeoutMs` argument (`aclrtSynchronizeStreamWithTimeout`, ...), if given.
        timeout: Option<i32>,
    },
    /// `elapsed START END`
    Elapsed(Name, Name),
    /// `get-last-error` (`clear: true`) / `peek-last-error`
    LastError {
        /// Whether the error is cleared.
        clear: bool,
    },
    /// `get-device`
    GetDevice,
    /// `get-device-count`
    GetDeviceCount,
    /// `can-access-peer D P`
    CanAccessPeer(i64, i64),
    /// `enable-peer-access P [flags N]`
    EnablePeerAccess {
        /// The peer device.
        peer: i64,
        /// The reserved flags argument (0 unless given).
        flags: u32,
    },
    /// `disable-peer-access P`
    DisablePeerAccess(i64),
    /// `ipc-get-event-handle EVENT HANDLE`
    IpcGetEventHandle {
        /// The exported event.
        event: Name,
        /// The handle variable (any process may use it).
        handle: Name,
    },
    /// `ipc-open-event-handle HANDLE EVENT`
    IpcOpenEventHandle {
        /// The handle variable.
        handle: Name,
        /// The opened event's variable.
        event: Name,
    },
    /// `context NAME [device D]` (ACL)
    Context {
        /// The variable.
        name: Name,
        /// The device (the current one if absent).
        device: Option<i64>,
    },
    /// `set-context NAME` (ACL)
    SetContext(Name),
    /// `reset-device` (CUDA, MUSA: the current device), `reset-device D` / `reset-device-force D` (ACL)
    ResetDevice {
        /// The device (ACL); `None`: the current one (`cudaDeviceReset`).
        device: Option<i64>,
        /// `reset-device-force` (`aclrtResetDeviceForce`).
        force: bool,
    },
    /// `faulty-kernel K [on STREAM] [DURATION]`: a kernel whose body faults (a device exception)
    FaultyKernel {
        /// The kernel's name.
        name: String,
        /// Where it runs.
        stream: StreamRef,
        /// Its virtual duration (the cost model's default if absent).
        duration: Option<Duration>,
    },
    /// `failure-mode STREAM continue|stop` (ACL `aclrtSetStreamFailureMode`)
    FailureMode {
        /// The stream.
        stream: StreamRef,
        /// `stop` (`ACL_STOP_ON_FAILURE`) or `continue`.
        stop: bool,
    },
    /// `op-wait-timeout SECONDS` (ACL `aclrtSetOpWaitTimeout`; 0: none)
    OpWaitTimeout(u32),
    /// `notify NAME` (ACL `aclrtCreateNotify`)
    Notify(Name),
    /// `record-notify NOTIFY [on STREAM]` (ACL `aclrtRecordNotify`)
    RecordNotify {
        /// The notify.
        notify: Name,
        /// The stream.
        stream: StreamRef,
    },
    /// `wait-notify STREAM NOTIFY [timeout SECONDS]` (ACL `aclrtWaitAndResetNotify`; 0: forever)
    WaitNotify {
        /// The waiting stream.
        stream: StreamRef,
        /// The notify.
        notify: Name,
        /// Seconds (0: wait forever).
        timeout: u32,
    },
    /// `value-write BUF VALUE [on STREAM]` (ACL `aclrtValueWrite`, at the buffer's start)
    ValueWrite {
        /// The device buffer.
        buf: Name,
        /// The 64-bit value.
        value: u64,
        /// The stream.
        stream: StreamRef,
    },
    /// `value-wait BUF geq|eq|and|nor VALUE [on STREAM]` (ACL `aclrtValueWait`, at the buffer's start)
    ValueWait {
        /// The device buffer.
        buf: Name,
        /// The comparison.
        condition: crate::engine::value_waits::state::ValueCondition,
        /// The value compared with.
        value: u64,
        /// The stream.
        stream: StreamRef,
    },
    /// `subscribe STREAM` / `unsubscribe STREAM` (ACL `aclrtSubscribeReport` / `aclrtUnSubscribeReport` of the
    /// thread the process's lines run on)
    Subscribe {
        /// The stream.
        stream: StreamRef,
        /// `subscribe` (or `unsubscribe`).
        on: bool,
    },
    /// `callback [on STREAM] [block|no-block]` (ACL `aclrtLaunchCallback`; `block` if absent)
    Callback {
        /// The stream.
        stream: StreamRef,
        /// `ACL_CALLBACK_BLOCK`.
        block: bool,
    },
    /// `process-report [timeout MS]` (ACL `aclrtProcessReport`; `-1`, forever, if absent)
    ProcessReport(i32),
    /// `set-device-flags FLAG... [flags N]` (CUDA, MUSA): `cudaSetDeviceFlags` with the raw flags.
    SetDeviceFlags(u32),
    /// `get-device-flags` (CUDA, MUSA): `cudaGetDeviceFlags`.
    GetDeviceFlags,
    /// `begin-capture S [global|thread-local|relaxed]`: `cudaStreamBeginCapture(S, mode)` /
    /// `aclmdlRICaptureBegin(S, mode)` (`global` if absent).
    BeginCapture {
        /// The origin stream.
        stream: StreamRef,
        /// The capture mode.
        mode: crate::engine::graph::CaptureMode,
    },
    /// `end-capture S G`: `cudaStreamEndCapture(S, &G)` (a graph) / `aclmdlRICaptureEnd(S, &G)` (a model).
    EndCapture {
        /// The origin stream.
        stream: StreamRef,
        /// The graph (CUDA, MUSA) or model (ACL) variable.
        graph: Name,
    },
    /// `capture-info S`: `cudaStreamGetCaptureInfo` / `aclmdlRICaptureGetInfo`.
    CaptureInfo(StreamRef),
    /// `capture-mode global|thread-local|relaxed`: `cudaThreadExchangeStreamCaptureMode` /
    /// `aclmdlRICaptureThreadExchangeMode` (prints the previous mode).
    CaptureMode(crate::engine::graph::CaptureMode),
    /// `instantiate G X` (CUDA, MUSA): `cudaGraphInstantiate(&X, G, 0)`.
    Instantiate {
        /// The graph.
        graph: Name,
        /// The executable graph's variable.
        exec: Name,
    },
    /// `graph-launch X [on S]`: `cudaGraphLaunch(X, S)` / `aclmdlRIExecuteAsync(X, S)`.
    GraphLaunch {
        /// The executable graph (CUDA, MUSA) or model (ACL).
        exec: Name,
        /// The stream.
        stream: StreamRef,
    },
    /// `graph-dot G` (CUDA, MUSA): `cudaGraphDebugDotPrint(G, path, 0)`; the DOT is printed after the
    /// transcript.
    GraphDot(Name),
    /// `mem-pool P [device D] [max-size SIZE]`: `cudaMemPoolCreate` / `aclrtMemPoolCreate`.
    MemPool {
        /// The variable.
        name: Name,
        /// The device (the current one if absent).
        device: Option<i64>,
        /// `maxSize` (0 if absent: CUDA's no limit, ACL's whole device).
        max_size: u64,
    },
    /// `default-pool P [device D]` (CUDA, MUSA): `cudaDeviceGetDefaultMemPool(&P, D)`.
    DefaultPool {
        /// The variable.
        name: Name,
        /// The device (the current one if absent).
        device: Option<i64>,
    },
    /// `set-device-pool D P` (CUDA, MUSA): `cudaDeviceSetMemPool(D, P)`.
    SetDevicePool {
        /// The device.
        device: i64,
        /// The pool.
        pool: Name,
    },
    /// `malloc-async B SIZE [on S] [pool P]`: `cudaMallocAsync` / `cudaMallocFromPoolAsync`; ACL
    /// `aclrtMemPoolMallocAsync` (`on S pool P` required).
    MallocAsync {
        /// The variable (a device buffer).
        name: Name,
        /// Bytes.
        bytes: u64,
        /// The stream.
        stream: StreamRef,
        /// The pool, if named.
        pool: Option<Name>,
    },
    /// `free-async B [on S]`: `cudaFreeAsync` / `aclrtMemPoolFreeAsync` (`on S` required).
    FreeAsync {
        /// The device buffer.
        buf: Name,
        /// The stream.
        stream: StreamRef,
    },
    /// `pool-set P ATTR VALUE`: `cudaMemPoolSetAttribute` / `aclrtMemPoolSetAttr`.
    PoolSet {
        /// The pool.
        pool: Name,
        /// The attribute.
        attr: crate::engine::pools::state::PoolAttr,
        /// The value (0 or 1 for the reuse policies).
        value: u64,
    },
    /// `pool-get P ATTR`: `cudaMemPoolGetAttribute` / `aclrtMemPoolGetAttr`.
    PoolGet {
        /// The pool.
        pool: Name,
        /// The attribute.
        attr: crate::engine::pools::state::PoolAttr,
    },
    /// `trim-pool P SIZE`: `cudaMemPoolTrimTo` / `aclrtMemPoolTrimTo`.
    TrimPool {
        /// The pool.
        pool: Name,
        /// `minBytesToKeep`.
        keep: u64,
    },
    /// `sleep DURATION`: host time passes (no runtime call).
    Sleep(Duration),
}

/// One line of a scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Statement {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column of the command word.
    pub column: usize,
    /// The line's text without its comment, trimmed.
    pub source: String,
    /// What it says.
    pub stmt: Stmt,
}

/// A parsed scenario.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Scenario {
    /// The statements, in order.
    pub statements: Vec<Statement>,
}

impl Scenario {
    /// The dialect line's vendor (CUDA if there is none).
    pub fn vendor(&self) -> Vendor {
        self.statements
            .iter()
            .find_map(|s| match s.stmt {
                Stmt::Dialect(v) => Some(v),
                _ => None,
            })
            .unwrap_or_default()
    }

    /// Whether the scenario uses more than one process.
    pub fn has_processes(&self) -> bool {
        self.statements
            .iter()
            .any(|s| matches!(s.stmt, Stmt::Process(_)))
    }
}
