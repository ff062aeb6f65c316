//! The streamsim-specific part of the C API (`include/streamsim.h`): simulated machines and processes as
//! opaque handles, binding a process to the calling thread (so that one OS process can play several
//! simulated processes, e.g. both ends of an IPC event), the facades' default processes, the message of the
//! last error, and kernel stand-ins whose body can fail.
//!
//! Every function returns a [`streamsimError`] (or, for the fallible kernel stand-ins, the vendor's code),
//! never panics across the boundary, and refuses NULL, destroyed and garbage handles with
//! [`STREAMSIM_ERROR_INVALID_HANDLE`]: a handle is an id looked up in a registry, never a dereferenced
//! pointer.
//!
//! ```
//! use std::ptr;
//! use streamsim::capi::*;
//! use streamsim::musa::*;
//!
//! unsafe {
//!     let mut machine = ptr::null_mut();
//!     assert_eq!(streamsimMachineCreate(&mut machine, STREAMSIM_DIALECT_CUDA, 1, 7), STREAMSIM_SUCCESS);
//!     let mut process = ptr::null_mut();
//!     assert_eq!(streamsimProcessCreate(&mut process, machine), STREAMSIM_SUCCESS);
//!     assert_eq!(streamsimBind(process), STREAMSIM_SUCCESS); // this thread's musa* calls go to `process`
//!     let mut event = ptr::null_mut();
//!     assert_eq!(musaEventCreate(&mut event), musaSuccess);
//!     assert_eq!(streamsimUnbind(), STREAMSIM_SUCCESS);
//!     assert_eq!(streamsimProcessDestroy(process), STREAMSIM_SUCCESS);
//!     assert_eq!(streamsimProcessDestroy(process), STREAMSIM_ERROR_INVALID_HANDLE);
//!     assert_eq!(streamsimMachineDestroy(machine), STREAMSIM_SUCCESS);
//! }
//! ```
//!
//! Lock order: the registry's lock is a leaf. It is never held while the core is called, and a machine or
//! process removed from it is dropped after the lock is released (dropping the last handle of a machine
//! waits for its queued work).
#![allow(
    non_camel_case_types,
    non_upper_case_globals,
    non_snake_case,
    reason = "the C API's names"
)]

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::ffi::{CStr, CString, c_char, c_int, c_void};

use parking_lot::Mutex;

use crate::engine::core::error::{FaultKind, SimError};
use crate::engine::core::handle::Stream;
use crate::engine::core::limits::MAX_DEVICES;
use crate::engine::core::rules::Dialect;
use crate::engine::kernels::kernel::KernelError;
use crate::engine::machine::Machine;
use crate::engine::process::Process;
use crate::facade::acl::{aclError, aclrtStream};
use crate::facade::binding::{self as facade, Api, NoProcess, contain};
use crate::facade::cuda_runtime as rt;

// ---------------------------------------------------------------------------------------------- types

/// The toolkit's calls (machine options, race reports, names): `src/facade/capi_toolkit.rs`.
pub use crate::facade::capi_toolkit::*;

/// `streamsimAccess`: a kernel stand-in's declared access to device memory (the `Ex` and `Ctx` stand-ins).
pub use crate::facade::cuda_runtime::streamsimAccess;
// C kernel bodies on device memory (`…LaunchKernelCtx`): the context and its accessors.
pub use crate::facade::kernel_ctx::{
    streamsimKernelCtx, streamsimKernelCtxBody, streamsimKernelMap, streamsimKernelRead,
    streamsimKernelWrite,
};

