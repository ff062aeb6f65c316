//! Held operations and the work a device synchronize covers: releasing held operations (the pump), expiring
//! timed waits, and the tails a device-wide wait or a drain covers — each at a cost that follows the work
//! that is live, not the streams a program has made:
//!
//! - the pump visits the streams holding operations ([`ProcState::holding`]);
//! - a device synchronize covers the streams with work no device synchronize has settled yet
//!   ([`DeviceCtx::active`]), destroyed streams whose work may still be running ([`DeviceCtx::orphans`]), and
//!   one point summing up everything finished before ([`DeviceCtx::settled`], a [`Summary`]);
//! - the legacy default stream's edges come from the blocking streams with work it has not seen
//!   ([`DeviceCtx::unseen`]), and from destroyed ones ([`DeviceCtx::retired`], their finished tails summed up in
//!   [`DeviceCtx::retired_done`]).
//!
//! A summary stands for finished work exactly: a call covering it moves its clock past the work's latest end
//! and acquires the join of its clocks, as it would by covering each point; only points that have really run,
//! with no fault at or before them and no blocking callback still to run, are summed up (the others are kept
//! as they are, so that their faults and callbacks are seen).
//!
//! Everything here runs under the process's state lock (see `state.rs`).

use std::collections::BTreeSet;
use std::sync::Arc;

#[cfg(doc)]
use super::DeviceCtx;
use super::{ProcState, StreamEntry};
use crate::engine::core::handle::{ProcessId, StreamId, StreamKind};
use crate::engine::core::time::VirtualTime;
use crate::engine::exec::point::{Point, StreamExec};
use crate::engine::machine::Shared;
use crate::engine::observe::race::clock::VectorClock;

/// What holds operations the pump may release: a stream of the registry, or lane `.1` of executable graph `.0`.
#[derive(Clone, Copy)]
enum Holder {
    Stream(u64),
    Lane(u64, usize),
}

/// Finished work of one device summed up in one point (see the module documentation).
#[derive(Default)]
pub(crate) struct Summary {
    /// The latest end, once something is summed up.
    end: Option<VirtualTime>,
    /// The join of the points' clocks (race detection on).
    vc: Option<Arc<VectorClock>>,
    /// The stand-in stream the summary's point is on: it has no work, so waiting for its point returns at once
    /// and it has no fault.
    exec: Option<Arc<StreamExec>>,
}

impl Summary {
    /// Whether `p` may be summed up: its time is fixed, it has really run, its stream has no fault at or before
    /// it, and every blocking callback it is ordered after has run.
    pub fn foldable(p: &Point) -> bool {
        p.time().is_some()
            && p.exec.completed() >= p.seq
            && p.exec.report(p.seq, false, false).is_none()
            && p.gates().iter().all(|g| g.is_finished())
    }

    /// Sums up `p` (which must be [`Summary::foldable`]).
    pub fn fold(&mut self, p: &Point) {
        let t = p.time().expect("only fixed points are summed up");
        self.end = Some(self.end.map_or(t, |e| e.max(t)));
        if let Some(v) = p.vc() {
            match &mut self.vc {
                Some(mine) => Arc::make_mut(mine).join(v),
                None => self.vc = Some(Arc::new(v.clone())),
            }
        }
    }

    /// Sums up the foldable points of `points`, keeping the others.
    pub fn fold_finished(&mut self, points: &mut Vec<Point>) {
        points.retain(|p| {
            let done = Summary::foldable(p);
            if done {
                self.fold(p);
            }
            !done
        });
    }

    /// The point standing for what is summed up (`None`: nothing is), on device `device` of `process`.
    pub fn point(&mut self, process: ProcessId, device: u32) -> Option<Point> {
        let end = self.end?;
        let exec = self.exec.get_or_insert_with(|| {
            let id = StreamId {
                process,
                device,
                kind: StreamKind::Legacy,
            };
            Arc::new(StreamExec::new(id, None))
        });
        Some(Point::new(exec.clone(), 0, end).with_vc(self.vc.clone()))
    }
}

/// What a wait on a whole device covers ([`ProcState::device_tails`]).
pub(crate) struct DeviceWork {
    pub points: Vec<Point>,
    /// The streams whose tails are `points[first_active..]` (up to the summary), in that order.
    active: Vec<u64>,
    first_active: usize,
}

