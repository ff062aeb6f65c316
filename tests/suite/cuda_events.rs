//! Truth-table tests: `docs/semantics/cuda-musa.md` · Events, CUDA dialect, through the core API.
//!
//! Every test names its row. Errors are asserted as the `SimError` variant the CUDA facade maps to the row's
//! code (400 → `InvalidHandle` / `WrongDevice` / `EventNotRecorded` / `TimingDisabled`, 600 → `NotReady`,
//! 1 → `InvalidFlags`). Virtual times are computed by hand from the default cost model (`src/engine/core/time.rs`): every
//! runtime call first advances the calling thread's clock by 1 µs and acts at that `now`; an operation starts
//! at max(stream cursor, now + 2 µs, what it waits for) and ends start + cost (records cost 0). The comments
//! give `now` of every call as `(tN)`; `event_device`, `event_id`, `event_record_time`, `stream_id` and
//! `now()` do not advance the clock.
//!
//! Checked by the facade tests (C-level arguments that the core API cannot express):
//! - Events · EventCreateWithFlags · NULL out-pointer → 1 InvalidValue
//! - Events · EventElapsedTime · check order: NULL out-pointer (1) first
//!
//! Not observable in the core: Events · EventDestroy · "resources freed at completion" (only "Success at once;
//! the work still runs" is checked).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use streamsim::{
    Event, EventFlags, HandleProblem, Kernel, ObjectKind, OpKind, SimError, Status, Stream,
    StreamFlags, VirtualTime,
};

use crate::common::{cuda2, kernel, span, us};

fn is_invalid_event(r: &SimError, problem: HandleProblem) -> bool {
    matches!(r, SimError::InvalidHandle { kind: ObjectKind::Event, problem: p, .. } if *p == problem)
}

/// cuda-musa.md · Events · EventCreate · — → Success; the event belongs to the calling thread's current device
#[test]
fn event_create_belongs_to_the_current_device() {
    let (_m, p) = cuda2();
    let e0 = p.create_event(EventFlags::DEFAULT).unwrap();
    p.set_device(1).unwrap();
    let e1 = p.create_event(EventFlags::DEFAULT).unwrap();
    assert_eq!(p.event_device(e0), Ok(0));
    assert_eq!(p.event_device(e1), Ok(1));
    // The current device is per host thread: a fresh thread starts on device 0.
    let p2 = p.clone();
    let e2 = std::thread::spawn(move || p2.create_event(EventFlags::DEFAULT).unwrap())
        .join()
        .unwrap();
    assert_eq!(p.event_device(e2), Ok(0));
    assert_eq!(p.current_device(), Some(1));
}

/// cuda-musa.md · Events · EventCreateWithFlags · any OR of BlockingSync, DisableTiming, Interprocess where
/// Interprocess comes with DisableTiming → Success
#[test]
fn event_create_with_every_valid_flag_combination() {
    let (_m, p) = cuda2();
    let b = EventFlags::BLOCKING_SYNC;
    let d = EventFlags::DISABLE_TIMING;
    let i = EventFlags::INTERPROCESS;
    for flags in [EventFlags::DEFAULT, b, d, b | d, i | d, b | i | d] {
        let e = p.create_event(flags);
        assert!(e.is_ok(), "flags {:#x}: {e:?}", flags.0);
    }
}

/// cuda-musa.md · Events · EventCreateWithFlags · Interprocess without DisableTiming → 1 InvalidValue
#[test]
fn event_create_interprocess_without_disable_timing_is_invalid() {
    let (_m, p) = cuda2();
    for flags in [
        EventFlags::INTERPROCESS,
        EventFlags::INTERPROCESS | EventFlags::BLOCKING_SYNC,
    ] {
        let err = p.create_event(flags).unwrap_err();
        assert!(
            matches!(err, SimError::InvalidFlags { what: "create_event", flags: f, .. } if f == flags.0),
            "flags {:#x}: {err:?}",
            flags.0
        );
    }
}

