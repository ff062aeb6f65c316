//! ACL's stream capture into model runtime instances (`aclmdlRICapture*`, `aclmdlRIExecuteAsync`,
//! `aclmdlRIDestroy`): the `extern "C"` functions and what they do. The rows, with their sources in the CANN
//! runtime (`src/acl/aclrt_impl/model_ri.cpp`, `src/runtime/feature/aclgraph/`), are in
//! `docs/semantics/capture-and-graphs.md`.
//!
//! An `aclmdlRI` is the handle of the capture's graph, from the capture's begin: [`aclmdlRICaptureGetInfo`]
//! reports it during the capture and [`aclmdlRICaptureEnd`] returns the same value, as the runtime's
//! `Context::StreamGetCaptureInfo` and `Context::StreamEndCapture` both hand out `captureStream->Model_()`. At the
//! end the graph is instantiated into an executable graph of the engine (and dropped); [`MODELS`] maps the
//! model's handle to that executable graph for [`aclmdlRIExecuteAsync`] and [`aclmdlRIDestroy`].

use super::runtime::{not_null, run};
use super::types::*;
use crate::engine::core::error::SimError;
use crate::engine::core::handle::{GraphExec, Stream};
use crate::engine::graph::{CaptureMode, CaptureStatus};
use crate::engine::process::Process;
use crate::facade::binding::{handle_ptr, stream};

/// The executable graph of each model a capture ended into, by the model's handle (the capture's graph's raw
/// handle, which carries its machine, process and slot generation, so it is never reused for another model).
/// [`aclmdlRIDestroy`] removes the entry (the map follows the live models); a later use of the model is the
/// engine's invalid-handle error (`ACL_ERROR_RT_INVALID_HANDLE`), as for any destroyed handle.
static MODELS: parking_lot::Mutex<std::collections::BTreeMap<u64, u64>> =
    parking_lot::Mutex::new(std::collections::BTreeMap::new());

/// The executable graph behind a model handle (a handle that is no model is passed on as it is, for the engine
/// to refuse).
fn model(modelRI: aclmdlRI) -> GraphExec {
    let raw = modelRI as usize as u64;
    GraphExec::from_raw(MODELS.lock().get(&raw).copied().unwrap_or(raw))
}

/// The mode, or the runtime's refusal (`ApiErrorDecorator::StreamBeginCapture`: `RT_ERROR_INVALID_VALUE`).
fn mode(what: &'static str, raw: aclmdlRICaptureMode) -> Result<CaptureMode, SimError> {
    CaptureMode::from_raw(raw).ok_or_else(|| SimError::InvalidValue {
        what: super::runtime::WHAT_RT,
        reason: format!("{what}: {raw} is not an aclmdlRICaptureMode (0, 1 or 2)"),
    })
}

/// Ends the capture begun on `s` and makes its model runtime instance (what [`aclmdlRICaptureEnd`] returns;
/// the scenario runner's `capture end` too).
pub(crate) fn end_capture_model(p: &Process, s: Stream) -> Result<GraphExec, SimError> {
    p.end_capture_executable(s).map(|(x, _)| x)
}

/// `aclmdlRICaptureBegin`: tasks later delivered to `stream` are captured into a model instead of running.
/// NULL stream: [`ACL_ERROR_INVALID_PARAM`]; the default stream: [`ACL_ERROR_RT_FEATURE_NOT_SUPPORT`]; a
/// capturing stream: [`ACL_ERROR_RT_STREAM_CAPTURED`]; another context's stream: [`ACL_ERROR_RT_STREAM_CONTEXT`].
#[unsafe(no_mangle)]
pub extern "C" fn aclmdlRICaptureBegin(
    stream_: aclrtStream,
    mode_: aclmdlRICaptureMode,
) -> aclError {
    let what = "aclmdlRICaptureBegin";
    run(what, |p| {
        not_null(what, "stream", stream_)?;
        p.begin_capture(stream(stream_), mode(what, mode_)?)
    })
}

/// `aclmdlRICaptureGetInfo`: the stream's capture status and the model being captured (NULL if none), the same
/// handle [`aclmdlRICaptureEnd`] returns for the capture. Both outputs NULL: [`ACL_ERROR_INVALID_PARAM`].
///
/// # Safety
/// `status` and `modelRI` are NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclmdlRICaptureGetInfo(
    stream_: aclrtStream,
    status: *mut aclmdlRICaptureStatus,
    modelRI: *mut aclmdlRI,
) -> aclError {
    let what = "aclmdlRICaptureGetInfo";
    run(what, |p| {
        not_null(what, "stream", stream_)?;
        if status.is_null() && modelRI.is_null() {
            return Err(crate::facade::binding::invalid(
                what,
                "status and modelRI cannot both be NULL",
            ));
        }
        let info = p.capture_info(stream(stream_))?;
        let model = match info.status {
            CaptureStatus::None => std::ptr::null_mut(),
            _ => info
                .graph
                .map_or(std::ptr::null_mut(), |g| handle_ptr(g.to_raw())),
        };
        // SAFETY: each pointer is NULL (skipped) or valid for a write, by the C contract.
        unsafe {
            crate::facade::binding::put(status, info.status.to_raw());
            crate::facade::binding::put(modelRI, model);
        }
        Ok(())
    })
}

