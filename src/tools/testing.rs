//! Random stream programs for property tests (cargo feature `proptest`).
//!
//! A [`Program`] is a small, valid CUDA-dialect workload: 1–2 devices, 1–4 created streams (blocking or
//! non-blocking) plus the devices' legacy default streams, kernels with virtual durations and declared
//! reads / writes of a few device buffers, memsets, copies (device to device, pinned or pageable host to
//! device, device to pinned or pageable host, and a blocking `memcpy` to pinned host), event records and re-records, stream waits,
//! stream / event / device synchronizes, stream and event queries, spin-loops on an event query, host
//! reads and writes of pinned buffers, and streams destroyed (unsynchronized) and replaced by new ones. [`program`] is a `proptest` strategy for them; [`Program::run`]
//! executes one on a [`Process`] with the public API only, and returns what the host observed.
//!
//! Stream captures have a strategy of their own: [`capture_program`] ([`capture`]); so do programs of several
//! processes, host threads and devices with IPC events, peers, per-thread default streams and kernel faults:
//! [`world::world_program`] ([`world`]); and ACL programs (contexts, deferred waits on SYNC events,
//! `aclrtResetEvent`, failure modes, faults): [`acl::acl_program`] ([`acl`]).
//!
//! The determinism self-check, [`check_determinism`] ([`determinism`]), runs any program twice and under other
//! schedules and reports the first divergence.
//!
//! Every value the strategy generates is valid: references are in range and every record names an event
//! of its stream's device, so a run never fails on a well-formed machine (one with at least
//! [`Program::devices`] devices, CUDA dialect). Shrinking keeps programs valid too, and their `Debug` output
//! is one numbered line per step, so a minimal failing program reads like a listing.
//!
//! ```
//! use proptest::prelude::*;
//! use proptest::test_runner::TestRunner;
//! use streamsim::testing::{Limits, program};
//! use streamsim::{Machine, RaceDetection};
//!
//! let mut runner = TestRunner::deterministic();
//! runner
//!     .run(&program(Limits::default()), |prog| {
//!         let machine = Machine::builder()
//!             .devices(prog.devices)
//!             .race_detection(RaceDetection::Collect)
//!             .build()
//!             .unwrap();
//!         let outcome = prog.run(&machine.process()).unwrap();
//!         // Every kernel ran once, and `run` synchronized every device at the end.
//!         prop_assert_eq!(outcome.kernels_executed(), prog.kernel_count());
//!         prop_assert!(machine.trace().ops.len() >= prog.kernel_count());
//!         Ok(())
//!     })
//!     .unwrap();
//! ```

pub mod acl;
pub mod capture;
pub mod codes;
pub mod determinism;
mod runner;
mod strategy;
pub mod world;

pub use determinism::{Aspect, Divergence, RunKind, check_determinism};
pub use strategy::{Limits, program};

pub use capture::{
    CaptureLimits, CaptureProgram, CaptureRun, CaptureStep, Mistake, capture_program,
};

use runner::Runner;

use crate::{Process, Result, Status, VirtualTime};

/// Size in bytes of every buffer a program uses (device and pinned); every access covers a whole buffer.
pub const BUFFER_BYTES: u64 = 4096;
/// Device buffers allocated on each device.
pub const BUFFERS_PER_DEVICE: u32 = 2;
/// Events created on each device.
pub const EVENTS_PER_DEVICE: u32 = 2;
/// Pinned host buffers allocated.
pub const PINNED_BUFFERS: u32 = 2;
/// Stream-ordered allocation slots ([`PoolRef`]) a program uses; each holds at most one live allocation of
/// [`BUFFER_BYTES`] at a time, from the default pool of the allocating stream's device.
pub const POOL_SLOTS: u32 = 2;
/// The most polls a [`Step::SpinOnEvent`] makes before giving up (it never needs that many: every kernel is
/// shorter than this many call overheads).
pub const MAX_POLLS: u32 = 100_000;

/// A stream of a program.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StreamRef {
    /// The created stream [`Program::streams`]`[n]`, printed `s<n + 1>` like the simulator names it
    /// ([`crate::StreamKind::Created`]`(n + 1)`, "stream n + 1").
    Created(u32),
    /// The legacy default stream ([`Stream::DEFAULT`](crate::Stream::DEFAULT)) of a device.
    Legacy(u32),
}

