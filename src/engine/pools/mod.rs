//! Memory pools (stream-ordered allocation): chunks, freed ranges and the reuse policies, and the pool calls.

pub(crate) mod access;
pub(crate) mod calls;
pub mod state;