/// cuda-musa.md · Events · EventCreateWithFlags · unknown bit → 1 InvalidValue
#[test]
fn event_create_with_an_unknown_bit_is_invalid() {
    let (_m, p) = cuda2();
    for bits in [0x8, 0x10, 0x100, 0x8000_0000, 0x2 | 0x8, 0xffff_ffff] {
        let err = p.create_event(EventFlags(bits)).unwrap_err();
        assert!(
            matches!(err, SimError::InvalidFlags { what: "create_event", flags, .. } if flags == bits),
            "flags {bits:#x}: {err:?}"
        );
    }
}

/// cuda-musa.md · Events · EventRecord · event and stream on different devices → 400
#[test]
fn event_record_on_a_stream_of_another_device_is_rejected() {
    let (_m, p) = cuda2();
    let e0 = p.create_event(EventFlags::DEFAULT).unwrap(); // device 0
    p.set_device(1).unwrap();
    let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // device 1
    let e1 = p.create_event(EventFlags::DEFAULT).unwrap(); // device 1

    let wrong = |r: Result<(), SimError>, event_device: u32| match r {
        Err(SimError::WrongDevice {
            what: "record_event",
            object_device,
            ..
        }) => assert_eq!(object_device, event_device),
        other => panic!("expected WrongDevice from record_event, got {other:?}"),
    };
    // Current device 1: a created stream of device 1, and the NULL stream (device 1's legacy stream).
    wrong(p.record_event(e0, s1), 0);
    wrong(p.record_event(e0, Stream::DEFAULT), 0);
    wrong(p.record_event(e0, Stream::PER_THREAD), 0);
    // Current device 0: the event of device 1 on device 0's NULL stream.
    p.set_device(0).unwrap();
    wrong(p.record_event(e1, Stream::DEFAULT), 1);
    wrong(p.record_event(e1, Stream::LEGACY), 1);
    // Nothing was captured.
    assert_eq!(p.event_record_time(e0), Ok(None));
    assert_eq!(p.event_record_time(e1), Ok(None));
    // The complementary case: event and stream on the same device (not the current one) is fine.
    assert_eq!(p.record_event(e1, s1), Ok(()));
}

/// cuda-musa.md · Events · EventRecord · event recorded again → the new record replaces the captured state;
/// waits issued earlier keep the old capture; Query/Synchronize/ElapsedTime use the newest
#[test]
fn event_record_again_replaces_the_capture_but_not_earlier_waits() {
    let (m, p) = cuda2();
    let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // t1
    let s2 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // t2
    let e = p.create_event(EventFlags::DEFAULT).unwrap(); // t3
    let a = p.create_event(EventFlags::DEFAULT).unwrap(); // t4
    p.record_event(a, s1).unwrap(); // t5: 7..7
    p.launch(s1, kernel("k1", 100)).unwrap(); // t6: 8..108
    p.record_event(e, s1).unwrap(); // t7: 108
    p.stream_wait_event(s2, e).unwrap(); // t8: wait for 108
    p.launch(s1, kernel("k2", 200)).unwrap(); // t9: 108..308
    p.record_event(e, s1).unwrap(); // t10: 308 (replaces 108)
    p.launch(s2, kernel("k3", 10)).unwrap(); // t11: max(108, 13) = 108..118
    assert_eq!(p.event_record_time(e), Ok(Some(us(308))));

    p.stream_synchronize(s2).unwrap(); // t12 → clock 118
    assert_eq!(p.now(), us(118));
    // The old capture (108) has passed; the newest (308) has not: Query uses the newest.
    assert_eq!(p.event_query(e), Ok(Status::NotReady)); // t119
    p.event_synchronize(e).unwrap(); // t120 → clock 308
    assert_eq!(p.now(), us(308));
    assert_eq!(p.event_query(e), Ok(Status::Complete)); // t309
    // ElapsedTime uses the newest: 308 - 7 µs.
    assert_eq!(p.event_elapsed_ms(a, e), Ok(0.301));

    p.device_synchronize().unwrap();
    let t = m.trace();
    assert_eq!(span(&t, "k1"), (us(8), us(108)));
    assert_eq!(span(&t, "k2"), (us(108), us(308)));
    assert_eq!(
        span(&t, "k3"),
        (us(108), us(118)),
        "k3 waits for the old capture"
    );
    let s1_id = p.stream_id(s1).unwrap();
    let s2_id = p.stream_id(s2).unwrap();
    let e_id = p.event_id(e).unwrap();
    let wait = t
        .stream(s2_id)
        .find(|o| matches!(o.kind, OpKind::Wait { .. }))
        .expect("a wait on s2");
    // s1: record a (1), k1 (2), record e (3), k2 (4), record e (5): the wait names the third operation.
    assert_eq!(
        wait.kind,
        OpKind::Wait {
            event: e_id,
            on: s1_id,
            seq: 3
        }
    );
    assert_eq!((wait.start, wait.end), (us(108), us(108)));
    let host = t
        .host
        .iter()
        .find(|h| h.label.starts_with("event_synchronize"))
        .expect("event_synchronize in the host trace");
    assert_eq!((host.start, host.end), (us(120), us(308)));
}

