//! The [`Machine`]: devices, dialect, cost model, seed, the worker threads and the trace. Built with
//! [`Machine::builder`]; [`Machine::process`] makes simulated host processes on it.
//!
//! Lock order (machine level): `processes` → a process's state (see `process/state.rs`) → `workers` / `sinks` /
//! `host_events`; memory locks (see `memory.rs`) are leaves.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use parking_lot::Mutex;

use crate::engine::error::{ObjectKind, ObjectLimit, Result, SimError};
use crate::engine::exec::{OpSender, StreamExec, WorkerEnv};
use crate::engine::handle::{ProcessId, StreamId};
use crate::engine::hang::{HangReport, Schedule};
use crate::engine::memory::Memory;
use crate::engine::process::{ProcShared, Process};
use crate::engine::race::{RaceDetection, RaceHook, RaceReport, RaceState};
use crate::engine::rules::{Dialect, Rules};
use crate::engine::time::{CostModel, EngineModel};
use crate::engine::trace::{Dropped, FailedCall, HostEvent, Trace, TraceNames, TraceSink};
use crate::engine::trace_store::{Kept, TraceHook, TraceRecord, TraceStore, TraceWindow};
use crate::engine::workers::{self, Assignment, Done};

/// A device attribute (the ones the simulator models; the facades map theirs onto these).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Attribute {
    /// Streaming multiprocessors (CUDA `cudaDevAttrMultiProcessorCount`).
    MultiprocessorCount,
    /// Threads per warp.
    WarpSize,
    /// AI cores (ACL `ACL_DEV_ATTR_AICORE_CORE_NUM`).
    AiCoreCount,
    /// Cube cores (ACL).
    CubeCoreCount,
    /// Vector cores (ACL `ACL_DEV_ATTR_VECTOR_CORE_NUM`).
    VectorCoreCount,
    /// AI CPU cores (ACL).
    AiCpuCoreCount,
    /// Device memory in bytes.
    TotalMemory,
    // The attributes below are the device profile that CUDA's `cudaDeviceProp` and `cudaDeviceGetAttribute`
    // report (see `device_profile.rs` for the default values and their sources).
    /// Compute capability, major number.
    ComputeCapabilityMajor,
    /// Compute capability, minor number.
    ComputeCapabilityMinor,
    /// Most threads in one block.
    MaxThreadsPerBlock,
    /// Largest block dimension x.
    MaxBlockDimX,
    /// Largest block dimension y.
    MaxBlockDimY,
    /// Largest block dimension z.
    MaxBlockDimZ,
    /// Largest grid dimension x.
    MaxGridDimX,
    /// Largest grid dimension y.
    MaxGridDimY,
    /// Largest grid dimension z.
    MaxGridDimZ,
    /// Shared memory one block can use, in bytes.
    SharedMemoryPerBlock,
    /// Shared memory one block can use when it opts in, in bytes.
    SharedMemoryPerBlockOptin,
    /// Shared memory of one multiprocessor, in bytes.
    SharedMemoryPerMultiprocessor,
    /// Shared memory the system reserves per block, in bytes.
    ReservedSharedMemoryPerBlock,
    /// Constant memory, in bytes.
    TotalConstantMemory,
    /// 32-bit registers one block can use.
    RegistersPerBlock,
    /// 32-bit registers of one multiprocessor.
    RegistersPerMultiprocessor,
    /// Most resident threads per multiprocessor.
    MaxThreadsPerMultiprocessor,
    /// Most resident blocks per multiprocessor.
    MaxBlocksPerMultiprocessor,
    /// Largest pitch of a pitched copy, in bytes.
    MaxPitch,
    /// Peak clock rate, in kHz.
    ClockRateKhz,
    /// Peak memory clock rate, in kHz.
    MemoryClockRateKhz,
    /// Global memory bus width, in bits.
    MemoryBusWidth,
    /// L2 cache size, in bytes.
    L2CacheSize,
    /// Largest L2 persisting-lines cache size, in bytes (0: not supported).
    MaxPersistingL2CacheSize,
    /// Texture base alignment, in bytes.
    TextureAlignment,
    /// Texture pitch alignment, in bytes.
    TexturePitchAlignment,
    /// Surface alignment, in bytes.
    SurfaceAlignment,
    /// Largest 1D texture width.
    MaxTexture1DWidth,
    /// Largest 2D texture width.
    MaxTexture2DWidth,
    /// Largest 2D texture height.
    MaxTexture2DHeight,
    /// Largest 3D texture width.
    MaxTexture3DWidth,
    /// Largest 3D texture height.
    MaxTexture3DHeight,
    /// Largest 3D texture depth.
    MaxTexture3DDepth,
    /// Largest layered 1D texture width.
    MaxTexture1DLayeredWidth,
    /// Most layers of a layered 1D texture.
    MaxTexture1DLayeredLayers,
    /// Largest layered 2D texture width.
    MaxTexture2DLayeredWidth,
    /// Largest layered 2D texture height.
    MaxTexture2DLayeredHeight,
    /// Most layers of a layered 2D texture.
    MaxTexture2DLayeredLayers,
    /// Copy engines that can run concurrently with kernels (reported only: the simulator has no engine
    /// model).
    AsyncEngineCount,
    /// 1 if copies can overlap kernels (`deviceOverlap`).
    GpuOverlap,
    /// 1 if kernels from several streams can run concurrently.
    ConcurrentKernels,
    /// 1 if kernels have a run-time limit.
    KernelExecTimeout,
    /// 1 for an integrated GPU that shares host memory.
    Integrated,
    /// 1 if pinned host memory can be mapped into the device's address space.
    CanMapHostMemory,
    /// 1 if the device shares one address space with the host (unified addressing).
    UnifiedAddressing,
    /// 1 if the device can use the host pointer of registered memory.
    CanUseHostPointerForRegisteredMem,
    /// 1 if host memory can be registered (page-locked in place).
    HostRegisterSupported,
    /// 1 if host memory can be registered read-only.
    HostRegisterReadOnlySupported,
    /// 1 if managed (unified) memory is supported.
    ManagedMemory,
    /// The compute mode (0 default, 1 exclusive thread, 2 prohibited, 3 exclusive process).
    ComputeMode,
    /// 1 if ECC is enabled.
    EccEnabled,
    /// 1 if the device uses the TCC driver (Windows).
    TccDriver,
    /// 1 if compute preemption is supported.
    ComputePreemptionSupported,
    /// 1 if cooperative launches are supported.
    CooperativeLaunch,
    /// 1 if multi-device cooperative launches are supported.
    CooperativeMultiDeviceLaunch,
    /// 1 if stream priorities are supported.
    StreamPrioritiesSupported,
    /// 1 if the device supports IPC events.
    IpcEventSupported,
    /// PCI domain.
    PciDomainId,
    /// PCI bus.
    PciBusId,
    /// PCI device (slot).
    PciDeviceId,
}

