//! Truth-table tests: an opened IPC event belongs to the opener's current device — `shared/reference/
//! cuda-musa.md` · IPC · opened event ("behaves like a locally created event" with DisableTiming: it belongs to
//! the opener's current device at the open) and `shared/reference/acl.md` · Events · opened IPC event (an event
//! of the opener, on the opener's current device at the open: RecordEvent on the opener's stream works) —
//! through the core API, with several simulated processes on a machine of several devices. Conventions and
//! helpers as in `multi_device.rs` and `ipc.rs`: `(aN)` / `(bN)` give a call's `now` in µs on that process's
//! own clock.

use std::sync::{Arc, Mutex};

use streamsim::{Dialect, Event, OpKind, Process, SimError, Status, Stream, StreamFlags};

use crate::ipc::ipc_event;
use crate::multi_device::{DIALECTS, kernel, machine, no_context, span, us};

/// cuda-musa.md · IPC · opened event · — → belongs to the opener's current device at the open; Record, Query,
/// Synchronize, StreamWaitEvent work in either process; acl.md · Events · opened IPC event · — → RecordEvent on
/// the opener's stream works. A exports from device 0, B opens on device 1 and records the event on its own
/// device-1 stream (CUDA used to refuse that with 400, as if the event were on device 0); the exporter sees the
/// newest record (B's) and waits for it, with exact virtual times. A record on a stream of a device other than
/// the opened event's is still refused (cuda-musa.md · Events · EventRecord · event and stream on different
/// devices → 400; acl.md · RecordEvent · different devices → 107003: both `WrongDevice`).
#[test]
fn an_opened_event_is_on_the_opener_s_device_and_records_there() {
    for dialect in DIALECTS {
        let m = machine(dialect, 2);
        let (a, b) = (m.process(), m.process());
        a.set_device(0).unwrap(); // (a1)
        let sa = a.create_stream(StreamFlags::DEFAULT).unwrap(); // (a2)
        let ea = ipc_event(&a, dialect); // (a3)
        let h = a.ipc_get_event_handle(ea).unwrap(); // (a4)
        a.launch(sa, kernel("produce", 100)).unwrap(); // (a5) 7..107
        a.record_event(ea, sa).unwrap(); // (a6) at 107
        assert_eq!(a.event_device(ea), Ok(0));

        b.set_device(1).unwrap(); // (b1)
        let eb = b.ipc_open_event_handle(&h).unwrap(); // (b2)
        assert_eq!(
            b.event_device(eb),
            Ok(1),
            "{dialect:?}: the opener's device"
        );
        let sb = b.create_stream(StreamFlags::DEFAULT).unwrap(); // (b3) on device 1
        b.stream_wait_event(sb, eb).unwrap(); // (b4) waits for A's record: 107
        b.launch(sb, kernel("relay", 10)).unwrap(); // (b5) 107..117
        assert_eq!(b.record_event(eb, sb), Ok(()), "{dialect:?}"); // (b6) at 117, on device 1

        // The exporter's event now has B's record as its newest (the record state is shared).
        assert_eq!(a.event_query(ea), Ok(Status::NotReady)); // (a7): 117 > 7
        a.stream_wait_event(sa, ea).unwrap(); // (a8) on device 0, waits for B's device-1 record: 117
        a.launch(sa, kernel("after B", 10)).unwrap(); // (a9) 117..127
        a.stream_synchronize(sa).unwrap(); // (a10) → 127
        assert_eq!(a.now(), us(127), "{dialect:?}");
        assert_eq!(b.event_query(eb), Ok(Status::NotReady), "{dialect:?}"); // (b7): 117 > 7
        b.event_synchronize(eb).unwrap(); // (b8) → 117
        assert_eq!(b.now(), us(117), "{dialect:?}");
        let t = m.trace();
        assert_eq!(span(&t, "produce"), (us(7), us(107)), "{dialect:?}");
        assert_eq!(span(&t, "relay"), (us(107), us(117)), "{dialect:?}");
        assert_eq!(span(&t, "after B"), (us(117), us(127)), "{dialect:?}");
        let (sa_id, sb_id) = (a.stream_id(sa).unwrap(), b.stream_id(sb).unwrap());
        let waits: Vec<_> = t
            .ops
            .iter()
            .filter_map(|o| match o.kind {
                OpKind::Wait { on, seq, .. } => Some((o.stream, on, seq, o.start)),
                _ => None,
            })
            .collect();
        assert_eq!(
            waits,
            [(sb_id, sa_id, 2, us(107)), (sa_id, sb_id, 3, us(117))],
            "{dialect:?}"
        );

        // A record on a stream of another device than the opened event's: refused.
        b.set_device(0).unwrap();
        let s0 = b.create_stream(StreamFlags::DEFAULT).unwrap();
        assert!(
            matches!(
                b.record_event(eb, s0),
                Err(SimError::WrongDevice {
                    what: "record_event",
                    object_device: 1,
                    ..
                })
            ),
            "{dialect:?}"
        );
    }
}

