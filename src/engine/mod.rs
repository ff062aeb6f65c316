//! The engine: the vendor-neutral simulator core (machine, processes, streams and their workers and queues,
//! events, memory, virtual time, the rules table, happens-before and races, sticky faults, the trace, handles
//! and errors). Nothing here imports the vendor layer or the tools.

pub(crate) mod block;
pub(crate) mod device;
pub(crate) mod device_profile;
pub mod device_state;
pub(crate) mod engines;
pub mod error;
pub(crate) mod event;
pub(crate) mod exec;
pub(crate) mod freed_pinned;
pub(crate) mod gate;
pub mod graph;
pub mod handle;
pub mod hang;
pub(crate) mod host;
pub mod host_memory;
pub mod ipc;
pub mod ipc_memory;
pub mod kernel;
pub mod machine;
pub mod memory;
pub(crate) mod names;
pub(crate) mod notify;
pub(crate) mod ops;
pub mod pool;
pub(crate) mod pool_api;
pub(crate) mod process;
pub(crate) mod queue;
pub mod race;
pub(crate) mod report;
pub(crate) mod rng;
pub mod rules;
pub(crate) mod serial;
pub mod stream_info;
pub mod time;
pub mod trace;
pub(crate) mod trace_store;
pub(crate) mod value;
pub(crate) mod watch;
pub(crate) mod watchdog;
pub(crate) mod workers;