/// One device's configuration. `Default` is a 16 GiB device with CUDA's stream priority range and the
/// compute-capability 7.0 profile of `device_profile.rs` (80 multiprocessors, warp size 32, …). The PCI
/// location (`PciDomainId`, `PciBusId`, `PciDeviceId`) defaults to `0000:<ordinal + 1>:00.0`, assigned when
/// the machine is built; locations must be distinct.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DeviceConfig {
    /// A name for messages and traces.
    pub name: String,
    /// Device memory in bytes.
    pub memory: u64,
    /// Stream priorities: (least, greatest). Lower numbers are higher priorities; CUDA's range is (0, -5).
    pub priority_range: (i32, i32),
    /// Attribute values (`TotalMemory` is always `memory`).
    pub attributes: BTreeMap<Attribute, i64>,
}

impl Default for DeviceConfig {
    fn default() -> Self {
        DeviceConfig {
            name: "streamsim device".to_string(),
            memory: 16 << 30,
            priority_range: (0, -5),
            attributes: BTreeMap::from([
                (Attribute::MultiprocessorCount, 80),
                (Attribute::WarpSize, 32),
                (Attribute::AiCoreCount, 24),
                (Attribute::CubeCoreCount, 24),
                (Attribute::VectorCoreCount, 48),
                (Attribute::AiCpuCoreCount, 6),
            ])
            .into_iter()
            .chain(
                crate::engine::device_profile::DEFAULT_PROFILE
                    .iter()
                    .copied(),
            )
            .collect(),
        }
    }
}

impl DeviceConfig {
    /// Sets the memory size in bytes.
    #[must_use]
    pub fn memory(mut self, bytes: u64) -> Self {
        self.memory = bytes;
        self
    }

    /// Sets an attribute.
    #[must_use]
    pub fn attribute(mut self, attr: Attribute, value: i64) -> Self {
        self.attributes.insert(attr, value);
        self
    }

    /// Sets the name.
    #[must_use]
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// Sets the stream priority range (least, greatest).
    #[must_use]
    pub fn priority_range(mut self, least: i32, greatest: i32) -> Self {
        self.priority_range = (least, greatest);
        self
    }
}

/// Builds a [`Machine`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct MachineBuilder {
    devices: Vec<DeviceConfig>,
    dialect: Dialect,
    cost: CostModel,
    seed: u64,
    trace: bool,
    trace_window: TraceWindow,
    trace_sink: Option<TraceHook>,
    links: Option<BTreeSet<(u32, u32)>>,
    race: RaceDetection,
    on_race: Option<RaceHook>,
    perturb: bool,
    schedule: Schedule,
    schedule_seed: Option<u64>,
    /// The watchdog's limit: `None` the schedule's default, `Some(None)` off.
    watchdog: Option<Option<Duration>>,
    print_hangs: bool,
    worker_stack: Option<usize>,
    /// The shared host to join at the first IPC call (`host/`), if any.
    shared_host: Option<String>,
    /// A device count above [`MAX_DEVICES`] asked for with `devices` or `device`: nothing was allocated for
    /// it, and `build` reports it.
    too_many_devices: Option<u64>,
}

