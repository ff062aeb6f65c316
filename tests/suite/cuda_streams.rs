//! Truth-table tests: `docs/semantics/cuda-musa.md` · Stream wait, streams, devices, CUDA dialect, through the
//! core API (plus the sticky kernel fault of "Errors that stick", as seen through stream calls).
//!
//! Every test names its row. Errors are asserted as the `SimError` variant the CUDA facade maps to the row's
//! code (400 → `InvalidHandle` / `WrongDevice`, 1 → `InvalidFlags`, 800 → `NotPermitted`, 700/719 →
//! `KernelFault`). Virtual times are computed by hand from the default cost model (`src/engine/core/time.rs`): every
//! runtime call first advances the calling thread's clock by 1 µs and acts at that `now`; an operation starts
//! at max(stream cursor, now + 2 µs, what it waits for, legacy default-stream edges) and ends start + cost
//! (records and waits 0, host functions 1 µs, copies latency + bytes / bandwidth). Comments give `now` of
//! every call as `(tN)`, in µs; `stream_id`, `event_id` and `now()` do not advance the clock.
//!
//! Checked by the facade tests (C-level arguments that the core API cannot express):
//! - Stream wait, streams, devices · StreamWaitEvent · flags not 0 → 1 InvalidValue
//! - Stream wait, streams, devices · StreamCreateWithFlags · NULL out-pointer → 1
//! - Stream wait, streams, devices · LaunchHostFunc · NULL fn → 1
//!
//! Not observable in the core: StreamCreateWithPriority · "lower number = higher priority" (the cost model has
//! no contention, so a priority never changes a time); MemcpyPeerAsync (the core has no peer-copy call: a
//! `memcpy_async` between two devices' pointers stands for it).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use streamsim::{
    CopyPath, DevicePtr, EventFlags, FaultKind, HandleProblem, Kernel, ObjectKind, OpKind, Process,
    SimError, Status, Stream, StreamFlags, StreamKind, VirtualTime,
};

use crate::common::{cuda2, kernel, op, span, us, with_watchdog};

/// A kernel whose body fails (a 719 LaunchFailure).
fn faulting(name: &'static str) -> Kernel {
    kernel(name, 10).body(|_| Err("boom".into()))
}

/// cuda-musa.md · Stream wait, streams, devices · StreamWaitEvent · event from another device → allowed
/// (unlike ACL)
#[test]
fn stream_wait_event_on_an_event_of_another_device() {
    let (m, p) = cuda2();
    p.set_device(1).unwrap(); // t1
    let e1 = p.create_event(EventFlags::DEFAULT).unwrap(); // t2
    let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // t3
    p.launch(s1, kernel("dev1", 100)).unwrap(); // t4: 6..106
    p.record_event(e1, s1).unwrap(); // t5: 106
    p.set_device(0).unwrap(); // t6
    let s0 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // t7
    assert_eq!(p.stream_wait_event(s0, e1), Ok(())); // t8: waits for 106
    p.launch(s0, kernel("dev0", 10)).unwrap(); // t9: max(11, 106) = 106..116
    // The legacy stream of device 0 can wait on it too.
    assert_eq!(p.stream_wait_event(Stream::DEFAULT, e1), Ok(())); // t10
    p.device_synchronize().unwrap(); // t11 → 116 (device 0)
    assert_eq!(p.now(), us(116));
    let t = m.trace();
    assert_eq!(span(&t, "dev1"), (us(6), us(106)));
    assert_eq!(span(&t, "dev0"), (us(106), us(116)));
    let s0_id = p.stream_id(s0).unwrap();
    let wait = t.stream(s0_id).next().expect("the wait on s0");
    assert_eq!(
        wait.kind,
        OpKind::Wait {
            event: p.event_id(e1).unwrap(),
            on: p.stream_id(s1).unwrap(),
            seq: 2
        }
    );
}

/// cuda-musa.md · Stream wait, streams, devices · StreamWaitEvent · event never recorded → no-op, Success
#[test]
fn stream_wait_event_never_recorded_is_a_no_op() {
    let (m, p) = cuda2();
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap(); // t1
    let e = p.create_event(EventFlags::DEFAULT).unwrap(); // t2
    p.launch(Stream::DEFAULT, kernel("busy", 1000)).unwrap(); // t3: 5..1005 (legacy)
    let nb = p.create_stream(StreamFlags::NON_BLOCKING).unwrap(); // t4
    assert_eq!(p.stream_wait_event(nb, e), Ok(())); // t5
    p.launch(nb, kernel("k", 10)).unwrap(); // t6: 8..18, nothing waited for
    assert_eq!(p.stream_wait_event(s, e), Ok(()));
    p.stream_synchronize(nb).unwrap(); // → 18
    assert_eq!(p.now(), us(18));
    let t = m.trace();
    let ops: Vec<_> = t.stream(p.stream_id(nb).unwrap()).collect();
    assert_eq!(ops.len(), 1, "no wait operation was enqueued: {ops:?}");
    assert_eq!((ops[0].start, ops[0].end), (us(8), us(18)));
}

/// cuda-musa.md · Stream wait, streams, devices · StreamWaitEvent · semantics → waits for the capture that
/// exists at the time of the call; later re-records do not change it
#[test]
fn stream_wait_event_captures_the_record_current_at_the_call() {
    let (m, p) = cuda2();
    let s1 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap(); // t1
    let s2 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap(); // t2
    let e = p.create_event(EventFlags::DEFAULT).unwrap(); // t3
    p.stream_wait_event(s2, e).unwrap(); // t4: never recorded yet: nothing to wait for
    p.launch(s1, kernel("k1", 100)).unwrap(); // t5: 7..107
    p.record_event(e, s1).unwrap(); // t6: 107
    p.launch(s2, kernel("k2", 10)).unwrap(); // t7: 9..19 (the record after the wait does not count)
    p.stream_wait_event(s2, e).unwrap(); // t8: 107
    p.launch(s1, kernel("k3", 500)).unwrap(); // t9: 107..607
    p.record_event(e, s1).unwrap(); // t10: 607
    p.launch(s2, kernel("k4", 10)).unwrap(); // t11: max(107, 13) = 107..117
    p.device_synchronize().unwrap(); // t12 → 607
    assert_eq!(p.now(), us(607));
    let t = m.trace();
    assert_eq!(span(&t, "k2"), (us(9), us(19)));
    assert_eq!(span(&t, "k3"), (us(107), us(607)));
    assert_eq!(span(&t, "k4"), (us(107), us(117)));
    let s2_ops: Vec<_> = t.stream(p.stream_id(s2).unwrap()).collect();
    assert_eq!(s2_ops.len(), 3, "{s2_ops:?}");
    assert_eq!(
        s2_ops[1].kind,
        OpKind::Wait {
            event: p.event_id(e).unwrap(),
            on: p.stream_id(s1).unwrap(),
            seq: 2
        }
    );
    assert_eq!((s2_ops[1].start, s2_ops[1].end), (us(107), us(107)));
}

