//! The MUSA events article §2.3 — IPC events: two processes share one event.
//!
//! ```c
//! // process A
//! musaEventCreateWithFlags(&event, musaEventDisableTiming | musaEventInterprocess);
//! musaIpcGetEventHandle(&handle, event);
//! memcpy(IPC_Shared, &handle, sizeof(musaIpcEventHandle_t));
//! // process B
//! memcpy(&ipc_handle, IPC_Shared, sizeof(musaIpcEventHandle_t));
//! musaIpcOpenEventHandle(&ipc_event, ipc_handle);
//! musaStreamWaitEvent(stream, ipc_event);
//! ```
//!
//! Run with `cargo run --example 05_ipc_event`. Two simulated processes of one machine (`machine.process()`),
//! each on its own host thread. A exports its event's 64-byte handle into a shared host buffer (`IPC_Shared`);
//! B copies the bytes out, opens the event, and makes its stream wait for it, so B's kernel starts when A's
//! kernel ends. A tells B (a host channel: any host IPC would do) once it has recorded the event: a CUDA/MUSA
//! wait on an event that has never been recorded is a no-op, so B must not wait earlier. The opened event works
//! for waits and queries, never for timing. Everything printed is the same on every run: the handle is shown
//! without its OS process id (`IpcEventHandle::stable_bytes`).

use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use streamsim::{EventFlags, IpcEventHandle, Kernel, Machine, SimError, StreamFlags, Trace};

/// `IPC_Shared`: host memory both processes can see (in real life, shared memory or a socket).
type IpcShared = Arc<Mutex<[u8; 64]>>;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Prints the trace as the library's terminal timeline (the one `streamsim run` draws).
fn print_timeline(trace: &Trace) {
    println!("{}", streamsim::export::Timeline::new(trace).width(100));
}

fn main() -> Result<(), SimError> {
    let machine = Machine::builder().devices(1).seed(0).build()?;
    let (a, b) = (machine.process(), machine.process());
    let ipc_shared: IpcShared = Arc::new(Mutex::new([0u8; 64]));
    let (recorded_tx, recorded_rx) = mpsc::channel::<()>();

    // Process A, on its own host thread.
    let shared = ipc_shared.clone();
    let process_a = thread::spawn(move || -> Result<Vec<String>, SimError> {
        let mut log = Vec::new();
        let stream = a.create_stream(StreamFlags::DEFAULT)?;
        let event = a.create_event(EventFlags::DISABLE_TIMING | EventFlags::INTERPROCESS)?;
        let handle = a.ipc_get_event_handle(event)?; // musaIpcGetEventHandle(&handle, event)
        shared
            .lock()
            .expect("IPC_Shared")
            .copy_from_slice(&handle.0); // memcpy(IPC_Shared, &handle, 64)
        // Bytes 24..28 hold the OS process id, which differs between runs: not printed. The rest is the same on
        // every run (28..64 are zero).
        log.push(format!(
            "A: exported handle {}… (bytes {:?}: the OS process id, not shown)",
            hex(&handle.stable_bytes()[..IpcEventHandle::OS_PROCESS_BYTES.start]),
            IpcEventHandle::OS_PROCESS_BYTES
        ));
        a.launch(
            stream,
            Kernel::new("A: producer").duration(Duration::from_micros(200)),
        )?;
        a.record_event(event, stream)?;
        recorded_tx.send(()).expect("B is listening");
        // Opening the handle in the process that exported it is an error (CUDA 201).
        let own = a.ipc_open_event_handle(&handle).unwrap_err();
        log.push(format!("A: opening its own handle → {own}"));
        a.stream_synchronize(stream)?;
        Ok(log)
    });

    // Process B, on its own host thread.
    let process_b = thread::spawn(move || -> Result<Vec<String>, SimError> {
        let mut log = Vec::new();
        recorded_rx.recv().expect("A records the event");
        let mut bytes = [0u8; 64];
        bytes.copy_from_slice(&*ipc_shared.lock().expect("IPC_Shared")); // memcpy(&ipc_handle, IPC_Shared, 64)
        let ipc_event = b.ipc_open_event_handle(&IpcEventHandle(bytes))?; // musaIpcOpenEventHandle
        let stream = b.create_stream(StreamFlags::DEFAULT)?;
        b.stream_wait_event(stream, ipc_event)?; // musaStreamWaitEvent(stream, ipc_event)
        b.launch(
            stream,
            Kernel::new("B: consumer").duration(Duration::from_micros(50)),
        )?;
        let status = b.event_query(ipc_event)?;
        log.push(format!("B: query of the opened event → {status:?}"));
        let timing = b.event_elapsed_ms(ipc_event, ipc_event).unwrap_err();
        log.push(format!("B: elapsed time of the opened event → {timing}"));
        let zeroed = b
            .ipc_open_event_handle(&IpcEventHandle([0u8; 64]))
            .unwrap_err();
        log.push(format!("B: opening a zeroed handle → {zeroed}"));
        b.stream_synchronize(stream)?;
        let status = b.event_query(ipc_event)?;
        log.push(format!("B: query after synchronizing → {status:?}"));
        Ok(log)
    });

    // Each process's messages, A's first (the threads ran concurrently; their virtual times do not depend on it).
    for line in process_a.join().expect("process A")? {
        println!("{line}");
    }
    for line in process_b.join().expect("process B")? {
        println!("{line}");
    }

    println!("\nTimeline (virtual time; each process's host clock starts at 0):");
    let trace = machine.trace();
    print_timeline(&trace);
    let producer = trace.find("A: producer").expect("A's kernel ran");
    let consumer = trace.find("B: consumer").expect("B's kernel ran");
    println!(
        "  → B's consumer starts at {}, when A's producer ends ({}): the wait crossed processes",
        consumer.start, producer.end
    );
    assert_eq!(consumer.start, producer.end);
    Ok(())
}
