//! Benchmark: what the simulator's machinery costs next to the bare mechanism it is built on — a crossbeam
//! channel of boxed closures feeding a worker thread — measured in the same process.
//!
//! Run with `cargo run --release --example bench`. It prints absolute figures for both sides (best and median
//! of several interleaved repetitions: machines are shared and noisy), their ratio, and whether each target of
//! issues 2 and 5 is met. It is a benchmark, not a test: it never fails (exit status 0 whatever the numbers).
//!
//! | figure | simulator | baseline | target |
//! |---|---|---|---|
//! | (a) enqueue cost | `launch` of an empty kernel | `tx.send(Box::new(\|\| {}))` | ratio <= 3x |
//! | (b) throughput | 1,000,000 empty kernels + `stream_synchronize` | 1,000,000 closures + wait for the last | sim/raw >= 0.3x |
//! | (c) round trip | `launch` + `stream_synchronize` | send a job, wait for its reply | ratio <= 4x |
//! | (d) one hour of virtual time | 3,600 chained 1 s kernels on 4 streams | — | < 100 ms wall |
//! | (e) idle CPU | 16 idle streams over 1 s of wall time | — | < 10 ms CPU |
//! | (f) race detection | 1,000,000 kernels, each declaring a read and a write of a buffer, + `stream_synchronize`, detection on (`Collect`) | the same with `RaceDetection::Off` | on/off <= 2x |
//! | (g) property tests | 2,000 programs of `testing::program(Limits::default())`, each on a machine of its own, end to end | the same programs' runs alone, on machines built beforehand | ratio <= 1.25x |
//! | (h) record next to idle streams | `record_event` on a stream of a machine that also has 4,000 idle streams | the same on a machine with none | ratio <= 1.5x |
//! | (i) history | a 2-stream loop: launch (writes a buffer) / record / wait / launch (reads it) / record / wait on a machine that has created, used and destroyed 10,000 streams | the same loop on a fresh machine | ratio <= 1.3x |
//! | (i) memory | resident memory after 100,000 iterations of create stream / launch / synchronize / destroy (default settings) | after the first 1,000 | growth < 32 MiB |
//! | (j) record | `record_event` | `launch` of an empty kernel, same machine | ratio <= 4x |
//! | (k) C launch | `cudasimLaunchKernel` (the `extern "C"` function, on a bound process) | `Process::launch` of the same kernel | ratio <= 1.3x |
//! | (l) long run | resident memory after 10,000,000 operations (launch / record / wait / launch on 2 streams, default settings) | after the first 2,000,000 | growth < 32 MiB |
//! | (m) IPC round trip | A records an IPC event, B (another OS process: this program started again, on a shared host) waits on it with `stream_wait_event` + `stream_synchronize` and answers | the same between two simulated processes of one machine (two host threads), with the same host handshake | reported (no target) |
//! | (n) stream-ordered memory | 1,000,000 iterations of `malloc_async` + a kernel writing the block + `free_async`, round robin on 4 streams, + `device_synchronize`, detection on | the same with detection off | on/off <= 2x; resident memory flat over the 1,000,000 iterations |
//! | (o) stream queue | `src/engine/exec/queue.rs` (`streamsim::bench_queue`): 1,000,000 sends of a 56-byte item (a stream operation's size) to a consumer thread, the producer's time per send and the time until the consumer has all | the same through an unbounded crossbeam channel | queue <= crossbeam on both (what the hand-written queue buys) |
//!
//! The ratios are computed from the medians (the best-of-N ratio is printed beside them). Set
//! `BENCH_QUICK=1` for a short run (fewer repetitions, 100,000 kernels in (b) and (f), shorter loops in (i),
//! (l) and (n)); `BENCH_ONLY` picks figures by letter (`BENCH_ONLY=hijk`, `BENCH_ONLY=m`). Figure (n) runs with
//! `.trace(false)` on both sides (what it measures is the pool and race detection, not the trace's window); its
//! memory is the process's resident
//! set (`/proc/self/statm`) sampled every 100,000 iterations of one more run with detection on, from the first
//! sample on (the pool, the queues and the allocator warmed up by the first 100,000 iterations).
//! Resident memory is read from `/proc/self/statm` (Linux; elsewhere (i)'s memory part and (l) are not
//! measured).

use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use streamsim::testing::{Limits, Program, program};
use streamsim::{
    EventFlags, Kernel, Machine, Process, RaceDetection, Stream, StreamFlags, VirtualTime,
};

type Job = Box<dyn FnOnce() + Send>;

/// The baseline: one worker thread running boxed closures from an unbounded crossbeam channel.
struct RawWorker {
    tx: Option<Sender<Job>>,
    handle: Option<JoinHandle<()>>,
    reply_tx: Sender<()>,
    reply_rx: Receiver<()>,
}

impl RawWorker {
    fn new() -> RawWorker {
        let (tx, rx) = crossbeam_channel::unbounded::<Job>();
        let handle = std::thread::Builder::new()
            .name("raw-worker".into())
            .spawn(move || {
                while let Ok(job) = rx.recv() {
                    job();
                }
            })
            .expect("spawning the baseline worker");
        let (reply_tx, reply_rx) = crossbeam_channel::bounded(1);
        RawWorker {
            tx: Some(tx),
            handle: Some(handle),
            reply_tx,
            reply_rx,
        }
    }

    fn send(&self, job: Job) {
        self.tx
            .as_ref()
            .expect("worker running")
            .send(job)
            .expect("worker alive");
    }

    /// Sends a job that replies, and waits for the reply (so every earlier job has run).
    fn round_trip(&self) {
        let reply = self.reply_tx.clone();
        self.send(Box::new(move || reply.send(()).expect("reply channel")));
        self.reply_rx.recv().expect("reply");
    }
}

impl Drop for RawWorker {
    fn drop(&mut self) {
        drop(self.tx.take());
        if let Some(h) = self.handle.take() {
            h.join().expect("baseline worker");
        }
    }
}

/// Best and median of a set of measurements.
#[derive(Clone, Copy)]
struct Stats {
    best: f64,
    median: f64,
}

impl Stats {
    fn of(mut v: Vec<f64>) -> Stats {
        v.sort_by(f64::total_cmp);
        Stats {
            best: v[0],
            median: v[v.len() / 2],
        }
    }
}

