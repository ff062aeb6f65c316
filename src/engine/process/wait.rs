//! Waiting for points: a blocking call first needs the virtual times of the points it covers. A point behind a
//! held wait (an ACL deferred wait, a notify or value wait before its record or write) has none yet: the call
//! then blocks on the process's wait board (`board.rs`) while another host thread could still release it, and
//! the timed waits it is held behind give up when nothing else can release them in time. Once every time is
//! fixed, the host clock moves past them (or to the call's own deadline), the call blocks until the work has
//! really run (a blocking host callback it is ordered after having been run by its thread, `report.rs`), and
//! acquires it.
//!
//! Lock order: the state lock is taken and released around each step; none is held while blocking.

use std::time::Duration;

use super::{Call, Process, Want, Woken};
use crate::engine::core::error::{Result, SimError};
use crate::engine::core::hang::{WaitCycle, WaitLink};
use crate::engine::core::time::{VirtualTime, saturating_nanos};
use crate::engine::exec::faults::Observe;
use crate::engine::exec::point::Point;

impl Process {
    /// [`Process::block_on`] with an optional timeout: when the work cannot end by the call's time plus
    /// `timeout` (virtual time), the host clock moves to that deadline and the call fails with
    /// [`SimError::Timeout`].
    #[allow(
        clippy::too_many_arguments,
        reason = "one internal entry for the synchronize calls"
    )]
    pub(crate) fn block_on_until(
        &self,
        c: &mut Call,
        what: &'static str,
        device: u32,
        points: &[Point],
        observe: Observe,
        timeout: Option<Duration>,
        label: impl FnOnce() -> String,
    ) -> Result<()> {
        self.wait_points_until(c, what, points, timeout, label)?;
        self.observe(device, points, observe)
    }

    /// Fixes the points' times (see the module), moves the host clock past them, blocks until they have really
    /// run, acquires them and records the blocking call in the trace.
    pub(crate) fn wait_points_until(
        &self,
        c: &mut Call,
        what: &'static str,
        points: &[Point],
        timeout: Option<Duration>,
        label: impl FnOnce() -> String,
    ) -> Result<()> {
        let deadline = timeout.map(|t| c.now.plus(saturating_nanos(t)));
        let timed_out = |c: &mut Call, t: Duration| {
            c.clock = c.clock.max(deadline.expect("a timeout has a deadline"));
            SimError::Timeout {
                what,
                timeout_ms: u64::try_from(t.as_millis()).unwrap_or(u64::MAX),
            }
        };
        if let Err(stream) = self.fix_points(c, points, deadline) {
            return Err(match timeout {
                Some(t) => timed_out(c, t),
                None => self.board_deadlock(c, what, stream),
            });
        }
        let until = points
            .iter()
            .filter_map(Point::time)
            .fold(c.now, VirtualTime::max);
        if let (Some(t), Some(d)) = (timeout, deadline)
            && until > d
        {
            return Err(timed_out(c, t));
        }
        // A blocking host callback ordered before them must have been run by its thread (`report.rs`).
        let gates: Vec<_> = points
            .iter()
            .flat_map(|p| p.gates().iter().cloned())
            .collect();
        self.wait_callbacks(c, what, &gates)?;
        c.clock = c.clock.max(until);
        for p in points {
            if let Some(cycle) = p.wait() {
                return Err(self.schedule_deadlock(c, what, p.exec.id, cycle));
            }
        }
        self.state().acquire(&self.m, c.thread, points);
        self.host_event(c, label);
        Ok(())
    }

    /// Under the serialize schedule: the calling host thread waits for the device in a way that is not one
    /// stream's point (the wait board, a callback to be reached), so the schedule runs operations meanwhile.
    pub(crate) fn device_demand(
        &self,
    ) -> Option<crate::engine::schedules::serialize::DemandGuard<'_>> {
        self.m.serial.as_ref().map(|s| s.demand(None))
    }

    /// [`SimError::WouldDeadlock`] for a wait the board found nothing can release: the calling thread waits for
    /// `stream`, held until something is issued that no live thread of the process can issue.
    pub(crate) fn board_deadlock(
        &self,
        c: &Call,
        what: &'static str,
        stream: crate::engine::core::handle::StreamId,
    ) -> SimError {
        SimError::WouldDeadlock {
            what,
            stream,
            cycle: WaitCycle(vec![
                WaitLink::HostThread {
                    process: c.process,
                    thread: c.thread,
                    call: what,
                },
                WaitLink::Held { stream },
                WaitLink::NoIssuer {
                    process: c.process,
                    // The threads of the board's verdict; none: the call itself is the one that would issue it.
                    blocked: self
                        .p
                        .board
                        .take_verdict(c.thread)
                        .unwrap_or_else(|| vec![c.thread]),
                },
            ]),
        }
    }

    /// [`SimError::WouldDeadlock`] for a wait for `stream` that the serialize schedule's watchdog found stuck
    /// (`cycle`: the running function, then what it holds back).
    pub(crate) fn schedule_deadlock(
        &self,
        c: &Call,
        what: &'static str,
        stream: crate::engine::core::handle::StreamId,
        cycle: WaitCycle,
    ) -> SimError {
        let mut links = vec![WaitLink::HostThread {
            process: c.process,
            thread: c.thread,
            call: what,
        }];
        links.extend(cycle.0);
        SimError::WouldDeadlock {
            what,
            stream,
            cycle: WaitCycle(links),
        }
    }

    /// Makes sure every point's virtual time is fixed: timed waits they are held behind whose deadline has
    /// passed by the call's time give up; then the call blocks while another host thread of the process could
    /// release them, and when none can, the timed waits give up if their deadline is not after `deadline` (the
    /// call's own, `None`: forever). `Err(stream)`: a held stream that nothing can release.
    fn fix_points(
        &self,
        c: &Call,
        points: &[Point],
        deadline: Option<VirtualTime>,
    ) -> std::result::Result<(), crate::engine::core::handle::StreamId> {
        if points.iter().all(|p| p.time().is_some()) {
            return Ok(());
        }
        self.state().expire_for(&self.m, points, Some(c.now));
        let unfixed: Vec<Point> = points
            .iter()
            .filter(|p| p.time().is_none())
            .cloned()
            .collect();
        let Some(first) = unfixed.first().map(|p| p.exec.id) else {
            return Ok(());
        };
        let _demand = self.device_demand();
        let woken = self
            .p
            .board
            .wait(c.thread, Want::Fixed(unfixed), deadline, |wants| {
                let mut st = self.state();
                let mut progress = false;
                for (want, horizon) in wants {
                    if let Want::Fixed(points) = want {
                        progress |= st.expire_for(&self.m, points, *horizon);
                    }
                }
                progress
            });
        match woken {
            Woken::Ready => Ok(()),
            Woken::Deadlock => Err(first),
        }
    }
}
