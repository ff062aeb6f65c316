//! CUDA-family stream and event calls beyond the core set: `cudaStreamGetId`, `cudaStreamGetDevice`, and the
//! flags of `cudaEventRecordWithFlags` and `cudaStreamWaitEvent`. Rows and sources: `docs/semantics/
//! cuda-musa-runtime-api.md`.

use std::ffi::{c_int, c_uint, c_void};

use super::binding::{Api, invalid, out, stream};
use super::cuda_runtime::{Error, event_record, run, stream_wait_event};
use crate::engine::error::SimError;

/// `cudaEventRecordExternal` / `cudaEventWaitExternal`: make the record or wait an external node of a graph
/// being captured. "This flag is invalid when used outside of capture" (the driver API's `CUevent_record_flags`
/// and `CUevent_wait_flags`), and the simulator has no stream capture yet, so for now it is always refused.
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

/// Refuses any `flags` but 0 (one runtime call, which fails with 1): bits other than [`EXTERNAL`] are not
/// defined, and [`EXTERNAL`] is only valid while the stream is being captured, which no stream is (the simulator
/// has no stream capture yet; when it does, a capturing stream accepts the flag). `record` says which call.
fn check_flags(api: Api, record: bool, flags: c_uint) -> Option<Error> {
    let what = if record {
        "EventRecordWithFlags"
    } else {
        "StreamWaitEvent"
    };
    let reason = match (flags & !EXTERNAL != 0, record, api) {
        (true, _, _) => "only the External flag (0x1) is defined",
        (false, true, Api::Musa) => {
            "musaEventRecordExternal is only valid during stream capture, and the stream is not capturing \
             (the simulator has no stream capture yet)"
        }
        (false, true, _) => {
            "cudaEventRecordExternal is only valid during stream capture, and the stream is not capturing \
             (the simulator has no stream capture yet)"
        }
        (false, false, Api::Musa) => {
            "musaEventWaitExternal is only valid during stream capture, and the stream is not capturing \
             (the simulator has no stream capture yet)"
        }
        (false, false, _) => {
            "cudaEventWaitExternal is only valid during stream capture, and the stream is not capturing \
             (the simulator has no stream capture yet)"
        }
    };
    (flags != 0).then(|| {
        run(api, |_| {
            Err(SimError::InvalidFlags {
                what,
                flags,
                reason,
            })
        })
    })
}

pub(crate) fn event_record_with_flags(
    api: Api,
    e: *mut c_void,
    s: *mut c_void,
    flags: c_uint,
) -> Error {
    check_flags(api, true, flags).unwrap_or_else(|| event_record(api, e, s, 0))
}

pub(crate) fn stream_wait_event_with_flags(
    api: Api,
    s: *mut c_void,
    e: *mut c_void,
    flags: c_uint,
) -> Error {
    check_flags(api, false, flags).unwrap_or_else(|| stream_wait_event(api, s, e, 0))
}
