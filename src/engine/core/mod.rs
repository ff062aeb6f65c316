//! The engine's vocabulary: errors, handles and ids, virtual time and the cost model, the rules table, the
//! seeded rng, schedules and hang reports. Nothing here imports a file of the engine outside `core/`.

pub(crate) mod calls;
pub mod error;
pub mod handle;
pub mod hang;
pub(crate) mod labels;
pub(crate) mod limits;
pub(crate) mod pointers;
pub(crate) mod problems;
pub(crate) mod races;
pub(crate) mod registry;
pub(crate) mod rng;
pub mod rules;
#[cfg(target_os = "linux")]
pub(crate) mod signals;
pub(crate) mod status;
pub mod time;
