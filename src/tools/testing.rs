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
pub mod world;

pub use determinism::{Aspect, Divergence, RunKind, check_determinism};

pub use capture::{
    CaptureLimits, CaptureProgram, CaptureRun, CaptureStep, Mistake, capture_program,
};

use std::borrow::Cow;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use proptest::prelude::*;

use crate::{
    DevicePtr, Event, EventFlags, HostPtr, Kernel, Process, Result, Status, Stream, StreamFlags,
    VirtualTime,
};

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
    /// The legacy default stream ([`Stream::DEFAULT`]) of a device.
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
    /// Created with [`StreamFlags::NON_BLOCKING`] (exempt from the legacy default stream's edges).
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

/// A program being run.
struct Runner<'a> {
    prog: &'a Program,
    p: &'a Process,
    current: u32,
    streams: Vec<Stream>,
    events: Vec<Vec<Event>>,
    buffers: Vec<Vec<DevicePtr>>,
    pinned: Vec<HostPtr>,
    /// Each slot's latest pointer.
    pooled: Vec<Option<DevicePtr>>,
    allocations: Vec<(usize, u64)>,
    log: Arc<Mutex<Vec<Executed>>>,
    answers: Vec<Answer>,
}

impl<'a> Runner<'a> {
    fn new(prog: &'a Program, p: &'a Process) -> Result<Runner<'a>> {
        let mut r = Runner {
            prog,
            p,
            current: p.current_device().unwrap_or(0),
            streams: Vec::new(),
            events: Vec::new(),
            buffers: Vec::new(),
            pinned: Vec::new(),
            pooled: vec![None; POOL_SLOTS as usize],
            allocations: Vec::new(),
            log: Arc::new(Mutex::new(Vec::new())),
            answers: Vec::new(),
        };
        for s in &prog.streams {
            r.device(s.device)?;
            let flags = if s.non_blocking {
                StreamFlags::NON_BLOCKING
            } else {
                StreamFlags::DEFAULT
            };
            r.streams.push(p.create_stream(flags)?);
        }
        for d in 0..prog.devices {
            r.device(d)?;
            let events = (0..EVENTS_PER_DEVICE)
                .map(|_| p.create_event(EventFlags::DEFAULT))
                .collect::<Result<_>>()?;
            r.events.push(events);
        }
        for d in 0..prog.devices {
            r.device(d)?;
            let buffers = (0..BUFFERS_PER_DEVICE)
                .map(|_| p.malloc(BUFFER_BYTES))
                .collect::<Result<_>>()?;
            r.buffers.push(buffers);
        }
        r.pinned = (0..PINNED_BUFFERS)
            .map(|_| p.malloc_host(BUFFER_BYTES))
            .collect::<Result<_>>()?;
        if prog.uses_pools() {
            for d in 0..prog.devices {
                let pool = p.default_pool(i64::from(d))?;
                p.set_pool_attribute(pool, crate::PoolAttr::ReleaseThreshold, u64::MAX)?;
            }
        }
        Ok(r)
    }

    fn run(mut self) -> Result<Outcome> {
        for (i, step) in self.prog.steps.iter().enumerate() {
            self.step(i, step)?;
            self.log.lock().expect("log").push(Executed::Host(i));
        }
        for d in 0..self.prog.devices {
            self.device(d)?;
            self.p.device_synchronize()?;
        }
        let executed = self.log.lock().expect("log").clone();
        Ok(Outcome {
            answers: self.answers,
            executed,
            end: self.p.now(),
            allocations: self.allocations,
        })
    }

    /// Makes `d` current if it is not.
    fn device(&mut self, d: u32) -> Result<()> {
        if self.current != d {
            self.p.set_device(i64::from(d))?;
            self.current = d;
        }
        Ok(())
    }

    /// Resolves a stream, making its device current.
    fn stream(&mut self, s: StreamRef) -> Result<Stream> {
        self.device(self.prog.device_of(s))?;
        Ok(match s {
            StreamRef::Created(n) => self.streams[n as usize],
            StreamRef::Legacy(_) => Stream::DEFAULT,
        })
    }

    fn buf(&self, b: BufRef) -> DevicePtr {
        self.buffers[b.device as usize][b.slot as usize]
    }

    /// A slot's latest pointer (the strategy only names slots allocated before).
    fn pool_ptr(&self, slot: PoolRef) -> DevicePtr {
        self.pooled[slot.0 as usize].expect("a program uses a slot only after allocating it")
    }

    fn event(&self, e: EventRef) -> Event {
        self.events[e.device as usize][e.slot as usize]
    }

    fn step(&mut self, i: usize, step: &Step) -> Result<()> {
        let p = self.p;
        let n = BUFFER_BYTES;
        match step {
            Step::Launch {
                stream,
                duration_ns,
                reads,
                writes,
            } => {
                let s = self.stream(*stream)?;
                let mut k = Kernel::new(Cow::Owned(format!("k{i}")))
                    .duration(Duration::from_nanos(*duration_ns));
                for &b in reads {
                    k = k.reads(self.buf(b), n);
                }
                for &b in writes {
                    k = k.writes(self.buf(b), n);
                }
                let log = self.log.clone();
                let k = k.body(move |_| {
                    log.lock().expect("log").push(Executed::Kernel(i));
                    Ok(())
                });
                p.launch(s, k)
            }
            Step::Memset { stream, dst } => {
                let s = self.stream(*stream)?;
                p.memset_async(self.buf(*dst), i as u8, n, s)
            }
            Step::CopyDeviceToDevice { stream, src, dst } => {
                let s = self.stream(*stream)?;
                p.memcpy_async(self.buf(*dst), self.buf(*src), n, s)
            }
            Step::CopyToDevice { stream, src, dst } => {
                let s = self.stream(*stream)?;
                p.memcpy_async(self.buf(*dst), self.pinned[src.0 as usize], n, s)
            }
            Step::CopyToHost { stream, src, dst } => {
                let s = self.stream(*stream)?;
                p.memcpy_async(self.pinned[dst.0 as usize], self.buf(*src), n, s)
            }
            Step::CopyFromPageable { stream, dst } => {
                let s = self.stream(*stream)?;
                p.memcpy_async(self.buf(*dst), &vec![i as u8; n as usize], n, s)
            }
            Step::CopyToPageable { stream, src } => {
                let s = self.stream(*stream)?;
                let mut out = vec![0u8; n as usize];
                p.memcpy_async(&mut out, self.buf(*src), n, s)
            }
            Step::CopyToHostSync { src, dst } => {
                self.device(src.device)?;
                p.memcpy(self.pinned[dst.0 as usize], self.buf(*src), n)
            }
            Step::Record { event, stream } => {
                let s = self.stream(*stream)?;
                p.record_event(self.event(*event), s)
            }
            Step::Wait { stream, event } => {
                let s = self.stream(*stream)?;
                p.stream_wait_event(s, self.event(*event))
            }
            Step::StreamSynchronize(s) => {
                let s = self.stream(*s)?;
                p.stream_synchronize(s)
            }
            Step::EventSynchronize(e) => p.event_synchronize(self.event(*e)),
            Step::DeviceSynchronize(d) => {
                self.device(*d)?;
                p.device_synchronize()
            }
            Step::StreamQuery(s) => {
                let s = self.stream(*s)?;
                let status = p.stream_query(s)?;
                self.answers.push(Answer {
                    step: i,
                    status,
                    polls: 1,
                });
                Ok(())
            }
            Step::EventQuery(e) => {
                let status = p.event_query(self.event(*e))?;
                self.answers.push(Answer {
                    step: i,
                    status,
                    polls: 1,
                });
                Ok(())
            }
            Step::SpinOnEvent(e) => {
                let e = self.event(*e);
                let mut polls = 0;
                let status = loop {
                    polls += 1;
                    let s = p.event_query(e)?;
                    if s == Status::Complete || polls == MAX_POLLS {
                        break s;
                    }
                };
                self.answers.push(Answer {
                    step: i,
                    status,
                    polls,
                });
                Ok(())
            }
            Step::HostRead(h) => {
                let mut out = vec![0u8; n as usize];
                p.host_read(self.pinned[h.0 as usize], &mut out)
            }
            Step::HostWrite(h) => {
                p.host_write(self.pinned[h.0 as usize], &[i as u8; BUFFER_BYTES as usize])
            }
            Step::ReplaceStream(n) => {
                let old = self.stream(StreamRef::Created(*n))?;
                p.destroy_stream(old)?;
                let flags = if self.prog.streams[*n as usize].non_blocking {
                    StreamFlags::NON_BLOCKING
                } else {
                    StreamFlags::DEFAULT
                };
                self.streams[*n as usize] = p.create_stream(flags)?;
                Ok(())
            }
            Step::MallocAsync { slot, stream } => {
                let s = self.stream(*stream)?;
                let ptr = p.malloc_async(n, s)?;
                self.pooled[slot.0 as usize] = Some(ptr);
                self.allocations.push((i, ptr.addr()));
                Ok(())
            }
            Step::FreeAsync { slot, stream } => {
                let s = self.stream(*stream)?;
                p.free_async(self.pool_ptr(*slot), s)
            }
            Step::LaunchPooled {
                stream,
                duration_ns,
                slot,
                write,
            } => {
                let s = self.stream(*stream)?;
                let ptr = self.pool_ptr(*slot);
                let mut k = Kernel::new(Cow::Owned(format!("k{i}")))
                    .duration(Duration::from_nanos(*duration_ns));
                k = if *write {
                    k.writes(ptr, n)
                } else {
                    k.reads(ptr, n)
                };
                let log = self.log.clone();
                let k = k.body(move |_| {
                    log.lock().expect("log").push(Executed::Kernel(i));
                    Ok(())
                });
                p.launch(s, k)
            }
        }
    }
}

