//! Binaries NVIDIA's nvcc built, run unmodified with `streamsim exec` on the drop-in `libcudart.so.13`:
//! cuda-samples built with `nvcc -cudart shared -arch=sm_80`, their kernels' CPU bodies from
//! `streamsim cc --kernels` of the same source, each passing its own checks; the no-body note; the refusal of a
//! statically linked runtime; the drop-ins' SONAMEs and version nodes; and the CUDA 12 and 13 struct layouts
//! against NVIDIA's headers. A host program built against NVIDIA's CUDA 12 and CUDA 13 headers and linked with
//! NVIDIA's `libcudart.so.12` / `.so.13` runs on the drop-in of that name (also as a per-thread default stream
//! build, as is vectorAdd built by nvcc with `--default-stream per-thread`), an AscendCL program linked with
//! `-lascendcl` (the drop-in, not `libstreamsim.so`) on `libascendcl.so`, and a MUSA one linked with `-lmusart` on
//! `libmusart.so.4`.
//!
//! CUDA 12 is NVIDIA's `nvidia-cuda-runtime-cu12` and `nvidia-cuda-nvcc-cu12` wheels (headers and
//! `libcudart.so.12`; the nvcc wheel of CUDA 12 ships no `nvcc`, only `ptxas` and the `crt/` headers, so no
//! CUDA 12 kernel binary is built here), in `~/.cache/streamsim-ci/nvcc12-venv`, or the folder
//! `STREAMSIM_CUDA12` names (holding `cuda_runtime/` and `cuda_nvcc/`).
//!
//! The toolchain is NVIDIA's pip wheels (`nvidia-cuda-nvcc`, `nvidia-nvvm`, `nvidia-cuda-runtime`,
//! `nvidia-cuda-crt`, `nvidia-cuda-cccl`, CUDA 13), which `.ci/run` installs into a cached virtual environment
//! (`~/.cache/streamsim-ci/nvcc-venv`); `STREAMSIM_NVCC` names another nvcc. Without it these tests fail and
//! say how to install it: they are never skipped.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use streamsim::cuda;
use streamsim::facade::dropin::{DeviceProp13, GraphEdgeData, PointerAttributes13};

use crate::c_programs::toolchain;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// NVIDIA's nvcc: `STREAMSIM_NVCC`, or the one `.ci/run` installs.
fn nvcc() -> &'static Path {
    static N: OnceLock<PathBuf> = OnceLock::new();
    N.get_or_init(|| {
        if let Some(p) = std::env::var_os("STREAMSIM_NVCC") {
            return PathBuf::from(p);
        }
        let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default();
        let venv = home.join(".cache/streamsim-ci/nvcc-venv/lib");
        let found = std::fs::read_dir(&venv).ok().and_then(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.path().join("site-packages/nvidia/cu13/bin/nvcc"))
                .find(|p| p.is_file())
        });
        found.unwrap_or_else(|| {
            panic!(
                "NVIDIA's nvcc is not installed in {}: run the toolchain step of .ci/run (pip install \
                 nvidia-cuda-nvcc nvidia-nvvm nvidia-cuda-runtime nvidia-cuda-crt nvidia-cuda-cccl into that \
                 venv, and link lib/libcudart.so to libcudart.so.13), or name an nvcc in STREAMSIM_NVCC",
                venv.display()
            )
        })
    })
}

/// The include folder of the CUDA 13 headers beside `nvcc`.
fn cuda_include() -> PathBuf {
    nvcc()
        .parent()
        .and_then(Path::parent)
        .expect("nvcc is in <cuda>/bin")
        .join("include")
}

