//! The device side of a `.cu` file, retargeted to the host: clang's NVPTX IR (textual LLVM IR from
//! `--cuda-device-only -emit-llvm -S`) rewritten into IR for the host's triple, whose kernels the CPU runs.
//!
//! What the rewrite does, in order (see `docs/semantics/kernels-on-the-cpu.md`):
//! - **Target.** The module's triple and data layout become the host's; NVPTX's function attributes
//!   (`target-cpu`, `target-features`) and the `-O0` front end's `noinline` / `optnone` go, so that the host
//!   optimiser sees ordinary code.
//! - **Address spaces.** Every `addrspace(N)` goes (the host has one), `addrspacecast` becomes a no-op
//!   `bitcast`, and intrinsic names mangled with an address space (`llvm.memcpy.p0.p1.i64`) name `p0`.
//!   `__shared__` variables become thread-local: the threads of a block run on one OS thread, so they share
//!   them, and blocks of kernels on other streams (other OS threads) have their own. `extern __shared__` arrays
//!   are the launch's dynamic shared memory (`__ssk_dyn_smem`).
//! - **Names.** Every symbol the module defines is renamed `__ssd.<name>`, so that `__host__ __device__`
//!   functions and `__device__` variables do not collide with the host side's definitions.
//! - **Special registers.** `llvm.nvvm.read.ptx.sreg.*` (threadIdx, blockIdx, blockDim, gridDim, warp size,
//!   lane) read the runtime's thread-locals; any other `llvm.nvvm.*` intrinsic is an error naming it.
//! - **Accesses.** Every load, store, atomic and `llvm.mem*` whose pointer is computed at run time (not an
//!   `alloca` of the function, not a global) goes through `__ssk.g`: device addresses (which no host mapping
//!   can have) become host pointers into the allocation's bytes, through a one-entry cache and the runtime's
//!   resolver (which faults the kernel on an address outside every live allocation); host addresses pass.
//! - **Entry points.** Each kernel gets a packer (copies its arguments, at the launch, from the `void **args`
//!   of `cudaLaunchKernel` into a buffer of the kernel's own), a trampoline (calls the kernel from that
//!   buffer), and a row in the module's table, registered with the runtime by a constructor, with the flag
//!   saying whether the kernel can reach a barrier or warp function (then its threads run as region loops,
//!   [`super::fission`], or as fibers).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// The host's target, as its clang states it.
#[derive(Debug, Clone)]
pub struct HostTarget {
    /// The target triple.
    pub triple: String,
    /// The data layout.
    pub datalayout: String,
}

/// A kernel of the module: its mangled name and what its entry points take.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelInfo {
    /// The mangled name.
    pub name: String,
    /// The types of its parameters as the packer copies them (a `byval` parameter's pointee type).
    pub params: Vec<String>,
    /// Can reach a barrier, a warp function or an indirect call.
    pub needs_fibers: bool,
    /// The types of the `__shared__` variables it can reach (its static shared memory).
    pub shared: Vec<String>,
    /// Their names in the module (as [`KernelInfo::shared`] orders them), for racecheck's table.
    pub shared_names: Vec<String>,
    /// The types of the `__constant__` variables it can reach.
    pub constants: Vec<String>,
}

/// The rewritten module and what it holds.
#[derive(Debug, Clone)]
pub struct Rewritten {
    /// The IR.
    pub text: String,
    /// Its kernels.
    pub kernels: Vec<KernelInfo>,
    /// `__device__` / `__constant__` variables: (mangled name, renamed symbol).
    pub vars: Vec<(String, String)>,
    /// The `__managed__` ones among them (marked by [`MANAGED_SECTION`]): (mangled name, renamed symbol). The
    /// host side must refer to their device definitions ([`patch_host_managed`]).
    pub managed: Vec<(String, String)>,
}

/// The section `cuda_device.h` puts `__managed__` variables in, so that both passes can tell them apart.
pub const MANAGED_SECTION: &str = "__ssk_managed";

/// Runtime functions that synchronise the threads of a block or a warp: a kernel that can reach one runs its
/// threads as fibers.
const SYNC_FUNCTIONS: &[&str] = &[
    "__ssk_syncthreads",
    "__ssk_syncthreads_op",
    "__ssk_syncwarp",
    "__ssk_warp_op",
    "__ssk_warp_op64",
    "__ssk_grid_sync",
];

/// How many allocations the translator's inline cache holds (`__ssk_cache` in `kernel_rt.c`).
const CACHE_ENTRIES: usize = 8;

/// The type of a cache entry: the allocation's base, length and host bytes, and the tracker's runs
/// (`[lo, hi)` per kind of access).
const CACHE_TYPE: &str = "{ i64, i64, ptr, [3 x [2 x i64]] }";

/// The prefix of every symbol the device module defines, once rewritten.
pub const DEVICE_PREFIX: &str = "__ssd.";

/// The version of the table the constructor registers (`__ssk_register_module` in `kernel_rt.c`).
pub const TABLE_VERSION: u32 = 7;

