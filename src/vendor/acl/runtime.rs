//! The ACL runtime ([`crate::acl`]). Every function translates C arguments, calls the core on the process of
//! [`Api::Acl`], and maps the result with [`code`], the one place where a [`SimError`] becomes an `aclError`.
//!
//! Argument checks the ACL layer makes itself (NULL pointers and handles, unknown enum values and flag bits)
//! are [`ACL_ERROR_INVALID_PARAM`]; the runtime layer's (count > destMax, a copy kind that contradicts the
//! pointers, a bad timeout) are [`ACL_ERROR_RT_PARAM_INVALID`]. Where `docs/semantics/acl.md` is silent, the
//! simulator's choices are: a runtime call from inside a host function or kernel body is
//! [`ACL_ERROR_RT_FEATURE_NOT_SUPPORT`]; enabling peer access between unlinked devices is
//! [`ACL_ERROR_RT_FEATURE_NOT_SUPPORT`]; exporting an IPC handle of an event without `ACL_EVENT_IPC` is
//! [`ACL_ERROR_RT_PARAM_INVALID`]; opening a bad or one's own IPC handle is [`ACL_ERROR_RT_IPC_ERROR`]; an
//! unknown or freed address is [`ACL_ERROR_RT_PARAM_INVALID`]; device memory exhausted is
//! [`ACL_ERROR_RT_MEMORY_ALLOCATION`]; a synchronize that could never return (a deferred wait whose record is
//! never issued) is [`ACL_ERROR_RT_INTERNAL_ERROR`].

#![allow(
    clippy::missing_safety_doc,
    reason = "the vendor functions' contracts are the vendor's; see crate::vendor::acl"
)]

use std::cell::RefCell;
use std::ffi::{CString, c_char, c_void};
use std::time::Duration;

use super::types::*;
use crate::engine::error::{
    CaptureProblem, InitProblem, IpcProblem, PeerProblem, PoolProblem, SimError,
    SubscriptionProblem,
};
use crate::engine::event::{EventConfig, RecordStatus, UnrecordedWait};
use crate::engine::handle::{Context, Event};
use crate::engine::ipc::IpcEventHandle;
use crate::engine::machine::Attribute;
use crate::engine::memory::{AddressSpace, DevicePtr, HostPtr};
use crate::engine::process::{Process, Status, StreamFlags};
use crate::vendor::binding::{self, Api, NoProcess, contain, handle_ptr, invalid, out, stream};
use crate::vendor::cuda_runtime::{self as rt, streamsimAccess};

/// `what` of the runtime layer's argument checks (107000, not 100000).
const WHAT_COPY_KIND: &str = "aclrtMemcpy kind";
const WHAT_TIMEOUT: &str = "timeout";
/// `what` of the other arguments the runtime layer checks (107000): a stream attribute, a value-write flag or
/// address, a notify flag, a memory attribute.
pub(super) const WHAT_RT: &str = "runtime argument";
/// `what` of `aclrtCreateEventExWithFlag(ACL_EVENT_IPC | other)` (the runtime's `RT_ERROR_INVALID_VALUE`,
/// 107000, not the ACL layer's 100000).
const WHAT_IPC_ALONE: &str = "aclrtCreateEventExWithFlag (ACL_EVENT_IPC)";

