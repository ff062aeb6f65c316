use super::*;

/// The statement list the typo suggestions use and the list an error message prints are the same set.
#[test]
fn statements_and_the_commands_message_list_the_same_words() {
    let inner = COMMANDS
        .trim_start_matches("a command (")
        .trim_end_matches(')');
    let mut listed: Vec<&str> = inner
        .split([',', ';'])
        .map(|w| {
            w.trim()
                .trim_start_matches("stream-ordered memory: ")
                .trim_start_matches("CUDA and MUSA also ")
                .trim_start_matches("ACL also ")
        })
        .collect();
    listed.sort_unstable();
    let mut statements = STATEMENTS.to_vec();
    statements.sort_unstable();
    assert_eq!(listed, statements);
}

#[test]
fn errors_point_at_the_word() {
    let e = parse("stream s1\nkernel k on s2 10us\n").unwrap_err();
    assert_eq!((e.line, e.column), (2, 13));
    assert!(e.found.contains("not declared"), "{e}");
    let e = parse("event e\nkernel k 10").unwrap_err();
    assert_eq!((e.line, e.column), (2, 10));
    assert!(e.expected.contains("duration"), "{e}");
    let e = parse("record").unwrap_err();
    assert_eq!((e.line, e.column, e.found.as_str()), (1, 7, "end of line"));
    let e = parse("stream s\nevent s").unwrap_err();
    assert!(
        e.found.contains("already declared on line 1 as a stream"),
        "{e}"
    );
}

/// Every word the parser accepts is in the README's language section (issue 12, item 8: `blocking` was
/// accepted and documented nowhere): the statements, the words of each statement, the streams, the
/// targets, the dialects.
#[test]
fn every_word_the_parser_accepts_is_documented() {
    let readme = include_str!("../../../../README.md");
    let start = readme
        .find("### The language")
        .expect("the language section");
    let end = start
        + readme[start..]
            .find("### Writing a scenario")
            .expect("its end");
    let section = &readme[start..end];
    let words: std::collections::BTreeSet<&str> = section
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .collect();
    let options = [
        "non-blocking",
        "blocking",
        "priority",
        "flags",
        "ex",
        "default",
        "on",
        "reads",
        "writes",
        "legacy",
        "per-thread",
        "stream",
        "event",
        "device",
        "timeout",
        "cuda",
        "musa",
        "acl",
        "stop",
        "continue",
        "geq",
        "eq",
        "and",
        "nor",
        "block",
        "no-block",
        "global",
        "thread-local",
        "relaxed",
        "max-size",
        "pool",
        "max",
        "off",
        "copy-engines",
        "kernel-slots",
    ];
    let all = STATEMENTS
        .iter()
        .chain(options.iter())
        .chain(CUDA_EVENT_FLAGS.iter().map(|(w, _)| w))
        .chain(ACL_EVENT_FLAGS.iter().map(|(w, _)| w))
        .chain(super::super::pools::POOL_ATTRS.iter().map(|(w, _)| w));
    for w in all {
        assert!(
            words.contains(w),
            "`{w}` is not in the README's language section"
        );
    }
    for w in RESERVED {
        assert!(
            words.contains(w),
            "reserved `{w}` is not in the README's language section"
        );
    }
}

/// The statements the suggestions know are the ones the parser takes: each parses (or fails on what
/// follows it, never as an unknown statement).
#[test]
fn every_suggested_statement_is_a_statement() {
    for w in STATEMENTS {
        for dialect in ["cuda", "acl"] {
            if let Err(e) = parse(&format!("dialect {dialect}\n{w}")) {
                assert!(!e.found.starts_with("unknown statement"), "{w}: {e}");
            }
        }
    }
}

#[test]
fn config_comes_first_and_once() {
    assert!(parse("dialect musa\ndevices 2\nseed 3\nset-device 1").is_ok());
    let e = parse("set-device 0\ndevices 2").unwrap_err();
    assert_eq!(e.line, 2);
    let e = parse("devices 2\ndevices 3").unwrap_err();
    assert!(e.expected.contains("already given on line 1"), "{e}");
}
