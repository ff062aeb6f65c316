//! The reference model of stream capture and graph launch, for [`CaptureProgram`]s: what each call answers,
//! the graph's nodes and edges, when every node of every launch runs, and whether the replay races — computed
//! sequentially from the rules of `docs/semantics/capture-and-graphs.md` and the README's cost model, without
//! the simulator's code.
//!
//! Capture, as the model states it:
//! - the origin stream `s1` is a member of the capture from its begin; a stream becomes a member when it waits
//!   on an event whose latest record was made in the capture (a fork), and then depends on what that record
//!   depended on;
//! - a work call on a member becomes a node that depends on the stream's dependency set, which becomes the
//!   node alone; a record on a member keeps the stream's dependency set in the event; a wait of a member on
//!   an event recorded in the capture adds the record's set to the stream's (a join); a wait on a never-recorded
//!   event does nothing;
//! - the mistakes: a synchronize or query of a member, a device synchronize, a legacy-stream launch while a
//!   blocking stream is a member, a query of an event recorded in the capture, and a query of another event
//!   outside relaxed mode are refused and invalidate the capture (its end answers `Invalidated`); the other
//!   calls succeed;
//! - the end refuses a graph with a node that is neither in the origin's dependency set nor an ancestor of one
//!   (`Unjoined`).
//!
//! Replay: launch *k* is called at the host's time `t_k`; its marker on the launch stream starts at
//! `max(t_k + 2 µs, the previous launch's end)`; a root node starts at the marker, any other node when its
//! last dependency ends; the launch ends when its last node does. Races: two nodes of one launch touching the
//! same buffer, at least one writing, neither an ancestor of the other (launches are ordered).

use std::collections::{BTreeMap, BTreeSet};

use streamsim::testing::{BUFFER_BYTES, CaptureProgram, CaptureStep, Mistake};
use streamsim::{CaptureMode, CaptureProblem, CopyPath};

use super::{API_CALL, LAUNCH_LATENCY, copy_ns};

/// What a node touches: a device buffer (`false`) or a pinned one (`true`), and whether it writes.
type Touch = ((bool, u32), bool);

/// A node of the graph.
#[derive(Debug, Clone)]
pub struct MNode {
    /// `kernel k<i>`, `memset`, or `memcpy <path>`.
    pub what: String,
    /// Virtual duration.
    pub cost: u64,
    /// The nodes it depends on.
    pub deps: BTreeSet<usize>,
    touches: Vec<Touch>,
}

/// Everything the model predicts for one capture program.
#[derive(Debug)]
pub struct Expected {
    /// The mistake's answer (`None`: no mistake call; `Some(Ok)`: it succeeds).
    pub mistake: Option<Result<(), CaptureProblem>>,
    /// The end's answer: the number of nodes, or the problem.
    pub end: Result<usize, CaptureProblem>,
    /// The graph's nodes, in capture order.
    pub nodes: Vec<MNode>,
    /// Every replayed node: (what, start, end), launch after launch, sorted.
    pub replay: Vec<(String, u64, u64)>,
    /// Whether a launch races.
    pub racy: bool,
}

fn touches(step: &CaptureStep) -> Vec<Touch> {
    let dev = |b: u32| (false, b);
    let pin = |b: u32| (true, b);
    match step {
        CaptureStep::Launch { reads, writes, .. } => reads
            .iter()
            .map(|&b| (dev(b), false))
            .chain(writes.iter().map(|&b| (dev(b), true)))
            .collect(),
        CaptureStep::Memset { dst, .. } => vec![(dev(*dst), true)],
        CaptureStep::CopyOnDevice { src, dst, .. } => vec![(dev(*src), false), (dev(*dst), true)],
        CaptureStep::CopyToDevice { src, dst, .. } => vec![(pin(*src), false), (dev(*dst), true)],
        CaptureStep::CopyToHost { src, dst, .. } => vec![(dev(*src), false), (pin(*dst), true)],
        CaptureStep::Record { .. } | CaptureStep::Wait { .. } => Vec::new(),
    }
}

fn what_and_cost(i: usize, step: &CaptureStep) -> (String, u64) {
    let n = BUFFER_BYTES;
    match step {
        CaptureStep::Launch { duration_ns, .. } => (format!("kernel k{i}"), *duration_ns),
        CaptureStep::Memset { .. } => ("memset".into(), copy_ns(CopyPath::OnDevice, n)),
        CaptureStep::CopyOnDevice { .. } => (
            format!("memcpy {:?}", CopyPath::OnDevice),
            copy_ns(CopyPath::OnDevice, n),
        ),
        CaptureStep::CopyToDevice { .. } => (
            format!("memcpy {:?}", CopyPath::HostToDevice),
            copy_ns(CopyPath::HostToDevice, n),
        ),
        CaptureStep::CopyToHost { .. } => (
            format!("memcpy {:?}", CopyPath::DeviceToHost),
            copy_ns(CopyPath::DeviceToHost, n),
        ),
        CaptureStep::Record { .. } | CaptureStep::Wait { .. } => unreachable!("not work"),
    }
}

