//! Real OS processes on one shared host (`src/engine/host/`): C programs started as separate processes that
//! exchange IPC handles through shared memory and files, a process killed while another waits on its record,
//! and the run after it. Each test uses a shared-host name of its own (`STREAMSIM_MACHINE`), and checks that
//! nothing of its host is left in `/dev/shm` afterwards.

use crate::c_programs::{
    LIMIT, Lang, assert_success, build, spawn, toolchain, unique_host, wait_for,
};

/// The shared-memory objects of host `name` still in `/dev/shm`.
pub(crate) fn leftovers(name: &str) -> Vec<String> {
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

/// What a test started: its OS processes, its shared host and the other shared-memory objects it named. On
/// drop — also when the test fails — the processes still running are killed and the host's objects and the
/// named ones removed from `/dev/shm` by their unique names, so that a failed run leaves nothing behind.
/// (The tests assert that the library itself left nothing before this runs.)
pub(crate) struct Run {
    pub host: String,
    pub children: Vec<std::process::Child>,
    pub extra: Vec<String>,
}

impl Run {
    pub fn new(label: &str) -> Run {
        Run {
            host: unique_host(label),
            children: Vec::new(),
            extra: Vec::new(),
        }
    }

    /// Starts `exe` on this run's host; the index of the child.
    pub fn spawn(&mut self, exe: &std::path::Path, args: &[&str]) -> usize {
        self.spawn_env(exe, args, &[])
    }

    /// Starts `exe` on this run's host with more environment; the index of the child.
    pub fn spawn_env(
        &mut self,
        exe: &std::path::Path,
        args: &[&str],
        env: &[(&str, &str)],
    ) -> usize {
        let mut all = vec![("STREAMSIM_MACHINE", self.host.as_str())];
        all.extend_from_slice(env);
        self.children.push(spawn(exe, args, &all));
        self.children.len() - 1
    }

    /// Waits for child `i` (killed after the limit: a failed test).
    pub fn wait(&mut self, exe: &std::path::Path, i: usize) -> std::process::Output {
        wait_for(exe, &[], &mut self.children[i], LIMIT)
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        for c in &mut self.children {
            if c.try_wait().ok().flatten().is_none() {
                let _ = c.kill();
                let _ = c.wait();
            }
        }
        for n in leftovers(&self.host)
            .into_iter()
            .chain(self.extra.iter().cloned())
        {
            let _ = std::fs::remove_file(
                std::path::Path::new("/dev/shm").join(n.trim_start_matches('/')),
            );
        }
    }
}

/// Reads lines of child `child`'s standard output until one contains `text` (the rest stays in the pipe for
/// [`wait_for`]); panics if the output ends first. The child's own time limit (its `CHECK`s) ends a stuck run.
pub(crate) fn wait_for_line(child: &mut std::process::Child, text: &str) -> Vec<String> {
    use std::io::Read as _;
    let out = child.stdout.as_mut().expect("a piped standard output");
    let mut seen = Vec::new();
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    loop {
        match out.read(&mut byte) {
            Ok(1) if byte[0] == b'\n' => {
                let l = String::from_utf8_lossy(&line).into_owned();
                line.clear();
                let done = l.contains(text);
                seen.push(l);
                if done {
                    return seen;
                }
            }
            Ok(1) => line.push(byte[0]),
            _ => panic!("the output ended before {text:?}: {seen:?}"),
        }
    }
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
        let mut run = Run::new("musa-ab");
        let shm = format!("/{}-article", run.host);
        run.extra.push(shm.clone());
        let a = run.spawn(&exe, &["a", &shm]);
        let b = run.spawn(&exe, &["b", &shm]);
        let out_b = assert_success("B", &run.wait(&exe, b));
        let out_a = assert_success("A", &run.wait(&exe, a));
        assert!(out_a.contains("process A: ok"), "{out_a}");
        assert!(
            out_b.contains("process B: waited 1.999000 ms of virtual time"),
            "{out_b}"
        );
        assert!(out_b.contains("process B: ok"), "{out_b}");
        assert_eq!(leftovers(&run.host), Vec::<String>::new());
    }
}

