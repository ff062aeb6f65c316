//! Truth-table tests: IPC events — `docs/semantics/cuda-musa.md` · IPC (IpcGetEventHandle,
//! IpcOpenEventHandle, opened event) and the IPC parts of `docs/semantics/acl.md` (handle = char[64],
//! EventElapsedTime · IPC event → 207000) — through the core API, with several simulated processes
//! (`machine.process()`) on one machine. One host thread can drive several processes: each (thread, process)
//! pair has its own virtual clock, so the times below are exact. Conventions as in `multi_device.rs`.

use streamsim::{
    Dialect, Event, EventConfig, EventFlags, HandleProblem, IpcEventHandle, IpcProblem, Machine,
    OpKind, Process, RecordStatus, SimError, Status, StreamFlags, UnrecordedWait,
};

use crate::multi_device::{DIALECTS, bad_event, kernel, machine, op, span, us};

/// An interprocess event as each dialect creates one: CUDA `DisableTiming | Interprocess`; ACL an event with
/// the IPC flag (no timing).
pub fn ipc_event(p: &Process, dialect: Dialect) -> Event {
    match dialect {
        Dialect::Acl => p
            .create_event_with(EventConfig::new().timing(false).interprocess(true))
            .unwrap(),
        _ => p
            .create_event(EventFlags::DISABLE_TIMING | EventFlags::INTERPROCESS)
            .unwrap(),
    }
}

fn ipc_err(what: &'static str, problem: IpcProblem) -> SimError {
    SimError::Ipc { what, problem }
}

/// The handle of event 1 of process 0 on a fresh machine with `seed`.
fn first_handle(dialect: Dialect, seed: u64) -> IpcEventHandle {
    let m = Machine::builder()
        .devices(1)
        .dialect(dialect)
        .seed(seed)
        .build()
        .unwrap();
    let p = m.process();
    p.set_device(0).unwrap();
    let e = ipc_event(&p, dialect);
    p.ipc_get_event_handle(e).unwrap()
}

/// cuda-musa.md · Error codes · "IPC event handle: 64 opaque bytes"; acl.md · aclrtIpcEventHandle = char[64]:
/// the handle is 64 bytes, the same for the same seed within one OS process. It also carries the OS process id
/// — in bytes 24..28 (`IpcEventHandle::OS_PROCESS_BYTES`) and nowhere else — so that a handle from another OS
/// process never opens a local event; every other byte depends on the seed and the event only
/// (`stable_bytes`, the same on every run).
#[test]
fn ipc_handle_is_64_bytes_deterministic_for_a_seed() {
    assert_eq!(std::mem::size_of::<IpcEventHandle>(), 64);
    assert_eq!(IpcEventHandle::OS_PROCESS_BYTES, 24..28);
    for dialect in DIALECTS {
        let a = first_handle(dialect, 42);
        assert_eq!(a.0.len(), 64);
        assert_ne!(a.0, [0u8; 64]);
        assert_eq!(&a.0[24..28], &std::process::id().to_le_bytes());
        let stable = a.stable_bytes();
        assert_eq!(&stable[..24], &a.0[..24]);
        assert_eq!(&stable[24..28], &[0; 4]);
        assert_eq!(&a.0[28..], &[0; 36]);
        assert_eq!(
            &stable[..16],
            b"SSIMIPC1\0\0\0\0\x01\0\0\0",
            "magic, process 0, event 1"
        );
        assert_eq!(
            first_handle(dialect, 42),
            a,
            "{dialect:?}: same seed, same bytes"
        );
        assert_ne!(
            first_handle(dialect, 43),
            a,
            "{dialect:?}: the seed is in the bytes"
        );
        // Exporting the same event twice gives the same handle; another event another one.
        let m = machine(dialect, 1);
        let p = m.process();
        p.set_device(0).unwrap();
        let (e1, e2) = (ipc_event(&p, dialect), ipc_event(&p, dialect));
        let h1 = p.ipc_get_event_handle(e1).unwrap();
        assert_eq!(p.ipc_get_event_handle(e1), Ok(h1));
        assert_ne!(p.ipc_get_event_handle(e2).unwrap(), h1);
    }
}