/// `aclmdlRICaptureEnd`: ends the capture begun on `stream` and returns its model runtime instance (NULL on
/// failure). Not capturing: [`ACL_ERROR_RT_STREAM_NOT_CAPTURED`]; a stream that only joined the capture:
/// [`ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED`]; another thread: [`ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD`];
/// invalidated: [`ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED`]; a sub stream not joined back:
/// [`ACL_ERROR_RT_STREAM_UNJOINED`]. The model's handle is the one [`aclmdlRICaptureGetInfo`] reported during
/// the capture.
///
/// # Safety
/// `modelRI` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclmdlRICaptureEnd(
    stream_: aclrtStream,
    modelRI: *mut aclmdlRI,
) -> aclError {
    let what = "aclmdlRICaptureEnd";
    run(what, |p| {
        not_null(what, "stream", stream_)?;
        if modelRI.is_null() {
            return Err(SimError::InvalidValue {
                what: super::runtime::WHAT_RT,
                reason: format!("{what}: modelRI is NULL"),
            });
        }
        // SAFETY: checked non-NULL; C contract ("*captureMdl = nullptr" first, as the runtime does).
        unsafe { modelRI.write(std::ptr::null_mut()) };
        let s = stream(stream_);
        let graph = p.capture_info(s).ok().and_then(|info| info.graph);
        let x = end_capture_model(p, s)?;
        let handle = match graph {
            Some(g) => {
                MODELS.lock().insert(g.to_raw(), x.to_raw());
                g.to_raw()
            }
            None => x.to_raw(),
        };
        // SAFETY: as above.
        unsafe { modelRI.write(handle_ptr(handle)) };
        Ok(())
    })
}

/// `aclmdlRIExecuteAsync`: runs the model's tasks on `stream` (NULL: the default stream) after its earlier
/// tasks, with times from their dependencies. NULL model: [`ACL_ERROR_INVALID_PARAM`]; another context's
/// model: [`ACL_ERROR_RT_MODEL_CONTEXT`]; a capturing stream: [`ACL_ERROR_RT_STREAM_CAPTURED`].
#[unsafe(no_mangle)]
pub extern "C" fn aclmdlRIExecuteAsync(modelRI: aclmdlRI, stream_: aclrtStream) -> aclError {
    let what = "aclmdlRIExecuteAsync";
    run(what, |p| {
        not_null(what, "modelRI", modelRI)?;
        p.launch_graph(model(modelRI), stream(stream_))
    })
}

/// `aclmdlRIDestroy`: destroys the model runtime instance; executions already delivered still run.
#[unsafe(no_mangle)]
pub extern "C" fn aclmdlRIDestroy(modelRI: aclmdlRI) -> aclError {
    let what = "aclmdlRIDestroy";
    run(what, |p| {
        not_null(what, "modelRI", modelRI)?;
        p.destroy_graph_exec(model(modelRI))?;
        // The map follows the live models: a destroyed model's handle is then a handle of the (dropped)
        // capture graph, which the engine refuses as an invalid handle, the same code as a stale one.
        MODELS.lock().remove(&(modelRI as usize as u64));
        Ok(())
    })
}

/// `aclmdlRICaptureThreadExchangeMode`: sets the calling thread's capture mode and returns the previous one in
/// `*mode` (a thread starts in [`ACL_MODEL_RI_CAPTURE_MODE_GLOBAL`]). NULL: [`ACL_ERROR_INVALID_PARAM`]; an
/// unknown mode: [`ACL_ERROR_RT_PARAM_INVALID`]; no current context: [`ACL_ERROR_RT_CONTEXT_NULL`].
///
/// # Safety
/// `mode` is NULL or valid for a read and a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclmdlRICaptureThreadExchangeMode(
    mode_: *mut aclmdlRICaptureMode,
) -> aclError {
    let what = "aclmdlRICaptureThreadExchangeMode";
    run(what, |p| {
        not_null(what, "mode", mode_)?;
        // SAFETY: checked non-NULL; C contract.
        let new = mode(what, unsafe { mode_.read() })?;
        let old = p.exchange_capture_mode(new)?;
        // SAFETY: as above.
        unsafe { mode_.write(old.to_raw()) };
        Ok(())
    })
}
