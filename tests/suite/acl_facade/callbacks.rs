//! acl-runtime-api.md · Callbacks · callbacks through the facade: aclrtSubscribeReport, aclrtLaunchCallback
//! (ACL_CALLBACK_BLOCK and ACL_CALLBACK_NO_BLOCK), aclrtProcessReport, aclrtUnSubscribeReport — callbacks run on
//! the subscribed thread when it processes reports, in the documented order of effects — and their errors: an
//! unsubscribed stream, a timeout, mixing with aclrtLaunchHostFunc. Rows and sources:
//! docs/semantics/acl-runtime-api.md. Conventions as in `mod.rs`.

use std::sync::Mutex;
use std::sync::atomic::AtomicBool;

use super::*;

/// The calling thread's `pthread_self()`, as the runtime identifies threads.
fn me() -> u64 {
    unsafe extern "C" {
        fn pthread_self() -> usize;
    }
    // SAFETY: no preconditions.
    (unsafe { pthread_self() }) as u64
}

/// What ran, in order, and on which thread.
#[derive(Default)]
struct Log {
    events: Mutex<Vec<(String, u64)>>,
}

fn log() -> &'static Log {
    Box::leak(Box::default())
}

impl Log {
    fn names(&self) -> Vec<String> {
        self.events
            .lock()
            .unwrap()
            .iter()
            .map(|(n, _)| n.clone())
            .collect()
    }
}

/// A log entry and the thread it was written on; the argument is a leaked `(&Log, &'static str)`.
unsafe extern "C" fn note(arg: *mut c_void) {
    // SAFETY: `arg` is a leaked pair.
    let (log, name) = unsafe { &*(arg as *const (&'static Log, &'static str)) };
    log.events.lock().unwrap().push((name.to_string(), me()));
}

fn entry(log: &'static Log, name: &'static str) -> Ptr {
    Box::leak(Box::new((log, name))) as *const (&'static Log, &'static str) as Ptr
}

/// A kernel named `name` of `micros` µs whose body writes `name` to the log.
fn logged_kernel(s: Ptr, micros: u64, log: &'static Log, name: &'static str) -> aclError {
    kernel_with(s, micros, note, entry(log, name))
}

fn callback(s: Ptr, log: &'static Log, name: &'static str, block: u32) -> aclError {
    // SAFETY: `note` may run with its leaked argument on any thread.
    unsafe { aclrtLaunchCallback(Some(note), entry(log, name), block, s) }
}

/// acl-runtime-api.md · Callbacks · aclrtLaunchCallback · ACL_CALLBACK_BLOCK → the callback runs on the subscribed
/// thread when it calls aclrtProcessReport, after the stream's earlier tasks and before its later ones
/// ("指定回调任务是否阻塞本Stream上后续任务的执行", the API page); sim: it is due once the stream reaches it,
/// and the processing thread runs it over its span (the host-function time), so its clock moves to the callback's
/// end; a synchronize from the thread that must process it would never return (sim: 507000)
#[test]
fn a_blocking_callback_runs_on_the_processing_thread_between_the_tasks() {
    on_acl(1, |p| {
        let l = log();
        ok(aclrtSetDevice(0)); // t1
        let s = new_stream(); // t2
        ok(aclrtSubscribeReport(me(), s)); // t3
        ok(logged_kernel(s, 10, l, "before")); // t4: 6..16
        ok(callback(s, l, "callback", ACL_CALLBACK_BLOCK)); // t5: 16..17
        ok(logged_kernel(s, 10, l, "after")); // t6: 17..27
        assert_eq!(
            aclrtSynchronizeStream(s),
            507000,
            "this thread must run it first"
        ); // t7
        ok(aclrtProcessReport(100)); // t8: runs it over 16..17, clock → 17 (its end)
        assert_eq!(now_us(p), 17);
        ok(aclrtSynchronizeStream(s)); // t17 → 27
        assert_eq!(now_us(p), 27);
        assert_eq!(l.names(), ["before", "callback", "after"]);
        assert_eq!(
            l.events.lock().unwrap()[1].1,
            me(),
            "on the processing thread"
        );
        assert_eq!(
            aclrtProcessReport(5),
            ACL_ERROR_RT_REPORT_TIMEOUT,
            "nothing more"
        ); // t28 → 5028
        assert_eq!(now_us(p), 5_028);
        ok(aclrtUnSubscribeReport(me(), s));
    });
}

