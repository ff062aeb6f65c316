//! The CUDA-family IPC calls: event and memory handles (`cudaIpc*`), translated to the engine's IPC calls.

#![allow(
    clippy::missing_safety_doc,
    reason = "the vendor functions' contracts are the vendor's"
)]

use std::ffi::{c_char, c_uint, c_void};

use super::binding::{Api, handle_ptr, invalid, out};
use super::cuda_runtime::*;
use crate::engine::core::error::SimError;
use crate::engine::core::pointers::DevicePtr;
use crate::engine::ipc::events::IpcEventHandle;

/// `cudaIpcEventHandle_t` / `musaIpcEventHandle_t`: 64 opaque bytes.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IpcEventHandleC {
    /// The bytes.
    pub reserved: [c_char; 64],
}

pub(crate) unsafe fn ipc_get_event_handle(
    api: Api,
    handle: *mut IpcEventHandleC,
    e: *mut c_void,
) -> Error {
    run(api, |p| {
        if handle.is_null() {
            return Err(invalid("IpcGetEventHandle", "NULL output pointer"));
        }
        let h = p.ipc_get_event_handle(event(e))?;
        let reserved = h.0.map(|b| b as c_char);
        // SAFETY: checked non-NULL; C contract.
        unsafe { out("IpcGetEventHandle", handle, IpcEventHandleC { reserved }) }
    })
}

pub(crate) unsafe fn ipc_open_event_handle(
    api: Api,
    e: *mut *mut c_void,
    handle: IpcEventHandleC,
) -> Error {
    run(api, |p| {
        if e.is_null() {
            return Err(invalid("IpcOpenEventHandle", "NULL output pointer"));
        }
        let opened = p.ipc_open_event_handle(&IpcEventHandle(
            handle.reserved.map(|b| u8::from_ne_bytes(b.to_ne_bytes())),
        ))?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out("IpcOpenEventHandle", e, handle_ptr(opened.to_raw())) }
    })
}

/// `cudaIpcMemHandle_t` / `musaIpcMemHandle_t`: 64 opaque bytes.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IpcMemHandleC {
    /// The bytes.
    pub reserved: [c_char; 64],
}

pub(crate) unsafe fn ipc_get_mem_handle(
    api: Api,
    handle: *mut IpcMemHandleC,
    ptr: *mut c_void,
) -> Error {
    run(api, |p| {
        if handle.is_null() {
            return Err(invalid("IpcGetMemHandle", "NULL output pointer"));
        }
        let h = p.ipc_get_mem_handle(DevicePtr(ptr as usize as u64))?;
        let reserved = h.0.map(|b| b as c_char);
        // SAFETY: checked non-NULL; C contract.
        unsafe { out("IpcGetMemHandle", handle, IpcMemHandleC { reserved }) }
    })
}

pub(crate) unsafe fn ipc_open_mem_handle(
    api: Api,
    ptr: *mut *mut c_void,
    handle: IpcMemHandleC,
    flags: c_uint,
) -> Error {
    run(api, |p| {
        if ptr.is_null() {
            return Err(invalid("IpcOpenMemHandle", "NULL output pointer"));
        }
        // cudaIpcMemLazyEnablePeerAccess is the one flag (the docs: "must be specified as"); 0 opens without
        // enabling peer access (sim).
        if flags & !1 != 0 {
            return Err(SimError::InvalidFlags {
                what: "IpcOpenMemHandle",
                flags,
                reason: "the one flag is cudaIpcMemLazyEnablePeerAccess (1)",
            });
        }
        let opened = p.ipc_open_mem_handle(
            &crate::engine::ipc::memory::IpcMemHandle(
                handle.reserved.map(|b| u8::from_ne_bytes(b.to_ne_bytes())),
            ),
            flags & 1 != 0,
        )?;
        // SAFETY: checked non-NULL; C contract.
        unsafe {
            out(
                "IpcOpenMemHandle",
                ptr,
                opened.addr() as usize as *mut c_void,
            )
        }
    })
}

pub(crate) fn ipc_close_mem_handle(api: Api, ptr: *mut c_void) -> Error {
    run(api, |p| {
        p.ipc_close_mem_handle(DevicePtr(ptr as usize as u64))
    })
}
