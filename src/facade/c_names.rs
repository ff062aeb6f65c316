//! The names C programs give their kernels (`cudasimLaunchKernel(stream, "name", …)`), interned: a launch loop
//! names the same few kernels millions of times, and copying the name at every launch was a good part of a C
//! launch's cost. The first [`MAX_NAMES`] distinct names of the OS process (at most [`MAX_BYTES`] in all) are kept
//! for its lifetime and shared by every launch that gives them; a later new name is copied per launch, as
//! before, so that a program making up names does not grow without bound. Each thread remembers the last few
//! names it launched by the pointer it gave, and checks the bytes behind the pointer every time (a program may
//! reuse a buffer for another name).
//!
//! Lock order: the interned names' lock is a leaf.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::ffi::{CStr, c_char};

use parking_lot::Mutex;

/// The most distinct kernel names the OS process keeps.
pub(crate) const MAX_NAMES: usize = 4096;
/// The most bytes of kernel names the OS process keeps.
pub(crate) const MAX_BYTES: usize = 1 << 20;

struct Interned {
    /// The name's bytes as the program gave them → its text (the same bytes when they are UTF-8).
    names: BTreeMap<&'static [u8], &'static str>,
    bytes: usize,
}

static INTERNED: Mutex<Interned> = Mutex::new(Interned {
    names: BTreeMap::new(),
    bytes: 0,
});

/// A thread's last names: (the pointer given, the bytes it pointed to, the text).
struct Recent {
    entries: [(usize, &'static [u8], &'static str); 4],
    next: usize,
}

thread_local! {
    static RECENT: RefCell<Recent> = const {
        RefCell::new(Recent {
            entries: [(0, &[], ""); 4],
            next: 0,
        })
    };
}

/// The text of the kernel name at `name` (NULL: `kernel`), interned when it can be.
///
/// # Safety
/// `name` is NULL or a NUL-terminated string.
pub(crate) unsafe fn kernel_name(name: *const c_char) -> Cow<'static, str> {
    if name.is_null() {
        return Cow::Borrowed("kernel");
    }
    let at = name as usize;
    let recent = RECENT
        .try_with(|r| {
            r.borrow()
                .entries
                .iter()
                // SAFETY: `name` is NUL-terminated.
                .find(|&&(p, b, _)| p == at && unsafe { is_c_string(name, b) })
                .map(|&(_, _, s)| s)
        })
        .ok()
        .flatten();
    if let Some(s) = recent {
        return Cow::Borrowed(s);
    }
    // SAFETY: NUL-terminated by the C contract.
    let bytes = unsafe { CStr::from_ptr(name) }.to_bytes();
    match intern(bytes) {
        Some((key, s)) => {
            let _ = RECENT.try_with(|r| {
                let mut r = r.borrow_mut();
                let i = r.next;
                r.entries[i] = (at, key, s);
                r.next = (i + 1) % r.entries.len();
            });
            Cow::Borrowed(s)
        }
        None => String::from_utf8_lossy(bytes).into_owned().into(),
    }
}

/// Whether the string at `name` is `bytes` (which holds no NUL), read no further than its NUL (no `strlen`
/// first: the check of a launch loop's name is one pass over a few bytes).
///
/// # Safety
/// `name` is a NUL-terminated string.
#[inline]
unsafe fn is_c_string(name: *const c_char, bytes: &[u8]) -> bool {
    let p = name.cast::<u8>();
    for (i, &b) in bytes.iter().enumerate() {
        // SAFETY: bytes 0..i matched bytes of `bytes`, none of them NUL: `i` is within the string or its NUL.
        if unsafe { *p.add(i) } != b {
            return false;
        }
    }
    // SAFETY: as above, `bytes.len()` is within the string or its NUL.
    unsafe { *p.add(bytes.len()) == 0 }
}

/// The interned copy of `bytes` (its key and text), made if there is room.
fn intern(bytes: &[u8]) -> Option<(&'static [u8], &'static str)> {
    intern_in(&mut INTERNED.lock(), bytes)
}

