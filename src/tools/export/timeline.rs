//! [`Timeline`]: a text Gantt chart of a [`Trace`] for the terminal.
//!
//! One row per stream (grouped by process, labelled with its name — the caller's [`Names`], else the one the
//! program gave it — or ordinal, prefixed by device and process
//! when the trace has several), then one row per host thread that made a blocking call. Time runs left to
//! right from 0 in whole columns of a "nice" size (1, 2 or 5 × 10ⁿ ns), with a ruler and tick labels in
//! [`VirtualTime`]'s units. Slices are drawn `[caption====]` (a kernel), `[H2D 4 KiB~~]` (a copy),
//! `[memset--]`, `[host-fn%%]`, `[sync....]` (a blocked host call); instants are `R` (record), `W` (wait), `A` /
//! `F` (a stream-ordered allocation / free), `S` (a host call that did not block), `L` / `D` (a graph launch and
//! its end on the launch stream; the nodes have rows of their own, `graph N lane M`), `*` (several in one
//! column). Below the chart: a legend and the list of
//! waits with the record each one waited for. Every line fits the width (default 80 characters, at most
//! [`Timeline::MAX_WIDTH`], counted as characters, not bytes), and the same trace always gives the same text.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use super::{Names, event_text, op_caption, stream_name, stream_ordinal_name};
use crate::engine::core::handle::{ProcessId, StreamId, StreamKind};
use crate::engine::core::time::VirtualTime;
use crate::engine::observe::trace::{OpKind, Trace};

/// A text Gantt chart of a trace. `Display` renders it: `Timeline::new(&trace).width(80).to_string()`.
#[derive(Debug, Clone)]
pub struct Timeline<'a> {
    trace: &'a Trace,
    width: usize,
    names: Names,
}

/// The most waits listed under the chart.
const MAX_WAITS_LISTED: usize = 20;
/// The fewest columns between two ticks (room for a label like `100.000 ms`).
const MIN_TICK_COLUMNS: u64 = 12;

#[derive(Debug, Clone, Copy)]
enum Glyph {
    Kernel,
    Copy,
    Memset,
    HostFn,
    HostBlocked,
}

impl Glyph {
    fn fill(self) -> char {
        match self {
            Glyph::Kernel => '=',
            Glyph::Copy => '~',
            Glyph::Memset => '-',
            Glyph::HostFn => '%',
            Glyph::HostBlocked => '.',
        }
    }
}

struct Row {
    label: String,
    spans: Vec<(u64, u64, Glyph, String)>,
    marks: Vec<(u64, char)>,
}

/// The smallest of 1, 2, 5 × 10ⁿ that is at least `x` (saturating).
fn nice_at_least(x: u64) -> u64 {
    let mut magnitude: u64 = 1;
    loop {
        for f in [1u64, 2, 5] {
            match f.checked_mul(magnitude) {
                Some(v) if v >= x => return v,
                Some(_) => {}
                None => return u64::MAX,
            }
        }
        magnitude = match magnitude.checked_mul(10) {
            Some(m) => m,
            None => return u64::MAX,
        };
    }
}

/// `x` rounded up to two significant digits (`23_153` → `24_000`).
fn two_digits_up(x: u64) -> u64 {
    let mut magnitude = 1u64;
    while x / magnitude >= 100 {
        magnitude *= 10;
    }
    x.div_ceil(magnitude).saturating_mul(magnitude)
}

/// Cuts `s` to at most `n` characters.
fn cut(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// Word-wraps `text` to `width` characters, keeping its leading spaces; continuation lines start with
/// `indent` spaces. Words longer than a line are cut.
fn wrap(text: &str, width: usize, indent: usize, out: &mut Vec<String>) {
    if width == 0 {
        return;
    }
    let indent = if indent >= width { 0 } else { indent };
    let lead = (text.len() - text.trim_start_matches(' ').len()).min(width - 1);
    let mut line = " ".repeat(lead);
    let mut len = lead;
    let mut has_word = false;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let wlen = word.chars().count();
        if has_word && len + 1 + wlen > width {
            out.push(std::mem::replace(&mut line, " ".repeat(indent)));
            len = indent;
            has_word = false;
        }
        if has_word {
            line.push(' ');
            len += 1;
        }
        let piece = cut(word, width - len);
        len += piece.chars().count();
        line.push_str(&piece);
        has_word = true;
    }
    if has_word {
        out.push(line);
    }
}

