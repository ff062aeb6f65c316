//! The reference model of [`WorldProgram`]s (several processes, host threads and devices; CUDA dialect),
//! sequential in the program's explicit order, written from the README and the docs, not from the simulator:
//!
//! - **Clocks.** Each host thread of each process has its own clock; every call (a `set_device` too) advances
//!   it by 1 µs; a thread's ordinal in its process is the order of its first call (thread 0 does the set-up).
//! - **Start and end** as in `model.rs`; a copy between two buffers of one device costs an on-device copy; of
//!   two devices, a peer-link copy (3 µs + 50 GB/s) if the stream's device has enabled access to the other,
//!   else device→host plus host→device (README, cost model; `docs/semantics/cuda-musa.md` · Peers).
//! - **Default streams.** The legacy default stream of a device is ordered after every earlier operation of the
//!   process's blocking streams of that device — created blocking streams *and every thread's per-thread
//!   default stream* — and they after its earlier operations; non-blocking streams are exempt
//!   (`cuda-musa.md` · per-thread default stream (0x2): "an ordinary blocking stream, one per host thread;
//!   being blocking, it does synchronize with the legacy stream"). A per-thread stream is its thread's own.
//! - **Events.** A wait or synchronize uses the event's latest record at the call (an imported IPC event: its
//!   owner's latest record, whichever process waits); never recorded: a wait is a no-op, a query `Complete`, a
//!   synchronize returns at once.
//! - **Happens-before** as explicit sets of operations (no vector clocks): an operation is after its stream's
//!   previous one, what its thread knew, the record it waits for, its legacy edges; a thread knows what its
//!   synchronizes and complete queries covered, and everything those were after. Threads do not learn from each
//!   other except through the simulator (the token passing is invisible to it).
//! - **Kernel faults** (README "Sticky faults travel along happens-before"; `cuda-musa.md` · Errors that
//!   stick): the faulting kernel and every operation after it are poisoned (their kernel bodies do not run,
//!   except the faulting one's). A synchronize, or a query that finds all it covers complete, whose covered
//!   operations include a poisoned one fails with the fault (`KernelFault { LaunchFailure, device, stream,
//!   "k<step>", "boom" }`) and latches it for its process: every later call of that process (not
//!   `set_device`) fails with it, doing nothing else. Other processes are not affected unless they wait on a
//!   poisoned record.
//! - **Peers.** Enabling an enabled pair fails with `PeerAccess { AlreadyEnabled }`, disabling a disabled one
//!   with `PeerAccess { NotEnabled }` (CUDA 704 / 705).
//! - **Races** as in `model.rs`, per process (processes share no buffer).

use std::collections::{BTreeMap, BTreeSet};

use streamsim::testing::world::{
    WBuf, WEvent, WORLD_EVENTS_PER_DEVICE, WResult, WStream, WorldProgram,
};
use streamsim::testing::{BUFFER_BYTES, BUFFERS_PER_DEVICE};
use streamsim::{
    Accessor, CopyPath, EventId, FaultKind, OpKind, ProcessId, RaceKind, SimError, Status,
    StreamId, StreamKind, TraceEvent, VirtualTime,
};

use super::RaceKey;

mod steps;

const API_CALL: u64 = 1_000;
const LAUNCH_LATENCY: u64 = 2_000;

fn link(latency_ns: u64, gb_per_s: u64, bytes: u64) -> u64 {
    latency_ns + bytes.div_ceil(gb_per_s)
}

fn copy_ns(path: CopyPath) -> u64 {
    let n = BUFFER_BYTES;
    match path {
        CopyPath::OnDevice => link(1_000, 500, n),
        CopyPath::PeerLink => link(3_000, 50, n),
        CopyPath::StagedThroughHost => 2 * link(2_000, 16, n),
        other => unreachable!("world programs do not copy over {other:?}"),
    }
}

/// A stream of a process: created, legacy of a device, or a thread's (by ordinal) per-thread stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Created(u32),
    Legacy(u32),
    PerThread(u32, u32),
}

