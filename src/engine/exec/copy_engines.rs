//! The engine model: a device's copy engines and kernel slots, as one process sees them. `time::place` asks
//! it, after `time::schedule` has found when an operation is ready, when the operation can really start: a
//! host↔device copy waits for its copy engine, a kernel for a free kernel slot. The rules and where they
//! simplify hardware are in `docs/semantics/engine-model.md`.
//!
//! Everything is decided on the host thread at enqueue, in program order, like every other time: an operation
//! takes the earliest interval at or after its ready time in which its engine has room for it (first fit), and
//! keeps it — a later operation never moves an earlier one, it can only fill a gap left before it. So the times
//! are the same on every run.
//!
//! Each resource is a step function of its load over virtual time (a map from the times where the load changes
//! to the load from then on). Costs follow live work: adjacent steps of equal load merge, and at most
//! [`MAX_STEPS`] steps are kept; when there are more, the oldest half is forgotten and the time before the
//! oldest kept step counts as busy (an operation ready earlier starts there at the soonest).

use crate::engine::core::time::{CopyPath, EngineModel, VirtualTime};

/// The most load changes one resource remembers (see the module documentation).
pub(crate) const MAX_STEPS: usize = 512;

/// What an operation occupies while it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Claim {
    /// A kernel slot.
    Kernel,
    /// The copy engine of host-to-device copies.
    HostToDevice,
    /// The copy engine of device-to-host copies.
    DeviceToHost,
}

impl Claim {
    /// The claim of a copy over `path`: only host↔device copies use a copy engine (see the semantics page).
    pub(crate) fn of_copy(path: CopyPath) -> Option<Claim> {
        match path {
            CopyPath::HostToDevice => Some(Claim::HostToDevice),
            CopyPath::DeviceToHost => Some(Claim::DeviceToHost),
            _ => None,
        }
    }
}

/// A resource with a capacity: its load over virtual time.
#[derive(Debug, Clone)]
pub(crate) struct Resource {
    cap: u32,
    /// (time, load from then until the next step's time), sorted by time; the load is 0 before the first step,
    /// and the last step's load is 0 (every claim ends). Most claims land at or near the end, where a `Vec`
    /// appends or extends in place.
    steps: Vec<(u64, u32)>,
    /// Before this time the resource counts as full (forgotten history).
    floor: u64,
}

impl Resource {
    fn new(cap: u32) -> Resource {
        Resource {
            cap: cap.max(1),
            steps: Vec::new(),
            floor: 0,
        }
    }

    /// The index of the step in force at `t` (the last one starting at or before it), if any.
    fn at(&self, t: u64) -> Option<usize> {
        self.steps.partition_point(|&(k, _)| k <= t).checked_sub(1)
    }

    /// The load at time `t`.
    fn load(&self, t: u64) -> u32 {
        if t < self.floor {
            return self.cap;
        }
        self.at(t).map_or(0, |i| self.steps[i].1)
    }

    /// When the last claim ends: from then on the load is 0 (0 when nothing was claimed).
    fn free_from(&self) -> u64 {
        self.steps.last().map_or(0, |&(k, _)| k)
    }

    /// Whether `weight` more on a load of `load` exceeds the capacity.
    fn over(&self, load: u32, weight: u32) -> bool {
        u64::from(load) + u64::from(weight) > u64::from(self.cap)
    }

