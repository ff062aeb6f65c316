//! A process's shared state: [`ProcShared`] (the state lock, the per-device sticky-error watches, `aclInit`
//! state) and, behind the lock, [`ProcState`]: the stream / event / context registries, the per-device state
//! ([`DeviceCtx`]: default streams, retired and orphaned tails), peer access, the host threads'
//! race-detection clocks. Its methods create and resolve streams, check ownership, pump held operations and
//! collect a device's tails; enqueueing is in `enqueue.rs`.
//!
//! Lock order: a process's `state` lock is taken first and released before blocking (waiting on a worker);
//! under it, only leaf locks (a device's fault list, an event's record state, the machine's worker / sink lists,
//! memory, a device's engines) are taken.
//! Channel sends under it never block (the queues are unbounded).

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;
use std::sync::atomic::AtomicU32;

use parking_lot::Mutex;

use super::{Call, HostClock, StreamEntry, StreamFlags};
use crate::engine::core::error::{ObjectKind, Result, SimError};
use crate::engine::core::handle::{
    EventId, ProcessId, StreamId, StreamKind, TAG_CONTEXT, TAG_EVENT, TAG_NOTIFY, TAG_POOL,
    TAG_STREAM, next_ordinal,
};
use crate::engine::core::registry::Registry;
use crate::engine::core::rules::{DefaultStream, Ownership};
use crate::engine::core::time::VirtualTime;
use crate::engine::exec::faults::DeviceWatch;
use crate::engine::exec::point::Point;
use crate::engine::machine::Shared;
use crate::engine::observe::race::clock::VectorClock;

pub(crate) struct EventEntry {
    pub id: EventId,
    /// The name given with `Process::name_event`.
    pub name: Option<Arc<str>>,
    pub device: u32,
    pub ctx: Option<u64>,
    pub config: crate::engine::events::config::EventConfig,
    /// The latest record; shared with the other processes that opened the event through IPC.
    pub state: Arc<Mutex<crate::engine::events::state::EventState>>,
    /// The latest record, when a capturing stream made it: the graph nodes it stands for (see `graph/`).
    pub captured: Option<crate::engine::graph::capture::CaptureRecord>,
}

pub(crate) struct ContextEntry {
    pub ordinal: u32,
    pub device: u32,
    pub default_stream: Option<u64>,
    pub is_default: bool,
    /// Whether a stream of the context was set to the failure mode `Stop` (it then applies to all of them).
    pub stop_on_failure: bool,
    /// (mode `Stop`) the fault a call has reported: the context refuses new tasks with it.
    pub failure: Option<SimError>,
}

/// A process's state on one device (CUDA: its primary context).
pub(crate) struct DeviceCtx {
    pub legacy: Option<u64>,
    pub per_thread: BTreeMap<u32, u64>,
    pub last_legacy: Option<Point>,
    /// Tails of destroyed blocking streams the legacy stream has not waited for yet (those not summed up in
    /// `retired_done`).
    pub retired: Vec<Point>,
    /// The finished tails of destroyed blocking streams the legacy stream has not waited for yet (see
    /// `live.rs`).
    pub retired_done: super::live::Summary,
    /// The live blocking streams (other than the legacy one) with work the legacy stream has not seen.
    pub unseen: BTreeSet<u64>,
    /// Tails of destroyed streams whose work may still be pending (device synchronize waits for them).
    pub orphans: Vec<Point>,
    /// The streams with work that no device synchronize has settled (see `live.rs`).
    pub active: BTreeSet<u64>,
    /// The work of the device that device synchronizes settled, and finished work of destroyed streams.
    pub settled: super::live::Summary,
    /// (ACL) the device's default context in this process, and its SetDevice reference count.
    pub default_ctx: Option<u64>,
    pub refcount: u32,
    /// The device's flags and limits as this process set them, and whether profiling is on (see
    /// `device_state.rs`); a reset of the device forgets them.
    pub settings: crate::engine::devices::settings::DeviceSettings,
    /// The device's default memory pool in this process (made at first use) and its current pool (`None`: the
    /// default one); see `pool.rs`.
    pub default_pool: Option<u64>,
    pub current_pool: Option<u64>,
}

impl DeviceCtx {
    pub fn new() -> DeviceCtx {
        DeviceCtx {
            legacy: None,
            per_thread: BTreeMap::new(),
            last_legacy: None,
            retired: Vec::new(),
            retired_done: Default::default(),
            unseen: BTreeSet::new(),
            orphans: Vec::new(),
            active: BTreeSet::new(),
            settled: Default::default(),
            default_ctx: None,
            refcount: 0,
            settings: Default::default(),
            default_pool: None,
            current_pool: None,
        }
    }
}

