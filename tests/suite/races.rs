//! Race detection: every edge the detector knows (stream order, host enqueue, record / wait, re-record, the
//! legacy default stream, synchronizes and completed queries, IPC events), every tracked access (kernels'
//! declared reads / writes, memsets, copies D2D / H2D / D2H with pinned memory, host reads / writes of pinned
//! buffers), the three modes, deduplication and the report's text. Seed 004's scenarios come first.
//!
//! Every test asserts the exact reports: both sides (who, read or write, and the line of the call in this
//! file), the allocation, the byte range and the count. Every scenario runs on a fresh machine 11 times —
//! without and with schedule perturbation (seeds 0..10) — and must give the same reports each time.

use std::time::Duration;

use streamsim::{
    Accessor, AddressSpace, Dialect, EventFlags, Kernel, Machine, MachineBuilder, OpKind, Process,
    ProcessId, RaceDetection, RaceReport, SimError, Status, Stream, StreamFlags,
};

use crate::common::with_watchdog;

const N: u64 = 4096;

/// One side of a report as the tests compare it: who, whether it wrote, the line of its call in this file.
type Side = (Accessor, bool, u32);

/// A report as the tests compare it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Seen {
    first: Side,
    second: Side,
    /// (allocation number, offset, bytes, address space)
    range: (u64, u64, u64, AddressSpace),
    occurrences: u64,
}

fn seen(r: &RaceReport) -> Seen {
    for side in [&r.first, &r.second] {
        assert_eq!(
            side.call_site.file(),
            file!(),
            "the call site names the enqueueing call in the test file: {r}"
        );
    }
    Seen {
        first: (r.first.who.clone(), r.first.write, r.first.call_site.line()),
        second: (
            r.second.who.clone(),
            r.second.write,
            r.second.call_site.line(),
        ),
        range: (r.allocation, r.offset, r.bytes, r.space),
        occurrences: r.occurrences,
    }
}

/// A whole-buffer report seen once.
fn race(first: Side, second: Side, allocation: u64, space: AddressSpace) -> Seen {
    Seen {
        first,
        second,
        range: (allocation, 0, N, space),
        occurrences: 1,
    }
}

const DEV0: AddressSpace = AddressSpace::Device(0);
const PINNED: AddressSpace = AddressSpace::PinnedHost;

/// An operation on `stream` of `p`.
fn op(p: &Process, stream: Stream, kind: &'static str, label: &str) -> Accessor {
    Accessor::Op {
        stream: p.stream_id(stream).unwrap(),
        kind,
        label: label.to_string(),
    }
}

/// A kernel on `stream` of `p`.
fn kernel(p: &Process, stream: Stream, name: &str) -> Accessor {
    op(p, stream, "kernel", name)
}

/// A host call of thread `thread` of process 0.
fn host(thread: u32, call: &'static str) -> Accessor {
    Accessor::Host {
        process: ProcessId(0),
        thread,
        call,
    }
}

/// Reports with the pinned buffers' real addresses (which differ between runs) zeroed.
fn normalized(reports: Vec<RaceReport>) -> Vec<RaceReport> {
    reports
        .into_iter()
        .map(|mut r| {
            if r.space == PINNED {
                r.addr = 0;
            }
            r
        })
        .collect()
}

/// Runs `scenario` on a machine made by `builder`, then 10 more times with schedule perturbation (seeds
/// 0..10). Each run must report exactly what the scenario expects (it returns that), and the same reports (all
/// fields) as the first run. Returns the first run's reports.
fn check<F>(builder: fn() -> MachineBuilder, scenario: F) -> Vec<RaceReport>
where
    F: Fn(&Machine) -> Vec<Seen> + Send + Sync + 'static,
{
    with_watchdog(120, move || {
        let mut first: Option<Vec<RaceReport>> = None;
        for seed in [None, Some(0), Some(1), Some(2), Some(3)]
            .into_iter()
            .chain((4..10).map(Some))
        {
            let b = match seed {
                None => builder(),
                Some(s) => builder().perturb(true).seed(s),
            };
            let m = b.build().unwrap();
            let expected = scenario(&m);
            let reports = m.race_reports();
            let got: Vec<Seen> = reports.iter().map(seen).collect();
            assert_eq!(
                got, expected,
                "perturbation seed {seed:?}; the reports:\n{reports:#?}"
            );
            let reports = normalized(reports);
            match &first {
                None => first = Some(reports),
                Some(f) => assert_eq!(&reports, f, "perturbation seed {seed:?}"),
            }
        }
        first.expect("ran")
    })
}

