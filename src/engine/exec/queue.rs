//! A stream's operation queue: unbounded, first in first out, one producer and one consumer.
//!
//! The producer is the code enqueueing on the stream (always under the process's state lock, so one at a
//! time); the consumer is the stream's worker thread. Enqueueing is on the hot path of every runtime call that
//! launches work, so a push takes no lock: it writes a slot and publishes the new length with one atomic store.
//! The consumer reads slots up to the published length; when there are none it polls briefly, then sleeps on
//! a condition variable (workers never spin while idle).
//!
//! Slots live in blocks of [`BLOCK`] linked in order. The producer links a new block before it publishes the
//! first slot in it; the consumer, once it has read past a block, hands it back through a one-block spare
//! (so a busy stream allocates almost nothing) or frees it.
//!
//! Sleeping without lost wake-ups: the consumer sets `sleeping`, then reads the length; the producer writes
//! the length, then reads `sleeping`. A fence between the write and the read on both sides makes at least one
//! side see the other's write: either the consumer sees the new item and does not sleep, or the producer sees
//! the sleeper and wakes it under the lock the sleeper holds until it waits. The fence is asymmetric (see
//! [`fence`]): on Linux the consumer, which goes to sleep rarely, pays for a `membarrier(2)` system call, and
//! the producer, which pushes on every launch, pays nothing but a compiler fence. Elsewhere (and under Miri)
//! both sides use `fence(SeqCst)`.
//!
//! Everything unsafe in this module is about the slots. The invariants:
//! - slot `i` (counting from 0 over the queue's life) lives in the block reached by following `next`
//!   `i / BLOCK` times from the first block, at index `i % BLOCK`;
//! - only the producer writes slots, only at index `tail`, before publishing `tail + 1`;
//! - only the consumer reads slots, only below a `tail` it loaded (`Acquire`), each exactly once (`head`
//!   counts them); a read moves the value out, so a slot below `head` is logically uninitialised;
//! - a block is released by the consumer only after every slot in it was read, which means the producer has
//!   already moved on to a later block and never touches it again.

use std::cell::UnsafeCell;
use std::mem::MaybeUninit;
use std::ptr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, Ordering};
use std::time::Duration;

use parking_lot::{Condvar, Mutex};

/// Slots per block.
const BLOCK: usize = 1024;

/// How many polls (spin-loop hints, then yields) an idle consumer makes before it sleeps.
const POLLS: u32 = 64;

/// How a consumer that had caught up lets items accumulate before it reads them. Without it a consumer as fast
/// as its producer reads each item right after it is written, and the two cores pass the same cache lines back
/// and forth on every item. It first waits [`GATHER_FIRST`] spin-loop hints; while the producer keeps pushing,
/// it goes on waiting [`GATHER_SPINS`] at a time, up to [`GATHER_ROUNDS`] times or until a block's worth is
/// queued. So a lone item (a launch followed by a synchronize) waits a microsecond or so, and a busy producer
/// hands over long batches.
const GATHER_FIRST: u32 = 64;
const GATHER_SPINS: u32 = 512;
const GATHER_ROUNDS: u32 = 16;

/// How many slots ahead of the one it writes the producer prefetches for writing. Slots are reused (a drained
/// block becomes the spare), so the line a push writes was last read by the worker's core; taking it back costs
/// a cross-core round trip, which the process lock's release right after the push would otherwise wait for.
/// Asking a few pushes early hides it (measured: about a quarter of a launch).
const PREFETCH_AHEAD: usize = 4;

/// Starts moving the cache line at `p` to this core in a writable state (`prefetchw`); a hint with no effect on
/// what the program computes, and nothing on other architectures (or under Miri). `prefetchw` never faults, and executes as a
/// no-op on x86-64 processors that lack it.
#[inline(always)]
fn prefetch_for_write<T>(p: *const T) {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    // SAFETY: a prefetch reads no memory architecturally, writes none and cannot fault, whatever `p` is.
    unsafe {
        std::arch::asm!("prefetchw [{0}]", in(reg) p, options(nostack, preserves_flags, readonly));
    }
    #[cfg(not(all(target_arch = "x86_64", not(miri))))]
    let _ = p;
}

