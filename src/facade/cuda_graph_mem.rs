//! CUDA-family graph memory nodes: `cudaGraphAddMemAllocNode`, `cudaGraphAddMemFreeNode`, their getters,
//! `cudaDeviceGraphMemTrim` and `cudaDeviceGet/SetGraphMemAttribute` (CUDA 12.8 signatures; the node types 10
//! and 11 of `cudaGraphAddNode` / `cudaGraphNodeGetParams` are in `cuda_graph_build.rs`). Rows and sources:
//! `docs/semantics/graph-memory.md`.
#![allow(non_snake_case, reason = "the C API's field names")]

use std::ffi::{c_int, c_void};
use std::panic::Location;
use std::sync::Arc;

use super::binding::{Api, handle_ptr, invalid, out};
use super::cuda_graph_build::{graph, node, read};
use super::cuda_pool::{
    MEM_ALLOCATION_TYPE_PINNED, MEM_HANDLE_TYPE_NONE, MEM_LOCATION_TYPE_DEVICE, MemAccessDesc,
    MemPoolProps,
};
use super::cuda_runtime::{Error, run};
use crate::engine::core::error::SimError;
use crate::engine::core::handle::GraphNode;
use crate::engine::core::pointers::DevicePtr;
use crate::engine::graph::NodeSpec;
use crate::engine::graph::build::Spec;
use crate::engine::graph::memory::GraphMemAttr;
use crate::engine::graph::node::{Given, NodeOp};
use crate::engine::process::Process;

/// `struct cudaMemAllocNodeParams` (and `cudaMemAllocNodeParamsV2`, the same layout).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct MemAllocNodeParams {
    /// Where the allocation resides: pinned device memory of a device.
    pub poolProps: MemPoolProps,
    /// Peer access to give (at most one per device).
    pub accessDescs: *const MemAccessDesc,
    pub accessDescCount: usize,
    /// Bytes to allocate.
    pub bytesize: usize,
    /// Out: the allocation's address.
    pub dptr: *mut c_void,
}

/// What an allocation node was given, which `cudaGraphMemAllocNodeGetParams` hands back: the properties, and the
/// access descriptors owned by the node ("The poolProps and accessDescs returned in params_out, are owned by the
/// node").
struct AllocGiven {
    props: MemPoolProps,
    descs: Box<[MemAccessDesc]>,
}

// SAFETY: the only pointer in `MemPoolProps` (`win32SecurityAttributes`, Windows only) is kept to be handed back,
// never dereferenced.
unsafe impl Send for AllocGiven {}
// SAFETY: as above; the value is never changed after it is made.
unsafe impl Sync for AllocGiven {}

/// A device of a `cudaMemLocation` (`cudaMemLocationTypeDevice` of a device of the machine), or 1.
fn location_device(
    p: &Process,
    what: &'static str,
    ty: u32,
    id: c_int,
    of: &str,
) -> Result<u32, SimError> {
    if ty != MEM_LOCATION_TYPE_DEVICE {
        return Err(invalid(
            what,
            format!("{of}.type {ty}: only cudaMemLocationTypeDevice (1)"),
        ));
    }
    u32::try_from(id)
        .ok()
        .filter(|&d| d < p.machine().device_count())
        .ok_or_else(|| invalid(what, format!("{of}.id {id} is not a device")))
}

/// The engine's description of an allocation node, checked as `cudaGraphAddMemAllocNode` checks it.
///
/// # Safety
/// `params.accessDescs` is NULL or valid for `accessDescCount` reads (C contract).
pub(super) unsafe fn alloc_spec(
    p: &Process,
    what: &'static str,
    params: &MemAllocNodeParams,
) -> Result<(Spec, Option<Given>), SimError> {
    let pr = params.poolProps;
    if pr.allocType != MEM_ALLOCATION_TYPE_PINNED {
        return Err(invalid(
            what,
            format!(
                "poolProps.allocType {}: graph allocations are cudaMemAllocationTypePinned (1)",
                pr.allocType
            ),
        ));
    }
    let device = location_device(
        p,
        what,
        pr.location.r#type,
        pr.location.id,
        "poolProps.location",
    )?;
    if pr.handleTypes != MEM_HANDLE_TYPE_NONE {
        return Err(invalid(
            what,
            format!(
                "poolProps.handleTypes {:#x}: must be cudaMemHandleTypeNone (IPC is not supported)",
                pr.handleTypes
            ),
        ));
    }
    let devices = p.machine().device_count() as usize;
    if params.accessDescCount > devices {
        return Err(invalid(
            what,
            format!(
                "accessDescCount {}: at most one descriptor per device ({devices})",
                params.accessDescCount
            ),
        ));
    }
    let descs: Box<[MemAccessDesc]> = if params.accessDescCount == 0 {
        Box::new([])
    } else if params.accessDescs.is_null() {
        return Err(invalid(
            what,
            "NULL accessDescs with a non-zero accessDescCount",
        ));
    } else {
        // SAFETY: valid for `accessDescCount` reads (C contract).
        unsafe { std::slice::from_raw_parts(params.accessDescs, params.accessDescCount) }.into()
    };
    for d in descs.iter() {
        location_device(
            p,
            what,
            d.location.r#type,
            d.location.id,
            "accessDescs[].location",
        )?;
        if !matches!(d.flags, 0 | 1 | 3) {
            return Err(invalid(
                what,
                format!("accessDescs[].flags {}: not a cudaMemAccessFlags", d.flags),
            ));
        }
    }
    let given: Given = Arc::new(AllocGiven { props: pr, descs });
    Ok((
        Spec::Public(NodeSpec::MemAlloc {
            device,
            bytes: params.bytesize as u64,
        }),
        Some(given),
    ))
}