/// acl.md · Events · opened IPC event · — → on the opener's current device *at the open*; acl.md · Devices
/// and contexts · any call needing a context · no current context → 107002: an ACL thread that has set no
/// device cannot open a handle (the runtime's `IpcOpenEventHandle` takes the current context,
/// `RT_ERROR_CONTEXT_NULL` without one), while a CUDA thread opens on its implicit device 0. The opened event
/// stays on the device current at the open after the opener switches devices.
#[test]
fn an_open_takes_the_device_current_at_the_open() {
    for dialect in DIALECTS {
        let m = machine(dialect, 3);
        let (a, b) = (m.process(), m.process());
        a.set_device(2).unwrap();
        let h = a.ipc_get_event_handle(ipc_event(&a, dialect)).unwrap();
        match dialect {
            Dialect::Acl => assert_eq!(
                b.ipc_open_event_handle(&h),
                Err(no_context("ipc_open_event_handle"))
            ),
            _ => assert_eq!(b.event_device(b.ipc_open_event_handle(&h).unwrap()), Ok(0)),
        }
        b.set_device(1).unwrap();
        let e = b.ipc_open_event_handle(&h).unwrap();
        b.set_device(0).unwrap();
        assert_eq!(b.event_device(e), Ok(1), "{dialect:?}");
        b.set_device(1).unwrap();
        let s = b.create_stream(StreamFlags::DEFAULT).unwrap();
        assert_eq!(b.record_event(e, s), Ok(()), "{dialect:?}");
    }
}

