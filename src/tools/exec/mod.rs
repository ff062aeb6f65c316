//! `streamsim exec [--devices N] [--races MODE] [--trace OUT.json] -- ./app args…`: runs a binary NVIDIA's nvcc
//! built with `-cudart shared`, unmodified, on the simulator, as `compute-sanitizer ./app` runs one on a GPU.
//!
//! The binary loads `libcudart.so.13`; `streamsim exec` puts a folder holding streamsim's drop-in of that
//! name first on `LD_LIBRARY_PATH`, sets the C library's environment (`STREAMSIM_DEVICES`,
//! `STREAMSIM_RACES`, `STREAMSIM_TRACE`), runs the program and exits with its status (or the races' exit
//! status under `--races fail`, which the library sets at the program's exit).
//!
//! **The drop-in** is a small shared library generated here and built once per `libstreamsim.so` with the C
//! compiler (`cc`, or `$CC`) into a cache folder: its SONAME is `libcudart.so.13` and every function it
//! exports carries the version node `libcudart.so.13` (a linker version script), as NVIDIA's library does, so
//! the loader binds the binary's `cudaMalloc@libcudart.so.13` to it. Each export is a two-instruction
//! trampoline that jumps to the function of the same name in `libstreamsim.so` (loaded by the drop-in's
//! constructor with its absolute path), or, where CUDA 13's ABI differs from CUDA 12's (the C library's), to
//! the CUDA 13 entry point `src/facade/dropin.rs` exports under an internal name. A trampoline leaves the
//! arguments as the caller passed them, so it is exact for every signature; the list of exports is read from
//! `libstreamsim.so` itself, so the drop-in cannot drift from the library. Why not a second cdylib: rustc gives
//! a cdylib its own (anonymous) version script, which cannot be combined with the named version node the
//! binary's imports require, and a second build of the crate would double its build time.
//!
//! A binary linked with the static CUDA runtime (nvcc's default: `cudaGetDeviceCount` defined in the binary and
//! no `libcudart.so` needed) cannot be redirected, and is refused with the fix (`-cudart shared`).

mod elf;

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::facade::dropin::CUDART13_RENAMES;

/// What `streamsim exec` was asked to do.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `--devices N`: `STREAMSIM_DEVICES`.
    pub devices: Option<u32>,
    /// `--races MODE`: `STREAMSIM_RACES` (`off`, `collect`, `print`, `fail`).
    pub races: Option<String>,
    /// `--trace OUT.json`: `STREAMSIM_TRACE`.
    pub trace: Option<PathBuf>,
    /// `--kernels APP.kernels.so`: `STREAMSIM_KERNELS`, the CPU kernels `streamsim cc --kernels` built from the
    /// program's source, matched to the binary's kernels by mangled name.
    pub kernels: Option<PathBuf>,
    /// The program and its arguments.
    pub program: Vec<OsString>,
}

/// The sonames the drop-in answers to, with the version node of their exports.
const SONAME: &str = "libcudart.so.13";

/// The functions of `libstreamsim.so` the drop-in exports: the CUDA runtime's names (`cuda…`, and the
/// registration and launch calls nvcc's host code makes, `__cuda…`), without streamsim's own `cudasim…`
/// stand-ins, which NVIDIA's library does not have.
fn is_cudart_name(name: &str) -> bool {
    (name.starts_with("cuda") && !name.starts_with("cudasim")) || name.starts_with("__cuda")
}

/// The drop-in's exports: (exported name, the `libstreamsim.so` function it jumps to), sorted by name.
pub(crate) fn exports(lib: &[u8]) -> Result<Vec<(String, String)>, String> {
    let elf = elf::parse(lib).map_err(|e| format!("libstreamsim.so: {e}"))?;
    let mut out = Vec::new();
    for name in elf.exported.iter().filter(|n| is_cudart_name(n)) {
        let target = CUDART13_RENAMES
            .iter()
            .find(|(n, _)| n == name)
            .map_or(name.as_str(), |(_, t)| t);
        if !elf.exported.contains(target) {
            return Err(format!(
                "libstreamsim.so does not export {target}, the CUDA 13 entry point of {name}: it is older \
                 than this streamsim"
            ));
        }
        out.push((name.clone(), target.to_string()));
    }
    if !out.iter().any(|(n, _)| n == "__cudaLaunchKernel") {
        return Err(
            "libstreamsim.so does not export __cudaLaunchKernel: it is older than this streamsim"
                .into(),
        );
    }
    Ok(out)
}

