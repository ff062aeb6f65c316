//! The scenario parser: text → [`Scenario`], or a [`ParseError`] with line, column, what was expected and
//! what was found. It never panics, whatever the input (a property test feeds it random text).
//!
//! Lines are split into whitespace-separated words; `#` starts a comment. Names are checked here, not at run
//! time: a name must be declared on an earlier line (`stream s1`, `event e1`, `malloc buf 4096`, ...) and be
//! of the kind the statement needs. So is the dialect: the `dialect` line comes before the first call, and a
//! statement or word that the dialect's runtime does not have (`context` in CUDA, `legacy` in ACL, CUDA's event
//! flags in ACL) is refused with what the dialect offers instead.

use std::collections::BTreeMap;

use super::ast::{EventCall, Scenario, Statement, Stmt, StreamRef, Target, Vendor};
pub use super::lex::ParseError;
use super::lex::{Line, Tok, is_identifier, parse_duration, parse_i64, parse_size, parse_u64};
pub(super) use super::names::{Kind, Names, other_dialect};

/// Words that cannot be names.
pub(super) const RESERVED: &[&str] = &["default", "legacy", "device", "on", "reads", "writes"];

const COMMANDS: &str = "a command (dialect, devices, seed, engines, process, set-device, get-device, get-device-count, \
     stream, event, malloc, malloc-host, pageable, free, destroy, kernel, memcpy, memcpy-async, memset, \
     memset-async, host-fn, record, wait, query, sync, elapsed, get-last-error, peek-last-error, \
     can-access-peer, enable-peer-access, disable-peer-access, ipc-get-event-handle, ipc-open-event-handle, \
     reset-device, faulty-kernel, begin-capture, end-capture, capture-info, capture-mode, graph-launch; CUDA \
     and MUSA also set-device-flags, get-device-flags, instantiate, graph-dot; ACL also context, \
     set-context, reset-device-force, failure-mode, op-wait-timeout, notify, record-notify, wait-notify, \
     value-write, value-wait, subscribe, unsubscribe, callback, process-report; stream-ordered memory: mem-pool, \
     malloc-async, free-async, pool-set, pool-get, trim-pool, sleep; CUDA and MUSA also default-pool, \
     set-device-pool)";

/// Statements that only the ACL dialect has.
const ACL_ONLY: &[&str] = &[
    "context",
    "set-context",
    "reset-device-force",
    "failure-mode",
    "op-wait-timeout",
    "notify",
    "record-notify",
    "wait-notify",
    "value-write",
    "value-wait",
    "subscribe",
    "unsubscribe",
    "callback",
    "process-report",
];

