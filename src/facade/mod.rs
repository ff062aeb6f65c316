//! What the vendor facades ([`crate::cuda`], [`crate::musa`], [`crate::acl`]) share: which process a call goes
//! to (a [`Binding`], or the facade's default machine), panic containment at the `extern "C"` boundary, and
//! pointer helpers. A facade holds no simulator state of its own.
//!
//! # Routing
//! [`Process::bind`](crate::Process::bind) routes the calling thread's facade calls to that process until the returned [`Binding`]
//! drops (bindings nest, and may be dropped in any order: calls go to the innermost binding still in force).
//! With no binding, each facade lazily builds its own default machine in its dialect,
//! configured from the environment:
//!
//! | variable | meaning | default |
//! |---|---|---|
//! | `STREAMSIM_DEVICES` | number of devices (0–1024) | 1 |
//! | `STREAMSIM_SEED` | the machine seed (a u64) | 0 |
//! | `STREAMSIM_RACES` | `off`, `collect` (silently), `print` (each new report to standard error), `fail` (print, and exit status `STREAMSIM_RACES_EXITCODE` at exit if any) | `print` |
//! | `STREAMSIM_RACES_EXITCODE` | the exit status of `fail` (0–255; 0 leaves it alone) | 66 |
//! | `STREAMSIM_TRACE` | a file to write the Chrome trace to at exit (checked when the default machine is built: a file that cannot be written is a bad value) | none |
//! | `STREAMSIM_TIMELINE` | `1`: print the timeline to standard error at exit | `0` |
//! | `STREAMSIM_TRACE_WINDOW` | the latest N operations, host calls and failed calls the trace keeps, or `all` | 65536 |
//! | `STREAMSIM_MACHINE` | the shared host the default machines join at their first IPC call: OS processes on the same host exchange IPC handles (see `src/engine/host/mod.rs`) | `default` |
//! | `STREAMSIM_ENGINES` | `on`: the engine model (copy engines per direction, 128 kernel slots; `docs/semantics/engine-model.md`); `off`: every operation starts when it is ready | `on` |
//!
//! A default machine keeps a trace only when `STREAMSIM_TRACE` or `STREAMSIM_TIMELINE` asks for one. What
//! happens at exit is in `src/facade/exit.rs`.
//!
//! A bad value is not replaced by the default: every call of that facade fails (CUDA/MUSA: `NoDevice`; ACL:
//! `ACL_ERROR_UNINITIALIZE`) and the message naming the variable is printed once to standard error and is the
//! thread's last error message.
//!
//! # During process exit
//! Calls from `atexit` handlers and C++ global destructors come after the main thread's thread-locals are
//! destroyed. Every thread-local read here tolerates that: the main thread's bindings are kept when its
//! thread-local goes, so its calls still go where it bound them; on another thread whose thread-locals are
//! gone, nothing is bound (its calls go to the default machine, as a fresh thread's would). See also
//! `src/engine/process/thread.rs`.
//!
//! # The facade layer
//! This module is also the layer of everything vendor-facing (`src/facade/`): the shared routing and panic
//! containment (`binding.rs`), the CUDA/MUSA name table (`cuda_family.rs`) and implementation
//! (`cuda_runtime.rs`) behind [`crate::cuda`] and [`crate::musa`], the ACL facade ([`crate::acl`]), and the C
//! library's own calls ([`crate::capi`]). It calls the engine; the engine never calls it.

#[doc(hidden)]
pub mod acl;
pub(crate) mod binding;
pub(crate) mod c_names;
#[doc(hidden)]
pub mod capi;
pub(crate) mod capi_toolkit;
pub(crate) mod cc_check;
pub(crate) mod cc_runtime;
#[doc(hidden)]
pub mod cuda;
pub(crate) mod cuda_device;
pub(crate) mod cuda_device_prop;
pub(crate) mod cuda_family;
pub(crate) mod cuda_graph;
pub(crate) mod cuda_graph_build;
pub(crate) mod cuda_graph_child;
pub(crate) mod cuda_graph_mem;
pub(crate) mod cuda_graph_symbol;
pub(crate) mod cuda_host_memory;
pub(crate) mod cuda_ipc;
pub(crate) mod cuda_managed;
pub(crate) mod cuda_memory;
pub(crate) mod cuda_pitched;
pub(crate) mod cuda_pool;
pub(crate) mod cuda_runtime;
pub(crate) mod cuda_stream_info;
pub(crate) mod determinism_check;
/// The drop-in `libcudart.so.13`'s entry points beyond the C library's (`streamsim exec`).
#[doc(hidden)]
pub mod dropin;
pub(crate) mod exit;
pub(crate) mod host_deref;
pub(crate) mod kernel_ctx;
#[doc(hidden)]
pub mod musa;

pub use binding::Binding;
