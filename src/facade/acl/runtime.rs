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
    reason = "the vendor functions' contracts are the vendor's; see crate::facade::acl"
)]

use std::cell::RefCell;
use std::ffi::{CString, c_char, c_void};
use std::time::Duration;

use super::types::*;
use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{
    CaptureProblem, InitProblem, IpcProblem, PeerProblem, PoolProblem, SimError,
    SubscriptionProblem,
};
use crate::engine::core::handle::{Context, Event};
use crate::engine::core::status::Status;
use crate::engine::machine::Attribute;
use crate::engine::process::{Process, StreamFlags};
use crate::facade::binding::{self, Api, NoProcess, contain, handle_ptr, invalid, out, stream};
use crate::facade::cuda_runtime::{self as rt, streamsimAccess};

pub(crate) use super::event_runtime::*;
pub(crate) use super::memory_runtime::*;

/// `what` of the runtime layer's argument checks (107000, not 100000).
pub(super) const WHAT_COPY_KIND: &str = "aclrtMemcpy kind";
const WHAT_TIMEOUT: &str = "timeout";
/// `what` of the other arguments the runtime layer checks (107000): a stream attribute, a value-write flag or
/// address, a notify flag, a memory attribute.
pub(super) const WHAT_RT: &str = "runtime argument";
/// `what` of `aclrtCreateEventExWithFlag(ACL_EVENT_IPC | other)` (the runtime's `RT_ERROR_INVALID_VALUE`,
/// 107000, not the ACL layer's 100000).
pub(super) const WHAT_IPC_ALONE: &str = "aclrtCreateEventExWithFlag (ACL_EVENT_IPC)";

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
        SimError::WrongContext { what, .. }
            if EngineCall::of(what) == Some(EngineCall::LaunchGraph) =>
        {
            ACL_ERROR_RT_MODEL_CONTEXT
        }
        SimError::InvalidHandle { .. } => ACL_ERROR_RT_INVALID_HANDLE,
        SimError::InvalidDevice { .. } => ACL_ERROR_RT_INVALID_DEVICEID,
        SimError::WrongDevice { .. } | SimError::WrongContext { .. } => ACL_ERROR_RT_STREAM_CONTEXT,
        SimError::InvalidFlags { what, .. }
            if EngineCall::of(what) == Some(EngineCall::EnablePeerAccess) =>
        {
            ACL_ERROR_FEATURE_UNSUPPORTED
        }
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
        SimError::EventNotRecorded { what, .. }
            if EngineCall::of(what) == Some(EngineCall::StreamWaitEvent) =>
        {
            ACL_ERROR_RT_PARAM_INVALID
        }
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
        // aclrtMemcpy2d's argument checks (spitch and dpitch no smaller than width) answer 100000.
        SimError::InvalidPitch { .. } => ACL_ERROR_INVALID_PARAM,
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
        // docs/semantics/fork.md: AscendCL is not initialised in a forked child.
        SimError::ForkedChild { .. } => ACL_ERROR_UNINITIALIZE,
        SimError::Broken { .. } => ACL_ERROR_RT_INTERNAL_ERROR,
        SimError::Timeout { what, .. }
            if EngineCall::of(what) == Some(EngineCall::EventSynchronize) =>
        {
            ACL_ERROR_RT_EVENT_SYNC_TIMEOUT
        }
        // aclrtProcessReport: the runtime's report wait ran out (`RT_ERROR_REPORT_TIMEOUT`).
        SimError::Timeout { what, .. }
            if EngineCall::of(what) == Some(EngineCall::ProcessReport) =>
        {
            ACL_ERROR_RT_REPORT_TIMEOUT
        }
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
        | SimError::InvalidKernel { .. }
        | SimError::InvalidConfiguration { .. }
        | SimError::CooperativeLaunchTooLarge { .. } => ACL_ERROR_RT_PARAM_INVALID,
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
        // No ACL call updates a model runtime instance from a graph (docs/semantics/graph-building.md).
        SimError::GraphExecUpdate { .. } => ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
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
pub(crate) fn run_launch(
    what: &'static str,
    f: impl FnOnce(&Process) -> Result<(), SimError>,
) -> aclError {
    contain(ACL_ERROR_RT_INTERNAL_ERROR, || {
        if crate::engine::exec::workers::on_worker_thread() {
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
        note_last_error(match r {
            Ok(Ok(())) => ACL_SUCCESS,
            Ok(Err(c)) => c,
            Err(NoProcess::Config(_)) => ACL_ERROR_UNINITIALIZE,
            Err(NoProcess::WrongDialect(_)) => ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
        })
    })
}

pub(super) fn run(
    what: &'static str,
    f: impl FnOnce(&Process) -> Result<(), SimError>,
) -> aclError {
    contain(ACL_ERROR_RT_INTERNAL_ERROR, || {
        if crate::engine::exec::workers::on_worker_thread() {
            return code(&SimError::NotPermitted { what });
        }
        note_last_error(match binding::process(Api::Acl) {
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
        })
    })
}

thread_local! {
    /// The code of the calling thread's last failed runtime call, for `aclrtGetLastError` /
    /// `aclrtPeekAtLastError` (`ACL_RT_THREAD_LEVEL`).
    static LAST_RT_ERROR: std::cell::Cell<aclError> = const { std::cell::Cell::new(ACL_SUCCESS) };
}

/// Whether `c` is a runtime code (`ACL_ERROR_RT_*` and the capture codes of `rt_error_codes.h`: 107xxx, 207xxx,
/// 507xxx), the ones the runtime keeps as the thread's last error (its `GetRtExtErrCodeAndSetGlobalErr`); the
/// ACL layer's own argument checks (100000, …) return before the runtime and keep nothing.
fn is_runtime_code(c: aclError) -> bool {
    matches!(c / 1000, 107 | 207 | 507)
}

/// Keeps `c` as the thread's last error if it is a runtime code; returns it.
fn note_last_error(c: aclError) -> aclError {
    if is_runtime_code(c) {
        // After the thread's locals are destroyed there is no later read to keep it for.
        let _ = LAST_RT_ERROR.try_with(|l| l.set(c));
    }
    c
}

/// `aclrtGetLastError` (`clear`) / `aclrtPeekAtLastError`: the thread's last runtime error, [`ACL_SUCCESS`] if
/// none (since the last clearing read). A level other than [`ACL_RT_THREAD_LEVEL`] is
/// [`ACL_ERROR_INVALID_PARAM`] (the ACL layer's `ACL_REQUIRES_PARAM_EQUAL_REPORT`).
pub(crate) fn last_error(level: aclrtLastErrLevel, clear: bool) -> aclError {
    let what = if clear {
        "aclrtGetLastError"
    } else {
        "aclrtPeekAtLastError"
    };
    if level != ACL_RT_THREAD_LEVEL {
        return run(what, |_| {
            Err(invalid(
                what,
                format!("level {level} (only ACL_RT_THREAD_LEVEL 0 is defined)"),
            ))
        });
    }
    contain(ACL_ERROR_RT_INTERNAL_ERROR, || {
        LAST_RT_ERROR
            .try_with(|l| {
                if clear {
                    l.replace(ACL_SUCCESS)
                } else {
                    l.get()
                }
            })
            .unwrap_or(ACL_SUCCESS)
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
            let label = unsafe { crate::facade::c_names::kernel_name(name) };
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
    body: crate::facade::kernel_ctx::streamsimKernelCtxBody,
    arg: *mut c_void,
    accesses: *const streamsimAccess,
    count: usize,
) -> aclError {
    run_launch("aclsimLaunchKernelCtx", |p| {
        // SAFETY: forwarded C contract.
        let k = unsafe {
            crate::facade::kernel_ctx::ctx_kernel(name, duration_ns, body, arg, accesses, count)
        }?;
        p.launch(stream(s), k)
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