/// cuda-musa.md · IPC · opened event (the opener's device; Record and StreamWaitEvent work in either process):
/// the event ring of NVIDIA cuda-samples `Samples/0_Introduction/simpleIPC` (one child process per device, each
/// opening every event the parent exported, each step waiting on the next buffer's event, writing the buffer
/// and recording the event on its own device's stream), with three simulated processes on three devices driven
/// in the sample's lock-step order (its barrier) from one host thread. The kernels' bodies write a host byte
/// per buffer; each child's buffer ends with the id of the child after it, as the sample checks, and the times
/// form the chain the waits make. The C port is `tests/c/simple_ipc_ring.c`.
#[test]
fn simple_ipc_ring_across_three_devices() {
    const N: usize = 3;
    let m = machine(Dialect::Cuda, N as u32);
    let parent = m.process();
    let mut exported = Vec::new();
    for d in 0..N {
        parent.set_device(d as i64).unwrap();
        let e = ipc_event(&parent, Dialect::Cuda);
        exported.push((e, parent.ipc_get_event_handle(e).unwrap()));
    }
    let buffers = Arc::new(Mutex::new([u8::MAX; N]));
    let verified = Arc::new(Mutex::new([u8::MAX; N]));
    let children: Vec<Process> = (0..N).map(|_| m.process()).collect();
    let mut streams: Vec<Stream> = Vec::new();
    let mut events: Vec<Vec<Event>> = Vec::new();
    for (id, c) in children.iter().enumerate() {
        c.set_device(id as i64).unwrap(); // (c1)
        streams.push(c.create_stream(StreamFlags::NON_BLOCKING).unwrap()); // (c2)
        // (c3..c5) every child opens every event, on its own device
        events.push(
            exported
                .iter()
                .map(|(_, h)| c.ipc_open_event_handle(h).unwrap())
                .collect(),
        );
        assert!(
            events[id]
                .iter()
                .all(|&e| c.event_device(e) == Ok(id as u32))
        );
    }
    for step in 0..N {
        for (id, c) in children.iter().enumerate() {
            let buf = (step + id) % N;
            // (c6 + 3 step) a no-op at step 0: nothing recorded yet
            c.stream_wait_event(streams[id], events[id][buf]).unwrap();
            let b = buffers.clone();
            let k = kernel(["k0", "k1", "k2"][step], 10).body(move |_| {
                b.lock().unwrap()[buf] = id as u8;
                Ok(())
            });
            c.launch(streams[id], k).unwrap(); // (c7 + 3 step)
            c.record_event(events[id][buf], streams[id]).unwrap(); // (c8 + 3 step)
        }
    }
    for (id, c) in children.iter().enumerate() {
        c.stream_wait_event(streams[id], events[id][id]).unwrap(); // (c15)
        let (b, v) = (buffers.clone(), verified.clone());
        let copy = kernel("verify", 10).body(move |_| {
            v.lock().unwrap()[id] = b.lock().unwrap()[id];
            Ok(())
        });
        c.launch(streams[id], copy).unwrap(); // (c16) 39..49
        c.stream_synchronize(streams[id]).unwrap(); // (c17) → 49
        assert_eq!(c.now(), us(49), "child {id}");
    }
    // "The contents should have the id of the sibling just after me."
    assert_eq!(*verified.lock().unwrap(), [1, 2, 0]);
    // Step 0 starts at c7 + 2 = 9; each later step starts when the previous one ends.
    let t = m.trace();
    for (id, c) in children.iter().enumerate() {
        let s = c.stream_id(streams[id]).unwrap();
        let kernels: Vec<_> = t
            .stream(s)
            .filter(|o| o.kind == OpKind::Kernel)
            .map(|o| (o.label.to_string(), o.start, o.end))
            .collect();
        let want: Vec<_> = [
            ("k0", 9, 19),
            ("k1", 19, 29),
            ("k2", 29, 39),
            ("verify", 39, 49),
        ]
        .iter()
        .map(|&(l, s, e)| (l.to_string(), us(s), us(e)))
        .collect();
        assert_eq!(kernels, want, "child {id}");
        // Each wait names the stream of the child that recorded the buffer's event one step earlier
        // (its step-1 record is its operation 2, step-2 record operation 5, last record operation 8).
        let waits: Vec<_> = t
            .stream(s)
            .filter_map(|o| match o.kind {
                OpKind::Wait { on, seq, .. } => Some((on, seq)),
                _ => None,
            })
            .collect();
        let recorder = |step: usize| {
            let buf = (step + id) % N;
            let who = (buf + N - (step - 1)) % N;
            children[who].stream_id(streams[who]).unwrap()
        };
        assert_eq!(
            waits,
            [
                (recorder(1), 2),
                (recorder(2), 5),
                (
                    children[(id + 1) % N]
                        .stream_id(streams[(id + 1) % N])
                        .unwrap(),
                    8
                )
            ],
            "child {id}"
        );
    }
    // The parent sees the children's records through its own handles: each event's newest record is the last
    // step's, at 39. The parent made 9 calls (p1..p9); its first synchronize (p11) moves its clock to 39, the
    // others find their records done at their own call times (p13, p15).
    for (d, (e, _)) in exported.iter().enumerate() {
        parent.set_device(d as i64).unwrap(); // (p10, p12, p14)
        parent.event_synchronize(*e).unwrap();
        assert_eq!(parent.now(), us([39, 41, 43][d]));
    }
}
