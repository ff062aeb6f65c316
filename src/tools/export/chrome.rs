//! [`ChromeTrace`]: a [`Trace`] as Chrome Trace Event JSON (the format of `chrome://tracing`, which the
//! Perfetto UI also opens).
//!
//! Layout of the file:
//! - one *process* (pid = process ordinal + 1) per simulated process, named `process 0` (or its [`Names`]
//!   name);
//! - in it one *thread* track per host thread that made a blocking call (`host thread 0`), then one per
//!   stream (`dev0 · stream 1`, `dev0 · default stream`), with `thread_name` / `thread_sort_index` metadata;
//! - kernels, copies, memsets and host functions are complete slices (`"ph": "X"`) at their virtual times;
//! - event records are thread-scoped instants (`"ph": "i"`);
//! - stream waits are zero-length slices, and each wait is the end of a flow arrow (`"ph": "s"` at the record
//!   it waits for, `"ph": "f"` with `"bp": "e"` at the wait, sharing an `id`);
//! - blocking host calls (synchronizes, synchronous copies) are complete slices on the host thread's track.
//!
//! Times are microseconds (`ts`, `dur`) with the nanoseconds as the fraction, so nothing is rounded. Events are
//! ordered by time; at equal times a record (and its flow start) comes before a wait, so viewers that bind flow
//! ends to an already-started flow see the start first.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use super::{Names, bytes_text, op_caption, path_short, stream_ordinal_name};
use crate::engine::handle::{ProcessId, StreamId};
use crate::engine::time::VirtualTime;
use crate::engine::trace::{OpKind, Trace, TraceEvent};

/// A trace in Chrome Trace Event format. Build it with [`ChromeTrace::new`], optionally add [`Names`], then
/// take [`ChromeTrace::to_json`] (one event per line, stable key order) or [`ChromeTrace::to_value`].
#[derive(Debug, Clone)]
pub struct ChromeTrace<'a> {
    trace: &'a Trace,
    names: Names,
}

/// Which track of a process.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Track {
    Host(u32),
    Stream(StreamId),
}

/// Priority at equal timestamps: flow starts before flow ends before everything else.
const RANK_RECORD: u8 = 0;
const RANK_WAIT: u8 = 1;
const RANK_OTHER: u8 = 2;

fn micros(t: VirtualTime) -> Value {
    // Exact: an integer count of nanoseconds divided by 1000 is the closest double to the decimal value,
    // which serde_json prints in its shortest form (5.0, 256.003).
    json!(t.as_nanos() as f64 / 1000.0)
}

fn micros_between(start: VirtualTime, end: VirtualTime) -> Value {
    json!(end.as_nanos().saturating_sub(start.as_nanos()) as f64 / 1000.0)
}

impl<'a> ChromeTrace<'a> {
    /// Exports `trace` with the core's names.
    pub fn new(trace: &'a Trace) -> ChromeTrace<'a> {
        ChromeTrace {
            trace,
            names: Names::default(),
        }
    }

    /// Uses `names` for streams and processes.
    #[must_use]
    pub fn names(mut self, names: &Names) -> ChromeTrace<'a> {
        self.names = names.clone();
        self
    }

    /// The track name of a stream: `dev0 · stream 1`, or `dev0 · s1 (stream 1)` when it has a name.
    pub fn stream_track_name(&self, id: StreamId) -> String {
        let ordinal = stream_ordinal_name(id);
        match self.names.stream_name(id) {
            Some(name) => format!("dev{} · {name} ({ordinal})", id.device),
            None => format!("dev{} · {ordinal}", id.device),
        }
    }

    fn process_track_name(&self, id: ProcessId) -> String {
        match self.names.process_name(id) {
            Some(name) => format!("process {id} ({name})"),
            None => format!("process {id}"),
        }
    }

