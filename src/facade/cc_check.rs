//! The sanitizer's checks of kernels run on the CPU (`streamsim cc`), in the manner of compute-sanitizer's
//! tools: which run (`STREAMSIM_CHECK`), and the reports they make (standard error, and the report APIs:
//! [`check_reports`] in Rust, `streamsimCheckReportCount` / `streamsimCheckReportText` in C). A report of
//! any check counts for `STREAMSIM_RACES=fail` (exit status 66) as a race does. Races between streams found
//! from the bytes kernels really touched are race reports (`STREAMSIM_RACES`), not these.
//!
//! The semantics: `docs/semantics/sanitizer.md`.
#![allow(non_snake_case, reason = "the C API's names")]

use std::ffi::{CStr, c_char, c_int};
use std::io::Write as _;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use parking_lot::Mutex;

use crate::facade::binding::contain;

/// memcheck: an access outside every live allocation, or misaligned, is reported (the kernel faults either way).
pub(crate) const MEMCHECK: u32 = 1;
/// racecheck: a hazard on `__shared__` memory between threads of one block is reported.
pub(crate) const RACECHECK: u32 = 2;
/// synccheck: a `__syncthreads` that not every thread of the block reaches is reported, and faults the kernel.
pub(crate) const SYNCCHECK: u32 = 4;
/// initcheck: a kernel's read of device memory that nothing wrote since its allocation is reported.
pub(crate) const INITCHECK: u32 = 8;
/// Every check (`all`).
pub(crate) const ALL: u32 = MEMCHECK | RACECHECK | SYNCCHECK | INITCHECK;

/// The checks `STREAMSIM_CHECK` names: comma-separated `memcheck`, `racecheck`, `synccheck`, `initcheck`, `all`
/// (the four) or `off` (default `memcheck`), compute-sanitizer's tools.
pub(crate) fn parse(text: Option<&str>) -> Result<u32, String> {
    let Some(text) = text else {
        return Ok(MEMCHECK);
    };
    let mut checks = 0;
    for word in text.split(',').map(str::trim) {
        checks |= match word {
            "memcheck" => MEMCHECK,
            "racecheck" => RACECHECK,
            "synccheck" => SYNCCHECK,
            "initcheck" => INITCHECK,
            "all" => ALL,
            "off" => 0,
            _ => {
                return Err(format!(
                    "streamsim: STREAMSIM_CHECK={text:?} is not a valid value (expected memcheck, racecheck, \
                     synccheck, initcheck, all or off, comma-separated)"
                ));
            }
        };
    }
    Ok(checks)
}

/// `STREAMSIM_CHECK`, read once (a bad value is refused with the default machines' configuration:
/// `binding.rs`).
pub(crate) fn from_env() -> Result<u32, String> {
    static CHECKS: OnceLock<Result<u32, String>> = OnceLock::new();
    CHECKS
        .get_or_init(|| match std::env::var("STREAMSIM_CHECK") {
            Err(std::env::VarError::NotPresent) => parse(None),
            Err(std::env::VarError::NotUnicode(v)) => Err(format!(
                "streamsim: STREAMSIM_CHECK={v:?} is not valid text"
            )),
            Ok(v) => parse(Some(&v)),
        })
        .clone()
        .inspect(|checks| {
            // initcheck's record of written bytes is made with each allocation from now on.
            if checks & INITCHECK != 0 {
                crate::engine::memory::init::set_reporter(|text| report("initcheck", text));
            }
            crate::engine::memory::init::set_enabled(checks & INITCHECK != 0);
        })
}

/// How kernels with barriers run (`STREAMSIM_REGIONS`): as region loops where they can (`on`, the default), always
/// as fibers (`off`, to compare), or as region loops with a count of them on standard error after each launch
/// (`report`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Regions {
    On,
    Off,
    Report,
}

/// `STREAMSIM_REGIONS`, read once (a bad value is refused with the default machines' configuration:
/// `binding.rs`).
pub(crate) fn regions_from_env() -> Result<Regions, String> {
    static REGIONS: OnceLock<Result<Regions, String>> = OnceLock::new();
    REGIONS
        .get_or_init(|| match std::env::var("STREAMSIM_REGIONS") {
            Err(std::env::VarError::NotPresent) => Ok(Regions::On),
            Err(std::env::VarError::NotUnicode(v)) => Err(format!(
                "streamsim: STREAMSIM_REGIONS={v:?} is not valid text"
            )),
            Ok(v) => match v.trim() {
                "on" => Ok(Regions::On),
                "off" => Ok(Regions::Off),
                "report" => Ok(Regions::Report),
                _ => Err(format!(
                    "streamsim: STREAMSIM_REGIONS={v:?} is not a valid value (expected on, off or report)"
                )),
            },
        })
        .clone()
}

/// The checks that run (none when `STREAMSIM_CHECK` is bad: the program's calls fail then anyway).
pub(crate) fn enabled() -> u32 {
    from_env().unwrap_or(0)
}

