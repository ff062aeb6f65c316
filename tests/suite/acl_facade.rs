//! Truth-table tests: `shared/reference/acl.md`, every row, through the `aclrt*` functions of
//! `streamsim::acl`; then seed 001's samples and seed 004's scenarios ported line by line; then every function
//! with NULL and garbage arguments.
//!
//! Every test runs on a fresh host thread bound to a process of an ACL machine (`on_acl`), under a watchdog,
//! so its virtual clock starts at 0: every call first advances it by 1 µs and acts at that `now`; an
//! operation starts at max(stream cursor, now + 2 µs, what it waits for) and ends start + cost (records cost
//! 0; a kernel its duration). Codes are asserted as numbers through the facade's constants; status values are
//! asserted with their numbers too, because ACL's status enums number COMPLETE / NOT_READY oppositely.
//!
//! Not checked here (no way through the C API): a kernel *fault* — the C kernel stand-in's body is a
//! `void (*)(void *)` that cannot fail (a panic in an `extern "C"` function aborts), so the 507015 row uses
//! a core kernel with a failing body on a stream created through the facade.

use std::ffi::{CStr, c_char, c_void};
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering::SeqCst};

use streamsim::acl::*;
use streamsim::memory::DEVICE_ADDRESS_BASE;
use streamsim::{Dialect, Kernel, KernelError, Machine, Process, Stream};

use crate::common::with_watchdog;

type Ptr = *mut c_void;
const NULL: Ptr = std::ptr::null_mut();
/// A forged handle / pointer.
const GARBAGE: Ptr = 0xdead_beef as Ptr;

fn acl_machine(devices: u32) -> Machine {
    Machine::builder()
        .devices(devices)
        .dialect(Dialect::Acl)
        .build()
        .expect("machine")
}

/// Runs `f` on a fresh thread bound to a process of `m`, under a watchdog.
fn on_machine<T: Send + 'static>(m: &Machine, f: impl FnOnce(&Process) -> T + Send + 'static) -> T {
    let p = m.process();
    with_watchdog(30, move || {
        let _bound = p.bind();
        f(&p)
    })
}

/// Runs `f` on a fresh thread bound to a process of a new ACL machine with `devices` devices.
fn on_acl(devices: u32, f: impl FnOnce(&Process) + Send + 'static) {
    on_machine(&acl_machine(devices), f)
}

/// The calling thread's last error message (`aclGetRecentErrMsg`).
fn last_msg() -> String {
    let m = aclGetRecentErrMsg();
    if m.is_null() {
        return "(no message)".into();
    }
    // SAFETY: a NUL-terminated string valid until the next call on this thread.
    unsafe { CStr::from_ptr(m) }.to_string_lossy().into_owned()
}

#[track_caller]
fn ok(r: aclError) {
    assert_eq!(
        r,
        ACL_SUCCESS,
        "expected ACL_SUCCESS; last error: {}",
        last_msg()
    );
}

fn new_stream() -> Ptr {
    let mut s = NULL;
    // SAFETY: a valid out-pointer.
    ok(unsafe { aclrtCreateStream(&mut s) });
    assert!(!s.is_null());
    s
}

fn new_event() -> Ptr {
    let mut e = NULL;
    // SAFETY: a valid out-pointer.
    ok(unsafe { aclrtCreateEvent(&mut e) });
    e
}

fn event_with_flag(flag: u32) -> Ptr {
    let mut e = NULL;
    // SAFETY: a valid out-pointer.
    ok(unsafe { aclrtCreateEventWithFlag(&mut e, flag) });
    e
}

fn event_ex(flag: u32) -> Ptr {
    let mut e = NULL;
    // SAFETY: a valid out-pointer.
    ok(unsafe { aclrtCreateEventExWithFlag(&mut e, flag) });
    e
}

fn current_context() -> Ptr {
    let mut c = NULL;
    // SAFETY: a valid out-pointer.
    ok(unsafe { aclrtGetCurrentContext(&mut c) });
    c
}

/// `myKernel<<<…, s>>>` taking `micros` of virtual time.
fn kernel(s: Ptr, micros: u64) -> aclError {
    // SAFETY: a static name, no body.
    unsafe { aclsimLaunchKernel(s, c"myKernel".as_ptr(), micros * 1_000, None, NULL) }
}

/// A kernel whose body is `f(arg)`.
fn kernel_with(s: Ptr, micros: u64, f: unsafe extern "C" fn(*mut c_void), arg: Ptr) -> aclError {
    // SAFETY: `f` may be called with `arg` from another thread (the probes are 'static).
    unsafe { aclsimLaunchKernel(s, c"body".as_ptr(), micros * 1_000, Some(f), arg) }
}

fn recorded_status(e: Ptr) -> aclrtEventRecordedStatus {
    let mut st = 0xAAAA;
    // SAFETY: a valid out-pointer.
    ok(unsafe { aclrtQueryEventStatus(e, &mut st) });
    st
}

fn event_status(e: Ptr) -> aclrtEventStatus {
    let mut st = 0xAAAA;
    // SAFETY: a valid out-pointer.
    ok(unsafe { aclrtQueryEvent(e, &mut st) });
    st
}

fn stream_status(s: Ptr) -> aclrtStreamStatus {
    let mut st = 0xAAAA;
    // SAFETY: a valid out-pointer.
    ok(unsafe { aclrtStreamQuery(s, &mut st) });
    st
}

fn get_device() -> Result<i32, aclError> {
    let mut d = -1;
    // SAFETY: a valid out-pointer.
    match unsafe { aclrtGetDevice(&mut d) } {
        ACL_SUCCESS => Ok(d),
        c => Err(c),
    }
}

fn elapsed(a: Ptr, b: Ptr) -> Result<f32, aclError> {
    let mut ms = f32::NAN;
    // SAFETY: a valid out-pointer.
    match unsafe { aclrtEventElapsedTime(&mut ms, a, b) } {
        ACL_SUCCESS => Ok(ms),
        c => Err(c),
    }
}

fn timestamp(e: Ptr) -> Result<u64, aclError> {
    let mut us = u64::MAX;
    // SAFETY: a valid out-pointer.
    match unsafe { aclrtEventGetTimestamp(e, &mut us) } {
        ACL_SUCCESS => Ok(us),
        c => Err(c),
    }
}

fn malloc(size: usize) -> Ptr {
    let mut d = NULL;
    // SAFETY: a valid out-pointer.
    ok(unsafe { aclrtMalloc(&mut d, size, ACL_MEM_MALLOC_HUGE_FIRST) });
    d
}

fn malloc_host(size: usize) -> Ptr {
    let mut h = NULL;
    // SAFETY: a valid out-pointer.
    ok(unsafe { aclrtMallocHost(&mut h, size) });
    h
}

/// Host time of the calling thread in microseconds.
fn now_us(p: &Process) -> u64 {
    p.now().as_nanos() / 1_000
}

/// Counters that kernel bodies and host functions touch (leaked: they outlive the work that uses them).
#[derive(Default)]
struct Probe {
    count: AtomicUsize,
    seen: AtomicUsize,
    code: AtomicI32,
}

fn probe() -> &'static Probe {
    Box::leak(Box::default())
}

fn arg(p: &'static Probe) -> Ptr {
    p as *const Probe as Ptr
}

/// Increments `count`.
unsafe extern "C" fn bump(arg: *mut c_void) {
    // SAFETY: `arg` is a leaked Probe.
    let p = unsafe { &*(arg as *const Probe) };
    p.count.fetch_add(1, SeqCst);
}

/// Stores `count` into `seen` (what had run before this body).
unsafe extern "C" fn snapshot(arg: *mut c_void) {
    // SAFETY: `arg` is a leaked Probe.
    let p = unsafe { &*(arg as *const Probe) };
    p.seen.store(p.count.load(SeqCst), SeqCst);
}

/// A runtime call from inside a host function: stores its code.
unsafe extern "C" fn synchronize_inside(arg: *mut c_void) {
    // SAFETY: `arg` is a leaked Probe.
    let p = unsafe { &*(arg as *const Probe) };
    p.code.store(aclrtSynchronizeDevice(), SeqCst);
}

unsafe extern "C" fn noop(_: *mut c_void) {}

// =============================================================================== Devices and contexts

/// acl.md · Devices and contexts · SetDevice · valid id → 0; for the calling thread only; creates (or shares)
/// the device's default context and default stream; per-process reference count +1
#[test]
fn set_device_is_per_thread_creates_the_default_context_and_counts() {
    on_acl(2, |p| {
        ok(aclrtSetDevice(1));
        assert_eq!(get_device(), Ok(1));
        let ctx = current_context();
        assert!(!ctx.is_null());
        // The default stream (NULL) exists.
        ok(kernel(NULL, 10));
        // Another thread of the same process has no device.
        let q = p.clone();
        let other = std::thread::spawn(move || {
            let _b = q.bind();
            let before = get_device();
            ok(aclrtSetDevice(1)); // shares the default context: count 2
            (before, current_context() as usize)
        })
        .join()
        .unwrap();
        assert_eq!(other, (Err(ACL_ERROR_RT_CONTEXT_NULL), ctx as usize));
        assert_eq!(get_device(), Ok(1), "the other thread did not change ours");
        // Two references: the first reset only counts down.
        ok(aclrtResetDevice(1));
        assert_eq!(get_device(), Ok(1));
        ok(aclrtSynchronizeDevice());
        ok(aclrtResetDevice(1));
        assert_eq!(get_device(), Err(ACL_ERROR_RT_CONTEXT_NULL));
    });
}

/// acl.md · Devices and contexts · SetDevice · id outside [0, count) → 107001
#[test]
fn set_device_out_of_range() {
    on_acl(2, |_| {
        for id in [2, 3, -1, i32::MAX, i32::MIN] {
            assert_eq!(aclrtSetDevice(id), 107001, "device {id}");
        }
        assert_eq!(ACL_ERROR_RT_INVALID_DEVICEID, 107001);
    });
}

/// acl.md · Devices and contexts · GetDevice · no device set on this thread → 107002
#[test]
fn get_device_without_a_device() {
    on_acl(1, |_| {
        assert_eq!(get_device(), Err(107002));
        assert_eq!(ACL_ERROR_RT_CONTEXT_NULL, 107002);
    });
}

/// acl.md · Devices and contexts · ResetDevice · count > 0 → count −1; at 0 frees the default context, its
/// default stream and every stream created in it, after waiting for their pending tasks
#[test]
fn reset_device_counts_down_then_frees_after_pending_work() {
    on_acl(1, |p| {
        ok(aclrtSetDevice(0));
        ok(aclrtSetDevice(0)); // count 2
        let ctx = current_context();
        let s = new_stream();
        let pr = probe();
        ok(kernel_with(s, 1_000, bump, arg(pr)));
        ok(kernel(NULL, 500));
        ok(aclrtResetDevice(0)); // count 1: nothing freed
        assert_eq!(stream_status(s), ACL_STREAM_STATUS_NOT_READY);
        ok(aclrtResetDevice(0)); // count 0: waits for the kernel, then frees
        assert_eq!(pr.count.load(SeqCst), 1, "pending work ran before the free");
        assert!(now_us(p) >= 1_000, "the reset waited for the 1 ms kernel");
        assert_eq!(
            get_device(),
            Err(107002),
            "the thread's default context is gone"
        );
        ok(aclrtSetDevice(0)); // a new default context
        assert_ne!(current_context(), ctx);
        assert_eq!(
            aclrtSynchronizeStream(s),
            107017,
            "streams of the old context are freed"
        );
        assert_eq!(aclrtDestroyStream(s), 107017);
        assert_eq!(
            aclrtSetCurrentContext(ctx),
            107017,
            "the old default context is freed"
        );
        ok(aclrtResetDevice(0));
    });
}

