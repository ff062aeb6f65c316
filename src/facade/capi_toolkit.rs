//! The C/C++ user's toolkit of `include/streamsim.h` (re-exported in [`crate::capi`]): machines made with
//! options (race mode, trace), race reports read from C (how many; each as text and as a
//! [`streamsimRaceReport`]), the default machine's handle, and names for streams and events. Writing the
//! Chrome trace on demand (`streamsimMachineWriteTrace`) needs the exporters and is in the tools layer
//! (`src/tools/c_trace.rs`); what happens at exit is in `src/facade/exit.rs`.
//!
//! Strings handed to C (a report's names, stream labels and fix) belong to the machine handle they were read
//! through: valid until `streamsimMachineDestroy` releases that handle. Lock order: the string cache's lock
//! is a leaf, never held while the engine is called.
#![allow(non_camel_case_types, non_snake_case, reason = "the C API's names")]

use std::collections::BTreeMap;
use std::ffi::{CStr, CString, c_char, c_int, c_void};

use parking_lot::Mutex;

use crate::engine::core::error::SimError;
use crate::engine::core::handle::{Event, Stream};
use crate::engine::core::limits::MAX_DEVICES;
use crate::engine::core::pointers::AddressSpace;
use crate::engine::core::races::{Accessor, RaceAccess, RaceKind, RaceReport};
use crate::engine::core::rules::Dialect;
use crate::engine::machine::Machine;
use crate::facade::binding::{self as facade, NoProcess, RaceMode};
use crate::facade::capi::{
    STREAMSIM_DIALECT_ACL, STREAMSIM_DIALECT_CUDA, STREAMSIM_ERROR_CONFIG,
    STREAMSIM_ERROR_INVALID_HANDLE, STREAMSIM_ERROR_INVALID_VALUE, STREAMSIM_ERROR_NOT_PERMITTED,
    streamsimApi, streamsimDialect, streamsimError, streamsimMachine,
};

// ---------------------------------------------------------------------------------------------- types

/// `streamsimRaceMode`: what a machine does about races ([`STREAMSIM_RACES_OFF`] … [`STREAMSIM_RACES_FAIL`]).
pub type streamsimRaceMode = c_int;

/// `STREAMSIM_RACES_OFF`: no race detection (`STREAMSIM_RACES=off`).
pub const STREAMSIM_RACES_OFF: streamsimRaceMode = 0;
/// `STREAMSIM_RACES_COLLECT`: reports are collected silently (`STREAMSIM_RACES=collect`).
pub const STREAMSIM_RACES_COLLECT: streamsimRaceMode = 1;
/// `STREAMSIM_RACES_PRINT`: each new report is written to standard error as it is found
/// (`STREAMSIM_RACES=print`, the default machines' default).
pub const STREAMSIM_RACES_PRINT: streamsimRaceMode = 2;
/// `STREAMSIM_RACES_FAIL`: as `PRINT`, and at exit the process exits with `STREAMSIM_RACES_EXITCODE` (66) if
/// any race was found (`STREAMSIM_RACES=fail`).
pub const STREAMSIM_RACES_FAIL: streamsimRaceMode = 3;

/// `STREAMSIM_ACCESSOR_OPERATION`: an access made by an operation on a stream (kernel, copy, memset).
pub const STREAMSIM_ACCESSOR_OPERATION: c_int = 0;
/// `STREAMSIM_ACCESSOR_HOST`: an access made by a host thread.
pub const STREAMSIM_ACCESSOR_HOST: c_int = 1;

/// `STREAMSIM_MEMORY_DEVICE`: device memory.
pub const STREAMSIM_MEMORY_DEVICE: c_int = 0;
/// `STREAMSIM_MEMORY_PINNED_HOST`: pinned host memory (`cudaMallocHost`, `aclrtMallocHost`).
pub const STREAMSIM_MEMORY_PINNED_HOST: c_int = 1;