/// cuda-musa.md · Stream wait, streams, devices · StreamCreateWithFlags · unknown flag → 1
#[test]
fn stream_create_with_an_unknown_flag_is_invalid() {
    let (_m, p) = cuda2();
    for bits in [0x2, 0x3, 0x4, 0x100, 0x8000_0000, 0xffff_ffff] {
        let err = p.create_stream(StreamFlags(bits)).unwrap_err();
        assert!(
            matches!(err, SimError::InvalidFlags { what: "create_stream", flags, .. } if flags == bits),
            "flags {bits:#x}: {err:?}"
        );
        let err = p
            .create_stream_with_priority(StreamFlags(bits), 0)
            .unwrap_err();
        assert!(
            matches!(err, SimError::InvalidFlags { flags, .. } if flags == bits),
            "{err:?}"
        );
    }
    for flags in [StreamFlags::DEFAULT, StreamFlags::NON_BLOCKING] {
        let s = p.create_stream(flags).unwrap();
        assert_eq!(p.stream_flags(s), Ok(flags));
    }
}

/// cuda-musa.md · Stream wait, streams, devices · StreamCreateWithPriority · out of range → clamped silently;
/// lower number = higher priority; DeviceGetStreamPriorityRange gives (least 0, greatest -5)
#[test]
fn stream_priorities_are_clamped_to_the_device_range() {
    let (_m, p) = cuda2();
    for device in [0, 1] {
        p.set_device(device).unwrap();
        assert_eq!(p.device_priority_range().unwrap(), (0, -5));
        for (asked, got) in [
            (0, 0),
            (-1, -1),
            (-5, -5),
            (-6, -5),
            (i32::MIN, -5),
            (1, 0),
            (i32::MAX, 0),
        ] {
            for flags in [StreamFlags::DEFAULT, StreamFlags::NON_BLOCKING] {
                let s = p.create_stream_with_priority(flags, asked).unwrap();
                assert_eq!(p.stream_priority(s), Ok(got), "asked {asked}");
            }
        }
        let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
        assert_eq!(p.stream_priority(s), Ok(0), "default priority is the least");
    }
}

/// cuda-musa.md · Stream wait, streams, devices · StreamQuery · all work done / empty → 0; else 600
#[test]
fn stream_query_empty_pending_done() {
    let (_m, p) = cuda2();
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap(); // t1
    assert_eq!(p.stream_query(s), Ok(Status::Complete)); // t2: empty
    assert_eq!(p.stream_query(Stream::DEFAULT), Ok(Status::Complete)); // t3: empty
    assert_eq!(p.stream_query(Stream::PER_THREAD), Ok(Status::Complete)); // t4: empty
    p.launch(s, kernel("k", 100)).unwrap(); // t5: 7..107
    assert_eq!(p.stream_query(s), Ok(Status::NotReady)); // t6
    for _ in 7..107 {
        assert_eq!(p.stream_query(s), Ok(Status::NotReady));
    }
    assert_eq!(p.now(), us(106));
    assert_eq!(p.stream_query(s), Ok(Status::Complete)); // t107
}

/// cuda-musa.md · Stream wait, streams, devices · StreamSynchronize · — → blocks until all work of that stream
/// is done
#[test]
fn stream_synchronize_waits_for_that_stream_only() {
    let (m, p) = cuda2();
    let other = p.create_stream(StreamFlags::NON_BLOCKING).unwrap(); // t1
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap(); // t2
    p.launch(other, kernel("other", 1000)).unwrap(); // t3: 5..1005
    p.launch(s, kernel("k1", 100)).unwrap(); // t4: 6..106
    p.launch(s, kernel("k2", 50)).unwrap(); // t5: 106..156
    assert_eq!(p.stream_synchronize(s), Ok(())); // t6 → 156
    assert_eq!(p.now(), us(156));
    assert_eq!(p.stream_query(s), Ok(Status::Complete));
    assert_eq!(p.stream_query(other), Ok(Status::NotReady));
    let t = m.trace();
    let h = t
        .host
        .iter()
        .find(|h| h.label.starts_with("stream_synchronize"))
        .expect("stream_synchronize in the host trace");
    assert_eq!((h.start, h.end), (us(6), us(156)));
    assert_eq!(span(&t, "k2"), (us(106), us(156)));
}

/// cuda-musa.md · Stream wait, streams, devices · StreamSynchronize · — → returns the stream's async error if any
#[test]
fn stream_synchronize_returns_the_streams_async_error() {
    let (_m, p) = cuda2();
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap(); // t1
    p.launch(s, faulting("bad")).unwrap(); // t2: 4..14
    p.launch(s, kernel("after", 10)).unwrap(); // t3: 14..24
    let sid = p.stream_id(s).unwrap();
    let err = p.stream_synchronize(s).unwrap_err(); // t4 → 24
    assert_eq!(
        err,
        SimError::KernelFault {
            kind: FaultKind::LaunchFailure,
            device: 0,
            stream: sid,
            label: "bad".into(),
            message: "boom".into()
        }
    );
    assert_eq!(p.now(), us(24));
    // An illegal address is the other sticky kind (700).
    let (_m, p) = cuda2();
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
    let wild = DevicePtr(streamsim::memory::DEVICE_ADDRESS_BASE + 0x1000);
    p.launch(
        s,
        kernel("wild", 10).body(move |ctx| {
            let mut b = [0u8; 4];
            ctx.read(wild, &mut b)?;
            Ok(())
        }),
    )
    .unwrap();
    let err = p.stream_synchronize(s).unwrap_err();
    assert!(
        matches!(
            err,
            SimError::KernelFault {
                kind: FaultKind::IllegalAddress,
                device: 0,
                ..
            }
        ),
        "{err:?}"
    );
}

