//! Handles: small `Copy` ids with a generation, looked up in per-process registries.
//!
//! A handle packs, from the most significant bit, `[kind 4 | machine 16 | process 12 | index 22 | epoch 10]`
//! (bits) into a `u64`, so the C ABI can pass it as an opaque pointer, and a destroyed, forged, foreign or
//! wrong-kind handle is a typed error, never a crash. `kind` is the object kind's tag (never 0), `machine` the
//! machine's id modulo 2^16, `process` the process id (up to 4,095), `index` the registry slot (up to 2^22 live
//! objects of a kind per process) and `epoch` the slot's reuse count (a slot is retired after 1,024 uses). The
//! values `0`, `1` and `2` are never produced (they are the vendors' special stream handles).

use crate::engine::error::{HandleProblem, ObjectKind, ObjectLimit, Result, SimError};

/// A simulated host process (its ordinal on the machine, starting at 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProcessId(pub u32);

impl std::fmt::Display for ProcessId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Which stream of a process an id names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StreamKind {
    /// The device's legacy default stream (CUDA `0` / `cudaStreamLegacy`).
    Legacy,
    /// A host thread's per-thread default stream (`cudaStreamPerThread`); the number is the host thread's
    /// ordinal in the process (in the order threads first called the simulator).
    PerThread(u32),
    /// A created stream; the number is its creation ordinal in the process, starting at 1.
    Created(u32),
    /// The default stream of a context (ACL); the number is the context's ordinal in the process.
    ContextDefault(u32),
    /// A lane of an executable graph (see `graph/`): the stream its launches replay some of the graph's nodes
    /// on. Not a handle a program holds; the trace shows it as the graph's track.
    Graph {
        /// The executable graph's creation ordinal in the process, starting at 1.
        exec: u32,
        /// The lane's number in the executable graph, starting at 0.
        lane: u32,
    },
}

/// A stream's identity for messages and traces: process, device and which stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StreamId {
    /// The owning process.
    pub process: ProcessId,
    /// The stream's device.
    pub device: u32,
    /// Which stream.
    pub kind: StreamKind,
}

impl std::fmt::Display for StreamId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind {
            StreamKind::Legacy => write!(f, "default stream of device {}", self.device),
            StreamKind::PerThread(t) => {
                write!(
                    f,
                    "per-thread stream of thread {t} on device {}",
                    self.device
                )
            }
            StreamKind::Created(n) => write!(f, "stream {n}"),
            StreamKind::ContextDefault(c) => {
                write!(f, "default stream of context {c} (device {})", self.device)
            }
            StreamKind::Graph { exec, lane } => write!(f, "graph exec {exec} lane {lane}"),
        }
    }
}

/// An event's identity for messages and traces: process and creation ordinal (starting at 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EventId {
    /// The owning process.
    pub process: ProcessId,
    /// Creation ordinal in the process, starting at 1.
    pub ordinal: u32,
}

impl std::fmt::Display for EventId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.ordinal)
    }
}

// A raw handle, from the top: the object kind, the machine (its id modulo 2^16: handles of two machines 65,536
// apart could be mistaken for each other), the process, the slot, and the slot's epoch (a slot whose epochs
// run out is retired, never reused: 1,024 reuses each).
const KIND_BITS: u32 = 4;
const MACHINE_BITS: u32 = 16;
const PROCESS_BITS: u32 = 12;
const INDEX_BITS: u32 = 22;
const EPOCH_BITS: u32 = 10;
const _: () = assert!(KIND_BITS + MACHINE_BITS + PROCESS_BITS + INDEX_BITS + EPOCH_BITS == 64);

/// The most process ids a handle can encode (ids 0 to 4,095).
pub(crate) const PROCESS_IDS: u32 = 1 << PROCESS_BITS;

/// The bits of machine `id` its handles carry.
pub(crate) fn machine_tag(id: u64) -> u64 {
    id & mask(MACHINE_BITS)
}

const fn mask(bits: u32) -> u64 {
    (1u64 << bits) - 1
}

/// The decoded fields of a raw handle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RawParts {
    pub kind: u64,
    pub machine: u64,
    pub process: u64,
    pub index: u64,
    pub epoch: u64,
}

