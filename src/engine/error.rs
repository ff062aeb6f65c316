//! [`SimError`]: every way a call into the simulator can fail.
//!
//! Caller mistakes (destroyed handles, wrong device, bad flags, out-of-range copies) are errors with
//! structured fields naming the object involved. Broken internal invariants are panics. The facades map
//! each variant to the vendor's code in one function each.

use crate::engine::handle::{EventId, ProcessId, StreamId};
use crate::engine::memory::AddressSpace;

/// The result type of every simulator call.
pub type Result<T, E = SimError> = std::result::Result<T, E>;

/// What kind of object a handle names (used in [`SimError::InvalidHandle`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ObjectKind {
    /// A stream.
    Stream,
    /// An event.
    Event,
    /// A context (ACL).
    Context,
    /// A notify (ACL).
    Notify,
    /// A graph (CUDA `cudaGraph_t`).
    Graph,
    /// An executable graph (CUDA `cudaGraphExec_t`, ACL `aclmdlRI`).
    GraphExec,
    /// A node of a graph (CUDA `cudaGraphNode_t`).
    GraphNode,
    /// A memory pool.
    MemPool,
}

impl std::fmt::Display for ObjectKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ObjectKind::Stream => "stream",
            ObjectKind::Event => "event",
            ObjectKind::Context => "context",
            ObjectKind::Notify => "notify",
            ObjectKind::Graph => "graph",
            ObjectKind::GraphExec => "executable graph",
            ObjectKind::GraphNode => "graph node",
            ObjectKind::MemPool => "memory pool",
        })
    }
}

/// Why a handle was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HandleProblem {
    /// The handle named a live object once; it has been destroyed since.
    Destroyed,
    /// The handle was never handed out by this process (forged, or garbage).
    Unknown,
    /// The handle belongs to another simulated process.
    Foreign {
        /// The process that owns the handle.
        owner: ProcessId,
    },
    /// The handle belongs to another machine.
    OtherMachine,
    /// A special handle that cannot be used for this call (e.g. destroying the default stream).
    NotAllowed,
    /// The object was freed by a reset of its device.
    FreedByReset {
        /// The device that was reset.
        device: u32,
    },
}

impl std::fmt::Display for HandleProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HandleProblem::Destroyed => f.write_str("it was destroyed"),
            HandleProblem::Unknown => f.write_str("it was never created by this process"),
            HandleProblem::Foreign { owner } => write!(f, "it belongs to process {owner}"),
            HandleProblem::OtherMachine => f.write_str("it belongs to another machine"),
            HandleProblem::NotAllowed => f.write_str("this special handle cannot be used here"),
            HandleProblem::FreedByReset { device } => {
                write!(f, "it was destroyed by the reset of device {device}")
            }
        }
    }
}

/// Why an asynchronous operation failed on its stream (a sticky error).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FaultKind {
    /// A kernel body touched device memory outside every live allocation.
    IllegalAddress,
    /// A kernel body (or host function) returned an error or panicked.
    LaunchFailure,
}

/// What is wrong in a peer-access call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PeerProblem {
    /// The peer is the current device.
    SameDevice,
    /// The topology has no link between the two devices.
    NoLink,
    /// Access was already enabled.
    AlreadyEnabled,
    /// Access was not enabled.
    NotEnabled,
}

/// What is wrong in an IPC call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IpcProblem {
    /// The event was not created interprocess.
    NotInterprocess,
    /// The handle was opened in the process that exported it.
    SameProcess,
    /// The handle's bytes are not a handle this machine exported (zeroed, forged, or another machine's).
    InvalidHandle,
    /// The handle comes from another OS process, and either its machine or this one is not on a shared host.
    ForeignUnshared,
    /// The handle was exported on the shared host in an earlier run (its epoch is not the current one).
    StaleHandle,
    /// The handle was exported on another shared host (another `STREAMSIM_MACHINE`, user or dialect).
    OtherHost,
    /// What the handle names is gone: the exported event or memory was destroyed or freed, or its process left.
    ExportGone,
    /// The memory's exporter allows only listed processes to import it (ACL's pid allow list), and this one
    /// is not listed.
    NotAllowed,
}

