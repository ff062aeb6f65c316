//! What a binary NVIDIA's nvcc built needs beyond the C library's CUDA 12 ABI, for the drop-in
//! `libcudart.so.13` that `streamsim exec` puts in front of the program (`src/tools/exec.rs`):
//!
//! - CUDA 13's launch path: nvcc 13's host stub asks `__cudaGetKernel` once for a kernel handle and launches
//!   with `__cudaLaunchKernel` (`__cudaLaunchKernel_ptsz` under per-thread default streams), both from
//!   `crt/device_functions.h` and `crt/host_runtime.h`. The handle is the stub's address, so a launch is the
//!   same launch as `cudaLaunchKernel`'s (`cc_runtime.rs`).
//! - The entry points whose ABI changed in CUDA 13, under internal names (`__streamsimCudart13_<name>`) that
//!   the drop-in exports as `<name>@@libcudart.so.13`: `cudaGetDeviceProperties` fills CUDA 13's
//!   `struct cudaDeviceProp` (13 removed `clockRate`, `deviceOverlap`, `kernelExecTimeoutEnabled`,
//!   `computeMode`, `maxTexture1DLinear`, `memoryClockRate`, `singleToDoublePrecisionPerfRatio`,
//!   `cooperativeMultiDeviceLaunch` and added the NUMA, MPS and PCI ids), and the graph queries take the
//!   `cudaGraphEdgeData` arrays CUDA 12.3 added as `_v2` and CUDA 13 made the only form. streamsim's graphs
//!   have default edges only, so edge data out is all zeros and edge data in must be zeros.
//!
//! The layouts are checked against NVIDIA's headers by `tests/suite/dropin.rs`; the rules are in
//! `docs/semantics/drop-in-runtime.md`.
#![allow(non_snake_case, reason = "the C API's names")]

use std::cell::RefCell;
use std::ffi::{c_char, c_int, c_uint, c_ulonglong, c_void};

use crate::engine::core::error::SimError;
use crate::facade::binding::{Api, contain, invalid, out};
use crate::facade::cc_runtime::{self, Dim3};
use crate::facade::cuda_device_prop::{DeviceProp, Uuid};
use crate::facade::cuda_runtime::{self as rt, Error, codes};

/// `cudaKernel_t`: an opaque kernel handle (here, the host stub's address).
pub type Kernel = *mut c_void;

/// `__cudaGetKernel(&handle, stub)`: the handle of the kernel the host stub `entry` launches;
/// `cudaErrorInvalidDeviceFunction` for an address no module registered (`__cudaRegisterFunction`).
///
/// # Safety
/// `kernel` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaGetKernel(kernel: *mut Kernel, entry: *const c_void) -> Error {
    contain(codes::Unknown, || {
        if kernel.is_null() {
            return rt::run(Api::Cuda, |_| {
                Err(invalid("GetKernel", "NULL kernel handle pointer"))
            });
        }
        if !cc_runtime::is_registered(entry) {
            return rt::run(Api::Cuda, |_| {
                Err(SimError::InvalidKernel {
                    what: "GetKernel",
                    reason: format!("{entry:p} is not a registered kernel (__global__ function)"),
                })
            });
        }
        // SAFETY: checked non-NULL; C contract.
        unsafe { kernel.write(entry as Kernel) };
        codes::Success
    })
}

/// `__cudaLaunchKernel`: nvcc 13's launch of a kernel handle from [`__cudaGetKernel`].
///
/// # Safety
/// `args` holds a pointer to each of the kernel's arguments.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaLaunchKernel(
    kernel: Kernel,
    gridDim: Dim3,
    blockDim: Dim3,
    args: *mut *mut c_void,
    sharedMem: usize,
    stream: *mut c_void,
) -> Error {
    // SAFETY: forwarded C contract.
    unsafe { cc_runtime::cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem, stream) }
}

/// `cudaStreamPerThread`: the calling host thread's per-thread default stream.
const STREAM_PER_THREAD: usize = 0x2;

/// `__cudaLaunchKernel_ptsz`: as [`__cudaLaunchKernel`], from a per-thread default stream build
/// (`--default-stream per-thread`), where the NULL stream is the calling thread's per-thread default stream
/// (`cudaStreamPerThread`).
///
/// # Safety
/// As [`__cudaLaunchKernel`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaLaunchKernel_ptsz(
    kernel: Kernel,
    gridDim: Dim3,
    blockDim: Dim3,
    args: *mut *mut c_void,
    sharedMem: usize,
    stream: *mut c_void,
) -> Error {
    let stream = if stream.is_null() {
        STREAM_PER_THREAD as *mut c_void
    } else {
        stream
    };
    // SAFETY: forwarded C contract.
    unsafe { __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem, stream) }
}

// ------------------------------------------------------------------------------------ struct cudaDeviceProp (13)

