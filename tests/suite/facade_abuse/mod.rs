//! Every CUDA and MUSA facade function called with NULL and garbage arguments: NULL out-pointers; NULL,
//! destroyed, forged (`0xdeadbeef`), wrong-kind, other-process, other-machine and reset-freed handles; bad
//! flags; bad device ids; unknown, freed, foreign and out-of-range device pointers; wrong copy kinds and
//! kind 99. Each call must return the vendor's code; nothing may panic or crash.
//!
//! Both families are called through one table of function pointers ([`Fam`]); building the MUSA table from the
//! CUDA table's field types also checks that every `musaX` has its `cudaX` twin's exact signature. Codes are
//! written with the CUDA names (equal to MUSA's, see `musa_facade`).
//!
//! Only pointers the simulator can check are garbage here (device-range addresses, NULL, handles): host
//! pointers are valid whenever the C contract requires them to be. Calls that could take the whole test
//! process down (a dereference of an address the simulator mistook for host memory, a failed huge host
//! allocation) run in a child process of this test binary, so that a crash is reported as a failure.
#![allow(non_upper_case_globals, reason = "the vendor's constant names")]

use std::ffi::{CStr, c_char, c_int, c_uint, c_void};
use std::ptr::{NonNull, null, null_mut};

use streamsim::cuda::{self, *};
use streamsim::memory::DEVICE_ADDRESS_BASE;
use streamsim::{Dialect, Machine, Process, musa};

use crate::cuda_facade::run_child;

type Err = cudaError_t;
type H = *mut c_void;