/// Runs `sim` and `raw` alternately `reps` times each (so slow phases of a noisy machine hit both sides).
fn interleaved(
    reps: usize,
    mut sim: impl FnMut() -> f64,
    mut raw: impl FnMut() -> f64,
) -> (Stats, Stats) {
    let (mut s, mut r) = (Vec::new(), Vec::new());
    for _ in 0..reps {
        s.push(sim());
        r.push(raw());
    }
    (Stats::of(s), Stats::of(r))
}

fn machine(trace: bool) -> (Machine, Process, Stream) {
    let m = Machine::builder()
        .devices(1)
        .trace(trace)
        .build()
        .expect("machine");
    let p = m.process();
    let s = p.create_stream(StreamFlags::DEFAULT).expect("stream");
    (m, p, s)
}

fn verdict(met: bool) -> &'static str {
    if met { "MET" } else { "MISSED" }
}

fn ns(v: f64) -> String {
    if v >= 1e6 {
        format!("{:.2} ms", v / 1e6)
    } else if v >= 1e3 {
        format!("{:.2} µs", v / 1e3)
    } else {
        format!("{v:.0} ns")
    }
}

/// (a) Nanoseconds per enqueue, over a batch (the worker drains concurrently; draining is not timed).
fn enqueue_cost(reps: usize, batch: usize) -> (Stats, Stats) {
    interleaved(
        reps,
        || {
            let (_m, p, s) = machine(true);
            let t = Instant::now();
            for _ in 0..batch {
                p.launch(s, Kernel::new("k")).expect("launch");
            }
            let e = t.elapsed();
            p.stream_synchronize(s).expect("sync");
            e.as_nanos() as f64 / batch as f64
        },
        || {
            let w = RawWorker::new();
            let t = Instant::now();
            for _ in 0..batch {
                w.send(Box::new(|| {}));
            }
            let e = t.elapsed();
            w.round_trip();
            e.as_nanos() as f64 / batch as f64
        },
    )
}

/// (b) Wall nanoseconds for `n` empty operations end to end (enqueue all, then wait for the last).
fn throughput(reps: usize, n: usize, trace: bool) -> (Stats, Stats) {
    interleaved(
        reps,
        || {
            let (_m, p, s) = machine(trace);
            let t = Instant::now();
            for _ in 0..n {
                p.launch(s, Kernel::new("k")).expect("launch");
            }
            p.stream_synchronize(s).expect("sync");
            t.elapsed().as_nanos() as f64
        },
        || {
            let w = RawWorker::new();
            let t = Instant::now();
            for _ in 0..n {
                w.send(Box::new(|| {}));
            }
            w.round_trip();
            t.elapsed().as_nanos() as f64
        },
    )
}

/// (c) Nanoseconds per round trip (enqueue one operation, block until it has run).
fn round_trip(reps: usize, n: usize) -> (Stats, Stats) {
    interleaved(
        reps,
        || {
            let (_m, p, s) = machine(true);
            p.launch(s, Kernel::new("warm")).expect("launch");
            p.stream_synchronize(s).expect("sync");
            let t = Instant::now();
            for _ in 0..n {
                p.launch(s, Kernel::new("k")).expect("launch");
                p.stream_synchronize(s).expect("sync");
            }
            t.elapsed().as_nanos() as f64 / n as f64
        },
        || {
            let w = RawWorker::new();
            w.round_trip();
            let t = Instant::now();
            for _ in 0..n {
                w.round_trip();
            }
            t.elapsed().as_nanos() as f64 / n as f64
        },
    )
}

/// (d) One hour of virtual kernel time: 3,600 kernels of 1 s, round-robin over 4 streams, each waiting (through
/// an event) for the previous one, so they form one chain; then a device synchronize. Returns the wall time
/// of the whole program (machine build included) and the virtual time at its end.
fn virtual_hour() -> (Duration, VirtualTime) {
    let t = Instant::now();
    let m = Machine::builder().devices(1).build().expect("machine");
    let p = m.process();
    let streams: Vec<Stream> = (0..4)
        .map(|_| p.create_stream(StreamFlags::NON_BLOCKING).expect("stream"))
        .collect();
    let events: Vec<_> = (0..4)
        .map(|_| p.create_event(EventFlags::DEFAULT).expect("event"))
        .collect();
    for i in 0..3_600 {
        let s = streams[i % 4];
        if i > 0 {
            p.stream_wait_event(s, events[(i - 1) % 4]).expect("wait");
        }
        p.launch(s, Kernel::new("hour").duration(Duration::from_secs(1)))
            .expect("launch");
        p.record_event(events[i % 4], s).expect("record");
    }
    p.device_synchronize().expect("sync");
    let end = p.now();
    drop(p);
    drop(m);
    (t.elapsed(), end)
}

/// Nanoseconds of CPU time used so far by each live thread of this process, by thread name
/// (`/proc/self/task/*/schedstat`, first field).
fn thread_cpu_ns() -> Vec<(String, u64)> {
    let mut out = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc/self/task") else {
        return out;
    };
    for entry in dir.flatten() {
        let path = entry.path();
        let comm = std::fs::read_to_string(path.join("comm")).unwrap_or_default();
        let cpu = std::fs::read_to_string(path.join("schedstat"))
            .ok()
            .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok());
        if let Some(cpu) = cpu {
            out.push((comm.trim().to_string(), cpu));
        }
    }
    out
}

/// The process's utime + stime from `/proc/self/stat`, in clock ticks (usually 10 ms each: a coarse
/// cross-check of the schedstat figure; it also counts threads that have exited).
fn process_ticks() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15 of the whole line.
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
}

