//! The CUDA-family runtime (CUDA and MUSA: one implementation, two name sets). Every function takes the
//! facade it was called through, translates C arguments, calls the core, and maps the result with
//! [`code`], the one place where a [`SimError`] becomes a `cudaError_t`.

#![allow(
    clippy::missing_safety_doc,
    reason = "the vendor functions' contracts are the vendor's"
)]

use std::ffi::{CStr, c_char, c_int, c_uint, c_void};
use std::time::Duration;

use super::binding::{Api, NoProcess, contain, handle_ptr, invalid, out, put, stream};
use crate::engine::core::error::{
    CaptureProblem, FaultKind, HandleProblem, HostMemoryProblem, IpcProblem, ObjectKind,
    PeerProblem, PoolProblem, SimError,
};
use crate::engine::core::handle::Event;
use crate::engine::core::pointers::DevicePtr;
use crate::engine::core::status::Status;
use crate::engine::events::config::EventFlags;
use crate::engine::kernels::kernel::Kernel;
use crate::engine::process::{Process, StreamFlags};

pub(crate) use super::cuda_graph::*;
pub(crate) use super::cuda_graph_build::*;
pub(crate) use super::cuda_graph_child::*;
pub(crate) use super::cuda_graph_mem::*;
pub(crate) use super::cuda_ipc::*;
pub(crate) use super::cuda_managed::*;
pub(crate) use super::cuda_memory::*;
pub(crate) use super::cuda_pitched::*;
pub(crate) use super::cuda_pool::*;
pub(crate) use super::{
    cuda_device::*,
    cuda_device_prop::{DeviceProp, Uuid},
    cuda_host_memory::*,
    cuda_stream_info::*,
};

/// `cudaError_t` / `musaError_t`.
pub type Error = u32;

