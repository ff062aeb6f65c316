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

// ------------------------------------------------------------------------------------------------ sweeps

/// Every function with NULL / zero arguments on a fresh bound machine: the vendor's code for each.
#[test]
fn every_function_with_null_and_zero_arguments() {
    for f in FAMILIES {
        let (_m, p) = machine(1);
        let _g = p.bind();
        let zeroed = cudaIpcEventHandle_t { reserved: [0; 64] };
        let n: H = null_mut();
        // SAFETY (all calls): NULL arguments; nothing valid is required of them.
        let codes: Vec<(&str, Err, Err)> = unsafe {
            vec![
                ("GetDeviceCount", (f.get_device_count)(n.cast()), 1),
                ("SetDevice", (f.set_device)(0), 0),
                ("GetDevice", (f.get_device)(n.cast()), 1),
                ("DeviceSynchronize", (f.device_synchronize)(), 0),
                ("DeviceReset", (f.device_reset)(), 0),
                (
                    "DeviceCanAccessPeer",
                    (f.device_can_access_peer)(n.cast(), 0, 0),
                    1,
                ),
                (
                    "DeviceEnablePeerAccess",
                    (f.device_enable_peer_access)(0, 0),
                    101,
                ),
                (
                    "DeviceDisablePeerAccess",
                    (f.device_disable_peer_access)(0),
                    101,
                ),
                (
                    "DeviceGetStreamPriorityRange",
                    (f.device_get_stream_priority_range)(n.cast(), n.cast()),
                    0,
                ),
                (
                    "DeviceGetAttribute",
                    (f.device_get_attribute)(n.cast(), 0, 0),
                    1,
                ),
                ("StreamCreate", (f.stream_create)(n.cast()), 1),
                (
                    "StreamCreateWithFlags",
                    (f.stream_create_with_flags)(n.cast(), 0),
                    1,
                ),
                (
                    "StreamCreateWithPriority",
                    (f.stream_create_with_priority)(n.cast(), 0, 0),
                    1,
                ),
                ("StreamDestroy", (f.stream_destroy)(n), 400),
                ("StreamSynchronize", (f.stream_synchronize)(n), 0),
                ("StreamQuery", (f.stream_query)(n), 0),
                ("StreamWaitEvent", (f.stream_wait_event)(n, n, 0), 400),
                ("StreamGetFlags", (f.stream_get_flags)(n, n.cast()), 1),
                ("StreamGetPriority", (f.stream_get_priority)(n, n.cast()), 1),
                ("LaunchHostFunc", (f.launch_host_func)(n, None, n), 1),
                (
                    "StreamAddCallback",
                    (f.stream_add_callback)(n, None, n, 0),
                    1,
                ),
                ("EventCreate", (f.event_create)(n.cast()), 1),
                (
                    "EventCreateWithFlags",
                    (f.event_create_with_flags)(n.cast(), 0),
                    1,
                ),
                ("EventDestroy", (f.event_destroy)(n), 400),
                ("EventRecord", (f.event_record)(n, n), 400),
                (
                    "EventRecordWithFlags",
                    (f.event_record_with_flags)(n, n, 0),
                    400,
                ),
                ("EventQuery", (f.event_query)(n), 400),
                ("EventSynchronize", (f.event_synchronize)(n), 400),
                (
                    "EventElapsedTime",
                    (f.event_elapsed_time)(n.cast(), n, n),
                    1,
                ),
                (
                    "IpcGetEventHandle",
                    (f.ipc_get_event_handle)(n.cast(), n),
                    1,
                ),
                (
                    "IpcOpenEventHandle",
                    (f.ipc_open_event_handle)(n.cast(), zeroed),
                    1,
                ),
                ("Malloc", (f.malloc)(n.cast(), 0), 1),
                ("Free", (f.free)(n), 0),
                ("MallocHost", (f.malloc_host)(n.cast(), 0), 1),
                ("FreeHost", (f.free_host)(n), 0),
                ("Memcpy", (f.memcpy)(n, null(), 16, 0), 1),
                ("Memcpy count 0", (f.memcpy)(n, null(), 0, 0), 0),
                ("MemcpyAsync", (f.memcpy_async)(n, null(), 16, 0, n), 1),
                ("MemcpyPeer", (f.memcpy_peer)(n, 0, null(), 0, 16), 1),
                (
                    "MemcpyPeerAsync",
                    (f.memcpy_peer_async)(n, 0, null(), 0, 16, n),
                    1,
                ),
                ("Memset", (f.memset)(n, 0, 16), 1),
                ("Memset count 0", (f.memset)(n, 0, 0), 0),
                ("MemsetAsync", (f.memset_async)(n, 0, 16, n), 1),
                ("GetLastError", (f.get_last_error)(), 1),
                ("PeekAtLastError", (f.peek_at_last_error)(), 0),
                ("LaunchKernel", (f.launch_kernel)(n, null(), 0, None, n), 0),
                (
                    "LaunchKernelEx",
                    (f.launch_kernel_ex)(n, null(), 0, None, n, null(), 0),
                    0,
                ),
                ("StreamSynchronize after", (f.stream_synchronize)(n), 0),
            ]
        };
        let wrong: Vec<String> = codes
            .iter()
            .filter(|(_, got, want)| got != want)
            .map(|(call, got, want)| {
                format!(
                    "{}{call}: {got} ({}), expected {want}",
                    f.name,
                    f.err_name(*got)
                )
            })
            .collect();
        assert!(wrong.is_empty(), "{wrong:#?}");
        for code in [0, 600, 12_345, u32::MAX] {
            assert!(!(f.get_error_name)(code).is_null());
            assert!(!(f.get_error_string)(code).is_null());
        }
    }
}

