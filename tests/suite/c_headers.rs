//! The C headers (`include/`) against the Rust definitions, so that they cannot drift:
//! - every function a header declares is exported by `libstreamsim.so`, and every export is declared;
//! - every prototype has the Rust signature's parameter and return types (ABI classes: pointer, function
//!   pointer, 32-bit signed / unsigned, enum, size, 64-bit, float, 64-byte IPC handle);
//! - every constant a header defines (macro or enumerator) has a Rust constant of the same name and value, and
//!   every Rust constant of the facades and of `capi` is in a header;
//! - the structs have Rust's size and layout;
//! - a program that includes every header and takes the address of every declared function builds as C11 and
//!   as C++17 with `-Wall -Wextra -Werror -pedantic`, links, and prints those values.
//!
//! The headers are parsed after the C preprocessor (`cc -E`, `cc -dM -E`); the Rust definitions are read
//! from the sources (`src/facade/cuda_family.rs`, `src/facade/cuda_runtime.rs`, `src/facade/acl/`,
//! `src/facade/capi.rs`) and from the constants themselves.
#![allow(non_upper_case_globals, reason = "the vendor's constant names")]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use streamsim::{acl, capi, cuda, musa};

use crate::c_programs::{Lang, assert_success, compiler, flags, toolchain};

/// The prefixes of streamsim's C names.
const PREFIXES: &[&str] = &[
    "cuda",
    "CUDA_",
    "musa",
    "MUSA_",
    "acl",
    "ACL_",
    "streamsim",
    "STREAMSIM_",
];

pub(crate) fn ours(name: &str) -> bool {
    PREFIXES.iter().any(|p| name.starts_with(p))
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("reading {rel}: {e}"))
}

/// A translation unit that includes every header (the header sets of `c_header_sets`, cuda_fp16.h last).
pub(crate) const ALL_HEADERS: &str = "#include <cuda_runtime.h>\n#include <cuda_runtime_api.h>\n\
     #include <driver_types.h>\n#include <vector_types.h>\n#include <vector_functions.h>\n\
     #include <device_launch_parameters.h>\n\
     #include <cuda_profiler_api.h>\n#include <musa_runtime.h>\n#include <musa_runtime_api.h>\n\
     #include <musa_profiler_api.h>\n#include <acl/acl.h>\n#include <acl/acl_base.h>\n\
     #include <acl/acl_base_rt.h>\n#include <acl/acl_base_mdl.h>\n#include <acl/acl_rt.h>\n\
     #include <acl/acl_op.h>\n#include <acl/acl_mdl.h>\n#include <acl/acl_prof.h>\n\
     #include <acl/acl_rt_allocator.h>\n#include <acl/acl_rt_memory_soma.h>\n\
     #include <acl/error_codes/rt_error_codes.h>\n#include <acl/error_codes/ge_error_codes.h>\n\
     #include <streamsim.h>\n#include <cuda_fp16.h>\n";

/// Runs the C preprocessor on `ALL_HEADERS` with `extra` flags (`-E -P`, or `-dM -E`).
fn preprocess(extra: &[&str]) -> String {
    let t = toolchain();
    let src = t
        .out_dir
        .join(format!("all-headers-{}.c", std::process::id()));
    std::fs::write(&src, ALL_HEADERS).expect("writing the header TU");
    let out = Command::new(compiler(Lang::C))
        .args(flags(Lang::C))
        .arg("-I")
        .arg(&t.include_dir)
        .args(extra)
        .arg(&src)
        .output()
        .expect("running the C preprocessor");
    let _ = std::fs::remove_file(&src);
    assert!(
        out.status.success(),
        "preprocessing the headers failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 preprocessor output")
}

// ---------------------------------------------------------------------------------------------- C side

/// A prototype: return type and parameter types, as C spells them (names removed).
#[derive(Debug, Clone)]
pub(crate) struct CProto {
    pub(crate) ret: String,
    pub(crate) params: Vec<String>,
}

/// The headers, parsed once: prototypes and constant names.
pub(crate) struct Headers {
    pub(crate) protos: BTreeMap<String, CProto>,
    constants: BTreeSet<String>,
}

pub(crate) fn headers() -> &'static Headers {
    static H: OnceLock<Headers> = OnceLock::new();
    H.get_or_init(|| {
        let code = preprocess(&["-E", "-P"]);
        let mut protos = BTreeMap::new();
        let mut constants = BTreeSet::new();
        for stmt in top_level_statements(&code) {
            if let Some(body) = enum_body(&stmt) {
                for item in body.split(',') {
                    let name = item.split('=').next().unwrap_or("").trim();
                    if ours(name) {
                        constants.insert(name.to_string());
                    }
                }
            } else if !stmt.starts_with("typedef") && stmt.contains('(') {
                let (name, proto) = parse_prototype(&stmt);
                if ours(&name) {
                    assert!(
                        protos.insert(name.clone(), proto).is_none(),
                        "{name} is declared twice"
                    );
                }
            }
        }
        for line in preprocess(&["-dM", "-E"]).lines() {
            let Some(rest) = line.strip_prefix("#define ") else {
                continue;
            };
            let (name, value) = rest.split_once(' ').unwrap_or((rest, ""));
            // Include guards and markers have no value; function-like macros are not constants.
            if ours(name) && !name.contains('(') && !value.trim().is_empty() {
                constants.insert(name.to_string());
            }
        }
        Headers { protos, constants }
    })
}

/// The statements at brace depth 0 of preprocessed C, whitespace-normalised (a statement with a body, such as
/// `typedef enum X { … } X;`, keeps its body). Function definitions (a body after a parameter list: the static
/// inline functions of vector_functions.h and cuda_fp16.h) are skipped: each ends at its closing brace, not at the
/// next `;` (which is the next declaration's), and defines no function of the library.
pub(crate) fn top_level_statements(code: &str) -> Vec<String> {
    let normalise = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = Vec::new();
    let (mut cur, mut depth) = (String::new(), 0usize);
    // Whether the body open at depth 1 is a function's.
    let mut in_function = false;
    for ch in code.chars() {
        match ch {
            '{' => {
                if depth == 0 && cur.trim_end().ends_with(')') {
                    in_function = true;
                }
                depth += 1;
            }
            '}' => depth -= 1,
            _ => {}
        }
        if ch == '}' && depth == 0 && in_function {
            in_function = false;
            cur.clear();
        } else if ch == ';' && depth == 0 {
            out.push(normalise(&cur));
            cur.clear();
        } else {
            cur.push(ch);
        }
    }
    out
}

/// The enumerator list of a statement that defines an enum.
pub(crate) fn enum_body(stmt: &str) -> Option<&str> {
    let at = stmt.find("enum")?;
    let open = stmt[at..].find('{')? + at;
    let close = stmt.rfind('}')?;
    (stmt[..open]
        .trim_start_matches("typedef")
        .trim()
        .starts_with("enum"))
    .then(|| &stmt[open + 1..close])
}

/// Splits `s` at the commas outside parentheses.
fn split_top(s: &str) -> Vec<String> {
    let (mut out, mut cur, mut depth) = (Vec::new(), String::new(), 0i32);
    for ch in s.chars() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// `RET NAME(TYPE name, …)` → (NAME, prototype with the parameter names removed).
pub(crate) fn parse_prototype(stmt: &str) -> (String, CProto) {
    let open = stmt.find('(').expect("a parameter list");
    let close = stmt.rfind(')').expect("a parameter list");
    let head = stmt[..open].trim_end();
    let name_start = head.rfind(|c: char| !is_ident_char(c)).map_or(0, |i| i + 1);
    let name = head[name_start..].to_string();
    let ret = head[..name_start].trim().to_string();
    let params = split_top(&stmt[open + 1..close])
        .into_iter()
        .filter(|p| p != "void")
        .map(|p| {
            // Every parameter is named in the headers: drop the name (the last identifier).
            let cut = p.rfind(|c: char| !is_ident_char(c)).map_or(0, |i| i + 1);
            assert!(cut > 0, "{name}: parameter {p:?} has no name");
            p[..cut].trim().to_string()
        })
        .collect();
    (name, CProto { ret, params })
}

/// The ABI class of a C type.
fn c_class(ty: &str) -> &'static str {
    let ty = ty.trim();
    if ty.contains('*') {
        return "ptr";
    }
    let ty = ty.trim_start_matches("const ").trim();
    match ty {
        "void" => "void",
        "int" | "int32_t" | "aclError" => "i32",
        "aclFloat16" => "u16",
        "unsigned int" | "uint32_t" => "u32",
        "size_t" => "usize",
        "uint64_t" | "unsigned long long" => "u64",
        "int64_t" => "i64",
        "float" => "f32",
        "cudaError_t"
        | "musaError_t"
        | "enum cudaMemcpyKind"
        | "enum musaMemcpyKind"
        | "enum cudaDeviceAttr"
        | "enum musaDeviceAttr"
        | "enum cudaLimit"
        | "enum musaLimit"
        | "enum cudaMemPoolAttr"
        | "enum musaMemPoolAttr"
        | "aclrtMemcpyKind"
        | "aclrtMemMallocPolicy"
        | "aclrtDevAttr"
        | "aclrtStreamAttr"
        | "aclrtMemAttr"
        | "aclrtMemManagedAdviseType"
        | "aclrtMemManagedRangeAttribute"
        | "aclrtCallbackBlockType"
        | "enum cudaStreamCaptureMode"
        | "enum musaStreamCaptureMode"
        | "enum cudaDeviceP2PAttr"
        | "enum musaDeviceP2PAttr"
        | "aclmdlRICaptureMode"
        | "aclrtMemPoolAttr"
        | "aclrtLastErrLevel"
        | "aclDataType"
        | "aclCannAttr"
        | "aclDeviceInfo"
        | "streamsimError"
        | "streamsimDialect"
        | "streamsimApi" => "enum",
        // Managed memory: the advice and range attributes, and a location passed by value (8 bytes).
        "enum cudaMemoryAdvise"
        | "enum musaMemoryAdvise"
        | "enum cudaMemRangeAttribute"
        | "enum musaMemRangeAttribute" => "enum",
        "struct cudaMemLocation" | "struct musaMemLocation" | "aclrtMemManagedLocation" => "loc8",
        "cudaMemPool_t" | "musaMemPool_t" => "ptr",
        "cudaStream_t" | "cudaEvent_t" | "musaStream_t" | "musaEvent_t" | "aclrtStream"
        | "aclrtEvent" | "aclrtContext" | "aclrtNotify" | "streamsimMachine"
        | "streamsimProcess" | "aclrtMemPool" | "const aclrtMemPool" => "ptr",
        "cudaGraph_t" | "cudaGraphExec_t" | "cudaGraphNode_t" | "musaGraph_t"
        | "musaGraphExec_t" | "musaGraphNode_t" | "aclmdlRI" => "ptr",
        "cudaHostFn_t"
        | "musaHostFn_t"
        | "cudaStreamCallback_t"
        | "musaStreamCallback_t"
        | "aclrtHostFunc"
        | "aclrtCallback"
        | "streamsimKernelBody"
        | "streamsimFallibleKernelBody"
        | "streamsimKernelCtxBody" => "fnptr",
        "cudaIpcEventHandle_t"
        | "musaIpcEventHandle_t"
        | "aclrtIpcEventHandle"
        | "cudaIpcMemHandle_t"
        | "musaIpcMemHandle_t" => "ipc64",
        // Pitched memory's structs passed by value (cudaMalloc3D, cudaMemset3D).
        "struct cudaExtent" | "struct musaExtent" => "extent24",
        "struct cudaPitchedPtr" | "struct musaPitchedPtr" => "pitched32",
        "enum cudaMemAllocationHandleType" | "enum musaMemAllocationHandleType" => "enum",
        "enum cudaGraphMemAttributeType" | "enum musaGraphMemAttributeType" => "enum",
        other => panic!("c_headers: unknown C type {other:?}: add its ABI class to c_class"),
    }
}

// ---------------------------------------------------------------------------------------------- Rust side

/// A Rust signature: the types as written.
#[derive(Debug, Clone)]
struct RustSig {
    ret: String,
    params: Vec<String>,
}

/// The index of the parenthesis closing the one at `open`.
fn matching_paren(s: &str, open: usize) -> usize {
    let mut depth = 0;
    for (i, ch) in s[open..].char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return open + i;
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced parentheses");
}

