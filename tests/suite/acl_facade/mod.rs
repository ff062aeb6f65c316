//! Truth-table tests: `docs/semantics/acl.md`, every row, through the `aclrt*` functions of
//! `streamsim::acl`; then the Ascend multi-device guide's samples and the CANN stream-vs-event note's scenarios
//! ported line by line; then every function with NULL and garbage arguments.
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

mod callbacks;
mod devices;
mod events;
mod failure_mode;
mod ipc_events;
mod messages;
mod new_calls_abuse;
mod null_and_garbage;
mod ownership;
mod peers_memory;
mod pools;
mod queries;
mod seed001;
mod seed004;
mod wait_tasks;
