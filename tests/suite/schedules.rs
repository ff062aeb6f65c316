//! The serialize schedule, hang diagnosis and the real-time watchdog (`docs/semantics/schedules-and-hangs.md`).
//!
//! The program that needs two streams to progress concurrently: a kernel body on stream 1 ("spin") waits for
//! a flag that only a kernel body on stream 2 ("set"), enqueued after it, sets. Under the concurrent schedule
//! both run and it passes. Under the serialize schedule the seed chooses which ready operation runs first: if
//! it is "set", the program passes; if it is "spin", "set" is held back while "spin" waits for it, and the
//! watchdog's verdict makes the synchronize fail with WouldDeadlock naming the cycle. With the right event
//! ("spin" waits for an event recorded after "set") it passes on every seed.
//!
//! Timing: the watchdog is real time by design; these tests use a short limit (50 ms) and assert only what is
//! eventually reported, under `with_watchdog`. Nothing asserted depends on how long anything took.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use streamsim::{
    EventFlags, HangReport, Kernel, Machine, Process, Schedule, SimError, Stream, StreamFlags,
    WaitCycle, WaitLink,
};

use streamsim::testing::{Aspect, RunKind, check_determinism};

use crate::common::{kernel, us, with_watchdog};

fn serial_machine(seed: u64) -> Machine {
    Machine::builder()
        .seed(seed)
        .schedule(Schedule::Serialize)
        .watchdog(Some(Duration::from_millis(50)))
        .build()
        .unwrap()
}

/// The program: "spin" on s1 waits for the flag "set" on s2 sets; with `event`, s1 first waits for an event
/// recorded on s2 after "set". Returns the synchronize's answer.
fn spin_and_set(p: &Process, event: bool) -> (Stream, Stream, Result<(), SimError>) {
    let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap();
    let s2 = p.create_stream(StreamFlags::DEFAULT).unwrap();
    let flag = Arc::new(AtomicBool::new(false));
    let f = flag.clone();
    let set = Kernel::new("set")
        .duration(Duration::from_micros(5))
        .body(move |_| {
            f.store(true, Ordering::SeqCst);
            Ok(())
        });
    let spin = Kernel::new("spin")
        .duration(Duration::from_micros(10))
        .body(move |_| {
            while !flag.load(Ordering::SeqCst) {
                std::thread::yield_now();
            }
            Ok(())
        });
    if event {
        let e = p.create_event(EventFlags::DEFAULT).unwrap();
        p.launch(s2, set).unwrap();
        p.record_event(e, s2).unwrap();
        p.stream_wait_event(s1, e).unwrap();
        p.launch(s1, spin).unwrap();
    } else {
        p.launch(s1, spin).unwrap();
        p.launch(s2, set).unwrap();
    }
    let r = p.device_synchronize();
    (s1, s2, r)
}

/// The seeds 0..16 under which the serialize schedule runs "spin" first (it then holds "set" back).
fn spin_first_seeds() -> Vec<u64> {
    (0..16)
        .filter(|&seed| {
            let m = serial_machine(seed);
            let p = m.process();
            let (_, _, r) = spin_and_set(&p, false);
            r.is_err()
        })
        .collect()
}

