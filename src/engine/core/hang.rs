//! Schedules and hangs: the [`Schedule`] a machine runs its streams under, the wait-for cycle a
//! [`SimError::WouldDeadlock`](crate::SimError::WouldDeadlock) names ([`WaitCycle`], a list of [`WaitLink`]s), and
//! the [`HangReport`] of the real-time watchdog ([`MachineBuilder::watchdog`](crate::MachineBuilder::watchdog)).
//! The rules, with their sources, are in `docs/semantics/schedules-and-hangs.md`.

use std::time::Duration;

use crate::engine::core::handle::{ProcessId, StreamId};

/// How a machine's streams progress relative to each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Schedule {
    /// Every stream runs on its own worker thread, as far as its dependencies allow (the default).
    #[default]
    Concurrent,
    /// The harshest schedule the vendors allow: one operation at a time in the whole machine, and only while a
    /// host thread waits for the device (a synchronize, a blocking copy, a query that finds work complete, the
    /// end of the machine). Among the operations whose dependencies have run, the machine seed chooses which runs
    /// next. A program that only works when two streams progress concurrently (a host function or kernel body
    /// that spins on a flag another stream's later work sets) then hangs on the seeds that run the spinner first,
    /// and the watchdog (on by default under this schedule, [`SERIALIZE_WATCHDOG`]) turns the hang into
    /// [`SimError::WouldDeadlock`](crate::SimError::WouldDeadlock) naming the cycle. Virtual times, answers and race
    /// verdicts are the same as under [`Schedule::Concurrent`]: they are computed at enqueue.
    Serialize,
}

/// The watchdog's limit under [`Schedule::Serialize`] when the program did not set one.
pub const SERIALIZE_WATCHDOG: Duration = Duration::from_millis(1000);

/// One link of a wait-for cycle: who waits, and for what (the next link).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum WaitLink {
    /// A host thread blocked in a call.
    HostThread {
        /// Its process.
        process: ProcessId,
        /// The thread (the process's numbering, from 0 in order of first call).
        thread: u32,
        /// The call it is blocked in.
        call: &'static str,
    },
    /// A stream whose operation `seq` waits for something not issued yet (an ACL deferred wait: an event's or a
    /// notify's next record, a value write, a callback a subscribed thread runs).
    Held {
        /// The stream.
        stream: StreamId,
    },
    /// No live host thread of the process can issue what a held stream waits for: every one is blocked.
    NoIssuer {
        /// The process.
        process: ProcessId,
        /// Its live host threads, all blocked.
        blocked: Vec<u32>,
    },
    /// An operation whose dependencies have run, held back by [`Schedule::Serialize`] while another one runs.
    Scheduled {
        /// The stream.
        stream: StreamId,
        /// The operation's position on it (from 1).
        seq: u64,
        /// Its label.
        label: String,
    },
    /// An operation waiting for operation `on_seq` of stream `on` (an event wait, a legacy-stream edge).
    WaitsFor {
        /// The waiting stream.
        stream: StreamId,
        /// The waiting operation's position on it.
        seq: u64,
        /// The stream waited for.
        on: StreamId,
        /// The position waited for.
        on_seq: u64,
    },
    /// An operation of a stream of another OS process attached to the same shared host, as that process
    /// publishes it: a record an IPC event wait waits for, or an operation there that waits for a record here.
    Remote {
        /// The OS process.
        pid: u32,
        /// The stream, as that process numbers it.
        stream: StreamId,
        /// The operation's position on it.
        seq: u64,
        /// How many operations that stream has run.
        completed: u64,
        /// What holds the operation there.
        state: RemoteState,
    },
    /// A host function or kernel body that has not returned within the watchdog's limit (real time).
    Running {
        /// The stream it runs on.
        stream: StreamId,
        /// Its position on it (from 1).
        seq: u64,
        /// Its label.
        label: String,
        /// `kernel`, `host-fn`, `callback`.
        kind: &'static str,
        /// The watchdog's limit, in milliseconds of real time.
        limit_ms: u64,
    },
}

impl std::fmt::Display for WaitLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WaitLink::HostThread {
                process,
                thread,
                call,
            } => write!(f, "host thread {thread} of process {} in {call}", process.0),
            WaitLink::Held { stream } => write!(
                f,
                "{stream} (process {}), held until a record, value write or callback is issued",
                stream.process.0
            ),
            WaitLink::NoIssuer { process, blocked } => {
                let list: Vec<String> = blocked.iter().map(u32::to_string).collect();
                write!(
                    f,
                    "no live host thread of process {} can issue it (live threads {}: all blocked)",
                    process.0,
                    list.join(", ")
                )
            }
            WaitLink::Scheduled { stream, seq, label } => write!(
                f,
                "{label:?} ({stream} op {seq}), ready and held back by the serialize schedule"
            ),
            WaitLink::WaitsFor {
                stream,
                seq,
                on,
                on_seq,
            } => write!(f, "{stream} op {seq}, waiting for {on} op {on_seq}"),
            WaitLink::Running {
                stream,
                seq,
                label,
                kind,
                limit_ms,
            } => write!(
                f,
                "{kind} {label:?} ({stream} op {seq}), running and not returned after {limit_ms} ms of real time"
            ),
            WaitLink::Remote {
                pid,
                stream,
                seq,
                completed,
                state,
            } => {
                write!(
                    f,
                    "{stream} of process {} op {seq} in OS process {pid}, ",
                    stream.process.0
                )?;
                match state {
                    RemoteState::WaitsForRecord => {
                        f.write_str("waiting for a record of another OS process")
                    }
                    RemoteState::Running(op) if op == seq => f.write_str(
                        "itself a kernel body, host function or callback that is running and has not returned",
                    ),
                    RemoteState::Running(op) => write!(
                        f,
                        "behind its op {op}, a kernel body, host function or callback that is running and has not \
                         returned"
                    ),
                    RemoteState::Held => write!(
                        f,
                        "not run there (that stream has run {completed} operations; that process's own watchdog \
                         says what holds it)"
                    ),
                }
            }
        }
    }
}

