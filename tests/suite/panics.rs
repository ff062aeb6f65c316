//! A panic inside the simulator (a bug) during a call (issue 27, items 10 and 12): every exported function
//! contains panics, but parking_lot's locks are not poisoned, so the machine may be half-updated. The machine
//! is marked broken: the call that panicked and every later call on it fail with `SimError::Broken` — CUDA/MUSA
//! 999 `cudaErrorUnknown`, ACL 507000 `ACL_ERROR_RT_INTERNAL_ERROR` — whose message names the panic; other
//! machines are not affected. Panics are injected with the hidden hook `Machine::inject_panic`.

use std::ffi::{CStr, c_void};
use std::ptr::null_mut;

use streamsim::capi::{STREAMSIM_API_ACL, STREAMSIM_API_CUDA, streamsimGetLastErrorMessage};
use streamsim::{Dialect, EventFlags, Kernel, Machine, SimError, Stream, StreamFlags};

fn last_message(api: streamsim::capi::streamsimApi) -> String {
    let m = streamsimGetLastErrorMessage(api);
    assert!(!m.is_null(), "no last error message");
    // SAFETY: a NUL-terminated string the library keeps until the next call.
    unsafe { CStr::from_ptr(m) }.to_string_lossy().into_owned()
}

/// The core: the launch that panics is `Broken` naming the panic, as is every later call, of any thread and
/// process of the machine; another machine works.
#[test]
fn a_panic_inside_a_call_breaks_the_machine() {
    let m = Machine::builder().build().unwrap();
    let p = m.process();
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
    m.inject_panic("launch");
    let broken = |r: Result<(), SimError>| match r {
        Err(SimError::Broken { message, .. }) => message,
        other => panic!("expected Broken, got {other:?}"),
    };
    let message = broken(p.launch(s, Kernel::new("k")));
    assert_eq!(message, "launch: injected panic in launch");
    assert!(m.is_broken());
    assert!(broken(p.stream_synchronize(s)).contains("injected panic in launch"));
    broken(p.create_event(EventFlags::DEFAULT).map(drop));
    let q = m.process();
    broken(q.launch(Stream::DEFAULT, Kernel::new("k")));
    let p2 = p.clone();
    let other_thread = std::thread::spawn(move || p2.device_synchronize())
        .join()
        .unwrap();
    broken(other_thread);
    let err = p.stream_synchronize(s).unwrap_err().to_string();
    assert!(
        err.contains("this machine is broken: an earlier call panicked inside the simulator (launch: injected panic in launch)"),
        "{err}"
    );
    // Another machine is not affected.
    let (m2, p2) = crate::common::cuda1();
    p2.launch(Stream::DEFAULT, Kernel::new("k")).unwrap();
    p2.device_synchronize().unwrap();
    assert!(!m2.is_broken());
}

type CudaCall = fn() -> streamsim::cuda::cudaError_t;