/// The CUDA-family error codes the simulator produces: (CUDA name, MUSA name, short name) = value,
/// description. `cuda_family.rs` turns each into a constant of both facades.
macro_rules! with_error_codes {
    ($($callback:tt)*) => {
        $($callback)*! {
            (cudaSuccess, musaSuccess, Success) = 0, "no error";
            (cudaErrorInvalidValue, musaErrorInvalidValue, InvalidValue) = 1, "invalid argument";
            (cudaErrorMemoryAllocation, musaErrorMemoryAllocation, MemoryAllocation) = 2, "out of memory";
            (cudaErrorInitializationError, musaErrorInitializationError, InitializationError) = 3,
                "initialization error";
            (cudaErrorInvalidConfiguration, musaErrorInvalidConfiguration, InvalidConfiguration) = 9,
                "invalid configuration argument";
            (cudaErrorInvalidPitchValue, musaErrorInvalidPitchValue, InvalidPitchValue) = 12,
                "invalid pitch argument";
            (cudaErrorInvalidSymbol, musaErrorInvalidSymbol, InvalidSymbol) = 13, "invalid device symbol";
            (cudaErrorInvalidMemcpyDirection, musaErrorInvalidMemcpyDirection, InvalidMemcpyDirection) = 21,
                "invalid copy direction for memcpy";
            (cudaErrorInvalidDeviceFunction, musaErrorInvalidDeviceFunction, InvalidDeviceFunction) = 98,
                "invalid device function";
            (cudaErrorNoDevice, musaErrorNoDevice, NoDevice) = 100, "no CUDA-capable device is detected";
            (cudaErrorInvalidDevice, musaErrorInvalidDevice, InvalidDevice) = 101, "invalid device ordinal";
            (cudaErrorDeviceUninitialized, musaErrorDeviceUninitialized, DeviceUninitialized) = 201,
                "invalid device context";
            (cudaErrorMapBufferObjectFailed, musaErrorMapBufferObjectFailed, MapBufferObjectFailed) = 205,
                "mapping of buffer object failed";
            (cudaErrorUnsupportedLimit, musaErrorUnsupportedLimit, UnsupportedLimit) = 215,
                "limit is not supported on this architecture";
            (cudaErrorInvalidResourceHandle, musaErrorInvalidResourceHandle, InvalidResourceHandle) = 400,
                "invalid resource handle";
            (cudaErrorIllegalState, musaErrorIllegalState, IllegalState) = 401,
                "the operation cannot be performed in the present state";
            (cudaErrorNotReady, musaErrorNotReady, NotReady) = 600, "device not ready";
            (cudaErrorIllegalAddress, musaErrorIllegalAddress, IllegalAddress) = 700,
                "an illegal memory access was encountered";
            (cudaErrorPeerAccessAlreadyEnabled, musaErrorPeerAccessAlreadyEnabled, PeerAccessAlreadyEnabled)
                = 704, "peer access is already enabled";
            (cudaErrorPeerAccessNotEnabled, musaErrorPeerAccessNotEnabled, PeerAccessNotEnabled) = 705,
                "peer access has not been enabled";
            (cudaErrorContextIsDestroyed, musaErrorContextIsDestroyed, ContextIsDestroyed) = 709,
                "context is destroyed";
            (cudaErrorAssert, musaErrorAssert, Assert) = 710, "device-side assert triggered";
            (cudaErrorMisalignedAddress, musaErrorMisalignedAddress, MisalignedAddress) = 716,
                "misaligned address";
            (cudaErrorTooManyPeers, musaErrorTooManyPeers, TooManyPeers) = 711,
                "peer mapping resources exhausted";
            (cudaErrorHostMemoryAlreadyRegistered, musaErrorHostMemoryAlreadyRegistered, HostMemoryAlreadyRegistered)
                = 712, "part or all of the requested memory range is already mapped";
            (cudaErrorHostMemoryNotRegistered, musaErrorHostMemoryNotRegistered, HostMemoryNotRegistered) = 713,
                "pointer does not correspond to a registered memory region";
            (cudaErrorLaunchFailure, musaErrorLaunchFailure, LaunchFailure) = 719, "unspecified launch failure";
            (cudaErrorCooperativeLaunchTooLarge, musaErrorCooperativeLaunchTooLarge, CooperativeLaunchTooLarge)
                = 720, "too many blocks in cooperative launch";
            (cudaErrorNotPermitted, musaErrorNotPermitted, NotPermitted) = 800, "operation not permitted";
            (cudaErrorNotSupported, musaErrorNotSupported, NotSupported) = 801, "operation not supported";
            (cudaErrorStreamCaptureUnsupported, musaErrorStreamCaptureUnsupported, StreamCaptureUnsupported) = 900,
                "operation not permitted when stream is capturing";
            (cudaErrorStreamCaptureInvalidated, musaErrorStreamCaptureInvalidated, StreamCaptureInvalidated) = 901,
                "operation failed due to a previous error during capture";
            (cudaErrorStreamCaptureMerge, musaErrorStreamCaptureMerge, StreamCaptureMerge) = 902,
                "operation would result in a merge of separate capture sequences";
            (cudaErrorStreamCaptureUnmatched, musaErrorStreamCaptureUnmatched, StreamCaptureUnmatched) = 903,
                "capture was not ended in the same stream as it began";
            (cudaErrorStreamCaptureUnjoined, musaErrorStreamCaptureUnjoined, StreamCaptureUnjoined) = 904,
                "capturing stream has unjoined work";
            (cudaErrorStreamCaptureIsolation, musaErrorStreamCaptureIsolation, StreamCaptureIsolation) = 905,
                "dependency created on uncaptured work in another stream";
            (cudaErrorStreamCaptureImplicit, musaErrorStreamCaptureImplicit, StreamCaptureImplicit) = 906,
                "operation would make the legacy stream depend on a capturing blocking stream";
            (cudaErrorCapturedEvent, musaErrorCapturedEvent, CapturedEvent) = 907,
                "operation not permitted on an event last recorded in a capturing stream";
            (cudaErrorStreamCaptureWrongThread, musaErrorStreamCaptureWrongThread, StreamCaptureWrongThread) = 908,
                "attempt to terminate a thread-local capture sequence from another thread";
            (cudaErrorTimeout, musaErrorTimeout, Timeout) = 909, "the wait operation has timed out";
            (cudaErrorGraphExecUpdateFailure, musaErrorGraphExecUpdateFailure, GraphExecUpdateFailure) = 910,
                "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update";
            (cudaErrorUnknown, musaErrorUnknown, Unknown) = 999, "unknown error";
        }
    };
}
pub(crate) use with_error_codes;

macro_rules! short_codes {
    ($(($c:ident, $m:ident, $name:ident) = $value:literal, $desc:literal;)*) => {
        /// The codes by short name, and the table of (value, short name, description).
        #[allow(dead_code, reason = "the vendor's full table; not every code is produced")]
        #[allow(non_upper_case_globals, reason = "the vendor's enumerator names, without the prefix")]
        pub(crate) mod codes {
            $(pub const $name: super::Error = $value;)*
            /// (value, CUDA name, MUSA name, description)
            pub const TABLE: &[(super::Error, &str, &str, &str)] =
                &[$(($value, stringify!($c), stringify!($m), $desc)),*];
        }
    };
}
with_error_codes!(short_codes);

