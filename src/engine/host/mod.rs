//! A simulated host shared by real OS processes: IPC events and IPC memory between processes started by
//! `fork`/`exec` or by hand, as on a real machine where every process talks to the same driver.
//!
//! # How it works
//!
//! One POSIX shared-memory object per user, host name and dialect — `/dev/shm/streamsim.<uid>.<NAME>.<cuda|acl>`,
//! `NAME` from `STREAMSIM_MACHINE` (default `default`) for the C library's default machines, from
//! [`crate::MachineBuilder::shared_host`] for a Rust machine, escaped one-to-one (`names.rs`: every byte but
//! letters, digits and `-` as `_` and two hex digits; a long name as a prefix and a hash of the whole), and
//! moved to `<object>.alt1`… when another user has squatted the object — holds what the OS processes share: the device
//! configuration, a table of members (one per machine attached, with its OS pid), exported events with their
//! latest record, the progress of the streams that recorded them, and exported device memory with one shadow
//! of its accesses for race detection (`layout.rs` has every field). No process is started and nothing is
//! configured: the first IPC call of a machine (`cudaIpcGetEventHandle`, `cudaIpcOpenMemHandle`, …) creates or
//! joins the object; a program that makes no IPC call never touches it.
//!
//! - **Joining** happens under a record lock (`F_OFD_SETLKW`) on byte 0 of the object. A member holds a record
//!   lock on its own byte for as long as it lives; the kernel drops it when the process exits or is killed, so
//!   "is member *i* alive" is one `F_OFD_GETLK`, and a pid that was reused cannot pass for a live member. A
//!   joiner that finds no live member (the object is new, from an earlier run whose last process was killed,
//!   malformed, or of another layout version) re-makes it with a new random *epoch*: handles of the earlier run
//!   are refused from then on. A joiner that finds live members (their record locks, which nothing written in
//!   the object can fake or hide) in an object whose header does not validate — too short, another magic or
//!   layout version (another streamsim build on the same name), a corrupted size field or ready flag — refuses
//!   it with [`SimError::HostUnavailable`] naming the field and the value found, and leaves it alone: re-making
//!   it would pull the host from under its members (their waits would end as if their exporters had left).
//!   Otherwise the device configurations must agree, or the first shared call fails naming both. Dead members
//!   found at a join are swept: their exports freed, their locks released.
//! - **Leaving** (the machine is dropped, or the process exits: an `atexit` handler) frees the member's exports
//!   and unlinks the object and every memory object of the host when no other member is left, so nothing is
//!   left in `/dev/shm` after the last process; a process killed last leaves them for the next joiner, which
//!   re-makes the object and removes the stale memory objects (they are named after the host).
//! - **Events** (`events.rs`): an exported event gets a slot. Every record of it in any member writes the
//!   slot's latest record — the recording stream's progress slot and position, its virtual end time and its
//!   race-detection clock (as (member, actor, count) entries). The recording stream's worker publishes how far
//!   it has run into its progress slot (one atomic store per batch, and a futex wake only when someone
//!   sleeps). A wait or a query in another member takes the record's virtual time and clock and, to finish,
//!   sleeps on that futex until the stream has passed the record — or until the recording member is dead (it
//!   is checked before each sleep of at most 20 ms of real time, and a member found dead is remembered by the
//!   link, so later waits on it cost no sleep): a record a dead process can no longer run counts as
//!   done, and the first such wait in a process says so once on standard error ("sim": the vendors document
//!   nothing for it).
//! - **Memory** (`shared_mem.rs`): exporting an allocation moves its bytes, under its byte lock, into a
//!   shared-memory object of its own (`<object>.m<id>`), mapped by the exporter and by every importer — the
//!   bytes are shared, not copied at the open. The allocation's slot holds where the object is, the exported
//!   range, the allow list (ACL), who holds the slot, the exporting host thread's clock at the export (an
//!   import joins it: it happens after the export), and a shadow of the accesses for race detection. The
//!   slot and the object's name go when the last holder lets go (mappings already made stay valid).
//! - **One race detector across processes.** Every access to exported memory is checked twice: against the
//!   machine's own shadow (accesses of this OS process, as for any allocation), and, under the slot's lock
//!   word, against the slot's shadow — the records of *other* members whose step the access's clock does not
//!   know. A record names its member of the host, actor and count; clocks carry other members' counts keyed by
//!   (member, actor) (`race/clock.rs`, the part of a `VectorClock` that is not this machine's own: it is kept
//!   apart from the dense part, so compacting this machine's actors never touches it), and IPC event records
//!   and imports bring them. The slot's shadow is bounded ([`layout::SHADOW_CAP`] records): superseded
//!   records are dropped as in `race/shadow.rs`, and when unordered records still fill it the oldest is
//!   forgotten, counted, and said once on standard error. The race is reported by the process whose access
//!   completes it, naming both OS processes; which of the two that is depends on the real-time order of the
//!   two calls (the pair, and that it is reported, do not).
//! - **Clocks carried between processes are bounded**: a record's clock holds at most [`layout::CLOCK_CAP`]
//!   entries, an export's [`layout::X_CLOCK_CAP`]. A longer clock is cut and the fact said once on standard
//!   error: the receiver then knows less than it could, so it may report a race the whole clock would have
//!   ruled out — it never misses one, and waits do not depend on clocks.
//! - **Fork without exec**: a child that inherited a joined machine is not a member (its pid is not the
//!   member's): every IPC call of that machine fails with [`SimError::HostUnavailable`] naming both OS
//!   processes, and the child never leaves the host for its parent. (Until the child exits or execs, it also
//!   holds the open file description of its parent's liveness lock, so a parent that dies first is taken for
//!   alive by the others until then.)
//! - **Locks** in the segment are words holding the holder's member index; a waiter sleeps on the word (futex)
//!   and takes it over when its holder has died (or the word names no member at all). A word that keeps one
//!   value through 400 timed-out 5 ms sleeps (about 2 s; a real hold lasts microseconds) while its holder lives,
//!   or that names the waiter's own member, is corrupted: the waiter goes on without it and its machine stops
//!   using the host, every later IPC call failing with [`SimError::HostUnavailable`] naming the word and value. Every value read from the segment is bounds-checked before it
//!   is used (`segment.rs`), so a hostile or malformed segment can give wrong answers but never crash a process
//!   or make it touch memory outside the mapping. A segment or memory object truncated under its members does
//!   not kill them with SIGBUS either (`guard.rs`: the fault swaps the mapping for private zeros and marks it
//!   cut off); a cut-off member's waits end, said once on standard error, and its later IPC calls fail with
//!   [`SimError::HostUnavailable`] ("truncated under this OS process"). Exported memory's bytes are touched
//!   only through raw pointers (`shared_mem.rs`, `Mapping`), never as Rust slices that other processes write. The objects are created with mode 0600 and refused if they
//!   are not owned by the user or are open to others.