/// (e) CPU time of the process, and of the machine's workers, over one second of wall time with 16 idle
/// streams (each has run one kernel first, so its worker has been awake and gone back to sleep).
fn idle_cpu() -> Option<(u64, u64, u64, usize)> {
    let m = Machine::builder().devices(1).build().expect("machine");
    let p = m.process();
    let streams: Vec<Stream> = (0..16)
        .map(|_| p.create_stream(StreamFlags::DEFAULT).expect("stream"))
        .collect();
    for &s in &streams {
        p.launch(s, Kernel::new("warm")).expect("launch");
    }
    p.device_synchronize().expect("sync");
    let prefix = m.worker_name_prefix();
    let workers = m.live_workers();
    std::thread::sleep(Duration::from_millis(50));
    let sum = |v: &[(String, u64)], only_workers: bool| -> u64 {
        v.iter()
            .filter(|(name, _)| !only_workers || name.starts_with(&prefix))
            .map(|(_, c)| c)
            .sum()
    };
    let before = thread_cpu_ns();
    let ticks_before = process_ticks()?;
    std::thread::sleep(Duration::from_secs(1));
    let after = thread_cpu_ns();
    let ticks_after = process_ticks()?;
    if before.is_empty() {
        return None;
    }
    let total = sum(&after, false).saturating_sub(sum(&before, false));
    let of_workers = sum(&after, true).saturating_sub(sum(&before, true));
    let tick_ns = 10_000_000; // USER_HZ is 100 on Linux
    drop(streams);
    drop(p);
    drop(m);
    Some((
        total,
        of_workers,
        (ticks_after - ticks_before) * tick_ns,
        workers,
    ))
}

/// (f) Wall nanoseconds for `n` kernels that each declare a read and a write of one 4 KiB buffer, end to end
/// (enqueue all, then synchronize), with race detection collecting (first) and off (second).
fn detection_overhead(reps: usize, n: usize) -> (Stats, Stats) {
    let workload = |mode: RaceDetection| {
        move || {
            let m = Machine::builder()
                .devices(1)
                .race_detection(mode)
                .build()
                .expect("machine");
            let p = m.process();
            let s = p.create_stream(StreamFlags::DEFAULT).expect("stream");
            let buf = p.malloc(4096).expect("malloc");
            let t = Instant::now();
            for _ in 0..n {
                p.launch(s, Kernel::new("k").reads(buf, 4096).writes(buf, 4096))
                    .expect("launch");
            }
            p.stream_synchronize(s).expect("sync");
            let e = t.elapsed().as_nanos() as f64;
            assert!(m.race_reports().is_empty(), "one stream: no race");
            e
        }
    };
    interleaved(
        reps,
        workload(RaceDetection::Collect),
        workload(RaceDetection::Off),
    )
}

/// (n) Wall nanoseconds for `n` iterations of `malloc_async(4 KiB)` + a kernel writing the block +
/// `free_async`, round robin on 4 streams, then `device_synchronize`; with race detection collecting (first)
/// and off (second). With `samples`, also the resident set every `every` iterations.
fn pool_loop(mode: RaceDetection, n: usize, every: usize, samples: &mut Vec<u64>) -> f64 {
    let m = Machine::builder()
        .devices(1)
        .race_detection(mode)
        .trace(false)
        .build()
        .expect("machine");
    let p = m.process();
    let streams: Vec<Stream> = (0..4)
        .map(|_| p.create_stream(StreamFlags::NON_BLOCKING).expect("stream"))
        .collect();
    let t = Instant::now();
    for i in 0..n {
        let s = streams[i % 4];
        let buf = p.malloc_async(4096, s).expect("malloc_async");
        p.launch(s, Kernel::new("k").writes(buf, 4096))
            .expect("launch");
        p.free_async(buf, s).expect("free_async");
        if every > 0 && (i + 1) % every == 0 {
            samples.extend(rss_bytes());
        }
    }
    p.device_synchronize().expect("sync");
    let e = t.elapsed().as_nanos() as f64;
    assert!(
        m.race_reports().is_empty(),
        "each block stays on its stream: no report"
    );
    e
}

/// `n` random programs of the property tests' strategy (`testing::program(Limits::default())`), always the same
/// ones (a deterministic proptest runner).
fn programs(n: usize) -> Vec<Program> {
    let strategy = program(Limits::default());
    let mut runner = TestRunner::deterministic();
    (0..n)
        .map(|_| strategy.new_tree(&mut runner).expect("a program").current())
        .collect()
}

/// (g) Wall nanoseconds per property-test case: each program on a machine of its own, end to end (build,
/// run, take the trace and the reports, drop: what a property test does per case; first), and only the run on
/// a machine built beforehand and dropped afterwards (second).
fn property_throughput(reps: usize, progs: &[Program]) -> (Stats, Stats) {
    let build = |prog: &Program| {
        Machine::builder()
            .devices(prog.devices)
            .build()
            .expect("machine")
    };
    interleaved(
        reps,
        || {
            let t = Instant::now();
            for prog in progs {
                let m = build(prog);
                prog.run(&m.process()).expect("the program runs");
                let _ = (m.trace(), m.race_reports());
            }
            t.elapsed().as_nanos() as f64 / progs.len() as f64
        },
        || {
            let mut total = Duration::ZERO;
            for prog in progs {
                let m = build(prog);
                let p = m.process();
                let t = Instant::now();
                prog.run(&p).expect("the program runs");
                total += t.elapsed();
                let _ = (m.trace(), m.race_reports());
            }
            total.as_nanos() as f64 / progs.len() as f64
        },
    )
}

/// Resident memory of this process in bytes (`/proc/self/statm`, second field, in pages).
fn rss_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = s.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * page_size())
}

#[cfg(target_os = "linux")]
fn page_size() -> u64 {
    // SAFETY: sysconf takes no pointer and cannot fail for _SC_PAGESIZE.
    let n = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if n > 0 { n as u64 } else { 4096 }
}

#[cfg(not(target_os = "linux"))]
fn page_size() -> u64 {
    4096
}

fn mib(bytes: i64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1u64 << 20) as f64)
}

/// A machine with one stream and one event, and `idle` more streams that never get any work (created before
/// the measured stream, so that its number comes after theirs). Idle workers get small stacks: 4,000 of them.
fn record_machine(idle: usize) -> (Machine, Process, Stream, streamsim::Event, Vec<Stream>) {
    let m = Machine::builder()
        .devices(1)
        .worker_stack_size(256 << 10)
        .build()
        .expect("machine");
    let p = m.process();
    let idle: Vec<Stream> = (0..idle)
        .map(|_| p.create_stream(StreamFlags::DEFAULT).expect("idle stream"))
        .collect();
    let s = p.create_stream(StreamFlags::DEFAULT).expect("stream");
    let e = p.create_event(EventFlags::DEFAULT).expect("event");
    (m, p, s, e, idle)
}