impl std::fmt::Debug for StreamRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StreamRef::Created(n) => write!(f, "s{}", n + 1),
            StreamRef::Legacy(d) => write!(f, "null@d{d}"),
        }
    }
}

/// A device buffer: slot `slot` of device `device` (`d0.b1`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BufRef {
    /// The device it is allocated on.
    pub device: u32,
    /// Which of the device's [`BUFFERS_PER_DEVICE`] buffers.
    pub slot: u32,
}

impl std::fmt::Debug for BufRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "d{}.b{}", self.device, self.slot)
    }
}

/// An event: slot `slot` of device `device` (`d0.e1`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EventRef {
    /// The device it was created on.
    pub device: u32,
    /// Which of the device's [`EVENTS_PER_DEVICE`] events.
    pub slot: u32,
}

impl std::fmt::Debug for EventRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "d{}.e{}", self.device, self.slot)
    }
}

/// A pinned host buffer (`pin0`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PinnedRef(pub u32);

impl std::fmt::Debug for PinnedRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "pin{}", self.0)
    }
}

/// A stream-ordered allocation slot (`pool0`): the pointer of its latest [`Step::MallocAsync`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PoolRef(pub u32);

impl std::fmt::Debug for PoolRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "pool{}", self.0)
    }
}

/// A created stream.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct StreamSpec {
    /// Its device.
    pub device: u32,
    /// Created with [`StreamFlags::NON_BLOCKING`](crate::StreamFlags::NON_BLOCKING) (exempt from the legacy default stream's edges).
    pub non_blocking: bool,
}

impl std::fmt::Debug for StreamSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = if self.non_blocking {
            "non-blocking"
        } else {
            "blocking"
        };
        write!(f, "d{} {kind}", self.device)
    }
}

/// One call (or, for [`Step::SpinOnEvent`], one loop of calls) of a program.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Step {
    /// Launches a kernel named `k<step index>` that runs `duration_ns` of virtual time and declares reads and
    /// writes of whole buffers.
    Launch {
        /// Where.
        stream: StreamRef,
        /// Virtual duration in nanoseconds.
        duration_ns: u64,
        /// Buffers it reads.
        reads: Vec<BufRef>,
        /// Buffers it writes.
        writes: Vec<BufRef>,
    },
    /// `memset_async` of a whole buffer.
    Memset {
        /// Where.
        stream: StreamRef,
        /// What.
        dst: BufRef,
    },
    /// `memcpy_async` device to device (staged through the host between two devices).
    CopyDeviceToDevice {
        /// Where.
        stream: StreamRef,
        /// Read.
        src: BufRef,
        /// Written.
        dst: BufRef,
    },
    /// `memcpy_async` from a pinned buffer to a device buffer.
    CopyToDevice {
        /// Where.
        stream: StreamRef,
        /// Read.
        src: PinnedRef,
        /// Written.
        dst: BufRef,
    },
    /// `memcpy_async` from a device buffer to a pinned buffer.
    CopyToHost {
        /// Where.
        stream: StreamRef,
        /// Read.
        src: BufRef,
        /// Written.
        dst: PinnedRef,
    },
    /// `memcpy_async` from a pageable host buffer (staged at the call) to a device buffer.
    CopyFromPageable {
        /// Where.
        stream: StreamRef,
        /// Written.
        dst: BufRef,
    },
    /// `memcpy_async` from a device buffer into a pageable host buffer: the call returns once the data is
    /// there.
    CopyToPageable {
        /// Where.
        stream: StreamRef,
        /// Read.
        src: BufRef,
    },
    /// Blocking `memcpy` from a device buffer to a pinned buffer, on the legacy default stream of the
    /// buffer's device.
    CopyToHostSync {
        /// Read.
        src: BufRef,
        /// Written.
        dst: PinnedRef,
    },
    /// `record_event` (`event` is always an event of `stream`'s device).
    Record {
        /// What.
        event: EventRef,
        /// Where.
        stream: StreamRef,
    },
    /// `stream_wait_event`.
    Wait {
        /// Who waits.
        stream: StreamRef,
        /// For what.
        event: EventRef,
    },
    /// `stream_synchronize`.
    StreamSynchronize(StreamRef),
    /// `event_synchronize`.
    EventSynchronize(EventRef),
    /// `device_synchronize` of a device (made current first).
    DeviceSynchronize(u32),
    /// `stream_query`.
    StreamQuery(StreamRef),
    /// `event_query`.
    EventQuery(EventRef),
    /// `event_query` in a loop until it answers `Complete`.
    SpinOnEvent(EventRef),
    /// `host_read` of a whole pinned buffer.
    HostRead(PinnedRef),
    /// `host_write` of a whole pinned buffer.
    HostWrite(PinnedRef),
    /// `destroy_stream` of the created stream [`Program::streams`]`[n]`, without synchronizing it (its queued
    /// work still runs, and its accesses still race with what is not ordered after them), then
    /// `create_stream` of a new one on the same device with the same flags, which later steps naming
    /// `StreamRef::Created(n)` use. The simulator numbers it after every stream created so far (the first
    /// replacement of a program with 3 streams is "stream 4").
    ReplaceStream(u32),
    /// `malloc_async` of [`BUFFER_BYTES`] on `stream` (from its device's default pool) into an empty slot.
    MallocAsync {
        /// Which slot.
        slot: PoolRef,
        /// Where.
        stream: StreamRef,
    },
    /// `free_async` of a slot's live allocation on `stream` (of any device).
    FreeAsync {
        /// Which slot.
        slot: PoolRef,
        /// Where.
        stream: StreamRef,
    },
    /// Launches a kernel named `k<step index>` that declares one access of a slot's latest pointer (live or
    /// already freed), on a stream of that pointer's device.
    LaunchPooled {
        /// Where.
        stream: StreamRef,
        /// Virtual duration in nanoseconds.
        duration_ns: u64,
        /// Which slot's pointer.
        slot: PoolRef,
        /// Whether it writes (or reads).
        write: bool,
    },
}

