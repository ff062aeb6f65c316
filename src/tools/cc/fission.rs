//! Region loops: a kernel that reaches a barrier or warp function, cut at each such call, so that one block's
//! threads run with no fibers (loop fission at barriers).
//!
//! A fiber switch at every barrier costs far more than the code between two barriers, so for each kernel whose
//! threads would run as fibers the module also gets `__ssk.fblock.K(ptr %buf)`: the kernel's body (device
//! functions inlined) in a loop over the block's threads. Each thread runs from where it stands (the kernel's
//! start, or just after the barrier it was released from) to its next barrier, where it leaves the barrier's
//! arguments in its lane (`ssk_region_lane` in `fission_rt.h`) and the loop goes on with the next thread; at
//! the end of a pass the runtime releases what the fiber scheduler would release (`__ssk_region_release`), and
//! the next pass resumes the released threads, each from its own barrier. The values that live across a barrier
//! are the thread's own: they move from the function's frame to per-thread slots.
//!
//! How it is built, per module with such kernels (any step that fails or meets what it does not understand
//! leaves the kernel to fibers: its row's entry is `null`):
//! 1. the rewritten module is optimised once (`default<O2>`), so that device functions are inlined;
//! 2. each qualifying kernel is copied (`@__ssk.fsrc.K`) with a block boundary after each barrier call, and
//!    `reg2mem,instnamer` make every value that crosses a block boundary a load and store of an entry alloca
//!    and give every value a name;
//! 3. [`region_function`] turns the copy into the region-loop entry: the allocas whose value can be read after
//!    a barrier (found by liveness over the blocks) become the thread's slots, the others stay frame allocas
//!    (the thread that stores one reads it before any other thread runs); each barrier call becomes stores
//!    into the thread's lane and a jump to the next thread, and its result a load at the resume point;
//! 4. the whole module is checked by the verifier before it is compiled.
//!
//! A kernel falls back to fibers when, after inlining, it still calls a function that can reach a barrier, a
//! warp function, `grid.sync()` or an indirect call, or calls through a pointer itself, or has an alloca
//! outside its entry block or with a run-time count.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::ir::{first_type, split_top};

/// The runtime functions that cut a kernel into regions.
const BARRIERS: &[&str] = &[
    "__ssk_syncthreads",
    "__ssk_syncthreads_op",
    "__ssk_syncwarp",
    "__ssk_warp_op",
    "__ssk_warp_op64",
];

/// What a kernel that reaches one of them cannot run as region loops.
const NOT_IN_REGIONS: &[&str] = &["__ssk_grid_sync"];

/// A thread's lane (`ssk_region_lane` in `fission_rt.h`): state, site, op, mask, arg, width, val, result,
/// clock, tid, pad.
const LANE_TYPE: &str = "{ i32, i32, i32, i32, i32, i32, i64, i64, i64, [3 x i32], i32 }";

/// The lane states (`F_*` in `kernel_rt.c`).
const WAIT_BLOCK: u32 = 1;
const WAIT_WARP: u32 = 2;
const DONE: u32 = 3;

/// The region-loop entry of kernel `k` as the table names it.
pub fn entry_name(k: usize) -> String {
    format!("@__ssk.fblock.{k}")
}

/// The placeholder definition of kernel `k`'s entry, which [`finish`] replaces or removes.
pub fn placeholder(k: usize) -> String {
    format!("define internal void @__ssk.fblock.{k}(ptr %buf) {{\n  ret void\n}}\n")
}

/// `opt` of the same LLVM as `clang`: beside the file the clang command resolves to (`…/llvm-19/bin/opt`), or
/// the `opt` with the clang command's version suffix beside it (`clang++-19` → `opt-19`).
pub fn find_opt(clang: &Path) -> Option<PathBuf> {
    if let Ok(real) = std::fs::canonicalize(clang)
        && let Some(dir) = real.parent()
    {
        let p = dir.join("opt");
        if p.is_file() {
            return Some(p);
        }
    }
    let name = clang.file_name()?.to_str()?;
    let suffix = name
        .strip_prefix("clang++")
        .or(name.strip_prefix("clang"))?;
    let p = clang.with_file_name(format!("opt{suffix}"));
    p.is_file().then_some(p)
}

/// The module with no region loops: every placeholder goes and the table's rows name `null` instead.
pub fn without(text: &str) -> String {
    let mut ks = Vec::new();
    for f in functions(text) {
        if let Some(k) = f.name.strip_prefix("__ssk.fblock.")
            && let Ok(k) = k.parse::<usize>()
        {
            ks.push(k);
        }
    }
    finish(text, &BTreeMap::new(), &ks)
}

/// Replaces each placeholder among `ks` by its entry in `built`, or removes it and makes its references
/// `null`.
fn finish(text: &str, built: &BTreeMap<usize, String>, ks: &[usize]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut skipping = false;
    let wanted: BTreeSet<String> = ks.iter().map(|k| format!("__ssk.fblock.{k}")).collect();
    for line in text.lines() {
        if skipping {
            if line == "}" {
                skipping = false;
            }
            continue;
        }
        if line.starts_with("define ")
            && let Some(name) = defined_name(line)
            && wanted.contains(&name)
        {
            skipping = true;
            let k: usize = name["__ssk.fblock.".len()..].parse().unwrap_or(usize::MAX);
            if let Some(f) = built.get(&k) {
                out.push_str(f);
            }
            continue;
        }
        let mut l = line.to_string();
        for k in ks {
            if !built.contains_key(k) {
                l = replace_token(&l, &format!("ptr @__ssk.fblock.{k}"), "ptr null");
            }
        }
        out.push_str(&l);
        out.push('\n');
    }
    out
}

/// `s` with each `from` not followed by a name character replaced by `to`.
fn replace_token(s: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find(from) {
        let after = &rest[i + from.len()..];
        out.push_str(&rest[..i]);
        if after.chars().next().is_some_and(is_name_char) {
            out.push_str(from);
        } else {
            out.push_str(to);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '$' | '-')
}

/// Runs `opt` with `args` on `input`, writing `output`; `Err` with its diagnostics.
fn run_opt(opt: &Path, args: &[&str], input: &Path, output: &Path) -> Result<(), String> {
    let o = Command::new(opt)
        .args(args)
        .arg(input)
        .arg("-S")
        .arg("-o")
        .arg(output)
        .output()
        .map_err(|e| e.to_string())?;
    if o.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&o.stderr).into_owned())
    }
}

/// What [`apply`] did, for `-v`.
#[derive(Debug, Default)]
pub struct Report {
    /// Kernels (table index) given region loops.
    pub built: Vec<usize>,
    /// Kernels left to fibers, with why.
    pub fell_back: Vec<(usize, String)>,
}

/// The rewritten module `text` with region loops for the kernels that qualify (`params`: each kernel's
/// parameter types as [`super::ir::KernelInfo::params`] states them), through `opt`; the files go in `work`
/// as `{stem}.fission.*.ll`. Any failure gives the module with fibers only.
pub fn apply(
    text: &str,
    params: &[Vec<String>],
    opt: Option<&Path>,
    work: &Path,
    stem: &str,
) -> (String, Report) {
    let mut report = Report::default();
    let ks: Vec<usize> = functions(text)
        .iter()
        .filter_map(|f| f.name.strip_prefix("__ssk.fblock.")?.parse().ok())
        .collect();
    if ks.is_empty() {
        return (text.to_string(), report);
    }
    let Some(opt) = opt else {
        report
            .fell_back
            .extend(ks.iter().map(|&k| (k, "no opt".to_string())));
        return (without(text), report);
    };
    match pipeline(text, params, &ks, opt, work, stem, &mut report) {
        Ok(t) => (t, report),
        Err(e) => {
            report.built.clear();
            report.fell_back = ks.iter().map(|&k| (k, e.clone())).collect();
            (without(text), report)
        }
    }
}

