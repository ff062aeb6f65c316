//! Race reports: what a report says (the kinds, who made each access, the allocation and bytes), and what the
//! machine does about races. Detection itself is in `observe/race/`.

use std::panic::Location;
use std::sync::Arc;

use crate::engine::core::handle::{ProcessId, StreamId};
use crate::engine::core::labels::StreamLabel;
use crate::engine::core::pointers::AddressSpace;

/// What the machine does about races (set with [`crate::MachineBuilder::race_detection`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum RaceDetection {
    /// No tracking at all (the fastest).
    Off,
    /// Track accesses and collect reports, read with [`crate::Machine::race_reports`] (the default).
    #[default]
    Collect,
    /// Like `Collect`, and the call that completes a race fails with [`crate::SimError::Race`] (its operation
    /// is not enqueued).
    FailFast,
}

/// Declares [`RaceKind`] from one list: the variants, [`RaceKind::ALL`] and each kind's title. Everything else
/// that lists kinds matches on the enum exhaustively inside the crate (the C constants in
/// `src/facade/capi_toolkit.rs`, [`RaceKind::is_lifetime`]) or iterates [`RaceKind::ALL`] (the header check in
/// `tests/suite/c_headers.rs`), so a new kind is a compile error or a failing test until every place has it.
macro_rules! race_kinds {
    ($($(#[$meta:meta])* $kind:ident => $title:literal,)*) => {
        /// What kind of report a [`RaceReport`] is. New kinds are added (a match outside the crate needs a `_` arm).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        #[non_exhaustive]
        pub enum RaceKind {
            $($(#[$meta])* $kind,)*
        }

        impl RaceKind {
            /// Every kind, in the order reports sort by.
            pub const ALL: &'static [RaceKind] = &[$(RaceKind::$kind),*];

            /// `data race`, `use before allocation`, `use after free`.
            pub fn title(self) -> &'static str {
                match self {
                    $(RaceKind::$kind => $title,)*
                }
            }
        }
    };
}

race_kinds! {
    /// Two accesses to the same bytes, at least one a write, neither ordered before the other.
    #[default]
    Data => "data race",
    /// An access (or a free) not ordered after the stream-ordered allocation of its memory (`first` is the
    /// allocation): "the allocation must not be accessed until the allocation operation completes".
    UseBeforeAlloc => "use before allocation",
    /// An access not ordered before the free of its memory (`first` the access, `second` the free), or made
    /// after the free (`first` the free): "the allocation must not be accessed after stream execution
    /// reaches the free".
    UseAfterFree => "use after free",
}

impl RaceKind {
    /// Whether the report is about an allocation's lifetime (use before allocation, use after free) rather
    /// than two accesses.
    pub fn is_lifetime(self) -> bool {
        match self {
            RaceKind::Data => false,
            RaceKind::UseBeforeAlloc | RaceKind::UseAfterFree => true,
        }
    }
}

/// Who made an access.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Accessor {
    /// An operation on a stream.
    Op {
        /// The stream.
        stream: StreamId,
        /// The name the program gave the stream ([`crate::Process::name_stream`]), if any.
        stream_name: Option<Arc<str>>,
        /// `kernel`, `memcpy`, `memset`; for the lifetime points of a stream-ordered allocation, `alloc` and
        /// `free`.
        kind: &'static str,
        /// The operation's label (a kernel's name).
        label: String,
    },
    /// A host thread, through the API (pinned host memory).
    Host {
        /// The process.
        process: ProcessId,
        /// The host thread's ordinal in the process.
        thread: u32,
        /// The call (`host_write`, `host_read`; `free` for a free by the host).
        call: &'static str,
    },
}

impl Accessor {
    /// The process that made the access.
    pub fn process(&self) -> ProcessId {
        match self {
            Accessor::Op { stream, .. } => stream.process,
            Accessor::Host { process, .. } => *process,
        }
    }

    /// The stream as reports write it: `stream \`copy\`` if it has a name, else `stream 2`; `None` for a host
    /// thread.
    pub fn stream_label(&self) -> Option<String> {
        match self {
            Accessor::Op {
                stream,
                stream_name,
                ..
            } => Some(StreamLabel(*stream, stream_name.as_deref()).to_string()),
            Accessor::Host { .. } => None,
        }
    }
}

impl std::fmt::Display for Accessor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Accessor::Op {
                stream,
                stream_name,
                kind,
                label,
            } => write!(
                f,
                "{kind} `{label}` on {} (device {}, process {})",
                StreamLabel(*stream, stream_name.as_deref()),
                stream.device,
                stream.process
            ),
            Accessor::Host {
                process,
                thread,
                call,
            } => write!(f, "`{call}` on host thread {thread} of process {process}"),
        }
    }
}

