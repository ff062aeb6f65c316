//! A hostile or broken shared host (`src/engine/host/`): segments whose header does not validate while members
//! live in them, segments truncated under their members, corrupted lock words, dead recorders, host names that
//! differ only in punctuation or after their 96th character, and objects pre-created by someone else. Two
//! machines of this test process on one host are two members (each joins with its own open file description,
//! whose record locks are its liveness). Every test has a host name of its own, and every wait that could hang
//! runs under a watchdog: a hang fails the test instead of stopping the suite.

use std::os::unix::fs::FileExt as _;
use std::sync::mpsc;
use std::time::Duration;

use streamsim::{EventFlags, Machine, Process, SimError, StreamFlags};

use crate::c_programs::unique_host;
use crate::os_processes::leftovers;

/// How long a call that must not hang may take before the test fails.
const WATCHDOG: Duration = Duration::from_secs(20);

/// Byte offsets of the segment's header fields (`host/layout.rs`).
const H_VERSION: u64 = 8;
const H_READY: u64 = 12;
const H_SIZE: u64 = 16;

pub(crate) fn machine(host: &str) -> Machine {
    Machine::builder()
        .devices(1)
        .shared_host(host)
        .build()
        .expect("machine")
}

/// The path of host `host`'s segment (CUDA dialect).
pub(crate) fn segment_path(host: &str) -> std::path::PathBuf {
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    std::path::PathBuf::from(format!("/dev/shm/streamsim.{uid}.{host}.cuda"))
}

/// Makes `p`'s machine a member of its host (its first IPC call): an exported event.
pub(crate) fn join(p: &Process) -> Result<streamsim::IpcEventHandle, SimError> {
    let e = p
        .create_event(EventFlags::INTERPROCESS | EventFlags::DISABLE_TIMING)
        .unwrap();
    p.ipc_get_event_handle(e)
}

/// Runs `f` on a thread of its own; panics naming `what` if it has not returned within [`WATCHDOG`].
pub(crate) fn within<R: Send + 'static>(what: &str, f: impl FnOnce() -> R + Send + 'static) -> R {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(WATCHDOG) {
        Ok(r) => r,
        Err(_) => panic!("{what} did not return within {WATCHDOG:?}: it hangs"),
    }
}

/// [`within`], but `None` when `f` hangs (the caller then unblocks it before failing, so that the test fails
/// instead of hanging in its clean-up).
pub(crate) fn within_or_none<R: Send + 'static>(
    f: impl FnOnce() -> R + Send + 'static,
) -> Option<R> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(WATCHDOG).ok()
}

fn poke32(host: &str, off: u64, v: u32) {
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(segment_path(host))
        .expect("the segment");
    f.write_all_at(&v.to_le_bytes(), off).unwrap();
}

fn poke64(host: &str, off: u64, v: u64) {
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(segment_path(host))
        .expect("the segment");
    f.write_all_at(&v.to_le_bytes(), off).unwrap();
}

fn seg_len(host: &str) -> u64 {
    std::fs::metadata(segment_path(host)).unwrap().len()
}

