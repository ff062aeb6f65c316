//! The CANN stream-vs-event note — find a synchronization bug that the output does not show.
//!
//! ```c
//! // 典型错误场景: the data comes from stream 2, but the host waits for stream 1
//! produce<<<..., stream2>>>(d);                       // stream 2 computes the result
//! aclrtMemcpyAsync(h, size, d, size, D2H, stream2);   // ... and copies it to the host
//! consume<<<..., stream1>>>(d);                       // stream 1 also reads it: no event between them
//! aclrtSynchronizeStream(stream1);                    // 仅等待 stream1，不等待 stream2
//! read(h);                                            // the host reads the result
//! ```
//!
//! Run with `cargo run --example 06_find_a_race`. On hardware this program usually prints the right numbers:
//! stream 2 has often finished by the time the host looks. streamsim flags it on every run, whatever the
//! workers' real timing (the verdict is computed from program order when each call is made): two races, each
//! with the two calls involved (file:line:column of this example) and a one-line fix. The fixed program —
//! an event recorded on stream 2 after the copy, stream 1 waiting on it, the host synchronizing it —
//! passes with no report. Both versions then run 10 more times with schedule perturbation (seeded delays in
//! the stream workers): the verdicts do not change.

use std::time::Duration;

use streamsim::{EventFlags, Kernel, Machine, RaceReport, SimError, StreamFlags};

const N: u64 = 1024;

/// Runs the CANN stream-vs-event note's program, wrong (`fixed == false`) or fixed, on a machine with the given
/// perturbation seed; returns the race reports and the first bytes the host read.
fn run(fixed: bool, perturb: Option<u64>) -> Result<(Vec<RaceReport>, Vec<u8>), SimError> {
    let mut builder = Machine::builder().devices(1);
    if let Some(seed) = perturb {
        builder = builder.perturb(true).seed(seed);
    }
    let machine = builder.build()?;
    let p = machine.process();
    let stream1 = p.create_stream(StreamFlags::DEFAULT)?;
    let stream2 = p.create_stream(StreamFlags::DEFAULT)?;
    let done = p.create_event(EventFlags::DEFAULT)?;
    let d = p.malloc(N)?;
    let h = p.malloc_host(N)?;

    // Stream 2 computes the result (a kernel that writes 42 into every byte of d) and copies it out.
    p.launch(
        stream2,
        Kernel::new("produce")
            .duration(Duration::from_micros(40))
            .writes(d, N)
            .body(move |ctx| ctx.write(d, &[42; N as usize])),
    )?;
    p.memcpy_async(h, d, N, stream2)?;
    if fixed {
        p.record_event(done, stream2)?;
        p.stream_wait_event(stream1, done)?;
    }
    // Stream 1 reads the result too.
    p.launch(
        stream1,
        Kernel::new("consume")
            .duration(Duration::from_micros(10))
            .reads(d, N),
    )?;
    if fixed {
        p.event_synchronize(done)?;
    }
    p.stream_synchronize(stream1)?;
    let mut out = vec![0u8; N as usize];
    p.host_read(h, &mut out)?;
    p.device_synchronize()?;
    out.truncate(4);
    Ok((machine.race_reports(), out))
}

fn main() -> Result<(), SimError> {
    println!("== seed 004: synchronizing stream 1 while the data comes from stream 2 ==\n");
    // The bytes the racy read got vary from run to run (that is the race): they are not printed, so that the
    // example's output is the same on every run.
    let (reports, _racy_bytes) = run(false, None)?;
    println!(
        "the host read whatever stream 2 had delivered by then (the bytes vary from run to run: not shown), and \
         the race detector says, on every run:\n"
    );
    for r in &reports {
        println!("{r}\n");
    }
    assert_eq!(reports.len(), 2, "both races are flagged");
    assert_eq!(
        reports[0].fix(),
        "record an event on stream 2 after `produce` and make stream 1 wait on it before `consume`"
    );
    assert_eq!(
        reports[1].fix(),
        "synchronize stream 2 (or an event recorded after `memcpy_async`) before `host_read`"
    );
    for r in &reports {
        assert!(r.first.call_site.file().ends_with("06_find_a_race.rs"));
        assert!(r.second.call_site.file().ends_with("06_find_a_race.rs"));
    }

    println!(
        "== fixed: record `done` on stream 2 after the copy, stream 1 waits on it, the host synchronizes it ==\n"
    );
    let (fixed_reports, data) = run(true, None)?;
    println!(
        "the host read {data:?}; {} race reports",
        fixed_reports.len()
    );
    assert!(fixed_reports.is_empty());
    assert_eq!(data, [42; 4]);

    // Same verdicts under 10 perturbation seeds (the pinned buffer's real address aside).
    let strip = |rs: Vec<RaceReport>| -> Vec<String> {
        rs.iter()
            .map(|r| format!("{r} {:?}", (r.allocation, r.offset, r.bytes)))
            .collect()
    };
    let wrong = strip(reports);
    for seed in 0..10 {
        assert_eq!(strip(run(false, Some(seed))?.0), wrong, "seed {seed}");
        assert!(run(true, Some(seed))?.0.is_empty(), "seed {seed}");
    }
    println!(
        "\nperturbation seeds 0..10: the wrong program is flagged identically on every run; the fixed one never"
    );
    Ok(())
}
