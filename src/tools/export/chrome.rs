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
//! - blocking host calls (synchronizes, synchronous copies) are complete slices on the host thread's track;
//! - failed calls are instants (category `error`) on the host thread's track, named by the call and, with
//!   [`ChromeTrace::error_codes`], the vendor's code (`record_event: 107003 ACL_ERROR_RT_STREAM_CONTEXT`);
//! - each data race given with [`ChromeTrace::races`] is an instant (category `race`, `data race #1`; `use after free #2`,
//!   `use before allocation #3` for the lifetime reports) on the tracks of both operations, at
//!   their starts, joined by a flow arrow from the earlier to the later; an access made by a host thread (not
//!   an operation) has no instant;
//! - each report of the sanitizer's checks given with [`ChromeTrace::checks`] is an instant (category
//!   `check`, named by its tool and number, `memcheck #1`, the report's text in `args.report`) on the track of
//!   the operation it concerns (the kernel's launch, the copy), at its start;
//! - streams and events carry the names the program gave them (the track `dev0 · copy (stream 2)`, the flow
//!   `event \`done\``).
//!
//! Times are microseconds (`ts`, `dur`) with the nanoseconds as the fraction, so nothing is rounded. Events are
//! ordered by time; at equal times a record (and its flow start) comes before a wait, so viewers that bind flow
//! ends to an already-started flow see the start first.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use super::{
    ErrorCode, Names, bytes_text, event_text, op_caption, path_short, stream_name,
    stream_ordinal_name,
};
use crate::engine::core::handle::{ProcessId, StreamId};
use crate::engine::core::races::{Accessor, RaceReport};
use crate::engine::core::time::VirtualTime;
use crate::engine::observe::trace::{FailedCall, OpKind, Trace, TraceEvent};
use crate::facade::cc_check::CheckReport;