/// Issue 27 item 2 (ipc-between-processes.md · the shared host · a joiner finds a header that does not validate
/// while members live): a second member that finds another layout version, a corrupted ready flag or a
/// corrupted size field refuses the segment with CUDA 205's error naming the field and its value, and leaves it
/// as it is (not truncated, not re-made: the live member keeps its host). Once the header is right again, it
/// joins.
#[test]
fn a_joiner_refuses_an_invalid_header_while_a_member_lives_and_never_rebuilds_it() {
    let host = unique_host("badhdr");
    let a = machine(&host);
    let pa = a.process();
    join(&pa).expect("the first member joins");
    let len = seg_len(&host);
    let cases: [(&str, u64, u64, u64, &str); 3] = [
        (
            "version",
            H_VERSION,
            7,
            3,
            "layout version 7, this build uses version 3",
        ),
        ("ready", H_READY, 9, 1, "ready flag 9, not 1"),
        ("size", H_SIZE, 12345, len, "size field 12345"),
    ];
    for (what, off, bad, good, text) in cases {
        if off == H_SIZE {
            poke64(&host, off, bad);
        } else {
            poke32(&host, off, bad as u32);
        }
        let b = machine(&host);
        let pb = b.process();
        let err = join(&pb).expect_err(&format!("a joiner took a segment with a corrupted {what}"));
        let msg = err.to_string();
        assert!(
            matches!(err, SimError::HostUnavailable { .. })
                && msg.contains(text)
                && msg.contains("in use by live OS processes")
                && msg.contains("refusing it rather than rebuilding it"),
            "{what}: {msg}"
        );
        assert_eq!(
            seg_len(&host),
            len,
            "{what}: the segment was truncated or resized"
        );
        drop(b);
        if off == H_SIZE {
            poke64(&host, off, good);
        } else {
            poke32(&host, off, good as u32);
        }
    }
    // The member's host is intact: a new member joins and opens its handle.
    let h = join(&pa).unwrap();
    let b = machine(&host);
    let pb = b.process();
    join(&pb).expect("joins once the header is right");
    pb.ipc_open_event_handle(&h)
        .expect("opens the live member's handle");
    drop((pb, b, pa, a));
    assert!(leftovers(&host).is_empty(), "{:?}", leftovers(&host));
}

/// Removes what is left of host `host` in `/dev/shm` (a test that broke the host on purpose).
fn remove_host(host: &str) {
    for n in leftovers(host) {
        let _ = std::fs::remove_file(std::path::Path::new("/dev/shm").join(n));
    }
}

/// Issue 27 item 3 (ipc-between-processes.md · the shared host · the segment or a memory object is truncated
/// under live members): A's stream waits on B's record, which sits behind a host function that has not
/// returned, and A synchronizes; meanwhile another process truncates the segment to 0 bytes, and the memory
/// object of an allocation A exported. Nothing dies of SIGBUS: A's synchronize returns (the wait ends, the
/// truncation said on standard error), A's next IPC call fails with CUDA 205's error saying the segment was
/// truncated under it, copies into and out of A's exported allocation still work (on private zeros), and B,
/// released, finishes its stream too.
#[test]
fn a_segment_truncated_under_waiting_members_never_kills_them() {
    let host = unique_host("trunc");
    let a = machine(&host);
    let b = machine(&host);
    let (pa, pb) = (a.process(), b.process());
    let buf = pa.malloc(64).unwrap();
    pa.ipc_get_mem_handle(buf).expect("A exports memory");
    let eb = pb
        .create_event(EventFlags::INTERPROCESS | EventFlags::DISABLE_TIMING)
        .unwrap();
    let hb = pb.ipc_get_event_handle(eb).unwrap();
    let sb = pb.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let (release, stalled) = mpsc::channel::<()>();
    pb.launch_host_func(sb, move || {
        let _ = stalled.recv();
    })
    .unwrap();
    pb.record_event(eb, sb).unwrap();
    let sa = pa.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let ea = pa.ipc_open_event_handle(&hb).unwrap();
    pa.stream_wait_event(sa, ea).unwrap();
    let waiter = {
        let pa = pa.clone();
        std::thread::spawn(move || pa.stream_synchronize(sa))
    };
    // Give A time to sleep in its wait (the test holds whether it is asleep yet or not).
    std::thread::sleep(Duration::from_millis(50));
    for n in leftovers(&host) {
        std::fs::OpenOptions::new()
            .write(true)
            .open(std::path::Path::new("/dev/shm").join(&n))
            .unwrap()
            .set_len(0)
            .unwrap();
    }
    within("A's synchronize on a truncated host", move || {
        waiter.join().unwrap()
    })
    .expect("A's synchronize ends");
    let err = join(&pa).expect_err("an IPC call on a truncated host");
    assert!(
        matches!(err, SimError::HostUnavailable { .. })
            && err
                .to_string()
                .contains("was truncated under this OS process"),
        "{err}"
    );
    let pa2 = pa.clone();
    within("copies into a truncated memory object", move || {
        pa2.memcpy(buf, &[5u8; 64][..], 64).unwrap();
        let mut out = [0u8; 64];
        pa2.memcpy(&mut out[..], buf, 64).unwrap();
    });
    release.send(()).unwrap();
    let pb2 = pb.clone();
    within("B's synchronize", move || pb2.stream_synchronize(sb)).expect("B's stream finishes");
    drop((pa, pb, a, b));
    remove_host(&host);
}

