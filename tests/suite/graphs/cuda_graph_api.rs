//! CUDA and MUSA graph calls: capture introspection and dependencies, graph inspection, the DOT file,
//! instantiation and launch, and every graph call with NULL, forged, destroyed, wrong-kind and other-process
//! handles (`docs/semantics/capture-and-graphs.md`, sections "CUDA / MUSA: introspection" and "graphs").

use std::ffi::c_uint;
use std::ptr::null_mut;

use streamsim::cuda::{
    cudaErrorIllegalState, cudaErrorInvalidValue, cudaErrorNotSupported,
    cudaErrorStreamCaptureImplicit, cudaErrorStreamCaptureUnjoined,
    cudaGraphInstantiateFlagAutoFreeOnLaunch, cudaGraphNodeTypeHost, cudaGraphNodeTypeKernel,
    cudaGraphNodeTypeMemcpy, cudaGraphNodeTypeMemset, cudaStreamAddCaptureDependencies,
    cudaStreamCaptureModeGlobal, cudaStreamCaptureStatusActive, cudaStreamCaptureStatusNone,
    cudaStreamSetCaptureDependencies, cudaSuccess,
};
use streamsim::{Machine, Process};

use super::fam::{FAMILIES, Fam, H, check};

const GLOBAL: i32 = cudaStreamCaptureModeGlobal;

fn machine(devices: u32) -> (Machine, Process) {
    let m = Machine::builder().devices(devices).build().unwrap();
    let p = m.process();
    (m, p)
}

fn end(f: &Fam, s: H) -> H {
    let mut g: H = null_mut();
    check!(f, cudaSuccess, (f.end_capture)(s, &mut g));
    g
}

/// Capture info of `s`: (status, id, graph, dependencies).
fn info(f: &Fam, s: H) -> (c_uint, u64, H, Vec<H>) {
    let (mut st, mut id, mut g, mut deps, mut n) = (99, 0u64, null_mut(), std::ptr::null(), 0usize);
    check!(
        f,
        cudaSuccess,
        (f.get_capture_info)(s, &mut st, &mut id, &mut g, &mut deps, &mut n)
    );
    let list = if n == 0 {
        Vec::new()
    } else {
        // SAFETY: the facade's array of `n` nodes, valid until the next capture call about `s`.
        unsafe { std::slice::from_raw_parts(deps, n) }.to_vec()
    };
    (st, id, g, list)
}

/// capture-and-graphs.md · CUDA · GetCaptureInfo · not capturing: status None, the other outputs untouched;
/// capturing: Active, an id unique in the process (from 1), the graph being built, and the nodes the next node
/// will depend on (none at first, then the last node, then an event's set after a join); NULL status → 1; the
/// NULL stream while a blocking stream captures → 906
#[test]
fn capture_info() {
    for f in FAMILIES {
        let (_m, p) = machine(1);
        let _g = p.bind();
        let (a, b) = (f.stream(0), f.stream(0));
        let (mut st, mut id, mut g) = (99, 77u64, 0x5 as H);
        check!(
            f,
            cudaSuccess,
            (f.get_capture_info)(a, &mut st, &mut id, &mut g, null_mut(), null_mut())
        );
        assert_eq!((st, id, g as usize), (cudaStreamCaptureStatusNone, 77, 5));
        check!(
            f,
            cudaErrorInvalidValue,
            (f.get_capture_info)(
                a,
                null_mut(),
                null_mut(),
                null_mut(),
                null_mut(),
                null_mut()
            )
        );
        check!(f, cudaSuccess, (f.begin_capture)(a, GLOBAL));
        check!(f, cudaSuccess, (f.begin_capture)(b, GLOBAL));
        let (sa, ida, ga, da) = info(&f, a);
        let (_, idb, gb, _) = info(&f, b);
        assert_eq!(sa, cudaStreamCaptureStatusActive);
        assert!(ida >= 1 && idb >= 1 && ida != idb, "{ida} {idb}");
        assert!(!ga.is_null() && ga != gb);
        assert!(da.is_empty());
        check!(f, cudaSuccess, f.kernel(a, c"k1", 1000));
        let (_, _, _, d1) = info(&f, a);
        assert_eq!(d1, f.nodes(ga));
        let e = f.event();
        check!(f, cudaSuccess, (f.event_record)(e, a));
        let c = f.stream(0);
        check!(f, cudaSuccess, (f.stream_wait_event)(c, e, 0));
        let (sc, idc, gc, dc) = info(&f, c);
        assert_eq!(
            (sc, idc, gc),
            (cudaStreamCaptureStatusActive, ida, ga),
            "c joined a's capture"
        );
        assert_eq!(dc, d1);
        let mut s2 = 0;
        check!(
            f,
            cudaErrorStreamCaptureImplicit,
            (f.get_capture_info)(
                null_mut(),
                &mut s2,
                null_mut(),
                null_mut(),
                null_mut(),
                null_mut()
            )
        );
        let g = end(&f, a);
        assert_eq!(g, ga, "the graph being built is the one the end returns");
        end(&f, b);
    }
}