/// One family's functions (CUDA or MUSA), as C function pointers.
#[derive(Clone, Copy)]
struct Fam {
    name: &'static str,
    get_device_count: unsafe extern "C" fn(*mut c_int) -> Err,
    set_device: unsafe extern "C" fn(c_int) -> Err,
    get_device: unsafe extern "C" fn(*mut c_int) -> Err,
    device_synchronize: unsafe extern "C" fn() -> Err,
    device_reset: unsafe extern "C" fn() -> Err,
    device_can_access_peer: unsafe extern "C" fn(*mut c_int, c_int, c_int) -> Err,
    device_enable_peer_access: unsafe extern "C" fn(c_int, c_uint) -> Err,
    device_disable_peer_access: unsafe extern "C" fn(c_int) -> Err,
    device_get_stream_priority_range: unsafe extern "C" fn(*mut c_int, *mut c_int) -> Err,
    device_get_attribute: unsafe extern "C" fn(*mut c_int, c_int, c_int) -> Err,
    stream_create: unsafe extern "C" fn(*mut H) -> Err,
    stream_create_with_flags: unsafe extern "C" fn(*mut H, c_uint) -> Err,
    stream_create_with_priority: unsafe extern "C" fn(*mut H, c_uint, c_int) -> Err,
    stream_destroy: unsafe extern "C" fn(H) -> Err,
    stream_synchronize: unsafe extern "C" fn(H) -> Err,
    stream_query: unsafe extern "C" fn(H) -> Err,
    stream_wait_event: unsafe extern "C" fn(H, H, c_uint) -> Err,
    stream_get_flags: unsafe extern "C" fn(H, *mut c_uint) -> Err,
    stream_get_priority: unsafe extern "C" fn(H, *mut c_int) -> Err,
    launch_host_func: unsafe extern "C" fn(H, cudaHostFn_t, *mut c_void) -> Err,
    stream_add_callback: unsafe extern "C" fn(H, cudaStreamCallback_t, *mut c_void, c_uint) -> Err,
    event_create: unsafe extern "C" fn(*mut H) -> Err,
    event_create_with_flags: unsafe extern "C" fn(*mut H, c_uint) -> Err,
    event_destroy: unsafe extern "C" fn(H) -> Err,
    event_record: unsafe extern "C" fn(H, H) -> Err,
    event_record_with_flags: unsafe extern "C" fn(H, H, c_uint) -> Err,
    event_query: unsafe extern "C" fn(H) -> Err,
    event_synchronize: unsafe extern "C" fn(H) -> Err,
    event_elapsed_time: unsafe extern "C" fn(*mut f32, H, H) -> Err,
    ipc_get_event_handle: unsafe extern "C" fn(*mut cudaIpcEventHandle_t, H) -> Err,
    ipc_open_event_handle: unsafe extern "C" fn(*mut H, cudaIpcEventHandle_t) -> Err,
    malloc: unsafe extern "C" fn(*mut H, usize) -> Err,
    free: unsafe extern "C" fn(H) -> Err,
    malloc_host: unsafe extern "C" fn(*mut H, usize) -> Err,
    free_host: unsafe extern "C" fn(H) -> Err,
    memcpy: unsafe extern "C" fn(H, *const c_void, usize, c_uint) -> Err,
    memcpy_async: unsafe extern "C" fn(H, *const c_void, usize, c_uint, H) -> Err,
    memcpy_peer: unsafe extern "C" fn(H, c_int, *const c_void, c_int, usize) -> Err,
    memcpy_peer_async: unsafe extern "C" fn(H, c_int, *const c_void, c_int, usize, H) -> Err,
    memset: unsafe extern "C" fn(H, c_int, usize) -> Err,
    memset_async: unsafe extern "C" fn(H, c_int, usize, H) -> Err,
    get_last_error: unsafe extern "C" fn() -> Err,
    peek_at_last_error: unsafe extern "C" fn() -> Err,
    launch_kernel: unsafe extern "C" fn(H, *const c_char, u64, cudaHostFn_t, *mut c_void) -> Err,
    launch_kernel_ex: unsafe extern "C" fn(
        H,
        *const c_char,
        u64,
        cudaHostFn_t,
        *mut c_void,
        *const streamsimAccess,
        usize,
    ) -> Err,
    get_error_name: extern "C" fn(Err) -> *const c_char,
    get_error_string: extern "C" fn(Err) -> *const c_char,
    get_device_properties: unsafe extern "C" fn(*mut cudaDeviceProp, c_int) -> Err,
    mem_get_info: unsafe extern "C" fn(*mut usize, *mut usize) -> Err,
    driver_get_version: unsafe extern "C" fn(*mut c_int) -> Err,
    runtime_get_version: unsafe extern "C" fn(*mut c_int) -> Err,
    device_get_pci_bus_id: unsafe extern "C" fn(*mut c_char, c_int, c_int) -> Err,
    device_get_by_pci_bus_id: unsafe extern "C" fn(*mut c_int, *const c_char) -> Err,
    device_set_limit: unsafe extern "C" fn(c_uint, usize) -> Err,
    device_get_limit: unsafe extern "C" fn(*mut usize, c_uint) -> Err,
    set_device_flags: unsafe extern "C" fn(c_uint) -> Err,
    get_device_flags: unsafe extern "C" fn(*mut c_uint) -> Err,
    occupancy_max_active_blocks:
        unsafe extern "C" fn(*mut c_int, *const c_void, c_int, usize) -> Err,
    occupancy_max_active_blocks_with_flags:
        unsafe extern "C" fn(*mut c_int, *const c_void, c_int, usize, c_uint) -> Err,
    profiler_start: unsafe extern "C" fn() -> Err,
    profiler_stop: unsafe extern "C" fn() -> Err,
    host_alloc: unsafe extern "C" fn(*mut H, usize, c_uint) -> Err,
    host_get_device_pointer: unsafe extern "C" fn(*mut H, H, c_uint) -> Err,
    host_register: unsafe extern "C" fn(H, usize, c_uint) -> Err,
    host_unregister: unsafe extern "C" fn(H) -> Err,
    pointer_get_attributes: unsafe extern "C" fn(*mut cudaPointerAttributes, *const c_void) -> Err,
    stream_get_id: unsafe extern "C" fn(H, *mut u64) -> Err,
    stream_get_device: unsafe extern "C" fn(H, *mut c_int) -> Err,
}

