/*
 * hip_tests_graph_memcpy_params.cu — ROCm hip-tests' catch/unit/graph/hipGraphMemcpyNodeSetParams1D.cc,
 * hipGraphMemcpyNodeSetParams.cc and hipGraphAddNode.cc (nodes made from cudaGraphNodeParams) with their helpers of
 * memcpy1d_tests_common.hh, memcpy3d_tests_common.hh and graph_memset_node_test_common.hh (github.com/ROCm/hip-tests, commit 87c8a0417c6f4ef2c7d905b71eb42e02a0c4ef4a), translated to the CUDA runtime
 * names (hipX → cudaX) as a .cu program that both `streamsim cc` and NVIDIA's nvcc build (the kernels run on the
 * CPU): every test case of these files.
 *
 * Every runtime call and every check of those test cases is kept, in their order. Changes, marked STREAMSIM where
 * they are:
 *   - Catch2 → the harness of tests/c/hip_tests_cu.h (each SECTION in its own pass of its test case, as Catch2
 *     runs them; nested sections → one flat section per leaf, and the negative test's four outer sections → a
 *     loop over them, each run into one inner leaf at a time); HT_NVIDIA is 1 (hipGraphMemcpyNodeSetParams1D.cc's
 *     NVIDIA branch, MemcpyWithDirectionCommonTests, is the one kept); the helpers (the 1D and 3D copy shells,
 *     Memcpy3DWrapper, GetMemcpy3DParms, the allocation guards, MemcpyWithDirectionCommonNegativeTests) are the
 *     ones tests/c/hip_tests_graph_memcpy_nodes.cu writes out, copied here; make_hipPos / make_hipPitchedPtr →
 *     make_cudaPos / make_cudaPitchedPtr; hipDeviceAttributeMaxPitch → cudaDevAttrMaxPitch;
 *     LinearAllocGuard(LinearAllocs::hipHostMalloc) → that file's Alloc1D(LA1::hipHostMalloc).
 *   - hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0) → cudaGraphInstantiate(&exec, graph, 0).
 *   - hipGraphMemcpyNodeSetParams1D.cc's own ReverseMemcpyDirection is the helpers' (the same function; two
 *     would make its calls ambiguous here).
 *   - hipGraphAddNode.cc: its memcpy wrapper takes cudaPitchedPtr where upstream takes PtrVariant (a pitched
 *     pointer or a CUDA array), and its two CUDA-array sections are skipped as below; TEMPLATE_TEST_CASE → the
 *     test run for uint8_t, uint16_t and uint32_t in turn, with the memset helper and LinearAllocGuard2D as
 *     tests/c/hip_tests_graph_memset_node.cu writes them out; `#pragma clang diagnostic ignored
 *     "-Wunused-parameter"` dropped.
 *   - hipGraphMemcpyNodeSetParams.cc and hipGraphAddNode.cc: the sections copying through CUDA arrays (Memcpy3DArrayHostShell and the
 *     HT_NVIDIA Memcpy3DArrayDeviceShell) are skipped, saying so: the simulator has no CUDA arrays. Its
 *     "dst_ptr.pitch < width" and "src_ptr.pitch < width" expect cudaErrorInvalidPitchValue (NVIDIA's answer): the
 *     call lists only cudaErrorInvalidValue, which the simulator answers (graph-building.md · GraphAddMemcpyNode,
 *     the Note row, for the parameters these calls share), and the port checks that.
 *
 * hip-tests is MIT-licensed: Copyright (c) 2021 - 2024 Advanced Micro Devices, Inc. All rights reserved.
 * Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated
 * documentation files (the "Software"), to deal in the Software without restriction, including without limitation
 * the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and
 * to permit persons to whom the Software is furnished to do so, subject to the following conditions: The above
 * copyright notice and this permission notice shall be included in all copies or substantial portions of the
 * Software. THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT
 * LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT
 * SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN
 * ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR
 * OTHER DEALINGS IN THE SOFTWARE.
 */
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "hip_tests_cu.h"

/* hip_test_common.hh's CHECK_IMAGE_SUPPORT: HipTest::isImageSupported() is 1 on NVIDIA (its HT_AMD branch asks
 * the device). */
#define CHECK_IMAGE_SUPPORT

/* hip_test_kernels.hh */
template <typename T> __global__ void VectorSet(T *const vec, const T value, size_t N) {
    size_t offset = (blockIdx.x * blockDim.x + threadIdx.x);
    size_t stride = blockDim.x * gridDim.x;
    for (size_t i = offset; i < N; i += stride) {
        vec[i] = value;
    }
}

/* STREAMSIM: resource_guards.hh's LinearAllocGuard for the kinds below, freed by the destructor without a check. */
enum class LA1 { malloc, hipHostMalloc, hipMalloc };
template <typename T> class Alloc1D {
  public:
    Alloc1D(const LA1 kind, const size_t size, const unsigned int flags = 0u) : kind_{kind} {
        switch (kind_) {
        case LA1::malloc:
            ptr_ = host_ptr_ = reinterpret_cast<T *>(::malloc(size));
            break;
        case LA1::hipHostMalloc:
            HIP_CHECK(cudaHostAlloc(reinterpret_cast<void **>(&ptr_), size, flags));
            host_ptr_ = ptr_;
            break;
        case LA1::hipMalloc:
            HIP_CHECK(cudaMalloc(reinterpret_cast<void **>(&ptr_), size));
            break;
        }
    }
    Alloc1D(const Alloc1D &) = delete;
    ~Alloc1D() {
        switch (kind_) {
        case LA1::malloc:
            free(ptr_);
            break;
        case LA1::hipHostMalloc:
            static_cast<void>(cudaFreeHost(ptr_));
            break;
        case LA1::hipMalloc:
            static_cast<void>(cudaFree(ptr_));
            break;
        }
    }
    T *ptr() const { return ptr_; }
    T *host_ptr() const { return host_ptr_; }

  private:
    const LA1 kind_;
    T *ptr_ = nullptr;
    T *host_ptr_ = nullptr;
};

/* ---- memcpy1d_tests_common.hh ---- */
/* GenerateLinearAllocationFlagCombinations: hipHostMallocDefault, Portable, Mapped, WriteCombined for
 * hipHostMalloc (cudaHostAllocDefault, Portable, Mapped, WriteCombined), else 0. */
static std::vector<unsigned int> LinearAllocationFlagCombinations(const LA1 allocation_type) {
    if (allocation_type == LA1::hipHostMalloc) {
        return {cudaHostAllocDefault, cudaHostAllocPortable, cudaHostAllocMapped, cudaHostAllocWriteCombined};
    }
    return {0u};
}

static const size_t kAllocationSizes[] = {kPageSize / 2, kPageSize, kPageSize * 2};

template <bool should_synchronize, typename F>
void MemcpyDeviceToHostShell(F memcpy_func, const cudaStream_t kernel_stream = nullptr) {
    for (const auto allocation_size : kAllocationSizes) {                  /* GENERATE */
        for (const auto host_allocation_type : {LA1::malloc, LA1::hipHostMalloc}) { /* GENERATE */
            for (const auto host_allocation_flags : LinearAllocationFlagCombinations(host_allocation_type)) {
                Alloc1D<int> host_allocation(host_allocation_type, allocation_size, host_allocation_flags);
                Alloc1D<int> device_allocation(LA1::hipMalloc, allocation_size);

                const auto element_count = allocation_size / sizeof(*device_allocation.ptr());
                constexpr auto thread_count = 1024;
                const auto block_count = element_count / thread_count + 1;
                constexpr int expected_value = 42;
                VectorSet<<<block_count, thread_count, 0, kernel_stream>>>(device_allocation.ptr(), expected_value,
                                                                           element_count);
                HIP_CHECK(cudaGetLastError());

                HIP_CHECK(memcpy_func(host_allocation.host_ptr(), device_allocation.ptr(), allocation_size));
                if constexpr (should_synchronize) {
                    HIP_CHECK(cudaStreamSynchronize(kernel_stream));
                }

                ArrayFindIfNot(host_allocation.host_ptr(), expected_value, element_count);
            }
        }
    }
}

template <bool should_synchronize, typename F>
void MemcpyHostToDeviceShell(F memcpy_func, const cudaStream_t kernel_stream = nullptr) {
    for (const auto allocation_size : kAllocationSizes) {                  /* GENERATE */
        for (const auto host_allocation_type : {LA1::malloc, LA1::hipHostMalloc}) { /* GENERATE */
            for (const auto host_allocation_flags : LinearAllocationFlagCombinations(host_allocation_type)) {
                Alloc1D<int> src_host_allocation(host_allocation_type, allocation_size, host_allocation_flags);
                Alloc1D<int> dst_host_allocation(LA1::hipHostMalloc, allocation_size);
                Alloc1D<int> device_allocation(LA1::hipMalloc, allocation_size);

                const auto element_count = allocation_size / sizeof(*device_allocation.ptr());
                constexpr int fill_value = 42;
                std::fill_n(src_host_allocation.host_ptr(), element_count, fill_value);
                std::fill_n(dst_host_allocation.host_ptr(), element_count, 0);

                HIP_CHECK(memcpy_func(device_allocation.ptr(), src_host_allocation.host_ptr(), allocation_size));
                if constexpr (should_synchronize) {
                    HIP_CHECK(cudaStreamSynchronize(kernel_stream));
                }

                HIP_CHECK(cudaMemcpy(dst_host_allocation.host_ptr(), device_allocation.ptr(), allocation_size,
                                     cudaMemcpyDeviceToHost));

                ArrayFindIfNot(dst_host_allocation.host_ptr(), fill_value, element_count);
            }
        }
    }
}

template <bool should_synchronize, typename F>
void MemcpyHostToHostShell(F memcpy_func, const cudaStream_t kernel_stream = nullptr) {
    for (const auto allocation_size : kAllocationSizes) {                 /* GENERATE */
        for (const auto src_allocation_type : {LA1::malloc, LA1::hipHostMalloc}) { /* GENERATE */
            for (const auto dst_allocation_type : {LA1::malloc, LA1::hipHostMalloc}) { /* GENERATE */
                for (const auto src_allocation_flags : LinearAllocationFlagCombinations(src_allocation_type)) {
                    for (const auto dst_allocation_flags : LinearAllocationFlagCombinations(dst_allocation_type)) {
                        Alloc1D<int> src_allocation(src_allocation_type, allocation_size, src_allocation_flags);
                        Alloc1D<int> dst_allocation(dst_allocation_type, allocation_size, dst_allocation_flags);

                        const auto element_count = allocation_size / sizeof(*src_allocation.host_ptr());
                        constexpr auto expected_value = 42;
                        std::fill_n(src_allocation.host_ptr(), element_count, expected_value);

                        HIP_CHECK(memcpy_func(dst_allocation.host_ptr(), src_allocation.host_ptr(), allocation_size));
                        if constexpr (should_synchronize) {
                            HIP_CHECK(cudaStreamSynchronize(kernel_stream));
                        }

                        ArrayFindIfNot(dst_allocation.host_ptr(), expected_value, element_count);
                    }
                }
            }
        }
    }
}