/// acl.md · Devices and contexts · ResetDeviceForce · any count → frees the device in one call, after pending
/// tasks finish
#[test]
fn reset_device_force_frees_at_once() {
    on_acl(1, |p| {
        for _ in 0..3 {
            ok(aclrtSetDevice(0));
        }
        let s = new_stream();
        let pr = probe();
        ok(kernel_with(s, 2_000, bump, arg(pr)));
        ok(aclrtResetDeviceForce(0));
        assert_eq!(pr.count.load(SeqCst), 1);
        assert!(now_us(p) >= 2_000);
        assert_eq!(aclrtSynchronizeStream(s), 107017);
        assert_eq!(get_device(), Err(107002));
        assert_eq!(aclrtResetDevice(0), 507007, "count 3 was dropped at once");
    });
}

/// acl.md · Devices and contexts · Reset / ResetForce · device not set, or already freed → 507007
#[test]
fn reset_of_a_device_not_set_or_freed() {
    on_acl(2, |_| {
        assert_eq!(aclrtResetDevice(0), 507007);
        assert_eq!(aclrtResetDeviceForce(1), 507007);
        ok(aclrtSetDevice(0));
        ok(aclrtResetDevice(0));
        assert_eq!(aclrtResetDevice(0), 507007);
        assert_eq!(aclrtResetDeviceForce(0), 507007);
        assert_eq!(aclrtResetDevice(7), 107001, "a bad id is still 107001");
        assert_eq!(ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, 507007);
    });
}

/// acl.md · Devices and contexts · CreateContext · — → the new context becomes the calling thread's current
/// context; it has its own default stream
#[test]
fn create_context_becomes_current_with_its_own_default_stream() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let c0 = current_context();
        let mut c1 = NULL;
        // SAFETY: a valid out-pointer.
        ok(unsafe { aclrtCreateContext(&mut c1, 0) });
        assert!(!c1.is_null());
        assert_ne!(c1, c0);
        assert_eq!(current_context(), c1);
        ok(kernel(NULL, 1_000)); // on c1's default stream
        assert_eq!(stream_status(NULL), ACL_STREAM_STATUS_NOT_READY);
        ok(aclrtSetCurrentContext(c0));
        assert_eq!(
            stream_status(NULL),
            ACL_STREAM_STATUS_COMPLETE,
            "c0's default stream is idle"
        );
        ok(aclrtSetCurrentContext(c1));
        assert_eq!(stream_status(NULL), ACL_STREAM_STATUS_NOT_READY);
        ok(aclrtDestroyContext(c1));
        let mut c = NULL;
        // SAFETY: a valid out-pointer.
        assert_eq!(
            unsafe { aclrtGetCurrentContext(&mut c) },
            107002,
            "the current context was destroyed"
        );
        assert_eq!(aclrtSetCurrentContext(c1), 107017);
    });
}

/// acl.md · Devices and contexts · DestroyContext · the default context → 107002
#[test]
fn destroy_default_context() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let c0 = current_context();
        assert_eq!(aclrtDestroyContext(c0), 107002);
        assert_eq!(current_context(), c0, "still usable");
    });
}

/// acl.md · Devices and contexts · SetCurrentContext · context of another device → the current device
/// switches with it
#[test]
fn set_current_context_switches_the_device() {
    on_acl(2, |_| {
        ok(aclrtSetDevice(0));
        let c0 = current_context();
        let mut c1 = NULL;
        // SAFETY: a valid out-pointer.
        ok(unsafe { aclrtCreateContext(&mut c1, 1) });
        assert_eq!(get_device(), Ok(1));
        ok(aclrtSetCurrentContext(c0));
        assert_eq!(get_device(), Ok(0));
        ok(aclrtSetCurrentContext(c1));
        assert_eq!(get_device(), Ok(1));
        let s = new_stream();
        ok(aclrtSetCurrentContext(c0));
        assert_eq!(kernel(s, 1), 107003, "the stream belongs to c1 (device 1)");
    });
}

/// acl.md · Devices and contexts · any call needing a context · no current context → 107002
#[test]
fn calls_needing_a_context_without_one() {
    on_acl(2, |_| {
        let mut x = NULL;
        let mut st = 0;
        let mut h = [0u8; 4];
        let src = [1u8; 4];
        // SAFETY: valid out-pointers and host buffers of 4 bytes.
        unsafe {
            assert_eq!(aclrtCreateStream(&mut x), 107002);
            assert_eq!(aclrtCreateStreamWithConfig(&mut x, 0, 0), 107002);
            assert_eq!(aclrtCreateEvent(&mut x), 107002);
            assert_eq!(aclrtCreateEventWithFlag(&mut x, ACL_EVENT_SYNC), 107002);
            assert_eq!(aclrtCreateEventExWithFlag(&mut x, ACL_EVENT_SYNC), 107002);
            assert_eq!(aclrtMalloc(&mut x, 64, ACL_MEM_MALLOC_HUGE_FIRST), 107002);
            assert_eq!(aclrtGetCurrentContext(&mut x), 107002);
            assert_eq!(aclrtStreamQuery(NULL, &mut st), 107002);
            assert_eq!(
                aclrtMemcpy(
                    h.as_mut_ptr().cast(),
                    4,
                    src.as_ptr().cast(),
                    4,
                    ACL_MEMCPY_HOST_TO_HOST
                ),
                107002
            );
            assert_eq!(aclrtLaunchHostFunc(NULL, Some(noop), NULL), 107002);
        }
        assert_eq!(aclrtSynchronizeDevice(), 107002);
        assert_eq!(aclrtSynchronizeStream(NULL), 107002);
        assert_eq!(kernel(NULL, 1), 107002);
        assert_eq!(aclrtDeviceEnablePeerAccess(1, 0), 107002);
        assert_eq!(aclrtDeviceDisablePeerAccess(1), 107002);
    });
}

/// acl.md · Devices and contexts · NULL stream argument · — → the current context's default stream
#[test]
fn null_stream_is_the_context_default_stream() {
    on_acl(1, |p| {
        ok(aclrtSetDevice(0)); // t1
        let e = new_event(); // t2
        ok(kernel(NULL, 300)); // t3: 5..305 µs
        ok(aclrtRecordEvent(e, NULL)); // t4: at 305
        assert_eq!(stream_status(NULL), ACL_STREAM_STATUS_NOT_READY);
        assert_eq!(recorded_status(e), ACL_EVENT_RECORDED_STATUS_NOT_READY);
        let mut d = NULL;
        // SAFETY: a valid out-pointer; the host buffer has 8 bytes.
        unsafe {
            ok(aclrtMalloc(&mut d, 8, ACL_MEM_MALLOC_HUGE_FIRST));
            let data = [7u8; 8];
            ok(aclrtMemcpyAsync(
                d,
                8,
                data.as_ptr().cast(),
                8,
                ACL_MEMCPY_HOST_TO_DEVICE,
                NULL,
            ));
        }
        ok(aclrtSynchronizeStream(NULL));
        assert!(now_us(p) >= 305);
        assert_eq!(stream_status(NULL), ACL_STREAM_STATUS_COMPLETE);
        assert_eq!(timestamp(e), Ok(305));
    });
}

// =============================================================================== Ownership

/// Every stream call with an ownership check on `s` (not of the current context): 107003.
fn owned_calls_fail(s: Ptr, e: Ptr, d: Ptr) {
    let data = [0u8; 16];
    // SAFETY: `d` is 16 bytes of device memory, `data` 16 host bytes, `noop` a valid host function.
    unsafe {
        assert_eq!(kernel(s, 1), 107003, "launch");
        assert_eq!(
            aclrtMemcpyAsync(
                d,
                16,
                data.as_ptr().cast(),
                16,
                ACL_MEMCPY_HOST_TO_DEVICE,
                s
            ),
            107003,
            "MemcpyAsync"
        );
        assert_eq!(aclrtMemsetAsync(d, 16, 0, 16, s), 107003, "MemsetAsync");
        assert_eq!(
            aclrtLaunchHostFunc(s, Some(noop), NULL),
            107003,
            "LaunchHostFunc"
        );
    }
    assert_eq!(aclrtRecordEvent(e, s), 107003, "RecordEvent");
    assert_eq!(aclrtResetEvent(e, s), 107003, "ResetEvent");
    assert_eq!(aclrtStreamWaitEvent(s, e), 107003, "StreamWaitEvent");
    assert_eq!(aclrtDestroyStream(s), 107003, "DestroyStream");
    assert_eq!(aclrtDestroyStreamForce(s), 107003, "DestroyStreamForce");
    assert_eq!(ACL_ERROR_RT_STREAM_CONTEXT, 107003);
}

/// acl.md · Ownership · kernel launch, MemcpyAsync, LaunchHostFunc, RecordEvent, ResetEvent, StreamWaitEvent,
/// DestroyStream · the stream's context is not the current context (another device) → 107003
#[test]
fn owned_calls_on_a_stream_of_another_device() {
    on_acl(2, |_| {
        ok(aclrtSetDevice(0));
        let s0 = new_stream();
        let e0 = event_with_flag(ACL_EVENT_SYNC);
        let d0 = malloc(16);
        ok(aclrtSetDevice(1));
        owned_calls_fail(s0, e0, d0);
        // Back on device 0, all of them work.
        ok(aclrtSetDevice(0));
        ok(kernel(s0, 1));
        ok(aclrtRecordEvent(e0, s0));
        ok(aclrtStreamWaitEvent(s0, e0));
        ok(aclrtResetEvent(e0, s0));
        ok(aclrtDestroyStream(s0));
    });
}

/// acl.md · Ownership · kernel launch, MemcpyAsync, LaunchHostFunc, RecordEvent, ResetEvent, StreamWaitEvent,
/// DestroyStream · the stream's context is not the current context (another context on the same device) →
/// 107003
#[test]
fn owned_calls_on_a_stream_of_another_context_same_device() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let s0 = new_stream(); // default context
        let d0 = malloc(16);
        let mut c1 = NULL;
        // SAFETY: a valid out-pointer.
        ok(unsafe { aclrtCreateContext(&mut c1, 0) });
        let e1 = event_with_flag(ACL_EVENT_SYNC); // c1, device 0
        owned_calls_fail(s0, e1, d0);
    });
}

/// acl.md · Ownership · RecordEvent · event and stream on different devices → docs: fails. sim: 107003
#[test]
fn record_event_of_another_device() {
    on_acl(2, |_| {
        ok(aclrtSetDevice(1));
        let e1 = new_event();
        ok(aclrtSetDevice(0));
        let s0 = new_stream();
        assert_eq!(aclrtRecordEvent(e1, s0), 107003);
        assert_eq!(aclrtRecordEvent(e1, NULL), 107003);
    });
}

/// acl.md · Ownership · StreamWaitEvent · event and stream on different devices → docs: fails. sim: 107003
#[test]
fn stream_wait_event_of_another_device() {
    on_acl(2, |_| {
        ok(aclrtSetDevice(1));
        let e1 = new_event();
        ok(kernel(NULL, 10));
        ok(aclrtRecordEvent(e1, NULL));
        ok(aclrtSetDevice(0));
        let s0 = new_stream();
        assert_eq!(aclrtStreamWaitEvent(s0, e1), 107003);
        assert_eq!(aclrtStreamWaitEvent(NULL, e1), 107003);
    });
}

/// acl.md · Ownership · SynchronizeEvent / QueryEvent / QueryEventStatus · event of another device → work
#[test]
fn event_sync_and_queries_of_another_device_work() {
    on_acl(2, |_| {
        ok(aclrtSetDevice(0));
        let e0 = new_event();
        ok(kernel(NULL, 1_000));
        ok(aclrtRecordEvent(e0, NULL));
        ok(aclrtSetDevice(1));
        assert_eq!(event_status(e0), ACL_EVENT_STATUS_NOT_READY);
        assert_eq!(event_status(e0), 1);
        assert_eq!(recorded_status(e0), ACL_EVENT_RECORDED_STATUS_NOT_READY);
        assert_eq!(recorded_status(e0), 0);
        ok(aclrtSynchronizeEvent(e0));
        assert_eq!(event_status(e0), 0, "ACL_EVENT_STATUS_COMPLETE");
        assert_eq!(recorded_status(e0), 1, "ACL_EVENT_RECORDED_STATUS_COMPLETE");
        assert_eq!(get_device(), Ok(1));
    });
}