struct MStream {
    id: StreamId,
    device: u32,
    /// Blocking with respect to the legacy stream (created blocking, or per-thread).
    blocking: bool,
    legacy: bool,
    cursor: u64,
    last: Option<usize>,
    seq: u64,
}

struct MOp {
    kernel_step: Option<usize>,
    before: BTreeSet<usize>,
    poisoned: bool,
    event: TraceEvent,
}

struct MThread {
    clock: u64,
    current: u32,
    ordinal: Option<u32>,
    known: BTreeSet<usize>,
}

struct Access {
    op: usize,
    write: bool,
    before: BTreeSet<usize>,
    who: Accessor,
}

/// What the model predicts for one world program.
#[derive(Debug)]
pub struct WorldExpected {
    /// The trace's operations, sorted as the trace is.
    pub ops: Vec<TraceEvent>,
    /// The blocking host calls: (process, thread ordinal, label, start, end), sorted.
    pub host: Vec<(u32, u32, String, u64, u64)>,
    /// Every step's answer.
    pub results: Vec<WResult>,
    /// The final device synchronizes' answers, per process.
    pub finals: Vec<Vec<WResult>>,
    /// Each host thread's clock at the end (by the program's thread index).
    pub clocks: Vec<Vec<u64>>,
    /// The steps whose kernel body runs.
    pub kernels_ran: Vec<usize>,
    /// The race reports: pair → occurrences.
    pub races: BTreeMap<RaceKey, u64>,
}

struct World<'a> {
    prog: &'a WorldProgram,
    threads: BTreeMap<(u32, u32), MThread>,
    next_ordinal: BTreeMap<u32, u32>,
    streams: BTreeMap<(u32, Key), MStream>,
    /// (owner, device, slot) → latest record.
    events: BTreeMap<(u32, u32, u32), Option<usize>>,
    ops: Vec<MOp>,
    peers: BTreeSet<(u32, u32, u32)>,
    sticky: BTreeMap<u32, SimError>,
    fault: Option<(usize, SimError)>,
    host: Vec<(u32, u32, String, u64, u64)>,
    accesses: BTreeMap<(u32, WBuf), Vec<Access>>,
    races: BTreeMap<RaceKey, u64>,
    /// (process, thread) of the call being modelled.
    at: (u32, u32),
}

/// The id of `e` in process `viewer`: its own events are numbered in creation order; an imported one is the
/// importer's own event, numbered after its created ones in the order of the set-up's opens (by owner, then
/// device; with two processes, one owner).
fn event_id(viewer: u32, devices: u32, e: WEvent) -> EventId {
    let ordinal = if e.owner == viewer {
        1 + e.device * WORLD_EVENTS_PER_DEVICE + e.slot
    } else {
        1 + devices * WORLD_EVENTS_PER_DEVICE + e.device
    };
    EventId {
        process: ProcessId(viewer),
        ordinal,
    }
}

