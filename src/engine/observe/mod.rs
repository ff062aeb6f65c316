//! Observation: the trace and what it keeps, names given to streams and events, and race detection.

pub(crate) mod names;
pub mod race;
pub mod trace;
pub(crate) mod trace_store;
