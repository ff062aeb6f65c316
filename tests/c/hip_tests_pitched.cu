/*
 * hip_tests_pitched.cu — ROCm hip-tests (github.com/ROCm/hip-tests, commit 87c8a0417c6f4ef2c7d905b71eb42e02a0c4ef4a)
 * pitched-memory unit tests, translated to CUDA names (hipX → cudaX) and built with `streamsim cc` (the kernels run
 * on the CPU):
 *   catch/unit/memory/hipMallocPitch.cc: Unit_hipMalloc3D_ValidatePitch (24 extents), Unit_hipMallocPitch_
 *                                        ValidatePitch (23 extents), Unit_hipMalloc3D_Negative (5 sections),
 *                                        Unit_hipMallocPitch_Negative (4), Unit_hipMallocPitch_Zero_Dims (2),
 *                                        Unit_hipMallocPitch_Basic, _SmallandBigChunks, _Memcpy2D, _KernelLaunch
 *                                        (each for its three types), Unit_hipMallocPitch_MultiThread
 *   catch/unit/memory/hipMalloc3D.cc:    Unit_hipMalloc3D_Basic, _SmallandBigChunks, _MultiThread
 *   catch/unit/memory/hipMemcpy2D.cc:    Unit_hipMemcpy2D_Positive_Basic (5 sections), _Positive_Synchronization_
 *                                        Behavior (4), _Positive_Parameters (4 × 3 shapes), _Negative_Parameters
 *                                        (4 × 7), with memcpy2d_tests_common.hh's shells
 *   catch/unit/memory/hipMemcpy2DAsync.cc: Unit_hipMemcpy2DAsync_Positive_Basic (3 streams × 5 sections),
 *                                        _Positive_Synchronization_Behavior (5), _Positive_Parameters (4 × 3),
 *                                        _Negative_Parameters (4 × 8), _capturehipMemcpy2DAsync (3 types × 9 shapes)
 *   catch/unit/memory/hipMemcpy3D.cc:    Unit_hipMemcpy3D_Positive_Basic (5 sections), _Positive_Synchronization_
 *                                        Behavior (4), _Positive_DeviceToDevice_Synchronization_Behavior,
 *                                        _Positive_Parameters (4 × 3 shapes), _Negative_Parameters (4 × 13), with
 *                                        catch/include/memcpy3d_tests_common.hh's shells (the pitched-pointer ones)
 *   catch/unit/memory/hipMemcpy3DAsync.cc: Unit_hipMemcpy3DAsync_Positive_Basic (3 streams × 5 sections),
 *                                        _Positive_Synchronization_Behavior (5), _Positive_Parameters (4 × 3),
 *                                        _Negative_Parameters (4 × 14)
 *
 * Every runtime call and every check of those tests is kept, with these changes:
 *   - Catch2 → tests/c/hip_tests_cu.h: each SECTION runs as its own pass of its test case (nested sections are
 *     flattened into one level), GENERATE → a loop around the generated pass, in the generator's order;
 *     TEMPLATE_TEST_CASE → one call per type.
 *   - hip error names → the CUDA codes with the same meaning: hipErrorInvalidValue → cudaErrorInvalidValue,
 *     hipErrorOutOfMemory → cudaErrorMemoryAllocation, hipErrorInvalidPitchValue → cudaErrorInvalidPitchValue,
 *     hipErrorInvalidMemcpyDirection → cudaErrorInvalidMemcpyDirection, hipErrorNotReady → cudaErrorNotReady;
 *     hipDeviceAttributeMaxPitch → cudaDevAttrMaxPitch; hipHostMalloc → cudaHostAlloc.
 *   - The HT_NVIDIA branches run (a CUDA device). CHECK_IMAGE_SUPPORT is dropped (a CUDA device supports
 *     textures: the tests run). Not ported: Unit_hipMemAllocPitch_ValidatePitch and Unit_hipMemAllocPitch_Negative
 *     (hipMemAllocPitch is the driver API's cuMemAllocPitch, which streamsim does not provide); the Positive_Array
 *     test cases of hipMemcpy3D.cc and hipMemcpy3DAsync.cc (each section skipped with a message: CUDA arrays are not
 *     simulated); the hipDrv* and *_old files. Sizes are upstream's.
 *   - Unit_hipMallocPitch_KernelLaunch: upstream's copy_var and validateResult index the typed arrays with the
 *     byte pitch (A[i] for i up to ROWS × pitch_A), which reaches 7 × pitch × sizeof(T) bytes into allocations of
 *     NUM_H × pitch bytes (and past the host arrays of NUM_W × NUM_H elements); on a GPU the allocation granularity
 *     hides it, streamsim's memcheck faults the kernel. The port steps by pitch_A / sizeof(T) elements in the
 *     kernel (the first element of each row, what the test means) and by COLUMNS elements on the host (the rows of
 *     the host copy), and keeps every call; upstream ignores validateResult's answer and so does the port.
 *   - The device-to-device shells with peer access (2-D and 3-D): upstream enables peer access in each generated
 *     pass and never disables it, so its second pass's cudaDeviceEnablePeerAccess would answer
 *     cudaErrorPeerAccessAlreadyEnabled on CUDA; the port disables it at the end of the pass
 *     (cudaDeviceDisablePeerAccess, checked).
 *   - With more than one device, the device-to-device shells skip the pairs of a device with itself, as upstream does
 *     on CUDA (cudaDeviceCanAccessPeer of a device and itself answers 0): 16 skips per 2-D Positive_Basic pass, 64 with
 *     two devices (hipMemcpy2D's, hipMemcpy2DAsync's on three streams), none with one (the copies run); the 3-D shell
 *     asks only before enabling peer access, as upstream. With the four array sections: 68 and 4 skips.
 *   - The synchronization-behavior checks: where the host does not wait (a device-to-device cudaMemcpy2D, per the
 *     Runtime API's "API synchronization behavior"; cudaMemcpy2DAsync / 3DAsync to and from pinned memory and between
 *     device buffers), upstream checks cudaErrorNotReady and its guards then cudaFree the allocations while the copy is
 *     still queued behind the 300 ms delay kernel. streamsim keeps its documented answer (stream-ordered-memory.md:
 *     cudaFree only "may perform implicit synchronization") and reports those frees as uses after free (six reports);
 *     the calls still succeed and the run goes on.
 *   - Negative "Invalid stream" of hipMemcpy2DAsync.cc and hipMemcpy3DAsync.cc: a destroyed stream answers 400
 *     cudaErrorInvalidResourceHandle, streamsim's documented code for every destroyed handle (cuda-musa.md; upstream's
 *     HT_NVIDIA branch expects 709 cudaErrorContextIsDestroyed, which the Runtime API does not list for the call).
 *
 * hip-tests is MIT-licensed: Copyright (c) 2022 - 2024 Advanced Micro Devices, Inc. (the notice is in
 * tests/c/hip_tests_cu.h).
 */
#include "hip_tests_cu.h"

#include <atomic>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

/* ---- resource_guards.hh's pitched guards and utils.hh's helpers ---- */

template <typename T> class LinearAllocGuardMultiDim {
  protected:
    LinearAllocGuardMultiDim(cudaExtent extent) : extent_{extent} {}
    ~LinearAllocGuardMultiDim() { static_cast<void>(cudaFree(pitched_ptr_.ptr)); }

  public:
    T *ptr() const { return reinterpret_cast<T *>(pitched_ptr_.ptr); };
    size_t pitch() const { return pitched_ptr_.pitch; }
    cudaExtent extent() const { return extent_; }
    cudaPitchedPtr pitched_ptr() const { return pitched_ptr_; }
    size_t width() const { return extent_.width; }
    size_t width_logical() const { return extent_.width / sizeof(T); }
    size_t height() const { return extent_.height; }

  public:
    cudaPitchedPtr pitched_ptr_{};
    const cudaExtent extent_;
};

template <typename T, bool unaligned = false> class LinearAllocGuard2D : public LinearAllocGuardMultiDim<T> {
  public:
    LinearAllocGuard2D(const size_t width_logical, const size_t height)
        : LinearAllocGuardMultiDim<T>{make_cudaExtent(width_logical * sizeof(T), height, 1)} {
        if (unaligned) {
            this->pitched_ptr_.pitch = width_logical * sizeof(T);
            HIP_CHECK(cudaMalloc(&this->pitched_ptr_.ptr, this->pitched_ptr_.pitch * height));
        } else {
            HIP_CHECK(cudaMallocPitch(&this->pitched_ptr_.ptr, &this->pitched_ptr_.pitch, this->extent_.width,
                                      this->extent_.height));
        }
    }
    LinearAllocGuard2D(const LinearAllocGuard2D &) = delete;
};

template <typename T, typename F>
void PitchedMemoryVerify(T *const ptr, const size_t pitch, const size_t width, const size_t height,
                         const size_t depth, F expected_value_generator) {
    for (size_t z = 0; z < depth; ++z) {
        for (size_t y = 0; y < height; ++y) {
            for (size_t x = 0; x < width; ++x) {
                const auto slice = reinterpret_cast<uint8_t *>(ptr) + pitch * height * z;
                const auto row = slice + pitch * y;
                if (reinterpret_cast<T *>(row)[x] != expected_value_generator(x, y, z)) {
                    REQUIRE(reinterpret_cast<T *>(row)[x] == expected_value_generator(x, y, z));
                }
            }
        }
    }
}

template <typename T, typename F>
void PitchedMemorySet(T *const ptr, const size_t pitch, const size_t width, const size_t height, const size_t depth,
                      F expected_value_generator) {
    for (size_t z = 0; z < depth; ++z) {
        for (size_t y = 0; y < height; ++y) {
            for (size_t x = 0; x < width; ++x) {
                const auto slice = reinterpret_cast<uint8_t *>(ptr) + pitch * height * z;
                const auto row = slice + pitch * y;
                reinterpret_cast<T *>(row)[x] = expected_value_generator(x, y, z);
            }
        }
    }
}

template <typename T> __global__ void Iota(T *const out, size_t pitch, size_t w, size_t h, size_t d) {
    const auto x = blockIdx.x * blockDim.x + threadIdx.x;
    const auto y = blockIdx.y * blockDim.y + threadIdx.y;
    const auto z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < w && y < h && z < d) {
        char *const slice = reinterpret_cast<char *>(out) + pitch * h * z;
        char *const row = slice + pitch * y;
        reinterpret_cast<T *>(row)[x] = z * w * h + y * w + x;
    }
}

namespace HipTest {
/* hip_test_checkers.hh */
template <typename T> bool checkArray(T *hData, T *hOutputData, size_t width, size_t height, size_t depth = 1) {
    for (size_t i = 0; i < depth; i++) {
        for (size_t j = 0; j < height; j++) {
            for (size_t k = 0; k < width; k++) {
                int offset = i * width * height + j * width + k;
                if (hData[offset] != hOutputData[offset]) {
                    REQUIRE(false);
                    return false;
                }
            }
        }
    }
    return true;
}
} // namespace HipTest

/* ======================= hipMallocPitch.cc ======================= */

static void validateMemory(void *devPtr, cudaExtent extent, size_t pitch) {
    const size_t theoreticalAllocatedMemory{pitch * extent.height * extent.depth};
    if (theoreticalAllocatedMemory == 0) {
        return; /* If there was no memory allocated then we don't need to do further checks. */
    }

    std::unique_ptr<char[]> hostPtr{new char[theoreticalAllocatedMemory]};
    std::memset(hostPtr.get(), 2, theoreticalAllocatedMemory);

    cudaPitchedPtr devPitchedPtr{devPtr, pitch, extent.width, extent.height};
    cudaPitchedPtr hostPitchedPtr{hostPtr.get(), pitch, extent.width, extent.height};

    HIP_CHECK(cudaMemset3D(devPitchedPtr, 1, extent));

    cudaMemcpy3DParms params{};
    params.srcPtr = devPitchedPtr;
    params.kind = cudaMemcpyDeviceToHost;
    params.dstPtr = hostPitchedPtr;
    params.extent = extent;
    HIP_CHECK(cudaMemcpy3D(&params));

    bool mismatch = false;
    for (size_t width = 0; width < extent.width; ++width) {
        for (size_t height = 0; height < extent.height; ++height) {
            for (size_t depth = 0; depth < extent.depth; ++depth) {
                char *reinterpretedPtr = reinterpret_cast<char *>(hostPtr.get());
                size_t index = (pitch * extent.height * depth) + (pitch * height) + width;
                if (*(reinterpretedPtr + index) != 1) {
                    mismatch = true;
                }
            }
        }
    }
    REQUIRE(!mismatch);
}

class ExtentGenerator {
  public:
    static constexpr size_t totalRandomValues{20};
    static constexpr size_t seed{1337};

    std::uniform_int_distribution<size_t> width_distribution{1, 1024};
    std::uniform_int_distribution<size_t> height_distribution{1, 100};
    std::uniform_int_distribution<size_t> depth_distribution{1, 100};