impl ProcState {
    /// Releases every held operation that can run now, until nothing more can (a record can unblock a
    /// deferred wait, whose release fixes points that other held streams wait for).
    pub fn pump(&mut self, m: &Shared) {
        let lanes_hold = || {
            self.graphs
                .execs
                .values()
                .any(|x| x.lanes.iter().any(|s| !s.held.is_empty()))
        };
        if self.holding.is_empty() && self.zombies.is_empty() && !lanes_hold() {
            return;
        }
        let mut released = false;
        loop {
            let mut progress = false;
            // Streams released in one step are dispatched by priority (lower number first; then in stream
            // order, which is the handles' order, and the lanes of executable graphs, outside the registry and
            // few, after the streams of their priority): the engine model gives the higher-priority stream's
            // kernel the slot both could take (see `docs/semantics/engine-model.md`). A lane has the priority of
            // the stream its graph was last launched into.
            let mut order: Vec<(i32, Holder)> = self
                .holding
                .iter()
                .map(|&h| {
                    let priority = self.streams.get(h).map_or(0, |s| s.priority);
                    (priority, Holder::Stream(h))
                })
                .collect();
            for (x, exec) in self.graphs.execs.iter_mut() {
                for (i, s) in exec.lanes.iter().enumerate() {
                    if !s.held.is_empty() {
                        order.push((s.priority, Holder::Lane(x, i)));
                    }
                }
            }
            order.sort_by_key(|&(priority, _)| priority);
            for (_, holder) in order {
                let h = match holder {
                    Holder::Lane(x, i) => {
                        if let Ok(exec) = self.graphs.execs.get_mut(x)
                            && let Some(s) = exec.lanes.get_mut(i)
                        {
                            progress |= s.release(m);
                        }
                        continue;
                    }
                    Holder::Stream(h) => h,
                };
                match self.streams.get_mut(h) {
                    Ok(s) => {
                        progress |= s.release(m);
                        if s.held.is_empty() {
                            self.holding.remove(&h);
                        }
                    }
                    // Destroyed (its held work went with it to the zombies) or reset.
                    Err(_) => {
                        self.holding.remove(&h);
                    }
                }
            }
            for s in &mut self.zombies {
                progress |= s.release(m);
            }
            self.zombies.retain(|s| !s.held.is_empty());
            if !progress {
                break;
            }
            released = true;
        }
        if released {
            // A thread blocked on one of the points just fixed may go on.
            self.board.notify();
        }
    }

    /// Expires the timed waits that `points` are held behind (transitively, through the held dependencies of
    /// other streams) whose deadline is not after `horizon` (`None`: whatever their deadline), then pumps. Whether
    /// any expired. A thread calls this when nothing else could release them before `horizon` (see
    /// `Process::fix_points`).
    pub fn expire_for(
        &mut self,
        m: &Shared,
        points: &[Point],
        horizon: Option<VirtualTime>,
    ) -> bool {
        let mut any = false;
        loop {
            let mut progress = false;
            let mut work: Vec<Point> = points
                .iter()
                .filter(|p| p.time().is_none())
                .cloned()
                .collect();
            let mut seen = BTreeSet::new();
            while let Some(p) = work.pop() {
                let key = (Arc::as_ptr(&p.exec) as usize, p.seq);
                if !seen.insert(key) {
                    continue;
                }
                // A point not fixed yet is that of an operation held by a stream: one of those holding some.
                let live = self.holding.iter().copied().find(|&h| {
                    self.streams
                        .get(h)
                        .is_ok_and(|s| Arc::ptr_eq(&s.exec, &p.exec))
                });
                let entry = match live {
                    Some(h) => self.streams.get_mut(h).ok(),
                    None => self
                        .zombies
                        .iter_mut()
                        .chain(
                            self.graphs
                                .execs
                                .iter_mut()
                                .flat_map(|(_, x)| x.lanes.iter_mut()),
                        )
                        .find(|s| Arc::ptr_eq(&s.exec, &p.exec)),
                };
                let Some(s) = entry else {
                    continue;
                };
                if s.expire_head(m, horizon) {
                    progress = true;
                    break;
                }
                if let Some(head) = s.held.front() {
                    work.extend(
                        head.spec
                            .dep_list()
                            .iter()
                            .filter(|d| d.time().is_none())
                            .cloned(),
                    );
                }
            }
            if !progress {
                return any;
            }
            any = true;
            self.pump(m);
        }
    }

    /// How many points of destroyed streams and lanes the process keeps (not summed up yet), for tests that
    /// check that churn does not pile them up.
    pub fn destroyed_tails(&self) -> usize {
        self.zombies.len()
            + self
                .devices
                .iter()
                .map(|d| d.orphans.len() + d.retired.len())
                .sum::<usize>()
    }