/// Nanoseconds per `record_event` over a batch (host side; the worker drains concurrently, not timed).
fn time_records(p: &Process, s: Stream, e: streamsim::Event, n: usize) -> f64 {
    let t = Instant::now();
    for _ in 0..n {
        p.record_event(e, s).expect("record");
    }
    let el = t.elapsed();
    p.stream_synchronize(s).expect("sync");
    el.as_nanos() as f64 / n as f64
}

/// Nanoseconds per empty-kernel `launch` over a batch (host side, as in (a)).
fn time_launches(p: &Process, s: Stream, n: usize) -> f64 {
    let t = Instant::now();
    for _ in 0..n {
        p.launch(s, Kernel::new("k")).expect("launch");
    }
    let el = t.elapsed();
    p.stream_synchronize(s).expect("sync");
    el.as_nanos() as f64 / n as f64
}

/// (h) A record next to 4,000 idle streams (first) and next to none (second).
fn record_next_to_idle(reps: usize, n: usize) -> (Stats, Stats) {
    let (_m1, p1, s1, e1, _idle1) = record_machine(4_000);
    let (_m0, p0, s0, e0, _idle0) = record_machine(0);
    // Warm both (the first records allocate what later ones reuse).
    time_records(&p1, s1, e1, 1_000);
    time_records(&p0, s0, e0, 1_000);
    interleaved(
        reps,
        || time_records(&p1, s1, e1, n),
        || time_records(&p0, s0, e0, n),
    )
}

/// What (i) runs: two streams, an event, a buffer.
struct Loop {
    _m: Machine,
    p: Process,
    s1: Stream,
    s2: Stream,
    e1: streamsim::Event,
    e2: streamsim::Event,
    buf: streamsim::DevicePtr,
}

impl Loop {
    fn new(history: usize) -> Loop {
        let m = Machine::builder().devices(1).build().expect("machine");
        let p = m.process();
        // History: streams created, used (a kernel writing a buffer, then a synchronize) and destroyed.
        let old = p.malloc(4096).expect("malloc");
        for _ in 0..history {
            let s = p.create_stream(StreamFlags::DEFAULT).expect("stream");
            p.launch(s, Kernel::new("old").writes(old, 4096))
                .expect("launch");
            p.stream_synchronize(s).expect("sync");
            p.destroy_stream(s).expect("destroy");
        }
        let s1 = p.create_stream(StreamFlags::NON_BLOCKING).expect("stream");
        let s2 = p.create_stream(StreamFlags::NON_BLOCKING).expect("stream");
        let e1 = p.create_event(EventFlags::DISABLE_TIMING).expect("event");
        let e2 = p.create_event(EventFlags::DISABLE_TIMING).expect("event");
        let buf = p.malloc(4096).expect("malloc");
        Loop {
            _m: m,
            p,
            s1,
            s2,
            e1,
            e2,
            buf,
        }
    }

    /// Nanoseconds per iteration on the host (the workers run concurrently; their draining is not timed):
    /// stream 1 writes the buffer, stream 2 waits for it and reads it, stream 1 waits for that before the next
    /// write (a ping-pong of two records and two waits).
    fn run(&self, n: usize) -> f64 {
        let Loop {
            p,
            s1,
            s2,
            e1,
            e2,
            buf,
            ..
        } = self;
        let t = Instant::now();
        for _ in 0..n {
            p.launch(*s1, Kernel::new("produce").writes(*buf, 4096))
                .expect("launch");
            p.record_event(*e1, *s1).expect("record");
            p.stream_wait_event(*s2, *e1).expect("wait");
            p.launch(*s2, Kernel::new("consume").reads(*buf, 4096))
                .expect("launch");
            p.record_event(*e2, *s2).expect("record");
            p.stream_wait_event(*s1, *e2).expect("wait");
        }
        let el = t.elapsed();
        p.stream_synchronize(*s1).expect("sync");
        p.stream_synchronize(*s2).expect("sync");
        el.as_nanos() as f64 / n as f64
    }
}

/// (i) The 2-stream loop after `history` stream lifetimes (first) and on a fresh machine (second).
fn loop_after_history(reps: usize, history: usize, n: usize) -> (Stats, Stats) {
    let aged = Loop::new(history);
    let fresh = Loop::new(0);
    aged.run(1_000);
    fresh.run(1_000);
    let r = interleaved(reps, || aged.run(n), || fresh.run(n));
    assert!(
        aged._m.race_reports().is_empty() && fresh._m.race_reports().is_empty(),
        "the loop is ordered: no race"
    );
    r
}

/// (i) Resident-memory growth of a create / launch / synchronize / destroy loop with default settings: after
/// `warm` iterations and after `n` more (or fewer: the loop stops once it has grown by 1 GiB, so that a leak does
/// not exhaust the machine; the third value is how many it ran). `None` without `/proc/self/statm`.
fn lifetime_loop_memory(warm: usize, n: usize) -> Option<(u64, u64, usize)> {
    let m = Machine::builder().devices(1).build().expect("machine");
    let p = m.process();
    let buf = p.malloc(4096).expect("malloc");
    let step = |i: usize| {
        let s = p.create_stream(StreamFlags::DEFAULT).expect("stream");
        p.launch(s, Kernel::new("k").writes(buf, 4096))
            .expect("launch");
        p.stream_synchronize(s).expect("sync");
        p.destroy_stream(s).expect("destroy");
        i
    };
    (0..warm).for_each(|i| {
        step(i);
    });
    let before = rss_bytes()?;
    let mut ran = 0;
    while ran < n {
        (0..1_000).for_each(|i| {
            step(i);
        });
        ran += 1_000;
        if rss_bytes()? > before + (1 << 30) {
            break;
        }
    }
    let after = rss_bytes()?;
    assert!(m.race_reports().is_empty(), "each stream is synchronized");
    Some((before, after, ran))
}

/// (j) A record (first) vs an empty-kernel launch (second), on the same machine and stream.
fn record_vs_launch(reps: usize, n: usize) -> (Stats, Stats) {
    let (_m, p, s, e, _idle) = record_machine(0);
    time_records(&p, s, e, 1_000);
    time_launches(&p, s, 1_000);
    interleaved(
        reps,
        || time_records(&p, s, e, n),
        || time_launches(&p, s, n),
    )
}