/// acl.md · Ownership · SynchronizeStream / StreamQuery · stream of another context or device → work (no
/// ownership check)
#[test]
fn stream_sync_and_query_of_another_context_or_device_work() {
    on_acl(2, |_| {
        ok(aclrtSetDevice(0));
        let s0 = new_stream();
        ok(kernel(s0, 1_000));
        let mut c = NULL;
        // SAFETY: a valid out-pointer.
        ok(unsafe { aclrtCreateContext(&mut c, 0) }); // another context, same device
        assert_eq!(stream_status(s0), ACL_STREAM_STATUS_NOT_READY);
        ok(aclrtSetDevice(1)); // another device
        assert_eq!(stream_status(s0), 1);
        ok(aclrtSynchronizeStream(s0));
        assert_eq!(stream_status(s0), 0);
        ok(aclrtSynchronizeStreamWithTimeout(s0, 5));
    });
}

// =============================================================================== Events

/// acl.md · Events · QueryEvent (deprecated) · never recorded → 0, status COMPLETE (0)
#[test]
fn query_event_never_recorded_is_complete_zero() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        for e in [
            new_event(),
            event_with_flag(ACL_EVENT_SYNC),
            event_with_flag(ACL_EVENT_TIME_LINE),
            event_ex(ACL_EVENT_SYNC),
        ] {
            assert_eq!(event_status(e), ACL_EVENT_STATUS_COMPLETE);
            assert_eq!(event_status(e), 0);
        }
    });
}

/// acl.md · Events · QueryEventStatus · never recorded, CreateEvent / WithFlag event → 0, NOT_READY (0)
#[test]
fn query_event_status_never_recorded_plain_and_with_flag_is_not_ready_zero() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        for e in [
            new_event(),
            event_with_flag(ACL_EVENT_SYNC),
            event_with_flag(ACL_EVENT_TIME_LINE | ACL_EVENT_SYNC),
            event_with_flag(0),
        ] {
            assert_eq!(recorded_status(e), ACL_EVENT_RECORDED_STATUS_NOT_READY);
            assert_eq!(recorded_status(e), 0);
        }
    });
}

/// acl.md · Events · QueryEventStatus · never recorded, ExWithFlag event → 0, COMPLETE (1)
#[test]
fn query_event_status_never_recorded_ex_is_complete_one() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        for f in [
            ACL_EVENT_SYNC,
            ACL_EVENT_TIME_LINE,
            ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE,
        ] {
            let e = event_ex(f);
            assert_eq!(recorded_status(e), ACL_EVENT_RECORDED_STATUS_COMPLETE);
            assert_eq!(recorded_status(e), 1);
        }
    });
}

/// acl.md · Events · QueryEvent / QueryEventStatus · recorded, not finished → 0, NOT_READY
#[test]
fn queries_of_an_unfinished_record() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let s = new_stream();
        let events = [
            new_event(),
            event_with_flag(ACL_EVENT_SYNC),
            event_ex(ACL_EVENT_SYNC),
        ];
        ok(kernel(s, 1_000));
        for e in events {
            ok(aclrtRecordEvent(e, s));
        }
        for e in events {
            assert_eq!(event_status(e), 1, "ACL_EVENT_STATUS_NOT_READY");
            assert_eq!(recorded_status(e), 0, "ACL_EVENT_RECORDED_STATUS_NOT_READY");
        }
        ok(aclrtSynchronizeStream(s));
        for e in events {
            assert_eq!(event_status(e), 0, "ACL_EVENT_STATUS_COMPLETE");
            assert_eq!(recorded_status(e), 1, "ACL_EVENT_RECORDED_STATUS_COMPLETE");
        }
    });
}

/// acl.md · Events · SynchronizeEvent · never recorded → 0 at once
#[test]
fn synchronize_never_recorded_event_returns_at_once() {
    on_acl(1, |p| {
        ok(aclrtSetDevice(0));
        let s = new_stream();
        ok(kernel(s, 5_000)); // work exists, but the event has none
        for e in [new_event(), event_with_flag(ACL_EVENT_SYNC), event_ex(0)] {
            let before = p.now().as_nanos();
            ok(aclrtSynchronizeEvent(e));
            assert_eq!(p.now().as_nanos() - before, 1_000, "only the call overhead");
            ok(aclrtSynchronizeEventWithTimeout(e, 1));
        }
    });
}

/// acl.md · Events · StreamWaitEvent · never recorded, CreateEvent event → 107000
#[test]
fn wait_on_never_recorded_plain_event() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let s = new_stream();
        let e = new_event();
        assert_eq!(aclrtStreamWaitEvent(s, e), 107000);
        assert_eq!(aclrtStreamWaitEvent(NULL, e), ACL_ERROR_RT_PARAM_INVALID);
        ok(aclrtRecordEvent(e, s));
        ok(aclrtStreamWaitEvent(s, e));
    });
}

/// acl.md · Events · StreamWaitEvent · never recorded, ExWithFlag event → 0, nothing waits
#[test]
fn wait_on_never_recorded_ex_event_does_nothing() {
    on_acl(1, |p| {
        ok(aclrtSetDevice(0));
        let (s1, s2) = (new_stream(), new_stream());
        let e = event_ex(ACL_EVENT_SYNC);
        ok(aclrtStreamWaitEvent(s1, e));
        ok(kernel(s1, 10));
        // A later record does not make the earlier wait wait.
        ok(kernel(s2, 1_000));
        ok(aclrtRecordEvent(e, s2));
        ok(aclrtSynchronizeStream(s1));
        assert!(now_us(p) < 1_000, "s1 did not wait for s2's record");
        assert_eq!(stream_status(s2), ACL_STREAM_STATUS_NOT_READY);
    });
}

/// acl.md · Events · StreamWaitEvent · never recorded, WithFlag(ACL_EVENT_SYNC) event → 0; the wait is queued
/// and holds the stream until the event's next record is issued and reached. ResetEvent clears the flag so the
/// event can be waited on again
#[test]
fn wait_on_never_recorded_sync_event_holds_the_stream_until_the_next_record() {
    on_acl(1, |p| {
        ok(aclrtSetDevice(0));
        let (s1, s2) = (new_stream(), new_stream());
        let e = event_with_flag(ACL_EVENT_SYNC);
        let t = new_event();
        let pr = probe();
        ok(aclrtStreamWaitEvent(s1, e));
        ok(kernel_with(s1, 10, snapshot, arg(pr)));
        ok(aclrtRecordEvent(t, s1));
        assert_eq!(stream_status(s1), ACL_STREAM_STATUS_NOT_READY);
        assert_eq!(recorded_status(t), ACL_EVENT_RECORDED_STATUS_NOT_READY);
        // Nothing can issue the record while this thread blocks: the vendor would hang (sim: 507000).
        assert_eq!(aclrtSynchronizeStream(s1), ACL_ERROR_RT_INTERNAL_ERROR);
        assert_eq!(
            aclrtSynchronizeStreamWithTimeout(s1, 50),
            507046,
            "gives up after 50 ms"
        );
        // The record is issued after 1 ms of work on s2; s1's kernel runs once it is reached.
        ok(kernel_with(s2, 1_000, bump, arg(pr)));
        let issued = now_us(p);
        ok(aclrtRecordEvent(e, s2));
        ok(aclrtSynchronizeStream(s1));
        assert_eq!(pr.seen.load(SeqCst), 1, "s2's kernel ran before s1's");
        let t_us = timestamp(t).unwrap();
        assert!(t_us >= issued + 1_000 + 10, "t at {t_us} µs");
        // Reset: the event is 'not recorded' again, so the next wait is held again.
        ok(aclrtResetEvent(e, s2));
        ok(aclrtStreamWaitEvent(s1, e));
        ok(kernel(s1, 10));
        assert_eq!(aclrtSynchronizeStream(s1), 507000, "held again");
        ok(aclrtRecordEvent(e, s2));
        ok(aclrtSynchronizeStream(s1));
        ok(aclrtSynchronizeDevice());
    });
}

/// acl.md · Events · StreamWaitEvent / ResetEvent · event without SYNC (e.g. TIME_LINE only) → 207000
#[test]
fn wait_and_reset_need_the_sync_flag() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let s = new_stream();
        for e in [
            event_with_flag(ACL_EVENT_TIME_LINE),
            event_ex(ACL_EVENT_TIME_LINE),
            event_with_flag(0),
        ] {
            assert_eq!(aclrtStreamWaitEvent(s, e), 207000);
            assert_eq!(aclrtResetEvent(e, s), 207000);
            ok(aclrtRecordEvent(e, s));
            assert_eq!(aclrtStreamWaitEvent(s, e), 207000, "also once recorded");
            assert_eq!(aclrtResetEvent(e, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        }
    });
}

/// acl.md · Events · RecordEvent · recorded again → overwrites; a wait uses the newest record at the moment
/// the wait is issued
#[test]
fn re_record_overwrites_and_waits_capture_the_newest_record() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let (s1, s2) = (new_stream(), new_stream());
        let (e, x, m) = (new_event(), new_event(), new_event());
        ok(kernel(s1, 100));
        ok(aclrtRecordEvent(e, s1)); // record 1
        ok(kernel(s1, 100));
        ok(aclrtRecordEvent(e, s1)); // record 2 overwrites record 1
        ok(aclrtRecordEvent(x, s1)); // the same point as record 2
        ok(aclrtStreamWaitEvent(s2, e)); // captures record 2
        ok(aclrtRecordEvent(m, s2));
        ok(kernel(s1, 100));
        ok(aclrtRecordEvent(e, s1)); // record 3: the wait above does not move
        ok(aclrtSynchronizeDevice());
        let (tm, tx, te) = (
            timestamp(m).unwrap(),
            timestamp(x).unwrap(),
            timestamp(e).unwrap(),
        );
        assert_eq!(tm, tx, "s2 waited for record 2");
        assert!(te >= tx + 100, "record 3 is later: {te} vs {tx}");
        assert_eq!(elapsed(x, m), Ok(0.0));
    });
}

/// acl.md · Events · ResetEvent · — → queued on the stream; resets the event to "not recorded" when reached
#[test]
fn reset_event_makes_the_event_not_recorded() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let s = new_stream();
        let e = event_with_flag(ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE);
        let x = event_ex(ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE);
        ok(kernel(s, 100));
        ok(aclrtRecordEvent(e, s));
        ok(aclrtRecordEvent(x, s));
        ok(aclrtSynchronizeStream(s));
        assert_eq!(recorded_status(e), 1);
        assert!(elapsed(e, x).is_ok());
        ok(aclrtResetEvent(e, s));
        ok(aclrtResetEvent(x, s));
        ok(aclrtSynchronizeStream(s));
        // Never recorded again: the per-kind answers.
        assert_eq!(recorded_status(e), ACL_EVENT_RECORDED_STATUS_NOT_READY);
        assert_eq!(recorded_status(x), ACL_EVENT_RECORDED_STATUS_COMPLETE);
        assert_eq!(event_status(e), ACL_EVENT_STATUS_COMPLETE);
        assert_eq!(elapsed(e, e), Err(507000));
        assert_eq!(timestamp(x), Err(507000));
        ok(aclrtSynchronizeEvent(e));
    });
}

/// acl.md · Events · EventElapsedTime · either never recorded → 507000
#[test]
fn elapsed_time_never_recorded() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let (a, b) = (new_event(), new_event());
        assert_eq!(elapsed(a, b), Err(507000));
        ok(aclrtRecordEvent(a, NULL));
        ok(aclrtSynchronizeDevice());
        assert_eq!(elapsed(a, b), Err(507000), "end never recorded");
        assert_eq!(
            elapsed(b, a),
            Err(ACL_ERROR_RT_INTERNAL_ERROR),
            "start never recorded"
        );
        // Order: "never recorded" comes before the IPC / not-finished / TIME_LINE checks.
        let ipc = event_with_flag(ACL_EVENT_IPC);
        ok(kernel(NULL, 1_000));
        ok(aclrtRecordEvent(ipc, NULL));
        let untimed = event_with_flag(ACL_EVENT_SYNC);
        assert_eq!(elapsed(untimed, ipc), Err(507000));
        assert_eq!(elapsed(ipc, untimed), Err(507000));
    });
}