//! # Why a segment rather than a host process
//!
//! A small server that the first client forks would need a thread in every client to forward records, a
//! round trip per record and per wait, and its own lifetime management (who stops it, what if it is killed).
//! With a shared segment a record is a few stores and a wait on a finished record is a few loads, no system
//! call; the kernel's record locks give liveness for free; and a killed process can only leave the segment in
//! a state the checks tolerate.
//!
//! # Virtual time and happens-before
//!
//! Each process keeps its own host clocks. A record's virtual end time is fixed by the recording process (at
//! the call; behind an ACL deferred wait, when that wait is released, and the waiting call in another process
//! blocks until then); a stream wait or a synchronize in another process takes it exactly as it takes a local
//! record's. The record carries the recording stream's vector clock; a wait joins it, so the accesses ordered
//! by IPC events are ordered for the race detector too.
//!
//! Lock order: the machine's IPC tables, an allocation's byte lock or its own shadow, then the segment's init
//! record lock, then the table lock word, then a slot's lock word; none is held across a blocking wait on a
//! record.

pub(crate) mod events;
pub(crate) mod guard;
pub(crate) mod layout;
pub(crate) mod names;
pub(crate) mod remote;
pub(crate) mod segment;
pub(crate) mod shared_mem;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};

use parking_lot::Mutex;

