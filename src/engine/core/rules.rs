//! The rules table: what each vendor's runtime allows, in one place. The core asks [`Rules`]; it never tests
//! the dialect itself. Rows cite `docs/semantics/cuda-musa.md` and `docs/semantics/acl.md`.
use crate::engine::core::calls::EngineCall;

/// Which vendor's runtime semantics a machine follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Dialect {
    /// CUDA and MUSA (identical semantics and codes).
    #[default]
    Cuda,
    /// Ascend CANN ACL (`aclrt*`): ownership by context, per-context default streams.
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
    /// Either event is interprocess or external (ACL: 207000).
    NotShared,
}

/// What a stream belongs to, for the ownership checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ownership {
    /// To its device (CUDA): a stream of the current device is usable.
    Device,
    /// To its context (ACL): only a stream of the current context is usable.
    Context,
}

/// Which stream calls require the stream to belong to the caller's current device / context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct OwnedCalls {
    /// Kernel launch (CUDA 400; ACL 107003).
    pub launch: bool,
    /// MemcpyAsync / MemsetAsync (ACL 107003; CUDA allows).
    pub memcpy_async: bool,
    /// LaunchHostFunc (ACL 107003; CUDA allows).
    pub host_func: bool,
    /// RecordEvent and ResetEvent (ACL 107003; CUDA checks only event vs stream device).
    pub record: bool,
    /// StreamWaitEvent (ACL 107003; CUDA allows).
    pub wait: bool,
    /// DestroyStream (ACL 107003; CUDA allows).
    pub destroy: bool,
    /// Setting a stream's failure mode or attributes (ACL `aclrtSetStreamFailureMode`,
    /// `aclrtSetStreamAttribute`: 107003 from another context).
    pub attributes: bool,
    /// Beginning and ending a capture, and launching a graph (ACL: the stream must be the current context's, and
    /// the model too, 107003 / 107004; CUDA: a graph can be launched on a stream of any device).
    pub capture: bool,
}

/// What a copy between two devices does without enabled peer access.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PeerCopy {
    /// Works, staged through host memory (CUDA).
    StageThroughHost,
    /// Fails (ACL: 107000, naming the missing EnablePeerAccess).
    Reject,
}

/// What a dialect allows. Read with [`Dialect::rules`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Rules {
    /// What streams belong to.
    pub ownership: Ownership,
    /// Which calls check that the stream belongs to the current device / context.
    pub owned: OwnedCalls,
    /// Whether a host thread starts with device 0 current (CUDA) or with no device / context (ACL).
    pub implicit_device: bool,
    /// Whether SetDevice counts references and reset releases at zero (ACL) or reset is immediate (CUDA).
    pub refcounted_reset: bool,
    /// Whether explicit contexts exist (ACL).
    pub explicit_contexts: bool,
    /// Whether the handles 0x1 (legacy) and 0x2 (per-thread) are special streams (CUDA).
    pub special_stream_handles: bool,
    /// Record an event on a stream of another device (both vendors reject).
    pub record_other_device: Allow,
    /// A stream waiting on an event of another device (CUDA: allowed; ACL: 107003).
    pub wait_other_device: Allow,
    /// The NULL stream.
    pub default_stream: DefaultStream,
    /// The order of elapsed-time checks.
    pub elapsed_checks: &'static [ElapsedCheck],
    /// CanAccessPeer(d, d): `Allow::Yes` answers "no access" (CUDA), `Allow::No` is an error (ACL 100000).
    pub peer_query_same_device: Allow,
    /// Whether EnablePeerAccess checks its flags before the peer (CUDA) or after (ACL).
    pub peer_flags_first: bool,
    /// Enabling twice / disabling when not enabled: `Allow::No` is an error (CUDA 704 / 705), `Allow::Yes`
    /// is an idempotent success (ACL, sim).
    pub peer_repeat: Allow,
    /// A copy between devices without enabled peer access.
    pub peer_copy_without_access: PeerCopy,
    /// Which later calls a sticky kernel fault fails.
    pub sticky_scope: StickyScope,
    /// What a stream does after one of its operations faults, unless the program chose otherwise.
    pub failure_mode: FailureMode,
    /// Whether a program can choose a stream's failure mode (ACL `aclrtSetStreamFailureMode`).
    pub settable_failure_mode: bool,
    /// The stream priority range (least, greatest) of a device whose configuration leaves CUDA's default
    /// (0, −5) (ACL: 7, 0, `RT_STREAM_LEAST_PRIORITY` / `RT_STREAM_GREATEST_PRIORITY` of the runtime source,
    /// `src/runtime/core/inc/spec/base_info.hpp`).
    pub default_priority_range: (i32, i32),
    /// Whether a kernel can declare (and its body reach) pinned host memory at its host address: CUDA yes
    /// (unified addressing maps every `cudaMallocHost` allocation for all devices at the same address); ACL
    /// no (`aclrtMallocHost` memory reaches a kernel only through `aclrtHostRegister`, not simulated: the
    /// launch is refused with 107000).
    pub kernel_pinned_access: bool,
    /// Stream capture and graphs (`docs/semantics/capture-and-graphs.md`).
    pub capture: CaptureRules,
    /// Memory pools and stream-ordered allocation (`pool.rs`).
    pub pools: PoolRules,
}

