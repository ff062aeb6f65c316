//! acl-runtime-api.md · Wait tasks and their timeouts, through the facade: aclrtSetOpWaitTimeout, notifies
//! (aclrtCreateNotify, aclrtRecordNotify, aclrtWaitAndResetNotify, aclrtDestroyNotify) and value waits
//! (aclrtValueWrite, aclrtValueWait), with exact codes and virtual times. Rows and sources:
//! docs/semantics/acl-runtime-api.md. Conventions as in `mod.rs` (every call +1 µs; an operation starts at
//! max(stream cursor, call + 2 µs, what it waits for)).

use super::*;

fn new_notify() -> Ptr {
    let mut n = NULL;
    // SAFETY: a valid out-pointer.
    ok(unsafe { aclrtCreateNotify(&mut n, ACL_NOTIFY_DEFAULT) });
    assert!(!n.is_null());
    n
}

/// `(start, end)` in µs of the operation labelled `label` in the trace of the bound process's machine.
fn span_us(p: &Process, label: &str) -> (u64, u64) {
    let t = p.machine().trace();
    let op = t
        .ops
        .iter()
        .find(|o| o.label == label)
        .unwrap_or_else(|| panic!("no operation {label:?} in the trace"));
    (op.start.as_nanos() / 1_000, op.end.as_nanos() / 1_000)
}

fn named(s: Ptr, name: &std::ffi::CStr, micros: u64) -> aclError {
    // SAFETY: a static name, no body.
    unsafe { aclsimLaunchKernel(s, name.as_ptr(), micros * 1_000, None, NULL) }
}

/// acl-runtime-api.md · Wait tasks and their timeouts · aclrtSetOpWaitTimeout → the aclrtStreamWaitEvent tasks
/// enqueued after it wait at most the timeout (seconds; 0: none, the default; the last call counts — the API page);
/// a wait longer than that makes the next synchronize return an error (the page), 107020 ACL_ERROR_RT_TASK_TIMEOUT
/// ("event wait timeout … aclrtSynchronizeEvent … 107020", vllm-ascend issue 14214); the stream goes on from the
/// deadline
#[test]
fn op_wait_timeout_makes_the_next_synchronize_return_107020() {
    on_acl(1, |p| {
        ok(aclrtSetDevice(0)); // t1
        let (s1, s2) = (new_stream(), new_stream()); // t2, t3
        let e = new_event(); // t4
        ok(aclrtSetOpWaitTimeout(1)); // t5: 1 s
        ok(named(s2, c"long", 2_000_000)); // t6: 8..2000008
        ok(aclrtRecordEvent(e, s2)); // t7: 2000008
        ok(aclrtStreamWaitEvent(s1, e)); // t8: own start 10, deadline 1000010
        ok(named(s1, c"after", 10)); // t9: 1000010..1000020
        assert_eq!(aclrtSynchronizeStream(s1), ACL_ERROR_RT_TASK_TIMEOUT); // t10
        assert_eq!(now_us(p), 1_000_020);
        assert!(last_msg().contains("timeout of 1000 ms"), "{}", last_msg());
        assert_eq!(span_us(p, "after"), (1_000_010, 1_000_020));
        ok(aclrtSynchronizeStream(s1)); // reported once (ACL_CONTINUE_ON_FAILURE)
        ok(aclrtSetOpWaitTimeout(0)); // no timeout again
        ok(aclrtStreamWaitEvent(s1, e));
        ok(aclrtSynchronizeStream(s1));
        assert_eq!(now_us(p), 2_000_008, "waited for the record");
    });
}

/// acl-runtime-api.md · Wait tasks and their timeouts · notifies → aclrtWaitAndResetNotify may precede
/// aclrtRecordNotify (the CANN notify guide's example: wait on stream2, then stream2's work, then stream1's work
/// and the record): stream2's work starts when the record is reached
#[test]
fn a_notify_wait_before_its_record_holds_the_stream_until_the_record() {
    on_acl(1, |p| {
        ok(aclrtSetDevice(0)); // t1
        let (s1, s2) = (new_stream(), new_stream()); // t2, t3
        let n = new_notify(); // t4
        ok(aclrtWaitAndResetNotify(n, s2, 0)); // t5: held
        ok(named(s2, c"compute", 10)); // t6: held
        let mut st = 0;
        // SAFETY: a valid out-pointer.
        ok(unsafe { aclrtStreamQuery(s2, &mut st) }); // t7
        assert_eq!(st, ACL_STREAM_STATUS_NOT_READY);
        ok(named(s1, c"copy", 100)); // t8: 10..110
        ok(aclrtRecordNotify(n, s1)); // t9: at 110, releases s2
        ok(aclrtSynchronizeStream(s1)); // t10 → 110
        ok(aclrtSynchronizeStream(s2)); // t111 → 120
        assert_eq!(now_us(p), 120);
        assert_eq!(span_us(p, "compute"), (110, 120));
        ok(aclrtDestroyNotify(n));
    });
}

