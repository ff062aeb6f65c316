//! Random stream captures for property tests (cargo feature `proptest`): [`capture_program`] generates
//! single-device CUDA-dialect programs that capture a fork/join of 1–4 streams into a graph and launch it, and
//! [`CaptureProgram`] runs one either captured ([`CaptureProgram::run_captured`]) or eagerly, the same calls
//! without the capture ([`CaptureProgram::run_eager`]).
//!
//! The captured calls are kernels (declared reads and writes of whole buffers), memsets, copies on the device
//! and between the device and pinned host memory, event records and stream waits. Every generated capture is
//! valid: a stream is forked into the capture (a record on the origin stream `s1`, a wait on the stream)
//! before its first call, waits name events recorded in the capture (or never recorded), and every forked
//! stream is joined back to `s1` before the end. A program may then make one [`Mistake`] between its last call
//! and the end of the capture — a call that the capture rules refuse, or leaving a stream unjoined — whose
//! answers the reference model predicts (`proptests/model/capture.rs`). Rules and sources:
//! `docs/semantics/capture-and-graphs.md`.

use std::borrow::Cow;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use proptest::prelude::*;

use super::{BUFFER_BYTES, BUFFERS_PER_DEVICE, PINNED_BUFFERS};
use crate::{
    CaptureMode, DevicePtr, Event, EventFlags, HostPtr, Kernel, Process, Result, Stream,
    StreamFlags,
};

/// Events a capture program's records and waits name (its fork / join event is one more: [`FORK_EVENT`]).
pub const CAPTURE_EVENTS: u32 = 3;
/// The event the inserted forks and joins record and wait on.
pub const FORK_EVENT: u32 = CAPTURE_EVENTS;

/// One call of a capture, on a created stream (`stream` indexes [`CaptureProgram::streams`]).
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum CaptureStep {
    /// A kernel named `k<step index>` of `duration_ns`, declaring reads and writes of whole device buffers.
    Launch {
        /// Where.
        stream: u32,
        /// Virtual duration.
        duration_ns: u64,
        /// Device buffers read.
        reads: Vec<u32>,
        /// Device buffers written.
        writes: Vec<u32>,
    },
    /// `memset_async` of a whole device buffer.
    Memset {
        /// Where.
        stream: u32,
        /// The device buffer.
        dst: u32,
    },
    /// `memcpy_async` between two device buffers.
    CopyOnDevice {
        /// Where.
        stream: u32,
        /// Read.
        src: u32,
        /// Written.
        dst: u32,
    },
    /// `memcpy_async` from a pinned buffer to a device buffer.
    CopyToDevice {
        /// Where.
        stream: u32,
        /// The pinned buffer read.
        src: u32,
        /// The device buffer written.
        dst: u32,
    },
    /// `memcpy_async` from a device buffer to a pinned buffer.
    CopyToHost {
        /// Where.
        stream: u32,
        /// The device buffer read.
        src: u32,
        /// The pinned buffer written.
        dst: u32,
    },
    /// `record_event`.
    Record {
        /// The event (`FORK_EVENT` for the inserted forks and joins).
        event: u32,
        /// Where.
        stream: u32,
    },
    /// `stream_wait_event`.
    Wait {
        /// Who waits.
        stream: u32,
        /// For what.
        event: u32,
    },
}

impl CaptureStep {
    /// Whether the step enqueues work (a node, when captured).
    pub fn is_work(&self) -> bool {
        !matches!(self, CaptureStep::Record { .. } | CaptureStep::Wait { .. })
    }

    /// The stream it is called on.
    pub fn stream(&self) -> u32 {
        match self {
            CaptureStep::Launch { stream, .. }
            | CaptureStep::Memset { stream, .. }
            | CaptureStep::CopyOnDevice { stream, .. }
            | CaptureStep::CopyToDevice { stream, .. }
            | CaptureStep::CopyToHost { stream, .. }
            | CaptureStep::Record { stream, .. }
            | CaptureStep::Wait { stream, .. } => *stream,
        }
    }
}

