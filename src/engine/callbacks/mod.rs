//! Callbacks: ACL's stream callbacks, run by subscribed host threads.

pub(crate) mod subscribed;
