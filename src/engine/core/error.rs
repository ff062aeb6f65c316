//! [`SimError`]: every way a call into the simulator can fail.
//!
//! Caller mistakes (destroyed handles, wrong device, bad flags, out-of-range copies) are errors with
//! structured fields naming the object involved. Broken internal invariants are panics. The facades map
//! each variant to the vendor's code in one function each.

use crate::engine::core::handle::{EventId, ProcessId, StreamId};
use crate::engine::core::pointers::AddressSpace;

pub use crate::engine::core::problems::{
    CaptureProblem, FaultKind, HandleProblem, HostMemoryProblem, InitProblem, IpcProblem,
    ObjectKind, ObjectLimit, PeerProblem, PoolProblem, SubscriptionProblem, UpdateOutcome,
    UpdateResult,
};

/// The result type of every simulator call.
pub type Result<T, E = SimError> = std::result::Result<T, E>;

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
    /// A pitch that cannot hold its rows (smaller than the width) or that exceeds the device's maximum pitch
    /// (pitched copies and memsets, `memory/pitched.rs`).
    #[error("{what}: {reason}")]
    InvalidPitch {
        /// The call.
        what: &'static str,
        /// What is wrong.
        reason: String,
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
    #[error("{}", crate::engine::core::hang::deadlock_message(what, stream, cycle))]
    WouldDeadlock {
        /// The call.
        what: &'static str,
        /// The stream the call waits for.
        stream: StreamId,
        /// Who waits for whom, from the calling thread on.
        cycle: crate::engine::core::hang::WaitCycle,
    },
    /// A data race found by fail-fast race detection; the call's operation was not enqueued.
    #[error("{0}")]
    Race(Box<crate::engine::core::races::RaceReport>),
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
    /// A kernel launch whose grid or block dimensions the device cannot run.
    #[error("{what}: invalid configuration: {reason}")]
    InvalidConfiguration {
        /// The call.
        what: &'static str,
        /// Which dimension, and the limit.
        reason: String,
    },
    /// A cooperative launch of more blocks than the device holds at once (the occupancy calls' blocks per
    /// multiprocessor times the multiprocessors).
    #[error(
        "{what}: a cooperative grid of {blocks} blocks, more than the {max} the device can hold co-resident"
    )]
    CooperativeLaunchTooLarge {
        /// The call.
        what: &'static str,
        /// The grid's blocks.
        blocks: u64,
        /// The most the device can run at once with the launch's block size and shared memory.
        max: u64,
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
    /// An update of an executable graph from a graph that it cannot take (CUDA `cudaGraphExecUpdate`); the
    /// executable graph is unchanged.
    #[error("{what}: {reason}")]
    GraphExecUpdate {
        /// The call.
        what: &'static str,
        /// The vendor's result and the nodes it names.
        outcome: UpdateOutcome,
        /// Why, in words.
        reason: String,
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
            | SimError::InvalidPitch { what, .. }
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
            | SimError::InvalidConfiguration { what, .. }
            | SimError::CooperativeLaunchTooLarge { what, .. }
            | SimError::Capture { what, .. }
            | SimError::MemPool { what, .. }
            | SimError::GraphExecUpdate { what, .. }
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
