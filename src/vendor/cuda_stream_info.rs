//! CUDA-family stream and event calls beyond the core set: `cudaStreamGetId`, `cudaStreamGetDevice`, and the
//! flags of `cudaEventRecordWithFlags` and `cudaStreamWaitEvent`. Rows and sources: `docs/semantics/
//! cuda-musa-runtime-api.md`.

use std::ffi::{c_int, c_uint, c_void};

use super::binding::{Api, invalid, out, stream};
use super::cuda_runtime::{Error, event_record, run, stream_wait_event};
use crate::engine::error::SimError;
use crate::engine::handle::Event;

/// `cudaEventRecordExternal` / `cudaEventWaitExternal`: make the record or wait an external node of the graph
/// being captured; "invalid when used outside of capture" (`cudaErrorInvalidValue`, see `docs/semantics/
/// capture-and-graphs.md`).
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

/// Refuses `flags` with bits other than [`EXTERNAL`] (one runtime call, which fails).
fn check_external(api: Api, what: &'static str, flags: c_uint) -> Option<Error> {
    (flags & !EXTERNAL != 0).then(|| {
        run(api, |_| {
            Err(SimError::InvalidFlags {
                what,
                flags,
                reason: "only the External flag (0x1) is defined",
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
    check_external(api, "EventRecordWithFlags", flags).unwrap_or_else(|| {
        if flags == EXTERNAL && captures(api, s) {
            run(api, |p| p.record_event_external(event(e), stream(s)))
        } else {
            event_record(api, e, s, 0)
        }
    })
}

fn event(e: *mut c_void) -> Event {
    Event::from_raw(e as usize as u64)
}

pub(crate) fn stream_wait_event_with_flags(
    api: Api,
    s: *mut c_void,
    e: *mut c_void,
    flags: c_uint,
) -> Error {
    check_external(api, "StreamWaitEvent", flags).unwrap_or_else(|| {
        if flags == EXTERNAL && captures(api, s) {
            run(api, |p| p.stream_wait_event_external(stream(s), event(e)))
        } else {
            stream_wait_event(api, s, e, 0)
        }
    })
}

/// Whether stream `s` is capturing (no runtime call: the clock does not move). Outside a capture the External
/// flags still mean the plain record or wait here (sim, until the rule "invalid when used outside of capture"
/// of `docs/semantics/capture-and-graphs.md` replaces it).
fn captures(api: Api, s: *mut c_void) -> bool {
    super::binding::process(api).is_ok_and(|p| p.stream_is_capturing_now(stream(s)))
}
