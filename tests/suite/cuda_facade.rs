//! Truth-table tests: every row of `shared/reference/cuda-musa.md`, through the CUDA facade's vendor-named
//! functions (`streamsim::cuda::*`), asserting the exact `cudaError_t` values.
//!
//! Calls are routed with [`Process::bind`] to machines built per test (two devices for cross-device rows,
//! `.peer_links([])` for "no link", two processes for IPC). Where two rows give the same code (several 400s in
//! EventElapsedTime's check order), the bound process's structured last error tells which check fired.
//! Kernels are `cudasimLaunchKernel` with `unsafe extern "C"` bodies; a C body cannot fail, so the kernel
//! faults of "Errors that stick" are launched with the core API on the bound process and observed through the
//! facade.
//!
//! The default machine (no binding) is a process-wide `OnceLock` configured from `STREAMSIM_DEVICES` /
//! `STREAMSIM_SEED`; tests run as threads of one process, so those tests re-run this test binary as a child
//! process with the environment set (see [`run_child`]) and never touch the default machine here.
#![allow(
    non_upper_case_globals,
    reason = "the vendor's constant names in patterns"
)]

use std::ffi::{CStr, c_char, c_int, c_uint, c_void};
use std::ptr::{null, null_mut};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use streamsim::cuda::*;
use streamsim::{CopyPath, Event, HandleProblem, Kernel, Machine, Process, SimError, Stream};

// ------------------------------------------------------------------------------------------------ helpers

/// The name of a code, for messages.
fn err_name(e: cudaError_t) -> String {
    // SAFETY: GetErrorName returns a static NUL-terminated string.
    unsafe { CStr::from_ptr(cudaGetErrorName(e)) }
        .to_string_lossy()
        .into_owned()
}

/// Calls a facade function and asserts its exact code.
macro_rules! check {
    ($want:expr, $call:expr) => {{
        #[allow(unused_unsafe, reason = "some calls are safe")]
        // SAFETY: the test passes NULL or valid pointers, as the C contract requires.
        let got: cudaError_t = unsafe { $call };
        let want: cudaError_t = $want;
        assert_eq!(
            got,
            want,
            "`{}` returned {} ({}), expected {} ({})",
            stringify!($call),
            got,
            err_name(got),
            want,
            err_name(want)
        );
    }};
}

/// A CUDA machine with `n` devices (all pairs linked) and a process on it.
fn machine(n: u32) -> (Machine, Process) {
    let m = Machine::builder().devices(n).build().expect("machine");
    let p = m.process();
    (m, p)
}

/// A stream of the current device.
fn stream(flags: c_uint) -> cudaStream_t {
    let mut s = null_mut();
    check!(cudaSuccess, cudaStreamCreateWithFlags(&mut s, flags));
    s
}

/// An event of the current device.
fn event(flags: c_uint) -> cudaEvent_t {
    let mut e = null_mut();
    check!(cudaSuccess, cudaEventCreateWithFlags(&mut e, flags));
    e
}

/// Launches a body-less kernel of `micros` µs.
fn kernel(s: cudaStream_t, micros: u64) -> cudaError_t {
    // SAFETY: a static name, no body.
    unsafe { cudasimLaunchKernel(s, c"kernel".as_ptr(), micros * 1_000, None, null_mut()) }
}

/// Launches a kernel of `micros` µs whose C body is `f(arg)`.
fn kernel_with(
    s: cudaStream_t,
    micros: u64,
    f: unsafe extern "C" fn(*mut c_void),
    arg: *mut c_void,
) -> cudaError_t {
    // SAFETY: `arg` is what `f` expects (the callers pass leaked objects).
    unsafe { cudasimLaunchKernel(s, c"body".as_ptr(), micros * 1_000, Some(f), arg) }
}

/// A leaked counter and its address as a C `void *`.
fn counter() -> (&'static AtomicU32, *mut c_void) {
    let c: &'static AtomicU32 = Box::leak(Box::new(AtomicU32::new(0)));
    (c, c as *const AtomicU32 as *mut c_void)
}

/// A C body / host function: adds one to the `AtomicU32` behind `arg`.
unsafe extern "C" fn bump(arg: *mut c_void) {
    // SAFETY: every caller passes a leaked AtomicU32.
    unsafe { &*arg.cast::<AtomicU32>() }.fetch_add(1, Ordering::SeqCst);
}

/// What [`log_tag`] appends to.
struct Tag {
    log: &'static Mutex<Vec<&'static str>>,
    tag: &'static str,
}

fn tag(log: &'static Mutex<Vec<&'static str>>, tag: &'static str) -> *mut c_void {
    Box::leak(Box::new(Tag { log, tag })) as *mut Tag as *mut c_void
}

fn new_log() -> &'static Mutex<Vec<&'static str>> {
    Box::leak(Box::new(Mutex::new(Vec::new())))
}

/// A C body / host function: appends its tag to its log.
unsafe extern "C" fn log_tag(arg: *mut c_void) {
    // SAFETY: every caller passes a leaked Tag.
    let t = unsafe { &*arg.cast::<Tag>() };
    t.log.lock().unwrap().push(t.tag);
}

/// Device memory of the current device.
fn dmalloc(bytes: usize) -> *mut c_void {
    let mut p = null_mut();
    check!(cudaSuccess, cudaMalloc(&mut p, bytes));
    p
}

fn core_stream(s: cudaStream_t) -> Stream {
    Stream::from_raw(s as usize as u64)
}

fn core_event(e: cudaEvent_t) -> Event {
    Event::from_raw(e as usize as u64)
}

/// Virtual microseconds.
fn us(p: &Process) -> u64 {
    p.now().as_nanos() / 1_000
}

/// A kernel (core API) whose body fails: a 719 LaunchFailure when it runs.
fn failing(micros: u64) -> Kernel {
    Kernel::new("faulty")
        .duration(Duration::from_micros(micros))
        .body(|_| Err("device-side assert".into()))
}

/// A kernel (core API) whose body writes to an unallocated device address: a 700 IllegalAddress when it runs.
fn illegal_access() -> Kernel {
    let nowhere = streamsim::DevicePtr(streamsim::memory::DEVICE_ADDRESS_BASE + (1 << 39));
    Kernel::new("oob").body(move |ctx| ctx.write(nowhere, &[1]))
}

/// A C host function that does nothing.
unsafe extern "C" fn nothing(_: *mut c_void) {}

/// The bound process's last error, structured (to tell the 400s apart).
fn last(p: &Process) -> SimError {
    p.peek_last_error().expect("the call set the last error")
}

// ------------------------------------------------------------------------------------------------ codes

/// cuda-musa.md · Error codes: every listed value, and the flags, special handles and IPC handle size.
#[test]
fn error_codes_flags_and_special_handles_have_the_vendor_values() {
    let codes: &[(cudaError_t, cudaError_t)] = &[
        (cudaSuccess, 0),
        (cudaErrorInvalidValue, 1),
        (cudaErrorMemoryAllocation, 2),
        (cudaErrorInvalidConfiguration, 9),
        (cudaErrorNoDevice, 100),
        (cudaErrorInvalidDevice, 101),
        (cudaErrorDeviceUninitialized, 201),
        (cudaErrorInvalidResourceHandle, 400),
        (cudaErrorNotReady, 600),
        (cudaErrorIllegalAddress, 700),
        (cudaErrorPeerAccessAlreadyEnabled, 704),
        (cudaErrorPeerAccessNotEnabled, 705),
        (cudaErrorContextIsDestroyed, 709),
        (cudaErrorTooManyPeers, 711),
        (cudaErrorLaunchFailure, 719),
        (cudaErrorNotPermitted, 800),
        (cudaErrorNotSupported, 801),
        (cudaErrorTimeout, 909),
        (cudaErrorUnknown, 999),
    ];
    for &(c, v) in codes {
        assert_eq!(c, v, "{}", err_name(c));
    }
    assert_eq!(cudaEventDefault, 0x0);
    assert_eq!(cudaEventBlockingSync, 0x1);
    assert_eq!(cudaEventDisableTiming, 0x2);
    assert_eq!(cudaEventInterprocess, 0x4);
    assert_eq!(cudaStreamDefault, 0x0);
    assert_eq!(cudaStreamNonBlocking, 0x1);
    assert_eq!(cudaStreamLegacy as usize, 0x1);
    assert_eq!(cudaStreamPerThread as usize, 0x2);
    assert_eq!(CUDA_IPC_HANDLE_SIZE, 64);
    assert_eq!(std::mem::size_of::<cudaIpcEventHandle_t>(), 64);
    assert_eq!(
        std::mem::size_of::<cudaStream_t>(),
        std::mem::size_of::<usize>()
    );
}

/// GetErrorName / GetErrorString: the vendor's enumerator names and descriptions, static strings.
#[test]
fn get_error_name_and_string() {
    let names: &[(cudaError_t, &str)] = &[
        (0, "cudaSuccess"),
        (1, "cudaErrorInvalidValue"),
        (2, "cudaErrorMemoryAllocation"),
        (9, "cudaErrorInvalidConfiguration"),
        (100, "cudaErrorNoDevice"),
        (101, "cudaErrorInvalidDevice"),
        (201, "cudaErrorDeviceUninitialized"),
        (400, "cudaErrorInvalidResourceHandle"),
        (600, "cudaErrorNotReady"),
        (700, "cudaErrorIllegalAddress"),
        (704, "cudaErrorPeerAccessAlreadyEnabled"),
        (705, "cudaErrorPeerAccessNotEnabled"),
        (709, "cudaErrorContextIsDestroyed"),
        (711, "cudaErrorTooManyPeers"),
        (719, "cudaErrorLaunchFailure"),
        (800, "cudaErrorNotPermitted"),
        (801, "cudaErrorNotSupported"),
        (909, "cudaErrorTimeout"),
        (999, "cudaErrorUnknown"),
    ];
    for &(c, n) in names {
        assert_eq!(err_name(c), n);
    }
    let string = |c| {
        // SAFETY: a static NUL-terminated string.
        unsafe { CStr::from_ptr(cudaGetErrorString(c)) }
            .to_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(string(0), "no error");
    assert_eq!(string(1), "invalid argument");
    assert_eq!(string(101), "invalid device ordinal");
    assert_eq!(string(201), "invalid device context");
    assert_eq!(string(400), "invalid resource handle");
    assert_eq!(string(600), "device not ready");
    assert_eq!(string(700), "an illegal memory access was encountered");
    assert_eq!(string(719), "unspecified launch failure");
    assert_eq!(string(800), "operation not permitted");
    // Unknown codes still get a string; the pointers are static (the same on every call).
    for c in [3_u32, 12_345, u32::MAX] {
        assert!(!cudaGetErrorName(c).is_null());
        assert!(!string(c).is_empty());
    }
    assert_eq!(cudaGetErrorName(600), cudaGetErrorName(600));
    assert_eq!(cudaGetErrorString(600), cudaGetErrorString(600));
}

// ------------------------------------------------------------------------------------------------ events

/// cuda-musa.md · Events · EventCreate · — → Success; the event belongs to the calling thread's current device
#[test]
fn event_create_belongs_to_the_current_device() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    let mut e0 = null_mut();
    check!(cudaSuccess, cudaEventCreate(&mut e0));
    check!(cudaSuccess, cudaSetDevice(1));
    let mut e1 = null_mut();
    check!(cudaSuccess, cudaEventCreate(&mut e1));
    let s1 = stream(cudaStreamDefault);
    check!(cudaSuccess, cudaSetDevice(0));
    assert_eq!(p.event_device(core_event(e0)), Ok(0));
    assert_eq!(p.event_device(core_event(e1)), Ok(1));
    // The event belongs to device 1: recording it on device 0's NULL stream is refused, on device 1's
    // stream it works.
    check!(
        cudaErrorInvalidResourceHandle,
        cudaEventRecord(e1, null_mut())
    );
    check!(cudaSuccess, cudaEventRecord(e0, null_mut()));
    check!(cudaSuccess, cudaEventRecord(e1, s1));
    check!(cudaErrorInvalidValue, cudaEventCreate(null_mut()));
}