/// `streamsimError`: the result of a `streamsim*` call ([`STREAMSIM_SUCCESS`] or a `STREAMSIM_ERROR_*`).
pub type streamsimError = c_int;
/// `streamsimMachine`: an opaque simulated-machine handle.
pub type streamsimMachine = *mut c_void;
/// `streamsimProcess`: an opaque simulated-process handle.
pub type streamsimProcess = *mut c_void;
/// `streamsimDialect`: whose semantics a machine follows ([`STREAMSIM_DIALECT_CUDA`] for CUDA and MUSA,
/// [`STREAMSIM_DIALECT_ACL`]).
pub type streamsimDialect = c_int;
/// `streamsimApi`: one of the vendor facades ([`STREAMSIM_API_CUDA`], [`STREAMSIM_API_MUSA`],
/// [`STREAMSIM_API_ACL`]).
pub type streamsimApi = c_int;
/// `streamsimKernelBody`: `void (*)(void *arg)`, the body of a kernel stand-in (`cudasimLaunchKernel`, …).
pub type streamsimKernelBody = Option<unsafe extern "C" fn(arg: *mut c_void)>;
/// `streamsimFallibleKernelBody`: `int (*)(void *arg)`, the body of a fallible kernel stand-in: 0 is success,
/// [`STREAMSIM_FAULT_ILLEGAL_ADDRESS`] an illegal-address fault, any other value a launch failure.
pub type streamsimFallibleKernelBody = Option<unsafe extern "C" fn(arg: *mut c_void) -> c_int>;

// ---------------------------------------------------------------------------------------------- constants

/// `STREAMSIM_SUCCESS`.
pub const STREAMSIM_SUCCESS: streamsimError = 0;
/// `STREAMSIM_ERROR_INVALID_VALUE`: a NULL output pointer, an unknown dialect or API, a device count above
/// 1024.
pub const STREAMSIM_ERROR_INVALID_VALUE: streamsimError = 1;
/// `STREAMSIM_ERROR_INVALID_HANDLE`: a NULL, destroyed or garbage machine or process handle.
pub const STREAMSIM_ERROR_INVALID_HANDLE: streamsimError = 2;
/// `STREAMSIM_ERROR_NOT_BOUND`: `streamsimUnbind` without a `streamsimBind` on this thread.
pub const STREAMSIM_ERROR_NOT_BOUND: streamsimError = 3;
/// `STREAMSIM_ERROR_CONFIG`: the default machine cannot be built from `STREAMSIM_DEVICES` /
/// `STREAMSIM_SEED`.
pub const STREAMSIM_ERROR_CONFIG: streamsimError = 4;
/// `STREAMSIM_ERROR_NOT_PERMITTED`: a `streamsim*` call from inside a host function or kernel body.
pub const STREAMSIM_ERROR_NOT_PERMITTED: streamsimError = 5;
/// `STREAMSIM_ERROR_ILLEGAL_ADDRESS`: a Ctx kernel body's access outside its declared accesses, past the end
/// of an allocation, or a write into a range declared read-only; the kernel faults (see
/// [`streamsimKernelRead`]).
pub const STREAMSIM_ERROR_ILLEGAL_ADDRESS: streamsimError = 6;
/// `STREAMSIM_ERROR_NO_TRACE`: `streamsimMachineWriteTrace` on a machine that keeps no trace.
pub const STREAMSIM_ERROR_NO_TRACE: streamsimError = 7;
/// `STREAMSIM_ERROR_IO`: a file cannot be written (the message is printed to standard error).
pub const STREAMSIM_ERROR_IO: streamsimError = 8;
/// `STREAMSIM_ERROR_INTERNAL`: a bug in the simulator (a contained panic).
pub const STREAMSIM_ERROR_INTERNAL: streamsimError = 999;

/// `STREAMSIM_DIALECT_CUDA`: CUDA's (and MUSA's) semantics.
pub const STREAMSIM_DIALECT_CUDA: streamsimDialect = 0;
/// `STREAMSIM_DIALECT_ACL`: Ascend ACL's semantics.
pub const STREAMSIM_DIALECT_ACL: streamsimDialect = 1;

/// `STREAMSIM_API_CUDA`: the `cuda*` functions.
pub const STREAMSIM_API_CUDA: streamsimApi = 0;
/// `STREAMSIM_API_MUSA`: the `musa*` functions.
pub const STREAMSIM_API_MUSA: streamsimApi = 1;
/// `STREAMSIM_API_ACL`: the `acl*` functions.
pub const STREAMSIM_API_ACL: streamsimApi = 2;

/// `STREAMSIM_ACCESS_READ`: a `streamsimAccess::flags` bit: the kernel reads the range.
pub const STREAMSIM_ACCESS_READ: c_int = rt::ACCESS_READ;
/// `STREAMSIM_ACCESS_WRITE`: a `streamsimAccess::flags` bit: the kernel writes the range (and may read it).
/// OR-ed with [`STREAMSIM_ACCESS_READ`] it means the same: a write conflicts with every access.
pub const STREAMSIM_ACCESS_WRITE: c_int = rt::ACCESS_WRITE;

