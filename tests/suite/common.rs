//! Helpers shared by the test modules.
#![allow(dead_code, reason = "not every module uses every helper")]

use std::time::Duration;

use streamsim::{Machine, Process};

/// A one-device CUDA machine and a process on it.
pub fn cuda1() -> (Machine, Process) {
    let m = Machine::builder().devices(1).build().expect("machine");
    let p = m.process();
    (m, p)
}

/// Runs `f` on a thread and fails the test if it does not finish within `secs` seconds (a watchdog for
/// tests that could deadlock).
pub fn with_watchdog<T: Send + 'static>(secs: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    let h = std::thread::spawn(move || {
        let r = f();
        let _ = tx.send(());
        r
    });
    match rx.recv_timeout(Duration::from_secs(secs)) {
        Ok(()) => h.join().expect("test body panicked"),
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => match h.join() {
            Ok(_) => unreachable!("sender dropped without sending"),
            Err(p) => std::panic::resume_unwind(p),
        },
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
            panic!("watchdog: the test did not finish within {secs} s (deadlock?)")
        }
    }
}
