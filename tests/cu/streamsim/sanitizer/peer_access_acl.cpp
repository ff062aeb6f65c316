// peer_access.cu in ACL's names (`streamsim cc --dialect acl`, run with STREAMSIM_DEVICES=2): a kernel on
// device 0 writing an allocation of device 1 without aclrtDeviceEnablePeerAccess faults: the next
// synchronize answers 507015 with a memcheck report. Built with -DCORRECT, the twin enables peer access first.
#include "acl/acl.h"
#include "kernel_operator.h"
#include <cstdio>

extern "C" __global__ __aicore__ void fill(GM_ADDR out) {
    int *a = (int *)out;
    a[AscendC::GetBlockIdx()] = 7;
}

int main() {
    aclInit(nullptr);
    void *a;
    aclrtSetDevice(1);
    aclrtMalloc(&a, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtSetDevice(0);
    aclrtStream s;
    aclrtCreateStream(&s);
#ifdef CORRECT
    aclrtDeviceEnablePeerAccess(1, 0);
#endif
    fill<<<8, nullptr, s>>>((GM_ADDR)a);
    int e = aclrtSynchronizeStream(s);
    printf("sync: %d\n", e);
    return 0;
}
