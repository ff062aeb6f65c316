//! [`SimError`]: every way a call into the simulator can fail.
//!
//! Caller mistakes (destroyed handles, wrong device, bad flags, out-of-range copies) are errors with
//! structured fields naming the object involved. Broken internal invariants are panics. The facades map
//! each variant to the vendor's code in one function each.

use crate::handle::{EventId, ProcessId, StreamId};
use crate::memory::AddressSpace;

/// The result type of every simulator call.
pub type Result<T, E = SimError> = std::result::Result<T, E>;

/// What kind of object a handle names (used in [`SimError::InvalidHandle`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ObjectKind {
    /// A stream.
    Stream,
    /// An event.
    Event,
}

impl std::fmt::Display for ObjectKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ObjectKind::Stream => "stream",
            ObjectKind::Event => "event",
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
}

impl std::fmt::Display for HandleProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HandleProblem::Destroyed => f.write_str("it was destroyed"),
            HandleProblem::Unknown => f.write_str("it was never created by this process"),
            HandleProblem::Foreign { owner } => write!(f, "it belongs to process {owner}"),
            HandleProblem::OtherMachine => f.write_str("it belongs to another machine"),
            HandleProblem::NotAllowed => f.write_str("this special handle cannot be used here"),
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
    #[error("{kind:?} on stream {stream} of device {device} in `{label}`: {message}")]
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
    /// The process has been shut down or the machine is gone.
    #[error("{what}: process {process} is shut down")]
    ProcessGone {
        /// The call.
        what: &'static str,
        /// The process.
        process: ProcessId,
    },
}