/// The vendor's code for a simulator error: the one mapping of the ACL facade. A few variants depend on the
/// call that failed (its `what`).
pub(crate) fn code(e: &SimError) -> aclError {
    match e {
        // The runtime's capture checks (`docs/semantics/capture-and-graphs.md`; the RT codes' ACL values are
        // `src/runtime/core/src/common/errcode_manage.cc`).
        SimError::Capture { problem, .. } => match problem {
            CaptureProblem::Unsupported
            | CaptureProblem::AlreadyCapturing
            | CaptureProblem::DestroyCapturing => ACL_ERROR_RT_STREAM_CAPTURED,
            CaptureProblem::Prohibited => ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
            CaptureProblem::Invalidated => ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
            CaptureProblem::Merge => ACL_ERROR_STREAM_CAPTURE_CONFLICT,
            CaptureProblem::Unmatched => ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED,
            CaptureProblem::Unjoined => ACL_ERROR_RT_STREAM_UNJOINED,
            CaptureProblem::Isolation => ACL_ERROR_RT_CAPTURE_DEPENDENCY,
            CaptureProblem::Implicit => ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,
            CaptureProblem::CapturedEvent => ACL_ERROR_RT_EVENT_CAPTURED,
            CaptureProblem::WrongThread => ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD,
            CaptureProblem::NotCapturing => ACL_ERROR_RT_STREAM_NOT_CAPTURED,
            CaptureProblem::StreamCannotCapture => ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            CaptureProblem::PageableCopy => ACL_ERROR_RT_PARAM_INVALID,
        },
        // aclmdlRIExecuteAsync of a model of another context (`ApiImpl::ModelExecute`: RT_ERROR_MODEL_CONTEXT).
        SimError::WrongContext {
            what: "launch_graph",
            ..
        } => ACL_ERROR_RT_MODEL_CONTEXT,
        SimError::InvalidHandle { .. } => ACL_ERROR_RT_INVALID_HANDLE,
        SimError::InvalidDevice { .. } => ACL_ERROR_RT_INVALID_DEVICEID,
        SimError::WrongDevice { .. } | SimError::WrongContext { .. } => ACL_ERROR_RT_STREAM_CONTEXT,
        SimError::InvalidFlags {
            what: "enable_peer_access",
            ..
        } => ACL_ERROR_FEATURE_UNSUPPORTED,
        SimError::InvalidFlags {
            what: WHAT_IPC_ALONE,
            ..
        } => ACL_ERROR_RT_PARAM_INVALID,
        SimError::InvalidFlags { .. } => ACL_ERROR_INVALID_PARAM,
        SimError::InvalidValue { what, .. }
            if [WHAT_COPY_KIND, WHAT_TIMEOUT, WHAT_RT].contains(what) =>
        {
            ACL_ERROR_RT_PARAM_INVALID
        }
        SimError::InvalidValue { .. } => ACL_ERROR_INVALID_PARAM,
        SimError::EventNotRecorded {
            what: "stream_wait_event",
            ..
        } => ACL_ERROR_RT_PARAM_INVALID,
        SimError::EventNotRecorded { .. } => ACL_ERROR_RT_INTERNAL_ERROR,
        SimError::TimingDisabled { .. } | SimError::NotReady { .. } => {
            ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID
        }
        SimError::NotPermitted { .. } | SimError::NotSupported { .. } => {
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT
        }
        // Running out of streams, events or contexts is running out of a resource the runtime allocates.
        SimError::OutOfMemory { .. }
        | SimError::HostOutOfMemory { .. }
        | SimError::TooManyObjects { .. } => ACL_ERROR_RT_MEMORY_ALLOCATION,
        SimError::NoDevice { .. } => ACL_ERROR_RT_INVALID_DEVICEID,
        SimError::InvalidCopyKind { .. } => ACL_ERROR_RT_PARAM_INVALID,
        SimError::InvalidAddress { .. }
        | SimError::OutOfRange { .. }
        | SimError::PeerAccessRequired { .. } => ACL_ERROR_RT_PARAM_INVALID,
        SimError::KernelFault { .. } => ACL_ERROR_RT_AICORE_EXCEPTION,
        SimError::NoContext { .. } | SimError::DefaultContext { .. } => ACL_ERROR_RT_CONTEXT_NULL,
        SimError::DeviceNotSet { .. } => ACL_ERROR_RT_CONTEXT_RELEASE_ERROR,
        SimError::PeerAccess { problem, .. } => match problem {
            PeerProblem::SameDevice => ACL_ERROR_INVALID_PARAM,
            PeerProblem::NoLink => ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            PeerProblem::AlreadyEnabled | PeerProblem::NotEnabled => ACL_ERROR_RT_PARAM_INVALID,
        },
        SimError::Ipc { problem, .. } => match problem {
            IpcProblem::NotInterprocess => ACL_ERROR_RT_PARAM_INVALID,
            IpcProblem::SameProcess
            | IpcProblem::InvalidHandle
            | IpcProblem::ForeignUnshared
            | IpcProblem::StaleHandle
            | IpcProblem::OtherHost
            | IpcProblem::ExportGone
            | IpcProblem::NotAllowed => ACL_ERROR_RT_IPC_ERROR,
        },
        SimError::HostMismatch { .. } | SimError::HostUnavailable { .. } => ACL_ERROR_RT_IPC_ERROR,
        SimError::Timeout {
            what: "event_synchronize",
            ..
        } => ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
        // aclrtProcessReport: the runtime's report wait ran out (`RT_ERROR_REPORT_TIMEOUT`).
        SimError::Timeout {
            what: "process_report",
            ..
        } => ACL_ERROR_RT_REPORT_TIMEOUT,
        SimError::Timeout { .. } => ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
        SimError::WouldDeadlock { .. } | SimError::Race(_) => ACL_ERROR_RT_INTERNAL_ERROR,
        // An event wait that timed out is a task timeout at the next synchronize (vllm-ascend issue 14214:
        // "event wait timeout occurred during task execution" → aclrtSynchronizeEvent 107020).
        SimError::WaitTimedOut { .. } => ACL_ERROR_RT_TASK_TIMEOUT,
        // The runtime's subscription checks (`CbSubscribe`, `ApiErrorDecorator` in src/runtime/).
        SimError::Subscription { problem, .. } => match problem {
            SubscriptionProblem::StreamAlreadySubscribed
            | SubscriptionProblem::StreamNotSubscribed
            | SubscriptionProblem::HostFunctionStream
            | SubscriptionProblem::SubscribedStream => ACL_ERROR_RT_STREAM_SUBSCRIBE,
            SubscriptionProblem::ThreadOnOtherDevice
            | SubscriptionProblem::NotTheSubscriber
            | SubscriptionProblem::ThreadNotSubscribed => ACL_ERROR_RT_THREAD_SUBSCRIBE,
            SubscriptionProblem::NoSubscriber => ACL_ERROR_RT_STREAM_NO_CB_REG,
        },
        // The CUDA-family calls that raise these have no ACL facade yet (sim: parameter errors).
        SimError::HostMemory { .. }
        | SimError::UnsupportedLimit { .. }
        | SimError::InvalidKernel { .. } => ACL_ERROR_RT_PARAM_INVALID,
        SimError::Init { problem, .. } => match problem {
            InitProblem::AlreadyInitialized => ACL_ERROR_REPEAT_INITIALIZE,
            InitProblem::AlreadyFinalized => ACL_ERROR_REPEAT_FINALIZE,
            InitProblem::NotInitialized => ACL_ERROR_UNINITIALIZE,
        },
        // The runtime's SOMA codes (src/runtime/feature/soma/, docs/semantics/stream-ordered-memory.md): its
        // pool errors (RT_ERROR_MEM_POOL_NULL, RT_ERROR_POOL_OP_INVALID, RT_ERROR_POOL_PROP_INVALID,
        // RT_ERROR_MEM_POOL_ALLOC, RT_ERROR_STREAM_NULL) have no row in the error map
        // (errcode_manage.cc) and come out as ACL_ERROR_RT_INTERNAL_ERROR; the ones it raises as
        // RT_ERROR_INVALID_VALUE are 107000.
        SimError::MemPool { what, problem } => match problem {
            PoolProblem::Handle(_) if [WHAT_POOL_SET_ATTR, WHAT_POOL_GET_ATTR].contains(what) => {
                ACL_ERROR_RT_PARAM_INVALID
            }
            PoolProblem::ReadOnlyAttribute | PoolProblem::OtherDevice { .. } => {
                ACL_ERROR_RT_PARAM_INVALID
            }
            PoolProblem::NoDefaultPool => ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            _ => ACL_ERROR_RT_INTERNAL_ERROR,
        },
    }
}

