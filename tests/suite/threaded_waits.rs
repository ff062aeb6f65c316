//! Truth-table tests: waits that another host thread releases, and wait-task timeouts, through the core API.
//!
//! - acl.md · Events · StreamWaitEvent · never recorded, WithFlag(ACL_EVENT_SYNC) event: a synchronize behind the
//!   held wait blocks until another host thread of the process issues the record, as the runtime does; it is
//!   `WouldDeadlock` only when no other thread could (every live thread of the process blocked, or none left) — the
//!   rule of `src/engine/process/board.rs`. The answers and the virtual times depend only on each thread's calls,
//!   never on which thread ran first.
//! - acl-runtime-api.md · Wait tasks and their timeouts · aclrtSetOpWaitTimeout: a wait task that waits longer than
//!   the timeout gives up at its deadline (its own start plus the timeout), and the next synchronize of its stream
//!   reports it (`WaitTimedOut`).
//!
//! Every thread that uses the process makes its first call before the threads wait on each other (the rule's limit:
//! a thread that has not called yet cannot be foreseen). Conventions as in `multi_device.rs`.

use std::sync::{Arc, Barrier};
use std::time::Duration;

use streamsim::{
    Dialect, EventConfig, EventFlags, Process, SimError, Status, StreamFlags, UnrecordedWait,
    WaitCycle, WaitLink,
};

use crate::multi_device::{kernel, machine, span, us};

fn sync_event(p: &Process) -> streamsim::Event {
    p.create_event_with(EventConfig::new().unrecorded_wait(UnrecordedWait::Defer))
        .unwrap()
}

/// acl.md · Events · StreamWaitEvent · never recorded, WithFlag(ACL_EVENT_SYNC) event, and acl-runtime-api.md ·
/// Waits another host thread releases · the covered work waits for a release another live thread could issue →
/// the wait holds the stream until the event's next record is issued; a synchronize from thread A blocks until
/// thread B issues it (the times are those of a single program order: B's record at 104 releases A's stream)
#[test]
fn a_synchronize_blocks_until_another_thread_records() {
    crate::common::with_watchdog(30, || {
        let m = machine(Dialect::Acl, 1);
        let p = m.process();
        p.set_device(0).unwrap(); // a1
        let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // a2
        let s2 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // a3
        let e = sync_event(&p); // a4
        p.stream_wait_event(s1, e).unwrap(); // a5: deferred
        p.launch(s1, kernel("after", 10)).unwrap(); // a6: held
        let started = Arc::new(Barrier::new(2));
        let b = {
            let (p, started) = (p.clone(), started.clone());
            std::thread::spawn(move || {
                p.set_device(0).unwrap(); // b1: B is live from here
                started.wait();
                p.launch(s2, kernel("before", 100)).unwrap(); // b2: 4..104
                p.record_event(e, s2).unwrap(); // b3: at 104, releases s1
                p.now()
            })
        };
        started.wait();
        p.stream_synchronize(s1).unwrap(); // a7: blocks until b3, returns at 114
        assert_eq!(p.now(), us(114));
        assert_eq!(b.join().unwrap(), us(3));
        let t = m.trace();
        assert_eq!(span(&t, "before"), (us(4), us(104)));
        assert_eq!(span(&t, "after"), (us(104), us(114)));
    });
}

/// acl-runtime-api.md · Waits another host thread releases · no other live thread could issue it → sim:
/// WouldDeadlock when no other thread could issue the record: thread B ends without recording (whether A was
/// already blocked or not)
#[test]
fn would_deadlock_once_the_other_thread_has_ended() {
    crate::common::with_watchdog(30, || {
        let m = machine(Dialect::Acl, 1);
        let p = m.process();
        p.set_device(0).unwrap();
        let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap();
        let s2 = p.create_stream(StreamFlags::DEFAULT).unwrap();
        let e = sync_event(&p);
        p.stream_wait_event(s1, e).unwrap();
        let started = Arc::new(Barrier::new(2));
        let b = {
            let (p, started) = (p.clone(), started.clone());
            std::thread::spawn(move || {
                p.set_device(0).unwrap();
                started.wait();
                for _ in 0..100 {
                    p.launch(s2, kernel("busy", 1)).unwrap();
                }
            })
        };
        started.wait();
        let id = p.stream_id(s1).unwrap();
        assert_eq!(
            p.stream_synchronize(s1),
            Err(SimError::WouldDeadlock {
                what: "stream_synchronize",
                stream: id,
                cycle: WaitCycle(vec![
                    WaitLink::HostThread {
                        process: id.process,
                        thread: 0,
                        call: "stream_synchronize",
                    },
                    WaitLink::Held { stream: id },
                    // B has ended: A is the only live thread.
                    WaitLink::NoIssuer {
                        process: id.process,
                        blocked: vec![0],
                    },
                ]),
            })
        );
        b.join().unwrap();
        // The record, issued later by this thread, releases the stream as before.
        p.record_event(e, s2).unwrap();
        p.stream_synchronize(s1).unwrap();
    });
}

