/*
 * cooperative_groups.h — the basics of CUDA's cooperative groups for kernels that `streamsim cc` runs on the
 * CPU, built on the barriers and warp functions of streamsim/cc/cuda_device.h.
 *
 * Provided (namespace cooperative_groups, usually aliased `cg`):
 *   thread_block / this_thread_block()        sync, thread_rank, size, num_threads, group_index, thread_index,
 *                                             group_dim, dim_threads
 *   thread_block_tile<N> / tiled_partition<N> N a power of two <= 32; sync, thread_rank, size, num_threads,
 *                                             meta_group_rank, meta_group_size, shfl, shfl_up, shfl_down,
 *                                             shfl_xor, any, all, ballot
 *   thread_group / tiled_partition(g, n)      the run-time sized form (block or tile)
 *   coalesced_group / coalesced_threads()     the lanes of __activemask(); labeled_partition, binary_partition
 *   grid_group / this_grid()                  thread_rank, size, num_threads, num_blocks, block_rank, is_valid,
 *                                             sync (in a cooperative launch, see below)
 *   reduce(g, v, op), plus/less/greater/bit_and/bit_or/bit_xor, sync(g)
 *
 * The lanes of a warp are consecutive threads of the block (x fastest), so a tile of N threads is N
 * consecutive lanes of one warp and its lane i is the block's thread (tile start + i).
 */
#ifndef STREAMSIM_COOPERATIVE_GROUPS_H
#define STREAMSIM_COOPERATIVE_GROUPS_H

#ifndef __cplusplus
#error "cooperative_groups.h is C++"
#endif

/* A .mu file has MUSA's runtime from its pre-include (and dim3 and the device language with it); CUDA's would
 * clash with it. */
#ifndef STREAMSIM_CC_MUSA_PREINCLUDE_H
#include "cuda_runtime.h"
#endif

/* Every function is always inlined, so a kernel that uses a group reaches the runtime's barrier and warp
 * functions directly. */
#define STREAMSIM_CG_FN __device__ __attribute__((always_inline))

namespace cooperative_groups {

namespace __ssk_cg {
static STREAMSIM_CG_FN __inline__ unsigned int block_rank() {
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
static STREAMSIM_CG_FN __inline__ unsigned int block_size() { return blockDim.x * blockDim.y * blockDim.z; }
static STREAMSIM_CG_FN __inline__ unsigned int lane() { return block_rank() & 31u; }
/* The mask of the `n` (a power of two <= 32) lanes of this thread's tile. */
static STREAMSIM_CG_FN __inline__ unsigned int tile_mask(unsigned int n) {
    unsigned int m = n >= 32 ? 0xffffffffu : ((1u << n) - 1u);
    return m << (lane() & ~(n - 1u));
}
/* The lane of the `rank`-th set bit of `mask` (32 when there is none). */
static STREAMSIM_CG_FN __inline__ unsigned int nth_lane(unsigned int mask, unsigned int rank) {
    for (unsigned int l = 0; l < 32; l++)
        if (mask >> l & 1u) {
            if (rank == 0)
                return l;
            rank--;
        }
    return 32;
}
static STREAMSIM_CG_FN __inline__ unsigned int rank_in(unsigned int mask) {
    unsigned int l = lane();
    return (unsigned int)__popc(mask & (l == 0 ? 0u : (0xffffffffu >> (32 - l))));
}
enum kind { k_block = 0, k_tile = 1, k_coalesced = 2 };
} // namespace __ssk_cg

/* A group of threads of one block: the whole block, a tile of it, or a set of coalesced lanes. */
class thread_group {
  protected:
    unsigned int kind_;
    unsigned int size_; /* a tile's or a coalesced group's size */
    unsigned int mask_; /* a tile's or a coalesced group's lanes in the warp */
    unsigned int meta_rank_;
    unsigned int meta_size_;
    STREAMSIM_CG_FN thread_group(unsigned int kind, unsigned int size, unsigned int mask, unsigned int meta_rank = 0,
                            unsigned int meta_size = 1)
        : kind_(kind), size_(size), mask_(mask), meta_rank_(meta_rank), meta_size_(meta_size) {}

