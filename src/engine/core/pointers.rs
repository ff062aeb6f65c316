//! The addresses the simulator hands out and takes: [`DevicePtr`], [`HostPtr`], the [`AddressSpace`] an address
//! is in, and the endpoints of a copy ([`Src`], [`Dst`]).

/// Where device `0`'s addresses start.
pub const DEVICE_ADDRESS_BASE: u64 = 0x00D0_0000_0000_0000;
pub(crate) const DEVICE_SPAN_SHIFT: u32 = 40;

/// Device `device`'s address range: `[start, end)`.
pub(crate) fn device_span(device: u32) -> (u64, u64) {
    let start = DEVICE_ADDRESS_BASE + (u64::from(device) << DEVICE_SPAN_SHIFT);
    (start, start + (1 << DEVICE_SPAN_SHIFT))
}

pub(crate) fn device_of(addr: u64) -> Option<u32> {
    if addr < DEVICE_ADDRESS_BASE {
        return None;
    }
    let d = (addr - DEVICE_ADDRESS_BASE) >> DEVICE_SPAN_SHIFT;
    u32::try_from(d)
        .ok()
        .filter(|&d| d < crate::engine::core::limits::MAX_DEVICES)
}

/// A device address (what `cudaMalloc` returns). `Copy`; offset it with [`DevicePtr::offset`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DevicePtr(pub u64);

impl DevicePtr {
    /// The address `bytes` further on.
    #[must_use]
    pub fn offset(self, bytes: u64) -> DevicePtr {
        DevicePtr(self.0.wrapping_add(bytes))
    }

    /// The raw address.
    pub fn addr(self) -> u64 {
        self.0
    }

    /// The device whose address range holds this address, if any (it may still be unallocated).
    pub fn device(self) -> Option<u32> {
        device_of(self.0)
    }
}

impl std::fmt::Display for DevicePtr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:#x}", self.0)
    }
}

/// A pinned host buffer's address (what `cudaMallocHost` returns): real host memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HostPtr(pub u64);

impl HostPtr {
    /// The address `bytes` further on.
    #[must_use]
    pub fn offset(self, bytes: u64) -> HostPtr {
        HostPtr(self.0.wrapping_add(bytes))
    }

    /// The raw address.
    pub fn addr(self) -> u64 {
        self.0
    }

    /// The address as a raw pointer (for C callers; reading or writing through it races with copies in
    /// flight exactly as on hardware).
    pub fn as_mut_ptr(self) -> *mut u8 {
        self.0 as usize as *mut u8
    }
}

/// Which address space an address was looked up in (for error messages).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AddressSpace {
    /// Device memory of this device.
    Device(u32),
    /// Pinned host memory.
    PinnedHost,
    /// Ordinary (pageable) host memory.
    PageableHost,
}

impl std::fmt::Display for AddressSpace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AddressSpace::Device(d) => write!(f, "device {d} memory"),
            AddressSpace::PinnedHost => f.write_str("pinned host memory"),
            AddressSpace::PageableHost => f.write_str("pageable host memory"),
        }
    }
}

/// A copy's source.
#[derive(Debug, Clone, Copy)]
pub enum Src<'a> {
    /// Device memory.
    Device(DevicePtr),
    /// Pinned host memory, read when the copy runs.
    Pinned(HostPtr),
    /// Pageable host memory, staged (copied) at the call.
    Host(&'a [u8]),
}

/// A copy's destination.
#[derive(Debug)]
pub enum Dst<'a> {
    /// Device memory.
    Device(DevicePtr),
    /// Pinned host memory, written when the copy runs.
    Pinned(HostPtr),
    /// Pageable host memory: the call returns once the data is there.
    Host(&'a mut [u8]),
}

impl From<DevicePtr> for Src<'_> {
    fn from(p: DevicePtr) -> Self {
        Src::Device(p)
    }
}
impl From<HostPtr> for Src<'_> {
    fn from(p: HostPtr) -> Self {
        Src::Pinned(p)
    }
}
impl<'a> From<&'a [u8]> for Src<'a> {
    fn from(s: &'a [u8]) -> Self {
        Src::Host(s)
    }
}
impl<'a, const N: usize> From<&'a [u8; N]> for Src<'a> {
    fn from(s: &'a [u8; N]) -> Self {
        Src::Host(s)
    }
}
impl<'a> From<&'a Vec<u8>> for Src<'a> {
    fn from(s: &'a Vec<u8>) -> Self {
        Src::Host(s)
    }
}
impl From<DevicePtr> for Dst<'_> {
    fn from(p: DevicePtr) -> Self {
        Dst::Device(p)
    }
}
impl From<HostPtr> for Dst<'_> {
    fn from(p: HostPtr) -> Self {
        Dst::Pinned(p)
    }
}
impl<'a> From<&'a mut [u8]> for Dst<'a> {
    fn from(s: &'a mut [u8]) -> Self {
        Dst::Host(s)
    }
}
impl<'a, const N: usize> From<&'a mut [u8; N]> for Dst<'a> {
    fn from(s: &'a mut [u8; N]) -> Self {
        Dst::Host(s)
    }
}
impl<'a> From<&'a mut Vec<u8>> for Dst<'a> {
    fn from(s: &'a mut Vec<u8>) -> Self {
        Dst::Host(s)
    }
}