impl std::fmt::Display for IpcProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            IpcProblem::NotInterprocess => {
                "the event was not created interprocess (cudaEventInterprocess, ACL_EVENT_IPC)"
            }
            IpcProblem::SameProcess => {
                "the handle was exported by this same process: open it in another process"
            }
            IpcProblem::InvalidHandle => {
                "the handle was not exported on this simulated machine or its shared host: it is zeroed or \
                 forged, or it comes from another simulated machine, or from another OS process while this \
                 machine is not on a shared host (MachineBuilder::shared_host; the C library's default \
                 machines are)"
            }
            IpcProblem::ForeignUnshared => {
                "the handle comes from another OS process, and its machine or this one is not on a shared \
                 host (the C library's default machines always are; a Rust machine joins one with \
                 MachineBuilder::shared_host)"
            }
            IpcProblem::StaleHandle => {
                "the handle was exported on this shared host in an earlier run, whose processes have all left"
            }
            IpcProblem::OtherHost => {
                "the handle was exported on another shared host (another STREAMSIM_MACHINE, user or dialect)"
            }
            IpcProblem::ExportGone => {
                "what the handle names is gone: it was destroyed or freed, or its process left the shared host"
            }
            IpcProblem::NotAllowed => {
                "the exporter did not add this process to the memory's allowed pids (aclrtIpcMemSetImportPid)"
            }
        })
    }
}

/// What is wrong in a call about stream callbacks and the host threads that process them (ACL
/// `aclrtSubscribeReport`, `aclrtLaunchCallback`, `aclrtProcessReport`, `aclrtUnSubscribeReport`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SubscriptionProblem {
    /// The stream already has a subscribed thread.
    StreamAlreadySubscribed,
    /// The stream has no subscribed thread (to unsubscribe).
    StreamNotSubscribed,
    /// The stream's host functions already go through the runtime's own thread (`launch_host_func`); the two
    /// mechanisms cannot be mixed on one stream.
    HostFunctionStream,
    /// A host function on a stream whose callbacks go through a subscribed thread.
    SubscribedStream,
    /// The thread is subscribed to streams of another device.
    ThreadOnOtherDevice,
    /// The stream's subscriber is another thread.
    NotTheSubscriber,
    /// The calling thread is subscribed to no stream.
    ThreadNotSubscribed,
    /// A callback on a stream that no thread is subscribed to.
    NoSubscriber,
}

impl std::fmt::Display for SubscriptionProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SubscriptionProblem::StreamAlreadySubscribed => {
                "the stream already has a thread subscribed to its callbacks"
            }
            SubscriptionProblem::StreamNotSubscribed => "no thread is subscribed to the stream",
            SubscriptionProblem::HostFunctionStream => {
                "the stream's host functions go through the runtime's thread (aclrtLaunchHostFunc): the two \
                 callback mechanisms cannot be mixed on one stream"
            }
            SubscriptionProblem::SubscribedStream => {
                "a thread is subscribed to the stream's callbacks (aclrtSubscribeReport): the two callback \
                 mechanisms cannot be mixed on one stream"
            }
            SubscriptionProblem::ThreadOnOtherDevice => {
                "the thread is subscribed to streams of another device"
            }
            SubscriptionProblem::NotTheSubscriber => "another thread is subscribed to the stream",
            SubscriptionProblem::ThreadNotSubscribed => {
                "the calling thread is subscribed to no stream (aclrtSubscribeReport)"
            }
            SubscriptionProblem::NoSubscriber => {
                "no thread is subscribed to the stream: call aclrtSubscribeReport first"
            }
        })
    }
}

