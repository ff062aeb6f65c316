//! The vendors' header sets in `include/`, beyond what `c_headers` checks of their union:
//! - every file under `include/` is a header of a set below;
//! - every header compiles alone (a translation unit that includes only it) as C11 and as C++17 with
//!   `-Wall -Wextra -Werror -pedantic`;
//! - each header includes what the vendor's includes (CUDA 12's toolkit headers, the CANN runtime's
//!   `include/external/acl/`);
//! - every function the library exports, and every constant the headers define, is declared in exactly one
//!   header, the one where the vendor declares it;
//! - the include guards and version macros programs test are defined;
//! - `tests/c/header_sets.c`, which includes every header by name and calls a few functions of each, runs.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::c_headers::{
    ALL_HEADERS, enum_body, exported_functions, ours, parse_prototype, top_level_statements,
};
use crate::c_programs::{Lang, compiler, flags, toolchain};

/// CUDA's headers (NVIDIA's names).
const CUDA: &[&str] = &[
    "cuda_runtime.h",
    "cuda_runtime_api.h",
    "driver_types.h",
    "vector_types.h",
    "vector_functions.h",
    "device_launch_parameters.h",
    "cuda_fp16.h",
    "cuda_profiler_api.h",
];
/// MUSA's (the MUSA SDK's names for the runtime).
const MUSA: &[&str] = &[
    "musa_runtime.h",
    "musa_runtime_api.h",
    "musa_profiler_api.h",
];
/// CANN's (`include/external/acl/` of the CANN runtime).
const ACL: &[&str] = &[
    "acl/acl.h",
    "acl/acl_base.h",
    "acl/acl_base_rt.h",
    "acl/acl_base_mdl.h",
    "acl/acl_rt.h",
    "acl/acl_op.h",
    "acl/acl_mdl.h",
    "acl/acl_prof.h",
    "acl/acl_rt_allocator.h",
    "acl/acl_rt_memory_soma.h",
    "acl/error_codes/rt_error_codes.h",
    "acl/error_codes/ge_error_codes.h",
];
/// streamsim's own.
const STREAMSIM: &[&str] = &["streamsim.h"];

fn every_header() -> impl Iterator<Item = &'static str> {
    [CUDA, MUSA, ACL, STREAMSIM].into_iter().flatten().copied()
}

fn include_dir() -> PathBuf {
    toolchain()
        .include_dir
        .canonicalize()
        .expect("include/ exists")
}

/// The files under `dir`, relative to `root`.
fn files_under(root: &Path, dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("reading include/") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            files_under(root, &path, out);
        } else {
            let rel = path.strip_prefix(root).expect("under include/");
            out.push(rel.to_string_lossy().into_owned());
        }
    }
}

