//! The routing of facade calls and panic containment; documented at [`crate::facade`].

use std::cell::RefCell;
use std::io::Write as _;
use std::marker::PhantomData;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use parking_lot::Mutex;

use crate::engine::core::error::SimError;
use crate::engine::core::rules::Dialect;
use crate::engine::machine::Machine;
use crate::engine::process::Process;

/// Which facade a call came through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Api {
    Cuda,
    Musa,
    Acl,
}

impl Api {
    pub fn dialect(self) -> Dialect {
        match self {
            Api::Cuda | Api::Musa => Dialect::Cuda,
            Api::Acl => Dialect::Acl,
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// The calling thread's bindings, innermost last: each with the id of the [`Binding`] that ends it (`None`: a
/// binding made with `streamsimBind`, ended by `streamsimUnbind`).
struct Bound {
    stack: RefCell<Vec<(Option<u64>, Process)>>,
}

impl Drop for Bound {
    /// The main thread's bindings outlive its thread-locals: `atexit` handlers and C++ global destructors run
    /// after them, and their calls still go where the program bound them.
    fn drop(&mut self) {
        if crate::engine::process::is_main_thread() {
            let stack = std::mem::take(self.stack.get_mut());
            MAIN_AFTER_EXIT.lock().stack.get_mut().extend(stack);
        }
    }
}

thread_local! {
    static BOUND: Bound = const { Bound { stack: RefCell::new(Vec::new()) } };
}

/// The bindings of the main thread once its thread-locals are destroyed (see [`Bound`]'s `Drop`).
static MAIN_AFTER_EXIT: Mutex<Bound> = Mutex::new(Bound {
    stack: RefCell::new(Vec::new()),
});

/// Runs `f` on the calling thread's bindings, or, once its thread-locals are destroyed, on what stands for
/// them: the main thread's saved bindings (see [`Bound`]), or for another thread (its C++ `thread_local`
/// destructors) none at all, as for a fresh thread, whose calls go to the default machine. Never panics for a
/// destroyed thread-local.
fn with_bound<R>(f: impl FnOnce(&Bound) -> R) -> R {
    let mut f = Some(f);
    match BOUND.try_with(|b| (f.take().expect("called once"))(b)) {
        Ok(r) => r,
        Err(_) => {
            let f = f.take().expect("not called: the thread-local is gone");
            if crate::engine::process::is_main_thread() {
                f(&MAIN_AFTER_EXIT.lock())
            } else {
                f(&Bound {
                    stack: RefCell::new(Vec::new()),
                })
            }
        }
    }
}

/// Whether a binding made now on this thread lasts: not on a thread other than the main one whose
/// thread-locals are destroyed (see [`with_bound`]).
fn bindings_last() -> bool {
    BOUND.try_with(|_| ()).is_ok() || crate::engine::process::is_main_thread()
}

/// Routes the calling thread's facade calls to a process until dropped (see [`Process::bind`]). Not `Send`:
/// it belongs to the thread that made it. Bindings may be dropped in any order: dropping one ends that binding
/// only, and calls go to the innermost binding still in force.
#[derive(Debug)]
#[must_use = "the binding ends when this guard is dropped"]
pub struct Binding {
    id: u64,
    _thread: PhantomData<*const ()>,
}

impl Drop for Binding {
    fn drop(&mut self) {
        let removed = with_bound(|b| {
            let mut stack = b.stack.borrow_mut();
            let at = stack.iter().rposition(|(id, _)| *id == Some(self.id));
            at.map(|i| stack.remove(i))
        });
        // The process handle is released outside the borrow (it may be a machine's last handle).
        drop(removed);
    }
}

impl Process {
    /// Routes the calling thread's vendor-facade calls (`cudaX`, `musaX`, `aclrtX`) to this process until the
    /// returned guard drops; the previous routing comes back then. Bindings nest, and may end in any order:
    /// calls go to the innermost binding still in force. The facade must match the machine's dialect
    /// (CUDA/MUSA calls on a CUDA machine, ACL calls on an ACL machine).
    ///
    /// On a thread whose thread-locals are being destroyed (C++ `thread_local` destructors) a binding has no
    /// effect, except on the main thread (its `atexit` handlers and global destructors), where it works as
    /// always.
    pub fn bind(&self) -> Binding {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        with_bound(|b| b.stack.borrow_mut().push((Some(id), self.clone())));
        Binding {
            id,
            _thread: PhantomData,
        }
    }
}

/// `streamsimBind`: binds `p` on the calling thread until [`unbind_c`]; `false` (nothing bound) on a thread
/// other than the main one whose thread-locals are destroyed, where no binding can last.
pub(crate) fn bind_c(p: &Process) -> bool {
    if !bindings_last() {
        return false;
    }
    with_bound(|b| b.stack.borrow_mut().push((None, p.clone())));
    true
}

/// `streamsimUnbind`: ends the calling thread's innermost `streamsimBind` (bindings made with
/// [`Process::bind`] are not touched); `false` if there is none.
pub(crate) fn unbind_c() -> bool {
    let removed = with_bound(|b| {
        let mut stack = b.stack.borrow_mut();
        let at = stack.iter().rposition(|(id, _)| id.is_none());
        at.map(|i| stack.remove(i))
    });
    removed.is_some()
}

/// What a machine of the C library does about races: `STREAMSIM_RACES` for the default machines,
/// `streamsimMachineOptions::races` for the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RaceMode {
    /// No race detection.
    Off,
    /// Reports are collected, silently.
    Collect,
    /// Each new report is written to standard error as it is found.
    Print,
    /// As `Print`, and the process exits with `STREAMSIM_RACES_EXITCODE` (66) at exit if any was found.
    Fail,
}

/// The default machines' configuration, from the environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct EnvConfig {
    /// `STREAMSIM_DEVICES` (default 1).
    pub devices: u32,
    /// `STREAMSIM_SEED` (default 0).
    pub seed: u64,
    /// `STREAMSIM_RACES` (default `print`).
    pub races: RaceMode,
    /// `STREAMSIM_RACES_EXITCODE` (default 66): the exit status when `fail` found races.
    pub exit_code: i32,
    /// `STREAMSIM_TRACE`: where to write the Chrome trace at exit.
    pub trace: Option<std::path::PathBuf>,
    /// `STREAMSIM_TIMELINE=1`: print the timeline to standard error at exit.
    pub timeline: bool,
    /// `STREAMSIM_TRACE_WINDOW`: how much of the trace the machine keeps (default the engine's).
    pub window: crate::TraceWindow,
    /// `STREAMSIM_MACHINE` (default `default`): the shared host the default machines join at their first IPC
    /// call.
    pub host: String,
    /// `STREAMSIM_SCHEDULE` (`concurrent`, the default, or `serialize`).
    pub schedule: crate::engine::core::hang::Schedule,
    /// `STREAMSIM_INJECT_PANIC`: a call whose next run panics inside the simulator (`*`: any), for fault-injection
    /// tests of the library: the call answers the vendor's unknown / internal error and the machine is broken.
    pub inject_panic: Option<String>,
    /// `STREAMSIM_WATCHDOG_MS`: the watchdog's limit in milliseconds of real time, `0` off (unset: the
    /// schedule's default).
    pub watchdog: Option<Option<std::time::Duration>>,
    /// `STREAMSIM_CHECK_DETERMINISM=1` (`determinism_check.rs`).
    pub check: crate::facade::determinism_check::Check,
    /// `STREAMSIM_ENGINES` (default `on`): whether the engine model is on.
    pub engines: bool,
}

impl EnvConfig {
    /// Whether the machine keeps a trace: only when it is written or drawn at exit (so that a long-running
    /// program does not grow).
    pub fn keeps_trace(&self) -> bool {
        self.trace.is_some() || self.timeline || self.check.on()
    }
}

/// An environment variable's text, if it is set.
fn env_text(name: &str) -> Result<Option<String>, String> {
    match std::env::var(name) {
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(v)) => {
            Err(format!("streamsim: {name}={v:?} is not valid text"))
        }
        Ok(v) => Ok(Some(v)),
    }
}

