//! Race detection: the CANN stream-vs-event note's scenarios: the wrong synchronizations it describes are flagged,
//! the right ones pass.

use super::*;

/// The CANN stream-vs-event note, symptom 1 (典型错误场景): `aclrtSynchronizeStream(stream1)` waits only for stream 1, but
/// the data the host reads was copied by stream 2. Flagged on every run, with both call sites and the fix.
#[test]
fn seed004_synchronizing_stream1_while_the_data_came_from_stream2_is_flagged() {
    let reports = check(one_device, |m| {
        let p = m.process();
        let s = streams(&p, 2, StreamFlags::DEFAULT);
        let (d1, d2) = (p.malloc(N).unwrap(), p.malloc(N).unwrap());
        let h = p.malloc_host(N).unwrap();
        p.launch(s[0], work("other").writes(d1, N)).unwrap();
        p.launch(s[1], work("produce").writes(d2, N)).unwrap();
        let copy = line!() + 1;
        p.memcpy_async(h, d2, N, s[1]).unwrap();
        p.stream_synchronize(s[0]).unwrap(); // only stream 1
        let mut out = vec![0u8; N as usize];
        let read = line!() + 1;
        p.host_read(h, &mut out).unwrap();
        vec![race(
            (op(&p, s[1], "memcpy", "memcpy_async"), true, copy),
            (host(0, "host_read"), false, read),
            1,
            PINNED,
        )]
    });
    assert_eq!(
        reports[0].fix(),
        "synchronize stream 2 (or an event recorded after `memcpy_async`) before `host_read`"
    );
}

/// The CANN stream-vs-event note, symptom 3 (跨Stream协调时未使用Event同步): stream 1 consumes what stream 2 produces, with
/// no event between them. The fix names both streams and both operations.
#[test]
fn seed004_consuming_on_stream1_what_stream2_produced_without_an_event_is_flagged() {
    let reports = check(one_device, |m| {
        let p = m.process();
        let s = streams(&p, 2, StreamFlags::DEFAULT);
        let d = p.malloc(N).unwrap();
        let produce = line!() + 1;
        p.launch(s[1], work("produce").writes(d, N)).unwrap();
        let consume = line!() + 1;
        p.launch(s[0], work("consume").reads(d, N)).unwrap();
        p.stream_synchronize(s[0]).unwrap();
        vec![race(
            (kernel(&p, s[1], "produce"), true, produce),
            (kernel(&p, s[0], "consume"), false, consume),
            1,
            DEV0,
        )]
    });
    assert_eq!(
        reports[0].fix(),
        "record an event on stream 2 after `produce` and make stream 1 wait on it before `consume`"
    );
}

/// The CANN stream-vs-event note, 场景1: one stream, H2D copy, kernel, D2H copy, `aclrtSynchronizeStream`: no race.
#[test]
fn seed004_one_stream_then_stream_synchronize_passes() {
    check(one_device, |m| {
        let p = m.process();
        let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
        let d = p.malloc(N).unwrap();
        let (h_in, h_out) = (p.malloc_host(N).unwrap(), p.malloc_host(N).unwrap());
        p.host_write(h_in, &[7; N as usize]).unwrap();
        p.memcpy_async(d, h_in, N, s).unwrap();
        p.launch(s, work("myKernel").reads(d, N).writes(d, N))
            .unwrap();
        p.memcpy_async(h_out, d, N, s).unwrap();
        p.stream_synchronize(s).unwrap();
        p.host_read(h_out, &mut [0; N as usize]).unwrap();
        p.host_write(h_in, &[8; N as usize]).unwrap();
        vec![]
    });
}