/// capture-and-graphs.md · CUDA · UpdateCaptureDependencies · Set replaces the stream's set, Add adds to it;
/// nodes removed by Set need no join at the end; flags other than 0 and 1 → 1; a NULL array with a count → 1; a
/// node of another graph → 1; a stream that is not capturing → 401
#[test]
fn update_capture_dependencies() {
    for f in FAMILIES {
        let (_m, p) = machine(1);
        let _g = p.bind();
        let (a, b) = (f.stream(0), f.stream(0));
        let e = f.event();
        check!(
            f,
            cudaErrorIllegalState,
            (f.update_capture_dependencies)(a, null_mut(), 0, 0)
        );
        check!(f, cudaSuccess, (f.begin_capture)(a, GLOBAL));
        check!(f, cudaSuccess, f.kernel(a, c"root1", 1000));
        check!(f, cudaSuccess, (f.event_record)(e, a));
        check!(f, cudaSuccess, (f.stream_wait_event)(b, e, 0));
        check!(f, cudaSuccess, f.kernel(b, c"forked", 1000));
        // Forget the forked kernel: b's next node depends on nothing, and "forked" needs no join.
        check!(
            f,
            cudaSuccess,
            (f.update_capture_dependencies)(b, null_mut(), 0, cudaStreamSetCaptureDependencies)
        );
        for bad in [2, 3, 0x100] {
            check!(
                f,
                cudaErrorInvalidValue,
                (f.update_capture_dependencies)(a, null_mut(), 0, bad)
            );
        }
        check!(
            f,
            cudaErrorInvalidValue,
            (f.update_capture_dependencies)(a, null_mut(), 1, 0)
        );
        check!(
            f,
            cudaSuccess,
            (f.update_capture_dependencies)(a, null_mut(), 0, cudaStreamSetCaptureDependencies)
        );
        check!(f, cudaSuccess, f.kernel(a, c"root2", 1000));
        let (_, _, ga, _) = info(&f, a);
        let root1 = f.nodes(ga)[0];
        check!(
            f,
            cudaSuccess,
            (f.update_capture_dependencies)(a, &mut { root1 }, 1, cudaStreamAddCaptureDependencies)
        );
        check!(f, cudaSuccess, f.kernel(a, c"last", 1000));
        // A node of another graph.
        let c = f.stream(0);
        check!(f, cudaSuccess, (f.begin_capture)(c, GLOBAL));
        check!(f, cudaSuccess, f.kernel(c, c"other", 1000));
        let (_, _, gc, _) = info(&f, c);
        let mut other = f.nodes(gc)[0];
        check!(
            f,
            cudaErrorInvalidValue,
            (f.update_capture_dependencies)(a, &mut other, 1, 0)
        );
        end(&f, c);
        // root1 was released by a's Set, and is an ancestor of "last" again; "forked" was released by b's Set.
        let g = end(&f, a);
        let mut roots = 0;
        check!(
            f,
            cudaSuccess,
            (f.get_root_nodes)(g, null_mut(), &mut roots)
        );
        assert_eq!(roots, 2, "root1 and root2");
        let last = f.nodes(g)[3];
        let mut n = 0;
        check!(
            f,
            cudaSuccess,
            (f.node_get_dependencies)(last, null_mut(), &mut n)
        );
        assert_eq!(n, 2, "root2 and root1");
    }
}

