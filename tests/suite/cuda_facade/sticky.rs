//! cuda-musa.md rows through the CUDA facade: sticky.

use super::*;

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

/// cuda-musa.md · Errors that stick · "every later call in that process returns the same error until the device
/// is reset": also calls made with another device current, and from another thread of the process; the reset
/// of the faulted device ends it for all of them
#[test]
fn a_sticky_error_fails_calls_on_every_device_of_the_process() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    let s = stream(cudaStreamDefault);
    p.launch(core_stream(s), illegal_access()).unwrap();
    check!(cudaErrorIllegalAddress, cudaStreamSynchronize(s));
    // Switching device works (a program must be able to reach the reset) ...
    check!(cudaSuccess, cudaSetDevice(1));
    // ... but every call on device 1 returns the fault.
    let mut d: *mut c_void = null_mut();
    // SAFETY: valid out-pointer.
    check!(cudaErrorIllegalAddress, unsafe { cudaMalloc(&mut d, 64) });
    check!(cudaErrorIllegalAddress, kernel(null_mut(), 10));
    check!(cudaErrorIllegalAddress, cudaDeviceSynchronize());
    check!(cudaErrorIllegalAddress, cudaGetLastError());
    check!(cudaErrorIllegalAddress, cudaPeekAtLastError());
    // Another thread of the process, on device 1, too.
    let p2 = p.clone();
    std::thread::spawn(move || {
        let _g = p2.bind();
        check!(cudaSuccess, cudaSetDevice(1));
        check!(cudaErrorIllegalAddress, kernel(null_mut(), 10));
    })
    .join()
    .unwrap();
    // Resetting device 1 does not end it; resetting device 0 does.
    check!(cudaSuccess, cudaDeviceReset());
    check!(cudaErrorIllegalAddress, kernel(null_mut(), 10));
    check!(cudaSuccess, cudaSetDevice(0));
    check!(cudaSuccess, cudaDeviceReset());
    check!(cudaSuccess, cudaSetDevice(1));
    check!(cudaSuccess, kernel(null_mut(), 10));
    check!(cudaSuccess, cudaDeviceSynchronize());
    // The thread's last error is still the launch refused before the reset, until read once.
    check!(cudaErrorIllegalAddress, cudaGetLastError());
    check!(cudaSuccess, cudaGetLastError());
}

/// What [`callback_log`] records: the stream and status each call got.
type Seen = Mutex<Vec<(usize, cudaError_t)>>;

fn seen() -> &'static Seen {
    Box::leak(Box::new(Mutex::new(Vec::new())))
}

fn arg_of(s: &'static Seen) -> *mut c_void {
    s as *const Seen as *mut c_void
}

/// cuda-musa.md · Stream wait, streams, devices · StreamAddCallback · — → the callback runs exactly once,
/// after earlier work, with the stream's status: the fault's error after a device fault ("For each
/// cudaStreamAddCallback call, a callback will be executed exactly once … In the event of a device error, all
/// subsequently executed callbacks will receive an appropriate cudaError_t", CUDA Runtime API,
/// cudaStreamAddCallback) — 719 after a failing kernel, 700 after an illegal address — while the host function
/// and the kernel body next to it are not called (LaunchHostFunc · not called if the context has a sticky error:
/// "If you do not require the callback to execute in case of a device error, consider using cudaLaunchHostFunc",
/// the same page). Times: the failing kernel (t2) 4..104, the host function skipped 104..105, the callback
/// 105..106 (each costs 1 µs), the later kernel 106..116; the synchronize (t6) returns the fault at 116.
#[test]
fn a_stream_callback_runs_once_with_the_fault_s_code() {
    for (k, code) in [
        (failing(100), cudaErrorLaunchFailure),
        (
            illegal_access().duration(Duration::from_micros(100)),
            cudaErrorIllegalAddress,
        ),
    ] {
        let (_m, p) = machine(1);
        let _g = p.bind();
        let s = stream(cudaStreamDefault); // (t1)
        let (hits, arg) = counter();
        p.launch(core_stream(s), k).unwrap(); // (t2) 4..104
        check!(cudaSuccess, cudaLaunchHostFunc(s, Some(bump), arg)); // (t3)
        let log = seen();
        check!(
            cudaSuccess,
            cudaStreamAddCallback(s, Some(callback_log), arg_of(log), 0)
        ); // (t4)
        check!(cudaSuccess, kernel_with(s, 10, bump, arg)); // (t5)
        check!(code, cudaStreamSynchronize(s)); // (t6) → 116
        assert_eq!(us(&p), 116);
        assert_eq!(
            *log.lock().unwrap(),
            [(s as usize, code)],
            "exactly once, with {code}"
        );
        assert_eq!(
            hits.load(Ordering::SeqCst),
            0,
            "neither the host function nor the body ran"
        );
        // Once the fault is sticky, the call itself returns it and registers nothing.
        let later = seen();
        check!(
            code,
            cudaStreamAddCallback(s, Some(callback_log), arg_of(later), 0)
        );
        check!(code, cudaDeviceSynchronize());
        assert!(later.lock().unwrap().is_empty());
        assert_eq!(log.lock().unwrap().len(), 1, "still once");
    }
}

/// The same row, across streams: a callback on a stream that waits for an event recorded after the fault
/// (the fault travels along the wait) gets 719; a callback on an unrelated stream, not ordered after the fault,
/// gets cudaSuccess (sim: a fault reaches what is ordered after it, see src/engine/exec/faults.rs). A callback
/// enqueued with no fault anywhere gets cudaSuccess.
#[test]
fn a_stream_callback_gets_the_fault_that_is_ordered_before_it() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let (faulty, waiter, unrelated) = (
        stream(cudaStreamNonBlocking),
        stream(cudaStreamNonBlocking),
        stream(cudaStreamNonBlocking),
    );
    let clean = seen();
    check!(
        cudaSuccess,
        cudaStreamAddCallback(unrelated, Some(callback_log), arg_of(clean), 0)
    );
    check!(cudaSuccess, cudaStreamSynchronize(unrelated));
    assert_eq!(*clean.lock().unwrap(), [(unrelated as usize, cudaSuccess)]);

    let e = event(cudaEventDisableTiming);
    p.launch(core_stream(faulty), failing(50)).unwrap();
    check!(cudaSuccess, cudaEventRecord(e, faulty));
    check!(cudaSuccess, cudaStreamWaitEvent(waiter, e, 0));
    let (after, other) = (seen(), seen());
    check!(
        cudaSuccess,
        cudaStreamAddCallback(waiter, Some(callback_log), arg_of(after), 0)
    );
    check!(
        cudaSuccess,
        cudaStreamAddCallback(unrelated, Some(callback_log), arg_of(other), 0)
    );
    check!(cudaSuccess, cudaStreamSynchronize(unrelated));
    assert_eq!(*other.lock().unwrap(), [(unrelated as usize, cudaSuccess)]);
    check!(cudaErrorLaunchFailure, cudaStreamSynchronize(waiter));
    assert_eq!(
        *after.lock().unwrap(),
        [(waiter as usize, cudaErrorLaunchFailure)]
    );
}

/// A stream callback: notes the stream and status it was given in the `Seen` behind `data`.
unsafe extern "C" fn callback_log(stream: cudaStream_t, status: cudaError_t, data: *mut c_void) {
    // SAFETY: the tests pass a leaked `Seen`.
    let seen = unsafe { &*data.cast::<Seen>() };
    seen.lock().unwrap().push((stream as usize, status));
}
