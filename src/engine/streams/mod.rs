//! Streams: the stream calls of a process (create, destroy, synchronize, query; `calls.rs`), a stream's registry
//! entry (its worker's queue, race-detection clock, held operations; `entry.rs`) and what a
//! stream reports about itself (its device, its program-wide id).

pub(crate) mod calls;
pub(crate) mod entry;
pub mod info;
