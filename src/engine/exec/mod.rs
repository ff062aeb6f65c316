//! Execution: the worker thread behind every stream and the operations it runs (record points are
//! `point.rs`).
//!
//! A worker runs its stream's FIFO in order. Before an operation it waits for the record points the operation
//! depends on (stream waits, legacy default-stream edges); then it performs the effect (kernel body, copy,
//! memset, host function, stream callback), appends the operation to its trace sink with the virtual times computed at
//! enqueue, and publishes its completion. Workers sleep on their queue (`queue.rs`) when idle; nothing here reads a
//! clock.

pub(crate) mod callback;
pub(crate) mod copy_engines;
pub(crate) mod faults;
pub(crate) mod gate;
pub(crate) mod point;
pub(crate) mod queue;
pub(crate) mod workers;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use parking_lot::Mutex;

use crate::engine::core::error::{FaultKind, SimError};
use crate::engine::core::handle::{StreamId, stream_key};
use crate::engine::core::labels::Label;
use crate::engine::core::races::Who;
use crate::engine::core::rules::FailureMode;
use crate::engine::core::time::VirtualTime;
use crate::engine::exec::callback::Callback;
use crate::engine::exec::faults::{StreamFault, fault_at};
use crate::engine::exec::point::Point;
use crate::engine::exec::point::StreamExec;
use crate::engine::kernels::kernel::{KernelBody, KernelCtx};
use crate::engine::memory::Memory;
use crate::engine::memory::block::Region;
use crate::engine::observe::trace::{OpKind, TraceSink};
use crate::engine::schedules::serialize::Progress;

/// What a copy reads.
pub(crate) enum CopySource {
    Region(Region),
    Staged(Vec<u8>),
}

/// The effect an operation has when it runs.
pub(crate) enum Work {
    /// Nothing but time (a kernel without a body, a record, a wait).
    Nothing,
    /// A kernel body, the launch's declared accesses resolved at the launch (region, written), and what its
    /// device could reach of other devices' memory then (`None` on a machine of one device).
    Kernel(
        KernelBody,
        Vec<(Region, bool)>,
        Option<Arc<crate::engine::kernels::kernel::Reach>>,
    ),
    Copy {
        src: CopySource,
        dst: Region,
    },
    /// A copy into pageable host memory: the bytes are handed back to the waiting host call.
    CopyOut {
        src: Region,
        out: Arc<Mutex<Vec<u8>>>,
    },
    Fill {
        dst: Region,
        value: u8,
    },
    /// A pitched copy or memset: rows of a rectangle or box (`memory/pitched.rs`).
    Rows(Box<crate::engine::memory::rows::RowWork>),
    /// A graph's copy into pageable host memory at `addr` (`len` bytes), written when it runs: only the C API
    /// captures such copies, and its caller keeps the memory valid (see `graph/node.rs`, `Endpoint::Pageable`).
    CopyToHost {
        src: CopySource,
        addr: usize,
        len: u64,
    },
    Host(Box<dyn FnOnce() + Send>),
    /// The operation fails with this error when it runs (a wait that timed out).
    Fail(SimError),
    /// An ACL host callback: due to its subscribed thread when reached (`report.rs`).
    Report(Arc<Callback>),
    /// A record of an exported event of a shared host whose time was not known at the call: tells the host its
    /// time when it runs (never skipped).
    Publish(Box<dyn FnOnce(VirtualTime) + Send>),
    /// A stream callback (`cudaStreamAddCallback`): runs exactly once, also on a poisoned stream, and is given
    /// the stream's fault (`None`: none).
    Callback(Box<dyn FnOnce(Option<SimError>) + Send>),
}

/// One queued operation with its virtual times fixed at enqueue.
///
/// Kept small (56 bytes) because it is moved through the queue: everything but the times and the label is
/// boxed, and the common cases — a kernel without a body or dependencies, an event record — have no box at all
/// (a record's label says what it is). Its position on
/// the stream is not stored: operations reach the worker in order, numbered from 1, so the worker counts them.
pub(crate) struct Op {
    pub start: VirtualTime,
    pub end: VirtualTime,
    pub label: Label,
    /// `None`: a kernel with no body and no dependencies, or a record without dependencies. The box is the one
    /// the enqueue call made (see `OpSpec`); the race-detection fields are emptied at dispatch.
    pub extra: Option<Box<OpExtra>>,
}

