//! The engine model (`docs/semantics/engine-model.md`): copy engines per direction, kernel slots, stream
//! priorities, and the model turned off. Every time is computed by hand in the comments from the default cost
//! model: every call advances the host clock by 1 µs (call n of a fresh thread acts at n µs, written tn), an
//! operation is ready 2 µs after its call (or when its stream's previous work ends, if later), a copy of
//! 160 000 bytes over a host↔device link costs 2 µs + 160 000 B / 16 GB/s = 12 µs. Each test names the row of
//! `engine-model.md` it checks.

use streamsim::{
    Attribute, DeviceConfig, Dialect, EngineModel, EventConfig, HostPtr, Machine, OpKind, Process,
    Stream, StreamFlags, Trace, UnrecordedWait, VirtualTime,
};

use crate::common::{kernel, span, us};

/// A copy of this many bytes over a host↔device link takes 12 µs.
const BYTES: u64 = 160_000;

/// A one-device machine of `dialect` whose device has `async_engines` copy engines, with the engine model
/// `model`, and a process on it.
fn machine(dialect: Dialect, async_engines: i64, model: EngineModel) -> (Machine, Process) {
    let m = Machine::builder()
        .dialect(dialect)
        .device(
            0,
            DeviceConfig::default().attribute(Attribute::AsyncEngineCount, async_engines),
        )
        .engine_model(model)
        .build()
        .expect("machine");
    let p = m.process();
    (m, p)
}

/// (kind, start, end) of every operation of stream `s`, in stream order.
fn on(t: &Trace, p: &Process, s: Stream) -> Vec<(&'static str, VirtualTime, VirtualTime)> {
    let id = p.stream_id(s).unwrap();
    t.stream(id)
        .map(|o| (o.kind.name(), o.start, o.end))
        .collect()
}

/// Two streams, a device buffer for each and one pinned host buffer (calls t1..t5).
fn two_streams(
    p: &Process,
) -> (
    Stream,
    Stream,
    streamsim::DevicePtr,
    streamsim::DevicePtr,
    HostPtr,
) {
    let s1 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap(); // t1
    let s2 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap(); // t2
    let d1 = p.malloc(BYTES).unwrap(); // t3
    let d2 = p.malloc(BYTES).unwrap(); // t4
    let h = p.malloc_host(BYTES).unwrap(); // t5
    (s1, s2, d1, d2, h)
}

/// engine-model.md · Copy engines · two host-to-device copies on two streams → one after the other, on the
/// device's one H2D engine (the second, ready at 9 µs, starts when the first ends at 20 µs)
#[test]
fn two_host_to_device_copies_on_two_streams_serialise() {
    let (m, p) = machine(Dialect::Cuda, 6, EngineModel::ON);
    let (s1, s2, d1, d2, h) = two_streams(&p);
    p.memcpy_async(d1, h, BYTES, s1).unwrap(); // t6: ready 8 → 8..20
    p.memcpy_async(d2, h, BYTES, s2).unwrap(); // t7: ready 9, engine busy → 20..32
    p.device_synchronize().unwrap(); // t8 → 32
    assert_eq!(p.now(), us(32));
    let t = m.trace();
    assert_eq!(on(&t, &p, s1), [("memcpy", us(8), us(20))]);
    assert_eq!(on(&t, &p, s2), [("memcpy", us(20), us(32))]);
}

/// engine-model.md · Copy engines · a copy ready before a later-enqueued copy's interval that fits in the gap →
/// takes the gap (first fit in virtual time; nothing placed earlier moves)
#[test]
fn a_copy_fills_a_gap_before_a_copy_enqueued_earlier() {
    let (m, p) = machine(Dialect::Cuda, 6, EngineModel::ON);
    let (s1, s2, d1, d2, h) = two_streams(&p);
    p.launch(s1, kernel("long", 100)).unwrap(); // t6: 8..108
    p.memcpy_async(d1, h, BYTES, s1).unwrap(); // t7: after "long" → 108..120 on the H2D engine
    p.memcpy_async(d2, h, BYTES, s2).unwrap(); // t8: ready 10; the engine is free until 108 → 10..22
    p.device_synchronize().unwrap(); // t9 → 120
    assert_eq!(p.now(), us(120));
    let t = m.trace();
    assert_eq!(
        on(&t, &p, s1),
        [("kernel", us(8), us(108)), ("memcpy", us(108), us(120))]
    );
    assert_eq!(on(&t, &p, s2), [("memcpy", us(10), us(22))]);
}