/// Every function on a process bound to an ACL machine: the CUDA-family facades refuse it with 801
/// NotSupported (no panic, no call reaches the wrong dialect), and the last error says so.
#[test]
fn every_function_bound_to_a_machine_of_another_dialect() {
    for f in FAMILIES {
        let m = Machine::builder().dialect(Dialect::Acl).build().unwrap();
        let p = m.process();
        let _g = p.bind();
        let zeroed = cudaIpcEventHandle_t { reserved: [0; 64] };
        let (mut s, mut e, mut d, mut v, mut fl) = (null_mut(), null_mut(), null_mut(), 0, 0);
        let (mut lo, mut hi, mut ms) = (0, 0, 0.0f32);
        let mut h = zeroed;
        let mut buf = [0u8; 16];
        let n: H = null_mut();
        // SAFETY (all calls): valid out-pointers and host buffers.
        let codes: Vec<(&str, Err)> = unsafe {
            vec![
                ("GetDeviceCount", (f.get_device_count)(&mut v)),
                ("SetDevice", (f.set_device)(0)),
                ("GetDevice", (f.get_device)(&mut v)),
                ("DeviceSynchronize", (f.device_synchronize)()),
                ("DeviceReset", (f.device_reset)()),
                (
                    "DeviceCanAccessPeer",
                    (f.device_can_access_peer)(&mut v, 0, 0),
                ),
                (
                    "DeviceEnablePeerAccess",
                    (f.device_enable_peer_access)(0, 0),
                ),
                ("DeviceDisablePeerAccess", (f.device_disable_peer_access)(0)),
                (
                    "DeviceGetStreamPriorityRange",
                    (f.device_get_stream_priority_range)(&mut lo, &mut hi),
                ),
                (
                    "DeviceGetAttribute",
                    (f.device_get_attribute)(&mut v, 10, 0),
                ),
                ("StreamCreate", (f.stream_create)(&mut s)),
                (
                    "StreamCreateWithFlags",
                    (f.stream_create_with_flags)(&mut s, 0),
                ),
                (
                    "StreamCreateWithPriority",
                    (f.stream_create_with_priority)(&mut s, 0, 0),
                ),
                ("StreamDestroy", (f.stream_destroy)(n)),
                ("StreamSynchronize", (f.stream_synchronize)(n)),
                ("StreamQuery", (f.stream_query)(n)),
                ("StreamWaitEvent", (f.stream_wait_event)(n, n, 0)),
                ("StreamGetFlags", (f.stream_get_flags)(n, &mut fl)),
                ("StreamGetPriority", (f.stream_get_priority)(n, &mut v)),
                ("LaunchHostFunc", (f.launch_host_func)(n, Some(nothing), n)),
                (
                    "StreamAddCallback",
                    (f.stream_add_callback)(n, Some(no_callback), n, 0),
                ),
                ("EventCreate", (f.event_create)(&mut e)),
                (
                    "EventCreateWithFlags",
                    (f.event_create_with_flags)(&mut e, 0),
                ),
                ("EventDestroy", (f.event_destroy)(n)),
                ("EventRecord", (f.event_record)(n, n)),
                ("EventRecordWithFlags", (f.event_record_with_flags)(n, n, 0)),
                ("EventQuery", (f.event_query)(n)),
                ("EventSynchronize", (f.event_synchronize)(n)),
                ("EventElapsedTime", (f.event_elapsed_time)(&mut ms, n, n)),
                ("IpcGetEventHandle", (f.ipc_get_event_handle)(&mut h, n)),
                (
                    "IpcOpenEventHandle",
                    (f.ipc_open_event_handle)(&mut e, zeroed),
                ),
                ("Malloc", (f.malloc)(&mut d, 16)),
                ("Free", (f.free)(unallocated())),
                ("MallocHost", (f.malloc_host)(&mut d, 16)),
                ("FreeHost", (f.free_host)(unallocated())),
                (
                    "Memcpy",
                    (f.memcpy)(buf.as_mut_ptr().cast(), buf.as_ptr().cast(), 16, 0),
                ),
                (
                    "MemcpyAsync",
                    (f.memcpy_async)(buf.as_mut_ptr().cast(), buf.as_ptr().cast(), 16, 0, n),
                ),
                (
                    "MemcpyPeer",
                    (f.memcpy_peer)(unallocated(), 0, unallocated(), 0, 16),
                ),
                (
                    "MemcpyPeerAsync",
                    (f.memcpy_peer_async)(unallocated(), 0, unallocated(), 0, 16, n),
                ),
                ("Memset", (f.memset)(unallocated(), 0, 16)),
                ("MemsetAsync", (f.memset_async)(unallocated(), 0, 16, n)),
                ("LaunchKernel", (f.launch_kernel)(n, null(), 0, None, n)),
                (
                    "LaunchKernelEx",
                    (f.launch_kernel_ex)(n, null(), 0, None, n, null(), 0),
                ),
                ("GetLastError", (f.get_last_error)()),
                ("PeekAtLastError", (f.peek_at_last_error)()),
            ]
        };
        let wrong: Vec<String> = codes
            .iter()
            .filter(|(_, got)| *got != cudaErrorNotSupported)
            .map(|(call, got)| format!("{}{call}: {got} ({})", f.name, f.err_name(*got)))
            .collect();
        assert!(wrong.is_empty(), "expected 801 NotSupported: {wrong:#?}");
        assert!(s.is_null() && e.is_null() && d.is_null(), "nothing written");
        assert_eq!(h, zeroed);
    }
}