/// `STREAMSIM_RACE_DATA`: two accesses to the same bytes, at least one a write, neither ordered before the other.
pub const STREAMSIM_RACE_DATA: c_int = 0;
/// `STREAMSIM_RACE_USE_BEFORE_ALLOC`: an access not ordered after the stream-ordered allocation of its memory
/// (`first` is the allocation, operation `alloc`).
pub const STREAMSIM_RACE_USE_BEFORE_ALLOC: c_int = 1;
/// `STREAMSIM_RACE_USE_AFTER_FREE`: an access not ordered before the free of its memory (`second` is the free,
/// operation `free`), or made after the free (`first` is the free).
pub const STREAMSIM_RACE_USE_AFTER_FREE: c_int = 2;

/// `streamsimMachineOptions`: how [`streamsimMachineCreateWithOptions`] builds a machine. Fill it with
/// [`streamsimMachineOptionsInit`] first, then set what differs.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct streamsimMachineOptions {
    /// Whose semantics (default [`STREAMSIM_DIALECT_CUDA`]).
    pub dialect: streamsimDialect,
    /// How many devices, 0 to 1024 (default 1).
    pub devices: u32,
    /// The seed (default 0).
    pub seed: u64,
    /// What to do about races (default [`STREAMSIM_RACES_PRINT`]).
    pub races: streamsimRaceMode,
    /// Non-zero: keep a trace, for `streamsimMachineWriteTrace` (default 0: none, so that a long-running
    /// program does not grow).
    pub trace: c_int,
}

/// `streamsimRaceAccess`: one side of a race report.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct streamsimRaceAccess {
    /// [`STREAMSIM_ACCESSOR_OPERATION`] or [`STREAMSIM_ACCESSOR_HOST`].
    pub accessor: c_int,
    /// 1 if it wrote, 0 if it read.
    pub wrote: c_int,
    /// `kernel`, `memcpy`, `memset`; for a host thread, the call (`host_write`).
    pub operation: *const c_char,
    /// The kernel's name, or the copy's / memset's call (`memcpy_async`); NULL for a host thread.
    pub name: *const c_char,
    /// The stream as reports write it (`` stream `copy` ``, `stream 2`); NULL for a host thread.
    pub stream: *const c_char,
    /// The name given to the stream with `streamsimNameStream`; NULL if none (or a host thread).
    pub streamName: *const c_char,
    /// The stream's device (`UINT32_MAX` for a host thread).
    pub device: u32,
    /// The process's ordinal.
    pub process: u32,
    /// The host thread's ordinal (`UINT32_MAX` for an operation).
    pub thread: u32,
    /// The operation's position in its stream, from 1, as in the trace (0 for a host thread).
    pub seq: u64,
}

/// `streamsimRaceReport`: a race report as a struct (see [`streamsimMachineGetRace`]).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct streamsimRaceReport {
    /// The earlier access in program order.
    pub first: streamsimRaceAccess,
    /// The later access, which completed the race.
    pub second: streamsimRaceAccess,
    /// The allocation's number in its memory, in allocation order (1 is the first).
    pub allocation: u64,
    /// The first byte both touch, from the start of the allocation.
    pub offset: u64,
    /// How many bytes both touch.
    pub bytes: u64,
    /// How many times this pair raced (the report is kept once).
    pub occurrences: u64,
    /// [`STREAMSIM_MEMORY_DEVICE`] or [`STREAMSIM_MEMORY_PINNED_HOST`].
    pub memory: c_int,
    /// The device of device memory (`UINT32_MAX` for pinned host memory).
    pub memoryDevice: u32,
    /// The one-line fix.
    pub fix: *const c_char,
    /// [`STREAMSIM_RACE_DATA`], [`STREAMSIM_RACE_USE_BEFORE_ALLOC`] or [`STREAMSIM_RACE_USE_AFTER_FREE`].
    pub kind: c_int,
}

// ---------------------------------------------------------------------------------------------- helpers

/// A C string from text that may contain NULs.
fn c_string(s: &str) -> CString {
    CString::new(s.replace('\0', " ")).expect("NULs replaced")
}

