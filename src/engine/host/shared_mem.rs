//! Exported device memory on a shared host: the slot of an exported allocation, the shared-memory object that
//! holds its bytes (named after the host and a random id), and the slot's shadow of accesses, which one race
//! detector reads and writes from every OS process.
//!
//! # The bytes
//!
//! Exporting an allocation on a shared host moves its bytes, under the allocation's byte lock, into a new
//! shared-memory object (`/dev/shm/streamsim.<uid>.<host>.<dialect>.m<id>`, mode 0600) mapped by the exporter;
//! every importing OS process maps the same object. Nothing is copied at an import: a copy or kernel in one
//! process writes the bytes another reads. Within one OS process a [`Mapping`]'s bytes are behind the block's
//! lock like any block's; between OS processes nothing serialises them, as on hardware — a racy program sees
//! some interleaving of bytes (and the race detector reports it).
//!
//! # The shared shadow
//!
//! The slot holds up to [`SHADOW_CAP`] access records: range, read or write, the accessor's step as (member
//! of the host, actor, count), and enough to name it in a report (its OS pid, simulated process, stream,
//! operation kind and label). Every access to exported memory in any member is checked, under the slot's lock
//! word, against the records of *other* members whose step its clock does not know (the clock carries other
//! members' steps through IPC event records: `race/clock.rs`); accesses within one member are checked by the
//! machine's own shadow as before. Records that the new access supersedes (inside its range, ordered before
//! it, and not a write it merely reads) are dropped, as in `race/shadow.rs`, so ordered traffic keeps a record
//! or two. If unordered records still fill the slot, the oldest is forgotten, counted in the slot, and said
//! once per OS process on standard error: a race with a forgotten access is not reported ("sim"). The race is
//! reported by the member whose access completes it (which of the two that is depends on the real-time order
//! of the two calls), naming both OS processes.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::HostLink;
use super::layout::*;
use super::segment::{self, Seg};
use crate::engine::core::error::{IpcProblem, SimError};
use crate::engine::core::handle::{ProcessId, StreamId};
use crate::engine::core::races::Accessor;
use crate::engine::observe::race::clock::{Epoch, VectorClock};

/// The shared-memory object holding the bytes of the allocation exported as `name_id`.
pub(crate) fn mem_object(object: &str, name_id: u64) -> String {
    format!("{object}.m{name_id:016x}")
}

/// Frees memory slot `x`: its object's name goes (the members that mapped it keep their mappings).
pub(crate) fn free_mem_slot(seg: &Seg, object: &str, x: u32) {
    let id = seg.u64(mem(x, X_NAME_ID)).load(Ordering::Acquire);
    segment::unlink(&mem_object(object, id));
    seg.u32(mem(x, X_USED)).store(0, Ordering::Release);
    seg.u32(mem(x, X_SH_N)).store(0, Ordering::Release);
    seg.u32(mem(x, X_GEN)).fetch_add(1, Ordering::AcqRel);
}

/// The bytes of a shared-memory object, mapped.
#[derive(Debug)]
pub(crate) struct Mapping {
    seg: Seg,
}

impl Mapping {
    /// How many bytes are mapped.
    pub fn len(&self) -> usize {
        self.seg.raw().1
    }

    /// The first mapped byte (for a CPU-run kernel's direct accesses, `Block::host_ptr`).
    pub fn base_ptr(&self) -> *mut u8 {
        self.seg.raw().0
    }

    /// The start of `off..off + n`, checked against the mapping (regions are range-checked before they get
    /// here: past the end is a bug).
    fn at(&self, off: usize, n: usize) -> *mut u8 {
        let (p, len) = self.seg.raw();
        assert!(
            off.checked_add(n).is_some_and(|e| e <= len),
            "bytes {off}..+{n} outside a {len}-byte shared mapping"
        );
        // SAFETY: in bounds (checked).
        unsafe { p.add(off) }
    }