/// `STREAMSIM_FAULT_NONE`: a fallible kernel body's success.
pub const STREAMSIM_FAULT_NONE: c_int = 0;
/// `STREAMSIM_FAULT_LAUNCH_FAILURE`: the kernel failed (CUDA/MUSA 719, ACL 507015).
pub const STREAMSIM_FAULT_LAUNCH_FAILURE: c_int = 1;
/// `STREAMSIM_FAULT_ILLEGAL_ADDRESS`: the kernel touched memory it must not (CUDA/MUSA 700, ACL 507015).
pub const STREAMSIM_FAULT_ILLEGAL_ADDRESS: c_int = 2;

/// The descriptions of the codes, for [`streamsimGetErrorString`].
const DESCRIPTIONS: &[(streamsimError, &CStr)] = &[
    (STREAMSIM_SUCCESS, c"no error"),
    (
        STREAMSIM_ERROR_INVALID_VALUE,
        c"invalid argument (NULL output pointer, unknown dialect or API, or too many devices)",
    ),
    (
        STREAMSIM_ERROR_INVALID_HANDLE,
        c"invalid machine or process handle (NULL, destroyed, or not a streamsim handle)",
    ),
    (
        STREAMSIM_ERROR_NOT_BOUND,
        c"no process bound with streamsimBind on this thread",
    ),
    (
        STREAMSIM_ERROR_CONFIG,
        c"the default machine cannot be built from STREAMSIM_DEVICES / STREAMSIM_SEED",
    ),
    (
        STREAMSIM_ERROR_NOT_PERMITTED,
        c"streamsim calls are not permitted inside a host function or kernel body",
    ),
    (
        STREAMSIM_ERROR_ILLEGAL_ADDRESS,
        c"illegal address: the kernel body accessed memory its launch did not declare (or wrote a range declared read-only); the kernel faults",
    ),
    (
        STREAMSIM_ERROR_NO_TRACE,
        c"the machine keeps no trace (create it with the trace option, or set STREAMSIM_TRACE)",
    ),
    (
        STREAMSIM_ERROR_IO,
        c"the file cannot be written (the message is on standard error)",
    ),
    (
        STREAMSIM_ERROR_INTERNAL,
        c"internal simulator error (a bug: please report it)",
    ),
];

// ---------------------------------------------------------------------------------------------- registry

/// Handle values: a tag in the high bits (machine / process) and a never-reused serial number, so that a
/// destroyed handle stays invalid and a handle of the wrong kind is refused.
const TAG_SHIFT: u32 = 48;
const MACHINE_TAG: u64 = 0x534D << TAG_SHIFT; // "SM"
const PROCESS_TAG: u64 = 0x5350 << TAG_SHIFT; // "SP"

struct Registry {
    next: u64,
    machines: BTreeMap<u64, Machine>,
    processes: BTreeMap<u64, Process>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    next: 1,
    machines: BTreeMap::new(),
    processes: BTreeMap::new(),
});

impl Registry {
    fn serial(&mut self, tag: u64) -> u64 {
        let n = self.next;
        self.next += 1;
        debug_assert!(n < 1 << TAG_SHIFT);
        tag | n
    }
}

pub(crate) fn add_machine(m: Machine) -> streamsimMachine {
    let mut r = REGISTRY.lock();
    let h = r.serial(MACHINE_TAG);
    r.machines.insert(h, m);
    h as usize as streamsimMachine
}

fn add_process(p: Process) -> streamsimProcess {
    let mut r = REGISTRY.lock();
    let h = r.serial(PROCESS_TAG);
    r.processes.insert(h, p);
    h as usize as streamsimProcess
}

pub(crate) fn machine(h: streamsimMachine) -> Result<Machine, streamsimError> {
    REGISTRY
        .lock()
        .machines
        .get(&(h as usize as u64))
        .cloned()
        .ok_or(STREAMSIM_ERROR_INVALID_HANDLE)
}

