//! Streams: what a stream reports about itself (its device, its program-wide id).

pub mod info;