/// Bounds for [`program`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most devices (at least 1).
    pub max_devices: u32,
    /// Most created streams (at least 1).
    pub max_streams: usize,
    /// Most steps.
    pub max_steps: usize,
    /// Longest kernel, in nanoseconds.
    pub max_kernel_ns: u64,
}

impl Default for Limits {
    /// 2 devices, 4 streams, 24 steps, 30 µs kernels.
    fn default() -> Self {
        Limits {
            max_devices: 2,
            max_streams: 4,
            max_steps: 24,
            max_kernel_ns: 30_000,
        }
    }
}

/// A step with raw indices (reduced modulo the program's counts by [`normalize`]).
#[derive(Debug, Clone)]
enum Raw {
    Launch(RawStream, u64, Vec<u8>, Vec<u8>),
    Memset(RawStream, u8),
    CopyD2D(RawStream, u8, u8),
    CopyH2D(RawStream, u8, u8),
    CopyD2H(RawStream, u8, u8),
    CopyD2HSync(u8, u8),
    CopyFromPageable(RawStream, u8),
    CopyToPageable(RawStream, u8),
    Record(u8, RawStream),
    Wait(RawStream, u8),
    StreamSync(RawStream),
    EventSync(u8),
    DeviceSync(u8),
    StreamQuery(RawStream),
    EventQuery(u8),
    Spin(u8),
    HostRead(u8),
    HostWrite(u8),
    Replace(u8),
    /// Allocates an empty slot, frees a live one; `true`: on the stream of the latest free (an allocation) or
    /// the slot's allocating stream (a free) instead.
    Pool(u8, RawStream, bool),
    /// Uses a slot (allocates it if it never was); the last `true`: on the slot's allocating stream.
    LaunchPooled(RawStream, u64, u8, bool, bool),
}

