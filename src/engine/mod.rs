//! The engine: the vendor-neutral simulator (machine, processes, streams and their workers and queues,
//! events, memory, virtual time, the rules table, happens-before and races, sticky faults, the trace, handles
//! and errors). Nothing here imports the facades or the tools; the code map in `lib.rs` says what each folder
//! holds.

pub(crate) mod callbacks;
pub(crate) mod core;
pub(crate) mod devices;
pub(crate) mod events;
pub(crate) mod exec;
pub mod graph;
pub(crate) mod host;
pub(crate) mod host_memory;
pub(crate) mod ipc;
pub(crate) mod kernels;
pub mod machine;
pub mod memory;
pub(crate) mod notifies;
pub(crate) mod observe;
pub(crate) mod pools;
pub(crate) mod process;
pub(crate) mod schedules;
pub(crate) mod streams;
pub(crate) mod value_waits;