/// A trace in Chrome Trace Event format. Build it with [`ChromeTrace::new`], optionally add [`Names`], the
/// facade's [`error codes`](ChromeTrace::error_codes) and the [`races`](ChromeTrace::races), then take [`ChromeTrace::to_json`] (one event per
/// line, stable key order) or [`ChromeTrace::to_value`].
#[derive(Debug, Clone)]
pub struct ChromeTrace<'a> {
    trace: &'a Trace,
    names: Names,
    codes: Option<ErrorCode>,
    races: &'a [RaceReport],
    checks: &'a [CheckReport],
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
            codes: None,
            races: &[],
            checks: &[],
        }
    }

    /// Shows these reports of the sanitizer's checks ([`crate::check_reports`]) on the tracks of the operations
    /// they concern; a report whose operation the trace does not hold is left out.
    #[must_use]
    pub fn checks(mut self, checks: &'a [CheckReport]) -> ChromeTrace<'a> {
        self.checks = checks;
        self
    }

    /// Shows these races (the machine's [`crate::Machine::race_reports`]) on the operations' tracks.
    #[must_use]
    pub fn races(mut self, races: &'a [RaceReport]) -> ChromeTrace<'a> {
        self.races = races;
        self
    }

    /// Uses `names` for streams and processes (over the names the program gave its streams).
    #[must_use]
    pub fn names(mut self, names: &Names) -> ChromeTrace<'a> {
        self.names = names.clone();
        self
    }

    /// Writes failed calls with the code a facade returns for them ([`super::cuda_code`],
    /// [`super::musa_code`], [`super::acl_code`]); without it, with the error's variant name.
    #[must_use]
    pub fn error_codes(mut self, codes: ErrorCode) -> ChromeTrace<'a> {
        self.codes = Some(codes);
        self
    }

    /// The track name of a stream: `dev0 · stream 1`, or `dev0 · s1 (stream 1)` when it has a name.
    pub fn stream_track_name(&self, id: StreamId) -> String {
        let ordinal = stream_ordinal_name(id);
        match stream_name(&self.names, self.trace, id) {
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
        for f in &self.trace.failed {
            sets.entry(f.process)
                .or_default()
                .insert(Track::Host(f.thread));
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

        // Flow ids: one per wait whose record is in the trace and released it, numbered in trace order (a wait
        // that gave up at its timeout, ACL aclrtSetOpWaitTimeout, ends before its record: no arrow).
        let recorded: BTreeMap<(StreamId, u64), VirtualTime> = self
            .trace
            .ops
            .iter()
            .filter(|op| matches!(op.kind, OpKind::Record { .. }))
            .map(|op| ((op.stream, op.seq), op.start))
            .collect();
        let mut flows_from: BTreeMap<(StreamId, u64), Vec<(u64, String)>> = BTreeMap::new();
        let mut flow_of_wait: BTreeMap<(StreamId, u64), (u64, String)> = BTreeMap::new();
        let mut next_flow = 1u64;
        for op in &self.trace.ops {
            if let OpKind::Wait { event, on, seq } = &op.kind
                && recorded.get(&(*on, *seq)).is_some_and(|r| *r <= op.end)
            {
                let name = event_text(self.trace, *event);
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
        let base = base + self.trace.host.len();
        for (i, f) in self.trace.failed.iter().enumerate() {
            let pid = u64::from(f.process.0) + 1;
            let tid = tids[&(f.process, Track::Host(f.thread))];
            timed.push((
                (f.at.as_nanos(), RANK_OTHER, base + i),
                vec![self.failed_event(f, pid, tid)],
            ));
        }
        let base = base + self.trace.failed.len();
        let mut flow = next_flow;
        for (i, r) in self.races.iter().enumerate() {
            for (j, (key, group)) in self
                .race_events(i, r, &tids, &mut flow)
                .into_iter()
                .enumerate()
            {
                timed.push(((key.0, key.1, base + 2 * i + j), group));
            }
        }
        let base = base + 2 * self.races.len();
        let at: BTreeMap<(StreamId, u64), &TraceEvent> = self
            .trace
            .ops
            .iter()
            .map(|op| ((op.stream, op.seq), op))
            .collect();
        for (i, c) in self.checks.iter().enumerate() {
            let Some(op) = c.op.and_then(|o| at.get(&(o.stream, o.seq))) else {
                continue;
            };
            let pid = u64::from(op.stream.process.0) + 1;
            let tid = tids[&(op.stream.process, Track::Stream(op.stream))];
            let e = json!({"ph": "i", "s": "t", "cat": "check", "name": format!("{} #{}", c.tool, i + 1),
                "pid": pid, "tid": tid, "ts": micros(op.start),
                "args": {"tool": c.tool, "report": c.text, "operation": op.label}});
            timed.push(((op.start.as_nanos(), RANK_OTHER, base + i), vec![e]));
        }
        timed.sort_by_key(|(k, _)| *k);
        out.extend(timed.into_iter().flat_map(|(_, g)| g));
        out
    }

    /// A failed call: an instant on its host thread's track.
    fn failed_event(&self, f: &FailedCall, pid: u64, tid: u64) -> Value {
        let mut args = json!({
            "call": f.call,
            "at": f.at.to_string(),
            "message": f.error.stable_message(),
        });
        let name = match self.codes {
            Some(codes) => {
                let (code, code_name) = codes(&f.error);
                args["code"] = json!(code);
                args["error"] = json!(code_name);
                format!("{}: {code} {code_name}", f.call)
            }
            None => {
                args["error"] = json!(f.error.name());
                format!("{}: {}", f.call, f.error.name())
            }
        };
        json!({"ph": "i", "s": "t", "cat": "error", "name": name, "pid": pid, "tid": tid,
            "ts": micros(f.at), "args": args})
    }

    /// Race `index` (report `r`): an instant at the start of each side's operation that the trace holds, and
    /// a flow from the earlier instant to the later when it holds both. Each group of events that stays
    /// together comes with its sort key (time, rank).
    fn race_events(
        &self,
        index: usize,
        r: &RaceReport,
        tids: &BTreeMap<(ProcessId, Track), u64>,
        next_flow: &mut u64,
    ) -> Vec<((u64, u8), Vec<Value>)> {
        let name = format!("{} #{}", r.kind.title(), index + 1);
        let mut found: Vec<(&TraceEvent, u64, u64, Value)> = Vec::new();
        for (this, other) in [(&r.first, &r.second), (&r.second, &r.first)] {
            let (Accessor::Op { stream, .. }, Some(seq)) = (&this.who, this.seq) else {
                continue;
            };
            let Some(op) = self
                .trace
                .ops
                .iter()
                .find(|o| o.stream == *stream && o.seq == seq)
            else {
                continue;
            };
            let pid = u64::from(op.stream.process.0) + 1;
            let tid = tids[&(op.stream.process, Track::Stream(op.stream))];
            let args = json!({
                "this": format!("{} {}", this.who, this.verb()),
                "other": format!("{} {}", other.who, other.verb()),
                "bytes": r.bytes,
                "offset": r.offset,
                "allocation": r.allocation,
                "memory": r.space.to_string(),
                "fix": r.fix(),
            });
            let instant = json!({"ph": "i", "s": "t", "cat": "race", "name": name, "pid": pid,
                "tid": tid, "ts": micros(op.start), "args": args});
            found.push((op, pid, tid, instant));
        }
        if found.len() == 2 {
            // The flow runs forward in time (viewers drop arrows that end before they start).
            if found[1].0.start < found[0].0.start {
                found.swap(0, 1);
            }
            let id = *next_flow;
            *next_flow += 1;
            let mut groups = Vec::new();
            for (k, (op, pid, tid, instant)) in found.into_iter().enumerate() {
                let (rank, flow) = if k == 0 {
                    (
                        RANK_RECORD,
                        json!({"ph": "s", "cat": "race", "name": name, "id": id,
                        "pid": pid, "tid": tid, "ts": micros(op.start)}),
                    )
                } else {
                    (
                        RANK_WAIT,
                        json!({"ph": "f", "bp": "e", "cat": "race", "name": name, "id": id,
                        "pid": pid, "tid": tid, "ts": micros(op.start)}),
                    )
                };
                groups.push(((op.start.as_nanos(), rank), vec![instant, flow]));
            }
            return groups;
        }
        found
            .into_iter()
            .map(|(op, _, _, instant)| ((op.start.as_nanos(), RANK_OTHER), vec![instant]))
            .collect()
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
                } else if self
                    .trace
                    .ops
                    .iter()
                    .any(|r| r.stream == *on && r.seq == *seq && r.start > op.end)
                {
                    // It gave up at its timeout (ACL aclrtSetOpWaitTimeout) before the record it waited for.
                    group[0]["args"]["gave_up"] = json!(true);
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
