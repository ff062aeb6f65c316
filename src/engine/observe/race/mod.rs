//! Happens-before race detection with deterministic verdicts.
//!
//! Every stream and every host thread is an actor with a vector clock (`clock.rs`). Enqueueing carries the host
//! thread's clock to the operation; a record releases the stream's clock into the record point; a stream
//! wait, a legacy default-stream edge and every synchronize or completed query acquire it. All of this is
//! computed on the host thread at enqueue, in program order, so the verdicts are the same on every run and do
//! not depend on how the workers were scheduled.
//!
//! Every access to device memory or pinned host memory — copies, memsets, kernels' declared reads and writes,
//! host reads and writes of pinned buffers through the API — is checked against the earlier accesses to the
//! same bytes that it is not ordered after (`shadow.rs`). An unordered conflicting pair (at least one write) is a
//! [`RaceReport`], naming both operations and both call sites, with a one-line fix.
//!
//! The same reports carry the lifetime checks of allocations ([`RaceKind`]): an access not ordered after a
//! stream-ordered allocation is a use before allocation; an access not ordered before the free of its
//! allocation (a stream-ordered free, or a free by the host while work that uses the block is queued), or made
//! after it, is a use after free.
//!
//! Lock order: the kernel log (`kernel_ranges.rs`), then an allocation's shadow, then the machine's reports, then
//! the actor table (`clock.rs`); the hook for new reports runs with none of them held, but reports worked off
//! the kernel log are handed to it under the (re-entrant) announcing lock, which keeps them in program order:
//! a hook that makes calls on the machine from another host thread than the one announcing can wait for it.

pub(crate) mod clock;
pub(crate) mod kernel_ranges;
pub(crate) mod shadow;

pub use crate::engine::core::races::{
    Accessor, KernelThread, MAX_REPORTS, RaceAccess, RaceDetection, RaceKind, RaceReport,
};

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::panic::Location;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use parking_lot::Mutex;

use crate::engine::core::error::SimError;
use crate::engine::core::races::LifePoint;
use crate::engine::core::races::Who;
use crate::engine::memory::block::Region;
use clock::{Actors, Epoch, VectorClock};

/// One side of a race as reports are deduplicated by it: who, whether it wrote, where it was enqueued.
type SideKey<'a> = (&'a Accessor, bool, &'static Location<'static>);

/// A machine's race reports, deduplicated by (kind, call sites, streams / threads, kinds of access), in order of
/// discovery; at most [`MAX_REPORTS`] of them.
#[derive(Debug, Default)]
pub(crate) struct Reports {
    list: Vec<RaceReport>,
    /// The reports by a hash of their key (several when hashes collide).
    index: HashMap<u64, Vec<usize>>,
    /// Racing accesses that matched no kept report once [`MAX_REPORTS`] were kept.
    dropped: u64,
}

fn key_hash(kind: RaceKind, first: SideKey<'_>, second: SideKey<'_>) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    (kind, first, second).hash(&mut h);
    h.finish()
}

fn same_side(a: &RaceAccess, (who, write, site): SideKey<'_>) -> bool {
    a.write == write && a.call_site == site && &a.who == who
}

/// What [`Reports::note`] did.
pub(crate) enum Noted {
    /// The pair was seen before: counted again (the report as stored, when asked for).
    Again(Option<RaceReport>),
    /// A new report, kept.
    New(RaceReport),
    /// A new pair, not kept: the list is full (the report, when asked for).
    Dropped(Option<RaceReport>),
}

impl Reports {
    /// Counts the race of `first` and `second`: once more if the pair is known, or as the new report `make`
    /// builds (only then). With `want`, the report is returned in every case (fail-fast detection).
    pub fn note(
        &mut self,
        kind: RaceKind,
        first: SideKey<'_>,
        second: SideKey<'_>,
        want: bool,
        make: impl FnOnce() -> RaceReport,
    ) -> Noted {
        let h = key_hash(kind, first, second);
        if let Some(ids) = self.index.get(&h) {
            for &i in ids {
                let r = &mut self.list[i];
                if r.kind == kind && same_side(&r.first, first) && same_side(&r.second, second) {
                    r.occurrences += 1;
                    return Noted::Again(want.then(|| r.clone()));
                }
            }
        }
        if self.list.len() >= MAX_REPORTS {
            self.dropped += 1;
            return Noted::Dropped(want.then(make));
        }
        let r = make();
        self.index.entry(h).or_default().push(self.list.len());
        self.list.push(r.clone());
        Noted::New(r)
    }