/// schedules-and-hangs.md · Serialize · a program that needs two streams to progress concurrently → the
/// synchronize fails with WouldDeadlock naming the cycle (host thread → the spinning body → the held-back body),
/// on the seeds that run the spinner first; the others pass; the work is not lost (both bodies ran)
#[test]
fn a_program_that_needs_two_streams_at_once_fails_under_serialize_with_the_cycle_named() {
    with_watchdog(60, || {
        let seeds = spin_first_seeds();
        // The seed decides: some seeds run "spin" first, some "set" (the choice is the same on every run).
        assert!(
            !seeds.is_empty() && seeds.len() < 16,
            "the seed chooses the order: {seeds:?}"
        );
        assert_eq!(seeds, spin_first_seeds(), "the same seeds on every run");
        let seed = seeds[0];
        let m = serial_machine(seed);
        let p = m.process();
        let (s1, s2, r) = spin_and_set(&p, false);
        let (id1, id2) = (p.stream_id(s1).unwrap(), p.stream_id(s2).unwrap());
        let cycle = WaitCycle(vec![
            WaitLink::HostThread {
                process: id1.process,
                thread: 0,
                call: "device_synchronize",
            },
            WaitLink::Running {
                stream: id1,
                seq: 1,
                label: "spin".into(),
                kind: "kernel",
                limit_ms: 50,
            },
            WaitLink::Scheduled {
                stream: id2,
                seq: 1,
                label: "set".into(),
            },
        ]);
        let err = r.unwrap_err();
        assert_eq!(
            err,
            SimError::WouldDeadlock {
                what: "device_synchronize",
                stream: id1,
                cycle: cycle.clone(),
            }
        );
        assert_eq!(
            err.to_string(),
            "device_synchronize would wait forever for stream 1: host thread 0 of process 0 in \
             device_synchronize → kernel \"spin\" (stream 1 op 1), running and not returned after 50 ms of real \
             time → \"set\" (stream 2 op 1), ready and held back by the serialize schedule"
        );
        assert_eq!(
            m.hang_reports(),
            vec![HangReport {
                stream: id1,
                seq: 1,
                label: "spin".into(),
                kind: "kernel",
                limit_ms: 50,
                held_back: vec![cycle.0[2].clone()],
                waiting: vec![],
                across: vec![],
            }]
        );
        // Nothing was lost: the schedule was given up, both bodies ran, and the device is usable.
        p.device_synchronize().unwrap();
        let t = m.trace();
        // The virtual times are those of program order (1 µs per call, 2 µs launch latency), as under the
        // concurrent schedule: s1 and s2 are created at t1 and t2, "spin" is launched at t3 (5..15), "set" at t4
        // (6..11).
        assert_eq!(crate::common::span(&t, "spin"), (us(5), us(15)));
        assert_eq!(crate::common::span(&t, "set"), (us(6), us(11)));
    });
}

/// schedules-and-hangs.md · Serialize · the same program with the right event ("spin" ordered after "set") →
/// passes on every seed, with the same virtual times as under the concurrent schedule
#[test]
fn the_same_program_with_the_right_event_passes_under_serialize_on_every_seed() {
    with_watchdog(60, || {
        for seed in 0..16 {
            let m = serial_machine(seed);
            let p = m.process();
            let (_, _, r) = spin_and_set(&p, true);
            assert_eq!(r, Ok(()), "seed {seed}");
            assert!(m.hang_reports().is_empty(), "seed {seed}");
            let t = m.trace();
            let concurrent = Machine::builder().seed(seed).build().unwrap();
            let q = concurrent.process();
            assert_eq!(spin_and_set(&q, true).2, Ok(()));
            let c = concurrent.trace();
            for label in ["set", "spin"] {
                assert_eq!(
                    crate::common::span(&t, label),
                    crate::common::span(&c, label),
                    "seed {seed}: {label}"
                );
            }
        }
    });
}

/// schedules-and-hangs.md · Concurrent · the program without the event passes under the concurrent schedule
/// (both bodies run at once), and a watchdog that is on reports nothing
#[test]
fn the_program_passes_under_the_concurrent_schedule() {
    with_watchdog(60, || {
        let m = Machine::builder()
            .watchdog(Some(Duration::from_secs(30)))
            .build()
            .unwrap();
        let p = m.process();
        assert_eq!(spin_and_set(&p, false).2, Ok(()));
        assert!(m.hang_reports().is_empty());
    });
}

