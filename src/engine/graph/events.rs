//! Events in a capture: a record on a capturing stream makes a captured record (no node); a wait on one forks
//! a stream into the capture or joins it; the External flags make record and wait nodes.

use super::capture::{CaptureRecord, merge_deps};
use super::gate::Route;
use super::node::NodeOp;
use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{CaptureProblem, Result, SimError};
use crate::engine::core::handle::{Event, Stream, StreamKind};
use crate::engine::machine::Shared;
use crate::engine::process::{ProcState, Process};

fn not_capturable(what: &'static str, id: crate::engine::core::handle::EventId) -> SimError {
    SimError::NotSupported {
        what,
        reason: format!(
            "event {id} cannot take part in a stream capture (made by aclrtCreateEvent or \
             aclrtCreateEventWithFlag without ACL_EVENT_EXTERNAL: use aclrtCreateEventExWithFlag)"
        ),
    }
}

impl ProcState {
    /// A record of event `event` (a registry handle) on stream `h`, which captures into `cid`: the event now
    /// stands for the stream's dependency set.
    pub(crate) fn capture_record(
        &mut self,
        m: &Shared,
        cid: u64,
        h: u64,
        event: u64,
        what: &'static str,
    ) -> Result<()> {
        let e = self.events.get(event)?;
        if m.rules.capture.needs_capturable_events && !e.config.capturable {
            return Err(not_capturable(what, e.id));
        }
        let deps = self
            .graphs
            .captures
            .get(cid)
            .and_then(|c| c.members.get(&h))
            .map(|m| m.deps.clone())
            .unwrap_or_default();
        self.events.get_mut(event)?.captured = Some(CaptureRecord { capture: cid, deps });
        Ok(())
    }

    /// A wait of stream `h` (resolved) on event `event`, where a capture is involved: a stream that is not
    /// capturing joins the capture of a captured record (a fork); a capturing stream adds a captured record of
    /// its own capture to its dependency set (a join). Whether the wait was handled here (`false`: an ordinary
    /// wait, neither the stream nor the event is in a capture).
    pub(crate) fn capture_wait(
        &mut self,
        m: &Shared,
        h: u64,
        event: u64,
        what: &'static str,
    ) -> Result<bool> {
        let e = self.events.get(event)?;
        if self.graphs.captures.is_empty() && e.captured.is_none() {
            return Ok(false);
        }
        let (id, capturable, record) = (e.id, e.config.capturable, e.captured.clone());
        let recorded = e.state.lock().newest().is_some();
        let s = self.streams.get(h)?;
        let stream = s.id;
        let default_stream = s.special
            && matches!(
                s.id.kind,
                StreamKind::Legacy | StreamKind::ContextDefault(_)
            );
        let device = s.device;
        let mine = self.graphs.captures.of_stream(h);
        let live = record
            .as_ref()
            .filter(|r| self.graphs.captures.get(r.capture).is_some());
        if (mine.is_some() || record.is_some())
            && m.rules.capture.needs_capturable_events
            && !capturable
        {
            return Err(not_capturable(what, id));
        }
        if let Some(cs) = mine
            && self.graphs.captures.get(cs).is_some_and(|c| c.invalidated)
        {
            return Err(SimError::Capture {
                what,
                stream: Some(stream),
                problem: CaptureProblem::Invalidated,
            });
        }
        let refuse = |st: &mut ProcState, ids: &[u64], p| {
            Err(st.capture_refusal(m, ids, what, Some(stream), p))
        };
        match (mine, live) {
            (Some(cs), Some(r)) if r.capture == cs => {
                let deps = r.deps.clone();
                if let Some(member) = self
                    .graphs
                    .captures
                    .get_mut(cs)
                    .and_then(|c| c.members.get_mut(&h))
                {
                    merge_deps(&mut member.deps, &deps);
                    member.info = None;
                }
                Ok(true)
            }
            (Some(cs), Some(r)) => {
                let other = r.capture;
                if m.rules.capture.merge_invalidates {
                    self.graphs.captures.invalidate(&[cs, other]);
                }
                refuse(self, &[cs, other], CaptureProblem::Merge)
            }
            (Some(cs), None) if record.is_some() => {
                refuse(self, &[cs], CaptureProblem::CapturedEvent)
            }
            // A wait on an event recorded outside the capture would cross its boundary; on a never-recorded
            // event it waits for nothing.
            (Some(cs), None) if recorded => refuse(self, &[cs], CaptureProblem::Isolation),
            (Some(_), None) => Ok(true),
            (None, Some(r)) => {
                let (cid, deps) = (r.capture, r.deps.clone());
                let cap = self
                    .graphs
                    .captures
                    .get(cid)
                    .expect("a live record's capture");
                if default_stream {
                    return refuse(self, &[cid], CaptureProblem::Implicit);
                }
                if cap.device != device {
                    return Err(SimError::NotSupported {
                        what,
                        reason: format!(
                            "{stream} is on device {device} and the capture on device {}: multi-device \
                             graphs are not simulated",
                            cap.device
                        ),
                    });
                }
                self.graphs.captures.join(cid, h, stream, deps);
                Ok(true)
            }
            (None, None) if record.is_some() => Err(SimError::Capture {
                what,
                stream: Some(stream),
                problem: CaptureProblem::CapturedEvent,
            }),
            (None, None) => Ok(false),
        }
    }
}

