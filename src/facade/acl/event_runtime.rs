//! What the ACL event calls do (`aclrtCreateEvent*`, record, wait, query, synchronize, elapsed time, reset,
//! IPC event handles), translated to the engine's event calls; errors are mapped by `runtime::code`.

#![allow(
    clippy::missing_safety_doc,
    reason = "the vendor functions' contracts are the vendor's; see crate::facade::acl"
)]

use std::ffi::c_char;

use super::runtime::*;
use super::types::*;
use crate::engine::core::error::SimError;
use crate::engine::core::status::Status;
use crate::engine::events::config::{EventConfig, RecordStatus, UnrecordedWait};
use crate::engine::ipc::events::IpcEventHandle;
use crate::facade::binding::{handle_ptr, out, stream};

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
        // `docs/semantics/acl.md` · Events · StreamWaitEvent · an ACL_EVENT_IPC event: "该flag不支持与其他flag进行位或操作"
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