/// cuda-musa.md · Stream wait, streams, devices · DeviceSynchronize · — → waits for all work in all streams of
/// the current device from all host threads of the process
#[test]
fn device_synchronize_covers_every_thread_of_the_process_on_the_current_device() {
    let (m, p) = cuda2();
    let q = m.process();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap(); // t1
    p.launch(s, kernel("main", 100)).unwrap(); // t2: 4..104
    // Another host thread of the same process, with its own clock starting at 0.
    let p2 = p.clone();
    std::thread::spawn(move || {
        p2.launch(Stream::PER_THREAD, kernel("thread-pt", 300))
            .unwrap(); // t1: 3..303
        let s = p2.create_stream(StreamFlags::NON_BLOCKING).unwrap(); // t2
        p2.launch(s, kernel("thread-created", 500)).unwrap(); // t3: 5..505
    })
    .join()
    .unwrap();
    p.set_device(1).unwrap(); // t3
    p.launch(Stream::DEFAULT, kernel("device1", 2000)).unwrap(); // t4: 6..2006
    p.set_device(0).unwrap(); // t5
    q.launch(Stream::DEFAULT, kernel("other-process", 3000))
        .unwrap(); // q t1: 3..3003
    assert_eq!(p.device_synchronize(), Ok(())); // t6 → max(104, 303, 505)
    assert_eq!(p.now(), us(505));
    p.set_device(1).unwrap(); // t506
    assert_eq!(p.stream_query(Stream::DEFAULT), Ok(Status::NotReady)); // t507 < 2006
    assert_eq!(q.stream_query(Stream::DEFAULT), Ok(Status::NotReady)); // q t2 < 3003
    let t = m.trace();
    assert_eq!(span(&t, "thread-pt"), (us(3), us(303)));
    assert_eq!(span(&t, "thread-created"), (us(5), us(505)));
    let h = t
        .host
        .iter()
        .find(|h| h.label.starts_with("device_synchronize"))
        .unwrap();
    assert_eq!((h.start, h.end), (us(6), us(505)));
}

/// Destroys a stream of `flags` with 100 µs of pending work, then synchronizes the device.
fn destroy_with_pending_work(flags: StreamFlags) {
    let (m, p) = cuda2();
    let s = p.create_stream(flags).unwrap(); // t1
    let ran = Arc::new(AtomicBool::new(false));
    let flag = ran.clone();
    p.launch(
        s,
        kernel("pending", 100).body(move |_| {
            flag.store(true, Ordering::SeqCst);
            Ok(())
        }),
    )
    .unwrap(); // t2: 4..104
    let sid = p.stream_id(s).unwrap();
    assert_eq!(p.destroy_stream(s), Ok(())); // t3
    assert_eq!(p.now(), us(3), "destroy returns at once");
    // The handle is dead at once.
    let err = p.stream_query(s).unwrap_err(); // t4
    assert_eq!(
        err,
        SimError::InvalidHandle {
            kind: ObjectKind::Stream,
            raw: s.to_raw(),
            problem: HandleProblem::Destroyed
        }
    );
    assert!(err.to_string().contains("destroyed"), "{err}");
    // DeviceSynchronize ("all work in all streams of the current device") still covers the destroyed
    // stream's work.
    p.device_synchronize().unwrap(); // t5 → 104
    assert_eq!(
        p.now(),
        us(104),
        "device_synchronize returned before the destroyed stream's work (ends at 104 µs)"
    );
    assert!(ran.load(Ordering::SeqCst), "the work completed");
    let t = m.trace();
    let o = op(&t, "pending");
    assert_eq!((o.stream, o.start, o.end), (sid, us(4), us(104)));
}

/// cuda-musa.md · Stream wait, streams, devices · StreamDestroy · work pending → Success at once; work completes
/// (a blocking stream)
#[test]
fn stream_destroy_with_pending_work_blocking() {
    destroy_with_pending_work(StreamFlags::DEFAULT);
}

/// cuda-musa.md · Stream wait, streams, devices · StreamDestroy · work pending → Success at once; work completes
/// (a non-blocking stream; with DeviceSynchronize · waits for all work in all streams of the current device)
#[test]
fn stream_destroy_with_pending_work_non_blocking() {
    destroy_with_pending_work(StreamFlags::NON_BLOCKING);
}

/// cuda-musa.md · Stream wait, streams, devices · StreamDestroy · work pending → Success at once; work completes
/// (and the legacy default stream still waits for a destroyed blocking stream's pending work)
#[test]
fn legacy_stream_waits_for_a_destroyed_blocking_streams_work() {
    let (m, p) = cuda2();
    let b = p.create_stream(StreamFlags::DEFAULT).unwrap(); // t1
    p.launch(b, kernel("pending", 100)).unwrap(); // t2: 4..104
    p.destroy_stream(b).unwrap(); // t3
    p.launch(Stream::DEFAULT, kernel("legacy", 10)).unwrap(); // t4: max(6, 104) = 104..114
    p.device_synchronize().unwrap();
    assert_eq!(p.now(), us(114));
    assert_eq!(span(&m.trace(), "legacy"), (us(104), us(114)));
}

