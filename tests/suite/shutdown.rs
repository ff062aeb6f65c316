//! Shutdown: dropping a machine with work pending, and destroying a stream with work pending.
//!
//! cuda-musa.md · Streams · StreamDestroy · work pending → Success at once; work completes.
//! cuda-musa.md · Streams · DeviceSynchronize → waits for all work in all streams of the current device.
//! The machine's own contract (`Machine` docs): when the last `Machine` and `Process` handle is dropped, every
//! queued operation completes and every worker thread is released (it parks in the process-wide pool, named
//! `ss-idle`, no longer with the machine's `ss<machine>-` prefix).
//!
//! The work is held back by a host function waiting on a gate that a helper thread opens a little later. The
//! delay only makes it likely that the drop (or synchronize) starts while the work is pending; no assertion
//! depends on it (what is asserted before the gate opens is guaranteed by the gate itself).
#![cfg(target_os = "linux")]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

use streamsim::{
    EventFlags, HandleProblem, Kernel, Machine, SimError, Stream, StreamFlags, VirtualTime,
};

use crate::common::{cuda1, with_watchdog};

const HOUR: Duration = Duration::from_secs(3_600);

/// Threads of this process whose name starts with `prefix`, with their state letter from
/// `/proc/self/task/<tid>/stat` (R, S, D, Z, X...).
fn threads_named(prefix: &str) -> Vec<(String, String, char)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc/self/task").expect("/proc/self/task") {
        let Ok(entry) = entry else { continue };
        let path = entry.path();
        // A thread can vanish between the listing and the read: skip it then.
        let Ok(comm) = std::fs::read_to_string(path.join("comm")) else {
            continue;
        };
        let comm = comm.trim().to_string();
        if !comm.starts_with(prefix) {
            continue;
        }
        let state = std::fs::read_to_string(path.join("stat"))
            .ok()
            .and_then(|s| s[s.rfind(')')? + 2..].chars().next())
            .unwrap_or('?');
        out.push((
            entry.file_name().to_string_lossy().into_owned(),
            comm,
            state,
        ));
    }
    out
}

/// Asserts that no thread named `prefix…` is left. A released worker renames itself before it signals that its
/// stream is done, so after the drop none should be listed; a thread that exits at its idle timeout can still
/// be listed for a few microseconds while the kernel tears it down, so the check looks again for up to ~200 ms
/// before failing; a worker that was not released and is blocked, or still running work, stays listed and
/// fails it.
fn assert_no_threads_named(prefix: &str) {
    let mut left = threads_named(prefix);
    for _ in 0..100 {
        if left.is_empty() {
            return;
        }
        std::thread::sleep(Duration::from_millis(2));
        left = threads_named(prefix);
    }
    panic!("worker threads still alive after the machine was dropped: {left:?}");
}

/// Waits (under the caller's watchdog) until `n` threads named `prefix…` are listed: a new thread sets its
/// name itself when it starts, a little after `spawn` returns. This shows that the workers are visible by
/// name, so that their absence after the drop means something.
fn wait_for_threads_named(prefix: &str, n: usize) {
    while threads_named(prefix).len() != n {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Opens `gate` after `ms` milliseconds, from another thread.
fn open_later(gate: mpsc::Sender<()>, ms: u64) -> JoinHandle<()> {
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(ms));
        // The receiver may already be gone if the test failed early; nothing to do then.
        let _ = gate.send(());
    })
}

