//! What the C library does about races as they are found, and at process exit.
//!
//! - **Printing races.** A machine in `print` or `fail` mode (`STREAMSIM_RACES` for the default machines,
//!   `streamsimMachineOptions::races` for the others) writes each new race report to standard error as it
//!   is found, in the words of [`RaceReport`]'s `Display` without the call sites (they would be lines of the
//!   facades, not of the C program): `streamsim: data race on 4096 bytes … fix: …`.
//! - **At exit**, after every `atexit` handler and C++ global destructor has run (the function is in the
//!   library's `.fini_array`, which the C runtime runs after them): each default machine that was asked for
//!   them waits for its queued work ([`crate::Machine::drain`]), writes its Chrome trace to `STREAMSIM_TRACE`
//!   and prints its timeline to standard error (`STREAMSIM_TIMELINE=1`); then, if a machine in `fail` mode
//!   found a race, the process exits with `STREAMSIM_RACES_EXITCODE` (66 by default: ThreadSanitizer's
//!   `exitcode` flag, <https://github.com/google/sanitizers/wiki/ThreadSanitizerFlags>), after flushing the C
//!   streams, whatever `exit` was given.
//!
//! The trace and the timeline are the tools layer's exporters, which this layer does not name: the crate root
//! hands them in ([`Exporters`], `crate::C_EXPORTERS`).

use std::io::Write as _;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};

use crate::engine::core::error::SimError;
use crate::engine::core::races::RaceReport;
use crate::engine::observe::trace::Trace;
use crate::facade::binding::{self, Api};

/// A facade's code for an error and its name.
pub(crate) type CodeFn = fn(&SimError) -> (i64, &'static str);

/// The exporters the exit actions use, from the tools layer (set by the crate root).
pub(crate) struct Exporters {
    /// The Chrome trace JSON of a trace, with its races, the sanitizer's reports and the facade's codes for
    /// failed calls.
    pub chrome:
        fn(&Trace, &[RaceReport], &[crate::facade::cc_check::CheckReport], CodeFn) -> String,
    /// The terminal timeline of a trace, with the sanitizer's reports, this many characters wide.
    pub timeline: fn(&Trace, &[crate::facade::cc_check::CheckReport], usize) -> String,
}

/// The kernels that ran with no CPU code (`cc_runtime.rs`: a binary nvcc built, run without `--kernels`), the
/// first [`NO_BODY_NAMES`] of them: what the exit summary names as kernels whose accesses are unknown.
static NO_BODY: parking_lot::Mutex<Vec<String>> = parking_lot::Mutex::new(Vec::new());
const NO_BODY_NAMES: usize = 256;

/// Records that kernel `name` ran with no CPU code: `true` the first time it is named (bounded: past
/// [`NO_BODY_NAMES`] names, `false`).
pub(crate) fn kernel_without_body(name: &str) -> bool {
    let mut names = NO_BODY.lock();
    if names.len() >= NO_BODY_NAMES || names.iter().any(|n| n == name) {
        return false;
    }
    names.push(name.to_string());
    true
}

/// How many new race reports machines in `fail` mode have found.
static FAILING_RACES: AtomicU64 = AtomicU64::new(0);
/// How many of those are lifetime reports (use before allocation, use after free).
static FAILING_LIFETIMES: AtomicU64 = AtomicU64::new(0);
/// The exit status when they have (`STREAMSIM_RACES_EXITCODE`).
static EXIT_CODE: AtomicI32 = AtomicI32::new(66);

/// The width of the timeline printed at exit.
const TIMELINE_WIDTH: usize = 100;

/// The race hook of a machine in `print` (or, with `fail`, `fail`) mode: writes each new report to standard
/// error; with `fail`, also counts it for the exit status.
pub(crate) fn race_printer(fail: bool) -> impl Fn(&RaceReport) + Send + Sync + 'static {
    move |r: &RaceReport| {
        if fail {
            FAILING_RACES.fetch_add(1, Ordering::Relaxed);
            if r.kind.is_lifetime() {
                FAILING_LIFETIMES.fetch_add(1, Ordering::Relaxed);
            }
        }
        // One write of the whole report, so that two threads' reports do not interleave; an error writing
        // to standard error is not the program's error.
        let text = format!("streamsim: {}\n", r.text(false));
        let _ = std::io::stderr().write_all(text.as_bytes());
    }
}

/// Sets the exit status of a process whose `fail` machines found races.
pub(crate) fn set_exit_code(code: i32) {
    EXIT_CODE.store(code, Ordering::Relaxed);
}

/// How many races machines in `fail` mode have found so far.
pub(crate) fn failing_races() -> u64 {
    FAILING_RACES.load(Ordering::Relaxed)
}

/// Makes sure the exit actions run at exit: the reference keeps [`AT_EXIT`] in a program linked with the
/// static library (an archive member nothing refers to is left out); elsewhere than Linux, registers them
/// with `atexit` once.
pub(crate) fn arm() {
    std::hint::black_box(&AT_EXIT);
    #[cfg(not(target_os = "linux"))]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        unsafe extern "C" {
            fn atexit(f: extern "C" fn()) -> std::ffi::c_int;
        }
        // SAFETY: atexit takes a function that is valid for the whole program.
        ONCE.call_once(|| unsafe {
            atexit(at_exit);
        });
    }
}

/// The exit actions, run by the C runtime after every `atexit` handler and global destructor.
#[used]
#[cfg_attr(target_os = "linux", unsafe(link_section = ".fini_array"))]
static AT_EXIT: extern "C" fn() = at_exit;