/// acl.md · Events · EventElapsedTime · recorded but not finished → 107006
#[test]
fn elapsed_time_not_finished() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let (a, b) = (new_event(), new_event());
        ok(aclrtRecordEvent(a, NULL));
        ok(kernel(NULL, 1_000));
        ok(aclrtRecordEvent(b, NULL));
        assert_eq!(elapsed(a, b), Err(107006));
        assert_eq!(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, 107006);
        ok(aclrtSynchronizeEvent(b));
        assert!(elapsed(a, b).unwrap() > 1.0);
    });
}

/// acl.md · Events · EventElapsedTime · IPC or EXTERNAL event → 207000
#[test]
fn elapsed_time_of_ipc_or_external_events() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let timed = new_event();
        let ipc = event_with_flag(ACL_EVENT_IPC | ACL_EVENT_TIME_LINE);
        let ext = event_ex(ACL_EVENT_EXTERNAL | ACL_EVENT_TIME_LINE);
        for e in [timed, ipc, ext] {
            ok(aclrtRecordEvent(e, NULL));
        }
        ok(aclrtSynchronizeDevice());
        assert_eq!(elapsed(timed, ipc), Err(207000));
        assert_eq!(elapsed(ext, timed), Err(207000));
        assert_eq!(timestamp(ipc), Err(207000));
        assert_eq!(timestamp(ext), Err(207000));
        // Order: IPC / EXTERNAL comes before "not finished".
        ok(kernel(NULL, 1_000));
        ok(aclrtRecordEvent(ipc, NULL));
        assert_eq!(elapsed(timed, ipc), Err(207000));
    });
}

/// acl.md · Events · EventElapsedTime · event without TIME_LINE → sim: 107006
#[test]
fn elapsed_time_without_time_line() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let timed = new_event();
        let untimed = event_with_flag(ACL_EVENT_SYNC);
        let untimed_ex = event_ex(ACL_EVENT_SYNC);
        for e in [timed, untimed, untimed_ex] {
            ok(aclrtRecordEvent(e, NULL));
        }
        ok(aclrtSynchronizeDevice());
        assert_eq!(elapsed(timed, untimed), Err(107006));
        assert_eq!(elapsed(untimed_ex, timed), Err(107006));
        assert_eq!(timestamp(untimed), Err(107006));
        let timed_flag = event_with_flag(ACL_EVENT_TIME_LINE);
        ok(aclrtRecordEvent(timed_flag, NULL));
        ok(aclrtSynchronizeDevice());
        assert!(elapsed(timed, timed_flag).is_ok());
    });
}

/// acl.md · Events · EventElapsedTime · end before start → negative ms, 0 (107007 is never produced)
#[test]
fn elapsed_time_end_before_start_is_negative() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0)); // t1
        let s = new_stream(); // t2
        let (a, b) = (new_event(), new_event()); // t3, t4
        ok(aclrtRecordEvent(b, s)); // t5: at 7 µs
        ok(kernel(s, 100)); // t6: 8..108 µs
        ok(aclrtRecordEvent(a, s)); // t7: at 108 µs
        ok(aclrtSynchronizeEvent(a));
        assert_eq!(elapsed(a, b), Ok(-0.101));
        assert_eq!(elapsed(b, a), Ok(0.101));
        assert_eq!((timestamp(b), timestamp(a)), (Ok(7), Ok(108)));
    });
}

/// acl.md · Events · EventGetTimestamp · — → same rules; microseconds
#[test]
fn event_get_timestamp_rules_and_microseconds() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0)); // t1
        let s = new_stream(); // t2
        let e = new_event(); // t3
        assert_eq!(timestamp(e), Err(507000), "never recorded"); // t4
        ok(kernel(s, 250)); // t5: 7..257 µs
        ok(aclrtRecordEvent(e, s)); // t6: at 257 µs
        assert_eq!(timestamp(e), Err(107006), "not finished"); // t7
        ok(aclrtSynchronizeEvent(e)); // host clock 257 µs
        assert_eq!(timestamp(e), Ok(257));
        let untimed = event_with_flag(ACL_EVENT_SYNC);
        ok(aclrtRecordEvent(untimed, s));
        ok(aclrtSynchronizeStream(s));
        assert_eq!(timestamp(untimed), Err(107006), "no TIME_LINE");
        let ipc = event_with_flag(ACL_EVENT_IPC | ACL_EVENT_SYNC);
        ok(aclrtRecordEvent(ipc, s));
        ok(aclrtSynchronizeStream(s));
        assert_eq!(timestamp(ipc), Err(207000), "IPC");
    });
}

/// acl.md · Events · DestroyEvent · record pending → 0 at once; freed at completion
#[test]
fn destroy_event_with_a_pending_record() {
    on_acl(1, |p| {
        ok(aclrtSetDevice(0));
        let (s1, s2) = (new_stream(), new_stream());
        let e = new_event();
        ok(kernel(s1, 1_000));
        ok(aclrtRecordEvent(e, s1));
        ok(aclrtStreamWaitEvent(s2, e));
        let before = p.now().as_nanos();
        ok(aclrtDestroyEvent(e));
        assert_eq!(p.now().as_nanos() - before, 1_000, "at once");
        assert_eq!(aclrtSynchronizeEvent(e), 107017, "the handle is dead");
        ok(kernel(s2, 10));
        ok(aclrtSynchronizeStream(s2));
        assert!(
            now_us(p) >= 1_010,
            "the wait on the destroyed event's record still held s2"
        );
    });
}

/// acl.md · Events · any call · NULL event → 100000
#[test]
fn every_event_call_with_a_null_event() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let s = new_stream();
        let e = new_event();
        let (mut st, mut ms, mut ts) = (0u32, 0f32, 0u64);
        let mut h = aclrtIpcEventHandle { reserved: [0; 64] };
        // SAFETY: valid out-pointers.
        unsafe {
            assert_eq!(aclrtDestroyEvent(NULL), 100000);
            assert_eq!(aclrtRecordEvent(NULL, s), 100000);
            assert_eq!(aclrtResetEvent(NULL, s), 100000);
            assert_eq!(aclrtQueryEvent(NULL, &mut st), 100000);
            assert_eq!(aclrtQueryEventStatus(NULL, &mut st), 100000);
            assert_eq!(aclrtSynchronizeEvent(NULL), 100000);
            assert_eq!(aclrtSynchronizeEventWithTimeout(NULL, -1), 100000);
            assert_eq!(aclrtEventElapsedTime(&mut ms, NULL, e), 100000);
            assert_eq!(aclrtEventElapsedTime(&mut ms, e, NULL), 100000);
            assert_eq!(aclrtEventGetTimestamp(NULL, &mut ts), 100000);
            assert_eq!(aclrtStreamWaitEvent(s, NULL), 100000);
            assert_eq!(aclrtIpcGetEventHandle(NULL, &mut h), 100000);
        }
        assert_eq!(ACL_ERROR_INVALID_PARAM, 100000);
    });
}

/// acl.md · Events · any call · destroyed handle → 107017
#[test]
fn every_call_with_a_destroyed_handle() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let (s, dead_s) = (new_stream(), new_stream());
        let (e, dead_e) = (new_event(), new_event());
        let mut dead_c = NULL;
        // SAFETY: a valid out-pointer.
        ok(unsafe { aclrtCreateContext(&mut dead_c, 0) });
        ok(aclrtDestroyContext(dead_c));
        ok(aclrtSetDevice(0));
        ok(aclrtDestroyStream(dead_s));
        ok(aclrtDestroyEvent(dead_e));
        let d = malloc(16);
        let data = [0u8; 16];
        let (mut st, mut ms, mut ts) = (0u32, 0f32, 0u64);
        let mut h = aclrtIpcEventHandle { reserved: [0; 64] };
        // SAFETY: valid out-pointers and buffers.
        unsafe {
            // events
            assert_eq!(aclrtDestroyEvent(dead_e), 107017);
            assert_eq!(aclrtRecordEvent(dead_e, s), 107017);
            assert_eq!(aclrtResetEvent(dead_e, s), 107017);
            assert_eq!(aclrtQueryEvent(dead_e, &mut st), 107017);
            assert_eq!(aclrtQueryEventStatus(dead_e, &mut st), 107017);
            assert_eq!(aclrtSynchronizeEvent(dead_e), 107017);
            assert_eq!(aclrtSynchronizeEventWithTimeout(dead_e, 10), 107017);
            assert_eq!(aclrtEventElapsedTime(&mut ms, dead_e, e), 107017);
            assert_eq!(aclrtEventElapsedTime(&mut ms, e, dead_e), 107017);
            assert_eq!(aclrtEventGetTimestamp(dead_e, &mut ts), 107017);
            assert_eq!(aclrtStreamWaitEvent(s, dead_e), 107017);
            assert_eq!(aclrtIpcGetEventHandle(dead_e, &mut h), 107017);
            // streams
            assert_eq!(aclrtDestroyStream(dead_s), 107017);
            assert_eq!(aclrtDestroyStreamForce(dead_s), 107017);
            assert_eq!(aclrtSynchronizeStream(dead_s), 107017);
            assert_eq!(aclrtSynchronizeStreamWithTimeout(dead_s, 10), 107017);
            assert_eq!(aclrtStreamQuery(dead_s, &mut st), 107017);
            assert_eq!(aclrtStreamWaitEvent(dead_s, e), 107017);
            assert_eq!(aclrtRecordEvent(e, dead_s), 107017);
            assert_eq!(kernel(dead_s, 1), 107017);
            assert_eq!(aclrtLaunchHostFunc(dead_s, Some(noop), NULL), 107017);
            assert_eq!(
                aclrtMemcpyAsync(
                    d,
                    16,
                    data.as_ptr().cast(),
                    16,
                    ACL_MEMCPY_HOST_TO_DEVICE,
                    dead_s
                ),
                107017
            );
            assert_eq!(aclrtMemsetAsync(d, 16, 1, 16, dead_s), 107017);
            // contexts
            assert_eq!(aclrtSetCurrentContext(dead_c), 107017);
            assert_eq!(aclrtDestroyContext(dead_c), 107017);
        }
        assert_eq!(ACL_ERROR_RT_INVALID_HANDLE, 107017);
    });
}

// =============================================================================== Peers, memory, timeouts, init

/// acl.md · Peers · DeviceCanAccessPeer · deviceId == peerDeviceId → 100000
#[test]
fn can_access_peer_same_device() {
    on_acl(2, |_| {
        let mut can = -1;
        // SAFETY: a valid out-pointer.
        unsafe {
            assert_eq!(aclrtDeviceCanAccessPeer(&mut can, 1, 1), 100000);
            ok(aclrtDeviceCanAccessPeer(&mut can, 0, 1));
            assert_eq!(can, 1, "all pairs are linked by default");
            assert_eq!(aclrtDeviceCanAccessPeer(&mut can, 0, 2), 107001);
        }
    });
    let m = Machine::builder()
        .devices(2)
        .dialect(Dialect::Acl)
        .peer_links([])
        .build()
        .unwrap();
    on_machine(&m, |_| {
        let mut can = -1;
        // SAFETY: a valid out-pointer.
        ok(unsafe { aclrtDeviceCanAccessPeer(&mut can, 1, 0) });
        assert_eq!(can, 0, "no link");
        ok(aclrtSetDevice(0));
        assert_eq!(aclrtDeviceEnablePeerAccess(1, 0), 207000, "sim: no link");
    });
}

/// acl.md · Peers · Enable/DisablePeerAccess · peer == current device → 100000
#[test]
fn peer_access_with_the_current_device() {
    on_acl(2, |_| {
        ok(aclrtSetDevice(1));
        assert_eq!(aclrtDeviceEnablePeerAccess(1, 0), 100000);
        assert_eq!(aclrtDeviceDisablePeerAccess(1), 100000);
        assert_eq!(
            aclrtDeviceEnablePeerAccess(1, 1),
            100000,
            "the peer is checked before the flags"
        );
    });
}

