// Seed 001, the Ascend multi-device guide (多Device场景), "Stream和Event的行为": the article's launches as
// written (between the "as written" markers), in Ascend C host code built by `streamsim cc --dialect acl`.
// A `<<<>>>` launch returns nothing: its failure is the thread's last error (aclrtGetLastError).
#include "acl/acl.h"
#include "kernel_operator.h"
#include <cstdio>
#include <cstdlib>

#define CHECK(call, want)                                                                                  \
    do {                                                                                                   \
        int got_ = (int)(call);                                                                            \
        if (got_ != (int)(want)) {                                                                         \
            printf("FAIL line %d: %s = %d, want %d\n", __LINE__, #call, got_, (int)(want));               \
            exit(1);                                                                                       \
        }                                                                                                  \
    } while (0)

// Each block says who it is: the output shows which launches ran, and that blocks run in order.
extern "C" __global__ __aicore__ void myKernel() {
    printf("block %d of %d\n", (int)AscendC::GetBlockIdx(), (int)AscendC::GetBlockNum());
}

int main() {
    CHECK(aclInit(nullptr), ACL_SUCCESS);
    // as written
    aclrtSetDevice(0); // 指定Device 0作为计算设备
    aclrtStream s0;
    aclrtCreateStream(&s0); // 在Device 0上创建Stream s0
    myKernel<<<8, nullptr, s0>>>(); // 在Device 0上通过Stream s0下发算子
    // as written
    CHECK(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    CHECK(aclrtSynchronizeStream(s0), ACL_SUCCESS);
    // as written
    aclrtSetDevice(1); // 指定Device 1作为计算设备
    aclrtStream s1;
    aclrtCreateStream(&s1); // 在Device 1上创建Stream s1
    myKernel<<<8, nullptr, s1>>>(); // 在Device 1上通过Stream s1下发算子
    // as written
    CHECK(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    CHECK(aclrtSynchronizeStream(s1), ACL_SUCCESS);
    // as written
    // 算子下发失败
    myKernel<<<8, nullptr, s0>>>(); // 在Device 1上通过Stream s0下发算子
    // as written
    CHECK(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_STREAM_CONTEXT);
    CHECK(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    CHECK(aclrtSetDevice(0), ACL_SUCCESS);
    CHECK(aclrtSynchronizeDevice(), ACL_SUCCESS);
    printf("seed 001: the launch on another device's stream failed with %d; PASS\n", ACL_ERROR_RT_STREAM_CONTEXT);
    aclrtResetDeviceForce(1);
    aclrtResetDeviceForce(0);
    aclFinalize();
    return 0;
}