/// The engine's names of the two pool-attribute calls (their unknown-pool error is the runtime's
/// RT_ERROR_INVALID_VALUE, 107000; the other pool calls' is RT_ERROR_MEM_POOL_NULL, which has no row in the
/// error map: 507000).
const WHAT_POOL_SET_ATTR: &str = "pool_set_attribute";
const WHAT_POOL_GET_ATTR: &str = "pool_get_attribute";

/// Lists `(constant, "its name")` for the constants given.
macro_rules! named {
    ($($c:ident),* $(,)?) => {
        &[$(($c, stringify!($c))),*]
    };
}

/// Every `aclError` constant of [`crate::acl`] with its name (a unit test checks that none is missing).
const CODE_NAMES: &[(aclError, &str)] = named![
    ACL_SUCCESS,
    ACL_ERROR_INVALID_PARAM,
    ACL_ERROR_UNINITIALIZE,
    ACL_ERROR_REPEAT_INITIALIZE,
    ACL_ERROR_REPEAT_FINALIZE,
    ACL_ERROR_BAD_ALLOC,
    ACL_ERROR_FEATURE_UNSUPPORTED,
    ACL_ERROR_RT_PARAM_INVALID,
    ACL_ERROR_RT_INVALID_DEVICEID,
    ACL_ERROR_RT_CONTEXT_NULL,
    ACL_ERROR_RT_STREAM_CONTEXT,
    ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
    ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL,
    ACL_ERROR_RT_STREAM_SUBSCRIBE,
    ACL_ERROR_RT_THREAD_SUBSCRIBE,
    ACL_ERROR_RT_STREAM_NO_CB_REG,
    ACL_ERROR_RT_INVALID_HANDLE,
    ACL_ERROR_RT_WAIT_TIMEOUT,
    ACL_ERROR_RT_TASK_TIMEOUT,
    ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
    ACL_ERROR_RT_MEMORY_ALLOCATION,
    ACL_ERROR_RT_DEVICE_OOM,
    ACL_ERROR_RT_INTERNAL_ERROR,
    ACL_ERROR_RT_CONTEXT_RELEASE_ERROR,
    ACL_ERROR_RT_REPORT_TIMEOUT,
    ACL_ERROR_RT_AICORE_EXCEPTION,
    ACL_ERROR_RT_IPC_ERROR,
    ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
    ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
    ACL_ERROR_RT_MODEL_CONTEXT,
    ACL_ERROR_RT_CAPTURE_DEPENDENCY,
    ACL_ERROR_RT_STREAM_UNJOINED,
    ACL_ERROR_RT_STREAM_CAPTURED,
    ACL_ERROR_RT_EVENT_CAPTURED,
    ACL_ERROR_RT_STREAM_NOT_CAPTURED,
    ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
    ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,
    ACL_ERROR_STREAM_CAPTURE_CONFLICT,
    ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED,
    ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD,
    ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
];

/// The name of an ACL code (`ACL_ERROR_RT_STREAM_CONTEXT`); `None` for a value that is no `aclError`
/// constant.
pub(crate) fn code_name(code: aclError) -> Option<&'static str> {
    CODE_NAMES
        .iter()
        .find(|(c, _)| *c == code)
        .map(|&(_, name)| name)
}

/// Runs a facade body against the ACL process: panics become `ACL_ERROR_RT_INTERNAL_ERROR`, a call from
/// inside a host function or kernel body is refused, a missing process is `ACL_ERROR_UNINITIALIZE` (bad
/// environment) or `ACL_ERROR_RT_FEATURE_NOT_SUPPORT` (bound to a machine of another dialect), and an error
/// from the body is mapped and stored as the thread's last error.
/// [`run`] for a kernel launch: the process is lent for the call rather than cloned (see
/// `binding::with_process`; a launch runs nothing of the program on the calling thread).
pub(super) fn run_launch(
    what: &'static str,
    f: impl FnOnce(&Process) -> Result<(), SimError>,
) -> aclError {
    contain(ACL_ERROR_RT_INTERNAL_ERROR, || {
        if crate::engine::process::on_worker_thread() {
            return code(&SimError::NotPermitted { what });
        }
        let r = binding::with_process(Api::Acl, |p| {
            p.set_host_thread_key(super::control_runtime::thread_key());
            f(p).map_err(|mut e| {
                let c = code(&e);
                super::names::name_the_call(&mut e, what);
                p.set_last_error(e);
                c
            })
        });
        match r {
            Ok(Ok(())) => ACL_SUCCESS,
            Ok(Err(c)) => c,
            Err(NoProcess::Config(_)) => ACL_ERROR_UNINITIALIZE,
            Err(NoProcess::WrongDialect(_)) => ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
        }
    })
}

pub(super) fn run(
    what: &'static str,
    f: impl FnOnce(&Process) -> Result<(), SimError>,
) -> aclError {
    contain(ACL_ERROR_RT_INTERNAL_ERROR, || {
        if crate::engine::process::on_worker_thread() {
            return code(&SimError::NotPermitted { what });
        }
        match binding::process(Api::Acl) {
            Ok(p) => {
                // The runtime knows threads by pthread_self() (stream callbacks name the thread that runs them).
                p.set_host_thread_key(super::control_runtime::thread_key());
                match f(&p) {
                    Ok(()) => ACL_SUCCESS,
                    Err(mut e) => {
                        let c = code(&e);
                        // aclGetRecentErrMsg names the function the program called.
                        super::names::name_the_call(&mut e, what);
                        p.set_last_error(e);
                        c
                    }
                }
            }
            Err(NoProcess::Config(_)) => ACL_ERROR_UNINITIALIZE,
            Err(NoProcess::WrongDialect(_)) => ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
        }
    })
}

