//! The CUDA and MUSA functions the capture tests call, as one table per family (building the MUSA table from
//! the CUDA table's field types also checks that every `musaX` has its `cudaX` twin's signature). Codes are
//! written with the CUDA names (MUSA's values are the same).
#![allow(
    dead_code,
    reason = "the table holds every function a capture test may call"
)]

use std::ffi::{c_char, c_int, c_uint, c_void};

use streamsim::cuda::{self, cudaError_t, cudaHostFn_t, cudaStreamCallback_t, streamsimAccess};
use streamsim::musa;

pub type H = *mut c_void;
pub type Err = cudaError_t;

/// One family's functions.
#[derive(Clone, Copy)]
pub struct Fam {
    pub name: &'static str,
    pub stream_create_with_flags: unsafe extern "C" fn(*mut H, c_uint) -> Err,
    pub stream_destroy: unsafe extern "C" fn(H) -> Err,
    pub stream_synchronize: unsafe extern "C" fn(H) -> Err,
    pub stream_query: unsafe extern "C" fn(H) -> Err,
    pub stream_wait_event: unsafe extern "C" fn(H, H, c_uint) -> Err,
    pub stream_add_callback:
        unsafe extern "C" fn(H, cudaStreamCallback_t, *mut c_void, c_uint) -> Err,
    pub launch_host_func: unsafe extern "C" fn(H, cudaHostFn_t, *mut c_void) -> Err,
    pub event_create_with_flags: unsafe extern "C" fn(*mut H, c_uint) -> Err,
    pub event_destroy: unsafe extern "C" fn(H) -> Err,
    pub event_record: unsafe extern "C" fn(H, H) -> Err,
    pub event_record_with_flags: unsafe extern "C" fn(H, H, c_uint) -> Err,
    pub event_query: unsafe extern "C" fn(H) -> Err,
    pub event_synchronize: unsafe extern "C" fn(H) -> Err,
    pub event_elapsed_time: unsafe extern "C" fn(*mut f32, H, H) -> Err,
    pub device_synchronize: unsafe extern "C" fn() -> Err,
    pub malloc: unsafe extern "C" fn(*mut H, usize) -> Err,
    pub free: unsafe extern "C" fn(H) -> Err,
    pub malloc_host: unsafe extern "C" fn(*mut H, usize) -> Err,
    pub memcpy: unsafe extern "C" fn(H, *const c_void, usize, c_uint) -> Err,
    pub memcpy_async: unsafe extern "C" fn(H, *const c_void, usize, c_uint, H) -> Err,
    pub memset: unsafe extern "C" fn(H, c_int, usize) -> Err,
    pub memset_async: unsafe extern "C" fn(H, c_int, usize, H) -> Err,
    pub launch_kernel:
        unsafe extern "C" fn(H, *const c_char, u64, cudaHostFn_t, *mut c_void) -> Err,
    pub launch_kernel_ex: unsafe extern "C" fn(
        H,
        *const c_char,
        u64,
        cudaHostFn_t,
        *mut c_void,
        *const streamsimAccess,
        usize,
    ) -> Err,
    pub begin_capture: unsafe extern "C" fn(H, c_int) -> Err,
    pub end_capture: unsafe extern "C" fn(H, *mut H) -> Err,
    pub is_capturing: unsafe extern "C" fn(H, *mut c_uint) -> Err,
    pub get_capture_info:
        unsafe extern "C" fn(H, *mut c_uint, *mut u64, *mut H, *mut *const H, *mut usize) -> Err,
    pub update_capture_dependencies: unsafe extern "C" fn(H, *mut H, usize, c_uint) -> Err,
    pub exchange_capture_mode: unsafe extern "C" fn(*mut c_int) -> Err,
    pub instantiate: unsafe extern "C" fn(*mut H, H, u64) -> Err,
    pub instantiate_with_flags: unsafe extern "C" fn(*mut H, H, u64) -> Err,
    pub graph_launch: unsafe extern "C" fn(H, H) -> Err,
    pub exec_destroy: unsafe extern "C" fn(H) -> Err,
    pub graph_destroy: unsafe extern "C" fn(H) -> Err,
    pub graph_clone: unsafe extern "C" fn(*mut H, H) -> Err,
    pub get_nodes: unsafe extern "C" fn(H, *mut H, *mut usize) -> Err,
    pub get_root_nodes: unsafe extern "C" fn(H, *mut H, *mut usize) -> Err,
    pub get_edges: unsafe extern "C" fn(H, *mut H, *mut H, *mut usize) -> Err,
    pub node_get_type: unsafe extern "C" fn(H, *mut c_uint) -> Err,
    pub node_get_dependencies: unsafe extern "C" fn(H, *mut H, *mut usize) -> Err,
    pub node_get_dependent_nodes: unsafe extern "C" fn(H, *mut H, *mut usize) -> Err,
    pub dot_print: unsafe extern "C" fn(H, *const c_char, c_uint) -> Err,
    pub get_last_error: unsafe extern "C" fn() -> Err,
}