/// An exporter killed with SIGKILL while another OS process waits on its record (queued behind a host function
/// that never returns): the waiter's cudaStreamSynchronize, cudaEventSynchronize and cudaEventQuery end with
/// cudaSuccess (the record counts as run, "sim") within the watchdog, and it says on standard error which
/// process left; nothing is left in /dev/shm; a run right after starts clean: the killed run's handle is
/// refused (cudaErrorInvalidValue, "earlier run") and a new export opens in a second simulated process.
#[test]
fn a_killed_exporter_never_leaves_a_waiter_hanging_and_the_next_run_starts_clean() {
    crate::common::with_watchdog(120, killed_exporter);
}

fn killed_exporter() {
    let src = toolchain().c_dir.join("os_ipc_killed.c");
    let exe = build(&src, "os_ipc_killed", Lang::C, &[]);
    let mut run = Run::new("killed");
    let file = toolchain().out_dir.join(format!("{}.handle", run.host));
    let file = file.to_str().expect("a UTF-8 path").to_string();
    let _ = std::fs::remove_file(&file);
    let victim = run.spawn(&exe, &["export", &file]);
    let waiter = run.spawn(&exe, &["wait", &file]);
    // The waiter says "waiting" once its stream waits on the victim's record; that record is behind a host
    // function that never returns, so from then on only the victim's death can end the wait.
    wait_for_line(&mut run.children[victim], "exported");
    wait_for_line(&mut run.children[waiter], "waiting");
    assert!(
        run.children[waiter]
            .try_wait()
            .expect("the waiter's status")
            .is_none(),
        "the waiter finished before the exporter was killed"
    );
    let victim_pid = run.children[victim].id();
    run.children[victim].kill().expect("SIGKILL the exporter");
    let _ = run.children[victim].wait();
    let out = run.wait(&exe, waiter);
    let stdout = assert_success("waiter", &out);
    assert!(stdout.contains("the wait ended"), "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "OS process {victim_pid} left shared host {:?} before its records ran",
            run.host
        )),
        "{stderr}"
    );
    assert_eq!(leftovers(&run.host), Vec::<String>::new());
    let next = run.spawn(&exe, &["stale", &file]);
    let stdout = assert_success("next run", &run.wait(&exe, next));
    assert!(
        stdout.contains("stale handle refused; new run ok"),
        "{stdout}"
    );
    assert_eq!(leftovers(&run.host), Vec::<String>::new());
    let _ = std::fs::remove_file(&file);
}

/// NVIDIA cuda-samples simpleIPC as written (`tests/c/os_simple_ipc.c`): the parent forks and execs one child
/// per device (3 devices), shares a buffer and an interprocess event per device through cudaIpcGetMemHandle /
/// cudaIpcGetEventHandle in a shared-memory slab; each child opens them all (cudaIpcMemLazyEnablePeerAccess),
/// runs the ring of kernels ordered only by the IPC events, and finds its buffer written by the child after it
/// (1 MiB of bytes really written in one OS process and read in another). Every child and the parent succeed;
/// nothing is left in /dev/shm.
#[test]
fn cuda_samples_simple_ipc_with_three_child_processes() {
    let src = toolchain().c_dir.join("os_simple_ipc.c");
    for lang in [Lang::C, Lang::Cxx] {
        let exe = build(&src, "os_simple_ipc", lang, &[]);
        let mut run = Run::new("simpleipc");
        let parent = run.spawn_env(&exe, &[], &[("STREAMSIM_DEVICES", "3")]);
        run.extra
            .push(format!("simpleIPCshm{}", run.children[parent].id()));
        let out = assert_success("simpleIPC", &run.wait(&exe, parent));
        for id in 0..3 {
            assert!(
                out.contains(&format!("Process {id}: verifying...")),
                "{out}"
            );
            assert!(out.contains(&format!("Process {id} complete!")), "{out}");
        }
        assert!(out.contains("Step 2 done"), "{out}");
        assert!(out.contains("simpleIPC with 3 processes: ok"), "{out}");
        assert!(!out.contains("mismatch"), "{out}");
        assert_eq!(leftovers(&run.host), Vec::<String>::new());
    }
}

