//! The CANN stream-vs-event note — stream synchronize vs event synchronize, and what each one waits for.
//!
//! The seed (CANN runtime FAQ) names the typical mistake:
//!
//! ```c
//! // needs to wait for cross-stream work, but synchronizes a stream
//! aclrtSynchronizeStream(stream1); // waits for stream1 only, not for stream2
//! ```
//!
//! then recommends a stream synchronize for one stream's batch:
//!
//! ```c
//! aclrtMemcpyAsync(dst, size, src, size, ACL_MEMCPY_HOST_TO_DEVICE, stream);
//! myKernel<<<..., stream>>>();
//! aclrtMemcpyAsync(host, size, dst, size, ACL_MEMCPY_DEVICE_TO_HOST, stream);
//! aclrtSynchronizeStream(stream); // waits for all three tasks
//! ```
//!
//! and events for cross-stream coordination and for precise points in time:
//!
//! ```c
//! // Event synchronize: control a precise point in time
//! aclrtMemcpyAsync(dst, size, src, size, ACL_MEMCPY_HOST_TO_DEVICE, stream1);
//! aclrtRecordEvent(event1, stream1);      // record time point 1
//! aclrtStreamWaitEvent(stream2, event1);  // stream2 waits for event1
//! myKernel<<<..., stream2>>>();
//! aclrtRecordEvent(event2, stream2);      // record time point 2
//! aclrtSynchronizeEvent(event2);          // wait until time point 2 is reached
//!
//! // Scenario 3: precise time points → event synchronize
//! aclrtMemcpyAsync(dst, size, src, size, ACL_MEMCPY_HOST_TO_DEVICE, stream);
//! aclrtRecordEvent(event1, stream);  // input copy done
//! myKernel<<<..., stream>>>();
//! aclrtRecordEvent(event2, stream);  // kernel done
//! aclrtMemcpyAsync(host, size, dst, size, ACL_MEMCPY_DEVICE_TO_HOST, stream);
//! aclrtRecordEvent(event3, stream);  // output copy done
//! aclrtSynchronizeEvent(event2);     // waits for the kernel only, not for the later copy
//! ```
//!
//! Scenario 3 below joins the two: the input copy and event1 on stream1, the wait, the kernel, event2, the
//! output copy and event3 on stream2, then `event_synchronize(event2)`.
//!
//! Its related issue is "aclrtSynchronizeStream error 507015" (ACL_ERROR_RT_AICORE_EXCEPTION): a kernel that
//! fails on the device is reported by the next synchronize of its stream. Scenario 4 shows that case.
//!
//! Run with `cargo run --example 03_stream_vs_event_sync`. streamsim speaks the CUDA dialect for now, so the
//! calls are `stream_synchronize`, `record_event`, `stream_wait_event`, `event_synchronize`; the semantics shown
//! here are the same in both runtimes. Every scenario runs on a fresh machine, so its clock starts at 0.

use std::time::Duration;

use streamsim::{
    EventFlags, FaultKind, HostEvent, Kernel, Machine, OpKind, SimError, Status, StreamFlags,
    Trace, TraceEvent,
};

type Result<T> = std::result::Result<T, SimError>;

const MIB: u64 = 1 << 20;

fn pattern(n: u64) -> Vec<u8> {
    (0..n).map(|i| (i % 251) as u8).collect()
}

/// `stream 2  memcpy DeviceToHost 1048576 B   107.000 µs .. 174.536 µs`
fn describe(op: &TraceEvent) -> String {
    let what = match &op.kind {
        OpKind::Memcpy { path, bytes } => format!("memcpy {path:?} {bytes} B"),
        OpKind::Kernel => format!("kernel {}", op.label),
        _ => op.label.to_string(),
    };
    format!(
        "{:<9} {:<32} {:>11} .. {:>11}",
        op.stream.to_string(),
        what,
        op.start.to_string(),
        op.end.to_string()
    )
}

/// Process 0's blocking host call whose label starts with `label`.
fn host_call<'t>(trace: &'t Trace, label: &str) -> &'t HostEvent {
    trace
        .host
        .iter()
        .find(|h| h.process.0 == 0 && h.label.starts_with(label))
        .unwrap_or_else(|| panic!("no host call {label} in the trace"))
}

