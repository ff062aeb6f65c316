//! What the functions of `control.rs` do: translate the C arguments, call the engine on the process of the ACL
//! facade (through `runtime::run`, which maps errors with `runtime::code`). No state of its own.
//!
//! Argument checks of the ACL layer (NULL pointers, unknown enum values) are [`ACL_ERROR_INVALID_PARAM`]; those
//! the runtime layer makes (an unknown stream attribute or memory attribute, a value-write flag, a notify flag,
//! a timeout) are [`ACL_ERROR_RT_PARAM_INVALID`], as in the vendor's `src/acl/aclrt_impl/*.cpp` and
//! `src/runtime/api/impl/api_error.cc`.

#![allow(
    clippy::missing_safety_doc,
    reason = "the vendor functions' contracts are the vendor's; see crate::facade::acl"
)]

use std::ffi::{CString, c_char, c_void};
use std::sync::Mutex;
use std::time::Duration;

use super::runtime::{SendPtr, WHAT_RT, not_null, run, timeout_arg};
use super::types::*;
use crate::engine::core::error::SimError;
use crate::engine::core::handle::{Notify, StreamKind};
use crate::engine::core::pointers::DevicePtr;
use crate::engine::core::rules::FailureMode;
use crate::engine::value_waits::state::ValueCondition;
use crate::facade::binding::{self, Api, contain, invalid, out, put, stream};

// ---------------------------------------------------------------------------------------------- failure modes

/// The mode `aclrtSetStreamFailureMode` means: the runtime keeps the lowest bit (`stmMode & 0x1U`,
/// `ApiImpl::StreamSetMode`).
fn failure_mode(mode: u64) -> FailureMode {
    if mode & 1 == ACL_STOP_ON_FAILURE {
        FailureMode::Stop
    } else {
        FailureMode::Continue
    }
}

pub(crate) fn set_stream_failure_mode(s: aclrtStream, mode: u64, what: &'static str) -> aclError {
    run(what, |p| {
        p.set_stream_failure_mode(stream(s), failure_mode(mode))
    })
}

pub(crate) unsafe fn set_stream_attribute(
    s: aclrtStream,
    attr: aclrtStreamAttr,
    value: *mut aclrtStreamAttrValue,
) -> aclError {
    let what = "aclrtSetStreamAttribute";
    run(what, |p| {
        not_null(what, "value", value)?;
        // SAFETY: non-NULL, and valid for a read by the C contract.
        let v = unsafe { value.read() };
        match attr {
            // SAFETY (both): a union of plain integers; the attribute says which member the caller set.
            ACL_STREAM_ATTR_FAILURE_MODE => {
                p.set_stream_failure_mode(stream(s), failure_mode(unsafe { v.failureMode }))
            }
            ACL_STREAM_ATTR_PRIORITY => {
                // The runtime clamps the value as an int32 (`ApiErrorDecorator::SetStreamPriorityValue`).
                p.set_stream_priority(stream(s), unsafe { v.streamPriority } as i32)
            }
            other => attribute_not_simulated(what, other),
        }
    })
}

pub(crate) unsafe fn get_stream_attribute(
    s: aclrtStream,
    attr: aclrtStreamAttr,
    value: *mut aclrtStreamAttrValue,
) -> aclError {
    let what = "aclrtGetStreamAttribute";
    run(what, |p| {
        not_null(what, "value", value)?;
        let v = match attr {
            ACL_STREAM_ATTR_FAILURE_MODE => aclrtStreamAttrValue {
                failureMode: match p.stream_failure_mode(stream(s))? {
                    FailureMode::Stop => ACL_STOP_ON_FAILURE,
                    _ => ACL_CONTINUE_ON_FAILURE,
                },
            },
            ACL_STREAM_ATTR_PRIORITY => aclrtStreamAttrValue {
                streamPriority: p.stream_priority(stream(s))?.max(0) as u32,
            },
            other => return attribute_not_simulated(what, other),
        };
        // SAFETY: non-NULL, and valid for a write by the C contract.
        unsafe { out(what, value, v) }
    })
}

/// The attributes the vendor defines that the simulator does not model, and unknown values.
fn attribute_not_simulated(what: &'static str, attr: aclrtStreamAttr) -> Result<(), SimError> {
    match attr {
        ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK
        | ACL_STREAM_ATTR_USER_CUSTOM_TAG
        | ACL_STREAM_ATTR_CACHE_OP_INFO => Err(SimError::NotSupported {
            what,
            reason: format!(
                "stream attribute {attr} (overflow check, custom tag, operator-info cache) is not simulated"
            ),
        }),
        other => Err(invalid(
            WHAT_RT,
            format!(
                "{what}: stream attribute {other} (defined: ACL_STREAM_ATTR_FAILURE_MODE 1 … ACL_STREAM_ATTR_PRIORITY 5)"
            ),
        )),
    }
}