pub(crate) const TAG_STREAM: u64 = 0xA;
pub(crate) const TAG_EVENT: u64 = 0xE;
pub(crate) const TAG_CONTEXT: u64 = 0xC;
pub(crate) const TAG_NOTIFY: u64 = 0x7;
pub(crate) const TAG_GRAPH: u64 = 0x6;
pub(crate) const TAG_GRAPH_EXEC: u64 = 0x5;
pub(crate) const TAG_GRAPH_NODE: u64 = 0x4;
pub(crate) const TAG_POOL: u64 = 0x3;

pub(crate) fn encode(p: RawParts) -> u64 {
    (p.kind << (64 - KIND_BITS))
        | ((p.machine & mask(MACHINE_BITS)) << (INDEX_BITS + EPOCH_BITS + PROCESS_BITS))
        | ((p.process & mask(PROCESS_BITS)) << (INDEX_BITS + EPOCH_BITS))
        | ((p.index & mask(INDEX_BITS)) << EPOCH_BITS)
        | (p.epoch & mask(EPOCH_BITS))
}

pub(crate) fn decode(raw: u64) -> RawParts {
    RawParts {
        kind: raw >> (64 - KIND_BITS),
        machine: (raw >> (INDEX_BITS + EPOCH_BITS + PROCESS_BITS)) & mask(MACHINE_BITS),
        process: (raw >> (INDEX_BITS + EPOCH_BITS)) & mask(PROCESS_BITS),
        index: (raw >> EPOCH_BITS) & mask(INDEX_BITS),
        epoch: raw & mask(EPOCH_BITS),
    }
}

/// A stream handle. `Copy`; valid until the stream is destroyed. [`Stream::DEFAULT`] names the default stream
/// of the current device (CUDA's NULL stream), [`Stream::LEGACY`] and [`Stream::PER_THREAD`] the vendor's special
/// handles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Stream(pub(crate) u64);

impl Stream {
    /// The default stream (CUDA: the legacy default stream of the current device; the C value NULL).
    pub const DEFAULT: Stream = Stream(0);
    /// `cudaStreamLegacy` (`(cudaStream_t)0x1`): the legacy default stream of the current device.
    pub const LEGACY: Stream = Stream(1);
    /// `cudaStreamPerThread` (`(cudaStream_t)0x2`): the calling host thread's per-thread default stream.
    pub const PER_THREAD: Stream = Stream(2);

    /// The raw value (what the C ABI passes as the opaque pointer).
    pub fn to_raw(self) -> u64 {
        self.0
    }

    /// A handle from a raw value. Any value is accepted here; a bad one is rejected when used.
    pub fn from_raw(raw: u64) -> Stream {
        Stream(raw)
    }
}

/// An event handle. `Copy`; valid until the event is destroyed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Event(pub(crate) u64);

impl Event {
    /// The raw value (what the C ABI passes as the opaque pointer).
    pub fn to_raw(self) -> u64 {
        self.0
    }

    /// A handle from a raw value. Any value is accepted here; a bad one is rejected when used.
    pub fn from_raw(raw: u64) -> Event {
        Event(raw)
    }
}

/// A context handle (ACL `aclrtContext`). `Copy`; valid until the context is destroyed or its device reset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Context(pub(crate) u64);

impl Context {
    /// The raw value (what the C ABI passes as the opaque pointer).
    pub fn to_raw(self) -> u64 {
        self.0
    }

    /// A handle from a raw value. Any value is accepted here; a bad one is rejected when used.
    pub fn from_raw(raw: u64) -> Context {
        Context(raw)
    }
}

/// A notify handle (ACL `aclrtNotify`). `Copy`; valid until the notify is destroyed or its device reset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Notify(pub(crate) u64);

impl Notify {
    /// The raw value (what the C ABI passes as the opaque pointer).
    pub fn to_raw(self) -> u64 {
        self.0
    }

    /// A handle from a raw value. Any value is accepted here; a bad one is rejected when used.
    pub fn from_raw(raw: u64) -> Notify {
        Notify(raw)
    }
}

/// A graph handle (CUDA `cudaGraph_t`): the DAG a stream capture built. `Copy`; valid until the graph is
/// destroyed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Graph(pub(crate) u64);