/// cuda-musa.md · IPC · IpcGetEventHandle · event without Interprocess → 400 (ACL: the same error; no row)
#[test]
fn ipc_get_handle_of_an_event_without_interprocess_is_rejected() {
    for dialect in DIALECTS {
        let m = machine(dialect, 1);
        let p = m.process();
        p.set_device(0).unwrap();
        for e in [
            p.create_event(EventFlags::DEFAULT).unwrap(),
            p.create_event(EventFlags::DISABLE_TIMING).unwrap(),
        ] {
            assert_eq!(
                p.ipc_get_event_handle(e),
                Err(ipc_err("ipc_get_event_handle", IpcProblem::NotInterprocess)),
                "{dialect:?}"
            );
        }
        let gone = ipc_event(&p, dialect);
        p.destroy_event(gone).unwrap();
        assert_eq!(
            p.ipc_get_event_handle(gone),
            Err(bad_event(gone, HandleProblem::Destroyed))
        );
    }
}

/// cuda-musa.md · IPC · IpcOpenEventHandle · zeroed or forged handle → 1 (ACL: 507022; the same core error)
#[test]
fn ipc_open_of_a_zeroed_or_forged_handle_is_invalid() {
    for dialect in DIALECTS {
        let m = machine(dialect, 1);
        let a = m.process();
        let b = m.process();
        a.set_device(0).unwrap();
        b.set_device(0).unwrap();
        let good = a.ipc_get_event_handle(ipc_event(&a, dialect)).unwrap();
        let invalid = Err(ipc_err("ipc_open_event_handle", IpcProblem::InvalidHandle));
        assert_eq!(b.ipc_open_event_handle(&IpcEventHandle([0; 64])), invalid);
        // Any single flipped byte is a forgery (magic, process, event, check value, padding).
        for i in [0, 7, 8, 12, 16, 23, 24, 63] {
            let mut forged = good;
            forged.0[i] ^= 0x5a;
            assert_eq!(
                b.ipc_open_event_handle(&forged),
                invalid,
                "{dialect:?} byte {i}"
            );
        }
        // A handle of another machine (another seed) is not this machine's.
        let elsewhere = first_handle(dialect, 99);
        assert_ne!(elsewhere, good);
        assert_eq!(b.ipc_open_event_handle(&elsewhere), invalid);
        // The genuine handle opens.
        assert!(b.ipc_open_event_handle(&good).is_ok());
    }
}

/// cuda-musa.md · IPC · IpcOpenEventHandle · in the exporting process → 201 (ACL: the same core error)
#[test]
fn ipc_open_in_the_exporting_process_is_rejected() {
    for dialect in DIALECTS {
        let m = machine(dialect, 1);
        let a = m.process();
        a.set_device(0).unwrap();
        let h = a.ipc_get_event_handle(ipc_event(&a, dialect)).unwrap();
        let same = Err(ipc_err("ipc_open_event_handle", IpcProblem::SameProcess));
        assert_eq!(a.ipc_open_event_handle(&h), same, "{dialect:?}");
        // Also from another host thread of the exporting process.
        let a2 = a.clone();
        let r = std::thread::spawn(move || a2.ipc_open_event_handle(&h).map(drop))
            .join()
            .unwrap();
        assert_eq!(r, same.map(drop));
        // A third process can open it, as often as it likes.
        let c = m.process();
        c.set_device(0).unwrap();
        let (x, y) = (c.ipc_open_event_handle(&h), c.ipc_open_event_handle(&h));
        assert!(x.is_ok() && y.is_ok() && x != y, "{x:?} {y:?}");
    }
}