fn one_device() -> MachineBuilder {
    Machine::builder().devices(1)
}

fn two_devices() -> MachineBuilder {
    Machine::builder().devices(2)
}

fn fail_fast() -> MachineBuilder {
    Machine::builder()
        .devices(1)
        .race_detection(RaceDetection::FailFast)
}

fn streams(p: &Process, n: usize, flags: StreamFlags) -> Vec<Stream> {
    (0..n).map(|_| p.create_stream(flags).unwrap()).collect()
}

fn work(name: &'static str) -> Kernel {
    Kernel::new(name).duration(Duration::from_micros(20))
}

// ---------------------------------------------------------------------------------------------------------
// Seed 004

/// Seed 004, symptom 1 (典型错误场景): `aclrtSynchronizeStream(stream1)` waits only for stream 1, but the data
/// the host reads was copied by stream 2. Flagged on every run, with both call sites and the fix.
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

/// Seed 004, symptom 3 (跨Stream协调时未使用Event同步): stream 1 consumes what stream 2 produces, with no event
/// between them. The fix names both streams and both operations.
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

/// Seed 004, 场景1: one stream, H2D copy, kernel, D2H copy, `aclrtSynchronizeStream`: no race.
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

/// Seed 004, the event version: stream 1 copies in and records event 1; stream 2 waits on it, runs the kernel
/// and records event 2; `aclrtSynchronizeEvent(event2)`: no race.
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

/// Seed 004, 场景2: stream 1 copies in and records; stream 2 waits, then copies into its own buffer and reads
/// stream 1's: no race.
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

/// Seed 004, 场景3: three time points on one stream; `aclrtSynchronizeEvent(event2)` waits for the kernel,
/// not for the copy out after it. Rewriting the input is fine then; reading the output is a race until
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

// ---------------------------------------------------------------------------------------------------------
// What is tracked

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

// ---------------------------------------------------------------------------------------------------------
// Edges

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

// ---------------------------------------------------------------------------------------------------------
// IPC events across processes

fn ipc_event(p: &Process) -> streamsim::Event {
    p.create_event(EventFlags::INTERPROCESS | EventFlags::DISABLE_TIMING)
        .unwrap()
}

/// Process A produces on its stream 1 and consumes on its stream 2; the only order between them goes through
/// process B: B waits on A's IPC event, records its own IPC event, and A's stream 2 waits on that. The
/// vector clocks carry across both processes: no race. Without B's wait, A's two accesses race (both sides
/// are A's: memory belongs to one process).
#[test]
fn ipc_events_order_accesses_through_another_process() {
    for b_waits in [true, false] {
        let reports = check(one_device, move |m| {
            let a = m.process();
            let b = m.process();
            let sa = streams(&a, 2, StreamFlags::NON_BLOCKING);
            let buf = a.malloc(N).unwrap();
            let ea = ipc_event(&a);
            let produce = line!() + 1;
            a.launch(sa[0], work("produce").writes(buf, N)).unwrap();
            a.record_event(ea, sa[0]).unwrap();
            let ha = a.ipc_get_event_handle(ea).unwrap();

            let sb = b.create_stream(StreamFlags::NON_BLOCKING).unwrap();
            let ea_in_b = b.ipc_open_event_handle(&ha).unwrap();
            if b_waits {
                b.stream_wait_event(sb, ea_in_b).unwrap();
            }
            b.launch(sb, work("relay")).unwrap();
            let eb = ipc_event(&b);
            b.record_event(eb, sb).unwrap();
            let hb = b.ipc_get_event_handle(eb).unwrap();

            let eb_in_a = a.ipc_open_event_handle(&hb).unwrap();
            a.stream_wait_event(sa[1], eb_in_a).unwrap();
            let consume = line!() + 1;
            a.launch(sa[1], work("consume").reads(buf, N)).unwrap();
            a.device_synchronize().unwrap();
            b.device_synchronize().unwrap();
            if b_waits {
                vec![]
            } else {
                vec![race(
                    (kernel(&a, sa[0], "produce"), true, produce),
                    (kernel(&a, sa[1], "consume"), false, consume),
                    1,
                    DEV0,
                )]
            }
        });
        if let Some(r) = reports.first() {
            assert_eq!(r.first.who.process(), ProcessId(0));
            assert_eq!(r.second.who.process(), ProcessId(0));
        }
    }
}

