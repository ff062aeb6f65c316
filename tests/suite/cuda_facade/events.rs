//! cuda-musa.md rows through the CUDA facade: events.

use super::*;

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
pub(super) fn timing_scenario(flags: c_uint) -> Vec<(cudaError_t, u64, u32)> {
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
