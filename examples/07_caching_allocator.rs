//! A PyTorch-style caching allocator, and the bug `record_stream` exists for.
//!
//! ```c++
//! // PyTorch (c10/cuda/CUDACachingAllocator.cpp), in short: one cudaMalloc'd segment is cut into blocks; a
//! // freed block goes back to the cache of the stream it was allocated on and is handed out again at once to
//! // that stream — the allocator assumes only that stream used it.
//! auto x = empty({n}, device);        // block 0, allocated on `compute`
//! produce<<<..., compute>>>(x);
//! side.wait(compute);                 // the side stream reads x after produce ...
//! consume<<<..., side>>>(x);          // ... for 200 µs
//! // x.record_stream(side);           // the fix: the free records an event on `side`, and the block stays
//! //                                  // out of the cache until that event has completed
//! x.reset();                          // free: block 0 back to `compute`'s cache
//! auto y = empty({n}, device);        // block 0 again, while `consume` still reads it
//! overwrite<<<..., compute>>>(y);     // writes the bytes `consume` reads
//! ```
//!
//! Run with `cargo run --example 07_caching_allocator`. Part 1 is that allocator, written here on one
//! `malloc` slab: without `record_stream` the reuse is a data race on the slab that the detector reports with
//! both streams (`consume` on `side`, `overwrite` on `compute`); with it, the allocator queries the event
//! before reusing the block (the event has not completed in virtual time: `y` gets block 1), and the run is
//! clean. Part 2 is the same program on the stream-ordered allocator (`malloc_async` / `free_async` on
//! `compute`, what `cudaMallocAsync` / `cudaFreeAsync` are): the free that does not wait for `consume` is a
//! use-after-free report of its own kind; with an event recorded on `side` after `consume` and `compute`
//! waiting on it before the free, the run is clean and `y` reuses `x`'s address — the pool follows the
//! stream order itself. Every run prints the same text (addresses included: reuse decisions depend on program
//! order and virtual time only).

use std::collections::BTreeMap;
use std::time::Duration;

use streamsim::{
    DevicePtr, Event, EventFlags, Kernel, Machine, Process, RaceReport, SimError, Status, Stream,
    StreamFlags,
};

/// Block size of the example's allocator.
const BLOCK: u64 = 1 << 20;
/// Blocks in its one slab.
const BLOCKS: u64 = 8;

/// A block handed out: where it is, and the stream it was allocated on.
#[derive(Debug, Clone, Copy)]
struct Block {
    ptr: DevicePtr,
    stream: Stream,
}

/// PyTorch's caching allocator in miniature: one slab from `malloc` (`cudaMalloc`), cut into `BLOCK`-byte
/// blocks; per-stream caches of freed blocks; `record_stream`'s events.
struct CachingAllocator {
    slab: DevicePtr,
    next: u64,
    /// Freed blocks, by the stream they were allocated on (lowest address first).
    cache: BTreeMap<Stream, Vec<DevicePtr>>,
    /// Blocks freed while a recorded stream may still use them: the block and the events to wait for.
    pending: Vec<(Block, Vec<Event>)>,
    /// Streams recorded with `record_stream`, per block address.
    recorded: BTreeMap<DevicePtr, Vec<Stream>>,
}

impl CachingAllocator {
    fn new(p: &Process) -> Result<CachingAllocator, SimError> {
        Ok(CachingAllocator {
            slab: p.malloc(BLOCK * BLOCKS)?,
            next: 0,
            cache: BTreeMap::new(),
            pending: Vec::new(),
            recorded: BTreeMap::new(),
        })
    }

    /// `process_events`: blocks whose events have all completed go back to their stream's cache.
    fn process_events(&mut self, p: &Process) -> Result<(), SimError> {
        let mut still = Vec::new();
        for (block, events) in std::mem::take(&mut self.pending) {
            let mut done = true;
            for e in &events {
                done &= p.event_query(*e)? == Status::Complete;
            }
            if done {
                for e in events {
                    p.destroy_event(e)?;
                }
                self.cache.entry(block.stream).or_default().push(block.ptr);
            } else {
                still.push((block, events));
            }
        }
        self.pending = still;
        Ok(())
    }

