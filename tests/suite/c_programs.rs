//! The C programs of `tests/c`, built with the system compilers against `include/` and the `libstreamsim.so`
//! that `cargo test` built, then run. Each program asserts every code it gets and exits non-zero with a
//! message on the first mismatch; each is built twice, as C11 (`cc -std=c11`) and as C++17
//! (`c++ -std=c++17`), both with `-Wall -Wextra -Werror`, and both builds must pass.
//!
//! The compilers can be chosen with `CC` and `CXX`. The programs run as child processes with the default
//! machine configured through `STREAMSIM_DEVICES` / `STREAMSIM_SEED`, under a time limit.
//!
//! New C programs go in `tests/c/` with a test here.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Where the library, the headers and the C sources are, and where the programs are built.
#[derive(Debug)]
pub(crate) struct Toolchain {
    /// The directory holding `libstreamsim.so` (and `libstreamsim.a`).
    pub lib_dir: PathBuf,
    /// `include/`.
    pub include_dir: PathBuf,
    /// `tests/c/`.
    pub c_dir: PathBuf,
    /// `target/<profile>/c-tests/<pid>/`: the programs this test process built. Each test process has its own
    /// folder: a program another `cargo test` is still linking under the same name could not be executed
    /// (ETXTBSY, or EACCES before the linker marks it executable).
    pub out_dir: PathBuf,
}

/// The language a source is compiled as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lang {
    /// `cc -std=c11`.
    C,
    /// `c++ -std=c++17 -x c++`.
    Cxx,
}

impl Lang {
    fn suffix(self) -> &'static str {
        match self {
            Lang::C => "c",
            Lang::Cxx => "cpp",
        }
    }
}

/// The toolchain, found once: the library is the one this test binary's `cargo test` built
/// (`target/<profile>/deps/libstreamsim.so`, built with the lib target), or else it is built now.
pub(crate) fn toolchain() -> &'static Toolchain {
    static T: OnceLock<Toolchain> = OnceLock::new();
    T.get_or_init(|| {
        let exe = std::env::current_exe().expect("the test binary's path");
        let deps = exe.parent().expect("target/<profile>/deps").to_path_buf();
        let profile_dir = deps.parent().expect("target/<profile>").to_path_buf();
        let lib_dir = [&deps, &profile_dir]
            .into_iter()
            .find(|d| d.join("libstreamsim.so").exists())
            .cloned()
            .unwrap_or_else(|| build_library(&profile_dir));
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let all = profile_dir.join("c-tests");
        forget_earlier_runs(&all);
        let out_dir = all.join(std::process::id().to_string());
        std::fs::create_dir_all(&out_dir).expect("creating target/<profile>/c-tests/<pid>");
        Toolchain {
            lib_dir,
            include_dir: root.join("include"),
            c_dir: root.join("tests").join("c"),
            out_dir,
        }
    })
}

/// Removes what test processes that have ended built in `all` (`c-tests/<pid>/` of a process that is gone, and
/// the files of the layout before per-process folders), so that the folder holds live runs' programs only.
fn forget_earlier_runs(all: &Path) {
    let Ok(entries) = std::fs::read_dir(all) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        match name.to_str().and_then(|n| n.parse::<u32>().ok()) {
            Some(pid) if Path::new(&format!("/proc/{pid}")).exists() => {}
            // A run that has ended; or a file of the old layout. Another run may be removing it too.
            Some(_) => {
                let _ = std::fs::remove_dir_all(&path);
            }
            None if path.is_file() => {
                let _ = std::fs::remove_file(&path);
            }
            None => {}
        }
    }
}