/// The rarer parts of an operation.
pub(crate) struct OpExtra {
    pub deps: Vec<Point>,
    pub work: Work,
    pub kind: OpKind,
    /// Memory it reads (`false`) and writes (`true`), checked for races when `who` is set (enqueue side only).
    pub accesses: Vec<(Region, bool)>,
    pub who: Option<Who>,
    /// A wait's timeout in nanoseconds: if its dependencies end later than its own start plus this, it ends at
    /// that deadline instead and fails with [`SimError::WaitTimedOut`] (ACL `aclrtSetOpWaitTimeout`, the
    /// timeout of `aclrtWaitAndResetNotify`).
    pub wait_timeout: Option<u64>,
    /// A lifetime point of an allocation this operation is (a stream-ordered allocation or free), checked for
    /// races with `who` when it is dispatched (enqueue side only).
    pub life: Option<(
        Arc<crate::engine::memory::block::Block>,
        crate::engine::core::races::LifePoint,
    )>,
}

impl OpExtra {
    /// A kernel with no body and no dependencies (its declared accesses, if any, already checked): the
    /// worker has nothing to do for it but note it ran.
    pub fn is_plain_kernel(&self) -> bool {
        self.kind == OpKind::Kernel
            && matches!(self.work, Work::Nothing)
            && self.deps.is_empty()
            && self.who.is_none()
            && self.wait_timeout.is_none()
    }

    /// An operation of `kind` doing `work`, with no dependencies or declared accesses yet.
    pub fn new(kind: OpKind, work: Work) -> OpExtra {
        OpExtra {
            deps: Vec::new(),
            work,
            kind,
            accesses: Vec::new(),
            who: None,
            wait_timeout: None,
            life: None,
        }
    }
}

/// The sending side of a stream's queue (held by the stream's registry entry; see `queue.rs`). Dropping it
/// ends the worker once the queue is drained.
pub(crate) type OpSender = crate::engine::exec::queue::Sender<Op>;

/// The worker's side of a stream's queue.
pub(crate) type OpReceiver = crate::engine::exec::queue::Receiver<Op>;

/// A new stream queue.
pub(crate) fn queue() -> (OpSender, OpReceiver) {
    crate::engine::exec::queue::channel()
}

/// What a worker needs besides its queue.
pub(crate) struct WorkerEnv {
    pub exec: Arc<StreamExec>,
    pub sink: Option<Arc<TraceSink>>,
    pub memory: Arc<Memory>,
    pub live: Arc<AtomicUsize>,
    /// Schedule perturbation: the machine seed, when on.
    pub perturb: Option<u64>,
    /// The dialect's failure mode (see [`FailureMode`]); `Stop` from the position the program set.
    pub failure_mode: FailureMode,
    /// The serialize schedule, when the machine runs under it (`serial.rs`).
    pub serial: Option<Arc<crate::engine::schedules::serialize::Serial>>,
    /// The real-time watchdog, when on (`watchdog.rs`).
    pub watchdog: Option<Arc<crate::engine::schedules::watchdog::Watchdog>>,
}

pub(crate) fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-string payload".to_string()
    }
}

/// Schedule perturbation: from the machine seed, the stream and the operation's position, sometimes give the
/// CPU away before running it, so racy programs also show it in their data. Only real scheduling changes:
/// virtual times and race verdicts are computed on the host and cannot.
fn perturb(seed: u64, stream: StreamId, seq: u64) {
    let key = seed ^ stream_key(stream) ^ seq;
    let x = crate::engine::core::rng::mix(key);
    if x.is_multiple_of(4) {
        for _ in 0..(x >> 32) % 64 {
            std::thread::yield_now();
        }
    }
}

/// How many plain kernels a worker runs before it publishes them, at most (see [`Worker`]).
const PUBLISH_EVERY: u32 = 256;

