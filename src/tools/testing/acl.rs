//! Random ACL-dialect programs for property tests (cargo feature `proptest`): [`acl_program`] generates them,
//! [`AclProgram::run`] runs one on an ACL machine with the public API only.
//!
//! What a program has: one or two host threads (each step is made by one; a thread other than 0 starts with
//! no current context); the default context of device 0 (from `set_device`) and optionally
//! a created one, on device 0 or device 1; created streams in either context and each context's default
//! stream; events of three kinds ([`AclEventKind`]: `aclrtCreateEvent`, `aclrtCreateEventWithFlag
//! (ACL_EVENT_SYNC)` and `aclrtCreateEventWithFlag(ACL_EVENT_TIME_LINE)`), each made in either context. The
//! steps are kernels (at most one of a program faults), records, stream waits (a wait on a never-recorded or
//! reset SYNC event is deferred until the event's next record), `aclrtResetEvent`, `aclrtSetStreamFailureMode`
//! (stop or continue), stream / event / device synchronizes (stream and event ones also with a timeout of
//! 1–40 µs of virtual time), stream and event queries, and a launch on a stream of the other context
//! (refused, 107003). A record, wait or reset may name an event of the other context's device (refused,
//! 107003).
//! Before a call on a stream the runner makes the stream's context current (`set_current_context`) if it is
//! not; those calls count on the clock. Rules: `docs/semantics/acl.md`, `docs/semantics/acl-runtime-api.md`.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::Duration;

use proptest::prelude::*;

use crate::{
    Context, Event, EventConfig, FailureMode, Kernel, Machine, Process, Result, SimError, Status,
    Stream, StreamFlags, UnrecordedWait, VirtualTime,
};

/// The kind of an ACL event, as the ACL facade creates it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AclEventKind {
    /// `aclrtCreateEvent`: timed and waitable; a wait before the first record is refused (107000).
    Plain,
    /// `aclrtCreateEventWithFlag(ACL_EVENT_SYNC)`: a wait before the first record (or after a reset) is
    /// deferred until the next record.
    Sync,
    /// `aclrtCreateEventWithFlag(ACL_EVENT_TIME_LINE)`: timed, cannot be waited on or reset (207000).
    TimeLine,
}

impl AclEventKind {
    /// The core's configuration of this kind (the ACL facade's mapping, `docs/semantics/acl.md` · Events).
    pub fn config(self) -> EventConfig {
        let base = EventConfig::new().unrecorded_query(Status::NotReady);
        match self {
            AclEventKind::Plain => base
                .timing(true)
                .waitable(true)
                .unrecorded_wait(UnrecordedWait::Error)
                .capturable(false),
            AclEventKind::Sync => base
                .timing(false)
                .waitable(true)
                .unrecorded_wait(UnrecordedWait::Defer)
                .capturable(false),
            AclEventKind::TimeLine => base
                .timing(true)
                .waitable(false)
                .unrecorded_wait(UnrecordedWait::Error)
                .capturable(false),
        }
    }
}

/// A stream of an ACL program.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AStream {
    /// Created stream `n` (index into [`AclProgram::streams`]), printed `s<n + 1>`.
    Created(u32),
    /// The default stream of context `c` (0: the device's default context, 1: the created one).
    Default(u32),
}

impl std::fmt::Debug for AStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AStream::Created(n) => write!(f, "s{}", n + 1),
            AStream::Default(c) => write!(f, "default@ctx{c}"),
        }
    }
}

/// One call of an ACL program.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum AStep {
    /// A kernel `k<step index>` of `duration_ns`; if `fault`, its body fails.
    Launch {
        /// Where.
        stream: AStream,
        /// Virtual duration.
        duration_ns: u64,
        /// Whether its body fails (`"boom"`).
        fault: bool,
    },
    /// A launch on `stream` while the *other* context is current (refused with `WrongContext`, 107003).
    LaunchForeign {
        /// A created stream, of the context that is not made current.
        stream: AStream,
    },
    /// `record_event`.
    Record {
        /// Which event.
        event: u32,
        /// Where.
        stream: AStream,
    },
    /// `stream_wait_event`.
    Wait {
        /// Who waits.
        stream: AStream,
        /// For what.
        event: u32,
    },
    /// `reset_event` (`aclrtResetEvent`).
    Reset {
        /// Which event.
        event: u32,
        /// Where it is queued.
        stream: AStream,
    },
    /// `set_stream_failure_mode`: `Stop` if `stop`, else `Continue`.
    SetFailureMode {
        /// Which stream.
        stream: AStream,
        /// Stop (or continue) on failure.
        stop: bool,
    },
    /// `stream_synchronize`.
    StreamSynchronize(AStream),
    /// `stream_synchronize_timeout` (`aclrtSynchronizeStreamWithTimeout`) with a timeout in microseconds.
    StreamSynchronizeTimeout(AStream, u64),
    /// `event_synchronize`.
    EventSynchronize(u32),
    /// `event_synchronize_timeout` (`aclrtSynchronizeEventWithTimeout`) with a timeout in microseconds.
    EventSynchronizeTimeout(u32, u64),
    /// `device_synchronize`.
    DeviceSynchronize,
    /// `stream_query`.
    StreamQuery(AStream),
    /// `event_query`.
    EventQuery(u32),
}