    pub fn list(&self) -> Vec<RaceReport> {
        self.list.clone()
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn get(&self, i: usize) -> Option<RaceReport> {
        self.list.get(i).cloned()
    }

    pub fn dropped(&self) -> u64 {
        self.dropped
    }
}

/// What [`crate::MachineBuilder::on_race`] calls with each new report.
#[derive(Clone)]
pub(crate) struct RaceHook(pub Arc<dyn Fn(&RaceReport) + Send + Sync>);

impl std::fmt::Debug for RaceHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RaceHook(..)")
    }
}

/// The machine-wide race state: mode, reports, actor numbering, the hook for new reports.
#[derive(Debug)]
pub(crate) struct RaceState {
    pub mode: RaceDetection,
    pub reports: Mutex<Reports>,
    /// The actor numbers of streams and host threads (reused once free: see `clock.rs`).
    pub actors: Arc<Actors>,
    hook: Option<RaceHook>,
    /// The program order of checked accesses and tracked launches: the next place in it.
    pub(crate) order: AtomicU64,
    /// The place of the earliest tracked launch whose kernel's accesses are not checked yet (`u64::MAX`:
    /// none). Read without the log's lock: it is set before the launch's step returns, and moved on only
    /// after the launch was checked.
    pub(crate) frontier: AtomicU64,
    /// Whether a tracked launch was ever made on the machine (until then, accesses skip the log).
    pub(crate) tracked: AtomicBool,
    /// The accesses and launches waiting, in program order, for an earlier kernel to have run
    /// (`kernel_ranges.rs`).
    pub(crate) log: Mutex<kernel_ranges::Log>,
    /// Held while reports worked off the log are counted, so that they keep its order.
    pub(crate) announcing: parking_lot::ReentrantMutex<()>,
}

impl RaceState {
    pub fn new(mode: RaceDetection, hook: Option<RaceHook>) -> RaceState {
        RaceState {
            mode,
            reports: Mutex::new(Reports::default()),
            actors: Arc::new(Actors::default()),
            hook,
            order: AtomicU64::new(0),
            frontier: AtomicU64::new(u64::MAX),
            tracked: AtomicBool::new(false),
            log: Mutex::new(kernel_ranges::Log::default()),
            announcing: parking_lot::ReentrantMutex::new(()),
        }
    }

    /// The place in the program order of an access made now: its own, and the earliest unchecked launch's.
    fn place(&self) -> shadow::Order {
        let made = self.order.fetch_add(1, Ordering::Relaxed);
        shadow::Order {
            made,
            frontier: self.frontier.load(Ordering::Acquire),
        }
    }

    pub fn on(&self) -> bool {
        self.mode != RaceDetection::Off
    }

    /// A new actor (a stream or a host thread): its number, and the clock its steps start from.
    pub fn actor(&self) -> (clock::Actor, VectorClock) {
        let (a, base) = self.actors.acquire();
        (a, VectorClock::starting_at(a, base))
    }

    /// Hands a new report to the hook (the reports' lock released).
    pub(crate) fn announce(&self, r: &RaceReport) {
        if let Some(hook) = &self.hook {
            (hook.0)(r);
        }
    }

    /// Counts a report built already (see [`Reports::note`]); a new one is handed to the hook. Returns it as
    /// stored (or as built, when the list is full).
    pub(crate) fn add(&self, r: RaceReport) -> RaceReport {
        let noted = self.reports.lock().note(
            r.kind,
            (&r.first.who, r.first.write, r.first.call_site),
            (&r.second.who, r.second.write, r.second.call_site),
            true,
            || r.clone(),
        );
        match noted {
            Noted::New(stored) => {
                self.announce(&stored);
                stored
            }
            Noted::Again(stored) | Noted::Dropped(stored) => stored.unwrap_or(r),
        }
    }
}