/// Which rule of stream capture a call broke (see [`SimError::Capture`] and `docs/semantics/capture-and-graphs.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CaptureProblem {
    /// Not permitted while the stream, or something that encompasses it (its device), is capturing: a
    /// synchronize or query of a capturing stream or of its device, or an operation that cannot be captured.
    Unsupported,
    /// A potentially unsafe call (an allocation, a query of an event outside the capture, …) that the calling
    /// thread's capture mode prohibits while a capture is in progress.
    Prohibited,
    /// An earlier error invalidated the capture sequence: it can only be ended.
    Invalidated,
    /// The wait would merge two independent capture sequences.
    Merge,
    /// The capture was not begun on this stream (the stream only joined it).
    Unmatched,
    /// Work captured on a stream forked from the origin stream was not joined back to it before the end.
    Unjoined,
    /// A dependency would cross the capture sequence's boundary (a wait on an event recorded outside it).
    Isolation,
    /// The call would give the legacy (default) stream an implicit dependency on a capture sequence.
    Implicit,
    /// The event was last recorded in a capture sequence: it stands for nodes of a graph, not work scheduled
    /// for execution.
    CapturedEvent,
    /// The capture was begun on another host thread, and not in the relaxed mode.
    WrongThread,
    /// The stream is not capturing.
    NotCapturing,
    /// The stream is already capturing (its own capture, or one it joined).
    AlreadyCapturing,
    /// Capture cannot be begun on this stream (the legacy default stream; ACL's default stream).
    StreamCannotCapture,
    /// A copy involving pageable host memory cannot be captured in this dialect.
    PageableCopy,
    /// A capturing stream cannot be destroyed in this dialect.
    DestroyCapturing,
}

impl std::fmt::Display for CaptureProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            CaptureProblem::Unsupported => "not permitted while the stream (or its device) is capturing",
            CaptureProblem::Prohibited => {
                "a potentially unsafe call, prohibited by the thread's capture mode while a capture is in progress"
            }
            CaptureProblem::Invalidated => {
                "the capture sequence was invalidated by an earlier error: end it (it returns no graph)"
            }
            CaptureProblem::Merge => "the wait would merge two independent capture sequences",
            CaptureProblem::Unmatched => "the capture was not begun on this stream",
            CaptureProblem::Unjoined => {
                "work captured on a forked stream was not joined back to the origin stream"
            }
            CaptureProblem::Isolation => {
                "the wait would depend on work outside the capture sequence (an event recorded outside it; \
                 use the External wait flag)"
            }
            CaptureProblem::Implicit => {
                "the legacy default stream would get an implicit dependency on a capturing stream"
            }
            CaptureProblem::CapturedEvent => "the event was last recorded in a capture sequence",
            CaptureProblem::WrongThread => {
                "the capture was begun on another thread, not in the relaxed mode: end it on that thread"
            }
            CaptureProblem::NotCapturing => "the stream is not capturing",
            CaptureProblem::AlreadyCapturing => "the stream is already capturing",
            CaptureProblem::StreamCannotCapture => "capture cannot be begun on the default stream",
            CaptureProblem::PageableCopy => {
                "a copy involving pageable host memory cannot be captured (use pinned host memory)"
            }
            CaptureProblem::DestroyCapturing => "a capturing stream cannot be destroyed",
        })
    }
}

/// What is wrong in an init / finalize call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InitProblem {
    /// Initialised twice.
    AlreadyInitialized,
    /// Finalised twice.
    AlreadyFinalized,
    /// Finalised without being initialised.
    NotInitialized,
}

/// What is wrong in a host-memory registration call (see [`SimError::HostMemory`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HostMemoryProblem {
    /// The range overlaps host memory that is already pinned (registered, or allocated pinned).
    AlreadyRegistered,
    /// The address is not the start of a registered range.
    NotRegistered,
}

impl std::fmt::Display for HostMemoryProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            HostMemoryProblem::AlreadyRegistered => {
                "the range overlaps host memory that is already registered or allocated pinned"
            }
            HostMemoryProblem::NotRegistered => {
                "it is not the start of a range registered with host_register (cudaHostRegister)"
            }
        })
    }
}

/// Which limit stopped the creation of an object (see [`SimError::TooManyObjects`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ObjectLimit {
    /// The process has as many live objects of this kind as a handle can address.
    Live {
        /// The most live objects of one kind a process can have.
        max: u64,
    },
    /// The process's id is beyond what a handle can encode: the machine has more processes than handles can
    /// tell apart.
    ProcessId {
        /// The highest process id a handle can encode.
        max: u64,
    },
    /// The host refused to start the stream's worker thread (a thread or memory limit of the OS).
    HostThreads,
    /// Every creation ordinal of this kind (the numbers in [`crate::EventId`] and [`crate::StreamKind`]) has
    /// been handed out in this process.
    Ordinals {
        /// The highest ordinal.
        max: u64,
    },
}

