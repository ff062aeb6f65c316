//! Idle workers are woken by every enqueue: no lost wake-up, whichever fence the stream queues use (the
//! `membarrier(2)` asymmetric fence by default on Linux; `fence(SeqCst)` on both sides with
//! `STREAMSIM_NO_MEMBARRIER`, checked in a child process because the choice is made once per process).
//!
//! The pattern most likely to lose a wake-up is a host that enqueues just as a worker decides to sleep: short
//! bursts separated by synchronizes and by pauses long enough for the workers to go idle. A lost wake-up would
//! leave a synchronize waiting forever; the watchdog turns that into a failure.

use std::time::{Duration, Instant};

use streamsim::{Kernel, Machine, StreamFlags};

use crate::common::with_watchdog;

const CHILD_VAR: &str = "STREAMSIM_WAKEUP_TEST_CHILD";

/// Bursts of 0–3 launches on each of 4 streams, each burst synchronized, with pauses of varying length between
/// them.
fn bursts(rounds: u32) {
    let m = Machine::builder().devices(1).build().unwrap();
    let p = m.process();
    let streams: Vec<_> = (0..4)
        .map(|_| p.create_stream(StreamFlags::NON_BLOCKING).unwrap())
        .collect();
    let mut launched = 0u64;
    for round in 0..rounds {
        for (i, &s) in streams.iter().enumerate() {
            for _ in 0..(round as usize + i) % 4 {
                p.launch(s, Kernel::new("k")).unwrap();
                launched += 1;
            }
        }
        for &s in &streams {
            p.stream_synchronize(s).unwrap();
        }
        // A pause of 0–63 µs: around the time an idle worker polls before it sleeps, so that some launches
        // arrive just as a worker is deciding to sleep; and now and then a long one, so that they are asleep.
        let pause = if round % 64 == 0 {
            Duration::from_micros(300)
        } else {
            Duration::from_micros(u64::from(round * 37 % 64))
        };
        let until = Instant::now() + pause;
        while Instant::now() < until {
            std::hint::spin_loop();
        }
    }
    // Reaching here means every synchronize returned; and every launch ran, exactly once.
    assert_eq!(m.trace().ops.len() as u64, launched);
}

#[test]
fn workers_wake_for_every_enqueue() {
    with_watchdog(120, || bursts(10_000));
}

#[test]
fn workers_wake_for_every_enqueue_with_the_fallback_fence() {
    let exe = std::env::current_exe().expect("the test binary");
    let out = std::process::Command::new(exe)
        .args([
            "wakeups::fallback_fence_child",
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_VAR, "1")
        .env("STREAMSIM_NO_MEMBARRIER", "1")
        .output()
        .expect("the child runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "the child failed or did not run ({}):\n--- stdout\n{stdout}\n--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
#[ignore = "runs in a child process started by workers_wake_for_every_enqueue_with_the_fallback_fence"]
fn fallback_fence_child() {
    if std::env::var_os(CHILD_VAR).is_none() {
        return;
    }
    with_watchdog(120, || bursts(10_000));
}