    // The bytes are only ever touched through raw pointers, never as `&[u8]` / `&mut [u8]`: other OS processes
    // write them concurrently (the program's race on shared device memory, as on hardware), which a Rust
    // reference would promise cannot happen. Within this OS process the block's lock, held by the caller,
    // serialises the simulator's accesses. A shrink of the object under the mapping cannot fault (`guard.rs`).

    /// Copies `out.len()` bytes from offset `off` into `out`.
    pub fn read(&self, off: usize, out: &mut [u8]) {
        let src = self.at(off, out.len());
        // SAFETY: `src` is valid for `out.len()` bytes of the mapping, which `out` (our own memory) cannot
        // overlap.
        unsafe { std::ptr::copy_nonoverlapping(src, out.as_mut_ptr(), out.len()) };
    }

    /// Copies `data` to offset `off`.
    pub fn write(&self, off: usize, data: &[u8]) {
        let dst = self.at(off, data.len());
        // SAFETY: as for `read`, the other way.
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), dst, data.len()) };
    }

    /// Sets `n` bytes from offset `off` to `value`.
    pub fn fill(&self, off: usize, n: usize, value: u8) {
        let dst = self.at(off, n);
        // SAFETY: valid for `n` bytes of the mapping.
        unsafe { std::ptr::write_bytes(dst, value, n) };
    }

    /// Copies `n` bytes from offset `src` to offset `dst` of the mapping (the ranges may overlap).
    pub fn copy_within(&self, src: usize, dst: usize, n: usize) {
        let (s, d) = (self.at(src, n), self.at(dst, n));
        // SAFETY: both valid for `n` bytes of the mapping; `copy` allows overlap.
        unsafe { std::ptr::copy(s, d, n) };
    }
}

/// What an import learns from the slot.
#[derive(Debug, Clone)]
pub(crate) struct Imported {
    pub device: u32,
    pub range_off: u64,
    pub range_len: u64,
    pub ordinal: u64,
    /// The exporter's clock at the export, seen by this member.
    pub clock: VectorClock,
}

/// A member's hold on an exported allocation's slot (the exporter's, or an importer's). The last hold frees it.
#[derive(Debug)]
pub(crate) struct SharedMem {
    pub link: Arc<HostLink>,
    pub slot: u32,
    pub generation_: u32,
}

/// An access of another member, found unordered with a new one.
#[derive(Debug, Clone)]
pub(crate) struct RemoteAccess {
    pub who: Accessor,
    pub pid: u32,
    pub write: bool,
    pub count: u64,
    pub start: u64,
    pub end: u64,
}

const OP_KINDS: [&str; 4] = ["operation", "kernel", "memcpy", "memset"];
const HOST_CALLS: [&str; 3] = ["host access", "host_write", "host_read"];

fn code_of(names: &[&str], s: &str) -> u32 {
    names.iter().position(|n| *n == s).unwrap_or(0) as u32
}

