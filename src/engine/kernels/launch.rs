//! Work a stream runs that is not a copy: kernel launches (with their declared accesses, and captured into a
//! graph when their stream captures), host functions and stream callbacks.

use std::borrow::Cow;
use std::panic::Location;
use std::sync::Arc;

use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::Result;
use crate::engine::core::error::SimError;
use crate::engine::core::handle::Stream;
use crate::engine::core::pointers::AddressSpace;
use crate::engine::core::pointers::HostPtr;
use crate::engine::exec::Work;
use crate::engine::graph::gate::Route;
use crate::engine::graph::node::NodeOp;
use crate::engine::kernels::kernel::Kernel;
use crate::engine::memory::block::Region;
use crate::engine::observe::trace::OpKind;
use crate::engine::process::Process;
use crate::engine::process::thread::Call;
use crate::engine::streams::entry::OpSpec;

/// A host function: run once, or shareable (a graph runs it at every launch).
enum HostBody {
    Once(Box<dyn FnOnce() + Send>),
    Shared(crate::engine::kernels::kernel::SharedHostFn),
}

impl Process {
    /// Launches a kernel on `stream` (which must belong to the current device).
    #[track_caller]
    pub fn launch(&self, stream: Stream, kernel: Kernel) -> Result<()> {
        let site = Location::caller();
        // Managed memory on a device without concurrent managed access: the launch may touch it (see
        // `Process::managed_implicit`), so it takes the checked path.
        let implicit = self.m.race.on() && self.m.memory.has_managed();
        if kernel.body.is_none() && kernel.accesses.is_empty() && !implicit {
            // (launch_plain takes this path back only when `implicit` is false: no recursion.)
            let ns = self.kernel_ns(kernel.duration);
            return self.launch_plain(stream, kernel.name, ns);
        }
        if kernel.body.is_none() && !self.m.race.on() {
            // (`implicit` is false here: it needs race detection.)
            // Only the name and the duration matter: declared accesses are checked, but without race detection
            // nothing keeps them.
            let Kernel {
                name,
                duration,
                accesses,
                ..
            } = kernel;
            return self.call(EngineCall::Launch.name(), |c| {
                let mut st = self.state();
                let h = st.resolve_stream(&self.m, c, stream.0)?;
                if let Route::Capture(cid) =
                    st.capture_route(&self.m, h, EngineCall::Launch.name())?
                {
                    let k = Kernel {
                        name,
                        duration,
                        accesses,
                        body: None,
                    };
                    return self.capture_launch(&mut st, c, cid, h, k, site);
                }
                for a in &accesses {
                    self.declared_region(a, c)?;
                }
                let ns = self.kernel_ns(duration);
                let owner = self
                    .m
                    .rules
                    .owned
                    .launch
                    .then_some(EngineCall::Launch.name());
                let spec = OpSpec::plain_kernel(ns, name);
                st.enqueue_discard(&self.m, c, h, spec, owner, None)
            });
        }
        self.call(EngineCall::Launch.name(), |c| {
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            if let Route::Capture(cid) = st.capture_route(&self.m, h, EngineCall::Launch.name())? {
                return self.capture_launch(&mut st, c, cid, h, kernel, site);
            }
            let ns = self.kernel_ns(kernel.duration);
            // A buffer kept by the process between launches (a loop of checked launches allocates nothing).
            let mut accesses = std::mem::take(&mut st.scratch_accesses);
            for a in &kernel.accesses {
                accesses.push((self.declared_region(a, c)?, a.write));
            }
            if implicit {
                self.managed_implicit(&st, h, &mut accesses)?;
            }
            let who = self.who(&mut st, h, "kernel", &kernel.name, site, &accesses)?;
            // The accesses are lent to the enqueue (checked at dispatch); only a body needs a boxed operation.
            let spec = match kernel.body {
                Some(body) => {
                    let reach = st.kernel_reach(&self.m, st.streams.get(h)?.device);
                    OpSpec::new(
                        ns,
                        kernel.name,
                        OpKind::Kernel,
                        Work::Kernel(body.once(), accesses.clone(), reach),
                    )
                }
                None => OpSpec::plain_kernel(ns, kernel.name),
            };
            let owner = self
                .m
                .rules
                .owned
                .launch
                .then_some(EngineCall::Launch.name());
            let check = who.as_ref().map(|w| (&accesses[..], w));
            let r = st.enqueue_discard(&self.m, c, h, spec, owner, check);
            accesses.clear();
            st.scratch_accesses = accesses;
            Self::who_back(&mut st, h, who);
            r
        })
    }

