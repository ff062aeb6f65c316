//! Streams: a stream's registry entry (its worker's queue, race-detection clock, held operations) and what a
//! stream reports about itself (its device, its program-wide id).

pub(crate) mod entry;
pub mod info;