  public:
    STREAMSIM_CG_FN void sync() const {
        if (kind_ == __ssk_cg::k_block)
            __syncthreads();
        else
            __syncwarp(mask_);
    }
    STREAMSIM_CG_FN unsigned long long thread_rank() const {
        switch (kind_) {
        case __ssk_cg::k_block:
            return __ssk_cg::block_rank();
        case __ssk_cg::k_tile:
            return __ssk_cg::block_rank() & (size_ - 1u);
        default:
            return __ssk_cg::rank_in(mask_);
        }
    }
    STREAMSIM_CG_FN unsigned long long size() const {
        return kind_ == __ssk_cg::k_block ? __ssk_cg::block_size() : size_;
    }
    STREAMSIM_CG_FN unsigned long long num_threads() const { return size(); }
    STREAMSIM_CG_FN unsigned long long meta_group_rank() const { return meta_rank_; }
    STREAMSIM_CG_FN unsigned long long meta_group_size() const { return meta_size_; }
    /* The lanes of the warp in this group (every lane for a block). */
    STREAMSIM_CG_FN unsigned int __ssk_mask() const { return kind_ == __ssk_cg::k_block ? 0xffffffffu : mask_; }
};

/* Every thread of the block. */
class thread_block : public thread_group {
  public:
    STREAMSIM_CG_FN thread_block() : thread_group(__ssk_cg::k_block, 0, 0xffffffffu) {}

  public:
    STREAMSIM_CG_FN void sync() const { __syncthreads(); }
    STREAMSIM_CG_FN unsigned int thread_rank() const { return __ssk_cg::block_rank(); }
    STREAMSIM_CG_FN unsigned int size() const { return __ssk_cg::block_size(); }
    STREAMSIM_CG_FN unsigned int num_threads() const { return __ssk_cg::block_size(); }
    STREAMSIM_CG_FN dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    STREAMSIM_CG_FN dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    STREAMSIM_CG_FN dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
    STREAMSIM_CG_FN dim3 dim_threads() const { return group_dim(); }
};
static STREAMSIM_CG_FN __inline__ thread_block this_thread_block() { return thread_block(); }

/* The lanes of the warp that are active together (those that reached this call together). */
class coalesced_group : public thread_group {
  public:
    STREAMSIM_CG_FN explicit coalesced_group(unsigned int mask)
        : thread_group(__ssk_cg::k_coalesced, (unsigned int)__popc(mask), mask) {}
  private:
    STREAMSIM_CG_FN unsigned int src_lane(int rank) const {
        if (rank < 0 || (unsigned int)rank >= size_)
            return __ssk_cg::lane();
        return __ssk_cg::nth_lane(mask_, (unsigned int)rank);
    }

