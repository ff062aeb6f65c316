/*
 * ACL: managed ("UVM") memory (managed-memory.md · ACL): aclrtMemAllocManaged, aclrtMemManagedAdvise,
 * aclrtMemManagedPrefetchAsync, aclrtMemManagedPrefetchBatchAsync, aclrtMemManagedGetAttr(s), aclrtFree; the
 * ACL layer's checks of CANN's runtime (github.com/hicann/runtime commit 681ef7610, src/acl/aclrt_impl/memory.cpp:
 * aclrtMemAllocManagedImpl, aclrtMemManagedAdviseImpl, aclrtMemManagedPrefetchAsyncImpl,
 * aclrtMemManagedGetAttrImpl) with their codes, and the attributes the calls leave.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"

#include "check.h"

static int32_t attr(aclrtMemManagedRangeAttribute a, const void *p, size_t n) {
    int32_t v = -99;
    EXPECT(aclrtMemManagedGetAttr(a, p, n, &v, sizeof v), ACL_SUCCESS);
    return v;
}

int main(void) {
    EXPECT(aclInit(NULL), ACL_SUCCESS);
    EXPECT(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream s = NULL;
    EXPECT(aclrtCreateStream(&s), ACL_SUCCESS);

    /* The ACL layer's checks: NULL out-pointer, a flag other than ACL_RT_MEM_ATTACH_GLOBAL. */
    void *m = NULL;
    EXPECT(aclrtMemAllocManaged(NULL, 8192, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtMemAllocManaged(&m, 8192, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtMemAllocManaged(&m, 8192, ACL_RT_MEM_ATTACH_GLOBAL), ACL_SUCCESS);
    CHECK(m != NULL);
    /* The host reaches it directly. */
    memset(m, 7, 8192);
    CHECK(((unsigned char *)m)[8191] == 7);

    aclrtMemManagedLocation dev0 = {ACL_MEM_LOCATIONTYPE_DEVICE, 0};
    aclrtMemManagedLocation host = {ACL_MEM_LOCATIONTYPE_HOST, 0};
    aclrtMemManagedLocation bad = {ACL_MEM_LOCATIONTYPE_INVALID, 0};
    /* Nothing advised or prefetched yet. */
    EXPECT(attr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 8192), 0);
    EXPECT(attr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, 8192), -2);
    EXPECT(attr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, m, 8192), ACL_MEM_LOCATIONTYPE_INVALID);

    EXPECT(aclrtMemManagedAdvise(m, 8192, ACL_MEM_ADVISE_SET_READ_MOSTLY, dev0), ACL_SUCCESS);
    EXPECT(aclrtMemManagedAdvise(m, 4096, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, dev0), ACL_SUCCESS);
    EXPECT(attr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 8192), 1);
    EXPECT(attr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, 4096), 0);
    EXPECT(attr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, m, 4096), ACL_MEM_LOCATIONTYPE_DEVICE);
    EXPECT(attr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID, m, 4096), 0);
    /* Every page of the range must share it: the second page has no preferred location. */
    EXPECT(attr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, 8192), -2);
    EXPECT(aclrtMemManagedAdvise(m, 8192, ACL_MEM_ADVISE_SET_ACCESSED_BY, dev0), ACL_SUCCESS);
    int32_t by[2] = {-99, -99};
    EXPECT(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, 8192, by, sizeof by), ACL_SUCCESS);
    CHECK(by[0] == 0 && by[1] == -2);

    /* The advice and prefetch checks: NULL, size 0, reserved flags, an invalid location. */
    EXPECT(aclrtMemManagedAdvise(NULL, 8192, ACL_MEM_ADVISE_SET_READ_MOSTLY, dev0), ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtMemManagedAdvise(m, 0, ACL_MEM_ADVISE_SET_READ_MOSTLY, dev0), ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtMemManagedPrefetchAsync(m, 8192, dev0, 1, s), ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtMemManagedPrefetchAsync(NULL, 8192, dev0, 0, s), ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtMemManagedPrefetchAsync(m, 8192, bad, 0, s), ACL_ERROR_INVALID_PARAM);

    EXPECT(aclrtMemManagedPrefetchAsync(m, 8192, dev0, 0, s), ACL_SUCCESS);
    EXPECT(aclrtSynchronizeStream(s), ACL_SUCCESS);
    EXPECT(attr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, 8192), 0);
    EXPECT(attr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, m, 8192), ACL_MEM_LOCATIONTYPE_DEVICE);

    /* A batch: the first page back to the host, the second stays on device 0's last prefetch. */
    const void *ptrs[2] = {m, (const unsigned char *)m + 4096};
    size_t sizes[2] = {4096, 4096};
    aclrtMemManagedLocation locs[2] = {host, dev0};
    size_t idxs[2] = {0, 1};
    EXPECT(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 2, locs, idxs, 2, 0, s), ACL_SUCCESS);
    EXPECT(aclrtSynchronizeStream(s), ACL_SUCCESS);
    EXPECT(attr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, 4096), -1);
    EXPECT(attr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, ptrs[1], 4096), 0);
    size_t back[2] = {1, 0};
    EXPECT(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 2, locs, back, 2, 0, s), ACL_ERROR_INVALID_PARAM);

    /* Two attributes at once; a bad attribute or size is refused before anything is written. */
    aclrtMemManagedRangeAttribute as[2] = {ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY,
                                           ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID};
    int32_t v0 = -99, v1 = -99;
    void *data[2] = {&v0, &v1};
    size_t ds[2] = {4, 4};
    EXPECT(aclrtMemManagedGetAttrs(as, 2, ptrs[1], 4096, data, ds), ACL_SUCCESS);
    CHECK(v0 == 1 && v1 == 0);
    int32_t w = -99;
    EXPECT(aclrtMemManagedGetAttr((aclrtMemManagedRangeAttribute)99, m, 8192, &w, 4), ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 8192, &w, 8), ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 0, &w, 4), ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 8192, NULL, 4), ACL_ERROR_INVALID_PARAM);
    CHECK(w == -99);

    /* aclrtFree frees it; the pointer is then no managed memory. */
    EXPECT(aclrtFree(m), ACL_SUCCESS);
    long long after = aclrtMemManagedAdvise(m, 8192, ACL_MEM_ADVISE_SET_READ_MOSTLY, dev0);
    printf("advise after free: %lld\n", after);

    EXPECT(aclrtDestroyStream(s), ACL_SUCCESS);
    EXPECT(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT(aclFinalize(), ACL_SUCCESS);
    printf("acl_managed: ok\n");
    return 0;
}
