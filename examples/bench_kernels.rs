//! The speed of kernels built by `streamsim cc`, in one run, against plain C doing the same work
//! (`cargo build --release && cargo run --release --example bench_kernels`: the build remakes the libstreamsim.so its programs link; needs clang, as `streamsim cc` does):
//!
//! - (p) a kernel without barriers (vector add, 1<<22 floats) vs the same loop in C at -O2 (target ≥ 0.5×
//!   the throughput);
//! - (q) a shared-memory reduction with `__syncthreads`, 256 threads a block, vs a C sum (target ≥ 0.1×);
//! - (r) a warp-shuffle reduction vs the same C sum (target ≥ 0.1×);
//! - (s) `streamsim cc` of a cuda-samples program (vectorAdd) vs `clang++ -O2` of its host code alone (target
//!   ≤ 3×);
//! - (t) the sanitizer's cost on the vector add: byte-exact access tracking for the race detector (the default
//!   `STREAMSIM_RACES`, with memcheck) vs `STREAMSIM_CHECK=off STREAMSIM_RACES=off` (target ≤ 8×), and (u)
//!   memcheck alone (`STREAMSIM_RACES=off`) vs the same (target ≤ 3×).
//!
//! (p) to (r) run with `STREAMSIM_RACES=off`. Each figure is the best of 5 runs inside the program
//! (`examples/bench_kernels/kernels.cu` and `baseline.c`); (s) is the best of 3 builds. It prints the
//! figures, the ratios and whether each target is met; it is a benchmark, not a test.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The folder of libstreamsim.so: beside this example's profile folder (`target/<profile>/`).
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the example's path");
    exe.parent()
        .and_then(Path::parent)
        .expect("target/<profile>")
        .to_path_buf()
}

fn cc(args: &[&str]) -> Result<(), String> {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    // SAFETY of the environment: this benchmark is single-threaded while it sets it.
    unsafe { std::env::set_var("STREAMSIM_LIB", lib_dir()) };
    streamsim::cc::build(streamsim::cc::parse(&args)?)
}

fn numbers(out: &[u8]) -> Vec<f64> {
    String::from_utf8_lossy(out)
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect()
}

fn verdict(met: bool) -> &'static str {
    if met { "met" } else { "MISSED" }
}

fn main() {
    let dir = std::env::temp_dir().join(format!("streamsim-bench-kernels-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a work folder");
    let src = root().join("examples/bench_kernels");
    let kernels = dir.join("kernels");
    let baseline = dir.join("baseline");
    if let Err(e) = cc(&[
        "-O2",
        src.join("kernels.cu").to_str().unwrap(),
        "-o",
        kernels.to_str().unwrap(),
    ]) {
        eprintln!("bench_kernels: streamsim cc failed: {e}");
        std::process::exit(1);
    }
    let clang = streamsim::cc::find_clang().expect("clang");
    let ok = Command::new(&clang)
        .args(["-x", "c", "-O2"])
        .arg(src.join("baseline.c"))
        .arg("-o")
        .arg(&baseline)
        .status()
        .expect("clang")
        .success();
    assert!(ok, "building the baseline failed");
    let run = |env: &[(&str, &str)]| {
        let mut cmd = Command::new(&kernels);
        cmd.env_remove("STREAMSIM_CHECK")
            .env_remove("STREAMSIM_RACES");
        for (k, v) in env {
            cmd.env(k, v);
        }
        numbers(&cmd.output().expect("running the kernels").stdout)
    };
    let k = run(&[("STREAMSIM_RACES", "off")]);
    let bare = run(&[("STREAMSIM_RACES", "off"), ("STREAMSIM_CHECK", "off")]);
    let tracked = run(&[]);
    let b = Command::new(&baseline)
        .output()
        .expect("running the baseline");
    let b = numbers(&b.stdout);
    assert!(
        k.len() >= 3 && b.len() >= 2 && bare.len() >= 3 && tracked.len() >= 3,
        "unexpected output: {k:?} {b:?} {bare:?} {tracked:?}"
    );
    let ratio = |c: f64, cu: f64| c / cu;
    println!("streamsim cc kernels vs plain C (-O2), ns per element, best of 5, one run:");
    let p = ratio(b[0], k[0]);
    println!(
        "(p) vector add, 1<<22 floats:          {:8.3} ns vs {:6.3} ns   {:.3}× the throughput (target ≥ 0.5×: {})",
        k[0],
        b[0],
        p,
        verdict(p >= 0.5)
    );
    let q = ratio(b[1], k[1]);
    println!(
        "(q) shared-memory reduction, 256/block: {:8.3} ns vs {:6.3} ns   {:.4}× (target ≥ 0.1×: {})",
        k[1],
        b[1],
        q,
        verdict(q >= 0.1)
    );
    let r = ratio(b[1], k[2]);
    println!(
        "(r) warp-shuffle reduction:            {:8.3} ns vs {:6.3} ns   {:.4}× (target ≥ 0.1×: {})",
        k[2],
        b[1],
        r,
        verdict(r >= 0.1)
    );
    let t = tracked[0] / bare[0];
    println!(
        "(t) vector add, races tracked by byte:  {:8.3} ns vs {:6.3} ns   {:.2}× the unchecked kernel (target ≤ 8×: {})",
        tracked[0],
        bare[0],
        t,
        verdict(t <= 8.0)
    );
    let u = k[0] / bare[0];
    println!(
        "(u) vector add, memcheck alone:         {:8.3} ns vs {:6.3} ns   {:.2}× the unchecked kernel (target ≤ 3×: {})",
        k[0],
        bare[0],
        u,
        verdict(u <= 3.0)
    );
    // (s) build time of a cuda-samples program.
    let sample = root().join("tests/cu/cuda-samples/vectorAdd/vectorAdd.cu");
    let common = format!(
        "-I{}",
        root().join("tests/cu/cuda-samples/Common").display()
    );
    let mut ours = f64::MAX;
    let mut theirs = f64::MAX;
    for _ in 0..3 {
        let t = Instant::now();
        cc(&[
            "-O2",
            &common,
            sample.to_str().unwrap(),
            "-o",
            dir.join("va").to_str().unwrap(),
        ])
        .expect("streamsim cc vectorAdd");
        ours = ours.min(t.elapsed().as_secs_f64());
        let support = dir.join("host-only");
        let t = Instant::now();
        // The host code alone, as a C++ compiler sees it after nvcc's split: clang's host pass.
        let ok = Command::new(&clang)
            .args([
                "-x",
                "cuda",
                "--cuda-host-only",
                "-nocudainc",
                "-nocudalib",
                "-O2",
                "-c",
            ])
            .args([
                "-Xclang",
                "-target-sdk-version=12.3",
                "-Wno-unknown-cuda-version",
            ])
            .arg(format!("-I{}", root().join("include").display()))
            .arg(&common)
            .args(["-include", "streamsim/cc/cuda_preinclude.h"])
            .arg(&sample)
            .arg("-o")
            .arg(&support)
            .status()
            .expect("clang")
            .success();
        assert!(ok, "clang's host pass of vectorAdd failed");
        theirs = theirs.min(t.elapsed().as_secs_f64());
    }
    let s = ours / theirs;
    println!(
        "(s) streamsim cc of vectorAdd.cu:      {:8.3} s  vs {:6.3} s    {:.2}× clang++ -O2 of its host code (target ≤ 3×: {})",
        ours,
        theirs,
        s,
        verdict(s <= 3.0)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
