//! The C programs of `tests/c` about stream capture and graphs (ported public programs), built as C11 and C++17
//! and run with the helpers of [`crate::c_programs`].

use streamsim::{CopyPath, CostModel};

use crate::c_programs::build_and_run;

/// ROCm hip-tests' stream-capture tests (hipStreamBeginCapture / EndCapture / IsCapturing / GetCaptureInfo /
/// GraphLaunch), translated to the CUDA names: every check passes, in both languages. The unordered increments
/// of the two incrementKernel tests are atomic on the GPU: races are collected, not printed.
#[test]
fn hip_tests_stream_capture() {
    for out in build_and_run(
        "hip_tests_stream_capture",
        "hip_tests_stream_capture",
        &[],
        &[("STREAMSIM_RACES", "collect")],
    ) {
        assert!(
            out.contains("hip-tests stream capture: all checks passed"),
            "{out}"
        );
    }
}

/// cuda-samples simpleCudaGraphs, its stream-capture half: a fork/join capture over four streams gives the
/// sample's 7 nodes; the executable graph and its clone's each launched 3 times print the sum the reduction
/// kernels computed (6 callback lines, every sum equal to the host's). In virtual time each series of 3 launches
/// lasts 1 µs (the first launch call after the start record) + 3 times the critical path: the 4 MiB input copy
/// (longer than the memsets on the forks), reduce (50 µs), reduceFinal (5 µs), the 8-byte result copy, the host
/// node (1 µs); a launch's roots wait for the previous launch's sinks.
#[test]
fn cuda_samples_simple_cuda_graphs() {
    let cost = CostModel::default();
    let path = cost.copy_nanos(CopyPath::HostToDevice, 4 << 20)
        + 50_000
        + 5_000
        + cost.copy_nanos(CopyPath::DeviceToHost, 8)
        + 1_000;
    let ms = format!("{:.3}", ((1_000 + 3 * path) as f64 / 1e6) as f32);
    for out in build_and_run(
        "cuda_sample_simple_cuda_graphs",
        "cuda_sample_simple_cuda_graphs",
        &[],
        &[],
    ) {
        let lines: Vec<&str> = out.lines().collect();
        let sums: Vec<&str> = lines
            .iter()
            .filter(|l| {
                l.starts_with("[cudaGraphsUsingStreamCapture] Host callback final reduced sum = ")
            })
            .copied()
            .collect();
        assert_eq!(sums.len(), 6, "{out}");
        assert!(sums.iter().all(|l| *l == sums[0]), "{out}");
        for line in [
            "1048576 elements",
            "threads per block  = 512",
            "Graph Launch iterations = 3",
            "Num of nodes in the graph created using stream capture API = 7",
            "Cloned Graph Output.. ",
            &format!("STREAMSIM graph, 3 launches: {ms} ms"),
            &format!("STREAMSIM cloned graph, 3 launches: {ms} ms"),
            "STREAMSIM: every sum matches the host's",
        ] {
            assert!(lines.contains(&line), "{line:?} missing from\n{out}");
        }
    }
}

/// The CANN runtime's model_ri/0_simple_model: a GLOBAL capture of an H2D copy and aclnnAdd then aclnnMul, with
/// a synchronous aclrtMemcpy run directly in RELAXED mode in between; the model executed 4 times prints
/// out = (self + other * 1.1) * other each time, computed by the stand-ins on the copied data.
#[test]
fn cann_model_ri_simple_model() {
    let expected: String = (1..=8)
        .map(|x| format!("{:.4}  ", (x as f32 + 2.0 * 1.1f32) * 2.0))
        .collect();
    for out in build_and_run("cann_model_ri_simple", "cann_model_ri_simple", &[], &[]) {
        let lines: Vec<&str> = out.lines().collect();
        let mut want = Vec::new();
        for i in 1..=4 {
            want.push(format!("[INFO]  execute model, loop count: {i}."));
            want.push(format!("[INFO]  The vector data is: {expected}"));
        }
        assert_eq!(lines, want, "{out}");
    }
}

/// The CANN developer guide's cross-stream capture: stream2 joins the capture through event1 (ACL_EVENT_SYNC),
/// aclnnAdd runs there, event2 joins it back, the result is copied into self_h: 8 executions, each adding
/// other * 1.1 to the values the previous one copied back (float arithmetic, as the device's).
#[test]
fn cann_cross_stream_capture() {
    let mut want = Vec::new();
    let mut x = 0.0f32;
    for _ in 0..8 {
        x += 1.0f32 * 1.1f32;
        let v = format!("{x:.6}");
        want.push(format!("[INFO]  {}", vec![v; 8].join(" ")));
        want.push(String::new());
    }
    for out in build_and_run(
        "cann_cross_stream_capture",
        "cann_cross_stream_capture",
        &[],
        &[],
    ) {
        assert_eq!(out.lines().collect::<Vec<_>>(), want, "{out}");
    }
}

/// graph-building.md, from C: nodes of each type a plain C program makes (kernels as captured cudasimLaunchKernel
/// graphs in child graph nodes), the edge rules' codes, parameters read back, executable-graph parameters,
/// enabling, cudaGraphExecUpdate's results (910 and the result info), cudaGraphAddNode,
/// cudaGraphInstantiateWithParams; in both languages. The first launch lasts, from a record before it to one after
/// it, 1 µs (the launch call) + the chain: the 64-byte host-to-device copy, the memset's 2 rows of 16 bytes, the
/// host node (1 µs), the two kernels (100 + 50 µs).
#[test]
fn graph_building() {
    let cost = CostModel::default();
    let ns = 1_000
        + cost.copy_nanos(CopyPath::HostToDevice, 64)
        + cost.copy_nanos(CopyPath::OnDevice, 32)
        + 1_000
        + 150_000;
    let line = format!("graph_building: launch {:.6} ms", (ns as f64 / 1e6) as f32);
    for out in build_and_run("graph_building", "graph_building", &[], &[]) {
        assert!(out.contains("graph_building: all checks passed"), "{out}");
        assert!(
            out.lines().any(|l| l == line),
            "{line:?} missing from\n{out}"
        );
    }
}

/// graph-building.md, "Capture into a graph" and "Child graphs and clones", from C: cudaStreamBeginCaptureToGraph's
/// codes, a capture after a node added by hand (the copy back reads the memset's bytes), a failed end that leaves
/// the graph as it was; a child graph node's embedded graph (a node added to it runs at the parent's launch),
/// cudaGraphExecChildGraphNodeSetParams and cudaGraphExecNodeSetParams on it, cudaGraphNodeFindInClone; pitched
/// nodes (captured 2-D copies of pageable memory, their parameters read back, a hand-built pitched memcpy node, a
/// padded 3-D memset); in both languages.
#[test]
fn graph_capture_to_graph() {
    for out in build_and_run("graph_capture_to_graph", "graph_capture_to_graph", &[], &[]) {
        assert!(
            out.contains("graph_capture_to_graph: all checks passed"),
            "{out}"
        );
    }
}