impl std::fmt::Debug for AStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AStep::Launch {
                stream,
                duration_ns,
                fault,
            } => write!(
                f,
                "launch on {stream:?}, {duration_ns} ns{}",
                if *fault { ", FAULTS" } else { "" }
            ),
            AStep::LaunchForeign { stream } => {
                write!(f, "launch on {stream:?} from the other context")
            }
            AStep::Record { event, stream } => write!(f, "record e{event} on {stream:?}"),
            AStep::Wait { stream, event } => write!(f, "{stream:?} waits e{event}"),
            AStep::Reset { event, stream } => write!(f, "reset e{event} on {stream:?}"),
            AStep::SetFailureMode { stream, stop } => write!(
                f,
                "set_stream_failure_mode {stream:?} {}",
                if *stop { "stop" } else { "continue" }
            ),
            AStep::StreamSynchronize(s) => write!(f, "stream_synchronize {s:?}"),
            AStep::EventSynchronize(e) => write!(f, "event_synchronize e{e}"),
            AStep::StreamSynchronizeTimeout(s, us) => {
                write!(f, "stream_synchronize {s:?}, timeout {us} µs")
            }
            AStep::EventSynchronizeTimeout(e, us) => {
                write!(f, "event_synchronize e{e}, timeout {us} µs")
            }
            AStep::DeviceSynchronize => write!(f, "device_synchronize"),
            AStep::StreamQuery(s) => write!(f, "stream_query {s:?}"),
            AStep::EventQuery(e) => write!(f, "event_query e{e}"),
        }
    }
}

/// An ACL program.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct AclProgram {
    /// 1 (the default context of device 0) or 2 (and a created one).
    pub contexts: u32,
    /// The device of the created context (0 or 1); the program uses `context_device + 1` devices when it has
    /// two contexts (the machine needs at least [`AclProgram::devices`]).
    pub context_device: u32,
    /// The context of each created stream, in creation order.
    pub streams: Vec<u32>,
    /// The events, in creation order (ids 1, 2, …): each one's kind and the context current at its creation
    /// (its device is that context's).
    pub events: Vec<(AclEventKind, u32)>,
    /// What it does.
    pub steps: Vec<AStep>,
    /// Host threads (1 or 2).
    pub threads: u32,
    /// The host thread of each step (empty: all on thread 0).
    pub on_thread: Vec<u32>,
}

impl std::fmt::Debug for AclProgram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "AclProgram {{")?;
        writeln!(
            f,
            "  contexts: {}, threads: {}",
            self.contexts, self.threads
        )?;
        if self.contexts == 2 {
            writeln!(f, "  ctx1 on d{}", self.context_device)?;
        }
        for (i, c) in self.streams.iter().enumerate() {
            writeln!(f, "  s{}: ctx{c}", i + 1)?;
        }
        for (i, (k, c)) in self.events.iter().enumerate() {
            writeln!(f, "  e{i}: {k:?} in ctx{c}")?;
        }
        for (i, s) in self.steps.iter().enumerate() {
            if self.threads > 1 {
                writeln!(f, "  {i:>3}: t{}: {s:?}", self.thread_of(i))?;
            } else {
                writeln!(f, "  {i:>3}: {s:?}")?;
            }
        }
        write!(f, "}}")
    }
}

/// What one step answered: `Ok(Some(status))` for a query, `Ok(None)` for any other call that worked.
pub type AResult = std::result::Result<Option<Status>, SimError>;