    fn alloc(&mut self, p: &Process, stream: Stream) -> Result<Block, SimError> {
        self.process_events(p)?;
        if let Some(cached) = self.cache.get_mut(&stream).filter(|c| !c.is_empty()) {
            cached.sort();
            let ptr = cached.remove(0);
            return Ok(Block { ptr, stream });
        }
        assert!(self.next < BLOCKS, "the example's slab is large enough");
        let ptr = self.slab.offset(self.next * BLOCK);
        self.next += 1;
        Ok(Block { ptr, stream })
    }

    /// `Tensor::record_stream`: `stream` uses the block too.
    fn record_stream(&mut self, block: Block, stream: Stream) {
        if stream != block.stream {
            self.recorded.entry(block.ptr).or_default().push(stream);
        }
    }

    /// The free: back to the cache at once, unless recorded streams may still use the block — then an event
    /// on each of them, and the block waits for them in `pending`.
    fn free(&mut self, p: &Process, block: Block) -> Result<(), SimError> {
        let streams = self.recorded.remove(&block.ptr).unwrap_or_default();
        if streams.is_empty() {
            self.cache.entry(block.stream).or_default().push(block.ptr);
            return Ok(());
        }
        let mut events = Vec::new();
        for s in streams {
            let e = p.create_event(EventFlags::DISABLE_TIMING)?;
            p.record_event(e, s)?;
            events.push(e);
        }
        self.pending.push((block, events));
        Ok(())
    }

    /// The block number of a pointer (for the printout).
    fn index(&self, ptr: DevicePtr) -> u64 {
        (ptr.0 - self.slab.0) / BLOCK
    }
}

#[track_caller]
fn produce(p: &Process, s: Stream, ptr: DevicePtr) -> Result<(), SimError> {
    let k = Kernel::new("produce")
        .duration(Duration::from_micros(50))
        .writes(ptr, BLOCK);
    p.launch(s, k)
}

#[track_caller]
fn consume(p: &Process, s: Stream, ptr: DevicePtr) -> Result<(), SimError> {
    let k = Kernel::new("consume")
        .duration(Duration::from_micros(200))
        .reads(ptr, BLOCK);
    p.launch(s, k)
}

#[track_caller]
fn overwrite(p: &Process, s: Stream, ptr: DevicePtr) -> Result<(), SimError> {
    let k = Kernel::new("overwrite")
        .duration(Duration::from_micros(50))
        .writes(ptr, BLOCK);
    p.launch(s, k)
}

/// The two streams and the event that orders `side` after `produce`.
fn streams(p: &Process) -> Result<(Stream, Stream, Event), SimError> {
    let compute = p.create_stream(StreamFlags::NON_BLOCKING)?;
    let side = p.create_stream(StreamFlags::NON_BLOCKING)?;
    p.name_stream(compute, "compute")?;
    p.name_stream(side, "side")?;
    Ok((compute, side, p.create_event(EventFlags::DISABLE_TIMING)?))
}

/// One device; with a seed, schedule perturbation (seeded delays in the stream workers).
fn machine(perturb: Option<u64>) -> Result<Machine, SimError> {
    let mut b = Machine::builder().devices(1);
    if let Some(seed) = perturb {
        b = b.perturb(true).seed(seed);
    }
    b.build()
}

/// Part 1: the caching allocator, with or without `record_stream`. Returns the reports and the blocks `x` and
/// `y` got.
fn caching(record: bool, perturb: Option<u64>) -> Result<(Vec<RaceReport>, u64, u64), SimError> {
    let machine = machine(perturb)?;
    let p = machine.process();
    let (compute, side, produced) = streams(&p)?;
    let mut alloc = CachingAllocator::new(&p)?;

    let x = alloc.alloc(&p, compute)?;
    produce(&p, compute, x.ptr)?;
    p.record_event(produced, compute)?;
    p.stream_wait_event(side, produced)?;
    consume(&p, side, x.ptr)?;
    if record {
        alloc.record_stream(x, side);
    }
    alloc.free(&p, x)?;
    let y = alloc.alloc(&p, compute)?;
    overwrite(&p, compute, y.ptr)?;
    alloc.free(&p, y)?;
    p.device_synchronize()?;
    // After the synchronize the recorded event has completed: the next allocation on `compute` gets block 0.
    let z = alloc.alloc(&p, compute)?;
    assert_eq!(alloc.index(z.ptr), 0);
    Ok((
        machine.race_reports(),
        alloc.index(x.ptr),
        alloc.index(y.ptr),
    ))
}

