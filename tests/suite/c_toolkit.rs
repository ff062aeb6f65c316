//! The C/C++ user's toolkit: what a C or C++ program gets beyond the vendors' calls — calls that work while
//! the process exits, bindings that end in any order, race verdicts (`STREAMSIM_RACES`), the Chrome trace
//! (`STREAMSIM_TRACE`) and the terminal timeline (`STREAMSIM_TIMELINE`), names for streams and events. The C
//! programs are in `tests/c/`, built and run with the helpers of [`crate::c_programs`].

use streamsim::cuda::*;
use streamsim::{Machine, Process};

use crate::c_programs::build_and_run;

// ------------------------------------------------------------------------------------------------ exit

/// `tests/c/exit_calls.c`: an `atexit` handler, a global destructor (C++: a global object's destructor; C:
/// `__attribute__((destructor))`) and a pthread key destructor of another thread free memory, synchronize,
/// and destroy streams, events, a context and a machine, with CUDA and ACL names. Every code is checked by
/// the program (the main thread keeps its device 1, context and last error; the other thread is fresh:
/// device 0, ACL 107002 until it sets a context), which exits 0 and prints what ran. Before, the first such
/// call aborted the process (SIGABRT).
#[test]
fn calls_during_process_exit_work() {
    for out in build_and_run(
        "exit_calls",
        "exit_calls",
        &[],
        &[("STREAMSIM_DEVICES", "2")],
    ) {
        assert_eq!(
            out, "thread destructor: ok\natexit: ok\ndestructor: ok\n",
            "every handler ran, in this order"
        );
    }
}

// ------------------------------------------------------------------------------------------------ bindings

fn device_count() -> i32 {
    let mut n = -1;
    // SAFETY: a valid out-pointer.
    assert_eq!(unsafe { cudaGetDeviceCount(&mut n) }, cudaSuccess);
    n
}

fn machine(devices: u32) -> (Machine, Process) {
    let m = Machine::builder()
        .devices(devices)
        .build()
        .expect("machine");
    let p = m.process();
    (m, p)
}

/// Bindings dropped out of order: bind A, bind B, drop A's guard first → calls still go to B (the binding in
/// force), never to A; then C over B, B dropped first → C; then A again over C, C dropped first → A.
#[test]
fn bindings_dropped_out_of_order_route_to_the_remaining_one() {
    let ((_ma, a), (_mb, b), (_mc, c)) = (machine(2), machine(3), machine(4));
    let ga = a.bind();
    assert_eq!(device_count(), 2);
    let gb = b.bind();
    assert_eq!(device_count(), 3);
    drop(ga);
    assert_eq!(
        device_count(),
        3,
        "B is still bound: calls must not go to A"
    );
    let gc = c.bind();
    assert_eq!(device_count(), 4);
    drop(gb);
    assert_eq!(device_count(), 4, "C is the innermost binding left");
    let ga = a.bind();
    assert_eq!(device_count(), 2);
    drop(gc);
    assert_eq!(device_count(), 2, "A is the only binding left");
    drop(ga);
    // (With nothing bound, calls go to the default machine, which this test binary does not touch.)
}
