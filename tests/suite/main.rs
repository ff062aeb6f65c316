//! streamsim's integration tests: one binary, one module per concern. New tests go in the module of their
//! concern; a new concern gets a new file here and a `mod` line below.
//!
//! Truth-table tests name the row of `docs/semantics/*.md` they check in their doc comment, e.g.
//! `/// cuda-musa.md · Events · EventQuery · never recorded → 0 Success`.

mod acl_facade;
mod bad_input;
mod c_acl_api;
mod c_graphs;
mod c_header_sets;
mod c_headers;
mod c_kernels;
mod c_pools;
mod c_programs;
mod c_runtime_api;
mod c_schedules;
mod c_semantics;
mod c_toolkit;
mod cc_programs;
mod churn;
mod common;
mod contexts;
mod cuda_events;
mod cuda_facade;
mod cuda_streams;
mod deferred_waits;
mod determinism;
mod dropin;
mod engines;
mod facade_abuse;
mod fault_injection;
mod fork;
mod golden;
mod graphs;
mod hammer;
// hip-tests' unit tests as .cu programs, built by `streamsim cc` and by nvcc (run with `streamsim exec`).
mod hip_tests;
mod host_deref;
mod host_models;
mod ipc;
mod ipc_devices;
mod ipc_memory;
mod kernel_bodies;
mod kernel_races;
mod layers;
mod limits;
mod managed;
mod multi_device;
mod musa_facade;
mod newcomer;
mod null_stream_sync;
mod os_children;
mod os_processes;
mod ownership;
mod panics;
mod peers;
mod pitched;
mod pools;
mod racecheck_blocks;
mod races;
mod reports;
mod scenario_pools;
mod scenario_tasks;
mod scenarios;
mod schedules;
mod shared_host_faults;
mod shutdown;
mod smoke;
mod stress;
mod threaded_waits;
mod trace_window;
mod wakeups;
// The sanitizer (`streamsim cc` kernels' accesses checked): memcheck, synccheck, byte-exact races.
mod sanitizer;

/// The heap bytes this OS process holds now (every allocation of the test binary is counted): the churn tests
/// assert that the live heap follows the live objects, byte for byte, where RSS would only show pages.
pub(crate) fn live_heap_bytes() -> usize {
    HEAP.live.load(std::sync::atomic::Ordering::Relaxed)
}

/// The system allocator, counting the bytes live.
struct Counting {
    live: std::sync::atomic::AtomicUsize,
}

#[global_allocator]
static HEAP: Counting = Counting {
    live: std::sync::atomic::AtomicUsize::new(0),
};

// SAFETY: every call is forwarded to the system allocator unchanged; the counter is only arithmetic.
unsafe impl std::alloc::GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        // SAFETY: the caller's contract is forwarded as it is.
        let p = unsafe { std::alloc::System.alloc(layout) };
        if !p.is_null() {
            self.live
                .fetch_add(layout.size(), std::sync::atomic::Ordering::Relaxed);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        // SAFETY: as `alloc`.
        let p = unsafe { std::alloc::System.alloc_zeroed(layout) };
        if !p.is_null() {
            self.live
                .fetch_add(layout.size(), std::sync::atomic::Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        // SAFETY: as `alloc`.
        unsafe { std::alloc::System.dealloc(ptr, layout) };
        self.live
            .fetch_sub(layout.size(), std::sync::atomic::Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as `alloc`.
        let p = unsafe { std::alloc::System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            self.live
                .fetch_add(new_size, std::sync::atomic::Ordering::Relaxed);
            self.live
                .fetch_sub(layout.size(), std::sync::atomic::Ordering::Relaxed);
        }
        p
    }
}
