//! Events: create, record, wait, query, synchronize, elapsed time, reset, ACL event kinds.

pub(crate) mod calls;
