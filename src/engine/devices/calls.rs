//! Devices, contexts and peer access: set / get / reset a device, ACL contexts, and peer access.
//!
//! CUDA: a host thread starts on device 0; `reset_device` destroys everything of that device in the process
//! at once. ACL: a host thread has no device until `set_device`, which creates (or shares) the device's
//! default context and counts references; `reset_device` releases at count 0 and `reset_device_force` at
//! once. A reset waits for the device's pending work, then frees its streams, events, contexts and memory in
//! this process (later use of their handles says "destroyed by the reset of device N") and its peer access.

use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{ObjectKind, PeerProblem, Result, SimError};
use crate::engine::core::handle::{Context, ProcessId, next_ordinal};
use crate::engine::core::rules::Allow;
use crate::engine::process::{Call, ContextEntry, DeviceCtx, Process};

impl Process {
    /// Makes `device` the calling thread's current device (other threads are not affected). ACL: also makes the
    /// device's default context current, creating it on first use, and counts a reference.
    pub fn set_device(&self, device: i64) -> Result<()> {
        self.call_unchecked(EngineCall::SetDevice.name(), |_| {
            let d = self.m.check_device(device)?;
            if !self.m.rules.explicit_contexts {
                self.set_thread_current(Some(d), None);
                return Ok(());
            }
            let mut st = self.state();
            let ctx = match st.devices[d as usize].default_ctx {
                Some(h) => h,
                None => {
                    let h = new_context(&mut st, self.p.id, d, true)?;
                    st.devices[d as usize].default_ctx = Some(h);
                    h
                }
            };
            // Saturates: after 2^32 - 1 unmatched sets the count stays, and a forced reset still frees it.
            let dc = &mut st.devices[d as usize];
            dc.refcount = dc.refcount.saturating_add(1);
            drop(st);
            self.set_thread_current(Some(d), Some(ctx));
            Ok(())
        })
    }

    /// The calling thread's current device (ACL: an error if no device or context is set on this thread).
    pub fn get_device(&self) -> Result<u32> {
        self.call_unchecked(EngineCall::GetDevice.name(), |c| {
            Ok(self
                .state()
                .current(&self.m, c, EngineCall::GetDevice.name())?
                .0)
        })
    }

    /// How many devices the machine has.
    pub fn device_count(&self) -> Result<u32> {
        self.call_unchecked(EngineCall::DeviceCount.name(), |_| {
            Ok(self.m.device_count())
        })
    }

    /// Resets `device` in this process. CUDA: destroys all its streams, events and memory now (after their
    /// pending work). ACL: drops one `set_device` reference and frees the device when the count reaches 0.
    pub fn reset_device(&self, device: i64) -> Result<()> {
        self.call_unchecked(EngineCall::ResetDevice.name(), |c| {
            self.reset(c, device, false)
        })
    }

    /// Resets `device` in this process at once, whatever its reference count (ACL `aclrtResetDeviceForce`;
    /// the same as [`Process::reset_device`] in CUDA).
    pub fn reset_device_force(&self, device: i64) -> Result<()> {
        self.call_unchecked(EngineCall::ResetDeviceForce.name(), |c| {
            self.reset(c, device, true)
        })
    }