pub(crate) struct ProcState {
    pub streams: Registry<StreamEntry>,
    pub events: Registry<EventEntry>,
    pub contexts: Registry<ContextEntry>,
    pub notifies: Registry<crate::engine::notifies::state::NotifyEntry>,
    pub devices: Vec<DeviceCtx>,
    /// Enabled peer access: (accessing device, peer device).
    pub peers: BTreeSet<(u32, u32)>,
    /// Destroyed streams that still hold operations back (their work must not be lost).
    pub zombies: Vec<StreamEntry>,
    /// The live streams holding operations back (what the pump visits; see `live.rs`).
    pub holding: BTreeSet<u64>,
    /// Race detection: the host threads' clocks, by thread ordinal.
    pub hosts: Vec<HostClock>,
    next_stream: u32,
    pub next_event: u32,
    pub next_context: u32,
    pub next_notify: u32,
    /// The words value writes and waits use (see `value.rs`).
    pub words: crate::engine::value_waits::state::Words,
    /// Threads subscribed to stream callbacks (see `report.rs`).
    pub reports: crate::engine::callbacks::reports::Reports,
    /// An empty buffer for a launch's declared accesses, kept between launches (see `Process::launch`).
    pub scratch_accesses: Vec<(crate::engine::memory::block::Region, bool)>,
    /// The process's wait board (also in [`ProcShared`]), notified when held operations are released.
    pub board: Arc<super::WaitBoard>,
    /// Graphs, executable graphs (with their lanes) and capture sequences (see `graph/`).
    pub graphs: crate::engine::graph::node::GraphState,
    /// Whether streams and host threads keep vector clocks: with race detection, or from the process's first
    /// memory-pool call on (a pool's reuse follows the happens-before order, `pool.rs`).
    pub clocks: bool,
    /// The memory pools (`pool.rs`), and destroyed ones whose allocations are not all freed yet.
    pub pools: Registry<crate::engine::pools::state::PoolEntry>,
    pub retired_pools: Vec<crate::engine::pools::state::PoolEntry>,
    /// Per device: its copy engines and kernel slots as this process's work occupies them (`None`: the engine
    /// model is off). Every stream of the device shares them; a device reset keeps them (see `engines.rs`).
    pub engines: Vec<Option<Arc<Mutex<crate::engine::exec::copy_engines::DeviceEngines>>>>,
}

pub(crate) struct ProcShared {
    pub id: ProcessId,
    pub machine: u64,
    pub state: Mutex<ProcState>,
    /// Per device: fallible operations, faults and the sticky error (read by every call without the state
    /// lock).
    pub watch: Vec<Arc<DeviceWatch>>,
    /// `aclInit` state: never, initialised, finalised.
    pub(super) init: Mutex<Option<bool>>,
    pub(super) next_thread: AtomicU32,
    /// Which host threads are live, and what the blocked ones wait for (see `board.rs`).
    pub board: Arc<super::WaitBoard>,
    /// The timeout of the event waits enqueued from now on, in nanoseconds (0: none; ACL
    /// `aclrtSetOpWaitTimeout`).
    pub op_wait_timeout: std::sync::atomic::AtomicU64,
}

impl ProcShared {
    pub fn new(m: &Shared, id: ProcessId) -> ProcShared {
        let tag = crate::engine::core::handle::machine_tag(m.id);
        let watch = DeviceWatch::for_process(m.device_count());
        let board = Arc::new(super::WaitBoard::default());
        ProcShared {
            id,
            machine: m.id,
            state: Mutex::new(ProcState {
                streams: Registry::new(ObjectKind::Stream, TAG_STREAM, tag, id.0 as u64),
                events: Registry::new(ObjectKind::Event, TAG_EVENT, tag, id.0 as u64),
                contexts: Registry::new(ObjectKind::Context, TAG_CONTEXT, tag, id.0 as u64),
                notifies: Registry::new(ObjectKind::Notify, TAG_NOTIFY, tag, id.0 as u64),
                devices: (0..m.device_count()).map(|_| DeviceCtx::new()).collect(),
                peers: BTreeSet::new(),
                zombies: Vec::new(),
                holding: BTreeSet::new(),
                hosts: Vec::new(),
                next_stream: 1,
                next_event: 1,
                next_context: 1,
                next_notify: 1,
                words: Default::default(),
                reports: Default::default(),
                scratch_accesses: Vec::new(),
                board: board.clone(),
                graphs: crate::engine::graph::node::GraphState::new(tag, id.0 as u64),
                clocks: m.race.on(),
                pools: Registry::new(ObjectKind::MemPool, TAG_POOL, tag, id.0 as u64),
                retired_pools: Vec::new(),
                engines: m.devices.iter().map(|d| m.engines_of(d)).collect(),
            }),
            watch,
            next_thread: AtomicU32::new(0),
            init: Mutex::new(None),
            board,
            op_wait_timeout: std::sync::atomic::AtomicU64::new(0),
        }
    }
}