template <bool should_synchronize, bool enable_peer_access, typename F>
void MemcpyDeviceToDeviceShell(F memcpy_func, const cudaStream_t kernel_stream = nullptr) {
    for (const auto allocation_size : kAllocationSizes) { /* GENERATE */
        const auto device_count = HipTest::getDeviceCount();
        for (int src_device = 0; src_device < device_count; src_device++) {     /* GENERATE_COPY(range) */
            for (int dst_device = 0; dst_device < device_count; dst_device++) { /* GENERATE_COPY(range) */
                INFO("Src device: " << src_device << ", Dst device: " << dst_device);

                HIP_CHECK(cudaSetDevice(src_device));
                if constexpr (enable_peer_access) {
                    if (src_device == dst_device) {
                        continue; /* upstream's return ends this generated run */
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

                Alloc1D<int> src_allocation(LA1::hipMalloc, allocation_size);
                Alloc1D<int> result(LA1::hipHostMalloc, allocation_size, cudaHostAllocPortable);
                HIP_CHECK(cudaSetDevice(dst_device));
                Alloc1D<int> dst_allocation(LA1::hipMalloc, allocation_size);

                const auto element_count = allocation_size / sizeof(*src_allocation.ptr());
                constexpr auto thread_count = 1024;
                const auto block_count = element_count / thread_count + 1;
                constexpr int expected_value = 42;
                HIP_CHECK(cudaSetDevice(src_device));
                VectorSet<<<block_count, thread_count, 0, kernel_stream>>>(src_allocation.ptr(), expected_value,
                                                                           element_count);
                HIP_CHECK(cudaGetLastError());

                HIP_CHECK(memcpy_func(dst_allocation.ptr(), src_allocation.ptr(), allocation_size));
                if constexpr (should_synchronize) {
                    HIP_CHECK(cudaStreamSynchronize(kernel_stream));
                }

                HIP_CHECK(cudaMemcpy(result.host_ptr(), dst_allocation.ptr(), allocation_size, cudaMemcpyDeviceToHost));
                if constexpr (enable_peer_access) {
                    // If we've gotten this far, EnablePeerAccess must have succeeded, so we
                    // only need to check this condition
                    HIP_CHECK(cudaDeviceDisablePeerAccess(dst_device));
                }

                ArrayFindIfNot(result.host_ptr(), expected_value, element_count);
            }
        }
    }
}

template <bool should_synchronize, typename F> void MemcpyWithDirectionCommonTests(F memcpy_func) {
    using namespace std::placeholders;
    SECTION("Device to host") {
        MemcpyDeviceToHostShell<should_synchronize>(std::bind(memcpy_func, _1, _2, _3, cudaMemcpyDeviceToHost));
    }

    SECTION("Device to host with default kind") {
        MemcpyDeviceToHostShell<should_synchronize>(std::bind(memcpy_func, _1, _2, _3, cudaMemcpyDefault));
    }

    SECTION("Host to device") {
        MemcpyHostToDeviceShell<should_synchronize>(std::bind(memcpy_func, _1, _2, _3, cudaMemcpyHostToDevice));
    }

    SECTION("Host to device with default kind") {
        MemcpyHostToDeviceShell<should_synchronize>(std::bind(memcpy_func, _1, _2, _3, cudaMemcpyDefault));
    }

    SECTION("Host to host") {
        MemcpyHostToHostShell<should_synchronize>(std::bind(memcpy_func, _1, _2, _3, cudaMemcpyHostToHost));
    }

    SECTION("Host to host with default kind") {
        MemcpyHostToHostShell<should_synchronize>(std::bind(memcpy_func, _1, _2, _3, cudaMemcpyDefault));
    }

    SECTION("Device to device / Peer access enabled") {
        MemcpyDeviceToDeviceShell<should_synchronize, true>(
            std::bind(memcpy_func, _1, _2, _3, cudaMemcpyDeviceToDevice));
    }
    SECTION("Device to device / Peer access disabled") {
        MemcpyDeviceToDeviceShell<should_synchronize, false>(
            std::bind(memcpy_func, _1, _2, _3, cudaMemcpyDeviceToDevice));
    }

    SECTION("Device to device with default kind / Peer access enabled") {
        MemcpyDeviceToDeviceShell<should_synchronize, true>(std::bind(memcpy_func, _1, _2, _3, cudaMemcpyDefault));
    }
    SECTION("Device to device with default kind / Peer access disabled") {
        MemcpyDeviceToDeviceShell<should_synchronize, false>(std::bind(memcpy_func, _1, _2, _3, cudaMemcpyDefault));
    }
}

// Common negative tests
template <typename F> void MemcpyCommonNegativeTests(F f, void *dst, void *src, size_t count) {
    SECTION("dst == nullptr") { HIP_CHECK_ERROR(f(nullptr, src, count), cudaErrorInvalidValue); }
    SECTION("src == nullptr") { HIP_CHECK_ERROR(f(dst, nullptr, count), cudaErrorInvalidValue); }
}

template <typename F>
void MemcpyWithDirectionCommonNegativeTests(F f, void *dst, void *src, size_t count, cudaMemcpyKind kind) {
    using namespace std::placeholders;
    MemcpyCommonNegativeTests(std::bind(f, _1, _2, _3, kind), dst, src, count);

    // Disabled on AMD due to defect - EXSWHTEC-128 (the HT_NVIDIA branch)
    SECTION("Invalid MemcpyKind") {
        HIP_CHECK_ERROR(f(dst, src, count, static_cast<cudaMemcpyKind>(-1)), cudaErrorInvalidMemcpyDirection);
    }
}

/* ---- memcpy3d_tests_common.hh (GetMemcpy3DParms, for pitched pointers: CUDA arrays are not simulated) ---- */
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

/* ---- utils.hh ---- */
template <typename T, typename F>
void PitchedMemoryVerify(T *const ptr, const size_t pitch, const size_t width, const size_t height, const size_t depth,
                         F expected_value_generator) {
    for (size_t z = 0; z < depth; ++z) {
        for (size_t y = 0; y < height; ++y) {
            for (size_t x = 0; x < width; ++x) {
                const auto slice = reinterpret_cast<uint8_t *>(ptr) + pitch * height * z;
                const auto row = slice + pitch * y;
                if (reinterpret_cast<T *>(row)[x] != expected_value_generator(x, y, z)) {
                    INFO("Mismatch at indices: " << x << ", " << y << ", " << z);
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

/* resource_guards.hh's LinearAllocGuard3D<T> (cudaMalloc3D, freed by the destructor without a check). */
template <typename T> class LinearAllocGuard3D {
  public:
    LinearAllocGuard3D(const size_t width_logical, const size_t height, const size_t depth)
        : extent_{make_cudaExtent(width_logical * sizeof(T), height, depth)} {
        HIP_CHECK(cudaMalloc3D(&pitched_ptr_, extent_));
    }
    LinearAllocGuard3D(const cudaExtent extent) : extent_(extent) { HIP_CHECK(cudaMalloc3D(&pitched_ptr_, extent_)); }
    LinearAllocGuard3D(const LinearAllocGuard3D &) = delete;
    ~LinearAllocGuard3D() { static_cast<void>(cudaFree(pitched_ptr_.ptr)); }
    T *ptr() const { return reinterpret_cast<T *>(pitched_ptr_.ptr); };
    size_t pitch() const { return pitched_ptr_.pitch; }
    cudaExtent extent() const { return extent_; }
    cudaPitchedPtr pitched_ptr() const { return pitched_ptr_; }
    size_t width() const { return extent_.width; }
    size_t width_logical() const { return extent_.width / sizeof(T); }
    size_t height() const { return extent_.height; }
    size_t depth() const { return extent_.depth; }

  private:
    cudaPitchedPtr pitched_ptr_{};
    const cudaExtent extent_;
};

/* ---- memcpy3d_tests_common.hh (pitched pointers only) ---- */
static bool operator==(const cudaPitchedPtr &lhs, const cudaPitchedPtr &rhs) {
    // not checking for xsize currently as hipGraphMemcpyNodeGetParams returns incorrect value
    return lhs.ptr == rhs.ptr && lhs.pitch == rhs.pitch && lhs.ysize == rhs.ysize;
}

static bool operator==(const cudaPos &lhs, const cudaPos &rhs) {
    return lhs.x == rhs.x && lhs.y == rhs.y && lhs.z == rhs.z;
}

static bool operator==(const cudaExtent &lhs, const cudaExtent &rhs) {
    return lhs.width == rhs.width && lhs.height == rhs.height && lhs.depth == rhs.depth;
}

static inline bool operator==(const cudaMemcpy3DParms &lhs, const cudaMemcpy3DParms &rhs) {
    return lhs.dstArray == rhs.dstArray && lhs.dstPtr == rhs.dstPtr && lhs.dstPos == rhs.dstPos &&
           lhs.srcArray == rhs.srcArray && lhs.srcPtr == rhs.srcPtr && lhs.srcPos == rhs.srcPos &&
           lhs.extent == rhs.extent && lhs.kind == rhs.kind;
}

static inline cudaMemcpyKind ReverseMemcpyDirection(const cudaMemcpyKind direction) {
    switch (direction) {
    case cudaMemcpyHostToDevice:
        return cudaMemcpyDeviceToHost;
    case cudaMemcpyDeviceToHost:
        return cudaMemcpyHostToDevice;
    default:
        return direction;
    }
};

template <bool async = false, bool graph = false, bool set_params = false>
cudaError_t Memcpy3DWrapper(cudaPitchedPtr dst_ptr, cudaPos dst_pos, cudaPitchedPtr src_ptr, cudaPos src_pos,
                            cudaExtent extent, cudaMemcpyKind kind, cudaStream_t stream = nullptr) {
    auto parms = GetMemcpy3DParms(dst_ptr, dst_pos, src_ptr, src_pos, extent, kind);

    if constexpr (graph) {
        cudaGraph_t g = nullptr;
        HIP_CHECK(cudaGraphCreate(&g, 0));
        cudaGraphNode_t node = nullptr;

        if constexpr (set_params) {
            auto reversed_parms =
                GetMemcpy3DParms(src_ptr, src_pos, dst_ptr, dst_pos, extent, ReverseMemcpyDirection(kind));
            HIP_CHECK(cudaGraphAddMemcpyNode(&node, g, nullptr, 0, &reversed_parms));
            HIP_CHECK(cudaGraphMemcpyNodeSetParams(node, &parms));
        } else {
            HIP_CHECK(cudaGraphAddMemcpyNode(&node, g, nullptr, 0, &parms));
        }

        cudaMemcpy3DParms retrieved_params = {};
        HIP_CHECK(cudaGraphMemcpyNodeGetParams(node, &retrieved_params));
        REQUIRE(parms == retrieved_params);

        cudaGraphExec_t graph_exec = nullptr;
        HIP_CHECK(cudaGraphInstantiate(&graph_exec, g, 0));
        HIP_CHECK(cudaGraphLaunch(graph_exec, cudaStreamPerThread));
        HIP_CHECK(cudaStreamSynchronize(cudaStreamPerThread));

        HIP_CHECK(cudaGraphExecDestroy(graph_exec));
        HIP_CHECK(cudaGraphDestroy(g));

        return cudaSuccess;
    }

    if constexpr (async) {
        return cudaMemcpy3DAsync(&parms, stream);
    } else {
        return cudaMemcpy3D(&parms);
    }
}

/* The shells' GENERATEs → loops, in the generators' order (the test case runs nothing before the section). */
template <bool should_synchronize, typename F>
void Memcpy3DDeviceToHostShell(F memcpy_func, const cudaStream_t kernel_stream = nullptr) {
    for (const auto kind : {cudaMemcpyDeviceToHost, cudaMemcpyDefault}) { /* GENERATE */
        constexpr cudaExtent extent{127 * sizeof(int), 128, 8};

        LinearAllocGuard3D<int> device_alloc(extent);

        for (const size_t host_pitch : {device_alloc.width(), device_alloc.width() + 64}) { /* GENERATE_REF */
            Alloc1D<int> host_alloc(LA1::hipHostMalloc, host_pitch * device_alloc.height() * device_alloc.depth());

            const dim3 threads_per_block(32, 32);
            const dim3 blocks(device_alloc.width_logical() / threads_per_block.x + 1,
                              device_alloc.height() / threads_per_block.y + 1, device_alloc.depth());
            Iota<<<blocks, threads_per_block>>>(device_alloc.ptr(), device_alloc.pitch(), device_alloc.width_logical(),
                                                device_alloc.height(), device_alloc.depth());
            HIP_CHECK(cudaGetLastError());

            HIP_CHECK(memcpy_func(
                make_cudaPitchedPtr(host_alloc.ptr(), host_pitch, device_alloc.width(), device_alloc.height()),
                make_cudaPos(0, 0, 0), device_alloc.pitched_ptr(), make_cudaPos(0, 0, 0), device_alloc.extent(), kind,
                kernel_stream));
            if constexpr (should_synchronize) {
                HIP_CHECK(cudaStreamSynchronize(kernel_stream));
            }

            const auto f = [extent](size_t x, size_t y, size_t z) {
                constexpr auto width_logical = extent.width / sizeof(int);
                return z * width_logical * extent.height + y * width_logical + x;
            };
            PitchedMemoryVerify(host_alloc.ptr(), host_pitch, device_alloc.width_logical(), device_alloc.height(),
                                device_alloc.depth(), f);
        }
    }
}

template <bool should_synchronize, bool enable_peer_access, typename F>
void Memcpy3DDeviceToDeviceShell(F memcpy_func, cudaStream_t kernel_stream = nullptr) {
    for (const auto kind : {cudaMemcpyDeviceToDevice, cudaMemcpyDefault}) { /* GENERATE */
        constexpr cudaExtent extent{127 * sizeof(int), 128, 8};

        const auto device_count = HipTest::getDeviceCount();
        for (int src_device = 0; src_device < device_count; src_device++) {     /* GENERATE_COPY(range) */
            for (int dst_device = 0; dst_device < device_count; dst_device++) { /* GENERATE_COPY(range) */
                INFO("Src device: " << src_device << ", Dst device: " << dst_device);

                HIP_CHECK(cudaSetDevice(src_device));
                if (device_count > 0 && kernel_stream != nullptr && kernel_stream != cudaStreamPerThread) {
                    HIP_CHECK(cudaStreamCreate(&kernel_stream));
                }
                if constexpr (enable_peer_access) {
                    if (src_device == dst_device) {
                        continue; /* upstream's return ends this generated run */
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

                LinearAllocGuard3D<int> src_alloc(extent);
                HIP_CHECK(cudaSetDevice(src_device));
                LinearAllocGuard3D<int> dst_alloc(extent);
                HIP_CHECK(cudaSetDevice(src_device));
                Alloc1D<int> host_alloc(LA1::hipHostMalloc, dst_alloc.width() * dst_alloc.height() * dst_alloc.depth());

                const dim3 threads_per_block(32, 32);
                const dim3 blocks(dst_alloc.width_logical() / threads_per_block.x + 1,
                                  dst_alloc.height() / threads_per_block.y + 1, dst_alloc.depth());
                // Using dst_alloc width and height to set only the elements that will be copied over to
                // dst_alloc
                Iota<<<blocks, threads_per_block, 0, kernel_stream>>>(src_alloc.ptr(), src_alloc.pitch(),
                                                                      dst_alloc.width_logical(), dst_alloc.height(),
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

                const auto f = [extent](size_t x, size_t y, size_t z) {
                    constexpr auto width_logical = extent.width / sizeof(int);
                    return z * width_logical * extent.height + y * width_logical + x;
                };
                PitchedMemoryVerify(host_alloc.ptr(), dst_alloc.width(), dst_alloc.width_logical(), dst_alloc.height(),
                                    dst_alloc.depth(), f);
                if constexpr (enable_peer_access) {
                    /* STREAMSIM: upstream leaves the peer access enabled, so on two devices that have it the next
                     * generated run's cudaDeviceEnablePeerAccess gives cudaErrorPeerAccessAlreadyEnabled (the
                     * Runtime API's answer, NVIDIA's too); disabled here as MemcpyDeviceToDeviceShell does. */
                    HIP_CHECK(cudaDeviceDisablePeerAccess(dst_device));
                }
            }
        }
    }
}

template <bool should_synchronize, typename F>
void Memcpy3DHostToDeviceShell(F memcpy_func, const cudaStream_t kernel_stream = nullptr) {
    for (const auto kind : {cudaMemcpyHostToDevice, cudaMemcpyDefault}) { /* GENERATE */
        constexpr cudaExtent extent{127 * sizeof(int), 128, 8};

        LinearAllocGuard3D<int> device_alloc(extent);

        for (const size_t host_pitch : {device_alloc.pitch(), 2 * device_alloc.pitch()}) { /* GENERATE_REF */
            Alloc1D<int> src_host_alloc(LA1::hipHostMalloc, host_pitch * device_alloc.height() * device_alloc.depth());
            Alloc1D<int> dst_host_alloc(LA1::hipHostMalloc,
                                        device_alloc.width() * device_alloc.height() * device_alloc.depth());

            const auto f = [extent](size_t x, size_t y, size_t z) {
                constexpr auto width_logical = extent.width / sizeof(int);
                return z * width_logical * extent.height + y * width_logical + x;
            };
            PitchedMemorySet(src_host_alloc.ptr(), host_pitch, device_alloc.width_logical(), device_alloc.height(),
                             device_alloc.depth(), f);

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
                                device_alloc.height(), device_alloc.depth(), f);
        }
    }
}

template <bool should_synchronize, typename F>
void Memcpy3DHostToHostShell(F memcpy_func, const cudaStream_t kernel_stream = nullptr) {
    for (const auto kind : {cudaMemcpyHostToHost, cudaMemcpyDefault}) { /* GENERATE */
        constexpr cudaExtent extent{127 * sizeof(int), 128, 8};

        for (const size_t padding : {size_t{0}, size_t{64}}) { /* GENERATE_COPY */
            const size_t src_pitch = extent.width + padding;

            Alloc1D<int> src_host(LA1::hipHostMalloc, src_pitch * extent.height * extent.depth);
            Alloc1D<int> dst_host(LA1::hipHostMalloc, extent.width * extent.height * extent.depth);

            const auto f = [extent](size_t x, size_t y, size_t z) {
                constexpr auto width_logical = extent.width / sizeof(int);
                return z * width_logical * extent.height + y * width_logical + x;
            };
            PitchedMemorySet(src_host.ptr(), src_pitch, extent.width / sizeof(int), extent.height, extent.depth, f);

            HIP_CHECK(memcpy_func(make_cudaPitchedPtr(dst_host.ptr(), extent.width, extent.width, extent.height),
                                  make_cudaPos(0, 0, 0),
                                  make_cudaPitchedPtr(src_host.ptr(), src_pitch, extent.width, extent.height),
                                  make_cudaPos(0, 0, 0), extent, kind, kernel_stream));
            if constexpr (should_synchronize) {
                HIP_CHECK(cudaStreamSynchronize(kernel_stream));
            }

            PitchedMemoryVerify(dst_host.ptr(), extent.width, extent.width / sizeof(int), extent.height, extent.depth,
                                f);
        }
    }
}

/* ---- graph_tests_common.hh ---- */
template <typename F> void GraphAddNodeCommonNegativeTests(F f, cudaGraph_t graph) {
    cudaGraphNode_t node = nullptr;
    SECTION("graph == nullptr") {
        HIP_CHECK_ERROR(f(&node, nullptr, nullptr, 0), cudaErrorInvalidValue);
    }

    SECTION("node == nullptr") {
        HIP_CHECK_ERROR(f(nullptr, graph, nullptr, 0), cudaErrorInvalidValue);
    }

    SECTION("dependencies == nullptr with size != 0") {
        HIP_CHECK_ERROR(f(&node, graph, nullptr, 1), cudaErrorInvalidValue);
    }

    // Disabled on AMD due to defect - EXSWHTEC-202 (the HT_NVIDIA branch)
    SECTION("Node in dependency is from different graph") {
        cudaGraph_t other_graph = nullptr;
        HIP_CHECK(cudaGraphCreate(&other_graph, 0));
        cudaGraphNode_t other_node = nullptr;
        HIP_CHECK(cudaGraphAddEmptyNode(&other_node, other_graph, nullptr, 0));
        cudaGraphNode_t node = nullptr;
        HIP_CHECK(cudaGraphAddEmptyNode(&node, graph, nullptr, 0));
        HIP_CHECK_ERROR(f(&node, graph, &other_node, 1), cudaErrorInvalidValue);
        HIP_CHECK(cudaGraphDestroy(other_graph));
    }

    SECTION("Invalid numNodes") {
        /* STREAMSIM: upstream passes &dep_node, a single handle, with a count of 2 (the second read is past the
         * variable, undefined in C++); here the second entry is a handle no call made. */
        cudaGraphNode_t dep_nodes[2] = {nullptr, reinterpret_cast<cudaGraphNode_t>(0x1234)};
        cudaGraphNode_t &dep_node = dep_nodes[0];
        HIP_CHECK(cudaGraphAddEmptyNode(&dep_node, graph, nullptr, 0));
        HIP_CHECK_ERROR(f(&node, graph, dep_nodes, 2), cudaErrorInvalidValue);
    }

    // Disabled on AMD due to defect - EXSWHTEC-201 (the HT_NVIDIA branch)
    SECTION("Duplicate node in dependencies") {
        cudaGraphNode_t dep_node = nullptr;
        // Need to create two nodes to avoid overlap with Invalid numNodes case
        // First one is left dangling as the graph will be destroyed after the section anyway
        HIP_CHECK(cudaGraphAddEmptyNode(&dep_node, graph, nullptr, 0));
        HIP_CHECK(cudaGraphAddEmptyNode(&dep_node, graph, nullptr, 0));
        cudaGraphNode_t deps[] = {dep_node, dep_node};
        HIP_CHECK_ERROR(f(&node, graph, deps, 2), cudaErrorInvalidValue);
    }
}


#define HT_NVIDIA 1
#define HT_AMD 0

/* ---- hipGraphMemcpyNodeSetParams1D.cc ---- */
namespace MemcpyNodeSetParams1D {




/* STREAMSIM: ReverseMemcpyDirection, as the helpers above write it (the same function). */

/**
 * @addtogroup cudaGraphMemcpyNodeSetParams1D cudaGraphMemcpyNodeSetParams1D
 * @{
 * @ingroup GraphTest
 * `cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst, const void *src, size_t count,
 * cudaMemcpyKind kind)` - 	Sets a memcpy node's parameters to perform a 1-dimensional copy
 */

/**
 * Test Description
 * ------------------------
 *    - Verify that node parameters get updated correctly by creating a node with valid but
 * incorrect parameters, and the setting them to the correct values after which the graph is
 * executed and the results of the memcpy verified.
 * The test is run for all possible memcpy directions, with both the corresponding memcpy
 * kind and cudaMemcpyDefault, as well as half page and full page allocation sizes.
 * Test source
 * ------------------------
 *    - unit/graph/cudaGraphMemcpyNodeSetParams1D.cc
 * Test requirements
 * ------------------------
 *    - HIP_VERSION >= 5.2
 */
static void Unit_hipGraphMemcpyNodeSetParams1D_Positive_Basic_pass() {
  constexpr auto f = [](void* dst, void* src, size_t count, cudaMemcpyKind direction) {
    cudaGraph_t graph = nullptr;
    HIP_CHECK(cudaGraphCreate(&graph, 0));
    cudaGraphNode_t node = nullptr;
    HIP_CHECK(cudaGraphAddMemcpyNode1D(&node, graph, nullptr, 0, src, dst, count / 2,
                                      ReverseMemcpyDirection(direction)));
    HIP_CHECK(cudaGraphMemcpyNodeSetParams1D(node, dst, src, count, direction));
    cudaGraphExec_t graph_exec = nullptr;
    HIP_CHECK(cudaGraphInstantiate(&graph_exec, graph, 0));
    HIP_CHECK(cudaGraphLaunch(graph_exec, cudaStreamPerThread));
    HIP_CHECK(cudaStreamSynchronize(cudaStreamPerThread));

    HIP_CHECK(cudaGraphExecDestroy(graph_exec));
    HIP_CHECK(cudaGraphDestroy(graph));

    return cudaSuccess;
  };

#if HT_NVIDIA
  MemcpyWithDirectionCommonTests<false>(f);
#else
  using namespace std::placeholders;

  SECTION("Device to host") {
    MemcpyDeviceToHostShell<false>(std::bind(f, _1, _2, _3, cudaMemcpyDeviceToHost));
  }

  SECTION("Host to device") {
    MemcpyHostToDeviceShell<false>(std::bind(f, _1, _2, _3, cudaMemcpyHostToDevice));
  }

  SECTION("Device to device") {
    SECTION("Peer access enabled") {
      MemcpyDeviceToDeviceShell<false, true>(std::bind(f, _1, _2, _3, cudaMemcpyDeviceToDevice));
    }
    SECTION("Peer access disabled") {
      MemcpyDeviceToDeviceShell<false, false>(std::bind(f, _1, _2, _3, cudaMemcpyDeviceToDevice));
    }
  }

  SECTION("Device to device with default kind") {
    SECTION("Peer access enabled") {
      MemcpyDeviceToDeviceShell<false, true>(std::bind(f, _1, _2, _3, cudaMemcpyDefault));
    }
    SECTION("Peer access disabled") {
      MemcpyDeviceToDeviceShell<false, false>(std::bind(f, _1, _2, _3, cudaMemcpyDefault));
    }
  }

// Disabled on AMD due to defect - EXSWHTEC-209
#if 0
  SECTION("Host to host") {
    MemcpyHostToHostShell<false>(std::bind(f, _1, _2, _3, cudaMemcpyHostToHost));
  }

  SECTION("Host to host with default kind") {
    MemcpyHostToHostShell<false>(std::bind(f, _1, _2, _3, cudaMemcpyDefault));
  }
#endif

// Disabled on AMD due to defect - EXSWHTEC-210
#if 0
  SECTION("Device to host with default kind") {
    MemcpyDeviceToHostShell<false>(std::bind(f, _1, _2, _3, cudaMemcpyDefault));
  }

  SECTION("Host to device with default kind") {
    MemcpyHostToDeviceShell<false>(std::bind(f, _1, _2, _3, cudaMemcpyDefault));
  }
#endif

#endif
}

/**
 * Test Description
 * ------------------------
 *    - Verify API behaviour with invalid arguments:
 *        -# node is nullptr
 *        -# dst is nullptr
 *        -# src is nullptr
 *        -# kind is an invalid enum value
 *        -# count is zero
 *        -# count is larger than dst allocation size
 *        -# count is larger than src allocation size
 * Test source
 * ------------------------
 *    - unit/graph/cudaGraphMemcpyNodeSetParams1D.cc
 * Test requirements
 * ------------------------
 *    - HIP_VERSION >= 5.2
 */
static void Unit_hipGraphMemcpyNodeSetParams1D_Negative_Parameters_pass() {
  using namespace std::placeholders;
  cudaGraph_t graph = nullptr;
  HIP_CHECK(cudaGraphCreate(&graph, 0));

  int src[2] = {}, dst[2] = {};

  cudaGraphNode_t node = nullptr;
  HIP_CHECK(
      cudaGraphAddMemcpyNode1D(&node, graph, nullptr, 0, dst, src, sizeof(dst), cudaMemcpyDefault));


  SECTION("node == nullptr") {
    HIP_CHECK_ERROR(cudaGraphMemcpyNodeSetParams1D(nullptr, dst, src, sizeof(dst), cudaMemcpyDefault),
                    cudaErrorInvalidValue);
  }

  MemcpyWithDirectionCommonNegativeTests(
      std::bind(cudaGraphMemcpyNodeSetParams1D, node, _1, _2, _3, _4), dst, src, sizeof(dst),
      cudaMemcpyDefault);

  SECTION("count == 0") {
    HIP_CHECK_ERROR(cudaGraphMemcpyNodeSetParams1D(node, dst, src, 0, cudaMemcpyDefault),
                    cudaErrorInvalidValue);
  }

  SECTION("count larger than dst allocation size") {
    LinearAllocGuard<int> dev_dst(LinearAllocs::hipMalloc, sizeof(int));
    HIP_CHECK_ERROR(
        cudaGraphMemcpyNodeSetParams1D(node, dev_dst.ptr(), src, sizeof(src), cudaMemcpyDefault),
        cudaErrorInvalidValue);
  }

  SECTION("count larger than src allocation size") {
    LinearAllocGuard<int> dev_src(LinearAllocs::hipMalloc, sizeof(int));
    HIP_CHECK_ERROR(
        cudaGraphMemcpyNodeSetParams1D(node, dst, dev_src.ptr(), sizeof(dst), cudaMemcpyDefault),
        cudaErrorInvalidValue);
  }

  HIP_CHECK(cudaGraphDestroy(graph));
}

/**
* End doxygen group GraphTest.
* @}
*/

static void Unit_hipGraphMemcpyNodeSetParams1D_Positive_Basic() {
    RunSections(Unit_hipGraphMemcpyNodeSetParams1D_Positive_Basic_pass);
}
static void Unit_hipGraphMemcpyNodeSetParams1D_Negative_Parameters() {
    RunSections(Unit_hipGraphMemcpyNodeSetParams1D_Negative_Parameters_pass);
}
} // namespace MemcpyNodeSetParams1D

/* ---- hipGraphMemcpyNodeSetParams.cc ---- */
namespace MemcpyNodeSetParams {




/**
 * @addtogroup cudaGraphMemcpyNodeSetParams cudaGraphMemcpyNodeSetParams
 * @{
 * @ingroup GraphTest
 * `cudaGraphMemcpyNodeSetParams (cudaGraphNode_t node, const cudaMemcpy3DParms *pNodeParams)` - Sets a
 * memcpy node's parameters
 */

/**
 * Test Description
 * ------------------------
 *    - Verify that node parameters get updated correctly by creating a node with valid but
 * incorrect parameters, and the setting them to the correct values after which the graph is
 * executed and the results of the memcpy verified.
 * The test is run for all possible memcpy directions, with both the corresponding memcpy
 * kind and cudaMemcpyDefault, as well as half page and full page allocation sizes.
 * Test source
 * ------------------------
 *    - unit/graph/cudaGraphMemcpyNodeSetParams.cc
 * Test requirements
 * ------------------------
 *    - HIP_VERSION >= 5.2
 */
static void Unit_hipGraphMemcpyNodeSetParams_Positive_Basic_pass() {
  CHECK_IMAGE_SUPPORT

  constexpr bool async = false;

  SECTION("Device to host") {
    Memcpy3DDeviceToHostShell<async>(Memcpy3DWrapper<async, true, true>);
  }

  SECTION("Device to host with default kind") {
    Memcpy3DDeviceToHostShell<async>(Memcpy3DWrapper<async, true, true>);
  }

  SECTION("Host to device") {
    Memcpy3DHostToDeviceShell<async>(Memcpy3DWrapper<async, true, true>);
  }

  SECTION("Host to device with default kind") {
    Memcpy3DHostToDeviceShell<async>(Memcpy3DWrapper<async, true, true>);
  }

  SECTION("Host to host") { Memcpy3DHostToHostShell<async>(Memcpy3DWrapper<async, true, true>); }

  SECTION("Host to host with default kind") {
    Memcpy3DHostToHostShell<async>(Memcpy3DWrapper<async, true, true>);
  }

  SECTION("Device to device / Peer access enabled") {
    Memcpy3DDeviceToDeviceShell<async, true>(Memcpy3DWrapper<async, true, true>);
  }
  SECTION("Device to device / Peer access disabled") {
    Memcpy3DDeviceToDeviceShell<async, false>(Memcpy3DWrapper<async, true, true>);
  }

  SECTION("Device to device with default kind / Peer access enabled") {
    Memcpy3DDeviceToDeviceShell<async, true>(Memcpy3DWrapper<async, true, true>);
  }
  SECTION("Device to device with default kind / Peer access disabled") {
    Memcpy3DDeviceToDeviceShell<async, false>(Memcpy3DWrapper<async, true, true>);
  }

  /* STREAMSIM: Memcpy3DArrayHostShell and (HT_NVIDIA) Memcpy3DArrayDeviceShell copy through CUDA arrays
   * (hipMalloc3DArray), which the simulator does not have: the two sections say so and are skipped. */
  SECTION("Array from/to Host") { HipTest::HIP_SKIP_TEST("Array from/to Host: CUDA arrays are not simulated"); }
#if HT_NVIDIA  // Disabled on AMD due to defect - EXSWHTEC-220
  SECTION("Array from/to Device") {
    HipTest::HIP_SKIP_TEST("Array from/to Device: CUDA arrays are not simulated");
  }
#endif
}

/**
 * Test Description
 * ------------------------
 *    - Verify API behaviour with invalid arguments:
 *        -# node is nullptr
 *        -# graph is nullptr
 *        -# pDependencies is nullptr when numDependencies is not zero
 *        -# A node in pDependencies originates from a different graph
 *        -# numDependencies is invalid
 *        -# A node is duplicated in pDependencies
 *        -# dst is nullptr
 *        -# src is nullptr
 *        -# kind is an invalid enum value
 *        -# count is zero
 *        -# count is larger than dst allocation size
 *        -# count is larger than src allocation size
 * Test source
 * ------------------------
 *    - unit/graph/cudaGraphAddMemcpyNode.cc
 * Test requirements
 * ------------------------
 *    - HIP_VERSION >= 5.2
 */
/* Catch2's nested sections: each of the four outer sections ("Host to Device" …) holds NegativeTests' sections;
 * a pass enters one outer section (outer, set by the loop of the test case) and one inner leaf. */
static int negative_outer = 0;

static void Unit_hipGraphMemcpyNodeSetParams_Negative_Parameters_pass() {
  CHECK_IMAGE_SUPPORT

  using namespace std::placeholders;

  constexpr cudaExtent extent{128 * sizeof(int), 128, 8};

  constexpr auto NegativeTests = [](cudaPitchedPtr dst_ptr, cudaPos dst_pos, cudaPitchedPtr src_ptr,
                                    cudaPos src_pos, cudaExtent extent, cudaMemcpyKind kind) {
    cudaGraph_t graph = nullptr;
    HIP_CHECK(cudaGraphCreate(&graph, 0));

    cudaGraphNode_t node = nullptr;
    auto params = GetMemcpy3DParms(dst_ptr, dst_pos, src_ptr, src_pos, extent, kind);
    HIP_CHECK(cudaGraphAddMemcpyNode(&node, graph, nullptr, 0, &params));

    SECTION("node == nullptr") {
      params = GetMemcpy3DParms(dst_ptr, dst_pos, src_ptr, src_pos, extent, kind);
      HIP_CHECK_ERROR(cudaGraphMemcpyNodeSetParams(nullptr, &params), cudaErrorInvalidValue);
    }

    SECTION("dst_ptr.ptr == nullptr") {
      cudaPitchedPtr invalid_ptr = dst_ptr;
      invalid_ptr.ptr = nullptr;
      params = GetMemcpy3DParms(invalid_ptr, dst_pos, src_ptr, src_pos, extent, kind);
      HIP_CHECK_ERROR(cudaGraphMemcpyNodeSetParams(node, &params), cudaErrorInvalidValue);
    }

    SECTION("src_ptr.ptr == nullptr") {
      cudaPitchedPtr invalid_ptr = src_ptr;
      invalid_ptr.ptr = nullptr;
      params = GetMemcpy3DParms(dst_ptr, dst_pos, invalid_ptr, src_pos, extent, kind);
      HIP_CHECK_ERROR(cudaGraphMemcpyNodeSetParams(node, &params), cudaErrorInvalidValue);
    }

    SECTION("dst_ptr.pitch < width") {
      /* STREAMSIM: cudaErrorInvalidPitchValue upstream (NVIDIA's answer); the call lists no 12, and the
       * simulator answers 1 (graph-building.md · GraphAddMemcpyNode, the Note row). */
      cudaPitchedPtr invalid_ptr = dst_ptr;
      invalid_ptr.pitch = extent.width - 1;
      params = GetMemcpy3DParms(invalid_ptr, dst_pos, src_ptr, src_pos, extent, kind);
      HIP_CHECK_ERROR(cudaGraphMemcpyNodeSetParams(node, &params), cudaErrorInvalidValue);
    }

    SECTION("src_ptr.pitch < width") {
      /* STREAMSIM: as above. */
      cudaPitchedPtr invalid_ptr = src_ptr;
      invalid_ptr.pitch = extent.width - 1;
      params = GetMemcpy3DParms(dst_ptr, dst_pos, invalid_ptr, src_pos, extent, kind);
      HIP_CHECK_ERROR(cudaGraphMemcpyNodeSetParams(node, &params), cudaErrorInvalidValue);
    }

    SECTION("dst_ptr.pitch > max pitch") {
      int attr = 0;
      HIP_CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrMaxPitch, 0));
      cudaPitchedPtr invalid_ptr = dst_ptr;
      invalid_ptr.pitch = attr;
      params = GetMemcpy3DParms(invalid_ptr, dst_pos, src_ptr, src_pos, extent, kind);
      HIP_CHECK_ERROR(cudaGraphMemcpyNodeSetParams(node, &params), cudaErrorInvalidValue);
    }

    SECTION("src_ptr.pitch > max pitch") {
      int attr = 0;
      HIP_CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrMaxPitch, 0));
      cudaPitchedPtr invalid_ptr = src_ptr;
      invalid_ptr.pitch = attr;
      params = GetMemcpy3DParms(dst_ptr, dst_pos, invalid_ptr, src_pos, extent, kind);
      HIP_CHECK_ERROR(cudaGraphMemcpyNodeSetParams(node, &params), cudaErrorInvalidValue);
    }

    SECTION("extent.width + dst_pos.x > dst_ptr.pitch") {
      cudaPos invalid_pos = dst_pos;
      invalid_pos.x = dst_ptr.pitch - extent.width + 1;
      params = GetMemcpy3DParms(dst_ptr, invalid_pos, src_ptr, src_pos, extent, kind);
      HIP_CHECK_ERROR(cudaGraphMemcpyNodeSetParams(node, &params), cudaErrorInvalidValue);
    }

    SECTION("extent.width + src_pos.x > src_ptr.pitch") {
      cudaPos invalid_pos = src_pos;
      invalid_pos.x = src_ptr.pitch - extent.width + 1;
      params = GetMemcpy3DParms(dst_ptr, dst_pos, src_ptr, invalid_pos, extent, kind);
      HIP_CHECK_ERROR(cudaGraphMemcpyNodeSetParams(node, &params), cudaErrorInvalidValue);
    }

    SECTION("dst_pos.y out of bounds") {
      cudaPos invalid_pos = dst_pos;
      invalid_pos.y = 1;
      params = GetMemcpy3DParms(dst_ptr, invalid_pos, src_ptr, src_pos, extent, kind);
      HIP_CHECK_ERROR(cudaGraphMemcpyNodeSetParams(node, &params), cudaErrorInvalidValue);
    }

    SECTION("src_pos.y out of bounds") {
      cudaPos invalid_pos = src_pos;
      invalid_pos.y = 1;
      params = GetMemcpy3DParms(dst_ptr, dst_pos, src_ptr, invalid_pos, extent, kind);
      HIP_CHECK_ERROR(cudaGraphMemcpyNodeSetParams(node, &params), cudaErrorInvalidValue);
    }

    SECTION("dst_pos.z out of bounds") {
      cudaPos invalid_pos = dst_pos;
      invalid_pos.z = 1;
      params = GetMemcpy3DParms(dst_ptr, invalid_pos, src_ptr, src_pos, extent, kind);
      HIP_CHECK_ERROR(cudaGraphMemcpyNodeSetParams(node, &params), cudaErrorInvalidValue);
    }

    SECTION("src_pos.z out of bounds") {
      cudaPos invalid_pos = src_pos;
      invalid_pos.z = 1;
      params = GetMemcpy3DParms(dst_ptr, dst_pos, src_ptr, invalid_pos, extent, kind);
      HIP_CHECK_ERROR(cudaGraphMemcpyNodeSetParams(node, &params), cudaErrorInvalidValue);
    }

    SECTION("Invalid MemcpyKind") {
      params = GetMemcpy3DParms(dst_ptr, dst_pos, src_ptr, src_pos, extent,
                                     static_cast<cudaMemcpyKind>(-1));
      HIP_CHECK_ERROR(cudaGraphMemcpyNodeSetParams(node, &params), cudaErrorInvalidMemcpyDirection);
    }

    HIP_CHECK(cudaGraphDestroy(graph));
  };

  if (negative_outer == 0) { /* SECTION("Host to Device") */
    LinearAllocGuard3D<int> device_alloc(extent);
    Alloc1D<int> host_alloc(LA1::hipHostMalloc,
        device_alloc.pitch() * device_alloc.height() * device_alloc.depth());
    NegativeTests(device_alloc.pitched_ptr(), make_cudaPos(0, 0, 0),
                  make_cudaPitchedPtr(host_alloc.ptr(), device_alloc.pitch(), device_alloc.width(),
                                     device_alloc.height()),
                  make_cudaPos(0, 0, 0), extent, cudaMemcpyHostToDevice);
  }

  if (negative_outer == 1) { /* SECTION("Device to Host") */
    LinearAllocGuard3D<int> device_alloc(extent);
    Alloc1D<int> host_alloc(LA1::hipHostMalloc,
        device_alloc.pitch() * device_alloc.height() * device_alloc.depth());
    NegativeTests(make_cudaPitchedPtr(host_alloc.ptr(), device_alloc.pitch(), device_alloc.width(),
                                     device_alloc.height()),
                  make_cudaPos(0, 0, 0), device_alloc.pitched_ptr(), make_cudaPos(0, 0, 0), extent,
                  cudaMemcpyDeviceToHost);
  }

  if (negative_outer == 2) { /* SECTION("Host to Host") */
    Alloc1D<int> src_alloc(LA1::hipHostMalloc,
                                    extent.width * extent.height * extent.depth);
    Alloc1D<int> dst_alloc(LA1::hipHostMalloc,
                                    extent.width * extent.height * extent.depth);
    NegativeTests(make_cudaPitchedPtr(dst_alloc.ptr(), extent.width, extent.width, extent.height),
                  make_cudaPos(0, 0, 0),
                  make_cudaPitchedPtr(src_alloc.ptr(), extent.width, extent.width, extent.height),
                  make_cudaPos(0, 0, 0), extent, cudaMemcpyHostToHost);
  }

  if (negative_outer == 3) { /* SECTION("Device to Device") */
    LinearAllocGuard3D<int> src_alloc(extent);
    LinearAllocGuard3D<int> dst_alloc(extent);
    NegativeTests(dst_alloc.pitched_ptr(), make_cudaPos(0, 0, 0), src_alloc.pitched_ptr(),
                  make_cudaPos(0, 0, 0), extent, cudaMemcpyDeviceToDevice);
  }
}

/**
* End doxygen group GraphTest.
* @}
*/

static void Unit_hipGraphMemcpyNodeSetParams_Positive_Basic() {
    RunSections(Unit_hipGraphMemcpyNodeSetParams_Positive_Basic_pass);
}
static void Unit_hipGraphMemcpyNodeSetParams_Negative_Parameters() {
    for (negative_outer = 0; negative_outer < 4; negative_outer++) {
        RunSections(Unit_hipGraphMemcpyNodeSetParams_Negative_Parameters_pass);
    }
}
} // namespace MemcpyNodeSetParams

/* ---- resource_guards.hh's LinearAllocGuard2D and graph_memset_node_test_common.hh, as tests/c/hip_tests_graph_memset_node.cu writes them out ---- */
/* resource_guards.hh's LinearAllocGuard2D<T> (aligned: cudaMallocPitch). */
template <typename T> class LinearAllocGuard2D {
  public:
    LinearAllocGuard2D(const size_t width_logical, const size_t height)
        : extent_{make_cudaExtent(width_logical * sizeof(T), height, 1)} {
        HIP_CHECK(cudaMallocPitch(&pitched_ptr_.ptr, &pitched_ptr_.pitch, extent_.width, extent_.height));
    }
    LinearAllocGuard2D(const LinearAllocGuard2D &) = delete;
    ~LinearAllocGuard2D() { static_cast<void>(cudaFree(pitched_ptr_.ptr)); }
    T *ptr() const { return reinterpret_cast<T *>(pitched_ptr_.ptr); };
    size_t pitch() const { return pitched_ptr_.pitch; }

  private:
    cudaPitchedPtr pitched_ptr_{};
    const cudaExtent extent_;
};

/* STREAMSIM: resource_guards.hh's LinearAllocGuard<T>(LinearAllocs::hipHostMalloc, size): cudaMallocHost, freed
 * by the destructor without a check. */
template <typename T> class PinnedAllocGuard {
  public:
    PinnedAllocGuard(const size_t size) { HIP_CHECK(cudaMallocHost(reinterpret_cast<void **>(&ptr_), size)); }
    PinnedAllocGuard(const PinnedAllocGuard &) = delete;
    ~PinnedAllocGuard() { static_cast<void>(cudaFreeHost(ptr_)); }
    T *ptr() const { return ptr_; }

  private:
    T *ptr_ = nullptr;
};

/* ---- graph_memset_node_test_common.hh ---- */
template <typename T, typename Tp, typename F> void GraphMemsetNodeCommonPositive(F f) {
    for (const size_t width : {size_t{1}, size_t{64}, kPageSize / sizeof(T) + 1}) { /* GENERATE */
        for (const size_t height : {size_t{1}, size_t{2}, size_t{1024}}) { /* GENERATE */
            /* DYNAMIC_SECTION("Width: " << width << " Height: " << height) */
            LinearAllocGuard2D<T> alloc(width, height);

            constexpr T set_value = 42;
            Tp params = {};
            params.dst = alloc.ptr();
            params.elementSize = sizeof(T);
            params.width = width;
            params.height = height;
            params.pitch = alloc.pitch();
            params.value = set_value;

            HIP_CHECK(f(&params));

            PinnedAllocGuard<T> buffer(width * sizeof(T) * height); /* STREAMSIM: LinearAllocs::hipHostMalloc */
            HIP_CHECK(cudaMemcpy2D(buffer.ptr(), width * sizeof(T), alloc.ptr(), alloc.pitch(), width * sizeof(T),
                                   height, cudaMemcpyDeviceToHost));
            ArrayFindIfNot(buffer.ptr(), set_value, width * height);
        }
    }
}

/* ---- hipGraphAddNode.cc ---- */
namespace AddNode {





/**
 * @addtogroup cudaGraphAddNode cudaGraphAddNode
 * @{
 * @ingroup GraphTest
 * `cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t
 * *pDependencies, size_t numDependencies, cudaGraphNodeParams *nodeParams)` - Creates a node and
 * adds it to a graph
 */

static constexpr size_t N = 1024;

static void callbackfunc(void* A_h) {
  int* A = reinterpret_cast<int*>(A_h);
  for (int i = 0; i < N; i++) {
    A[i] = i;
  }
}

static void __global__ vector_square(int* A_d) {
  for (int i = 0; i < N; i++) {
    A_d[i] = A_d[i] * A_d[i];
  }
}

/**
 * Test Description
 * ------------------------
 *    - Verify that all elements of destination memory are set to the correct value.
 * The test is repeated for all valid element sizes(1, 2, 4), and several allocations of different
 * height and width, both on host and device.
 * Test source
 * ------------------------
 *    - unit/graph/cudaGraphAddNode.cc
 * Test requirements
 * ------------------------
 *    - HIP_VERSION >= 6.0
 */
template <typename TestType> static void Unit_hipGraphAddNodeTypeMemset_Positive_Basic_pass() {
  const auto f = [](cudaMemsetParams* params) {
    cudaGraph_t graph = nullptr;
    HIP_CHECK(cudaGraphCreate(&graph, 0));

    cudaGraphNode_t node = nullptr;
    cudaGraphNodeParams node_params = {};
    node_params.type = cudaGraphNodeTypeMemset;
    node_params.memset.dst = params->dst;
    node_params.memset.elementSize = params->elementSize;
    node_params.memset.width = params->width;
    node_params.memset.height = params->height;
    node_params.memset.pitch = params->pitch;
    node_params.memset.value = params->value;
    HIP_CHECK(cudaGraphAddNode(&node, graph, nullptr, 0, &node_params));

    cudaGraphExec_t graph_exec = nullptr;
    HIP_CHECK(cudaGraphInstantiate(&graph_exec, graph, 0));

    HIP_CHECK(cudaGraphLaunch(graph_exec, cudaStreamPerThread));
    HIP_CHECK(cudaStreamSynchronize(cudaStreamPerThread));

    HIP_CHECK(cudaGraphExecDestroy(graph_exec));
    HIP_CHECK(cudaGraphDestroy(graph));

    return cudaSuccess;
  };

  GraphMemsetNodeCommonPositive<TestType, cudaMemsetParams>(f);
}

/**
 * Test Description
 * ------------------------
 *    - Verify that kernel node added with cudaGraphAddNode executes correctly and does the square of
 * values in the device array. The result is copied to host and verified.
 * Test source
 * ------------------------
 *    - unit/graph/cudaGraphAddNode.cc
 * Test requirements
 * ------------------------
 *    - HIP_VERSION >= 6.0
 */
static void Unit_hipGraphAddNodeTypeKernel_Positive_Basic_pass() {
  constexpr size_t allocation_size = N * sizeof(int);
  cudaGraph_t graph;
  cudaGraphExec_t graphExec;

  int* A_d{nullptr};
  int *A_h{nullptr}, *B_h{nullptr};
  HipTest::initArrays<int>(&A_d, nullptr, nullptr, &A_h, &B_h, nullptr, N, false);

  HIP_CHECK(cudaGraphCreate(&graph, 0));

  cudaGraphNode_t memcpyH2D_A, memcpyD2H_B;
  cudaStream_t streamForGraph;
  HIP_CHECK(cudaStreamCreate(&streamForGraph));

  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, graph, nullptr, 0, A_d, A_h, allocation_size,
                                    cudaMemcpyHostToDevice));

  cudaGraphNode_t node;
  cudaGraphNodeParams node_params = {};
  node_params.type = cudaGraphNodeTypeKernel;
  void* kernel_args[] = {&A_d};
  node_params.kernel.func = reinterpret_cast<void*>(vector_square);
  node_params.kernel.gridDim = dim3(1);
  node_params.kernel.blockDim = dim3(1);
  node_params.kernel.sharedMemBytes = 0;
  node_params.kernel.kernelParams = reinterpret_cast<void**>(kernel_args);
  node_params.kernel.extra = nullptr;
  HIP_CHECK(cudaGraphAddNode(&node, graph, nullptr, 0, &node_params));


  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyD2H_B, graph, nullptr, 0, B_h, A_d, allocation_size,
                                    cudaMemcpyDeviceToHost));

  HIP_CHECK(cudaGraphAddDependencies(graph, &memcpyH2D_A, &node, 1));
  HIP_CHECK(cudaGraphAddDependencies(graph, &node, &memcpyD2H_B, 1));

  // Instantiate and launch the graph
  HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
  HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
  HIP_CHECK(cudaStreamSynchronize(streamForGraph));

  // Verify execution result
  for (size_t i = 0; i < N; i++) {
    if (B_h[i] != (A_h[i] * A_h[i])) {
      REQUIRE(false);
    }
  }

  HipTest::freeArrays<int>(A_d, nullptr, nullptr, A_h, B_h, nullptr, false);
  HIP_CHECK(cudaGraphExecDestroy(graphExec));
  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaStreamDestroy(streamForGraph));
}

/**
 * Test Description
 * ------------------------
 *    - Verify that host node added with cudaGraphAddNode executes correctly and sets values of host
 * array. The result is verified.
 * Test source
 * ------------------------
 *    - unit/graph/cudaGraphAddNode.cc
 * Test requirements
 * ------------------------
 *    - HIP_VERSION >= 6.0
 */
static void Unit_hipGraphAddNodeTypeHost_Positive_Basic_pass() {
  constexpr size_t allocation_size = N * sizeof(int);
  cudaGraph_t graph;
  cudaGraphExec_t graphExec;
  int* A_h = (int*)malloc(allocation_size);
  std::fill_n(A_h, N, 0);

  HIP_CHECK(cudaGraphCreate(&graph, 0));
  cudaStream_t streamForGraph;
  HIP_CHECK(cudaStreamCreate(&streamForGraph));

  cudaGraphNode_t node;
  cudaGraphNodeParams node_params = {};
  node_params.type = cudaGraphNodeTypeHost;
  node_params.host.fn = callbackfunc;
  node_params.host.userData = A_h;
  HIP_CHECK(cudaGraphAddNode(&node, graph, nullptr, 0, &node_params));

  // Instantiate and launch the graph
  HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
  HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
  HIP_CHECK(cudaStreamSynchronize(streamForGraph));

  // Verify execution result
  for (size_t i = 0; i < N; i++) {
    if (A_h[i] != static_cast<int>(i)) {
      REQUIRE(false);
    }
  }

  free(A_h);
  HIP_CHECK(cudaGraphExecDestroy(graphExec));
  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaStreamDestroy(streamForGraph));
}

