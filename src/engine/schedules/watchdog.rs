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
use crate::engine::core::hang::{HangReport, WaitLink};
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

    /// A function starts running: its token for [`Watchdog::leave`].
    pub fn enter(&self, stream: StreamId, seq: u64, label: &str, kind: &'static str) -> u64 {
        let token = self.next.fetch_add(1, Ordering::Relaxed);
        self.running.lock().insert(
            token,
            Running {
                stream,
                seq,
                label: label.to_string(),
                kind,
                since: Instant::now(),
                reported: false,
            },
        );
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
        let late: Vec<(StreamId, u64, String, &'static str)> = {
            let mut running = self.running.lock();
            running
                .values_mut()
                .filter(|r| !r.reported && now.duration_since(r.since) >= self.limit)
                .map(|r| {
                    r.reported = true;
                    (r.stream, r.seq, r.label.clone(), r.kind)
                })
                .collect()
        };
        let limit_ms = u64::try_from(self.limit.as_millis()).unwrap_or(u64::MAX);
        for (stream, seq, label, kind) in late {
            let waiting = self
                .serial
                .as_ref()
                .map_or_else(Vec::new, |s| s.waiting_for(stream, seq));
            let report = |held_back: &[WaitLink]| {
                let report = HangReport {
                    stream,
                    seq,
                    label: label.clone(),
                    kind,
                    limit_ms,
                    held_back: held_back.to_vec(),
                    waiting: waiting.clone(),
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
