/*
 * ACL: aclrtMemcpy2d / aclrtMemcpy2dAsync (acl-runtime-api.md · Memcpy2d): the copies, every argument check in
 * CANN's order with its code, and the virtual time of a 2-D copy (that of a 1-D copy of the same bytes:
 * pitched-memory.md · cost). The rules are CANN's runtime at github.com/hicann/runtime commit 681ef7610:
 * src/acl/aclrt_impl/memory.cpp (CheckMemcpy2dParam, aclrtMemcpy2dImpl, aclrtMemcpy2dAsyncImpl) and
 * src/runtime/api/impl/api_error.cc (MemCopy2DCheckParam, MemCopy2DSync, MemCopy2DAsync).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"

#include "check.h"

#define W 16
#define H 4
#define DPITCH 64

int main(void) {
    EXPECT(aclInit(NULL), ACL_SUCCESS);
    EXPECT(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream s = NULL;
    EXPECT(aclrtCreateStream(&s), ACL_SUCCESS);

    unsigned char host[W * H], back[W * H];
    for (int i = 0; i < W * H; i++) {
        host[i] = (unsigned char)(i + 1);
    }
    void *dev = NULL, *dev2 = NULL;
    EXPECT(aclrtMalloc(&dev, DPITCH * H, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT(aclrtMalloc(&dev2, DPITCH * H, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT(aclrtMemset(dev, DPITCH * H, 0xEE, DPITCH * H), ACL_SUCCESS);

    /* Host to device into rows 64 bytes apart, and back: the bytes, and the padding untouched. */
    EXPECT(aclrtMemcpy2d(dev, DPITCH, host, W, W, H, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    memset(back, 0, sizeof back);
    EXPECT(aclrtMemcpy2d(back, W, dev, DPITCH, W, H, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    CHECK(memcmp(back, host, sizeof host) == 0);
    unsigned char pad[DPITCH];
    EXPECT(aclrtMemcpy(pad, DPITCH, dev, DPITCH, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    CHECK(pad[W - 1] == W && pad[W] == 0xEE && pad[DPITCH - 1] == 0xEE);
    /* ACL_MEMCPY_DEFAULT is inferred from the pointers. */
    memset(back, 0, sizeof back);
    EXPECT(aclrtMemcpy2d(back, W, dev, DPITCH, W, H, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
    CHECK(memcmp(back, host, sizeof host) == 0);

    /* Width or height 0: success before any check (NULL pointers included). */
    EXPECT(aclrtMemcpy2d(NULL, W, NULL, W, 0, H, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    EXPECT(aclrtMemcpy2dAsync(NULL, W, NULL, W, W, 0, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
    /* The ACL layer's checks: NULL pointers, width above a pitch, a kind outside H2D / D2H / D2D / DEFAULT. */
    EXPECT(aclrtMemcpy2d(NULL, DPITCH, host, W, W, H, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtMemcpy2d(dev, DPITCH, NULL, W, W, H, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtMemcpy2d(dev, DPITCH, host, W - 1, W, H, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtMemcpy2d(dev, W - 1, host, W, W, H, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtMemcpy2d(back, W, host, W, W, H, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtMemcpy2dAsync(dev, DPITCH, host, W, W, H, (aclrtMemcpyKind)99, s), ACL_ERROR_INVALID_PARAM);
    /* The runtime's: at most 5,000,000 bytes wide and 5,242,880 rows. */
    EXPECT(aclrtMemcpy2d(dev, DPITCH, host, W, W, 5242881, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(aclrtMemcpy2dAsync(dev, 5000001, host, 5000001, 5000001, 1, ACL_MEMCPY_HOST_TO_DEVICE, s),
           ACL_ERROR_RT_PARAM_INVALID);
    /* A synchronous 2-D copy is H2D or D2H: D2D is not supported; DEFAULT between two device (or two host)
       buffers is refused. The asynchronous one copies device to device. */
    EXPECT(aclrtMemcpy2d(dev2, DPITCH, dev, DPITCH, W, H, ACL_MEMCPY_DEVICE_TO_DEVICE),
           ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT(aclrtMemcpy2d(dev2, DPITCH, dev, DPITCH, W, H, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(aclrtMemcpy2d(back, W, host, W, W, H, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(aclrtMemcpy2dAsync(back, W, host, W, W, H, ACL_MEMCPY_DEFAULT, s), ACL_ERROR_RT_PARAM_INVALID);
    /* A kind the pointers contradict (sim: as aclrtMemcpy). */
    EXPECT(aclrtMemcpy2d(dev, DPITCH, host, W, W, H, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);

    EXPECT(aclrtMemcpy2dAsync(dev2, W, dev, DPITCH, W, H, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
    EXPECT(aclrtMemcpy2dAsync((unsigned char *)dev2 + W * H, W, dev, DPITCH, W, H, ACL_MEMCPY_DEFAULT, s), ACL_SUCCESS);
    EXPECT(aclrtSynchronizeStream(s), ACL_SUCCESS);
    unsigned char both[2 * W * H];
    EXPECT(aclrtMemcpy(both, sizeof both, dev2, sizeof both, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    CHECK(memcmp(both, host, sizeof host) == 0 && memcmp(both + W * H, host, sizeof host) == 0);

    /* The virtual time of a 2-D copy is that of a 1-D copy of its bytes (pinned host memory: asynchronous). */
    void *pinned = NULL;
    EXPECT(aclrtMallocHost(&pinned, W * H), ACL_SUCCESS);
    aclrtEvent e[4];
    for (int i = 0; i < 4; i++) {
        EXPECT(aclrtCreateEvent(&e[i]), ACL_SUCCESS);
    }
    /* Each from an idle stream, so that both pairs of records see the same gaps. */
    EXPECT(aclrtRecordEvent(e[0], s), ACL_SUCCESS);
    EXPECT(aclrtMemcpy2dAsync(dev, DPITCH, pinned, W, W, H, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
    EXPECT(aclrtRecordEvent(e[1], s), ACL_SUCCESS);
    EXPECT(aclrtSynchronizeStream(s), ACL_SUCCESS);
    EXPECT(aclrtRecordEvent(e[2], s), ACL_SUCCESS);
    EXPECT(aclrtMemcpyAsync(dev, W * H, pinned, W * H, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
    EXPECT(aclrtRecordEvent(e[3], s), ACL_SUCCESS);
    EXPECT(aclrtSynchronizeStream(s), ACL_SUCCESS);
    float two_d = 0, one_d = 0;
    EXPECT(aclrtEventElapsedTime(&two_d, e[0], e[1]), ACL_SUCCESS);
    EXPECT(aclrtEventElapsedTime(&one_d, e[2], e[3]), ACL_SUCCESS);
    CHECK(two_d > 0 && two_d == one_d);
    printf("2-D copy of %d bytes: %.6f ms\n", W * H, two_d);

    for (int i = 0; i < 4; i++) {
        EXPECT(aclrtDestroyEvent(e[i]), ACL_SUCCESS);
    }
    EXPECT(aclrtFreeHost(pinned), ACL_SUCCESS);
    EXPECT(aclrtFree(dev), ACL_SUCCESS);
    EXPECT(aclrtFree(dev2), ACL_SUCCESS);
    EXPECT(aclrtDestroyStream(s), ACL_SUCCESS);
    EXPECT(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT(aclFinalize(), ACL_SUCCESS);
    printf("acl_memcpy2d: ok\n");
    return 0;
}