/// Every stream call on a destroyed stream (sim choice, as for events: 400 with "destroyed" in the message).
#[test]
fn stream_calls_with_a_destroyed_handle() {
    let (_m, p) = cuda2();
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
    let e = p.create_event(EventFlags::DEFAULT).unwrap();
    p.destroy_stream(s).unwrap();
    let d = p.malloc(16).unwrap();
    let results: Vec<(&str, Result<(), SimError>)> = vec![
        ("destroy_stream", p.destroy_stream(s)),
        ("stream_synchronize", p.stream_synchronize(s)),
        ("stream_query", p.stream_query(s).map(drop)),
        ("stream_flags", p.stream_flags(s).map(drop)),
        ("stream_priority", p.stream_priority(s).map(drop)),
        ("stream_id", p.stream_id(s).map(drop)),
        ("record_event", p.record_event(e, s)),
        ("stream_wait_event", p.stream_wait_event(s, e)),
        ("launch", p.launch(s, kernel("k", 1))),
        ("launch_host_func", p.launch_host_func(s, || {})),
        ("memcpy_async", p.memcpy_async(d, &[0u8; 16], 16, s)),
        ("memset_async", p.memset_async(d, 0, 16, s)),
    ];
    for (call, r) in results {
        let err = r.expect_err(call);
        assert_eq!(
            err,
            SimError::InvalidHandle {
                kind: ObjectKind::Stream,
                raw: s.to_raw(),
                problem: HandleProblem::Destroyed
            },
            "{call}"
        );
        assert!(err.to_string().contains("destroyed"), "{call}: {err}");
    }
}

/// cuda-musa.md · Stream wait, streams, devices · StreamDestroy · NULL → 400
#[test]
fn stream_destroy_null_is_rejected() {
    let (_m, p) = cuda2();
    assert_eq!(
        p.destroy_stream(Stream::DEFAULT),
        Err(SimError::InvalidHandle {
            kind: ObjectKind::Stream,
            raw: 0,
            problem: HandleProblem::NotAllowed
        })
    );
    // The default stream is still usable.
    assert_eq!(p.launch(Stream::DEFAULT, kernel("k", 1)), Ok(()));
    assert_eq!(p.stream_synchronize(Stream::DEFAULT), Ok(()));
}

/// cuda-musa.md · Stream wait, streams, devices · kernel launch · into a stream of a device other than the
/// current one → 400
#[test]
fn kernel_launch_into_a_stream_of_another_device_is_rejected() {
    let (m, p) = cuda2();
    p.set_device(1).unwrap();
    let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap();
    p.set_device(0).unwrap();
    let err = p.launch(s1, kernel("k", 10)).unwrap_err();
    assert!(
        matches!(
            err,
            SimError::WrongDevice {
                what: "launch",
                object_device: 1,
                ..
            }
        ),
        "{err:?}"
    );
    // Nothing was enqueued, and from device 1 the launch works.
    assert_eq!(p.stream_query(s1), Ok(Status::Complete));
    p.set_device(1).unwrap();
    assert_eq!(p.launch(s1, kernel("ok", 10)), Ok(()));
    p.stream_synchronize(s1).unwrap();
    let t = m.trace();
    assert!(t.find("k").is_none());
    assert!(t.find("ok").is_some());
}

/// cuda-musa.md · Stream wait, streams, devices · MemcpyAsync / MemcpyPeerAsync · into a stream of another
/// device → allowed
#[test]
fn memcpy_async_into_a_stream_of_another_device() {
    let (m, p) = cuda2();
    p.set_device(1).unwrap(); // t1
    let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // t2
    let d1 = p.malloc(64).unwrap(); // t3
    p.set_device(0).unwrap(); // t4
    let d0 = p.malloc(64).unwrap(); // t5
    let data: Vec<u8> = (0..64).collect();
    // Host → device 1 on device 1's stream while device 0 is current: 2 µs + 64 B at 16 GB/s = 2004 ns.
    assert_eq!(p.memcpy_async(d1, &data, 64, s1), Ok(())); // t6: 8000..10004 ns
    // Device 1 → device 0 (no peer access: staged through the host, 2004 + 2004 ns).
    assert_eq!(p.memcpy_async(d0, d1, 64, s1), Ok(())); // t7: 10004..14012 ns
    p.stream_synchronize(s1).unwrap(); // t8 → 14012 ns
    assert_eq!(p.now(), VirtualTime(14_012));
    let mut out = vec![0u8; 64];
    p.memcpy(&mut out, d0, 64).unwrap(); // t15.012: 17012..19016 ns
    assert_eq!(out, data);
    assert_eq!(p.now(), VirtualTime(19_016));
    let t = m.trace();
    let ops: Vec<_> = t.stream(p.stream_id(s1).unwrap()).collect();
    let got: Vec<_> = ops
        .iter()
        .map(|o| (o.kind.clone(), o.start, o.end))
        .collect();
    assert_eq!(
        got,
        vec![
            (
                OpKind::Memcpy {
                    path: CopyPath::HostToDevice,
                    bytes: 64
                },
                VirtualTime(8_000),
                VirtualTime(10_004)
            ),
            (
                OpKind::Memcpy {
                    path: CopyPath::StagedThroughHost,
                    bytes: 64
                },
                VirtualTime(10_004),
                VirtualTime(14_012)
            ),
        ]
    );
}

/// cuda-musa.md · Stream wait, streams, devices · LaunchHostFunc · — → runs after all earlier work in the
/// stream and blocks later work
#[test]
fn host_function_runs_in_stream_order() {
    let (m, p) = cuda2();
    let log = Arc::new(Mutex::new(Vec::new()));
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap(); // t1
    let l = log.clone();
    p.launch(
        s,
        kernel("k1", 50).body(move |_| {
            l.lock().unwrap().push("k1");
            Ok(())
        }),
    )
    .unwrap(); // t2: 4..54
    let l = log.clone();
    p.launch_host_func(s, move || l.lock().unwrap().push("host"))
        .unwrap(); // t3: 54..55
    let l = log.clone();
    p.launch(
        s,
        kernel("k2", 10).body(move |_| {
            l.lock().unwrap().push("k2");
            Ok(())
        }),
    )
    .unwrap(); // t4: 55..65
    p.stream_synchronize(s).unwrap(); // t5 → 65
    assert_eq!(p.now(), us(65));
    assert_eq!(*log.lock().unwrap(), ["k1", "host", "k2"]);
    let t = m.trace();
    let h = t
        .ops
        .iter()
        .find(|o| o.kind == OpKind::HostFunction)
        .unwrap();
    assert_eq!((h.start, h.end), (us(54), us(55)));
    assert_eq!(span(&t, "k2"), (us(55), us(65)));
}

