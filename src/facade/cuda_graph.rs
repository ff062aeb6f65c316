//! CUDA-family stream capture and graphs: `cudaStreamBeginCapture` … `cudaGraphLaunch`, the graph inspection
//! calls and `cudaGraphDebugDotPrint` (CUDA 12 signatures). Rows and sources:
//! `docs/semantics/capture-and-graphs.md`. A bad graph, executable graph or node handle is
//! `cudaErrorInvalidValue` (the Graph Management returns; `code` in `cuda_runtime.rs`).

use std::ffi::{CStr, c_char, c_int, c_uint, c_ulonglong, c_void};

use super::binding::{Api, handle_ptr, invalid, out, put, stream};
use super::cuda_runtime::{Error, run};
use crate::engine::core::error::SimError;
use crate::engine::core::handle::{Graph, GraphExec, GraphNode};
use crate::engine::graph::CaptureMode;

/// `cudaStreamAddCaptureDependencies`.
const ADD_CAPTURE_DEPENDENCIES: c_uint = 0x0;
/// `cudaStreamSetCaptureDependencies`.
const SET_CAPTURE_DEPENDENCIES: c_uint = 0x1;
/// Every `cudaGraphInstantiateFlags` bit: AutoFreeOnLaunch 1, Upload 2, DeviceLaunch 4, UseNodePriority 8.
const INSTANTIATE_FLAGS: c_ulonglong = 0xf;

fn graph(g: *mut c_void) -> Graph {
    Graph::from_raw(g as usize as u64)
}

fn exec(x: *mut c_void) -> GraphExec {
    GraphExec::from_raw(x as usize as u64)
}

fn node(n: *mut c_void) -> GraphNode {
    GraphNode::from_raw(n as usize as u64)
}

fn mode(what: &'static str, raw: c_int) -> Result<CaptureMode, SimError> {
    u32::try_from(raw)
        .ok()
        .and_then(CaptureMode::from_raw)
        .ok_or_else(|| {
            invalid(
                what,
                format!("{raw} is not a cudaStreamCaptureMode (0, 1 or 2)"),
            )
        })
}

pub(crate) fn stream_begin_capture(api: Api, s: *mut c_void, m: c_int) -> Error {
    run(api, |p| {
        p.begin_capture(stream(s), mode("StreamBeginCapture", m)?)
    })
}

pub(crate) unsafe fn stream_end_capture(api: Api, s: *mut c_void, g: *mut *mut c_void) -> Error {
    run(api, |p| {
        if g.is_null() {
            return Err(invalid("StreamEndCapture", "NULL output pointer"));
        }
        // "If capture was invalidated … a NULL graph will be returned."
        // SAFETY: checked non-NULL; C contract.
        unsafe { g.write(std::ptr::null_mut()) };
        let graph = p.end_capture(stream(s))?;
        // SAFETY: as above.
        unsafe { out("StreamEndCapture", g, handle_ptr(graph.to_raw())) }
    })
}

pub(crate) unsafe fn stream_is_capturing(api: Api, s: *mut c_void, status: *mut c_uint) -> Error {
    run(api, |p| {
        if status.is_null() {
            return Err(invalid("StreamIsCapturing", "NULL output pointer"));
        }
        let st = p.capture_status(stream(s))?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out("StreamIsCapturing", status, st.to_raw()) }
    })
}

