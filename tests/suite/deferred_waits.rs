//! Truth-table tests: ACL deferred waits and timeouts — `docs/semantics/acl.md` · Events · StreamWaitEvent ·
//! never recorded, WithFlag(ACL_EVENT_SYNC) event (the wait holds the stream until the event's next record is
//! issued; ResetEvent clears the flag), and · Peers, memory, timeouts, init · Synchronize*WithTimeout · runs out
//! — through the core API (`EventConfig::unrecorded_wait(UnrecordedWait::Defer)`). Where the vendor's runtime
//! would hang (a synchronize whose work waits for a record only this blocked thread could issue), the simulator
//! answers `WouldDeadlock`. Conventions as in `multi_device.rs`.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use streamsim::{
    Dialect, Event, EventConfig, EventFlags, OpKind, Process, SimError, Status, Stream,
    StreamFlags, UnrecordedWait, WaitCycle, WaitLink,
};

use crate::multi_device::{counting, kernel, machine, span, us};

/// An ACL event created with `ACL_EVENT_SYNC` (waitable; a wait before the first record is deferred).
fn sync_event(p: &Process) -> Event {
    p.create_event_with(EventConfig::new().unrecorded_wait(UnrecordedWait::Defer))
        .unwrap()
}

/// One device, an ACL process, two streams and a SYNC event; stream 1 waits for the never-recorded event and
/// has a 10 µs kernel "after" queued behind the wait. Calls (t1)..(t6).
fn held_stream() -> (streamsim::Machine, Process, Stream, Stream, Event) {
    let m = machine(Dialect::Acl, 1);
    let p = m.process();
    p.set_device(0).unwrap(); // (t1)
    let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // (t2)
    let s2 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // (t3)
    let e = sync_event(&p); // (t4)
    p.stream_wait_event(s1, e).unwrap(); // (t5): 0, deferred
    p.launch(s1, kernel("after", 10)).unwrap(); // (t6): held behind the wait
    (m, p, s1, s2, e)
}

/// acl.md · Events · StreamWaitEvent · never recorded, WithFlag(ACL_EVENT_SYNC) event → 0; the wait is queued
/// and holds the stream until the event's next record is issued and reached; the times of what follows are
/// fixed when that record is issued
#[test]
fn acl_deferred_wait_holds_the_stream_until_the_next_record() {
    crate::common::with_watchdog(30, || {
        let (m, p, s1, s2, e) = held_stream();
        assert_eq!(p.stream_query(s1), Ok(Status::NotReady)); // (t7)
        p.launch(s2, kernel("before", 100)).unwrap(); // (t8) 10..110
        assert_eq!(p.stream_query(s1), Ok(Status::NotReady)); // (t9): still held
        p.record_event(e, s2).unwrap(); // (t10) at 110: releases stream 1
        // The wait (enqueued at t5) and "after" (t6) get their times now: both start at the record, 110.
        p.stream_synchronize(s1).unwrap(); // (t11) → 120
        assert_eq!(p.now(), us(120));
        let t = m.trace();
        let on_s1: Vec<_> = t
            .stream(p.stream_id(s1).unwrap())
            .map(|o| (o.kind.clone(), o.start, o.end))
            .collect();
        assert_eq!(
            on_s1,
            [
                (
                    OpKind::DeferredWait {
                        event: p.event_id(e).unwrap()
                    },
                    us(110),
                    us(110)
                ),
                (OpKind::Kernel, us(110), us(120)),
            ]
        );
        assert_eq!(span(&t, "before"), (us(10), us(110)));
    });
}

/// acl.md · Events · StreamWaitEvent · WithFlag(ACL_EVENT_SYNC) → the wait is for the *next* record issued:
/// work queued behind it on other streams (through events recorded after it) waits too, transitively
#[test]
fn acl_deferred_wait_release_fixes_dependent_streams_transitively() {
    crate::common::with_watchdog(30, || {
        let (m, p, s1, s2, e) = held_stream();
        let s3 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // (t7)
        let mid = p.create_event(EventFlags::DEFAULT).unwrap(); // (t8)
        p.record_event(mid, s1).unwrap(); // (t9): held (behind "after")
        p.stream_wait_event(s3, mid).unwrap(); // (t10): waits for a held record
        p.launch(s3, kernel("third", 5)).unwrap(); // (t11): held
        p.launch(s2, kernel("before", 50)).unwrap(); // (t12) 14..64
        p.record_event(e, s2).unwrap(); // (t13) at 64
        p.device_synchronize().unwrap(); // (t14) → 79
        assert_eq!(p.now(), us(79));
        let t = m.trace();
        assert_eq!(span(&t, "after"), (us(64), us(74)));
        assert_eq!(span(&t, "third"), (us(74), us(79)));
    });
}