use crate::engine::core::error::SimError;
use layout::*;
use segment::Seg;

/// A machine's membership of a shared host.
#[derive(Debug)]
pub(crate) struct HostLink {
    /// The host's name (`STREAMSIM_MACHINE`).
    pub name: String,
    /// The shared-memory object's name.
    pub object: String,
    pub seg: Seg,
    /// This member's index in the member table, and its id (unique in the run).
    pub index: u32,
    pub uid: u32,
    /// The run's epoch and secret (handles carry the first and a check made with the second).
    pub epoch: u64,
    pub secret: u64,
    /// A hash of the object's name: a handle of another host is recognised as such.
    pub namespace: u64,
    /// The OS process that joined.
    pub pid: u32,
    /// How many handles of each event slot this member holds.
    pub held_events: Mutex<BTreeMap<u32, u32>>,
    left: AtomicBool,
    /// Whether the segment's truncation under this member was said.
    said_cut_off: AtomicBool,
    /// A corrupted lock word found (`with_word`): why this member stopped using the host.
    broken: std::sync::OnceLock<String>,
    /// The last member found dead in each member slot (slot → uid): never probed again. One entry a slot, so
    /// it follows the host's slots, not every process that ever left.
    dead_members: Mutex<std::collections::BTreeMap<u32, u32>>,
    /// OS processes already reported as gone with records not run.
    pub reported_dead: Mutex<Vec<u32>>,
}

/// The links of this OS process, left at exit.
static LINKS: Mutex<Vec<Weak<HostLink>>> = Mutex::new(Vec::new());

extern "C" fn leave_all_at_exit() {
    let links: Vec<Arc<HostLink>> = LINKS.lock().iter().filter_map(Weak::upgrade).collect();
    for l in links {
        l.leave();
    }
}

/// The shared-memory object of host `name` in `dialect` for this user (one-to-one with the name: `names.rs`;
/// where a squatted one moves to: [`names::choose`]).
pub(crate) fn object_name(name: &str, dialect: &str) -> String {
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    format!("/streamsim.{uid}.{}.{dialect}", names::escape(name))
}

/// A 64-bit hash of text (FNV-1a, then mixed): stable across runs and builds.
pub(crate) fn hash(text: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in text {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    crate::engine::core::rng::mix(h)
}

/// The objects in `/dev/shm` of host `object` (itself and its memory objects), by name with the leading `/`.
fn host_objects(object: &str) -> Vec<String> {
    let prefix = &object[1..];
    let Ok(dir) = std::fs::read_dir("/dev/shm") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n == prefix || n.starts_with(&format!("{prefix}.m")))
        .map(|n| format!("/{n}"))
        .collect()
}

impl HostLink {
    /// Joins (creating or re-making it as needed) the shared host `name` of `dialect` whose machines have the
    /// device configuration `config` (text, as errors show it).
    pub fn join(name: &str, dialect: &str, config: &str) -> Result<Arc<HostLink>, SimError> {
        let base = object_name(name, dialect);
        let unavailable = |reason: String| SimError::HostUnavailable {
            name: name.to_string(),
            reason,
        };
        for _ in 0..16 {
            // The first name another user has not squatted (`names.rs`).
            let object = names::choose(&base).map_err(unavailable)?;
            let mut seg = Seg::open(&object, true).map_err(unavailable)?;
            seg.record_lock(INIT_LOCK_BYTE, libc::F_WRLCK, true)
                .map_err(unavailable)?;
            let st = seg.stat().map_err(unavailable)?;
            if st.st_nlink == 0 {
                // Unlinked by a last member between our open and our lock: open the new one.
                continue;
            }
            let joined = Self::join_locked(name, &object, &mut seg, st.st_size, config);
            let _ = seg.record_lock(INIT_LOCK_BYTE, libc::F_UNLCK, false);
            let (index, uid) = joined?;
            let link = Arc::new(HostLink {
                name: name.to_string(),
                namespace: hash(object.as_bytes()),
                object,
                epoch: seg.u64(H_EPOCH).load(Ordering::Acquire),
                secret: seg.u64(H_SECRET).load(Ordering::Acquire),
                seg,
                index,
                uid,
                pid: std::process::id(),
                held_events: Mutex::new(BTreeMap::new()),
                left: AtomicBool::new(false),
                said_cut_off: AtomicBool::new(false),
                dead_members: Mutex::new(std::collections::BTreeMap::new()),
                broken: std::sync::OnceLock::new(),
                reported_dead: Mutex::new(Vec::new()),
            });
            let mut links = LINKS.lock();
            if links.is_empty() {
                // SAFETY: registering a plain extern "C" function.
                unsafe { libc::atexit(leave_all_at_exit) };
            }
            links.retain(|w| w.strong_count() > 0);
            links.push(Arc::downgrade(&link));
            return Ok(link);
        }
        Err(unavailable(format!(
            "{base} kept being removed while joining"
        )))
    }

