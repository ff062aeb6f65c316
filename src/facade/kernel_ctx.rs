//! C kernel bodies on device memory: `cudasimLaunchKernelCtx` / `musasimLaunchKernelCtx` /
//! `aclsimLaunchKernelCtx` launch a kernel whose body is `void (*)(streamsimKernelCtx *ctx, void *arg)`, and
//! the body reads and writes the memory its launch declared through [`streamsimKernelRead`],
//! [`streamsimKernelWrite`] and [`streamsimKernelMap`] (`include/streamsim.h`). The rules, call by call, are
//! in `docs/semantics/kernel-bodies.md`.
//!
//! What keeps the host safe:
//! - **No pointer into the simulator's memory.** A device allocation's bytes sit behind a lock, because the
//!   copies and memsets of other streams write them from other threads; a C pointer into them would race with
//!   those writes outside the lock. So the accessors copy under the lock, and a map is a staging copy owned by
//!   the context: taken at the map, with the device address's alignment modulo 64, and written back (the
//!   bytes the body changed) when the body returns. A racy program still gets wrong data, as on hardware —
//!   what the other stream had written when the body mapped or read — and the simulator's own state is never
//!   corrupted.
//! - **The context is a token.** It is served only on the thread running its body, while the body runs (a
//!   thread-local holds the live one); a stale, forged or another body's pointer is
//!   `STREAMSIM_ERROR_INVALID_HANDLE` and is never dereferenced.
//! - **Every device address is checked** against the launch's declared accesses, as resolved at the launch
//!   ([`KernelCtx::read_declared`], [`KernelCtx::write_declared`]): outside them, past the end of an
//!   allocation, or a write into a range declared read-only faults the kernel with an illegal address (CUDA
//!   and MUSA 700, ACL 507015, at the next synchronize that covers it; sticky) and the accessor returns
//!   `STREAMSIM_ERROR_ILLEGAL_ADDRESS`; the body's later accesses do nothing and return it again, and its
//!   maps are not written back.
//! - **Host pointers are checked where they can be**: NULL, or an address in a device's range (never host
//!   memory), is `STREAMSIM_ERROR_INVALID_VALUE`. Any other host pointer is the caller's, as in `memcpy`.
#![allow(non_camel_case_types, non_snake_case, reason = "the C API's names")]

use std::alloc::Layout;
use std::cell::{Cell, RefCell};
use std::ffi::{c_char, c_void};

use crate::engine::core::error::SimError;
use crate::engine::core::pointers::DevicePtr;
use crate::engine::kernels::kernel::{Kernel, KernelCtx, KernelError};
use crate::facade::binding::contain;
use crate::facade::capi::{
    STREAMSIM_ERROR_ILLEGAL_ADDRESS, STREAMSIM_ERROR_INTERNAL, STREAMSIM_ERROR_INVALID_HANDLE,
    STREAMSIM_ERROR_INVALID_VALUE, STREAMSIM_SUCCESS, streamsimError,
};
use crate::facade::cuda_runtime::{self as rt, streamsimAccess};

/// `streamsimKernelCtx`: what a Ctx kernel body is given, an opaque token (never dereferenced by the C side).
#[repr(C)]
#[derive(Debug)]
pub struct streamsimKernelCtx {
    _opaque: [u8; 0],
}

/// `streamsimKernelCtxBody`: `void (*)(streamsimKernelCtx *ctx, void *arg)`, the body of a Ctx kernel.
pub type streamsimKernelCtxBody =
    Option<unsafe extern "C" fn(ctx: *mut streamsimKernelCtx, arg: *mut c_void)>;

/// The alignment a staging copy keeps: its first byte has the device address's remainder modulo this, so a
/// cast to any C type (up to 64-byte vectors) is as aligned as the device pointer was.
const STAGING_ALIGN: usize = 64;

/// A map's staging copy: `len` bytes of device memory at `addr`, in memory owned here, and the bytes as they
/// were when copied (to find what the body changed). Read and written through raw pointers only: the C body
/// holds a pointer into it between accessor calls.
struct Staging {
    addr: u64,
    len: usize,
    alloc: *mut u8,
    layout: Layout,
    /// `alloc` + the device address's remainder modulo [`STAGING_ALIGN`].
    data: *mut u8,
    before: Vec<u8>,
}

