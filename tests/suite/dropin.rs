//! Binaries NVIDIA's nvcc built, run unmodified with `streamsim exec` on the drop-in `libcudart.so.13`:
//! cuda-samples built with `nvcc -cudart shared -arch=sm_80`, their kernels' CPU bodies from
//! `streamsim cc --kernels` of the same source, each passing its own checks; the no-body note; the refusal of a
//! statically linked runtime; the drop-in's SONAME and version node; and the CUDA 13 struct layouts against
//! NVIDIA's headers.
//!
//! The toolchain is NVIDIA's pip wheels (`nvidia-cuda-nvcc`, `nvidia-nvvm`, `nvidia-cuda-runtime`,
//! `nvidia-cuda-crt`, `nvidia-cuda-cccl`, CUDA 13), which `.ci/run` installs into a cached virtual environment
//! (`~/.cache/streamsim-ci/nvcc-venv`); `STREAMSIM_NVCC` names another nvcc. Without it these tests fail and
//! say how to install it: they are never skipped.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use streamsim::facade::dropin::{DeviceProp13, GraphEdgeData};

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
fn nvcc_build(src: &Path, out: &Path, flags: &[&str]) {
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
fn kernels_build(src: &Path, out: &Path) {
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
fn exec(args: &[&str]) -> (Option<i32>, String, String) {
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
         Result verification failed at element 0!\n"
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

#[test]
fn the_dropin_has_the_soname_and_every_export_the_version_node() {
    let t = toolchain();
    let dir = streamsim::exec::prepare(&t.lib_dir).expect("building the drop-in");
    let lib = dir.join("libcudart.so.13");
    let d = Command::new("readelf")
        .arg("-dW")
        .arg(&lib)
        .output()
        .expect("readelf");
    let d = String::from_utf8_lossy(&d.stdout);
    assert!(d.contains("Library soname: [libcudart.so.13]"), "{d}");
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
    let unversioned: Vec<&&str> = names
        .iter()
        .filter(|n| !n.ends_with("@@libcudart.so.13") && !n.starts_with("libcudart.so.13"))
        .collect();
    assert!(
        unversioned.is_empty(),
        "exports without the node: {unversioned:?}"
    );
    for f in [
        "__cudaGetKernel@@libcudart.so.13",
        "__cudaLaunchKernel@@libcudart.so.13",
        "__cudaRegisterFatBinaryEnd@@libcudart.so.13",
        "cudaGetDeviceProperties@@libcudart.so.13",
        "cudaMalloc@@libcudart.so.13",
    ] {
        assert!(names.contains(&f), "{f} is not exported:\n{nm}");
    }
    assert!(!names.iter().any(|n| n.starts_with("cudasim")), "{nm}");
}

/// `(field, offset, size)` of each field of a Rust struct, as the test's C program prints them.
macro_rules! layout {
    ($t:ty, $c:literal: $($f:ident),* $(,)?) => {{
        let rust: Vec<String> = vec![
            format!("sizeof {}", std::mem::size_of::<$t>()),
            $(format!("{} {}", stringify!($f), std::mem::offset_of!($t, $f)),)*
        ];
        let c: String = std::iter::once(format!("    printf(\"sizeof %zu\\n\", sizeof({}));\n", $c))
            .chain([$(format!(
                "    printf(\"{} %zu\\n\", offsetof({}, {}));\n", stringify!($f), $c, stringify!($f)
            ),)*])
            .collect();
        (rust, c)
    }};
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
    let t = toolchain();
    let src = t.out_dir.join("cuda13-layouts.cpp");
    let exe = t.out_dir.join("cuda13-layouts");
    // `type` is a C++ keyword-free name in C but Rust's is `type_`: checked on its own.
    let text = format!(
        "#include <cstdio>\n#include <cstddef>\n#include <cuda_runtime_api.h>\nint main() {{\n{prop_c}\
         {edge_c}    printf(\"type %zu\\n\", offsetof(cudaGraphEdgeData, type));\n    return 0;\n}}\n"
    );
    std::fs::write(&src, text).expect("writing the layout program");
    let o = Command::new("c++")
        .arg("-I")
        .arg(cuda_include())
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("running c++");
    assert!(
        o.status.success(),
        "the layout program does not build against CUDA 13's headers:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = Command::new(&exe)
        .output()
        .expect("running the layout program");
    let got = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut want: Vec<String> = prop;
    want.extend(edge);
    want.push(format!(
        "type {}",
        std::mem::offset_of!(GraphEdgeData, type_)
    ));
    assert_eq!(got.lines().collect::<Vec<_>>(), want);
}