/// Two streams, two device and two pinned buffers; an H2D copy on stream 1 (t7) and a D2H copy on stream 2 (t8):
/// the (start, end) of each.
fn h2d_and_d2h(async_engines: i64) -> [(VirtualTime, VirtualTime); 2] {
    let (m, p) = machine(Dialect::Cuda, async_engines, EngineModel::ON);
    let (s1, s2, d1, d2, h1) = two_streams(&p);
    let h2 = p.malloc_host(BYTES).unwrap(); // t6
    p.memcpy_async(d1, h1, BYTES, s1).unwrap(); // t7: ready 9 → 9..21
    p.memcpy_async(h2, d2, BYTES, s2).unwrap(); // t8: ready 10
    p.device_synchronize().unwrap(); // t9
    let t = m.trace();
    let one = |s| {
        let ops = on(&t, &p, s);
        assert_eq!(ops.len(), 1, "{ops:?}");
        (ops[0].1, ops[0].2)
    };
    [one(s1), one(s2)]
}

/// engine-model.md · Copy engines · asyncEngineCount 2 (or more) → an H2D and a D2H copy overlap, each on the
/// engine of its direction
#[test]
fn host_to_device_and_device_to_host_overlap_with_two_engines() {
    assert_eq!(h2d_and_d2h(2), [(us(9), us(21)), (us(10), us(22))]);
    // The default profile's 6 engines: the same two engines, one per direction.
    assert_eq!(h2d_and_d2h(6), [(us(9), us(21)), (us(10), us(22))]);
}

/// engine-model.md · Copy engines · asyncEngineCount 1 → one engine for both directions: the D2H copy waits for
/// the H2D copy (9..21, then 21..33)
#[test]
fn host_to_device_and_device_to_host_serialise_with_one_engine() {
    assert_eq!(h2d_and_d2h(1), [(us(9), us(21)), (us(21), us(33))]);
}

/// A 50 µs kernel on stream 1 (t6), an H2D copy on stream 2 (t7), another 50 µs kernel on stream 1 (t8): the
/// three (start, end).
fn kernel_copy_kernel(async_engines: i64, model: EngineModel) -> Vec<(VirtualTime, VirtualTime)> {
    let (m, p) = machine(Dialect::Cuda, async_engines, model);
    let (s1, s2, d1, _d2, h) = two_streams(&p);
    p.launch(s1, kernel("k1", 50)).unwrap(); // t6: 8..58
    p.memcpy_async(d1, h, BYTES, s2).unwrap(); // t7: ready 9
    p.launch(s1, kernel("k2", 50)).unwrap(); // t8: after k1, 58
    p.device_synchronize().unwrap(); // t9
    let t = m.trace();
    let copy = on(&t, &p, s2);
    assert_eq!(copy.len(), 1, "{copy:?}");
    vec![span(&t, "k1"), (copy[0].1, copy[0].2), span(&t, "k2")]
}

/// engine-model.md · Copy engines and kernels · asyncEngineCount ≥ 1 → a copy overlaps a kernel of another
/// stream
#[test]
fn a_copy_overlaps_a_kernel() {
    assert_eq!(
        kernel_copy_kernel(6, EngineModel::ON),
        [(us(8), us(58)), (us(9), us(21)), (us(58), us(108))]
    );
    assert_eq!(
        kernel_copy_kernel(1, EngineModel::ON),
        [(us(8), us(58)), (us(9), us(21)), (us(58), us(108))]
    );
}

/// engine-model.md · Copy engines and kernels · asyncEngineCount 0 → a copy does not overlap a kernel: it waits
/// for k1 (58..70), and k2, ready at 58, waits for the copy (70..120)
#[test]
fn without_copy_engines_a_copy_and_a_kernel_serialise() {
    assert_eq!(
        kernel_copy_kernel(0, EngineModel::ON),
        [(us(8), us(58)), (us(58), us(70)), (us(70), us(120))]
    );
}