impl SharedMem {
    /// Exports an allocation of `len` bytes on `device` (number `ordinal` there), range `range` of it: a slot,
    /// and a shared-memory object holding a copy of `bytes` (the allocation's), its mapping returned for the
    /// allocation to move onto.
    #[allow(clippy::too_many_arguments, reason = "one export, spelled out")]
    pub fn export(
        link: &Arc<HostLink>,
        len: u64,
        device: u32,
        ordinal: u64,
        range: (u64, u64),
        pid_check: bool,
        clock: Option<&VectorClock>,
        bytes: &[u8],
    ) -> Result<(SharedMem, Arc<Mapping>), SimError> {
        let entries = clock.map(|c| c.entries(link.uid)).unwrap_or_default();
        if entries.len() > X_CLOCK_CAP {
            link.report_clock_truncated("an export of IPC memory", entries.len(), X_CLOCK_CAP);
        }
        let unavailable = |reason: String| SimError::HostUnavailable {
            name: link.name.clone(),
            reason,
        };
        let n = usize::try_from(len).map_err(|_| unavailable(format!("{len} bytes")))?;
        let name_id = segment::random_u64();
        let name = mem_object(&link.object, name_id);
        let mut seg = Seg::open(&name, true).map_err(unavailable)?;
        seg.truncate(n).map_err(unavailable)?;
        seg.map(n).map_err(unavailable)?;
        let mapping = Arc::new(Mapping { seg });
        mapping.write(0, &bytes[..n]);
        let seg = &link.seg;
        let found = link.with_table(|| {
            (0..MEMS as u32).find(|&x| {
                let free = seg.u32(mem(x, X_USED)).load(Ordering::Acquire) == 0;
                if free {
                    let put32 = |f, v| seg.u32(mem(x, f)).store(v, Ordering::Relaxed);
                    let put64 = |f, v| seg.u64(mem(x, f)).store(v, Ordering::Relaxed);
                    put32(X_EXPORTER_UID, link.uid);
                    put32(X_EXPORTER_IDX, link.index);
                    put32(X_EXPORTER_PID, link.pid);
                    put32(X_DEVICE, device);
                    put64(X_LEN, len);
                    put64(X_NAME_ID, name_id);
                    put64(X_ORDINAL, ordinal);
                    put32(X_CLOSED, 0);
                    put32(X_PID_CHECK, u32::from(pid_check));
                    put32(X_PIDS_N, 0);
                    put32(X_SH_N, 0);
                    put64(X_SH_FORGOTTEN, 0);
                    put64(X_RANGE_OFF, range.0);
                    put64(X_RANGE_LEN, range.1);
                    put64(X_HOLDERS, 1 << link.index);
                    let n = entries.len().min(X_CLOCK_CAP);
                    for (i, &(m, a, c)) in entries.iter().take(n).enumerate() {
                        put64(X_CLOCK + 16 * i, u64::from(m) << 32 | u64::from(a));
                        put64(X_CLOCK + 16 * i + 8, c);
                    }
                    put32(X_CLOCK_N, n as u32);
                    seg.u32(mem(x, X_USED)).store(1, Ordering::Release);
                }
                free
            })
        });
        let Some(slot) = found else {
            segment::unlink(&name);
            return Err(unavailable(format!(
                "all {MEMS} exported-memory slots are in use"
            )));
        };
        let held = SharedMem {
            link: link.clone(),
            slot,
            generation_: seg.u32(mem(slot, X_GEN)).load(Ordering::Acquire),
        };
        // A corrupted lock word found on the way fails this call too (dropping the hold frees the slot).
        link.fault().map_or(Ok((held, mapping)), Err)
    }