impl ProcState {
    pub fn new_stream(
        &mut self,
        m: &Shared,
        process: ProcessId,
        (device, ctx): (u32, Option<u64>),
        kind: Option<StreamKind>,
        flags: StreamFlags,
        priority: i32,
    ) -> Result<u64> {
        // Checked before the worker starts: a stream that cannot get a handle starts nothing.
        self.streams.has_room()?;
        let special = kind.is_some();
        let next_stream = self.next_stream;
        let kind = match kind {
            Some(k) => k,
            None => StreamKind::Created(next_ordinal(
                &mut self.next_stream,
                ObjectKind::Stream,
                process,
            )?),
        };
        let id = StreamId {
            process,
            device,
            kind,
        };
        let entry = self
            .stream_entry(m, id, ctx, flags, priority, special)
            .inspect_err(|_| {
                // A stream that could not start does not use up an ordinal.
                self.next_stream = next_stream;
            })?;
        self.streams.insert(entry)
    }

    /// A stream of an executable graph (a lane, see `graph/replay.rs`): a non-blocking stream outside the
    /// registry, with its own worker.
    pub fn new_lane(&mut self, m: &Shared, id: StreamId, ctx: Option<u64>) -> Result<StreamEntry> {
        self.stream_entry(m, id, ctx, StreamFlags::NON_BLOCKING, 0, true)
    }

    /// A stream's entry with a started worker.
    fn stream_entry(
        &mut self,
        m: &Shared,
        id: StreamId,
        ctx: Option<u64>,
        flags: StreamFlags,
        priority: i32,
        special: bool,
    ) -> Result<StreamEntry> {
        let (tx, exec) = m.spawn_worker(id, ctx)?;
        // A new stream of a context in the failure mode `Stop` is in it from its first operation, and refuses
        // tasks if the context already does.
        let (stop, stopped) = match ctx.and_then(|h| self.contexts.get(h).ok()) {
            Some(x) => (x.stop_on_failure, x.failure.clone()),
            None => (false, None),
        };
        if stop {
            exec.stop_from(1);
        }
        let (actor, vc) = if self.clocks {
            m.race.actor()
        } else {
            (0, VectorClock::default())
        };
        Ok(StreamEntry {
            id,
            name: None,
            device: id.device,
            ctx,
            flags,
            priority,
            special,
            tx,
            exec,
            cursor: VirtualTime::ZERO,
            seq: 0,
            synced_legacy: 0,
            legacy_seen: 0,
            held: VecDeque::new(),
            actor,
            vc,
            track: self.clocks,
            actors: self.clocks.then(|| m.race.actors.clone()),
            host_seen: (u32::MAX, 0),
            last_who: None,
            failure_mode: m.rules.failure_mode,
            stopped,
            callbacks: crate::engine::callbacks::reports::CallbackRoute::None,
            cb_gates: Vec::new(),
            listed_active: false,
            listed_unseen: false,
            engines: self.engines.get(id.device as usize).cloned().flatten(),
        })
    }

    /// The lanes of a destroyed executable graph: their pending work still runs (device synchronize waits for
    /// it), and work held behind a deferred wait is kept until it can run.
    pub fn retire_lanes(&mut self, lanes: Vec<StreamEntry>) {
        for s in lanes {
            if s.seq > 0 {
                let d = &mut self.devices[s.device as usize];
                d.orphans.push(s.tail());
                // As a destroyed stream's: what has run is summed up, so that create / launch / destroy loops
                // do not pile tails up until a device synchronize.
                d.settled.fold_finished(&mut d.orphans);
            }
            if !s.held.is_empty() {
                self.zombies.push(s);
            }
        }
    }

    /// The ordinal of context `ctx` (0: none).
    pub fn context_ordinal(&self, ctx: Option<u64>) -> u32 {
        ctx.and_then(|h| self.contexts.get(h).ok())
            .map_or(0, |c| c.ordinal)
    }