/// The table lock word's offset in the header (`host/layout.rs`, `H_TABLE_LOCK`).
const H_TABLE_LOCK: u64 = 56;

/// Issue 27 item 4, the lock word (ipc-between-processes.md · the shared host · a corrupted lock word): the
/// table lock word is set to a value naming the caller's own member (A is member 0: value 1), then to one naming
/// a live other member (A, for B's call), then to an impossible holder. The first two are given up after
/// about 2 s instead of spinning forever: the call fails with CUDA 205's error naming the word, its value and
/// why it is corrupted, and the machine's later IPC calls fail the same way. The impossible holder is taken
/// over at once (a dead holder), and the call succeeds.
#[test]
fn a_corrupted_lock_word_is_given_up_with_a_clear_error_instead_of_spinning() {
    let host = unique_host("lockword");
    let (a, b, c) = (machine(&host), machine(&host), machine(&host));
    let (pa, pb, pc) = (a.process(), b.process(), c.process());
    join(&pa).unwrap();
    join(&pb).unwrap();
    join(&pc).unwrap();
    poke32(&host, H_TABLE_LOCK, 0x7fff_0000);
    let p = pc.clone();
    within("an export behind an impossible holder", move || join(&p))
        .expect("an impossible holder is taken over");
    for (p, value, whose) in [
        (pa.clone(), 1, "this member's own index"),
        (pb.clone(), 1, "member 0, alive"),
    ] {
        poke32(&host, H_TABLE_LOCK, value);
        let q = p.clone();
        let Some(got) = within_or_none(move || join(&q)) else {
            // Dropping the machines would take the word again: they are leaked, so that the test fails
            // instead of hanging.
            std::mem::forget((pa, pb, pc, a, b, c));
            panic!("an export behind a lock word holding {value:#x} ({whose}) hangs");
        };
        let err = got.expect_err("a corrupted lock word");
        let msg = err.to_string();
        assert!(
            matches!(err, SimError::HostUnavailable { .. })
                && msg.contains(&format!("the lock word at byte {H_TABLE_LOCK}"))
                && msg.contains(&format!("held {value:#x} ({whose}"))
                && msg.contains("it is corrupted"),
            "{msg}"
        );
        let again = join(&p).expect_err("later IPC calls fail too");
        assert_eq!(again.to_string(), msg);
    }
    // C, which never met the corrupted word, still uses the host.
    join(&pc).expect("another member is unaffected");
    drop((pa, pb, pc, a, b, c));
    remove_host(&host);
}