fn process(h: streamsimProcess) -> Result<Process, streamsimError> {
    REGISTRY
        .lock()
        .processes
        .get(&(h as usize as u64))
        .cloned()
        .ok_or(STREAMSIM_ERROR_INVALID_HANDLE)
}

/// Runs a `streamsim*` body: refused inside host functions and kernel bodies, panics contained.
pub(crate) fn run(f: impl FnOnce() -> Result<(), streamsimError>) -> streamsimError {
    contain(STREAMSIM_ERROR_INTERNAL, || {
        if crate::engine::exec::workers::on_worker_thread() {
            return STREAMSIM_ERROR_NOT_PERMITTED;
        }
        match f() {
            Ok(()) => STREAMSIM_SUCCESS,
            Err(e) => e,
        }
    })
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

pub(crate) fn api(a: streamsimApi) -> Result<Api, streamsimError> {
    match a {
        STREAMSIM_API_CUDA => Ok(Api::Cuda),
        STREAMSIM_API_MUSA => Ok(Api::Musa),
        STREAMSIM_API_ACL => Ok(Api::Acl),
        _ => Err(STREAMSIM_ERROR_INVALID_VALUE),
    }
}

// ---------------------------------------------------------------------------------------------- machines

/// `streamsimMachineCreate`: a new simulated machine with `devices` devices (0–1024) following `dialect`,
/// seeded with `seed`, every pair of devices linked for peer access, and the default cost model.
///
/// # Safety
/// `machine` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn streamsimMachineCreate(
    machine: *mut streamsimMachine,
    dialect: streamsimDialect,
    devices: u32,
    seed: u64,
) -> streamsimError {
    run(|| {
        if machine.is_null() || devices > MAX_DEVICES {
            return Err(STREAMSIM_ERROR_INVALID_VALUE);
        }
        let dialect = match dialect {
            STREAMSIM_DIALECT_CUDA => Dialect::Cuda,
            STREAMSIM_DIALECT_ACL => Dialect::Acl,
            _ => return Err(STREAMSIM_ERROR_INVALID_VALUE),
        };
        let m = Machine::builder()
            .devices(devices)
            .seed(seed)
            .dialect(dialect)
            .build()
            .map_err(|_| STREAMSIM_ERROR_INVALID_VALUE)?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(machine, add_machine(m)) }
    })
}

/// `streamsimMachineDestroy`: releases a machine handle. The machine shuts down (its queued work completes,
/// its worker threads are released to the pool for later streams) when its last handle is released: machine
/// and process handles and bindings all count.
#[unsafe(no_mangle)]
pub extern "C" fn streamsimMachineDestroy(machine: streamsimMachine) -> streamsimError {
    run(|| {
        let removed = REGISTRY.lock().machines.remove(&(machine as usize as u64));
        if removed.is_some() {
            // The race reports' strings read through this handle (src/facade/capi_toolkit.rs).
            crate::facade::capi_toolkit::forget_machine(machine as usize as u64);
        }
        // Dropped here, outside the registry's lock: the last handle waits for the machine's work.
        removed.map(drop).ok_or(STREAMSIM_ERROR_INVALID_HANDLE)
    })
}

/// `streamsimMachineGetDeviceCount`.
///
/// # Safety
/// `count` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn streamsimMachineGetDeviceCount(
    machine: streamsimMachine,
    count: *mut u32,
) -> streamsimError {
    run(|| {
        let m = self::machine(machine)?;
        // SAFETY: C contract.
        unsafe { out(count, m.device_count()) }
    })
}

// ---------------------------------------------------------------------------------------------- processes

/// `streamsimProcessCreate`: a new simulated process on `machine` (with its own streams, events, memory and
/// per-thread state; another process's handles are refused, and IPC handles can be opened across
/// processes).
///
/// # Safety
/// `process` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn streamsimProcessCreate(
    process: *mut streamsimProcess,
    machine: streamsimMachine,
) -> streamsimError {
    run(|| {
        let m = self::machine(machine)?;
        if process.is_null() {
            return Err(STREAMSIM_ERROR_INVALID_VALUE);
        }
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(process, add_process(m.process())) }
    })
}

