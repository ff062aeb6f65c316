//! The capture calls of [`Process`]: begin and end a capture, its status and dependencies, the calling
//! thread's capture mode.

use std::sync::Arc;

use super::capture::{merge_deps, unjoined};
use super::{CaptureInfo, CaptureMode, CaptureStatus};
use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{CaptureProblem, Result, SimError};
use crate::engine::core::handle::{Graph, GraphExec, GraphNode, Stream, StreamKind};
use crate::engine::process::{Call, ProcState, Process};

fn refuse(what: &'static str, st: &ProcState, h: u64, problem: CaptureProblem) -> SimError {
    SimError::Capture {
        what,
        stream: st.streams.get(h).ok().map(|s| s.id),
        problem,
    }
}

/// Capture.
impl Process {
    /// Begins a capture on `stream` (CUDA `cudaStreamBeginCapture`, ACL `aclmdlRICaptureBegin`): from now on the
    /// operations enqueued on it become nodes of a new graph instead of running. Refused on the default stream
    /// (CUDA's legacy stream, ACL's context default stream) and on a stream that is already capturing.
    pub fn begin_capture(&self, stream: Stream, mode: CaptureMode) -> Result<()> {
        self.call(EngineCall::BeginCapture.name(), |c| {
            let what = EngineCall::BeginCapture.name();
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            st.check_owner(&self.m, c, what, self.m.rules.owned.capture, h)?;
            let s = st.streams.get(h)?;
            if s.special
                && matches!(
                    s.id.kind,
                    StreamKind::Legacy | StreamKind::ContextDefault(_)
                )
            {
                return Err(refuse(what, &st, h, CaptureProblem::StreamCannotCapture));
            }
            if st.graphs.captures.of_stream(h).is_some() {
                return Err(refuse(what, &st, h, CaptureProblem::AlreadyCapturing));
            }
            let (id, device, ctx) = (s.id, s.device, s.ctx);
            let g = st.graphs.new_graph(c.process, device, ctx)?;
            let cid = st.graphs.captures.begin(h, id, g, mode, c.thread, device);
            st.graphs.graphs.get_mut(g)?.capture = Some(cid);
            Ok(())
        })
    }

    /// Begins a capture on `stream` into the existing `graph` (CUDA `cudaStreamBeginCaptureToGraph`): as
    /// [`Process::begin_capture`], but the captured nodes are added to `graph`, the first ones depending on
    /// `deps` (nodes of `graph`), and [`Process::end_capture`] returns `graph`. [`SimError::InvalidValue`] for a
    /// dead graph, a graph of another device than the stream's, a graph another capture is adding to, and a
    /// dependency that is not a node of `graph` or is listed twice.
    pub fn begin_capture_to_graph(
        &self,
        stream: Stream,
        graph: Graph,
        deps: &[GraphNode],
        mode: CaptureMode,
    ) -> Result<()> {
        self.call(EngineCall::BeginCaptureToGraph.name(), |c| {
            let what = EngineCall::BeginCaptureToGraph.name();
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            st.check_owner(&self.m, c, what, self.m.rules.owned.capture, h)?;
            let s = st.streams.get(h)?;
            if s.special
                && matches!(
                    s.id.kind,
                    StreamKind::Legacy | StreamKind::ContextDefault(_)
                )
            {
                return Err(refuse(what, &st, h, CaptureProblem::StreamCannotCapture));
            }
            if st.graphs.captures.of_stream(h).is_some() {
                return Err(refuse(what, &st, h, CaptureProblem::AlreadyCapturing));
            }
            let (id, device) = (s.id, s.device);
            let g = st.graphs.graphs.get(graph.0)?;
            if g.capture.is_some() {
                return Err(super::build::being_captured(what));
            }
            if g.device != device {
                return Err(SimError::InvalidValue {
                    what,
                    reason: format!(
                        "the graph is on device {} and {id} on device {device}",
                        g.device
                    ),
                });
            }
            let existing = g.nodes.len() as u32;
            let mut positions = Vec::with_capacity(deps.len());
            for &d in deps {
                let p = st.position_in(what, graph, d)?;
                if positions.contains(&p) {
                    return Err(SimError::InvalidValue {
                        what,
                        reason: format!("node {:#x} is listed twice in the dependencies", d.0),
                    });
                }
                positions.push(p);
            }
            let cid = st
                .graphs
                .captures
                .begin(h, id, graph.0, mode, c.thread, device);
            let cap = st.graphs.captures.get_mut(cid).expect("just begun");
            cap.existing = Some(existing);
            if let Some(m) = cap.members.get_mut(&h) {
                m.deps = positions;
            }
            st.graphs.graphs.get_mut(graph.0)?.capture = Some(cid);
            Ok(())
        })
    }