#[test]
fn dropping_the_machine_with_pending_work_runs_it_and_releases_every_worker() {
    with_watchdog(120, || {
        let m = Machine::builder().devices(1).build().unwrap();
        let p = m.process();
        let p2 = p.clone();
        let prefix = m.worker_name_prefix();
        let ran = Arc::new(AtomicUsize::new(0));
        let count = |ran: &Arc<AtomicUsize>| {
            let ran = ran.clone();
            move || {
                ran.fetch_add(1, Ordering::SeqCst);
            }
        };
        let streams: Vec<Stream> = (0..8)
            .map(|i| {
                let flags = if i % 2 == 0 {
                    StreamFlags::DEFAULT
                } else {
                    StreamFlags::NON_BLOCKING
                };
                p.create_stream(flags).unwrap()
            })
            .collect();
        let events: Vec<_> = (0..8)
            .map(|_| p.create_event(EventFlags::DEFAULT).unwrap())
            .collect();
        let (gate_tx, gate_rx) = mpsc::channel::<()>();
        let gate_ran = count(&ran);
        p.launch_host_func(streams[0], move || {
            gate_rx.recv().expect("the gate opens");
            gate_ran();
        })
        .unwrap();
        let mut expected = 1;
        // A ring of waits: stream i+1 waits for stream i's record, so every later operation is behind the gate.
        for _round in 0..25 {
            for i in 0..8 {
                let body = count(&ran);
                p.launch(
                    streams[i],
                    Kernel::new("long").duration(HOUR).body(move |_| {
                        body();
                        Ok(())
                    }),
                )
                .unwrap();
                p.launch_host_func(streams[i], count(&ran)).unwrap();
                expected += 2;
                p.record_event(events[i], streams[i]).unwrap();
                p.stream_wait_event(streams[(i + 1) % 8], events[i])
                    .unwrap();
            }
        }
        // The legacy default stream waits for every blocking stream; a host thread of its own adds work too.
        let body = count(&ran);
        p.launch(
            Stream::DEFAULT,
            Kernel::new("legacy").duration(HOUR).body(move |_| {
                body();
                Ok(())
            }),
        )
        .unwrap();
        expected += 1;
        let p3 = p.clone();
        let from_thread = count(&ran);
        std::thread::spawn(move || {
            p3.launch(
                Stream::PER_THREAD,
                Kernel::new("per-thread").duration(HOUR).body(move |_| {
                    from_thread();
                    Ok(())
                }),
            )
            .unwrap();
        })
        .join()
        .unwrap();
        expected += 1;
        // 8 created streams, the legacy stream and the other thread's per-thread stream.
        assert_eq!(m.live_workers(), 10);
        wait_for_threads_named(&prefix, 10);
        // Nothing behind the gate can have run (the per-thread kernel is not behind it).
        assert!(ran.load(Ordering::SeqCst) <= 1);
        assert_ne!(
            p.stream_query(streams[7]).unwrap(),
            streamsim::Status::Complete
        );

        let opener = open_later(gate_tx, 100);
        drop(p2);
        drop(p);
        drop(m);
        // The drop returned: every operation ran and every worker is gone.
        assert_eq!(ran.load(Ordering::SeqCst), expected, "bodies that ran");
        opener.join().unwrap();
        assert_no_threads_named(&prefix);
    });
}

#[test]
fn dropping_an_idle_machine_releases_its_workers() {
    with_watchdog(60, || {
        let (m, p) = cuda1();
        let prefix = m.worker_name_prefix();
        for _ in 0..4 {
            p.create_stream(StreamFlags::DEFAULT).unwrap();
        }
        p.launch(Stream::DEFAULT, Kernel::new("k")).unwrap();
        p.device_synchronize().unwrap();
        wait_for_threads_named(&prefix, 5);
        drop(p);
        drop(m);
        assert_no_threads_named(&prefix);
    });
}

/// Destroys a stream holding (gated) work, then checks what the core guarantees: the call succeeds at once,
/// the handle is dead, a device synchronize waits for the work (in real and in virtual time), and the
/// stream's worker exits once the work is drained (`live_workers` goes down; the exit follows the
/// synchronize's return, so the test waits for it, under the watchdog).
fn destroy_with_pending_work(flags: StreamFlags) {
    with_watchdog(60, move || {
        let (m, p) = cuda1();
        let other = p.create_stream(flags).unwrap();
        let s = p.create_stream(flags).unwrap();
        let live = m.live_workers();
        assert_eq!(live, 2);
        let ran = Arc::new(AtomicUsize::new(0));
        let (gate_tx, gate_rx) = mpsc::channel::<()>();
        p.launch_host_func(s, move || gate_rx.recv().expect("the gate opens"))
            .unwrap();
        for _ in 0..10 {
            let ran = ran.clone();
            p.launch(
                s,
                Kernel::new("pending").duration(HOUR).body(move |_| {
                    ran.fetch_add(1, Ordering::SeqCst);
                    Ok(())
                }),
            )
            .unwrap();
        }
        let done = p.create_event(EventFlags::DEFAULT).unwrap();
        p.record_event(done, s).unwrap();
        let end = p.event_record_time(done).unwrap().unwrap();
        assert!(end >= VirtualTime(10 * HOUR.as_nanos() as u64));
        // The other stream has work of its own, independent of `s` (so its tail does not cover `s`'s work).
        p.launch(other, Kernel::new("independent")).unwrap();

        p.destroy_stream(s).unwrap();
        assert!(matches!(
            p.stream_query(s),
            Err(SimError::InvalidHandle {
                problem: HandleProblem::Destroyed,
                ..
            })
        ));
        assert_eq!(ran.load(Ordering::SeqCst), 0, "the gate holds the work");
        assert_eq!(
            m.live_workers(),
            live,
            "the worker lives while work is pending"
        );

        let opener = open_later(gate_tx, 50);
        p.device_synchronize().unwrap();
        let after_sync = ran.load(Ordering::SeqCst);
        let now = p.now();
        opener.join().unwrap();
        assert!(
            now >= end,
            "device_synchronize returned at virtual {now}, before the destroyed stream's work ends at {end}"
        );
        assert_eq!(
            after_sync, 10,
            "device_synchronize returned before the destroyed stream's work ran"
        );
        // The worker of the destroyed stream exits once drained.
        while m.live_workers() != live - 1 {
            std::thread::yield_now();
        }
        // The event recorded on the destroyed stream still answers.
        assert_eq!(p.event_query(done).unwrap(), streamsim::Status::Complete);
        p.event_synchronize(done).unwrap();
    });
}

#[test]
fn destroying_a_blocking_stream_with_pending_work_lets_it_finish() {
    destroy_with_pending_work(StreamFlags::DEFAULT);
}