/// What `cudaGraphMemAllocNodeGetParams` gives for `op` (an allocation node's, else 1).
pub(super) fn alloc_params_of(
    what: &'static str,
    n: GraphNode,
    op: &NodeOp,
    given: Option<&Given>,
) -> Result<MemAllocNodeParams, SimError> {
    let NodeOp::MemAlloc { base, bytes } = op else {
        return Err(invalid(
            what,
            format!(
                "node {:#x} is a {} node, not a memory allocation node",
                n.0,
                op.node_type().dot_name()
            ),
        ));
    };
    let g = given.and_then(|g| g.downcast_ref::<AllocGiven>());
    let (props, descs, count) = match g {
        Some(g) => (
            g.props,
            if g.descs.is_empty() {
                std::ptr::null()
            } else {
                g.descs.as_ptr()
            },
            g.descs.len(),
        ),
        // Captured (cudaMallocAsync): the properties of a pool of the graph's device.
        None => (default_props(), std::ptr::null(), 0),
    };
    Ok(MemAllocNodeParams {
        poolProps: props,
        accessDescs: descs,
        accessDescCount: count,
        bytesize: *bytes as usize,
        dptr: *base as usize as *mut c_void,
    })
}

/// The pool properties a captured allocation reports: pinned memory of a device (its id is not recorded: 0).
fn default_props() -> MemPoolProps {
    MemPoolProps {
        allocType: MEM_ALLOCATION_TYPE_PINNED,
        handleTypes: MEM_HANDLE_TYPE_NONE,
        location: super::cuda_pool::MemLocation {
            r#type: MEM_LOCATION_TYPE_DEVICE,
            id: 0,
        },
        win32SecurityAttributes: std::ptr::null_mut(),
        maxSize: 0,
        usage: 0,
        reserved: [0; 54],
    }
}

/// The address of allocation node `n` (just added).
fn base_of(p: &Process, n: GraphNode) -> Result<u64, SimError> {
    match p.graph_node_view(n)?.op {
        NodeOp::MemAlloc { base, .. } => Ok(base),
        _ => unreachable!("an allocation node was just added"),
    }
}

/// Writes allocation node `*out_node`'s address into `*dptr` after `cudaGraphAddNode` added one.
///
/// # Safety
/// `out_node` was written by a successful add; `dptr` is valid for a write.
pub(super) unsafe fn write_alloc_address(
    p: &Process,
    out_node: *mut *mut c_void,
    dptr: *mut *mut c_void,
) -> Result<(), SimError> {
    // SAFETY: the add succeeded, so it wrote the handle (C contract for both pointers).
    unsafe {
        let base = base_of(p, node(out_node.read()))?;
        dptr.write(base as usize as *mut c_void);
    }
    Ok(())
}

#[track_caller]
pub(crate) unsafe fn graph_add_mem_alloc_node(
    api: Api,
    n: *mut *mut c_void,
    g: *mut c_void,
    deps: *const *mut c_void,
    count: usize,
    params: *mut MemAllocNodeParams,
) -> Error {
    let what = "GraphAddMemAllocNode";
    let site = Location::caller();
    run(api, |p| {
        if n.is_null() {
            return Err(invalid(what, "NULL output pointer"));
        }
        // SAFETY: forwarded C contract.
        let deps = unsafe { super::cuda_graph_build::nodes_at(what, deps, count) }?;
        // SAFETY: NULL refused; C contract.
        let pr = unsafe { read(what, params.cast_const()) }?;
        // SAFETY: as above.
        let (spec, given) = unsafe { alloc_spec(p, what, &pr) }?;
        let node = p.add_graph_node_in(graph(g), &deps, spec, given, site)?;
        let base = base_of(p, node)?;
        // SAFETY: checked non-NULL; C contract.
        unsafe {
            (*params).dptr = base as usize as *mut c_void;
            out(what, n, handle_ptr(node.to_raw()))
        }
    })
}

