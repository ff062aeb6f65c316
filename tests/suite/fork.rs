//! Fork without exec (issue 27, items 1 and 12; `docs/semantics/fork.md`): in a child forked from a process
//! that made machines, every call on those machines fails with the vendor's "not initialised" code (CUDA 3
//! `cudaErrorInitializationError`, ACL 100001 `ACL_ERROR_UNINITIALIZE`), `SimError::ForkedChild` in the core;
//! nothing hangs, and a machine made in the child works.
#![cfg(target_os = "linux")]

use std::time::Duration;

use streamsim::{EventFlags, Kernel, Machine, SimError, StreamFlags};

use crate::c_programs::{Lang, assert_success, build, run, toolchain};
use crate::common::with_watchdog;

/// `tests/c/os_fork_calls.c`, as C and C++: launches, synchronizes, records, memsets and creations in the
/// child on the parent's CUDA and ACL machines are refused with 3 and 100001 (before: the launch returned 0
/// and `cudaStreamSynchronize` hung); the child's own machine runs; the parent's machines still work.
#[test]
fn calls_in_a_forked_child_on_the_parents_machines_fail_with_the_vendors_code() {
    let src = toolchain().c_dir.join("os_fork_calls.c");
    for lang in [Lang::C, Lang::Cxx] {
        let exe = build(&src, "os_fork_calls", lang, &[]);
        let out = assert_success(
            "os_fork_calls",
            &run(&exe, &[], &[], crate::c_programs::LIMIT),
        );
        assert!(
            out.contains("child: every call on the parent's machines refused; its own machine ran"),
            "{out}"
        );
        assert!(out.contains("parent: ok"), "{out}");
    }
}

/// Forks at 40 points of a busy program (streams with queued kernels and bodies, on several host threads):
/// in each child, a launch and a synchronize on the parent's machine are `ForkedChild`, a new machine's
/// stream runs and synchronizes, and the child exits 0 within its alarm (a hang or a crash fails the test).
/// The fork points vary with the real-time interleaving; every outcome asserted holds at all of them.
#[test]
fn forks_at_random_points_never_hang_the_child() {
    with_watchdog(120, || {
        let m = Machine::builder().trace(false).build().unwrap();
        let p = m.process();
        let streams: Vec<_> = (0..4)
            .map(|_| p.create_stream(StreamFlags::NON_BLOCKING).unwrap())
            .collect();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        // A host thread keeps the machine busy: creating and destroying streams, launching bodies.
        let busy = {
            let (p, stop) = (p.clone(), stop.clone());
            std::thread::spawn(move || {
                let mut i = 0u64;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
                    p.launch(s, Kernel::new("busy").body(|_| Ok(()))).unwrap();
                    p.destroy_stream(s).unwrap();
                    i += 1;
                    if i.is_multiple_of(64) {
                        p.device_synchronize().unwrap();
                    }
                }
            })
        };
        for round in 0..40u32 {
            for s in &streams {
                p.launch(*s, Kernel::new("k").duration(Duration::from_micros(5)))
                    .unwrap();
            }
            if round % 3 == 0 {
                p.launch(streams[0], Kernel::new("body").body(|_| Ok(())))
                    .unwrap();
            }
            // SAFETY: the child only calls the simulator (whose fork handlers keep its own locks usable) and
            // allocates (glibc's malloc is fork-safe), then leaves with _exit; an alarm ends it if it hangs.
            let pid = unsafe { libc::fork() };
            assert!(pid >= 0, "fork failed");
            if pid == 0 {
                // SAFETY: alarm and _exit are async-signal-safe.
                unsafe { libc::alarm(20) };
                let code = child_checks(&p, streams[round as usize % 4]);
                unsafe { libc::_exit(code) };
            }
            let mut status = 0;
            // SAFETY: waiting for the child just forked.
            assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
            assert!(
                libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
                "round {round}: the child ended with status {status:#x} (a signal: it hung or crashed; \
                 exit 1-3: a check failed)"
            );
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        busy.join().unwrap();
        p.device_synchronize().unwrap();
    });
}

/// What a forked child checks: 0 if all holds, else the number of the check that failed.
fn child_checks(p: &streamsim::Process, s: streamsim::Stream) -> i32 {
    let forked = |r: Result<(), SimError>| matches!(r, Err(SimError::ForkedChild { .. }));
    if !forked(p.launch(s, Kernel::new("in child"))) {
        return 1;
    }
    if !forked(p.stream_synchronize(s)) || !forked(p.device_synchronize()) {
        return 2;
    }
    let Ok(m2) = Machine::builder().trace(false).build() else {
        return 3;
    };
    let q = m2.process();
    let ok = q.create_stream(StreamFlags::DEFAULT).is_ok_and(|s2| {
        q.launch(s2, Kernel::new("child's own").body(|_| Ok(())))
            .is_ok()
            && q.stream_synchronize(s2).is_ok()
            && q.create_event(EventFlags::DEFAULT).is_ok()
    });
    if !ok {
        return 3;
    }
    0
}