/// cuda-musa.md · Events · EventRecord · NULL stream → records on the device's default (legacy) stream:
/// captures all earlier work of the blocking streams of that device
#[test]
fn event_record_on_the_null_stream_captures_the_devices_blocking_streams() {
    let (m, p) = cuda2();
    let sb = p.create_stream(StreamFlags::DEFAULT).unwrap(); // t1
    let snb = p.create_stream(StreamFlags::NON_BLOCKING).unwrap(); // t2
    let e = p.create_event(EventFlags::DEFAULT).unwrap(); // t3
    p.set_device(1).unwrap(); // t4
    let s_dev1 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // t5
    p.launch(s_dev1, kernel("dev1", 1000)).unwrap(); // t6: 8..1008
    p.set_device(0).unwrap(); // t7
    p.launch(sb, kernel("blocking", 100)).unwrap(); // t8: 10..110
    p.launch(snb, kernel("non-blocking", 500)).unwrap(); // t9: 11..511
    p.record_event(e, Stream::DEFAULT).unwrap(); // t10: max(12, 110) = 110
    // Captures the blocking stream (110), not the non-blocking one (511) nor device 1 (1008).
    assert_eq!(p.event_record_time(e), Ok(Some(us(110))));
    p.event_synchronize(e).unwrap(); // t11 → 110
    assert_eq!(p.now(), us(110));
    assert_eq!(p.event_query(e), Ok(Status::Complete)); // t111
    assert_eq!(p.stream_query(snb), Ok(Status::NotReady)); // t112

    p.device_synchronize().unwrap();
    let t = m.trace();
    let legacy = p.stream_id(Stream::DEFAULT).unwrap();
    let rec = t
        .stream(legacy)
        .next()
        .expect("the record on the legacy stream");
    assert_eq!(
        rec.kind,
        OpKind::Record {
            event: p.event_id(e).unwrap()
        }
    );
    assert_eq!((rec.start, rec.end), (us(110), us(110)));
    assert_eq!(span(&t, "blocking"), (us(10), us(110)));
    assert_eq!(span(&t, "non-blocking"), (us(11), us(511)));
}

/// cuda-musa.md · Events · EventQuery · never recorded → 0 Success
#[test]
fn event_query_never_recorded_is_complete() {
    let (_m, p) = cuda2();
    let e = p.create_event(EventFlags::DEFAULT).unwrap();
    // Even with unfinished work on the device.
    p.launch(Stream::DEFAULT, kernel("busy", 1000)).unwrap();
    assert_eq!(p.event_query(e), Ok(Status::Complete));
    let t = p.create_event(EventFlags::DISABLE_TIMING).unwrap();
    assert_eq!(p.event_query(t), Ok(Status::Complete));
}

/// cuda-musa.md · Events · EventQuery · captured work not finished → 600 NotReady
#[test]
fn event_query_pending_is_not_ready_until_the_clock_passes_it() {
    let (_m, p) = cuda2();
    let e = p.create_event(EventFlags::DEFAULT).unwrap(); // t1
    p.launch(Stream::DEFAULT, kernel("k", 50)).unwrap(); // t2: 4..54
    p.record_event(e, Stream::DEFAULT).unwrap(); // t3: 54
    assert_eq!(p.event_query(e), Ok(Status::NotReady)); // t4
    // Queries at t5..t53 are NotReady, t54 is the first Complete.
    for _ in 5..54 {
        assert_eq!(p.event_query(e), Ok(Status::NotReady));
    }
    assert_eq!(p.now(), us(53));
    assert_eq!(p.event_query(e), Ok(Status::Complete)); // t54
}