/// `struct cudaDeviceProp` with CUDA 13's layout (CUDA 13.5 `driver_types.h`, 1008 bytes on LP64).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(
    missing_docs,
    reason = "the vendor's fields, documented on the CUDA 12 struct"
)]
pub struct DeviceProp13 {
    pub name: [c_char; 256],
    pub uuid: Uuid,
    pub luid: [c_char; 8],
    pub luidDeviceNodeMask: c_uint,
    pub totalGlobalMem: usize,
    pub sharedMemPerBlock: usize,
    pub regsPerBlock: c_int,
    pub warpSize: c_int,
    pub memPitch: usize,
    pub maxThreadsPerBlock: c_int,
    pub maxThreadsDim: [c_int; 3],
    pub maxGridSize: [c_int; 3],
    pub totalConstMem: usize,
    pub major: c_int,
    pub minor: c_int,
    pub textureAlignment: usize,
    pub texturePitchAlignment: usize,
    pub multiProcessorCount: c_int,
    pub integrated: c_int,
    pub canMapHostMemory: c_int,
    pub maxTexture1D: c_int,
    pub maxTexture1DMipmap: c_int,
    pub maxTexture2D: [c_int; 2],
    pub maxTexture2DMipmap: [c_int; 2],
    pub maxTexture2DLinear: [c_int; 3],
    pub maxTexture2DGather: [c_int; 2],
    pub maxTexture3D: [c_int; 3],
    pub maxTexture3DAlt: [c_int; 3],
    pub maxTextureCubemap: c_int,
    pub maxTexture1DLayered: [c_int; 2],
    pub maxTexture2DLayered: [c_int; 3],
    pub maxTextureCubemapLayered: [c_int; 2],
    pub maxSurface1D: c_int,
    pub maxSurface2D: [c_int; 2],
    pub maxSurface3D: [c_int; 3],
    pub maxSurface1DLayered: [c_int; 2],
    pub maxSurface2DLayered: [c_int; 3],
    pub maxSurfaceCubemap: c_int,
    pub maxSurfaceCubemapLayered: [c_int; 2],
    pub surfaceAlignment: usize,
    pub concurrentKernels: c_int,
    pub ECCEnabled: c_int,
    pub pciBusID: c_int,
    pub pciDeviceID: c_int,
    pub pciDomainID: c_int,
    pub tccDriver: c_int,
    pub asyncEngineCount: c_int,
    pub unifiedAddressing: c_int,
    pub memoryBusWidth: c_int,
    pub l2CacheSize: c_int,
    pub persistingL2CacheMaxSize: c_int,
    pub maxThreadsPerMultiProcessor: c_int,
    pub streamPrioritiesSupported: c_int,
    pub globalL1CacheSupported: c_int,
    pub localL1CacheSupported: c_int,
    pub sharedMemPerMultiprocessor: usize,
    pub regsPerMultiprocessor: c_int,
    pub managedMemory: c_int,
    pub isMultiGpuBoard: c_int,
    pub multiGpuBoardGroupID: c_int,
    pub hostNativeAtomicSupported: c_int,
    pub pageableMemoryAccess: c_int,
    pub concurrentManagedAccess: c_int,
    pub computePreemptionSupported: c_int,
    pub canUseHostPointerForRegisteredMem: c_int,
    pub cooperativeLaunch: c_int,
    pub sharedMemPerBlockOptin: usize,
    pub pageableMemoryAccessUsesHostPageTables: c_int,
    pub directManagedMemAccessFromHost: c_int,
    pub maxBlocksPerMultiProcessor: c_int,
    pub accessPolicyMaxWindowSize: c_int,
    pub reservedSharedMemPerBlock: usize,
    pub hostRegisterSupported: c_int,
    pub sparseCudaArraySupported: c_int,
    pub hostRegisterReadOnlySupported: c_int,
    pub timelineSemaphoreInteropSupported: c_int,
    pub memoryPoolsSupported: c_int,
    pub gpuDirectRDMASupported: c_int,
    pub gpuDirectRDMAFlushWritesOptions: c_uint,
    pub gpuDirectRDMAWritesOrdering: c_int,
    pub memoryPoolSupportedHandleTypes: c_uint,
    pub deferredMappingCudaArraySupported: c_int,
    pub ipcEventSupported: c_int,
    pub clusterLaunch: c_int,
    pub unifiedFunctionPointers: c_int,
    pub deviceNumaConfig: c_int,
    pub deviceNumaId: c_int,
    pub mpsEnabled: c_int,
    pub hostNumaId: c_int,
    pub gpuPciDeviceID: c_uint,
    pub gpuPciSubsystemID: c_uint,
    pub hostNumaMultinodeIpcSupported: c_int,
    pub reserved: [c_int; 56],
}