/// Fails with ACL_ERROR_INVALID_PARAM if `ptr` is NULL.
pub(super) fn not_null<T>(what: &'static str, name: &str, ptr: *const T) -> Result<(), SimError> {
    if ptr.is_null() {
        Err(invalid(what, format!("{name} is NULL")))
    } else {
        Ok(())
    }
}

/// An event argument: NULL is ACL_ERROR_INVALID_PARAM (any call).
pub(super) fn event(what: &'static str, e: *mut c_void) -> Result<Event, SimError> {
    not_null(what, "event", e)?;
    Ok(Event::from_raw(e as usize as u64))
}

fn context(what: &'static str, c: *mut c_void) -> Result<Context, SimError> {
    not_null(what, "context", c)?;
    Ok(Context::from_raw(c as usize as u64))
}

/// A raw pointer that a closure run on a worker may carry (the C caller vouches for it).
pub(super) struct SendPtr(pub(super) *mut c_void);
// SAFETY: the pointer is only handed back to the C callback that was given it, as the vendor does.
unsafe impl Send for SendPtr {}
// SAFETY: as above; a captured model may hand it to the callback at each execution, from its lanes.
unsafe impl Sync for SendPtr {}

impl SendPtr {
    /// The pointer (a method, so that a closure captures the whole `SendPtr`, not its field).
    pub(super) fn get(&self) -> *mut c_void {
        self.0
    }
}

// ---------------------------------------------------------------------------------------------- init

pub(crate) fn init(_config_path: *const c_char) -> aclError {
    run("aclInit", |p| p.runtime_init())
}

pub(crate) fn finalize() -> aclError {
    run("aclFinalize", |p| p.runtime_finalize())
}

thread_local! {
    static RECENT: RefCell<Option<CString>> = const { RefCell::new(None) };
}
/// Where `aclGetRecentErrMsg` keeps its string once the thread's locals are destroyed.
static RECENT_AFTER_EXIT: parking_lot::Mutex<Option<CString>> = parking_lot::Mutex::new(None);

pub(crate) fn recent_err_msg() -> *const c_char {
    contain(std::ptr::null(), || {
        let Some(msg) = binding::last_message(Api::Acl) else {
            return std::ptr::null();
        };
        let msg = CString::new(msg.replace('\0', " ")).expect("NULs replaced");
        // The string (and the pointer handed out before) is kept while the message is the same.
        binding::keep_message(&RECENT, &RECENT_AFTER_EXIT, msg, true)
    })
}

// ---------------------------------------------------------------------------------------------- devices

pub(crate) fn set_device(device: i32) -> aclError {
    run("aclrtSetDevice", |p| p.set_device(device.into()))
}

pub(crate) fn reset_device(device: i32, force: bool) -> aclError {
    run("aclrtResetDevice", |p| {
        if force {
            p.reset_device_force(device.into())
        } else {
            p.reset_device(device.into())
        }
    })
}

pub(crate) unsafe fn get_device(device: *mut i32) -> aclError {
    let what = "aclrtGetDevice";
    run(what, |p| {
        not_null(what, "deviceId", device)?;
        let d = p.get_device()?;
        // SAFETY: C contract.
        unsafe { out(what, device, d as i32) }
    })
}

pub(crate) unsafe fn get_device_count(count: *mut u32) -> aclError {
    let what = "aclrtGetDeviceCount";
    run(what, |p| {
        not_null(what, "count", count)?;
        let n = p.device_count()?;
        // SAFETY: C contract.
        unsafe { out(what, count, n) }
    })
}

pub(crate) unsafe fn get_device_info(device: u32, attr: aclrtDevAttr, value: *mut i64) -> aclError {
    let what = "aclrtGetDeviceInfo";
    run(what, |p| {
        not_null(what, "value", value)?;
        let m = p.machine();
        if device >= m.device_count() {
            return Err(SimError::InvalidDevice {
                device: device.into(),
                count: m.device_count(),
            });
        }
        let attr = match attr {
            ACL_DEV_ATTR_AICPU_CORE_NUM => Attribute::AiCpuCoreCount,
            ACL_DEV_ATTR_AICORE_CORE_NUM => Attribute::AiCoreCount,
            ACL_DEV_ATTR_CUBE_CORE_NUM => Attribute::CubeCoreCount,
            ACL_DEV_ATTR_VECTOR_CORE_NUM => Attribute::VectorCoreCount,
            ACL_DEV_ATTR_WARP_SIZE => Attribute::WarpSize,
            ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE => Attribute::TotalMemory,
            other => return Err(invalid(what, format!("attribute {other} is not modelled"))),
        };
        let v = m.device_attribute(device, attr)?;
        // SAFETY: C contract.
        unsafe { out(what, value, v) }
    })
}

pub(crate) fn synchronize_device() -> aclError {
    run("aclrtSynchronizeDevice", |p| p.device_synchronize())
}

pub(crate) unsafe fn can_access_peer(can: *mut i32, device: i32, peer: i32) -> aclError {
    let what = "aclrtDeviceCanAccessPeer";
    run(what, |p| {
        not_null(what, "canAccessPeer", can)?;
        let yes = p.can_access_peer(device.into(), peer.into())?;
        // SAFETY: C contract.
        unsafe { out(what, can, i32::from(yes)) }
    })
}

pub(crate) fn enable_peer_access(peer: i32, flags: u32) -> aclError {
    run("aclrtDeviceEnablePeerAccess", |p| {
        p.enable_peer_access(peer.into(), flags)
    })
}