    /// Joining, under the init lock: (re)makes the segment if nobody lives in it, checks the configuration,
    /// sweeps dead members and takes a member slot.
    fn join_locked(
        name: &str,
        object: &str,
        seg: &mut Seg,
        size: i64,
        config: &str,
    ) -> Result<(u32, u32), SimError> {
        let unavailable = |reason: String| SimError::HostUnavailable {
            name: name.to_string(),
            reason,
        };
        let fault = header_fault(seg, size);
        // Liveness is the members' record locks on the object, not anything written in it: a live member of a
        // segment whose header does not validate (another build's layout, a corrupted field) still counts.
        let live = (0..MEMBERS as u32).any(|i| seg.record_locked_elsewhere(liveness_byte(i)));
        if let (Some(fault), true) = (&fault, live) {
            seg.unmap();
            return Err(unavailable(format!(
                "{object} is in use by live OS processes but its header does not validate ({fault}); \
                 refusing it rather than rebuilding it under them (another streamsim build on the same \
                 STREAMSIM_MACHINE name? use another name)"
            )));
        }
        if !live {
            // A new host, or one nobody lives in any more: stale memory objects go, and it is made anew.
            for n in host_objects(object) {
                if n != object {
                    segment::unlink(&n);
                }
            }
            seg.unmap();
            seg.truncate(0).map_err(unavailable)?;
            seg.truncate(SIZE).map_err(unavailable)?;
            seg.map(SIZE).map_err(unavailable)?;
            seg.u64(H_EPOCH)
                .store(segment::random_u64(), Ordering::Relaxed);
            seg.u64(H_SECRET)
                .store(segment::random_u64(), Ordering::Relaxed);
            seg.u32(H_NEXT_UID).store(1, Ordering::Relaxed);
            seg.u64(H_SIZE).store(SIZE as u64, Ordering::Relaxed);
            seg.u32(H_VERSION).store(VERSION, Ordering::Relaxed);
            let text = config.as_bytes();
            seg.u32(H_CONFIG_LEN)
                .store(text.len().min(CONFIG_CAP) as u32, Ordering::Relaxed);
            seg.put_bytes(H_CONFIG, CONFIG_CAP, text);
            seg.u64(H_CONFIG_HASH).store(hash(text), Ordering::Relaxed);
            seg.u64(H_MAGIC).store(MAGIC, Ordering::Relaxed);
            seg.u32(H_READY).store(1, Ordering::Release);
        } else {
            let theirs_len = seg.u32(H_CONFIG_LEN).load(Ordering::Acquire) as usize;
            let theirs = seg.get_bytes(H_CONFIG, CONFIG_CAP, theirs_len);
            if seg.u64(H_CONFIG_HASH).load(Ordering::Acquire) != hash(config.as_bytes())
                || theirs != config.as_bytes()
            {
                return Err(SimError::HostMismatch {
                    name: name.to_string(),
                    ours: config.to_string(),
                    theirs: String::from_utf8_lossy(&theirs).into_owned(),
                });
            }
            for i in 0..MEMBERS as u32 {
                if seg.u32(member(i, M_UID)).load(Ordering::Acquire) != 0
                    && !seg.record_locked_elsewhere(liveness_byte(i))
                {
                    reclaim(seg, object, i);
                }
            }
        }
        for i in 0..MEMBERS as u32 {
            if seg.u32(member(i, M_UID)).load(Ordering::Acquire) == 0
                && !seg.record_locked_elsewhere(liveness_byte(i))
                && seg
                    .record_lock(liveness_byte(i), libc::F_WRLCK, false)
                    .map_err(unavailable)?
            {
                let uid = seg.u32(H_NEXT_UID).fetch_add(1, Ordering::AcqRel).max(1);
                seg.u32(member(i, M_PID))
                    .store(std::process::id(), Ordering::Relaxed);
                seg.u32(member(i, M_UID)).store(uid, Ordering::Release);
                return Ok((i, uid));
            }
        }
        Err(unavailable(format!(
            "all {MEMBERS} member slots of {object} are taken by live processes"
        )))
    }