/// cuda-musa.md · Events · EventCreateWithFlags · any OR of BlockingSync, DisableTiming, Interprocess where
/// Interprocess comes with DisableTiming → Success
#[test]
fn event_create_with_every_valid_flag_combination() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let mut valid = 0;
    for flags in 0..8 {
        if flags & cudaEventInterprocess != 0 && flags & cudaEventDisableTiming == 0 {
            continue;
        }
        let mut e = null_mut();
        check!(cudaSuccess, cudaEventCreateWithFlags(&mut e, flags));
        assert!(!e.is_null());
        check!(cudaSuccess, cudaEventDestroy(e));
        valid += 1;
    }
    assert_eq!(valid, 6);
}

/// cuda-musa.md · Events · EventCreateWithFlags · Interprocess without DisableTiming → 1 InvalidValue
#[test]
fn event_create_interprocess_without_disable_timing() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    for flags in [
        cudaEventInterprocess,
        cudaEventInterprocess | cudaEventBlockingSync,
    ] {
        let mut e = null_mut();
        check!(
            cudaErrorInvalidValue,
            cudaEventCreateWithFlags(&mut e, flags)
        );
        assert!(e.is_null(), "no handle is written on failure");
    }
}

/// cuda-musa.md · Events · EventCreateWithFlags · unknown bit, or NULL out-pointer → 1 InvalidValue
#[test]
fn event_create_unknown_bit_or_null_out_pointer() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    for flags in [0x8, 0x10, 0x8000_0000, u32::MAX] {
        let mut e = null_mut();
        check!(
            cudaErrorInvalidValue,
            cudaEventCreateWithFlags(&mut e, flags)
        );
    }
    check!(
        cudaErrorInvalidValue,
        cudaEventCreateWithFlags(null_mut(), cudaEventDefault)
    );
    check!(cudaErrorInvalidValue, cudaEventCreate(null_mut()));
}

/// cuda-musa.md · Events · EventRecord · event and stream on different devices → 400
#[test]
fn event_record_on_a_stream_of_another_device() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    let e0 = event(cudaEventDefault);
    let s0 = stream(cudaStreamDefault);
    check!(cudaSuccess, cudaSetDevice(1));
    let e1 = event(cudaEventDefault);
    let s1 = stream(cudaStreamDefault);
    check!(cudaErrorInvalidResourceHandle, cudaEventRecord(e0, s1));
    assert!(matches!(last(&p), SimError::WrongDevice { .. }));
    check!(cudaErrorInvalidResourceHandle, cudaEventRecord(e1, s0));
    check!(
        cudaErrorInvalidResourceHandle,
        cudaEventRecordWithFlags(e1, s0, cudaEventRecordDefault)
    );
    check!(cudaSuccess, cudaEventRecord(e1, s1));
}

/// cuda-musa.md · Events · EventRecord · event recorded again → the new record replaces the captured state;
/// waits issued earlier keep the old capture; Query/Synchronize/ElapsedTime use the newest
#[test]
fn event_record_again_replaces_the_capture() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let (s1, s2) = (stream(cudaStreamNonBlocking), stream(cudaStreamNonBlocking));
    let (start, e) = (event(cudaEventDefault), event(cudaEventDefault));
    check!(cudaSuccess, cudaEventRecord(start, s1));
    check!(cudaSuccess, kernel(s1, 100));
    check!(cudaSuccess, cudaEventRecord(e, s1)); // capture 1: the 100 µs kernel
    check!(cudaSuccess, cudaStreamWaitEvent(s2, e, 0)); // waits for capture 1
    check!(cudaSuccess, kernel(s1, 5_000));
    check!(cudaSuccess, cudaEventRecord(e, s1)); // capture 2: also the 5 ms kernel
    check!(cudaSuccess, kernel(s2, 10));
    // s2 waited for capture 1 only: it is done long before the 5 ms kernel.
    check!(cudaSuccess, cudaStreamSynchronize(s2));
    assert!(us(&p) < 1_000, "s2 finished at {} µs", us(&p));
    check!(cudaErrorNotReady, cudaStreamQuery(s1));
    // Query, Synchronize and ElapsedTime use capture 2.
    check!(cudaErrorNotReady, cudaEventQuery(e));
    check!(cudaSuccess, cudaEventSynchronize(e));
    assert!(us(&p) > 5_000, "synchronize waited for capture 2");
    check!(cudaSuccess, cudaStreamQuery(s1));
    let mut ms = 0.0f32;
    check!(cudaSuccess, cudaEventElapsedTime(&mut ms, start, e));
    assert!(ms > 5.1 && ms < 5.2, "elapsed {ms} ms spans both kernels");
}

/// cuda-musa.md · Events · EventRecord · NULL stream → records on the device's default (legacy) stream:
/// captures all earlier work of the blocking streams of that device
#[test]
fn event_record_on_the_null_stream_captures_blocking_streams() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let blocking = stream(cudaStreamDefault);
    let non_blocking = stream(cudaStreamNonBlocking);
    let (hits, arg) = counter();
    check!(cudaSuccess, kernel_with(blocking, 500, bump, arg));
    check!(cudaSuccess, kernel(non_blocking, 5_000));
    for null_or_legacy in [null_mut(), cudaStreamLegacy] {
        let e = event(cudaEventDefault);
        check!(cudaSuccess, cudaEventRecord(e, null_or_legacy));
        check!(cudaErrorNotReady, cudaEventQuery(e));
        check!(cudaSuccess, cudaEventSynchronize(e));
        // The record waited for the blocking stream's kernel (its body has run) ...
        assert_eq!(hits.load(Ordering::SeqCst), 1);
        check!(cudaSuccess, cudaStreamQuery(blocking));
        // ... and not for the non-blocking stream.
        check!(cudaErrorNotReady, cudaStreamQuery(non_blocking));
        assert!(us(&p) < 1_000);
    }
}

/// cuda-musa.md · Events · EventQuery · never recorded → 0 Success
#[test]
fn event_query_never_recorded() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    for flags in [0, cudaEventBlockingSync, cudaEventDisableTiming] {
        check!(cudaSuccess, cudaEventQuery(event(flags)));
    }
}

/// cuda-musa.md · Events · EventQuery · captured work not finished → 600 NotReady
#[test]
fn event_query_pending_work() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let s = stream(cudaStreamDefault);
    let e = event(cudaEventDefault);
    check!(cudaSuccess, kernel(s, 100));
    check!(cudaSuccess, cudaEventRecord(e, s));
    // A host spin-loop on the query terminates: each call advances the virtual host clock by 1 µs.
    let mut spins = 0;
    loop {
        // SAFETY: a live event.
        match unsafe { cudaEventQuery(e) } {
            cudaErrorNotReady => spins += 1,
            cudaSuccess => break,
            other => panic!("EventQuery returned {other} ({})", err_name(other)),
        }
    }
    // created (t1, t2), kernel launched at t3 → 5..105 µs, recorded at t4: ready from t105.
    assert_eq!(spins, 100);
    assert_eq!(us(&p), 105);
}

/// cuda-musa.md · Events · EventQuery / EventSynchronize · event of a device other than the current one →
/// works (Success / NotReady)
#[test]
fn event_query_and_synchronize_from_another_device() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    check!(cudaSuccess, cudaSetDevice(1));
    let (s1, e1) = (stream(cudaStreamDefault), event(cudaEventDefault));
    check!(cudaSuccess, kernel(s1, 300));
    check!(cudaSuccess, cudaEventRecord(e1, s1));
    check!(cudaSuccess, cudaSetDevice(0));
    check!(cudaErrorNotReady, cudaEventQuery(e1));
    check!(cudaSuccess, cudaEventSynchronize(e1));
    check!(cudaSuccess, cudaEventQuery(e1));
    let mut d = -1;
    check!(cudaSuccess, cudaGetDevice(&mut d));
    assert_eq!(d, 0);
}

/// cuda-musa.md · Events · EventSynchronize · never recorded → 0 at once
#[test]
fn event_synchronize_never_recorded_returns_at_once() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let s = stream(cudaStreamDefault);
    check!(cudaSuccess, kernel(s, 10_000));
    let e = event(cudaEventDefault);
    let before = p.now();
    check!(cudaSuccess, cudaEventSynchronize(e));
    // Only the call overhead: it waited for nothing.
    assert_eq!(p.now().as_nanos() - before.as_nanos(), 1_000);
    check!(cudaErrorNotReady, cudaStreamQuery(s));
}

/// One timing scenario's observable results with events of `flags`.
fn timing_scenario(flags: c_uint) -> Vec<(cudaError_t, u64, u32)> {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let s = stream(cudaStreamDefault);
    let (a, b) = (event(flags), event(flags));
    let mut out = Vec::new();
    let mut note = |code: cudaError_t, ms: f32| out.push((code, p.now().as_nanos(), ms.to_bits()));
    let mut ms = 0.0f32;
    // SAFETY (all calls): live handles and valid out-pointers.
    unsafe {
        note(cudaEventRecord(a, s), ms);
        note(kernel(s, 250), ms);
        note(cudaEventRecord(b, s), ms);
        note(cudaEventQuery(b), ms);
        note(cudaEventSynchronize(b), ms);
        note(cudaEventQuery(b), ms);
        let c = cudaEventElapsedTime(&mut ms, a, b);
        note(c, ms);
    }
    out
}

/// cuda-musa.md · Events · EventSynchronize · BlockingSync or not → same results (blocking vs spinning only)
#[test]
fn event_synchronize_blocking_sync_gives_the_same_results() {
    let spin = timing_scenario(cudaEventDefault);
    let block = timing_scenario(cudaEventBlockingSync);
    assert_eq!(spin, block);
    let codes: Vec<_> = spin.iter().map(|&(c, ..)| c).collect();
    assert_eq!(codes, [0, 0, 0, 600, 0, 0, 0]);
    assert_eq!(f32::from_bits(spin[6].2), 0.251);
}