/// An asymmetric store-load fence: [`fence::light`] on the frequent side, [`fence::heavy`] on the rare one.
/// Together they order a store before a later load on each side, like `fence(SeqCst)` on both.
///
/// The heavy side is `membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)`, which returns once every running thread
/// of the process has passed a full memory barrier (the technique of liburcu and folly's
/// `asymmetricHeavyBarrier`). [`fence::init`] registers for it once; if the kernel lacks it, both sides fall
/// back to `fence(SeqCst)`.
mod fence {
    use std::sync::Once;
    use std::sync::atomic::{AtomicBool, Ordering, compiler_fence};

    /// Whether the heavy side is the system call (set once by `init`, before any queue exists).
    static EXPEDITED: AtomicBool = AtomicBool::new(false);
    static INIT: Once = Once::new();

    /// Chooses the implementation; called when a queue is made, so before either side of it runs.
    pub(super) fn init() {
        INIT.call_once(|| EXPEDITED.store(register(), Ordering::Relaxed));
    }

    /// The frequent side.
    #[inline(always)]
    pub(super) fn light() {
        if EXPEDITED.load(Ordering::Relaxed) {
            compiler_fence(Ordering::SeqCst);
        } else {
            std::sync::atomic::fence(Ordering::SeqCst);
        }
    }

    /// The rare side. `false` if the system call failed after a successful registration (not expected): the
    /// caller must then not rely on the fence, and polls instead of sleeping.
    pub(super) fn heavy() -> bool {
        std::sync::atomic::fence(Ordering::SeqCst);
        if EXPEDITED.load(Ordering::Relaxed) {
            membarrier(PRIVATE_EXPEDITED)
        } else {
            true
        }
    }

    const QUERY: i32 = 0;
    const PRIVATE_EXPEDITED: i32 = 1 << 3;
    const REGISTER_PRIVATE_EXPEDITED: i32 = 1 << 4;

    #[cfg(all(target_os = "linux", not(miri)))]
    fn membarrier(cmd: i32) -> bool {
        // SAFETY: membarrier(2) takes two integers and touches no memory of ours.
        unsafe { libc::syscall(libc::SYS_membarrier, cmd, 0u32, 0i32) == 0 }
    }

    #[cfg(not(all(target_os = "linux", not(miri))))]
    fn membarrier(_cmd: i32) -> bool {
        false
    }

    fn register() -> bool {
        if std::env::var_os("STREAMSIM_NO_MEMBARRIER").is_some() {
            return false;
        }
        #[cfg(all(target_os = "linux", not(miri)))]
        {
            // SAFETY: as in `membarrier`; the query returns a bit mask of the supported commands, or -1.
            let supported = unsafe { libc::syscall(libc::SYS_membarrier, QUERY, 0u32, 0i32) };
            let needed = i64::from(PRIVATE_EXPEDITED | REGISTER_PRIVATE_EXPEDITED);
            if supported < 0 || supported & needed != needed {
                return false;
            }
            membarrier(REGISTER_PRIVATE_EXPEDITED)
        }
        #[cfg(not(all(target_os = "linux", not(miri))))]
        {
            let _ = (QUERY, REGISTER_PRIVATE_EXPEDITED);
            false
        }
    }
}

struct Block<T> {
    next: AtomicPtr<Block<T>>,
    slots: [UnsafeCell<MaybeUninit<T>>; BLOCK],
}

impl<T> Block<T> {
    fn alloc() -> *mut Block<T> {
        Box::into_raw(Box::new(Block {
            next: AtomicPtr::new(ptr::null_mut()),
            slots: [const { UnsafeCell::new(MaybeUninit::uninit()) }; BLOCK],
        }))
    }