    /// The error of an IPC call once the segment was truncated under this member (`guard.rs`).
    pub fn cut_off_error(&self) -> SimError {
        SimError::HostUnavailable {
            name: self.name.clone(),
            reason: format!(
                "{} was truncated under this OS process by another process; this machine is cut off from the \
                 host (its waits on other processes' records have ended)",
                self.object
            ),
        }
    }

    /// Says once per link, on standard error, that the segment was truncated under this member.
    fn report_cut_off(&self) {
        if !self.said_cut_off.swap(true, Ordering::AcqRel) {
            use std::io::Write as _;
            let _ = writeln!(std::io::stderr(), "streamsim: {}", self.cut_off_error());
        }
    }

    /// Whether member `index` is still the member `uid` and alive. Nobody is, to a member whose segment was
    /// truncated under it: its waits end.
    pub fn member_alive(&self, index: u32, uid: u32) -> bool {
        if self.seg.cut_off() {
            self.report_cut_off();
            return false;
        }
        if index as usize >= MEMBERS || uid == 0 {
            return false;
        }
        // A member found dead stays dead (a uid is never given again in a run): remembered, so that waits on
        // its records cost nothing after the first (issue: 20 ms on every call, forever).
        if self.dead_members.lock().get(&index) == Some(&uid) {
            return false;
        }
        let alive = self.seg.u32(member(index, M_UID)).load(Ordering::Acquire) == uid
            && (index == self.index || self.seg.record_locked_elsewhere(liveness_byte(index)));
        if !alive {
            self.dead_members.lock().insert(index, uid);
        }
        alive
    }

    /// Whether member slot `index` is alive now (for taking over a lock word its holder left).
    pub fn slot_alive(&self, index: u32) -> bool {
        (index as usize) < MEMBERS
            && (index == self.index || self.seg.record_locked_elsewhere(liveness_byte(index)))
    }

    /// Runs `f` under the table lock (slot allocation and release).
    pub fn with_table<R>(&self, f: impl FnOnce() -> R) -> R {
        self.with_word(H_TABLE_LOCK, f)
    }

    /// Runs `f` under the lock word at `off`.
    ///
    /// A word that stays held with one value for about 2 s while its holder lives (or that names this
    /// member, whose threads hold a word for microseconds) is corrupted: `f` runs without it (the values it
    /// reads are checked as always; releasing the word afterwards clears it), the fault is said once on
    /// standard error, and every later IPC call of the machine fails with it ([`HostLink::fault`]).
    pub fn with_word<R>(&self, off: usize, f: impl FnOnce() -> R) -> R {
        let w = self.seg.u32(off);
        if let Err(v) = segment::seg_lock(w, self.index, &|i| self.slot_alive(i)) {
            let holder = (v & !segment::CONTENDED).wrapping_sub(1);
            let whose = if holder == self.index {
                "this member's own index, which none of its threads held".to_string()
            } else {
                format!("member {holder}, alive")
            };
            self.broke(format!(
                "the lock word at byte {off} of {} held {:#x} ({whose}) through {} sleeps of 5 ms: it is \
                 corrupted; this machine stops using the host",
                self.object,
                v & !segment::CONTENDED,
                segment::STUCK_SLEEPS
            ));
        }
        let r = f();
        segment::seg_unlock(w);
        r
    }