/// cuda-musa.md · Events · EventElapsedTime · check order: NULL out-pointer (1) → different devices (400) →
/// either never recorded (400) → either DisableTiming (400) → either not finished (600) → as listed: 400 beats
/// 600
#[test]
fn event_elapsed_time_check_order() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    let s = stream(cudaStreamDefault);
    let done = event(cudaEventDefault);
    check!(cudaSuccess, cudaEventRecord(done, s));
    check!(cudaSuccess, cudaStreamSynchronize(s));
    let never = event(cudaEventDefault);
    let untimed_done = event(cudaEventDisableTiming);
    check!(cudaSuccess, cudaEventRecord(untimed_done, s));
    check!(cudaSuccess, kernel(s, 10_000));
    let pending = event(cudaEventDefault);
    check!(cudaSuccess, cudaEventRecord(pending, s));
    let untimed_pending = event(cudaEventDisableTiming);
    check!(cudaSuccess, cudaEventRecord(untimed_pending, s));
    check!(cudaSuccess, cudaSetDevice(1));
    let other_never = event(cudaEventDisableTiming);
    check!(cudaSuccess, cudaSetDevice(0));
    let mut ms = 0.0f32;

    // 1: a NULL out-pointer beats everything, even two events of different devices never recorded.
    check!(
        cudaErrorInvalidValue,
        cudaEventElapsedTime(null_mut(), never, other_never)
    );
    // 400 (different devices) beats never recorded and DisableTiming.
    check!(
        cudaErrorInvalidResourceHandle,
        cudaEventElapsedTime(&mut ms, never, other_never)
    );
    assert!(
        matches!(last(&p), SimError::WrongDevice { .. }),
        "{}",
        last(&p)
    );
    check!(
        cudaErrorInvalidResourceHandle,
        cudaEventElapsedTime(&mut ms, done, other_never)
    );
    assert!(
        matches!(last(&p), SimError::WrongDevice { .. }),
        "{}",
        last(&p)
    );
    // Never recorded (either side) beats DisableTiming (either side) and not finished.
    for (a, b) in [
        (never, untimed_done),
        (untimed_done, never),
        (never, pending),
    ] {
        check!(
            cudaErrorInvalidResourceHandle,
            cudaEventElapsedTime(&mut ms, a, b)
        );
        assert!(
            matches!(last(&p), SimError::EventNotRecorded { .. }),
            "{}",
            last(&p)
        );
    }
    // DisableTiming (either side) beats not finished: 400 beats 600.
    for (a, b) in [
        (untimed_done, pending),
        (pending, untimed_done),
        (done, untimed_pending),
    ] {
        check!(
            cudaErrorInvalidResourceHandle,
            cudaEventElapsedTime(&mut ms, a, b)
        );
        assert!(
            matches!(last(&p), SimError::TimingDisabled { .. }),
            "{}",
            last(&p)
        );
    }
    // Not finished (either side): 600.
    check!(
        cudaErrorNotReady,
        cudaEventElapsedTime(&mut ms, done, pending)
    );
    check!(
        cudaErrorNotReady,
        cudaEventElapsedTime(&mut ms, pending, done)
    );
    check!(cudaSuccess, cudaEventSynchronize(pending));
    check!(cudaSuccess, cudaEventElapsedTime(&mut ms, done, pending));
    assert!(ms > 10.0);
}

/// cuda-musa.md · Events · EventElapsedTime · start == end, finished → 0.0
#[test]
fn event_elapsed_time_same_event() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let e = event(cudaEventDefault);
    check!(cudaSuccess, kernel(null_mut(), 100));
    check!(cudaSuccess, cudaEventRecord(e, null_mut()));
    check!(cudaSuccess, cudaEventSynchronize(e));
    let mut ms = -1.0f32;
    check!(cudaSuccess, cudaEventElapsedTime(&mut ms, e, e));
    assert_eq!(ms, 0.0);
}

/// cuda-musa.md · Events · EventElapsedTime · end finished before start → negative milliseconds, Success
#[test]
fn event_elapsed_time_negative() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let (fast, slow) = (stream(cudaStreamNonBlocking), stream(cudaStreamNonBlocking));
    let (start, end) = (event(cudaEventDefault), event(cudaEventDefault));
    check!(cudaSuccess, kernel(slow, 1_000));
    check!(cudaSuccess, cudaEventRecord(start, slow));
    check!(cudaSuccess, cudaEventRecord(end, fast));
    check!(cudaSuccess, cudaDeviceSynchronize());
    let mut ms = 0.0f32;
    check!(cudaSuccess, cudaEventElapsedTime(&mut ms, start, end));
    // start at 1007 µs (kernel launched at t5: 7..1007), end at 9 µs (recorded at t7 on an idle stream).
    assert_eq!(ms, -0.998);
}

/// cuda-musa.md · Events · EventElapsedTime · resolution → the simulator is exact (virtual nanoseconds)
#[test]
fn event_elapsed_time_is_exact_to_the_nanosecond() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let (mut a, mut b) = (null_mut(), null_mut());
    check!(cudaSuccess, cudaEventCreate(&mut a)); // t1
    check!(cudaSuccess, cudaEventCreate(&mut b)); // t2
    check!(cudaSuccess, cudaEventRecord(a, null_mut())); // t3 → at 5 µs
    check!(
        cudaSuccess,
        cudasimLaunchKernel(null_mut(), c"k".as_ptr(), 1_234_567, None, null_mut())
    ); // t4 → 6 µs .. 1 240 567 ns
    check!(cudaSuccess, cudaEventRecord(b, null_mut())); // t5 → at 1 240 567 ns
    check!(cudaSuccess, cudaEventSynchronize(b));
    let mut ms = 0.0f32;
    check!(cudaSuccess, cudaEventElapsedTime(&mut ms, a, b));
    assert_eq!(ms, (1_235_567_f64 / 1e6) as f32);
}

/// cuda-musa.md · Events · EventDestroy · record still pending → Success at once; the work still runs;
/// resources freed at completion
#[test]
fn event_destroy_with_a_pending_record() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let s = stream(cudaStreamDefault);
    let e = event(cudaEventDefault);
    let (hits, arg) = counter();
    check!(cudaSuccess, kernel_with(s, 1_000, bump, arg));
    check!(cudaSuccess, cudaEventRecord(e, s));
    let before = p.now();
    check!(cudaSuccess, cudaEventDestroy(e));
    assert_eq!(p.now().as_nanos() - before.as_nanos(), 1_000, "at once");
    check!(cudaErrorNotReady, cudaStreamQuery(s));
    check!(cudaSuccess, cudaStreamSynchronize(s));
    assert_eq!(hits.load(Ordering::SeqCst), 1, "the work still ran");
    check!(cudaErrorInvalidResourceHandle, cudaEventQuery(e));
}

/// cuda-musa.md · Events · any event call · destroyed or never-created handle → sim: 400
/// InvalidResourceHandle, with a message that says "destroyed"
#[test]
fn event_calls_with_destroyed_or_never_created_handles() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let s = stream(cudaStreamDefault);
    let good = event(cudaEventDefault);
    check!(cudaSuccess, cudaEventRecord(good, s));
    let dead = event(cudaEventDefault);
    check!(cudaSuccess, cudaEventDestroy(dead));
    let forged = 0xdead_beef_usize as cudaEvent_t;
    for (bad, word) in [(dead, "destroyed"), (forged, "never created")] {
        let mut ms = 0.0f32;
        let mut h = cudaIpcEventHandle_t { reserved: [0; 64] };
        // SAFETY (all calls): valid out-pointers; the handles are what is tested.
        let codes = unsafe {
            [
                ("EventRecord", cudaEventRecord(bad, s)),
                ("EventRecordWithFlags", cudaEventRecordWithFlags(bad, s, 0)),
                ("EventQuery", cudaEventQuery(bad)),
                ("EventSynchronize", cudaEventSynchronize(bad)),
                (
                    "EventElapsedTime a",
                    cudaEventElapsedTime(&mut ms, bad, good),
                ),
                (
                    "EventElapsedTime b",
                    cudaEventElapsedTime(&mut ms, good, bad),
                ),
                ("StreamWaitEvent", cudaStreamWaitEvent(s, bad, 0)),
                ("IpcGetEventHandle", cudaIpcGetEventHandle(&mut h, bad)),
                ("EventDestroy", cudaEventDestroy(bad)),
            ]
        };
        for (call, code) in codes {
            assert_eq!(
                code, cudaErrorInvalidResourceHandle,
                "{call} with a {word} event"
            );
        }
        let msg = last(&p).to_string();
        assert!(msg.contains(word), "message {msg:?} should say {word:?}");
    }
}

// ------------------------------------------------------------------------------------------------ streams

/// cuda-musa.md · Stream wait, streams, devices · StreamWaitEvent · event from another device → allowed
/// (unlike ACL)
#[test]
fn stream_wait_event_on_an_event_of_another_device() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    check!(cudaSuccess, cudaSetDevice(1));
    let (s1, e1) = (stream(cudaStreamDefault), event(cudaEventDefault));
    check!(cudaSuccess, kernel(s1, 2_000));
    check!(cudaSuccess, cudaEventRecord(e1, s1));
    check!(cudaSuccess, cudaSetDevice(0));
    let s0 = stream(cudaStreamDefault);
    check!(cudaSuccess, cudaStreamWaitEvent(s0, e1, 0));
    check!(cudaSuccess, kernel(s0, 10));
    check!(cudaSuccess, cudaStreamSynchronize(s0));
    // s0's kernel ran after device 1's record: the event is complete by then.
    check!(cudaSuccess, cudaEventQuery(e1));
    assert!(us(&p) > 2_000);
}

/// cuda-musa.md · Stream wait, streams, devices · StreamWaitEvent · event never recorded → no-op, Success
#[test]
fn stream_wait_event_never_recorded() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let s = stream(cudaStreamDefault);
    let e = event(cudaEventDefault);
    check!(cudaSuccess, cudaStreamWaitEvent(s, e, 0));
    check!(cudaSuccess, cudaStreamQuery(s));
    check!(cudaSuccess, kernel(s, 10));
    check!(cudaSuccess, cudaStreamSynchronize(s));
    assert_eq!(
        us(&p),
        17,
        "nothing held the kernel back (launched at t5 → 7..17 µs)"
    );
}

/// cuda-musa.md · Stream wait, streams, devices · StreamWaitEvent · flags not 0 → 1 InvalidValue
#[test]
fn stream_wait_event_with_flags() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let s = stream(cudaStreamDefault);
    let e = event(cudaEventDefault);
    check!(cudaSuccess, cudaEventRecord(e, s));
    for flags in [1, 2, 0x100, u32::MAX] {
        check!(cudaErrorInvalidValue, cudaStreamWaitEvent(s, e, flags));
    }
    check!(cudaSuccess, cudaStreamWaitEvent(s, e, cudaEventWaitDefault));
}

/// cuda-musa.md · Stream wait, streams, devices · StreamWaitEvent · semantics → waits for the capture that
/// exists at the time of the call; later re-records do not change it
#[test]
fn stream_wait_event_captures_at_the_call() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let (s1, s2) = (stream(cudaStreamNonBlocking), stream(cudaStreamNonBlocking));
    let e = event(cudaEventDisableTiming);
    let log = new_log();
    check!(
        cudaSuccess,
        kernel_with(s1, 100, log_tag, tag(log, "first"))
    );
    check!(cudaSuccess, cudaEventRecord(e, s1));
    check!(cudaSuccess, cudaStreamWaitEvent(s2, e, 0));
    check!(cudaSuccess, kernel(s1, 3_000));
    check!(cudaSuccess, cudaEventRecord(e, s1));
    check!(
        cudaSuccess,
        kernel_with(s2, 10, log_tag, tag(log, "waiter"))
    );
    check!(cudaSuccess, cudaStreamSynchronize(s2));
    assert_eq!(*log.lock().unwrap(), ["first", "waiter"]);
    check!(cudaErrorNotReady, cudaStreamQuery(s1));
    check!(cudaErrorNotReady, cudaEventQuery(e));
    assert!(us(&p) < 200, "s2 finished at {} µs", us(&p));
}