impl Staging {
    /// A staging copy of `bytes`, the device memory at `addr`; `None` if the host cannot hold it.
    fn new(addr: u64, bytes: Vec<u8>) -> Option<Staging> {
        let skew = (addr % STAGING_ALIGN as u64) as usize;
        let size = skew.checked_add(bytes.len())?.max(1);
        let layout = Layout::from_size_align(size, STAGING_ALIGN).ok()?;
        // SAFETY: the layout has a non-zero size.
        let alloc = unsafe { std::alloc::alloc(layout) };
        if alloc.is_null() {
            return None;
        }
        // SAFETY: `alloc` holds `skew + bytes.len()` bytes; `bytes` is a separate allocation.
        let data = unsafe { alloc.add(skew) };
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), data, bytes.len()) };
        Some(Staging {
            addr,
            len: bytes.len(),
            alloc,
            layout,
            data,
            before: bytes,
        })
    }

    fn end(&self) -> u64 {
        self.addr + self.len as u64
    }

    /// The overlap of `[addr, addr + len)` with this copy: (offset here, offset there, length).
    fn overlap(&self, addr: u64, len: usize) -> Option<(usize, usize, usize)> {
        let start = addr.max(self.addr);
        let end = (addr + len as u64).min(self.end());
        (start < end).then(|| {
            (
                (start - self.addr) as usize,
                (start - addr) as usize,
                (end - start) as usize,
            )
        })
    }

    /// The runs of bytes the body changed: (offset, length).
    fn changed(&self) -> Vec<(usize, usize)> {
        // SAFETY: `data` holds `len` initialised bytes; the body has returned, nothing else writes them.
        let now = unsafe { std::slice::from_raw_parts(self.data, self.len) };
        let mut runs = Vec::new();
        let mut i = 0;
        while i < self.len {
            if now[i] == self.before[i] {
                i += 1;
                continue;
            }
            let start = i;
            while i < self.len && now[i] != self.before[i] {
                i += 1;
            }
            runs.push((start, i - start));
        }
        runs
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout.
        unsafe { std::alloc::dealloc(self.alloc, self.layout) };
    }
}

/// The state of one running Ctx body.
struct State<'a> {
    kctx: &'a KernelCtx,
    maps: Vec<Staging>,
    fault: Option<KernelError>,
}

impl State<'_> {
    /// Writes back what the body changed through its maps, in the order they were made; the first write
    /// outside a write access faults the kernel and the rest is not written.
    fn finish(self) -> Result<(), KernelError> {
        if let Some(f) = self.fault {
            return Err(f);
        }
        for m in &self.maps {
            for (off, len) in m.changed() {
                // SAFETY: `data` holds `len` bytes from `off`; the body has returned.
                let run = unsafe { std::slice::from_raw_parts(m.data.add(off), len) };
                self.kctx
                    .write_declared(DevicePtr(m.addr + off as u64), run)?;
            }
        }
        Ok(())
    }
}

thread_local! {
    /// The context of the Ctx body running on this thread (a worker), or NULL.
    static LIVE: Cell<*const c_void> = const { Cell::new(std::ptr::null()) };
}

/// While alive, marks `token` as this thread's live context (and restores the previous one after).
struct Live(*const c_void);

impl Live {
    fn enter(token: *const c_void) -> Live {
        Live(LIVE.with(|l| l.replace(token)))
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        let prev = self.0;
        let _ = LIVE.try_with(|l| l.set(prev));
    }
}

/// Why an accessor refuses.
enum Refusal {
    /// A bad host-side argument: `STREAMSIM_ERROR_INVALID_VALUE`, the kernel does not fault.
    Invalid,
    /// A bad device access: the kernel faults.
    Fault(KernelError),
}

impl From<KernelError> for Refusal {
    fn from(e: KernelError) -> Refusal {
        Refusal::Fault(e)
    }
}

