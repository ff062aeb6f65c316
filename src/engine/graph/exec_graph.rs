//! An executable graph ([`ExecEntry`]): the instantiated nodes, their lanes and the lanes' streams; launched
//! by `replay.rs`.

use crate::engine::exec::point::Point;
use crate::engine::graph::node::Node;
use crate::engine::streams::entry::StreamEntry;
use std::sync::Arc;

/// An executable graph (`cudaGraphExec_t`, ACL `aclmdlRI`).
pub(crate) struct ExecEntry {
    pub ordinal: u32,
    pub device: u32,
    pub ctx: Option<u64>,
    /// The graph's nodes when it was instantiated.
    pub nodes: Arc<[Node]>,
    /// Each node's lane.
    pub lane_of: Vec<u32>,
    pub lane_count: u32,
    /// The nodes no other node depends on.
    pub sinks: Vec<u32>,
    /// The lanes' streams (made at the first launch).
    pub lanes: Vec<StreamEntry>,
    /// The previous launch's sinks, which the next launch's roots wait for.
    pub last: Vec<Point>,
    /// How many times it was launched.
    pub launches: u64,
}

impl ExecEntry {
    /// An executable graph of `nodes` (in topological order).
    pub fn new(ordinal: u32, device: u32, ctx: Option<u64>, nodes: Vec<Node>) -> ExecEntry {
        let (lane_of, lane_count) = assign_lanes(&nodes);
        let mut has_dependent = vec![false; nodes.len()];
        for n in &nodes {
            for &d in &n.deps {
                has_dependent[d as usize] = true;
            }
        }
        let sinks = (0..nodes.len() as u32)
            .filter(|&i| !has_dependent[i as usize])
            .collect();
        ExecEntry {
            ordinal,
            device,
            ctx,
            nodes: nodes.into(),
            lane_of,
            lane_count,
            sinks,
            lanes: Vec::new(),
            last: Vec::new(),
            launches: 0,
        }
    }
}

/// Gives every node a lane whose previous node is one of its direct dependencies (or a new lane): (lane of
/// each node, number of lanes).
pub(crate) fn assign_lanes(nodes: &[Node]) -> (Vec<u32>, u32) {
    let mut lane_of = Vec::with_capacity(nodes.len());
    // The last node of each lane.
    let mut tails: Vec<u32> = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        let reuse = n
            .deps
            .iter()
            .map(|&d| lane_of[d as usize])
            .find(|&l: &u32| n.deps.contains(&tails[l as usize]));
        let lane = match reuse {
            Some(l) => l,
            None => {
                tails.push(0);
                tails.len() as u32 - 1
            }
        };
        tails[lane as usize] = i as u32;
        lane_of.push(lane);
    }
    (lane_of, tails.len() as u32)
}