// ---------------------------------------------------------------------------------------------- wait timeout

pub(crate) fn set_op_wait_timeout(seconds: u32) -> aclError {
    run("aclrtSetOpWaitTimeout", |p| {
        p.set_op_wait_timeout((seconds > 0).then(|| Duration::from_secs(seconds.into())))
    })
}

// ---------------------------------------------------------------------------------------------- callbacks

/// The key the runtime knows the calling thread by: `pthread_self()` (`PidTidFetcher::GetCurrentUserTid` of the
/// runtime source); elsewhere, a number for the Rust thread.
pub(super) fn thread_key() -> u64 {
    #[cfg(unix)]
    {
        unsafe extern "C" {
            fn pthread_self() -> usize;
        }
        // SAFETY: pthread_self has no preconditions and cannot fail.
        (unsafe { pthread_self() }) as u64
    }
    #[cfg(not(unix))]
    {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        std::thread::current().id().hash(&mut h);
        h.finish()
    }
}

pub(crate) fn subscribe_report(thread: u64, s: aclrtStream) -> aclError {
    run("aclrtSubscribeReport", |p| {
        p.subscribe_report(thread, stream(s))
    })
}

pub(crate) fn unsubscribe_report(thread: u64, s: aclrtStream) -> aclError {
    run("aclrtUnSubscribeReport", |p| {
        p.unsubscribe_report(thread, stream(s))
    })
}

pub(crate) unsafe fn launch_callback(
    f: aclrtCallback,
    data: *mut c_void,
    block: aclrtCallbackBlockType,
    s: aclrtStream,
) -> aclError {
    let what = "aclrtLaunchCallback";
    run(what, |p| {
        let blocking = match block {
            ACL_CALLBACK_BLOCK => true,
            ACL_CALLBACK_NO_BLOCK => false,
            other => {
                return Err(invalid(
                    what,
                    format!("blockType {other} (ACL_CALLBACK_NO_BLOCK 0 or ACL_CALLBACK_BLOCK 1)"),
                ));
            }
        };
        // The runtime refuses a NULL function (`ApiErrorDecorator::CallbackLaunch`: RT_ERROR_INVALID_VALUE).
        let Some(f) = f else {
            return Err(invalid(WHAT_RT, format!("{what}: fn is NULL")));
        };
        let data = SendPtr(data);
        p.launch_callback(
            stream(s),
            move || {
                let data = data;
                // SAFETY: the C caller registered `f` with `data` for exactly this call.
                unsafe { f(data.0) }
            },
            blocking,
        )
    })
}

pub(crate) fn process_report(timeout: i32) -> aclError {
    let what = "aclrtProcessReport";
    run(what, |p| {
        // The ACL layer's own check (`aclrtProcessReportImpl`): ACL_ERROR_INVALID_PARAM.
        let timeout = match timeout {
            -1 => None,
            t if t > 0 => Some(Duration::from_millis(t as u64)),
            t => {
                return Err(invalid(
                    what,
                    format!("timeout {t} ms (expected -1 to wait, or a positive number)"),
                ));
            }
        };
        p.process_report(thread_key(), timeout).map(drop)
    })
}

// ---------------------------------------------------------------------------------------------- notifies

/// A notify argument: NULL is ACL_ERROR_INVALID_PARAM.
fn notify(what: &'static str, n: aclrtNotify) -> Result<Notify, SimError> {
    not_null(what, "notify", n)?;
    Ok(Notify::from_raw(n as usize as u64))
}

pub(crate) unsafe fn create_notify(n: *mut aclrtNotify, flag: u64) -> aclError {
    let what = "aclrtCreateNotify";
    run(what, |p| {
        not_null(what, "notify", n)?;
        if flag & !(ACL_NOTIFY_DEFAULT | ACL_NOTIFY_DEVICE_USE_ONLY) != 0 {
            return Err(invalid(
                WHAT_RT,
                format!(
                    "{what}: flag {flag:#x} (defined: ACL_NOTIFY_DEFAULT 0, ACL_NOTIFY_DEVICE_USE_ONLY 1)"
                ),
            ));
        }
        let h = p.create_notify()?;
        // SAFETY: C contract.
        unsafe { out(what, n, binding::handle_ptr(h.to_raw())) }
    })
}

pub(crate) fn destroy_notify(n: aclrtNotify) -> aclError {
    let what = "aclrtDestroyNotify";
    run(what, |p| p.destroy_notify(notify(what, n)?))
}

