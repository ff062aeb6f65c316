//! Host memory: registering host memory as pinned, device pointers of pinned memory, pointer attributes.

pub mod calls;