/// cuda-musa.md · Stream wait, streams, devices · StreamCreateWithFlags · unknown flag, NULL out-pointer → 1
#[test]
fn stream_create_unknown_flag_or_null_out_pointer() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    for flags in [0x2, 0x4, 0x8000_0000, u32::MAX] {
        let mut s = null_mut();
        check!(
            cudaErrorInvalidValue,
            cudaStreamCreateWithFlags(&mut s, flags)
        );
        assert!(s.is_null());
    }
    check!(
        cudaErrorInvalidValue,
        cudaStreamCreateWithFlags(null_mut(), cudaStreamNonBlocking)
    );
    check!(cudaErrorInvalidValue, cudaStreamCreate(null_mut()));
    check!(
        cudaErrorInvalidValue,
        cudaStreamCreateWithPriority(null_mut(), 0, 0)
    );
    let mut s = null_mut();
    check!(
        cudaErrorInvalidValue,
        cudaStreamCreateWithPriority(&mut s, 2, 0)
    );
    // The defined flags work and read back.
    for flags in [cudaStreamDefault, cudaStreamNonBlocking] {
        let s = stream(flags);
        let mut f = 99;
        check!(cudaSuccess, cudaStreamGetFlags(s, &mut f));
        assert_eq!(f, flags);
    }
}

/// cuda-musa.md · Stream wait, streams, devices · StreamCreateWithPriority · out of range → clamped silently;
/// lower number = higher priority; DeviceGetStreamPriorityRange gives (least 0, greatest -5)
#[test]
fn stream_priorities_are_clamped() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let (mut least, mut greatest) = (99, 99);
    check!(
        cudaSuccess,
        cudaDeviceGetStreamPriorityRange(&mut least, &mut greatest)
    );
    assert_eq!((least, greatest), (0, -5));
    // Either out-pointer may be NULL.
    let mut only = 99;
    check!(
        cudaSuccess,
        cudaDeviceGetStreamPriorityRange(null_mut(), &mut only)
    );
    assert_eq!(only, -5);
    for (asked, got) in [
        (-100, -5),
        (-5, -5),
        (-3, -3),
        (0, 0),
        (7, 0),
        (c_int::MIN, -5),
        (c_int::MAX, 0),
    ] {
        let mut s = null_mut();
        check!(
            cudaSuccess,
            cudaStreamCreateWithPriority(&mut s, cudaStreamNonBlocking, asked)
        );
        let mut prio = 99;
        check!(cudaSuccess, cudaStreamGetPriority(s, &mut prio));
        assert_eq!(prio, got, "asked {asked}");
        let mut f = 99;
        check!(cudaSuccess, cudaStreamGetFlags(s, &mut f));
        assert_eq!(f, cudaStreamNonBlocking);
    }
    let mut prio = 99;
    let mut s = null_mut();
    check!(cudaSuccess, cudaStreamCreate(&mut s));
    check!(cudaSuccess, cudaStreamGetPriority(s, &mut prio));
    assert_eq!(
        prio, 0,
        "cudaStreamCreate's priority is the default (least)"
    );
}

/// cuda-musa.md · Stream wait, streams, devices · StreamQuery · all work done / empty → 0; else 600
#[test]
fn stream_query_empty_pending_done() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let s = stream(cudaStreamDefault);
    check!(cudaSuccess, cudaStreamQuery(s));
    check!(cudaSuccess, kernel(s, 50));
    check!(cudaErrorNotReady, cudaStreamQuery(s));
    check!(cudaSuccess, cudaStreamSynchronize(s));
    check!(cudaSuccess, cudaStreamQuery(s));
    for special in [null_mut(), cudaStreamLegacy, cudaStreamPerThread] {
        check!(cudaSuccess, cudaStreamQuery(special));
    }
}

/// cuda-musa.md · Stream wait, streams, devices · StreamSynchronize · — → blocks until all work of that stream
/// is done
#[test]
fn stream_synchronize_waits_for_that_stream() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let (a, b) = (stream(cudaStreamNonBlocking), stream(cudaStreamNonBlocking));
    let (hits, arg) = counter();
    check!(cudaSuccess, kernel(a, 100));
    check!(cudaSuccess, kernel_with(a, 100, bump, arg));
    check!(cudaSuccess, kernel(b, 10_000));
    check!(cudaSuccess, cudaStreamSynchronize(a));
    assert_eq!(hits.load(Ordering::SeqCst), 1);
    // a: created at t1; kernels launched at t3 (5..105 µs) and t4 (105..205 µs).
    assert_eq!(us(&p), 205);
    check!(cudaErrorNotReady, cudaStreamQuery(b));
}

/// cuda-musa.md · Stream wait, streams, devices · StreamSynchronize · — → returns the stream's async error if
/// any (719 LaunchFailure for a failing body, 700 IllegalAddress for a bad access)
#[test]
fn stream_synchronize_returns_the_async_error() {
    for (kernel, want) in [
        (failing(100), cudaErrorLaunchFailure),
        (illegal_access(), cudaErrorIllegalAddress),
    ] {
        let (_m, p) = machine(1);
        let _g = p.bind();
        let s = stream(cudaStreamDefault);
        p.launch(core_stream(s), kernel).unwrap();
        check!(cudaSuccess, cudaGetLastError()); // the launch itself succeeded
        check!(want, cudaStreamSynchronize(s));
    }
}

/// cuda-musa.md · Stream wait, streams, devices · DeviceSynchronize · — → waits for all work in all streams of
/// the current device from all host threads of the process
#[test]
fn device_synchronize_covers_every_thread_of_the_process() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    check!(cudaSuccess, cudaSetDevice(1));
    let other_device = stream(cudaStreamDefault);
    check!(cudaSuccess, kernel(other_device, 50_000));
    check!(cudaSuccess, cudaSetDevice(0));
    let (hits, _) = counter();
    let p2 = p.clone();
    let theirs = std::thread::spawn(move || {
        let _g = p2.bind();
        let s = stream(cudaStreamNonBlocking);
        let arg = hits as *const AtomicU32 as *mut c_void;
        check!(cudaSuccess, kernel_with(s, 3_000, bump, arg));
        s as usize
    })
    .join()
    .unwrap() as cudaStream_t;
    let mine = stream(cudaStreamNonBlocking);
    check!(cudaSuccess, kernel(mine, 100));
    check!(cudaSuccess, cudaDeviceSynchronize());
    assert_eq!(hits.load(Ordering::SeqCst), 1);
    check!(cudaSuccess, cudaStreamQuery(theirs));
    check!(cudaSuccess, cudaStreamQuery(mine));
    assert!(us(&p) >= 3_000);
    // Device 1's work is not covered.
    check!(cudaErrorNotReady, cudaStreamQuery(other_device));
}

/// cuda-musa.md · Stream wait, streams, devices · StreamDestroy · work pending → Success at once; work
/// completes
#[test]
fn stream_destroy_with_pending_work() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    for flags in [cudaStreamDefault, cudaStreamNonBlocking] {
        let s = stream(flags);
        let (hits, arg) = counter();
        check!(cudaSuccess, kernel_with(s, 2_000, bump, arg));
        let before = p.now();
        check!(cudaSuccess, cudaStreamDestroy(s));
        assert_eq!(p.now().as_nanos() - before.as_nanos(), 1_000, "at once");
        check!(cudaErrorInvalidResourceHandle, cudaStreamQuery(s));
        check!(cudaSuccess, cudaDeviceSynchronize());
        assert_eq!(hits.load(Ordering::SeqCst), 1, "the work completed");
    }
}

/// cuda-musa.md · Stream wait, streams, devices · StreamDestroy · NULL → 400
#[test]
fn stream_destroy_null() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    check!(
        cudaErrorInvalidResourceHandle,
        cudaStreamDestroy(null_mut())
    );
    check!(
        cudaErrorInvalidResourceHandle,
        cudaStreamDestroy(cudaStreamLegacy)
    );
    check!(
        cudaErrorInvalidResourceHandle,
        cudaStreamDestroy(cudaStreamPerThread)
    );
    // The NULL stream still works afterwards.
    check!(cudaSuccess, kernel(null_mut(), 10));
    check!(cudaSuccess, cudaStreamSynchronize(null_mut()));
}

/// cuda-musa.md · Stream wait, streams, devices · kernel launch · into a stream of a device other than the
/// current one → 400
#[test]
fn kernel_launch_into_a_stream_of_another_device() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    check!(cudaSuccess, cudaSetDevice(1));
    let s1 = stream(cudaStreamDefault);
    check!(cudaSuccess, cudaSetDevice(0));
    check!(cudaErrorInvalidResourceHandle, kernel(s1, 10));
    let (hits, arg) = counter();
    check!(
        cudaErrorInvalidResourceHandle,
        cudasimLaunchKernelEx(s1, c"ex".as_ptr(), 10, Some(bump), arg, null(), 0)
    );
    check!(cudaSuccess, cudaSetDevice(1));
    check!(cudaSuccess, kernel_with(s1, 10, bump, arg));
    check!(cudaSuccess, cudaStreamSynchronize(s1));
    assert_eq!(
        hits.load(Ordering::SeqCst),
        1,
        "only the accepted launch ran"
    );
}

/// cuda-musa.md · Stream wait, streams, devices · MemcpyAsync / MemcpyPeerAsync · into a stream of another
/// device → allowed
#[test]
fn memcpy_async_into_a_stream_of_another_device() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    check!(cudaSuccess, cudaSetDevice(1));
    let s1 = stream(cudaStreamDefault);
    let d1 = dmalloc(64);
    check!(cudaSuccess, cudaSetDevice(0));
    let d0 = dmalloc(64);
    let src: Vec<u8> = (0..64).collect();
    check!(
        cudaSuccess,
        cudaMemcpy(d0, src.as_ptr().cast(), 64, cudaMemcpyHostToDevice)
    );
    let mut host = null_mut();
    check!(cudaSuccess, cudaMallocHost(&mut host, 64));
    // Current device 0, stream of device 1.
    check!(cudaSuccess, cudaMemcpyPeerAsync(d1, 1, d0, 0, 64, s1));
    check!(
        cudaSuccess,
        cudaMemcpyAsync(host, d1, 64, cudaMemcpyDeviceToHost, s1)
    );
    check!(cudaSuccess, cudaMemsetAsync(d0, 0, 64, s1));
    check!(cudaSuccess, cudaStreamSynchronize(s1));
    // SAFETY: pinned memory of 64 bytes, no copy in flight.
    let got = unsafe { std::slice::from_raw_parts(host.cast::<u8>(), 64) };
    assert_eq!(got, &src[..]);
    check!(cudaSuccess, cudaFreeHost(host));
}

/// cuda-musa.md · Stream wait, streams, devices · LaunchHostFunc · — → runs after all earlier work in the
/// stream and blocks later work (also StreamAddCallback, which gets the stream and status 0)
#[test]
fn host_function_runs_in_stream_order() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let s = stream(cudaStreamNonBlocking);
    let log = new_log();
    check!(cudaSuccess, kernel_with(s, 200, log_tag, tag(log, "k1")));
    check!(
        cudaSuccess,
        cudaLaunchHostFunc(s, Some(log_tag), tag(log, "host"))
    );
    let seen: &'static Mutex<Vec<(usize, cudaError_t)>> = Box::leak(Box::new(Mutex::new(vec![])));
    check!(
        cudaSuccess,
        cudaStreamAddCallback(s, Some(callback), seen as *const _ as *mut c_void, 0)
    );
    check!(cudaSuccess, kernel_with(s, 10, log_tag, tag(log, "k2")));
    check!(cudaSuccess, cudaStreamSynchronize(s));
    assert_eq!(*log.lock().unwrap(), ["k1", "host", "k2"]);
    assert_eq!(*seen.lock().unwrap(), [(s as usize, cudaSuccess)]);
    // k1 4..204 µs, host function 204..205, callback 205..206, k2 206..216.
    assert_eq!(us(&p), 216);
}