/// (k) A launch through the C library's `cudasimLaunchKernel` (first) vs `Process::launch` of the same kernel
/// (second), on one machine bound to the thread.
fn c_launch_vs_rust(reps: usize, n: usize) -> (Stats, Stats) {
    use std::ffi::c_void;
    let (_m, p, s, _e, _idle) = record_machine(0);
    let _bound = p.bind();
    let raw = s.to_raw() as usize as *mut c_void;
    let c = || {
        let t = Instant::now();
        for _ in 0..n {
            // SAFETY: a live stream of the bound process, a NUL-terminated name, no body.
            let r = unsafe {
                streamsim::cuda::cudasimLaunchKernel(
                    raw,
                    c"k".as_ptr(),
                    10_000,
                    None,
                    std::ptr::null_mut(),
                )
            };
            assert_eq!(r, streamsim::cuda::cudaSuccess);
        }
        let el = t.elapsed();
        p.stream_synchronize(s).expect("sync");
        el.as_nanos() as f64 / n as f64
    };
    let rust = || {
        let t = Instant::now();
        for _ in 0..n {
            p.launch(s, Kernel::new("k").duration(Duration::from_micros(10)))
                .expect("launch");
        }
        let el = t.elapsed();
        p.stream_synchronize(s).expect("sync");
        el.as_nanos() as f64 / n as f64
    };
    c();
    rust();
    interleaved(reps, c, rust)
}

/// A stream operation's size (`exec.rs`: 56 bytes).
type Item = [u64; 7];

/// (o) One run of `n` sends through the stream queue: (producer's ns per send, ns per item until the consumer
/// has them all).
fn queue_run(n: usize) -> (f64, f64) {
    let (mut tx, mut rx) = streamsim::bench_queue::channel::<Item>();
    let consumer = std::thread::spawn(move || {
        let mut sum = 0u64;
        while rx.drain(|x| sum = sum.wrapping_add(x[0])) {}
        sum
    });
    let t = Instant::now();
    for i in 0..n {
        tx.send([i as u64; 7]);
    }
    let sent = t.elapsed();
    drop(tx);
    let sum = consumer.join().expect("consumer");
    let all = t.elapsed();
    assert_eq!(sum, (n as u64 * (n as u64 - 1)) / 2, "every item received");
    (
        sent.as_nanos() as f64 / n as f64,
        all.as_nanos() as f64 / n as f64,
    )
}

/// (o) The same through an unbounded crossbeam channel.
fn crossbeam_run(n: usize) -> (f64, f64) {
    let (tx, rx) = crossbeam_channel::unbounded::<Item>();
    let consumer = std::thread::spawn(move || {
        let mut sum = 0u64;
        while let Ok(x) = rx.recv() {
            sum = sum.wrapping_add(x[0]);
        }
        sum
    });
    let t = Instant::now();
    for i in 0..n {
        tx.send([i as u64; 7]).expect("consumer alive");
    }
    let sent = t.elapsed();
    drop(tx);
    let sum = consumer.join().expect("consumer");
    let all = t.elapsed();
    assert_eq!(sum, (n as u64 * (n as u64 - 1)) / 2, "every item received");
    (
        sent.as_nanos() as f64 / n as f64,
        all.as_nanos() as f64 / n as f64,
    )
}

/// (o) The stream queue vs crossbeam-channel: ((queue send, crossbeam send), (queue end to end, crossbeam end
/// to end)), in ns per item, alternating.
fn queue_vs_crossbeam(reps: usize, n: usize) -> ((Stats, Stats), (Stats, Stats)) {
    let (mut qs, mut cs, mut qa, mut ca) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    queue_run(n / 10);
    crossbeam_run(n / 10);
    for _ in 0..reps {
        let (s, a) = queue_run(n);
        qs.push(s);
        qa.push(a);
        let (s, a) = crossbeam_run(n);
        cs.push(s);
        ca.push(a);
    }
    (
        (Stats::of(qs), Stats::of(cs)),
        (Stats::of(qa), Stats::of(ca)),
    )
}

/// (l) Resident memory of a long run with default settings: `n` operations (launch / record / wait / launch on
/// two streams), synchronized every 100,000, measured after `warm` operations and at the end (or once it has
/// grown by 1 GiB; the third value is how many operations ran).
fn long_run_memory(warm: usize, n: usize) -> Option<(u64, u64, usize, Duration)> {
    let t = Instant::now();
    let m = Machine::builder().devices(1).build().expect("machine");
    let p = m.process();
    let s1 = p.create_stream(StreamFlags::NON_BLOCKING).expect("stream");
    let s2 = p.create_stream(StreamFlags::NON_BLOCKING).expect("stream");
    let e = p.create_event(EventFlags::DEFAULT).expect("event");
    let mut before = None;
    let mut ops = 0;
    while ops < n {
        for _ in 0..25_000 {
            p.launch(s1, Kernel::new("a")).expect("launch");
            p.record_event(e, s1).expect("record");
            p.stream_wait_event(s2, e).expect("wait");
            p.launch(s2, Kernel::new("b")).expect("launch");
        }
        ops += 100_000;
        p.device_synchronize().expect("sync");
        if ops == warm {
            before = rss_bytes();
        }
        if let Some(b) = before
            && rss_bytes()? > b + (1 << 30)
        {
            break;
        }
    }
    let after = rss_bytes()?;
    Some((before?, after, ops, t.elapsed()))
}

/// (m) Words the two sides of an IPC round trip hand over with (a `/dev/shm` file of the bench's), and the
/// exported event's handle (bytes 64..128).
struct Handshake {
    base: *mut u8,
}

// SAFETY: a shared mapping accessed through atomics and, for the handle, before the other side reads it.
unsafe impl Send for Handshake {}
// SAFETY: as above.
unsafe impl Sync for Handshake {}

impl Handshake {
    fn path(name: &str) -> std::path::PathBuf {
        std::path::Path::new("/dev/shm").join(name)
    }