    /// Launches a kernel with no body and no declared accesses, of `ns` nanoseconds, on `stream`: the hot path of
    /// every launch loop (and what a C launch of a kernel without a body comes to, with no [`Kernel`] made).
    #[track_caller]
    pub(crate) fn launch_plain(
        &self,
        stream: Stream,
        name: Cow<'static, str>,
        ns: u64,
    ) -> Result<()> {
        if self.m.race.on() && self.m.memory.has_managed() {
            // The checked path: the kernel may touch managed memory (`Process::managed_implicit`).
            let k = Kernel {
                name,
                duration: Some(std::time::Duration::from_nanos(ns)),
                accesses: Vec::new(),
                body: None,
            };
            return self.launch(stream, k);
        }
        let site = Location::caller();
        self.call(EngineCall::Launch.name(), |c| {
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            if let Route::Capture(cid) = st.capture_route(&self.m, h, EngineCall::Launch.name())? {
                let k = Kernel {
                    name,
                    duration: Some(std::time::Duration::from_nanos(ns)),
                    accesses: Vec::new(),
                    body: None,
                };
                return self.capture_launch(&mut st, c, cid, h, k, site);
            }
            let owner = self
                .m
                .rules
                .owned
                .launch
                .then_some(EngineCall::Launch.name());
            st.enqueue_discard(&self.m, c, h, OpSpec::plain_kernel(ns, name), owner, None)
        })
    }

    /// A launch on a capturing stream: a kernel node (its declared accesses checked now, as a launch checks
    /// them, and resolved again at every launch of the graph).
    fn capture_launch(
        &self,
        st: &mut crate::engine::process::ProcState,
        c: &Call,
        cid: u64,
        h: u64,
        kernel: Kernel,
        site: &'static Location<'static>,
    ) -> Result<()> {
        st.check_owner(
            &self.m,
            c,
            EngineCall::Launch.name(),
            self.m.rules.owned.launch,
            h,
        )?;
        for a in &kernel.accesses {
            self.declared_for_graph(a, c)?;
        }
        let body = match kernel.body {
            None => None,
            Some(crate::engine::kernels::kernel::Body::Shared(f)) => Some(f),
            Some(crate::engine::kernels::kernel::Body::Once(_)) => {
                return Err(SimError::NotSupported {
                    what: EngineCall::Launch.name(),
                    reason: format!(
                        "kernel `{}` is being captured into a graph, which runs it at every launch: give its body \
                         with Kernel::shared_body (Fn), not Kernel::body (FnOnce)",
                        kernel.name
                    ),
                });
            }
        };
        let op = NodeOp::Kernel {
            cost_ns: self.kernel_ns(kernel.duration),
            name: kernel.name,
            accesses: kernel.accesses,
            body,
        };
        st.capture_node(cid, h, op, site).map(drop)
    }

    /// The region a kernel declares it reads or writes, checked (live, this process's, in range): device
    /// memory, or pinned host memory where the dialect's kernels can reach it (`Rules::kernel_pinned_access`).
    pub(crate) fn declared_region(
        &self,
        a: &crate::engine::kernels::kernel::Access,
        c: &Call,
    ) -> Result<Region> {
        const WHAT: &str = "kernel declared access";
        let mem = &self.m.memory;
        if mem.classify(a.ptr.addr()) != AddressSpace::PinnedHost {
            return mem.device_region(WHAT, a.ptr, a.bytes, c.process);
        }
        // Managed memory: any device's kernels reach it (docs/semantics/managed-memory.md).
        if !self.m.rules.kernel_pinned_access && !mem.is_managed(a.ptr.addr()) {
            return Err(SimError::InvalidAddress {
                what: WHAT,
                addr: a.ptr.addr(),
                space: AddressSpace::PinnedHost,
                problem: "pinned host memory, which this dialect's kernels cannot access (it must be \
                          registered for the device first, which is not simulated)",
            });
        }
        mem.pinned_region(WHAT, HostPtr(a.ptr.addr()), a.bytes, c.process)
    }

    /// [`Process::declared_region`]'s check for a graph's kernel node, which may also name a graph allocation
    /// that is not live: the node resolves it at each launch (`graph/memory.rs`).
    pub(crate) fn declared_for_graph(
        &self,
        a: &crate::engine::kernels::kernel::Access,
        c: &Call,
    ) -> Result<()> {
        match self.declared_region(a, c) {
            Ok(_) => Ok(()),
            Err(e) => self
                .m
                .memory
                .graph_space(a.ptr.addr(), a.bytes)
                .map(drop)
                .ok_or(e),
        }
    }

    /// A kernel's virtual duration in nanoseconds: its own, or the cost model's default.
    #[inline]
    fn kernel_ns(&self, duration: Option<std::time::Duration>) -> u64 {
        match duration {
            Some(d) => crate::engine::core::time::saturating_nanos(d),
            None => self.m.hot.default_kernel_ns,
        }
    }