/// acl-runtime-api.md · Wait tasks and their timeouts · notifies → one record releases one wait, and the wait
/// resets the notify ("一个Notify Record任务只能通知一个Notify Wait任务", the notify guide): a second wait needs a
/// second record; a record issued while an earlier one is unclaimed is merged with it (sim: the notify is already set);
/// nothing else could record the second → the synchronize is 507000 (sim: the vendor hangs)
#[test]
fn one_record_releases_one_notify_wait() {
    on_acl(1, |p| {
        ok(aclrtSetDevice(0)); // t1
        let (s1, s2) = (new_stream(), new_stream()); // t2, t3
        let n = new_notify(); // t4
        ok(named(s1, c"produce", 100)); // t5: 7..107
        ok(aclrtRecordNotify(n, s1)); // t6: 107
        ok(aclrtRecordNotify(n, s1)); // t7: 107, merged with the first
        ok(aclrtWaitAndResetNotify(n, s2, 0)); // t8: paired with the record: 107
        ok(named(s2, c"first", 10)); // t9: 107..117
        ok(aclrtWaitAndResetNotify(n, s2, 0)); // t10: no record left: held
        ok(named(s2, c"second", 10)); // t11: held
        assert_eq!(aclrtSynchronizeStream(s2), 507000); // t12
        assert!(last_msg().contains("would wait forever"), "{}", last_msg());
        ok(aclrtRecordNotify(n, s1)); // t13: at 107 (s1's cursor), releases the second wait: 117
        ok(aclrtSynchronizeStream(s2)); // → 127
        assert_eq!(span_us(p, "first"), (107, 117));
        assert_eq!(span_us(p, "second"), (117, 127));
    });
}

/// acl-runtime-api.md · Wait tasks and their timeouts · notifies → aclrtWaitAndResetNotify's timeout (seconds; 0:
/// forever — the API page; the runtime logs it in seconds, `ApiImpl::NotifyWait`): a wait that times out gives up
/// at its own start plus the timeout, and the next synchronize returns 107020; the record that comes later goes to
/// the next wait
#[test]
fn a_notify_wait_with_a_timeout_gives_up() {
    on_acl(1, |p| {
        ok(aclrtSetDevice(0)); // t1
        let (s1, s2) = (new_stream(), new_stream()); // t2, t3
        let n = new_notify(); // t4
        ok(aclrtWaitAndResetNotify(n, s2, 2)); // t5: own start 7, deadline 2000007
        ok(named(s2, c"after", 10)); // t6: held, then 2000007..2000017
        assert_eq!(aclrtSynchronizeStream(s2), ACL_ERROR_RT_TASK_TIMEOUT); // t7: nothing else could record
        assert_eq!(now_us(p), 2_000_017);
        assert_eq!(span_us(p, "after"), (2_000_007, 2_000_017));
        ok(aclrtRecordNotify(n, s1)); // unclaimed (the timed-out wait does not take it)
        ok(aclrtWaitAndResetNotify(n, s2, 0));
        ok(aclrtSynchronizeStream(s2));
    });
}