/// Issue 27 item 4, queries (cuda-musa.md, ipc-between-processes.md · Events across OS processes ·
/// StreamQuery / EventQuery on a wait whose record sits in another process behind a host function that has not
/// returned): A's stream waits on B's record, which B's stream reaches only after a host function that does
/// not return yet. Every query of A's stream, however many and whatever A's host clock says, answers NotReady
/// at once (a query never blocks), as a query of the opened event does; once B's host function returns, A's
/// stream synchronizes and its query answers Complete.
#[test]
fn a_stream_query_never_blocks_on_a_record_stalled_in_another_process() {
    let host = unique_host("query");
    let (a, b) = (machine(&host), machine(&host));
    let (pa, pb) = (a.process(), b.process());
    let eb = pb
        .create_event(EventFlags::INTERPROCESS | EventFlags::DISABLE_TIMING)
        .unwrap();
    let hb = pb.ipc_get_event_handle(eb).unwrap();
    let sb = pb.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let (release, stalled) = mpsc::channel::<()>();
    pb.launch_host_func(sb, move || {
        let _ = stalled.recv();
    })
    .unwrap();
    pb.record_event(eb, sb).unwrap();
    let sa = pa.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let ea = pa.ipc_open_event_handle(&hb).unwrap();
    pa.stream_wait_event(sa, ea).unwrap();
    let q = pa.clone();
    let answers = within_or_none(move || {
        (0..5)
            .map(|_| (q.stream_query(sa), q.event_query(ea)))
            .collect::<Vec<_>>()
    });
    release.send(()).unwrap();
    let answers = answers.expect("a query blocked on a record stalled in another process");
    for (i, (s, e)) in answers.into_iter().enumerate() {
        assert_eq!(s.unwrap(), streamsim::Status::NotReady, "stream query {i}");
        assert_eq!(e.unwrap(), streamsim::Status::NotReady, "event query {i}");
    }
    let p = pa.clone();
    // (Host clocks are per host thread: the synchronize and the query after it run on one.)
    let after = within("A's synchronize once B runs", move || {
        p.stream_synchronize(sa).unwrap();
        p.stream_query(sa)
    });
    assert_eq!(after.unwrap(), streamsim::Status::Complete);
    drop((pa, pb, a, b));
    remove_host(&host);
}

/// Issue 27 item 6, names (ipc-between-processes.md · the shared host · distinct `STREAMSIM_MACHINE` names):
/// names that differ only in punctuation (`.`, `/`, `_`, a space) or only after their 96th character are
/// distinct hosts: a handle exported on one is refused by a machine of the other with CUDA 1's "another shared
/// host" (before, they shared one object and the handle opened).
#[test]
fn distinct_host_names_never_share_a_host() {
    let base = unique_host("names");
    let long = format!("{base}-{}", "x".repeat(100));
    let pairs = [
        (format!("{base}.a"), format!("{base}/a")),
        (format!("{base}.a"), format!("{base}_a")),
        (format!("{base} a"), format!("{base}_a")),
        (format!("{long}1"), format!("{long}2")),
    ];
    for (one, other) in &pairs {
        let (m1, m2) = (machine(one), machine(other));
        let (p1, p2) = (m1.process(), m2.process());
        let h = join(&p1).unwrap();
        join(&p2).unwrap();
        let err = p2
            .ipc_open_event_handle(&h)
            .expect_err(&format!("{one:?} and {other:?} share a host"));
        assert!(
            err.to_string().contains("another shared host"),
            "{one:?} / {other:?}: {err}"
        );
        drop((p1, p2, m1, m2));
    }
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    let ours = format!("streamsim.{uid}.{base}");
    let left: Vec<String> = std::fs::read_dir("/dev/shm")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with(&ours))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Creates `/dev/shm/<name>` owned by `uid` with `mode`, as another local user (or root) squatting it would.
