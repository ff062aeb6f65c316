//! `streamsim exec [--devices N] [--races MODE] [--trace OUT.json] -- ./app args…`: runs a binary NVIDIA's nvcc
//! built with `-cudart shared`, unmodified, on the simulator, as `compute-sanitizer ./app` runs one on a GPU.
//!
//! The binary loads `libcudart.so.13` (CUDA 13), `libcudart.so.12` (CUDA 12), `libmusart.so` or
//! `libascendcl.so`; `streamsim exec` puts a folder holding streamsim's drop-ins of those names first on
//! `LD_LIBRARY_PATH`, sets the C library's environment (`STREAMSIM_DEVICES`, `STREAMSIM_RACES`,
//! `STREAMSIM_TRACE`), runs the program and exits with its status (or the races' exit status under
//! `--races fail`, which the library sets at the program's exit).
//!
//! **A drop-in** is a small shared library generated here and built once per `libstreamsim.so` with the C
//! compiler (`cc`, or `$CC`) into a cache folder, under the vendor's SONAME; NVIDIA's carry the version node
//! of their SONAME on every export (a linker version script), as NVIDIA's libraries do, so the loader binds
//! the binary's `cudaMalloc@libcudart.so.13` to it. Each export is a two-instruction trampoline that jumps to
//! the function of the same name in `libstreamsim.so` (loaded by the drop-in's constructor with its absolute
//! path), or, where the vendor's ABI under that name differs from the C library's (CUDA 12's), to the entry
//! point `src/facade/dropin.rs` exports under an internal name (`DropIn::renames`). A trampoline leaves the
//! arguments as the caller passed them, so it is exact for every signature; the list of exports is read from
//! `libstreamsim.so` itself, so a drop-in cannot drift from the library. Why not a second cdylib: rustc gives
//! a cdylib its own (anonymous) version script, which cannot be combined with the named version node the
//! binary's imports require, and a second build of the crate would double its build time.
//!
//! A binary linked with the static CUDA runtime (nvcc's default: `cudaGetDeviceCount` defined in the binary and
//! no `libcudart.so` needed) cannot be redirected, and is refused with the fix (`-cudart shared`).

mod elf;
mod per_thread;

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::facade::dropin::{CUDART12_RENAMES, CUDART12_WITHHELD, CUDART13_RENAMES};

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
    /// `--check CHECKS` (or `--tool`, compute-sanitizer's word): `STREAMSIM_CHECK`, the sanitizer's checks of
    /// the kernels (`memcheck`, `racecheck`, `synccheck`, `initcheck`, `all`, `off`), which the C library
    /// validates.
    pub check: Option<String>,
    /// The program and its arguments.
    pub program: Vec<OsString>,
}

/// One of the drop-in libraries: a vendor's runtime library under its file name and SONAME, each export a
/// trampoline into `libstreamsim.so`.
#[derive(Debug)]
pub(crate) struct DropIn {
    /// Its file name and SONAME.
    pub soname: &'static str,
    /// The version node of every export (NVIDIA's libraries name one after the SONAME; CANN's and MUSA's
    /// libraries are linked without a version script).
    pub node: Option<&'static str>,
    /// Other names of the file in the folder (symbolic links): the name a program links with (`-lmusart`).
    pub aliases: &'static [&'static str],
    /// Whether a function `libstreamsim.so` exports is one of this library's.
    pub select: fn(&str) -> bool,
    /// Exports that jump to another function of `libstreamsim.so`: (exported name, target); exported even where
    /// the C library has no function of the exported name.
    pub renames: &'static [(&'static str, &'static str)],
    /// Names the C library has that this library does not export.
    pub withheld: &'static [&'static str],
    /// A function it must export: a `libstreamsim.so` without it is older than this streamsim.
    pub required: &'static str,
    /// The C functions it defines besides the trampolines (`per_thread.rs`): the entry points of per-thread
    /// default stream builds.
    pub wrappers: &'static [&'static [per_thread::Entry]],
}