/// A stream callback: notes the stream and status it was given.
unsafe extern "C" fn callback(stream: cudaStream_t, status: cudaError_t, data: *mut c_void) {
    // SAFETY: the test passes a leaked Mutex<Vec<(usize, cudaError_t)>>.
    let seen = unsafe { &*data.cast::<Mutex<Vec<(usize, cudaError_t)>>>() };
    seen.lock().unwrap().push((stream as usize, status));
}

/// cuda-musa.md · Stream wait, streams, devices · LaunchHostFunc · — → NULL fn → 1
#[test]
fn host_function_null() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let (_, arg) = counter();
    check!(
        cudaErrorInvalidValue,
        cudaLaunchHostFunc(null_mut(), None, arg)
    );
    check!(
        cudaErrorInvalidValue,
        cudaStreamAddCallback(null_mut(), None, arg, 0)
    );
    check!(cudaSuccess, cudaStreamQuery(null_mut()));
}

/// cuda-musa.md · Stream wait, streams, devices · LaunchHostFunc · — → not called if the context has a sticky
/// error
#[test]
fn host_function_not_called_after_a_fault() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let s = stream(cudaStreamDefault);
    let (hits, arg) = counter();
    p.launch(core_stream(s), failing(100)).unwrap();
    check!(cudaSuccess, cudaLaunchHostFunc(s, Some(bump), arg));
    let seen: &'static Mutex<Vec<(usize, cudaError_t)>> = Box::leak(Box::new(Mutex::new(vec![])));
    check!(
        cudaSuccess,
        cudaStreamAddCallback(s, Some(callback), seen as *const _ as *mut c_void, 0)
    );
    check!(cudaErrorLaunchFailure, cudaStreamSynchronize(s));
    assert_eq!(
        hits.load(Ordering::SeqCst),
        0,
        "the host function was not called"
    );
    assert!(
        seen.lock().unwrap().is_empty(),
        "the callback was not called"
    );
    // Enqueued after the error was reported: refused with the sticky error.
    check!(
        cudaErrorLaunchFailure,
        cudaLaunchHostFunc(s, Some(bump), arg)
    );
    assert_eq!(hits.load(Ordering::SeqCst), 0);
}

/// The codes of runtime calls made from inside a host function or kernel body.
type Codes = Mutex<Vec<(&'static str, cudaError_t)>>;

/// A host function / kernel body that makes runtime calls and notes their codes in the `Codes` behind `arg`.
unsafe extern "C" fn call_the_runtime(arg: *mut c_void) {
    // SAFETY: the test passes a leaked `Codes`.
    let out = unsafe { &*arg.cast::<Codes>() };
    let (mut s, mut e, mut d, mut n, mut ptr) = (null_mut(), null_mut(), 0, 0, null_mut());
    let mut ms = 0.0f32;
    // SAFETY: valid out-pointers; the calls must be refused anyway.
    let codes = unsafe {
        [
            ("GetDeviceCount", cudaGetDeviceCount(&mut n)),
            ("SetDevice", cudaSetDevice(0)),
            ("GetDevice", cudaGetDevice(&mut d)),
            ("StreamCreate", cudaStreamCreate(&mut s)),
            ("StreamQuery", cudaStreamQuery(null_mut())),
            ("StreamSynchronize", cudaStreamSynchronize(null_mut())),
            ("EventCreate", cudaEventCreate(&mut e)),
            ("EventRecord", cudaEventRecord(e, null_mut())),
            ("EventQuery", cudaEventQuery(e)),
            ("EventElapsedTime", cudaEventElapsedTime(&mut ms, e, e)),
            ("Malloc", cudaMalloc(&mut ptr, 16)),
            ("LaunchKernel", kernel(null_mut(), 1)),
            (
                "LaunchHostFunc",
                cudaLaunchHostFunc(null_mut(), Some(nothing), arg),
            ),
            ("DeviceSynchronize", cudaDeviceSynchronize()),
            ("DeviceReset", cudaDeviceReset()),
            ("GetLastError", cudaGetLastError()),
            ("PeekAtLastError", cudaPeekAtLastError()),
        ]
    };
    out.lock().unwrap().extend(codes);
}

/// Asserts that every call noted in `codes` returned 800.
fn all_not_permitted(codes: &Codes, n: usize) {
    let codes = codes.lock().unwrap();
    assert_eq!(codes.len(), n, "{codes:?}");
    let wrong: Vec<String> = codes
        .iter()
        .filter(|(_, code)| *code != cudaErrorNotPermitted)
        .map(|(call, code)| format!("{call} → {code} ({})", err_name(*code)))
        .collect();
    assert!(
        wrong.is_empty(),
        "calls from inside that did not return 800: {wrong:?}"
    );
}

/// cuda-musa.md · Stream wait, streams, devices · any runtime call · made from inside a host function → 800
/// NotPermitted (the simulator always detects this); also from inside a kernel body (sim)
#[test]
fn runtime_calls_from_inside_a_host_function_or_kernel() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let s = stream(cudaStreamDefault);
    let from_host: &'static Codes = Box::leak(Box::new(Mutex::new(Vec::new())));
    let from_kernel: &'static Codes = Box::leak(Box::new(Mutex::new(Vec::new())));
    let arg = |c: &'static Codes| c as *const Codes as *mut c_void;
    check!(
        cudaSuccess,
        cudaLaunchHostFunc(s, Some(call_the_runtime), arg(from_host))
    );
    check!(
        cudaSuccess,
        kernel_with(s, 10, call_the_runtime, arg(from_kernel))
    );
    check!(cudaSuccess, cudaStreamSynchronize(s));
    all_not_permitted(from_host, 17);
    all_not_permitted(from_kernel, 17);
    // The refused calls did not touch the host thread's state.
    check!(cudaSuccess, cudaGetLastError());
    check!(cudaSuccess, cudaStreamQuery(null_mut()));
}

/// cuda-musa.md · Stream wait, streams, devices · legacy default stream · — → work on it waits for all earlier
/// work of the device's blocking streams, and blocking streams' later work waits for it; NonBlocking streams
/// are exempt; each device has its own
#[test]
fn legacy_default_stream_synchronization() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    let blocking = stream(cudaStreamDefault);
    let non_blocking = stream(cudaStreamNonBlocking);
    check!(cudaSuccess, kernel(blocking, 1_000));
    check!(cudaSuccess, kernel(non_blocking, 50_000));
    // NULL-stream work waits for the blocking stream's earlier work, not for the non-blocking stream's.
    check!(cudaSuccess, kernel(null_mut(), 10));
    check!(cudaSuccess, cudaStreamSynchronize(null_mut()));
    check!(cudaSuccess, cudaStreamQuery(blocking));
    check!(cudaErrorNotReady, cudaStreamQuery(non_blocking));
    assert!(us(&p) > 1_000 && us(&p) < 1_100, "{} µs", us(&p));
    // Later blocking work waits for NULL-stream work; non-blocking work does not.
    check!(cudaSuccess, kernel(null_mut(), 5_000));
    check!(cudaSuccess, kernel(blocking, 10));
    let nb2 = stream(cudaStreamNonBlocking);
    check!(cudaSuccess, kernel(nb2, 10));
    check!(cudaSuccess, cudaStreamSynchronize(nb2));
    check!(cudaErrorNotReady, cudaStreamQuery(null_mut()));
    check!(cudaSuccess, cudaStreamSynchronize(blocking));
    check!(cudaSuccess, cudaStreamQuery(null_mut()));
    // Each device has its own: device 1's NULL stream is idle.
    check!(cudaSuccess, kernel(null_mut(), 5_000));
    check!(cudaSuccess, cudaSetDevice(1));
    check!(cudaSuccess, cudaStreamQuery(null_mut()));
    check!(cudaSuccess, kernel(null_mut(), 10));
    check!(cudaSuccess, cudaStreamSynchronize(null_mut()));
    check!(cudaSuccess, cudaSetDevice(0));
    check!(cudaErrorNotReady, cudaStreamQuery(null_mut()));
}

/// cuda-musa.md · Stream wait, streams, devices · per-thread default stream (0x2) · — → an ordinary blocking
/// stream per host thread, which does synchronize with the legacy stream
#[test]
fn per_thread_default_stream() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let mut flags = 99;
    check!(
        cudaSuccess,
        cudaStreamGetFlags(cudaStreamPerThread, &mut flags)
    );
    assert_eq!(flags, cudaStreamDefault, "a blocking stream");
    check!(cudaSuccess, kernel(cudaStreamPerThread, 2_000));
    // Another thread's per-thread stream is another stream.
    let p2 = p.clone();
    std::thread::spawn(move || {
        let _g = p2.bind();
        check!(cudaSuccess, cudaStreamQuery(cudaStreamPerThread));
        check!(cudaSuccess, kernel(cudaStreamPerThread, 10));
        check!(cudaSuccess, cudaStreamSynchronize(cudaStreamPerThread));
    })
    .join()
    .unwrap();
    check!(cudaErrorNotReady, cudaStreamQuery(cudaStreamPerThread));
    // Legacy work waits for it ...
    check!(cudaSuccess, kernel(null_mut(), 10));
    check!(cudaSuccess, cudaStreamSynchronize(null_mut()));
    check!(cudaSuccess, cudaStreamQuery(cudaStreamPerThread));
    // ... and its later work waits for legacy work.
    check!(cudaSuccess, kernel(cudaStreamLegacy, 3_000));
    check!(cudaSuccess, kernel(cudaStreamPerThread, 10));
    check!(cudaSuccess, cudaStreamSynchronize(cudaStreamPerThread));
    check!(cudaSuccess, cudaStreamQuery(null_mut()));
}

/// cuda-musa.md · Error codes · cudaStreamLegacy = (cudaStream_t)0x1: the same stream as NULL
#[test]
fn stream_legacy_handle_is_the_null_stream() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    check!(cudaSuccess, kernel(cudaStreamLegacy, 1_000));
    check!(cudaErrorNotReady, cudaStreamQuery(null_mut()));
    check!(cudaSuccess, cudaStreamSynchronize(null_mut()));
    check!(cudaSuccess, cudaStreamQuery(cudaStreamLegacy));
    let e = event(cudaEventDefault);
    check!(cudaSuccess, kernel(null_mut(), 1_000));
    check!(cudaSuccess, cudaEventRecord(e, cudaStreamLegacy));
    check!(cudaSuccess, cudaStreamSynchronize(cudaStreamLegacy));
    check!(cudaSuccess, cudaEventQuery(e));
    assert_eq!(
        p.stream_id(Stream::LEGACY).unwrap(),
        p.stream_id(Stream::DEFAULT).unwrap()
    );
}

// ------------------------------------------------------------------------------------------------ devices

/// cuda-musa.md · Devices and peers · SetDevice · id < 0 or >= count → 101 InvalidDevice
#[test]
fn set_device_out_of_range() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    for d in [-1, 2, 3, 1_024, c_int::MAX, c_int::MIN] {
        check!(cudaErrorInvalidDevice, cudaSetDevice(d));
    }
    let mut d = -1;
    check!(cudaSuccess, cudaGetDevice(&mut d));
    assert_eq!(d, 0, "a failed SetDevice changes nothing");
    let mut n = 0;
    check!(cudaSuccess, cudaGetDeviceCount(&mut n));
    assert_eq!(n, 2);
}

