//! CUDA-family capture into an existing graph (`cudaStreamBeginCaptureToGraph`), child graph nodes' embedded
//! graphs (`cudaGraphChildGraphNodeGetGraph`, `cudaGraphExecChildGraphNodeSetParams`) and the nodes of a clone
//! (`cudaGraphNodeFindInClone`). Rows and sources: `docs/semantics/graph-building.md`.
#![allow(non_snake_case, reason = "the C API's names")]

use std::ffi::{c_int, c_void};

use super::binding::{Api, handle_ptr, invalid, out, stream};
use super::cuda_graph_build::nodes_at;
use super::cuda_runtime::{Error, run};
use crate::engine::core::error::SimError;
use crate::engine::core::handle::{Graph, GraphExec, GraphNode};
use crate::engine::graph::CaptureMode;

pub use super::dropin::GraphEdgeData;

fn graph(g: *mut c_void) -> Graph {
    Graph::from_raw(g as usize as u64)
}

fn node(n: *mut c_void) -> GraphNode {
    GraphNode::from_raw(n as usize as u64)
}

/// `cudaStreamBeginCaptureToGraph(stream, graph, dependencies, dependencyData, numDependencies, mode)`: the
/// captured nodes go into `graph`, the first ones depending on `dependencies`. Edge data other than default
/// edges is refused with `cudaErrorNotSupported` (ports and programmatic dependencies are not simulated).
///
/// # Safety
/// `deps` and `data` are NULL or hold `count` entries.
pub(crate) unsafe fn stream_begin_capture_to_graph(
    api: Api,
    s: *mut c_void,
    g: *mut c_void,
    deps: *const *mut c_void,
    data: *const GraphEdgeData,
    count: usize,
    m: c_int,
) -> Error {
    run(api, |p| {
        let what = "StreamBeginCaptureToGraph";
        let mode = u32::try_from(m)
            .ok()
            .and_then(CaptureMode::from_raw)
            .ok_or_else(|| {
                invalid(
                    what,
                    format!("{m} is not a cudaStreamCaptureMode (0, 1 or 2)"),
                )
            })?;
        // SAFETY: forwarded C contract.
        let deps = unsafe { nodes_at(what, deps, count) }?;
        if !data.is_null() && count > 0 {
            // SAFETY: C contract: `count` entries.
            let data = unsafe { std::slice::from_raw_parts(data, count) };
            if let Some(i) = data.iter().position(|d| *d != GraphEdgeData::default()) {
                return Err(SimError::NotSupported {
                    what,
                    reason: format!(
                        "dependencyData[{i}] is not a default edge: graph ports and programmatic dependencies \
                         are not simulated"
                    ),
                });
            }
        }
        p.begin_capture_to_graph(stream(s), graph(g), &deps, mode)
    })
}

/// `cudaGraphChildGraphNodeGetGraph(node, &graph)`: the node's embedded graph (not a copy; the node owns it).
///
/// # Safety
/// `pGraph` is NULL or valid for a write.
pub(crate) unsafe fn graph_child_graph_node_get_graph(
    api: Api,
    n: *mut c_void,
    pGraph: *mut *mut c_void,
) -> Error {
    run(api, |p| {
        let what = "GraphChildGraphNodeGetGraph";
        if pGraph.is_null() {
            return Err(invalid(what, "NULL output pointer"));
        }
        let g = p.child_graph(node(n))?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(what, pGraph, handle_ptr(g.to_raw())) }
    })
}

/// `cudaGraphExecChildGraphNodeSetParams(exec, node, childGraph)`.
pub(crate) fn graph_exec_child_graph_node_set_params(
    api: Api,
    x: *mut c_void,
    n: *mut c_void,
    child: *mut c_void,
) -> Error {
    run(api, |p| {
        p.set_exec_child_graph(
            GraphExec::from_raw(x as usize as u64),
            node(n),
            graph(child),
        )
    })
}

/// `cudaGraphNodeFindInClone(&node, originalNode, clonedGraph)`.
///
/// # Safety
/// `pNode` is NULL or valid for a write.
pub(crate) unsafe fn graph_node_find_in_clone(
    api: Api,
    pNode: *mut *mut c_void,
    original: *mut c_void,
    cloned: *mut c_void,
) -> Error {
    run(api, |p| {
        let what = "GraphNodeFindInClone";
        if pNode.is_null() {
            return Err(invalid(what, "NULL output pointer"));
        }
        let found = p.node_in_clone(node(original), graph(cloned))?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(what, pNode, handle_ptr(found.to_raw())) }
    })
}