/// cuda-musa.md · Stream wait, streams, devices · LaunchHostFunc · — → not called if the context has a sticky
/// error (same stream, enqueued before and after the error was reported)
#[test]
fn host_function_not_called_after_a_fault_on_its_stream() {
    let (_m, p) = cuda2();
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
    let called = Arc::new(AtomicBool::new(false));
    p.launch(s, faulting("bad")).unwrap();
    let c = called.clone();
    p.launch_host_func(s, move || c.store(true, Ordering::SeqCst))
        .unwrap();
    assert!(matches!(
        p.stream_synchronize(s),
        Err(SimError::KernelFault { .. })
    ));
    let c = called.clone();
    let err = p
        .launch_host_func(s, move || c.store(true, Ordering::SeqCst))
        .unwrap_err();
    assert!(matches!(err, SimError::KernelFault { .. }), "{err:?}");
    let c = called.clone();
    let err = p
        .launch_host_func(Stream::DEFAULT, move || c.store(true, Ordering::SeqCst))
        .unwrap_err();
    assert!(matches!(err, SimError::KernelFault { .. }), "{err:?}");
    assert!(!called.load(Ordering::SeqCst));
}

/// cuda-musa.md · Stream wait, streams, devices · LaunchHostFunc · — → not called if the context has a sticky
/// error (another stream of the same device, ordered after the fault by an event)
#[test]
fn host_function_not_called_after_a_fault_on_another_stream_of_the_device() {
    let (_m, p) = cuda2();
    let s1 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let s2 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let e = p.create_event(EventFlags::DEFAULT).unwrap();
    p.launch(s1, faulting("bad")).unwrap();
    p.record_event(e, s1).unwrap();
    p.stream_wait_event(s2, e).unwrap();
    let called = Arc::new(AtomicBool::new(false));
    let c = called.clone();
    p.launch_host_func(s2, move || c.store(true, Ordering::SeqCst))
        .unwrap();
    let r = with_watchdog(10, move || p.device_synchronize());
    assert!(matches!(r, Err(SimError::KernelFault { .. })), "{r:?}");
    assert!(
        !called.load(Ordering::SeqCst),
        "the host function ran although the context had faulted before it"
    );
}

/// cuda-musa.md · Stream wait, streams, devices · any runtime call · made from inside a host function → 800
/// NotPermitted (the simulator always detects this)
#[test]
fn runtime_calls_from_inside_a_host_function_are_not_permitted() {
    with_watchdog(10, || {
        let (_m, p) = cuda2();
        let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
        let e = p.create_event(EventFlags::DEFAULT).unwrap();
        let d = p.malloc(16).unwrap();
        p.record_event(e, s).unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let q = p.clone();
        p.launch_host_func(s, move || {
            tx.send(calls_from_inside(&q, s, e, d)).unwrap();
        })
        .unwrap();
        p.stream_synchronize(s).unwrap();
        check_not_permitted(rx.recv().unwrap());
        // Nothing the host function tried had an effect.
        assert!(p.stream_query(s).is_ok());
        assert!(p.event_query(e).is_ok());
        assert_eq!(p.current_device(), Some(0));
    });
}

/// Not a row of its own: the brief extends "from inside a host function" to kernel bodies (sim).
#[test]
fn runtime_calls_from_inside_a_kernel_body_are_not_permitted() {
    with_watchdog(10, || {
        let (_m, p) = cuda2();
        let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
        let e = p.create_event(EventFlags::DEFAULT).unwrap();
        let d = p.malloc(16).unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let q = p.clone();
        p.launch(
            s,
            kernel("calls", 10).body(move |_| {
                tx.send(calls_from_inside(&q, s, e, d)).unwrap();
                Ok(())
            }),
        )
        .unwrap();
        p.stream_synchronize(s).unwrap();
        check_not_permitted(rx.recv().unwrap());
    });
}

/// Not a row (sim): the simulator's own accessors inside a host function do not make its worker a host thread
/// of the process: `stream_id` is NotPermitted (resolving the NULL stream could create it); `now`,
/// `current_device` and the last error answer as for a thread that has made no call (and setting the last
/// error there is lost); and the next real host thread is still thread 1 — thread ordinals must not depend on
/// when a worker happened to run.
#[test]
fn accessors_inside_a_host_function_do_not_make_the_worker_a_host_thread() {
    with_watchdog(10, || {
        let (m, p) = cuda2();
        let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
        p.launch(s, kernel("k", 5)).unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let q = p.clone();
        p.launch_host_func(s, move || {
            q.set_last_error(SimError::NotPermitted { what: "test" });
            tx.send((
                q.stream_id(Stream::DEFAULT),
                q.stream_id(s).is_err(),
                q.now(),
                q.current_device(),
                q.take_last_error(),
                q.peek_last_error(),
            ))
            .unwrap();
        })
        .unwrap();
        p.stream_synchronize(s).unwrap();
        let (null_id, s_id_refused, now, device, last, peek) = rx.recv().unwrap();
        assert_eq!(null_id, Err(SimError::NotPermitted { what: "stream_id" }));
        assert!(s_id_refused);
        assert_eq!(now, VirtualTime::ZERO);
        assert_eq!(device, Some(0));
        assert_eq!((last, peek), (None, None));
        // The host function did not create the legacy stream: the first use does, on the host.
        assert!(p.stream_id(Stream::DEFAULT).is_ok());
        let q = p.clone();
        std::thread::spawn(move || q.stream_synchronize(s).unwrap())
            .join()
            .unwrap();
        let threads: std::collections::BTreeSet<u32> =
            m.trace().host.iter().map(|e| e.thread).collect();
        assert_eq!(threads, [0, 1].into());
    });
}