/// A stream with a raw index: legacy or created.
#[derive(Debug, Clone, Copy)]
struct RawStream {
    legacy: bool,
    index: u8,
}

fn raw_stream() -> impl Strategy<Value = RawStream> {
    (prop::bool::weighted(0.15), any::<u8>())
        .prop_map(|(legacy, index)| RawStream { legacy, index })
}

fn raw_step(max_kernel_ns: u64) -> impl Strategy<Value = Raw> {
    let byte = any::<u8>;
    let accesses = || prop::collection::vec(any::<u8>(), 0..=2);
    prop_oneof![
        8 => (raw_stream(), 0..=max_kernel_ns, accesses(), accesses())
            .prop_map(|(s, d, r, w)| Raw::Launch(s, d, r, w)),
        1 => (raw_stream(), byte()).prop_map(|(s, b)| Raw::Memset(s, b)),
        1 => (raw_stream(), byte(), byte()).prop_map(|(s, a, b)| Raw::CopyD2D(s, a, b)),
        2 => (raw_stream(), byte(), byte()).prop_map(|(s, a, b)| Raw::CopyH2D(s, a, b)),
        2 => (raw_stream(), byte(), byte()).prop_map(|(s, a, b)| Raw::CopyD2H(s, a, b)),
        1 => (byte(), byte()).prop_map(|(a, b)| Raw::CopyD2HSync(a, b)),
        1 => (raw_stream(), byte()).prop_map(|(s, b)| Raw::CopyFromPageable(s, b)),
        1 => (raw_stream(), byte()).prop_map(|(s, b)| Raw::CopyToPageable(s, b)),
        4 => (byte(), raw_stream()).prop_map(|(e, s)| Raw::Record(e, s)),
        4 => (raw_stream(), byte()).prop_map(|(s, e)| Raw::Wait(s, e)),
        1 => raw_stream().prop_map(Raw::StreamSync),
        1 => byte().prop_map(Raw::EventSync),
        1 => byte().prop_map(Raw::DeviceSync),
        1 => raw_stream().prop_map(Raw::StreamQuery),
        1 => byte().prop_map(Raw::EventQuery),
        1 => byte().prop_map(Raw::Spin),
        2 => byte().prop_map(Raw::HostRead),
        1 => byte().prop_map(Raw::HostWrite),
        1 => byte().prop_map(Raw::Replace),
        8 => (byte(), raw_stream(), any::<bool>()).prop_map(|(b, s, h)| Raw::Pool(b, s, h)),
        6 => (raw_stream(), 0..=max_kernel_ns, byte(), any::<bool>(), any::<bool>())
            .prop_map(|(s, d, b, w, h)| Raw::LaunchPooled(s, d, b, w, h)),
    ]
}

