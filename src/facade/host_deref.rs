//! Host code that dereferences a device pointer. On hardware a `cudaMalloc` pointer is not a host address and
//! the load or store is a segmentation fault; streamsim's device addresses (`DEVICE_ADDRESS_BASE` on) are not
//! canonical x86-64 addresses, so the same access raises SIGSEGV here too — but the fault alone says nothing of
//! which pointer it was. The default machines install this handler: on a SIGSEGV it decodes the faulting
//! instruction's memory operand (a general-protection fault on a non-canonical address reports no address in
//! `si_addr`), and when that address is device memory it prints which allocation it is in (or which freed
//! one), then lets the fault take its course (the disposition found at installation, by default the crash).
//! Any other SIGSEGV is not ours and goes to that disposition unchanged.
//!
//! The decoder reads the instruction at the faulting `rip`: legacy and REX prefixes, VEX, the one-byte,
//! `0F`, `0F 38` and `0F 3A` opcode maps, ModRM, SIB and displacement, and the string instructions (`movs`,
//! `stos`, `lods`, `cmps`, `scas`), which address through `rsi` / `rdi`. An instruction it does not know
//! (EVEX among them) falls back to the registers: the first one holding a device address names the pointer.
//! The semantics: `docs/semantics/sanitizer.md` ("memcheck").

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
mod imp {
    use std::io::Write as _;
    use std::sync::OnceLock;

    use crate::engine::core::pointers::device_of;
    use crate::facade::binding::{Api, built_defaults};