/// Runs the model on `prog`.
pub fn expect_world(prog: &WorldProgram) -> WorldExpected {
    let mut w = World {
        prog,
        threads: BTreeMap::new(),
        next_ordinal: BTreeMap::new(),
        streams: BTreeMap::new(),
        events: BTreeMap::new(),
        ops: Vec::new(),
        peers: BTreeSet::new(),
        sticky: BTreeMap::new(),
        fault: None,
        host: Vec::new(),
        accesses: BTreeMap::new(),
        races: BTreeMap::new(),
        at: (0, 0),
    };
    let np = prog.processes.len() as u32;
    for p in 0..np {
        w.setup(p);
    }
    for q in 0..np {
        for owner in (0..np).filter(|&o| o != q) {
            for _device in 0..prog.devices {
                w.at = (owner, 0);
                w.call();
                w.at = (q, 0);
                w.call();
            }
        }
    }
    let results = prog
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            w.at = (s.process, s.thread);
            w.step(i, &s.op)
        })
        .collect();
    let finals = (0..np)
        .map(|p| {
            w.at = (p, 0);
            (0..prog.devices)
                .map(|d| {
                    w.device(d);
                    w.checked(|w| w.device_synchronize(d))
                })
                .collect()
        })
        .collect();
    let mut ops: Vec<TraceEvent> = w.ops.iter().map(|o| o.event.clone()).collect();
    ops.sort_by_key(|e| (e.start, e.stream, e.seq));
    let mut host = w.host.clone();
    host.sort();
    let clocks = prog
        .processes
        .iter()
        .enumerate()
        .map(|(p, s)| {
            (0..s.threads)
                .map(|t| w.threads.get(&(p as u32, t)).map_or(0, |th| th.clock))
                .collect()
        })
        .collect();
    let faulting = w.fault.as_ref().map(|(f, _)| *f);
    let kernels_ran = w
        .ops
        .iter()
        .enumerate()
        .filter(|(i, o)| !o.poisoned || Some(*i) == faulting)
        .filter_map(|(_, o)| o.kernel_step)
        .collect();
    WorldExpected {
        ops,
        host,
        results,
        finals,
        clocks,
        kernels_ran,
        races: w.races,
    }
}