use codes::*;

/// The vendor's code for a simulator error: the one mapping of the CUDA-family facades.
pub(crate) fn code(e: &SimError) -> Error {
    match e {
        // The graph calls answer cudaErrorInvalidValue for a bad graph, executable graph or node handle (the
        // Runtime API's Graph Management returns; hip-tests hipGraphLaunch.cc: a destroyed exec).
        SimError::InvalidHandle {
            kind: ObjectKind::Graph | ObjectKind::GraphExec | ObjectKind::GraphNode,
            ..
        } => InvalidValue,
        SimError::Capture { what, problem, .. } => capture_code(what, *problem),
        SimError::InvalidHandle {
            problem: HandleProblem::NotAllowed,
            ..
        } => InvalidResourceHandle,
        SimError::InvalidHandle { .. } => InvalidResourceHandle,
        SimError::InvalidDevice { .. } => InvalidDevice,
        SimError::WrongDevice { .. } | SimError::WrongContext { .. } => InvalidResourceHandle,
        SimError::InvalidFlags { .. } | SimError::InvalidValue { .. } => InvalidValue,
        SimError::EventNotRecorded { .. } | SimError::TimingDisabled { .. } => {
            InvalidResourceHandle
        }
        SimError::NotReady { .. } => NotReady,
        SimError::NotPermitted { .. } => NotPermitted,
        SimError::NotSupported { .. } => NotSupported,
        // Running out of streams or events is running out of a resource the runtime allocates.
        SimError::OutOfMemory { .. }
        | SimError::HostOutOfMemory { .. }
        | SimError::TooManyObjects { .. } => MemoryAllocation,
        SimError::NoDevice { .. } => NoDevice,
        SimError::InvalidCopyKind { .. } => InvalidMemcpyDirection,
        SimError::InvalidPitch { .. } => InvalidPitchValue,
        // docs/semantics/cuda-musa.md, DeviceReset: later use of its memory is 400 (sim).
        SimError::InvalidAddress {
            problem: crate::engine::memory::FREED_BY_RESET,
            ..
        } => InvalidResourceHandle,
        SimError::InvalidAddress { .. } | SimError::OutOfRange { .. } => InvalidValue,
        SimError::KernelFault {
            kind: FaultKind::IllegalAddress,
            ..
        } => IllegalAddress,
        SimError::KernelFault {
            kind: FaultKind::Assert,
            ..
        } => Assert,
        SimError::KernelFault {
            kind: FaultKind::MisalignedAddress,
            ..
        } => MisalignedAddress,
        SimError::KernelFault { .. } => LaunchFailure,
        SimError::NoContext { .. } | SimError::DefaultContext { .. } => DeviceUninitialized,
        SimError::DeviceNotSet { .. } => InvalidDevice,
        SimError::PeerAccess { problem, .. } => match problem {
            PeerProblem::SameDevice | PeerProblem::NoLink => InvalidDevice,
            PeerProblem::AlreadyEnabled => PeerAccessAlreadyEnabled,
            PeerProblem::NotEnabled => PeerAccessNotEnabled,
        },
        SimError::PeerAccessRequired { .. } => PeerAccessNotEnabled,
        SimError::Ipc { problem, .. } => match problem {
            IpcProblem::NotInterprocess => InvalidResourceHandle,
            IpcProblem::SameProcess => DeviceUninitialized,
            IpcProblem::InvalidHandle
            | IpcProblem::ForeignUnshared
            | IpcProblem::StaleHandle
            | IpcProblem::OtherHost => InvalidValue,
            IpcProblem::ExportGone => MapBufferObjectFailed,
            IpcProblem::NotAllowed => NotPermitted,
        },
        SimError::HostMismatch { .. } => InvalidDevice,
        SimError::HostUnavailable { .. } => MapBufferObjectFailed,
        // docs/semantics/fork.md: the runtime cannot be used in a forked child (error 3, "initialization error").
        SimError::ForkedChild { .. } => InitializationError,
        SimError::Broken { .. } => Unknown,
        SimError::Timeout { .. } | SimError::WaitTimedOut { .. } => Timeout,
        // No CUDA call subscribes threads to stream callbacks (the engine API can).
        SimError::Subscription { .. } => NotSupported,
        SimError::WouldDeadlock { .. } | SimError::Init { .. } | SimError::Race(_) => Unknown,
        SimError::HostMemory { problem, .. } => match problem {
            HostMemoryProblem::AlreadyRegistered => HostMemoryAlreadyRegistered,
            HostMemoryProblem::NotRegistered => HostMemoryNotRegistered,
        },
        SimError::UnsupportedLimit { .. } => UnsupportedLimit,
        SimError::InvalidKernel { .. } => InvalidDeviceFunction,
        SimError::InvalidConfiguration { .. } => InvalidConfiguration,
        SimError::CooperativeLaunchTooLarge { .. } => CooperativeLaunchTooLarge,
        // docs/semantics/stream-ordered-memory.md: pool calls answer cudaErrorInvalidValue for bad pools and
        // attributes (the Runtime API lists only cudaSuccess and cudaErrorInvalidValue for them), out of memory
        // when the pool cannot grow.
        SimError::MemPool { problem, .. } => match problem {
            PoolProblem::Exhausted { .. } => MemoryAllocation,
            PoolProblem::NoDefaultPool => NotSupported,
            PoolProblem::NullStream => InvalidResourceHandle,
            // The driver answers the owning device's change with CUDA_ERROR_INVALID_DEVICE
            // (docs/semantics/stream-ordered-memory.md · Access from other devices).
            PoolProblem::OwnDeviceAccess { .. } | PoolProblem::NoPeerLink { .. } => InvalidDevice,
            PoolProblem::AccessFlags(_) => NotSupported,
            _ => InvalidValue,
        },
        // docs/semantics/graph-building.md: "It returns cudaErrorGraphExecUpdateFailure if the graph update was
        // not performed" (cudaGraphExecUpdate).
        SimError::GraphExecUpdate { .. } => GraphExecUpdateFailure,
    }
}