/// What the host observed in a run of an [`AclProgram`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AclOutcome {
    /// Every step's answer.
    pub results: Vec<AResult>,
    /// The final `device_synchronize`'s answer.
    pub last: AResult,
    /// The steps whose kernel body ran, in step order.
    pub kernels_ran: Vec<usize>,
    /// Each host thread's clock after its last call.
    pub ends: Vec<VirtualTime>,
}

impl AclProgram {
    /// How many devices it uses.
    pub fn devices(&self) -> u32 {
        if self.contexts == 2 {
            self.context_device + 1
        } else {
            1
        }
    }

    /// The device of context `c`.
    pub fn device_of_context(&self, c: u32) -> u32 {
        if c == 1 { self.context_device } else { 0 }
    }

    /// The context of a stream.
    pub fn context_of(&self, s: AStream) -> u32 {
        match s {
            AStream::Created(n) => self.streams[n as usize],
            AStream::Default(c) => c,
        }
    }

    /// The host thread that makes step `i` (0 in a single-threaded program).
    pub fn thread_of(&self, i: usize) -> u32 {
        self.on_thread.get(i).copied().unwrap_or(0)
    }

    /// Runs the program on `m` (ACL dialect, at least [`AclProgram::devices`] devices), one OS thread per host
    /// thread, the calls in the program's order (a token handed from call to call, as in
    /// [`super::world`]): on thread 0, `set_device(0)`; `create_context(context_device)` if it has two
    /// contexts (it becomes current); the streams, each with its context made current; the events, each with
    /// its context made current; then the steps, each on its thread (a thread other than 0 starts with no
    /// context); on thread 0 a `device_synchronize` (of the device of the context then current); then
    /// [`Machine::drain`] (not a runtime call), so that everything that can run has run. Each thread ends
    /// after its last call (so that it is no longer live for the wait board).
    ///
    /// A call that blocks until another thread's later call (a synchronize behind a deferred wait that the
    /// other thread will release) would stop the token: such programs hang; the property tests filter them out
    /// with the reference model.
    pub fn run(&self, m: &Machine) -> Result<AclOutcome> {
        let p = m.process();
        let ran = Arc::new(Mutex::new(Vec::new()));
        let handles: OnceLock<std::result::Result<Handles, SimError>> = OnceLock::new();
        let results: Mutex<BTreeMap<usize, AResult>> = Mutex::new(BTreeMap::new());
        let last: Mutex<Option<AResult>> = Mutex::new(None);
        let ends: Mutex<BTreeMap<u32, VirtualTime>> = Mutex::new(BTreeMap::new());
        // Turns: the set-up (None), the steps, the final synchronize (None again), by thread.
        let mut turns: Vec<(u32, Option<usize>)> = vec![(0, None)];
        turns.extend((0..self.steps.len()).map(|i| (self.thread_of(i), Some(i))));
        turns.push((0, None));
        let next = (Mutex::new(0usize), Condvar::new());
        std::thread::scope(|scope| {
            for t in 0..self.threads.max(1) {
                let mine: Vec<(usize, Option<usize>)> = turns
                    .iter()
                    .enumerate()
                    .filter(|(_, (tt, _))| *tt == t)
                    .map(|(k, (_, a))| (k, *a))
                    .collect();
                let (p, ran, handles, results, last, ends, next, turns) = (
                    &p,
                    ran.clone(),
                    &handles,
                    &results,
                    &last,
                    &ends,
                    &next,
                    &turns,
                );
                scope.spawn(move || {
                    let mut th = AclRunner {
                        prog: self,
                        p,
                        h: None,
                        current: None,
                        ran,
                    };
                    for (k, a) in mine {
                        {
                            let mut g = next.0.lock().expect("turn");
                            while *g != k {
                                g = next.1.wait(g).expect("turn");
                            }
                        }
                        match a {
                            None if k == 0 => {
                                let _ = handles.set(th.setup());
                            }
                            None => {
                                let r = th.p.device_synchronize().map(|()| None);
                                *last.lock().expect("last") = Some(r);
                            }
                            Some(i) => {
                                if th.h.is_none() {
                                    th.h = Some(match handles.get().expect("set up first") {
                                        Ok(h) => h.clone(),
                                        Err(_) => break,
                                    });
                                }
                                let r = th.step(i);
                                results.lock().expect("results").insert(i, r);
                            }
                        }
                        *next.0.lock().expect("turn") += 1;
                        next.1.notify_all();
                    }
                    // A thread that made no call reads no clock (its first touch of the process would
                    // give it an ordinal, at a time no turn decides).
                    let now = if turns.iter().any(|(tt, _)| *tt == t) {
                        p.now()
                    } else {
                        VirtualTime::ZERO
                    };
                    ends.lock().expect("ends").insert(t, now);
                });
            }
        });
        if let Some(Err(e)) = handles.into_inner() {
            return Err(e);
        }
        m.drain();
        let mut kernels_ran = ran.lock().expect("ran").clone();
        kernels_ran.sort_unstable();
        let mut results = results.into_inner().expect("results");
        Ok(AclOutcome {
            results: (0..self.steps.len())
                .map(|i| results.remove(&i).expect("every step ran"))
                .collect(),
            last: last
                .into_inner()
                .expect("last")
                .expect("the final synchronize ran"),
            kernels_ran,
            ends: ends.into_inner().expect("ends").into_values().collect(),
        })
    }
}