fn pipeline(
    text: &str,
    params: &[Vec<String>],
    ks: &[usize],
    opt: &Path,
    work: &Path,
    stem: &str,
    report: &mut Report,
) -> Result<String, String> {
    let file = |s: &str| work.join(format!("{stem}.fission.{s}.ll"));
    // The kernels' symbols, as their trampolines call them.
    let mut symbols = BTreeMap::new();
    for f in functions(text) {
        if let Some(k) = f.name.strip_prefix("__ssk.tramp.")
            && let Ok(k) = k.parse::<usize>()
        {
            for l in &f.body {
                if let Some(Callee::Direct(c)) = callee(l.trim_start()) {
                    symbols.insert(k, c);
                }
            }
        }
    }
    // Device functions that reach a barrier are inlined whatever their size: a call left to one keeps the
    // kernel on fibers.
    let kernels: BTreeSet<&String> = symbols.values().collect();
    let reaching = reaching_unsafe(&functions(text));
    let mut inlined = String::with_capacity(text.len() + 1024);
    for line in text.lines() {
        if line.starts_with("define ")
            && let Some(name) = defined_name(line)
            && reaching.contains(&name)
            && !kernels.contains(&name)
            && !name.starts_with("__ssk.")
            && !line.contains(" alwaysinline")
            && let Some(close) = params_close(line)
        {
            inlined.push_str(&line[..=close]);
            inlined.push_str(" alwaysinline");
            inlined.push_str(&line[close + 1..]);
        } else {
            inlined.push_str(line);
        }
        inlined.push('\n');
    }
    std::fs::write(file("in"), &inlined).map_err(|e| e.to_string())?;
    // Optimised, then every block and value named (the cut needs the blocks' names).
    run_opt(
        opt,
        &["-passes=default<O2>,instnamer"],
        &file("in"),
        &file("o2"),
    )?;
    let o2 = std::fs::read_to_string(file("o2")).map_err(|e| e.to_string())?;
    let funcs = functions(&o2);
    let unsafe_fns = reaching_unsafe(&funcs);
    let mut module = o2.clone();
    let mut prepared = Vec::new();
    for &k in ks {
        let Some(sym) = symbols.get(&k) else {
            report.fell_back.push((k, "no trampoline".into()));
            continue;
        };
        let Some(f) = funcs.iter().find(|f| &f.name == sym) else {
            report.fell_back.push((k, "kernel not found".into()));
            continue;
        };
        match split_copy(f, k, &unsafe_fns) {
            Ok(copy) => {
                module.push_str(&copy);
                prepared.push(k);
            }
            Err(e) => report.fell_back.push((k, e)),
        }
    }
    if prepared.is_empty() {
        return Ok(without(text));
    }
    std::fs::write(file("split"), &module).map_err(|e| e.to_string())?;
    run_opt(
        opt,
        &["-passes=reg2mem,instnamer"],
        &file("split"),
        &file("r2m"),
    )?;
    let r2m = std::fs::read_to_string(file("r2m")).map_err(|e| e.to_string())?;
    let rfuncs = functions(&r2m);
    let mut built = BTreeMap::new();
    for &k in &prepared {
        let name = format!("__ssk.fsrc.{k}");
        let Some(f) = rfuncs.iter().find(|f| f.name == name) else {
            report.fell_back.push((k, "copy not found".into()));
            continue;
        };
        match region_function(f, k, params.get(k).map_or(&[][..], Vec::as_slice)) {
            Ok(t) => {
                built.insert(k, t);
            }
            Err(e) => report.fell_back.push((k, e)),
        }
    }
    // The entries replace their placeholders in the optimised module: the rest of it stays as `opt` left it,
    // not as reg2mem rewrote it (every value in memory, twice the text, and the compile of threadFenceReduction
    // four times as long, to be promoted back).
    let mut out = String::with_capacity(o2.len() * 2);
    let mut skipping = false;
    for line in o2.lines() {
        if skipping {
            skipping = line != "}";
            continue;
        }
        if line.starts_with("define ")
            && defined_name(line).is_some_and(|n| n.starts_with("__ssk.fsrc."))
        {
            skipping = true;
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    let mut out = finish(&out, &built, ks);
    if !built.is_empty() {
        let mut extra = declarations(&out);
        // The optimiser prints only the types still used: the argument buffers' may be gone.
        for k in built.keys() {
            let name = format!("%__ssk.args.{k} = type ");
            if !out.lines().any(|l| l.starts_with(&name)) {
                let fields: Vec<&str> = params
                    .get(*k)
                    .map(|p| {
                        p.iter()
                            .map(|t| t.strip_prefix("byval:").unwrap_or(t))
                            .collect()
                    })
                    .unwrap_or_default();
                let _ = writeln!(extra, "{name}{{ {} }}", fields.join(", "));
            }
        }
        // Types before their first use (a forward-referenced type is not sized where a GEP needs it).
        out = match out.find("\ntarget triple") {
            Some(i) => {
                let eol = out[i + 1..].find('\n').map_or(out.len(), |e| i + 1 + e + 1);
                format!("{}{extra}{}", &out[..eol], &out[eol..])
            }
            None => format!("{extra}{out}"),
        };
    }
    std::fs::write(file("out"), &out).map_err(|e| e.to_string())?;
    // A module the verifier refuses would fail the build: fibers only, then.
    run_opt(opt, &["-passes=verify"], &file("out"), &file("verified"))?;
    report.built = built.keys().copied().collect();
    Ok(out)
}

/// What the entries use that the optimised module may no longer declare.
fn declarations(text: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "%__ssk.lane = type {LANE_TYPE}");
    for (name, decl) in [
        (
            "@__ssk_tid = ",
            "@__ssk_tid = external thread_local(initialexec) global [3 x i32], align 4",
        ),
        (
            "@__ssk_ntid = ",
            "@__ssk_ntid = external thread_local(initialexec) global [3 x i32], align 4",
        ),
        (
            "@__ssk_lane = ",
            "@__ssk_lane = external thread_local(initialexec) global i32, align 4",
        ),
        (
            "@__ssk_loop_clock = ",
            "@__ssk_loop_clock = external thread_local(initialexec) global i64, align 8",
        ),
    ] {
        if !text.lines().any(|l| l.starts_with(name)) {
            let _ = writeln!(s, "{decl}");
        }
    }
    for (name, decl) in [
        (
            "@__ssk_region_begin(",
            "declare ptr @__ssk_region_begin(i64)",
        ),
        (
            "@__ssk_region_release(",
            "declare i32 @__ssk_region_release(ptr)",
        ),
        (
            "@llvm.memcpy.p0.p0.i64(",
            "declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)",
        ),
    ] {
        if !text
            .lines()
            .any(|l| l.starts_with("declare ") && l.contains(name))
        {
            let _ = writeln!(s, "{decl}");
        }
    }
    s
}

/// A function of a module's text.
#[derive(Debug, Clone)]
struct Func {
    /// Its name, without `@` or quotes.
    name: String,
    /// The `define` line.
    head: String,
    /// The lines between it and the closing `}`.
    body: Vec<String>,
}

fn functions(text: &str) -> Vec<Func> {
    let mut out = Vec::new();
    let mut cur: Option<Func> = None;
    for line in text.lines() {
        if let Some(f) = cur.as_mut() {
            if line == "}" {
                out.extend(cur.take());
            } else {
                f.body.push(line.to_string());
            }
            continue;
        }
        if line.starts_with("define ")
            && let Some(name) = defined_name(line)
        {
            if line.trim_end().ends_with('}') {
                continue; // a one-line definition: none of ours
            }
            cur = Some(Func {
                name,
                head: line.to_string(),
                body: Vec::new(),
            });
        }
    }
    out
}

/// The name `define … @name(` defines.
fn defined_name(line: &str) -> Option<String> {
    let at = line.find('@')?;
    global_at(&line[at..]).map(|(n, _)| n)
}

/// The global `@name` or `@"name"` at the start of `s`: its name and the length of the token.
fn global_at(s: &str) -> Option<(String, usize)> {
    let rest = s.strip_prefix('@')?;
    if let Some(q) = rest.strip_prefix('"') {
        let end = q.find('"')?;
        return Some((q[..end].to_string(), end + 3));
    }
    let end = rest.find(|c| !is_name_char(c)).unwrap_or(rest.len());
    (end > 0).then(|| (rest[..end].to_string(), end + 1))
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Callee {
    Direct(String),
    Indirect,
}

/// The callee of a `call` instruction (`body` without its indentation), if it is one.
fn callee(body: &str) -> Option<Callee> {
    let i = find_word(body, "call")?;
    let rest = &body[i + 4..];
    // The callee: the first `@name(` or `%name(` after the return type.
    let mut j = 0;
    let b = rest.as_bytes();
    while j < b.len() {
        let c = b[j] as char;
        if c == '@' || c == '%' {
            let tok = &rest[j..];
            let (name, len) = if c == '@' {
                global_at(tok)?
            } else {
                local_at(tok)?
            };
            if rest[j + len..].starts_with('(') {
                return Some(if c == '@' {
                    Callee::Direct(name)
                } else {
                    Callee::Indirect
                });
            }
            j += len;
            continue;
        }
        j += 1;
    }
    None
}

/// The position of the instruction word `w` (`call`, after `%x = ` and `tail `) in `body`.
fn find_word(body: &str, w: &str) -> Option<usize> {
    let s = body.split_once(" = ").map_or(body, |(_, r)| r);
    let off = body.len() - s.len();
    let s2 = s
        .trim_start_matches("tail ")
        .trim_start_matches("musttail ")
        .trim_start_matches("notail ");
    let off = off + (s.len() - s2.len());
    (s2.starts_with(w) && s2[w.len()..].starts_with(' ')).then_some(off)
}

/// The local `%name` or `%"name"` at the start of `s`: the token and its length.
fn local_at(s: &str) -> Option<(String, usize)> {
    let rest = s.strip_prefix('%')?;
    if let Some(q) = rest.strip_prefix('"') {
        let end = q.find('"')?;
        return Some((s[..end + 3].to_string(), end + 3));
    }
    let end = rest.find(|c| !is_name_char(c)).unwrap_or(rest.len());
    (end > 0).then(|| (s[..end + 1].to_string(), end + 1))
}

/// Every local token (`%x`) of `line`.
fn locals(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut in_str = false;
    let b = line.as_bytes();
    while i < b.len() {
        let c = b[i] as char;
        if c == '"' && !(i > 0 && b[i - 1] == b'%') {
            in_str = !in_str;
            i += 1;
            continue;
        }
        if !in_str
            && c == '%'
            && let Some((t, len)) = local_at(&line[i..])
        {
            out.push(t);
            i += len;
            continue;
        }
        i += 1;
    }
    out
}

/// The value a line defines (`%x = …`).
fn def_of(body: &str) -> Option<String> {
    let (lhs, _) = body.split_once(" = ")?;
    let lhs = lhs.trim();
    (lhs.starts_with('%') && local_at(lhs).is_some_and(|(_, l)| l == lhs.len()))
        .then(|| lhs.to_string())
}

/// The defined functions that can reach a barrier, `grid.sync()` or an indirect call.
fn reaching_unsafe(funcs: &[Func]) -> BTreeSet<String> {
    let mut calls: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    let mut bad: BTreeSet<String> = BTreeSet::new();
    for f in funcs {
        let e = calls.entry(f.name.as_str()).or_default();
        for l in &f.body {
            match callee(l.trim_start()) {
                Some(Callee::Direct(c)) => {
                    if BARRIERS.contains(&c.as_str()) || NOT_IN_REGIONS.contains(&c.as_str()) {
                        bad.insert(f.name.clone());
                    }
                    e.insert(c);
                }
                Some(Callee::Indirect) => {
                    bad.insert(f.name.clone());
                }
                None => {}
            }
        }
    }
    loop {
        let before = bad.len();
        for (f, cs) in &calls {
            if cs.iter().any(|c| bad.contains(c)) {
                bad.insert((*f).to_string());
            }
        }
        if bad.len() == before {
            return bad;
        }
    }
}

/// `line` without its metadata attachments (`, !dbg !7`, `, !tbaa !3`): the copy's metadata would be shared
/// with the kernel's (a subprogram attached to two functions is an error), and none of it is needed.
fn strip_metadata(line: &str) -> String {
    let mut s = line.to_string();
    while let Some(i) = s.find(", !") {
        let rest = &s[i + 3..];
        let name_end = rest.find(|c: char| !is_name_char(c)).unwrap_or(rest.len());
        let after = &rest[name_end..];
        let Some(v) = after.strip_prefix(" !") else {
            break;
        };
        let vend = if v.starts_with('{') {
            v.find('}').map_or(v.len(), |e| e + 1)
        } else {
            v.find(|c: char| !is_name_char(c)).unwrap_or(v.len())
        };
        let cut = i + 3 + name_end + 2 + vend;
        s.replace_range(i..cut, "");
    }
    s
}

/// Where the parameter list of a `define` line closes.
fn params_close(head: &str) -> Option<usize> {
    let at = head.find('@')?;
    let open = at + head[at..].find('(')?;
    let mut depth = 0;
    for (i, c) in head[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Kernel `f` (optimised) copied as `@__ssk.fsrc.{k}` with a block boundary after each barrier call, or why it
/// cannot run as region loops.
fn split_copy(f: &Func, k: usize, unsafe_fns: &BTreeSet<String>) -> Result<String, String> {
    let at = f.head.find('@').ok_or("no name")?;
    let open = at + f.head[at..].find('(').ok_or("no parameters")?;
    let close = params_close(&f.head).ok_or("unbalanced parameters")?;
    let attrs: Vec<&str> = f.head[close + 1..]
        .split_whitespace()
        .filter(|t| t.starts_with('#'))
        .collect();
    let mut s = format!(
        "define internal void @__ssk.fsrc.{k}{} {}{{\n",
        &f.head[open..=close],
        attrs.iter().map(|a| format!("{a} ")).collect::<String>()
    );
    // First the lines, cut after each barrier call; the piece that keeps a block's terminator is the last
    // one, so the phis that name the block as a predecessor must name that piece instead.
    let mut sites = 0usize;
    let mut lines: Vec<String> = Vec::new();
    let mut renamed: BTreeMap<String, String> = BTreeMap::new();
    let mut label = String::new();
    for line in &f.body {
        let t = line.trim_start();
        if t.starts_with("#dbg_") || t.contains("@llvm.dbg.") {
            continue;
        }
        let l = strip_metadata(line);
        let t = l.trim_start();
        if !l.starts_with(' ') && !t.is_empty() && !t.starts_with(';') {
            label = t.split(':').next().unwrap_or_default().to_string();
        }
        if find_word(t, "invoke").is_some()
            || find_word(t, "callbr").is_some()
            || t.starts_with("indirectbr ")
        {
            return Err("an invoke or indirect branch".into());
        }
        lines.push(l.clone());
        match callee(t) {
            Some(Callee::Direct(c)) if BARRIERS.contains(&c.as_str()) => {
                if label.is_empty() {
                    return Err("an unnamed block".into());
                }
                sites += 1;
                lines.push(format!("  br label %__ssk.split.{sites}"));
                lines.push(format!("__ssk.split.{sites}:"));
                renamed.insert(label.clone(), format!("__ssk.split.{sites}"));
                label = format!("__ssk.split.{sites}");
            }
            Some(Callee::Direct(c))
                if unsafe_fns.contains(&c) || NOT_IN_REGIONS.contains(&c.as_str()) =>
            {
                return Err(format!("calls {c}, which can reach a barrier"));
            }
            Some(Callee::Indirect) => return Err("an indirect call".into()),
            _ => {}
        }
    }
    // Each original block's last piece (a block cut twice is renamed twice).
    let last = |b: &str| {
        let mut b = b.to_string();
        while let Some(n) = renamed.get(&b) {
            b = n.clone();
        }
        b
    };
    for l in &lines {
        let t = l.trim_start();
        let rhs = t.split_once(" = ").map_or(t, |(_, r)| r);
        if rhs.starts_with("phi ") && !renamed.is_empty() {
            let mut out = l.clone();
            for b in renamed.keys() {
                if !b.starts_with("__ssk.split.") {
                    out = out.replace(&format!(", %{b} ]"), &format!(", %{} ]", last(b)));
                }
            }
            s.push_str(&out);
        } else {
            s.push_str(l);
        }
        s.push('\n');
    }
    if sites == 0 {
        return Err("no barrier left in the kernel's body".into());
    }
    s.push_str("}\n");
    Ok(s)
}

/// A block of the copy.
#[derive(Debug, Clone)]
struct Block {
    label: String,
    lines: Vec<String>,
}

/// An alloca of the copy's entry block.
#[derive(Debug, Clone)]
struct Alloca {
    name: String,
    ty: String,
    count: String,
    align: u64,
    line: String,
}

/// A barrier call: where it is, what it is.
#[derive(Debug, Clone)]
struct Site {
    block: usize,
    /// The call's line index in the block.
    at: usize,
    func: String,
    def: Option<String>,
    args: Vec<String>,
}

/// Parses `%x = alloca T[, i32 N][, align A]`.
fn parse_alloca(body: &str) -> Option<Result<Alloca, String>> {
    let def = def_of(body)?;
    let rest = body.split_once(" = ")?.1.trim_start();
    let rest = rest.strip_prefix("alloca ")?;
    let parts = split_top(rest);
    let ty = first_type(parts.first()?).to_string();
    if parts[0].trim() != ty {
        return Some(Err(format!("an alloca I cannot read: {body}")));
    }
    let mut count = "1".to_string();
    let mut align = 1;
    for p in &parts[1..] {
        if let Some(a) = p.strip_prefix("align ") {
            align = a.trim().parse().unwrap_or(16);
        } else if let Some((_, n)) = p.split_once(' ') {
            if n.trim().parse::<u64>().is_err() {
                return Some(Err("an alloca with a run-time count".into()));
            }
            count = n.trim().to_string();
        } else {
            return Some(Err(format!("an alloca I cannot read: {body}")));
        }
    }
    Some(Ok(Alloca {
        name: def,
        ty,
        count,
        align,
        line: body.to_string(),
    }))
}

/// The labels a block's lines branch to.
fn successors(lines: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for l in lines {
        let mut rest = l.as_str();
        while let Some(i) = rest.find("label %") {
            if let Some((t, len)) = local_at(&rest[i + 6..]) {
                out.push(t[1..].to_string());
                rest = &rest[i + 6 + len..];
            } else {
                rest = &rest[i + 7..];
            }
        }
    }
    out
}

/// How a line touches an alloca `a`: `Some(true)` a plain load of it, `Some(false)` a plain store to it,
/// `None` anything else (its address escapes or is used otherwise).
fn access(body: &str, a: &str) -> Option<bool> {
    let rhs = body.split_once(" = ").map_or(body, |(_, r)| r).trim_start();
    if let Some(r) = rhs.strip_prefix("load ") {
        let parts = split_top(r);
        return (parts.len() >= 2 && parts[1] == format!("ptr {a}")).then_some(true);
    }
    if let Some(r) = body.trim_start().strip_prefix("store ") {
        let parts = split_top(r);
        let value_uses = locals(parts.first()?).iter().any(|t| t == a);
        return (parts.len() >= 2 && parts[1] == format!("ptr {a}") && !value_uses)
            .then_some(false);
    }
    None
}

/// Kernel `k`'s region-loop entry from its split copy `f` after `reg2mem,instnamer`; `params` the kernel's
/// parameter types (`byval:T` for a by-value aggregate).
fn region_function(f: &Func, k: usize, params: &[String]) -> Result<String, String> {
    // Parameters: names from the definition.
    let at = f.head.find('@').ok_or("no name")?;
    let open = at + f.head[at..].find('(').ok_or("no parameters")?;
    let close = params_close(&f.head).ok_or("no parameters")?;
    let decl = split_top(&f.head[open + 1..close]);
    if decl.len() != params.len() {
        return Err("the parameters changed".into());
    }
    let mut pnames = Vec::new();
    for d in &decl {
        let name = d.split_whitespace().last().unwrap_or_default().to_string();
        if !name.starts_with('%') {
            return Err("an unnamed parameter".into());
        }
        pnames.push(name);
    }
    // Blocks.
    let mut blocks: Vec<Block> = Vec::new();
    for line in &f.body {
        let t = line.trim_end();
        if t.is_empty() || t.trim_start().starts_with(';') {
            continue;
        }
        if !line.starts_with(' ') {
            let label = t.split(':').next().unwrap_or_default().to_string();
            blocks.push(Block {
                label,
                lines: Vec::new(),
            });
            continue;
        }
        let Some(b) = blocks.last_mut() else {
            return Err("an unnamed entry block".into());
        };
        b.lines.push(line.to_string());
    }
    if blocks.is_empty() {
        return Err("no blocks".into());
    }
    // Allocas: in the entry block only.
    let mut allocas = Vec::new();
    for (bi, b) in blocks.iter_mut().enumerate() {
        let mut keep = Vec::new();
        for l in b.lines.drain(..) {
            let body = l.trim_start();
            if body.contains("reg2mem alloca point") {
                continue;
            }
            if let Some(a) = parse_alloca(body) {
                if bi != 0 {
                    return Err("an alloca outside the entry block".into());
                }
                allocas.push(a?);
                continue;
            }
            let rhs = body.split_once(" = ").map_or(body, |(_, r)| r);
            if rhs.starts_with("phi ") {
                return Err("a phi after reg2mem".into());
            }
            if body.starts_with("ret ") && body != "ret void" {
                return Err("a kernel that returns a value".into());
            }
            keep.push(l);
        }
        b.lines = keep;
    }
    if allocas.iter().any(|a| a.align > 64) {
        return Err("an alloca aligned past 64 bytes".into());
    }
    // Barrier sites.
    let mut sites: Vec<Site> = Vec::new();
    for (bi, b) in blocks.iter().enumerate() {
        for (li, l) in b.lines.iter().enumerate() {
            let body = l.trim_start();
            if let Some(Callee::Direct(c)) = callee(body)
                && BARRIERS.contains(&c.as_str())
            {
                let open = body
                    .find(&format!("@{c}("))
                    .ok_or("a barrier I cannot read")?
                    + c.len()
                    + 2;
                let close = body.rfind(')').ok_or("a barrier I cannot read")?;
                let args: Vec<String> = split_top(&body[open..close])
                    .iter()
                    .map(|a| a.split_whitespace().last().unwrap_or_default().to_string())
                    .collect();
                let want = match c.as_str() {
                    "__ssk_syncthreads" => 0,
                    "__ssk_syncthreads_op" => 2,
                    "__ssk_syncwarp" => 1,
                    _ => 5,
                };
                if args.len() != want {
                    return Err(format!("{c} with {} arguments", args.len()));
                }
                if sites.iter().any(|s| s.block == bi) {
                    return Err("two barriers in one block".into());
                }
                sites.push(Site {
                    block: bi,
                    at: li,
                    func: c,
                    def: def_of(body),
                    args,
                });
            }
        }
    }
    if sites.is_empty() {
        return Err("no barrier".into());
    }
    // What follows a barrier call may use only its result and the frame: every value the call's block
    // computed before it is gone when the thread resumes.
    for s in &sites {
        let b = &blocks[s.block];
        let before: BTreeSet<String> = b.lines[..s.at]
            .iter()
            .filter_map(|l| def_of(l.trim_start()))
            .collect();
        for l in &b.lines[s.at + 1..] {
            if locals(l).iter().any(|t| before.contains(t)) {
                return Err("a value crosses a barrier in its block".into());
            }
        }
    }
    let slots = slot_allocas(&blocks, &sites, &allocas);
    region_text(k, params, &pnames, &blocks, &sites, &allocas, &slots)
}

/// What of the running thread's state the kernel's body can read: (the lane, `clock64()`'s counter). A
/// kernel that reads neither need not have them set for each thread at each entry and kept at each barrier.
/// Only the runtime's own functions (`__ssk_…`, of which `__ssk_clock64` alone reads the counter and none the
/// lane) and LLVM's intrinsics are known; a call to any other function may read both.
fn thread_state_read(blocks: &[Block]) -> (bool, bool) {
    let (mut lane, mut clock) = (false, false);
    for l in blocks.iter().flat_map(|b| &b.lines) {
        lane |= l.contains("@__ssk_lane");
        clock |= l.contains("@__ssk_loop_clock");
        if let Some(Callee::Direct(c)) = callee(l.trim_start()) {
            if c == "__ssk_clock64" {
                clock = true;
            } else if !(c.starts_with("__ssk_") || c.starts_with("llvm.")) {
                lane = true;
                clock = true;
            }
        }
    }
    (lane, clock)
}

/// Which allocas must be the thread's own: those whose address is used other than by plain loads and stores,
/// and those that can be read after a barrier before they are written (live at a resume point).
fn slot_allocas(blocks: &[Block], sites: &[Site], allocas: &[Alloca]) -> Vec<bool> {
    let index: BTreeMap<&str, usize> = allocas
        .iter()
        .enumerate()
        .map(|(i, a)| (a.name.as_str(), i))
        .collect();
    let n = allocas.len();
    let mut slot = vec![false; n];
    // Nodes: each block; a barrier's block is two (before the call, which ends there, and the resume).
    struct Node {
        lines: Vec<String>,
        succ: Vec<usize>,
    }
    let label_of: BTreeMap<&str, usize> = blocks
        .iter()
        .enumerate()
        .map(|(i, b)| (b.label.as_str(), i))
        .collect();
    let mut nodes: Vec<Node> = Vec::new();
    let mut head_of = vec![0usize; blocks.len()];
    let mut resumes = Vec::new();
    let mut succ_labels: Vec<Vec<String>> = Vec::new();
    for (bi, b) in blocks.iter().enumerate() {
        head_of[bi] = nodes.len();
        if let Some(s) = sites.iter().find(|s| s.block == bi) {
            nodes.push(Node {
                lines: b.lines[..s.at].to_vec(),
                succ: Vec::new(),
            });
            succ_labels.push(Vec::new());
            resumes.push(nodes.len());
            nodes.push(Node {
                lines: b.lines[s.at + 1..].to_vec(),
                succ: Vec::new(),
            });
            succ_labels.push(successors(&b.lines[s.at + 1..]));
        } else {
            nodes.push(Node {
                lines: b.lines.clone(),
                succ: Vec::new(),
            });
            succ_labels.push(successors(&b.lines));
        }
    }
    for (ni, labels) in succ_labels.iter().enumerate() {
        nodes[ni].succ = labels
            .iter()
            .filter_map(|l| label_of.get(l.as_str()).map(|&b| head_of[b]))
            .collect();
    }
    // gen (read before written in the node) and kill (written) per node.
    let mut gens = vec![vec![false; n]; nodes.len()];
    let mut kills = vec![vec![false; n]; nodes.len()];
    for (ni, node) in nodes.iter().enumerate() {
        for l in &node.lines {
            let body = l.trim_start();
            for t in locals(body) {
                let Some(&ai) = index.get(t.as_str()) else {
                    continue;
                };
                match access(body, &t) {
                    Some(true) if !kills[ni][ai] => gens[ni][ai] = true,
                    Some(true) => {}
                    Some(false) => kills[ni][ai] = true,
                    None => slot[ai] = true,
                }
            }
        }
    }
    let mut live_in = vec![vec![false; n]; nodes.len()];
    loop {
        let mut changed = false;
        for ni in (0..nodes.len()).rev() {
            for ai in 0..n {
                let out = nodes[ni].succ.iter().any(|&s| live_in[s][ai]);
                let v = gens[ni][ai] || (out && !kills[ni][ai]);
                if v != live_in[ni][ai] {
                    live_in[ni][ai] = v;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    for r in resumes {
        for ai in 0..n {
            slot[ai] |= live_in[r][ai];
        }
    }
    slot
}

/// The entry's text.
fn region_text(
    k: usize,
    params: &[String],
    pnames: &[String],
    blocks: &[Block],
    sites: &[Site],
    allocas: &[Alloca],
    slots: &[bool],
) -> Result<String, String> {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "define internal void @__ssk.fblock.{k}(ptr %buf) {{\n__ssk.entry:"
    );
    // The per-thread slots: the allocas that must be the thread's own, then the by-value parameters' copies.
    let mut layout: Vec<(String, String, u64)> = Vec::new(); // (type, count, align)
    let mut slot_of_alloca = BTreeMap::new();
    for (i, a) in allocas.iter().enumerate() {
        if slots[i] {
            slot_of_alloca.insert(a.name.clone(), layout.len());
            layout.push((a.ty.clone(), a.count.clone(), a.align.max(1)));
        }
    }
    let mut slot_of_param = BTreeMap::new();
    for (i, p) in params.iter().enumerate() {
        if let Some(t) = p.strip_prefix("byval:") {
            slot_of_param.insert(i, layout.len());
            layout.push((t.to_string(), "1".to_string(), 16));
        }
    }
    let mut end = "0".to_string();
    for (i, (t, c, a)) in layout.iter().enumerate() {
        let _ = writeln!(
            s,
            "  %__ssk.z{i} = ptrtoint ptr getelementptr ({t}, ptr null, i64 {c}) to i64\n\
             \x20 %__ssk.u{i} = add i64 {end}, {}\n\
             \x20 %__ssk.o{i} = and i64 %__ssk.u{i}, -{a}\n\
             \x20 %__ssk.e{i} = add i64 %__ssk.o{i}, %__ssk.z{i}",
            a - 1
        );
        end = format!("%__ssk.e{i}");
    }
    let _ = writeln!(
        s,
        "  %__ssk.bu = add i64 {end}, 63\n\
         \x20 %__ssk.bytes = and i64 %__ssk.bu, -64\n\
         \x20 %__ssk.nx = load i32, ptr @__ssk_ntid, align 4\n\
         \x20 %__ssk.pny = getelementptr [3 x i32], ptr @__ssk_ntid, i32 0, i32 1\n\
         \x20 %__ssk.ny = load i32, ptr %__ssk.pny, align 4\n\
         \x20 %__ssk.pnz = getelementptr [3 x i32], ptr @__ssk_ntid, i32 0, i32 2\n\
         \x20 %__ssk.nz = load i32, ptr %__ssk.pnz, align 4\n\
         \x20 %__ssk.nxy = mul i32 %__ssk.nx, %__ssk.ny\n\
         \x20 %__ssk.n = mul i32 %__ssk.nxy, %__ssk.nz\n\
         \x20 %__ssk.lanes = call ptr @__ssk_region_begin(i64 %__ssk.bytes)\n\
         \x20 %__ssk.n64 = zext i32 %__ssk.n to i64\n\
         \x20 %__ssk.lb = mul i64 %__ssk.n64, 64\n\
         \x20 %__ssk.slots = getelementptr i8, ptr %__ssk.lanes, i64 %__ssk.lb"
    );
    for (i, p) in params.iter().enumerate() {
        let _ = writeln!(
            s,
            "  %__ssk.p{i} = getelementptr %__ssk.args.{k}, ptr %buf, i32 0, i32 {i}"
        );
        if !p.starts_with("byval:") {
            let _ = writeln!(s, "  {} = load {p}, ptr %__ssk.p{i}, align 1", pnames[i]);
        }
    }
    for (i, a) in allocas.iter().enumerate() {
        if !slots[i] {
            let _ = writeln!(s, "  {}", a.line);
        }
    }
    let _ = writeln!(
        s,
        // The pass's stops: `hard` those the runtime must release (warp functions, barriers with a
        // predicate), `soft` plain `__syncthreads`. A pass that began with no thread left waiting (`clean`) and
        // ended with only soft stops is released here: every waiting thread is at a block barrier, which the
        // runtime would release with no result to compute (`free`: the next pass runs them).
        "  %__ssk.hard = alloca i32, align 4\n\
         \x20 %__ssk.soft = alloca i32, align 4\n\
         \x20 %__ssk.free = alloca i32, align 4\n\
         \x20 %__ssk.clean = alloca i32, align 4\n\
         \x20 store i32 0, ptr %__ssk.free, align 4\n\
         \x20 store i32 1, ptr %__ssk.clean, align 4\n\
         \x20 br label %__ssk.pass\n\
         __ssk.pass:\n\
         \x20 store i32 0, ptr %__ssk.hard, align 4\n\
         \x20 store i32 0, ptr %__ssk.soft, align 4\n\
         \x20 %__ssk.fr = load i32, ptr %__ssk.free, align 4\n\
         \x20 %__ssk.frb = icmp ne i32 %__ssk.fr, 0\n\
         \x20 br label %__ssk.thread\n\
         __ssk.thread:\n\
         \x20 %__ssk.t = phi i32 [ 0, %__ssk.pass ], [ %__ssk.t1, %__ssk.next ]\n\
         \x20 %__ssk.lp = getelementptr %__ssk.lane, ptr %__ssk.lanes, i32 %__ssk.t\n\
         \x20 %__ssk.st = load i32, ptr %__ssk.lp, align 4\n\
         \x20 %__ssk.runs0 = icmp eq i32 %__ssk.st, 0\n\
         \x20 %__ssk.blk = icmp eq i32 %__ssk.st, {WAIT_BLOCK}\n\
         \x20 %__ssk.rel = and i1 %__ssk.blk, %__ssk.frb\n\
         \x20 %__ssk.runs = or i1 %__ssk.runs0, %__ssk.rel\n\
         \x20 br i1 %__ssk.runs, label %__ssk.go, label %__ssk.next\n\
         __ssk.go:\n\
         \x20 %__ssk.t64 = zext i32 %__ssk.t to i64\n\
         \x20 %__ssk.so = mul i64 %__ssk.t64, %__ssk.bytes\n\
         \x20 %__ssk.slot = getelementptr i8, ptr %__ssk.slots, i64 %__ssk.so"
    );
    for a in allocas {
        if let Some(i) = slot_of_alloca.get(&a.name) {
            let _ = writeln!(
                s,
                "  {} = getelementptr i8, ptr %__ssk.slot, i64 %__ssk.o{i}",
                a.name
            );
        }
    }
    for (p, i) in &slot_of_param {
        let _ = writeln!(
            s,
            "  {} = getelementptr i8, ptr %__ssk.slot, i64 %__ssk.o{i}",
            pnames[*p]
        );
    }
    // The lane and clock64()'s counter only for a kernel that can read them.
    let (lane_read, clock_read) = thread_state_read(blocks);
    if lane_read {
        s.push_str(
            "  %__ssk.ln = and i32 %__ssk.t, 31\n\
             \x20 store i32 %__ssk.ln, ptr @__ssk_lane, align 4\n",
        );
    }
    let _ = write!(
        s,
        "  %__ssk.ptx = getelementptr %__ssk.lane, ptr %__ssk.lp, i32 0, i32 9, i32 0\n\
         \x20 %__ssk.tx = load i32, ptr %__ssk.ptx, align 4\n\
         \x20 store i32 %__ssk.tx, ptr @__ssk_tid, align 4\n\
         \x20 %__ssk.pty = getelementptr %__ssk.lane, ptr %__ssk.lp, i32 0, i32 9, i32 1\n\
         \x20 %__ssk.ty = load i32, ptr %__ssk.pty, align 4\n\
         \x20 %__ssk.qty = getelementptr [3 x i32], ptr @__ssk_tid, i32 0, i32 1\n\
         \x20 store i32 %__ssk.ty, ptr %__ssk.qty, align 4\n\
         \x20 %__ssk.ptz = getelementptr %__ssk.lane, ptr %__ssk.lp, i32 0, i32 9, i32 2\n\
         \x20 %__ssk.tz = load i32, ptr %__ssk.ptz, align 4\n\
         \x20 %__ssk.qtz = getelementptr [3 x i32], ptr @__ssk_tid, i32 0, i32 2\n\
         \x20 store i32 %__ssk.tz, ptr %__ssk.qtz, align 4\n\
         \x20 %__ssk.psite = getelementptr %__ssk.lane, ptr %__ssk.lp, i32 0, i32 1\n\
         \x20 %__ssk.site = load i32, ptr %__ssk.psite, align 4\n\
         \x20 switch i32 %__ssk.site, label %__ssk.start ["
    );
    for (i, _) in sites.iter().enumerate() {
        let _ = write!(s, " i32 {}, label %__ssk.resume.{}", i + 1, i + 1);
    }
    s.push_str(" ]\n__ssk.start:\n");
    if clock_read {
        s.push_str("  store i64 0, ptr @__ssk_loop_clock, align 8\n");
    }
    for (p, i) in &slot_of_param {
        let t = &params[*p]["byval:".len()..];
        let _ = writeln!(
            s,
            "  %__ssk.bz{p} = ptrtoint ptr getelementptr ({t}, ptr null, i32 1) to i64\n\
             \x20 call void @llvm.memcpy.p0.p0.i64(ptr {}, ptr %__ssk.p{p}, i64 %__ssk.bz{p}, i1 false)",
            pnames[*p]
        );
        let _ = i;
    }
    let _ = writeln!(s, "  br label %{}", blocks[0].label);
    // The resume points.
    for (i, site) in sites.iter().enumerate() {
        let id = i + 1;
        let _ = writeln!(s, "__ssk.resume.{id}:");
        if clock_read {
            let _ = writeln!(
                s,
                "  %__ssk.{id}.pc = getelementptr %__ssk.lane, ptr %__ssk.lp, i32 0, i32 8\n\
                 \x20 %__ssk.{id}.c = load i64, ptr %__ssk.{id}.pc, align 8\n\
                 \x20 store i64 %__ssk.{id}.c, ptr @__ssk_loop_clock, align 8"
            );
        }
        if let Some(d) = &site.def {
            let _ = writeln!(
                s,
                "  %__ssk.{id}.pr = getelementptr %__ssk.lane, ptr %__ssk.lp, i32 0, i32 7\n\
                 \x20 %__ssk.{id}.r = load i64, ptr %__ssk.{id}.pr, align 8"
            );
            if site.func == "__ssk_warp_op64" {
                let _ = writeln!(s, "  {d} = add i64 %__ssk.{id}.r, 0");
            } else {
                let _ = writeln!(s, "  {d} = trunc i64 %__ssk.{id}.r to i32");
            }
        }
        for l in &blocks[site.block].lines[site.at + 1..] {
            s.push_str(&ret_replaced(l));
        }
    }
    // The kernel's blocks.
    for (bi, b) in blocks.iter().enumerate() {
        let _ = writeln!(s, "{}:", b.label);
        let site = sites.iter().position(|x| x.block == bi);
        let upto = site.map_or(b.lines.len(), |i| sites[i].at);
        for l in &b.lines[..upto] {
            s.push_str(&ret_replaced(l));
        }
        if let Some(i) = site {
            s.push_str(&barrier_exit(i + 1, &sites[i], clock_read));
        }
    }
    s.push_str(
        "__ssk.next:\n\
         \x20 %__ssk.t1 = add i32 %__ssk.t, 1\n\
         \x20 %__ssk.more = icmp ult i32 %__ssk.t1, %__ssk.n\n\
         \x20 br i1 %__ssk.more, label %__ssk.thread, label %__ssk.sched\n\
         __ssk.sched:\n\
         \x20 %__ssk.h = load i32, ptr %__ssk.hard, align 4\n\
         \x20 %__ssk.s = load i32, ptr %__ssk.soft, align 4\n\
         \x20 %__ssk.c = load i32, ptr %__ssk.clean, align 4\n\
         \x20 %__ssk.h0 = icmp eq i32 %__ssk.h, 0\n\
         \x20 %__ssk.c1 = icmp ne i32 %__ssk.c, 0\n\
         \x20 %__ssk.here = and i1 %__ssk.h0, %__ssk.c1\n\
         \x20 br i1 %__ssk.here, label %__ssk.fast, label %__ssk.slow\n\
         __ssk.fast:\n\
         \x20 store i32 1, ptr %__ssk.free, align 4\n\
         \x20 %__ssk.s0 = icmp eq i32 %__ssk.s, 0\n\
         \x20 br i1 %__ssk.s0, label %__ssk.done, label %__ssk.pass\n\
         __ssk.slow:\n\
         \x20 store i32 0, ptr %__ssk.free, align 4\n\
         \x20 %__ssk.again = call i32 @__ssk_region_release(ptr %__ssk.lanes)\n\
         \x20 %__ssk.all = icmp eq i32 %__ssk.again, 2\n\
         \x20 %__ssk.allz = zext i1 %__ssk.all to i32\n\
         \x20 store i32 %__ssk.allz, ptr %__ssk.clean, align 4\n\
         \x20 %__ssk.another = icmp ne i32 %__ssk.again, 0\n\
         \x20 br i1 %__ssk.another, label %__ssk.pass, label %__ssk.done\n\
         __ssk.done:\n\
         \x20 ret void\n\
         }\n",
    );
    Ok(s)
}

/// A line of the kernel, its `ret void` (the thread's end) made the thread's state DONE and a jump to the
/// next thread.
fn ret_replaced(l: &str) -> String {
    if l.trim() == "ret void" {
        format!("  store i32 {DONE}, ptr %__ssk.lp, align 4\n  br label %__ssk.next\n")
    } else {
        format!("{l}\n")
    }
}

/// A barrier call made the thread's stop: its arguments, its state and site and its clock in its lane.
fn barrier_exit(id: usize, site: &Site, clock: bool) -> String {
    let a = &site.args;
    // op, mask, val (as i64, with how to make it), arg, width, state
    let (op, mask, val, arg, width, state) = match site.func.as_str() {
        "__ssk_syncthreads" => ("0", "0", None, "0", "0", WAIT_BLOCK),
        "__ssk_syncthreads_op" => (
            a[0].as_str(),
            "0",
            Some(("pred", a[1].as_str())),
            "0",
            "0",
            WAIT_BLOCK,
        ),
        "__ssk_syncwarp" => ("0", a[0].as_str(), None, "0", "32", WAIT_WARP),
        "__ssk_warp_op" => (
            a[0].as_str(),
            a[1].as_str(),
            Some(("u32", a[2].as_str())),
            a[3].as_str(),
            a[4].as_str(),
            WAIT_WARP,
        ),
        _ => (
            a[0].as_str(),
            a[1].as_str(),
            Some(("u64", a[2].as_str())),
            a[3].as_str(),
            a[4].as_str(),
            WAIT_WARP,
        ),
    };
    let mut s = String::new();
    let v = match val {
        None => "0".to_string(),
        Some(("pred", p)) => {
            let _ = writeln!(
                s,
                "  %__ssk.{id}.nz = icmp ne i32 {p}, 0\n  %__ssk.{id}.v = zext i1 %__ssk.{id}.nz to i64"
            );
            format!("%__ssk.{id}.v")
        }
        Some(("u32", p)) => {
            let _ = writeln!(s, "  %__ssk.{id}.v = zext i32 {p} to i64");
            format!("%__ssk.{id}.v")
        }
        Some((_, p)) => p.to_string(),
    };
    for (field, ty, value) in [
        (2, "i32", op.to_string()),
        (3, "i32", mask.to_string()),
        (4, "i32", arg.to_string()),
        (5, "i32", width.to_string()),
        (6, "i64", v),
        (1, "i32", id.to_string()),
        (0, "i32", state.to_string()),
    ] {
        let _ = writeln!(
            s,
            "  %__ssk.{id}.f{field} = getelementptr %__ssk.lane, ptr %__ssk.lp, i32 0, i32 {field}\n\
             \x20 store {ty} {value}, ptr %__ssk.{id}.f{field}, align 4"
        );
    }
    let counter = if site.func == "__ssk_syncthreads" {
        "soft"
    } else {
        "hard"
    };
    let _ = writeln!(
        s,
        "  %__ssk.{id}.n = load i32, ptr %__ssk.{counter}, align 4\n\
         \x20 %__ssk.{id}.n1 = add i32 %__ssk.{id}.n, 1\n\
         \x20 store i32 %__ssk.{id}.n1, ptr %__ssk.{counter}, align 4"
    );
    if clock {
        let _ = writeln!(
            s,
            "  %__ssk.{id}.ck = load i64, ptr @__ssk_loop_clock, align 8\n\
             \x20 %__ssk.{id}.f8 = getelementptr %__ssk.lane, ptr %__ssk.lp, i32 0, i32 8\n\
             \x20 store i64 %__ssk.{id}.ck, ptr %__ssk.{id}.f8, align 8"
        );
    }
    s.push_str("  br label %__ssk.next\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn func(text: &str) -> Func {
        functions(text).into_iter().next().expect("a function")
    }

    /// A kernel as `reg2mem,instnamer` leave it: `k` crosses the barrier in a loop, `x` does not.
    const R2M: &str = "\
define internal void @__ssk.fsrc.0(ptr noundef %arg, i32 %arg1) #0 {
bb:
  %k.reg2mem = alloca i32, align 4
  %x.reg2mem = alloca i32, align 4
  %r.reg2mem = alloca i32, align 4
  %\"reg2mem alloca point\" = bitcast i32 0 to i32
  store i32 %arg1, ptr %k.reg2mem, align 4
  br label %loop

loop:                                             ; preds = %__ssk.split.1, %bb
  %k = load i32, ptr %k.reg2mem, align 4
  %x = add i32 %k, 1
  store i32 %x, ptr %x.reg2mem, align 4
  %x2 = load i32, ptr %x.reg2mem, align 4
  %r = call i32 @__ssk_syncthreads_op(i32 1, i32 %x2)
  store i32 %r, ptr %r.reg2mem, align 4
  br label %__ssk.split.1

__ssk.split.1:                                    ; preds = %loop
  %r1 = load i32, ptr %r.reg2mem, align 4
  %k.reload = load i32, ptr %k.reg2mem, align 4
  %k1 = sub i32 %k.reload, %r1
  store i32 %k1, ptr %k.reg2mem, align 4
  %c = icmp sgt i32 %k1, 0
  br i1 %c, label %loop, label %end

end:                                              ; preds = %__ssk.split.1
  ret void
}
";

    #[test]
    fn a_barrier_call_ends_its_block_and_phis_name_the_last_piece() {
        let f = func(
            "define dso_local void @__ssd.k(ptr noundef %arg) local_unnamed_addr #0 !dbg !4 {\n\
             bb:\n  br label %b1\n\
             b1:\n  %v = phi i32 [ 0, %bb ], [ %w, %b1 ]\n  call void @__ssk_syncthreads(), !dbg !9\n\
             \x20 %w = add i32 %v, 1\n  call void @__ssk_syncwarp(i32 -1)\n  br i1 true, label %b1, label %b2\n\
             b2:\n  ret void\n}\n",
        );
        let copy = split_copy(&f, 3, &BTreeSet::new()).expect("qualifies");
        assert!(copy.starts_with("define internal void @__ssk.fsrc.3(ptr noundef %arg) #0 {\n"));
        assert!(copy.contains(
            "  call void @__ssk_syncthreads()\n  br label %__ssk.split.1\n__ssk.split.1:\n"
        ));
        assert!(copy.contains("  br label %__ssk.split.2\n__ssk.split.2:\n"));
        // The loop's back edge now leaves from the block's last piece.
        assert!(copy.contains("[ %w, %__ssk.split.2 ]"), "{copy}");
        assert!(copy.contains("[ 0, %bb ]"));
        assert!(!copy.contains("!dbg"));
    }

    #[test]
    fn what_regions_cannot_hold_keeps_the_kernel_on_fibers() {
        let calls_barrier_fn = func(
            "define void @__ssd.k() {\nbb:\n  call void @__ssd.f()\n  call void @__ssk_syncthreads()\n  ret void\n}\n",
        );
        let reaching: BTreeSet<String> = ["__ssd.f".to_string()].into();
        assert!(split_copy(&calls_barrier_fn, 0, &reaching).is_err());
        let indirect = func(
            "define void @__ssd.k(ptr %p) {\nbb:\n  call void %p()\n  call void @__ssk_syncthreads()\n  ret void\n}\n",
        );
        assert!(split_copy(&indirect, 0, &BTreeSet::new()).is_err());
        let grid =
            func("define void @__ssd.k() {\nbb:\n  call void @__ssk_grid_sync()\n  ret void\n}\n");
        assert!(split_copy(&grid, 0, &BTreeSet::new()).is_err());
        let late_alloca = func(
            "define internal void @__ssk.fsrc.0() {\nbb:\n  br label %b\nb:\n  %a = alloca i32, align 4\n  call void @__ssk_syncthreads()\n  ret void\n}\n",
        );
        assert!(region_function(&late_alloca, 0, &[]).is_err());
        let vla = func(
            "define internal void @__ssk.fsrc.0(i32 %n) {\nbb:\n  %a = alloca i32, i32 %n, align 4\n  call void @__ssk_syncthreads()\n  ret void\n}\n",
        );
        assert!(region_function(&vla, 0, &["i32".to_string()]).is_err());
    }

    #[test]
    fn the_call_graph_finds_functions_that_reach_a_barrier() {
        let funcs = functions(
            "define void @a() {\n  call void @b()\n  ret void\n}\n\
             define void @b() {\n  call void @__ssk_warp_op64(i32 1, i32 -1, i64 0, i32 0, i32 32)\n  ret void\n}\n\
             define void @c(ptr %f) {\n  call void %f()\n  ret void\n}\n\
             define void @d() {\n  call void @__ssk_vprintf(ptr null, ptr null)\n  ret void\n}\n",
        );
        let r = reaching_unsafe(&funcs);
        assert!(r.contains("a") && r.contains("b") && r.contains("c"));
        assert!(!r.contains("d"));
    }

    #[test]
    fn only_values_read_after_a_barrier_become_the_threads_slots() {
        let f = func(R2M);
        let text = region_function(&f, 0, &["ptr".to_string(), "i32".to_string()]).expect("builds");
        // `k` is read after the barrier (the loop goes round it): a slot. `x` is written and read between two
        // barriers, and `r` is written at the resume point before it is read: frame allocas.
        assert!(
            text.contains("  %k.reg2mem = getelementptr i8, ptr %__ssk.slot, i64 %__ssk.o0\n"),
            "{text}"
        );
        assert!(text.contains("  %x.reg2mem = alloca i32, align 4\n"));
        assert!(text.contains("  %r.reg2mem = alloca i32, align 4\n"));
        assert!(!text.contains("reg2mem alloca point"));
        // Parameters come from the argument buffer.
        assert!(text.contains("  %arg1 = load i32, ptr %__ssk.p1, align 1\n"));
        // The barrier: its arguments in the lane and a stop; its result read where the thread resumes.
        assert!(text.contains("  %__ssk.1.nz = icmp ne i32 %x2, 0\n"));
        assert!(text.contains("  store i32 1, ptr %__ssk.1.f2, align 4\n"));
        assert!(text.contains(&format!(
            "  store i32 {WAIT_BLOCK}, ptr %__ssk.1.f0, align 4\n"
        )));
        assert!(text.contains("__ssk.resume.1:\n"));
        assert!(text.contains("  %r = trunc i64 %__ssk.1.r to i32\n  store i32 %r, ptr %r.reg2mem, align 4\n  br label %__ssk.split.1\n"));
        assert!(text.contains(
            "switch i32 %__ssk.site, label %__ssk.start [ i32 1, label %__ssk.resume.1 ]"
        ));
        // The end of the thread: DONE, and on to the next one.
        assert!(text.contains(&format!(
            "end:\n  store i32 {DONE}, ptr %__ssk.lp, align 4\n  br label %__ssk.next\n"
        )));
        assert!(!text.contains("ret void\n}\n\n"));
    }

    #[test]
    fn the_lane_and_the_clock_are_kept_only_for_a_kernel_that_can_read_them() {
        let kernel = |calls: &str| {
            let f = func(&format!(
                "define internal void @__ssk.fsrc.0() {{\nbb:\n{calls}  call void @__ssk_syncthreads()\n  ret void\n}}\n"
            ));
            region_function(&f, 0, &[]).expect("builds")
        };
        let lane = "store i32 %__ssk.ln, ptr @__ssk_lane";
        let save = "load i64, ptr @__ssk_loop_clock";
        let restore = "ptr @__ssk_loop_clock, align 8\n";
        // Neither: no lane, no counter kept at the barrier or set at the start.
        let none = kernel(
            "  call void @llvm.assume(i1 true)\n  call void @__ssk_vprintf(ptr null, ptr null)\n",
        );
        assert!(
            !none.contains(lane) && !none.contains("@__ssk_loop_clock"),
            "{none}"
        );
        // clock64(): the counter, not the lane.
        let clock = kernel("  %c = call i64 @__ssk_clock64()\n");
        assert!(
            !clock.contains(lane) && clock.contains(save) && clock.contains(restore),
            "{clock}"
        );
        // The lane read directly (an inlined __lanemask or laneid).
        let l = kernel("  %l = load i32, ptr @__ssk_lane, align 4\n");
        assert!(l.contains(lane) && !l.contains(save), "{l}");
        // A function the cut does not know may read both.
        let other = kernel("  call void @helper()\n");
        assert!(other.contains(lane) && other.contains(save), "{other}");
    }

    #[test]
    fn a_value_computed_before_the_barrier_in_its_block_and_used_after_falls_back() {
        let f = func(
            "define internal void @__ssk.fsrc.0() {\nbb:\n  %a = add i32 1, 2\n  call void @__ssk_syncthreads()\n  %b = add i32 %a, 1\n  ret void\n}\n",
        );
        assert!(region_function(&f, 0, &[]).is_err());
    }

    #[test]
    fn without_regions_the_rows_name_null_and_the_placeholders_go() {
        let text = format!(
            "{}{}@__ssk.kernels = internal constant [2 x {{ ptr }}] [{{ ptr }} {{ ptr @__ssk.fblock.1 }}, {{ ptr }} {{ ptr @__ssk.fblock.10 }}]\n",
            placeholder(1),
            placeholder(10)
        );
        let out = without(&text);
        assert_eq!(
            out,
            "@__ssk.kernels = internal constant [2 x { ptr }] [{ ptr } { ptr null }, { ptr } { ptr null }]\n"
        );
    }

    #[test]
    fn metadata_attachments_are_stripped() {
        assert_eq!(
            strip_metadata("  %x = load i32, ptr %p, align 4, !tbaa !7, !dbg !12"),
            "  %x = load i32, ptr %p, align 4"
        );
        assert_eq!(
            strip_metadata("  br i1 %c, label %a, label %b, !llvm.loop !3"),
            "  br i1 %c, label %a, label %b"
        );
    }
}