/// acl-runtime-api.md · Wait tasks and their timeouts · notifies · bad input: NULL notify 100000 (ACL layer); a
/// flag other than ACL_NOTIFY_DEFAULT / ACL_NOTIFY_DEVICE_USE_ONLY 107000 (runtime: `RT_ERROR_INVALID_VALUE`);
/// destroyed or forged 107017; a stream of another context 107003 (`ApiImpl::NotifyRecord` / `NotifyWait`); a
/// device reset frees the device's notifies
#[test]
fn notify_bad_input() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let s = new_stream();
        let mut n = NULL;
        // SAFETY: valid out-pointers or NULL.
        unsafe {
            assert_eq!(aclrtCreateNotify(std::ptr::null_mut(), 0), 100000);
            assert_eq!(aclrtCreateNotify(&mut n, 2), 107000);
            ok(aclrtCreateNotify(&mut n, ACL_NOTIFY_DEVICE_USE_ONLY));
        }
        assert_eq!(aclrtRecordNotify(NULL, s), 100000);
        assert_eq!(aclrtWaitAndResetNotify(NULL, s, 0), 100000);
        assert_eq!(aclrtDestroyNotify(NULL), 100000);
        for bad in [GARBAGE, s, new_event()] {
            assert_eq!(aclrtRecordNotify(bad, s), 107017, "{bad:?}");
            assert_eq!(aclrtWaitAndResetNotify(bad, s, 0), 107017, "{bad:?}");
            assert_eq!(aclrtDestroyNotify(bad), 107017, "{bad:?}");
        }
        assert_eq!(aclrtRecordNotify(n, GARBAGE), 107017);
        let first = current_context();
        let mut other = NULL;
        // SAFETY: a valid out-pointer.
        ok(unsafe { aclrtCreateContext(&mut other, 0) });
        assert_eq!(aclrtRecordNotify(n, s), 107003);
        assert_eq!(aclrtWaitAndResetNotify(n, s, 0), 107003);
        ok(aclrtDestroyContext(other));
        ok(aclrtSetCurrentContext(first));
        ok(aclrtDestroyNotify(n));
        assert_eq!(aclrtDestroyNotify(n), 107017);
        let n = new_notify();
        ok(aclrtResetDeviceForce(0));
        ok(aclrtSetDevice(0));
        assert_eq!(aclrtRecordNotify(n, NULL), 107017, "freed by the reset");
    });
}

/// acl-runtime-api.md · Wait tasks and their timeouts · aclrtValueWait / aclrtValueWrite → the CANN memory-semantic
/// synchronization guide's example: a wait on stream1 until the word is 1, enqueued before the write; stream1's
/// work starts when the write (on stream2, after its kernel) is reached; a later wait for 2 is released by the
/// later write of 2; the value is in memory
#[test]
fn a_value_wait_before_its_write_holds_the_stream_until_the_write() {
    on_acl(1, |p| {
        ok(aclrtSetDevice(0)); // t1
        let (s1, s2) = (new_stream(), new_stream()); // t2, t3
        let word = malloc(8); // t4: fresh memory reads as zeros (sim)
        ok(aclrtValueWait(word, 1, ACL_STREAM_WAIT_VALUE_EQ, s1)); // t5: not 1: held
        ok(named(s1, c"myKernel2", 10)); // t6: held
        ok(named(s2, c"myKernel1", 100)); // t7: 9..109
        ok(aclrtValueWrite(word, 1, 0, s2)); // t8: at 109, releases s1
        ok(aclrtSynchronizeStream(s1)); // t9 → 119
        assert_eq!((now_us(p), span_us(p, "myKernel2")), (119, (109, 119)));
        ok(aclrtValueWait(word, 2, ACL_STREAM_WAIT_VALUE_EQ, s1)); // t120: the last write is 1: held
        ok(aclrtValueWrite(word, 2, 0, s2)); // t121: at 123, releases s1
        ok(aclrtSynchronizeStream(s1)); // t122 → 123
        assert_eq!(now_us(p), 123);
        let mut back = [0u8; 8];
        // SAFETY: a valid host buffer of 8 bytes.
        ok(unsafe {
            aclrtMemcpy(
                back.as_mut_ptr().cast(),
                8,
                word,
                8,
                ACL_MEMCPY_DEVICE_TO_HOST,
            )
        });
        assert_eq!(u64::from_le_bytes(back), 2);
    });
}