    /// Every track, by process; the thread id of each is its position in the process's list, plus one.
    fn tracks(&self) -> BTreeMap<ProcessId, Vec<Track>> {
        let mut sets: BTreeMap<ProcessId, BTreeSet<Track>> = BTreeMap::new();
        for h in &self.trace.host {
            sets.entry(h.process)
                .or_default()
                .insert(Track::Host(h.thread));
        }
        for op in &self.trace.ops {
            sets.entry(op.stream.process)
                .or_default()
                .insert(Track::Stream(op.stream));
        }
        sets.into_iter()
            .map(|(p, s)| (p, s.into_iter().collect()))
            .collect()
    }

    /// The whole file as a JSON value: `{"traceEvents": [...], "otherData": {...}}`.
    pub fn to_value(&self) -> Value {
        json!({
            "traceEvents": self.events(),
            "otherData": self.other_data(),
        })
    }

    fn other_data(&self) -> Value {
        json!({
            "generator": "streamsim",
            "clock": "virtual time (ns since the machine started, written as µs)",
        })
    }

    /// The file as text: one event per line (so a diff of two traces reads line by line), keys in sorted
    /// order, the same bytes for the same trace.
    pub fn to_json(&self) -> String {
        let events = self.events();
        let mut out = String::from("{\"traceEvents\":[\n");
        for (i, e) in events.iter().enumerate() {
            out.push_str(&e.to_string());
            out.push_str(if i + 1 < events.len() { ",\n" } else { "\n" });
        }
        out.push_str("],\n\"otherData\":");
        out.push_str(&self.other_data().to_string());
        out.push_str("}\n");
        out
    }

    /// The `traceEvents` array: metadata first, then everything else by time.
    pub fn events(&self) -> Vec<Value> {
        let tracks = self.tracks();
        let mut tids: BTreeMap<(ProcessId, Track), u64> = BTreeMap::new();
        let mut out = Vec::new();
        for (&p, list) in &tracks {
            let pid = u64::from(p.0) + 1;
            out.push(
                json!({"ph": "M", "name": "process_name", "pid": pid, "tid": 0,
                "args": {"name": self.process_track_name(p)}}),
            );
            out.push(
                json!({"ph": "M", "name": "process_sort_index", "pid": pid, "tid": 0,
                "args": {"sort_index": pid}}),
            );
            for (i, &track) in list.iter().enumerate() {
                let tid = i as u64 + 1;
                tids.insert((p, track), tid);
                let name = match track {
                    Track::Host(t) => format!("host thread {t}"),
                    Track::Stream(s) => self.stream_track_name(s),
                };
                out.push(
                    json!({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid,
                    "args": {"name": name}}),
                );
                out.push(
                    json!({"ph": "M", "name": "thread_sort_index", "pid": pid, "tid": tid,
                    "args": {"sort_index": tid}}),
                );
            }
        }

        // Flow ids: one per wait whose record is in the trace, numbered in trace order.
        let recorded: BTreeSet<(StreamId, u64)> = self
            .trace
            .ops
            .iter()
            .filter(|op| matches!(op.kind, OpKind::Record { .. }))
            .map(|op| (op.stream, op.seq))
            .collect();
        let mut flows_from: BTreeMap<(StreamId, u64), Vec<(u64, String)>> = BTreeMap::new();
        let mut flow_of_wait: BTreeMap<(StreamId, u64), (u64, String)> = BTreeMap::new();
        let mut next_flow = 1u64;
        for op in &self.trace.ops {
            if let OpKind::Wait { event, on, seq } = &op.kind
                && recorded.contains(&(*on, *seq))
            {
                let name = format!("event {event}");
                flows_from
                    .entry((*on, *seq))
                    .or_default()
                    .push((next_flow, name.clone()));
                flow_of_wait.insert((op.stream, op.seq), (next_flow, name));
                next_flow += 1;
            }
        }

        // (time, rank, position) → a group of events that must stay adjacent.
        let mut timed: Vec<((u64, u8, usize), Vec<Value>)> = Vec::new();
        for (i, op) in self.trace.ops.iter().enumerate() {
            let pid = u64::from(op.stream.process.0) + 1;
            let tid = tids[&(op.stream.process, Track::Stream(op.stream))];
            let (rank, group) = self.op_events(op, pid, tid, &flows_from, &flow_of_wait);
            timed.push(((op.start.as_nanos(), rank, i), group));
        }
        let base = self.trace.ops.len();
        for (i, h) in self.trace.host.iter().enumerate() {
            let pid = u64::from(h.process.0) + 1;
            let tid = tids[&(h.process, Track::Host(h.thread))];
            let e = json!({"ph": "X", "cat": "host", "name": h.label, "pid": pid, "tid": tid,
                "ts": micros(h.start), "dur": micros_between(h.start, h.end),
                "args": {"start": h.start.to_string(), "end": h.end.to_string()}});
            timed.push(((h.start.as_nanos(), RANK_OTHER, base + i), vec![e]));
        }
        timed.sort_by_key(|(k, _)| *k);
        out.extend(timed.into_iter().flat_map(|(_, g)| g));
        out
    }

