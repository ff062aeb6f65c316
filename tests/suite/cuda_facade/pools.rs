//! Stream-ordered allocation and memory pools through the CUDA and MUSA facades, with the exact codes. Rows:
//! `docs/semantics/stream-ordered-memory.md`.

use super::*;

const SIZE: usize = 4096;

fn props(device: c_int) -> cudaMemPoolProps {
    cudaMemPoolProps {
        allocType: cudaMemAllocationTypePinned,
        handleTypes: cudaMemHandleTypeNone,
        location: cudaMemLocation {
            r#type: cudaMemLocationTypeDevice,
            id: device,
        },
        win32SecurityAttributes: null_mut(),
        maxSize: 0,
        usage: 0,
        reserved: [0; 54],
    }
}

fn create_pool(device: c_int) -> cudaMemPool_t {
    let mut pool = null_mut();
    check!(cudaSuccess, cudaMemPoolCreate(&mut pool, &props(device)));
    pool
}

fn get_u64(pool: cudaMemPool_t, attr: c_int) -> u64 {
    let mut v = 0u64;
    check!(
        cudaSuccess,
        cudaMemPoolGetAttribute(pool, attr, (&raw mut v).cast())
    );
    v
}

/// stream-ordered-memory.md · cudaMallocAsync / cudaFreeAsync · NULL devPtr, size 0, a size that cannot be held,
/// a destroyed stream; NULL, twice-freed, host and interior pointers.
#[test]
fn malloc_async_and_free_async_codes() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let s = stream(cudaStreamNonBlocking);
    let mut d = null_mut();
    check!(cudaErrorInvalidValue, cudaMallocAsync(null_mut(), SIZE, s));
    check!(cudaErrorInvalidValue, cudaMallocAsync(&mut d, 0, s));
    check!(
        cudaErrorMemoryAllocation,
        cudaMallocAsync(&mut d, usize::MAX, s)
    );
    check!(
        cudaErrorMemoryAllocation,
        cudaMallocAsync(&mut d, 48 << 30, s)
    );
    let dead = stream(0);
    check!(cudaSuccess, cudaStreamDestroy(dead));
    check!(
        cudaErrorInvalidResourceHandle,
        cudaMallocAsync(&mut d, SIZE, dead)
    );
    check!(cudaSuccess, cudaMallocAsync(&mut d, SIZE, s));
    assert!(!d.is_null());
    check!(cudaErrorInvalidValue, cudaFreeAsync(null_mut(), s));
    check!(
        cudaErrorInvalidValue,
        cudaFreeAsync(d.cast::<u8>().wrapping_add(256).cast(), s)
    );
    let mut host = [0u8; 16];
    check!(
        cudaErrorInvalidValue,
        cudaFreeAsync(host.as_mut_ptr().cast(), s)
    );
    check!(cudaErrorInvalidResourceHandle, cudaFreeAsync(d, dead));
    check!(cudaSuccess, cudaFreeAsync(d, s));
    check!(cudaErrorInvalidValue, cudaFreeAsync(d, s));
    check!(cudaErrorInvalidValue, cudaFree(d));
    // Memory from cudaMalloc can be freed stream-ordered.
    let plain = dmalloc(SIZE);
    check!(cudaSuccess, cudaFreeAsync(plain, s));
    check!(cudaSuccess, cudaStreamSynchronize(s));
    // cudaFree of pool memory.
    check!(cudaSuccess, cudaMallocAsync(&mut d, SIZE, s));
    check!(cudaSuccess, cudaStreamSynchronize(s));
    check!(cudaSuccess, cudaFree(d));
    check!(cudaErrorInvalidValue, cudaFree(d));
}

/// stream-ordered-memory.md · cudaMemPoolCreate · NULL pointers; allocation type, location type and id; IPC
/// handle types and managed pools (not simulated: 801); reserved bytes.
#[test]
fn mem_pool_create_codes() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    let mut pool = null_mut();
    check!(
        cudaErrorInvalidValue,
        cudaMemPoolCreate(null_mut(), &props(0))
    );
    check!(cudaErrorInvalidValue, cudaMemPoolCreate(&mut pool, null()));
    let mut pr = props(0);
    pr.allocType = cudaMemAllocationTypeInvalid;
    check!(cudaErrorInvalidValue, cudaMemPoolCreate(&mut pool, &pr));
    pr.allocType = cudaMemAllocationTypeManaged;
    check!(cudaErrorNotSupported, cudaMemPoolCreate(&mut pool, &pr));
    let mut pr = props(0);
    pr.location.r#type = cudaMemLocationTypeInvalid;
    check!(cudaErrorInvalidValue, cudaMemPoolCreate(&mut pool, &pr));
    check!(
        cudaErrorInvalidValue,
        cudaMemPoolCreate(&mut pool, &props(2))
    );
    check!(
        cudaErrorInvalidValue,
        cudaMemPoolCreate(&mut pool, &props(-1))
    );
    let mut pr = props(0);
    pr.handleTypes = cudaMemHandleTypePosixFileDescriptor;
    check!(cudaErrorNotSupported, cudaMemPoolCreate(&mut pool, &pr));
    let mut pr = props(0);
    pr.reserved[53] = 1;
    check!(cudaErrorInvalidValue, cudaMemPoolCreate(&mut pool, &pr));
    assert!(pool.is_null(), "no failing call wrote the handle");
    let pool = create_pool(1);
    check!(cudaSuccess, cudaMemPoolDestroy(pool));
}