impl std::fmt::Debug for CaptureStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = |n: &u32| format!("s{}", n + 1);
        match self {
            CaptureStep::Launch {
                stream,
                duration_ns,
                reads,
                writes,
            } => write!(
                f,
                "launch on {}, {duration_ns} ns, reads {reads:?}, writes {writes:?}",
                s(stream)
            ),
            CaptureStep::Memset { stream, dst } => write!(f, "memset b{dst} on {}", s(stream)),
            CaptureStep::CopyOnDevice { stream, src, dst } => {
                write!(f, "memcpy b{src} -> b{dst} on {}", s(stream))
            }
            CaptureStep::CopyToDevice { stream, src, dst } => {
                write!(f, "memcpy pin{src} -> b{dst} on {}", s(stream))
            }
            CaptureStep::CopyToHost { stream, src, dst } => {
                write!(f, "memcpy b{src} -> pin{dst} on {}", s(stream))
            }
            CaptureStep::Record { event, stream } => write!(f, "record e{event} on {}", s(stream)),
            CaptureStep::Wait { stream, event } => write!(f, "{} waits e{event}", s(stream)),
        }
    }
}

/// A call the capture rules refuse (or a join left out), made after the last step, before the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mistake {
    /// `stream_synchronize` of a created stream.
    SyncStream(u32),
    /// `stream_query` of a created stream.
    QueryStream(u32),
    /// `device_synchronize`.
    SyncDevice,
    /// A 1 µs kernel launched on the legacy default stream.
    LegacyLaunch,
    /// `event_query` of an event.
    QueryEvent(u32),
    /// The final join of this forked stream is left out.
    Unjoined(u32),
}

/// A capture program: created streams (`s1`, the origin, first; `true`: non-blocking), the capture mode, the
/// captured calls (forks and joins included), an optional mistake, and how many times the graph is launched.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct CaptureProgram {
    /// The created streams' `non_blocking` flags; `s1` is the origin stream.
    pub streams: Vec<bool>,
    /// The capture's mode.
    pub mode: CaptureMode,
    /// The captured calls, in order.
    pub steps: Vec<CaptureStep>,
    /// The mistake made before the end, if any.
    pub mistake: Option<Mistake>,
    /// Launches of the executable graph (1 or 2).
    pub launches: u32,
}

impl std::fmt::Debug for CaptureProgram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "CaptureProgram {{")?;
        for (i, nb) in self.streams.iter().enumerate() {
            let kind = if *nb { "non-blocking" } else { "blocking" };
            writeln!(f, "  s{}: {kind}", i + 1)?;
        }
        writeln!(f, "  begin capture on s1, {:?}", self.mode)?;
        for (i, s) in self.steps.iter().enumerate() {
            writeln!(f, "  {i:>3}: {s:?}")?;
        }
        if let Some(m) = self.mistake {
            writeln!(f, "  mistake: {m:?}")?;
        }
        writeln!(f, "  end capture; launch {} time(s)", self.launches)?;
        write!(f, "}}")
    }
}

/// What a captured run answered.
#[derive(Debug)]
pub struct CaptureRun {
    /// Each step's answer.
    pub steps: Vec<Result<()>>,
    /// The mistake's answer, if the program makes a mistake call ([`Mistake::Unjoined`] is none).
    pub mistake: Option<Result<()>>,
    /// `end_capture`'s answer: the number of the graph's nodes.
    pub end: Result<usize>,
    /// The kernels that ran (their step indices), in the order they ran, launches included.
    pub executed: Vec<usize>,
}

/// The objects a run made.
struct Objects {
    streams: Vec<Stream>,
    events: Vec<Event>,
    buffers: Vec<DevicePtr>,
    pinned: Vec<HostPtr>,
    launch: Stream,
    log: Arc<Mutex<Vec<usize>>>,
}

impl CaptureProgram {
    /// The number of work steps (the graph's nodes when the capture ends).
    pub fn node_count(&self) -> usize {
        self.steps.iter().filter(|s| s.is_work()).count()
    }

