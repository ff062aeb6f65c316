//! A block of memory: one allocation's bytes (the simulator's own, or registered program memory), the lock
//! that serialises the simulator's accesses to them, and its shadow for race detection; and [`Region`], a
//! bounds-checked range of one block. Addresses and allocation tables are in `memory.rs`.
//!
//! Lock order: see `memory.rs` (two block locks are taken in [`Block::lock_first`] order).

use std::sync::Arc;

use parking_lot::Mutex;

use crate::engine::handle::ProcessId;
use crate::engine::memory::AddressSpace;

/// The bytes of a block: the simulator's own, or host memory the program registered.
pub(crate) enum Backing {
    /// Bytes the simulator allocated (device memory, pinned host buffers).
    Owned(Box<[u8]>),
    /// `len` bytes of the program's memory at `ptr`, registered with `register_host` (`cudaHostRegister`).
    Registered { ptr: *mut u8, len: usize },
    /// A registered range that was unregistered: operations still holding the block (queued before the
    /// unregistration, which the vendor leaves undefined) see no bytes, so they never touch memory the program
    /// may have freed since.
    Detached,
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
            // SAFETY: see `Send` above: valid for `len` bytes while registered.
            Backing::Registered { ptr, len } => unsafe { std::slice::from_raw_parts(*ptr, *len) },
            Backing::Detached => &[],
        }
    }
}

impl std::ops::DerefMut for Backing {
    fn deref_mut(&mut self) -> &mut [u8] {
        match self {
            Backing::Owned(b) => b,
            // SAFETY: as for `Deref`; the `&mut self` is the block lock's guard, so no other simulator access.
            Backing::Registered { ptr, len } => unsafe {
                std::slice::from_raw_parts_mut(*ptr, *len)
            },
            Backing::Detached => &mut [],
        }
    }
}

impl Backing {
    pub(crate) fn is_detached(&self) -> bool {
        matches!(self, Backing::Detached)
    }
}

impl std::fmt::Debug for Backing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Backing::Owned(b) => write!(f, "Owned({} bytes)", b.len()),
            Backing::Registered { ptr, len } => write!(f, "Registered({ptr:p}, {len} bytes)"),
            Backing::Detached => f.write_str("Detached"),
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
    pub(crate) bytes: Mutex<Backing>,
    /// Who accessed which bytes, for race detection (see `race/shadow.rs`).
    pub shadow: Mutex<crate::engine::race::shadow::Shadow>,
}

impl Block {
    // A detached block (an unregistered range) has no bytes: accesses to it do nothing. Any other block is
    // always accessed inside its bounds (the regions are range-checked), so indexing past them is a bug.

    pub fn read(&self, offset: u64, out: &mut [u8]) {
        let b = self.bytes.lock();
        if !b.is_detached() {
            out.copy_from_slice(&b[offset as usize..offset as usize + out.len()]);
        }
    }

    pub fn write(&self, offset: u64, data: &[u8]) {
        let mut b = self.bytes.lock();
        if !b.is_detached() {
            b[offset as usize..offset as usize + data.len()].copy_from_slice(data);
        }
    }

    pub fn fill(&self, offset: u64, len: u64, value: u8) {
        let mut b = self.bytes.lock();
        if !b.is_detached() {
            b[offset as usize..(offset + len) as usize].fill(value);
        }
    }

    /// Copies `len` bytes from `(src, src_off)` to `(dst, dst_off)`; both may be the same block.
    ///
    /// Two blocks are locked in [`Block::lock_first`] order, a total order on live blocks. (It used to be the
    /// blocks' simulated base addresses, which are not unique: a freed block still referenced by a queued copy
    /// and a new block at the same reused base compared equal, so a copy each way between them took the two
    /// locks in opposite orders and could deadlock.)
    pub fn copy(src: &Block, src_off: u64, dst: &Block, dst_off: u64, len: u64) {
        let (s, d, n) = (src_off as usize, dst_off as usize, len as usize);
        let copy = |db: &mut Backing, sb: &Backing| {
            if !db.is_detached() && !sb.is_detached() {
                db[d..d + n].copy_from_slice(&sb[s..s + n]);
            }
        };
        if std::ptr::eq(src, dst) {
            let mut b = src.bytes.lock();
            if !b.is_detached() {
                b.copy_within(s..s + n, d);
            }
        } else if Block::lock_first(src, dst) {
            let sb = src.bytes.lock();
            let mut db = dst.bytes.lock();
            copy(&mut db, &sb);
        } else {
            let mut db = dst.bytes.lock();
            let sb = src.bytes.lock();
            copy(&mut db, &sb);
        }
    }

    /// Whether `a`'s bytes are locked before `b`'s when both are needed: by the blocks' addresses in the
    /// simulator's own memory, which are distinct for any two live blocks (both are borrowed here), whatever
    /// simulated addresses they have.
    pub(crate) fn lock_first(a: &Block, b: &Block) -> bool {
        std::ptr::from_ref(a) < std::ptr::from_ref(b)
    }
}

/// A resolved address range: a live block and an offset into it, bounds-checked.
#[derive(Debug, Clone)]
pub(crate) struct Region {
    pub block: Arc<Block>,
    pub offset: u64,
    pub len: u64,
}