impl std::fmt::Display for ObjectLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ObjectLimit::Live { max } => write!(
                f,
                "it already has {max} live, the most a handle can address"
            ),
            ObjectLimit::ProcessId { max } => write!(
                f,
                "handles can name processes 0 to {max} only; create objects in an earlier process"
            ),
            ObjectLimit::HostThreads => f.write_str(
                "the host could not start its worker thread (an OS thread or memory limit)",
            ),
            ObjectLimit::Ordinals { max } => {
                write!(f, "all {max} creation ordinals have been used")
            }
        }
    }
}

/// What is wrong in a call about a memory pool or a stream-ordered allocation (see `pool.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PoolProblem {
    /// The pool handle is destroyed, unknown or another process's.
    Handle(HandleProblem),
    /// A device's default pool cannot be destroyed.
    DefaultPool,
    /// The dialect has no default pools (ACL: only pools made with `aclrtMemPoolCreate`).
    NoDefaultPool,
    /// The pool belongs to another device than the one named.
    OtherDevice {
        /// The pool's device.
        pool_device: u32,
    },
    /// The attribute can only be read.
    ReadOnlyAttribute,
    /// A high watermark can only be reset to 0.
    WatermarkNotZero,
    /// The release threshold is above the pool's size (ACL).
    ThresholdAbovePool {
        /// The pool's size in bytes.
        size: u64,
    },
    /// The attribute number is not one the dialect defines.
    UnknownAttribute(u32),
    /// The pool cannot hold the allocation (its maximum size, or the device's memory, is used up, and no freed
    /// block may be reused).
    Exhausted {
        /// Bytes asked for (aligned).
        requested: u64,
        /// Bytes the pool has reserved.
        reserved: u64,
    },
    /// A trim that would keep fewer bytes than are in use (ACL refuses it).
    TrimBelowUsed {
        /// Bytes in use.
        used: u64,
    },
    /// A trim that would keep more bytes than the pool can hold (ACL refuses it).
    TrimAbovePool {
        /// The pool's size in bytes.
        size: u64,
    },
    /// A stream-ordered free with no stream (ACL: the runtime's `RT_ERROR_STREAM_NULL`).
    NullStream,
}

impl std::fmt::Display for PoolProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PoolProblem::Handle(p) => write!(f, "invalid memory pool handle: {p}"),
            PoolProblem::DefaultPool => {
                f.write_str("a device's default memory pool cannot be destroyed")
            }
            PoolProblem::NoDefaultPool => {
                f.write_str("this runtime has no default memory pools: create one first")
            }
            PoolProblem::OtherDevice { pool_device } => {
                write!(f, "the memory pool belongs to device {pool_device}")
            }
            PoolProblem::ReadOnlyAttribute => f.write_str("the attribute is read-only"),
            PoolProblem::WatermarkNotZero => f.write_str("a high watermark can only be reset to 0"),
            PoolProblem::ThresholdAbovePool { size } => {
                write!(
                    f,
                    "the release threshold is above the pool's size of {size} bytes"
                )
            }
            PoolProblem::UnknownAttribute(a) => write!(f, "unknown memory pool attribute {a}"),
            PoolProblem::Exhausted {
                requested,
                reserved,
            } => write!(
                f,
                "the pool cannot hold {requested} more bytes ({reserved} reserved) and no freed block may be \
                 reused"
            ),
            PoolProblem::TrimBelowUsed { used } => {
                write!(f, "cannot trim below the {used} bytes in use")
            }
            PoolProblem::TrimAbovePool { size } => {
                write!(f, "cannot keep more than the pool's size of {size} bytes")
            }
            PoolProblem::NullStream => f.write_str("the stream is NULL"),
        }
    }
}