    fn reset(&self, c: &mut Call, device: i64, force: bool) -> Result<()> {
        let what = if force {
            EngineCall::ResetDeviceForce.name()
        } else {
            EngineCall::ResetDevice.name()
        };
        let d = self.m.check_device(device)?;
        let points = {
            let mut st = self.state();
            if self.m.rules.refcounted_reset {
                let dc = &mut st.devices[d as usize];
                if dc.default_ctx.is_none() {
                    return Err(SimError::DeviceNotSet { what, device: d });
                }
                if !force {
                    dc.refcount = dc.refcount.saturating_sub(1);
                    if dc.refcount > 0 {
                        return Ok(());
                    }
                }
            }
            st.device_tails(c.process, d).points
        };
        // Pending work finishes first (no lock held while waiting).
        // Operations held behind a record that was never issued are dropped with their stream.
        let points: Vec<_> = points.into_iter().filter(|p| p.time().is_some()).collect();
        self.wait_points(c, what, &points, || format!("{what}({d})"))?;
        self.p.watch[d as usize].clear();
        let mut st = self.state();
        for h in st.streams.handles_where(|s| s.device == d) {
            st.streams.remove_by_reset(h, d)?;
        }
        for h in st.events.handles_where(|e| e.device == d) {
            st.events.remove_by_reset(h, d)?;
        }
        for h in st.contexts.handles_where(|x| x.device == d) {
            st.contexts.remove_by_reset(h, d)?;
        }
        for h in st.notifies.handles_where(|n| n.device == d) {
            st.notifies.remove_by_reset(h, d)?;
        }
        st.graphs.reset_device(d, &self.m.memory);
        Process::forget_pools(&mut st, d)?;
        st.devices[d as usize] = DeviceCtx::new();
        st.peers.retain(|&(a, b)| a != d && b != d);
        drop(st);
        self.m.memory.free_all(d, c.process);
        self.state().words.retain(|&addr, _| {
            self.m.memory.classify(addr) != crate::engine::core::pointers::AddressSpace::Device(d)
        });
        if c.device == Some(d) && self.m.rules.explicit_contexts {
            self.set_thread_current(None, None);
        }
        Ok(())
    }

    /// Creates a context on `device` and makes it the calling thread's current context (ACL
    /// `aclrtCreateContext`). It has its own default stream.
    pub fn create_context(&self, device: i64) -> Result<Context> {
        self.call(EngineCall::CreateContext.name(), |_| {
            self.require_contexts(EngineCall::CreateContext.name())?;
            let d = self.m.check_device(device)?;
            let h = new_context(&mut self.state(), self.p.id, d, false)?;
            self.set_thread_current(Some(d), Some(h));
            Ok(Context(h))
        })
    }

    /// Destroys an explicit context after its pending work, with its streams and events. The default context
    /// of a device is released by resetting the device instead.
    pub fn destroy_context(&self, ctx: Context) -> Result<()> {
        self.call(EngineCall::DestroyContext.name(), |c| {
            let what = EngineCall::DestroyContext.name();
            self.require_contexts(what)?;
            let points = {
                let st = self.state();
                let x = st.contexts.get(ctx.0)?;
                if x.is_default {
                    return Err(SimError::DefaultContext {
                        what,
                        device: x.device,
                    });
                }
                st.streams
                    .values()
                    .filter(|s| s.ctx == Some(ctx.0) && s.seq > 0)
                    .map(|s| s.tail())
                    .collect::<Vec<_>>()
            };
            let points: Vec<_> = points.into_iter().filter(|p| p.time().is_some()).collect();
            self.wait_points(c, what, &points, || what.to_string())?;
            let mut st = self.state();
            for h in st.streams.handles_where(|s| s.ctx == Some(ctx.0)) {
                st.streams.remove(h)?;
            }
            for h in st.events.handles_where(|e| e.ctx == Some(ctx.0)) {
                st.events.remove(h)?;
            }
            st.contexts.remove(ctx.0)?;
            drop(st);
            if c.ctx == Some(ctx.0) {
                self.set_thread_current(None, None);
            }
            Ok(())
        })
    }

    /// Makes `ctx` the calling thread's current context; the current device switches with it.
    pub fn set_current_context(&self, ctx: Context) -> Result<()> {
        self.call(EngineCall::SetCurrentContext.name(), |_| {
            self.require_contexts(EngineCall::SetCurrentContext.name())?;
            let d = self.state().contexts.get(ctx.0)?.device;
            self.set_thread_current(Some(d), Some(ctx.0));
            Ok(())
        })
    }

    /// The calling thread's current context.
    pub fn current_context(&self) -> Result<Context> {
        self.call(EngineCall::CurrentContext.name(), |c| {
            let what = EngineCall::CurrentContext.name();
            self.require_contexts(what)?;
            let (_, ctx) = self.state().current(&self.m, c, what)?;
            ctx.map(Context).ok_or(SimError::NoContext { what })
        })
    }

    fn require_contexts(&self, what: &'static str) -> Result<()> {
        if self.m.rules.explicit_contexts {
            Ok(())
        } else {
            Err(SimError::NotSupported {
                what,
                reason: format!(
                    "the {:?} dialect has no explicit contexts (one primary context per device)",
                    self.m.dialect
                ),
            })
        }
    }

