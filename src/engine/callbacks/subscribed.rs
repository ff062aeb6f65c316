//! Stream callbacks run by subscribed host threads (ACL `aclrtSubscribeReport`, `aclrtLaunchCallback`,
//! `aclrtProcessReport`, `aclrtUnSubscribeReport`). A program subscribes one of its threads (named by a `u64`
//! key — the ACL facade passes `pthread_self()`, as the runtime identifies threads) to a stream; a callback
//! launched on that stream is a task: when the stream reaches it, the callback becomes *due* to that thread,
//! which runs it in its next `process_report`. A blocking callback (`ACL_CALLBACK_BLOCK`) holds the stream's later
//! tasks until it has run; a non-blocking one does not.
//!
//! Virtual time: a blocking callback occupies its stream for the cost model's host-function time, a
//! non-blocking one for none; the processing thread runs it over that span, so its clock moves to the
//! callback's end (if it is behind it). Which
//! callbacks a `process_report` runs depends only on virtual times: those issued to the thread whose start is
//! at or before the call's time plus its timeout, earliest first (and those issued while it runs, if they are
//! due too). With none due, a finite timeout is [`SimError::Timeout`] at the call's time plus the timeout
//! (ACL 507012); an infinite one blocks on the wait board (`process/board.rs`) until another thread issues one,
//! or is [`SimError::WouldDeadlock`] when none can.
//!
//! Rules (the runtime's own checks, `CbSubscribe` and `ApiErrorDecorator` in the CANN runtime source): a stream
//! has at most one subscribed thread; a thread's streams are on one device; a callback needs a subscribed
//! thread; and the two callback mechanisms do not mix on a stream — a stream whose host functions went through
//! the runtime's own thread (`launch_host_func`) cannot be subscribed, and a subscribed stream takes no host
//! function. Unsubscribing waits until the stream's callbacks have run.
//!
//! A synchronize that covers a blocking callback not yet run waits for its thread (see `process/wait.rs`).
//!
//! Lock order: a key's queue and a callback's phase are leaves (taken under the process's state lock or the
//! wait board's lock, never the other way).

use std::sync::Arc;
use std::time::Duration;

use crate::engine::callbacks::reports::{CallbackRoute, KeyState};
use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{Result, SimError, SubscriptionProblem};
use crate::engine::core::handle::Stream;
use crate::engine::core::time::{VirtualTime, saturating_nanos};
use crate::engine::exec::Work;
use crate::engine::exec::callback::Callback;
use crate::engine::observe::trace::OpKind;
use crate::engine::process::{Call, OpSpec, Process, Want, Woken};

fn refused(what: &'static str, problem: SubscriptionProblem) -> SimError {
    SimError::Subscription { what, problem }
}

impl Process {
    /// Subscribes the host thread `thread` (a key naming it, e.g. its `pthread_self()`) to `stream`'s callbacks
    /// (ACL `aclrtSubscribeReport`; see the module for the rules).
    pub fn subscribe_report(&self, thread: u64, stream: Stream) -> Result<()> {
        self.call(EngineCall::SubscribeReport.name(), |c| {
            let what = EngineCall::SubscribeReport.name();
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            let s = st.streams.get(h)?;
            let device = s.device;
            match s.callbacks {
                CallbackRoute::Thread(_) => {
                    return Err(refused(what, SubscriptionProblem::StreamAlreadySubscribed));
                }
                CallbackRoute::Runtime => {
                    return Err(refused(what, SubscriptionProblem::HostFunctionStream));
                }
                CallbackRoute::None => {}
            }
            if st
                .reports
                .keys
                .get(&thread)
                .is_some_and(|k| k.device != device)
            {
                return Err(refused(what, SubscriptionProblem::ThreadOnOtherDevice));
            }
            st.streams.get_mut(h)?.callbacks = CallbackRoute::Thread(thread);
            st.reports
                .keys
                .entry(thread)
                .or_insert_with(|| KeyState {
                    device,
                    streams: 0,
                    queue: Arc::default(),
                })
                .streams += 1;
            drop(st);
            self.p.board.watch_key(thread);
            Ok(())
        })
    }