/// The ancestors of `set` (itself included).
fn closure(nodes: &[MNode], set: &BTreeSet<usize>) -> BTreeSet<usize> {
    let mut out = BTreeSet::new();
    let mut work: Vec<usize> = set.iter().copied().collect();
    while let Some(n) = work.pop() {
        if out.insert(n) {
            work.extend(nodes[n].deps.iter().copied());
        }
    }
    out
}

/// Runs the model on `prog`.
pub fn expect(prog: &CaptureProgram) -> Expected {
    // Set-up: the streams, CAPTURE_EVENTS + 1 events, 2 device buffers, 2 pinned buffers, the launch stream.
    let mut clock = (prog.streams.len() as u64 + 4 + 2 + 2 + 1) * API_CALL;
    clock += API_CALL; // begin_capture
    let mut members: BTreeMap<u32, BTreeSet<usize>> = BTreeMap::from([(0, BTreeSet::new())]);
    let mut events: BTreeMap<u32, BTreeSet<usize>> = BTreeMap::new();
    let mut nodes: Vec<MNode> = Vec::new();
    for (i, step) in prog.steps.iter().enumerate() {
        clock += API_CALL;
        let s = step.stream();
        match step {
            CaptureStep::Record { event, .. } => {
                let deps = members.get(&s).expect("the generator forks first").clone();
                events.insert(*event, deps);
            }
            CaptureStep::Wait { event, .. } => {
                if let Some(rec) = events.get(event).cloned() {
                    members.entry(s).or_default().extend(rec);
                } else {
                    assert!(members.contains_key(&s), "the generator forks first");
                }
            }
            work => {
                let deps = members.get_mut(&s).expect("the generator forks first");
                let (what, cost) = what_and_cost(i, work);
                nodes.push(MNode {
                    what,
                    cost,
                    deps: std::mem::take(deps),
                    touches: touches(work),
                });
                deps.insert(nodes.len() - 1);
            }
        }
    }
    let member = |s: u32| members.contains_key(&s);
    let mistake = prog.mistake.map(|m| {
        clock += API_CALL;
        match m {
            Mistake::SyncStream(s) | Mistake::QueryStream(s) if member(s) => {
                Err(CaptureProblem::Unsupported)
            }
            Mistake::SyncStream(_) | Mistake::QueryStream(_) => Ok(()),
            Mistake::SyncDevice => Err(CaptureProblem::Unsupported),
            Mistake::LegacyLaunch if members.keys().any(|&s| !prog.streams[s as usize]) => {
                Err(CaptureProblem::Implicit)
            }
            Mistake::LegacyLaunch => Ok(()),
            Mistake::QueryEvent(e) if events.contains_key(&e) => Err(CaptureProblem::CapturedEvent),
            Mistake::QueryEvent(_) if prog.mode == CaptureMode::Relaxed => Ok(()),
            Mistake::QueryEvent(_) => Err(CaptureProblem::Prohibited),
            Mistake::Unjoined(_) => {
                clock -= API_CALL; // no call
                Ok(())
            }
        }
    });
    let mistake = match prog.mistake {
        Some(Mistake::Unjoined(_)) => None,
        _ => mistake,
    };
    clock += API_CALL; // end_capture
    let joined = closure(&nodes, &members[&0]);
    let end = if matches!(mistake, Some(Err(_))) {
        Err(CaptureProblem::Invalidated)
    } else if joined.len() < nodes.len() {
        Err(CaptureProblem::Unjoined)
    } else {
        Ok(nodes.len())
    };
    let mut replay = Vec::new();
    let mut racy = false;
    if end.is_ok() {
        clock += 2 * API_CALL; // graph_nodes, instantiate_graph
        let mut previous_end = 0;
        for _ in 0..prog.launches {
            clock += API_CALL;
            let marker = (clock + LAUNCH_LATENCY).max(previous_end);
            let mut ends: Vec<u64> = Vec::with_capacity(nodes.len());
            for n in &nodes {
                let start = n.deps.iter().map(|&d| ends[d]).fold(marker, u64::max);
                ends.push(start + n.cost);
                replay.push((n.what.clone(), start, start + n.cost));
            }
            previous_end = ends.iter().copied().fold(marker, u64::max);
        }
        replay.sort();
        let ancestors: Vec<BTreeSet<usize>> = (0..nodes.len())
            .map(|i| closure(&nodes, &nodes[i].deps))
            .collect();
        for b in 0..nodes.len() {
            for a in 0..b {
                let conflict = nodes[a].touches.iter().any(|&(ba, wa)| {
                    nodes[b]
                        .touches
                        .iter()
                        .any(|&(bb, wb)| ba == bb && (wa || wb))
                });
                if conflict && !ancestors[b].contains(&a) {
                    racy = true;
                }
            }
        }
    }
    Expected {
        mistake,
        end,
        nodes,
        replay,
        racy,
    }
}