/// One side of a race.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RaceAccess {
    /// Who.
    pub who: Accessor,
    /// Whether it wrote (otherwise it read).
    pub write: bool,
    /// Where the call that enqueued (or made) it is in the program.
    pub call_site: &'static Location<'static>,
    /// The operation's position in its stream, as in the trace ([`crate::TraceEvent::seq`]); `None` for a
    /// host thread's access.
    pub seq: Option<u64>,
    /// For a race between two OS processes of a shared host (on exported device memory): the OS process that
    /// made this access. `None` for a race within one OS process.
    pub os_process: Option<u32>,
    /// For a kernel run on the CPU (`streamsim cc`) whose real accesses were checked: a block and thread that
    /// made them.
    pub thread: Option<KernelThread>,
}

/// A thread of a kernel's grid: its block and its thread in the block, (x, y, z) each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct KernelThread {
    /// `blockIdx`.
    pub block: [u32; 3],
    /// `threadIdx`.
    pub thread: [u32; 3],
}

impl std::fmt::Display for KernelThread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [bx, by, bz] = self.block;
        let [tx, ty, tz] = self.thread;
        write!(f, "block ({bx},{by},{bz}), thread ({tx},{ty},{tz})")
    }
}

impl RaceAccess {
    /// `reads`, `writes`; `allocates` and `frees` for the lifetime points of an allocation.
    pub fn verb(&self) -> &'static str {
        match &self.who {
            Accessor::Op { kind: "alloc", .. } => "allocates",
            Accessor::Op { kind: "free", .. } | Accessor::Host { call: "free", .. } => "frees",
            _ if self.write => "writes",
            _ => "reads",
        }
    }

    /// Whether this side is the free of the allocation.
    fn is_free(&self) -> bool {
        self.verb() == "frees"
    }

    /// The operation's label (a kernel's name, a copy's call), or the host call.
    fn label(&self) -> &str {
        match &self.who {
            Accessor::Op { label, .. } => label,
            Accessor::Host { call, .. } => call,
        }
    }
}

/// Two accesses to the same bytes, at least one a write, neither ordered before the other.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RaceReport {
    /// The earlier access in program order.
    pub first: RaceAccess,
    /// The later access, which completed the race.
    pub second: RaceAccess,
    /// The first byte both touch (for pinned host memory a real address, which differs between runs; see
    /// `allocation` and `offset`).
    pub addr: u64,
    /// The allocation's number in its address space, in allocation order (1 is the first).
    pub allocation: u64,
    /// The first byte both touch, from the start of the allocation.
    pub offset: u64,
    /// How many bytes both touch.
    pub bytes: u64,
    /// Which memory.
    pub space: AddressSpace,
    /// How many times this pair of call sites raced on these streams (the report is kept once).
    pub occurrences: u64,
    /// A data race, or a use of memory outside its allocation's lifetime.
    pub kind: RaceKind,
}