/// CUDA's code for a broken capture rule (`docs/semantics/capture-and-graphs.md`).
fn capture_code(what: &str, problem: CaptureProblem) -> Error {
    match problem {
        CaptureProblem::Unsupported | CaptureProblem::Prohibited => StreamCaptureUnsupported,
        CaptureProblem::StreamCannotCapture => StreamCaptureUnsupported,
        CaptureProblem::Invalidated => StreamCaptureInvalidated,
        CaptureProblem::Merge => StreamCaptureMerge,
        CaptureProblem::Unmatched => StreamCaptureUnmatched,
        CaptureProblem::Unjoined => StreamCaptureUnjoined,
        CaptureProblem::Isolation => StreamCaptureIsolation,
        CaptureProblem::Implicit => StreamCaptureImplicit,
        CaptureProblem::CapturedEvent => CapturedEvent,
        CaptureProblem::WrongThread => StreamCaptureWrongThread,
        // The External record and wait flags outside a capture: "invalid when used outside of capture".
        CaptureProblem::NotCapturing if what.ends_with("_external") => InvalidValue,
        CaptureProblem::NotCapturing | CaptureProblem::AlreadyCapturing => IllegalState,
        CaptureProblem::PageableCopy | CaptureProblem::DestroyCapturing => InvalidValue,
    }
}

/// Runs a facade body against the facade's process: panics become `Unknown`, a missing process becomes
/// `NoDevice` (bad environment) or `NotSupported` (bound to a machine of another dialect), and an error from
/// the body is mapped and stored as the thread's last error.
pub(crate) fn run(api: Api, f: impl FnOnce(&Process) -> Result<(), SimError>) -> Error {
    contain(Unknown, || {
        // A runtime call from inside a host function or kernel body is refused before anything else (it must
        // not reach a default machine either).
        if crate::engine::exec::workers::on_worker_thread() {
            return NotPermitted;
        }
        match super::binding::process(api) {
            Ok(p) => match f(&p) {
                Ok(()) => Success,
                Err(e) => {
                    let c = code(&e);
                    p.set_last_error(e);
                    c
                }
            },
            Err(NoProcess::Config(_)) => NoDevice,
            Err(NoProcess::WrongDialect(_)) => NotSupported,
        }
    })
}

/// [`run`] for a kernel launch: the process is lent for the call rather than cloned (see
/// `binding::with_process`; a launch runs nothing of the program on the calling thread).
pub(crate) fn run_launch(api: Api, f: impl FnOnce(&Process) -> Result<(), SimError>) -> Error {
    contain(Unknown, || {
        if crate::engine::exec::workers::on_worker_thread() {
            return NotPermitted;
        }
        let r = super::binding::with_process(api, |p| {
            f(p).map_err(|e| {
                let c = code(&e);
                p.set_last_error(e);
                c
            })
        });
        match r {
            Ok(Ok(())) => Success,
            Ok(Err(c)) => c,
            Err(NoProcess::Config(_)) => NoDevice,
            Err(NoProcess::WrongDialect(_)) => NotSupported,
        }
    })
}

