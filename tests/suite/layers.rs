//! The layering rule of `src/lib.rs`: dependencies point down only, tools → facade → engine; inside the engine,
//! `core/` imports nothing else and the runtime objects reach each other only through what they keep. A file of the
//! engine (`src/engine/`) names nothing of the vendor layer or the tools; a file of the vendor layer
//! (`src/facade/`) names nothing of the tools. Checked on the code of every file (comments may mention any
//! layer), including paths through the crate root's re-exports (`crate::cuda` is the vendor layer) and macro
//! paths (`$crate::…`).

use std::path::{Path, PathBuf};

/// The crate-root names that belong to each layer above the engine, as the code can spell them.
const VENDOR: &[&str] = &["vendor", "acl", "cuda", "musa", "capi", "facade"];
const TOOLS: &[&str] = &["tools", "scenario", "export", "testing"];

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
    {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The file's code without its comments (line comments and doc comments; the sources have no block
/// comments), joined so that a grouped `use crate::{…}` spanning lines is one string.
fn code(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            // A `//` inside a string literal ("http://…") would cut a line short; the sources have none
            // next to a crate path, and cutting only removes text, so the check can only get weaker there.
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The names of `forbidden` that `code` reaches through `crate::` (or `$crate::`, or `super::…`), alone or in
/// a group.
fn violations(code: &str, forbidden: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = rest
        .find("crate::")
        .into_iter()
        .chain(rest.find("super::"))
        .min()
    {
        let prefix = if rest[at..].starts_with("crate::") {
            "crate::"
        } else {
            "super::"
        };
        let mut after = rest[at + prefix.len()..].trim_start();
        while let Some(up) = after.strip_prefix("super::") {
            after = up.trim_start();
        }
        let names: Vec<&str> = if let Some(group) = after.strip_prefix('{') {
            // `crate::{a, b::c, d as e}`: the first segment of each item, up to the matching brace.
            let mut depth = 1;
            let end = group
                .char_indices()
                .find(|&(_, c)| {
                    depth += match c {
                        '{' => 1,
                        '}' => -1,
                        _ => 0,
                    };
                    depth == 0
                })
                .map_or(group.len(), |(i, _)| i);
            let mut items = Vec::new();
            let mut level = 0;
            let mut start = 0;
            for (i, c) in group[..end].char_indices() {
                match c {
                    '{' => level += 1,
                    '}' => level -= 1,
                    ',' if level == 0 => {
                        items.push(&group[start..i]);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            items.push(&group[start..end]);
            items
                .into_iter()
                .map(|item| first_segment(item.trim()))
                .collect()
        } else {
            vec![first_segment(after)]
        };
        for name in names {
            if forbidden.contains(&name) {
                found.push(name.to_string());
            }
        }
        rest = after;
    }
    found
}

fn first_segment(path: &str) -> &str {
    let end = path
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(path.len());
    &path[..end]
}

fn check_layer(dir: &str, forbidden: &[&str]) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut list = Vec::new();
    files(&root.join(dir), &mut list);
    assert!(
        list.len() >= 3,
        "{dir}: expected the layer's files, found {list:?}"
    );
    let mut bad = Vec::new();
    for file in &list {
        let text = std::fs::read_to_string(file).expect("a source file");
        for name in violations(&code(&text), forbidden) {
            bad.push(format!(
                "{}: crate::{name}",
                file.strip_prefix(root).unwrap_or(file).display()
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{dir} reaches up a layer (lib.rs: tools → vendor → engine):\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_engine_imports_neither_the_vendor_layer_nor_the_tools() {
    let forbidden: Vec<&str> = VENDOR.iter().chain(TOOLS).copied().collect();
    check_layer("src/engine", &forbidden);
}

#[test]
fn the_vendor_layer_does_not_import_the_tools() {
    check_layer("src/facade", TOOLS);
}

#[test]
fn the_checker_sees_every_spelling_of_an_upward_path() {
    let forbidden = ["vendor", "cuda", "scenario"];
    assert_eq!(
        violations(&code("use crate::vendor::binding::Api;"), &forbidden),
        ["vendor"]
    );
    assert_eq!(
        violations(&code("x = $crate::cuda::cudaFree(p);"), &forbidden),
        ["cuda"]
    );
    assert_eq!(
        violations(
            &code("use crate::{\n    engine::x,\n    scenario::{run, parse},\n};"),
            &forbidden
        ),
        ["scenario"]
    );
    assert_eq!(
        violations(&code("use super::super::vendor::acl;"), &forbidden),
        ["vendor"]
    );
    assert_eq!(
        violations(&code("crate::engine::machine; crate::Machine"), &forbidden),
        Vec::<String>::new()
    );
    assert_eq!(
        violations(
            &code("/// see [`crate::cuda`]\nlet a = 1; // crate::vendor"),
            &forbidden
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        violations(&code("use crate::cuda_like::X;"), &forbidden),
        Vec::<String>::new()
    );
}

/// The engine folders of `crate::engine::…` paths that `code` names (first segment after `engine::`).
fn engine_paths(code: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::engine::") {
        let after = &rest[at + "crate::engine::".len()..];
        let folder = first_segment(after);
        let sub = after[folder.len()..]
            .strip_prefix("::")
            .map(first_segment)
            .unwrap_or("");
        found.push((folder.to_string(), sub.to_string()));
        rest = after;
    }
    found
}

fn engine_files(folder: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut list = Vec::new();
    files(&root.join("src/engine").join(folder), &mut list);
    list
}

/// `src/engine/core/` is the engine's vocabulary: it imports nothing of the engine outside itself (lib.rs's code
/// map), so any file can use it without joining an import circle.
#[test]
fn the_engine_core_imports_nothing_outside_core() {
    let list = engine_files("core");
    assert!(list.len() >= 8, "core's files: {list:?}");
    let mut bad = Vec::new();
    for file in &list {
        let code = code(&std::fs::read_to_string(file).expect("a source file"));
        for (folder, sub) in engine_paths(&code) {
            if folder != "core" {
                bad.push(format!(
                    "{}: crate::engine::{folder}::{sub}",
                    file.display()
                ));
            }
        }
        if code.contains("super::super::") {
            bad.push(format!("{}: super::super::", file.display()));
        }
    }
    assert!(
        bad.is_empty(),
        "core/ reaches outside itself:\n{}",
        bad.join("\n")
    );
}

/// The runtime objects' folders (lib.rs's code map) and the modules of each that the others may name: what the
/// object keeps (its state, configuration, queues, tables) and the types of its `mod.rs`, never its calls — one
/// object reaches another's behaviour only through `Process`'s methods, and its fields are private to its
/// folder (`pub(super)`) where the calls of other folders have no business with them.
const OBJECTS: &[(&str, &[&str])] = &[
    ("callbacks", &["reports"]),
    ("devices", &["config", "profile", "settings"]),
    ("events", &["config", "state"]),
    // graph/gate.rs: the capture rules that every enqueueing call asks (where an operation goes)
    ("graph", &["capture", "gate", "node"]),
    ("host_memory", &[]),
    ("ipc", &["tables"]),
    ("kernels", &["kernel"]),
    // memory/managed.rs: the table of managed memory and its types (ManagedAttach, ManagedLocation, …);
    // memory/rows.rs: the geometry of pitched memory (Extent, Pitch, the rows a pitched copy moves)
    ("memory", &["block", "freed_pinned", "managed", "rows"]),
    ("notifies", &["state"]),
    ("pools", &["state"]),
    ("streams", &["entry", "info"]),
    ("value_waits", &["state"]),
];

#[test]
fn no_object_folder_reaches_into_another_objects_calls() {
    let mut bad = Vec::new();
    for &(object, _) in OBJECTS {
        let list = engine_files(object);
        assert!(!list.is_empty(), "src/engine/{object}/ has no files");
        for file in &list {
            let code = code(&std::fs::read_to_string(file).expect("a source file"));
            for (folder, sub) in engine_paths(&code) {
                // A type of the folder's `mod.rs` (`crate::engine::memory::Memory`) is what the folder keeps.
                let module = sub.starts_with(|c: char| c.is_ascii_lowercase());
                let kept = OBJECTS.iter().find(|(o, _)| *o == folder).map(|(_, k)| *k);
                if folder != object
                    && kept.is_some_and(|k| sub.is_empty() || module && !k.contains(&sub.as_str()))
                {
                    bad.push(format!(
                        "{}: crate::engine::{folder}::{sub}",
                        file.display()
                    ));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "an object folder names another object's calls (reach it through Process instead):\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_engine_path_reader_sees_folder_and_module() {
    assert_eq!(
        engine_paths(&code(
            "use crate::engine::events::calls::X; let y = crate::engine::core::time::Y;"
        )),
        [
            ("events".to_string(), "calls".to_string()),
            ("core".to_string(), "time".to_string())
        ]
    );
}