    /// Set-up, on device 0: the streams in order, `CAPTURE_EVENTS + 1` events, [`BUFFERS_PER_DEVICE`] device
    /// buffers and [`PINNED_BUFFERS`] pinned buffers of [`BUFFER_BYTES`], then the non-blocking stream the graph
    /// is launched on.
    fn setup(&self, p: &Process) -> Result<Objects> {
        let streams = self
            .streams
            .iter()
            .map(|&nb| {
                p.create_stream(if nb {
                    StreamFlags::NON_BLOCKING
                } else {
                    StreamFlags::DEFAULT
                })
            })
            .collect::<Result<_>>()?;
        let events = (0..=CAPTURE_EVENTS)
            .map(|_| p.create_event(EventFlags::DEFAULT))
            .collect::<Result<_>>()?;
        let buffers = (0..BUFFERS_PER_DEVICE)
            .map(|_| p.malloc(BUFFER_BYTES))
            .collect::<Result<_>>()?;
        let pinned = (0..PINNED_BUFFERS)
            .map(|_| p.malloc_host(BUFFER_BYTES))
            .collect::<Result<_>>()?;
        let launch = p.create_stream(StreamFlags::NON_BLOCKING)?;
        Ok(Objects {
            streams,
            events,
            buffers,
            pinned,
            launch,
            log: Arc::new(Mutex::new(Vec::new())),
        })
    }

    fn step(o: &Objects, p: &Process, i: usize, step: &CaptureStep) -> Result<()> {
        let n = BUFFER_BYTES;
        let s = o.streams[step.stream() as usize];
        match step {
            CaptureStep::Launch {
                duration_ns,
                reads,
                writes,
                ..
            } => {
                let mut k = Kernel::new(Cow::Owned(format!("k{i}")))
                    .duration(Duration::from_nanos(*duration_ns));
                for &b in reads {
                    k = k.reads(o.buffers[b as usize], n);
                }
                for &b in writes {
                    k = k.writes(o.buffers[b as usize], n);
                }
                let log = o.log.clone();
                p.launch(
                    s,
                    k.shared_body(move |_| {
                        log.lock().expect("log").push(i);
                        Ok(())
                    }),
                )
            }
            CaptureStep::Memset { dst, .. } => {
                p.memset_async(o.buffers[*dst as usize], i as u8, n, s)
            }
            CaptureStep::CopyOnDevice { src, dst, .. } => {
                p.memcpy_async(o.buffers[*dst as usize], o.buffers[*src as usize], n, s)
            }
            CaptureStep::CopyToDevice { src, dst, .. } => {
                p.memcpy_async(o.buffers[*dst as usize], o.pinned[*src as usize], n, s)
            }
            CaptureStep::CopyToHost { src, dst, .. } => {
                p.memcpy_async(o.pinned[*dst as usize], o.buffers[*src as usize], n, s)
            }
            CaptureStep::Record { event, .. } => p.record_event(o.events[*event as usize], s),
            CaptureStep::Wait { event, .. } => p.stream_wait_event(s, o.events[*event as usize]),
        }
    }

    fn mistake_call(o: &Objects, p: &Process, m: Mistake) -> Result<()> {
        match m {
            Mistake::SyncStream(s) => p.stream_synchronize(o.streams[s as usize]),
            Mistake::QueryStream(s) => p.stream_query(o.streams[s as usize]).map(drop),
            Mistake::SyncDevice => p.device_synchronize(),
            Mistake::LegacyLaunch => p.launch(
                Stream::DEFAULT,
                Kernel::new("legacy").duration(Duration::from_micros(1)),
            ),
            Mistake::QueryEvent(e) => p.event_query(o.events[e as usize]).map(drop),
            Mistake::Unjoined(_) => unreachable!("no call"),
        }
    }

    /// Runs the steps without a capture (the mistake is not made), then a `device_synchronize`. Returns the
    /// kernels that ran, in the order they ran.
    pub fn run_eager(&self, p: &Process) -> Result<Vec<usize>> {
        let o = self.setup(p)?;
        for (i, step) in self.steps.iter().enumerate() {
            Self::step(&o, p, i, step)?;
        }
        p.device_synchronize()?;
        let log = o.log.lock().expect("log").clone();
        Ok(log)
    }

