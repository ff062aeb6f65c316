//! What a newcomer trying streamsim from the README alone tripped on (issue 12, item 8), kept fixed: the
//! README states the Rust version `Cargo.toml` declares and what the tests need, `streamsim::testing` is
//! documented on docs.rs, and the README's C access example uses the header's real names. (The scenario
//! parser's items are in `scenarios.rs` and in `src/tools/scenario/parse.rs`; the ACL messages in
//! `acl_facade/messages.rs`; `devices 0` in `scenarios.rs`.)

use std::path::Path;

fn read(rel: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The value of `key = "…"` in the `[table]` of a TOML file (the first one; enough for Cargo.toml).
fn toml_value(toml: &str, table: &str, key: &str) -> Option<String> {
    let start = toml.find(&format!("[{table}]\n"))?;
    let body = &toml[start + table.len() + 3..];
    let body = &body[..body.find("\n[").unwrap_or(body.len())];
    body.lines().find_map(|l| {
        let (k, v) = l.split_once('=')?;
        (k.trim() == key).then(|| v.trim().to_string())
    })
}

/// `Cargo.toml` declares `rust-version`, at least what edition 2024 needs (1.85), and the README states that
/// same version; the README names the C and C++ compilers the tests run and `cargo install --path .`.
#[test]
fn the_readme_states_the_rust_version_and_what_the_tests_need() {
    let cargo = read("Cargo.toml");
    let v = toml_value(&cargo, "package", "rust-version").expect("rust-version in [package]");
    let v = v.trim_matches('"');
    let parts: Vec<u32> = v
        .split('.')
        .map(|p| p.parse().expect("a version"))
        .collect();
    assert!(parts[0] == 1 && parts[1] >= 85, "rust-version {v}");
    let readme = read("README.md");
    assert!(
        readme.contains(&format!("Rust {v} or newer")),
        "README does not state Rust {v}"
    );
    assert!(readme.contains("`rust-version` in `Cargo.toml`"));
    for needed in ["`cc`", "`c++`", "`CC`", "`CXX`", "`cargo install --path .`"] {
        assert!(readme.contains(needed), "README does not mention {needed}");
    }
}

/// docs.rs builds the documentation with the `proptest` feature (so `streamsim::testing` is there) and the
/// `docsrs` cfg, under which the module is marked as needing the feature.
#[test]
fn docs_rs_documents_the_testing_module() {
    let cargo = read("Cargo.toml");
    assert_eq!(
        toml_value(&cargo, "package.metadata.docs.rs", "features").as_deref(),
        Some(r#"["proptest"]"#)
    );
    assert_eq!(
        toml_value(&cargo, "package.metadata.docs.rs", "rustdoc-args").as_deref(),
        Some(r#"["--cfg", "docsrs"]"#)
    );
    let lib = read("src/lib.rs");
    assert!(lib.contains("#![cfg_attr(docsrs, feature(doc_cfg))]"));
    assert!(lib.contains(
        "#[cfg(feature = \"proptest\")]\n#[cfg_attr(docsrs, doc(cfg(feature = \"proptest\")))]\npub use tools::testing;"
    ));
    assert!(read("README.md").contains("cargo doc --features proptest"));
}

/// The README's C access example uses what `streamsim.h` defines: every `STREAMSIM_ACCESS_*` it names is a
/// macro of the header, the struct's field is `flags` (which takes READ | WRITE), and the old `write` field
/// is gone from both.
#[test]
fn the_readme_access_example_uses_the_header_names() {
    let readme = read("README.md");
    let header = read("include/streamsim.h");
    let mut named = 0;
    for (i, _) in readme.match_indices("STREAMSIM_ACCESS_") {
        let name: String = readme[i..]
            .chars()
            .take_while(|c| c.is_ascii_uppercase() || *c == '_')
            .collect();
        assert!(
            header.contains(&format!("#define {name} ")),
            "README names {name}, which streamsim.h does not define"
        );
        named += 1;
    }
    assert!(named >= 2);
    assert!(readme.contains("`{ptr, bytes, flags}`"));
    assert!(header.contains("    int flags; "));
    assert!(!header.contains("int write;"));
}