/// engine-model.md · Kernel slots · more ready kernels than slots → the next one starts when a slot frees (two
/// slots: the third kernel, ready at 8 µs, starts at 106 when the first ends; the fourth, ready at 106, at 107
/// when the second ends)
#[test]
fn the_kernel_limit_queues_the_next_kernel() {
    let (m, p) = machine(Dialect::Cuda, 6, EngineModel::ON.kernel_slots(2));
    let s1 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap(); // t1
    let s2 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap(); // t2
    let s3 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap(); // t3
    p.launch(s1, kernel("a", 100)).unwrap(); // t4: 6..106
    p.launch(s2, kernel("b", 100)).unwrap(); // t5: 7..107
    p.launch(s3, kernel("c", 100)).unwrap(); // t6: ready 8, both slots busy → 106..206
    p.launch(s1, kernel("d", 100)).unwrap(); // t7: after a (106); b and c hold the slots → 107..207
    p.device_synchronize().unwrap(); // t8 → 207
    assert_eq!(p.now(), us(207));
    let t = m.trace();
    assert_eq!(span(&t, "a"), (us(6), us(106)));
    assert_eq!(span(&t, "b"), (us(7), us(107)));
    assert_eq!(span(&t, "c"), (us(106), us(206)));
    assert_eq!(span(&t, "d"), (us(107), us(207)));
}

/// engine-model.md · Kernel slots · the default 128 slots → 128 kernels run at once, the 129th waits for the
/// first to end; concurrentKernels 0 → one kernel at a time
#[test]
fn the_default_limit_is_128_kernels_and_concurrent_kernels_0_is_one() {
    let (m, p) = machine(Dialect::Cuda, 6, EngineModel::ON);
    let streams: Vec<Stream> = (0..129)
        .map(|_| p.create_stream(StreamFlags::NON_BLOCKING).unwrap()) // t1..t129
        .collect();
    let names: Vec<String> = (0..129).map(|i| format!("k{i}")).collect();
    for (s, name) in streams.iter().zip(&names) {
        // Kernel i (0-based) is launched at t(130 + i), ready 2 µs later; 1000 µs long.
        let k = streamsim::Kernel::new(name.clone()).duration(std::time::Duration::from_millis(1));
        p.launch(*s, k).unwrap();
    }
    p.device_synchronize().unwrap();
    let t = m.trace();
    assert_eq!(span(&t, "k0"), (us(132), us(1132)));
    assert_eq!(span(&t, "k127"), (us(259), us(1259)));
    // Ready at 260 µs, all 128 slots busy until k0 ends at 1132.
    assert_eq!(span(&t, "k128"), (us(1132), us(2132)));

    let (m, p) = {
        let m = Machine::builder()
            .device(
                0,
                DeviceConfig::default().attribute(Attribute::ConcurrentKernels, 0),
            )
            .build()
            .unwrap();
        let p = m.process();
        (m, p)
    };
    let s1 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap(); // t1
    let s2 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap(); // t2
    p.launch(s1, kernel("x", 10)).unwrap(); // t3: 5..15
    p.launch(s2, kernel("y", 10)).unwrap(); // t4: ready 6 → 15..25
    p.device_synchronize().unwrap();
    let t = m.trace();
    assert_eq!(span(&t, "x"), (us(5), us(15)));
    assert_eq!(span(&t, "y"), (us(15), us(25)));
}

/// An ACL process with one kernel slot: streams `low` (priority 7, created first) and `high` (priority
/// `high_priority`) both wait for a never-recorded SYNC event, each with a 10 µs kernel held behind the wait; a
/// third stream runs a 20 µs kernel and records the event after it. The spans of "low" and "high".
fn released_together(high_priority: i32) -> [(VirtualTime, VirtualTime); 2] {
    let (m, p) = machine(Dialect::Acl, 6, EngineModel::ON.kernel_slots(1));
    p.set_device(0).unwrap(); // t1
    let low = p
        .create_stream_with_priority(StreamFlags::DEFAULT, 7)
        .unwrap(); // t2
    let high = p
        .create_stream_with_priority(StreamFlags::DEFAULT, high_priority)
        .unwrap(); // t3
    let other = p.create_stream(StreamFlags::DEFAULT).unwrap(); // t4
    let e = p
        .create_event_with(EventConfig::new().unrecorded_wait(UnrecordedWait::Defer))
        .unwrap(); // t5
    p.stream_wait_event(low, e).unwrap(); // t6: deferred
    p.launch(low, kernel("low", 10)).unwrap(); // t7: held
    p.stream_wait_event(high, e).unwrap(); // t8: deferred
    p.launch(high, kernel("high", 10)).unwrap(); // t9: held
    p.launch(other, kernel("first", 20)).unwrap(); // t10: 12..32, the only slot
    p.record_event(e, other).unwrap(); // t11: at 32; releases both streams in one step
    p.device_synchronize().unwrap(); // t12
    let t = m.trace();
    assert_eq!(span(&t, "first"), (us(12), us(32)));
    [span(&t, "low"), span(&t, "high")]
}

