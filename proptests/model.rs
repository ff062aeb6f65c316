//! The reference model: what a [`Program`] must produce, computed sequentially from the rules written in the
//! README ("Virtual time and the cost model", the legacy default stream, events) and in DESIGN.md
//! ("Happens-before and races"), without threads and without the simulator's code: its own cost formulas,
//! its own scheduling, and happens-before as explicit sets of the operations and host accesses known to be
//! complete (no vector clocks).
//!
//! Happens-before, as the model states it:
//! - an operation is after the previous operation of its stream;
//! - an operation is after everything its host thread knew when it was enqueued (earlier host accesses and
//!   everything earlier synchronizes and completed queries covered);
//! - a stream wait is after the record it captured (the event's latest record at the call);
//! - an operation on a device's legacy default stream is after every earlier operation of that device's
//!   blocking streams, and an operation on a blocking stream is after every earlier legacy-stream operation of
//!   its device;
//! - after a synchronize, or a query that answered `Complete`, the host knows everything the covered
//!   operation(s) were after, and them; a synchronize or query of a legacy default stream covers its last
//!   operation and the last operation of each of its device's blocking streams (reference/cuda-musa.md ·
//!   StreamQuery / StreamSynchronize · the NULL (legacy) stream).
//!
//! Stream-ordered memory (README "Stream-ordered memory", docs/semantics/stream-ordered-memory.md): a device's
//! default pool reserves one 2 MiB chunk at its first allocation (all allocations are 4 KiB: the chunk is 512
//! cells, and the programs never need a second one); an allocation takes the smallest free range it may
//! take, then the lowest address, where a free range is a run of cells any allocation may take (merged) or one
//! cell freed by a `free_async` that still waits on it. A freed cell may be taken by an allocation on the
//! freeing stream, by one whose stream or host thread is after the free (follow event dependencies), or
//! once the free has ended in virtual time at the call (opportunistic); a stream, device or (recorded) event
//! synchronize makes every freed cell the host is after available to anyone. The lifetime checks: an access
//! (or the free) not after the allocation is a use before allocation; every access after the free in
//! program order, and at the free every remembered access it is not after, is a use after free. A kernel
//! using a freed slot's pointer touches whatever allocation now holds that cell.
//!
//! Races: two accesses to the same buffer, at least one a write, neither after the other. The simulator
//! reports, for each access, the races with the accesses it still remembers: "the last write and the reads
//! since" (DESIGN.md). The model computes both: every racing pair (`full_races`), and the pairs whose earlier
//! access had not been superseded by a later access that was after it and covered it (a write supersedes
//! anything; a read supersedes only reads) when the racing access came (`races`).

pub mod acl;
pub mod capture;
pub mod world;

use std::collections::{BTreeMap, BTreeSet};

use streamsim::testing::{
    Answer, BUFFER_BYTES, BUFFERS_PER_DEVICE, BufRef, EVENTS_PER_DEVICE, EventRef, MAX_POLLS,
    PINNED_BUFFERS, PinnedRef, PoolRef, Program, Step, StreamRef,
};
use streamsim::{
    Accessor, CopyPath, EventId, OpKind, ProcessId, RaceKind, Status, StreamId, StreamKind,
    TraceEvent, VirtualTime,
};

/// README defaults: every call advances the host clock by 1 µs; an operation starts no earlier than 2 µs
/// after its call.
const API_CALL: u64 = 1_000;
const LAUNCH_LATENCY: u64 = 2_000;
/// README cost model: `pool_alloc`, `pool_free`.
const POOL_ALLOC: u64 = 1_000;
const POOL_FREE: u64 = 1_000;
/// A pool's chunk (2 MiB) in cells of `BUFFER_BYTES`.
const CELLS: usize = (2 << 20) / BUFFER_BYTES as usize;

/// `latency + bytes / bandwidth`, rounded up to a nanosecond; GB/s = 10^9 bytes per second.
fn link(latency_ns: u64, gb_per_s: u64, bytes: u64) -> u64 {
    latency_ns + bytes.div_ceil(gb_per_s)
}

/// README table: host↔device 2 µs + 16 GB/s, on device (and memset) 1 µs + 500 GB/s; between devices without
/// peer access, device→host then host→device.
fn copy_ns(path: CopyPath, bytes: u64) -> u64 {
    match path {
        CopyPath::HostToDevice | CopyPath::DeviceToHost => link(2_000, 16, bytes),
        CopyPath::OnDevice => link(1_000, 500, bytes),
        CopyPath::StagedThroughHost => 2 * link(2_000, 16, bytes),
        other => unreachable!("programs do not copy over {other:?}"),
    }
}