/// Prints when a blocking call was made and returned, and which operations had finished by then.
fn explain(trace: &Trace, call: &HostEvent) {
    println!(
        "  {}: called at {}, returned at {}",
        call.label, call.start, call.end
    );
    for op in &trace.ops {
        if matches!(op.kind, OpKind::Record { .. } | OpKind::Wait { .. }) {
            continue;
        }
        let state = if op.end <= call.end {
            "finished"
        } else {
            "NOT finished"
        };
        println!("    {state:<12} {}", describe(op));
    }
}

/// (1) The typical error: the host needs data produced on stream2 but synchronizes stream1.
fn typical_error() -> Result<()> {
    println!(
        "Scenario 1 — the typical error: synchronize stream1, read data that stream2 produces"
    );
    let machine = Machine::builder().build()?;
    let p = machine.process();
    let stream1 = p.create_stream(StreamFlags::DEFAULT)?;
    let stream2 = p.create_stream(StreamFlags::DEFAULT)?;
    let dev = p.malloc(MIB)?;
    let host = p.malloc_host(MIB)?;

    let data = pattern(MIB);
    p.launch(
        stream2,
        Kernel::new("produce")
            .duration(Duration::from_micros(100))
            .writes(dev, MIB)
            .body(move |ctx| ctx.write(dev, &data)),
    )?;
    p.memcpy_async(host, dev, MIB, stream2)?;
    p.launch(
        stream1,
        Kernel::new("other").duration(Duration::from_micros(20)),
    )?;

    p.stream_synchronize(stream1)?; // the mistake: the data comes from stream2
    let after_wrong_sync = p.now();
    // Reading `host` now would race with the copy; the query tells the truth, deterministically.
    let status = p.stream_query(stream2)?;
    assert_eq!(status, Status::NotReady);

    p.stream_synchronize(stream2)?; // the fix (or record an event on stream2 and synchronize that)
    let mut got = vec![0u8; MIB as usize];
    p.host_read(host, &mut got)?;
    assert_eq!(got, pattern(MIB));

    let trace = machine.trace();
    let wrong = host_call(&trace, "stream_synchronize(stream 1)");
    explain(&trace, wrong);
    let copy = trace
        .ops
        .iter()
        .find(|op| matches!(op.kind, OpKind::Memcpy { .. }))
        .expect("the copy ran");
    assert_eq!(wrong.end, after_wrong_sync);
    assert_eq!(wrong.end, trace.find("other").expect("other ran").end);
    assert!(copy.end > wrong.end);
    println!("  stream_query(stream 2) right after it: {status:?}");
    println!(
        "  → the device-to-host copy on stream 2 ends at {}, {} after the synchronize returned",
        copy.end,
        streamsim::VirtualTime(copy.end.as_nanos() - wrong.end.as_nanos())
    );
    let fix = host_call(&trace, "stream_synchronize(stream 2)");
    explain(&trace, fix);
    assert_eq!(fix.end, copy.end);
    println!("  → after stream_synchronize(stream 2) the host reads the {MIB} bytes it expects");
    Ok(())
}

/// (2) One stream's batch: H2D copy, kernel, D2H copy, then one stream synchronize.
fn single_stream_batch() -> Result<()> {
    println!("\nScenario 2 — one stream's batch, one stream synchronize");
    let machine = Machine::builder().build()?;
    let p = machine.process();
    let stream = p.create_stream(StreamFlags::DEFAULT)?;
    let dev = p.malloc(MIB)?;
    let src = p.malloc_host(MIB)?;
    let out = p.malloc_host(MIB)?;
    p.host_write(src, &pattern(MIB))?;

    p.memcpy_async(dev, src, MIB, stream)?;
    p.launch(
        stream,
        Kernel::new("myKernel")
            .duration(Duration::from_micros(30))
            .reads(dev, MIB)
            .writes(dev, MIB)
            .body(move |ctx| {
                let mut bytes = vec![0u8; MIB as usize];
                ctx.read(dev, &mut bytes)?;
                bytes.iter_mut().for_each(|b| *b = b.wrapping_add(1));
                ctx.write(dev, &bytes)
            }),
    )?;
    p.memcpy_async(out, dev, MIB, stream)?;
    p.stream_synchronize(stream)?;
    let after = p.now();

    let mut got = vec![0u8; MIB as usize];
    p.host_read(out, &mut got)?;
    let want: Vec<u8> = pattern(MIB).iter().map(|b| b.wrapping_add(1)).collect();
    assert_eq!(got, want);

    let trace = machine.trace();
    let sync = host_call(&trace, "stream_synchronize");
    explain(&trace, sync);
    let last = trace.ops.last().expect("three operations ran");
    assert_eq!(trace.ops.len(), 3);
    assert!(trace.ops.iter().all(|op| op.end <= sync.end));
    assert_eq!(sync.end, last.end);
    assert_eq!(after, last.end);
    println!(
        "  → it returned when the last of the three tasks (the D2H copy) ended; the output is right"
    );
    Ok(())
}