/// engine-model.md · Priorities · two kernels that take their slots in the same step (released together by one
/// record) → the higher-priority stream's kernel takes the free slot (32..42), the other the next (42..52)
#[test]
fn priorities_decide_a_tie() {
    assert_eq!(released_together(0), [(us(42), us(52)), (us(32), us(42))]);
}

/// engine-model.md · Priorities · equal priorities → stream order (the stream created first)
#[test]
fn equal_priorities_go_in_stream_order() {
    assert_eq!(released_together(7), [(us(32), us(42)), (us(42), us(52))]);
}

/// engine-model.md · Priorities · a lower-priority kernel that already has its slot → keeps it: nothing is
/// preempted, and the higher-priority kernel enqueued after it waits (the CUDA driver API: priorities "do not
/// preempt already-running work")
#[test]
fn a_placed_lower_priority_kernel_keeps_its_slot() {
    let (m, p) = machine(Dialect::Cuda, 6, EngineModel::ON.kernel_slots(1));
    let low = p
        .create_stream_with_priority(StreamFlags::NON_BLOCKING, 0)
        .unwrap(); // t1
    let high = p
        .create_stream_with_priority(StreamFlags::NON_BLOCKING, -5)
        .unwrap(); // t2
    p.launch(low, kernel("low", 100)).unwrap(); // t3: 5..105
    p.launch(high, kernel("high", 10)).unwrap(); // t4: ready 6 → 105..115
    p.device_synchronize().unwrap();
    let t = m.trace();
    assert_eq!(span(&t, "low"), (us(5), us(105)));
    assert_eq!(span(&t, "high"), (us(105), us(115)));
}

/// engine-model.md · Turning it off · EngineModel::OFF → every operation starts when it is ready: the two H2D
/// copies overlap (8..20, 9..21), and so do more kernels than slots
#[test]
fn the_model_off_gives_the_old_times() {
    let (m, p) = machine(Dialect::Cuda, 1, EngineModel::OFF.kernel_slots(1));
    let (s1, s2, d1, d2, h) = two_streams(&p);
    p.memcpy_async(d1, h, BYTES, s1).unwrap(); // t6: 8..20
    p.memcpy_async(h, d2, BYTES, s2).unwrap(); // t7: 9..21 (one engine, but the model is off)
    p.launch(s1, kernel("k1", 10)).unwrap(); // t8: after the copy, 20..30
    p.launch(s2, kernel("k2", 10)).unwrap(); // t9: after the copy, 21..31 (one slot, but off)
    p.device_synchronize().unwrap(); // t10 → 31
    assert_eq!(p.now(), us(31));
    let t = m.trace();
    assert_eq!(
        on(&t, &p, s1),
        [("memcpy", us(8), us(20)), ("kernel", us(20), us(30))]
    );
    assert_eq!(
        on(&t, &p, s2),
        [("memcpy", us(9), us(21)), ("kernel", us(21), us(31))]
    );
    // The builder's cost_model with engines off does the same.
    let cost = streamsim::CostModel::default().with_engines(EngineModel::OFF);
    let m = Machine::builder().cost_model(cost).build().unwrap();
    assert!(!m.cost_model().engines.enabled);
}