/// acl-runtime-api.md · Waits another host thread releases · two threads each wait for a release only the
/// other would issue → sim: two threads that each wait for a record only the other would issue after its own
/// wait: both are told WouldDeadlock (every live thread is blocked)
#[test]
fn two_threads_waiting_on_each_other_both_get_would_deadlock() {
    crate::common::with_watchdog(30, || {
        let m = machine(Dialect::Acl, 1);
        let p = m.process();
        p.set_device(0).unwrap();
        let (s1, s2) = (
            p.create_stream(StreamFlags::DEFAULT).unwrap(),
            p.create_stream(StreamFlags::DEFAULT).unwrap(),
        );
        let (e1, e2) = (sync_event(&p), sync_event(&p));
        p.stream_wait_event(s1, e1).unwrap();
        p.stream_wait_event(s2, e2).unwrap();
        let started = Arc::new(Barrier::new(2));
        let b = {
            let (p, started) = (p.clone(), started.clone());
            std::thread::spawn(move || {
                p.set_device(0).unwrap();
                started.wait();
                let r = p.stream_synchronize(s2); // needs e2, which A records after its own wait
                p.record_event(e1, s2).unwrap();
                r
            })
        };
        started.wait();
        let r = p.stream_synchronize(s1); // needs e1, which B records after its own wait
        p.record_event(e2, s1).unwrap();
        let deadlock = |s, thread| {
            let stream = p.stream_id(s).unwrap();
            SimError::WouldDeadlock {
                what: "stream_synchronize",
                stream,
                cycle: WaitCycle(vec![
                    WaitLink::HostThread {
                        process: stream.process,
                        thread,
                        call: "stream_synchronize",
                    },
                    WaitLink::Held { stream },
                    WaitLink::NoIssuer {
                        process: stream.process,
                        blocked: vec![0, 1],
                    },
                ]),
            }
        };
        assert_eq!(r, Err(deadlock(s1, 0)));
        assert_eq!(b.join().unwrap(), Err(deadlock(s2, 1)));
    });
}

/// acl-runtime-api.md · Wait tasks and their timeouts · aclrtSetOpWaitTimeout → a stream wait whose record ends
/// later than the wait's own start plus the timeout gives up at that deadline; the stream goes on; the next
/// synchronize of the stream reports it (WaitTimedOut, once: ACL_CONTINUE_ON_FAILURE); a wait whose record comes in
/// time is not affected
#[test]
fn an_event_wait_longer_than_the_op_wait_timeout_gives_up_at_its_deadline() {
    let m = machine(Dialect::Acl, 1);
    let p = m.process();
    p.set_device(0).unwrap(); // t1
    let (s1, s2) = (
        p.create_stream(StreamFlags::DEFAULT).unwrap(), // t2
        p.create_stream(StreamFlags::DEFAULT).unwrap(), // t3
    );
    let e = p.create_event(EventFlags::DEFAULT).unwrap(); // t4
    p.set_op_wait_timeout(Some(Duration::from_millis(1)))
        .unwrap(); // t5
    p.launch(s2, kernel("long", 5_000)).unwrap(); // t6: 8..5008
    p.record_event(e, s2).unwrap(); // t7: 5008
    p.stream_wait_event(s1, e).unwrap(); // t8: starts at 10, gives up at 1010
    p.launch(s1, kernel("after", 10)).unwrap(); // t9: 1010..1020
    let fault = SimError::WaitTimedOut {
        stream: p.stream_id(s1).unwrap(),
        label: format!("wait event {}", p.event_id(e).unwrap()),
        timeout_ms: 1,
    };
    assert_eq!(p.stream_synchronize(s1), Err(fault)); // t10 → 1020
    assert_eq!(p.now(), us(1_020));
    assert_eq!(span(&m.trace(), "after"), (us(1_010), us(1_020)));
    assert_eq!(p.stream_synchronize(s1), Ok(()), "reported once");
    // In time: the record ends before the deadline.
    p.launch(s2, kernel("short", 100)).unwrap(); // t1022: 5008..5108
    p.record_event(e, s2).unwrap(); // t1023: 5108
    p.stream_wait_event(s1, e).unwrap(); // t1024: own start 1026, deadline 2026 < 5108: gives up
    p.set_op_wait_timeout(None).unwrap(); // t1025
    p.stream_wait_event(s1, e).unwrap(); // t1026: no timeout: waits until 5108
    p.launch(s1, kernel("later", 10)).unwrap(); // 5108..5118
    assert!(matches!(
        p.stream_synchronize(s1),
        Err(SimError::WaitTimedOut { .. })
    ));
    assert_eq!(p.now(), us(5_118));
    assert_eq!(span(&m.trace(), "later"), (us(5_108), us(5_118)));
}

