//! The multi-device hammer (issue 3, "Done when"): 2 processes × 4 host threads × 2 devices hammering record /
//! stream-wait / query / synchronize, with interprocess events shared between the two processes so that waits
//! cross processes (and devices). Checked: no deadlock (watchdog), nothing lost (every kernel body ran, every
//! enqueued operation is in the trace, in FIFO order), and every wait ordered after the record it waited for
//! in virtual time. Run in both dialects: in ACL, which rejects a wait on another device's event, each thread
//! waits only on the events of its own device (still across threads and processes).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use streamsim::{
    Dialect, Event, EventFlags, Kernel, Machine, OpKind, Process, Stream, StreamFlags, StreamId,
    TraceEvent, TraceWindow,
};

use crate::common::with_watchdog;

const PROCESSES: usize = 2;
const THREADS: usize = 4;
const DEVICES: u32 = 2;
const ITERATIONS: usize = 10_000;

/// What one host thread works with: its device, its stream, its own event, and the events it waits on (the
/// other threads' events of its process, and every event of the other process, opened through IPC).
struct Worker {
    p: Process,
    device: u32,
    stream: Stream,
    own: Event,
    partners: Vec<Event>,
    /// Opened events of the other process on this thread's device: recorded now and then, from this process.
    foreign_same_device: Vec<Event>,
}

/// One host thread's loop; returns the number of kernels it launched.
fn hammer(w: Worker, bodies: Arc<AtomicUsize>, seed: usize) -> usize {
    let p = &w.p;
    p.set_device(w.device.into()).unwrap();
    let mut launched = 0;
    for i in 0..ITERATIONS {
        let b = bodies.clone();
        p.launch(
            w.stream,
            Kernel::new("hammer")
                .duration(Duration::from_micros(1 + (i % 3) as u64))
                .body(move |_| {
                    b.fetch_add(1, Ordering::Relaxed);
                    Ok(())
                }),
        )
        .unwrap();
        launched += 1;
        p.record_event(w.own, w.stream).unwrap();
        let partner = w.partners[(i * 7 + seed) % w.partners.len()];
        p.stream_wait_event(w.stream, partner).unwrap();
        if i % 16 == 0 {
            p.event_query(partner).unwrap();
            p.stream_query(w.stream).unwrap();
        }
        if i % 97 == 0 && !w.foreign_same_device.is_empty() {
            // A record from this process on an event exported by the other one.
            let e = w.foreign_same_device[(i / 97) % w.foreign_same_device.len()];
            p.record_event(e, w.stream).unwrap();
        }
        match i % 128 {
            0 => p.event_synchronize(partner).unwrap(),
            64 => p.stream_synchronize(w.stream).unwrap(),
            _ => {}
        }
    }
    p.stream_synchronize(w.stream).unwrap();
    launched
}

/// CUDA: 2 processes × 4 host threads × 2 devices × 10,000 iterations of launch / record / wait, with queries
/// and synchronizes mixed in; waits cross threads, devices and processes (through IPC events).
#[test]
fn cuda_two_processes_four_threads_two_devices_hammer() {
    run(Dialect::Cuda);
}

/// ACL: the same, each thread waiting on the events of its own device (its threads and the other process's).
#[test]
fn acl_two_processes_four_threads_two_devices_hammer() {
    run(Dialect::Acl);
}