impl DeviceProp13 {
    /// The same device's properties in CUDA 13's layout: the fields both versions have are copied; of the new
    /// ones, the device is no NUMA node (`cudaDeviceNumaConfigNone`, id -1), the host has no NUMA id (-1), MPS
    /// is off and the PCI ids are 0 (as the CUDA 12 struct's unmodelled fields are).
    pub(crate) fn from_12(p: &DeviceProp) -> Self {
        DeviceProp13 {
            name: p.name,
            uuid: p.uuid,
            luid: p.luid,
            luidDeviceNodeMask: p.luidDeviceNodeMask,
            totalGlobalMem: p.totalGlobalMem,
            sharedMemPerBlock: p.sharedMemPerBlock,
            regsPerBlock: p.regsPerBlock,
            warpSize: p.warpSize,
            memPitch: p.memPitch,
            maxThreadsPerBlock: p.maxThreadsPerBlock,
            maxThreadsDim: p.maxThreadsDim,
            maxGridSize: p.maxGridSize,
            totalConstMem: p.totalConstMem,
            major: p.major,
            minor: p.minor,
            textureAlignment: p.textureAlignment,
            texturePitchAlignment: p.texturePitchAlignment,
            multiProcessorCount: p.multiProcessorCount,
            integrated: p.integrated,
            canMapHostMemory: p.canMapHostMemory,
            maxTexture1D: p.maxTexture1D,
            maxTexture1DMipmap: p.maxTexture1DMipmap,
            maxTexture2D: p.maxTexture2D,
            maxTexture2DMipmap: p.maxTexture2DMipmap,
            maxTexture2DLinear: p.maxTexture2DLinear,
            maxTexture2DGather: p.maxTexture2DGather,
            maxTexture3D: p.maxTexture3D,
            maxTexture3DAlt: p.maxTexture3DAlt,
            maxTextureCubemap: p.maxTextureCubemap,
            maxTexture1DLayered: p.maxTexture1DLayered,
            maxTexture2DLayered: p.maxTexture2DLayered,
            maxTextureCubemapLayered: p.maxTextureCubemapLayered,
            maxSurface1D: p.maxSurface1D,
            maxSurface2D: p.maxSurface2D,
            maxSurface3D: p.maxSurface3D,
            maxSurface1DLayered: p.maxSurface1DLayered,
            maxSurface2DLayered: p.maxSurface2DLayered,
            maxSurfaceCubemap: p.maxSurfaceCubemap,
            maxSurfaceCubemapLayered: p.maxSurfaceCubemapLayered,
            surfaceAlignment: p.surfaceAlignment,
            concurrentKernels: p.concurrentKernels,
            ECCEnabled: p.ECCEnabled,
            pciBusID: p.pciBusID,
            pciDeviceID: p.pciDeviceID,
            pciDomainID: p.pciDomainID,
            tccDriver: p.tccDriver,
            asyncEngineCount: p.asyncEngineCount,
            unifiedAddressing: p.unifiedAddressing,
            memoryBusWidth: p.memoryBusWidth,
            l2CacheSize: p.l2CacheSize,
            persistingL2CacheMaxSize: p.persistingL2CacheMaxSize,
            maxThreadsPerMultiProcessor: p.maxThreadsPerMultiProcessor,
            streamPrioritiesSupported: p.streamPrioritiesSupported,
            globalL1CacheSupported: p.globalL1CacheSupported,
            localL1CacheSupported: p.localL1CacheSupported,
            sharedMemPerMultiprocessor: p.sharedMemPerMultiprocessor,
            regsPerMultiprocessor: p.regsPerMultiprocessor,
            managedMemory: p.managedMemory,
            isMultiGpuBoard: p.isMultiGpuBoard,
            multiGpuBoardGroupID: p.multiGpuBoardGroupID,
            hostNativeAtomicSupported: p.hostNativeAtomicSupported,
            pageableMemoryAccess: p.pageableMemoryAccess,
            concurrentManagedAccess: p.concurrentManagedAccess,
            computePreemptionSupported: p.computePreemptionSupported,
            canUseHostPointerForRegisteredMem: p.canUseHostPointerForRegisteredMem,
            cooperativeLaunch: p.cooperativeLaunch,
            sharedMemPerBlockOptin: p.sharedMemPerBlockOptin,
            pageableMemoryAccessUsesHostPageTables: p.pageableMemoryAccessUsesHostPageTables,
            directManagedMemAccessFromHost: p.directManagedMemAccessFromHost,
            maxBlocksPerMultiProcessor: p.maxBlocksPerMultiProcessor,
            accessPolicyMaxWindowSize: p.accessPolicyMaxWindowSize,
            reservedSharedMemPerBlock: p.reservedSharedMemPerBlock,
            hostRegisterSupported: p.hostRegisterSupported,
            sparseCudaArraySupported: p.sparseCudaArraySupported,
            hostRegisterReadOnlySupported: p.hostRegisterReadOnlySupported,
            timelineSemaphoreInteropSupported: p.timelineSemaphoreInteropSupported,
            memoryPoolsSupported: p.memoryPoolsSupported,
            gpuDirectRDMASupported: p.gpuDirectRDMASupported,
            gpuDirectRDMAFlushWritesOptions: p.gpuDirectRDMAFlushWritesOptions,
            gpuDirectRDMAWritesOrdering: p.gpuDirectRDMAWritesOrdering,
            memoryPoolSupportedHandleTypes: p.memoryPoolSupportedHandleTypes,
            deferredMappingCudaArraySupported: p.deferredMappingCudaArraySupported,
            ipcEventSupported: p.ipcEventSupported,
            clusterLaunch: p.clusterLaunch,
            unifiedFunctionPointers: p.unifiedFunctionPointers,
            deviceNumaConfig: 0,
            deviceNumaId: -1,
            mpsEnabled: 0,
            hostNumaId: -1,
            gpuPciDeviceID: 0,
            gpuPciSubsystemID: 0,
            hostNumaMultinodeIpcSupported: 0,
            reserved: [0; 56],
        }
    }
}