pub(crate) fn event(e: *mut c_void) -> Event {
    Event::from_raw(e as usize as u64)
}

fn device_arg(d: c_int) -> i64 {
    d as i64
}

/// A raw pointer that a closure run on a worker may carry (the C caller vouches for it).
struct SendPtr(*mut c_void);
// SAFETY: the pointer is only handed back to the C callback that was given it, as the vendors do.
unsafe impl Send for SendPtr {}
// SAFETY: as above; a graph may hand it to the callback at each launch, from the graph's lanes.
unsafe impl Sync for SendPtr {}

impl SendPtr {
    /// The pointer (a method, so that a closure captures the whole `SendPtr`, not its field).
    fn get(&self) -> *mut c_void {
        self.0
    }
}

// ---------------------------------------------------------------------------------------------- devices

pub(crate) unsafe fn get_device_count(api: Api, count: *mut c_int) -> Error {
    run(api, |p| {
        let n = p.device_count()?;
        // SAFETY: C contract.
        unsafe { out("GetDeviceCount", count, n as c_int) }?;
        if n == 0 {
            return Err(SimError::NoDevice {
                what: "GetDeviceCount",
            });
        }
        Ok(())
    })
}

pub(crate) fn set_device(api: Api, device: c_int) -> Error {
    run(api, |p| p.set_device(device_arg(device)))
}

pub(crate) unsafe fn get_device(api: Api, device: *mut c_int) -> Error {
    run(api, |p| {
        let d = p.get_device()?;
        // SAFETY: C contract.
        unsafe { out("GetDevice", device, d as c_int) }
    })
}

pub(crate) fn device_synchronize(api: Api) -> Error {
    run(api, |p| p.device_synchronize())
}

pub(crate) fn device_reset(api: Api) -> Error {
    run(api, |p| {
        let d = p.get_device()?;
        p.reset_device(d as i64)
    })
}

pub(crate) unsafe fn device_can_access_peer(
    api: Api,
    can: *mut c_int,
    device: c_int,
    peer: c_int,
) -> Error {
    run(api, |p| {
        if can.is_null() {
            return Err(invalid("DeviceCanAccessPeer", "NULL output pointer"));
        }
        let yes = p.can_access_peer(device_arg(device), device_arg(peer))?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out("DeviceCanAccessPeer", can, c_int::from(yes)) }
    })
}

pub(crate) fn device_enable_peer_access(api: Api, peer: c_int, flags: c_uint) -> Error {
    run(api, |p| p.enable_peer_access(device_arg(peer), flags))
}

pub(crate) fn device_disable_peer_access(api: Api, peer: c_int) -> Error {
    run(api, |p| p.disable_peer_access(device_arg(peer)))
}

pub(crate) unsafe fn device_get_stream_priority_range(
    api: Api,
    least: *mut c_int,
    greatest: *mut c_int,
) -> Error {
    run(api, |p| {
        let (l, g) = p.device_priority_range()?;
        // SAFETY: either pointer may be NULL (then it is skipped), as the vendor allows.
        unsafe {
            put(least, l);
            put(greatest, g);
        }
        Ok(())
    })
}

/// `cudaDevAttrWarpSize`.
pub const DEV_ATTR_WARP_SIZE: c_int = 10;
/// `cudaDevAttrMultiProcessorCount`.
pub const DEV_ATTR_MULTIPROCESSOR_COUNT: c_int = 16;

// ---------------------------------------------------------------------------------------------- streams

pub(crate) unsafe fn stream_create(
    api: Api,
    s: *mut *mut c_void,
    flags: c_uint,
    priority: Option<c_int>,
) -> Error {
    run(api, |p| {
        if s.is_null() {
            return Err(invalid("StreamCreate", "NULL output pointer"));
        }
        let h = p.create_stream_with_priority(StreamFlags(flags), priority.unwrap_or(0))?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out("StreamCreate", s, handle_ptr(h.to_raw())) }
    })
}

pub(crate) fn stream_destroy(api: Api, s: *mut c_void) -> Error {
    run(api, |p| p.destroy_stream(stream(s)))
}

pub(crate) fn stream_synchronize(api: Api, s: *mut c_void) -> Error {
    run(api, |p| p.stream_synchronize(stream(s)))
}

