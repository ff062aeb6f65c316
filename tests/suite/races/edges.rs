//! Race detection: the edges: legacy default stream, destroyed and per-thread streams, record / wait, synchronizes and queries.

use super::*;

/// The legacy default stream waits for earlier work of the device's blocking streams, and their later work
/// waits for it: a write on stream 1, a read on the NULL stream and a write on stream 2 do not race. A
/// non-blocking stream is exempt in both directions.
#[test]
fn legacy_default_stream_edges() {
    check(one_device, |m| {
        let p = m.process();
        let s = streams(&p, 2, StreamFlags::DEFAULT);
        let nb = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        let a = p.malloc(N).unwrap();
        p.launch(s[0], work("w").writes(a, N)).unwrap();
        p.launch(Stream::DEFAULT, work("r").reads(a, N)).unwrap();
        let w2 = line!() + 1;
        p.launch(s[1], work("w2").writes(a, N)).unwrap();
        let w3 = line!() + 1;
        p.launch(nb, work("w3").writes(a, N)).unwrap();
        let r4 = line!() + 1;
        p.launch(Stream::DEFAULT, work("r4").reads(a, N)).unwrap();
        p.device_synchronize().unwrap();
        vec![
            race(
                (kernel(&p, s[1], "w2"), true, w2),
                (kernel(&p, nb, "w3"), true, w3),
                1,
                DEV0,
            ),
            race(
                (kernel(&p, nb, "w3"), true, w3),
                (kernel(&p, Stream::DEFAULT, "r4"), false, r4),
                1,
                DEV0,
            ),
        ]
    });
}

/// A destroyed blocking stream's work still comes before the next legacy-stream operation, and a destroyed
/// stream's pending work is covered by `device_synchronize`; the per-thread default stream is a blocking
/// stream like the others.
#[test]
fn destroyed_and_per_thread_streams_keep_their_edges() {
    check(one_device, |m| {
        let p = m.process();
        let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap();
        let nb = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        let (a, b) = (p.malloc(N).unwrap(), p.malloc(N).unwrap());
        let h = p.malloc_host(N).unwrap();
        p.launch(
            s1,
            Kernel::new("w")
                .duration(Duration::from_micros(100))
                .writes(a, N),
        )
        .unwrap();
        p.destroy_stream(s1).unwrap();
        p.launch(Stream::DEFAULT, work("r").reads(a, N)).unwrap();
        p.memcpy_async(h, b, N, nb).unwrap();
        p.destroy_stream(nb).unwrap();
        p.device_synchronize().unwrap();
        p.host_read(h, &mut [0; N as usize]).unwrap();
        p.launch(Stream::PER_THREAD, work("pt").writes(b, N))
            .unwrap();
        p.launch(Stream::DEFAULT, work("r2").reads(b, N)).unwrap();
        p.launch(Stream::PER_THREAD, work("pt2").writes(b, N))
            .unwrap();
        p.device_synchronize().unwrap();
        vec![]
    });
}

/// The NULL stream is per device: device 0's does not wait for device 1's streams.
#[test]
fn legacy_default_stream_does_not_wait_for_another_device() {
    check(two_devices, |m| {
        let p = m.process();
        p.set_device(1).unwrap();
        let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap();
        let b = p.malloc(N).unwrap();
        let h = p.malloc_host(N).unwrap();
        let down = line!() + 1;
        p.memcpy_async(h, b, N, s1).unwrap();
        p.set_device(0).unwrap();
        let a = p.malloc(N).unwrap();
        let up = line!() + 1;
        p.memcpy_async(a, h, N, Stream::DEFAULT).unwrap();
        p.device_synchronize().unwrap();
        vec![race(
            (op(&p, s1, "memcpy", "memcpy_async"), true, down),
            (op(&p, Stream::DEFAULT, "memcpy", "memcpy_async"), false, up),
            1,
            PINNED,
        )]
    });
}

/// A stream wait captures the event's record current at the call. Re-recording later does not move it: work
/// after the old record races with the waiter. A wait issued after the re-record orders it. A wait on an event
/// never recorded orders nothing.
#[test]
fn record_wait_and_re_record() {
    check(one_device, |m| {
        let p = m.process();
        let s = streams(&p, 4, StreamFlags::NON_BLOCKING);
        let (e, never) = (
            p.create_event(EventFlags::DEFAULT).unwrap(),
            p.create_event(EventFlags::DEFAULT).unwrap(),
        );
        let a = p.malloc(N).unwrap();
        p.launch(s[0], work("w1").writes(a, N)).unwrap();
        p.record_event(e, s[0]).unwrap();
        p.stream_wait_event(s[1], e).unwrap(); // captures the record after w1
        let late = line!() + 1;
        p.launch(s[0], work("late").writes(a, N)).unwrap();
        p.record_event(e, s[0]).unwrap(); // re-record after `late`
        let r2 = line!() + 1;
        p.launch(s[1], work("r2").reads(a, N)).unwrap();
        p.stream_wait_event(s[2], e).unwrap(); // captures the new record
        p.launch(s[2], work("r3").reads(a, N)).unwrap();
        p.stream_wait_event(s[3], never).unwrap(); // no record: no-op
        let r4 = line!() + 1;
        p.launch(s[3], work("r4").reads(a, N)).unwrap();
        p.device_synchronize().unwrap();
        vec![
            race(
                (kernel(&p, s[0], "late"), true, late),
                (kernel(&p, s[1], "r2"), false, r2),
                1,
                DEV0,
            ),
            race(
                (kernel(&p, s[0], "late"), true, late),
                (kernel(&p, s[3], "r4"), false, r4),
                1,
                DEV0,
            ),
        ]
    });
}

