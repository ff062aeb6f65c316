//! The reference model of [`AclProgram`]s, sequential, from the ACL truth tables (`/work/shared/reference/acl.md`,
//! `docs/semantics/acl.md`, `docs/semantics/acl-runtime-api.md`) and the README, not from the simulator:
//!
//! - **Contexts.** `set_device` makes the default context (ordinal 1) with its default stream; a created context
//!   (ordinal 2) becomes current and has its own default stream. Every call on a stream first makes its context
//!   current (a call). A launch on a stream of a context that is not current: `WrongContext` (107003).
//! - **Events** (acl.md · Events): a query of a never-recorded (or reset) event is `NotReady`; a synchronize of
//!   one returns at once; a wait on one is `EventNotRecorded` (107000) for an `aclrtCreateEvent` event and is
//!   *deferred* for a SYNC event: it holds its stream until the event's next record is issued, and its time and
//!   those of everything behind it are fixed from that record (the usual formula). A TIME_LINE-only event can
//!   be neither waited on nor reset (207000). `aclrtResetEvent` is an operation on its stream and makes the
//!   event "never recorded" for later calls (sim).
//! - **Held work**: a query of held work is `NotReady`; a synchronize of it fails with `WouldDeadlock` naming
//!   the stream of the first held point it covers (no other thread could issue the record), the clock moving by
//!   the call only.
//! - **Failure modes** (acl-runtime-api.md · Failure modes): an operation takes its context's mode at
//!   enqueue; `Stop` set on a stream is its context's (setting it again is 0; `Continue` after it is 207000). A
//!   fault in `Continue` stays on its stream: the next stream synchronize of that stream or device synchronize
//!   reports it, once; nothing else sees it and every later body runs. A fault in `Stop` poisons the
//!   operations of its context ordered after it (their bodies do not run); every synchronize or complete query
//!   covering a poisoned operation reports it, and the first such report stops the context: every later task
//!   call (launch, record, wait, reset) on its streams fails with the fault.

use std::collections::{BTreeMap, BTreeSet};

use streamsim::testing::acl::{AResult, AStream, AclEventKind, AclProgram};
use streamsim::{
    EventId, FaultKind, OpKind, ProcessId, SimError, Status, StreamId, StreamKind, TraceEvent,
    VirtualTime, WaitCycle, WaitLink,
};

mod steps;

const API_CALL: u64 = 1_000;
const LAUNCH_LATENCY: u64 = 2_000;

#[derive(Clone, Copy)]
enum Dep {
    None,
    Op(usize),
    /// A deferred wait: the event's next record, once issued.
    Deferred(Option<usize>),
}

struct AOp {
    ctx: u32,
    now: u64,
    cost: u64,
    pred: Option<usize>,
    dep: Dep,
    known: BTreeSet<usize>,
    stop: bool,
    faults: bool,
    kernel_step: Option<usize>,
    stream: StreamId,
    seq: u64,
    kind: OpKind,
    label: String,
    /// (start, end) once fixed, and what it is after.
    time: Option<(u64, u64)>,
    before: BTreeSet<usize>,
    /// What it is after through streams alone (its stream's earlier operations and what it waits for, and
    /// theirs): the edges a fault's poison travels along (README "Sticky faults travel along happens-before":
    /// stream waits, not the host's knowledge).
    chain: BTreeSet<usize>,
}

struct MStream {
    id: StreamId,
    ctx: u32,
    device: u32,
    last: Option<usize>,
    seq: u64,
    stop: bool,
}

struct MEvent {
    kind: AclEventKind,
    device: u32,
    latest: Option<usize>,
    pending: Vec<usize>,
}

/// What the model predicts for one ACL program.
#[derive(Debug)]
pub struct AclExpected {
    /// The trace's operations (the fixed ones), sorted as the trace is.
    pub ops: Vec<TraceEvent>,
    /// The blocking host calls: (start, thread, label, end), sorted.
    pub host: Vec<(u64, u32, String, u64)>,
    /// Every step's answer.
    pub results: Vec<AResult>,
    /// The final device synchronize's answer.
    pub last: AResult,
    /// The steps whose kernel body runs.
    pub kernels_ran: Vec<usize>,
    /// Each host thread's clock after its last call.
    pub ends: Vec<u64>,
    /// Whether the program can run with its calls in its order: no synchronize waits for work that another
    /// thread, still to make calls, could release (the runner's token would stop; the test filters them).
    pub valid: bool,
}