/// cuda-musa.md · IPC · opened event · — → Record, Query, Synchronize, StreamWaitEvent work in either process
/// (the MUSA events article §2.3: "可以做前面讲到的同步某个stream、query event状态"); ACL: the same with an IPC-flag event.
/// Work across processes keeps its dependencies, with exact virtual times.
#[test]
fn opened_event_works_for_wait_query_synchronize_and_record_in_both_processes() {
    for dialect in DIALECTS {
        let m = machine(dialect, 1);
        let (a, b) = (m.process(), m.process());
        // Process A (its own clock).
        a.set_device(0).unwrap(); // (a1)
        let sa = a.create_stream(StreamFlags::DEFAULT).unwrap(); // (a2)
        let ea = ipc_event(&a, dialect); // (a3)
        let handle = a.ipc_get_event_handle(ea).unwrap(); // (a4)
        a.launch(sa, kernel("produce", 100)).unwrap(); // (a5) 7..107
        a.record_event(ea, sa).unwrap(); // (a6) at 107
        // Process B (its own clock, from 0).
        b.set_device(0).unwrap(); // (b1)
        let eb = b.ipc_open_event_handle(&handle).unwrap(); // (b2)
        let sb = b.create_stream(StreamFlags::DEFAULT).unwrap(); // (b3)
        assert_eq!(b.event_query(eb), Ok(Status::NotReady), "{dialect:?}"); // (b4)
        b.stream_wait_event(sb, eb).unwrap(); // (b5) waits for A's record: 107
        b.launch(sb, kernel("consume", 10)).unwrap(); // (b6) 107..117
        b.event_synchronize(eb).unwrap(); // (b7) → 107
        assert_eq!(b.now(), us(107));
        assert_eq!(b.event_query(eb), Ok(Status::Complete)); // (b108)
        assert_eq!(b.event_status(eb), Ok(RecordStatus::Complete)); // (b109)
        b.record_event(eb, sb).unwrap(); // (b110) B records the shared event: at 117
        // Back in A: the event's latest record is now B's.
        assert_eq!(a.event_query(ea), Ok(Status::NotReady)); // (a7)
        a.stream_wait_event(sa, ea).unwrap(); // (a8) waits for B's record: 117
        a.launch(sa, kernel("after B", 10)).unwrap(); // (a9) 117..127
        a.event_synchronize(ea).unwrap(); // (a10) → 117
        assert_eq!(a.now(), us(117));
        a.stream_synchronize(sa).unwrap(); // (a118) → 127
        assert_eq!(a.now(), us(127));

        let t = m.trace();
        assert_eq!(span(&t, "produce"), (us(7), us(107)), "{dialect:?}");
        assert_eq!(span(&t, "consume"), (us(107), us(117)), "{dialect:?}");
        assert_eq!(span(&t, "after B"), (us(117), us(127)), "{dialect:?}");
        let sa_id = a.stream_id(sa).unwrap();
        let sb_id = b.stream_id(sb).unwrap();
        // B's wait names A's stream and A's record (operation 2 of sa); A's wait names B's record (op 3 of sb).
        let waits: Vec<_> = t
            .ops
            .iter()
            .filter(|o| matches!(o.kind, OpKind::Wait { .. }))
            .map(|o| (o.stream, o.kind.clone(), o.start))
            .collect();
        assert_eq!(
            waits,
            [
                (
                    sb_id,
                    OpKind::Wait {
                        event: b.event_id(eb).unwrap(),
                        on: sa_id,
                        seq: 2
                    },
                    us(107)
                ),
                (
                    sa_id,
                    OpKind::Wait {
                        event: a.event_id(ea).unwrap(),
                        on: sb_id,
                        seq: 3
                    },
                    us(117)
                ),
            ],
            "{dialect:?}"
        );
    }
}

