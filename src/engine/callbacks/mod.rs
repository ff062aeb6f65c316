//! Callbacks: ACL's stream callbacks, run by subscribed host threads.

pub(crate) mod reports;
pub(crate) mod subscribed;