/// The functions of `libstreamsim.so` the drop-in `libcudart.so.*` export: the CUDA runtime's names
/// (`cuda…`, and the registration and launch calls nvcc's host code makes, `__cuda…`), without streamsim's own
/// `cudasim…` stand-ins, which NVIDIA's library does not have.
fn is_cudart_name(name: &str) -> bool {
    (name.starts_with("cuda") && !name.starts_with("cudasim")) || name.starts_with("__cuda")
}

/// The MUSA runtime's names, without streamsim's `musasim…`.
fn is_musart_name(name: &str) -> bool {
    name.starts_with("musa") && !name.starts_with("musasim")
}

/// AscendCL's names (`acl…`, `aclrt…`, `aclmdl…`, `aclsys…`), without streamsim's `aclsim…`.
fn is_ascendcl_name(name: &str) -> bool {
    name.starts_with("acl") && !name.starts_with("aclsim")
}

/// CUDA 13's runtime library.
pub(crate) const CUDART13: DropIn = DropIn {
    soname: "libcudart.so.13",
    node: Some("libcudart.so.13"),
    aliases: &[],
    select: is_cudart_name,
    renames: CUDART13_RENAMES,
    withheld: &[],
    required: "__cudaLaunchKernel",
    wrappers: &[per_thread::COMMON, per_thread::CUDA13],
};

/// CUDA 12's runtime library: the C library's own ABI is CUDA 12's.
pub(crate) const CUDART12: DropIn = DropIn {
    soname: "libcudart.so.12",
    node: Some("libcudart.so.12"),
    aliases: &[],
    select: is_cudart_name,
    renames: CUDART12_RENAMES,
    withheld: CUDART12_WITHHELD,
    required: "__cudaGetKernel",
    wrappers: &[per_thread::COMMON, per_thread::CUDA12],
};

/// MUSA's runtime library (MUSA SDK 4's SONAME; `libmusart.so` for linking).
pub(crate) const MUSART: DropIn = DropIn {
    soname: "libmusart.so.4",
    node: None,
    aliases: &["libmusart.so"],
    select: is_musart_name,
    renames: &[],
    withheld: &[],
    required: "musaMalloc",
    wrappers: &[],
};

/// CANN's AscendCL library (its SONAME has no version).
pub(crate) const ASCENDCL: DropIn = DropIn {
    soname: "libascendcl.so",
    node: None,
    aliases: &[],
    select: is_ascendcl_name,
    renames: &[],
    withheld: &[],
    required: "aclrtMalloc",
    wrappers: &[],
};

/// Every drop-in, built together into one folder.
pub(crate) const DROPINS: [&DropIn; 4] = [&CUDART13, &CUDART12, &MUSART, &ASCENDCL];

/// The drop-in's exports: (exported name, the `libstreamsim.so` function it jumps to), sorted by name.
pub(crate) fn exports(lib: &[u8], d: &DropIn) -> Result<Vec<(String, String)>, String> {
    let elf = elf::parse(lib).map_err(|e| format!("libstreamsim.so: {e}"))?;
    let mut out = std::collections::BTreeMap::new();
    for name in elf.exported.iter().filter(|n| (d.select)(n)) {
        if !d.withheld.contains(&name.as_str()) {
            out.insert(name.clone(), name.clone());
        }
    }
    for (name, target) in d.renames {
        out.insert((*name).to_string(), (*target).to_string());
    }
    for (name, target) in &out {
        if !elf.exported.contains(target) {
            return Err(format!(
                "libstreamsim.so does not export {target}, the entry point of {name} in {}: it is older \
                 than this streamsim",
                d.soname
            ));
        }
    }
    if let Some((name, _, _)) = wrappers(d).find(|(n, _, _)| out.contains_key(*n)) {
        return Err(format!(
            "{name} is both a function of libstreamsim.so and an entry point of {}'s per-thread build",
            d.soname
        ));
    }
    if !out.contains_key(d.required) {
        return Err(format!(
            "libstreamsim.so does not export {}: it is older than this streamsim",
            d.required
        ));
    }
    Ok(out.into_iter().collect())
}

