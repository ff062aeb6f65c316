//! The capture rules that other calls ask (under the process's state lock): whether an operation enqueued on
//! a stream is captured or run, and whether a synchronize, a query or a potentially unsafe call is allowed
//! while captures are in progress. A refused call invalidates the captures it concerns where the dialect says
//! so ([`crate::rules::CaptureRules::violations_invalidate`]).

use std::panic::Location;

use super::CaptureMode;
use super::node::NodeOp;
use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{CaptureProblem, Result, SimError};
use crate::engine::core::handle::{GraphNode, StreamId, StreamKind};
use crate::engine::core::rules::DefaultStream;
use crate::engine::machine::Shared;
use crate::engine::process::ProcState;

/// Where an operation enqueued on a stream goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Route {
    /// To the stream: it runs.
    Eager,
    /// Into the graph of this capture: it becomes a node.
    Capture(u64),
}

impl ProcState {
    /// Refuses a call with `problem`, invalidating the captures `ids` where the dialect says so.
    pub(crate) fn capture_refusal(
        &mut self,
        m: &Shared,
        ids: &[u64],
        what: &'static str,
        stream: Option<StreamId>,
        problem: CaptureProblem,
    ) -> SimError {
        if m.rules.capture.violations_invalidate {
            self.graphs.captures.invalidate(ids);
        }
        SimError::Capture {
            what,
            stream,
            problem,
        }
    }

    /// Where an operation that call `what` enqueues on stream `h` (resolved) goes: into a capture if the stream
    /// is capturing (refused if that capture was invalidated), else to the stream — except on CUDA's legacy
    /// stream while a blocking stream of its device captures, which would depend on the capture (refused,
    /// `cudaErrorStreamCaptureImplicit`).
    #[inline]
    pub(crate) fn capture_route(
        &mut self,
        m: &Shared,
        h: u64,
        what: &'static str,
    ) -> Result<Route> {
        if self.graphs.captures.is_empty() {
            return Ok(Route::Eager);
        }
        self.capture_route_slow(m, h, what)
    }

    #[cold]
    fn capture_route_slow(&mut self, m: &Shared, h: u64, what: &'static str) -> Result<Route> {
        if let Some(cid) = self.graphs.captures.of_stream(h) {
            let invalidated = self.graphs.captures.get(cid).is_some_and(|c| c.invalidated);
            if invalidated {
                let id = self.streams.get(h)?.id;
                return Err(SimError::Capture {
                    what,
                    stream: Some(id),
                    problem: CaptureProblem::Invalidated,
                });
            }
            return Ok(Route::Capture(cid));
        }
        self.check_legacy(m, h, what)?;
        Ok(Route::Eager)
    }

    /// CUDA's legacy stream encompasses the blocking streams of its device: while one of them captures, any use
    /// of it would depend on the capture (Programming Guide §4.2.2.1.2.2).
    fn check_legacy(&mut self, m: &Shared, h: u64, what: &'static str) -> Result<()> {
        let ids = self.blocking_captures(m, h)?;
        if ids.is_empty() {
            return Ok(());
        }
        let id = self.streams.get(h)?.id;
        Err(self.capture_refusal(m, &ids, what, Some(id), CaptureProblem::Implicit))
    }

    /// If `h` is CUDA's legacy stream: the captures of its device that a blocking stream takes part in.
    pub(crate) fn blocking_captures(&self, m: &Shared, h: u64) -> Result<Vec<u64>> {
        let s = self.streams.get(h)?;
        if m.rules.default_stream != DefaultStream::Legacy
            || !s.special
            || s.id.kind != StreamKind::Legacy
        {
            return Ok(Vec::new());
        }
        let device = s.device;
        Ok(self
            .graphs
            .captures
            .iter()
            .filter(|c| {
                c.device == device
                    && c.members.keys().any(|&mh| {
                        self.streams
                            .get(mh)
                            .is_ok_and(|ms| !ms.flags.is_non_blocking())
                    })
            })
            .map(|c| c.id)
            .collect())
    }

    /// A synchronize or query of stream `h` (resolved): refused while it captures, and on the legacy stream
    /// while a blocking stream of its device captures.
    pub(crate) fn check_stream_sync(
        &mut self,
        m: &Shared,
        h: u64,
        what: &'static str,
    ) -> Result<()> {
        if self.graphs.captures.is_empty() {
            return Ok(());
        }
        if let Some(cid) = self.graphs.captures.of_stream(h) {
            let id = self.streams.get(h)?.id;
            return Err(self.capture_refusal(
                m,
                &[cid],
                what,
                Some(id),
                CaptureProblem::Unsupported,
            ));
        }
        self.check_legacy(m, h, what)
    }