impl Graph {
    /// The raw value (what the C ABI passes as the opaque pointer).
    pub fn to_raw(self) -> u64 {
        self.0
    }

    /// A handle from a raw value. Any value is accepted here; a bad one is rejected when used.
    pub fn from_raw(raw: u64) -> Graph {
        Graph(raw)
    }
}

/// An executable graph handle (CUDA `cudaGraphExec_t`, ACL `aclmdlRI`). `Copy`; valid until destroyed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GraphExec(pub(crate) u64);

impl GraphExec {
    /// The raw value (what the C ABI passes as the opaque pointer).
    pub fn to_raw(self) -> u64 {
        self.0
    }

    /// A handle from a raw value. Any value is accepted here; a bad one is rejected when used.
    pub fn from_raw(raw: u64) -> GraphExec {
        GraphExec(raw)
    }
}

/// A node of a graph (CUDA `cudaGraphNode_t`). `Copy`; valid until its graph is destroyed. The C ABI passes
/// arrays of them as arrays of opaque pointers, so it is exactly one `u64` wide.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct GraphNode(pub(crate) u64);

impl GraphNode {
    /// The raw value (what the C ABI passes as the opaque pointer).
    pub fn to_raw(self) -> u64 {
        self.0
    }

    /// A handle from a raw value. Any value is accepted here; a bad one is rejected when used.
    pub fn from_raw(raw: u64) -> GraphNode {
        GraphNode(raw)
    }
}

/// A memory pool handle (`cudaMemPool_t`, ACL `aclrtMemPool`). `Copy`; valid until the pool is destroyed or
/// its device reset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MemPool(pub(crate) u64);

impl MemPool {
    /// The raw value (what the C ABI passes as the opaque pointer).
    pub fn to_raw(self) -> u64 {
        self.0
    }

    /// A handle from a raw value. Any value is accepted here; a bad one is rejected when used.
    pub fn from_raw(raw: u64) -> MemPool {
        MemPool(raw)
    }
}

/// A notify's identity for messages and traces: process and creation ordinal (starting at 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NotifyId {
    /// The owning process.
    pub process: ProcessId,
    /// Creation ordinal in the process, starting at 1.
    pub ordinal: u32,
}

impl std::fmt::Display for NotifyId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.ordinal)
    }
}

/// Hands out the next creation ordinal from `counter` (ordinals start at 1: `StreamKind::Created`,
/// [`EventId::ordinal`], context ordinals); [`SimError::TooManyObjects`] once every `u32` ordinal has been
/// used, rather than wrapping to a number that names an earlier object.
pub(crate) fn next_ordinal(counter: &mut u32, kind: ObjectKind, process: ProcessId) -> Result<u32> {
    let n = *counter;
    if n == u32::MAX {
        return Err(SimError::TooManyObjects {
            kind,
            process,
            limit: ObjectLimit::Ordinals {
                max: u64::from(u32::MAX - 1),
            },
        });
    }
    *counter = n + 1;
    Ok(n)
}

enum Slot<T> {
    Occupied { epoch: u64, value: T },
    Vacant { epoch: u64, reset: Option<u32> },
}

/// A per-process table of live objects of one kind, addressed by index + epoch.
pub(crate) struct Registry<T> {
    kind: ObjectKind,
    tag: u64,
    machine: u64,
    process: u64,
    slots: Vec<Slot<T>>,
    free: Vec<usize>,
    /// The most slots: as many as a handle's index can address (smaller in unit tests).
    capacity: usize,
    /// The bits above index and epoch (kind, machine, process) that every handle of this registry has, for
    /// the fast path of a lookup; 1 (which no handle's masked bits equal) if they do not fit in a handle, so
    /// that the checked path decides.
    prefix: u64,
}

/// The bits of a handle above its index and epoch.
const PREFIX_MASK: u64 = !mask(INDEX_BITS + EPOCH_BITS);

