//! [`TimelineModel`]: what a timeline of a [`Trace`] shows, apart from how it is drawn.
//!
//! The model is a list of [`Lane`]s — one per stream that ran something, grouped by process, then one per host
//! thread that made a blocking call — each holding [`Bar`]s (operations and host calls that took virtual time)
//! and [`Mark`]s (instants: records, waits, graph launches, stream-ordered allocations, calls that did not
//! block), plus the [`WaitEdge`]s from each wait to the record it waited for. Everything is in
//! [`VirtualTime`], with the labels a chart writes; nothing in it knows about characters, columns, pixels or
//! colours. The terminal [`Timeline`](super::Timeline) scales it to columns and draws it in ASCII; another
//! renderer (an SVG or HTML view) reads the same model.

use std::collections::{BTreeMap, BTreeSet};

use super::{Names, op_caption, stream_name, stream_ordinal_name};
use crate::{EventId, OpKind, ProcessId, StreamId, StreamKind, Trace, VirtualTime};

/// What a timeline of a trace shows: its lanes, and the waits with the records they waited for. Built from a
/// [`Trace`] by [`TimelineModel::new`] (or [`TimelineModel::with_names`]); the same trace always gives the same
/// model.
///
/// A renderer reads the lanes and draws them; here, one line per lane with its kernels in virtual nanoseconds:
///
/// ```
/// use std::time::Duration;
/// use streamsim::export::{BarKind, TimelineModel};
/// use streamsim::{Kernel, Machine, Stream, StreamFlags};
///
/// let machine = Machine::builder().build()?;
/// let p = machine.process();
/// let s = p.create_stream(StreamFlags::NON_BLOCKING)?;
/// p.launch(Stream::DEFAULT, Kernel::new("a").duration(Duration::from_micros(40)))?;
/// p.launch(s, Kernel::new("b").duration(Duration::from_micros(10)))?;
/// p.launch(s, Kernel::new("c").duration(Duration::from_micros(10)))?;
/// p.device_synchronize()?;
/// let model = TimelineModel::new(&machine.trace());
///
/// // A second renderer, straight from the model: one line per lane, its bars in virtual nanoseconds.
/// let mut drawn = String::new();
/// for lane in &model.lanes {
///     let bars: Vec<String> = lane
///         .bars
///         .iter()
///         .map(|b| {
///             let kind = if b.kind == BarKind::Kernel { "kernel" } else { "other" };
///             format!("{kind} `{}` {}..{}", b.caption, b.start.as_nanos(), b.end.as_nanos())
///         })
///         .collect();
///     drawn += &format!("{}: {}\n", lane.label, bars.join(", "));
/// }
/// assert_eq!(
///     drawn,
///     "default: kernel `a` 4000..44000\n\
///      stream 1: kernel `b` 5000..15000, kernel `c` 15000..25000\n\
///      host 0: other `device_synchronize(0)` 5000..44000\n"
/// );
/// # Ok::<(), streamsim::SimError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct TimelineModel {
    /// The lanes, by process (in ascending order); within a process, its streams (by device, then stream), then
    /// its host threads (by ordinal).
    pub lanes: Vec<Lane>,
    /// The latest end of anything in the trace (an operation or a host call); zero for an empty trace.
    pub end: VirtualTime,
    /// Every stream wait on an event's record, in the trace's order (by the wait's start).
    pub waits: Vec<WaitEdge>,
}

/// One row of a timeline: a stream, or a host thread.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Lane {
    /// What the lane is.
    pub kind: LaneKind,
    /// Its label: the stream's name (the caller's [`Names`], else the program's) or a short ordinal
    /// (`default`, `per-thread 0`, `stream 2`, `graph 0 lane 1`), or `host N`; prefixed by the process
    /// (`p1 `, or its name) when the trace has several, and a stream's by its device (`d1 `) when the trace's
    /// operations ran on several.
    pub label: String,
    /// What took virtual time on the lane, in the trace's order (by start).
    pub bars: Vec<Bar>,
    /// Instants on the lane, in the trace's order (by time).
    pub marks: Vec<Mark>,
}

/// What a [`Lane`] stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum LaneKind {
    /// A stream (a graph's lanes are streams too, [`StreamKind::Graph`]).
    Stream(StreamId),
    /// A host thread of a process (its ordinal in the process), with its blocking calls.
    HostThread {
        /// The process.
        process: ProcessId,
        /// The thread's ordinal in the process.
        thread: u32,
    },
}