#[test]
fn destroying_a_non_blocking_stream_with_pending_work_lets_it_finish() {
    destroy_with_pending_work(StreamFlags::NON_BLOCKING);
}

/// Queues gated work with bodies on two streams (the second waiting for the first) and returns the body
/// counter, the gate, how many bodies will run, and the first (gated) stream.
fn gated_work(p: &streamsim::Process) -> (Arc<AtomicUsize>, mpsc::Sender<()>, usize, Stream) {
    let a = p.create_stream(StreamFlags::DEFAULT).unwrap();
    let b = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let e = p.create_event(EventFlags::DISABLE_TIMING).unwrap();
    let ran = Arc::new(AtomicUsize::new(0));
    let (gate_tx, gate_rx) = mpsc::channel::<()>();
    p.launch_host_func(a, move || gate_rx.recv().expect("the gate opens"))
        .unwrap();
    for s in [a, b] {
        if s == b {
            p.record_event(e, a).unwrap();
            p.stream_wait_event(b, e).unwrap();
        }
        for _ in 0..5 {
            let ran = ran.clone();
            p.launch(
                s,
                Kernel::new("pending").duration(HOUR).body(move |_| {
                    ran.fetch_add(1, Ordering::SeqCst);
                    Ok(())
                }),
            )
            .unwrap();
        }
    }
    (ran, gate_tx, 10, a)
}

/// The `Machine` handle is dropped first; the last handle is a `Process`. The shutdown contract is the same
/// whichever handle goes last (a common shape: `let p = Machine::builder().build()?.process();`).
#[test]
fn dropping_the_last_process_handle_after_the_machine_shuts_down() {
    with_watchdog(10, || {
        let m = Machine::builder().devices(1).build().unwrap();
        let p = m.process();
        let prefix = m.worker_name_prefix();
        let (ran, gate, expected, _) = gated_work(&p);
        wait_for_threads_named(&prefix, 2);
        drop(m);
        let opener = open_later(gate, 50);
        drop(p);
        assert_eq!(ran.load(Ordering::SeqCst), expected, "bodies that ran");
        opener.join().unwrap();
        assert_no_threads_named(&prefix);
    });
}

/// The last handle is a `Process` captured by a host function, so the machine is dropped on a worker thread,
/// which cannot join itself. What can be promised then: the queued work still completes and every worker
/// thread exits (the test waits for that, under the watchdog), with no deadlock.
#[test]
fn the_last_handle_dropped_inside_a_host_function_still_shuts_down() {
    with_watchdog(10, || {
        let m = Machine::builder().devices(1).build().unwrap();
        let p = m.process();
        let prefix = m.worker_name_prefix();
        let (ran, gate, expected, gated) = gated_work(&p);
        let last = p.clone();
        // Behind the gate, so it runs after the test has dropped its own handles.
        p.launch_host_func(gated, move || {
            // Runs on a worker; `last` is dropped when this closure is, after it returns.
            let _ = last.machine().device_count();
        })
        .unwrap();
        wait_for_threads_named(&prefix, 2);
        drop(p);
        drop(m);
        gate.send(()).unwrap();
        while ran.load(Ordering::SeqCst) != expected || !threads_named(&prefix).is_empty() {
            std::thread::sleep(Duration::from_millis(1));
        }
    });
}

/// Workers are pooled (issue 17): a machine's drained threads go back to a process-wide pool, and later
/// machines' streams run on them: 30 machines of 3 streams, one after the other, run on the first machine's
/// three threads (a few more if a thread is preempted between renaming itself and parking). A drop does not
/// wait for a stream whose work has all run, so each round first waits until the last machine's threads have
/// renamed themselves (`ss-idle`): without that, under load, the next machine can come before they park and
/// start threads of its own. The pool is keyed by stack size, so this test's unusual size keeps its threads
/// from other tests'.
#[test]
fn later_machines_run_on_the_threads_of_earlier_ones() {
    with_watchdog(60, || {
        const STACK: usize = 3 * 1024 * 1024 + 7 * 4096;
        const ROUNDS: usize = 30;
        let mut threads = std::collections::BTreeSet::new();
        for _ in 0..ROUNDS {
            let m = Machine::builder().worker_stack_size(STACK).build().unwrap();
            let prefix = m.worker_name_prefix();
            let p = m.process();
            let (tx, rx) = mpsc::channel();
            for _ in 0..3 {
                let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
                let tx = tx.clone();
                p.launch(
                    s,
                    Kernel::new("who").body(move |_| {
                        tx.send(format!("{:?}", std::thread::current().id()))
                            .unwrap();
                        Ok(())
                    }),
                )
                .unwrap();
            }
            p.device_synchronize().unwrap();
            threads.extend(rx.try_iter());
            drop((p, m));
            while !threads_named(&prefix).is_empty() {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        assert!(
            threads.len() <= 6,
            "{} streams ran on {} threads: the pool is not reused",
            3 * ROUNDS,
            threads.len()
        );
    });
}