type Attempts = Vec<(&'static str, Result<(), SimError>)>;

fn calls_from_inside(p: &Process, s: Stream, e: streamsim::Event, d: DevicePtr) -> Attempts {
    let mut buf = [0u8; 16];
    vec![
        ("set_device", p.set_device(1)),
        (
            "create_stream",
            p.create_stream(StreamFlags::DEFAULT).map(drop),
        ),
        (
            "create_stream",
            p.create_stream_with_priority(StreamFlags::DEFAULT, -1)
                .map(drop),
        ),
        ("destroy_stream", p.destroy_stream(s)),
        ("stream_synchronize", p.stream_synchronize(s)),
        ("stream_synchronize", p.stream_synchronize(Stream::DEFAULT)),
        ("stream_query", p.stream_query(s).map(drop)),
        ("stream_flags", p.stream_flags(s).map(drop)),
        ("stream_priority", p.stream_priority(s).map(drop)),
        ("device_synchronize", p.device_synchronize()),
        (
            "create_event",
            p.create_event(EventFlags::DEFAULT).map(drop),
        ),
        ("record_event", p.record_event(e, s)),
        ("stream_wait_event", p.stream_wait_event(s, e)),
        ("event_query", p.event_query(e).map(drop)),
        ("event_synchronize", p.event_synchronize(e)),
        ("event_elapsed_time", p.event_elapsed_ms(e, e).map(drop)),
        ("destroy_event", p.destroy_event(e)),
        ("malloc", p.malloc(16).map(drop)),
        ("free", p.free(d)),
        ("malloc_host", p.malloc_host(16).map(drop)),
        ("memcpy", p.memcpy(&mut buf, d, 16)),
        ("memcpy_async", p.memcpy_async(d, &[1u8; 16], 16, s)),
        ("memset", p.memset(d, 0, 16)),
        ("memset_async", p.memset_async(d, 0, 16, s)),
        ("launch", p.launch(s, kernel("nested", 1))),
        ("launch_host_func", p.launch_host_func(s, || {})),
    ]
}

fn check_not_permitted(attempts: Attempts) {
    let wrong: Vec<_> = attempts
        .iter()
        .filter(|(call, r)| *r != Err(SimError::NotPermitted { what: call }))
        .collect();
    assert!(
        wrong.is_empty(),
        "expected NotPermitted naming the call: {wrong:#?}"
    );
}

/// cuda-musa.md · Stream wait, streams, devices · legacy default stream · — → work on it waits for all earlier
/// work of the device's blocking streams, and blocking streams' later work waits for it; NonBlocking streams are
/// exempt
#[test]
fn legacy_stream_orders_with_blocking_streams_but_not_non_blocking_ones() {
    let (m, p) = cuda2();
    let b1 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // t1
    let b2 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // t2
    let nb = p.create_stream(StreamFlags::NON_BLOCKING).unwrap(); // t3
    let nb2 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap(); // t4
    p.launch(b1, kernel("b1", 100)).unwrap(); // t5: 7..107
    p.launch(b2, kernel("b2", 200)).unwrap(); // t6: 8..208
    p.launch(nb, kernel("nb", 500)).unwrap(); // t7: 9..509
    p.launch(Stream::DEFAULT, kernel("legacy", 10)).unwrap(); // t8: max(10, 107, 208) = 208..218
    p.launch(b1, kernel("b1-after", 10)).unwrap(); // t9: max(107, 11, 218) = 218..228
    p.launch(b2, kernel("b2-after", 10)).unwrap(); // t10: 218..228
    p.launch(nb2, kernel("nb2-after", 10)).unwrap(); // t11: 13..23
    p.device_synchronize().unwrap(); // t12 → 509
    assert_eq!(p.now(), us(509));
    let t = m.trace();
    assert_eq!(span(&t, "legacy"), (us(208), us(218)));
    assert_eq!(span(&t, "b1-after"), (us(218), us(228)));
    assert_eq!(span(&t, "b2-after"), (us(218), us(228)));
    assert_eq!(span(&t, "nb"), (us(9), us(509)));
    assert_eq!(span(&t, "nb2-after"), (us(13), us(23)));
}

/// cuda-musa.md · Stream wait, streams, devices · legacy default stream · — → blocking streams' later work
/// waits for it (also a blocking stream created after it, and the per-thread stream); NonBlocking exempt
#[test]
fn legacy_stream_holds_back_later_blocking_work() {
    let (m, p) = cuda2();
    p.launch(Stream::DEFAULT, kernel("legacy", 100)).unwrap(); // t1: 3..103
    let b = p.create_stream(StreamFlags::DEFAULT).unwrap(); // t2
    p.launch(b, kernel("b", 10)).unwrap(); // t3: max(5, 103) = 103..113
    let nb = p.create_stream(StreamFlags::NON_BLOCKING).unwrap(); // t4
    p.launch(nb, kernel("nb", 10)).unwrap(); // t5: 7..17
    p.launch(Stream::PER_THREAD, kernel("pt", 10)).unwrap(); // t6: max(8, 103) = 103..113
    let e = p.create_event(EventFlags::DEFAULT).unwrap(); // t7
    p.record_event(e, b).unwrap(); // t8: 113
    assert_eq!(p.event_record_time(e), Ok(Some(us(113))));
    p.device_synchronize().unwrap();
    let t = m.trace();
    assert_eq!(span(&t, "b"), (us(103), us(113)));
    assert_eq!(span(&t, "nb"), (us(7), us(17)));
    assert_eq!(span(&t, "pt"), (us(103), us(113)));
}

/// cuda-musa.md · Stream wait, streams, devices · legacy default stream · — → each device has its own
#[test]
fn legacy_stream_is_per_device() {
    let (m, p) = cuda2();
    p.set_device(1).unwrap(); // t1
    let b1 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // t2
    p.launch(b1, kernel("dev1-blocking", 500)).unwrap(); // t3: 5..505
    p.set_device(0).unwrap(); // t4
    p.launch(Stream::DEFAULT, kernel("dev0-legacy", 10))
        .unwrap(); // t5: 7..17, not after 505
    p.launch(Stream::DEFAULT, kernel("dev0-legacy-long", 1000))
        .unwrap(); // t6: 17..1017
    p.set_device(1).unwrap(); // t7
    p.launch(b1, kernel("dev1-blocking-after", 10)).unwrap(); // t8: 505..515, not after 1017
    p.launch(Stream::DEFAULT, kernel("dev1-legacy", 10))
        .unwrap(); // t9: max(11, 515) = 515..525
    p.device_synchronize().unwrap(); // t10 → 525 (device 1 only)
    assert_eq!(p.now(), us(525));
    p.set_device(0).unwrap(); // t526
    p.device_synchronize().unwrap(); // t527 → 1017
    assert_eq!(p.now(), us(1017));
    let t = m.trace();
    assert_eq!(span(&t, "dev0-legacy"), (us(7), us(17)));
    assert_eq!(span(&t, "dev1-blocking-after"), (us(505), us(515)));
    assert_eq!(span(&t, "dev1-legacy"), (us(515), us(525)));
    let dev0 = p.stream_id(Stream::DEFAULT).unwrap();
    p.set_device(1).unwrap();
    let dev1 = p.stream_id(Stream::DEFAULT).unwrap();
    assert_ne!(dev0, dev1);
    assert_eq!((dev0.device, dev1.device), (0, 1));
}

/// cuda-musa.md · Stream wait, streams, devices · per-thread default stream (0x2) · — → an ordinary blocking
/// stream per host thread, which does synchronize with the legacy stream
#[test]
fn per_thread_stream_is_a_blocking_stream_per_host_thread() {
    let (m, p) = cuda2();
    p.launch(Stream::PER_THREAD, kernel("pt-main", 100))
        .unwrap(); // t1: 3..103
    p.launch(Stream::DEFAULT, kernel("legacy", 10)).unwrap(); // t2: max(4, 103) = 103..113
    p.launch(Stream::PER_THREAD, kernel("pt-main-after", 10))
        .unwrap(); // t3: 113..123
    let main_pt = p.stream_id(Stream::PER_THREAD).unwrap();
    assert_eq!(p.stream_flags(Stream::PER_THREAD), Ok(StreamFlags::DEFAULT));
    let p2 = p.clone();
    let other_pt = std::thread::spawn(move || {
        // Its own clock: t1 → max(3, 113) = 113..123 (it waits for the legacy stream's work).
        p2.launch(Stream::PER_THREAD, kernel("pt-other", 10))
            .unwrap();
        p2.stream_id(Stream::PER_THREAD).unwrap()
    })
    .join()
    .unwrap();
    assert_ne!(main_pt, other_pt, "one per host thread");
    assert!(matches!(main_pt.kind, StreamKind::PerThread(_)));
    assert!(matches!(other_pt.kind, StreamKind::PerThread(_)));
    p.launch(Stream::DEFAULT, kernel("legacy-after", 10))
        .unwrap(); // t5: max(7, 123, 123) = 123..133
    p.device_synchronize().unwrap(); // t6 → 133
    assert_eq!(p.now(), us(133));
    let t = m.trace();
    assert_eq!(span(&t, "legacy"), (us(103), us(113)));
    assert_eq!(span(&t, "pt-main-after"), (us(113), us(123)));
    assert_eq!(op(&t, "pt-other").stream, other_pt);
    assert_eq!(span(&t, "pt-other"), (us(113), us(123)));
    assert_eq!(span(&t, "legacy-after"), (us(123), us(133)));
}

/// cuda-musa.md · Errors that stick (kernel fault 700/719 is sticky) with Stream wait, streams, devices ·
/// StreamSynchronize · returns the stream's async error: after stream_synchronize reports it, later calls on
/// that device return it too; another process keeps working.
#[test]
fn kernel_fault_is_sticky_for_the_device_of_the_process() {
    let (m, p) = cuda2();
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap(); // t1
    let ran_after = Arc::new(AtomicBool::new(false));
    let flag = ran_after.clone();
    p.launch(s, faulting("bad")).unwrap(); // t2: 4..14
    p.launch(
        s,
        kernel("after", 10).body(move |_| {
            flag.store(true, Ordering::SeqCst);
            Ok(())
        }),
    )
    .unwrap(); // t3: 14..24
    let e = p.create_event(EventFlags::DEFAULT).unwrap(); // t4
    p.record_event(e, s).unwrap(); // t5: 24
    let d = p.malloc(16).unwrap(); // t6
    let sid = p.stream_id(s).unwrap();
    let fault = SimError::KernelFault {
        kind: FaultKind::LaunchFailure,
        device: 0,
        stream: sid,
        label: "bad".into(),
        message: "boom".into(),
    };
    assert_eq!(p.stream_synchronize(s), Err(fault.clone())); // t7 → 24
    assert!(!ran_after.load(Ordering::SeqCst), "later work does not run");

    let mut buf = [0u8; 16];
    let later: Attempts = vec![
        ("stream_synchronize", p.stream_synchronize(s)),
        (
            "stream_synchronize(NULL)",
            p.stream_synchronize(Stream::DEFAULT),
        ),
        ("stream_query", p.stream_query(s).map(drop)),
        ("device_synchronize", p.device_synchronize()),
        ("launch", p.launch(s, kernel("k", 1))),
        ("launch(NULL)", p.launch(Stream::DEFAULT, kernel("k", 1))),
        ("launch_host_func", p.launch_host_func(s, || {})),
        ("record_event", p.record_event(e, s)),
        ("stream_wait_event", p.stream_wait_event(s, e)),
        ("event_query", p.event_query(e).map(drop)),
        ("event_synchronize", p.event_synchronize(e)),
        ("event_elapsed_time", p.event_elapsed_ms(e, e).map(drop)),
        ("memcpy_async", p.memcpy_async(d, &[1u8; 16], 16, s)),
        ("memcpy", p.memcpy(&mut buf, d, 16)),
        ("memset", p.memset(d, 0, 16)),
        ("memset_async", p.memset_async(d, 0, 16, s)),
    ];
    let wrong: Vec<_> = later
        .iter()
        .filter(|(_, r)| *r != Err(fault.clone()))
        .collect();

    // Another process on the same machine and device keeps working.
    let q = m.process();
    let ran = Arc::new(AtomicBool::new(false));
    let flag = ran.clone();
    let qe = q.create_event(EventFlags::DEFAULT).unwrap();
    q.launch(
        Stream::DEFAULT,
        kernel("q", 10).body(move |_| {
            flag.store(true, Ordering::SeqCst);
            Ok(())
        }),
    )
    .unwrap();
    q.record_event(qe, Stream::DEFAULT).unwrap();
    assert_eq!(q.event_synchronize(qe), Ok(()));
    assert_eq!(q.device_synchronize(), Ok(()));
    assert!(ran.load(Ordering::SeqCst));

    assert!(
        wrong.is_empty(),
        "calls on the faulted device that did not return the sticky fault: {wrong:#?}"
    );
}

/// cuda-musa.md · Errors that stick: "every later call in that process returns the same error" — also the calls
/// that create or free objects on the faulted device, and a wait on a never-recorded event (a no-op otherwise).
#[test]
fn kernel_fault_is_sticky_for_object_calls_on_the_device() {
    let (_m, p) = cuda2();
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
    let s_other = p.create_stream(StreamFlags::DEFAULT).unwrap();
    let never = p.create_event(EventFlags::DEFAULT).unwrap();
    let e = p.create_event(EventFlags::DEFAULT).unwrap();
    let d = p.malloc(16).unwrap();
    p.launch(s, faulting("bad")).unwrap();
    let fault = p.stream_synchronize(s).unwrap_err();
    assert!(matches!(fault, SimError::KernelFault { .. }), "{fault:?}");
    let later: Attempts = vec![
        (
            "stream_wait_event(never recorded)",
            p.stream_wait_event(s, never),
        ),
        (
            "create_stream",
            p.create_stream(StreamFlags::DEFAULT).map(drop),
        ),
        (
            "create_stream_with_priority",
            p.create_stream_with_priority(StreamFlags::NON_BLOCKING, -1)
                .map(drop),
        ),
        (
            "create_event",
            p.create_event(EventFlags::DEFAULT).map(drop),
        ),
        ("malloc", p.malloc(16).map(drop)),
        ("free", p.free(d)),
        ("destroy_event", p.destroy_event(e)),
        ("destroy_stream", p.destroy_stream(s_other)),
    ];
    let wrong: Vec<_> = later
        .iter()
        .filter(|(_, r)| *r != Err(fault.clone()))
        .collect();
    assert!(
        wrong.is_empty(),
        "calls on the faulted device that did not return the sticky fault: {wrong:#?}"
    );
}

/// cuda-musa.md · Errors that stick: every later call returns the fault. "Later" is happens-before in the
/// simulator (src/engine/exec/faults.rs): a call ordered after the fault — by a synchronize or query that covers it, or
/// through a stream that waited on it — reports it and latches it; a call that is not ordered after it (a race
/// on hardware) does not see it yet, the same on every run.
#[test]
fn kernel_fault_is_reported_by_calls_ordered_after_it() {
    with_watchdog(10, || {
        let (_m, p) = cuda2();
        let s1 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap(); // t1
        let s2 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap(); // t2
        let e = p.create_event(EventFlags::DEFAULT).unwrap(); // t3
        p.launch(s1, faulting("bad")).unwrap(); // t4: 6..16
        p.record_event(e, s1).unwrap(); // t5: 16
        p.launch(s2, kernel("long", 100)).unwrap(); // t6: 8..108
        // Not ordered after the fault: no error, on every run.
        assert_eq!(p.stream_synchronize(s2), Ok(())); // t7 → 108
        // Ordered after it: the query finds s1's work complete and reports its fault.
        let query = p.stream_query(s1);
        assert!(
            matches!(query, Err(SimError::KernelFault { .. })),
            "{query:?}"
        );
        // From now on every call on the device returns it (sticky).
        let event_query = p.event_query(e);
        assert!(
            matches!(event_query, Err(SimError::KernelFault { .. })),
            "{event_query:?}"
        );
        let again = p.stream_synchronize(s2);
        assert!(
            matches!(again, Err(SimError::KernelFault { .. })),
            "{again:?}"
        );
    });
}

/// cuda-musa.md · Errors that stick: the fault travels along a stream wait — a stream that waited on a record
/// after the fault reports it at its own synchronize, and its later host functions do not run.
#[test]
fn kernel_fault_travels_along_a_stream_wait() {
    with_watchdog(10, || {
        let (_m, p) = cuda2();
        let s1 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        let s2 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        let s3 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        let (e1, e2) = (
            p.create_event(EventFlags::DEFAULT).unwrap(),
            p.create_event(EventFlags::DEFAULT).unwrap(),
        );
        p.launch(s1, faulting("bad")).unwrap();
        p.record_event(e1, s1).unwrap();
        p.stream_wait_event(s2, e1).unwrap();
        p.launch(s2, kernel("between", 5)).unwrap();
        p.record_event(e2, s2).unwrap();
        p.stream_wait_event(s3, e2).unwrap();
        let called = Arc::new(AtomicBool::new(false));
        let c = called.clone();
        p.launch_host_func(s3, move || c.store(true, Ordering::SeqCst))
            .unwrap();
        let r = p.stream_synchronize(s3);
        assert!(
            matches!(&r, Err(SimError::KernelFault { label, .. }) if label == "bad"),
            "{r:?}"
        );
        assert!(
            !called.load(Ordering::SeqCst),
            "a host function ordered after the fault ran"
        );
    });
}

/// cuda-musa.md · Errors that stick · the fault is also reported by event_synchronize / device_synchronize
/// covering it (Stream wait, streams, devices · DeviceSynchronize)
#[test]
fn kernel_fault_reported_by_event_and_device_synchronize() {
    let (_m, p) = cuda2();
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
    let e = p.create_event(EventFlags::DEFAULT).unwrap();
    p.launch(s, faulting("bad")).unwrap();
    p.record_event(e, s).unwrap();
    let err = p.event_synchronize(e).unwrap_err();
    assert!(
        matches!(&err, SimError::KernelFault { kind: FaultKind::LaunchFailure, device: 0, label, .. } if label == "bad"),
        "{err:?}"
    );
    let (_m, p) = cuda2();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    p.launch(s, faulting("bad")).unwrap();
    assert_eq!(
        p.device_synchronize(),
        Err(SimError::KernelFault {
            kind: FaultKind::LaunchFailure,
            device: 0,
            stream: p.stream_id(s).unwrap(),
            label: "bad".into(),
            message: "boom".into()
        })
    );
}
