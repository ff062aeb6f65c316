//! The MUSA events article §2.2 — make one stream wait for another with an event, without blocking the host.
//!
//! ```c
//! kernel1<<<1, 1, 0, stream1>>>();
//! kernel2<<<1, 1, 0, stream2>>>();
//! musaEventRecord(event1, stream2);
//! musaStreamWaitEvent(stream1, event1);
//! kernel<<<1, 1, 0, stream1>>>();
//! ```
//!
//! Run with `cargo run --example 02_multi_stream_wait`. `kernel` is queued on stream1 right behind `kernel1`,
//! but it starts only when `kernel2` (stream2) ends: the wait makes stream1 depend on the record point of
//! event1, which is "everything enqueued on stream2 so far". The host never blocks until the final
//! synchronize. The program runs twice, with and without the wait, to show the difference.

use std::time::Duration;

use streamsim::{EventFlags, Kernel, Machine, StreamFlags, Trace};

/// Runs the seed's program; `wait` says whether stream1 waits for event1. Returns the machine's trace.
fn run(wait: bool) -> Result<Trace, streamsim::SimError> {
    let machine = Machine::builder().devices(1).seed(0).build()?;
    let p = machine.process();
    let cost = machine.cost_model().clone();

    let stream1 = p.create_stream(StreamFlags::DEFAULT)?;
    let stream2 = p.create_stream(StreamFlags::DEFAULT)?;
    let event1 = p.create_event(EventFlags::DEFAULT)?;

    p.launch(
        stream1,
        Kernel::new("kernel1").duration(Duration::from_micros(20)),
    )?;
    let kernel2_enqueued = p.now();
    p.launch(
        stream2,
        Kernel::new("kernel2").duration(Duration::from_micros(50)),
    )?;
    if wait {
        p.record_event(event1, stream2)?;
        p.stream_wait_event(stream1, event1)?;
    }
    p.launch(stream1, Kernel::new("kernel"))?; // the cost model's default duration
    let host_before_sync = p.now();

    p.device_synchronize()?;
    let host_after_sync = p.now();

    let trace = machine.trace();
    let kernel1 = trace.find("kernel1").expect("kernel1 ran");
    let kernel2 = trace.find("kernel2").expect("kernel2 ran");
    let kernel = trace.find("kernel").expect("kernel ran");

    // Every call advances the host clock by `api_call`; an operation can start `launch_latency` after the
    // call that enqueued it, on an idle stream.
    let kernel2_call = kernel2_enqueued.plus(cost.api_call.as_nanos() as u64);
    assert_eq!(
        kernel2.start,
        kernel2_call.plus(cost.launch_latency.as_nanos() as u64)
    );
    assert_eq!(
        kernel.end.as_nanos() - kernel.start.as_nanos(),
        cost.default_kernel.as_nanos() as u64
    );
    // The host did not wait for anything before the synchronize, which returns when the last kernel ends.
    assert!(host_before_sync < kernel1.end);
    assert_eq!(host_after_sync, kernel.end.max(kernel2.end));

    if wait {
        // The claim of the seed: the dependent kernel starts after kernel2 ends, not after kernel1.
        assert_eq!(kernel.start, kernel2.end);
        assert!(kernel2.end > kernel1.end);
    } else {
        // Without the wait, stream1 only follows its own order.
        assert_eq!(kernel.start, kernel1.end);
        assert!(kernel.start < kernel2.end);
    }
    Ok(trace)
}

/// Prints the trace as the library's terminal timeline (the one `streamsim run` draws).
fn print_timeline(trace: &Trace) {
    println!("{}", streamsim::export::Timeline::new(trace).width(100));
}

fn main() -> Result<(), streamsim::SimError> {
    println!("With musaStreamWaitEvent(stream1, event1):");
    let with_wait = run(true)?;
    print_timeline(&with_wait);
    let kernel2 = with_wait.find("kernel2").expect("kernel2 ran");
    let kernel = with_wait.find("kernel").expect("kernel ran");
    println!(
        "  → kernel (stream 1) starts at {}, when kernel2 (stream 2) ends at {}",
        kernel.start, kernel2.end
    );

    println!("\nWithout the record and the wait:");
    let without = run(false)?;
    print_timeline(&without);
    let kernel1 = without.find("kernel1").expect("kernel1 ran");
    let kernel = without.find("kernel").expect("kernel ran");
    println!(
        "  → kernel starts at {}, right after kernel1 ends at {}, while kernel2 is still running",
        kernel.start, kernel1.end
    );

    // Same program, same timestamps: run it again and compare the whole trace.
    assert_eq!(run(true)?, with_wait);
    println!("\nA second run gave an identical trace, timestamps and all.");
    Ok(())
}
