//! The scenario statements of stream-ordered memory: `mem-pool`, `default-pool`, `set-device-pool`,
//! `malloc-async`, `free-async`, `pool-set`, `pool-get`, `trim-pool` (and `destroy P` in `run.rs`), and `sleep`
//! (host time passing, for the opportunistic reuse policy) — their parsing (called by `parse.rs` for a command it
//! does not know, before `tasks.rs`) and their running (called by `run.rs`), each one call into the core with
//! the vendor function's argument rules: CUDA's `cudaMallocAsync` / `cudaMallocFromPoolAsync` /
//! `cudaFreeAsync` / `cudaMemPool*`, ACL's `aclrtMemPool*` (which always name a pool and a created stream, and
//! have no default pool). Rows: `docs/semantics/stream-ordered-memory.md`.

use super::ast::{Name, Stmt, StreamRef};
use super::lex::{Line, ParseError, parse_duration, parse_i64, parse_size};
use super::outcome::{Outcome, RunError};
use super::parse::{Kind, Names, number};
use super::run::{Runner, Var, done};
use crate::engine::core::handle::MemPool;
use crate::engine::pools::state::{PoolAttr, PoolProps};
use crate::engine::process::Process;
use crate::tools::export::bytes_text;

/// The attribute words and their attributes (`cudaMemPoolAttr*`, `ACL_RT_MEM_POOL_ATTR_*`).
pub(super) const POOL_ATTRS: &[(&str, PoolAttr)] = &[
    (
        "reuse-follow-event-dependencies",
        PoolAttr::ReuseFollowEventDependencies,
    ),
    (
        "reuse-allow-opportunistic",
        PoolAttr::ReuseAllowOpportunistic,
    ),
    (
        "reuse-allow-internal-dependencies",
        PoolAttr::ReuseAllowInternalDependencies,
    ),
    ("release-threshold", PoolAttr::ReleaseThreshold),
    ("reserved-mem-current", PoolAttr::ReservedMemCurrent),
    ("reserved-mem-high", PoolAttr::ReservedMemHigh),
    ("used-mem-current", PoolAttr::UsedMemCurrent),
    ("used-mem-high", PoolAttr::UsedMemHigh),
];

const SIZE: &str = "a size such as `4096`, `64KiB` or `1MiB`";
const ATTR: &str = "a pool attribute (`release-threshold`, `reuse-follow-event-dependencies`, \
                    `reuse-allow-opportunistic`, `reuse-allow-internal-dependencies`, `reserved-mem-current`, \
                    `reserved-mem-high`, `used-mem-current`, `used-mem-high`)";

fn attr_word(line: &mut Line<'_>) -> Result<PoolAttr, ParseError> {
    let t = line.next(ATTR)?;
    POOL_ATTRS
        .iter()
        .find(|(w, _)| *w == t.text)
        .map(|&(_, a)| a)
        .ok_or_else(|| line.error_at(Some(t), ATTR, None))
}

/// The word of an attribute.
fn attr_name(a: PoolAttr) -> &'static str {
    POOL_ATTRS
        .iter()
        .find(|(_, x)| *x == a)
        .map_or("?", |(w, _)| w)
}

/// A CUDA-only statement in ACL: refused with what ACL has instead.
fn cuda_only(names: &Names, line: &Line<'_>, cmd: &str) -> Result<(), ParseError> {
    if names.vendor().is_acl() {
        let t = line.toks[line.pos - 1];
        return Err(line.error_at(
            Some(t),
            format!("a command of dialect {}", names.vendor().keyword()),
            Some(format!(
                "`{cmd}`, which dialect acl does not have (ACL has no default or current pool: \
                 `mem-pool P` and `malloc-async B SIZE on S pool P`)"
            )),
        ));
    }
    Ok(())
}