/// (3) Cross-stream coordination with record/wait, and an event synchronize on one precise point.
fn event_points() -> Result<()> {
    println!(
        "\nScenario 3 — record/wait across streams; event_synchronize(event2) waits for the kernel only"
    );
    let machine = Machine::builder().build()?;
    let p = machine.process();
    let stream1 = p.create_stream(StreamFlags::DEFAULT)?;
    let stream2 = p.create_stream(StreamFlags::DEFAULT)?;
    let event1 = p.create_event(EventFlags::DEFAULT)?;
    let event2 = p.create_event(EventFlags::DEFAULT)?;
    let event3 = p.create_event(EventFlags::DEFAULT)?;
    let input = p.malloc(MIB)?;
    let output = p.malloc(MIB)?;
    let src = p.malloc_host(MIB)?;
    let host = p.malloc_host(MIB)?;
    p.host_write(src, &pattern(MIB))?;

    p.memcpy_async(input, src, MIB, stream1)?;
    p.record_event(event1, stream1)?; // time point 1: input copied
    p.stream_wait_event(stream2, event1)?;
    p.launch(
        stream2,
        Kernel::new("myKernel")
            .duration(Duration::from_micros(40))
            .reads(input, MIB)
            .writes(output, MIB)
            .body(move |ctx| {
                let mut bytes = vec![0u8; MIB as usize];
                ctx.read(input, &mut bytes)?;
                bytes.reverse();
                ctx.write(output, &bytes)
            }),
    )?;
    p.record_event(event2, stream2)?; // time point 2: kernel done
    p.memcpy_async(host, output, MIB, stream2)?;
    p.record_event(event3, stream2)?; // time point 3: output copied

    p.event_synchronize(event2)?;
    let after = p.now();
    let status3 = p.event_query(event3)?;
    assert_eq!(status3, Status::NotReady);

    p.event_synchronize(event3)?;
    let mut got = vec![0u8; MIB as usize];
    p.host_read(host, &mut got)?;
    let mut want = pattern(MIB);
    want.reverse();
    assert_eq!(got, want);

    let trace = machine.trace();
    let sync2 = host_call(&trace, "event_synchronize(event 2)");
    explain(&trace, sync2);
    println!("  event_query(event3) right after it: {status3:?}");
    let h2d = trace.ops.iter().find(|op| {
        matches!(
            op.kind,
            OpKind::Memcpy {
                path: streamsim::CopyPath::HostToDevice,
                ..
            }
        )
    });
    let d2h = trace.ops.iter().find(|op| {
        matches!(
            op.kind,
            OpKind::Memcpy {
                path: streamsim::CopyPath::DeviceToHost,
                ..
            }
        )
    });
    let (h2d, d2h) = (h2d.expect("H2D ran"), d2h.expect("D2H ran"));
    let kernel = trace.find("myKernel").expect("kernel ran");
    // The wait: the kernel on stream2 starts when the copy on stream1 (event1) ends.
    assert_eq!(kernel.start, h2d.end);
    // event_synchronize(event2) returned when the kernel ended, before the output copy.
    assert_eq!(sync2.end, after);
    assert_eq!(sync2.end, kernel.end);
    assert!(d2h.end > sync2.end);
    println!(
        "  → myKernel (stream 2) started at {} = end of the H2D copy on stream 1 (event1);",
        kernel.start
    );
    println!(
        "    the host resumed at {} (event2) while the D2H copy ran on until {} (event3)",
        sync2.end, d2h.end
    );
    let k_ms = p.event_elapsed_ms(event1, event2)?;
    let c_ms = p.event_elapsed_ms(event2, event3)?;
    println!(
        "  elapsed event1 → event2 = {k_ms} ms (the kernel), event2 → event3 = {c_ms} ms (the copy)"
    );
    assert_eq!(k_ms, kernel.end.ms_since(h2d.end));
    assert_eq!(c_ms, d2h.end.ms_since(kernel.end));
    explain(&trace, host_call(&trace, "event_synchronize(event 3)"));
    Ok(())
}