/**
 * Test Description
 * ------------------------
 *    - Verify that when graph is created and childgraph node is added with cudaGraphAddNode, the
 * childgraph executes correctly.
 * Test source
 * ------------------------
 *    - unit/graph/cudaGraphAddNode.cc
 * Test requirements
 * ------------------------
 *    - HIP_VERSION >= 6.0
 */
static void Unit_hipGraphAddNodeTypeChildGraph_Positive_Basic_pass() {
  constexpr size_t allocation_size = N * sizeof(int);
  cudaGraph_t graph, childgraph;
  cudaGraphExec_t graphExec;

  int *A_d{nullptr}, *B_d{nullptr}, *C_d{nullptr};
  int *A_h{nullptr}, *B_h{nullptr}, *C_h{nullptr};
  HipTest::initArrays<int>(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N, false);

  HIP_CHECK(cudaGraphCreate(&graph, 0));

  for (size_t i = 0; i < N; i++) {
    B_h[i] = i;
  }

  cudaGraphNode_t memcpyH2D_A, memcpyH2D_B, childGraphNode1, memcpyH2D_C;
  cudaStream_t streamForGraph;
  HIP_CHECK(cudaStreamCreate(&streamForGraph));
  HIP_CHECK(cudaGraphCreate(&childgraph, 0));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D_B, childgraph, nullptr, 0, B_d, B_h, allocation_size,
                                    cudaMemcpyHostToDevice));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, childgraph, nullptr, 0, A_h, B_d, allocation_size,
                                    cudaMemcpyDeviceToHost));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D_C, graph, nullptr, 0, C_d, C_h, allocation_size,
                                    cudaMemcpyHostToDevice));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D_C, graph, nullptr, 0, A_h, C_d, allocation_size,
                                    cudaMemcpyDeviceToHost));

  cudaGraphNodeParams node_params = {};
  node_params.type = cudaGraphNodeTypeGraph;
  node_params.graph.graph = childgraph;
  HIP_CHECK(cudaGraphAddNode(&childGraphNode1, graph, nullptr, 0, &node_params));

  HIP_CHECK(cudaGraphAddDependencies(childgraph, &memcpyH2D_B, &memcpyH2D_A, 1));

  // Instantiate and launch the childgraph
  HIP_CHECK(cudaGraphInstantiate(&graphExec, childgraph, 0));
  HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
  HIP_CHECK(cudaStreamSynchronize(streamForGraph));

  // Verify execution result
  for (size_t i = 0; i < N; i++) {
    if (B_h[i] != A_h[i]) {
      REQUIRE(false);
    }
  }

  HipTest::freeArrays<int>(A_d, B_d, C_d, A_h, B_h, C_h, false);
  HIP_CHECK(cudaGraphExecDestroy(graphExec));
  HIP_CHECK(cudaGraphDestroy(childgraph));
  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaStreamDestroy(streamForGraph));
}