/// cuda-musa.md · IPC · opened event · — → behaves as a local DisableTiming event: … ElapsedTime → 400;
/// acl.md · Events · EventElapsedTime · IPC or EXTERNAL event → 207000 (and EventGetTimestamp · same rules);
/// the MUSA events article §2.3: "如果你使用了IPC类型的event，就无法通过这个event获取时间戳了"
#[test]
fn opened_event_never_gives_timing() {
    for dialect in DIALECTS {
        let m = machine(dialect, 1);
        let (a, b) = (m.process(), m.process());
        a.set_device(0).unwrap();
        let ea = ipc_event(&a, dialect);
        let h = a.ipc_get_event_handle(ea).unwrap();
        a.record_event(ea, streamsim::Stream::DEFAULT).unwrap();
        b.set_device(0).unwrap();
        let eb = b.ipc_open_event_handle(&h).unwrap();
        let timed = b.create_event(EventFlags::DEFAULT).unwrap();
        b.record_event(timed, streamsim::Stream::DEFAULT).unwrap();
        b.event_synchronize(eb).unwrap();
        b.event_synchronize(timed).unwrap();
        let id = b.event_id(eb).unwrap();
        let expect = match dialect {
            Dialect::Acl => SimError::NotSupported {
                what: "event_elapsed_time",
                reason: format!("event {id} is interprocess or external"),
            },
            _ => SimError::TimingDisabled { event: id },
        };
        assert_eq!(
            b.event_elapsed_ms(timed, eb),
            Err(expect.clone()),
            "{dialect:?}"
        );
        assert_eq!(
            b.event_elapsed_ms(eb, eb),
            Err(expect.clone()),
            "{dialect:?}"
        );
        if dialect == Dialect::Acl {
            assert_eq!(b.event_timestamp(eb), Err(expect), "EventGetTimestamp");
        }
        // The exporter's own event has no timing either.
        assert!(a.event_elapsed_ms(ea, ea).is_err());
    }
}

/// cuda-musa.md · IPC · opened event · — → freed with EventDestroy (the exporter's event lives on)
#[test]
fn opened_event_is_freed_with_destroy_event() {
    for dialect in DIALECTS {
        let m = machine(dialect, 1);
        let (a, b) = (m.process(), m.process());
        a.set_device(0).unwrap();
        let ea = ipc_event(&a, dialect);
        let h = a.ipc_get_event_handle(ea).unwrap();
        b.set_device(0).unwrap();
        let eb = b.ipc_open_event_handle(&h).unwrap();
        b.destroy_event(eb).unwrap();
        assert_eq!(
            b.event_query(eb),
            Err(bad_event(eb, HandleProblem::Destroyed))
        );
        a.record_event(ea, streamsim::Stream::DEFAULT).unwrap();
        a.event_synchronize(ea).unwrap();
        // The handle still opens again.
        let again = b.ipc_open_event_handle(&h).unwrap();
        b.event_synchronize(again).unwrap();
        assert_eq!(b.event_query(again), Ok(Status::Complete));
        // A's handle is not B's: handles are per process.
        assert_eq!(
            b.event_query(ea),
            Err(bad_event(ea, HandleProblem::Foreign { owner: a.id() }))
        );
    }
}