/// CUDA 13's `cudaGetDeviceProperties`: the CUDA 12 call's values in CUDA 13's layout, with its codes.
///
/// # Safety
/// `prop` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __streamsimCudart13_cudaGetDeviceProperties(
    prop: *mut DeviceProp13,
    device: c_int,
) -> Error {
    contain(codes::Unknown, || {
        let mut p12 = std::mem::MaybeUninit::<DeviceProp>::uninit();
        let out = if prop.is_null() {
            std::ptr::null_mut()
        } else {
            p12.as_mut_ptr()
        };
        // SAFETY: `out` is NULL (the call refuses it) or room for a CUDA 12 struct.
        let code = unsafe { rt::get_device_properties(Api::Cuda, out, device) };
        if code == codes::Success {
            // SAFETY: written by the successful call; `prop` is non-NULL (else the call failed).
            unsafe { prop.write(DeviceProp13::from_12(&p12.assume_init())) };
        }
        code
    })
}

// ------------------------------------------------------------------------------------ cudaPointerAttributes (13)

/// `struct cudaPointerAttributes` with CUDA 13's layout (88 bytes on LP64): CUDA 12's four fields, then
/// `localityDomainOrdinal` (in a union with a `long`) and seven reserved `long`s.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(
    missing_docs,
    reason = "the vendor's fields, documented on the CUDA 12 struct"
)]
pub struct PointerAttributes13 {
    pub r#type: c_uint,
    pub device: c_int,
    pub devicePointer: *mut c_void,
    pub hostPointer: *mut c_void,
    /// -1: no allocation is localized to a locality domain.
    pub localityDomainOrdinal: c_int,
    /// The rest of the union with `long unused`.
    pub unused_high: c_int,
    pub reserved: [i64; 7],
}

/// CUDA 13's `cudaPointerGetAttributes`: the CUDA 12 call's values and codes in CUDA 13's layout,
/// `localityDomainOrdinal` -1 and the reserved words 0.
///
/// # Safety
/// `attributes` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __streamsimCudart13_cudaPointerGetAttributes(
    attributes: *mut PointerAttributes13,
    ptr: *const c_void,
) -> Error {
    contain(codes::Unknown, || {
        let mut a12 = std::mem::MaybeUninit::<rt::PointerAttributesC>::uninit();
        let out = if attributes.is_null() {
            std::ptr::null_mut()
        } else {
            a12.as_mut_ptr()
        };
        // SAFETY: `out` is NULL (the call refuses it) or room for a CUDA 12 struct.
        let code = unsafe { rt::pointer_get_attributes(Api::Cuda, out, ptr) };
        if code == codes::Success {
            // SAFETY: written by the successful call; `attributes` is non-NULL (else the call failed).
            let a = unsafe { a12.assume_init() };
            // SAFETY: as above.
            unsafe {
                attributes.write(PointerAttributes13 {
                    r#type: a.r#type,
                    device: a.device,
                    devicePointer: a.devicePointer,
                    hostPointer: a.hostPointer,
                    localityDomainOrdinal: -1,
                    unused_high: 0,
                    reserved: [0; 7],
                })
            };
        }
        code
    })
}

// ------------------------------------------------------------------------------------ graph edge data (13)

/// `cudaGraphEdgeData`: 8 bytes (`from_port`, `to_port`, `type`, 5 reserved); all zeros is a default edge.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GraphEdgeData {
    /// The source node's port (0: the default).
    pub from_port: u8,
    /// The destination node's port (0: the default).
    pub to_port: u8,
    /// `cudaGraphDependencyType` (0: `cudaGraphDependencyTypeDefault`).
    pub type_: u8,
    /// Must be 0.
    pub reserved: [u8; 5],
}

/// Writes `n` default edges at `data` (NULL: nothing).
///
/// # Safety
/// `data` is NULL or valid for `n` writes.
unsafe fn zero_edges(data: *mut GraphEdgeData, n: usize) {
    if !data.is_null() {
        // SAFETY: C contract.
        unsafe { std::ptr::write_bytes(data, 0, n) };
    }
}

/// The count a successful array query left at `count` (NULL: 0).
///
/// # Safety
/// `count` is NULL or valid for a read.
unsafe fn written(count: *const usize) -> usize {
    if count.is_null() {
        0
    } else {
        // SAFETY: C contract.
        unsafe { count.read() }
    }
}

/// Refuses edge data out with no node array to go with it (the CUDA 13 rule of every edge query).
fn edge_data_without_nodes(what: &'static str) -> Error {
    rt::run(Api::Cuda, |_| {
        Err(invalid(
            what,
            "edgeData is non-NULL and the node array it describes is NULL",
        ))
    })
}

/// CUDA 13's `cudaGraphGetEdges(graph, from, to, edgeData, numEdges)`.
///
/// # Safety
/// The arrays are NULL or hold `*numEdges` entries.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __streamsimCudart13_cudaGraphGetEdges(
    graph: *mut c_void,
    from: *mut *mut c_void,
    to: *mut *mut c_void,
    edgeData: *mut GraphEdgeData,
    numEdges: *mut usize,
) -> Error {
    contain(codes::Unknown, || {
        if !edgeData.is_null() && from.is_null() {
            return edge_data_without_nodes("GraphGetEdges");
        }
        // SAFETY: forwarded C contract.
        let code = unsafe { rt::graph_get_edges(Api::Cuda, graph, from, to, numEdges) };
        if code == codes::Success {
            // SAFETY: the call wrote that many nodes; the edge array has as much room by the C contract.
            unsafe { zero_edges(edgeData, written(numEdges)) };
        }
        code
    })
}

