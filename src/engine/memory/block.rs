//! A block of memory: one allocation (or IPC mapping), its [`Store`] — the bytes (the simulator's own,
//! registered program memory, a shared-memory object, or a range of a pool's chunk), the lock that serialises
//! the simulator's accesses to them, and the shadow for race detection; and [`Region`], a bounds-checked range
//! of one block. Addresses and allocation tables are in `memory.rs`.
//!
//! Lock order: see `memory.rs` (two block locks are taken in [`Block::lock_first`] order).

use std::sync::Arc;

use parking_lot::Mutex;

use crate::engine::core::handle::ProcessId;
use crate::engine::core::pointers::AddressSpace;

/// The bytes of a block: the simulator's own, or host memory the program registered.
pub(crate) enum Backing {
    /// Bytes the simulator allocated (device memory, pinned host buffers).
    Owned(Box<[u8]>),
    /// Managed memory's bytes: reserved address space, backed by zeroed pages when touched (`lazy.rs`).
    Lazy(crate::engine::memory::lazy::LazyBytes),
    /// `len` bytes of the program's memory at `ptr`, registered with `register_host` (`cudaHostRegister`).
    Registered { ptr: *mut u8, len: usize },
    /// A registered range that was unregistered: operations still holding the block (queued before the
    /// unregistration, which the vendor leaves undefined) see no bytes, so they never touch memory the program
    /// may have freed since.
    Detached,
    /// Device memory exported on a shared host, or imported from one: the bytes live in a shared-memory object
    /// mapped by every OS process that uses them (`host/shared_mem.rs`).
    Shared(Arc<crate::engine::host::shared_mem::Mapping>),
    /// `len` bytes at `offset` of a memory pool's chunk (`pool.rs`): a stream-ordered allocation. Blocks that
    /// reuse the same range of a chunk share its bytes, as allocations that reuse freed memory do on hardware.
    Pool {
        chunk: Arc<Chunk>,
        offset: usize,
        len: usize,
    },
}

/// The bytes of one physical allocation of a memory pool, shared by the blocks (allocations) carved from it.
/// Locked after the locks of the blocks that use it, in the order of the chunks' own addresses.
#[derive(Debug)]
pub(crate) struct Chunk {
    bytes: Mutex<Box<[u8]>>,
}

impl Chunk {
    pub(crate) fn new(bytes: Box<[u8]>) -> Chunk {
        Chunk {
            bytes: Mutex::new(bytes),
        }
    }
}

// SAFETY: a `Registered` range is host memory the C caller promised stays valid while registered; the block's
// lock serialises the simulator's own accesses to it (the program's direct accesses race with copies exactly as
// on hardware). The other variants own their bytes or have none.
unsafe impl Send for Backing {}

impl std::ops::Deref for Backing {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Backing::Owned(b) => b,
            Backing::Lazy(m) => m.as_slice(),
            // SAFETY: see `Send` above: valid for `len` bytes while registered.
            Backing::Registered { ptr, len } => unsafe { std::slice::from_raw_parts(*ptr, *len) },
            Backing::Detached => &[],
            Backing::Shared(_) => {
                unreachable!("shared bytes are read through their mapping's raw pointer")
            }
            Backing::Pool { .. } => unreachable!("a pool block's bytes are read through its chunk"),
        }
    }
}

impl std::ops::DerefMut for Backing {
    fn deref_mut(&mut self) -> &mut [u8] {
        match self {
            Backing::Owned(b) => b,
            Backing::Lazy(m) => m.as_mut_slice(),
            // SAFETY: as for `Deref`; the `&mut self` is the block lock's guard, so no other simulator access.
            Backing::Registered { ptr, len } => unsafe {
                std::slice::from_raw_parts_mut(*ptr, *len)
            },
            Backing::Detached => &mut [],
            Backing::Shared(_) => {
                unreachable!("shared bytes are written through their mapping's raw pointer")
            }
            Backing::Pool { .. } => {
                unreachable!("a pool block's bytes are written through its chunk")
            }
        }
    }
}