pub(crate) fn disable_peer_access(peer: i32) -> aclError {
    run("aclrtDeviceDisablePeerAccess", |p| {
        p.disable_peer_access(peer.into())
    })
}

// ---------------------------------------------------------------------------------------------- contexts

pub(crate) unsafe fn create_context(ctx: *mut aclrtContext, device: i32) -> aclError {
    let what = "aclrtCreateContext";
    run(what, |p| {
        not_null(what, "context", ctx)?;
        let c = p.create_context(device.into())?;
        // SAFETY: C contract.
        unsafe { out(what, ctx, handle_ptr(c.to_raw())) }
    })
}

pub(crate) fn destroy_context(ctx: aclrtContext) -> aclError {
    let what = "aclrtDestroyContext";
    run(what, |p| p.destroy_context(context(what, ctx)?))
}

pub(crate) fn set_current_context(ctx: aclrtContext) -> aclError {
    let what = "aclrtSetCurrentContext";
    run(what, |p| p.set_current_context(context(what, ctx)?))
}

pub(crate) unsafe fn get_current_context(ctx: *mut aclrtContext) -> aclError {
    let what = "aclrtGetCurrentContext";
    run(what, |p| {
        not_null(what, "context", ctx)?;
        let c = p.current_context()?;
        // SAFETY: C contract.
        unsafe { out(what, ctx, handle_ptr(c.to_raw())) }
    })
}

// ---------------------------------------------------------------------------------------------- streams

/// Every `ACL_STREAM_*` flag.
const STREAM_FLAGS: u32 = ACL_STREAM_FAST_LAUNCH
    | ACL_STREAM_FAST_SYNC
    | ACL_STREAM_PERSISTENT
    | ACL_STREAM_HUGE
    | ACL_STREAM_CPU_SCHEDULE
    | ACL_STREAM_DEVICE_USE_ONLY;

pub(crate) unsafe fn create_stream(s: *mut aclrtStream, priority: u32, flag: u32) -> aclError {
    let what = "aclrtCreateStreamWithConfig";
    run(what, |p| {
        not_null(what, "stream", s)?;
        if flag & !STREAM_FLAGS != 0 {
            return Err(SimError::InvalidFlags {
                what,
                flags: flag,
                reason: "unknown bits (defined: ACL_STREAM_FAST_LAUNCH 0x1 … ACL_STREAM_DEVICE_USE_ONLY 0x20)",
            });
        }
        // ACL's streams are all alike (no legacy default stream to be blocking against); the priority is
        // kept within the device's range.
        let priority = i32::try_from(priority).unwrap_or(i32::MAX);
        let h = p.create_stream_with_priority(StreamFlags::DEFAULT, priority)?;
        // SAFETY: C contract.
        unsafe { out(what, s, handle_ptr(h.to_raw())) }
    })
}

pub(crate) fn destroy_stream(s: aclrtStream, what: &'static str) -> aclError {
    run(what, |p| {
        not_null(what, "stream", s)?;
        p.destroy_stream(stream(s))
    })
}

/// A timeout argument: `None` waits forever (−1); 0 and values below −1 are invalid.
pub(crate) fn timeout_arg(ms: i32) -> Result<Option<Duration>, SimError> {
    match ms {
        -1 => Ok(None),
        t if t > 0 => Ok(Some(Duration::from_millis(t as u64))),
        t => Err(invalid(
            WHAT_TIMEOUT,
            format!("timeout {t} ms (expected -1 to wait forever, or a positive number)"),
        )),
    }
}

pub(crate) fn synchronize_stream(s: aclrtStream, timeout: i32) -> aclError {
    run("aclrtSynchronizeStream", |p| match timeout_arg(timeout)? {
        None => p.stream_synchronize(stream(s)),
        Some(t) => p.stream_synchronize_timeout(stream(s), t),
    })
}

pub(crate) unsafe fn stream_query(s: aclrtStream, status: *mut aclrtStreamStatus) -> aclError {
    let what = "aclrtStreamQuery";
    run(what, |p| {
        not_null(what, "status", status)?;
        let v = match p.stream_query(stream(s))? {
            Status::Complete => ACL_STREAM_STATUS_COMPLETE,
            Status::NotReady => ACL_STREAM_STATUS_NOT_READY,
        };
        // SAFETY: C contract.
        unsafe { out(what, status, v) }
    })
}

pub(crate) fn stream_wait_event(s: aclrtStream, e: aclrtEvent) -> aclError {
    let what = "aclrtStreamWaitEvent";
    run(what, |p| p.stream_wait_event(stream(s), event(what, e)?))
}

pub(crate) unsafe fn launch_host_func(
    s: aclrtStream,
    f: aclrtHostFunc,
    args: *mut c_void,
) -> aclError {
    let what = "aclrtLaunchHostFunc";
    run(what, |p| {
        let Some(f) = f else {
            return Err(invalid(what, "fn is NULL"));
        };
        let args = SendPtr(args);
        // A shared function: a capturing stream makes it a task of the model, called at each execution.
        p.launch_host_func_shared(stream(s), move || {
            // SAFETY: the C caller registered `f` with `args` for this call (and, captured, for the model's
            // executions).
            unsafe { f(args.get()) }
        })
    })
}

#[allow(
    clippy::too_many_arguments,
    reason = "the C signature and the function's name"
)]
pub(crate) unsafe fn launch_kernel(
    what: &'static str,
    s: aclrtStream,
    name: *const c_char,
    duration_ns: u64,
    f: aclrtHostFunc,
    arg: *mut c_void,
    accesses: *const streamsimAccess,
    count: usize,
) -> aclError {
    run_launch(what, |p| {
        if f.is_none() && count == 0 {
            // SAFETY: NULL or NUL-terminated by the C contract.
            let label = unsafe { crate::vendor::c_names::kernel_name(name) };
            return p.launch_plain(stream(s), label, duration_ns);
        }
        // SAFETY: forwarded C contract.
        let k = unsafe { rt::c_kernel(name, duration_ns, f, arg, accesses, count) }?;
        p.launch(stream(s), k)
    })
}