/// Every way a simulator call can fail.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SimError {
    /// A stream or event handle that is destroyed, unknown, or another process's.
    #[error("invalid {kind} handle {raw:#x}: {problem}")]
    InvalidHandle {
        /// The kind of object the handle should name.
        kind: ObjectKind,
        /// The handle's raw value.
        raw: u64,
        /// What is wrong with it.
        problem: HandleProblem,
    },
    /// A device ordinal outside `[0, count)`.
    #[error("invalid device {device}: the machine has {count} device(s)")]
    InvalidDevice {
        /// The ordinal given.
        device: i64,
        /// How many devices the machine has.
        count: u32,
    },
    /// An object was used with a device it does not belong to.
    #[error("{what}: {object} belongs to device {object_device}, but {expected}")]
    WrongDevice {
        /// The call.
        what: &'static str,
        /// The object (e.g. "stream 3").
        object: String,
        /// The object's device.
        object_device: u32,
        /// What the call needed (e.g. "the current device is 1").
        expected: String,
    },
    /// Flags with unknown bits or a forbidden combination.
    #[error("invalid flags {flags:#x} for {what}: {reason}")]
    InvalidFlags {
        /// The call.
        what: &'static str,
        /// The flags given.
        flags: u32,
        /// Why they are rejected.
        reason: &'static str,
    },
    /// Any other invalid argument.
    #[error("invalid value for {what}: {reason}")]
    InvalidValue {
        /// The call or argument.
        what: &'static str,
        /// Why it is rejected.
        reason: String,
    },
    /// An event that was never recorded, where the call needs a record.
    #[error("{what}: event {event} has never been recorded")]
    EventNotRecorded {
        /// The call.
        what: &'static str,
        /// The event.
        event: EventId,
    },
    /// Elapsed time asked of an event created without timing.
    #[error("elapsed time: event {event} was created with timing disabled")]
    TimingDisabled {
        /// The event.
        event: EventId,
    },
    /// Work is not finished yet (a query-like answer for calls that cannot return a status).
    #[error("{what}: the work is not finished yet")]
    NotReady {
        /// The call.
        what: &'static str,
    },
    /// A runtime call made where the runtime forbids it (e.g. from inside a host function).
    #[error("{what}: runtime calls are not permitted from inside a host function or kernel body")]
    NotPermitted {
        /// The call.
        what: &'static str,
    },
    /// The call is valid but the simulator (or the dialect) does not support it.
    #[error("{what} is not supported: {reason}")]
    NotSupported {
        /// The call.
        what: &'static str,
        /// Why.
        reason: String,
    },
    /// Device memory is exhausted.
    #[error("out of memory on device {device}: requested {requested} bytes, {available} available")]
    OutOfMemory {
        /// The device.
        device: u32,
        /// The size asked for.
        requested: u64,
        /// What is left.
        available: u64,
    },
    /// The host cannot provide memory for a pinned buffer of this size.
    #[error("host out of memory: {requested} bytes of pinned memory requested")]
    HostOutOfMemory {
        /// The size asked for.
        requested: u64,
    },
    /// No more objects of this kind can be created in this process (a handle could not name it).
    #[error("cannot create another {kind} in process {process}: {limit}")]
    TooManyObjects {
        /// The kind of object.
        kind: ObjectKind,
        /// The process.
        process: ProcessId,
        /// Which limit was reached.
        limit: ObjectLimit,
    },
    /// The machine has no device.
    #[error("{what}: the machine has no device")]
    NoDevice {
        /// The call.
        what: &'static str,
    },
    /// A copy direction (`cudaMemcpyKind`, `aclrtMemcpyKind`) that is not one of the defined values.
    #[error(
        "{what}: {kind} is not a copy direction (0 host→host, 1 host→device, 2 device→host, 3 device→device, 4 default)"
    )]
    InvalidCopyKind {
        /// The call.
        what: &'static str,
        /// The value given.
        kind: u32,
    },
    /// An address that is not inside any live allocation (or a freed one).
    #[error("{what}: address {addr:#x} ({space}) is {problem}")]
    InvalidAddress {
        /// The call.
        what: &'static str,
        /// The address.
        addr: u64,
        /// Which address space it was looked up in.
        space: AddressSpace,
        /// "not allocated", "freed", ...
        problem: &'static str,
    },
    /// A copy or memset that runs past the end of its allocation (or of a host slice).
    #[error(
        "{what}: {bytes} bytes at {addr:#x} run past the end of the {len}-byte region starting at {base:#x}"
    )]
    OutOfRange {
        /// The call.
        what: &'static str,
        /// The start address of the access.
        addr: u64,
        /// The number of bytes accessed.
        bytes: u64,
        /// The start of the region.
        base: u64,
        /// The region's length.
        len: u64,
    },
    /// An asynchronous error of a stream (a kernel body that failed or panicked), reported at the next
    /// synchronize of that stream or device and sticky afterwards.
    #[error("{kind:?} on {stream} of device {device} in `{label}`: {message}")]
    KernelFault {
        /// What went wrong.
        kind: FaultKind,
        /// The device.
        device: u32,
        /// The stream the faulting operation ran on.
        stream: StreamId,
        /// The faulting operation's label.
        label: String,
        /// The body's error or panic message.
        message: String,
    },
    /// A call that needs a current context (ACL: a device set on this thread, or a context made current) has
    /// none.
    #[error("{what}: no current context on this thread (set a device or a context first)")]
    NoContext {
        /// The call.
        what: &'static str,
    },
    /// An object used from a context other than its own (ACL's ownership rule).
    #[error(
        "{what}: {object} belongs to context {object_context}, but the current context is {current}"
    )]
    WrongContext {
        /// The call.
        what: &'static str,
        /// The object.
        object: String,
        /// Its context's ordinal.
        object_context: u32,
        /// The current context's ordinal.
        current: u32,
    },
    /// A device's default context cannot be destroyed explicitly.
    #[error("{what}: the default context of device {device} is released by resetting the device")]
    DefaultContext {
        /// The call.
        what: &'static str,
        /// Its device.
        device: u32,
    },
    /// A reset of a device this process has not set (or already released).
    #[error("{what}: device {device} is not set in this process (never set, or already reset)")]
    DeviceNotSet {
        /// The call.
        what: &'static str,
        /// The device.
        device: u32,
    },
    /// A peer-access call that the dialect refuses.
    #[error("{what}: device {device} → peer {peer}: {problem:?}")]
    PeerAccess {
        /// The call.
        what: &'static str,
        /// The accessing device.
        device: u32,
        /// The peer device.
        peer: u32,
        /// What is wrong.
        problem: PeerProblem,
    },
    /// A copy between devices without peer access where the dialect requires it.
    #[error(
        "{what}: copying between device {src} and device {dst} needs peer access: enable it first (enable_peer_access, aclrtDeviceEnablePeerAccess)"
    )]
    PeerAccessRequired {
        /// The call.
        what: &'static str,
        /// Source device.
        src: u32,
        /// Destination device.
        dst: u32,
    },
    /// An IPC call that fails.
    #[error("{what}: {problem}")]
    Ipc {
        /// The call.
        what: &'static str,
        /// What is wrong.
        problem: IpcProblem,
    },
    /// The OS processes attached to a shared host (`STREAMSIM_MACHINE`) simulate different devices.
    #[error(
        "shared host {name:?}: this process's device configuration ({ours}) differs from the one the host's other \
         processes use ({theirs}); give them the same configuration, or another STREAMSIM_MACHINE"
    )]
    HostMismatch {
        /// The host's name.
        name: String,
        /// This machine's configuration.
        ours: String,
        /// The host's.
        theirs: String,
    },
    /// A call in an OS process forked (without exec) from the one that made the machine: `fork` copies only
    /// the calling thread, so the machine's stream threads do not exist in the child and nothing of it could
    /// run. Every call on such a machine fails with this (CUDA: `cudaErrorInitializationError`; ACL:
    /// `ACL_ERROR_UNINITIALIZE`; `docs/semantics/fork.md`); a machine made in the child works.
    #[error(
        "{what}: this machine was made in OS process {parent}, and this is OS process {child}, forked from it \
         without exec: fork copies only the calling thread, so the machine's streams have no threads here and no \
         call on it can run (exec a program after fork, as cuda-samples simpleIPC does, or make a new machine in \
         the child)"
    )]
    ForkedChild {
        /// The call.
        what: &'static str,
        /// The OS process that made the machine.
        parent: u32,
        /// This OS process.
        child: u32,
    },
    /// A call on a machine on which an earlier call panicked inside the simulator (a bug): its state may be
    /// half-updated (its locks are not poisoned), so every later call fails with this (CUDA: `cudaErrorUnknown`;
    /// ACL: `ACL_ERROR_RT_INTERNAL_ERROR`).
    #[error(
        "{what}: this machine is broken: an earlier call panicked inside the simulator ({message}), and its \
         state may be half-updated; make a new machine (and please report the panic)"
    )]
    Broken {
        /// The call.
        what: &'static str,
        /// The panic's message (and the call that panicked).
        message: String,
    },
    /// The shared host could not be joined or has no room (an operating-system error, a table full).
    #[error("shared host {name:?}: {reason}")]
    HostUnavailable {
        /// The host's name.
        name: String,
        /// Why.
        reason: String,
    },
    /// A blocking call that could never return, with the wait-for cycle that keeps it (`cycle`, first link the
    /// calling host thread; see `docs/semantics/schedules-and-hangs.md`):
    /// - its work waits for something not yet issued (an ACL deferred wait: an event's or a notify's next record,
    ///   a value write, a callback a subscribed thread runs), and with the calling thread blocked no other live
    ///   thread can issue it (the wait board, `process/board.rs`);
    /// - or, under the serialize schedule, the operation that holds the schedule (a host function or kernel
    ///   body) has not returned within the watchdog's limit while it holds back other streams' ready work it may
    ///   be waiting for: the program needs two streams to progress concurrently, which the vendors do not promise.
    ///
    /// The vendor's runtime would hang; the simulator says so. The message names the cycle under the serialize
    /// schedule; a wait the board refuses says what it waits for, then the cycle in parentheses.
    #[error("{}", crate::engine::hang::deadlock_message(what, stream, cycle))]
    WouldDeadlock {
        /// The call.
        what: &'static str,
        /// The stream the call waits for.
        stream: StreamId,
        /// Who waits for whom, from the calling thread on.
        cycle: crate::engine::hang::WaitCycle,
    },
    /// A data race found by fail-fast race detection; the call's operation was not enqueued.
    #[error("{0}")]
    Race(Box<crate::engine::race::RaceReport>),
    /// An init / finalize call out of order.
    #[error("{what}: {problem:?}")]
    Init {
        /// The call.
        what: &'static str,
        /// What is wrong.
        problem: InitProblem,
    },
    /// A call about stream callbacks that the runtime refuses.
    #[error("{what}: {problem}")]
    Subscription {
        /// The call.
        what: &'static str,
        /// What is wrong.
        problem: SubscriptionProblem,
    },
    /// A wait operation (on an event, a notify) that waited longer than its timeout; reported at the next
    /// synchronize, like a fault of its stream.
    #[error("{label} on {stream} waited longer than its timeout of {timeout_ms} ms")]
    WaitTimedOut {
        /// The stream that waited.
        stream: StreamId,
        /// The wait's label.
        label: String,
        /// The timeout.
        timeout_ms: u64,
    },
    /// A host-memory registration that overlaps pinned memory, or an unregistration of a range that is not
    /// registered.
    #[error("{what}: host address {addr:#x}: {problem}")]
    HostMemory {
        /// The call.
        what: &'static str,
        /// The address given.
        addr: u64,
        /// What is wrong.
        problem: HostMemoryProblem,
    },
    /// A device limit that does not exist, or that the device does not have.
    #[error("{what}: unsupported limit: {reason}")]
    UnsupportedLimit {
        /// The call.
        what: &'static str,
        /// Which limit, and why.
        reason: String,
    },
    /// A kernel argument that names no kernel (e.g. a NULL function in an occupancy query).
    #[error("{what}: invalid kernel: {reason}")]
    InvalidKernel {
        /// The call.
        what: &'static str,
        /// Why.
        reason: String,
    },
    /// A call that breaks a rule of stream capture (see [`CaptureProblem`]).
    #[error("{what}: {problem}{}", stream.map(|s| format!(" ({s})")).unwrap_or_default())]
    Capture {
        /// The call.
        what: &'static str,
        /// The stream involved, if one is.
        stream: Option<StreamId>,
        /// Which rule.
        problem: CaptureProblem,
    },
    /// A synchronize with a timeout whose work did not finish in time (virtual time).
    #[error("{what}: not finished within {timeout_ms} ms")]
    Timeout {
        /// The call.
        what: &'static str,
        /// The timeout.
        timeout_ms: u64,
    },
    /// A memory pool call or a stream-ordered allocation that cannot be carried out.
    #[error("{what}: {problem}")]
    MemPool {
        /// The call.
        what: &'static str,
        /// Why.
        problem: PoolProblem,
    },
}