/// (4) A kernel that fails: reported by the next synchronize of its stream; another stream's work goes on.
fn kernel_fault() -> Result<()> {
    println!("\nScenario 4 — a failing kernel (\"aclrtSynchronizeStream error 507015\")");
    let machine = Machine::builder().build()?;
    let p = machine.process();
    let stream1 = p.create_stream(StreamFlags::DEFAULT)?;
    let stream2 = p.create_stream(StreamFlags::DEFAULT)?;
    let dev = p.malloc(MIB)?;
    let host = p.malloc_host(MIB)?;

    p.launch(
        stream1,
        Kernel::new("faulty")
            .duration(Duration::from_micros(100))
            .body(|_| Err("AI Core exception: illegal instruction".into())),
    )?;
    let launch_status = p.take_last_error();
    println!(
        "  launch of `faulty` on stream 1: Ok (the launch is asynchronous; last error {launch_status:?})"
    );
    let data = pattern(MIB);
    p.launch(
        stream2,
        Kernel::new("healthy")
            .duration(Duration::from_micros(20))
            .writes(dev, MIB)
            .body(move |ctx| ctx.write(dev, &data)),
    )?;
    p.memcpy_async(host, dev, MIB, stream2)?;

    // stream2 is unaffected: its work runs and its synchronize succeeds.
    p.stream_synchronize(stream2)?;
    let mut got = vec![0u8; MIB as usize];
    p.host_read(host, &mut got)?;
    assert_eq!(got, pattern(MIB));
    println!(
        "  stream_synchronize(stream 2) returned at {}: Ok, and stream 2's output is right",
        p.now()
    );

    // The next synchronize of stream1 reports the fault.
    let err = p
        .stream_synchronize(stream1)
        .expect_err("the faulty kernel is reported");
    println!(
        "  stream_synchronize(stream 1) returned at {}: Err({err})",
        p.now()
    );
    match &err {
        SimError::KernelFault {
            kind,
            stream,
            label,
            ..
        } => {
            assert_eq!(*kind, FaultKind::LaunchFailure);
            assert_eq!(*stream, p.stream_id(stream1)?);
            assert_eq!(label, "faulty");
        }
        other => panic!("expected a KernelFault, got {other:?}"),
    }

    // From now on the error is sticky for this device in this process, as on the vendors' runtimes ...
    let later = p.stream_query(stream2);
    assert_eq!(later, Err(err.clone()));
    println!(
        "  stream_query(stream 2) afterwards: Err, the same KernelFault (sticky in this process)"
    );
    // ... while another process on the same machine keeps working.
    let other = machine.process();
    let s = other.create_stream(StreamFlags::DEFAULT)?;
    other.launch(s, Kernel::new("other process"))?;
    other.stream_synchronize(s)?;
    println!(
        "  another process on the same device: launch + stream_synchronize → Ok (its host clock: {})",
        other.now()
    );

    let trace = machine.trace();
    let faulty = trace.find("faulty").expect("faulty ran");
    let sync1 = host_call(&trace, "stream_synchronize(stream 1)");
    println!("  trace:");
    for op in &trace.ops {
        println!("    process {}  {}", op.stream.process, describe(op));
    }
    assert_eq!(sync1.end, faulty.end);
    println!(
        "  → stream_synchronize(stream 1) waited until `faulty` ended at {}, then reported it",
        sync1.end
    );
    Ok(())
}

fn main() -> Result<()> {
    typical_error()?;
    single_stream_batch()?;
    event_points()?;
    kernel_fault()?;
    Ok(())
}