/// acl.md · Peers · EnablePeerAccess · flags != 0 → 200006
#[test]
fn enable_peer_access_with_flags() {
    on_acl(2, |p| {
        ok(aclrtSetDevice(0));
        for flags in [1, 2, u32::MAX] {
            assert_eq!(aclrtDeviceEnablePeerAccess(1, flags), 200006);
        }
        assert_eq!(ACL_ERROR_FEATURE_UNSUPPORTED, 200006);
        assert!(!p.peer_access_enabled(0, 1));
    });
}

/// acl.md · Peers · EnablePeerAccess · — → one direction (current → peer)
#[test]
fn enable_peer_access_is_one_direction() {
    on_acl(3, |p| {
        ok(aclrtSetDevice(0));
        ok(aclrtDeviceEnablePeerAccess(2, 0));
        assert!(p.peer_access_enabled(0, 2));
        assert!(!p.peer_access_enabled(2, 0));
        ok(aclrtDeviceDisablePeerAccess(2));
        assert!(!p.peer_access_enabled(0, 2));
    });
}

/// acl.md · Peers · Enable twice / Disable when not enabled · vendor: undefined → sim: 0 (idempotent), noted
/// in the trace
#[test]
fn peer_access_repeats_are_idempotent_and_traced() {
    let m = Machine::builder()
        .devices(2)
        .dialect(Dialect::Acl)
        .trace(true)
        .build()
        .unwrap();
    on_machine(&m, |p| {
        ok(aclrtSetDevice(0));
        ok(aclrtDeviceDisablePeerAccess(1));
        ok(aclrtDeviceEnablePeerAccess(1, 0));
        ok(aclrtDeviceEnablePeerAccess(1, 0));
        assert!(p.peer_access_enabled(0, 1));
        ok(aclrtDeviceDisablePeerAccess(1));
        ok(aclrtDeviceDisablePeerAccess(1));
    });
    let labels: Vec<String> = m.trace().host.iter().map(|h| h.label.clone()).collect();
    let noted = |what: &str| labels.iter().filter(|l| l.contains(what)).count();
    assert_eq!(noted("NotEnabled, no-op"), 2, "{labels:?}");
    assert_eq!(noted("AlreadyEnabled, no-op"), 1, "{labels:?}");
}

/// acl.md · Memory · Memcpy D2D across devices · peer access not enabled → docs: fails. sim: 107000 with a
/// message naming the missing EnablePeerAccess
#[test]
fn memcpy_across_devices_needs_peer_access() {
    on_acl(2, |_| {
        ok(aclrtSetDevice(0));
        let d0 = malloc(64);
        let host = [9u8; 64];
        // SAFETY: 64-byte buffers.
        unsafe {
            ok(aclrtMemcpy(
                d0,
                64,
                host.as_ptr().cast(),
                64,
                ACL_MEMCPY_HOST_TO_DEVICE,
            ));
            ok(aclrtSetDevice(1));
            let d1 = malloc(64);
            assert_eq!(
                aclrtMemcpy(d1, 64, d0, 64, ACL_MEMCPY_DEVICE_TO_DEVICE),
                107000
            );
            let msg = last_msg();
            assert!(msg.contains("peer access"), "{msg}");
            assert_eq!(
                aclrtMemcpyAsync(d1, 64, d0, 64, ACL_MEMCPY_DEFAULT, NULL),
                107000,
                "async too"
            );
            ok(aclrtDeviceEnablePeerAccess(0, 0));
            ok(aclrtMemcpy(d1, 64, d0, 64, ACL_MEMCPY_DEVICE_TO_DEVICE));
            let mut back = [0u8; 64];
            ok(aclrtMemcpy(
                back.as_mut_ptr().cast(),
                64,
                d1,
                64,
                ACL_MEMCPY_DEVICE_TO_HOST,
            ));
            assert_eq!(back, host);
        }
    });
}

/// acl.md · Memory · Memcpy / MemcpyAsync · count > destMax → 107000
#[test]
fn memcpy_count_beyond_dest_max() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let d = malloc(64);
        let host = [1u8; 64];
        // SAFETY: 64-byte buffers.
        unsafe {
            assert_eq!(
                aclrtMemcpy(d, 32, host.as_ptr().cast(), 64, ACL_MEMCPY_HOST_TO_DEVICE),
                107000
            );
            assert_eq!(
                aclrtMemcpyAsync(
                    d,
                    63,
                    host.as_ptr().cast(),
                    64,
                    ACL_MEMCPY_HOST_TO_DEVICE,
                    NULL
                ),
                107000
            );
            ok(aclrtMemcpy(
                d,
                64,
                host.as_ptr().cast(),
                64,
                ACL_MEMCPY_HOST_TO_DEVICE,
            ));
            assert_eq!(aclrtMemset(d, 8, 0, 9), 107000, "memset: count > maxCount");
        }
        assert_eq!(ACL_ERROR_RT_PARAM_INVALID, 107000);
    });
}

/// acl.md · Memory · Memcpy / MemcpyAsync · count == 0 → 0, nothing checked
#[test]
fn memcpy_of_zero_bytes_checks_nothing() {
    on_acl(1, |_| {
        // SAFETY: nothing is read or written for 0 bytes.
        unsafe {
            // No context, NULL pointers, an unknown kind, a forged stream: all unchecked.
            ok(aclrtMemcpy(NULL, 0, NULL, 0, 99));
            ok(aclrtMemcpyAsync(NULL, 0, NULL, 0, 99, GARBAGE));
            ok(aclrtMemcpy(
                GARBAGE,
                0,
                GARBAGE,
                0,
                ACL_MEMCPY_DEVICE_TO_DEVICE,
            ));
        }
    });
}

/// acl.md · Memory · Malloc · size == 0 → 100000
#[test]
fn malloc_of_zero_bytes() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let mut d = NULL;
        // SAFETY: valid out-pointers.
        unsafe {
            assert_eq!(aclrtMalloc(&mut d, 0, ACL_MEM_MALLOC_HUGE_FIRST), 100000);
            assert_eq!(aclrtMallocHost(&mut d, 0), 100000);
            for policy in [
                ACL_MEM_MALLOC_HUGE_FIRST,
                ACL_MEM_MALLOC_HUGE_ONLY,
                ACL_MEM_MALLOC_NORMAL_ONLY,
                ACL_MEM_MALLOC_HUGE_FIRST_P2P,
                ACL_MEM_MALLOC_HUGE1G_ONLY_P2P | ACL_MEM_TYPE_HIGH_BAND_WIDTH,
            ] {
                ok(aclrtMalloc(&mut d, 16, policy));
                ok(aclrtFree(d));
            }
        }
    });
}

/// acl.md · Timeouts · Synchronize*WithTimeout · timeout 0 or < −1 → 107000 (−1 = wait forever)
#[test]
fn synchronize_with_a_bad_timeout() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let s = new_stream();
        let e = new_event();
        ok(kernel(s, 10_000));
        ok(aclrtRecordEvent(e, s));
        for t in [0, -2, i32::MIN] {
            assert_eq!(aclrtSynchronizeStreamWithTimeout(s, t), 107000, "{t}");
            assert_eq!(aclrtSynchronizeEventWithTimeout(e, t), 107000, "{t}");
        }
        ok(aclrtSynchronizeEventWithTimeout(e, -1));
        ok(aclrtSynchronizeStreamWithTimeout(s, -1));
    });
}

/// acl.md · Timeouts · Synchronize*WithTimeout · runs out → 507046 (stream) / 507047 (event)
#[test]
fn synchronize_with_a_timeout_that_runs_out() {
    on_acl(1, |p| {
        ok(aclrtSetDevice(0)); // t1
        let s = new_stream(); // t2
        let e = new_event(); // t3
        ok(kernel(s, 10_000)); // t4: 6 µs .. 10.006 ms
        ok(aclrtRecordEvent(e, s)); // t5
        assert_eq!(aclrtSynchronizeStreamWithTimeout(s, 1), 507046); // t6 → gives up at 1.006 ms
        assert_eq!(now_us(p), 1_006);
        assert_eq!(aclrtSynchronizeEventWithTimeout(e, 2), 507047); // t1007 → 3.007 ms
        assert_eq!(now_us(p), 3_007);
        assert_eq!(
            (
                ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                ACL_ERROR_RT_EVENT_SYNC_TIMEOUT
            ),
            (507046, 507047)
        );
        ok(aclrtSynchronizeEventWithTimeout(e, 100));
        assert_eq!(now_us(p), 10_006);
        ok(aclrtSynchronizeStreamWithTimeout(s, 1));
    });
}

/// acl.md · kernel fault · — → reported at the next synchronize of that stream/device as 507015 (seed 004's
/// related issue #477: "aclrtSynchronizeStream报错507015")
#[test]
fn kernel_fault_is_507015_at_the_next_synchronize() {
    on_acl(1, |p| {
        ok(aclrtSetDevice(0));
        let s = new_stream();
        // The C stand-in cannot fail; a core kernel with a failing body on the facade's stream.
        p.launch(
            Stream::from_raw(s as usize as u64),
            Kernel::new("faulty")
                .duration(std::time::Duration::from_micros(100))
                .body(|_| Err(KernelError::from("bad access"))),
        )
        .unwrap();
        assert_eq!(aclrtSynchronizeStream(s), 507015);
        assert!(last_msg().contains("faulty"), "{}", last_msg());
        assert_eq!(
            aclrtSynchronizeDevice(),
            ACL_ERROR_RT_AICORE_EXCEPTION,
            "sticky"
        );
        assert_eq!(kernel(s, 1), 507015, "sticky");
        ok(aclrtResetDeviceForce(0));
        ok(aclrtSetDevice(0));
        let s = new_stream();
        ok(kernel(s, 1));
        ok(aclrtSynchronizeStream(s));
    });
}

/// acl.md · Init · aclInit · second time → 100002; aclFinalize · second time → 100037
#[test]
fn init_and_finalize_twice() {
    on_acl(1, |_| {
        assert_eq!(
            aclFinalize(),
            ACL_ERROR_UNINITIALIZE,
            "finalize before init"
        );
        ok(aclInit(std::ptr::null()));
        assert_eq!(aclInit(std::ptr::null()), 100002);
        assert_eq!(aclInit(c"acl.json".as_ptr()), ACL_ERROR_REPEAT_INITIALIZE);
        ok(aclFinalize());
        assert_eq!(aclFinalize(), 100037);
        assert_eq!(ACL_ERROR_REPEAT_FINALIZE, 100037);
        assert_eq!(ACL_ERROR_UNINITIALIZE, 100001);
    });
}

/// acl.md · Prototypes · aclrtGetDeviceInfo and the device attributes (AICPU_CORE_NUM 1, AICORE_CORE_NUM 101,
/// CUBE_CORE_NUM 102, VECTOR_CORE_NUM 201, WARP_SIZE 202, TOTAL_GLOBAL_MEM_SIZE 301)
#[test]
fn device_info_attributes() {
    on_acl(2, |_| {
        let want = [
            (ACL_DEV_ATTR_AICPU_CORE_NUM, 1, 6),
            (ACL_DEV_ATTR_AICORE_CORE_NUM, 101, 24),
            (ACL_DEV_ATTR_CUBE_CORE_NUM, 102, 24),
            (ACL_DEV_ATTR_VECTOR_CORE_NUM, 201, 48),
            (ACL_DEV_ATTR_WARP_SIZE, 202, 32),
            (ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, 301, 16 << 30),
        ];
        for (attr, number, value) in want {
            assert_eq!(attr, number);
            let mut v = -1;
            // SAFETY: a valid out-pointer.
            ok(unsafe { aclrtGetDeviceInfo(1, attr, &mut v) });
            assert_eq!(v, value, "attribute {attr}");
        }
        let mut v = -1;
        // SAFETY: a valid out-pointer.
        unsafe {
            assert_eq!(
                aclrtGetDeviceInfo(2, ACL_DEV_ATTR_WARP_SIZE, &mut v),
                107001
            );
            assert_eq!(aclrtGetDeviceInfo(0, 999, &mut v), 100000);
        }
    });
}