    /// The calling thread's current device and context: CUDA always has a device; ACL needs a live context.
    #[inline(always)]
    pub fn current(&self, m: &Shared, c: &Call, what: &'static str) -> Result<(u32, Option<u64>)> {
        // A machine without devices has no current device, even where a thread starts on device 0.
        if m.devices.is_empty() {
            return Err(SimError::NoDevice { what });
        }
        if !m.rules.explicit_contexts {
            return match c.device {
                Some(d) => Ok((d, None)),
                None => Err(SimError::NoContext { what }),
            };
        }
        match c.ctx.and_then(|h| self.contexts.get(h).ok()) {
            Some(ctx) => Ok((ctx.device, c.ctx)),
            None => Err(SimError::NoContext { what }),
        }
    }

    /// Resolves the special handles (NULL; CUDA's legacy and per-thread) to a registry handle.
    #[inline]
    pub fn resolve_stream(&mut self, m: &Shared, c: &Call, raw: u64) -> Result<u64> {
        // Only 0, 1 and 2 can be special handles; the rest are validated where they are used.
        if raw > 2 {
            return Ok(raw);
        }
        self.resolve_special(m, c, raw)
    }

    fn resolve_special(&mut self, m: &Shared, c: &Call, raw: u64) -> Result<u64> {
        let what = "stream";
        let special = m.rules.special_stream_handles;
        match raw {
            0 if m.rules.default_stream == DefaultStream::PerContext => {
                let (dev, ctx) = self.current(m, c, what)?;
                let ch = ctx.expect("contexts exist where the default stream is per context");
                let entry = self.contexts.get(ch)?;
                if let Some(h) = entry.default_stream {
                    return Ok(h);
                }
                let kind = StreamKind::ContextDefault(entry.ordinal);
                let h = self.new_stream(
                    m,
                    c.process,
                    (dev, ctx),
                    Some(kind),
                    StreamFlags::DEFAULT,
                    0,
                )?;
                self.contexts.get_mut(ch)?.default_stream = Some(h);
                Ok(h)
            }
            0 | 1 if raw == 0 || special => {
                let (dev, _) = self.current(m, c, what)?;
                if let Some(h) = self.devices[dev as usize].legacy {
                    return Ok(h);
                }
                let h = self.new_stream(
                    m,
                    c.process,
                    (dev, None),
                    Some(StreamKind::Legacy),
                    StreamFlags::DEFAULT,
                    0,
                )?;
                self.devices[dev as usize].legacy = Some(h);
                Ok(h)
            }
            2 if special => {
                let (dev, _) = self.current(m, c, what)?;
                if let Some(&h) = self.devices[dev as usize].per_thread.get(&c.thread) {
                    return Ok(h);
                }
                let h = self.new_stream(
                    m,
                    c.process,
                    (dev, None),
                    Some(StreamKind::PerThread(c.thread)),
                    StreamFlags::DEFAULT,
                    0,
                )?;
                self.devices[dev as usize].per_thread.insert(c.thread, h);
                Ok(h)
            }
            // Validated where it is used.
            r => Ok(r),
        }
    }

    /// When `required` (a row of the dialect's [`crate::rules::OwnedCalls`]), checks that stream `h` belongs
    /// to the caller's current device (CUDA) or context (ACL).
    pub fn check_owner(
        &self,
        m: &Shared,
        c: &Call,
        what: &'static str,
        required: bool,
        h: u64,
    ) -> Result<()> {
        if !required {
            return Ok(());
        }
        let s = self.streams.get(h)?;
        let (device, ctx) = self.current(m, c, what)?;
        match m.rules.ownership {
            Ownership::Device if s.device != device => Err(SimError::WrongDevice {
                what,
                object: s.id.to_string(),
                object_device: s.device,
                expected: format!("the current device is {device}"),
            }),
            Ownership::Context if s.ctx != ctx => {
                let ordinal = |h: Option<u64>| {
                    h.and_then(|h| self.contexts.get(h).ok())
                        .map_or(0, |c| c.ordinal)
                };
                Err(SimError::WrongContext {
                    what,
                    object: format!("{} (device {})", s.id, s.device),
                    object_context: ordinal(s.ctx),
                    current: ordinal(ctx),
                })
            }
            _ => Ok(()),
        }
    }

    /// Registers an event of `process` on `(device, context)` sharing record state `state`.
    pub fn add_event(
        &mut self,
        process: ProcessId,
        (device, ctx): (u32, Option<u64>),
        config: crate::engine::events::config::EventConfig,
        state: Arc<Mutex<crate::engine::events::state::EventState>>,
    ) -> Result<crate::Event> {
        self.events.has_room()?;
        let ordinal = next_ordinal(&mut self.next_event, ObjectKind::Event, process)?;
        Ok(crate::Event(self.events.insert(EventEntry {
            id: EventId { process, ordinal },
            name: None,
            device,
            ctx,
            config,
            state,
            captured: None,
        })?))
    }

