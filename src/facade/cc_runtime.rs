//! The host side of `.cu` programs as clang (and nvcc) lower them: the registration entry points a module's
//! constructor calls (`__cudaRegisterFatBinary`, `__cudaRegisterFunction`, `__cudaRegisterVar`, …), the
//! launch configuration of `kernel<<<grid, block, shmem, stream>>>` (`__cudaPushCallConfiguration` /
//! `__cudaPopCallConfiguration`), `cudaLaunchKernel`, and what `streamsim cc`'s CPU runtime (`kernel_rt.c`)
//! calls back: the table of a rewritten device module (`streamsimCcRegisterModule`) and the resolution of a
//! device address a kernel touches (`streamsimCcResolve`).
//!
//! A launch is a kernel of the engine like any other (stream rules, capture, sticky faults, the last error),
//! whose body runs the grid on the stream's worker thread through the module's runner. The semantics:
//! `docs/semantics/kernels-on-the-cpu.md`.
#![allow(non_snake_case, reason = "the C API's names")]

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::ffi::{CStr, c_char, c_int, c_void};
use std::sync::Arc;

use parking_lot::Mutex;

use crate::engine::core::error::{FaultKind, SimError};
use crate::engine::kernels::kernel::{Kernel, KernelCtx, KernelError, Unreachable};
use crate::engine::memory::block::Block;
use crate::engine::observe::race::KernelThread;
use crate::engine::observe::race::kernel_ranges::{self, LaunchTrack, Stamp, Touch, Touched};
use crate::facade::binding::{Api, contain};
use crate::facade::cuda_runtime::{self as rt, Error, codes};

/// `dim3` as the C ABI passes it.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dim3 {
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

/// A row of a rewritten device module's kernel table (`ssk_kernel_row` in `kernel_rt.c`).
#[repr(C)]
#[derive(Debug)]
pub struct KernelRow {
    name: *const c_char,
    size: Option<unsafe extern "C" fn() -> u64>,
    pack: Option<unsafe extern "C" fn(args: *mut *mut c_void, buf: *mut c_void)>,
    tramp: Option<unsafe extern "C" fn(buf: *mut c_void)>,
    flags: u32,
    block: Option<unsafe extern "C" fn(buf: *mut c_void)>,
    attrs: Option<unsafe extern "C" fn(out: *mut u64)>,
    /// racecheck's table of the static shared memory the kernel can reach (`ssk_shared_var` rows).
    shared: Option<unsafe extern "C" fn(out: *mut c_void) -> u32>,
    /// One block's threads as region loops, for a kernel with barriers (`None`: its threads run as fibers).
    fblock: Option<unsafe extern "C" fn(buf: *mut c_void)>,
}

/// A row of a module's variable table (`ssk_var_row`).
#[repr(C)]
#[derive(Debug)]
pub struct VarRow {
    name: *const c_char,
    addr: *mut c_void,
}

/// The runner of a module (`run` in `kernel_rt.c`).
pub type Runner = Option<
    unsafe extern "C" fn(
        k: *const KernelRow,
        buf: *mut c_void,
        grid: *const u32,
        block: *const u32,
        shmem: u64,
        msg: *mut c_char,
        msglen: usize,
    ) -> c_int,
>;

/// The version of the table `streamsimCcRegisterModule` reads (`TABLE_VERSION` in `src/tools/cc/ir.rs`).
const TABLE_VERSION: u32 = 7;

/// The runner's outcomes (`kernel_rt.c`).
const RUN_OK: c_int = 0;
const RUN_ILLEGAL_ADDRESS: c_int = 1;
const RUN_ASSERT: c_int = 2;
const RUN_MISALIGNED: c_int = 5;
const RUN_BARRIER: c_int = 6;

/// A kernel's CPU code, from a module's table.
#[derive(Clone, Copy)]
struct CpuKernel {
    row: *const KernelRow,
    runner: Runner,
}

// SAFETY: the rows are the module's constant table, alive for the program's life, and read only.
unsafe impl Send for CpuKernel {}
// SAFETY: as above.
unsafe impl Sync for CpuKernel {}

/// A registered kernel stub: its device name and dialect.
#[derive(Debug, Clone)]
struct Stub {
    name: String,
    api: Api,
}

#[derive(Default)]
struct Registry {
    /// Host stub address → the kernel it launches.
    stubs: BTreeMap<usize, Stub>,
    /// Device name → CPU code.
    kernels: BTreeMap<String, CpuKernel>,
    /// Device name of a `__device__` / `__constant__` variable → its bytes in the device module.
    var_addrs: BTreeMap<String, usize>,
    /// Host shadow of a variable → (device name, size).
    host_vars: BTreeMap<usize, (String, usize)>,
    /// Host shadow of a variable → the dialect of its module (for a `__managed__` variable's registration).
    var_api: BTreeMap<usize, Api>,
    /// Per-kernel virtual durations set by the program (`streamsimSetKernelDuration`).
    durations: BTreeMap<usize, u64>,
    /// What `cudaFuncSetAttribute` set, per kernel: (max dynamic shared bytes, preferred carveout).
    func_attrs: BTreeMap<usize, (i32, i32)>,
}

fn registry() -> &'static Mutex<Registry> {
    static R: std::sync::OnceLock<Mutex<Registry>> = std::sync::OnceLock::new();
    R.get_or_init(Mutex::default)
}

/// What a module's fat-binary wrapper points at: `streamsim cc` embeds `streamsim:<dialect>`.
fn module_api(wrapper: *const c_void) -> Api {
    #[repr(C)]
    struct Wrapper {
        magic: i32,
        version: i32,
        data: *const u8,
        filename: *const c_void,
    }
    if wrapper.is_null() {
        return Api::Cuda;
    }
    // SAFETY: the wrapper clang emits (or nvcc's `__fatbinwrap`), four words.
    let w = unsafe { &*(wrapper as *const Wrapper) };
    if w.data.is_null() {
        return Api::Cuda;
    }
    // SAFETY: streamsim's marker is at least 14 bytes; a real fat binary is far longer than the prefix read.
    let head = unsafe { std::slice::from_raw_parts(w.data, 14) };
    match head {
        b"streamsim:musa" => Api::Musa,
        b"streamsim:acl\0" => Api::Acl,
        _ => Api::Cuda,
    }
}

/// A module handle: what `__cudaRegisterFatBinary` returns and the other registration calls get back.
struct Module {
    api: Api,
}

/// `__cudaRegisterFatBinary`: a module's constructor registers its (streamsim) fat binary.
///
/// # Safety
/// `fatCubin` is NULL or a fat-binary wrapper.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaRegisterFatBinary(fatCubin: *mut c_void) -> *mut *mut c_void {
    let api = module_api(fatCubin);
    // One per module of the program (bounded by its object files), alive until its unregistration.
    Box::into_raw(Box::new(Module { api })) as *mut *mut c_void
}

/// `__cudaRegisterFatBinaryEnd`.
#[unsafe(no_mangle)]
pub extern "C" fn __cudaRegisterFatBinaryEnd(_handle: *mut *mut c_void) {}

/// `__cudaUnregisterFatBinary`: at exit (the module's destructor). The module's kernels stay registered:
/// exit handlers that run later may still launch them, and the table lives as long as the program.
#[unsafe(no_mangle)]
pub extern "C" fn __cudaUnregisterFatBinary(_handle: *mut *mut c_void) {}

fn api_of(handle: *mut *mut c_void) -> Api {
    if handle.is_null() {
        return Api::Cuda;
    }
    // SAFETY: handles come from `__cudaRegisterFatBinary`, never freed.
    unsafe { (*(handle as *const Module)).api }
}

/// `__cudaRegisterFunction`: `hostFun` (the host stub) launches the kernel `deviceName`.
///
/// # Safety
/// `deviceName` is NUL-terminated.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments, reason = "the C signature")]
pub unsafe extern "C" fn __cudaRegisterFunction(
    handle: *mut *mut c_void,
    hostFun: *const c_char,
    _deviceFun: *mut c_char,
    deviceName: *const c_char,
    _thread_limit: c_int,
    _tid: *mut c_void,
    _bid: *mut c_void,
    _bDim: *mut c_void,
    _gDim: *mut c_void,
    _wSize: *mut c_int,
) -> c_int {
    contain(0, || {
        if deviceName.is_null() {
            return 0;
        }
        // SAFETY: C contract.
        let name = unsafe { CStr::from_ptr(deviceName) }
            .to_string_lossy()
            .into_owned();
        let api = api_of(handle);
        registry()
            .lock()
            .stubs
            .insert(hostFun as usize, Stub { name, api });
        0
    })
}

/// `__cudaRegisterVar`: `hostVar` is the host's shadow of the device variable `deviceName`.
///
/// # Safety
/// `deviceName` is NUL-terminated.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments, reason = "the C signature")]
pub unsafe extern "C" fn __cudaRegisterVar(
    _handle: *mut *mut c_void,
    hostVar: *mut c_char,
    _deviceAddress: *mut c_char,
    deviceName: *const c_char,
    _ext: c_int,
    size: usize,
    _constant: c_int,
    _global: c_int,
) {
    contain((), || {
        if deviceName.is_null() {
            return;
        }
        // SAFETY: C contract.
        let name = unsafe { CStr::from_ptr(deviceName) }
            .to_string_lossy()
            .into_owned();
        let api = api_of(_handle);
        let mut r = registry().lock();
        r.host_vars.insert(hostVar as usize, (name.clone(), size));
        r.var_api.insert(hostVar as usize, api);
        let managed = r.var_addrs.get(&name) == Some(&(hostVar as usize));
        drop(r);
        if managed {
            register_managed(api, &name, hostVar as usize, size);
        }
    })
}

