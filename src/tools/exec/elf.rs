//! What `streamsim exec` reads from an ELF file: the libraries it needs (`DT_NEEDED`), whether it has a
//! `DT_RPATH` (searched before `LD_LIBRARY_PATH`), and the functions it defines (`.dynsym` and `.symtab`).
//! 64-bit little-endian files only (x86-64, AArch64): the others are refused with the reason.

use std::collections::BTreeSet;

/// The parts of an ELF file `streamsim exec` uses.
#[derive(Debug, Default)]
pub(crate) struct Elf {
    /// `DT_NEEDED` entries, in order.
    pub needed: Vec<String>,
    /// Whether the file has a `DT_RPATH` (not `DT_RUNPATH`), and its value.
    pub rpath: Option<String>,
    /// Functions defined in `.dynsym` (exported).
    pub exported: BTreeSet<String>,
    /// Functions defined in `.symtab` (empty when stripped).
    pub local: BTreeSet<String>,
    /// The size in memory of its thread-local storage (`PT_TLS`), 0 without.
    pub tls_size: u64,
}

const PT_TLS: u32 = 7;
const SHT_SYMTAB: u32 = 2;
const SHT_DYNSYM: u32 = 11;
const SHT_DYNAMIC: u32 = 6;
const DT_NEEDED: u64 = 1;
const DT_RPATH: u64 = 15;
const STT_FUNC: u8 = 2;
const SHN_UNDEF: u16 = 0;

fn u16_at(b: &[u8], o: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(o..o + 2)?.try_into().ok()?))
}
fn u32_at(b: &[u8], o: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(o..o + 4)?.try_into().ok()?))
}
fn u64_at(b: &[u8], o: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(o..o + 8)?.try_into().ok()?))
}

/// A section header: (type, offset, size, link, entry size).
struct Section {
    kind: u32,
    offset: usize,
    size: usize,
    link: usize,
}

fn cstr(b: &[u8], at: usize) -> Option<String> {
    let s = b.get(at..)?;
    let end = s.iter().position(|&c| c == 0)?;
    Some(String::from_utf8_lossy(&s[..end]).into_owned())
}

/// Parses `bytes`; an error says why the file is not one `streamsim exec` can read.
pub(crate) fn parse(bytes: &[u8]) -> Result<Elf, String> {
    if bytes.len() < 64 || &bytes[..4] != b"\x7fELF" {
        return Err("not an ELF file".into());
    }
    if bytes[4] != 2 || bytes[5] != 1 {
        return Err("not a 64-bit little-endian ELF file".into());
    }
    let bad = || "a truncated or malformed ELF file".to_string();
    let shoff = u64_at(bytes, 0x28).ok_or_else(bad)? as usize;
    let shentsize = usize::from(u16_at(bytes, 0x3a).ok_or_else(bad)?);
    let shnum = usize::from(u16_at(bytes, 0x3c).ok_or_else(bad)?);
    if shentsize < 64 {
        return Err(bad());
    }
    let mut sections = Vec::with_capacity(shnum);
    for i in 0..shnum {
        let h = shoff + i * shentsize;
        sections.push(Section {
            kind: u32_at(bytes, h + 4).ok_or_else(bad)?,
            offset: u64_at(bytes, h + 0x18).ok_or_else(bad)? as usize,
            size: u64_at(bytes, h + 0x20).ok_or_else(bad)? as usize,
            link: u32_at(bytes, h + 0x28).ok_or_else(bad)? as usize,
        });
    }
    let strtab = |s: &Section| -> Result<&[u8], String> {
        let t = sections.get(s.link).ok_or_else(bad)?;
        bytes.get(t.offset..t.offset + t.size).ok_or_else(bad)
    };
    let mut elf = Elf::default();
    let phoff = u64_at(bytes, 0x20).ok_or_else(bad)? as usize;
    let phentsize = usize::from(u16_at(bytes, 0x36).ok_or_else(bad)?);
    let phnum = usize::from(u16_at(bytes, 0x38).ok_or_else(bad)?);
    for i in 0..phnum {
        let h = phoff + i * phentsize;
        if u32_at(bytes, h).ok_or_else(bad)? == PT_TLS {
            elf.tls_size = u64_at(bytes, h + 0x28).ok_or_else(bad)?;
        }
    }
    for s in &sections {
        match s.kind {
            SHT_DYNSYM | SHT_SYMTAB => {
                let names = strtab(s)?;
                let syms = bytes.get(s.offset..s.offset + s.size).ok_or_else(bad)?;
                for sym in syms.chunks_exact(24) {
                    let info = sym[4];
                    let shndx = u16_at(sym, 6).ok_or_else(bad)?;
                    if info & 0xf != STT_FUNC || shndx == SHN_UNDEF {
                        continue;
                    }
                    let name =
                        cstr(names, u32_at(sym, 0).ok_or_else(bad)? as usize).ok_or_else(bad)?;
                    if s.kind == SHT_DYNSYM {
                        elf.exported.insert(name);
                    } else {
                        elf.local.insert(name);
                    }
                }
            }
            SHT_DYNAMIC => {
                let names = strtab(s)?;
                let dyns = bytes.get(s.offset..s.offset + s.size).ok_or_else(bad)?;
                for d in dyns.chunks_exact(16) {
                    let tag = u64_at(d, 0).ok_or_else(bad)?;
                    let val = u64_at(d, 8).ok_or_else(bad)? as usize;
                    match tag {
                        0 => break,
                        DT_NEEDED => elf.needed.push(cstr(names, val).ok_or_else(bad)?),
                        DT_RPATH => elf.rpath = Some(cstr(names, val).ok_or_else(bad)?),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    Ok(elf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_what_is_not_elf64_le() {
        assert_eq!(parse(b"#!/bin/sh\n").unwrap_err(), "not an ELF file");
        let mut h = vec![0u8; 64];
        h[..4].copy_from_slice(b"\x7fELF");
        h[4] = 1;
        h[5] = 1;
        assert_eq!(
            parse(&h).unwrap_err(),
            "not a 64-bit little-endian ELF file"
        );
        h[4] = 2;
        h[0x28] = 0xff;
        h[0x3a] = 64;
        h[0x3c] = 1;
        assert_eq!(parse(&h).unwrap_err(), "a truncated or malformed ELF file");
    }

    #[test]
    fn reads_its_own_test_binary() {
        let me = std::fs::read("/proc/self/exe").expect("reading the test binary");
        let elf = parse(&me).expect("the test binary is ELF64");
        assert!(elf.needed.iter().any(|n| n.starts_with("libc.so")));
        assert!(
            !elf.local.is_empty(),
            "an unstripped test binary has a symbol table"
        );
    }
}