/// stream-ordered-memory.md · pools · destroy twice, NULL, a default pool; default and current pools per device,
/// out-of-range devices (GetDefaultMemPool: 101; Set/GetMemPool: 1, as hip-tests has them), a pool of
/// another device.
#[test]
fn pool_handles_and_devices() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    let mut def0 = null_mut();
    let mut got = null_mut();
    check!(
        cudaErrorInvalidValue,
        cudaDeviceGetDefaultMemPool(null_mut(), 0)
    );
    check!(
        cudaErrorInvalidDevice,
        cudaDeviceGetDefaultMemPool(&mut got, -1)
    );
    check!(
        cudaErrorInvalidDevice,
        cudaDeviceGetDefaultMemPool(&mut got, 2)
    );
    check!(cudaSuccess, cudaDeviceGetDefaultMemPool(&mut def0, 0));
    check!(cudaSuccess, cudaDeviceGetMemPool(&mut got, 0));
    assert_eq!(got, def0);
    check!(cudaErrorInvalidValue, cudaMemPoolDestroy(def0));
    check!(cudaErrorInvalidValue, cudaMemPoolDestroy(null_mut()));
    let pool0 = create_pool(0);
    let pool1 = create_pool(1);
    check!(cudaErrorInvalidValue, cudaDeviceSetMemPool(0, null_mut()));
    check!(cudaErrorInvalidValue, cudaDeviceSetMemPool(-1, pool0));
    check!(cudaErrorInvalidValue, cudaDeviceSetMemPool(2, pool0));
    check!(cudaErrorInvalidValue, cudaDeviceSetMemPool(0, pool1));
    check!(cudaErrorInvalidValue, cudaDeviceGetMemPool(null_mut(), 0));
    check!(cudaErrorInvalidValue, cudaDeviceGetMemPool(&mut got, -1));
    check!(cudaSuccess, cudaDeviceSetMemPool(0, pool0));
    check!(cudaSuccess, cudaDeviceGetMemPool(&mut got, 0));
    assert_eq!(got, pool0);
    // cudaMallocAsync takes the current pool of the stream's device.
    let s = stream(0);
    let mut d = null_mut();
    check!(cudaSuccess, cudaMallocAsync(&mut d, SIZE, s));
    assert_eq!(get_u64(pool0, cudaMemPoolAttrUsedMemCurrent), SIZE as u64);
    assert_eq!(get_u64(def0, cudaMemPoolAttrUsedMemCurrent), 0);
    check!(cudaSuccess, cudaMemPoolDestroy(pool0));
    check!(cudaErrorInvalidValue, cudaMemPoolDestroy(pool0));
    check!(cudaSuccess, cudaDeviceGetMemPool(&mut got, 0));
    assert_eq!(
        got, def0,
        "destroying the current pool makes the default one current"
    );
    let mut e = null_mut();
    check!(
        cudaErrorInvalidValue,
        cudaMallocFromPoolAsync(&mut e, SIZE, null_mut(), s)
    );
    check!(
        cudaErrorInvalidValue,
        cudaMallocFromPoolAsync(&mut e, SIZE, pool0, s)
    );
    check!(
        cudaErrorInvalidValue,
        cudaMallocFromPoolAsync(null_mut(), SIZE, pool1, s)
    );
    // A pool of another device than the stream's (the Runtime API: "may be from a device different than that
    // of the specified hStream").
    check!(cudaSuccess, cudaMallocFromPoolAsync(&mut e, SIZE, pool1, s));
    check!(cudaSuccess, cudaFreeAsync(e, s));
    check!(cudaSuccess, cudaFreeAsync(d, s));
    check!(cudaSuccess, cudaDeviceSynchronize());
}

