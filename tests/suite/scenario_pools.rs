//! The scenario statements of stream-ordered memory (`src/tools/scenario/pools.rs`): `mem-pool`, `default-pool`,
//! `set-device-pool`, `malloc-async`, `free-async`, `pool-set`, `pool-get`, `trim-pool`, `destroy P` and `sleep` —
//! their parse errors in each dialect and what running them answers (the exact vendor code, address and host
//! clock). Rows: `docs/semantics/stream-ordered-memory.md`.

use streamsim::scenario::{self, Run, outcome_text, parse};

use crate::common::with_watchdog;

fn run(text: &str) -> Run {
    let text = text.to_string();
    with_watchdog(20, move || scenario::run_source(&text).expect("parses"))
}

/// Checks `(line, the whole answer, host clock after it)` for each line, and that the run did not stop.
fn answers(run: &Run, expected: &[(usize, &str, &str)]) {
    assert!(run.stopped.is_none(), "{:?}", run.stopped);
    for &(line, want, clock) in expected {
        let c = run
            .calls
            .iter()
            .find(|c| c.line == line)
            .unwrap_or_else(|| panic!("no call on line {line}: {}", run.transcript()));
        let (a, t) = (outcome_text(run.vendor, &c.outcome), c.clock.to_string());
        assert!(
            a == want && t == clock,
            "line {line}: expected {want:?} at {clock}, got {a:?} at {t}\n{}",
            run.transcript()
        );
    }
}

#[test]
fn malformed_pool_statements_say_what_was_expected() {
    // ACL allocates from a named pool on a created stream, and has no default pool.
    let e = parse("dialect acl\nstream s\nmalloc-async b 8 on s").unwrap_err();
    assert_eq!(
        e.expected,
        "`on S pool P` (aclrtMemPoolMallocAsync takes a pool and a created stream)"
    );
    let e = parse("dialect acl\nmem-pool p\nmalloc-async b 8 pool p").unwrap_err();
    assert_eq!(e.line, 3);
    let e = parse("dialect acl\nstream s\nmem-pool p\nmalloc-async b 8 on s pool p\nfree-async b")
        .unwrap_err();
    assert_eq!(
        e.expected,
        "`on S` (aclrtMemPoolFreeAsync takes a created stream)"
    );
    let e = parse("dialect acl\ndefault-pool p").unwrap_err();
    assert_eq!((e.line, e.column), (2, 1));
    assert!(
        e.found
            .starts_with("`default-pool`, which dialect acl does not have"),
        "{e}"
    );
    let e = parse("dialect musa\nmem-pool p\nset-device-pool 0 q").unwrap_err();
    assert!(e.found.contains("not declared"), "{e}");
    // A pool is its own kind of name.
    let e = parse("stream s\nmalloc-async b 8 pool s").unwrap_err();
    assert_eq!(e.found, "`s`, which is a stream (line 1)");
    let e = parse("mem-pool p\nkernel k writes p").unwrap_err();
    assert_eq!(e.found, "`p`, which is a memory pool (line 1)");
    // Attributes: their words, 0 or 1 for the policies, a size or `max` for the threshold.
    let e = parse("mem-pool p\npool-set p threshold 0").unwrap_err();
    assert!(
        e.expected
            .starts_with("a pool attribute (`release-threshold`"),
        "{e}"
    );
    let e = parse("mem-pool p\npool-set p reuse-allow-opportunistic 2").unwrap_err();
    assert_eq!(e.expected, "0 or 1");
    let e = parse("mem-pool p\npool-set p release-threshold lots").unwrap_err();
    assert_eq!(
        e.expected,
        "a size such as `4096`, `64MiB` or `max` (UINT64_MAX)"
    );
    let e = parse("mem-pool p max-size 1MiB max-size 2MiB").unwrap_err();
    assert_eq!(e.expected, "`device D`, `max-size SIZE` or end of line");
    let e = parse("sleep 10").unwrap_err();
    assert!(e.expected.starts_with("a duration"), "{e}");
    // A typo is told the nearest statement.
    let e = parse("malloc-asnc b 8").unwrap_err();
    assert_eq!(
        e.found,
        "unknown statement `malloc-asnc`; did you mean `malloc-async`?"
    );
}

