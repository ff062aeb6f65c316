//! The C library's trace calls, which need the exporters: `streamsimMachineWriteTrace` (the Chrome trace of
//! a machine, on demand), and the exporters that the exit actions of `src/facade/exit.rs` use (handed to it
//! by the crate root, `crate::C_EXPORTERS`).
#![allow(non_snake_case, reason = "the C API's names")]

use std::ffi::{CStr, c_char};
use std::io::Write as _;

use crate::engine::core::races::RaceReport;
use crate::engine::core::rules::Dialect;
use crate::engine::observe::trace::Trace;
use crate::facade::capi::{
    STREAMSIM_ERROR_INVALID_VALUE, STREAMSIM_ERROR_IO, STREAMSIM_ERROR_NO_TRACE, streamsimError,
    streamsimMachine,
};
use crate::facade::cc_check::CheckReport;
use crate::tools::export::{ChromeTrace, ErrorCode, Timeline, acl_code, cuda_code};

/// The Chrome trace of `trace` with its races and the sanitizer's reports, failed calls written with `codes`.
pub(crate) fn chrome_json(
    trace: &Trace,
    races: &[RaceReport],
    checks: &[CheckReport],
    codes: ErrorCode,
) -> String {
    ChromeTrace::new(trace)
        .error_codes(codes)
        .races(races)
        .checks(checks)
        .to_json()
}

/// The terminal timeline of `trace` with the sanitizer's reports, `width` characters wide.
pub(crate) fn timeline_text(trace: &Trace, checks: &[CheckReport], width: usize) -> String {
    Timeline::new(trace).width(width).checks(checks).to_string()
}

/// `streamsimMachineWriteTrace`: waits for the machine's queued work, then writes its Chrome trace (the
/// Perfetto UI and `chrome://tracing` open it) to the file `path`: every operation, blocking call and failed
/// call (with CUDA's codes on a CUDA machine, ACL's on an ACL one) so far, and each race on both operations'
/// tracks. Not a runtime call: no clock moves. [`STREAMSIM_ERROR_NO_TRACE`] if the machine keeps no trace;
/// [`STREAMSIM_ERROR_IO`] if the file cannot be written (the message is printed to standard error).
///
/// # Safety
/// `path` is NULL or NUL-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn streamsimMachineWriteTrace(
    machine: streamsimMachine,
    path: *const c_char,
) -> streamsimError {
    crate::facade::capi::run(|| {
        let m = crate::facade::capi::machine(machine)?;
        if path.is_null() {
            return Err(STREAMSIM_ERROR_INVALID_VALUE);
        }
        // SAFETY: NUL-terminated by the C contract.
        let path = unsafe { CStr::from_ptr(path) }
            .to_string_lossy()
            .into_owned();
        if !m.tracing() {
            return Err(STREAMSIM_ERROR_NO_TRACE);
        }
        m.drain();
        let codes: ErrorCode = match m.dialect() {
            Dialect::Cuda => cuda_code,
            Dialect::Acl => acl_code,
        };
        let json = chrome_json(
            &m.trace(),
            &m.race_reports(),
            &crate::facade::cc_check::check_reports(),
            codes,
        );
        std::fs::write(&path, json).map_err(|e| {
            let _ = writeln!(
                std::io::stderr(),
                "streamsim: cannot write the trace to {path}: {e}"
            );
            STREAMSIM_ERROR_IO
        })
    })
}