/* STREAMSIM: PtrVariant (a pitched pointer or a CUDA array) → cudaPitchedPtr, as the helpers above take. */
static cudaError_t MemcpyType3DWrapper(cudaPitchedPtr dst_ptr, cudaPos dst_pos, cudaPitchedPtr src_ptr,
                                      cudaPos src_pos, cudaExtent extent, cudaMemcpyKind kind,
                                      cudaStream_t stream = nullptr) {
  auto parms = GetMemcpy3DParms(dst_ptr, dst_pos, src_ptr, src_pos, extent, kind);

  cudaGraph_t graph = nullptr;
  HIP_CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphNode_t node = nullptr;

  cudaGraphNodeParams node_params = {};
  node_params.type = cudaGraphNodeTypeMemcpy;
  memset(&node_params.memcpy, 0, sizeof(cudaMemcpyNodeParams));
  node_params.memcpy.copyParams = parms;
  HIP_CHECK(cudaGraphAddNode(&node, graph, nullptr, 0, &node_params));

  cudaGraphExec_t graph_exec = nullptr;
  HIP_CHECK(cudaGraphInstantiate(&graph_exec, graph, 0));
  HIP_CHECK(cudaGraphLaunch(graph_exec, cudaStreamPerThread));
  HIP_CHECK(cudaStreamSynchronize(cudaStreamPerThread));

  HIP_CHECK(cudaGraphExecDestroy(graph_exec));
  HIP_CHECK(cudaGraphDestroy(graph));

  return cudaSuccess;
}

