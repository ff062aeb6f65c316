//! CUDA-family graphs built by hand: `cudaGraphCreate`, the `cudaGraphAdd*Node` calls and `cudaGraphAddNode`,
//! edges, node parameters (graph and executable graph), `cudaGraphExecUpdate`, enabling nodes, upload and
//! `cudaGraphInstantiateWithParams` (CUDA 12.8 signatures and struct layouts). Rows and sources:
//! `docs/semantics/graph-building.md`.
//!
//! A kernel node's `func` is a kernel a `streamsim cc` program registered (`__cudaRegisterFunction`), found as
//! `cudaLaunchKernel` finds it; its arguments are copied when the node is added or set. A plain C program
//! (the `cudasim*` kernels have no function to name) makes a kernel node by capturing a `cudasimLaunchKernel`
//! into a graph and adding that graph as a child graph node.
#![allow(non_snake_case, reason = "the C API's field names")]

use std::ffi::{c_int, c_uint, c_void};
use std::panic::Location;
use std::sync::Arc;

use super::binding::{Api, handle_ptr, invalid, out, stream};
use super::cc_runtime::{Args, Dim3, cpu_kernel};
use super::cuda_memory::endpoints;
use super::cuda_runtime::{Error, HostFn, event, run};
use crate::engine::core::error::SimError;
use crate::engine::core::handle::{Event, Graph, GraphExec, GraphNode};
use crate::engine::core::pointers::{DevicePtr, Dst, Src};
use crate::engine::graph::build::Spec;
use crate::engine::graph::node::{Endpoint, Given, NodeOp};
use crate::engine::graph::{MemsetShape, NodeSpec, NodeType, UpdateResult};
use crate::engine::process::Process;

/// `struct cudaKernelNodeParams` (and the first fields of `cudaKernelNodeParamsV2`).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct KernelNodeParams {
    pub func: *mut c_void,
    pub gridDim: Dim3,
    pub blockDim: Dim3,
    pub sharedMemBytes: c_uint,
    pub kernelParams: *mut *mut c_void,
    pub extra: *mut *mut c_void,
}

/// `struct cudaMemsetParams` (`cudaMemsetParamsV2` without its CUDA 13 context).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct MemsetParams {
    pub dst: *mut c_void,
    pub pitch: usize,
    pub value: c_uint,
    pub elementSize: c_uint,
    pub width: usize,
    pub height: usize,
}

/// `struct cudaHostNodeParams`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct HostNodeParams {
    pub r#fn: HostFn,
    pub userData: *mut c_void,
}

// The 3-D copy structs are the pitched copies' (`cuda_pitched.rs`).
pub use super::cuda_pitched::{Extent, Memcpy3DParms, PitchedPtr, Pos};

/// `struct cudaMemcpyNodeParams` (CUDA 12.8: flags, reserved[3], copyParams).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct MemcpyNodeParams {
    pub flags: c_int,
    pub reserved: [c_int; 3],
    pub copyParams: Memcpy3DParms,
}

/// `struct cudaGraphNodeParams`: a node type and its parameters (a union of 29 `long long`s).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct GraphNodeParams {
    pub r#type: c_uint,
    pub reserved0: [c_int; 3],
    pub u: GraphNodeParamsUnion,
    pub reserved2: i64,
}

/// The union of `struct cudaGraphNodeParams`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union GraphNodeParamsUnion {
    pub reserved1: [i64; 29],
    pub kernel: KernelNodeParams,
    pub memcpy: MemcpyNodeParams,
    pub memset: MemsetParams,
    pub host: HostNodeParams,
    /// `cudaChildGraphNodeParams`: the graph.
    pub graph: *mut c_void,
    /// `cudaEventWaitNodeParams` / `cudaEventRecordNodeParams`: the event.
    pub event: *mut c_void,
    /// `cudaMemAllocNodeParamsV2` (the layout of `cudaMemAllocNodeParams`).
    pub alloc: super::cuda_graph_mem::MemAllocNodeParams,
    /// `cudaMemFreeNodeParams`: the address.
    pub free: *mut c_void,
}

impl std::fmt::Debug for GraphNodeParamsUnion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("GraphNodeParamsUnion { .. }")
    }
}

/// `cudaGraphExecUpdateResultInfo`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct GraphExecUpdateResultInfo {
    pub result: c_uint,
    pub errorNode: *mut c_void,
    pub errorFromNode: *mut c_void,
}

/// `cudaGraphInstantiateParams`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct GraphInstantiateParams {
    pub flags: u64,
    pub uploadStream: *mut c_void,
    pub errNode_out: *mut c_void,
    pub result_out: c_uint,
}

/// `CU_LAUNCH_PARAM_END`, `CU_LAUNCH_PARAM_BUFFER_POINTER`, `CU_LAUNCH_PARAM_BUFFER_SIZE` (`extra`'s keys).
const PARAM_END: usize = 0;
const PARAM_BUFFER_POINTER: usize = 1;
const PARAM_BUFFER_SIZE: usize = 2;

/// `cudaGraphInstantiateSuccess`, `cudaGraphInstantiateError`.
const INSTANTIATE_SUCCESS: c_uint = 0;
const INSTANTIATE_ERROR: c_uint = 1;

pub(super) fn graph(g: *mut c_void) -> Graph {
    Graph::from_raw(g as usize as u64)
}

fn exec(x: *mut c_void) -> GraphExec {
    GraphExec::from_raw(x as usize as u64)
}

pub(super) fn node(n: *mut c_void) -> GraphNode {
    GraphNode::from_raw(n as usize as u64)
}

/// A raw pointer a node keeps (handed back by the getters).
#[derive(Debug, Clone, Copy)]
struct Raw<T>(T);
// SAFETY: the pointers are only handed back to the C program that gave them.
unsafe impl<T> Send for Raw<T> {}
// SAFETY: as above.
unsafe impl<T> Sync for Raw<T> {}

/// What a kernel node was given: the kernel, its configuration, and its parameter block, which
/// `cudaGraphKernelNodeGetParams` hands back as `extra` (the CPU kernel's table does not describe each
/// parameter, so `kernelParams` cannot be rebuilt).
struct KernelGiven {
    func: Raw<*mut c_void>,
    grid: Dim3,
    block: Dim3,
    shmem: c_uint,
    #[allow(dead_code, reason = "`extra` points into it")]
    buf: Box<[u8]>,
    #[allow(dead_code, reason = "`extra` points to it")]
    size: Box<usize>,
    extra: Box<[Raw<*mut c_void>; 5]>,
}