/// The most devices a machine can have.
pub const MAX_DEVICES: u32 = 1024;

impl MachineBuilder {
    /// `n` devices, each with the default [`DeviceConfig`] (default: 1).
    #[must_use]
    pub fn devices(mut self, n: u32) -> Self {
        // A count over the limit is not allocated (u32::MAX configurations would abort the process): `build`
        // reports it.
        if n > MAX_DEVICES {
            self.too_many_devices = Some(u64::from(n));
            return self;
        }
        self.too_many_devices = None;
        self.devices = vec![DeviceConfig::default(); n as usize];
        self
    }

    /// Replaces device `index`'s configuration (adding default devices up to it if needed).
    #[must_use]
    pub fn device(mut self, index: u32, config: DeviceConfig) -> Self {
        if index >= MAX_DEVICES {
            let n = u64::from(index) + 1;
            self.too_many_devices = Some(self.too_many_devices.map_or(n, |m| m.max(n)));
            return self;
        }
        let i = index as usize;
        if self.devices.len() <= i {
            self.devices.resize(i + 1, DeviceConfig::default());
        }
        self.devices[i] = config;
        self
    }

    /// The vendor semantics (default [`Dialect::Cuda`]).
    #[must_use]
    pub fn dialect(mut self, d: Dialect) -> Self {
        self.dialect = d;
        self
    }

    /// The cost model (default [`CostModel::default`]).
    #[must_use]
    pub fn cost_model(mut self, cost: CostModel) -> Self {
        self.cost = cost;
        self
    }

    /// The engine model of the cost model (default [`EngineModel::ON`]; [`EngineModel::OFF`]: every operation
    /// starts when it is ready, operations of different streams overlap fully). Set after
    /// [`MachineBuilder::cost_model`], it replaces that model's.
    #[must_use]
    pub fn engine_model(mut self, engines: EngineModel) -> Self {
        self.cost.engines = engines;
        self
    }

    /// The machine's seed: the only source of randomness (default 0).
    #[must_use]
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Whether executed operations are recorded in the trace (default on).
    #[must_use]
    pub fn trace(mut self, on: bool) -> Self {
        self.trace = on;
        self
    }

    /// How much of the trace the machine keeps (default [`TraceWindow::DEFAULT`]: the latest 65,536
    /// operations, blocking host calls and failed calls, in the trace's order, so that a long run holds
    /// bounded memory; [`Trace::dropped`] says how many were left out). [`TraceWindow::All`] keeps everything,
    /// as a short test or a scenario wants (the scenario runner uses it).
    #[must_use]
    pub fn trace_window(mut self, window: TraceWindow) -> Self {
        self.trace_window = window;
        self
    }