fn intern_in(t: &mut Interned, bytes: &[u8]) -> Option<(&'static [u8], &'static str)> {
    if let Some((&k, &s)) = t.names.get_key_value(bytes) {
        return Some((k, s));
    }
    let text = String::from_utf8_lossy(bytes);
    let size = bytes.len()
        + if text.as_bytes() == bytes {
            0
        } else {
            text.len()
        };
    if t.names.len() >= MAX_NAMES || t.bytes + size > MAX_BYTES {
        return None;
    }
    // Kept for the rest of the OS process (bounded above): a launch's label borrows it.
    let s: &'static str = Box::leak(text.into_owned().into_boxed_str());
    let key: &'static [u8] = if s.as_bytes() == bytes {
        s.as_bytes()
    } else {
        Box::leak(bytes.to_vec().into_boxed_slice())
    };
    t.names.insert(key, s);
    t.bytes += size;
    Some((key, s))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name is shared (the same text, not a copy) by every launch that gives it, through the same pointer
    /// or another; a buffer reused for another name gives the other name; invalid UTF-8 is replaced, as
    /// before; NULL is `kernel`.
    #[test]
    fn names_are_interned_and_checked_every_time() {
        let a = c"interned-test-a";
        let first = unsafe { kernel_name(a.as_ptr()) };
        let again = unsafe { kernel_name(a.as_ptr()) };
        let (Cow::Borrowed(x), Cow::Borrowed(y)) = (&first, &again) else {
            panic!("interned names are borrowed: {first:?} {again:?}");
        };
        assert_eq!(*x, "interned-test-a");
        assert!(std::ptr::eq(*x, *y), "the same interned text");
        let copy = std::ffi::CString::new("interned-test-a").unwrap();
        let other = unsafe { kernel_name(copy.as_ptr()) };
        assert!(matches!(other, Cow::Borrowed(z) if std::ptr::eq(z, *x)));
        let mut buf = *b"interned-test-b\0";
        let b = unsafe { kernel_name(buf.as_ptr().cast()) };
        assert_eq!(b, "interned-test-b");
        buf[14] = b'c';
        let c = unsafe { kernel_name(buf.as_ptr().cast()) };
        assert_eq!(
            c, "interned-test-c",
            "the bytes behind a pointer are checked"
        );
        buf[10] = 0;
        let short = unsafe { kernel_name(buf.as_ptr().cast()) };
        assert_eq!(
            short, "interned-t",
            "a shorter string behind the same pointer"
        );
        buf[10] = b'e';
        let long = unsafe { kernel_name(buf.as_ptr().cast()) };
        assert_eq!(long, "interned-test-c", "a longer one again");
        let bad = unsafe { kernel_name(c"bad-\xff".as_ptr()) };
        assert_eq!(bad, "bad-\u{fffd}");
        assert_eq!(unsafe { kernel_name(std::ptr::null()) }, "kernel");
    }

    /// At most `MAX_NAMES` names and `MAX_BYTES` bytes are kept: past either, a new name is not (it is copied
    /// per launch), while the kept ones still are found.
    #[test]
    fn the_interned_names_are_bounded() {
        let mut t = Interned {
            names: BTreeMap::new(),
            bytes: 0,
        };
        for i in 0..MAX_NAMES {
            assert!(intern_in(&mut t, format!("n{i}").as_bytes()).is_some());
        }
        assert!(intern_in(&mut t, b"one too many").is_none());
        assert_eq!(intern_in(&mut t, b"n7").map(|(_, s)| s), Some("n7"));
        let mut t = Interned {
            names: BTreeMap::new(),
            bytes: 0,
        };
        let big = vec![b'x'; MAX_BYTES / 2];
        assert!(intern_in(&mut t, &big).is_some());
        let mut other = big.clone();
        other[0] = b'y';
        assert!(intern_in(&mut t, &other).is_some());
        assert!(intern_in(&mut t, b"z").is_none(), "1 MiB in all");
    }
}
