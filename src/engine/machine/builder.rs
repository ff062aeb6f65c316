//! The [`MachineBuilder`]: devices, dialect, cost model, seed, trace, race detection, schedules and the
//! shared host, checked and turned into a [`Machine`] by [`MachineBuilder::build`].

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use parking_lot::Mutex;

use crate::engine::core::error::{ObjectKind, ObjectLimit, Result, SimError};
use crate::engine::core::handle::ProcessId;
use crate::engine::core::hang::Schedule;
use crate::engine::core::limits::MAX_DEVICES;
use crate::engine::core::races::{RaceDetection, RaceReport};
use crate::engine::core::rules::Dialect;
use crate::engine::core::time::{CostModel, EngineModel};
use crate::engine::machine::*;
use crate::engine::memory::Memory;
use crate::engine::observe::race::{RaceHook, RaceState};
use crate::engine::observe::trace::TraceNames;
use crate::engine::observe::trace_store::{Kept, TraceHook, TraceRecord, TraceStore, TraceWindow};

/// Builds a [`Machine`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct MachineBuilder {
    pub(crate) devices: Vec<DeviceConfig>,
    pub(crate) dialect: Dialect,
    pub(crate) cost: CostModel,
    pub(crate) seed: u64,
    pub(crate) trace: bool,
    pub(crate) trace_window: TraceWindow,
    pub(crate) trace_sink: Option<TraceHook>,
    pub(crate) links: Option<BTreeSet<(u32, u32)>>,
    pub(crate) race: RaceDetection,
    pub(crate) on_race: Option<RaceHook>,
    pub(crate) perturb: bool,
    pub(crate) schedule: Schedule,
    pub(crate) schedule_seed: Option<u64>,
    /// The watchdog's limit: `None` the schedule's default, `Some(None)` off.
    pub(crate) watchdog: Option<Option<Duration>>,
    pub(crate) print_hangs: bool,
    pub(crate) worker_stack: Option<usize>,
    /// The shared host to join at the first IPC call (`host/`), if any.
    pub(crate) shared_host: Option<String>,
    /// A device count above [`MAX_DEVICES`] asked for with `devices` or `device`: nothing was allocated for
    /// it, and `build` reports it.
    pub(crate) too_many_devices: Option<u64>,
}

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
    /// bounded memory; [`Trace::dropped`](crate::engine::observe::trace::Trace::dropped) says how many were left out). [`TraceWindow::All`] keeps everything,
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
    /// `streamsim::testing::check_determinism` (feature `proptest`) runs a program under several.
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
        crate::engine::devices::profile::assign_pci(&mut devices)?;
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
            Schedule::Serialize => Some(
                crate::engine::schedules::serialize::Serial::start(schedule_seed)
                    .map_err(no_thread)?,
            ),
            _ => None,
        };
        let limit = self.watchdog.unwrap_or(match self.schedule {
            Schedule::Serialize => Some(crate::engine::core::hang::SERIALIZE_WATCHDOG),
            _ => None,
        });
        let watchdog = match limit {
            Some(l) if l > Duration::ZERO => Some(
                crate::engine::schedules::watchdog::Watchdog::start(
                    l,
                    serial.clone(),
                    self.print_hangs,
                )
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
                processes: Mutex::new(Default::default()),
                host_events: Mutex::new(Kept::new(self.trace_window)),
                trace_names: Mutex::new(TraceNames::default()),
                failed_calls: Mutex::new(Kept::new(self.trace_window)),
                workers: Mutex::new(Vec::new()),
                made_in: (std::process::id(), {
                    crate::engine::exec::workers::watch_forks();
                    crate::engine::exec::workers::fork_generation()
                }),
                broken: std::sync::OnceLock::new(),
                inject: Mutex::new(None),
                inject_armed: std::sync::atomic::AtomicBool::new(false),
                live_workers: Arc::new(AtomicUsize::new(0)),
            }),
        })
    }
}