    /// Hands every entry of the trace to `f` as it is recorded (with tracing on): each operation once it has run
    /// (on its stream's worker thread, in the stream's order; streams run concurrently), each blocking host call
    /// as it returns and each failed call (on the calling thread). With `.trace_window(TraceWindow::Last(0))`
    /// the machine keeps nothing itself: the sink is the trace. `f` runs while the simulator holds locks of its
    /// own: it must not call the simulator.
    #[must_use]
    pub fn trace_sink(mut self, f: impl Fn(TraceRecord<'_>) + Send + Sync + 'static) -> Self {
        self.trace_sink = Some(TraceHook(Arc::new(f)));
        self
    }

    /// What to do about data races (default [`RaceDetection::Collect`]).
    #[must_use]
    pub fn race_detection(mut self, mode: RaceDetection) -> Self {
        self.race = mode;
        self
    }

    /// Calls `f` with each new race report as it is found (not again when the same pair of accesses races
    /// again: see [`RaceReport::occurrences`]; nor for the pairs found once [`crate::race::MAX_REPORTS`] are
    /// kept: see [`Machine::race_reports_dropped`]), e.g. to print it. `f` runs on the host thread whose call found
    /// the race, while the simulator holds that process's lock: it must not call the simulator. Without race
    /// detection ([`RaceDetection::Off`]) it is never called.
    #[must_use]
    pub fn on_race(mut self, f: impl Fn(&RaceReport) + Send + Sync + 'static) -> Self {
        self.on_race = Some(RaceHook(Arc::new(f)));
        self
    }

    /// Schedule perturbation (default off): from the seed, workers sometimes give the CPU away before an
    /// operation, within what the dependencies allow, so that racy programs also show wrong data. Virtual times,
    /// event answers and race verdicts do not change.
    #[must_use]
    pub fn perturb(mut self, on: bool) -> Self {
        self.perturb = on;
        self
    }

    /// The schedule the streams run under (default [`Schedule::Concurrent`]). [`Schedule::Serialize`] runs one
    /// operation at a time, in an order the seed chooses, only while a host thread waits for the device, and turns
    /// the watchdog on ([`SERIALIZE_WATCHDOG`](crate::hang::SERIALIZE_WATCHDOG)) unless [`MachineBuilder::watchdog`]
    /// says otherwise. See `docs/semantics/schedules-and-hangs.md`.
    #[must_use]
    pub fn schedule(mut self, schedule: Schedule) -> Self {
        self.schedule = schedule;
        self
    }

    /// The seed of the scheduling choices — which operation the serialize schedule runs next, where
    /// perturbation gives the CPU away — without changing the machine's seed (default: the machine's seed).
    /// [`check_determinism`](crate::testing::check_determinism) runs a program under several.
    #[must_use]
    pub fn schedule_seed(mut self, seed: u64) -> Self {
        self.schedule_seed = Some(seed);
        self
    }

    /// The real-time watchdog (default: off, or [`SERIALIZE_WATCHDOG`](crate::hang::SERIALIZE_WATCHDOG) under
    /// [`Schedule::Serialize`]; `None`: off): a host function, kernel body or stream callback that has not
    /// returned after `limit` of real time is reported ([`Machine::hang_reports`]); nothing is stopped. Under the
    /// serialize schedule, if it holds back other streams' ready work, the schedule is given up (everything runs
    /// concurrently from then on) and the host calls waiting for the device fail with
    /// [`SimError::WouldDeadlock`] naming the cycle. The limit must be longer than any function of the program
    /// takes to return on its own.
    #[must_use]
    pub fn watchdog(mut self, limit: Option<Duration>) -> Self {
        self.watchdog = Some(limit);
        self
    }

    /// Hang reports are also written to stderr as they are made (the C library's default machines).
    #[must_use]
    pub(crate) fn print_hangs(mut self, on: bool) -> Self {
        self.print_hangs = on;
        self
    }

    /// The stack size of each stream's worker thread, which runs kernel bodies and host functions (default:
    /// Rust's default for new threads, 2 MiB unless `RUST_MIN_STACK` says otherwise). Larger for deeply
    /// recursive bodies; smaller for programs with thousands of streams. A size the host cannot give makes
    /// creating a stream fail with [`SimError::TooManyObjects`] (`limit: HostThreads`).
    #[must_use]
    pub fn worker_stack_size(mut self, bytes: usize) -> Self {
        self.worker_stack = Some(bytes);
        self
    }

    /// Puts the machine on the shared host `name`: OS processes whose machines are on the same host (same
    /// name, user and dialect, and the same device configuration) exchange IPC event and memory handles as the
    /// simulated processes of one machine do (see the README, "Real OS processes share one host"). Nothing is
    /// shared before the machine's first IPC call. The C library's default machines are on the host named by
    /// `STREAMSIM_MACHINE` (default `default`). Default: not shared.
    #[must_use]
    pub fn shared_host(mut self, name: impl Into<String>) -> Self {
        self.shared_host = Some(name.into());
        self
    }

    /// The peer-link topology: only these device pairs (in either order) have a link. Default: every pair.
    #[must_use]
    pub fn peer_links(mut self, pairs: impl IntoIterator<Item = (u32, u32)>) -> Self {
        self.links = Some(
            pairs
                .into_iter()
                .map(|(a, b)| (a.min(b), a.max(b)))
                .collect(),
        );
        self
    }

    /// Builds the machine.
    pub fn build(self) -> Result<Machine> {
        let requested = self.too_many_devices.unwrap_or(self.devices.len() as u64);
        if requested > u64::from(MAX_DEVICES) {
            return Err(SimError::InvalidValue {
                what: "devices",
                reason: format!("{requested} devices requested; at most {MAX_DEVICES}"),
            });
        }
        let n = self.devices.len() as u32;
        if let Some(&(a, b)) = self
            .links
            .iter()
            .flatten()
            .find(|&&(a, b)| a == b || b >= n)
        {
            return Err(SimError::InvalidValue {
                what: "peer_links",
                reason: format!("link ({a}, {b}) does not join two distinct devices of {n}"),
            });
        }
        for (i, d) in self.devices.iter().enumerate() {
            if d.priority_range.0 < d.priority_range.1 {
                return Err(SimError::InvalidValue {
                    what: "DeviceConfig::priority_range",
                    reason: format!(
                        "device {i}: least priority {} must be >= greatest {}",
                        d.priority_range.0, d.priority_range.1
                    ),
                });
            }
        }
        let rules = self.dialect.rules();
        let mut devices = self.devices;
        // A device left at CUDA's default priority range gets the dialect's.
        let cuda_default = DeviceConfig::default().priority_range;
        for d in &mut devices {
            if d.priority_range == cuda_default {
                d.priority_range = rules.default_priority_range;
            }
        }
        crate::engine::device_profile::assign_pci(&mut devices)?;
        static NEXT_MACHINE: AtomicU64 = AtomicU64::new(1);
        let id = NEXT_MACHINE.fetch_add(1, Ordering::Relaxed);
        let capacities: Vec<u64> = devices.iter().map(|d| d.memory).collect();
        let schedule_seed = self.schedule_seed.unwrap_or(self.seed);
        let no_thread = |_| SimError::TooManyObjects {
            kind: ObjectKind::Stream,
            process: ProcessId(0),
            limit: ObjectLimit::HostThreads,
        };
        let serial = match self.schedule {
            Schedule::Serialize => {
                Some(crate::engine::serial::Serial::start(schedule_seed).map_err(no_thread)?)
            }
            _ => None,
        };
        let limit = self.watchdog.unwrap_or(match self.schedule {
            Schedule::Serialize => Some(crate::engine::hang::SERIALIZE_WATCHDOG),
            _ => None,
        });
        let watchdog = match limit {
            Some(l) if l > Duration::ZERO => Some(
                crate::engine::watchdog::Watchdog::start(l, serial.clone(), self.print_hangs)
                    .map_err(no_thread)?,
            ),
            Some(_) => {
                return Err(SimError::InvalidValue {
                    what: "watchdog",
                    reason: "a watchdog limit of zero".to_string(),
                });
            }
            None => None,
        };
        Ok(Machine {
            shared: Arc::new(Shared {
                id,
                dialect: self.dialect,
                rules,
                devices,
                hot: HotCosts::of(&self.cost),
                cost: self.cost,
                seed: self.seed,
                trace_on: self.trace,
                trace: Arc::new(TraceStore::new(self.trace_window, self.trace_sink)),
                links: self.links,
                race: RaceState::new(self.race, self.on_race),
                perturb: self.perturb.then_some(schedule_seed),
                schedule: self.schedule,
                serial,
                watchdog,
                worker_stack: self.worker_stack,
                ipc: Mutex::new(BTreeMap::new()),
                ipc_mem: Mutex::new(Default::default()),
                shared_host: self.shared_host,
                host: std::sync::OnceLock::new(),
                memory: Arc::new(Memory::new(&capacities)),
                processes: Mutex::new(Vec::new()),
                host_events: Mutex::new(Kept::new(self.trace_window)),
                trace_names: Mutex::new(TraceNames::default()),
                failed_calls: Mutex::new(Kept::new(self.trace_window)),
                workers: Mutex::new(Vec::new()),
                live_workers: Arc::new(AtomicUsize::new(0)),
            }),
        })
    }
}

/// The simulated host with its devices. A cheap `Clone + Send + Sync` handle; the machine shuts down (every
/// queued operation completes and every worker thread is released: it parks in the process-wide pool, no
/// longer named after the machine, for the next stream to take) when the last `Machine` and `Process` handle
/// is dropped.
#[derive(Clone)]
pub struct Machine {
    pub(crate) shared: Arc<Shared>,
}

impl std::fmt::Debug for Machine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Machine")
            .field("id", &self.shared.id)
            .field("devices", &self.shared.devices.len())
            .field("dialect", &self.shared.dialect)
            .field("seed", &self.shared.seed)
            .finish()
    }
}

