//! Stream and event calls beyond the core set (issue 13, item 3): cudaStreamGetId, cudaStreamGetDevice, the
//! External flags of cudaEventRecordWithFlags and cudaStreamWaitEvent. Rows:
//! `docs/semantics/cuda-musa-runtime-api.md`.

use super::*;

fn id(s: cudaStream_t) -> u64 {
    let mut v = 7;
    check!(cudaSuccess, cudaStreamGetId(s, &mut v));
    v
}

fn device(s: cudaStream_t) -> c_int {
    let mut v = -7;
    check!(cudaSuccess, cudaStreamGetDevice(s, &mut v));
    v
}

/// cuda-musa-runtime-api.md · StreamGetId · created streams are numbered 1, 2, … in creation order, never
/// reused; the special streams have ids no created stream has, per device and thread; a destroyed or garbage
/// handle → 400; NULL → 1.
#[test]
fn stream_ids_are_unique_for_the_life_of_the_process() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    let (a, b) = (stream(cudaStreamDefault), stream(cudaStreamNonBlocking));
    assert_eq!((id(a), id(b)), (1, 2));
    check!(cudaSuccess, cudaStreamDestroy(a));
    let c = stream(cudaStreamDefault);
    assert_eq!(id(c), 3, "ids are not reused");
    let legacy0 = id(null_mut());
    assert_eq!(legacy0, 1 << 60);
    assert_eq!(id(cudaStreamLegacy), legacy0);
    let per_thread0 = id(cudaStreamPerThread);
    check!(cudaSuccess, cudaSetDevice(1));
    let (legacy1, per_thread1) = (id(null_mut()), id(cudaStreamPerThread));
    assert_eq!(legacy1, (1 << 60) | 1);
    let ids = [1, 2, 3, legacy0, legacy1, per_thread0, per_thread1];
    let distinct: std::collections::BTreeSet<_> = ids.iter().collect();
    assert_eq!(distinct.len(), ids.len(), "{ids:?}");
    let mut v = 7;
    for bad in [
        a,
        0xdead_beef_usize as cudaStream_t,
        usize::MAX as cudaStream_t,
    ] {
        check!(cudaErrorInvalidResourceHandle, cudaStreamGetId(bad, &mut v));
    }
    assert_eq!(v, 7);
    check!(cudaErrorInvalidValue, cudaStreamGetId(b, null_mut()));
}

/// cuda-musa-runtime-api.md · StreamGetDevice · a created stream → the device it was created on, whatever the
/// current device; NULL and cudaStreamPerThread → the current device's; garbage → 400; NULL output → 1
/// (hip-tests `Unit_hipStreamGetDevice_Negative`, `_Usecase`, `_SetDiffDevice`).
#[test]
fn stream_device() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    let s0 = stream(cudaStreamDefault);
    check!(cudaSuccess, cudaSetDevice(1));
    let s1 = stream(cudaStreamDefault);
    assert_eq!((device(s0), device(s1)), (0, 1));
    assert_eq!((device(null_mut()), device(cudaStreamPerThread)), (1, 1));
    check!(cudaSuccess, cudaSetDevice(0));
    assert_eq!(
        (device(s1), device(null_mut()), device(cudaStreamLegacy)),
        (1, 0, 0)
    );
    let mut v = -7;
    check!(
        cudaErrorInvalidResourceHandle,
        cudaStreamGetDevice(0x3 as cudaStream_t, &mut v)
    );
    check!(cudaSuccess, cudaStreamDestroy(s0));
    check!(
        cudaErrorInvalidResourceHandle,
        cudaStreamGetDevice(s0, &mut v)
    );
    assert_eq!(v, -7);
    check!(
        cudaErrorInvalidValue,
        cudaStreamGetDevice(null_mut(), null_mut())
    );
    check!(
        cudaErrorInvalidValue,
        cudaStreamGetDevice(cudaStreamPerThread, null_mut())
    );
    check!(cudaErrorInvalidValue, cudaStreamGetDevice(s1, null_mut()));
}

/// Records `start` and `stop` around a 250 µs kernel with `record_flags`, makes a second stream wait on `stop`
/// with `wait_flags`, and returns (the elapsed ms, the second stream's kernel start in µs, the query of `stop`
/// right after the records).
fn timed(record_flags: c_uint, wait_flags: c_uint) -> (f32, u64, cudaError_t) {
    let (m, p) = machine(1);
    let _g = p.bind();
    let (s, t) = (stream(cudaStreamDefault), stream(cudaStreamNonBlocking));
    let (start, stop) = (event(cudaEventDefault), event(cudaEventDefault));
    check!(
        cudaSuccess,
        cudaEventRecordWithFlags(start, s, record_flags)
    );
    check!(cudaSuccess, kernel(s, 250));
    check!(cudaSuccess, cudaEventRecordWithFlags(stop, s, record_flags));
    // SAFETY: a live event.
    let query = unsafe { cudaEventQuery(stop) };
    check!(cudaSuccess, cudaStreamWaitEvent(t, stop, wait_flags));
    // SAFETY: a static name.
    check!(cudaSuccess, unsafe {
        cudasimLaunchKernel(t, c"after".as_ptr(), 1000, None, null_mut())
    });
    check!(cudaSuccess, cudaDeviceSynchronize());
    let mut ms = 0.0;
    check!(cudaSuccess, cudaEventElapsedTime(&mut ms, start, stop));
    let after = m.trace().find("after").expect("ran").start.as_nanos() / 1000;
    (ms, after, query)
}

/// cuda-musa-runtime-api.md · EventRecordWithFlags / StreamWaitEvent · cudaEventRecordExternal and
/// cudaEventWaitExternal outside stream capture → the plain record and wait: the same times, the same answers.
#[test]
fn external_flags_outside_capture_are_the_plain_calls() {
    let plain = timed(cudaEventRecordDefault, cudaEventWaitDefault);
    assert_eq!(plain, (0.251, 258, cudaErrorNotReady));
    assert_eq!(timed(cudaEventRecordExternal, cudaEventWaitDefault), plain);
    assert_eq!(timed(cudaEventRecordDefault, cudaEventWaitExternal), plain);
    assert_eq!(timed(cudaEventRecordExternal, cudaEventWaitExternal), plain);
}
