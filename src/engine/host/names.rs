//! Where a shared host lives: the name of its POSIX shared-memory object, one-to-one with the host's name, and
//! the choice among the places it may live when another user has squatted the first.
//!
//! # One name, one object
//!
//! `STREAMSIM_MACHINE` can be any text; an object's name is limited (255 bytes, no `/`). Letters, digits and
//! `-` are kept; every other byte, `_` included, becomes `_` and two hex digits (`team.a` → `team_2ea`,
//! `team/a` → `team_2fa`, `team_a` → `team_5fa`), so two names never give one object and the object's name
//! contains no `.` of its own. An escaped name longer than [`KEEP`] bytes keeps its first [`KEEP`] bytes and
//! gets `~` and a 64-bit hash of the *whole* name (names equal in their first 96 characters stay apart).
//! Messages name the host as the user wrote it.
//!
//! # Squatting
//!
//! `/dev/shm` is writable by every local user, so another user can create the object first (or, as root, one
//! owned by the user but open to others). Such an object is never used, since its owner could read and write
//! every member's records. Rather than denying IPC, the host then lives at the first of [`ALTERNATIVES`] other
//! names (`<object>.alt1`, …) that is the user's own or free; an existing object of the user's is preferred
//! to a free one (so that every member of the user finds the same host whatever was squatted when it
//! started). Only when all of them are squatted does the first IPC call fail, naming each object's owner and
//! mode.

/// How many escaped bytes of a long name are kept before its hash.
pub(crate) const KEEP: usize = 64;

/// How many other names a host may move to when its first is squatted.
pub(crate) const ALTERNATIVES: usize = 3;

/// The escaped form of host name `name` (one-to-one; see the module documentation).
pub(crate) fn escape(name: &str) -> String {
    let mut out = String::new();
    for &b in name.as_bytes() {
        if b.is_ascii_alphanumeric() || b == b'-' {
            out.push(b as char);
        } else {
            out.push_str(&format!("_{b:02x}"));
        }
    }
    if out.len() > 96 {
        let mut cut = KEEP;
        // Never cut an escape in two (the kept part is ASCII: any index is a char boundary).
        while out.as_bytes()[..cut]
            .iter()
            .rev()
            .take(2)
            .any(|&c| c == b'_')
        {
            cut -= 1;
        }
        out = format!("{}~{:016x}", &out[..cut], super::hash(name.as_bytes()));
    }
    out
}

/// The names host object `object` may live at, in order of preference.
pub(crate) fn candidates(object: &str) -> Vec<String> {
    std::iter::once(object.to_string())
        .chain((1..=ALTERNATIVES).map(|k| format!("{object}.alt{k}")))
        .collect()
}

/// What is at an object's name.
#[derive(Debug)]
pub(crate) enum Probe {
    Absent,
    /// A regular object of this user, private to them.
    Ours,
    /// Someone else's, or open to others: never used (the text says whose and how).
    Squatted(String),
}

/// What is at object `object` (its name with the leading `/`) in `/dev/shm`, without following a link.
pub(crate) fn probe(object: &str) -> Probe {
    use std::os::unix::fs::MetadataExt as _;
    let path = std::path::Path::new("/dev/shm").join(object.trim_start_matches('/'));
    let Ok(md) = std::fs::symlink_metadata(&path) else {
        return Probe::Absent;
    };
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    if md.file_type().is_file() && md.uid() == uid && md.mode() & 0o077 == 0 {
        Probe::Ours
    } else {
        Probe::Squatted(format!(
            "{object} ({}, owned by uid {} with mode {:o})",
            if md.file_type().is_file() {
                "a file"
            } else {
                "not a regular file"
            },
            md.uid(),
            md.mode() & 0o7777
        ))
    }
}

/// Which of `object`'s candidate names the host lives at: the first that is this user's own, else the first
/// free one; `Err` with every squatted object described when none is usable.
pub(crate) fn choose(object: &str) -> Result<String, String> {
    let all = candidates(object);
    let probes: Vec<Probe> = all.iter().map(|c| probe(c)).collect();
    if let Some(i) = probes.iter().position(|p| matches!(p, Probe::Ours)) {
        return Ok(all[i].clone());
    }
    if let Some(i) = probes.iter().position(|p| matches!(p, Probe::Absent)) {
        return Ok(all[i].clone());
    }
    let squatted: Vec<String> = probes
        .into_iter()
        .filter_map(|p| match p {
            Probe::Squatted(s) => Some(s),
            _ => None,
        })
        .collect();
    Err(format!(
        "every place the host may live at is taken by an object that is not private to this user, so it is \
         not used: {}; remove them or use another STREAMSIM_MACHINE name",
        squatted.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_names_escape_to_distinct_objects() {
        let names = [
            "team.a", "team/a", "team_a", "team-a", "teama", "team a", "tëam",
        ];
        let escaped: std::collections::BTreeSet<String> = names.iter().map(|n| escape(n)).collect();
        assert_eq!(escaped.len(), names.len(), "{escaped:?}");
        assert_eq!(escape("team.a"), "team_2ea");
        assert_eq!(escape("default"), "default");
        for e in &escaped {
            assert!(!e.contains('.') && !e.contains('/'), "{e}");
        }
    }

    #[test]
    fn long_names_keep_a_prefix_and_a_hash_of_the_whole_name() {
        let a = format!("{}{}", "x".repeat(96), "a");
        let b = format!("{}{}", "x".repeat(96), "b");
        let dots = ".".repeat(120);
        for n in [&a, &b, &dots] {
            let e = escape(n);
            assert!(e.len() <= KEEP + 17, "{e}");
            assert!(!e.contains('.'), "{e}");
        }
        assert_ne!(escape(&a), escape(&b));
    }
}