/// `cudaStreamGetCaptureInfo` (CUDA 12: status, id, graph, dependencies, number of dependencies). The
/// dependency array stays valid until the next capture call about the stream or the end of the capture.
pub(crate) unsafe fn stream_get_capture_info(
    api: Api,
    s: *mut c_void,
    status: *mut c_uint,
    id: *mut c_ulonglong,
    g: *mut *mut c_void,
    deps: *mut *const *mut c_void,
    count: *mut usize,
) -> Error {
    run(api, |p| {
        if status.is_null() {
            return Err(invalid(
                "StreamGetCaptureInfo",
                "NULL capture status pointer",
            ));
        }
        let info = p.capture_info(stream(s))?;
        // SAFETY: every pointer is NULL (skipped) or valid for a write, by the C contract.
        unsafe {
            put(status, info.status.to_raw());
            if info.status != crate::engine::graph::CaptureStatus::None {
                put(id, info.id);
                put(
                    g,
                    info.graph
                        .map_or(std::ptr::null_mut(), |x| handle_ptr(x.to_raw())),
                );
                // A `GraphNode` is one u64 (`repr(transparent)`), as a `cudaGraphNode_t` is one pointer.
                put(deps, info.dependencies.as_ptr().cast::<*mut c_void>());
                put(count, info.dependencies.len());
            }
        }
        Ok(())
    })
}

/// The `count` node handles at `nodes` (NULL only with 0).
///
/// # Safety
/// `nodes` is NULL or valid for `count` reads.
unsafe fn node_array(
    what: &'static str,
    nodes: *const *mut c_void,
    count: usize,
) -> Result<Vec<GraphNode>, SimError> {
    if count == 0 {
        return Ok(Vec::new());
    }
    if nodes.is_null() {
        return Err(invalid(what, "NULL node array with a non-zero count"));
    }
    if count > isize::MAX as usize / std::mem::size_of::<*mut c_void>() {
        return Err(invalid(what, format!("{count} nodes cannot fit in memory")));
    }
    // SAFETY: non-NULL and valid for `count` reads by the C contract.
    Ok(unsafe { std::slice::from_raw_parts(nodes, count) }
        .iter()
        .map(|&n| node(n))
        .collect())
}

pub(crate) unsafe fn stream_update_capture_dependencies(
    api: Api,
    s: *mut c_void,
    nodes: *mut *mut c_void,
    count: usize,
    flags: c_uint,
) -> Error {
    run(api, |p| {
        let what = "StreamUpdateCaptureDependencies";
        let set = match flags {
            ADD_CAPTURE_DEPENDENCIES => false,
            SET_CAPTURE_DEPENDENCIES => true,
            f => {
                return Err(SimError::InvalidFlags {
                    what,
                    flags: f,
                    reason: "only cudaStreamAddCaptureDependencies (0) and cudaStreamSetCaptureDependencies (1)",
                });
            }
        };
        // SAFETY: forwarded C contract.
        let nodes = unsafe { node_array(what, nodes, count) }?;
        p.update_capture_dependencies(stream(s), &nodes, set)
    })
}

pub(crate) unsafe fn thread_exchange_stream_capture_mode(api: Api, m: *mut c_int) -> Error {
    run(api, |p| {
        let what = "ThreadExchangeStreamCaptureMode";
        if m.is_null() {
            return Err(invalid(what, "NULL mode pointer"));
        }
        // SAFETY: checked non-NULL; C contract.
        let new = mode(what, unsafe { m.read() })?;
        let old = p.exchange_capture_mode(new)?;
        // SAFETY: as above.
        unsafe { m.write(old.to_raw() as c_int) };
        Ok(())
    })
}

/// `cudaGraphInstantiate` / `cudaGraphInstantiateWithFlags`: their flags, without Upload 2, which only
/// `cudaGraphInstantiateWithParams` takes (docs/semantics/capture-and-graphs.md, "Instantiate flags").
pub(crate) unsafe fn graph_instantiate(
    api: Api,
    x: *mut *mut c_void,
    g: *mut c_void,
    flags: c_ulonglong,
) -> Error {
    // SAFETY: forwarded C contract.
    unsafe { graph_instantiate_flags(api, x, g, flags, false) }
}