/// Parses `cmd` if it is one of this module's statements (`None`: it is not).
pub(super) fn parse(
    names: &mut Names,
    line: &mut Line<'_>,
    cmd: &str,
) -> Result<Option<Stmt>, ParseError> {
    let device_number = "a device number";
    let stmt = match cmd {
        "mem-pool" => {
            let name = names.declare(line, Kind::Pool)?;
            let (mut device, mut max_size) = (None, None);
            let expected = "`device D`, `max-size SIZE` or end of line";
            while let Some(t) = line.peek() {
                line.pos += 1;
                match t.text {
                    "device" if device.is_none() => {
                        device = Some(number(line, device_number, parse_i64)?);
                    }
                    "max-size" if max_size.is_none() => {
                        max_size = Some(number(line, SIZE, parse_size)?);
                    }
                    _ => return Err(line.error_at(Some(t), expected, None)),
                }
            }
            Stmt::MemPool {
                name,
                device,
                max_size: max_size.unwrap_or(0),
            }
        }
        "default-pool" => {
            cuda_only(names, line, cmd)?;
            let name = names.declare(line, Kind::Pool)?;
            let device = if line.eat("device") {
                Some(number(line, device_number, parse_i64)?)
            } else {
                None
            };
            Stmt::DefaultPool { name, device }
        }
        "set-device-pool" => {
            cuda_only(names, line, cmd)?;
            let device = number(line, device_number, parse_i64)?;
            Stmt::SetDevicePool {
                device,
                pool: names.use_name(line, &[Kind::Pool])?,
            }
        }
        "malloc-async" => {
            let name = names.declare(line, Kind::Device)?;
            let bytes = number(line, SIZE, parse_size)?;
            let (mut stream, mut pool) = (None, None);
            let expected = "`on S`, `pool P` or end of line";
            while let Some(t) = line.peek() {
                match t.text {
                    "on" if stream.is_none() => stream = Some(names.on_stream(line)?),
                    "pool" if pool.is_none() => {
                        line.pos += 1;
                        pool = Some(names.use_name(line, &[Kind::Pool])?);
                    }
                    _ => return Err(line.error_at(Some(t), expected, None)),
                }
            }
            if names.vendor().is_acl()
                && (pool.is_none() || !matches!(stream, Some(StreamRef::Named(_))))
            {
                return Err(line.error_at(
                    None,
                    "`on S pool P` (aclrtMemPoolMallocAsync takes a pool and a created stream)",
                    None,
                ));
            }
            Stmt::MallocAsync {
                name,
                bytes,
                stream: stream.unwrap_or(StreamRef::Default),
                pool,
            }
        }
        "free-async" => {
            let buf = names.use_name(line, &[Kind::Device])?;
            let stream = names.on_stream(line)?;
            if names.vendor().is_acl() && !matches!(stream, StreamRef::Named(_)) {
                return Err(line.error_at(
                    None,
                    "`on S` (aclrtMemPoolFreeAsync takes a created stream)",
                    None,
                ));
            }
            Stmt::FreeAsync { buf, stream }
        }
        "pool-set" => {
            let pool = names.use_name(line, &[Kind::Pool])?;
            let attr = attr_word(line)?;
            let value = if attr.is_flag() {
                number(line, "0 or 1", |s| match s {
                    "0" => Some(0),
                    "1" => Some(1),
                    _ => None,
                })?
            } else {
                number(
                    line,
                    "a size such as `4096`, `64MiB` or `max` (UINT64_MAX)",
                    |s| {
                        if s == "max" {
                            Some(u64::MAX)
                        } else {
                            parse_size(s)
                        }
                    },
                )?
            };
            Stmt::PoolSet { pool, attr, value }
        }
        "pool-get" => {
            let pool = names.use_name(line, &[Kind::Pool])?;
            Stmt::PoolGet {
                pool,
                attr: attr_word(line)?,
            }
        }
        "trim-pool" => {
            let pool = names.use_name(line, &[Kind::Pool])?;
            Stmt::TrimPool {
                pool,
                keep: number(line, SIZE, parse_size)?,
            }
        }
        "sleep" => Stmt::Sleep(number(
            line,
            "a duration such as `200us`, `1.5ms` or `800ns` (units: ns, us, µs, ms, s)",
            parse_duration,
        )?),
        _ => return Ok(None),
    };
    Ok(Some(stmt))
}

impl Runner {
    fn pool(&self, n: &Name) -> Result<MemPool, RunError> {
        match self.var(n)? {
            Var::Pool(x) => Ok(*x),
            _ => Err(Self::wrong_kind(n, "a memory pool")),
        }
    }

