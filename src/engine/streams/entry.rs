//! [`StreamEntry`]: a stream as the process sees it (its virtual cursor, sequence numbers, held operations and
//! race-detection clock), handing operations to the stream's worker ([`StreamEntry::dispatch`]), the clock step
//! of race detection, and [`HeldOp`]s released once their dependencies are fixed. Also what an enqueue carries
//! ([`OpSpec`]) and a host thread's clock ([`HostClock`]).
//!
//! Everything here runs under the owning process's state lock (see `state.rs`); releasing a deferred wait also
//! locks the event's record state briefly.

use std::collections::VecDeque;
use std::sync::{Arc, OnceLock};

use crate::engine::core::error::{Result, SimError};
use crate::engine::core::handle::StreamId;
use crate::engine::core::labels::{EventVerb, Label};
use crate::engine::core::races::Who;
use crate::engine::core::time::{VirtualTime, schedule};
use crate::engine::exec::copy_engines::Claim;
use crate::engine::exec::copy_engines::place;
use crate::engine::exec::point::{Fixed, Point, StreamExec};
use crate::engine::exec::{Op, OpExtra, OpSender, Work};
use crate::engine::machine::Shared;
use crate::engine::memory::block::Region;
use crate::engine::observe::race::clock::{Actor, VectorClock};
use crate::engine::observe::trace::OpKind;

pub(crate) struct StreamEntry {
    pub id: StreamId,
    /// The name given with `Process::name_stream`.
    pub name: Option<Arc<str>>,
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
    /// The machine's actor table (race detection on), told when the stream's actor takes no more steps.
    pub actors: Option<Arc<crate::engine::observe::race::clock::Actors>>,
    /// The (host thread, clock version) this stream's clock last joined.
    pub(crate) host_seen: (u32, u64),
    /// Race detection: who the last operation with declared accesses was (reused while the same call site
    /// enqueues the same operation; see `Process::who`).
    pub last_who: Option<crate::engine::core::races::Who>,
    /// The failure mode set on this stream (ACL `aclrtGetStreamAttribute` reads it); the dialect's default until a
    /// program sets one. The mode in force also depends on the context (see [`crate::rules::FailureMode::Stop`]).
    pub failure_mode: crate::engine::core::rules::FailureMode,
    /// (mode `Stop`) the fault its context reported: new tasks are refused with it.
    pub stopped: Option<crate::engine::core::error::SimError>,
    /// Where its host callbacks go (see `report.rs`).
    pub callbacks: crate::engine::callbacks::reports::CallbackRoute,
    /// The blocking callbacks not yet run that its later work is ordered after (its own, and those of the
    /// streams it waited for).
    pub cb_gates: Vec<Arc<crate::engine::exec::callback::Callback>>,
    /// Whether it is in its device's `active` set (work no device synchronize has settled; see `live.rs`).
    pub listed_active: bool,
    /// Whether it is in its device's `unseen` set (work the legacy stream has not seen).
    pub listed_unseen: bool,
    /// Its device's copy engines and kernel slots, shared by the process's streams of the device (`None`: the
    /// engine model is off). A leaf lock, taken under the process's state lock.
    pub engines: Option<Arc<parking_lot::Mutex<crate::engine::exec::copy_engines::DeviceEngines>>>,
}

impl Drop for StreamEntry {
    fn drop(&mut self) {
        // The sender goes with the entry: from now on the stream's work is what it was given (see `Done::wait`).
        self.exec.close(self.seq);
        // Its thread may serve the next stream created once this one is drained (`workers.rs`).
        crate::engine::exec::workers::retire(&self.exec);
        // Nothing more is dispatched: the stream's actor takes no more steps (its number is reused once no
        // shadow record names it; see `race/clock.rs`).
        if let Some(actors) = &self.actors {
            actors.release(self.actor, self.vc.get(self.actor));
        }
    }
}

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

/// An operation whose times cannot be fixed yet.
pub(crate) struct HeldOp {
    pub(crate) now: VirtualTime,
    pub(crate) seq: u64,
    pub(crate) spec: OpSpec,
    pub(crate) cell: Arc<OnceLock<Fixed>>,
    /// The enqueueing host thread's clock at the call (race detection on).
    pub(crate) host_vc: Option<HostClock>,
    /// What the operation waits for before its dependency is known (see `gate.rs`).
    pub(crate) deferred: Option<crate::engine::exec::gate::Gate>,
}

/// Where an enqueued operation went: dispatched (ending at that time) or held.
pub(crate) enum Pushed {
    Done(VirtualTime),
    Held(Arc<OnceLock<Fixed>>),
}

