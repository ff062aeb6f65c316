//! Rust programs as real OS processes on one shared host (`MachineBuilder::shared_host`): the test binary
//! starts itself again as each child (`--exact os_children::child_… --ignored`, its role in the environment).
//! Handles travel through files in the build directory; host-side handshakes through a small shared-memory
//! object of the test's (futex words). Every run has a host name of its own; `Run` (os_processes.rs) kills what
//! is left and removes the host's objects even when a test fails.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use streamsim::{
    EventFlags, IpcEventHandle, IpcMemHandle, Kernel, Machine, Process, RaceReport, StreamFlags,
};

use crate::c_programs::{assert_success, toolchain};
use crate::os_processes::{Run, leftovers};

/// The environment variables that give a child its job.
const ROLE: &str = "STREAMSIM_TEST_ROLE";
const HOST: &str = "STREAMSIM_TEST_HOST";
const DIR: &str = "STREAMSIM_TEST_DIR";

/// How long a child waits for a file or a word of another before it fails.
const PATIENCE: Duration = Duration::from_secs(50);

/// Starts child `name` (a test of this module) with `role` on `run`'s host, files in `dir`.
fn spawn_child(run: &mut Run, name: &str, role: &str, dir: &Path) -> usize {
    let exe = std::env::current_exe().expect("the test binary");
    let mut cmd = std::process::Command::new(exe);
    cmd.args([
        "--exact",
        &format!("os_children::{name}"),
        "--ignored",
        "--nocapture",
        "--test-threads=1",
    ])
    .env(ROLE, role)
    .env(HOST, &run.host)
    .env(DIR, dir)
    .env_remove("STREAMSIM_MACHINE")
    .stdout(std::process::Stdio::piped())
    .stderr(std::process::Stdio::piped());
    run.children.push(cmd.spawn().expect("starting a child"));
    run.children.len() - 1
}

/// The child's environment: (role, host, directory); `None` when the test runs by itself (not as a child).
fn child_env() -> Option<(String, String, PathBuf)> {
    Some((
        std::env::var(ROLE).ok()?,
        std::env::var(HOST).ok()?,
        PathBuf::from(std::env::var(DIR).ok()?),
    ))
}

fn machine(host: &str, devices: u32) -> Machine {
    Machine::builder()
        .devices(devices)
        .shared_host(host)
        .build()
        .expect("machine")
}

/// Writes `bytes` to `path` atomically (a reader never sees part of it).
fn put(path: &Path, bytes: &[u8]) {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes).expect("writing a file");
    std::fs::rename(&tmp, path).expect("renaming it");
}

