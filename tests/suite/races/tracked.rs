//! Race detection: what is tracked: kernels' declared accesses, memsets, copies, host reads and writes.

use super::*;

/// Kernels' declared accesses: two reads never race; a write races with the other stream's read and write it
/// is not ordered after (a read superseded by a later write of its own stream is not reported again);
/// partial overlaps report the overlapping bytes; disjoint ranges of one buffer do not race.
#[test]
fn kernel_declared_reads_and_writes() {
    check(one_device, |m| {
        let p = m.process();
        let s = streams(&p, 2, StreamFlags::DEFAULT);
        let (a, b) = (p.malloc(N).unwrap(), p.malloc(64).unwrap());
        let e = p.create_event(EventFlags::DEFAULT).unwrap();
        let r1 = line!() + 1;
        p.launch(s[0], work("r1").reads(a, N)).unwrap();
        p.launch(s[1], work("r2").reads(a, N)).unwrap();
        let w2 = line!() + 1;
        p.launch(s[1], work("w2").writes(a, N)).unwrap();
        let w1 = line!() + 1;
        p.launch(s[0], work("w1").writes(a, N)).unwrap();
        p.record_event(e, s[0]).unwrap();
        p.stream_wait_event(s[1], e).unwrap();
        p.launch(s[1], work("r3").reads(a, N)).unwrap(); // after w1 and (through its stream) w2
        // b: bytes 0..16 and 8..24 overlap in 8..16; 32..48 touches neither.
        let lo = line!() + 1;
        p.launch(s[0], work("lo").writes(b, 16)).unwrap();
        let hi = line!() + 1;
        p.launch(s[1], work("hi").writes(b.offset(8), 16)).unwrap();
        p.launch(s[1], work("far").writes(b.offset(32), 16))
            .unwrap();
        p.device_synchronize().unwrap();
        vec![
            race(
                (kernel(&p, s[0], "r1"), false, r1),
                (kernel(&p, s[1], "w2"), true, w2),
                1,
                DEV0,
            ),
            race(
                (kernel(&p, s[1], "w2"), true, w2),
                (kernel(&p, s[0], "w1"), true, w1),
                1,
                DEV0,
            ),
            Seen {
                first: (kernel(&p, s[0], "lo"), true, lo),
                second: (kernel(&p, s[1], "hi"), true, hi),
                range: (2, 8, 8, DEV0),
                occurrences: 1,
            },
        ]
    });
}

/// Memsets write: `memset_async` races with another stream's reader; a blocking `memset` is complete when it
/// returns, so work enqueued after it (even on a non-blocking stream) is ordered; a `memset` on the legacy
/// stream does not wait for a non-blocking stream.
#[test]
fn memsets_are_writes() {
    check(one_device, |m| {
        let p = m.process();
        let s = streams(&p, 2, StreamFlags::DEFAULT);
        let nb = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        let (a, b) = (p.malloc(N).unwrap(), p.malloc(N).unwrap());
        let set = line!() + 1;
        p.memset_async(a, 1, N, s[0]).unwrap();
        let reader = line!() + 1;
        p.launch(s[1], work("reader").reads(a, N)).unwrap();
        p.memset(b, 2, N).unwrap();
        p.launch(nb, work("after the blocking memset").reads(b, N))
            .unwrap();
        let nb_set = line!() + 1;
        p.memset_async(b, 3, N, nb).unwrap();
        let legacy_set = line!() + 1;
        p.memset(b, 4, N).unwrap();
        vec![
            race(
                (op(&p, s[0], "memset", "memset_async"), true, set),
                (kernel(&p, s[1], "reader"), false, reader),
                1,
                DEV0,
            ),
            race(
                (op(&p, nb, "memset", "memset_async"), true, nb_set),
                (
                    op(&p, Stream::DEFAULT, "memset", "memset"),
                    true,
                    legacy_set,
                ),
                2,
                DEV0,
            ),
        ]
    });
}

