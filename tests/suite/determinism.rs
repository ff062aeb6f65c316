//! Determinism: the same program gives the same trace, answers and times on every run, whatever order the
//! stream workers really run in; a host spin-loop on a query terminates after a number of iterations the cost
//! model predicts.
//!
//! Times in comments are `now` of each call in ns (default cost model: 1 µs per call, 2 µs launch latency,
//! host↔device copies 2 µs + bytes / 16 GB/s, host functions 1 µs).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use streamsim::{
    CostModel, EventFlags, Kernel, Machine, SimError, Status, Stream, StreamFlags, Trace,
    VirtualTime,
};

use crate::common::with_watchdog;

/// What one run of the three-stream program observed.
#[derive(Debug, Clone, PartialEq)]
struct Outcome {
    trace: Trace,
    answers: Vec<String>,
    elapsed: Vec<Result<f32, SimError>>,
    spins: u64,
    host_log: Vec<&'static str>,
    bytes: Vec<u8>,
    end: VirtualTime,
}

const N: u64 = 4096;

/// Three streams (two blocking, one non-blocking) and the legacy stream: copies, kernels with bodies, records,
/// cross-stream waits, queries, a host function, elapsed times and a spin-loop.
fn three_stream_program() -> Outcome {
    let m = Machine::builder().devices(1).seed(42).build().unwrap();
    let p = m.process();
    let mut answers = Vec::new();
    let log = Arc::new(Mutex::new(Vec::new()));
    let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // 1_000
    let s2 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // 2_000
    let s3 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap(); // 3_000
    let e1 = p.create_event(EventFlags::DEFAULT).unwrap(); // 4_000
    let e2 = p.create_event(EventFlags::BLOCKING_SYNC).unwrap(); // 5_000
    let e3 = p.create_event(EventFlags::DEFAULT).unwrap(); // 6_000
    let e4 = p.create_event(EventFlags::DISABLE_TIMING).unwrap(); // 7_000
    let d = p.malloc(N).unwrap(); // 8_000
    let d2 = p.malloc(N).unwrap(); // 9_000
    let h = p.malloc_host(N).unwrap(); // 10_000
    let data: Vec<u8> = (0..N).map(|i| (i * 7 % 251) as u8).collect();

    p.memcpy_async(d, &data, N, s1).unwrap(); // 11_000: 13_000..15_256
    p.launch(
        s1,
        Kernel::new("increment")
            .duration(Duration::from_micros(50))
            .reads(d, N)
            .writes(d, N)
            .body(move |ctx| {
                let mut b = vec![0u8; N as usize];
                ctx.read(d, &mut b)?;
                b.iter_mut().for_each(|x| *x = x.wrapping_add(1));
                ctx.write(d, &b)
            }),
    )
    .unwrap(); // 12_000: 15_256..65_256
    p.record_event(e1, s1).unwrap(); // 13_000: 65_256
    answers.push(format!("{:?}", p.event_query(e1))); // 14_000
    p.stream_wait_event(s2, e1).unwrap(); // 15_000: 65_256
    p.launch(
        s2,
        Kernel::new("reverse")
            .duration(Duration::from_micros(30))
            .reads(d, N)
            .writes(d2, N)
            .body(move |ctx| {
                let mut b = vec![0u8; N as usize];
                ctx.read(d, &mut b)?;
                b.reverse();
                ctx.write(d2, &b)
            }),
    )
    .unwrap(); // 16_000: 65_256..95_256
    p.record_event(e2, s2).unwrap(); // 17_000: 95_256
    p.launch(
        s3,
        Kernel::new("independent").duration(Duration::from_micros(80)),
    )
    .unwrap(); // 18_000: 20_000..100_000
    let l = log.clone();
    p.launch_host_func(s3, move || l.lock().unwrap().push("host"))
        .unwrap(); // 19_000: 100_000..101_000
    p.record_event(e3, s3).unwrap(); // 20_000: 101_000
    p.stream_wait_event(s1, e3).unwrap(); // 21_000: 101_000
    p.stream_wait_event(s1, e2).unwrap(); // 22_000: 101_000
    p.memcpy_async(h, d2, N, s1).unwrap(); // 23_000: 101_000..103_256
    p.record_event(e4, s1).unwrap(); // 24_000: 103_256
    for s in [s1, s2, s3] {
        answers.push(format!("{:?}", p.stream_query(s))); // 25_000..27_000
    }
    for e in [e1, e2, e3, e4] {
        answers.push(format!("{:?}", p.event_query(e))); // 28_000..31_000
    }
    p.launch(
        Stream::DEFAULT,
        Kernel::new("legacy").duration(Duration::from_micros(20)),
    )
    .unwrap(); // 32_000: after s1 and s2 (not s3): 103_256..123_256
    p.event_synchronize(e2).unwrap(); // 33_000 → 95_256
    answers.push(format!("{:?}", p.now()));
    let mut elapsed = vec![
        p.event_elapsed_ms(e1, e2), // 96_256
        p.event_elapsed_ms(e1, e3), // 97_256: e3 not finished
        p.event_elapsed_ms(e1, e4), // 98_256: timing disabled
    ];
    let mut spins = 0;
    while p.event_query(e3).unwrap() == Status::NotReady {
        spins += 1; // 99_256, 100_256 NotReady; 101_256 Complete
    }
    elapsed.push(p.event_elapsed_ms(e1, e3)); // 102_256
    p.event_synchronize(e4).unwrap(); // 103_256
    p.device_synchronize().unwrap(); // 104_256 → 123_256
    let mut bytes = vec![0u8; N as usize];
    p.host_read(h, &mut bytes).unwrap(); // 124_256
    let end = p.now();
    let host_log = log.lock().unwrap().clone();
    Outcome {
        trace: m.trace(),
        answers,
        elapsed,
        spins,
        host_log,
        bytes,
        end,
    }
}