/// cuda-musa.md · Events · EventQuery / EventSynchronize · event of a device other than the current one →
/// works (Success / NotReady)
#[test]
fn event_query_and_synchronize_work_for_an_event_of_another_device() {
    let (_m, p) = cuda2();
    p.set_device(1).unwrap(); // t1
    let e = p.create_event(EventFlags::DEFAULT).unwrap(); // t2
    let never = p.create_event(EventFlags::DEFAULT).unwrap(); // t3
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap(); // t4
    p.launch(s, kernel("k", 100)).unwrap(); // t5: 7..107
    p.record_event(e, s).unwrap(); // t6: 107
    p.set_device(0).unwrap(); // t7
    assert_eq!(p.event_query(e), Ok(Status::NotReady)); // t8
    assert_eq!(p.event_query(never), Ok(Status::Complete)); // t9
    assert_eq!(p.event_synchronize(e), Ok(())); // t10 → 107
    assert_eq!(p.now(), us(107));
    assert_eq!(p.event_query(e), Ok(Status::Complete)); // t108
    assert_eq!(p.event_synchronize(never), Ok(()));
    assert_eq!(p.current_device(), Some(0));
}

/// cuda-musa.md · Events · EventSynchronize · never recorded → 0 at once
#[test]
fn event_synchronize_never_recorded_returns_at_once() {
    let (m, p) = cuda2();
    let e = p.create_event(EventFlags::DEFAULT).unwrap(); // t1
    p.launch(Stream::DEFAULT, kernel("busy", 1000)).unwrap(); // t2: 4..1004
    assert_eq!(p.event_synchronize(e), Ok(())); // t3: does not wait for anything
    assert_eq!(p.now(), us(3));
    let b = p
        .create_event(EventFlags::BLOCKING_SYNC | EventFlags::DISABLE_TIMING)
        .unwrap(); // t4
    assert_eq!(p.event_synchronize(b), Ok(())); // t5
    assert_eq!(p.now(), us(5));
    assert!(
        m.trace()
            .host
            .iter()
            .all(|h| !h.label.starts_with("event_synchronize")),
        "a never-recorded event synchronize blocks on nothing"
    );
}

/// One program, answers and times, with the two events created with `flags`.
fn blocking_sync_program(flags: EventFlags) -> (Vec<Status>, Vec<VirtualTime>, f32) {
    let (_m, p) = cuda2();
    let a = p.create_event(flags).unwrap(); // t1
    let b = p.create_event(flags).unwrap(); // t2
    p.record_event(a, Stream::DEFAULT).unwrap(); // t3: 5
    p.launch(Stream::DEFAULT, kernel("k", 40)).unwrap(); // t4: 6..46
    p.record_event(b, Stream::DEFAULT).unwrap(); // t5: 46
    let mut answers = vec![p.event_query(b).unwrap()]; // t6
    let mut clocks = Vec::new();
    p.event_synchronize(b).unwrap(); // t7 → 46
    clocks.push(p.now());
    answers.push(p.event_query(b).unwrap()); // t47
    p.event_synchronize(a).unwrap(); // t48, already done
    clocks.push(p.now());
    let ms = p.event_elapsed_ms(a, b).unwrap(); // t49
    (answers, clocks, ms)
}

/// cuda-musa.md · Events · EventSynchronize · BlockingSync or not → same results (blocking vs spinning only)
#[test]
fn event_synchronize_blocking_sync_gives_the_same_results() {
    let spin = blocking_sync_program(EventFlags::DEFAULT);
    let block = blocking_sync_program(EventFlags::BLOCKING_SYNC);
    assert_eq!(spin, block);
    assert_eq!(
        spin,
        (
            vec![Status::NotReady, Status::Complete],
            vec![us(46), us(48)],
            0.041
        )
    );
}