impl<'a> Timeline<'a> {
    /// A chart of `trace`, 80 characters wide, with the core's names.
    pub fn new(trace: &'a Trace) -> Timeline<'a> {
        Timeline {
            trace,
            width: 80,
            names: Names::default(),
        }
    }

    /// The widest timeline drawn, in characters: a larger [`Timeline::width`] is clamped to it, so that a huge
    /// value (`streamsim run --width 18446744073709551615`) cannot make the chart's rows exhaust memory.
    pub const MAX_WIDTH: usize = 1_000;

    /// Sets the width in characters: every line of the output is at most this long. Clamped to
    /// [`Timeline::MAX_WIDTH`].
    #[must_use]
    pub fn width(mut self, width: usize) -> Timeline<'a> {
        self.width = width.min(Self::MAX_WIDTH);
        self
    }

    /// Uses `names` for streams and processes (over the names the program gave its streams).
    #[must_use]
    pub fn names(mut self, names: &Names) -> Timeline<'a> {
        self.names = names.clone();
        self
    }

    fn process_prefix(&self, p: ProcessId, several: bool) -> String {
        if !several {
            return String::new();
        }
        match self.names.process_name(p) {
            Some(n) => format!("{n} "),
            None => format!("p{p} "),
        }
    }

    fn stream_short(&self, id: StreamId) -> String {
        match (stream_name(&self.names, self.trace, id), id.kind) {
            (Some(n), _) => n.to_string(),
            (None, StreamKind::Legacy) => "default".to_string(),
            (None, StreamKind::PerThread(t)) => format!("per-thread {t}"),
            (None, StreamKind::ContextDefault(c)) => format!("ctx {c} default"),
            (None, StreamKind::Created(_) | StreamKind::Graph { .. }) => stream_ordinal_name(id),
        }
    }

    fn rows(&self) -> (Vec<Row>, BTreeMap<StreamId, String>) {
        let t = self.trace;
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
                self.process_prefix(id.process, several_p),
                self.stream_short(id)
            )
        };

        let mut streams: BTreeMap<StreamId, Row> = BTreeMap::new();
        for op in &t.ops {
            let row = streams.entry(op.stream).or_insert_with(|| Row {
                label: stream_label(op.stream),
                spans: Vec::new(),
                marks: Vec::new(),
            });
            let (s, e) = (op.start.as_nanos(), op.end.as_nanos());
            match &op.kind {
                OpKind::Record { .. } => row.marks.push((s, 'R')),
                OpKind::Wait { .. } => row.marks.push((s, 'W')),
                OpKind::GraphLaunch { .. } => row.marks.push((s, 'L')),
                OpKind::GraphEnd { .. } => row.marks.push((s, 'D')),
                OpKind::MemAlloc { .. } => row.marks.push((s, 'A')),
                OpKind::MemFree { .. } => row.marks.push((s, 'F')),
                kind if e > s => {
                    let glyph = match kind {
                        OpKind::Kernel => Glyph::Kernel,
                        OpKind::Memcpy { .. } => Glyph::Copy,
                        OpKind::Memset { .. } => Glyph::Memset,
                        _ => Glyph::HostFn,
                    };
                    row.spans.push((s, e, glyph, op_caption(kind, &op.label)));
                }
                _ => row.marks.push((s, '|')),
            }
        }
        let mut hosts: BTreeMap<(ProcessId, u32), Row> = BTreeMap::new();
        for h in &t.host {
            let row = hosts.entry((h.process, h.thread)).or_insert_with(|| Row {
                label: format!(
                    "{}host {}",
                    self.process_prefix(h.process, several_p),
                    h.thread
                ),
                spans: Vec::new(),
                marks: Vec::new(),
            });
            let (s, e) = (h.start.as_nanos(), h.end.as_nanos());
            if e > s {
                row.spans.push((s, e, Glyph::HostBlocked, h.label.clone()));
            } else {
                row.marks.push((s, 'S'));
            }
        }
        let labels = streams
            .iter()
            .map(|(id, r)| (*id, r.label.clone()))
            .collect();
        let mut rows = Vec::new();
        for p in processes {
            let mine = |q: ProcessId| q == p;
            let s: Vec<StreamId> = streams
                .keys()
                .copied()
                .filter(|id| mine(id.process))
                .collect();
            for id in s {
                rows.extend(streams.remove(&id));
            }
            let h: Vec<(ProcessId, u32)> = hosts.keys().copied().filter(|k| mine(k.0)).collect();
            for k in h {
                rows.extend(hosts.remove(&k));
            }
        }
        (rows, labels)
    }

    fn render(&self) -> Vec<String> {
        let width = self.width;
        let mut out = Vec::new();
        let (rows, labels) = self.rows();
        if rows.is_empty() {
            wrap("timeline: the trace is empty", width, 2, &mut out);
            return out;
        }
        let end = self
            .trace
            .ops
            .iter()
            .map(|o| o.end)
            .chain(self.trace.host.iter().map(|h| h.end))
            .max()
            .unwrap_or(VirtualTime::ZERO);
        let max_label = rows
            .iter()
            .map(|r| r.label.chars().count())
            .max()
            .unwrap_or(0);
        let label_w = max_label.min((width / 3).max(4));
        let cols = width.saturating_sub(label_w + 2).max(1) as u64;
        // A column's span, rounded up to two significant digits so that it reads well; ticks at round times.
        let step = two_digits_up(end.as_nanos().max(1).div_ceil(cols));
        let tick = nice_at_least(step.saturating_mul(MIN_TICK_COLUMNS));
        let ticks: Vec<(u64, u64)> = (0u64..)
            .map(|j| j.saturating_mul(tick))
            .map(|t| (t, t / step))
            .take_while(|&(t, c)| c < cols && (t > 0 || c == 0) && t < u64::MAX)
            .collect();

        wrap(
            &format!(
                "timeline: 0 ns to {end} of virtual time, 1 column = {}",
                VirtualTime(step)
            ),
            width,
            2,
            &mut out,
        );

        // Tick labels, then the ruler.
        let mut axis: Vec<char> = vec![' '; label_w + 2 + cols as usize];
        let mut free_from = 0usize;
        for &(t, c) in &ticks {
            let pos = if c == 0 {
                label_w + 1
            } else {
                label_w + 2 + c as usize
            };
            let text: Vec<char> = VirtualTime(t).to_string().chars().collect();
            if pos >= free_from && pos + text.len() <= axis.len() {
                axis[pos..pos + text.len()].copy_from_slice(&text);
                free_from = pos + text.len() + 1;
            }
        }
        out.push(axis.iter().collect::<String>().trim_end().to_string());
        let mut ruler: Vec<char> = format!("{:w$} +", "", w = label_w).chars().collect();
        ruler.extend(std::iter::repeat_n('-', cols as usize));
        for &(_, c) in ticks.iter().filter(|(_, c)| *c > 0) {
            ruler[label_w + 2 + c as usize] = '+';
        }
        out.push(ruler.into_iter().collect());

        let col_of = |t: u64| (t / step).min(cols - 1) as usize;
        for row in &rows {
            let mut cells = vec![' '; cols as usize];
            for (s, e, glyph, caption) in &row.spans {
                let first = col_of(*s);
                let last = (e.div_ceil(step).saturating_sub(1))
                    .min(cols - 1)
                    .max(first as u64) as usize;
                if first == last {
                    cells[first] = glyph.fill();
                    continue;
                }
                cells[first] = '[';
                cells[last] = ']';
                let mut text = caption.chars();
                for cell in cells.iter_mut().take(last).skip(first + 1) {
                    *cell = text.next().unwrap_or(glyph.fill());
                }
            }
            let mut marked = vec![false; cols as usize];
            for &(t, m) in &row.marks {
                let c = col_of(t);
                cells[c] = if marked[c] && cells[c] != m { '*' } else { m };
                marked[c] = true;
            }
            let label = cut(&row.label, label_w);
            let chart: String = cells.iter().collect();
            out.push(format!("{label:label_w$} |{chart}").trim_end().to_string());
        }

        let graphs = self
            .trace
            .ops
            .iter()
            .any(|op| matches!(op.kind, OpKind::GraphLaunch { .. }));
        // Stream-ordered allocations and frees, in the legend only when the trace has some.
        let pools = self
            .trace
            .ops
            .iter()
            .any(|op| matches!(op.kind, OpKind::MemAlloc { .. } | OpKind::MemFree { .. }));
        let legend = format!(
            "legend: [name===] kernel · [H2D ~~] copy · [memset --] memset · [host-fn %] host \
             function · [call ...] host blocked · R record · W wait{} · S host call that did not block \
             {}· * several",
            if pools {
                " · A stream-ordered allocation · F stream-ordered free"
            } else {
                ""
            },
            if graphs {
                "· L graph launch · D graph launch done (its nodes run on the graph's lanes) "
            } else {
                ""
            }
        );
        wrap(&legend, width, 2, &mut out);
        self.list_waits(&labels, width, &mut out);
        out
    }

    fn list_waits(&self, labels: &BTreeMap<StreamId, String>, width: usize, out: &mut Vec<String>) {
        let waits: Vec<_> = self
            .trace
            .ops
            .iter()
            .filter_map(|op| match &op.kind {
                OpKind::Wait { event, on, seq } => Some((op, *event, *on, *seq)),
                _ => None,
            })
            .collect();
        if waits.is_empty() {
            return;
        }
        wrap(
            "waits (W) and the records (R) they waited for:",
            width,
            2,
            out,
        );
        let label = |id: StreamId| labels.get(&id).cloned().unwrap_or_else(|| id.to_string());
        for (op, event, on, seq) in waits.iter().take(MAX_WAITS_LISTED) {
            let record = self
                .trace
                .ops
                .iter()
                .find(|o| o.stream == *on && o.seq == *seq)
                .map_or("not in the trace".to_string(), |r| {
                    if r.start > op.end {
                        // ACL aclrtSetOpWaitTimeout: the wait gave up before the record.
                        format!("done at {}; the wait gave up at {}", r.end, op.end)
                    } else {
                        format!("done at {}", r.end)
                    }
                });
            wrap(
                &format!(
                    "  {} at {}: {} recorded on {} ({record})",
                    label(op.stream),
                    op.start,
                    event_text(self.trace, *event),
                    label(*on)
                ),
                width,
                4,
                out,
            );
        }
        if waits.len() > MAX_WAITS_LISTED {
            wrap(
                &format!("  ... and {} more", waits.len() - MAX_WAITS_LISTED),
                width,
                4,
                out,
            );
        }
    }
}

