/*
 * fission_rt.h — the scheduler of region loops, included by kernel_rt.c.
 *
 * A kernel that reaches a barrier or warp function can also be built as `__ssk.fblock.K` (src/tools/cc/
 * fission.rs): one block's threads with no fibers, its body cut at each barrier or warp-function call into
 * regions. A pass runs, for each thread in order, the region it stands at the head of, up to its next barrier
 * (whose arguments it leaves in its lane below) or its end. Between passes, __ssk_region_release releases what
 * the fiber scheduler (run_block_fibers) would release at that point, with the same answers, so that both
 * runners give the same results: the threads then resume, each from its own barrier.
 *
 * The lanes are the block's threads' state; their layout is `%__ssk.lane` in fission.rs (keep them in step).
 */

typedef struct {
    int32_t state; /* F_RUN, F_WAIT_BLOCK, F_WAIT_WARP, F_DONE */
    int32_t site;  /* the region it resumes at: 0 the kernel's start, K after barrier K */
    int32_t op;
    uint32_t mask;
    int32_t arg;
    int32_t width;
    uint64_t val;
    uint64_t result;
    uint64_t clock; /* clock64()'s counter while the thread waits */
    uint32_t tid[3];
    uint32_t pad;
} ssk_region_lane;
_Static_assert(sizeof(ssk_region_lane) == 64, "the lane layout of fission.rs");

/* The launch's lanes and the threads' slots after them (values live across a barrier), made once per launch
 * and grown as a kernel's slots need. */
static SSK_TLS char *region_mem;
static SSK_TLS size_t region_cap;
static SSK_TLS int region_n;
/* The blocks run as region loops in this launch (STREAMSIM_REGIONS=report says so). */
static SSK_TLS uint64_t region_blocks;
/* The releases of this launch done by region_release_full_warps (STREAMSIM_REGIONS=report says so too). */
static SSK_TLS uint64_t region_fast;

/* The start of a block in region mode (the region code's first call): the lanes, every thread at the kernel's
 * start, and `bytes` of slots per thread after them. */
SSK_EXPORT ssk_region_lane *__ssk_region_begin(uint64_t bytes) {
    int n = (int)(__ssk_ntid[0] * __ssk_ntid[1] * __ssk_ntid[2]);
    size_t need = (size_t)n * (sizeof(ssk_region_lane) + bytes);
    if (need > region_cap) {
        free(region_mem);
        region_mem = aligned_alloc(64, (need + 63) & ~(size_t)63);
        region_cap = region_mem ? need : 0;
        if (!region_mem) {
            snprintf(cur_msg, cur_msglen, "cannot allocate the state of the %d threads of a block", n);
            fail(SSK_LAUNCH_FAILURE);
            return NULL;
        }
    }
    region_n = n;
    region_blocks++;
    ssk_region_lane *lanes = (ssk_region_lane *)region_mem;
    int i = 0;
    for (uint32_t z = 0; z < __ssk_ntid[2]; z++)
        for (uint32_t y = 0; y < __ssk_ntid[1]; y++)
            for (uint32_t x = 0; x < __ssk_ntid[0]; x++, i++) {
                lanes[i].state = F_RUN;
                lanes[i].site = 0;
                lanes[i].tid[0] = x;
                lanes[i].tid[1] = y;
                lanes[i].tid[2] = z;
            }
    return lanes;
}

/* The common case of a release, with no general scheduler: every thread of a block of whole warps waits at
 * the same warp-function site with the full mask, the same operation and the same width (a shuffle or a
 * simple vote), a power-of-two width and offsets from 0. Every warp is then complete and all its lanes arrived, so each warp is released with
 * warp_result's answers for arrived == 0xffffffff, computed here per warp. 1: done (no thread is left
 * waiting); 0: the lanes are untouched, for the general release. */
static int region_release_full_warps(ssk_region_lane *lanes, int n) {
    if (n <= 0 || n % 32)
        return 0;
    int32_t site = lanes[0].site, op = lanes[0].op, width = lanes[0].width;
    int wd = width <= 0 || width > 32 ? 32 : width;
    /* (a width that is not a power of two, or a negative offset, is left to warp_result's bounds checks) */
    if (op < STREAMSIM_W_IDX || op > STREAMSIM_W_ALL || (wd & (wd - 1)))
        return 0;
    for (int i = 0; i < n; i++)
        if (lanes[i].state != F_WAIT_WARP || lanes[i].site != site || lanes[i].op != op ||
            lanes[i].mask != 0xffffffffu || lanes[i].width != width || lanes[i].arg < 0)
            return 0;
    for (int w0 = 0; w0 < n; w0 += 32) {
        ssk_region_lane *w = &lanes[w0];
        uint64_t vals[32];
        uint32_t nz = 0;
        for (int l = 0; l < 32; l++) {
            vals[l] = w[l].val;
            nz |= (uint32_t)(vals[l] != 0) << l;
        }
        switch (op) {
        case STREAMSIM_W_IDX:
            for (int l = 0; l < 32; l++)
                w[l].result = vals[(l & ~(wd - 1)) + (w[l].arg & (wd - 1))];
            break;
        case STREAMSIM_W_UP:
            for (int l = 0; l < 32; l++) {
                int a = w[l].arg;
                w[l].result = (l & (wd - 1)) >= a ? vals[l - a] : vals[l];
            }
            break;
        case STREAMSIM_W_DOWN:
            for (int l = 0; l < 32; l++) {
                int a = w[l].arg;
                w[l].result = (l & (wd - 1)) + a < wd ? vals[l + a] : vals[l];
            }
            break;
        case STREAMSIM_W_XOR:
            for (int l = 0; l < 32; l++) {
                int src = l ^ w[l].arg, seg = l & ~(wd - 1);
                w[l].result = src >= seg && src < seg + wd ? vals[src] : vals[l];
            }
            break;
        default: /* the votes: every lane a member */
            for (int l = 0; l < 32; l++)
                w[l].result = op == STREAMSIM_W_BALLOT ? (uint64_t)nz
                              : op == STREAMSIM_W_ANY  ? (uint64_t)(nz != 0)
                                                       : (uint64_t)(nz == 0xffffffffu);
            break;
        }
        for (int l = 0; l < 32; l++)
            w[l].state = F_RUN;
    }
    region_fast++;
    return 1;
}

