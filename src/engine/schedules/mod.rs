//! Harsh schedules and hangs: the serialize schedule (one operation at a time, in the seed's order) and the
//! real-time watchdog (rules in `docs/semantics/schedules-and-hangs.md`).

pub(crate) mod serialize;
pub(crate) mod watchdog;