/// The C functions `d` defines besides its trampolines.
fn wrappers(d: &DropIn) -> impl Iterator<Item = &'static per_thread::Entry> {
    d.wrappers.iter().flat_map(|w| w.iter())
}

/// The C source of the drop-in: the table of targets, the constructor that fills it from `lib`, and the
/// trampolines (x86-64 or AArch64 assembly).
pub(crate) fn shim_source(
    lib: &Path,
    d: &DropIn,
    exports: &[(String, String)],
) -> Result<String, String> {
    let soname = d.soname;
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
        "/* streamsim's drop-in {soname}, generated by `streamsim exec`. */\n\
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
         \x20       fprintf(stderr, \"streamsim: the drop-in {soname} cannot load %s\\n\", dlerror());\n\
         \x20       _exit(127);\n\
         \x20   }}\n\
         \x20   for (int i = 0; i < {n}; i++) {{\n\
         \x20       __streamsim_dropin_targets[i] = dlsym(h, targets[i]);\n\
         \x20       if (!__streamsim_dropin_targets[i]) {{\n\
         \x20           fprintf(stderr, \"streamsim: the drop-in {soname} finds no %s in {path}\\n\", targets[i]);\n\
         \x20           _exit(127);\n\
         \x20       }}\n\
         \x20   }}\n\
         \x20   const char *k = getenv(\"STREAMSIM_KERNELS\");\n\
         \x20   if (k && *k && !dlopen(k, RTLD_NOW | RTLD_LOCAL)) {{\n\
         \x20       fprintf(stderr, \"streamsim: STREAMSIM_KERNELS: %s\\n\", dlerror());\n\
         \x20       _exit(127);\n\
         \x20   }}\n\
         }}\n"
    );
    if d.wrappers.is_empty() {
        s.push('\n');
    } else {
        s.push_str(per_thread::PRELUDE);
        for (name, params, body) in wrappers(d) {
            let _ = write!(s, "\nint {name}({params}) {{\n    {body}\n}}\n");
        }
        s.push('\n');
    }
    s.push_str("__asm__(\n\"\\t.text\\n\"\n");
    for (i, (name, _)) in exports.iter().enumerate() {
        let mut body =
            format!("\t.globl {name}\n\t.type {name}, %function\n\t.p2align 4\n{name}:\n");
        body.push_str(&jump(i)?);
        let _ = writeln!(s, "\"{}\"", body.replace('\t', "\\t").replace('\n', "\\n"));
    }
    s.push_str(");\n");
    Ok(s)
}