    fn op_events(
        &self,
        op: &TraceEvent,
        pid: u64,
        tid: u64,
        flows_from: &BTreeMap<(StreamId, u64), Vec<(u64, String)>>,
        flow_of_wait: &BTreeMap<(StreamId, u64), (u64, String)>,
    ) -> (u8, Vec<Value>) {
        let mut args = json!({
            "seq": op.seq,
            "start": op.start.to_string(),
            "end": op.end.to_string(),
        });
        let ts = micros(op.start);
        match &op.kind {
            OpKind::Record { event } => {
                args["event"] = json!(event.ordinal);
                let mut group = vec![
                    json!({"ph": "i", "s": "t", "cat": "record", "name": op.label,
                    "pid": pid, "tid": tid, "ts": ts, "args": args}),
                ];
                for (id, name) in flows_from.get(&(op.stream, op.seq)).into_iter().flatten() {
                    group.push(json!({"ph": "s", "cat": "wait", "name": name, "id": id,
                        "pid": pid, "tid": tid, "ts": ts}));
                }
                (RANK_RECORD, group)
            }
            OpKind::Wait { event, on, seq } => {
                args["event"] = json!(event.ordinal);
                args["waits_for"] =
                    json!(format!("{} · operation {seq}", self.stream_track_name(*on)));
                let mut group = vec![json!({"ph": "X", "cat": "wait", "name": op.label,
                    "pid": pid, "tid": tid, "ts": ts, "dur": micros_between(op.start, op.end),
                    "args": args})];
                if let Some((id, name)) = flow_of_wait.get(&(op.stream, op.seq)) {
                    group.push(
                        json!({"ph": "f", "bp": "e", "cat": "wait", "name": name, "id": id,
                        "pid": pid, "tid": tid, "ts": ts}),
                    );
                }
                (RANK_WAIT, group)
            }
            kind => {
                match kind {
                    OpKind::Memcpy { path, bytes } => {
                        args["path"] = json!(path_short(*path));
                        args["bytes"] = json!(bytes);
                    }
                    OpKind::Memset { bytes } => args["bytes"] = json!(bytes),
                    _ => {}
                }
                let name = match kind {
                    OpKind::Memcpy { .. } => {
                        format!("{} · {}", op.label, op_caption(kind, &op.label))
                    }
                    OpKind::Memset { bytes } => format!("{} · {}", op.label, bytes_text(*bytes)),
                    _ => op.label.to_string(),
                };
                let e = json!({"ph": "X", "cat": kind.name(), "name": name, "pid": pid, "tid": tid,
                    "ts": ts, "dur": micros_between(op.start, op.end), "args": args});
                (RANK_OTHER, vec![e])
            }
        }
    }
}