/// The strings of one report, kept for C.
struct ReportStrings {
    sides: [[Option<CString>; 4]; 2],
    fix: CString,
}

/// Handle → report index → its strings.
static STRINGS: Mutex<BTreeMap<u64, BTreeMap<usize, ReportStrings>>> = Mutex::new(BTreeMap::new());

/// Releases the strings read through a machine handle (called by `streamsimMachineDestroy`).
pub(crate) fn forget_machine(handle: u64) {
    let gone = STRINGS.lock().remove(&handle);
    drop(gone);
}

fn side_strings(a: &RaceAccess) -> [Option<CString>; 4] {
    match &a.who {
        Accessor::Op {
            kind,
            label,
            stream_name,
            ..
        } => [
            Some(c_string(kind)),
            Some(c_string(label)),
            a.who.stream_label().map(|s| c_string(&s)),
            stream_name.as_deref().map(c_string),
        ],
        Accessor::Host { call, .. } => [Some(c_string(call)), None, None, None],
    }
}

fn ptr(s: &Option<CString>) -> *const c_char {
    s.as_ref().map_or(std::ptr::null(), |s| s.as_ptr())
}

fn side_struct(a: &RaceAccess, s: &[Option<CString>; 4]) -> streamsimRaceAccess {
    let (accessor, device, thread) = match &a.who {
        Accessor::Op { stream, .. } => (STREAMSIM_ACCESSOR_OPERATION, stream.device, u32::MAX),
        Accessor::Host { thread, .. } => (STREAMSIM_ACCESSOR_HOST, u32::MAX, *thread),
    };
    streamsimRaceAccess {
        accessor,
        wrote: c_int::from(a.write),
        operation: ptr(&s[0]),
        name: ptr(&s[1]),
        stream: ptr(&s[2]),
        streamName: ptr(&s[3]),
        device,
        process: a.who.process().0,
        thread,
        seq: a.seq.unwrap_or(0),
    }
}

fn report_struct(r: &RaceReport, s: &ReportStrings) -> streamsimRaceReport {
    let (memory, memoryDevice) = match r.space {
        AddressSpace::Device(d) => (STREAMSIM_MEMORY_DEVICE, d),
        _ => (STREAMSIM_MEMORY_PINNED_HOST, u32::MAX),
    };
    streamsimRaceReport {
        first: side_struct(&r.first, &s.sides[0]),
        second: side_struct(&r.second, &s.sides[1]),
        allocation: r.allocation,
        offset: r.offset,
        bytes: r.bytes,
        occurrences: r.occurrences,
        memory,
        memoryDevice,
        fix: s.fix.as_ptr(),
        kind: c_kind(r.kind),
    }
}

/// A race kind's C constant (`STREAMSIM_RACE_*` in `include/streamsim.h`).
fn c_kind(kind: RaceKind) -> c_int {
    match kind {
        RaceKind::Data => STREAMSIM_RACE_DATA,
        RaceKind::UseBeforeAlloc => STREAMSIM_RACE_USE_BEFORE_ALLOC,
        RaceKind::UseAfterFree => STREAMSIM_RACE_USE_AFTER_FREE,
    }
}

/// The machine of a handle, and report `index` of it.
fn report_of(machine: streamsimMachine, index: usize) -> Result<RaceReport, streamsimError> {
    let m = crate::facade::capi::machine(machine)?;
    m.race_report(index).ok_or(STREAMSIM_ERROR_INVALID_VALUE)
}

/// Runs a `streamsim*` body (refused inside host functions and kernel bodies, panics contained).
fn run(f: impl FnOnce() -> Result<(), streamsimError>) -> streamsimError {
    crate::facade::capi::run(f)
}

/// Writes through an out-pointer, or fails with [`STREAMSIM_ERROR_INVALID_VALUE`] if it is NULL.
///
/// # Safety
/// `out` is NULL or valid for a write.
unsafe fn out<T>(out: *mut T, value: T) -> Result<(), streamsimError> {
    // SAFETY: forwarded contract.
    if unsafe { facade::put(out, value) } {
        Ok(())
    } else {
        Err(STREAMSIM_ERROR_INVALID_VALUE)
    }
}