/// acl.md · Events · StreamWaitEvent · WithFlag(ACL_EVENT_SYNC): a synchronize that could never return (the
/// record it waits for can only be issued by the blocked thread) → sim: WouldDeadlock (the vendor hangs)
#[test]
fn acl_synchronize_behind_a_deferred_wait_that_could_never_return_is_would_deadlock() {
    crate::common::with_watchdog(30, || {
        let (m, p, s1, s2, e) = held_stream();
        let id = p.stream_id(s1).unwrap();
        let later = p.create_event(EventFlags::DEFAULT).unwrap(); // (t7)
        p.record_event(later, s1).unwrap(); // (t8): held
        let deadlock = |what| SimError::WouldDeadlock {
            what,
            stream: id,
            cycle: WaitCycle(vec![
                WaitLink::HostThread {
                    process: id.process,
                    thread: 0,
                    call: what,
                },
                WaitLink::Held { stream: id },
                WaitLink::NoIssuer {
                    process: id.process,
                    blocked: vec![0],
                },
            ]),
        };
        assert_eq!(
            p.stream_synchronize(s1),
            Err(deadlock("stream_synchronize"))
        ); // (t9)
        assert_eq!(p.device_synchronize(), Err(deadlock("device_synchronize"))); // (t10)
        assert_eq!(
            p.event_synchronize(later),
            Err(deadlock("event_synchronize"))
        ); // (t11)
        assert_eq!(p.now(), us(11), "the refused calls did not move the clock");
        assert_eq!(p.event_query(later), Ok(Status::NotReady)); // (t12)
        // Another stream is not held: it synchronizes normally.
        p.launch(s2, kernel("before", 10)).unwrap(); // (t13) 15..25
        p.stream_synchronize(s2).unwrap(); // (t14) → 25
        // Once the record is issued, everything runs.
        p.record_event(e, s2).unwrap(); // (t26) at 28
        p.stream_synchronize(s1).unwrap(); // (t27) → 38
        assert_eq!(p.now(), us(38));
        assert_eq!(span(&m.trace(), "after"), (us(28), us(38)));
        p.event_synchronize(later).unwrap();
        assert_eq!(p.event_record_time(later), Ok(Some(us(38))));
    });
}

/// acl.md · Peers, memory, timeouts, init · Synchronize*WithTimeout · runs out → 507046 (stream) / 507047
/// (event): behind a deferred wait, the synchronize times out in virtual time (the host clock moves to the
/// deadline)
#[test]
fn acl_synchronize_with_timeout_behind_a_deferred_wait_times_out() {
    crate::common::with_watchdog(30, || {
        let (m, p, s1, s2, e) = held_stream();
        let later = p.create_event(EventFlags::DEFAULT).unwrap(); // (t7)
        p.record_event(later, s1).unwrap(); // (t8): held
        assert_eq!(
            p.stream_synchronize_timeout(s1, Duration::from_millis(5)), // (t9)
            Err(SimError::Timeout {
                what: "stream_synchronize",
                timeout_ms: 5
            })
        );
        assert_eq!(p.now(), us(9 + 5_000));
        assert_eq!(
            p.event_synchronize_timeout(later, Duration::from_millis(2)), // (t5010)
            Err(SimError::Timeout {
                what: "event_synchronize",
                timeout_ms: 2
            })
        );
        assert_eq!(p.now(), us(5_010 + 2_000));
        p.record_event(e, s2).unwrap(); // (t7011) at 7013
        p.stream_synchronize_timeout(s1, Duration::from_millis(1))
            .unwrap(); // (t7012) → 7023
        assert_eq!(p.now(), us(7_023));
        assert_eq!(span(&m.trace(), "after"), (us(7_013), us(7_023)));
    });
}

/// acl.md · Peers, memory, timeouts, init · Synchronize*WithTimeout · runs out → 507046 (stream) / 507047
/// (event); in time → 0, returning at the completion
#[test]
fn acl_synchronize_with_timeout_runs_out_or_returns_in_time() {
    let m = machine(Dialect::Acl, 1);
    let p = m.process();
    p.set_device(0).unwrap(); // (t1)
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap(); // (t2)
    let e = p.create_event(EventFlags::DEFAULT).unwrap(); // (t3)
    p.launch(s, kernel("10 ms", 10_000)).unwrap(); // (t4) 6..10006
    p.record_event(e, s).unwrap(); // (t5) at 10006
    assert_eq!(
        p.stream_synchronize_timeout(s, Duration::from_millis(1)), // (t6)
        Err(SimError::Timeout {
            what: "stream_synchronize",
            timeout_ms: 1
        })
    );
    assert_eq!(p.now(), us(1_006));
    assert_eq!(
        p.event_synchronize_timeout(e, Duration::from_millis(3)), // (t1007)
        Err(SimError::Timeout {
            what: "event_synchronize",
            timeout_ms: 3
        })
    );
    assert_eq!(p.now(), us(4_007));
    p.event_synchronize_timeout(e, Duration::from_millis(6))
        .unwrap(); // (t4008): the deadline 10008 is after 10006
    assert_eq!(p.now(), us(10_006));
}