pub(crate) fn stream_query(api: Api, s: *mut c_void) -> Error {
    run(api, |p| match p.stream_query(stream(s))? {
        Status::Complete => Ok(()),
        Status::NotReady => Err(SimError::NotReady {
            what: "StreamQuery",
        }),
    })
}

pub(crate) fn stream_wait_event(api: Api, s: *mut c_void, e: *mut c_void, flags: c_uint) -> Error {
    run(api, |p| {
        if flags != 0 {
            return Err(invalid("StreamWaitEvent", "flags must be 0"));
        }
        p.stream_wait_event(stream(s), event(e))
    })
}

pub(crate) unsafe fn stream_get_flags(api: Api, s: *mut c_void, flags: *mut c_uint) -> Error {
    run(api, |p| {
        if flags.is_null() {
            return Err(invalid("StreamGetFlags", "NULL output pointer"));
        }
        let f = p.stream_flags(stream(s))?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out("StreamGetFlags", flags, f.0) }
    })
}

pub(crate) unsafe fn stream_get_priority(api: Api, s: *mut c_void, prio: *mut c_int) -> Error {
    run(api, |p| {
        if prio.is_null() {
            return Err(invalid("StreamGetPriority", "NULL output pointer"));
        }
        let v = p.stream_priority(stream(s))?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out("StreamGetPriority", prio, v) }
    })
}

/// `void (*)(void *userData)`.
pub type HostFn = Option<unsafe extern "C" fn(*mut c_void)>;
/// `void (*)(cudaStream_t, cudaError_t, void *userData)`.
pub type StreamCallback = Option<unsafe extern "C" fn(*mut c_void, Error, *mut c_void)>;

pub(crate) fn launch_host_func(api: Api, s: *mut c_void, f: HostFn, data: *mut c_void) -> Error {
    run(api, |p| {
        let Some(f) = f else {
            return Err(invalid("LaunchHostFunc", "NULL function"));
        };
        let data = SendPtr(data);
        // A shared function: a capturing stream makes it a host node, called at each launch of the graph.
        p.launch_host_func_shared(stream(s), move || {
            // SAFETY: the C caller registered `f` with `data` for this call (and, captured, for the graph's
            // launches: the vendor's contract for a host node).
            unsafe { f(data.get()) }
        })
    })
}

pub(crate) fn stream_add_callback(
    api: Api,
    s: *mut c_void,
    cb: StreamCallback,
    data: *mut c_void,
    flags: c_uint,
) -> Error {
    run(api, |p| {
        let Some(cb) = cb else {
            return Err(invalid("StreamAddCallback", "NULL callback"));
        };
        if flags != 0 {
            return Err(invalid("StreamAddCallback", "flags must be 0"));
        }
        let (data, sp) = (SendPtr(data), SendPtr(s));
        // "For each cudaStreamAddCallback call, a callback will be executed exactly once … In the event of a
        // device error, all subsequently executed callbacks will receive an appropriate cudaError_t" (CUDA
        // Runtime API, cudaStreamAddCallback): the stream's fault, as its code (719, 700).
        p.stream_add_callback(stream(s), move |status| {
            let (data, sp) = (data, sp);
            let status = status.map_or_else(|e| code(&e), |()| Success);
            // SAFETY: the C caller registered `cb` with `data` for exactly this call.
            unsafe { cb(sp.0, status, data.0) }
        })
    })
}

// ---------------------------------------------------------------------------------------------- events

pub(crate) unsafe fn event_create(api: Api, e: *mut *mut c_void, flags: c_uint) -> Error {
    run(api, |p| {
        if e.is_null() {
            return Err(invalid("EventCreate", "NULL output pointer"));
        }
        let h = p.create_event(EventFlags(flags))?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out("EventCreate", e, handle_ptr(h.to_raw())) }
    })
}

pub(crate) fn event_destroy(api: Api, e: *mut c_void) -> Error {
    run(api, |p| p.destroy_event(event(e)))
}

pub(crate) fn event_record(api: Api, e: *mut c_void, s: *mut c_void, flags: c_uint) -> Error {
    run(api, |p| {
        if flags != 0 {
            return Err(invalid(
                "EventRecordWithFlags",
                "only cudaEventRecordDefault (0) is simulated",
            ));
        }
        p.record_event(event(e), stream(s))
    })
}

pub(crate) fn event_query(api: Api, e: *mut c_void) -> Error {
    run(api, |p| match p.event_query(event(e))? {
        Status::Complete => Ok(()),
        Status::NotReady => Err(SimError::NotReady { what: "EventQuery" }),
    })
}