/// CUDA 13's `cudaGraphNodeGetDependencies(node, deps, edgeData, numDeps)`.
///
/// # Safety
/// As [`__streamsimCudart13_cudaGraphGetEdges`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __streamsimCudart13_cudaGraphNodeGetDependencies(
    node: *mut c_void,
    pDependencies: *mut *mut c_void,
    edgeData: *mut GraphEdgeData,
    pNumDependencies: *mut usize,
) -> Error {
    contain(codes::Unknown, || {
        if !edgeData.is_null() && pDependencies.is_null() {
            return edge_data_without_nodes("GraphNodeGetDependencies");
        }
        // SAFETY: forwarded C contract.
        let code = unsafe {
            rt::graph_node_get_dependencies(Api::Cuda, node, pDependencies, pNumDependencies)
        };
        if code == codes::Success {
            // SAFETY: as in cudaGraphGetEdges.
            unsafe { zero_edges(edgeData, written(pNumDependencies)) };
        }
        code
    })
}

/// CUDA 13's `cudaGraphNodeGetDependentNodes(node, deps, edgeData, numDeps)`.
///
/// # Safety
/// As [`__streamsimCudart13_cudaGraphGetEdges`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __streamsimCudart13_cudaGraphNodeGetDependentNodes(
    node: *mut c_void,
    pDependentNodes: *mut *mut c_void,
    edgeData: *mut GraphEdgeData,
    pNumDependentNodes: *mut usize,
) -> Error {
    contain(codes::Unknown, || {
        if !edgeData.is_null() && pDependentNodes.is_null() {
            return edge_data_without_nodes("GraphNodeGetDependentNodes");
        }
        // SAFETY: forwarded C contract.
        let code = unsafe {
            rt::graph_node_get_dependent_nodes(Api::Cuda, node, pDependentNodes, pNumDependentNodes)
        };
        if code == codes::Success {
            // SAFETY: as in cudaGraphGetEdges.
            unsafe { zero_edges(edgeData, written(pNumDependentNodes)) };
        }
        code
    })
}

thread_local! {
    /// The default edges `cudaStreamGetCaptureInfo` points at: as long as the longest dependency set this
    /// thread asked about (a capture's dependencies are bounded by its graph), reused by every call.
    static CAPTURE_EDGES: RefCell<Vec<GraphEdgeData>> = const { RefCell::new(Vec::new()) };
}

/// CUDA 13's `cudaStreamGetCaptureInfo(stream, status, id, graph, deps, edgeData, numDeps)`. The edge array is
/// valid until the thread's next call of this function.
///
/// # Safety
/// Each out-pointer is NULL or valid for a write.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments, reason = "the C signature")]
pub unsafe extern "C" fn __streamsimCudart13_cudaStreamGetCaptureInfo(
    stream: *mut c_void,
    captureStatus_out: *mut c_uint,
    id_out: *mut c_ulonglong,
    graph_out: *mut *mut c_void,
    dependencies_out: *mut *const *mut c_void,
    edgeData_out: *mut *const GraphEdgeData,
    numDependencies_out: *mut usize,
) -> Error {
    contain(codes::Unknown, || {
        if !edgeData_out.is_null() && dependencies_out.is_null() {
            return edge_data_without_nodes("StreamGetCaptureInfo");
        }
        let mut n = 0usize;
        let count = if edgeData_out.is_null() {
            numDependencies_out
        } else {
            &mut n as *mut usize
        };
        // SAFETY: forwarded C contract.
        let code = unsafe {
            rt::stream_get_capture_info(
                Api::Cuda,
                stream,
                captureStatus_out,
                id_out,
                graph_out,
                dependencies_out,
                count,
            )
        };
        if code == codes::Success && !edgeData_out.is_null() {
            let edges = CAPTURE_EDGES.with(|e| {
                let mut e = e.borrow_mut();
                if e.len() < n {
                    e.resize(n, GraphEdgeData::default());
                }
                if n == 0 { std::ptr::null() } else { e.as_ptr() }
            });
            // SAFETY: checked non-NULL; C contract.
            unsafe {
                edgeData_out.write(edges);
                if !numDependencies_out.is_null() {
                    numDependencies_out.write(n);
                }
            }
        }
        code
    })
}

/// CUDA 13's `cudaStreamUpdateCaptureDependencies(stream, deps, dependencyData, numDeps, flags)`: edge data
/// other than default edges is refused with `cudaErrorNotSupported` (ports and programmatic dependencies are
/// not simulated).
///
/// # Safety
/// The arrays are NULL or hold `numDependencies` entries.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __streamsimCudart13_cudaStreamUpdateCaptureDependencies(
    stream: *mut c_void,
    dependencies: *mut *mut c_void,
    dependencyData: *const GraphEdgeData,
    numDependencies: usize,
    flags: c_uint,
) -> Error {
    contain(codes::Unknown, || {
        if !dependencyData.is_null() && numDependencies > 0 {
            // SAFETY: C contract: `numDependencies` entries.
            let data = unsafe { std::slice::from_raw_parts(dependencyData, numDependencies) };
            if let Some(i) = data.iter().position(|d| *d != GraphEdgeData::default()) {
                return rt::run(Api::Cuda, |_| {
                    Err(SimError::NotSupported {
                        what: "StreamUpdateCaptureDependencies",
                        reason: format!(
                            "dependencyData[{i}] is not a default edge: graph ports and programmatic \
                             dependencies are not simulated"
                        ),
                    })
                });
            }
        }
        // SAFETY: forwarded C contract.
        unsafe {
            rt::stream_update_capture_dependencies(
                Api::Cuda,
                stream,
                dependencies,
                numDependencies,
                flags,
            )
        }
    })
}