    /// The earliest `t >= ready` such that `weight` more fits during `[t, t + dur)`.
    fn earliest(&self, ready: u64, dur: u64, weight: u32) -> u64 {
        let weight = weight.min(self.cap);
        let mut t = ready.max(self.floor);
        if t >= self.free_from() {
            return t;
        }
        'search: loop {
            let end = t.saturating_add(dur);
            // The step in force at t (if any), then every step that starts before end.
            let in_force = self.at(t);
            let from = in_force.unwrap_or(0);
            for i in from..self.steps.len() {
                let (k, l) = self.steps[i];
                if Some(i) != in_force && k >= end {
                    break;
                }
                if self.over(l, weight) {
                    // Busy from k on: try again where this step ends (the last step, of load 0, is never busy).
                    t = self.steps[i + 1].0;
                    continue 'search;
                }
            }
            return t;
        }
    }

    /// Makes sure a step starts at `t` (splitting the step that covers it); its index.
    fn split(&mut self, t: u64) -> usize {
        let i = self.steps.partition_point(|&(k, _)| k < t);
        if self.steps.get(i).is_none_or(|&(k, _)| k != t) {
            let l = self.load(t);
            self.steps.insert(i, (t, l));
        }
        i
    }

    /// Adds `weight` to the load during `[t, t + dur)` (`dur > 0`, `t >= floor`).
    fn claim(&mut self, t: u64, dur: u64, weight: u32) {
        let weight = weight.min(self.cap);
        let end = t.saturating_add(dur);
        if end == t {
            // At the end of time: nothing left to occupy.
            return;
        }
        // At or after the end of everything claimed so far: extend the last interval or append one.
        if t >= self.free_from() {
            let n = self.steps.len();
            match self.steps.last_mut() {
                Some(last) if last.0 == t => {
                    if n >= 2 && self.steps[n - 2].1 == weight {
                        self.steps[n - 1].0 = end;
                    } else {
                        self.steps[n - 1].1 = weight;
                        self.steps.push((end, 0));
                    }
                }
                _ => {
                    self.steps.push((t, weight));
                    self.steps.push((end, 0));
                }
            }
        } else {
            let i = self.split(t);
            let j = self.split(end);
            for step in &mut self.steps[i..j] {
                step.1 = step.1.saturating_add(weight);
            }
            // Merge equal neighbours at the two boundaries (the later one first: it does not move the other).
            self.merge_at(j);
            self.merge_at(i);
        }
        if self.steps.len() > MAX_STEPS {
            self.forget();
        }
    }

    /// Removes step `i` if it has the same load as the one before it (0 before the first).
    fn merge_at(&mut self, i: usize) {
        let Some(&(_, l)) = self.steps.get(i) else {
            return;
        };
        let before = if i == 0 { 0 } else { self.steps[i - 1].1 };
        if before == l {
            self.steps.remove(i);
        }
    }

    /// Forgets the oldest half of the steps: the time before the oldest kept one counts as busy.
    fn forget(&mut self) {
        let keep = self.steps.len() / 2;
        self.floor = self.steps[keep].0;
        self.steps.drain(..keep);
    }

    #[cfg(test)]
    fn steps(&self) -> Vec<(u64, u32)> {
        self.steps.clone()
    }
}

/// One device's engines, as one process sees them (see `docs/semantics/engine-model.md`).
#[derive(Debug, Clone)]
pub(crate) struct DeviceEngines {
    kernels: Resource,
    /// The copy engine of host-to-device copies; of both directions when `d2h` is `None`.
    h2d: Resource,
    d2h: Option<Resource>,
    /// `asyncEngineCount` 0: a copy cannot overlap a kernel (it takes every kernel slot too).
    copies_exclude_kernels: bool,
}

impl DeviceEngines {
    /// The engines of a device with `async_engines` copy engines (`asyncEngineCount`) and, when
    /// `concurrent_kernels` is false (`concurrentKernels` 0), one kernel at a time; otherwise
    /// `model.kernel_slots`.
    pub(crate) fn new(
        model: &EngineModel,
        async_engines: i64,
        concurrent_kernels: bool,
    ) -> DeviceEngines {
        let slots = if concurrent_kernels {
            model.kernel_slots
        } else {
            1
        };
        DeviceEngines {
            kernels: Resource::new(slots),
            h2d: Resource::new(1),
            d2h: (async_engines >= 2).then(|| Resource::new(1)),
            copies_exclude_kernels: async_engines <= 0,
        }
    }

    /// When an operation ready at `ready` that occupies `claim` for `cost` nanoseconds starts, claiming it from
    /// then on. An operation of no duration occupies nothing and starts when it is ready.
    pub(crate) fn place(&mut self, claim: Claim, ready: VirtualTime, cost: u64) -> VirtualTime {
        if cost == 0 {
            return ready;
        }
        let ready = ready.as_nanos();
        let t = match claim {
            Claim::Kernel => {
                let t = self.kernels.earliest(ready, cost, 1);
                self.kernels.claim(t, cost, 1);
                t
            }
            Claim::HostToDevice | Claim::DeviceToHost => {
                let exclusive = self.copies_exclude_kernels;
                let all = self.kernels.cap;
                let engine = match (claim, self.d2h.as_mut()) {
                    (Claim::DeviceToHost, Some(d2h)) => d2h,
                    _ => &mut self.h2d,
                };
                // The earliest time both the copy engine and (asyncEngineCount 0) the whole device are free.
                let mut t = ready;
                loop {
                    let a = engine.earliest(t, cost, 1);
                    let b = if exclusive {
                        self.kernels.earliest(a, cost, all)
                    } else {
                        a
                    };
                    if a == b {
                        t = a;
                        break;
                    }
                    t = b;
                }
                engine.claim(t, cost, 1);
                if exclusive {
                    self.kernels.claim(t, cost, all);
                }
                t
            }
        };
        VirtualTime(t)
    }
}