/// The linker version script: every export and wrapper global (in the version node, if the library has one),
/// nothing else.
pub(crate) fn version_script(d: &DropIn, exports: &[(String, String)]) -> String {
    let mut s = match d.node {
        Some(node) => format!("{node} {{\n  global:\n"),
        None => "{\n  global:\n".to_string(),
    };
    let mut names: Vec<&str> = exports.iter().map(|(n, _)| n.as_str()).collect();
    names.extend(wrappers(d).map(|(n, _, _)| *n));
    names.sort_unstable();
    for name in names {
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

/// Builds (once per `libstreamsim.so` and generated source) the folder holding the drop-ins (`DROPINS`) for the
/// library in `lib_dir`, and returns it.
pub fn prepare(lib_dir: &Path) -> Result<PathBuf, String> {
    let lib = lib_dir
        .join("libstreamsim.so")
        .canonicalize()
        .map_err(|e| format!("{}/libstreamsim.so: {e}", lib_dir.display()))?;
    let bytes = std::fs::read(&lib).map_err(|e| format!("{}: {e}", lib.display()))?;
    let mut built = Vec::new();
    for d in DROPINS {
        let exports = exports(&bytes, d)?;
        let source = shim_source(&lib, d, &exports)?;
        let script = version_script(d, &exports);
        built.push((d, source, script));
    }
    let mut parts: Vec<&[u8]> = vec![&bytes];
    for (_, source, script) in &built {
        parts.push(source.as_bytes());
        parts.push(script.as_bytes());
    }
    let key = digest(&parts);
    let dir = cache_root().join(format!("dropin-{key:016x}"));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for (d, source, script) in &built {
        build(&dir, d, source, script)?;
        for alias in d.aliases {
            alias_of(&dir, d, alias)?;
        }
    }
    Ok(dir)
}

/// `dir/name` as a symbolic link to `d`'s file (kept if it is there).
fn alias_of(dir: &Path, d: &DropIn, name: &str) -> Result<(), String> {
    let link = dir.join(name);
    if link.symlink_metadata().is_ok() {
        return Ok(());
    }
    match std::os::unix::fs::symlink(d.soname, &link) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(format!("{}: {e}", link.display())),
    }
}

/// Builds `d` into `dir` from its source and version script, unless it is there.
fn build(dir: &Path, d: &DropIn, source: &str, script: &str) -> Result<(), String> {
    let soname = d.soname;
    let target = dir.join(soname);
    if target.exists() {
        return Ok(());
    }
    // Built under a name of this process, then renamed: two `streamsim exec` at once each build whole files.
    let tag = std::process::id();
    let c = dir.join(format!("{soname}-{tag}.c"));
    let map = dir.join(format!("{soname}-{tag}.map"));
    let out = dir.join(format!("{soname}.{tag}"));
    std::fs::write(&c, source).map_err(|e| format!("{}: {e}", c.display()))?;
    std::fs::write(&map, script).map_err(|e| format!("{}: {e}", map.display()))?;
    let cc = std::env::var_os("CC").unwrap_or_else(|| "cc".into());
    let result = Command::new(&cc)
        .args(["-shared", "-fPIC", "-O1", "-o"])
        .arg(&out)
        .arg(format!("-Wl,-soname,{soname}"))
        .arg(format!("-Wl,--version-script={}", map.display()))
        .arg(&c)
        .arg("-ldl")
        .output();
    let _ = std::fs::remove_file(&c);
    let _ = std::fs::remove_file(&map);
    let output = result.map_err(|e| {
        format!(
            "building the drop-in {soname} needs a C compiler ({}): {e}",
            Path::new(&cc).display()
        )
    })?;
    if !output.status.success() {
        let _ = std::fs::remove_file(&out);
        return Err(format!(
            "building the drop-in {soname} failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    std::fs::rename(&out, &target).map_err(|e| format!("{}: {e}", target.display()))
}

/// The drop-in that answers a `DT_NEEDED` entry, if one does: its SONAME or an alias, or for MUSA any
/// `libmusart.so.N` (the SONAME's number follows the SDK's major version).
fn answering(needed: &str) -> Option<&'static DropIn> {
    DROPINS.into_iter().find(|d| {
        d.soname == needed
            || d.aliases.contains(&needed)
            || (d.soname == MUSART.soname && needed.starts_with("libmusart.so."))
    })
}

/// Why `program` cannot run on the drop-ins, if it cannot: not a dynamically linked ELF file, one linked with
/// the static CUDA runtime, or one that needs a runtime library streamsim has no drop-in for. Else the
/// `DT_NEEDED` entries the drop-ins answer.
pub fn check_program(program: &Path) -> Result<Vec<String>, String> {
    let bytes =
        std::fs::read(program).map_err(|e| format!("cannot read {}: {e}", program.display()))?;
    let elf = elf::parse(&bytes).map_err(|e| format!("{}: {e}", program.display()))?;
    let mut ours = Vec::new();
    for n in &elf.needed {
        if answering(n).is_some() {
            ours.push(n.clone());
        } else if n.starts_with("libcudart.so") {
            return Err(format!(
                "{} needs {n}: streamsim's drop-ins are {} (CUDA 13) and {} (CUDA 12); rebuild it with the \
                 nvcc of one of them",
                program.display(),
                CUDART13.soname,
                CUDART12.soname
            ));
        }
    }
    if let Some(first) = ours.first() {
        if let Some(r) = &elf.rpath {
            return Err(format!(
                "{} has a DT_RPATH ({r}), which the loader searches before LD_LIBRARY_PATH, so it would load \
                 the vendor's {first}: link it without -rpath (or with -Wl,--enable-new-dtags, a DT_RUNPATH)",
                program.display()
            ));
        }
        if let Some(n) = ours.iter().find(|n| n.contains('/')) {
            return Err(format!(
                "{} needs {n}, a path, which the loader opens without searching LD_LIBRARY_PATH: link it with \
                 -l instead",
                program.display()
            ));
        }
        return Ok(ours);
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
        return Ok(ours);
    }
    Err(format!(
        "{} does not load libcudart.so, libmusart.so or libascendcl.so (no DT_NEEDED entry): it is not a \
         CUDA program linked with `nvcc -cudart shared`, nor a MUSA or AscendCL program linked with -lmusart \
         or -lascendcl",
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
    let needed = check_program(&path)?;
    let dropin = prepare(lib_dir)?;
    for n in &needed {
        if let Some(d) = answering(n) {
            alias_of(&dropin, d, n)?;
        }
    }
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
    if let Some(c) = &options.check {
        cmd.env("STREAMSIM_CHECK", c);
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
        assert!(is_musart_name("musaMalloc"));
        assert!(!is_musart_name("musasimLaunchKernel"));
        assert!(is_ascendcl_name("aclrtMalloc"));
        assert!(!is_ascendcl_name("aclsimLaunchKernel"));
        assert!(!is_ascendcl_name("__streamsimAclPushCallConfiguration"));
    }

    #[test]
    fn needed_entries_pick_their_drop_in() {
        assert_eq!(
            answering("libcudart.so.13").map(|d| d.soname),
            Some("libcudart.so.13")
        );
        assert_eq!(
            answering("libcudart.so.12").map(|d| d.soname),
            Some("libcudart.so.12")
        );
        assert_eq!(answering("libcudart.so.11.0").map(|d| d.soname), None);
        assert_eq!(
            answering("libmusart.so").map(|d| d.soname),
            Some("libmusart.so.4")
        );
        assert_eq!(
            answering("libmusart.so.5").map(|d| d.soname),
            Some("libmusart.so.4")
        );
        assert_eq!(
            answering("libascendcl.so").map(|d| d.soname),
            Some("libascendcl.so")
        );
        assert_eq!(answering("libc.so.6").map(|d| d.soname), None);
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
        let v13 = version_script(&CUDART13, &e);
        assert!(
            v13.starts_with("libcudart.so.13 {\n  global:\n    cudaEventRecordWithFlags_ptsz;\n"),
            "{v13}"
        );
        assert!(
            v13.contains(
                "\n    cudaFree;\n    cudaFreeAsync_ptsz;\n    cudaGetDeviceProperties;\n"
            )
        );
        assert!(v13.contains("\n    cudaMemcpy_ptds;\n"));
        assert!(v13.ends_with("    cudaStreamWaitEvent_ptsz;\n  local: *;\n};\n"));
        assert_eq!(
            version_script(&ASCENDCL, &e[..1]),
            "{\n  global:\n    cudaFree;\n  local: *;\n};\n"
        );
    }

    #[test]
    fn digests_differ_by_part_boundaries() {
        assert_ne!(digest(&[b"ab", b"c"]), digest(&[b"a", b"bc"]));
        assert_eq!(digest(&[b"x"]), digest(&[b"x"]));
    }
}