extern "C" fn at_exit() {
    // Nothing may unwind out of here; a bug only loses the exit actions.
    let _ = std::panic::catch_unwind(exit_actions);
}

/// `cuda_code`-like functions for each facade, as plain function pointers.
fn codes(api: Api) -> CodeFn {
    match api {
        Api::Cuda => |e| binding::code_of(Api::Cuda, e),
        Api::Musa => |e| binding::code_of(Api::Musa, e),
        Api::Acl => |e| binding::code_of(Api::Acl, e),
    }
}

fn api_name(api: Api) -> &'static str {
    match api {
        Api::Cuda => "cuda",
        Api::Musa => "musa",
        Api::Acl => "acl",
    }
}

/// `out.json` for one machine; `out.cuda.json`, `out.acl.json` when several default machines write one.
fn trace_path(path: &std::path::Path, api: Api, several: bool) -> std::path::PathBuf {
    if !several {
        return path.to_path_buf();
    }
    let stem = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let name = match path.extension() {
        Some(ext) => format!("{stem}.{}.{}", api_name(api), ext.to_string_lossy()),
        None => format!("{stem}.{}", api_name(api)),
    };
    path.with_file_name(name)
}

fn exit_actions() {
    let exporters = &crate::C_EXPORTERS;
    let defaults = binding::built_defaults();
    let tracing = defaults
        .iter()
        .filter(|(_, d)| d.config.trace.is_some())
        .count();
    let mut err = std::io::stderr();
    // STREAMSIM_CHECK_DETERMINISM (`determinism_check.rs`): the traces of every default machine, in order.
    let check = defaults
        .first()
        .map(|(_, d)| d.config.check.clone())
        .unwrap_or_default();
    let mut traces = String::new();
    for (api, d) in &defaults {
        if !d.config.keeps_trace() {
            continue;
        }
        let machine = d.process.machine();
        if machine.shared.forked_away() {
            // A child forked without exec: the parent's machine is the parent's to report.
            continue;
        }
        machine.drain();
        let trace = machine.trace();
        let checks = crate::facade::cc_check::check_reports();
        if check.on() {
            traces.push_str(&format!("== {} ==\n", api_name(*api)));
            traces.push_str(&(exporters.chrome)(
                &trace,
                &machine.race_reports(),
                &checks,
                codes(*api),
            ));
            traces.push('\n');
        }
        if let Some(path) = &d.config.trace {
            let path = trace_path(path, *api, tracing > 1);
            let json = (exporters.chrome)(&trace, &machine.race_reports(), &checks, codes(*api));
            if let Err(e) = std::fs::write(&path, json) {
                let _ = writeln!(
                    err,
                    "streamsim: cannot write the trace to {}: {e}",
                    path.display()
                );
            }
        }
        if d.config.timeline {
            let text = format!(
                "streamsim: timeline of the {} default machine\n{}",
                api_name(*api),
                (exporters.timeline)(&trace, &checks, TIMELINE_WIDTH)
            );
            let _ = err.write_all(text.as_bytes());
        }
    }
    // The race summary of kernels without CPU code: the detector never saw their accesses.
    let unknown = NO_BODY.lock().clone();
    if !unknown.is_empty()
        && defaults
            .iter()
            .any(|(_, d)| d.config.races != binding::RaceMode::Off)
    {
        let list: Vec<String> = unknown.iter().map(|n| format!("`{n}`")).collect();
        let _ = writeln!(
            err,
            "streamsim: race detection: the accesses of {} kernel{} without CPU code ({}) are unknown, so races with \
             them are not reported (give an nvcc binary its kernels with `streamsim cc --kernels`)",
            unknown.len(),
            if unknown.len() == 1 { "" } else { "s" },
            list.join(", ")
        );
    }
    let diverged = crate::facade::determinism_check::at_exit(&check, &traces);
    let mut races = failing_races();
    // The sanitizer's reports (`cc_check.rs`) count under STREAMSIM_RACES=fail as races do.
    let checks = if defaults
        .iter()
        .any(|(_, d)| d.config.races == binding::RaceMode::Fail)
    {
        crate::facade::cc_check::count()
    } else {
        0
    };
    races += checks;
    let code = EXIT_CODE.load(Ordering::Relaxed);
    if let Some(status) = diverged {
        unsafe extern "C" {
            fn fflush(stream: *mut std::ffi::c_void) -> std::ffi::c_int;
            fn _exit(status: std::ffi::c_int) -> !;
        }
        // SAFETY: as below.
        unsafe {
            fflush(std::ptr::null_mut());
            _exit(status)
        }
    }
    if races > 0 && code != 0 {
        let lifetimes = FAILING_LIFETIMES.load(Ordering::Relaxed);
        let s = |n: u64| if n == 1 { "" } else { "s" };
        let found = if checks > 0 {
            format!(
                "{races} report{}, {checks} of them the sanitizer's,",
                s(races)
            )
        } else if lifetimes == 0 {
            format!("{races} data race{}", s(races))
        } else {
            format!(
                "{races} race report{}, {lifetimes} of them lifetime error{},",
                s(races),
                s(lifetimes)
            )
        };
        let _ = writeln!(
            err,
            "streamsim: {found} found (STREAMSIM_RACES=fail): exit status {code}"
        );
        unsafe extern "C" {
            fn fflush(stream: *mut std::ffi::c_void) -> std::ffi::c_int;
            fn _exit(status: std::ffi::c_int) -> !;
        }
        // SAFETY: fflush(NULL) flushes every C stream (what exit would still do); _exit ends the process
        // with the status, running nothing more.
        unsafe {
            fflush(std::ptr::null_mut());
            _exit(code)
        }
    }
}