/// `a: T, b: U` → [T, U].
fn rust_param_types(params: &str) -> Vec<String> {
    split_top(params)
        .into_iter()
        .map(|p| {
            let (_, ty) = p.split_once(':').expect("name: Type");
            ty.split_whitespace().collect::<Vec<_>>().join(" ")
        })
        .collect()
}

/// The text of the `{ … }` block that follows `marker` in `src`.
fn block<'s>(src: &'s str, marker: &str) -> &'s str {
    let at = src
        .find(marker)
        .unwrap_or_else(|| panic!("{marker:?} not found"));
    let open = src[at..].find('{').expect("a block") + at;
    let mut depth = 0;
    for (i, ch) in src[open..].char_indices() {
        match ch {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return &src[open + 1..open + i];
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced block after {marker:?}");
}

/// The `(cudaX, musaX)` entries at the start of the lines of a block of `cuda_family.rs`.
fn family_pairs(block: &str) -> Vec<(String, String, usize)> {
    let mut out = Vec::new();
    let mut offset = 0;
    for line in block.split_inclusive('\n') {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix('(')
            && let Some((pair, _)) = rest.split_once(')')
            && let [c, m, ..] = pair.split(',').map(str::trim).collect::<Vec<_>>()[..]
            && ours(c)
        {
            let at = offset + (line.len() - t.len()) + 1 + pair.len() + 1;
            out.push((c.to_string(), m.to_string(), at));
        }
        offset += line.len();
    }
    out
}

/// Every `#[unsafe(no_mangle)]` function of the Rust facades, by name.
fn rust_functions() -> &'static BTreeMap<String, RustSig> {
    static F: OnceLock<BTreeMap<String, RustSig>> = OnceLock::new();
    F.get_or_init(|| {
        let mut out = BTreeMap::new();
        // The CUDA / MUSA table: `(cudaX, musaX)(params) => imp(…);` returning cudaError_t, and the string
        // functions `(cudaGetErrorName, musaGetErrorName) => imp;`.
        let family = read("src/facade/cuda_family.rs");
        let fns = block(&family, "fns {");
        for (c, m, at) in family_pairs(fns) {
            let open = at + fns[at..].find('(').expect("a parameter list");
            let close = matching_paren(fns, open);
            let sig = RustSig {
                ret: "rt::Error".into(),
                params: rust_param_types(&fns[open + 1..close]),
            };
            out.insert(c, sig.clone());
            out.insert(m, sig);
        }
        for (c, m, _) in family_pairs(block(&family, "strings {")) {
            let sig = RustSig {
                ret: "*const c_char".into(),
                params: vec!["rt::Error".into()],
            };
            out.insert(c, sig.clone());
            out.insert(m, sig);
        }
        // Functions written out: `#[unsafe(no_mangle)] pub [unsafe] extern "C" fn name(params) -> ret {`.
        for file in [
            "src/facade/acl/mod.rs",
            "src/facade/acl/control.rs",
            "src/facade/acl/model.rs",
            "src/facade/acl/pool.rs",
            "src/facade/acl/managed.rs",
            "src/facade/capi.rs",
            "src/facade/kernel_ctx.rs",
            "src/facade/capi_toolkit.rs",
            "src/tools/c_trace.rs",
        ] {
            let src = read(file);
            let mut rest = src.as_str();
            while let Some(at) = rest.find("#[unsafe(no_mangle)]") {
                rest = &rest[at..];
                let fn_at = rest.find("fn ").expect("fn after no_mangle") + 3;
                let open = fn_at + rest[fn_at..].find('(').expect("a parameter list");
                let name = rest[fn_at..open].trim().to_string();
                let close = matching_paren(rest, open);
                let body = close + rest[close..].find('{').expect("a body");
                let ret = rest[close + 1..body]
                    .trim()
                    .trim_start_matches("->")
                    .trim()
                    .to_string();
                let sig = RustSig {
                    ret: if ret.is_empty() { "()".into() } else { ret },
                    params: rust_param_types(&rest[open + 1..close]),
                };
                assert!(out.insert(name.clone(), sig).is_none(), "{name} twice");
                rest = &rest[body..];
            }
        }
        out
    })
}

/// The ABI class of a Rust type of the facades.
fn rust_class(ty: &str) -> &'static str {
    let ty = ty.trim();
    if ty.starts_with('*') {
        return "ptr";
    }
    match ty {
        "()" => "void",
        "c_int" | "i32" | "aclError" | "aclDataType" | "aclCannAttr" | "aclDeviceInfo"
        | "streamsimError" | "streamsimDialect" | "streamsimApi" | "streamsimRaceMode" => "i32",
        "c_uint"
        | "u32"
        | "rt::Error"
        | "aclrtMemcpyKind"
        | "aclrtMemMallocPolicy"
        | "aclrtDevAttr"
        | "aclrtStreamAttr"
        | "aclrtMemAttr"
        | "aclrtMemManagedAdviseType"
        | "aclrtMemManagedRangeAttribute"
        | "aclrtCallbackBlockType"
        | "aclmdlRICaptureMode"
        | "aclrtMemPoolAttr"
        | "aclrtLastErrLevel" => "u32",
        "usize" => "usize",
        "u16" | "aclFloat16" => "u16",
        "u64" => "u64",
        "i64" => "i64",
        "f32" => "f32",
        "aclrtStream" | "aclrtEvent" | "aclrtContext" | "aclrtNotify" | "streamsimMachine"
        | "streamsimProcess" | "aclmdlRI" | "aclrtMemPool" => "ptr",
        "rt::HostFn"
        | "rt::StreamCallback"
        | "aclrtHostFunc"
        | "aclrtCallback"
        | "streamsimKernelBody"
        | "streamsimFallibleKernelBody"
        | "rt::KernelCtxBody"
        | "streamsimKernelCtxBody" => "fnptr",
        "rt::IpcEventHandleC" | "aclrtIpcEventHandle" | "rt::IpcMemHandleC" => "ipc64",
        "rt::MemLocation" | "aclrtMemManagedLocation" => "loc8",
        "rt::Extent" => "extent24",
        "rt::PitchedPtr" => "pitched32",
        other => panic!("c_headers: unknown Rust type {other:?}: add its ABI class to rust_class"),
    }
}

fn names<T>(m: &BTreeMap<String, T>) -> BTreeSet<String> {
    m.keys().cloned().collect()
}

/// Whether a C class and a Rust class are the same at the ABI (a C enum is a 32-bit integer).
fn same_class(c: &str, rust: &str) -> bool {
    c == rust || (c == "enum" && (rust == "i32" || rust == "u32"))
}

/// Every Rust constant of the C API, by name, as read from the sources.
fn rust_constant_names() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for file in [
        "src/facade/acl/types.rs",
        "src/facade/acl/managed.rs",
        "src/facade/capi.rs",
        "src/facade/capi_toolkit.rs",
    ] {
        for line in read(file).lines() {
            if let Some(rest) = line.trim_start().strip_prefix("pub const ") {
                let name = rest.split(':').next().expect("pub const NAME:").trim();
                out.insert(name.to_string());
            }
        }
    }
    let family = read("src/facade/cuda_family.rs");
    for marker in ["consts {", "handles {"] {
        for (c, m, _) in family_pairs(block(&family, marker)) {
            out.insert(c);
            out.insert(m);
        }
    }
    let runtime = read("src/facade/cuda_runtime.rs");
    for (c, m, _) in family_pairs(block(&runtime, "$($callback)*! {")) {
        out.insert(c);
        out.insert(m);
    }
    out
}