    /// Frees a block allocated by [`Block::alloc`], without dropping any slot.
    ///
    /// # Safety
    /// `b` came from `Block::alloc`, is not freed yet, and nothing uses it afterwards.
    unsafe fn free(b: *mut Block<T>) {
        // SAFETY: by the caller's contract; slots are `MaybeUninit`, so nothing is dropped.
        drop(unsafe { Box::from_raw(b) });
    }
}

/// Where one side is: the current block and the count of slots it has passed.
struct Cursor<T> {
    block: *mut Block<T>,
    index: u64,
}

/// Aligns what it holds to its own cache lines (128 bytes: adjacent-line prefetching pairs lines).
#[repr(align(128))]
struct Line<T>(T);

struct Shared<T> {
    /// Slots written so far (published by the producer with `Release`), and whether the consumer sleeps: on
    /// one line, which the producer writes and reads on every push and the consumer reads once per batch.
    tail: Line<(AtomicU64, AtomicBool)>,
    /// The producer's cursor (only the producer touches it, or `Drop` with exclusive access).
    producer: Line<UnsafeCell<Cursor<T>>>,
    /// The consumer's cursor (only the consumer touches it, or `Drop`).
    consumer: Line<UnsafeCell<Cursor<T>>>,
    /// A drained block kept for the producer's next one.
    spare: AtomicPtr<Block<T>>,
    /// The producer is gone: once the queue is drained, the consumer is done.
    closed: AtomicBool,
    lock: Mutex<()>,
    cv: Condvar,
}

// SAFETY: the cursors are each used by one side only (see the module's invariants); items move from the
// producer's thread to the consumer's, hence `T: Send`.
unsafe impl<T: Send> Send for Shared<T> {}
// SAFETY: as above.
unsafe impl<T: Send> Sync for Shared<T> {}

impl<T> Shared<T> {
    fn len(&self) -> &AtomicU64 {
        &self.tail.0.0
    }

    fn sleeping(&self) -> &AtomicBool {
        &self.tail.0.1
    }
}

impl<T> Drop for Shared<T> {
    fn drop(&mut self) {
        // Both sides are gone: drop the items never read, then free every block.
        let tail = *self.tail.0.0.get_mut();
        let c = self.consumer.0.get_mut();
        let (mut block, mut index) = (c.block, c.index);
        while index < tail {
            if index > 0 && (index as usize).is_multiple_of(BLOCK) {
                // SAFETY: the producer linked this block before publishing a slot in it.
                let next = unsafe { (*block).next.load(Ordering::Acquire) };
                // SAFETY: every slot of `block` has been read or dropped; nothing points into it.
                unsafe { Block::free(block) };
                block = next;
            }
            // SAFETY: slot `index` is below `tail`, so written, and not read (it is not below `head`).
            unsafe { (*(*block).slots[index as usize % BLOCK].get()).assume_init_drop() };
            index += 1;
        }
        // Blocks the producer linked after the last slot: at most the one it was about to fill.
        while !block.is_null() {
            // SAFETY: `block` is ours alone now.
            let next = unsafe { (*block).next.load(Ordering::Acquire) };
            // SAFETY: as above; its remaining slots were never written.
            unsafe { Block::free(block) };
            block = next;
        }
        let spare = *self.spare.get_mut();
        if !spare.is_null() {
            // SAFETY: the spare belongs to the queue and is referenced nowhere else.
            unsafe { Block::free(spare) };
        }
    }
}

/// The sending side. Dropping it closes the queue: the consumer finishes what is queued, then stops.
pub(crate) struct Sender<T> {
    q: Arc<Shared<T>>,
}

/// The receiving side.
pub(crate) struct Receiver<T> {
    q: Arc<Shared<T>>,
}