/// Something that happens: an operation on a stream, or a host access to pinned memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Node {
    Op(usize),
    Host(usize),
}

/// A buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Buffer {
    Device(BufRef),
    Pinned(PinnedRef),
    /// Stream-ordered allocation number `n`.
    Pooled(usize),
}

/// One side of a race as the simulator names it: who and whether it wrote.
pub type Side = (Accessor, bool);
/// A report's kind and its pair (earlier, later) as the simulator names them.
pub type RaceKey = (RaceKind, Side, Side);

/// A cell of a pool's chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cell {
    Live,
    /// Free: waiting on this free operation (`None`: any allocation may take it).
    Free(Option<usize>),
}

/// A stream-ordered allocation.
struct Pooled {
    device: u32,
    cell: usize,
    alloc: usize,
    freed: Option<usize>,
}

struct MStream {
    id: StreamId,
    device: u32,
    blocking: bool,
    legacy: bool,
    cursor: u64,
    last: Option<usize>,
    seq: u64,
}

struct MOp {
    kernel_step: Option<usize>,
    before: BTreeSet<Node>,
    event: TraceEvent,
}

struct Access {
    node: Node,
    write: bool,
    before: BTreeSet<Node>,
    who: Accessor,
}

/// Everything the model predicts for one program.
#[derive(Debug)]
pub struct Expected {
    /// The trace's operations, in the trace's order (virtual start, stream, position).
    pub ops: Vec<TraceEvent>,
    /// The blocking host calls: (label, start ns, end ns).
    pub host: Vec<(String, u64, u64)>,
    /// The query answers.
    pub answers: Vec<Answer>,
    /// What the detector reports: each racing pair (as named in reports) and how many times.
    pub races: BTreeMap<RaceKey, u64>,
    /// Every unordered conflicting pair (a superset of `races`).
    pub full_races: BTreeMap<RaceKey, u64>,
    /// The accesses (numbered in program order) that race with an earlier one: among all pairs, and among
    /// the reported pairs. Equal by the detector's design: an access that races is reported at least once.
    pub racing_accesses: (BTreeSet<usize>, BTreeSet<usize>),
    /// For the kernel launched by each step: the steps of the kernels it is after.
    pub kernel_after: BTreeMap<usize, BTreeSet<usize>>,
    /// For each step: the steps of the kernels the host knows to be complete when it returns.
    pub known_after_step: Vec<BTreeSet<usize>>,
    /// The host clock at the end (after the final device synchronizes).
    pub end: u64,
    /// How the program's stream-ordered allocations found their memory.
    pub pool: PoolStats,
    /// Where each `malloc_async` step's memory is: (step, device, cell of the device's chunk).
    pub cells: Vec<(usize, u32, usize)>,
    /// Operations that waited for their copy engine, for a kernel slot.
    pub engine_waits: (u64, u64),
}

/// How allocations found their memory (for the coverage check).
#[derive(Debug, Default, Clone, Copy)]
pub struct PoolStats {
    /// Allocations.
    pub allocs: u64,
    /// A cell never used before.
    pub fresh: u64,
    /// A freed cell a synchronize had made available to anyone.
    pub observed: u64,
    /// A freed cell, on the freeing stream.
    pub same_stream: u64,
    /// A freed cell, the stream being after the free.
    pub stream_after: u64,
    /// A freed cell, the host being after the free.
    pub host_after: u64,
    /// A freed cell whose free had ended, nothing ordering them (opportunistic).
    pub opportunistic: u64,
}

struct Model<'a> {
    prog: &'a Program,
    clock: u64,
    current: u32,
    streams: BTreeMap<StreamRef, MStream>,
    /// Destroyed streams: their work still runs, and is still covered by device synchronizes and (blocking
    /// ones) by the legacy default stream's edges.
    retired: Vec<MStream>,
    /// The creation ordinal of the next stream (`Step::ReplaceStream`).
    next_stream: u32,
    events: BTreeMap<EventRef, Option<usize>>,
    ops: Vec<MOp>,
    host_known: BTreeSet<Node>,
    host_accesses: usize,
    accesses: BTreeMap<Buffer, Vec<Access>>,
    races: BTreeMap<RaceKey, u64>,
    full_races: BTreeMap<RaceKey, u64>,
    racing_accesses: (BTreeSet<usize>, BTreeSet<usize>),
    access_count: usize,
    host: Vec<(String, u64, u64)>,
    answers: Vec<Answer>,
    /// Each device's chunk (reserved at its first allocation) and which allocation last held each cell.
    chunks: BTreeMap<u32, (Vec<Cell>, Vec<Option<usize>>)>,
    pooled: Vec<Pooled>,
    /// Each slot's latest allocation.
    slots: BTreeMap<PoolRef, usize>,
    pool: PoolStats,
    cells: Vec<(usize, u32, usize)>,
    /// The engine model, written from `docs/semantics/engine-model.md`: per device, the intervals the
    /// host-to-device copy engine (0), the device-to-host copy engine (1) and the kernel slots (2) are busy.
    busy: BTreeMap<(u32, u8), Vec<(u64, u64)>>,
    /// How many operations started later than ready because their engine was busy: (copies, kernels).
    engine_waits: (u64, u64),
}