    std::vector<cudaExtent> extents2D{};
    std::vector<cudaExtent> extents3D{};

    static ExtentGenerator &getInstance() {
        static ExtentGenerator instance;
        return instance;
    }

  private:
    ExtentGenerator() {
        std::mt19937 randomGenerator{seed};
        extents3D = std::vector<cudaExtent>{cudaExtent{0, 0, 0}, cudaExtent{1, 0, 0}, cudaExtent{0, 1, 0},
                                            cudaExtent{0, 0, 1}};
        for (size_t i = 0; i < totalRandomValues; ++i) {
            extents3D.push_back(cudaExtent{width_distribution(randomGenerator), height_distribution(randomGenerator),
                                           depth_distribution(randomGenerator)});
        }
        extents2D = std::vector<cudaExtent>{cudaExtent{0, 0, 1}, cudaExtent{1, 0, 1}, cudaExtent{0, 1, 1}};
        for (size_t i = 0; i < totalRandomValues; ++i) {
            extents2D.push_back(
                cudaExtent{width_distribution(randomGenerator), height_distribution(randomGenerator), 1});
        }
    }
};

/* GENERATE_REF(from_range(extents…)) → a loop over the extents. */
static void Unit_hipMalloc3D_ValidatePitch() {
    for (const cudaExtent validExtent : ExtentGenerator::getInstance().extents3D) {
        cudaPitchedPtr hipPitchedPtr;
        HIP_CHECK(cudaMalloc3D(&hipPitchedPtr, validExtent));
        validateMemory(hipPitchedPtr.ptr, validExtent, hipPitchedPtr.pitch);
        HIP_CHECK(cudaFree(hipPitchedPtr.ptr));
    }
}

static void Unit_hipMallocPitch_ValidatePitch() {
    for (const cudaExtent validExtent : ExtentGenerator::getInstance().extents2D) {
        size_t pitch = 0;
        void *ptr;
        HIP_CHECK(cudaMallocPitch(&ptr, &pitch, validExtent.width, validExtent.height));
        validateMemory(ptr, validExtent, pitch);
        HIP_CHECK(cudaFree(ptr));
    }
}

static void Unit_hipMalloc3D_Negative() {
    RunSections([] {
        SECTION("Invalid ptr") {
            cudaExtent validExtent{1, 1, 1};
            HIP_CHECK_ERROR(cudaMalloc3D(nullptr, validExtent), cudaErrorInvalidValue);
        }

        cudaPitchedPtr ptr;
        constexpr size_t maxSizeT = std::numeric_limits<size_t>::max();

        SECTION("Max size_t width") {
            cudaExtent validExtent{maxSizeT, 1, 1};
            HIP_CHECK_ERROR(cudaMalloc3D(&ptr, validExtent), cudaErrorInvalidValue);
        }

        SECTION("Max size_t height") {
            cudaExtent validExtent{1, maxSizeT, 1};
            HIP_CHECK_ERROR(cudaMalloc3D(&ptr, validExtent), cudaErrorMemoryAllocation);
        }

        SECTION("Max size_t depth") {
            cudaExtent validExtent{1, 1, maxSizeT};
            HIP_CHECK_ERROR(cudaMalloc3D(&ptr, validExtent), cudaErrorMemoryAllocation);
        }

        SECTION("Max size_t all dimensions") {
            cudaExtent validExtent{maxSizeT, maxSizeT, maxSizeT};
            HIP_CHECK_ERROR(cudaMalloc3D(&ptr, validExtent), cudaErrorInvalidValue);
        }
    });
}

static void Unit_hipMallocPitch_Negative() {
    RunSections([] {
        size_t pitch = 0;
        void *ptr;
        constexpr size_t maxSizeT = std::numeric_limits<size_t>::max();

        SECTION("Invalid ptr") { HIP_CHECK_ERROR(cudaMallocPitch(nullptr, &pitch, 1, 1), cudaErrorInvalidValue); }

        SECTION("Invalid pitch") { HIP_CHECK_ERROR(cudaMallocPitch(&ptr, nullptr, 1, 1), cudaErrorInvalidValue); }

        SECTION("Max size_t width") {
            HIP_CHECK_ERROR(cudaMallocPitch(&ptr, &pitch, maxSizeT, 1), cudaErrorInvalidValue);
        }

        SECTION("Max size_t height") {
            HIP_CHECK_ERROR(cudaMallocPitch(&ptr, &pitch, 1, maxSizeT), cudaErrorMemoryAllocation);
        }
    });
}

static void Unit_hipMallocPitch_Zero_Dims() {
    RunSections([] {
        void *ptr = nullptr;
        size_t pitch = 0;

        SECTION("width == 0") {
            HIP_CHECK(cudaMallocPitch(&ptr, &pitch, 0, 1));
            REQUIRE(ptr == nullptr);
        }

        SECTION("height == 0") {
            HIP_CHECK(cudaMallocPitch(&ptr, &pitch, 1, 0));
            REQUIRE(ptr == nullptr);
        }
    });
}

static constexpr auto SMALLCHUNK_NUMW{4};
static constexpr auto SMALLCHUNK_NUMH{4};
static constexpr auto LARGECHUNK_NUMW{1025};
static constexpr auto LARGECHUNK_NUMH{1000};
static constexpr auto NUM_W{10};
static constexpr auto NUM_H{10};
static constexpr auto COLUMNS{8};
static constexpr auto ROWS{8};
static constexpr auto CHUNK_LOOP{100};

/* The first element of each of ROWS rows: the step is the pitch in elements (upstream: in bytes, see above). */
template <typename T> __global__ void copy_var(T *A, T *B, size_t ROWS, size_t pitch_A) {
    for (uint64_t i = 0; i < ROWS * (pitch_A / sizeof(T)); i = i + pitch_A / sizeof(T)) {
        A[i] = B[i];
    }
}

/* The first element of each row of the host copies (COLUMNS elements a row; upstream: the byte pitch). */
template <typename T> static bool validateResult(T *A, T *B, size_t pitch_A) {
    static_cast<void>(pitch_A);
    bool testResult = true;
    for (uint64_t i = 0; i < COLUMNS * ROWS; i = i + COLUMNS) {
        if (A[i] != B[i]) {
            testResult = false;
            break;
        }
    }
    return testResult;
}

template <typename T> static void MemoryAllocDiffSizes(int gpu) {
    HIP_CHECK(cudaSetDevice(gpu));
    std::vector<size_t> array_size;
    array_size.push_back(SMALLCHUNK_NUMH);
    array_size.push_back(LARGECHUNK_NUMH);
    for (auto &sizes : array_size) {
        T *A_d[CHUNK_LOOP];
        size_t pitch_A = 0;
        size_t width;
        if (sizes == SMALLCHUNK_NUMH) {
            width = SMALLCHUNK_NUMW * sizeof(T);
        } else {
            width = LARGECHUNK_NUMW * sizeof(T);
        }
        for (int i = 0; i < CHUNK_LOOP; i++) {
            HIP_CHECK(cudaMallocPitch(reinterpret_cast<void **>(&A_d[i]), &pitch_A, width, sizes));
        }
        for (int i = 0; i < CHUNK_LOOP; i++) {
            HIP_CHECK(cudaFree(A_d[i]));
        }
    }
}

static void threadFunc(int gpu) { MemoryAllocDiffSizes<float>(gpu); }

template <typename TestType> static void Unit_hipMallocPitch_Basic() {
    TestType *A_d;
    size_t pitch_A = 0;
    size_t width{NUM_W * sizeof(TestType)};
    REQUIRE(cudaMallocPitch(reinterpret_cast<void **>(&A_d), &pitch_A, width, NUM_H) == cudaSuccess);
    REQUIRE(width <= pitch_A);
    HIP_CHECK(cudaFree(A_d));
}

template <typename TestType> static void Unit_hipMallocPitch_SmallandBigChunks() { MemoryAllocDiffSizes<TestType>(0); }

template <typename TestType> static void Unit_hipMallocPitch_Memcpy2D() {
    HIP_CHECK(cudaSetDevice(0));
    TestType *A_h{nullptr}, *B_h{nullptr}, *C_h{nullptr}, *A_d{nullptr}, *B_d{nullptr};
    size_t pitch_A = 0, pitch_B = 0;
    size_t width{NUM_W * sizeof(TestType)};

    HipTest::initArrays<TestType>(nullptr, nullptr, nullptr, &A_h, &B_h, &C_h, NUM_W * NUM_H, false);
    HIP_CHECK(cudaMallocPitch(reinterpret_cast<void **>(&A_d), &pitch_A, width, NUM_H));
    HIP_CHECK(cudaMallocPitch(reinterpret_cast<void **>(&B_d), &pitch_B, width, NUM_H));

    HipTest::setDefaultData<TestType>(NUM_W * NUM_H, A_h, B_h, C_h);

    HIP_CHECK(cudaMemcpy2D(A_d, pitch_A, A_h, COLUMNS * sizeof(TestType), COLUMNS * sizeof(TestType), ROWS,
                           cudaMemcpyHostToDevice));
    HIP_CHECK(cudaMemcpy2D(B_d, pitch_B, A_d, pitch_A, COLUMNS * sizeof(TestType), ROWS, cudaMemcpyDeviceToDevice));
    HIP_CHECK(cudaMemcpy2D(B_h, COLUMNS * sizeof(TestType), B_d, pitch_B, COLUMNS * sizeof(TestType), ROWS,
                           cudaMemcpyDeviceToHost));

    REQUIRE(HipTest::checkArray<TestType>(A_h, B_h, COLUMNS, ROWS) == true);

    HIP_CHECK(cudaFree(A_d));
    HIP_CHECK(cudaFree(B_d));
    HipTest::freeArrays<TestType>(nullptr, nullptr, nullptr, A_h, B_h, C_h, false);
}

static void Unit_hipMallocPitch_MultiThread() {
    std::vector<std::thread> threadlist;
    int devCnt = 0;
    devCnt = HipTest::getDeviceCount();
    for (int i = 0; i < devCnt; i++) {
        threadlist.push_back(std::thread(threadFunc, i));
    }
    for (auto &t : threadlist) {
        t.join();
    }
}

template <typename TestType> static void Unit_hipMallocPitch_KernelLaunch() {
    HIP_CHECK(cudaSetDevice(0));
    TestType *A_h{nullptr}, *B_h{nullptr}, *C_h{nullptr}, *A_d{nullptr}, *B_d{nullptr};
    size_t pitch_A = 0, pitch_B = 0;
    size_t width{NUM_W * sizeof(TestType)};

    HipTest::initArrays<TestType>(nullptr, nullptr, nullptr, &A_h, &B_h, &C_h, NUM_W * NUM_H, false);
    HIP_CHECK(cudaMallocPitch(reinterpret_cast<void **>(&A_d), &pitch_A, width, NUM_H));
    HIP_CHECK(cudaMallocPitch(reinterpret_cast<void **>(&B_d), &pitch_B, width, NUM_H));

    HIP_CHECK(cudaMemcpy2D(A_d, pitch_A, A_h, COLUMNS * sizeof(TestType), COLUMNS * sizeof(TestType), ROWS,
                           cudaMemcpyHostToDevice));

    copy_var<TestType><<<dim3(1), dim3(1), 0, 0>>>(static_cast<TestType *>(A_d), static_cast<TestType *>(B_d), ROWS,
                                                   pitch_A);
    HIP_CHECK(cudaGetLastError());

    HIP_CHECK(cudaMemcpy2D(B_h, COLUMNS * sizeof(TestType), B_d, pitch_B, COLUMNS * sizeof(TestType), ROWS,
                           cudaMemcpyDeviceToHost));

    validateResult(A_h, B_h, pitch_A);

    HIP_CHECK(cudaFree(A_d));
    HIP_CHECK(cudaFree(B_d));
    HipTest::freeArrays<TestType>(nullptr, nullptr, nullptr, A_h, B_h, C_h, false);
}

/* ======================= hipMalloc3D.cc ======================= */

static constexpr auto SMALL_SIZE{4};
static constexpr auto BIG_SIZE{100};

static void MemoryAlloc3DDiffSizes(int gpu) {
    HIP_CHECK(cudaSetDevice(gpu));
    std::vector<size_t> array_size;
    array_size.push_back(SMALL_SIZE);
    array_size.push_back(BIG_SIZE);
    for (auto &sizes : array_size) {
        size_t width = sizes * sizeof(float);
        size_t height{sizes}, depth{sizes};
        cudaPitchedPtr devPitchedPtr[CHUNK_LOOP];
        cudaExtent extent = make_cudaExtent(width, height, depth);
        size_t ptot, pavail;
        HIP_CHECK(cudaMemGetInfo(&pavail, &ptot));
        for (int i = 0; i < CHUNK_LOOP; i++) {
            HIP_CHECK(cudaMalloc3D(&devPitchedPtr[i], extent));
        }
        for (int i = 0; i < CHUNK_LOOP; i++) {
            HIP_CHECK(cudaFree(devPitchedPtr[i].ptr));
        }
    }
}