/// The cost model's figures that every call or launch needs, converted to nanoseconds once per machine.
#[derive(Debug, Clone, Copy)]
pub(crate) struct HotCosts {
    pub api_call_ns: u64,
    pub launch_latency_ns: u64,
    pub default_kernel_ns: u64,
}

impl HotCosts {
    fn of(c: &CostModel) -> HotCosts {
        HotCosts {
            api_call_ns: c.api_call_ns(),
            launch_latency_ns: c.launch_latency_ns(),
            default_kernel_ns: crate::engine::time::saturating_nanos(c.default_kernel),
        }
    }
}

/// The error of an IPC call in a forked child (see [`Shared::check_not_forked`]).
fn forked(l: &crate::engine::host::HostLink) -> SimError {
    SimError::HostUnavailable {
        name: l.name.clone(),
        reason: format!(
            "this machine joined the shared host in OS process {}, and this is OS process {}, forked from it \
             without exec: a forked child cannot use its parent's IPC (exec a program, as cuda-samples simpleIPC \
             does, or make a new machine in the child)",
            l.pid,
            std::process::id()
        ),
    }
}

pub(crate) struct Shared {
    pub id: u64,
    pub dialect: Dialect,
    pub rules: &'static Rules,
    pub devices: Vec<DeviceConfig>,
    pub cost: CostModel,
    /// The costs every call and launch reads, in nanoseconds (from `cost`, converted once).
    pub hot: HotCosts,
    pub seed: u64,
    pub trace_on: bool,
    /// The operations' side of the trace: the streams' sinks, within the window.
    pub trace: Arc<TraceStore>,
    links: Option<BTreeSet<(u32, u32)>>,
    pub race: RaceState,
    /// Schedule perturbation, with the schedule's seed, when on.
    perturb: Option<u64>,
    pub schedule: Schedule,
    /// The serialize schedule, under [`Schedule::Serialize`] (`serial.rs`).
    pub serial: Option<Arc<crate::engine::serial::Serial>>,
    /// The real-time watchdog, when on (`watchdog.rs`).
    pub watchdog: Option<Arc<crate::engine::watchdog::Watchdog>>,
    worker_stack: Option<usize>,
    /// Exported IPC event handles → the exported event.
    pub ipc: Mutex<BTreeMap<[u8; 64], crate::engine::ipc::Export>>,
    /// Exported IPC memory and its mappings (`ipc_memory.rs`). Lock order: this table, then a process's
    /// state, then a heap.
    pub ipc_mem: Mutex<crate::engine::ipc_memory::IpcMemTable>,
    /// The shared host's name, if the machine is on one, and the link to it once joined (at the first call
    /// that needs it).
    pub shared_host: Option<String>,
    host: std::sync::OnceLock<std::result::Result<Arc<crate::engine::host::HostLink>, SimError>>,
    pub memory: Arc<Memory>,
    processes: Mutex<Vec<Arc<ProcShared>>>,
    /// Blocking host calls, kept for the trace (tracing on), within the window.
    pub host_events: Mutex<Kept<HostEvent>>,
    /// Names of streams and events, kept for the trace (tracing on).
    pub trace_names: Mutex<TraceNames>,
    /// Failed calls, kept for the trace (tracing on), within the window.
    pub failed_calls: Mutex<Kept<FailedCall>>,
    /// The streams' workers, until drained (see `workers.rs`).
    workers: Mutex<Vec<Arc<Done>>>,
    live_workers: Arc<AtomicUsize>,
}

