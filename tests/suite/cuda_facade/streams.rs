//! cuda-musa.md rows through the CUDA facade: streams.

use super::*;

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

/// cuda-musa.md · Stream wait, streams, devices · StreamWaitEvent · flags not 0 → 1 InvalidValue: every
/// undefined bit, and cudaEventWaitExternal (0x1) too, which is invalid outside stream capture
/// (docs/semantics/cuda-musa-runtime-api.md · StreamWaitEvent)
#[test]
fn stream_wait_event_with_flags() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let s = stream(cudaStreamDefault);
    let e = event(cudaEventDefault);
    check!(cudaSuccess, cudaEventRecord(e, s));
    for flags in [2, 3, 0x100, u32::MAX] {
        check!(cudaErrorInvalidValue, cudaStreamWaitEvent(s, e, flags));
    }
    check!(
        cudaErrorInvalidValue,
        cudaStreamWaitEvent(s, e, cudaEventWaitExternal)
    );
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
pub(super) unsafe extern "C" fn callback(
    stream: cudaStream_t,
    status: cudaError_t,
    data: *mut c_void,
) {
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
/// error; StreamAddCallback · — → the callback runs exactly once, with the error after a device fault
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
    assert_eq!(
        *seen.lock().unwrap(),
        [(s as usize, cudaErrorLaunchFailure)],
        "the callback was called once, with the fault"
    );
    // Enqueued after the error was reported: refused with the sticky error.
    check!(
        cudaErrorLaunchFailure,
        cudaLaunchHostFunc(s, Some(bump), arg)
    );
    assert_eq!(hits.load(Ordering::SeqCst), 0);
}

/// The codes of runtime calls made from inside a host function or kernel body.
pub(super) type Codes = Mutex<Vec<(&'static str, cudaError_t)>>;

/// A host function / kernel body that makes runtime calls and notes their codes in the `Codes` behind `arg`.
pub(super) unsafe extern "C" fn call_the_runtime(arg: *mut c_void) {
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
pub(super) fn all_not_permitted(codes: &Codes, n: usize) {
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