struct Acl<'a> {
    prog: &'a AclProgram,
    /// The calling thread's clock, current context and knowledge (the other thread's are in `parked`).
    clock: u64,
    current: Option<u32>,
    /// The calling thread, and the step being modelled.
    at: u32,
    step: usize,
    /// Each thread's (clock, current context, knowledge) while another thread calls.
    parked: BTreeMap<u32, (u64, Option<u32>, BTreeSet<usize>)>,
    invalid: bool,
    streams: BTreeMap<AStream, MStream>,
    /// Device-synchronize order: the streams in the order the process made them (a default stream at its first
    /// use).
    order: Vec<AStream>,
    ctx_stop: [bool; 2],
    stopped: [Option<SimError>; 2],
    events: Vec<MEvent>,
    ops: Vec<AOp>,
    known: BTreeSet<usize>,
    host: Vec<(u64, u32, String, u64)>,
    fault: Option<(usize, SimError)>,
    continue_reported: bool,
}

fn event_id(e: u32) -> EventId {
    EventId {
        process: ProcessId(0),
        ordinal: 1 + e,
    }
}

/// Runs the model on `prog`.
pub fn expect_acl(prog: &AclProgram) -> AclExpected {
    let mut m = Acl {
        prog,
        clock: 0,
        current: Some(0),
        at: 0,
        step: 0,
        parked: BTreeMap::new(),
        invalid: false,
        streams: BTreeMap::new(),
        order: Vec::new(),
        ctx_stop: [false; 2],
        stopped: [None, None],
        events: prog
            .events
            .iter()
            .map(|&(kind, c)| MEvent {
                kind,
                device: prog.device_of_context(c),
                latest: None,
                pending: Vec::new(),
            })
            .collect(),
        ops: Vec::new(),
        known: BTreeSet::new(),
        host: Vec::new(),
        fault: None,
        continue_reported: false,
    };
    let stream = |ctx: u32, kind: StreamKind| MStream {
        id: StreamId {
            process: ProcessId(0),
            device: prog.device_of_context(ctx),
            kind,
        },
        ctx,
        device: prog.device_of_context(ctx),
        last: None,
        seq: 0,
        stop: false,
    };
    // set_device, current_context; create_context.
    m.call();
    m.call();
    m.streams.insert(
        AStream::Default(0),
        stream(0, StreamKind::ContextDefault(1)),
    );
    if prog.contexts == 2 {
        m.call();
        m.current = Some(1);
        m.streams.insert(
            AStream::Default(1),
            stream(1, StreamKind::ContextDefault(2)),
        );
    }
    for (n, &c) in prog.streams.iter().enumerate() {
        m.context(c);
        m.call();
        let s = AStream::Created(n as u32);
        m.streams
            .insert(s, stream(c, StreamKind::Created(n as u32 + 1)));
        m.order.push(s);
    }
    for &(_, c) in &prog.events {
        m.context(c);
        m.call();
    }
    let results = prog
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            m.switch(prog.thread_of(i));
            m.step = i;
            m.step(i, s)
        })
        .collect();
    m.switch(0);
    m.step = prog.steps.len();
    let last = m.device_synchronize();
    m.settle();
    let mut ops: Vec<TraceEvent> = m
        .ops
        .iter()
        .filter_map(|o| {
            let (start, end) = o.time?;
            Some(TraceEvent {
                stream: o.stream,
                seq: o.seq,
                kind: o.kind.clone(),
                label: o.label.clone().into(),
                start: VirtualTime(start),
                end: VirtualTime(end),
            })
        })
        .collect();
    ops.sort_by_key(|e| (e.start, e.stream, e.seq));
    let kernels_ran = (0..m.ops.len())
        .filter(|&i| m.ops[i].time.is_some() && (!m.poisoned(i) || m.ops[i].faults))
        .filter_map(|i| m.ops[i].kernel_step)
        .collect();
    let ends = (0..prog.threads.max(1))
        .map(|t| {
            if t == 0 {
                m.clock
            } else {
                m.parked.get(&t).map_or(0, |p| p.0)
            }
        })
        .collect();
    AclExpected {
        ops,
        host: {
            let mut h = m.host;
            h.sort();
            h
        },
        results,
        last,
        kernels_ran,
        ends,
        valid: !m.invalid,
    }
}