static void Malloc3DThreadFunc(int gpu) { MemoryAlloc3DDiffSizes(gpu); }

static void Unit_hipMalloc3D_Basic() {
    size_t width = SMALL_SIZE * sizeof(char);
    size_t height{SMALL_SIZE}, depth{SMALL_SIZE};
    cudaPitchedPtr devPitchedPtr;
    cudaExtent extent = make_cudaExtent(width, height, depth);
    size_t tot, avail, ptot, pavail;
    HIP_CHECK(cudaMemGetInfo(&pavail, &ptot));

    REQUIRE(cudaMalloc3D(&devPitchedPtr, extent) == cudaSuccess);
    HIP_CHECK(cudaFree(devPitchedPtr.ptr));

    HIP_CHECK(cudaMemGetInfo(&avail, &tot));

    if (pavail != avail) {
        WARN("Memory leak of hipMalloc3D API in multithreaded scenario");
        REQUIRE(false);
    }
}

static void Unit_hipMalloc3D_SmallandBigChunks() { MemoryAlloc3DDiffSizes(0); }

static void Unit_hipMalloc3D_MultiThread() {
    std::vector<std::thread> threadlist;
    int devCnt = 0;
    devCnt = HipTest::getDeviceCount();
    for (int i = 0; i < devCnt; i++) {
        threadlist.push_back(std::thread(Malloc3DThreadFunc, i));
    }
    for (auto &t : threadlist) {
        t.join();
    }
}

/* ======================= memcpy2d_tests_common.hh ======================= */

typedef cudaError_t (*Memcpy2DFn)(void *, size_t, const void *, size_t, size_t, size_t, cudaMemcpyKind);

template <bool should_synchronize, bool unaligned = false, typename F>
void Memcpy2DDeviceToHostShell(F memcpy_func, const cudaStream_t kernel_stream = nullptr) {
    for (const auto kind : {cudaMemcpyDeviceToHost, cudaMemcpyDefault}) {
        constexpr size_t cols = 127;
        constexpr size_t rows = 128;

        LinearAllocGuard2D<int, unaligned> device_alloc(cols, rows);

        for (const size_t host_pitch : {device_alloc.width(), device_alloc.width() + 64}) {
            LinearAllocGuard<int> host_alloc(LinearAllocs::hipHostMalloc, host_pitch * rows);

            const dim3 threads_per_block(32, 32);
            const dim3 blocks(cols / threads_per_block.x + 1, rows / threads_per_block.y + 1);
            Iota<<<blocks, threads_per_block>>>(device_alloc.ptr(), device_alloc.pitch(),
                                                device_alloc.width_logical(), device_alloc.height(), 1);
            HIP_CHECK(cudaGetLastError());

            HIP_CHECK(memcpy_func(host_alloc.ptr(), host_pitch, device_alloc.ptr(), device_alloc.pitch(),
                                  device_alloc.width(), device_alloc.height(), kind));
            if constexpr (should_synchronize) {
                HIP_CHECK(cudaStreamSynchronize(kernel_stream));
            }

            constexpr auto f = [](size_t x, size_t y, size_t z) { return z * cols * rows + y * cols + x; };
            PitchedMemoryVerify(host_alloc.ptr(), host_pitch, device_alloc.width_logical(), device_alloc.height(), 1,
                                f);
        }
    }
}

template <bool should_synchronize, bool enable_peer_access, bool unaligned = false, typename F>
void Memcpy2DDeviceToDeviceShell(F memcpy_func, const cudaStream_t kernel_stream = nullptr) {
    const auto device_count = HipTest::getDeviceCount();
    for (const auto kind : {cudaMemcpyDeviceToDevice, cudaMemcpyDefault})
        for (int src_device = 0; src_device < device_count; src_device++)
            for (int dst_device = 0; dst_device < device_count; dst_device++)
                for (const size_t src_cols_mult : {1, 2}) {
                    constexpr size_t cols = 127;
                    constexpr size_t rows = 128;

                    if (device_count > 1) {
                        int can_access_peer = 0;
                        HIP_CHECK(cudaDeviceCanAccessPeer(&can_access_peer, src_device, dst_device));
                        if (!can_access_peer) {
                            std::string msg = "Skipped as peer access cannot be enabled between devices " +
                                              std::to_string(src_device) + " " + std::to_string(dst_device);
                            HipTest::HIP_SKIP_TEST(msg.c_str());
                            continue;
                        }
                    }

                    HIP_CHECK(cudaSetDevice(src_device));
                    if constexpr (enable_peer_access) {
                        if (src_device == dst_device) {
                            continue;
                        }
                        HIP_CHECK(cudaDeviceEnablePeerAccess(dst_device, 0));
                    }

                    {
                        LinearAllocGuard2D<int, unaligned> src_alloc(cols * src_cols_mult, rows);
                        HIP_CHECK(cudaSetDevice(dst_device));
                        LinearAllocGuard2D<int, unaligned> dst_alloc(cols, rows);
                        HIP_CHECK(cudaSetDevice(src_device));
                        LinearAllocGuard<int> host_alloc(LinearAllocs::hipHostMalloc, dst_alloc.width() * rows);

                        const dim3 threads_per_block(32, 32);
                        const dim3 blocks(cols / threads_per_block.x + 1, rows / threads_per_block.y + 1);
                        Iota<<<blocks, threads_per_block>>>(src_alloc.ptr(), src_alloc.pitch(),
                                                            dst_alloc.width_logical(), dst_alloc.height(), 1);
                        HIP_CHECK(cudaGetLastError());

                        HIP_CHECK(memcpy_func(dst_alloc.ptr(), dst_alloc.pitch(), src_alloc.ptr(), src_alloc.pitch(),
                                              dst_alloc.width(), dst_alloc.height(), kind));
                        if constexpr (should_synchronize) {
                            HIP_CHECK(cudaStreamSynchronize(kernel_stream));
                        }

                        HIP_CHECK(cudaMemcpy2D(host_alloc.ptr(), dst_alloc.width(), dst_alloc.ptr(), dst_alloc.pitch(),
                                               dst_alloc.width(), dst_alloc.height(), cudaMemcpyDeviceToHost));
                        constexpr auto f = [](size_t x, size_t y, size_t z) {
                            return z * cols * rows + y * cols + x;
                        };
                        PitchedMemoryVerify(host_alloc.ptr(), dst_alloc.width(), dst_alloc.width_logical(),
                                            dst_alloc.height(), 1, f);
                    }
                    if constexpr (enable_peer_access) {
                        HIP_CHECK(cudaDeviceDisablePeerAccess(dst_device)); /* the port's (see the header) */
                    }
                }
}

template <bool should_synchronize, bool unaligned = false, typename F>
void Memcpy2DHostToDeviceShell(F memcpy_func, const cudaStream_t kernel_stream = nullptr) {
    for (const auto kind : {cudaMemcpyHostToDevice, cudaMemcpyDefault}) {
        constexpr size_t cols = 127;
        constexpr size_t rows = 128;

        LinearAllocGuard2D<int, unaligned> device_alloc(cols, rows);

        for (const size_t host_pitch : {device_alloc.pitch(), 2 * device_alloc.pitch()}) {
            LinearAllocGuard<int> src_host_alloc(LinearAllocs::hipHostMalloc, host_pitch * rows);
            LinearAllocGuard<int> dst_host_alloc(LinearAllocs::hipHostMalloc, device_alloc.width() * rows);

            constexpr auto f = [](size_t x, size_t y, size_t z) { return z * cols * rows + y * cols + x; };
            PitchedMemorySet(src_host_alloc.ptr(), host_pitch, device_alloc.width_logical(), device_alloc.height(), 1,
                             f);

            std::fill_n(dst_host_alloc.ptr(), device_alloc.width_logical() * rows, 0);

            HIP_CHECK(memcpy_func(device_alloc.ptr(), device_alloc.pitch(), src_host_alloc.ptr(), host_pitch,
                                  device_alloc.width(), device_alloc.height(), kind));
            if constexpr (should_synchronize) {
                HIP_CHECK(cudaStreamSynchronize(kernel_stream));
            }

            HIP_CHECK(cudaMemcpy2D(dst_host_alloc.ptr(), device_alloc.width(), device_alloc.ptr(),
                                   device_alloc.pitch(), device_alloc.width(), device_alloc.height(),
                                   cudaMemcpyDeviceToHost));

            PitchedMemoryVerify(dst_host_alloc.ptr(), device_alloc.width(), device_alloc.width_logical(),
                                device_alloc.height(), 1, f);
        }
    }
}

template <bool should_synchronize, typename F>
void Memcpy2DHostToHostShell(F memcpy_func, const cudaStream_t kernel_stream = nullptr) {
    for (const auto kind : {cudaMemcpyHostToHost, cudaMemcpyDefault}) {
        constexpr size_t cols = 127;
        constexpr size_t rows = 128;

        for (const size_t src_pitch : {cols * sizeof(int), cols * sizeof(int) + 64}) {
            LinearAllocGuard<int> src_host(LinearAllocs::hipHostMalloc, src_pitch * rows);
            LinearAllocGuard<int> dst_host(LinearAllocs::hipHostMalloc, cols * sizeof(int) * rows);

            constexpr auto f = [](size_t x, size_t y, size_t z) { return z * cols * rows + y * cols + x; };
            PitchedMemorySet(src_host.ptr(), src_pitch, cols, rows, 1, f);

            HIP_CHECK(memcpy_func(dst_host.ptr(), cols * sizeof(int), src_host.ptr(), src_pitch, cols * sizeof(int),
                                  rows, kind));
            if constexpr (should_synchronize) {
                HIP_CHECK(cudaStreamSynchronize(kernel_stream));
            }

            PitchedMemoryVerify(dst_host.ptr(), cols * sizeof(int), cols, rows, 1, f);
        }
    }
}

template <typename F>
void MemcpySyncBehaviorCheck(F memcpy_func, const bool should_sync, const cudaStream_t kernel_stream) {
    LaunchDelayKernel(std::chrono::milliseconds{300}, kernel_stream);
    HIP_CHECK(memcpy_func());
    if (should_sync) {
        HIP_CHECK(cudaStreamSynchronize(kernel_stream));
        HIP_CHECK(cudaStreamQuery(kernel_stream));
    } else {
        HIP_CHECK_ERROR(cudaStreamQuery(kernel_stream), cudaErrorNotReady);
    }
}

template <bool unaligned = false, typename F>
void Memcpy2DHtoDSyncBehavior(F memcpy_func, const bool should_sync, const cudaStream_t kernel_stream = nullptr) {
    using LA = LinearAllocs;
    for (const auto host_alloc_type : {LA::malloc, LA::hipHostMalloc}) {
        LinearAllocGuard<int> host_alloc(host_alloc_type, 32 * sizeof(int) * 32);
        LinearAllocGuard2D<int, unaligned> device_alloc(32, 32);
        MemcpySyncBehaviorCheck(std::bind(memcpy_func, device_alloc.ptr(), device_alloc.pitch(), host_alloc.ptr(),
                                          device_alloc.width(), device_alloc.width(), device_alloc.height(),
                                          cudaMemcpyHostToDevice),
                                should_sync, kernel_stream);
    }
}

template <bool unaligned = false, typename F>
void Memcpy2DDtoHPageableSyncBehavior(F memcpy_func, const bool should_sync,
                                      const cudaStream_t kernel_stream = nullptr) {
    LinearAllocGuard<int> host_alloc(LinearAllocs::malloc, 32 * sizeof(int) * 32);
    LinearAllocGuard2D<int, unaligned> device_alloc(32, 32);
    MemcpySyncBehaviorCheck(std::bind(memcpy_func, host_alloc.ptr(), device_alloc.width(), device_alloc.ptr(),
                                      device_alloc.pitch(), device_alloc.width(), device_alloc.height(),
                                      cudaMemcpyDeviceToHost),
                            should_sync, kernel_stream);
}

template <bool unaligned = false, typename F>
void Memcpy2DDtoHPinnedSyncBehavior(F memcpy_func, const bool should_sync,
                                    const cudaStream_t kernel_stream = nullptr) {
    LinearAllocGuard<int> host_alloc(LinearAllocs::hipHostMalloc, 32 * sizeof(int) * 32);
    LinearAllocGuard2D<int, unaligned> device_alloc(32, 32);
    MemcpySyncBehaviorCheck(std::bind(memcpy_func, host_alloc.ptr(), device_alloc.width(), device_alloc.ptr(),
                                      device_alloc.pitch(), device_alloc.width(), device_alloc.height(),
                                      cudaMemcpyDeviceToHost),
                            should_sync, kernel_stream);
}