/// A `__managed__` variable (`cuda_device.h`): its host side refers to the device definition, so the host
/// shadow `__cudaRegisterVar` names and the device module's variable are the same bytes. Registered as managed
/// memory of the dialect's process; a failure (no device, a bad environment) is said on standard error, and
/// the variable stays ordinary host memory.
fn register_managed(api: Api, name: &str, addr: usize, size: usize) {
    if api == Api::Acl {
        return;
    }
    let r = match crate::facade::binding::process(api) {
        // SAFETY: the variable is the program's static storage, `size` bytes, alive for the program's life.
        Ok(p) => unsafe { p.register_managed_var(addr as *mut u8, size as u64) },
        Err(_) => return,
    };
    if let Err(e) = r {
        eprintln!("streamsim: the __managed__ variable `{name}` is not managed memory: {e}");
    }
}

/// `__cudaInitModule`: what nvcc's host code calls (through `__nv_init_managed_rt`, `crt/host_runtime.h`) before
/// its first access to a `__managed__` variable of the module, so that the runtime has made the variable's
/// memory. Here a module's managed variables are allocated when it registers them
/// (`__cudaRegisterManagedVar`, in the module's constructor), so there is nothing left to do: 1, initialised
/// (the caller keeps the answer and does not ask again). A NULL handle is 0.
///
/// # Safety
/// None beyond the C contract: the handle is only compared with NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaInitModule(handle: *mut *mut c_void) -> c_char {
    contain(0, || c_char::from(!handle.is_null()))
}

/// `__cudaRegisterManagedVar`: nvcc's registration of a `__managed__` variable, whose host code reaches it
/// through the pointer stored at `*hostVarPtrAddress`. nvcc passes the variable's name as `deviceAddress` too
/// (`crt/host_runtime.h`: `__device__shadow_var(c, cpp)` is `#c`); its initial value is in the fat binary. When
/// the kernels library (`streamsim cc --kernels`, loaded before the program's constructors) defines the
/// variable, its bytes are the variable: registered as managed memory (attached globally) and stored at
/// `*hostVarPtrAddress`, so host code and kernels share them, initialiser included. Otherwise `size` bytes of
/// managed memory are allocated, zeroed, and standard error says that the initialiser is not known. (Clang
/// registers managed variables this way only for HIP; `streamsim cc` makes `__managed__` a marked `__device__`
/// variable that `__cudaRegisterVar` registers, see `register_managed`.) A failure is said on standard error
/// and leaves `*hostVarPtrAddress` alone.
///
/// # Safety
/// `hostVarPtrAddress` is NULL or valid for a write; `deviceName` is NULL or NUL-terminated.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments, reason = "the C signature")]
pub unsafe extern "C" fn __cudaRegisterManagedVar(
    handle: *mut *mut c_void,
    hostVarPtrAddress: *mut *mut c_void,
    _deviceAddress: *mut c_char,
    deviceName: *const c_char,
    _ext: c_int,
    size: usize,
    _constant: c_int,
    _global: c_int,
) {
    contain((), || {
        let api = api_of(handle);
        if hostVarPtrAddress.is_null() || api == Api::Acl {
            return;
        }
        let name = if deviceName.is_null() {
            String::from("?")
        } else {
            // SAFETY: C contract.
            unsafe { CStr::from_ptr(deviceName) }
                .to_string_lossy()
                .into_owned()
        };
        let Ok(p) = crate::facade::binding::process(api) else {
            return;
        };
        let defined = registry().lock().var_addrs.get(&name).copied();
        if let Some(addr) = defined {
            // The library registered it as managed memory already when it has the variable's host side too.
            let r = if p.is_managed(addr as u64) {
                Ok(())
            } else {
                // SAFETY: the kernels library's static storage for the variable, `size` bytes (the same source
                // declares it), alive while the library is loaded: the program's life.
                unsafe { p.register_managed_var(addr as *mut u8, size as u64) }
            };
            match r {
                // SAFETY: checked non-NULL; C contract.
                Ok(()) => unsafe { *hostVarPtrAddress = addr as *mut c_void },
                Err(e) => {
                    eprintln!(
                        "streamsim: the __managed__ variable `{name}` is not managed memory: {e}"
                    )
                }
            }
            return;
        }
        let attach = crate::engine::host_memory::managed::ManagedAttach::Global;
        match p.malloc_managed(size.max(1) as u64, attach) {
            Ok(h) => {
                eprintln!(
                    "streamsim: the __managed__ variable `{name}` has no definition in a kernels library \
                     (`streamsim cc --kernels`): it starts zeroed, not with its initialiser"
                );
                // SAFETY: checked non-NULL; C contract.
                unsafe { *hostVarPtrAddress = h.as_mut_ptr().cast() };
            }
            Err(e) => {
                eprintln!("streamsim: the __managed__ variable `{name}` cannot be allocated: {e}");
            }
        }
    })
}

impl Registry {
    /// The CPU code of the kernel registered as `name`. A kernel with internal linkage (`static __global__`) is
    /// `_ZL5Delayjj` / `_ZN2nsL6reduceEPf` in the module clang built and `_Z5Delayjj` / `_ZN2ns6reduceEPf` in the fat binary nvcc built from the same source (nvcc names
    /// it without the `L`), so a name nvcc registered finds the body under either.
    fn cpu(&self, name: &str) -> Option<&CpuKernel> {
        self.kernels
            .get(name)
            .or_else(|| internal_linkage_name(name).and_then(|n| self.kernels.get(&n)))
    }
}

/// The Itanium name of `name`'s function with internal linkage: `L` before its unqualified name, at namespace
/// scope (`_Z5Delayjj` → `_ZL5Delayjj`) or nested in namespaces (`_ZN2ns6reduceEPf` → `_ZN2nsL6reduceEPf`). `None`
/// for names of other shapes (templates, substitutions, special names): those are not matched.
fn internal_linkage_name(name: &str) -> Option<String> {
    let rest = name.strip_prefix("_Z")?;
    if rest.starts_with(|c: char| c.is_ascii_digit()) {
        return Some(format!("_ZL{rest}"));
    }
    let nested = rest.strip_prefix('N')?;
    // A run of <length><identifier> source names up to the `E` that ends the nested name.
    let bytes = nested.as_bytes();
    let (mut at, mut last) = (0usize, None);
    while at < bytes.len() && bytes[at].is_ascii_digit() {
        let digits = bytes[at..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let len: usize = nested[at..at + digits].parse().ok()?;
        last = Some(at);
        at = at.checked_add(digits)?.checked_add(len)?;
    }
    if bytes.get(at) != Some(&b'E') {
        return None;
    }
    let last = last?;
    Some(format!("_ZN{}L{}", &nested[..last], &nested[last..]))
}

/// `streamsimCcRegisterModule`: a rewritten device module's kernels and variables, with its runner.
///
/// # Safety
/// The tables hold `nkernels` / `nvars` rows that live as long as the program.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn streamsimCcRegisterModule(
    version: u32,
    kernels: *const KernelRow,
    nkernels: u64,
    vars: *const VarRow,
    nvars: u64,
    runner: Runner,
) {
    contain((), || {
        if version != TABLE_VERSION {
            eprintln!(
                "streamsim: a kernel module of table version {version} (this library reads {TABLE_VERSION}): \
                 rebuild the program with this streamsim's `streamsim cc`"
            );
            return;
        }
        let mut r = registry().lock();
        for i in 0..nkernels as usize {
            // SAFETY: C contract: `nkernels` rows.
            let row = unsafe { kernels.add(i) };
            // SAFETY: each row's name is a NUL-terminated constant.
            let name = unsafe { CStr::from_ptr((*row).name) }
                .to_string_lossy()
                .into_owned();
            r.kernels.insert(name, CpuKernel { row, runner });
        }
        let mut managed = Vec::new();
        for i in 0..nvars as usize {
            // SAFETY: as above.
            let row = unsafe { &*vars.add(i) };
            // SAFETY: as above.
            let name = unsafe { CStr::from_ptr(row.name) }
                .to_string_lossy()
                .into_owned();
            // A `__managed__` variable whose host side registered first (see `register_managed`).
            if let Some((n, size)) = r.host_vars.get(&(row.addr as usize))
                && *n == name
            {
                managed.push((name.clone(), row.addr as usize, *size));
            }
            r.var_addrs.insert(name, row.addr as usize);
        }
        drop(r);
        for (name, addr, size) in managed {
            // The module's dialect is the host side's (the marker its fat binary carries).
            let api = registry()
                .lock()
                .var_api
                .get(&addr)
                .copied()
                .unwrap_or(Api::Cuda);
            register_managed(api, &name, addr, size);
        }
    })
}

// ------------------------------------------------------------------------------------------ call configuration

#[derive(Clone, Copy)]
struct Config {
    grid: Dim3,
    block: Dim3,
    shmem: usize,
    stream: *mut c_void,
}

thread_local! {
    /// The configurations pushed by `<<<…>>>` and not yet popped by the stub (nested launches in the
    /// arguments of a launch push twice).
    static CONFIGS: RefCell<Vec<Config>> = const { RefCell::new(Vec::new()) };
}