// ---------------------------------------------------------------------------------------------- machines

/// `streamsimMachineOptionsInit`: fills `options` with the defaults: CUDA, 1 device, seed 0, races printed
/// ([`STREAMSIM_RACES_PRINT`]), no trace.
///
/// # Safety
/// `options` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn streamsimMachineOptionsInit(
    options: *mut streamsimMachineOptions,
) -> streamsimError {
    run(|| {
        let defaults = streamsimMachineOptions {
            dialect: STREAMSIM_DIALECT_CUDA,
            devices: 1,
            seed: 0,
            races: STREAMSIM_RACES_PRINT,
            trace: 0,
        };
        // SAFETY: C contract.
        unsafe { out(options, defaults) }
    })
}

/// `streamsimMachineCreateWithOptions`: a new machine as `options` say (see [`streamsimMachineOptions`]);
/// every pair of devices linked for peer access, the default cost model. [`STREAMSIM_ERROR_INVALID_VALUE`]
/// for NULL pointers, an unknown dialect or race mode, more than 1024 devices; with
/// [`STREAMSIM_RACES_FAIL`], [`STREAMSIM_ERROR_CONFIG`] if `STREAMSIM_RACES_EXITCODE` is not an exit status.
///
/// # Safety
/// `machine` is NULL or valid for a write; `options` is NULL or valid for a read.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn streamsimMachineCreateWithOptions(
    machine: *mut streamsimMachine,
    options: *const streamsimMachineOptions,
) -> streamsimError {
    run(|| {
        if machine.is_null() || options.is_null() || !options.is_aligned() {
            return Err(STREAMSIM_ERROR_INVALID_VALUE);
        }
        // SAFETY: non-NULL, aligned, and valid for a read by the C contract.
        let o = unsafe { options.read() };
        if o.devices > MAX_DEVICES {
            return Err(STREAMSIM_ERROR_INVALID_VALUE);
        }
        let dialect = match o.dialect {
            STREAMSIM_DIALECT_CUDA => Dialect::Cuda,
            STREAMSIM_DIALECT_ACL => Dialect::Acl,
            _ => return Err(STREAMSIM_ERROR_INVALID_VALUE),
        };
        let mode = match o.races {
            STREAMSIM_RACES_OFF => RaceMode::Off,
            STREAMSIM_RACES_COLLECT => RaceMode::Collect,
            STREAMSIM_RACES_PRINT => RaceMode::Print,
            STREAMSIM_RACES_FAIL => RaceMode::Fail,
            _ => return Err(STREAMSIM_ERROR_INVALID_VALUE),
        };
        if mode == RaceMode::Fail {
            let code = facade::env_race_exit_code().map_err(|msg| {
                let _ = std::io::Write::write_all(
                    &mut std::io::stderr(),
                    format!("{msg}\n").as_bytes(),
                );
                STREAMSIM_ERROR_CONFIG
            })?;
            crate::facade::exit::set_exit_code(code);
        }
        let builder = Machine::builder()
            .devices(o.devices)
            .seed(o.seed)
            .dialect(dialect);
        let m = facade::c_machine(builder, mode, o.trace != 0)
            .map_err(|_| STREAMSIM_ERROR_INVALID_VALUE)?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(machine, crate::facade::capi::add_machine(m)) }
    })
}

/// `streamsimDefaultMachine`: a new handle of the machine that `api`'s calls go to when nothing is bound
/// (built on first use from the environment; [`STREAMSIM_ERROR_CONFIG`] if it cannot be). Release it with
/// `streamsimMachineDestroy`.
///
/// # Safety
/// `machine` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn streamsimDefaultMachine(
    machine: *mut streamsimMachine,
    api: streamsimApi,
) -> streamsimError {
    run(|| {
        let api = crate::facade::capi::api(api)?;
        if machine.is_null() {
            return Err(STREAMSIM_ERROR_INVALID_VALUE);
        }
        let p = facade::default_process(api).map_err(|_| STREAMSIM_ERROR_CONFIG)?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(machine, crate::facade::capi::add_machine(p.machine())) }
    })
}