/// cuda-musa.md · Events · EventElapsedTime · check order: NULL out-pointer (1) → different devices (400) →
/// either never recorded (400) → either DisableTiming (400) → either not finished (600) → as listed: 400 beats 600
#[test]
fn event_elapsed_time_checks_in_the_listed_order() {
    let (_m, p) = cuda2();
    let dt = EventFlags::DISABLE_TIMING;
    // Pending work on both devices, so that every recorded event below is unfinished.
    let a0_never_dt = p.create_event(dt).unwrap();
    let a0_never = p.create_event(EventFlags::DEFAULT).unwrap();
    let a0_dt = p.create_event(dt).unwrap();
    let a0 = p.create_event(EventFlags::DEFAULT).unwrap();
    p.launch(Stream::DEFAULT, kernel("busy0", 1000)).unwrap();
    p.record_event(a0_dt, Stream::DEFAULT).unwrap();
    p.record_event(a0, Stream::DEFAULT).unwrap();
    p.set_device(1).unwrap();
    let b1_never_dt = p.create_event(dt).unwrap();
    let b1 = p.create_event(EventFlags::DEFAULT).unwrap();
    p.launch(Stream::DEFAULT, kernel("busy1", 1000)).unwrap();
    p.record_event(b1, Stream::DEFAULT).unwrap();
    p.set_device(0).unwrap();
    let a_id = |e: Event| p.event_id(e).unwrap();

    // Different devices beats never recorded, DisableTiming and not finished.
    for (x, y) in [(a0_never_dt, b1_never_dt), (a0, b1), (a0_dt, b1)] {
        let err = p.event_elapsed_ms(x, y).unwrap_err();
        assert!(
            matches!(
                err,
                SimError::WrongDevice {
                    what: "event_elapsed_time",
                    object_device: 1,
                    ..
                }
            ),
            "{err:?}"
        );
    }
    // Never recorded beats DisableTiming and not finished (either position).
    assert_eq!(
        p.event_elapsed_ms(a0_dt, a0_never),
        Err(SimError::EventNotRecorded {
            what: "event_elapsed_time",
            event: a_id(a0_never)
        })
    );
    assert_eq!(
        p.event_elapsed_ms(a0_never_dt, a0),
        Err(SimError::EventNotRecorded {
            what: "event_elapsed_time",
            event: a_id(a0_never_dt)
        })
    );
    // DisableTiming beats not finished (either position).
    assert_eq!(
        p.event_elapsed_ms(a0, a0_dt),
        Err(SimError::TimingDisabled { event: a_id(a0_dt) })
    );
    assert_eq!(
        p.event_elapsed_ms(a0_dt, a0),
        Err(SimError::TimingDisabled { event: a_id(a0_dt) })
    );
    // Not finished, last (either position).
    let done = p.create_event(EventFlags::DEFAULT).unwrap();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    p.record_event(done, s).unwrap();
    p.stream_synchronize(s).unwrap();
    assert_eq!(p.event_query(done), Ok(Status::Complete));
    for (x, y) in [(a0, a0), (a0, done), (done, a0)] {
        assert_eq!(
            p.event_elapsed_ms(x, y),
            Err(SimError::NotReady {
                what: "event_elapsed_time"
            })
        );
    }
    p.event_synchronize(a0).unwrap();
    assert!(p.event_elapsed_ms(done, a0).is_ok());
}

/// cuda-musa.md · Events · EventElapsedTime · start == end, finished → 0.0
#[test]
fn event_elapsed_time_of_an_event_with_itself_is_zero() {
    let (_m, p) = cuda2();
    let e = p.create_event(EventFlags::DEFAULT).unwrap(); // t1
    p.record_event(e, Stream::DEFAULT).unwrap(); // t2: 4
    p.event_synchronize(e).unwrap(); // t3 → 4
    assert_eq!(p.event_elapsed_ms(e, e), Ok(0.0));
    // Two events recorded back to back behind a kernel complete at the same virtual time.
    let a = p.create_event(EventFlags::DEFAULT).unwrap(); // t6
    let b = p.create_event(EventFlags::DEFAULT).unwrap(); // t7
    p.launch(Stream::DEFAULT, kernel("k", 30)).unwrap(); // t8: 10..40
    p.record_event(a, Stream::DEFAULT).unwrap(); // t9: 40
    p.record_event(b, Stream::DEFAULT).unwrap(); // t10: 40
    p.event_synchronize(b).unwrap();
    assert_eq!(p.event_elapsed_ms(a, b), Ok(0.0));
    assert_eq!(p.event_elapsed_ms(b, a), Ok(0.0));
}