/// engine-model.md · Copy engines · on-device copies, memsets, host functions, records and waits → occupy no
/// engine: an on-device copy overlaps an H2D copy and a kernel even with one copy engine and one kernel slot
#[test]
fn on_device_work_takes_no_engine() {
    let (m, p) = machine(Dialect::Cuda, 1, EngineModel::ON.kernel_slots(1));
    let (s1, s2, d1, d2, h) = two_streams(&p);
    let s3 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap(); // t6
    let d3 = p.malloc(BYTES).unwrap(); // t7
    p.launch(s1, kernel("k", 50)).unwrap(); // t8: 10..60, the only kernel slot
    p.memcpy_async(d1, h, BYTES, s2).unwrap(); // t9: 11..23, the only copy engine
    // 160 000 B within the device: 1 µs + 160 000 B / 500 GB/s = 1.32 µs; ready 12.
    p.memcpy_async(d3, d2, BYTES, s3).unwrap(); // t10: 12..13.32
    p.device_synchronize().unwrap();
    let t = m.trace();
    assert_eq!(span(&t, "k"), (us(10), us(60)));
    assert_eq!(on(&t, &p, s2), [("memcpy", us(11), us(23))]);
    assert_eq!(on(&t, &p, s3), [("memcpy", us(12), VirtualTime(13_320))]);
    assert!(matches!(
        t.stream(p.stream_id(s3).unwrap()).next().unwrap().kind,
        OpKind::Memcpy {
            path: streamsim::CopyPath::OnDevice,
            ..
        }
    ));
}

/// engine-model.md · Scope · two simulated processes → each has its own engines: their H2D copies overlap (sim)
#[test]
fn processes_do_not_share_engines() {
    let (m, a) = machine(Dialect::Cuda, 6, EngineModel::ON);
    let b = m.process();
    let copy = |p: &Process| {
        let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap(); // t1
        let d = p.malloc(BYTES).unwrap(); // t2
        let h = p.malloc_host(BYTES).unwrap(); // t3
        p.memcpy_async(d, h, BYTES, s).unwrap(); // t4: 6..18
        p.stream_synchronize(s).unwrap();
        on(&m.trace(), p, s)
    };
    assert_eq!(copy(&a), [("memcpy", us(6), us(18))]);
    assert_eq!(copy(&b), [("memcpy", us(6), us(18))]);
}

/// An operation's (kind, start µs, end µs).
type Span = (&'static str, u64, u64);

/// The operations of scenario 14 (with `prefix` put before its first line), by stream name: (kind, start µs,
/// end µs), and the transcript.
fn scenario_14(prefix: &str) -> (Vec<(String, Vec<Span>)>, String) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/scenarios/14_simple_streams_engines.ss"
    );
    let text = format!("{prefix}{}", std::fs::read_to_string(path).unwrap());
    let run = streamsim::scenario::run_source(&text).unwrap();
    assert!(run.stopped.is_none(), "{:?}", run.stopped);
    let mut by_stream = Vec::new();
    for name in ["s1", "s2", "s3"] {
        let id = *run
            .trace
            .names
            .streams
            .iter()
            .find(|(_, n)| &***n == name)
            .unwrap()
            .0;
        let ops = run
            .trace
            .stream(id)
            .map(|o| {
                (
                    o.kind.name(),
                    o.start.as_nanos() / 1_000,
                    o.end.as_nanos() / 1_000,
                )
            })
            .collect();
        by_stream.push((name.to_string(), ops));
    }
    (by_stream, run.transcript())
}

/// engine-model.md · Copy engines · the simpleStreams-shaped scenario 14: copies serialised per direction,
/// overlapped with kernels, at the times the model predicts (worked out in the scenario's header: the start
/// event at 17 µs, each copy 22 µs, each kernel 40 µs)
#[test]
fn scenario_14_serialises_copies_per_direction_and_overlaps_kernels() {
    let (ops, transcript) = scenario_14("");
    let s = |name: &str, v: [Span; 3]| (name.to_string(), v.to_vec());
    assert_eq!(
        ops,
        [
            // H2D 18..40 (engine free); k1 after it; D2H when k1 ends (the D2H engine is free).
            s(
                "s1",
                [("memcpy", 18, 40), ("kernel", 40, 80), ("memcpy", 80, 102)]
            ),
            // H2D ready at 21, after s1's on the H2D engine; D2H ready at 102, when s1's ends.
            s(
                "s2",
                [
                    ("memcpy", 40, 62),
                    ("kernel", 62, 102),
                    ("memcpy", 102, 124)
                ]
            ),
            s(
                "s3",
                [
                    ("memcpy", 62, 84),
                    ("kernel", 84, 124),
                    ("memcpy", 124, 146)
                ]
            ),
        ]
    );
    assert!(
        transcript.contains("elapsed start stop                       0 cudaSuccess: 0.129 ms"),
        "{transcript}"
    );
    assert!(transcript.starts_with("streamsim · dialect cuda · 1 device · seed 0\n"));
}