/// Runs the compiler on `src` (a translation unit) as `lang` with `extra` flags; (success, stdout, stderr).
fn compile(src: &str, lang: Lang, extra: &[&str]) -> (bool, String, String) {
    let t = toolchain();
    let mut cmd = Command::new(compiler(lang));
    cmd.args(flags(lang))
        .arg("-I")
        .arg(&t.include_dir)
        .args(extra);
    cmd.args(["-x", if lang == Lang::Cxx { "c++" } else { "c" }, "-"]);
    let mut child = cmd
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run the {lang:?} compiler: {e}"));
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(src.as_bytes()).expect("writing the TU");
    }
    let out = child.wait_with_output().expect("the compiler's output");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every file under include/ is a header of one of the sets (a new header is added to a set, so that the
/// tests below cover it).
#[test]
fn every_file_under_include_is_in_a_set() {
    let root = include_dir();
    let mut files = Vec::new();
    files_under(&root, &root, &mut files);
    // streamsim/cc/: what `streamsim cc` pre-includes into CUDA-language sources (C++ only) and its CPU
    // runtime; tests/suite/cc_programs.rs builds programs with them.
    // cooperative_groups.h (and cooperative_groups/): device code's C++ API, for `streamsim cc` only.
    files.retain(|f| !f.starts_with("streamsim/cc/") && !f.starts_with("cooperative_groups"));
    files.sort();
    let mut sets: Vec<String> = every_header().map(str::to_string).collect();
    sets.sort();
    assert_eq!(
        files, sets,
        "the files under include/ and the header sets differ"
    );
}

/// Every header compiles alone as C11 and as C++17 with -Wall -Wextra -Werror -pedantic.
#[test]
fn every_header_compiles_alone_in_c_and_cpp() {
    let mut failed = Vec::new();
    for h in every_header() {
        // A declaration of the TU's own: an empty translation unit is not ISO C (the placeholder headers of
        // CANN, acl_op.h and acl_mdl.h, declare nothing).
        let src = format!("#include <{h}>\ntypedef int header_alone_tu;\n");
        for lang in [Lang::C, Lang::Cxx] {
            let (ok, _, err) = compile(&src, lang, &["-pedantic", "-fsyntax-only"]);
            if !ok {
                failed.push(format!("{h} ({lang:?}):\n{err}"));
            }
        }
    }
    assert!(
        failed.is_empty(),
        "headers that do not compile alone:\n{}",
        failed.join("\n")
    );
}

/// The headers a header includes, directly or not (the compiler's dependency list), relative to include/.
fn included_by(h: &str) -> Vec<String> {
    let (ok, out, err) = compile(&format!("#include <{h}>\n"), Lang::C, &["-MM", "-MT", "x"]);
    assert!(ok, "listing the dependencies of {h}:\n{err}");
    let root = include_dir();
    out.replace("\\\n", " ")
        .split_whitespace()
        .filter_map(|p| {
            let path = Path::new(p).canonicalize().ok()?;
            let rel = path
                .strip_prefix(&root)
                .ok()?
                .to_string_lossy()
                .into_owned();
            (rel != h).then_some(rel)
        })
        .collect()
}

/// Each header includes what the vendor's includes: cuda_runtime.h → cuda_runtime_api.h → driver_types.h and
/// vector_types.h, cuda_runtime.h → vector_functions.h → cuda_runtime_api.h (CUDA 12's toolkit); acl/acl.h → acl_rt.h, acl_op.h, acl_mdl.h; acl_rt.h → acl_base.h and
/// acl_rt_allocator.h; acl_base.h → acl_base_rt.h, acl_base_mdl.h and both code lists; acl_prof.h,
/// acl_rt_allocator.h → acl_base.h; acl_rt_memory_soma.h → acl_base.h and acl_rt.h (the CANN runtime's
/// include/external/acl/). The additions of streamsim: cuda_runtime.h, musa_runtime.h and acl/acl.h include
/// streamsim.h (the *sim* launches), and acl/acl.h includes acl_rt_memory_soma.h.
#[test]
fn each_header_includes_what_the_vendors_includes() {
    let base = [
        "acl/acl_base.h",
        "acl/acl_base_rt.h",
        "acl/acl_base_mdl.h",
        "acl/error_codes/rt_error_codes.h",
        "acl/error_codes/ge_error_codes.h",
    ];
    let mut rt: Vec<&str> = base.to_vec();
    rt.push("acl/acl_rt_allocator.h");
    let with = |v: &[&str], more: &[&str]| -> Vec<String> {
        let mut out: Vec<String> = v.iter().chain(more).map(|s| s.to_string()).collect();
        out.sort();
        out
    };
    let expected: Vec<(&str, Vec<String>)> = vec![
        (
            "cuda_runtime.h",
            with(
                &[
                    "cuda_runtime_api.h",
                    "driver_types.h",
                    "vector_types.h",
                    "vector_functions.h",
                ],
                &["streamsim.h"],
            ),
        ),
        (
            "cuda_runtime_api.h",
            with(&["driver_types.h", "vector_types.h"], &[]),
        ),
        ("driver_types.h", vec![]),
        ("vector_types.h", vec![]),
        (
            "vector_functions.h",
            with(
                &["cuda_runtime_api.h", "driver_types.h", "vector_types.h"],
                &[],
            ),
        ),
        ("device_launch_parameters.h", with(&["vector_types.h"], &[])),
        ("cuda_fp16.h", vec![]),
        (
            "cuda_profiler_api.h",
            with(
                &[
                    "cuda_runtime.h",
                    "cuda_runtime_api.h",
                    "driver_types.h",
                    "vector_types.h",
                    "vector_functions.h",
                ],
                &["streamsim.h"],
            ),
        ),
        (
            "musa_runtime.h",
            with(&["musa_runtime_api.h"], &["streamsim.h"]),
        ),
        ("musa_runtime_api.h", vec![]),
        (
            "acl/acl.h",
            with(
                &rt,
                &[
                    "acl/acl_rt.h",
                    "acl/acl_op.h",
                    "acl/acl_mdl.h",
                    "acl/acl_rt_memory_soma.h",
                    "streamsim.h",
                ],
            ),
        ),
        ("acl/acl_rt.h", with(&rt, &[])),
        ("acl/acl_base.h", with(&base[1..], &[])),
        ("acl/acl_base_rt.h", vec![]),
        ("acl/acl_prof.h", with(&base, &[])),
        ("acl/acl_rt_allocator.h", with(&base, &[])),
        ("acl/acl_rt_memory_soma.h", with(&rt, &["acl/acl_rt.h"])),
        ("acl/error_codes/rt_error_codes.h", vec![]),
        ("acl/error_codes/ge_error_codes.h", vec![]),
    ];
    let mut wrong = Vec::new();
    for (h, want) in expected {
        let mut got = included_by(h);
        got.sort();
        got.dedup();
        if got != want {
            wrong.push(format!("{h}: includes {got:?}, expected {want:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The header where the vendor declares `name` (a function or a constant of streamsim's prefixes).
fn vendor_header(name: &str) -> &'static str {
    const SOMA: &[&str] = &["aclrtMemPool", "ACL_RT_MEM_POOL_"];
    const BASE_RT: &[&str] = &[
        "aclrtGetSocName",
        "aclFloatToFloat16",
        "aclFloat16ToFloat",
        "aclDataTypeSize",
        "aclGetCannAttributeList",
        "aclGetCannAttribute",
        "aclGetDeviceCapability",
    ];
    // The enumerators of aclDataType, aclCannAttr and aclDeviceInfo.
    const DATA_TYPES: &[&str] = &[
        "ACL_DT_",
        "ACL_FLOAT",
        "ACL_INT",
        "ACL_UINT",
        "ACL_DOUBLE",
        "ACL_BOOL",
        "ACL_STRING",
        "ACL_COMPLEX",
        "ACL_BF16",
        "ACL_HIFLOAT8",
        "ACL_CANN_ATTR_",
        "ACL_DEVICE_INFO_",
    ];
    if name.starts_with("cudasim")
        || name.starts_with("musasim")
        || name.starts_with("aclsim")
        || name.starts_with("streamsim")
        || name.starts_with("STREAMSIM_")
    {
        "streamsim.h"
    } else if SOMA.iter().any(|p| name.starts_with(p)) {
        "acl/acl_rt_memory_soma.h"
    } else if BASE_RT.contains(&name) || DATA_TYPES.iter().any(|p| name.starts_with(p)) {
        "acl/acl_base_rt.h"
    } else if name.starts_with("ACL_ERROR_RT_") || name == "ACL_ERROR_STREAM_CAPTURE_CONFLICT" {
        "acl/error_codes/rt_error_codes.h"
    } else if name == "ACL_SUCCESS" || name.starts_with("ACL_ERROR_") {
        "acl/acl_base_rt.h"
    } else if name.starts_with("acl") || name.starts_with("ACL_") {
        "acl/acl_rt.h"
    } else if name.starts_with("musa") || name.starts_with("MUSA_") {
        "musa_runtime_api.h"
    } else if name.starts_with("cuda") || name.starts_with("CUDA_") {
        // The functions in cuda_runtime_api.h, the constants and types in driver_types.h (NVIDIA's split).
        if is_function(name) {
            "cuda_runtime_api.h"
        } else {
            "driver_types.h"
        }
    } else {
        panic!("{name}: not a name of the header sets")
    }
}

fn is_function(name: &str) -> bool {
    static F: std::sync::OnceLock<std::collections::BTreeSet<String>> = std::sync::OnceLock::new();
    F.get_or_init(exported_functions).contains(name)
}

/// Macros of streamsim's prefixes that expand to function attributes, not constants: STREAMSIM_HD (vector_types.h,
/// `__host__ __device__` under a CUDA compiler, empty otherwise) marks the functions of vector_types.h and
/// vector_functions.h callable from device code.
const ANNOTATIONS: &[&str] = &["STREAMSIM_HD"];

/// Where each function and enumerator of streamsim's prefixes is declared, from the preprocessor's line
/// markers, and where each object-like macro with a value is defined (from the header text): name → headers.
fn declarations() -> BTreeMap<String, Vec<String>> {
    let root = include_dir();
    let (ok, code, err) = compile(ALL_HEADERS, Lang::C, &["-E"]);
    assert!(ok, "preprocessing every header:\n{err}");
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    // Split the output at the line markers (`# 12 "path" …`) into runs of one file.
    let mut runs: Vec<(String, String)> = Vec::new();
    for line in code.lines() {
        if let Some(rest) = line.strip_prefix("# ")
            && let Some((_, quoted)) = rest.split_once(" \"")
            && let Some((path, _)) = quoted.split_once('"')
        {
            let rel = Path::new(path)
                .canonicalize()
                .ok()
                .and_then(|p| {
                    p.strip_prefix(&root)
                        .ok()
                        .map(|r| r.to_string_lossy().into_owned())
                })
                .unwrap_or_default();
            runs.push((rel, String::new()));
        } else if let Some((_, text)) = runs.last_mut() {
            text.push_str(line);
            text.push('\n');
        }
    }
    // Join consecutive runs of a file (an #include inside a header splits its text).
    let mut by_file: BTreeMap<String, String> = BTreeMap::new();
    for (file, text) in runs {
        if !file.is_empty() {
            by_file.entry(file).or_default().push_str(&text);
        }
    }
    for (file, text) in &by_file {
        for stmt in top_level_statements(text) {
            if let Some(body) = enum_body(&stmt) {
                for item in body.split(',') {
                    let name = item.split('=').next().unwrap_or("").trim();
                    if ours(name) {
                        out.entry(name.to_string()).or_default().push(file.clone());
                    }
                }
            } else if !stmt.starts_with("typedef") && stmt.contains('(') {
                let (name, _) = parse_prototype(&stmt);
                if ours(&name) {
                    out.entry(name).or_default().push(file.clone());
                }
            }
        }
    }
    for h in every_header() {
        let text = std::fs::read_to_string(root.join(h)).expect("reading a header");
        for line in text.lines() {
            let Some(rest) = line.trim_start().strip_prefix("#define ") else {
                continue;
            };
            let mut words = rest.split_whitespace();
            let (Some(name), Some(_value)) = (words.next(), words.next()) else {
                continue; // a guard or marker
            };
            if ours(name) && !name.contains('(') && !ANNOTATIONS.contains(&name) {
                out.entry(name.to_string()).or_default().push(h.to_string());
            }
        }
    }
    out
}

/// Every function libstreamsim.so exports is declared in exactly one header, and every constant is defined in
/// exactly one, the header where the vendor has it: acl/acl_rt.h for the aclrt* and aclmdlRI* calls (CANN's
/// runtime declares its capture calls there too) except aclrtGetSocName (acl/acl_base_rt.h) and the pools
/// (acl/acl_rt_memory_soma.h); the ACL codes in acl/acl_base_rt.h, the runtime's in
/// acl/error_codes/rt_error_codes.h; cuda* functions in cuda_runtime_api.h, their types and constants in
/// driver_types.h; musa* in musa_runtime_api.h; the sim launches and the toolkit in streamsim.h.
#[test]
fn each_declaration_is_in_exactly_one_header_the_vendors() {
    let decls = declarations();
    assert!(
        decls.len() > 800,
        "only {} declarations found: the line markers were not followed",
        decls.len()
    );
    let mut wrong = Vec::new();
    for f in exported_functions() {
        // More than one header: reported below, with the constants.
        if !decls.contains_key(&f)
            && !crate::c_headers::CC_COMPILER_ENTRY_POINTS.contains(&f.as_str())
        {
            wrong.push(format!("{f}: exported, declared in no header"));
        }
    }
    for (name, files) in &decls {
        if crate::c_headers::CC_COMPILER_ENTRY_POINTS.contains(&name.as_str()) {
            continue;
        }
        if files.len() != 1 {
            wrong.push(format!("{name}: declared in {files:?}"));
        } else if files[0] != vendor_header(name) {
            wrong.push(format!(
                "{name}: in {}, the vendor's header is {}",
                files[0],
                vendor_header(name)
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The include guards and version macros programs test: CUDA's `__CUDA_RUNTIME_H__`, `__CUDA_RUNTIME_API_H__`,
/// `__DRIVER_TYPES_H__`, `__VECTOR_TYPES_H__`, `__VECTOR_FUNCTIONS_H__`, `__DEVICE_LAUNCH_PARAMETERS_H__`,
/// `__CUDA_FP16_H__`,
/// `CUDART_VERSION` 12080 (what cudaRuntimeGetVersion returns: `header_sets.c` checks it at run time) and `__CUDART_API_VERSION` = `CUDART_VERSION`; CANN's `INC_EXTERNAL_ACL_ACL_H_`,
/// `INC_EXTERNAL_ACL_ACL_RT_H_`, `INC_EXTERNAL_ACL_ACL_BASE_H_`, `__INC_EXTERNEL_RT_ERROR_CODES_H__`,
/// `INC_EXTERNAL_GE_GE_ERROR_CODES_H_`, `INC_EXTERNAL_ACL_RT_MEMORY_H_`, and `ACL_MAJOR_VERSION` 1,
/// `ACL_MINOR_VERSION` 17, `ACL_PATCH_VERSION` 0.
#[test]
fn the_guards_and_version_macros_are_the_vendors() {
    let (ok, macros, err) = compile(ALL_HEADERS, Lang::C, &["-dM", "-E"]);
    assert!(ok, "preprocessing every header:\n{err}");
    let defined: BTreeMap<&str, &str> = macros
        .lines()
        .filter_map(|l| l.strip_prefix("#define "))
        .map(|r| r.split_once(' ').unwrap_or((r, "")))
        .collect();
    let want = [
        ("__CUDA_RUNTIME_H__", ""),
        ("__CUDA_RUNTIME_API_H__", ""),
        ("__DRIVER_TYPES_H__", ""),
        ("__VECTOR_TYPES_H__", ""),
        ("__VECTOR_FUNCTIONS_H__", ""),
        ("__DEVICE_LAUNCH_PARAMETERS_H__", ""),
        ("__CUDA_FP16_H__", ""),
        ("CUDART_VERSION", "12080"),
        ("__CUDART_API_VERSION", "CUDART_VERSION"),
        ("INC_EXTERNAL_ACL_ACL_H_", ""),
        ("INC_EXTERNAL_ACL_ACL_RT_H_", ""),
        ("INC_EXTERNAL_ACL_ACL_BASE_H_", ""),
        ("INC_EXTERNAL_ACL_ACL_BASE_RT_H_", ""),
        ("__INC_EXTERNEL_RT_ERROR_CODES_H__", ""),
        ("INC_EXTERNAL_GE_GE_ERROR_CODES_H_", ""),
        ("INC_EXTERNAL_ACL_RT_MEMORY_H_", ""),
        ("ACL_MAJOR_VERSION", "1"),
        ("ACL_MINOR_VERSION", "17"),
        ("ACL_PATCH_VERSION", "0"),
    ];
    let wrong: Vec<String> = want
        .iter()
        .filter(|(name, value)| defined.get(name).map(|v| v.trim()) != Some(*value))
        .map(|(name, value)| format!("{name}: {:?}, expected {value:?}", defined.get(name)))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// tests/c/header_sets.c as C11 and C++17: every header by its vendor's name, the version macros against
/// cudaRuntimeGetVersion and aclrtGetVersion, cuda_fp16.h's conversions bit for bit on known values (and every
/// half through float and back), the vector types' layout, aclrtGetLastError / aclrtPeekAtLastError, the
/// capture's model handle from GetInfo and End, a SOMA pool.
#[test]
fn the_header_sets_program_runs() {
    for out in crate::c_programs::build_and_run("header_sets", "header_sets", &[], &[]) {
        assert!(out.contains("header sets: ok"), "{out}");
    }
}
