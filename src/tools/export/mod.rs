//! Seeing a [`Trace`](crate::Trace): export to the Chrome Trace Event format that the Perfetto UI and
//! `chrome://tracing` open ([`ChromeTrace`]), and a text Gantt chart for the terminal ([`Timeline`]).
//!
//! The terminal chart draws from [`TimelineModel`]: its lanes ([`Lane`]: a stream or a host thread), their
//! [`Bar`]s and [`Mark`]s and the waits with their records ([`WaitEdge`]), in virtual time and with labels,
//! but no characters or widths. It is for whoever writes another view of a timeline (an SVG or HTML page, a
//! custom report): build the model from the trace and draw it; the scaling and the glyphs are the renderer's.
//!
//! Both read only the trace, so they work for any program, and both are deterministic: the same trace gives
//! the same bytes. Streams and events show the names the program gave them ([`crate::Process::name_stream`],
//! [`crate::Process::name_event`], kept in [`Trace::names`]); [`Names`] lets a caller (a test) show its own
//! names for streams and processes instead.
//!
//! ```
//! use std::time::Duration;
//! use streamsim::export::{ChromeTrace, Timeline};
//! use streamsim::{EventFlags, Kernel, Machine, Stream};
//!
//! let machine = Machine::builder().build()?;
//! let p = machine.process();
//! let e = p.create_event(EventFlags::DEFAULT)?;
//! p.launch(Stream::DEFAULT, Kernel::new("k").duration(Duration::from_micros(40)))?;
//! p.record_event(e, Stream::DEFAULT)?;
//! p.event_synchronize(e)?;
//! let trace = machine.trace();
//! let text = Timeline::new(&trace).width(60).to_string();
//! assert!(text.lines().all(|l| l.chars().count() <= 60));
//! let json = ChromeTrace::new(&trace).to_json();
//! assert!(json.starts_with("{\"traceEvents\":["));
//! # Ok::<(), streamsim::SimError>(())
//! ```

mod chrome;
mod timeline;
mod timeline_model;

use std::collections::BTreeMap;

pub use chrome::ChromeTrace;
pub use timeline::Timeline;
pub use timeline_model::{
    Bar, BarKind, Lane, LaneKind, Mark, MarkKind, Span, TimelineModel, WaitEdge,
};

use crate::engine::core::error::SimError;
use crate::engine::core::handle::{EventId, ProcessId, StreamId, StreamKind};
use crate::engine::core::time::CopyPath;
use crate::engine::observe::trace::{OpKind, Trace};

/// Display names for streams and processes (e.g. the variable names of a scenario). Anything without a name
/// is shown by its ordinal (`stream 1`, `default stream`, `process 0`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Names {
    streams: BTreeMap<StreamId, String>,
    processes: BTreeMap<ProcessId, String>,
}

impl Names {
    /// No names.
    pub fn new() -> Names {
        Names::default()
    }

    /// Names a stream.
    pub fn stream(&mut self, id: StreamId, name: impl Into<String>) -> &mut Self {
        self.streams.insert(id, name.into());
        self
    }

    /// Names a process.
    pub fn process(&mut self, id: ProcessId, name: impl Into<String>) -> &mut Self {
        self.processes.insert(id, name.into());
        self
    }

    /// A stream's name, if it has one.
    pub fn stream_name(&self, id: StreamId) -> Option<&str> {
        self.streams.get(&id).map(String::as_str)
    }

    /// A process's name, if it has one.
    pub fn process_name(&self, id: ProcessId) -> Option<&str> {
        self.processes.get(&id).map(String::as_str)
    }
}

/// A stream's name: the caller's ([`Names`]), else the one the program gave it (the trace's).
pub(crate) fn stream_name<'a>(names: &'a Names, trace: &'a Trace, id: StreamId) -> Option<&'a str> {
    names.stream_name(id).or_else(|| trace.names.stream(id))
}