/// Declared accesses to check for races at dispatch, and who makes them: lent by the enqueueing call, so that
/// a checked kernel needs no boxed [`OpExtra`] (an operation held back gets a copy in its own).
pub(crate) type Checked<'a> = (&'a [(Region, bool)], &'a crate::engine::core::races::Who);

/// One step of a stream's clock: joins the enqueueing host thread's clock (only when it changed since the
/// stream last joined it, as recorded in `seen`) and the dependencies' clocks, then ticks `actor`.
#[inline(always)]
fn advance(
    vc: &mut VectorClock,
    actor: Actor,
    seen: &mut (u32, u64),
    host: Option<&HostClock>,
    deps: &[Point],
) -> crate::engine::observe::race::clock::Epoch {
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
    pub(crate) fn point(&self, pushed: Pushed) -> Point {
        let p = match pushed {
            Pushed::Done(end) => Point::new(self.exec.clone(), self.seq, end),
            Pushed::Held(cell) => Point::pending(self.exec.clone(), self.seq, cell),
        };
        p.with_gates(self.gates())
    }

    pub fn tail(&self) -> Point {
        let p = match self.held.back() {
            Some(h) => Point::pending(self.exec.clone(), h.seq, h.cell.clone()),
            None => Point::new(self.exec.clone(), self.seq, self.cursor).with_vc(self.clock()),
        };
        p.with_gates(self.gates())
    }

    /// The blocking callbacks not yet run that the stream's next point is ordered after.
    fn gates(&self) -> Option<Arc<Vec<Arc<crate::engine::exec::callback::Callback>>>> {
        if self.cb_gates.is_empty() {
            return None;
        }
        let live: Vec<_> = self
            .cb_gates
            .iter()
            .filter(|cb| !cb.is_finished())
            .cloned()
            .collect();
        (!live.is_empty()).then(|| Arc::new(live))
    }

    /// Takes on the callbacks that the dependencies `deps` are ordered after, and forgets those that have run.
    pub(crate) fn inherit_gates(&mut self, deps: &[Point]) {
        if !self.cb_gates.is_empty() {
            self.cb_gates.retain(|cb| !cb.is_finished());
        }
        for d in deps {
            for g in d.gates() {
                if !g.is_finished() && !self.cb_gates.iter().any(|x| Arc::ptr_eq(x, g)) {
                    self.cb_gates.push(g.clone());
                }
            }
        }
    }

    /// A snapshot of the stream's vector clock (race detection on).
    pub fn clock(&self) -> Option<Arc<VectorClock>> {
        self.track.then(|| Arc::new(self.vc.clone()))
    }

    /// Fixes the times of the stream's next operation (enqueued at host time `now` by a thread whose clock was `host_vc`),
    /// checks its accesses for races, and hands it to the worker. With `may_fail` and fail-fast detection, a race
    /// is returned as an error and nothing changes.
    #[inline(always)]
    pub(crate) fn dispatch(
        &mut self,
        m: &Shared,
        now: VirtualTime,
        spec: OpSpec,
        host: Option<&HostClock>,
        may_fail: bool,
        check: Option<Checked<'_>>,
    ) -> Result<VirtualTime> {
        let OpSpec {
            mut cost_ns,
            label,
            mut extra,
            ..
        } = spec;
        // What it occupies while it runs: a kernel slot, a copy engine, or nothing (read before a plain
        // kernel's box is dropped below).
        let claim = match extra.as_deref().map(|x| &x.kind) {
            None | Some(OpKind::Kernel) => Some(Claim::Kernel),
            Some(OpKind::Memcpy { path, .. }) => Claim::of_copy(*path),
            Some(_) => None,
        };
        // A wait with a timeout whose dependencies end after its deadline gives up then, without them.
        if let Some(x) = extra.as_deref_mut()
            && let Some(t) = x.wait_timeout
        {
            let own = schedule(self.cursor, now, m.hot.launch_latency_ns, []);
            let done = x.deps.iter().filter_map(Point::time).max();
            if matches!(x.work, Work::Fail(_)) || done.is_some_and(|d| d > own.plus(t)) {
                x.deps.clear();
                if !matches!(x.work, Work::Fail(_)) {
                    x.work = Work::Fail(timed_out(self.id, &label.text(), Some(t)));
                }
                cost_ns = t;
            }
        }
        if self.track {
            match (check, extra.as_deref_mut()) {
                (Some(check), x) => {
                    let deps = x.map_or(&[][..], |x| &x.deps[..]);
                    self.advance_checked(m, check, deps, host, may_fail, None)?;
                }
                (None, Some(x)) if x.who.is_some() => {
                    let accesses = std::mem::take(&mut x.accesses);
                    let who = x.who.take().expect("checked operations name who they are");
                    let life = x.life.take();
                    self.advance_checked(m, (&accesses, &who), &x.deps, host, may_fail, life)?;
                }
                (None, x) => {
                    let deps = x.map_or(&[][..], |x| &x.deps[..]);
                    advance(&mut self.vc, self.actor, &mut self.host_seen, host, deps);
                }
            }
            // With its accesses checked, a kernel with no body and no dependencies is a plain kernel to the
            // worker: drop the box here (on the thread that made it) rather than send it.
            if extra.as_deref().is_some_and(OpExtra::is_plain_kernel) {
                extra = None;
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
        let start = place(self.engines.as_deref(), claim, start, cost_ns);
        let end = start.plus(cost_ns);
        self.cursor = end;
        // The worker numbers operations by arrival, and they arrive in `seq` order: `push_op` dispatches only
        // when nothing is held, and `release` dispatches the held ones front to back.
        if let Some(s) = &m.serial {
            s.dispatched(&self.exec);
        }
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
    #[allow(clippy::too_many_arguments, reason = "one step, with what it checks")]
    fn advance_checked(
        &mut self,
        m: &Shared,
        (accesses, who): Checked<'_>,
        deps: &[Point],
        host: Option<&HostClock>,
        may_fail: bool,
        life: Option<(
            Arc<crate::engine::memory::block::Block>,
            crate::engine::core::races::LifePoint,
        )>,
    ) -> Result<()> {
        let lifetime = |vc: &VectorClock, epoch| match &life {
            Some((block, point)) => crate::engine::observe::race::lifetime(
                &m.race,
                block,
                *point,
                (epoch, vc),
                who,
                may_fail,
            ),
            None => Ok(()),
        };
        if may_fail && m.race.mode == crate::engine::core::races::RaceDetection::FailFast {
            let mut vc = self.vc.clone();
            // A dry run does not record that the stream has seen the host's clock.
            let mut seen = self.host_seen;
            let epoch = advance(&mut vc, self.actor, &mut seen, host, deps);
            crate::engine::observe::race::check(&m.race, accesses, epoch, &vc, who, may_fail)?;
            lifetime(&vc, epoch)?;
            crate::engine::observe::race::kernel_ranges::stamp_pending(&m.race, epoch, &vc, who);
            self.vc = vc;
        } else {
            let epoch = advance(&mut self.vc, self.actor, &mut self.host_seen, host, deps);
            crate::engine::observe::race::check(&m.race, accesses, epoch, &self.vc, who, may_fail)?;
            lifetime(&self.vc, epoch)?;
            // A CPU-run kernel's launch: its real accesses are checked when it has run.
            crate::engine::observe::race::kernel_ranges::stamp_pending(
                &m.race, epoch, &self.vc, who,
            );
        }
        Ok(())
    }

    /// Releases held operations whose dependencies are fixed; whether any was.
    pub(crate) fn release(&mut self, m: &Shared) -> bool {
        let mut progress = false;
        while let Some(head) = self.held.front_mut() {
            if let Some(gate) = &head.deferred {
                let Some(dep) = gate.open() else {
                    break;
                };
                if let Some(p) = dep {
                    head.spec.extra_mut().deps.push(p);
                }
                head.deferred = None;
            }
            if head.spec.dep_list().iter().any(|p| p.time().is_none()) {
                break;
            }
            self.dispatch_head(m);
            progress = true;
        }
        progress
    }

    /// Dispatches the head of the held queue (its dependencies fixed, or cleared by an expiry) and fixes its
    /// point.
    fn dispatch_head(&mut self, m: &Shared) {
        let h = self
            .held
            .pop_front()
            .expect("the held queue's head was just examined under the same lock");
        let end = self
            .dispatch(m, h.now, h.spec, h.host_vc.as_ref(), false, None)
            .expect(
                "a dispatch with may_fail = false does not fail: a race is reported, not returned",
            );
        let _ = h.cell.set(Fixed {
            time: end,
            vc: self.clock(),
        });
    }

    /// The deadline of the held queue's head, if it is a wait with a timeout: its own start (as if it waited
    /// for nothing) plus the timeout.
    pub(crate) fn head_deadline(&self, m: &Shared) -> Option<VirtualTime> {
        let head = self.held.front()?;
        let t = head.spec.extra.as_ref()?.wait_timeout?;
        Some(schedule(self.cursor, head.now, m.hot.launch_latency_ns, []).plus(t))
    }

    /// Expires the held queue's head if it is a wait with a timeout whose deadline is not after `horizon`
    /// (`None`: whatever its deadline): it is dispatched as timed out (see [`StreamEntry::dispatch`]), its gate
    /// abandoned. Whether it was.
    pub(crate) fn expire_head(&mut self, m: &Shared, horizon: Option<VirtualTime>) -> bool {
        let Some(deadline) = self.head_deadline(m) else {
            return false;
        };
        if horizon.is_some_and(|h| deadline > h) {
            return false;
        }
        let head = self.held.front_mut().expect("a head has a deadline");
        if let Some(gate) = head.deferred.take() {
            gate.abandon();
        }
        let err = timed_out(
            self.id,
            &head.spec.label.text(),
            head.spec.extra.as_ref().and_then(|x| x.wait_timeout),
        );
        let x = head.spec.extra_mut();
        // What it waited for does not matter any more: it gives up at its deadline.
        x.deps.clear();
        x.work = Work::Fail(err);
        self.dispatch_head(m);
        true
    }

    pub(crate) fn blocking(&self) -> bool {
        !self.flags.is_non_blocking()
    }
}

/// The error of a wait of `stream` labelled `label` that gave up after `timeout` nanoseconds.
fn timed_out(stream: StreamId, label: &str, timeout: Option<u64>) -> SimError {
    SimError::WaitTimedOut {
        stream,
        label: label.to_string(),
        timeout_ms: timeout.unwrap_or(0) / 1_000_000,
    }
}

/// What an enqueue adds to a stream. Small (48 bytes): a kernel with no body, dependencies or declared accesses,
/// and an event record, have no `extra` and allocate nothing; otherwise the box becomes the queued operation's
/// (see [`Op`]).
pub(crate) struct OpSpec {
    pub cost_ns: u64,
    pub label: Label,
    /// `None`: a plain kernel.
    pub extra: Option<Box<OpExtra>>,
    /// A synchronous copy or memset: not a task a context in the failure mode `Stop` refuses (the vendor's
    /// sample copies results back after such a failure).
    pub synchronous: bool,
}

impl OpSpec {
    /// An operation of `kind` doing `work`.
    pub fn new(cost_ns: u64, label: impl Into<Label>, kind: OpKind, work: Work) -> OpSpec {
        OpSpec {
            cost_ns,
            label: label.into(),
            extra: Some(Box::new(OpExtra::new(kind, work))),
            synchronous: false,
        }
    }

    /// A kernel without a body, dependencies or declared accesses.
    pub fn plain_kernel(cost_ns: u64, label: impl Into<Label>) -> OpSpec {
        OpSpec {
            cost_ns,
            label: label.into(),
            extra: None,
            synchronous: false,
        }
    }

    /// A record of event `event` (named `name` at the call): no box, its label says what it is.
    pub fn record(event: crate::engine::core::handle::EventId, name: Option<Arc<str>>) -> OpSpec {
        OpSpec {
            cost_ns: 0,
            label: Label::Event {
                verb: EventVerb::Record,
                id: event,
                name,
            },
            extra: None,
            synchronous: false,
        }
    }

    /// What the operation is (a record's kind is in its label).
    pub fn kind(&self) -> OpKind {
        match (&self.extra, self.label.record_of()) {
            (Some(x), _) => x.kind.clone(),
            (None, Some(event)) => OpKind::Record { event },
            (None, None) => OpKind::Kernel,
        }
    }

    /// Marks a synchronous copy or memset (see [`OpSpec::synchronous`]).
    pub fn synchronous(mut self, yes: bool) -> OpSpec {
        self.synchronous = yes;
        self
    }

    /// A wait that gives up after `ns` nanoseconds (see [`OpExtra::wait_timeout`]); `None` or 0: never.
    pub fn wait_timeout(mut self, ns: Option<u64>) -> OpSpec {
        self.extra_mut().wait_timeout = ns.filter(|&t| t > 0);
        self
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

    /// A lifetime point of `block` (a stream-ordered allocation or free), checked for races as `who` when set.
    pub fn life(
        mut self,
        block: Arc<crate::engine::memory::block::Block>,
        point: crate::engine::core::races::LifePoint,
        who: Option<Who>,
    ) -> OpSpec {
        if who.is_some() {
            let x = self.extra_mut();
            x.life = Some((block, point));
            x.who = who;
        }
        self
    }

    pub(crate) fn dep_list(&self) -> &[Point] {
        self.extra.as_ref().map_or(&[], |x| &x.deps)
    }

    pub(crate) fn extra_mut(&mut self) -> &mut OpExtra {
        if self.extra.is_none() {
            self.extra = Some(Box::new(OpExtra::new(self.kind(), Work::Nothing)));
        }
        self.extra.as_mut().expect("made above")
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
    pub fn tick(&mut self) -> crate::engine::observe::race::clock::Epoch {
        self.version += 1;
        self.vc.tick(self.actor)
    }
}