impl Shared {
    /// A process's engines of device `d` (see `engines.rs`), or `None` when the engine model is off: its copy
    /// engines from the device's `AsyncEngineCount`, its kernel slots from `ConcurrentKernels` and the model.
    pub fn engines_of(
        &self,
        d: &DeviceConfig,
    ) -> Option<Arc<Mutex<crate::engine::engines::DeviceEngines>>> {
        let model = &self.cost.engines;
        if !model.enabled {
            return None;
        }
        let attr = |a: Attribute, default: i64| d.attributes.get(&a).copied().unwrap_or(default);
        Some(Arc::new(Mutex::new(
            crate::engine::engines::DeviceEngines::new(
                model,
                attr(Attribute::AsyncEngineCount, 2),
                attr(Attribute::ConcurrentKernels, 1) != 0,
            ),
        )))
    }

    pub fn device_count(&self) -> u32 {
        self.devices.len() as u32
    }

    pub fn check_device(&self, device: i64) -> Result<u32> {
        if device < 0 || device >= self.devices.len() as i64 {
            return Err(SimError::InvalidDevice {
                device,
                count: self.device_count(),
            });
        }
        Ok(device as u32)
    }

    /// Releases held operations in every process (a record of an interprocess event can release a deferred
    /// wait in another process). Takes each process's state lock in turn, holding none of them on entry.
    pub fn pump_all(&self) {
        let procs: Vec<Arc<ProcShared>> = self.processes.lock().clone();
        for p in procs {
            p.state.lock().pump(self);
        }
    }

    /// The machine's link to its shared host, joining it on first use (`None`: the machine is not shared).
    pub fn host_link(&self) -> Option<Result<Arc<crate::engine::host::HostLink>>> {
        let name = self.shared_host.as_ref()?;
        let link = self.host.get_or_init(|| {
            let dialect = match self.dialect {
                Dialect::Cuda => "cuda",
                Dialect::Acl => "acl",
            };
            crate::engine::host::HostLink::join(
                name,
                dialect,
                &crate::engine::host::config_text(&self.devices),
            )
        });
        Some(match link {
            Ok(l) if l.pid != std::process::id() => Err(forked(l)),
            other => other.clone(),
        })
    }

    /// Refuses an IPC call in a child forked (without exec) from the OS process that joined the shared host:
    /// the child would act as its parent's member of the host (`host/mod.rs`, "Fork without exec").
    pub fn check_not_forked(&self) -> Result<()> {
        match self.host.get() {
            Some(Ok(l)) if l.pid != std::process::id() => Err(forked(l)),
            _ => Ok(()),
        }
    }
    /// Whether the topology links devices `a` and `b`.
    pub fn linked(&self, a: u32, b: u32) -> bool {
        a != b
            && self
                .links
                .as_ref()
                .is_none_or(|l| l.contains(&(a.min(b), a.max(b))))
    }