/// schedules-and-hangs.md · Serialize · one operation at a time: two streams' kernel bodies never overlap in
/// real time, and the order among ready operations is the seed's (the same on every run of a seed; seeds
/// differ); virtual times are those of the concurrent schedule
#[test]
fn serialize_runs_one_operation_at_a_time_in_the_seeds_order() {
    with_watchdog(60, || {
        let order = |seed: u64| -> (Vec<u64>, u64) {
            let m = Machine::builder()
                .seed(seed)
                .schedule(Schedule::Serialize)
                .build()
                .unwrap();
            let p = m.process();
            let streams: Vec<Stream> = (0..4)
                .map(|_| p.create_stream(StreamFlags::NON_BLOCKING).unwrap())
                .collect();
            let log = Arc::new(parking_lot::Mutex::new(Vec::new()));
            let inside = Arc::new(AtomicU64::new(0));
            let overlap = Arc::new(AtomicU64::new(0));
            for (i, s) in streams.iter().enumerate() {
                for j in 0..3u64 {
                    let (log, inside, overlap) = (log.clone(), inside.clone(), overlap.clone());
                    let k = kernel("k", 10).body(move |_| {
                        if inside.fetch_add(1, Ordering::SeqCst) != 0 {
                            overlap.fetch_add(1, Ordering::SeqCst);
                        }
                        std::thread::yield_now();
                        log.lock().push(i as u64 * 10 + j);
                        inside.fetch_sub(1, Ordering::SeqCst);
                        Ok(())
                    });
                    p.launch(*s, k).unwrap();
                }
            }
            p.device_synchronize().unwrap();
            let got = log.lock().clone();
            (got, overlap.load(Ordering::SeqCst))
        };
        let (a, overlap) = order(1);
        assert_eq!(overlap, 0, "no two bodies ran at once");
        assert_eq!(a.len(), 12);
        // Each stream's own order is kept.
        for i in 0..4u64 {
            let own: Vec<u64> = a.iter().copied().filter(|x| x / 10 == i).collect();
            assert_eq!(own, vec![i * 10, i * 10 + 1, i * 10 + 2]);
        }
        assert_eq!(order(1).0, a, "the same order on every run of a seed");
        assert!(
            (2..10).any(|s| order(s).0 != a),
            "another seed chooses another order"
        );
    });
}

/// schedules-and-hangs.md · Serialize · work runs while a host thread waits for the device, and also once the
/// host has made no call for a while (it waits by means the simulator does not see: here a channel, as
/// cuda-samples simpleCallback waits on a barrier its callbacks release); what is left runs at the end of the
/// machine — never lost
#[test]
fn serialize_runs_work_while_the_host_waits_by_any_means() {
    with_watchdog(60, || {
        let ran = Arc::new(AtomicU64::new(0));
        {
            let m = Machine::builder()
                .schedule(Schedule::Serialize)
                .build()
                .unwrap();
            let p = m.process();
            let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
            let r = ran.clone();
            p.launch_host_func(s, move || {
                r.fetch_add(1, Ordering::SeqCst);
            })
            .unwrap();
            p.stream_synchronize(s).unwrap();
            assert_eq!(ran.load(Ordering::SeqCst), 1);
            // A wait outside the simulator: the host function signals the host itself.
            let (tx, rx) = std::sync::mpsc::channel();
            let r = ran.clone();
            p.launch_host_func(s, move || {
                r.fetch_add(1, Ordering::SeqCst);
                tx.send(()).unwrap();
            })
            .unwrap();
            rx.recv().unwrap();
            assert_eq!(ran.load(Ordering::SeqCst), 2);
            let r = ran.clone();
            p.launch_host_func(s, move || {
                r.fetch_add(1, Ordering::SeqCst);
            })
            .unwrap();
        }
        // The machine's end ran what was left.
        assert_eq!(ran.load(Ordering::SeqCst), 3);
    });
}

/// schedules-and-hangs.md · Determinism self-check · a deterministic program (streams, events, host functions,
/// a race report) → no divergence, also under perturbation seeds
#[test]
fn check_determinism_finds_nothing_in_a_deterministic_program() {
    with_watchdog(60, || {
        let r = check_determinism(Machine::builder().seed(5), &[1, 2, 3], |m| {
            let p = m.process();
            let s1 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
            let s2 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
            let buf = p.malloc(64).unwrap();
            let e = p.create_event(EventFlags::DEFAULT).unwrap();
            p.launch(s1, kernel("w", 10).writes(buf, 64)).unwrap();
            p.record_event(e, s1).unwrap();
            p.stream_wait_event(s2, e).unwrap();
            p.launch(s2, kernel("r", 5).reads(buf, 64)).unwrap();
            // A race the program makes on purpose: the same report every run.
            p.launch(s1, kernel("racy", 3).writes(buf, 64)).unwrap();
            p.launch_host_func(s2, || {}).unwrap();
            p.device_synchronize().unwrap();
            (p.now(), p.event_query(e))
        });
        assert_eq!(r, Ok(()));
    });
}

