//! Host memory: registering host memory as pinned, device pointers of pinned memory, pointer attributes, and
//! freed pinned buffers.

pub mod calls;
pub(crate) mod freed;