/// capture-and-graphs.md · CUDA · EndCapture · without the Set that released it, the same forked kernel is
/// unjoined work → 904
#[test]
fn without_the_release_the_fork_is_unjoined() {
    for f in FAMILIES {
        let (_m, p) = machine(1);
        let _g = p.bind();
        let (a, b) = (f.stream(0), f.stream(0));
        let e = f.event();
        check!(f, cudaSuccess, (f.begin_capture)(a, GLOBAL));
        check!(f, cudaSuccess, (f.event_record)(e, a));
        check!(f, cudaSuccess, (f.stream_wait_event)(b, e, 0));
        check!(f, cudaSuccess, f.kernel(b, c"forked", 1000));
        let mut g: H = null_mut();
        check!(
            f,
            cudaErrorStreamCaptureUnjoined,
            (f.end_capture)(a, &mut g)
        );
    }
}

/// capture-and-graphs.md · CUDA · graph inspection · GetNodes (count with NULL, NULL past the end),
/// GetRootNodes, GetEdges, NodeGetType (kernel, memcpy, memset, host), NodeGetDependencies and
/// NodeGetDependentNodes of the simpleCudaGraphs shape; the DOT file names every node and edge
#[test]
fn graph_inspection_and_dot() {
    unsafe extern "C" fn host(_: H) {}
    for f in FAMILIES {
        let (_m, p) = machine(1);
        let _g = p.bind();
        let (a, b) = (f.stream(0), f.stream(0));
        let (e1, e2) = (f.event(), f.event());
        let mut d: H = null_mut();
        check!(f, cudaSuccess, (f.malloc)(&mut d, 256));
        let mut pinned: H = null_mut();
        check!(f, cudaSuccess, (f.malloc_host)(&mut pinned, 256));
        check!(f, cudaSuccess, (f.begin_capture)(a, GLOBAL));
        check!(f, cudaSuccess, (f.event_record)(e1, a));
        check!(f, cudaSuccess, (f.stream_wait_event)(b, e1, 0));
        check!(f, cudaSuccess, (f.memcpy_async)(d, pinned, 256, 1, a));
        check!(f, cudaSuccess, (f.memset_async)(d, 0, 128, b));
        check!(f, cudaSuccess, (f.event_record)(e2, b));
        check!(f, cudaSuccess, (f.stream_wait_event)(a, e2, 0));
        check!(f, cudaSuccess, f.kernel(a, c"reduce", 5000));
        check!(
            f,
            cudaSuccess,
            (f.launch_host_func)(a, Some(host), null_mut())
        );
        let g = end(&f, a);
        let mut n = 0;
        check!(f, cudaSuccess, (f.get_nodes)(g, null_mut(), &mut n));
        assert_eq!(n, 4);
        let mut room = [0x7 as H; 6];
        let mut count = 6;
        check!(
            f,
            cudaSuccess,
            (f.get_nodes)(g, room.as_mut_ptr(), &mut count)
        );
        assert_eq!(count, 4);
        assert!(room[4].is_null() && room[5].is_null());
        let nodes = &room[..4];
        let types: Vec<c_uint> = nodes
            .iter()
            .map(|&x| {
                let mut t = 99;
                check!(f, cudaSuccess, (f.node_get_type)(x, &mut t));
                t
            })
            .collect();
        assert_eq!(
            types,
            [
                cudaGraphNodeTypeMemcpy,
                cudaGraphNodeTypeMemset,
                cudaGraphNodeTypeKernel,
                cudaGraphNodeTypeHost
            ]
        );
        let mut roots = [null_mut(); 4];
        let mut nr = 4;
        check!(
            f,
            cudaSuccess,
            (f.get_root_nodes)(g, roots.as_mut_ptr(), &mut nr)
        );
        assert_eq!(&roots[..nr], &nodes[..2]);
        let mut ne = 0;
        check!(
            f,
            cudaSuccess,
            (f.get_edges)(g, null_mut(), null_mut(), &mut ne)
        );
        assert_eq!(ne, 3, "memcpy→kernel, memset→kernel, kernel→host");
        let (mut from, mut to) = ([null_mut(); 3], [null_mut(); 3]);
        check!(
            f,
            cudaSuccess,
            (f.get_edges)(g, from.as_mut_ptr(), to.as_mut_ptr(), &mut ne)
        );
        assert_eq!(from, [nodes[0], nodes[1], nodes[2]]);
        assert_eq!(to, [nodes[2], nodes[2], nodes[3]]);
        let mut deps = [null_mut(); 2];
        let mut nd = 2;
        check!(
            f,
            cudaSuccess,
            (f.node_get_dependencies)(nodes[2], deps.as_mut_ptr(), &mut nd)
        );
        assert_eq!(deps, [nodes[0], nodes[1]]);
        check!(
            f,
            cudaSuccess,
            (f.node_get_dependent_nodes)(nodes[0], deps.as_mut_ptr(), &mut nd)
        );
        assert_eq!((nd, deps[0]), (1, nodes[2]));
        let path = std::env::temp_dir().join(format!(
            "streamsim-graph-{}-{}.dot",
            f.name,
            std::process::id()
        ));
        let c_path = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        check!(f, cudaSuccess, (f.dot_print)(g, c_path.as_ptr(), 0));
        let dot = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        assert!(dot.starts_with("digraph graph_1 {"), "{dot}");
        for needle in [
            "0\\nMEMCPY",
            "1\\nMEMSET",
            "2\\nKERNEL\\nreduce\\n5.000 µs",
            "3\\nHOST",
        ] {
            assert!(dot.contains(needle), "{needle} in {dot}");
        }
        for edge in [
            "graph_1_node_0\" -> \"graph_1_node_2",
            "graph_1_node_1\" -> \"graph_1_node_2",
            "graph_1_node_2\" -> \"graph_1_node_3",
        ] {
            assert!(dot.contains(edge), "{edge} in {dot}");
        }
        check!(
            f,
            cudaErrorInvalidValue,
            (f.dot_print)(g, std::ptr::null(), 0)
        );
        let bad = std::ffi::CString::new("/nonexistent-dir/x.dot").unwrap();
        check!(f, cudaErrorInvalidValue, (f.dot_print)(g, bad.as_ptr(), 0));
    }
}

