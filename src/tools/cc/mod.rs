//! `streamsim cc`: a compiler driver with nvcc's everyday interface that builds an unmodified `.cu` / `.mu` /
//! Ascend C program into an executable whose kernels run on the CPU, on the simulated machine.
//!
//! Each CUDA-language source goes through clang twice, as nvcc does:
//! - the **host pass** (`--cuda-host-only`) compiles the host code against streamsim's headers; clang lowers
//!   `kernel<<<grid, block, shmem, stream>>>(args)` to `__cudaPushCallConfiguration` and a stub that calls
//!   `cudaLaunchKernel`, and the module's constructor registers the stubs (`src/facade/cc_runtime.rs`);
//! - the **device pass** (`--cuda-device-only -emit-llvm`) gives the kernels as NVPTX IR, which [`ir`]
//!   rewrites for the host and clang compiles at `-O2`.
//!
//! The objects are linked with the CPU runtime (`include/streamsim/cc/kernel_rt.c`) and `libstreamsim`. The
//! headers travel inside the `streamsim` binary (written once to a cache folder), so the command needs no
//! path but clang's and the library's. See `docs/semantics/kernels-on-the-cpu.md`.

pub mod fission;
pub mod ir;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The dialect a source is compiled in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// CUDA (`.cu`).
    Cuda,
    /// MUSA (`.mu`).
    Musa,
    /// Ascend C host code with `<<<blockDim, l2ctrl, stream>>>` (`--dialect acl`).
    Acl,
}

impl Dialect {
    fn preinclude(self) -> &'static str {
        match self {
            Dialect::Cuda => "streamsim/cc/cuda_preinclude.h",
            Dialect::Musa => "streamsim/cc/musa_preinclude.h",
            Dialect::Acl => "streamsim/cc/acl_preinclude.h",
        }
    }

    fn marker(self) -> &'static [u8] {
        match self {
            Dialect::Cuda => b"streamsim:cuda\0\0",
            Dialect::Musa => b"streamsim:musa\0\0",
            Dialect::Acl => b"streamsim:acl\0\0\0",
        }
    }
}

/// What `streamsim cc` was asked to do.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `-I DIR`: include folders.
    pub includes: Vec<String>,
    /// `-D X[=V]`: macros.
    pub defines: Vec<String>,
    /// `-O0` … `-O3` for the host code (default: none, as nvcc's; the kernels are always built at `-O2`).
    pub opt: Option<String>,
    /// `-g`.
    pub debug: bool,
    /// `-std=c++17` (the default).
    pub std: Option<String>,
    /// `-arch=sm_XX`: `__CUDA_ARCH__` in the device pass (default sm_80).
    pub arch: Option<String>,
    /// `-c`: objects only.
    pub compile_only: bool,
    /// `-o OUT`.
    pub output: Option<PathBuf>,
    /// `-l LIB`.
    pub libs: Vec<String>,
    /// `-L DIR`.
    pub lib_dirs: Vec<String>,
    /// `-Xcompiler FLAG[,FLAG]`: given to every compilation.
    pub xcompiler: Vec<String>,
    /// `-Xlinker FLAG[,FLAG]`: given to the link.
    pub xlinker: Vec<String>,
    /// The inputs: `.cu`, `.mu`, `.cpp` (CUDA-language with `--dialect acl`), `.c`, objects.
    pub files: Vec<PathBuf>,
    /// `--dialect`: otherwise each file's extension decides.
    pub dialect: Option<Dialect>,
    /// `-v`: print each command.
    pub verbose: bool,
    /// `--keep`: keep the intermediate files (and say where).
    pub keep: bool,
    /// `--kernels`: a shared library of the CPU kernels (and the rest of the program, position-independent),
    /// for a binary nvcc built from the same source (`STREAMSIM_KERNELS`, `streamsim exec --kernels`).
    pub kernels: bool,
}

/// The host code's optimisation without `-O`: none, as nvcc leaves the host compiler's default (kernels are
/// always built at `-O2`, as ptxas optimises by default).
const HOST_OPT_DEFAULT: &str = "-O0";