macro_rules! table {
    ($name:literal, $m:ident, cuda) => {
        Fam {
            name: $name,
            stream_create_with_flags: $m::cudaStreamCreateWithFlags,
            stream_destroy: $m::cudaStreamDestroy,
            stream_synchronize: $m::cudaStreamSynchronize,
            stream_query: $m::cudaStreamQuery,
            stream_wait_event: $m::cudaStreamWaitEvent,
            stream_add_callback: $m::cudaStreamAddCallback,
            launch_host_func: $m::cudaLaunchHostFunc,
            event_create_with_flags: $m::cudaEventCreateWithFlags,
            event_destroy: $m::cudaEventDestroy,
            event_record: $m::cudaEventRecord,
            event_record_with_flags: $m::cudaEventRecordWithFlags,
            event_query: $m::cudaEventQuery,
            event_synchronize: $m::cudaEventSynchronize,
            event_elapsed_time: $m::cudaEventElapsedTime,
            device_synchronize: $m::cudaDeviceSynchronize,
            malloc: $m::cudaMalloc,
            free: $m::cudaFree,
            malloc_host: $m::cudaMallocHost,
            memcpy: $m::cudaMemcpy,
            memcpy_async: $m::cudaMemcpyAsync,
            memset: $m::cudaMemset,
            memset_async: $m::cudaMemsetAsync,
            launch_kernel: $m::cudasimLaunchKernel,
            launch_kernel_ex: $m::cudasimLaunchKernelEx,
            begin_capture: $m::cudaStreamBeginCapture,
            end_capture: $m::cudaStreamEndCapture,
            is_capturing: $m::cudaStreamIsCapturing,
            get_capture_info: $m::cudaStreamGetCaptureInfo,
            update_capture_dependencies: $m::cudaStreamUpdateCaptureDependencies,
            exchange_capture_mode: $m::cudaThreadExchangeStreamCaptureMode,
            instantiate: $m::cudaGraphInstantiate,
            instantiate_with_flags: $m::cudaGraphInstantiateWithFlags,
            graph_launch: $m::cudaGraphLaunch,
            exec_destroy: $m::cudaGraphExecDestroy,
            graph_destroy: $m::cudaGraphDestroy,
            graph_clone: $m::cudaGraphClone,
            get_nodes: $m::cudaGraphGetNodes,
            get_root_nodes: $m::cudaGraphGetRootNodes,
            get_edges: $m::cudaGraphGetEdges,
            node_get_type: $m::cudaGraphNodeGetType,
            node_get_dependencies: $m::cudaGraphNodeGetDependencies,
            node_get_dependent_nodes: $m::cudaGraphNodeGetDependentNodes,
            dot_print: $m::cudaGraphDebugDotPrint,
            get_last_error: $m::cudaGetLastError,
        }
    };
    ($name:literal, $m:ident, musa) => {
        Fam {
            name: $name,
            stream_create_with_flags: $m::musaStreamCreateWithFlags,
            stream_destroy: $m::musaStreamDestroy,
            stream_synchronize: $m::musaStreamSynchronize,
            stream_query: $m::musaStreamQuery,
            stream_wait_event: $m::musaStreamWaitEvent,
            stream_add_callback: $m::musaStreamAddCallback,
            launch_host_func: $m::musaLaunchHostFunc,
            event_create_with_flags: $m::musaEventCreateWithFlags,
            event_destroy: $m::musaEventDestroy,
            event_record: $m::musaEventRecord,
            event_record_with_flags: $m::musaEventRecordWithFlags,
            event_query: $m::musaEventQuery,
            event_synchronize: $m::musaEventSynchronize,
            event_elapsed_time: $m::musaEventElapsedTime,
            device_synchronize: $m::musaDeviceSynchronize,
            malloc: $m::musaMalloc,
            free: $m::musaFree,
            malloc_host: $m::musaMallocHost,
            memcpy: $m::musaMemcpy,
            memcpy_async: $m::musaMemcpyAsync,
            memset: $m::musaMemset,
            memset_async: $m::musaMemsetAsync,
            launch_kernel: $m::musasimLaunchKernel,
            launch_kernel_ex: $m::musasimLaunchKernelEx,
            begin_capture: $m::musaStreamBeginCapture,
            end_capture: $m::musaStreamEndCapture,
            is_capturing: $m::musaStreamIsCapturing,
            get_capture_info: $m::musaStreamGetCaptureInfo,
            update_capture_dependencies: $m::musaStreamUpdateCaptureDependencies,
            exchange_capture_mode: $m::musaThreadExchangeStreamCaptureMode,
            instantiate: $m::musaGraphInstantiate,
            instantiate_with_flags: $m::musaGraphInstantiateWithFlags,
            graph_launch: $m::musaGraphLaunch,
            exec_destroy: $m::musaGraphExecDestroy,
            graph_destroy: $m::musaGraphDestroy,
            graph_clone: $m::musaGraphClone,
            get_nodes: $m::musaGraphGetNodes,
            get_root_nodes: $m::musaGraphGetRootNodes,
            get_edges: $m::musaGraphGetEdges,
            node_get_type: $m::musaGraphNodeGetType,
            node_get_dependencies: $m::musaGraphNodeGetDependencies,
            node_get_dependent_nodes: $m::musaGraphNodeGetDependentNodes,
            dot_print: $m::musaGraphDebugDotPrint,
            get_last_error: $m::musaGetLastError,
        }
    };
}

