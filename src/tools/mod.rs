//! The tools, built on the engine and the vendor layer: the scenario language and its runner
//! ([`scenario`]), the exporters that draw a trace ([`export`]: Chrome/Perfetto JSON, the terminal timeline),
//! and the property-testing strategy ([`testing`], feature `proptest`).

pub(crate) mod c_trace;
pub mod export;
pub mod scenario;
#[cfg(feature = "proptest")]
pub mod testing;