// ------------------------------------------------------------------------------------------------ devices

/// Bad device ids, NULL out-pointers and bad flags in the device calls.
#[test]
fn device_calls_with_bad_ids_flags_and_null_out_pointers() {
    for f in FAMILIES {
        let (_m, p) = machine(2);
        let _g = p.bind();
        let mut v: c_int = 7;
        for bad in [-1, 2, 3, 1_000, c_int::MAX, c_int::MIN] {
            check!(f, cudaErrorInvalidDevice, (f.set_device)(bad));
            check!(
                f,
                cudaErrorInvalidDevice,
                (f.device_can_access_peer)(&mut v, bad, 0)
            );
            check!(
                f,
                cudaErrorInvalidDevice,
                (f.device_can_access_peer)(&mut v, 0, bad)
            );
            check!(
                f,
                cudaErrorInvalidDevice,
                (f.device_enable_peer_access)(bad, 0)
            );
            check!(
                f,
                cudaErrorInvalidValue,
                (f.device_enable_peer_access)(bad, 1)
            );
            check!(
                f,
                cudaErrorInvalidDevice,
                (f.device_disable_peer_access)(bad)
            );
            check!(
                f,
                cudaErrorInvalidDevice,
                (f.device_get_attribute)(&mut v, cudaDevAttrWarpSize, bad)
            );
        }
        assert_eq!(v, 7, "nothing written on failure");
        check!(f, cudaErrorInvalidValue, (f.get_device_count)(null_mut()));
        check!(f, cudaErrorInvalidValue, (f.get_device)(null_mut()));
        check!(
            f,
            cudaErrorInvalidValue,
            (f.device_can_access_peer)(null_mut(), 0, 1)
        );
        check!(
            f,
            cudaErrorInvalidValue,
            (f.device_get_attribute)(null_mut(), cudaDevAttrWarpSize, 0)
        );
        for attr in [-1, 0, 9_999, c_int::MAX] {
            check!(
                f,
                cudaErrorInvalidValue,
                (f.device_get_attribute)(&mut v, attr, 0)
            );
        }
        check!(
            f,
            cudaSuccess,
            (f.device_get_attribute)(&mut v, cudaDevAttrWarpSize, 1)
        );
        assert_eq!(v, 32);
        check!(
            f,
            cudaSuccess,
            (f.device_get_attribute)(&mut v, cudaDevAttrMultiProcessorCount, 0)
        );
        assert_eq!(v, 80);
        for flags in [1, 2, 0x8000_0000, u32::MAX] {
            check!(
                f,
                cudaErrorInvalidValue,
                (f.device_enable_peer_access)(1, flags)
            );
        }
        check!(
            f,
            cudaErrorInvalidDevice,
            (f.device_enable_peer_access)(0, 0)
        );
        check!(f, cudaErrorInvalidDevice, (f.device_disable_peer_access)(0));
        check!(
            f,
            cudaErrorPeerAccessNotEnabled,
            (f.device_disable_peer_access)(1)
        );
        check!(
            f,
            cudaSuccess,
            (f.device_get_stream_priority_range)(null_mut(), null_mut())
        );
        let mut d = -1;
        check!(f, cudaSuccess, (f.get_device)(&mut d));
        assert_eq!(d, 0, "no failed call moved the current device");
        check!(f, cudaSuccess, (f.device_synchronize)());
        check!(f, cudaSuccess, (f.device_reset)());
        check!(f, cudaSuccess, (f.device_reset)());
    }
}

// ------------------------------------------------------------------------------------------------ streams