/// Refuses edge data that is not all default edges (`count` entries at `data`; NULL: default edges).
///
/// # Safety
/// `data` is NULL or valid for `count` reads.
unsafe fn default_edges_only(
    what: &'static str,
    data: *const GraphEdgeData,
    count: usize,
) -> Result<(), Error> {
    if data.is_null() || count == 0 {
        return Ok(());
    }
    // SAFETY: C contract: `count` entries.
    let data = unsafe { std::slice::from_raw_parts(data, count) };
    match data.iter().position(|d| *d != GraphEdgeData::default()) {
        None => Ok(()),
        Some(i) => Err(rt::run(Api::Cuda, |_| {
            Err(SimError::NotSupported {
                what,
                reason: format!(
                    "edge data [{i}] is not a default edge: graph ports and programmatic dependencies are \
                     not simulated"
                ),
            })
        })),
    }
}

/// CUDA 13's `cudaGraphAddDependencies(graph, from, to, edgeData, numDependencies)` (CUDA 12.3's `_v2`).
///
/// # Safety
/// The arrays are NULL or hold `numDependencies` entries.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __streamsimCudart13_cudaGraphAddDependencies(
    graph: *mut c_void,
    from: *const *mut c_void,
    to: *const *mut c_void,
    edgeData: *const GraphEdgeData,
    numDependencies: usize,
) -> Error {
    contain(codes::Unknown, || {
        // SAFETY: C contract.
        if let Err(code) =
            unsafe { default_edges_only("GraphAddDependencies", edgeData, numDependencies) }
        {
            return code;
        }
        // SAFETY: forwarded C contract.
        unsafe { rt::graph_add_dependencies(Api::Cuda, graph, from, to, numDependencies) }
    })
}

/// CUDA 13's `cudaGraphRemoveDependencies(graph, from, to, edgeData, numDependencies)`.
///
/// # Safety
/// As [`__streamsimCudart13_cudaGraphAddDependencies`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __streamsimCudart13_cudaGraphRemoveDependencies(
    graph: *mut c_void,
    from: *const *mut c_void,
    to: *const *mut c_void,
    edgeData: *const GraphEdgeData,
    numDependencies: usize,
) -> Error {
    contain(codes::Unknown, || {
        // SAFETY: C contract.
        if let Err(code) =
            unsafe { default_edges_only("GraphRemoveDependencies", edgeData, numDependencies) }
        {
            return code;
        }
        // SAFETY: forwarded C contract.
        unsafe { rt::graph_remove_dependencies(Api::Cuda, graph, from, to, numDependencies) }
    })
}

/// CUDA 13's `cudaGraphAddNode(node, graph, deps, dependencyData, numDependencies, params)`.
///
/// # Safety
/// The arrays are NULL or hold `numDependencies` entries; `params` is NULL or valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __streamsimCudart13_cudaGraphAddNode(
    pGraphNode: *mut *mut c_void,
    graph: *mut c_void,
    pDependencies: *const *mut c_void,
    dependencyData: *const GraphEdgeData,
    numDependencies: usize,
    nodeParams: *mut rt::GraphNodeParams,
) -> Error {
    contain(codes::Unknown, || {
        // SAFETY: C contract.
        if let Err(code) =
            unsafe { default_edges_only("GraphAddNode", dependencyData, numDependencies) }
        {
            return code;
        }
        // SAFETY: forwarded C contract.
        unsafe {
            rt::graph_add_node(
                Api::Cuda,
                pGraphNode,
                graph,
                pDependencies,
                numDependencies,
                nodeParams,
            )
        }
    })
}

/// CUDA 12's `cudaStreamGetCaptureInfo(stream, status, id)`: the three-argument form `libcudart.so.12` keeps
/// under the plain name (CUDA 12's headers call `cudaStreamGetCaptureInfo_v2`).
///
/// # Safety
/// Each out-pointer is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __streamsimCudart12_cudaStreamGetCaptureInfo(
    stream: *mut c_void,
    captureStatus_out: *mut c_uint,
    id_out: *mut c_ulonglong,
) -> Error {
    // SAFETY: forwarded C contract; the other outputs are not asked for.
    unsafe {
        rt::stream_get_capture_info(
            Api::Cuda,
            stream,
            captureStatus_out,
            id_out,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        )
    }
}

// ------------------------------------------------------------------------------------ driver entry points

/// `cudaDriverEntryPointQueryResult`'s `cudaDriverEntryPointSymbolNotFound`.
pub const DRIVER_ENTRY_POINT_SYMBOL_NOT_FOUND: c_int = 1;
/// `cudaEnablePerThreadDefaultStream`: the largest of the search flags (`cudaEnableDefault` 0,
/// `cudaEnableLegacyStream` 1).
const ENABLE_PER_THREAD_DEFAULT_STREAM: c_ulonglong = 2;