/// acl-runtime-api.md · Callbacks · aclrtLaunchCallback · ACL_CALLBACK_NO_BLOCK → the stream does not wait for the
/// callback: its later tasks run and a synchronize returns before the callback has run; the callback runs when its
/// thread processes reports
#[test]
fn a_non_blocking_callback_does_not_hold_the_stream() {
    on_acl(1, |p| {
        let l = log();
        ok(aclrtSetDevice(0)); // t1
        let s = new_stream(); // t2
        ok(aclrtSubscribeReport(me(), s)); // t3
        ok(logged_kernel(s, 10, l, "before")); // t4: 6..16
        ok(callback(s, l, "callback", ACL_CALLBACK_NO_BLOCK)); // t5: at 16, no time of its own
        ok(logged_kernel(s, 10, l, "after")); // t6: 16..26
        ok(aclrtSynchronizeStream(s)); // t7 → 26
        assert_eq!(l.names(), ["before", "after"], "not run yet");
        ok(aclrtProcessReport(-1)); // t27
        assert_eq!(now_us(p), 27);
        assert_eq!(l.names(), ["before", "after", "callback"]);
        ok(aclrtUnSubscribeReport(me(), s));
    });
}

/// acl-runtime-api.md · Callbacks · aclrtProcessReport → the vendor's callback pattern
/// (example/2_advanced_features/callback of hicann/runtime): a report thread sets the context and loops
/// aclrtProcessReport(100) while the main thread subscribes it, launches a blocking callback, a long task, five
/// blocking callbacks, and synchronizes. Every callback runs on the report thread, in order, after the tasks before
/// it; the synchronize waits for them
#[test]
fn callbacks_run_on_a_subscribed_report_thread() {
    on_acl(1, |p| {
        let l = log();
        ok(aclrtSetDevice(0));
        let ctx = current_context() as usize;
        let s = new_stream();
        let looping: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(true)));
        let q = p.clone();
        let report = std::thread::spawn(move || {
            let _bound = q.bind();
            ok(aclrtSetCurrentContext(ctx as Ptr));
            while looping.load(SeqCst) {
                let _ = aclrtProcessReport(100);
            }
            me()
        });
        // The report thread's id, as the sample gets it from std::thread::id.
        let tid = {
            use std::os::unix::thread::JoinHandleExt;
            report.as_pthread_t() as u64
        };
        ok(aclrtSubscribeReport(tid, s));
        ok(callback(s, l, "before launch", ACL_CALLBACK_BLOCK));
        ok(logged_kernel(s, 1_000, l, "long op"));
        for _ in 0..5 {
            ok(callback(s, l, "after task", ACL_CALLBACK_BLOCK));
        }
        ok(aclrtSynchronizeStream(s));
        let names = l.names();
        assert_eq!(names[0], "before launch");
        assert_eq!(names[1], "long op");
        assert_eq!(&names[2..], ["after task"; 5]);
        looping.store(false, SeqCst);
        let report_id = report.join().unwrap();
        assert_eq!(report_id, tid);
        for (name, thread) in l.events.lock().unwrap().iter() {
            if name != "long op" {
                assert_eq!(*thread, tid, "{name} ran on the report thread");
            }
        }
        ok(aclrtUnSubscribeReport(tid, s));
    });
}