    /// Imports the allocation of slot `slot`, generation `generation_`, into this member: its hold, the mapped
    /// bytes and what the slot says about them — or why not. Every value read from the slot is checked.
    pub fn import(
        link: &Arc<HostLink>,
        slot: u32,
        generation_: u32,
        devices: u32,
    ) -> Result<(SharedMem, Arc<Mapping>, Imported), IpcProblem> {
        if slot as usize >= MEMS {
            return Err(IpcProblem::InvalidHandle);
        }
        let seg = &link.seg;
        let bit = 1u64 << link.index;
        let got = link.with_table(|| {
            let get32 = |f| seg.u32(mem(slot, f)).load(Ordering::Acquire);
            let get64 = |f| seg.u64(mem(slot, f)).load(Ordering::Acquire);
            if get32(X_USED) != 1 || get32(X_GEN) != generation_ || get32(X_CLOSED) != 0 {
                return Err(IpcProblem::ExportGone);
            }
            if get32(X_PID_CHECK) == 1 {
                let n = (get32(X_PIDS_N) as usize).min(PIDS_CAP);
                let listed = (0..n).any(|i| {
                    seg.u32(mem(slot, X_PIDS + 4 * i)).load(Ordering::Acquire) == link.pid
                });
                if !listed {
                    return Err(IpcProblem::NotAllowed);
                }
            }
            let (len, off, rlen) = (get64(X_LEN), get64(X_RANGE_OFF), get64(X_RANGE_LEN));
            let device = get32(X_DEVICE);
            if device >= devices || off.checked_add(rlen).is_none_or(|e| e > len) || rlen == 0 {
                return Err(IpcProblem::InvalidHandle);
            }
            seg.u64(mem(slot, X_HOLDERS))
                .fetch_or(bit, Ordering::AcqRel);
            let n = (get32(X_CLOCK_N) as usize).min(X_CLOCK_CAP);
            let entries: Vec<(u32, u32, u64)> = (0..n)
                .map(|i| {
                    let k = get64(X_CLOCK + 16 * i);
                    ((k >> 32) as u32, k as u32, get64(X_CLOCK + 16 * i + 8))
                })
                .collect();
            Ok((
                len,
                get64(X_NAME_ID),
                Imported {
                    device,
                    range_off: off,
                    range_len: rlen,
                    ordinal: get64(X_ORDINAL),
                    clock: VectorClock::from_entries(link.uid, &entries),
                },
            ))
        })?;
        let hold = SharedMem {
            link: link.clone(),
            slot,
            generation_,
        };
        let (len, name_id, imported) = got;
        let mut mseg = Seg::open(&mem_object(&link.object, name_id), false)
            .map_err(|_| IpcProblem::ExportGone)?;
        let n = usize::try_from(len).map_err(|_| IpcProblem::InvalidHandle)?;
        // `map` checks that the object really has the slot's length.
        mseg.map(n).map_err(|_| IpcProblem::InvalidHandle)?;
        Ok((hold, Arc::new(Mapping { seg: mseg }), imported))
    }

    fn live(&self) -> bool {
        self.link
            .seg
            .u32(mem(self.slot, X_GEN))
            .load(Ordering::Acquire)
            == self.generation_
    }

    /// The exporter freed the allocation or closed the export: no new import.
    pub fn close_export(&self) {
        let seg = &self.link.seg;
        self.link.with_table(|| {
            if self.live() {
                seg.u32(mem(self.slot, X_CLOSED))
                    .store(1, Ordering::Release);
            }
        });
    }