/// What a dialect's stream capture allows (rows of `docs/semantics/capture-and-graphs.md`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CaptureRules {
    /// Whether a call that breaks a capture rule also invalidates the capture sequences it concerns (CUDA: "When
    /// an invalid operation is attempted during stream capture, any associated capture graphs are invalidated",
    /// Programming Guide §4.2.2.1.2.3); ACL's runtime returns the error and leaves the capture as it was.
    pub violations_invalidate: bool,
    /// The calls that are potentially unsafe while a capture is in progress: prohibited by the calling thread's
    /// capture mode (CUDA `cudaThreadExchangeStreamCaptureMode`: `cudaMalloc`, and event queries of other threads
    /// (pytorch/pytorch#104555); ACL: the synchronous copies and memsets, `CHECK_CAPTURE_MODE_SUPPORT` in
    /// `src/runtime/api/impl/api_impl.cc`). The engine's call names.
    pub unsafe_calls: &'static [&'static str],
    /// Whether an asynchronous copy of pageable host memory can be captured (CUDA: yes, the cuda-samples
    /// `simpleCudaGraphs` capture copies into a stack variable; ACL: no, "The pageable memory copy task does not
    /// support graph capture", 107000).
    pub pageable_copies: bool,
    /// Whether a capturing stream can be destroyed (CUDA: yes, hip-tests `hipStreamEndCapture.cc`; ACL: no,
    /// `ApiErrorDecorator::StreamDestroy`, 107027).
    pub destroy_capturing: bool,
    /// Whether only events made for it can take part in a capture (ACL: events of `aclrtCreateEventExWithFlag`,
    /// or external ones; `aclrtCreateEvent` events are refused with 207000); CUDA: every event.
    pub needs_capturable_events: bool,
    /// Whether a graph launch on a capturing stream is refused as a capture violation (ACL:
    /// `ApiErrorDecorator::ModelExecute`, 107027); otherwise it is not simulated (CUDA captures it as a child
    /// graph node, which the simulator does not model: `SimError::NotSupported`).
    pub launch_refused_in_capture: bool,
    /// Whether a wait that would merge two captures invalidates both even where violations do not invalidate
    /// (ACL: a failed capture wait calls `TerminateCapture` on the event's and the stream's models,
    /// `src/runtime/api/impl/api_impl.cc`, `capture_model_utils.cc`); CUDA: as every violation.
    pub merge_invalidates: bool,
    /// Whether a stream-ordered allocation or free on a capturing stream becomes a memory node of the graph
    /// (CUDA: "During stream capture, this function results in the creation of an allocation node",
    /// `cudaMallocAsync`); otherwise it is refused with `SimError::NotSupported` (ACL: CANN documents no memory
    /// tasks in a model).
    pub memory_nodes: bool,
}