/// When an operation ready at `ready` that occupies `claim` (a copy engine or a kernel slot, if any) of its
/// device's `engines` (`None`: the model is off) for `cost` nanoseconds starts: at `ready`, or later when the
/// engine is busy then (see this file).
#[inline]
pub(crate) fn place(
    engines: Option<&parking_lot::Mutex<DeviceEngines>>,
    claim: Option<Claim>,
    ready: VirtualTime,
    cost: u64,
) -> VirtualTime {
    match (engines, claim) {
        (Some(e), Some(claim)) => e.lock().place(claim, ready, cost),
        _ => ready,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(slots: u32) -> EngineModel {
        EngineModel {
            kernel_slots: slots,
            ..EngineModel::default()
        }
    }

    #[test]
    fn one_engine_serialises_and_fills_gaps() {
        let mut e = DeviceEngines::new(&model(128), 2, true);
        let h2d = Claim::HostToDevice;
        assert_eq!(e.place(h2d, VirtualTime(100), 50), VirtualTime(100));
        // Ready during the first copy: after it.
        assert_eq!(e.place(h2d, VirtualTime(120), 50), VirtualTime(150));
        // A gap before the first one that fits: taken (first fit); one that does not fit: after the others.
        assert_eq!(e.place(h2d, VirtualTime(10), 90), VirtualTime(10));
        assert_eq!(e.place(h2d, VirtualTime(10), 20), VirtualTime(200));
        assert_eq!(e.h2d.steps(), [(10, 1), (220, 0)]);
        // D2H has its own engine with asyncEngineCount 2.
        assert_eq!(
            e.place(Claim::DeviceToHost, VirtualTime(100), 50),
            VirtualTime(100)
        );
    }

    #[test]
    fn steps_merge() {
        let mut r = Resource::new(1);
        r.claim(10, 10, 1);
        r.claim(20, 10, 1);
        r.claim(0, 10, 1);
        assert_eq!(r.steps(), [(0, 1), (30, 0)]);
    }

    #[test]
    fn one_shared_engine_and_none() {
        let mut one = DeviceEngines::new(&model(128), 1, true);
        assert_eq!(
            one.place(Claim::HostToDevice, VirtualTime(0), 10),
            VirtualTime(0)
        );
        assert_eq!(
            one.place(Claim::DeviceToHost, VirtualTime(0), 10),
            VirtualTime(10)
        );
        assert_eq!(one.place(Claim::Kernel, VirtualTime(0), 10), VirtualTime(0));
        let mut none = DeviceEngines::new(&model(128), 0, true);
        assert_eq!(
            none.place(Claim::Kernel, VirtualTime(0), 10),
            VirtualTime(0)
        );
        // The copy waits for the kernel, and the next kernel for the copy.
        assert_eq!(
            none.place(Claim::HostToDevice, VirtualTime(5), 10),
            VirtualTime(10)
        );
        assert_eq!(
            none.place(Claim::Kernel, VirtualTime(12), 10),
            VirtualTime(20)
        );
    }

    #[test]
    fn kernel_slots_queue_the_next_kernel() {
        let mut e = DeviceEngines::new(&model(2), 2, true);
        assert_eq!(e.place(Claim::Kernel, VirtualTime(0), 100), VirtualTime(0));
        assert_eq!(e.place(Claim::Kernel, VirtualTime(1), 100), VirtualTime(1));
        assert_eq!(
            e.place(Claim::Kernel, VirtualTime(2), 100),
            VirtualTime(100)
        );
        // concurrentKernels 0: one at a time.
        let mut one = DeviceEngines::new(&model(128), 2, false);
        assert_eq!(
            one.place(Claim::Kernel, VirtualTime(0), 100),
            VirtualTime(0)
        );
        assert_eq!(
            one.place(Claim::Kernel, VirtualTime(0), 100),
            VirtualTime(100)
        );
        // Of no duration: no slot.
        assert_eq!(one.place(Claim::Kernel, VirtualTime(5), 0), VirtualTime(5));
    }

    #[test]
    fn history_is_bounded_and_the_forgotten_past_is_busy() {
        let mut r = Resource::new(1);
        for i in 0..(MAX_STEPS as u64) {
            // Disjoint claims with gaps: two steps each.
            r.claim(i * 10, 5, 1);
        }
        assert!(r.steps.len() <= MAX_STEPS, "{}", r.steps.len());
        assert!(r.floor > 0);
        // Ready in the forgotten past: starts at the floor at the soonest.
        let floor = r.floor;
        assert!(r.earliest(0, 1, 1) >= floor);
        // Saturated times stay in order.
        r.claim(u64::MAX - 3, 10, 1);
        assert_eq!(r.earliest(u64::MAX - 5, 1, 1), u64::MAX - 5);
        assert_eq!(r.earliest(u64::MAX - 3, 1, 1), u64::MAX);
    }
}