pub(crate) fn event_synchronize(api: Api, e: *mut c_void) -> Error {
    run(api, |p| p.event_synchronize(event(e)))
}

pub(crate) unsafe fn event_elapsed_time(
    api: Api,
    ms: *mut f32,
    start: *mut c_void,
    end: *mut c_void,
) -> Error {
    run(api, |p| {
        if ms.is_null() {
            return Err(invalid("EventElapsedTime", "NULL output pointer"));
        }
        let v = p.event_elapsed_ms(event(start), event(end))?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out("EventElapsedTime", ms, v) }
    })
}

// ---------------------------------------------------------------------------------------------- errors

/// What `cudaGetLastError` (`clear`) / `cudaPeekAtLastError` report for the calling thread of `p`: its last
/// error, or else the device's sticky error, which is never cleared (it is the answer until the device is
/// reset).
pub(crate) fn last_error(p: &Process, clear: bool) -> Option<SimError> {
    let e = if clear {
        p.take_last_error()
    } else {
        p.peek_last_error()
    };
    e.or_else(|| p.sticky_error())
}

/// The name of a code in `api`'s spelling (`cudaErrorNotReady` / `musaErrorNotReady`), from the table of
/// codes above; `None` for a code the simulator never produces.
pub(crate) fn code_name(api: Api, code: Error) -> Option<&'static str> {
    TABLE
        .iter()
        .find(|(c, ..)| *c == code)
        .map(|&(_, cuda, musa, _)| if api == Api::Musa { musa } else { cuda })
}

pub(crate) fn get_last_error(api: Api, clear: bool) -> Error {
    contain(Unknown, || {
        if crate::engine::exec::workers::on_worker_thread() {
            return NotPermitted;
        }
        match super::binding::process(api) {
            Ok(p) => last_error(&p, clear).map_or(Success, |e| code(&e)),
            Err(NoProcess::Config(_)) => NoDevice,
            Err(NoProcess::WrongDialect(_)) => NotSupported,
        }
    })
}

/// NUL-terminated names and descriptions, built once.
fn strings() -> &'static [(
    Error,
    std::ffi::CString,
    std::ffi::CString,
    std::ffi::CString,
)] {
    static S: std::sync::OnceLock<
        Vec<(
            Error,
            std::ffi::CString,
            std::ffi::CString,
            std::ffi::CString,
        )>,
    > = std::sync::OnceLock::new();
    S.get_or_init(|| {
        TABLE
            .iter()
            .map(|(c, cuda, musa, d)| {
                let cs = |s: &str| std::ffi::CString::new(s).expect("no NUL in the table");
                (*c, cs(cuda), cs(musa), cs(d))
            })
            .collect()
    })
}

const UNRECOGNIZED: &CStr = c"unrecognized error code";

pub(crate) fn get_error_name(api: Api, code: Error) -> *const c_char {
    let hit = strings().iter().find(|(c, ..)| *c == code);
    match (hit, api) {
        (Some((_, _, musa, _)), Api::Musa) => musa.as_ptr(),
        (Some((_, cuda, _, _)), _) => cuda.as_ptr(),
        (None, _) => UNRECOGNIZED.as_ptr(),
    }
}

pub(crate) fn get_error_string(code: Error) -> *const c_char {
    strings()
        .iter()
        .find(|(c, ..)| *c == code)
        .map_or(UNRECOGNIZED.as_ptr(), |(_, _, _, d)| d.as_ptr())
}

// ---------------------------------------------------------------------------------------------- kernels

/// A declared access of a simulated kernel (`streamsimAccess`): `flags` is `STREAMSIM_ACCESS_READ` (2),
/// `STREAMSIM_ACCESS_WRITE` (1) or both OR-ed (3); anything else is refused.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct streamsimAccess {
    /// Start of the range (a device pointer; in CUDA and MUSA also a pinned host pointer).
    pub ptr: *const c_void,
    /// Length in bytes.
    pub bytes: usize,
    /// `STREAMSIM_ACCESS_READ`, `STREAMSIM_ACCESS_WRITE`, or both OR-ed.
    pub flags: c_int,
}

/// `STREAMSIM_ACCESS_WRITE`: the kernel writes the range (and may read it).
pub(crate) const ACCESS_WRITE: c_int = 1;
/// `STREAMSIM_ACCESS_READ`: the kernel reads the range.
pub(crate) const ACCESS_READ: c_int = 2;

