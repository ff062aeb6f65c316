//! Fault injection on the shared host (`src/engine/host/`), in the manner of an adversarial review: a recording
//! OS process killed with SIGKILL at seeded random points while another waits on its records, and seeded random
//! corruption of a live segment while two processes exchange records through it. The property is always the
//! same: nothing hangs, nothing crashes, and what is said is the documented message. Every wait is bounded (a
//! child that outlives its limit is killed and the test fails with its output), the seeds are fixed and printed
//! in every failure message (`FAULT_SEED=<n>` runs one seed), and the whole module takes a few seconds.
//!
//! The children are this test binary started again (`--exact fault_injection::child_… --ignored`), their role
//! in the environment, as in `os_children.rs`; handles travel through files.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use streamsim::{EventFlags, IpcEventHandle, StreamFlags};

use crate::c_programs::{toolchain, wait_for};
use crate::os_processes::Run;
use crate::shared_host_faults::{machine, segment_path, within};

const ROLE: &str = "STREAMSIM_FI_ROLE";
const HOST: &str = "STREAMSIM_FI_HOST";
const DIR: &str = "STREAMSIM_FI_DIR";
const ITERATIONS: &str = "STREAMSIM_FI_ITERATIONS";

/// How long any child may run before it is killed and the test fails.
const LIMIT: Duration = Duration::from_secs(20);

/// The seeds a test runs with (`FAULT_SEED` picks one).
fn seeds(default: &[u64]) -> Vec<u64> {
    match std::env::var("FAULT_SEED") {
        Ok(s) => vec![s.parse().expect("FAULT_SEED is a number")],
        Err(_) => default.to_vec(),
    }
}

/// A small seeded generator (splitmix64): the same draws for the same seed on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn spawn_child(run: &mut Run, name: &str, role: &str, dir: &Path, iterations: u32) -> usize {
    let exe = std::env::current_exe().expect("the test binary");
    let mut cmd = std::process::Command::new(exe);
    cmd.args([
        "--exact",
        &format!("fault_injection::{name}"),
        "--ignored",
        "--nocapture",
        "--test-threads=1",
    ])
    .env(ROLE, role)
    .env(HOST, &run.host)
    .env(DIR, dir)
    .env(ITERATIONS, iterations.to_string())
    .env_remove("STREAMSIM_MACHINE")
    .stdout(std::process::Stdio::piped())
    .stderr(std::process::Stdio::piped());
    run.children.push(cmd.spawn().expect("starting a child"));
    run.children.len() - 1
}

fn child_env() -> Option<(String, String, PathBuf, u32)> {
    Some((
        std::env::var(ROLE).ok()?,
        std::env::var(HOST).ok()?,
        PathBuf::from(std::env::var(DIR).ok()?),
        std::env::var(ITERATIONS).ok()?.parse().ok()?,
    ))
}

fn put(path: &Path, bytes: &[u8]) {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes).expect("writing a file");
    std::fs::rename(&tmp, path).expect("renaming it");
}