/// What a dialect's memory pools do (docs/semantics/stream-ordered-memory.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct PoolRules {
    /// Whether each device has a default pool (CUDA: `cudaDeviceGetDefaultMemPool`; ACL: only pools made with
    /// `aclrtMemPoolCreate` exist).
    pub default_pools: bool,
    /// What an allocation's size is rounded up to (CUDA: 256 bytes, sim, as `cudaMalloc`'s alignment; ACL:
    /// 2 MiB, `DEVICE_POOL_MIN_BLOCK_SIZE` of the runtime's `stream_mem_pool.hpp`).
    pub alignment: u64,
    /// The granularity of a pool's physical allocations, its reserved memory (2 MiB in both: ACL's
    /// `DEVICE_POOL_ALIGN_SIZE`; sim for CUDA).
    pub chunk: u64,
    /// The reuse policies of a new pool (CUDA: all three enabled, "default enabled"; ACL: none,
    /// `PoolDependencyFea` of the runtime source).
    pub reuse: ReusePolicy,
    /// Whether the stream of a stream-ordered allocation or free must belong to the current context (ACL:
    /// 107003, `COND_RETURN_AND_MSG_INVALID_CONTEXT_STREAM` in `api_impl_soma.cc`; CUDA: any stream, "cudaMallocAsync
    /// ignores the current device/context").
    pub stream_in_context: bool,
    /// Whether a trim below the bytes in use or above the pool's size is refused (ACL
    /// `SegmentManager::TrimTo`); CUDA keeps what is in use.
    pub strict_trim: bool,
    /// Whether a release threshold above the pool's size is refused (ACL `SegmentManager::SetAttribute`).
    pub threshold_within_pool: bool,
    /// Whether resetting a high watermark sets it to 0 (ACL: `maxReservedSize_ = 0`) rather than to the current
    /// value (CUDA: "They can be reset to the current value").
    pub watermark_reset_to_zero: bool,
}

/// What a stream does after one of its operations faults (a kernel body that failed, a wait that timed out), and
/// how the fault is reported. A stream's operations take the mode that is in force when they are enqueued.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FailureMode {
    /// CUDA: kernel bodies and host functions ordered after the fault (on its stream, or on a stream that waited
    /// for it) do not run; copies still move bytes. The first call that observes the fault latches it as the
    /// sticky error of [`Rules::sticky_scope`].
    Sticky,
    /// ACL `ACL_CONTINUE_ON_FAILURE` (the default): the stream's later operations run, and nothing ordered after the
    /// fault is affected. The fault is reported once, by the next synchronize of the stream or of its device that
    /// covers it, and forgotten then: later calls work ("遇错继续"; the runtime clears a stream's error code once a
    /// synchronize has read it unless the stream is aborted, `Stream::GetError` in
    /// `src/runtime/core/src/stream/stream.cc`).
    Continue,
    /// ACL `ACL_STOP_ON_FAILURE` ("遇错即停"): set on one stream it applies to every stream of its context. After a
    /// fault the stream runs none of its later operations, nor does any stream of the context from its first
    /// operation ordered after the fault. Synchronizes (of the stream, its device, an event recorded on it after the
    /// fault) and queries report the fault every time, and once a call has reported it the context accepts no new
    /// task (that call fails with the fault's error), until the context is destroyed or its device reset.
    Stop,
}

/// Which later calls of a process a kernel fault it has seen fails (until the faulted device is reset).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StickyScope {
    /// Every call of the process, whatever its current device (CUDA: "every later call in that process returns
    /// the same error until the device is reset").
    Process,
    /// Calls whose current device is the faulted one.
    Device,
    /// No call: a fault belongs to its stream and is reported as [`Rules::failure_mode`] says (ACL).
    None,
}

