//! The tools, built on the engine and the vendor layer: the scenario language and its runner
//! ([`scenario`]), the exporters that draw a trace ([`export`]: Chrome/Perfetto JSON, the terminal timeline),
//! the property-testing strategy ([`testing`], feature `proptest`), and the
//! compiler driver of `streamsim cc` ([`cc`]).

pub(crate) mod c_trace;
pub mod cc;
pub mod exec;
pub mod export;
pub mod scenario;
#[cfg(feature = "proptest")]
pub mod testing;