/// The position in its stream of the step `epoch` of an operation's accessor (`None` for a host thread). A
/// stream's clock ticks its own actor once per dispatched operation, and operations are dispatched in their
/// stream's order, so the epoch's count less its number's base is the operation's position (its `seq`, from 1).
/// Asked while a record names the step (the number is not handed out again meanwhile).
pub(crate) fn seq_of(race: &RaceState, who: &Accessor, epoch: Epoch) -> Option<u64> {
    match who {
        Accessor::Op { .. } => Some(epoch.count - race.actors.base(epoch.actor)),
        Accessor::Host { .. } => None,
    }
}

fn report(
    race: &RaceState,
    region: &Region,
    found: &shadow::Found,
    (write, epoch): (bool, Epoch),
    who: &Who,
) -> RaceReport {
    RaceReport {
        first: RaceAccess {
            who: found.who.0.clone(),
            write: found.write,
            call_site: found.who.1,
            seq: seq_of(race, &found.who.0, found.epoch),
            os_process: None,
            thread: None,
        },
        second: RaceAccess {
            who: who.0.clone(),
            write,
            call_site: who.1,
            seq: seq_of(race, &who.0, epoch),
            os_process: None,
            thread: None,
        },
        // Shadow offsets are the allocation's (an IPC mapping may start inside it).
        addr: (region.block.base + found.start).wrapping_sub(region.block.store_off),
        allocation: region.block.ordinal,
        offset: found.start,
        bytes: found.end - found.start,
        space: region.block.space,
        occurrences: 1,
        kind: found.kind,
    }
}

/// Records a lifetime point of `block` made at step `epoch` by `who`, whose clock is `clock`; a free reports the
/// uses it completes (see `shadow.rs`). With fail-fast detection and `may_fail`, the first is returned as an
/// error and nothing is recorded.
pub(crate) fn lifetime(
    race: &RaceState,
    block: &Arc<crate::engine::memory::block::Block>,
    point: LifePoint,
    (epoch, clock): (Epoch, &VectorClock),
    who: &Who,
    may_fail: bool,
) -> Result<(), SimError> {
    let region = Region {
        block: block.clone(),
        offset: 0,
        len: block.len,
    };
    let dry = may_fail && race.mode == RaceDetection::FailFast;
    let actors = &race.actors;
    let at = race.place();
    // The reports are built under the shadow's lock, while the records they name keep their actors' numbers.
    let found: Vec<RaceReport> = {
        let mut shadow = block.store.shadow.lock();
        match point {
            LifePoint::Alloc => {
                shadow.allocated((epoch, at.made), who, actors);
                return Ok(());
            }
            LifePoint::Free => shadow
                .free(block.len, (epoch, at), clock, who, dry, actors)
                .iter()
                .map(|f| report(race, &region, f, (true, epoch), who))
                .collect(),
        }
    };
    let found = if dry {
        if let Some(f) = found.into_iter().next() {
            let rep = race.add(f);
            return Err(SimError::Race(Box::new(rep)));
        }
        block
            .store
            .shadow
            .lock()
            .free(block.len, (epoch, at), clock, who, false, actors);
        Vec::new()
    } else {
        found
    };
    // Against what CPU-run kernels did (their reports and these in program order).
    if race.tracked.load(Ordering::Acquire) {
        kernel_ranges::accessed(race, &[(region, true)], epoch, clock, who, (true, found));
        return Ok(());
    }
    for f in found {
        race.add(f);
    }
    Ok(())
}

/// Counts the race `found` (an earlier access) completes with the access `(write, epoch)` of `who` to `region`
/// (see [`Reports::note`]). Called under the region's shadow lock.
fn note(
    race: &RaceState,
    region: &Region,
    found: &shadow::Found,
    (write, epoch): (bool, Epoch),
    who: &Who,
    want: bool,
) -> Noted {
    race.reports.lock().note(
        found.kind,
        (&found.who.0, found.write, found.who.1),
        (&who.0, write, who.1),
        want,
        || report(race, region, found, (write, epoch), who),
    )
}

