//! The [`Machine`]: devices, dialect, cost model, seed, the worker threads and the trace. Built with
//! [`Machine::builder`]; [`Machine::process`] makes simulated host processes on it.
//!
//! Lock order (machine level): `processes` → a process's state (see `process/state.rs`) → `workers` / `sinks` /
//! `host_events`; memory locks (see `memory.rs`) are leaves.

pub(crate) mod builder;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Weak};

use parking_lot::Mutex;

use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{ObjectKind, ObjectLimit, Result, SimError};
use crate::engine::core::handle::{ProcessId, StreamId};
use crate::engine::core::hang::{HangReport, Schedule};
use crate::engine::core::races::{RaceDetection, RaceReport};
use crate::engine::core::rules::{Dialect, Rules};
use crate::engine::core::time::CostModel;
use crate::engine::exec::point::StreamExec;
use crate::engine::exec::workers::{self, Assignment, Done};
use crate::engine::exec::{OpSender, WorkerEnv};
use crate::engine::memory::Memory;
use crate::engine::observe::race::RaceState;
use crate::engine::observe::trace::{Dropped, FailedCall, HostEvent, Trace, TraceNames, TraceSink};
use crate::engine::observe::trace_store::{Kept, TraceStore, TraceWindow};

pub use crate::engine::core::limits::MAX_DEVICES;
pub use crate::engine::devices::config::{Attribute, DeviceConfig};
pub use crate::engine::machine::builder::MachineBuilder;

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
    pub(crate) fn of(c: &CostModel) -> HotCosts {
        HotCosts {
            api_call_ns: c.api_call_ns(),
            launch_latency_ns: c.launch_latency_ns(),
            default_kernel_ns: crate::engine::core::time::saturating_nanos(c.default_kernel),
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

/// A machine's simulated processes, held weakly (a process goes when its last handle is dropped), and the
/// next id to give.
#[derive(Default)]
pub(crate) struct ProcessList {
    live: Vec<Weak<dyn Member>>,
    next: u32,
}

/// A simulated process as its machine sees it (`process/`'s `ProcShared`): the machine lists its processes
/// without depending on what a process is.
pub(crate) trait Member: Send + Sync {
    /// The process's id.
    fn id(&self) -> ProcessId;
    /// Releases the process's held operations that can go now (see `process/live.rs`).
    fn pump(&self, m: &Shared);
    /// The last dispatched point of each of the process's streams with work (what a drain waits for).
    fn dispatched_tails(&self, out: &mut Vec<(Arc<StreamExec>, u64)>);
}

impl ProcessList {
    /// The processes still alive.
    pub fn live(&self) -> Vec<Arc<dyn Member>> {
        self.live.iter().filter_map(Weak::upgrade).collect()
    }

    /// Lists `p`, a new process.
    pub fn push(&mut self, p: Weak<dyn Member>) {
        self.live.push(p);
    }

    /// The id of a new process: the next one; past the ids a handle can carry, the first id after the last
    /// given that no live process has (so that a stale handle of a gone process needs 4,096 processes to
    /// name a live one); if every id is taken, the next one, whose handles cannot be made
    /// ([`ObjectLimit::ProcessId`]).
    pub fn next_id(&mut self) -> ProcessId {
        self.live.retain(|w| w.strong_count() > 0);
        let ids = crate::engine::core::handle::PROCESS_IDS;
        if self.next >= ids {
            let taken: BTreeSet<u32> = self
                .live
                .iter()
                .filter_map(Weak::upgrade)
                .map(|p| p.id().0)
                .collect();
            if let Some(free) = (0..ids)
                .map(|i| (self.next + i) % ids)
                .find(|id| !taken.contains(id))
            {
                self.next = ids + (free + 1) % ids;
                return ProcessId(free);
            }
            return ProcessId(ids);
        }
        let id = self.next;
        self.next += 1;
        ProcessId(id)
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
    pub(crate) links: Option<BTreeSet<(u32, u32)>>,
    pub race: RaceState,
    /// Schedule perturbation, with the schedule's seed, when on.
    pub(crate) perturb: Option<u64>,
    pub schedule: Schedule,
    /// The serialize schedule, under [`Schedule::Serialize`] (`serial.rs`).
    pub serial: Option<Arc<crate::engine::schedules::serialize::Serial>>,
    /// The real-time watchdog, when on (`watchdog.rs`).
    pub watchdog: Option<Arc<crate::engine::schedules::watchdog::Watchdog>>,
    pub(crate) worker_stack: Option<usize>,
    /// Exported IPC event handles → the exported event.
    pub ipc: Mutex<BTreeMap<[u8; 64], crate::engine::ipc::tables::Export>>,
    /// Exported IPC memory and its mappings (`ipc_memory.rs`). Lock order: this table, then a process's
    /// state, then a heap.
    pub ipc_mem: Mutex<crate::engine::ipc::tables::IpcMemTable>,
    /// The shared host's name, if the machine is on one, and the link to it once joined (at the first call
    /// that needs it).
    pub shared_host: Option<String>,
    pub(crate) host:
        std::sync::OnceLock<std::result::Result<Arc<crate::engine::host::HostLink>, SimError>>,
    pub memory: Arc<Memory>,
    pub(crate) processes: Mutex<ProcessList>,
    /// Blocking host calls, kept for the trace (tracing on), within the window.
    pub host_events: Mutex<Kept<HostEvent>>,
    /// Names of streams and events, kept for the trace (tracing on).
    pub trace_names: Mutex<TraceNames>,
    /// Failed calls, kept for the trace (tracing on), within the window.
    pub failed_calls: Mutex<Kept<FailedCall>>,
    /// The streams' workers, until drained (see `workers.rs`).
    pub(crate) workers: Mutex<Vec<Arc<Done>>>,
    pub(crate) live_workers: Arc<AtomicUsize>,
    /// The OS process the machine was made in and its fork generation (`workers.rs`, "Fork").
    pub(crate) made_in: (u32, u32),
    /// Set once a call panicked inside the simulator: the panic's message (see [`Shared::check_usable`]).
    pub(crate) broken: std::sync::OnceLock<String>,
    /// A test's injected panic: the call (engine name, `*` any) whose next run panics ([`Machine::inject_panic`]).
    pub(crate) inject: Mutex<Option<String>>,
    pub(crate) inject_armed: std::sync::atomic::AtomicBool,
}

impl Shared {
    /// A process's engines of device `d` (see `engines.rs`), or `None` when the engine model is off: its copy
    /// engines from the device's `AsyncEngineCount`, its kernel slots from `ConcurrentKernels` and the model.
    pub fn engines_of(
        &self,
        d: &DeviceConfig,
    ) -> Option<Arc<Mutex<crate::engine::exec::copy_engines::DeviceEngines>>> {
        let model = &self.cost.engines;
        if !model.enabled {
            return None;
        }
        let attr = |a: Attribute, default: i64| d.attributes.get(&a).copied().unwrap_or(default);
        Some(Arc::new(Mutex::new(
            crate::engine::exec::copy_engines::DeviceEngines::new(
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
        let procs = self.processes.lock().live();
        for p in procs {
            p.pump(self);
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
            Ok(l) => l.fault().map_or_else(|| Ok(l.clone()), Err),
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
    /// Refuses call `what` on a machine that cannot answer it: one made before this OS process was forked from
    /// its parent (its streams' threads are not in this process; [`SimError::ForkedChild`]), or one a panic
    /// inside the simulator may have left half-updated ([`SimError::Broken`]).
    pub fn check_usable(&self, what: &'static str) -> Result<()> {
        if self.forked_away() {
            return Err(SimError::ForkedChild {
                what,
                parent: self.made_in.0,
                child: std::process::id(),
            });
        }
        if let Some(message) = self.broken.get() {
            return Err(SimError::Broken {
                what,
                message: message.clone(),
            });
        }
        Ok(())
    }

    /// Panics if a test injected a panic into call `what` ([`Machine::inject_panic`]); a load otherwise.
    pub fn injected_panic(&self, what: &'static str) {
        if !self.inject_armed.load(Ordering::Relaxed) {
            return;
        }
        let hit = {
            let mut i = self.inject.lock();
            let hit = i.as_deref().is_some_and(|w| w == what || w == "*");
            if hit {
                *i = None;
                self.inject_armed.store(false, Ordering::Relaxed);
            }
            hit
        };
        if hit {
            panic!("injected panic in {what}");
        }
    }

    /// Whether the machine was made before this OS process was forked (see [`Shared::check_usable`]).
    pub fn forked_away(&self) -> bool {
        self.made_in.1 != crate::engine::exec::workers::fork_generation()
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
        drop(processes.live());
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
                    what: EngineCall::DeviceAttribute.name(),
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
    pub fn address_space(&self, addr: u64) -> crate::engine::core::pointers::AddressSpace {
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

    /// Test hook: the next call named `what` (the engine's name of the call, e.g. `"launch"`, `"create_stream"`;
    /// `"*"`: any call) panics inside the simulator, as a bug would. The machine is then broken: that call and
    /// every later one fail with [`SimError::Broken`] (CUDA 999 `cudaErrorUnknown`, ACL 507000
    /// `ACL_ERROR_RT_INTERNAL_ERROR`), naming the panic (`tests/suite/panics.rs`).
    #[doc(hidden)]
    pub fn inject_panic(&self, what: &str) {
        *self.shared.inject.lock() = Some(what.to_string());
        self.shared.inject_armed.store(true, Ordering::Relaxed);
    }

    /// Test hook: the host address where the simulator keeps the byte of device address `addr`, if it owns
    /// it (device memory's bytes live in the simulator's own heap memory).
    #[doc(hidden)]
    pub fn own_bytes_of(&self, addr: u64) -> Option<u64> {
        self.shared.memory.own_byte_address(addr)
    }

    /// Whether a call panicked inside the simulator on this machine (see [`Machine::inject_panic`]).
    pub fn is_broken(&self) -> bool {
        self.shared.broken.get().is_some()
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
        if self.shared.forked_away() {
            // In a forked child none of the streams' threads exist: nothing would ever run.
            return;
        }
        let procs = self.shared.processes.lock().live();
        let mut waits = Vec::new();
        for p in procs {
            p.dispatched_tails(&mut waits);
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