/// engine-model.md · Turning it off · scenario 14 with `engines off` → every stream runs on its own: each
/// operation starts when it is ready (the streams' calls are 3 µs apart), 0.091 ms in all
#[test]
fn scenario_14_with_engines_off() {
    let (ops, transcript) = scenario_14("engines off\n");
    let s = |name: &str, v: [Span; 3]| (name.to_string(), v.to_vec());
    assert_eq!(
        ops,
        [
            s(
                "s1",
                [("memcpy", 18, 40), ("kernel", 40, 80), ("memcpy", 80, 102)]
            ),
            s(
                "s2",
                [("memcpy", 21, 43), ("kernel", 43, 83), ("memcpy", 83, 105)]
            ),
            s(
                "s3",
                [("memcpy", 24, 46), ("kernel", 46, 86), ("memcpy", 86, 108)]
            ),
        ]
    );
    assert!(
        transcript.contains("0 cudaSuccess: 0.091 ms"),
        "{transcript}"
    );
    assert!(
        transcript.starts_with("streamsim · dialect cuda · 1 device · seed 0 · engines off\n"),
        "{transcript}"
    );
}

/// engine-model.md · Copy engines · scenario 14 with `engines copy-engines 1 kernel-slots 1` → one engine for
/// both directions and one kernel at a time: every copy queues behind every earlier one on the shared engine
#[test]
fn scenario_14_with_one_copy_engine_and_one_kernel_slot() {
    let (ops, transcript) = scenario_14("engines copy-engines 1 kernel-slots 1\n");
    let s = |name: &str, v: [Span; 3]| (name.to_string(), v.to_vec());
    // In enqueue order, each at the earliest time its engine is free for it from when it is ready:
    // s1 H2D (ready 18) 18..40; k1 (ready 40) 40..80; s1 D2H (ready 80) 80..102 on the shared engine;
    // s2 H2D (ready 21): the engine is busy until 40, then free until 80 → 40..62; k2 (ready 62): the one
    // slot is k1's until 80 → 80..120; s2 D2H (ready 120): 120..142; s3 H2D (ready 24): busy 18..62, 62..84
    // would overlap 80..102, 102..124 would overlap 120..142 → 142..164; k3 (ready 164) 164..204; s3 D2H
    // 204..226. (s3's H2D copy goes after s2's D2H copy, enqueued before it: nothing placed earlier moves.)
    assert_eq!(
        ops,
        [
            s(
                "s1",
                [("memcpy", 18, 40), ("kernel", 40, 80), ("memcpy", 80, 102)]
            ),
            s(
                "s2",
                [
                    ("memcpy", 40, 62),
                    ("kernel", 80, 120),
                    ("memcpy", 120, 142)
                ]
            ),
            s(
                "s3",
                [
                    ("memcpy", 142, 164),
                    ("kernel", 164, 204),
                    ("memcpy", 204, 226)
                ]
            ),
        ]
    );
    assert!(
        transcript.starts_with(
            "streamsim · dialect cuda · 1 device · seed 0 · copy engines 1 · kernel slots 1\n"
        ),
        "{transcript}"
    );
}

/// The scenario language's `engines` statement: bad words and counts are parse errors that say what was
/// expected (line:column, expected, found), and it is configuration (before the first call, once).
#[test]
fn the_engines_statement_refuses_bad_input() {
    let err = |text: &str| {
        let e = streamsim::scenario::parse(text).unwrap_err();
        (e.line, e.column, e.expected, e.found)
    };
    let what = "`off`, `copy-engines N` or `kernel-slots N`".to_string();
    assert_eq!(err("engines"), (1, 8, what.clone(), "end of line".into()));
    assert_eq!(err("engines foo"), (1, 9, what, "`foo`".into()));
    assert_eq!(
        err("engines copy-engines 99"),
        (1, 22, "a copy engine count (0 to 64)".into(), "`99`".into())
    );
    assert_eq!(
        err("engines kernel-slots 0"),
        (
            1,
            22,
            "a kernel slot count (1 to 65536)".into(),
            "`0`".into()
        )
    );
    assert_eq!(
        err("engines off extra"),
        (1, 13, "end of line".into(), "`extra`".into())
    );
    assert_eq!(
        err("stream s\nengines off"),
        (
            2,
            1,
            "a call: `engines` must come before the first call (line 1)".into(),
            "`engines`".into()
        )
    );
    assert_eq!(
        err("engines off\nengines off"),
        (
            2,
            1,
            "a call: `engines` was already given on line 1".into(),
            "`engines`".into()
        )
    );
}

