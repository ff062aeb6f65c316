//! Random CUDA-dialect programs of several simulated processes, several host threads and several devices, for
//! property tests (cargo feature `proptest`): [`world_program`] generates them, [`WorldProgram::run`]
//! ([`run`](mod@run)) runs one on a machine with the public API only.
//!
//! What a program has: 1–2 processes of one machine, each with 1–2 host threads; 1–2 devices; per process,
//! created streams (blocking or non-blocking), peer access enabled between the devices at set-up, two events
//! per device (slot 0 an ordinary one, slot 1 `INTERPROCESS | DISABLE_TIMING`, whose IPC handle every other
//! process opens at set-up) and two buffers per device. The steps are kernels (declared reads and writes of
//! the process's buffers; at most one kernel of a program faults), copies between any two device buffers of
//! the process (on one device, over a peer link, or staged through the host), records, stream waits (on the
//! process's own events or on another process's imported IPC events), stream / event / device synchronizes,
//! stream and event queries, and enabling / disabling peer access (repeats included: their answers are
//! checked). A stream is a created one, a device's legacy default stream or the calling thread's per-thread
//! default stream (`Stream::PER_THREAD`).
//!
//! **Program order is explicit**: the steps form one list, each tagged with its process and thread; the
//! runner gives each host thread its own OS thread and hands a token from step to step, so the simulator sees
//! the calls in exactly the list's order (the order a host barrier after every call would give), and a
//! sequential model can follow it. Each host thread still has its own virtual clock, as the simulator defines
//! it; nothing orders the threads' clocks or their happens-before except the simulator's own edges
//! (synchronizes, events).

pub mod run;

pub use run::{WResult, WorldOutcome};

use proptest::prelude::*;

/// Events each process creates on each device: slot 0 an ordinary event, slot [`IPC_SLOT`] an interprocess one.
pub const WORLD_EVENTS_PER_DEVICE: u32 = 2;
/// The slot of the interprocess event (`INTERPROCESS | DISABLE_TIMING`) of each process and device.
pub const IPC_SLOT: u32 = 1;

/// A stream of a world program, as the calling thread names it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WStream {
    /// The process's created stream `n` (index into [`WProcess::streams`]), printed `s<n + 1>`.
    Created(u32),
    /// The legacy default stream of a device.
    Legacy(u32),
    /// The calling thread's per-thread default stream on a device.
    PerThread(u32),
}

impl std::fmt::Debug for WStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WStream::Created(n) => write!(f, "s{}", n + 1),
            WStream::Legacy(d) => write!(f, "legacy@d{d}"),
            WStream::PerThread(d) => write!(f, "per-thread@d{d}"),
        }
    }
}

/// An event: slot `slot` of device `device` created by process `owner` (`p0.d1.e1`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WEvent {
    /// The process that created it (another process uses its imported IPC handle).
    pub owner: u32,
    /// The device it was created on.
    pub device: u32,
    /// Which of the [`WORLD_EVENTS_PER_DEVICE`] events.
    pub slot: u32,
}

impl std::fmt::Debug for WEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "p{}.d{}.e{}", self.owner, self.device, self.slot)
    }
}

/// A device buffer of the calling process (`d0.b1`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WBuf {
    /// Its device.
    pub device: u32,
    /// Which of the device's [`super::BUFFERS_PER_DEVICE`] buffers.
    pub slot: u32,
}

impl std::fmt::Debug for WBuf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "d{}.b{}", self.device, self.slot)
    }
}

/// What one step does.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum WOp {
    /// A kernel named `k<step index>`, `duration_ns` long, reading and writing whole buffers of its stream's
    /// device; if `fault`, its body fails (`"boom"`).
    Launch {
        /// Where.
        stream: WStream,
        /// Virtual duration.
        duration_ns: u64,
        /// Buffers read.
        reads: Vec<WBuf>,
        /// Buffers written.
        writes: Vec<WBuf>,
        /// Whether its body fails.
        fault: bool,
    },
    /// `memcpy_async` of a whole buffer to another (any devices of the process).
    Copy {
        /// Where.
        stream: WStream,
        /// Read.
        src: WBuf,
        /// Written.
        dst: WBuf,
    },
    /// `record_event` of the process's event `slot` of the stream's device.
    Record {
        /// Which slot.
        slot: u32,
        /// Where.
        stream: WStream,
    },
    /// `stream_wait_event` (own event, or another process's imported one).
    Wait {
        /// Who waits.
        stream: WStream,
        /// For what.
        event: WEvent,
    },
    /// `stream_synchronize`.
    StreamSynchronize(WStream),
    /// `event_synchronize`.
    EventSynchronize(WEvent),
    /// `device_synchronize` (the device made current first).
    DeviceSynchronize(u32),
    /// `stream_query`.
    StreamQuery(WStream),
    /// `event_query`.
    EventQuery(WEvent),
    /// `enable_peer_access(peer)` with `device` current.
    EnablePeer {
        /// The device gaining access.
        device: u32,
        /// The device whose memory it reaches.
        peer: u32,
    },
    /// `disable_peer_access(peer)` with `device` current.
    DisablePeer {
        /// The device losing access.
        device: u32,
        /// The peer.
        peer: u32,
    },
}