/// The bytes of `path` once it exists; `None` after [`LIMIT`].
fn take(path: &Path) -> Option<Vec<u8>> {
    let start = Instant::now();
    while start.elapsed() < LIMIT {
        if let Ok(b) = std::fs::read(path) {
            return Some(b);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    None
}

fn files(run: &Run, what: &str) -> PathBuf {
    let dir = toolchain().out_dir.join(format!("{}.{what}", run.host));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// An exported (interprocess, untimed) event of `p`, its handle, and a non-blocking stream.
fn exported_event_and_stream(
    p: &streamsim::Process,
) -> (streamsim::Event, IpcEventHandle, streamsim::Stream) {
    let e = p
        .create_event(EventFlags::INTERPROCESS | EventFlags::DISABLE_TIMING)
        .unwrap();
    let h = p.ipc_get_event_handle(e).expect("exporting the event");
    (e, h, p.create_stream(StreamFlags::NON_BLOCKING).unwrap())
}

/// The recording child. `stall`: its stream reaches the exported event's record only after a host function
/// that does not return (for 30 s); `steady`: it records the event after a 1 ms host function, `ITERATIONS`
/// times, then exits. It writes the event's handle to `handle`, and `ready` once the first record is queued.
/// Errors of its calls are ignored (a corrupted segment may make them fail): it must only never hang or crash.
#[test]
#[ignore = "a child of the fault-injection tests"]
fn child_recorder() {
    let Some((role, host, dir, iterations)) = child_env() else {
        return;
    };
    let m = machine(&host);
    let p = m.process();
    let (e, h, s) = exported_event_and_stream(&p);
    put(&dir.join("handle"), &h.0);
    if role == "stall" {
        p.launch_host_func(s, || std::thread::sleep(Duration::from_secs(30)))
            .unwrap();
        let _ = p.record_event(e, s);
        put(&dir.join("ready"), b"1");
        std::thread::sleep(Duration::from_secs(30));
        return;
    }
    for i in 0..iterations {
        let _ = p.launch_host_func(s, || std::thread::sleep(Duration::from_millis(1)));
        let _ = p.record_event(e, s);
        if i == 0 {
            put(&dir.join("ready"), b"1");
        }
        if i % 8 == 7 {
            let _ = p.stream_synchronize(s);
        }
    }
    let _ = p.stream_synchronize(s);
    println!("recorder: done");
}

/// The waiting child: opens the recorder's event and, `ITERATIONS` times, makes its stream wait on the latest
/// record and synchronizes; writes `opened` before the first wait. Prints how many iterations succeeded.
#[test]
#[ignore = "a child of the fault-injection tests"]
fn child_waiter() {
    let Some((_, host, dir, iterations)) = child_env() else {
        return;
    };
    let m = machine(&host);
    let p = m.process();
    let h = IpcEventHandle(
        take(&dir.join("handle"))
            .expect("the handle")
            .try_into()
            .expect("64 bytes"),
    );
    let e = p.ipc_open_event_handle(&h).expect("opening the handle");
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    put(&dir.join("opened"), b"1");
    let mut ok = 0;
    for _ in 0..iterations {
        if p.stream_wait_event(s, e).is_ok() && p.stream_synchronize(s).is_ok() {
            ok += 1;
        }
    }
    println!("waiter: {ok} of {iterations} iterations succeeded");
}

fn kill(run: &mut Run, i: usize) {
    let c = &mut run.children[i];
    let _ = c.kill();
    let _ = c.wait();
}

/// How often `text` occurs in `haystack`.
fn count(haystack: &str, text: &str) -> usize {
    haystack.matches(text).count()
}

/// Issue 27 item 5 (ipc-between-processes.md · Events across OS processes · the recording OS process died
/// before the record ran): the recorder's record sits behind a host function that does not return, the waiter
/// starts 2,000 iterations of wait + synchronize on it, and the recorder is killed (SIGKILL). The first wait
/// ends when the death is seen; the death is remembered, so the 1,999 after it cost nothing (before: 20 ms of
/// real time each, 40 s in all: the 20 s limit fails the test). The waiter succeeds in every iteration and
/// says once on standard error which OS process left.
#[test]
fn a_dead_recorder_is_remembered_so_a_long_wait_loop_on_it_ends_at_once() {
    let mut run = Run::new("fi-dead");
    let dir = files(&run, "files");
    let r = spawn_child(&mut run, "child_recorder", "stall", &dir, 0);
    assert!(
        take(&dir.join("ready")).is_some(),
        "the recorder never got ready"
    );
    let w = spawn_child(&mut run, "child_waiter", "waiter", &dir, 2000);
    assert!(
        take(&dir.join("opened")).is_some(),
        "the waiter never opened the handle"
    );
    let pid = run.children[r].id();
    kill(&mut run, r);
    let exe = std::env::current_exe().unwrap();
    let out = wait_for(&exe, &[], &mut run.children[w], LIMIT);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("waiter: 2000 of 2000 iterations succeeded"),
        "{stdout}\n{stderr}"
    );
    let said = format!(
        "streamsim: OS process {pid} left shared host {:?} before its records ran",
        run.host
    );
    assert_eq!(count(&stderr, &said), 1, "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 27 item 12, kill -9 (ipc-between-processes.md · the shared host · a process is killed): the recorder
/// records its event after a 1 ms host function, again and again; the waiter waits on each latest record; the
/// recorder is killed with SIGKILL after a seeded random delay (0–40 ms after the waiter opened the handle: any
/// point of its loop, in a host function, between a record and a synchronize, or before its first). The waiter
/// never hangs, every one of its iterations succeeds, and it says at most once which OS process left (exactly
/// when one of its waits found a record that had not run).
#[test]
fn a_recorder_killed_at_random_points_never_hangs_its_waiter() {
    for seed in seeds(&[11, 12, 13]) {
        let mut rng = Rng(seed);
        let mut run = Run::new("fi-kill");
        let dir = files(&run, "files");
        let r = spawn_child(&mut run, "child_recorder", "steady", &dir, 10_000);
        assert!(
            take(&dir.join("ready")).is_some(),
            "seed {seed}: the recorder never got ready"
        );
        let w = spawn_child(&mut run, "child_waiter", "waiter", &dir, 200);
        assert!(
            take(&dir.join("opened")).is_some(),
            "seed {seed}: the waiter never opened"
        );
        let delay = rng.below(40);
        std::thread::sleep(Duration::from_millis(delay));
        let pid = run.children[r].id();
        kill(&mut run, r);
        let exe = std::env::current_exe().unwrap();
        let out = wait_for(&exe, &[], &mut run.children[w], LIMIT);
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert!(
            out.status.success() && stdout.contains("waiter: 200 of 200 iterations succeeded"),
            "seed {seed} (kill after {delay} ms): {stdout}\n{stderr}"
        );
        let said = format!(
            "streamsim: OS process {pid} left shared host {:?}",
            run.host
        );
        assert!(
            count(&stderr, &said) <= 1
                && stderr
                    .lines()
                    .filter(|l| l.starts_with("streamsim:"))
                    .all(|l| l.starts_with(&said)
                        && l.ends_with(
                            "before its records ran; waits on them end (as if they had run)"
                        )),
            "seed {seed} (kill after {delay} ms): {stderr}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Where a corruption may land: the header, the member table, and the first event, stream progress and memory
/// slots (the ones a run uses), as (start, length) in bytes of the segment (`host/layout.rs`).
const TARGETS: [(u64, u64); 4] = [
    (0, 4096 + 64 * 64),
    (8192, 4 * 4096),
    (8192 + 1024 * 4096, 8 * 128),
    (8192 + 1024 * 4096 + 1024 * 128, 1024),
];

/// Issue 27 item 12, corruption (ipc-between-processes.md · the shared host · a hostile or malformed segment):
/// while a recorder process records its exported event 300 times and a waiter in this process waits on each
/// latest record, 64 seeded random 32-bit words of the live segment (header, member table, the used event,
/// progress and memory slots; values: random, 0, all ones, small member indices, lock-word shapes) are
/// overwritten at seeded moments. Nothing crashes (the recorder exits normally) and nothing hangs (both finish
/// within their limits); calls may fail, answers may be wrong.
#[test]
fn random_corruption_of_a_live_segment_never_crashes_or_hangs() {
    use std::os::unix::fs::FileExt as _;
    for seed in seeds(&[21, 22]) {
        let mut rng = Rng(seed);
        let mut run = Run::new("fi-corrupt");
        let dir = files(&run, "files");
        let r = spawn_child(&mut run, "child_recorder", "steady", &dir, 300);
        let handle = take(&dir.join("handle")).expect("the handle");
        let host = run.host.clone();
        let (opened, is_open) = std::sync::mpsc::channel();
        let waiter = std::thread::spawn(move || {
            let m = machine(&host);
            let p = m.process();
            let h = IpcEventHandle(handle.try_into().expect("64 bytes"));
            let e = p.ipc_open_event_handle(&h);
            let _ = opened.send(e.is_ok());
            let Ok(e) = e else {
                return 0;
            };
            let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
            let mut ok = 0;
            for _ in 0..300 {
                if p.stream_wait_event(s, e).is_ok() && p.stream_synchronize(s).is_ok() {
                    ok += 1;
                }
            }
            // The machine is kept: dropping it would leave the host, which the recorder may still use.
            std::mem::forget(m);
            ok
        });
        // The waiter is a member before the corruption starts (a joiner would refuse a corrupted header).
        assert_eq!(
            is_open.recv_timeout(LIMIT),
            Ok(true),
            "seed {seed}: the waiter could not open the handle"
        );
        let seg = std::fs::OpenOptions::new()
            .write(true)
            .open(segment_path(&run.host))
            .expect("the segment");
        let mut done = Vec::new();
        for _ in 0..64 {
            let (start, len) = TARGETS[rng.below(TARGETS.len() as u64) as usize];
            let off = (start + rng.below(len)) & !3;
            let value = match rng.below(6) {
                0 => 0,
                1 => u32::MAX,
                2 => 1 + rng.below(3) as u32,
                3 => (1 << 31) | (1 + rng.below(3) as u32),
                _ => rng.next() as u32,
            };
            let _ = seg.write_all_at(&value.to_le_bytes(), off);
            done.push((off, value));
            // Spread over the recorder's run (about 300 ms).
            std::thread::sleep(Duration::from_micros(rng.below(5000)));
        }
        let exe = std::env::current_exe().unwrap();
        let out = wait_for(&exe, &[], &mut run.children[r], LIMIT);
        assert!(
            out.status.success(),
            "seed {seed}: the recorder died ({:?}) after corruption {done:?}\n{}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let ok = within("the waiter on a corrupted segment", move || waiter.join()).unwrap_or_else(
            |_| panic!("seed {seed}: the waiter panicked after corruption {done:?}"),
        );
        assert!(ok <= 300, "seed {seed}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The watchdog's limit in the cross-process hang test.
const HANG_LIMIT: Duration = Duration::from_millis(300);

fn watched_machine(host: &str) -> streamsim::Machine {
    streamsim::Machine::builder()
        .devices(1)
        .shared_host(host)
        .watchdog(Some(HANG_LIMIT))
        .build()
        .expect("machine")
}

/// Polls `path` until it exists (at most [`LIMIT`]): whether it does.
fn appears(path: &Path) -> bool {
    take(path).is_some()
}

/// The machine's first hang report for operation `seq`, once the watchdog made one (at most [`LIMIT`]).
fn report_for(m: &streamsim::Machine, seq: u64) -> Option<streamsim::HangReport> {
    let start = Instant::now();
    while start.elapsed() < LIMIT {
        if let Some(r) = m.hang_reports().into_iter().find(|r| r.seq == seq) {
            return Some(r);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    None
}

/// The recorder of the cross-process hang test: its stream runs a host function until `waiting` exists (op 1),
/// then one until `release` exists (op 2, the stall), then records its exported event (op 3), queued at once.
/// It prints its watchdog's report on op 2 and writes `r-reported`, then synchronizes once released.
#[test]
#[ignore = "a child of the fault-injection tests"]
fn child_stalled_recorder() {
    let Some((_, host, dir, _)) = child_env() else {
        return;
    };
    let m = watched_machine(&host);
    let p = m.process();
    let (e, h, s) = exported_event_and_stream(&p);
    let (waiting, release) = (dir.join("waiting"), dir.join("release"));
    p.launch_host_func(s, move || assert!(appears(&waiting)))
        .unwrap();
    p.launch_host_func(s, move || assert!(appears(&release)))
        .unwrap();
    p.record_event(e, s).unwrap();
    put(&dir.join("r-handle"), &h.0);
    match report_for(&m, 2) {
        Some(r) => println!("recorder report: {r}"),
        None => println!("recorder: no report"),
    }
    put(&dir.join("r-reported"), b"1");
    println!("recorder: synchronize {:?}", p.stream_synchronize(s));
}

/// The middle process: its stream waits for the recorder's record (op 1), then records its own exported event
/// (op 2). It writes `waiting` once a query finds its stream stalled on the other process, prints its
/// watchdog's report on op 1 and writes `w-reported`, then synchronizes.
#[test]
#[ignore = "a child of the fault-injection tests"]
fn child_chain_waiter() {
    let Some((_, host, dir, _)) = child_env() else {
        return;
    };
    let m = watched_machine(&host);
    let p = m.process();
    let h = IpcEventHandle(
        take(&dir.join("r-handle"))
            .expect("the handle")
            .try_into()
            .expect("64 bytes"),
    );
    let er = p.ipc_open_event_handle(&h).expect("opening the handle");
    let (ew, hw, s) = exported_event_and_stream(&p);
    p.stream_wait_event(s, er).unwrap();
    p.record_event(ew, s).unwrap();
    put(&dir.join("w-handle"), &hw.0);
    // A query answers "not ready" at once only once the worker waits on the other process.
    let start = Instant::now();
    while p.stream_query(s) != Ok(streamsim::Status::NotReady) && start.elapsed() < LIMIT {
        std::thread::sleep(Duration::from_millis(1));
    }
    put(&dir.join("waiting"), b"1");
    match report_for(&m, 1) {
        Some(r) => println!("waiter report: {r}"),
        None => println!("waiter: no report"),
    }
    put(&dir.join("w-reported"), b"1");
    println!("waiter: synchronize {:?}", p.stream_synchronize(s));
}

/// Issue 27 item 4 (schedules-and-hangs.md · the watchdog · a wait for a record of another OS process): three
/// OS processes on one shared host, each with a 300 ms watchdog. The recorder's record sits behind a host
/// function that does not return until released; the middle process's stream waits for it and records its own
/// event; this process's stream waits for that. Every process's report reaches across the others: this one
/// names the middle process's operation (waiting for a record of another process) and the recorder's (behind
/// its running host function); the middle one names the recorder's; the recorder's report on its host function
/// names the middle process's operation waiting for it. Nothing is stopped: once released (after all three
/// reports), every synchronize succeeds.
#[test]
fn a_wait_across_processes_that_is_not_released_is_reported_with_the_chain_across_them() {
    let mut run = Run::new("fi-chain");
    let dir = files(&run, "files");
    let r = spawn_child(&mut run, "child_stalled_recorder", "r", &dir, 0);
    let w = spawn_child(&mut run, "child_chain_waiter", "w", &dir, 0);
    let (rpid, wpid) = (run.children[r].id(), run.children[w].id());
    let m = watched_machine(&run.host);
    let p = m.process();
    let h = IpcEventHandle(
        take(&dir.join("w-handle"))
            .expect("the middle process's handle")
            .try_into()
            .expect("64 bytes"),
    );
    let ew = p.ipc_open_event_handle(&h).expect("opening the handle");
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    assert!(
        appears(&dir.join("waiting")),
        "the middle process never waited"
    );
    p.stream_wait_event(s, ew).unwrap();
    let here = report_for(&m, 1).map(|r| r.to_string());
    // Released once every process has made its report (or given up).
    assert!(appears(&dir.join("w-reported")) && appears(&dir.join("r-reported")));
    put(&dir.join("release"), b"1");
    assert_eq!(p.stream_synchronize(s), Ok(()));
    let exe = std::env::current_exe().unwrap();
    let outs: Vec<String> = [w, r]
        .into_iter()
        .map(|i| {
            let o = wait_for(&exe, &[], &mut run.children[i], LIMIT);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            format!(
                "{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            )
        })
        .collect();
    let recorder_op3 = format!(
        "stream 1 of process 0 op 3 in OS process {rpid}, behind its op 2, a kernel body, host function or \
         callback that is running and has not returned"
    );
    assert_eq!(
        here.as_deref(),
        Some(
            format!(
                "watchdog: \"wait event 1\" (stream 1 of process 0, op 1) has waited 300 ms of real \
                 time for a record of another OS process that has not run there: stream 1 of process 0 op 2 in OS \
                 process {wpid}, waiting for a record of another OS process → {recorder_op3}"
            )
            .as_str()
        ),
        "{outs:?}"
    );
    assert!(
        outs[0].contains(&format!(
            "waiter report: watchdog: \"wait event 1\" (stream 1 of process 0, op 1) has waited \
             300 ms of real time for a record of another OS process that has not run there: {recorder_op3}\n"
        )),
        "{}",
        outs[0]
    );
    assert!(
        outs[0].contains("waiter: synchronize Ok(())"),
        "{}",
        outs[0]
    );
    assert!(
        outs[1].contains(&format!(
            "recorder report: watchdog: host-fn \"host function\" (stream 1 of process 0, op 2) has not returned \
             after 300 ms of real time; waiting for it: stream 1 of process 0 op 1 in OS process {wpid}, waiting \
             for a record of another OS process (if it waits for one of them, that is a deadlock under any \
             schedule)\n"
        )),
        "{}",
        outs[1]
    );
    assert!(
        outs[1].contains("recorder: synchronize Ok(())"),
        "{}",
        outs[1]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