    /// Runs one of this module's statements.
    pub(super) fn pool_stmt(&mut self, p: &Process, stmt: &Stmt) -> Result<Outcome, RunError> {
        let acl = self.vendor().is_acl();
        Ok(match stmt {
            Stmt::MemPool {
                name,
                device,
                max_size,
            } => {
                let r = match device {
                    Some(d) => Ok(*d),
                    None => p.get_device().map(i64::from),
                }
                .and_then(|d| p.check_device(d))
                .and_then(|d| {
                    // ACL rounds the size to 2 MiB (0: the device's memory); CUDA's 0 is "no limit".
                    let size = if acl {
                        crate::facade::acl::pool_runtime::pool_size(p, d, *max_size)?
                    } else {
                        *max_size
                    };
                    p.create_pool(PoolProps::new(d).max_size(size))
                        .map(|h| (h, d, size))
                });
                self.created(name, &r, |(h, ..)| Var::Pool(*h));
                done(r, |(_, d, size)| {
                    Outcome::Created(if size == 0 {
                        format!("a pool on device {d}")
                    } else {
                        format!("a pool of {} on device {d}", bytes_text(size))
                    })
                })
            }
            Stmt::DefaultPool { name, device } => {
                let r = match device {
                    Some(d) => Ok(*d),
                    None => p.get_device().map(i64::from),
                }
                .and_then(|d| p.default_pool(d).map(|h| (h, d)));
                self.created(name, &r, |(h, _)| Var::Pool(*h));
                done(r, |(_, d)| {
                    Outcome::Created(format!("device {d}'s default pool"))
                })
            }
            Stmt::SetDevicePool { device, pool } => {
                done(p.set_device_pool(*device, self.pool(pool)?), |()| {
                    Outcome::Ok
                })
            }
            Stmt::MallocAsync {
                name,
                bytes,
                stream,
                pool,
            } => {
                let s = self.stream(stream)?;
                if acl && *bytes == 0 {
                    // aclrtMemPoolMallocAsync: size 0 succeeds and writes nothing.
                    self.vars.insert(name.text.clone(), Var::Failed(name.line));
                    return Ok(Outcome::Note(format!(
                        "size 0: ACL_SUCCESS, `{}` is not written",
                        name.text
                    )));
                }
                let r = match pool {
                    Some(pool) => p.malloc_from_pool_async(*bytes, self.pool(pool)?, s),
                    None => p.malloc_async(*bytes, s),
                };
                self.created(name, &r, |ptr| Var::Device(*ptr, *bytes));
                if let Ok(ptr) = &r {
                    self.allocated(name, ptr.addr(), *bytes);
                    self.accessed(p, s, "alloc", None, &[name]);
                }
                done(r, |ptr| {
                    let dev = ptr.device().unwrap_or(0);
                    Outcome::Created(format!(
                        "{} on device {dev} at {:#x}",
                        bytes_text(*bytes),
                        ptr.addr()
                    ))
                })
            }
            Stmt::FreeAsync { buf, stream } => {
                let s = self.stream(stream)?;
                let (ptr, _) = self.device_buf(buf)?;
                let r = p.free_async(ptr, s);
                if r.is_ok() {
                    self.accessed(p, s, "free", None, &[buf]);
                }
                done(r, |()| Outcome::Ok)
            }
            Stmt::PoolSet { pool, attr, value } => done(
                p.set_pool_attribute(self.pool(pool)?, *attr, *value),
                |()| Outcome::Ok,
            ),
            Stmt::PoolGet { pool, attr } => done(p.pool_attribute(self.pool(pool)?, *attr), |v| {
                Outcome::Value(if attr.is_flag() {
                    format!("{} = {v}", attr_name(*attr))
                } else if v == u64::MAX {
                    format!("{} = UINT64_MAX", attr_name(*attr))
                } else {
                    format!("{} = {}", attr_name(*attr), bytes_text(v))
                })
            }),
            Stmt::TrimPool { pool, keep } => {
                done(p.trim_pool(self.pool(pool)?, *keep), |()| Outcome::Ok)
            }
            Stmt::Sleep(d) => {
                p.host_sleep(*d);
                Outcome::Note(format!("the host sleeps {d:?} (no runtime call)"))
            }
            other => unreachable!("not a statement of pools.rs: {other:?}"),
        })
    }
}

/// Whether `stmt` is one of this module's.
pub(super) fn is_pool_stmt(stmt: &Stmt) -> bool {
    matches!(
        stmt,
        Stmt::MemPool { .. }
            | Stmt::DefaultPool { .. }
            | Stmt::SetDevicePool { .. }
            | Stmt::MallocAsync { .. }
            | Stmt::FreeAsync { .. }
            | Stmt::PoolSet { .. }
            | Stmt::PoolGet { .. }
            | Stmt::TrimPool { .. }
            | Stmt::Sleep(_)
    )
}