/// `__cudaPushCallConfiguration`: `<<<grid, block, shmem, stream>>>`, before the arguments are evaluated.
#[unsafe(no_mangle)]
pub extern "C" fn __cudaPushCallConfiguration(
    gridDim: Dim3,
    blockDim: Dim3,
    sharedMem: usize,
    stream: *mut c_void,
) -> u32 {
    contain(1, || {
        CONFIGS.with(|c| {
            let mut c = c.borrow_mut();
            // A program that pushes without ever launching cannot grow this without bound.
            if c.len() >= 64 {
                c.remove(0);
            }
            c.push(Config {
                grid: gridDim,
                block: blockDim,
                shmem: sharedMem,
                stream,
            })
        });
        0
    })
}

/// The ACL dialect's `<<<blockDim, l2ctrl, stream>>>` (`acl_preinclude.h` names it with an asm label): an
/// Ascend C kernel runs `blockDim` blocks of one thread each (`GetBlockIdx()` is the block).
#[unsafe(no_mangle)]
pub extern "C" fn __streamsimAclPushCallConfiguration(
    blockDim: u32,
    _l2ctrl: *mut c_void,
    stream: *mut c_void,
) -> u32 {
    __cudaPushCallConfiguration(
        Dim3 {
            x: blockDim,
            y: 1,
            z: 1,
        },
        Dim3 { x: 1, y: 1, z: 1 },
        0,
        stream,
    )
}

/// `__cudaPopCallConfiguration`: the stub takes the configuration back to pass it to `cudaLaunchKernel`.
///
/// # Safety
/// Each pointer is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaPopCallConfiguration(
    gridDim: *mut Dim3,
    blockDim: *mut Dim3,
    sharedMem: *mut usize,
    stream: *mut *mut c_void,
) -> Error {
    contain(codes::Unknown, || {
        let Some(c) = CONFIGS.with(|c| c.borrow_mut().pop()) else {
            return codes::InvalidConfiguration;
        };
        // SAFETY: C contract.
        unsafe {
            if !gridDim.is_null() {
                *gridDim = c.grid;
            }
            if !blockDim.is_null() {
                *blockDim = c.block;
            }
            if !sharedMem.is_null() {
                *sharedMem = c.shmem;
            }
            if !stream.is_null() {
                *stream = c.stream;
            }
        }
        codes::Success
    })
}

// ------------------------------------------------------------------------------------------ launches

/// The virtual duration of a CPU-run kernel: a fixed launch cost and one nanosecond per 64 threads, fixed at
/// the launch (virtual time is assigned in program order, before the kernel runs), unless the program set one.
pub(crate) fn kernel_ns(threads: u64) -> u64 {
    2_000 + threads.div_ceil(64)
}

/// The buffer a launch's arguments are copied into (16-byte aligned, as a kernel parameter block is).
struct ArgBuf(Vec<u128>);

impl ArgBuf {
    fn ptr(&self) -> *mut c_void {
        self.0.as_ptr() as *mut c_void
    }
}

// SAFETY: plain bytes.
unsafe impl Send for ArgBuf {}
// SAFETY: the trampoline only reads the buffer (each run of a captured launch reads the same arguments).
unsafe impl Sync for ArgBuf {}

fn dims_ok(grid: Dim3, block: Dim3) -> Result<(), String> {
    let threads = u64::from(block.x) * u64::from(block.y) * u64::from(block.z);
    if grid.x == 0 || grid.y == 0 || grid.z == 0 || threads == 0 {
        return Err(format!(
            "grid ({}, {}, {}) and block ({}, {}, {}): no dimension may be 0",
            grid.x, grid.y, grid.z, block.x, block.y, block.z
        ));
    }
    if threads > 1024 || block.x > 1024 || block.y > 1024 || block.z > 64 {
        return Err(format!(
            "block ({}, {}, {}) has {threads} threads: at most 1024, with x and y at most 1024 and z at most 64",
            block.x, block.y, block.z
        ));
    }
    if grid.y > 65535 || grid.z > 65535 || u64::from(grid.x) > (1u64 << 31) - 1 {
        return Err(format!(
            "grid ({}, {}, {}): x at most 2^31 - 1, y and z at most 65535",
            grid.x, grid.y, grid.z
        ));
    }
    Ok(())
}

/// The short name of a kernel for reports and traces: `_Z9vectorAddPKfS0_Pfi` → `vectorAdd`.
pub(crate) fn short_name(mangled: &str) -> String {
    let Some(rest) = mangled.strip_prefix("_Z") else {
        return mangled.to_string();
    };
    let mut s = rest;
    let nested = s.starts_with('N');
    if nested {
        s = &s[1..];
        while let Some(r) = s.strip_prefix(['K', 'V', 'r']) {
            s = r;
        }
    }
    let mut last = None;
    loop {
        let digits = s.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            break;
        }
        let Ok(n) = s[..digits].parse::<usize>() else {
            break;
        };
        if s.len() < digits + n {
            break;
        }
        last = Some(&s[digits..digits + n]);
        s = &s[digits + n..];
        if !nested {
            break;
        }
    }
    last.map_or_else(|| mangled.to_string(), str::to_string)
}

thread_local! {
    /// The kernel context of the CPU kernel running on this thread, for `streamsimCcResolve`.
    static RUNNING: Cell<*const KernelCtx> = const { Cell::new(std::ptr::null()) };
    /// The blocks the running kernel touched: held until it returns, so that its host pointers stay valid.
    static HELD: RefCell<Vec<Arc<Block>>> = const { RefCell::new(Vec::new()) };
    /// The launch whose kernel runs on this thread: what `streamsimCcLaunchChecks` answers and reports name.
    static LAUNCH: RefCell<Option<Running>> = const { RefCell::new(None) };
    /// The byte ranges the running kernel touched (`streamsimCcAccessed`), at most `kernel_rt.c`'s 1024.
    static ACCESSED: RefCell<Vec<RawRange>> = const { RefCell::new(Vec::new()) };
}

/// The launch running on this thread.
struct Running {
    checks: u32,
    tracked: bool,
    /// A cooperative launch: its grid can synchronize (`grid.sync()`).
    cooperative: bool,
    name: Arc<str>,
    /// The runtime of the kernel's module, whose calls reports name.
    api: Api,
}

/// A range as `kernel_rt.c` keeps it (`ssk_range`).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct RawRange {
    base: u64,
    lo: u64,
    hi: u64,
    kind: u32,
    who: [u32; 6],
}

/// `kernel_rt.c`'s answers of `streamsimCcLaunchChecks`.
const CHECK_TRACK: u32 = 1;
const CHECK_SYNC: u32 = 2;
const CHECK_RACE: u32 = 4;
const CHECK_INIT: u32 = 8;
/// Not a check: the launch is cooperative (`kernel_rt.c`'s `SSK_CHECK_COOP`).
const CHECK_COOP: u32 = 16;
/// Not a check: kernels with barriers run as fibers (`STREAMSIM_REGIONS=off`; `SSK_CHECK_FIBERS`).
const CHECK_FIBERS: u32 = 32;
/// Not a check: a launch run as region loops says so (`STREAMSIM_REGIONS=report`; `SSK_CHECK_REGION_REPORT`).
const CHECK_REGION_REPORT: u32 = 64;

/// `streamsimCcLaunchChecks`: what the kernel starting on this thread is to do beyond running: track the bytes
/// it touches (its launch was stamped for the race detector), check its barriers (synccheck); and whether it is
/// cooperative (its grid barrier works); and how kernels with barriers run (`STREAMSIM_REGIONS`).
#[unsafe(no_mangle)]
pub extern "C" fn streamsimCcLaunchChecks() -> u32 {
    contain(0, || {
        LAUNCH.with(|l| match &*l.borrow() {
            None => 0,
            Some(r) => {
                let mut c = 0;
                if r.tracked {
                    c |= CHECK_TRACK;
                }
                if r.checks & crate::facade::cc_check::SYNCCHECK != 0 {
                    c |= CHECK_SYNC;
                }
                if r.checks & crate::facade::cc_check::RACECHECK != 0 {
                    c |= CHECK_RACE;
                }
                if r.checks & crate::facade::cc_check::INITCHECK != 0 {
                    c |= CHECK_INIT;
                }
                if r.cooperative {
                    c |= CHECK_COOP;
                }
                match crate::facade::cc_check::regions_from_env() {
                    Ok(crate::facade::cc_check::Regions::On) => {}
                    Ok(crate::facade::cc_check::Regions::Report) => c |= CHECK_REGION_REPORT,
                    // A bad value fails the program's calls before any launch; fibers are the safe answer.
                    Ok(crate::facade::cc_check::Regions::Off) | Err(_) => c |= CHECK_FIBERS,
                }
                c
            }
        })
    })
}

/// `streamsimCcReport(tool, text)`: a report of `tool` (racecheck, initcheck) on the kernel running on this
/// thread, which the report names.
///
/// # Safety
/// `tool` and `text` are NUL-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn streamsimCcReport(tool: *const c_char, text: *const c_char) {
    contain((), || {
        if tool.is_null() || text.is_null() {
            return;
        }
        // SAFETY: C contract.
        let (tool, text) = unsafe { (CStr::from_ptr(tool), CStr::from_ptr(text)) };
        let tool = match tool.to_bytes() {
            b"racecheck" => "racecheck",
            b"initcheck" => "initcheck",
            _ => return,
        };
        let name = LAUNCH.with(|l| l.borrow().as_ref().map(|r| r.name.clone()));
        let Some(name) = name else {
            return;
        };
        crate::facade::cc_check::report(
            tool,
            format!("kernel `{name}`: {}", text.to_string_lossy()),
        );
    })
}