/// cuda-musa.md · Devices and peers · SetDevice · — → per host thread; no synchronization; device 0 is the
/// default
#[test]
fn set_device_is_per_thread_and_does_not_synchronize() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    let mut d = -1;
    check!(cudaSuccess, cudaGetDevice(&mut d));
    assert_eq!(d, 0);
    check!(cudaSuccess, kernel(null_mut(), 5_000));
    let before = p.now();
    check!(cudaSuccess, cudaSetDevice(1));
    assert_eq!(p.now().as_nanos() - before.as_nanos(), 1_000, "no wait");
    let p2 = p.clone();
    let theirs = std::thread::spawn(move || {
        let _g = p2.bind();
        let mut d = -1;
        check!(cudaSuccess, cudaGetDevice(&mut d));
        d
    })
    .join()
    .unwrap();
    assert_eq!(theirs, 0, "another thread still starts on device 0");
    check!(cudaSuccess, cudaGetDevice(&mut d));
    assert_eq!(d, 1);
    check!(cudaSuccess, cudaSetDevice(0));
    check!(cudaErrorNotReady, cudaStreamQuery(null_mut()));
}

/// cuda-musa.md · Devices and peers · DeviceCanAccessPeer(d, d) · same device → 0 (Success, value 0)
#[test]
fn device_can_access_peer_same_device() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    for d in [0, 1] {
        let mut can = 7;
        check!(cudaSuccess, cudaDeviceCanAccessPeer(&mut can, d, d));
        assert_eq!(can, 0);
    }
    let mut can = 7;
    check!(cudaSuccess, cudaDeviceCanAccessPeer(&mut can, 0, 1));
    assert_eq!(can, 1, "all pairs are linked by default");
    let m = Machine::builder()
        .devices(2)
        .peer_links([])
        .build()
        .unwrap();
    let q = m.process();
    let _g2 = q.bind();
    check!(cudaSuccess, cudaDeviceCanAccessPeer(&mut can, 0, 1));
    assert_eq!(can, 0, "no link");
}

/// cuda-musa.md · Devices and peers · DeviceCanAccessPeer · bad ordinal → 101
#[test]
fn device_can_access_peer_bad_ordinal() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    let mut can = 7;
    for (d, peer) in [(-1, 0), (0, -1), (2, 0), (0, 2), (c_int::MAX, c_int::MIN)] {
        check!(
            cudaErrorInvalidDevice,
            cudaDeviceCanAccessPeer(&mut can, d, peer)
        );
    }
    assert_eq!(can, 7, "nothing written on failure");
}

/// cuda-musa.md · Devices and peers · DeviceEnablePeerAccess · flags != 0 (checked first) → 1
#[test]
fn enable_peer_access_flags_are_checked_first() {
    let m = Machine::builder()
        .devices(2)
        .peer_links([])
        .build()
        .unwrap();
    let p = m.process();
    let _g = p.bind();
    // Valid peer, own device, bad ordinal, no link: the flags are reported first.
    for peer in [1, 0, 5, -1] {
        check!(cudaErrorInvalidValue, cudaDeviceEnablePeerAccess(peer, 1));
        check!(
            cudaErrorInvalidValue,
            cudaDeviceEnablePeerAccess(peer, u32::MAX)
        );
    }
}

/// cuda-musa.md · Devices and peers · DeviceEnablePeerAccess · peer == current device, or the topology has no
/// link between them → 101
#[test]
fn enable_peer_access_self_or_no_link() {
    let m = Machine::builder()
        .devices(3)
        .peer_links([(0, 1)])
        .build()
        .unwrap();
    let p = m.process();
    let _g = p.bind();
    check!(cudaErrorInvalidDevice, cudaDeviceEnablePeerAccess(0, 0));
    check!(cudaErrorInvalidDevice, cudaDeviceEnablePeerAccess(2, 0));
    check!(cudaErrorInvalidDevice, cudaDeviceEnablePeerAccess(3, 0));
    check!(cudaErrorInvalidDevice, cudaDeviceEnablePeerAccess(-1, 0));
    check!(cudaSuccess, cudaDeviceEnablePeerAccess(1, 0));
    check!(cudaSuccess, cudaSetDevice(2));
    check!(cudaErrorInvalidDevice, cudaDeviceEnablePeerAccess(0, 0));
    check!(cudaErrorInvalidDevice, cudaDeviceEnablePeerAccess(2, 0));
}

/// cuda-musa.md · Devices and peers · DeviceEnablePeerAccess · twice → 704
#[test]
fn enable_peer_access_twice() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    check!(cudaSuccess, cudaDeviceEnablePeerAccess(1, 0));
    check!(
        cudaErrorPeerAccessAlreadyEnabled,
        cudaDeviceEnablePeerAccess(1, 0)
    );
    check!(cudaErrorPeerAccessAlreadyEnabled, cudaPeekAtLastError());
}

/// cuda-musa.md · Devices and peers · DeviceDisablePeerAccess · not enabled → 705
#[test]
fn disable_peer_access_not_enabled() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    check!(
        cudaErrorPeerAccessNotEnabled,
        cudaDeviceDisablePeerAccess(1)
    );
    check!(cudaSuccess, cudaDeviceEnablePeerAccess(1, 0));
    check!(cudaSuccess, cudaDeviceDisablePeerAccess(1));
    check!(
        cudaErrorPeerAccessNotEnabled,
        cudaDeviceDisablePeerAccess(1)
    );
}

/// cuda-musa.md · Devices and peers · peer access · — → one direction only; lasts until disabled or either
/// device is reset
#[test]
fn peer_access_is_one_directional_and_ends_with_a_reset() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    check!(cudaSuccess, cudaDeviceEnablePeerAccess(1, 0));
    assert!(p.peer_access_enabled(0, 1));
    check!(cudaSuccess, cudaSetDevice(1));
    // 1 → 0 is another direction: not enabled yet.
    check!(
        cudaErrorPeerAccessNotEnabled,
        cudaDeviceDisablePeerAccess(0)
    );
    check!(cudaSuccess, cudaDeviceEnablePeerAccess(0, 0));
    // A reset of device 1 ends both directions that involve it.
    check!(cudaSuccess, cudaDeviceReset());
    check!(
        cudaErrorPeerAccessNotEnabled,
        cudaDeviceDisablePeerAccess(0)
    );
    check!(cudaSuccess, cudaSetDevice(0));
    check!(
        cudaErrorPeerAccessNotEnabled,
        cudaDeviceDisablePeerAccess(1)
    );
    // Enabled again, it lasts until disabled.
    check!(cudaSuccess, cudaDeviceEnablePeerAccess(1, 0));
    check!(cudaSuccess, kernel(null_mut(), 10));
    check!(cudaSuccess, cudaDeviceSynchronize());
    check!(
        cudaErrorPeerAccessAlreadyEnabled,
        cudaDeviceEnablePeerAccess(1, 0)
    );
    check!(cudaSuccess, cudaDeviceDisablePeerAccess(1));
}

/// cuda-musa.md · Devices and peers · MemcpyPeer · peer access not enabled → works (staged through the host,
/// slower)
#[test]
fn memcpy_peer_without_peer_access_is_staged() {
    const N: usize = 1 << 20;
    let (m, p) = machine(2);
    let _g = p.bind();
    let src: Vec<u8> = (0..N).map(|i| (i % 251) as u8).collect();
    let d0 = dmalloc(N);
    check!(
        cudaSuccess,
        cudaMemcpy(d0, src.as_ptr().cast(), N, cudaMemcpyHostToDevice)
    );
    check!(cudaSuccess, cudaSetDevice(1));
    let d1 = dmalloc(N);
    check!(cudaSuccess, cudaSetDevice(0));
    let cost = m.cost_model();
    let overhead = (cost.api_call + cost.launch_latency).as_nanos() as u64;
    let timed = |path| {
        let before = p.now().as_nanos();
        check!(cudaSuccess, cudaMemcpyPeer(d1, 1, d0, 0, N));
        let took = p.now().as_nanos() - before;
        assert_eq!(took, overhead + cost.copy_nanos(path, N as u64), "{path:?}");
        took
    };
    let staged = timed(CopyPath::StagedThroughHost);
    let mut back = vec![0u8; N];
    check!(
        cudaSuccess,
        cudaMemcpy(back.as_mut_ptr().cast(), d1, N, cudaMemcpyDeviceToHost)
    );
    assert!(back == src, "the staged copy moved the bytes");
    check!(cudaSuccess, cudaDeviceEnablePeerAccess(1, 0));
    let linked = timed(CopyPath::PeerLink);
    assert!(
        staged > linked,
        "staged {staged} ns vs peer link {linked} ns"
    );
}

/// cuda-musa.md · Devices and peers · DeviceReset · — → destroys all streams, events and memory of the current
/// device in this process; later use of them: sim 400 (streams and events)
#[test]
fn device_reset_destroys_streams_and_events() {
    let (m, p) = machine(2);
    let _g = p.bind();
    let (s0, e0) = (stream(cudaStreamDefault), event(cudaEventDefault));
    check!(cudaSuccess, cudaSetDevice(1));
    let (s1, e1) = (stream(cudaStreamDefault), event(cudaEventDefault));
    let (hits, arg) = counter();
    check!(cudaSuccess, kernel_with(s1, 500, bump, arg));
    check!(cudaSuccess, cudaEventRecord(e1, s1));
    let _d1 = dmalloc(4096);
    assert_eq!(m.memory_used(1).unwrap(), 4096);
    check!(cudaSuccess, cudaDeviceReset());
    assert_eq!(
        hits.load(Ordering::SeqCst),
        1,
        "pending work finished first"
    );
    assert_eq!(m.memory_used(1).unwrap(), 0, "memory freed");
    check!(cudaErrorInvalidResourceHandle, cudaStreamQuery(s1));
    assert!(matches!(
        last(&p),
        SimError::InvalidHandle {
            problem: HandleProblem::FreedByReset { device: 1 },
            ..
        }
    ));
    check!(cudaErrorInvalidResourceHandle, cudaEventQuery(e1));
    check!(cudaErrorInvalidResourceHandle, kernel(s1, 1));
    check!(cudaErrorInvalidResourceHandle, cudaStreamDestroy(s1));
    check!(cudaErrorInvalidResourceHandle, cudaEventDestroy(e1));
    // The device works again, and device 0's objects are untouched.
    check!(cudaSuccess, kernel(null_mut(), 10));
    check!(cudaSuccess, cudaDeviceSynchronize());
    check!(cudaSuccess, cudaSetDevice(0));
    check!(cudaSuccess, cudaEventRecord(e0, s0));
    check!(cudaSuccess, cudaStreamSynchronize(s0));
}

/// cuda-musa.md · Devices and peers · DeviceReset · — → later use of its memory: sim 400 (the row's "them"
/// includes memory)
#[test]
fn device_reset_later_use_of_memory_is_400() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let d = dmalloc(256);
    check!(cudaSuccess, cudaDeviceReset());
    check!(cudaErrorInvalidResourceHandle, cudaMemset(d, 0, 256));
    check!(cudaErrorInvalidResourceHandle, cudaFree(d));
}

// ------------------------------------------------------------------------------------------------ IPC

/// Runs `f` with calls routed to `p`.
fn on<T>(p: &Process, f: impl FnOnce() -> T) -> T {
    let _g = p.bind();
    f()
}