/// What holds an operation of another OS process ([`WaitLink::Remote`]), as that process publishes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RemoteState {
    /// Its stream's worker waits for a record of another OS process (the next link).
    WaitsForRecord,
    /// Its stream's worker runs a kernel body, host function or callback (this position) that has not returned.
    Running(u64),
    /// Nothing that process publishes: it is held there by something local (an event of that process, the
    /// serialize schedule, a host thread that has not issued the work yet).
    Held,
}

/// A wait-for cycle (or chain, where its last link's wait is not visible to the simulator), first link first:
/// each link waits for the next.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WaitCycle(pub Vec<WaitLink>);

impl std::fmt::Display for WaitCycle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, link) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" → ")?;
            }
            write!(f, "{link}")?;
        }
        Ok(())
    }
}

/// The [`HangReport::kind`] of an operation waiting for a record of another OS process that has not run there
/// within the watchdog's limit.
pub const IPC_WAIT: &str = "ipc-wait";

/// What the real-time watchdog found: a host function or kernel body that had not returned within the limit,
/// or an operation still waiting for a record of another OS process ([`IPC_WAIT`]). Nothing is stopped: the work goes on (see [`Machine::hang_reports`](crate::Machine::hang_reports)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HangReport {
    /// The stream it runs on.
    pub stream: StreamId,
    /// Its position on the stream (from 1).
    pub seq: u64,
    /// Its label.
    pub label: String,
    /// `kernel`, `host-fn`, `callback`, or [`IPC_WAIT`].
    pub kind: &'static str,
    /// The watchdog's limit, in milliseconds of real time.
    pub limit_ms: u64,
    /// Under [`Schedule::Serialize`]: the operations it held back (ready to run, waiting for it), first the one
    /// the seed would run next. Empty under [`Schedule::Concurrent`].
    pub held_back: Vec<WaitLink>,
    /// The operations of other streams that wait for this stream's work at or after it: under
    /// [`Schedule::Serialize`] those of this process ([`WaitLink::WaitsFor`]), and under any schedule those of
    /// other OS processes on the shared host waiting for a record of this stream ([`WaitLink::Remote`]). If the
    /// function waits for one of them, the cycle is closed and no schedule can run it (a true deadlock: reported,
    /// nothing stopped).
    pub waiting: Vec<WaitLink>,
    /// For kind `ipc-wait` (an operation waiting for a record of another OS process that has not run there): the
    /// chain across OS processes ([`WaitLink::Remote`]), each link held by the next, first the record waited for.
    pub across: Vec<WaitLink>,
}

impl std::fmt::Display for HangReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.kind == IPC_WAIT {
            let list: Vec<String> = self.across.iter().map(ToString::to_string).collect();
            return write!(
                f,
                "watchdog: {label:?} ({stream} of process {p}, op {seq}) has waited {ms} ms of real time for a record \
                 of another OS process that has not run there: {chain}",
                label = self.label,
                stream = self.stream,
                p = self.stream.process.0,
                seq = self.seq,
                ms = self.limit_ms,
                chain = list.join(" → ")
            );
        }
        write!(
            f,
            "watchdog: {kind} {label:?} ({stream} of process {p}, op {seq}) has not returned after {ms} ms of real time",
            kind = self.kind,
            label = self.label,
            stream = self.stream,
            p = self.stream.process.0,
            seq = self.seq,
            ms = self.limit_ms
        )?;
        if !self.waiting.is_empty() {
            let list: Vec<String> = self.waiting.iter().map(ToString::to_string).collect();
            write!(
                f,
                "; waiting for it: {} (if it waits for one of them, that is a deadlock under any schedule)",
                list.join(", ")
            )?;
        }
        if !self.held_back.is_empty() {
            let list: Vec<String> = self.held_back.iter().map(ToString::to_string).collect();
            write!(
                f,
                "; under the serialize schedule it holds back {}: it may be waiting for one of them, which \
                 needs two streams to progress concurrently (the schedule stops serializing so that the work can \
                 finish)",
                list.join(", ")
            )?;
        }
        Ok(())
    }
}

/// The message of [`SimError::WouldDeadlock`](crate::SimError::WouldDeadlock): with the cycle when the serialize
/// schedule's watchdog found it (the first link's call written as `what`, the name the facade gave the call);
/// a wait the board refuses says what it waits for, then the cycle in parentheses.
pub(crate) fn deadlock_message(what: &str, stream: &StreamId, cycle: &WaitCycle) -> String {
    let links: Vec<String> = cycle
        .0
        .iter()
        .map(|l| match l {
            WaitLink::HostThread {
                process, thread, ..
            } => format!("host thread {thread} of process {} in {what}", process.0),
            other => other.to_string(),
        })
        .collect();
    if !cycle
        .0
        .iter()
        .any(|l| matches!(l, WaitLink::Running { .. }))
    {
        let base = format!(
            "{what} would wait forever: {stream} waits for a record, value write or callback that no thread is left \
             to issue or run"
        );
        return if links.is_empty() {
            base
        } else {
            format!("{base} ({})", links.join(" → "))
        };
    }
    format!(
        "{what} would wait forever for {stream}: {}",
        links.join(" → ")
    )
}