impl std::fmt::Debug for Backing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Backing::Owned(b) => write!(f, "Owned({} bytes)", b.len()),
            Backing::Lazy(m) => write!(f, "Lazy({} bytes)", m.len()),
            Backing::Registered { ptr, len } => write!(f, "Registered({ptr:p}, {len} bytes)"),
            Backing::Detached => f.write_str("Detached"),
            Backing::Shared(m) => write!(f, "Shared({} bytes)", m.len()),
            Backing::Pool { offset, len, .. } => write!(f, "Pool({len} bytes at {offset})"),
        }
    }
}

/// What a pinned host block is beyond its bytes (see `host_memory.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HostBlock {
    /// The device that was current when it was allocated or registered (ACL threads may have none).
    pub device: Option<u32>,
    /// Registered program memory (`register_host`) rather than a pinned allocation.
    pub registered: bool,
}

/// One allocation's bytes. The bytes sit behind a lock so that racing copies are serialised (a racy
/// program gets some interleaving, never undefined behaviour on the simulator's side).
#[derive(Debug)]
pub(crate) struct Block {
    pub base: u64,
    pub len: u64,
    pub owner: ProcessId,
    pub space: AddressSpace,
    /// The allocation's number in its address space (device: per device; pinned: per machine), in allocation
    /// order: deterministic where the address is not (pinned buffers are real host memory).
    pub ordinal: u64,
    /// Pinned host blocks: where they come from.
    pub host: Option<HostBlock>,
    /// The bytes and their access records: the allocation's own, or, for an IPC mapping, those of the exported
    /// allocation (shared with it), from `store_off` on.
    pub store: Arc<Store>,
    /// Where this block's byte 0 is in `store` (0 but for an IPC mapping of part of an allocation).
    pub store_off: u64,
    /// An IPC mapping (`ipc_memory.rs`) rather than an allocation: unmapped with its close call, not freed.
    pub mapping: bool,
    /// Where the program allocated it, when its build said (`site.rs`).
    pub site: Option<crate::engine::memory::site::Site>,
}

/// The bytes of an allocation and who accessed them: owned by the allocation's block and by the IPC mappings
/// of it (an importing process's block of the same bytes), so the bytes live until the last of them goes. A
/// stream-ordered allocation has a store of its own (its access records and lifetime are the allocation's)
/// whose bytes are a range of its pool's chunk.
#[derive(Debug)]
pub(crate) struct Store {
    bytes: Mutex<Backing>,
    /// Who accessed which bytes, for race detection (see `race/shadow.rs`); offsets are the store's.
    pub shadow: Mutex<crate::engine::observe::race::shadow::Shadow>,
    /// Exported on a shared host or imported from one: the slot whose shadow sees the accesses of every OS
    /// process (`host/shared_mem.rs`).
    pub shared: std::sync::OnceLock<Arc<crate::engine::host::shared_mem::SharedMem>>,
    /// initcheck: which bytes were written since the allocation (`init.rs`); `None` when it is off, and for
    /// memory it does not check (host memory, managed memory).
    pub init: Option<crate::engine::memory::init::InitBits>,
}

impl Store {
    pub fn new(backing: Backing) -> Arc<Store> {
        Arc::new(Store {
            bytes: Mutex::new(backing),
            shadow: Mutex::default(),
            shared: std::sync::OnceLock::new(),
            init: None,
        })
    }

    /// A device allocation's store of `len` bytes, with initcheck's record when initcheck is on.
    pub fn with_init(backing: Backing, len: u64) -> Arc<Store> {
        Arc::new(Store {
            bytes: Mutex::new(backing),
            shadow: Mutex::default(),
            shared: std::sync::OnceLock::new(),
            init: crate::engine::memory::init::InitBits::for_new(len),
        })
    }

    /// Marks `[off, off + len)` of the store written (initcheck).
    fn written(&self, off: u64, len: u64) {
        if let Some(bits) = &self.init {
            bits.mark(off, len);
        }
    }

    /// Runs `f` on the bytes, under their lock (exporting to a shared host swaps the backing in place).
    pub fn with_backing<R>(&self, f: impl FnOnce(&mut Backing) -> R) -> R {
        f(&mut self.bytes.lock())
    }
}