const CUDA: Rules = Rules {
    ownership: Ownership::Device,
    owned: OwnedCalls {
        launch: true,
        memcpy_async: false,
        host_func: false,
        record: false,
        wait: false,
        destroy: false,
        attributes: false,
        capture: false,
    },
    implicit_device: true,
    refcounted_reset: false,
    explicit_contexts: false,
    special_stream_handles: true,
    record_other_device: Allow::No,
    wait_other_device: Allow::Yes,
    default_stream: DefaultStream::Legacy,
    // docs/semantics/cuda-musa.md, Events, EventElapsedTime: different devices (400) → never recorded (400) →
    // DisableTiming (400) → not finished (600).
    elapsed_checks: &[
        ElapsedCheck::SameDevice,
        ElapsedCheck::Recorded,
        ElapsedCheck::Timing,
        ElapsedCheck::Finished,
    ],
    peer_query_same_device: Allow::Yes,
    peer_flags_first: true,
    peer_repeat: Allow::No,
    peer_copy_without_access: PeerCopy::StageThroughHost,
    sticky_scope: StickyScope::Process,
    failure_mode: FailureMode::Sticky,
    settable_failure_mode: false,
    default_priority_range: (0, -5),
    kernel_pinned_access: true,
    capture: CaptureRules {
        violations_invalidate: true,
        unsafe_calls: &[
            EngineCall::Malloc.name(),
            EngineCall::MallocHost.name(),
            EngineCall::Free.name(),
            EngineCall::FreeHost.name(),
            EngineCall::EventQuery.name(),
            EngineCall::EventStatus.name(),
            EngineCall::EventSynchronize.name(),
        ],
        pageable_copies: true,
        destroy_capturing: true,
        needs_capturable_events: false,
        launch_refused_in_capture: false,
        memory_nodes: true,
        merge_invalidates: true,
    },
    pools: PoolRules {
        default_pools: true,
        alignment: 256,
        chunk: 2 << 20,
        reuse: ReusePolicy {
            follow_event_dependencies: true,
            allow_opportunistic: true,
            allow_internal_dependencies: true,
        },
        stream_in_context: false,
        strict_trim: false,
        threshold_within_pool: false,
        watermark_reset_to_zero: false,
    },
};

const ACL: Rules = Rules {
    ownership: Ownership::Context,
    owned: OwnedCalls {
        launch: true,
        memcpy_async: true,
        host_func: true,
        record: true,
        wait: true,
        destroy: true,
        attributes: true,
        capture: true,
    },
    implicit_device: false,
    refcounted_reset: true,
    explicit_contexts: true,
    special_stream_handles: false,
    record_other_device: Allow::No,
    wait_other_device: Allow::No,
    default_stream: DefaultStream::PerContext,
    // docs/semantics/acl.md, Events: IPC/EXTERNAL (207000, checked first by the runtime's
    // ApiErrorDecorator::EventElapsedTime) → never recorded (507000) → not finished (107006) → no TIME_LINE
    // (107006).
    elapsed_checks: &[
        ElapsedCheck::NotShared,
        ElapsedCheck::Recorded,
        ElapsedCheck::Finished,
        ElapsedCheck::Timing,
    ],
    peer_query_same_device: Allow::No,
    // aclrtDeviceEnablePeerAccessImpl checks the reserved flags before anything else (memory.cpp).
    peer_flags_first: true,
    peer_repeat: Allow::Yes,
    peer_copy_without_access: PeerCopy::Reject,
    // acl.md · aclrtSetStreamFailureMode: the default is ACL_CONTINUE_ON_FAILURE; a fault is the stream's, not
    // the device's.
    sticky_scope: StickyScope::None,
    failure_mode: FailureMode::Continue,
    settable_failure_mode: true,
    default_priority_range: (7, 0),
    kernel_pinned_access: false,
    capture: CaptureRules {
        violations_invalidate: false,
        unsafe_calls: &[EngineCall::Memcpy.name(), EngineCall::Memset.name()],
        pageable_copies: false,
        destroy_capturing: false,
        needs_capturable_events: true,
        launch_refused_in_capture: true,
        memory_nodes: false,
        merge_invalidates: true,
    },
    pools: PoolRules {
        default_pools: false,
        alignment: 2 << 20,
        chunk: 2 << 20,
        reuse: ReusePolicy {
            follow_event_dependencies: false,
            allow_opportunistic: false,
            allow_internal_dependencies: false,
        },
        stream_in_context: true,
        strict_trim: true,
        threshold_within_pool: true,
        watermark_reset_to_zero: true,
    },
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

/// The three reuse policies of a pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ReusePolicy {
    /// Reuse memory freed on a stream the allocating stream is ordered after.
    pub follow_event_dependencies: bool,
    /// Reuse memory whose free has completed, without an order.
    pub allow_opportunistic: bool,
    /// When the pool cannot grow, reuse freed memory by making the allocation wait for its free.
    pub allow_internal_dependencies: bool,
}