/// Every stream-taking call with garbage stream handles → 400; NULL out-pointers and bad flags → 1.
#[test]
fn stream_calls_with_garbage_handles_bad_flags_and_null_out_pointers() {
    for f in FAMILIES {
        let (m, p) = machine(2);
        let _g = p.bind();
        let good_e = new_event(f, 0);
        let d = dmalloc(f, 64);
        let host = pinned(f, 64);
        let g = garbage(f, &m, "stream");
        let (mut fl, mut prio) = (99_u32, 99);
        for (what, h) in &g.items {
            let h = *h;
            let acc = streamsimAccess {
                ptr: d,
                bytes: 64,
                write: 1,
            };
            // SAFETY (all calls): valid out-pointers and buffers; the stream handle is the garbage.
            let codes = unsafe {
                [
                    ("StreamDestroy", (f.stream_destroy)(h)),
                    ("StreamSynchronize", (f.stream_synchronize)(h)),
                    ("StreamQuery", (f.stream_query)(h)),
                    ("StreamWaitEvent", (f.stream_wait_event)(h, good_e, 0)),
                    ("StreamGetFlags", (f.stream_get_flags)(h, &mut fl)),
                    ("StreamGetPriority", (f.stream_get_priority)(h, &mut prio)),
                    (
                        "LaunchHostFunc",
                        (f.launch_host_func)(h, Some(nothing), null_mut()),
                    ),
                    (
                        "StreamAddCallback",
                        (f.stream_add_callback)(h, Some(no_callback), null_mut(), 0),
                    ),
                    ("EventRecord", (f.event_record)(good_e, h)),
                    (
                        "EventRecordWithFlags",
                        (f.event_record_with_flags)(good_e, h, 0),
                    ),
                    (
                        "MemcpyAsync",
                        (f.memcpy_async)(d, host, 64, cudaMemcpyHostToDevice, h),
                    ),
                    ("MemcpyPeerAsync", (f.memcpy_peer_async)(d, 0, d, 0, 64, h)),
                    ("MemsetAsync", (f.memset_async)(d, 0, 64, h)),
                    (
                        "LaunchKernel",
                        (f.launch_kernel)(h, null(), 10, Some(nothing), null_mut()),
                    ),
                    (
                        "LaunchKernelEx",
                        (f.launch_kernel_ex)(h, null(), 10, Some(nothing), null_mut(), &acc, 1),
                    ),
                ]
            };
            for (call, got) in codes {
                assert_eq!(
                    got,
                    cudaErrorInvalidResourceHandle,
                    "{}{call} with a {what} stream returned {got} ({})",
                    f.name,
                    f.err_name(got)
                );
            }
            assert_eq!((fl, prio), (99, 99), "nothing written through out-pointers");
        }
        // The special handles cannot be destroyed.
        for special in [null_mut(), cudaStreamLegacy, cudaStreamPerThread] {
            check!(
                f,
                cudaErrorInvalidResourceHandle,
                (f.stream_destroy)(special)
            );
        }
        // NULL out-pointers, bad flags.
        let s = new_stream(f);
        check!(f, cudaErrorInvalidValue, (f.stream_create)(null_mut()));
        check!(
            f,
            cudaErrorInvalidValue,
            (f.stream_create_with_flags)(null_mut(), 0)
        );
        check!(
            f,
            cudaErrorInvalidValue,
            (f.stream_create_with_priority)(null_mut(), 0, 0)
        );
        let mut out = null_mut();
        for flags in [2, 3, 0x100, 0x8000_0000, u32::MAX] {
            check!(
                f,
                cudaErrorInvalidValue,
                (f.stream_create_with_flags)(&mut out, flags)
            );
            check!(
                f,
                cudaErrorInvalidValue,
                (f.stream_create_with_priority)(&mut out, flags, -1)
            );
            check!(
                f,
                cudaErrorInvalidValue,
                (f.stream_wait_event)(s, good_e, flags)
            );
            check!(
                f,
                cudaErrorInvalidValue,
                (f.stream_add_callback)(s, Some(no_callback), null_mut(), flags)
            );
        }
        assert!(out.is_null());
        check!(
            f,
            cudaErrorInvalidValue,
            (f.stream_get_flags)(s, null_mut())
        );
        check!(
            f,
            cudaErrorInvalidValue,
            (f.stream_get_priority)(s, null_mut())
        );
        check!(
            f,
            cudaErrorInvalidValue,
            (f.launch_host_func)(s, None, null_mut())
        );
        check!(
            f,
            cudaErrorInvalidValue,
            (f.stream_add_callback)(s, None, null_mut(), 0)
        );
        // Extreme priorities are clamped, not refused.
        for prio in [c_int::MIN, c_int::MAX] {
            check!(
                f,
                cudaSuccess,
                (f.stream_create_with_priority)(&mut out, 1, prio)
            );
        }
        // After all that, the process works.
        check!(
            f,
            cudaSuccess,
            (f.launch_kernel)(s, c"ok".as_ptr(), 10, None, null_mut())
        );
        check!(f, cudaSuccess, (f.stream_synchronize)(s));
        check!(f, cudaSuccess, (f.stream_destroy)(s));
        check!(f, cudaSuccess, (f.device_synchronize)());
    }
}

// ------------------------------------------------------------------------------------------------ events

