//! [`Process`]: a simulated host process: its streams, events and allocations, and the per-host-thread state
//! (current device, host clock, last error). Every runtime call goes through [`Process::call`], the one place
//! that reads and advances the calling thread's state.
//!
//! Lock order: a process's `state` lock is taken first and released before blocking (waiting on a worker);
//! under it, only leaf locks (a device's fault list, the machine's worker / sink lists, memory) are taken.
//! Channel sends under it never block (the queues are unbounded).

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, OnceLock, Weak};

use parking_lot::Mutex;

use crate::error::{HandleProblem, InitProblem, ObjectKind, Result, SimError};
use crate::exec::{Fixed, Op, OpExtra, OpSender, Point, StreamExec, Work};
use crate::handle::{
    EventId, ProcessId, Registry, StreamId, StreamKind, TAG_CONTEXT, TAG_EVENT, TAG_STREAM,
    next_ordinal,
};
use crate::machine::Shared;
use crate::memory::Region;
use crate::race::Who;
use crate::race::clock::{Actor, VectorClock};
use crate::rules::{DefaultStream, Ownership};
use crate::time::{VirtualTime, schedule};
use crate::trace::{HostEvent, OpKind};
use crate::watch::DeviceWatch;

/// Stream creation flags (CUDA's values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct StreamFlags(pub u32);

impl StreamFlags {
    /// A blocking stream: synchronises with the legacy default stream.
    pub const DEFAULT: StreamFlags = StreamFlags(0);
    /// A non-blocking stream: exempt from the legacy default stream's implicit synchronisation.
    pub const NON_BLOCKING: StreamFlags = StreamFlags(1);

    /// Whether the non-blocking bit is set.
    pub fn is_non_blocking(self) -> bool {
        self.0 & 1 != 0
    }
}

/// Whether work is finished, as a query reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// Everything the query covers has finished (or there is nothing to wait for).
    Complete,
    /// Some of it has not finished at the calling thread's virtual time.
    NotReady,
}

pub(crate) struct StreamEntry {
    pub id: StreamId,
    pub device: u32,
    /// The owning context (ACL); `None` in dialects without explicit contexts.
    pub ctx: Option<u64>,
    pub flags: StreamFlags,
    pub priority: i32,
    pub special: bool,
    pub tx: OpSender,
    pub exec: Arc<StreamExec>,
    /// Virtual end of the last enqueued operation.
    pub cursor: VirtualTime,
    /// Number of operations enqueued.
    pub seq: u64,
    /// Number of operations handed to the worker (`seq` minus the held ones; checked in debug builds).
    dispatched: u64,
    /// (blocking streams) the legacy stream's seq this stream already depends on.
    pub synced_legacy: u64,
    /// (blocking streams) this stream's seq the legacy stream already depends on.
    pub legacy_seen: u64,
    /// Operations held back behind a deferred wait (ACL `ACL_EVENT_SYNC`) or a dependency whose time is not
    /// fixed yet; released in order by [`ProcState::pump`].
    pub held: VecDeque<HeldOp>,
    /// Race detection: the stream's actor number and vector clock (after its last dispatched operation).
    pub actor: Actor,
    pub vc: VectorClock,
    pub track: bool,
    /// The (host thread, clock version) this stream's clock last joined.
    host_seen: (u32, u64),
}

/// An operation whose times cannot be fixed yet.
pub(crate) struct HeldOp {
    now: VirtualTime,
    seq: u64,
    spec: OpSpec,
    cell: Arc<OnceLock<Fixed>>,
    /// The enqueueing host thread's clock at the call (race detection on).
    host_vc: Option<HostClock>,
    /// Wait for the next record of this event issued after generation `after`.
    deferred: Option<(Arc<Mutex<crate::event::EventState>>, u64)>,
}

/// Where an enqueued operation went: dispatched (ending at that time) or held.
pub(crate) enum Pushed {
    Done(VirtualTime),
    Held(Arc<OnceLock<Fixed>>),
}

/// One step of a stream's clock: joins the enqueueing host thread's clock (only when it changed since the
/// stream last joined it, as recorded in `seen`) and the dependencies' clocks, then ticks `actor`.
#[inline(always)]
fn advance(
    vc: &mut VectorClock,
    actor: Actor,
    seen: &mut (u32, u64),
    host: Option<&HostClock>,
    deps: &[Point],
) -> crate::race::clock::Epoch {
    if let Some(h) = host
        && (*seen != (h.thread, h.version) || h.version == u64::MAX)
    {
        vc.join(&h.vc);
        *seen = (h.thread, h.version);
    }
    for d in deps {
        if let Some(v) = d.vc() {
            vc.join(v);
        }
    }
    vc.tick(actor)
}

impl StreamEntry {
    /// The point of the operation just pushed (the stream's last).
    fn point(&self, pushed: Pushed) -> Point {
        match pushed {
            Pushed::Done(end) => Point::new(self.exec.clone(), self.seq, end),
            Pushed::Held(cell) => Point::pending(self.exec.clone(), self.seq, cell),
        }
    }

    pub fn tail(&self) -> Point {
        match self.held.back() {
            Some(h) => Point::pending(self.exec.clone(), h.seq, h.cell.clone()),
            None => Point::new(self.exec.clone(), self.seq, self.cursor).with_vc(self.clock()),
        }
    }

    /// A snapshot of the stream's vector clock (race detection on).
    pub fn clock(&self) -> Option<Arc<VectorClock>> {
        self.track.then(|| Arc::new(self.vc.clone()))
    }