impl Block {
    pub(crate) fn bytes(&self) -> &Mutex<Backing> {
        &self.store.bytes
    }

    /// Where byte 0 of the block is in the host's memory, for a kernel that runs on the CPU (`streamsim cc`)
    /// and reads and writes the bytes directly, as a GPU's threads do: valid while the block is held. `None`
    /// for a detached (unregistered) range, which has no bytes.
    ///
    /// The kernel's accesses are not under the block's lock: two streams that race on the bytes race on the
    /// host too (with the host's memory model), which is the program's race, as on hardware; an ordered
    /// program never has a copy and a kernel on the same bytes at once.
    pub(crate) fn host_ptr(&self) -> Option<*mut u8> {
        let mut b = self.bytes().lock();
        let base: *mut u8 = match &mut *b {
            Backing::Owned(bytes) => bytes.as_mut_ptr(),
            Backing::Lazy(m) => m.as_ptr(),
            Backing::Registered { ptr, .. } => *ptr,
            Backing::Detached => return None,
            Backing::Shared(m) => m.base_ptr(),
            Backing::Pool { chunk, offset, .. } => {
                // SAFETY: `offset` lies in the chunk (the pool carved the block from it).
                unsafe { chunk.bytes.lock().as_mut_ptr().add(*offset) }
            }
        };
        // SAFETY: `store_off` lies in the store (an IPC mapping of part of an allocation).
        Some(unsafe { base.add(self.store_off as usize) })
    }

    // A detached block (an unregistered range) has no bytes: accesses to it do nothing. Any other block is
    // always accessed inside its bounds (the regions are range-checked), so indexing past them is a bug.

    pub fn read(&self, offset: u64, out: &mut [u8]) {
        let offset = offset + self.store_off;
        let mut b = self.bytes().lock();
        read_locked(&mut b, offset as usize, out);
    }

    pub fn write(&self, offset: u64, data: &[u8]) {
        let offset = offset + self.store_off;
        self.store.written(offset, data.len() as u64);
        let mut b = self.bytes().lock();
        write_locked(&mut b, offset as usize, data);
    }

    pub fn fill(&self, offset: u64, len: u64, value: u8) {
        let offset = offset + self.store_off;
        self.store.written(offset, len);
        let mut b = self.bytes().lock();
        if let Backing::Shared(m) = &*b {
            m.fill(offset as usize, len as usize, value);
            return;
        }
        with_bytes(&mut b, |bytes| {
            bytes[offset as usize..(offset + len) as usize].fill(value);
        });
    }