fn run(dialect: Dialect) {
    let took = Instant::now();
    let (m, launched, bodies) = with_watchdog(120, move || {
        // The checks below read every operation: the whole trace is kept.
        let m = Machine::builder()
            .devices(DEVICES)
            .dialect(dialect)
            .seed(3)
            .trace_window(TraceWindow::All)
            .build()
            .unwrap();
        let procs: Vec<Process> = (0..PROCESSES).map(|_| m.process()).collect();
        // Set-up on this thread: streams and interprocess events (thread t of a process uses device t % 2).
        let mut streams = vec![vec![]; PROCESSES];
        let mut events = vec![vec![]; PROCESSES];
        for (k, p) in procs.iter().enumerate() {
            for t in 0..THREADS {
                p.set_device((t as u32 % DEVICES).into()).unwrap();
                streams[k].push(p.create_stream(StreamFlags::DEFAULT).unwrap());
                events[k].push(
                    p.create_event(EventFlags::DISABLE_TIMING | EventFlags::INTERPROCESS)
                        .unwrap(),
                );
            }
        }
        // Each process opens every event of the other one, on the device of the thread that uses it (an opened
        // event belongs to the opener's current device at the open, reference/cuda-musa.md · IPC).
        let opened: Vec<Vec<Event>> = (0..PROCESSES)
            .map(|k| {
                let other = 1 - k;
                events[other]
                    .iter()
                    .enumerate()
                    .map(|(j, &e)| {
                        let h = procs[other].ipc_get_event_handle(e).unwrap();
                        procs[k].set_device((j as u32 % DEVICES).into()).unwrap();
                        procs[k].ipc_open_event_handle(&h).unwrap()
                    })
                    .collect()
            })
            .collect();
        let bodies = Arc::new(AtomicUsize::new(0));
        let mut handles = Vec::new();
        for k in 0..PROCESSES {
            for t in 0..THREADS {
                // ACL: only events of this thread's device can be waited on.
                let usable = |j: usize| {
                    dialect == Dialect::Cuda || j % DEVICES as usize == t % DEVICES as usize
                };
                let mut partners: Vec<Event> = (0..THREADS)
                    .filter(|&j| j != t && usable(j))
                    .map(|j| events[k][j])
                    .collect();
                partners.extend((0..THREADS).filter(|&j| usable(j)).map(|j| opened[k][j]));
                let w = Worker {
                    p: procs[k].clone(),
                    device: t as u32 % DEVICES,
                    stream: streams[k][t],
                    own: events[k][t],
                    partners,
                    foreign_same_device: (0..THREADS)
                        .filter(|j| j % DEVICES as usize == t % DEVICES as usize)
                        .map(|j| opened[k][j])
                        .collect(),
                };
                let b = bodies.clone();
                handles.push(std::thread::spawn(move || hammer(w, b, 3 * t + k)));
            }
        }
        let launched: usize = handles.into_iter().map(|h| h.join().unwrap()).sum();
        (m, launched, bodies.load(Ordering::SeqCst))
    });
    let total = PROCESSES * THREADS * ITERATIONS;
    assert_eq!(launched, total);
    assert_eq!(bodies, total, "every kernel body ran exactly once");

    let trace = m.trace();
    let by_point: HashMap<(StreamId, u64), &TraceEvent> =
        trace.ops.iter().map(|o| ((o.stream, o.seq), o)).collect();
    assert_eq!(by_point.len(), trace.ops.len(), "no operation ran twice");
    // Nothing lost: every stream's operations are 1..=n, in FIFO order in virtual time.
    let mut per_stream: HashMap<StreamId, Vec<&TraceEvent>> = HashMap::new();
    for o in &trace.ops {
        per_stream.entry(o.stream).or_default().push(o);
    }
    assert_eq!(per_stream.len(), PROCESSES * THREADS);
    let mut kernels = 0;
    for (s, mut ops) in per_stream {
        ops.sort_by_key(|o| o.seq);
        for (i, o) in ops.iter().enumerate() {
            assert_eq!(o.seq, i as u64 + 1, "{s}: a gap in the stream");
            if i > 0 {
                assert!(ops[i - 1].end <= o.start, "{s}: FIFO order broken at {o:?}");
            }
        }
        let k = ops.iter().filter(|o| o.kind == OpKind::Kernel).count();
        assert_eq!(k, ITERATIONS, "{s}");
        kernels += k;
    }
    assert_eq!(kernels, total);
    // Every wait starts no earlier than the end of the record it waited for.
    let (mut waits, mut cross_process, mut cross_device) = (0, 0, 0);
    for o in &trace.ops {
        if let OpKind::Wait { on, seq, .. } = o.kind {
            let rec = by_point.get(&(on, seq)).unwrap_or_else(|| {
                panic!("{o:?} waited for an operation that is not in the trace")
            });
            assert!(
                matches!(rec.kind, OpKind::Record { .. }),
                "{o:?} waited for {rec:?}"
            );
            assert!(rec.end <= o.start, "wait {o:?} before its record {rec:?}");
            waits += 1;
            cross_process += usize::from(on.process != o.stream.process);
            cross_device += usize::from(on.device != o.stream.device);
        }
    }
    // A wait on an event its owner has not recorded yet is a no-op (CUDA): only the first iterations can
    // meet one.
    assert!(waits > total * 9 / 10 && waits <= total, "{waits} waits");
    // How many waits cross processes depends on how the OS interleaves the host threads (a wait on an opened
    // event depends on whichever record of it is the latest at that moment, which may be this process's own, or
    // none yet): it is about half in a run alone and fell to 14% in one loaded run of the whole suite. The
    // floor asserted (5%) only says that waits across processes were made in numbers.
    assert!(
        cross_process > total / 20,
        "{cross_process} waits crossed processes"
    );
    if dialect == Dialect::Cuda {
        assert!(
            cross_device > total / 4,
            "{cross_device} waits crossed devices"
        );
    } else {
        assert_eq!(cross_device, 0, "ACL refuses waits across devices");
    }
    eprintln!(
        "hammer ({dialect:?}): {total} iterations, {} operations, {waits} waits ({cross_process} across processes, \
         {cross_device} across devices) in {:?}",
        trace.ops.len(),
        took.elapsed()
    );
}