/// `streamsimCcSiteOf(base, buf, len)`: `, <call> at line <n> of <file>` for the allocation at `base` that the
/// running kernel resolved, when the program's build said where it was allocated (`site.rs`), else the empty
/// text; NUL-terminated and cut to `len` bytes (racecheck's reports on global memory name it).
///
/// # Safety
/// `buf` holds `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn streamsimCcSiteOf(base: u64, buf: *mut c_char, len: usize) {
    contain((), || {
        if buf.is_null() || len == 0 {
            return;
        }
        let site = HELD.with(|held| {
            held.borrow()
                .iter()
                .find(|b| b.base == base)
                .and_then(|b| b.site)
                .map_or(String::new(), |s| format!(", {s}"))
        });
        let n = site.len().min(len - 1);
        // SAFETY: C contract: `buf` holds `len` bytes.
        unsafe {
            std::ptr::copy_nonoverlapping(site.as_ptr(), buf.cast::<u8>(), n);
            *buf.add(n) = 0;
        }
    })
}

/// `streamsimCcInitBits(base, bit0)`: initcheck's record of the allocation at `base` that the running kernel
/// resolved (`init.rs`: bit `b % 64` of word `b / 64` is byte `b` of its store), with the block's first byte's
/// place in it in `*bit0`; NULL for memory initcheck does not check.
///
/// # Safety
/// `bit0` is valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn streamsimCcInitBits(base: u64, bit0: *mut u64) -> *const c_void {
    contain(std::ptr::null(), || {
        HELD.with(|held| {
            let held = held.borrow();
            let Some(b) = held.iter().find(|b| b.base == base) else {
                return std::ptr::null();
            };
            let Some(bits) = &b.store.init else {
                return std::ptr::null();
            };
            if !bit0.is_null() {
                // SAFETY: C contract.
                unsafe { *bit0 = b.store_off };
            }
            bits.words_ptr().cast()
        })
    })
}

/// `streamsimCcInitReport(addr, size, who, count)`: initcheck's report of the running kernel's first read of
/// `size` bytes at `addr` (in an allocation it resolved) that nothing wrote since the allocation, by the thread
/// `who` is, with the number of such reads of that allocation in the launch.
///
/// # Safety
/// `who` holds 6 words.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn streamsimCcInitReport(addr: u64, size: u64, who: *const u32, count: u64) {
    contain((), || {
        if who.is_null() {
            return;
        }
        // SAFETY: C contract: six words.
        let w = unsafe { std::slice::from_raw_parts(who, 6) };
        let thread = KernelThread {
            block: [w[0], w[1], w[2]],
            thread: [w[3], w[4], w[5]],
        };
        let Some(name) = LAUNCH.with(|l| l.borrow().as_ref().map(|r| r.name.clone())) else {
            return;
        };
        let Some(block) = HELD.with(|held| {
            held.borrow()
                .iter()
                .find(|b| addr >= b.base && addr < b.base + b.len)
                .cloned()
        }) else {
            return;
        };
        let more = if count > 1 {
            format!(" ({count} such reads of it in the launch)")
        } else {
            String::new()
        };
        crate::facade::cc_check::report(
            "initcheck",
            format!(
                "kernel `{name}`: uninitialized read of {size} bytes by {thread} at {addr:#x}: offset {} of {}, \
                 which nothing wrote since it was allocated{more}",
                addr - block.base,
                block.name()
            ),
        );
    })
}

/// `streamsimCcAccessed`: the byte ranges the kernel that ran on this thread touched, at its end.
///
/// # Safety
/// `ranges` holds `n` ranges.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn streamsimCcAccessed(ranges: *const RawRange, n: u64) {
    contain((), || {
        if ranges.is_null() || n == 0 {
            return;
        }
        // SAFETY: C contract; `kernel_rt.c` keeps at most 1024.
        let list = unsafe { std::slice::from_raw_parts(ranges, n.min(1 << 16) as usize) };
        ACCESSED.with(|a| a.borrow_mut().extend_from_slice(list));
    })
}

/// Hands the ranges the kernel that ran touched to the race detector, with its launch's stamp (its blocks
/// still held).
fn hand_over(track: &LaunchTrack, stamp: &Arc<Stamp>) {
    let raw = ACCESSED.with(|a| std::mem::take(&mut *a.borrow_mut()));
    if raw.is_empty() {
        return;
    }
    let touched: Vec<Touched> = HELD.with(|held| {
        let held = held.borrow();
        raw.iter()
            .filter_map(|r| {
                let block = held.iter().find(|b| b.base == r.base)?.clone();
                let touch = match r.kind {
                    0 => Touch::Read,
                    1 => Touch::Write,
                    _ => Touch::Atomic,
                };
                let w = r.who;
                Some(Touched {
                    block,
                    start: r.lo,
                    end: r.hi,
                    touch,
                    thread: KernelThread {
                        block: [w[0], w[1], w[2]],
                        thread: [w[3], w[4], w[5]],
                    },
                })
            })
            .collect()
    });
    track.accessed(stamp, &touched);
}

/// Builds the engine kernel of a launch of `func`: its arguments copied now, its grid run by its module's
/// runner when the stream reaches it (`cooperative`: with a grid barrier).
fn cpu_launch(
    func: *const c_void,
    grid: Dim3,
    block: Dim3,
    args: *mut *mut c_void,
    shmem: usize,
    cooperative: bool,
) -> Result<(Api, Kernel, Arc<LaunchTrack>), SimError> {
    let what = if cooperative {
        "LaunchCooperativeKernel"
    } else {
        "LaunchKernel"
    };
    cpu_kernel_tracked(
        what,
        func,
        grid,
        block,
        Args::Pointers(args),
        shmem,
        cooperative,
    )
    .map(|(a, k, _, t)| (a, k, t))
}

/// A cooperative launch's rule (Runtime API `cudaLaunchCooperativeKernel`): its blocks cannot exceed what
/// `cudaOccupancyMaxActiveBlocksPerMultiprocessor` answers for its block size and shared memory, times the
/// current device's multiprocessors; more is `cudaErrorCooperativeLaunchTooLarge`.
fn cooperative_fits(
    p: &crate::Process,
    func: *const c_void,
    grid: Dim3,
    block: Dim3,
    shmem: usize,
) -> Result<(), SimError> {
    let threads = block.x * block.y * block.z;
    let static_smem = static_shared(func).unwrap_or(0);
    let per_sm = p.max_active_blocks_per_multiprocessor(threads, shmem as u64 + static_smem)?;
    let device = p.get_device()?;
    let sms = p.machine().device_attribute(
        device,
        crate::engine::devices::config::Attribute::MultiprocessorCount,
    )?;
    let max = u64::from(per_sm) * u64::try_from(sms).unwrap_or(0);
    let blocks = u64::from(grid.x) * u64::from(grid.y) * u64::from(grid.z);
    if blocks > max {
        return Err(SimError::CooperativeLaunchTooLarge {
            what: "LaunchCooperativeKernel",
            blocks,
            max,
        });
    }
    Ok(())
}

/// Launches `k` on `stream` with `track` pending: the launch's race step stamps it, and the kernel's real
/// accesses are checked against other kernels' when it has run (`kernel_ranges.rs`).
fn launch_tracked(
    p: &crate::Process,
    stream: *mut c_void,
    k: Kernel,
    track: Arc<LaunchTrack>,
) -> Result<(), SimError> {
    track.bind(&p.machine());
    kernel_ranges::set_pending(Some(track));
    let r = p.launch(crate::facade::binding::stream(stream), k);
    kernel_ranges::set_pending(None);
    r
}

/// Where a kernel's arguments come from: a pointer to each (`kernelParams`, `cudaLaunchKernel`'s `args`), or a
/// buffer laid out as the kernel's parameter block (`extra`'s `CU_LAUNCH_PARAM_BUFFER_POINTER`).
pub(crate) enum Args<'a> {
    Pointers(*mut *mut c_void),
    Buffer(&'a [u8]),
}

/// The engine kernel of `func` with its arguments copied now, and a copy of its parameter block (a graph's
/// kernel node keeps it for `cudaGraphKernelNodeGetParams`).
pub(crate) fn cpu_kernel(
    what: &'static str,
    func: *const c_void,
    grid: Dim3,
    block: Dim3,
    args: Args<'_>,
    shmem: usize,
) -> Result<(Api, Kernel, Vec<u8>), SimError> {
    // A graph's kernel node: never stamped, so its runs are not tracked.
    cpu_kernel_tracked(what, func, grid, block, args, shmem, false).map(|(a, k, b, _)| (a, k, b))
}