/// A numeric environment variable, `default` if it is not set.
fn env_number<T: std::str::FromStr>(name: &str, default: T) -> Result<T, String> {
    match env_text(name)? {
        None => Ok(default),
        Some(v) => v.trim().parse().map_err(|_| {
            format!(
                "streamsim: {name}={v:?} is not a valid value (expected a non-negative integer)"
            )
        }),
    }
}

/// `STREAMSIM_RACES_EXITCODE`: the exit status of a process whose `fail` machines found races (default 66,
/// ThreadSanitizer's; 0 leaves the status alone).
pub(crate) fn env_race_exit_code() -> Result<i32, String> {
    let code: u32 = env_number("STREAMSIM_RACES_EXITCODE", 66)?;
    if code > 255 {
        return Err(format!(
            "streamsim: STREAMSIM_RACES_EXITCODE={code} is not an exit status (0 to 255)"
        ));
    }
    Ok(code as i32)
}

/// Whether a file can be written at `path` (or a sibling of it: with several default machines each writes
/// `<stem>.<api>.json`), without making or changing anything: an existing file opens for writing, and
/// otherwise its folder exists and is writable.
fn writable(path: &std::path::Path) -> std::io::Result<()> {
    use std::io::{Error, ErrorKind};
    if path.is_dir() {
        return Err(Error::new(ErrorKind::IsADirectory, "a directory"));
    }
    if path.exists() {
        std::fs::OpenOptions::new().write(true).open(path)?;
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    if !std::fs::metadata(dir)?.is_dir() {
        return Err(Error::new(
            ErrorKind::NotADirectory,
            "its folder is not a directory",
        ));
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt as _;
        let c = std::ffi::CString::new(dir.as_os_str().as_bytes())
            .map_err(|_| Error::new(ErrorKind::InvalidInput, "a NUL in the path"))?;
        // SAFETY: a valid NUL-terminated path.
        if unsafe { libc::access(c.as_ptr(), libc::W_OK | libc::X_OK) } != 0 {
            return Err(Error::last_os_error());
        }
    }
    Ok(())
}

/// Parses the default machine's configuration from the environment.
pub(crate) fn env_config() -> Result<EnvConfig, String> {
    let devices = env_number("STREAMSIM_DEVICES", 1u32)?;
    let seed = env_number("STREAMSIM_SEED", 0u64)?;
    if devices > crate::engine::core::limits::MAX_DEVICES {
        return Err(format!(
            "streamsim: STREAMSIM_DEVICES={devices} is too large (at most {})",
            crate::engine::core::limits::MAX_DEVICES
        ));
    }
    let races = match env_text("STREAMSIM_RACES")?.as_deref().map(str::trim) {
        None => RaceMode::Print,
        Some("off") => RaceMode::Off,
        Some("collect") => RaceMode::Collect,
        Some("print") => RaceMode::Print,
        Some("fail") => RaceMode::Fail,
        Some(other) => {
            return Err(format!(
                "streamsim: STREAMSIM_RACES={other:?} is not a valid value (expected off, collect, print or fail)"
            ));
        }
    };
    let exit_code = env_race_exit_code()?;
    // STREAMSIM_CHECK: the checks of kernels run on the CPU (`cc_check.rs`), refused here when bad.
    crate::facade::cc_check::from_env()?;
    // STREAMSIM_REGIONS: how kernels with barriers run (`cc_check.rs`), refused here when bad.
    crate::facade::cc_check::regions_from_env()?;
    let trace = match env_text("STREAMSIM_TRACE")? {
        None => None,
        Some(v) if v.is_empty() => {
            return Err(
                "streamsim: STREAMSIM_TRACE is empty (expected the path of the JSON file to write)"
                    .to_string(),
            );
        }
        Some(v) => {
            // Checked now, not only at exit: a trace that cannot be written is a bad value, and every call
            // fails (after the exit status was decided, a message would be all the program got).
            let path = std::path::PathBuf::from(&v);
            if let Err(e) = writable(&path) {
                return Err(format!(
                    "streamsim: STREAMSIM_TRACE={v:?} cannot be written ({e}); expected the path of a JSON \
                     file to write"
                ));
            }
            Some(path)
        }
    };
    let timeline = match env_text("STREAMSIM_TIMELINE")?.as_deref().map(str::trim) {
        None | Some("0") => false,
        Some("1") => true,
        Some(other) => {
            return Err(format!(
                "streamsim: STREAMSIM_TIMELINE={other:?} is not a valid value (expected 0 or 1)"
            ));
        }
    };
    let window = match env_text("STREAMSIM_TRACE_WINDOW")?
        .as_deref()
        .map(str::trim)
    {
        None => crate::TraceWindow::DEFAULT,
        Some("all") => crate::TraceWindow::All,
        Some(v) => match v.parse::<usize>() {
            Ok(n) => crate::TraceWindow::Last(n),
            Err(_) => {
                return Err(format!(
                    "streamsim: STREAMSIM_TRACE_WINDOW={v:?} is not a valid value (expected a number of \
                     operations, or all)"
                ));
            }
        },
    };
    let host = match env_text("STREAMSIM_MACHINE")? {
        None => "default".to_string(),
        Some(v) if v.trim().is_empty() => {
            return Err(
                "streamsim: STREAMSIM_MACHINE is empty (expected the name of the shared host)"
                    .to_string(),
            );
        }
        Some(v) => v.trim().to_string(),
    };
    let schedule = match env_text("STREAMSIM_SCHEDULE")?.as_deref().map(str::trim) {
        None | Some("concurrent") => crate::engine::core::hang::Schedule::Concurrent,
        Some("serialize") => crate::engine::core::hang::Schedule::Serialize,
        Some(other) => {
            return Err(format!(
                "streamsim: STREAMSIM_SCHEDULE={other:?} is not a valid value (expected concurrent or serialize)"
            ));
        }
    };
    let watchdog = match env_text("STREAMSIM_WATCHDOG_MS")? {
        None => None,
        Some(_) => match env_number("STREAMSIM_WATCHDOG_MS", 0u64)? {
            0 => Some(None),
            ms => Some(Some(std::time::Duration::from_millis(ms))),
        },
    };
    let engines = match env_text("STREAMSIM_ENGINES")?.as_deref().map(str::trim) {
        None | Some("on") => true,
        Some("off") => false,
        Some(other) => {
            return Err(format!(
                "streamsim: STREAMSIM_ENGINES={other:?} is not a valid value (expected on or off)"
            ));
        }
    };
    let inject_panic = match env_text("STREAMSIM_INJECT_PANIC")? {
        Some(call) if call.trim().is_empty() => {
            return Err(
                "streamsim: STREAMSIM_INJECT_PANIC is empty (expected an engine call's name, or *)"
                    .to_string(),
            );
        }
        other => other.map(|c| c.trim().to_string()),
    };
    Ok(EnvConfig {
        inject_panic,
        devices,
        seed,
        races,
        exit_code,
        trace,
        timeline,
        window,
        host,
        schedule,
        watchdog,
        check: crate::facade::determinism_check::Check::from_env(
            env_text("STREAMSIM_CHECK_DETERMINISM")?,
            env_text(crate::facade::determinism_check::CHILD_VAR)?,
        )?,
        engines,
    })
}

/// A default machine: its process, and the configuration it was built with.
pub(crate) struct DefaultMachine {
    pub process: Process,
    pub config: EnvConfig,
}

static DEFAULTS: [OnceLock<Result<DefaultMachine, String>>; 3] =
    [OnceLock::new(), OnceLock::new(), OnceLock::new()];

/// Builds a machine of the C library: races collected (with `mode`'s printer) or off, a trace if `trace`.
pub(crate) fn c_machine(
    builder: crate::engine::machine::MachineBuilder,
    mode: RaceMode,
    trace: bool,
) -> crate::engine::core::error::Result<Machine> {
    let builder = builder.trace(trace);
    let builder = match mode {
        RaceMode::Off => builder.race_detection(crate::engine::core::races::RaceDetection::Off),
        RaceMode::Collect => builder,
        RaceMode::Print | RaceMode::Fail => {
            builder.on_race(crate::facade::exit::race_printer(mode == RaceMode::Fail))
        }
    };
    crate::facade::exit::arm();
    builder.build()
}

/// The facade's default process (its default machine, built from the environment on first use).
pub(crate) fn default_process(api: Api) -> Result<Process, String> {
    default_process_ref(api).cloned().map_err(Clone::clone)
}

/// [`default_process`], not cloned.
fn default_process_ref(api: Api) -> Result<&'static Process, &'static String> {
    DEFAULTS[api.index()]
        .get_or_init(|| {
            let built = env_config().and_then(|config| {
                if config.races == RaceMode::Fail {
                    crate::facade::exit::set_exit_code(config.exit_code);
                }
                let engines = if config.engines {
                    crate::engine::core::time::EngineModel::ON
                } else {
                    crate::engine::core::time::EngineModel::OFF
                };
                let builder = Machine::builder()
                    .devices(config.devices)
                    .seed(config.seed)
                    .dialect(api.dialect())
                    .trace_window(config.window)
                    .engine_model(engines)
                    .shared_host(config.host.clone())
                    .schedule(config.schedule)
                    .print_hangs(true);
                let builder = match config.watchdog {
                    Some(limit) => builder.watchdog(limit),
                    None => builder,
                };
                c_machine(builder, config.races, config.keeps_trace())
                    .map(|m| {
                        // Fault injection for tests of the library itself (`tests/suite/panics.rs`): the next
                        // run of this engine call (`*`: any) panics inside the simulator.
                        if let Some(call) = config.inject_panic.as_deref() {
                            m.inject_panic(call);
                        }
                        // Host code that dereferences a device pointer is told which allocation it was.
                        crate::facade::host_deref::install();
                        DefaultMachine {
                            process: m.process(),
                            config,
                        }
                    })
                    .map_err(|e| format!("streamsim: cannot build the default machine: {e}"))
            });
            if let Err(msg) = &built {
                // Not `eprintln!`: a closed standard error must not make every call fail.
                let _ = writeln!(std::io::stderr(), "{msg}");
            }
            built
        })
        .as_ref()
        .map(|d| &d.process)
}

/// The default machines built so far, with their facades.
pub(crate) fn built_defaults() -> Vec<(Api, &'static DefaultMachine)> {
    [Api::Cuda, Api::Musa, Api::Acl]
        .into_iter()
        .filter_map(|api| match DEFAULTS[api.index()].get() {
            Some(Ok(d)) => Some((api, d)),
            _ => None,
        })
        .collect()
}

/// Why a facade call has no process to go to.
#[derive(Debug, Clone)]
pub(crate) enum NoProcess {
    /// The default machine could not be built (bad environment); the message says why.
    Config(String),
    /// The bound process's machine has another dialect than the facade.
    WrongDialect(SimError),
}

/// The process a facade call goes to: the innermost binding, or the facade's default machine.
pub(crate) fn process(api: Api) -> Result<Process, NoProcess> {
    let bound = with_bound(|b| b.stack.borrow().last().map(|(_, p)| p.clone()));
    match bound {
        Some(p) => of_dialect(&p, api).map(|()| p),
        None => default_process(api).map_err(NoProcess::Config),
    }
}

/// Whether `p`'s machine follows `api`'s dialect.
fn of_dialect(p: &Process, api: Api) -> Result<(), NoProcess> {
    if p.m.dialect == api.dialect() {
        return Ok(());
    }
    Err(NoProcess::WrongDialect(SimError::NotSupported {
        what: "facade call",
        reason: format!(
            "the bound process's machine follows the {:?} dialect, not {:?}",
            p.m.dialect,
            api.dialect()
        ),
    }))
}

/// Runs `f` on the process a facade call goes to (see [`process`]) without taking a handle of it: the
/// innermost binding is lent for the length of `f` (a clone and its drop are four atomic operations, a good part
/// of a kernel launch), the default machine's process is a static. `f` must not bind or unbind on this thread
/// (the binding is borrowed meanwhile): a kernel launch, which runs nothing of the program on the calling
/// thread, does neither. Once the thread's locals are destroyed (during process exit) this is [`process`].
pub(crate) fn with_process<R>(api: Api, f: impl FnOnce(&Process) -> R) -> Result<R, NoProcess> {
    let mut f = Some(f);
    let mut run = |p: &Process| (f.take().expect("called once"))(p);
    let lent = BOUND.try_with(|b| {
        b.stack
            .borrow()
            .last()
            .map(|(_, p)| of_dialect(p, api).map(|()| run(p)))
    });
    match lent {
        Ok(Some(r)) => r,
        Ok(None) => default_process_ref(api)
            .map(&mut run)
            .map_err(|e| NoProcess::Config(e.clone())),
        Err(_) => process(api).map(|p| run(&p)),
    }
}

/// Runs a facade body, turning a panic into `internal` (no panic crosses an `extern "C"` boundary).
pub(crate) fn contain<T>(internal: T, f: impl FnOnce() -> T) -> T {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or(internal)
}

/// Writes `value` through an out-pointer; `false` if it is NULL.
///
/// # Safety
/// `out` is NULL or valid for a write of `T`.
pub(crate) unsafe fn put<T>(out: *mut T, value: T) -> bool {
    if out.is_null() {
        return false;
    }
    // SAFETY: non-NULL and, by the caller's contract, valid for writes.
    unsafe { out.write(value) };
    true
}

/// An invalid-argument error of call `what`.
pub(crate) fn invalid(what: &'static str, reason: impl Into<String>) -> SimError {
    SimError::InvalidValue {
        what,
        reason: reason.into(),
    }
}

/// Writes through an out-pointer, or fails with an invalid-argument error if it is NULL.
///
/// # Safety
/// `ptr` is NULL or valid for a write of `T`.
pub(crate) unsafe fn out<T>(what: &'static str, ptr: *mut T, value: T) -> Result<(), SimError> {
    // SAFETY: the caller passes a NULL or valid pointer (the C contract).
    if unsafe { put(ptr, value) } {
        Ok(())
    } else {
        Err(invalid(what, "NULL output pointer"))
    }
}

/// A stream argument (NULL is the default stream).
pub(crate) fn stream(s: *mut std::ffi::c_void) -> crate::engine::core::handle::Stream {
    crate::engine::core::handle::Stream::from_raw(s as usize as u64)
}

/// A handle as the opaque pointer the C ABI passes.
pub(crate) fn handle_ptr(raw: u64) -> *mut std::ffi::c_void {
    raw as usize as *mut std::ffi::c_void
}

/// The message of the last error of the facade's process on this thread, for `GetErrorString`-like calls.
pub(crate) fn last_message(api: Api) -> Option<String> {
    match process(api) {
        Ok(p) => p.peek_last_error().map(|e| e.to_string()),
        Err(NoProcess::Config(m)) => Some(m),
        Err(NoProcess::WrongDialect(e)) => Some(e.to_string()),
    }
}

/// Keeps `msg` for a C caller and returns a pointer to it, valid until the next call that keeps a message in
/// the same place: the calling thread's `slot`, or `fallback` once the thread's locals are destroyed (then
/// shared by the calls from `atexit` handlers and destructors). With `keep_same`, an equal message already
/// kept stays (so the pointer handed out before stays valid).
pub(crate) fn keep_message(
    slot: &'static std::thread::LocalKey<RefCell<Option<std::ffi::CString>>>,
    fallback: &'static Mutex<Option<std::ffi::CString>>,
    msg: std::ffi::CString,
    keep_same: bool,
) -> *const std::ffi::c_char {
    fn keep(
        kept: &mut Option<std::ffi::CString>,
        msg: std::ffi::CString,
        keep_same: bool,
    ) -> *const std::ffi::c_char {
        if !(keep_same && kept.as_ref() == Some(&msg)) {
            *kept = Some(msg);
        }
        kept.as_ref().map_or(std::ptr::null(), |m| m.as_ptr())
    }
    let mut msg = Some(msg);
    match slot.try_with(|s| keep(&mut s.borrow_mut(), msg.take().expect("once"), keep_same)) {
        Ok(ptr) => ptr,
        Err(_) => keep(
            &mut fallback.lock(),
            msg.take().expect("not taken: the thread-local is gone"),
            keep_same,
        ),
    }
}

/// A facade's code for an error and the code's name (`(400, "cudaErrorInvalidResourceHandle")`), by the
/// facade's own mapping.
pub(crate) fn code_of(api: Api, e: &SimError) -> (i64, &'static str) {
    match api {
        Api::Cuda | Api::Musa => {
            let code = crate::facade::cuda_runtime::code(e);
            (
                code.into(),
                crate::facade::cuda_runtime::code_name(api, code).unwrap_or("(unnamed code)"),
            )
        }
        Api::Acl => {
            let code = crate::facade::acl::runtime::code(e);
            (
                code.into(),
                crate::facade::acl::runtime::code_name(code).unwrap_or("(unnamed code)"),
            )
        }
    }
}