/// The instantiation; `with_params`: `cudaGraphInstantiateWithParams`, which also takes Upload 2 (and uploads
/// after the instantiation).
pub(crate) unsafe fn graph_instantiate_flags(
    api: Api,
    x: *mut *mut c_void,
    g: *mut c_void,
    flags: c_ulonglong,
    with_params: bool,
) -> Error {
    run(api, |p| {
        let what = "GraphInstantiate";
        if x.is_null() {
            return Err(invalid(what, "NULL output pointer"));
        }
        if flags & !INSTANTIATE_FLAGS != 0 {
            return Err(invalid(
                what,
                format!(
                    "flags {flags:#x}: only AutoFreeOnLaunch 1, Upload 2, DeviceLaunch 4, UseNodePriority 8"
                ),
            ));
        }
        // docs/semantics/capture-and-graphs.md, "Instantiate flags": DeviceLaunch is honoured (the handle launches
        // from the host, as the Runtime API says it does; no kernel here can launch one), except with
        // AutoFreeOnLaunch, which the Runtime API forbids with it; UseNodePriority is refused (per-node priorities
        // are not simulated: a graph runs at its launch stream's priority).
        if flags & 4 != 0 && flags & 1 != 0 {
            return Err(invalid(
                what,
                format!(
                    "flags {flags:#x}: DeviceLaunch 4 cannot be used with AutoFreeOnLaunch 1 (the Runtime API's rule)"
                ),
            ));
        }
        if flags & 8 != 0 {
            return Err(invalid(
                what,
                format!(
                    "flags {flags:#x}: UseNodePriority 8 is not simulated (per-node priorities: a graph runs at the \
                     priority of the stream it is launched into)"
                ),
            ));
        }
        if flags & 2 != 0 && !with_params {
            return Err(invalid(
                what,
                format!(
                    "flags {flags:#x}: Upload 2 is only supported by cudaGraphInstantiateWithParams (the Runtime \
                     API's rule)"
                ),
            ));
        }
        let e = p.instantiate_graph_with(graph(g), flags & 1 != 0)?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(what, x, handle_ptr(e.to_raw())) }
    })
}

pub(crate) fn graph_launch(api: Api, x: *mut c_void, s: *mut c_void) -> Error {
    run(api, |p| p.launch_graph(exec(x), stream(s)))
}

pub(crate) fn graph_exec_destroy(api: Api, x: *mut c_void) -> Error {
    run(api, |p| p.destroy_graph_exec(exec(x)))
}

pub(crate) fn graph_destroy(api: Api, g: *mut c_void) -> Error {
    run(api, |p| p.destroy_graph(graph(g)))
}

pub(crate) unsafe fn graph_clone(api: Api, c: *mut *mut c_void, g: *mut c_void) -> Error {
    run(api, |p| {
        if c.is_null() {
            return Err(invalid("GraphClone", "NULL output pointer"));
        }
        let copy = p.clone_graph(graph(g))?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out("GraphClone", c, handle_ptr(copy.to_raw())) }
    })
}

/// Writes `list` the vendor's way: with `array` NULL, only its length into `*count`; otherwise at most
/// `*count` entries, NULL in the rest, and the number written into `*count`.
///
/// # Safety
/// `count` is NULL or valid for a read and a write; `array` is NULL or valid for `*count` writes.
unsafe fn fill(
    what: &'static str,
    list: &[GraphNode],
    array: *mut *mut c_void,
    count: *mut usize,
) -> Result<(), SimError> {
    if count.is_null() {
        return Err(invalid(what, "NULL count pointer"));
    }
    if array.is_null() {
        // SAFETY: checked non-NULL; C contract.
        unsafe { count.write(list.len()) };
        return Ok(());
    }
    // SAFETY: as above.
    let room = unsafe { count.read() };
    for i in 0..room {
        let v = list
            .get(i)
            .map_or(std::ptr::null_mut(), |n| handle_ptr(n.to_raw()));
        // SAFETY: `array` holds `room` entries by the C contract.
        unsafe { array.add(i).write(v) };
    }
    // SAFETY: as above.
    unsafe { count.write(room.min(list.len())) };
    Ok(())
}