impl std::fmt::Debug for WOp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WOp::Launch {
                stream,
                duration_ns,
                reads,
                writes,
                fault,
            } => write!(
                f,
                "launch on {stream:?}, {duration_ns} ns, reads {reads:?}, writes {writes:?}{}",
                if *fault { ", FAULTS" } else { "" }
            ),
            WOp::Copy { stream, src, dst } => {
                write!(f, "memcpy_async {src:?} -> {dst:?} on {stream:?}")
            }
            WOp::Record { slot, stream } => write!(f, "record e{slot} on {stream:?}"),
            WOp::Wait { stream, event } => write!(f, "{stream:?} waits {event:?}"),
            WOp::StreamSynchronize(s) => write!(f, "stream_synchronize {s:?}"),
            WOp::EventSynchronize(e) => write!(f, "event_synchronize {e:?}"),
            WOp::DeviceSynchronize(d) => write!(f, "device_synchronize d{d}"),
            WOp::StreamQuery(s) => write!(f, "stream_query {s:?}"),
            WOp::EventQuery(e) => write!(f, "event_query {e:?}"),
            WOp::EnablePeer { device, peer } => write!(f, "d{device}: enable_peer_access d{peer}"),
            WOp::DisablePeer { device, peer } => {
                write!(f, "d{device}: disable_peer_access d{peer}")
            }
        }
    }
}

/// One step: which process and host thread calls, and what.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct WStep {
    /// The process.
    pub process: u32,
    /// The host thread of the process (0 is the one that did the set-up).
    pub thread: u32,
    /// The call.
    pub op: WOp,
}

/// A created stream of a world program.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct WStreamSpec {
    /// Its device.
    pub device: u32,
    /// Created with `StreamFlags::NON_BLOCKING`.
    pub non_blocking: bool,
}

/// A process of a world program.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct WProcess {
    /// How many host threads it uses (at least 1).
    pub threads: u32,
    /// Its created streams, in creation order.
    pub streams: Vec<WStreamSpec>,
    /// Peer access enabled at set-up: (device, peer), in order.
    pub peers: Vec<(u32, u32)>,
}

/// A program of several processes, threads and devices.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct WorldProgram {
    /// Devices of the machine.
    pub devices: u32,
    /// The processes, in creation order (`ProcessId(0)`, `ProcessId(1)`).
    pub processes: Vec<WProcess>,
    /// The steps, in the order they are called.
    pub steps: Vec<WStep>,
}

impl std::fmt::Debug for WorldProgram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "WorldProgram {{")?;
        writeln!(f, "  devices: {}", self.devices)?;
        for (i, p) in self.processes.iter().enumerate() {
            writeln!(f, "  p{i}: {} thread(s), peers {:?}", p.threads, p.peers)?;
            for (j, s) in p.streams.iter().enumerate() {
                let kind = if s.non_blocking {
                    "non-blocking"
                } else {
                    "blocking"
                };
                writeln!(f, "    s{}: d{} {kind}", j + 1, s.device)?;
            }
        }
        for (i, s) in self.steps.iter().enumerate() {
            writeln!(f, "  {i:>3}: p{}.t{}: {:?}", s.process, s.thread, s.op)?;
        }
        write!(f, "}}")
    }
}

impl WProcess {
    /// The device of stream `s` of this process.
    pub fn device_of_stream(&self, s: WStream) -> u32 {
        match s {
            WStream::Created(n) => self.streams[n as usize].device,
            WStream::Legacy(d) | WStream::PerThread(d) => d,
        }
    }
}

impl WorldProgram {
    /// The device of stream `s` of process `p`.
    pub fn device_of(&self, p: u32, s: WStream) -> u32 {
        match s {
            WStream::Created(n) => self.processes[p as usize].streams[n as usize].device,
            WStream::Legacy(d) | WStream::PerThread(d) => d,
        }
    }

    /// How many kernels it launches.
    pub fn kernel_count(&self) -> usize {
        self.steps
            .iter()
            .filter(|s| matches!(s.op, WOp::Launch { .. }))
            .count()
    }
}

/// Bounds for [`world_program`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorldLimits {
    /// Most processes (1 or 2).
    pub max_processes: u32,
    /// Most host threads per process.
    pub max_threads: u32,
    /// Most devices.
    pub max_devices: u32,
    /// Most created streams per process.
    pub max_streams: usize,
    /// Most steps.
    pub max_steps: usize,
    /// Longest kernel, in nanoseconds.
    pub max_kernel_ns: u64,
}