/// schedules-and-hangs.md · Determinism self-check · a program that reads a global counter (different on each
/// run) into a kernel's duration → the divergence is the second run's trace: the kernel's virtual end
#[test]
fn check_determinism_catches_a_program_that_reads_a_global_counter() {
    static RUNS: AtomicU64 = AtomicU64::new(0);
    with_watchdog(60, || {
        let r = check_determinism(Machine::builder(), &[], |m| {
            let p = m.process();
            let n = RUNS.fetch_add(1, Ordering::SeqCst);
            p.launch(Stream::DEFAULT, kernel("k", 10 + n)).unwrap();
            p.device_synchronize().unwrap();
        });
        let d = r.unwrap_err();
        assert_eq!(d.run, RunKind::Repeat);
        assert_eq!(d.aspect, Aspect::Operations);
        assert_eq!(d.index, 0);
        // Launched at t1, it starts after the 2 µs launch latency: 3..13 µs in the first run, 3..14 in the second.
        assert_eq!(
            d.first,
            "TraceEvent { stream: StreamId { process: ProcessId(0), device: 0, kind: Legacy }, seq: 1, kind: \
             Kernel, label: \"k\", start: VirtualTime(3000), end: VirtualTime(13000) }"
        );
        assert_eq!(
            d.other,
            "TraceEvent { stream: StreamId { process: ProcessId(0), device: 0, kind: Legacy }, seq: 1, kind: \
             Kernel, label: \"k\", start: VirtualTime(3000), end: VirtualTime(14000) }"
        );
        assert!(
            d.to_string().starts_with(
                "not deterministic: the second run (same seed) differs from the first in Operations at #0"
            ),
            "{d}"
        );
    });
}

/// schedules-and-hangs.md · Determinism self-check · a program whose answer depends on which stream's host
/// function runs first (no event orders them) → caught by a perturbation seed, the same one on every check
#[test]
fn check_determinism_catches_an_order_dependent_answer_under_perturbation() {
    with_watchdog(60, || {
        let racy = |m: &Machine| {
            let p = m.process();
            let s1 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
            let s2 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
            let log = Arc::new(parking_lot::Mutex::new(Vec::new()));
            let (a, b) = (log.clone(), log.clone());
            p.launch_host_func(s1, move || a.lock().push(1)).unwrap();
            p.launch_host_func(s2, move || b.lock().push(2)).unwrap();
            p.device_synchronize().unwrap();
            log.lock().clone()
        };
        // The builder's own schedule is serialize too, so that the first two runs agree.
        let builder = Machine::builder().schedule(Schedule::Serialize);
        let seeds: Vec<u64> = (1..=8).collect();
        let d = check_determinism(builder.clone(), &seeds, racy).unwrap_err();
        assert_eq!(d.aspect, Aspect::Answer);
        let RunKind::Perturbed(k) = d.run else {
            panic!("{d}")
        };
        assert_ne!(d.first, d.other);
        assert!(
            ["[1, 2]", "[2, 1]"].contains(&d.first.as_str()),
            "{}",
            d.first
        );
        assert_eq!(
            check_determinism(builder, &seeds, racy).unwrap_err().run,
            RunKind::Perturbed(k),
            "the same seed catches it on every check"
        );
    });
}

/// Waits (real time, under the test's watchdog) until the machine has `n` hang reports.
fn await_reports(m: &Machine, n: usize) -> Vec<HangReport> {
    loop {
        let r = m.hang_reports();
        if r.len() >= n {
            return r;
        }
        std::thread::yield_now();
    }
}

/// schedules-and-hangs.md · Watchdog · a host function that has not returned within the limit (concurrent
/// schedule) → reported once, naming its stream, position, kind and label; nothing stopped: once it returns,
/// the synchronize succeeds
#[test]
fn the_watchdog_reports_a_host_function_that_does_not_return() {
    with_watchdog(60, || {
        let m = Machine::builder()
            .watchdog(Some(Duration::from_millis(50)))
            .build()
            .unwrap();
        let p = m.process();
        let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
        let id = p.stream_id(s).unwrap();
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        p.launch(s, kernel("before", 5)).unwrap();
        p.launch_host_func(s, move || rx.recv().unwrap()).unwrap();
        let reports = await_reports(&m, 1);
        let expected = HangReport {
            stream: id,
            seq: 2,
            label: "host function".into(),
            kind: "host-fn",
            limit_ms: 50,
            held_back: vec![],
            waiting: vec![],
            across: vec![],
        };
        assert_eq!(reports, vec![expected.clone()]);
        assert_eq!(
            expected.to_string(),
            "watchdog: host-fn \"host function\" (stream 1 of process 0, op 2) has not returned after 50 ms of \
             real time"
        );
        tx.send(()).unwrap();
        p.stream_synchronize(s).unwrap();
        assert_eq!(m.hang_reports(), vec![expected], "reported once");
    });
}