/// The bytes of `path`, once it exists.
fn take(path: &Path) -> Vec<u8> {
    let start = Instant::now();
    loop {
        if let Ok(b) = std::fs::read(path) {
            return b;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "{} never appeared",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn mem_handle(b: &[u8]) -> IpcMemHandle {
    IpcMemHandle(b.try_into().expect("64 bytes"))
}

fn event_handle(b: &[u8]) -> IpcEventHandle {
    IpcEventHandle(b.try_into().expect("64 bytes"))
}

fn ipc_event(p: &Process) -> streamsim::Event {
    p.create_event(EventFlags::INTERPROCESS | EventFlags::DISABLE_TIMING)
        .unwrap()
}

const N: u64 = 256;

/// Two Rust programs as two OS processes on one shared host. A's kernel writes a pattern into its buffer
/// and records an IPC event; B maps the buffer, waits on the event, reads the pattern (the bytes are A's, not
/// a copy), writes 16 bytes back and records its own IPC event, which A waits on before reading them. The wait
/// in B takes A's record's virtual time (both print it: the same). Then A's kernel `late write` writes bytes
/// 32..64 and B's kernel `unordered read` reads them with no wait in between: B reports the race, naming A's
/// OS process as the writer and its own as the reader; A, whose accesses were all ordered, reports none.
#[test]
fn two_rust_os_processes_share_events_and_device_memory() {
    let mut run = Run::new("rust2");
    let dir = toolchain().out_dir.join(format!("{}.files", run.host));
    std::fs::create_dir_all(&dir).unwrap();
    let a = spawn_child(&mut run, "child_pair", "a", &dir);
    let b = spawn_child(&mut run, "child_pair", "b", &dir);
    let exe = std::env::current_exe().unwrap();
    let out_b = assert_success("B", &run.wait(&exe, b));
    let out_a = assert_success("A", &run.wait(&exe, a));
    let (pa, pb) = (run.children[a].id(), run.children[b].id());
    assert!(
        out_a.contains("A: read back [176, 176, 176, 176]"),
        "{out_a}"
    );
    assert!(out_a.contains("A: 0 races"), "{out_a}");
    assert!(out_b.contains("B: read the pattern"), "{out_b}");
    assert!(out_b.contains("B: 1 race reports"), "{out_b}");
    let time = |out: &str, tag: &str| {
        out.lines()
            .find_map(|l| l.find(tag).map(|i| &l[i + tag.len()..]))
            .unwrap_or_else(|| panic!("no {tag:?} in {out}"))
            .to_string()
    };
    assert_eq!(
        time(&out_a, "A: record at "),
        time(&out_b, "B: waited for the record at ")
    );
    assert!(
        out_b.contains(&format!(
            "B: 1 race: kernel `late write` in OS process {pa} writes, kernel `unordered read` in OS process {pb} \
             reads, allocation #1 bytes 32..64"
        )),
        "{out_b}"
    );
    assert_eq!(leftovers(&run.host), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "a child of two_rust_os_processes_share_events_and_device_memory"]
fn child_pair() {
    let Some((role, host, dir)) = child_env() else {
        return;
    };
    let m = machine(&host, 2);
    let p = m.process();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    if role == "a" {
        let buf = p.malloc(N).unwrap();
        let e = ipc_event(&p);
        let hm = p.ipc_get_mem_handle(buf).unwrap();
        let he = p.ipc_get_event_handle(e).unwrap();
        let pattern: Vec<u8> = (0..N).map(|i| (i * 3) as u8).collect();
        p.launch(
            s,
            Kernel::new("produce")
                .duration(Duration::from_millis(1))
                .writes(buf, N)
                .body(move |ctx| ctx.write(buf, &pattern)),
        )
        .unwrap();
        p.record_event(e, s).unwrap();
        println!("A: record at {:?}", p.event_record_time(e).unwrap());
        put(&dir.join("a"), &[hm.0, he.0].concat());
        let hb = event_handle(&take(&dir.join("b")));
        let eb = p.ipc_open_event_handle(&hb).unwrap();
        p.stream_wait_event(s, eb).unwrap();
        let mut back = [0u8; 4];
        p.memcpy_async(&mut back[..], buf, 4, s).unwrap();
        println!("A: read back {back:?}");
        p.launch(s, Kernel::new("late write").writes(buf.offset(32), 32))
            .unwrap();
        p.stream_synchronize(s).unwrap();
        put(&dir.join("late"), b"1");
        take(&dir.join("b-done"));
        println!("A: {} races", m.race_reports().len());
    } else {
        let got = take(&dir.join("a"));
        let (hm, he) = (mem_handle(&got[..64]), event_handle(&got[64..]));
        let mapped = p.ipc_open_mem_handle(&hm, true).unwrap();
        let ea = p.ipc_open_event_handle(&he).unwrap();
        p.stream_wait_event(s, ea).unwrap();
        println!(
            "B: waited for the record at {:?}",
            p.event_record_time(ea).unwrap()
        );
        let mut out = vec![0u8; N as usize];
        p.memcpy_async(&mut out[..], mapped, N, s).unwrap();
        let pattern: Vec<u8> = (0..N).map(|i| (i * 3) as u8).collect();
        assert_eq!(out, pattern, "B reads A's bytes");
        // A second simulated process of this OS process imports the same memory and waits on A's event too:
        // its own pointer, the same bytes (simulated and real processes mix). It reads bytes 128..256, which
        // nobody writes later.
        let p2 = m.process();
        let mapped2 = p2.ipc_open_mem_handle(&hm, false).unwrap();
        assert_ne!(mapped2, mapped);
        let s2 = p2.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        p2.stream_wait_event(s2, p2.ipc_open_event_handle(&he).unwrap())
            .unwrap();
        let mut out2 = vec![0u8; 128];
        p2.memcpy_async(&mut out2[..], mapped2.offset(128), 128, s2)
            .unwrap();
        assert_eq!(
            out2,
            pattern[128..],
            "a second simulated process reads A's bytes"
        );
        p2.ipc_close_mem_handle(mapped2).unwrap();
        // B maps the same import on its device 1 too: another pointer, the same bytes.
        p.set_device(1).unwrap();
        let on1 = p.ipc_open_mem_handle(&hm, true).unwrap();
        assert_ne!(on1, mapped);
        let mut out1 = vec![0u8; 4];
        p.memcpy(&mut out1[..], on1, 4).unwrap();
        assert_eq!(
            out1,
            pattern[..4],
            "the mapping on device 1 reads A's bytes"
        );
        p.ipc_close_mem_handle(on1).unwrap();
        p.set_device(0).unwrap();
        println!("B: read the pattern");
        p.memcpy_async(mapped, &[0xB0u8; 16], 16, s).unwrap();
        let eb = ipc_event(&p);
        p.record_event(eb, s).unwrap();
        put(&dir.join("b"), &p.ipc_get_event_handle(eb).unwrap().0);
        take(&dir.join("late"));
        let s2 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        p.launch(
            s2,
            Kernel::new("unordered read").reads(mapped.offset(32), 32),
        )
        .unwrap();
        p.device_synchronize().unwrap();
        let reports = m.race_reports();
        println!("B: {} race reports", reports.len());
        for r in &reports {
            println!("B: {}", describe(r));
        }
        println!(
            "{}",
            reports
                .iter()
                .map(|r| r.text(false))
                .collect::<Vec<_>>()
                .join("\n")
        );
        p.ipc_close_mem_handle(mapped).unwrap();
        put(&dir.join("b-done"), b"1");
    }
}

/// A race report in one line: both sides' kernels and OS processes, the allocation and the bytes.
fn describe(r: &RaceReport) -> String {
    let side = |s: &streamsim::RaceAccess| {
        let label = match &s.who {
            streamsim::Accessor::Op { label, kind, .. } => format!("{kind} `{label}`"),
            other => other.to_string(),
        };
        format!(
            "{label} in OS process {} {}",
            s.os_process.map_or("?".to_string(), |p| p.to_string()),
            if s.write { "writes" } else { "reads" }
        )
    };
    format!(
        "1 race: {}, {}, allocation #{} bytes {}..{}",
        side(&r.first),
        side(&r.second),
        r.allocation,
        r.offset,
        r.offset + r.bytes
    )
}

/// Words shared by the children of a test (a file in `/dev/shm` of the test's own): host-side handshakes.
struct Words {
    ptr: *mut AtomicU32,
}

// SAFETY: a shared mapping accessed only through atomics.
unsafe impl Send for Words {}
// SAFETY: as above.
unsafe impl Sync for Words {}

const WORDS: usize = 1024;

impl Words {
    /// Maps the `/dev/shm` file `name` (made by the parent with [`Words::create`]).
    fn open(name: &str) -> Words {
        let f = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(Path::new("/dev/shm").join(name))
            .expect("the test's words");
        // SAFETY: a fresh shared mapping of an open file of WORDS * 4 bytes.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                WORDS * 4,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                std::os::fd::AsRawFd::as_raw_fd(&f),
                0,
            )
        };
        assert_ne!(p, libc::MAP_FAILED);
        Words { ptr: p.cast() }
    }

    fn create(name: &str) {
        let f =
            std::fs::File::create(Path::new("/dev/shm").join(name)).expect("creating the words");
        f.set_len((WORDS * 4) as u64).unwrap();
    }

    fn word(&self, i: usize) -> &AtomicU32 {
        assert!(i < WORDS);
        // SAFETY: in the mapping (checked), which lives as long as the process (never unmapped).
        unsafe { &*self.ptr.add(i) }
    }

    fn set(&self, i: usize, v: u32) {
        let w = self.word(i);
        w.store(v, Ordering::Release);
        // SAFETY: a valid shared word; wakes every waiter.
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

    /// Waits until word `i` is at least `v`.
    fn wait_for(&self, i: usize, v: u32) {
        let w = self.word(i);
        let start = Instant::now();
        loop {
            let now = w.load(Ordering::Acquire);
            if now >= v {
                return;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "word {i} stayed at {now}, below {v}"
            );
            let ts = libc::timespec {
                tv_sec: 0,
                tv_nsec: 50_000_000,
            };
            // SAFETY: a valid shared word and timespec; a spurious return is re-checked.
            unsafe {
                libc::syscall(
                    libc::SYS_futex,
                    w.as_ptr(),
                    libc::FUTEX_WAIT,
                    now,
                    &ts as *const _,
                    0,
                    0,
                )
            };
        }
    }
}

const THREADS: usize = 4;
const ITERATIONS: u32 = 10_000;

/// Stress: 2 OS processes × 4 threads × 10,000 IPC record / wait iterations with data checks. Thread t of
/// p0 and thread t of p1 play ping-pong on a 16-byte buffer of p0's (mapped by p1) with an IPC event each
/// way: p0's kernel reads the value p1 wrote in iteration i - 1 and writes i; p1's stream waits on p0's
/// record, its kernel reads i and writes it back. Every kernel checks what it reads (40,000 checks in each
/// process, all passing: nothing lost, no stale read), no race is reported on either side (every access is
/// ordered through the IPC events), and both finish under the parent's time limit; nothing is left in
/// /dev/shm.
#[test]
fn stress_two_os_processes_four_threads_ten_thousand_ipc_round_trips() {
    let mut run = Run::new("stress");
    let words = format!("{}-words", run.host);
    Words::create(&words);
    run.extra.push(words.clone());
    let dir = toolchain().out_dir.join(format!("{}.files", run.host));
    std::fs::create_dir_all(&dir).unwrap();
    let p0 = spawn_child(&mut run, "child_stress", &format!("p0 {words}"), &dir);
    let p1 = spawn_child(&mut run, "child_stress", &format!("p1 {words}"), &dir);
    let exe = std::env::current_exe().unwrap();
    let out1 = assert_success("p1", &run.wait(&exe, p1));
    let out0 = assert_success("p0", &run.wait(&exe, p0));
    for (out, who) in [(&out0, "p0"), (&out1, "p1")] {
        assert!(
            out.contains(&format!("{who}: 40000 checks passed, 0 failed, 0 races")),
            "{out}"
        );
    }
    assert_eq!(leftovers(&run.host), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "a child of stress_two_os_processes_four_threads_ten_thousand_ipc_round_trips"]
fn child_stress() {
    let Some((role, host, dir)) = child_env() else {
        return;
    };
    let (role, words) = role.split_once(' ').expect("role and words");
    let words = Arc::new(Words::open(words));
    let m = machine(&host, 1);
    let p = m.process();
    let first = role == "p0";
    // Words: 2t = p0's iteration of thread t, 2t + 1 = p1's.
    let (mine, theirs) = if first { (0, 1) } else { (1, 0) };
    struct Lane {
        stream: streamsim::Stream,
        buf: streamsim::DevicePtr,
        own: streamsim::Event,
        other: Option<streamsim::Event>,
    }
    let mut lanes: Vec<Lane> = Vec::new();
    if first {
        let mut file = Vec::new();
        for _ in 0..THREADS {
            let buf = p.malloc(16).unwrap();
            let own = ipc_event(&p);
            file.extend_from_slice(&p.ipc_get_mem_handle(buf).unwrap().0);
            file.extend_from_slice(&p.ipc_get_event_handle(own).unwrap().0);
            let stream = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
            lanes.push(Lane {
                stream,
                buf,
                own,
                other: None,
            });
        }
        put(&dir.join("p0"), &file);
        let got = take(&dir.join("p1"));
        for (t, lane) in lanes.iter_mut().enumerate() {
            lane.other = Some(
                p.ipc_open_event_handle(&event_handle(&got[64 * t..64 * (t + 1)]))
                    .unwrap(),
            );
        }
    } else {
        let got = take(&dir.join("p0"));
        let mut file = Vec::new();
        for t in 0..THREADS {
            let at = 128 * t;
            let buf = p
                .ipc_open_mem_handle(&mem_handle(&got[at..at + 64]), false)
                .unwrap();
            let other = p
                .ipc_open_event_handle(&event_handle(&got[at + 64..at + 128]))
                .unwrap();
            let own = ipc_event(&p);
            file.extend_from_slice(&p.ipc_get_event_handle(own).unwrap().0);
            let stream = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
            lanes.push(Lane {
                stream,
                buf,
                own,
                other: Some(other),
            });
        }
        put(&dir.join("p1"), &file);
    }
    let passed = Arc::new(AtomicU64::new(0));
    let failed = Arc::new(AtomicU64::new(0));
    std::thread::scope(|scope| {
        for (t, lane) in lanes.iter().enumerate() {
            let (p, words, passed, failed) = (&p, words.clone(), passed.clone(), failed.clone());
            scope.spawn(move || {
                let other = lane.other.expect("opened");
                // p0 writes bytes 0..8 and reads 8..16; p1 the other way round.
                let (w, r) = if first { (0, 8) } else { (8, 0) };
                for i in 1..=ITERATIONS {
                    // p0 waits for p1's iteration i - 1, p1 for p0's iteration i.
                    let want = if first { i - 1 } else { i };
                    if want > 0 {
                        words.wait_for(2 * t + theirs, want);
                        p.stream_wait_event(lane.stream, other).unwrap();
                    }
                    let (buf, passed, failed) = (lane.buf, passed.clone(), failed.clone());
                    let expect = u64::from(want);
                    p.launch(
                        lane.stream,
                        Kernel::new(if first { "ping" } else { "pong" })
                            .reads(buf.offset(r), 8)
                            .writes(buf.offset(w), 8)
                            .body(move |ctx| {
                                let mut v = [0u8; 8];
                                ctx.read(buf.offset(r), &mut v)?;
                                if u64::from_le_bytes(v) == expect {
                                    passed.fetch_add(1, Ordering::Relaxed);
                                } else {
                                    failed.fetch_add(1, Ordering::Relaxed);
                                }
                                ctx.write(buf.offset(w), &u64::from(i).to_le_bytes())
                            }),
                    )
                    .unwrap();
                    p.record_event(lane.own, lane.stream).unwrap();
                    words.set(2 * t + mine, i);
                }
                p.stream_synchronize(lane.stream).unwrap();
            });
        }
    });
    p.device_synchronize().unwrap();
    println!(
        "{role}: {} checks passed, {} failed, {} races",
        passed.load(Ordering::Relaxed),
        failed.load(Ordering::Relaxed),
        m.race_reports().len()
    );
    // p1 unmaps before p0 frees: the host's last leaver removes everything.
    if !first {
        for lane in &lanes {
            p.ipc_close_mem_handle(lane.buf).unwrap();
        }
        put(&dir.join("p1-done"), b"1");
    } else {
        take(&dir.join("p1-done"));
    }
}

/// How many steps each child of the ring makes.
const RING_STEPS: u32 = 40;

/// A ring of 3 OS processes on 3 devices, each waiting on the previous one's IPC event and recording its own,
/// with child 1 killed mid-run (SIGKILL): its stream is stuck behind a host function that never returns,
/// child 2's last wait is on child 1's record after it, and once child 1 is dead child 2's wait ends (the
/// record counts as run, "sim"), child 2 says on standard error which OS process left, and children 0 and 2
/// finish (each within the parent's time limit). Nothing is left in /dev/shm. A second run of the ring on the
/// same host name right after, with nobody killed, starts clean and all three finish.
#[test]
fn a_ring_child_killed_mid_run_lets_the_others_finish_and_the_next_run_starts_clean() {
    crate::common::with_watchdog(120, ring_runs);
}

fn ring_runs() {
    for kill in [true, false] {
        let mut run = Run::new("ring");
        let dir = toolchain().out_dir.join(format!("{}.files", run.host));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let role = |k: u32| format!("{k} {}", if kill { "kill" } else { "keep" });
        let kids: Vec<usize> = (0..3)
            .map(|k| spawn_child(&mut run, "child_ring", &role(k), &dir))
            .collect();
        let exe = std::env::current_exe().unwrap();
        if kill {
            crate::os_processes::wait_for_line(&mut run.children[kids[1]], "ring 1: stuck");
            crate::os_processes::wait_for_line(&mut run.children[kids[2]], "ring 2: waiting on 1");
            let victim = run.children[kids[1]].id();
            run.children[kids[1]].kill().expect("SIGKILL child 1");
            let _ = run.children[kids[1]].wait();
            let out2 = run.wait(&exe, kids[2]);
            let text2 = assert_success("child 2", &out2);
            assert!(text2.contains("ring 2: finished"), "{text2}");
            let err2 = String::from_utf8_lossy(&out2.stderr);
            assert!(
                err2.contains(&format!(
                    "OS process {victim} left shared host {:?} before its records ran",
                    run.host
                )),
                "{err2}"
            );
            let text0 = assert_success("child 0", &run.wait(&exe, kids[0]));
            assert!(text0.contains("ring 0: finished"), "{text0}");
        } else {
            for (k, &i) in kids.iter().enumerate() {
                let text = assert_success("child", &run.wait(&exe, i));
                assert!(text.contains(&format!("ring {k}: finished")), "{text}");
            }
        }
        assert_eq!(leftovers(&run.host), Vec::<String>::new(), "kill: {kill}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
#[ignore = "a child of a_ring_child_killed_mid_run_lets_the_others_finish_and_the_next_run_starts_clean"]
fn child_ring() {
    let Some((role, host, dir)) = child_env() else {
        return;
    };
    let (k, mode) = role.split_once(' ').expect("index and mode");
    let k: u32 = k.parse().unwrap();
    let kill = mode == "kill";
    let m = machine(&host, 3);
    let p = m.process();
    p.set_device(i64::from(k)).unwrap();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let own = ipc_event(&p);
    put(
        &dir.join(format!("ring{k}")),
        &p.ipc_get_event_handle(own).unwrap().0,
    );
    let prev = (k + 2) % 3;
    let before = p
        .ipc_open_event_handle(&event_handle(&take(&dir.join(format!("ring{prev}")))))
        .unwrap();
    // Nobody starts (or may leave, dropping its export) before every child has opened its neighbour's event.
    put(&dir.join(format!("opened{k}")), b"1");
    for other in 0..3 {
        take(&dir.join(format!("opened{other}")));
    }
    for step in 0..RING_STEPS {
        p.stream_wait_event(s, before).unwrap();
        p.launch(s, Kernel::new("step").duration(Duration::from_micros(10)))
            .unwrap();
        if kill && k == 1 && step == RING_STEPS / 2 {
            p.launch_host_func(s, || {
                loop {
                    std::thread::park();
                }
            })
            .unwrap();
        }
        p.record_event(own, s).unwrap();
    }
    if kill && k == 1 {
        put(&dir.join("stuck"), b"1");
        println!("ring 1: stuck");
        p.device_synchronize().unwrap();
        unreachable!("child 1's stream never finishes: it is killed");
    }
    if kill && k == 2 {
        // Child 1's records from now on are behind its stuck host function.
        take(&dir.join("stuck"));
        p.stream_wait_event(s, before).unwrap();
        println!("ring 2: waiting on 1");
    }
    p.device_synchronize().unwrap();
    println!("ring {k}: finished");
}