/// cuda-musa.md · Events · EventElapsedTime · end finished before start → negative milliseconds, Success
#[test]
fn event_elapsed_time_is_negative_when_end_finished_first() {
    let (_m, p) = cuda2();
    let start = p.create_event(EventFlags::DEFAULT).unwrap(); // t1
    let end = p.create_event(EventFlags::DEFAULT).unwrap(); // t2
    p.record_event(end, Stream::DEFAULT).unwrap(); // t3: 5
    p.launch(Stream::DEFAULT, kernel("k", 300)).unwrap(); // t4: 6..306
    p.record_event(start, Stream::DEFAULT).unwrap(); // t5: 306
    p.event_synchronize(start).unwrap(); // t6 → 306
    assert_eq!(p.event_elapsed_ms(start, end), Ok(-0.301));
    assert_eq!(p.event_elapsed_ms(end, start), Ok(0.301));
}

/// cuda-musa.md · Events · EventElapsedTime · resolution → about 0.5 µs on hardware; the simulator is exact
/// (virtual nanoseconds)
#[test]
fn event_elapsed_time_is_exact_to_the_nanosecond() {
    let (_m, p) = cuda2();
    let a = p.create_event(EventFlags::DEFAULT).unwrap(); // t1
    let b = p.create_event(EventFlags::DEFAULT).unwrap(); // t2
    p.record_event(a, Stream::DEFAULT).unwrap(); // t3: 5 µs
    p.launch(
        Stream::DEFAULT,
        Kernel::new("k").duration(Duration::from_nanos(1_000_001)),
    )
    .unwrap(); // t4: 6 µs .. 1_006_001 ns
    p.record_event(b, Stream::DEFAULT).unwrap(); // t5: 1_006_001 ns
    p.event_synchronize(b).unwrap();
    assert_eq!(p.event_record_time(a), Ok(Some(VirtualTime(5_000))));
    assert_eq!(p.event_record_time(b), Ok(Some(VirtualTime(1_006_001))));
    // 1_001_001 ns: not rounded to 0.5 µs (that would give 1.001 ms).
    assert_eq!(p.event_elapsed_ms(a, b), Ok(1.001001));
}

/// cuda-musa.md · Events · EventDestroy · record still pending → Success at once; the work still runs
#[test]
fn event_destroy_while_its_record_is_pending() {
    let (m, p) = cuda2();
    let e = p.create_event(EventFlags::DEFAULT).unwrap(); // t1
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap(); // t2
    let s2 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap(); // t3
    let ran = Arc::new(AtomicBool::new(false));
    let flag = ran.clone();
    p.launch(
        s,
        kernel("k", 100).body(move |_| {
            flag.store(true, Ordering::SeqCst);
            Ok(())
        }),
    )
    .unwrap(); // t4: 6..106
    p.record_event(e, s).unwrap(); // t5: 106
    p.stream_wait_event(s2, e).unwrap(); // t6: waits for 106
    let e_id = p.event_id(e).unwrap();
    assert_eq!(p.destroy_event(e), Ok(())); // t7
    assert_eq!(p.now(), us(7), "destroy returns at once");
    p.launch(s2, kernel("after", 10)).unwrap(); // t8: max(106, 10) = 106..116
    p.device_synchronize().unwrap(); // t9 → 116
    assert_eq!(p.now(), us(116));
    assert!(ran.load(Ordering::SeqCst));
    let t = m.trace();
    let rec = t
        .ops
        .iter()
        .find(|o| o.kind == OpKind::Record { event: e_id })
        .expect("the destroyed event's record still ran");
    assert_eq!((rec.start, rec.end), (us(106), us(106)));
    assert_eq!(span(&t, "after"), (us(106), us(116)));
}