/// engine-model.md · Copy engines · a copy from or to pageable host memory → occupies its engine; a
/// `memcpy_async` into pageable memory still returns when the copy has run, at the end the engine delayed it to
/// (ready at 9 µs behind a pinned copy 8..20 on the D2H engine: 20..32, the call returns at 32)
#[test]
fn a_pageable_copy_waits_for_its_engine_and_the_host_for_it() {
    let (m, p) = machine(Dialect::Cuda, 6, EngineModel::ON);
    let (s1, s2, d1, d2, h) = two_streams(&p);
    p.memcpy_async(h, d1, BYTES, s1).unwrap(); // t6: 8..20
    let mut out = vec![0u8; BYTES as usize];
    p.memcpy_async(&mut out[..], d2, BYTES, s2).unwrap(); // t7: ready 9 → 20..32; blocks until 32
    assert_eq!(p.now(), us(32));
    let t = m.trace();
    assert_eq!(on(&t, &p, s2), [("memcpy", us(20), us(32))]);
}

/// The invariants of the model over many random programs (a seeded generator; the same programs on every run):
/// at no virtual time do more than `slots` kernels, more than one host-to-device copy or more than one
/// device-to-host copy run on the device; every operation still starts after its stream's previous one ends;
/// and the same program gives the same trace twice.
#[test]
fn random_programs_never_exceed_the_engines() {
    /// SplitMix64, as the machine's own generator.
    fn next(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn program(seed: u64, slots: u32) -> Trace {
        let (m, p) = machine(Dialect::Cuda, 2, EngineModel::ON.kernel_slots(slots));
        let streams: Vec<Stream> = (0..4)
            .map(|_| p.create_stream(StreamFlags::NON_BLOCKING).unwrap())
            .collect();
        let d = p.malloc(1 << 20).unwrap();
        let h = p.malloc_host(1 << 20).unwrap();
        let events: Vec<_> = (0..4)
            .map(|_| p.create_event(streamsim::EventFlags::DEFAULT).unwrap())
            .collect();
        let mut state = seed;
        for _ in 0..60 {
            let s = streams[(next(&mut state) % 4) as usize];
            match next(&mut state) % 6 {
                0 | 1 => {
                    let us = 1 + next(&mut state) % 50;
                    p.launch(s, kernel("k", us)).unwrap();
                }
                // Copies of 16 B to 512 KiB; races between them do not matter here.
                2 => {
                    let bytes = 16 + next(&mut state) % (512 << 10);
                    p.memcpy_async(d, h, bytes, s).unwrap();
                }
                3 => {
                    let bytes = 16 + next(&mut state) % (512 << 10);
                    p.memcpy_async(h, d, bytes, s).unwrap();
                }
                4 => {
                    let e = events[(next(&mut state) % 4) as usize];
                    p.record_event(e, s).unwrap();
                }
                _ => {
                    let e = events[(next(&mut state) % 4) as usize];
                    p.stream_wait_event(s, e).unwrap();
                }
            }
        }
        p.device_synchronize().unwrap();
        m.trace()
    }
    for seed in 0..40u64 {
        let slots = 1 + (seed % 3) as u32;
        let t = program(seed, slots);
        let spans = |f: &dyn Fn(&OpKind) -> bool| -> Vec<(VirtualTime, VirtualTime)> {
            t.ops
                .iter()
                .filter(|o| f(&o.kind) && o.end > o.start)
                .map(|o| (o.start, o.end))
                .collect()
        };
        let most_at_once = |v: &[(VirtualTime, VirtualTime)]| {
            v.iter()
                .map(|&(s, _)| v.iter().filter(|&&(a, b)| a <= s && s < b).count())
                .max()
                .unwrap_or(0)
        };
        let kernels = spans(&|k| *k == OpKind::Kernel);
        let h2d = spans(&|k| {
            matches!(
                k,
                OpKind::Memcpy {
                    path: streamsim::CopyPath::HostToDevice,
                    ..
                }
            )
        });
        let d2h = spans(&|k| {
            matches!(
                k,
                OpKind::Memcpy {
                    path: streamsim::CopyPath::DeviceToHost,
                    ..
                }
            )
        });
        assert!(most_at_once(&kernels) <= slots as usize, "seed {seed}");
        assert!(most_at_once(&kernels) >= 1, "seed {seed}");
        assert_eq!(most_at_once(&h2d), 1, "seed {seed}");
        assert_eq!(most_at_once(&d2h), 1, "seed {seed}");
        // Stream order holds.
        let mut by_stream: std::collections::BTreeMap<_, Vec<_>> = Default::default();
        for o in &t.ops {
            by_stream
                .entry(o.stream)
                .or_default()
                .push((o.seq, o.start, o.end));
        }
        for ops in by_stream.values_mut() {
            ops.sort();
            for w in ops.windows(2) {
                assert!(w[1].1 >= w[0].2, "seed {seed}: {w:?}");
            }
        }
        // The same program, the same times.
        let again = program(seed, slots);
        let times = |t: &Trace| -> Vec<_> {
            t.ops
                .iter()
                .map(|o| (o.stream, o.seq, o.start, o.end))
                .collect()
        };
        assert_eq!(times(&t), times(&again), "seed {seed}");
    }
}

/// As [`released_together`], `high` launching an executable graph of one 10 µs kernel ("high") instead of
/// the kernel: the graph's lane runs at the priority of the stream it is launched into, so the graph's kernel
/// takes the free slot first (before: lanes were released after every stream, at priority 0 in effect last).
fn released_together_as_a_graph(high_priority: i32) -> [(VirtualTime, VirtualTime); 2] {
    let (m, p) = machine(Dialect::Acl, 6, EngineModel::ON.kernel_slots(1));
    p.set_device(0).unwrap();
    let capture = p.create_stream(StreamFlags::DEFAULT).unwrap();
    p.begin_capture(capture, streamsim::CaptureMode::Global)
        .unwrap();
    p.launch(capture, kernel("high", 10)).unwrap();
    let (x, _) = p.end_capture_executable(capture).unwrap();
    let low = p
        .create_stream_with_priority(StreamFlags::DEFAULT, 7)
        .unwrap();
    let high = p
        .create_stream_with_priority(StreamFlags::DEFAULT, high_priority)
        .unwrap();
    let other = p.create_stream(StreamFlags::DEFAULT).unwrap();
    let e = p
        .create_event_with(EventConfig::new().unrecorded_wait(UnrecordedWait::Defer))
        .unwrap();
    p.stream_wait_event(low, e).unwrap();
    p.launch(low, kernel("low", 10)).unwrap();
    p.stream_wait_event(high, e).unwrap();
    p.launch_graph(x, high).unwrap(); // held behind the wait, with its lane's kernel
    p.launch(other, kernel("first", 20)).unwrap();
    p.record_event(e, other).unwrap(); // releases both streams (and the lane) in one step
    p.device_synchronize().unwrap();
    let t = m.trace();
    let first = span(&t, "first");
    let (low, high) = (span(&t, "low"), span(&t, "high"));
    // Relative to the end of "first" (the times before it depend on the capture's calls).
    let after = |t: VirtualTime| VirtualTime(t.0 - first.1.0);
    [(after(low.0), after(low.1)), (after(high.0), after(high.1))]
}

/// engine-model.md · Priorities · a graph launched into the higher-priority stream, released in the same step
/// as a kernel of a lower-priority one → the graph's kernel takes the free slot (its lane has the launching
/// stream's priority)
#[test]
fn a_graph_keeps_the_priority_of_its_stream() {
    assert_eq!(
        released_together_as_a_graph(0),
        [(us(10), us(20)), (us(0), us(10))]
    );
    assert_eq!(
        released_together_as_a_graph(7),
        [(us(0), us(10)), (us(10), us(20))]
    );
}