/// CUDA: the default pool's allocation (1 µs of host time per call), its reuse on the same stream, a second
/// stream's allocation right after the free (a new address: the free has not completed, nothing orders the
/// stream after it), after a sleep past the free's end (opportunistic reuse: the same address), the counters
/// (4 KiB allocations in a 2 MiB chunk); size 0 and a double free are cudaErrorInvalidValue, and so is
/// `destroy` of a default pool; the release threshold as `max`.
#[test]
fn cuda_pool_statements_answer_with_addresses_and_codes() {
    let r = run("stream a non-blocking\n\
         stream b non-blocking\n\
         default-pool pool\n\
         malloc-async x 4KiB on a\n\
         free-async x on a\n\
         malloc-async y 4KiB on a\n\
         free-async y on a\n\
         malloc-async z 4KiB on b\n\
         sleep 10us\n\
         malloc-async w 4KiB on b\n\
         pool-get pool used-mem-current\n\
         pool-get pool reserved-mem-current\n\
         malloc-async zero 0 on a\n\
         free-async z on b\n\
         free-async z on b\n\
         destroy pool\n\
         pool-get pool release-threshold\n\
         pool-set pool release-threshold max\n\
         pool-get pool release-threshold\n");
    let at0 = "0 cudaSuccess: 4 KiB on device 0 at 0xd0000000000000";
    answers(
        &r,
        &[
            // `default-pool` without `device` asks cudaGetDevice first (1 µs), as a C program would.
            (3, "0 cudaSuccess: device 0's default pool", "4.000 µs"),
            (4, at0, "5.000 µs"),
            (6, at0, "7.000 µs"),
            (
                8,
                "0 cudaSuccess: 4 KiB on device 0 at 0xd0000000001000",
                "9.000 µs",
            ),
            (9, "(the host sleeps 10µs (no runtime call))", "19.000 µs"),
            (10, at0, "20.000 µs"),
            (11, "0 cudaSuccess: used-mem-current = 8 KiB", "21.000 µs"),
            (
                12,
                "0 cudaSuccess: reserved-mem-current = 2 MiB",
                "22.000 µs",
            ),
            (
                13,
                "1 cudaErrorInvalidValue: invalid value for malloc_async: size 0",
                "23.000 µs",
            ),
            (14, "0 cudaSuccess", "24.000 µs"),
            (
                15,
                "1 cudaErrorInvalidValue: free_async: the address (device 0 memory) is already freed",
                "25.000 µs",
            ),
            (
                16,
                "1 cudaErrorInvalidValue: pool_destroy: a device's default memory pool cannot be destroyed",
                "26.000 µs",
            ),
            (17, "0 cudaSuccess: release-threshold = 0 B", "27.000 µs"),
            (18, "0 cudaSuccess", "28.000 µs"),
            (
                19,
                "0 cudaSuccess: release-threshold = UINT64_MAX",
                "29.000 µs",
            ),
        ],
    );
    assert!(r.races.is_empty());
}

/// ACL: `mem-pool` rounds to 2 MiB (and 0 is the device's memory), every allocation takes 2 MiB, no reuse
/// across streams without a policy even after an event, a stream of another context is 107003 (the stream must
/// belong to the current context), size 0 succeeds and writes nothing (the variable then holds nothing: using it
/// stops the run with its line), a pool above the device's memory is 107000.
#[test]
fn acl_pool_statements_answer_with_addresses_and_codes() {
    let r = run("dialect acl\n\
         set-device 0\n\
         stream s\n\
         stream t\n\
         event e\n\
         mem-pool p max-size 3MiB\n\
         malloc-async a 1 on s pool p\n\
         free-async a on s\n\
         record e on s\n\
         wait t e\n\
         malloc-async b 1 on t pool p\n\
         malloc-async c 1 on t pool p\n\
         pool-get p used-mem-current\n\
         context other\n\
         malloc-async d 1 on t pool p\n\
         set-context other\n\
         mem-pool q max-size 1000GiB\n\
         malloc-async z 0 on s pool p\n\
         free-async z on s\n");
    assert_eq!(
        r.stopped.as_ref().map(|e| (e.line, e.message.as_str())),
        Some((19, "`z` holds nothing: creating it failed on line 18"))
    );
    let at = |addr: &str| format!("0 ACL_SUCCESS: 1 B on device 0 at {addr}");
    let line = |n: usize| {
        let c = r.calls.iter().find(|c| c.line == n).expect("a call");
        outcome_text(r.vendor, &c.outcome)
    };
    assert_eq!(line(6), "0 ACL_SUCCESS: a pool of 4 MiB on device 0");
    assert_eq!(line(7), at("0xd0000000000000"));
    assert_eq!(line(11), at("0xd0000000200000"));
    assert!(
        line(12).starts_with("507000 ACL_ERROR_RT_INTERNAL_ERROR"),
        "{}",
        line(12)
    );
    assert_eq!(line(13), "0 ACL_SUCCESS: used-mem-current = 2 MiB");
    assert!(
        line(15).starts_with("107003 ACL_ERROR_RT_STREAM_CONTEXT"),
        "{}",
        line(15)
    );
    assert!(
        line(17).starts_with("107000 ACL_ERROR_RT_PARAM_INVALID"),
        "{}",
        line(17)
    );
    assert_eq!(line(18), "(size 0: ACL_SUCCESS, `z` is not written)");
}