/// Every Rust constant of the C API with its value.
fn rust_constants() -> BTreeMap<&'static str, i128> {
    macro_rules! ints {
        ($($m:ident :: $name:ident),* $(,)?) => { vec![$((stringify!($name), $m::$name as i128)),*] };
    }
    macro_rules! ptrs {
        ($($m:ident :: $name:ident),* $(,)?) => { vec![$((stringify!($name), $m::$name as usize as i128)),*] };
    }
    let mut v = ints![
        cuda::cudaSuccess,
        cuda::cudaErrorInvalidValue,
        cuda::cudaErrorMemoryAllocation,
        cuda::cudaErrorInitializationError,
        cuda::cudaErrorInvalidConfiguration,
        cuda::cudaErrorInvalidSymbol,
        cuda::cudaErrorInvalidMemcpyDirection,
        cuda::cudaErrorNoDevice,
        cuda::cudaErrorInvalidDevice,
        cuda::cudaErrorDeviceUninitialized,
        cuda::cudaErrorMapBufferObjectFailed,
        cuda::cudaErrorInvalidResourceHandle,
        cuda::cudaErrorNotReady,
        cuda::cudaErrorIllegalAddress,
        cuda::cudaErrorPeerAccessAlreadyEnabled,
        cuda::cudaErrorPeerAccessNotEnabled,
        cuda::cudaErrorContextIsDestroyed,
        cuda::cudaErrorAssert,
        cuda::cudaErrorMisalignedAddress,
        cuda::cudaErrorTooManyPeers,
        cuda::cudaErrorLaunchFailure,
        cuda::cudaErrorCooperativeLaunchTooLarge,
        cuda::cudaErrorNotPermitted,
        cuda::cudaErrorNotSupported,
        cuda::cudaErrorTimeout,
        cuda::cudaErrorUnknown,
        cuda::cudaEventDefault,
        cuda::cudaEventBlockingSync,
        cuda::cudaEventDisableTiming,
        cuda::cudaEventInterprocess,
        cuda::cudaEventRecordDefault,
        cuda::cudaEventWaitDefault,
        cuda::cudaStreamDefault,
        cuda::cudaStreamNonBlocking,
        cuda::cudaMemcpyHostToHost,
        cuda::cudaMemcpyHostToDevice,
        cuda::cudaMemcpyDeviceToHost,
        cuda::cudaMemcpyDeviceToDevice,
        cuda::cudaMemcpyDefault,
        cuda::cudaDevAttrWarpSize,
        cuda::cudaDevAttrMultiProcessorCount,
        cuda::CUDA_IPC_HANDLE_SIZE,
        cuda::cudaDevAttrMaxThreadsPerBlock,
        cuda::cudaDevAttrMaxBlockDimX,
        cuda::cudaDevAttrMaxBlockDimY,
        cuda::cudaDevAttrMaxBlockDimZ,
        cuda::cudaDevAttrMaxGridDimX,
        cuda::cudaDevAttrMaxGridDimY,
        cuda::cudaDevAttrMaxGridDimZ,
        cuda::cudaDevAttrMaxSharedMemoryPerBlock,
        cuda::cudaDevAttrTotalConstantMemory,
        cuda::cudaDevAttrMaxPitch,
        cuda::cudaDevAttrMaxRegistersPerBlock,
        cuda::cudaDevAttrClockRate,
        cuda::cudaDevAttrTextureAlignment,
        cuda::cudaDevAttrGpuOverlap,
        cuda::cudaDevAttrKernelExecTimeout,
        cuda::cudaDevAttrIntegrated,
        cuda::cudaDevAttrCanMapHostMemory,
        cuda::cudaDevAttrComputeMode,
        cuda::cudaDevAttrMaxTexture1DWidth,
        cuda::cudaDevAttrMaxTexture2DWidth,
        cuda::cudaDevAttrMaxTexture2DHeight,
        cuda::cudaDevAttrMaxTexture3DWidth,
        cuda::cudaDevAttrMaxTexture3DHeight,
        cuda::cudaDevAttrMaxTexture3DDepth,
        cuda::cudaDevAttrMaxTexture2DLayeredWidth,
        cuda::cudaDevAttrMaxTexture2DLayeredHeight,
        cuda::cudaDevAttrMaxTexture2DLayeredLayers,
        cuda::cudaDevAttrSurfaceAlignment,
        cuda::cudaDevAttrConcurrentKernels,
        cuda::cudaDevAttrEccEnabled,
        cuda::cudaDevAttrPciBusId,
        cuda::cudaDevAttrPciDeviceId,
        cuda::cudaDevAttrTccDriver,
        cuda::cudaDevAttrMemoryClockRate,
        cuda::cudaDevAttrGlobalMemoryBusWidth,
        cuda::cudaDevAttrL2CacheSize,
        cuda::cudaDevAttrMaxThreadsPerMultiProcessor,
        cuda::cudaDevAttrAsyncEngineCount,
        cuda::cudaDevAttrUnifiedAddressing,
        cuda::cudaDevAttrMaxTexture1DLayeredWidth,
        cuda::cudaDevAttrMaxTexture1DLayeredLayers,
        cuda::cudaDevAttrMaxTexture2DGatherWidth,
        cuda::cudaDevAttrMaxTexture2DGatherHeight,
        cuda::cudaDevAttrMaxTexture3DWidthAlt,
        cuda::cudaDevAttrMaxTexture3DHeightAlt,
        cuda::cudaDevAttrMaxTexture3DDepthAlt,
        cuda::cudaDevAttrPciDomainId,
        cuda::cudaDevAttrTexturePitchAlignment,
        cuda::cudaDevAttrMaxTextureCubemapWidth,
        cuda::cudaDevAttrMaxTextureCubemapLayeredWidth,
        cuda::cudaDevAttrMaxTextureCubemapLayeredLayers,
        cuda::cudaDevAttrMaxSurface1DWidth,
        cuda::cudaDevAttrMaxSurface2DWidth,
        cuda::cudaDevAttrMaxSurface2DHeight,
        cuda::cudaDevAttrMaxSurface3DWidth,
        cuda::cudaDevAttrMaxSurface3DHeight,
        cuda::cudaDevAttrMaxSurface3DDepth,
        cuda::cudaDevAttrMaxSurface1DLayeredWidth,
        cuda::cudaDevAttrMaxSurface1DLayeredLayers,
        cuda::cudaDevAttrMaxSurface2DLayeredWidth,
        cuda::cudaDevAttrMaxSurface2DLayeredHeight,
        cuda::cudaDevAttrMaxSurface2DLayeredLayers,
        cuda::cudaDevAttrMaxSurfaceCubemapWidth,
        cuda::cudaDevAttrMaxSurfaceCubemapLayeredWidth,
        cuda::cudaDevAttrMaxSurfaceCubemapLayeredLayers,
        cuda::cudaDevAttrMaxTexture1DLinearWidth,
        cuda::cudaDevAttrMaxTexture2DLinearWidth,
        cuda::cudaDevAttrMaxTexture2DLinearHeight,
        cuda::cudaDevAttrMaxTexture2DLinearPitch,
        cuda::cudaDevAttrMaxTexture2DMipmappedWidth,
        cuda::cudaDevAttrMaxTexture2DMipmappedHeight,
        cuda::cudaDevAttrComputeCapabilityMajor,
        cuda::cudaDevAttrComputeCapabilityMinor,
        cuda::cudaDevAttrMaxTexture1DMipmappedWidth,
        cuda::cudaDevAttrStreamPrioritiesSupported,
        cuda::cudaDevAttrGlobalL1CacheSupported,
        cuda::cudaDevAttrLocalL1CacheSupported,
        cuda::cudaDevAttrMaxSharedMemoryPerMultiprocessor,
        cuda::cudaDevAttrMaxRegistersPerMultiprocessor,
        cuda::cudaDevAttrManagedMemory,
        cuda::cudaDevAttrIsMultiGpuBoard,
        cuda::cudaDevAttrMultiGpuBoardGroupID,
        cuda::cudaDevAttrHostNativeAtomicSupported,
        cuda::cudaDevAttrSingleToDoublePrecisionPerfRatio,
        cuda::cudaDevAttrPageableMemoryAccess,
        cuda::cudaDevAttrConcurrentManagedAccess,
        cuda::cudaDevAttrComputePreemptionSupported,
        cuda::cudaDevAttrCanUseHostPointerForRegisteredMem,
        cuda::cudaDevAttrCooperativeLaunch,
        cuda::cudaDevAttrCooperativeMultiDeviceLaunch,
        cuda::cudaDevAttrMaxSharedMemoryPerBlockOptin,
        cuda::cudaDevAttrCanFlushRemoteWrites,
        cuda::cudaDevAttrHostRegisterSupported,
        cuda::cudaDevAttrPageableMemoryAccessUsesHostPageTables,
        cuda::cudaDevAttrDirectManagedMemAccessFromHost,
        cuda::cudaDevAttrMaxBlocksPerMultiprocessor,
        cuda::cudaDevAttrMaxPersistingL2CacheSize,
        cuda::cudaDevAttrMaxAccessPolicyWindowSize,
        cuda::cudaDevAttrSparseCudaArraySupported,
        cuda::cudaDevAttrHostRegisterReadOnlySupported,
        cuda::cudaDevAttrTimelineSemaphoreInteropSupported,
        cuda::cudaDevAttrMaxTimelineSemaphoreInteropSupported,
        cuda::cudaDevAttrMemoryPoolsSupported,
        cuda::cudaDevAttrGPUDirectRDMASupported,
        cuda::cudaDevAttrGPUDirectRDMAFlushWritesOptions,
        cuda::cudaDevAttrGPUDirectRDMAWritesOrdering,
        cuda::cudaDevAttrMemoryPoolSupportedHandleTypes,
        cuda::cudaDevAttrClusterLaunch,
        cuda::cudaDevAttrDeferredMappingCudaArraySupported,
        cuda::cudaDevAttrIpcEventSupport,
        cuda::cudaIpcMemLazyEnablePeerAccess,
        cuda::cudaDevAttrMemSyncDomainCount,
        cuda::cudaDevAttrNumaConfig,
        cuda::cudaDevAttrNumaId,
        cuda::cudaDevAttrMpsEnabled,
        cuda::cudaDevAttrHostNumaId,
        cuda::cudaDevAttrD3D12CigSupported,
        cuda::cudaHostAllocDefault,
        cuda::cudaHostAllocPortable,
        cuda::cudaHostAllocMapped,
        cuda::cudaHostAllocWriteCombined,
        cuda::cudaHostRegisterDefault,
        cuda::cudaHostRegisterPortable,
        cuda::cudaHostRegisterMapped,
        cuda::cudaHostRegisterIoMemory,
        cuda::cudaHostRegisterReadOnly,
        cuda::cudaEventRecordExternal,
        cuda::cudaEventWaitExternal,
        cuda::cudaDeviceScheduleAuto,
        cuda::cudaDeviceScheduleSpin,
        cuda::cudaDeviceScheduleYield,
        cuda::cudaDeviceScheduleBlockingSync,
        cuda::cudaDeviceBlockingSync,
        cuda::cudaDeviceScheduleMask,
        cuda::cudaDeviceMapHost,
        cuda::cudaDeviceLmemResizeToMax,
        cuda::cudaDeviceSyncMemops,
        cuda::cudaDeviceMask,
        cuda::cudaOccupancyDefault,
        cuda::cudaOccupancyDisableCachingOverride,
        cuda::cudaLimitStackSize,
        cuda::cudaLimitPrintfFifoSize,
        cuda::cudaLimitMallocHeapSize,
        cuda::cudaLimitDevRuntimeSyncDepth,
        cuda::cudaLimitDevRuntimePendingLaunchCount,
        cuda::cudaLimitMaxL2FetchGranularity,
        cuda::cudaLimitPersistingL2CacheSize,
        cuda::cudaMemoryTypeUnregistered,
        cuda::cudaMemoryTypeHost,
        cuda::cudaMemoryTypeDevice,
        cuda::cudaMemoryTypeManaged,
        cuda::cudaComputeModeDefault,
        cuda::cudaComputeModeExclusive,
        cuda::cudaComputeModeProhibited,
        cuda::cudaComputeModeExclusiveProcess,
        cuda::cudaCpuDeviceId,
        cuda::cudaInvalidDeviceId,
        cuda::cudaErrorInvalidDeviceFunction,
        cuda::cudaErrorUnsupportedLimit,
        cuda::cudaErrorHostMemoryAlreadyRegistered,
        cuda::cudaErrorHostMemoryNotRegistered,
        cuda::cudaErrorIllegalState,
        cuda::cudaErrorStreamCaptureUnsupported,
        cuda::cudaErrorStreamCaptureInvalidated,
        cuda::cudaErrorStreamCaptureMerge,
        cuda::cudaErrorStreamCaptureUnmatched,
        cuda::cudaErrorStreamCaptureUnjoined,
        cuda::cudaErrorStreamCaptureIsolation,
        cuda::cudaErrorStreamCaptureImplicit,
        cuda::cudaErrorCapturedEvent,
        cuda::cudaErrorStreamCaptureWrongThread,
        cuda::cudaStreamCaptureModeGlobal,
        cuda::cudaDevP2PAttrPerformanceRank,
        cuda::cudaDevP2PAttrAccessSupported,
        cuda::cudaDevP2PAttrNativeAtomicSupported,
        cuda::cudaDevP2PAttrCudaArrayAccessSupported,
        cuda::cudaDevP2PAttrOnlyPartialNativeAtomicSupported,
        cuda::cudaFuncAttributeMaxDynamicSharedMemorySize,
        cuda::cudaFuncAttributePreferredSharedMemoryCarveout,
        cuda::cudaStreamCaptureModeThreadLocal,
        cuda::cudaStreamCaptureModeRelaxed,
        cuda::cudaStreamCaptureStatusNone,
        cuda::cudaStreamCaptureStatusActive,
        cuda::cudaStreamCaptureStatusInvalidated,
        cuda::cudaStreamAddCaptureDependencies,
        cuda::cudaStreamSetCaptureDependencies,
        cuda::cudaGraphNodeTypeKernel,
        cuda::cudaGraphNodeTypeMemcpy,
        cuda::cudaGraphNodeTypeMemset,
        cuda::cudaGraphNodeTypeHost,
        cuda::cudaGraphNodeTypeGraph,
        cuda::cudaGraphNodeTypeEmpty,
        cuda::cudaGraphNodeTypeWaitEvent,
        cuda::cudaGraphNodeTypeEventRecord,
        cuda::cudaGraphNodeTypeMemAlloc,
        cuda::cudaGraphNodeTypeMemFree,
        cuda::cudaGraphMemAttrUsedMemCurrent,
        cuda::cudaGraphMemAttrUsedMemHigh,
        cuda::cudaGraphMemAttrReservedMemCurrent,
        cuda::cudaGraphMemAttrReservedMemHigh,
        cuda::cudaGraphInstantiateFlagAutoFreeOnLaunch,
        cuda::cudaGraphInstantiateFlagUpload,
        cuda::cudaGraphInstantiateFlagDeviceLaunch,
        cuda::cudaGraphInstantiateFlagUseNodePriority,
        cuda::cudaGraphDebugDotFlagsVerbose,
        // Graphs built by hand.
        cuda::cudaErrorGraphExecUpdateFailure,
        cuda::cudaGraphExecUpdateSuccess,
        cuda::cudaGraphExecUpdateError,
        cuda::cudaGraphExecUpdateErrorTopologyChanged,
        cuda::cudaGraphExecUpdateErrorNodeTypeChanged,
        cuda::cudaGraphExecUpdateErrorFunctionChanged,
        cuda::cudaGraphExecUpdateErrorParametersChanged,
        cuda::cudaGraphExecUpdateErrorNotSupported,
        cuda::cudaGraphExecUpdateErrorUnsupportedFunctionChange,
        cuda::cudaGraphExecUpdateErrorAttributesChanged,
        cuda::cudaGraphInstantiateSuccess,
        cuda::cudaGraphInstantiateError,
        cuda::cudaGraphInstantiateInvalidStructure,
        cuda::cudaGraphInstantiateNodeOperationNotSupported,
        cuda::cudaGraphInstantiateMultipleDevicesNotSupported,
        musa::musaErrorGraphExecUpdateFailure,
        musa::musaGraphExecUpdateSuccess,
        musa::musaGraphExecUpdateError,
        musa::musaGraphExecUpdateErrorTopologyChanged,
        musa::musaGraphExecUpdateErrorNodeTypeChanged,
        musa::musaGraphExecUpdateErrorFunctionChanged,
        musa::musaGraphExecUpdateErrorParametersChanged,
        musa::musaGraphExecUpdateErrorNotSupported,
        musa::musaGraphExecUpdateErrorUnsupportedFunctionChange,
        musa::musaGraphExecUpdateErrorAttributesChanged,
        musa::musaGraphInstantiateSuccess,
        musa::musaGraphInstantiateError,
        musa::musaGraphInstantiateInvalidStructure,
        musa::musaGraphInstantiateNodeOperationNotSupported,
        musa::musaGraphInstantiateMultipleDevicesNotSupported,
        musa::musaErrorIllegalState,
        musa::musaErrorStreamCaptureUnsupported,
        musa::musaErrorStreamCaptureInvalidated,
        musa::musaErrorStreamCaptureMerge,
        musa::musaErrorStreamCaptureUnmatched,
        musa::musaErrorStreamCaptureUnjoined,
        musa::musaErrorStreamCaptureIsolation,
        musa::musaErrorStreamCaptureImplicit,
        musa::musaErrorCapturedEvent,
        musa::musaErrorStreamCaptureWrongThread,
        musa::musaStreamCaptureModeGlobal,
        musa::musaDevP2PAttrPerformanceRank,
        musa::musaDevP2PAttrAccessSupported,
        musa::musaDevP2PAttrNativeAtomicSupported,
        musa::musaDevP2PAttrCudaArrayAccessSupported,
        musa::musaDevP2PAttrOnlyPartialNativeAtomicSupported,
        musa::musaFuncAttributeMaxDynamicSharedMemorySize,
        musa::musaFuncAttributePreferredSharedMemoryCarveout,
        musa::musaStreamCaptureModeThreadLocal,
        musa::musaStreamCaptureModeRelaxed,
        musa::musaStreamCaptureStatusNone,
        musa::musaStreamCaptureStatusActive,
        musa::musaStreamCaptureStatusInvalidated,
        musa::musaStreamAddCaptureDependencies,
        musa::musaStreamSetCaptureDependencies,
        musa::musaGraphNodeTypeKernel,
        musa::musaGraphNodeTypeMemcpy,
        musa::musaGraphNodeTypeMemset,
        musa::musaGraphNodeTypeHost,
        musa::musaGraphNodeTypeGraph,
        musa::musaGraphNodeTypeEmpty,
        musa::musaGraphNodeTypeWaitEvent,
        musa::musaGraphNodeTypeEventRecord,
        musa::musaGraphNodeTypeMemAlloc,
        musa::musaGraphNodeTypeMemFree,
        musa::musaGraphMemAttrUsedMemCurrent,
        musa::musaGraphMemAttrUsedMemHigh,
        musa::musaGraphMemAttrReservedMemCurrent,
        musa::musaGraphMemAttrReservedMemHigh,
        musa::musaGraphInstantiateFlagAutoFreeOnLaunch,
        musa::musaGraphInstantiateFlagUpload,
        musa::musaGraphInstantiateFlagDeviceLaunch,
        musa::musaGraphInstantiateFlagUseNodePriority,
        musa::musaGraphDebugDotFlagsVerbose,
        cuda::cudaMemPoolReuseFollowEventDependencies,
        cuda::cudaMemPoolReuseAllowOpportunistic,
        cuda::cudaMemPoolReuseAllowInternalDependencies,
        cuda::cudaMemPoolAttrReleaseThreshold,
        cuda::cudaMemPoolAttrReservedMemCurrent,
        cuda::cudaMemPoolAttrReservedMemHigh,
        cuda::cudaMemPoolAttrUsedMemCurrent,
        cuda::cudaMemPoolAttrUsedMemHigh,
        cuda::cudaMemAllocationTypeInvalid,
        cuda::cudaMemAllocationTypePinned,
        cuda::cudaMemAllocationTypeManaged,
        cuda::cudaMemAllocationTypeMax,
        cuda::cudaMemHandleTypeNone,
        cuda::cudaMemHandleTypePosixFileDescriptor,
        cuda::cudaMemHandleTypeWin32,
        cuda::cudaMemHandleTypeWin32Kmt,
        cuda::cudaMemHandleTypeFabric,
        cuda::cudaMemLocationTypeInvalid,
        cuda::cudaMemLocationTypeDevice,
        cuda::cudaMemLocationTypeHost,
        cuda::cudaMemLocationTypeHostNuma,
        cuda::cudaMemLocationTypeHostNumaCurrent,
        // Pitched memory and pool access.
        cuda::cudaErrorInvalidPitchValue,
        cuda::cudaMemAccessFlagsProtNone,
        cuda::cudaMemAccessFlagsProtRead,
        cuda::cudaMemAccessFlagsProtReadWrite,
        cuda::cudaLaunchAttributeIgnore,
        cuda::cudaLaunchAttributeAccessPolicyWindow,
        cuda::cudaLaunchAttributeCooperative,
        cuda::cudaLaunchAttributeSynchronizationPolicy,
        cuda::cudaLaunchAttributeClusterDimension,
        cuda::cudaLaunchAttributeClusterSchedulingPolicyPreference,
        cuda::cudaLaunchAttributeProgrammaticStreamSerialization,
        cuda::cudaLaunchAttributeProgrammaticEvent,
        cuda::cudaLaunchAttributePriority,
        cuda::cudaLaunchAttributeMemSyncDomainMap,
        cuda::cudaLaunchAttributeMemSyncDomain,
        musa::musaErrorInvalidPitchValue,
        musa::musaMemAccessFlagsProtNone,
        musa::musaMemAccessFlagsProtRead,
        musa::musaMemAccessFlagsProtReadWrite,
        musa::musaLaunchAttributeIgnore,
        musa::musaLaunchAttributeAccessPolicyWindow,
        musa::musaLaunchAttributeCooperative,
        musa::musaLaunchAttributeSynchronizationPolicy,
        musa::musaLaunchAttributeClusterDimension,
        musa::musaLaunchAttributeClusterSchedulingPolicyPreference,
        musa::musaLaunchAttributeProgrammaticStreamSerialization,
        musa::musaLaunchAttributeProgrammaticEvent,
        musa::musaLaunchAttributePriority,
        musa::musaLaunchAttributeMemSyncDomainMap,
        musa::musaLaunchAttributeMemSyncDomain,
        musa::musaMemPoolReuseFollowEventDependencies,
        musa::musaMemPoolReuseAllowOpportunistic,
        musa::musaMemPoolReuseAllowInternalDependencies,
        musa::musaMemPoolAttrReleaseThreshold,
        musa::musaMemPoolAttrReservedMemCurrent,
        musa::musaMemPoolAttrReservedMemHigh,
        musa::musaMemPoolAttrUsedMemCurrent,
        musa::musaMemPoolAttrUsedMemHigh,
        musa::musaMemAllocationTypeInvalid,
        musa::musaMemAllocationTypePinned,
        musa::musaMemAllocationTypeManaged,
        musa::musaMemAllocationTypeMax,
        musa::musaMemHandleTypeNone,
        musa::musaMemHandleTypePosixFileDescriptor,
        musa::musaMemHandleTypeWin32,
        musa::musaMemHandleTypeWin32Kmt,
        musa::musaMemHandleTypeFabric,
        musa::musaMemLocationTypeInvalid,
        musa::musaMemLocationTypeDevice,
        musa::musaMemLocationTypeHost,
        musa::musaMemLocationTypeHostNuma,
        musa::musaMemLocationTypeHostNumaCurrent,
        // Managed memory.
        cuda::cudaMemAttachGlobal,
        cuda::cudaMemAttachHost,
        cuda::cudaMemAttachSingle,
        cuda::cudaMemAdviseSetReadMostly,
        cuda::cudaMemAdviseUnsetReadMostly,
        cuda::cudaMemAdviseSetPreferredLocation,
        cuda::cudaMemAdviseUnsetPreferredLocation,
        cuda::cudaMemAdviseSetAccessedBy,
        cuda::cudaMemAdviseUnsetAccessedBy,
        cuda::cudaMemRangeAttributeReadMostly,
        cuda::cudaMemRangeAttributePreferredLocation,
        cuda::cudaMemRangeAttributeAccessedBy,
        cuda::cudaMemRangeAttributeLastPrefetchLocation,
        cuda::cudaMemRangeAttributePreferredLocationType,
        cuda::cudaMemRangeAttributePreferredLocationId,
        cuda::cudaMemRangeAttributeLastPrefetchLocationType,
        cuda::cudaMemRangeAttributeLastPrefetchLocationId,
        musa::musaMemAttachGlobal,
        musa::musaMemAttachHost,
        musa::musaMemAttachSingle,
        musa::musaMemAdviseSetReadMostly,
        musa::musaMemAdviseUnsetReadMostly,
        musa::musaMemAdviseSetPreferredLocation,
        musa::musaMemAdviseUnsetPreferredLocation,
        musa::musaMemAdviseSetAccessedBy,
        musa::musaMemAdviseUnsetAccessedBy,
        musa::musaMemRangeAttributeReadMostly,
        musa::musaMemRangeAttributePreferredLocation,
        musa::musaMemRangeAttributeAccessedBy,
        musa::musaMemRangeAttributeLastPrefetchLocation,
        musa::musaMemRangeAttributePreferredLocationType,
        musa::musaMemRangeAttributePreferredLocationId,
        musa::musaMemRangeAttributeLastPrefetchLocationType,
        musa::musaMemRangeAttributeLastPrefetchLocationId,
        musa::musaSuccess,
        musa::musaErrorInvalidValue,
        musa::musaErrorMemoryAllocation,
        musa::musaErrorInitializationError,
        musa::musaErrorInvalidConfiguration,
        musa::musaErrorInvalidSymbol,
        musa::musaErrorInvalidMemcpyDirection,
        musa::musaErrorNoDevice,
        musa::musaErrorInvalidDevice,
        musa::musaErrorDeviceUninitialized,
        musa::musaErrorMapBufferObjectFailed,
        musa::musaErrorInvalidResourceHandle,
        musa::musaErrorNotReady,
        musa::musaErrorIllegalAddress,
        musa::musaErrorPeerAccessAlreadyEnabled,
        musa::musaErrorPeerAccessNotEnabled,
        musa::musaErrorContextIsDestroyed,
        musa::musaErrorAssert,
        musa::musaErrorMisalignedAddress,
        musa::musaErrorTooManyPeers,
        musa::musaErrorLaunchFailure,
        musa::musaErrorCooperativeLaunchTooLarge,
        musa::musaErrorNotPermitted,
        musa::musaErrorNotSupported,
        musa::musaErrorTimeout,
        musa::musaErrorUnknown,
        musa::musaEventDefault,
        musa::musaEventBlockingSync,
        musa::musaEventDisableTiming,
        musa::musaEventInterprocess,
        musa::musaEventRecordDefault,
        musa::musaEventWaitDefault,
        musa::musaStreamDefault,
        musa::musaStreamNonBlocking,
        musa::musaMemcpyHostToHost,
        musa::musaMemcpyHostToDevice,
        musa::musaMemcpyDeviceToHost,
        musa::musaMemcpyDeviceToDevice,
        musa::musaMemcpyDefault,
        musa::musaDevAttrWarpSize,
        musa::musaDevAttrMultiProcessorCount,
        musa::MUSA_IPC_HANDLE_SIZE,
        musa::musaDevAttrMaxThreadsPerBlock,
        musa::musaDevAttrMaxBlockDimX,
        musa::musaDevAttrMaxBlockDimY,
        musa::musaDevAttrMaxBlockDimZ,
        musa::musaDevAttrMaxGridDimX,
        musa::musaDevAttrMaxGridDimY,
        musa::musaDevAttrMaxGridDimZ,
        musa::musaDevAttrMaxSharedMemoryPerBlock,
        musa::musaDevAttrTotalConstantMemory,
        musa::musaDevAttrMaxPitch,
        musa::musaDevAttrMaxRegistersPerBlock,
        musa::musaDevAttrClockRate,
        musa::musaDevAttrTextureAlignment,
        musa::musaDevAttrGpuOverlap,
        musa::musaDevAttrKernelExecTimeout,
        musa::musaDevAttrIntegrated,
        musa::musaDevAttrCanMapHostMemory,
        musa::musaDevAttrComputeMode,
        musa::musaDevAttrMaxTexture1DWidth,
        musa::musaDevAttrMaxTexture2DWidth,
        musa::musaDevAttrMaxTexture2DHeight,
        musa::musaDevAttrMaxTexture3DWidth,
        musa::musaDevAttrMaxTexture3DHeight,
        musa::musaDevAttrMaxTexture3DDepth,
        musa::musaDevAttrMaxTexture2DLayeredWidth,
        musa::musaDevAttrMaxTexture2DLayeredHeight,
        musa::musaDevAttrMaxTexture2DLayeredLayers,
        musa::musaDevAttrSurfaceAlignment,
        musa::musaDevAttrConcurrentKernels,
        musa::musaDevAttrEccEnabled,
        musa::musaDevAttrPciBusId,
        musa::musaDevAttrPciDeviceId,
        musa::musaDevAttrTccDriver,
        musa::musaDevAttrMemoryClockRate,
        musa::musaDevAttrGlobalMemoryBusWidth,
        musa::musaDevAttrL2CacheSize,
        musa::musaDevAttrMaxThreadsPerMultiProcessor,
        musa::musaDevAttrAsyncEngineCount,
        musa::musaDevAttrUnifiedAddressing,
        musa::musaDevAttrMaxTexture1DLayeredWidth,
        musa::musaDevAttrMaxTexture1DLayeredLayers,
        musa::musaDevAttrMaxTexture2DGatherWidth,
        musa::musaDevAttrMaxTexture2DGatherHeight,
        musa::musaDevAttrMaxTexture3DWidthAlt,
        musa::musaDevAttrMaxTexture3DHeightAlt,
        musa::musaDevAttrMaxTexture3DDepthAlt,
        musa::musaDevAttrPciDomainId,
        musa::musaDevAttrTexturePitchAlignment,
        musa::musaDevAttrMaxTextureCubemapWidth,
        musa::musaDevAttrMaxTextureCubemapLayeredWidth,
        musa::musaDevAttrMaxTextureCubemapLayeredLayers,
        musa::musaDevAttrMaxSurface1DWidth,
        musa::musaDevAttrMaxSurface2DWidth,
        musa::musaDevAttrMaxSurface2DHeight,
        musa::musaDevAttrMaxSurface3DWidth,
        musa::musaDevAttrMaxSurface3DHeight,
        musa::musaDevAttrMaxSurface3DDepth,
        musa::musaDevAttrMaxSurface1DLayeredWidth,
        musa::musaDevAttrMaxSurface1DLayeredLayers,
        musa::musaDevAttrMaxSurface2DLayeredWidth,
        musa::musaDevAttrMaxSurface2DLayeredHeight,
        musa::musaDevAttrMaxSurface2DLayeredLayers,
        musa::musaDevAttrMaxSurfaceCubemapWidth,
        musa::musaDevAttrMaxSurfaceCubemapLayeredWidth,
        musa::musaDevAttrMaxSurfaceCubemapLayeredLayers,
        musa::musaDevAttrMaxTexture1DLinearWidth,
        musa::musaDevAttrMaxTexture2DLinearWidth,
        musa::musaDevAttrMaxTexture2DLinearHeight,
        musa::musaDevAttrMaxTexture2DLinearPitch,
        musa::musaDevAttrMaxTexture2DMipmappedWidth,
        musa::musaDevAttrMaxTexture2DMipmappedHeight,
        musa::musaDevAttrComputeCapabilityMajor,
        musa::musaDevAttrComputeCapabilityMinor,
        musa::musaDevAttrMaxTexture1DMipmappedWidth,
        musa::musaDevAttrStreamPrioritiesSupported,
        musa::musaDevAttrGlobalL1CacheSupported,
        musa::musaDevAttrLocalL1CacheSupported,
        musa::musaDevAttrMaxSharedMemoryPerMultiprocessor,
        musa::musaDevAttrMaxRegistersPerMultiprocessor,
        musa::musaDevAttrManagedMemory,
        musa::musaDevAttrIsMultiGpuBoard,
        musa::musaDevAttrMultiGpuBoardGroupID,
        musa::musaDevAttrHostNativeAtomicSupported,
        musa::musaDevAttrSingleToDoublePrecisionPerfRatio,
        musa::musaDevAttrPageableMemoryAccess,
        musa::musaDevAttrConcurrentManagedAccess,
        musa::musaDevAttrComputePreemptionSupported,
        musa::musaDevAttrCanUseHostPointerForRegisteredMem,
        musa::musaDevAttrCooperativeLaunch,
        musa::musaDevAttrCooperativeMultiDeviceLaunch,
        musa::musaDevAttrMaxSharedMemoryPerBlockOptin,
        musa::musaDevAttrCanFlushRemoteWrites,
        musa::musaDevAttrHostRegisterSupported,
        musa::musaDevAttrPageableMemoryAccessUsesHostPageTables,
        musa::musaDevAttrDirectManagedMemAccessFromHost,
        musa::musaDevAttrMaxBlocksPerMultiprocessor,
        musa::musaDevAttrMaxPersistingL2CacheSize,
        musa::musaDevAttrMaxAccessPolicyWindowSize,
        musa::musaDevAttrSparseCudaArraySupported,
        musa::musaDevAttrHostRegisterReadOnlySupported,
        musa::musaDevAttrTimelineSemaphoreInteropSupported,
        musa::musaDevAttrMaxTimelineSemaphoreInteropSupported,
        musa::musaDevAttrMemoryPoolsSupported,
        musa::musaDevAttrGPUDirectRDMASupported,
        musa::musaDevAttrGPUDirectRDMAFlushWritesOptions,
        musa::musaDevAttrGPUDirectRDMAWritesOrdering,
        musa::musaDevAttrMemoryPoolSupportedHandleTypes,
        musa::musaDevAttrClusterLaunch,
        musa::musaDevAttrDeferredMappingCudaArraySupported,
        musa::musaDevAttrIpcEventSupport,
        musa::musaIpcMemLazyEnablePeerAccess,
        musa::musaDevAttrMemSyncDomainCount,
        musa::musaDevAttrNumaConfig,
        musa::musaDevAttrNumaId,
        musa::musaDevAttrMpsEnabled,
        musa::musaDevAttrHostNumaId,
        musa::musaDevAttrD3D12CigSupported,
        musa::musaHostAllocDefault,
        musa::musaHostAllocPortable,
        musa::musaHostAllocMapped,
        musa::musaHostAllocWriteCombined,
        musa::musaHostRegisterDefault,
        musa::musaHostRegisterPortable,
        musa::musaHostRegisterMapped,
        musa::musaHostRegisterIoMemory,
        musa::musaHostRegisterReadOnly,
        musa::musaEventRecordExternal,
        musa::musaEventWaitExternal,
        musa::musaDeviceScheduleAuto,
        musa::musaDeviceScheduleSpin,
        musa::musaDeviceScheduleYield,
        musa::musaDeviceScheduleBlockingSync,
        musa::musaDeviceBlockingSync,
        musa::musaDeviceScheduleMask,
        musa::musaDeviceMapHost,
        musa::musaDeviceLmemResizeToMax,
        musa::musaDeviceSyncMemops,
        musa::musaDeviceMask,
        musa::musaOccupancyDefault,
        musa::musaOccupancyDisableCachingOverride,
        musa::musaLimitStackSize,
        musa::musaLimitPrintfFifoSize,
        musa::musaLimitMallocHeapSize,
        musa::musaLimitDevRuntimeSyncDepth,
        musa::musaLimitDevRuntimePendingLaunchCount,
        musa::musaLimitMaxL2FetchGranularity,
        musa::musaLimitPersistingL2CacheSize,
        musa::musaMemoryTypeUnregistered,
        musa::musaMemoryTypeHost,
        musa::musaMemoryTypeDevice,
        musa::musaMemoryTypeManaged,
        musa::musaComputeModeDefault,
        musa::musaComputeModeExclusive,
        musa::musaComputeModeProhibited,
        musa::musaComputeModeExclusiveProcess,
        musa::musaCpuDeviceId,
        musa::musaInvalidDeviceId,
        musa::musaErrorInvalidDeviceFunction,
        musa::musaErrorUnsupportedLimit,
        musa::musaErrorHostMemoryAlreadyRegistered,
        musa::musaErrorHostMemoryNotRegistered,
        acl::ACL_IPC_EVENT_HANDLE_SIZE,
        acl::ACL_MEMCPY_HOST_TO_HOST,
        acl::ACL_MEMCPY_HOST_TO_DEVICE,
        acl::ACL_MEMCPY_DEVICE_TO_HOST,
        acl::ACL_MEMCPY_DEVICE_TO_DEVICE,
        acl::ACL_MEMCPY_DEFAULT,
        acl::ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE,
        acl::ACL_MEMCPY_INNER_DEVICE_TO_DEVICE,
        acl::ACL_MEMCPY_INTER_DEVICE_TO_DEVICE,
        acl::ACL_MEM_MALLOC_HUGE_FIRST,
        acl::ACL_MEM_ADVISE_SET_READ_MOSTLY,
        acl::ACL_MEM_ADVISE_UNSET_READ_MOSTLY,
        acl::ACL_MEM_ADVISE_SET_PREFERRED_LOCATION,
        acl::ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION,
        acl::ACL_MEM_ADVISE_SET_ACCESSED_BY,
        acl::ACL_MEM_ADVISE_UNSET_ACCESSED_BY,
        acl::ACL_MEM_LOCATIONTYPE_INVALID,
        acl::ACL_MEM_LOCATIONTYPE_DEVICE,
        acl::ACL_MEM_LOCATIONTYPE_HOST,
        acl::ACL_MEM_LOCATIONTYPE_HOST_NUMA,
        acl::ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT,
        acl::ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY,
        acl::ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION,
        acl::ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY,
        acl::ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE,
        acl::ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID,
        acl::ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION,
        acl::ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE,
        acl::ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID,
        acl::ACL_RT_MEM_ATTACH_GLOBAL,
        acl::ACL_MEM_MALLOC_HUGE_ONLY,
        acl::ACL_MEM_MALLOC_NORMAL_ONLY,
        acl::ACL_MEM_MALLOC_HUGE_FIRST_P2P,
        acl::ACL_MEM_MALLOC_HUGE_ONLY_P2P,
        acl::ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
        acl::ACL_MEM_MALLOC_HUGE1G_ONLY,
        acl::ACL_MEM_MALLOC_HUGE1G_ONLY_P2P,
        acl::ACL_MEM_TYPE_LOW_BAND_WIDTH,
        acl::ACL_MEM_TYPE_HIGH_BAND_WIDTH,
        acl::ACL_MEM_ACCESS_USER_SPACE_READONLY,
        acl::ACL_DEV_ATTR_AICPU_CORE_NUM,
        acl::ACL_DEV_ATTR_AICORE_CORE_NUM,
        acl::ACL_DEV_ATTR_CUBE_CORE_NUM,
        acl::ACL_DEV_ATTR_VECTOR_CORE_NUM,
        acl::ACL_DEV_ATTR_WARP_SIZE,
        acl::ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE,
        acl::ACL_EVENT_RECORDED_STATUS_NOT_READY,
        acl::ACL_EVENT_RECORDED_STATUS_COMPLETE,
        acl::ACL_EVENT_STATUS_COMPLETE,
        acl::ACL_EVENT_STATUS_NOT_READY,
        acl::ACL_EVENT_STATUS_RESERVED,
        acl::ACL_STREAM_STATUS_COMPLETE,
        acl::ACL_STREAM_STATUS_NOT_READY,
        acl::ACL_STREAM_STATUS_RESERVED,
        acl::ACL_EVENT_SYNC,
        acl::ACL_EVENT_CAPTURE_STREAM_PROGRESS,
        acl::ACL_EVENT_TIME_LINE,
        acl::ACL_EVENT_DEVICE_USE_ONLY,
        acl::ACL_EVENT_EXTERNAL,
        acl::ACL_EVENT_IPC,
        acl::ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT,
        acl::ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION,
        acl::ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT,
        acl::ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS,
        acl::ACL_STREAM_FAST_LAUNCH,
        acl::ACL_STREAM_FAST_SYNC,
        acl::ACL_STREAM_PERSISTENT,
        acl::ACL_STREAM_HUGE,
        acl::ACL_STREAM_CPU_SCHEDULE,
        acl::ACL_STREAM_DEVICE_USE_ONLY,
        acl::ACL_CONTINUE_ON_FAILURE,
        acl::ACL_STOP_ON_FAILURE,
        acl::ACL_NOTIFY_DEFAULT,
        acl::ACL_NOTIFY_DEVICE_USE_ONLY,
        acl::ACL_STREAM_WAIT_VALUE_GEQ,
        acl::ACL_STREAM_WAIT_VALUE_EQ,
        acl::ACL_STREAM_WAIT_VALUE_AND,
        acl::ACL_STREAM_WAIT_VALUE_NOR,
        acl::ACL_CALLBACK_NO_BLOCK,
        acl::ACL_CALLBACK_BLOCK,
        acl::ACL_DEVICE,
        acl::ACL_HOST,
        acl::ACL_RT_THREAD_LEVEL,
        acl::ACL_CANN_ATTR_UNDEFINED,
        acl::ACL_CANN_ATTR_INF_NAN,
        acl::ACL_CANN_ATTR_BF16,
        acl::ACL_CANN_ATTR_JIT_COMPILE,
        acl::ACL_DEVICE_INFO_UNDEFINED,
        acl::ACL_DEVICE_INFO_AI_CORE_NUM,
        acl::ACL_DEVICE_INFO_VECTOR_CORE_NUM,
        acl::ACL_DEVICE_INFO_L2_SIZE,
        acl::ACL_RT_NO_ERROR,
        acl::ACL_RT_ERROR_MEMORY,
        acl::ACL_RT_ERROR_L2,
        acl::ACL_RT_ERROR_AICORE,
        acl::ACL_RT_ERROR_LINK,
        acl::ACL_RT_ERROR_L3_PORT,
        acl::ACL_RT_ERROR_OTHERS,
        acl::ACL_RT_AICORE_ERROR_UNKNOWN,
        acl::ACL_RT_AICORE_ERROR_SW,
        acl::ACL_RT_AICORE_ERROR_HW_LOCAL,
        acl::ACL_RT_MEM_UCE_INFO_MAX_NUM,
        acl::ACL_DT_UNDEFINED,
        acl::ACL_FLOAT,
        acl::ACL_FLOAT16,
        acl::ACL_INT8,
        acl::ACL_INT32,
        acl::ACL_UINT8,
        acl::ACL_INT16,
        acl::ACL_UINT16,
        acl::ACL_UINT32,
        acl::ACL_INT64,
        acl::ACL_UINT64,
        acl::ACL_DOUBLE,
        acl::ACL_BOOL,
        acl::ACL_STRING,
        acl::ACL_COMPLEX64,
        acl::ACL_COMPLEX128,
        acl::ACL_BF16,
        acl::ACL_INT4,
        acl::ACL_UINT1,
        acl::ACL_COMPLEX32,
        acl::ACL_HIFLOAT8,
        acl::ACL_FLOAT8_E5M2,
        acl::ACL_FLOAT8_E4M3FN,
        acl::ACL_FLOAT8_E8M0,
        acl::ACL_FLOAT6_E3M2,
        acl::ACL_FLOAT6_E2M3,
        acl::ACL_FLOAT4_E2M1,
        acl::ACL_FLOAT4_E1M2,
        acl::ACL_MAJOR_VERSION,
        acl::ACL_MINOR_VERSION,
        acl::ACL_PATCH_VERSION,
        acl::ACL_RT_DEVICE_STATUS_NORMAL,
        acl::ACL_RT_DEVICE_STATUS_ABNORMAL,
        acl::ACL_RT_DEVICE_STATUS_END,
        acl::ACL_DDR_MEM,
        acl::ACL_HBM_MEM,
        acl::ACL_DDR_MEM_HUGE,
        acl::ACL_DDR_MEM_NORMAL,
        acl::ACL_HBM_MEM_HUGE,
        acl::ACL_HBM_MEM_NORMAL,
        acl::ACL_DDR_MEM_P2P_HUGE,
        acl::ACL_DDR_MEM_P2P_NORMAL,
        acl::ACL_HBM_MEM_P2P_HUGE,
        acl::ACL_HBM_MEM_P2P_NORMAL,
        acl::ACL_HBM_MEM_HUGE1G,
        acl::ACL_HBM_MEM_P2P_HUGE1G,
        acl::ACL_MEM_NORMAL,
        acl::ACL_MEM_HUGE,
        acl::ACL_MEM_HUGE1G,
        acl::ACL_MEM_P2P_NORMAL,
        acl::ACL_MEM_P2P_HUGE,
        acl::ACL_MEM_P2P_HUGE1G,
        acl::ACL_STREAM_ATTR_FAILURE_MODE,
        acl::ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK,
        acl::ACL_STREAM_ATTR_USER_CUSTOM_TAG,
        acl::ACL_STREAM_ATTR_CACHE_OP_INFO,
        acl::ACL_STREAM_ATTR_PRIORITY,
        acl::ACL_MEM_ALLOCATION_TYPE_PINNED,
        acl::ACL_MEM_HANDLE_TYPE_NONE,
        acl::ACL_MEM_HANDLE_TYPE_POSIX,
        acl::ACL_MEM_LOCATION_TYPE_DEVICE,
        acl::ACL_MEM_LOCATION_TYPE_HOST,
        acl::ACL_MEM_LOCATION_TYPE_HOST_NUMA,
        acl::ACL_MEM_LOCATION_TYPE_MANAGED,
        acl::ACL_MEM_LOCATION_TYPE_UNREGISTERED,
        acl::ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD,
        acl::ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT,
        acl::ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH,
        acl::ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT,
        acl::ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH,
        acl::ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES,
        acl::ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC,
        acl::ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES,
        acl::ACL_SUCCESS,
        acl::ACL_ERROR_INVALID_PARAM,
        acl::ACL_ERROR_UNINITIALIZE,
        acl::ACL_ERROR_REPEAT_INITIALIZE,
        acl::ACL_ERROR_REPEAT_FINALIZE,
        acl::ACL_ERROR_BAD_ALLOC,
        acl::ACL_ERROR_FEATURE_UNSUPPORTED,
        acl::ACL_ERROR_RT_PARAM_INVALID,
        acl::ACL_ERROR_RT_INVALID_DEVICEID,
        acl::ACL_ERROR_RT_CONTEXT_NULL,
        acl::ACL_ERROR_RT_STREAM_CONTEXT,
        acl::ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
        acl::ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL,
        acl::ACL_ERROR_RT_STREAM_SUBSCRIBE,
        acl::ACL_ERROR_RT_THREAD_SUBSCRIBE,
        acl::ACL_ERROR_RT_STREAM_NO_CB_REG,
        acl::ACL_ERROR_RT_INVALID_HANDLE,
        acl::ACL_ERROR_RT_WAIT_TIMEOUT,
        acl::ACL_ERROR_RT_TASK_TIMEOUT,
        acl::ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
        acl::ACL_ERROR_RT_MEMORY_ALLOCATION,
        acl::ACL_ERROR_RT_DEVICE_OOM,
        acl::ACL_ERROR_RT_INTERNAL_ERROR,
        acl::ACL_ERROR_RT_CONTEXT_RELEASE_ERROR,
        acl::ACL_ERROR_RT_REPORT_TIMEOUT,
        acl::ACL_ERROR_RT_AICORE_EXCEPTION,
        acl::ACL_ERROR_RT_IPC_ERROR,
        acl::ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
        acl::ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
        acl::ACL_ERROR_RT_MODEL_CONTEXT,
        acl::ACL_ERROR_RT_CAPTURE_DEPENDENCY,
        acl::ACL_ERROR_RT_STREAM_UNJOINED,
        acl::ACL_ERROR_RT_STREAM_CAPTURED,
        acl::ACL_ERROR_RT_EVENT_CAPTURED,
        acl::ACL_ERROR_RT_STREAM_NOT_CAPTURED,
        acl::ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
        acl::ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,
        acl::ACL_ERROR_STREAM_CAPTURE_CONFLICT,
        acl::ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED,
        acl::ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD,
        acl::ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
        acl::ACL_MODEL_RI_CAPTURE_MODE_GLOBAL,
        acl::ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL,
        acl::ACL_MODEL_RI_CAPTURE_MODE_RELAXED,
        acl::ACL_MODEL_RI_CAPTURE_STATUS_NONE,
        acl::ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE,
        acl::ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED,
        capi::STREAMSIM_SUCCESS,
        capi::STREAMSIM_ERROR_INVALID_VALUE,
        capi::STREAMSIM_ERROR_INVALID_HANDLE,
        capi::STREAMSIM_ERROR_NOT_BOUND,
        capi::STREAMSIM_ERROR_CONFIG,
        capi::STREAMSIM_ERROR_NOT_PERMITTED,
        capi::STREAMSIM_ERROR_ILLEGAL_ADDRESS,
        capi::STREAMSIM_ERROR_NO_TRACE,
        capi::STREAMSIM_ERROR_IO,
        capi::STREAMSIM_ERROR_INTERNAL,
        capi::STREAMSIM_DIALECT_CUDA,
        capi::STREAMSIM_DIALECT_ACL,
        capi::STREAMSIM_API_CUDA,
        capi::STREAMSIM_API_MUSA,
        capi::STREAMSIM_API_ACL,
        capi::STREAMSIM_ACCESS_READ,
        capi::STREAMSIM_ACCESS_WRITE,
        capi::STREAMSIM_FAULT_NONE,
        capi::STREAMSIM_FAULT_LAUNCH_FAILURE,
        capi::STREAMSIM_FAULT_ILLEGAL_ADDRESS,
        capi::STREAMSIM_RACES_OFF,
        capi::STREAMSIM_RACES_COLLECT,
        capi::STREAMSIM_RACES_PRINT,
        capi::STREAMSIM_RACES_FAIL,
        capi::STREAMSIM_ACCESSOR_OPERATION,
        capi::STREAMSIM_ACCESSOR_HOST,
        capi::STREAMSIM_MEMORY_DEVICE,
        capi::STREAMSIM_MEMORY_PINNED_HOST,
        capi::STREAMSIM_RACE_DATA,
        capi::STREAMSIM_RACE_USE_BEFORE_ALLOC,
        capi::STREAMSIM_RACE_USE_AFTER_FREE,
    ];
    v.extend(ptrs![
        cuda::cudaStreamLegacy,
        cuda::cudaStreamPerThread,
        musa::musaStreamLegacy,
        musa::musaStreamPerThread,
    ]);
    let map: BTreeMap<_, _> = v.iter().copied().collect();
    assert_eq!(map.len(), v.len(), "a constant is listed twice");
    map
}