/// Rewrites `ir` (clang's NVPTX IR of one translation unit) for `host`.
pub fn rewrite(ir: &str, host: &HostTarget) -> Result<Rewritten, String> {
    let lines: Vec<&str> = ir.lines().collect();
    // Pass 1: what the module defines, its kernels, and its external shared arrays.
    let mut defined: BTreeSet<String> = BTreeSet::new();
    let mut kernel_names: BTreeSet<String> = BTreeSet::new();
    let mut dyn_shared: BTreeSet<String> = BTreeSet::new();
    let mut shared_defs: BTreeSet<String> = BTreeSet::new();
    let mut device_vars: Vec<String> = Vec::new();
    let mut managed_vars: BTreeSet<String> = BTreeSet::new();
    // The types of the `__shared__` and `__constant__` variables, for the kernels' attributes.
    let mut var_types: BTreeMap<String, String> = BTreeMap::new();
    let mut constant_vars: BTreeSet<String> = BTreeSet::new();
    // The source lines of the debug locations (`!N = !DILocation(line: L, …)`), for racecheck's reports.
    let mut dbg_lines: BTreeMap<String, u32> = BTreeMap::new();
    for line in &lines {
        let t = line.trim_start();
        if t.starts_with('!')
            && let Some((id, loc)) = t.split_once(" = ")
            && let Some(l) = loc
                .trim_start_matches("distinct ")
                .strip_prefix("!DILocation(line: ")
        {
            let digits: String = l.chars().take_while(char::is_ascii_digit).collect();
            if let Ok(n) = digits.parse() {
                dbg_lines.insert(id.to_string(), n);
            }
            continue;
        }
        if let Some(rest) = t.strip_prefix("define ") {
            if let Some(name) = first_global(rest) {
                if rest.contains("ptx_kernel ") {
                    kernel_names.insert(name.clone());
                }
                defined.insert(name);
            }
        } else if t.starts_with('@') {
            let Some(name) = first_global(t) else {
                continue;
            };
            if name.starts_with("llvm.") {
                continue;
            }
            let after = &t[t.find('=').map_or(0, |i| i + 1)..];
            let external = after.trim_start().starts_with("external ")
                || after.contains(" external ")
                || after.trim_start().starts_with("extern_weak ")
                || after.contains(" extern_weak ");
            if after.contains("addrspace(3)") && after.contains(" global ") {
                if external {
                    dyn_shared.insert(name);
                } else {
                    shared_defs.insert(name.clone());
                    if let Some(g) = after.find(" global ") {
                        var_types.insert(name.clone(), first_type(&after[g + 8..]).to_string());
                    }
                    defined.insert(name);
                }
                continue;
            }
            if !external {
                if (after.contains("addrspace(1)") || after.contains("addrspace(4)"))
                    && after.contains(" global ")
                    && !name.starts_with('.')
                    && !after.contains("private ")
                {
                    device_vars.push(name.clone());
                    if after.contains(&format!("section \"{MANAGED_SECTION}\"")) {
                        managed_vars.insert(name.clone());
                    }
                    if after.contains("addrspace(4)") {
                        if let Some(g) = after.find(" global ") {
                            var_types.insert(name.clone(), first_type(&after[g + 8..]).to_string());
                        }
                        constant_vars.insert(name.clone());
                    }
                }
                defined.insert(name);
            }
        } else if t.starts_with('!') && t.contains("!{ptr @") && t.contains("!\"kernel\", i32 1") {
            // !nvvm.annotations: !N = !{ptr @K, !"kernel", i32 1}
            if let Some(name) = first_global(t) {
                kernel_names.insert(name);
            }
        }
    }
    // The builtin-variable structs of clang's header are never defined: drop their declarations.
    let builtin_vars = ["blockIdx", "blockDim", "threadIdx", "gridDim", "warpSize"];
    // The shared memory as the rewritten code names it: accesses through these are checked by racecheck even
    // when their address is a constant.
    let mut shared_syms: BTreeSet<String> = shared_defs
        .iter()
        .map(|n| sym(&renamed(n, &defined)))
        .collect();
    shared_syms.insert("@__ssk_dyn_smem".to_string());

    // Pass 2: rewrite line by line.
    let mut out = String::with_capacity(ir.len() * 2);
    let mut declared: BTreeSet<String> = BTreeSet::new();
    let mut calls: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut indirect: BTreeSet<String> = BTreeSet::new();
    let mut current: Option<String> = None;
    let mut allocas: BTreeSet<String> = BTreeSet::new();
    // Pointers computed from a `__shared__` variable, and from an `alloca`, by `getelementptr` or `bitcast`.
    let mut shared_ptrs: BTreeSet<String> = BTreeSet::new();
    let mut local_ptrs: BTreeSet<String> = BTreeSet::new();
    let mut fresh = 0usize;
    let mut unsupported: BTreeSet<String> = BTreeSet::new();
    let mut kernels: Vec<KernelInfo> = Vec::new();
    let mut refs: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in &lines {
        let t = line.trim_start();
        if t.starts_with("target datalayout") {
            let _ = writeln!(out, "target datalayout = \"{}\"", host.datalayout);
            continue;
        }
        if t.starts_with("target triple") {
            let _ = writeln!(out, "target triple = \"{}\"", host.triple);
            continue;
        }
        if t.starts_with("!nvvm.annotations")
            || t.starts_with('!') && t.contains("!{ptr @") && t.contains("!\"kernel\"")
        {
            continue;
        }
        if let Some(name) = t.strip_prefix('@').and_then(|_| first_global(t))
            && (builtin_vars.contains(&name.as_str()) || dyn_shared.contains(&name))
        {
            continue;
        }
        if t.starts_with("attributes #") {
            out.push_str(&clean_attributes(t));
            out.push('\n');
            continue;
        }
        if let Some(decl) = t.strip_prefix("declare ") {
            let Some(name) = first_global(decl) else {
                continue;
            };
            if name.starts_with("llvm.nvvm.") {
                continue;
            }
            let line = normalize(t, &defined, &dyn_shared);
            let dname = first_global(&line["declare ".len()..]).unwrap_or_default();
            if declared.insert(dname) {
                out.push_str(&line);
                out.push('\n');
            }
            continue;
        }
        if let Some(rest) = t.strip_prefix("define ") {
            let name = first_global(rest).unwrap_or_default();
            allocas.clear();
            shared_ptrs.clear();
            local_ptrs.clear();
            current = Some(name.clone());
            calls.entry(name.clone()).or_default();
            if kernel_names.contains(&name) {
                kernels.push(KernelInfo {
                    name: name.clone(),
                    params: kernel_params(rest)?,
                    needs_fibers: false,
                    shared: Vec::new(),
                    shared_names: Vec::new(),
                    constants: Vec::new(),
                });
            }
            let line = normalize(t, &defined, &dyn_shared).replacen("ptx_kernel ", "", 1);
            out.push_str(&line);
            out.push('\n');
            continue;
        }
        if t == "}" {
            current = None;
        }
        if t.starts_with('@') && t.contains('=') {
            let name = first_global(t).unwrap_or_default();
            let mut line = normalize(t, &defined, &dyn_shared);
            if managed_vars.contains(&name) {
                // One copy, referred to by the host side: not local to the module, and out of the marker section.
                line = line.replace(&format!(", section \"{MANAGED_SECTION}\""), "");
            }
            if shared_defs.contains(&name) {
                // `@x = internal global T undef` → thread-local (one copy per OS thread running blocks).
                line = make_thread_local(&line);
            }
            out.push_str(&line);
            out.push('\n');
            continue;
        }
        if current.is_none() {
            out.push_str(&normalize(t, &defined, &dyn_shared));
            out.push('\n');
            continue;
        }
        // An instruction.
        let func = current.clone().unwrap_or_default();
        // The shared and constant variables it names.
        let mut rest = *line;
        while let Some(at) = rest.find('@') {
            if let Some(g) = first_global(&rest[at..])
                && var_types.contains_key(&g)
            {
                refs.entry(func.clone()).or_default().insert(g);
            }
            rest = &rest[at + 1..];
        }
        let mut line = normalize(line, &defined, &dyn_shared);
        for (from, to) in sreg_names() {
            if line.contains(from) {
                line = line.replace(from, to);
            }
        }
        if let Some(i) = line.find(" asm ").filter(|_| line.contains("call ")) {
            // Inline PTX: `call i32 asm sideeffect "mov.u32 $0, %laneid;", "=r"()`.
            let text = line[i + 5..]
                .trim_start_matches("sideeffect ")
                .trim_start_matches("convergent ");
            let ptx = text.split('"').nth(1).unwrap_or(text);
            unsupported.insert(format!("inline PTX assembly `{ptx}`"));
        }
        if let Some(i) = line.find("@llvm.nvvm.") {
            let rest = &line[i + 1..];
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '.' || c == '_'))
                .unwrap_or(rest.len());
            unsupported.insert(rest[..end].to_string());
        }
        let body = line.trim_start();
        if let Some(def) = ssa_def(body)
            && body.contains("= alloca ")
        {
            allocas.insert(def);
        } else if let Some(def) = ssa_def(body)
            && let Some(base) = derived_from(body)
        {
            if allocas.contains(base) || local_ptrs.contains(base) {
                local_ptrs.insert(def);
            } else if shared_ptrs.contains(base)
                || first_global(base).is_some_and(|g| shared_syms.contains(&sym(&g)))
            {
                shared_ptrs.insert(def);
            }
        }
        // Calls: the call graph (for the fiber flag).
        if let Some(callee) = called(body) {
            match callee {
                Callee::Direct(c) => {
                    // The call graph is kept under the module's own names (the line is already renamed).
                    let c = c
                        .strip_prefix(DEVICE_PREFIX)
                        .map_or(c.clone(), str::to_string);
                    calls.entry(func.clone()).or_default().insert(c);
                }
                Callee::Indirect => {
                    indirect.insert(func.clone());
                }
            }
        }
        let at = Access {
            allocas: &allocas,
            local_ptrs: &local_ptrs,
            shared_ptrs: &shared_ptrs,
            shared: &shared_syms,
            line: debug_line(&line, &dbg_lines),
        };
        let (pre, line) = instrument(&line, &at, &mut fresh);
        out.push_str(&pre);
        out.push_str(&line);
        out.push('\n');
    }
    if !unsupported.is_empty() {
        let list: Vec<&str> = unsupported.iter().map(String::as_str).collect();
        return Err(format!(
            "device code uses what the CPU does not run: {}",
            list.join(", ")
        ));
    }
    // What each kernel can reach through the functions it calls: a synchronising function or an indirect call
    // (its threads then run as fibers), and the shared and constant variables it names.
    for k in &mut kernels {
        let reached = reachable(&k.name, &calls);
        k.needs_fibers = reached
            .iter()
            .any(|f| SYNC_FUNCTIONS.contains(&f.as_str()) || indirect.contains(f));
        let vars: BTreeSet<&String> = reached
            .iter()
            .filter_map(|f| refs.get(f))
            .flatten()
            .collect();
        for v in vars {
            let t = var_types[v].clone();
            if constant_vars.contains(v) {
                k.constants.push(t);
            } else {
                k.shared.push(t);
                k.shared_names.push(v.clone());
            }
        }
    }
    let vars: Vec<(String, String)> = device_vars
        .iter()
        .map(|v| (v.clone(), renamed(v, &defined)))
        .collect();
    let managed: Vec<(String, String)> = vars
        .iter()
        .filter(|(v, _)| managed_vars.contains(v))
        .cloned()
        .collect();
    out.push_str(&support(&kernels, &vars, &defined, &declared));
    // Each access site's hint for `__ssk.g` (the cache entry it hit last), per OS thread running blocks.
    for i in 1..=fresh {
        let _ = writeln!(
            out,
            "@__ssk.h{i} = internal thread_local(initialexec) global i32 0, align 4"
        );
    }
    Ok(Rewritten {
        text: out,
        kernels,
        vars,
        managed,
    })
}

/// The host pass's IR with every `__managed__` variable's host shadow (clang's `internal global T undef` in the
/// marker section) replaced by a reference to the device definition (`managed`: mangled name → renamed symbol),
/// so that host code and kernels use the same bytes: the variable's one copy, in the device module, which is
/// host memory. An error names a variable whose shadow is not there.
pub fn patch_host_managed(host_ir: &str, managed: &[(String, String)]) -> Result<String, String> {
    let mut out = String::with_capacity(host_ir.len());
    let mut found = BTreeSet::new();
    for line in host_ir.lines() {
        let t = line.trim_start();
        let def = t.starts_with('@')
            && t.contains(&format!("section \"{MANAGED_SECTION}\""))
            && first_global(t).is_some_and(|n| managed.iter().any(|(m, _)| *m == n));
        if def {
            let name = first_global(t).unwrap_or_default();
            let g = t
                .find(" global ")
                .ok_or_else(|| format!("the host shadow of `{name}` is not a global: {t}"))?;
            let ty = first_type(&t[g + 8..]);
            let to = &managed.iter().find(|(m, _)| *m == name).expect("matched").1;
            let _ = writeln!(out, "{} = external global {ty}", sym(to));
            found.insert(name);
            continue;
        }
        out.push_str(&rename_refs(line, managed));
        out.push('\n');
    }
    match managed.iter().find(|(m, _)| !found.contains(m)) {
        Some((m, _)) => Err(format!(
            "the host side has no shadow of the __managed__ variable `{m}`"
        )),
        None => Ok(out),
    }
}

