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