/// acl-runtime-api.md · Callbacks · aclrtProcessReport → a callback is due only once its start is within the
/// timeout: the call waits for it in virtual time, or returns 507012 ACL_ERROR_RT_REPORT_TIMEOUT at the call's time
/// plus the timeout (`RT_ERROR_REPORT_TIMEOUT`); −1 waits for it; 0 or below −1 is 100000
/// (`aclrtProcessReportImpl`)
#[test]
fn process_report_waits_in_virtual_time() {
    on_acl(1, |p| {
        let l = log();
        ok(aclrtSetDevice(0)); // t1
        let s = new_stream(); // t2
        ok(aclrtSubscribeReport(me(), s)); // t3
        ok(kernel(s, 10_000)); // t4: 6..10006
        ok(callback(s, l, "late", ACL_CALLBACK_NO_BLOCK)); // t5: at 10006
        assert_eq!(aclrtProcessReport(0), 100000);
        assert_eq!(aclrtProcessReport(-2), 100000);
        assert_eq!(aclrtProcessReport(3), ACL_ERROR_RT_REPORT_TIMEOUT); // t6: due at 10006 > 3006
        assert_eq!(now_us(p), 3_006);
        ok(aclrtProcessReport(8)); // t3007: 10006 <= 11007: runs, clock → 10006
        assert_eq!((now_us(p), l.names()), (10_006, vec!["late".to_string()]));
        ok(callback(s, l, "next", ACL_CALLBACK_NO_BLOCK)); // t10007: at 10009
        ok(aclrtProcessReport(-1));
        assert_eq!(now_us(p), 10_009);
        ok(aclrtUnSubscribeReport(me(), s));
    });
}