template <bool unaligned = false, typename F>
void Memcpy2DDtoDSyncBehavior(F memcpy_func, const bool should_sync, const cudaStream_t kernel_stream = nullptr) {
    LinearAllocGuard2D<int, unaligned> src_alloc(32, 32);
    LinearAllocGuard2D<int, unaligned> dst_alloc(32, 32);
    MemcpySyncBehaviorCheck(std::bind(memcpy_func, dst_alloc.ptr(), dst_alloc.pitch(), src_alloc.ptr(),
                                      src_alloc.pitch(), dst_alloc.width(), dst_alloc.height(),
                                      cudaMemcpyDeviceToDevice),
                            should_sync, kernel_stream);
}

template <typename F>
void Memcpy2DHtoHSyncBehavior(F memcpy_func, const bool should_sync, const cudaStream_t kernel_stream = nullptr) {
    using LA = LinearAllocs;
    for (const auto src_alloc_type : {LA::malloc, LA::hipHostMalloc})
        for (const auto dst_alloc_type : {LA::malloc, LA::hipHostMalloc}) {
            LinearAllocGuard<int> src_alloc(src_alloc_type, 32 * sizeof(int) * 32);
            LinearAllocGuard<int> dst_alloc(dst_alloc_type, 32 * sizeof(int) * 32);
            MemcpySyncBehaviorCheck(std::bind(memcpy_func, dst_alloc.ptr(), 32 * sizeof(int), src_alloc.ptr(),
                                              32 * sizeof(int), 32 * sizeof(int), 32, cudaMemcpyHostToHost),
                                    should_sync, kernel_stream);
        }
}

template <bool should_synchronize, bool unaligned = false, typename F>
void Memcpy2DZeroWidthHeight(F memcpy_func, const cudaStream_t stream = nullptr) {
    constexpr size_t cols = 63;
    constexpr size_t rows = 64;

    for (const auto mults : {std::make_pair(0, 1), std::make_pair(1, 0), std::make_pair(0, 0)}) {
        const int width_mult = mults.first, height_mult = mults.second;
        RunSections([&] {
            SECTION("Device to Host") {
                LinearAllocGuard2D<uint8_t, unaligned> device_alloc(cols, rows);
                LinearAllocGuard<uint8_t> host_alloc(LinearAllocs::hipHostMalloc, device_alloc.width() * rows);
                std::fill_n(host_alloc.ptr(), device_alloc.width_logical() * device_alloc.height(), 42);
                HIP_CHECK(cudaMemset2D(device_alloc.ptr(), device_alloc.pitch(), 1, device_alloc.width(),
                                       device_alloc.height()));

                HIP_CHECK(memcpy_func(host_alloc.ptr(), device_alloc.width(), device_alloc.ptr(), device_alloc.pitch(),
                                      device_alloc.width() * width_mult, device_alloc.height() * height_mult,
                                      cudaMemcpyDeviceToHost));
                if constexpr (should_synchronize) {
                    HIP_CHECK(cudaStreamSynchronize(stream));
                }
                ArrayFindIfNot(host_alloc.ptr(), static_cast<uint8_t>(42),
                               device_alloc.width_logical() * device_alloc.height());
            }

            SECTION("Device to Device") {
                LinearAllocGuard2D<uint8_t, unaligned> src_alloc(cols, rows);
                LinearAllocGuard2D<uint8_t, unaligned> dst_alloc(cols, rows);
                LinearAllocGuard<uint8_t> host_alloc(LinearAllocs::hipHostMalloc, dst_alloc.width() * rows);
                HIP_CHECK(cudaMemset2D(src_alloc.ptr(), src_alloc.pitch(), 1, src_alloc.width(), src_alloc.height()));
                HIP_CHECK(
                    cudaMemset2D(dst_alloc.ptr(), dst_alloc.pitch(), 42, dst_alloc.width(), dst_alloc.height()));
                HIP_CHECK(memcpy_func(dst_alloc.ptr(), dst_alloc.pitch(), src_alloc.ptr(), src_alloc.pitch(),
                                      dst_alloc.width() * width_mult, dst_alloc.height() * height_mult,
                                      cudaMemcpyDeviceToDevice));
                if constexpr (should_synchronize) {
                    HIP_CHECK(cudaStreamSynchronize(stream));
                }
                HIP_CHECK(cudaMemcpy2D(host_alloc.ptr(), dst_alloc.width(), dst_alloc.ptr(), dst_alloc.pitch(),
                                       dst_alloc.width(), dst_alloc.height(), cudaMemcpyDeviceToHost));
                ArrayFindIfNot(host_alloc.ptr(), static_cast<uint8_t>(42),
                               dst_alloc.width_logical() * dst_alloc.height());
            }

            SECTION("Host to Device") {
                LinearAllocGuard2D<uint8_t, unaligned> device_alloc(cols, rows);
                LinearAllocGuard<uint8_t> src_host_alloc(LinearAllocs::hipHostMalloc, device_alloc.width() * rows);
                LinearAllocGuard<uint8_t> dst_host_alloc(LinearAllocs::hipHostMalloc, device_alloc.width() * rows);
                std::fill_n(src_host_alloc.ptr(), device_alloc.width_logical() * device_alloc.height(), 1);
                HIP_CHECK(cudaMemset2D(device_alloc.ptr(), device_alloc.pitch(), 42, device_alloc.width(),
                                       device_alloc.height()));
                HIP_CHECK(memcpy_func(device_alloc.ptr(), device_alloc.pitch(), src_host_alloc.ptr(),
                                      device_alloc.width(), device_alloc.width() * width_mult,
                                      device_alloc.height() * height_mult, cudaMemcpyHostToDevice));
                if constexpr (should_synchronize) {
                    HIP_CHECK(cudaStreamSynchronize(stream));
                }
                HIP_CHECK(cudaMemcpy2D(dst_host_alloc.ptr(), device_alloc.width(), device_alloc.ptr(),
                                       device_alloc.pitch(), device_alloc.width(), device_alloc.height(),
                                       cudaMemcpyDeviceToHost));
                ArrayFindIfNot(dst_host_alloc.ptr(), static_cast<uint8_t>(42),
                               device_alloc.width_logical() * device_alloc.height());
            }

            SECTION("Host to Host") {
                const auto alloc_size = cols * rows;
                LinearAllocGuard<uint8_t> src_alloc(LinearAllocs::hipHostMalloc, alloc_size);
                LinearAllocGuard<uint8_t> dst_alloc(LinearAllocs::hipHostMalloc, alloc_size);
                std::fill_n(src_alloc.ptr(), alloc_size, 1);
                std::fill_n(dst_alloc.ptr(), alloc_size, 42);
                HIP_CHECK(memcpy_func(dst_alloc.ptr(), cols, src_alloc.ptr(), cols, cols * width_mult,
                                      rows * height_mult, cudaMemcpyHostToHost));
                if constexpr (should_synchronize) {
                    HIP_CHECK(cudaStreamSynchronize(stream));
                }
                ArrayFindIfNot(dst_alloc.ptr(), static_cast<uint8_t>(42), alloc_size);
            }
        });
    }
}

/* ======================= hipMemcpy2D.cc ======================= */

static void Unit_hipMemcpy2D_Positive_Basic() {
    constexpr bool async = false;
    RunSections([] {
        SECTION("Device to Host") { Memcpy2DDeviceToHostShell<async>(cudaMemcpy2D); }
        SECTION("Device to Device / Peer access disabled") {
            Memcpy2DDeviceToDeviceShell<async, false>(cudaMemcpy2D);
        }
        SECTION("Device to Device / Peer access enabled") { Memcpy2DDeviceToDeviceShell<async, true>(cudaMemcpy2D); }
        SECTION("Host to Device") { Memcpy2DHostToDeviceShell<async>(cudaMemcpy2D); }
        SECTION("Host to Host") { Memcpy2DHostToHostShell<async>(cudaMemcpy2D); }
    });
}

static void Unit_hipMemcpy2D_Positive_Synchronization_Behavior() {
    HIP_CHECK(cudaDeviceSynchronize());
    RunSections([] {
        SECTION("Host to Device") { Memcpy2DHtoDSyncBehavior(cudaMemcpy2D, true); }
        SECTION("Device to Host") {
            Memcpy2DDtoHPageableSyncBehavior(cudaMemcpy2D, true);
            Memcpy2DDtoHPinnedSyncBehavior(cudaMemcpy2D, true);
        }
        SECTION("Device to Device") { Memcpy2DDtoDSyncBehavior(cudaMemcpy2D, false); }
        SECTION("Host to Host") { Memcpy2DHtoHSyncBehavior(cudaMemcpy2D, true); }
    });
}

static void Unit_hipMemcpy2D_Positive_Parameters() {
    constexpr bool async = false;
    Memcpy2DZeroWidthHeight<async>(cudaMemcpy2D);
}

static void Unit_hipMemcpy2D_Negative_Parameters() {
    constexpr size_t cols = 128;
    constexpr size_t rows = 128;

    /* The tests of one direction, each a section of the test case (the outer sections are the loop below). */
    constexpr auto NegativeTests = [](int test, void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                      size_t height, cudaMemcpyKind kind) {
        switch (test) {
        case 0: /* dst == nullptr */
            HIP_CHECK_ERROR(cudaMemcpy2D(nullptr, dpitch, src, spitch, width, height, kind), cudaErrorInvalidValue);
            break;
        case 1: /* src == nullptr */
            HIP_CHECK_ERROR(cudaMemcpy2D(dst, dpitch, nullptr, spitch, width, height, kind), cudaErrorInvalidValue);
            break;
        case 2: /* dpitch < width */
            HIP_CHECK_ERROR(cudaMemcpy2D(dst, width - 1, src, spitch, width, height, kind),
                            cudaErrorInvalidPitchValue);
            break;
        case 3: /* spitch < width */
            HIP_CHECK_ERROR(cudaMemcpy2D(dst, dpitch, src, width - 1, width, height, kind),
                            cudaErrorInvalidPitchValue);
            break;
        case 4: { /* dpitch > max pitch */
            int attr = 0;
            HIP_CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrMaxPitch, 0));
            HIP_CHECK_ERROR(cudaMemcpy2D(dst, static_cast<size_t>(attr) + 1, src, spitch, width, height, kind),
                            cudaErrorInvalidValue);
            break;
        }
        case 5: { /* spitch > max pitch */
            int attr = 0;
            HIP_CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrMaxPitch, 0));
            HIP_CHECK_ERROR(cudaMemcpy2D(dst, dpitch, src, static_cast<size_t>(attr) + 1, width, height, kind),
                            cudaErrorInvalidValue);
            break;
        }
        case 6: /* Invalid MemcpyKind */
            HIP_CHECK_ERROR(cudaMemcpy2D(dst, dpitch, src, spitch, width, height, static_cast<cudaMemcpyKind>(-1)),
                            cudaErrorInvalidMemcpyDirection);
            break;
        }
    };

    for (int test = 0; test < 7; test++) {
        RunSections([&] {
            SECTION("Host to Device") {
                LinearAllocGuard2D<int> device_alloc(cols, rows);
                LinearAllocGuard<int> host_alloc(LinearAllocs::hipHostMalloc, device_alloc.pitch() * rows);
                NegativeTests(test, device_alloc.ptr(), device_alloc.pitch(), host_alloc.ptr(), device_alloc.pitch(),
                              device_alloc.width(), device_alloc.height(), cudaMemcpyHostToDevice);
            }
            SECTION("Device to Host") {
                LinearAllocGuard2D<int> device_alloc(cols, rows);
                LinearAllocGuard<int> host_alloc(LinearAllocs::hipHostMalloc, device_alloc.pitch() * rows);
                NegativeTests(test, host_alloc.ptr(), device_alloc.pitch(), device_alloc.ptr(), device_alloc.pitch(),
                              device_alloc.width(), device_alloc.height(), cudaMemcpyDeviceToHost);
            }
            SECTION("Host to Host") {
                LinearAllocGuard<int> src_alloc(LinearAllocs::hipHostMalloc, cols * rows * sizeof(int));
                LinearAllocGuard<int> dst_alloc(LinearAllocs::hipHostMalloc, cols * rows * sizeof(int));
                NegativeTests(test, dst_alloc.ptr(), cols * sizeof(int), src_alloc.ptr(), cols * sizeof(int),
                              cols * sizeof(int), rows, cudaMemcpyHostToHost);
            }
            SECTION("Device to Device") {
                LinearAllocGuard2D<int> src_alloc(cols, rows);
                LinearAllocGuard2D<int> dst_alloc(cols, rows);
                NegativeTests(test, dst_alloc.ptr(), dst_alloc.pitch(), src_alloc.ptr(), src_alloc.pitch(),
                              dst_alloc.width(), dst_alloc.height(), cudaMemcpyDeviceToDevice);
            }
        });
    }
}

/* ======================= hipMemcpy2DAsync.cc ======================= */

using namespace std::placeholders;