/**
 * Test Description
 * ------------------------
 *    - Verify basic API behavior. A Memcpy node is created using cudaGraphAddNode with parameters
 * set according to the test run, after which the graph is run and the memcpy results are verified.
 * The test is run for all possible memcpy directions, with both the corresponding memcpy
 * kind and cudaMemcpyDefault, as well as half page and full page allocation sizes.
 * Test source
 * ------------------------
 *    - unit/graph/cudaGraphAddNode.cc
 * Test requirements
 * ------------------------
 *    - HIP_VERSION >= 6.0
 */
static void Unit_hipGraphAddNodeTypeMemcpy_Positive_Basic_pass() {
  CHECK_IMAGE_SUPPORT

  constexpr bool async = false;

  SECTION("Device to host") { Memcpy3DDeviceToHostShell<async>(MemcpyType3DWrapper); }

  SECTION("Device to host with default kind") {
    Memcpy3DDeviceToHostShell<async>(MemcpyType3DWrapper);
  }

  SECTION("Host to device") { Memcpy3DHostToDeviceShell<async>(MemcpyType3DWrapper); }

  SECTION("Host to device with default kind") {
    Memcpy3DHostToDeviceShell<async>(MemcpyType3DWrapper);
  }

  SECTION("Host to host") { Memcpy3DHostToHostShell<async>(MemcpyType3DWrapper); }

  SECTION("Host to host with default kind") { Memcpy3DHostToHostShell<async>(MemcpyType3DWrapper); }

  SECTION("Device to device / Peer access enabled") {
    Memcpy3DDeviceToDeviceShell<async, true>(MemcpyType3DWrapper);
  }
  SECTION("Device to device / Peer access disabled") {
    Memcpy3DDeviceToDeviceShell<async, false>(MemcpyType3DWrapper);
  }

  SECTION("Device to device with default kind / Peer access enabled") {
    Memcpy3DDeviceToDeviceShell<async, true>(MemcpyType3DWrapper);
  }
  SECTION("Device to device with default kind / Peer access disabled") {
    Memcpy3DDeviceToDeviceShell<async, false>(MemcpyType3DWrapper);
  }

  /* STREAMSIM: Memcpy3DArrayHostShell and (HT_NVIDIA) Memcpy3DArrayDeviceShell copy through CUDA arrays
   * (hipMalloc3DArray), which the simulator does not have: the two sections say so and are skipped. */
  SECTION("Array from/to Host") { HipTest::HIP_SKIP_TEST("Array from/to Host: CUDA arrays are not simulated"); }
#if HT_NVIDIA  // Disabled on AMD due to defect - EXSWHTEC-220
  SECTION("Array from/to Device") {
    HipTest::HIP_SKIP_TEST("Array from/to Device: CUDA arrays are not simulated");
  }
#endif
}


