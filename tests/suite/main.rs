//! streamsim's integration tests: one binary, one module per concern. New tests go in the module of their
//! concern; a new concern gets a new file here and a `mod` line below.
//!
//! Truth-table tests name the row of `shared/reference/*.md` they check in their doc comment, e.g.
//! `/// cuda-musa.md · Events · EventQuery · never recorded → 0 Success`.

mod common;
mod cuda_events;
mod cuda_streams;
mod determinism;
mod golden;
mod scenarios;
mod shutdown;
mod smoke;
mod stress;