pub(crate) fn record_notify(n: aclrtNotify, s: aclrtStream) -> aclError {
    let what = "aclrtRecordNotify";
    run(what, |p| p.record_notify(notify(what, n)?, stream(s)))
}

pub(crate) fn wait_notify(n: aclrtNotify, s: aclrtStream, timeout: u32) -> aclError {
    let what = "aclrtWaitAndResetNotify";
    run(what, |p| {
        let timeout = (timeout > 0).then(|| Duration::from_secs(timeout.into()));
        p.wait_notify(notify(what, n)?, stream(s), timeout)
    })
}

// ---------------------------------------------------------------------------------------------- value waits

pub(crate) fn value_write(addr: *mut c_void, value: u64, flag: u32, s: aclrtStream) -> aclError {
    let what = "aclrtValueWrite";
    run(what, |p| {
        not_null(what, "devAddr", addr)?;
        if flag != 0 {
            return Err(invalid(
                WHAT_RT,
                format!("{what}: flag {flag} (reserved, must be 0)"),
            ));
        }
        if !(addr as usize).is_multiple_of(8) {
            return Err(invalid(
                WHAT_RT,
                format!("{what}: devAddr {addr:p} is not 8-byte aligned"),
            ));
        }
        p.value_write(DevicePtr(addr as usize as u64), value, stream(s))
    })
}

pub(crate) fn value_wait(addr: *mut c_void, value: u64, flag: u32, s: aclrtStream) -> aclError {
    let what = "aclrtValueWait";
    run(what, |p| {
        not_null(what, "devAddr", addr)?;
        let condition = match flag {
            ACL_STREAM_WAIT_VALUE_GEQ => ValueCondition::Geq,
            ACL_STREAM_WAIT_VALUE_EQ => ValueCondition::Eq,
            ACL_STREAM_WAIT_VALUE_AND => ValueCondition::And,
            ACL_STREAM_WAIT_VALUE_NOR => ValueCondition::Nor,
            other => {
                return Err(invalid(
                    WHAT_RT,
                    format!("{what}: flag {other} (defined: ACL_STREAM_WAIT_VALUE_GEQ 0 … _NOR 3)"),
                ));
            }
        };
        p.value_wait(DevicePtr(addr as usize as u64), value, condition, stream(s))
    })
}

// ---------------------------------------------------------------------------------------------- queries

pub(crate) fn synchronize_device_timeout(timeout: i32) -> aclError {
    run(
        "aclrtSynchronizeDeviceWithTimeout",
        |p| match timeout_arg(timeout)? {
            None => p.device_synchronize(),
            Some(t) => p.device_synchronize_timeout(t),
        },
    )
}

pub(crate) unsafe fn priority_range(least: *mut i32, greatest: *mut i32) -> aclError {
    run("aclrtDeviceGetStreamPriorityRange", |p| {
        // The runtime answers without a current context (`ApiImpl::DeviceGetStreamPriorityRange`): the current
        // device's range, or device 0's on a thread that has set none.
        let (l, g) = match p.device_priority_range() {
            Ok(r) => r,
            Err(SimError::NoContext { .. }) => p.machine().device_config(0)?.priority_range,
            Err(e) => return Err(e),
        };
        // SAFETY: each pointer is NULL or valid for a write (the C contract); NULL is skipped, as by the vendor.
        unsafe {
            put(least, l);
            put(greatest, g);
        }
        Ok(())
    })
}

/// The number `aclrtStreamGetId` gives a stream (sim): created streams 1, 2, … ; a context's default stream
/// 65,536 + the context's ordinal.
const DEFAULT_STREAM_IDS: i64 = 65_536;

pub(crate) unsafe fn stream_get_id(s: aclrtStream, id: *mut i32) -> aclError {
    let what = "aclrtStreamGetId";
    run(what, |p| {
        not_null(what, "streamId", id)?;
        let sid = p.stream_id(stream(s))?;
        let n = match sid.kind {
            StreamKind::Created(n) => i64::from(n),
            StreamKind::ContextDefault(c) => DEFAULT_STREAM_IDS + i64::from(c),
            StreamKind::Legacy | StreamKind::PerThread(_) | StreamKind::Graph { .. } => 0,
        };
        // SAFETY: C contract.
        unsafe { out(what, id, i32::try_from(n).unwrap_or(i32::MAX)) }
    })
}

/// The SoC names handed out (one allocation per distinct name, kept for the life of the library, so the
/// pointers stay valid as the vendor's do).
static SOC_NAMES: Mutex<Vec<CString>> = Mutex::new(Vec::new());