/// acl.md · Events · StreamWaitEvent · never recorded, WithFlag(ACL_EVENT_SYNC) → … ResetEvent clears the flag
/// so the event can be waited on again (the next wait is deferred again, until the next record)
#[test]
fn acl_reset_event_makes_the_next_wait_deferred_again() {
    crate::common::with_watchdog(30, || {
        let m = machine(Dialect::Acl, 1);
        let p = m.process();
        let ran = Arc::new(AtomicUsize::new(0));
        p.set_device(0).unwrap(); // (t1)
        let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // (t2)
        let s2 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // (t3)
        let e = sync_event(&p); // (t4)
        p.launch(s2, kernel("k1", 10)).unwrap(); // (t5) 7..17
        p.record_event(e, s2).unwrap(); // (t6) at 17
        p.stream_wait_event(s1, e).unwrap(); // (t7) an ordinary wait: 17
        p.reset_event(e, s2).unwrap(); // (t8) queued on s2 at 17; the event is "not recorded" again
        p.stream_wait_event(s1, e).unwrap(); // (t9) deferred again
        p.launch(s1, counting("after", 10, &ran)).unwrap(); // (t10) held
        p.launch(s2, kernel("k2", 50)).unwrap(); // (t11) 17..67
        assert_eq!(p.stream_query(s1), Ok(Status::NotReady)); // (t12)
        p.record_event(e, s2).unwrap(); // (t13) at 67: releases s1
        p.stream_synchronize(s1).unwrap(); // (t14) → 77
        assert_eq!(p.now(), us(77));
        assert_eq!(ran.load(Ordering::SeqCst), 1);
        let t = m.trace();
        assert_eq!(span(&t, "after"), (us(67), us(77)));
        let kinds: Vec<_> = t
            .stream(p.stream_id(s1).unwrap())
            .map(|o| o.kind.name())
            .collect();
        assert_eq!(kinds, ["wait", "wait", "kernel"]);
    });
}

/// acl-runtime-api.md · Failure modes · SetStreamFailureMode · when the mode applies (a task keeps the mode it
/// was sent with) with · ACL_STOP_ON_FAILURE, the context's other streams (another stream of the context stops
/// from its first task ordered after the fault): a wait sent in ACL_CONTINUE_ON_FAILURE, before the stop was
/// set, and released by a record after the fault, is not stopped itself; the stream's next task, sent in stop
/// mode and ordered after the fault through that wait, stops (its body does not run) and its synchronize reports
/// the fault. Found by the ACL property tests (proptests/acl.rs): the poison used to reach a stream only through
/// an edge taken by a task in stop mode, so the kernel ran.
#[test]
fn acl_stop_reaches_a_stream_through_a_wait_sent_before_the_stop() {
    crate::common::with_watchdog(30, || {
        let m = machine(Dialect::Acl, 1);
        let p = m.process();
        let ran = Arc::new(AtomicUsize::new(0));
        p.set_device(0).unwrap(); // (t1)
        let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // (t2)
        let s2 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // (t3)
        let e = sync_event(&p); // (t4)
        p.stream_wait_event(s1, e).unwrap(); // (t5) deferred, sent in continue mode
        p.set_stream_failure_mode(s2, streamsim::FailureMode::Stop)
            .unwrap(); // (t6) the context's streams stop on failure from their next task
        p.launch(s2, kernel("bad", 10).body(|_| Err("boom".into())))
            .unwrap(); // (t7) 9..19
        p.launch(s1, counting("after", 10, &ran)).unwrap(); // (t8) held, sent in stop mode
        p.record_event(e, s2).unwrap(); // (t9) at 19, after the fault: releases s1
        let fault = SimError::KernelFault {
            kind: streamsim::FaultKind::LaunchFailure,
            device: 0,
            stream: p.stream_id(s2).unwrap(),
            label: "bad".into(),
            message: "boom".into(),
        };
        assert_eq!(p.stream_synchronize(s1), Err(fault)); // (t10) → 29
        assert_eq!(p.now(), us(29));
        assert_eq!(
            ran.load(Ordering::SeqCst),
            0,
            "a task ordered after the fault in stop mode ran"
        );
        assert_eq!(span(&m.trace(), "after"), (us(19), us(29)));
    });
}