/// The default profile's kernel slots (`EngineModel`'s default, the guide's 128 resident grids of compute
/// capability 7.0 and 8.0); its `asyncEngineCount` (3) gives each copy direction an engine of its own.
const KERNEL_SLOTS: usize = 128;

/// The earliest start at or after `ready` at which fewer than `cap` of `busy` overlap `[start, start + cost)`:
/// first fit, as the engine model documents.
fn first_fit(busy: &[(u64, u64)], ready: u64, cost: u64, cap: usize) -> u64 {
    let mut candidates: Vec<u64> = busy
        .iter()
        .map(|&(_, e)| e)
        .filter(|&e| e > ready)
        .collect();
    candidates.push(ready);
    candidates.sort_unstable();
    candidates
        .into_iter()
        .find(|&c| {
            let end = c + cost;
            // The load is highest at `c` or at an interval's start inside the window.
            std::iter::once(c)
                .chain(busy.iter().map(|&(s, _)| s).filter(|&s| s > c && s < end))
                .all(|t| busy.iter().filter(|&&(s, e)| s <= t && t < e).count() < cap)
        })
        .expect("after the last interval everything is free")
}

const P0: ProcessId = ProcessId(0);

fn event_id(e: EventRef) -> EventId {
    EventId {
        process: P0,
        ordinal: 1 + e.device * EVENTS_PER_DEVICE + e.slot,
    }
}

fn host(call: &'static str) -> Accessor {
    Accessor::Host {
        process: P0,
        thread: 0,
        call,
    }
}

/// Runs the model on `prog`.
pub fn expect(prog: &Program) -> Expected {
    let mut m = Model {
        prog,
        clock: 0,
        current: 0,
        streams: BTreeMap::new(),
        retired: Vec::new(),
        next_stream: prog.streams.len() as u32 + 1,
        events: BTreeMap::new(),
        ops: Vec::new(),
        host_known: BTreeSet::new(),
        host_accesses: 0,
        accesses: BTreeMap::new(),
        races: BTreeMap::new(),
        full_races: BTreeMap::new(),
        racing_accesses: Default::default(),
        access_count: 0,
        host: Vec::new(),
        answers: Vec::new(),
        chunks: BTreeMap::new(),
        pooled: Vec::new(),
        slots: BTreeMap::new(),
        pool: PoolStats::default(),
        cells: Vec::new(),
        busy: BTreeMap::new(),
        engine_waits: (0, 0),
    };
    m.setup();
    let mut known_after_step = Vec::new();
    for (i, step) in prog.steps.iter().enumerate() {
        m.step(i, step);
        known_after_step.push(m.known_kernels(&m.host_known));
    }
    for d in 0..prog.devices {
        m.device(d);
        m.device_synchronize(d);
    }
    let mut ops: Vec<TraceEvent> = m.ops.iter().map(|o| o.event.clone()).collect();
    ops.sort_by_key(|e| (e.start, e.stream, e.seq));
    let kernel_after = m
        .ops
        .iter()
        .filter_map(|o| Some((o.kernel_step?, m.known_kernels(&o.before))))
        .collect();
    Expected {
        ops,
        host: m.host,
        answers: m.answers,
        races: m.races,
        full_races: m.full_races,
        racing_accesses: m.racing_accesses,
        kernel_after,
        known_after_step,
        end: m.clock,
        pool: m.pool,
        cells: m.cells,
        engine_waits: m.engine_waits,
    }
}