    /// Fixes the times of operation `seq` (enqueued at host time `now` by a thread whose clock was `host_vc`),
    /// checks its accesses for races, and hands it to the worker. With `may_fail` and fail-fast detection, a race
    /// is returned as an error and nothing changes.
    #[inline(always)]
    fn dispatch(
        &mut self,
        m: &Shared,
        now: VirtualTime,
        seq: u64,
        spec: OpSpec,
        host: Option<&HostClock>,
        may_fail: bool,
    ) -> Result<VirtualTime> {
        let OpSpec {
            cost_ns,
            label,
            mut extra,
        } = spec;
        if self.track {
            match extra.as_deref_mut() {
                Some(x) if x.who.is_some() => self.advance_checked(m, x, host, may_fail)?,
                x => {
                    let deps = x.map_or(&[][..], |x| &x.deps[..]);
                    advance(&mut self.vc, self.actor, &mut self.host_seen, host, deps);
                }
            }
        }
        let deps: &[Point] = extra.as_ref().map_or(&[], |x| &x.deps);
        let start = schedule(
            self.cursor,
            now,
            m.hot.launch_latency_ns,
            deps.iter().map(|p| {
                p.time()
                    .expect("dispatched operations have fixed dependencies")
            }),
        );
        let end = start.plus(cost_ns);
        self.cursor = end;
        // The worker numbers operations by arrival; they arrive in order.
        debug_assert_eq!(
            seq,
            self.dispatched + 1,
            "operations reach the worker in order"
        );
        self.dispatched = seq;
        self.tx.send(Op {
            start,
            end,
            label,
            extra,
        });
        Ok(end)
    }

    /// The race-detection step of an operation with declared accesses: advances the stream's clock and checks
    /// the accesses (which are dropped here: the worker does not need them). With `may_fail` and fail-fast
    /// detection the check runs on a copy, so that a race leaves the stream untouched.
    fn advance_checked(
        &mut self,
        m: &Shared,
        x: &mut OpExtra,
        host: Option<&HostClock>,
        may_fail: bool,
    ) -> Result<()> {
        let accesses = std::mem::take(&mut x.accesses);
        let who = x.who.take().expect("checked operations name who they are");
        if may_fail && m.race.mode == crate::race::RaceDetection::FailFast {
            let mut vc = self.vc.clone();
            // A dry run does not record that the stream has seen the host's clock.
            let mut seen = self.host_seen;
            let epoch = advance(&mut vc, self.actor, &mut seen, host, &x.deps);
            crate::race::check(m, &accesses, epoch, &vc, &who, may_fail)?;
            self.vc = vc;
        } else {
            let epoch = advance(&mut self.vc, self.actor, &mut self.host_seen, host, &x.deps);
            crate::race::check(m, &accesses, epoch, &self.vc, &who, may_fail)?;
        }
        Ok(())
    }

    /// Releases held operations whose dependencies are fixed; whether any was.
    fn release(&mut self, m: &Shared) -> bool {
        let mut progress = false;
        while let Some(head) = self.held.front_mut() {
            if let Some((state, after)) = &head.deferred {
                let st = state.lock();
                if st.generation <= *after {
                    break;
                }
                let latest = st.latest.clone();
                drop(st);
                if let Some(p) = latest {
                    head.spec.extra_mut().deps.push(p);
                }
                head.deferred = None;
            }
            if head.spec.dep_list().iter().any(|p| p.time().is_none()) {
                break;
            }
            let h = self
                .held
                .pop_front()
                .expect("the held queue's head was just examined under the same lock");
            let end = self
                .dispatch(m, h.now, h.seq, h.spec, h.host_vc.as_ref(), false)
                .expect("a dispatch with may_fail = false does not fail: a race is reported, not returned");
            let _ = h.cell.set(Fixed {
                time: end,
                vc: self.clock(),
            });
            progress = true;
        }
        progress
    }

    fn blocking(&self) -> bool {
        !self.flags.is_non_blocking()
    }
}

pub(crate) struct EventEntry {
    pub id: EventId,
    pub device: u32,
    pub ctx: Option<u64>,
    pub config: crate::event::EventConfig,
    /// The latest record; shared with the other processes that opened the event through IPC.
    pub state: Arc<Mutex<crate::event::EventState>>,
}

pub(crate) struct ContextEntry {
    pub ordinal: u32,
    pub device: u32,
    pub default_stream: Option<u64>,
    pub is_default: bool,
}

/// A process's state on one device (CUDA: its primary context).
pub(crate) struct DeviceCtx {
    pub legacy: Option<u64>,
    pub per_thread: BTreeMap<u32, u64>,
    pub last_legacy: Option<Point>,
    /// Tails of destroyed blocking streams the legacy stream has not waited for yet.
    pub retired: Vec<Point>,
    /// Tails of destroyed streams whose work may still be pending (device synchronize waits for them).
    pub orphans: Vec<Point>,
    /// (ACL) the device's default context in this process, and its SetDevice reference count.
    pub default_ctx: Option<u64>,
    pub refcount: u32,
}

impl DeviceCtx {
    pub fn new() -> DeviceCtx {
        DeviceCtx {
            legacy: None,
            per_thread: BTreeMap::new(),
            last_legacy: None,
            retired: Vec::new(),
            orphans: Vec::new(),
            default_ctx: None,
            refcount: 0,
        }
    }
}

pub(crate) struct ProcState {
    pub streams: Registry<StreamEntry>,
    pub events: Registry<EventEntry>,
    pub contexts: Registry<ContextEntry>,
    pub devices: Vec<DeviceCtx>,
    /// Enabled peer access: (accessing device, peer device).
    pub peers: BTreeSet<(u32, u32)>,
    /// Destroyed streams that still hold operations back (their work must not be lost).
    pub zombies: Vec<StreamEntry>,
    /// Race detection: the host threads' clocks, by thread ordinal.
    pub hosts: Vec<HostClock>,
    next_stream: u32,
    pub next_event: u32,
    pub next_context: u32,
}

pub(crate) struct ProcShared {
    pub id: ProcessId,
    pub machine: u64,
    pub state: Mutex<ProcState>,
    /// Per device: fallible operations, faults and the sticky error (read by every call without the state
    /// lock).
    pub watch: Vec<Arc<DeviceWatch>>,
    /// `aclInit` state: never, initialised, finalised.
    init: Mutex<Option<bool>>,
    next_thread: AtomicU32,
}

