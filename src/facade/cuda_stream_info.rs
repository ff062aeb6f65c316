//! CUDA-family stream and event calls beyond the core set: `cudaStreamGetId`, `cudaStreamGetDevice`, and the
//! flags of `cudaEventRecordWithFlags` and `cudaStreamWaitEvent`. Rows and sources: `docs/semantics/
//! cuda-musa-runtime-api.md`.

use std::ffi::{c_int, c_uint, c_void};

use super::binding::{Api, invalid, out, stream};
use super::cuda_runtime::{Error, event_record, run, stream_wait_event};
use crate::engine::core::error::SimError;
use crate::engine::core::handle::Event;

/// `cudaEventRecordExternal` / `cudaEventWaitExternal`: make the record or wait an external node of the graph
/// being captured (`docs/semantics/capture-and-graphs.md`). "This flag is invalid when used outside of capture"
/// (the driver API's `CUevent_record_flags` and `CUevent_wait_flags`): `cudaErrorInvalidValue`.
const EXTERNAL: c_uint = 0x01;

pub(crate) unsafe fn stream_get_id(api: Api, s: *mut c_void, id: *mut u64) -> Error {
    run(api, |p| {
        if id.is_null() {
            return Err(invalid("StreamGetId", "NULL output pointer"));
        }
        let v = p.stream_unique_id(stream(s))?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out("StreamGetId", id, v) }
    })
}

pub(crate) unsafe fn stream_get_device(api: Api, s: *mut c_void, device: *mut c_int) -> Error {
    run(api, |p| {
        if device.is_null() {
            return Err(invalid("StreamGetDevice", "NULL output pointer"));
        }
        let d = p.stream_device(stream(s))?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out("StreamGetDevice", device, d as c_int) }
    })
}

/// Refuses `flags` (one runtime call, which fails with 1, or `None`): bits other than [`EXTERNAL`] are not
/// defined, and [`EXTERNAL`] is only valid while stream `s` is being captured (asked without a runtime call, so a
/// refused call takes no host time, as before the simulator had captures). `record` says which call.
fn check_flags(api: Api, record: bool, flags: c_uint, s: *mut c_void) -> Option<Error> {
    let what = if record {
        "EventRecordWithFlags"
    } else {
        "StreamWaitEvent"
    };
    let capturing =
        || super::binding::process(api).is_ok_and(|p| p.stream_is_capturing_now(stream(s)));
    let reason = match (flags & !EXTERNAL != 0, record, api) {
        (false, _, _) if flags == 0 || capturing() => return None,
        (true, _, _) => "only the External flag (0x1) is defined",
        (false, true, Api::Musa) => {
            "musaEventRecordExternal is only valid during stream capture, and the stream is not capturing"
        }
        (false, true, _) => {
            "cudaEventRecordExternal is only valid during stream capture, and the stream is not capturing"
        }
        (false, false, Api::Musa) => {
            "musaEventWaitExternal is only valid during stream capture, and the stream is not capturing"
        }
        (false, false, _) => {
            "cudaEventWaitExternal is only valid during stream capture, and the stream is not capturing"
        }
    };
    Some(run(api, |_| {
        Err(SimError::InvalidFlags {
            what,
            flags,
            reason,
        })
    }))
}

fn event(e: *mut c_void) -> Event {
    Event::from_raw(e as usize as u64)
}

pub(crate) fn event_record_with_flags(
    api: Api,
    e: *mut c_void,
    s: *mut c_void,
    flags: c_uint,
) -> Error {
    check_flags(api, true, flags, s).unwrap_or_else(|| {
        if flags == EXTERNAL {
            run(api, |p| p.record_event_external(event(e), stream(s)))
        } else {
            event_record(api, e, s, 0)
        }
    })
}

pub(crate) fn stream_wait_event_with_flags(
    api: Api,
    s: *mut c_void,
    e: *mut c_void,
    flags: c_uint,
) -> Error {
    check_flags(api, false, flags, s).unwrap_or_else(|| {
        if flags == EXTERNAL {
            run(api, |p| p.stream_wait_event_external(stream(s), event(e)))
        } else {
            stream_wait_event(api, s, e, 0)
        }
    })
}