/// `aclsimLaunchKernelCtx`: a kernel whose C body works on its declared memory.
pub(crate) unsafe fn launch_kernel_ctx(
    s: aclrtStream,
    name: *const c_char,
    duration_ns: u64,
    body: crate::vendor::kernel_ctx::streamsimKernelCtxBody,
    arg: *mut c_void,
    accesses: *const streamsimAccess,
    count: usize,
) -> aclError {
    run_launch("aclsimLaunchKernelCtx", |p| {
        // SAFETY: forwarded C contract.
        let k = unsafe {
            crate::vendor::kernel_ctx::ctx_kernel(name, duration_ns, body, arg, accesses, count)
        }?;
        p.launch(stream(s), k)
    })
}

// ---------------------------------------------------------------------------------------------- events

/// Which `aclrtCreateEvent*` call made an event.
#[derive(Debug, Clone, Copy)]
pub(crate) enum EventKind {
    /// `aclrtCreateEvent`.
    Plain,
    /// `aclrtCreateEventWithFlag(flag)`.
    WithFlag(u32),
    /// `aclrtCreateEventExWithFlag(flag)`.
    ExWithFlag(u32),
}

/// Every `ACL_EVENT_*` flag.
const EVENT_FLAGS: u32 = ACL_EVENT_SYNC
    | ACL_EVENT_CAPTURE_STREAM_PROGRESS
    | ACL_EVENT_TIME_LINE
    | ACL_EVENT_DEVICE_USE_ONLY
    | ACL_EVENT_EXTERNAL
    | ACL_EVENT_IPC;

/// The core's configuration for an ACL event (docs/semantics/acl.md, Events).
pub(crate) fn event_config(kind: EventKind) -> Result<EventConfig, SimError> {
    let base = EventConfig::new().unrecorded_query(Status::NotReady);
    let flag = match kind {
        EventKind::Plain => {
            // Only aclrtCreateEventExWithFlag events (and external ones) take part in a capture: "Event created
            // via the API rtEventCreate and rtEventCreateWithFlag are not supported, except for the
            // RT_EVENT_EXTERNAL type" (`ApiImpl::StreamWaitEvent` / `EventRecord`).
            return Ok(base
                .timing(true)
                .waitable(true)
                .unrecorded_wait(UnrecordedWait::Error)
                .capturable(false));
        }
        EventKind::WithFlag(f) | EventKind::ExWithFlag(f) => f,
    };
    if flag & !EVENT_FLAGS != 0 {
        return Err(SimError::InvalidFlags {
            what: match kind {
                EventKind::ExWithFlag(_) => "aclrtCreateEventExWithFlag",
                _ => "aclrtCreateEventWithFlag",
            },
            flags: flag,
            reason: "unknown bits (defined: SYNC 0x1, CAPTURE_STREAM_PROGRESS 0x2, TIME_LINE 0x8, \
                     DEVICE_USE_ONLY 0x10, EXTERNAL 0x20, IPC 0x40)",
        });
    }
    let has = |bit: u32| flag & bit != 0;
    let (ipc, external, sync) = (
        has(ACL_EVENT_IPC),
        has(ACL_EVENT_EXTERNAL),
        has(ACL_EVENT_SYNC),
    );
    if ipc {
        // reference/acl.md · Events · StreamWaitEvent · an ACL_EVENT_IPC event: "该flag不支持与其他flag进行位或操作"
        // (aclrtCreateEventExWithFlag; the runtime's EventCreateEx: RT_ERROR_INVALID_VALUE → 107000).
        if flag != ACL_EVENT_IPC && matches!(kind, EventKind::ExWithFlag(_)) {
            return Err(SimError::InvalidFlags {
                what: WHAT_IPC_ALONE,
                flags: flag,
                reason: "ACL_EVENT_IPC (0x40) cannot be OR-ed with any other flag",
            });
        }
        // An IPC event has no timing, is waited on without ACL_EVENT_SYNC (the aclrtIpcGetEventHandle docs
        // prescribe aclrtStreamWaitEvent in process B; the runtime's IpcEventWait), and cannot be reset. Before
        // its first record a wait does nothing and a status query says complete (IpcEventWait / IpcEventQuery:
        // "not record or record had been finished, return success"). aclrtCreateEventWithFlag does not document
        // ACL_EVENT_IPC; it makes the same event (sim).
        return Ok(base
            .capturable(matches!(kind, EventKind::ExWithFlag(_)))
            .timing(false)
            .interprocess(true)
            .waitable(true)
            .resettable(false)
            .unrecorded_query(Status::Complete)
            .unrecorded_wait(UnrecordedWait::NoOp));
    }
    let config = base
        .timing(has(ACL_EVENT_TIME_LINE) && !external)
        .external(external)
        .waitable(sync)
        .capturable(external || matches!(kind, EventKind::ExWithFlag(_)));
    Ok(match kind {
        EventKind::ExWithFlag(_) => config
            .unrecorded_query(Status::Complete)
            .unrecorded_wait(UnrecordedWait::NoOp),
        _ if sync => config.unrecorded_wait(UnrecordedWait::Defer),
        _ => config.unrecorded_wait(UnrecordedWait::Error),
    })
}

pub(crate) unsafe fn create_event(e: *mut aclrtEvent, kind: EventKind) -> aclError {
    let what = "aclrtCreateEvent";
    run(what, |p| {
        not_null(what, "event", e)?;
        let h = p.create_event_with(event_config(kind)?)?;
        // SAFETY: C contract.
        unsafe { out(what, e, handle_ptr(h.to_raw())) }
    })
}