impl ProcShared {
    pub fn new(m: &Shared, id: ProcessId) -> ProcShared {
        let tag = crate::handle::machine_tag(m.id);
        let watch: Vec<Arc<DeviceWatch>> = (0..m.device_count())
            .map(|_| Arc::new(DeviceWatch::default()))
            .collect();
        ProcShared {
            id,
            machine: m.id,
            state: Mutex::new(ProcState {
                streams: Registry::new(ObjectKind::Stream, TAG_STREAM, tag, id.0 as u64),
                events: Registry::new(ObjectKind::Event, TAG_EVENT, tag, id.0 as u64),
                contexts: Registry::new(ObjectKind::Context, TAG_CONTEXT, tag, id.0 as u64),
                devices: (0..m.device_count()).map(|_| DeviceCtx::new()).collect(),
                peers: BTreeSet::new(),
                zombies: Vec::new(),
                hosts: Vec::new(),
                next_stream: 1,
                next_event: 1,
                next_context: 1,
            }),
            watch,
            next_thread: AtomicU32::new(0),
            init: Mutex::new(None),
        }
    }
}

/// What an enqueue adds to a stream. Small (40 bytes): a kernel with no body, dependencies or declared accesses
/// has no `extra`, and allocates nothing; otherwise the box becomes the queued operation's (see [`Op`]).
pub(crate) struct OpSpec {
    pub cost_ns: u64,
    pub label: Cow<'static, str>,
    /// `None`: a plain kernel.
    pub extra: Option<Box<OpExtra>>,
}

impl OpSpec {
    /// An operation of `kind` doing `work`.
    pub fn new(cost_ns: u64, label: Cow<'static, str>, kind: OpKind, work: Work) -> OpSpec {
        OpSpec {
            cost_ns,
            label,
            extra: Some(Box::new(OpExtra::new(kind, work))),
        }
    }

    /// A kernel without a body, dependencies or declared accesses.
    pub fn plain_kernel(cost_ns: u64, label: Cow<'static, str>) -> OpSpec {
        OpSpec {
            cost_ns,
            label,
            extra: None,
        }
    }

    /// With dependencies.
    pub fn deps(mut self, deps: Vec<Point>) -> OpSpec {
        self.extra_mut().deps = deps;
        self
    }

    /// With declared accesses, checked for races when `who` is set.
    pub fn accesses(mut self, accesses: Vec<(Region, bool)>, who: Option<Who>) -> OpSpec {
        if who.is_some() {
            let x = self.extra_mut();
            x.accesses = accesses;
            x.who = who;
        }
        self
    }

    fn dep_list(&self) -> &[Point] {
        self.extra.as_ref().map_or(&[], |x| &x.deps)
    }

    fn extra_mut(&mut self) -> &mut OpExtra {
        self.extra
            .get_or_insert_with(|| Box::new(OpExtra::new(OpKind::Kernel, Work::Nothing)))
    }
}

/// A host thread's race-detection actor and clock.
///
/// The host's own component advances only when the host itself touches memory (`host_write`, `host_read`):
/// that is the only kind of step of a host thread that another step can race with. `version` counts the
/// changes, so that a stream joins the clock only when it changed.
pub(crate) struct HostClock {
    pub actor: Actor,
    pub vc: VectorClock,
    pub version: u64,
    pub thread: u32,
}

impl HostClock {
    /// One step of the host thread (a memory access).
    pub fn tick(&mut self) -> crate::race::clock::Epoch {
        self.version += 1;
        self.vc.tick(self.actor)
    }
}

impl ProcState {
    pub fn new_stream(
        &mut self,
        m: &Shared,
        process: ProcessId,
        (device, ctx): (u32, Option<u64>),
        kind: Option<StreamKind>,
        flags: StreamFlags,
        priority: i32,
    ) -> Result<u64> {
        // Checked before the worker starts: a stream that cannot get a handle starts nothing.
        self.streams.has_room()?;
        let special = kind.is_some();
        let next_stream = self.next_stream;
        let kind = match kind {
            Some(k) => k,
            None => StreamKind::Created(next_ordinal(
                &mut self.next_stream,
                ObjectKind::Stream,
                process,
            )?),
        };
        let id = StreamId {
            process,
            device,
            kind,
        };
        let (tx, exec) = m.spawn_worker(id).inspect_err(|_| {
            // A stream that could not start does not use up an ordinal.
            self.next_stream = next_stream;
        })?;
        self.streams.insert(StreamEntry {
            id,
            device,
            ctx,
            flags,
            priority,
            special,
            tx,
            exec,
            cursor: VirtualTime::ZERO,
            seq: 0,
            dispatched: 0,
            synced_legacy: 0,
            legacy_seen: 0,
            held: VecDeque::new(),
            actor: if m.race.on() { m.race.actor() } else { 0 },
            vc: VectorClock::default(),
            track: m.race.on(),
            host_seen: (u32::MAX, 0),
        })
    }

    /// The calling thread's current device and context: CUDA always has a device; ACL needs a live context.
    #[inline(always)]
    pub fn current(&self, m: &Shared, c: &Call, what: &'static str) -> Result<(u32, Option<u64>)> {
        if !m.rules.explicit_contexts {
            return match c.device {
                Some(d) => Ok((d, None)),
                None => Err(SimError::NoContext { what }),
            };
        }
        match c.ctx.and_then(|h| self.contexts.get(h).ok()) {
            Some(ctx) => Ok((ctx.device, c.ctx)),
            None => Err(SimError::NoContext { what }),
        }
    }

    /// Resolves the special handles (NULL; CUDA's legacy and per-thread) to a registry handle.
    #[inline]
    pub fn resolve_stream(&mut self, m: &Shared, c: &Call, raw: u64) -> Result<u64> {
        // Only 0, 1 and 2 can be special handles; the rest are validated where they are used.
        if raw > 2 {
            return Ok(raw);
        }
        self.resolve_special(m, c, raw)
    }