static void Unit_hipMemcpy2DAsync_Positive_Basic() {
    constexpr bool async = true;
    for (const auto stream_type : {Streams::nullstream, Streams::perThread, Streams::created}) {
        RunSections([&] {
            const StreamGuard stream_guard(stream_type);
            const cudaStream_t stream = stream_guard.stream();

            SECTION("Device to Host") {
                Memcpy2DDeviceToHostShell<async>(std::bind(cudaMemcpy2DAsync, _1, _2, _3, _4, _5, _6, _7, stream),
                                                 stream);
            }
            SECTION("Device to Device / Peer access disabled") {
                Memcpy2DDeviceToDeviceShell<async, false>(
                    std::bind(cudaMemcpy2DAsync, _1, _2, _3, _4, _5, _6, _7, stream), stream);
            }
            SECTION("Device to Device / Peer access enabled") {
                Memcpy2DDeviceToDeviceShell<async, true>(
                    std::bind(cudaMemcpy2DAsync, _1, _2, _3, _4, _5, _6, _7, stream), stream);
            }
            SECTION("Host to Device") {
                Memcpy2DHostToDeviceShell<async>(std::bind(cudaMemcpy2DAsync, _1, _2, _3, _4, _5, _6, _7, stream),
                                                 stream);
            }
            SECTION("Host to Host") {
                Memcpy2DHostToHostShell<async>(std::bind(cudaMemcpy2DAsync, _1, _2, _3, _4, _5, _6, _7, stream),
                                               stream);
            }
        });
    }
}

static void Unit_hipMemcpy2DAsync_Positive_Synchronization_Behavior() {
    HIP_CHECK(cudaDeviceSynchronize());
    const cudaStream_t null_stream = nullptr;
    RunSections([&] {
        SECTION("Host to Device") {
            Memcpy2DHtoDSyncBehavior(std::bind(cudaMemcpy2DAsync, _1, _2, _3, _4, _5, _6, _7, null_stream), false);
        }
        SECTION("Device to Pageable Host") {
            Memcpy2DDtoHPageableSyncBehavior(std::bind(cudaMemcpy2DAsync, _1, _2, _3, _4, _5, _6, _7, null_stream),
                                             true);
        }
        SECTION("Device to Pinned Host") {
            Memcpy2DDtoHPinnedSyncBehavior(std::bind(cudaMemcpy2DAsync, _1, _2, _3, _4, _5, _6, _7, null_stream),
                                           false);
        }
        SECTION("Device to Device") {
            Memcpy2DDtoDSyncBehavior(std::bind(cudaMemcpy2DAsync, _1, _2, _3, _4, _5, _6, _7, null_stream), false);
        }
        SECTION("Host to Host") {
            Memcpy2DHtoHSyncBehavior(std::bind(cudaMemcpy2DAsync, _1, _2, _3, _4, _5, _6, _7, null_stream), true);
        }
    });
}

static void Unit_hipMemcpy2DAsync_Positive_Parameters() {
    constexpr bool async = true;
    const cudaStream_t null_stream = nullptr;
    Memcpy2DZeroWidthHeight<async>(std::bind(cudaMemcpy2DAsync, _1, _2, _3, _4, _5, _6, _7, null_stream));
}

static void Unit_hipMemcpy2DAsync_Negative_Parameters() {
    constexpr size_t cols = 128;
    constexpr size_t rows = 128;

    constexpr auto NegativeTests = [](int test, void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                      size_t height, cudaMemcpyKind kind) {
        switch (test) {
        case 0: /* dst == nullptr */
            HIP_CHECK_ERROR(cudaMemcpy2DAsync(nullptr, dpitch, src, spitch, width, height, kind, nullptr),
                            cudaErrorInvalidValue);
            break;
        case 1: /* src == nullptr */
            HIP_CHECK_ERROR(cudaMemcpy2DAsync(dst, dpitch, nullptr, spitch, width, height, kind, nullptr),
                            cudaErrorInvalidValue);
            break;
        case 2: /* dpitch < width */
            HIP_CHECK_ERROR(cudaMemcpy2DAsync(dst, width - 1, src, spitch, width, height, kind, nullptr),
                            cudaErrorInvalidPitchValue);
            break;
        case 3: /* spitch < width */
            HIP_CHECK_ERROR(cudaMemcpy2DAsync(dst, dpitch, src, width - 1, width, height, kind, nullptr),
                            cudaErrorInvalidPitchValue);
            break;
        case 4: { /* dpitch > max pitch */
            int attr = 0;
            HIP_CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrMaxPitch, 0));
            HIP_CHECK_ERROR(
                cudaMemcpy2DAsync(dst, static_cast<size_t>(attr) + 1, src, spitch, width, height, kind, nullptr),
                cudaErrorInvalidValue);
            break;
        }
        case 5: { /* spitch > max pitch */
            int attr = 0;
            HIP_CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrMaxPitch, 0));
            HIP_CHECK_ERROR(
                cudaMemcpy2DAsync(dst, dpitch, src, static_cast<size_t>(attr) + 1, width, height, kind, nullptr),
                cudaErrorInvalidValue);
            break;
        }
        case 6: /* Invalid MemcpyKind */
            HIP_CHECK_ERROR(cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height,
                                              static_cast<cudaMemcpyKind>(-1), nullptr),
                            cudaErrorInvalidMemcpyDirection);
            break;
        case 7: { /* Invalid stream */
            StreamGuard stream_guard(Streams::created);
            HIP_CHECK(cudaStreamDestroy(stream_guard.stream()));
            HIP_CHECK_ERROR(
                cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, stream_guard.stream()),
                cudaErrorInvalidResourceHandle); /* upstream (HT_NVIDIA): cudaErrorContextIsDestroyed; see the header */
            break;
        }
        }
    };

    for (int test = 0; test < 8; test++) {
        RunSections([&] {
            SECTION("Host to device") {
                LinearAllocGuard2D<int> device_alloc(cols, rows);
                LinearAllocGuard<int> host_alloc(LinearAllocs::hipHostMalloc, device_alloc.pitch() * rows);
                NegativeTests(test, device_alloc.ptr(), device_alloc.pitch(), host_alloc.ptr(), device_alloc.pitch(),
                              device_alloc.width(), device_alloc.height(), cudaMemcpyHostToDevice);
            }
            SECTION("Device to host") {
                LinearAllocGuard2D<int> device_alloc(cols, rows);
                LinearAllocGuard<int> host_alloc(LinearAllocs::hipHostMalloc, device_alloc.pitch() * rows);
                NegativeTests(test, host_alloc.ptr(), device_alloc.pitch(), device_alloc.ptr(), device_alloc.pitch(),
                              device_alloc.width(), device_alloc.height(), cudaMemcpyDeviceToHost);
            }
            SECTION("Host to host") {
                LinearAllocGuard<int> src_alloc(LinearAllocs::hipHostMalloc, cols * rows * sizeof(int));
                LinearAllocGuard<int> dst_alloc(LinearAllocs::hipHostMalloc, cols * rows * sizeof(int));
                NegativeTests(test, dst_alloc.ptr(), cols * sizeof(int), src_alloc.ptr(), cols * sizeof(int),
                              cols * sizeof(int), rows, cudaMemcpyHostToHost);
            }
            SECTION("Device to device") {
                LinearAllocGuard2D<int> src_alloc(cols, rows);
                LinearAllocGuard2D<int> dst_alloc(cols, rows);
                NegativeTests(test, dst_alloc.ptr(), dst_alloc.pitch(), src_alloc.ptr(), src_alloc.pitch(),
                              dst_alloc.width(), dst_alloc.height(), cudaMemcpyDeviceToDevice);
            }
        });
    }
}

template <typename TestType> static void Unit_hipMemcpy2DAsync_capturehipMemcpy2DAsync() {
    for (const int row : {3, 4, 100})
        for (const int col : {3, 4, 100}) {
            TestType *A_h, *B_h, *A_d;
            cudaGraph_t graph{nullptr};
            cudaGraphExec_t graphExec{nullptr};
            cudaStream_t stream;
            size_t devPitch;

            A_h = reinterpret_cast<TestType *>(malloc(sizeof(TestType) * row * col));
            B_h = reinterpret_cast<TestType *>(malloc(sizeof(TestType) * row * col));
            HIP_CHECK(cudaStreamCreate(&stream));
            for (int i = 0; i < row; i++) {
                for (int j = 0; j < col; j++) {
                    B_h[i * col + j] = i * col + j;
                }
            }
            HIP_CHECK(cudaMallocPitch(reinterpret_cast<void **>(&A_d), &devPitch, sizeof(TestType) * col, row));
            HIP_CHECK(cudaMemcpy2D(A_d, devPitch, B_h, sizeof(TestType) * col, sizeof(TestType) * col, row,
                                   cudaMemcpyHostToDevice));

            HIP_CHECK(cudaDeviceSynchronize());
            HIP_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
            HIP_CHECK(cudaMemcpy2DAsync(A_h, col * sizeof(TestType), A_d, devPitch, col * sizeof(TestType), row,
                                        cudaMemcpyDeviceToHost, stream));
            HIP_CHECK(cudaStreamEndCapture(stream, &graph));
            HIP_CHECK(cudaDeviceSynchronize());

            HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, nullptr, nullptr, 0));
            HIP_CHECK(cudaGraphLaunch(graphExec, stream));
            HIP_CHECK(cudaStreamSynchronize(stream));

            for (int i = 0; i < row; i++) {
                for (int j = 0; j < col; j++) {
                    REQUIRE(A_h[i * col + j] == B_h[i * col + j]);
                }
            }
            HIP_CHECK(cudaGraphExecDestroy(graphExec));
            HIP_CHECK(cudaGraphDestroy(graph));
            HIP_CHECK(cudaStreamDestroy(stream));
            HIP_CHECK(cudaFree(A_d));
            free(A_h);
            free(B_h);
        }
}

/* ======================= memcpy3d_tests_common.hh ======================= */

template <typename T> class LinearAllocGuard3D : public LinearAllocGuardMultiDim<T> {
  public:
    LinearAllocGuard3D(const size_t width_logical, const size_t height, const size_t depth)
        : LinearAllocGuardMultiDim<T>{make_cudaExtent(width_logical * sizeof(T), height, depth)} {
        HIP_CHECK(cudaMalloc3D(&this->pitched_ptr_, this->extent_));
    }
    LinearAllocGuard3D(const cudaExtent extent) : LinearAllocGuardMultiDim<T>(extent) {
        HIP_CHECK(cudaMalloc3D(&this->pitched_ptr_, this->extent_));
    }
    LinearAllocGuard3D(const LinearAllocGuard3D &) = delete;
    size_t depth() const { return this->extent_.depth; }
};

/* hip_test_common.hh's BlockingContext: a stream callback that spins until the host unblocks it. */
namespace HipTest {
class BlockingContext {
    std::atomic_bool blocked{true};
    cudaStream_t stream;

  public:
    BlockingContext(cudaStream_t s) : blocked(true), stream(s) {}
    void block_stream() {
        blocked = true;
        auto blocking_callback = [](cudaStream_t, cudaError_t, void *data) {
            auto blocked = reinterpret_cast<std::atomic_bool *>(data);
            while (blocked->load()) {
                std::this_thread::yield();
            }
        };
        HIP_CHECK(cudaStreamAddCallback(stream, blocking_callback, (void *)&blocked, 0));
    }
    void unblock_stream() { blocked = false; }
    bool is_blocked() const { return cudaStreamQuery(stream) == cudaErrorNotReady; }
};
} // namespace HipTest

static inline cudaMemcpy3DParms GetMemcpy3DParms(cudaPitchedPtr dst_ptr, cudaPos dst_pos, cudaPitchedPtr src_ptr,
                                                 cudaPos src_pos, cudaExtent extent, cudaMemcpyKind kind) {
    cudaMemcpy3DParms parms = {};
    parms.dstPtr = dst_ptr;
    parms.dstPos = dst_pos;
    parms.srcPtr = src_ptr;
    parms.srcPos = src_pos;
    parms.extent = extent;
    parms.kind = kind;
    return parms;
}

template <bool async = false>
cudaError_t Memcpy3DWrapper(cudaPitchedPtr dst_ptr, cudaPos dst_pos, cudaPitchedPtr src_ptr, cudaPos src_pos,
                            cudaExtent extent, cudaMemcpyKind kind, cudaStream_t stream = nullptr) {
    auto parms = GetMemcpy3DParms(dst_ptr, dst_pos, src_ptr, src_pos, extent, kind);
    if constexpr (async) {
        return cudaMemcpy3DAsync(&parms, stream);
    } else {
        return cudaMemcpy3D(&parms);
    }
}

static constexpr cudaExtent kExtent3D{127 * sizeof(int), 128, 8};
static size_t Iota3D(size_t x, size_t y, size_t z) {
    constexpr auto width_logical = kExtent3D.width / sizeof(int);
    return z * width_logical * kExtent3D.height + y * width_logical + x;
}