/* Between two passes (no thread runnable): releases the warps whose live threads all wait at a warp
 * operation, or else the block barrier when every live thread waits at one, as run_block_fibers does. 1: a
 * release (another pass), 0: every thread is done. A block that cannot go on fails the launch with the fiber
 * scheduler's message; 2 rather than 1 when no thread is left waiting (the region code may then release the
 * next pass's plain __syncthreads itself). */
SSK_EXPORT int32_t __ssk_region_release(ssk_region_lane *lanes) {
    int n = region_n;
    if (region_release_full_warps(lanes, n))
        return 2;
    /* One look at the lanes first: what waits where, and whether a block barrier wants its predicates. */
    int live = 0, at_block = 0, at_warp = 0, preds = 0;
    for (int i = 0; i < n; i++) {
        int st = lanes[i].state;
        live += st != F_DONE;
        at_block += st == F_WAIT_BLOCK;
        at_warp += st == F_WAIT_WARP;
        preds |= st == F_WAIT_BLOCK && lanes[i].op != 0;
    }
    if (!live)
        return 0;
    int released = 0;
    for (int w0 = 0; at_warp && w0 < n; w0 += 32) {
        int nl = n - w0 < 32 ? n - w0 : 32;
        ssk_region_lane *w = &lanes[w0];
        int waiting = 0, alive = 0;
        uint32_t arrived = 0;
        uint64_t vals[32];
        for (int l = 0; l < nl; l++) {
            int st = w[l].state;
            alive += st != F_DONE && st != F_WAIT_BLOCK;
            waiting += st == F_WAIT_WARP;
            vals[l] = w[l].val;
            if (st == F_WAIT_WARP)
                arrived |= 1u << l;
        }
        if (!waiting || waiting != alive)
            continue;
        for (int l = 0; l < nl; l++)
            if (w[l].state == F_WAIT_WARP) {
                w[l].result = warp_result(l, nl, arrived, w[l].op, w[l].mask, w[l].val, w[l].arg, w[l].width, vals);
                w[l].state = F_RUN;
            }
        at_warp -= waiting;
        released = 1;
    }
    if (!released && at_block == live) {
        /* __syncthreads: every live thread arrived (threads that exited count as arrived). */
        int count = 0, all = 1, any = 0;
        if (preds)
            for (int i = 0; i < n; i++)
                if (lanes[i].state == F_WAIT_BLOCK) {
                    count += lanes[i].val != 0;
                    all &= lanes[i].val != 0;
                    any |= lanes[i].val != 0;
                }
        for (int i = 0; i < n; i++)
            if (lanes[i].state == F_WAIT_BLOCK) {
                int op = lanes[i].op;
                lanes[i].result = op == 1 ? (uint64_t)count : op == 2 ? (uint64_t)all : (uint64_t)any;
                lanes[i].state = F_RUN;
            }
        at_block = 0;
        released = 1;
    }
    if (!released) {
        snprintf(cur_msg, cur_msglen,
                 "the threads of block (%u,%u,%u) cannot go on: %d at __syncthreads, the others at a warp "
                 "function whose lanes are not all there (barrier divergence)",
                 __ssk_ctaid[0], __ssk_ctaid[1], __ssk_ctaid[2], at_block);
        fail(SSK_LAUNCH_FAILURE);
        return 0;
    }
    return at_warp || at_block ? 1 : 2;
}

/* The blocks of a launch in region mode, in order; a fault ends the launch (fail's longjmp to loop_exit). */
static int run_region_grid(const ssk_kernel_row *k, void *buf, const uint32_t *grid, jmp_buf *exit) {
    region_blocks = 0;
    region_fast = 0;
    for (uint32_t bz = 0; bz < grid[2]; bz++)
        for (uint32_t by = 0; by < grid[1]; by++)
            for (uint32_t bx = 0; bx < grid[0]; bx++) {
                __ssk_ctaid[0] = bx;
                __ssk_ctaid[1] = by;
                __ssk_ctaid[2] = bz;
                rc_block();
                if (setjmp(*exit))
                    return cur_fault;
                k->fblock(buf);
            }
    if (cur_checks & SSK_CHECK_REGION_REPORT) {
        fprintf(stderr, "streamsim: %s: %llu releases of whole warps at one warp function\n", k->name,
                (unsigned long long)region_fast);
        fprintf(stderr, "streamsim: %s: %llu blocks ran as region loops\n", k->name,
                (unsigned long long)region_blocks);
    }
    return SSK_OK;
}