    /// Ends the capture begun on `stream` (CUDA `cudaStreamEndCapture`, ACL `aclmdlRICaptureEnd`) and returns
    /// its graph; every stream of the capture leaves capture mode. Refused, with the capture left as it is, on
    /// a stream that is not capturing or only joined the capture. Refused, with the capture ended and no graph,
    /// from another thread (unless begun relaxed), after the capture was invalidated, or with forked work not
    /// joined back to `stream`.
    pub fn end_capture(&self, stream: Stream) -> Result<Graph> {
        self.call(EngineCall::EndCapture.name(), |c| {
            let mut st = self.state();
            self.end_capture_locked(&mut st, c, stream)
        })
    }

    /// Ends the capture begun on `stream` and instantiates its graph, in one call (ACL `aclmdlRICaptureEnd`,
    /// whose model runtime instance is executable at once): [`Process::end_capture`]'s answers, then
    /// [`Process::instantiate_graph`]'s; the graph itself is dropped. Also returns the number of nodes.
    pub fn end_capture_executable(&self, stream: Stream) -> Result<(GraphExec, usize)> {
        self.call(EngineCall::EndCapture.name(), |c| {
            let mut st = self.state();
            let g = self.end_capture_locked(&mut st, c, stream)?;
            let nodes = st.graphs.graphs.get(g.0)?.nodes.len();
            let x = st.instantiate_locked(c, g, false);
            st.graphs.remove_graph(g.0, &self.m.memory)?;
            Ok((x?, nodes))
        })
    }

    fn end_capture_locked(
        &self,
        st: &mut ProcState,
        c: &mut Call,
        stream: Stream,
    ) -> Result<Graph> {
        {
            let what = EngineCall::EndCapture.name();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            st.streams.get(h)?;
            st.check_owner(&self.m, c, what, self.m.rules.owned.capture, h)?;
            let Some(cid) = st.graphs.captures.of_stream(h) else {
                return Err(refuse(what, st, h, CaptureProblem::NotCapturing));
            };
            let cap = st
                .graphs
                .captures
                .get(cid)
                .expect("a stream's capture exists");
            if cap.origin != h {
                return Err(refuse(what, st, h, CaptureProblem::Unmatched));
            }
            let wrong_thread = cap.mode != CaptureMode::Relaxed && cap.thread != c.thread;
            let err = |p| refuse(what, st, h, p);
            let err = if wrong_thread {
                Some(err(CaptureProblem::WrongThread))
            } else if cap.invalidated {
                Some(err(CaptureProblem::Invalidated))
            } else if unjoined(st.graphs.graphs.get(cap.graph)?, cap) {
                Some(err(CaptureProblem::Unjoined))
            } else {
                None
            };
            let cap = st.graphs.captures.terminate(cid).expect("checked above");
            if let Some(e) = err {
                match cap.existing {
                    // A capture into the program's graph: the graph keeps the nodes it had.
                    Some(n) => {
                        st.graphs.truncate_graph(cap.graph, n, &self.m.memory)?;
                        st.graphs.graphs.get_mut(cap.graph)?.capture = None;
                    }
                    None => drop(st.graphs.remove_graph(cap.graph, &self.m.memory)?),
                }
                return Err(e);
            }
            st.graphs.graphs.get_mut(cap.graph)?.capture = None;
            st.graphs.embedded_changed(cap.graph);
            Ok(Graph(cap.graph))
        }
    }

    /// `stream`'s capture status, the capture's id and graph, and the nodes the stream's next captured node will
    /// depend on (CUDA `cudaStreamGetCaptureInfo`, ACL `aclmdlRICaptureGetInfo`). On CUDA's legacy stream while a
    /// blocking stream of its device captures: [`CaptureProblem::Implicit`] (the capture is not invalidated).
    pub fn capture_info(&self, stream: Stream) -> Result<CaptureInfo> {
        self.call(EngineCall::CaptureInfo.name(), |c| {
            self.capture_info_in(c, EngineCall::CaptureInfo.name(), stream)
        })
    }

    /// `stream`'s capture status (CUDA `cudaStreamIsCapturing`); see [`Process::capture_info`].
    pub fn capture_status(&self, stream: Stream) -> Result<CaptureStatus> {
        self.call(EngineCall::CaptureStatus.name(), |c| {
            Ok(self
                .capture_info_in(c, EngineCall::CaptureStatus.name(), stream)?
                .status)
        })
    }