pub(super) fn number<T>(
    line: &mut Line<'_>,
    expected: &str,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<T, ParseError> {
    let t = line.next(expected)?;
    parse(t.text).ok_or_else(|| line.error_at(Some(t), expected, None))
}

const SIZE: &str = "a size such as `4096`, `64KiB` or `1MiB`";

/// `engines off` or `engines [copy-engines N] [kernel-slots N]` (at least one word).
fn engines_stmt(line: &mut Line<'_>) -> Result<Stmt, ParseError> {
    let expected = "`off`, `copy-engines N` or `kernel-slots N`";
    let mut e = crate::tools::scenario::ast::Engines::default();
    if line.eat("off") {
        e.off = true;
        return Ok(Stmt::Engines(e));
    }
    if line.peek().is_none() {
        line.next(expected)?;
    }
    while let Some(t) = line.peek() {
        line.pos += 1;
        match t.text {
            "copy-engines" => {
                e.copy_engines = Some(number(line, "a copy engine count (0 to 64)", |s| {
                    parse_u64(s).filter(|&n| n <= 64).map(|n| n as u32)
                })?);
            }
            "kernel-slots" => {
                e.kernel_slots = Some(number(line, "a kernel slot count (1 to 65536)", |s| {
                    parse_u64(s)
                        .filter(|&n| (1..=65536).contains(&n))
                        .map(|n| n as u32)
                })?);
            }
            _ => return Err(line.error_at(Some(t), expected, None)),
        }
    }
    Ok(Stmt::Engines(e))
}

/// An optional size: present if the next word starts with a digit.
fn opt_size(line: &mut Line<'_>) -> Result<Option<u64>, ParseError> {
    match line.peek() {
        Some(t) if t.text.starts_with(|c: char| c.is_ascii_digit()) => {
            number(line, SIZE, parse_size).map(Some)
        }
        _ => Ok(None),
    }
}

pub(super) fn kernel(names: &Names, line: &mut Line<'_>) -> Result<Stmt, ParseError> {
    let expected_name = "a kernel name (letters, digits, `_ : < > . -`)";
    let kname = line.next(expected_name)?;
    let ok = kname
        .text
        .starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && kname
            .text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_:<>.-".contains(c))
        && !RESERVED.contains(&kname.text);
    if !ok {
        return Err(line.error_at(Some(kname), expected_name, None));
    }
    let mut stream = None;
    let mut duration = None;
    let (mut reads, mut writes) = (Vec::new(), Vec::new());
    let clause =
        "`on STREAM`, a duration such as `200us`, `reads BUF...`, `writes BUF...` or end of line";
    while let Some(t) = line.peek() {
        match t.text {
            "on" if stream.is_none() => {
                line.pos += 1;
                stream = Some(names.stream(line)?);
            }
            "reads" | "writes" => {
                line.pos += 1;
                let list = if t.text == "reads" {
                    &mut reads
                } else {
                    &mut writes
                };
                list.push(names.use_name(line, &[Kind::Device])?);
                while let Some(n) = line.peek() {
                    if RESERVED.contains(&n.text) || !is_identifier(n.text) {
                        break;
                    }
                    list.push(names.use_name(line, &[Kind::Device])?);
                }
            }
            text if duration.is_none()
                && text.starts_with(|c: char| c.is_ascii_digit() || c == '.') =>
            {
                line.pos += 1;
                duration = Some(parse_duration(text).ok_or_else(|| {
                    line.error_at(
                        Some(t),
                        "a duration such as `200us`, `1.5ms` or `800ns` (units: ns, us, µs, ms, s)",
                        None,
                    )
                })?);
            }
            _ => return Err(line.error_at(Some(t), clause, None)),
        }
    }
    Ok(Stmt::Kernel {
        name: kname.text.to_string(),
        stream: stream.unwrap_or(StreamRef::Default),
        duration,
        reads,
        writes,
    })
}

/// `flags N` after the word `flags`.
fn flags_value(line: &mut Line<'_>, example: &str) -> Result<u32, ParseError> {
    number(
        line,
        &format!("flags (an integer such as `{example}`)"),
        |s| parse_u64(s).and_then(|v| u32::try_from(v).ok()),
    )
}

/// `stream NAME ...`: CUDA's flags and priority, or ACL's priority.
fn stream_stmt(names: &mut Names, line: &mut Line<'_>) -> Result<Stmt, ParseError> {
    let name = names.declare(line, Kind::Stream)?;
    let (mut flags, mut priority) = (0u32, None);
    let acl = names.vendor.is_acl();
    let expected = if acl {
        "`priority P` or end of line"
    } else {
        "`non-blocking`, `blocking`, `priority P`, `flags N` or end of line"
    };
    while let Some(t) = line.peek() {
        line.pos += 1;
        match t.text {
            "non-blocking" | "blocking" | "flags" if acl => {
                return Err(line.error_at(
                    Some(t),
                    expected,
                    other_dialect(
                        t,
                        names.vendor,
                        "ACL streams never synchronize with a default stream",
                    ),
                ));
            }
            "non-blocking" => flags |= 1,
            "blocking" => {}
            "priority" => {
                let p = number(line, "a priority (an integer)", parse_i64)?;
                priority = Some(p.clamp(i32::MIN.into(), i32::MAX.into()) as i32);
            }
            "flags" => flags |= flags_value(line, "0x1")?,
            _ => return Err(line.error_at(Some(t), expected, None)),
        }
    }
    Ok(Stmt::Stream {
        name,
        flags,
        priority,
    })
}

/// CUDA's event flag words and their bits.
const CUDA_EVENT_FLAGS: &[(&str, u32)] = &[
    ("blocking-sync", 0x1),
    ("disable-timing", 0x2),
    ("interprocess", 0x4),
];

/// ACL's event flag words and their bits (`ACL_EVENT_*`).
const ACL_EVENT_FLAGS: &[(&str, u32)] = &[
    ("sync", crate::facade::acl::ACL_EVENT_SYNC),
    (
        "capture-stream-progress",
        crate::facade::acl::ACL_EVENT_CAPTURE_STREAM_PROGRESS,
    ),
    ("time-line", crate::facade::acl::ACL_EVENT_TIME_LINE),
    (
        "device-use-only",
        crate::facade::acl::ACL_EVENT_DEVICE_USE_ONLY,
    ),
    ("external", crate::facade::acl::ACL_EVENT_EXTERNAL),
    ("ipc", crate::facade::acl::ACL_EVENT_IPC),
];

/// `event NAME ...`: CUDA's flag words, or ACL's (`ex` picks `aclrtCreateEventExWithFlag`; any flag picks
/// `aclrtCreateEventWithFlag`; none is `aclrtCreateEvent`).
fn event_stmt(names: &mut Names, line: &mut Line<'_>) -> Result<Stmt, ParseError> {
    let name = names.declare(line, Kind::Event)?;
    let acl = names.vendor.is_acl();
    let (own, other) = if acl {
        (ACL_EVENT_FLAGS, CUDA_EVENT_FLAGS)
    } else {
        (CUDA_EVENT_FLAGS, ACL_EVENT_FLAGS)
    };
    let expected = if acl {
        "`ex`, `sync`, `time-line`, `ipc`, `external`, `capture-stream-progress`, `device-use-only`, \
         `flags N` or end of line"
    } else {
        "`blocking-sync`, `disable-timing`, `interprocess`, `flags N` or end of line"
    };
    let (mut flags, mut call) = (0u32, EventCall::Create);
    while let Some(t) = line.peek() {
        line.pos += 1;
        if let Some(&(_, bit)) = own.iter().find(|(w, _)| *w == t.text) {
            flags |= bit;
            if call == EventCall::Create && acl {
                call = EventCall::WithFlag;
            }
            continue;
        }
        match t.text {
            "default" if !acl => {}
            "ex" if acl => call = EventCall::ExWithFlag,
            "flags" => {
                flags |= flags_value(line, if acl { "0x9" } else { "0x2" })?;
                if call == EventCall::Create && acl {
                    call = EventCall::WithFlag;
                }
            }
            w if other.iter().any(|(o, _)| *o == w) || (w == "ex" && !acl) => {
                return Err(line.error_at(
                    Some(t),
                    expected,
                    other_dialect(t, names.vendor, "it is an event flag of the other dialect"),
                ));
            }
            _ => return Err(line.error_at(Some(t), expected, None)),
        }
    }
    Ok(Stmt::Event { name, flags, call })
}

/// `timeout MS` (ACL's `timeoutMs`, an `int32_t`; `-1` waits forever), if present: `MS` is an integer,
/// optionally written with `ms`.
fn timeout(names: &Names, line: &mut Line<'_>, target: &Target) -> Result<Option<i32>, ParseError> {
    let Some(t) = line.peek().filter(|t| t.text == "timeout") else {
        return Ok(None);
    };
    if !names.vendor.is_acl() {
        return Err(line.error_at(
            Some(t),
            "end of line",
            other_dialect(t, names.vendor, "timeouts are ACL's *WithTimeout calls"),
        ));
    }
    if matches!(target, Target::Device) {
        return Err(line.error_at(
            Some(t),
            "end of line",
            Some("`timeout` (aclrtSynchronizeDevice has no timeout)".into()),
        ));
    }
    line.pos += 1;
    let expected = "a timeout in milliseconds such as `10`, `10ms` or `-1` (forever)";
    number(line, expected, |s| {
        parse_i64(s.strip_suffix("ms").unwrap_or(s)).and_then(|v| i32::try_from(v).ok())
    })
    .map(Some)
}

/// `set-device-flags FLAG... [flags N]`: the words OR-ed into cudaSetDeviceFlags' argument (which the runtime
/// validates: at most one schedule word).
fn device_flags_stmt(line: &mut Line<'_>) -> Result<Stmt, ParseError> {
    let expected = "a device flag (`auto`, `spin`, `yield`, `blocking-sync`, `map-host`, `lmem-resize-to-max`, \
                    `sync-memops`) or `flags N`";
    let mut flags = 0u32;
    if line.peek().is_none() {
        return Err(line.error_at(None, expected, None));
    }
    while let Some(t) = line.peek() {
        line.pos += 1;
        flags |= match t.text {
            "auto" => 0x00,
            "spin" => 0x01,
            "yield" => 0x02,
            "blocking-sync" => 0x04,
            "map-host" => 0x08,
            "lmem-resize-to-max" => 0x10,
            "sync-memops" => 0x80,
            "flags" => flags_value(line, "4")?,
            _ => return Err(line.error_at(Some(t), expected, None)),
        };
    }
    Ok(Stmt::SetDeviceFlags(flags))
}

const BUFFERS: &[Kind] = &[Kind::Device, Kind::Pinned, Kind::Pageable];

fn statement(names: &mut Names, line: &mut Line<'_>, cmd: Tok<'_>) -> Result<Stmt, ParseError> {
    let device_number = "a device number";
    let acl = names.vendor.is_acl();
    let dialect_command = format!("a command of dialect {}", names.vendor.keyword());
    if !acl && ACL_ONLY.contains(&cmd.text) {
        return Err(line.error_at(
            Some(cmd),
            &dialect_command,
            other_dialect(cmd, names.vendor, "write `dialect acl` first"),
        ));
    }
    let stmt = match cmd.text {
        "dialect" => {
            let t = line.next("a dialect: `cuda`, `musa` or `acl`")?;
            let v = match t.text {
                "cuda" => Vendor::Cuda,
                "musa" => Vendor::Musa,
                "acl" => Vendor::Acl,
                _ => {
                    return Err(line.error_at(Some(t), "a dialect: `cuda`, `musa` or `acl`", None));
                }
            };
            names.vendor = v;
            Stmt::Dialect(v)
        }
        "devices" => {
            // 0 is a machine without devices, as STREAMSIM_DEVICES=0 makes the facades' default machine.
            let expected = "a device count from 0 to 1024";
            Stmt::Devices(number(line, expected, |s| {
                parse_u64(s)
                    .filter(|&n| n <= u64::from(crate::engine::core::limits::MAX_DEVICES))
                    .map(|n| n as u32)
            })?)
        }
        "seed" => Stmt::Seed(number(line, "a seed (an unsigned integer)", parse_u64)?),
        "engines" => engines_stmt(line)?,
        "process" => Stmt::Process(names.declare(line, Kind::Process)?),
        "set-device" => Stmt::SetDevice(number(line, device_number, parse_i64)?),
        "get-device" => Stmt::GetDevice,
        "get-device-count" => Stmt::GetDeviceCount,
        "stream" => stream_stmt(names, line)?,
        "event" => event_stmt(names, line)?,
        "malloc" | "malloc-host" | "pageable" => {
            let kind = match cmd.text {
                "malloc" => Kind::Device,
                "malloc-host" => Kind::Pinned,
                _ => Kind::Pageable,
            };
            let name = names.declare(line, kind)?;
            let bytes = number(line, SIZE, parse_size)?;
            match kind {
                Kind::Device => Stmt::Malloc { name, bytes },
                Kind::Pinned => Stmt::MallocHost { name, bytes },
                _ => Stmt::Pageable { name, bytes },
            }
        }
        "free" => Stmt::Free(names.use_name(line, BUFFERS)?),
        "destroy" => {
            let kinds: &[Kind] = if acl {
                &[
                    Kind::Stream,
                    Kind::Event,
                    Kind::Context,
                    Kind::Notify,
                    Kind::GraphExec,
                    Kind::Pool,
                ]
            } else {
                &[
                    Kind::Stream,
                    Kind::Event,
                    Kind::Graph,
                    Kind::GraphExec,
                    Kind::Pool,
                ]
            };
            Stmt::Destroy(names.use_name(line, kinds)?)
        }
        "kernel" => kernel(names, line)?,
        "memcpy" | "memcpy-async" => {
            let dst = names.use_name(line, BUFFERS)?;
            let src = names.use_name(line, BUFFERS)?;
            let bytes = opt_size(line)?;
            let stream = if cmd.text == "memcpy-async" {
                Some(names.on_stream(line)?)
            } else {
                None
            };
            Stmt::Memcpy {
                dst,
                src,
                bytes,
                stream,
            }
        }
        "memset" | "memset-async" => {
            let buf = names.use_name(line, &[Kind::Device])?;
            let value = number(line, "a byte value from 0 to 255", |s| {
                parse_u64(s).and_then(|v| u8::try_from(v).ok())
            })?;
            let bytes = opt_size(line)?;
            let stream = if cmd.text == "memset-async" {
                Some(names.on_stream(line)?)
            } else {
                None
            };
            Stmt::Memset {
                buf,
                value,
                bytes,
                stream,
            }
        }
        "host-fn" => Stmt::HostFn(names.on_stream(line)?),
        "record" => {
            let event = names.use_name(line, &[Kind::Event])?;
            Stmt::Record {
                event,
                stream: names.on_stream(line)?,
            }
        }
        "wait" => {
            let stream = names.stream(line)?;
            Stmt::Wait {
                stream,
                event: names.use_name(line, &[Kind::Event])?,
            }
        }
        "query" => Stmt::Query(names.target(line, false)?),
        "sync" => {
            let target = names.target(line, true)?;
            let timeout = timeout(names, line, &target)?;
            Stmt::Sync { target, timeout }
        }
        "elapsed" => {
            let a = names.use_name(line, &[Kind::Event])?;
            Stmt::Elapsed(a, names.use_name(line, &[Kind::Event])?)
        }
        "get-last-error" => Stmt::LastError { clear: true },
        "peek-last-error" if acl => {
            return Err(line.error_at(
                Some(cmd),
                &dialect_command,
                other_dialect(
                    cmd,
                    names.vendor,
                    "`get-last-error` is aclGetRecentErrMsg, which does not clear the message",
                ),
            ));
        }
        "peek-last-error" => Stmt::LastError { clear: false },
        "can-access-peer" => {
            let d = number(line, device_number, parse_i64)?;
            Stmt::CanAccessPeer(d, number(line, "a peer device number", parse_i64)?)
        }
        "enable-peer-access" => {
            let peer = number(line, "a peer device number", parse_i64)?;
            let flags = if line.eat("flags") {
                flags_value(line, "0")?
            } else {
                0
            };
            Stmt::EnablePeerAccess { peer, flags }
        }
        "disable-peer-access" => {
            Stmt::DisablePeerAccess(number(line, "a peer device number", parse_i64)?)
        }
        "ipc-get-event-handle" => {
            let event = names.use_name(line, &[Kind::Event])?;
            Stmt::IpcGetEventHandle {
                event,
                handle: names.declare(line, Kind::EventHandle)?,
            }
        }
        "ipc-open-event-handle" => {
            let handle = names.use_name(line, &[Kind::EventHandle])?;
            Stmt::IpcOpenEventHandle {
                handle,
                event: names.declare(line, Kind::Event)?,
            }
        }
        "ipc-get-mem-handle" | "ipc-open-mem-handle" => {
            return Err(line.error_at(
                Some(cmd),
                "a command the simulator has",
                Some(format!(
                    "`{}` (IPC memory handles are not in the scenario language, only in the library and the C API; IPC events are: \
                     `ipc-get-event-handle`, `ipc-open-event-handle`)",
                    cmd.text
                )),
            ));
        }
        "context" => {
            let name = names.declare(line, Kind::Context)?;
            let device = if line.eat("device") {
                Some(number(line, device_number, parse_i64)?)
            } else {
                None
            };
            Stmt::Context { name, device }
        }
        "set-context" => Stmt::SetContext(names.use_name(line, &[Kind::Context])?),
        "reset-device" | "reset-device-force" if acl => Stmt::ResetDevice {
            device: Some(number(line, device_number, parse_i64)?),
            force: cmd.text == "reset-device-force",
        },
        "reset-device" => {
            if let Some(t) = line.peek() {
                return Err(line.error_at(
                    Some(t),
                    "end of line",
                    Some(format!(
                        "`{}` (cudaDeviceReset resets the current device: `set-device` first)",
                        t.text
                    )),
                ));
            }
            Stmt::ResetDevice {
                device: None,
                force: false,
            }
        }
        "set-device-flags" | "get-device-flags" if acl => {
            return Err(line.error_at(
                Some(cmd),
                &dialect_command,
                other_dialect(cmd, names.vendor, "device flags are cudaSetDeviceFlags'"),
            ));
        }
        "set-device-flags" => device_flags_stmt(line)?,
        "get-device-flags" => Stmt::GetDeviceFlags,
        other => match super::tasks::parse(names, line, other)? {
            Some(stmt) => stmt,
            None => match super::graphs::parse(names, line, cmd)? {
                Some(stmt) => stmt,
                None => match super::pools::parse(names, line, other)? {
                    Some(stmt) => stmt,
                    None => {
                        let found = match nearest(cmd.text, STATEMENTS) {
                            Some(near) => {
                                format!("unknown statement `{}`; did you mean `{near}`?", cmd.text)
                            }
                            None => format!("unknown statement `{}`", cmd.text),
                        };
                        return Err(line.error_at(Some(cmd), COMMANDS, Some(found)));
                    }
                },
            },
        },
    };
    line.finish()?;
    Ok(stmt)
}

/// Every statement word (both dialects), for suggestions.
const STATEMENTS: &[&str] = &[
    "dialect",
    "devices",
    "seed",
    "engines",
    "process",
    "set-device",
    "get-device",
    "get-device-count",
    "reset-device",
    "reset-device-force",
    "context",
    "set-context",
    "stream",
    "event",
    "malloc",
    "malloc-host",
    "pageable",
    "free",
    "destroy",
    "kernel",
    "memcpy",
    "memcpy-async",
    "memset",
    "memset-async",
    "host-fn",
    "record",
    "wait",
    "query",
    "sync",
    "elapsed",
    "get-last-error",
    "peek-last-error",
    "can-access-peer",
    "enable-peer-access",
    "disable-peer-access",
    "ipc-get-event-handle",
    "ipc-open-event-handle",
    "set-device-flags",
    "get-device-flags",
    "faulty-kernel",
    "failure-mode",
    "op-wait-timeout",
    "notify",
    "record-notify",
    "wait-notify",
    "value-write",
    "value-wait",
    "subscribe",
    "unsubscribe",
    "callback",
    "process-report",
    "begin-capture",
    "end-capture",
    "capture-info",
    "capture-mode",
    "instantiate",
    "graph-launch",
    "graph-dot",
    "mem-pool",
    "default-pool",
    "set-device-pool",
    "malloc-async",
    "free-async",
    "pool-set",
    "pool-get",
    "trim-pool",
    "sleep",
];

/// The word of `words` nearest to `typo` (Damerau-Levenshtein distance, adjacent transpositions counting
/// one), if it is close enough to be a typo: at most 1 edit for words of up to 4 letters, 2 for longer ones.
fn nearest(typo: &str, words: &[&'static str]) -> Option<&'static str> {
    let limit = if typo.chars().count() <= 4 { 1 } else { 2 };
    words
        .iter()
        .map(|w| (edit_distance(typo, w), *w))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, w)| w)
}

/// The optimal-string-alignment distance between `a` and `b` (insertions, deletions, substitutions and
/// adjacent transpositions).
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // A typo of a statement is short; a very long word is no statement's typo.
    if a.len() > 64 {
        return usize::MAX;
    }
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// Parses a scenario. Errors name the first problem's line and column.
pub fn parse(text: &str) -> Result<Scenario, ParseError> {
    let mut names = Names::default();
    let mut statements = Vec::new();
    let mut config_seen: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut first_call: Option<usize> = None;
    for (i, raw) in text.lines().enumerate() {
        let no = i + 1;
        let code = raw.split('#').next().unwrap_or("");
        let mut line = Line::new(no, code);
        let Some(cmd) = line.peek() else {
            continue;
        };
        line.pos += 1;
        let stmt = statement(&mut names, &mut line, cmd)?;
        let config = match stmt {
            Stmt::Dialect(_) => Some("dialect"),
            Stmt::Devices(_) => Some("devices"),
            Stmt::Seed(_) => Some("seed"),
            Stmt::Engines(_) => Some("engines"),
            _ => None,
        };
        match config {
            Some(word) => {
                if let Some(call) = first_call {
                    return Err(line.error_at(
                        Some(cmd),
                        format!("a call: `{word}` must come before the first call (line {call})"),
                        None,
                    ));
                }
                if let Some(at) = config_seen.insert(word, no) {
                    return Err(line.error_at(
                        Some(cmd),
                        format!("a call: `{word}` was already given on line {at}"),
                        None,
                    ));
                }
            }
            None => {
                first_call.get_or_insert(no);
            }
        }
        statements.push(Statement {
            line: no,
            column: cmd.column,
            source: code.trim().to_string(),
            stmt,
        });
    }
    Ok(Scenario { statements })
}
#[cfg(test)]
mod tests;