/// A kernel node's description: the engine's kernel and what the getters hand back.
fn kernel_spec(what: &'static str, p: &KernelNodeParams) -> Result<(NodeSpec, Given), SimError> {
    if !p.kernelParams.is_null() && !p.extra.is_null() {
        return Err(invalid(
            what,
            "kernelParams and extra are both set (at most one of them may be)",
        ));
    }
    let buffer;
    let args = if p.extra.is_null() {
        Args::Pointers(p.kernelParams)
    } else {
        // SAFETY: `extra` is a NULL- or END-terminated list of key / value pairs (the C contract).
        buffer = unsafe { extra_buffer(what, p.extra) }?;
        Args::Buffer(buffer)
    };
    let (_, k, block) = cpu_kernel(
        what,
        p.func,
        p.gridDim,
        p.blockDim,
        args,
        p.sharedMemBytes as usize,
    )
    .map_err(|e| match e {
        // cudaGraphAddKernelNode lists cudaErrorInvalidValue and cudaErrorInvalidDeviceFunction.
        SimError::InvalidConfiguration { what, reason } => SimError::InvalidValue { what, reason },
        e => e,
    })?;
    let mut buf = block.into_boxed_slice();
    let size = Box::new(buf.len());
    let extra = Box::new([
        Raw(PARAM_BUFFER_POINTER as *mut c_void),
        Raw(buf.as_mut_ptr().cast::<c_void>()),
        Raw(PARAM_BUFFER_SIZE as *mut c_void),
        Raw((&*size as *const usize).cast_mut().cast::<c_void>()),
        Raw(PARAM_END as *mut c_void),
    ]);
    let given = KernelGiven {
        func: Raw(p.func),
        grid: p.gridDim,
        block: p.blockDim,
        shmem: p.sharedMemBytes,
        buf,
        size,
        extra,
    };
    Ok((NodeSpec::Kernel(k), Arc::new(given)))
}

/// The parameter buffer an `extra` list names.
///
/// # Safety
/// `extra` is a NULL- or `CU_LAUNCH_PARAM_END`-terminated list of key / value pairs whose buffer and size
/// pointers are valid.
unsafe fn extra_buffer<'a>(
    what: &'static str,
    extra: *mut *mut c_void,
) -> Result<&'a [u8], SimError> {
    let (mut ptr, mut size) = (None, None);
    for i in (0..64).step_by(2) {
        // SAFETY: the list is terminated (C contract); at most 64 entries are read.
        let key = unsafe { *extra.add(i) } as usize;
        if key == PARAM_END {
            break;
        }
        // SAFETY: as above: a key is followed by its value.
        let value = unsafe { *extra.add(i + 1) };
        match key {
            PARAM_BUFFER_POINTER => ptr = Some(value),
            PARAM_BUFFER_SIZE if !value.is_null() => {
                // SAFETY: the value of BUFFER_SIZE points to a size_t (C contract).
                size = Some(unsafe { *value.cast::<usize>() });
            }
            _ => {
                return Err(invalid(
                    what,
                    format!(
                        "extra: key {key:#x} (only CU_LAUNCH_PARAM_BUFFER_POINTER, CU_LAUNCH_PARAM_BUFFER_SIZE and \
                         CU_LAUNCH_PARAM_END)"
                    ),
                ));
            }
        }
    }
    match (ptr, size) {
        (Some(p), Some(n)) if !p.is_null() || n == 0 => {
            if n == 0 {
                return Ok(&[]);
            }
            // SAFETY: the buffer holds `n` bytes (C contract).
            Ok(unsafe { std::slice::from_raw_parts(p.cast::<u8>(), n) })
        }
        _ => Err(invalid(
            what,
            "extra names no parameter buffer (CU_LAUNCH_PARAM_BUFFER_POINTER and CU_LAUNCH_PARAM_BUFFER_SIZE)",
        )),
    }
}

/// A memset node's description.
fn memset_spec(what: &'static str, p: &MemsetParams) -> Result<NodeSpec, SimError> {
    if p.dst.is_null() {
        return Err(invalid(what, "NULL destination"));
    }
    Ok(NodeSpec::Memset {
        dst: DevicePtr(p.dst as usize as u64),
        shape: MemsetShape {
            pitch: p.pitch as u64,
            value: p.value,
            element_size: p.elementSize,
            width: p.width as u64,
            height: p.height as u64,
        },
    })
}

/// What a host node was given.
struct HostGiven(Raw<(HostFn, *mut c_void)>);