/// A program's handles, made by thread 0's set-up and shared by its threads.
#[derive(Clone)]
struct Handles {
    contexts: Vec<Context>,
    streams: Vec<Stream>,
    events: Vec<Event>,
}

struct AclRunner<'a> {
    prog: &'a AclProgram,
    p: &'a Process,
    h: Option<Handles>,
    /// This thread's current context (`None`: none yet).
    current: Option<u32>,
    ran: Arc<Mutex<Vec<usize>>>,
}

impl AclRunner<'_> {
    fn h(&self) -> &Handles {
        self.h.as_ref().expect("set up")
    }

    /// Thread 0's set-up (see [`AclProgram::run`]).
    fn setup(&mut self) -> Result<Handles> {
        let p = self.p;
        p.set_device(0)?;
        let mut contexts = vec![p.current_context()?];
        self.current = Some(0);
        if self.prog.contexts == 2 {
            contexts.push(p.create_context(i64::from(self.prog.context_device))?);
            self.current = Some(1);
        }
        self.h = Some(Handles {
            contexts,
            streams: Vec::new(),
            events: Vec::new(),
        });
        for &c in &self.prog.streams {
            self.context(c)?;
            let s = p.create_stream(StreamFlags::DEFAULT)?;
            self.h.as_mut().expect("set").streams.push(s);
        }
        for &(k, c) in &self.prog.events {
            self.context(c)?;
            let e = p.create_event_with(k.config())?;
            self.h.as_mut().expect("set").events.push(e);
        }
        Ok(self.h().clone())
    }

    fn context(&mut self, c: u32) -> Result<()> {
        if self.current != Some(c) {
            self.p.set_current_context(self.h().contexts[c as usize])?;
            self.current = Some(c);
        }
        Ok(())
    }

    /// The stream, its context made current.
    fn stream(&mut self, s: AStream) -> Result<Stream> {
        self.context(self.prog.context_of(s))?;
        Ok(self.handle(s))
    }

    fn handle(&self, s: AStream) -> Stream {
        match s {
            AStream::Created(n) => self.h().streams[n as usize],
            AStream::Default(_) => Stream::DEFAULT,
        }
    }

    fn event(&self, e: u32) -> Event {
        self.h().events[e as usize]
    }

    fn kernel(&self, i: usize, duration_ns: u64, fault: bool) -> Kernel {
        let ran = self.ran.clone();
        Kernel::new(Cow::Owned(format!("k{i}")))
            .duration(Duration::from_nanos(duration_ns))
            .body(move |_| {
                ran.lock().expect("ran").push(i);
                if fault { Err("boom".into()) } else { Ok(()) }
            })
    }

    fn step(&mut self, i: usize) -> AResult {
        let p = self.p;
        let done = |r: Result<()>| r.map(|()| None);
        match &self.prog.steps[i] {
            AStep::Launch {
                stream,
                duration_ns,
                fault,
            } => {
                let s = self.stream(*stream)?;
                done(p.launch(s, self.kernel(i, *duration_ns, *fault)))
            }
            AStep::LaunchForeign { stream } => {
                self.context(1 - self.prog.context_of(*stream))?;
                done(p.launch(self.handle(*stream), self.kernel(i, 1_000, false)))
            }
            AStep::Record { event, stream } => {
                let s = self.stream(*stream)?;
                done(p.record_event(self.event(*event), s))
            }
            AStep::Wait { stream, event } => {
                let s = self.stream(*stream)?;
                done(p.stream_wait_event(s, self.event(*event)))
            }
            AStep::Reset { event, stream } => {
                let s = self.stream(*stream)?;
                done(p.reset_event(self.event(*event), s))
            }
            AStep::SetFailureMode { stream, stop } => {
                let s = self.stream(*stream)?;
                let mode = if *stop {
                    FailureMode::Stop
                } else {
                    FailureMode::Continue
                };
                done(p.set_stream_failure_mode(s, mode))
            }
            AStep::StreamSynchronize(s) => {
                let s = self.stream(*s)?;
                done(p.stream_synchronize(s))
            }
            AStep::EventSynchronize(e) => done(p.event_synchronize(self.event(*e))),
            AStep::StreamSynchronizeTimeout(s, us) => {
                let s = self.stream(*s)?;
                done(p.stream_synchronize_timeout(s, Duration::from_micros(*us)))
            }
            AStep::EventSynchronizeTimeout(e, us) => {
                done(p.event_synchronize_timeout(self.event(*e), Duration::from_micros(*us)))
            }
            AStep::DeviceSynchronize => done(p.device_synchronize()),
            AStep::StreamQuery(s) => {
                let s = self.stream(*s)?;
                p.stream_query(s).map(Some)
            }
            AStep::EventQuery(e) => p.event_query(self.event(*e)).map(Some),
        }
    }
}