    fn resolve_special(&mut self, m: &Shared, c: &Call, raw: u64) -> Result<u64> {
        let what = "stream";
        let special = m.rules.special_stream_handles;
        match raw {
            0 if m.rules.default_stream == DefaultStream::PerContext => {
                let (dev, ctx) = self.current(m, c, what)?;
                let ch = ctx.expect("contexts exist where the default stream is per context");
                let entry = self.contexts.get(ch)?;
                if let Some(h) = entry.default_stream {
                    return Ok(h);
                }
                let kind = StreamKind::ContextDefault(entry.ordinal);
                let h = self.new_stream(
                    m,
                    c.process,
                    (dev, ctx),
                    Some(kind),
                    StreamFlags::DEFAULT,
                    0,
                )?;
                self.contexts.get_mut(ch)?.default_stream = Some(h);
                Ok(h)
            }
            0 | 1 if raw == 0 || special => {
                let (dev, _) = self.current(m, c, what)?;
                if let Some(h) = self.devices[dev as usize].legacy {
                    return Ok(h);
                }
                let h = self.new_stream(
                    m,
                    c.process,
                    (dev, None),
                    Some(StreamKind::Legacy),
                    StreamFlags::DEFAULT,
                    0,
                )?;
                self.devices[dev as usize].legacy = Some(h);
                Ok(h)
            }
            2 if special => {
                let (dev, _) = self.current(m, c, what)?;
                if let Some(&h) = self.devices[dev as usize].per_thread.get(&c.thread) {
                    return Ok(h);
                }
                let h = self.new_stream(
                    m,
                    c.process,
                    (dev, None),
                    Some(StreamKind::PerThread(c.thread)),
                    StreamFlags::DEFAULT,
                    0,
                )?;
                self.devices[dev as usize].per_thread.insert(c.thread, h);
                Ok(h)
            }
            // Validated where it is used.
            r => Ok(r),
        }
    }

    /// When `required` (a row of the dialect's [`crate::rules::OwnedCalls`]), checks that stream `h` belongs
    /// to the caller's current device (CUDA) or context (ACL).
    pub fn check_owner(
        &self,
        m: &Shared,
        c: &Call,
        what: &'static str,
        required: bool,
        h: u64,
    ) -> Result<()> {
        if !required {
            return Ok(());
        }
        let s = self.streams.get(h)?;
        let (device, ctx) = self.current(m, c, what)?;
        match m.rules.ownership {
            Ownership::Device if s.device != device => Err(SimError::WrongDevice {
                what,
                object: s.id.to_string(),
                object_device: s.device,
                expected: format!("the current device is {device}"),
            }),
            Ownership::Context if s.ctx != ctx => {
                let ordinal = |h: Option<u64>| {
                    h.and_then(|h| self.contexts.get(h).ok())
                        .map_or(0, |c| c.ordinal)
                };
                Err(SimError::WrongContext {
                    what,
                    object: format!("{} (device {})", s.id, s.device),
                    object_context: ordinal(s.ctx),
                    current: ordinal(ctx),
                })
            }
            _ => Ok(()),
        }
    }

    /// Appends an operation to stream `h` (already resolved), with the legacy default-stream edges, and
    /// returns the point it ends at.
    pub fn enqueue(&mut self, m: &Shared, c: &Call, h: u64, spec: OpSpec) -> Result<Point> {
        self.enqueue_with(m, c, h, spec, None)
    }

    /// Like [`ProcState::enqueue`]; with `deferred`, the operation also waits for the next record of that
    /// event issued after generation `after` (ACL `ACL_EVENT_SYNC`), and everything after it on the stream is
    /// held back until then.
    pub fn enqueue_with(
        &mut self,
        m: &Shared,
        c: &Call,
        h: u64,
        spec: OpSpec,
        deferred: Option<(Arc<Mutex<crate::event::EventState>>, u64)>,
    ) -> Result<Point> {
        self.enqueue_checked(m, c, h, spec, deferred, None)
    }

    /// [`ProcState::enqueue_with`], also checking (for the call `what`, when the dialect requires it) that the
    /// stream belongs to the caller's current device or context — with one registry lookup in the common case.
    pub fn enqueue_checked(
        &mut self,
        m: &Shared,
        c: &Call,
        h: u64,
        spec: OpSpec,
        deferred: Option<(Arc<Mutex<crate::event::EventState>>, u64)>,
        owner: Option<&'static str>,
    ) -> Result<Point> {
        self.enqueue_inner(m, c, h, spec, deferred, owner, true)
            .map(|p| p.expect("enqueue_inner returns a point when want_point is true"))
    }

    /// [`ProcState::enqueue_checked`] for a caller that does not need the operation's point (a launch).
    pub fn enqueue_discard(
        &mut self,
        m: &Shared,
        c: &Call,
        h: u64,
        spec: OpSpec,
        owner: Option<&'static str>,
    ) -> Result<()> {
        self.enqueue_inner(m, c, h, spec, None, owner, false)
            .map(drop)
    }