/// Builds the library with cargo for the profile of `profile_dir` (target/<profile>); returns where it is.
fn build_library(profile_dir: &Path) -> PathBuf {
    let profile = match profile_dir.file_name().and_then(|n| n.to_str()) {
        Some("debug") => "dev".to_string(),
        Some(other) => other.to_string(),
        None => panic!("cannot tell the profile of {}", profile_dir.display()),
    };
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let status = Command::new(cargo)
        .args(["build", "--lib", "--profile", &profile, "--manifest-path"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
        .env(
            "CARGO_TARGET_DIR",
            profile_dir.parent().expect("the target directory"),
        )
        .status()
        .expect("running cargo build --lib");
    assert!(status.success(), "cargo build --lib failed: {status}");
    assert!(
        profile_dir.join("libstreamsim.so").exists(),
        "cargo build --lib did not produce {}",
        profile_dir.join("libstreamsim.so").display()
    );
    profile_dir.to_path_buf()
}

/// The compiler for `lang` (`CC` / `CXX`, else `cc` / `c++`).
pub(crate) fn compiler(lang: Lang) -> String {
    let (var, default) = match lang {
        Lang::C => ("CC", "cc"),
        Lang::Cxx => ("CXX", "c++"),
    };
    std::env::var(var).unwrap_or_else(|_| default.to_string())
}

/// The flags every build uses: the language standard and `-Wall -Wextra -Werror`.
pub(crate) fn flags(lang: Lang) -> &'static [&'static str] {
    match lang {
        Lang::C => &["-std=c11", "-Wall", "-Wextra", "-Werror"],
        Lang::Cxx => &["-std=c++17", "-Wall", "-Wextra", "-Werror"],
    }
}

/// Compiles and links `src` as `lang` against the shared library into `out_dir/<name>-<c|cpp>`; panics with
/// the compiler's output if it fails. Two tests that build the same name at once get two files
/// (`<name>-<c|cpp>.<n>`): executing a file another test's linker is still writing fails with ETXTBSY.
pub(crate) fn build(src: &Path, name: &str, lang: Lang, extra: &[&str]) -> PathBuf {
    static BUILDING: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let t = toolchain();
    let mut file = format!("{name}-{}", lang.suffix());
    {
        let mut taken = BUILDING
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let base = file.clone();
        let mut n = 1;
        while taken.contains(&file) {
            n += 1;
            file = format!("{base}.{n}");
        }
        taken.push(file.clone());
    }
    let exe = t.out_dir.join(&file);
    let mut cmd = Command::new(compiler(lang));
    cmd.args(flags(lang))
        .arg("-I")
        .arg(&t.include_dir)
        .arg("-I")
        .arg(&t.c_dir);
    if lang == Lang::Cxx {
        cmd.args(["-x", "c++"]);
    }
    cmd.arg(src);
    if lang == Lang::Cxx {
        cmd.args(["-x", "none"]);
    }
    cmd.arg("-o")
        .arg(&exe)
        .arg("-L")
        .arg(&t.lib_dir)
        .arg("-lstreamsim")
        .arg(format!("-Wl,-rpath,{}", t.lib_dir.display()))
        .arg("-lpthread")
        .args(extra);
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run the {lang:?} compiler {:?}: {e}", compiler(lang)));
    assert!(
        out.status.success(),
        "{:?} failed to build {} as {lang:?}:\n{}{}",
        cmd,
        src.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

/// The variables that configure the default machine, removed from a C program's environment unless a test
/// sets them.
const STREAMSIM_VARS: &[&str] = &[
    "STREAMSIM_DEVICES",
    "STREAMSIM_SEED",
    "STREAMSIM_RACES",
    "STREAMSIM_RACES_EXITCODE",
    "STREAMSIM_TRACE",
    "STREAMSIM_TIMELINE",
    "STREAMSIM_MACHINE",
    "STREAMSIM_SCHEDULE",
    "STREAMSIM_WATCHDOG_MS",
    "STREAMSIM_CHECK_DETERMINISM",
    "STREAMSIM_DETERMINISM_CHILD",
    "STREAMSIM_ENGINES",
    "STREAMSIM_INJECT_PANIC",
];

/// A shared-host name no other test uses (`STREAMSIM_MACHINE`), so that parallel tests' programs never meet.
pub(crate) fn unique_host(label: &str) -> String {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("t{}-{label}-{n}", std::process::id())
}

/// Runs a program with the default machine configured by `env` (the `STREAMSIM_*` variables not listed are
/// removed; without `STREAMSIM_MACHINE`, the program gets a shared host of its own), killing it after `limit`.
pub(crate) fn run(exe: &Path, args: &[&str], env: &[(&str, &str)], limit: Duration) -> Output {
    let host = env
        .iter()
        .find(|(k, _)| *k == "STREAMSIM_MACHINE")
        .map_or_else(|| unique_host("run"), |(_, v)| v.to_string());
    // The program is the host's only process: once it has ended (or failed, or been killed), whatever of its
    // host is left in /dev/shm is removed, by the host's unique name.
    let _clean = HostCleanup(host.clone());
    let mut all: Vec<(&str, &str)> = env.to_vec();
    if !env.iter().any(|(k, _)| *k == "STREAMSIM_MACHINE") {
        all.push(("STREAMSIM_MACHINE", &host));
    }
    let mut child = spawn(exe, args, &all);
    wait_for(exe, args, &mut child, limit)
}

/// Removes the `/dev/shm` objects of shared host `self.0` when dropped (also while a failed test unwinds).
pub(crate) struct HostCleanup(pub String);

impl Drop for HostCleanup {
    fn drop(&mut self) {
        // SAFETY: getuid cannot fail.
        let uid = unsafe { libc::getuid() };
        let prefix = format!("streamsim.{uid}.{}.", self.0);
        if let Ok(dir) = std::fs::read_dir("/dev/shm") {
            for e in dir.filter_map(|e| e.ok()) {
                if e.file_name()
                    .to_str()
                    .is_some_and(|n| n.starts_with(&prefix))
                {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
    }
}

/// Starts a program as [`run`] does, without waiting for it.
pub(crate) fn spawn(exe: &Path, args: &[&str], env: &[(&str, &str)]) -> std::process::Child {
    let mut cmd = Command::new(exe);
    // The library the program was linked against, first: cargo puts target/<profile> on LD_LIBRARY_PATH, where
    // a `cargo build` may have left an older libstreamsim.so that would shadow the rpath.
    cmd.args(args).env("LD_LIBRARY_PATH", &toolchain().lib_dir);
    for var in STREAMSIM_VARS {
        cmd.env_remove(var);
    }
    if !env.iter().any(|(k, _)| *k == "STREAMSIM_MACHINE") {
        cmd.env("STREAMSIM_MACHINE", unique_host("run"));
    }
    cmd.envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd.spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", exe.display()))
}

/// Waits for a program started with [`spawn`], killing it after `limit` (a failed test then).
pub(crate) fn wait_for(
    exe: &Path,
    args: &[&str],
    child: &mut std::process::Child,
    limit: Duration,
) -> Output {
    let start = Instant::now();
    loop {
        if child.try_wait().expect("waiting for the program").is_some() {
            return output_of(child);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = output_of(child);
            panic!(
                "{} {args:?} did not finish within {limit:?} (deadlock?)\nstdout:\n{}\nstderr:\n{}",
                exe.display(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The output of a finished child (its pipes read to the end).
fn output_of(child: &mut std::process::Child) -> Output {
    use std::io::Read as _;
    let status = child.wait().expect("the program's status");
    let mut stdout = Vec::new();
    let mut stderr = Vec::new();
    if let Some(mut o) = child.stdout.take() {
        let _ = o.read_to_end(&mut stdout);
    }
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_end(&mut stderr);
    }
    Output {
        status,
        stdout,
        stderr,
    }
}

/// Asserts that a run succeeded; returns its standard output.
pub(crate) fn assert_success(what: &str, out: &Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{what}: {}\nstdout:\n{stdout}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// How long a C program may run.
pub(crate) const LIMIT: Duration = Duration::from_secs(60);

/// Builds `tests/c/<name>.c` as C11 and as C++17 (executables named after `label`, unique per test) and runs
/// both with `args` and `env`; returns both standard outputs.
pub(crate) fn build_and_run(
    name: &str,
    label: &str,
    args: &[&str],
    env: &[(&str, &str)],
) -> Vec<String> {
    let src = toolchain().c_dir.join(format!("{name}.c"));
    [Lang::C, Lang::Cxx]
        .into_iter()
        .map(|lang| {
            let exe = build(&src, label, lang, &[]);
            assert_success(&format!("{name} ({lang:?})"), &run(&exe, args, env, LIMIT))
        })
        .collect()
}

/// The MUSA events article §2.1 (elapsed time around a kernel: NotReady, then 0.251 ms) and §2.2 (stream1 waits for
/// an event recorded on stream2) with musa names.
#[test]
fn seed000_musa_timing_and_stream_sync() {
    for out in build_and_run("seed000_musa", "seed000_musa", &[], &[]) {
        assert!(out.contains("seed 000 §2.1 and §2.2: ok"), "{out}");
    }
}

/// The Ascend multi-device guide with acl names on 2 devices: device selection and reset, then the launches, copies,
/// records and waits that fail with 107003 on a stream or event of another device, and the synchronize / queries
/// that work.
#[test]
fn seed001_acl_device_selection_and_cross_device_rules() {
    for out in build_and_run(
        "seed001_acl",
        "seed001_acl",
        &[],
        &[("STREAMSIM_DEVICES", "2")],
    ) {
        assert!(out.contains("ok"), "{out}");
    }
}

/// The Ascend multi-device guide's P2P copy sample with acl names on 2 devices: prints "P2P copy success", and the
/// bytes arrive.
#[test]
fn seed001_acl_p2p_copy_sample() {
    for out in build_and_run(
        "seed001_p2p_acl",
        "seed001_p2p_acl",
        &[],
        &[("STREAMSIM_DEVICES", "2")],
    ) {
        assert_eq!(out.trim(), "P2P copy success");
    }
}

/// The CANN stream-vs-event note's three scenarios with acl names (stream vs event synchronization, with exact
/// virtual times), and the kernel exception of its related issue: 507015 at the next synchronize, reported once
/// (ACL_CONTINUE_ON_FAILURE).
#[test]
fn seed004_acl_scenarios_and_kernel_exception() {
    for out in build_and_run("seed004_acl", "seed004_acl", &[], &[]) {
        assert!(out.contains("ok"), "{out}");
    }
}

/// IPC between two simulated processes in one OS process, from C: the MUSA events article §2.3 with musa names (the
/// default process and a second process bound on the same thread) and the same exchange with acl names (a machine
/// made from C, process B on its own thread).
#[test]
fn ipc_between_simulated_processes_of_one_os_process() {
    for out in build_and_run("ipc_in_process", "ipc_in_process", &[], &[]) {
        assert!(out.contains("ok"), "{out}");
    }
}

/// A handle exported by one OS process and opened by another fails with the vendor's IPC error
/// (cudaErrorInvalidValue, ACL_ERROR_RT_IPC_ERROR) and a message saying it may come from another OS process.
#[test]
fn ipc_handle_from_another_os_process_is_refused() {
    let src = toolchain().c_dir.join("ipc_foreign.c");
    for lang in [Lang::C, Lang::Cxx] {
        let exe = build(&src, "ipc_foreign", lang, &[]);
        let prefix =
            toolchain()
                .out_dir
                .join(format!("ipc-foreign-{}-{:?}", std::process::id(), lang));
        let prefix = prefix.to_str().expect("a UTF-8 path");
        // The same shared host, one run after the other: the handles are of an earlier run.
        let host = unique_host("foreign");
        let env = [("STREAMSIM_MACHINE", host.as_str())];
        assert_success("export", &run(&exe, &["export", prefix], &env, LIMIT));
        let out = assert_success(
            "open",
            &run(&exe, &["open", prefix, "earlier run"], &env, LIMIT),
        );
        assert!(out.contains("foreign handles refused"), "{out}");
        // Another shared host (STREAMSIM_MACHINE): refused as another host's.
        let other = unique_host("foreign-other");
        let out = assert_success(
            "open (another host)",
            &run(
                &exe,
                &["open", prefix, "another shared host"],
                &[("STREAMSIM_MACHINE", other.as_str())],
                LIMIT,
            ),
        );
        assert!(out.contains("foreign handles refused"), "{out}");
        for suffix in ["cuda", "acl"] {
            let _ = std::fs::remove_file(format!("{prefix}.{suffix}"));
        }
    }
}

/// The same, when the opening OS process has itself exported the same-numbered event of the same-numbered
/// process on a machine with the same seed: the handle's bytes are then identical to a local export, and the
/// foreign handle must still be refused rather than opening the local event.
///
/// Core gap (src/engine/ipc/events.rs): a handle holds only the seed, the process and the event ordinal, so this fails today
/// (the foreign handle opens this OS process's own event).
#[test]
fn ipc_handle_from_another_os_process_is_refused_even_if_its_bytes_match_a_local_export() {
    let src = toolchain().c_dir.join("ipc_foreign.c");
    let exe = build(&src, "ipc_foreign-same_bytes", Lang::C, &[]);
    let prefix = toolchain()
        .out_dir
        .join(format!("ipc-foreign-same-{}", std::process::id()));
    let prefix = prefix.to_str().expect("a UTF-8 path");
    let host = unique_host("foreign-same");
    let env = [("STREAMSIM_MACHINE", host.as_str())];
    assert_success("export", &run(&exe, &["export", prefix], &env, LIMIT));
    let out = run(
        &exe,
        &["export-then-open", prefix, "earlier run"],
        &env,
        LIMIT,
    );
    for suffix in ["cuda", "acl"] {
        let _ = std::fs::remove_file(format!("{prefix}.{suffix}"));
    }
    assert_success("export-then-open", &out);
}

/// NULL, destroyed, forged and wrong-kind stream, event, context, machine and process handles, and NULL
/// out-pointers, through every facade from C: the vendor's codes, and no crash.
#[test]
fn null_destroyed_and_garbage_handles_get_vendor_codes() {
    for out in build_and_run("bad_handles", "bad_handles", &[], &[]) {
        assert!(out.contains("no crash"), "{out}");
    }
}

/// The streamsim calls: machines, processes, nested and per-dialect bindings, the default machine from
/// STREAMSIM_DEVICES=3, error strings, fallible kernels (719 / 700 with CUDA and MUSA names), runtime calls
/// from a kernel body (800).
#[test]
fn streamsim_calls_from_c() {
    for out in build_and_run(
        "streamsim_api",
        "streamsim_api",
        &[],
        &[("STREAMSIM_DEVICES", "3")],
    ) {
        assert!(out.contains("streamsim calls: ok"), "{out}");
    }
}

/// STREAMSIM_DEVICES that is not a number: every default-machine call fails (NoDevice 100,
/// ACL_ERROR_UNINITIALIZE, STREAMSIM_ERROR_CONFIG) with a message naming the variable; explicit machines
/// still work.
#[test]
fn bad_environment_from_c() {
    for out in build_and_run(
        "streamsim_api",
        "streamsim_api-bad_env",
        &["bad-env"],
        &[("STREAMSIM_DEVICES", "lots")],
    ) {
        assert!(out.contains("bad environment: ok"), "{out}");
    }
}

/// The static library links a C program too (with the system libraries Rust's standard library needs).
#[test]
fn static_library_links_a_c_program() {
    let t = toolchain();
    let archive = t.lib_dir.join("libstreamsim.a");
    assert!(archive.exists(), "{} is missing", archive.display());
    let exe = t.out_dir.join("streamsim_api-static");
    let out = Command::new(compiler(Lang::C))
        .args(flags(Lang::C))
        .arg("-I")
        .arg(&t.include_dir)
        .arg("-I")
        .arg(&t.c_dir)
        .arg(t.c_dir.join("streamsim_api.c"))
        .arg("-o")
        .arg(&exe)
        .arg(&archive)
        .args([
            "-lgcc_s",
            "-lutil",
            "-lrt",
            "-lpthread",
            "-lm",
            "-ldl",
            "-lc",
        ])
        .output()
        .expect("running the C compiler");
    assert!(
        out.status.success(),
        "static link failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = assert_success(
        "static",
        &run(&exe, &[], &[("STREAMSIM_DEVICES", "3")], LIMIT),
    );
    assert!(out.contains("streamsim calls: ok"), "{out}");
}