impl World<'_> {
    fn thread(&mut self) -> &mut MThread {
        let at = self.at;
        let next = &mut self.next_ordinal;
        self.threads.entry(at).or_insert_with(|| MThread {
            clock: 0,
            current: 0,
            ordinal: None,
            known: BTreeSet::new(),
        });
        let th = self.threads.get_mut(&at).expect("made above");
        if th.ordinal.is_none() {
            let n = next.entry(at.0).or_insert(0);
            th.ordinal = Some(*n);
            *n += 1;
        }
        th
    }

    fn ordinal(&mut self) -> u32 {
        self.thread().ordinal.expect("given at the first call")
    }

    /// A call: the clock advances; the call acts at the new time.
    fn call(&mut self) -> u64 {
        let th = self.thread();
        th.clock += API_CALL;
        th.clock
    }

    fn device(&mut self, d: u32) {
        if self.thread().current != d {
            self.call();
            self.thread().current = d;
        }
    }

    /// A call that the process's sticky error refuses: the clock advances, nothing else happens.
    fn checked(&mut self, f: impl FnOnce(&mut Self) -> WResult) -> WResult {
        if let Some(e) = self.sticky.get(&self.at.0).cloned() {
            self.call();
            return Err(e);
        }
        f(self)
    }

    fn setup(&mut self, p: u32) {
        self.at = (p, 0);
        let spec = &self.prog.processes[p as usize];
        for &(d, peer) in &spec.peers {
            self.device(d);
            self.call();
            self.peers.insert((p, d, peer));
        }
        for (n, s) in spec.streams.iter().enumerate() {
            self.device(s.device);
            self.call();
            self.streams.insert(
                (p, Key::Created(n as u32)),
                MStream {
                    id: StreamId {
                        process: ProcessId(p),
                        device: s.device,
                        kind: StreamKind::Created(n as u32 + 1),
                    },
                    device: s.device,
                    blocking: !s.non_blocking,
                    legacy: false,
                    cursor: 0,
                    last: None,
                    seq: 0,
                },
            );
        }
        for d in 0..self.prog.devices {
            self.device(d);
            for slot in 0..WORLD_EVENTS_PER_DEVICE {
                self.call();
                self.events.insert((p, d, slot), None);
            }
        }
        for d in 0..self.prog.devices {
            self.device(d);
            for _ in 0..BUFFERS_PER_DEVICE {
                self.call();
            }
        }
    }

    /// The stream `s` names for the calling thread (made current first; legacy and per-thread streams exist
    /// from their first use).
    fn stream(&mut self, s: WStream) -> (u32, Key) {
        let p = self.at.0;
        let device = self.prog.device_of(p, s);
        self.device(device);
        let ordinal = self.ordinal();
        let (key, kind) = match s {
            WStream::Created(n) => return (p, Key::Created(n)),
            WStream::Legacy(d) => (Key::Legacy(d), StreamKind::Legacy),
            WStream::PerThread(d) => (Key::PerThread(ordinal, d), StreamKind::PerThread(ordinal)),
        };
        self.streams.entry((p, key)).or_insert_with(|| MStream {
            id: StreamId {
                process: ProcessId(p),
                device,
                kind,
            },
            device,
            blocking: true,
            legacy: matches!(key, Key::Legacy(_)),
            cursor: 0,
            last: None,
            seq: 0,
        });
        (p, key)
    }

    fn end(&self, op: usize) -> u64 {
        self.ops[op].event.end.0
    }

    /// The legacy edges of a new operation on `key`.
    fn legacy_deps(&self, key: (u32, Key)) -> Vec<usize> {
        let s = &self.streams[&key];
        if s.legacy {
            self.streams
                .iter()
                .filter(|((p, _), t)| {
                    *p == key.0 && t.device == s.device && t.blocking && !t.legacy
                })
                .filter_map(|(_, t)| t.last)
                .collect()
        } else if s.blocking {
            self.streams
                .get(&(key.0, Key::Legacy(s.device)))
                .and_then(|l| l.last)
                .into_iter()
                .collect()
        } else {
            Vec::new()
        }
    }

    #[allow(clippy::too_many_arguments, reason = "one operation, spelled out")]
    fn enqueue(
        &mut self,
        key: (u32, Key),
        now: u64,
        cost: u64,
        waits_for: Option<usize>,
        kind: OpKind,
        label: String,
        accesses: &[(WBuf, bool)],
        kernel_step: Option<usize>,
        faults: bool,
    ) -> usize {
        let mut deps: Vec<usize> = waits_for.into_iter().collect();
        deps.extend(self.legacy_deps(key));
        let s = &self.streams[&key];
        let start = deps
            .iter()
            .map(|&d| self.end(d))
            .fold(s.cursor.max(now + LAUNCH_LATENCY), u64::max);
        let end = start + cost;
        let mut before = self.threads[&self.at].known.clone();
        for d in s.last.iter().chain(&deps) {
            before.insert(*d);
            before.extend(self.ops[*d].before.iter().copied());
        }
        let idx = self.ops.len();
        let poisoned = faults || self.fault.as_ref().is_some_and(|(f, _)| before.contains(f));
        let who = Accessor::Op {
            stream: s.id,
            stream_name: None,
            kind: match kind {
                OpKind::Kernel => "kernel",
                OpKind::Memcpy { .. } => "memcpy",
                _ => "",
            },
            label: label.clone(),
        };
        let event = TraceEvent {
            stream: s.id,
            seq: s.seq + 1,
            kind,
            label: label.into(),
            start: VirtualTime(start),
            end: VirtualTime(end),
        };
        if faults {
            let e = SimError::KernelFault {
                kind: FaultKind::LaunchFailure,
                device: s.device,
                stream: s.id,
                label: event.label.to_string(),
                message: "boom".into(),
            };
            self.fault = Some((idx, e));
        }
        let s = self.streams.get_mut(&key).expect("stream exists");
        s.cursor = end;
        s.last = Some(idx);
        s.seq += 1;
        for &(buf, write) in accesses {
            self.access(idx, &before, (key.0, buf), write, who.clone());
        }
        self.ops.push(MOp {
            kernel_step,
            before,
            poisoned,
            event,
        });
        idx
    }

    /// An access by operation `op` (as in `model.rs`: every unordered conflicting pair whose earlier side
    /// had not been superseded).
    fn access(
        &mut self,
        op: usize,
        before: &BTreeSet<usize>,
        buf: (u32, WBuf),
        write: bool,
        who: Accessor,
    ) {
        let list = self.accesses.entry(buf).or_default();
        for (j, y) in list.iter().enumerate() {
            if y.op == op || !(write || y.write) || before.contains(&y.op) {
                continue;
            }
            let superseded = list[j + 1..]
                .iter()
                .any(|z| (z.op == y.op || z.before.contains(&y.op)) && (z.write || !y.write));
            if !superseded {
                let key = (
                    RaceKind::Data,
                    (y.who.clone(), y.write),
                    (who.clone(), write),
                );
                *self.races.entry(key).or_default() += 1;
            }
        }
        list.push(Access {
            op,
            write,
            before: before.clone(),
            who,
        });
    }

    /// The host learns that `op` and everything before it are complete.
    fn acquire(&mut self, op: usize) {
        let before = self.ops[op].before.clone();
        let th = self.threads.get_mut(&self.at).expect("the caller exists");
        th.known.insert(op);
        th.known.extend(before);
    }

    /// Observing `ops` (all complete): the fault among them, latched for the process.
    fn observe(&mut self, ops: &[usize]) -> WResult {
        if ops.iter().any(|&o| self.ops[o].poisoned) {
            let e = self
                .fault
                .as_ref()
                .expect("a poisoned op has a fault")
                .1
                .clone();
            self.sticky.insert(self.at.0, e.clone());
            return Err(e);
        }
        Ok(None)
    }

    /// A blocking call at `now` waiting for `ops`.
    fn block(&mut self, now: u64, ops: &[usize], label: String) -> WResult {
        for &op in ops {
            let end = self.end(op);
            let th = self.thread();
            th.clock = th.clock.max(end);
            self.acquire(op);
        }
        let (p, ordinal, clock) = (self.at.0, self.ordinal(), self.thread().clock);
        self.host.push((p, ordinal, label, now, clock));
        self.observe(ops)
    }

    fn query_all(&mut self, ops: &[usize]) -> WResult {
        let now = self.call();
        if ops.iter().any(|&op| self.end(op) > now) {
            return Ok(Some(Status::NotReady));
        }
        for &op in ops {
            self.acquire(op);
        }
        self.observe(ops).map(|_| Some(Status::Complete))
    }

    /// What a synchronize or query of `key` covers (a legacy stream: also its device's blocking streams).
    fn covered(&self, key: (u32, Key)) -> Vec<usize> {
        let s = &self.streams[&key];
        let mut ops: Vec<usize> = s.last.into_iter().collect();
        if s.legacy {
            ops.extend(
                self.streams
                    .iter()
                    .filter(|((p, _), t)| {
                        *p == key.0 && t.device == s.device && t.blocking && !t.legacy
                    })
                    .filter_map(|(_, t)| t.last),
            );
        }
        ops
    }

    fn device_synchronize(&mut self, d: u32) -> WResult {
        let now = self.call();
        let p = self.at.0;
        let tails: Vec<usize> = self
            .streams
            .iter()
            .filter(|((q, _), s)| *q == p && s.device == d)
            .filter_map(|(_, s)| s.last)
            .collect();
        self.block(now, &tails, format!("device_synchronize({d})"))
    }

    fn latest(&self, e: WEvent) -> Option<usize> {
        self.events[&(e.owner, e.device, e.slot)]
    }
}

/// The CUDA code of an error the model predicts, from the truth table (not the facade's mapping):
/// `/work/shared/reference/cuda-musa.md`.
pub fn expected_cuda_code(e: &SimError) -> i64 {
    match e {
        // Errors that stick: a kernel fault is 719 cudaErrorLaunchFailure (700 for an illegal address).
        SimError::KernelFault { .. } => 719,
        // Peers: enabling twice 704 cudaErrorPeerAccessAlreadyEnabled; disabling when not enabled 705
        // cudaErrorPeerAccessNotEnabled.
        SimError::PeerAccess {
            problem: streamsim::PeerProblem::AlreadyEnabled,
            ..
        } => 704,
        SimError::PeerAccess {
            problem: streamsim::PeerProblem::NotEnabled,
            ..
        } => 705,
        other => panic!("the model predicts no {other:?}"),
    }
}