    #[allow(
        clippy::too_many_arguments,
        reason = "one internal entry for the enqueue variants"
    )]
    #[inline(always)]
    fn enqueue_inner(
        &mut self,
        m: &Shared,
        c: &Call,
        h: u64,
        mut spec: OpSpec,
        deferred: Option<(Arc<Mutex<crate::event::EventState>>, u64)>,
        owner: Option<&'static str>,
        want_point: bool,
    ) -> Result<Option<Point>> {
        let current = match owner {
            Some(what) => Some(self.current(m, c, what)?),
            None => None,
        };
        self.ensure_host(m, c.thread);
        let s = self.streams.get_mut(h)?;
        let owned = match (current, m.rules.ownership) {
            (None, _) => true,
            (Some((device, _)), Ownership::Device) => s.device == device,
            (Some((_, ctx)), Ownership::Context) => s.ctx == ctx,
        };
        if !owned {
            let what = owner.expect("checked only with an owner");
            return Err(self
                .check_owner(m, c, what, true, h)
                .expect_err("ownership differs"));
        }
        let dev = s.device as usize;
        if s.special && s.id.kind == StreamKind::Legacy {
            return self.enqueue_legacy(m, c, h, spec, deferred).map(Some);
        }
        // The edges an operation takes are marked as taken only once it is accepted (fail-fast race
        // detection can refuse it).
        let mut synced = None;
        if s.blocking()
            && let Some(l) = &self.devices[dev].last_legacy
            && l.seq > s.synced_legacy
        {
            synced = Some(l.seq);
            spec.extra_mut().deps.push(l.clone());
        }
        let pushed = Self::push_op(
            s,
            self.hosts.get_mut(c.thread as usize),
            m,
            c.now,
            spec,
            deferred,
        )?;
        if let Some(seq) = synced {
            s.synced_legacy = seq;
        }
        Ok(want_point.then(|| s.point(pushed)))
    }

    /// Appends to the legacy default stream: it first waits for all earlier work of the device's blocking
    /// streams (and of destroyed ones).
    fn enqueue_legacy(
        &mut self,
        m: &Shared,
        c: &Call,
        h: u64,
        mut spec: OpSpec,
        deferred: Option<(Arc<Mutex<crate::event::EventState>>, u64)>,
    ) -> Result<Point> {
        let device = self.streams.get(h)?.device;
        let dev = device as usize;
        // The edges are marked as taken only once the operation is accepted (fail-fast race detection can
        // refuse it).
        let mut deps: Vec<Point> = self.devices[dev].retired.clone();
        let mut seen = Vec::new();
        for (raw, s) in self.streams.iter_mut() {
            if s.device == device && s.blocking() && raw != h && s.seq > s.legacy_seen {
                seen.push((raw, s.seq));
                deps.push(s.tail());
            }
        }
        if !deps.is_empty() {
            spec.extra_mut().deps.append(&mut deps);
        }
        let pushed = Self::push_op(
            self.streams.get_mut(h)?,
            self.hosts.get_mut(c.thread as usize),
            m,
            c.now,
            spec,
            deferred,
        )?;
        // Accepted: the edges are taken.
        self.devices[dev].retired.clear();
        for (raw, seq) in seen {
            self.streams.get_mut(raw)?.legacy_seen = seq;
        }
        let s = self.streams.get_mut(h)?;
        let point = s.point(pushed);
        let point = match point.time() {
            Some(_) => point.with_vc(s.clock()),
            None => point,
        };
        self.devices[dev].last_legacy = Some(point.clone());
        Ok(point)
    }

    /// Gives operation `spec` the stream's next position: dispatched now, or held if its times cannot be
    /// fixed yet.
    #[inline(always)]
    fn push_op(
        s: &mut StreamEntry,
        host: Option<&mut HostClock>,
        m: &Shared,
        now: VirtualTime,
        spec: OpSpec,
        deferred: Option<(Arc<Mutex<crate::event::EventState>>, u64)>,
    ) -> Result<Pushed> {
        let hold = deferred.is_some()
            || !s.held.is_empty()
            || spec.dep_list().iter().any(|p| p.time().is_none());
        let seq = s.seq + 1;
        let point = if hold {
            let cell = Arc::new(OnceLock::new());
            s.held.push_back(HeldOp {
                now,
                seq,
                spec,
                cell: cell.clone(),
                host_vc: host.as_ref().map(|h| HostClock {
                    actor: h.actor,
                    vc: h.vc.clone(),
                    // A snapshot is joined whatever the stream has seen.
                    version: u64::MAX,
                    thread: h.thread,
                }),
                deferred,
            });
            Pushed::Held(cell)
        } else {
            Pushed::Done(s.dispatch(m, now, seq, spec, host.as_deref(), true)?)
        };
        s.seq = seq;
        Ok(point)
    }

    /// `point` (just enqueued on stream `h`) with the stream's clock at it, for a host that will wait on it.
    pub fn with_clock(&self, h: u64, point: Point) -> Result<Point> {
        Ok(match point.time() {
            Some(_) => point.with_vc(self.streams.get(h)?.clock()),
            None => point,
        })
    }

    /// Registers an event of `process` on `(device, context)` sharing record state `state`.
    pub fn add_event(
        &mut self,
        process: ProcessId,
        (device, ctx): (u32, Option<u64>),
        config: crate::event::EventConfig,
        state: Arc<Mutex<crate::event::EventState>>,
    ) -> Result<crate::Event> {
        self.events.has_room()?;
        let ordinal = next_ordinal(&mut self.next_event, ObjectKind::Event, process)?;
        Ok(crate::Event(self.events.insert(EventEntry {
            id: EventId { process, ordinal },
            device,
            ctx,
            config,
            state,
        })?))
    }

    /// Makes sure host thread `thread` has a race-detection clock (detection on).
    #[inline]
    pub fn ensure_host(&mut self, m: &Shared, thread: u32) {
        if m.race.on() && self.hosts.len() <= thread as usize {
            self.add_hosts(m, thread);
        }
    }

    #[cold]
    fn add_hosts(&mut self, m: &Shared, thread: u32) {
        {
            while self.hosts.len() <= thread as usize {
                let actor = m.race.actor();
                let mut vc = VectorClock::default();
                vc.tick(actor);
                let thread = self.hosts.len() as u32;
                self.hosts.push(HostClock {
                    actor,
                    vc,
                    version: 0,
                    thread,
                });
            }
        }
    }

    /// Host thread `thread` acquires the clocks of `points` (a synchronize or a completed query).
    pub fn acquire(&mut self, m: &Shared, thread: u32, points: &[Point]) {
        if m.race.on() {
            self.ensure_host(m, thread);
            let h = &mut self.hosts[thread as usize];
            for p in points {
                if let Some(v) = p.vc() {
                    h.vc.join(v);
                    h.version += 1;
                }
            }
        }
    }

    /// Releases every held operation that can run now, until nothing more can (a record can unblock a
    /// deferred wait, whose release fixes points that other held streams wait for).
    pub fn pump(&mut self, m: &Shared) {
        loop {
            let mut progress = false;
            for (_, s) in self.streams.iter_mut() {
                if !s.held.is_empty() {
                    progress |= s.release(m);
                }
            }
            for s in &mut self.zombies {
                progress |= s.release(m);
            }
            self.zombies.retain(|s| !s.held.is_empty());
            if !progress {
                return;
            }
        }
    }

    /// The tails of every stream of `device` (and of destroyed ones), for a wait on the whole device.
    pub fn device_tails(&mut self, device: u32, now: VirtualTime) -> Vec<Point> {
        let d = &mut self.devices[device as usize];
        // Forget an orphan only once it is both past in virtual time (so forgetting it changes no clock) and
        // really done.
        d.orphans
            .retain(|p| p.time().is_none_or(|t| t > now) || p.exec.completed() < p.seq);
        let mut points: Vec<Point> = d.orphans.clone();
        points.extend(
            self.streams
                .values()
                .filter(|s| s.device == device && s.seq > 0)
                .map(StreamEntry::tail),
        );
        points
    }
}