/// A worker's state between operations.
///
/// A plain kernel (no body, no dependencies: most of a long launch loop) has nothing to wait for and nothing to
/// do, so the worker does not publish each one: it gathers their trace records and publishes the last one's
/// completion (one lock for the trace, one store for the completion) at the end of the batch it took from the
/// queue, every [`PUBLISH_EVERY`] of them, and before any other operation — which may block (on a dependency,
/// or in a host function waiting for a host thread that waits for these kernels) and so must find everything
/// before it published.
struct Worker {
    env: WorkerEnv,
    faulted: bool,
    /// A fault of the mode `Stop` of this stream's context that an operation in the mode `Continue` was ordered
    /// after (it caught nothing, keeping the mode it was sent with): the stream's first operation in the mode
    /// `Stop` catches it.
    latent: Option<StreamFault>,
    /// The position of the last operation taken from the queue.
    seq: u64,
    /// Plain kernels run but not yet published (the last of them is `seq`), and their trace records.
    unpublished: u32,
    batch: crate::engine::observe::trace::KernelBatch,
}

impl Worker {
    fn run(&mut self, op: Op) {
        let seq = self.seq + 1;
        if op.extra.is_none() && self.env.perturb.is_none() && self.env.serial.is_none() {
            if self.env.sink.is_some() {
                self.batch.push(seq, op.label, (op.start, op.end));
            }
            self.seq = seq;
            self.unpublished += 1;
            if self.unpublished >= PUBLISH_EVERY {
                self.publish();
            }
            return;
        }
        self.publish();
        self.seq = seq;
        // Only an operation that can wait (for another stream, for its turn under the serialize schedule, or in
        // the program's own code) tells the worker pool so; copies, memsets and records without dependencies
        // do not take the hand-off lock.
        let may_block = self.env.serial.is_some()
            || op.extra.as_ref().is_some_and(|x| {
                !x.deps.is_empty()
                    || matches!(
                        x.work,
                        Work::Kernel(..) | Work::Host(_) | Work::Report(_) | Work::Callback(_)
                    )
            });
        if may_block {
            crate::engine::exec::workers::may_block(&self.env.exec);
        }
        run_op(&self.env, (&mut self.faulted, &mut self.latent), seq, op);
        if may_block {
            crate::engine::exec::workers::blocked_no_more(&self.env.exec);
        }
    }

    /// Publishes the plain kernels run so far: trace records first, then completion.
    fn publish(&mut self) {
        if self.unpublished > 0 {
            if let Some(sink) = &self.env.sink {
                sink.append(&mut self.batch);
            }
            self.env.exec.publish(self.seq);
            self.unpublished = 0;
        }
    }
}

/// The worker loop: runs until the sender of `rx` is gone and the queue is drained.
pub(crate) fn run_worker(mut rx: OpReceiver, env: WorkerEnv) {
    crate::engine::exec::workers::mark_worker_thread();
    let mut w = Worker {
        env,
        faulted: false,
        latent: None,
        seq: 0,
        unpublished: 0,
        batch: Default::default(),
    };
    while rx.drain(|op| w.run(op)) {
        w.publish();
    }
    w.publish();
    w.env.live.fetch_sub(1, Ordering::SeqCst);
}

thread_local! {
    /// The operation whose effect this worker thread is performing: its stream and its place in it.
    static RUNNING_OP: std::cell::Cell<Option<(StreamId, u64)>> = const { std::cell::Cell::new(None) };
}

/// The operation whose effect the calling thread is performing (a kernel's body, a copy), as the trace names
/// it (its stream and `seq`): what the sanitizer's reports concern. `None` off a stream's worker.
pub(crate) fn running_op() -> Option<(StreamId, u64)> {
    RUNNING_OP.with(std::cell::Cell::get)
}