impl Default for WorldLimits {
    /// 2 processes, 2 threads each, 2 devices, 3 streams per process, 24 steps, 30 µs kernels.
    fn default() -> Self {
        WorldLimits {
            max_processes: 2,
            max_threads: 2,
            max_devices: 2,
            max_streams: 3,
            max_steps: 24,
            max_kernel_ns: 30_000,
        }
    }
}

#[derive(Debug, Clone)]
enum RawOp {
    Launch(u8, u64, Vec<u8>, Vec<u8>, bool),
    Copy(u8, u8, u8),
    Record(u8, u8),
    Wait(u8, u8),
    StreamSync(u8),
    EventSync(u8),
    DeviceSync(u8),
    StreamQuery(u8),
    EventQuery(u8),
    Peer(u8, bool),
    /// Three steps: the process (the one that faulted, if one did) records its interprocess event on the stream
    /// of its faulting launch if it made one, else of its latest launch, then the other process waits for it on a stream and synchronizes that stream.
    Relay(u8, u8),
}

/// A stream process `spec` may name, from a raw byte: 1 in 8 a legacy stream, 1 in 8 a per-thread one.
fn pick_stream(spec: &WProcess, devices: u32, b: u8) -> WStream {
    match b % 8 {
        0 => WStream::Legacy(u32::from(b / 8) % devices),
        1 => WStream::PerThread(u32::from(b / 8) % devices),
        _ => WStream::Created(u32::from(b) % spec.streams.len() as u32),
    }
}

fn raw_op(max_kernel_ns: u64) -> impl Strategy<Value = RawOp> {
    let byte = any::<u8>;
    let acc = || prop::collection::vec(any::<u8>(), 0..=2);
    prop_oneof![
        8 => (byte(), 0..=max_kernel_ns, acc(), acc(), prop::bool::weighted(0.12))
            .prop_map(|(s, d, r, w, f)| RawOp::Launch(s, d, r, w, f)),
        3 => (byte(), byte(), byte()).prop_map(|(s, a, b)| RawOp::Copy(s, a, b)),
        5 => (byte(), byte()).prop_map(|(e, s)| RawOp::Record(e, s)),
        5 => (byte(), byte()).prop_map(|(s, e)| RawOp::Wait(s, e)),
        2 => byte().prop_map(RawOp::StreamSync),
        1 => byte().prop_map(RawOp::EventSync),
        1 => byte().prop_map(RawOp::DeviceSync),
        2 => byte().prop_map(RawOp::StreamQuery),
        2 => byte().prop_map(RawOp::EventQuery),
        1 => (byte(), any::<bool>()).prop_map(|(d, on)| RawOp::Peer(d, on)),
        3 => (byte(), byte()).prop_map(|(s, t)| RawOp::Relay(s, t)),
    ]
}

type RawProcess = (u8, Vec<(u8, bool)>, Vec<bool>);