/// The per-host-thread state of one process.
struct ThreadState {
    ordinal: u32,
    device: Option<u32>,
    ctx: Option<u64>,
    clock: VirtualTime,
    last_error: Option<SimError>,
}

struct TlsEntry {
    machine: u64,
    process: ProcessId,
    alive: Weak<ProcShared>,
    st: ThreadState,
}

/// Everything the simulator keeps per OS thread, in one thread-local (one access per call).
struct ThreadLocal {
    /// Whether this thread is a stream worker.
    worker: Cell<bool>,
    /// The per-process states of this thread; `last` is the index used last.
    entries: RefCell<Vec<TlsEntry>>,
    last: Cell<usize>,
}

thread_local! {
    static THREAD: ThreadLocal = const {
        ThreadLocal {
            worker: Cell::new(false),
            entries: RefCell::new(Vec::new()),
            last: Cell::new(0),
        }
    };
}

/// Whether the calling thread is a stream worker (runtime calls from one are not permitted: they can only come
/// from inside a host function or kernel body).
pub(crate) fn on_worker_thread() -> bool {
    THREAD.with(|t| t.worker.get())
}

/// Marks the calling thread as a stream worker.
pub(crate) fn mark_worker_thread() {
    THREAD.with(|t| t.worker.set(true));
}

/// One call in progress: who is calling, and at what virtual time.
pub(crate) struct Call {
    pub process: ProcessId,
    pub thread: u32,
    /// The thread's current device (`None`: ACL thread with no device set). ACL code should use
    /// [`ProcState::current`], which also checks that the context is still alive.
    pub device: Option<u32>,
    pub ctx: Option<u64>,
    /// The host clock at the call (after the call overhead).
    pub now: VirtualTime,
    /// The host clock when the call returns; blocking calls raise it.
    pub clock: VirtualTime,
}

/// A simulated host process. A cheap `Clone + Send + Sync` handle; its streams, events and allocations are
/// its own (another process's handles are rejected). Each host thread that uses it has its own current
/// device (0 at first), virtual host clock and last error.
#[derive(Clone)]
pub struct Process {
    // Field order matters: the process state must go before the machine, whose drop joins the workers that
    // the state's stream queues keep alive.
    pub(crate) p: Arc<ProcShared>,
    pub(crate) m: Arc<Shared>,
}

impl std::fmt::Debug for Process {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Process")
            .field("id", &self.p.id)
            .field("machine", &self.m.id)
            .finish()
    }
}

impl Process {
    pub(crate) fn new(m: Arc<Shared>, p: Arc<ProcShared>) -> Process {
        Process { m, p }
    }

    /// This process's id on its machine.
    pub fn id(&self) -> ProcessId {
        self.p.id
    }

    /// The machine this process runs on.
    pub fn machine(&self) -> crate::Machine {
        crate::Machine {
            shared: self.m.clone(),
        }
    }

    /// Runs `f` on the calling thread's state. A stream worker (running a kernel body or a host function) is
    /// not a host thread of the process: it gets a fresh state that is not kept, so that it never takes a
    /// thread ordinal — which would otherwise depend on when the worker happened to run.
    fn with_thread<R>(&self, f: impl FnOnce(&mut ThreadState) -> R) -> R {
        THREAD.with(|t| {
            if t.worker.get() {
                let mut scratch = self.fresh_thread_state(u32::MAX);
                return f(&mut scratch);
            }
            self.thread_state(t, f)
        })
    }

    /// A host thread's state before its first call.
    fn fresh_thread_state(&self, ordinal: u32) -> ThreadState {
        ThreadState {
            ordinal,
            device: self.m.rules.implicit_device.then_some(0),
            ctx: None,
            clock: VirtualTime::ZERO,
            last_error: None,
        }
    }

    /// This process's state for the calling thread (made on first use).
    #[inline]
    fn thread_state<R>(&self, t: &ThreadLocal, f: impl FnOnce(&mut ThreadState) -> R) -> R {
        let mut v = t.entries.borrow_mut();
        let last = t.last.get();
        let i = match v.get(last) {
            Some(e) if e.machine == self.p.machine && e.process == self.p.id => last,
            _ => self.find_thread_state(&mut v),
        };
        t.last.set(i);
        f(&mut v[i].st)
    }

    #[cold]
    fn find_thread_state(&self, t: &mut Vec<TlsEntry>) -> usize {
        let pos = t
            .iter()
            .position(|e| e.machine == self.p.machine && e.process == self.p.id);
        match pos {
            Some(i) => i,
            None => {
                t.retain(|e| e.alive.strong_count() > 0);
                t.push(TlsEntry {
                    machine: self.p.machine,
                    process: self.p.id,
                    alive: Arc::downgrade(&self.p),
                    st: self.fresh_thread_state(self.p.next_thread.fetch_add(1, Ordering::Relaxed)),
                });
                t.len() - 1
            }
        }
    }

    /// Runs one runtime call: refuses it on a worker thread, advances the host clock by the call overhead,
    /// runs `f`, then stores the new clock and (on failure) the thread's last error.
    pub(crate) fn call<T>(
        &self,
        what: &'static str,
        f: impl FnOnce(&mut Call) -> Result<T>,
    ) -> Result<T> {
        self.call_with(what, true, f)
    }

    /// A call that works despite a sticky error (setting / resetting a device, reading state).
    pub(crate) fn call_unchecked<T>(
        &self,
        what: &'static str,
        f: impl FnOnce(&mut Call) -> Result<T>,
    ) -> Result<T> {
        self.call_with(what, false, f)
    }

    fn call_with<T>(
        &self,
        what: &'static str,
        sticky: bool,
        f: impl FnOnce(&mut Call) -> Result<T>,
    ) -> Result<T> {
        let api = self.m.hot.api_call_ns;
        let state = THREAD.with(|t| {
            if t.worker.get() {
                return None;
            }
            Some(self.thread_state(t, |st| {
                st.clock = st.clock.plus(api);
                (st.ordinal, st.device, st.ctx, st.clock)
            }))
        });
        let Some((thread, device, ctx, now)) = state else {
            return Err(SimError::NotPermitted { what });
        };
        let mut c = Call {
            process: self.p.id,
            thread,
            device,
            ctx,
            now,
            clock: now,
        };
        // The vendors' sticky error: once a call has seen a kernel fault, every later call returns it (of the
        // process or on that device, as the dialect says).
        let r = if sticky {
            self.check_sticky(device).and_then(|()| f(&mut c))
        } else {
            f(&mut c)
        };
        if c.clock != now || r.is_err() {
            self.with_thread(|st| {
                st.clock = st.clock.max(c.clock);
                if let Err(e) = &r {
                    st.last_error = Some(e.clone());
                }
            });
        }
        r
    }