/// Builds `src` with nvcc and `flags` into `out`.
pub(crate) fn nvcc_build(src: &Path, out: &Path, flags: &[&str]) {
    let o = Command::new(nvcc())
        .args(flags)
        .arg("-arch=sm_80")
        .arg("-I")
        .arg(root().join("tests/cu/cuda-samples/Common"))
        .arg(src)
        .arg("-o")
        .arg(out)
        .output()
        .expect("running nvcc");
    assert!(
        o.status.success(),
        "nvcc {} failed:\n{}{}",
        src.display(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Builds the CPU kernels of `src` with `streamsim cc --kernels` into `out`.
pub(crate) fn kernels_build(src: &Path, out: &Path) {
    let t = toolchain();
    let o = Command::new(env!("CARGO_BIN_EXE_streamsim"))
        .args(["cc", "--kernels", "-I"])
        .arg(root().join("tests/cu/cuda-samples/Common"))
        .arg(src)
        .arg("-o")
        .arg(out)
        .env("STREAMSIM_LIB", &t.lib_dir)
        .output()
        .expect("running streamsim cc");
    assert!(
        o.status.success(),
        "streamsim cc --kernels {} failed:\n{}",
        src.display(),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// `streamsim exec` with `args`: (exit code, stdout, stderr).
pub(crate) fn exec(args: &[&str]) -> (Option<i32>, String, String) {
    let t = toolchain();
    let cache = t.out_dir.join("dropin-cache");
    let lib = t.lib_dir.to_string_lossy().into_owned();
    let cache = cache.to_string_lossy().into_owned();
    let mut all = vec!["exec"];
    all.extend_from_slice(args);
    let o = crate::c_programs::run(
        Path::new(env!("CARGO_BIN_EXE_streamsim")),
        &all,
        &[("STREAMSIM_LIB", &lib), ("STREAMSIM_CACHE", &cache)],
        Duration::from_secs(180),
    );
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn sample(dir: &str) -> PathBuf {
    root().join(format!("tests/cu/cuda-samples/{dir}/{dir}.cu"))
}

/// cuda-samples that nvcc builds from one source and that pass their own checks on the drop-in, with what each
/// prints when it passes (as `cc_programs.rs` checks them built by `streamsim cc`).
const SAMPLES: &[(&str, &str)] = &[
    ("vectorAdd", "Test PASSED"),
    ("simpleP2P", "Test passed"),
    (
        "streamOrderedAllocation",
        "streamOrderedAllocationPostSync PASSED",
    ),
    ("simpleZeroCopy", "> Releasing CPU memory..."),
    (
        "StreamPriorities",
        "elapsed time of kernels launched to HI  priority stream",
    ),
    ("simpleHyperQ", "Measured time for sample"),
    ("simpleMultiCopy", "Overlapped using 4 streams"),
    ("clock", "Average clocks/block = "),
    ("simpleOccupancy", "Test PASSED"),
    (
        "topologyQuery",
        "GPU0 <-> GPU1:\n  * Atomic Supported: yes\n  * Perf Rank: 0",
    ),
];

#[test]
fn nvcc_built_cuda_samples_run_unmodified_and_pass_their_own_checks() {
    let t = toolchain();
    let mut failed = Vec::new();
    for (dir, pass) in SAMPLES {
        let exe = t.out_dir.join(format!("nvcc-{dir}"));
        let kernels = t.out_dir.join(format!("nvcc-{dir}.kernels.so"));
        nvcc_build(&sample(dir), &exe, &["-cudart", "shared"]);
        kernels_build(&sample(dir), &kernels);
        let (code, out, err) = exec(&[
            "--devices",
            "2",
            "--kernels",
            &kernels.to_string_lossy(),
            "--",
            &exe.to_string_lossy(),
        ]);
        if code != Some(0) || !out.contains(pass) {
            failed.push(format!(
                "{dir}: exit {code:?}, wanted `{pass}`:\n{out}{err}"
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}

#[test]
fn a_per_thread_default_stream_build_runs_its_work_on_the_per_thread_stream() {
    let t = toolchain();
    let exe = t.out_dir.join("nvcc-vectorAdd-per-thread");
    let kernels = t.out_dir.join("nvcc-vectorAdd-per-thread.kernels.so");
    let trace = t.out_dir.join("nvcc-vectorAdd-per-thread.json");
    // Its imports include __cudaLaunchKernel_ptsz and cudaMemcpy_ptds.
    nvcc_build(
        &sample("vectorAdd"),
        &exe,
        &["-cudart", "shared", "--default-stream", "per-thread"],
    );
    kernels_build(&sample("vectorAdd"), &kernels);
    let (code, out, err) = exec(&[
        "--kernels",
        &kernels.to_string_lossy(),
        "--trace",
        &trace.to_string_lossy(),
        "--",
        &exe.to_string_lossy(),
    ]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.ends_with("Test PASSED\nDone\n"), "{out}");
    let json = std::fs::read_to_string(&trace).expect("reading the trace");
    // The copies and the kernel ran on the per-thread default stream, none on the legacy one.
    assert!(json.contains("\"dev0 · per-thread stream 0\""), "{json}");
    assert!(!json.contains("legacy"), "{json}");
}

/// kernels-on-the-cpu.md · cooperative launches, through the drop-in: conjugateGradientMultiBlockCG built by
/// nvcc with `--default-stream per-thread` (it imports `cudaLaunchCooperativeKernel_ptsz`) and its kernels by
/// `streamsim cc --kernels` passes, its cooperative launch and everything else on the per-thread stream.
#[test]
fn a_per_thread_build_launches_cooperatively_on_the_per_thread_stream() {
    let t = toolchain();
    let exe = t
        .out_dir
        .join("nvcc-conjugateGradientMultiBlockCG-per-thread");
    let kernels = t
        .out_dir
        .join("nvcc-conjugateGradientMultiBlockCG-per-thread.kernels.so");
    let trace = t
        .out_dir
        .join("nvcc-conjugateGradientMultiBlockCG-per-thread.json");
    let src = sample("conjugateGradientMultiBlockCG");
    nvcc_build(
        &src,
        &exe,
        &["-cudart", "shared", "--default-stream", "per-thread"],
    );
    assert!(
        needed_symbols(&exe).contains("cudaLaunchCooperativeKernel_ptsz"),
        "the build should import the per-thread cooperative launch"
    );
    kernels_build(&src, &kernels);
    let (code, out, err) = exec(&[
        "--kernels",
        &kernels.to_string_lossy(),
        "--trace",
        &trace.to_string_lossy(),
        "--",
        &exe.to_string_lossy(),
    ]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.ends_with("&&&& conjugateGradientMultiBlockCG PASSED\n"),
        "{out}"
    );
    let json = std::fs::read_to_string(&trace).expect("reading the trace");
    assert!(json.contains("\"dev0 · per-thread stream 0\""), "{json}");
    assert!(!json.contains("legacy"), "{json}");
}

/// The dynamic symbols `exe` imports (`nm -D --undefined-only`).
fn needed_symbols(exe: &Path) -> String {
    let o = Command::new("nm")
        .args(["-D", "--undefined-only"])
        .arg(exe)
        .output()
        .expect("running nm");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn a_kernel_without_a_cpu_body_runs_as_a_timed_operation_and_says_so_once() {
    let t = toolchain();
    let exe = t.out_dir.join("nvcc-vectorAdd-nobody");
    nvcc_build(&sample("vectorAdd"), &exe, &["-cudart", "shared"]);
    let (code, out, err) = exec(&["--", &exe.to_string_lossy()]);
    // The host's check fails: the kernel did not add (its effects are not simulated), and the run says why.
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.ends_with("Copy output data from the CUDA device to the host memory\n"),
        "{out}"
    );
    assert_eq!(
        err,
        "streamsim: kernel `vectorAdd` has no CPU code (build with `streamsim cc`): it runs as a timed \
         operation that touches no memory, and its accesses are unknown to the race detector\n\
         Result verification failed at element 0!\n\
         streamsim: race detection: the accesses of 1 kernel without CPU code (`vectorAdd`) are unknown, so \
         races with them are not reported (give an nvcc binary its kernels with `streamsim cc --kernels`)\n"
    );
}

/// sanitizer.md · memcheck, through `streamsim exec --check` (`--tool`, compute-sanitizer's word): the
/// sanitizer corpus's out-of-bounds program built by nvcc, its kernels from `streamsim cc --kernels`: the write
/// past the end is 700 with the memcheck report, and `--tool off` keeps the fault without the report.
#[test]
fn exec_check_runs_the_sanitizer_on_an_nvcc_binarys_kernels() {
    let t = toolchain();
    let src = root().join("tests/cu/streamsim/sanitizer/out_of_bounds.cu");
    let exe = t.out_dir.join("nvcc-oob");
    let kernels = t.out_dir.join("nvcc-oob.kernels.so");
    nvcc_build(&src, &exe, &["-cudart", "shared"]);
    kernels_build(&src, &kernels);
    let (k, e) = (kernels.to_string_lossy(), exe.to_string_lossy());
    let (code, out, err) = exec(&["--check", "memcheck", "--kernels", &k, "--", &e]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(out, "sync: 700 cudaErrorIllegalAddress\n");
    assert_eq!(
        err,
        "streamsim: memcheck: kernel `fill`: invalid write of 4 bytes by block (3,0,0), thread (232,0,0) at \
         0xd0000000000fa0: 0 bytes after the end of allocation #1 (4000 bytes at 0xd0000000000000)\n"
    );
    let (code, out, err) = exec(&["--tool", "off", "--kernels", &k, "--", &e]);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (Some(0), "sync: 700 cudaErrorIllegalAddress\n", "")
    );
}

#[test]
fn a_binary_with_the_static_runtime_is_refused_with_the_fix() {
    let t = toolchain();
    let exe = t.out_dir.join("nvcc-vectorAdd-static");
    nvcc_build(&sample("vectorAdd"), &exe, &[]);
    let (code, out, err) = exec(&["--", &exe.to_string_lossy()]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert_eq!(out, "");
    assert_eq!(
        err,
        format!(
            "streamsim exec: {} is linked with the static CUDA runtime (nvcc's default, -cudart static): its \
             CUDA calls cannot be redirected to the simulator. Rebuild it with `nvcc -cudart shared`\n",
            exe.display()
        )
    );
}

/// `sizeof` and each field's offset of a Rust struct (a raw identifier `r#type` is the C field `type`), and the
/// C statements that print the same of the C struct, as the test's C program prints them.
macro_rules! layout {
    ($t:ty, $c:literal: $($f:ident),* $(,)?) => {{
        let c_name = |f: &str| f.trim_start_matches("r#").to_string();
        let rust: Vec<String> = vec![
            format!("sizeof {} {}", $c, std::mem::size_of::<$t>()),
            $(format!("{} {}", c_name(stringify!($f)), std::mem::offset_of!($t, $f)),)*
        ];
        let c: String = std::iter::once(format!(
            "    printf(\"sizeof %s %zu\\n\", \"{}\", sizeof({}));\n", $c, $c
        ))
        .chain([$({
            let f = c_name(stringify!($f));
            format!("    printf(\"{f} %zu\\n\", offsetof({}, {f}));\n", $c)
        },)*])
        .collect();
        (rust, c)
    }};
}

/// Builds the C++ program printing `c` with NVIDIA's headers in `include` (and `more`), runs it, and compares
/// its lines with `want`.
fn compare_layouts(name: &str, includes: &[PathBuf], c: &str, want: &[String]) {
    let t = toolchain();
    let src = t.out_dir.join(format!("{name}.cpp"));
    let exe = t.out_dir.join(name);
    let text = format!(
        "#include <cstdio>\n#include <cstddef>\n#include <cuda_runtime_api.h>\nint main() {{\n{c}    return 0;\n}}\n"
    );
    std::fs::write(&src, text).expect("writing the layout program");
    let mut cmd = Command::new("c++");
    for i in includes {
        cmd.arg("-I").arg(i);
    }
    let o = cmd
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("running c++");
    assert!(
        o.status.success(),
        "the layout program does not build against NVIDIA's headers:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = Command::new(&exe)
        .output()
        .expect("running the layout program");
    let got = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(got.lines().collect::<Vec<_>>(), want);
}

#[test]
fn cuda_13_layouts_match_nvidias_headers() {
    let (prop, prop_c) = layout!(DeviceProp13, "struct cudaDeviceProp":
        name, uuid, luid, luidDeviceNodeMask, totalGlobalMem, sharedMemPerBlock, regsPerBlock, warpSize,
        memPitch, maxThreadsPerBlock, maxThreadsDim, maxGridSize, totalConstMem, major, minor,
        textureAlignment, texturePitchAlignment, multiProcessorCount, integrated, canMapHostMemory,
        maxTexture1D, maxTexture1DMipmap, maxTexture2D, maxTexture2DMipmap, maxTexture2DLinear,
        maxTexture2DGather, maxTexture3D, maxTexture3DAlt, maxTextureCubemap, maxTexture1DLayered,
        maxTexture2DLayered, maxTextureCubemapLayered, maxSurface1D, maxSurface2D, maxSurface3D,
        maxSurface1DLayered, maxSurface2DLayered, maxSurfaceCubemap, maxSurfaceCubemapLayered,
        surfaceAlignment, concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID, tccDriver,
        asyncEngineCount, unifiedAddressing, memoryBusWidth, l2CacheSize, persistingL2CacheMaxSize,
        maxThreadsPerMultiProcessor, streamPrioritiesSupported, globalL1CacheSupported,
        localL1CacheSupported, sharedMemPerMultiprocessor, regsPerMultiprocessor, managedMemory,
        isMultiGpuBoard, multiGpuBoardGroupID, hostNativeAtomicSupported, pageableMemoryAccess,
        concurrentManagedAccess, computePreemptionSupported, canUseHostPointerForRegisteredMem,
        cooperativeLaunch, sharedMemPerBlockOptin, pageableMemoryAccessUsesHostPageTables,
        directManagedMemAccessFromHost, maxBlocksPerMultiProcessor, accessPolicyMaxWindowSize,
        reservedSharedMemPerBlock, hostRegisterSupported, sparseCudaArraySupported,
        hostRegisterReadOnlySupported, timelineSemaphoreInteropSupported, memoryPoolsSupported,
        gpuDirectRDMASupported, gpuDirectRDMAFlushWritesOptions, gpuDirectRDMAWritesOrdering,
        memoryPoolSupportedHandleTypes, deferredMappingCudaArraySupported, ipcEventSupported, clusterLaunch,
        unifiedFunctionPointers, deviceNumaConfig, deviceNumaId, mpsEnabled, hostNumaId, gpuPciDeviceID,
        gpuPciSubsystemID, hostNumaMultinodeIpcSupported, reserved);
    let (edge, edge_c) = layout!(GraphEdgeData, "cudaGraphEdgeData": from_port, to_port, reserved);
    // Rust's `type` is `type_` (not a raw identifier here): checked on its own.
    let mut want: Vec<String> = prop;
    want.extend(edge);
    want.push(format!(
        "type {}",
        std::mem::offset_of!(GraphEdgeData, type_)
    ));
    let c = format!(
        "{prop_c}{edge_c}    printf(\"type %zu\\n\", offsetof(cudaGraphEdgeData, type));\n"
    );
    compare_layouts("cuda13-layouts", &[cuda_include()], &c, &want);
}

/// NVIDIA's CUDA 12 wheels (`nvidia-cuda-runtime-cu12`, `nvidia-cuda-nvcc-cu12`): `STREAMSIM_CUDA12`, or the
/// venv `.ci/run` installs them into. The folder holds `cuda_runtime/` (headers, `libcudart.so.12`) and
/// `cuda_nvcc/` (the `crt/` headers).
fn cuda12() -> &'static Path {
    static C: OnceLock<PathBuf> = OnceLock::new();
    C.get_or_init(|| {
        if let Some(p) = std::env::var_os("STREAMSIM_CUDA12") {
            return PathBuf::from(p);
        }
        let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default();
        let venv = home.join(".cache/streamsim-ci/nvcc12-venv/lib");
        let found = std::fs::read_dir(&venv).ok().and_then(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.path().join("site-packages/nvidia"))
                .find(|p| p.join("cuda_runtime/lib/libcudart.so.12").is_file())
        });
        found.unwrap_or_else(|| {
            panic!(
                "NVIDIA's CUDA 12 runtime is not installed in {}: run the toolchain step of .ci/run (pip install \
                 nvidia-cuda-runtime-cu12 nvidia-cuda-nvcc-cu12 into that venv), or name its nvidia/ folder in \
                 STREAMSIM_CUDA12",
                venv.display()
            )
        })
    })
}

/// The include folders of CUDA 12's headers.
fn cuda12_includes() -> Vec<PathBuf> {
    vec![
        cuda12().join("cuda_runtime/include"),
        cuda12().join("cuda_nvcc/include"),
    ]
}

/// Builds the C program `src` with `cc`, `-include check_vendor.h` (check.h's assertions without streamsim
/// calls) and `flags`, into `out`.
fn cc_build(src: &Path, out: &Path, flags: &[&std::ffi::OsStr]) {
    let t = toolchain();
    let o = Command::new("cc")
        .arg("-include")
        .arg(t.c_dir.join("check_vendor.h"))
        .arg(src)
        .args(flags)
        .arg("-o")
        .arg(out)
        .output()
        .expect("running cc");
    assert!(
        o.status.success(),
        "cc {} failed:\n{}",
        src.display(),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The `DT_NEEDED` entries of `exe`, as `readelf -d` shows them.
fn needed(exe: &Path) -> Vec<String> {
    let d = Command::new("readelf")
        .arg("-dW")
        .arg(exe)
        .output()
        .expect("readelf");
    String::from_utf8_lossy(&d.stdout)
        .lines()
        .filter(|l| l.contains("(NEEDED)"))
        .filter_map(|l| Some(l.split('[').nth(1)?.trim_end_matches(']').to_string()))
        .collect()
}

/// What `dropin_cudart.c` prints on the drop-in of CUDA `major`.
fn dropin_cudart_output(major: u32, prop_size: usize) -> String {
    // The C library's versions are CUDA 12.8's; libcudart.so.13 reports 13.0.
    let version = if major == 13 { 13000 } else { 12080 };
    format!(
        "runtime {version}, driver {version}\nCUDA {major} headers, sizeof(cudaDeviceProp) {prop_size}: device 1 is streamsim device, sm_80, 108 SMs, \
         warp 32\ntwo copies of 4096 bytes: 0.005512 ms\ncaptured graph: 1 edge, launched\n\
         dropin_cudart (CUDA {major}): ok\n"
    )
}

/// Builds `dropin_cudart.c` against CUDA `major`'s headers (`includes`) and NVIDIA's library in `lib`, as is and
/// as a per-thread default stream build (`CUDA_API_PER_THREAD_DEFAULT_STREAM`: its stream calls are the
/// `_ptsz` entry points), and runs both on the drop-in: the same output.
fn dropin_cudart(major: u32, includes: &[PathBuf], lib: &Path, prop_size: usize) {
    let t = toolchain();
    let soname = format!("libcudart.so.{major}");
    for per_thread in [false, true] {
        let exe = t.out_dir.join(format!("dropin-cudart{major}-{per_thread}"));
        let mut flags: Vec<&std::ffi::OsStr> = Vec::new();
        if per_thread {
            flags.push("-DCUDA_API_PER_THREAD_DEFAULT_STREAM".as_ref());
        }
        for i in includes {
            flags.push("-I".as_ref());
            flags.push(i.as_os_str());
        }
        let link = format!("-l:{soname}");
        flags.extend(["-L".as_ref(), lib.as_os_str(), link.as_ref()]);
        cc_build(&t.c_dir.join("dropin_cudart.c"), &exe, &flags);
        assert_eq!(needed(&exe), [soname.as_str(), "libc.so.6"]);
        let nm = Command::new("nm").arg("-D").arg(&exe).output().expect("nm");
        let nm = String::from_utf8_lossy(&nm.stdout).into_owned();
        assert_eq!(
            nm.contains(&format!("cudaStreamSynchronize_ptsz@{soname}")),
            per_thread,
            "{nm}"
        );
        assert_eq!(
            nm.contains(&format!("cudaGraphInstantiateWithParams_ptsz@{soname}")),
            per_thread,
            "{nm}"
        );
        let (code, out, err) = exec(&["--devices", "2", "--", &exe.to_string_lossy()]);
        assert_eq!(code, Some(0), "per-thread {per_thread}: {out}{err}");
        assert_eq!(err, "");
        assert_eq!(out, dropin_cudart_output(major, prop_size));
    }
}

#[test]
fn a_host_program_built_against_nvidias_cuda_12_runs_on_the_dropin_libcudart_so_12() {
    dropin_cudart(
        12,
        &cuda12_includes(),
        &cuda12().join("cuda_runtime/lib"),
        std::mem::size_of::<cuda::cudaDeviceProp>(),
    );
}

#[test]
fn a_host_program_built_against_nvidias_cuda_13_runs_on_the_dropin_libcudart_so_13() {
    let include = cuda_include();
    let lib = include.parent().expect("<cuda>/include").join("lib");
    dropin_cudart(13, &[include], &lib, std::mem::size_of::<DeviceProp13>());
}

#[test]
fn an_acl_program_linked_with_lascendcl_runs_on_the_dropin_libascendcl_so() {
    let t = toolchain();
    let dir = streamsim::exec::prepare(&t.lib_dir).expect("building the drop-ins");
    let exe = t.out_dir.join("dropin-acl-memcpy2d");
    cc_build(
        &t.c_dir.join("acl_memcpy2d.c"),
        &exe,
        &[
            "-I".as_ref(),
            t.include_dir.as_os_str(),
            "-L".as_ref(),
            dir.as_os_str(),
            "-lascendcl".as_ref(),
        ],
    );
    // Linked with the drop-in alone: the program needs CANN's library name, not streamsim's.
    assert_eq!(needed(&exe), ["libascendcl.so", "libc.so.6"]);
    let (code, out, err) = exec(&["--", &exe.to_string_lossy()]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(err, "");
    assert_eq!(out, "2-D copy of 64 bytes: 0.003004 ms\nacl_memcpy2d: ok\n");
}

#[test]
fn a_musa_program_linked_with_lmusart_runs_on_the_dropin_libmusart_so_4() {
    let t = toolchain();
    let dir = streamsim::exec::prepare(&t.lib_dir).expect("building the drop-ins");
    let exe = t.out_dir.join("dropin-musart");
    cc_build(
        &t.c_dir.join("dropin_musart.c"),
        &exe,
        &[
            "-I".as_ref(),
            t.include_dir.as_os_str(),
            "-L".as_ref(),
            dir.as_os_str(),
            "-lmusart".as_ref(),
        ],
    );
    assert_eq!(needed(&exe), ["libmusart.so.4", "libc.so.6"]);
    let (code, out, err) = exec(&["--", &exe.to_string_lossy()]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(err, "");
    assert_eq!(
        out,
        "copy there and back on two streams: 0.006256 ms\ndropin_musart: ok\n"
    );
}

#[test]
fn a_binary_needing_another_cudart_major_is_refused_naming_the_dropins() {
    let t = toolchain();
    let dir = t.out_dir.join("cudart11");
    std::fs::create_dir_all(&dir).expect("creating the folder");
    // A stand-in libcudart.so.11.0 to link against: the program is refused before it runs.
    let src = dir.join("lib.c");
    std::fs::write(&src, "int cudaFree(void *p) { (void)p; return 0; }\n").expect("writing");
    let lib = dir.join("libcudart.so.11.0");
    let o = Command::new("cc")
        .args(["-shared", "-fPIC", "-Wl,-soname,libcudart.so.11.0", "-o"])
        .arg(&lib)
        .arg(&src)
        .output()
        .expect("cc");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let main = dir.join("main.c");
    std::fs::write(
        &main,
        "int cudaFree(void *);\nint main(void) { return cudaFree(0); }\n",
    )
    .expect("writing");
    let exe = dir.join("app");
    let o = Command::new("cc")
        .arg(&main)
        .arg(&lib)
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("cc");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (code, out, err) = exec(&["--", &exe.to_string_lossy()]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert_eq!(
        err,
        format!(
            "streamsim exec: {} needs libcudart.so.11.0: streamsim's drop-ins are libcudart.so.13 (CUDA 13) and \
             libcudart.so.12 (CUDA 12); rebuild it with the nvcc of one of them\n",
            exe.display()
        )
    );
}

/// A drop-in's file (and SONAME), its version node, exports it must have and exports it must not have.
type DropInCase = (
    &'static str,
    Option<&'static str>,
    &'static [&'static str],
    &'static [&'static str],
);

#[test]
fn the_dropins_have_their_sonames_and_version_nodes() {
    let t = toolchain();
    let dir = streamsim::exec::prepare(&t.lib_dir).expect("building the drop-ins");
    let cases: [DropInCase; 4] = [
        (
            "libcudart.so.12",
            Some("libcudart.so.12"),
            &[
                "cudaGetDeviceProperties_v2",
                "cudaStreamGetCaptureInfo",
                "cudaStreamGetCaptureInfo_v2",
                "cudaStreamGetCaptureInfo_v3",
                "cudaGraphGetEdges_v2",
                "cudaGraphAddNode_v2",
                "cudaMemPrefetchAsync",
                "cudaMemPrefetchAsync_v2",
                "cudaLaunchKernel",
                "cudaGetDriverEntryPoint",
                "cudaGetDriverEntryPointByVersion_ptsz",
                "cudaStreamGetCaptureInfo_v2_ptsz",
                "cudaMemPrefetchAsync_v2_ptsz",
                "cudaMemcpyAsync_ptsz",
                "cudaMemcpy_ptds",
            ],
            &[
                "cudaGetDeviceProperties",
                "cudasimLaunchKernel",
                "musaMalloc",
            ],
        ),
        (
            "libcudart.so.13",
            Some("libcudart.so.13"),
            &[
                "cudaGetDeviceProperties",
                "cudaMemPrefetchAsync",
                "cudaMemAdvise",
                "cudaGraphAddNode",
                "cudaGraphAddDependencies",
                "cudaGraphRemoveDependencies",
                "__cudaGetKernel",
                "__cudaLaunchKernel",
                "cudaGetDriverEntryPointByVersion",
                "cudaStreamGetCaptureInfo_ptsz",
                "cudaStreamBeginCaptureToGraph",
                "cudaStreamBeginCaptureToGraph_ptsz",
                "cudaLaunchKernel_ptsz",
                "cudaLaunchCooperativeKernel_ptsz",
                "cudaMemset3D_ptds",
                "cudaRuntimeGetVersion",
            ],
            &[
                "cudasimLaunchKernel",
                "aclrtMalloc",
                "cudaStreamGetCaptureInfo_v2_ptsz",
            ],
        ),
        (
            "libmusart.so.4",
            None,
            &["musaMalloc", "musaStreamCreate", "musaGraphLaunch"],
            &["musasimLaunchKernel", "cudaMalloc"],
        ),
        (
            "libascendcl.so",
            None,
            &[
                "aclInit",
                "aclrtMalloc",
                "aclrtMemcpy2d",
                "aclmdlRICaptureBegin",
            ],
            &[
                "aclsimLaunchKernel",
                "__streamsimAclPushCallConfiguration",
                "cudaMalloc",
            ],
        ),
    ];
    for (file, node, has, lacks) in cases {
        let lib = dir.join(file);
        let d = Command::new("readelf")
            .arg("-dW")
            .arg(&lib)
            .output()
            .expect("readelf");
        let d = String::from_utf8_lossy(&d.stdout);
        assert!(
            d.contains(&format!("Library soname: [{file}]")),
            "{file}: {d}"
        );
        let nm = Command::new("nm")
            .args(["-D", "--defined-only", "--with-symbol-versions"])
            .arg(&lib)
            .output()
            .expect("nm");
        let nm = String::from_utf8_lossy(&nm.stdout);
        let names: Vec<&str> = nm
            .lines()
            .filter_map(|l| l.split_whitespace().nth(2))
            .collect();
        let bare = |n: &str| n.split('@').next().unwrap_or(n).to_string();
        match node {
            Some(node) => {
                let unversioned: Vec<&&str> = names
                    .iter()
                    .filter(|n| !n.ends_with(&format!("@@{node}")) && !n.starts_with(node))
                    .collect();
                assert!(
                    unversioned.is_empty(),
                    "{file}: exports without the node: {unversioned:?}"
                );
            }
            None => assert!(
                names.iter().all(|n| !n.contains('@')),
                "{file}: versioned exports:\n{nm}"
            ),
        }
        let exported: Vec<String> = names.iter().map(|n| bare(n)).collect();
        for f in has {
            assert!(
                exported.iter().any(|n| n == f),
                "{file}: {f} is not exported"
            );
        }
        for f in lacks {
            assert!(!exported.iter().any(|n| n == f), "{file}: {f} is exported");
        }
    }
    // The name programs link with: libmusart.so, a link to the drop-in.
    assert_eq!(
        std::fs::read_link(dir.join("libmusart.so")).expect("libmusart.so is a link"),
        Path::new("libmusart.so.4")
    );
}

/// The structs programs pass by pointer, as the C library lays them out (CUDA 12's; CUDA 13's
/// `cudaPointerAttributes` is `PointerAttributes13`, checked on its own), against NVIDIA's headers.
fn shared_layouts(pointer_attributes: bool) -> (Vec<String>, String) {
    use streamsim::cuda::*;
    let mut want = Vec::new();
    let mut c = String::new();
    let mut add = |(w, s): (Vec<String>, String)| {
        want.extend(w);
        c.push_str(&s);
    };
    if pointer_attributes {
        add(
            layout!(cudaPointerAttributes, "cudaPointerAttributes": r#type, device, devicePointer, hostPointer),
        );
    }
    add(layout!(cudaMemLocation, "cudaMemLocation": r#type, id));
    add(layout!(cudaMemPoolProps, "cudaMemPoolProps":
        allocType, handleTypes, location, win32SecurityAttributes, maxSize, usage, reserved));
    add(layout!(cudaMemAccessDesc, "cudaMemAccessDesc": location, flags));
    add(layout!(cudaPitchedPtr, "cudaPitchedPtr": ptr, pitch, xsize, ysize));
    add(layout!(cudaExtent, "cudaExtent": width, height, depth));
    add(layout!(cudaPos, "cudaPos": x, y, z));
    add(layout!(cudaMemcpy3DParms, "cudaMemcpy3DParms":
        srcArray, srcPos, srcPtr, dstArray, dstPos, dstPtr, extent, kind));
    add(layout!(cudaMemcpy3DPeerParms, "cudaMemcpy3DPeerParms":
        srcArray, srcPos, srcPtr, srcDevice, dstArray, dstPos, dstPtr, dstDevice, extent));
    add(layout!(cudaKernelNodeParams, "cudaKernelNodeParams":
        func, gridDim, blockDim, sharedMemBytes, kernelParams, extra));
    add(
        layout!(cudaMemsetParams, "cudaMemsetParams": dst, pitch, value, elementSize, width, height),
    );
    add(layout!(cudaHostNodeParams, "cudaHostNodeParams": r#fn, userData));
    add(layout!(cudaMemcpyNodeParams, "cudaMemcpyNodeParams": flags, reserved, copyParams));
    add(layout!(cudaGraphNodeParams, "cudaGraphNodeParams": r#type, reserved0, reserved2));
    add(
        layout!(cudaGraphExecUpdateResultInfo, "cudaGraphExecUpdateResultInfo":
        result, errorNode, errorFromNode),
    );
    add(
        layout!(cudaGraphInstantiateParams, "cudaGraphInstantiateParams":
        flags, uploadStream, errNode_out, result_out),
    );
    // The union of node parameters (anonymous in C): its members at the union's offset.
    let u = std::mem::offset_of!(cudaGraphNodeParams, u);
    for member in [
        "kernel",
        "memcpy",
        "memset",
        "host",
        "graph",
        "eventWait",
        "eventRecord",
    ] {
        want.push(format!("{member} {u}"));
        c.push_str(&format!(
            "    printf(\"{member} %zu\\n\", offsetof(cudaGraphNodeParams, {member}));\n"
        ));
    }
    (want, c)
}

#[test]
fn cuda_12_layouts_match_nvidias_headers() {
    // CUDA 12's `reserved[63]` is the C library's `reserved2[2]`, `reserved1[1]`, `reserved[60]`.
    let (mut want, mut c) = layout!(cuda::cudaDeviceProp, "struct cudaDeviceProp":
        name, uuid, luid, luidDeviceNodeMask, totalGlobalMem, sharedMemPerBlock, regsPerBlock, warpSize,
        memPitch, maxThreadsPerBlock, maxThreadsDim, maxGridSize, clockRate, totalConstMem, major, minor,
        textureAlignment, texturePitchAlignment, deviceOverlap, multiProcessorCount, kernelExecTimeoutEnabled,
        integrated, canMapHostMemory, computeMode, maxTexture1D, maxTexture1DMipmap, maxTexture1DLinear,
        maxTexture2D, maxTexture2DMipmap, maxTexture2DLinear, maxTexture2DGather, maxTexture3D,
        maxTexture3DAlt, maxTextureCubemap, maxTexture1DLayered, maxTexture2DLayered,
        maxTextureCubemapLayered, maxSurface1D, maxSurface2D, maxSurface3D, maxSurface1DLayered,
        maxSurface2DLayered, maxSurfaceCubemap, maxSurfaceCubemapLayered, surfaceAlignment,
        concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID, tccDriver, asyncEngineCount,
        unifiedAddressing, memoryClockRate, memoryBusWidth, l2CacheSize, persistingL2CacheMaxSize,
        maxThreadsPerMultiProcessor, streamPrioritiesSupported, globalL1CacheSupported,
        localL1CacheSupported, sharedMemPerMultiprocessor, regsPerMultiprocessor, managedMemory,
        isMultiGpuBoard, multiGpuBoardGroupID, hostNativeAtomicSupported, singleToDoublePrecisionPerfRatio,
        pageableMemoryAccess, concurrentManagedAccess, computePreemptionSupported,
        canUseHostPointerForRegisteredMem, cooperativeLaunch, cooperativeMultiDeviceLaunch,
        sharedMemPerBlockOptin, pageableMemoryAccessUsesHostPageTables, directManagedMemAccessFromHost,
        maxBlocksPerMultiProcessor, accessPolicyMaxWindowSize, reservedSharedMemPerBlock,
        hostRegisterSupported, sparseCudaArraySupported, hostRegisterReadOnlySupported,
        timelineSemaphoreInteropSupported, memoryPoolsSupported, gpuDirectRDMASupported,
        gpuDirectRDMAFlushWritesOptions, gpuDirectRDMAWritesOrdering, memoryPoolSupportedHandleTypes,
        deferredMappingCudaArraySupported, ipcEventSupported, clusterLaunch, unifiedFunctionPointers);
    want.push(format!(
        "reserved {}",
        std::mem::offset_of!(cuda::cudaDeviceProp, reserved2)
    ));
    c.push_str("    printf(\"reserved %zu\\n\", offsetof(struct cudaDeviceProp, reserved));\n");
    let (w, s) = shared_layouts(true);
    want.extend(w);
    c.push_str(&s);
    compare_layouts("cuda12-layouts", &cuda12_includes(), &c, &want);
}

#[test]
fn the_structs_programs_pass_have_cuda_13s_layouts_too() {
    let (mut want, mut c) = layout!(PointerAttributes13, "cudaPointerAttributes":
        r#type, device, devicePointer, hostPointer, localityDomainOrdinal, reserved);
    let (w, s) = shared_layouts(false);
    want.extend(w);
    c.push_str(&s);
    compare_layouts("cuda13-shared-layouts", &[cuda_include()], &c, &want);
}

/// managed-memory.md · `__cudaRegisterManagedVar`: an nvcc binary's `__managed__` variables (one in a namespace),
/// with initialisers, read and written by host code and by a kernel by name: with the kernels library they are
/// its bytes (host and kernel see one copy, from the initialisers on); without it they start zeroed, and
/// standard error says so.
#[test]
fn an_nvcc_binarys_managed_variables_are_the_kernels_librarys() {
    let t = toolchain();
    let src = root().join("tests/cu/streamsim/managed_vars.cu");
    let exe = t.out_dir.join("nvcc-managed-vars");
    let kernels = t.out_dir.join("nvcc-managed-vars.kernels.so");
    nvcc_build(&src, &exe, &["-cudart", "shared"]);
    kernels_build(&src, &kernels);
    let (k, e) = (kernels.to_string_lossy(), exe.to_string_lossy());
    let (code, out, err) = exec(&["--kernels", &k, "--", &e]);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (Some(0), "before 5 4\nmv 15 arr 104\ntype 3\n", "")
    );
    let (code, out, err) = exec(&["--races", "off", "--", &e]);
    assert_eq!(
        (code, out.as_str()),
        (Some(0), "before 0 0\nmv 0 arr 0\ntype 3\n")
    );
    assert_eq!(
        err,
        "streamsim: the __managed__ variable `mv` has no definition in a kernels library (`streamsim cc \
         --kernels`): it starts zeroed, not with its initialiser\n\
         streamsim: the __managed__ variable `_ZN2ns3arrE` has no definition in a kernels library (`streamsim \
         cc --kernels`): it starts zeroed, not with its initialiser\n\
         streamsim: kernel `k` has no CPU code (build with `streamsim cc`): it runs as a timed operation that \
         touches no memory, and its accesses are unknown to the race detector\n"
    );
}
