//! Graph memory nodes through the Rust API (`docs/semantics/graph-memory.md`): allocation and free nodes added by
//! hand and captured from `malloc_async` / `free_async`, their fixed addresses, their replay times and lifetimes
//! (race detector), the relaunch rule and AutoFreeOnLaunch, frees outside the graph, the restrictions on graphs
//! with memory nodes, trim and the attributes.

use std::time::Duration;

use streamsim::{
    CaptureMode, GraphMemAttr, Kernel, Machine, NodeSpec, NodeType, Process, RaceKind, SimError,
    StreamFlags,
};

const MIB2: u64 = 2 << 20;

fn machine() -> (Machine, Process) {
    let m = Machine::builder().devices(1).build().unwrap();
    let p = m.process();
    (m, p)
}

fn attrs(p: &Process) -> [u64; 4] {
    [
        GraphMemAttr::UsedMemCurrent,
        GraphMemAttr::UsedMemHigh,
        GraphMemAttr::ReservedMemCurrent,
        GraphMemAttr::ReservedMemHigh,
    ]
    .map(|a| p.graph_mem_attribute(0, a).unwrap())
}

fn not_supported(e: SimError, what: &str) {
    assert!(
        matches!(&e, SimError::NotSupported { what: w, .. } if *w == what),
        "{e:?}"
    );
}

fn invalid(e: SimError, what: &str) {
    assert!(
        matches!(&e, SimError::InvalidValue { what: w, .. } if *w == what),
        "{e:?}"
    );
}

/// graph-memory.md · AddMemAllocNode, replay · alloc → kernel → free: the address is fixed when the node is added
/// and the same at every launch; the nodes run in DAG order on the lanes (alloc 1 µs, the kernel, free 1 µs); the
/// memory (a 2 MiB granule) is taken at the first launch and stays mapped (used, reserved) until a trim
#[test]
fn an_allocation_lives_from_its_node_to_its_free_node_at_every_launch() {
    let (m, p) = machine();
    let g = p.create_graph().unwrap();
    let a = p
        .add_graph_node(
            g,
            &[],
            NodeSpec::MemAlloc {
                device: 0,
                bytes: 1000,
            },
        )
        .unwrap();
    let (ptr, bytes) = p.graph_mem_node(a).unwrap();
    assert_eq!(bytes, 1000);
    assert_eq!(p.node_type(a).unwrap(), NodeType::MemAlloc);
    assert_eq!(NodeType::MemAlloc.to_raw(), 10);
    let k = p
        .add_graph_node(
            g,
            &[a],
            NodeSpec::Kernel(
                Kernel::new("k")
                    .duration(Duration::from_micros(10))
                    .writes(ptr, 1000),
            ),
        )
        .unwrap();
    let f = p.add_graph_node(g, &[k], NodeSpec::MemFree(ptr)).unwrap();
    assert_eq!(p.graph_mem_node(f).unwrap(), (ptr, 0));
    assert_eq!(p.node_type(f).unwrap(), NodeType::MemFree);
    // Before any launch nothing is used or reserved.
    assert_eq!(attrs(&p), [0, 0, 0, 0]);
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let x = p.instantiate_graph(g).unwrap();
    for _ in 0..2 {
        let before = p.now();
        p.launch_graph(x, s).unwrap();
        p.stream_synchronize(s).unwrap();
        let t = m.trace();
        let span = |l: &str| {
            let o = t.ops.iter().rev().find(|e| e.label == l).unwrap();
            (o.start, o.end)
        };
        let start = before.plus(1_000).plus(2_000);
        assert_eq!(span("graph allocation"), (start, start.plus(1_000)));
        assert_eq!(span("k"), (start.plus(1_000), start.plus(11_000)));
        assert_eq!(span("graph free"), (start.plus(11_000), start.plus(12_000)));
        // Freed in the graph: the memory stays mapped to the allocation (used) and reserved until a trim.
        assert_eq!(attrs(&p), [MIB2, MIB2, MIB2, MIB2]);
    }
    assert_eq!(m.race_reports(), vec![]);
    p.graph_mem_trim(0).unwrap();
    assert_eq!(attrs(&p), [0, MIB2, 0, MIB2]);
    p.reset_graph_mem_high(0, GraphMemAttr::UsedMemHigh)
        .unwrap();
    p.reset_graph_mem_high(0, GraphMemAttr::ReservedMemHigh)
        .unwrap();
    assert_eq!(attrs(&p), [0, 0, 0, 0]);
    invalid(
        p.reset_graph_mem_high(0, GraphMemAttr::UsedMemCurrent)
            .unwrap_err(),
        "device_set_graph_mem_attribute",
    );
    assert!(matches!(
        p.graph_mem_trim(1).unwrap_err(),
        SimError::InvalidDevice { .. }
    ));
}