/// acl.md · Prototypes · the enums' values and the opposite numbering of the status enums
#[test]
fn enum_values() {
    assert_eq!(
        [
            ACL_MEMCPY_HOST_TO_HOST,
            ACL_MEMCPY_HOST_TO_DEVICE,
            ACL_MEMCPY_DEVICE_TO_HOST,
            ACL_MEMCPY_DEVICE_TO_DEVICE,
            ACL_MEMCPY_DEFAULT
        ],
        [0, 1, 2, 3, 4]
    );
    assert_eq!(
        [
            ACL_MEM_MALLOC_HUGE_FIRST,
            ACL_MEM_MALLOC_HUGE_ONLY,
            ACL_MEM_MALLOC_NORMAL_ONLY,
            ACL_MEM_MALLOC_HUGE_FIRST_P2P
        ],
        [0, 1, 2, 3]
    );
    assert_eq!(
        [
            ACL_EVENT_SYNC,
            ACL_EVENT_CAPTURE_STREAM_PROGRESS,
            ACL_EVENT_TIME_LINE,
            ACL_EVENT_DEVICE_USE_ONLY,
            ACL_EVENT_EXTERNAL,
            ACL_EVENT_IPC
        ],
        [0x1, 0x2, 0x8, 0x10, 0x20, 0x40]
    );
    assert_eq!(
        (
            ACL_EVENT_RECORDED_STATUS_NOT_READY,
            ACL_EVENT_RECORDED_STATUS_COMPLETE
        ),
        (0, 1)
    );
    assert_eq!(
        (ACL_EVENT_STATUS_COMPLETE, ACL_EVENT_STATUS_NOT_READY),
        (0, 1)
    );
    assert_eq!(
        (ACL_STREAM_STATUS_COMPLETE, ACL_STREAM_STATUS_NOT_READY),
        (0, 1)
    );
    assert_eq!(std::mem::size_of::<aclrtIpcEventHandle>(), 64);
    assert_eq!(std::mem::size_of::<aclError>(), 4);
    assert_eq!(
        [
            ACL_SUCCESS,
            ACL_ERROR_INVALID_PARAM,
            ACL_ERROR_UNINITIALIZE,
            ACL_ERROR_REPEAT_INITIALIZE,
            ACL_ERROR_REPEAT_FINALIZE,
            ACL_ERROR_BAD_ALLOC,
            ACL_ERROR_FEATURE_UNSUPPORTED,
            ACL_ERROR_RT_PARAM_INVALID,
            ACL_ERROR_RT_INVALID_DEVICEID,
            ACL_ERROR_RT_CONTEXT_NULL,
            ACL_ERROR_RT_STREAM_CONTEXT,
            ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
            ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL,
            ACL_ERROR_RT_INVALID_HANDLE,
            ACL_ERROR_RT_WAIT_TIMEOUT,
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            ACL_ERROR_RT_MEMORY_ALLOCATION,
            ACL_ERROR_RT_DEVICE_OOM,
            ACL_ERROR_RT_INTERNAL_ERROR,
            ACL_ERROR_RT_CONTEXT_RELEASE_ERROR,
            ACL_ERROR_RT_AICORE_EXCEPTION,
            ACL_ERROR_RT_IPC_ERROR,
            ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
            ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
        ],
        [
            0, 100000, 100001, 100002, 100037, 200000, 200006, 107000, 107001, 107002, 107003,
            107006, 107007, 107017, 107019, 207000, 207001, 207018, 507000, 507007, 507015, 507022,
            507046, 507047
        ]
    );
}

/// IPC events between two processes of one machine: export, open, and the opened event's answers (record
/// state shared; elapsed time refused).
#[test]
fn ipc_event_between_processes() {
    let m = acl_machine(1);
    let q = m.process();
    on_machine(&m, move |_| {
        ok(aclrtSetDevice(0));
        let e = event_with_flag(ACL_EVENT_IPC | ACL_EVENT_SYNC);
        let mut h = aclrtIpcEventHandle { reserved: [0; 64] };
        // SAFETY: valid out-pointers.
        unsafe {
            ok(aclrtIpcGetEventHandle(e, &mut h));
            let mut own = NULL;
            assert_eq!(
                aclrtIpcOpenEventHandle(h, &mut own),
                507022,
                "one's own handle"
            );
        }
        ok(kernel(NULL, 1_000));
        ok(aclrtRecordEvent(e, NULL));
        let q_thread = q.clone();
        let (status, sync, elapsed_code) = std::thread::spawn(move || {
            let _b = q_thread.bind();
            ok(aclrtSetDevice(0));
            let mut opened = NULL;
            // SAFETY: a valid out-pointer.
            ok(unsafe { aclrtIpcOpenEventHandle(h, &mut opened) });
            let status = recorded_status(opened);
            let sync = aclrtSynchronizeEvent(opened);
            (status, sync, elapsed(opened, opened).unwrap_err())
        })
        .join()
        .unwrap();
        assert_eq!(
            (status, sync, elapsed_code),
            (ACL_EVENT_RECORDED_STATUS_NOT_READY, ACL_SUCCESS, 207000)
        );
    });
}

// =============================================================================== Seed 001 (multi-device)

/// Seed 001 · 多Device选择: device count and per-device attributes, then SetDevice / CreateStream on each
/// device and ResetDeviceForce of both
#[test]
fn seed001_device_selection() {
    on_acl(2, |_| {
        // SAFETY: valid out-pointers.
        unsafe {
            // 获取Device数量及其对应的属性信息
            let mut device_count: u32 = 0;
            ok(aclrtGetDeviceCount(&mut device_count));
            assert_eq!(device_count, 2);
            let mut device_id: u32 = 0;
            while device_id < device_count {
                // 按需查询设备属性信息
                let attr: aclrtDevAttr = ACL_DEV_ATTR_VECTOR_CORE_NUM;
                let mut value: i64 = 0;
                ok(aclrtGetDeviceInfo(device_id, attr, &mut value));
                assert_eq!(value, 48);
                device_id += 1;
            }
            // 指定Device 0作为计算设备，并将Device 0的默认Context作为当前线程的默认Context
            ok(aclrtSetDevice(0));
            let mut s0: aclrtStream = NULL;
            ok(aclrtCreateStream(&mut s0));
            ok(kernel(s0, 100)); // 执行任务1
            // 指定Device 1作为计算设备
            ok(aclrtSetDevice(1));
            let mut s1: aclrtStream = NULL;
            ok(aclrtCreateStream(&mut s1));
            ok(kernel(s1, 100)); // 执行任务2
            // 复位Device 1，释放计算资源，线程默认Context被释放
            ok(aclrtResetDeviceForce(1));
            // 如需继续运行任务，需要显式指定Device和Context
            assert_eq!(get_device(), Err(ACL_ERROR_RT_CONTEXT_NULL));
            let mut s = NULL;
            assert_eq!(aclrtCreateStream(&mut s), ACL_ERROR_RT_CONTEXT_NULL);
            // 复位device0，释放计算资源
            ok(aclrtResetDeviceForce(0));
            assert_eq!(aclrtSynchronizeStream(s0), ACL_ERROR_RT_INVALID_HANDLE);
            assert_eq!(aclrtSynchronizeStream(s1), ACL_ERROR_RT_INVALID_HANDLE);
        }
    });
}

/// Seed 001 · Stream和Event的行为: a launch on s0 (device 0) from device 1 fails
#[test]
fn seed001_launch_on_a_stream_of_another_device_fails() {
    on_acl(2, |_| {
        // SAFETY: valid out-pointers.
        unsafe {
            ok(aclrtSetDevice(0)); // 指定Device 0作为计算设备
            let mut s0: aclrtStream = NULL;
            ok(aclrtCreateStream(&mut s0)); // 在Device 0上创建Stream s0
            ok(kernel(s0, 8)); // 在Device 0上通过Stream s0下发算子
            ok(aclrtSetDevice(1)); // 指定Device 1作为计算设备
            let mut s1: aclrtStream = NULL;
            ok(aclrtCreateStream(&mut s1)); // 在Device 1上创建Stream s1
            ok(kernel(s1, 8)); // 在Device 1上通过Stream s1下发算子
            // 算子下发失败
            assert_eq!(kernel(s0, 8), ACL_ERROR_RT_STREAM_CONTEXT); // 在Device 1上通过Stream s0下发算子
        }
    });
}

/// Seed 001 · Stream和Event的行为: MemcpyAsync on a stream of another device, RecordEvent and StreamWaitEvent
/// with event and stream on different devices fail; SynchronizeEvent and QueryEvent of an event of another
/// device succeed
#[test]
fn seed001_cross_device_stream_and_event_rules() {
    on_acl(2, |_| {
        // SAFETY: valid out-pointers and 64-byte buffers.
        unsafe {
            ok(aclrtSetDevice(0));
            let s0 = new_stream();
            let e0 = new_event();
            let d0 = malloc(64);
            let host = [3u8; 64];
            ok(kernel(s0, 500));
            ok(aclrtRecordEvent(e0, s0));
            ok(aclrtSetDevice(1));
            let s1 = new_stream();
            let e1 = new_event();
            // 当Stream所属的Device和当前操作的Device不相同时，在此Stream上调用aclrtMemcpyAsync会失败
            assert_eq!(
                aclrtMemcpyAsync(
                    d0,
                    64,
                    host.as_ptr().cast(),
                    64,
                    ACL_MEMCPY_HOST_TO_DEVICE,
                    s0
                ),
                107003
            );
            // 当Event和Stream关联到不同的Device上时，调用aclrtRecordEvent会失败
            assert_eq!(aclrtRecordEvent(e0, s1), 107003);
            assert_eq!(aclrtRecordEvent(e1, s0), 107003);
            // 当Event和Stream关联到不同的Device上时，调用aclrtStreamWaitEvent会失败
            assert_eq!(aclrtStreamWaitEvent(s1, e0), 107003);
            // 当Event所属的Device和当前操作的Device不相同时，aclrtSynchronizeEvent和aclrtQueryEvent会成功
            let mut status: aclrtEventStatus = ACL_EVENT_STATUS_RESERVED;
            ok(aclrtQueryEvent(e0, &mut status));
            assert_eq!(status, ACL_EVENT_STATUS_NOT_READY);
            ok(aclrtSynchronizeEvent(e0));
            ok(aclrtQueryEvent(e0, &mut status));
            assert_eq!(status, ACL_EVENT_STATUS_COMPLETE);
        }
    });
}