/// Part 2: the same program on the stream-ordered allocator; `ordered`: `compute` waits for `consume` before the
/// free. Returns the reports and the addresses of `x` and `y`.
fn stream_ordered(
    ordered: bool,
    perturb: Option<u64>,
) -> Result<(Vec<RaceReport>, DevicePtr, DevicePtr), SimError> {
    let machine = machine(perturb)?;
    let p = machine.process();
    let (compute, side, produced) = streams(&p)?;
    let consumed = p.create_event(EventFlags::DISABLE_TIMING)?;

    let x = p.malloc_async(BLOCK, compute)?;
    produce(&p, compute, x)?;
    p.record_event(produced, compute)?;
    p.stream_wait_event(side, produced)?;
    consume(&p, side, x)?;
    if ordered {
        p.record_event(consumed, side)?;
        p.stream_wait_event(compute, consumed)?;
    }
    p.free_async(x, compute)?;
    let y = p.malloc_async(BLOCK, compute)?;
    overwrite(&p, compute, y)?;
    p.free_async(y, compute)?;
    p.device_synchronize()?;
    Ok((machine.race_reports(), x, y))
}

fn main() -> Result<(), SimError> {
    println!("== 1. a caching allocator on one cudaMalloc slab, without record_stream ==\n");
    let (reports, x, y) = caching(false, None)?;
    println!("x got block {x}; freed while `consume` reads it on `side`; y got block {y}\n");
    for r in &reports {
        println!("{r}\n");
    }
    assert_eq!((x, y), (0, 0));
    assert_eq!(reports.len(), 1, "the reuse is flagged");
    let r = &reports[0];
    assert_eq!(r.kind, streamsim::RaceKind::Data);
    assert_eq!(
        r.fix(),
        "record an event on stream `side` after `consume` and make stream `compute` wait on it before \
         `overwrite`"
    );

    println!(
        "== with x.record_stream(side): the free records an event on `side`; the block waits for it ==\n"
    );
    let (reports, x, y) = caching(true, None)?;
    println!(
        "x got block {x}; y got block {y} (block 0's event had not completed); {} race reports\n",
        reports.len()
    );
    assert_eq!((x, y), (0, 1));
    assert!(reports.is_empty());

    println!(
        "== 2. the same program on cudaMallocAsync / cudaFreeAsync, the free not waiting for `consume` ==\n"
    );
    let (reports, x, y) = stream_ordered(false, None)?;
    println!("x at {:#x}, y at {:#x}\n", x.0, y.0);
    for r in &reports {
        println!("{r}\n");
    }
    assert_eq!(x, y, "the pool reuses the block on the same stream");
    assert!(!reports.is_empty());
    assert_eq!(reports[0].kind, streamsim::RaceKind::UseAfterFree);
    assert_eq!(
        reports[0].fix(),
        "record an event on stream `side` after `consume` and make stream `compute` wait on it before \
         `free_async`"
    );

    println!(
        "== ordered: an event after `consume` on `side`, `compute` waits on it before cudaFreeAsync ==\n"
    );
    let (reports, x, y) = stream_ordered(true, None)?;
    println!(
        "x at {:#x}, y at {:#x} (the same block, reused in stream order); {} race reports",
        x.0,
        y.0,
        reports.len()
    );
    assert_eq!(x, y);
    assert!(reports.is_empty());

    // The same verdicts, blocks and addresses under 10 perturbation seeds.
    let text = |rs: &[RaceReport]| rs.iter().map(|r| r.to_string()).collect::<Vec<_>>();
    let (wrong, wx, wy) = caching(false, None)?;
    let (wrong_async, ax, ay) = stream_ordered(false, None)?;
    for seed in 0..10 {
        let (r, x, y) = caching(false, Some(seed))?;
        assert_eq!((text(&r), x, y), (text(&wrong), wx, wy), "seed {seed}");
        let (r, x, y) = caching(true, Some(seed))?;
        assert_eq!((r.len(), x, y), (0, 0, 1), "seed {seed}");
        let (r, x, y) = stream_ordered(false, Some(seed))?;
        assert_eq!(
            (text(&r), x, y),
            (text(&wrong_async), ax, ay),
            "seed {seed}"
        );
        let (r, x, y) = stream_ordered(true, Some(seed))?;
        assert_eq!((r.len(), x, y), (0, ax, ay), "seed {seed}");
    }
    println!("\nperturbation seeds 0..10: the same reports, blocks and addresses on every run");
    Ok(())
}
