//! Interprocess communication: event handles, and memory exports and mappings.

pub mod events;
pub mod memory;
pub(crate) mod tables;