/// `line` with every reference to a managed variable's host name renamed to its device symbol.
fn rename_refs(line: &str, managed: &[(String, String)]) -> String {
    if !line.contains('@') {
        return line.to_string();
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find('@') {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        match first_global(after).and_then(|n| {
            managed
                .iter()
                .find(|(m, _)| *m == n)
                .map(|(m, to)| (sym(m), sym(to)))
        }) {
            Some((from, to)) if after.starts_with(&from) => {
                out.push_str(&to);
                rest = &after[from.len()..];
            }
            _ => {
                out.push('@');
                rest = &after[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The functions `from` can reach in the call graph `calls` (`from` included).
fn reachable(from: &str, calls: &BTreeMap<String, BTreeSet<String>>) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![from.to_string()];
    while let Some(f) = stack.pop() {
        if let Some(cs) = calls.get(&f) {
            stack.extend(cs.iter().filter(|c| !seen.contains(*c)).cloned());
        }
        seen.insert(f);
    }
    seen
}

/// The first `@name` of `s` (unquoted, or `@"quoted"`).
fn first_global(s: &str) -> Option<String> {
    let i = s.find('@')?;
    let rest = &s[i + 1..];
    if let Some(q) = rest.strip_prefix('"') {
        let end = q.find('"')?;
        return Some(q[..end].to_string());
    }
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || "$._-".contains(c)))
        .unwrap_or(rest.len());
    (end > 0).then(|| rest[..end].to_string())
}

fn renamed(name: &str, defined: &BTreeSet<String>) -> String {
    if defined.contains(name) {
        format!("{DEVICE_PREFIX}{name}")
    } else {
        name.to_string()
    }
}

/// How racecheck names a `__shared__` variable: a function's static one (`_ZZ9block_sumPKiPiE1s`) by its
/// own name (`s`), any other by its symbol.
fn shared_label(name: &str) -> String {
    let plain = |s: &str| s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if let Some(rest) = name.strip_prefix("_ZZ")
        && let Some(e) = rest.rfind('E')
    {
        let tail = &rest[e + 1..];
        let digits: String = tail.chars().take_while(char::is_ascii_digit).collect();
        if let Ok(n) = digits.parse::<usize>()
            && tail.len() == digits.len() + n
            && plain(&tail[digits.len()..])
        {
            return tail[digits.len()..].to_string();
        }
    }
    if plain(name) {
        name.to_string()
    } else {
        "a __shared__ variable".to_string()
    }
}

/// An IR symbol reference for `name`.
fn sym(name: &str) -> String {
    if name
        .chars()
        .all(|c| c.is_alphanumeric() || "$._-".contains(c))
        && !name.starts_with(|c: char| c.is_ascii_digit())
    {
        format!("@{name}")
    } else {
        format!("@\"{name}\"")
    }
}

/// A line with its address spaces gone, `addrspacecast` a bitcast, defined symbols (and their comdats)
/// renamed, external shared arrays the dynamic shared memory, and intrinsic names in address space 0.
fn normalize(line: &str, defined: &BTreeSet<String>, dyn_shared: &BTreeSet<String>) -> String {
    let mut s = String::with_capacity(line.len() + 16);
    let b = line.as_bytes();
    let mut i = 0;
    let mut in_str = false;
    while i < b.len() {
        let c = b[i] as char;
        if in_str {
            s.push(c);
            if c == '"' {
                in_str = false;
            }
            i += 1;
            continue;
        }
        if c == 'c' && i + 1 < b.len() && b[i + 1] == b'"' && (i == 0 || !is_ident(b[i - 1])) {
            // c"..." string constant: copied as is.
            s.push_str("c\"");
            in_str = true;
            i += 2;
            continue;
        }
        if c == '"' {
            // Any other string (inline assembly, attributes, metadata; quoted names come with their `@`):
            // copied as is.
            s.push('"');
            in_str = true;
            i += 1;
            continue;
        }
        if c == '@' || (c == '$' && (i == 0 || !is_ident(b[i - 1]))) {
            let rest = &line[i + 1..];
            let (name, len) = if let Some(q) = rest.strip_prefix('"') {
                match q.find('"') {
                    Some(e) => (q[..e].to_string(), e + 2),
                    None => (String::new(), 0),
                }
            } else {
                let e = rest
                    .find(|c: char| !(c.is_alphanumeric() || "$._-".contains(c)))
                    .unwrap_or(rest.len());
                (rest[..e].to_string(), e)
            };
            if len > 0 {
                let new = if c == '@' && dyn_shared.contains(&name) {
                    "__ssk_dyn_smem".to_string()
                } else if let Some(to) = runtime_name(&name) {
                    to.to_string()
                } else if name.starts_with("llvm.") {
                    intrinsic_p0(&name)
                } else {
                    renamed(&name, defined)
                };
                if c == '@' {
                    s.push_str(&sym(&new));
                } else {
                    s.push('$');
                    s.push_str(&sym(&new)[1..]);
                }
                i += 1 + len;
                continue;
            }
        }
        if line[i..].starts_with(" addrspace(")
            && let Some(e) = line[i..].find(')')
        {
            i += e + 1;
            continue;
        }
        if line[i..].starts_with("addrspacecast") && (i == 0 || !is_ident(b[i - 1])) {
            s.push_str("bitcast");
            i += "addrspacecast".len();
            continue;
        }
        s.push(c);
        i += 1;
    }
    s
}

/// Library functions that device code calls under the host library's names but that mean something else on
/// the device: served by the CPU runtime (`kernel_rt.c`) instead.
fn runtime_name(name: &str) -> Option<&'static str> {
    Some(match name {
        "vprintf" => "__ssk_vprintf",
        "__assert_fail" => "__ssk_assert_fail",
        _ => return None,
    })
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'$' || b == b'-'
}

/// `llvm.memcpy.p0.p1.i64` → `llvm.memcpy.p0.p0.i64`.
fn intrinsic_p0(name: &str) -> String {
    name.split('.')
        .map(|part| {
            let digits = part.strip_prefix('p').unwrap_or("");
            if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) {
                "p0"
            } else {
                part
            }
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// An attribute group without NVPTX's target attributes and the `-O0` front end's `noinline` / `optnone`.
fn clean_attributes(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(i) = rest.find("\"target-") {
        out.push_str(&rest[..i]);
        // "target-cpu"="sm_80" → skip to the end of the value.
        let after = &rest[i + 1..];
        let close_key = after.find('"').map_or(after.len(), |e| e + 1);
        let after_key = &after[close_key..];
        let skip = if let Some(v) = after_key.strip_prefix("=\"") {
            close_key + 2 + v.find('"').map_or(v.len(), |e| e + 1)
        } else {
            close_key
        };
        rest = &rest[i + 1 + skip..];
    }
    out.push_str(rest);
    out.split(' ')
        .filter(|w| !w.is_empty() && *w != "noinline" && *w != "optnone")
        .collect::<Vec<_>>()
        .join(" ")
}

fn make_thread_local(line: &str) -> String {
    // `@x = <linkage...> global T init` → `@x = <linkage...> thread_local global T init`.
    let line = line.replacen(" global ", " thread_local global ", 1);
    // An `undef` shared variable is zero-initialised thread-local storage (.tbss).
    line.replace(" undef,", " zeroinitializer,")
}

fn sreg_names() -> &'static [(&'static str, &'static str)] {
    &[
        ("@llvm.nvvm.read.ptx.sreg.tid.x()", "@__ssk.sreg.tid.x()"),
        ("@llvm.nvvm.read.ptx.sreg.tid.y()", "@__ssk.sreg.tid.y()"),
        ("@llvm.nvvm.read.ptx.sreg.tid.z()", "@__ssk.sreg.tid.z()"),
        ("@llvm.nvvm.read.ptx.sreg.ntid.x()", "@__ssk.sreg.ntid.x()"),
        ("@llvm.nvvm.read.ptx.sreg.ntid.y()", "@__ssk.sreg.ntid.y()"),
        ("@llvm.nvvm.read.ptx.sreg.ntid.z()", "@__ssk.sreg.ntid.z()"),
        (
            "@llvm.nvvm.read.ptx.sreg.ctaid.x()",
            "@__ssk.sreg.ctaid.x()",
        ),
        (
            "@llvm.nvvm.read.ptx.sreg.ctaid.y()",
            "@__ssk.sreg.ctaid.y()",
        ),
        (
            "@llvm.nvvm.read.ptx.sreg.ctaid.z()",
            "@__ssk.sreg.ctaid.z()",
        ),
        (
            "@llvm.nvvm.read.ptx.sreg.nctaid.x()",
            "@__ssk.sreg.nctaid.x()",
        ),
        (
            "@llvm.nvvm.read.ptx.sreg.nctaid.y()",
            "@__ssk.sreg.nctaid.y()",
        ),
        (
            "@llvm.nvvm.read.ptx.sreg.nctaid.z()",
            "@__ssk.sreg.nctaid.z()",
        ),
        (
            "@llvm.nvvm.read.ptx.sreg.warpsize()",
            "@__ssk.sreg.warpsize()",
        ),
        ("@llvm.nvvm.read.ptx.sreg.laneid()", "@__ssk.sreg.laneid()"),
        ("@llvm.nvvm.barrier0()", "@__ssk_syncthreads()"),
    ]
}

/// `%x = ...` → `%x`.
/// The pointer a `getelementptr inbounds` or a `bitcast` of a pointer computes from (its base operand), if
/// `body` is one: the result points into the same object. (A GEP without `inbounds` can compute any address.)
fn derived_from(body: &str) -> Option<&str> {
    let (_, rhs) = body.split_once(" = ")?;
    if let Some(r) = rhs.strip_prefix("getelementptr inbounds ") {
        let r = r.trim_start_matches("nuw ");
        let parts = split_top(r);
        return parts.get(1)?.trim().strip_prefix("ptr ").map(str::trim);
    }
    rhs.strip_prefix("bitcast ptr ")
        .and_then(|r| r.rsplit_once(" to ptr"))
        .map(|(base, _)| base.trim())
}

fn ssa_def(body: &str) -> Option<String> {
    let (lhs, _) = body.split_once(" = ")?;
    lhs.starts_with('%').then(|| lhs.to_string())
}

enum Callee {
    Direct(String),
    Indirect,
}

fn called(body: &str) -> Option<Callee> {
    let i = body
        .find("call ")
        .filter(|&i| i == 0 || body[..i].ends_with(' '))?;
    let rest = &body[i..];
    // The callee is the first `@name(` or `%name(` after the return type.
    let at = rest.find('@');
    let pct = rest[5..].find('%').map(|p| p + 5);
    match (at, pct) {
        (Some(a), Some(p))
            if p < a
                && rest[p..]
                    .find('(')
                    .is_some_and(|o| !rest[p..p + o].contains(' ')) =>
        {
            Some(Callee::Indirect)
        }
        (Some(a), _) => first_global(&rest[a..]).map(Callee::Direct),
        (None, Some(_)) => Some(Callee::Indirect),
        (None, None) => None,
    }
}

/// Splits `s` at top-level commas (outside parentheses, brackets, braces, angle brackets and strings).
pub(super) fn split_top(s: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut in_str = false;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        if in_str {
            if c == '"' {
                in_str = false;
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !s[start..].trim().is_empty() {
        parts.push(s[start..].trim());
    }
    parts
}

/// The first type of `s` (balanced: `{ i32, float }`, `[4 x i8]`, `<2 x float>`, `%struct.S`, `ptr`, ...).
pub(super) fn first_type(s: &str) -> &str {
    let s = s.trim_start();
    let open = match s.chars().next() {
        Some('{') => Some(('{', '}')),
        Some('[') => Some(('[', ']')),
        Some('<') => Some(('<', '>')),
        _ => None,
    };
    if let Some((o, c)) = open {
        let mut depth = 0;
        for (i, ch) in s.char_indices() {
            if ch == o {
                depth += 1;
            } else if ch == c {
                depth -= 1;
                if depth == 0 {
                    return &s[..=i];
                }
            }
        }
        return s;
    }
    let end = s.find([' ', ',', ')']).unwrap_or(s.len());
    &s[..end]
}

/// The parameters' types of `define ... @name(params) ...` (a `byval(T)` parameter's is `T`).
fn kernel_params(rest: &str) -> Result<Vec<String>, String> {
    let open = rest
        .find("(")
        .ok_or_else(|| format!("cannot read the kernel's definition `{rest}`"))?;
    let mut depth = 0;
    let mut close = None;
    for (i, c) in rest[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(open + i);
                    break;
                }
            }
            _ => {}
        }
    }
    let close = close.ok_or_else(|| format!("cannot read the kernel's parameters `{rest}`"))?;
    let inner = &rest[open + 1..close];
    Ok(split_top(inner)
        .into_iter()
        .map(|p| {
            if let Some(i) = p.find("byval(") {
                let t = &p[i + "byval(".len()..];
                format!("byval:{}", first_type(t))
            } else {
                first_type(p).to_string()
            }
        })
        .collect())
}

/// The byte size of a first-class IR type where it is simple; `None` for aggregates.
fn type_size(t: &str) -> Option<u64> {
    Some(match t {
        "i1" | "i8" => 1,
        "i16" | "half" | "bfloat" => 2,
        "i32" | "float" => 4,
        "i64" | "double" | "ptr" => 8,
        "i128" | "fp128" => 16,
        _ => {
            if let Some(inner) = t.strip_prefix('<').and_then(|s| s.strip_suffix('>')) {
                let (n, ty) = inner.split_once(" x ")?;
                return Some(n.trim().parse::<u64>().ok()? * type_size(ty.trim())?);
            }
            return None;
        }
    })
}

/// The kinds of access `__ssk.g` is told (`SSK_KIND_*` in `kernel_rt.c`): the low two bits of its flags.
const KIND_READ: u32 = 0;
const KIND_WRITE: u32 = 1;
const KIND_ATOMIC: u32 = 2;

/// The `align N` an instruction states, if any.
fn stated_align(parts: &[String]) -> Option<u64> {
    parts
        .iter()
        .find_map(|p| p.trim().strip_prefix("align ")?.trim().parse().ok())
}

/// `__ssk.g`'s flags: the kind in bits 0-1, bits 8-11 the mask of the address bits that must be 0 —
/// the alignment the access needs, which is the smaller of its size (a power of two up to 16, as the GPU's
/// loads and stores are) and the alignment the IR states (a packed field states 1, and is read byte-wise).
fn access_flags(kind: u32, bytes: u64, align: Option<u64>) -> u32 {
    let natural = if bytes.is_power_of_two() && bytes <= 16 {
        bytes
    } else {
        1
    };
    let need = align.map_or(1, |a| a.min(natural)).max(1);
    kind | ((need as u32 - 1) << 8)
}

/// The most a source line can be in `__ssk.g`'s flags (bits 12-31); a later line is given as 0 (unknown).
const MAX_LINE: u32 = (1 << 20) - 1;

/// The source line of an instruction from its `!dbg` location (0 without debug information).
fn debug_line(line: &str, dbg_lines: &BTreeMap<String, u32>) -> u32 {
    let Some(i) = line.rfind("!dbg !") else {
        return 0;
    };
    let id: String = line[i + 5..]
        .chars()
        .enumerate()
        .take_while(|(k, c)| *k == 0 || c.is_ascii_digit())
        .map(|(_, c)| c)
        .collect();
    dbg_lines
        .get(&id)
        .copied()
        .filter(|l| *l <= MAX_LINE)
        .unwrap_or(0)
}

/// What the instrumentation of a line needs to know: the function's `alloca`s (never translated), the
/// symbols of shared memory (translated even as constants, for racecheck), and the line's source line.
struct Access<'a> {
    allocas: &'a BTreeSet<String>,
    /// Pointers into the thread's own `alloca`s (never translated).
    local_ptrs: &'a BTreeSet<String>,
    /// Pointers into shared memory: translated by `__ssk.gs` (racecheck's note only).
    shared_ptrs: &'a BTreeSet<String>,
    shared: &'a BTreeSet<String>,
    line: u32,
}

/// The instrumentation of one instruction line: (instructions to insert before it, the line).
fn instrument(line: &str, at: &Access<'_>, fresh: &mut usize) -> (String, String) {
    let allocas = at.allocas;
    let src_line = at.line << 12;
    let indent_len = line.len() - line.trim_start().len();
    let body = line.trim_start();
    let (lhs, rhs) = match body.split_once(" = ") {
        Some((l, r)) if l.starts_with('%') => (Some(l), r),
        _ => (None, body),
    };
    let mut pre = String::new();
    // Translates the pointer that starts `operand` (an atomic's ordering may follow it): the operand with the
    // translated pointer, or `None` when it needs none.
    // `flags` is the access's kind and the alignment it needs (see `access_flags`).
    let mut xlat = |operand: &str, size: &str, flags: u32, pre: &mut String| -> Option<String> {
        let operand = operand.trim();
        let (ptr, after) = if operand.starts_with('%') || operand.starts_with('@') {
            operand.split_at(operand.find(' ').unwrap_or(operand.len()))
        } else {
            // A constant expression (`getelementptr (…)`, `bitcast (…)`): the whole operand.
            (operand, "")
        };
        let shared = || first_global(ptr).is_some_and(|g| at.shared.contains(&sym(&g)));
        let to_shared = if ptr.starts_with('%') {
            if allocas.contains(ptr) || at.local_ptrs.contains(ptr) {
                return None;
            }
            at.shared_ptrs.contains(ptr)
        } else if !shared() {
            return None;
        } else {
            true
        };
        *fresh += 1;
        let name = format!("%__ssk.p{fresh}");
        let flags = flags | src_line;
        if to_shared {
            let _ = writeln!(
                pre,
                "{:indent_len$}{name} = call ptr @__ssk.gs(ptr {ptr}, i64 {size}, i32 {flags})",
                ""
            );
        } else {
            let _ = writeln!(
                pre,
                "{:indent_len$}{name} = call ptr @__ssk.g(ptr {ptr}, i64 {size}, i32 {flags}, ptr @__ssk.h{fresh})",
                ""
            );
        }
        Some(format!("{name}{after}"))
    };
    let rebuild = |lhs: Option<&str>, head: &str, parts: &[String], tail: &str| -> String {
        let mut s = String::new();
        s.push_str(&" ".repeat(indent_len));
        if let Some(l) = lhs {
            s.push_str(l);
            s.push_str(" = ");
        }
        s.push_str(head);
        s.push_str(&parts.join(", "));
        s.push_str(tail);
        s
    };
    // load [volatile] T, ptr %p[, align N]...
    if let Some(r) = rhs.strip_prefix("load ") {
        let (head, r) = match r.strip_prefix("atomic ") {
            Some(r) => ("load atomic ", r),
            None => ("load ", r),
        };
        let (head2, r) = match r.strip_prefix("volatile ") {
            Some(r) => (format!("{head}volatile "), r),
            None => (head.to_string(), r),
        };
        let mut parts: Vec<String> = split_top(r).into_iter().map(String::from).collect();
        if parts.len() >= 2 {
            let ty = parts[0].clone();
            if let Some(p) = parts[1].strip_prefix("ptr ") {
                let bytes = type_size(&ty).unwrap_or(1);
                let flags = access_flags(KIND_READ, bytes, stated_align(&parts));
                if let Some(n) = xlat(p, &bytes.to_string(), flags, &mut pre) {
                    parts[1] = format!("ptr {n}");
                    return (pre, rebuild(lhs, &head2, &parts, ""));
                }
            }
        }
        return (pre, line.to_string());
    }
    // store [volatile] T v, ptr %p[, align N]
    if let Some(r) = rhs.strip_prefix("store ") {
        let (head, r) = match r.strip_prefix("atomic ") {
            Some(r) => ("store atomic ", r),
            None => ("store ", r),
        };
        let (head2, r) = match r.strip_prefix("volatile ") {
            Some(r) => (format!("{head}volatile "), r),
            None => (head.to_string(), r),
        };
        let mut parts: Vec<String> = split_top(r).into_iter().map(String::from).collect();
        if parts.len() >= 2 {
            let ty = first_type(&parts[0]).to_string();
            if let Some(p) = parts[1].strip_prefix("ptr ") {
                let bytes = type_size(&ty).unwrap_or(1);
                let flags = access_flags(KIND_WRITE, bytes, stated_align(&parts));
                if let Some(n) = xlat(p, &bytes.to_string(), flags, &mut pre) {
                    parts[1] = format!("ptr {n}");
                    return (pre, rebuild(lhs, &head2, &parts, ""));
                }
            }
        }
        return (pre, line.to_string());
    }
    // atomicrmw [volatile] op ptr %p, T v ordering / cmpxchg [weak] [volatile] ptr %p, T a, T b ...
    for kw in ["atomicrmw ", "cmpxchg "] {
        if let Some(r) = rhs.strip_prefix(kw) {
            if let Some(i) = r.find("ptr %") {
                let head = format!("{kw}{}", &r[..i]);
                let mut parts: Vec<String> =
                    split_top(&r[i..]).into_iter().map(String::from).collect();
                let p = parts[0]["ptr ".len()..].to_string();
                let ty = parts
                    .get(1)
                    .map(|s| first_type(s).to_string())
                    .unwrap_or_default();
                let bytes = type_size(&ty).unwrap_or(1);
                // An atomic needs its natural alignment, whatever the IR states.
                let flags = access_flags(KIND_ATOMIC, bytes, Some(bytes));
                if let Some(n) = xlat(&p, &bytes.to_string(), flags, &mut pre) {
                    parts[0] = format!("ptr {n}");
                    return (pre, rebuild(lhs, &head, &parts, ""));
                }
            }
            return (pre, line.to_string());
        }
    }
    // call void @llvm.memcpy/memmove/memset.*(ptr [attrs] %d, ptr [attrs] %s | i8 v, i64 n, i1 v)
    if body.contains("call void @llvm.memcpy.")
        || body.contains("call void @llvm.memmove.")
        || body.contains("call void @llvm.memset.")
    {
        let open = body.find('(').unwrap_or(0);
        let close = body.rfind(')').unwrap_or(body.len());
        let mut args: Vec<String> = split_top(&body[open + 1..close])
            .into_iter()
            .map(String::from)
            .collect();
        if args.len() >= 3 {
            let n = args[2].split_whitespace().last().unwrap_or("1").to_string();
            let is_set = body.contains("@llvm.memset.");
            let mut changed = false;
            for (k, write) in [(0usize, true), (1usize, false)] {
                if k == 1 && is_set {
                    continue;
                }
                let a = args[k].clone();
                if !a.starts_with("ptr") {
                    continue;
                }
                let op = a.split_whitespace().last().unwrap_or("").to_string();
                let kind = if write { KIND_WRITE } else { KIND_READ };
                if let Some(newp) = xlat(&op, &n, access_flags(kind, 1, None), &mut pre) {
                    let cut = a.len() - op.len();
                    args[k] = format!("{}{newp}", &a[..cut]);
                    changed = true;
                }
            }
            if changed {
                let s = format!(
                    "{}{}{}{}",
                    " ".repeat(indent_len),
                    &body[..=open],
                    args.join(", "),
                    &body[close..]
                );
                return (pre, s);
            }
        }
    }
    (pre, line.to_string())
}

/// The definitions the rewritten module needs: special registers, the access translator, and per kernel
/// its packer, size, trampoline and table row, and the constructor that registers the table.
fn support(
    kernels: &[KernelInfo],
    vars: &[(String, String)],
    defined: &BTreeSet<String>,
    declared: &BTreeSet<String>,
) -> String {
    let mut s = String::new();
    s.push_str("\n; ---- streamsim: the CPU runtime's view of the device\n");
    for v in ["tid", "ntid", "ctaid", "nctaid"] {
        let _ = writeln!(
            s,
            "@__ssk_{v} = external thread_local(initialexec) global [3 x i32], align 4"
        );
    }
    let _ = writeln!(
        s,
        "@__ssk_cache = external thread_local(initialexec) global [{CACHE_ENTRIES} x {CACHE_TYPE}], align 8"
    );
    s.push_str(
        "@__ssk_lane = external thread_local(initialexec) global i32, align 4\n\
         @__ssk_loop_clock = external thread_local(initialexec) global i64, align 8\n\
         @__ssk_track = external thread_local(initialexec) global i32, align 4\n\
         @__ssk_racecheck = external thread_local(initialexec) global i32, align 4\n\
         @__ssk_dyn_smem = external thread_local(initialexec) global [0 x i8], align 16\n",
    );
    for (v, reg) in [
        ("tid", "tid"),
        ("ntid", "ntid"),
        ("ctaid", "ctaid"),
        ("nctaid", "nctaid"),
    ] {
        for (i, axis) in ["x", "y", "z"].iter().enumerate() {
            let _ = writeln!(
                s,
                "define internal i32 @__ssk.sreg.{reg}.{axis}() alwaysinline {{\n  %p = getelementptr [3 x i32], ptr @__ssk_{v}, i32 0, i32 {i}\n  %v = load i32, ptr %p, align 4\n  ret i32 %v\n}}"
            );
        }
    }
    s.push_str(
        "define internal i32 @__ssk.sreg.warpsize() alwaysinline {\n  ret i32 32\n}\n\
         define internal i32 @__ssk.sreg.laneid() alwaysinline {\n  %v = load i32, ptr @__ssk_lane, align 4\n  ret i32 %v\n}\n",
    );
    if !declared.contains("__ssk_syncthreads") {
        // Convergent, as the barrier it replaces: the CPU pass must not duplicate it into divergent paths
        // (jump threading would give threads that reach one source barrier two call sites: a false synccheck
        // divergence).
        s.push_str("declare void @__ssk_syncthreads() convergent nounwind\n");
    }
    if !declared.contains("llvm.expect.i1") {
        s.push_str("declare i1 @llvm.expect.i1(i1, i1)\n");
    }
    if !declared.contains("__ssk_resolve") {
        s.push_str("declare ptr @__ssk_resolve(i64, i64, i32)\n");
    }
    if !declared.contains("__ssk_flush") {
        s.push_str("declare void @__ssk_flush(i32, i32, i64, i64)\n");
    }
    if !declared.contains("__ssk_shared_access") {
        s.push_str("declare void @__ssk_shared_access(i64, i64, i32)\n");
    }
    // The access tracker (byte ranges for the race detector, when the launch is tracked): each cache entry
    // holds, per kind of access (read, write, atomic), the run of bytes the kernel touched last as offsets
    // `[lo, hi)` in the allocation. An access that overlaps or touches the run widens it inline; any other
    // ends the run (`__ssk_flush` keeps it in the launch's list) and starts a new one. An empty run is
    // `[-1, -1)`, which no access touches.
    let _ = writeln!(
        s,
        "define internal void @__ssk.note(i32 %e, i64 %d, i64 %size, i32 %kind) alwaysinline {{\n\
         entry:\n\
         \x20 %ki = zext i32 %kind to i64\n\
         \x20 %plo = getelementptr [{CACHE_ENTRIES} x {CACHE_TYPE}], ptr @__ssk_cache, i32 0, i32 %e, i32 3, i64 %ki, i32 0\n\
         \x20 %phi = getelementptr [{CACHE_ENTRIES} x {CACHE_TYPE}], ptr @__ssk_cache, i32 0, i32 %e, i32 3, i64 %ki, i32 1\n\
         \x20 %lo = load i64, ptr %plo, align 8\n\
         \x20 %hi = load i64, ptr %phi, align 8\n\
         \x20 %end = add i64 %d, %size\n\
         \x20 %c1 = icmp ule i64 %d, %hi\n\
         \x20 %c2 = icmp uge i64 %end, %lo\n\
         \x20 %ok = and i1 %c1, %c2\n\
         \x20 br i1 %ok, label %widen, label %flush\n\
         widen:\n\
         \x20 %c3 = icmp ult i64 %d, %lo\n\
         \x20 %nlo = select i1 %c3, i64 %d, i64 %lo\n\
         \x20 %c4 = icmp ugt i64 %end, %hi\n\
         \x20 %nhi = select i1 %c4, i64 %end, i64 %hi\n\
         \x20 store i64 %nlo, ptr %plo, align 8\n\
         \x20 store i64 %nhi, ptr %phi, align 8\n\
         \x20 ret void\n\
         flush:\n\
         \x20 call void @__ssk_flush(i32 %e, i32 %kind, i64 %d, i64 %end)\n\
         \x20 ret void\n\
         }}"
    );
    // The translator. An address aligned as the access needs that lies in the cache entry its site hit last
    // (the site's hint) is served from it (and noted by the tracker when the launch is tracked): the common
    // case, tried first (a cached allocation is device or managed memory, never another host address).
    // Otherwise host addresses (above the first 64 KiB and below 2^47) pass (racecheck, when the launch runs
    // it, sees each such access), except those of the managed window (`src/engine/memory/lazy.rs`), which are
    // resolved as device memory is; an aligned device address in one of the eight allocations the kernel
    // touched last is served from that entry (which becomes the site's hint); anything else goes to the
    // resolver (which faults the kernel on an address outside every live allocation, NULL included, and on a
    // misaligned one).
    // Only the hinted path is inlined at each access site; the rest is one function of the module (inlined at
    // every site, its eight entries' checks and notes made a kernel's code ten times larger, and
    // threadFenceReduction's 36 instantiations took minutes to compile).
    let _ = writeln!(
        s,
        "define internal ptr @__ssk.g(ptr %p, i64 %size, i32 %f, ptr %hint) alwaysinline {{\n\
         entry:\n\
         \x20 %a = ptrtoint ptr %p to i64\n\
         \x20 %f64 = zext i32 %f to i64\n\
         \x20 %am8 = lshr i64 %f64, 8\n\
         \x20 %am = and i64 %am8, 15\n\
         \x20 %mis = and i64 %a, %am\n\
         \x20 %al = icmp eq i64 %mis, 0\n\
         \x20 %kind = and i32 %f, 3\n\
         \x20 %alx = call i1 @llvm.expect.i1(i1 %al, i1 true)\n\
         \x20 br i1 %alx, label %hinted, label %slow\n\
         hinted:\n\
         \x20 %hi = load i32, ptr %hint, align 4\n\
         \x20 %pbh = getelementptr [{CACHE_ENTRIES} x {CACHE_TYPE}], ptr @__ssk_cache, i32 0, i32 %hi, i32 0\n\
         \x20 %plh = getelementptr [{CACHE_ENTRIES} x {CACHE_TYPE}], ptr @__ssk_cache, i32 0, i32 %hi, i32 1\n\
         \x20 %baseh = load i64, ptr %pbh, align 8\n\
         \x20 %lenh = load i64, ptr %plh, align 8\n\
         \x20 %dh = sub i64 %a, %baseh\n\
         \x20 %inh = icmp ult i64 %dh, %lenh\n\
         \x20 %roomh = sub i64 %lenh, %dh\n\
         \x20 %fitsh = icmp uge i64 %roomh, %size\n\
         \x20 %okh = and i1 %inh, %fitsh\n\
         \x20 %okhx = call i1 @llvm.expect.i1(i1 %okh, i1 true)\n\
         \x20 br i1 %okhx, label %hith, label %slow\n\
         hith:\n\
         \x20 %phh = getelementptr [{CACHE_ENTRIES} x {CACHE_TYPE}], ptr @__ssk_cache, i32 0, i32 %hi, i32 2\n\
         \x20 %hbh = load ptr, ptr %phh, align 8\n\
         \x20 %rh = getelementptr i8, ptr %hbh, i64 %dh\n\
         \x20 %th = load i32, ptr @__ssk_track, align 4\n\
         \x20 %tonh = icmp ne i32 %th, 0\n\
         \x20 br i1 %tonh, label %noteh, label %doneh\n\
         noteh:\n\
         \x20 call void @__ssk.note(i32 %hi, i64 %dh, i64 %size, i32 %kind)\n\
         \x20 br label %doneh\n\
         doneh:\n\
         \x20 ret ptr %rh\n\
         slow:\n\
         \x20 %r = call ptr @__ssk.gslow(ptr %p, i64 %size, i32 %f, ptr %hint)\n\
         \x20 ret ptr %r\n\
         }}"
    );
    s.push_str(
        "define internal ptr @__ssk.gslow(ptr %p, i64 %size, i32 %f, ptr %hint) noinline {\n\
         entry:\n\
         \x20 %a = ptrtoint ptr %p to i64\n\
         \x20 %f64 = zext i32 %f to i64\n\
         \x20 %am8 = lshr i64 %f64, 8\n\
         \x20 %am = and i64 %am8, 15\n\
         \x20 %mis = and i64 %a, %am\n\
         \x20 %al = icmp eq i64 %mis, 0\n\
         \x20 %kind = and i32 %f, 3\n\
         \x20 %alx = call i1 @llvm.expect.i1(i1 %al, i1 true)\n\
         \x20 br i1 %alx, label %hinted, label %hostcheck\n",
    );
    let _ = writeln!(
        s,
        "hinted:\n\
         \x20 %hi = load i32, ptr %hint, align 4\n\
         \x20 %pbh = getelementptr [{CACHE_ENTRIES} x {CACHE_TYPE}], ptr @__ssk_cache, i32 0, i32 %hi, i32 0\n\
         \x20 %plh = getelementptr [{CACHE_ENTRIES} x {CACHE_TYPE}], ptr @__ssk_cache, i32 0, i32 %hi, i32 1\n\
         \x20 %baseh = load i64, ptr %pbh, align 8\n\
         \x20 %lenh = load i64, ptr %plh, align 8\n\
         \x20 %dh = sub i64 %a, %baseh\n\
         \x20 %inh = icmp ult i64 %dh, %lenh\n\
         \x20 %roomh = sub i64 %lenh, %dh\n\
         \x20 %fitsh = icmp uge i64 %roomh, %size\n\
         \x20 %okh = and i1 %inh, %fitsh\n\
         \x20 %okhx = call i1 @llvm.expect.i1(i1 %okh, i1 true)\n\
         \x20 br i1 %okhx, label %hith, label %hostcheck\n\
         hith:\n\
         \x20 %phh = getelementptr [{CACHE_ENTRIES} x {CACHE_TYPE}], ptr @__ssk_cache, i32 0, i32 %hi, i32 2\n\
         \x20 %hbh = load ptr, ptr %phh, align 8\n\
         \x20 %rh = getelementptr i8, ptr %hbh, i64 %dh\n\
         \x20 %th = load i32, ptr @__ssk_track, align 4\n\
         \x20 %tonh = icmp ne i32 %th, 0\n\
         \x20 br i1 %tonh, label %noteh, label %doneh\n\
         noteh:\n\
         \x20 call void @__ssk.note(i32 %hi, i64 %dh, i64 %size, i32 %kind)\n\
         \x20 br label %doneh\n\
         doneh:\n\
         \x20 ret ptr %rh\n\
         hostcheck:\n\
         \x20 %h = sub i64 %a, 65536\n\
         \x20 %anyhost = icmp ult i64 %h, 140737488289792\n\
         \x20 %w = sub i64 %a, {}\n\
         \x20 %managed = icmp ult i64 %w, {}\n\
         \x20 %host = select i1 %managed, i1 false, i1 %anyhost\n\
         \x20 br i1 %host, label %pass, label %aligned\n\
         pass:\n\
         \x20 %rc = load i32, ptr @__ssk_racecheck, align 4\n\
         \x20 %rcon = icmp ne i32 %rc, 0\n\
         \x20 br i1 %rcon, label %shared, label %passed\n\
         shared:\n\
         \x20 call void @__ssk_shared_access(i64 %a, i64 %size, i32 %f)\n\
         \x20 br label %passed\n\
         passed:\n\
         \x20 ret ptr %p\n\
         aligned:\n\
         \x20 br i1 %al, label %e0, label %miss",
        crate::engine::memory::lazy::WINDOW_BASE,
        crate::engine::memory::lazy::WINDOW_LEN,
    );
    for e in 0..CACHE_ENTRIES {
        let next = if e + 1 == CACHE_ENTRIES {
            "miss".to_string()
        } else {
            format!("e{}", e + 1)
        };
        let _ = writeln!(
            s,
            "e{e}:\n\
             \x20 %pb{e} = getelementptr [{CACHE_ENTRIES} x {CACHE_TYPE}], ptr @__ssk_cache, i32 0, i32 {e}, i32 0\n\
             \x20 %pl{e} = getelementptr [{CACHE_ENTRIES} x {CACHE_TYPE}], ptr @__ssk_cache, i32 0, i32 {e}, i32 1\n\
             \x20 %base{e} = load i64, ptr %pb{e}, align 8\n\
             \x20 %len{e} = load i64, ptr %pl{e}, align 8\n\
             \x20 %d{e} = sub i64 %a, %base{e}\n\
             \x20 %in{e} = icmp ult i64 %d{e}, %len{e}\n\
             \x20 %room{e} = sub i64 %len{e}, %d{e}\n\
             \x20 %fits{e} = icmp uge i64 %room{e}, %size\n\
             \x20 %ok{e} = and i1 %in{e}, %fits{e}\n\
             \x20 br i1 %ok{e}, label %hit{e}, label %{next}\n\
             hit{e}:\n\
             \x20 %ph{e} = getelementptr [{CACHE_ENTRIES} x {CACHE_TYPE}], ptr @__ssk_cache, i32 0, i32 {e}, i32 2\n\
             \x20 %hb{e} = load ptr, ptr %ph{e}, align 8\n\
             \x20 %r{e} = getelementptr i8, ptr %hb{e}, i64 %d{e}\n\
             \x20 store i32 {e}, ptr %hint, align 4\n\
             \x20 %t{e} = load i32, ptr @__ssk_track, align 4\n\
             \x20 %ton{e} = icmp ne i32 %t{e}, 0\n\
             \x20 br i1 %ton{e}, label %note{e}, label %done{e}\n\
             note{e}:\n\
             \x20 call void @__ssk.note(i32 {e}, i64 %d{e}, i64 %size, i32 %kind)\n\
             \x20 br label %done{e}\n\
             done{e}:\n\
             \x20 ret ptr %r{e}"
        );
    }
    s.push_str(
        "miss:\n\
         \x20 %r = call ptr @__ssk_resolve(i64 %a, i64 %size, i32 %f)\n\
         \x20 ret ptr %r\n\
         }\n",
    );
    // A pointer into shared memory (computed from a `__shared__` variable): a host address of the block's
    // thread; racecheck, when the launch runs it, sees the access.
    s.push_str(
        "define internal ptr @__ssk.gs(ptr %p, i64 %size, i32 %f) alwaysinline {\n\
         entry:\n\
         \x20 %rc = load i32, ptr @__ssk_racecheck, align 4\n\
         \x20 %rcon = icmp ne i32 %rc, 0\n\
         \x20 br i1 %rcon, label %shared, label %passed\n\
         shared:\n\
         \x20 %a = ptrtoint ptr %p to i64\n\
         \x20 call void @__ssk_shared_access(i64 %a, i64 %size, i32 %f)\n\
         \x20 br label %passed\n\
         passed:\n\
         \x20 ret ptr %p\n\
         }\n",
    );
    let mut rows = Vec::new();
    for (k, info) in kernels.iter().enumerate() {
        let fields: Vec<String> = info
            .params
            .iter()
            .map(|p| p.strip_prefix("byval:").unwrap_or(p).to_string())
            .collect();
        let _ = writeln!(s, "%__ssk.args.{k} = type {{ {} }}", fields.join(", "));
        // Packer: copies each argument from args[i] into the buffer.
        let _ = writeln!(
            s,
            "define internal void @__ssk.pack.{k}(ptr %args, ptr %buf) {{"
        );
        for (i, t) in fields.iter().enumerate() {
            let _ = writeln!(
                s,
                "  %a{i}p = getelementptr ptr, ptr %args, i64 {i}\n  %a{i} = load ptr, ptr %a{i}p, align 8\n  %v{i} = load {t}, ptr %a{i}, align 1\n  %f{i} = getelementptr %__ssk.args.{k}, ptr %buf, i32 0, i32 {i}\n  store {t} %v{i}, ptr %f{i}, align 1"
            );
        }
        s.push_str("  ret void\n}\n");
        let _ = writeln!(
            s,
            "define internal i64 @__ssk.size.{k}() {{\n  ret i64 ptrtoint (ptr getelementptr (%__ssk.args.{k}, ptr null, i32 1) to i64)\n}}"
        );
        // Trampoline: calls the kernel from the buffer.
        let _ = writeln!(
            s,
            "define internal void @__ssk.tramp.{k}(ptr %buf) alwaysinline {{"
        );
        let mut args = Vec::new();
        for (i, p) in info.params.iter().enumerate() {
            let _ = writeln!(
                s,
                "  %f{i} = getelementptr %__ssk.args.{k}, ptr %buf, i32 0, i32 {i}"
            );
            if let Some(t) = p.strip_prefix("byval:") {
                args.push(format!("ptr byval({t}) %f{i}"));
            } else {
                let _ = writeln!(s, "  %v{i} = load {p}, ptr %f{i}, align 1");
                args.push(format!("{p} %v{i}"));
            }
        }
        let _ = writeln!(
            s,
            "  call void {}({}) alwaysinline\n  ret void\n}}",
            sym(&renamed(&info.name, defined)),
            args.join(", ")
        );
        // A block's threads in order, for a kernel with no barrier: the loop and the kernel in one function,
        // which the optimiser sees whole.
        let _ = writeln!(
            s,
            "define internal void @__ssk.block.{k}(ptr %buf) {{\n\
             entry:\n  %nx = load i32, ptr @__ssk_ntid, align 4\n\
             \x20 %pny = getelementptr [3 x i32], ptr @__ssk_ntid, i32 0, i32 1\n  %ny = load i32, ptr %pny, align 4\n\
             \x20 %pnz = getelementptr [3 x i32], ptr @__ssk_ntid, i32 0, i32 2\n  %nz = load i32, ptr %pnz, align 4\n\
             \x20 %nxy = mul i32 %nx, %ny\n\
             \x20 %pty = getelementptr [3 x i32], ptr @__ssk_tid, i32 0, i32 1\n\
             \x20 %ptz = getelementptr [3 x i32], ptr @__ssk_tid, i32 0, i32 2\n  br label %z\n\
             z:\n  %iz = phi i32 [ 0, %entry ], [ %iz1, %zend ]\n  store i32 %iz, ptr %ptz, align 4\n\
             \x20 %lz = mul i32 %iz, %nxy\n  br label %y\n\
             y:\n  %iy = phi i32 [ 0, %z ], [ %iy1, %yend ]\n  store i32 %iy, ptr %pty, align 4\n\
             \x20 %ly0 = mul i32 %iy, %nx\n  %ly = add i32 %ly0, %lz\n  br label %x\n\
             x:\n  %ix = phi i32 [ 0, %y ], [ %ix1, %x ]\n  store i32 %ix, ptr @__ssk_tid, align 4\n\
             \x20 %lin = add i32 %ix, %ly\n  %lane = and i32 %lin, 31\n  store i32 %lane, ptr @__ssk_lane, align 4\n\
             \x20 store i64 0, ptr @__ssk_loop_clock, align 8\n\
             \x20 call void @__ssk.tramp.{k}(ptr %buf)\n\
             \x20 %ix1 = add i32 %ix, 1\n  %cx = icmp ult i32 %ix1, %nx\n  br i1 %cx, label %x, label %yend\n\
             yend:\n  %iy1 = add i32 %iy, 1\n  %cy = icmp ult i32 %iy1, %ny\n  br i1 %cy, label %y, label %zend\n\
             zend:\n  %iz1 = add i32 %iz, 1\n  %cz = icmp ult i32 %iz1, %nz\n  br i1 %cz, label %z, label %done\n\
             done:\n  ret void\n}}"
        );
        // Attributes: the bytes of its static shared memory and of the constants it can reach.
        let _ = writeln!(s, "define internal void @__ssk.attrs.{k}(ptr %out) {{");
        for (field, types) in [(0, &info.shared), (1, &info.constants)] {
            let mut acc = "0".to_string();
            for (i, t) in types.iter().enumerate() {
                let _ = writeln!(
                    s,
                    "  %z{field}_{i} = ptrtoint ptr getelementptr ({t}, ptr null, i32 1) to i64\n  %a{field}_{i} = add i64 {acc}, %z{field}_{i}"
                );
                acc = format!("%a{field}_{i}");
            }
            let _ = writeln!(
                s,
                "  %o{field} = getelementptr i64, ptr %out, i64 {field}\n  store i64 {acc}, ptr %o{field}, align 8"
            );
        }
        s.push_str("  ret void\n}\n");
        // Racecheck's table of its static shared memory: each variable's address (on the calling thread),
        // size and name, as `{ ptr, i64, ptr }`; returns how many (with `out` NULL, only that).
        let _ = writeln!(
            s,
            "define internal i32 @__ssk.shared.{k}(ptr %out) {{\n\
             \x20 %none = icmp eq ptr %out, null\n\
             \x20 br i1 %none, label %count, label %fill\n\
             count:\n\
             \x20 ret i32 {}\n\
             fill:",
            info.shared.len()
        );
        let mut names = String::new();
        for (i, (t, v)) in info.shared.iter().zip(&info.shared_names).enumerate() {
            let label = shared_label(v);
            let _ = writeln!(
                s,
                "  %e{i} = getelementptr {{ ptr, i64, ptr }}, ptr %out, i64 {i}\n                 \x20 store ptr {}, ptr %e{i}, align 8\n                 \x20 %sz{i} = ptrtoint ptr getelementptr ({t}, ptr null, i32 1) to i64\n                 \x20 %es{i} = getelementptr {{ ptr, i64, ptr }}, ptr %out, i64 {i}, i32 1\n                 \x20 store i64 %sz{i}, ptr %es{i}, align 8\n                 \x20 %en{i} = getelementptr {{ ptr, i64, ptr }}, ptr %out, i64 {i}, i32 2\n                 \x20 store ptr @__ssk.sname.{k}.{i}, ptr %en{i}, align 8",
                sym(&renamed(v, defined))
            );
            let _ = writeln!(
                names,
                "@__ssk.sname.{k}.{i} = private unnamed_addr constant [{} x i8] c\"{label}\\00\"",
                label.len() + 1
            );
        }
        let _ = writeln!(s, "  ret i32 {}\n}}", info.shared.len());
        s.push_str(&names);
        let bytes = info.name.len() + 1;
        let _ = writeln!(
            s,
            "@__ssk.kname.{k} = private unnamed_addr constant [{bytes} x i8] c\"{}\\00\"",
            info.name
        );
        // The region-loop entry of a kernel with barriers: a placeholder that `fission` replaces with the
        // real one or with `null` (the kernel then runs as fibers only).
        let fblock = if info.needs_fibers {
            s.push_str(&crate::tools::cc::fission::placeholder(k));
            format!("ptr {}", crate::tools::cc::fission::entry_name(k))
        } else {
            "ptr null".to_string()
        };
        rows.push(format!(
            "{{ ptr, ptr, ptr, ptr, i32, ptr, ptr, ptr, ptr }} {{ ptr @__ssk.kname.{k}, ptr @__ssk.size.{k}, ptr @__ssk.pack.{k}, ptr @__ssk.tramp.{k}, i32 {}, ptr @__ssk.block.{k}, ptr @__ssk.attrs.{k}, ptr @__ssk.shared.{k}, {fblock} }}",
            u32::from(info.needs_fibers)
        ));
    }
    let _ = writeln!(
        s,
        "@__ssk.kernels = internal constant [{} x {{ ptr, ptr, ptr, ptr, i32, ptr, ptr, ptr, ptr }}] [{}]",
        rows.len(),
        rows.join(", ")
    );
    let mut vrows = Vec::new();
    for (i, (name, new)) in vars.iter().enumerate() {
        let bytes = name.len() + 1;
        let _ = writeln!(
            s,
            "@__ssk.vname.{i} = private unnamed_addr constant [{bytes} x i8] c\"{name}\\00\""
        );
        vrows.push(format!(
            "{{ ptr, ptr }} {{ ptr @__ssk.vname.{i}, ptr {} }}",
            sym(new)
        ));
    }
    let _ = writeln!(
        s,
        "@__ssk.vars = internal constant [{} x {{ ptr, ptr }}] [{}]",
        vrows.len(),
        vrows.join(", ")
    );
    let _ = writeln!(
        s,
        "declare void @__ssk_register_module(i32, ptr, i64, ptr, i64)\n\
         define internal void @__ssk.ctor() {{\n  call void @__ssk_register_module(i32 {TABLE_VERSION}, ptr @__ssk.kernels, i64 {}, ptr @__ssk.vars, i64 {})\n  ret void\n}}\n\
         @llvm.global_ctors = appending global [1 x {{ i32, ptr, ptr }}] [{{ i32, ptr, ptr }} {{ i32 65535, ptr @__ssk.ctor, ptr null }}]",
        kernels.len(),
        vars.len()
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operands_split_at_top_level_commas_only() {
        assert_eq!(
            split_top("float %x, ptr getelementptr (i8, ptr @a, i64 1), align 4"),
            vec![
                "float %x",
                "ptr getelementptr (i8, ptr @a, i64 1)",
                "align 4"
            ]
        );
    }

    #[test]
    fn intrinsic_names_lose_their_address_spaces() {
        assert_eq!(
            intrinsic_p0("llvm.memcpy.p0.p1.i64"),
            "llvm.memcpy.p0.p0.i64"
        );
        assert_eq!(
            intrinsic_p0("llvm.nvvm.read.ptx.sreg.tid.x"),
            "llvm.nvvm.read.ptx.sreg.tid.x"
        );
    }

    #[test]
    fn byval_parameters_are_copied_by_value() {
        let p = kernel_params(
            "dso_local void @_Z2k21PPil(ptr noundef byval(%struct.P) align 8 %0, ptr noundef %1, i64 noundef %2) #0 {",
        )
        .unwrap();
        assert_eq!(p, vec!["byval:%struct.P", "ptr", "i64"]);
    }

    #[test]
    fn a_load_through_a_computed_pointer_is_translated_and_an_alloca_is_not() {
        let allocas: BTreeSet<String> = ["%5".to_string()].into();
        let shared = BTreeSet::new();
        let none = BTreeSet::new();
        let allocas = Access {
            allocas: &allocas,
            local_ptrs: &none,
            shared_ptrs: &none,
            shared: &shared,
            line: 0,
        };
        let mut n = 0;
        let (pre, line) = instrument("  %21 = load float, ptr %20, align 4", &allocas, &mut n);
        assert_eq!(
            pre,
            "  %__ssk.p1 = call ptr @__ssk.g(ptr %20, i64 4, i32 768, ptr @__ssk.h1)\n"
        );
        assert_eq!(line, "  %21 = load float, ptr %__ssk.p1, align 4");
        let (pre, line) = instrument("  store ptr %0, ptr %5, align 8", &allocas, &mut n);
        assert_eq!(
            (pre.as_str(), line.as_str()),
            ("", "  store ptr %0, ptr %5, align 8")
        );
    }

    #[test]
    fn a_constant_shared_address_is_translated_with_its_source_line() {
        let allocas = BTreeSet::new();
        let shared: BTreeSet<String> = ["@__ssd._ZZ1kvE1s".to_string()].into();
        let lines: BTreeMap<String, u32> = [("!9".to_string(), 21)].into();
        let text = "  %4 = load i32, ptr bitcast (ptr @__ssd._ZZ1kvE1s to ptr), align 4, !dbg !9";
        let at = Access {
            allocas: &allocas,
            local_ptrs: &allocas,
            shared_ptrs: &allocas,
            shared: &shared,
            line: debug_line(text, &lines),
        };
        let mut n = 0;
        let (pre, line) = instrument(text, &at, &mut n);
        assert_eq!(
            pre,
            format!(
                "  %__ssk.p1 = call ptr @__ssk.gs(ptr bitcast (ptr @__ssd._ZZ1kvE1s to ptr), i64 4, i32 {})\n",
                768 | (21 << 12)
            )
        );
        assert_eq!(line, "  %4 = load i32, ptr %__ssk.p1, align 4, !dbg !9");
        // A global that is not shared memory is not translated.
        let (pre, _) = instrument("  %5 = load i32, ptr @__ssd.g, align 4", &at, &mut n);
        assert_eq!(pre, "");
        assert_eq!(shared_label("_ZZ9block_sumPKiPiE1s"), "s");
        assert_eq!(shared_label("tile"), "tile");
    }

    #[test]
    fn pointers_into_shared_memory_and_allocas_are_told_apart_from_global_ones() {
        let ir = "define void @k(ptr %0, i64 %1) {\n\
                  \x20 %3 = alloca [4 x i32], align 4\n\
                  \x20 %4 = getelementptr inbounds [4 x i32], ptr %3, i64 0, i64 %1\n\
                  \x20 store i32 1, ptr %4, align 4\n\
                  \x20 %5 = getelementptr inbounds [256 x i32], ptr addrspacecast (ptr addrspace(3) @s to ptr), i64 0, i64 %1\n\
                  \x20 %6 = getelementptr inbounds i32, ptr %5, i64 1\n\
                  \x20 store i32 2, ptr %6, align 4\n\
                  \x20 %7 = getelementptr inbounds i32, ptr %0, i64 %1\n\
                  \x20 store i32 3, ptr %7, align 4\n\
                  \x20 ret void\n\
                  }\n\
                  @s = internal addrspace(3) global [256 x i32] undef, align 4\n";
        let host = HostTarget {
            triple: "x86_64-pc-linux-gnu".into(),
            datalayout: "e".into(),
        };
        let out = rewrite(ir, &host).unwrap().text;
        // The alloca's element: not translated; shared memory's, through a GEP of a GEP: `__ssk.gs`; the
        // argument's: `__ssk.g` with its site's hint.
        assert!(out.contains("  store i32 1, ptr %4, align 4"), "{out}");
        assert!(
            out.contains("call ptr @__ssk.gs(ptr %6, i64 4, i32 769)"),
            "{out}"
        );
        assert!(
            out.contains("call ptr @__ssk.g(ptr %7, i64 4, i32 769, ptr @__ssk.h2)"),
            "{out}"
        );
        assert!(out.contains("@__ssk.h2 = internal thread_local(initialexec) global i32 0"));
    }

    #[test]
    fn attribute_groups_lose_nvptx_targets_and_noinline() {
        assert_eq!(
            clean_attributes(
                "attributes #0 = { convergent mustprogress noinline norecurse nounwind \"target-cpu\"=\"sm_80\" \"target-features\"=\"+ptx42,+sm_80\" \"uniform-work-group-size\"=\"true\" }"
            ),
            "attributes #0 = { convergent mustprogress norecurse nounwind \"uniform-work-group-size\"=\"true\" }"
        );
    }
}