/// Serves an accessor call on `ctx`, if it is the live context of this thread.
fn serve(
    ctx: *mut streamsimKernelCtx,
    f: impl FnOnce(&mut State<'_>) -> Result<(), Refusal>,
) -> streamsimError {
    contain(STREAMSIM_ERROR_INTERNAL, || {
        let live = LIVE.try_with(|l| l.get()).unwrap_or(std::ptr::null());
        if ctx.is_null() || ctx.cast_const().cast::<c_void>() != live {
            return STREAMSIM_ERROR_INVALID_HANDLE;
        }
        // SAFETY: `live` is the address of the `RefCell<State>` of the body running on this thread, set by
        // `ctx_kernel`'s closure for exactly as long as that cell lives.
        let cell = unsafe { &*live.cast::<RefCell<State<'_>>>() };
        let Ok(mut st) = cell.try_borrow_mut() else {
            return STREAMSIM_ERROR_INTERNAL;
        };
        if st.fault.is_some() {
            return STREAMSIM_ERROR_ILLEGAL_ADDRESS;
        }
        match f(&mut st) {
            Ok(()) => STREAMSIM_SUCCESS,
            Err(Refusal::Invalid) => STREAMSIM_ERROR_INVALID_VALUE,
            Err(Refusal::Fault(e)) => {
                st.fault = Some(e);
                STREAMSIM_ERROR_ILLEGAL_ADDRESS
            }
        }
    })
}

/// A host-side pointer for `bytes` bytes: refused if NULL (with bytes) or in a device's address range.
fn host_side(p: *const c_void, bytes: usize) -> Result<(), Refusal> {
    if bytes > 0 && (p.is_null() || DevicePtr(p as usize as u64).device().is_some()) {
        return Err(Refusal::Invalid);
    }
    Ok(())
}

/// A zeroed buffer of `n` bytes, or `Invalid` if the host cannot hold it.
fn buffer(n: usize) -> Result<Vec<u8>, Refusal> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| Refusal::Invalid)?;
    // One memset (`resize` is a loop of byte writes in an unoptimised build, which is how `cargo test` builds
    // the library: 64 MiB took half a second).
    // SAFETY: the capacity is at least `n`; `write_bytes` initialises those `n` bytes before `set_len`.
    unsafe {
        std::ptr::write_bytes(v.as_mut_ptr(), 0, n);
        v.set_len(n);
    }
    Ok(v)
}

/// Builds the kernel of a Ctx launch: the stand-in's name, duration and declared accesses, and `body` run with
/// a context on the declared memory.
///
/// # Safety
/// As `rt::c_kernel`; `body` may be called with `arg` from another thread.
pub(crate) unsafe fn ctx_kernel(
    name: *const c_char,
    duration_ns: u64,
    body: streamsimKernelCtxBody,
    arg: *mut c_void,
    accesses: *const streamsimAccess,
    count: usize,
) -> Result<Kernel, SimError> {
    // SAFETY: forwarded C contract.
    let k = unsafe { rt::c_kernel(name, duration_ns, None, arg, accesses, count) }?;
    let Some(body) = body else {
        return Ok(k);
    };
    struct Arg(*mut c_void);
    // SAFETY: the pointer is only handed back to the C body it was launched with.
    unsafe impl Send for Arg {}
    // SAFETY: as above; a captured launch hands it to the body at each launch of the graph.
    unsafe impl Sync for Arg {}
    impl Arg {
        // A method, so that a closure captures the whole `Arg`, not its field.
        fn get(&self) -> *mut c_void {
            self.0
        }
    }
    let arg = Arg(arg);
    Ok(k.shared_body(move |kctx| {
        let state = RefCell::new(State {
            kctx,
            maps: Vec::new(),
            fault: None,
        });
        let token = (&raw const state).cast::<c_void>();
        let live = Live::enter(token);
        // SAFETY: the C caller launched `body` with `arg` for exactly this call; `token` is served only while
        // `state` lives, on this thread.
        unsafe { body(token.cast_mut().cast::<streamsimKernelCtx>(), arg.get()) };
        drop(live);
        state.into_inner().finish()
    }))
}

