//! Facade abuse: calls that could take the test process down (an address the simulator might mistake for host
//! memory, a huge pinned allocation), each run in a child process so that a crash is a failure.

use super::*;

/// The variable [`run_child`] sets.
const CRASH_VAR: &str = "STREAMSIM_FACADE_TEST_CHILD";

/// The child side of [`device_window_addresses_of_missing_devices_are_not_dereferenced`] and
/// [`huge_pinned_allocations_fail_with_memory_allocation`]: one risky call per scenario, asserting its
/// code. A crash (a dereference of an address the simulator mistook for host memory, an aborting
/// allocation) ends the child with a signal, which the parent reports.
#[test]
#[ignore = "runs in a child process started by the risky-call tests"]
fn risky_call_child() {
    let Ok(scenario) = std::env::var(CRASH_VAR) else {
        return;
    };
    let f = CUDA;
    let (_m, p) = machine(2);
    let _g = p.bind();
    let s = new_stream(f);
    let mut page = [0u8; 64];
    let pg = page.as_mut_ptr().cast::<c_void>();
    let mut out = null_mut();
    match scenario.as_str() {
        "default_src" => check!(
            f,
            1,
            (f.memcpy)(pg, no_such_device(), 16, cudaMemcpyDefault)
        ),
        "default_dst" => check!(
            f,
            1,
            (f.memcpy)(no_such_device(), pg, 16, cudaMemcpyDefault)
        ),
        "h2h_dst" => check!(
            f,
            1,
            (f.memcpy)(no_such_device(), pg, 16, cudaMemcpyHostToHost)
        ),
        "async_default_src" => check!(
            f,
            1,
            (f.memcpy_async)(pg, no_such_device(), 16, cudaMemcpyDefault, s)
        ),
        "malloc_host_huge" => check!(f, 2, (f.malloc_host)(&mut out, 1 << 62)),
        "malloc_host_max" => check!(f, 2, (f.malloc_host)(&mut out, usize::MAX)),
        other => panic!("unknown scenario {other}"),
    }
    std::hint::black_box((&page, out));
}

/// Runs each scenario of [`risky_call_child`] in its own child process; panics listing those that crashed or
/// returned the wrong code.
fn run_risky(scenarios: &[&str]) {
    let mut failures = Vec::new();
    for scenario in scenarios {
        let out = run_child("facade_abuse::crashes::risky_call_child", scenario, &[]);
        if !out.status.success() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let why = ["returned", "memory allocation", "panicked"]
                .iter()
                .find_map(|key| stderr.lines().find(|l| l.contains(key)))
                .unwrap_or("")
                .to_string();
            failures.push(format!("{scenario}: {} {why}", describe(&out.status)));
        }
    }
    assert!(failures.is_empty(), "risky calls failed: {failures:#?}");
}

/// Copies naming an address in the device window of a device the machine does not have, with kinds that
/// accept host memory (Default, HostToHost): the simulator must recognise the address as a device address
/// (1 InvalidValue), not dereference it as host memory. Each runs in a child process, so that a crash is a
/// failure rather than the end of the test binary.
#[test]
fn device_window_addresses_of_missing_devices_are_not_dereferenced() {
    run_risky(&["default_src", "default_dst", "h2h_dst", "async_default_src"]);
}

/// Pinned allocations too large to exist: the vendor answers 2 MemoryAllocation; the process must neither
/// abort (a failed host allocation) nor report 999 (a contained panic). In a child process.
#[test]
fn huge_pinned_allocations_fail_with_memory_allocation() {
    run_risky(&["malloc_host_huge", "malloc_host_max"]);
}

fn describe(status: &std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("crashed with signal {sig}");
        }
    }
    format!("{status}")
}