/// `streamsimProcessDestroy`: releases a process handle. The simulated process and its objects live until its
/// last handle and binding are released ([`Machine::process`]; a binding made with the handle stays valid
/// until `streamsimUnbind`).
#[unsafe(no_mangle)]
pub extern "C" fn streamsimProcessDestroy(process: streamsimProcess) -> streamsimError {
    run(|| {
        let removed = REGISTRY.lock().processes.remove(&(process as usize as u64));
        removed.map(drop).ok_or(STREAMSIM_ERROR_INVALID_HANDLE)
    })
}

/// `streamsimProcessGetMachine`: a new handle of the process's machine (release it with
/// `streamsimMachineDestroy`).
///
/// # Safety
/// `machine` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn streamsimProcessGetMachine(
    process: streamsimProcess,
    machine: *mut streamsimMachine,
) -> streamsimError {
    run(|| {
        let p = self::process(process)?;
        if machine.is_null() {
            return Err(STREAMSIM_ERROR_INVALID_VALUE);
        }
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(machine, add_machine(p.machine())) }
    })
}

/// `streamsimProcessGetId`: the process's ordinal on its machine (0 for the first process).
///
/// # Safety
/// `id` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn streamsimProcessGetId(
    process: streamsimProcess,
    id: *mut u32,
) -> streamsimError {
    run(|| {
        let p = self::process(process)?;
        // SAFETY: C contract.
        unsafe { out(id, p.id().0) }
    })
}

/// `streamsimDefaultProcess`: a new handle of the process that `api`'s calls go to when nothing is bound (the
/// facade's default machine, built on first use from `STREAMSIM_DEVICES` and `STREAMSIM_SEED`). Create a
/// second process on its machine to play the other end of an IPC exchange.
///
/// # Safety
/// `process` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn streamsimDefaultProcess(
    process: *mut streamsimProcess,
    api: streamsimApi,
) -> streamsimError {
    run(|| {
        let api = self::api(api)?;
        if process.is_null() {
            return Err(STREAMSIM_ERROR_INVALID_VALUE);
        }
        let p = facade::default_process(api).map_err(|_| STREAMSIM_ERROR_CONFIG)?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(process, add_process(p)) }
    })
}

/// `streamsimCurrentProcess`: a new handle of the process that `api`'s calls from this thread go to now (the
/// innermost binding, or the default process).
///
/// # Safety
/// `process` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn streamsimCurrentProcess(
    process: *mut streamsimProcess,
    api: streamsimApi,
) -> streamsimError {
    run(|| {
        let api = self::api(api)?;
        if process.is_null() {
            return Err(STREAMSIM_ERROR_INVALID_VALUE);
        }
        let p = facade::process(api).map_err(|e| match e {
            NoProcess::Config(_) => STREAMSIM_ERROR_CONFIG,
            // Bound to a machine of another dialect: the binding is still the process calls go to.
            NoProcess::WrongDialect(_) => STREAMSIM_ERROR_INVALID_VALUE,
        })?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(process, add_process(p)) }
    })
}

// ---------------------------------------------------------------------------------------------- binding

/// `streamsimBind`: routes the calling thread's `cuda*` / `musa*` / `acl*` calls to `process` until the
/// matching `streamsimUnbind` (bindings nest). Calls through a facade of another dialect than the process's
/// machine fail (CUDA/MUSA `cudaErrorNotSupported`, ACL `ACL_ERROR_RT_FEATURE_NOT_SUPPORT`). On a thread
/// other than the main one whose thread-locals are being destroyed (its C++ `thread_local` destructors), no
/// binding can last: [`STREAMSIM_ERROR_NOT_PERMITTED`].
#[unsafe(no_mangle)]
pub extern "C" fn streamsimBind(process: streamsimProcess) -> streamsimError {
    run(|| {
        let p = self::process(process)?;
        if facade::bind_c(&p) {
            Ok(())
        } else {
            Err(STREAMSIM_ERROR_NOT_PERMITTED)
        }
    })
}

/// `streamsimUnbind`: ends the calling thread's innermost `streamsimBind`; the previous routing comes back.
#[unsafe(no_mangle)]
pub extern "C" fn streamsimUnbind() -> streamsimError {
    run(|| {
        if facade::unbind_c() {
            Ok(())
        } else {
            Err(STREAMSIM_ERROR_NOT_BOUND)
        }
    })
}