impl std::fmt::Debug for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Step::Launch {
                stream,
                duration_ns,
                reads,
                writes,
            } => write!(
                f,
                "launch on {stream:?}, {duration_ns} ns, reads {reads:?}, writes {writes:?}"
            ),
            Step::Memset { stream, dst } => write!(f, "memset_async {dst:?} on {stream:?}"),
            Step::CopyDeviceToDevice { stream, src, dst } => {
                write!(f, "memcpy_async {src:?} -> {dst:?} on {stream:?}")
            }
            Step::CopyToDevice { stream, src, dst } => {
                write!(f, "memcpy_async {src:?} -> {dst:?} on {stream:?}")
            }
            Step::CopyToHost { stream, src, dst } => {
                write!(f, "memcpy_async {src:?} -> {dst:?} on {stream:?}")
            }
            Step::CopyFromPageable { stream, dst } => {
                write!(f, "memcpy_async pageable -> {dst:?} on {stream:?}")
            }
            Step::CopyToPageable { stream, src } => {
                write!(f, "memcpy_async {src:?} -> pageable on {stream:?} (blocks)")
            }
            Step::CopyToHostSync { src, dst } => write!(f, "memcpy {src:?} -> {dst:?}"),
            Step::Record { event, stream } => write!(f, "record {event:?} on {stream:?}"),
            Step::Wait { stream, event } => write!(f, "{stream:?} waits {event:?}"),
            Step::StreamSynchronize(s) => write!(f, "stream_synchronize {s:?}"),
            Step::EventSynchronize(e) => write!(f, "event_synchronize {e:?}"),
            Step::DeviceSynchronize(d) => write!(f, "device_synchronize d{d}"),
            Step::StreamQuery(s) => write!(f, "stream_query {s:?}"),
            Step::EventQuery(e) => write!(f, "event_query {e:?}"),
            Step::SpinOnEvent(e) => write!(f, "spin on event_query {e:?}"),
            Step::HostRead(h) => write!(f, "host_read {h:?}"),
            Step::HostWrite(h) => write!(f, "host_write {h:?}"),
            Step::ReplaceStream(n) => write!(
                f,
                "destroy {:?} (not synchronized) and create a new one in its place",
                StreamRef::Created(*n)
            ),
            Step::MallocAsync { slot, stream } => write!(f, "malloc_async {slot:?} on {stream:?}"),
            Step::FreeAsync { slot, stream } => write!(f, "free_async {slot:?} on {stream:?}"),
            Step::LaunchPooled {
                stream,
                duration_ns,
                slot,
                write,
            } => write!(
                f,
                "launch on {stream:?}, {duration_ns} ns, {} {slot:?}",
                if *write { "writes" } else { "reads" }
            ),
        }
    }
}