/// acl-runtime-api.md · Wait tasks and their timeouts · aclrtValueWait → the four comparisons
/// (`ACL_STREAM_WAIT_VALUE_GEQ/EQ/AND/NOR`, the API page) against the last value write issued (or the memory at the
/// call before any): a satisfied wait waits for that write only; an unsatisfied one is held for a later write that
/// satisfies it; with nothing to issue it, a synchronize is 507000, and one with a timeout 507046
#[test]
fn value_wait_conditions() {
    on_acl(1, |p| {
        ok(aclrtSetDevice(0));
        let (s1, s2) = (new_stream(), new_stream());
        let word = malloc(8);
        // Fresh memory: zeros. GEQ 0 holds, EQ 0 holds, AND 1 does not, NOR 1 holds (~1 != 0).
        for (v, flag) in [
            (0, ACL_STREAM_WAIT_VALUE_GEQ),
            (0, ACL_STREAM_WAIT_VALUE_EQ),
            (1, ACL_STREAM_WAIT_VALUE_NOR),
        ] {
            ok(aclrtValueWait(word, v, flag, s1));
        }
        ok(aclrtSynchronizeStream(s1));
        ok(named(s2, c"slow", 50));
        ok(aclrtValueWrite(word, 6, 0, s2)); // after "slow"
        ok(aclrtSynchronizeStream(s2));
        let write_end = span_us(p, "slow").1;
        for (v, flag) in [
            (5, ACL_STREAM_WAIT_VALUE_GEQ),
            (6, ACL_STREAM_WAIT_VALUE_EQ),
            (2, ACL_STREAM_WAIT_VALUE_AND),
            (1, ACL_STREAM_WAIT_VALUE_NOR),
        ] {
            ok(aclrtValueWait(word, v, flag, s1));
            ok(aclrtSynchronizeStream(s1));
            assert!(now_us(p) >= write_end, "waited for the write");
        }
        // AND 1 against 6 does not hold: held; nothing could write: 507000; with a timeout, 507046.
        ok(aclrtValueWait(word, 1, ACL_STREAM_WAIT_VALUE_AND, s1));
        assert_eq!(aclrtSynchronizeStream(s1), 507000);
        let before = now_us(p);
        assert_eq!(aclrtSynchronizeStreamWithTimeout(s1, 3), 507046);
        assert_eq!(now_us(p), before + 1 + 3_000);
        ok(aclrtValueWrite(word, 7, 0, s2)); // 7 & 1 != 0: released
        ok(aclrtSynchronizeStream(s1));
    });
}

/// acl-runtime-api.md · Wait tasks and their timeouts · aclrtValueWrite / aclrtValueWait · bad input: NULL devAddr
/// 100000 (ACL layer); a write flag other than 0, a wait flag beyond NOR, memory that is not the device's
/// (`ApiErrorDecorator::MemWriteValue`: location not device) or not allocated: 107000; an address not 8-byte
/// aligned (the page: "devAddr要求8字节对齐", sim: 107000); a forged stream 107017; another context's stream 107003
#[test]
fn value_bad_input() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let s = new_stream();
        let word = malloc(16);
        let pinned = malloc_host(16);
        let unallocated = (DEVICE_ADDRESS_BASE + 0x10_0000) as Ptr;
        assert_eq!(aclrtValueWrite(NULL, 1, 0, s), 100000);
        assert_eq!(aclrtValueWait(NULL, 1, 0, s), 100000);
        assert_eq!(aclrtValueWrite(word, 1, 1, s), 107000);
        assert_eq!(aclrtValueWait(word, 1, 4, s), 107000);
        assert_eq!(aclrtValueWait(word, 1, u32::MAX, s), 107000);
        let odd = (word as usize + 4) as Ptr;
        assert_eq!(aclrtValueWrite(odd, 1, 0, s), 107000);
        for bad in [pinned, unallocated] {
            assert_eq!(aclrtValueWrite(bad, 1, 0, s), 107000, "{bad:?}");
            assert_eq!(aclrtValueWait(bad, 0, 0, s), 107000, "{bad:?}");
        }
        let end = (word as usize + 12) as Ptr; // 8 bytes from here run past the 16-byte allocation
        assert_eq!(aclrtValueWait(end, 0, 0, s), 107000);
        assert_eq!(aclrtValueWrite(word, 1, 0, GARBAGE), 107017);
        assert_eq!(aclrtValueWait(word, 1, 0, GARBAGE), 107017);
        let first = current_context();
        let mut other = NULL;
        // SAFETY: a valid out-pointer.
        ok(unsafe { aclrtCreateContext(&mut other, 0) });
        assert_eq!(aclrtValueWrite(word, 1, 0, s), 107003);
        assert_eq!(aclrtValueWait(word, 1, 0, s), 107003);
        ok(aclrtDestroyContext(other));
        ok(aclrtSetCurrentContext(first));
        ok(aclrtFree(word));
        assert_eq!(aclrtValueWrite(word, 1, 0, s), 107000, "freed");
    });
}