    /// A synchronize of the whole `device`: refused while any stream of it captures; every capture of the
    /// device is concerned ("a broader handle which encompasses an active stream capture").
    pub(crate) fn check_device_sync(
        &mut self,
        m: &Shared,
        device: u32,
        what: &'static str,
    ) -> Result<()> {
        if self.graphs.captures.is_empty() {
            return Ok(());
        }
        let ids = self.graphs.captures.on_device(device);
        if ids.is_empty() {
            return Ok(());
        }
        Err(self.capture_refusal(m, &ids, what, None, CaptureProblem::Unsupported))
    }

    /// A potentially unsafe call `what` by host thread `thread` whose capture mode is `mode`: refused while a
    /// capture prohibits it (the rule of `cudaThreadExchangeStreamCaptureMode`), concerning those captures.
    pub(crate) fn check_unsafe(
        &mut self,
        m: &Shared,
        thread: u32,
        mode: CaptureMode,
        what: &'static str,
    ) -> Result<()> {
        if self.graphs.captures.is_empty() || !m.rules.capture.unsafe_calls.contains(&what) {
            return Ok(());
        }
        let ids: Vec<u64> = self
            .graphs
            .captures
            .iter()
            .filter(|c| {
                let own = c.thread == thread && c.mode != CaptureMode::Relaxed;
                match mode {
                    CaptureMode::Relaxed => false,
                    CaptureMode::ThreadLocal => own,
                    CaptureMode::Global => own || c.mode == CaptureMode::Global,
                }
            })
            .map(|c| c.id)
            .collect();
        if ids.is_empty() {
            return Ok(());
        }
        Err(self.capture_refusal(m, &ids, what, None, CaptureProblem::Prohibited))
    }

    /// A query, synchronize or elapsed time of event `event` (a registry handle): refused if its latest record
    /// was made in a capture (it stands for graph nodes); otherwise the call is potentially unsafe.
    pub(crate) fn check_event_use(
        &mut self,
        m: &Shared,
        event: u64,
        thread: u32,
        mode: CaptureMode,
        what: &'static str,
    ) -> Result<()> {
        if let Some(rec) = &self.events.get(event)?.captured {
            let live = self.graphs.captures.get(rec.capture).is_some();
            let ids = if live { vec![rec.capture] } else { Vec::new() };
            return Err(self.capture_refusal(m, &ids, what, None, CaptureProblem::CapturedEvent));
        }
        self.check_unsafe(m, thread, mode, what)
    }

    /// Stream `h` is being destroyed: refused while it captures where the dialect says so; otherwise it leaves its
    /// capture, and a capture begun on it ends with its graph discarded (there is no stream left to end it on).
    pub(crate) fn capture_stream_destroyed(&mut self, m: &Shared, h: u64) -> Result<()> {
        let Some(cid) = self.graphs.captures.of_stream(h) else {
            return Ok(());
        };
        if !m.rules.capture.destroy_capturing {
            let id = self.streams.get(h)?.id;
            return Err(SimError::Capture {
                what: EngineCall::DestroyStream.name(),
                stream: Some(id),
                problem: CaptureProblem::DestroyCapturing,
            });
        }
        let origin = self.graphs.captures.get(cid).is_some_and(|c| c.origin == h);
        if origin {
            if let Some(cap) = self.graphs.captures.terminate(cid) {
                match cap.existing {
                    // A capture into the program's graph: the graph keeps the nodes it had.
                    Some(n) => {
                        let _ = self.graphs.truncate_graph(cap.graph, n, &m.memory);
                        if let Ok(g) = self.graphs.graphs.get_mut(cap.graph) {
                            g.capture = None;
                        }
                    }
                    None => drop(self.graphs.remove_graph(cap.graph, &m.memory)),
                }
            }
        } else {
            self.graphs.captures.leave(h);
        }
        Ok(())
    }

    /// Appends node `op` to capture `cid` for stream `h`: it depends on the stream's dependency set, which
    /// becomes the node alone.
    pub(crate) fn capture_node(
        &mut self,
        cid: u64,
        h: u64,
        op: NodeOp,
        site: &'static Location<'static>,
    ) -> Result<GraphNode> {
        let cap = self
            .graphs
            .captures
            .get(cid)
            .expect("a routed capture is in progress");
        let graph = cap.graph;
        let member = cap.members.get(&h).expect("a routed stream is a member");
        let (deps, stream) = (member.deps.clone(), member.id);
        let index = self.graphs.graphs.get(graph)?.nodes.len() as u32;
        let node = self.graphs.push_node(graph, deps, op, site, Some(stream))?;
        let member = self
            .graphs
            .captures
            .get_mut(cid)
            .and_then(|c| c.members.get_mut(&h))
            .expect("a routed stream is a member");
        member.deps = vec![index];
        member.info = None;
        Ok(node)
    }
}