// ---------------------------------------------------------------------------------------------- messages

thread_local! {
    static MESSAGE: RefCell<Option<CString>> = const { RefCell::new(None) };
}
/// Where [`streamsimGetLastErrorMessage`] keeps its string once the thread's locals are destroyed.
static MESSAGE_AFTER_EXIT: Mutex<Option<CString>> = Mutex::new(None);

/// `streamsimGetLastErrorMessage`: the message of the calling thread's last error in the process that
/// `api`'s calls go to (what `cudaPeekAtLastError` / `aclGetRecentErrMsg` would report, with the
/// simulator's explanation), or NULL if there is none. The string is valid until the next call of this
/// function on this thread (in an `atexit` handler or a global destructor: until the next call from any
/// such place).
#[unsafe(no_mangle)]
pub extern "C" fn streamsimGetLastErrorMessage(api: streamsimApi) -> *const c_char {
    contain(std::ptr::null(), || {
        if crate::engine::exec::workers::on_worker_thread() {
            return std::ptr::null();
        }
        let Ok(api) = self::api(api) else {
            return std::ptr::null();
        };
        let msg = match facade::process(api) {
            Ok(p) if api == Api::Acl => p.peek_last_error().map(|e| e.to_string()),
            Ok(p) => rt::last_error(&p, false).map(|e| e.to_string()),
            Err(_) => facade::last_message(api),
        };
        let Some(msg) = msg else {
            return std::ptr::null();
        };
        let msg = CString::new(msg.replace('\0', " ")).expect("NULs replaced");
        facade::keep_message(&MESSAGE, &MESSAGE_AFTER_EXIT, msg, false)
    })
}

/// `streamsimGetErrorString`: a static description of a `streamsimError`.
#[unsafe(no_mangle)]
pub extern "C" fn streamsimGetErrorString(error: streamsimError) -> *const c_char {
    DESCRIPTIONS
        .iter()
        .find(|(c, _)| *c == error)
        .map_or(c"unrecognized streamsim error code".as_ptr(), |(_, d)| {
            d.as_ptr()
        })
}

// ---------------------------------------------------------------------------------------------- kernels

/// A fallible kernel: the stand-in's name, duration and declared accesses, and a body whose non-zero result
/// faults the kernel.
///
/// # Safety
/// As `rt::c_kernel`; `body` may be called with `arg` from another thread.
unsafe fn fallible_kernel(
    name: *const c_char,
    duration_ns: u64,
    body: streamsimFallibleKernelBody,
    arg: *mut c_void,
) -> Result<crate::Kernel, SimError> {
    // SAFETY: forwarded C contract (no accesses).
    let k = unsafe { rt::c_kernel(name, duration_ns, None, arg, std::ptr::null(), 0) }?;
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
    Ok(k.shared_body(move |_| {
        // SAFETY: the C caller launched `body` with `arg` for exactly this call.
        let r = unsafe { body(arg.get()) };
        let kind = match r {
            STREAMSIM_FAULT_NONE => return Ok(()),
            STREAMSIM_FAULT_ILLEGAL_ADDRESS => FaultKind::IllegalAddress,
            _ => FaultKind::LaunchFailure,
        };
        Err(KernelError {
            kind,
            message: format!("the kernel body returned {r}"),
        })
    }))
}

/// What a facade answers where its own `run` would: for a contained panic, a call from inside a host function
/// or kernel body, a default machine that cannot be built, a binding of another dialect; and its one mapping
/// of simulator errors.
struct FacadeCodes {
    internal: i64,
    not_permitted: i64,
    no_config: i64,
    wrong_dialect: i64,
    map: fn(&SimError) -> i64,
}

fn facade_codes(api: Api) -> FacadeCodes {
    use crate::facade::acl::*;
    match api {
        Api::Cuda | Api::Musa => FacadeCodes {
            internal: rt::codes::Unknown.into(),
            not_permitted: rt::codes::NotPermitted.into(),
            no_config: rt::codes::NoDevice.into(),
            wrong_dialect: rt::codes::NotSupported.into(),
            map: |e| rt::code(e).into(),
        },
        Api::Acl => FacadeCodes {
            internal: ACL_ERROR_RT_INTERNAL_ERROR.into(),
            not_permitted: ACL_ERROR_RT_FEATURE_NOT_SUPPORT.into(),
            no_config: ACL_ERROR_UNINITIALIZE.into(),
            wrong_dialect: ACL_ERROR_RT_FEATURE_NOT_SUPPORT.into(),
            map: |e| crate::facade::acl::runtime::code(e).into(),
        },
    }
}