/// Struct layouts: (C expression, Rust value).
fn rust_layouts() -> Vec<(&'static str, usize)> {
    use std::mem::{offset_of, size_of};
    let mut v = vec![
        (
            "sizeof(cudaIpcEventHandle_t)",
            size_of::<cuda::cudaIpcEventHandle_t>(),
        ),
        (
            "sizeof(musaIpcEventHandle_t)",
            size_of::<musa::musaIpcEventHandle_t>(),
        ),
        (
            "sizeof(cudaIpcMemHandle_t)",
            size_of::<cuda::cudaIpcMemHandle_t>(),
        ),
        (
            "sizeof(musaIpcMemHandle_t)",
            size_of::<musa::musaIpcMemHandle_t>(),
        ),
        (
            "sizeof(aclrtIpcEventHandle)",
            size_of::<acl::aclrtIpcEventHandle>(),
        ),
        (
            "sizeof(streamsimAccess)",
            size_of::<capi::streamsimAccess>(),
        ),
        (
            "offsetof(streamsimAccess, ptr)",
            offset_of!(capi::streamsimAccess, ptr),
        ),
        (
            "offsetof(streamsimAccess, bytes)",
            offset_of!(capi::streamsimAccess, bytes),
        ),
        (
            "offsetof(streamsimAccess, flags)",
            offset_of!(capi::streamsimAccess, flags),
        ),
        ("sizeof(cudaStream_t)", size_of::<cuda::cudaStream_t>()),
        ("sizeof(aclrtStream)", size_of::<acl::aclrtStream>()),
        (
            "sizeof(streamsimMachine)",
            size_of::<capi::streamsimMachine>(),
        ),
        ("sizeof(cudaError_t)", size_of::<cuda::cudaError_t>()),
        ("sizeof(aclError)", size_of::<acl::aclError>()),
        ("sizeof(streamsimError)", size_of::<capi::streamsimError>()),
        (
            "sizeof(enum cudaMemcpyKind)",
            size_of::<cuda::cudaMemcpyKind>(),
        ),
        ("sizeof(aclrtMemcpyKind)", size_of::<acl::aclrtMemcpyKind>()),
        (
            "sizeof(aclrtStreamAttrValue)",
            size_of::<acl::aclrtStreamAttrValue>(),
        ),
        ("sizeof(aclrtNotify)", size_of::<acl::aclrtNotify>()),
    ];
    // The toolkit's structs, field by field.
    macro_rules! layout {
        ($ty:ident { $($field:ident),* }) => {{
            v.push((concat!("sizeof(", stringify!($ty), ")"), size_of::<capi::$ty>()));
            $(v.push((
                concat!("offsetof(", stringify!($ty), ", ", stringify!($field), ")"),
                offset_of!(capi::$ty, $field),
            ));)*
        }};
    }
    layout!(streamsimMachineOptions {
        dialect,
        devices,
        seed,
        races,
        trace
    });
    layout!(streamsimRaceAccess {
        accessor,
        wrote,
        operation,
        name,
        stream,
        streamName,
        device,
        process,
        thread,
        seq
    });
    // cudaMemPoolProps: CUDA 12's layout, in both families.
    macro_rules! pool_props_layout {
        ($m:ident, $ty:ident, $c:literal) => {
            v.extend([
                (
                    concat!("sizeof(struct ", $c, "MemPoolProps)"),
                    size_of::<$m::$ty>(),
                ),
                (
                    concat!("offsetof(struct ", $c, "MemPoolProps, handleTypes)"),
                    offset_of!($m::$ty, handleTypes),
                ),
                (
                    concat!("offsetof(struct ", $c, "MemPoolProps, location)"),
                    offset_of!($m::$ty, location),
                ),
                (
                    concat!(
                        "offsetof(struct ",
                        $c,
                        "MemPoolProps, win32SecurityAttributes)"
                    ),
                    offset_of!($m::$ty, win32SecurityAttributes),
                ),
                (
                    concat!("offsetof(struct ", $c, "MemPoolProps, maxSize)"),
                    offset_of!($m::$ty, maxSize),
                ),
                (
                    concat!("offsetof(struct ", $c, "MemPoolProps, usage)"),
                    offset_of!($m::$ty, usage),
                ),
                (
                    concat!("offsetof(struct ", $c, "MemPoolProps, reserved)"),
                    offset_of!($m::$ty, reserved),
                ),
            ]);
        };
    }
    pool_props_layout!(cuda, cudaMemPoolProps, "cuda");
    pool_props_layout!(musa, musaMemPoolProps, "musa");
    // Pitched memory and pool access: CUDA's layouts, in both families.
    macro_rules! pitched_layout {
        ($m:ident; $($ty:ident { $($f:ident),* })*) => {
            $(
                v.push((concat!("sizeof(struct ", stringify!($ty), ")"), size_of::<$m::$ty>()));
                $(v.push((
                    concat!("offsetof(struct ", stringify!($ty), ", ", stringify!($f), ")"),
                    std::mem::offset_of!($m::$ty, $f),
                ));)*
            )*
        };
    }
    // The extensible launch's structs (typedefs of `struct …_st`), in both families.
    macro_rules! launch_layout {
        ($m:ident, $cfg:ident, $attr:ident; $($f:ident),*) => {
            v.push((concat!("sizeof(", stringify!($cfg), ")"), size_of::<$m::$cfg>()));
            v.push((concat!("sizeof(", stringify!($attr), ")"), size_of::<$m::$attr>()));
            v.push((concat!("offsetof(", stringify!($attr), ", val)"), std::mem::offset_of!($m::$attr, val)));
            $(v.push((
                concat!("offsetof(", stringify!($cfg), ", ", stringify!($f), ")"),
                std::mem::offset_of!($m::$cfg, $f),
            ));)*
        };
    }
    launch_layout!(cuda, cudaLaunchConfig_t, cudaLaunchAttribute;
        gridDim, blockDim, dynamicSmemBytes, stream, attrs, numAttrs);
    launch_layout!(musa, musaLaunchConfig_t, musaLaunchAttribute;
        gridDim, blockDim, dynamicSmemBytes, stream, attrs, numAttrs);
    pitched_layout!(cuda;
        cudaPitchedPtr { ptr, pitch, xsize, ysize }
        cudaExtent { width, height, depth }
        cudaPos { x, y, z }
        cudaMemcpy3DParms { srcArray, srcPos, srcPtr, dstArray, dstPos, dstPtr, extent, kind }
        cudaMemcpy3DPeerParms { srcArray, srcPos, srcPtr, srcDevice, dstArray, dstPos, dstPtr, dstDevice, extent }
        cudaMemAccessDesc { location, flags }
        cudaMemPoolPtrExportData { reserved });
    pitched_layout!(musa;
        musaPitchedPtr { ptr, pitch, xsize, ysize }
        musaExtent { width, height, depth }
        musaPos { x, y, z }
        musaMemcpy3DParms { srcArray, srcPos, srcPtr, dstArray, dstPos, dstPtr, extent, kind }
        musaMemcpy3DPeerParms { srcArray, srcPos, srcPtr, srcDevice, dstArray, dstPos, dstPtr, dstDevice, extent }
        musaMemAccessDesc { location, flags }
        musaMemPoolPtrExportData { reserved });
    // Graphs built by hand: CUDA 12.8's layouts (the same as CUDA 13's), in both families.
    macro_rules! struct_layout {
        ($m:ident, $ty:ident, $c:expr, { $($cf:literal => $rf:tt),* }) => {{
            v.push((concat!("sizeof(", $c, ")"), size_of::<$m::$ty>()));
            $(v.push((concat!("offsetof(", $c, ", ", $cf, ")"), offset_of!($m::$ty, $rf)));)*
        }};
    }
    macro_rules! graph_layouts {
        ($m:ident, $k:ident, $ms:ident, $h:ident, $p3:ident, $pp:ident, $np:ident, $ui:ident, $ip:ident, $c:literal) => {
            struct_layout!($m, $k, concat!("struct ", $c, "KernelNodeParams"), {
                "gridDim" => gridDim, "blockDim" => blockDim, "sharedMemBytes" => sharedMemBytes,
                "kernelParams" => kernelParams, "extra" => extra
            });
            struct_layout!($m, $ms, concat!("struct ", $c, "MemsetParams"), {
                "pitch" => pitch, "value" => value, "elementSize" => elementSize, "width" => width,
                "height" => height
            });
            struct_layout!($m, $h, concat!("struct ", $c, "HostNodeParams"), { "fn" => r#fn, "userData" => userData });
            struct_layout!($m, $p3, concat!("struct ", $c, "Memcpy3DParms"), {
                "srcPos" => srcPos, "srcPtr" => srcPtr, "dstArray" => dstArray, "dstPos" => dstPos,
                "dstPtr" => dstPtr, "extent" => extent, "kind" => kind
            });
            struct_layout!($m, $pp, concat!("struct ", $c, "PitchedPtr"), {
                "pitch" => pitch, "xsize" => xsize, "ysize" => ysize
            });
            struct_layout!($m, $np, concat!("struct ", $c, "GraphNodeParams"), {
                "reserved0" => reserved0, "kernel" => u, "reserved2" => reserved2
            });
            struct_layout!($m, $ui, concat!($c, "GraphExecUpdateResultInfo"), {
                "errorNode" => errorNode, "errorFromNode" => errorFromNode
            });
            struct_layout!($m, $ip, concat!($c, "GraphInstantiateParams"), {
                "uploadStream" => uploadStream, "errNode_out" => errNode_out, "result_out" => result_out
            });
        };
    }
    // Graph memory nodes: CUDA 12.8's layouts (the same as CUDA 13's), in both families.
    struct_layout!(cuda, cudaMemAllocNodeParams, "struct cudaMemAllocNodeParams", {
        "accessDescs" => accessDescs, "accessDescCount" => accessDescCount, "bytesize" => bytesize,
        "dptr" => dptr
    });
    struct_layout!(musa, musaMemAllocNodeParams, "struct musaMemAllocNodeParams", {
        "accessDescs" => accessDescs, "accessDescCount" => accessDescCount, "bytesize" => bytesize,
        "dptr" => dptr
    });
    graph_layouts!(
        cuda,
        cudaKernelNodeParams,
        cudaMemsetParams,
        cudaHostNodeParams,
        cudaMemcpy3DParms,
        cudaPitchedPtr,
        cudaGraphNodeParams,
        cudaGraphExecUpdateResultInfo,
        cudaGraphInstantiateParams,
        "cuda"
    );
    graph_layouts!(
        musa,
        musaKernelNodeParams,
        musaMemsetParams,
        musaHostNodeParams,
        musaMemcpy3DParms,
        musaPitchedPtr,
        musaGraphNodeParams,
        musaGraphExecUpdateResultInfo,
        musaGraphInstantiateParams,
        "musa"
    );
    // Capture into a graph: the edge data (8 bytes), in both families.
    struct_layout!(cuda, cudaGraphEdgeData, "cudaGraphEdgeData", {
        "to_port" => to_port, "type" => type_, "reserved" => reserved
    });
    struct_layout!(musa, musaGraphEdgeData, "musaGraphEdgeData", {
        "to_port" => to_port, "type" => type_, "reserved" => reserved
    });
    v.extend([
        (
            "sizeof(aclrtMemPoolProps)",
            size_of::<acl::aclrtMemPoolProps>(),
        ),
        (
            "offsetof(aclrtMemPoolProps, handleType)",
            offset_of!(acl::aclrtMemPoolProps, handleType),
        ),
        (
            "offsetof(aclrtMemPoolProps, location)",
            offset_of!(acl::aclrtMemPoolProps, location),
        ),
        (
            "offsetof(aclrtMemPoolProps, maxSize)",
            offset_of!(acl::aclrtMemPoolProps, maxSize),
        ),
        (
            "offsetof(aclrtMemPoolProps, reserved)",
            offset_of!(acl::aclrtMemPoolProps, reserved),
        ),
        (
            "sizeof(aclrtMemLocation)",
            size_of::<acl::aclrtMemLocation>(),
        ),
        (
            "offsetof(aclrtMemLocation, type)",
            offset_of!(acl::aclrtMemLocation, r#type),
        ),
    ]);
    layout!(streamsimRaceReport {
        first,
        second,
        allocation,
        offset,
        bytes,
        occurrences,
        memory,
        memoryDevice,
        fix,
        kind
    });
    // cudaDeviceProp and cudaPointerAttributes: CUDA 12's layout, in both families.
    macro_rules! prop_layout {
        ($m:ident, $prop:ident, $attrs:ident, $c:literal) => {
            v.extend([
                (concat!("sizeof(struct ", $c, "DeviceProp)"), size_of::<$m::$prop>()),
                (concat!("sizeof(struct ", $c, "PointerAttributes)"), size_of::<$m::$attrs>()),
                (concat!("offsetof(struct ", $c, "PointerAttributes, type)"), offset_of!($m::$attrs, r#type)),
                (concat!("offsetof(struct ", $c, "PointerAttributes, device)"), offset_of!($m::$attrs, device)),
                (concat!("offsetof(struct ", $c, "PointerAttributes, devicePointer)"), offset_of!($m::$attrs, devicePointer)),
                (concat!("offsetof(struct ", $c, "PointerAttributes, hostPointer)"), offset_of!($m::$attrs, hostPointer)),
            ]);
            prop_layout!(@fields $m, $prop, $c; name uuid luid luidDeviceNodeMask totalGlobalMem sharedMemPerBlock
                regsPerBlock warpSize memPitch maxThreadsPerBlock maxThreadsDim maxGridSize clockRate totalConstMem
                major minor textureAlignment texturePitchAlignment deviceOverlap multiProcessorCount
                kernelExecTimeoutEnabled integrated canMapHostMemory computeMode maxTexture1D maxTexture1DMipmap
                maxTexture1DLinear maxTexture2D maxTexture2DMipmap maxTexture2DLinear maxTexture2DGather maxTexture3D
                maxTexture3DAlt maxTextureCubemap maxTexture1DLayered maxTexture2DLayered maxTextureCubemapLayered
                maxSurface1D maxSurface2D maxSurface3D maxSurface1DLayered maxSurface2DLayered maxSurfaceCubemap
                maxSurfaceCubemapLayered surfaceAlignment concurrentKernels ECCEnabled pciBusID pciDeviceID
                pciDomainID tccDriver asyncEngineCount unifiedAddressing memoryClockRate memoryBusWidth l2CacheSize
                persistingL2CacheMaxSize maxThreadsPerMultiProcessor streamPrioritiesSupported
                globalL1CacheSupported localL1CacheSupported sharedMemPerMultiprocessor regsPerMultiprocessor
                managedMemory isMultiGpuBoard multiGpuBoardGroupID hostNativeAtomicSupported
                singleToDoublePrecisionPerfRatio pageableMemoryAccess concurrentManagedAccess
                computePreemptionSupported canUseHostPointerForRegisteredMem cooperativeLaunch
                cooperativeMultiDeviceLaunch sharedMemPerBlockOptin pageableMemoryAccessUsesHostPageTables
                directManagedMemAccessFromHost maxBlocksPerMultiProcessor accessPolicyMaxWindowSize
                reservedSharedMemPerBlock hostRegisterSupported sparseCudaArraySupported
                hostRegisterReadOnlySupported timelineSemaphoreInteropSupported memoryPoolsSupported
                gpuDirectRDMASupported gpuDirectRDMAFlushWritesOptions gpuDirectRDMAWritesOrdering
                memoryPoolSupportedHandleTypes deferredMappingCudaArraySupported ipcEventSupported clusterLaunch
                unifiedFunctionPointers reserved2 reserved1 reserved);
        };
        (@fields $m:ident, $prop:ident, $c:literal; $($f:ident)*) => {
            v.extend([$((
                concat!("offsetof(struct ", $c, "DeviceProp, ", stringify!($f), ")"),
                offset_of!($m::$prop, $f),
            )),*]);
        };
    }
    prop_layout!(cuda, cudaDeviceProp, cudaPointerAttributes, "cuda");
    prop_layout!(musa, musaDeviceProp, musaPointerAttributes, "musa");
    v
}

/// The names `nm -D --defined-only` lists for the shared library's exported functions.
pub(crate) fn exported_functions() -> BTreeSet<String> {
    let so = toolchain().lib_dir.join("libstreamsim.so");
    let out = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(&so)
        .output()
        .expect("running nm (binutils)");
    assert!(out.status.success(), "nm failed on {}", so.display());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let f: Vec<_> = l.split_whitespace().collect();
            (f.len() == 3 && f[1] == "T").then(|| f[2].to_string())
        })
        .collect()
}

/// What libstreamsim exports for the code clang generates for a `streamsim cc` program (its module
/// constructors and `<<<…>>>` lowering) and for its CPU runtime (`include/streamsim/cc/kernel_rt.c`): declared
/// by the pre-includes and `kernel_rt.c`, not by a vendor header, and exercised by every program that
/// `tests/suite/cc_programs.rs` builds.
pub(crate) const CC_COMPILER_ENTRY_POINTS: &[&str] = &[
    "__cudaPopCallConfiguration",
    "__cudaPushCallConfiguration",
    "__cudaRegisterFatBinary",
    "__cudaRegisterFatBinaryEnd",
    "__cudaRegisterFunction",
    // nvcc's host code before its first access to a `__managed__` variable (crt/host_runtime.h).
    "__cudaInitModule",
    "__cudaRegisterManagedVar",
    "__cudaRegisterVar",
    "__cudaUnregisterFatBinary",
    "__streamsimAclPushCallConfiguration",
    "streamsimCcAccessed",
    "streamsimCcInitBits",
    "streamsimCcInitReport",
    "streamsimCcLaunchChecks",
    "streamsimCcRegisterModule",
    "streamsimCcReport",
    "streamsimCcResolve",
    // The call sites of allocations and frees (include/streamsim/cc/call_sites.h) and racecheck's lookup of them.
    "__streamsim_at",
    "streamsimCcSiteOf",
    // nvcc 13's launch path and the drop-in libcudart.so.13's CUDA 13 entry points (src/facade/dropin.rs),
    // declared by NVIDIA's crt/ headers, exercised by tests/suite/dropin.rs.
    "__cudaGetKernel",
    "__cudaLaunchKernel",
    "__cudaLaunchKernel_ptsz",
    "__streamsimCudart13_cudaGetDeviceProperties",
    "__streamsimCudart13_cudaGraphGetEdges",
    "__streamsimCudart13_cudaGraphNodeGetDependencies",
    "__streamsimCudart13_cudaGraphNodeGetDependentNodes",
    "__streamsimCudart13_cudaStreamGetCaptureInfo",
    "__streamsimCudart13_cudaStreamUpdateCaptureDependencies",
    // The drop-ins' other entry points under vendor names (libcudart.so.12 and .13).
    "__streamsimCudart12_cudaStreamGetCaptureInfo",
    "__streamsimCudart13_cudaGraphAddDependencies",
    "__streamsimCudart13_cudaGraphAddNode",
    "__streamsimCudart13_cudaGraphRemoveDependencies",
    "__streamsimCudart13_cudaPointerGetAttributes",
    "__streamsimCudart_cudaGetDriverEntryPoint",
    "__streamsimCudart_cudaGetDriverEntryPointByVersion",
    "__streamsimCudart13_cudaGetDriverEntryPointByVersion",
    "__streamsimCudart13_cudaDriverGetVersion",
    "__streamsimCudart13_cudaRuntimeGetVersion",
];

/// The runtime calls of `src/facade/cc_runtime.rs` (launches and symbols of `streamsim cc` programs). Its
/// functions are generated by a macro for both dialects, which this test's source reader does not expand,
/// and take `dim3` by value: their prototypes are checked by `cc_programs.rs`, which compiles and runs
/// programs that call them, instead of here.
const CC_RUNTIME_CALLS: &[&str] = &[
    "cudaGetSymbolAddress",
    "cudaGetSymbolSize",
    "cudaFuncGetAttributes",
    "cudaFuncGetName",
    "cudaFuncSetAttribute",
    "cudaLaunchKernel",
    "cudaLaunchKernelExC",
    "cudaLaunchCooperativeKernel",
    "cudaMemcpyFromSymbol",
    "cudaMemcpyFromSymbolAsync",
    "cudaMemcpyToSymbol",
    "cudaMemcpyToSymbolAsync",
    "musaGetSymbolAddress",
    "musaGetSymbolSize",
    "musaFuncGetAttributes",
    "musaFuncGetName",
    "musaFuncSetAttribute",
    "musaLaunchKernel",
    "musaLaunchKernelExC",
    "musaLaunchCooperativeKernel",
    "musaMemcpyFromSymbol",
    "musaMemcpyFromSymbolAsync",
    "musaMemcpyToSymbol",
    "musaMemcpyToSymbolAsync",
    "streamsimSetKernelDuration",
    // `cuda_graph_symbol.rs` (a macro for both dialects too): called by `cc_programs::hip_tests_graph_lifecycle`.
    "cudaGraphAddMemcpyNodeFromSymbol",
    "cudaGraphAddMemcpyNodeToSymbol",
    "musaGraphAddMemcpyNodeFromSymbol",
    "musaGraphAddMemcpyNodeToSymbol",
    // `cc_check.rs`: read by `tests/suite/sanitizer.rs`'s programs' reports.
    "streamsimCheckReportCount",
    "streamsimCheckReportText",
];

fn diff(a: &BTreeSet<String>, b: &BTreeSet<String>) -> Vec<String> {
    a.difference(b).cloned().collect()
}

// ---------------------------------------------------------------------------------------------- tests

/// Every function the headers declare is exported by libstreamsim.so, and every exported function is
/// declared (the library exports nothing else).
#[test]
fn every_declared_function_is_exported_and_every_export_is_declared() {
    let declared: BTreeSet<String> = headers().protos.keys().cloned().collect();
    let mut exported = exported_functions();
    exported.retain(|f| !CC_COMPILER_ENTRY_POINTS.contains(&f.as_str()));
    assert!(
        declared.len() > 150,
        "only {} prototypes parsed",
        declared.len()
    );
    assert_eq!(
        diff(&declared, &exported),
        Vec::<String>::new(),
        "declared in include/ but not exported"
    );
    assert_eq!(
        diff(&exported, &declared),
        Vec::<String>::new(),
        "exported by libstreamsim.so but not declared in include/"
    );
}

/// Every header prototype has its Rust function's parameter and return types (ABI classes), and every Rust
/// `no_mangle` function of the facades and of capi has a prototype.
#[test]
fn every_prototype_matches_its_rust_signature() {
    let rust = rust_functions();
    let mut protos = headers().protos.clone();
    protos.retain(|f, _| !CC_RUNTIME_CALLS.contains(&f.as_str()));
    let protos = &protos;
    assert_eq!(
        diff(&names(rust), &names(protos)),
        Vec::<String>::new(),
        "Rust functions without a prototype"
    );
    assert_eq!(
        diff(&names(protos), &names(rust)),
        Vec::<String>::new(),
        "prototypes without a Rust function"
    );
    let mut wrong = Vec::new();
    for (name, p) in protos {
        let r = &rust[name];
        let c_params: Vec<_> = p.params.iter().map(|t| c_class(t)).collect();
        let r_params: Vec<_> = r.params.iter().map(|t| rust_class(t)).collect();
        let same = c_params.len() == r_params.len()
            && c_params
                .iter()
                .zip(&r_params)
                .all(|(c, r)| same_class(c, r))
            && same_class(c_class(&p.ret), rust_class(&r.ret));
        if !same {
            wrong.push(format!(
                "{name}: C {} ({}) vs Rust {} ({})",
                c_class(&p.ret),
                c_params.join(", "),
                rust_class(&r.ret),
                r_params.join(", ")
            ));
        }
    }
    assert!(wrong.is_empty(), "signatures differ:\n{}", wrong.join("\n"));
}

/// The header constants (macros and enumerators) are exactly the Rust constants, by name.
#[test]
fn the_header_constants_are_the_rust_constants() {
    let table: BTreeSet<String> = rust_constants().keys().map(|s| s.to_string()).collect();
    let sources = rust_constant_names();
    let header = &headers().constants;
    assert_eq!(
        diff(&sources, &table),
        Vec::<String>::new(),
        "Rust constants missing from this test's table"
    );
    assert_eq!(
        diff(&table, &sources),
        Vec::<String>::new(),
        "this test's table names constants the sources do not define"
    );
    assert_eq!(
        diff(header, &table),
        Vec::<String>::new(),
        "header constants without a Rust constant"
    );
    assert_eq!(
        diff(&table, header),
        Vec::<String>::new(),
        "Rust constants missing from the headers"
    );
}

/// A program that includes every header, takes the address of every declared function and prints every
/// constant and struct layout builds as C11 and as C++17 (`-Wall -Wextra -Werror -pedantic`), links against
/// libstreamsim.so, and prints Rust's values.
#[test]
fn every_constant_and_layout_has_the_rust_value_in_c_and_cpp() {
    let h = headers();
    let mut src = String::from("#include <stddef.h>\n#include <stdint.h>\n#include <stdio.h>\n");
    src += ALL_HEADERS;
    src += "\ntypedef void (*any_fn)(void);\nstatic any_fn functions[] = {\n";
    for (name, p) in &h.protos {
        // C++ overloads some names (as CUDA's cuda_runtime.h does): pick the C function by its type.
        src += &format!(
            "#ifdef __cplusplus\n    (any_fn)static_cast<{} (*)({})>({name}),\n#else\n    (any_fn){name},\n#endif\n",
            p.ret,
            p.params.join(", ")
        );
    }
    src += "};\n\nint main(void) {\n";
    src += "    printf(\"functions %d\\n\", (int)(sizeof functions / sizeof functions[0]));\n";
    for name in &h.constants {
        src += &format!("    printf(\"{name} %lld\\n\", (long long)(intptr_t)({name}));\n");
    }
    for (expr, _) in rust_layouts() {
        src += &format!("    printf(\"{expr} %d\\n\", (int)({expr}));\n");
    }
    src += "    return 0;\n}\n";
    let t = toolchain();
    let file = t
        .out_dir
        .join(format!("every-declaration-{}.c", std::process::id()));
    std::fs::write(&file, &src).expect("writing the generated program");

    let mut expected = BTreeMap::new();
    expected.insert("functions".to_string(), h.protos.len() as i128);
    for (name, value) in rust_constants() {
        expected.insert(name.to_string(), value);
    }
    for (expr, value) in rust_layouts() {
        expected.insert(expr.to_string(), value as i128);
    }
    for lang in [Lang::C, Lang::Cxx] {
        let exe = crate::c_programs::build(&file, "every-declaration", lang, &["-pedantic"]);
        let out = assert_success(
            &format!("every-declaration ({lang:?})"),
            &crate::c_programs::run(&exe, &[], &[], std::time::Duration::from_secs(60)),
        );
        let got: BTreeMap<String, i128> = out
            .lines()
            .map(|l| {
                let (k, v) = l.rsplit_once(' ').expect("name value");
                (k.to_string(), v.parse().expect("a number"))
            })
            .collect();
        let mismatches: Vec<_> = expected
            .iter()
            .filter(|(k, v)| got.get(*k) != Some(v))
            .map(|(k, v)| format!("{k}: C {:?}, Rust {v}", got.get(k)))
            .collect();
        assert!(
            mismatches.is_empty(),
            "{lang:?}: values differ:\n{}",
            mismatches.join("\n")
        );
        assert_eq!(got.len(), expected.len(), "{lang:?}: extra output lines");
    }
    let _ = std::fs::remove_file(Path::new(&file));
}