/// Every event-taking call with garbage event handles → 400; NULL out-pointers, bad flags, bad IPC handles
/// → 1.
#[test]
fn event_calls_with_garbage_handles_bad_flags_and_null_out_pointers() {
    for f in FAMILIES {
        let (m, p) = machine(2);
        let _g = p.bind();
        let s = new_stream(f);
        let good = new_event(f, 0);
        check!(f, cudaSuccess, (f.event_record)(good, s));
        let g = garbage(f, &m, "event");
        let mut ms = 12.5f32;
        let mut h = cudaIpcEventHandle_t { reserved: [0; 64] };
        for (what, bad) in &g.items {
            let bad = *bad;
            // SAFETY (all calls): valid out-pointers; the event handle is the garbage.
            let codes = unsafe {
                [
                    ("EventRecord", (f.event_record)(bad, s)),
                    ("EventRecord NULL stream", (f.event_record)(bad, null_mut())),
                    (
                        "EventRecordWithFlags",
                        (f.event_record_with_flags)(bad, s, 0),
                    ),
                    ("EventQuery", (f.event_query)(bad)),
                    ("EventSynchronize", (f.event_synchronize)(bad)),
                    (
                        "EventElapsedTime start",
                        (f.event_elapsed_time)(&mut ms, bad, good),
                    ),
                    (
                        "EventElapsedTime end",
                        (f.event_elapsed_time)(&mut ms, good, bad),
                    ),
                    ("StreamWaitEvent", (f.stream_wait_event)(s, bad, 0)),
                    (
                        "StreamWaitEvent NULL stream",
                        (f.stream_wait_event)(null_mut(), bad, 0),
                    ),
                    ("IpcGetEventHandle", (f.ipc_get_event_handle)(&mut h, bad)),
                    ("EventDestroy", (f.event_destroy)(bad)),
                ]
            };
            for (call, got) in codes {
                assert_eq!(
                    got,
                    cudaErrorInvalidResourceHandle,
                    "{}{call} with a {what} event returned {got} ({})",
                    f.name,
                    f.err_name(got)
                );
            }
        }
        assert_eq!(ms, 12.5, "nothing written");
        assert_eq!(h.reserved, [0; 64]);
        // NULL out-pointers and bad flags.
        check!(f, cudaErrorInvalidValue, (f.event_create)(null_mut()));
        let mut e = null_mut();
        for flags in [0x4, 0x5, 0x8, 0x10, 0xff, 0x8000_0000, u32::MAX] {
            check!(
                f,
                cudaErrorInvalidValue,
                (f.event_create_with_flags)(&mut e, flags)
            );
            check!(
                f,
                cudaErrorInvalidValue,
                (f.event_create_with_flags)(null_mut(), flags)
            );
        }
        assert!(e.is_null());
        check!(
            f,
            cudaErrorInvalidValue,
            (f.event_create_with_flags)(null_mut(), 0)
        );
        for flags in [1, 2, 0xff, u32::MAX] {
            check!(
                f,
                cudaErrorInvalidValue,
                (f.event_record_with_flags)(good, s, flags)
            );
        }
        check!(
            f,
            cudaErrorInvalidValue,
            (f.event_elapsed_time)(null_mut(), good, good)
        );
        check!(
            f,
            cudaErrorInvalidValue,
            (f.event_elapsed_time)(null_mut(), 0xdead_beef_usize as H, null_mut())
        );
        let ipc = new_event(f, cudaEventInterprocess | cudaEventDisableTiming);
        check!(
            f,
            cudaErrorInvalidValue,
            (f.ipc_get_event_handle)(null_mut(), ipc)
        );
        check!(
            f,
            cudaErrorInvalidResourceHandle,
            (f.ipc_get_event_handle)(&mut h, good)
        );
        check!(f, cudaSuccess, (f.ipc_get_event_handle)(&mut h, ipc));
        let exported = h;
        // IPC handles: zeroed, flipped bits, random bytes, NULL out-pointer; opened by another process.
        let q = m.process();
        on(&q, || {
            let mut opened = null_mut();
            check!(
                f,
                cudaErrorInvalidValue,
                (f.ipc_open_event_handle)(null_mut(), exported)
            );
            let zero = cudaIpcEventHandle_t { reserved: [0; 64] };
            check!(
                f,
                cudaErrorInvalidValue,
                (f.ipc_open_event_handle)(&mut opened, zero)
            );
            for i in [0, 8, 12, 16, 23, 24, 63] {
                let mut flipped = exported;
                flipped.reserved[i] ^= 0x40;
                check!(
                    f,
                    cudaErrorInvalidValue,
                    (f.ipc_open_event_handle)(&mut opened, flipped)
                );
            }
            let mut noise = zero;
            for (i, b) in noise.reserved.iter_mut().enumerate() {
                *b = (i as u8).wrapping_mul(151).wrapping_add(7) as c_char;
            }
            check!(
                f,
                cudaErrorInvalidValue,
                (f.ipc_open_event_handle)(&mut opened, noise)
            );
            assert!(opened.is_null());
            check!(
                f,
                cudaSuccess,
                (f.ipc_open_event_handle)(&mut opened, exported)
            );
            check!(f, cudaSuccess, (f.event_destroy)(opened));
            check!(f, cudaErrorInvalidResourceHandle, (f.event_destroy)(opened));
        });
        // After all that, the process works.
        check!(f, cudaSuccess, (f.event_synchronize)(good));
        check!(f, cudaSuccess, (f.event_elapsed_time)(&mut ms, good, good));
        assert_eq!(ms, 0.0);
    }
}

// ------------------------------------------------------------------------------------------------ memory

