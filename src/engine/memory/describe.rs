//! memcheck's words for a kernel access that no live allocation holds (`streamsim cc`): where the address is
//! relative to the allocations of its device — after the end of one, before the start of one, inside one that
//! was freed, inside a memory pool's range with no allocation there — in the manner of compute-sanitizer's
//! "is N bytes after the nearest allocation at … of size …" (`docs/semantics/sanitizer.md`).

use super::{Memory, find};
use crate::engine::core::handle::ProcessId;
use crate::engine::core::pointers::device_of;

impl Memory {
    /// Why the access of `size` bytes at `addr` by a kernel of `owner` reaches no live allocation whole, and
    /// the allocation nearest to it.
    pub(crate) fn describe_bad_access(&self, addr: u64, size: u64, owner: ProcessId) -> String {
        let Some(device) = self.heap_of(addr) else {
            return match device_of(addr) {
                Some(d) => format!("in the range of device {d}, which the machine does not have"),
                None if addr < 65536 => "a NULL pointer (or near one)".to_string(),
                None => "not device memory (and not a host address a kernel can reach)".to_string(),
            };
        };
        let heap = self.heaps[device as usize].lock();
        let name = |b: &super::Block| b.name();
        if let Some(b) = find(&heap.live, addr) {
            if b.owner != owner {
                return format!("inside {} of another process", name(b));
            }
            let end = b.base + b.len;
            return format!(
                "at offset {} of {}: the access runs {} bytes past its end",
                addr - b.base,
                name(b),
                (addr + size).saturating_sub(end)
            );
        }
        if let Some((&a, f)) = heap
            .freed
            .range(..=addr)
            .next_back()
            .filter(|&(&a, f)| addr < a + f.len.max(1))
        {
            let allocated = f.alloc.map_or(String::new(), |s| format!(" ({s})"));
            let freed = f.free.map_or(String::new(), |s| format!(" ({s})"));
            return format!(
                "inside the {}-byte allocation at {a:#x}{allocated}, at offset {}, which was {}{freed}",
                f.len,
                addr - a,
                f.how
            );
        }
        if let Some((&a, &(l, _))) = heap
            .reserved
            .range(..=addr)
            .next_back()
            .filter(|&(&a, &(l, _))| addr < a + l)
        {
            if heap.graph_addresses.contains_key(&a) {
                return format!(
                    "inside the {l}-byte range of the graph allocation at {a:#x}, at offset {}, which is not live \
                     (no launch of its graph has allocated it since it was last freed)",
                    addr - a
                );
            }
            return format!(
                "inside the {l}-byte range of a memory pool at {a:#x}, at offset {}, where no allocation is live \
                 (freed by cudaFreeAsync, or never allocated)",
                addr - a
            );
        }
        let before = heap
            .live
            .range(..=addr)
            .next_back()
            .map(|(_, b)| b)
            .filter(|b| b.owner == owner);
        let after = heap
            .live
            .range(addr..)
            .next()
            .map(|(_, b)| b)
            .filter(|b| b.owner == owner);
        let after_end = before.map(|b| addr - (b.base + b.len));
        let before_start = after.map(|b| b.base - addr);
        match (before, after) {
            (Some(b), _) if before_start.is_none_or(|d| after_end.unwrap_or(u64::MAX) <= d) => {
                format!(
                    "{} bytes after the end of {}",
                    after_end.unwrap_or(0),
                    name(b)
                )
            }
            (_, Some(b)) => format!("{} bytes before the start of {}", b.base - addr, name(b)),
            _ => format!("in no allocation of device {device}"),
        }
    }
}

impl super::Block {
    /// How reports name the allocation: `allocation #3 (4096 bytes at 0x…)`, with the call that made it when
    /// the program's build said (`allocation #3 (4096 bytes at 0x…, cudaMalloc at line 12 of oob.cu)`).
    pub(crate) fn name(&self) -> String {
        let site = self.site.map_or(String::new(), |s| format!(", {s}"));
        format!(
            "allocation #{} ({} bytes at {:#x}{site})",
            self.ordinal, self.len, self.base
        )
    }
}