/// Bounds for [`acl_program`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AclLimits {
    /// Most created streams.
    pub max_streams: usize,
    /// Most events.
    pub max_events: usize,
    /// Most steps.
    pub max_steps: usize,
    /// Longest kernel, in nanoseconds.
    pub max_kernel_ns: u64,
}

impl Default for AclLimits {
    /// 3 streams, 3 events, 24 steps, 30 µs kernels.
    fn default() -> Self {
        AclLimits {
            max_streams: 3,
            max_events: 3,
            max_steps: 24,
            max_kernel_ns: 30_000,
        }
    }
}

#[derive(Debug, Clone)]
enum Raw {
    Launch(u8, u64, bool),
    Foreign(u8),
    Record(u8, u8),
    Wait(u8, u8),
    Reset(u8, u8),
    Mode(u8, bool),
    StreamSync(u8),
    EventSync(u8),
    StreamSyncTimeout(u8, u64),
    EventSyncTimeout(u8, u64),
    DeviceSync,
    StreamQuery(u8),
    EventQuery(u8),
    /// Four steps on one stream: set it to stop on failure, a faulting kernel (if the program has none yet),
    /// a stream synchronize (which reports it) and another kernel (which the stopped context refuses).
    StopCycle(u8, u64),
}

fn raw_step(max_kernel_ns: u64) -> impl Strategy<Value = Raw> {
    let byte = any::<u8>;
    prop_oneof![
        8 => (byte(), 0..=max_kernel_ns, prop::bool::weighted(0.15))
            .prop_map(|(s, d, f)| Raw::Launch(s, d, f)),
        1 => byte().prop_map(Raw::Foreign),
        5 => (byte(), byte()).prop_map(|(e, s)| Raw::Record(e, s)),
        5 => (byte(), byte()).prop_map(|(s, e)| Raw::Wait(s, e)),
        2 => (byte(), byte()).prop_map(|(e, s)| Raw::Reset(e, s)),
        3 => (byte(), prop::bool::weighted(0.7)).prop_map(|(s, stop)| Raw::Mode(s, stop)),
        3 => byte().prop_map(Raw::StreamSync),
        1 => byte().prop_map(Raw::EventSync),
        2 => (byte(), 1..=40u64).prop_map(|(s, t)| Raw::StreamSyncTimeout(s, t)),
        1 => (byte(), 1..=40u64).prop_map(|(e, t)| Raw::EventSyncTimeout(e, t)),
        1 => Just(Raw::DeviceSync),
        2 => byte().prop_map(Raw::StreamQuery),
        2 => byte().prop_map(Raw::EventQuery),
        1 => (byte(), 0..=max_kernel_ns).prop_map(|(s, d)| Raw::StopCycle(s, d)),
    ]
}