const CUDA: Fam = Fam {
    name: "cuda",
    get_device_count: cuda::cudaGetDeviceCount,
    set_device: cuda::cudaSetDevice,
    get_device: cuda::cudaGetDevice,
    device_synchronize: cuda::cudaDeviceSynchronize,
    device_reset: cuda::cudaDeviceReset,
    device_can_access_peer: cuda::cudaDeviceCanAccessPeer,
    device_enable_peer_access: cuda::cudaDeviceEnablePeerAccess,
    device_disable_peer_access: cuda::cudaDeviceDisablePeerAccess,
    device_get_stream_priority_range: cuda::cudaDeviceGetStreamPriorityRange,
    device_get_attribute: cuda::cudaDeviceGetAttribute,
    stream_create: cuda::cudaStreamCreate,
    stream_create_with_flags: cuda::cudaStreamCreateWithFlags,
    stream_create_with_priority: cuda::cudaStreamCreateWithPriority,
    stream_destroy: cuda::cudaStreamDestroy,
    stream_synchronize: cuda::cudaStreamSynchronize,
    stream_query: cuda::cudaStreamQuery,
    stream_wait_event: cuda::cudaStreamWaitEvent,
    stream_get_flags: cuda::cudaStreamGetFlags,
    stream_get_priority: cuda::cudaStreamGetPriority,
    launch_host_func: cuda::cudaLaunchHostFunc,
    stream_add_callback: cuda::cudaStreamAddCallback,
    event_create: cuda::cudaEventCreate,
    event_create_with_flags: cuda::cudaEventCreateWithFlags,
    event_destroy: cuda::cudaEventDestroy,
    event_record: cuda::cudaEventRecord,
    event_record_with_flags: cuda::cudaEventRecordWithFlags,
    event_query: cuda::cudaEventQuery,
    event_synchronize: cuda::cudaEventSynchronize,
    event_elapsed_time: cuda::cudaEventElapsedTime,
    ipc_get_event_handle: cuda::cudaIpcGetEventHandle,
    ipc_open_event_handle: cuda::cudaIpcOpenEventHandle,
    malloc: cuda::cudaMalloc,
    free: cuda::cudaFree,
    malloc_host: cuda::cudaMallocHost,
    free_host: cuda::cudaFreeHost,
    memcpy: cuda::cudaMemcpy,
    memcpy_async: cuda::cudaMemcpyAsync,
    memcpy_peer: cuda::cudaMemcpyPeer,
    memcpy_peer_async: cuda::cudaMemcpyPeerAsync,
    memset: cuda::cudaMemset,
    memset_async: cuda::cudaMemsetAsync,
    get_last_error: cuda::cudaGetLastError,
    peek_at_last_error: cuda::cudaPeekAtLastError,
    launch_kernel: cuda::cudasimLaunchKernel,
    launch_kernel_ex: cuda::cudasimLaunchKernelEx,
    get_error_name: cuda::cudaGetErrorName,
    get_error_string: cuda::cudaGetErrorString,
    get_device_properties: cuda::cudaGetDeviceProperties,
    mem_get_info: cuda::cudaMemGetInfo,
    driver_get_version: cuda::cudaDriverGetVersion,
    runtime_get_version: cuda::cudaRuntimeGetVersion,
    device_get_pci_bus_id: cuda::cudaDeviceGetPCIBusId,
    device_get_by_pci_bus_id: cuda::cudaDeviceGetByPCIBusId,
    device_set_limit: cuda::cudaDeviceSetLimit,
    device_get_limit: cuda::cudaDeviceGetLimit,
    set_device_flags: cuda::cudaSetDeviceFlags,
    get_device_flags: cuda::cudaGetDeviceFlags,
    occupancy_max_active_blocks: cuda::cudaOccupancyMaxActiveBlocksPerMultiprocessor,
    occupancy_max_active_blocks_with_flags:
        cuda::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags,
    profiler_start: cuda::cudaProfilerStart,
    profiler_stop: cuda::cudaProfilerStop,
    host_alloc: cuda::cudaHostAlloc,
    host_get_device_pointer: cuda::cudaHostGetDevicePointer,
    host_register: cuda::cudaHostRegister,
    host_unregister: cuda::cudaHostUnregister,
    pointer_get_attributes: cuda::cudaPointerGetAttributes,
    stream_get_id: cuda::cudaStreamGetId,
    stream_get_device: cuda::cudaStreamGetDevice,
};