/// The same three-stream program, run 20 times on fresh machines (from four host threads at once, so that the
/// workers of different runs interleave differently), gives identical traces, answers and times.
#[test]
fn three_stream_program_is_deterministic() {
    let first = with_watchdog(30, three_stream_program);

    // The numbers the cost model predicts (see the comments in the program).
    let ms = |ns: f64| (ns / 1e6) as f32;
    assert_eq!(
        first.answers,
        [
            "Ok(NotReady)",
            "Ok(NotReady)",
            "Ok(NotReady)",
            "Ok(NotReady)",
            "Ok(NotReady)",
            "Ok(NotReady)",
            "Ok(NotReady)",
            "Ok(NotReady)",
            "VirtualTime(95256)",
        ]
    );
    assert_eq!(first.elapsed[0], Ok(0.03));
    assert!(matches!(first.elapsed[1], Err(SimError::NotReady { .. })));
    assert!(matches!(
        first.elapsed[2],
        Err(SimError::TimingDisabled { .. })
    ));
    assert_eq!(first.elapsed[3], Ok(ms(101_000.0 - 65_256.0)));
    assert_eq!(first.spins, 2);
    assert_eq!(first.end, VirtualTime(124_256));
    assert_eq!(first.host_log, ["host"]);
    let expected: Vec<u8> = (0..N)
        .rev()
        .map(|i| ((i * 7 % 251) as u8).wrapping_add(1))
        .collect();
    assert_eq!(first.bytes, expected);
    let span = |label: &str| {
        let o = first.trace.find(label).expect(label);
        (o.start.as_nanos(), o.end.as_nanos())
    };
    assert_eq!(span("increment"), (15_256, 65_256));
    assert_eq!(span("reverse"), (65_256, 95_256));
    assert_eq!(span("independent"), (20_000, 100_000));
    assert_eq!(span("legacy"), (103_256, 123_256));
    assert_eq!(first.trace.ops.len(), 14);
    assert_eq!(first.trace.host.len(), 3);

    let runs: Vec<Outcome> = with_watchdog(60, || {
        let handles: Vec<_> = (0..4)
            .map(|_| {
                std::thread::spawn(|| (0..5).map(|_| three_stream_program()).collect::<Vec<_>>())
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a run panicked"))
            .collect()
    });
    assert_eq!(runs.len(), 20);
    for (i, run) in runs.iter().enumerate() {
        assert_eq!(run.trace.ops, first.trace.ops, "run {i}: trace ops differ");
        assert_eq!(
            run.trace.host, first.trace.host,
            "run {i}: host events differ"
        );
        assert_eq!(run, &first, "run {i} differs");
    }
}

/// Spins on `event_query` of an event recorded after a `kernel`-long kernel; returns the number of NotReady
/// answers and the host clock when the loop ends.
fn spin(cost: CostModel, kernel: Duration) -> streamsim::Result<(u64, VirtualTime)> {
    let m = Machine::builder()
        .devices(1)
        .cost_model(cost)
        .trace(false)
        .build()?;
    let p = m.process();
    let e = p.create_event(EventFlags::DEFAULT)?;
    p.launch(Stream::DEFAULT, Kernel::new("long").duration(kernel))?;
    p.record_event(e, Stream::DEFAULT)?;
    let mut n = 0;
    while p.event_query(e)? == Status::NotReady {
        n += 1;
    }
    Ok((n, p.now()))
}

/// A host spin-loop on a query terminates, after the same number of iterations on every run: the number of
/// call overheads between the first query and the record's virtual time.
#[test]
fn spin_loop_on_event_query_terminates_after_a_predicted_number_of_iterations() {
    with_watchdog(30, || {
        // Default model: create 1 µs, launch 2 µs → kernel 4 µs .. 1004 µs, record 3 µs → 1004 µs.
        // Queries at 4, 5, ... µs: 1000 of them (4..=1003) are NotReady, the one at 1004 µs is Complete.
        for _ in 0..10 {
            assert_eq!(
                spin(CostModel::default(), Duration::from_millis(1)),
                Ok((1000, VirtualTime(1_004_000)))
            );
        }
        // Calls of 300 ns: create 300, launch 600 → kernel 2_600 .. 1_002_600, record 900 → 1_002_600.
        // Queries at 1_200 + 300 k: NotReady while < 1_002_600, i.e. k < 3338 exactly.
        let mut cost = CostModel::default();
        cost.api_call = Duration::from_nanos(300);
        for _ in 0..10 {
            assert_eq!(
                spin(cost.clone(), Duration::from_millis(1)),
                Ok((3338, VirtualTime(1_200 + 300 * 3338)))
            );
        }
    });
}

/// Builds the examples `names` (a no-op when they are up to date) in this test binary's target directory and
/// profile, and returns their paths.
fn examples(names: &[&str]) -> Vec<std::path::PathBuf> {
    let exe = std::env::current_exe().expect("the test binary's path");
    let profile_dir = exe
        .parent()
        .and_then(std::path::Path::parent)
        .expect("target/<profile>/deps/<test>");
    let profile = match profile_dir.file_name().and_then(|n| n.to_str()) {
        Some("debug") => "dev",
        Some(other) => other,
        None => panic!("cannot tell the profile of {}", profile_dir.display()),
    };
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let mut cmd = std::process::Command::new(cargo);
    cmd.args(["build", "--quiet", "--profile", profile]);
    for name in names {
        cmd.args(["--example", name]);
    }
    let out = cmd
        .arg("--manifest-path")
        .arg(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
        .env(
            "CARGO_TARGET_DIR",
            profile_dir.parent().expect("the target directory"),
        )
        .output()
        .expect("running cargo build --example");
    assert!(
        out.status.success(),
        "cargo build of the examples failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    names
        .iter()
        .map(|name| profile_dir.join("examples").join(name))
        .collect()
}

/// The examples print nothing that differs between runs of the same program (issue 12, item 6): each numbered
/// example, run twice — as two OS processes, whose process ids differ (example 05 prints the IPC handle it
/// exports, whose bytes 24..28 hold the OS process id; example 06's racy host read gets bytes that vary) —
/// prints exactly the same text; example 05 shows the handle's stable bytes, example 06 not the racy bytes.
#[test]
fn the_examples_print_the_same_text_on_every_run() {
    let names = [
        "01_elapsed_time",
        "02_multi_stream_wait",
        "03_stream_vs_event_sync",
        "04_multi_device_p2p",
        "05_ipc_event",
        "06_find_a_race",
        "07_caching_allocator",
    ];
    for (name, exe) in names.iter().zip(examples(&names)) {
        let runs: Vec<String> = (0..2)
            .map(|_| {
                let out = std::process::Command::new(&exe)
                    .output()
                    .expect("running the example");
                assert!(
                    out.status.success(),
                    "{name}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                String::from_utf8(out.stdout).expect("UTF-8 output")
            })
            .collect();
        assert_eq!(runs[0], runs[1], "{name}");
        if *name == "05_ipc_event" {
            assert!(
                runs[0].starts_with(
                    "A: exported handle 5353494d495043310000000001000000c15c0289ec2d0a91… (bytes 24..28: \
                     the OS process id, not shown)\n"
                ),
                "{}",
                runs[0]
            );
        }
    }
}