    /// Marks the host broken for this member with `reason` (the first one stays), said once on standard error.
    fn broke(&self, reason: String) {
        if self.broken.set(reason).is_ok() {
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr(),
                "streamsim: shared host {:?}: {}",
                self.name,
                self.broken.get().map_or("", String::as_str)
            );
        }
    }

    /// Why this member can no longer use its host (the segment was truncated under it, or a lock word of it
    /// is corrupted): the error of every IPC call from then on.
    pub fn fault(&self) -> Option<SimError> {
        if self.seg.cut_off() {
            return Some(self.cut_off_error());
        }
        self.broken.get().map(|reason| SimError::HostUnavailable {
            name: self.name.clone(),
            reason: reason.clone(),
        })
    }

    /// Says once per OS process, on standard error, that `pid` died with records not run.
    pub fn report_dead(&self, pid: u32) {
        if self.seg.cut_off() {
            // Not a death: the truncation was said (`member_alive`).
            return;
        }
        let mut seen = self.reported_dead.lock();
        if !seen.contains(&pid) {
            // The latest deaths only (a pid said again after many others is said twice, never lost).
            if seen.len() >= MEMBERS {
                seen.remove(0);
            }
            seen.push(pid);
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr(),
                "streamsim: OS process {pid} left shared host {:?} before its records ran; waits on them end \
                 (as if they had run)",
                self.name
            );
        }
    }

    /// Says once per OS process, on standard error, that the shared shadow of exported allocation `ordinal`
    /// was full and forgot its oldest access record.
    pub fn report_forgotten(&self, ordinal: u64) {
        use std::io::Write as _;
        static SAID: AtomicBool = AtomicBool::new(false);
        if !SAID.swap(true, Ordering::AcqRel) {
            let _ = writeln!(
                std::io::stderr(),
                "streamsim: the shared race shadow of exported allocation #{ordinal} on host {:?} holds at most \
                 {} unordered access records; the oldest was forgotten, and a race with it cannot be reported",
                self.name,
                layout::SHADOW_CAP
            );
        }
    }

    /// Says once per OS process, on standard error, that a clock carried to other OS processes (by `what`) had
    /// more entries than fit: the others learn only part of it, so they may report races that the whole clock
    /// would have ruled out (never miss one, and waits still wait).
    pub fn report_clock_truncated(&self, what: &str, entries: usize, cap: usize) {
        use std::io::Write as _;
        static SAID: AtomicBool = AtomicBool::new(false);
        if !SAID.swap(true, Ordering::AcqRel) {
            let _ = writeln!(
                std::io::stderr(),
                "streamsim: the race-detection clock of {what} on host {:?} has {entries} entries, more than the \
                 {cap} a shared slot carries; the other OS processes learn only the first {cap}, and may report \
                 races the whole clock would have ruled out",
                self.name
            );
        }
    }

    /// Leaves the host: frees this member's exports, and removes the host's objects if nobody else is left.
    /// Idempotent.
    pub fn leave(&self) {
        // A child forked without exec inherits the link (and, until it closes it, the open file description
        // holding its parent's locks): it is not the member, and must not leave for it.
        if self.pid != std::process::id() || self.left.swap(true, Ordering::AcqRel) {
            return;
        }
        if self
            .seg
            .record_lock(INIT_LOCK_BYTE, libc::F_WRLCK, true)
            .is_err()
        {
            return;
        }
        reclaim(&self.seg, &self.object, self.index);
        let _ = self
            .seg
            .record_lock(liveness_byte(self.index), libc::F_UNLCK, false);
        let others = (0..MEMBERS as u32)
            .any(|i| i != self.index && self.seg.record_locked_elsewhere(liveness_byte(i)));
        if !others {
            for n in host_objects(&self.object) {
                segment::unlink(&n);
            }
            segment::unlink(&self.object);
        }
        let _ = self.seg.record_lock(INIT_LOCK_BYTE, libc::F_UNLCK, false);
    }
}

