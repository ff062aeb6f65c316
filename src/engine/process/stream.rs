//! [`StreamEntry`]: a stream as the process sees it (its virtual cursor, sequence numbers, held operations and
//! race-detection clock), handing operations to the stream's worker ([`StreamEntry::dispatch`]), the clock step
//! of race detection, and [`HeldOp`]s released once their dependencies are fixed. Also what an enqueue carries
//! ([`OpSpec`]) and a host thread's clock ([`HostClock`]).
//!
//! Everything here runs under the owning process's state lock (see `state.rs`); releasing a deferred wait also
//! locks the event's record state briefly.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::sync::{Arc, OnceLock};

use parking_lot::Mutex;

#[cfg(doc)]
use super::ProcState;
use super::StreamFlags;
use crate::engine::error::Result;
use crate::engine::exec::{Fixed, Op, OpExtra, OpSender, Point, StreamExec, Work};
use crate::engine::handle::StreamId;
use crate::engine::machine::Shared;
use crate::engine::memory::Region;
use crate::engine::race::Who;
use crate::engine::race::clock::{Actor, VectorClock};
use crate::engine::time::{VirtualTime, schedule};
use crate::engine::trace::OpKind;

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
    /// The (host thread, clock version) this stream's clock last joined.
    pub(super) host_seen: (u32, u64),
    /// Race detection: who the last operation with declared accesses was (reused while the same call site
    /// enqueues the same operation; see `Process::who`).
    pub last_who: Option<crate::engine::race::Who>,
}

/// An operation whose times cannot be fixed yet.
pub(crate) struct HeldOp {
    pub(super) now: VirtualTime,
    pub(super) seq: u64,
    pub(super) spec: OpSpec,
    pub(super) cell: Arc<OnceLock<Fixed>>,
    /// The enqueueing host thread's clock at the call (race detection on).
    pub(super) host_vc: Option<HostClock>,
    /// Wait for the next record of this event issued after generation `after`.
    pub(super) deferred: Option<(Arc<Mutex<crate::engine::event::EventState>>, u64)>,
}

/// Where an enqueued operation went: dispatched (ending at that time) or held.
pub(crate) enum Pushed {
    Done(VirtualTime),
    Held(Arc<OnceLock<Fixed>>),
}

/// Declared accesses to check for races at dispatch, and who makes them: lent by the enqueueing call, so that
/// a checked kernel needs no boxed [`OpExtra`] (an operation held back gets a copy in its own).
pub(crate) type Checked<'a> = (&'a [(Region, bool)], &'a crate::engine::race::Who);

/// One step of a stream's clock: joins the enqueueing host thread's clock (only when it changed since the
/// stream last joined it, as recorded in `seen`) and the dependencies' clocks, then ticks `actor`.
#[inline(always)]
fn advance(
    vc: &mut VectorClock,
    actor: Actor,
    seen: &mut (u32, u64),
    host: Option<&HostClock>,
    deps: &[Point],
) -> crate::engine::race::clock::Epoch {
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
    pub(super) fn point(&self, pushed: Pushed) -> Point {
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

    /// Fixes the times of the stream's next operation (enqueued at host time `now` by a thread whose clock was `host_vc`),
    /// checks its accesses for races, and hands it to the worker. With `may_fail` and fail-fast detection, a race
    /// is returned as an error and nothing changes.
    #[inline(always)]
    pub(super) fn dispatch(
        &mut self,
        m: &Shared,
        now: VirtualTime,
        spec: OpSpec,
        host: Option<&HostClock>,
        may_fail: bool,
        check: Option<Checked<'_>>,
    ) -> Result<VirtualTime> {
        let OpSpec {
            cost_ns,
            label,
            mut extra,
        } = spec;
        if self.track {
            match (check, extra.as_deref_mut()) {
                (Some(check), x) => {
                    let deps = x.map_or(&[][..], |x| &x.deps[..]);
                    self.advance_checked(m, check, deps, host, may_fail)?;
                }
                (None, Some(x)) if x.who.is_some() => {
                    let accesses = std::mem::take(&mut x.accesses);
                    let who = x.who.take().expect("checked operations name who they are");
                    self.advance_checked(m, (&accesses, &who), &x.deps, host, may_fail)?;
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
        let end = start.plus(cost_ns);
        self.cursor = end;
        // The worker numbers operations by arrival, and they arrive in `seq` order: `push_op` dispatches only
        // when nothing is held, and `release` dispatches the held ones front to back.
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
        (accesses, who): Checked<'_>,
        deps: &[Point],
        host: Option<&HostClock>,
        may_fail: bool,
    ) -> Result<()> {
        if may_fail && m.race.mode == crate::engine::race::RaceDetection::FailFast {
            let mut vc = self.vc.clone();
            // A dry run does not record that the stream has seen the host's clock.
            let mut seen = self.host_seen;
            let epoch = advance(&mut vc, self.actor, &mut seen, host, deps);
            crate::engine::race::check(m, accesses, epoch, &vc, who, may_fail)?;
            self.vc = vc;
        } else {
            let epoch = advance(&mut self.vc, self.actor, &mut self.host_seen, host, deps);
            crate::engine::race::check(m, accesses, epoch, &self.vc, who, may_fail)?;
        }
        Ok(())
    }

    /// Releases held operations whose dependencies are fixed; whether any was.
    pub(super) fn release(&mut self, m: &Shared) -> bool {
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
                .dispatch(m, h.now, h.spec, h.host_vc.as_ref(), false, None)
                .expect("a dispatch with may_fail = false does not fail: a race is reported, not returned");
            let _ = h.cell.set(Fixed {
                time: end,
                vc: self.clock(),
            });
            progress = true;
        }
        progress
    }

    pub(super) fn blocking(&self) -> bool {
        !self.flags.is_non_blocking()
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

    pub(super) fn dep_list(&self) -> &[Point] {
        self.extra.as_ref().map_or(&[], |x| &x.deps)
    }

    pub(super) fn extra_mut(&mut self) -> &mut OpExtra {
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
    pub fn tick(&mut self) -> crate::engine::race::clock::Epoch {
        self.version += 1;
        self.vc.tick(self.actor)
    }
}