    fn capture_info_in(&self, c: &Call, what: &'static str, stream: Stream) -> Result<CaptureInfo> {
        let mut st = self.state();
        let h = st.resolve_stream(&self.m, c, stream.0)?;
        st.streams.get(h)?;
        if !st.blocking_captures(&self.m, h)?.is_empty() {
            return Err(refuse(what, &st, h, CaptureProblem::Implicit));
        }
        let Some(cid) = st.graphs.captures.of_stream(h) else {
            return Ok(CaptureInfo {
                status: CaptureStatus::None,
                id: 0,
                graph: None,
                dependencies: Arc::from(Vec::new()),
            });
        };
        let cap = st
            .graphs
            .captures
            .get(cid)
            .expect("a stream's capture exists");
        let (graph, invalidated) = (cap.graph, cap.invalidated);
        let deps = cap.members[&h].deps.clone();
        let nodes = &st.graphs.graphs.get(graph)?.nodes;
        let dependencies: Arc<[GraphNode]> =
            deps.iter().map(|&i| nodes[i as usize].handle).collect();
        if let Some(m) = st
            .graphs
            .captures
            .get_mut(cid)
            .and_then(|c| c.members.get_mut(&h))
        {
            m.info = Some(dependencies.clone());
        }
        Ok(CaptureInfo {
            status: if invalidated {
                CaptureStatus::Invalidated
            } else {
                CaptureStatus::Active
            },
            id: cid,
            graph: Some(Graph(graph)),
            dependencies,
        })
    }

    /// Changes the set of nodes `stream`'s next captured node depends on (CUDA
    /// `cudaStreamUpdateCaptureDependencies`): `nodes` are added to it, or replace it with `set`. Nodes removed
    /// from the set need not be joined back at the end. [`CaptureProblem::NotCapturing`] if the stream is not
    /// capturing; [`SimError::InvalidValue`] for a node of another graph.
    pub fn update_capture_dependencies(
        &self,
        stream: Stream,
        nodes: &[GraphNode],
        set: bool,
    ) -> Result<()> {
        self.call(EngineCall::UpdateCaptureDependencies.name(), |c| {
            let what = EngineCall::UpdateCaptureDependencies.name();
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            st.streams.get(h)?;
            let Some(cid) = st.graphs.captures.of_stream(h) else {
                return Err(refuse(what, &st, h, CaptureProblem::NotCapturing));
            };
            let cap = st
                .graphs
                .captures
                .get(cid)
                .expect("a stream's capture exists");
            if cap.invalidated {
                return Err(refuse(what, &st, h, CaptureProblem::Invalidated));
            }
            let graph = cap.graph;
            let mut indices = Vec::with_capacity(nodes.len());
            for &n in nodes {
                let (g, i) = st.graphs.node(n).map_err(|_| SimError::InvalidValue {
                    what,
                    reason: format!("{:#x} is not a node of a live graph", n.0),
                })?;
                if g != graph {
                    return Err(SimError::InvalidValue {
                        what,
                        reason: "the node belongs to another graph than the stream's capture"
                            .into(),
                    });
                }
                indices.push(i);
            }
            let cap = st.graphs.captures.get_mut(cid).expect("checked above");
            let member = cap.members.get_mut(&h).expect("a stream's capture has it");
            if set {
                let removed: Vec<u32> = member
                    .deps
                    .iter()
                    .copied()
                    .filter(|d| !indices.contains(d))
                    .collect();
                member.deps.clear();
                merge_deps(&mut member.deps, &indices);
                member.info = None;
                cap.released.extend(removed);
            } else {
                merge_deps(&mut member.deps, &indices);
                member.info = None;
            }
            Ok(())
        })
    }

    /// Whether `stream` is capturing, without a runtime call (the clock does not move; a bad handle: `false`).
    pub(crate) fn stream_is_capturing_now(&self, stream: Stream) -> bool {
        let Ok(c) = self.probe("stream_is_capturing") else {
            return false;
        };
        let mut st = self.state();
        st.resolve_stream(&self.m, &c, stream.0)
            .is_ok_and(|h| st.graphs.captures.of_stream(h).is_some())
    }

    /// Sets the calling thread's capture mode and returns the one it had (CUDA
    /// `cudaThreadExchangeStreamCaptureMode`, ACL `aclmdlRICaptureThreadExchangeMode`; a thread starts in
    /// [`CaptureMode::Global`]). In a dialect with explicit contexts the thread needs a current context.
    pub fn exchange_capture_mode(&self, mode: CaptureMode) -> Result<CaptureMode> {
        self.call(EngineCall::ExchangeCaptureMode.name(), |c| {
            if self.m.rules.explicit_contexts {
                self.state()
                    .current(&self.m, c, EngineCall::ExchangeCaptureMode.name())?;
            }
            Ok(self.swap_capture_mode(mode))
        })
    }
}