    /// Ends the subscription of `thread` to `stream` (ACL `aclrtUnSubscribeReport`), once the stream's callbacks
    /// have run (the call blocks until then, while another thread could run them).
    pub fn unsubscribe_report(&self, thread: u64, stream: Stream) -> Result<()> {
        self.call(EngineCall::UnsubscribeReport.name(), |c| {
            let what = EngineCall::UnsubscribeReport.name();
            let queue = {
                let mut st = self.state();
                let h = st.resolve_stream(&self.m, c, stream.0)?;
                match st.streams.get(h)?.callbacks {
                    CallbackRoute::Thread(k) if k == thread => {}
                    CallbackRoute::Thread(_) => {
                        return Err(refused(what, SubscriptionProblem::NotTheSubscriber));
                    }
                    _ => return Err(refused(what, SubscriptionProblem::StreamNotSubscribed)),
                }
                let exec = st.streams.get(h)?.exec.clone();
                st.reports.keys[&thread]
                    .queue
                    .pending
                    .lock()
                    .iter()
                    .filter(|cb| {
                        cb.exec().is_some_and(|e| Arc::ptr_eq(e, &exec)) && !cb.is_finished()
                    })
                    .cloned()
                    .collect::<Vec<_>>()
            };
            self.wait_callbacks(c, what, &queue)?;
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            st.streams.get_mut(h)?.callbacks = CallbackRoute::None;
            if let Some(k) = st.reports.keys.get_mut(&thread) {
                k.streams -= 1;
                if k.streams == 0 && k.queue.pending.lock().iter().all(|cb| cb.is_finished()) {
                    st.reports.keys.remove(&thread);
                    drop(st);
                    self.p.board.unwatch_key(thread);
                }
            }
            Ok(())
        })
    }

    /// Enqueues `f` as a callback on `stream` (ACL `aclrtLaunchCallback`), run by the stream's subscribed
    /// thread in its `process_report` once the stream reaches it; with `blocking`, the stream's later work waits
    /// until it has run.
    pub fn launch_callback(
        &self,
        stream: Stream,
        f: impl FnOnce() + Send + 'static,
        blocking: bool,
    ) -> Result<()> {
        self.call(EngineCall::LaunchCallback.name(), |c| {
            let what = EngineCall::LaunchCallback.name();
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            // The runtime's order: the mixing check, the stream's context, then the subscription.
            let route = st.streams.get(h)?.callbacks;
            if route == CallbackRoute::Runtime {
                return Err(refused(what, SubscriptionProblem::HostFunctionStream));
            }
            st.check_owner(&self.m, c, what, self.m.rules.owned.host_func, h)?;
            let CallbackRoute::Thread(key) = route else {
                return Err(refused(what, SubscriptionProblem::NoSubscriber));
            };
            let cost = if blocking {
                saturating_nanos(self.m.cost.host_function)
            } else {
                0
            };
            st.reports.issued += 1;
            let cb = Arc::new(Callback::new(
                key,
                blocking,
                cost,
                st.reports.issued,
                Box::new(f),
            ));
            let point = st.enqueue(
                &self.m,
                c,
                h,
                OpSpec::new(
                    cost,
                    std::borrow::Cow::Borrowed("callback"),
                    OpKind::Callback { blocking },
                    Work::Report(cb.clone()),
                ),
            )?;
            cb.set_point(point);
            if blocking {
                st.streams.get_mut(h)?.cb_gates.push(cb.clone());
            }
            let queue = st.reports.keys[&key].queue.clone();
            queue.pending.lock().push_back(cb);
            drop(st);
            self.p.board.notify();
            Ok(())
        })
    }

