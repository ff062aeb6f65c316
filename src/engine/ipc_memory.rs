//! IPC memory: an allocation exported by one process and mapped by others.

/// The first bytes of a memory handle.
pub(crate) const MEM_MAGIC: &[u8; 8] = b"SSIMIPM1";