/// graph-memory.md · GraphLaunch · an allocation the graph does not free stays live after the launch (used by
/// work after it) until freed; a launch while it is live is InvalidValue; after `free` the graph launches again;
/// with AutoFreeOnLaunch every launch frees it first
#[test]
fn an_unfreed_allocation_blocks_the_next_launch_unless_auto_free() {
    let (m, p) = machine();
    let g = p.create_graph().unwrap();
    let a = p
        .add_graph_node(
            g,
            &[],
            NodeSpec::MemAlloc {
                device: 0,
                bytes: 4096,
            },
        )
        .unwrap();
    let (ptr, _) = p.graph_mem_node(a).unwrap();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let x = p.instantiate_graph(g).unwrap();
    p.launch_graph(x, s).unwrap();
    // Work ordered after the launch may use it.
    p.memset_async(ptr, 7, 4096, s).unwrap();
    p.stream_synchronize(s).unwrap();
    assert_eq!(attrs(&p), [MIB2, MIB2, MIB2, MIB2]);
    invalid(p.launch_graph(x, s).unwrap_err(), "launch_graph");
    p.free_async(ptr, s).unwrap();
    p.stream_synchronize(s).unwrap();
    // Freeing does not shrink the footprint (graphMemoryFootprint); a trim does.
    assert_eq!(attrs(&p), [MIB2, MIB2, MIB2, MIB2]);
    // Freed twice: not allocated.
    assert!(matches!(
        p.free(ptr).unwrap_err(),
        SimError::InvalidAddress { .. }
    ));
    p.launch_graph(x, s).unwrap();
    p.stream_synchronize(s).unwrap();
    p.free(ptr).unwrap();
    p.destroy_graph_exec(x).unwrap();
    let y = p.instantiate_graph_with(g, true).unwrap();
    p.launch_graph(y, s).unwrap();
    p.launch_graph(y, s).unwrap();
    p.stream_synchronize(s).unwrap();
    let t = m.trace();
    assert_eq!(
        t.ops
            .iter()
            .filter(|e| e.label == "graph allocation freed at launch")
            .count(),
        1
    );
    assert_eq!(m.race_reports(), vec![]);
}

/// graph-memory.md · races · a stream not ordered after the launch that uses the allocation is a use before
/// allocation; work after the graph's free node is a use after free
#[test]
fn uses_outside_the_allocations_lifetime_are_reported() {
    let (m, p) = machine();
    let g = p.create_graph().unwrap();
    let a = p
        .add_graph_node(
            g,
            &[],
            NodeSpec::MemAlloc {
                device: 0,
                bytes: 256,
            },
        )
        .unwrap();
    let (ptr, _) = p.graph_mem_node(a).unwrap();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let other = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let x = p.instantiate_graph(g).unwrap();
    p.launch_graph(x, s).unwrap();
    p.launch(
        other,
        Kernel::new("reader")
            .duration(Duration::from_micros(5))
            .reads(ptr, 256),
    )
    .unwrap();
    p.device_synchronize().unwrap();
    let r = m.race_reports();
    assert_eq!(r.len(), 1, "{r:#?}");
    assert_eq!(r[0].kind, RaceKind::UseBeforeAlloc);
    p.free(ptr).unwrap();

    let g = p.create_graph().unwrap();
    let a = p
        .add_graph_node(
            g,
            &[],
            NodeSpec::MemAlloc {
                device: 0,
                bytes: 256,
            },
        )
        .unwrap();
    let (ptr, _) = p.graph_mem_node(a).unwrap();
    p.add_graph_node(g, &[a], NodeSpec::MemFree(ptr)).unwrap();
    let x = p.instantiate_graph(g).unwrap();
    p.launch_graph(x, s).unwrap();
    p.launch(
        s,
        Kernel::new("late")
            .duration(Duration::from_micros(5))
            .reads(ptr, 256),
    )
    .unwrap();
    p.device_synchronize().unwrap();
    let r = m.race_reports();
    assert_eq!(r.len(), 2, "{r:#?}");
    assert_eq!(r[1].kind, RaceKind::UseAfterFree);
}