    /// Copies `len` bytes from `(src, src_off)` to `(dst, dst_off)`; both may be the same block.
    ///
    /// Two blocks are locked in [`Block::lock_first`] order, a total order on live stores. (It used to be the
    /// blocks' simulated base addresses, which are not unique: a freed block still referenced by a queued copy
    /// and a new block at the same reused base compared equal, so a copy each way between them took the two
    /// locks in opposite orders and could deadlock.) The chunks of pool blocks are locked after both, in the
    /// order of their addresses; two blocks of one chunk lock it once.
    pub fn copy(src: &Block, src_off: u64, dst: &Block, dst_off: u64, len: u64) {
        let (s, d, n) = (
            (src_off + src.store_off) as usize,
            (dst_off + dst.store_off) as usize,
            len as usize,
        );
        dst.store.written(d as u64, len);
        if Arc::ptr_eq(&src.store, &dst.store) {
            // One allocation, or an allocation and an IPC mapping of it: one lock.
            let mut b = src.bytes().lock();
            if let Backing::Shared(m) = &*b {
                m.copy_within(s, d, n);
                return;
            }
            with_bytes(&mut b, |bytes| bytes.copy_within(s..s + n, d));
            return;
        }
        let (mut sb, mut db) = if Block::lock_first(src, dst) {
            let sb = src.bytes().lock();
            (sb, dst.bytes().lock())
        } else {
            let db = dst.bytes().lock();
            (src.bytes().lock(), db)
        };
        let shared = |b: &Backing| matches!(b, Backing::Shared(_));
        let detached = |b: &Backing| matches!(b, Backing::Detached);
        if (shared(&sb) || shared(&db)) && !detached(&sb) && !detached(&db) {
            // Shared bytes are never borrowed as a slice (`host/shared_mem.rs`): through a buffer.
            let mut tmp = vec![0u8; n];
            read_locked(&mut sb, s, &mut tmp);
            write_locked(&mut db, d, &tmp);
            return;
        }
        match (&mut *sb, &mut *db) {
            (Backing::Detached, _) | (_, Backing::Detached) => {}
            (
                Backing::Pool {
                    chunk: sc,
                    offset: so,
                    ..
                },
                Backing::Pool {
                    chunk: dc,
                    offset: dof,
                    ..
                },
            ) => {
                let (so, dof) = (*so, *dof);
                if Arc::ptr_eq(sc, dc) {
                    sc.bytes.lock().copy_within(so + s..so + s + n, dof + d);
                } else if Arc::as_ptr(sc) < Arc::as_ptr(dc) {
                    let sbytes = sc.bytes.lock();
                    let mut dbytes = dc.bytes.lock();
                    dbytes[dof + d..dof + d + n].copy_from_slice(&sbytes[so + s..so + s + n]);
                } else {
                    let mut dbytes = dc.bytes.lock();
                    let sbytes = sc.bytes.lock();
                    dbytes[dof + d..dof + d + n].copy_from_slice(&sbytes[so + s..so + s + n]);
                }
            }
            (Backing::Pool { chunk, offset, .. }, other) => {
                let c = chunk.bytes.lock();
                other[d..d + n].copy_from_slice(&c[*offset + s..*offset + s + n]);
            }
            (other, Backing::Pool { chunk, offset, .. }) => {
                let mut c = chunk.bytes.lock();
                c[*offset + d..*offset + d + n].copy_from_slice(&other[s..s + n]);
            }
            (sb, db) => db[d..d + n].copy_from_slice(&sb[s..s + n]),
        }
    }

    /// Whether the block is an allocation of a memory pool (its bytes are a range of a pool chunk).
    pub(crate) fn pooled(&self) -> bool {
        matches!(*self.bytes().lock(), Backing::Pool { .. })
    }

    /// Whether `a`'s bytes are locked before `b`'s when both are needed: by the addresses of their stores in
    /// the simulator's own memory, which are distinct for any two live stores (both are borrowed here),
    /// whatever simulated addresses the blocks have.
    pub(crate) fn lock_first(a: &Block, b: &Block) -> bool {
        Arc::as_ptr(&a.store) < Arc::as_ptr(&b.store)
    }
}

/// Runs `f` on a locked block's bytes: its own, or its range of a pool chunk (locked here); nothing for a
/// detached block.
fn with_bytes(b: &mut Backing, f: impl FnOnce(&mut [u8])) {
    match b {
        Backing::Detached => {}
        Backing::Pool { chunk, offset, len } => {
            let mut c = chunk.bytes.lock();
            f(&mut c[*offset..*offset + *len]);
        }
        other => f(other),
    }
}

/// Copies bytes `off..off + out.len()` of a locked block's bytes into `out` (nothing for a detached block).
fn read_locked(b: &mut Backing, off: usize, out: &mut [u8]) {
    match b {
        Backing::Shared(m) => m.read(off, out),
        other => with_bytes(other, |bytes| {
            out.copy_from_slice(&bytes[off..off + out.len()]);
        }),
    }
}

/// Copies `data` to offset `off` of a locked block's bytes (nothing for a detached block).
fn write_locked(b: &mut Backing, off: usize, data: &[u8]) {
    match b {
        Backing::Shared(m) => m.write(off, data),
        other => with_bytes(other, |bytes| {
            bytes[off..off + data.len()].copy_from_slice(data);
        }),
    }
}

/// A resolved address range: a live block and an offset into it, bounds-checked.
#[derive(Debug, Clone)]
pub(crate) struct Region {
    pub block: Arc<Block>,
    pub offset: u64,
    pub len: u64,
}