    /// Set-up, `begin_capture(s1, mode)`, the steps and the mistake (each answer kept), `end_capture(s1)`;
    /// if it gave a graph: `instantiate_graph`, [`CaptureProgram::launches`] × `launch_graph` on the launch
    /// stream, `stream_synchronize` of it; then `device_synchronize`. Only the set-up, the begin and the
    /// calls after the end must succeed (`Err`: one did not).
    pub fn run_captured(&self, p: &Process) -> Result<CaptureRun> {
        let o = self.setup(p)?;
        p.begin_capture(o.streams[0], self.mode)?;
        let steps = self
            .steps
            .iter()
            .enumerate()
            .map(|(i, s)| Self::step(&o, p, i, s))
            .collect();
        let mistake = self
            .mistake
            .filter(|m| !matches!(m, Mistake::Unjoined(_)))
            .map(|m| Self::mistake_call(&o, p, m));
        let end = p.end_capture(o.streams[0]);
        let end = match end {
            Ok(g) => {
                let nodes = p.graph_nodes(g)?.len();
                let x = p.instantiate_graph(g)?;
                for _ in 0..self.launches {
                    p.launch_graph(x, o.launch)?;
                }
                p.stream_synchronize(o.launch)?;
                Ok(nodes)
            }
            Err(e) => Err(e),
        };
        p.device_synchronize()?;
        let executed = o.log.lock().expect("log").clone();
        Ok(CaptureRun {
            steps,
            mistake,
            end,
            executed,
        })
    }
}

/// A raw step (indices reduced by [`normalize`]).
#[derive(Debug, Clone)]
enum Raw {
    Launch(u8, u64, Vec<u8>, Vec<u8>),
    Memset(u8, u8),
    CopyOnDevice(u8, u8, u8),
    CopyToDevice(u8, u8, u8),
    CopyToHost(u8, u8, u8),
    Record(u8, u8),
    Wait(u8, u8),
}

fn raw_step(max_kernel_ns: u64) -> impl Strategy<Value = Raw> {
    let b = any::<u8>;
    let acc = || prop::collection::vec(any::<u8>(), 0..=2);
    prop_oneof![
        6 => (b(), 0..=max_kernel_ns, acc(), acc()).prop_map(|(s, d, r, w)| Raw::Launch(s, d, r, w)),
        1 => (b(), b()).prop_map(|(s, x)| Raw::Memset(s, x)),
        1 => (b(), b(), b()).prop_map(|(s, x, y)| Raw::CopyOnDevice(s, x, y)),
        1 => (b(), b(), b()).prop_map(|(s, x, y)| Raw::CopyToDevice(s, x, y)),
        1 => (b(), b(), b()).prop_map(|(s, x, y)| Raw::CopyToHost(s, x, y)),
        3 => (b(), b()).prop_map(|(e, s)| Raw::Record(e, s)),
        3 => (b(), b()).prop_map(|(s, e)| Raw::Wait(s, e)),
    ]
}

fn raw_mistake(on: bool) -> impl Strategy<Value = Option<(u8, u8)>> {
    prop::option::weighted(0.4, (0u8..6, any::<u8>())).prop_map(move |m| m.filter(|_| on))
}

