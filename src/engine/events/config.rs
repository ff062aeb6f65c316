//! What an event is made with and what its status query answers: [`EventFlags`], [`EventConfig`] (the flags
//! resolved against the dialect's rules), [`UnrecordedWait`], [`RecordStatus`].
use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{Result, SimError};
use crate::engine::core::status::Status;

/// Event creation flags (CUDA's values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct EventFlags(pub u32);

impl EventFlags {
    /// Timing on, spin-waiting synchronize.
    pub const DEFAULT: EventFlags = EventFlags(0);
    /// Synchronize blocks the host thread instead of spinning (same results).
    pub const BLOCKING_SYNC: EventFlags = EventFlags(0x1);
    /// No timestamps: elapsed time is refused.
    pub const DISABLE_TIMING: EventFlags = EventFlags(0x2);
    /// Shareable with other processes; only together with `DISABLE_TIMING`.
    pub const INTERPROCESS: EventFlags = EventFlags(0x4);
    const ALL: u32 = 0x7;

    /// Whether every bit of `other` is set.
    pub fn contains(self, other: EventFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether elapsed time can be asked of the event.
    pub fn timing(self) -> bool {
        !self.contains(EventFlags::DISABLE_TIMING)
    }
}

impl std::ops::BitOr for EventFlags {
    type Output = EventFlags;
    fn bitor(self, rhs: EventFlags) -> EventFlags {
        EventFlags(self.0 | rhs.0)
    }
}

/// What a stream wait on an event that has no record does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnrecordedWait {
    /// Nothing waits; success (CUDA; ACL events made by `aclrtCreateEventExWithFlag`).
    NoOp,
    /// The wait is refused (ACL events made by `aclrtCreateEvent`: 107000).
    Error,
    /// The wait holds the stream until the event's next record is issued and reached (ACL `ACL_EVENT_SYNC`).
    /// Later work on the stream gets its virtual times when that record is issued.
    Defer,
}

/// An event's behaviour, vendor-neutral. CUDA flags map onto it with [`EventConfig::from_flags`]; the ACL
/// facade builds it from `aclrtCreateEvent*` and their flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct EventConfig {
    /// Records carry timestamps (elapsed time works).
    pub timing: bool,
    /// Synchronize blocks instead of spinning (no observable difference).
    pub blocking_sync: bool,
    /// Shareable with another process through an IPC handle.
    pub interprocess: bool,
    /// An external event (ACL): no timing.
    pub external: bool,
    /// Streams can wait on it (ACL: needs `ACL_EVENT_SYNC`, or is an `ACL_EVENT_IPC` event; CUDA: always).
    pub waitable: bool,
    /// It can be reset (ACL `aclrtResetEvent`: needs `ACL_EVENT_SYNC`; an IPC event never can). Set with
    /// `waitable` by [`EventConfig::waitable`]; [`EventConfig::resettable`] sets it alone.
    pub resettable: bool,
    /// What a status query answers before the first record.
    pub unrecorded_query: Status,
    /// What a stream wait does before the first record.
    pub unrecorded_wait: UnrecordedWait,
    /// It can be recorded and waited on in a stream capture (ACL: events of `aclrtCreateEventExWithFlag`, and
    /// external ones; CUDA: every event). See [`crate::rules::CaptureRules::needs_capturable_events`].
    pub capturable: bool,
}

impl EventConfig {
    /// The CUDA meaning of `flags`, validated as `cudaEventCreateWithFlags` does.
    pub fn from_flags(flags: EventFlags) -> Result<EventConfig> {
        let what = EngineCall::CreateEvent.name();
        if flags.0 & !EventFlags::ALL != 0 {
            return Err(SimError::InvalidFlags {
                what,
                flags: flags.0,
                reason: "unknown bits (defined: BLOCKING_SYNC 0x1, DISABLE_TIMING 0x2, INTERPROCESS 0x4)",
            });
        }
        if flags.contains(EventFlags::INTERPROCESS) && flags.timing() {
            return Err(SimError::InvalidFlags {
                what,
                flags: flags.0,
                reason: "INTERPROCESS requires DISABLE_TIMING",
            });
        }
        Ok(EventConfig {
            timing: flags.timing(),
            blocking_sync: flags.contains(EventFlags::BLOCKING_SYNC),
            interprocess: flags.contains(EventFlags::INTERPROCESS),
            external: false,
            waitable: true,
            resettable: true,
            unrecorded_query: Status::Complete,
            unrecorded_wait: UnrecordedWait::NoOp,
            capturable: true,
        })
    }

    /// A plain timed, waitable event with CUDA's answers before the first record.
    pub fn new() -> EventConfig {
        EventConfig::from_flags(EventFlags::DEFAULT).expect("default flags are valid")
    }

    /// Sets `timing`.
    #[must_use]
    pub fn timing(mut self, on: bool) -> Self {
        self.timing = on;
        self
    }

    /// Sets `blocking_sync`.
    #[must_use]
    pub fn blocking_sync(mut self, on: bool) -> Self {
        self.blocking_sync = on;
        self
    }

    /// Sets `interprocess`.
    #[must_use]
    pub fn interprocess(mut self, on: bool) -> Self {
        self.interprocess = on;
        self
    }

    /// Sets `external`.
    #[must_use]
    pub fn external(mut self, on: bool) -> Self {
        self.external = on;
        self
    }

    /// Sets `waitable`, and `resettable` with it.
    #[must_use]
    pub fn waitable(mut self, on: bool) -> Self {
        self.waitable = on;
        self.resettable = on;
        self
    }

    /// Sets `resettable` alone (after [`EventConfig::waitable`], which sets both).
    #[must_use]
    pub fn resettable(mut self, on: bool) -> Self {
        self.resettable = on;
        self
    }

    /// Sets what a query answers before the first record.
    #[must_use]
    pub fn unrecorded_query(mut self, s: Status) -> Self {
        self.unrecorded_query = s;
        self
    }

    /// Sets what a stream wait does before the first record.
    #[must_use]
    pub fn unrecorded_wait(mut self, w: UnrecordedWait) -> Self {
        self.unrecorded_wait = w;
        self
    }

    /// Sets `capturable`.
    #[must_use]
    pub fn capturable(mut self, on: bool) -> Self {
        self.capturable = on;
        self
    }
}

impl Default for EventConfig {
    fn default() -> Self {
        EventConfig::new()
    }
}

/// Where an event's latest record is, as the ACL status query reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecordStatus {
    /// No record (never recorded, or reset).
    NeverRecorded,
    /// Recorded; not finished at the calling thread's virtual time.
    NotReady,
    /// Recorded and finished.
    Complete,
}