/// [`cpu_kernel`], with the slot its launch's stamp goes in (see [`launch_tracked`]).
fn cpu_kernel_tracked(
    what: &'static str,
    func: *const c_void,
    grid: Dim3,
    block: Dim3,
    args: Args<'_>,
    shmem: usize,
    cooperative: bool,
) -> Result<(Api, Kernel, Vec<u8>, Arc<LaunchTrack>), SimError> {
    let track = Arc::new(LaunchTrack::default());
    let (stub, cpu, set_ns) = {
        let r = registry().lock();
        let Some(stub) = r.stubs.get(&(func as usize)).cloned() else {
            return Err(SimError::InvalidKernel {
                what,
                reason: format!("{func:p} is not a registered kernel (__global__ function)"),
            });
        };
        let cpu = r.cpu(&stub.name).copied();
        (stub, cpu, r.durations.get(&(func as usize)).copied())
    };
    dims_ok(grid, block).map_err(|reason| SimError::InvalidConfiguration { what, reason })?;
    let threads = u64::from(grid.x)
        * u64::from(grid.y)
        * u64::from(grid.z)
        * u64::from(block.x * block.y * block.z);
    let ns = set_ns.unwrap_or_else(|| kernel_ns(threads));
    let label = short_name(&stub.name);
    let mut k = Kernel::new(label.clone()).duration(std::time::Duration::from_nanos(ns));
    let Some(cpu) = cpu else {
        note_no_body(&stub.name);
        return Ok((stub.api, k, Vec::new(), track));
    };
    // SAFETY: the row is the module's constant table.
    let row = unsafe { &*cpu.row };
    let (Some(size), Some(pack), Some(_)) = (row.size, row.pack, row.tramp) else {
        return Err(SimError::InvalidKernel {
            what,
            reason: format!("kernel `{label}` has an incomplete table row"),
        });
    };
    // SAFETY: the module's own functions, for this kernel.
    let bytes = unsafe { size() } as usize;
    let buf = ArgBuf(vec![0u128; bytes.div_ceil(16).max(1)]);
    match args {
        _ if bytes == 0 => {}
        Args::Pointers(args) => {
            if args.is_null() {
                return Err(SimError::InvalidValue {
                    what,
                    reason: format!("kernel `{label}` takes arguments and `args` is NULL"),
                });
            }
            // SAFETY: `args` holds a pointer to each of the kernel's arguments (cudaLaunchKernel's contract).
            unsafe { pack(args, buf.ptr()) };
        }
        Args::Buffer(b) => {
            if b.len() != bytes {
                return Err(SimError::InvalidValue {
                    what,
                    reason: format!(
                        "kernel `{label}` takes a {bytes}-byte parameter buffer, and the buffer has {} bytes",
                        b.len()
                    ),
                });
            }
            // SAFETY: the buffer holds at least `bytes` bytes, and so does `buf` (whole 16-byte units).
            unsafe { std::ptr::copy_nonoverlapping(b.as_ptr(), buf.ptr().cast::<u8>(), bytes) };
        }
    }
    // SAFETY: `buf` holds at least `bytes` bytes.
    let block_copy = unsafe { std::slice::from_raw_parts(buf.ptr().cast::<u8>(), bytes) }.to_vec();
    let buf = Arc::new(buf);
    let g = [grid.x, grid.y, grid.z];
    let b = [block.x, block.y, block.z];
    let t = track.clone();
    let name: Arc<str> = Arc::from(label.as_str());
    let api = stub.api;
    k = k.shared_body(move |ctx: &mut KernelCtx| {
        let launch = Launch {
            name: name.clone(),
            api,
            track: &t,
            cooperative,
        };
        run_grid(ctx, cpu, &buf, g, b, shmem as u64, launch)
    });
    Ok((stub.api, k, block_copy, track))
}

/// What a run of a launch knows of it beyond its grid: its name, its module's runtime, its stamp's slot, and
/// whether it is cooperative.
struct Launch<'a> {
    name: Arc<str>,
    api: Api,
    track: &'a LaunchTrack,
    cooperative: bool,
}

fn run_grid(
    ctx: &mut KernelCtx,
    cpu: CpuKernel,
    buf: &ArgBuf,
    grid: [u32; 3],
    block: [u32; 3],
    shmem: u64,
    launch: Launch<'_>,
) -> Result<(), KernelError> {
    let Some(runner) = cpu.runner else {
        return Err(KernelError {
            kind: FaultKind::LaunchFailure,
            message: "the kernel's module has no runner".into(),
        });
    };
    let mut msg = vec![0 as c_char; 1024];
    let stamp = launch.track.stamp();
    let checks = crate::facade::cc_check::enabled();
    RUNNING.with(|r| r.set(ctx as *const KernelCtx));
    LAUNCH.with(|l| {
        *l.borrow_mut() = Some(Running {
            checks,
            tracked: stamp.is_some(),
            cooperative: launch.cooperative,
            name: launch.name.clone(),
            api: launch.api,
        })
    });
    ACCESSED.with(|a| a.borrow_mut().clear());
    // SAFETY: the module's runner, with its own row and a buffer packed for this kernel.
    let code = unsafe {
        runner(
            cpu.row,
            buf.ptr(),
            grid.as_ptr(),
            block.as_ptr(),
            shmem,
            msg.as_mut_ptr(),
            msg.len(),
        )
    };
    RUNNING.with(|r| r.set(std::ptr::null()));
    LAUNCH.with(|l| *l.borrow_mut() = None);
    if let Some(stamp) = &stamp
        && code == RUN_OK
    {
        hand_over(launch.track, stamp);
    }
    // The race detector's log waits for the kernel's ranges (none if it faulted or touched nothing).
    launch.track.finish();
    HELD.with(|h| h.borrow_mut().clear());
    // SAFETY: the runner leaves a NUL-terminated message.
    let message = unsafe { CStr::from_ptr(msg.as_ptr()) }
        .to_string_lossy()
        .into_owned();
    let tool = match code {
        RUN_ILLEGAL_ADDRESS | RUN_MISALIGNED if checks & crate::facade::cc_check::MEMCHECK != 0 => {
            Some("memcheck")
        }
        RUN_BARRIER => Some("synccheck"),
        _ => None,
    };
    if let Some(tool) = tool {
        crate::facade::cc_check::report(tool, format!("kernel `{}`: {message}", launch.name));
    }
    match code {
        RUN_OK => Ok(()),
        RUN_MISALIGNED => Err(KernelError {
            kind: FaultKind::MisalignedAddress,
            message,
        }),
        RUN_ILLEGAL_ADDRESS => Err(KernelError {
            kind: FaultKind::IllegalAddress,
            message,
        }),
        RUN_ASSERT => Err(KernelError {
            kind: FaultKind::Assert,
            message,
        }),
        // The runner's other outcomes: too much shared memory, a launch failure (barrier divergence, __trap, no stack).
        _ => Err(KernelError {
            kind: FaultKind::LaunchFailure,
            message,
        }),
    }
}

/// A registered kernel with no CPU code (a binary built by nvcc, or a module built without its device side):
/// it runs as a timed operation, said once on standard error.
fn note_no_body(name: &str) {
    // The exit summary names it too (`exit.rs`).
    if crate::facade::exit::kernel_without_body(&short_name(name)) {
        eprintln!(
            "streamsim: kernel `{}` has no CPU code (build with `streamsim cc`): it runs as a timed operation \
             that touches no memory, and its accesses are unknown to the race detector",
            short_name(name)
        );
    }
}

/// `streamsimCcResolve`: the host bytes of the live allocation holding `[addr, addr + size)`, for the kernel
/// running on this thread: 0 and its base, length and host pointer; or, with memcheck's description of the
/// access in `msg` (the thread `who` is, the kernel, the access, the allocation nearest to it), 1 for an
/// address outside every live allocation of the process, 2 for a misaligned one. `flags` is the access's kind
/// (bits 0-1: read, write, atomic) and the mask of the address bits its alignment needs to be 0 (bits 8-11;
/// bits 12-31 are the source line, for racecheck).
///
/// # Safety
/// The out-pointers are valid for writes; `who` holds 6 words; `msg` holds `msglen` bytes.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments, reason = "the C signature")]
pub unsafe extern "C" fn streamsimCcResolve(
    addr: u64,
    size: u64,
    flags: u32,
    who: *const u32,
    base: *mut u64,
    len: *mut u64,
    host: *mut *mut c_void,
    msg: *mut c_char,
    msglen: usize,
) -> c_int {
    contain(1, || {
        let say = |text: &str| {
            if msg.is_null() || msglen == 0 {
                return;
            }
            let n = text.len().min(msglen - 1);
            // SAFETY: `msg` holds `msglen` bytes.
            unsafe {
                std::ptr::copy_nonoverlapping(text.as_ptr(), msg as *mut u8, n);
                *msg.add(n) = 0;
            }
        };
        let ctx = RUNNING.with(Cell::get);
        if ctx.is_null() {
            say("no CPU kernel is running on this thread");
            return 1;
        }
        // SAFETY: set by `run_grid` for the duration of the runner, on this thread.
        let ctx = unsafe { &*ctx };
        let thread = if who.is_null() {
            KernelThread::default()
        } else {
            // SAFETY: C contract: six words.
            let w = unsafe { std::slice::from_raw_parts(who, 6) };
            KernelThread {
                block: [w[0], w[1], w[2]],
                thread: [w[3], w[4], w[5]],
            }
        };
        let verb = match flags & 3 {
            0 => "read",
            1 => "write",
            _ => "atomic update",
        };
        // compute-sanitizer's order: the access, the thread, the address and what it is (made only for a
        // report: most calls succeed).
        let access = || format!("{verb} of {size} bytes by {thread} at {addr:#x}");
        let mask = u64::from((flags >> 8) & 0xf);
        if addr & mask != 0 {
            say(&format!(
                "misaligned {}: it needs {}-byte alignment",
                access(),
                mask + 1
            ));
            return 2;
        }
        match ctx.resolve_live(addr, size) {
            Ok((b, l, h, block)) if addr + size <= b + l => {
                // A block is held once it passed the check of another device's memory.
                let held = HELD.with(|held| held.borrow().iter().any(|x| Arc::ptr_eq(x, &block)));
                if !held {
                    if let Some(why) = ctx.unreachable(&block) {
                        say(&format!(
                            "invalid {}: {}",
                            access(),
                            unreachable_text(addr, &block, why)
                        ));
                        return 1;
                    }
                    HELD.with(|h| h.borrow_mut().push(block));
                }
                // SAFETY: C contract.
                unsafe {
                    *base = b;
                    *len = l;
                    *host = h as *mut c_void;
                }
                0
            }
            _ => {
                say(&format!(
                    "invalid {}: {}",
                    access(),
                    ctx.describe_bad_access(addr, size)
                ));
                1
            }
        }
    })
}