/// Device memory and pinned buffers belong to one process: another process's kernel, copy or host read of
/// them is refused (`InvalidAddress`, "owned by another process") before anything is enqueued, so no access
/// of one process can ever meet another's in the detector — a cross-process race cannot exist. What crosses
/// processes is order (the test above).
#[test]
fn cross_process_accesses_are_refused_so_no_cross_process_race_exists() {
    check(one_device, |m| {
        let a = m.process();
        let b = m.process();
        let sa = a.create_stream(StreamFlags::DEFAULT).unwrap();
        let sb = b.create_stream(StreamFlags::DEFAULT).unwrap();
        let buf = a.malloc(N).unwrap();
        let h = a.malloc_host(N).unwrap();
        a.launch(sa, work("a writes").writes(buf, N)).unwrap();
        a.memcpy_async(h, buf, N, sa).unwrap();
        let owned = |e: SimError| {
            assert!(
                matches!(
                    e,
                    SimError::InvalidAddress {
                        problem: "owned by another process",
                        ..
                    }
                ),
                "{e:?}"
            )
        };
        owned(b.launch(sb, work("b reads").reads(buf, N)).unwrap_err());
        owned(b.memcpy_async(h, buf, N, sb).unwrap_err());
        owned(b.host_read(h, &mut [0; N as usize]).unwrap_err());
        owned(b.host_write(h, &[0; N as usize]).unwrap_err());
        b.device_synchronize().unwrap();
        assert!(m.trace().stream(b.stream_id(sb).unwrap()).next().is_none());
        a.device_synchronize().unwrap();
        vec![]
    });
}

// ---------------------------------------------------------------------------------------------------------
// Modes, deduplication, text

/// Fail-fast: the call that completes a race returns `SimError::Race` with the report, and its operation is
/// not enqueued (not in the trace; the stream's next operation takes its place). A racing host read fails
/// without reading.
#[test]
fn fail_fast_refuses_the_racing_call() {
    check(fail_fast, |m| {
        let p = m.process();
        let s = streams(&p, 2, StreamFlags::DEFAULT);
        let a = p.malloc(N).unwrap();
        let h = p.malloc_host(N).unwrap();
        let w1 = line!() + 1;
        p.launch(s[0], work("w1").writes(a, N)).unwrap();
        let w2 = line!() + 1;
        let err = p.launch(s[1], work("w2").writes(a, N)).unwrap_err();
        let SimError::Race(r) = &err else {
            panic!("expected a race, got {err:?}")
        };
        let expected = race(
            (kernel(&p, s[0], "w1"), true, w1),
            (kernel(&p, s[1], "w2"), true, w2),
            1,
            DEV0,
        );
        assert_eq!(seen(r), expected);
        assert_eq!(err.to_string(), r.to_string());
        p.launch(s[1], work("next")).unwrap();
        // A racing host read.
        let copy = line!() + 1;
        p.memcpy_async(h, a, N, s[0]).unwrap();
        let mut out = vec![0xAA; N as usize];
        let read = line!() + 1;
        let err = p.host_read(h, &mut out).unwrap_err();
        assert!(matches!(err, SimError::Race(_)), "{err:?}");
        assert!(
            out.iter().all(|&x| x == 0xAA),
            "a refused host read reads nothing"
        );
        p.device_synchronize().unwrap();
        let t = m.trace();
        let on_s2: Vec<(u64, &str)> = t
            .stream(p.stream_id(s[1]).unwrap())
            .map(|e| (e.seq, &*e.label))
            .collect();
        assert_eq!(on_s2, [(1, "next")], "w2 was not enqueued");
        assert!(t.find("w2").is_none());
        vec![
            expected,
            race(
                (op(&p, s[0], "memcpy", "memcpy_async"), true, copy),
                (host(0, "host_read"), false, read),
                1,
                PINNED,
            ),
        ]
    });
}