impl LaneKind {
    /// The process the lane belongs to.
    pub fn process(&self) -> ProcessId {
        match *self {
            LaneKind::Stream(id) => id.process,
            LaneKind::HostThread { process, .. } => process,
        }
    }
}

/// Something that took virtual time on a lane: an operation of a stream, or a blocking host call.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Bar {
    /// When it started.
    pub start: VirtualTime,
    /// When it ended (after `start`).
    pub end: VirtualTime,
    /// What it was, for the renderer's style.
    pub kind: BarKind,
    /// What a chart writes on it: the kernel's name, `H2D 4 KiB`, `memset 64 B`, the host call
    /// (`stream_synchronize(stream 1)`), or the operation's label.
    pub caption: String,
    /// The operation, on a stream's lane; `None` for a host call.
    pub op: Option<OpKind>,
}

/// The kinds of [`Bar`]s, as a chart tells them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BarKind {
    /// A kernel.
    Kernel,
    /// A copy.
    Copy,
    /// A memset.
    Memset,
    /// Any other operation that took time on its stream: a host function, a callback, a wait for a notify or a
    /// value ([`Bar::op`] says which).
    OtherOp,
    /// A host call that blocked its thread (a synchronize, a synchronous copy).
    HostBlocked,
}

/// An instant on a lane.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Mark {
    /// When.
    pub at: VirtualTime,
    /// What happened.
    pub kind: MarkKind,
    /// The operation's or the host call's label.
    pub label: String,
    /// The operation, on a stream's lane; `None` for a host call.
    pub op: Option<OpKind>,
}

/// The kinds of [`Mark`]s.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MarkKind {
    /// An event record.
    Record,
    /// A stream wait on an event's record (the [`WaitEdge`] with the same stream and start names the record).
    Wait,
    /// The start of a graph's launch on the launch stream (its nodes run on the graph's lanes).
    GraphLaunch,
    /// The end of a graph's launch on the launch stream.
    GraphEnd,
    /// A stream-ordered allocation.
    Alloc,
    /// A stream-ordered free.
    Free,
    /// A host call that did not block.
    HostCall,
    /// Any other operation that took no virtual time.
    Instant,
}

/// A stream's wait for an event's record, and that record.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct WaitEdge {
    /// The stream that waited.
    pub stream: StreamId,
    /// When the wait started.
    pub start: VirtualTime,
    /// When it ended.
    pub end: VirtualTime,
    /// The event waited on.
    pub event: EventId,
    /// The event's name, if the program gave it one.
    pub event_name: Option<String>,
    /// The stream that recorded the event.
    pub recorder: StreamId,
    /// When the record ran, if it is in the trace.
    pub record: Option<Span>,
}

impl WaitEdge {
    /// Whether the wait gave up before the record started (ACL `aclrtSetOpWaitTimeout`).
    pub fn gave_up(&self) -> bool {
        self.record.is_some_and(|r| r.start > self.end)
    }
}

/// An interval of virtual time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Span {
    /// Its start.
    pub start: VirtualTime,
    /// Its end.
    pub end: VirtualTime,
}

impl TimelineModel {
    /// The model of `trace`, with the names the program gave its streams and events.
    pub fn new(trace: &Trace) -> TimelineModel {
        TimelineModel::with_names(trace, &Names::default())
    }

    /// The model of `trace`, with `names` for streams and processes (over the names the program gave its
    /// streams).
    pub fn with_names(trace: &Trace, names: &Names) -> TimelineModel {
        let end = trace
            .ops
            .iter()
            .map(|o| o.end)
            .chain(trace.host.iter().map(|h| h.end))
            .max()
            .unwrap_or(VirtualTime::ZERO);
        TimelineModel {
            lanes: lanes(trace, names),
            end,
            waits: waits(trace),
        }
    }

    /// Whether the trace had nothing to show.
    pub fn is_empty(&self) -> bool {
        self.lanes.is_empty()
    }

    /// The label of a stream's lane, if the stream has one (it ran something).
    pub fn stream_label(&self, id: StreamId) -> Option<&str> {
        self.lanes
            .iter()
            .find(|l| l.kind == LaneKind::Stream(id))
            .map(|l| l.label.as_str())
    }

    /// Every mark of every lane.
    pub fn marks(&self) -> impl Iterator<Item = &Mark> {
        self.lanes.iter().flat_map(|l| l.marks.iter())
    }
}

