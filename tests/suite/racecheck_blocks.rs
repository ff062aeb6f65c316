//! racecheck between the blocks of one launch (`include/streamsim/cc/racecheck_rt.h`): global memory that two
//! blocks touch, one writing, with no __threadfence and atomic ordering them, is a hazard, as the blocks of a
//! grid run in any order on hardware. `docs/semantics/sanitizer.md` ("racecheck").

use std::time::Duration;

use crate::cc_programs::cc;

/// Runs `exe` with `args` and racecheck under the default schedule (`concurrent`, twice) and `serialize`: its exit code,
/// stdout and stderr, the same every time.
fn racecheck(exe: &std::path::Path, args: &[&str]) -> (Option<i32>, String, String) {
    let once = |schedule: &str| {
        let o = crate::c_programs::run(
            exe,
            args,
            &[
                ("STREAMSIM_CHECK", "racecheck"),
                ("STREAMSIM_SCHEDULE", schedule),
            ],
            Duration::from_secs(120),
        );
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let first = once("concurrent");
    assert_eq!(once("concurrent"), first, "a second run differs");
    assert_eq!(once("serialize"), first, "the serialize schedule differs");
    first
}

const BLOCKS: &str = "tests/cu/streamsim/sanitizer/between_blocks.cu";

#[test]
fn a_block_reading_what_another_block_of_the_launch_writes_is_a_hazard_naming_both_blocks() {
    let (code, out, err) = racecheck(&cc("between-blocks", &[BLOCKS], &["-g"]), &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    // Block b reads block b+1's slice, which (blocks running in order here) it has not written yet.
    assert_eq!(out, "sync: 0 cudaSuccess\nhalo: 0 0 0 0, total 100\n");
    assert_eq!(
        err,
        "streamsim: racecheck: kernel `halo`: write-after-read hazard on global memory at 0xd0000000000080 (offset \
         128 of the 512-byte allocation at 0xd0000000000000, cudaMalloc at line 46 of between_blocks.cu) between blocks: thread (0,0,0) of block (1,0,0) writes \
         4 bytes at line 17 that thread (0,0,0) of block (0,0,0) read at line 20, with no __threadfence and atomic \
         ordering the blocks (they run in any order) (96 hazards like it in the launch)\n\
         streamsim: racecheck: kernel `halo`: read-after-write hazard on global memory at 0xd0000000000000 (offset 0 \
         of the 512-byte allocation at 0xd0000000000000, cudaMalloc at line 46 of between_blocks.cu) between blocks: thread (0,0,0) of block (3,0,0) reads 4 \
         bytes at line 20 that thread (0,0,0) of block (0,0,0) wrote at line 17, with no __threadfence and atomic \
         ordering the blocks (they run in any order) (32 hazards like it in the launch)\n\
         streamsim: racecheck: kernel `last_block`: read-after-write hazard on global memory at 0xd0000000000800 \
         (offset 0 of the 16-byte allocation at 0xd0000000000800, cudaMalloc at line 49 of between_blocks.cu) between blocks: thread (0,0,0) of block (3,0,0) \
         reads 4 bytes at line 39 that thread (0,0,0) of block (0,0,0) wrote at line 28, with no __threadfence and \
         atomic ordering the blocks (they run in any order) (3 hazards like it in the launch)\n"
    );
}

#[test]
fn a_fence_before_the_ticket_and_a_second_launch_for_the_halo_order_the_blocks() {
    let (code, out, err) = racecheck(
        &cc("between-blocks-ok", &[BLOCKS], &["-g", "-DCORRECT"]),
        &[],
    );
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            Some(0),
            "sync: 0 cudaSuccess\nhalo: 1 2 3 0, total 100\n",
            ""
        )
    );
}

/// NVIDIA's threadFenceReduction (unmodified): each block writes its partial sum, makes a `__threadfence`, and
/// takes a ticket with `atomicInc`; the last block adds the partial sums. At a size whose bytes the shadow
/// holds whole, racecheck finds nothing.
#[test]
fn cuda_samples_thread_fence_reduction_is_ordered_by_its_fence_and_ticket() {
    let dir = "tests/cu/cuda-samples/threadFenceReduction";
    let include = format!(
        "-I{}",
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/cu/cuda-samples/Common")
            .display()
    );
    let exe = cc(
        "threadFenceReduction-racecheck",
        &[&format!("{dir}/threadFenceReduction.cu")],
        &[&include],
    );
    // The sample prints a wall-clock time, so only its verdict and standard error are compared across runs.
    for schedule in ["concurrent", "serialize"] {
        let o = crate::c_programs::run(
            &exe,
            &["--n=65536"],
            &[
                ("STREAMSIM_CHECK", "racecheck"),
                ("STREAMSIM_SCHEDULE", schedule),
            ],
            Duration::from_secs(120),
        );
        let (out, err) = (
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr),
        );
        assert_eq!(o.status.code(), Some(0), "{out}{err}");
        assert!(
            out.contains("GPU result = 0.003899649251\nCPU result = 0.003899649251\n"),
            "{out}"
        );
        assert_eq!(err, "", "{schedule}");
    }
}