    /// Starts a worker thread for a new stream; returns its queue. If the host refuses the thread (a thread
    /// or memory limit of the OS), the stream cannot exist: [`SimError::TooManyObjects`] with
    /// [`ObjectLimit::HostThreads`], and nothing of the stream is left behind.
    pub fn spawn_worker(
        &self,
        id: StreamId,
        ctx: Option<u64>,
    ) -> Result<(OpSender, Arc<StreamExec>)> {
        let (tx, rx) = crate::engine::exec::queue();
        let exec = Arc::new(StreamExec::new(id, ctx));
        let sink = self
            .trace_on
            .then(|| Arc::new(TraceSink::new(id, &self.trace)));
        let env = WorkerEnv {
            exec: exec.clone(),
            sink: sink.clone(),
            memory: self.memory.clone(),
            live: self.live_workers.clone(),
            perturb: self.perturb,
            failure_mode: self.rules.failure_mode,
            serial: self.serial.clone(),
            watchdog: self.watchdog.clone(),
        };
        if let Some(s) = &self.serial {
            let _ = exec.serial.set(s.clone());
        }
        self.live_workers.fetch_add(1, Ordering::SeqCst);
        let done = Arc::new(Done::new(exec.clone()));
        let assignment = Assignment {
            rx,
            env,
            name: format!("ss{}-{}", self.id, id.process.0),
            done: done.clone(),
        };
        if workers::start(assignment, self.worker_stack).is_err() {
            // The worker never ran, so it will not count itself out.
            self.live_workers.fetch_sub(1, Ordering::SeqCst);
            return Err(SimError::TooManyObjects {
                kind: ObjectKind::Stream,
                process: id.process,
                limit: ObjectLimit::HostThreads,
            });
        }
        if let Some(s) = sink {
            self.trace.add(s);
        }
        let mut serving = self.workers.lock();
        // Forget the streams already drained, so that create/destroy loops do not accumulate them.
        if serving.len() >= 64 && serving.len().is_power_of_two() {
            serving.retain(|d| !d.is_finished());
        }
        serving.push(done);
        Ok((tx, exec))
    }
}

impl Drop for Shared {
    fn drop(&mut self) {
        // Dropping the processes drops every stream's sender: workers drain their queues, then exit.
        let processes = std::mem::take(&mut *self.processes.lock());
        drop(processes);
        // Under the serialize schedule, what is left runs now (nothing else would wait for it).
        if let Some(s) = &self.serial {
            s.flush();
        }
        let serving = std::mem::take(&mut *self.workers.lock());
        for done in serving {
            // The last handle can be dropped by a host function running on a worker: that worker is not
            // waited for (`Done::wait`).
            done.wait();
        }
    }
}

impl Machine {
    /// A builder with the defaults: 1 device, CUDA semantics, the default cost model, seed 0, tracing on, race
    /// detection collecting reports, a peer link between every pair of devices.
    pub fn builder() -> MachineBuilder {
        MachineBuilder {
            devices: vec![DeviceConfig::default()],
            dialect: Dialect::default(),
            cost: CostModel::default(),
            seed: 0,
            trace: true,
            trace_window: TraceWindow::DEFAULT,
            trace_sink: None,
            links: None,
            race: RaceDetection::default(),
            on_race: None,
            perturb: false,
            schedule: Schedule::Concurrent,
            schedule_seed: None,
            watchdog: None,
            print_hangs: false,
            worker_stack: None,
            shared_host: None,
            too_many_devices: None,
        }
    }

    /// A new simulated host process on this machine.
    pub fn process(&self) -> Process {
        let mut procs = self.shared.processes.lock();
        let id = ProcessId(procs.len() as u32);
        let p = Arc::new(ProcShared::new(&self.shared, id));
        procs.push(p.clone());
        Process::new(self.shared.clone(), p)
    }

    /// How many devices the machine has.
    pub fn device_count(&self) -> u32 {
        self.shared.device_count()
    }

    /// A device's configuration.
    pub fn device_config(&self, device: u32) -> Result<&DeviceConfig> {
        let d = self.shared.check_device(device as i64)?;
        Ok(&self.shared.devices[d as usize])
    }

    /// A device attribute.
    pub fn device_attribute(&self, device: u32, attr: Attribute) -> Result<i64> {
        let cfg = self.device_config(device)?;
        match attr {
            // Saturates: a device of more than i64::MAX bytes reports i64::MAX, never a negative size.
            Attribute::TotalMemory => Ok(i64::try_from(cfg.memory).unwrap_or(i64::MAX)),
            other => cfg
                .attributes
                .get(&other)
                .copied()
                .ok_or_else(|| SimError::InvalidValue {
                    what: "device_attribute",
                    reason: format!("device {device} has no value for {other:?}"),
                }),
        }
    }