impl<T> Registry<T> {
    pub fn new(kind: ObjectKind, tag: u64, machine: u64, process: u64) -> Self {
        let fits = tag <= mask(KIND_BITS)
            && machine <= mask(MACHINE_BITS)
            && process <= mask(PROCESS_BITS);
        let prefix = if fits {
            encode(RawParts {
                kind: tag,
                machine,
                process,
                index: 0,
                epoch: 0,
            })
        } else {
            1
        };
        Registry {
            kind,
            tag,
            machine,
            process,
            slots: Vec::new(),
            free: Vec::new(),
            capacity: 1 << INDEX_BITS,
            prefix,
        }
    }

    /// Whether [`Registry::insert`] can store one more value; the error says which limit it hit. A caller that
    /// must do costly work before inserting (start a stream's worker) asks first.
    pub fn has_room(&self) -> Result<()> {
        let full = |limit| SimError::TooManyObjects {
            kind: self.kind,
            process: ProcessId(u32::try_from(self.process).unwrap_or(u32::MAX)),
            limit,
        };
        if self.process > mask(PROCESS_BITS) {
            return Err(full(ObjectLimit::ProcessId {
                max: mask(PROCESS_BITS),
            }));
        }
        if self.free.is_empty() && self.slots.len() >= self.capacity {
            return Err(full(ObjectLimit::Live {
                max: self.capacity as u64,
            }));
        }
        Ok(())
    }

    /// The slot of a live handle, without building an error (the common case of every lookup); `None` sends
    /// the caller to [`Registry::locate`], which says what is wrong.
    #[inline]
    fn live_index(&self, raw: u64) -> Option<usize> {
        if raw & PREFIX_MASK != self.prefix {
            return None;
        }
        let index = ((raw >> EPOCH_BITS) & mask(INDEX_BITS)) as usize;
        match self.slots.get(index) {
            Some(Slot::Occupied { epoch, .. }) if *epoch == raw & mask(EPOCH_BITS) => Some(index),
            _ => None,
        }
    }

    /// Stores `value`, returning its raw handle; [`SimError::TooManyObjects`] (and nothing stored) if a
    /// handle could not name it (see [`Registry::has_room`]).
    pub fn insert(&mut self, value: T) -> Result<u64> {
        self.has_room()?;
        let (index, epoch) = match self.free.pop() {
            Some(index) => {
                let epoch = match self.slots[index] {
                    Slot::Vacant { epoch, .. } => epoch,
                    Slot::Occupied { .. } => {
                        unreachable!("the free list names slot {index}, which is occupied")
                    }
                };
                self.slots[index] = Slot::Occupied { epoch, value };
                (index, epoch)
            }
            None => {
                self.slots.push(Slot::Occupied { epoch: 0, value });
                (self.slots.len() - 1, 0)
            }
        };
        Ok(encode(RawParts {
            kind: self.tag,
            machine: self.machine,
            process: self.process,
            index: index as u64,
            epoch,
        }))
    }

    #[cold]
    fn locate(&self, raw: u64) -> Result<usize> {
        let bad = |problem| SimError::InvalidHandle {
            kind: self.kind,
            raw,
            problem,
        };
        let p = decode(raw);
        if p.kind != self.tag {
            return Err(bad(HandleProblem::Unknown));
        }
        if p.machine != self.machine {
            return Err(bad(HandleProblem::OtherMachine));
        }
        if p.process != self.process {
            return Err(bad(HandleProblem::Foreign {
                owner: ProcessId(p.process as u32),
            }));
        }
        match self.slots.get(p.index as usize) {
            None => Err(bad(HandleProblem::Unknown)),
            Some(Slot::Occupied { epoch, .. }) if *epoch == p.epoch => Ok(p.index as usize),
            Some(Slot::Vacant {
                epoch,
                reset: Some(device),
            }) if *epoch == p.epoch + 1 => {
                Err(bad(HandleProblem::FreedByReset { device: *device }))
            }
            Some(Slot::Occupied { epoch, .. } | Slot::Vacant { epoch, .. }) if *epoch > p.epoch => {
                Err(bad(HandleProblem::Destroyed))
            }
            Some(_) => Err(bad(HandleProblem::Unknown)),
        }
    }