/// An interprocess event of `a` and its exported handle.
fn exported(a: &Process) -> (cudaEvent_t, cudaIpcEventHandle_t) {
    on(a, || {
        let e = event(cudaEventDisableTiming | cudaEventInterprocess);
        let mut h = cudaIpcEventHandle_t { reserved: [0; 64] };
        check!(cudaSuccess, cudaIpcGetEventHandle(&mut h, e));
        (e, h)
    })
}

/// cuda-musa.md · IPC · IpcGetEventHandle · event without Interprocess → 400
#[test]
fn ipc_get_handle_of_a_local_event() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    for flags in [0, cudaEventDisableTiming, cudaEventBlockingSync] {
        let mut h = cudaIpcEventHandle_t { reserved: [0; 64] };
        check!(
            cudaErrorInvalidResourceHandle,
            cudaIpcGetEventHandle(&mut h, event(flags))
        );
        assert_eq!(h.reserved, [0; 64]);
    }
}

/// cuda-musa.md · IPC · IpcOpenEventHandle · in the exporting process → 201
#[test]
fn ipc_open_in_the_exporting_process() {
    let (_m, a) = machine(1);
    let (_, h) = exported(&a);
    on(&a, || {
        let mut e = null_mut();
        check!(
            cudaErrorDeviceUninitialized,
            cudaIpcOpenEventHandle(&mut e, h)
        );
        assert!(e.is_null());
    });
}

/// cuda-musa.md · IPC · IpcOpenEventHandle · zeroed or forged handle → 1
#[test]
fn ipc_open_zeroed_or_forged_handle() {
    let (m, a) = machine(1);
    let (_, h) = exported(&a);
    let b = m.process();
    // Another machine's handle (another seed: the same seed and ordinals would give the same bytes).
    let other_machine = Machine::builder().seed(1).build().unwrap().process();
    let (_, elsewhere) = exported(&other_machine);
    assert_ne!(elsewhere, h);
    let mut forged = h;
    forged.reserved[20] ^= 1;
    let mut garbage = cudaIpcEventHandle_t { reserved: [0; 64] };
    for (i, b) in garbage.reserved.iter_mut().enumerate() {
        *b = (i as u8).wrapping_mul(37) as c_char;
    }
    on(&b, || {
        for bad in [
            cudaIpcEventHandle_t { reserved: [0; 64] },
            forged,
            garbage,
            elsewhere,
        ] {
            let mut e = null_mut();
            check!(cudaErrorInvalidValue, cudaIpcOpenEventHandle(&mut e, bad));
        }
        let mut e = null_mut();
        check!(cudaSuccess, cudaIpcOpenEventHandle(&mut e, h));
    });
}

/// cuda-musa.md · IPC · opened event · — → behaves as a local DisableTiming event: Record, Query, Synchronize,
/// StreamWaitEvent work in either process; ElapsedTime → 400; freed with EventDestroy
#[test]
fn ipc_opened_event_works_in_both_processes() {
    let (m, a) = machine(1);
    let b = m.process();
    let (ea, h) = exported(&a);
    let (eb, sb) = on(&b, || {
        let mut eb = null_mut();
        check!(cudaSuccess, cudaIpcOpenEventHandle(&mut eb, h));
        (eb, stream(cudaStreamDefault))
    });
    let sa = on(&a, || {
        let sa = stream(cudaStreamDefault);
        check!(cudaSuccess, kernel(sa, 2_000));
        check!(cudaSuccess, cudaEventRecord(ea, sa));
        sa
    });
    let (hits, arg) = counter();
    on(&b, || {
        // A's record, seen from B.
        check!(cudaErrorNotReady, cudaEventQuery(eb));
        check!(cudaSuccess, cudaStreamWaitEvent(sb, eb, 0));
        check!(cudaSuccess, kernel_with(sb, 10, bump, arg));
        check!(cudaSuccess, cudaStreamSynchronize(sb));
        assert!(us(&b) > 2_000, "B's kernel waited for A's record");
        check!(cudaSuccess, cudaEventQuery(eb));
        // B records; A sees it.
        check!(cudaSuccess, kernel(sb, 50_000));
        check!(cudaSuccess, cudaEventRecord(eb, sb));
        let mut ms = 0.0f32;
        check!(
            cudaErrorInvalidResourceHandle,
            cudaEventElapsedTime(&mut ms, eb, eb)
        );
        let timed = event(cudaEventDefault);
        check!(cudaSuccess, cudaEventRecord(timed, sb));
        check!(
            cudaErrorInvalidResourceHandle,
            cudaEventElapsedTime(&mut ms, timed, eb)
        );
    });
    assert_eq!(hits.load(Ordering::SeqCst), 1);
    on(&a, || {
        check!(cudaErrorNotReady, cudaEventQuery(ea));
        check!(cudaSuccess, cudaEventSynchronize(ea));
        assert!(us(&a) > 50_000, "A waited for B's record");
        check!(cudaSuccess, cudaStreamWaitEvent(sa, ea, 0));
        let mut ms = 0.0f32;
        check!(
            cudaErrorInvalidResourceHandle,
            cudaEventElapsedTime(&mut ms, ea, ea)
        );
    });
    on(&b, || {
        check!(cudaSuccess, cudaEventDestroy(eb));
        check!(cudaErrorInvalidResourceHandle, cudaEventQuery(eb));
    });
    on(&a, || check!(cudaSuccess, cudaEventQuery(ea)));
}

// ------------------------------------------------------------------------------------------------ sticky

/// cuda-musa.md · Errors that stick · a kernel fault (700 IllegalAddress, 719 LaunchFailure) is sticky: every
/// later call in that process returns the same error until the device is reset
#[test]
fn kernel_faults_stick_until_the_device_is_reset() {
    for (k, code) in [
        (failing(100), cudaErrorLaunchFailure),
        (illegal_access(), cudaErrorIllegalAddress),
    ] {
        let (m, p) = machine(1);
        let _g = p.bind();
        let s = stream(cudaStreamDefault);
        let other = stream(cudaStreamNonBlocking);
        let e = event(cudaEventDefault);
        let d = dmalloc(64);
        p.launch(core_stream(s), k).unwrap();
        check!(code, cudaStreamSynchronize(s));
        let (mut s2, mut e2, mut d2) = (null_mut(), null_mut(), null_mut());
        let mut ms = 0.0f32;
        let bytes = [0u8; 8];
        // SAFETY (all calls): valid pointers.
        let later = unsafe {
            [
                ("StreamQuery(other)", cudaStreamQuery(other)),
                ("StreamSynchronize(NULL)", cudaStreamSynchronize(null_mut())),
                ("StreamCreate", cudaStreamCreate(&mut s2)),
                ("EventCreate", cudaEventCreate(&mut e2)),
                ("EventRecord", cudaEventRecord(e, other)),
                ("EventQuery", cudaEventQuery(e)),
                ("EventSynchronize", cudaEventSynchronize(e)),
                ("EventElapsedTime", cudaEventElapsedTime(&mut ms, e, e)),
                ("StreamWaitEvent", cudaStreamWaitEvent(other, e, 0)),
                ("LaunchKernel", kernel(other, 1)),
                (
                    "LaunchHostFunc",
                    cudaLaunchHostFunc(other, Some(bump), counter().1),
                ),
                ("Malloc", cudaMalloc(&mut d2, 64)),
                (
                    "Memcpy",
                    cudaMemcpy(d, bytes.as_ptr().cast(), 8, cudaMemcpyHostToDevice),
                ),
                ("Memset", cudaMemset(d, 0, 8)),
                ("DeviceSynchronize", cudaDeviceSynchronize()),
            ]
        };
        for (call, got) in later {
            assert_eq!(
                got,
                code,
                "{call} after the fault: {got} ({})",
                err_name(got)
            );
        }
        // Another process on the same device is not affected.
        let q = m.process();
        on(&q, || {
            check!(cudaSuccess, kernel(null_mut(), 10));
            check!(cudaSuccess, cudaDeviceSynchronize());
        });
        // Until the device is reset.
        check!(cudaSuccess, cudaDeviceReset());
        let s3 = stream(cudaStreamDefault);
        check!(cudaSuccess, kernel(s3, 10));
        check!(cudaSuccess, cudaStreamSynchronize(s3));
        check!(cudaSuccess, cudaDeviceSynchronize());
    }
}

/// cuda-musa.md · Errors that stick · GetLastError returns and clears the per-thread last error;
/// PeekAtLastError does not clear it; most failing calls set it
#[test]
fn get_last_error_and_peek_at_last_error() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    check!(cudaSuccess, cudaGetLastError());
    check!(cudaSuccess, cudaPeekAtLastError());
    check!(cudaErrorInvalidDevice, cudaSetDevice(7));
    check!(cudaErrorInvalidDevice, cudaPeekAtLastError());
    check!(cudaErrorInvalidDevice, cudaPeekAtLastError());
    // A successful call does not clear it.
    check!(cudaSuccess, cudaStreamQuery(null_mut()));
    check!(cudaErrorInvalidDevice, cudaPeekAtLastError());
    check!(cudaErrorInvalidDevice, cudaGetLastError());
    check!(cudaSuccess, cudaGetLastError());
    check!(cudaSuccess, cudaPeekAtLastError());
    // The newest failure wins; 600 from a query is an answer but is also the last error (as CUDA does).
    check!(cudaErrorInvalidValue, cudaStreamCreate(null_mut()));
    check!(
        cudaErrorInvalidResourceHandle,
        cudaStreamDestroy(null_mut())
    );
    check!(cudaErrorInvalidResourceHandle, cudaPeekAtLastError());
    check!(cudaSuccess, kernel(null_mut(), 100));
    check!(cudaErrorNotReady, cudaStreamQuery(null_mut()));
    check!(cudaErrorNotReady, cudaGetLastError());
    // Per thread: another thread of the same process has its own.
    check!(cudaErrorInvalidDevice, cudaSetDevice(-1));
    let p2 = p.clone();
    std::thread::spawn(move || {
        let _g = p2.bind();
        check!(cudaSuccess, cudaPeekAtLastError());
        check!(cudaErrorInvalidValue, cudaEventCreate(null_mut()));
        check!(cudaErrorInvalidValue, cudaGetLastError());
    })
    .join()
    .unwrap();
    check!(cudaErrorInvalidDevice, cudaGetLastError());
}

/// cuda-musa.md · Errors that stick · "most failing calls set it": also a copy refused for its kind
/// (21 InvalidMemcpyDirection) and a refused NULL out-pointer
#[test]
fn failing_copies_set_the_last_error() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let d = dmalloc(64);
    let src = [0u8; 64];
    check!(
        cudaErrorInvalidMemcpyDirection,
        cudaMemcpy(d, src.as_ptr().cast(), 64, 99)
    );
    check!(cudaErrorInvalidMemcpyDirection, cudaPeekAtLastError());
    check!(
        cudaErrorInvalidMemcpyDirection,
        cudaMemcpyAsync(d, src.as_ptr().cast(), 64, 7, null_mut())
    );
    check!(cudaErrorInvalidMemcpyDirection, cudaGetLastError());
    check!(
        cudaErrorInvalidValue,
        cudaMemcpy(d, src.as_ptr().cast(), 64, cudaMemcpyDeviceToDevice)
    );
    check!(cudaErrorInvalidValue, cudaGetLastError());
    check!(cudaSuccess, cudaGetLastError());
}