    /// Bytes of device memory currently allocated on `device` (all processes).
    pub fn memory_used(&self, device: u32) -> Result<u64> {
        let d = self.shared.check_device(device as i64)?;
        Ok(self.shared.memory.used(d))
    }

    /// Which address space a raw address belongs to (device range, live pinned buffer, or pageable host).
    pub fn address_space(&self, addr: u64) -> crate::engine::memory::AddressSpace {
        self.shared.memory.classify(addr)
    }

    /// The dialect.
    pub fn dialect(&self) -> Dialect {
        self.shared.dialect
    }

    /// The dialect's rules.
    pub fn rules(&self) -> &'static Rules {
        self.shared.rules
    }

    /// The cost model.
    pub fn cost_model(&self) -> &CostModel {
        &self.shared.cost
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.shared.seed
    }

    /// The schedule the streams run under.
    pub fn schedule(&self) -> Schedule {
        self.shared.schedule
    }

    /// What the real-time watchdog found so far ([`MachineBuilder::watchdog`]), in the order found (at most
    /// 64). Empty without a watchdog.
    pub fn hang_reports(&self) -> Vec<HangReport> {
        self.shared
            .watchdog
            .as_ref()
            .map_or_else(Vec::new, |w| w.reports())
    }

    /// Worker threads currently alive (one per stream that has not been destroyed and drained).
    pub fn live_workers(&self) -> usize {
        self.shared.live_workers.load(Ordering::SeqCst)
    }

    /// The thread-name prefix of this machine's workers (`ss<machine>-`), so a test can check that none is
    /// left after the machine is dropped.
    pub fn worker_name_prefix(&self) -> String {
        format!("ss{}-", self.shared.id)
    }

    /// Every data race found so far, in every process of the machine, in the order they were found (program
    /// order), each pair of call sites once (see [`RaceReport::occurrences`]), at most
    /// [`crate::race::MAX_REPORTS`] of them (see [`Machine::race_reports_dropped`]). Empty with
    /// [`RaceDetection::Off`].
    pub fn race_reports(&self) -> Vec<RaceReport> {
        self.shared.race.reports.lock().list()
    }

    /// How many racing accesses were found after [`crate::race::MAX_REPORTS`] distinct reports were kept that
    /// match none of them: those pairs are neither kept nor handed to [`MachineBuilder::on_race`], so that the
    /// reports' memory stays bounded (a racy loop over fresh streams makes a new pair each time). 0 until then.
    pub fn race_reports_dropped(&self) -> u64 {
        self.shared.race.reports.lock().dropped()
    }

    /// How many race reports [`Machine::race_reports`] would return, without copying them.
    pub fn race_count(&self) -> usize {
        self.shared.race.reports.lock().len()
    }

    /// Report `index` of [`Machine::race_reports`] (in the order found), without copying the others.
    pub fn race_report(&self, index: usize) -> Option<RaceReport> {
        self.shared.race.reports.lock().get(index)
    }

    /// Whether the machine keeps a trace ([`MachineBuilder::trace`]).
    pub fn tracing(&self) -> bool {
        self.shared.trace_on
    }

    /// The race-detection mode.
    pub fn race_detection(&self) -> RaceDetection {
        self.shared.race.mode
    }

    /// Waits until every operation dispatched so far, in every process, has run (so that [`Machine::trace`]
    /// holds it), e.g. before writing a trace at the end of a program that did not synchronize. Not a runtime
    /// call: no clock moves, nothing is added to the trace, no fault is reported. Operations held back behind
    /// an ACL wait for a record nobody has issued cannot run and are not waited for.
    pub fn drain(&self) {
        let procs: Vec<Arc<ProcShared>> = self.shared.processes.lock().clone();
        let mut waits = Vec::new();
        for p in procs {
            p.state.lock().dispatched_tails(&mut waits);
        }
        // No lock is held while waiting.
        for (exec, seq) in waits {
            // A wait the watchdog gave a verdict (the serialize schedule is given up then) waits on.
            while exec.wait_for(seq).is_some() {}
        }
    }

    /// Everything executed so far (within the machine's [`TraceWindow`]), in deterministic order. Call it after
    /// synchronizing: operations still queued are not in it yet.
    pub fn trace(&self) -> Trace {
        let (ops, dropped_ops) = self.shared.trace.ops();
        let (host, dropped_host) = self.shared.host_events.lock().sorted();
        let names = self.shared.trace_names.lock().clone();
        let (failed, dropped_failed) = self.shared.failed_calls.lock().sorted();
        Trace {
            ops,
            host,
            names,
            failed,
            dropped: Dropped {
                ops: dropped_ops,
                host: dropped_host,
                failed: dropped_failed,
            },
        }
    }

    /// The machine's trace window ([`MachineBuilder::trace_window`]).
    pub fn trace_window(&self) -> TraceWindow {
        self.shared.trace.window()
    }
}