/// The usage line.
pub const USAGE: &str = "usage: streamsim cc [-I DIR] [-D X[=V]] [-O0..3] [-g] [-std=c++17] [-arch=sm_XX] [-c] [-o OUT] \
     [-l LIB] [-L DIR] [-Xcompiler FLAG] [-Xlinker FLAG] [--dialect cuda|musa|acl] [--kernels] [-v] FILE.cu|.mu|.cpp|.c|.o ...";

/// Parses nvcc-style arguments (`-I DIR` and `-IDIR`, `-o OUT`, `-arch=sm_80` / `-arch sm_80`, …).
pub fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options::default();
    let mut i = 0;
    let next = |i: &mut usize, flag: &str| -> Result<String, String> {
        *i += 1;
        args.get(*i)
            .cloned()
            .ok_or_else(|| format!("{flag} needs a value"))
    };
    while i < args.len() {
        let a = args[i].as_str();
        let value_of = |prefix: &str| {
            a.strip_prefix(prefix)
                .map(|v| v.trim_start_matches('=').to_string())
        };
        match a {
            "-c" | "--compile" => o.compile_only = true,
            // Host and device debug information are one: the kernels are host code.
            "-g" | "-G" | "--debug" | "--device-debug" | "-lineinfo" | "--generate-line-info" => {
                o.debug = true
            }
            "-v" | "--verbose" => o.verbose = true,
            "--keep" | "-keep" => o.keep = true,
            "--kernels" => o.kernels = true,
            "-o" | "--output-file" => o.output = Some(PathBuf::from(next(&mut i, a)?)),
            "-I" | "--include-path" => o.includes.push(next(&mut i, a)?),
            "-D" | "--define-macro" => o.defines.push(next(&mut i, a)?),
            "-L" | "--library-path" => o.lib_dirs.push(next(&mut i, a)?),
            "-l" | "--library" => o.libs.push(next(&mut i, a)?),
            "-arch" | "--gpu-architecture" | "-code" | "--gpu-code" => {
                let v = next(&mut i, a)?;
                if a == "-arch" || a == "--gpu-architecture" {
                    o.arch = Some(v);
                }
            }
            "-Xcompiler" | "--compiler-options" => o
                .xcompiler
                .extend(next(&mut i, a)?.split(',').map(str::to_string)),
            "-Xlinker" | "--linker-options" => o
                .xlinker
                .extend(next(&mut i, a)?.split(',').map(str::to_string)),
            "--dialect" => {
                o.dialect = Some(dialect_named(&next(&mut i, a)?)?);
            }
            "-m64"
            | "-cudart"
            | "--cudart"
            | "-rdc=false"
            | "--expt-relaxed-constexpr"
            | "--extended-lambda"
            | "--expt-extended-lambda"
            | "-use_fast_math"
            | "--use_fast_math" => {
                if a == "-cudart" || a == "--cudart" {
                    i += 1; // -cudart shared|static: streamsim is the runtime either way
                }
            }
            _ if a.starts_with("-I") => o.includes.push(a[2..].to_string()),
            _ if a.starts_with("-D") => o.defines.push(a[2..].to_string()),
            _ if a.starts_with("-L") => o.lib_dirs.push(a[2..].to_string()),
            _ if a.starts_with("-l") => o.libs.push(a[2..].to_string()),
            _ if a.starts_with("-O") => o.opt = Some(a.to_string()),
            _ if a.starts_with("-std=") || a.starts_with("--std=") => {
                o.std = value_of(if a.starts_with("--") { "--std" } else { "-std" })
            }
            _ if a.starts_with("-arch=") || a.starts_with("--gpu-architecture=") => {
                o.arch = Some(
                    a.split_once('=')
                        .map(|(_, v)| v.to_string())
                        .unwrap_or_default(),
                )
            }
            _ if a.starts_with("-gencode")
                || a.starts_with("--generate-code")
                || a.starts_with("-code=") =>
            {
                if a == "-gencode" || a == "--generate-code" {
                    i += 1;
                }
            }
            _ if a.starts_with("--dialect=") => {
                o.dialect = Some(dialect_named(&a["--dialect=".len()..])?)
            }
            _ if a.starts_with("-Xcompiler=") => o
                .xcompiler
                .extend(a["-Xcompiler=".len()..].split(',').map(str::to_string)),
            _ if a.starts_with('-') => return Err(format!("unknown option `{a}`\n{USAGE}")),
            _ => o.files.push(PathBuf::from(a)),
        }
        i += 1;
    }
    if o.files.is_empty() {
        return Err(format!("no input files\n{USAGE}"));
    }
    Ok(o)
}