/// Builds a valid capture from raw steps: forks before a stream's first call, joins at the end (but the
/// mistake's), then, if `tail`, a kernel on `s1` reading every buffer; indices in range.
fn normalize(
    streams: Vec<bool>,
    (mode, tail): (u8, bool),
    raw: Vec<Raw>,
    mistake: Option<(u8, u8)>,
    launches: u32,
) -> CaptureProgram {
    let ns = streams.len() as u32;
    let st = |x: u8| u32::from(x) % ns;
    let buf = |x: u8| u32::from(x) % BUFFERS_PER_DEVICE;
    let pin = |x: u8| u32::from(x) % PINNED_BUFFERS;
    let ev = |x: u8| u32::from(x) % CAPTURE_EVENTS;
    let mut joined = vec![false; ns as usize];
    joined[0] = true;
    let mut recorded = [false; CAPTURE_EVENTS as usize];
    let mut steps = Vec::new();
    let fork = |steps: &mut Vec<CaptureStep>, joined: &mut Vec<bool>, s: u32| {
        if !joined[s as usize] {
            steps.push(CaptureStep::Record {
                event: FORK_EVENT,
                stream: 0,
            });
            steps.push(CaptureStep::Wait {
                stream: s,
                event: FORK_EVENT,
            });
            joined[s as usize] = true;
        }
    };
    for r in raw {
        let step = match r {
            Raw::Launch(s, d, reads, writes) => CaptureStep::Launch {
                stream: st(s),
                duration_ns: d,
                reads: reads.into_iter().map(buf).collect(),
                writes: writes.into_iter().map(buf).collect(),
            },
            Raw::Memset(s, x) => CaptureStep::Memset {
                stream: st(s),
                dst: buf(x),
            },
            Raw::CopyOnDevice(s, x, y) => CaptureStep::CopyOnDevice {
                stream: st(s),
                src: buf(x),
                dst: buf(y),
            },
            Raw::CopyToDevice(s, x, y) => CaptureStep::CopyToDevice {
                stream: st(s),
                src: pin(x),
                dst: buf(y),
            },
            Raw::CopyToHost(s, x, y) => CaptureStep::CopyToHost {
                stream: st(s),
                src: buf(x),
                dst: pin(y),
            },
            Raw::Record(e, s) => CaptureStep::Record {
                event: ev(e),
                stream: st(s),
            },
            Raw::Wait(s, e) => CaptureStep::Wait {
                stream: st(s),
                event: ev(e),
            },
        };
        let s = step.stream();
        match step {
            // A wait on an event recorded in the capture forks the stream into it by itself.
            CaptureStep::Wait { event, .. } if recorded[event as usize] => {
                joined[s as usize] = true
            }
            _ => fork(&mut steps, &mut joined, s),
        }
        if let CaptureStep::Record { event, .. } = step {
            recorded[event as usize] = true;
        }
        steps.push(step);
    }
    let mistake = mistake.map(|(kind, x)| match kind {
        0 => Mistake::SyncStream(st(x)),
        1 => Mistake::QueryStream(st(x)),
        2 => Mistake::SyncDevice,
        3 => Mistake::LegacyLaunch,
        4 => Mistake::QueryEvent(ev(x)),
        _ => Mistake::Unjoined(st(x)),
    });
    for s in 1..ns {
        if joined[s as usize] && mistake != Some(Mistake::Unjoined(s)) {
            steps.push(CaptureStep::Record {
                event: FORK_EVENT,
                stream: s,
            });
            steps.push(CaptureStep::Wait {
                stream: 0,
                event: FORK_EVENT,
            });
        }
    }
    if tail {
        // Work after the joins, as in a fork/join capture: it depends on every joined stream.
        steps.push(CaptureStep::Launch {
            stream: 0,
            duration_ns: 5_000,
            reads: (0..BUFFERS_PER_DEVICE).collect(),
            writes: Vec::new(),
        });
    }
    let mode = match mode % 3 {
        0 => CaptureMode::Global,
        1 => CaptureMode::ThreadLocal,
        _ => CaptureMode::Relaxed,
    };
    CaptureProgram {
        streams,
        mode,
        steps,
        mistake,
        launches,
    }
}

/// Bounds for [`capture_program`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaptureLimits {
    /// Most created streams (the origin included; at least 1).
    pub max_streams: usize,
    /// Most raw steps (forks and joins are added to them).
    pub max_steps: usize,
    /// Longest kernel, in nanoseconds.
    pub max_kernel_ns: u64,
    /// Whether programs may make a [`Mistake`] (40 % of them then do).
    pub mistakes: bool,
}

impl Default for CaptureLimits {
    /// 4 streams, 16 steps, 30 µs kernels, mistakes.
    fn default() -> Self {
        CaptureLimits {
            max_streams: 4,
            max_steps: 16,
            max_kernel_ns: 30_000,
            mistakes: true,
        }
    }
}

/// A strategy for valid [`CaptureProgram`]s within `limits`, 40 % of them with a [`Mistake`] if the limits allow
/// mistakes.
pub fn capture_program(limits: CaptureLimits) -> impl Strategy<Value = CaptureProgram> {
    (
        prop::collection::vec(any::<bool>(), 1..=limits.max_streams.max(1)),
        (any::<u8>(), any::<bool>()),
        prop::collection::vec(raw_step(limits.max_kernel_ns), 0..=limits.max_steps),
        raw_mistake(limits.mistakes),
        1u32..=2,
    )
        .prop_map(|(streams, mode, raw, mistake, launches)| {
            normalize(streams, mode, raw, mistake, launches)
        })
}