pub(crate) fn destroy_event(e: aclrtEvent) -> aclError {
    let what = "aclrtDestroyEvent";
    run(what, |p| p.destroy_event(event(what, e)?))
}

pub(crate) fn record_event(e: aclrtEvent, s: aclrtStream) -> aclError {
    let what = "aclrtRecordEvent";
    run(what, |p| p.record_event(event(what, e)?, stream(s)))
}

pub(crate) fn reset_event(e: aclrtEvent, s: aclrtStream) -> aclError {
    let what = "aclrtResetEvent";
    run(what, |p| p.reset_event(event(what, e)?, stream(s)))
}

pub(crate) unsafe fn query_event(e: aclrtEvent, status: *mut aclrtEventStatus) -> aclError {
    let what = "aclrtQueryEvent";
    run(what, |p| {
        let e = event(what, e)?;
        not_null(what, "status", status)?;
        // "本flag创建出来的Event不支持在以下接口或场景中使用：aclrtResetEvent、aclrtQueryEvent…" (ACL_EVENT_IPC); the
        // runtime's EventQuery decorator: RT_ERROR_FEATURE_NOT_SUPPORT.
        if p.event_config(e)?.interprocess {
            return Err(SimError::NotSupported {
                what,
                reason: "an IPC event does not support aclrtQueryEvent: use aclrtQueryEventStatus"
                    .to_string(),
            });
        }
        let v = match p.event_status(e)? {
            RecordStatus::NeverRecorded | RecordStatus::Complete => ACL_EVENT_STATUS_COMPLETE,
            RecordStatus::NotReady => ACL_EVENT_STATUS_NOT_READY,
        };
        // SAFETY: C contract.
        unsafe { out(what, status, v) }
    })
}

pub(crate) unsafe fn query_event_status(
    e: aclrtEvent,
    status: *mut aclrtEventRecordedStatus,
) -> aclError {
    let what = "aclrtQueryEventStatus";
    run(what, |p| {
        let e = event(what, e)?;
        not_null(what, "status", status)?;
        let done = match p.event_status(e)? {
            RecordStatus::NeverRecorded => p.event_config(e)?.unrecorded_query == Status::Complete,
            RecordStatus::NotReady => false,
            RecordStatus::Complete => true,
        };
        let v = if done {
            ACL_EVENT_RECORDED_STATUS_COMPLETE
        } else {
            ACL_EVENT_RECORDED_STATUS_NOT_READY
        };
        // SAFETY: C contract.
        unsafe { out(what, status, v) }
    })
}

pub(crate) fn synchronize_event(e: aclrtEvent, timeout: i32) -> aclError {
    let what = "aclrtSynchronizeEvent";
    run(what, |p| {
        let e = event(what, e)?;
        match timeout_arg(timeout)? {
            None => p.event_synchronize(e),
            Some(t) => p.event_synchronize_timeout(e, t),
        }
    })
}

pub(crate) unsafe fn event_elapsed_time(
    ms: *mut f32,
    start: aclrtEvent,
    end: aclrtEvent,
) -> aclError {
    let what = "aclrtEventElapsedTime";
    run(what, |p| {
        not_null(what, "ms", ms)?;
        let v = p.event_elapsed_ms(event(what, start)?, event(what, end)?)?;
        // SAFETY: C contract.
        unsafe { out(what, ms, v) }
    })
}

pub(crate) unsafe fn event_get_timestamp(e: aclrtEvent, us: *mut u64) -> aclError {
    let what = "aclrtEventGetTimestamp";
    run(what, |p| {
        let e = event(what, e)?;
        not_null(what, "timestamp", us)?;
        let t = p.event_timestamp(e)?;
        // SAFETY: C contract.
        unsafe { out(what, us, t.as_nanos() / 1_000) }
    })
}

pub(crate) unsafe fn ipc_get_event_handle(
    e: aclrtEvent,
    handle: *mut aclrtIpcEventHandle,
) -> aclError {
    let what = "aclrtIpcGetEventHandle";
    run(what, |p| {
        let e = event(what, e)?;
        not_null(what, "handle", handle)?;
        let h = p.ipc_get_event_handle(e)?;
        let reserved = h.0.map(|b| b as c_char);
        // SAFETY: C contract.
        unsafe { out(what, handle, aclrtIpcEventHandle { reserved }) }
    })
}

pub(crate) unsafe fn ipc_open_event_handle(
    handle: aclrtIpcEventHandle,
    e: *mut aclrtEvent,
) -> aclError {
    let what = "aclrtIpcOpenEventHandle";
    run(what, |p| {
        not_null(what, "event", e)?;
        let opened = p.ipc_open_event_handle(&IpcEventHandle(
            handle.reserved.map(|b| u8::from_ne_bytes(b.to_ne_bytes())),
        ))?;
        // SAFETY: C contract.
        unsafe { out(what, e, handle_ptr(opened.to_raw())) }
    })
}

// ---------------------------------------------------------------------------------------------- memory

/// The policy values (low byte) and the bits that may be combined with them.
const POLICY_BITS: u32 =
    ACL_MEM_TYPE_LOW_BAND_WIDTH | ACL_MEM_TYPE_HIGH_BAND_WIDTH | ACL_MEM_ACCESS_USER_SPACE_READONLY;

pub(crate) unsafe fn malloc(
    ptr: *mut *mut c_void,
    size: usize,
    policy: aclrtMemMallocPolicy,
) -> aclError {
    let what = "aclrtMalloc";
    run(what, |p| {
        not_null(what, "devPtr", ptr)?;
        if policy & !POLICY_BITS > ACL_MEM_MALLOC_HUGE1G_ONLY_P2P {
            return Err(invalid(what, format!("unknown policy {policy:#x}")));
        }
        let d = p.malloc(size as u64)?;
        // SAFETY: C contract.
        unsafe { out(what, ptr, d.addr() as usize as *mut c_void) }
    })
}