/**
 * Test Description
 * ------------------------
 *    - Verify basic API functionality where one event record node is added to graph with
 * cudaGraphAddNode and its correct behavior is verified.
 * Test source
 * ------------------------
 *    - unit/graph/cudaGraphAddNode.cc
 * Test requirements
 * ------------------------
 *    - HIP_VERSION >= 6.0
 */
static void Unit_hipGraphAddNodeTypeEventRecord_Positive_Basic_pass() {
  cudaGraph_t graph;
  cudaStream_t streamForGraph;
  cudaGraphExec_t graphExec;
  cudaGraphNode_t node;
  HIP_CHECK(cudaStreamCreate(&streamForGraph));
  HIP_CHECK(cudaGraphCreate(&graph, 0));
  cudaEvent_t event;
  HIP_CHECK(cudaEventCreate(&event));

  cudaGraphNodeParams node_params = {};
  node_params.type = cudaGraphNodeTypeEventRecord;
  node_params.eventRecord.event = event;
  HIP_CHECK(cudaGraphAddNode(&node, graph, nullptr, 0, &node_params));

  // Instantiate and launch the graph
  HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
  HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
  // Wait for event
  HIP_CHECK(cudaEventSynchronize(event));
  HIP_CHECK(cudaGraphExecDestroy(graphExec));
  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaEventDestroy(event));
  HIP_CHECK(cudaStreamDestroy(streamForGraph));
}