/// memcheck's words for an access to `block`, live memory of another device that the kernel's device may not
/// access (`why`), naming the call that would give it access in the kernel's runtime.
fn unreachable_text(addr: u64, block: &Block, why: Unreachable) -> String {
    let api = LAUNCH.with(|l| l.borrow().as_ref().map_or(Api::Cuda, |r| r.api));
    let prefix = match api {
        Api::Cuda => "cuda",
        Api::Musa => "musa",
        Api::Acl => "aclrt",
    };
    let (device, peer, because) = match why {
        Unreachable::Peer { device, peer } => (
            device,
            peer,
            format!("peer access to device {peer} is not enabled ({prefix}DeviceEnablePeerAccess)"),
        ),
        // ACL has no call that gives other devices access to a pool.
        Unreachable::Pool { device, peer } if api == Api::Acl => (
            device,
            peer,
            "it is memory of a pool, which only the pool's device can access".to_string(),
        ),
        Unreachable::Pool { device, peer } => (
            device,
            peer,
            format!(
                "its memory pool does not give device {device} access ({prefix}MemPoolSetAccess)"
            ),
        ),
    };
    let site = block.site.map_or(String::new(), |s| format!(", {s}"));
    format!(
        "at offset {} of allocation #{} ({} bytes at {:#x} on device {peer}{site}), which device {device} \
         cannot access: {because}",
        addr - block.base,
        block.ordinal,
        block.len,
        block.base
    )
}

/// `cudaLaunchKernel` / `musaLaunchKernel`: launches `func` (a registered kernel) with `args`; `cooperative`:
/// as `cudaLaunchCooperativeKernel` (a grid the device holds at once, whose `grid.sync()` works).
///
/// # Safety
/// `args` holds a pointer to each of the kernel's arguments.
#[allow(
    clippy::too_many_arguments,
    reason = "the C call's arguments and the launch's kind"
)]
pub(crate) unsafe fn launch_kernel(
    api: Api,
    func: *const c_void,
    grid: Dim3,
    block: Dim3,
    args: *mut *mut c_void,
    shmem: usize,
    stream: *mut c_void,
    cooperative: bool,
) -> Error {
    let module_api = registry().lock().stubs.get(&(func as usize)).map(|s| s.api);
    match module_api {
        Some(Api::Acl) => {
            let code = crate::facade::acl::runtime::run_launch("aclrtLaunchKernel", |p| {
                let (_, k, track) = cpu_launch(func, grid, block, args, shmem, false)?;
                launch_tracked(p, stream, k, track)
            });
            if code == 0 {
                codes::Success
            } else {
                // The ACL code is the thread's last error (aclrtGetLastError); the stub's result is ignored.
                codes::LaunchFailure
            }
        }
        found => {
            let api = match found {
                Some(Api::Musa) => Api::Musa,
                Some(_) => Api::Cuda,
                None => api,
            };
            rt::run_launch(api, |p| {
                let (_, k, track) = cpu_launch(func, grid, block, args, shmem, cooperative)?;
                if cooperative {
                    cooperative_fits(p, func, grid, block, shmem)?;
                }
                launch_tracked(p, stream, k, track)
            })
        }
    }
}

/// `cudaLaunchKernel`.
///
/// # Safety
/// As [`launch_kernel`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaLaunchKernel(
    func: *const c_void,
    gridDim: Dim3,
    blockDim: Dim3,
    args: *mut *mut c_void,
    sharedMem: usize,
    stream: *mut c_void,
) -> Error {
    // SAFETY: forwarded C contract.
    unsafe {
        launch_kernel(
            Api::Cuda,
            func,
            gridDim,
            blockDim,
            args,
            sharedMem,
            stream,
            false,
        )
    }
}

/// `musaLaunchKernel`.
///
/// # Safety
/// As [`launch_kernel`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn musaLaunchKernel(
    func: *const c_void,
    gridDim: Dim3,
    blockDim: Dim3,
    args: *mut *mut c_void,
    sharedMem: usize,
    stream: *mut c_void,
) -> Error {
    // SAFETY: forwarded C contract.
    unsafe {
        launch_kernel(
            Api::Musa,
            func,
            gridDim,
            blockDim,
            args,
            sharedMem,
            stream,
            false,
        )
    }
}

/// `cudaLaunchCooperativeKernel`: a launch whose blocks can synchronize (`grid.sync()`), of at most the blocks
/// the device holds at once (`cudaErrorCooperativeLaunchTooLarge`); otherwise as `cudaLaunchKernel`.
///
/// # Safety
/// As [`launch_kernel`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaLaunchCooperativeKernel(
    func: *const c_void,
    gridDim: Dim3,
    blockDim: Dim3,
    args: *mut *mut c_void,
    sharedMem: usize,
    stream: *mut c_void,
) -> Error {
    // SAFETY: forwarded C contract.
    unsafe {
        launch_kernel(
            Api::Cuda,
            func,
            gridDim,
            blockDim,
            args,
            sharedMem,
            stream,
            true,
        )
    }
}

/// `musaLaunchCooperativeKernel`.
///
/// # Safety
/// As [`launch_kernel`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn musaLaunchCooperativeKernel(
    func: *const c_void,
    gridDim: Dim3,
    blockDim: Dim3,
    args: *mut *mut c_void,
    sharedMem: usize,
    stream: *mut c_void,
) -> Error {
    // SAFETY: forwarded C contract.
    unsafe {
        launch_kernel(
            Api::Musa,
            func,
            gridDim,
            blockDim,
            args,
            sharedMem,
            stream,
            true,
        )
    }
}

/// `struct cudaLaunchAttribute_st` / `musaLaunchAttribute`: an attribute id, 4 bytes of padding, and a 64-byte
/// value (the union `cudaLaunchAttributeValue`).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct LaunchAttribute {
    /// `cudaLaunchAttributeID`.
    pub id: u32,
    /// Padding to 8 bytes.
    pub pad: [u8; 4],
    /// The value, as the union's bytes.
    pub val: [u8; 64],
}

/// `struct cudaLaunchConfig_st` (`cudaLaunchConfig_t`) / `musaLaunchConfig_t`.
#[allow(non_snake_case, reason = "the vendor's field names")]
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct LaunchConfig {
    /// Grid dimensions.
    pub gridDim: Dim3,
    /// Block dimensions.
    pub blockDim: Dim3,
    /// Dynamic shared memory per block, in bytes.
    pub dynamicSmemBytes: usize,
    /// The stream.
    pub stream: *mut c_void,
    /// `numAttrs` attributes (NULL if none).
    pub attrs: *mut LaunchAttribute,
    /// How many attributes.
    pub numAttrs: std::ffi::c_uint,
}

/// `cudaLaunchAttributeIgnore`: an entry to skip.
const LAUNCH_ATTRIBUTE_IGNORE: u32 = 0;
/// `cudaLaunchAttributeCooperative`.
const LAUNCH_ATTRIBUTE_COOPERATIVE: u32 = 2;
/// `cudaLaunchAttributeClusterDimension`.
const LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION: u32 = 4;

/// Checks a launch's attributes: what the simulator does with each, or a refusal naming it. `Ignore` entries
/// are skipped, `Cooperative` makes the launch cooperative when its value is not 0 (the answer: whether the
/// last such entry asked for it), a 1×1×1 `ClusterDimension` changes nothing; anything else (clusters,
/// priorities, programmatic dependencies, access policies, …) is not simulated and refused with
/// `cudaErrorNotSupported` rather than run without what it asks for.
///
/// # Safety
/// `attrs` holds `n` attributes when `n > 0`.
unsafe fn launch_attributes(
    what: &'static str,
    attrs: *const LaunchAttribute,
    n: std::ffi::c_uint,
) -> Result<bool, SimError> {
    if n == 0 {
        return Ok(false);
    }
    if attrs.is_null() {
        return Err(crate::facade::binding::invalid(
            what,
            format!("{n} attributes at a NULL attrs"),
        ));
    }
    // SAFETY: the C contract.
    let list = unsafe { std::slice::from_raw_parts(attrs, n as usize) };
    let mut cooperative = false;
    for (i, a) in list.iter().enumerate() {
        let word =
            |k: usize| u32::from_ne_bytes([a.val[k], a.val[k + 1], a.val[k + 2], a.val[k + 3]]);
        let fine = match a.id {
            LAUNCH_ATTRIBUTE_IGNORE => true,
            LAUNCH_ATTRIBUTE_COOPERATIVE => {
                cooperative = word(0) != 0;
                true
            }
            LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION => (word(0), word(4), word(8)) == (1, 1, 1),
            _ => false,
        };
        if !fine {
            return Err(SimError::NotSupported {
                what,
                reason: format!(
                    "launch attribute {i} (cudaLaunchAttributeID {}) is not simulated: blocks run one after \
                     another on the CPU, with the stream's priority",
                    a.id
                ),
            });
        }
    }
    Ok(cooperative)
}