fn process_prefix(names: &Names, p: ProcessId, several: bool) -> String {
    if !several {
        return String::new();
    }
    match names.process_name(p) {
        Some(n) => format!("{n} "),
        None => format!("p{p} "),
    }
}

fn stream_short(names: &Names, trace: &Trace, id: StreamId) -> String {
    match (stream_name(names, trace, id), id.kind) {
        (Some(n), _) => n.to_string(),
        (None, StreamKind::Legacy) => "default".to_string(),
        (None, StreamKind::PerThread(t)) => format!("per-thread {t}"),
        (None, StreamKind::ContextDefault(c)) => format!("ctx {c} default"),
        (None, StreamKind::Created(_) | StreamKind::Graph { .. }) => stream_ordinal_name(id),
    }
}

fn lane(kind: LaneKind, label: String) -> Lane {
    Lane {
        kind,
        label,
        bars: Vec::new(),
        marks: Vec::new(),
    }
}

fn lanes(t: &Trace, names: &Names) -> Vec<Lane> {
    let processes: BTreeSet<ProcessId> = t
        .ops
        .iter()
        .map(|o| o.stream.process)
        .chain(t.host.iter().map(|h| h.process))
        .collect();
    let devices: BTreeSet<u32> = t.ops.iter().map(|o| o.stream.device).collect();
    let (several_p, several_d) = (processes.len() > 1, devices.len() > 1);
    let stream_label = |id: StreamId| {
        let dev = if several_d {
            format!("d{} ", id.device)
        } else {
            String::new()
        };
        format!(
            "{}{dev}{}",
            process_prefix(names, id.process, several_p),
            stream_short(names, t, id)
        )
    };

    let mut streams: BTreeMap<StreamId, Lane> = BTreeMap::new();
    for op in &t.ops {
        let lane = streams
            .entry(op.stream)
            .or_insert_with(|| lane(LaneKind::Stream(op.stream), stream_label(op.stream)));
        let mark = |kind| Mark {
            at: op.start,
            kind,
            label: op.label.to_string(),
            op: Some(op.kind.clone()),
        };
        match &op.kind {
            OpKind::Record { .. } => lane.marks.push(mark(MarkKind::Record)),
            OpKind::Wait { .. } => lane.marks.push(mark(MarkKind::Wait)),
            OpKind::GraphLaunch { .. } => lane.marks.push(mark(MarkKind::GraphLaunch)),
            OpKind::GraphEnd { .. } => lane.marks.push(mark(MarkKind::GraphEnd)),
            OpKind::MemAlloc { .. } => lane.marks.push(mark(MarkKind::Alloc)),
            OpKind::MemFree { .. } => lane.marks.push(mark(MarkKind::Free)),
            kind if op.end > op.start => {
                let bar_kind = match kind {
                    OpKind::Kernel => BarKind::Kernel,
                    OpKind::Memcpy { .. } => BarKind::Copy,
                    OpKind::Memset { .. } => BarKind::Memset,
                    _ => BarKind::OtherOp,
                };
                lane.bars.push(Bar {
                    start: op.start,
                    end: op.end,
                    kind: bar_kind,
                    caption: op_caption(kind, &op.label),
                    op: Some(kind.clone()),
                });
            }
            _ => lane.marks.push(mark(MarkKind::Instant)),
        }
    }
    let mut hosts: BTreeMap<(ProcessId, u32), Lane> = BTreeMap::new();
    for h in &t.host {
        let lane = hosts.entry((h.process, h.thread)).or_insert_with(|| {
            let kind = LaneKind::HostThread {
                process: h.process,
                thread: h.thread,
            };
            let label = format!(
                "{}host {}",
                process_prefix(names, h.process, several_p),
                h.thread
            );
            lane(kind, label)
        });
        if h.end > h.start {
            lane.bars.push(Bar {
                start: h.start,
                end: h.end,
                kind: BarKind::HostBlocked,
                caption: h.label.clone(),
                op: None,
            });
        } else {
            lane.marks.push(Mark {
                at: h.start,
                kind: MarkKind::HostCall,
                label: h.label.clone(),
                op: None,
            });
        }
    }
    let mut lanes = Vec::new();
    for p in processes {
        let mine = |q: ProcessId| q == p;
        let s: Vec<StreamId> = streams
            .keys()
            .copied()
            .filter(|id| mine(id.process))
            .collect();
        for id in s {
            lanes.extend(streams.remove(&id));
        }
        let h: Vec<(ProcessId, u32)> = hosts.keys().copied().filter(|k| mine(k.0)).collect();
        for k in h {
            lanes.extend(hosts.remove(&k));
        }
    }
    lanes
}