/**
 * Test Description
 * ------------------------
 *    - Verify basic API functionality where one event record and one event wait nodes are added to
 * graph with cudaGraphAddNode and their correct behavior is verified.
 * Test source
 * ------------------------
 *    - unit/graph/cudaGraphAddNode.cc
 * Test requirements
 * ------------------------
 *    - HIP_VERSION >= 6.0
 */
static void Unit_hipGraphAddNodeTypeEventWait_Positive_Basic_pass() {
  cudaGraph_t graph;
  cudaStream_t streamForGraph;
  cudaGraphExec_t graphExec;
  HIP_CHECK(cudaStreamCreate(&streamForGraph));
  HIP_CHECK(cudaGraphCreate(&graph, 0));
  cudaEvent_t event;
  HIP_CHECK(cudaEventCreate(&event));
  cudaGraphNode_t event_rec_node, event_wait_node;

  // Create a event record node in graph
  cudaGraphNodeParams rec_node_params = {};
  rec_node_params.type = cudaGraphNodeTypeEventRecord;
  rec_node_params.eventRecord.event = event;
  HIP_CHECK(cudaGraphAddNode(&event_rec_node, graph, nullptr, 0, &rec_node_params));

  // Create a event wait node in graph
  cudaGraphNodeParams wait_node_params = {};
  wait_node_params.type = cudaGraphNodeTypeWaitEvent;
  wait_node_params.eventWait.event = event;
  HIP_CHECK(cudaGraphAddNode(&event_wait_node, graph, &event_rec_node, 1, &wait_node_params));

  // Instantiate and launch the graph
  HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
  HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));

  HIP_CHECK(cudaStreamSynchronize(streamForGraph));
  HIP_CHECK(cudaGraphExecDestroy(graphExec));
  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaEventDestroy(event));
  HIP_CHECK(cudaStreamDestroy(streamForGraph));
}