#[track_caller]
pub(crate) unsafe fn graph_add_mem_free_node(
    api: Api,
    n: *mut *mut c_void,
    g: *mut c_void,
    deps: *const *mut c_void,
    count: usize,
    dptr: *mut c_void,
) -> Error {
    let what = "GraphAddMemFreeNode";
    // SAFETY: forwarded C contract.
    unsafe {
        super::cuda_graph_build::add(api, what, n, g, deps, count, |_| {
            if dptr.is_null() {
                return Err(invalid(what, "NULL address"));
            }
            Ok((
                Spec::Public(NodeSpec::MemFree(DevicePtr(dptr as usize as u64))),
                None,
            ))
        })
    }
}

pub(crate) unsafe fn graph_mem_alloc_node_get_params(
    api: Api,
    n: *mut c_void,
    params: *mut MemAllocNodeParams,
) -> Error {
    run(api, |p| {
        let what = "GraphMemAllocNodeGetParams";
        if params.is_null() {
            return Err(invalid(what, "NULL output pointer"));
        }
        let v = p.graph_node_view(node(n))?;
        let got = alloc_params_of(what, node(n), &v.op, v.given.as_ref())?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(what, params, got) }
    })
}

pub(crate) unsafe fn graph_mem_free_node_get_params(
    api: Api,
    n: *mut c_void,
    dptr_out: *mut c_void,
) -> Error {
    run(api, |p| {
        let what = "GraphMemFreeNodeGetParams";
        if dptr_out.is_null() {
            return Err(invalid(what, "NULL output pointer"));
        }
        let v = p.graph_node_view(node(n))?;
        let NodeOp::MemFree { base } = v.op else {
            return Err(invalid(
                what,
                format!(
                    "node {:#x} is a {} node, not a memory free node",
                    n as usize,
                    v.op.node_type().dot_name()
                ),
            ));
        };
        // SAFETY: checked non-NULL; the C contract makes it a `void *` to write.
        unsafe {
            out(
                what,
                dptr_out.cast::<*mut c_void>(),
                base as usize as *mut c_void,
            )
        }
    })
}

pub(crate) fn device_graph_mem_trim(api: Api, device: c_int) -> Error {
    run(api, |p| p.graph_mem_trim(i64::from(device)))
}

/// The attribute calls' checks, in the vendor's order: the device (101), the attribute, a NULL value (1).
fn attr_args(
    p: &Process,
    what: &'static str,
    device: c_int,
    a: c_int,
    value: *mut c_void,
) -> Result<GraphMemAttr, SimError> {
    p.check_device(i64::from(device))?;
    let a = attr(what, a)?;
    if value.is_null() {
        return Err(invalid(what, "NULL value pointer"));
    }
    Ok(a)
}

fn attr(what: &'static str, a: c_int) -> Result<GraphMemAttr, SimError> {
    u32::try_from(a)
        .ok()
        .and_then(GraphMemAttr::from_raw)
        .ok_or_else(|| {
            invalid(
                what,
                format!("attribute {a} is not a cudaGraphMemAttributeType"),
            )
        })
}

pub(crate) unsafe fn device_get_graph_mem_attribute(
    api: Api,
    device: c_int,
    a: c_int,
    value: *mut c_void,
) -> Error {
    run(api, |p| {
        let what = "DeviceGetGraphMemAttribute";
        let a = attr_args(p, what, device, a, value)?;
        let v = p.graph_mem_attribute(i64::from(device), a)?;
        // SAFETY: checked non-NULL; the attributes are `cuuint64_t` (C contract).
        unsafe { out(what, value.cast::<u64>(), v) }
    })
}

pub(crate) unsafe fn device_set_graph_mem_attribute(
    api: Api,
    device: c_int,
    a: c_int,
    value: *mut c_void,
) -> Error {
    run(api, |p| {
        let what = "DeviceSetGraphMemAttribute";
        let a = attr_args(p, what, device, a, value)?;
        if matches!(
            a,
            GraphMemAttr::UsedMemCurrent | GraphMemAttr::ReservedMemCurrent
        ) {
            return Err(invalid(
                what,
                "only cudaGraphMemAttrUsedMemHigh and cudaGraphMemAttrReservedMemHigh can be set",
            ));
        }
        // SAFETY: checked non-NULL; `cuuint64_t` (C contract).
        let v = unsafe { value.cast::<u64>().read_unaligned() };
        if v != 0 {
            return Err(invalid(
                what,
                format!("value {v}: a high watermark can only be reset to 0"),
            ));
        }
        p.reset_graph_mem_high(i64::from(device), a)
    })
}