/// An event as the exporters write it: `event \`done\`` if the program named it, else `event 3`.
pub(crate) fn event_text(trace: &Trace, id: EventId) -> String {
    event_label(id, trace.names.event(id))
}

/// An event with its name, if any, as the exporters write it: `event \`done\``, else `event 3`.
pub(crate) fn event_label(id: EventId, name: Option<&str>) -> String {
    match name {
        Some(name) => format!("event `{name}`"),
        None => format!("event {id}"),
    }
}

/// What a facade returns for an error: its code and the code's name (`(400,
/// "cudaErrorInvalidResourceHandle")`). [`cuda_code`], [`musa_code`] and [`acl_code`] are the facades' own
/// mappings.
pub type ErrorCode = fn(&SimError) -> (i64, &'static str);

/// The CUDA facade's code for an error (`(400, "cudaErrorInvalidResourceHandle")`).
pub fn cuda_code(e: &SimError) -> (i64, &'static str) {
    crate::facade::binding::code_of(crate::facade::binding::Api::Cuda, e)
}

/// The MUSA facade's code for an error (`(400, "musaErrorInvalidResourceHandle")`).
pub fn musa_code(e: &SimError) -> (i64, &'static str) {
    crate::facade::binding::code_of(crate::facade::binding::Api::Musa, e)
}

/// The ACL facade's code for an error (`(107003, "ACL_ERROR_RT_STREAM_CONTEXT")`).
pub fn acl_code(e: &SimError) -> (i64, &'static str) {
    crate::facade::binding::code_of(crate::facade::binding::Api::Acl, e)
}

/// The core's name for a stream within its device: `default stream`, `per-thread stream 0`, `stream 3`.
pub(crate) fn stream_ordinal_name(id: StreamId) -> String {
    match id.kind {
        StreamKind::Legacy => "default stream".to_string(),
        StreamKind::PerThread(t) => format!("per-thread stream {t}"),
        StreamKind::Created(n) => format!("stream {n}"),
        StreamKind::ContextDefault(c) => format!("context {c} default stream"),
        StreamKind::Graph { exec, lane } => format!("graph {exec} lane {lane}"),
    }
}

/// A short name for a copy path: `H2D`, `D2H`, `D2D`, `P2P`, `D2H2D`, `H2H`.
pub(crate) fn path_short(path: CopyPath) -> &'static str {
    match path {
        CopyPath::HostToDevice => "H2D",
        CopyPath::DeviceToHost => "D2H",
        CopyPath::OnDevice => "D2D",
        CopyPath::PeerLink => "P2P",
        CopyPath::StagedThroughHost => "D2H2D",
        CopyPath::HostToHost => "H2H",
    }
}

/// What a slice is called on a chart: the kernel's name, `H2D 4096 B`, `memset 64 B`, `host-fn`.
pub(crate) fn op_caption(kind: &OpKind, label: &str) -> String {
    match kind {
        OpKind::Kernel => label.to_string(),
        OpKind::Memcpy { path, bytes } => format!("{} {}", path_short(*path), bytes_text(*bytes)),
        OpKind::Memset { bytes } => format!("memset {}", bytes_text(*bytes)),
        _ => label.to_string(),
    }
}

/// `512 B`, `4 KiB`, `1.5 MiB`: exact binary units when they divide, otherwise bytes.
pub(crate) fn bytes_text(bytes: u64) -> String {
    const UNITS: [(&str, u64); 3] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)];
    for (unit, size) in UNITS {
        if bytes >= size && bytes.is_multiple_of(size) {
            return format!("{} {unit}", bytes / size);
        }
    }
    format!("{bytes} B")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_shown_in_exact_units() {
        assert_eq!(bytes_text(0), "0 B");
        assert_eq!(bytes_text(1000), "1000 B");
        assert_eq!(bytes_text(4096), "4 KiB");
        assert_eq!(bytes_text(3 << 20), "3 MiB");
        assert_eq!(bytes_text((1 << 20) + 1), "1048577 B");
    }
}