/// Allocation and free calls with NULL out-pointers, huge sizes and bad pointers.
#[test]
fn allocation_calls_with_bad_sizes_and_pointers() {
    for f in FAMILIES {
        let (m, p) = machine(2);
        let _g = p.bind();
        let mut out = null_mut();
        check!(f, cudaErrorInvalidValue, (f.malloc)(null_mut(), 16));
        check!(f, cudaErrorInvalidValue, (f.malloc_host)(null_mut(), 16));
        for huge in [1_usize << 62, usize::MAX, (16 << 30) + 1] {
            check!(f, cudaErrorMemoryAllocation, (f.malloc)(&mut out, huge));
            assert!(out.is_null());
        }
        check!(f, cudaSuccess, (f.malloc)(&mut out, 0));
        assert!(out.is_null(), "a 0-byte allocation is NULL");
        let d = dmalloc(f, 256);
        let host = pinned(f, 64);
        let theirs = on(&m.process(), || dmalloc(f, 64));
        let their_pinned = on(&m.process(), || pinned(f, 64));
        let freed = dmalloc(f, 64);
        check!(f, cudaSuccess, (f.free)(freed));
        let freed_pinned = pinned(f, 64);
        check!(f, cudaSuccess, (f.free_host)(freed_pinned));
        for (what, bad) in [
            ("0xdeadbeef", 0xdead_beef_usize as H),
            ("unallocated", unallocated()),
            ("no such device", no_such_device()),
            ("interior", d.wrapping_byte_add(16)),
            ("freed", freed),
            ("pinned host", host),
            ("another process's", theirs),
            ("all ones", usize::MAX as H),
        ] {
            // SAFETY: the pointer is only looked up.
            let got = unsafe { (f.free)(bad) };
            assert_eq!(got, cudaErrorInvalidValue, "{}Free({what}): {got}", f.name);
        }
        for (what, bad) in [
            ("0xdeadbeef", 0xdead_beef_usize as H),
            ("device", d),
            ("interior", host.wrapping_byte_add(1)),
            ("freed", freed_pinned),
            ("another process's", their_pinned),
        ] {
            // SAFETY: the pointer is only looked up.
            let got = unsafe { (f.free_host)(bad) };
            assert_eq!(
                got, cudaErrorInvalidValue,
                "{}FreeHost({what}): {got}",
                f.name
            );
        }
        check!(f, cudaSuccess, (f.free)(null_mut()));
        check!(f, cudaSuccess, (f.free_host)(null_mut()));
        check!(f, cudaSuccess, (f.free)(d));
        check!(f, cudaSuccess, (f.free_host)(host));
        check!(f, cudaErrorInvalidValue, (f.free)(d));
        check!(f, cudaErrorInvalidValue, (f.free_host)(host));
        check!(f, cudaSuccess, (f.device_synchronize)());
    }
}

/// Copies and memsets with NULL, unknown, freed, foreign and out-of-range device pointers, wrong kinds and
/// unknown kinds (21 InvalidMemcpyDirection).
#[test]
fn copies_with_bad_pointers_and_kinds() {
    for f in FAMILIES {
        let (m, p) = machine(2);
        let _g = p.bind();
        let s = new_stream(f);
        let d = dmalloc(f, 256);
        let d2 = dmalloc(f, 256);
        let pin = pinned(f, 256);
        let pin2 = pinned(f, 256);
        let mut page = [0u8; 256];
        let pg = page.as_mut_ptr().cast::<c_void>();
        let freed = dmalloc(f, 256);
        check!(f, cudaSuccess, (f.free)(freed));
        let theirs = on(&m.process(), || dmalloc(f, 256));
        check!(f, cudaSuccess, (f.set_device)(1));
        let d1 = dmalloc(f, 256);
        check!(f, cudaSuccess, (f.set_device)(0));
        let (h2d, d2h, d2d, h2h, dflt) = (
            cudaMemcpyHostToDevice,
            cudaMemcpyDeviceToHost,
            cudaMemcpyDeviceToDevice,
            cudaMemcpyHostToHost,
            cudaMemcpyDefault,
        );
        // (what, dst, src, count, kind, expected)
        let cases: Vec<(&str, H, H, usize, c_uint, Err)> = vec![
            ("NULL dst", null_mut(), pin, 16, h2d, 1),
            ("NULL src", d, null_mut(), 16, h2d, 1),
            ("NULL both, default", null_mut(), null_mut(), 16, dflt, 1),
            ("NULL both, count 0", null_mut(), null_mut(), 0, h2d, 0),
            ("kind 99", d, pin, 16, 99, 21),
            ("kind 5", d, pin, 16, 5, 21),
            ("kind u32::MAX", d, pin, 16, u32::MAX, 21),
            ("H2D with device src", d, d2, 16, h2d, 1),
            ("H2D with host dst", pin2, pin, 16, h2d, 1),
            ("D2H with host src", pg, pin, 16, d2h, 1),
            ("D2H with device dst", d2, d, 16, d2h, 1),
            ("D2D with host src", d, pin, 16, d2d, 1),
            ("D2D with pageable dst", pg, d, 16, d2d, 1),
            ("H2H with device dst", d, pin, 16, h2h, 1),
            ("H2H with device src", pin, d, 16, h2h, 1),
            ("device out of range", d2, d, 257, d2d, 1),
            (
                "device offset out of range",
                d.wrapping_byte_add(200),
                d2,
                100,
                d2d,
                1,
            ),
            ("pinned out of range", d, pin, 257, h2d, 1),
            ("count usize::MAX", d2, d, usize::MAX, d2d, 1),
            ("unallocated src", d, unallocated(), 16, d2d, 1),
            ("unallocated dst", unallocated(), d, 16, dflt, 1),
            ("freed src", d, freed, 16, dflt, 1),
            ("freed dst", freed, pin, 16, h2d, 1),
            ("another process's src", d, theirs, 16, d2d, 1),
            ("another process's dst", theirs, pin, 16, dflt, 1),
            ("no such device, H2D", no_such_device(), pin, 16, h2d, 1),
            ("no such device, D2H", pin, no_such_device(), 16, d2h, 1),
            ("valid default", d, pin, 16, dflt, 0),
            ("valid cross-device", d1, d, 16, dflt, 0),
        ];
        for &(what, dst, src, count, kind, want) in &cases {
            // SAFETY: host pointers are valid 256-byte buffers; the rest is checked by the simulator.
            let (sync, asy) = unsafe {
                (
                    (f.memcpy)(dst, src, count, kind),
                    (f.memcpy_async)(dst, src, count, kind, s),
                )
            };
            assert_eq!(
                (sync, asy),
                (want, want),
                "{}Memcpy / MemcpyAsync ({what}): {sync} ({}) / {asy} ({}), expected {want}",
                f.name,
                f.err_name(sync),
                f.err_name(asy)
            );
        }
        check!(
            f,
            cudaErrorInvalidResourceHandle,
            (f.memcpy_async)(d, pin, 16, h2d, 0xdead_beef_usize as H)
        );
        // Peer copies: bad ids, pointers that are not the named devices' memory, NULL, unknown, too long.
        let peer: Vec<(&str, H, c_int, H, c_int, usize, Err)> = vec![
            ("dst device -1", d1, -1, d, 0, 16, 101),
            ("src device 2", d1, 1, d, 2, 16, 101),
            ("dst device MAX", d1, c_int::MAX, d, 0, 16, 101),
            ("swapped devices", d1, 0, d, 1, 16, 1),
            ("NULL dst", null_mut(), 1, d, 0, 16, 1),
            ("NULL src", d1, 1, null_mut(), 0, 16, 1),
            ("pinned src", d1, 1, pin, 0, 16, 1),
            ("unallocated src", d1, 1, unallocated(), 0, 16, 1),
            ("freed src", d1, 1, freed, 0, 16, 1),
            ("another process's src", d1, 1, theirs, 0, 16, 1),
            ("out of range", d1, 1, d, 0, 257, 1),
            ("count 0", null_mut(), 1, null_mut(), 0, 0, 0),
            ("valid", d1, 1, d, 0, 256, 0),
        ];
        for &(what, dst, dd, src, sd, count, want) in &peer {
            // SAFETY: device-range pointers only.
            let (sync, asy) = unsafe {
                (
                    (f.memcpy_peer)(dst, dd, src, sd, count),
                    (f.memcpy_peer_async)(dst, dd, src, sd, count, s),
                )
            };
            assert_eq!(
                (sync, asy),
                (want, want),
                "{}MemcpyPeer(Async) ({what}): {sync} ({}) / {asy} ({}), expected {want}",
                f.name,
                f.err_name(sync),
                f.err_name(asy)
            );
        }
        // Memset: NULL, host, unknown, freed, foreign, out of range.
        let sets: Vec<(&str, H, usize, Err)> = vec![
            ("NULL", null_mut(), 16, 1),
            ("NULL count 0", null_mut(), 0, 0),
            ("pinned host", pin, 16, 1),
            ("0xdeadbeef", 0xdead_beef_usize as H, 16, 1),
            ("unallocated", unallocated(), 16, 1),
            ("no such device", no_such_device(), 16, 1),
            ("freed", freed, 16, 1),
            ("another process's", theirs, 16, 1),
            ("out of range", d, 257, 1),
            ("count usize::MAX", d, usize::MAX, 1),
            ("valid", d, 256, 0),
        ];
        for &(what, ptr, count, want) in &sets {
            // SAFETY: the pointer is only checked by the simulator.
            let (sync, asy) = unsafe {
                (
                    (f.memset)(ptr, 0x5a, count),
                    (f.memset_async)(ptr, -1, count, s),
                )
            };
            assert_eq!(
                (sync, asy),
                (want, want),
                "{}Memset(Async) ({what}): {sync} / {asy}, expected {want}",
                f.name
            );
        }
        check!(
            f,
            cudaErrorInvalidResourceHandle,
            (f.memset_async)(d, 0, 16, usize::MAX as H)
        );
        check!(f, cudaSuccess, (f.stream_synchronize)(s));
        check!(f, cudaSuccess, (f.device_synchronize)());
        std::hint::black_box(&page); // the pageable buffer outlived every copy that named it
    }
}