/// cuda-musa.md · Events · any event call · destroyed or never-created handle → vendor: undefined. sim: 400
/// InvalidResourceHandle, with a message that says "destroyed"
#[test]
fn event_calls_with_a_destroyed_handle() {
    let (_m, p) = cuda2();
    let live = p.create_event(EventFlags::DEFAULT).unwrap();
    p.record_event(live, Stream::DEFAULT).unwrap();
    let dead = p.create_event(EventFlags::DEFAULT).unwrap();
    p.record_event(dead, Stream::DEFAULT).unwrap();
    p.destroy_event(dead).unwrap();
    // The slot is reused with a new generation; the old handle stays dead.
    let reused = p.create_event(EventFlags::DEFAULT).unwrap();
    assert_ne!(reused, dead);
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
    p.device_synchronize().unwrap();

    let results: Vec<(&str, Result<(), SimError>)> = vec![
        ("destroy_event", p.destroy_event(dead)),
        ("record_event", p.record_event(dead, s)),
        ("record_event(NULL)", p.record_event(dead, Stream::DEFAULT)),
        ("stream_wait_event", p.stream_wait_event(s, dead)),
        ("event_query", p.event_query(dead).map(drop)),
        ("event_synchronize", p.event_synchronize(dead)),
        (
            "elapsed(dead, live)",
            p.event_elapsed_ms(dead, live).map(drop),
        ),
        (
            "elapsed(live, dead)",
            p.event_elapsed_ms(live, dead).map(drop),
        ),
        ("event_id", p.event_id(dead).map(drop)),
        ("event_device", p.event_device(dead).map(drop)),
        ("event_record_time", p.event_record_time(dead).map(drop)),
    ];
    for (call, r) in results {
        let err = r.expect_err(call);
        assert!(
            is_invalid_event(&err, HandleProblem::Destroyed),
            "{call}: {err:?}"
        );
        assert_eq!(
            err,
            SimError::InvalidHandle {
                kind: ObjectKind::Event,
                raw: dead.to_raw(),
                problem: HandleProblem::Destroyed
            }
        );
        assert!(err.to_string().contains("destroyed"), "{call}: {err}");
    }
    // The live events were not disturbed.
    assert_eq!(p.event_query(reused), Ok(Status::Complete));
    assert!(p.event_elapsed_ms(live, live).is_ok());
}

/// cuda-musa.md · Events · any event call · destroyed or never-created handle → sim: 400
/// InvalidResourceHandle (never-created half; another process's handle is never created in this one)
#[test]
fn event_calls_with_a_never_created_handle() {
    let (m, p) = cuda2();
    let live = p.create_event(EventFlags::DEFAULT).unwrap();
    let q = m.process();
    let other = q.create_event(EventFlags::DEFAULT).unwrap();
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
    for (bad, problem) in [
        (Event::from_raw(0), HandleProblem::Unknown),
        (Event::from_raw(0xdead_beef), HandleProblem::Unknown),
        (Event::from_raw(s.to_raw()), HandleProblem::Unknown), // a stream handle
        (other, HandleProblem::Foreign { owner: q.id() }),
    ] {
        let results: Vec<(&str, Result<(), SimError>)> = vec![
            ("destroy_event", p.destroy_event(bad)),
            ("record_event", p.record_event(bad, s)),
            ("stream_wait_event", p.stream_wait_event(s, bad)),
            ("event_query", p.event_query(bad).map(drop)),
            ("event_synchronize", p.event_synchronize(bad)),
            (
                "elapsed(bad, live)",
                p.event_elapsed_ms(bad, live).map(drop),
            ),
            (
                "elapsed(live, bad)",
                p.event_elapsed_ms(live, bad).map(drop),
            ),
        ];
        for (call, r) in results {
            let err = r.expect_err(call);
            assert!(is_invalid_event(&err, problem), "{call} {bad:?}: {err:?}");
        }
    }
}