  public:
    STREAMSIM_CG_FN void sync() const { __syncwarp(mask_); }
    STREAMSIM_CG_FN unsigned int thread_rank() const { return __ssk_cg::rank_in(mask_); }
    STREAMSIM_CG_FN unsigned int size() const { return size_; }
    STREAMSIM_CG_FN unsigned int num_threads() const { return size_; }
    template <typename T> STREAMSIM_CG_FN T shfl(T v, int src_rank) const {
        return __shfl_sync(mask_, v, (int)src_lane(src_rank), 32);
    }
    template <typename T> STREAMSIM_CG_FN T shfl_down(T v, unsigned int delta) const {
        return __shfl_sync(mask_, v, (int)src_lane((int)(thread_rank() + delta)), 32);
    }
    template <typename T> STREAMSIM_CG_FN T shfl_up(T v, unsigned int delta) const {
        return __shfl_sync(mask_, v, (int)src_lane((int)thread_rank() - (int)delta), 32);
    }
    STREAMSIM_CG_FN int any(int pred) const { return __any_sync(mask_, pred); }
    STREAMSIM_CG_FN int all(int pred) const { return __all_sync(mask_, pred); }
    /* Bit i is rank i's predicate. */
    STREAMSIM_CG_FN unsigned int ballot(int pred) const {
        unsigned int b = __ballot_sync(mask_, pred), out = 0, r = 0;
        for (unsigned int l = 0; l < 32; l++)
            if (mask_ >> l & 1u) {
                if (b >> l & 1u)
                    out |= 1u << r;
                r++;
            }
        return out;
    }
};
static STREAMSIM_CG_FN __inline__ coalesced_group coalesced_threads() { return coalesced_group(__activemask()); }

/* The threads of `g` with the same label. */
template <typename G> STREAMSIM_CG_FN __inline__ coalesced_group labeled_partition(const G &g, int label) {
    return coalesced_group(__match_any_sync(g.__ssk_mask(), label));
}
template <typename G> STREAMSIM_CG_FN __inline__ coalesced_group labeled_partition(const G &g, unsigned int label) {
    return coalesced_group(__match_any_sync(g.__ssk_mask(), label));
}
template <typename G> STREAMSIM_CG_FN __inline__ coalesced_group binary_partition(const G &g, bool pred) {
    unsigned int m = g.__ssk_mask(), b = __ballot_sync(m, pred);
    return coalesced_group(pred ? (b & m) : (~b & m));
}

/* N consecutive threads of the block (N a power of two, at most a warp). */
template <unsigned int N> class thread_block_tile : public thread_group {
    static_assert(N > 0 && N <= 32 && (N & (N - 1)) == 0, "a tile is a power of two of at most 32 threads");

  public:
    STREAMSIM_CG_FN thread_block_tile()
        : thread_group(__ssk_cg::k_tile, N, __ssk_cg::tile_mask(N), __ssk_cg::block_rank() / N,
                       (__ssk_cg::block_size() + N - 1) / N) {}
    static constexpr unsigned int num_threads_ = N;
    STREAMSIM_CG_FN void sync() const { __syncwarp(mask_); }
    STREAMSIM_CG_FN unsigned int thread_rank() const { return __ssk_cg::block_rank() & (N - 1u); }
    STREAMSIM_CG_FN unsigned int size() const { return N; }
    STREAMSIM_CG_FN unsigned int num_threads() const { return N; }
    STREAMSIM_CG_FN unsigned int meta_group_rank() const { return meta_rank_; }
    STREAMSIM_CG_FN unsigned int meta_group_size() const { return meta_size_; }
    template <typename T> STREAMSIM_CG_FN T shfl(T v, int src_rank) const { return __shfl_sync(mask_, v, src_rank, N); }
    template <typename T> STREAMSIM_CG_FN T shfl_down(T v, unsigned int delta) const {
        return __shfl_down_sync(mask_, v, delta, N);
    }
    template <typename T> STREAMSIM_CG_FN T shfl_up(T v, unsigned int delta) const {
        return __shfl_up_sync(mask_, v, delta, N);
    }
    template <typename T> STREAMSIM_CG_FN T shfl_xor(T v, unsigned int lane_mask) const {
        return __shfl_xor_sync(mask_, v, (int)lane_mask, N);
    }
    STREAMSIM_CG_FN int any(int pred) const { return __any_sync(mask_, pred); }
    STREAMSIM_CG_FN int all(int pred) const { return __all_sync(mask_, pred); }
    /* Bit i is rank i's predicate. */
    STREAMSIM_CG_FN unsigned int ballot(int pred) const {
        return __ballot_sync(mask_, pred) >> (__ssk_cg::lane() & ~(N - 1u));
    }
    template <typename T> STREAMSIM_CG_FN unsigned int match_any(T v) const {
        return __match_any_sync(mask_, v) >> (__ssk_cg::lane() & ~(N - 1u));
    }
};

template <unsigned int N, typename P> STREAMSIM_CG_FN __inline__ thread_block_tile<N> tiled_partition(const P &) {
    return thread_block_tile<N>();
}

/* The run-time sized form: `n` a power of two of at most 32 (a larger or other `n` traps). */
class __ssk_dynamic_tile : public thread_group {
  public:
    STREAMSIM_CG_FN explicit __ssk_dynamic_tile(unsigned int n)
        : thread_group(__ssk_cg::k_tile, n, __ssk_cg::tile_mask(n), __ssk_cg::block_rank() / n,
                       (__ssk_cg::block_size() + n - 1) / n) {
        if (n == 0 || n > 32 || (n & (n - 1)) != 0)
            __trap();
    }
};
static STREAMSIM_CG_FN __inline__ thread_group tiled_partition(const thread_group &, unsigned int n) {
    return __ssk_dynamic_tile(n);
}

extern "C" {
__device__ void __ssk_grid_sync(void);
__device__ int __ssk_grid_valid(void);
}

/*
 * The whole grid. Its ranks and sizes work in any launch. It can synchronize (is_valid() is true, sync() is
 * the grid barrier) in a cooperative launch (cudaLaunchCooperativeKernel, or cudaLaunchKernelExC with
 * cudaLaunchAttributeCooperative): the CPU runtime runs each block to the barrier, sets it aside and runs the
 * next (streamsim/cc/kernel_rt.c, run_fiber_grid). In any other launch sync() faults the kernel
 * (cudaErrorLaunchFailure, with a message), as NVIDIA's header traps when is_valid() is false.
 */
class grid_group {
  public:
    STREAMSIM_CG_FN grid_group() {}
    STREAMSIM_CG_FN bool is_valid() const { return __ssk_grid_valid() != 0; }
    STREAMSIM_CG_FN void sync() const { __ssk_grid_sync(); }
    STREAMSIM_CG_FN unsigned long long num_blocks() const {
        return (unsigned long long)gridDim.x * gridDim.y * gridDim.z;
    }
    STREAMSIM_CG_FN unsigned long long block_rank() const {
        return ((unsigned long long)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    }
    STREAMSIM_CG_FN unsigned long long thread_rank() const {
        return block_rank() * __ssk_cg::block_size() + __ssk_cg::block_rank();
    }
    STREAMSIM_CG_FN unsigned long long size() const { return num_blocks() * __ssk_cg::block_size(); }
    STREAMSIM_CG_FN unsigned long long num_threads() const { return size(); }
    STREAMSIM_CG_FN dim3 group_dim() const { return dim3(gridDim.x, gridDim.y, gridDim.z); }
    STREAMSIM_CG_FN dim3 dim_blocks() const { return group_dim(); }
    STREAMSIM_CG_FN dim3 block_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
};
static STREAMSIM_CG_FN __inline__ grid_group this_grid() { return grid_group(); }

template <typename G> STREAMSIM_CG_FN __inline__ void sync(const G &g) { g.sync(); }

/* ------------------------------------------------------------------ reductions (cooperative_groups/reduce.h) */
template <typename T> struct plus {
    STREAMSIM_CG_FN T operator()(const T &a, const T &b) const { return a + b; }
};
template <typename T> struct less {
    STREAMSIM_CG_FN T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
template <typename T> struct greater {
    STREAMSIM_CG_FN T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
template <typename T> struct bit_and {
    STREAMSIM_CG_FN T operator()(const T &a, const T &b) const { return a & b; }
};
template <typename T> struct bit_or {
    STREAMSIM_CG_FN T operator()(const T &a, const T &b) const { return a | b; }
};
template <typename T> struct bit_xor {
    STREAMSIM_CG_FN T operator()(const T &a, const T &b) const { return a ^ b; }
};

/* Every thread of the tile or coalesced group `g` gets op over the group's values. */
template <typename G, typename T, typename Op> STREAMSIM_CG_FN __inline__ T reduce(const G &g, T val, Op op) {
    unsigned int rank = (unsigned int)g.thread_rank(), n = (unsigned int)g.size();
    for (unsigned int o = 1; o < n; o <<= 1) {
        T other = g.shfl_down(val, o);
        if (rank + o < n)
            val = op(val, other);
    }
    return g.shfl(val, 0);
}

} // namespace cooperative_groups

#undef STREAMSIM_CG_FN
#endif /* STREAMSIM_COOPERATIVE_GROUPS_H */
