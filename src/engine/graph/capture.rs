//! Capture sequences: which streams capture into which graph, each stream's dependency set (the nodes its next
//! captured node depends on), invalidation, and the unjoined-work check at the end.
//!
//! A capture begins on its *origin* stream. An event recorded on a capturing stream becomes a *captured
//! record* (the stream's dependency set at the record, [`CaptureRecord`]); a stream that waits on it joins the
//! capture with that set (a fork), or adds it to its own set (a join). At the end every node must be an
//! ancestor of the origin's dependency set (or of a node a program removed from a set) — else the capture's
//! work was not joined back.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::CaptureMode;
use super::node::GraphEntry;
use crate::engine::core::handle::{GraphNode, StreamId};

/// One stream's part in a capture.
pub(crate) struct Member {
    pub id: StreamId,
    /// The nodes (indices in the graph) the stream's next captured node depends on.
    pub deps: Vec<u32>,
    /// The last dependency array handed out for this stream (`CaptureInfo::dependencies`).
    pub info: Option<Arc<[GraphNode]>>,
}

/// A capture sequence.
pub(crate) struct Capture {
    /// Unique in the process, from 1 (`cudaStreamGetCaptureInfo`'s id).
    pub id: u64,
    /// The graph it captures into (a handle of the process's graph registry).
    pub graph: u64,
    /// The stream it was begun on.
    pub origin: u64,
    pub mode: CaptureMode,
    /// The host thread that began it.
    pub thread: u32,
    pub device: u32,
    pub invalidated: bool,
    /// The capturing streams, by registry handle.
    pub members: BTreeMap<u64, Member>,
    /// Nodes a program removed from a dependency set (`cudaStreamUpdateCaptureDependencies`): they and their
    /// ancestors need not be joined.
    pub released: BTreeSet<u32>,
    /// For a capture into an existing graph (`cudaStreamBeginCaptureToGraph`): how many nodes the graph had
    /// when the capture began (they need not be joined; a failed end removes only the nodes after them).
    pub existing: Option<u32>,
}

/// An event's record made by a capturing stream: the nodes it stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CaptureRecord {
    pub capture: u64,
    pub deps: Vec<u32>,
}

/// A process's capture sequences.
#[derive(Default)]
pub(crate) struct Captures {
    by_id: BTreeMap<u64, Capture>,
    /// Capturing stream → its capture.
    streams: BTreeMap<u64, u64>,
    next_id: u64,
}

impl Captures {
    /// Whether any capture is in progress (the fast path of every enqueue asks this).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// The capture stream `h` takes part in.
    #[inline]
    pub fn of_stream(&self, h: u64) -> Option<u64> {
        if self.by_id.is_empty() {
            return None;
        }
        self.streams.get(&h).copied()
    }

    pub fn get(&self, id: u64) -> Option<&Capture> {
        self.by_id.get(&id)
    }

    pub fn get_mut(&mut self, id: u64) -> Option<&mut Capture> {
        self.by_id.get_mut(&id)
    }

    /// Every capture, by id.
    pub fn iter(&self) -> impl Iterator<Item = &Capture> {
        self.by_id.values()
    }

    /// Starts a capture on stream `origin` into graph `graph`; its id.
    #[allow(
        clippy::too_many_arguments,
        reason = "a capture's identity: stream, graph, thread, mode, device"
    )]
    pub fn begin(
        &mut self,
        origin: u64,
        id: StreamId,
        graph: u64,
        mode: CaptureMode,
        thread: u32,
        device: u32,
    ) -> u64 {
        self.next_id += 1;
        let cid = self.next_id;
        let mut members = BTreeMap::new();
        members.insert(
            origin,
            Member {
                id,
                deps: Vec::new(),
                info: None,
            },
        );
        self.by_id.insert(
            cid,
            Capture {
                id: cid,
                graph,
                origin,
                mode,
                thread,
                device,
                invalidated: false,
                members,
                released: BTreeSet::new(),
                existing: None,
            },
        );
        self.streams.insert(origin, cid);
        cid
    }

    /// Stream `h` joins capture `cid` with dependency set `deps`.
    pub fn join(&mut self, cid: u64, h: u64, id: StreamId, deps: Vec<u32>) {
        if let Some(c) = self.by_id.get_mut(&cid) {
            c.members.insert(
                h,
                Member {
                    id,
                    deps,
                    info: None,
                },
            );
            self.streams.insert(h, cid);
        }
    }

    /// Stream `h` leaves its capture (it was destroyed); the capture goes on without it.
    pub fn leave(&mut self, h: u64) {
        if let Some(cid) = self.streams.remove(&h)
            && let Some(c) = self.by_id.get_mut(&cid)
        {
            c.members.remove(&h);
        }
    }

    /// Ends capture `cid`: every stream of it leaves capture mode. The capture as it was.
    pub fn terminate(&mut self, cid: u64) -> Option<Capture> {
        let c = self.by_id.remove(&cid)?;
        for h in c.members.keys() {
            self.streams.remove(h);
        }
        Some(c)
    }

    /// Marks the captures `ids` invalidated.
    pub fn invalidate(&mut self, ids: &[u64]) {
        for id in ids {
            if let Some(c) = self.by_id.get_mut(id) {
                c.invalidated = true;
            }
        }
    }

    /// The captures of `device`.
    pub fn on_device(&self, device: u32) -> Vec<u64> {
        self.by_id
            .values()
            .filter(|c| c.device == device)
            .map(|c| c.id)
            .collect()
    }
}

/// Adds `more` to the dependency set `deps`, keeping it free of repeats (in first-seen order).
pub(crate) fn merge_deps(deps: &mut Vec<u32>, more: &[u32]) {
    for d in more {
        if !deps.contains(d) {
            deps.push(*d);
        }
    }
}

/// Whether some node of `graph` is neither an ancestor of the origin's dependency set nor of a released node:
/// work that was forked from the origin and not joined back (the check of the capture's end).
pub(crate) fn unjoined(graph: &GraphEntry, capture: &Capture) -> bool {
    let n = graph.nodes.len();
    let mut joined = vec![false; n];
    let mut work: Vec<u32> = capture
        .members
        .get(&capture.origin)
        .map(|m| m.deps.clone())
        .unwrap_or_default();
    work.extend(capture.released.iter().copied());
    // The nodes the graph had before a capture into it are not the capture's work.
    let before = capture.existing.unwrap_or(0) as usize;
    joined[..before.min(n)].fill(true);
    while let Some(i) = work.pop() {
        let i = i as usize;
        if i >= n || joined[i] {
            continue;
        }
        joined[i] = true;
        work.extend(graph.nodes[i].deps.iter().copied());
    }
    joined.iter().any(|j| !j)
}