/// Event synchronize, stream synchronize, device synchronize, and queries that answer `Complete`, are acquire
/// edges for the host; a `NotReady` answer, and synchronizing an event never recorded, are not.
#[test]
fn synchronizes_and_completed_queries_are_acquire_edges() {
    check(one_device, |m| {
        let p = m.process();
        let s = streams(&p, 2, StreamFlags::NON_BLOCKING);
        let (e, never) = (
            p.create_event(EventFlags::DEFAULT).unwrap(),
            p.create_event(EventFlags::DEFAULT).unwrap(),
        );
        let a = p.malloc(N).unwrap();
        let h: Vec<_> = (0..7).map(|_| p.malloc_host(N).unwrap()).collect();
        let read = |i: usize| p.host_read(h[i], &mut [0; N as usize]).unwrap();
        // event_synchronize
        p.memcpy_async(h[0], a, N, s[0]).unwrap();
        p.record_event(e, s[0]).unwrap();
        p.event_synchronize(e).unwrap();
        read(0);
        // stream_synchronize
        p.memcpy_async(h[1], a, N, s[1]).unwrap();
        p.stream_synchronize(s[1]).unwrap();
        read(1);
        // device_synchronize covers both streams
        p.memcpy_async(h[2], a, N, s[0]).unwrap();
        p.memcpy_async(h[3], a, N, s[1]).unwrap();
        p.device_synchronize().unwrap();
        read(2);
        read(3);
        // event_query: NotReady is no edge; spinning until Complete is
        let copy4 = line!() + 1;
        p.memcpy_async(h[4], a, N, s[0]).unwrap();
        p.record_event(e, s[0]).unwrap();
        assert_eq!(p.event_query(e).unwrap(), Status::NotReady);
        let not_ready = line!() + 1;
        let early = |p: &Process| p.host_read(h[4], &mut [0; N as usize]).unwrap();
        early(&p);
        while p.event_query(e).unwrap() == Status::NotReady {}
        early(&p); // same call site: no new report
        // stream_query Complete
        p.memcpy_async(h[5], a, N, s[1]).unwrap();
        while p.stream_query(s[1]).unwrap() == Status::NotReady {}
        read(5);
        // event_synchronize of an event never recorded returns at once and orders nothing
        let copy = line!() + 1;
        p.memcpy_async(h[6], a, N, s[1]).unwrap();
        p.event_synchronize(never).unwrap();
        let unordered = line!() + 1;
        p.host_read(h[6], &mut [0; N as usize]).unwrap();
        p.device_synchronize().unwrap();
        vec![
            race(
                (op(&p, s[0], "memcpy", "memcpy_async"), true, copy4),
                (host(0, "host_read"), false, not_ready),
                5,
                PINNED,
            ),
            race(
                (op(&p, s[1], "memcpy", "memcpy_async"), true, copy),
                (host(0, "host_read"), false, unordered),
                7,
                PINNED,
            ),
        ]
    });
}

/// `device_synchronize` covers the current device only.
#[test]
fn device_synchronize_does_not_cover_another_device() {
    check(two_devices, |m| {
        let p = m.process();
        p.set_device(1).unwrap();
        let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
        let b = p.malloc(N).unwrap();
        let h = p.malloc_host(N).unwrap();
        let copy = line!() + 1;
        p.memcpy_async(h, b, N, s).unwrap();
        p.set_device(0).unwrap();
        p.device_synchronize().unwrap();
        let read = line!() + 1;
        p.host_read(h, &mut [0; N as usize]).unwrap();
        p.set_device(1).unwrap();
        p.device_synchronize().unwrap();
        p.host_read(h, &mut [0; N as usize]).unwrap();
        vec![race(
            (op(&p, s, "memcpy", "memcpy_async"), true, copy),
            (host(0, "host_read"), false, read),
            1,
            PINNED,
        )]
    });
}

/// cuda-musa.md · StreamQuery / StreamSynchronize · the NULL (legacy) stream → covers all earlier work of the
/// device's blocking streams: after `stream_synchronize(NULL)`, or a NULL-stream query that answers complete,
/// the host has acquired every blocking stream's copy into a pinned buffer — its reads do not race — but not a
/// non-blocking stream's, whose copy still races with the host read after it.
#[test]
fn null_stream_synchronize_and_query_acquire_every_blocking_stream() {
    for query in [false, true] {
        check(one_device, move |m| {
            let p = m.process();
            let s = streams(&p, 2, StreamFlags::DEFAULT);
            let nb = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
            let d = p.malloc(N).unwrap();
            let h: Vec<_> = (0..3).map(|_| p.malloc_host(N).unwrap()).collect();
            p.memcpy_async(h[0], d, N, s[0]).unwrap();
            p.memcpy_async(h[1], d, N, s[1]).unwrap();
            let nb_copy = line!() + 1;
            p.memcpy_async(h[2], d, N, nb).unwrap();
            if query {
                while p.stream_query(Stream::DEFAULT).unwrap() == Status::NotReady {}
            } else {
                p.stream_synchronize(Stream::DEFAULT).unwrap();
            }
            p.host_read(h[0], &mut [0; N as usize]).unwrap();
            p.host_read(h[1], &mut [0; N as usize]).unwrap();
            let read = line!() + 1;
            p.host_read(h[2], &mut [0; N as usize]).unwrap();
            p.device_synchronize().unwrap();
            vec![race(
                (op(&p, nb, "memcpy", "memcpy_async"), true, nb_copy),
                (host(0, "host_read"), false, read),
                3,
                PINNED,
            )]
        });
    }
}