fn host_spec(what: &'static str, p: &HostNodeParams) -> Result<(NodeSpec, Given), SimError> {
    let Some(f) = p.r#fn else {
        return Err(invalid(what, "NULL host function"));
    };
    let data = Raw(p.userData);
    let spec = NodeSpec::Host(Arc::new(move || {
        let d = data;
        // SAFETY: the C program gave `f` with `data` for this node, run at each launch of its graph (the
        // vendor's contract for a host node).
        unsafe { f(d.0) }
    }));
    Ok((spec, Arc::new(HostGiven(Raw((p.r#fn, p.userData))))))
}

/// What a memcpy node was given (`cudaGraphMemcpyNodeGetParams` hands it back).
struct CopyGiven(Raw<Memcpy3DParms>);

/// A 1D copy's description (`cudaGraphAddMemcpyNode1D`).
///
/// # Safety
/// Host pointers are valid for `count` bytes while the graph may run (the C contract).
unsafe fn copy_1d(
    p: &Process,
    what: &'static str,
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: c_uint,
) -> Result<Spec, SimError> {
    // SAFETY: forwarded C contract.
    let (d, s) = unsafe { endpoints(p, what, dst, src, count, Some(kind)) }?;
    let dst = match d {
        Dst::Device(p) => Endpoint::Device(p),
        Dst::Pinned(p) => Endpoint::Pinned(p),
        Dst::Host(s) => Endpoint::Pageable(s.as_ptr() as usize),
    };
    let src = match s {
        Src::Device(p) => Endpoint::Device(p),
        Src::Pinned(p) => Endpoint::Pinned(p),
        Src::Host(s) => Endpoint::Pageable(s.as_ptr() as usize),
    };
    Ok(Spec::Copy {
        dst,
        src,
        bytes: count as u64,
    })
}

/// A 3D copy's description: one contiguous run of bytes on each side (pitched copies are not simulated).
///
/// # Safety
/// As [`copy_1d`].
unsafe fn copy_3d(
    p: &Process,
    what: &'static str,
    c: &Memcpy3DParms,
) -> Result<(Spec, Given), SimError> {
    if !c.srcArray.is_null() || !c.dstArray.is_null() {
        return Err(SimError::NotSupported {
            what,
            reason: "CUDA arrays are not simulated (srcArray and dstArray must be NULL)".into(),
        });
    }
    let e = c.extent;
    let base = |ptr: &PitchedPtr, pos: &Pos| -> Result<usize, SimError> {
        let off = pos
            .z
            .checked_mul(ptr.ysize)
            .and_then(|r| r.checked_add(pos.y))
            .and_then(|r| r.checked_mul(ptr.pitch))
            .and_then(|r| r.checked_add(pos.x))
            .ok_or_else(|| invalid(what, "the copy's position overflows"))?;
        (ptr.ptr as usize)
            .checked_add(off)
            .ok_or_else(|| invalid(what, "the copy's position overflows"))
    };
    let contiguous = |ptr: &PitchedPtr| {
        (e.height <= 1 && e.depth <= 1)
            || (ptr.pitch == e.width && (e.depth <= 1 || ptr.ysize == e.height))
    };
    if !contiguous(&c.srcPtr) || !contiguous(&c.dstPtr) {
        // SAFETY: forwarded C contract.
        let spec = unsafe { rows_3d(p, what, c) }?;
        return Ok((spec, Arc::new(CopyGiven(Raw(*c)))));
    }
    let count = e
        .width
        .checked_mul(e.height)
        .and_then(|r| r.checked_mul(e.depth))
        .ok_or_else(|| invalid(what, "the copy's extent overflows"))?;
    if c.srcPtr.ptr.is_null() || c.dstPtr.ptr.is_null() {
        return Err(invalid(what, "NULL pointer"));
    }
    let (s, d) = (base(&c.srcPtr, &c.srcPos)?, base(&c.dstPtr, &c.dstPos)?);
    // SAFETY: forwarded C contract.
    let spec = unsafe { copy_1d(p, what, d as *mut c_void, s as *const c_void, count, c.kind) }?;
    Ok((spec, Arc::new(CopyGiven(Raw(*c)))))
}

/// A pitched copy's description (rows apart on a side): each side's pointer, position and layout as
/// `cudaMemcpy3D` reads them.
///
/// # Safety
/// Host pointers are valid for the rows the copy names while the graph may run (the C contract).
unsafe fn rows_3d(p: &Process, what: &'static str, c: &Memcpy3DParms) -> Result<Spec, SimError> {
    use crate::engine::memory::pitched::{Extent as Rows, span};
    let e = c.extent;
    let (s, sp) = super::cuda_pitched::side(what, "src", c.srcArray, c.srcPtr, c.srcPos, e)?;
    let (d, dp) = super::cuda_pitched::side(what, "dst", c.dstArray, c.dstPtr, c.dstPos, e)?;
    let extent = Rows::new(e.width as u64, e.height as u64, e.depth as u64);
    // The graph calls answer cudaErrorInvalidValue, not cudaErrorInvalidPitchValue.
    let sized = |side, pitch| -> Result<usize, SimError> {
        let n = span(what, side, pitch, extent).map_err(|err| match err {
            SimError::InvalidPitch { what, reason } => SimError::InvalidValue { what, reason },
            err => err,
        })?;
        usize::try_from(n).map_err(|_| invalid(what, "the rows span more than the address space"))
    };
    let (dn, sn) = (sized("destination", dp)?, sized("source", sp)?);
    // SAFETY: forwarded C contract.
    let (dst, src) =
        unsafe { super::cuda_memory::endpoints_sized(p, what, (d, dn), (s, sn), Some(c.kind)) }?;
    let dst = match dst {
        Dst::Device(p) => Endpoint::Device(p),
        Dst::Pinned(p) => Endpoint::Pinned(p),
        Dst::Host(s) => Endpoint::Pageable(s.as_ptr() as usize),
    };
    let src = match src {
        Src::Device(p) => Endpoint::Device(p),
        Src::Pinned(p) => Endpoint::Pinned(p),
        Src::Host(s) => Endpoint::Pageable(s.as_ptr() as usize),
    };
    Ok(Spec::Rows {
        dst: (dst, dp),
        src: (src, sp),
        extent,
    })
}

/// The `count` node handles at `nodes` (NULL only with 0).
///
/// # Safety
/// `nodes` is NULL or valid for `count` reads.
pub(crate) unsafe fn nodes_at(
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
    // SAFETY: valid for `count` reads (C contract).
    Ok(unsafe { std::slice::from_raw_parts(nodes, count) }
        .iter()
        .map(|&n| node(n))
        .collect())
}

/// Reads `*ptr`, refusing NULL.
///
/// # Safety
/// `ptr` is NULL or valid for a read.
pub(super) unsafe fn read<T: Copy>(what: &'static str, ptr: *const T) -> Result<T, SimError> {
    if ptr.is_null() {
        return Err(invalid(what, "NULL parameters"));
    }
    // SAFETY: checked non-NULL; C contract.
    Ok(unsafe { ptr.read() })
}

/// The engine's description of a `cudaGraphNodeParams`.
///
/// # Safety
/// The union member of the type is valid (C contract).
unsafe fn generic_spec(
    p: &Process,
    what: &'static str,
    params: &GraphNodeParams,
) -> Result<(Spec, Option<Given>), SimError> {
    if params.reserved0 != [0; 3] {
        return Err(invalid(what, "reserved0 must be zero"));
    }
    let ty = NodeType::from_raw(params.r#type).ok_or_else(|| {
        invalid(
            what,
            format!(
                "node type {}: only kernel 0, memcpy 1, memset 2, host 3, graph 4, empty 5, wait event 6, event \
                 record 7, memory allocation 10 and memory free 11 nodes are simulated",
                params.r#type
            ),
        )
    })?;
    // SAFETY: the member of `ty` is the one the C program set (C contract).
    unsafe {
        Ok(match ty {
            NodeType::Kernel => {
                let (s, g) = kernel_spec(what, &params.u.kernel)?;
                (Spec::Public(s), Some(g))
            }
            NodeType::Memcpy => {
                let (s, g) = copy_3d(p, what, &params.u.memcpy.copyParams)?;
                (s, Some(g))
            }
            NodeType::Memset => (Spec::Public(memset_spec(what, &params.u.memset)?), None),
            NodeType::Host => {
                let (s, g) = host_spec(what, &params.u.host)?;
                (Spec::Public(s), Some(g))
            }
            NodeType::Graph => (
                Spec::Public(NodeSpec::ChildGraph(graph(params.u.graph))),
                None,
            ),
            NodeType::Empty => (Spec::Public(NodeSpec::Empty), None),
            NodeType::EventWait => (
                Spec::Public(NodeSpec::EventWait(event(params.u.event))),
                None,
            ),
            NodeType::EventRecord => (
                Spec::Public(NodeSpec::EventRecord(event(params.u.event))),
                None,
            ),
            NodeType::MemAlloc => super::cuda_graph_mem::alloc_spec(p, what, &params.u.alloc)?,
            NodeType::MemFree => (
                Spec::Public(NodeSpec::MemFree(DevicePtr(params.u.free as usize as u64))),
                None,
            ),
        })
    }
}

/// Adds a node: checks the output pointer and the dependency array, then `spec(process)`.
///
/// # Safety
/// `out_node` is NULL or valid for a write; `deps` is NULL or valid for `count` reads.
#[track_caller]
pub(super) unsafe fn add(
    api: Api,
    what: &'static str,
    out_node: *mut *mut c_void,
    g: *mut c_void,
    deps: *const *mut c_void,
    count: usize,
    spec: impl FnOnce(&Process) -> Result<(Spec, Option<Given>), SimError>,
) -> Error {
    let site = Location::caller();
    run(api, |p| {
        if out_node.is_null() {
            return Err(invalid(what, "NULL output pointer"));
        }
        // SAFETY: forwarded C contract.
        let deps = unsafe { nodes_at(what, deps, count) }?;
        let (spec, given) = spec(p)?;
        let n = p.add_graph_node_in(graph(g), &deps, spec, given, site)?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(what, out_node, handle_ptr(n.to_raw())) }
    })
}

pub(crate) unsafe fn graph_create(api: Api, g: *mut *mut c_void, flags: c_uint) -> Error {
    run(api, |p| {
        let what = "GraphCreate";
        if g.is_null() {
            return Err(invalid(what, "NULL output pointer"));
        }
        if flags != 0 {
            return Err(invalid(what, format!("flags {flags:#x}: must be 0")));
        }
        let graph = p.create_graph()?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(what, g, handle_ptr(graph.to_raw())) }
    })
}

pub(crate) unsafe fn graph_add_kernel_node(
    api: Api,
    n: *mut *mut c_void,
    g: *mut c_void,
    deps: *const *mut c_void,
    count: usize,
    params: *const KernelNodeParams,
) -> Error {
    let what = "GraphAddKernelNode";
    // SAFETY: forwarded C contract.
    unsafe {
        add(api, what, n, g, deps, count, |_| {
            let (s, given) = kernel_spec(what, &read(what, params)?)?;
            Ok((Spec::Public(s), Some(given)))
        })
    }
}

pub(crate) unsafe fn graph_add_memcpy_node(
    api: Api,
    n: *mut *mut c_void,
    g: *mut c_void,
    deps: *const *mut c_void,
    count: usize,
    params: *const Memcpy3DParms,
) -> Error {
    let what = "GraphAddMemcpyNode";
    // SAFETY: forwarded C contract.
    unsafe {
        add(api, what, n, g, deps, count, |p| {
            let (s, given) = copy_3d(p, what, &read(what, params)?)?;
            Ok((s, Some(given)))
        })
    }
}

#[allow(clippy::too_many_arguments, reason = "the C signature")]
pub(crate) unsafe fn graph_add_memcpy_node_1d(
    api: Api,
    n: *mut *mut c_void,
    g: *mut c_void,
    deps: *const *mut c_void,
    count: usize,
    dst: *mut c_void,
    src: *const c_void,
    bytes: usize,
    kind: c_uint,
) -> Error {
    let what = "GraphAddMemcpyNode1D";
    // SAFETY: forwarded C contract.
    unsafe {
        add(api, what, n, g, deps, count, |p| {
            Ok((copy_1d(p, what, dst, src, bytes, kind)?, None))
        })
    }
}

pub(crate) unsafe fn graph_add_memset_node(
    api: Api,
    n: *mut *mut c_void,
    g: *mut c_void,
    deps: *const *mut c_void,
    count: usize,
    params: *const MemsetParams,
) -> Error {
    let what = "GraphAddMemsetNode";
    // SAFETY: forwarded C contract.
    unsafe {
        add(api, what, n, g, deps, count, |_| {
            Ok((Spec::Public(memset_spec(what, &read(what, params)?)?), None))
        })
    }
}

pub(crate) unsafe fn graph_add_host_node(
    api: Api,
    n: *mut *mut c_void,
    g: *mut c_void,
    deps: *const *mut c_void,
    count: usize,
    params: *const HostNodeParams,
) -> Error {
    let what = "GraphAddHostNode";
    // SAFETY: forwarded C contract.
    unsafe {
        add(api, what, n, g, deps, count, |_| {
            let (s, given) = host_spec(what, &read(what, params)?)?;
            Ok((Spec::Public(s), Some(given)))
        })
    }
}

pub(crate) unsafe fn graph_add_event_record_node(
    api: Api,
    n: *mut *mut c_void,
    g: *mut c_void,
    deps: *const *mut c_void,
    count: usize,
    e: *mut c_void,
) -> Error {
    // SAFETY: forwarded C contract.
    unsafe {
        add(api, "GraphAddEventRecordNode", n, g, deps, count, |_| {
            Ok((Spec::Public(NodeSpec::EventRecord(event(e))), None))
        })
    }
}

pub(crate) unsafe fn graph_add_event_wait_node(
    api: Api,
    n: *mut *mut c_void,
    g: *mut c_void,
    deps: *const *mut c_void,
    count: usize,
    e: *mut c_void,
) -> Error {
    // SAFETY: forwarded C contract.
    unsafe {
        add(api, "GraphAddEventWaitNode", n, g, deps, count, |_| {
            Ok((Spec::Public(NodeSpec::EventWait(event(e))), None))
        })
    }
}

pub(crate) unsafe fn graph_add_empty_node(
    api: Api,
    n: *mut *mut c_void,
    g: *mut c_void,
    deps: *const *mut c_void,
    count: usize,
) -> Error {
    // SAFETY: forwarded C contract.
    unsafe {
        add(api, "GraphAddEmptyNode", n, g, deps, count, |_| {
            Ok((Spec::Public(NodeSpec::Empty), None))
        })
    }
}

pub(crate) unsafe fn graph_add_child_graph_node(
    api: Api,
    n: *mut *mut c_void,
    g: *mut c_void,
    deps: *const *mut c_void,
    count: usize,
    child: *mut c_void,
) -> Error {
    // SAFETY: forwarded C contract.
    unsafe {
        add(api, "GraphAddChildGraphNode", n, g, deps, count, |_| {
            Ok((Spec::Public(NodeSpec::ChildGraph(graph(child))), None))
        })
    }
}

pub(crate) unsafe fn graph_add_node(
    api: Api,
    n: *mut *mut c_void,
    g: *mut c_void,
    deps: *const *mut c_void,
    count: usize,
    params: *mut GraphNodeParams,
) -> Error {
    let what = "GraphAddNode";
    // SAFETY: forwarded C contract.
    let e = unsafe {
        add(api, what, n, g, deps, count, |p| {
            generic_spec(p, what, &read(what, params)?)
        })
    };
    // An allocation node gives its address back in the parameters (`cudaMemAllocNodeParamsV2::dptr`).
    // SAFETY: `params` was read above, so it is valid; `n` was written by the successful add.
    if e == Error::default() && unsafe { (*params).r#type } == NodeType::MemAlloc.to_raw() {
        return run(api, |p| unsafe {
            super::cuda_graph_mem::write_alloc_address(p, n, &raw mut (*params).u.alloc.dptr)
        });
    }
    e
}

/// The edges `from[i] → to[i]`.
///
/// # Safety
/// `from` and `to` are NULL or valid for `count` reads.
unsafe fn edges(
    what: &'static str,
    from: *const *mut c_void,
    to: *const *mut c_void,
    count: usize,
) -> Result<Vec<(GraphNode, GraphNode)>, SimError> {
    // SAFETY: forwarded C contract.
    let (a, b) = unsafe { (nodes_at(what, from, count)?, nodes_at(what, to, count)?) };
    Ok(a.into_iter().zip(b).collect())
}

pub(crate) unsafe fn graph_add_dependencies(
    api: Api,
    g: *mut c_void,
    from: *const *mut c_void,
    to: *const *mut c_void,
    count: usize,
) -> Error {
    run(api, |p| {
        // SAFETY: forwarded C contract.
        let e = unsafe { edges("GraphAddDependencies", from, to, count) }?;
        p.add_graph_dependencies(graph(g), &e)
    })
}

pub(crate) unsafe fn graph_remove_dependencies(
    api: Api,
    g: *mut c_void,
    from: *const *mut c_void,
    to: *const *mut c_void,
    count: usize,
) -> Error {
    run(api, |p| {
        // SAFETY: forwarded C contract.
        let e = unsafe { edges("GraphRemoveDependencies", from, to, count) }?;
        p.remove_graph_dependencies(graph(g), &e)
    })
}

pub(crate) fn graph_destroy_node(api: Api, n: *mut c_void) -> Error {
    run(api, |p| p.destroy_graph_node(node(n)))
}

// ---------------------------------------------------------------------------------------------- parameters

fn not_a(what: &'static str, n: GraphNode, op: &NodeOp, want: NodeType) -> SimError {
    invalid(
        what,
        format!(
            "node {:#x} is a {} node, not a {} node",
            n.to_raw(),
            op.node_type().dot_name(),
            want.dot_name()
        ),
    )
}

/// A kernel node's parameters as `cudaGraphKernelNodeGetParams` gives them.
fn kernel_params_of(
    what: &'static str,
    n: GraphNode,
    op: &NodeOp,
    given: Option<&Given>,
) -> Result<KernelNodeParams, SimError> {
    if !matches!(op, NodeOp::Kernel { .. }) {
        return Err(not_a(what, n, op, NodeType::Kernel));
    }
    let Some(k) = given.and_then(|g| g.downcast_ref::<KernelGiven>()) else {
        return Err(SimError::NotSupported {
            what,
            reason: "the kernel node was captured or added through the Rust API: it names no function a C \
                     program registered"
                .into(),
        });
    };
    Ok(KernelNodeParams {
        func: k.func.0,
        gridDim: k.grid,
        blockDim: k.block,
        sharedMemBytes: k.shmem,
        kernelParams: std::ptr::null_mut(),
        extra: k.extra.as_ptr().cast_mut().cast::<*mut c_void>(),
    })
}

/// A memcpy node's parameters (a captured copy: its 1D form, kind `cudaMemcpyDefault`).
fn copy_params_of(
    what: &'static str,
    n: GraphNode,
    op: &NodeOp,
    given: Option<&Given>,
) -> Result<Memcpy3DParms, SimError> {
    if op.node_type() == NodeType::Memcpy
        && let Some(c) = given.and_then(|g| g.downcast_ref::<CopyGiven>())
    {
        return Ok(c.0.0);
    }
    if let NodeOp::Rows(crate::engine::graph::node::RowsNode::Copy {
        dst,
        dp,
        src,
        sp,
        extent,
        ..
    }) = op
    {
        return Ok(captured_rows_params(*dst, *dp, *src, *sp, *extent));
    }
    let NodeOp::Copy {
        dst, src, bytes, ..
    } = op
    else {
        return Err(not_a(what, n, op, NodeType::Memcpy));
    };
    let addr = |e: &Endpoint| match e {
        Endpoint::Device(p) => p.0 as usize,
        Endpoint::Pinned(p) => p.0 as usize,
        Endpoint::Pageable(a) => *a,
    };
    let w = *bytes as usize;
    let pitched = |a: usize| PitchedPtr {
        ptr: a as *mut c_void,
        pitch: w,
        xsize: w,
        ysize: 1,
    };
    let origin = Pos { x: 0, y: 0, z: 0 };
    Ok(Memcpy3DParms {
        srcArray: std::ptr::null_mut(),
        srcPos: origin,
        srcPtr: pitched(addr(src)),
        dstArray: std::ptr::null_mut(),
        dstPos: origin,
        dstPtr: pitched(addr(dst)),
        extent: Extent {
            width: w,
            height: 1,
            depth: 1,
        },
        kind: super::cuda_memory::MEMCPY_DEFAULT,
    })
}

/// A captured pitched copy's `cudaMemcpy3DParms`: each side's first row as the pointer, its pitch, and the rows
/// per slice as `ysize` (the extent's height for one slice), kind `cudaMemcpyDefault`.
fn captured_rows_params(
    dst: Endpoint,
    dp: crate::engine::memory::pitched::Pitch,
    src: Endpoint,
    sp: crate::engine::memory::pitched::Pitch,
    e: crate::engine::memory::pitched::Extent,
) -> Memcpy3DParms {
    let addr = |x: Endpoint| match x {
        Endpoint::Device(p) => p.0 as usize,
        Endpoint::Pinned(p) => p.0 as usize,
        Endpoint::Pageable(a) => a,
    };
    let side = |x: Endpoint, p: crate::engine::memory::pitched::Pitch| PitchedPtr {
        ptr: addr(x) as *mut c_void,
        pitch: p.pitch as usize,
        xsize: e.width as usize,
        ysize: if e.depth > 1 && p.pitch > 0 {
            (p.slice / p.pitch) as usize
        } else {
            e.height as usize
        },
    };
    let origin = Pos { x: 0, y: 0, z: 0 };
    Memcpy3DParms {
        srcArray: std::ptr::null_mut(),
        srcPos: origin,
        srcPtr: side(src, sp),
        dstArray: std::ptr::null_mut(),
        dstPos: origin,
        dstPtr: side(dst, dp),
        extent: Extent {
            width: e.width as usize,
            height: e.height as usize,
            depth: e.depth as usize,
        },
        kind: super::cuda_memory::MEMCPY_DEFAULT,
    }
}

fn host_params_of(
    what: &'static str,
    n: GraphNode,
    op: &NodeOp,
    given: Option<&Given>,
) -> Result<HostNodeParams, SimError> {
    if !matches!(op, NodeOp::Host(_)) {
        return Err(not_a(what, n, op, NodeType::Host));
    }
    let Some(h) = given.and_then(|g| g.downcast_ref::<HostGiven>()) else {
        return Err(SimError::NotSupported {
            what,
            reason: "the host node was captured (cudaLaunchHostFunc) or added through the Rust API: its function \
                     is not kept as a C function pointer"
                .into(),
        });
    };
    let (f, data) = h.0.0;
    Ok(HostNodeParams {
        r#fn: f,
        userData: data,
    })
}

pub(crate) unsafe fn graph_kernel_node_get_params(
    api: Api,
    n: *mut c_void,
    params: *mut KernelNodeParams,
) -> Error {
    run(api, |p| {
        let what = "GraphKernelNodeGetParams";
        if params.is_null() {
            return Err(invalid(what, "NULL output pointer"));
        }
        let v = p.graph_node_view(node(n))?;
        let k = kernel_params_of(what, node(n), &v.op, v.given.as_ref())?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(what, params, k) }
    })
}

pub(crate) unsafe fn graph_memcpy_node_get_params(
    api: Api,
    n: *mut c_void,
    params: *mut Memcpy3DParms,
) -> Error {
    run(api, |p| {
        let what = "GraphMemcpyNodeGetParams";
        if params.is_null() {
            return Err(invalid(what, "NULL output pointer"));
        }
        let v = p.graph_node_view(node(n))?;
        let c = copy_params_of(what, node(n), &v.op, v.given.as_ref())?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(what, params, c) }
    })
}