/// The most reports kept (past it they are counted and printed, not kept).
pub const MAX_CHECK_REPORTS: usize = 4096;

/// A report of one of the checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckReport {
    /// `memcheck`, `racecheck`, `synccheck` or `initcheck`.
    pub tool: &'static str,
    /// What happened: the kernel, block and thread, the access and the allocation it concerns.
    pub text: String,
    /// The operation the report concerns (the kernel's launch, the copy), as the trace names it; `None` for a
    /// report made off a stream's worker.
    pub op: Option<CheckOp>,
}

/// The operation a [`CheckReport`] concerns: the trace's [`TraceEvent`](crate::TraceEvent)
/// with this stream and `seq` (the Chrome trace puts an instant on its track, the timeline a `!` on its row).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CheckOp {
    /// The stream (and so process and device) it ran on.
    pub stream: crate::StreamId,
    /// Its position in the stream, starting at 1.
    pub seq: u64,
}

static REPORTS: Mutex<Vec<CheckReport>> = Mutex::new(Vec::new());
static COUNT: AtomicU64 = AtomicU64::new(0);

/// Makes a report: written to standard error at once (one write), kept, and counted.
pub(crate) fn report(tool: &'static str, text: String) {
    COUNT.fetch_add(1, Ordering::Relaxed);
    let line = format!("streamsim: {tool}: {text}\n");
    let _ = std::io::stderr().write_all(line.as_bytes());
    let op = crate::engine::exec::running_op().map(|(stream, seq)| CheckOp { stream, seq });
    let mut kept = REPORTS.lock();
    if kept.len() < MAX_CHECK_REPORTS {
        kept.push(CheckReport { tool, text, op });
    }
}

/// How many reports the checks made in this process.
pub(crate) fn count() -> u64 {
    COUNT.load(Ordering::Relaxed)
}

/// The reports the checks of kernels run on the CPU made in this process, in order (at most
/// [`MAX_CHECK_REPORTS`]).
pub fn check_reports() -> Vec<CheckReport> {
    REPORTS.lock().clone()
}

/// `streamsimCheckReportCount`: how many reports the checks made (also those past the kept ones).
#[unsafe(no_mangle)]
pub extern "C" fn streamsimCheckReportCount() -> u64 {
    contain(0, count)
}

/// `streamsimCheckReportText(i, buf, len)`: the `i`-th kept report as `"<tool>: <text>"`, NUL-terminated and
/// cut to `len` bytes; returns the length of the whole text, or -1 when there is no such report or `buf` is
/// NULL with a non-zero `len`.
///
/// # Safety
/// `buf` holds `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn streamsimCheckReportText(i: u64, buf: *mut c_char, len: usize) -> c_int {
    contain(-1, || {
        let Some(r) = REPORTS.lock().get(i as usize).cloned() else {
            return -1;
        };
        if buf.is_null() && len != 0 {
            return -1;
        }
        let text = format!("{}: {}", r.tool, r.text);
        if len > 0 {
            let n = text.len().min(len - 1);
            // SAFETY: C contract: `buf` holds `len` bytes.
            unsafe {
                std::ptr::copy_nonoverlapping(text.as_ptr(), buf.cast::<u8>(), n);
                *buf.add(n) = 0;
            }
        }
        c_int::try_from(text.len()).unwrap_or(c_int::MAX)
    })
}

/// `__streamsim_at(call, file, line)`: the allocation or free call `call` that this thread is about to make is
/// at `line` of `file` (reports of the memory it allocates or frees name it); `call` NULL: the call returned,
/// forget it. `streamsim cc`'s pre-include headers wrap the runtimes' allocation and free calls in a guard that
/// calls it before and after (`include/streamsim/cc/cuda_preinclude.h`).
///
/// # Safety
/// `call` and `file` are NULL or NUL-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __streamsim_at(call: *const c_char, file: *const c_char, line: c_int) {
    contain((), || {
        if call.is_null() || file.is_null() {
            crate::engine::memory::site::clear();
            return;
        }
        // SAFETY: C contract.
        let (call, file) = unsafe { (CStr::from_ptr(call), CStr::from_ptr(file)) };
        crate::engine::memory::site::set(
            &call.to_string_lossy(),
            &file.to_string_lossy(),
            u32::try_from(line).unwrap_or(0),
        );
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_of_streamsim_check() {
        assert_eq!(parse(None), Ok(MEMCHECK));
        assert_eq!(parse(Some("off")), Ok(0));
        assert_eq!(parse(Some("memcheck, synccheck")), Ok(MEMCHECK | SYNCCHECK));
        assert_eq!(
            parse(Some("all")),
            Ok(MEMCHECK | RACECHECK | SYNCCHECK | INITCHECK)
        );
        assert_eq!(parse(Some("racecheck")), Ok(RACECHECK));
        assert_eq!(parse(Some("initcheck,memcheck")), Ok(INITCHECK | MEMCHECK));
        assert!(
            parse(Some("memchek"))
                .unwrap_err()
                .contains("not a valid value")
        );
    }
}
