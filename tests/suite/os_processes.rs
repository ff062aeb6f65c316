//! Real OS processes on one shared host (`src/engine/host/`): C programs started as separate processes that
//! exchange IPC handles through shared memory and files, a process killed while another waits on its record,
//! and the run after it. Each test uses a shared-host name of its own (`STREAMSIM_MACHINE`), and checks that
//! nothing of its host is left in `/dev/shm` afterwards.

use std::time::Duration;

use crate::c_programs::{
    LIMIT, Lang, assert_success, build, spawn, toolchain, unique_host, wait_for,
};

/// The shared-memory objects of host `name` still in `/dev/shm`.
fn leftovers(name: &str) -> Vec<String> {
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    let prefix = format!("streamsim.{uid}.{name}.");
    std::fs::read_dir("/dev/shm")
        .map(|d| {
            d.filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|n| n.starts_with(&prefix))
                .collect()
        })
        .unwrap_or_default()
}

/// seed 000 (the MUSA events article) §2.3, processes A and B exactly as written, as two OS processes started
/// together: B's stream waits for A's record (not finished at B's host time: NotReady; then Success), B's
/// query and synchronize of the opened event answer from A's record, elapsed time on it is refused (400), and
/// the wait ends at A's record's virtual time: 1.999 ms after B's own record before the wait (A's 2 ms kernel
/// and calls, less B's calls before `before`), the same on every run.
#[test]
fn musa_article_processes_a_and_b() {
    let src = toolchain().c_dir.join("os_musa_ipc_event.c");
    for lang in [Lang::C, Lang::Cxx] {
        let exe = build(&src, "os_musa_ipc_event", lang, &[]);
        let host = unique_host("musa-ab");
        let shm = format!("/{host}-article");
        let env = [("STREAMSIM_MACHINE", host.as_str())];
        let mut a = spawn(&exe, &["a", &shm], &env);
        let mut b = spawn(&exe, &["b", &shm], &env);
        let out_b = assert_success("B", &wait_for(&exe, &["b"], &mut b, LIMIT));
        let out_a = assert_success("A", &wait_for(&exe, &["a"], &mut a, LIMIT));
        assert!(out_a.contains("process A: ok"), "{out_a}");
        assert!(
            out_b.contains("process B: waited 1.999000 ms of virtual time"),
            "{out_b}"
        );
        assert!(out_b.contains("process B: ok"), "{out_b}");
        assert_eq!(leftovers(&host), Vec::<String>::new());
    }
}

/// An exporter killed with SIGKILL while another OS process waits on its record (queued behind a host function
/// that never returns): the waiter's cudaStreamSynchronize, cudaEventSynchronize and cudaEventQuery end with
/// cudaSuccess (the record counts as run, "sim") within the watchdog, and it says on standard error which
/// process left; nothing is left in /dev/shm; a run right after starts clean: the killed run's handle is
/// refused (cudaErrorInvalidValue, "earlier run") and a new export opens in a second simulated process.
#[test]
fn a_killed_exporter_never_leaves_a_waiter_hanging_and_the_next_run_starts_clean() {
    let src = toolchain().c_dir.join("os_ipc_killed.c");
    let exe = build(&src, "os_ipc_killed", Lang::C, &[]);
    let host = unique_host("killed");
    let file = toolchain().out_dir.join(format!("{host}.handle"));
    let file = file.to_str().expect("a UTF-8 path");
    let _ = std::fs::remove_file(file);
    let env = [("STREAMSIM_MACHINE", host.as_str())];
    let mut victim = spawn(&exe, &["export", file], &env);
    let mut waiter = spawn(&exe, &["wait", file], &env);
    // The waiter is blocked on the victim's record once the victim has exported and the waiter opened: wait
    // for the handle file, then give the waiter time to reach its synchronize (it cannot finish before the
    // kill, whatever the timing: the record is behind a host function that never returns).
    for _ in 0..6000 {
        if std::path::Path::new(file).exists() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        waiter.try_wait().expect("the waiter's status").is_none(),
        "the waiter finished before the exporter was killed"
    );
    victim.kill().expect("SIGKILL the exporter");
    let _ = victim.wait();
    let out = wait_for(&exe, &["wait"], &mut waiter, LIMIT);
    let stdout = assert_success("waiter", &out);
    assert!(stdout.contains("the wait ended"), "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "OS process {} left shared host {host:?} before its records ran",
            victim.id()
        )),
        "{stderr}"
    );
    assert_eq!(leftovers(&host), Vec::<String>::new());
    let mut next = spawn(&exe, &["stale", file], &env);
    let stdout = assert_success("next run", &wait_for(&exe, &["stale"], &mut next, LIMIT));
    assert!(
        stdout.contains("stale handle refused; new run ok"),
        "{stdout}"
    );
    assert_eq!(leftovers(&host), Vec::<String>::new());
    let _ = std::fs::remove_file(file);
}