/// acl-runtime-api.md · Callbacks · subscriptions · errors (the runtime's `CbSubscribe` and `ApiErrorDecorator`,
/// rt_error_codes.h): a callback on a stream no thread is subscribed to 107015; a stream subscribed twice 107011; a
/// thread whose streams are on another device 107012; unsubscribing a stream that is not subscribed 107011, or
/// another thread's 107012; aclrtProcessReport on a thread subscribed to nothing 107012; a bad block type 100000; a
/// NULL function 107000; a stream of another context 107003
#[test]
fn subscription_errors() {
    on_acl(2, |_| {
        let l = log();
        ok(aclrtSetDevice(0));
        let (s, t) = (new_stream(), new_stream());
        assert_eq!(
            callback(s, l, "x", ACL_CALLBACK_BLOCK),
            ACL_ERROR_RT_STREAM_NO_CB_REG
        );
        assert_eq!(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
        assert_eq!(
            aclrtUnSubscribeReport(me(), s),
            ACL_ERROR_RT_STREAM_SUBSCRIBE
        );
        ok(aclrtSubscribeReport(me(), s));
        assert_eq!(aclrtSubscribeReport(me(), s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
        assert_eq!(
            aclrtSubscribeReport(me() + 1, s),
            ACL_ERROR_RT_STREAM_SUBSCRIBE
        );
        ok(aclrtSubscribeReport(me(), t)); // a second stream of the same device
        assert_eq!(
            aclrtUnSubscribeReport(me() + 1, s),
            ACL_ERROR_RT_THREAD_SUBSCRIBE
        );
        assert_eq!(callback(s, l, "x", 2), 100000);
        // SAFETY: a NULL function is refused before use.
        assert_eq!(
            unsafe { aclrtLaunchCallback(None, NULL, ACL_CALLBACK_BLOCK, s) },
            107000
        );
        assert_eq!(callback(GARBAGE, l, "x", ACL_CALLBACK_BLOCK), 107017);
        assert_eq!(aclrtSubscribeReport(me(), GARBAGE), 107017);
        ok(aclrtSetDevice(1));
        let u = new_stream();
        assert_eq!(
            aclrtSubscribeReport(me(), u),
            ACL_ERROR_RT_THREAD_SUBSCRIBE,
            "another device"
        );
        assert_eq!(
            callback(s, l, "x", ACL_CALLBACK_BLOCK),
            107003,
            "another context"
        );
        ok(aclrtSetDevice(0));
        ok(aclrtUnSubscribeReport(me(), s));
        ok(aclrtUnSubscribeReport(me(), t));
        ok(aclrtSetDevice(1));
        ok(aclrtSubscribeReport(me(), u));
        ok(aclrtUnSubscribeReport(me(), u));
    });
}

/// acl-runtime-api.md · Callbacks · aclrtLaunchCallback · "对于同一个Stream，两套实现异步场景下的callback功能的
/// 接口不能混用" (the API page: the two callback mechanisms must not be mixed on one stream); the runtime:
/// aclrtLaunchHostFunc on a subscribed stream, and aclrtSubscribeReport / aclrtLaunchCallback on a stream whose
/// host functions went through the runtime's thread, are 107011 (`ApiErrorDecorator::LaunchHostFunc`,
/// `::SubscribeReport`, `::CallbackLaunch`)
#[test]
fn the_two_callback_mechanisms_do_not_mix_on_a_stream() {
    on_acl(1, |_| {
        let l = log();
        ok(aclrtSetDevice(0));
        let (s, h) = (new_stream(), new_stream());
        ok(aclrtSubscribeReport(me(), s));
        // SAFETY: `noop` may run on the worker.
        assert_eq!(
            unsafe { aclrtLaunchHostFunc(s, Some(noop), NULL) },
            ACL_ERROR_RT_STREAM_SUBSCRIBE
        );
        ok(aclrtUnSubscribeReport(me(), s));
        // SAFETY: as above.
        ok(unsafe { aclrtLaunchHostFunc(h, Some(noop), NULL) });
        assert_eq!(aclrtSubscribeReport(me(), h), ACL_ERROR_RT_STREAM_SUBSCRIBE);
        assert_eq!(
            callback(h, l, "x", ACL_CALLBACK_BLOCK),
            ACL_ERROR_RT_STREAM_SUBSCRIBE
        );
        ok(aclrtSynchronizeStream(h));
    });
}

/// acl-runtime-api.md · Failure modes · aclrtSetStreamFailureMode · ACL_STOP_ON_FAILURE → a callback after the
/// fault is a later task: it never runs (the vendor's callback_exception sample's "After error still callback" line
/// is absent from its expected output); aclrtProcessReport finds nothing due (507012)
#[test]
fn a_callback_after_a_fault_in_stop_mode_never_runs() {
    on_acl(1, |_| {
        let l = log();
        ok(aclrtSetDevice(0));
        let s = new_stream();
        ok(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
        ok(aclrtSubscribeReport(me(), s));
        unsafe extern "C" fn fail(_: *mut c_void) -> i32 {
            1
        }
        // SAFETY: a static name; the body touches nothing.
        ok(unsafe {
            streamsim::capi::aclsimLaunchFallibleKernel(
                s,
                c"bad".as_ptr(),
                10_000,
                Some(fail),
                NULL,
            )
        });
        ok(callback(s, l, "after error", ACL_CALLBACK_BLOCK));
        assert_eq!(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
        assert_eq!(aclrtProcessReport(100), ACL_ERROR_RT_REPORT_TIMEOUT);
        assert!(l.names().is_empty());
        ok(aclrtUnSubscribeReport(me(), s));
    });
}

static SYNC_IN_CALLBACK: Mutex<Vec<(aclError, aclError)>> = Mutex::new(Vec::new());

/// Synchronizes the stream it was launched on (the argument), and the device: what the API page warns against.
unsafe extern "C" fn synchronizes_its_stream(arg: *mut c_void) {
    let s = aclrtSynchronizeStream(arg);
    let d = aclrtSynchronizeDevice();
    SYNC_IN_CALLBACK.lock().unwrap().push((s, d));
}

/// acl-runtime-api.md · Callbacks · aclrtLaunchCallback · the callback synchronizes its own stream → the API page
/// says a callback must not synchronize a stream or the device ("不应该调用…Stream同步、Device同步…否则可能导致错误
/// 或死锁"); sim: inside a blocking callback, a synchronize that covers that callback would wait for itself, and
/// is 507000 (the vendor may hang), never a hang; the callback then returns and the stream goes on
#[test]
fn a_callback_that_synchronizes_its_own_stream_is_told_507000() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let s = new_stream();
        ok(aclrtSubscribeReport(me(), s));
        ok(kernel(s, 10));
        // SAFETY: the callback takes the stream handle, which outlives it.
        ok(unsafe { aclrtLaunchCallback(Some(synchronizes_its_stream), s, ACL_CALLBACK_BLOCK, s) });
        ok(kernel(s, 10));
        ok(aclrtProcessReport(100));
        assert_eq!(
            *SYNC_IN_CALLBACK.lock().unwrap(),
            [(ACL_ERROR_RT_INTERNAL_ERROR, ACL_ERROR_RT_INTERNAL_ERROR)]
        );
        ok(aclrtSynchronizeStream(s));
        ok(aclrtUnSubscribeReport(me(), s));
    });
}
