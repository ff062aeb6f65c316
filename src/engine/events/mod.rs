//! Events: create, record, wait, query, synchronize, elapsed time, reset, ACL event kinds.

pub(crate) mod calls;
pub(crate) mod config;
pub(crate) mod state;