pub(crate) unsafe fn graph_memset_node_get_params(
    api: Api,
    n: *mut c_void,
    params: *mut MemsetParams,
) -> Error {
    run(api, |p| {
        let what = "GraphMemsetNodeGetParams";
        if params.is_null() {
            return Err(invalid(what, "NULL output pointer"));
        }
        let (dst, s) = p.graph_node_memset(node(n))?;
        let m = MemsetParams {
            dst: dst.0 as usize as *mut c_void,
            pitch: s.pitch as usize,
            value: s.value,
            elementSize: s.element_size,
            width: s.width as usize,
            height: s.height as usize,
        };
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(what, params, m) }
    })
}

pub(crate) unsafe fn graph_host_node_get_params(
    api: Api,
    n: *mut c_void,
    params: *mut HostNodeParams,
) -> Error {
    run(api, |p| {
        let what = "GraphHostNodeGetParams";
        if params.is_null() {
            return Err(invalid(what, "NULL output pointer"));
        }
        let v = p.graph_node_view(node(n))?;
        let h = host_params_of(what, node(n), &v.op, v.given.as_ref())?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(what, params, h) }
    })
}

/// `cudaGraphEventRecordNodeGetEvent` / `cudaGraphEventWaitNodeGetEvent`.
pub(crate) unsafe fn graph_event_node_get_event(
    api: Api,
    n: *mut c_void,
    e: *mut *mut c_void,
    want: NodeType,
) -> Error {
    run(api, |p| {
        let what = "GraphEventNodeGetEvent";
        if e.is_null() {
            return Err(invalid(what, "NULL output pointer"));
        }
        let v = p.graph_node_view(node(n))?;
        if v.op.node_type() != want {
            return Err(not_a(what, node(n), &v.op, want));
        }
        let ev = p.graph_node_event(node(n))?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(what, e, handle_ptr(ev.to_raw())) }
    })
}

