//! Stream and event calls beyond the core set (issue 13, item 3): cudaStreamGetId, cudaStreamGetDevice, the
//! flags of cudaEventRecordWithFlags and cudaStreamWaitEvent. Rows:
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

/// The structured last error must be the refusal of the External flag by `what`.
fn assert_refused_outside_capture(p: &Process, what: &str, constant: &str) {
    match last(p) {
        SimError::InvalidFlags {
            what: w,
            flags: 1,
            reason,
        } if w == what => assert!(
            reason.starts_with(&format!("{constant} is only valid during stream capture")),
            "{reason:?}"
        ),
        other => panic!("{what}: {other:?}"),
    }
}

/// cuda-musa-runtime-api.md · EventRecordWithFlags / StreamWaitEvent · cudaEventRecordExternal and
/// cudaEventWaitExternal outside stream capture → 1 InvalidValue (the driver API's CUevent_record_flags and
/// CUevent_wait_flags: "This flag is invalid when used outside of capture"), with a message that says the flag
/// is only valid during stream capture, and nothing recorded or waited for: the event keeps its earlier state
/// and the stream that was to wait runs its next kernel at once. The flags are checked before the handles.
#[test]
fn external_flags_outside_capture_are_refused() {
    let (m, p) = machine(1);
    let _g = p.bind();
    let (s, t) = (stream(cudaStreamDefault), stream(cudaStreamNonBlocking));
    let e = event(cudaEventDefault);
    check!(cudaSuccess, kernel(s, 250));
    check!(
        cudaErrorInvalidValue,
        cudaEventRecordWithFlags(e, s, cudaEventRecordExternal)
    );
    assert_refused_outside_capture(&p, "EventRecordWithFlags", "cudaEventRecordExternal");
    // Never recorded: complete (recorded behind the 250 µs kernel, it would be 600 NotReady).
    // SAFETY: a live event.
    check!(cudaSuccess, unsafe { cudaEventQuery(e) });
    check!(
        cudaSuccess,
        cudaEventRecordWithFlags(e, s, cudaEventRecordDefault)
    );
    // SAFETY: a live event.
    check!(cudaErrorNotReady, unsafe { cudaEventQuery(e) });
    check!(
        cudaErrorInvalidValue,
        cudaStreamWaitEvent(t, e, cudaEventWaitExternal)
    );
    assert_refused_outside_capture(&p, "StreamWaitEvent", "cudaEventWaitExternal");
    // The flags are checked before the handles.
    let forged = 0xdead_beef_usize as cudaEvent_t;
    check!(
        cudaErrorInvalidValue,
        cudaEventRecordWithFlags(forged, s, cudaEventRecordExternal)
    );
    check!(
        cudaErrorInvalidValue,
        cudaStreamWaitEvent(t, forged, cudaEventWaitExternal)
    );
    // SAFETY: a static name.
    check!(cudaSuccess, unsafe {
        cudasimLaunchKernel(t, c"after".as_ptr(), 1000, None, null_mut())
    });
    check!(cudaSuccess, cudaDeviceSynchronize());
    // The kernel of s runs 6..256 µs (launched at 4 µs, after the three creations). The two refused calls stop
    // in the facade, before the engine, which is what advances the host clock, so they take no host time:
    // "after" is launched by the eighth call that reaches it, at 8 µs, and starts 2 µs of launch latency later,
    // not behind the kernel.
    let after = m.trace().find("after").expect("ran").start.as_nanos() / 1000;
    assert_eq!(after, 10);
}

/// cuda-musa-runtime-api.md · EventRecordWithFlags / StreamWaitEvent · the Default flags (0) are the plain
/// record and wait: a second stream waiting on the record behind a 250 µs kernel starts after it.
#[test]
fn default_flags_are_the_plain_calls() {
    let (m, p) = machine(1);
    let _g = p.bind();
    let (s, t) = (stream(cudaStreamDefault), stream(cudaStreamNonBlocking));
    let (start, stop) = (event(cudaEventDefault), event(cudaEventDefault));
    check!(
        cudaSuccess,
        cudaEventRecordWithFlags(start, s, cudaEventRecordDefault)
    );
    check!(cudaSuccess, kernel(s, 250));
    check!(
        cudaSuccess,
        cudaEventRecordWithFlags(stop, s, cudaEventRecordDefault)
    );
    // SAFETY: a live event.
    check!(cudaErrorNotReady, unsafe { cudaEventQuery(stop) });
    check!(
        cudaSuccess,
        cudaStreamWaitEvent(t, stop, cudaEventWaitDefault)
    );
    // SAFETY: a static name.
    check!(cudaSuccess, unsafe {
        cudasimLaunchKernel(t, c"after".as_ptr(), 1000, None, null_mut())
    });
    check!(cudaSuccess, cudaDeviceSynchronize());
    let mut ms = 0.0;
    check!(cudaSuccess, cudaEventElapsedTime(&mut ms, start, stop));
    let after = m.trace().find("after").expect("ran").start.as_nanos() / 1000;
    assert_eq!((ms, after), (0.251, 258));
}
