//! The trace window (`MachineBuilder::trace_window`) and the trace sink (`MachineBuilder::trace_sink`): a
//! window keeps exactly the latest entries in the trace's order — the same ones whatever order the workers ran
//! in — and counts the rest; a sink sees every entry once.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use streamsim::{
    Dropped, EventFlags, Kernel, Machine, MachineBuilder, Process, SimError, Stream, StreamFlags,
    Trace, TraceEvent, TraceRecord, TraceWindow,
};

use crate::common::with_watchdog;

/// A program with 3 streams (one of them waiting on another through an event), 1,100 operations of varied
/// durations in all, 300 blocking host calls, 50 failed calls.
fn program(p: &Process) {
    let s: Vec<Stream> = (0..3)
        .map(|_| p.create_stream(StreamFlags::NON_BLOCKING).unwrap())
        .collect();
    let e = p.create_event(EventFlags::DISABLE_TIMING).unwrap();
    for i in 0..100u64 {
        for (j, &st) in s.iter().enumerate() {
            let d = Duration::from_nanos(1 + (i * 7 + j as u64 * 13) % 5_000);
            p.launch(st, Kernel::new(format!("k{i}.{j}")).duration(d))
                .unwrap();
            p.launch(st, Kernel::new("plain")).unwrap();
        }
        p.record_event(e, s[0]).unwrap();
        p.stream_wait_event(s[2], e).unwrap();
        p.stream_wait_event(s[1], e).unwrap();
        p.launch(s[1], Kernel::new("after wait")).unwrap();
        p.launch(s[2], Kernel::new("after wait")).unwrap();
        p.stream_synchronize(s[(i % 3) as usize]).unwrap();
        p.stream_synchronize(s[((i + 1) % 3) as usize]).unwrap();
        p.stream_synchronize(s[((i + 2) % 3) as usize]).unwrap();
        if i % 2 == 0 {
            assert!(matches!(
                p.destroy_stream(Stream::DEFAULT),
                Err(SimError::InvalidHandle { .. })
            ));
        }
    }
    p.device_synchronize().unwrap();
}

fn traced(b: MachineBuilder) -> Trace {
    let m = b.devices(1).build().unwrap();
    program(&m.process());
    m.trace()
}

/// `TraceWindow::Last(100)`: the trace is the last 100 operations, host calls and failed calls of the whole
/// trace (the same program with `TraceWindow::All`), and says how many it left out (1,100 − 100, 301 − 100,
/// none of the 50 failed calls); under schedule perturbation (other arrival orders at the sinks) it is the same.
#[test]
fn a_window_keeps_the_latest_in_the_traces_order() {
    with_watchdog(60, || {
        let all = traced(Machine::builder().trace_window(TraceWindow::All));
        assert_eq!(
            (all.ops.len(), all.host.len(), all.failed.len()),
            (1_100, 301, 50)
        );
        assert_eq!(all.dropped, Dropped::default());
        for seed in [None, Some(1), Some(2), Some(3)] {
            let mut b = Machine::builder().trace_window(TraceWindow::Last(100));
            if let Some(s) = seed {
                b = b.perturb(true).seed(s);
            }
            let w = traced(b);
            assert_eq!(w.ops, all.ops[1_000..], "seed {seed:?}");
            assert_eq!(w.host, all.host[201..], "seed {seed:?}");
            assert_eq!(w.failed, all.failed, "seed {seed:?}");
            assert_eq!(
                w.dropped,
                Dropped {
                    ops: 1_000,
                    host: 201,
                    failed: 0
                }
            );
            assert_eq!(w.names, all.names);
        }
    });
}

/// One stream's long run (the common case of a launch loop, compacted by keeping the stream's last records):
/// `Last(100)` keeps its last 100 of 1,000 kernels, the same as the whole trace's last 100.
#[test]
fn a_window_on_one_stream_keeps_its_last_operations() {
    let run = |w: TraceWindow| {
        let m = Machine::builder().trace_window(w).build().unwrap();
        let p = m.process();
        let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
        for i in 0..1_000u64 {
            p.launch(s, Kernel::new("k").duration(Duration::from_nanos(i % 7)))
                .unwrap();
        }
        p.stream_synchronize(s).unwrap();
        m.trace()
    };
    let all = run(TraceWindow::All);
    let w = run(TraceWindow::Last(100));
    assert_eq!(all.ops.len(), 1_000);
    assert_eq!(w.ops, all.ops[900..]);
    assert_eq!(w.dropped.ops, 900);
}

