//! Held operations and the work a device synchronize covers: releasing held operations (the pump), expiring
//! timed waits, and the tails a device-wide wait or a drain covers.
//!
//! Everything here runs under the process's state lock (see `state.rs`).

use std::collections::BTreeSet;
use std::sync::Arc;

use super::{ProcState, StreamEntry};
use crate::engine::exec::Point;
use crate::engine::machine::Shared;
use crate::engine::time::VirtualTime;

impl ProcState {
    /// Releases every held operation that can run now, until nothing more can (a record can unblock a
    /// deferred wait, whose release fixes points that other held streams wait for).
    pub fn pump(&mut self, m: &Shared) {
        let mut released = false;
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
                let entry = self
                    .streams
                    .iter_mut()
                    .map(|(_, s)| s)
                    .chain(self.zombies.iter_mut())
                    .find(|s| Arc::ptr_eq(&s.exec, &p.exec));
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

    /// For every stream (and destroyed ones), its worker and how many of its operations have been dispatched
    /// (the held ones excluded), for [`crate::Machine::drain`].
    pub fn dispatched_tails(&self, out: &mut Vec<(Arc<crate::engine::exec::StreamExec>, u64)>) {
        for s in self.streams.values().chain(&self.zombies) {
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