/// A stream program: devices, created streams, and the steps run on one host thread.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Program {
    /// How many devices it uses (the machine needs at least this many).
    pub devices: u32,
    /// The streams it creates, in creation order (printed `s1`, `s2`, …: the simulator's stream 1, 2, …).
    pub streams: Vec<StreamSpec>,
    /// What it does.
    pub steps: Vec<Step>,
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "Program {{")?;
        writeln!(f, "  devices: {}", self.devices)?;
        for (i, s) in self.streams.iter().enumerate() {
            writeln!(f, "  s{}: {s:?}", i + 1)?;
        }
        for (i, s) in self.steps.iter().enumerate() {
            writeln!(f, "  {i:>3}: {s:?}")?;
        }
        write!(f, "}}")
    }
}

/// What the host observed in a run of a [`Program`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The answer of every query step ([`Step::StreamQuery`], [`Step::EventQuery`], [`Step::SpinOnEvent`]), in
    /// program order.
    pub answers: Vec<Answer>,
    /// What really ran, in the order it ran: kernels (from their bodies, on the stream workers) and the host's
    /// return from each step.
    pub executed: Vec<Executed>,
    /// The calling thread's virtual host clock when the run returned.
    pub end: VirtualTime,
    /// The address every [`Step::MallocAsync`] returned: (step index, address), in program order.
    pub allocations: Vec<(usize, u64)>,
}

impl Outcome {
    /// How many kernels really ran.
    pub fn kernels_executed(&self) -> usize {
        self.executed
            .iter()
            .filter(|e| matches!(e, Executed::Kernel(_)))
            .count()
    }
}

/// A query's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Answer {
    /// The step's index in [`Program::steps`].
    pub step: usize,
    /// What the (last) query answered.
    pub status: Status,
    /// How many queries were made (1, except for [`Step::SpinOnEvent`]).
    pub polls: u32,
}

/// One entry of [`Outcome::executed`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Executed {
    /// The kernel launched by step `n` ran (logged by its body).
    Kernel(usize),
    /// The host returned from step `n`.
    Host(usize),
}

impl Program {
    /// How many kernels the program launches.
    pub fn kernel_count(&self) -> usize {
        self.steps
            .iter()
            .filter(|s| matches!(s, Step::Launch { .. } | Step::LaunchPooled { .. }))
            .count()
    }

    /// Whether the program allocates stream-ordered memory.
    pub fn uses_pools(&self) -> bool {
        self.steps
            .iter()
            .any(|s| matches!(s, Step::MallocAsync { .. }))
    }

    /// The device of a stream.
    pub fn device_of(&self, s: StreamRef) -> u32 {
        match s {
            StreamRef::Created(n) => self.streams[n as usize].device,
            StreamRef::Legacy(d) => d,
        }
    }

    /// Runs the program on `p`, from the calling thread, with the public API only:
    ///
    /// 1. set-up: creates the streams in order, then [`EVENTS_PER_DEVICE`] events per device, then
    ///    [`BUFFERS_PER_DEVICE`] buffers of [`BUFFER_BYTES`] per device, then [`PINNED_BUFFERS`] pinned buffers;
    ///    then, if it [uses pools](Program::uses_pools), for each device its default pool and a release
    ///    threshold of `u64::MAX` (two calls, the device not made current), so that no synchronize gives its
    ///    memory back;
    /// 2. the steps, in order;
    /// 3. a `device_synchronize` of every device, so that the machine's trace is complete when it returns.
    ///
    /// Before a call that names a stream or a device (and before a set-up call on a device), the stream's
    /// device is made current with `set_device` if it is not already; a thread starts on device 0. Those calls
    /// count on the virtual host clock like any other. [`Step::CopyToHostSync`] makes its source buffer's
    /// device current.
    pub fn run(&self, p: &Process) -> Result<Outcome> {
        Runner::new(self, p)?.run()
    }
}