impl Drop for HostLink {
    fn drop(&mut self) {
        self.leave();
    }
}

/// Frees everything member `i` holds (it has died or is leaving): its holds on events and memory, the events
/// and memory nobody holds any more, its streams' progress slots, the lock words it holds; then its slot.
/// Called under the init lock.
fn reclaim(seg: &Seg, object: &str, i: u32) {
    let bit = 1u64 << i;
    let held = |w: &std::sync::atomic::AtomicU32| {
        let v = w.load(Ordering::Acquire);
        if v != 0 && (v & !segment::CONTENDED) == i + 1 {
            w.store(0, Ordering::Release);
            segment::futex_wake(w);
        }
    };
    held(seg.u32(H_TABLE_LOCK));
    for e in 0..EVENTS as u32 {
        held(seg.u32(event(e, E_LOCK)));
        let h = seg.u64(event(e, E_HOLDERS));
        let left = h.fetch_and(!bit, Ordering::AcqRel) & !bit;
        if seg.u32(event(e, E_USED)).load(Ordering::Acquire) == 1 && left == 0 {
            segment::free_event_slot(seg, e);
        }
    }
    for s in 0..STREAMS as u32 {
        if seg.u32(stream(s, S_USED)).load(Ordering::Acquire) == 1
            && seg.u32(stream(s, S_OWNER_IDX)).load(Ordering::Acquire) == i
        {
            segment::free_stream_slot(seg, s);
        }
    }
    for x in 0..MEMS as u32 {
        held(seg.u32(mem(x, X_LOCK)));
        if seg.u32(mem(x, X_USED)).load(Ordering::Acquire) != 1 {
            continue;
        }
        if seg.u32(mem(x, X_EXPORTER_IDX)).load(Ordering::Acquire) == i {
            // Its exporter is gone: no new import (the importers keep their mappings).
            seg.u32(mem(x, X_CLOSED)).store(1, Ordering::Release);
        }
        let left = seg.u64(mem(x, X_HOLDERS)).fetch_and(!bit, Ordering::AcqRel) & !bit;
        if left == 0 {
            shared_mem::free_mem_slot(seg, object, x);
        }
    }
    seg.u32(member(i, M_UID)).store(0, Ordering::Release);
    seg.u32(member(i, M_PID)).store(0, Ordering::Release);
}

/// What is wrong with the header of a segment of `size` bytes (mapping it if it is long enough), or `None` if
/// it validates: the layout's size, magic, version, size field and ready flag, named with the value found.
fn header_fault(seg: &mut Seg, size: i64) -> Option<String> {
    if size < SIZE as i64 {
        return Some(format!(
            "{size} bytes, fewer than the {SIZE} of layout version {VERSION}"
        ));
    }
    if let Err(e) = seg.map(SIZE) {
        return Some(e);
    }
    let magic = seg.u64(H_MAGIC).load(Ordering::Acquire);
    let version = seg.u32(H_VERSION).load(Ordering::Acquire);
    let size_field = seg.u64(H_SIZE).load(Ordering::Acquire);
    let ready = seg.u32(H_READY).load(Ordering::Acquire);
    if magic != MAGIC {
        Some(format!(
            "magic {magic:#018x}, not {MAGIC:#018x} (\"SSIMHST1\")"
        ))
    } else if version != VERSION {
        Some(format!(
            "layout version {version}, this build uses version {VERSION}"
        ))
    } else if size_field != SIZE as u64 {
        Some(format!(
            "size field {size_field}, not the {SIZE} of layout version {VERSION}"
        ))
    } else if ready != 1 {
        Some(format!("ready flag {ready}, not 1"))
    } else {
        None
    }
}

/// The device configuration as the shared host compares it (and errors show it).
pub(crate) fn config_text(devices: &[crate::engine::devices::config::DeviceConfig]) -> String {
    let mut out = format!("{} device(s)", devices.len());
    for (i, d) in devices.iter().enumerate() {
        out.push_str(&format!("; {i}: {:?} {} bytes", d.name, d.memory));
    }
    out
}
