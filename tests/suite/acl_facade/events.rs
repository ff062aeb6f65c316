//! acl.md rows through the ACL facade: Events.

use super::*;

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
        // Order: the IPC / EXTERNAL check comes first (the runtime's ApiErrorDecorator::EventElapsedTime, before
        // Event::ElapsedTime looks at the records); then "never recorded", before the not-finished and
        // TIME_LINE checks.
        let ipc = event_with_flag(ACL_EVENT_IPC);
        assert_eq!(
            elapsed(ipc, a),
            Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT),
            "an IPC event never recorded"
        );
        assert_eq!(
            elapsed(b, ipc),
            Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT),
            "IPC before never recorded"
        );
        ok(kernel(NULL, 1_000));
        let untimed = event_with_flag(ACL_EVENT_SYNC);
        let running = new_event();
        ok(aclrtRecordEvent(running, NULL));
        assert_eq!(
            elapsed(untimed, running),
            Err(507000),
            "never recorded before not finished"
        );
        assert_eq!(elapsed(running, untimed), Err(507000));
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