/// `cudaLaunchKernelExC` / `musaLaunchKernelExC`: [`launch_kernel`] with the dimensions, shared memory and stream
/// of `config`, after its attributes are checked ([`launch_attributes`]). A NULL `config` is
/// `cudaErrorInvalidValue`.
///
/// # Safety
/// `config` is NULL or valid for a read, its `attrs` hold `numAttrs` entries; `args` as for [`launch_kernel`].
pub(crate) unsafe fn launch_kernel_ex(
    api: Api,
    config: *const LaunchConfig,
    func: *const c_void,
    args: *mut *mut c_void,
) -> Error {
    let what = "LaunchKernelExC";
    if config.is_null() {
        return rt::run_launch(api, |_| {
            Err(crate::facade::binding::invalid(what, "NULL config"))
        });
    }
    // SAFETY: checked non-NULL; the C contract.
    let c = unsafe { config.read() };
    // SAFETY: forwarded contract.
    let cooperative = match unsafe { launch_attributes(what, c.attrs, c.numAttrs) } {
        Ok(c) => c,
        Err(e) => return rt::run_launch(api, |_| Err(e)),
    };
    // SAFETY: forwarded contract.
    unsafe {
        launch_kernel(
            api,
            func,
            c.gridDim,
            c.blockDim,
            args,
            c.dynamicSmemBytes,
            c.stream,
            cooperative,
        )
    }
}

/// `cudaLaunchKernelExC`.
///
/// # Safety
/// As [`launch_kernel_ex`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaLaunchKernelExC(
    config: *const LaunchConfig,
    func: *const c_void,
    args: *mut *mut c_void,
) -> Error {
    // SAFETY: forwarded C contract.
    unsafe { launch_kernel_ex(Api::Cuda, config, func, args) }
}

/// `musaLaunchKernelExC`.
///
/// # Safety
/// As [`launch_kernel_ex`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn musaLaunchKernelExC(
    config: *const LaunchConfig,
    func: *const c_void,
    args: *mut *mut c_void,
) -> Error {
    // SAFETY: forwarded C contract.
    unsafe { launch_kernel_ex(Api::Musa, config, func, args) }
}

/// `streamsimSetKernelDuration(func, ns)`: later launches of the kernel `func` take `ns` virtual
/// nanoseconds (for teaching: a timeline with the proportions one wants); 0 restores the cost model.
#[unsafe(no_mangle)]
pub extern "C" fn streamsimSetKernelDuration(func: *const c_void, ns: u64) -> c_int {
    contain(crate::facade::capi::STREAMSIM_ERROR_INTERNAL, || {
        let mut r = registry().lock();
        if !r.stubs.contains_key(&(func as usize)) {
            return crate::facade::capi::STREAMSIM_ERROR_INVALID_VALUE;
        }
        if ns == 0 {
            r.durations.remove(&(func as usize));
        } else {
            r.durations.insert(func as usize, ns);
        }
        crate::facade::capi::STREAMSIM_SUCCESS
    })
}

/// Whether `func` is a host stub a module registered (`__cudaGetKernel`, `dropin.rs`).
pub(crate) fn is_registered(func: *const c_void) -> bool {
    registry().lock().stubs.contains_key(&(func as usize))
}

/// The device variable whose host shadow is `symbol`: (its bytes in the device module, its size).
pub(crate) fn symbol(symbol: *const c_void) -> Option<(usize, usize)> {
    let r = registry().lock();
    let (name, size) = r.host_vars.get(&(symbol as usize))?;
    let addr = *r.var_addrs.get(name)?;
    Some((addr, *size))
}

// ------------------------------------------------------------------------------------------ symbols
//
// A `__device__` / `__constant__` variable of a `streamsim cc` program lives in the host bytes of its device
// module, where its kernels read and write it. The symbol calls copy to and from those bytes as `cudaMemcpy`
// with `cudaMemcpyDefault` does (in the legacy default stream's order, or the given stream's), whatever kind
// the program names; `cudaGetSymbolAddress` gives their host address (sim: not a device address, so a copy
// to it must use cudaMemcpyDefault too).

const MEMCPY_DEFAULT: std::ffi::c_uint = 4;

/// The variable of `symbol`, checked against `[offset, offset + count)`.
fn symbol_range(symbol: *const c_void, count: usize, offset: usize) -> Result<*mut u8, Error> {
    let Some((addr, size)) = self::symbol(symbol) else {
        return Err(codes::InvalidSymbol);
    };
    match offset.checked_add(count) {
        Some(end) if end <= size => Ok((addr + offset) as *mut u8),
        _ => Err(codes::InvalidValue),
    }
}

macro_rules! symbol_calls {
    ($api:expr, $to:ident, $to_async:ident, $from:ident, $from_async:ident, $addr:ident, $size:ident) => {
        /// `cudaMemcpyToSymbol` (and the MUSA twin): `count` bytes from `src` into the variable at `offset`.
        ///
        /// # Safety
        /// `src` holds `count` bytes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $to(
            symbol: *const c_void,
            src: *const c_void,
            count: usize,
            offset: usize,
            _kind: std::ffi::c_uint,
        ) -> Error {
            contain(codes::Unknown, || {
                match symbol_range(symbol, count, offset) {
                    // SAFETY: forwarded C contract; the destination is the variable's own bytes.
                    Ok(dst) => unsafe {
                        rt::memcpy(
                            $api,
                            "MemcpyToSymbol",
                            dst as *mut c_void,
                            src,
                            count,
                            Some(MEMCPY_DEFAULT),
                            None,
                        )
                    },
                    Err(e) => e,
                }
            })
        }

        /// `cudaMemcpyToSymbolAsync`.
        ///
        /// # Safety
        /// As the synchronous form.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $to_async(
            symbol: *const c_void,
            src: *const c_void,
            count: usize,
            offset: usize,
            _kind: std::ffi::c_uint,
            stream: *mut c_void,
        ) -> Error {
            contain(codes::Unknown, || {
                match symbol_range(symbol, count, offset) {
                    // SAFETY: as above.
                    Ok(dst) => unsafe {
                        rt::memcpy(
                            $api,
                            "MemcpyToSymbolAsync",
                            dst as *mut c_void,
                            src,
                            count,
                            Some(MEMCPY_DEFAULT),
                            Some(stream),
                        )
                    },
                    Err(e) => e,
                }
            })
        }

        /// `cudaMemcpyFromSymbol`: `count` bytes of the variable at `offset` into `dst`.
        ///
        /// # Safety
        /// `dst` holds `count` bytes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $from(
            dst: *mut c_void,
            symbol: *const c_void,
            count: usize,
            offset: usize,
            _kind: std::ffi::c_uint,
        ) -> Error {
            contain(codes::Unknown, || {
                match symbol_range(symbol, count, offset) {
                    // SAFETY: as above.
                    Ok(src) => unsafe {
                        rt::memcpy(
                            $api,
                            "MemcpyFromSymbol",
                            dst,
                            src as *const c_void,
                            count,
                            Some(MEMCPY_DEFAULT),
                            None,
                        )
                    },
                    Err(e) => e,
                }
            })
        }

        /// `cudaMemcpyFromSymbolAsync`.
        ///
        /// # Safety
        /// As the synchronous form.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $from_async(
            dst: *mut c_void,
            symbol: *const c_void,
            count: usize,
            offset: usize,
            _kind: std::ffi::c_uint,
            stream: *mut c_void,
        ) -> Error {
            contain(codes::Unknown, || {
                match symbol_range(symbol, count, offset) {
                    // SAFETY: as above.
                    Ok(src) => unsafe {
                        rt::memcpy(
                            $api,
                            "MemcpyFromSymbolAsync",
                            dst,
                            src as *const c_void,
                            count,
                            Some(MEMCPY_DEFAULT),
                            Some(stream),
                        )
                    },
                    Err(e) => e,
                }
            })
        }

        /// `cudaGetSymbolAddress`: where the variable's bytes are.
        ///
        /// # Safety
        /// `devPtr` is NULL or valid for a write.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $addr(devPtr: *mut *mut c_void, symbol: *const c_void) -> Error {
            contain(codes::Unknown, || {
                if devPtr.is_null() {
                    return codes::InvalidValue;
                }
                match symbol_range(symbol, 0, 0) {
                    Ok(p) => {
                        // SAFETY: C contract.
                        unsafe { *devPtr = p as *mut c_void };
                        codes::Success
                    }
                    Err(e) => e,
                }
            })
        }

        /// `cudaGetSymbolSize`: the variable's size in bytes.
        ///
        /// # Safety
        /// `size` is NULL or valid for a write.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $size(size: *mut usize, symbol: *const c_void) -> Error {
            contain(codes::Unknown, || {
                if size.is_null() {
                    return codes::InvalidValue;
                }
                match self::symbol(symbol) {
                    Some((_, n)) => {
                        // SAFETY: C contract.
                        unsafe { *size = n };
                        codes::Success
                    }
                    None => codes::InvalidSymbol,
                }
            })
        }
    };
}
symbol_calls!(
    Api::Cuda,
    cudaMemcpyToSymbol,
    cudaMemcpyToSymbolAsync,
    cudaMemcpyFromSymbol,
    cudaMemcpyFromSymbolAsync,
    cudaGetSymbolAddress,
    cudaGetSymbolSize
);
symbol_calls!(
    Api::Musa,
    musaMemcpyToSymbol,
    musaMemcpyToSymbolAsync,
    musaMemcpyFromSymbol,
    musaMemcpyFromSymbolAsync,
    musaGetSymbolAddress,
    musaGetSymbolSize
);