/// Exported CUDA functions, each called with a panic injected into its body: 999 `cudaErrorUnknown`, and
/// every later call (a stream creation) 999 too, the message naming the panic.
#[test]
fn every_cuda_call_with_a_panicking_body_answers_999_and_breaks_the_machine() {
    use streamsim::cuda::*;
    static mut BUF: [u8; 64] = [0; 64];
    let calls: &[(&str, CudaCall)] = &[
        ("cudaStreamCreate", || {
            let mut s = null_mut();
            // SAFETY: a valid out-pointer.
            unsafe { cudaStreamCreate(&mut s) }
        }),
        ("cudaEventCreate", || {
            let mut e = null_mut();
            // SAFETY: a valid out-pointer.
            unsafe { cudaEventCreate(&mut e) }
        }),
        ("cudaMalloc", || {
            let mut d = null_mut();
            // SAFETY: a valid out-pointer.
            unsafe { cudaMalloc(&mut d, 64) }
        }),
        ("cudaMemcpy", || {
            // SAFETY: 64 bytes of host memory each side (a pageable host-to-host copy).
            unsafe {
                let p = (&raw mut BUF).cast::<c_void>();
                cudaMemcpy(p, p.cast_const(), 64, cudaMemcpyHostToHost)
            }
        }),
        ("cudasimLaunchKernel", || {
            // SAFETY: a static name, no body.
            unsafe { cudasimLaunchKernel(null_mut(), c"k".as_ptr(), 1_000, None, null_mut()) }
        }),
        ("cudaStreamSynchronize", || {
            // SAFETY: the legacy stream / a device number.
            unsafe { cudaStreamSynchronize(null_mut()) }
        }),
        ("cudaStreamQuery", || {
            // SAFETY: the legacy stream / a device number.
            unsafe { cudaStreamQuery(null_mut()) }
        }),
        ("cudaDeviceSynchronize", || {
            // SAFETY: no arguments.
            unsafe { cudaDeviceSynchronize() }
        }),
        ("cudaSetDevice", || {
            // SAFETY: the legacy stream / a device number.
            unsafe { cudaSetDevice(0) }
        }),
        ("cudaDeviceReset", || {
            // SAFETY: no arguments.
            unsafe { cudaDeviceReset() }
        }),
    ];
    for (name, call) in calls {
        let m = Machine::builder().build().unwrap();
        let p = m.process();
        let _g = p.bind();
        m.inject_panic("*");
        assert_eq!(call(), cudaErrorUnknown, "{name}");
        assert!(m.is_broken(), "{name}: the machine is marked broken");
        let mut s = null_mut();
        // SAFETY: a valid out-pointer.
        assert_eq!(
            unsafe { cudaStreamCreate(&mut s) },
            cudaErrorUnknown,
            "{name}"
        );
        let msg = last_message(STREAMSIM_API_CUDA);
        assert!(
            msg.contains("panicked inside the simulator"),
            "{name}: {msg}"
        );
        assert!(msg.contains("injected panic in"), "{name}: {msg}");
    }
}

type AclCall = fn() -> streamsim::acl::aclError;

/// Exported ACL functions, each called with a panic injected into its body: 507000
/// `ACL_ERROR_RT_INTERNAL_ERROR`, and every later call too, `aclGetRecentErrMsg` naming the panic.
#[test]
fn every_acl_call_with_a_panicking_body_answers_507000_and_breaks_the_machine() {
    use streamsim::acl::*;
    let calls: &[(&str, AclCall)] = &[
        ("aclrtCreateStream", || {
            let mut s = null_mut();
            // SAFETY: a valid out-pointer.
            unsafe { aclrtCreateStream(&mut s) }
        }),
        ("aclrtCreateEvent", || {
            let mut e = null_mut();
            // SAFETY: a valid out-pointer.
            unsafe { aclrtCreateEvent(&mut e) }
        }),
        ("aclrtMalloc", || {
            let mut d = null_mut();
            // SAFETY: a valid out-pointer.
            unsafe { aclrtMalloc(&mut d, 64, ACL_MEM_MALLOC_HUGE_FIRST) }
        }),
        ("aclsimLaunchKernel", || {
            // SAFETY: a static name, no body.
            unsafe { aclsimLaunchKernel(null_mut(), c"k".as_ptr(), 1_000, None, null_mut()) }
        }),
        ("aclrtSynchronizeStream", || {
            aclrtSynchronizeStream(null_mut())
        }),
        ("aclrtSynchronizeDevice", || aclrtSynchronizeDevice()),
        ("aclrtResetDevice", || aclrtResetDevice(0)),
    ];
    for (name, call) in calls {
        let m = Machine::builder().dialect(Dialect::Acl).build().unwrap();
        let p = m.process();
        let _g = p.bind();
        assert_eq!(aclrtSetDevice(0), ACL_SUCCESS);
        m.inject_panic("*");
        assert_eq!(call(), ACL_ERROR_RT_INTERNAL_ERROR, "{name}");
        assert!(m.is_broken(), "{name}: the machine is marked broken");
        assert_eq!(aclrtSetDevice(0), ACL_ERROR_RT_INTERNAL_ERROR, "{name}");
        let msg = last_message(STREAMSIM_API_ACL);
        assert!(
            msg.contains("panicked inside the simulator"),
            "{name}: {msg}"
        );
        assert!(msg.contains("injected panic in"), "{name}: {msg}");
    }
}