/// Copies: a device-to-device copy reads its source and writes its destination; pinned host memory is read
/// (H2D) or written (D2H) when the copy runs, so the host's accesses race with copies it has not
/// synchronized with, and not with copies enqueued after them.
#[test]
fn copies_device_to_device_and_pinned_host_to_and_from_device() {
    check(one_device, |m| {
        let p = m.process();
        let s = streams(&p, 2, StreamFlags::DEFAULT);
        let (a, b) = (p.malloc(N).unwrap(), p.malloc(N).unwrap());
        let (h1, h2) = (p.malloc_host(N).unwrap(), p.malloc_host(N).unwrap());
        // D2D
        let d2d = line!() + 1;
        p.memcpy_async(b, a, N, s[0]).unwrap();
        let wa = line!() + 1;
        p.launch(s[1], work("wa").writes(a, N)).unwrap();
        let rb = line!() + 1;
        p.launch(s[1], work("rb").reads(b, N)).unwrap();
        p.device_synchronize().unwrap();
        // H2D from pinned: the host's write before the enqueue is ordered; the one after is not.
        p.host_write(h1, &[1; N as usize]).unwrap();
        let h2d = line!() + 1;
        p.memcpy_async(a, h1, N, s[0]).unwrap();
        let rewrite = line!() + 1;
        p.host_write(h1, &[2; N as usize]).unwrap();
        // D2H into pinned: reading before a synchronize races; after it, it does not.
        let d2h = line!() + 1;
        p.memcpy_async(h2, b, N, s[1]).unwrap();
        let early = line!() + 1;
        p.host_read(h2, &mut [0; N as usize]).unwrap();
        p.stream_synchronize(s[1]).unwrap();
        p.host_read(h2, &mut [0; N as usize]).unwrap();
        vec![
            race(
                (op(&p, s[0], "memcpy", "memcpy_async"), false, d2d),
                (kernel(&p, s[1], "wa"), true, wa),
                1,
                DEV0,
            ),
            race(
                (op(&p, s[0], "memcpy", "memcpy_async"), true, d2d),
                (kernel(&p, s[1], "rb"), false, rb),
                2,
                DEV0,
            ),
            race(
                (op(&p, s[0], "memcpy", "memcpy_async"), false, h2d),
                (host(0, "host_write"), true, rewrite),
                1,
                PINNED,
            ),
            race(
                (op(&p, s[1], "memcpy", "memcpy_async"), true, d2h),
                (host(0, "host_read"), false, early),
                2,
                PINNED,
            ),
        ]
    });
}

/// Pageable host memory is not tracked (a pageable source is staged at the call; a copy into pageable memory
/// returns only once the data is there, so the host acquires it): only the device side of such copies can
/// race.
#[test]
fn copies_with_pageable_memory_track_only_the_device_side() {
    check(one_device, |m| {
        let p = m.process();
        let s = streams(&p, 2, StreamFlags::DEFAULT);
        let a = p.malloc(N).unwrap();
        let mut host_buf = vec![5u8; N as usize];
        let w = line!() + 1;
        p.launch(s[0], work("w").writes(a, N)).unwrap();
        let down = line!() + 1;
        p.memcpy_async(&mut host_buf, a, N, s[1]).unwrap(); // blocks: the host has it
        p.launch(s[0], work("after").writes(a, N)).unwrap(); // ordered after the copy's read
        p.memcpy_async(a, &host_buf, N, s[0]).unwrap();
        host_buf.fill(9); // staged already: no race
        p.device_synchronize().unwrap();
        vec![race(
            (kernel(&p, s[0], "w"), true, w),
            (op(&p, s[1], "memcpy", "memcpy_async"), false, down),
            1,
            DEV0,
        )]
    });
}

/// Blocking copies and memsets are acquire edges: the host has what they did when they return, so its later
/// accesses and enqueues are ordered after them. In the ACL dialect `memcpy` / `memset` run on the context's
/// default stream rather than a legacy stream.
#[test]
fn blocking_copies_are_acquire_edges_in_both_dialects() {
    fn acl() -> MachineBuilder {
        Machine::builder().dialect(Dialect::Acl)
    }
    for builder in [one_device as fn() -> MachineBuilder, acl] {
        check(builder, |m| {
            let p = m.process();
            p.set_device(0).unwrap();
            let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
            let a = p.malloc(N).unwrap();
            let h = p.malloc_host(N).unwrap();
            p.memcpy(h, a, N).unwrap();
            p.host_write(h, &[1; N as usize]).unwrap();
            p.memset(a, 0, N).unwrap();
            p.launch(s, work("after the memset").writes(a, N)).unwrap();
            p.stream_synchronize(s).unwrap();
            let mut out = vec![0u8; N as usize];
            p.memcpy(&mut out, a, N).unwrap();
            p.launch(s, work("after the copy out").writes(a, N))
                .unwrap();
            p.device_synchronize().unwrap();
            vec![]
        });
    }
}