pub(crate) unsafe fn graph_event_record_node_get_event(
    api: Api,
    n: *mut c_void,
    e: *mut *mut c_void,
) -> Error {
    // SAFETY: forwarded C contract.
    unsafe { graph_event_node_get_event(api, n, e, NodeType::EventRecord) }
}

pub(crate) unsafe fn graph_event_wait_node_get_event(
    api: Api,
    n: *mut c_void,
    e: *mut *mut c_void,
) -> Error {
    // SAFETY: forwarded C contract.
    unsafe { graph_event_node_get_event(api, n, e, NodeType::EventWait) }
}

/// Where a set call puts the parameters: a graph's node, or an executable graph's.
#[derive(Clone, Copy)]
enum Target {
    Graph(GraphNode),
    Exec(GraphExec, GraphNode),
}

fn set(p: &Process, t: Target, spec: Spec, given: Option<Given>) -> Result<(), SimError> {
    match t {
        Target::Graph(n) => p.set_graph_node_in(n, spec, given),
        Target::Exec(x, n) => p.set_exec_node_in(x, n, spec, given),
    }
}

/// Sets a kernel node's parameters.
///
/// # Safety
/// `params` is NULL or valid for a read, with valid argument pointers.
unsafe fn set_kernel(
    api: Api,
    what: &'static str,
    t: Target,
    params: *const KernelNodeParams,
) -> Error {
    run(api, |p| {
        // SAFETY: forwarded C contract.
        let (s, g) = kernel_spec(what, &unsafe { read(what, params) }?)?;
        set(p, t, Spec::Public(s), Some(g))
    })
}