const MUSA: Fam = Fam {
    name: "musa",
    get_device_count: musa::musaGetDeviceCount,
    set_device: musa::musaSetDevice,
    get_device: musa::musaGetDevice,
    device_synchronize: musa::musaDeviceSynchronize,
    device_reset: musa::musaDeviceReset,
    device_can_access_peer: musa::musaDeviceCanAccessPeer,
    device_enable_peer_access: musa::musaDeviceEnablePeerAccess,
    device_disable_peer_access: musa::musaDeviceDisablePeerAccess,
    device_get_stream_priority_range: musa::musaDeviceGetStreamPriorityRange,
    device_get_attribute: musa::musaDeviceGetAttribute,
    stream_create: musa::musaStreamCreate,
    stream_create_with_flags: musa::musaStreamCreateWithFlags,
    stream_create_with_priority: musa::musaStreamCreateWithPriority,
    stream_destroy: musa::musaStreamDestroy,
    stream_synchronize: musa::musaStreamSynchronize,
    stream_query: musa::musaStreamQuery,
    stream_wait_event: musa::musaStreamWaitEvent,
    stream_get_flags: musa::musaStreamGetFlags,
    stream_get_priority: musa::musaStreamGetPriority,
    launch_host_func: musa::musaLaunchHostFunc,
    stream_add_callback: musa::musaStreamAddCallback,
    event_create: musa::musaEventCreate,
    event_create_with_flags: musa::musaEventCreateWithFlags,
    event_destroy: musa::musaEventDestroy,
    event_record: musa::musaEventRecord,
    event_record_with_flags: musa::musaEventRecordWithFlags,
    event_query: musa::musaEventQuery,
    event_synchronize: musa::musaEventSynchronize,
    event_elapsed_time: musa::musaEventElapsedTime,
    ipc_get_event_handle: musa::musaIpcGetEventHandle,
    ipc_open_event_handle: musa::musaIpcOpenEventHandle,
    malloc: musa::musaMalloc,
    free: musa::musaFree,
    malloc_host: musa::musaMallocHost,
    free_host: musa::musaFreeHost,
    memcpy: musa::musaMemcpy,
    memcpy_async: musa::musaMemcpyAsync,
    memcpy_peer: musa::musaMemcpyPeer,
    memcpy_peer_async: musa::musaMemcpyPeerAsync,
    memset: musa::musaMemset,
    memset_async: musa::musaMemsetAsync,
    get_last_error: musa::musaGetLastError,
    peek_at_last_error: musa::musaPeekAtLastError,
    launch_kernel: musa::musasimLaunchKernel,
    launch_kernel_ex: musa::musasimLaunchKernelEx,
    get_error_name: musa::musaGetErrorName,
    get_error_string: musa::musaGetErrorString,
    get_device_properties: musa::musaGetDeviceProperties,
    mem_get_info: musa::musaMemGetInfo,
    driver_get_version: musa::musaDriverGetVersion,
    runtime_get_version: musa::musaRuntimeGetVersion,
    device_get_pci_bus_id: musa::musaDeviceGetPCIBusId,
    device_get_by_pci_bus_id: musa::musaDeviceGetByPCIBusId,
    device_set_limit: musa::musaDeviceSetLimit,
    device_get_limit: musa::musaDeviceGetLimit,
    set_device_flags: musa::musaSetDeviceFlags,
    get_device_flags: musa::musaGetDeviceFlags,
    occupancy_max_active_blocks: musa::musaOccupancyMaxActiveBlocksPerMultiprocessor,
    occupancy_max_active_blocks_with_flags:
        musa::musaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags,
    profiler_start: musa::musaProfilerStart,
    profiler_stop: musa::musaProfilerStop,
    host_alloc: musa::musaHostAlloc,
    host_get_device_pointer: musa::musaHostGetDevicePointer,
    host_register: musa::musaHostRegister,
    host_unregister: musa::musaHostUnregister,
    pointer_get_attributes: musa::musaPointerGetAttributes,
    stream_get_id: musa::musaStreamGetId,
    stream_get_device: musa::musaStreamGetDevice,
};

const FAMILIES: [Fam; 2] = [CUDA, MUSA];

impl Fam {
    fn err_name(&self, e: Err) -> String {
        // SAFETY: a static NUL-terminated string.
        unsafe { CStr::from_ptr((self.get_error_name)(e)) }
            .to_string_lossy()
            .into_owned()
    }
}

