//! The details of a [`SimError`](crate::SimError): what kind of object, which handle problem, which IPC,
//! capture, pool or peer problem, which limit. Re-exported from `error.rs`, their public path.

#[cfg(doc)]
use crate::engine::core::error::SimError;
use crate::engine::core::handle::{GraphNode, ProcessId};

/// What kind of object a handle names (used in [`SimError::InvalidHandle`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
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
#[non_exhaustive]
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
#[non_exhaustive]
pub enum FaultKind {
    /// A kernel body touched device memory outside every live allocation.
    IllegalAddress,
    /// A kernel body (or host function) returned an error or panicked.
    LaunchFailure,
    /// A device-side `assert` failed in a kernel run on the CPU (`streamsim cc`).
    Assert,
    /// A kernel run on the CPU (`streamsim cc`) made an access not aligned to what it needs.
    MisalignedAddress,
}

/// What is wrong in a peer-access call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
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
#[non_exhaustive]
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
#[non_exhaustive]
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
#[non_exhaustive]
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
#[non_exhaustive]
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
#[non_exhaustive]
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
#[non_exhaustive]
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
#[non_exhaustive]
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
    /// An access change for the pool's own device, which always has read-write access.
    OwnDeviceAccess {
        /// The pool's device.
        device: u32,
    },
    /// Access for a device that cannot access the pool's device (no peer link).
    NoPeerLink {
        /// The device asked about.
        device: u32,
        /// The pool's device.
        pool_device: u32,
    },
    /// An access flag that is not a `cudaMemAccessFlags` value, or one the simulator does not model.
    AccessFlags(u32),
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
            PoolProblem::OwnDeviceAccess { device } => write!(
                f,
                "device {device} is the pool's own device: it always has read-write access, which cannot \
                 be changed"
            ),
            PoolProblem::NoPeerLink {
                device,
                pool_device,
            } => write!(
                f,
                "device {device} cannot access device {pool_device}'s memory (no peer link): it cannot be \
                 given access to the pool"
            ),
            PoolProblem::AccessFlags(v) => write!(
                f,
                "{v} is not an access the simulator models (0 cudaMemAccessFlagsProtNone, 3 \
                 cudaMemAccessFlagsProtReadWrite; 1 ProtRead is not simulated)"
            ),
        }
    }
}

/// `cudaGraphExecUpdateResult` (the values are the vendor's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UpdateResult {
    /// Updated.
    Success,
    /// Not updated, for a reason no other value names.
    Error,
    /// The graphs' topologies differ.
    TopologyChanged,
    /// A node's type differs.
    NodeTypeChanged,
    /// A kernel node's function changed (drivers before CUDA 11.2).
    FunctionChanged,
    /// A node's parameters changed in a way an executable graph cannot take.
    ParametersChanged,
    /// Something about a node is not supported.
    NotSupported,
    /// A kernel node's function changed in an unsupported way.
    UnsupportedFunctionChange,
    /// A node's attributes changed in an unsupported way.
    AttributesChanged,
}

impl UpdateResult {
    /// The vendor's number: success 0, error 1, topology changed 2, node type changed 3, function changed 4,
    /// parameters changed 5, not supported 6, unsupported function change 7, attributes changed 8.
    pub fn to_raw(self) -> u32 {
        match self {
            UpdateResult::Success => 0,
            UpdateResult::Error => 1,
            UpdateResult::TopologyChanged => 2,
            UpdateResult::NodeTypeChanged => 3,
            UpdateResult::FunctionChanged => 4,
            UpdateResult::ParametersChanged => 5,
            UpdateResult::NotSupported => 6,
            UpdateResult::UnsupportedFunctionChange => 7,
            UpdateResult::AttributesChanged => 8,
        }
    }
}

/// What an update reports (`cudaGraphExecUpdateResultInfo`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UpdateOutcome {
    /// The result.
    pub result: UpdateResult,
    /// The node of the graph the result is about, if it is about one.
    pub error_node: Option<GraphNode>,
    /// With [`UpdateResult::TopologyChanged`] for a dependency that does not pair: that dependency.
    pub error_from: Option<GraphNode>,
}