/// # Safety
/// As [`copy_3d`].
unsafe fn set_copy(api: Api, what: &'static str, t: Target, params: *const Memcpy3DParms) -> Error {
    run(api, |p| {
        // SAFETY: forwarded C contract.
        let (s, g) = unsafe { copy_3d(p, what, &read(what, params)?) }?;
        set(p, t, s, Some(g))
    })
}

/// # Safety
/// As [`copy_1d`].
unsafe fn set_copy_1d(
    api: Api,
    what: &'static str,
    t: Target,
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: c_uint,
) -> Error {
    run(api, |p| {
        // SAFETY: forwarded C contract.
        let s = unsafe { copy_1d(p, what, dst, src, count, kind) }?;
        set(p, t, s, None)
    })
}

/// # Safety
/// `params` is NULL or valid for a read.
unsafe fn set_memset(
    api: Api,
    what: &'static str,
    t: Target,
    params: *const MemsetParams,
) -> Error {
    run(api, |p| {
        // SAFETY: forwarded C contract.
        let s = memset_spec(what, &unsafe { read(what, params) }?)?;
        set(p, t, Spec::Public(s), None)
    })
}

/// # Safety
/// `params` is NULL or valid for a read.
unsafe fn set_host(
    api: Api,
    what: &'static str,
    t: Target,
    params: *const HostNodeParams,
) -> Error {
    run(api, |p| {
        // SAFETY: forwarded C contract.
        let (s, g) = host_spec(what, &unsafe { read(what, params) }?)?;
        set(p, t, Spec::Public(s), Some(g))
    })
}