/// Maps raw indices into range (so every shrunk program is still valid).
fn normalize(devices: u32, procs: Vec<RawProcess>, raw: Vec<(u8, u8, RawOp)>) -> WorldProgram {
    let np = procs.len() as u32;
    let processes: Vec<WProcess> = procs
        .into_iter()
        .map(|(threads, streams, peers)| WProcess {
            threads: u32::from(threads),
            streams: streams
                .into_iter()
                .map(|(d, non_blocking)| WStreamSpec {
                    device: u32::from(d) % devices,
                    non_blocking,
                })
                .collect(),
            peers: if devices < 2 {
                Vec::new()
            } else {
                [(0, 1), (1, 0)]
                    .into_iter()
                    .zip(peers)
                    .filter_map(|(pair, on)| on.then_some(pair))
                    .collect()
            },
        })
        .collect();
    let mut faulted = false;
    let mut last_launch: Vec<Option<(u32, WStream)>> = vec![None; np as usize];
    let mut faulted_in = vec![false; np as usize];
    let mut steps = Vec::new();
    for (p, t, op) in raw {
        let process = u32::from(p) % np;
        let spec = &processes[process as usize];
        let thread = u32::from(t) % spec.threads;
        let stream = |b: u8| pick_stream(spec, devices, b);
        let dev_of = |s: WStream| match s {
            WStream::Created(n) => spec.streams[n as usize].device,
            WStream::Legacy(d) | WStream::PerThread(d) => d,
        };
        let nb = devices * super::BUFFERS_PER_DEVICE;
        let buf_any = |b: u8| {
            let b = u32::from(b) % nb;
            WBuf {
                device: b / super::BUFFERS_PER_DEVICE,
                slot: b % super::BUFFERS_PER_DEVICE,
            }
        };
        let buf_on = |d: u32, b: u8| WBuf {
            device: d,
            slot: u32::from(b) % super::BUFFERS_PER_DEVICE,
        };
        // An event the process may name: its own (either slot) or another's interprocess one.
        let event = |b: u8| {
            let n = u32::from(b);
            let owner = (n / 4) % np;
            let device = (n / 2) % devices;
            let slot = if owner == process {
                n % WORLD_EVENTS_PER_DEVICE
            } else {
                IPC_SLOT
            };
            WEvent {
                owner,
                device,
                slot,
            }
        };
        let op = match op {
            RawOp::Relay(s, t) => {
                // From the process that faulted, if one did.
                let process = (0..np).find(|&q| faulted_in[q as usize]).unwrap_or(process);
                let dev_of = |s: WStream| processes[process as usize].device_of_stream(s);
                let Some((lt, ls)) = last_launch[process as usize].filter(|_| np == 2) else {
                    continue;
                };
                let other = 1 - process;
                let ospec = &processes[other as usize];
                let ostream = pick_stream(ospec, devices, s);
                let othread = u32::from(t) % ospec.threads;
                let event = WEvent {
                    owner: process,
                    device: dev_of(ls),
                    slot: IPC_SLOT,
                };
                steps.push(WStep {
                    process,
                    thread: lt,
                    op: WOp::Record {
                        slot: IPC_SLOT,
                        stream: ls,
                    },
                });
                for op in [
                    WOp::Wait {
                        stream: ostream,
                        event,
                    },
                    WOp::StreamSynchronize(ostream),
                ] {
                    steps.push(WStep {
                        process: other,
                        thread: othread,
                        op,
                    });
                }
                continue;
            }
            RawOp::Launch(s, d, r, w, f) => {
                let s = stream(s);
                if !faulted_in[process as usize] {
                    last_launch[process as usize] = Some((thread, s));
                }
                let dev = dev_of(s);
                let fault = f && !faulted;
                faulted |= fault;
                faulted_in[process as usize] |= fault;
                WOp::Launch {
                    stream: s,
                    duration_ns: d,
                    reads: r.into_iter().map(|b| buf_on(dev, b)).collect(),
                    writes: w.into_iter().map(|b| buf_on(dev, b)).collect(),
                    fault,
                }
            }
            RawOp::Copy(s, a, b) => WOp::Copy {
                stream: stream(s),
                src: buf_any(a),
                dst: buf_any(b),
            },
            RawOp::Record(e, s) => WOp::Record {
                slot: u32::from(e) % WORLD_EVENTS_PER_DEVICE,
                stream: stream(s),
            },
            RawOp::Wait(s, e) => WOp::Wait {
                stream: stream(s),
                event: event(e),
            },
            RawOp::StreamSync(s) => WOp::StreamSynchronize(stream(s)),
            RawOp::EventSync(e) => WOp::EventSynchronize(event(e)),
            RawOp::DeviceSync(d) => WOp::DeviceSynchronize(u32::from(d) % devices),
            RawOp::StreamQuery(s) => WOp::StreamQuery(stream(s)),
            RawOp::EventQuery(e) => WOp::EventQuery(event(e)),
            RawOp::Peer(d, on) if devices >= 2 => {
                let device = u32::from(d) % 2;
                let peer = 1 - device;
                if on {
                    WOp::EnablePeer { device, peer }
                } else {
                    WOp::DisablePeer { device, peer }
                }
            }
            RawOp::Peer(d, _) => WOp::DeviceSynchronize(u32::from(d) % devices),
        };
        steps.push(WStep {
            process,
            thread,
            op,
        });
    }
    WorldProgram {
        devices,
        processes,
        steps,
    }
}

/// A strategy for valid [`WorldProgram`]s within `limits`. Shrinking removes steps, processes, threads,
/// streams and devices, clears faults and shortens kernels.
pub fn world_program(limits: WorldLimits) -> impl Strategy<Value = WorldProgram> {
    let max_devices = limits.max_devices.max(1);
    let max_threads = limits.max_threads.clamp(1, 255) as u8;
    let process = (
        1..=max_threads,
        prop::collection::vec((any::<u8>(), any::<bool>()), 1..=limits.max_streams.max(1)),
        prop::collection::vec(any::<bool>(), 2),
    );
    (
        1..=max_devices,
        prop::collection::vec(process, 1..=limits.max_processes.clamp(1, 2) as usize),
        prop::collection::vec(
            (any::<u8>(), any::<u8>(), raw_op(limits.max_kernel_ns)),
            0..=limits.max_steps,
        ),
    )
        .prop_map(|(devices, procs, raw)| normalize(devices, procs, raw))
}