    fn open(name: &str, create: bool) -> Handshake {
        let f = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(create)
            .truncate(create)
            .open(Self::path(name))
            .expect("the handshake file");
        f.set_len(4096).expect("sizing it");
        // SAFETY: a fresh shared mapping of 4096 bytes of an open file.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                4096,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                std::os::fd::AsRawFd::as_raw_fd(&f),
                0,
            )
        };
        assert_ne!(p, libc::MAP_FAILED);
        Handshake { base: p.cast() }
    }

    fn word(&self, i: usize) -> &std::sync::atomic::AtomicU32 {
        assert!(i < 16);
        // SAFETY: inside the mapping, aligned; it is never unmapped.
        unsafe { &*self.base.add(4 * i).cast() }
    }

    fn set(&self, i: usize, v: u32) {
        let w = self.word(i);
        w.store(v, std::sync::atomic::Ordering::Release);
        // SAFETY: a valid shared word.
        unsafe {
            libc::syscall(
                libc::SYS_futex,
                w.as_ptr(),
                libc::FUTEX_WAKE,
                i32::MAX,
                0,
                0,
                0,
            )
        };
    }

    fn wait(&self, i: usize, v: u32) {
        let w = self.word(i);
        loop {
            let now = w.load(std::sync::atomic::Ordering::Acquire);
            if now >= v {
                return;
            }
            // SAFETY: a valid shared word; a spurious return is re-checked.
            unsafe {
                libc::syscall(
                    libc::SYS_futex,
                    w.as_ptr(),
                    libc::FUTEX_WAIT,
                    now,
                    0usize,
                    0,
                    0,
                )
            };
        }
    }

    fn put_handle(&self, h: &streamsim::IpcEventHandle) {
        // SAFETY: 64 bytes inside the mapping.
        unsafe { std::ptr::copy_nonoverlapping(h.0.as_ptr(), self.base.add(64), 64) };
        self.set(2, 1);
    }

    fn handle(&self) -> streamsim::IpcEventHandle {
        self.wait(2, 1);
        let mut b = [0u8; 64];
        // SAFETY: 64 bytes inside the mapping, written before word 2 was set.
        unsafe { std::ptr::copy_nonoverlapping(self.base.add(64), b.as_mut_ptr(), 64) };
        streamsim::IpcEventHandle(b)
    }
}

/// (m) The waiting side of the round trip, `n` times: wait for A's record `i` (word 0), make the stream wait on
/// it and synchronize, answer (word 1).
fn ipc_waiter(p: &Process, hs: &Handshake, n: u32) {
    let s = p.create_stream(StreamFlags::NON_BLOCKING).expect("stream");
    let e = p.ipc_open_event_handle(&hs.handle()).expect("open");
    for i in 1..=n {
        hs.wait(0, i);
        p.stream_wait_event(s, e).expect("wait");
        p.stream_synchronize(s).expect("sync");
        hs.set(1, i);
    }
}

/// (m) The recording side: record, hand over, wait for the answer; nanoseconds per round trip.
fn ipc_recorder(p: &Process, hs: &Handshake, n: u32) -> f64 {
    let s = p.create_stream(StreamFlags::NON_BLOCKING).expect("stream");
    let e = p
        .create_event(EventFlags::INTERPROCESS | EventFlags::DISABLE_TIMING)
        .expect("event");
    hs.put_handle(&p.ipc_get_event_handle(e).expect("handle"));
    // One round trip to warm up: the other side has opened the event once it answers.
    p.record_event(e, s).expect("record");
    hs.set(0, 1);
    hs.wait(1, 1);
    let t = Instant::now();
    for i in 2..=n {
        p.record_event(e, s).expect("record");
        hs.set(0, i);
        hs.wait(1, i);
    }
    t.elapsed().as_nanos() as f64 / f64::from(n - 1)
}