/// Host reads and writes of pinned buffers through the API: program order on one host thread orders them with
/// everything the thread enqueues later; two reads never race.
#[test]
fn host_accesses_are_ordered_before_later_enqueues() {
    check(one_device, |m| {
        let p = m.process();
        let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        let a = p.malloc(N).unwrap();
        let h = p.malloc_host(N).unwrap();
        p.host_write(h, &[1; N as usize]).unwrap();
        p.host_read(h, &mut [0; N as usize]).unwrap();
        p.host_read(h, &mut [0; N as usize]).unwrap();
        p.memcpy_async(a, h, N, s).unwrap(); // reads h after the host's write
        p.stream_synchronize(s).unwrap();
        p.host_read(h, &mut [0; N as usize]).unwrap();
        p.memcpy_async(h, a, N, s).unwrap(); // writes h after the host's read
        p.stream_synchronize(s).unwrap();
        p.host_write(h, &[2; N as usize]).unwrap();
        vec![]
    });
}

/// Two host threads touching one pinned buffer are ordered only through the API (a thread's enqueue carries
/// its clock; another thread's synchronize acquires it). The simulator does not see OS-level ordering (spawn,
/// join, locks): a write on one thread and a read on a thread spawned after it are reported, even though the
/// fix line suggests joining.
#[test]
fn host_threads_are_ordered_only_through_the_api() {
    check(one_device, |m| {
        let p = m.process();
        let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
        let e = p.create_event(EventFlags::DEFAULT).unwrap();
        let (h1, h2) = (p.malloc_host(N).unwrap(), p.malloc_host(N).unwrap());
        // Through the API: thread 0 writes h1 and records (the record carries the write); thread 1
        // synchronizes the event, then reads h1.
        p.host_write(h1, &[1; N as usize]).unwrap();
        p.record_event(e, s).unwrap();
        let q = p.clone();
        std::thread::spawn(move || {
            q.event_synchronize(e).unwrap();
            q.host_read(h1, &mut [0; N as usize]).unwrap();
        })
        .join()
        .unwrap();
        // Only through the OS: spawn after the write, join before the next step.
        let write = line!() + 1;
        p.host_write(h2, &[2; N as usize]).unwrap();
        let q = p.clone();
        let read = line!() + 3;
        std::thread::spawn(move || {
            q.stream_synchronize(s).unwrap(); // unrelated to h2
            q.host_read(h2, &mut [0; N as usize]).unwrap();
        })
        .join()
        .unwrap();
        vec![race(
            (host(0, "host_write"), true, write),
            // The spawned threads are threads 1 and 2 of the process.
            (host(2, "host_read"), false, read),
            2,
            PINNED,
        )]
    });
}

/// acl.md · Memset / MemsetAsync · host memory from aclrtMallocHost → works, as a real write: a
/// `memset_host_async` of a pinned buffer races with a host read not ordered after it, and with a copy out of
/// the buffer on another stream; after a synchronize of its stream, the host read is ordered and sees the bytes.
#[test]
fn memsets_of_pinned_memory_are_writes() {
    check(one_device, |m| {
        let p = m.process();
        let s = streams(&p, 2, StreamFlags::NON_BLOCKING);
        let h = p.malloc_host(N).unwrap();
        let d = p.malloc(N).unwrap();
        let set = line!() + 1;
        p.memset_host_async(h, 0x5A, N, s[0]).unwrap();
        let early = line!() + 1;
        p.host_read(h, &mut [0; N as usize]).unwrap();
        let copy = line!() + 1;
        p.memcpy_async(d, h, N, s[1]).unwrap();
        p.stream_synchronize(s[0]).unwrap();
        let mut after = [0u8; N as usize];
        p.host_read(h, &mut after).unwrap();
        assert!(
            after.iter().all(|&b| b == 0x5A),
            "the memset wrote the buffer"
        );
        p.device_synchronize().unwrap();
        let memset = op(&p, s[0], "memset", "memset_async");
        vec![
            race(
                (memset.clone(), true, set),
                (host(0, "host_read"), false, early),
                1,
                PINNED,
            ),
            race(
                (memset, true, set),
                (op(&p, s[1], "memcpy", "memcpy_async"), false, copy),
                1,
                PINNED,
            ),
        ]
    });
}
