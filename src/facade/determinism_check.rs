//! `STREAMSIM_CHECK_DETERMINISM=1` for C programs (`docs/semantics/schedules-and-hangs.md`): at exit, after its
//! default machines have drained, the program runs itself once more as a child — `/proc/self/exe` with the same
//! arguments and environment, standard input, output and error to `/dev/null`, and `STREAMSIM_DETERMINISM_CHILD`
//! naming a file — and the child, at its own exit, writes its default machines' traces there (the Chrome trace
//! JSON: every operation with its virtual times, blocking host calls, failed calls with their codes, races). The
//! first run compares them with its own: the same → one line on stderr; different → the first differing line of
//! each on stderr, and exit status [`DIVERGED`] (whatever `exit` was given).
//!
//! What it can and cannot compare (the limits are in the docs): only what goes through the default machines.
//! The child repeats the program's other effects (files written, output to `/dev/null`), reads no standard input,
//! and is on a shared host of its own (so that IPC between the two runs cannot happen); a program that starts
//! copies of itself, or talks to other OS processes, is not for this check.

use std::io::Write as _;
use std::path::PathBuf;

/// The variable that marks the child run and names its file.
pub(crate) const CHILD_VAR: &str = "STREAMSIM_DETERMINISM_CHILD";

/// The exit status of a program whose second run's trace differed.
pub(crate) const DIVERGED: i32 = 67;

/// What this process does about the check.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) enum Check {
    /// No check.
    #[default]
    Off,
    /// The first run: run the child at exit and compare.
    Parent,
    /// The child: write the traces to this file at exit.
    Child(PathBuf),
}

impl Check {
    /// From `STREAMSIM_CHECK_DETERMINISM` and the child marker.
    pub fn from_env(check: Option<String>, child: Option<String>) -> Result<Check, String> {
        if let Some(path) = child {
            return Ok(Check::Child(PathBuf::from(path)));
        }
        match check.as_deref().map(str::trim) {
            None | Some("0") => Ok(Check::Off),
            Some("1") => Ok(Check::Parent),
            Some(other) => Err(format!(
                "streamsim: STREAMSIM_CHECK_DETERMINISM={other:?} is not a valid value (expected 0 or 1)"
            )),
        }
    }

    pub fn on(&self) -> bool {
        *self != Check::Off
    }
}

/// At exit: `traces` is the text of this run's default machines (drained). Writes it (child) or runs the child
/// and compares (parent); `Some(status)`: exit with it.
pub(crate) fn at_exit(check: &Check, traces: &str) -> Option<i32> {
    let mut err = std::io::stderr();
    match check {
        Check::Off => None,
        Check::Child(path) => {
            let _ = std::fs::write(path, traces);
            None
        }
        Check::Parent => {
            let path = std::env::temp_dir().join(format!(
                "streamsim-determinism-{}-{}.txt",
                std::process::id(),
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos())
            ));
            let host = format!(
                "{}-determinism-{}",
                std::env::var("STREAMSIM_MACHINE").unwrap_or_else(|_| "default".into()),
                std::process::id()
            );
            let status = std::process::Command::new("/proc/self/exe")
                .args(std::env::args_os().skip(1))
                .env(CHILD_VAR, &path)
                .env_remove("STREAMSIM_CHECK_DETERMINISM")
                .env("STREAMSIM_MACHINE", host)
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status();
            let second = std::fs::read_to_string(&path);
            let _ = std::fs::remove_file(&path);
            let second = match (status, second) {
                (Err(e), _) => {
                    let _ = writeln!(
                        err,
                        "streamsim: STREAMSIM_CHECK_DETERMINISM=1: cannot run the program again: {e}"
                    );
                    return Some(DIVERGED);
                }
                (Ok(st), Err(_)) => {
                    let _ = writeln!(
                        err,
                        "streamsim: STREAMSIM_CHECK_DETERMINISM=1: the second run ({st}) wrote no trace"
                    );
                    return Some(DIVERGED);
                }
                (Ok(_), Ok(text)) => text,
            };
            let (a, b): (Vec<&str>, Vec<&str>) =
                (traces.lines().collect(), second.lines().collect());
            match (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i)) {
                None => {
                    let _ = writeln!(
                        err,
                        "streamsim: STREAMSIM_CHECK_DETERMINISM=1: the second run's trace is the same ({} lines)",
                        a.len()
                    );
                    None
                }
                Some(i) => {
                    let _ = writeln!(
                        err,
                        "streamsim: STREAMSIM_CHECK_DETERMINISM=1: not deterministic: the second run's trace \
                         differs at line {}:\n  first run:  {}\n  second run: {}",
                        i + 1,
                        a.get(i).copied().unwrap_or("(none)"),
                        b.get(i).copied().unwrap_or("(none)")
                    );
                    Some(DIVERGED)
                }
            }
        }
    }
}