    /// Puts this member's accesses made before the export (the allocation's own shadow) into the slot's
    /// shadow, so that another member's unordered access to them is reported too. At most [`SHADOW_CAP`].
    pub fn seed<'a>(&self, records: impl Iterator<Item = (u64, u64, bool, Epoch, &'a Accessor)>) {
        let seg = &self.link.seg;
        let x = self.slot;
        let recs: Vec<[u64; SH_LEN / 8]> = records
            .take(SHADOW_CAP)
            .map(|(s, e, w, epoch, who)| {
                encode(self.link.uid, self.link.pid, (s, e), w, epoch, who)
            })
            .collect();
        self.link.with_word(mem(x, X_LOCK), || {
            if !self.live() || seg.u32(mem(x, X_SH_N)).load(Ordering::Acquire) != 0 {
                return;
            }
            for (r, rec) in recs.iter().enumerate() {
                for (w, v) in rec.iter().enumerate() {
                    seg.u64(shadow_rec(x, r, w * 8))
                        .store(*v, Ordering::Relaxed);
                }
            }
            seg.u32(mem(x, X_SH_N))
                .store(recs.len() as u32, Ordering::Release);
        });
    }

    /// Adds OS pids to the allow list (ACL `aclrtIpcMemSetImportPid`). `false` if the list is full.
    pub fn allow(&self, pids: &[u32]) -> bool {
        let seg = &self.link.seg;
        self.link.with_table(|| {
            let n =
                (seg.u32(mem(self.slot, X_PIDS_N)).load(Ordering::Acquire) as usize).min(PIDS_CAP);
            let listed: Vec<u32> = (0..n)
                .map(|i| {
                    seg.u32(mem(self.slot, X_PIDS + 4 * i))
                        .load(Ordering::Acquire)
                })
                .collect();
            let new: Vec<u32> = pids
                .iter()
                .copied()
                .filter(|p| !listed.contains(p))
                .collect();
            if n + new.len() > PIDS_CAP {
                return false;
            }
            for (i, p) in new.iter().enumerate() {
                seg.u32(mem(self.slot, X_PIDS + 4 * (n + i)))
                    .store(*p, Ordering::Relaxed);
            }
            seg.u32(mem(self.slot, X_PIDS_N))
                .store((n + new.len()) as u32, Ordering::Release);
            true
        })
    }

    /// Checks the access `range` (offsets in the allocation) made at step `epoch` by `who` with clock `clock`
    /// against the other members' records, records it, and returns the unordered conflicting ones.
    pub fn access(
        &self,
        range: (u64, u64),
        write: bool,
        epoch: Epoch,
        clock: &VectorClock,
        who: &Accessor,
    ) -> Vec<RemoteAccess> {
        let me = self.link.uid;
        let seg = &self.link.seg;
        let x = self.slot;
        let mut forgot = false;
        let found = self.link.with_word(mem(x, X_LOCK), || {
            if !self.live() {
                return Vec::new();
            }
            let n = (seg.u32(mem(x, X_SH_N)).load(Ordering::Acquire) as usize).min(SHADOW_CAP);
            let mut recs: Vec<[u64; SH_LEN / 8]> = (0..n)
                .map(|r| {
                    std::array::from_fn(|w| {
                        seg.u64(shadow_rec(x, r, w * 8)).load(Ordering::Relaxed)
                    })
                })
                .collect();
            let field32 = |rec: &[u64; SH_LEN / 8], f: usize| {
                let w = rec[f / 8];
                if f.is_multiple_of(8) {
                    w as u32
                } else {
                    (w >> 32) as u32
                }
            };
            let knows = |rec: &[u64; SH_LEN / 8]| {
                clock.knows_member(
                    me,
                    field32(rec, SH_MEMBER),
                    field32(rec, SH_ACTOR),
                    rec[SH_COUNT / 8],
                )
            };
            let mut found = Vec::new();
            for rec in &recs {
                let (s, e) = (rec[SH_START / 8], rec[SH_END / 8]);
                let rw = field32(rec, SH_FLAGS) & 1 == 1;
                let overlap = (s.max(range.0), e.min(range.1));
                if overlap.0 < overlap.1
                    && (rw || write)
                    && field32(rec, SH_MEMBER) != me
                    && !knows(rec)
                {
                    found.push(decode(rec, field32, overlap));
                }
            }
            let superseded = |rec: &[u64; SH_LEN / 8]| {
                let rw = field32(rec, SH_FLAGS) & 1 == 1;
                range.0 <= rec[SH_START / 8]
                    && rec[SH_END / 8] <= range.1
                    && knows(rec)
                    && (write || !rw)
            };
            recs.retain(|r| !superseded(r));
            recs.push(encode(me, self.link.pid, range, write, epoch, who));
            if recs.len() > SHADOW_CAP {
                recs.remove(0);
                seg.u64(mem(x, X_SH_FORGOTTEN))
                    .fetch_add(1, Ordering::Relaxed);
                forgot = true;
            }
            for (r, rec) in recs.iter().enumerate() {
                for (w, v) in rec.iter().enumerate() {
                    seg.u64(shadow_rec(x, r, w * 8))
                        .store(*v, Ordering::Relaxed);
                }
            }
            seg.u32(mem(x, X_SH_N))
                .store(recs.len() as u32, Ordering::Release);
            found
        });
        if forgot {
            self.link
                .report_forgotten(seg.u64(mem(x, X_ORDINAL)).load(Ordering::Relaxed));
        }
        found
    }
}