impl RaceReport {
    /// A one-line fix.
    pub fn fix(&self) -> String {
        if self.kind == RaceKind::UseAfterFree && self.first.is_free() {
            // Enqueued after the free: no ordering can make it right.
            return format!(
                "`{}` uses the memory after `{}` freed it: enqueue it before the free (and order the free \
                 after it), or allocate the memory again",
                self.second.label(),
                self.first.label()
            );
        }
        let (first, second) = (&self.first.who, &self.second.who);
        match (first, second) {
            (
                Accessor::Op {
                    stream: a,
                    label: la,
                    ..
                },
                Accessor::Op {
                    stream: b,
                    label: lb,
                    ..
                },
            ) => {
                let (na, nb) = (
                    first.stream_label().unwrap_or_default(),
                    second.stream_label().unwrap_or_default(),
                );
                if let (Some(pa), Some(pb)) = (self.first.os_process, self.second.os_process)
                    && pa != pb
                {
                    format!(
                        "record an interprocess event on {na} in OS process {pa} after `{la}`, and make {nb} in \
                         OS process {pb} wait on it (IPC handle) before `{lb}`"
                    )
                } else if a.process != b.process {
                    format!(
                        "record an interprocess event on {na} of process {} after `{la}`, and make {nb} of \
                         process {} wait on it (IPC handle) before `{lb}`",
                        a.process, b.process
                    )
                } else {
                    format!(
                        "record an event on {na} after `{la}` and make {nb} wait on it before `{lb}`"
                    )
                }
            }
            (Accessor::Op { label: la, .. }, Accessor::Host { call, .. }) => format!(
                "synchronize {} (or an event recorded after `{la}`) before `{call}`",
                first.stream_label().unwrap_or_default()
            ),
            (Accessor::Host { call, .. }, Accessor::Op { label: lb, .. }) => format!(
                "finish `{call}` before enqueueing `{lb}` on {} (enqueue it later from the same thread, or \
                 synchronize the threads)",
                second.stream_label().unwrap_or_default()
            ),
            (Accessor::Host { .. }, Accessor::Host { .. }) => {
                "order the two host threads (join one, or use a host lock) before the second access"
                    .to_string()
            }
        }
    }

    /// The report as [`Display`](std::fmt::Display) writes it, with or without the call sites (`— enqueued
    /// at src/main.rs:12:5`). Without them for programs whose calls come through the C library, where the
    /// call site would be a line of the simulator's own facade, not of the program.
    pub fn text(&self, call_sites: bool) -> String {
        let mut out = format!(
            "{} {} {} bytes at offset {} of allocation #{} ({}){}\n",
            self.kind.title(),
            if self.kind == RaceKind::Data {
                "on"
            } else {
                "of"
            },
            self.bytes,
            self.offset,
            self.allocation,
            self.space,
            if self.occurrences > 1 {
                format!(", {} times", self.occurrences)
            } else {
                String::new()
            }
        );
        for (tag, side) in [("first: ", &self.first), ("second:", &self.second)] {
            out.push_str(&format!("  {tag} {}", side.who));
            if let Some(pid) = side.os_process {
                out.push_str(&format!(" in OS process {pid}"));
            }
            out.push_str(&format!(" {}", side.verb()));
            if let Some(t) = side.thread {
                out.push_str(&format!(" (in {t})"));
            }
            // The call site of another OS process's access is not known here.
            if call_sites && side.os_process.is_none_or(|p| p == std::process::id()) {
                out.push_str(&format!(" — enqueued at {}", side.call_site));
            }
            out.push('\n');
        }
        out.push_str(&format!("  fix: {}", self.fix()));
        out
    }
}

impl std::fmt::Display for RaceReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(true))
    }
}

/// The most distinct reports a machine keeps ([`crate::Machine::race_reports`]); past it, new pairs are only
/// counted ([`crate::Machine::race_reports_dropped`]).
pub const MAX_REPORTS: usize = 4096;

/// What an operation's accesses are checked with: who it is and where it was enqueued.
pub(crate) type Who = Arc<(Accessor, &'static Location<'static>)>;

/// A lifetime point of an allocation (see `observe/race/`'s `lifetime`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LifePoint {
    /// Its stream-ordered allocation.
    Alloc,
    /// Its free (stream-ordered, or by the host).
    Free,
}