/// capture-and-graphs.md · CUDA · Instantiate flags · DeviceLaunch 4 → 0, the graph launches from the host;
/// DeviceLaunch with AutoFreeOnLaunch (5) → 1; UseNodePriority 8 → 1, not simulated (before: 0, and ignored);
/// Upload 2 (alone or with DeviceLaunch) → 1, only cudaGraphInstantiateWithParams takes it
#[test]
fn instantiate_flags_are_honoured_or_refused() {
    for f in FAMILIES {
        let (_m, p) = machine(1);
        let _g = p.bind();
        let s = f.stream(0);
        check!(f, cudaSuccess, (f.begin_capture)(s, GLOBAL));
        check!(f, cudaSuccess, f.kernel(s, c"k", 1000));
        let g = end(&f, s);
        let mut x: H = null_mut();
        for upload in [2, 4 | 2] {
            check!(
                f,
                cudaErrorInvalidValue,
                (f.instantiate_with_flags)(&mut x, g, upload)
            );
            check!(f, cudaErrorInvalidValue, (f.instantiate)(&mut x, g, upload));
            let message = p.peek_last_error().unwrap().to_string();
            assert!(
                message.contains("Upload 2 is only supported by cudaGraphInstantiateWithParams"),
                "{message}"
            );
        }
        for refused in [4 | 1, 8, 8 | 4, 8 | 2] {
            check!(
                f,
                cudaErrorInvalidValue,
                (f.instantiate_with_flags)(&mut x, g, refused)
            );
        }
        let message = p.peek_last_error().unwrap().to_string();
        assert!(
            message.contains("UseNodePriority 8 is not simulated"),
            "{message}"
        );
        check!(f, cudaSuccess, (f.instantiate_with_flags)(&mut x, g, 4));
        check!(f, cudaSuccess, (f.graph_launch)(x, s));
        check!(f, cudaSuccess, (f.stream_synchronize)(s));
        check!(f, cudaSuccess, (f.exec_destroy)(x));
        check!(f, cudaSuccess, (f.graph_destroy)(g));
    }
}