/// A new empty queue.
pub(crate) fn channel<T: Send>() -> (Sender<T>, Receiver<T>) {
    fence::init();
    let first = Block::alloc();
    let q = Arc::new(Shared {
        tail: Line((AtomicU64::new(0), AtomicBool::new(false))),
        producer: Line(UnsafeCell::new(Cursor {
            block: first,
            index: 0,
        })),
        consumer: Line(UnsafeCell::new(Cursor {
            block: first,
            index: 0,
        })),
        spare: AtomicPtr::new(ptr::null_mut()),
        closed: AtomicBool::new(false),
        lock: Mutex::new(()),
        cv: Condvar::new(),
    });
    (Sender { q: q.clone() }, Receiver { q })
}

impl<T> Sender<T> {
    /// Appends `item`. Never blocks: the queue is unbounded. Takes `&mut self` because there is one producer.
    #[inline]
    pub fn send(&mut self, item: T) {
        // SAFETY: `&mut self` on the only `Sender` makes this the only access to the producer's cursor.
        let p = unsafe { &mut *self.q.producer.0.get() };
        let slot = p.index as usize % BLOCK;
        if slot == 0 && p.index > 0 {
            self.next_block(p);
        }
        // SAFETY: slot `index` of the current block has never been written and the consumer does not read it
        // before `len` says so.
        unsafe { (*(*p.block).slots[slot].get()).write(item) };
        p.index += 1;
        // Ask for a slot a few pushes ahead in writable state now (see `PREFETCH_AHEAD`).
        let ahead = (p.index as usize + PREFETCH_AHEAD) % BLOCK;
        if ahead >= PREFETCH_AHEAD {
            // SAFETY: `ahead` is a slot of the current block; only its address is taken.
            prefetch_for_write(unsafe { (*p.block).slots[ahead].get() });
        }
        self.q.len().store(p.index, Ordering::Release);
        fence::light();
        if self.q.sleeping().load(Ordering::Relaxed) {
            self.wake();
        }
    }

    #[cold]
    fn next_block(&self, p: &mut Cursor<T>) {
        let mut b = self.q.spare.swap(ptr::null_mut(), Ordering::Acquire);
        if b.is_null() {
            b = Block::alloc();
        }
        // SAFETY: the current block is alive: the consumer releases a block only once it reads a slot of the
        // next one, and no slot of the next one is published yet. Release: the consumer follows `next` after it
        // loads a `len` covering the new block's first slot.
        unsafe { (*p.block).next.store(b, Ordering::Release) };
        p.block = b;
    }

    #[cold]
    fn wake(&self) {
        let _g = self.q.lock.lock();
        if self.q.sleeping().swap(false, Ordering::Relaxed) {
            self.q.cv.notify_one();
        }
    }
}

impl<T> Drop for Sender<T> {
    fn drop(&mut self) {
        self.q.closed.store(true, Ordering::Release);
        let _g = self.q.lock.lock();
        self.q.sleeping().store(false, Ordering::Relaxed);
        self.q.cv.notify_one();
    }
}

impl<T> Receiver<T> {
    /// Waits until there is at least one item (polling briefly, then sleeping), then hands every item queued
    /// at that moment to `f`, in order. Returns `false`, without calling `f`, once the sender is gone and
    /// everything has been handed out.
    pub fn drain(&mut self, mut f: impl FnMut(T)) -> bool {
        let Some(len) = self.wait() else {
            return false;
        };
        // SAFETY: `&mut self` on the only `Receiver` makes this the only access to the consumer's cursor.
        let c = unsafe { &mut *self.q.consumer.0.get() };
        while c.index < len {
            let slot = c.index as usize % BLOCK;
            if slot == 0 && c.index > 0 {
                // SAFETY: the producer linked the next block before publishing slot `index`, which `len` covers.
                let next = unsafe { (*c.block).next.load(Ordering::Acquire) };
                self.release(c.block);
                c.block = next;
            }
            // SAFETY: slot `index` is below a published `len`, so written, and read only now (then `index` passes
            // it).
            let item = unsafe { (*(*c.block).slots[slot].get()).assume_init_read() };
            c.index += 1;
            f(item);
        }
        true
    }

