//! The MUSA events article §2.1 — measure a kernel with two events.
//!
//! ```c
//! musaEventRecord(event1);
//! kernel<<<1, 1>>>();
//! musaEventRecord(event2);
//! musaEventSynchronize(event2);
//! float time_ms;
//! musaEventElapsedTime(&time_ms, event1, event2);
//! ```
//!
//! Run with `cargo run --example 01_elapsed_time`. The elapsed time is the kernel's virtual duration plus the
//! modelled gap between the two launches (one API call, 1 µs by default), identical on every run.

use std::time::Duration;

use streamsim::{EventFlags, Kernel, Machine, Status, Stream};

fn main() -> Result<(), streamsim::SimError> {
    let machine = Machine::builder().devices(1).seed(0).build()?;
    let p = machine.process();

    let event1 = p.create_event(EventFlags::DEFAULT)?;
    let event2 = p.create_event(EventFlags::DEFAULT)?;

    p.record_event(event1, Stream::DEFAULT)?;
    p.launch(
        Stream::DEFAULT,
        Kernel::new("kernel").duration(Duration::from_micros(250)),
    )?;
    p.record_event(event2, Stream::DEFAULT)?;

    // The record is asynchronous: right after it, the event is not reached yet.
    let status = p.event_query(event2)?;
    println!("musaEventQuery(event2) right after the record: {status:?}");
    assert_eq!(status, Status::NotReady);

    p.event_synchronize(event2)?;
    let time_ms = p.event_elapsed_ms(event1, event2)?;
    println!("musaEventElapsedTime(event1, event2) = {time_ms} ms");
    println!(
        "  = kernel 0.250 ms + launch gap {} (one API call)",
        streamsim::VirtualTime(machine.cost_model().api_call.as_nanos() as u64)
    );
    assert_eq!(time_ms, 0.251);

    println!("\ntrace:");
    for op in machine.trace().ops {
        println!(
            "  {:<28} {:<8} {:>12} .. {:>12}  {}",
            op.stream.to_string(),
            op.kind.name(),
            op.start.to_string(),
            op.end.to_string(),
            op.label
        );
    }
    for h in machine.trace().host {
        println!(
            "  host thread {:<16} {:>12} .. {:>12}  {}",
            h.thread,
            h.start.to_string(),
            h.end.to_string(),
            h.label
        );
    }
    Ok(())
}