/// Seed 001 · 跨Device的数据交互: the P2P copy sample, line by line (plus a check that the bytes arrived)
#[test]
fn seed001_p2p_copy_sample() {
    let printed = on_machine(&acl_machine(2), |p| {
        // SAFETY: valid out-pointers; device buffers of 10 bytes.
        unsafe {
            ok(aclInit(std::ptr::null())); // 初始化
            let mut can_access_peer: i32 = 0;
            ok(aclrtDeviceCanAccessPeer(&mut can_access_peer, 0, 1)); // 查询Device 0和Device 1之间是否支持数据交互
            let printed = if can_access_peer == 1 {
                ok(aclrtSetDevice(0)); // Device 0下的操作
                let reserve_flag: u32 = 0;
                ok(aclrtDeviceEnablePeerAccess(1, reserve_flag)); // 开启当前Device(Device 0)到指定Device(Device 1）的数据交互
                let mut dev0_mem: Ptr = NULL;
                ok(aclrtMalloc(
                    &mut dev0_mem,
                    10,
                    ACL_MEM_MALLOC_HUGE_FIRST_P2P,
                ));
                // (not in the sample: put known bytes in dev0Mem)
                let src: [u8; 10] = *b"0123456789";
                ok(aclrtMemcpy(
                    dev0_mem,
                    10,
                    src.as_ptr().cast(),
                    10,
                    ACL_MEMCPY_HOST_TO_DEVICE,
                ));
                ok(aclrtSetDevice(1)); // Device 1下的操作
                ok(aclrtDeviceEnablePeerAccess(0, reserve_flag)); // 开启当前Device(Device 1)到指定Device(Device 0）的数据交互
                let mut dev1_mem: Ptr = NULL;
                ok(aclrtMalloc(
                    &mut dev1_mem,
                    10,
                    ACL_MEM_MALLOC_HUGE_FIRST_P2P,
                ));
                ok(aclrtMemcpy(
                    dev1_mem,
                    10,
                    dev0_mem,
                    10,
                    ACL_MEMCPY_DEVICE_TO_DEVICE,
                )); // 将Device 0上的内存数据复制到Device 1上
                // (not in the sample: read dev1Mem back)
                let mut back = [0u8; 10];
                ok(aclrtMemcpy(
                    back.as_mut_ptr().cast(),
                    10,
                    dev1_mem,
                    10,
                    ACL_MEMCPY_DEVICE_TO_HOST,
                ));
                assert_eq!(&back, b"0123456789");
                ok(aclrtDeviceDisablePeerAccess(0)); // 关闭当前Device（Device 1）到指定Device（Device 0）的数据交互
                ok(aclrtFree(dev1_mem));
                ok(aclrtResetDevice(1)); // 释放Device 1的资源
                ok(aclrtSetDevice(0)); // 切换到Device 0上进行操作
                ok(aclrtDeviceDisablePeerAccess(1)); // 关闭当前Device（Device 0）到指定Device（Device 1）的数据交互
                ok(aclrtFree(dev0_mem));
                ok(aclrtResetDeviceForce(0)); // Device 0下的操作，调用aclrtResetDeviceForce接口释放Device 0的资源
                "P2P copy success"
            } else {
                "current device doesn't support p2p feature"
            };
            ok(aclFinalize()); // 去初始化
            assert!(!p.peer_access_enabled(0, 1) && !p.peer_access_enabled(1, 0));
            printed
        }
    });
    assert_eq!(printed, "P2P copy success");
    // The else branch, on a machine whose devices are not linked.
    let unlinked = Machine::builder()
        .devices(2)
        .dialect(Dialect::Acl)
        .peer_links([])
        .build()
        .unwrap();
    let printed = on_machine(&unlinked, |_| {
        let mut can_access_peer: i32 = 0;
        // SAFETY: a valid out-pointer.
        ok(unsafe { aclrtDeviceCanAccessPeer(&mut can_access_peer, 0, 1) });
        if can_access_peer == 1 {
            "P2P copy success"
        } else {
            "current device doesn't support p2p feature"
        }
    });
    assert_eq!(printed, "current device doesn't support p2p feature");
}

// =============================================================================== Seed 004 (stream vs event sync)

const SIZE: usize = 1 << 20;

/// Pinned host buffer filled with `byte`.
fn pinned(byte: u8) -> Ptr {
    let h = malloc_host(SIZE);
    // SAFETY: SIZE bytes of pinned host memory, not in use by any copy yet.
    unsafe { std::ptr::write_bytes(h.cast::<u8>(), byte, SIZE) };
    h
}

/// The first and last byte of a pinned buffer.
fn ends(h: Ptr) -> (u8, u8) {
    // SAFETY: SIZE bytes of pinned host memory; the copies into it have finished.
    unsafe { (*h.cast::<u8>(), *h.cast::<u8>().add(SIZE - 1)) }
}

/// Seed 004 · 场景1：单 Stream 等待整批任务 → Stream 同步 (and the not-recommended event variant)
#[test]
fn seed004_scenario1_single_stream_batch() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let (src, host) = (pinned(0x5A), pinned(0));
        let dst = malloc(SIZE);
        // SAFETY: valid out-pointers; SIZE-byte buffers.
        unsafe {
            let mut stream: aclrtStream = NULL;
            ok(aclrtCreateStream(&mut stream));
            ok(aclrtMemcpyAsync(
                dst,
                SIZE,
                src,
                SIZE,
                ACL_MEMCPY_HOST_TO_DEVICE,
                stream,
            ));
            ok(kernel(stream, 200)); // myKernel<<<..., stream>>>();
            ok(aclrtMemcpyAsync(
                host,
                SIZE,
                dst,
                SIZE,
                ACL_MEMCPY_DEVICE_TO_HOST,
                stream,
            ));
            // 推荐：Stream 同步
            ok(aclrtSynchronizeStream(stream)); // 等待整流完成
            assert_eq!(ends(host), (0x5A, 0x5A));
            // 不推荐：Event 同步（过度设计）
            let mut event: aclrtEvent = NULL;
            ok(aclrtCreateEvent(&mut event));
            ok(aclrtMemcpyAsync(
                dst,
                SIZE,
                src,
                SIZE,
                ACL_MEMCPY_HOST_TO_DEVICE,
                stream,
            ));
            ok(aclrtRecordEvent(event, stream));
            ok(aclrtSynchronizeEvent(event)); // 多了一步 RecordEvent，复杂度高
            assert_eq!(stream_status(stream), ACL_STREAM_STATUS_COMPLETE);
        }
    });
}

/// Seed 004 · 场景2：跨 Stream 协调 → Event 同步; and 现象1: aclrtSynchronizeStream(stream1) does not wait for
/// stream2
#[test]
fn seed004_scenario2_cross_stream_coordination() {
    on_acl(1, |p| {
        ok(aclrtSetDevice(0));
        let (src1, src2) = (pinned(1), pinned(2));
        let (dst1, dst2) = (malloc(SIZE), malloc(SIZE));
        // SAFETY: valid out-pointers; SIZE-byte buffers.
        unsafe {
            let mut stream1: aclrtStream = NULL;
            let mut stream2: aclrtStream = NULL;
            ok(aclrtCreateStream(&mut stream1));
            ok(aclrtCreateStream(&mut stream2));
            ok(aclrtMemcpyAsync(
                dst1,
                SIZE,
                src1,
                SIZE,
                ACL_MEMCPY_HOST_TO_DEVICE,
                stream1,
            ));
            // 推荐：Event 同步
            let mut event: aclrtEvent = NULL;
            ok(aclrtCreateEvent(&mut event));
            ok(aclrtRecordEvent(event, stream1)); // stream1 记录时间点
            ok(aclrtStreamWaitEvent(stream2, event)); // stream2 等待该时间点
            ok(aclrtMemcpyAsync(
                dst2,
                SIZE,
                src2,
                SIZE,
                ACL_MEMCPY_HOST_TO_DEVICE,
                stream2,
            ));
            // (not in the sample: when did stream2's copy end?)
            let after2 = new_event();
            ok(aclrtRecordEvent(after2, stream2));
            ok(aclrtSynchronizeEvent(after2));
            // 1 MiB at 16 GB/s + 2 µs latency, starting when stream1's copy ended.
            let ms = elapsed(event, after2).unwrap();
            assert!((ms - 0.067_536).abs() < 1e-6, "{ms}");
            // 不推荐：Stream 同步（会阻塞 stream1，影响并发）
            ok(kernel(stream1, 5_000));
            ok(kernel(stream2, 5_000));
            ok(aclrtSynchronizeStream(stream1)); // 阻塞 stream1 全部任务
            let t = now_us(p);
            ok(aclrtMemcpyAsync(
                dst2,
                SIZE,
                src2,
                SIZE,
                ACL_MEMCPY_HOST_TO_DEVICE,
                stream2,
            ));
            assert!(t >= 5_000);
            // 现象1: stream1's synchronize did not wait for stream2.
            let mut st = ACL_STREAM_STATUS_RESERVED;
            ok(aclrtStreamQuery(stream2, &mut st));
            assert_eq!(st, ACL_STREAM_STATUS_NOT_READY);
            ok(aclrtSynchronizeDevice());
        }
    });
}

/// Seed 004 · 场景3：精细时间点控制 → Event 同步: waiting for event2 does not wait for the copy after it
#[test]
fn seed004_scenario3_fine_grained_time_points() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let (src, host) = (pinned(7), pinned(0));
        let dst = malloc(SIZE);
        // SAFETY: valid out-pointers; SIZE-byte buffers.
        unsafe {
            let stream = new_stream();
            let (mut event1, mut event2, mut event3): (aclrtEvent, aclrtEvent, aclrtEvent) =
                (NULL, NULL, NULL);
            ok(aclrtCreateEvent(&mut event1));
            ok(aclrtCreateEvent(&mut event2));
            ok(aclrtCreateEvent(&mut event3));
            ok(aclrtMemcpyAsync(
                dst,
                SIZE,
                src,
                SIZE,
                ACL_MEMCPY_HOST_TO_DEVICE,
                stream,
            ));
            ok(aclrtRecordEvent(event1, stream)); // 记录复制完成时间点
            ok(kernel(stream, 500)); // myKernel<<<..., stream>>>();
            ok(aclrtRecordEvent(event2, stream)); // 记录算子完成时间点
            ok(aclrtMemcpyAsync(
                host,
                SIZE,
                dst,
                SIZE,
                ACL_MEMCPY_DEVICE_TO_HOST,
                stream,
            ));
            ok(aclrtRecordEvent(event3, stream)); // 记录输出复制完成时间点
            // 灵活等待特定时间点
            ok(aclrtSynchronizeEvent(event2)); // 仅等待算子完成，不等待后续复制
            assert_eq!(recorded_status(event2), ACL_EVENT_RECORDED_STATUS_COMPLETE);
            assert_eq!(recorded_status(event3), ACL_EVENT_RECORDED_STATUS_NOT_READY);
            assert_eq!(elapsed(event1, event2), Ok(0.5), "the kernel alone");
            ok(aclrtSynchronizeEvent(event3));
            assert_eq!(ends(host), (7, 7));
        }
    });
}

// =============================================================================== NULL and garbage