/// The common rules of the two driver entry point queries. streamsim simulates the runtime API only, so no
/// driver function is found: the documented answer for "the requested driver function is not supported on the
/// platform": `cudaSuccess`, `*funcPtr` NULL, `*driverStatus` `cudaDriverEntryPointSymbolNotFound`.
///
/// # Safety
/// `symbol` is NULL or a C string; `funcPtr` and `driverStatus` are NULL or valid for a write.
unsafe fn driver_entry_point(
    what: &'static str,
    symbol: *const c_char,
    funcPtr: *mut *mut c_void,
    version: Option<(c_uint, c_int)>,
    flags: c_ulonglong,
    driverStatus: *mut c_int,
) -> Error {
    rt::run(Api::Cuda, |_| {
        if symbol.is_null() {
            return Err(invalid(what, "NULL symbol name"));
        }
        if funcPtr.is_null() {
            return Err(invalid(what, "NULL funcPtr"));
        }
        if flags > ENABLE_PER_THREAD_DEFAULT_STREAM {
            return Err(invalid(
                what,
                format!(
                    "flags {flags:#x} is not cudaEnableDefault, cudaEnableLegacyStream or \
                     cudaEnablePerThreadDefaultStream"
                ),
            ));
        }
        if let Some((v, driver)) = version {
            let driver = driver as c_uint;
            if v > driver {
                return Err(invalid(
                    what,
                    format!("cudaVersion {v} is greater than the driver's version {driver}"),
                ));
            }
        }
        // SAFETY: checked non-NULL; C contract.
        unsafe {
            funcPtr.write(std::ptr::null_mut());
            if !driverStatus.is_null() {
                driverStatus.write(DRIVER_ENTRY_POINT_SYMBOL_NOT_FOUND);
            }
        }
        Ok(())
    })
}

/// `cudaGetDriverEntryPoint(symbol, funcPtr, flags, driverStatus)`: see [`driver_entry_point`].
///
/// # Safety
/// As [`driver_entry_point`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __streamsimCudart_cudaGetDriverEntryPoint(
    symbol: *const c_char,
    funcPtr: *mut *mut c_void,
    flags: c_ulonglong,
    driverStatus: *mut c_int,
) -> Error {
    contain(codes::Unknown, || {
        // SAFETY: forwarded C contract.
        unsafe {
            driver_entry_point(
                "GetDriverEntryPoint",
                symbol,
                funcPtr,
                None,
                flags,
                driverStatus,
            )
        }
    })
}

/// `cudaGetDriverEntryPointByVersion(symbol, funcPtr, cudaVersion, flags, driverStatus)`: see
/// [`driver_entry_point`]; a `cudaVersion` above the driver's (`cudaDriverGetVersion`) is
/// `cudaErrorInvalidValue`.
///
/// # Safety
/// As [`driver_entry_point`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __streamsimCudart_cudaGetDriverEntryPointByVersion(
    symbol: *const c_char,
    funcPtr: *mut *mut c_void,
    cudaVersion: c_uint,
    flags: c_ulonglong,
    driverStatus: *mut c_int,
) -> Error {
    contain(codes::Unknown, || {
        // SAFETY: forwarded C contract.
        unsafe {
            driver_entry_point(
                "GetDriverEntryPointByVersion",
                symbol,
                funcPtr,
                Some((cudaVersion, crate::facade::cuda_device::DRIVER_VERSION)),
                flags,
                driverStatus,
            )
        }
    })
}

/// The version `libcudart.so.13` reports for the runtime and the driver (CUDA 13.0: a CUDA 13 runtime needs a
/// driver of 13 or later); the C library's own are CUDA 12's (12080).
pub const CUDART13_VERSION: c_int = 13000;

/// `cudaGetDriverEntryPointByVersion` of `libcudart.so.13`: as the C library's, against its driver version.
///
/// # Safety
/// As [`driver_entry_point`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __streamsimCudart13_cudaGetDriverEntryPointByVersion(
    symbol: *const c_char,
    funcPtr: *mut *mut c_void,
    cudaVersion: c_uint,
    flags: c_ulonglong,
    driverStatus: *mut c_int,
) -> Error {
    contain(codes::Unknown, || {
        // SAFETY: forwarded C contract.
        unsafe {
            driver_entry_point(
                "GetDriverEntryPointByVersion",
                symbol,
                funcPtr,
                Some((cudaVersion, CUDART13_VERSION)),
                flags,
                driverStatus,
            )
        }
    })
}

/// `cudaRuntimeGetVersion` of `libcudart.so.13`: [`CUDART13_VERSION`].
///
/// # Safety
/// `version` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __streamsimCudart13_cudaRuntimeGetVersion(version: *mut c_int) -> Error {
    // SAFETY: C contract.
    rt::run(Api::Cuda, |_| unsafe {
        out("RuntimeGetVersion", version, CUDART13_VERSION)
    })
}

/// `cudaDriverGetVersion` of `libcudart.so.13`: [`CUDART13_VERSION`].
///
/// # Safety
/// `version` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __streamsimCudart13_cudaDriverGetVersion(version: *mut c_int) -> Error {
    // SAFETY: C contract.
    rt::run(Api::Cuda, |_| unsafe {
        out("DriverGetVersion", version, CUDART13_VERSION)
    })
}

/// The driver entry point queries, under their names and the `_ptsz` names of per-thread default stream
/// builds (the same answer: no driver function is simulated), in both majors' drop-ins.
const DRIVER_ENTRY_POINTS: [(&str, &str); 4] = [
    (
        "cudaGetDriverEntryPoint",
        "__streamsimCudart_cudaGetDriverEntryPoint",
    ),
    (
        "cudaGetDriverEntryPoint_ptsz",
        "__streamsimCudart_cudaGetDriverEntryPoint",
    ),
    (
        "cudaGetDriverEntryPointByVersion",
        "__streamsimCudart_cudaGetDriverEntryPointByVersion",
    ),
    (
        "cudaGetDriverEntryPointByVersion_ptsz",
        "__streamsimCudart_cudaGetDriverEntryPointByVersion",
    ),
];