impl Model<'_> {
    /// A runtime call: the host clock advances by the call overhead; the call acts at the new time.
    fn call(&mut self) -> u64 {
        self.clock += API_CALL;
        self.clock
    }

    /// `set_device` when the device is not current (as `Program::run` documents).
    fn device(&mut self, d: u32) {
        if self.current != d {
            self.call();
            self.current = d;
        }
    }

    fn known_kernels(&self, set: &BTreeSet<Node>) -> BTreeSet<usize> {
        set.iter()
            .filter_map(|n| match n {
                Node::Op(i) => self.ops[*i].kernel_step,
                Node::Host(_) => None,
            })
            .collect()
    }

    fn setup(&mut self) {
        for (n, spec) in self.prog.streams.iter().enumerate() {
            self.device(spec.device);
            self.call();
            self.streams.insert(
                StreamRef::Created(n as u32),
                MStream {
                    id: StreamId {
                        process: P0,
                        device: spec.device,
                        kind: StreamKind::Created(n as u32 + 1),
                    },
                    device: spec.device,
                    blocking: !spec.non_blocking,
                    legacy: false,
                    cursor: 0,
                    last: None,
                    seq: 0,
                },
            );
        }
        for d in 0..self.prog.devices {
            self.device(d);
            for slot in 0..EVENTS_PER_DEVICE {
                self.call();
                self.events.insert(EventRef { device: d, slot }, None);
            }
        }
        for d in 0..self.prog.devices {
            self.device(d);
            for _ in 0..BUFFERS_PER_DEVICE {
                self.call();
            }
        }
        for _ in 0..PINNED_BUFFERS {
            self.call();
        }
        if self.prog.uses_pools() {
            // Each device's default pool, and its release threshold.
            for _ in 0..self.prog.devices {
                self.call();
                self.call();
            }
        }
    }

    /// Makes the stream's device current and the stream exist (a legacy stream exists from its first use).
    fn stream(&mut self, s: StreamRef) -> StreamRef {
        let device = self.prog.device_of(s);
        self.device(device);
        self.streams.entry(s).or_insert_with(|| MStream {
            id: StreamId {
                process: P0,
                device,
                kind: StreamKind::Legacy,
            },
            device,
            blocking: true,
            legacy: true,
            cursor: 0,
            last: None,
            seq: 0,
        });
        s
    }

    fn end(&self, op: usize) -> u64 {
        self.ops[op].event.end.0
    }

    /// The host learns that `op` and everything before it are complete.
    fn acquire(&mut self, op: usize) {
        self.host_known.insert(Node::Op(op));
        self.host_known.extend(self.ops[op].before.iter().copied());
    }

    #[allow(clippy::too_many_arguments, reason = "one operation, spelled out")]
    fn enqueue(
        &mut self,
        key: StreamRef,
        now: u64,
        cost: u64,
        waits_for: Option<usize>,
        kind: OpKind,
        label: String,
        accesses: &[(Buffer, bool)],
        kernel_step: Option<usize>,
    ) -> usize {
        let s = &self.streams[&key];
        let mut deps: Vec<usize> = waits_for.into_iter().collect();
        if s.legacy {
            deps.extend(
                self.streams
                    .values()
                    .chain(&self.retired)
                    .filter(|t| t.device == s.device && t.blocking && !t.legacy)
                    .filter_map(|t| t.last),
            );
        } else if s.blocking
            && let Some(l) = self
                .streams
                .get(&StreamRef::Legacy(s.device))
                .and_then(|l| l.last)
        {
            deps.push(l);
        }
        let ready = deps
            .iter()
            .map(|&d| self.end(d))
            .fold(s.cursor.max(now + LAUNCH_LATENCY), u64::max);
        let resource = match kind {
            OpKind::Memcpy {
                path: CopyPath::HostToDevice,
                ..
            } => Some((0, 1)),
            OpKind::Memcpy {
                path: CopyPath::DeviceToHost,
                ..
            } => Some((1, 1)),
            OpKind::Kernel => Some((2, KERNEL_SLOTS)),
            _ => None,
        };
        let start = match resource {
            Some((r, cap)) if cost > 0 => {
                let busy = self.busy.entry((s.device, r)).or_default();
                let t = first_fit(busy, ready, cost, cap);
                busy.push((t, t + cost));
                if t > ready {
                    if r == 2 {
                        self.engine_waits.1 += 1;
                    } else {
                        self.engine_waits.0 += 1;
                    }
                }
                t
            }
            _ => ready,
        };
        let end = start + cost;
        let mut before = self.host_known.clone();
        for d in s.last.iter().chain(&deps) {
            before.insert(Node::Op(*d));
            before.extend(self.ops[*d].before.iter().copied());
        }
        let idx = self.ops.len();
        let who = Accessor::Op {
            stream: s.id,
            stream_name: None,
            kind: match kind {
                OpKind::Kernel => "kernel",
                OpKind::Memcpy { .. } => "memcpy",
                OpKind::Memset { .. } => "memset",
                OpKind::MemAlloc { .. } => "alloc",
                OpKind::MemFree { .. } => "free",
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
        let s = self.streams.get_mut(&key).expect("stream exists");
        s.cursor = end;
        s.last = Some(idx);
        s.seq += 1;
        for &(buf, write) in accesses {
            self.access(Node::Op(idx), &before, buf, write, who.clone());
        }
        self.ops.push(MOp {
            kernel_step,
            before,
            event,
        });
        idx
    }

    /// Who operation `op` is in reports.
    fn who(&self, op: usize) -> Accessor {
        let e = &self.ops[op].event;
        Accessor::Op {
            stream: e.stream,
            stream_name: None,
            kind: match e.kind {
                OpKind::Kernel => "kernel",
                OpKind::MemAlloc { .. } => "alloc",
                OpKind::MemFree { .. } => "free",
                _ => unreachable!("only kernels use pooled memory"),
            },
            label: e.label.to_string(),
        }
    }

    /// A lifetime report (and every report counts in both maps).
    fn lifetime(&mut self, kind: RaceKind, first: Side, second: Side) {
        let key = (kind, first, second);
        *self.races.entry(key.clone()).or_default() += 1;
        *self.full_races.entry(key).or_default() += 1;
    }

    /// Whether the next operation of stream `key` would be after `op` without a new edge: `op` is its last
    /// operation or before it.
    fn stream_after(&self, key: StreamRef, op: usize) -> bool {
        self.streams[&key]
            .last
            .is_some_and(|l| l == op || self.ops[l].before.contains(&Node::Op(op)))
    }

    /// `malloc_async` of slot `slot` on stream `key`: the pick, the operation, the cell taken.
    fn malloc_async(&mut self, step: usize, slot: PoolRef, key: StreamRef) {
        let device = self.streams[&key].device;
        let now = self.call();
        let (cells, _) = self
            .chunks
            .entry(device)
            .or_insert_with(|| (vec![Cell::Free(None); CELLS], vec![None; CELLS]));
        let cells = cells.clone();
        // The free ranges: (start, length, what the cell waits on).
        let mut ranges: Vec<(usize, usize, Option<usize>)> = Vec::new();
        for (i, c) in cells.iter().enumerate() {
            match *c {
                Cell::Live => {}
                Cell::Free(Some(f)) => ranges.push((i, 1, Some(f))),
                Cell::Free(None) => match ranges.last_mut() {
                    Some((start, len, None)) if *start + *len == i => *len += 1,
                    _ => ranges.push((i, 1, None)),
                },
            }
        }
        // The freeing stream is the stream itself, not its key (a replaced stream's key names another).
        let id = self.streams[&key].id;
        let same_stream = |f: usize| self.ops[f].event.stream == id;
        let allowed = |&(_, _, f): &(usize, usize, Option<usize>)| match f {
            None => true,
            Some(f) => {
                same_stream(f)
                    || self.stream_after(key, f)
                    || self.host_known.contains(&Node::Op(f))
                    || self.end(f) <= now
            }
        };
        let (cell, _, waits) = ranges
            .iter()
            .filter(|r| allowed(r))
            .min_by_key(|&&(start, len, _)| (len, start))
            .copied()
            .expect("a 2 MiB chunk never fills up in these programs");
        let mut st = self.pool;
        st.allocs += 1;
        match waits {
            None if self.chunks[&device].1[cell].is_none() => st.fresh += 1,
            None => st.observed += 1,
            Some(f) if same_stream(f) => st.same_stream += 1,
            Some(f) if self.stream_after(key, f) => st.stream_after += 1,
            Some(f) if self.host_known.contains(&Node::Op(f)) => st.host_after += 1,
            Some(_) => st.opportunistic += 1,
        }
        self.pool = st;
        let op = self.enqueue(
            key,
            now,
            POOL_ALLOC,
            None,
            OpKind::MemAlloc {
                bytes: BUFFER_BYTES,
            },
            "malloc_async".into(),
            &[],
            None,
        );
        let n = self.pooled.len();
        self.pooled.push(Pooled {
            device,
            cell,
            alloc: op,
            freed: None,
        });
        let (cells, holder) = self.chunks.get_mut(&device).expect("reserved above");
        cells[cell] = Cell::Live;
        holder[cell] = Some(n);
        self.slots.insert(slot, n);
        self.cells.push((step, device, cell));
    }

    /// `free_async` of slot `slot`'s allocation on stream `key`: the operation and its lifetime checks.
    fn free_async(&mut self, slot: PoolRef, key: StreamRef) {
        let n = self.slots[&slot];
        let now = self.call();
        let op = self.enqueue(
            key,
            now,
            POOL_FREE,
            None,
            OpKind::MemFree {
                bytes: BUFFER_BYTES,
            },
            "free_async".into(),
            &[],
            None,
        );
        let free = (self.who(op), true);
        let before = self.ops[op].before.clone();
        let alloc = self.pooled[n].alloc;
        if !before.contains(&Node::Op(alloc)) {
            self.lifetime(
                RaceKind::UseBeforeAlloc,
                (self.who(alloc), true),
                free.clone(),
            );
        }
        // Every remembered access (not superseded by a later one after it) the free is not after.
        let list = self.accesses.remove(&Buffer::Pooled(n)).unwrap_or_default();
        for (j, y) in list.iter().enumerate() {
            let superseded = list[j + 1..]
                .iter()
                .any(|z| (z.node == y.node || z.before.contains(&y.node)) && (z.write || !y.write));
            if !superseded && !before.contains(&y.node) {
                self.lifetime(
                    RaceKind::UseAfterFree,
                    (y.who.clone(), y.write),
                    free.clone(),
                );
            }
        }
        self.pooled[n].freed = Some(op);
        let (device, cell) = (self.pooled[n].device, self.pooled[n].cell);
        self.chunks.get_mut(&device).expect("allocated").0[cell] = Cell::Free(Some(op));
    }

    /// After a synchronize: the freed cells the host is after are available to anyone.
    fn observe(&mut self) {
        for (cells, _) in self.chunks.values_mut() {
            for c in cells.iter_mut() {
                if let Cell::Free(Some(f)) = *c
                    && self.host_known.contains(&Node::Op(f))
                {
                    *c = Cell::Free(None);
                }
            }
        }
    }

    /// The allocation a kernel using slot `slot`'s pointer touches: whichever now holds its cell.
    fn pooled_buffer(&self, slot: PoolRef) -> Buffer {
        let a = &self.pooled[self.slots[&slot]];
        Buffer::Pooled(self.chunks[&a.device].1[a.cell].expect("the cell was allocated"))
    }

    /// An access by `node`, which is after exactly `before`: the races it completes, then it is remembered.
    fn access(
        &mut self,
        node: Node,
        before: &BTreeSet<Node>,
        buf: Buffer,
        write: bool,
        who: Accessor,
    ) {
        let ordinal = self.access_count;
        self.access_count += 1;
        if let Buffer::Pooled(n) = buf {
            let (alloc, freed) = (self.pooled[n].alloc, self.pooled[n].freed);
            if !before.contains(&Node::Op(alloc)) {
                self.lifetime(
                    RaceKind::UseBeforeAlloc,
                    (self.who(alloc), true),
                    (who.clone(), write),
                );
            }
            if let Some(f) = freed {
                self.lifetime(
                    RaceKind::UseAfterFree,
                    (self.who(f), true),
                    (who.clone(), write),
                );
            }
        }
        let list = self.accesses.entry(buf).or_default();
        for (j, y) in list.iter().enumerate() {
            if y.node == node || !(write || y.write) || before.contains(&y.node) {
                continue;
            }
            let key = (
                RaceKind::Data,
                (y.who.clone(), y.write),
                (who.clone(), write),
            );
            *self.full_races.entry(key.clone()).or_default() += 1;
            self.racing_accesses.0.insert(ordinal);
            let superseded = list[j + 1..]
                .iter()
                .any(|z| (z.node == y.node || z.before.contains(&y.node)) && (z.write || !y.write));
            if !superseded {
                *self.races.entry(key).or_default() += 1;
                self.racing_accesses.1.insert(ordinal);
            }
        }
        list.push(Access {
            node,
            write,
            before: before.clone(),
            who,
        });
    }

    fn host_access(&mut self, pin: PinnedRef, write: bool) {
        self.call();
        let node = Node::Host(self.host_accesses);
        self.host_accesses += 1;
        let before = self.host_known.clone();
        let call = if write { "host_write" } else { "host_read" };
        self.access(node, &before, Buffer::Pinned(pin), write, host(call));
        self.host_known.insert(node);
    }

    /// A blocking call that waits for `ops`: the host clock moves to the latest end; the host acquires them.
    fn block(&mut self, now: u64, ops: &[usize], label: String) {
        for &op in ops {
            self.clock = self.clock.max(self.end(op));
            self.acquire(op);
        }
        self.host.push((label, now, self.clock));
    }

    fn device_synchronize(&mut self, d: u32) {
        let now = self.call();
        let tails: Vec<usize> = self
            .streams
            .values()
            .chain(&self.retired)
            .filter(|s| s.device == d)
            .filter_map(|s| s.last)
            .collect();
        self.block(now, &tails, format!("device_synchronize({d})"));
        self.observe();
    }

    /// A query of `op` (`None`: nothing to wait for) at the current time.
    fn query(&mut self, op: Option<usize>) -> Status {
        self.query_all(&Vec::from_iter(op))
    }

    /// A query of all of `ops` at the current time: complete iff each has ended.
    fn query_all(&mut self, ops: &[usize]) -> Status {
        let now = self.call();
        if ops.iter().any(|&op| self.end(op) > now) {
            return Status::NotReady;
        }
        for &op in ops {
            self.acquire(op);
        }
        Status::Complete
    }

    /// What a synchronize or query of stream `key` covers: its last operation, and for a legacy default stream
    /// the last operation of each blocking stream of its device.
    fn covered(&self, key: StreamRef) -> Vec<usize> {
        let s = &self.streams[&key];
        let mut ops: Vec<usize> = s.last.into_iter().collect();
        if s.legacy {
            ops.extend(
                self.streams
                    .values()
                    .chain(&self.retired)
                    .filter(|t| t.device == s.device && t.blocking && !t.legacy)
                    .filter_map(|t| t.last),
            );
        }
        ops
    }

    fn answer(&mut self, step: usize, status: Status, polls: u32) {
        self.answers.push(Answer {
            step,
            status,
            polls,
        });
    }

    fn step(&mut self, i: usize, step: &Step) {
        let n = BUFFER_BYTES;
        match step {
            Step::Launch {
                stream,
                duration_ns,
                reads,
                writes,
            } => {
                let key = self.stream(*stream);
                let now = self.call();
                let accesses: Vec<(Buffer, bool)> = reads
                    .iter()
                    .map(|&b| (Buffer::Device(b), false))
                    .chain(writes.iter().map(|&b| (Buffer::Device(b), true)))
                    .collect();
                self.enqueue(
                    key,
                    now,
                    *duration_ns,
                    None,
                    OpKind::Kernel,
                    format!("k{i}"),
                    &accesses,
                    Some(i),
                );
            }
            Step::Memset { stream, dst } => {
                let key = self.stream(*stream);
                let now = self.call();
                self.enqueue(
                    key,
                    now,
                    copy_ns(CopyPath::OnDevice, n),
                    None,
                    OpKind::Memset { bytes: n },
                    "memset_async".into(),
                    &[(Buffer::Device(*dst), true)],
                    None,
                );
            }
            Step::CopyDeviceToDevice { stream, src, dst } => {
                let key = self.stream(*stream);
                let now = self.call();
                let path = if src.device == dst.device {
                    CopyPath::OnDevice
                } else {
                    CopyPath::StagedThroughHost
                };
                self.copy(key, now, path, Buffer::Device(*src), Buffer::Device(*dst));
            }
            Step::CopyToDevice { stream, src, dst } => {
                let key = self.stream(*stream);
                let now = self.call();
                let (s, d) = (Buffer::Pinned(*src), Buffer::Device(*dst));
                self.copy(key, now, CopyPath::HostToDevice, s, d);
            }
            Step::CopyToHost { stream, src, dst } => {
                let key = self.stream(*stream);
                let now = self.call();
                let (s, d) = (Buffer::Device(*src), Buffer::Pinned(*dst));
                self.copy(key, now, CopyPath::DeviceToHost, s, d);
            }
            Step::CopyFromPageable { stream, dst } => {
                // The source is staged at the call: only the destination is an access.
                let key = self.stream(*stream);
                let now = self.call();
                self.enqueue(
                    key,
                    now,
                    copy_ns(CopyPath::HostToDevice, n),
                    None,
                    OpKind::Memcpy {
                        path: CopyPath::HostToDevice,
                        bytes: n,
                    },
                    "memcpy_async".into(),
                    &[(Buffer::Device(*dst), true)],
                    None,
                );
            }
            Step::CopyToPageable { stream, src } => {
                // The call blocks until the data is in pageable memory: the host acquires the copy.
                let key = self.stream(*stream);
                let now = self.call();
                let op = self.enqueue(
                    key,
                    now,
                    copy_ns(CopyPath::DeviceToHost, n),
                    None,
                    OpKind::Memcpy {
                        path: CopyPath::DeviceToHost,
                        bytes: n,
                    },
                    "memcpy_async".into(),
                    &[(Buffer::Device(*src), false)],
                    None,
                );
                self.block(now, &[op], "memcpy_async".into());
            }
            Step::CopyToHostSync { src, dst } => {
                self.device(src.device);
                let key = self.stream(StreamRef::Legacy(src.device));
                let now = self.call();
                let op = self.enqueue(
                    key,
                    now,
                    copy_ns(CopyPath::DeviceToHost, n),
                    None,
                    OpKind::Memcpy {
                        path: CopyPath::DeviceToHost,
                        bytes: n,
                    },
                    "memcpy".into(),
                    &[(Buffer::Device(*src), false), (Buffer::Pinned(*dst), true)],
                    None,
                );
                self.block(now, &[op], "memcpy".into());
            }
            Step::Record { event, stream } => {
                let key = self.stream(*stream);
                let now = self.call();
                let id = event_id(*event);
                let op = self.enqueue(
                    key,
                    now,
                    0,
                    None,
                    OpKind::Record { event: id },
                    format!("record event {id}"),
                    &[],
                    None,
                );
                self.events.insert(*event, Some(op));
            }
            Step::Wait { stream, event } => {
                let key = self.stream(*stream);
                let now = self.call();
                // Never recorded: CUDA's wait is a no-op (nothing is enqueued).
                if let Some(rec) = self.events[event] {
                    let id = event_id(*event);
                    let on = &self.ops[rec].event;
                    let kind = OpKind::Wait {
                        event: id,
                        on: on.stream,
                        seq: on.seq,
                    };
                    self.enqueue(
                        key,
                        now,
                        0,
                        Some(rec),
                        kind,
                        format!("wait event {id}"),
                        &[],
                        None,
                    );
                }
            }
            Step::StreamSynchronize(s) => {
                let key = self.stream(*s);
                let now = self.call();
                let label = format!("stream_synchronize({})", self.streams[&key].id);
                let covered = self.covered(key);
                self.block(now, &covered, label);
                self.observe();
            }
            Step::EventSynchronize(e) => {
                let now = self.call();
                // Never recorded: returns at once, waits for nothing (and is not in the trace).
                if let Some(rec) = self.events[e] {
                    let label = format!("event_synchronize(event {})", event_id(*e));
                    self.block(now, &[rec], label);
                    self.observe();
                }
            }
            Step::DeviceSynchronize(d) => {
                self.device(*d);
                self.device_synchronize(*d);
            }
            Step::StreamQuery(s) => {
                let key = self.stream(*s);
                let covered = self.covered(key);
                let status = self.query_all(&covered);
                self.answer(i, status, 1);
            }
            Step::EventQuery(e) => {
                let rec = self.events[e];
                let status = self.query(rec);
                self.answer(i, status, 1);
            }
            Step::SpinOnEvent(e) => {
                let rec = self.events[e];
                let mut polls = 0;
                let status = loop {
                    polls += 1;
                    let s = self.query(rec);
                    if s == Status::Complete || polls == MAX_POLLS {
                        break s;
                    }
                };
                self.answer(i, status, polls);
            }
            Step::HostRead(h) => self.host_access(*h, false),
            Step::HostWrite(h) => self.host_access(*h, true),
            Step::ReplaceStream(n) => {
                // destroy_stream, then create_stream, on the stream's device: two calls; nothing waits.
                let key = self.stream(StreamRef::Created(*n));
                self.call();
                self.call();
                let old = self.streams.remove(&key).expect("created streams exist");
                let new = MStream {
                    id: StreamId {
                        kind: StreamKind::Created(self.next_stream),
                        ..old.id
                    },
                    device: old.device,
                    blocking: old.blocking,
                    legacy: false,
                    cursor: 0,
                    last: None,
                    seq: 0,
                };
                self.next_stream += 1;
                self.retired.push(old);
                self.streams.insert(key, new);
            }
            Step::MallocAsync { slot, stream } => {
                let key = self.stream(*stream);
                self.malloc_async(i, *slot, key);
            }
            Step::FreeAsync { slot, stream } => {
                let key = self.stream(*stream);
                self.free_async(*slot, key);
            }
            Step::LaunchPooled {
                stream,
                duration_ns,
                slot,
                write,
            } => {
                let key = self.stream(*stream);
                let now = self.call();
                let buf = self.pooled_buffer(*slot);
                self.enqueue(
                    key,
                    now,
                    *duration_ns,
                    None,
                    OpKind::Kernel,
                    format!("k{i}"),
                    &[(buf, *write)],
                    Some(i),
                );
            }
        }
    }

    fn copy(&mut self, key: StreamRef, now: u64, path: CopyPath, src: Buffer, dst: Buffer) {
        let n = BUFFER_BYTES;
        self.enqueue(
            key,
            now,
            copy_ns(path, n),
            None,
            OpKind::Memcpy { path, bytes: n },
            "memcpy_async".into(),
            &[(src, false), (dst, true)],
            None,
        );
    }
}

/// The trace's operations, one per line (for failure messages).
pub fn describe(ops: &[TraceEvent]) -> String {
    ops.iter()
        .map(|e| {
            format!(
                "  {} #{} {} [{} ns, {} ns]",
                e.stream, e.seq, e.label, e.start.0, e.end.0
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}