template <bool should_synchronize, typename F>
void Memcpy3DDeviceToHostShell(F memcpy_func, const cudaStream_t kernel_stream = nullptr) {
    for (const auto kind : {cudaMemcpyDeviceToHost, cudaMemcpyDefault}) {
        LinearAllocGuard3D<int> device_alloc(kExtent3D);
        for (const size_t host_pitch : {device_alloc.width(), device_alloc.width() + 64}) {
            LinearAllocGuard<int> host_alloc(LinearAllocs::hipHostMalloc,
                                             host_pitch * device_alloc.height() * device_alloc.depth());
            const dim3 threads_per_block(32, 32);
            const dim3 blocks(device_alloc.width_logical() / threads_per_block.x + 1,
                              device_alloc.height() / threads_per_block.y + 1, device_alloc.depth());
            Iota<<<blocks, threads_per_block>>>(device_alloc.ptr(), device_alloc.pitch(),
                                                device_alloc.width_logical(), device_alloc.height(),
                                                device_alloc.depth());
            HIP_CHECK(cudaGetLastError());
            HIP_CHECK(memcpy_func(
                make_cudaPitchedPtr(host_alloc.ptr(), host_pitch, device_alloc.width(), device_alloc.height()),
                make_cudaPos(0, 0, 0), device_alloc.pitched_ptr(), make_cudaPos(0, 0, 0), device_alloc.extent(),
                kind, kernel_stream));
            if constexpr (should_synchronize) {
                HIP_CHECK(cudaStreamSynchronize(kernel_stream));
            }
            PitchedMemoryVerify(host_alloc.ptr(), host_pitch, device_alloc.width_logical(), device_alloc.height(),
                                device_alloc.depth(), Iota3D);
        }
    }
}

template <bool should_synchronize, bool enable_peer_access, typename F>
void Memcpy3DDeviceToDeviceShell(F memcpy_func, cudaStream_t kernel_stream = nullptr) {
    const auto device_count = HipTest::getDeviceCount();
    for (const auto kind : {cudaMemcpyDeviceToDevice, cudaMemcpyDefault})
        for (int src_device = 0; src_device < device_count; src_device++)
            for (int dst_device = 0; dst_device < device_count; dst_device++) {
                HIP_CHECK(cudaSetDevice(src_device));
                if (device_count > 0 && kernel_stream != nullptr && kernel_stream != cudaStreamPerThread) {
                    HIP_CHECK(cudaStreamCreate(&kernel_stream));
                }
                if constexpr (enable_peer_access) {
                    if (src_device == dst_device) {
                        continue;
                    }
                    int can_access_peer = 0;
                    HIP_CHECK(cudaDeviceCanAccessPeer(&can_access_peer, src_device, dst_device));
                    if (!can_access_peer) {
                        std::string msg = "Skipped as peer access cannot be enabled between devices " +
                                          std::to_string(src_device) + " " + std::to_string(dst_device);
                        HipTest::HIP_SKIP_TEST(msg.c_str());
                        continue;
                    }
                    HIP_CHECK(cudaDeviceEnablePeerAccess(dst_device, 0));
                }
                {
                    LinearAllocGuard3D<int> src_alloc(kExtent3D);
                    HIP_CHECK(cudaSetDevice(src_device));
                    LinearAllocGuard3D<int> dst_alloc(kExtent3D);
                    HIP_CHECK(cudaSetDevice(src_device));
                    LinearAllocGuard<int> host_alloc(LinearAllocs::hipHostMalloc,
                                                     dst_alloc.width() * dst_alloc.height() * dst_alloc.depth());
                    const dim3 threads_per_block(32, 32);
                    const dim3 blocks(dst_alloc.width_logical() / threads_per_block.x + 1,
                                      dst_alloc.height() / threads_per_block.y + 1, dst_alloc.depth());
                    Iota<<<blocks, threads_per_block, 0, kernel_stream>>>(
                        src_alloc.ptr(), src_alloc.pitch(), dst_alloc.width_logical(), dst_alloc.height(),
                        dst_alloc.depth());
                    HIP_CHECK(cudaGetLastError());
                    HIP_CHECK(memcpy_func(dst_alloc.pitched_ptr(), make_cudaPos(0, 0, 0), src_alloc.pitched_ptr(),
                                          make_cudaPos(0, 0, 0), dst_alloc.extent(), kind, kernel_stream));
                    if constexpr (should_synchronize) {
                        HIP_CHECK(cudaStreamSynchronize(kernel_stream));
                    }
                    if (device_count > 0 && kernel_stream != nullptr && kernel_stream != cudaStreamPerThread) {
                        HIP_CHECK(cudaStreamDestroy(kernel_stream));
                    }
                    HIP_CHECK(Memcpy3DWrapper(
                        make_cudaPitchedPtr(host_alloc.ptr(), dst_alloc.width(), dst_alloc.width(), dst_alloc.height()),
                        make_cudaPos(0, 0, 0), dst_alloc.pitched_ptr(), make_cudaPos(0, 0, 0), dst_alloc.extent(),
                        cudaMemcpyDeviceToHost));
                    PitchedMemoryVerify(host_alloc.ptr(), dst_alloc.width(), dst_alloc.width_logical(),
                                        dst_alloc.height(), dst_alloc.depth(), Iota3D);
                }
                if constexpr (enable_peer_access) {
                    HIP_CHECK(cudaDeviceDisablePeerAccess(dst_device)); /* the port's (see the header) */
                }
            }
}

template <bool should_synchronize, typename F>
void Memcpy3DHostToDeviceShell(F memcpy_func, const cudaStream_t kernel_stream = nullptr) {
    for (const auto kind : {cudaMemcpyHostToDevice, cudaMemcpyDefault}) {
        LinearAllocGuard3D<int> device_alloc(kExtent3D);
        for (const size_t host_pitch : {device_alloc.pitch(), 2 * device_alloc.pitch()}) {
            LinearAllocGuard<int> src_host_alloc(LinearAllocs::hipHostMalloc,
                                                 host_pitch * device_alloc.height() * device_alloc.depth());
            LinearAllocGuard<int> dst_host_alloc(LinearAllocs::hipHostMalloc, device_alloc.width() *
                                                                                  device_alloc.height() *
                                                                                  device_alloc.depth());
            PitchedMemorySet(src_host_alloc.ptr(), host_pitch, device_alloc.width_logical(), device_alloc.height(),
                             device_alloc.depth(), Iota3D);
            std::fill_n(dst_host_alloc.ptr(),
                        device_alloc.width_logical() * device_alloc.height() * device_alloc.depth(), 0);
            HIP_CHECK(memcpy_func(device_alloc.pitched_ptr(), make_cudaPos(0, 0, 0),
                                  make_cudaPitchedPtr(src_host_alloc.ptr(), host_pitch, device_alloc.width(),
                                                      device_alloc.height()),
                                  make_cudaPos(0, 0, 0), device_alloc.extent(), kind, kernel_stream));
            if constexpr (should_synchronize) {
                HIP_CHECK(cudaStreamSynchronize(kernel_stream));
            }
            HIP_CHECK(Memcpy3DWrapper(make_cudaPitchedPtr(dst_host_alloc.ptr(), device_alloc.width(),
                                                          device_alloc.width(), device_alloc.height()),
                                      make_cudaPos(0, 0, 0), device_alloc.pitched_ptr(), make_cudaPos(0, 0, 0),
                                      device_alloc.extent(), cudaMemcpyDeviceToHost));
            PitchedMemoryVerify(dst_host_alloc.ptr(), device_alloc.width(), device_alloc.width_logical(),
                                device_alloc.height(), device_alloc.depth(), Iota3D);
        }
    }
}

template <bool should_synchronize, typename F>
void Memcpy3DHostToHostShell(F memcpy_func, const cudaStream_t kernel_stream = nullptr) {
    constexpr cudaExtent extent = kExtent3D;
    for (const auto kind : {cudaMemcpyHostToHost, cudaMemcpyDefault})
        for (const size_t padding : {0, 64}) {
            const size_t src_pitch = extent.width + padding;
            LinearAllocGuard<int> src_host(LinearAllocs::hipHostMalloc, src_pitch * extent.height * extent.depth);
            LinearAllocGuard<int> dst_host(LinearAllocs::hipHostMalloc, extent.width * extent.height * extent.depth);
            PitchedMemorySet(src_host.ptr(), src_pitch, extent.width / sizeof(int), extent.height, extent.depth,
                             Iota3D);
            HIP_CHECK(memcpy_func(make_cudaPitchedPtr(dst_host.ptr(), extent.width, extent.width, extent.height),
                                  make_cudaPos(0, 0, 0),
                                  make_cudaPitchedPtr(src_host.ptr(), src_pitch, extent.width, extent.height),
                                  make_cudaPos(0, 0, 0), extent, kind, kernel_stream));
            if constexpr (should_synchronize) {
                HIP_CHECK(cudaStreamSynchronize(kernel_stream));
            }
            PitchedMemoryVerify(dst_host.ptr(), extent.width, extent.width / sizeof(int), extent.height,
                                extent.depth, Iota3D);
        }
}

template <typename F>
void Memcpy3DHtoDSyncBehavior(F memcpy_func, const bool should_sync, const cudaStream_t kernel_stream = nullptr) {
    using LA = LinearAllocs;
    for (const auto host_alloc_type : {LA::malloc, LA::hipHostMalloc}) {
        LinearAllocGuard3D<int> device_alloc(make_cudaExtent(32 * sizeof(int), 32, 8));
        LinearAllocGuard<int> host_alloc(host_alloc_type,
                                         device_alloc.width() * device_alloc.height() * device_alloc.depth());
        MemcpySyncBehaviorCheck(std::bind(memcpy_func, device_alloc.pitched_ptr(), make_cudaPos(0, 0, 0),
                                          make_cudaPitchedPtr(host_alloc.ptr(), device_alloc.width(),
                                                              device_alloc.width(), device_alloc.height()),
                                          make_cudaPos(0, 0, 0), device_alloc.extent(), cudaMemcpyHostToDevice,
                                          kernel_stream),
                                should_sync, kernel_stream);
    }
}

template <typename F>
void Memcpy3DDtoHSyncBehavior(F memcpy_func, const bool should_sync, LinearAllocs host_kind,
                              const cudaStream_t kernel_stream = nullptr) {
    LinearAllocGuard3D<int> device_alloc(make_cudaExtent(32 * sizeof(int), 32, 8));
    LinearAllocGuard<int> host_alloc(host_kind, device_alloc.width() * device_alloc.height() * device_alloc.depth());
    MemcpySyncBehaviorCheck(std::bind(memcpy_func,
                                      make_cudaPitchedPtr(host_alloc.ptr(), device_alloc.width(),
                                                          device_alloc.width(), device_alloc.height()),
                                      make_cudaPos(0, 0, 0), device_alloc.pitched_ptr(), make_cudaPos(0, 0, 0),
                                      device_alloc.extent(), cudaMemcpyDeviceToHost, kernel_stream),
                            should_sync, kernel_stream);
}

/* Memcpy3DDtoHPageableSyncBehavior / Memcpy3DDtoHPinnedSyncBehavior: the same but for the host allocation. */
template <typename F>
void Memcpy3DDtoHPageableSyncBehavior(F memcpy_func, const bool should_sync,
                                      const cudaStream_t kernel_stream = nullptr) {
    Memcpy3DDtoHSyncBehavior(memcpy_func, should_sync, LinearAllocs::malloc, kernel_stream);
}
template <typename F>
void Memcpy3DDtoHPinnedSyncBehavior(F memcpy_func, const bool should_sync,
                                    const cudaStream_t kernel_stream = nullptr) {
    Memcpy3DDtoHSyncBehavior(memcpy_func, should_sync, LinearAllocs::hipHostMalloc, kernel_stream);
}

template <typename F>
void Memcpy3DDtoDSyncBehavior(F memcpy_func, const bool should_sync, const cudaStream_t kernel_stream = nullptr) {
    LinearAllocGuard3D<int> src_alloc(make_cudaExtent(32 * sizeof(int), 32, 8));
    LinearAllocGuard3D<int> dst_alloc(make_cudaExtent(32 * sizeof(int), 32, 8));
    MemcpySyncBehaviorCheck(std::bind(memcpy_func, dst_alloc.pitched_ptr(), make_cudaPos(0, 0, 0),
                                      src_alloc.pitched_ptr(), make_cudaPos(0, 0, 0), dst_alloc.extent(),
                                      cudaMemcpyDeviceToDevice, kernel_stream),
                            should_sync, kernel_stream);
}

template <typename F>
void Memcpy3DHtoHSyncBehavior(F memcpy_func, const bool should_sync, const cudaStream_t kernel_stream = nullptr) {
    using LA = LinearAllocs;
    for (const auto src_alloc_type : {LA::malloc, LA::hipHostMalloc})
        for (const auto dst_alloc_type : {LA::malloc, LA::hipHostMalloc}) {
            LinearAllocGuard<int> src_alloc(src_alloc_type, 32 * sizeof(int) * 32 * 8);
            LinearAllocGuard<int> dst_alloc(dst_alloc_type, 32 * sizeof(int) * 32 * 8);
            MemcpySyncBehaviorCheck(
                std::bind(memcpy_func, make_cudaPitchedPtr(dst_alloc.ptr(), 32 * sizeof(int), 32 * sizeof(int), 32),
                          make_cudaPos(0, 0, 0),
                          make_cudaPitchedPtr(src_alloc.ptr(), 32 * sizeof(int), 32 * sizeof(int), 32),
                          make_cudaPos(0, 0, 0), make_cudaExtent(32 * sizeof(int), 32, 8), cudaMemcpyHostToHost,
                          kernel_stream),
                should_sync, kernel_stream);
        }
}

