//! Call sites of allocations and frees, for the sanitizer's reports ("allocation #3 (4096 bytes at 0x…,
//! cudaMalloc at line 12 of out_of_bounds.cu)"). `streamsim cc`'s pre-include headers wrap each allocation
//! and free call of the program in a guard that says where the call is (`__streamsim_at`, set before the
//! call and cleared after it); the engine reads the calling thread's site when it makes a block or
//! remembers a freed one. Programs built otherwise (nvcc, the C library) set none: their reports have no
//! site.
//!
//! The names (the call's and the file's) are interned in one table of at most [`MAX_NAMES`] names, kept for
//! the process's life (a program has a bounded number of source files and calls; past the bound a site is
//! not recorded), so a [`Site`] is three numbers.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::sync::Arc;

use parking_lot::Mutex;

/// The most distinct names (calls and files) the table keeps.
pub(crate) const MAX_NAMES: usize = 4096;

/// Where an allocation or free call is in the program's source: the call, the file and the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Site {
    call: u32,
    file: u32,
    line: u32,
}

/// The interned names, by number and by text.
#[derive(Default)]
struct Names {
    by_id: Vec<Arc<str>>,
    by_text: BTreeMap<Arc<str>, u32>,
}

static NAMES: Mutex<Names> = Mutex::new(Names {
    by_id: Vec::new(),
    by_text: BTreeMap::new(),
});

thread_local! {
    /// The site of the allocation or free call this thread is in, if its program said it.
    static CURRENT: Cell<Option<Site>> = const { Cell::new(None) };
}

/// The number of `text` in the table (added if new); `None` when the table is full.
fn intern(names: &mut Names, text: &str) -> Option<u32> {
    if let Some(&id) = names.by_text.get(text) {
        return Some(id);
    }
    if names.by_id.len() >= MAX_NAMES {
        return None;
    }
    let id = names.by_id.len() as u32;
    let text: Arc<str> = Arc::from(text);
    names.by_id.push(text.clone());
    names.by_text.insert(text, id);
    Some(id)
}

/// Sets this thread's site: the call `call` at `line` of `file` (the file's path as the compiler saw it; a
/// report names its last component).
pub(crate) fn set(call: &str, file: &str, line: u32) {
    let file = file.rsplit(['/', '\\']).next().unwrap_or(file);
    let site = {
        let mut names = NAMES.lock();
        intern(&mut names, call)
            .zip(intern(&mut names, file))
            .map(|(call, file)| Site { call, file, line })
    };
    CURRENT.with(|c| c.set(site));
}

/// Clears this thread's site (the call it was for returned).
pub(crate) fn clear() {
    CURRENT.with(|c| c.set(None));
}

/// The site of the call this thread is in, if any.
pub(crate) fn current() -> Option<Site> {
    CURRENT.with(Cell::get)
}

impl std::fmt::Display for Site {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (call, file) = {
            let names = NAMES.lock();
            (
                names.by_id[self.call as usize].clone(),
                names.by_id[self.file as usize].clone(),
            )
        };
        write!(f, "{call} at line {} of {file}", self.line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_site_names_its_call_line_and_file_name_until_cleared() {
        assert_eq!(current(), None);
        set("cudaMalloc", "/src/tests/out_of_bounds.cu", 12);
        let s = current().expect("set");
        assert_eq!(s.to_string(), "cudaMalloc at line 12 of out_of_bounds.cu");
        // The same names are the same numbers.
        set("cudaMalloc", "other/out_of_bounds.cu", 20);
        assert_eq!(current().map(|t| (t.call, t.file)), Some((s.call, s.file)));
        clear();
        assert_eq!(current(), None);
    }
}