/// graph-memory.md · restrictions · a graph with memory nodes cannot be cloned, be a child graph, lose an edge or
/// a node, or be instantiated while an executable graph of it lives (NotSupported); free nodes: an address no
/// allocation node returned, a second free in one graph, a free in both the owning and another graph
/// (InvalidValue)
#[test]
fn the_restrictions_of_graphs_with_memory_nodes() {
    let (_m, p) = machine();
    let g = p.create_graph().unwrap();
    let a = p
        .add_graph_node(
            g,
            &[],
            NodeSpec::MemAlloc {
                device: 0,
                bytes: 64,
            },
        )
        .unwrap();
    let (ptr, _) = p.graph_mem_node(a).unwrap();
    let e = p.add_graph_node(g, &[a], NodeSpec::Empty).unwrap();
    not_supported(p.clone_graph(g).unwrap_err(), "clone_graph");
    not_supported(
        p.remove_graph_dependencies(g, &[(a, e)]).unwrap_err(),
        "remove_graph_dependencies",
    );
    not_supported(p.destroy_graph_node(e).unwrap_err(), "destroy_graph_node");
    let parent = p.create_graph().unwrap();
    not_supported(
        p.add_graph_node(parent, &[], NodeSpec::ChildGraph(g))
            .unwrap_err(),
        "add_graph_node",
    );
    let x = p.instantiate_graph(g).unwrap();
    not_supported(p.instantiate_graph(g).unwrap_err(), "instantiate_graph");
    match p.update_graph_exec(x, g).unwrap_err() {
        SimError::GraphExecUpdate { outcome, .. } => {
            assert_eq!(outcome.result, streamsim::UpdateResult::NotSupported);
            assert_eq!(outcome.error_node, Some(a));
        }
        e => panic!("{e:?}"),
    }
    p.destroy_graph_exec(x).unwrap();
    let x = p.instantiate_graph(g).unwrap();
    p.destroy_graph_exec(x).unwrap();

    let plain = p.malloc(64).unwrap();
    invalid(
        p.add_graph_node(g, &[], NodeSpec::MemFree(plain))
            .unwrap_err(),
        "add_graph_node",
    );
    invalid(
        p.add_graph_node(
            g,
            &[],
            NodeSpec::MemAlloc {
                device: 0,
                bytes: 0,
            },
        )
        .unwrap_err(),
        "add_graph_node",
    );
    // Freed by another graph: the owning graph cannot free it too.
    let other = p.create_graph().unwrap();
    p.add_graph_node(other, &[], NodeSpec::MemFree(ptr))
        .unwrap();
    invalid(
        p.add_graph_node(g, &[e], NodeSpec::MemFree(ptr))
            .unwrap_err(),
        "add_graph_node",
    );
    invalid(
        p.add_graph_node(other, &[], NodeSpec::MemFree(ptr))
            .unwrap_err(),
        "add_graph_node",
    );
    // Freed by its own graph: no other graph may free it.
    let h = p.create_graph().unwrap();
    let b = p
        .add_graph_node(
            h,
            &[],
            NodeSpec::MemAlloc {
                device: 0,
                bytes: 64,
            },
        )
        .unwrap();
    let (q, _) = p.graph_mem_node(b).unwrap();
    p.add_graph_node(h, &[b], NodeSpec::MemFree(q)).unwrap();
    invalid(
        p.add_graph_node(other, &[], NodeSpec::MemFree(q))
            .unwrap_err(),
        "add_graph_node",
    );
}