/// External event nodes.
impl Process {
    /// Records `event` on capturing `stream` as an event record node of the capture's graph (CUDA
    /// `cudaEventRecordWithFlags(…, cudaEventRecordExternal)`): each launch of the graph records the event after
    /// the node's dependencies, for work outside the graph to wait on. Outside a capture:
    /// [`CaptureProblem::NotCapturing`] ("invalid when used outside of capture").
    #[track_caller]
    pub fn record_event_external(&self, event: Event, stream: Stream) -> Result<()> {
        let site = std::panic::Location::caller();
        self.call(EngineCall::RecordEventExternal.name(), |c| {
            let what = EngineCall::RecordEventExternal.name();
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            let e = st.events.get(event.0)?;
            let (id, device) = (e.id, e.device);
            let s = st.streams.get(h)?;
            if device != s.device {
                return Err(SimError::WrongDevice {
                    what,
                    object: format!("event {id}"),
                    object_device: device,
                    expected: format!("{} is on device {}", s.id, s.device),
                });
            }
            st.check_owner(&self.m, c, what, self.m.rules.owned.record, h)?;
            match st.capture_route(&self.m, h, what)? {
                Route::Capture(cid) => {
                    let op = NodeOp::EventRecord { event: event.0, id };
                    st.capture_node(cid, h, op, site).map(drop)
                }
                Route::Eager => Err(SimError::Capture {
                    what,
                    stream: Some(st.streams.get(h)?.id),
                    problem: CaptureProblem::NotCapturing,
                }),
            }
        })
    }

    /// Makes capturing `stream` wait on `event` through an event wait node of the capture's graph (CUDA
    /// `cudaStreamWaitEvent(…, cudaEventWaitExternal)`): each launch waits for the event's record current at the
    /// launch (none: no wait). Outside a capture: [`CaptureProblem::NotCapturing`].
    #[track_caller]
    pub fn stream_wait_event_external(&self, stream: Stream, event: Event) -> Result<()> {
        let site = std::panic::Location::caller();
        self.call(EngineCall::StreamWaitEventExternal.name(), |c| {
            let what = EngineCall::StreamWaitEventExternal.name();
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            let id = st.events.get(event.0)?.id;
            st.check_owner(&self.m, c, what, self.m.rules.owned.wait, h)?;
            match st.capture_route(&self.m, h, what)? {
                Route::Capture(cid) => {
                    let op = NodeOp::EventWait { event: event.0, id };
                    st.capture_node(cid, h, op, site).map(drop)
                }
                Route::Eager => Err(SimError::Capture {
                    what,
                    stream: Some(st.streams.get(h)?.id),
                    problem: CaptureProblem::NotCapturing,
                }),
            }
        })
    }
}