/// The names the drop-in `libcudart.so.13` exports from another function of the library: (CUDA 13 name,
/// symbol here). A name here is exported even where the C library has no function of that name.
pub const CUDART13_RENAMES: &[(&str, &str)] = &[
    (
        "cudaGetDeviceProperties",
        "__streamsimCudart13_cudaGetDeviceProperties",
    ),
    (
        "cudaGraphAddDependencies",
        "__streamsimCudart13_cudaGraphAddDependencies",
    ),
    ("cudaGraphAddNode", "__streamsimCudart13_cudaGraphAddNode"),
    ("cudaGraphGetEdges", "__streamsimCudart13_cudaGraphGetEdges"),
    (
        "cudaGraphNodeGetDependencies",
        "__streamsimCudart13_cudaGraphNodeGetDependencies",
    ),
    (
        "cudaGraphNodeGetDependentNodes",
        "__streamsimCudart13_cudaGraphNodeGetDependentNodes",
    ),
    (
        "cudaPointerGetAttributes",
        "__streamsimCudart13_cudaPointerGetAttributes",
    ),
    (
        "cudaGraphRemoveDependencies",
        "__streamsimCudart13_cudaGraphRemoveDependencies",
    ),
    // CUDA 13 names the cudaMemLocation forms without the _v2 (the C library's plain names are CUDA 12's).
    ("cudaMemAdvise", "cudaMemAdvise_v2"),
    ("cudaMemPrefetchAsync", "cudaMemPrefetchAsync_v2"),
    (
        "cudaStreamGetCaptureInfo",
        "__streamsimCudart13_cudaStreamGetCaptureInfo",
    ),
    (
        "cudaStreamUpdateCaptureDependencies",
        "__streamsimCudart13_cudaStreamUpdateCaptureDependencies",
    ),
    DRIVER_ENTRY_POINTS[0],
    DRIVER_ENTRY_POINTS[1],
    (
        "cudaGetDriverEntryPointByVersion",
        "__streamsimCudart13_cudaGetDriverEntryPointByVersion",
    ),
    (
        "cudaGetDriverEntryPointByVersion_ptsz",
        "__streamsimCudart13_cudaGetDriverEntryPointByVersion",
    ),
    (
        "cudaDriverGetVersion",
        "__streamsimCudart13_cudaDriverGetVersion",
    ),
    (
        "cudaRuntimeGetVersion",
        "__streamsimCudart13_cudaRuntimeGetVersion",
    ),
];

/// The same for `libcudart.so.12`: the versioned names CUDA 12's headers select (`cudaGetDeviceProperties_v2`,
/// `cudaStreamGetCaptureInfo_v2`; the edge-data `_v2` / `_v3` forms of 12.3, CUDA 13's plain ones) and the
/// plain three-argument `cudaStreamGetCaptureInfo` the library keeps.
pub const CUDART12_RENAMES: &[(&str, &str)] = &[
    ("cudaGetDeviceProperties_v2", "cudaGetDeviceProperties"),
    (
        "cudaGraphAddDependencies_v2",
        "__streamsimCudart13_cudaGraphAddDependencies",
    ),
    (
        "cudaGraphAddNode_v2",
        "__streamsimCudart13_cudaGraphAddNode",
    ),
    (
        "cudaGraphGetEdges_v2",
        "__streamsimCudart13_cudaGraphGetEdges",
    ),
    (
        "cudaGraphNodeGetDependencies_v2",
        "__streamsimCudart13_cudaGraphNodeGetDependencies",
    ),
    (
        "cudaGraphNodeGetDependentNodes_v2",
        "__streamsimCudart13_cudaGraphNodeGetDependentNodes",
    ),
    (
        "cudaGraphRemoveDependencies_v2",
        "__streamsimCudart13_cudaGraphRemoveDependencies",
    ),
    (
        "cudaStreamGetCaptureInfo",
        "__streamsimCudart12_cudaStreamGetCaptureInfo",
    ),
    ("cudaStreamGetCaptureInfo_v2", "cudaStreamGetCaptureInfo"),
    (
        "cudaStreamGetCaptureInfo_v3",
        "__streamsimCudart13_cudaStreamGetCaptureInfo",
    ),
    (
        "cudaStreamUpdateCaptureDependencies_v2",
        "__streamsimCudart13_cudaStreamUpdateCaptureDependencies",
    ),
    DRIVER_ENTRY_POINTS[0],
    DRIVER_ENTRY_POINTS[1],
    DRIVER_ENTRY_POINTS[2],
    DRIVER_ENTRY_POINTS[3],
];

/// Names `libcudart.so.12` does not export although the C library has them: CUDA 12's headers never call the
/// plain `cudaGetDeviceProperties` (they call `cudaGetDeviceProperties_v2`), and which struct NVIDIA's library
/// fills under that name is not documented: it is withheld rather than guessed, and the loader stops a binary
/// calling it there, naming it, rather than a struct of a guessed size being written.
pub const CUDART12_WITHHELD: &[&str] = &["cudaGetDeviceProperties"];
