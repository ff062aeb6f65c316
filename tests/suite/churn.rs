//! Churn: creating and destroying streams, simulated processes and executable graphs in loops costs what is
//! live, not what was (issue 27, items 7, 8 and 12). The live thread count follows the live streams: a
//! destroyed stream's thread serves the next stream created (`src/engine/exec/workers.rs`, "Hand-off"), and a
//! simulated process whose last handle is dropped takes its streams' threads with it.
//!
//! The memory in use (live heap bytes and resident set) is checked to come back to its level after a warm-up once
//! the destroyed objects have drained (issue 27 item 12). The thread counts are read from `/proc/self/task` in a child process of the test binary running one test
//! alone (other tests of this binary start threads of their own meanwhile). The bounds hold whatever the
//! timing: a thread is started only when no parked or retiring thread can take the stream.
#![cfg(target_os = "linux")]

use streamsim::{Kernel, Machine, Process, StreamFlags};

use crate::common::with_watchdog;

/// Set in the child that runs one churn test alone.
const CHILD_VAR: &str = "STREAMSIM_TEST_CHURN_CHILD";

/// Threads of this OS process.
fn threads() -> usize {
    std::fs::read_dir("/proc/self/task")
        .expect("/proc/self/task")
        .count()
}

/// Runs the ignored test `churn::<name>` alone in a child process and fails if it fails.
fn in_child(name: &str) {
    let exe = std::env::current_exe().expect("the test binary");
    let out = std::process::Command::new(exe)
        .args([
            &format!("churn::{name}"),
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_VAR, "1")
        .output()
        .expect("the child runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "the child failed or did not run ({}):\n--- stdout\n{stdout}\n--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Whether this is the child of [`in_child`] (the ignored tests do nothing when run by hand without it).
fn is_child() -> bool {
    std::env::var_os(CHILD_VAR).is_some()
}

/// Runs `cycles` rounds of `round` and returns the most threads seen after any round, less the threads before,
/// and the memory in use after the first tenth of the rounds (the warm-up: pools, registries and caches reach
/// their size) once `m`'s workers are down to `live`, for [`Memory::back_after`].
fn most_threads_over(
    (m, live): (&Machine, usize),
    cycles: usize,
    mut round: impl FnMut(usize),
) -> (usize, Memory) {
    let base = threads();
    let mut most = 0;
    let warm = cycles / 10;
    let mut memory = Memory::now(cycles - warm);
    for i in 0..cycles {
        if i == warm {
            drained(m, live);
            memory = Memory::now(cycles - warm);
        }
        round(i);
        most = most.max(threads().saturating_sub(base));
    }
    (most, memory)
}

/// Waits until `m`'s workers are down to `live` (the destroyed objects' work has drained), at most 10 s of
/// real time.
fn drained(m: &Machine, live: usize) {
    let start = std::time::Instant::now();
    while m.live_workers() > live && start.elapsed() < std::time::Duration::from_secs(10) {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    assert!(
        m.live_workers() <= live,
        "{} workers still serving streams",
        m.live_workers()
    );
}

/// The memory in use at a point of a churn test.
struct Memory {
    heap: usize,
    rss: usize,
    rounds: usize,
}

impl Memory {
    fn now(rounds: usize) -> Memory {
        Memory {
            heap: crate::live_heap_bytes(),
            rss: rss_bytes(),
            rounds,
        }
    }

    /// Asserts that once the destroyed objects' work has drained (the machine's workers down to `live`, at
    /// most 10 s of real time), the memory is what it was after the warm-up: the live heap within
    /// [`HEAP_SLACK`] bytes in all (a leak of a few bytes per round shows), the resident set within
    /// [`RSS_SLACK`]. While a loop runs, the threads of destroyed streams may lag behind it (how far depends on
    /// the load, not on the rounds made); what they have not drained yet is live work.
    fn back_after(self, m: &Machine, live: usize) {
        drained(m, live);
        let (heap, rss) = (crate::live_heap_bytes(), rss_bytes());
        println!(
            "churn: {} rounds after the warm-up: live heap {} → {heap} bytes, resident {} → {rss} bytes",
            self.rounds, self.heap, self.rss
        );
        assert!(
            heap <= self.heap + HEAP_SLACK,
            "the live heap grew by {} bytes over {} rounds ({} → {heap})",
            heap.saturating_sub(self.heap),
            self.rounds,
            self.heap
        );
        assert!(
            rss <= self.rss + RSS_SLACK,
            "the resident set grew by {} bytes over {} rounds ({} → {rss})",
            rss.saturating_sub(self.rss),
            self.rounds,
            self.rss
        );
    }
}

/// The resident set of this OS process, in bytes (`/proc/self/statm`).
fn rss_bytes() -> usize {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("/proc/self/statm");
    let pages: usize = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .expect("statm's resident field");
    pages * 4096
}

/// How far the live heap may grow over a churn test's rounds after its warm-up, in bytes: what a few objects
/// and the tests' own bookkeeping hold (a stream's queue block is 57 KiB; the process churn's set of 4,095
/// ids), not a hundred bytes per round (the executable-graph leak this guards against was 414 bytes per round:
/// 745 KB over the graph churn's 1,800 rounds). Measured: 40 to 300 KB over 1,800 to 4,500 rounds.
const HEAP_SLACK: usize = 512 * 1024;
/// How far the resident set may grow: the allocator keeps pages it was given while destroyed streams' threads
/// lagged behind the loop, so this is a coarse bound (a leak of a kilobyte per round fails it), the heap the
/// precise one.
const RSS_SLACK: usize = 32 * 1024 * 1024;

/// A stream created, given a kernel and destroyed 3,000 times (at most one stream alive, but its thread
/// usually still busy when the next comes): a few threads in all, not one per stream (before: a new thread
/// almost every round, hundreds alive).
#[test]
fn stream_churn_keeps_the_thread_count_flat() {
    in_child("child_stream_churn");
}

#[test]
#[ignore = "runs in a child process started by stream_churn_keeps_the_thread_count_flat"]
fn child_stream_churn() {
    if is_child() {
        churn_streams(false, 4);
    }
}

/// As [`stream_churn_keeps_the_thread_count_flat`], every third stream also running a kernel body (an
/// operation that can block, so its thread cannot take the next stream meanwhile): the threads follow the
/// bodies not yet finished, never the streams made. A pending body holds its thread and may have started
/// the hand-off of the next stream on another (`workers.rs`, "Hand-off"), and the threads a burst of bodies
/// leaves parked serve the next burst. How many bodies are pending at once depends on how far the host loop
/// outruns the workers, which a loaded machine changes: a fixed bound of 64 threads failed with 92 under a
/// CI run's load. So the bound is three threads per body pending at once (the most seen), plus a few.
/// Measured on an idle machine: 13 to 26 threads with 4 to 12 bodies pending at once. A thread per stream
/// (the defect this guards against) would be hundreds of threads with as few pending.
#[test]
fn stream_churn_with_bodies_keeps_the_thread_count_bounded() {
    in_child("child_stream_churn_with_bodies");
}

#[test]
#[ignore = "runs in a child process started by stream_churn_with_bodies_keeps_the_thread_count_bounded"]
fn child_stream_churn_with_bodies() {
    if is_child() {
        churn_streams(true, 16);
    }
}

/// Churns 3,000 streams; with `bodies`, every third runs a kernel body too. The threads may exceed `extra`
/// only by three per body pending (launched, not yet returned) at the busiest moment.
fn churn_streams(bodies: bool, extra: usize) {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    with_watchdog(60, move || {
        // No trace: a trace keeps what it was asked to (up to its window), which is not what this measures.
        let m = Machine::builder().trace(false).build().unwrap();
        let p = m.process();
        let pending = Arc::new(AtomicUsize::new(0));
        let mut most_pending = 0;
        let (most, memory) = most_threads_over((&m, 0), 3_000, |i| {
            let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
            p.launch(s, Kernel::new("k")).unwrap();
            if bodies && i % 3 == 0 {
                pending.fetch_add(1, Ordering::SeqCst);
                let done = Arc::clone(&pending);
                p.launch(
                    s,
                    Kernel::new("body").body(move |_| {
                        done.fetch_sub(1, Ordering::SeqCst);
                        Ok(())
                    }),
                )
                .unwrap();
            }
            most_pending = most_pending.max(pending.load(Ordering::SeqCst));
            p.destroy_stream(s).unwrap();
        });
        p.device_synchronize().unwrap();
        assert_eq!(pending.load(Ordering::SeqCst), 0);
        memory.back_after(&m, 0);
        // Without bodies nothing can hold a thread: `extra` is the whole bound. With them, 1,000 bodies ran.
        assert!(
            most <= 3 * most_pending + extra,
            "{most} threads for at most one live stream and at most {most_pending} bodies pending at once"
        );
    });
}

/// A simulated process created, given a stream and a kernel, and dropped 5,000 times: its streams' threads
/// go with it (before: one more thread per process, 4,000 after 4,000), and the processes after the 4,096th
/// get ids of processes that are gone, so their first stream is created (before: `TooManyObjects` with the
/// process-id limit, `cudaErrorMemoryAllocation`, though one process was alive).
#[test]
fn process_churn_keeps_the_thread_count_flat() {
    in_child("child_process_churn");
}

#[test]
#[ignore = "runs in a child process started by process_churn_keeps_the_thread_count_flat"]
fn child_process_churn() {
    if !is_child() {
        return;
    }
    with_watchdog(60, || {
        let m = Machine::builder().trace(false).build().unwrap();
        let keep: Process = m.process();
        let mut ids = std::collections::BTreeSet::new();
        let (most, memory) = most_threads_over((&m, 0), 5_000, |_| {
            let q = m.process();
            ids.insert(q.id().0);
            let s = q
                .create_stream(StreamFlags::DEFAULT)
                .unwrap_or_else(|e| panic!("process {} cannot create a stream: {e}", q.id()));
            q.launch(s, Kernel::new("k")).unwrap();
        });
        assert!(most <= 4, "{most} threads for at most one live stream");
        // Ids were given again once 4,096 were used, never the live process's.
        assert_eq!(ids.len(), 4_095);
        assert!(!ids.contains(&keep.id().0));
        keep.device_synchronize().unwrap();
        memory.back_after(&m, 0);
    });
}

/// An executable graph instantiated, launched (and its stream synchronized) and destroyed 2,000 times: the
/// destroyed lanes' tails are summed up as a destroyed stream's are, so the process keeps none of them (before:
/// one tail per cycle, until a device synchronize).
#[test]
fn graph_exec_churn_keeps_no_tails() {
    with_watchdog(60, || {
        let m = Machine::builder().trace(false).build().unwrap();
        let p = m.process();
        let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        p.begin_capture(s, streamsim::CaptureMode::Global).unwrap();
        p.launch(s, Kernel::new("a")).unwrap();
        p.launch(s, Kernel::new("b")).unwrap();
        let g = p.end_capture(s).unwrap();
        let mut most = 0;
        for _ in 0..2_000 {
            let x = p.instantiate_graph(g).unwrap();
            p.launch_graph(x, s).unwrap();
            p.stream_synchronize(s).unwrap();
            p.destroy_graph_exec(x).unwrap();
            most = most.max(p.destroyed_tails());
        }
        assert!(most <= 1, "{most} tails of destroyed lanes kept");
    });
}

/// Executable graphs instantiated, launched, synchronized and destroyed 2,000 times (each launch makes the
/// graph's lane, a stream with a thread): a few threads in all, and no tail kept. (Without the synchronize the
/// loop queues work faster than it runs, and every lane waiting for its launch is live work with a thread.)
#[test]
fn graph_exec_churn_keeps_the_thread_count_flat() {
    in_child("child_graph_exec_churn");
}

#[test]
#[ignore = "runs in a child process started by graph_exec_churn_keeps_the_thread_count_flat"]
fn child_graph_exec_churn() {
    if !is_child() {
        return;
    }
    with_watchdog(60, || {
        let m = Machine::builder().trace(false).build().unwrap();
        let p = m.process();
        let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        p.begin_capture(s, streamsim::CaptureMode::Global).unwrap();
        p.launch(s, Kernel::new("a")).unwrap();
        let g = p.end_capture(s).unwrap();
        let (most, memory) = most_threads_over((&m, 1), 2_000, |_| {
            let x = p.instantiate_graph(g).unwrap();
            p.launch_graph(x, s).unwrap();
            p.stream_synchronize(s).unwrap();
            p.destroy_graph_exec(x).unwrap();
        });
        p.device_synchronize().unwrap();
        assert!(most <= 4, "{most} threads for one stream and one lane");
        assert_eq!(p.destroyed_tails(), 0);
        // The capturing stream's worker stays.
        memory.back_after(&m, 1);
    });
}