/// The CANN stream-vs-event note, the event version: stream 1 copies in and records event 1; stream 2 waits on it,
/// runs the kernel and records event 2; `aclrtSynchronizeEvent(event2)`: no race.
#[test]
fn seed004_record_wait_then_event_synchronize_passes() {
    check(one_device, |m| {
        let p = m.process();
        let s = streams(&p, 2, StreamFlags::DEFAULT);
        let (e1, e2) = (
            p.create_event(EventFlags::DEFAULT).unwrap(),
            p.create_event(EventFlags::DEFAULT).unwrap(),
        );
        let (d1, d2) = (p.malloc(N).unwrap(), p.malloc(N).unwrap());
        let (h_in, h_out) = (p.malloc_host(N).unwrap(), p.malloc_host(N).unwrap());
        p.memcpy_async(d1, h_in, N, s[0]).unwrap();
        p.record_event(e1, s[0]).unwrap();
        p.stream_wait_event(s[1], e1).unwrap();
        p.launch(s[1], work("myKernel").reads(d1, N).writes(d2, N))
            .unwrap();
        p.memcpy_async(h_out, d2, N, s[1]).unwrap();
        p.record_event(e2, s[1]).unwrap();
        p.event_synchronize(e2).unwrap();
        p.host_read(h_out, &mut [0; N as usize]).unwrap();
        p.host_write(h_in, &[1; N as usize]).unwrap();
        vec![]
    });
}

/// The CANN stream-vs-event note, 场景2: stream 1 copies in and records; stream 2 waits, then copies into its own
/// buffer and reads stream 1's: no race.
#[test]
fn seed004_cross_stream_coordination_with_an_event_passes() {
    check(one_device, |m| {
        let p = m.process();
        let s = streams(&p, 2, StreamFlags::DEFAULT);
        let e = p.create_event(EventFlags::DEFAULT).unwrap();
        let (d1, d2) = (p.malloc(N).unwrap(), p.malloc(N).unwrap());
        let (h1, h2) = (p.malloc_host(N).unwrap(), p.malloc_host(N).unwrap());
        p.memcpy_async(d1, h1, N, s[0]).unwrap();
        p.record_event(e, s[0]).unwrap();
        p.stream_wait_event(s[1], e).unwrap();
        p.memcpy_async(d2, h2, N, s[1]).unwrap();
        p.launch(s[1], work("use both").reads(d1, N).reads(d2, N))
            .unwrap();
        p.device_synchronize().unwrap();
        vec![]
    });
}

/// The CANN stream-vs-event note, 场景3: three time points on one stream; `aclrtSynchronizeEvent(event2)` waits for
/// the kernel, not for the copy out after it. Rewriting the input is fine then; reading the output is a race until
/// event 3 is synchronized.
#[test]
fn seed004_fine_grained_time_points_cover_only_what_is_before_them() {
    check(one_device, |m| {
        let p = m.process();
        let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
        let e: Vec<_> = (0..3)
            .map(|_| p.create_event(EventFlags::DEFAULT).unwrap())
            .collect();
        let d = p.malloc(N).unwrap();
        let (h_in, h_out) = (p.malloc_host(N).unwrap(), p.malloc_host(N).unwrap());
        p.memcpy_async(d, h_in, N, s).unwrap();
        p.record_event(e[0], s).unwrap();
        p.launch(s, work("myKernel").reads(d, N).writes(d, N))
            .unwrap();
        p.record_event(e[1], s).unwrap();
        let copy_out = line!() + 1;
        p.memcpy_async(h_out, d, N, s).unwrap();
        p.record_event(e[2], s).unwrap();
        p.event_synchronize(e[1]).unwrap();
        p.host_write(h_in, &[3; N as usize]).unwrap(); // the copy in is before event 2: fine
        let early = line!() + 1;
        p.host_read(h_out, &mut [0; N as usize]).unwrap(); // the copy out is not
        p.event_synchronize(e[2]).unwrap();
        p.host_read(h_out, &mut [0; N as usize]).unwrap(); // now it is
        vec![race(
            (op(&p, s, "memcpy", "memcpy_async"), true, copy_out),
            (host(0, "host_read"), false, early),
            2,
            PINNED,
        )]
    });
}