// ---------------------------------------------------------------------------------------------- races

/// `streamsimMachineGetRaceCount`: how many race reports the machine holds (each pair of accesses once, in
/// the order found; 0 with races off).
///
/// # Safety
/// `count` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn streamsimMachineGetRaceCount(
    machine: streamsimMachine,
    count: *mut usize,
) -> streamsimError {
    run(|| {
        let m = crate::facade::capi::machine(machine)?;
        // SAFETY: C contract.
        unsafe { out(count, m.race_count()) }
    })
}

/// `streamsimMachineGetRaceText`: report `index` (from 0) as the text `print` mode writes, without the
/// `streamsim: ` prefix. Like `snprintf`: writes at most `size - 1` bytes and a NUL to `buffer` (nothing if
/// `size` is 0; `buffer` may then be NULL), and the text's full length, without the NUL, to `length` if it
/// is not NULL. [`STREAMSIM_ERROR_INVALID_VALUE`] for an index past the last report.
///
/// # Safety
/// `buffer` is NULL or valid for `size` bytes; `length` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn streamsimMachineGetRaceText(
    machine: streamsimMachine,
    index: usize,
    buffer: *mut c_char,
    size: usize,
    length: *mut usize,
) -> streamsimError {
    run(|| {
        let text = report_of(machine, index)?.text(false);
        let bytes = text.as_bytes();
        if size > 0 {
            if buffer.is_null() {
                return Err(STREAMSIM_ERROR_INVALID_VALUE);
            }
            let n = bytes.len().min(size - 1);
            // SAFETY: `buffer` is valid for `size` > n bytes by the C contract.
            unsafe {
                std::ptr::copy_nonoverlapping(bytes.as_ptr().cast::<c_char>(), buffer, n);
                buffer.add(n).write(0);
            }
        }
        if !length.is_null() {
            // SAFETY: non-NULL; C contract.
            unsafe { length.write(bytes.len()) };
        }
        Ok(())
    })
}

/// `streamsimMachineGetRace`: report `index` (from 0) as a struct. Its strings stay valid until this machine
/// handle is released. [`STREAMSIM_ERROR_INVALID_VALUE`] for an index past the last report or a NULL
/// `report`.
///
/// # Safety
/// `report` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn streamsimMachineGetRace(
    machine: streamsimMachine,
    index: usize,
    report: *mut streamsimRaceReport,
) -> streamsimError {
    run(|| {
        let r = report_of(machine, index)?;
        if report.is_null() {
            return Err(STREAMSIM_ERROR_INVALID_VALUE);
        }
        let mut strings = STRINGS.lock();
        let kept = strings
            .entry(machine as usize as u64)
            .or_default()
            .entry(index)
            .or_insert_with(|| ReportStrings {
                sides: [side_strings(&r.first), side_strings(&r.second)],
                fix: c_string(&r.fix()),
            });
        let value = report_struct(&r, kept);
        drop(strings);
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(report, value) }
    })
}

// ---------------------------------------------------------------------------------------------- names

/// The name argument: NULL or empty removes the name.
///
/// # Safety
/// `name` is NULL or NUL-terminated.
unsafe fn name_arg(name: *const c_char) -> String {
    if name.is_null() {
        return String::new();
    }
    // SAFETY: NUL-terminated by the C contract.
    unsafe { CStr::from_ptr(name) }
        .to_string_lossy()
        .into_owned()
}

/// The code of a naming call's error.
fn name_error(e: &SimError) -> streamsimError {
    match e {
        SimError::InvalidHandle { .. } => STREAMSIM_ERROR_INVALID_HANDLE,
        SimError::NotPermitted { .. } => STREAMSIM_ERROR_NOT_PERMITTED,
        _ => STREAMSIM_ERROR_INVALID_VALUE,
    }
}