/// Builds the core kernel for a C launch.
///
/// # Safety
/// `name` is NULL or a NUL-terminated string; `accesses` is NULL or valid for `count` entries.
pub(crate) unsafe fn c_kernel(
    name: *const c_char,
    duration_ns: u64,
    f: HostFn,
    arg: *mut c_void,
    accesses: *const streamsimAccess,
    count: usize,
) -> Result<Kernel, SimError> {
    // SAFETY: NULL or NUL-terminated by the C contract.
    let label = unsafe { crate::facade::c_names::kernel_name(name) };
    let mut k = Kernel::new(label).duration(Duration::from_nanos(duration_ns));
    if count > 0 {
        if accesses.is_null() {
            return Err(invalid(
                "LaunchKernelEx",
                "NULL accesses with a non-zero count",
            ));
        }
        // No array of `count` entries can exist past isize::MAX bytes, nor at a misaligned address: refused
        // before a slice is made of it.
        if count > isize::MAX as usize / std::mem::size_of::<streamsimAccess>() {
            return Err(invalid(
                "LaunchKernelEx",
                format!("{count} accesses cannot fit in memory"),
            ));
        }
        if !accesses.is_aligned() {
            return Err(invalid(
                "LaunchKernelEx",
                format!("accesses {accesses:p} is not aligned for streamsimAccess"),
            ));
        }
        // SAFETY: non-NULL, aligned, and valid for `count` entries by the C contract.
        for (i, a) in unsafe { std::slice::from_raw_parts(accesses, count) }
            .iter()
            .enumerate()
        {
            let ptr = DevicePtr(a.ptr as usize as u64);
            // A write conflicts with every access, so read-and-write is declared as a write (which the
            // kernel may also read).
            k = match a.flags {
                ACCESS_READ => k.reads(ptr, a.bytes as u64),
                ACCESS_WRITE | 3 => k.writes(ptr, a.bytes as u64),
                other => {
                    return Err(invalid(
                        "LaunchKernelEx",
                        format!(
                            "access {i} has flags {other}: use STREAMSIM_ACCESS_READ ({ACCESS_READ}), \
                             STREAMSIM_ACCESS_WRITE ({ACCESS_WRITE}) or both OR-ed"
                        ),
                    ));
                }
            };
        }
    }
    if let Some(f) = f {
        let arg = SendPtr(arg);
        // Shared: a captured launch runs the body at each launch of the graph.
        k = k.shared_body(move |_| {
            // SAFETY: the C caller launched `f` with `arg` for this call (and, captured, for the graph's
            // launches).
            unsafe { f(arg.get()) };
            Ok(())
        });
    }
    Ok(k)
}

/// `streamsimKernelCtxBody`, the body of `cudasimLaunchKernelCtx` (see `crate::facade::kernel_ctx`).
pub type KernelCtxBody = crate::facade::kernel_ctx::streamsimKernelCtxBody;

/// `cudasimLaunchKernelCtx` / `musasimLaunchKernelCtx`: a kernel whose C body works on its declared memory.
#[allow(clippy::too_many_arguments, reason = "the C signature")]
pub(crate) unsafe fn launch_kernel_ctx(
    api: Api,
    s: *mut c_void,
    name: *const c_char,
    duration_ns: u64,
    body: KernelCtxBody,
    arg: *mut c_void,
    accesses: *const streamsimAccess,
    count: usize,
) -> Error {
    run_launch(api, |p| {
        // SAFETY: forwarded C contract.
        let k = unsafe {
            crate::facade::kernel_ctx::ctx_kernel(name, duration_ns, body, arg, accesses, count)
        }?;
        p.launch(stream(s), k)
    })
}

#[allow(clippy::too_many_arguments, reason = "the C signature")]
pub(crate) unsafe fn launch_kernel(
    api: Api,
    s: *mut c_void,
    name: *const c_char,
    duration_ns: u64,
    f: HostFn,
    arg: *mut c_void,
    accesses: *const streamsimAccess,
    count: usize,
) -> Error {
    run_launch(api, |p| {
        if f.is_none() && count == 0 {
            // SAFETY: NULL or NUL-terminated by the C contract.
            let label = unsafe { crate::facade::c_names::kernel_name(name) };
            return p.launch_plain(stream(s), label, duration_ns);
        }
        // SAFETY: forwarded C contract.
        let k = unsafe { c_kernel(name, duration_ns, f, arg, accesses, count) }?;
        p.launch(stream(s), k)
    })
}