/// `streamsimKernelRead`: copies `bytes` bytes of the device memory at `src` into host memory at `dst`.
///
/// # Safety
/// `dst` is NULL or valid for `bytes` bytes of writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn streamsimKernelRead(
    ctx: *mut streamsimKernelCtx,
    dst: *mut c_void,
    src: *const c_void,
    bytes: usize,
) -> streamsimError {
    serve(ctx, |st| {
        host_side(dst, bytes)?;
        let addr = src as usize as u64;
        st.kctx
            .check_declared(DevicePtr(addr), bytes as u64, false)?;
        let mut tmp = buffer(bytes)?;
        st.kctx.read_declared(DevicePtr(addr), &mut tmp)?;
        // What the body wrote through its maps is what it reads back.
        for m in &st.maps {
            if let Some((here, there, n)) = m.overlap(addr, bytes) {
                // SAFETY: in bounds of both (see `overlap`); `tmp` is a separate allocation.
                unsafe {
                    std::ptr::copy_nonoverlapping(m.data.add(here), tmp.as_mut_ptr().add(there), n)
                };
            }
        }
        // SAFETY: `dst` is valid for `bytes` writes by the C contract; it may point into a map (`copy`).
        unsafe { std::ptr::copy(tmp.as_ptr(), dst.cast::<u8>(), bytes) };
        Ok(())
    })
}

/// `streamsimKernelWrite`: copies `bytes` bytes of host memory at `src` into the device memory at `dst`.
///
/// # Safety
/// `src` is NULL or valid for `bytes` bytes of reads.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn streamsimKernelWrite(
    ctx: *mut streamsimKernelCtx,
    dst: *mut c_void,
    src: *const c_void,
    bytes: usize,
) -> streamsimError {
    serve(ctx, |st| {
        host_side(src, bytes)?;
        let addr = dst as usize as u64;
        st.kctx
            .check_declared(DevicePtr(addr), bytes as u64, true)?;
        let mut tmp = buffer(bytes)?;
        // SAFETY: `src` is valid for `bytes` reads by the C contract; `tmp` is a separate allocation.
        unsafe { std::ptr::copy_nonoverlapping(src.cast::<u8>(), tmp.as_mut_ptr(), bytes) };
        st.kctx.write_declared(DevicePtr(addr), &tmp)?;
        // Maps of these bytes see the write, and do not write the old bytes back.
        for m in &mut st.maps {
            if let Some((here, there, n)) = m.overlap(addr, bytes) {
                // SAFETY: in bounds of both (see `overlap`).
                unsafe {
                    std::ptr::copy_nonoverlapping(tmp.as_ptr().add(there), m.data.add(here), n)
                };
                m.before[here..here + n].copy_from_slice(&tmp[there..there + n]);
            }
        }
        Ok(())
    })
}

/// `streamsimKernelMap`: a host pointer to a copy of `bytes` bytes of the device memory at `ptr`, valid until
/// the body returns; what the body writes there reaches the device memory when it returns.
///
/// # Safety
/// `host` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn streamsimKernelMap(
    ctx: *mut streamsimKernelCtx,
    ptr: *const c_void,
    bytes: usize,
    host: *mut *mut c_void,
) -> streamsimError {
    serve(ctx, |st| {
        if host.is_null() || bytes == 0 {
            return Err(Refusal::Invalid);
        }
        let addr = ptr as usize as u64;
        st.kctx
            .check_declared(DevicePtr(addr), bytes as u64, false)?;
        // Inside an earlier map: a pointer into it. Partly over one: refused (two copies of the same bytes
        // could not both be written back).
        for m in &st.maps {
            if let Some((here, _, n)) = m.overlap(addr, bytes) {
                if n != bytes {
                    return Err(Refusal::Invalid);
                }
                // SAFETY: `host` is valid for a write; `here + bytes <= len`.
                unsafe { host.write(m.data.add(here).cast::<c_void>()) };
                return Ok(());
            }
        }
        let mut tmp = buffer(bytes)?;
        st.kctx.read_declared(DevicePtr(addr), &mut tmp)?;
        let m = Staging::new(addr, tmp).ok_or(Refusal::Invalid)?;
        // SAFETY: `host` is valid for a write.
        unsafe { host.write(m.data.cast::<c_void>()) };
        st.maps.push(m);
        Ok(())
    })
}