/// Calls `$call` (an unsafe facade call through the table `$f`) and asserts the exact code.
macro_rules! check {
    ($f:expr, $want:expr, $call:expr) => {{
        #[allow(unused_unsafe, reason = "some calls are safe")]
        // SAFETY: host pointers are NULL or valid; the garbage is in handles and device-range addresses.
        let got: Err = unsafe { $call };
        let want: Err = $want;
        assert_eq!(
            got,
            want,
            "{}: `{}` returned {} ({}), expected {} ({})",
            $f.name,
            stringify!($call),
            got,
            $f.err_name(got),
            want,
            $f.err_name(want)
        );
    }};
}

fn machine(devices: u32) -> (Machine, Process) {
    let m = Machine::builder().devices(devices).build().unwrap();
    let p = m.process();
    (m, p)
}

fn on<T>(p: &Process, f: impl FnOnce() -> T) -> T {
    let _g = p.bind();
    f()
}

fn new_stream(f: Fam) -> H {
    let mut s = null_mut();
    check!(f, cudaSuccess, (f.stream_create)(&mut s));
    s
}

fn new_event(f: Fam, flags: c_uint) -> H {
    let mut e = null_mut();
    check!(f, cudaSuccess, (f.event_create_with_flags)(&mut e, flags));
    e
}

fn dmalloc(f: Fam, bytes: usize) -> H {
    let mut p = null_mut();
    check!(f, cudaSuccess, (f.malloc)(&mut p, bytes));
    p
}

fn pinned(f: Fam, bytes: usize) -> H {
    let mut p = null_mut();
    check!(f, cudaSuccess, (f.malloc_host)(&mut p, bytes));
    p
}

unsafe extern "C" fn nothing(_: *mut c_void) {}

unsafe extern "C" fn no_callback(_: H, _: Err, _: *mut c_void) {}

/// A device-range address no allocation of a 2-device machine covers (device 0's range, 1 TiB in).
fn unallocated() -> H {
    (DEVICE_ADDRESS_BASE + (1 << 39)) as usize as H
}

/// An address in the device window of a device the machine does not have.
fn no_such_device() -> H {
    (DEVICE_ADDRESS_BASE + (7 << 40)) as usize as H
}

/// Handles that name no stream of the bound process: (what, handle).
struct Garbage {
    items: Vec<(&'static str, H)>,
}

/// Builds garbage stream or event handles for the bound process of machine `m` (2 devices).
fn garbage(f: Fam, m: &Machine, kind: &str) -> Garbage {
    let stream_kind = kind == "stream";
    let make = |f: Fam| {
        if stream_kind {
            new_stream(f)
        } else {
            new_event(f, 0)
        }
    };
    let destroyed = make(f);
    if stream_kind {
        check!(f, cudaSuccess, (f.stream_destroy)(destroyed));
    } else {
        check!(f, cudaSuccess, (f.event_destroy)(destroyed));
    }
    // The other kind of handle.
    let wrong_kind = if stream_kind {
        new_event(f, 0)
    } else {
        new_stream(f)
    };
    // Freed by a reset of device 1.
    check!(f, cudaSuccess, (f.set_device)(1));
    let reset = make(f);
    check!(f, cudaSuccess, (f.device_reset)());
    check!(f, cudaSuccess, (f.set_device)(0));
    let other_process = on(&m.process(), || make(f));
    let other_machine = on(&machine(1).1, || make(f));
    let mut items = vec![
        ("destroyed", destroyed),
        ("forged 0xdeadbeef", 0xdead_beef_usize as H),
        ("all ones", usize::MAX as H),
        ("0x3", 3_usize as H),
        ("the other kind", wrong_kind),
        ("freed by a device reset", reset),
        ("another process's", other_process),
        ("another machine's", other_machine),
    ];
    if !stream_kind {
        // NULL is the default stream, but never an event.
        items.push(("NULL", null_mut()));
        items.push(("cudaStreamLegacy", cudaStreamLegacy));
        items.push(("cudaStreamPerThread", cudaStreamPerThread));
    }
    Garbage { items }
}

mod crashes;
mod devices;
mod events;
mod kernels;
mod memory;
mod streams;
mod sweeps;