    /// What the faulting instruction did with the memory operand.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub(super) enum Kind {
        Read,
        Write,
        /// Read and written (arithmetic on memory, exchanges, read-modify-write).
        Update,
        /// Decoded from the registers, not the instruction.
        Unknown,
    }

    static PREVIOUS: OnceLock<crate::engine::core::signals::Previous> = OnceLock::new();
    static INSTALLED: OnceLock<bool> = OnceLock::new();

    pub(super) fn install() {
        INSTALLED.get_or_init(|| {
            crate::engine::core::signals::install(libc::SIGSEGV, on_sigsegv, &PREVIOUS)
        });
    }

    /// The general registers of x86-64 in encoding order (rax, rcx, rdx, rbx, rsp, rbp, rsi, rdi, r8–r15) as
    /// indices of `mcontext_t::gregs`.
    const GREGS: [libc::c_int; 16] = [
        libc::REG_RAX,
        libc::REG_RCX,
        libc::REG_RDX,
        libc::REG_RBX,
        libc::REG_RSP,
        libc::REG_RBP,
        libc::REG_RSI,
        libc::REG_RDI,
        libc::REG_R8,
        libc::REG_R9,
        libc::REG_R10,
        libc::REG_R11,
        libc::REG_R12,
        libc::REG_R13,
        libc::REG_R14,
        libc::REG_R15,
    ];

    /// The memory operand of the instruction at `code` given the 16 general registers `regs` (encoding order):
    /// its address and what the instruction does with it, or `None` when the instruction is not one the decoder
    /// knows (or has no memory operand). `code` yields the instruction's bytes in order.
    pub(super) fn decode(code: &[u8], regs: &[u64; 16]) -> Option<(u64, Kind)> {
        let at = |i: usize| code.get(i).copied();
        let mut i = 0;
        let mut p66 = false;
        let mut rep = 0u8;
        let mut addr32 = false;
        loop {
            match at(i)? {
                0x66 => p66 = true,
                0x67 => addr32 = true,
                b @ (0xF2 | 0xF3) => rep = b,
                0x26 | 0x2E | 0x36 | 0x3E | 0xF0 => {}
                // fs / gs: thread-local storage, never a device address.
                0x64 | 0x65 => return None,
                _ => break,
            }
            i += 1;
        }
        let (mut x, mut b) = (0u8, 0u8);
        let mut pp = match (p66, rep) {
            (_, 0xF3) => 2,
            (_, 0xF2) => 3,
            (true, _) => 1,
            _ => 0,
        };
        let map;
        let op;
        let first = at(i)?;
        if first & 0xF0 == 0x40 {
            x = (first >> 1) & 1;
            b = first & 1;
            i += 1;
        }
        match at(i)? {
            0xC5 => {
                let v = at(i + 1)?;
                pp = v & 3;
                map = 1;
                op = at(i + 2)?;
                i += 3;
            }
            0xC4 => {
                let v1 = at(i + 1)?;
                let v2 = at(i + 2)?;
                x = !(v1 >> 6) & 1;
                b = !(v1 >> 5) & 1;
                map = v1 & 0x1F;
                pp = v2 & 3;
                op = at(i + 3)?;
                i += 4;
            }
            // EVEX (compressed displacements): left to the registers.
            0x62 => return None,
            0x0F => match at(i + 1)? {
                0x38 => {
                    map = 2;
                    op = at(i + 2)?;
                    i += 3;
                }
                0x3A => {
                    map = 3;
                    op = at(i + 2)?;
                    i += 3;
                }
                o => {
                    map = 1;
                    op = o;
                    i += 2;
                }
            },
            o => {
                map = 0;
                op = o;
                i += 1;
            }
        }
        if map == 0 {
            // The string instructions address through rsi (source) and rdi (destination).
            let (rsi, rdi) = (regs[6], regs[7]);
            match op {
                0xA4 | 0xA5 => {
                    return if device_of(rsi).is_some() {
                        Some((rsi, Kind::Read))
                    } else {
                        Some((rdi, Kind::Write))
                    };
                }
                0xAA | 0xAB => return Some((rdi, Kind::Write)),
                0xAC | 0xAD => return Some((rsi, Kind::Read)),
                0xA6 | 0xA7 => {
                    let a = if device_of(rsi).is_some() { rsi } else { rdi };
                    return Some((a, Kind::Read));
                }
                0xAE | 0xAF => return Some((rdi, Kind::Read)),
                _ => {}
            }
        }
        let kind = kind_of(map, op, pp)?;
        let modrm = at(i)?;
        i += 1;
        let md = modrm >> 6;
        let reg = (modrm >> 3) & 7;
        let rm = modrm & 7;
        if md == 3 {
            return None;
        }
        let mut addr: u64;
        let mut disp32 = md == 2;
        if rm == 4 {
            let sib = at(i)?;
            i += 1;
            let scale = sib >> 6;
            let index = ((sib >> 3) & 7) | (x << 3);
            let base = sib & 7;
            addr = if base == 5 && md == 0 {
                disp32 = true;
                0
            } else {
                regs[usize::from(base | (b << 3))]
            };
            if index != 4 {
                addr = addr.wrapping_add(regs[usize::from(index)] << scale);
            }
        } else if rm == 5 && md == 0 {
            // rip-relative: the program's own data.
            return None;
        } else {
            addr = regs[usize::from(rm | (b << 3))];
        }
        if md == 1 {
            addr = addr.wrapping_add(i64::from(at(i)? as i8) as u64);
        } else if disp32 {
            let d = i32::from_le_bytes([at(i)?, at(i + 1)?, at(i + 2)?, at(i + 3)?]);
            addr = addr.wrapping_add(i64::from(d) as u64);
        }
        if addr32 {
            addr &= 0xFFFF_FFFF;
        }
        // Group opcodes say in ModRM's reg field whether they only read.
        let kind = match (map, op, reg) {
            (0, 0x80..=0x83, 7) => Kind::Read,
            (0, 0xF6 | 0xF7, 0 | 1 | 4..=7) => Kind::Read,
            (0, 0xFE | 0xFF, 2..=6) => Kind::Read,
            _ => kind,
        };
        Some((addr, kind))
    }

    /// What opcode `op` of map `map` (0: one byte, 1: `0F`, 2: `0F 38`, 3: `0F 3A`) with mandatory prefix `pp`
    /// (0 none, 1 `66`, 2 `F3`, 3 `F2`) does with its ModRM memory operand; `None` for one-byte opcodes that
    /// have no ModRM memory operand or that the decoder does not know.
    fn kind_of(map: u8, op: u8, pp: u8) -> Option<Kind> {
        Some(match map {
            0 => match op {
                0x88 | 0x89 | 0xC6 | 0xC7 | 0x8F => Kind::Write,
                0x8A | 0x8B | 0x63 | 0x84 | 0x85 | 0x69 | 0x6B => Kind::Read,
                // cmp r/m, r and cmp r, r/m only read.
                0x38..=0x3B => Kind::Read,
                // The arithmetic `op r, r/m` forms read; `op r/m, r` update.
                0x00..=0x33 if op & 7 <= 3 => {
                    if op & 2 != 0 {
                        Kind::Read
                    } else {
                        Kind::Update
                    }
                }
                0x80..=0x83
                | 0x86
                | 0x87
                | 0xC0
                | 0xC1
                | 0xD0..=0xD3
                | 0xF6
                | 0xF7
                | 0xFE
                | 0xFF => Kind::Update,
                0xD8..=0xDF => Kind::Unknown,
                _ => return None,
            },
            1 => match op {
                0x11 | 0x13 | 0x17 | 0x29 | 0x2B | 0x7F | 0xD6 | 0xE7 | 0xC3 | 0x90..=0x9F => {
                    Kind::Write
                }
                0x7E if pp == 1 || pp == 0 => Kind::Write,
                0xB0 | 0xB1 | 0xC0 | 0xC1 | 0xAB | 0xB3 | 0xBB => Kind::Update,
                _ => Kind::Read,
            },
            3 => match op {
                0x14..=0x17 | 0x1D => Kind::Write,
                _ => Kind::Read,
            },
            _ => Kind::Read,
        })
    }

    /// The sentence for host code's access of kind `kind` at device address `addr` (the allocation it is in,
    /// or which freed one), with the dialect's copy call.
    pub(super) fn sentence(addr: u64, kind: Kind) -> String {
        let verb = match kind {
            Kind::Read => "read",
            Kind::Write => "wrote",
            Kind::Update => "read and wrote",
            Kind::Unknown => "accessed",
        };
        let defaults = built_defaults();
        let api = defaults.first().map_or(Api::Cuda, |(api, _)| *api);
        let (copy, managed) = match api {
            Api::Cuda => ("cudaMemcpy", " or allocate it with cudaMallocManaged"),
            Api::Musa => ("musaMemcpy", " or allocate it with musaMallocManaged"),
            Api::Acl => ("aclrtMemcpy", ""),
        };
        let mut what = None;
        for (_, d) in &defaults {
            let memory = &d.process.machine().shared.memory;
            if let Some(block) = memory.block_at(addr) {
                let site = block.site.map_or(String::new(), |s| format!(", {s}"));
                what = Some(format!(
                    "offset {} of allocation #{} ({} bytes at {:#x} on device {}{site})",
                    addr - block.base,
                    block.ordinal,
                    block.len,
                    block.base,
                    device_of(block.base).unwrap_or(0)
                ));
                break;
            }
        }
        let what = what.unwrap_or_else(|| match defaults.first() {
            Some((_, d)) => {
                d.process
                    .machine()
                    .shared
                    .memory
                    .describe_bad_access(addr, 1, d.process.id())
            }
            None => format!("device {}'s address range", device_of(addr).unwrap_or(0)),
        });
        format!(
            "host code {verb} device memory at {addr:#x}: {what}. A device pointer is not a host address (on a \
             GPU this access is a segmentation fault too): copy the bytes with {copy}{managed}"
        )
    }

    extern "C" fn on_sigsegv(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
        // A non-canonical address is a general-protection fault, which the kernel reports as SI_KERNEL; a
        // page fault (a real address, a stack overflow's guard page) is never a device address.
        // SAFETY: the kernel passes a valid siginfo for a SA_SIGINFO handler.
        let general_protection = !info.is_null() && unsafe { (*info).si_code } == libc::SI_KERNEL;
        if general_protection && !ctx.is_null() {
            // SAFETY: the kernel passes a valid ucontext for a SA_SIGINFO handler.
            let uc = unsafe { &*(ctx as *const libc::ucontext_t) };
            let g = &uc.uc_mcontext.gregs;
            let regs: [u64; 16] = std::array::from_fn(|k| g[GREGS[k] as usize] as u64);
            let rip = g[libc::REG_RIP as usize] as usize as *const u8;
            // SAFETY: the faulting instruction is mapped executable code; an instruction is at most 15 bytes,
            // read as far as the page it starts in allows (the rest, if any, is the next page of the same code).
            let code = unsafe {
                let room = 4096 - (rip as usize & 4095);
                std::slice::from_raw_parts(rip, room.min(15))
            };
            // A decoded operand is the answer (a host address there means the fault is not ours); only an
            // instruction the decoder does not know is looked for in the registers.
            let found = match decode(code, &regs) {
                Some((a, kind)) => Some((a, kind)).filter(|&(a, _)| device_of(a).is_some()),
                None => regs
                    .iter()
                    .find(|&&v| device_of(v).is_some())
                    .map(|&v| (v, Kind::Unknown)),
            };
            if let Some((addr, kind)) = found {
                // The process is about to die of this fault: what the handler allocates or locks matters
                // less than saying why.
                let line = format!("streamsim: {}\n", sentence(addr, kind));
                let _ = std::io::stderr().write_all(line.as_bytes());
            }
        }
        crate::engine::core::signals::pass_on(&PREVIOUS, sig, info, ctx);
    }
}