/// A shadow record of this member's access.
fn encode(
    me: u32,
    pid: u32,
    range: (u64, u64),
    write: bool,
    epoch: Epoch,
    who: &Accessor,
) -> [u64; SH_LEN / 8] {
    let mut rec = [0u64; SH_LEN / 8];
    let pair = |lo: u32, hi: u32| u64::from(lo) | u64::from(hi) << 32;
    rec[SH_START / 8] = range.0;
    rec[SH_END / 8] = range.1;
    rec[SH_COUNT / 8] = epoch.count;
    rec[SH_MEMBER / 8] = pair(me, epoch.actor);
    let (flags, process, device, kind, thread, label) = match who {
        Accessor::Op {
            stream,
            kind,
            label,
            ..
        } => (
            code_of(&OP_KINDS, kind) << 8,
            stream.process.0,
            stream.device,
            super::layout::kind_bits(stream.kind),
            0,
            label.as_bytes(),
        ),
        Accessor::Host {
            process,
            thread,
            call,
        } => (
            2 | code_of(&HOST_CALLS, call) << 8,
            process.0,
            0,
            0,
            *thread,
            &[][..],
        ),
    };
    rec[SH_FLAGS / 8] = pair(flags | u32::from(write), pid);
    rec[SH_PROCESS / 8] = pair(process, device);
    rec[SH_KIND / 8] = kind;
    let label = &label[..label.len().min(SH_LABEL_CAP)];
    rec[SH_THREAD / 8] = pair(thread, label.len() as u32);
    for (i, chunk) in label.chunks(8).enumerate() {
        let mut w = [0u8; 8];
        w[..chunk.len()].copy_from_slice(chunk);
        rec[SH_LABEL / 8 + i] = u64::from_le_bytes(w);
    }
    rec
}

/// Another member's access, from its record (every field bounded).
fn decode(
    rec: &[u64; SH_LEN / 8],
    field32: impl Fn(&[u64; SH_LEN / 8], usize) -> u32,
    (start, end): (u64, u64),
) -> RemoteAccess {
    let flags = field32(rec, SH_FLAGS);
    let label_len = (field32(rec, SH_LABEL_LEN) as usize).min(SH_LABEL_CAP);
    let mut label = Vec::with_capacity(label_len);
    for i in 0..SH_LABEL_CAP / 8 {
        label.extend_from_slice(&rec[SH_LABEL / 8 + i].to_le_bytes());
    }
    label.truncate(label_len);
    let code = (flags >> 8) as usize & 0xff;
    let who = if flags & 2 != 0 {
        Accessor::Host {
            process: ProcessId(field32(rec, SH_PROCESS)),
            thread: field32(rec, SH_THREAD),
            call: HOST_CALLS.get(code).copied().unwrap_or(HOST_CALLS[0]),
        }
    } else {
        Accessor::Op {
            stream: StreamId {
                process: ProcessId(field32(rec, SH_PROCESS)),
                device: field32(rec, SH_DEVICE),
                kind: super::layout::kind_of(rec[SH_KIND / 8]),
            },
            stream_name: None,
            kind: OP_KINDS.get(code).copied().unwrap_or(OP_KINDS[0]),
            label: String::from_utf8_lossy(&label).into_owned(),
        }
    };
    RemoteAccess {
        who,
        pid: field32(rec, SH_PID),
        write: flags & 1 == 1,
        count: rec[SH_COUNT / 8],
        start,
        end,
    }
}

impl Drop for SharedMem {
    fn drop(&mut self) {
        let seg = &self.link.seg;
        let bit = 1u64 << self.link.index;
        self.link.with_table(|| {
            if self.live() {
                let left = seg
                    .u64(mem(self.slot, X_HOLDERS))
                    .fetch_and(!bit, Ordering::AcqRel)
                    & !bit;
                if left == 0 && seg.u32(mem(self.slot, X_USED)).load(Ordering::Acquire) == 1 {
                    free_mem_slot(seg, &self.link.object, self.slot);
                }
            }
        });
    }
}