/// Launches a fallible kernel through a facade, routed and answered as the facade's own calls are: errors
/// are mapped by the facade's mapping function and stored as the thread's last error.
fn launch_fallible(
    api: Api,
    s: *mut c_void,
    make: impl FnOnce() -> Result<crate::Kernel, SimError>,
) -> i64 {
    let codes = facade_codes(api);
    contain(codes.internal, || {
        if crate::engine::exec::workers::on_worker_thread() {
            return codes.not_permitted;
        }
        match facade::process(api) {
            Ok(p) => match make().and_then(|k| p.launch(Stream::from_raw(s as usize as u64), k)) {
                Ok(()) => 0,
                Err(mut e) => {
                    let c = (codes.map)(&e);
                    if api == Api::Acl {
                        // aclGetRecentErrMsg names the function the program called.
                        crate::facade::acl::names::name_the_call(
                            &mut e,
                            "aclsimLaunchFallibleKernel",
                        );
                    }
                    p.set_last_error(e);
                    c
                }
            },
            Err(NoProcess::Config(_)) => codes.no_config,
            Err(NoProcess::WrongDialect(_)) => codes.wrong_dialect,
        }
    })
}

/// `cudasimLaunchFallibleKernel`: `cudasimLaunchKernel` whose body returns a fault code: non-zero faults the
/// kernel, reported by the next synchronize that covers it as `cudaErrorLaunchFailure` (719) or, for
/// [`STREAMSIM_FAULT_ILLEGAL_ADDRESS`], `cudaErrorIllegalAddress` (700); sticky until the device is reset.
///
/// # Safety
/// `name` is NULL or NUL-terminated; `body` is NULL or a function that may be called with `arg` from another
/// thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudasimLaunchFallibleKernel(
    stream: *mut c_void,
    name: *const c_char,
    durationNs: u64,
    body: streamsimFallibleKernelBody,
    arg: *mut c_void,
) -> rt::Error {
    let code = launch_fallible(Api::Cuda, stream, || {
        // SAFETY: forwarded C contract.
        unsafe { fallible_kernel(name, durationNs, body, arg) }
    });
    code as rt::Error
}

/// `musasimLaunchFallibleKernel`: `musasimLaunchKernel` whose body returns a fault code (see
/// [`cudasimLaunchFallibleKernel`]: `musaErrorLaunchFailure` / `musaErrorIllegalAddress`).
///
/// # Safety
/// As [`cudasimLaunchFallibleKernel`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn musasimLaunchFallibleKernel(
    stream: *mut c_void,
    name: *const c_char,
    durationNs: u64,
    body: streamsimFallibleKernelBody,
    arg: *mut c_void,
) -> rt::Error {
    let code = launch_fallible(Api::Musa, stream, || {
        // SAFETY: forwarded C contract.
        unsafe { fallible_kernel(name, durationNs, body, arg) }
    });
    code as rt::Error
}

/// `aclsimLaunchFallibleKernel`: `aclsimLaunchKernel` whose body returns a fault code: non-zero faults the
/// kernel, reported by the next synchronize that covers it as `ACL_ERROR_RT_AICORE_EXCEPTION` (507015), as the
/// stream's failure mode says (`aclrtSetStreamFailureMode`: by default reported once, later tasks still run).
///
/// # Safety
/// As [`cudasimLaunchFallibleKernel`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclsimLaunchFallibleKernel(
    stream: aclrtStream,
    name: *const c_char,
    durationNs: u64,
    body: streamsimFallibleKernelBody,
    arg: *mut c_void,
) -> aclError {
    let code = launch_fallible(Api::Acl, stream, || {
        // SAFETY: forwarded C contract.
        unsafe { fallible_kernel(name, durationNs, body, arg) }
    });
    code as aclError
}