    /// The calling thread's virtual host clock (does not advance it). Inside a kernel body or host function
    /// (not a host thread): zero.
    pub fn now(&self) -> VirtualTime {
        self.with_thread(|st| st.clock)
    }

    /// The calling thread's current device, without advancing the clock: CUDA starts every thread on
    /// device 0; ACL threads have none until they set a device or a context (`None`). Inside a kernel body or
    /// host function: what a thread that has made no call has.
    pub fn current_device(&self) -> Option<u32> {
        self.with_thread(|st| st.device)
    }

    pub(crate) fn set_thread_current(&self, device: Option<u32>, ctx: Option<u64>) {
        self.with_thread(|st| {
            st.device = device;
            st.ctx = ctx;
        });
    }

    /// The calling thread's last error, cleared (`cudaGetLastError`).
    pub fn take_last_error(&self) -> Option<SimError> {
        self.with_thread(|st| st.last_error.take())
    }

    /// Sets the calling thread's last error (for a facade's argument errors that never reach the core). Inside a
    /// kernel body or host function it is not kept (there is no host thread to keep it for).
    pub fn set_last_error(&self, e: SimError) {
        self.with_thread(|st| st.last_error = Some(e));
    }

    /// Initialises the runtime for this process (ACL `aclInit`); a second time is an error.
    pub fn runtime_init(&self) -> Result<()> {
        self.call_unchecked("runtime_init", |_| {
            let mut init = self.p.init.lock();
            if *init == Some(true) {
                return Err(SimError::Init {
                    what: "runtime_init",
                    problem: InitProblem::AlreadyInitialized,
                });
            }
            *init = Some(true);
            Ok(())
        })
    }

    /// Finalises the runtime for this process (ACL `aclFinalize`); a second time is an error.
    pub fn runtime_finalize(&self) -> Result<()> {
        self.call_unchecked("runtime_finalize", |_| {
            let mut init = self.p.init.lock();
            let problem = match *init {
                Some(true) => {
                    *init = Some(false);
                    return Ok(());
                }
                Some(false) => InitProblem::AlreadyFinalized,
                None => InitProblem::NotInitialized,
            };
            Err(SimError::Init {
                what: "runtime_finalize",
                problem,
            })
        })
    }

    /// The sticky error a call of this thread would return, if a call has seen a kernel fault (of any device
    /// of the process, or of the current device, as the dialect's [`StickyScope`](crate::rules::StickyScope)
    /// says). Does not advance the clock.
    pub fn sticky_error(&self) -> Option<SimError> {
        self.check_sticky(self.current_device()).err()
    }

    /// The sticky error for a call whose current device is `device`.
    #[inline]
    fn check_sticky(&self, device: Option<u32>) -> Result<()> {
        match self.m.rules.sticky_scope {
            crate::rules::StickyScope::Process => self.p.watch.iter().try_for_each(|w| w.check()),
            crate::rules::StickyScope::Device => {
                match device.and_then(|d| self.p.watch.get(d as usize)) {
                    Some(w) => w.check(),
                    None => Ok(()),
                }
            }
        }
    }

    /// The calling thread's last error, kept (`cudaPeekAtLastError`).
    pub fn peek_last_error(&self) -> Option<SimError> {
        self.with_thread(|st| st.last_error.clone())
    }

    /// The current device's stream priority range: (least, greatest).
    pub fn device_priority_range(&self) -> Result<(i32, i32)> {
        self.call("device_priority_range", |c| {
            let (d, _) = self.state().current(&self.m, c, "device_priority_range")?;
            Ok(self.m.devices[d as usize].priority_range)
        })
    }

    /// Records a blocking host call in the trace.
    pub(crate) fn host_event(&self, c: &Call, label: String) {
        if self.m.trace_on {
            self.m.host_events.lock().push(HostEvent {
                process: c.process,
                thread: c.thread,
                label,
                start: c.now,
                end: c.clock,
            });
        }
    }

    /// A device's sticky-error state in this process.
    pub(crate) fn watch(&self, device: u32) -> &DeviceWatch {
        &self.p.watch[device as usize]
    }

    pub(crate) fn state(&self) -> parking_lot::MutexGuard<'_, ProcState> {
        self.p.state.lock()
    }

    /// Moves the host clock past `points`, blocks until they have really run (no lock held), records the
    /// blocking call in the trace, and reports `device`'s fault if one happened by the new host time.
    ///
    /// A point whose time is not fixed (behind an ACL deferred wait whose record has not been issued) would
    /// block forever in a program whose calls come from this thread: that is [`SimError::WouldDeadlock`].
    pub(crate) fn block_on(
        &self,
        c: &mut Call,
        what: &'static str,
        device: u32,
        points: &[Point],
        label: impl FnOnce() -> String,
    ) -> Result<()> {
        self.wait_points(c, what, points, label)?;
        // A fault the call now observes is its answer, and sticky from now on.
        self.p.watch[device as usize].observe(points)
    }

    /// [`Process::block_on`] without the fault check.
    pub(crate) fn wait_points(
        &self,
        c: &mut Call,
        what: &'static str,
        points: &[Point],
        label: impl FnOnce() -> String,
    ) -> Result<()> {
        let mut until = c.now;
        for p in points {
            match p.time() {
                Some(t) => until = until.max(t),
                None => {
                    return Err(SimError::WouldDeadlock {
                        what,
                        stream: p.exec.id,
                    });
                }
            }
        }
        c.clock = c.clock.max(until);
        for p in points {
            p.wait();
        }
        self.state().acquire(&self.m, c.thread, points);
        self.host_event(c, label());
        Ok(())
    }
}

