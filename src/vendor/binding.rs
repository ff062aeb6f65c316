//! What the vendor facades ([`crate::cuda`], [`crate::musa`], [`crate::acl`]) share: which process a call goes
//! to (a [`Binding`], or the facade's default machine), panic containment at the `extern "C"` boundary, and
//! pointer helpers. A facade holds no simulator state of its own.
//!
//! # Routing
//! [`Process::bind`] routes the calling thread's facade calls to that process until the returned [`Binding`]
//! drops (bindings nest). With no binding, each facade lazily builds its own default machine in its dialect,
//! configured from the environment:
//!
//! | variable | meaning | default |
//! |---|---|---|
//! | `STREAMSIM_DEVICES` | number of devices (0–1024) | 1 |
//! | `STREAMSIM_SEED` | the machine seed (a u64) | 0 |
//!
//! A bad value is not replaced by the default: every call of that facade fails (CUDA/MUSA: `NoDevice`; ACL:
//! `ACL_ERROR_UNINITIALIZE`) and the message naming the variable is printed once to standard error and is the
//! thread's last error message.

use std::cell::RefCell;
use std::marker::PhantomData;
use std::sync::OnceLock;

use crate::engine::error::SimError;
use crate::engine::machine::Machine;
use crate::engine::process::Process;
use crate::engine::rules::Dialect;

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

thread_local! {
    static BOUND: RefCell<Vec<Process>> = const { RefCell::new(Vec::new()) };
}

/// Routes the calling thread's facade calls to a process until dropped (see [`Process::bind`]). Not `Send`:
/// it belongs to the thread that made it.
#[derive(Debug)]
#[must_use = "the binding ends when this guard is dropped"]
pub struct Binding {
    _thread: PhantomData<*const ()>,
}

impl Drop for Binding {
    fn drop(&mut self) {
        BOUND.with(|b| {
            b.borrow_mut().pop();
        });
    }
}

impl Process {
    /// Routes the calling thread's vendor-facade calls (`cudaX`, `musaX`, `aclrtX`) to this process until the
    /// returned guard drops; the previous routing comes back then. The facade must match the machine's
    /// dialect (CUDA/MUSA calls on a CUDA machine, ACL calls on an ACL machine).
    pub fn bind(&self) -> Binding {
        BOUND.with(|b| b.borrow_mut().push(self.clone()));
        Binding {
            _thread: PhantomData,
        }
    }
}

/// Parses the default machine's configuration from the environment.
fn env_config() -> Result<(u32, u64), String> {
    fn var<T: std::str::FromStr>(name: &str, default: T) -> Result<T, String> {
        match std::env::var(name) {
            Err(std::env::VarError::NotPresent) => Ok(default),
            Err(std::env::VarError::NotUnicode(v)) => {
                Err(format!("streamsim: {name}={v:?} is not valid text"))
            }
            Ok(v) => v.trim().parse().map_err(|_| {
                format!(
                    "streamsim: {name}={v:?} is not a valid value (expected a non-negative integer)"
                )
            }),
        }
    }
    let devices = var("STREAMSIM_DEVICES", 1u32)?;
    let seed = var("STREAMSIM_SEED", 0u64)?;
    if devices > crate::engine::machine::MAX_DEVICES {
        return Err(format!(
            "streamsim: STREAMSIM_DEVICES={devices} is too large (at most {})",
            crate::engine::machine::MAX_DEVICES
        ));
    }
    Ok((devices, seed))
}

static DEFAULTS: [OnceLock<Result<Process, String>>; 3] =
    [OnceLock::new(), OnceLock::new(), OnceLock::new()];

/// The facade's default process (its default machine, built from the environment on first use).
pub(crate) fn default_process(api: Api) -> Result<Process, String> {
    DEFAULTS[api.index()]
        .get_or_init(|| {
            let built = env_config().and_then(|(devices, seed)| {
                Machine::builder()
                    .devices(devices)
                    .seed(seed)
                    .dialect(api.dialect())
                    .build()
                    .map_err(|e| format!("streamsim: cannot build the default machine: {e}"))
            });
            match built {
                Ok(m) => Ok(m.process()),
                Err(msg) => {
                    eprintln!("{msg}");
                    Err(msg)
                }
            }
        })
        .clone()
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
    let bound = BOUND.with(|b| b.borrow().last().cloned());
    match bound {
        Some(p) if p.machine().dialect() == api.dialect() => Ok(p),
        Some(p) => Err(NoProcess::WrongDialect(SimError::NotSupported {
            what: "facade call",
            reason: format!(
                "the bound process's machine follows the {:?} dialect, not {:?}",
                p.machine().dialect(),
                api.dialect()
            ),
        })),
        None => default_process(api).map_err(NoProcess::Config),
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
pub(crate) fn stream(s: *mut std::ffi::c_void) -> crate::engine::handle::Stream {
    crate::engine::handle::Stream::from_raw(s as usize as u64)
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