/// Names `object` in the process `api`'s calls go to.
fn name_in(
    api: streamsimApi,
    f: impl FnOnce(&crate::engine::process::Process) -> Result<(), SimError>,
) -> streamsimError {
    run(|| {
        let api = crate::facade::capi::api(api)?;
        let p = facade::process(api).map_err(|e| match e {
            NoProcess::Config(_) => STREAMSIM_ERROR_CONFIG,
            NoProcess::WrongDialect(_) => STREAMSIM_ERROR_INVALID_VALUE,
        })?;
        f(&p).map_err(|e| name_error(&e))
    })
}

/// `streamsimNameStream`: gives `stream` (a `cudaStream_t`, `musaStream_t` or `aclrtStream` of the process
/// `api`'s calls go to; NULL is the default stream) a name that race reports, the trace and the timeline
/// show (`` stream `copy stream` ``); NULL or "" removes it. Not a runtime call: the virtual clock does not
/// move and the last error is not touched. [`STREAMSIM_ERROR_INVALID_HANDLE`] for a destroyed, foreign or
/// garbage stream; [`STREAMSIM_ERROR_INVALID_VALUE`] for an ACL NULL stream without a current context.
///
/// # Safety
/// `name` is NULL or NUL-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn streamsimNameStream(
    api: streamsimApi,
    stream: *mut c_void,
    name: *const c_char,
) -> streamsimError {
    // SAFETY: forwarded C contract.
    let name = unsafe { name_arg(name) };
    name_in(api, |p| {
        p.name_stream(Stream::from_raw(stream as usize as u64), &name)
    })
}

/// `streamsimNameEvent`: gives `event` (a `cudaEvent_t`, `musaEvent_t` or `aclrtEvent` of the process
/// `api`'s calls go to) a name that race reports, the trace and the timeline show (`` event `done` ``);
/// NULL or "" removes it. Not a runtime call. [`STREAMSIM_ERROR_INVALID_HANDLE`] for a NULL, destroyed,
/// foreign or garbage event.
///
/// # Safety
/// `name` is NULL or NUL-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn streamsimNameEvent(
    api: streamsimApi,
    event: *mut c_void,
    name: *const c_char,
) -> streamsimError {
    // SAFETY: forwarded C contract.
    let name = unsafe { name_arg(name) };
    name_in(api, |p| {
        p.name_event(Event::from_raw(event as usize as u64), &name)
    })
}

/// `streamsimHostSleep`: the calling thread of the process `api`'s calls go to spends `ns` nanoseconds outside
/// the runtime: its virtual clock moves by `ns` (what `sleep_for` or host computation takes on hardware; nothing
/// sleeps in real time). Not a runtime call: the last error is not touched.
#[unsafe(no_mangle)]
pub extern "C" fn streamsimHostSleep(api: streamsimApi, ns: u64) -> streamsimError {
    name_in(api, |p| {
        p.host_sleep(std::time::Duration::from_nanos(ns));
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every race kind of the one list ([`RaceKind::ALL`]) has its own C constant, defined in
    /// `include/streamsim.h` under the kind's name with the value the C API reports.
    #[test]
    fn every_race_kind_has_its_c_constant_in_the_header() {
        let header = include_str!("../../include/streamsim.h");
        let mut seen = std::collections::BTreeSet::new();
        for &kind in RaceKind::ALL {
            let mut name = String::from("STREAMSIM_RACE");
            for ch in format!("{kind:?}").chars() {
                if ch.is_ascii_uppercase() {
                    name.push('_');
                }
                name.push(ch.to_ascii_uppercase());
            }
            let define = format!("#define {name} {}", c_kind(kind));
            assert!(
                header
                    .lines()
                    .any(|l| l.starts_with(&(define.clone() + " "))),
                "include/streamsim.h lacks `{define}`"
            );
            assert!(seen.insert(c_kind(kind)), "{kind:?} shares its C constant");
        }
        assert!(!seen.is_empty());
    }
}
