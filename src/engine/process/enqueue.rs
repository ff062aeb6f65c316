//! Enqueue: appending an operation to a stream under the process's state lock (see `state.rs` for the lock
//! order), with the legacy default stream's implicit edges (a blocking stream waits for the legacy stream's
//! last operation; the legacy stream waits for every blocking stream of its device), and the choice between
//! dispatching an operation now and holding it back.

use std::sync::{Arc, OnceLock};

use super::{Call, HostClock, OpSpec, ProcState, StreamEntry};
use crate::engine::core::error::Result;
use crate::engine::core::handle::StreamKind;
use crate::engine::core::rules::Ownership;
use crate::engine::core::time::VirtualTime;
use crate::engine::exec::gate::Gate;
use crate::engine::exec::point::Point;
use crate::engine::machine::Shared;
use crate::engine::streams::entry::{Checked, HeldOp, Pushed};

impl ProcState {
    /// Appends an operation to stream `h` (already resolved), with the legacy default-stream edges, and
    /// returns the point it ends at.
    pub fn enqueue(&mut self, m: &Shared, c: &Call, h: u64, spec: OpSpec) -> Result<Point> {
        self.enqueue_with(m, c, h, spec, None)
    }

    /// Like [`ProcState::enqueue`]; with `deferred`, the operation is held until its gate opens (the next record
    /// of an event, ACL `ACL_EVENT_SYNC`; a notify's record; a value write), and everything after it on the
    /// stream is held back until then.
    pub fn enqueue_with(
        &mut self,
        m: &Shared,
        c: &Call,
        h: u64,
        spec: OpSpec,
        deferred: Option<Gate>,
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
        deferred: Option<Gate>,
        owner: Option<&'static str>,
    ) -> Result<Point> {
        self.enqueue_inner(m, c, h, spec, deferred, owner, None, true)
            .map(|p| p.expect("enqueue_inner returns a point when want_point is true"))
    }

    /// [`ProcState::enqueue_checked`] for a caller that does not need the operation's point (a launch); with
    /// `check`, the operation's declared accesses are checked for races when it is dispatched.
    pub fn enqueue_discard(
        &mut self,
        m: &Shared,
        c: &Call,
        h: u64,
        spec: OpSpec,
        owner: Option<&'static str>,
        check: Option<Checked<'_>>,
    ) -> Result<()> {
        self.enqueue_inner(m, c, h, spec, None, owner, check, false)
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
        deferred: Option<Gate>,
        owner: Option<&'static str>,
        check: Option<Checked<'_>>,
        want_point: bool,
    ) -> Result<Option<Point>> {
        let current = match owner {
            Some(what) => Some(self.current(m, c, what)?),
            None => None,
        };
        self.ensure_host(m, c.thread);
        if !self.graphs.captures.is_empty() {
            // The calls that can be captured route their operation before they enqueue (see `graph/gate.rs`):
            // what reaches a capturing stream here cannot be captured.
            if let crate::engine::graph::gate::Route::Capture(cid) =
                self.capture_route(m, h, "enqueue")?
            {
                let id = self.streams.get(h)?.id;
                return Err(self.capture_refusal(
                    m,
                    &[cid],
                    "enqueue",
                    Some(id),
                    crate::engine::core::error::CaptureProblem::Unsupported,
                ));
            }
        }
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
        // A context that reported a fault in the failure mode `Stop` accepts no new task.
        if let Some(e) = &s.stopped
            && !spec.synchronous
        {
            return Err(e.clone());
        }
        let dev = s.device as usize;
        if s.special && s.id.kind == StreamKind::Legacy {
            return self
                .enqueue_legacy(m, c, h, spec, deferred, check)
                .map(Some);
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
            check,
            true,
        )?;
        if let Some(seq) = synced {
            s.synced_legacy = seq;
        }
        s.note_work(h, &mut self.devices[dev], true);
        if !s.held.is_empty() {
            self.holding.insert(h);
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
        deferred: Option<Gate>,
        check: Option<Checked<'_>>,
    ) -> Result<Point> {
        let device = self.streams.get(h)?.device;
        let dev = device as usize;
        // The edges are marked as taken only once the operation is accepted (fail-fast race detection can
        // refuse it).
        let (mut deps, seen) = self.legacy_edges(device, h);
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
            check,
            true,
        )?;
        // Accepted: the edges are taken.
        let d = &mut self.devices[dev];
        d.retired.clear();
        d.retired_done = Default::default();
        for (raw, seq) in seen {
            let s = self.streams.get_mut(raw)?;
            s.legacy_seen = seq;
            s.listed_unseen = false;
            d.unseen.remove(&raw);
        }
        let s = self.streams.get_mut(h)?;
        s.note_work(h, d, false);
        if !s.held.is_empty() {
            self.holding.insert(h);
        }
        let point = s.point(pushed);
        let point = match point.time() {
            Some(_) => point.with_vc(s.clock()),
            None => point,
        };
        self.devices[dev].last_legacy = Some(point.clone());
        Ok(point)
    }