/// cuda-musa.md · Errors that stick · GetLastError cannot clear a sticky error: "every later call in that
/// process returns the same error until the device is reset" includes GetLastError
#[test]
fn get_last_error_does_not_clear_a_sticky_error() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let s = stream(cudaStreamDefault);
    p.launch(core_stream(s), failing(10)).unwrap();
    check!(cudaErrorLaunchFailure, cudaStreamSynchronize(s));
    check!(cudaErrorLaunchFailure, cudaGetLastError());
    check!(cudaErrorLaunchFailure, cudaGetLastError());
    check!(cudaErrorLaunchFailure, cudaPeekAtLastError());
    check!(cudaSuccess, cudaDeviceReset());
    check!(cudaSuccess, cudaStreamQuery(null_mut()));
}

// ------------------------------------------------------------------------------------------------ launches

/// `cudasimLaunchKernel` / `cudasimLaunchKernelEx`: a C body runs once with its argument, in stream order;
/// the Ex variant's declared accesses are checked at launch (1 InvalidValue for memory that is not a live
/// allocation of this process, or a bad `write` value), NULL name and NULL body are allowed.
#[test]
fn launch_kernel_with_a_c_body_and_declared_accesses() {
    let (m, p) = machine(1);
    let _g = p.bind();
    let s = stream(cudaStreamDefault);
    let d = dmalloc(1024);
    let log = new_log();
    check!(
        cudaSuccess,
        cudasimLaunchKernel(s, c"first".as_ptr(), 100_000, Some(log_tag), tag(log, "a"))
    );
    let acc = |ptr: *mut c_void, bytes, write| streamsimAccess {
        ptr: ptr.cast_const(),
        bytes,
        write,
    };
    let ok = [acc(d, 512, 0), acc(d.wrapping_byte_add(512), 512, 1)];
    check!(
        cudaSuccess,
        cudasimLaunchKernelEx(
            s,
            c"ex".as_ptr(),
            1_000,
            Some(log_tag),
            tag(log, "b"),
            ok.as_ptr(),
            2
        )
    );
    check!(
        cudaSuccess,
        cudasimLaunchKernel(s, null(), 0, None, null_mut())
    );
    check!(
        cudaSuccess,
        cudasimLaunchKernelEx(s, null(), 0, None, null_mut(), null(), 0)
    );
    for bad in [
        acc(d, 1025, 0),
        acc(d.wrapping_byte_add(1024), 1, 1),
        acc(d, 16, 2),
        acc(d, 16, -1),
        acc(null_mut(), 16, 0),
        acc(d.wrapping_byte_add(1 << 30), 16, 1),
    ] {
        let (hits, arg) = counter();
        check!(
            cudaErrorInvalidValue,
            cudasimLaunchKernelEx(s, c"bad".as_ptr(), 1_000, Some(bump), arg, &bad, 1)
        );
        check!(cudaSuccess, cudaStreamSynchronize(s));
        assert_eq!(
            hits.load(Ordering::SeqCst),
            0,
            "a refused launch does not run"
        );
    }
    check!(
        cudaErrorInvalidValue,
        cudasimLaunchKernelEx(s, c"null".as_ptr(), 1_000, None, null_mut(), null(), 3)
    );
    check!(cudaSuccess, cudaStreamSynchronize(s));
    assert_eq!(*log.lock().unwrap(), ["a", "b"]);
    let t = m.trace();
    let first = t.find("first").expect("traced");
    let ex = t.find("ex").expect("traced");
    assert_eq!(first.end.as_nanos() - first.start.as_nanos(), 100_000);
    assert_eq!(ex.start, first.end);
    assert_eq!(
        t.find("kernel")
            .map(|k| k.end.as_nanos() - k.start.as_nanos()),
        Some(0)
    );
}

// ------------------------------------------------------------------------------------------------ defaults

const CHILD_VAR: &str = "STREAMSIM_FACADE_TEST_CHILD";

/// Runs the `#[ignore]`d test `test` of this binary in a child process with `CHILD_VAR=scenario` and `env`
/// (and no inherited `STREAMSIM_*`); returns its output after checking that exactly that test ran.
pub(crate) fn run_child(test: &str, scenario: &str, env: &[(&str, &str)]) -> std::process::Output {
    let exe = std::env::current_exe().expect("the test binary");
    let mut cmd = std::process::Command::new(exe);
    cmd.args([
        test,
        "--exact",
        "--ignored",
        "--nocapture",
        "--test-threads=1",
    ])
    .env_remove("STREAMSIM_DEVICES")
    .env_remove("STREAMSIM_SEED")
    .env(CHILD_VAR, scenario);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("the child runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("1 passed") || !out.status.success(),
        "the child did not run {test}: {stdout}"
    );
    out
}

/// Asserts that a child run passed, showing its output otherwise.
fn child_passed(scenario: &str, env: &[(&str, &str)]) -> std::process::Output {
    let out = run_child("cuda_facade::default_machine_child", scenario, env);
    assert!(
        out.status.success(),
        "child scenario {scenario} with {env:?} failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The first interprocess event's handle on a process: its bytes depend on the machine seed only.
fn first_ipc_handle_bytes() -> [c_char; 64] {
    let e = event(cudaEventDisableTiming | cudaEventInterprocess);
    let mut h = cudaIpcEventHandle_t { reserved: [0; 64] };
    check!(cudaSuccess, cudaIpcGetEventHandle(&mut h, e));
    h.reserved
}

/// The same handle from an explicitly built machine.
fn reference_handle_bytes(devices: u32, seed: u64) -> [c_char; 64] {
    let m = Machine::builder()
        .devices(devices)
        .seed(seed)
        .build()
        .unwrap();
    let p = m.process();
    on(&p, first_ipc_handle_bytes)
}

/// The child side of the default-machine tests: does nothing unless started by one of them.
#[test]
#[ignore = "runs in a child process started by the default_machine_* tests"]
fn default_machine_child() {
    let Ok(scenario) = std::env::var(CHILD_VAR) else {
        return;
    };
    let mut n = -1;
    match scenario.as_str() {
        "configured" => {
            // STREAMSIM_DEVICES=3 STREAMSIM_SEED=42, no binding.
            let bytes = first_ipc_handle_bytes();
            check!(cudaSuccess, cudaGetDeviceCount(&mut n));
            assert_eq!(n, 3);
            check!(cudaSuccess, cudaSetDevice(2));
            check!(cudaErrorInvalidDevice, cudaSetDevice(3));
            assert_eq!(bytes, reference_handle_bytes(3, 42), "seed 42");
            assert_ne!(bytes, reference_handle_bytes(3, 0));
            // MUSA has its own default machine, configured the same way.
            let mut d = -1;
            // SAFETY: valid out-pointers.
            unsafe {
                assert_eq!(streamsim::musa::musaGetDeviceCount(&mut n), 0);
                assert_eq!(streamsim::musa::musaGetDevice(&mut d), 0);
            }
            assert_eq!(
                (n, d),
                (3, 0),
                "cudaSetDevice(2) did not move the MUSA machine"
            );
            // A binding takes precedence over the default machine.
            let (_m, p) = machine(1);
            on(&p, || {
                check!(cudaSuccess, cudaGetDeviceCount(&mut n));
                assert_eq!(n, 1);
            });
            check!(cudaSuccess, cudaGetDeviceCount(&mut n));
            assert_eq!(n, 3);
        }
        "unset" => {
            let bytes = first_ipc_handle_bytes();
            check!(cudaSuccess, cudaGetDeviceCount(&mut n));
            assert_eq!(n, 1);
            assert_eq!(bytes, reference_handle_bytes(1, 0), "seed 0");
            check!(cudaSuccess, kernel(null_mut(), 10));
            check!(cudaSuccess, cudaDeviceSynchronize());
        }
        "zero" => {
            check!(cudaErrorNoDevice, cudaGetDeviceCount(&mut n));
            assert_eq!(n, 0);
            check!(cudaErrorInvalidDevice, cudaSetDevice(0));
        }
        "bad" => {
            let mut p = null_mut();
            let mut s = null_mut();
            check!(cudaErrorNoDevice, cudaGetDeviceCount(&mut n));
            check!(cudaErrorNoDevice, cudaMalloc(&mut p, 16));
            check!(cudaErrorNoDevice, cudaStreamCreate(&mut s));
            check!(cudaErrorNoDevice, kernel(null_mut(), 1));
            check!(cudaErrorNoDevice, cudaGetLastError());
            // SAFETY: a valid out-pointer.
            assert_eq!(
                unsafe { streamsim::musa::musaGetDeviceCount(&mut n) },
                cudaErrorNoDevice
            );
            // A bound process is unaffected.
            let (_m, q) = machine(2);
            on(&q, || {
                check!(cudaSuccess, cudaGetDeviceCount(&mut n));
                assert_eq!(n, 2);
            });
        }
        "bad_host_fn" => {
            // A call from inside a host function is 800 whatever the environment says.
            let (_m, q) = machine(1);
            let codes: &'static Codes = Box::leak(Box::new(Mutex::new(Vec::new())));
            on(&q, || {
                check!(
                    cudaSuccess,
                    cudaLaunchHostFunc(
                        null_mut(),
                        Some(call_the_runtime),
                        codes as *const Codes as *mut c_void
                    )
                );
                check!(cudaSuccess, cudaDeviceSynchronize());
            });
            all_not_permitted(codes, 17);
        }
        other => panic!("unknown child scenario {other}"),
    }
}

/// facade · default machine: `STREAMSIM_DEVICES` sets the device count and `STREAMSIM_SEED` the seed (seen in
/// the IPC handle bytes, which depend on the seed only); MUSA has its own default machine; a binding wins.
#[test]
fn default_machine_is_configured_from_the_environment() {
    child_passed(
        "configured",
        &[("STREAMSIM_DEVICES", "3"), ("STREAMSIM_SEED", "42")],
    );
}

/// facade · default machine: without the variables, one device and seed 0.
#[test]
fn default_machine_defaults() {
    child_passed("unset", &[]);
}

/// facade · default machine: `STREAMSIM_DEVICES=0` is a machine without devices (GetDeviceCount → 100 and 0).
#[test]
fn default_machine_without_devices() {
    child_passed("zero", &[("STREAMSIM_DEVICES", "0")]);
}

/// facade · default machine: a bad value is a clear error, not a silent default: every call → 100 NoDevice,
/// and the message naming the variable is printed once per facade.
#[test]
fn default_machine_with_a_bad_environment() {
    for (var, value) in [
        ("STREAMSIM_DEVICES", "abc"),
        ("STREAMSIM_DEVICES", "-1"),
        ("STREAMSIM_DEVICES", "1.5"),
        ("STREAMSIM_DEVICES", ""),
        ("STREAMSIM_DEVICES", "5000"),
        ("STREAMSIM_SEED", "x"),
        ("STREAMSIM_SEED", "-1"),
        ("STREAMSIM_SEED", "18446744073709551616"),
    ] {
        let out = child_passed("bad", &[(var, value)]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<_> = stderr.lines().filter(|l| l.contains(var)).collect();
        assert_eq!(
            lines.len(),
            2,
            "{var}={value:?}: one message per facade (CUDA, MUSA), got {stderr:?}"
        );
    }
}

/// cuda-musa.md · Stream wait, streams, devices · any runtime call · made from inside a host function → 800,
/// even when the default machine's environment is bad (the host function's calls must not be routed to it)
#[test]
fn calls_from_a_host_function_are_800_whatever_the_environment() {
    child_passed("bad_host_fn", &[("STREAMSIM_DEVICES", "abc")]);
}