    /// Runs, on the calling thread, the callbacks due to the thread `thread` (ACL `aclrtProcessReport`; see the
    /// module): how many ran. `timeout` `None` waits forever.
    pub fn process_report(&self, thread: u64, timeout: Option<Duration>) -> Result<usize> {
        self.call(EngineCall::ProcessReport.name(), |c| {
            let what = EngineCall::ProcessReport.name();
            let queue = {
                let st = self.state();
                match st.reports.keys.get(&thread) {
                    Some(k) => k.queue.clone(),
                    None => return Err(refused(what, SubscriptionProblem::ThreadNotSubscribed)),
                }
            };
            self.p.board.set_key(c.thread, thread);
            let horizon = timeout.map(|t| c.now.plus(saturating_nanos(t)));
            let mut ran = 0;
            loop {
                let Some(cb) = queue.first_due(horizon) else {
                    if ran > 0 {
                        return Ok(ran);
                    }
                    if let (Some(t), Some(h)) = (timeout, horizon) {
                        c.clock = c.clock.max(h);
                        return Err(SimError::Timeout {
                            what,
                            timeout_ms: u64::try_from(t.as_millis()).unwrap_or(u64::MAX),
                        });
                    }
                    let q = queue.clone();
                    let _demand = self.device_demand();
                    let woken = self.p.board.wait(
                        c.thread,
                        Want::Due(Arc::new(move || q.has_due(None))),
                        None,
                        |_| false,
                    );
                    if woken == Woken::Deadlock {
                        return Err(self.board_deadlock(
                            c,
                            what,
                            self.stream_of_key(thread).unwrap_or(c_stream(c)),
                        ));
                    }
                    continue;
                };
                // Its stream's earlier work runs first; it may wait for callbacks of other threads.
                self.wait_callbacks(c, what, &cb.gates())?;
                if !{
                    let _demand = self.device_demand();
                    cb.wait_reached()
                } {
                    continue;
                }
                // The thread runs it from its start to its end.
                let end = cb.end().expect("a due callback has a fixed end");
                c.clock = c.clock.max(end);
                cb.run();
                self.p.board.notify();
                ran += 1;
            }
        })
    }

    /// Blocks until `callbacks` have run (or will never run), earliest first: each is reached once its stream's
    /// earlier work has run, which the earlier ones allowed; then, if it is to run, [`SimError::WouldDeadlock`] at
    /// once if the calling thread is the one that would run it, else it waits while another thread could (see
    /// `process/board.rs`).
    pub(crate) fn wait_callbacks(
        &self,
        c: &Call,
        what: &'static str,
        callbacks: &[Arc<Callback>],
    ) -> Result<()> {
        let mut pending: Vec<Arc<Callback>> = callbacks
            .iter()
            .filter(|cb| !cb.is_finished())
            .cloned()
            .collect();
        pending.sort_by_key(|cb| (cb.start().unwrap_or(VirtualTime(u64::MAX)), cb.order()));
        for cb in pending {
            if !{
                let _demand = self.device_demand();
                cb.wait_reached()
            } {
                continue;
            }
            let stream = cb.exec().map_or(c_stream(c), |e| e.id);
            let deadlock = || self.board_deadlock(c, what, stream);
            if self.p.board.thread_of_key(cb.key) == Some(c.thread) && !cb.is_finished() {
                return Err(deadlock());
            }
            let _demand = self.device_demand();
            if self
                .p
                .board
                .wait(c.thread, Want::Callbacks(vec![cb.clone()]), None, |_| false)
                == Woken::Deadlock
            {
                return Err(deadlock());
            }
        }
        Ok(())
    }

    /// The calling host thread is known by `key` (the ACL facade passes `pthread_self()` on every call), so that
    /// a wait for a callback it is to run knows who runs it (see `process/board.rs`). Does not advance the clock.
    pub fn set_host_thread_key(&self, key: u64) {
        if let Some(thread) = self.note_thread_key(key) {
            self.p.board.set_key(thread, key);
        }
    }

    /// A stream the thread `key` is subscribed to (for messages).
    fn stream_of_key(&self, key: u64) -> Option<crate::engine::core::handle::StreamId> {
        let st = self.state();
        st.streams
            .values()
            .find(|s| s.callbacks == CallbackRoute::Thread(key))
            .map(|s| s.id)
    }
}

/// Some stream id for a message when no subscribed stream is left.
fn c_stream(c: &Call) -> crate::engine::core::handle::StreamId {
    crate::engine::core::handle::StreamId {
        process: c.process,
        device: c.device.unwrap_or(0),
        kind: crate::engine::core::handle::StreamKind::Legacy,
    }
}