fn waits(t: &Trace) -> Vec<WaitEdge> {
    t.ops
        .iter()
        .filter_map(|op| match &op.kind {
            OpKind::Wait { event, on, seq } => Some(WaitEdge {
                stream: op.stream,
                start: op.start,
                end: op.end,
                event: *event,
                event_name: t.names.event(*event).map(str::to_string),
                recorder: *on,
                record: t
                    .ops
                    .iter()
                    .find(|o| o.stream == *on && o.seq == *seq)
                    .map(|r| Span {
                        start: r.start,
                        end: r.end,
                    }),
            }),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::{EventFlags, Kernel, Machine, Stream, StreamFlags};

    #[test]
    fn empty_trace_has_no_lanes() {
        let model = TimelineModel::new(&Trace::default());
        assert!(model.is_empty());
        assert_eq!(model.end, VirtualTime::ZERO);
        assert!(model.waits.is_empty());
    }

    /// A renderer other than the text one needs nothing but the model: here, bars and marks counted per lane.
    #[test]
    fn a_second_renderer_counts_bars_and_marks_per_lane() {
        let machine = Machine::builder().build().unwrap();
        let p = machine.process();
        let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        let e = p.create_event(EventFlags::DEFAULT).unwrap();
        p.name_event(e, "done").unwrap();
        let k = |name, us| Kernel::new(name).duration(Duration::from_micros(us));
        p.launch(Stream::DEFAULT, k("producer", 100)).unwrap();
        p.record_event(e, Stream::DEFAULT).unwrap();
        p.stream_wait_event(s, e).unwrap();
        p.launch(s, k("consumer", 20)).unwrap();
        p.launch(s, k("tail", 5)).unwrap();
        p.stream_synchronize(s).unwrap();
        let model = TimelineModel::new(&machine.trace());

        let counts: Vec<String> = model
            .lanes
            .iter()
            .map(|l| {
                format!(
                    "{}: {} bars, {} marks",
                    l.label,
                    l.bars.len(),
                    l.marks.len()
                )
            })
            .collect();
        assert_eq!(
            counts,
            [
                "default: 1 bars, 1 marks",
                "stream 1: 2 bars, 1 marks",
                "host 0: 1 bars, 0 marks"
            ]
        );
        assert_eq!(model.lanes[0].marks[0].kind, MarkKind::Record);
        assert_eq!(model.lanes[1].marks[0].kind, MarkKind::Wait);
        assert_eq!(model.lanes[2].bars[0].kind, BarKind::HostBlocked);

        // The wait names its record, in virtual time: the consumer starts when the producer's record is done.
        let [wait] = &model.waits[..] else {
            panic!("one wait: {:?}", model.waits)
        };
        assert_eq!(wait.stream, model.lanes[1].kind_stream());
        assert_eq!(wait.event_name.as_deref(), Some("done"));
        assert_eq!(model.stream_label(wait.recorder), Some("default"));
        let record = wait.record.expect("the record is in the trace");
        assert!(!wait.gave_up());
        let producer = &model.lanes[0].bars[0];
        assert_eq!(producer.caption, "producer");
        assert!(record.end >= producer.end, "{record:?} {producer:?}");
        assert!(model.lanes[1].bars[0].start >= record.end);
        assert_eq!(model.end, model.lanes[2].bars[0].end);
    }

    #[test]
    fn labels_carry_the_process_when_the_trace_has_several() {
        let machine = Machine::builder().build().unwrap();
        let (a, b) = (machine.process(), machine.process());
        for p in [&a, &b] {
            p.launch(
                Stream::DEFAULT,
                Kernel::new("k").duration(Duration::from_micros(1)),
            )
            .unwrap();
            p.device_synchronize().unwrap();
        }
        let mut names = Names::new();
        names.process(b.id(), "B");
        let model = TimelineModel::with_names(&machine.trace(), &names);
        let labels: Vec<&str> = model.lanes.iter().map(|l| l.label.as_str()).collect();
        assert_eq!(labels, ["p0 default", "p0 host 0", "B default", "B host 0"]);
        assert_eq!(model.lanes[3].kind.process(), b.id());
    }

    impl Lane {
        fn kind_stream(&self) -> StreamId {
            match self.kind {
                LaneKind::Stream(id) => id,
                other => panic!("not a stream lane: {other:?}"),
            }
        }
    }
}
