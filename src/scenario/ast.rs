//! The parsed form of a scenario: one [`Statement`] per non-empty line.

use std::time::Duration;

use crate::rules::Dialect;

/// Which vendor's runtime a scenario is written for. CUDA and MUSA share their semantics (and, in the facades,
/// their codes); ACL is parsed but not supported yet.
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
    /// `default`: the NULL stream (legacy default stream of the current device).
    Default,
    /// `legacy`: `cudaStreamLegacy`.
    Legacy,
    /// `per-thread`: `cudaStreamPerThread`.
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
    /// `process NAME`: later statements run in this simulated process (created at its first use).
    Process(Name),
    /// `set-device D`
    SetDevice(i64),
    /// `stream NAME [non-blocking] [priority P] [flags N]`
    Stream {
        /// The variable.
        name: Name,
        /// Raw flags (non-blocking sets bit 0).
        flags: u32,
        /// Priority, if given.
        priority: Option<i32>,
    },
    /// `event NAME [blocking-sync] [disable-timing] [interprocess] [flags N]`
    Event {
        /// The variable.
        name: Name,
        /// Raw flags.
        flags: u32,
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
    /// `destroy NAME` (a stream, event or context)
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
    /// `sync NAME`, `sync stream S`, `sync event E`, `sync device`
    Sync(Target),
    /// `elapsed START END`
    Elapsed(Name, Name),
    /// `get-last-error` (`clear: true`) / `peek-last-error`
    LastError {
        /// Whether the error is cleared.
        clear: bool,
    },
    /// `can-access-peer D P` (not supported yet)
    CanAccessPeer(i64, i64),
    /// `enable-peer-access P` (not supported yet)
    EnablePeerAccess(i64),
    /// `disable-peer-access P` (not supported yet)
    DisablePeerAccess(i64),
    /// `ipc-get-event-handle EVENT HANDLE` (not supported yet)
    IpcGetEventHandle {
        /// The exported event.
        event: Name,
        /// The handle variable.
        handle: Name,
    },
    /// `ipc-open-event-handle HANDLE EVENT` (not supported yet)
    IpcOpenEventHandle {
        /// The handle variable.
        handle: Name,
        /// The opened event's variable.
        event: Name,
    },
    /// `ipc-get-mem-handle BUF HANDLE` (not supported yet)
    IpcGetMemHandle {
        /// The exported device buffer.
        buf: Name,
        /// The handle variable.
        handle: Name,
    },
    /// `ipc-open-mem-handle HANDLE BUF` (not supported yet)
    IpcOpenMemHandle {
        /// The handle variable.
        handle: Name,
        /// The opened buffer's variable.
        buf: Name,
    },
    /// `context NAME [device D]` (not supported yet)
    Context {
        /// The variable.
        name: Name,
        /// The device (the current one if absent).
        device: Option<i64>,
    },
    /// `set-context NAME` (not supported yet)
    SetContext(Name),
    /// `reset-device` (not supported yet)
    ResetDevice,
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