    /// Whether `device` can access `peer`'s memory (the machine's topology). CUDA answers `false` for the same
    /// device; ACL refuses it.
    pub fn can_access_peer(&self, device: i64, peer: i64) -> Result<bool> {
        self.call(EngineCall::CanAccessPeer.name(), |_| {
            let (d, p) = (self.m.check_device(device)?, self.m.check_device(peer)?);
            if d == p {
                return match self.m.rules.peer_query_same_device {
                    Allow::Yes => Ok(false),
                    Allow::No => Err(peer_error(
                        EngineCall::CanAccessPeer.name(),
                        d,
                        p,
                        PeerProblem::SameDevice,
                    )),
                };
            }
            Ok(self.m.linked(d, p))
        })
    }

    /// Enables access from the current device to `peer`'s memory (one direction, this process only).
    pub fn enable_peer_access(&self, peer: i64, flags: u32) -> Result<()> {
        self.call(EngineCall::EnablePeerAccess.name(), |c| {
            let what = EngineCall::EnablePeerAccess.name();
            let mut st = self.state();
            let (d, _) = st.current(&self.m, c, what)?;
            let flags_check = || {
                if flags != 0 {
                    Err(SimError::InvalidFlags {
                        what,
                        flags,
                        reason: "peer access flags are reserved and must be 0",
                    })
                } else {
                    Ok(())
                }
            };
            if self.m.rules.peer_flags_first {
                flags_check()?;
            }
            let p = self.m.check_device(peer)?;
            if p == d {
                return Err(peer_error(what, d, p, PeerProblem::SameDevice));
            }
            flags_check()?;
            if !self.m.linked(d, p) {
                return Err(peer_error(what, d, p, PeerProblem::NoLink));
            }
            if !st.peers.insert((d, p)) {
                drop(st);
                return self.repeat(c, what, d, p, PeerProblem::AlreadyEnabled);
            }
            Ok(())
        })
    }

    /// Disables access from the current device to `peer`'s memory.
    pub fn disable_peer_access(&self, peer: i64) -> Result<()> {
        self.call(EngineCall::DisablePeerAccess.name(), |c| {
            let what = EngineCall::DisablePeerAccess.name();
            let mut st = self.state();
            let (d, _) = st.current(&self.m, c, what)?;
            let p = self.m.check_device(peer)?;
            if p == d {
                return Err(peer_error(what, d, p, PeerProblem::SameDevice));
            }
            if !st.peers.remove(&(d, p)) {
                drop(st);
                return self.repeat(c, what, d, p, PeerProblem::NotEnabled);
            }
            Ok(())
        })
    }

    /// Enabling twice / disabling what is not enabled: an error (CUDA) or a success noted in the trace (ACL).
    fn repeat(
        &self,
        c: &Call,
        what: &'static str,
        d: u32,
        p: u32,
        problem: PeerProblem,
    ) -> Result<()> {
        match self.m.rules.peer_repeat {
            Allow::No => Err(peer_error(what, d, p, problem)),
            Allow::Yes => {
                self.host_event(c, || format!("{what}({d} → {p}): {problem:?}, no-op"));
                Ok(())
            }
        }
    }

    /// Whether this process has enabled access from `device` to `peer`. Does not advance the clock.
    pub fn peer_access_enabled(&self, device: u32, peer: u32) -> bool {
        self.state().peers.contains(&(device, peer))
    }
}

fn peer_error(what: &'static str, device: u32, peer: u32, problem: PeerProblem) -> SimError {
    SimError::PeerAccess {
        what,
        device,
        peer,
        problem,
    }
}

fn new_context(
    st: &mut crate::engine::process::ProcState,
    process: ProcessId,
    device: u32,
    is_default: bool,
) -> Result<u64> {
    st.contexts.has_room()?;
    let ordinal = next_ordinal(&mut st.next_context, ObjectKind::Context, process)?;
    st.contexts.insert(ContextEntry {
        ordinal,
        device,
        default_stream: None,
        is_default,
        stop_on_failure: false,
        failure: None,
    })
}