/// Fail-fast on a blocking stream after a legacy-stream operation: the refused operation must not consume
/// the stream's legacy edge. The next operation on that stream must still wait for (and be ordered after) the
/// legacy operation: no race with it, and a start no earlier than its end.
#[test]
fn fail_fast_refused_operation_keeps_the_legacy_edges() {
    check(fail_fast, |m| {
        let p = m.process();
        let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap();
        let nb = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        let (a, b) = (p.malloc(N).unwrap(), p.malloc(N).unwrap());
        let by_nb = line!() + 1;
        p.launch(nb, work("nb writes b").writes(b, N)).unwrap();
        p.launch(
            Stream::DEFAULT,
            Kernel::new("legacy writes a")
                .duration(Duration::from_micros(100))
                .writes(a, N),
        )
        .unwrap();
        let refused = line!() + 1;
        let err = p.launch(s1, work("s1 writes b").writes(b, N)).unwrap_err();
        assert!(matches!(err, SimError::Race(_)), "{err:?}");
        p.launch(s1, work("s1 reads a").reads(a, N))
            .expect("ordered after the legacy kernel: no race");
        p.device_synchronize().unwrap();
        let t = m.trace();
        let legacy = t.find("legacy writes a").unwrap();
        let reader = t.find("s1 reads a").unwrap();
        assert!(
            reader.start >= legacy.end,
            "s1's next kernel starts at {} before the legacy kernel ends at {}",
            reader.start,
            legacy.end
        );
        vec![race(
            (kernel(&p, nb, "nb writes b"), true, by_nb),
            (kernel(&p, s1, "s1 writes b"), true, refused),
            2,
            DEV0,
        )]
    });
}

/// The same for the legacy stream itself: a refused legacy operation must not consume its edges to the
/// blocking streams.
#[test]
fn fail_fast_refused_legacy_operation_keeps_its_edges() {
    check(fail_fast, |m| {
        let p = m.process();
        let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap();
        let nb = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        let (a, b) = (p.malloc(N).unwrap(), p.malloc(N).unwrap());
        let by_nb = line!() + 1;
        p.launch(nb, work("nb writes b").writes(b, N)).unwrap();
        p.launch(
            s1,
            Kernel::new("s1 writes a")
                .duration(Duration::from_micros(100))
                .writes(a, N),
        )
        .unwrap();
        let k = work("legacy writes b").writes(b, N);
        let refused = line!() + 1;
        let err = p.launch(Stream::DEFAULT, k).unwrap_err();
        assert!(matches!(err, SimError::Race(_)), "{err:?}");
        p.launch(Stream::DEFAULT, work("legacy reads a").reads(a, N))
            .expect("ordered after s1's kernel: no race");
        p.device_synchronize().unwrap();
        let t = m.trace();
        let writer = t.find("s1 writes a").unwrap();
        let reader = t.find("legacy reads a").unwrap();
        assert!(
            reader.start >= writer.end,
            "the legacy kernel starts at {} before s1's kernel ends at {}",
            reader.start,
            writer.end
        );
        vec![race(
            (kernel(&p, nb, "nb writes b"), true, by_nb),
            (
                kernel(&p, Stream::DEFAULT, "legacy writes b"),
                true,
                refused,
            ),
            2,
            DEV0,
        )]
    });
}

/// Off: nothing is tracked, nothing is reported, nothing fails.
#[test]
fn off_reports_nothing() {
    check(
        || Machine::builder().race_detection(RaceDetection::Off),
        |m| {
            assert_eq!(m.race_detection(), RaceDetection::Off);
            let p = m.process();
            let s = streams(&p, 2, StreamFlags::NON_BLOCKING);
            let a = p.malloc(N).unwrap();
            let h = p.malloc_host(N).unwrap();
            p.launch(s[0], work("w1").writes(a, N)).unwrap();
            p.launch(s[1], work("w2").writes(a, N)).unwrap();
            p.memcpy_async(h, a, N, s[0]).unwrap();
            p.host_read(h, &mut [0; N as usize]).unwrap();
            p.device_synchronize().unwrap();
            vec![]
        },
    );
}

/// The default mode collects.
#[test]
fn collect_is_the_default() {
    let m = Machine::builder().build().unwrap();
    assert_eq!(m.race_detection(), RaceDetection::Collect);
}

/// A racy loop of 1000 iterations (produce on stream 1, consume on stream 2, device synchronize) is one
/// report with 1000 occurrences.
#[test]
fn a_racy_loop_is_one_report_counted() {
    let reports = check(one_device, |m| {
        let p = m.process();
        let s = streams(&p, 2, StreamFlags::DEFAULT);
        let a = p.malloc(N).unwrap();
        let (mut produce, mut consume) = (0, 0);
        for _ in 0..1000 {
            produce = line!() + 1;
            p.launch(s[0], Kernel::new("produce").writes(a, N)).unwrap();
            consume = line!() + 1;
            p.launch(s[1], Kernel::new("consume").reads(a, N)).unwrap();
            p.device_synchronize().unwrap();
        }
        vec![Seen {
            occurrences: 1000,
            ..race(
                (kernel(&p, s[0], "produce"), true, produce),
                (kernel(&p, s[1], "consume"), false, consume),
                1,
                DEV0,
            )
        }]
    });
    assert!(reports[0].to_string().starts_with(
        "data race on 4096 bytes at offset 0 of allocation #1 (device 0 memory), 1000 times\n"
    ));
}

