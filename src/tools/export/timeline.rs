//! [`Timeline`]: a text Gantt chart of a [`Trace`] for the terminal, drawn from the trace's
//! [`TimelineModel`] (which lanes, bars and marks there are); this file scales it to columns and chooses the
//! characters.
//!
//! One row per stream (grouped by process, labelled with its name — the caller's [`Names`], else the one the
//! program gave it — or ordinal, prefixed by device and process
//! when the trace has several), then one row per host thread that made a blocking call. Time runs left to
//! right from 0 in whole columns of a "nice" size (1, 2 or 5 × 10ⁿ ns), with a ruler and tick labels in
//! [`VirtualTime`]'s units. Slices are drawn `[caption====]` (a kernel), `[H2D 4 KiB~~]` (a copy),
//! `[memset--]`, `[host-fn%%]`, `[sync....]` (a blocked host call); instants are `R` (record), `W` (wait), `A` /
//! `F` (a stream-ordered allocation / free), `S` (a host call that did not block), `L` / `D` (a graph launch and
//! its end on the launch stream; the nodes have rows of their own, `graph N lane M`), `*` (several in one
//! column), `!` (an operation a report of the sanitizer's checks concerns, given with [`Timeline::checks`]).
//! Below the chart: a legend, the list of waits with the record each one waited for, and the list of the
//! checks' reports. Every line fits the width (default 80 characters, at most
//! [`Timeline::MAX_WIDTH`], counted as characters, not bytes), and the same trace always gives the same text.

use std::fmt;

use super::timeline_model::{BarKind, LaneKind, MarkKind, TimelineModel};
use super::{Names, event_label};
use crate::engine::core::handle::StreamId;
use crate::engine::core::time::VirtualTime;
use crate::engine::observe::trace::Trace;
use crate::facade::cc_check::CheckReport;

/// A text Gantt chart of a trace. `Display` renders it: `Timeline::new(&trace).width(80).to_string()`.
#[derive(Debug, Clone)]
pub struct Timeline<'a> {
    trace: &'a Trace,
    width: usize,
    names: Names,
    checks: &'a [CheckReport],
}

/// The most waits listed under the chart.
const MAX_WAITS_LISTED: usize = 20;
/// The most reports of the checks listed under the chart.
const MAX_CHECKS_LISTED: usize = 20;
/// The fewest columns between two ticks (room for a label like `100.000 ms`).
const MIN_TICK_COLUMNS: u64 = 12;

/// The character that fills a bar of this kind.
fn fill(kind: BarKind) -> char {
    match kind {
        BarKind::Kernel => '=',
        BarKind::Copy => '~',
        BarKind::Memset => '-',
        BarKind::HostBlocked => '.',
        BarKind::OtherOp => '%',
    }
}