template <bool should_synchronize, typename F>
void Memcpy3DZeroWidthHeightDepth(F memcpy_func, const cudaStream_t stream = nullptr) {
    constexpr cudaExtent extent = kExtent3D;
    for (const auto mults : {std::make_tuple(0, 1, 1), std::make_tuple(1, 0, 1), std::make_tuple(1, 1, 0)}) {
        const int width_mult = std::get<0>(mults), height_mult = std::get<1>(mults),
                  depth_mult = std::get<2>(mults);
        RunSections([&] {
            SECTION("Device to Host") {
                LinearAllocGuard3D<uint8_t> device_alloc(extent);
                LinearAllocGuard<uint8_t> host_alloc(LinearAllocs::hipHostMalloc, device_alloc.width() *
                                                                                      device_alloc.height() *
                                                                                      device_alloc.depth());
                std::fill_n(host_alloc.ptr(),
                            device_alloc.width_logical() * device_alloc.height() * device_alloc.depth(), 42);
                HIP_CHECK(cudaMemset3D(device_alloc.pitched_ptr(), 1, device_alloc.extent()));
                HIP_CHECK(memcpy_func(make_cudaPitchedPtr(host_alloc.ptr(), device_alloc.width(),
                                                          device_alloc.width(), device_alloc.height()),
                                      make_cudaPos(0, 0, 0), device_alloc.pitched_ptr(), make_cudaPos(0, 0, 0),
                                      make_cudaExtent(device_alloc.width() * width_mult,
                                                      device_alloc.height() * height_mult,
                                                      device_alloc.depth() * depth_mult),
                                      cudaMemcpyDeviceToHost, stream));
                if constexpr (should_synchronize) {
                    HIP_CHECK(cudaStreamSynchronize(stream));
                }
                ArrayFindIfNot(host_alloc.ptr(), static_cast<uint8_t>(42),
                               device_alloc.width_logical() * device_alloc.height() * device_alloc.depth());
            }
            SECTION("Device to Device") {
                LinearAllocGuard3D<uint8_t> src_alloc(extent);
                LinearAllocGuard3D<uint8_t> dst_alloc(extent);
                LinearAllocGuard<uint8_t> host_alloc(LinearAllocs::hipHostMalloc,
                                                     dst_alloc.width() * dst_alloc.height() * dst_alloc.depth());
                HIP_CHECK(cudaMemset3D(src_alloc.pitched_ptr(), 1, src_alloc.extent()));
                HIP_CHECK(cudaMemset3D(dst_alloc.pitched_ptr(), 42, dst_alloc.extent()));
                HIP_CHECK(memcpy_func(dst_alloc.pitched_ptr(), make_cudaPos(0, 0, 0), src_alloc.pitched_ptr(),
                                      make_cudaPos(0, 0, 0),
                                      make_cudaExtent(dst_alloc.width() * width_mult, dst_alloc.height() * height_mult,
                                                      dst_alloc.depth() * depth_mult),
                                      cudaMemcpyDeviceToDevice, stream));
                if constexpr (should_synchronize) {
                    HIP_CHECK(cudaStreamSynchronize(stream));
                }
                HIP_CHECK(Memcpy3DWrapper(make_cudaPitchedPtr(host_alloc.ptr(), dst_alloc.width(), dst_alloc.width(),
                                                              dst_alloc.height()),
                                          make_cudaPos(0, 0, 0), dst_alloc.pitched_ptr(), make_cudaPos(0, 0, 0),
                                          dst_alloc.extent(), cudaMemcpyDeviceToHost));
                ArrayFindIfNot(host_alloc.ptr(), static_cast<uint8_t>(42),
                               dst_alloc.width_logical() * dst_alloc.height());
            }
            SECTION("Host to Device") {
                LinearAllocGuard3D<uint8_t> device_alloc(extent);
                LinearAllocGuard<uint8_t> src_host_alloc(LinearAllocs::hipHostMalloc, device_alloc.width() *
                                                                                          device_alloc.height() *
                                                                                          device_alloc.depth());
                LinearAllocGuard<uint8_t> dst_host_alloc(LinearAllocs::hipHostMalloc, device_alloc.width() *
                                                                                          device_alloc.height() *
                                                                                          device_alloc.depth());
                std::fill_n(src_host_alloc.ptr(),
                            device_alloc.width_logical() * device_alloc.height() * device_alloc.depth(), 1);
                HIP_CHECK(cudaMemset3D(device_alloc.pitched_ptr(), 42, device_alloc.extent()));
                HIP_CHECK(memcpy_func(device_alloc.pitched_ptr(), make_cudaPos(0, 0, 0),
                                      make_cudaPitchedPtr(src_host_alloc.ptr(), device_alloc.width(),
                                                          device_alloc.width(), device_alloc.height()),
                                      make_cudaPos(0, 0, 0),
                                      make_cudaExtent(device_alloc.width() * width_mult,
                                                      device_alloc.height() * height_mult,
                                                      device_alloc.depth() * depth_mult),
                                      cudaMemcpyHostToDevice, stream));
                if constexpr (should_synchronize) {
                    HIP_CHECK(cudaStreamSynchronize(stream));
                }
                HIP_CHECK(Memcpy3DWrapper(make_cudaPitchedPtr(dst_host_alloc.ptr(), device_alloc.width(),
                                                              device_alloc.width(), device_alloc.height()),
                                          make_cudaPos(0, 0, 0), device_alloc.pitched_ptr(), make_cudaPos(0, 0, 0),
                                          device_alloc.extent(), cudaMemcpyDeviceToHost));
                ArrayFindIfNot(dst_host_alloc.ptr(), static_cast<uint8_t>(42),
                               device_alloc.width_logical() * device_alloc.height());
            }
            SECTION("Host to Host") {
                const auto alloc_size = extent.width * extent.height * extent.depth;
                LinearAllocGuard<uint8_t> src_alloc(LinearAllocs::hipHostMalloc, alloc_size);
                LinearAllocGuard<uint8_t> dst_alloc(LinearAllocs::hipHostMalloc, alloc_size);
                std::fill_n(src_alloc.ptr(), alloc_size, 1);
                std::fill_n(dst_alloc.ptr(), alloc_size, 42);
                HIP_CHECK(memcpy_func(
                    make_cudaPitchedPtr(dst_alloc.ptr(), extent.width, extent.width, extent.height),
                    make_cudaPos(0, 0, 0),
                    make_cudaPitchedPtr(src_alloc.ptr(), extent.width, extent.width, extent.height),
                    make_cudaPos(0, 0, 0),
                    make_cudaExtent(extent.width * width_mult, extent.height * height_mult, extent.depth * depth_mult),
                    cudaMemcpyHostToHost, stream));
                if constexpr (should_synchronize) {
                    HIP_CHECK(cudaStreamSynchronize(stream));
                }
                ArrayFindIfNot(dst_alloc.ptr(), static_cast<uint8_t>(42), alloc_size);
            }
        });
    }
}

/* ======================= hipMemcpy3D.cc ======================= */

static void Unit_hipMemcpy3D_Positive_Basic() {
    constexpr bool async = false;
    RunSections([] {
        SECTION("Device to Host") { Memcpy3DDeviceToHostShell<async>(Memcpy3DWrapper<>); }
        SECTION("Device to Device / Peer access disabled") {
            Memcpy3DDeviceToDeviceShell<async, false>(Memcpy3DWrapper<>);
        }
        SECTION("Device to Device / Peer access enabled") {
            Memcpy3DDeviceToDeviceShell<async, true>(Memcpy3DWrapper<>);
        }
        SECTION("Host to Device") { Memcpy3DHostToDeviceShell<async>(Memcpy3DWrapper<>); }
        SECTION("Host to Host") { Memcpy3DHostToHostShell<async>(Memcpy3DWrapper<>); }
    });
}

static void Unit_hipMemcpy3D_Positive_Synchronization_Behavior() {
    HIP_CHECK(cudaDeviceSynchronize());
    RunSections([] {
        SECTION("Host to Device") { Memcpy3DHtoDSyncBehavior(Memcpy3DWrapper<>, true); }
        SECTION("Device to Pageable Host") { Memcpy3DDtoHPageableSyncBehavior(Memcpy3DWrapper<>, true); }
        SECTION("Device to Pinned Host") { Memcpy3DDtoHPinnedSyncBehavior(Memcpy3DWrapper<>, true); }
        SECTION("Host to Host") { Memcpy3DHtoHSyncBehavior(Memcpy3DWrapper<>, true); }
    });
}

static void Unit_hipMemcpy3D_Positive_DeviceToDevice_Synchronization_Behavior() {
    LinearAllocGuard3D<int> src_alloc(make_cudaExtent(32 * sizeof(int), 32, 8));
    LinearAllocGuard3D<int> dst_alloc(make_cudaExtent(32 * sizeof(int), 32, 8));
    HipTest::BlockingContext b_context{nullptr};
    cudaStream_t kernel_stream{nullptr};

    auto parms = GetMemcpy3DParms(dst_alloc.pitched_ptr(), make_cudaPos(0, 0, 0), src_alloc.pitched_ptr(),
                                  make_cudaPos(0, 0, 0), dst_alloc.extent(), cudaMemcpyDeviceToDevice);

    b_context.block_stream();
    REQUIRE(b_context.is_blocked());
    HIP_CHECK(cudaMemcpy3D(&parms));
    HIP_CHECK_ERROR(cudaStreamQuery(kernel_stream), cudaErrorNotReady);
    b_context.unblock_stream();
    HIP_CHECK(cudaDeviceSynchronize());
    REQUIRE(cudaStreamQuery(kernel_stream) == cudaSuccess);
}

static void Unit_hipMemcpy3D_Positive_Parameters() {
    constexpr bool async = false;
    Memcpy3DZeroWidthHeightDepth<async>(Memcpy3DWrapper<async>);
}

static void Unit_hipMemcpy3D_Positive_Array() {
    HipTest::HIP_SKIP_TEST("Array from/to Host: CUDA arrays are not simulated");
    HipTest::HIP_SKIP_TEST("Array from/to Device: CUDA arrays are not simulated");
}