impl fmt::Display for Timeline<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for line in self.render() {
            // The layout aims at the width; this cut makes it a guarantee (e.g. for absurdly narrow widths).
            writeln!(f, "{}", cut(&line, self.width))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_numbers() {
        assert_eq!(nice_at_least(0), 1);
        assert_eq!(nice_at_least(1), 1);
        assert_eq!(nice_at_least(3), 5);
        assert_eq!(nice_at_least(6), 10);
        assert_eq!(nice_at_least(11), 20);
        assert_eq!(nice_at_least(4_001), 5_000);
        assert_eq!(nice_at_least(u64::MAX), u64::MAX);
    }

    #[test]
    fn two_significant_digits() {
        assert_eq!(two_digits_up(1), 1);
        assert_eq!(two_digits_up(99), 99);
        assert_eq!(two_digits_up(100), 100);
        assert_eq!(two_digits_up(101), 110);
        assert_eq!(two_digits_up(23_153), 24_000);
        assert_eq!(two_digits_up(u64::MAX), u64::MAX);
    }

    #[test]
    fn wrap_keeps_to_the_width() {
        let mut out = Vec::new();
        wrap(
            "alpha beta gamma delta epsilon averyveryverylongword",
            12,
            2,
            &mut out,
        );
        assert!(out.iter().all(|l| l.chars().count() <= 12), "{out:?}");
        assert_eq!(out[0], "alpha beta");
        assert!(out[1].starts_with("  "));
    }

    #[test]
    fn empty_trace() {
        let t = Trace::default();
        assert_eq!(
            Timeline::new(&t).to_string(),
            "timeline: the trace is empty\n"
        );
    }
}