/// acl-runtime-api.md · Wait tasks and their timeouts · aclrtSetOpWaitTimeout, with Events · StreamWaitEvent ·
/// WithFlag(ACL_EVENT_SYNC): a held wait whose record is never issued gives up at its deadline — a synchronize that
/// nothing else could release returns the timeout (not WouldDeadlock) at that time; a query finds the stream
/// complete once the caller's time has passed the deadline
#[test]
fn a_held_wait_with_a_timeout_gives_up_instead_of_deadlocking() {
    let m = machine(Dialect::Acl, 1);
    let p = m.process();
    p.set_device(0).unwrap(); // t1
    let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // t2
    let e = sync_event(&p); // t3
    p.set_op_wait_timeout(Some(Duration::from_millis(2)))
        .unwrap(); // t4
    p.stream_wait_event(s1, e).unwrap(); // t5: own start 7, deadline 2007
    p.launch(s1, kernel("after", 10)).unwrap(); // t6: held, then 2007..2017
    assert_eq!(p.stream_query(s1), Ok(Status::NotReady)); // t7
    assert!(matches!(
        p.stream_synchronize(s1),
        Err(SimError::WaitTimedOut { timeout_ms: 2, .. })
    )); // t8 → 2017
    assert_eq!(p.now(), us(2_017));
    assert_eq!(span(&m.trace(), "after"), (us(2_007), us(2_017)));

    // Again, answered by queries: the wait gives up when a query's time passes its deadline.
    let s2 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // t2018
    let e2 = sync_event(&p); // t2019
    p.stream_wait_event(s2, e2).unwrap(); // t2020: own start 2022, deadline 4022
    let mut polls = 0;
    while p.stream_query(s2) == Ok(Status::NotReady) {
        polls += 1;
    }
    // Queries at 2021, 2022, …: the first at or past the deadline (4022) finds the wait given up and done.
    assert_eq!((polls, p.now()), (2_001, us(4_022)));
    assert!(matches!(
        p.stream_synchronize(s2),
        Err(SimError::WaitTimedOut { .. })
    ));
}

/// acl.md · Synchronize*WithTimeout · runs out → 507046 / 507047, with aclrtSetOpWaitTimeout: a synchronize whose
/// own timeout ends before the held wait's deadline times out first and leaves the wait held; the record, issued
/// afterwards in time, releases it as usual
#[test]
fn a_synchronize_timeout_before_the_wait_deadline_leaves_the_wait_held() {
    let m = machine(Dialect::Acl, 1);
    let p = m.process();
    p.set_device(0).unwrap(); // t1
    let (s1, s2) = (
        p.create_stream(StreamFlags::DEFAULT).unwrap(), // t2
        p.create_stream(StreamFlags::DEFAULT).unwrap(), // t3
    );
    let e = sync_event(&p); // t4
    p.set_op_wait_timeout(Some(Duration::from_secs(1))).unwrap(); // t5
    p.stream_wait_event(s1, e).unwrap(); // t6: deadline 1 s + 8 µs
    p.launch(s1, kernel("after", 10)).unwrap(); // t7: held
    assert_eq!(
        p.stream_synchronize_timeout(s1, Duration::from_millis(1)), // t8 → 1008
        Err(SimError::Timeout {
            what: "stream_synchronize",
            timeout_ms: 1
        })
    );
    assert_eq!(p.now(), us(1_008));
    p.record_event(e, s2).unwrap(); // t1009: at 1011, before the deadline
    p.stream_synchronize(s1).unwrap(); // → 1021
    assert_eq!(p.now(), us(1_021));
    assert_eq!(span(&m.trace(), "after"), (us(1_011), us(1_021)));
}
