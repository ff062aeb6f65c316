//! The real-time watchdog ([`MachineBuilder::watchdog`](crate::MachineBuilder::watchdog)): a host function,
//! kernel body or stream callback that has not returned within a limit of real time is reported
//! ([`HangReport`]), once. Nothing is stopped or skipped: the work goes on, and a program whose function
//! returns later finishes as it would have.
//!
//! Under the serialize schedule the running function holds every other stream back, so a function that waits
//! for another stream's work (which CUDA does not promise to run meanwhile) waits forever: the watchdog then
//! gives the schedule up (`serial.rs`, everything runs concurrently from then on, so the work can finish) and
//! the host threads waiting for the device are told the cycle ([`SimError::WouldDeadlock`](crate::SimError)).
//!
//! A wait for a record of another OS process (an IPC event) that has not run there within the limit is reported
//! too (kind [`IPC_WAIT`]), with the chain across processes that holds it, as the members publish it in the
//! shared segment (`host/remote.rs`); and a function's report names the operations of other processes that wait
//! for its stream's records.
//!
//! The watchdog is one thread per machine that has one, waking every quarter of the limit (at least every
//! millisecond, at most every 250 ms); it ends once the machine and its workers are gone. Only the functions
//! running now are tracked, and at most [`MAX_REPORTS`] reports are kept.
//!
//! Lock order: the table of running functions and the report list are leaves; the schedule's lock is taken
//! with neither held.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use parking_lot::Mutex;

use crate::engine::core::handle::StreamId;
use crate::engine::core::hang::{HangReport, IPC_WAIT, WaitLink};
use crate::engine::exec::point::StreamExec;
use crate::engine::host::remote::RemoteRecord;
use crate::engine::schedules::serialize::Serial;

/// The most hang reports a machine keeps (the first ones).
pub const MAX_REPORTS: usize = 64;

struct Running {
    stream: StreamId,
    seq: u64,
    label: String,
    kind: &'static str,
    since: Instant,
    reported: bool,
    /// The stream that runs it: other OS processes may wait for its records (a function of the stream).
    exec: Option<Arc<StreamExec>>,
    /// The record of another OS process it waits for (kind [`IPC_WAIT`]).
    remote: Option<Arc<RemoteRecord>>,
}

/// One machine's watchdog.
pub(crate) struct Watchdog {
    limit: Duration,
    running: Mutex<BTreeMap<u64, Running>>,
    next: AtomicU64,
    reports: Mutex<Vec<HangReport>>,
    serial: Option<Arc<Serial>>,
    /// Write each report to stderr as it is made (the C library's default machines).
    print: bool,
}

impl std::fmt::Debug for Watchdog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watchdog")
            .field("limit", &self.limit)
            .finish()
    }
}

impl Watchdog {
    /// A watchdog with `limit`, and its thread. `Err` if the host refuses the thread.
    pub fn start(
        limit: Duration,
        serial: Option<Arc<Serial>>,
        print: bool,
    ) -> std::io::Result<Arc<Watchdog>> {
        let w = Arc::new(Watchdog {
            limit,
            running: Mutex::new(BTreeMap::new()),
            next: AtomicU64::new(0),
            reports: Mutex::new(Vec::new()),
            serial,
            print,
        });
        let weak: Weak<Watchdog> = Arc::downgrade(&w);
        let period = (limit / 4).clamp(Duration::from_millis(1), Duration::from_millis(250));
        std::thread::Builder::new()
            .name("ss-watchdog".to_string())
            .spawn(move || {
                loop {
                    // Real time, by design: the watchdog reports what real time shows (a function that does not
                    // return); nothing virtual depends on it.
                    std::thread::sleep(period);
                    let Some(w) = weak.upgrade() else { break };
                    w.check();
                }
            })?;
        Ok(w)
    }

    /// A function of `exec` starts running: its token for [`Watchdog::leave`].
    pub fn enter(
        &self,
        stream: StreamId,
        seq: u64,
        label: &str,
        kind: &'static str,
        exec: Arc<StreamExec>,
    ) -> u64 {
        self.insert(Running {
            stream,
            seq,
            label: label.to_string(),
            kind,
            since: Instant::now(),
            reported: false,
            exec: Some(exec),
            remote: None,
        })
    }

    /// Operation `seq` starts waiting for the record `remote` of another OS process: its token for
    /// [`Watchdog::leave`].
    pub fn enter_remote(
        &self,
        stream: StreamId,
        seq: u64,
        label: &str,
        remote: Arc<RemoteRecord>,
    ) -> u64 {
        self.insert(Running {
            stream,
            seq,
            label: label.to_string(),
            kind: IPC_WAIT,
            since: Instant::now(),
            reported: false,
            exec: None,
            remote: Some(remote),
        })
    }

    fn insert(&self, r: Running) -> u64 {
        let token = self.next.fetch_add(1, Ordering::Relaxed);
        self.running.lock().insert(token, r);
        token
    }

    /// The function of `token` has returned.
    pub fn leave(&self, token: u64) {
        self.running.lock().remove(&token);
    }

    /// The reports so far, in the order made.
    pub fn reports(&self) -> Vec<HangReport> {
        self.reports.lock().clone()
    }

    fn check(&self) {
        let now = Instant::now();
        type Late = (
            StreamId,
            u64,
            String,
            &'static str,
            Option<Arc<StreamExec>>,
            Option<Arc<RemoteRecord>>,
        );
        let late: Vec<Late> = {
            let mut running = self.running.lock();
            running
                .values_mut()
                .filter(|r| !r.reported && now.duration_since(r.since) >= self.limit)
                .map(|r| {
                    r.reported = true;
                    (
                        r.stream,
                        r.seq,
                        r.label.clone(),
                        r.kind,
                        r.exec.clone(),
                        r.remote.clone(),
                    )
                })
                .collect()
        };
        let limit_ms = u64::try_from(self.limit.as_millis()).unwrap_or(u64::MAX);
        for (stream, seq, label, kind, exec, remote) in late {
            // A wait on another process: the chain across processes that holds it (none: it has just run).
            let across = remote.as_ref().map_or_else(Vec::new, |r| r.chain());
            if remote.is_some() && across.is_empty() {
                continue;
            }
            let mut waiting = self
                .serial
                .as_ref()
                .map_or_else(Vec::new, |s| s.waiting_for(stream, seq));
            // Other processes' operations that wait for a record of this stream at or after the function.
            if let Some(p) = exec.as_ref().and_then(|e| e.remote.get()) {
                waiting.extend(p.waiting_here(seq));
            }
            let report = |held_back: &[WaitLink]| {
                let report = HangReport {
                    stream,
                    seq,
                    label: label.clone(),
                    kind,
                    limit_ms,
                    held_back: held_back.to_vec(),
                    waiting: waiting.clone(),
                    across: across.clone(),
                };
                if self.print {
                    eprintln!("streamsim: {report}");
                }
                let mut reports = self.reports.lock();
                if reports.len() < MAX_REPORTS {
                    reports.push(report);
                }
            };
            match &self.serial {
                Some(s)
                    if s.serializing()
                        && s.running()
                            .is_some_and(|t| t.stream == stream && t.seq == seq) =>
                {
                    let running = WaitLink::Running {
                        stream,
                        seq,
                        label: label.clone(),
                        kind,
                        limit_ms,
                    };
                    // The report is made before the waiting threads see the verdict.
                    let mut made = false;
                    s.give_up(running, |held| {
                        made = true;
                        report(held);
                    });
                    if !made {
                        report(&[]);
                    }
                }
                _ => report(&[]),
            }
        }
    }
}