    /// Hands a block whose slots have all been read to the producer's spare (or frees it).
    fn release(&self, b: *mut Block<T>) {
        // SAFETY: the producer moved past `b` (it linked a later block) and the consumer has read all its slots,
        // so nothing else refers to it.
        unsafe { (*b).next.store(ptr::null_mut(), Ordering::Relaxed) };
        let old = self.q.spare.swap(b, Ordering::AcqRel);
        if !old.is_null() {
            // SAFETY: a spare block is referenced by nothing but the spare slot we just took it from.
            unsafe { Block::free(old) };
        }
    }

    /// The published length once it passes the consumer's position, or `None` when closed and drained.
    fn wait(&mut self) -> Option<u64> {
        // SAFETY: only the consumer reads its cursor's index, and only here and in `drain`.
        let head = unsafe { (*self.q.consumer.0.get()).index };
        let len = self.q.len().load(Ordering::Acquire);
        if len > head {
            return Some(len);
        }
        for i in 0..POLLS {
            // A closed queue ends the wait at once: a thread handed a destroyed stream (`workers.rs`,
            // "Hand-off") goes on to the next without polling, so that it keeps up with a create/destroy loop.
            // Closed first: once the sender is gone, its last length is visible.
            if self.q.closed.load(Ordering::Acquire) {
                let len = self.q.len().load(Ordering::Acquire);
                return (len > head).then_some(len);
            }
            if i < POLLS / 2 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
            let mut len = self.q.len().load(Ordering::Acquire);
            if len > head {
                // The consumer had caught up: let more items arrive before reading any.
                for round in 0..GATHER_ROUNDS {
                    let spins = if round == 0 {
                        GATHER_FIRST
                    } else {
                        GATHER_SPINS
                    };
                    for _ in 0..spins {
                        std::hint::spin_loop();
                    }
                    let now = self.q.len().load(Ordering::Acquire);
                    if now == len || now - head >= BLOCK as u64 {
                        return Some(now);
                    }
                    len = now;
                }
                return Some(len);
            }
        }
        let mut g = self.q.lock.lock();
        loop {
            // Closed first: once the sender is gone, its last length is visible.
            let closed = self.q.closed.load(Ordering::Acquire);
            let len = self.q.len().load(Ordering::Acquire);
            if len > head || closed {
                self.q.sleeping().store(false, Ordering::Relaxed);
                return (len > head).then_some(len);
            }
            self.q.sleeping().store(true, Ordering::Relaxed);
            let fenced = fence::heavy();
            let len = self.q.len().load(Ordering::Acquire);
            if len > head {
                self.q.sleeping().store(false, Ordering::Relaxed);
                return Some(len);
            }
            // A push from now on sees `sleeping` and wakes us (it takes the lock, which `wait` releases); so does
            // the sender's drop.
            if fenced {
                self.q.cv.wait(&mut g);
            } else {
                self.q.cv.wait_for(&mut g, Duration::from_millis(1));
            }
        }
    }
}

/// The stream queue as `examples/bench.rs` compares it with crossbeam-channel (figure (m)): a thin wrapper, not
/// part of the simulator's API (hidden from its documentation; the crate root exports it as
/// `streamsim::bench_queue`).
pub mod bench {
    /// The sending side ([`channel`]).
    pub struct Sender<T>(super::Sender<T>);

    /// The receiving side ([`channel`]).
    pub struct Receiver<T>(super::Receiver<T>);