/// schedules-and-hangs.md · Watchdog · under the serialize schedule a slow function that holds nothing back (no
/// other stream has ready work) → reported, the schedule is kept and the synchronize succeeds once it returns
/// (a slow function is not a deadlock)
#[test]
fn a_slow_function_that_holds_nothing_back_is_only_reported() {
    with_watchdog(60, || {
        let m = serial_machine(0);
        let p = m.process();
        let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let (started_tx, started) = std::sync::mpsc::channel::<()>();
        let k = kernel("slow", 7).body(move |_| {
            started_tx.send(()).unwrap();
            rx.recv().unwrap();
            Ok(())
        });
        p.launch(s, k).unwrap();
        let waiter = {
            let p = p.clone();
            std::thread::spawn(move || p.stream_synchronize(s))
        };
        started.recv().unwrap();
        let reports = await_reports(&m, 1);
        assert_eq!(reports[0].label, "slow");
        assert_eq!(reports[0].held_back, vec![]);
        tx.send(()).unwrap();
        assert_eq!(waiter.join().unwrap(), Ok(()));
    });
}

/// schedules-and-hangs.md · Machine options · a watchdog limit of zero → InvalidValue at build
#[test]
fn a_zero_watchdog_limit_is_refused() {
    let e = Machine::builder()
        .watchdog(Some(Duration::ZERO))
        .build()
        .unwrap_err();
    assert_eq!(
        e,
        SimError::InvalidValue {
            what: "watchdog",
            reason: "a watchdog limit of zero".into()
        }
    );
}

/// schedules-and-hangs.md · Watchdog · under the serialize schedule, a function that does not return while
/// another stream waits (an event wait) for this stream's later work → the report names the waiting operation
/// (`waiting`): if the function waits for it, no schedule can run it; nothing is stopped, the work finishes once
/// the function returns
#[test]
fn the_watchdog_names_the_streams_waiting_behind_a_stuck_function() {
    with_watchdog(60, || {
        let m = serial_machine(0);
        let p = m.process();
        let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap();
        let s2 = p.create_stream(StreamFlags::DEFAULT).unwrap();
        let (id1, id2) = (p.stream_id(s1).unwrap(), p.stream_id(s2).unwrap());
        let e = p.create_event(EventFlags::DEFAULT).unwrap();
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        p.launch(
            s2,
            kernel("hold", 4).body(move |_| {
                rx.recv().unwrap();
                Ok(())
            }),
        )
        .unwrap();
        p.record_event(e, s2).unwrap();
        p.stream_wait_event(s1, e).unwrap();
        p.launch(s1, kernel("after", 3)).unwrap();
        let waiter = {
            let p = p.clone();
            std::thread::spawn(move || p.device_synchronize())
        };
        let reports = await_reports(&m, 1);
        let waits = WaitLink::WaitsFor {
            stream: id1,
            seq: 1,
            on: id2,
            on_seq: 2,
        };
        assert_eq!(
            reports,
            vec![HangReport {
                stream: id2,
                seq: 1,
                label: "hold".into(),
                kind: "kernel",
                limit_ms: 50,
                held_back: vec![],
                waiting: vec![waits.clone()],
                across: vec![],
            }]
        );
        assert_eq!(
            reports[0].to_string(),
            "watchdog: kernel \"hold\" (stream 2 of process 0, op 1) has not returned after 50 ms of real time; \
             waiting for it: stream 1 op 1, waiting for stream 2 op 2 (if it waits for one of them, that is a \
             deadlock under any schedule)"
        );
        tx.send(()).unwrap();
        assert_eq!(waiter.join().unwrap(), Ok(()));
    });
}