/// The C source of the drop-in: the table of targets, the constructor that fills it from `lib`, and the
/// trampolines (x86-64 or AArch64 assembly).
pub(crate) fn shim_source(lib: &Path, exports: &[(String, String)]) -> Result<String, String> {
    let arch = std::env::consts::ARCH;
    let jump = |i: usize| match arch {
        "x86_64" => Ok(format!(
            "\tjmp *__streamsim_dropin_targets+{}(%rip)\n",
            8 * i
        )),
        "aarch64" => Ok(format!(
            "\tadrp x16, __streamsim_dropin_targets+{o}\n\tldr x16, [x16, #:lo12:__streamsim_dropin_targets+{o}]\n\
             \tbr x16\n",
            o = 8 * i
        )),
        other => Err(format!(
            "the drop-in runtime is built for x86_64 and aarch64, not {other}"
        )),
    };
    let path = lib
        .to_str()
        .ok_or_else(|| format!("{} is not UTF-8", lib.display()))?;
    if path.contains(['"', '\\', '\n']) {
        return Err(format!("{path}: a path with quotes or backslashes"));
    }
    let n = exports.len();
    let mut s = String::new();
    let _ = write!(
        s,
        "/* streamsim's drop-in {SONAME}, generated by `streamsim exec`. */\n\
         #include <dlfcn.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <unistd.h>\n\n\
         __attribute__((visibility(\"hidden\"))) void *__streamsim_dropin_targets[{n}];\n\
         static const char *const targets[{n}] = {{\n"
    );
    for (_, t) in exports {
        let _ = writeln!(s, "    \"{t}\",");
    }
    let _ = write!(
        s,
        "}};\n\n\
         __attribute__((constructor(101))) static void streamsim_dropin_init(void) {{\n\
         \x20   void *h = dlopen(\"{path}\", RTLD_NOW | RTLD_LOCAL);\n\
         \x20   if (!h) {{\n\
         \x20       fprintf(stderr, \"streamsim: the drop-in {SONAME} cannot load %s\\n\", dlerror());\n\
         \x20       _exit(127);\n\
         \x20   }}\n\
         \x20   for (int i = 0; i < {n}; i++) {{\n\
         \x20       __streamsim_dropin_targets[i] = dlsym(h, targets[i]);\n\
         \x20       if (!__streamsim_dropin_targets[i]) {{\n\
         \x20           fprintf(stderr, \"streamsim: the drop-in {SONAME} finds no %s in {path}\\n\", targets[i]);\n\
         \x20           _exit(127);\n\
         \x20       }}\n\
         \x20   }}\n\
         \x20   const char *k = getenv(\"STREAMSIM_KERNELS\");\n\
         \x20   if (k && *k && !dlopen(k, RTLD_NOW | RTLD_LOCAL)) {{\n\
         \x20       fprintf(stderr, \"streamsim: STREAMSIM_KERNELS: %s\\n\", dlerror());\n\
         \x20       _exit(127);\n\
         \x20   }}\n\
         }}\n\n__asm__(\n\"\\t.text\\n\"\n"
    );
    for (i, (name, _)) in exports.iter().enumerate() {
        let mut body =
            format!("\t.globl {name}\n\t.type {name}, %function\n\t.p2align 4\n{name}:\n");
        body.push_str(&jump(i)?);
        let _ = writeln!(s, "\"{}\"", body.replace('\t', "\\t").replace('\n', "\\n"));
    }
    s.push_str(");\n");
    Ok(s)
}

/// The linker version script: every export in the version node `libcudart.so.13`, nothing else global.
pub(crate) fn version_script(exports: &[(String, String)]) -> String {
    let mut s = format!("{SONAME} {{\n  global:\n");
    for (name, _) in exports {
        let _ = writeln!(s, "    {name};");
    }
    s.push_str("  local: *;\n};\n");
    s
}