    /// The earlier work of `device`'s blocking streams that the legacy default stream `h` does not depend on
    /// yet — the edges its next operation takes: the tails of destroyed blocking streams (the finished ones
    /// summed up in one point), and of every live blocking stream with work the legacy stream has not seen, with
    /// (handle, seq) of the latter.
    fn legacy_edges(&mut self, device: u32, h: u64) -> (Vec<Point>, Vec<(u64, u64)>) {
        let process = self
            .streams
            .get(h)
            .map_or(crate::ProcessId(0), |s| s.id.process);
        let d = &mut self.devices[device as usize];
        d.retired_done.fold_finished(&mut d.retired);
        let mut deps: Vec<Point> = d.retired.clone();
        deps.extend(d.retired_done.point(process, device));
        let mut seen = Vec::new();
        for &raw in &d.unseen {
            if let Ok(s) = self.streams.get(raw)
                && raw != h
                && s.seq > s.legacy_seen
            {
                seen.push((raw, s.seq));
                deps.push(s.tail());
            }
        }
        (deps, seen)
    }

    /// What a synchronize or a query of stream `h` (already resolved) covers: the stream's tail; for the
    /// legacy default stream also the earlier work of its device's blocking streams (not non-blocking ones)
    /// that its tail does not cover already — what its next operation would wait for
    /// (`docs/semantics/cuda-musa.md` · StreamQuery / StreamSynchronize · the NULL (legacy) stream). Nothing is
    /// marked as seen: a query or synchronize adds no edge between streams.
    pub fn covered(&mut self, h: u64) -> Result<Vec<Point>> {
        let s = self.streams.get(h)?;
        let (tail, device, legacy) = (
            s.tail(),
            s.device,
            s.special && s.id.kind == StreamKind::Legacy,
        );
        let mut points = vec![tail];
        if legacy {
            points.extend(self.legacy_edges(device, h).0);
        }
        Ok(points)
    }

    /// Pushes `spec` onto lane `s` of an executable graph (a stream outside the registry, see `graph/replay.rs`):
    /// dispatched now, or held until its dependencies are fixed. Its point, with the lane's clock. A race its
    /// accesses complete is reported, never refused (a launch does not stop half way).
    pub(crate) fn push_lane(
        s: &mut StreamEntry,
        host: Option<&mut HostClock>,
        m: &Shared,
        now: VirtualTime,
        spec: OpSpec,
    ) -> Point {
        let pushed = Self::push_op(s, host, m, now, spec, None, None, false)
            .expect("a dispatch with may_fail = false does not fail");
        let point = s.point(pushed);
        match point.time() {
            Some(_) => point.with_vc(s.clock()),
            None => point,
        }
    }

    /// Gives operation `spec` the stream's next position: dispatched now, or held if its times cannot be
    /// fixed yet. With `may_fail` and fail-fast race detection, a race is refused.
    #[allow(
        clippy::too_many_arguments,
        reason = "one internal entry for the enqueue variants"
    )]
    #[inline(always)]
    fn push_op(
        s: &mut StreamEntry,
        host: Option<&mut HostClock>,
        m: &Shared,
        now: VirtualTime,
        mut spec: OpSpec,
        deferred: Option<Gate>,
        check: Option<Checked<'_>>,
        may_fail: bool,
    ) -> Result<Pushed> {
        if !s.cb_gates.is_empty() || spec.dep_list().iter().any(|d| !d.gates().is_empty()) {
            s.inherit_gates(spec.dep_list());
        }
        let hold = deferred.is_some()
            || !s.held.is_empty()
            || spec.dep_list().iter().any(|p| p.time().is_none());
        let seq = s.seq + 1;
        let point = if hold {
            // Held: the operation keeps its own copy of what to check when it is dispatched.
            if let Some((accesses, who)) = check {
                spec = spec.accesses(accesses.to_vec(), Some(who.clone()));
            }
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
            Pushed::Done(s.dispatch(m, now, spec, host.as_deref(), may_fail, check)?)
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
}
