//! Stream queries that are runtime calls (they cost a call's virtual time, as `stream_flags` does): a stream's
//! device and its program-wide id.

use crate::engine::core::error::Result;
use crate::engine::core::handle::{StreamId, StreamKind};
use crate::engine::process::Process;

/// The id [`Process::stream_unique_id`] gives a stream: unique among the streams of a process for its whole
/// life (sim: created streams are numbered from 1 in creation order; the special streams get ids no created
/// stream can have).
pub fn unique_id(id: StreamId) -> u64 {
    match id.kind {
        StreamKind::Created(n) => u64::from(n),
        StreamKind::Legacy => (1 << 60) | u64::from(id.device),
        StreamKind::PerThread(t) => (2 << 60) | (u64::from(t) << 16) | u64::from(id.device),
        StreamKind::ContextDefault(c) => (3 << 60) | u64::from(c),
        // Not a stream a program holds; named for completeness.
        StreamKind::Graph { exec, lane } => (4 << 60) | (u64::from(exec) << 24) | u64::from(lane),
    }
}

/// Stream queries.
impl Process {
    /// The identity of `stream` (the NULL and special handles resolve to the current device's streams).
    fn stream_identity(&self, what: &'static str, stream: crate::Stream) -> Result<StreamId> {
        self.call(what, |c| {
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            Ok(st.streams.get(h)?.id)
        })
    }

    /// The device `stream` belongs to (CUDA `cudaStreamGetDevice`).
    pub fn stream_device(&self, stream: crate::Stream) -> Result<u32> {
        Ok(self.stream_identity("stream_device", stream)?.device)
    }

    /// The program-wide id of `stream` (CUDA `cudaStreamGetId`), see [`unique_id`].
    pub fn stream_unique_id(&self, stream: crate::Stream) -> Result<u64> {
        Ok(unique_id(self.stream_identity("stream_unique_id", stream)?))
    }
}
