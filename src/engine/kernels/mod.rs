//! Kernels: what a launch carries and what a kernel body sees.

pub mod kernel;
pub(crate) mod launch;