// ------------------------------------------------------------------------------------------ function attributes

/// `struct cudaFuncAttributes` (CUDA 12's layout; CUDA 13 has the same size and leading fields).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct FuncAttributes {
    pub sharedSizeBytes: usize,
    pub constSizeBytes: usize,
    pub localSizeBytes: usize,
    pub maxThreadsPerBlock: c_int,
    pub numRegs: c_int,
    pub ptxVersion: c_int,
    pub binaryVersion: c_int,
    pub cacheModeCA: c_int,
    pub maxDynamicSharedSizeBytes: c_int,
    pub preferredShmemCarveout: c_int,
    pub clusterDimMustBeSet: c_int,
    pub requiredClusterWidth: c_int,
    pub requiredClusterHeight: c_int,
    pub requiredClusterDepth: c_int,
    pub clusterSchedulingPolicyPreference: c_int,
    pub nonPortableClusterSizeAllowed: c_int,
    pub reserved: [c_int; 16],
}

/// The shared memory a block may have by default (the profile's `sharedMemPerBlock`) and with the opt-in.
const SHARED_PER_BLOCK: i64 = 49152;
const SHARED_OPTIN: i64 = 166912;

/// The registered kernel of `func` with its static shared and constant bytes.
fn kernel_of(func: *const c_void) -> Option<(String, u64, u64)> {
    let r = registry().lock();
    let stub = r.stubs.get(&(func as usize))?;
    let mut out = [0u64; 2];
    if let Some(cpu) = r.cpu(&stub.name) {
        // SAFETY: the module's constant table and its own function.
        if let Some(attrs) = unsafe { (*cpu.row).attrs } {
            // SAFETY: writes two words.
            unsafe { attrs(out.as_mut_ptr()) };
        }
    }
    Some((stub.name.clone(), out[0], out[1]))
}

/// The static shared memory of the registered kernel `func`, for the occupancy calculator; `None` for a
/// pointer that is not one (a C program's stand-in launches name no registered kernel).
pub(crate) fn static_shared(func: *const c_void) -> Option<u64> {
    kernel_of(func).map(|(_, shared, _)| shared)
}

/// `cudaFuncGetAttributes` / `musaFuncGetAttributes`: what a registered kernel needs. The static shared and
/// constant bytes are the variables the kernel can reach; registers and local memory are not modelled (sim:
/// 0); `maxThreadsPerBlock` is the device's 1024; the versions are the build's `-arch` (8.0).
///
/// # Safety
/// `attr` is NULL or valid for a write.
pub(crate) unsafe fn func_get_attributes(attr: *mut FuncAttributes, func: *const c_void) -> Error {
    contain(codes::Unknown, || {
        if attr.is_null() {
            return codes::InvalidValue;
        }
        let Some((_, shared, constant)) = kernel_of(func) else {
            return codes::InvalidDeviceFunction;
        };
        let (dynamic, carveout) = registry()
            .lock()
            .func_attrs
            .get(&(func as usize))
            .copied()
            .unwrap_or(((SHARED_PER_BLOCK - shared as i64).max(0) as i32, -1));
        let a = FuncAttributes {
            sharedSizeBytes: shared as usize,
            constSizeBytes: constant as usize,
            localSizeBytes: 0,
            maxThreadsPerBlock: 1024,
            numRegs: 0,
            ptxVersion: 80,
            binaryVersion: 80,
            maxDynamicSharedSizeBytes: dynamic,
            preferredShmemCarveout: carveout,
            ..FuncAttributes::default()
        };
        // SAFETY: C contract.
        unsafe { *attr = a };
        codes::Success
    })
}

/// `cudaFuncSetAttribute`: `cudaFuncAttributeMaxDynamicSharedMemorySize` (8, up to the opt-in limit less the
/// kernel's static shared memory) and `cudaFuncAttributePreferredSharedMemoryCarveout` (9, -1 to 100); the
/// cluster attributes and any other value are `cudaErrorInvalidValue` (clusters are not simulated).
pub(crate) fn func_set_attribute(func: *const c_void, attr: c_int, value: c_int) -> Error {
    contain(codes::Unknown, || {
        let Some((_, shared, _)) = kernel_of(func) else {
            return codes::InvalidDeviceFunction;
        };
        let mut r = registry().lock();
        let default = ((SHARED_PER_BLOCK - shared as i64).max(0) as i32, -1);
        let entry = r.func_attrs.entry(func as usize).or_insert(default);
        match attr {
            8 if value >= 0 && i64::from(value) + shared as i64 <= SHARED_OPTIN => entry.0 = value,
            9 if (-1..=100).contains(&value) => entry.1 = value,
            _ => return codes::InvalidValue,
        }
        codes::Success
    })
}

/// `cudaFuncGetName`: the kernel's (mangled) name, valid for the program's life.
///
/// # Safety
/// `name` is NULL or valid for a write.
pub(crate) unsafe fn func_get_name(name: *mut *const c_char, func: *const c_void) -> Error {
    contain(codes::Unknown, || {
        if name.is_null() {
            return codes::InvalidValue;
        }
        let Some((mangled, _, _)) = kernel_of(func) else {
            return codes::InvalidDeviceFunction;
        };
        static NAMES: Mutex<BTreeMap<String, &'static std::ffi::CStr>> =
            Mutex::new(BTreeMap::new());
        let mut names = NAMES.lock();
        // One string per kernel of the program (bounded by its kernels).
        let c = *names.entry(mangled.clone()).or_insert_with(|| {
            let owned = std::ffi::CString::new(mangled).unwrap_or_default();
            Box::leak(owned.into_boxed_c_str())
        });
        // SAFETY: C contract.
        unsafe { *name = c.as_ptr() };
        codes::Success
    })
}

macro_rules! func_calls {
    ($get:ident, $set:ident, $name:ident) => {
        /// `cudaFuncGetAttributes` (and the MUSA twin).
        ///
        /// # Safety
        /// As [`func_get_attributes`].
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $get(attr: *mut FuncAttributes, func: *const c_void) -> Error {
            // SAFETY: forwarded C contract.
            unsafe { func_get_attributes(attr, func) }
        }

        /// `cudaFuncSetAttribute` (and the MUSA twin).
        #[unsafe(no_mangle)]
        pub extern "C" fn $set(func: *const c_void, attr: c_int, value: c_int) -> Error {
            func_set_attribute(func, attr, value)
        }

        /// `cudaFuncGetName` (and the MUSA twin).
        ///
        /// # Safety
        /// As [`func_get_name`].
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(name: *mut *const c_char, func: *const c_void) -> Error {
            // SAFETY: forwarded C contract.
            unsafe { func_get_name(name, func) }
        }
    };
}
func_calls!(cudaFuncGetAttributes, cudaFuncSetAttribute, cudaFuncGetName);
func_calls!(musaFuncGetAttributes, musaFuncSetAttribute, musaFuncGetName);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_names_are_shortened_from_their_mangling() {
        assert_eq!(short_name("_Z9vectorAddPKfS0_Pfi"), "vectorAdd");
        assert_eq!(short_name("_ZN2cg6reduceEPi"), "reduce");
        assert_eq!(short_name("kernel_c"), "kernel_c");
    }

    #[test]
    fn an_nvcc_name_of_a_static_kernel_has_clangs_internal_linkage_form() {
        let l = |n: &str| internal_linkage_name(n);
        assert_eq!(l("_Z5Delayjj").as_deref(), Some("_ZL5Delayjj"));
        assert_eq!(
            l("_ZN21hipLaunchHostFuncTest6reduceEPfPd").as_deref(),
            Some("_ZN21hipLaunchHostFuncTestL6reduceEPfPd")
        );
        assert_eq!(l("_ZN1a1b3runEv").as_deref(), Some("_ZN1a1bL3runEv"));
        // A namespace-scope template is rewritten; nested templates, member functions and C names are not.
        assert_eq!(
            l("_Z9vectorADDIfEvPKT_S2_PS0_m"),
            Some("_ZL9vectorADDIfEvPKT_S2_PS0_m".into())
        );
        assert_eq!(l("_ZN2ns3addIiEEvPT_"), None);
        assert_eq!(l("_ZNK1a3getEv"), None);
        assert_eq!(l("kernel_c"), None);
        assert_eq!(l("_ZN5"), None);
    }

    #[test]
    fn launch_dimensions_follow_the_hardware_limits() {
        let d = |x, y, z| Dim3 { x, y, z };
        assert_eq!(dims_ok(d(1, 1, 1), d(1024, 1, 1)), Ok(()));
        assert!(
            dims_ok(d(1, 1, 1), d(1025, 1, 1))
                .unwrap_err()
                .contains("1025 threads")
        );
        assert!(
            dims_ok(d(0, 1, 1), d(1, 1, 1))
                .unwrap_err()
                .contains("may be 0")
        );
        assert!(
            dims_ok(d(1, 65536, 1), d(1, 1, 1))
                .unwrap_err()
                .contains("65535")
        );
        assert!(
            dims_ok(d(1, 1, 1), d(1, 1, 65))
                .unwrap_err()
                .contains("z at most 64")
        );
    }

    #[test]
    fn the_cost_model_is_a_launch_cost_and_a_nanosecond_per_64_threads() {
        assert_eq!(kernel_ns(1), 2_001);
        assert_eq!(kernel_ns(1 << 22), 2_000 + (1 << 16));
    }
}