/// Installs the handler (once; the default machines call it when they are built).
pub(crate) fn install() {
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    imp::install();
}

#[cfg(all(test, target_os = "linux", target_arch = "x86_64"))]
mod tests {
    use super::imp::{Kind, decode};

    const DEV: u64 = 0x00D0_0000_0000_0000;

    fn regs(set: &[(usize, u64)]) -> [u64; 16] {
        let mut r = [0u64; 16];
        for &(i, v) in set {
            r[i] = v;
        }
        r
    }

    #[test]
    fn a_plain_load_and_store_through_a_base_register() {
        // mov eax, [rdi+0x10]
        assert_eq!(
            decode(&[0x8B, 0x47, 0x10], &regs(&[(7, DEV)])),
            Some((DEV + 0x10, Kind::Read))
        );
        // mov dword [rax], 2 (C7 00 imm32)
        assert_eq!(
            decode(&[0xC7, 0x00, 2, 0, 0, 0], &regs(&[(0, DEV + 8)])),
            Some((DEV + 8, Kind::Write))
        );
        // mov [r12+rcx*4+0x100], r9d (REX.WRB... 45 89 8C 8C 00 01 00 00)
        assert_eq!(
            decode(
                &[0x45, 0x89, 0x8C, 0x8C, 0x00, 0x01, 0x00, 0x00],
                &regs(&[(12, DEV), (1, 3)])
            ),
            Some((DEV + 12 + 0x100, Kind::Write))
        );
    }