/* Unit_hipMemcpy3D_Negative_Parameters and Unit_hipMemcpy3DAsync_Negative_Parameters (which adds "Invalid stream"). */
template <bool async> static void Memcpy3DNegativeParameters() {
    constexpr cudaExtent extent{128 * sizeof(int), 128, 8};

    constexpr auto NegativeTests = [](int test, cudaPitchedPtr dst_ptr, cudaPos dst_pos, cudaPitchedPtr src_ptr,
                                      cudaPos src_pos, cudaExtent extent, cudaMemcpyKind kind) {
        cudaPitchedPtr invalid_ptr;
        cudaPos invalid_pos;
        int attr = 0;
        switch (test) {
        case 0: /* dst_ptr.ptr == nullptr */
            invalid_ptr = dst_ptr;
            invalid_ptr.ptr = nullptr;
            HIP_CHECK_ERROR(Memcpy3DWrapper<async>(invalid_ptr, dst_pos, src_ptr, src_pos, extent, kind),
                            cudaErrorInvalidValue);
            break;
        case 1: /* src_ptr.ptr == nullptr */
            invalid_ptr = src_ptr;
            invalid_ptr.ptr = nullptr;
            HIP_CHECK_ERROR(Memcpy3DWrapper<async>(dst_ptr, dst_pos, invalid_ptr, src_pos, extent, kind),
                            cudaErrorInvalidValue);
            break;
        case 2: /* dst_ptr.pitch < width */
            invalid_ptr = dst_ptr;
            invalid_ptr.pitch = extent.width - 1;
            HIP_CHECK_ERROR(Memcpy3DWrapper<async>(invalid_ptr, dst_pos, src_ptr, src_pos, extent, kind),
                            cudaErrorInvalidPitchValue);
            break;
        case 3: /* src_ptr.pitch < width */
            invalid_ptr = src_ptr;
            invalid_ptr.pitch = extent.width - 1;
            HIP_CHECK_ERROR(Memcpy3DWrapper<async>(dst_ptr, dst_pos, invalid_ptr, src_pos, extent, kind),
                            cudaErrorInvalidPitchValue);
            break;
        case 4: /* dst_ptr.pitch > max pitch */
            HIP_CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrMaxPitch, 0));
            invalid_ptr = dst_ptr;
            invalid_ptr.pitch = attr;
            HIP_CHECK_ERROR(Memcpy3DWrapper<async>(invalid_ptr, dst_pos, src_ptr, src_pos, extent, kind),
                            cudaErrorInvalidValue);
            break;
        case 5: /* src_ptr.pitch > max pitch */
            HIP_CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrMaxPitch, 0));
            invalid_ptr = src_ptr;
            invalid_ptr.pitch = attr;
            HIP_CHECK_ERROR(Memcpy3DWrapper<async>(dst_ptr, dst_pos, invalid_ptr, src_pos, extent, kind),
                            cudaErrorInvalidValue);
            break;
        case 6: /* extent.width + dst_pos.x > dst_ptr.pitch */
            invalid_pos = dst_pos;
            invalid_pos.x = dst_ptr.pitch - extent.width + 1;
            HIP_CHECK_ERROR(Memcpy3DWrapper<async>(dst_ptr, invalid_pos, src_ptr, src_pos, extent, kind),
                            cudaErrorInvalidValue);
            break;
        case 7: /* extent.width + src_pos.x > src_ptr.pitch */
            invalid_pos = src_pos;
            invalid_pos.x = src_ptr.pitch - extent.width + 1;
            HIP_CHECK_ERROR(Memcpy3DWrapper<async>(dst_ptr, dst_pos, src_ptr, invalid_pos, extent, kind),
                            cudaErrorInvalidValue);
            break;
        case 8: /* dst_pos.y out of bounds */
            invalid_pos = dst_pos;
            invalid_pos.y = 1;
            HIP_CHECK_ERROR(Memcpy3DWrapper<async>(dst_ptr, invalid_pos, src_ptr, src_pos, extent, kind),
                            cudaErrorInvalidValue);
            break;
        case 9: /* src_pos.y out of bounds */
            invalid_pos = src_pos;
            invalid_pos.y = 1;
            HIP_CHECK_ERROR(Memcpy3DWrapper<async>(dst_ptr, dst_pos, src_ptr, invalid_pos, extent, kind),
                            cudaErrorInvalidValue);
            break;
        case 10: /* dst_pos.z out of bounds */
            invalid_pos = dst_pos;
            invalid_pos.z = 1;
            HIP_CHECK_ERROR(Memcpy3DWrapper<async>(dst_ptr, invalid_pos, src_ptr, src_pos, extent, kind),
                            cudaErrorInvalidValue);
            break;
        case 11: /* src_pos.z out of bounds */
            invalid_pos = src_pos;
            invalid_pos.z = 1;
            HIP_CHECK_ERROR(Memcpy3DWrapper<async>(dst_ptr, dst_pos, src_ptr, invalid_pos, extent, kind),
                            cudaErrorInvalidValue);
            break;
        case 12: /* Invalid MemcpyKind */
            HIP_CHECK_ERROR(
                Memcpy3DWrapper<async>(dst_ptr, dst_pos, src_ptr, src_pos, extent, static_cast<cudaMemcpyKind>(-1)),
                cudaErrorInvalidMemcpyDirection);
            break;
        case 13: { /* Invalid stream (hipMemcpy3DAsync.cc only) */
            StreamGuard stream_guard(Streams::created);
            HIP_CHECK(cudaStreamDestroy(stream_guard.stream()));
            HIP_CHECK_ERROR(
                Memcpy3DWrapper<async>(dst_ptr, dst_pos, src_ptr, src_pos, extent, kind, stream_guard.stream()),
                cudaErrorInvalidResourceHandle); /* upstream (HT_NVIDIA): cudaErrorContextIsDestroyed; see the header */
            break;
        }
        }
    };

    for (int test = 0; test < (async ? 14 : 13); test++) {
        RunSections([&] {
            SECTION("Host to Device") {
                LinearAllocGuard3D<int> device_alloc(extent);
                LinearAllocGuard<int> host_alloc(LinearAllocs::hipHostMalloc, device_alloc.pitch() *
                                                                                  device_alloc.height() *
                                                                                  device_alloc.depth());
                NegativeTests(test, device_alloc.pitched_ptr(), make_cudaPos(0, 0, 0),
                              make_cudaPitchedPtr(host_alloc.ptr(), device_alloc.pitch(), device_alloc.width(),
                                                  device_alloc.height()),
                              make_cudaPos(0, 0, 0), extent, cudaMemcpyHostToDevice);
            }
            SECTION("Device to Host") {
                LinearAllocGuard3D<int> device_alloc(extent);
                LinearAllocGuard<int> host_alloc(LinearAllocs::hipHostMalloc, device_alloc.pitch() *
                                                                                  device_alloc.height() *
                                                                                  device_alloc.depth());
                NegativeTests(test,
                              make_cudaPitchedPtr(host_alloc.ptr(), device_alloc.pitch(), device_alloc.width(),
                                                  device_alloc.height()),
                              make_cudaPos(0, 0, 0), device_alloc.pitched_ptr(), make_cudaPos(0, 0, 0), extent,
                              cudaMemcpyDeviceToHost);
            }
            SECTION("Host to Host") {
                LinearAllocGuard<int> src_alloc(LinearAllocs::hipHostMalloc,
                                                extent.width * extent.height * extent.depth);
                LinearAllocGuard<int> dst_alloc(LinearAllocs::hipHostMalloc,
                                                extent.width * extent.height * extent.depth);
                NegativeTests(test, make_cudaPitchedPtr(dst_alloc.ptr(), extent.width, extent.width, extent.height),
                              make_cudaPos(0, 0, 0),
                              make_cudaPitchedPtr(src_alloc.ptr(), extent.width, extent.width, extent.height),
                              make_cudaPos(0, 0, 0), extent, cudaMemcpyHostToHost);
            }
            SECTION("Device to Device") {
                LinearAllocGuard3D<int> src_alloc(extent);
                LinearAllocGuard3D<int> dst_alloc(extent);
                NegativeTests(test, dst_alloc.pitched_ptr(), make_cudaPos(0, 0, 0), src_alloc.pitched_ptr(),
                              make_cudaPos(0, 0, 0), extent, cudaMemcpyDeviceToDevice);
            }
        });
    }
}

static void Unit_hipMemcpy3D_Negative_Parameters() { Memcpy3DNegativeParameters<false>(); }

/* ======================= hipMemcpy3DAsync.cc ======================= */

static void Unit_hipMemcpy3DAsync_Positive_Basic() {
    constexpr bool async = true;
    for (const auto stream_type : {Streams::nullstream, Streams::perThread, Streams::created}) {
        RunSections([&] {
            const StreamGuard stream_guard(stream_type);
            const cudaStream_t stream = stream_guard.stream();
            SECTION("Device to Host") { Memcpy3DDeviceToHostShell<async>(Memcpy3DWrapper<async>, stream); }
            SECTION("Device to Device / Peer access disabled") {
                Memcpy3DDeviceToDeviceShell<async, false>(Memcpy3DWrapper<async>, stream);
            }
            SECTION("Device to Device / Peer access enabled") {
                Memcpy3DDeviceToDeviceShell<async, true>(Memcpy3DWrapper<async>, stream);
            }
            SECTION("Host to Device") { Memcpy3DHostToDeviceShell<async>(Memcpy3DWrapper<async>, stream); }
            SECTION("Host to Host") { Memcpy3DHostToHostShell<async>(Memcpy3DWrapper<async>, stream); }
        });
    }
}

static void Unit_hipMemcpy3DAsync_Positive_Synchronization_Behavior() {
    constexpr bool async = true;
    HIP_CHECK(cudaDeviceSynchronize());
    RunSections([] {
        SECTION("Host to Device") { Memcpy3DHtoDSyncBehavior(Memcpy3DWrapper<async>, false); }
        SECTION("Device to Pageable Host") { Memcpy3DDtoHPageableSyncBehavior(Memcpy3DWrapper<async>, true); }
        SECTION("Device to Pinned Host") { Memcpy3DDtoHPinnedSyncBehavior(Memcpy3DWrapper<async>, false); }
        SECTION("Device to Device") { Memcpy3DDtoDSyncBehavior(Memcpy3DWrapper<async>, false); }
        SECTION("Host to Host") { Memcpy3DHtoHSyncBehavior(Memcpy3DWrapper<async>, true); }
    });
}

static void Unit_hipMemcpy3DAsync_Positive_Parameters() {
    constexpr bool async = true;
    Memcpy3DZeroWidthHeightDepth<async>(Memcpy3DWrapper<async>);
}

static void Unit_hipMemcpy3DAsync_Positive_Array() {
    HipTest::HIP_SKIP_TEST("Array from/to Host: CUDA arrays are not simulated");
    HipTest::HIP_SKIP_TEST("Array from/to Device: CUDA arrays are not simulated");
}

static void Unit_hipMemcpy3DAsync_Negative_Parameters() { Memcpy3DNegativeParameters<true>(); }

int main() {
    HIP_TEST_CASE(Unit_hipMalloc3D_ValidatePitch);
    HIP_TEST_CASE(Unit_hipMallocPitch_ValidatePitch);
    HIP_TEST_CASE(Unit_hipMalloc3D_Negative);
    HIP_TEST_CASE(Unit_hipMallocPitch_Negative);
    HIP_TEST_CASE(Unit_hipMallocPitch_Zero_Dims);
    HIP_TEST_CASE(Unit_hipMallocPitch_Basic<int>);
    HIP_TEST_CASE(Unit_hipMallocPitch_Basic<unsigned int>);
    HIP_TEST_CASE(Unit_hipMallocPitch_Basic<float>);
    HIP_TEST_CASE(Unit_hipMallocPitch_SmallandBigChunks<int>);
    HIP_TEST_CASE(Unit_hipMallocPitch_SmallandBigChunks<unsigned int>);
    HIP_TEST_CASE(Unit_hipMallocPitch_SmallandBigChunks<float>);
    HIP_TEST_CASE(Unit_hipMallocPitch_Memcpy2D<int>);
    HIP_TEST_CASE(Unit_hipMallocPitch_Memcpy2D<float>);
    HIP_TEST_CASE(Unit_hipMallocPitch_Memcpy2D<double>);
    HIP_TEST_CASE(Unit_hipMallocPitch_MultiThread);
    HIP_TEST_CASE(Unit_hipMallocPitch_KernelLaunch<int>);
    HIP_TEST_CASE(Unit_hipMallocPitch_KernelLaunch<float>);
    HIP_TEST_CASE(Unit_hipMallocPitch_KernelLaunch<double>);
    HIP_TEST_CASE(Unit_hipMalloc3D_Basic);
    HIP_TEST_CASE(Unit_hipMalloc3D_SmallandBigChunks);
    HIP_TEST_CASE(Unit_hipMalloc3D_MultiThread);
    HIP_TEST_CASE(Unit_hipMemcpy2D_Positive_Basic);
    HIP_TEST_CASE(Unit_hipMemcpy2D_Positive_Synchronization_Behavior);
    HIP_TEST_CASE(Unit_hipMemcpy2D_Positive_Parameters);
    HIP_TEST_CASE(Unit_hipMemcpy2D_Negative_Parameters);
    HIP_TEST_CASE(Unit_hipMemcpy2DAsync_Positive_Basic);
    HIP_TEST_CASE(Unit_hipMemcpy2DAsync_Positive_Synchronization_Behavior);
    HIP_TEST_CASE(Unit_hipMemcpy2DAsync_Positive_Parameters);
    HIP_TEST_CASE(Unit_hipMemcpy2DAsync_Negative_Parameters);
    HIP_TEST_CASE(Unit_hipMemcpy2DAsync_capturehipMemcpy2DAsync<int>);
    HIP_TEST_CASE(Unit_hipMemcpy2DAsync_capturehipMemcpy2DAsync<float>);
    HIP_TEST_CASE(Unit_hipMemcpy2DAsync_capturehipMemcpy2DAsync<double>);
    HIP_TEST_CASE(Unit_hipMemcpy3D_Positive_Basic);
    HIP_TEST_CASE(Unit_hipMemcpy3D_Positive_Synchronization_Behavior);
    HIP_TEST_CASE(Unit_hipMemcpy3D_Positive_DeviceToDevice_Synchronization_Behavior);
    HIP_TEST_CASE(Unit_hipMemcpy3D_Positive_Parameters);
    HIP_TEST_CASE(Unit_hipMemcpy3D_Positive_Array);
    HIP_TEST_CASE(Unit_hipMemcpy3D_Negative_Parameters);
    HIP_TEST_CASE(Unit_hipMemcpy3DAsync_Positive_Basic);
    HIP_TEST_CASE(Unit_hipMemcpy3DAsync_Positive_Synchronization_Behavior);
    HIP_TEST_CASE(Unit_hipMemcpy3DAsync_Positive_Parameters);
    HIP_TEST_CASE(Unit_hipMemcpy3DAsync_Positive_Array);
    HIP_TEST_CASE(Unit_hipMemcpy3DAsync_Negative_Parameters);
    printf("hip-tests pitched memory: %d test cases, %d skipped: PASSED\n", hip_tests_cases, hip_tests_skipped);
    return 0;
}