/// (m) Nanoseconds per IPC round trip between two OS processes (this program started again as B, on a shared
/// host of its own) and between two simulated processes of one machine.
fn ipc_round_trip(reps: usize, n: u32) -> (Stats, Stats) {
    let exe = std::env::current_exe().expect("the bench's path");
    let k = std::sync::atomic::AtomicU32::new(0);
    let next = || k.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    interleaved(
        reps,
        || {
            let k = next();
            let name = format!("streamsim-bench-{}-{k}", std::process::id());
            let hs = Handshake::open(&name, true);
            let host = format!("bench-{}-{k}", std::process::id());
            let mut child = std::process::Command::new(&exe)
                .args(["--ipc-waiter", &host, &name, &n.to_string()])
                .spawn()
                .expect("starting B");
            let m = Machine::builder()
                .devices(1)
                .shared_host(host)
                .build()
                .expect("machine");
            let ns = ipc_recorder(&m.process(), &hs, n);
            assert!(child.wait().expect("B").success(), "B failed");
            let _ = std::fs::remove_file(Handshake::path(&name));
            ns
        },
        || {
            let k = next();
            let name = format!("streamsim-bench-{}-{k}", std::process::id());
            let hs = Handshake::open(&name, true);
            let m = Machine::builder().devices(1).build().expect("machine");
            let (a, b) = (m.process(), m.process());
            let ns = std::thread::scope(|scope| {
                scope.spawn(|| ipc_waiter(&b, &hs, n));
                ipc_recorder(&a, &hs, n)
            });
            let _ = std::fs::remove_file(Handshake::path(&name));
            ns
        },
    )
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--ipc-waiter") {
        // (m)'s process B.
        let m = Machine::builder()
            .devices(1)
            .shared_host(args[2].clone())
            .build()
            .expect("machine");
        ipc_waiter(
            &m.process(),
            &Handshake::open(&args[3], false),
            args[4].parse().expect("n"),
        );
        return;
    }
    let quick = std::env::var_os("BENCH_QUICK").is_some();
    let reps = if quick { 3 } else { 7 };
    let n_b: usize = if quick { 100_000 } else { 1_000_000 };
    let b_reps = if quick { 3 } else { 5 };
    let n_h = if quick { 20_000 } else { 100_000 };
    println!(
        "streamsim bench ({} build, {} repetitions per side, interleaved; ratios from medians)",
        if cfg!(debug_assertions) {
            "DEBUG — numbers meaningless"
        } else {
            "release"
        },
        reps
    );
    let mut met_all = true;
    // BENCH_ONLY=hijk runs only those figures.
    let only = std::env::var("BENCH_ONLY").ok();
    let want = |f: char| only.as_ref().is_none_or(|o| o.contains(f));

    // (a)
    if want('a') {
        let (sim, raw) = enqueue_cost(reps, 200_000);
        let ratio = sim.median / raw.median;
        let met = ratio <= 3.0;
        met_all &= met;
        println!(
            "(a) enqueue: launch(empty kernel) {} / op (best {}), raw send(Box<closure>) {} / op (best {}); \
             ratio {ratio:.2}x (best {:.2}x); target <= 3x: {}",
            ns(sim.median),
            ns(sim.best),
            ns(raw.median),
            ns(raw.best),
            sim.best / raw.best,
            verdict(met)
        );
    }

    // (b)
    if want('b') {
        for trace in [true, false] {
            let (sim, raw) = throughput(b_reps, n_b, trace);
            let ratio = raw.median / sim.median;
            let met = ratio >= 0.3;
            if trace {
                met_all &= met;
            }
            println!(
                "(b) throughput, {n_b} empty ops end to end{}: sim {} ({:.2} M ops/s, best {}), raw {} ({:.2} M ops/s, \
                 best {}); sim/raw {ratio:.2}x (best {:.2}x); target >= 0.3x: {}",
                if trace {
                    " (trace on, default)"
                } else {
                    " (.trace(false))"
                },
                ns(sim.median),
                n_b as f64 / sim.median * 1e3,
                ns(sim.best),
                ns(raw.median),
                n_b as f64 / raw.median * 1e3,
                ns(raw.best),
                raw.best / sim.best,
                verdict(met)
            );
        }
    }

    // (c)
    if want('c') {
        let n_c = if quick { 5_000 } else { 20_000 };
        let (sim, raw) = round_trip(reps, n_c);
        let ratio = sim.median / raw.median;
        let met = ratio <= 4.0;
        met_all &= met;
        println!(
            "(c) round trip: launch + stream_synchronize {} (best {}), raw send + wait reply {} (best {}); \
             ratio {ratio:.2}x (best {:.2}x); target <= 4x: {}",
            ns(sim.median),
            ns(sim.best),
            ns(raw.median),
            ns(raw.best),
            sim.best / raw.best,
            verdict(met)
        );
    }

    // (d)
    if want('d') {
        let mut walls = Vec::new();
        let mut end = VirtualTime::ZERO;
        for _ in 0..reps {
            let (w, e) = virtual_hour();
            walls.push(w.as_nanos() as f64);
            end = e;
        }
        assert!(
            end >= VirtualTime(3_600_000_000_000),
            "the chain of 3,600 one-second kernels must end after one virtual hour, ended at {end}"
        );
        let wall = Stats::of(walls);
        let met = wall.median < 100e6;
        met_all &= met;
        println!(
            "(d) one virtual hour (3,600 chained 1 s kernels on 4 streams, events, device_synchronize): \
             virtual end {end}, wall {} (best {}); target < 100 ms: {}",
            ns(wall.median),
            ns(wall.best),
            verdict(met)
        );
    }

    // (e)
    if want('e') {
        match idle_cpu() {
            Some((total, of_workers, ticks, workers)) => {
                let met = total < 10_000_000;
                met_all &= met;
                println!(
                    "(e) idle: {workers} live workers (16 streams), 1 s of wall time: process CPU {} \
                     (of which workers {}; /proc/self/stat utime+stime says {} at 10 ms resolution); \
                     target < 10 ms: {}",
                    ns(total as f64),
                    ns(of_workers as f64),
                    ns(ticks as f64),
                    verdict(met)
                );
            }
            None => println!("(e) idle: /proc/self/task/*/schedstat unavailable; not measured"),
        }
    }

    // (f)
    if want('f') {
        let (on, off) = detection_overhead(b_reps, n_b);
        let ratio = on.median / off.median;
        let met = ratio <= 2.0;
        met_all &= met;
        println!(
            "(f) race detection, {n_b} kernels declaring a read and a write of a buffer, end to end: detection on \
             {} ({:.2} M ops/s, best {}), off {} ({:.2} M ops/s, best {}); on/off {ratio:.2}x (best {:.2}x); \
             target <= 2x: {}",
            ns(on.median),
            n_b as f64 / on.median * 1e3,
            ns(on.best),
            ns(off.median),
            n_b as f64 / off.median * 1e3,
            ns(off.best),
            on.best / off.best,
            verdict(met)
        );
    }

    // (g)
    if want('g') {
        let progs = programs(if quick { 300 } else { 2_000 });
        let (end_to_end, warm) = property_throughput(b_reps, &progs);
        let ratio = end_to_end.median / warm.median;
        let met = ratio <= 1.25;
        met_all &= met;
        println!(
            "(g) property tests, {} programs of testing::program(Limits::default()): end to end {} per program \
             ({:.0} programs/s, best {}), the run alone on a machine built beforehand {} ({:.0}/s); ratio \
             {ratio:.2}x (best {:.2}x); target <= 1.25x: {}",
            progs.len(),
            ns(end_to_end.median),
            1e9 / end_to_end.median,
            ns(end_to_end.best),
            ns(warm.median),
            1e9 / warm.median,
            end_to_end.best / warm.best,
            verdict(met)
        );
    }

    // (h)
    if want('h') {
        let (idle, none) = record_next_to_idle(reps, n_h);
        let ratio = idle.median / none.median;
        let met = ratio <= 1.5;
        met_all &= met;
        println!(
            "(h) record_event next to 4,000 idle streams {} / op (best {}), next to none {} / op (best {}); ratio \
             {ratio:.2}x (best {:.2}x); target <= 1.5x: {}",
            ns(idle.median),
            ns(idle.best),
            ns(none.median),
            ns(none.best),
            idle.best / none.best,
            verdict(met)
        );
    }

    // (i)
    if want('i') {
        let n_i = if quick { 5_000 } else { 20_000 };
        let (aged, fresh) = loop_after_history(reps, 10_000, n_i);
        let ratio = aged.median / fresh.median;
        let met = ratio <= 1.3;
        met_all &= met;
        println!(
            "(i) 2-stream launch/record/wait ping-pong after 10,000 stream lifetimes {} / iteration (best {}), on a \
             fresh machine {} (best {}); ratio {ratio:.2}x (best {:.2}x); target <= 1.3x: {}",
            ns(aged.median),
            ns(aged.best),
            ns(fresh.median),
            ns(fresh.best),
            aged.best / fresh.best,
            verdict(met)
        );
        let n_mem = if quick { 20_000 } else { 100_000 };
        match lifetime_loop_memory(1_000, n_mem) {
            Some((before, after, ran)) => {
                let growth = after as i64 - before as i64;
                let met = growth < 32 << 20 && ran >= n_mem;
                met_all &= met;
                println!(
                    "(i) create/launch/synchronize/destroy loop, resident memory after 1,000 iterations {}, after \
                     {ran} more {}: growth {}; target < 32 MiB after {n_mem}: {}",
                    mib(before as i64),
                    mib(after as i64),
                    mib(growth),
                    verdict(met)
                );
            }
            None => println!("(i) memory: /proc/self/statm unavailable; not measured"),
        }
    }

    // (j)
    if want('j') {
        let (rec, launch) = record_vs_launch(reps, n_h);
        let ratio = rec.median / launch.median;
        let met = ratio <= 4.0;
        met_all &= met;
        println!(
            "(j) record_event {} / op (best {}), launch(empty kernel) {} / op (best {}); ratio {ratio:.2}x (best \
             {:.2}x); target <= 4x: {}",
            ns(rec.median),
            ns(rec.best),
            ns(launch.median),
            ns(launch.best),
            rec.best / launch.best,
            verdict(met)
        );
    }

    // (k)
    if want('k') {
        let n_k = if quick { 50_000 } else { 200_000 };
        let (c, rust) = c_launch_vs_rust(reps, n_k);
        let ratio = c.median / rust.median;
        let met = ratio <= 1.3;
        met_all &= met;
        println!(
            "(k) C launch (cudasimLaunchKernel) {} / op (best {}), Rust launch {} / op (best {}); ratio {ratio:.2}x \
             (best {:.2}x); target <= 1.3x: {}",
            ns(c.median),
            ns(c.best),
            ns(rust.median),
            ns(rust.best),
            c.best / rust.best,
            verdict(met)
        );
    }

    // (l)
    if want('l') {
        let (warm_l, n_l) = if quick {
            (200_000, 1_000_000)
        } else {
            (2_000_000, 10_000_000)
        };
        match long_run_memory(warm_l, n_l) {
            Some((before, after, ran, wall)) => {
                let growth = after as i64 - before as i64;
                let met = growth < 32 << 20 && ran >= n_l;
                met_all &= met;
                println!(
                    "(l) {ran} operations, default settings (trace and race detection on): resident memory after \
                     {warm_l} {}, at the end {}: growth {} (wall {}); target < 32 MiB after {n_l}: {}",
                    mib(before as i64),
                    mib(after as i64),
                    mib(growth),
                    ns(wall.as_nanos() as f64),
                    verdict(met)
                );
            }
            None => println!("(l) memory: /proc/self/statm unavailable; not measured"),
        }
    }

    // (m)
    if want('m') {
        ipc_figure(quick);
    }

    // (n)
    if want('n') {
        let n_g: usize = if quick { 100_000 } else { 1_000_000 };
        let (on, off) = interleaved(
            b_reps,
            || pool_loop(RaceDetection::Collect, n_g, 0, &mut Vec::new()),
            || pool_loop(RaceDetection::Off, n_g, 0, &mut Vec::new()),
        );
        let ratio = on.median / off.median;
        let met = ratio <= 2.0;
        met_all &= met;
        println!(
            "(n) stream-ordered memory, {n_g} iterations of malloc_async + kernel + free_async on 4 streams: \
         detection on {} ({} / iteration, best {}), off {} ({} / iteration, best {}); on/off {ratio:.2}x \
         (best {:.2}x); target <= 2x: {}",
            ns(on.median),
            ns(on.median / n_g as f64),
            ns(on.best),
            ns(off.median),
            ns(off.median / n_g as f64),
            ns(off.best),
            on.best / off.best,
            verdict(met)
        );
        let mut samples = Vec::new();
        pool_loop(RaceDetection::Collect, n_g, n_g / 10, &mut samples);
        match (samples.first(), samples.iter().max(), samples.last()) {
            (Some(&first), Some(&max), Some(&last)) => {
                let mib = |b: u64| b as f64 / (1 << 20) as f64;
                let growth = max.saturating_sub(first);
                let met = growth <= 4 << 20;
                met_all &= met;
                println!(
                    "(n) memory over those {n_g} iterations (detection on): resident {:.1} MiB after {}, at most \
                 {:.1} MiB, {:.1} MiB at the end (samples every {}: {}); growth {:.2} MiB; target flat \
                 (<= 4 MiB): {}",
                    mib(first),
                    n_g / 10,
                    mib(max),
                    mib(last),
                    n_g / 10,
                    samples
                        .iter()
                        .map(|&b| format!("{:.1}", mib(b)))
                        .collect::<Vec<_>>()
                        .join(" "),
                    mib(growth),
                    verdict(met)
                );
            }
            _ => println!("(n) memory: /proc/self/statm unavailable; not measured"),
        }
    }

    // (o)
    if want('o') {
        let ((qs, cs), (qa, ca)) = queue_vs_crossbeam(reps, n_b);
        let send = qs.median / cs.median;
        let all = qa.median / ca.median;
        let met = send <= 1.0 && all <= 1.0;
        met_all &= met;
        println!(
            "(o) stream queue vs crossbeam-channel, {n_b} 56-byte items to a consumer thread: send {} (best {}) vs \
             {} (best {}), ratio {send:.2}x; end to end {:.1} M items/s (best {:.1}) vs {:.1} M/s (best {:.1}), \
             time ratio {all:.2}x; target queue <= crossbeam on both: {}",
            ns(qs.median),
            ns(qs.best),
            ns(cs.median),
            ns(cs.best),
            1e3 / qa.median,
            1e3 / qa.best,
            1e3 / ca.median,
            1e3 / ca.best,
            verdict(met)
        );
    }

    println!(
        "{}",
        if met_all {
            "all targets met"
        } else {
            "some targets missed (see above)"
        }
    );
}

/// (m), printed.
fn ipc_figure(quick: bool) {
    let n_h = if quick { 2_000 } else { 10_000 };
    let (os, sim) = ipc_round_trip(if quick { 3 } else { 5 }, n_h);
    println!(
        "(m) IPC round trip (record in A; in B stream_wait_event + stream_synchronize; futex handshake both \
         ways): two OS processes on a shared host {} (best {}), two simulated processes of one machine {} \
         (best {}); ratio {:.2}x (best {:.2}x); no target",
        ns(os.median),
        ns(os.best),
        ns(sim.median),
        ns(sim.best),
        os.median / sim.median,
        os.best / sim.best
    );
}