pub(crate) fn free(ptr: *mut c_void) -> aclError {
    let what = "aclrtFree";
    run(what, |p| {
        not_null(what, "devPtr", ptr)?;
        p.free(DevicePtr(ptr as usize as u64))
    })
}

pub(crate) unsafe fn malloc_host(ptr: *mut *mut c_void, size: usize) -> aclError {
    let what = "aclrtMallocHost";
    run(what, |p| {
        not_null(what, "hostPtr", ptr)?;
        if size == 0 {
            return Err(invalid(what, "size 0"));
        }
        let h = p.malloc_host(size as u64)?;
        // SAFETY: C contract.
        unsafe { out(what, ptr, h.as_mut_ptr().cast()) }
    })
}

pub(crate) fn free_host(ptr: *mut c_void) -> aclError {
    let what = "aclrtFreeHost";
    run(what, |p| {
        not_null(what, "hostPtr", ptr)?;
        p.free_host(HostPtr(ptr as usize as u64))
    })
}

/// The CUDA-family kind with the same meaning (the endpoint classification is shared).
fn copy_kind(kind: aclrtMemcpyKind) -> Option<u32> {
    Some(match kind {
        ACL_MEMCPY_HOST_TO_HOST => rt::MEMCPY_HOST_TO_HOST,
        ACL_MEMCPY_HOST_TO_DEVICE | ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE => rt::MEMCPY_HOST_TO_DEVICE,
        ACL_MEMCPY_DEVICE_TO_HOST => rt::MEMCPY_DEVICE_TO_HOST,
        ACL_MEMCPY_DEVICE_TO_DEVICE
        | ACL_MEMCPY_INNER_DEVICE_TO_DEVICE
        | ACL_MEMCPY_INTER_DEVICE_TO_DEVICE => rt::MEMCPY_DEVICE_TO_DEVICE,
        ACL_MEMCPY_DEFAULT => rt::MEMCPY_DEFAULT,
        _ => return None,
    })
}

/// A copy; `stream: None` is the synchronous call.
pub(crate) unsafe fn memcpy(
    dst: *mut c_void,
    dest_max: usize,
    src: *const c_void,
    count: usize,
    kind: aclrtMemcpyKind,
    s: Option<aclrtStream>,
) -> aclError {
    let what = if s.is_some() {
        "aclrtMemcpyAsync"
    } else {
        "aclrtMemcpy"
    };
    run(what, |p| {
        if count == 0 {
            return Ok(());
        }
        not_null(what, "dst", dst)?;
        not_null(what, "src", src)?;
        let Some(k) = copy_kind(kind) else {
            return Err(invalid(what, format!("unknown copy kind {kind}")));
        };
        if count > dest_max {
            return Err(SimError::OutOfRange {
                what,
                addr: dst as usize as u64,
                bytes: count as u64,
                base: dst as usize as u64,
                len: dest_max as u64,
            });
        }
        // SAFETY: the C caller's host pointers are valid for `count` bytes (and count <= destMax).
        let (d, sr) = match unsafe { rt::endpoints(p, WHAT_COPY_KIND, dst, src, count, Some(k)) } {
            Ok(x) => x,
            Err(e) => return Err(e),
        };
        match s {
            None => p.memcpy(d, sr, count as u64),
            Some(s) => p.memcpy_async(d, sr, count as u64, stream(s)),
        }
    })
}

pub(crate) fn memset(
    ptr: *mut c_void,
    max_count: usize,
    value: i32,
    count: usize,
    s: Option<aclrtStream>,
) -> aclError {
    let what = if s.is_some() {
        "aclrtMemsetAsync"
    } else {
        "aclrtMemset"
    };
    run(what, |p| {
        not_null(what, "devPtr", ptr)?;
        if count > max_count {
            return Err(SimError::OutOfRange {
                what,
                addr: ptr as usize as u64,
                bytes: count as u64,
                base: ptr as usize as u64,
                len: max_count as u64,
            });
        }
        // Device memory, or host memory from aclrtMallocHost ("host memory from the ACL APIs"; the vendor's
        // own device_P2P sample memsets aclrtMallocHost memory): reference/acl.md · Memset / MemsetAsync.
        let addr = ptr as usize as u64;
        let (value, count) = (value as u8, count as u64);
        match (p.machine().address_space(addr), s) {
            (AddressSpace::PinnedHost, None) => p.memset_host(HostPtr(addr), value, count),
            (AddressSpace::PinnedHost, Some(s)) => {
                p.memset_host_async(HostPtr(addr), value, count, stream(s))
            }
            (AddressSpace::PageableHost, _) => Err(SimError::InvalidAddress {
                what,
                addr,
                space: AddressSpace::PageableHost,
                problem: "neither device memory nor host memory from aclrtMallocHost",
            }),
            (AddressSpace::Device(_), None) => p.memset(DevicePtr(addr), value, count),
            (AddressSpace::Device(_), Some(s)) => {
                p.memset_async(DevicePtr(addr), value, count, stream(s))
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `pub const NAME: aclError = VALUE;` of src/acl.rs has its name in [`CODE_NAMES`].
    #[test]
    fn every_code_constant_has_its_name() {
        let source = include_str!("types.rs");
        let mut seen = 0;
        for line in source.lines() {
            let Some(rest) = line.strip_prefix("pub const ") else {
                continue;
            };
            let Some((name, _)) = rest.split_once(": aclError") else {
                continue;
            };
            seen += 1;
            let value = CODE_NAMES.iter().find(|(_, n)| *n == name);
            assert!(value.is_some(), "{name} is missing from CODE_NAMES");
            assert_eq!(code_name(value.unwrap().0), Some(name));
        }
        assert_eq!(seen, CODE_NAMES.len(), "CODE_NAMES lists only constants");
    }
}
