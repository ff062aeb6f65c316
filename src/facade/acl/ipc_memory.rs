//! ACL's IPC memory calls (`aclrtIpcMemGetExportKey`, `aclrtIpcMemSetImportPid`, `aclrtIpcMemImportByKey`,
//! `aclrtIpcMemClose`) and `aclrtDeviceGetBareTgid`, on the engine's IPC memory (`engine/ipc_memory.rs`). The
//! argument checks follow the runtime's (`src/runtime/api/impl/api_error.cc` of the CANN runtime: NULL
//! pointers are the ACL layer's 100000, a zero size or length and flags above the largest are the runtime's
//! `RT_ERROR_INVALID_VALUE`, 107000); what the driver refuses (the exporting process, a pid not allowed, a
//! freed or closed export, a key that is none) is `ACL_ERROR_RT_IPC_ERROR`, 507022.

use std::ffi::{CStr, c_char, c_void};

use super::runtime::{WHAT_RT, not_null, run};
use super::types::*;
use crate::engine::core::error::{IpcProblem, SimError};
use crate::engine::core::pointers::DevicePtr;
use crate::engine::ipc::memory::IpcMemHandle;
use crate::facade::binding::{invalid, out};

/// The key's text, read from C (a NUL-terminated string), as a handle.
///
/// # Safety
/// `key` is non-NULL and NUL-terminated.
unsafe fn handle_of(what: &'static str, key: *const c_char) -> Result<IpcMemHandle, SimError> {
    // SAFETY: C contract.
    let text = unsafe { CStr::from_ptr(key) };
    text.to_str()
        .ok()
        .and_then(IpcMemHandle::from_key)
        .ok_or(SimError::Ipc {
            what,
            problem: IpcProblem::InvalidHandle,
        })
}

pub(crate) unsafe fn get_export_key(
    dev_ptr: *mut c_void,
    size: usize,
    key: *mut c_char,
    len: usize,
    flags: u64,
) -> aclError {
    let what = "aclrtIpcMemGetExportKey";
    run(what, |p| {
        not_null(what, "devPtr", dev_ptr)?;
        not_null(what, "key", key)?;
        if size == 0 || len == 0 {
            return Err(invalid(
                WHAT_RT,
                format!("{what}: size and len must not be 0"),
            ));
        }
        if flags > ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION {
            return Err(invalid(
                WHAT_RT,
                format!("{what}: flags {flags:#x} outside [0, 1]"),
            ));
        }
        if len < IpcMemHandle::KEY_LEN + 1 {
            return Err(invalid(
                WHAT_RT,
                format!("{what}: len {len} cannot hold the key (the CANN docs fix len at 65)"),
            ));
        }
        let h = p.ipc_export_mem(
            DevicePtr(dev_ptr as usize as u64),
            size as u64,
            flags == ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT,
        )?;
        let text = h.key();
        for (i, b) in text.bytes().chain(std::iter::once(0)).enumerate() {
            // SAFETY: `key` holds `len` ≥ KEY_LEN + 1 bytes (C contract); i ≤ KEY_LEN.
            unsafe { key.add(i).write(b as c_char) };
        }
        Ok(())
    })
}

pub(crate) unsafe fn set_import_pid(key: *const c_char, pid: *mut i32, num: usize) -> aclError {
    let what = "aclrtIpcMemSetImportPid";
    run(what, |p| {
        not_null(what, "key", key)?;
        not_null(what, "pid", pid)?;
        if num == 0 || num > i32::MAX as usize {
            return Err(invalid(
                WHAT_RT,
                format!("{what}: num {num} outside (0, 2147483647]"),
            ));
        }
        // SAFETY: non-NULL, NUL-terminated (C contract).
        let h = unsafe { handle_of(what, key) }?;
        // SAFETY: `pid` holds `num` values (C contract).
        let pids: Vec<u32> = unsafe { std::slice::from_raw_parts(pid, num) }
            .iter()
            .map(|&x| x as u32)
            .collect();
        p.ipc_allow_pids(&h, &pids)
    })
}

pub(crate) unsafe fn import_by_key(
    dev_ptr: *mut *mut c_void,
    key: *const c_char,
    flags: u64,
) -> aclError {
    let what = "aclrtIpcMemImportByKey";
    run(what, |p| {
        not_null(what, "devPtr", dev_ptr)?;
        not_null(what, "key", key)?;
        if flags > ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS {
            return Err(invalid(
                WHAT_RT,
                format!("{what}: flags {flags:#x} outside [0, 1]"),
            ));
        }
        // SAFETY: non-NULL, NUL-terminated (C contract).
        let h = unsafe { handle_of(what, key) }?;
        let ptr =
            p.ipc_open_mem_handle(&h, flags == ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS)?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(what, dev_ptr, ptr.addr() as usize as *mut c_void) }
    })
}

pub(crate) unsafe fn close(key: *const c_char) -> aclError {
    let what = "aclrtIpcMemClose";
    run(what, |p| {
        not_null(what, "key", key)?;
        // SAFETY: non-NULL, NUL-terminated (C contract).
        let h = unsafe { handle_of(what, key) }?;
        p.ipc_close_mem_key(&h)
    })
}

pub(crate) unsafe fn device_get_bare_tgid(pid: *mut i32) -> aclError {
    let what = "aclrtDeviceGetBareTgid";
    run(what, |_| {
        not_null(what, "pid", pid)?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(what, pid, std::process::id() as i32) }
    })
}