/**
 * Test Description
 * ------------------------
 *  - Test to verify basic API functionality when memalloc and memfree nodes are added with
 * cudaGraphAddNode. Verify that memory is allocated correctly and graph behaves as expected when
 * free node is added to the same graph.
 * Test source
 * ------------------------
 *  - /unit/graph/cudaGraphAddNode.cc
 * Test requirements
 * ------------------------
 *  - HIP_VERSION >= 6.0
 */
static void Unit_hipGraphAddNodeTypeMemAlloc_Positive_Basic_pass() {
  constexpr size_t allocation_size = N * sizeof(int);
  cudaGraph_t graph;
  cudaStream_t streamForGraph;
  cudaGraphExec_t graphExec;
  HIP_CHECK(cudaStreamCreate(&streamForGraph));
  HIP_CHECK(cudaGraphCreate(&graph, 0));

  cudaGraphNode_t alloc_node;
  cudaGraphNodeParams alloc_node_params = {};
  alloc_node_params.type = cudaGraphNodeTypeMemAlloc;
  memset(&alloc_node_params.alloc, 0, sizeof(cudaMemAllocNodeParams));
  alloc_node_params.alloc.bytesize = allocation_size;
  alloc_node_params.alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  alloc_node_params.alloc.poolProps.location.id = 0;
  alloc_node_params.alloc.poolProps.location.type = cudaMemLocationTypeDevice;
  HIP_CHECK(cudaGraphAddNode(&alloc_node, graph, nullptr, 0, &alloc_node_params));

  REQUIRE(alloc_node_params.alloc.dptr != nullptr);
  int* A_d = reinterpret_cast<int*>(alloc_node_params.alloc.dptr);

  cudaGraphNode_t free_node;
  cudaGraphNodeParams free_node_params = {};
  free_node_params.type = cudaGraphNodeTypeMemFree;
  free_node_params.free.dptr = A_d;
  HIP_CHECK(cudaGraphAddNode(&free_node, graph, &alloc_node, 1, &free_node_params));

  // Instantiate and launch the graph
  HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
  HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
  HIP_CHECK(cudaStreamSynchronize(streamForGraph));

  HIP_CHECK(cudaGraphExecDestroy(graphExec));
  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaStreamDestroy(streamForGraph));
  HIP_CHECK(cudaDeviceGraphMemTrim(0));
}

/**
 * Test Description
 * ------------------------
 *  - Test to verify cudaGraphAddNode behavior with invalid arguments:
 *    -# Nullptr graph
 *    -# Nullptr graph node
 *    -# Invalid numDependencies for null list of dependencies
 *    -# Node in dependency is from different graph
 *    -# Invalid numNodes
 *    -# Duplicate node in dependencies
 *    -# Nullptr params
 *    -# params type is invalid
 * Test source
 * ------------------------
 *  - /unit/graph/cudaGraphAddNode.cc
 * Test requirements
 * ------------------------
 *  - HIP_VERSION >= 6.0
 */
static void Unit_hipGraphAddNode_Negative_Parameters_pass() {
  using namespace std::placeholders;
  cudaGraph_t graph = nullptr;
  HIP_CHECK(cudaGraphCreate(&graph, 0));

  cudaEvent_t event;
  HIP_CHECK(cudaEventCreate(&event));

  cudaGraphNode_t node;
  cudaGraphNodeParams node_params = {};
  node_params.type = cudaGraphNodeTypeEventRecord;
  node_params.eventRecord.event = event;

  GraphAddNodeCommonNegativeTests(std::bind(cudaGraphAddNode, _1, _2, _3, _4, &node_params), graph);

  SECTION("params == nullptr") {
    HIP_CHECK_ERROR(cudaGraphAddNode(&node, graph, nullptr, 0, nullptr), cudaErrorInvalidValue);
  }

  SECTION("params type is invalid") {
    node_params.type = static_cast<cudaGraphNodeType>(0x20);
    HIP_CHECK_ERROR(cudaGraphAddNode(&node, graph, nullptr, 0, &node_params), cudaErrorInvalidValue);
  }

  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaEventDestroy(event));
}

/**
* End doxygen group GraphTest.
* @}
*/

/* TEMPLATE_TEST_CASE(..., uint8_t, uint16_t, uint32_t) */
static void Unit_hipGraphAddNodeTypeMemset_Positive_Basic() {
    RunSections(Unit_hipGraphAddNodeTypeMemset_Positive_Basic_pass<uint8_t>);
    RunSections(Unit_hipGraphAddNodeTypeMemset_Positive_Basic_pass<uint16_t>);
    RunSections(Unit_hipGraphAddNodeTypeMemset_Positive_Basic_pass<uint32_t>);
}
static void Unit_hipGraphAddNodeTypeKernel_Positive_Basic() { RunSections(Unit_hipGraphAddNodeTypeKernel_Positive_Basic_pass); }
static void Unit_hipGraphAddNodeTypeHost_Positive_Basic() { RunSections(Unit_hipGraphAddNodeTypeHost_Positive_Basic_pass); }
static void Unit_hipGraphAddNodeTypeChildGraph_Positive_Basic() { RunSections(Unit_hipGraphAddNodeTypeChildGraph_Positive_Basic_pass); }
static void Unit_hipGraphAddNodeTypeMemcpy_Positive_Basic() { RunSections(Unit_hipGraphAddNodeTypeMemcpy_Positive_Basic_pass); }
static void Unit_hipGraphAddNodeTypeEventRecord_Positive_Basic() { RunSections(Unit_hipGraphAddNodeTypeEventRecord_Positive_Basic_pass); }
static void Unit_hipGraphAddNodeTypeEventWait_Positive_Basic() { RunSections(Unit_hipGraphAddNodeTypeEventWait_Positive_Basic_pass); }
static void Unit_hipGraphAddNodeTypeMemAlloc_Positive_Basic() { RunSections(Unit_hipGraphAddNodeTypeMemAlloc_Positive_Basic_pass); }
static void Unit_hipGraphAddNode_Negative_Parameters() { RunSections(Unit_hipGraphAddNode_Negative_Parameters_pass); }
} // namespace AddNode

int main() {
    HIP_TEST_CASE(MemcpyNodeSetParams1D::Unit_hipGraphMemcpyNodeSetParams1D_Positive_Basic);
    HIP_TEST_CASE(MemcpyNodeSetParams1D::Unit_hipGraphMemcpyNodeSetParams1D_Negative_Parameters);
    HIP_TEST_CASE(MemcpyNodeSetParams::Unit_hipGraphMemcpyNodeSetParams_Positive_Basic);
    HIP_TEST_CASE(MemcpyNodeSetParams::Unit_hipGraphMemcpyNodeSetParams_Negative_Parameters);
    HIP_TEST_CASE(AddNode::Unit_hipGraphAddNodeTypeMemset_Positive_Basic);
    HIP_TEST_CASE(AddNode::Unit_hipGraphAddNodeTypeKernel_Positive_Basic);
    HIP_TEST_CASE(AddNode::Unit_hipGraphAddNodeTypeHost_Positive_Basic);
    HIP_TEST_CASE(AddNode::Unit_hipGraphAddNodeTypeChildGraph_Positive_Basic);
    HIP_TEST_CASE(AddNode::Unit_hipGraphAddNodeTypeMemcpy_Positive_Basic);
    HIP_TEST_CASE(AddNode::Unit_hipGraphAddNodeTypeEventRecord_Positive_Basic);
    HIP_TEST_CASE(AddNode::Unit_hipGraphAddNodeTypeEventWait_Positive_Basic);
    HIP_TEST_CASE(AddNode::Unit_hipGraphAddNodeTypeMemAlloc_Positive_Basic);
    HIP_TEST_CASE(AddNode::Unit_hipGraphAddNode_Negative_Parameters);
    printf("hip-tests graph memcpy params: %d test cases, %d skipped: PASSED\n", hip_tests_cases, hip_tests_skipped);
    return 0;
}