    /// For every stream (and destroyed ones), its worker and how many of its operations have been dispatched
    /// (the held ones excluded), for [`crate::Machine::drain`].
    pub fn dispatched_tails(
        &self,
        out: &mut Vec<(Arc<crate::engine::exec::point::StreamExec>, u64)>,
    ) {
        let lanes = self.graphs.execs.values().flat_map(|x| x.lanes.iter());
        for s in self.streams.values().chain(&self.zombies).chain(lanes) {
            out.push((s.exec.clone(), s.seq - s.held.len() as u64));
        }
        for d in &self.devices {
            out.extend(
                d.orphans
                    .iter()
                    .filter(|p| p.time().is_some())
                    .map(|p| (p.exec.clone(), p.seq)),
            );
        }
    }

    /// Everything `device`'s streams (and destroyed ones) were given, for a wait on the whole device: the
    /// destroyed streams' tails that may not have run, the tails of the streams with work not settled yet, and
    /// the summary of the rest.
    pub fn device_tails(&mut self, process: ProcessId, device: u32) -> DeviceWork {
        let d = &mut self.devices[device as usize];
        d.settled.fold_finished(&mut d.orphans);
        let mut points: Vec<Point> = d.orphans.clone();
        let first_active = points.len();
        let mut active = Vec::with_capacity(d.active.len());
        let streams = &self.streams;
        d.active.retain(|&h| match streams.get(h) {
            Ok(s) => {
                active.push(h);
                points.push(s.tail());
                true
            }
            // Removed with its context (ACL), after its work was waited for.
            Err(_) => false,
        });
        // The lanes of executable graphs (outside the registry; few), after the streams `active` names.
        points.extend(
            self.graphs
                .execs
                .values()
                .flat_map(|x| x.lanes.iter())
                .filter(|s| s.device == device && s.seq > 0)
                .map(StreamEntry::tail),
        );
        points.extend(d.settled.point(process, device));
        DeviceWork {
            points,
            active,
            first_active,
        }
    }

    /// After a wait for all of `work` (of `device`): the streams whose tails it covered and that have been given
    /// nothing since, and the destroyed streams' tails, are summed up where they may be (see [`Summary`]); the
    /// next wait on the device covers only what comes after.
    pub fn settle_device(&mut self, device: u32, work: &DeviceWork) {
        let d = &mut self.devices[device as usize];
        for (&h, p) in work.active.iter().zip(&work.points[work.first_active..]) {
            let Ok(s) = self.streams.get_mut(h) else {
                continue;
            };
            if s.seq == p.seq && s.held.is_empty() && Summary::foldable(p) {
                d.settled.fold(p);
                d.active.remove(&h);
                s.listed_active = false;
            }
        }
        d.settled.fold_finished(&mut d.orphans);
    }
}

impl StreamEntry {
    /// Notes that the stream `h` of `dev` was just given an operation: it has work a device synchronize has not
    /// settled, and (blocking streams other than the legacy one) work the legacy default stream has not seen.
    #[inline]
    pub(super) fn note_work(&mut self, h: u64, dev: &mut super::DeviceCtx, legacy_edges: bool) {
        if !self.listed_active {
            self.listed_active = true;
            dev.active.insert(h);
        }
        if legacy_edges && !self.listed_unseen && self.blocking() {
            self.listed_unseen = true;
            dev.unseen.insert(h);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Kernel, Machine, StreamFlags};

    /// 1,000 stream lifetimes (create a blocking stream, launch a kernel writing a buffer, synchronize the
    /// stream, destroy it) leave nothing behind that a record, a wait, a device synchronize or a legacy-stream
    /// operation would visit: no active, unseen or holding stream, no orphaned or retired tail (each finished
    /// tail is summed up), and 2 actor numbers in use (the host thread's, and the last writer's, which its
    /// record still names) out of 3 ever made.
    #[test]
    fn stream_lifetimes_leave_nothing_to_visit() {
        let m = Machine::builder().devices(1).build().unwrap();
        let p = m.process();
        let buf = p.malloc(4096).unwrap();
        for _ in 0..1_000 {
            let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
            p.launch(s, Kernel::new("k").writes(buf, 4096)).unwrap();
            p.stream_synchronize(s).unwrap();
            p.destroy_stream(s).unwrap();
        }
        let st = p.p.state.lock();
        let d = &st.devices[0];
        assert_eq!(
            (d.active.len(), d.unseen.len(), st.holding.len()),
            (0, 0, 0)
        );
        assert_eq!((d.orphans.len(), d.retired.len()), (0, 0));
        assert!(d.settled.end.is_some() && d.retired_done.end.is_some());
        assert_eq!(m.shared.race.actors.in_use(), (2, 3));
    }
}
