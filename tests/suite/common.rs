//! Helpers shared by the test modules.
#![allow(dead_code, reason = "not every module uses every helper")]

use std::time::Duration;

use streamsim::{Kernel, Machine, Process, Trace, TraceEvent, VirtualTime};

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

/// A two-device CUDA machine and a process on it.
pub fn cuda2() -> (Machine, Process) {
    let m = Machine::builder().devices(2).build().expect("machine");
    let p = m.process();
    (m, p)
}

/// `n` microseconds of virtual time.
pub fn us(n: u64) -> VirtualTime {
    VirtualTime(n * 1_000)
}

/// A kernel of `micros` microseconds.
pub fn kernel(name: &'static str, micros: u64) -> Kernel {
    Kernel::new(name).duration(Duration::from_micros(micros))
}

/// The first operation labelled `label` in the trace (the test fails if there is none).
pub fn op<'a>(t: &'a Trace, label: &str) -> &'a TraceEvent {
    t.find(label)
        .unwrap_or_else(|| panic!("no operation {label:?} in the trace: {t:#?}"))
}

/// The (start, end) of the operation labelled `label`.
pub fn span(t: &Trace, label: &str) -> (VirtualTime, VirtualTime) {
    let o = op(t, label);
    (o.start, o.end)
}