/// The brief: work across processes keeps FIFO order and dependencies. A ping-pong of three rounds between two
/// processes, each on its own stream and each round waiting for the other process's last record; the times
/// form one chain.
#[test]
fn work_across_processes_keeps_fifo_order_and_dependencies() {
    for dialect in DIALECTS {
        let m = machine(dialect, 1);
        let (a, b) = (m.process(), m.process());
        a.set_device(0).unwrap(); // (a1)
        b.set_device(0).unwrap(); // (b1)
        let sa = a.create_stream(StreamFlags::DEFAULT).unwrap(); // (a2)
        let sb = b.create_stream(StreamFlags::DEFAULT).unwrap(); // (b2)
        let ping = ipc_event(&a, dialect); // (a3)
        let pong = ipc_event(&b, dialect); // (b3)
        let ping_b = b.ipc_open_event_handle(&a.ipc_get_event_handle(ping).unwrap()); // (a4, b4)
        let pong_a = a.ipc_open_event_handle(&b.ipc_get_event_handle(pong).unwrap()); // (b5, a5)
        let (ping_b, pong_a) = (ping_b.unwrap(), pong_a.unwrap());
        let names = ["a0", "b0", "a1", "b1", "a2", "b2"];
        for round in 0..3 {
            if round > 0 {
                a.stream_wait_event(sa, pong_a).unwrap();
            }
            a.launch(sa, kernel(names[2 * round], 10 * (round as u64 + 1)))
                .unwrap();
            a.record_event(ping, sa).unwrap();
            b.stream_wait_event(sb, ping_b).unwrap();
            b.launch(sb, kernel(names[2 * round + 1], 5)).unwrap();
            b.record_event(pong, sb).unwrap();
        }
        a.stream_synchronize(sa).unwrap();
        b.stream_synchronize(sb).unwrap();
        let t = m.trace();
        // a0 (a6): 8..18; b0 waits for it (b6, b7): 18..23; a1 (a8 wait, a9): 23..43; b1: 43..48;
        // a2: 48..78; b2: 78..83.
        let spans: Vec<_> = names.iter().map(|n| span(&t, n)).collect();
        assert_eq!(
            spans,
            [
                (us(8), us(18)),
                (us(18), us(23)),
                (us(23), us(43)),
                (us(43), us(48)),
                (us(48), us(78)),
                (us(78), us(83)),
            ],
            "{dialect:?}"
        );
        // Each stream's operations run in FIFO order, back to back in virtual time.
        // A: 3 kernels, 3 records, 2 waits; B: 3 waits, 3 kernels, 3 records.
        for (s, n) in [(a.stream_id(sa).unwrap(), 8), (b.stream_id(sb).unwrap(), 9)] {
            let ops: Vec<_> = t.stream(s).collect();
            assert_eq!(ops.len(), n, "{dialect:?} {s}");
            for (i, pair) in ops.windows(2).enumerate() {
                assert_eq!(pair[0].seq + 1, pair[1].seq, "{s} op {i}");
                assert!(pair[0].end <= pair[1].start, "{s} op {i}: {pair:?}");
            }
        }
        assert_eq!(op(&t, "b2").end, us(83));
    }
}