/// The report's text: what, where, both sides with their call sites, and the fix.
#[test]
fn report_display() {
    let reports = check(one_device, |m| {
        let p = m.process();
        let s = streams(&p, 2, StreamFlags::DEFAULT);
        let d = p.malloc(N).unwrap();
        let h = p.malloc_host(64).unwrap();
        let produce = line!() + 1;
        p.launch(s[1], work("produce").writes(d.offset(64), 128))
            .unwrap();
        let consume = line!() + 1;
        p.launch(s[0], work("consume").reads(d, 256)).unwrap();
        let copy = line!() + 1;
        p.memcpy_async(h, d, 64, s[0]).unwrap();
        let write = line!() + 1;
        p.host_write(h.offset(16), &[1; 8]).unwrap();
        vec![
            Seen {
                first: (kernel(&p, s[1], "produce"), true, produce),
                second: (kernel(&p, s[0], "consume"), false, consume),
                range: (1, 64, 128, DEV0),
                occurrences: 1,
            },
            Seen {
                first: (op(&p, s[0], "memcpy", "memcpy_async"), true, copy),
                second: (host(0, "host_write"), true, write),
                range: (1, 16, 8, PINNED),
                occurrences: 1,
            },
        ]
    });
    let r = &reports[0];
    assert_eq!(
        r.to_string(),
        format!(
            "data race on 128 bytes at offset 64 of allocation #1 (device 0 memory)\n\
             \x20 first:  kernel `produce` on stream 2 (device 0, process 0) writes — enqueued at {}\n\
             \x20 second: kernel `consume` on stream 1 (device 0, process 0) reads — enqueued at {}\n\
             \x20 fix: record an event on stream 2 after `produce` and make stream 1 wait on it before `consume`",
            r.first.call_site, r.second.call_site
        )
    );
    assert!(
        r.first
            .call_site
            .to_string()
            .starts_with("tests/suite/races.rs:")
    );
    let r = &reports[1];
    assert_eq!(
        r.to_string(),
        format!(
            "data race on 8 bytes at offset 16 of allocation #1 (pinned host memory)\n\
             \x20 first:  memcpy `memcpy_async` on stream 1 (device 0, process 0) writes — enqueued at {}\n\
             \x20 second: `host_write` on host thread 0 of process 0 writes — enqueued at {}\n\
             \x20 fix: synchronize stream 1 (or an event recorded after `memcpy_async`) before `host_write`",
            r.first.call_site, r.second.call_site
        )
    );
}

/// Verdicts are computed at enqueue: the trace of a racy program is the same with and without detection,
/// and with perturbation (virtual times do not depend on it).
#[test]
fn detection_does_not_change_virtual_times() {
    let program = |mode: RaceDetection, perturb: Option<u64>| {
        let mut b = Machine::builder().race_detection(mode);
        if let Some(s) = perturb {
            b = b.perturb(true).seed(s);
        }
        let m = b.build().unwrap();
        let p = m.process();
        let s = streams(&p, 2, StreamFlags::DEFAULT);
        let a = p.malloc(N).unwrap();
        let h = p.malloc_host(N).unwrap();
        p.launch(s[0], work("w").writes(a, N)).unwrap();
        p.memcpy_async(h, a, N, s[1]).unwrap();
        p.launch(Stream::DEFAULT, work("legacy")).unwrap();
        p.host_read(h, &mut [0; N as usize]).unwrap();
        p.device_synchronize().unwrap();
        let t = m.trace();
        assert!(
            t.ops
                .iter()
                .any(|e| matches!(e.kind, OpKind::Memcpy { .. }))
        );
        format!("{t:?}")
    };
    let base = program(RaceDetection::Off, None);
    assert_eq!(program(RaceDetection::Collect, None), base);
    for seed in 0..10 {
        assert_eq!(
            program(RaceDetection::Collect, Some(seed)),
            base,
            "seed {seed}"
        );
    }
}