/// Every acl function with NULL and garbage arguments (forged handles, destroyed handles, another process's
/// handles, handles of the wrong kind, unallocated device addresses): vendor codes, no panic, no crash.
#[test]
fn every_function_with_null_and_garbage_arguments() {
    let m = acl_machine(2);
    let q = m.process();
    on_machine(&m, move |p| {
        // Another process's stream, event, context and memory.
        let (qs, qe, qc, qd) = {
            let _b = q.bind();
            ok(aclrtSetDevice(0));
            (new_stream(), new_event(), current_context(), malloc(16))
        };
        ok(aclrtSetDevice(0));
        let (s, e, c, d) = (new_stream(), new_event(), current_context(), malloc(16));
        let (dead_s, dead_e) = (new_stream(), new_event());
        ok(aclrtDestroyStream(dead_s));
        ok(aclrtDestroyEvent(dead_e));
        let unallocated = (DEVICE_ADDRESS_BASE + 0x1234) as Ptr;
        let host = [0u8; 16];
        let hp = host.as_ptr() as *const c_void;
        let (mut x, mut st, mut v, mut i, mut u, mut ms, mut ts) =
            (NULL, 0u32, 0i64, 0i32, 0u32, 0f32, 0u64);
        let mut h = aclrtIpcEventHandle { reserved: [0; 64] };
        let bad_streams = [
            GARBAGE,
            dead_s,
            qs,
            e,
            c,
            1 as Ptr,
            2 as Ptr,
            usize::MAX as Ptr,
        ];
        let bad_events = [GARBAGE, dead_e, qe, s, c, usize::MAX as Ptr];
        let bad_contexts = [GARBAGE, qc, s, e, usize::MAX as Ptr];
        // SAFETY: every pointer that is read or written is NULL or valid; the garbage values are handles or
        // device addresses, which the simulator never dereferences.
        unsafe {
            // init and messages
            assert_eq!(
                aclInit(GARBAGE as *const c_char),
                0,
                "the config path is not read"
            );
            assert_eq!(aclInit(std::ptr::null()), 100002);
            assert!(!aclGetRecentErrMsg().is_null());
            assert_eq!(aclFinalize(), 0);
            // devices
            for id in [-1, 2, i32::MAX, i32::MIN] {
                assert_eq!(aclrtSetDevice(id), 107001);
                assert_eq!(aclrtResetDevice(id), 107001);
                assert_eq!(aclrtResetDeviceForce(id), 107001);
                assert_eq!(aclrtDeviceEnablePeerAccess(id, 0), 107001);
                assert_eq!(aclrtDeviceDisablePeerAccess(id), 107001);
                assert_eq!(aclrtDeviceCanAccessPeer(&mut i, id, 0), 107001);
                assert_eq!(aclrtDeviceCanAccessPeer(&mut i, 0, id), 107001);
                assert_eq!(aclrtCreateContext(&mut x, id), 107001);
            }
            assert_eq!(aclrtGetDevice(std::ptr::null_mut()), 100000);
            assert_eq!(aclrtGetDeviceCount(std::ptr::null_mut()), 100000);
            assert_eq!(
                aclrtGetDeviceInfo(0, ACL_DEV_ATTR_WARP_SIZE, std::ptr::null_mut()),
                100000
            );
            assert_eq!(
                aclrtGetDeviceInfo(u32::MAX, ACL_DEV_ATTR_WARP_SIZE, &mut v),
                107001
            );
            assert_eq!(aclrtGetDeviceInfo(0, u32::MAX, &mut v), 100000);
            assert_eq!(aclrtDeviceCanAccessPeer(std::ptr::null_mut(), 0, 1), 100000);
            // contexts
            assert_eq!(aclrtCreateContext(std::ptr::null_mut(), 0), 100000);
            assert_eq!(aclrtGetCurrentContext(std::ptr::null_mut()), 100000);
            assert_eq!(aclrtDestroyContext(NULL), 100000);
            assert_eq!(aclrtSetCurrentContext(NULL), 100000);
            for bad in bad_contexts {
                assert_eq!(aclrtDestroyContext(bad), 107017, "{bad:?}");
                assert_eq!(aclrtSetCurrentContext(bad), 107017, "{bad:?}");
            }
            // streams
            assert_eq!(aclrtCreateStream(std::ptr::null_mut()), 100000);
            assert_eq!(
                aclrtCreateStreamWithConfig(std::ptr::null_mut(), 0, 0),
                100000
            );
            assert_eq!(aclrtCreateStreamWithConfig(&mut x, 0, 0x4000), 100000);
            ok(aclrtCreateStreamWithConfig(
                &mut x,
                u32::MAX,
                ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC,
            ));
            assert_eq!(aclrtDestroyStream(NULL), 100000);
            assert_eq!(aclrtDestroyStreamForce(NULL), 100000);
            assert_eq!(aclrtStreamQuery(s, std::ptr::null_mut()), 100000);
            assert_eq!(aclrtSynchronizeStreamWithTimeout(s, 0), 107000);
            assert_eq!(aclrtLaunchHostFunc(s, None, NULL), 100000);
            for bad in bad_streams {
                assert_eq!(aclrtDestroyStream(bad), 107017, "{bad:?}");
                assert_eq!(aclrtDestroyStreamForce(bad), 107017, "{bad:?}");
                assert_eq!(aclrtSynchronizeStream(bad), 107017, "{bad:?}");
                assert_eq!(aclrtSynchronizeStreamWithTimeout(bad, 5), 107017, "{bad:?}");
                assert_eq!(aclrtStreamQuery(bad, &mut st), 107017, "{bad:?}");
                assert_eq!(aclrtStreamWaitEvent(bad, e), 107017, "{bad:?}");
                assert_eq!(aclrtRecordEvent(e, bad), 107017, "{bad:?}");
                assert_eq!(
                    aclrtLaunchHostFunc(bad, Some(noop), NULL),
                    107017,
                    "{bad:?}"
                );
                assert_eq!(kernel(bad, 1), 107017, "{bad:?}");
                assert_eq!(
                    aclrtMemcpyAsync(d, 16, hp, 16, ACL_MEMCPY_HOST_TO_DEVICE, bad),
                    107017
                );
                assert_eq!(aclrtMemsetAsync(d, 16, 0, 16, bad), 107017, "{bad:?}");
            }
            // kernels
            ok(aclsimLaunchKernel(s, std::ptr::null(), 0, None, NULL));
            let bad_access = streamsimAccess {
                ptr: unallocated,
                bytes: 8,
                write: 1,
            };
            assert_eq!(
                aclsimLaunchKernelEx(s, c"k".as_ptr(), 0, None, NULL, &bad_access, 1),
                107000
            );
            let bad_flag = streamsimAccess {
                ptr: d,
                bytes: 8,
                write: 7,
            };
            assert_eq!(
                aclsimLaunchKernelEx(s, c"k".as_ptr(), 0, None, NULL, &bad_flag, 1),
                100000
            );
            assert_eq!(
                aclsimLaunchKernelEx(s, c"k".as_ptr(), 0, None, NULL, std::ptr::null(), 3),
                100000
            );
            let fine = [
                streamsimAccess {
                    ptr: d,
                    bytes: 8,
                    write: 0,
                },
                streamsimAccess {
                    ptr: d,
                    bytes: 16,
                    write: 1,
                },
            ];
            ok(aclsimLaunchKernelEx(
                s,
                c"k".as_ptr(),
                5,
                Some(noop),
                NULL,
                fine.as_ptr(),
                2,
            ));
            let foreign = streamsimAccess {
                ptr: qd,
                bytes: 8,
                write: 0,
            };
            assert_eq!(
                aclsimLaunchKernelEx(s, c"k".as_ptr(), 0, None, NULL, &foreign, 1),
                107000
            );
            // events
            assert_eq!(aclrtCreateEvent(std::ptr::null_mut()), 100000);
            assert_eq!(
                aclrtCreateEventWithFlag(std::ptr::null_mut(), ACL_EVENT_SYNC),
                100000
            );
            assert_eq!(
                aclrtCreateEventExWithFlag(std::ptr::null_mut(), ACL_EVENT_SYNC),
                100000
            );
            for flag in [0x4, 0x80, 0x100, u32::MAX] {
                assert_eq!(aclrtCreateEventWithFlag(&mut x, flag), 100000, "{flag:#x}");
                assert_eq!(
                    aclrtCreateEventExWithFlag(&mut x, flag),
                    100000,
                    "{flag:#x}"
                );
            }
            assert_eq!(aclrtQueryEvent(e, std::ptr::null_mut()), 100000);
            assert_eq!(aclrtQueryEventStatus(e, std::ptr::null_mut()), 100000);
            assert_eq!(aclrtEventElapsedTime(std::ptr::null_mut(), e, e), 100000);
            assert_eq!(aclrtEventGetTimestamp(e, std::ptr::null_mut()), 100000);
            assert_eq!(aclrtIpcGetEventHandle(e, std::ptr::null_mut()), 100000);
            assert_eq!(
                aclrtIpcGetEventHandle(e, &mut h),
                107000,
                "not an IPC event"
            );
            assert_eq!(aclrtIpcOpenEventHandle(h, &mut x), 507022, "zeroed bytes");
            h.reserved = [0x41; 64];
            assert_eq!(aclrtIpcOpenEventHandle(h, &mut x), 507022, "forged bytes");
            assert_eq!(aclrtIpcOpenEventHandle(h, std::ptr::null_mut()), 100000);
            assert_eq!(aclrtSynchronizeEventWithTimeout(e, -7), 107000);
            for bad in bad_events {
                assert_eq!(aclrtDestroyEvent(bad), 107017, "{bad:?}");
                assert_eq!(aclrtRecordEvent(bad, s), 107017, "{bad:?}");
                assert_eq!(aclrtResetEvent(bad, s), 107017, "{bad:?}");
                assert_eq!(aclrtQueryEvent(bad, &mut u), 107017, "{bad:?}");
                assert_eq!(aclrtQueryEventStatus(bad, &mut u), 107017, "{bad:?}");
                assert_eq!(aclrtSynchronizeEvent(bad), 107017, "{bad:?}");
                assert_eq!(aclrtSynchronizeEventWithTimeout(bad, 5), 107017, "{bad:?}");
                assert_eq!(aclrtEventElapsedTime(&mut ms, bad, e), 107017, "{bad:?}");
                assert_eq!(aclrtEventElapsedTime(&mut ms, e, bad), 107017, "{bad:?}");
                assert_eq!(aclrtEventGetTimestamp(bad, &mut ts), 107017, "{bad:?}");
                assert_eq!(aclrtStreamWaitEvent(s, bad), 107017, "{bad:?}");
                assert_eq!(aclrtIpcGetEventHandle(bad, &mut h), 107017, "{bad:?}");
            }
            // memory
            assert_eq!(
                aclrtMalloc(std::ptr::null_mut(), 16, ACL_MEM_MALLOC_HUGE_FIRST),
                100000
            );
            assert_eq!(aclrtMalloc(&mut x, 16, 8), 100000, "unknown policy");
            assert_eq!(
                aclrtMalloc(&mut x, 16, 0x2000_0000),
                100000,
                "unknown policy bit"
            );
            assert_eq!(
                aclrtMalloc(&mut x, 1 << 50, ACL_MEM_MALLOC_HUGE_FIRST),
                207001,
                "out of memory"
            );
            assert_eq!(aclrtMallocHost(std::ptr::null_mut(), 16), 100000);
            assert_eq!(aclrtFree(NULL), 100000);
            assert_eq!(aclrtFreeHost(NULL), 100000);
            for bad in [GARBAGE, unallocated, qd] {
                assert_eq!(aclrtFree(bad), 107000, "{bad:?}");
                assert_eq!(aclrtFreeHost(bad), 107000, "{bad:?}");
                assert_eq!(aclrtMemset(bad, 16, 0, 16), 107000, "{bad:?}");
            }
            let freed = malloc(16);
            ok(aclrtFree(freed));
            assert_eq!(aclrtFree(freed), 107000, "freed twice");
            for (dst, src) in [(unallocated, hp), (qd, hp), (freed, hp)] {
                assert_eq!(
                    aclrtMemcpy(dst, 16, src, 16, ACL_MEMCPY_HOST_TO_DEVICE),
                    107000
                );
                assert_eq!(
                    aclrtMemcpyAsync(dst, 16, src, 16, ACL_MEMCPY_DEFAULT, s),
                    107000
                );
            }
            let mut out = [0u8; 16];
            let op = out.as_mut_ptr() as Ptr;
            assert_eq!(
                aclrtMemcpy(op, 16, unallocated, 16, ACL_MEMCPY_DEVICE_TO_HOST),
                107000
            );
            assert_eq!(
                aclrtMemcpy(NULL, 16, hp, 16, ACL_MEMCPY_HOST_TO_DEVICE),
                100000
            );
            assert_eq!(
                aclrtMemcpy(d, 16, std::ptr::null(), 16, ACL_MEMCPY_HOST_TO_DEVICE),
                100000
            );
            assert_eq!(aclrtMemcpy(d, 16, hp, 16, 8), 100000, "unknown kind");
            assert_eq!(
                aclrtMemcpy(d, 16, hp, 16, ACL_MEMCPY_DEVICE_TO_HOST),
                107000,
                "kind vs pointers"
            );
            assert_eq!(
                aclrtMemcpy(op, 16, hp, 16, ACL_MEMCPY_DEVICE_TO_DEVICE),
                107000,
                "kind vs pointers"
            );
            ok(aclrtMemcpy(op, 16, hp, 16, ACL_MEMCPY_HOST_TO_HOST));
            ok(aclrtMemcpy(d, 16, hp, 16, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE));
            assert_eq!(aclrtMemset(NULL, 16, 0, 16), 100000);
            assert_eq!(aclrtMemsetAsync(NULL, 16, 0, 16, s), 100000);
            assert_eq!(aclrtMemset(d, 16, 0, 17), 107000);
            ok(aclrtMemset(d, 16, 0x1FF, 16));
            // A runtime call from inside a host function.
            let pr = probe();
            pr.code.store(-1, SeqCst);
            ok(aclrtLaunchHostFunc(s, Some(synchronize_inside), arg(pr)));
            ok(aclrtSynchronizeStream(s));
            assert_eq!(pr.code.load(SeqCst), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        }
        // The process still works after all that.
        ok(kernel(s, 10));
        ok(aclrtSynchronizeDevice());
        assert!(p.peek_last_error().is_some());
    });
    // Bound to a machine of another dialect: every ACL call says so.
    let cuda = Machine::builder().devices(1).build().unwrap();
    on_machine(&cuda, |_| {
        assert_eq!(aclrtSetDevice(0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        assert_eq!(aclrtSynchronizeDevice(), 207000);
        assert!(last_msg().contains("dialect"), "{}", last_msg());
    });
}