pub const CUDA: Fam = table!("cuda", cuda, cuda);
pub const MUSA: Fam = table!("musa", musa, musa);
/// Both families.
pub const FAMILIES: [Fam; 2] = [CUDA, MUSA];

/// Calls a facade function and asserts its exact code (the family's name in the message).
macro_rules! check {
    ($f:expr, $want:expr, $call:expr) => {{
        #[allow(unused_unsafe, reason = "some calls are safe")]
        // SAFETY: the test passes NULL or valid pointers, as the C contract requires.
        let got: $crate::graphs::fam::Err = unsafe { $call };
        let want: $crate::graphs::fam::Err = $want;
        assert_eq!(
            got,
            want,
            "{}: `{}` returned {got}, expected {want}",
            $f.name,
            stringify!($call)
        );
    }};
}
pub(crate) use check;

impl Fam {
    pub fn stream(&self, flags: c_uint) -> H {
        let mut s = std::ptr::null_mut();
        check!(self, 0, (self.stream_create_with_flags)(&mut s, flags));
        s
    }

    pub fn event(&self) -> H {
        let mut e = std::ptr::null_mut();
        check!(self, 0, (self.event_create_with_flags)(&mut e, 0));
        e
    }

    /// A body-less kernel of `ns` nanoseconds called `name` (a NUL-terminated C string).
    pub fn kernel(&self, s: H, name: &std::ffi::CStr, ns: u64) -> Err {
        // SAFETY: a static name, no body.
        unsafe { (self.launch_kernel)(s, name.as_ptr(), ns, None, std::ptr::null_mut()) }
    }

    /// A kernel that declares it writes `bytes` at `ptr`.
    pub fn kernel_writes(&self, s: H, name: &std::ffi::CStr, ns: u64, ptr: H, bytes: usize) -> Err {
        let a = streamsimAccess {
            ptr,
            bytes,
            flags: 1,
        };
        // SAFETY: a static name, one access.
        unsafe { (self.launch_kernel_ex)(s, name.as_ptr(), ns, None, std::ptr::null_mut(), &a, 1) }
    }

    /// The capture status of `s` (through cudaStreamIsCapturing).
    pub fn status(&self, s: H) -> c_uint {
        let mut st = 99;
        check!(self, 0, (self.is_capturing)(s, &mut st));
        st
    }

    /// How many nodes graph `g` has.
    pub fn node_count(&self, g: H) -> usize {
        let mut n = 0;
        check!(self, 0, (self.get_nodes)(g, std::ptr::null_mut(), &mut n));
        n
    }

    /// The nodes of graph `g`.
    pub fn nodes(&self, g: H) -> Vec<H> {
        let mut n = self.node_count(g);
        let mut v = vec![std::ptr::null_mut(); n];
        check!(self, 0, (self.get_nodes)(g, v.as_mut_ptr(), &mut n));
        v
    }
}