impl Acl<'_> {
    fn call(&mut self) -> u64 {
        self.clock += API_CALL;
        self.clock
    }

    /// Thread `t` calls next: the calling thread's state is parked, `t`'s taken (a new thread: clock 0, no
    /// context).
    fn switch(&mut self, t: u32) {
        if t == self.at {
            return;
        }
        let mine = (self.clock, self.current, std::mem::take(&mut self.known));
        self.parked.insert(self.at, mine);
        let (clock, current, known) = self.parked.remove(&t).unwrap_or((0, None, BTreeSet::new()));
        (self.clock, self.current, self.known, self.at) = (clock, current, known, t);
    }

    /// Whether a thread other than the caller has made a call and will make another: a call waiting for held
    /// work blocks on it (acl-runtime-api.md · wait board · another live host thread could still issue it).
    fn other_thread_could_release(&self) -> bool {
        let other = 1 - self.at;
        if self.prog.threads < 2 {
            return false;
        }
        if other == 0 {
            return true; // thread 0 made the set-up and makes the final synchronize
        }
        let called = (0..self.step).any(|i| self.prog.thread_of(i) == other);
        let more = (self.step + 1..self.prog.steps.len()).any(|i| self.prog.thread_of(i) == other);
        called && more
    }

    fn context(&mut self, c: u32) {
        if self.current != Some(c) {
            self.call();
            self.current = Some(c);
        }
    }

    /// The stream, its context made current; a default stream is made at its first use (and comes after the
    /// streams made before it in a device synchronize's order).
    fn stream(&mut self, s: AStream) -> AStream {
        self.context(self.prog.context_of(s));
        if !self.order.contains(&s) {
            self.order.push(s);
        }
        s
    }

    /// Fixes every operation whose inputs are fixed (in index order, until nothing changes).
    fn settle(&mut self) {
        loop {
            let mut progress = false;
            for i in 0..self.ops.len() {
                if self.ops[i].time.is_some() {
                    continue;
                }
                let o = &self.ops[i];
                let dep = match o.dep {
                    Dep::None => None,
                    Dep::Op(d) | Dep::Deferred(Some(d)) => Some(d),
                    Dep::Deferred(None) => continue,
                };
                let inputs: Vec<usize> = o.pred.into_iter().chain(dep).collect();
                if inputs.iter().any(|&d| self.ops[d].time.is_none()) {
                    continue;
                }
                let start = inputs
                    .iter()
                    .map(|&d| self.ops[d].time.expect("fixed").1)
                    .fold(o.now + LAUNCH_LATENCY, u64::max);
                let mut before = o.known.clone();
                let mut chain = BTreeSet::new();
                for &d in &inputs {
                    chain.insert(d);
                    chain.extend(self.ops[d].chain.iter().copied());
                }
                for &d in &inputs {
                    before.insert(d);
                    before.extend(self.ops[d].before.iter().copied());
                }
                let o = &mut self.ops[i];
                o.time = Some((start, start + o.cost));
                o.before = before;
                o.chain = chain;
                progress = true;
            }
            if !progress {
                break;
            }
        }
    }

    /// Whether `op` is poisoned by a fault of the mode `Stop`: it is the fault, or an operation sent in the mode
    /// `Stop`, of its context and after it through streams.
    fn poisoned(&self, op: usize) -> bool {
        match &self.fault {
            // An operation keeps the mode it was sent with: one sent in `Continue` is not stopped.
            Some((f, _)) if self.ops[*f].stop => {
                op == *f
                    || (self.ops[op].stop
                        && self.ops[op].ctx == self.ops[*f].ctx
                        && self.ops[op].chain.contains(f))
            }
            _ => false,
        }
    }

    /// A task on `s`: refused once its context is stopped.
    #[allow(clippy::too_many_arguments, reason = "one operation, spelled out")]
    fn task(
        &mut self,
        s: AStream,
        now: u64,
        cost: u64,
        dep: Dep,
        kind: OpKind,
        label: String,
        kernel: Option<(usize, bool)>,
    ) -> Result<usize, SimError> {
        let ms = &self.streams[&s];
        if let Some(e) = &self.stopped[ms.ctx as usize] {
            return Err(e.clone());
        }
        let idx = self.ops.len();
        let faults = kernel.is_some_and(|(_, f)| f);
        let op = AOp {
            ctx: ms.ctx,
            now,
            cost,
            pred: ms.last,
            dep,
            known: self.known.clone(),
            stop: self.ctx_stop[ms.ctx as usize],
            faults,
            kernel_step: kernel.map(|(k, _)| k),
            stream: ms.id,
            seq: ms.seq + 1,
            kind,
            label,
            time: None,
            before: BTreeSet::new(),
            chain: BTreeSet::new(),
        };
        if faults {
            self.fault = Some((
                idx,
                SimError::KernelFault {
                    kind: FaultKind::LaunchFailure,
                    device: ms.device,
                    stream: ms.id,
                    label: op.label.clone(),
                    message: "boom".into(),
                },
            ));
        }
        self.ops.push(op);
        let ms = self.streams.get_mut(&s).expect("exists");
        ms.last = Some(idx);
        ms.seq += 1;
        self.settle();
        Ok(idx)
    }

    /// A synchronize of `points` (`sync`: a stream or device synchronize, which reports a fault of the mode
    /// `Continue`).
    fn block(
        &mut self,
        now: u64,
        points: &[usize],
        label: String,
        continue_of: Option<StreamId>,
    ) -> AResult {
        if let Some(&held) = points.iter().find(|&&p| self.ops[p].time.is_none()) {
            self.invalid |= self.other_thread_could_release();
            // The stream of the first held point the call covers (`order`: the device synchronize's).
            // The wait-for cycle (docs/semantics/schedules-and-hangs.md): this thread, blocked in the call; the
            // held stream; no live thread of the process left to issue the record (this one is blocked).
            let (what, stream) = (label_what(&label), self.ops[held].stream);
            return Err(SimError::WouldDeadlock {
                what,
                stream,
                cycle: WaitCycle(vec![
                    WaitLink::HostThread {
                        process: ProcessId(0),
                        thread: self.at,
                        call: what,
                    },
                    WaitLink::Held { stream },
                    WaitLink::NoIssuer {
                        process: ProcessId(0),
                        blocked: vec![self.at],
                    },
                ]),
            });
        }
        for &p in points {
            self.clock = self.clock.max(self.ops[p].time.expect("fixed").1);
            self.known.insert(p);
            self.known.extend(self.ops[p].before.iter().copied());
        }
        self.host.push((now, self.at, label, self.clock));
        self.observe(points, continue_of)
    }

    /// A synchronize of `points` with a timeout of `us` microseconds: it runs out (the clock moves to the
    /// deadline, `Timeout`) if a point is held or ends after the deadline (acl.md · Synchronize*WithTimeout ·
    /// runs out → 507046 / 507047).
    fn block_timeout(
        &mut self,
        now: u64,
        points: &[usize],
        label: String,
        us: u64,
        continue_of: Option<StreamId>,
    ) -> AResult {
        let deadline = now + us * 1_000;
        if points.iter().any(|&p| self.ops[p].time.is_none()) {
            self.invalid |= self.other_thread_could_release();
        }
        let until = points
            .iter()
            .map(|&p| self.ops[p].time.map_or(u64::MAX, |(_, end)| end))
            .fold(now, u64::max);
        if until > deadline {
            self.clock = self.clock.max(deadline);
            return Err(SimError::Timeout {
                what: label_what(&label),
                timeout_ms: us / 1_000,
            });
        }
        self.block(now, points, label, continue_of)
    }

    /// The fault that a call covering `points` reports.
    fn observe(&mut self, points: &[usize], continue_of: Option<StreamId>) -> AResult {
        if let Some((f, e)) = self.fault.clone() {
            if points.iter().any(|&p| self.poisoned(p)) {
                let ctx = self.ops[f].ctx as usize;
                self.stopped[ctx].get_or_insert(e.clone());
                return Err(e);
            }
            let fop = &self.ops[f];
            // Continue: a stream synchronize of its stream, or a device synchronize, once.
            if !fop.stop && !self.continue_reported {
                let covers = points
                    .iter()
                    .any(|&p| self.ops[p].stream == fop.stream && self.ops[p].seq >= fop.seq);
                if covers && continue_of.is_some_and(|s| s == fop.stream || s == DEVICE) {
                    self.continue_reported = true;
                    return Err(e);
                }
            }
        }
        Ok(None)
    }

    fn query(&mut self, points: &[usize]) -> AResult {
        self.call();
        let now = self.clock;
        if points
            .iter()
            .any(|&p| self.ops[p].time.is_none_or(|(_, end)| end > now))
        {
            return Ok(Some(Status::NotReady));
        }
        for &p in points {
            self.known.insert(p);
            self.known.extend(self.ops[p].before.iter().copied());
        }
        self.observe(points, None).map(|_| Some(Status::Complete))
    }

    /// A device synchronize of the current context's device: every stream of the device.
    fn device_synchronize(&mut self) -> AResult {
        let now = self.call();
        let Some(c) = self.current else {
            // acl.md · Devices and contexts · any call needing a context · no current context → 107002.
            return Err(SimError::NoContext {
                what: "device_synchronize",
            });
        };
        let d = self.prog.device_of_context(c);
        let tails: Vec<usize> = self
            .order
            .iter()
            .filter(|s| self.streams[s].device == d)
            .filter_map(|s| self.streams[s].last)
            .collect();
        self.block(
            now,
            &tails,
            format!("device_synchronize({d})"),
            Some(DEVICE),
        )
    }

    /// A record, wait or reset of event `e` on stream `s` of another device: refused (acl.md · Ownership ·
    /// RecordEvent / StreamWaitEvent · event and stream on different devices → sim: 107003).
    fn same_device(&self, what: &'static str, e: u32, s: AStream) -> Result<(), SimError> {
        let (ev, ms) = (&self.events[e as usize], &self.streams[&s]);
        if ev.device == ms.device {
            return Ok(());
        }
        Err(SimError::WrongDevice {
            what,
            object: format!("event {}", event_id(e)),
            object_device: ev.device,
            expected: format!("{} is on device {}", ms.id, ms.device),
        })
    }
}