/// Maps raw indices into range (so every shrunk program is still valid).
fn normalize(devices: u32, streams: Vec<(u8, bool)>, raw: Vec<Raw>) -> Program {
    let streams: Vec<StreamSpec> = streams
        .into_iter()
        .map(|(d, non_blocking)| StreamSpec {
            device: u32::from(d) % devices,
            non_blocking,
        })
        .collect();
    let ns = streams.len() as u32;
    let stream = |r: RawStream| {
        if r.legacy {
            StreamRef::Legacy(u32::from(r.index) % devices)
        } else {
            StreamRef::Created(u32::from(r.index) % ns)
        }
    };
    let device_of = |s: StreamRef| match s {
        StreamRef::Created(n) => streams[n as usize].device,
        StreamRef::Legacy(d) => d,
    };
    let n_buf = devices * BUFFERS_PER_DEVICE;
    let buf_any = |b: u8| {
        let b = u32::from(b) % n_buf;
        BufRef {
            device: b / BUFFERS_PER_DEVICE,
            slot: b % BUFFERS_PER_DEVICE,
        }
    };
    let buf_on = |d: u32, b: u8| BufRef {
        device: d,
        slot: u32::from(b) % BUFFERS_PER_DEVICE,
    };
    let event_any = |e: u8| {
        let e = u32::from(e) % (devices * EVENTS_PER_DEVICE);
        EventRef {
            device: e / EVENTS_PER_DEVICE,
            slot: e % EVENTS_PER_DEVICE,
        }
    };
    let pin = |h: u8| PinnedRef(u32::from(h) % PINNED_BUFFERS);
    // Each slot's state in program order: live, and the stream of its latest allocation; the latest free's
    // stream.
    let mut live = [false; POOL_SLOTS as usize];
    let mut home: [Option<StreamRef>; POOL_SLOTS as usize] = [None; POOL_SLOTS as usize];
    let mut last_free: Option<StreamRef> = None;
    let steps = raw
        .into_iter()
        .map(|r| match r {
            Raw::Pool(b, s, at_home) => {
                let slot = u32::from(b) % POOL_SLOTS;
                let i = slot as usize;
                if live[i] {
                    live[i] = false;
                    let stream = match home[i] {
                        Some(h) if at_home => h,
                        _ => stream(s),
                    };
                    last_free = Some(stream);
                    Step::FreeAsync {
                        slot: PoolRef(slot),
                        stream,
                    }
                } else {
                    let stream = match last_free {
                        Some(f) if at_home => f,
                        _ => stream(s),
                    };
                    live[i] = true;
                    home[i] = Some(stream);
                    Step::MallocAsync {
                        slot: PoolRef(slot),
                        stream,
                    }
                }
            }
            Raw::LaunchPooled(s, d, b, write, at_home) => {
                let slot = u32::from(b) % POOL_SLOTS;
                let (st, i) = (stream(s), slot as usize);
                match home[i] {
                    None => {
                        live[i] = true;
                        home[i] = Some(st);
                        Step::MallocAsync {
                            slot: PoolRef(slot),
                            stream: st,
                        }
                    }
                    Some(h) => {
                        let dev = device_of(h);
                        Step::LaunchPooled {
                            stream: if at_home {
                                h
                            } else if device_of(st) == dev {
                                st
                            } else {
                                StreamRef::Legacy(dev)
                            },
                            duration_ns: d,
                            slot: PoolRef(slot),
                            write,
                        }
                    }
                }
            }
            Raw::Launch(s, d, reads, writes) => {
                let s = stream(s);
                let dev = device_of(s);
                Step::Launch {
                    stream: s,
                    duration_ns: d,
                    reads: reads.into_iter().map(|b| buf_on(dev, b)).collect(),
                    writes: writes.into_iter().map(|b| buf_on(dev, b)).collect(),
                }
            }
            Raw::Memset(s, b) => {
                let s = stream(s);
                Step::Memset {
                    stream: s,
                    dst: buf_on(device_of(s), b),
                }
            }
            Raw::CopyD2D(s, a, b) => Step::CopyDeviceToDevice {
                stream: stream(s),
                src: buf_any(a),
                dst: buf_any(b),
            },
            Raw::CopyH2D(s, h, b) => {
                let s = stream(s);
                Step::CopyToDevice {
                    stream: s,
                    src: pin(h),
                    dst: buf_on(device_of(s), b),
                }
            }
            Raw::CopyD2H(s, b, h) => {
                let s = stream(s);
                Step::CopyToHost {
                    stream: s,
                    src: buf_on(device_of(s), b),
                    dst: pin(h),
                }
            }
            Raw::CopyD2HSync(b, h) => Step::CopyToHostSync {
                src: buf_any(b),
                dst: pin(h),
            },
            Raw::CopyFromPageable(s, b) => {
                let s = stream(s);
                Step::CopyFromPageable {
                    stream: s,
                    dst: buf_on(device_of(s), b),
                }
            }
            Raw::CopyToPageable(s, b) => {
                let s = stream(s);
                Step::CopyToPageable {
                    stream: s,
                    src: buf_on(device_of(s), b),
                }
            }
            Raw::Record(e, s) => {
                let s = stream(s);
                Step::Record {
                    event: EventRef {
                        device: device_of(s),
                        slot: u32::from(e) % EVENTS_PER_DEVICE,
                    },
                    stream: s,
                }
            }
            Raw::Wait(s, e) => Step::Wait {
                stream: stream(s),
                event: event_any(e),
            },
            Raw::StreamSync(s) => Step::StreamSynchronize(stream(s)),
            Raw::EventSync(e) => Step::EventSynchronize(event_any(e)),
            Raw::DeviceSync(d) => Step::DeviceSynchronize(u32::from(d) % devices),
            Raw::StreamQuery(s) => Step::StreamQuery(stream(s)),
            Raw::EventQuery(e) => Step::EventQuery(event_any(e)),
            Raw::Spin(e) => Step::SpinOnEvent(event_any(e)),
            Raw::HostRead(h) => Step::HostRead(pin(h)),
            Raw::HostWrite(h) => Step::HostWrite(pin(h)),
            Raw::Replace(n) => Step::ReplaceStream(u32::from(n) % ns),
        })
        .collect();
    Program {
        devices,
        streams,
        steps,
    }
}

/// A strategy for valid [`Program`]s within `limits`. Shrinking removes steps, streams and devices, shortens
/// kernels and moves references towards the first stream, buffer and event.
pub fn program(limits: Limits) -> impl Strategy<Value = Program> {
    let max_devices = limits.max_devices.max(1);
    let max_streams = limits.max_streams.max(1);
    (
        1..=max_devices,
        prop::collection::vec((any::<u8>(), any::<bool>()), 1..=max_streams),
        prop::collection::vec(raw_step(limits.max_kernel_ns), 0..=limits.max_steps),
    )
        .prop_map(|(devices, streams, raw)| normalize(devices, streams, raw))
}