/// The default window is the latest 65,536 of each; a machine says which window it has.
#[test]
fn the_default_window_is_65536() {
    assert_eq!(TraceWindow::DEFAULT, TraceWindow::Last(65_536));
    assert_eq!(TraceWindow::default(), TraceWindow::DEFAULT);
    let m = Machine::builder().build().unwrap();
    assert_eq!(m.trace_window(), TraceWindow::DEFAULT);
    let all = Machine::builder()
        .trace_window(TraceWindow::All)
        .build()
        .unwrap();
    assert_eq!(all.trace_window(), TraceWindow::All);
}

/// A sink sees every operation, host call and failed call once, as the whole trace has them (operations in
/// their stream's order), while the machine, with a window of 0, keeps none and counts them all.
#[test]
fn a_sink_sees_everything_a_window_of_zero_keeps_nothing() {
    with_watchdog(60, || {
        let all = traced(Machine::builder().trace_window(TraceWindow::All));
        type Seen = (Vec<TraceEvent>, Vec<String>, Vec<&'static str>);
        let seen: Arc<Mutex<Seen>> = Arc::default();
        let sink = seen.clone();
        let none = traced(
            Machine::builder()
                .trace_window(TraceWindow::Last(0))
                .trace_sink(move |r| {
                    let mut s = sink.lock().unwrap();
                    match r {
                        TraceRecord::Op(e) => s.0.push(e.clone()),
                        TraceRecord::Host(h) => s.1.push(h.label.clone()),
                        TraceRecord::Failed(f) => s.2.push(f.call),
                        _ => unreachable!("three kinds of record"),
                    }
                }),
        );
        assert!(none.ops.is_empty() && none.host.is_empty() && none.failed.is_empty());
        assert_eq!(
            none.dropped,
            Dropped {
                ops: 1_100,
                host: 301,
                failed: 50
            }
        );
        let (mut ops, host, failed) = std::mem::take(&mut *seen.lock().unwrap());
        // Per stream, in the stream's order.
        for w in ops.windows(2) {
            if w[0].stream == w[1].stream {
                assert!(w[0].seq < w[1].seq, "{:?} then {:?}", w[0], w[1]);
            }
        }
        ops.sort_by_key(|e| (e.start, e.stream, e.seq));
        assert_eq!(ops, all.ops);
        let all_host: Vec<String> = all.host.iter().map(|h| h.label.clone()).collect();
        assert_eq!(host, all_host);
        assert_eq!(failed, vec!["destroy_stream"; 50]);
    });
}

/// Streams that are gone leave their records, not their sinks: 300 create / launch / synchronize / destroy
/// lifetimes (their sinks folded into the store every 64 creations) with `Last(100)` keep exactly the last 100
/// operations and host calls of the whole trace, and count the other 200 of each.
#[test]
fn a_window_over_stream_lifetimes_keeps_the_latest() {
    let run = |w: TraceWindow| {
        let m = Machine::builder().trace_window(w).build().unwrap();
        let p = m.process();
        for i in 0..300u64 {
            let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
            p.launch(
                s,
                Kernel::new(format!("life {i}")).duration(Duration::from_nanos(1 + i % 5)),
            )
            .unwrap();
            p.stream_synchronize(s).unwrap();
            p.destroy_stream(s).unwrap();
        }
        m.trace()
    };
    let all = run(TraceWindow::All);
    assert_eq!((all.ops.len(), all.host.len()), (300, 300));
    assert_eq!(all.ops[299].label, "life 299");
    let w = run(TraceWindow::Last(100));
    assert_eq!(w.ops, all.ops[200..]);
    assert_eq!(w.ops[0].label, "life 200");
    assert_eq!(w.host, all.host[200..]);
    assert_eq!(
        w.dropped,
        Dropped {
            ops: 200,
            host: 200,
            failed: 0
        }
    );
}

/// Dropping a machine frees its trace: the trace sink (a closure the store holds, here holding `witness`) is
/// dropped with it, whether its streams were destroyed first or not.
#[test]
fn dropping_a_machine_frees_its_trace() {
    for destroy in [false, true] {
        let witness = Arc::new(());
        let held = witness.clone();
        let m = Machine::builder()
            .trace_sink(move |_| {
                let _ = &held;
            })
            .build()
            .unwrap();
        let p = m.process();
        for _ in 0..3 {
            let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
            p.launch(s, Kernel::new("k")).unwrap();
            p.stream_synchronize(s).unwrap();
            if destroy {
                p.destroy_stream(s).unwrap();
            }
        }
        assert_eq!(m.trace().ops.len(), 3);
        assert_eq!(Arc::strong_count(&witness), 2);
        drop(p);
        drop(m);
        assert_eq!(
            Arc::strong_count(&witness),
            1,
            "destroyed streams: {destroy}"
        );
    }
}