/// capture-and-graphs.md · CUDA · Instantiate / Clone · NULL out-pointer or graph → 1; unknown flag bits → 1;
/// a graph still being captured → 1 (and it cannot be destroyed or cloned then: 1); a clone and the executable
/// graphs are independent of the original, which can be destroyed
#[test]
fn instantiate_and_clone() {
    for f in FAMILIES {
        let (_m, p) = machine(1);
        let _g = p.bind();
        let s = f.stream(0);
        check!(f, cudaSuccess, (f.begin_capture)(s, GLOBAL));
        check!(f, cudaSuccess, f.kernel(s, c"k", 1000));
        let (_, _, building, _) = info(&f, s);
        let mut x: H = null_mut();
        check!(
            f,
            cudaErrorInvalidValue,
            (f.instantiate)(&mut x, building, 0)
        );
        check!(f, cudaErrorInvalidValue, (f.graph_destroy)(building));
        let mut c: H = null_mut();
        check!(f, cudaErrorInvalidValue, (f.graph_clone)(&mut c, building));
        let g = end(&f, s);
        check!(f, cudaErrorInvalidValue, (f.instantiate)(null_mut(), g, 0));
        check!(
            f,
            cudaErrorInvalidValue,
            (f.instantiate)(&mut x, null_mut(), 0)
        );
        for bad in [0x10u64, 0x100, u64::MAX] {
            check!(f, cudaErrorInvalidValue, (f.instantiate)(&mut x, g, bad));
        }
        check!(
            f,
            cudaSuccess,
            (f.instantiate_with_flags)(&mut x, g, cudaGraphInstantiateFlagAutoFreeOnLaunch)
        );
        check!(f, cudaSuccess, (f.graph_clone)(&mut c, g));
        check!(f, cudaErrorInvalidValue, (f.graph_clone)(null_mut(), g));
        check!(f, cudaSuccess, (f.graph_destroy)(g));
        assert_eq!(f.node_count(c), 1);
        let mut y: H = null_mut();
        check!(f, cudaSuccess, (f.instantiate)(&mut y, c, 0));
        check!(f, cudaSuccess, (f.graph_launch)(x, s));
        check!(f, cudaSuccess, (f.graph_launch)(y, s));
        check!(f, cudaSuccess, (f.stream_synchronize)(s));
        check!(f, cudaSuccess, (f.exec_destroy)(x));
        check!(f, cudaSuccess, (f.exec_destroy)(y));
        check!(f, cudaSuccess, (f.graph_destroy)(c));
    }
}

/// capture-and-graphs.md · CUDA · GraphLaunch · on a capturing stream → 801 (a child graph node is not
/// simulated)
#[test]
fn launch_into_a_capture_is_not_simulated() {
    for f in FAMILIES {
        let (_m, p) = machine(1);
        let _g = p.bind();
        let s = f.stream(0);
        check!(f, cudaSuccess, (f.begin_capture)(s, GLOBAL));
        check!(f, cudaSuccess, f.kernel(s, c"k", 1000));
        let g = end(&f, s);
        let mut x: H = null_mut();
        check!(f, cudaSuccess, (f.instantiate)(&mut x, g, 0));
        check!(f, cudaSuccess, (f.begin_capture)(s, GLOBAL));
        check!(f, cudaErrorNotSupported, (f.graph_launch)(x, s));
        end(&f, s);
    }
}

/// The handles of a process of another machine, and of a second process of the same machine.
fn foreign_handles(f: &Fam) -> (H, H, H) {
    let (_m, p) = machine(1);
    let q = p.machine().process();
    let _g = q.bind();
    let s = f.stream(0);
    check!(f, cudaSuccess, (f.begin_capture)(s, GLOBAL));
    check!(f, cudaSuccess, f.kernel(s, c"theirs", 1000));
    let g = end(f, s);
    let mut x: H = null_mut();
    check!(f, cudaSuccess, (f.instantiate)(&mut x, g, 0));
    let node = f.nodes(g)[0];
    (g, x, node)
}