/// The character of a mark of this kind.
fn glyph(kind: MarkKind) -> char {
    match kind {
        MarkKind::Record => 'R',
        MarkKind::Wait => 'W',
        MarkKind::GraphLaunch => 'L',
        MarkKind::GraphEnd => 'D',
        MarkKind::Alloc => 'A',
        MarkKind::Free => 'F',
        MarkKind::HostCall => 'S',
        MarkKind::Instant => '|',
    }
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
            checks: &[],
        }
    }

    /// Marks the operations these reports of the sanitizer's checks concern (`!` at their start) and lists the
    /// reports under the chart; a report whose operation the trace does not hold is left out.
    #[must_use]
    pub fn checks(mut self, checks: &'a [CheckReport]) -> Timeline<'a> {
        self.checks = checks;
        self
    }

    /// The reports of [`Timeline::checks`] whose operation the trace holds, with that operation's stream and
    /// start.
    fn placed_checks(&self) -> Vec<(StreamId, VirtualTime, &CheckReport)> {
        let at: std::collections::BTreeMap<(StreamId, u64), VirtualTime> = self
            .trace
            .ops
            .iter()
            .map(|op| ((op.stream, op.seq), op.start))
            .collect();
        self.checks
            .iter()
            .filter_map(|c| {
                let o = c.op?;
                at.get(&(o.stream, o.seq)).map(|&t| (o.stream, t, c))
            })
            .collect()
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

    fn render(&self) -> Vec<String> {
        let width = self.width;
        let mut out = Vec::new();
        let model = TimelineModel::with_names(self.trace, &self.names);
        if model.is_empty() {
            wrap("timeline: the trace is empty", width, 2, &mut out);
            return out;
        }
        let end = model.end;
        let max_label = model
            .lanes
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
        let checks = self.placed_checks();
        for lane in &model.lanes {
            let mut cells = vec![' '; cols as usize];
            for bar in &lane.bars {
                let first = col_of(bar.start.as_nanos());
                let last = (bar.end.as_nanos().div_ceil(step).saturating_sub(1))
                    .min(cols - 1)
                    .max(first as u64) as usize;
                if first == last {
                    cells[first] = fill(bar.kind);
                    continue;
                }
                cells[first] = '[';
                cells[last] = ']';
                let mut text = bar.caption.chars();
                for cell in cells.iter_mut().take(last).skip(first + 1) {
                    *cell = text.next().unwrap_or(fill(bar.kind));
                }
            }
            let mut marked = vec![false; cols as usize];
            for mark in &lane.marks {
                let (c, m) = (col_of(mark.at.as_nanos()), glyph(mark.kind));
                cells[c] = if marked[c] && cells[c] != m { '*' } else { m };
                marked[c] = true;
            }
            // A report's mark wins over the others: it is the one to see.
            if let LaneKind::Stream(id) = lane.kind {
                for &(_, t, _) in checks.iter().filter(|(s, _, _)| *s == id) {
                    cells[col_of(t.as_nanos())] = '!';
                }
            }
            let label = cut(&lane.label, label_w);
            let chart: String = cells.iter().collect();
            out.push(format!("{label:label_w$} |{chart}").trim_end().to_string());
        }

        let graphs = model.marks().any(|m| m.kind == MarkKind::GraphLaunch);
        // Stream-ordered allocations and frees, in the legend only when the trace has some.
        let pools = model
            .marks()
            .any(|m| matches!(m.kind, MarkKind::Alloc | MarkKind::Free));
        let legend = format!(
            "legend: [name===] kernel · [H2D ~~] copy · [memset --] memset · [host-fn %] host \
             function · [call ...] host blocked · R record · W wait{} · S host call that did not block \
             {}{}· * several",
            if pools {
                " · A stream-ordered allocation · F stream-ordered free"
            } else {
                ""
            },
            if graphs {
                "· L graph launch · D graph launch done (its nodes run on the graph's lanes) "
            } else {
                ""
            },
            if checks.is_empty() {
                ""
            } else {
                "· ! a check's report "
            }
        );
        wrap(&legend, width, 2, &mut out);
        list_waits(&model, width, &mut out);
        list_checks(&model, &checks, width, &mut out);
        out
    }
}

/// The checks' reports under the chart, each with the row and time of the operation it concerns.
fn list_checks(
    model: &TimelineModel,
    checks: &[(StreamId, VirtualTime, &CheckReport)],
    width: usize,
    out: &mut Vec<String>,
) {
    if checks.is_empty() {
        return;
    }
    wrap("checks (!):", width, 2, out);
    for &(stream, at, c) in checks.iter().take(MAX_CHECKS_LISTED) {
        let row = model
            .stream_label(stream)
            .map_or_else(|| stream.to_string(), str::to_string);
        wrap(
            &format!("  {row} at {at}: {}: {}", c.tool, c.text),
            width,
            4,
            out,
        );
    }
    if checks.len() > MAX_CHECKS_LISTED {
        wrap(
            &format!("  ... and {} more", checks.len() - MAX_CHECKS_LISTED),
            width,
            4,
            out,
        );
    }
}

/// The waits under the chart, each with the record it waited for.
fn list_waits(model: &TimelineModel, width: usize, out: &mut Vec<String>) {
    let waits = &model.waits;
    if waits.is_empty() {
        return;
    }
    wrap(
        "waits (W) and the records (R) they waited for:",
        width,
        2,
        out,
    );
    let label = |id: StreamId| {
        model
            .stream_label(id)
            .map_or_else(|| id.to_string(), str::to_string)
    };
    for wait in waits.iter().take(MAX_WAITS_LISTED) {
        let record = wait.record.map_or("not in the trace".to_string(), |r| {
            if wait.gave_up() {
                // ACL aclrtSetOpWaitTimeout: the wait gave up before the record.
                format!("done at {}; the wait gave up at {}", r.end, wait.end)
            } else {
                format!("done at {}", r.end)
            }
        });
        wrap(
            &format!(
                "  {} at {}: {} recorded on {} ({record})",
                label(wait.stream),
                wait.start,
                event_label(wait.event, wait.event_name.as_deref()),
                label(wait.recorder)
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