/// A short, stable digest (FNV-1a, 64 bits) naming a build of the drop-in.
fn digest(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for &b in *p {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The cache folder the drop-ins are built in: `STREAMSIM_CACHE`, `$XDG_CACHE_HOME/streamsim`,
/// `~/.cache/streamsim`, or the temporary folder's `streamsim-cache`.
fn cache_root() -> PathBuf {
    if let Some(d) = std::env::var_os("STREAMSIM_CACHE") {
        return PathBuf::from(d);
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME") {
        return PathBuf::from(d).join("streamsim");
    }
    if let Some(h) = std::env::var_os("HOME") {
        return PathBuf::from(h).join(".cache/streamsim");
    }
    std::env::temp_dir().join("streamsim-cache")
}

/// Builds (once per `libstreamsim.so` and generated source) the folder holding the drop-in
/// `libcudart.so.13` for the library in `lib_dir`, and returns it.
pub fn prepare(lib_dir: &Path) -> Result<PathBuf, String> {
    let lib = lib_dir
        .join("libstreamsim.so")
        .canonicalize()
        .map_err(|e| format!("{}: {e}", lib_dir.join("libstreamsim.so").display()))?;
    let bytes = std::fs::read(&lib).map_err(|e| format!("{}: {e}", lib.display()))?;
    let exports = exports(&bytes)?;
    let source = shim_source(&lib, &exports)?;
    let script = version_script(&exports);
    let key = digest(&[&bytes, source.as_bytes(), script.as_bytes()]);
    let dir = cache_root().join(format!("dropin-{key:016x}"));
    let target = dir.join(SONAME);
    if target.exists() {
        return Ok(dir);
    }
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    // Built under a name of this process, then renamed: two `streamsim exec` at once each build whole files.
    let tag = std::process::id();
    let c = dir.join(format!("cudart-{tag}.c"));
    let map = dir.join(format!("cudart-{tag}.map"));
    let out = dir.join(format!("{SONAME}.{tag}"));
    std::fs::write(&c, &source).map_err(|e| format!("{}: {e}", c.display()))?;
    std::fs::write(&map, &script).map_err(|e| format!("{}: {e}", map.display()))?;
    let cc = std::env::var_os("CC").unwrap_or_else(|| "cc".into());
    let result = Command::new(&cc)
        .args(["-shared", "-fPIC", "-O1", "-o"])
        .arg(&out)
        .arg(format!("-Wl,-soname,{SONAME}"))
        .arg(format!("-Wl,--version-script={}", map.display()))
        .arg(&c)
        .arg("-ldl")
        .output();
    let _ = std::fs::remove_file(&c);
    let _ = std::fs::remove_file(&map);
    let output = result.map_err(|e| {
        format!(
            "building the drop-in {SONAME} needs a C compiler ({}): {e}",
            Path::new(&cc).display()
        )
    })?;
    if !output.status.success() {
        let _ = std::fs::remove_file(&out);
        return Err(format!(
            "building the drop-in {SONAME} failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    std::fs::rename(&out, &target).map_err(|e| format!("{}: {e}", target.display()))?;
    Ok(dir)
}

/// Why `program` cannot run on the drop-in, if it cannot: not a dynamically linked ELF file, or one linked with
/// the static CUDA runtime.
pub fn check_program(program: &Path) -> Result<(), String> {
    let bytes =
        std::fs::read(program).map_err(|e| format!("cannot read {}: {e}", program.display()))?;
    let elf = elf::parse(&bytes).map_err(|e| format!("{}: {e}", program.display()))?;
    if elf.needed.iter().any(|n| n.starts_with("libcudart.so")) {
        if let Some(n) = elf
            .needed
            .iter()
            .find(|n| n.starts_with("libcudart.so") && n.as_str() != SONAME)
        {
            return Err(format!(
                "{} needs {n}: streamsim's drop-in is {SONAME} (CUDA 13); rebuild it with CUDA 13's nvcc",
                program.display()
            ));
        }
        if let Some(r) = &elf.rpath {
            return Err(format!(
                "{} has a DT_RPATH ({r}), which the loader searches before LD_LIBRARY_PATH, so it would load \
                 NVIDIA's {SONAME}: link it without -rpath (or with -Wl,--enable-new-dtags, a DT_RUNPATH)",
                program.display()
            ));
        }
        return Ok(());
    }
    let defines = |f: &str| elf.exported.contains(f) || elf.local.contains(f);
    if defines("cudaGetDeviceCount") || defines("__cudaRegisterFatBinary") {
        return Err(format!(
            "{} is linked with the static CUDA runtime (nvcc's default, -cudart static): its CUDA calls cannot \
             be redirected to the simulator. Rebuild it with `nvcc -cudart shared`",
            program.display()
        ));
    }
    if elf.needed.iter().any(|n| n.starts_with("libstreamsim.so")) {
        return Ok(());
    }
    Err(format!(
        "{} does not load libcudart.so (no DT_NEEDED entry): it is not a CUDA program linked with \
         `nvcc -cudart shared`",
        program.display()
    ))
}

/// The program's path: as given when it names a folder, else looked up on `PATH`.
fn resolve(program: &Path) -> PathBuf {
    if program.components().count() > 1 {
        return program.to_path_buf();
    }
    std::env::var_os("PATH")
        .and_then(|p| {
            std::env::split_paths(&p)
                .map(|d| d.join(program))
                .find(|c| c.is_file())
        })
        .unwrap_or_else(|| program.to_path_buf())
}

/// Runs the program on the drop-in; its exit status (128 + the signal if a signal ended it), or the reason it
/// could not be run.
pub fn run(options: &Options, lib_dir: &Path) -> Result<i32, String> {
    let Some((program, args)) = options.program.split_first() else {
        return Err("no program: `streamsim exec [options] -- ./app args…`".into());
    };
    if let Some(mode) = &options.races
        && !["off", "collect", "print", "fail"].contains(&mode.as_str())
    {
        return Err(format!("--races {mode}: one of off, collect, print, fail"));
    }
    let path = resolve(Path::new(program));
    check_program(&path)?;
    let dropin = prepare(lib_dir)?;
    let mut ld = OsString::from(dropin.as_os_str());
    ld.push(":");
    ld.push(lib_dir.as_os_str());
    if let Some(old) = std::env::var_os("LD_LIBRARY_PATH")
        && !old.is_empty()
    {
        ld.push(":");
        ld.push(old);
    }
    let mut cmd = Command::new(&path);
    cmd.args(args).env("LD_LIBRARY_PATH", ld);
    if let Some(n) = options.devices {
        cmd.env("STREAMSIM_DEVICES", n.to_string());
    }
    if let Some(mode) = &options.races {
        cmd.env("STREAMSIM_RACES", mode);
    }
    if let Some(t) = &options.trace {
        cmd.env("STREAMSIM_TRACE", t);
    }
    if let Some(k) = &options.kernels {
        let k = k
            .canonicalize()
            .map_err(|e| format!("--kernels {}: {e}", k.display()))?;
        let bytes = std::fs::read(&k).map_err(|e| format!("--kernels {}: {e}", k.display()))?;
        let elf = elf::parse(&bytes).map_err(|e| format!("--kernels {}: {e}", k.display()))?;
        // The CPU kernels' per-thread state is initial-exec TLS (fast to reach from every kernel thread), which
        // a library loaded after start-up takes from the loader's reserve of static TLS: make it large enough.
        let mut tunables = OsString::from(format!(
            "glibc.rtld.optional_static_tls={}",
            elf.tls_size.div_ceil(4096) * 4096 + 4096
        ));
        if let Some(old) = std::env::var_os("GLIBC_TUNABLES")
            && !old.is_empty()
        {
            tunables.push(":");
            tunables.push(old);
        }
        cmd.env("GLIBC_TUNABLES", tunables)
            .env("STREAMSIM_KERNELS", k);
    }
    let status = cmd
        .status()
        .map_err(|e| format!("cannot run {}: {e}", path.display()))?;
    if let Some(code) = status.code() {
        return Ok(code);
    }
    use std::os::unix::process::ExitStatusExt as _;
    Ok(128 + status.signal().unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cudart_names() {
        assert!(is_cudart_name("cudaMalloc"));
        assert!(is_cudart_name("__cudaRegisterFatBinary"));
        assert!(!is_cudart_name("cudasimLaunchKernel"));
        assert!(!is_cudart_name("streamsimMachineCreate"));
        assert!(!is_cudart_name("__streamsimCudart13_cudaGraphGetEdges"));
    }

    #[test]
    fn version_script_names_every_export_in_the_node() {
        let e = vec![
            ("cudaFree".to_string(), "cudaFree".to_string()),
            (
                "cudaGetDeviceProperties".to_string(),
                "__streamsimCudart13_cudaGetDeviceProperties".to_string(),
            ),
        ];
        assert_eq!(
            version_script(&e),
            "libcudart.so.13 {\n  global:\n    cudaFree;\n    cudaGetDeviceProperties;\n  local: *;\n};\n"
        );
    }

    #[test]
    fn digests_differ_by_part_boundaries() {
        assert_ne!(digest(&[b"ab", b"c"]), digest(&[b"a", b"bc"]));
        assert_eq!(digest(&[b"x"]), digest(&[b"x"]));
    }
}
