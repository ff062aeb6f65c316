//! Stream-ordered memory: memory pools, `malloc_async` / `free_async`, address reuse under the reuse policies,
//! and the lifetime checks of the race detector. The rows are `docs/semantics/stream-ordered-memory.md`'s;
//! each test names the row it checks.

mod attributes;
mod bad_input;
mod lifetime;
mod reuse;

use streamsim::{Machine, Process, RaceDetection, Stream, StreamFlags};

/// A one-device CUDA machine (race detection collecting), a process and two non-blocking streams.
pub(crate) fn two_streams() -> (Machine, Process, Stream, Stream) {
    let m = Machine::builder()
        .devices(1)
        .race_detection(RaceDetection::Collect)
        .build()
        .expect("machine");
    let p = m.process();
    let s1 = p.create_stream(StreamFlags::NON_BLOCKING).expect("s1");
    let s2 = p.create_stream(StreamFlags::NON_BLOCKING).expect("s2");
    (m, p, s1, s2)
}