// ------------------------------------------------------------------------------------------------ kernels

/// Kernel launches with bad streams, NULL names / bodies, extreme durations and bad declared accesses.
#[test]
fn kernel_launches_with_bad_arguments() {
    for f in FAMILIES {
        let (m, p) = machine(1);
        let _g = p.bind();
        let s = new_stream(f);
        let d = dmalloc(f, 256);
        let freed = dmalloc(f, 64);
        check!(f, cudaSuccess, (f.free)(freed));
        let theirs = on(&m.process(), || dmalloc(f, 64));
        let acc = |ptr: H, bytes: usize, write: c_int| streamsimAccess { ptr, bytes, write };
        for (what, a, want) in [
            ("valid read", acc(d, 256, 0), 0),
            ("valid write", acc(d, 256, 1), 0),
            ("write = 2", acc(d, 16, 2), 1),
            ("write = -1", acc(d, 16, -1), 1),
            ("write = MAX", acc(d, 16, c_int::MAX), 1),
            ("NULL ptr", acc(null_mut(), 16, 0), 1),
            ("0xdeadbeef", acc(0xdead_beef_usize as H, 16, 1), 1),
            ("unallocated", acc(unallocated(), 16, 0), 1),
            ("no such device", acc(no_such_device(), 16, 0), 1),
            ("freed", acc(freed, 16, 1), 1),
            ("another process's", acc(theirs, 16, 1), 1),
            ("out of range", acc(d, 257, 0), 1),
            ("bytes usize::MAX", acc(d, usize::MAX, 1), 1),
        ] {
            // SAFETY: one valid access struct; its pointer is only checked by the simulator.
            let got = unsafe {
                (f.launch_kernel_ex)(s, c"k".as_ptr(), 10, Some(nothing), null_mut(), &a, 1)
            };
            assert_eq!(
                got,
                want,
                "{}simLaunchKernelEx ({what}): {got} ({})",
                f.name,
                f.err_name(got)
            );
        }
        // NULL accesses with a count; a dangling pointer with count 0 is never read.
        check!(
            f,
            cudaErrorInvalidValue,
            (f.launch_kernel_ex)(s, null(), 10, None, null_mut(), null(), 3)
        );
        let dangling = NonNull::<streamsimAccess>::dangling().as_ptr();
        check!(
            f,
            cudaSuccess,
            (f.launch_kernel_ex)(s, null(), 10, None, null_mut(), dangling, 0)
        );
        // NULL name, NULL body, zero duration.
        check!(
            f,
            cudaSuccess,
            (f.launch_kernel)(s, null(), 0, None, null_mut())
        );
        check!(
            f,
            cudaSuccess,
            (f.launch_kernel)(null_mut(), null(), 0, None, null_mut())
        );
        // Garbage streams.
        for bad in [0xdead_beef_usize as H, usize::MAX as H, 3_usize as H] {
            check!(
                f,
                cudaErrorInvalidResourceHandle,
                (f.launch_kernel)(bad, null(), 10, Some(nothing), null_mut())
            );
        }
        check!(f, cudaSuccess, (f.stream_synchronize)(s));
        // The longest possible kernel: accepted, forever not ready (virtual time saturates, nothing waits).
        let forever = new_stream(f);
        check!(
            f,
            cudaSuccess,
            (f.launch_kernel)(forever, c"forever".as_ptr(), u64::MAX, None, null_mut())
        );
        check!(f, cudaErrorNotReady, (f.stream_query)(forever));
        check!(f, cudaSuccess, (f.stream_query)(s));
    }
}

