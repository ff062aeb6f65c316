//! Devices: the configuration a machine is built with, the default profile, a process's per-device settings,
//! and the calls that set the current device, make ACL contexts and enable peer access.

pub(crate) mod calls;
pub(crate) mod config;
pub(crate) mod profile;
pub(crate) mod queries;
pub mod settings;