fn set_event(api: Api, t: Target, e: *mut c_void, want: NodeType) -> Error {
    run(api, |p| {
        let ev: Event = event(e);
        let spec = if want == NodeType::EventRecord {
            NodeSpec::EventRecord(ev)
        } else {
            NodeSpec::EventWait(ev)
        };
        set(p, t, Spec::Public(spec), None)
    })
}

/// # Safety
/// As [`generic_spec`].
unsafe fn set_generic(
    api: Api,
    what: &'static str,
    t: Target,
    params: *mut GraphNodeParams,
) -> Error {
    run(api, |p| {
        // SAFETY: forwarded C contract.
        let (s, g) = unsafe { generic_spec(p, what, &read(what, params)?) }?;
        set(p, t, s, g)
    })
}

pub(crate) unsafe fn graph_kernel_node_set_params(
    api: Api,
    n: *mut c_void,
    params: *const KernelNodeParams,
) -> Error {
    // SAFETY: forwarded C contract.
    unsafe {
        set_kernel(
            api,
            "GraphKernelNodeSetParams",
            Target::Graph(node(n)),
            params,
        )
    }
}

pub(crate) unsafe fn graph_memcpy_node_set_params(
    api: Api,
    n: *mut c_void,
    params: *const Memcpy3DParms,
) -> Error {
    // SAFETY: forwarded C contract.
    unsafe {
        set_copy(
            api,
            "GraphMemcpyNodeSetParams",
            Target::Graph(node(n)),
            params,
        )
    }
}

pub(crate) unsafe fn graph_memcpy_node_set_params_1d(
    api: Api,
    n: *mut c_void,
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: c_uint,
) -> Error {
    // SAFETY: forwarded C contract.
    unsafe {
        set_copy_1d(
            api,
            "GraphMemcpyNodeSetParams1D",
            Target::Graph(node(n)),
            dst,
            src,
            count,
            kind,
        )
    }
}

pub(crate) unsafe fn graph_memset_node_set_params(
    api: Api,
    n: *mut c_void,
    params: *const MemsetParams,
) -> Error {
    // SAFETY: forwarded C contract.
    unsafe {
        set_memset(
            api,
            "GraphMemsetNodeSetParams",
            Target::Graph(node(n)),
            params,
        )
    }
}

pub(crate) unsafe fn graph_host_node_set_params(
    api: Api,
    n: *mut c_void,
    params: *const HostNodeParams,
) -> Error {
    // SAFETY: forwarded C contract.
    unsafe {
        set_host(
            api,
            "GraphHostNodeSetParams",
            Target::Graph(node(n)),
            params,
        )
    }
}

pub(crate) fn graph_event_record_node_set_event(api: Api, n: *mut c_void, e: *mut c_void) -> Error {
    set_event(api, Target::Graph(node(n)), e, NodeType::EventRecord)
}

pub(crate) fn graph_event_wait_node_set_event(api: Api, n: *mut c_void, e: *mut c_void) -> Error {
    set_event(api, Target::Graph(node(n)), e, NodeType::EventWait)
}

pub(crate) unsafe fn graph_node_set_params(
    api: Api,
    n: *mut c_void,
    params: *mut GraphNodeParams,
) -> Error {
    // SAFETY: forwarded C contract.
    unsafe { set_generic(api, "GraphNodeSetParams", Target::Graph(node(n)), params) }
}

/// `cudaGraphNodeGetParams`: the node's type and its member of the union (the rest zero).
pub(crate) unsafe fn graph_node_get_params(
    api: Api,
    n: *mut c_void,
    params: *mut GraphNodeParams,
) -> Error {
    run(api, |p| {
        let what = "GraphNodeGetParams";
        if params.is_null() {
            return Err(invalid(what, "NULL output pointer"));
        }
        let v = p.graph_node_view(node(n))?;
        let ty = v.op.node_type();
        let mut out_params = GraphNodeParams {
            r#type: ty.to_raw(),
            reserved0: [0; 3],
            u: GraphNodeParamsUnion { reserved1: [0; 29] },
            reserved2: 0,
        };
        match ty {
            NodeType::Kernel => {
                out_params.u.kernel = kernel_params_of(what, node(n), &v.op, v.given.as_ref())?;
            }
            NodeType::Memcpy => {
                out_params.u.memcpy = MemcpyNodeParams {
                    flags: 0,
                    reserved: [0; 3],
                    copyParams: copy_params_of(what, node(n), &v.op, v.given.as_ref())?,
                };
            }
            NodeType::Memset => {
                let (dst, s) = p.graph_node_memset(node(n))?;
                out_params.u.memset = MemsetParams {
                    dst: dst.0 as usize as *mut c_void,
                    pitch: s.pitch as usize,
                    value: s.value,
                    elementSize: s.element_size,
                    width: s.width as usize,
                    height: s.height as usize,
                };
            }
            NodeType::Host => {
                out_params.u.host = host_params_of(what, node(n), &v.op, v.given.as_ref())?;
            }
            NodeType::EventRecord | NodeType::EventWait => {
                out_params.u.event = handle_ptr(p.graph_node_event(node(n))?.to_raw());
            }
            NodeType::Graph => {
                // The node's embedded graph, as cudaGraphChildGraphNodeGetGraph gives it.
                out_params.u.graph = handle_ptr(p.child_graph(node(n))?.to_raw());
            }
            NodeType::Empty => {}
            NodeType::MemAlloc => {
                out_params.u.alloc =
                    super::cuda_graph_mem::alloc_params_of(what, node(n), &v.op, v.given.as_ref())?;
            }
            NodeType::MemFree => {
                let NodeOp::MemFree { base } = v.op else {
                    unreachable!("a free node")
                };
                out_params.u.free = base as usize as *mut c_void;
            }
        }
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(what, params, out_params) }
    })
}

pub(crate) unsafe fn graph_exec_kernel_node_set_params(
    api: Api,
    x: *mut c_void,
    n: *mut c_void,
    params: *const KernelNodeParams,
) -> Error {
    // SAFETY: forwarded C contract.
    unsafe {
        set_kernel(
            api,
            "GraphExecKernelNodeSetParams",
            Target::Exec(exec(x), node(n)),
            params,
        )
    }
}