fn dialect_named(v: &str) -> Result<Dialect, String> {
    match v {
        "cuda" => Ok(Dialect::Cuda),
        "musa" => Ok(Dialect::Musa),
        "acl" => Ok(Dialect::Acl),
        other => Err(format!("--dialect {other}: cuda, musa or acl")),
    }
}

/// The `sm_XX` of `-arch` as `__CUDA_ARCH__`'s clang GPU name (`sm_80` by default; `compute_XX` and `native`
/// are read as their `sm_XX`).
fn gpu_arch(arch: Option<&str>) -> String {
    let a = arch.unwrap_or("sm_80");
    let digits: String = a.chars().filter(char::is_ascii_digit).collect();
    // clang 19 knows sm_35 … sm_90a; streamsim's default device is compute capability 8.0.
    match digits.parse::<u32>() {
        Ok(n) if (50..=90).contains(&n) => format!("sm_{n}"),
        _ => "sm_80".to_string(),
    }
}

/// The files `streamsim cc` needs besides the program: every header of `include/`, and the CPU runtime.
macro_rules! embedded {
    ($($path:literal),* $(,)?) => {
        /// (path under include/, contents)
        pub const EMBEDDED: &[(&str, &[u8])] = &[
            $(($path, include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/include/", $path)))),*
        ];
    };
}
embedded![
    "acl/acl.h",
    "acl/acl_base.h",
    "acl/acl_base_mdl.h",
    "acl/acl_base_rt.h",
    "acl/acl_mdl.h",
    "acl/acl_op.h",
    "acl/acl_prof.h",
    "acl/acl_rt.h",
    "acl/acl_rt_allocator.h",
    "acl/acl_rt_memory_soma.h",
    "acl/error_codes/ge_error_codes.h",
    "acl/error_codes/rt_error_codes.h",
    "cooperative_groups.h",
    "cooperative_groups/reduce.h",
    "cuda_fp16.h",
    "cuda_profiler_api.h",
    "cuda_runtime.h",
    "cuda_runtime_api.h",
    "device_launch_parameters.h",
    "driver_types.h",
    "musa_profiler_api.h",
    "musa_runtime.h",
    "musa_runtime_api.h",
    "streamsim.h",
    "vector_types.h",
    "vector_functions.h",
    "streamsim/cc/cuda_device.h",
    "streamsim/cc/cuda_preinclude.h",
    "streamsim/cc/call_sites.h",
    "streamsim/cc/musa_preinclude.h",
    "streamsim/cc/acl_preinclude.h",
    "streamsim/cc/acl/kernel_operator.h",
    "streamsim/cc/kernel_rt.c",
    "streamsim/cc/initcheck_rt.h",
    "streamsim/cc/fission_rt.h",
    "streamsim/cc/racecheck_rt.h",
    "streamsim/cc/warp_ops.h",
];

/// Where the embedded headers are written: `$XDG_CACHE_HOME/streamsim/cc-<hash>` (or `~/.cache/...`, or the
/// temporary folder), once per content.
fn support_dir() -> Result<PathBuf, String> {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for (p, b) in EMBEDDED {
        p.hash(&mut h);
        b.hash(&mut h);
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    let dir = base.join("streamsim").join(format!(
        "cc-{}-{:016x}",
        env!("CARGO_PKG_VERSION"),
        h.finish()
    ));
    let done = dir.join(".complete");
    if done.exists() {
        return Ok(dir);
    }
    // Written into a private folder, then renamed: two concurrent first runs never see half a tree.
    let tmp = base
        .join("streamsim")
        .join(format!(".cc-tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    for (p, b) in EMBEDDED {
        let f = tmp.join("include").join(p);
        std::fs::create_dir_all(f.parent().expect("a parent"))
            .and_then(|()| std::fs::write(&f, b))
            .map_err(|e| format!("cannot write {}: {e}", f.display()))?;
    }
    std::fs::write(tmp.join(".complete"), b"")
        .map_err(|e| format!("cannot write in {}: {e}", tmp.display()))?;
    match std::fs::rename(&tmp, &dir) {
        Ok(()) => Ok(dir),
        Err(_) if done.exists() => {
            let _ = std::fs::remove_dir_all(&tmp);
            Ok(dir)
        }
        Err(e) => Err(format!("cannot create {}: {e}", dir.display())),
    }
}

/// clang++: `STREAMSIM_CLANG`, or the first of `clang++-19` … `clang++-17`, `clang++` on the `PATH`.
pub fn find_clang() -> Result<PathBuf, String> {
    if let Some(c) = std::env::var_os("STREAMSIM_CLANG") {
        return Ok(PathBuf::from(c));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in [
        "clang++-19",
        "clang++-20",
        "clang++-21",
        "clang++-18",
        "clang++-17",
        "clang++",
    ] {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if p.is_file() {
                return Ok(p);
            }
        }
    }
    Err("streamsim cc needs clang 17 or newer (clang++-19 … clang++ on the PATH, or STREAMSIM_CLANG): \
         install it with `apt-get install clang-19`"
        .to_string())
}

/// The folder holding libstreamsim.so: `STREAMSIM_LIB`, or beside the `streamsim` binary (the build tree's
/// `target/<profile>/`), or its `../lib`.
pub fn find_lib() -> Result<PathBuf, String> {
    if let Some(d) = std::env::var_os("STREAMSIM_LIB") {
        return Ok(PathBuf::from(d));
    }
    let exe =
        std::env::current_exe().map_err(|e| format!("cannot find the streamsim binary: {e}"))?;
    let dir = exe.parent().map(Path::to_path_buf).unwrap_or_default();
    for d in [dir.clone(), dir.join("deps"), dir.join("../lib")] {
        if d.join("libstreamsim.so").exists() {
            return Ok(d);
        }
    }
    Err(format!(
        "cannot find libstreamsim.so beside {} (build it with `cargo build --release`, or name its folder in \
         STREAMSIM_LIB)",
        exe.display()
    ))
}

/// What names one clang for the files `streamsim cc` keeps in its support folder (the runtime's object, the
/// host's target): its path, size and modification time, so that another or an upgraded clang makes its own.
fn clang_key(clang: &Path) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    let path = std::fs::canonicalize(clang).unwrap_or_else(|_| clang.to_path_buf());
    path.hash(&mut h);
    if let Ok(m) = std::fs::metadata(&path) {
        m.len().hash(&mut h);
        m.modified().ok().hash(&mut h);
    }
    format!("{:016x}", h.finish())
}

/// Writes `bytes` to `path` through a private file and a rename, so that concurrent builds never read half a
/// file. A failure only means the next build makes it again.
fn keep_file(path: &Path, bytes: &[u8]) {
    let tmp = path.with_extension(format!("tmp-{}", std::process::id()));
    if std::fs::write(&tmp, bytes).is_err() || std::fs::rename(&tmp, path).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

/// The host's triple and data layout, as clang states them: asked once per clang and kept in the support
/// folder `support`.
fn host_target_kept(clang: &Path, support: &Path) -> Result<ir::HostTarget, String> {
    let kept = support.join(format!("host-{}.txt", clang_key(clang)));
    if let Ok(text) = std::fs::read_to_string(&kept)
        && let Some((triple, datalayout)) = text.split_once('\n')
        && !triple.is_empty()
        && !datalayout.is_empty()
    {
        return Ok(ir::HostTarget {
            triple: triple.to_string(),
            datalayout: datalayout.trim_end().to_string(),
        });
    }
    let t = host_target(clang)?;
    keep_file(
        &kept,
        format!("{}\n{}\n", t.triple, t.datalayout).as_bytes(),
    );
    Ok(t)
}

/// The host's triple and data layout, as clang states them.
fn host_target(clang: &Path) -> Result<ir::HostTarget, String> {
    let out = Command::new(clang)
        .args(["-x", "c", "-S", "-emit-llvm", "-o", "-", "/dev/null"])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", clang.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let pick = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .map(|v| v.trim().trim_matches('"').to_string())
    };
    match (pick("target triple = "), pick("target datalayout = ")) {
        (Some(triple), Some(datalayout)) => Ok(ir::HostTarget { triple, datalayout }),
        _ => Err(format!("{} did not state its target", clang.display())),
    }
}

/// A host pass running beside the device side: its standard error goes to a file, printed when it is waited
/// for, so that its diagnostics follow the device side's instead of interleaving with them.
struct BesideHost {
    child: Option<std::process::Child>,
    stderr: PathBuf,
}

impl BesideHost {
    fn start(d: &Driver, cmd: &mut Command, stem: &str) -> Result<BesideHost, String> {
        if d.o.verbose {
            eprintln!("streamsim cc: {cmd:?}");
        }
        let stderr = d.work.join(format!("{stem}.host.stderr"));
        let file = std::fs::File::create(&stderr)
            .map_err(|e| format!("cannot create {}: {e}", stderr.display()))?;
        let child = cmd
            .stderr(file)
            .spawn()
            .map_err(|e| format!("cannot run {:?}: {e}", cmd.get_program()))?;
        Ok(BesideHost {
            child: Some(child),
            stderr,
        })
    }

    /// Waits for the pass and prints its diagnostics; an empty error (as [`Driver::run`]'s) if it failed.
    fn finish(&mut self) -> Result<(), String> {
        let Some(mut child) = self.child.take() else {
            return Ok(());
        };
        let status = child
            .wait()
            .map_err(|e| format!("cannot wait for clang: {e}"))?;
        if let Ok(text) = std::fs::read(&self.stderr) {
            use std::io::Write as _;
            let _ = std::io::stderr().write_all(&text);
        }
        if status.success() {
            Ok(())
        } else {
            Err(String::new())
        }
    }

    /// Stops the pass, whose result is not wanted (the device side failed, or the host pass must run another
    /// way); its diagnostics are dropped: the device side has printed the same source's.
    fn abandon(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for BesideHost {
    fn drop(&mut self) {
        self.abandon();
    }
}

struct Driver {
    o: Options,
    clang: PathBuf,
    support: PathBuf,
    work: PathBuf,
    host: Option<ir::HostTarget>,
}

impl Driver {
    fn run(&self, cmd: &mut Command) -> Result<(), String> {
        if self.o.verbose {
            eprintln!("streamsim cc: {cmd:?}");
        }
        let status = cmd
            .status()
            .map_err(|e| format!("cannot run {:?}: {e}", cmd.get_program()))?;
        if status.success() {
            Ok(())
        } else {
            Err(String::new())
        }
    }

    fn common(&self, cmd: &mut Command) {
        cmd.arg(format!("-I{}", self.support.join("include").display()));
        for i in &self.o.includes {
            cmd.arg(format!("-I{i}"));
        }
        for d in &self.o.defines {
            cmd.arg(format!("-D{d}"));
        }
        if self.o.debug {
            cmd.arg("-g");
        }
        cmd.args(&self.o.xcompiler);
        if self.o.kernels {
            cmd.arg("-fPIC");
        }
    }

    fn cuda_common(&self, cmd: &mut Command, dialect: Dialect) {
        cmd.args([
            "-x",
            "cuda",
            "-nocudainc",
            "-nocudalib",
            "-Xclang",
            "-target-sdk-version=12.3",
        ]);
        cmd.arg(format!("-std={}", self.o.std.as_deref().unwrap_or("c++17")));
        cmd.args([
            "-D__CUDACC__",
            "-D__NVCC__",
            "-D__CUDACC_VER_MAJOR__=12",
            "-D__CUDACC_VER_MINOR__=8",
        ]);
        cmd.args(["-D__CUDACC_VER_BUILD__=0", "-DSTREAMSIM_CC=1"]);
        cmd.args(["-Wno-unknown-cuda-version", "-Wno-deprecated-declarations"]);
        if dialect == Dialect::Musa {
            cmd.args(["-D__MUSACC__", "-D__MCC__"]);
        }
        if dialect == Dialect::Acl {
            // Ascend C sources include "kernel_operator.h" by that name.
            cmd.arg(format!(
                "-I{}",
                self.support.join("include/streamsim/cc/acl").display()
            ));
        }
        self.common(cmd);
        cmd.arg("-include").arg(dialect.preinclude());
    }

    /// One CUDA-language source: host and device passes; the objects it made.
    fn compile_cuda(
        &mut self,
        src: &Path,
        dialect: Dialect,
        stem: &str,
    ) -> Result<Vec<PathBuf>, String> {
        let marker = self.work.join(format!("{stem}.marker"));
        std::fs::write(&marker, dialect.marker()).map_err(|e| e.to_string())?;
        let dev_ll = self.work.join(format!("{stem}.nvptx.ll"));
        let mut dev = Command::new(&self.clang);
        self.cuda_common(&mut dev, dialect);
        dev.arg("--cuda-device-only")
            .arg(format!(
                "--cuda-gpu-arch={}",
                gpu_arch(self.o.arch.as_deref())
            ))
            .args(["-O0", "-Xclang", "-disable-O0-optnone", "-emit-llvm", "-S"])
            .arg(src)
            .arg("-o")
            .arg(&dev_ll);
        // The host pass runs beside the device pass and the CPU compile (the machine's other core), as the
        // `-c` it is when the module has no `__managed__` variables; its diagnostics are printed after the
        // device side's, so the two never interleave.
        let host_o = self.work.join(format!("{stem}.host.o"));
        let opt = self
            .o
            .opt
            .clone()
            .unwrap_or_else(|| HOST_OPT_DEFAULT.to_string());
        let host_cmd = |d: &Self| {
            let mut host = Command::new(&d.clang);
            d.cuda_common(&mut host, dialect);
            host.arg("--cuda-host-only")
                .args(["-Xclang", "-fcuda-include-gpubinary", "-Xclang"])
                .arg(&marker)
                .arg(&opt);
            host
        };
        let mut first = host_cmd(self);
        first.arg("-c").arg(src).arg("-o").arg(&host_o);
        let mut beside = BesideHost::start(self, &mut first, stem)?;
        let device_side = self.device_side(&mut dev, &dev_ll, src, stem);
        let (rewritten, dev_o) = match device_side {
            Ok(r) => r,
            Err(e) => {
                beside.abandon();
                return Err(e);
            }
        };

        // `__managed__` variables make the host's shadows refer to the device definitions
        // (`ir::patch_host_managed`), through the host's IR: the host pass that ran beside is not that one.
        if rewritten.managed.is_empty() {
            beside.finish()?;
        } else {
            beside.abandon();
            let mut host = host_cmd(self);
            let host_ll = self.work.join(format!("{stem}.host.ll"));
            host.args(["-S", "-emit-llvm"])
                .arg(src)
                .arg("-o")
                .arg(&host_ll);
            self.run(&mut host)?;
            let text = std::fs::read_to_string(&host_ll).map_err(|e| e.to_string())?;
            let patched = ir::patch_host_managed(&text, &rewritten.managed)
                .map_err(|e| format!("{}: {e}", src.display()))?;
            std::fs::write(&host_ll, patched).map_err(|e| e.to_string())?;
            let mut obj = Command::new(&self.clang);
            obj.args(["-c", "-Wno-override-module"])
                .arg(&opt)
                .arg(&host_ll)
                .arg("-o")
                .arg(&host_o);
            if self.o.debug {
                obj.arg("-g");
            }
            self.run(&mut obj)?;
        }
        Ok(vec![host_o, dev_o])
    }

    /// The device pass `dev` (which writes `dev_ll`), the rewrite and the CPU compile: the rewritten module and
    /// the object of its kernels.
    fn device_side(
        &mut self,
        dev: &mut Command,
        dev_ll: &Path,
        src: &Path,
        stem: &str,
    ) -> Result<(ir::Rewritten, PathBuf), String> {
        self.run(dev)?;
        if self.host.is_none() {
            self.host = Some(host_target_kept(&self.clang, &self.support)?);
        }
        let text = std::fs::read_to_string(dev_ll).map_err(|e| e.to_string())?;
        let mut rewritten = ir::rewrite(&text, self.host.as_ref().expect("set above"))
            .map_err(|e| format!("{}: {e}", src.display()))?;
        let host_ll = self.work.join(format!("{stem}.cpu.ll"));
        // Kernels with barriers also get region loops where they qualify (fission.rs); fibers otherwise.
        let params: Vec<Vec<String>> = rewritten.kernels.iter().map(|k| k.params.clone()).collect();
        let opt = fission::find_opt(&self.clang);
        let (text, report) = fission::apply(
            &std::mem::take(&mut rewritten.text),
            &params,
            opt.as_deref(),
            &self.work,
            stem,
        );
        if self.o.verbose {
            for (k, why) in &report.fell_back {
                eprintln!(
                    "streamsim cc: {}: fibers only ({why})",
                    rewritten.kernels.get(*k).map_or("?", |i| i.name.as_str())
                );
            }
            for k in &report.built {
                eprintln!(
                    "streamsim cc: {}: region loops",
                    rewritten.kernels.get(*k).map_or("?", |i| i.name.as_str())
                );
            }
        }
        std::fs::write(&host_ll, text).map_err(|e| e.to_string())?;
        let dev_o = self.work.join(format!("{stem}.cpu.o"));
        let mut cpu = Command::new(&self.clang);
        cpu.args(["-O2", "-c", "-Wno-override-module", "-fno-math-errno"])
            .args(self.o.kernels.then_some("-fPIC"))
            .arg(&host_ll)
            .arg("-o")
            .arg(&dev_o);
        if self.o.debug {
            cpu.arg("-g");
        }
        self.run(&mut cpu)?;
        Ok((rewritten, dev_o))
    }

    fn compile_plain(&self, src: &Path, stem: &str, cxx: bool) -> Result<PathBuf, String> {
        let out = self.work.join(format!("{stem}.o"));
        let mut c = Command::new(&self.clang);
        if cxx {
            c.arg(format!("-std={}", self.o.std.as_deref().unwrap_or("c++17")));
        } else {
            c.args(["-x", "c"]);
        }
        self.common(&mut c);
        c.arg(self.o.opt.as_deref().unwrap_or(HOST_OPT_DEFAULT))
            .arg("-c")
            .arg(src)
            .arg("-o")
            .arg(&out);
        self.run(&mut c)?;
        Ok(out)
    }

    /// The CPU runtime's object, compiled once per clang (and `--kernels`' position-independent form) and
    /// kept in the support folder, whose name already changes with the runtime's source.
    fn runtime_object(&self) -> Result<PathBuf, String> {
        let kept = self.support.join(format!(
            "kernel_rt-{}{}.o",
            clang_key(&self.clang),
            if self.o.kernels { "-pic" } else { "" }
        ));
        if kept.exists() {
            return Ok(kept);
        }
        let out = self.work.join("kernel_rt.o");
        self.compile_runtime(&out)?;
        if let Ok(bytes) = std::fs::read(&out) {
            keep_file(&kept, &bytes);
        }
        Ok(out)
    }

    fn compile_runtime(&self, out: &Path) -> Result<(), String> {
        let mut c = Command::new(&self.clang);
        c.args([
            "-x",
            "c",
            "-std=gnu11",
            "-O2",
            "-fno-stack-protector",
            "-U_FORTIFY_SOURCE",
            "-c",
        ])
        .args(self.o.kernels.then_some("-fPIC"))
        .arg(self.support.join("include/streamsim/cc/kernel_rt.c"))
        .arg("-o")
        .arg(out);
        self.run(&mut c)
    }
}

/// Runs `streamsim cc` with `o`: the program (or, with `-c`, the objects) built, or the error to print.
pub fn build(o: Options) -> Result<(), String> {
    let clang = find_clang()?;
    let support = support_dir()?;
    let work = std::env::temp_dir().join(format!("streamsim-cc-{}", std::process::id()));
    std::fs::create_dir_all(&work).map_err(|e| format!("cannot create {}: {e}", work.display()))?;
    let keep = o.keep;
    let mut d = Driver {
        o,
        clang,
        support,
        work: work.clone(),
        host: None,
    };
    let r = build_in(&mut d);
    if !keep {
        let _ = std::fs::remove_dir_all(&work);
    } else {
        eprintln!("streamsim cc: kept {}", work.display());
    }
    r
}

fn build_in(d: &mut Driver) -> Result<(), String> {
    let mut objects = Vec::new();
    let files = d.o.files.clone();
    for (n, f) in files.iter().enumerate() {
        let ext = f.extension().and_then(|e| e.to_str()).unwrap_or("");
        let stem = format!(
            "{n}-{}",
            f.file_stem().and_then(|s| s.to_str()).unwrap_or("src")
        );
        let dialect = d.o.dialect;
        let objs = match ext {
            "cu" => d.compile_cuda(f, dialect.unwrap_or(Dialect::Cuda), &stem)?,
            "mu" => d.compile_cuda(f, dialect.unwrap_or(Dialect::Musa), &stem)?,
            "cpp" | "cc" | "cxx" | "C" if dialect == Some(Dialect::Acl) => {
                d.compile_cuda(f, Dialect::Acl, &stem)?
            }
            "cpp" | "cc" | "cxx" | "C" => vec![d.compile_plain(f, &stem, true)?],
            "c" => vec![d.compile_plain(f, &stem, false)?],
            "o" | "a" | "so" => vec![f.clone()],
            _ => return Err(format!("{}: unknown kind of input file", f.display())),
        };
        objects.push((f.clone(), objs));
    }
    if d.o.compile_only {
        for (src, objs) in &objects {
            let out = match (&d.o.output, objects.len()) {
                (Some(o), 1) => o.clone(),
                _ => PathBuf::from(src.file_stem().unwrap_or_default()).with_extension("o"),
            };
            if objs.len() == 1 {
                std::fs::copy(&objs[0], &out).map_err(|e| e.to_string())?;
                continue;
            }
            // One relocatable object of the host and the CPU sides.
            let mut c = Command::new(&d.clang);
            c.arg("-r").args(objs).arg("-o").arg(&out);
            d.run(&mut c)?;
        }
        return Ok(());
    }
    let lib = find_lib()?;
    let rt = d.runtime_object()?;
    let out = d.o.output.clone().unwrap_or_else(|| PathBuf::from("a.out"));
    let mut c = Command::new(&d.clang);
    for (_, objs) in &objects {
        c.args(objs);
    }
    c.arg(&rt)
        .arg(format!("-L{}", lib.display()))
        .arg(format!("-Wl,-rpath,{}", lib.display()));
    for l in &d.o.lib_dirs {
        c.arg(format!("-L{l}"));
    }
    c.arg("-lstreamsim");
    for l in &d.o.libs {
        c.arg(format!("-l{l}"));
    }
    for x in &d.o.xlinker {
        c.arg(format!("-Wl,{x}"));
    }
    if d.o.kernels {
        c.arg("-shared");
    }
    c.args(["-lm", "-lpthread", "-o"]).arg(&out);
    d.run(&mut c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn nvcc_style_arguments_are_read() {
        let o = parse(&args(
            "-I inc -Ifoo -DX=1 -D Y -O3 -g -std=c++14 -arch=sm_70 -o app -lm -L/opt app.cu util.cpp",
        ))
        .unwrap();
        assert_eq!(o.includes, ["inc", "foo"]);
        assert_eq!(o.defines, ["X=1", "Y"]);
        assert_eq!(o.opt.as_deref(), Some("-O3"));
        assert!(o.debug);
        assert_eq!(o.std.as_deref(), Some("c++14"));
        assert_eq!(gpu_arch(o.arch.as_deref()), "sm_70");
        assert_eq!(o.output, Some(PathBuf::from("app")));
        assert_eq!(o.libs, ["m"]);
        assert_eq!(
            o.files,
            [PathBuf::from("app.cu"), PathBuf::from("util.cpp")]
        );
        assert_eq!(
            parse(&args("-arch sm_90 x.cu")).unwrap().arch.as_deref(),
            Some("sm_90")
        );
        assert_eq!(
            parse(&args("--dialect acl x.cpp")).unwrap().dialect,
            Some(Dialect::Acl)
        );
    }

    #[test]
    fn bad_arguments_are_errors_that_say_why() {
        assert_eq!(parse(&args("-o")).unwrap_err(), "-o needs a value");
        assert!(
            parse(&args("--frobnicate x.cu"))
                .unwrap_err()
                .starts_with("unknown option `--frobnicate`")
        );
        assert!(
            parse(&args("-c"))
                .unwrap_err()
                .starts_with("no input files")
        );
        assert_eq!(
            parse(&args("--dialect opencl x.cu")).unwrap_err(),
            "--dialect opencl: cuda, musa or acl"
        );
    }

    #[test]
    fn every_header_of_include_travels_with_the_binary() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("include");
        let mut on_disk = Vec::new();
        let mut stack = vec![root.clone()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    on_disk.push(
                        p.strip_prefix(&root)
                            .unwrap()
                            .to_string_lossy()
                            .into_owned(),
                    );
                }
            }
        }
        on_disk.sort();
        let mut embedded: Vec<String> = EMBEDDED.iter().map(|(p, _)| p.to_string()).collect();
        embedded.sort();
        assert_eq!(embedded, on_disk);
    }
}