    #[test]
    fn sse_and_vex_moves_and_string_copies() {
        // movss xmm0, [rsi+4] (F3 0F 10 46 04)
        assert_eq!(
            decode(&[0xF3, 0x0F, 0x10, 0x46, 0x04], &regs(&[(6, DEV)])),
            Some((DEV + 4, Kind::Read))
        );
        // vmovups [rdx-0x20], ymm1 (C5 FC 11 4A E0)
        assert_eq!(
            decode(&[0xC5, 0xFC, 0x11, 0x4A, 0xE0], &regs(&[(2, DEV + 0x40)])),
            Some((DEV + 0x20, Kind::Write))
        );
        // rep movsb with the source on the device
        assert_eq!(
            decode(&[0xF3, 0xA4], &regs(&[(6, DEV + 1), (7, 0x1000)])),
            Some((DEV + 1, Kind::Read))
        );
        // cmp dword [rbx], 0 (83 3B 00): a read; add [rbx], eax (01 03): an update
        assert_eq!(
            decode(&[0x83, 0x3B, 0x00], &regs(&[(3, DEV)])),
            Some((DEV, Kind::Read))
        );
        assert_eq!(
            decode(&[0x01, 0x03], &regs(&[(3, DEV)])),
            Some((DEV, Kind::Update))
        );
    }

    #[test]
    fn operands_that_are_not_memory_or_not_known_decode_to_nothing() {
        // mov eax, ecx (8B C1): no memory operand
        assert_eq!(decode(&[0x8B, 0xC1], &regs(&[])), None);
        // mov eax, [rip+0x10]: the program's data
        assert_eq!(decode(&[0x8B, 0x05, 0x10, 0, 0, 0], &regs(&[])), None);
        // mov eax, fs:[0]: thread-local storage
        assert_eq!(
            decode(&[0x64, 0x8B, 0x04, 0x25, 0, 0, 0, 0], &regs(&[])),
            None
        );
        // an EVEX instruction
        assert_eq!(
            decode(&[0x62, 0xF1, 0x7C, 0x48, 0x10, 0x06], &regs(&[])),
            None
        );
        // cut short
        assert_eq!(decode(&[0x8B], &regs(&[])), None);
    }
}