    #[inline]
    pub fn get(&self, raw: u64) -> Result<&T> {
        let index = match self.live_index(raw) {
            Some(i) => i,
            None => self.locate(raw)?,
        };
        match &self.slots[index] {
            Slot::Occupied { value, .. } => Ok(value),
            Slot::Vacant { .. } => unreachable!("a lookup accepted vacant slot {index}"),
        }
    }

    #[inline]
    pub fn get_mut(&mut self, raw: u64) -> Result<&mut T> {
        let index = match self.live_index(raw) {
            Some(i) => i,
            None => self.locate(raw)?,
        };
        match &mut self.slots[index] {
            Slot::Occupied { value, .. } => Ok(value),
            Slot::Vacant { .. } => unreachable!("a lookup accepted vacant slot {index}"),
        }
    }

    pub fn remove(&mut self, raw: u64) -> Result<T> {
        self.remove_with(raw, None)
    }

    /// Removes a value because its device was reset: later use of the handle says so.
    pub fn remove_by_reset(&mut self, raw: u64, device: u32) -> Result<T> {
        self.remove_with(raw, Some(device))
    }

    fn remove_with(&mut self, raw: u64, reset: Option<u32>) -> Result<T> {
        let index = self.locate(raw)?;
        let epoch = decode(raw).epoch;
        let next = (epoch + 1) & mask(EPOCH_BITS);
        let vacant = Slot::Vacant {
            epoch: epoch + 1,
            reset,
        };
        match std::mem::replace(&mut self.slots[index], vacant) {
            Slot::Occupied { value, .. } => {
                // An exhausted epoch retires the slot rather than wrapping (a wrapped epoch could make an old
                // handle valid again).
                if next != 0 {
                    self.free.push(index);
                }
                Ok(value)
            }
            Slot::Vacant { .. } => unreachable!("locate accepted vacant slot {index}"),
        }
    }

    /// Raw handles of live values for which `pick` is true, in slot order.
    pub fn handles_where(&mut self, mut pick: impl FnMut(&T) -> bool) -> Vec<u64> {
        self.iter_mut()
            .filter(|(_, v)| pick(v))
            .map(|(h, _)| h)
            .collect()
    }

    /// Live values, in slot order.
    pub fn values(&self) -> impl Iterator<Item = &T> {
        self.slots.iter().filter_map(|s| match s {
            Slot::Occupied { value, .. } => Some(value),
            Slot::Vacant { .. } => None,
        })
    }