fn squat(name: &str, uid: u32, mode: u32) {
    use std::os::unix::fs::PermissionsExt as _;
    let path = std::path::Path::new("/dev/shm").join(name);
    std::fs::write(&path, b"squatted").unwrap();
    std::os::unix::fs::chown(&path, Some(uid), None).expect("chown (the tests run as root)");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// Issue 27 item 6, squatting (ipc-between-processes.md · the shared host · the host's object exists but is not
/// private to the user): the host's object is pre-created owned by another user (`nobody`), then (for another
/// host) owned by the user but open to others (mode 0666). The squatted object is never used and IPC is not
/// denied: two machines of the host meet at the first alternative name (`….cuda.alt1`), an exported handle
/// opens, and the squatted object is left untouched. With every place squatted, the first IPC call fails with
/// CUDA 205's error naming each object, its owner and mode.
#[test]
fn a_squatted_host_object_is_avoided_and_never_used() {
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    if uid != 0 {
        eprintln!("skipped: creating an object owned by another user needs root");
        return;
    }
    for (label, owner, mode) in [("squat-owner", 65534, 0o600), ("squat-mode", uid, 0o666)] {
        let host = unique_host(label);
        let object = format!("streamsim.{uid}.{host}.cuda");
        squat(&object, owner, mode);
        let (m1, m2) = (machine(&host), machine(&host));
        let (p1, p2) = (m1.process(), m2.process());
        let h = join(&p1).expect("IPC is not denied by a squatted object");
        p2.ipc_open_event_handle(&h)
            .expect("both members meet at the same place");
        assert!(
            leftovers(&host).contains(&format!("{object}.alt1")),
            "{label}: {:?}",
            leftovers(&host)
        );
        assert_eq!(
            std::fs::read(std::path::Path::new("/dev/shm").join(&object)).unwrap(),
            b"squatted",
            "{label}: the squatted object was touched"
        );
        drop((p1, p2, m1, m2));
        remove_host(&host);
    }
    let host = unique_host("squat-all");
    let object = format!("streamsim.{uid}.{host}.cuda");
    squat(&object, 65534, 0o600);
    for k in 1..=3 {
        squat(&format!("{object}.alt{k}"), 65534, 0o644);
    }
    let m = machine(&host);
    let err = join(&m.process()).expect_err("every place squatted");
    let msg = err.to_string();
    assert!(
        matches!(err, SimError::HostUnavailable { .. })
            && msg.contains(&format!("shared host {host:?}"))
            && msg.contains(&format!(
                "/{object} (a file, owned by uid 65534 with mode 600)"
            ))
            && msg.contains(&format!(
                "/{object}.alt3 (a file, owned by uid 65534 with mode 644)"
            )),
        "{msg}"
    );
    drop(m);
    remove_host(&host);
}

/// Issue 27 item 4, queries through a local event (as above): A's stream `c` waits on B's stalled record and
/// records a local event; A's stream `a` waits on that event. Queries of `a` and of the local event answer
/// NotReady at once too (the query follows what `a` waits for to the stall in the other process).
#[test]
fn a_stream_query_never_blocks_through_a_local_event_on_a_stalled_remote_record() {
    let host = unique_host("query2");
    let (ma, mb) = (machine(&host), machine(&host));
    let (pa, pb) = (ma.process(), mb.process());
    let eb = pb
        .create_event(EventFlags::INTERPROCESS | EventFlags::DISABLE_TIMING)
        .unwrap();
    let hb = pb.ipc_get_event_handle(eb).unwrap();
    let sb = pb.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let (release, stalled) = mpsc::channel::<()>();
    pb.launch_host_func(sb, move || {
        let _ = stalled.recv();
    })
    .unwrap();
    pb.record_event(eb, sb).unwrap();
    let (sc, sa) = (
        pa.create_stream(StreamFlags::NON_BLOCKING).unwrap(),
        pa.create_stream(StreamFlags::NON_BLOCKING).unwrap(),
    );
    let ea = pa.ipc_open_event_handle(&hb).unwrap();
    pa.stream_wait_event(sc, ea).unwrap();
    let local = pa.create_event(EventFlags::DISABLE_TIMING).unwrap();
    pa.record_event(local, sc).unwrap();
    pa.stream_wait_event(sa, local).unwrap();
    let q = pa.clone();
    let answers = within_or_none(move || {
        (0..5)
            .map(|_| (q.stream_query(sa), q.event_query(local)))
            .collect::<Vec<_>>()
    });
    release.send(()).unwrap();
    let answers = answers.expect("a query blocked on a record stalled in another process");
    for (i, (s, e)) in answers.into_iter().enumerate() {
        assert_eq!(s.unwrap(), streamsim::Status::NotReady, "stream query {i}");
        assert_eq!(e.unwrap(), streamsim::Status::NotReady, "event query {i}");
    }
    let p = pa.clone();
    let after = within("A's synchronize once B runs", move || {
        p.stream_synchronize(sa).unwrap();
        p.stream_query(sa)
    });
    assert_eq!(after.unwrap(), streamsim::Status::Complete);
    drop((pa, pb, ma, mb));
    remove_host(&host);
}
