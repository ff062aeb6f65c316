//! Stress: 64 streams × 10,000 operations (kernels with bodies, event records, cross-stream waits between
//! random streams, from a fixed seed). Checks that per-stream FIFO order holds (trace and bodies), that nothing
//! is lost or duplicated, and that every wait comes after its record, in virtual time and in real execution.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use streamsim::{
    Event, EventFlags, Kernel, Machine, OpKind, Stream, StreamFlags, StreamId, TraceWindow,
};

use crate::common::with_watchdog;

const STREAMS: usize = 64;
const OPS_PER_STREAM: u64 = 10_000;
const SEED: u64 = 0x5745_4544_2d32;

/// What the test enqueued at one position of one stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    Kernel,
    Record,
    /// A wait for the record at position `seq` of stream `on`.
    Wait {
        on: usize,
        seq: u64,
    },
}

#[test]
fn sixty_four_streams_ten_thousand_ops_random_cross_stream_waits() {
    with_watchdog(300, || {
        // The checks below read every operation: the whole trace is kept.
        let m = Machine::builder()
            .devices(1)
            .seed(SEED)
            .trace_window(TraceWindow::All)
            .build()
            .unwrap();
        let p = m.process();
        let mut rng = StdRng::seed_from_u64(SEED);
        let streams: Vec<Stream> = (0..STREAMS)
            .map(|i| {
                let flags = if i % 2 == 0 {
                    StreamFlags::DEFAULT
                } else {
                    StreamFlags::NON_BLOCKING
                };
                p.create_stream(flags).unwrap()
            })
            .collect();
        let ids: Vec<StreamId> = streams.iter().map(|&s| p.stream_id(s).unwrap()).collect();
        let index_of: HashMap<StreamId, usize> =
            ids.iter().enumerate().map(|(i, &id)| (id, i)).collect();
        let events: Vec<Event> = (0..STREAMS)
            .map(|_| p.create_event(EventFlags::DISABLE_TIMING).unwrap())
            .collect();
        // The position (seq) of each stream's latest record of its own event, if any.
        let mut recorded: Vec<Option<u64>> = vec![None; STREAMS];
        let mut expected: Vec<Vec<Expect>> = vec![Vec::new(); STREAMS];
        // Bodies append (stream, position); the Vec index is the real execution order.
        let ran: Arc<Mutex<Vec<(u16, u32)>>> = Arc::new(Mutex::new(Vec::new()));

        let mut left: Vec<usize> = (0..STREAMS).collect();
        while !left.is_empty() {
            let pick = rng.random_range(0..left.len());
            let s = left[pick];
            let seq = expected[s].len() as u64 + 1;
            let roll = rng.random_range(0..100u32);
            let other = rng.random_range(0..STREAMS);
            let what = if roll < 15 {
                Expect::Record
            } else if roll < 30
                && other != s
                && let Some(rec) = recorded[other]
            {
                Expect::Wait {
                    on: other,
                    seq: rec,
                }
            } else {
                Expect::Kernel
            };
            match what {
                Expect::Kernel => {
                    let ran = ran.clone();
                    p.launch(
                        streams[s],
                        Kernel::new("stress").body(move |_| {
                            ran.lock().unwrap().push((s as u16, seq as u32));
                            Ok(())
                        }),
                    )
                    .unwrap();
                }
                Expect::Record => {
                    p.record_event(events[s], streams[s]).unwrap();
                    recorded[s] = Some(seq);
                }
                Expect::Wait { on, .. } => p.stream_wait_event(streams[s], events[on]).unwrap(),
            }
            expected[s].push(what);
            if expected[s].len() as u64 == OPS_PER_STREAM {
                left.swap_remove(pick);
            }
        }
        p.device_synchronize().unwrap();
        let trace = m.trace();

        // Nothing lost, nothing extra: exactly STREAMS × OPS_PER_STREAM operations, all on our streams.
        assert_eq!(trace.ops.len() as u64, STREAMS as u64 * OPS_PER_STREAM);
        let mut per_stream: Vec<Vec<&streamsim::TraceEvent>> = vec![Vec::new(); STREAMS];
        for e in &trace.ops {
            let i = *index_of
                .get(&e.stream)
                .unwrap_or_else(|| panic!("operation on an unknown stream: {e:?}"));
            per_stream[i].push(e);
        }
        let mut waits = 0usize;
        for (s, ops) in per_stream.iter().enumerate() {
            // Per-stream FIFO in the trace: positions 1..=N in order (so each exactly once), start times
            // non-decreasing, and each operation starting no earlier than its predecessor ended.
            assert_eq!(ops.len() as u64, OPS_PER_STREAM, "stream {s}");
            for (k, e) in ops.iter().enumerate() {
                assert_eq!(e.seq, k as u64 + 1, "stream {s}: trace order {e:?}");
                assert!(e.end >= e.start, "{e:?}");
                if k > 0 {
                    let prev = ops[k - 1];
                    assert!(e.start >= prev.start, "stream {s}: {prev:?} then {e:?}");
                    assert!(e.start >= prev.end, "stream {s}: {prev:?} overlaps {e:?}");
                }
                // The kind is what was enqueued at that position.
                let want = expected[s][k];
                match (&e.kind, want) {
                    (OpKind::Kernel, Expect::Kernel) => {}
                    (OpKind::Record { event }, Expect::Record) => {
                        assert_eq!(*event, p.event_id(events[s]).unwrap());
                    }
                    (OpKind::Wait { event, on, seq }, Expect::Wait { on: o, seq: q }) => {
                        waits += 1;
                        assert_eq!(*event, p.event_id(events[o]).unwrap(), "{e:?}");
                        assert_eq!(*on, ids[o], "{e:?}");
                        assert_eq!(*seq, q, "{e:?}");
                        // Every wait is ordered after its record in virtual time.
                        let rec = per_stream[o][q as usize - 1];
                        assert!(
                            matches!(rec.kind, OpKind::Record { .. }),
                            "{e:?} waits for {rec:?}"
                        );
                        assert!(e.start >= rec.end, "{e:?} starts before {rec:?} ends");
                    }
                    (kind, want) => panic!(
                        "stream {s} position {}: ran {kind:?}, enqueued {want:?}",
                        k + 1
                    ),
                }
            }
        }
        assert!(
            waits > 10_000,
            "the random mix should hold many waits, got {waits}"
        );

        // Every body ran exactly once, and per stream in enqueue order.
        let ran = ran.lock().unwrap();
        let kernels: usize = expected
            .iter()
            .map(|v| v.iter().filter(|&&x| x == Expect::Kernel).count())
            .sum();
        assert_eq!(ran.len(), kernels, "every kernel body ran exactly once");
        let mut last = [0u32; STREAMS];
        // For each stream and position, where in the real execution order its body ran.
        let mut order: Vec<HashMap<u32, usize>> = vec![HashMap::new(); STREAMS];
        for (ticket, &(s, seq)) in ran.iter().enumerate() {
            let s = s as usize;
            assert!(
                seq > last[s],
                "stream {s}: body {seq} ran after body {}",
                last[s]
            );
            last[s] = seq;
            order[s].insert(seq, ticket);
        }

        // Every wait is ordered after its record in real execution too: the last body before the record on
        // the recording stream ran before the first body after the wait on the waiting stream.
        for s in 0..STREAMS {
            for (k, &want) in expected[s].iter().enumerate() {
                let Expect::Wait { on, seq } = want else {
                    continue;
                };
                let before = (1..seq).rev().find_map(|q| order[on].get(&(q as u32)));
                let after = (k as u64 + 2..=OPS_PER_STREAM).find_map(|q| order[s].get(&(q as u32)));
                if let (Some(b), Some(a)) = (before, after) {
                    assert!(
                        b < a,
                        "stream {s} position {} waits for stream {on} position {seq}, yet a body after the \
                         wait ran before a body before the record",
                        k + 1
                    );
                }
            }
        }
    });
}