/// capture-and-graphs.md · CUDA · bad handles · every graph call with a NULL, forged (0xdeadbeef), destroyed
/// (graph, executable graph, the nodes of a destroyed graph), wrong-kind (a stream) and foreign (another
/// process's, another machine's) graph, executable graph or node → 1 InvalidValue (the Graph Management
/// returns; hip-tests hipGraphLaunch.cc · graphExec is destroyed)
#[test]
fn bad_graph_handles() {
    for f in FAMILIES {
        let (_m, p) = machine(1);
        let _g = p.bind();
        let s = f.stream(0);
        check!(f, cudaSuccess, (f.begin_capture)(s, GLOBAL));
        check!(f, cudaSuccess, f.kernel(s, c"k", 1000));
        let dead_graph = end(&f, s);
        let dead_node = f.nodes(dead_graph)[0];
        let mut dead_exec: H = null_mut();
        check!(
            f,
            cudaSuccess,
            (f.instantiate)(&mut dead_exec, dead_graph, 0)
        );
        check!(f, cudaSuccess, (f.exec_destroy)(dead_exec));
        check!(f, cudaSuccess, (f.graph_destroy)(dead_graph));
        let (their_graph, their_exec, their_node) = foreign_handles(&f);
        let other_machine = {
            let (_m2, p2) = machine(1);
            let _g2 = p2.bind();
            let t = f.stream(0);
            check!(f, cudaSuccess, (f.begin_capture)(t, GLOBAL));
            check!(f, cudaSuccess, f.kernel(t, c"elsewhere", 1000));
            end(&f, t)
        };
        let graphs = [
            null_mut(),
            0xdead_beef as H,
            dead_graph,
            s,
            their_graph,
            other_machine,
        ];
        let execs = [
            null_mut(),
            0xdead_beef as H,
            dead_exec,
            s,
            their_exec,
            dead_graph,
        ];
        let nodes = [
            null_mut(),
            0xdead_beef as H,
            dead_node,
            s,
            their_node,
            dead_graph,
        ];
        for g in graphs {
            let mut n = 0usize;
            let mut x: H = null_mut();
            let mut c: H = null_mut();
            let path = c"/tmp/streamsim-never-written.dot";
            check!(
                f,
                cudaErrorInvalidValue,
                (f.get_nodes)(g, null_mut(), &mut n)
            );
            check!(
                f,
                cudaErrorInvalidValue,
                (f.get_root_nodes)(g, null_mut(), &mut n)
            );
            check!(
                f,
                cudaErrorInvalidValue,
                (f.get_edges)(g, null_mut(), null_mut(), &mut n)
            );
            check!(f, cudaErrorInvalidValue, (f.instantiate)(&mut x, g, 0));
            check!(f, cudaErrorInvalidValue, (f.graph_clone)(&mut c, g));
            check!(f, cudaErrorInvalidValue, (f.dot_print)(g, path.as_ptr(), 0));
            check!(f, cudaErrorInvalidValue, (f.graph_destroy)(g));
            assert!(x.is_null() && c.is_null());
        }
        for x in execs {
            check!(f, cudaErrorInvalidValue, (f.graph_launch)(x, s));
            check!(f, cudaErrorInvalidValue, (f.exec_destroy)(x));
        }
        for n in nodes {
            let mut t = 0;
            let mut k = 0usize;
            check!(f, cudaErrorInvalidValue, (f.node_get_type)(n, &mut t));
            check!(
                f,
                cudaErrorInvalidValue,
                (f.node_get_dependencies)(n, null_mut(), &mut k)
            );
            check!(
                f,
                cudaErrorInvalidValue,
                (f.node_get_dependent_nodes)(n, null_mut(), &mut k)
            );
        }
        // NULL out-pointers.
        check!(
            f,
            cudaErrorInvalidValue,
            (f.get_nodes)(their_graph, null_mut(), null_mut())
        );
        check!(f, cudaErrorInvalidValue, (f.is_capturing)(s, null_mut()));
        check!(
            f,
            cudaErrorInvalidValue,
            (f.exchange_capture_mode)(null_mut())
        );
        for bad in [-1, 3, i32::MAX] {
            let mut mode = bad;
            check!(
                f,
                cudaErrorInvalidValue,
                (f.exchange_capture_mode)(&mut mode)
            );
            assert_eq!(mode, bad, "a refused exchange leaves the mode");
        }
    }
}