/// Runs one operation: waits for its dependencies, performs its effect, traces it and publishes it.
fn run_op(
    env: &WorkerEnv,
    (faulted, latent): (&mut bool, &mut Option<StreamFault>),
    seq: u64,
    op: Op,
) {
    let (deps, work, kind) = match op.extra {
        None => (Vec::new(), Work::Nothing, OpKind::Kernel),
        Some(x) => {
            let x = *x;
            (x.deps, x.work, x.kind)
        }
    };
    let mode = if seq >= env.exec.stop_from.load(Ordering::SeqCst) {
        FailureMode::Stop
    } else {
        env.failure_mode
    };
    if let Some(s) = &env.serial {
        s.before_deps(
            env.exec.id,
            deps.iter()
                .map(|d| (d.exec.clone() as Arc<dyn Progress>, d.seq)),
        );
    }
    for d in &deps {
        // A wait on another OS process's record that has not run: queries of this stream do not wait for it.
        let remote = d.remote_pending();
        let local = !remote && !Arc::ptr_eq(&d.exec, &env.exec) && d.exec.completed() < d.seq;
        let mut watched_wait = None;
        if remote {
            *env.exec.remote_on.lock() = d.remote.clone();
            env.exec.remote_stall.store(seq, Ordering::SeqCst);
            // A progress slot for the stream, if it has none yet, so that the other process's hang reports see
            // what waits for its record (none left: only this process's report says it).
            if let Some(r) = &d.remote {
                let _ = crate::engine::host::events::attach(r.link(), &env.exec);
            }
            env.exec.publish_block();
            // The watchdog reports a wait on another process that outlives its limit, with the chain of what
            // holds it there.
            watched_wait = env
                .watchdog
                .as_ref()
                .zip(d.remote.clone())
                .map(|(w, r)| (w, w.enter_remote(env.exec.id, seq, &op.label.text(), r)));
        } else if local {
            // ... nor for one that another stream it waits for is stalled on.
            *env.exec.waiting_on.lock() = Some((d.exec.clone(), d.seq));
        }
        d.wait();
        if remote {
            if let Some((w, token)) = watched_wait {
                w.leave(token);
            }
            env.exec.remote_stall.store(0, Ordering::SeqCst);
            *env.exec.remote_on.lock() = None;
            env.exec.publish_block();
        } else if local {
            *env.exec.waiting_on.lock() = None;
        }
        // A sticky fault ordered before this operation poisons this stream too (see `watch.rs`): always in CUDA,
        // within the faulted stream's context in the mode `Stop`, never in the mode `Continue`.
        let same_context = d.exec.ctx == env.exec.ctx;
        let catches = match mode {
            FailureMode::Sticky => true,
            FailureMode::Stop => same_context,
            FailureMode::Continue => false,
        };
        if !*faulted && let Some(f) = fault_at(d) {
            if catches {
                *faulted = true;
                env.exec.poison(StreamFault {
                    seq,
                    time: f.time,
                    err: f.err,
                    sticky: true,
                });
            } else if mode == FailureMode::Continue && same_context && latent.is_none() {
                // acl-runtime-api.md · SetStreamFailureMode · when the mode applies: this operation keeps the
                // mode it was sent with; the stream's later operations in the mode `Stop` are ordered after
                // the fault through it, and stop.
                *latent = Some(f);
            }
        }
    }
    if mode == FailureMode::Stop
        && !*faulted
        && let Some(f) = latent.take()
    {
        *faulted = true;
        env.exec.poison(StreamFault {
            seq,
            time: f.time,
            err: f.err,
            sticky: true,
        });
    }
    if let Some(seed) = env.perturb {
        perturb(seed, env.exec.id, seq);
    }
    if let Some(s) = &env.serial {
        s.acquire(env.exec.id, seq, &op.label.text());
    }
    let skip = *faulted
        && match mode {
            FailureMode::Sticky => {
                matches!(work, Work::Kernel(..) | Work::Host(_) | Work::Report(_))
            }
            // A stream callback runs exactly once, given the fault.
            FailureMode::Stop => {
                !matches!(work, Work::Nothing | Work::Callback(_) | Work::Publish(_))
            }
            FailureMode::Continue => false,
        };
    // The watchdog watches what runs the program's code (`watchdog.rs`); it is told when it returns.
    let watched = env.watchdog.as_ref().and_then(|w| {
        let what = match &work {
            Work::Kernel(..) if !skip => "kernel",
            Work::Host(_) if !skip => "host-fn",
            Work::Callback(_) => "callback",
            _ => return None,
        };
        Some((
            w,
            w.enter(env.exec.id, seq, &op.label.text(), what, env.exec.clone()),
        ))
    });
    // Other processes' hang reports see the program function the worker runs (if the stream has a progress
    // slot).
    let program_fn = !skip && matches!(work, Work::Kernel(..) | Work::Host(_) | Work::Callback(_));
    if program_fn {
        env.exec.set_running(seq);
    }
    RUNNING_OP.with(|r| r.set(Some((env.exec.id, seq))));
    let outcome: Result<(), SimError> = match work {
        Work::Report(cb) if skip => {
            cb.cancel();
            Ok(())
        }
        Work::Publish(f) => {
            f(op.end);
            Ok(())
        }
        _ if skip => Ok(()),
        Work::Nothing => Ok(()),
        Work::Fail(e) => Err(e),
        Work::Report(cb) => {
            cb.reach();
            Ok(())
        }
        Work::Kernel(body, declared, reach) => {
            let mut ctx = KernelCtx::new(
                env.memory.clone(),
                env.exec.id.process,
                declared,
                (env.exec.id, seq),
                reach,
            );
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| body(&mut ctx))) {
                Ok(Ok(())) => Ok(()),
                Ok(Err(e)) => Err(kernel_fault(env, &op.label.text(), e.kind, e.message)),
                Err(p) => Err(kernel_fault(
                    env,
                    &op.label.text(),
                    FaultKind::LaunchFailure,
                    format!("panicked: {}", panic_message(p)),
                )),
            }
        }
        Work::Host(f) => std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|p| {
            kernel_fault(
                env,
                &op.label.text(),
                FaultKind::LaunchFailure,
                format!("host function panicked: {}", panic_message(p)),
            )
        }),
        Work::Callback(f) => {
            // The fault that poisoned the stream (its own, or one ordered before this point).
            let status = if *faulted {
                env.exec.fault().map(|f| f.err)
            } else {
                None
            };
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(status))).map_err(|p| {
                kernel_fault(
                    env,
                    &op.label.text(),
                    FaultKind::LaunchFailure,
                    format!("stream callback panicked: {}", panic_message(p)),
                )
            })
        }
        Work::Copy { src, dst } => {
            match src {
                CopySource::Region(s) => {
                    crate::engine::memory::init::check_copy_read(
                        &s.block,
                        s.offset,
                        s.len,
                        &op.label.text(),
                    );
                    crate::engine::memory::block::Block::copy(
                        &s.block, s.offset, &dst.block, dst.offset, s.len,
                    )
                }
                CopySource::Staged(bytes) => dst.block.write(dst.offset, &bytes),
            }
            Ok(())
        }
        Work::CopyOut { src, out } => {
            crate::engine::memory::init::check_copy_read(
                &src.block,
                src.offset,
                src.len,
                &op.label.text(),
            );
            let mut buf = vec![0u8; src.len as usize];
            src.block.read(src.offset, &mut buf);
            *out.lock() = buf;
            Ok(())
        }
        Work::Fill { dst, value } => {
            dst.block.fill(dst.offset, dst.len, value);
            Ok(())
        }
        Work::Rows(rows) => {
            rows.run();
            Ok(())
        }
        Work::CopyToHost { src, addr, len } => {
            let data = match src {
                CopySource::Region(s) => {
                    crate::engine::memory::init::check_copy_read(
                        &s.block,
                        s.offset,
                        s.len,
                        &op.label.text(),
                    );
                    let mut buf = vec![0u8; s.len as usize];
                    s.block.read(s.offset, &mut buf);
                    buf
                }
                CopySource::Staged(bytes) => bytes,
            };
            let n = data.len().min(len as usize);
            // SAFETY: the C caller that captured this copy keeps `len` bytes at `addr` valid while the graph may
            // run (the vendor's contract for a captured copy of pageable memory); `data` is our own buffer.
            unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), addr as *mut u8, n) };
            Ok(())
        }
    };
    RUNNING_OP.with(|r| r.set(None));

    if let Err(err) = outcome {
        // In the mode `Continue` every fault is kept until a synchronize reports it; otherwise the first one
        // poisons the stream.
        let sticky = mode != FailureMode::Continue;
        if !sticky || !*faulted {
            *faulted |= sticky;
            env.exec.poison(StreamFault {
                seq,
                time: op.end,
                err,
                sticky,
            });
        }
    }
    if let Some((w, token)) = watched {
        w.leave(token);
    }
    if program_fn {
        env.exec.set_running(0);
    }
    if let Some(sink) = &env.sink {
        sink.push(seq, kind, op.label, (op.start, op.end));
    }
    env.exec.publish(seq);
    if let Some(s) = &env.serial {
        s.release(env.exec.id);
    }
}

/// The error of a kernel body (or host function) that failed on the worker of `env`.
fn kernel_fault(env: &WorkerEnv, label: &str, kind: FaultKind, message: String) -> SimError {
    SimError::KernelFault {
        kind,
        device: env.exec.id.device,
        stream: env.exec.id,
        label: label.to_string(),
        message,
    }
}