/// graph-memory.md · capture · `malloc_async` and `free_async` in a capture are allocation and free nodes; the
/// captured copy into the allocation resolves it at each launch; outside the capture the address is not
/// allocated until the graph runs
#[test]
fn stream_ordered_allocation_in_a_capture_makes_memory_nodes() {
    let (m, p) = machine();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let host = p.malloc_host(512).unwrap();
    p.begin_capture(s, CaptureMode::Global).unwrap();
    let d = p.malloc_async(512, s).unwrap();
    p.memset_async(d, 0x5a, 512, s).unwrap();
    p.memcpy_async(host, d, 512, s).unwrap();
    p.free_async(d, s).unwrap();
    let g = p.end_capture(s).unwrap();
    let types: Vec<NodeType> = p
        .graph_nodes(g)
        .unwrap()
        .into_iter()
        .map(|n| p.node_type(n).unwrap())
        .collect();
    assert_eq!(
        types,
        [
            NodeType::MemAlloc,
            NodeType::Memset,
            NodeType::Memcpy,
            NodeType::MemFree
        ]
    );
    assert!(matches!(
        p.memset(d, 0, 512).unwrap_err(),
        SimError::InvalidAddress { .. }
    ));
    let x = p.instantiate_graph(g).unwrap();
    p.launch_graph(x, s).unwrap();
    p.stream_synchronize(s).unwrap();
    let mut back = [0u8; 512];
    p.host_read(host, &mut back).unwrap();
    assert!(back.iter().all(|&b| b == 0x5a));
    assert_eq!(m.race_reports(), vec![]);
}

/// graph-memory.md · the graphs' allocator · memory a released allocation left is reused by an allocation of its
/// size, and given back to the device when a launch needs room for another size; a launch the device has no
/// memory for is cudaErrorMemoryAllocation (2), nothing enqueued
#[test]
fn cached_graph_memory_never_makes_a_launch_fail() {
    let m = Machine::builder()
        .devices(1)
        .device(0, streamsim::DeviceConfig::default().memory(8 << 20))
        .build()
        .unwrap();
    let p = m.process();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let run_once = |bytes: u64| -> Result<(), SimError> {
        let g = p.create_graph().unwrap();
        let a = p
            .add_graph_node(g, &[], NodeSpec::MemAlloc { device: 0, bytes })
            .unwrap();
        let (ptr, _) = p.graph_mem_node(a).unwrap();
        p.add_graph_node(g, &[a], NodeSpec::MemFree(ptr)).unwrap();
        let x = p.instantiate_graph(g).unwrap();
        let r = p.launch_graph(x, s);
        p.stream_synchronize(s).unwrap();
        p.destroy_graph_exec(x).unwrap();
        p.destroy_graph(g).unwrap();
        r
    };
    run_once(6 << 20).unwrap();
    // Released: its 6 MiB stay in the allocator (reserved), no longer mapped.
    assert_eq!(attrs(&p), [0, 6 << 20, 6 << 20, 6 << 20]);
    run_once(6 << 20).unwrap();
    assert_eq!(attrs(&p), [0, 6 << 20, 6 << 20, 6 << 20]);
    // 4 MiB: 2 MiB free on the device, so the cached 6 MiB go back first.
    run_once(4 << 20).unwrap();
    assert_eq!(attrs(&p), [0, 6 << 20, 4 << 20, 6 << 20]);
    let e = run_once(10 << 20).unwrap_err();
    assert!(matches!(e, SimError::OutOfMemory { .. }), "{e:?}");
    assert_eq!(attrs(&p), [0, 6 << 20, 0, 6 << 20]);
}