impl SimError {
    /// The variant's name (`InvalidHandle`, `NotReady`, ...).
    pub fn name(&self) -> String {
        let debug = format!("{self:?}");
        debug
            .split(|c: char| !c.is_ascii_alphanumeric())
            .next()
            .unwrap_or_default()
            .to_string()
    }

    /// The message without the values that differ from run to run of the same program (raw handle bits carry
    /// the machine's id; pinned host addresses are real pointers), for reports and traces that must be the
    /// same on every run.
    pub fn stable_message(&self) -> String {
        match self {
            SimError::InvalidHandle { kind, problem, .. } => {
                format!("invalid {kind} handle: {problem}")
            }
            SimError::InvalidAddress {
                what,
                space,
                problem,
                ..
            } => format!("{what}: the address ({space}) is {problem}"),
            SimError::OutOfRange {
                what, bytes, len, ..
            } => format!("{what}: {bytes} bytes run past the end of the {len}-byte region"),
            e => e.to_string(),
        }
    }

    /// The name of the call the error is about, for the variants that carry one (`what`): a facade can put
    /// its own function's name there (`aclrtStreamWaitEvent` where the engine wrote `stream_wait_event`), so
    /// that the message names what the program called. The engine never reads it back to decide anything.
    pub(crate) fn what_mut(&mut self) -> Option<&mut &'static str> {
        match self {
            SimError::WrongDevice { what, .. }
            | SimError::InvalidFlags { what, .. }
            | SimError::InvalidValue { what, .. }
            | SimError::EventNotRecorded { what, .. }
            | SimError::NotReady { what, .. }
            | SimError::NotPermitted { what, .. }
            | SimError::NotSupported { what, .. }
            | SimError::NoDevice { what, .. }
            | SimError::InvalidCopyKind { what, .. }
            | SimError::InvalidAddress { what, .. }
            | SimError::OutOfRange { what, .. }
            | SimError::NoContext { what, .. }
            | SimError::WrongContext { what, .. }
            | SimError::DefaultContext { what, .. }
            | SimError::DeviceNotSet { what, .. }
            | SimError::PeerAccess { what, .. }
            | SimError::PeerAccessRequired { what, .. }
            | SimError::Ipc { what, .. }
            | SimError::WouldDeadlock { what, .. }
            | SimError::Init { what, .. }
            | SimError::Subscription { what, .. }
            | SimError::Timeout { what, .. }
            | SimError::HostMemory { what, .. }
            | SimError::UnsupportedLimit { what, .. }
            | SimError::InvalidKernel { what, .. }
            | SimError::Capture { what, .. }
            | SimError::MemPool { what, .. }
            | SimError::ForkedChild { what, .. }
            | SimError::Broken { what, .. } => Some(what),
            SimError::InvalidHandle { .. }
            | SimError::InvalidDevice { .. }
            | SimError::TimingDisabled { .. }
            | SimError::OutOfMemory { .. }
            | SimError::HostOutOfMemory { .. }
            | SimError::TooManyObjects { .. }
            | SimError::KernelFault { .. }
            | SimError::WaitTimedOut { .. }
            | SimError::HostMismatch { .. }
            | SimError::HostUnavailable { .. }
            | SimError::Race(_) => None,
        }
    }
}