/// stream-ordered-memory.md · cudaMemPoolSetAttribute / GetAttribute · NULL pool, unknown attribute, NULL value,
/// the read-only counters, a watermark set to non-zero; the policies are read and written as `int` (the 4 bytes
/// after them are left alone), the others as `cuuint64_t`; cudaMemPoolTrimTo of NULL.
#[test]
fn attribute_codes_and_value_types() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let pool = create_pool(0);
    let mut v = [0x77u8; 8];
    let mut x = 0u64;
    check!(
        cudaErrorInvalidValue,
        cudaMemPoolGetAttribute(null_mut(), cudaMemPoolAttrUsedMemHigh, (&raw mut x).cast())
    );
    check!(
        cudaErrorInvalidValue,
        cudaMemPoolGetAttribute(pool, 9, (&raw mut x).cast())
    );
    check!(
        cudaErrorInvalidValue,
        cudaMemPoolGetAttribute(pool, 0, (&raw mut x).cast())
    );
    check!(
        cudaErrorInvalidValue,
        cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, null_mut())
    );
    check!(
        cudaSuccess,
        cudaMemPoolGetAttribute(
            pool,
            cudaMemPoolReuseAllowOpportunistic,
            v.as_mut_ptr().cast()
        )
    );
    assert_eq!(v, [1, 0, 0, 0, 0x77, 0x77, 0x77, 0x77]);
    let zero: c_int = 0;
    check!(
        cudaErrorInvalidValue,
        cudaMemPoolSetAttribute(
            null_mut(),
            cudaMemPoolReuseAllowOpportunistic,
            (&raw const zero).cast_mut().cast()
        )
    );
    check!(
        cudaErrorInvalidValue,
        cudaMemPoolSetAttribute(pool, 9, (&raw const zero).cast_mut().cast())
    );
    check!(
        cudaErrorInvalidValue,
        cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, null_mut())
    );
    let one = 1u64;
    for attr in [
        cudaMemPoolAttrReservedMemHigh,
        cudaMemPoolAttrUsedMemHigh,
        cudaMemPoolAttrReservedMemCurrent,
        cudaMemPoolAttrUsedMemCurrent,
    ] {
        check!(
            cudaErrorInvalidValue,
            cudaMemPoolSetAttribute(pool, attr, (&raw const one).cast_mut().cast())
        );
    }
    check!(
        cudaSuccess,
        cudaMemPoolSetAttribute(
            pool,
            cudaMemPoolReuseAllowOpportunistic,
            (&raw const zero).cast_mut().cast()
        )
    );
    let mut flag: c_int = 9;
    check!(
        cudaSuccess,
        cudaMemPoolGetAttribute(
            pool,
            cudaMemPoolReuseAllowOpportunistic,
            (&raw mut flag).cast()
        )
    );
    assert_eq!(flag, 0);
    let max = u64::MAX;
    check!(
        cudaSuccess,
        cudaMemPoolSetAttribute(
            pool,
            cudaMemPoolAttrReleaseThreshold,
            (&raw const max).cast_mut().cast()
        )
    );
    assert_eq!(get_u64(pool, cudaMemPoolAttrReleaseThreshold), u64::MAX);
    let z = 0u64;
    check!(
        cudaSuccess,
        cudaMemPoolSetAttribute(
            pool,
            cudaMemPoolAttrUsedMemHigh,
            (&raw const z).cast_mut().cast()
        )
    );
    check!(cudaErrorInvalidValue, cudaMemPoolTrimTo(null_mut(), 0));
    check!(cudaSuccess, cudaMemPoolTrimTo(pool, 0));
}

/// stream-ordered-memory.md · MUSA · the same calls under MUSA's names give MUSA's codes (the same values).
#[test]
fn musa_twins() {
    use streamsim::musa::*;
    let (_m, p) = machine(1);
    let _g = p.bind();
    let mut s = null_mut();
    check!(musaSuccess, musaStreamCreate(&mut s));
    let mut pool = null_mut();
    check!(musaSuccess, musaDeviceGetDefaultMemPool(&mut pool, 0));
    let mut d = null_mut();
    check!(musaErrorInvalidValue, musaMallocAsync(&mut d, 0, s));
    check!(musaSuccess, musaMallocAsync(&mut d, SIZE, s));
    check!(musaSuccess, musaFreeAsync(d, s));
    check!(musaErrorInvalidValue, musaFreeAsync(d, s));
    let mut e = null_mut();
    check!(musaSuccess, musaMallocFromPoolAsync(&mut e, SIZE, pool, s));
    assert_eq!(e, d, "the same stream reuses the block at once");
    let mut used = 0u64;
    check!(
        musaSuccess,
        musaMemPoolGetAttribute(pool, musaMemPoolAttrUsedMemCurrent, (&raw mut used).cast())
    );
    assert_eq!(used, SIZE as u64);
    check!(musaSuccess, musaFreeAsync(e, s));
    check!(musaSuccess, musaStreamSynchronize(s));
    check!(musaSuccess, musaMemPoolTrimTo(pool, 0));
    check!(musaErrorInvalidValue, musaMemPoolDestroy(pool));
}