/// Stands for "a device synchronize" where a stream's id is expected.
const DEVICE: StreamId = StreamId {
    process: ProcessId(u32::MAX),
    device: u32::MAX,
    kind: StreamKind::Legacy,
};

fn label_what(label: &str) -> &'static str {
    if label.starts_with("stream_synchronize") {
        "stream_synchronize"
    } else if label.starts_with("event_synchronize") {
        "event_synchronize"
    } else {
        "device_synchronize"
    }
}

fn not_sync(what: &'static str, id: EventId) -> SimError {
    SimError::NotSupported {
        what,
        reason: format!(
            "event {id} was created without the SYNC flag: it cannot be waited on or reset"
        ),
    }
}

/// The ACL code of an error the model predicts, from the truth tables (not the facade's mapping):
/// `/work/shared/reference/acl.md` · Error codes and the rows named.
pub fn expected_acl_code(e: &SimError) -> i64 {
    match e {
        // Events · StreamWaitEvent · never recorded, CreateEvent event → 107000.
        SimError::EventNotRecorded { .. } => 107_000,
        // Events · StreamWaitEvent / ResetEvent · event without SYNC → 207000; acl-runtime-api.md ·
        // SetStreamFailureMode · stop → continue is 207000.
        SimError::NotSupported { .. } => 207_000,
        // Ownership · the stream's context is not the current context → 107003; event and stream on different
        // devices → sim: 107003.
        SimError::WrongContext { .. } | SimError::WrongDevice { .. } => 107_003,
        // acl-runtime-api.md · wait board · no other live thread could issue it → 507000.
        SimError::WouldDeadlock { .. } => 507_000,
        // Peers, memory, timeouts · Synchronize*WithTimeout · runs out → 507046 (stream) / 507047 (event).
        SimError::Timeout { what, .. } if *what == "event_synchronize" => 507_047,
        SimError::Timeout { .. } => 507_046,
        // Peers, memory, timeouts · kernel fault → 507015.
        SimError::KernelFault { .. } => 507_015,
        // Devices and contexts · any call needing a context · no current context → 107002.
        SimError::NoContext { .. } => 107_002,
        other => panic!("the model predicts no {other:?}"),
    }
}