    /// Enqueues a host function on `stream`: it runs after all earlier work of the stream and holds back later
    /// work until it returns. Runtime calls made from inside it fail with [`SimError::NotPermitted`]. A capturing
    /// stream cannot take it (it runs once, a graph runs its nodes at every launch):
    /// [`Process::launch_host_func_shared`] can be captured.
    #[track_caller]
    pub fn launch_host_func(
        &self,
        stream: Stream,
        f: impl FnOnce() + Send + 'static,
    ) -> Result<()> {
        let site = Location::caller();
        self.call(EngineCall::LaunchHostFunc.name(), |c| {
            self.host_func(c, stream, HostBody::Once(Box::new(f)), site)
        })
    }

    /// [`Process::launch_host_func`] for a function that can run more than once: a capturing stream makes it a
    /// host node of its graph, run at every launch of the graph (the C API's host functions are of this kind).
    #[track_caller]
    pub fn launch_host_func_shared(
        &self,
        stream: Stream,
        f: impl Fn() + Send + Sync + 'static,
    ) -> Result<()> {
        let site = Location::caller();
        self.call(EngineCall::LaunchHostFunc.name(), |c| {
            self.host_func(c, stream, HostBody::Shared(Arc::new(f)), site)
        })
    }

    fn host_func(
        &self,
        c: &mut Call,
        stream: Stream,
        f: HostBody,
        site: &'static Location<'static>,
    ) -> Result<()> {
        let mut st = self.state();
        let h = st.resolve_stream(&self.m, c, stream.0)?;
        let owned = self.m.rules.owned.host_func;
        st.check_owner(&self.m, c, EngineCall::LaunchHostFunc.name(), owned, h)?;
        // The two callback mechanisms do not mix on a stream (`report.rs`).
        if let crate::engine::callbacks::reports::CallbackRoute::Thread(_) =
            st.streams.get(h)?.callbacks
        {
            return Err(SimError::Subscription {
                what: EngineCall::LaunchHostFunc.name(),
                problem: crate::engine::core::error::SubscriptionProblem::SubscribedStream,
            });
        }
        if let Route::Capture(cid) =
            st.capture_route(&self.m, h, EngineCall::LaunchHostFunc.name())?
        {
            let HostBody::Shared(f) = f else {
                return Err(SimError::NotSupported {
                    what: EngineCall::LaunchHostFunc.name(),
                    reason: "a host function captured into a graph runs at every launch of the graph: give \
                             it with launch_host_func_shared (Fn), not launch_host_func (FnOnce)"
                        .into(),
                });
            };
            return st.capture_node(cid, h, NodeOp::Host(f), site).map(drop);
        }
        let work: Box<dyn FnOnce() + Send> = match f {
            HostBody::Once(f) => f,
            HostBody::Shared(f) => Box::new(move || f()),
        };
        st.enqueue(
            &self.m,
            c,
            h,
            OpSpec::new(
                crate::engine::core::time::saturating_nanos(self.m.cost.host_function),
                Cow::Borrowed("host function"),
                OpKind::HostFunction,
                Work::Host(work),
            ),
        )?;
        st.streams.get_mut(h)?.callbacks =
            crate::engine::callbacks::reports::CallbackRoute::Runtime;
        Ok(())
    }

    /// Enqueues a stream callback on `stream` (`cudaStreamAddCallback`): like a host function it runs after all
    /// earlier work of the stream and holds back later work until it returns, but it runs exactly once whatever
    /// happened — also after a device fault, when host functions and kernel bodies of the stream no longer run —
    /// and gets the stream's status: `Ok(())`, or the fault that poisoned the stream (its own, or one ordered
    /// before the callback). Runtime calls made from inside it fail with [`SimError::NotPermitted`].
    pub fn stream_add_callback(
        &self,
        stream: Stream,
        f: impl FnOnce(Result<()>) + Send + 'static,
    ) -> Result<()> {
        self.call(EngineCall::StreamAddCallback.name(), |c| {
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            let owned = self.m.rules.owned.host_func;
            st.check_owner(&self.m, c, EngineCall::StreamAddCallback.name(), owned, h)?;
            let f = move |fault: Option<SimError>| f(fault.map_or(Ok(()), Err));
            st.enqueue(
                &self.m,
                c,
                h,
                OpSpec::new(
                    crate::engine::core::time::saturating_nanos(self.m.cost.host_function),
                    Cow::Borrowed("stream callback"),
                    OpKind::HostFunction,
                    Work::Callback(Box::new(f)),
                ),
            )?;
            Ok(())
        })
    }
}
