//! Limits every part of the engine shares.

/// The most devices a machine can have.
pub const MAX_DEVICES: u32 = 1024;