    /// Live values with their raw handles, in slot order.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (u64, &mut T)> {
        let (tag, machine, process) = (self.tag, self.machine, self.process);
        self.slots
            .iter_mut()
            .enumerate()
            .filter_map(move |(index, s)| match s {
                Slot::Occupied { epoch, value } => Some((
                    encode(RawParts {
                        kind: tag,
                        machine,
                        process,
                        index: index as u64,
                        epoch: *epoch,
                    }),
                    value,
                )),
                Slot::Vacant { .. } => None,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reg() -> Registry<&'static str> {
        Registry::new(ObjectKind::Stream, TAG_STREAM, 3, 1)
    }

    /// The fast path of a lookup accepts exactly the handles the checked path accepts: every live handle,
    /// and none of the handles one bit away from one (other kind, machine, process, index or epoch).
    #[test]
    fn the_fast_lookup_agrees_with_the_checked_one() {
        let mut r = reg();
        let live: Vec<u64> = (0..5).map(|_| r.insert("x").unwrap()).collect();
        r.remove(live[1]).unwrap();
        let again = r.insert("y").unwrap();
        for &h in live.iter().chain([&again]) {
            for bit in 0..64 {
                for raw in [h, h ^ (1 << bit)] {
                    assert_eq!(
                        r.live_index(raw).is_some(),
                        r.locate(raw).is_ok(),
                        "handle {raw:#x}"
                    );
                    assert_eq!(r.get(raw).is_ok(), r.locate(raw).is_ok());
                }
            }
        }
        // A registry whose process does not fit in a handle never takes the fast path, and never accepts the
        // handle its process would have if the process bits were cut off (it cannot store anything either).
        let big = Registry::<&str>::new(ObjectKind::Stream, TAG_STREAM, 3, mask(PROCESS_BITS) + 2);
        let h = encode(RawParts {
            kind: TAG_STREAM,
            machine: 3,
            process: mask(PROCESS_BITS) + 2,
            index: 0,
            epoch: 0,
        });
        assert_eq!(big.live_index(h), None);
        assert!(big.get(h).is_err());
        assert_eq!(big.get(h).is_ok(), big.locate(h).is_ok());
    }

    /// A process whose id a handle cannot encode (4096 and up): inserting is
    /// `TooManyObjects { limit: ProcessId { max: 4095 } }`, never a handle that names process `id % 4096`.
    #[test]
    fn a_process_beyond_the_handle_bits_cannot_insert() {
        let mut big = Registry::new(ObjectKind::Event, TAG_EVENT, 3, mask(PROCESS_BITS) + 1);
        assert_eq!(
            big.insert("z"),
            Err(SimError::TooManyObjects {
                kind: ObjectKind::Event,
                process: ProcessId(4096),
                limit: ObjectLimit::ProcessId { max: 4095 },
            })
        );
        assert_eq!(big.values().count(), 0, "nothing was stored");
    }

    /// A full registry: one more insert is `TooManyObjects { limit: Live { max } }` and stores nothing;
    /// after a remove the freed slot is used again. (A small capacity stands in for the real 2^22 slots.)
    #[test]
    fn a_full_registry_refuses_one_more() {
        let mut r = reg();
        r.capacity = 3;
        let live: Vec<u64> = (0..3).map(|_| r.insert("x").unwrap()).collect();
        assert_eq!(
            r.insert("y"),
            Err(SimError::TooManyObjects {
                kind: ObjectKind::Stream,
                process: ProcessId(1),
                limit: ObjectLimit::Live { max: 3 },
            })
        );
        assert_eq!(r.values().count(), 3);
        r.remove(live[1]).unwrap();
        let again = r.insert("z").unwrap();
        assert_eq!(*r.get(again).unwrap(), "z");
        assert!(r.insert("w").is_err());
        // The real capacity is every index a handle can hold.
        assert_eq!(reg().capacity as u64, mask(INDEX_BITS) + 1);
    }

    /// Ordinals count up from the counter and stop, with an error, before they would wrap.
    #[test]
    fn ordinals_stop_before_they_wrap() {
        let mut c = 1;
        assert_eq!(next_ordinal(&mut c, ObjectKind::Event, ProcessId(0)), Ok(1));
        assert_eq!(c, 2);
        let mut c = u32::MAX - 1;
        assert_eq!(
            next_ordinal(&mut c, ObjectKind::Stream, ProcessId(2)),
            Ok(u32::MAX - 1)
        );
        let err = next_ordinal(&mut c, ObjectKind::Stream, ProcessId(2));
        assert_eq!(
            err,
            Err(SimError::TooManyObjects {
                kind: ObjectKind::Stream,
                process: ProcessId(2),
                limit: ObjectLimit::Ordinals {
                    max: u64::from(u32::MAX - 1)
                },
            })
        );
        assert_eq!(c, u32::MAX, "a refused call does not move the counter");
    }

    /// An exhausted epoch retires its slot instead of wrapping: the last handle of the slot stays dead, and
    /// the next insert takes a fresh slot.
    #[test]
    fn an_exhausted_epoch_retires_the_slot() {
        let mut r = reg();
        let mut h = r.insert("a").unwrap();
        for _ in 0..mask(EPOCH_BITS) {
            r.remove(h).unwrap();
            h = r.insert("a").unwrap();
            assert_eq!(decode(h).index, 0);
        }
        assert_eq!(decode(h).epoch, mask(EPOCH_BITS));
        r.remove(h).unwrap();
        let next = r.insert("b").unwrap();
        assert_eq!(decode(next).index, 1, "slot 0 is retired");
        assert!(matches!(
            r.get(h),
            Err(SimError::InvalidHandle {
                problem: HandleProblem::Destroyed,
                ..
            })
        ));
    }

    /// The module documentation states the layout the constants make (it once said `machine 8 … epoch 18`
    /// while the code used 16 and 10 bits).
    #[test]
    fn the_documented_layout_is_the_code_s() {
        let doc = format!(
            "`[kind {KIND_BITS} | machine {MACHINE_BITS} | process {PROCESS_BITS} | index {INDEX_BITS} | epoch \
             {EPOCH_BITS}]`"
        );
        let source: String = include_str!("handle.rs")
            .lines()
            .take_while(|l| l.starts_with("//!"))
            .map(|l| l.trim_start_matches("//!").trim())
            .collect::<Vec<_>>()
            .join(" ");
        assert!(source.contains(&doc), "the module doc should contain {doc}");
        assert!(source.contains(&format!("modulo 2^{MACHINE_BITS}")));
        assert!(source.contains(&format!("up to 2^{INDEX_BITS} live")));
        assert_eq!((mask(PROCESS_BITS), mask(EPOCH_BITS) + 1), (4_095, 1_024));
        assert!(source.contains("(up to 4,095)") && source.contains("after 1,024 uses"));
        // The fields are where the doc says: kind in the top bits, epoch in the bottom ones.
        let raw = encode(RawParts {
            kind: TAG_EVENT,
            machine: 1,
            process: 1,
            index: 1,
            epoch: 1,
        });
        assert_eq!(raw >> 60, TAG_EVENT);
        assert_eq!(raw, 0xE << 60 | 1 << 44 | 1 << 32 | 1 << 10 | 1);
    }

    #[test]
    fn insert_get_remove_and_stale_handles() {
        let mut r = reg();
        let a = r.insert("a").unwrap();
        assert_eq!(*r.get(a).unwrap(), "a");
        assert!(a > 2, "never collides with the special stream handles");
        assert_eq!(r.remove(a).unwrap(), "a");
        let err = r.get(a).unwrap_err();
        assert!(matches!(
            err,
            SimError::InvalidHandle {
                problem: HandleProblem::Destroyed,
                ..
            }
        ));
        // The slot is reused with a new epoch; the old handle stays dead.
        let b = r.insert("b").unwrap();
        assert_ne!(a, b);
        assert!(r.get(a).is_err());
        assert_eq!(*r.get(b).unwrap(), "b");
    }

    #[test]
    fn a_machine_256_or_65535_ids_later_does_not_take_the_handles() {
        // Handles used to keep the machine id modulo 256.
        for later in [1u64, 256, 65_535] {
            let mut first =
                Registry::<&str>::new(ObjectKind::Stream, TAG_STREAM, machine_tag(7), 0);
            let mut second =
                Registry::<&str>::new(ObjectKind::Stream, TAG_STREAM, machine_tag(7 + later), 0);
            let a = first.insert("a").unwrap();
            second.insert("b").unwrap();
            assert!(
                matches!(
                    second.get(a),
                    Err(SimError::InvalidHandle {
                        problem: HandleProblem::OtherMachine,
                        ..
                    })
                ),
                "{later} ids later"
            );
        }
    }

    #[test]
    fn foreign_forged_and_wrong_kind_handles() {
        let mut r = reg();
        let a = r.insert("a").unwrap();
        let mut other = Registry::<&str>::new(ObjectKind::Stream, TAG_STREAM, 3, 2);
        let foreign = other.insert("x").unwrap();
        assert!(matches!(
            r.get(foreign),
            Err(SimError::InvalidHandle {
                problem: HandleProblem::Foreign {
                    owner: ProcessId(2)
                },
                ..
            })
        ));
        let mut events = Registry::<&str>::new(ObjectKind::Event, TAG_EVENT, 3, 1);
        let e = events.insert("e").unwrap();
        assert!(matches!(
            r.get(e),
            Err(SimError::InvalidHandle {
                problem: HandleProblem::Unknown,
                ..
            })
        ));
        for garbage in [
            0u64,
            1,
            2,
            0xdead_beef,
            u64::MAX,
            a + (1 << EPOCH_BITS) * 100,
        ] {
            assert!(r.get(garbage).is_err(), "{garbage:#x}");
        }
        let mut m = Registry::<&str>::new(ObjectKind::Stream, TAG_STREAM, 4, 1);
        let elsewhere = m.insert("m").unwrap();
        assert!(matches!(
            r.get(elsewhere),
            Err(SimError::InvalidHandle {
                problem: HandleProblem::OtherMachine,
                ..
            })
        ));
    }
}