pub(crate) fn soc_name() -> *const c_char {
    contain(std::ptr::null(), || {
        let Ok(p) = binding::process(Api::Acl) else {
            return std::ptr::null();
        };
        let Ok(config) = p.machine().device_config(0).cloned() else {
            return std::ptr::null();
        };
        let name = CString::new(config.name.replace('\0', " ")).expect("NULs replaced");
        let mut names = SOC_NAMES.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = names.iter().find(|n| **n == name) {
            return n.as_ptr();
        }
        names.push(name);
        names.last().map_or(std::ptr::null(), |n| n.as_ptr())
    })
}

pub(crate) unsafe fn run_mode(mode: *mut aclrtRunMode) -> aclError {
    let what = "aclrtGetRunMode";
    run(what, |_| {
        not_null(what, "runMode", mode)?;
        // SAFETY: C contract.
        unsafe { out(what, mode, ACL_HOST) }
    })
}

pub(crate) unsafe fn version(major: *mut i32, minor: *mut i32, patch: *mut i32) -> aclError {
    let what = "aclrtGetVersion";
    run(what, |_| {
        not_null(what, "majorVersion", major)?;
        not_null(what, "minorVersion", minor)?;
        not_null(what, "patchVersion", patch)?;
        // SAFETY: C contract (all three non-NULL).
        unsafe {
            out(what, major, ACL_MAJOR_VERSION)?;
            out(what, minor, ACL_MINOR_VERSION)?;
            out(what, patch, ACL_PATCH_VERSION)
        }
    })
}

/// The runtime's `IsRoundOne`: whether dropping the low `trunc` bits of `man` rounds up (to nearest even).
fn round_up(man: u64, trunc: u32) -> bool {
    let last = 1u64 << trunc;
    let high = last >> 1;
    man & high != 0 && (man & (high - 1) != 0 || man & last != 0)
}

/// `acl::FloatToFp16` of the CANN runtime (`src/acl/aclrt_impl/types/fp16_impl.cpp`), ported line by line.
pub(crate) fn float_to_fp16(value: f32) -> aclFloat16 {
    let u = value.to_bits();
    let sign = (u >> 31) as u16;
    let e = (u & 0x7F80_0000) >> 23;
    let mut m = u & 0x007F_FFFF;
    let (mut e_ret, mut m_ret): (u16, u16);
    if e > 0x8F {
        // Beyond the range, infinity and NaN saturate.
        (e_ret, m_ret) = (30, 0x3FF);
    } else if e <= 0x70 {
        e_ret = 0;
        if e >= 0x67 {
            m |= 0x0080_0000;
            let tmp = u64::from(m) << (e - 0x67);
            m_ret = (tmp >> 23) as u16 + u16::from(round_up(tmp, 23));
        } else if e == 0x66 && m > 0 {
            m_ret = 1;
        } else {
            m_ret = 0;
        }
    } else {
        e_ret = (e - 0x70) as u16;
        m_ret = (m >> 13) as u16 + u16::from(round_up(u64::from(m), 13));
        if m_ret & 0x400 != 0 {
            e_ret += 1;
        }
    }
    // Fp16Normalize.
    if e_ret >= 31 {
        (e_ret, m_ret) = (30, 0x3FF);
    } else if e_ret == 0 && m_ret == 0x400 {
        (e_ret, m_ret) = (1, 0);
    }
    (sign << 15) | (e_ret << 10) | (m_ret & 0x3FF)
}

/// `acl::Fp16ToFloat` of the CANN runtime, ported line by line (the exponent 31 is a finite one).
pub(crate) fn fp16_to_float(value: aclFloat16) -> f32 {
    let sign = u32::from(value >> 15);
    let mut e = i32::from((value >> 10) & 0x1F);
    let mut m = u32::from(value & 0x3FF) | if e > 0 { 0x400 } else { 0 };
    if e == 0 {
        e = 1;
    }
    while m != 0 && m & 0x400 == 0 {
        m <<= 1;
        e -= 1;
    }
    let (e_ret, m_ret) = if m == 0 {
        (0, 0)
    } else {
        ((e + 112) as u32, (m & 0x3FF) << 13)
    };
    f32::from_bits((sign << 31) | (e_ret << 23) | (m_ret & 0x007F_FFFF))
}