/// Checks (and records) the accesses of one step `epoch` whose clock is `clock`. With fail-fast detection and
/// `may_fail`, the first race is returned as an error and nothing is recorded; otherwise races are collected.
pub(crate) fn check(
    race: &RaceState,
    accesses: &[(Region, bool)],
    epoch: Epoch,
    clock: &VectorClock,
    who: &Who,
    may_fail: bool,
) -> Result<(), SimError> {
    let actors = &race.actors;
    if may_fail && race.mode == RaceDetection::FailFast {
        for (r, write) in accesses {
            // Noted under the shadow's lock, while the record a new report names keeps its actor's number.
            let noted = {
                let off = r.offset + r.block.store_off;
                let mut shadow = r.block.store.shadow.lock();
                let found = shadow.access_at(
                    (off, off + r.len),
                    *write,
                    (epoch, shadow::Order::NOW),
                    clock,
                    who,
                    true,
                    actors,
                );
                found
                    .first()
                    .map(|f| note(race, r, f, (*write, epoch), who, true))
            };
            let rep = match noted {
                None => continue,
                Some(Noted::New(rep)) => {
                    race.announce(&rep);
                    rep
                }
                Some(Noted::Again(rep) | Noted::Dropped(rep)) => {
                    rep.expect("fail-fast asks for the report")
                }
            };
            return Err(SimError::Race(Box::new(rep)));
        }
    }
    let at = race.place();
    // A launch before this access whose kernel has not run yet: the reports wait for its verdicts, so that
    // they come in program order (`kernel_ranges.rs`).
    let tracked = race.tracked.load(Ordering::Acquire);
    let defer = tracked && at.keeps();
    let mut held: Vec<RaceReport> = Vec::new();
    // Consecutive accesses to one allocation (a kernel reading and writing a buffer) share one lock of its
    // shadow; new reports are handed to the hook after it is released.
    let mut rest = accesses;
    while let Some((first, _)) = rest.first() {
        let same = rest
            .iter()
            .take_while(|(r, _)| Arc::ptr_eq(&r.block.store, &first.block.store))
            .count();
        let (group, tail) = rest.split_at(same);
        let new: Vec<RaceReport> = {
            let mut shadow = first.block.store.shadow.lock();
            let mut new = Vec::new();
            for (r, write) in group {
                let off = r.offset + r.block.store_off;
                let f = shadow.access_at(
                    (off, off + r.len),
                    *write,
                    (epoch, at),
                    clock,
                    who,
                    false,
                    actors,
                );
                // Noted under the lock: see the fail-fast case.
                for f in &f {
                    if defer {
                        held.push(report(race, r, f, (*write, epoch), who));
                    } else if let Noted::New(rep) = note(race, r, f, (*write, epoch), who, false) {
                        new.push(rep);
                    }
                }
            }
            new
        };
        for rep in &new {
            race.announce(rep);
        }
        // Exported memory of a shared host: the accesses of the other OS processes too.
        if let Some(sh) = first.block.store.shared.get() {
            for (r, write) in group {
                let off = r.offset + r.block.store_off;
                for f in sh.access((off, off + r.len), *write, epoch, clock, &who.0) {
                    race.add(remote_report(
                        race,
                        r,
                        &f,
                        (*write, epoch),
                        who,
                        sh.link.pid,
                    ));
                }
            }
        }
        rest = tail;
    }
    // Against what CPU-run kernels did: now, or once the kernels launched before it have run.
    if tracked {
        kernel_ranges::accessed(race, accesses, epoch, clock, who, (false, held));
    }
    Ok(())
}

/// A race between an access `f` of another OS process of the shared host and this one, on `region`.
fn remote_report(
    race: &RaceState,
    region: &Region,
    f: &crate::engine::host::shared_mem::RemoteAccess,
    (write, epoch): (bool, Epoch),
    who: &Who,
    pid: u32,
) -> RaceReport {
    RaceReport {
        first: RaceAccess {
            who: f.who.clone(),
            write: f.write,
            // Not known in this OS process: the report does not print it (`os_process` is another's).
            call_site: Location::caller(),
            seq: match f.who {
                Accessor::Op { .. } => Some(f.count),
                Accessor::Host { .. } => None,
            },
            os_process: Some(f.pid),
            thread: None,
        },
        second: RaceAccess {
            who: who.0.clone(),
            write,
            call_site: who.1,
            seq: seq_of(race, &who.0, epoch),
            os_process: Some(pid),
            thread: None,
        },
        addr: (region.block.base + f.start).wrapping_sub(region.block.store_off),
        allocation: region.block.ordinal,
        offset: f.start,
        bytes: f.end - f.start,
        space: region.block.space,
        occurrences: 1,
        kind: RaceKind::Data,
    }
}