/// Streams and devices.
impl Process {
    /// Creates a stream on the current device.
    pub fn create_stream(&self, flags: StreamFlags) -> Result<crate::Stream> {
        self.create_stream_with_priority(flags, 0)
    }

    /// Creates a stream with a priority, clamped to the device's range (lower number = higher priority).
    pub fn create_stream_with_priority(
        &self,
        flags: StreamFlags,
        priority: i32,
    ) -> Result<crate::Stream> {
        self.call("create_stream", |c| {
            if flags.0 & !1 != 0 {
                return Err(SimError::InvalidFlags {
                    what: "create_stream",
                    flags: flags.0,
                    reason: "only NON_BLOCKING (0x1) is defined",
                });
            }
            let mut st = self.state();
            let (device, ctx) = st.current(&self.m, c, "create_stream")?;
            let (least, greatest) = self.m.devices[device as usize].priority_range;
            let priority = priority.clamp(greatest, least);
            let h = st.new_stream(&self.m, c.process, (device, ctx), None, flags, priority)?;
            Ok(crate::Stream(h))
        })
    }

    /// Destroys a stream. Work already queued still completes; the handle is dead at once.
    pub fn destroy_stream(&self, stream: crate::Stream) -> Result<()> {
        self.call("destroy_stream", |c| {
            let mut st = self.state();
            if stream.0 <= 2 || st.streams.get(stream.0)?.special {
                return Err(SimError::InvalidHandle {
                    kind: ObjectKind::Stream,
                    raw: stream.0,
                    problem: HandleProblem::NotAllowed,
                });
            }
            let owned = self.m.rules.owned.destroy;
            st.check_owner(&self.m, c, "destroy_stream", owned, stream.0)?;
            let s = st.streams.remove(stream.0)?;
            if s.blocking() && s.seq > s.legacy_seen {
                st.devices[s.device as usize].retired.push(s.tail());
            }
            if s.seq > 0 {
                st.devices[s.device as usize].orphans.push(s.tail());
            }
            if !s.held.is_empty() {
                // Work held behind a deferred wait still runs once its record is issued.
                st.zombies.push(s);
            }
            Ok(())
        })
    }

    /// Blocks until all work queued on `stream` has finished; reports the stream's fault if it has one.
    pub fn stream_synchronize(&self, stream: crate::Stream) -> Result<()> {
        self.call("stream_synchronize", |c| self.sync_stream(c, stream, None))
    }

    /// Like [`Process::stream_synchronize`], but gives up with [`SimError::Timeout`] once `timeout` of
    /// virtual time has passed (the host clock then stands at the call's time plus `timeout`).
    pub fn stream_synchronize_timeout(
        &self,
        stream: crate::Stream,
        timeout: std::time::Duration,
    ) -> Result<()> {
        self.call("stream_synchronize", |c| {
            self.sync_stream(c, stream, Some(timeout))
        })
    }

    fn sync_stream(
        &self,
        c: &mut Call,
        stream: crate::Stream,
        timeout: Option<std::time::Duration>,
    ) -> Result<()> {
        let what = "stream_synchronize";
        let (tail, device) = {
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            let s = st.streams.get(h)?;
            (s.tail(), s.device)
        };
        crate::event::check_timeout(c, what, tail.time(), timeout)?;
        let id = tail.exec.id;
        self.block_on(c, what, device, std::slice::from_ref(&tail), || {
            format!("stream_synchronize({id})")
        })
    }

    /// Whether all work queued on `stream` has finished at the calling thread's virtual time.
    pub fn stream_query(&self, stream: crate::Stream) -> Result<Status> {
        self.call("stream_query", |c| {
            let tail = {
                let mut st = self.state();
                let h = st.resolve_stream(&self.m, c, stream.0)?;
                st.streams.get(h)?.tail()
            };
            self.settle(c, &tail)
        })
    }

    /// A stream's flags.
    pub fn stream_flags(&self, stream: crate::Stream) -> Result<StreamFlags> {
        self.call("stream_flags", |c| {
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            Ok(st.streams.get(h)?.flags)
        })
    }

    /// A stream's priority (after clamping).
    pub fn stream_priority(&self, stream: crate::Stream) -> Result<i32> {
        self.call("stream_priority", |c| {
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            Ok(st.streams.get(h)?.priority)
        })
    }

    /// A stream's identity (for finding its operations in the trace). Does not advance the clock. Like a runtime
    /// call, it is [`SimError::NotPermitted`] inside a kernel body or host function (resolving the NULL stream
    /// may create it).
    pub fn stream_id(&self, stream: crate::Stream) -> Result<StreamId> {
        if on_worker_thread() {
            return Err(SimError::NotPermitted { what: "stream_id" });
        }
        let (thread, device, ctx) = self.with_thread(|st| (st.ordinal, st.device, st.ctx));
        let c = Call {
            process: self.p.id,
            thread,
            device,
            ctx,
            now: VirtualTime::ZERO,
            clock: VirtualTime::ZERO,
        };
        let mut st = self.p.state.lock();
        let h = st.resolve_stream(&self.m, &c, stream.0)?;
        Ok(st.streams.get(h)?.id)
    }

    /// Blocks until all work of every stream of the current device in this process (from any host thread) has
    /// finished; reports the device's first fault.
    pub fn device_synchronize(&self) -> Result<()> {
        self.call("device_synchronize", |c| {
            let (device, points) = {
                let mut st = self.state();
                let (device, _) = st.current(&self.m, c, "device_synchronize")?;
                (device, st.device_tails(device, c.now))
            };
            self.block_on(c, "device_synchronize", device, &points, || {
                format!("device_synchronize({device})")
            })
        })
    }
}

impl Process {
    /// A query's answer for `point` at the call's host time: complete iff its virtual time has passed, and
    /// then the work has really run (so its effects are visible and the host acquires it) — or the fault it
    /// observes.
    pub(crate) fn settle(&self, c: &Call, point: &Point) -> Result<Status> {
        if point.time().is_some_and(|t| t <= c.now) {
            point.wait();
            self.watch(point.exec.id.device)
                .observe(std::slice::from_ref(point))?;
            self.state()
                .acquire(&self.m, c.thread, std::slice::from_ref(point));
            Ok(Status::Complete)
        } else {
            Ok(Status::NotReady)
        }
    }
}