// ------------------------------------------------------------------------------------------------ crashes

/// The variable [`run_child`] sets.
const CRASH_VAR: &str = "STREAMSIM_FACADE_TEST_CHILD";

/// The child side of [`device_window_addresses_of_missing_devices_are_not_dereferenced`] and
/// [`huge_pinned_allocations_fail_with_memory_allocation`]: one risky call per scenario, asserting its
/// code. A crash (a dereference of an address the simulator mistook for host memory, an aborting
/// allocation) ends the child with a signal, which the parent reports.
#[test]
#[ignore = "runs in a child process started by the risky-call tests"]
fn risky_call_child() {
    let Ok(scenario) = std::env::var(CRASH_VAR) else {
        return;
    };
    let f = CUDA;
    let (_m, p) = machine(2);
    let _g = p.bind();
    let s = new_stream(f);
    let mut page = [0u8; 64];
    let pg = page.as_mut_ptr().cast::<c_void>();
    let mut out = null_mut();
    match scenario.as_str() {
        "default_src" => check!(
            f,
            1,
            (f.memcpy)(pg, no_such_device(), 16, cudaMemcpyDefault)
        ),
        "default_dst" => check!(
            f,
            1,
            (f.memcpy)(no_such_device(), pg, 16, cudaMemcpyDefault)
        ),
        "h2h_dst" => check!(
            f,
            1,
            (f.memcpy)(no_such_device(), pg, 16, cudaMemcpyHostToHost)
        ),
        "async_default_src" => check!(
            f,
            1,
            (f.memcpy_async)(pg, no_such_device(), 16, cudaMemcpyDefault, s)
        ),
        "malloc_host_huge" => check!(f, 2, (f.malloc_host)(&mut out, 1 << 62)),
        "malloc_host_max" => check!(f, 2, (f.malloc_host)(&mut out, usize::MAX)),
        other => panic!("unknown scenario {other}"),
    }
    std::hint::black_box((&page, out));
}

/// Runs each scenario of [`risky_call_child`] in its own child process; panics listing those that crashed or
/// returned the wrong code.
fn run_risky(scenarios: &[&str]) {
    let mut failures = Vec::new();
    for scenario in scenarios {
        let out = run_child("facade_abuse::risky_call_child", scenario, &[]);
        if !out.status.success() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let why = ["returned", "memory allocation", "panicked"]
                .iter()
                .find_map(|key| stderr.lines().find(|l| l.contains(key)))
                .unwrap_or("")
                .to_string();
            failures.push(format!("{scenario}: {} {why}", describe(&out.status)));
        }
    }
    assert!(failures.is_empty(), "risky calls failed: {failures:#?}");
}

/// Copies naming an address in the device window of a device the machine does not have, with kinds that
/// accept host memory (Default, HostToHost): the simulator must recognise the address as a device address
/// (1 InvalidValue), not dereference it as host memory. Each runs in a child process, so that a crash is a
/// failure rather than the end of the test binary.
#[test]
fn device_window_addresses_of_missing_devices_are_not_dereferenced() {
    run_risky(&["default_src", "default_dst", "h2h_dst", "async_default_src"]);
}

/// Pinned allocations too large to exist: the vendor answers 2 MemoryAllocation; the process must neither
/// abort (a failed host allocation) nor report 999 (a contained panic). In a child process.
#[test]
fn huge_pinned_allocations_fail_with_memory_allocation() {
    run_risky(&["malloc_host_huge", "malloc_host_max"]);
}

fn describe(status: &std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("crashed with signal {sig}");
        }
    }
    format!("{status}")
}
