//! Value waits and writes on device words (ACL's `aclrtValueWait` / `aclrtValueWrite`).

pub(crate) mod calls;
pub(crate) mod state;