pub(crate) unsafe fn graph_exec_memcpy_node_set_params(
    api: Api,
    x: *mut c_void,
    n: *mut c_void,
    params: *const Memcpy3DParms,
) -> Error {
    // SAFETY: forwarded C contract.
    unsafe {
        set_copy(
            api,
            "GraphExecMemcpyNodeSetParams",
            Target::Exec(exec(x), node(n)),
            params,
        )
    }
}

#[allow(clippy::too_many_arguments, reason = "the C signature")]
pub(crate) unsafe fn graph_exec_memcpy_node_set_params_1d(
    api: Api,
    x: *mut c_void,
    n: *mut c_void,
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: c_uint,
) -> Error {
    // SAFETY: forwarded C contract.
    unsafe {
        set_copy_1d(
            api,
            "GraphExecMemcpyNodeSetParams1D",
            Target::Exec(exec(x), node(n)),
            dst,
            src,
            count,
            kind,
        )
    }
}

pub(crate) unsafe fn graph_exec_memset_node_set_params(
    api: Api,
    x: *mut c_void,
    n: *mut c_void,
    params: *const MemsetParams,
) -> Error {
    // SAFETY: forwarded C contract.
    unsafe {
        set_memset(
            api,
            "GraphExecMemsetNodeSetParams",
            Target::Exec(exec(x), node(n)),
            params,
        )
    }
}

pub(crate) unsafe fn graph_exec_host_node_set_params(
    api: Api,
    x: *mut c_void,
    n: *mut c_void,
    params: *const HostNodeParams,
) -> Error {
    // SAFETY: forwarded C contract.
    unsafe {
        set_host(
            api,
            "GraphExecHostNodeSetParams",
            Target::Exec(exec(x), node(n)),
            params,
        )
    }
}

pub(crate) fn graph_exec_event_record_node_set_event(
    api: Api,
    x: *mut c_void,
    n: *mut c_void,
    e: *mut c_void,
) -> Error {
    set_event(
        api,
        Target::Exec(exec(x), node(n)),
        e,
        NodeType::EventRecord,
    )
}

pub(crate) fn graph_exec_event_wait_node_set_event(
    api: Api,
    x: *mut c_void,
    n: *mut c_void,
    e: *mut c_void,
) -> Error {
    set_event(api, Target::Exec(exec(x), node(n)), e, NodeType::EventWait)
}

pub(crate) unsafe fn graph_exec_node_set_params(
    api: Api,
    x: *mut c_void,
    n: *mut c_void,
    params: *mut GraphNodeParams,
) -> Error {
    // SAFETY: forwarded C contract.
    unsafe {
        set_generic(
            api,
            "GraphExecNodeSetParams",
            Target::Exec(exec(x), node(n)),
            params,
        )
    }
}

/// `cudaGraphExecUpdate` (CUDA 12: the result info).
pub(crate) unsafe fn graph_exec_update(
    api: Api,
    x: *mut c_void,
    g: *mut c_void,
    info: *mut GraphExecUpdateResultInfo,
) -> Error {
    run(api, |p| {
        let what = "GraphExecUpdate";
        if info.is_null() {
            return Err(invalid(what, "NULL result info pointer"));
        }
        let write = |result: UpdateResult, node: Option<GraphNode>, from: Option<GraphNode>| {
            let ptr =
                |n: Option<GraphNode>| n.map_or(std::ptr::null_mut(), |n| handle_ptr(n.to_raw()));
            // SAFETY: checked non-NULL; C contract.
            unsafe {
                info.write(GraphExecUpdateResultInfo {
                    result: result.to_raw(),
                    errorNode: ptr(node),
                    errorFromNode: ptr(from),
                })
            }
        };
        match p.update_graph_exec(exec(x), graph(g)) {
            Ok(o) => {
                write(o.result, o.error_node, o.error_from);
                Ok(())
            }
            Err(e) => {
                match &e {
                    SimError::GraphExecUpdate { outcome, .. } => {
                        write(outcome.result, outcome.error_node, outcome.error_from)
                    }
                    // "cudaGraphExecUpdateError if passed an invalid value."
                    _ => write(UpdateResult::Error, None, None),
                }
                Err(e)
            }
        }
    })
}

pub(crate) fn graph_node_set_enabled(
    api: Api,
    x: *mut c_void,
    n: *mut c_void,
    enabled: c_uint,
) -> Error {
    run(api, |p| {
        p.set_exec_node_enabled(exec(x), node(n), enabled != 0)
    })
}

pub(crate) unsafe fn graph_node_get_enabled(
    api: Api,
    x: *mut c_void,
    n: *mut c_void,
    enabled: *mut c_uint,
) -> Error {
    run(api, |p| {
        let what = "GraphNodeGetEnabled";
        if enabled.is_null() {
            return Err(invalid(what, "NULL output pointer"));
        }
        let e = p.exec_node_enabled(exec(x), node(n))?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(what, enabled, c_uint::from(e)) }
    })
}

pub(crate) fn graph_upload(api: Api, x: *mut c_void, s: *mut c_void) -> Error {
    run(api, |p| p.upload_graph(exec(x), stream(s)))
}

/// `cudaGraphInstantiateWithParams`: the flags of `cudaGraphInstantiate`, an upload into `uploadStream` with
/// `cudaGraphInstantiateFlagUpload`, and the result in `result_out` (`errNode_out` NULL: no error the simulator
/// finds names a node).
pub(crate) unsafe fn graph_instantiate_with_params(
    api: Api,
    x: *mut *mut c_void,
    g: *mut c_void,
    params: *mut GraphInstantiateParams,
) -> Error {
    let what = "GraphInstantiateWithParams";
    if params.is_null() {
        return run(api, |_| Err(invalid(what, "NULL parameters")));
    }
    // SAFETY: checked non-NULL; C contract.
    let flags = unsafe { (*params).flags };
    // SAFETY: forwarded C contract.
    let code = unsafe { super::cuda_graph::graph_instantiate_flags(api, x, g, flags, true) };
    let code = if code == 0 && flags & 2 != 0 {
        // SAFETY: as above.
        let s = unsafe { (*params).uploadStream };
        // SAFETY: `x` was written by the instantiation.
        let made = unsafe { *x };
        let c = graph_upload(api, made, s);
        if c != 0 {
            // The executable graph is not handed out when its upload fails.
            let _ = super::cuda_graph::graph_exec_destroy(api, made);
            // SAFETY: as above.
            unsafe { *x = std::ptr::null_mut() };
        }
        c
    } else {
        code
    };
    // SAFETY: checked non-NULL; C contract.
    unsafe {
        (*params).errNode_out = std::ptr::null_mut();
        (*params).result_out = if code == 0 {
            INSTANTIATE_SUCCESS
        } else {
            INSTANTIATE_ERROR
        };
    }
    code
}