/// The brief: two simulated processes, each on its own host thread, the handle passed through host memory
/// (the MUSA events article §2.3: "通过任何主机侧IPC手段将handle传递给进程B"). B waits for A's event, then A waits for B's
/// record of the same event.
#[test]
fn ipc_between_processes_on_their_own_host_threads() {
    crate::common::with_watchdog(30, || {
        for dialect in DIALECTS {
            let m = machine(dialect, 1);
            let (a, b) = (m.process(), m.process());
            let shared = std::sync::Arc::new(host_memory::Shared::default());
            let (to_b, from_a) = std::sync::mpsc::channel::<()>();
            let (to_a, from_b) = std::sync::mpsc::channel::<()>();
            let buf = shared.clone();
            let pa = std::thread::spawn(move || {
                a.set_device(0).unwrap(); // (a1)
                let s = a.create_stream(StreamFlags::DEFAULT).unwrap(); // (a2)
                let e = ipc_event(&a, dialect); // (a3)
                let h = a.ipc_get_event_handle(e).unwrap(); // (a4)
                a.launch(s, kernel("A produce", 200)).unwrap(); // (a5) 7..207
                a.record_event(e, s).unwrap(); // (a6) at 207
                buf.put(&h.0); // memcpy(IPC_Shared, &handle, 64)
                to_b.send(()).unwrap();
                from_b.recv().unwrap(); // B has recorded the event
                a.stream_wait_event(s, e).unwrap(); // (a7)
                a.launch(s, kernel("A after B", 10)).unwrap(); // (a8)
                a.stream_synchronize(s).unwrap();
                (a.now(), a.stream_id(s).unwrap())
            });
            let pb = std::thread::spawn(move || {
                b.set_device(0).unwrap(); // (b1)
                let s = b.create_stream(StreamFlags::DEFAULT).unwrap(); // (b2)
                from_a.recv().unwrap();
                let h = IpcEventHandle(shared.get()); // memcpy(&ipc_handle, IPC_Shared, 64)
                let e = b.ipc_open_event_handle(&h).unwrap(); // (b3)
                b.stream_wait_event(s, e).unwrap(); // (b4): 207
                b.launch(s, kernel("B consume", 30)).unwrap(); // (b5) 207..237
                b.record_event(e, s).unwrap(); // (b6) at 237
                to_a.send(()).unwrap();
                b.stream_synchronize(s).unwrap(); // → 237
                b.now()
            });
            let (a_now, _) = pa.join().unwrap();
            let b_now = pb.join().unwrap();
            let t = m.trace();
            assert_eq!(span(&t, "A produce"), (us(7), us(207)), "{dialect:?}");
            assert_eq!(span(&t, "B consume"), (us(207), us(237)), "{dialect:?}");
            assert_eq!(span(&t, "A after B"), (us(237), us(247)), "{dialect:?}");
            assert_eq!((a_now, b_now), (us(247), us(237)), "{dialect:?}");
        }
    });
}

/// acl.md · Events · StreamWaitEvent · never recorded, WithFlag(ACL_EVENT_SYNC) event → the wait holds the
/// stream until the event's next record is issued — with the event shared through IPC, the next record is
/// issued by the exporting process. (Work across processes keeps its dependencies.)
#[test]
fn acl_deferred_wait_on_an_opened_event_is_released_by_the_other_process_record() {
    crate::common::with_watchdog(30, || {
        let m = machine(Dialect::Acl, 1);
        let (a, b) = (m.process(), m.process());
        a.set_device(0).unwrap(); // (a1)
        let e = a
            .create_event_with(
                EventConfig::new()
                    .timing(false)
                    .interprocess(true)
                    .unrecorded_wait(UnrecordedWait::Defer),
            )
            .unwrap(); // (a2)
        let h = a.ipc_get_event_handle(e).unwrap(); // (a3)
        b.set_device(0).unwrap(); // (b1)
        let eb = b.ipc_open_event_handle(&h).unwrap(); // (b2)
        let sb = b.create_stream(StreamFlags::DEFAULT).unwrap(); // (b3)
        b.stream_wait_event(sb, eb).unwrap(); // (b4): deferred, never recorded yet
        b.launch(sb, kernel("consume", 10)).unwrap(); // (b5): held
        let sa = a.create_stream(StreamFlags::DEFAULT).unwrap(); // (a4)
        a.launch(sa, kernel("produce", 100)).unwrap(); // (a5) 7..107
        a.record_event(e, sa).unwrap(); // (a6) at 107: releases B's stream
        assert_eq!(b.stream_synchronize(sb), Ok(())); // (b6) → 117
        assert_eq!(b.now(), us(117));
        assert_eq!(span(&m.trace(), "consume"), (us(107), us(117)));
    });
}

/// A tiny "shared host memory" for the handle bytes (what `IPC_Shared` is in the seed).
mod host_memory {
    use std::sync::Mutex;

    #[derive(Default)]
    pub struct Shared(Mutex<Vec<u8>>);

    impl Shared {
        pub fn put(&self, bytes: &[u8]) {
            *self.0.lock().unwrap() = bytes.to_vec();
        }

        pub fn get(&self) -> [u8; 64] {
            self.0.lock().unwrap().as_slice().try_into().unwrap()
        }
    }
}