pub(crate) unsafe fn graph_get_nodes(
    api: Api,
    g: *mut c_void,
    nodes: *mut *mut c_void,
    count: *mut usize,
) -> Error {
    run(api, |p| {
        let list = p.graph_nodes(graph(g))?;
        // SAFETY: forwarded C contract.
        unsafe { fill("GraphGetNodes", &list, nodes, count) }
    })
}

pub(crate) unsafe fn graph_get_root_nodes(
    api: Api,
    g: *mut c_void,
    nodes: *mut *mut c_void,
    count: *mut usize,
) -> Error {
    run(api, |p| {
        let list = p.graph_root_nodes(graph(g))?;
        // SAFETY: forwarded C contract.
        unsafe { fill("GraphGetRootNodes", &list, nodes, count) }
    })
}

/// `cudaGraphGetEdges` (CUDA 12: from, to, numEdges).
pub(crate) unsafe fn graph_get_edges(
    api: Api,
    g: *mut c_void,
    from: *mut *mut c_void,
    to: *mut *mut c_void,
    count: *mut usize,
) -> Error {
    run(api, |p| {
        let what = "GraphGetEdges";
        let edges = p.graph_edges(graph(g))?;
        if from.is_null() != to.is_null() {
            return Err(invalid(
                what,
                "from and to must both be NULL or both be arrays",
            ));
        }
        let (a, b): (Vec<GraphNode>, Vec<GraphNode>) = edges.into_iter().unzip();
        let room = if count.is_null() {
            None
        } else {
            // SAFETY: non-NULL; C contract.
            Some(unsafe { count.read() })
        };
        // SAFETY: forwarded C contract; the second call writes the same count the first did.
        unsafe {
            fill(what, &a, from, count)?;
            if let Some(r) = room {
                count.write(r);
            }
            fill(what, &b, to, count)
        }
    })
}

pub(crate) unsafe fn graph_node_get_type(api: Api, n: *mut c_void, ty: *mut c_uint) -> Error {
    run(api, |p| {
        if ty.is_null() {
            return Err(invalid("GraphNodeGetType", "NULL output pointer"));
        }
        let t = p.node_type(node(n))?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out("GraphNodeGetType", ty, t.to_raw()) }
    })
}

pub(crate) unsafe fn graph_node_get_dependencies(
    api: Api,
    n: *mut c_void,
    deps: *mut *mut c_void,
    count: *mut usize,
) -> Error {
    run(api, |p| {
        let list = p.node_dependencies(node(n))?;
        // SAFETY: forwarded C contract.
        unsafe { fill("GraphNodeGetDependencies", &list, deps, count) }
    })
}

pub(crate) unsafe fn graph_node_get_dependent_nodes(
    api: Api,
    n: *mut c_void,
    deps: *mut *mut c_void,
    count: *mut usize,
) -> Error {
    run(api, |p| {
        let list = p.node_dependents(node(n))?;
        // SAFETY: forwarded C contract.
        unsafe { fill("GraphNodeGetDependentNodes", &list, deps, count) }
    })
}

/// `cudaGraphDebugDotPrint`: writes the graph's DOT description to `path` (every flag writes the same
/// description, sim). A file that cannot be written is `cudaErrorInvalidValue` (CUDA documents
/// `cudaErrorOperatingSystem`, which the simulator does not produce).
pub(crate) unsafe fn graph_debug_dot_print(
    api: Api,
    g: *mut c_void,
    path: *const c_char,
    _flags: c_uint,
) -> Error {
    run(api, |p| {
        let what = "GraphDebugDotPrint";
        if path.is_null() {
            return Err(invalid(what, "NULL path"));
        }
        // SAFETY: NUL-terminated by the C contract.
        let path = unsafe { CStr::from_ptr(path) }
            .to_string_lossy()
            .into_owned();
        let dot = p.graph_dot(graph(g))?;
        std::fs::write(&path, dot).map_err(|e| invalid(what, format!("cannot write {path}: {e}")))
    })
}