fn normalize(
    (two_contexts, second_device): (bool, bool),
    streams: Vec<bool>,
    events: Vec<(u8, bool)>,
    (two_threads, probe, raw): (bool, bool, Vec<(bool, Raw)>),
) -> AclProgram {
    let threads = if two_threads { 2 } else { 1 };
    // A second thread's first call may be a device synchronize, before it has any context.
    let mut probe = probe && two_threads;
    let mut on_thread = Vec::new();
    let contexts = if two_contexts { 2 } else { 1 };
    let streams: Vec<u32> = streams
        .into_iter()
        .map(|second| u32::from(second && two_contexts))
        .collect();
    let events: Vec<(AclEventKind, u32)> = events
        .into_iter()
        .map(|(k, second)| {
            let kind = match k % 5 {
                0 => AclEventKind::Plain,
                1 => AclEventKind::TimeLine,
                _ => AclEventKind::Sync,
            };
            (kind, u32::from(second && two_contexts))
        })
        .collect();
    let (ns, ne) = (streams.len() as u32, events.len() as u32);
    let stream = |b: u8| {
        if b.is_multiple_of(5) {
            AStream::Default(u32::from(b / 5) % contexts)
        } else {
            AStream::Created(u32::from(b) % ns)
        }
    };
    let event = |b: u8| u32::from(b) % ne;
    let mut faulted = false;
    let steps = raw
        .into_iter()
        .flat_map(|(second, r)| {
            let mut out = Vec::new();
            if second && std::mem::take(&mut probe) {
                on_thread.push(1);
                out.push(AStep::DeviceSynchronize);
            }
            let step = match r {
                Raw::StopCycle(s, d) => {
                    let s = stream(s);
                    let fault = !faulted;
                    faulted = true;
                    let cycle = [
                        AStep::SetFailureMode {
                            stream: s,
                            stop: true,
                        },
                        AStep::Launch {
                            stream: s,
                            duration_ns: d,
                            fault,
                        },
                        AStep::StreamSynchronize(s),
                        AStep::Launch {
                            stream: s,
                            duration_ns: d,
                            fault: false,
                        },
                    ];
                    let t = u32::from(second && two_threads);
                    on_thread.extend([t; 4]);
                    out.extend(cycle);
                    return out;
                }
                Raw::Launch(s, d, f) => {
                    let fault = f && !faulted;
                    faulted |= fault;
                    AStep::Launch {
                        stream: stream(s),
                        duration_ns: d,
                        fault,
                    }
                }
                // A created stream: the NULL stream is whichever context is current's.
                Raw::Foreign(s) if two_contexts => AStep::LaunchForeign {
                    stream: AStream::Created(u32::from(s) % ns),
                },
                Raw::Foreign(_) => return out,
                Raw::Record(e, s) => AStep::Record {
                    event: event(e),
                    stream: stream(s),
                },
                Raw::Wait(s, e) => AStep::Wait {
                    stream: stream(s),
                    event: event(e),
                },
                Raw::Reset(e, s) => AStep::Reset {
                    event: event(e),
                    stream: stream(s),
                },
                Raw::Mode(s, stop) => AStep::SetFailureMode {
                    stream: stream(s),
                    stop,
                },
                Raw::StreamSync(s) => AStep::StreamSynchronize(stream(s)),
                Raw::EventSync(e) => AStep::EventSynchronize(event(e)),
                Raw::StreamSyncTimeout(s, t) => AStep::StreamSynchronizeTimeout(stream(s), t),
                Raw::EventSyncTimeout(e, t) => AStep::EventSynchronizeTimeout(event(e), t),
                Raw::DeviceSync => AStep::DeviceSynchronize,
                Raw::StreamQuery(s) => AStep::StreamQuery(stream(s)),
                Raw::EventQuery(e) => AStep::EventQuery(event(e)),
            };
            on_thread.push(u32::from(second && two_threads));
            out.push(step);
            out
        })
        .collect();
    AclProgram {
        contexts,
        context_device: u32::from(two_contexts && second_device),
        streams,
        events,
        steps,
        threads,
        on_thread: if two_threads { on_thread } else { Vec::new() },
    }
}

/// A strategy for valid [`AclProgram`]s within `limits` (run them on an ACL machine): half of them on two host
/// threads, each step on either. Shrinking removes steps, streams, events, the second context and the second
/// thread, clears the fault and shortens kernels.
pub fn acl_program(limits: AclLimits) -> impl Strategy<Value = AclProgram> {
    (
        (any::<bool>(), any::<bool>()),
        prop::collection::vec(any::<bool>(), 1..=limits.max_streams.max(1)),
        prop::collection::vec((any::<u8>(), any::<bool>()), 1..=limits.max_events.max(1)),
        (
            any::<bool>(),
            any::<bool>(),
            prop::collection::vec(
                (any::<bool>(), raw_step(limits.max_kernel_ns)),
                0..=limits.max_steps,
            ),
        ),
    )
        .prop_map(|(two, streams, events, raw)| normalize(two, streams, events, raw))
}