/// The CANN runtime's IPC samples as two OS processes passing handles and keys through files
/// (`tests/c/os_cann_ipc.c`). 0_ipcevent: both processes succeed, B's status query after its own record is
/// complete. 10_ipc_memory_withpid with A synchronized after its write: B, on A's allow list (its
/// aclrtDeviceGetBareTgid pid), reads A's 123 through its import ("Destination data" equals "Source data", as
/// the sample's run.sh checks) and nothing is reported. As written (no order between A's write and B's read):
/// B reports the data race on allocation #1, naming A's OS process as the writer and its own as the reader.
#[test]
fn cann_ipc_samples_with_handles_and_keys_in_files() {
    let src = toolchain().c_dir.join("os_cann_ipc.c");
    for lang in [Lang::C, Lang::Cxx] {
        let exe = build(&src, "os_cann_ipc", lang, &[]);
        for mode in ["event", "mem sync", "mem"] {
            let mut run = Run::new("cann");
            let dir = toolchain().out_dir.join(format!("{}.files", run.host));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            let d = dir.to_str().unwrap();
            let (kind, sync) = mode.split_once(' ').unwrap_or((mode, ""));
            let (ma, mb) = (format!("{kind}-a"), format!("{kind}-b"));
            let mut a_args = vec![ma.as_str(), d];
            if !sync.is_empty() {
                a_args.push(sync);
            }
            let a = run.spawn(&exe, &a_args);
            let b = run.spawn(&exe, &[mb.as_str(), d]);
            let out_b = run.wait(&exe, b);
            let text_b = assert_success("B", &out_b);
            let text_a = assert_success("A", &run.wait(&exe, a));
            let err_b = String::from_utf8_lossy(&out_b.stderr);
            if kind == "event" {
                assert!(text_a.contains("Process A: cleanup completed"), "{text_a}");
                assert!(
                    text_b.contains("Process B: event status = 1 (1=completed)"),
                    "{text_b}"
                );
            } else {
                assert!(text_a.contains("Source data: 123"), "{text_a}");
                let (pa, pb) = (run.children[a].id(), run.children[b].id());
                if sync == "sync" {
                    assert!(text_b.contains("Destination data: 123"), "{text_b}");
                    assert!(!err_b.contains("data race"), "{err_b}");
                } else {
                    assert!(
                        err_b.contains(&format!(
                            "streamsim: data race on 4 bytes at offset 0 of allocation #1 (device 0 memory)\n  first:  \
                             kernel `DeviceWrite` on stream 1 (device 0, process 0) in OS process {pa} writes\n  \
                             second: kernel `DeviceRead` on stream 1 (device 0, process 0) in OS process {pb} reads"
                        )),
                        "{err_b}"
                    );
                }
            }
            assert_eq!(leftovers(&run.host), Vec::<String>::new(), "{mode}");
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

/// Fork without exec (`tests/c/os_fork_no_exec.c`): the child's IPC calls on the machine it inherited are
/// refused (cudaErrorInitializationError, "forked from it without exec"), its exit does not take the parent
/// off the host (the parent's exports still open afterwards), and nothing is left in /dev/shm.
#[test]
fn a_child_forked_without_exec_gets_a_clear_error_at_its_next_ipc_call() {
    let src = toolchain().c_dir.join("os_fork_no_exec.c");
    for lang in [Lang::C, Lang::Cxx] {
        let exe = build(&src, "os_fork_no_exec", lang, &[]);
        let mut run = Run::new("fork");
        let p = run.spawn(&exe, &[]);
        let out = assert_success("fork", &run.wait(&exe, p));
        assert!(
            out.contains("child: IPC refused after fork without exec"),
            "{out}"
        );
        assert!(out.contains("parent: ok"), "{out}");
        assert_eq!(leftovers(&run.host), Vec::<String>::new());
    }
}
