//! Host memory: registering host memory as pinned, device pointers of pinned memory, pointer attributes, and
//! managed (unified) memory.

pub mod calls;
pub mod managed;
