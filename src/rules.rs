//! The rules table: what each vendor's runtime allows, in one place. The core asks [`Rules`]; it never tests
//! the dialect itself. Rows cite `shared/reference/cuda-musa.md` and `shared/reference/acl.md`.

/// Which vendor's runtime semantics a machine follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Dialect {
    /// CUDA and MUSA (identical semantics and codes).
    #[default]
    Cuda,
    /// Ascend CANN ACL (`aclrt*`). Contexts, its event flags and its cross-device rules arrive with the
    /// multi-device issue; building a machine in this dialect is refused until then.
    Acl,
}

/// Whether a call is allowed or rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Allow {
    /// The call works.
    Yes,
    /// The call fails.
    No,
}

/// What a stream wait on a never-recorded event does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NeverRecordedWait {
    /// Nothing waits; Success (CUDA).
    NoOp,
    /// Decided by the event's flags (ACL: error for plain events, no-op for Ex events, deferred for SYNC).
    ByEventFlags,
}

/// What the NULL stream means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefaultStream {
    /// CUDA's legacy default stream: synchronises with the device's blocking streams.
    Legacy,
    /// ACL: the current context's default stream, an ordinary stream.
    PerContext,
}

/// One check of elapsed time, in the order a dialect makes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElapsedCheck {
    /// The two events are on different devices.
    SameDevice,
    /// Either event was never recorded.
    Recorded,
    /// Either event was created without timing.
    Timing,
    /// Either event's record has not finished.
    Finished,
}

/// What a dialect allows. Read with [`Dialect::rules`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Rules {
    /// Kernel launch into a stream of a device other than the current one (CUDA: 400; ACL: 107003).
    pub launch_other_device: Allow,
    /// Record an event on a stream of another device (both vendors reject).
    pub record_other_device: Allow,
    /// A stream waiting on an event of another device (CUDA: allowed; ACL: 107003).
    pub wait_other_device: Allow,
    /// MemcpyAsync into a stream of another device (CUDA: allowed; ACL: 107003).
    pub memcpy_async_other_device: Allow,
    /// Host function into a stream of another device (CUDA: allowed; ACL: 107003).
    pub host_func_other_device: Allow,
    /// Stream wait on a never-recorded event.
    pub never_recorded_wait: NeverRecordedWait,
    /// The NULL stream.
    pub default_stream: DefaultStream,
    /// The order of elapsed-time checks.
    pub elapsed_checks: &'static [ElapsedCheck],
}

const CUDA: Rules = Rules {
    launch_other_device: Allow::No,
    record_other_device: Allow::No,
    wait_other_device: Allow::Yes,
    memcpy_async_other_device: Allow::Yes,
    host_func_other_device: Allow::Yes,
    never_recorded_wait: NeverRecordedWait::NoOp,
    default_stream: DefaultStream::Legacy,
    // reference/cuda-musa.md, Events, EventElapsedTime: different devices (400) → never recorded (400) →
    // DisableTiming (400) → not finished (600).
    elapsed_checks: &[
        ElapsedCheck::SameDevice,
        ElapsedCheck::Recorded,
        ElapsedCheck::Timing,
        ElapsedCheck::Finished,
    ],
};

const ACL: Rules = Rules {
    launch_other_device: Allow::No,
    record_other_device: Allow::No,
    wait_other_device: Allow::No,
    memcpy_async_other_device: Allow::No,
    host_func_other_device: Allow::No,
    never_recorded_wait: NeverRecordedWait::ByEventFlags,
    default_stream: DefaultStream::PerContext,
    // reference/acl.md, Events: never recorded (507000) → not finished (107006) → no timing (107006).
    elapsed_checks: &[
        ElapsedCheck::Recorded,
        ElapsedCheck::Finished,
        ElapsedCheck::Timing,
    ],
};

impl Dialect {
    /// The rules of this dialect.
    pub fn rules(self) -> &'static Rules {
        match self {
            Dialect::Cuda => &CUDA,
            Dialect::Acl => &ACL,
        }
    }
}