    impl<T> std::fmt::Debug for Sender<T> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("bench_queue::Sender")
        }
    }

    impl<T> std::fmt::Debug for Receiver<T> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("bench_queue::Receiver")
        }
    }

    /// A new empty queue: one producer, one consumer, unbounded.
    pub fn channel<T: Send>() -> (Sender<T>, Receiver<T>) {
        let (tx, rx) = super::channel();
        (Sender(tx), Receiver(rx))
    }

    impl<T> Sender<T> {
        /// Appends `item` (never blocks).
        #[inline]
        pub fn send(&mut self, item: T) {
            self.0.send(item);
        }
    }

    impl<T> Receiver<T> {
        /// Waits for items, then hands every item queued at that moment to `f`; `false` once the sender is
        /// gone and everything was handed out.
        pub fn drain(&mut self, f: impl FnMut(T)) -> bool {
            self.0.drain(f)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// Items counted on drop, to check that none is lost or dropped twice.
    struct Counted(u64, Arc<AtomicUsize>);

    impl Drop for Counted {
        fn drop(&mut self) {
            self.1.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn items() -> u64 {
        if cfg!(miri) {
            3 * BLOCK as u64 + 7
        } else {
            100_000
        }
    }

    #[test]
    fn items_arrive_in_order_across_blocks_and_threads() {
        let (mut tx, mut rx) = channel::<u64>();
        let n = items();
        let consumer = std::thread::spawn(move || {
            let mut next = 0;
            while rx.drain(|v| {
                assert_eq!(v, next, "items arrive in the order they were sent");
                next += 1;
            }) {}
            next
        });
        for i in 0..n {
            tx.send(i);
        }
        drop(tx);
        assert_eq!(consumer.join().expect("consumer"), n);
    }

    #[test]
    fn a_sleeping_consumer_is_woken_by_every_send() {
        // One item at a time, waiting for each to be consumed, so that the consumer goes to sleep in between.
        let (mut tx, mut rx) = channel::<u64>();
        let (ack_tx, ack_rx) = std::sync::mpsc::channel();
        let consumer =
            std::thread::spawn(move || while rx.drain(|v| ack_tx.send(v).expect("ack")) {});
        let rounds = if cfg!(miri) { 5 } else { 200 };
        for i in 0..rounds {
            tx.send(i);
            assert_eq!(ack_rx.recv().expect("the consumer answers"), i);
        }
        drop(tx);
        consumer.join().expect("consumer");
    }

    #[test]
    fn unread_items_are_dropped_exactly_once_whoever_goes_last() {
        let n = 2 * BLOCK as u64 + 5;
        for read in [0, 1, BLOCK as u64 - 1, BLOCK as u64, BLOCK as u64 + 1, n] {
            for receiver_last in [false, true] {
                let drops = Arc::new(AtomicUsize::new(0));
                let (mut tx, mut rx) = channel::<Counted>();
                for i in 0..read {
                    tx.send(Counted(i, drops.clone()));
                }
                let mut seen = 0;
                if read > 0 {
                    assert!(rx.drain(|c| {
                        assert_eq!(c.0, seen);
                        seen += 1;
                    }));
                }
                assert_eq!(seen, read);
                assert_eq!(drops.load(Ordering::SeqCst), read as usize);
                for i in read..n {
                    tx.send(Counted(i, drops.clone()));
                }
                if receiver_last {
                    drop(tx);
                    drop(rx);
                } else {
                    drop(rx);
                    drop(tx);
                }
                assert_eq!(drops.load(Ordering::SeqCst), n as usize, "read {read}");
            }
        }
    }

    #[test]
    fn a_closed_empty_queue_ends_the_consumer() {
        let (tx, mut rx) = channel::<u64>();
        drop(tx);
        assert!(!rx.drain(|_| panic!("no item")));
        // Asking again still says so.
        assert!(!rx.drain(|_| panic!("no item")));
    }

    #[test]
    fn items_sent_before_close_are_all_delivered() {
        let (mut tx, mut rx) = channel::<u64>();
        for i in 0..(BLOCK as u64 + 1) {
            tx.send(i);
        }
        drop(tx);
        let mut got = Vec::new();
        while rx.drain(|v| got.push(v)) {}
        assert_eq!(got, (0..(BLOCK as u64 + 1)).collect::<Vec<_>>());
    }
}