    /// Makes sure host thread `thread` has a race-detection clock (detection on).
    #[inline]
    pub fn ensure_host(&mut self, m: &Shared, thread: u32) {
        if self.clocks && self.hosts.len() <= thread as usize {
            self.add_hosts(m, thread);
        }
    }

    #[cold]
    fn add_hosts(&mut self, m: &Shared, thread: u32) {
        {
            while self.hosts.len() <= thread as usize {
                let (actor, mut vc) = m.race.actor();
                vc.tick(actor);
                let thread = self.hosts.len() as u32;
                self.hosts.push(crate::engine::streams::entry::HostClock {
                    actor,
                    vc,
                    version: 0,
                    thread,
                });
            }
        }
    }

    /// Host thread `thread` acquires the clocks of `points` (a synchronize or a completed query).
    pub fn acquire(&mut self, m: &Shared, thread: u32, points: &[Point]) {
        if self.clocks {
            self.ensure_host(m, thread);
            let h = &mut self.hosts[thread as usize];
            for p in points {
                if let Some(v) = p.vc() {
                    h.vc.join(v);
                    h.version += 1;
                }
            }
        }
    }

    /// Turns vector clocks on for every stream and host thread from now on (see [`ProcState::clocks`]).
    pub fn enable_clocks(&mut self, m: &Shared) {
        if self.clocks {
            return;
        }
        self.clocks = true;
        for s in self
            .streams
            .iter_mut()
            .map(|(_, s)| s)
            .chain(self.zombies.iter_mut())
        {
            let (actor, vc) = m.race.actor();
            s.actor = actor;
            s.vc = vc;
            s.track = true;
            s.actors = Some(m.race.actors.clone());
        }
    }

    /// Host thread `thread` acquires `vc` (an IPC memory import: the export happened before it).
    pub fn acquire_clock(&mut self, m: &Shared, thread: u32, vc: &VectorClock) {
        if m.race.on() {
            self.ensure_host(m, thread);
            let h = &mut self.hosts[thread as usize];
            h.vc.join(vc);
            h.version += 1;
        }
    }

    /// Host thread `thread`'s clock now (detection on).
    pub fn host_clock(&mut self, m: &Shared, thread: u32) -> Option<VectorClock> {
        m.race.on().then(|| {
            self.ensure_host(m, thread);
            self.hosts[thread as usize].vc.clone()
        })
    }

    /// (failure mode `Stop`) Context `ctx` has reported `err`: it and its streams refuse new tasks from now on.
    pub fn stop_context(&mut self, ctx: u64, err: &SimError) {
        let Ok(x) = self.contexts.get_mut(ctx) else {
            return;
        };
        if x.failure.is_some() {
            return;
        }
        x.failure = Some(err.clone());
        for (_, s) in self.streams.iter_mut() {
            if s.ctx == Some(ctx) && s.stopped.is_none() {
                s.stopped = Some(err.clone());
            }
        }
    }
}

/// One step of host thread `c.thread` of `st` that race detection checks (a host access or a free), made by
/// `call` at `site`: `check` sees the step's epoch, the thread's clock with it, and who it is; the thread's
/// clock keeps the step only if `check` lets the call go on.
pub(crate) fn host_step(
    st: &mut ProcState,
    m: &crate::engine::machine::Shared,
    c: &crate::engine::process::thread::Call,
    (call, site): (&'static str, &'static std::panic::Location<'static>),
    check: impl FnOnce(
        crate::engine::observe::race::clock::Epoch,
        &VectorClock,
        &crate::engine::core::races::Who,
    ) -> crate::engine::core::error::Result<()>,
) -> crate::engine::core::error::Result<()> {
    st.ensure_host(m, c.thread);
    let h = &mut st.hosts[c.thread as usize];
    let mut next = crate::engine::streams::entry::HostClock {
        actor: h.actor,
        vc: h.vc.clone(),
        version: h.version,
        thread: h.thread,
    };
    let epoch = next.tick();
    let who: crate::engine::core::races::Who = std::sync::Arc::new((
        crate::engine::core::races::Accessor::Host {
            process: c.process,
            thread: c.thread,
            call,
        },
        site,
    ));
    check(epoch, &next.vc, &who)?;
    *h = next;
    Ok(())
}
