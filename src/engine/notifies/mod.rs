//! ACL notifies: create, record, wait (with its timeout), reset.

pub(crate) mod calls;
pub(crate) mod state;