/// `aclDataTypeSizeImpl` (`src/acl/aclrt_impl/data_buffer.cpp`).
pub(crate) fn data_type_size(t: aclDataType) -> usize {
    match t {
        ACL_STRING | ACL_DT_UNDEFINED => 0,
        ACL_UINT1 | ACL_INT4 | ACL_BOOL | ACL_INT8 | ACL_UINT8 | ACL_HIFLOAT8 | ACL_FLOAT8_E5M2
        | ACL_FLOAT8_E4M3FN | ACL_FLOAT8_E8M0 => 1,
        ACL_FLOAT16 | ACL_INT16 | ACL_UINT16 | ACL_BF16 => 2,
        ACL_FLOAT | ACL_INT32 | ACL_UINT32 | ACL_COMPLEX32 => 4,
        ACL_COMPLEX128 => 16,
        _ => 8,
    }
}

/// A call streamsim refuses: the NULL checks of its `pointers`, then [`ACL_ERROR_RT_FEATURE_NOT_SUPPORT`].
pub(crate) fn refused(what: &'static str, pointers: &[*const c_void], why: &str) -> aclError {
    run(what, |_| {
        for p in pointers {
            not_null(what, "a pointer argument", *p)?;
        }
        Err(SimError::NotSupported {
            what,
            reason: why.to_string(),
        })
    })
}

/// `aclGetDeviceCapability` (`aclGetDeviceCapabilityImpl`: the ACL layer checks the pointer, the device and the
/// kind, 100000 each).
pub(crate) unsafe fn device_capability(
    device: u32,
    info: aclDeviceInfo,
    value: *mut i64,
) -> aclError {
    use crate::engine::machine::Attribute;
    let what = "aclGetDeviceCapability";
    run(what, |p| {
        not_null(what, "value", value)?;
        let m = p.machine();
        if device >= m.device_count() {
            return Err(invalid(
                what,
                format!(
                    "deviceId {device} greater than deviceNum {}",
                    m.device_count()
                ),
            ));
        }
        let attr = match info {
            ACL_DEVICE_INFO_AI_CORE_NUM => Attribute::AiCoreCount,
            ACL_DEVICE_INFO_VECTOR_CORE_NUM => Attribute::VectorCoreCount,
            ACL_DEVICE_INFO_L2_SIZE => {
                return Err(SimError::NotSupported {
                    what,
                    reason: "a simulated device has no L2 cache size (ACL_DEVICE_INFO_L2_SIZE)"
                        .into(),
                });
            }
            other => return Err(invalid(what, format!("invalid info type {other}"))),
        };
        let v = m.device_attribute(device, attr)?;
        // SAFETY: C contract (non-NULL).
        unsafe { out(what, value, v) }
    })
}

/// `aclrtGetErrorVerbose`: the NULL check, then the refusal.
pub(crate) fn error_verbose(device: i32, info: *mut c_void) -> aclError {
    let what = "aclrtGetErrorVerbose";
    run(what, |_| {
        not_null(what, "errorInfo", info)?;
        Err(SimError::NotSupported {
            what,
            reason: format!(
                "device {device}: a simulated device has no hardware fault details (errorInfo is not written)"
            ),
        })
    })
}

/// `aclsysGetVersionStr` / `aclsysGetVersionNum`: the argument checks, then the refusal.
pub(crate) fn sys_version(what: &'static str, pkg: *const c_char, out: *const c_void) -> aclError {
    run(what, |_| {
        not_null(what, "the output", out)?;
        not_null(what, "pkgName", pkg)?;
        Err(SimError::NotSupported {
            what,
            reason: "no CANN package is installed in the simulator, so it has no package version"
                .into(),
        })
    })
}

pub(crate) unsafe fn device_status(device: i32, status: *mut aclrtDeviceStatus) -> aclError {
    let what = "aclrtQueryDeviceStatus";
    run(what, |p| {
        not_null(what, "deviceStatus", status)?;
        p.check_device(device.into())?;
        // SAFETY: C contract.
        unsafe { out(what, status, ACL_RT_DEVICE_STATUS_NORMAL) }
    })
}

pub(crate) unsafe fn mem_info(attr: aclrtMemAttr, free: *mut usize, total: *mut usize) -> aclError {
    let what = "aclrtGetMemInfo";
    run(what, |p| {
        not_null(what, "free", free)?;
        not_null(what, "total", total)?;
        if attr > ACL_MEM_P2P_HUGE1G {
            return Err(invalid(
                WHAT_RT,
                format!(
                    "{what}: memory attribute {attr} (defined: ACL_DDR_MEM 0 … ACL_MEM_P2P_HUGE1G 17)"
                ),
            ));
        }
        let (t, f) = p.device_memory_info()?;
        // SAFETY: C contract (both non-NULL).
        unsafe {
            out(what, total, usize::try_from(t).unwrap_or(usize::MAX))?;
            out(what, free, usize::try_from(f).unwrap_or(usize::MAX))
        }
    })
}
