/*
 * racecheck_rt.h — racecheck for kernels run on the CPU (part of kernel_rt.c, which includes it once): hazards
 * on __shared__ memory between threads of one block, in the manner of compute-sanitizer's racecheck tool.
 *
 * Every access the rewritten code makes to a host address while the launch runs racecheck reaches
 * __ssk_shared_access (src/tools/cc/ir.rs, the translator's `pass` path); those inside the block's shared memory
 * (the kernel's static __shared__ variables, which are thread-local, and the launch's dynamic shared memory) are
 * checked against a shadow of the current barrier interval: per byte, its last writer and up to two readers,
 * each with the source line of its access and the count of warp synchronisations of its warp at the time. A
 * byte's record belongs to the interval it was made in (an epoch that each __syncthreads and each block start
 * advance), so nothing is cleared at a barrier. Two accesses of one interval by different threads, at least
 * one a write, are a hazard, whichever ran first — unless the threads are lanes of one warp and that warp went
 * through a warp synchronisation (__syncwarp, a *_sync function) between them: the runtime releases a warp
 * function only when every live lane of the warp is at one, so it orders them. Atomics are not checked.
 *
 * Global memory is checked the same way between threads of one block: a launch that runs racecheck keeps the
 * translator's inline cache empty (as initcheck does: initcheck_rt.h), so each access to device memory reaches
 * __ssk_resolve, which hands it to rc_global_access. Its shadow is a hash table of the bytes the block touched
 * in the current interval (at most RCG_SLOTS; past three quarters of them, further bytes of the interval are
 * not checked, and the launch's end says so).
 *
 * Between blocks, global memory has a second shadow for the whole launch (rcb_*): per byte, its last writer
 * and last reader (block, thread, source line, and the launch's access clock when it was made). The blocks of a
 * launch run in any order on hardware, so two accesses of one byte by different blocks, at least one a write,
 * are a hazard unless the earlier block released and the later one acquired: the earlier block made a
 * __threadfence after the access and then an atomic operation on global memory (a release, as the Programming
 * Guide's threadFenceReduction pattern), and the later block made an atomic operation after that release,
 * before its access. Blocks are tracked as wholes (a fence or atomic by any thread of a block counts for all of
 * its threads, which its __syncthreads order), so a missing fence between blocks is found, a missing barrier
 * inside a block is the first shadow's. A grid-wide barrier (cooperative groups' grid.sync) orders everything:
 * it starts a new epoch of the launch-wide shadow.
 *
 * Hazards are gathered per launch by (kind, variable or allocation, the two source lines) and reported at its
 * end, each with its first occurrence and how many there were (libstreamsim's streamsimCcReport). The
 * semantics: docs/semantics/sanitizer.md.
 */

/* A row of a kernel's table of static shared memory (`__ssk.shared.N` in src/tools/cc/ir.rs). */
typedef struct {
    char *addr;
    uint64_t size;
    const char *name;
} ssk_shared_var;

/* One access in the shadow: the thread (linear index + 1; 0: none), the source line (0: unknown), and the
 * count of warp synchronisations of the thread's warp when it was made. */
typedef struct {
    uint32_t line;
    uint16_t tid;
    uint16_t pad;
    uint32_t wsync;
} rc_access;

typedef struct {
    uint32_t epoch;
    rc_access w, r1, r2;
} rc_cell;

enum { RC_RAW = 0, RC_WAR = 1, RC_WAW = 2 };
#define RC_REGIONS 64
#define RC_HAZARDS 64

typedef struct {
    char *lo;
    uint64_t size;
    const char *name; /* NULL: the dynamic shared memory */
    uint64_t window;  /* its offset in the block's shared memory */
} rc_region;

typedef struct {
    int kind;
    int region;    /* -1: global memory, in the allocation at `base` of `alen` bytes */
    uint64_t base, alen;
    uint32_t line_first, line_second;
    uint64_t count;
    /* The first occurrence. */
    uint32_t block[3];
    uint16_t first, second; /* linear thread indices + 1 */
    uint64_t offset, size;
    uint32_t other; /* between blocks: the linear index + 1 of the first access's block (0: the same block) */
} rc_hazard;

/* The rewritten code's switch: non-zero while a launch runs racecheck on this thread. */
SSK_EXPORT SSK_TLS int32_t __ssk_racecheck;
static SSK_TLS rc_region rc_regions[RC_REGIONS];
static SSK_TLS int rc_nregions;
static SSK_TLS rc_cell *rc_shadow;
static SSK_TLS uint64_t rc_bytes;
static SSK_TLS uint32_t rc_epoch;
static SSK_TLS uint32_t rc_wsync[SSK_MAX_THREADS / 32];
static SSK_TLS rc_hazard rc_hazards[RC_HAZARDS];
static SSK_TLS int rc_nhazards;
static SSK_TLS uint64_t rc_dropped; /* hazards of kinds past RC_HAZARDS */
/* The launch runs racecheck (__ssk_racecheck: and has shared memory, whose accesses the rewritten code hands
 * over). */
static SSK_TLS int rc_on;

/* Global memory's shadow: the bytes the block touched in the current interval (an entry is free when its
 * cell's epoch is not the current one). */
#define RCG_BITS 18
#define RCG_SLOTS (1u << RCG_BITS)
typedef struct {
    uint64_t addr;
    rc_cell cell;
} rcg_entry;
static SSK_TLS rcg_entry *rcg_table;
static SSK_TLS uint32_t rcg_used;  /* entries of the current interval */
static SSK_TLS uint64_t rcg_skipped; /* bytes not checked: the table was full for their interval */

/* The launch-wide shadow of global memory between blocks: per byte, the last write and the last read, each as
 * its block, the count of __threadfences its block had made before it, and its thread and source line. */
typedef struct {
    uint32_t block; /* linear index + 1 (0: none) */
    uint32_t fence; /* the block's fence count when it was made */
    uint32_t where; /* source line << 10 | linear thread index (line 0: unknown) */
} rcb_access;
typedef struct {
    uint64_t addr;
    uint32_t epoch;
    rcb_access w, r;
} rcb_entry;
#define RCB_BITS 20
#define RCB_SLOTS (1u << RCB_BITS)
/* A launch of more blocks than this is not checked between blocks (the per-block records would be too big). */
#define RCB_MAX_BLOCKS (1u << 20)
/* Per block: how many __threadfences it made, how many of them an atomic followed (a release covers the
 * accesses made before that fence) and when that release was made, and when it last acquired (made an atomic),
 * on a clock of the launch's atomics. */
typedef struct {
    uint32_t fences, released;
    uint64_t release_at, acquired_at;
} rcb_block;
static SSK_TLS rcb_entry *rcb_table;
static SSK_TLS rcb_block *rcb_blocks;
static SSK_TLS uint32_t rcb_used, rcb_epoch, rcb_nblocks;
static SSK_TLS uint64_t rcb_clock, rcb_skipped;
static int rcb_said_skipped; /* the bytes not checked between blocks are said once a process */

extern void streamsimCcReport(const char *tool, const char *text);
extern void streamsimCcSiteOf(unsigned long long base, char *buf, size_t len);

/* At a launch's start: the kernel's shared memory, laid out as on the device (static variables in the table's
 * order, then the dynamic part), and its shadow. Returns 0 when the shadow cannot be had (racecheck then does
 * not run for the launch, and says so). */
static int rc_begin(const ssk_kernel_row *k, uint64_t shmem) {
    rc_nhazards = 0;
    rc_dropped = 0;
    rc_epoch = 0;
    rcg_used = 0;
    rcg_skipped = 0;
    rcg_table = calloc(RCG_SLOTS, sizeof(rcg_entry));
    if (!rcg_table) {
        fprintf(stderr, "streamsim: racecheck: not run for a launch: no memory for the shadow of global memory\n");
        return 0;
    }
    rc_on = 1;
    rcb_used = 0;
    rcb_epoch = 1;
    rcb_clock = 0;
    rcb_skipped = 0;
    uint64_t blocks = (uint64_t)__ssk_nctaid[0] * __ssk_nctaid[1] * __ssk_nctaid[2];
    rcb_nblocks = blocks <= RCB_MAX_BLOCKS ? (uint32_t)blocks : 0;
    if (rcb_nblocks > 1) {
        rcb_table = calloc(RCB_SLOTS, sizeof(rcb_entry));
        rcb_blocks = calloc(rcb_nblocks, sizeof(rcb_block));
        if (!rcb_table || !rcb_blocks) {
            free(rcb_table);
            free(rcb_blocks);
            rcb_table = NULL;
            rcb_blocks = NULL;
            fprintf(stderr, "streamsim: racecheck: global memory not checked between blocks in a launch: no memory "
                            "for its shadow\n");
        }
    } else if (blocks > RCB_MAX_BLOCKS) {
        fprintf(stderr,
                "streamsim: racecheck: global memory not checked between blocks in a launch of %llu blocks (more "
                "than %u)\n",
                (unsigned long long)blocks, RCB_MAX_BLOCKS);
    }
    uint32_t n = k->shared ? k->shared(NULL) : 0;
    ssk_shared_var *vars = n ? calloc(n, sizeof *vars) : NULL;
    if (n && !vars) {
        fprintf(stderr, "streamsim: racecheck: not run for a launch: no memory for the table of its shared memory\n");
        return 0;
    }
    if (n)
        (void)k->shared(vars);
    rc_nregions = 0;
    uint64_t window = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (vars[i].size == 0)
            continue;
        if (rc_nregions == RC_REGIONS - 1) {
            fprintf(stderr, "streamsim: racecheck: checks only the first 63 of a kernel's __shared__ variables\n");
            break;
        }
        rc_regions[rc_nregions++] = (rc_region){vars[i].addr, vars[i].size, vars[i].name, window};
        window += (vars[i].size + 15) & ~(uint64_t)15;
    }
    free(vars);
    if (shmem) {
        rc_regions[rc_nregions++] = (rc_region){__ssk_dyn_smem, shmem, NULL, window};
        window += shmem;
    }
    if (!rc_nregions) {
        /* No shared memory: global memory only, and the atomics on host storage that order blocks. */
        __ssk_racecheck = rcb_table != NULL;
        return 1;
    }
    rc_bytes = window;
    rc_shadow = calloc(window, sizeof(rc_cell));
    if (!rc_shadow) {
        fprintf(stderr, "streamsim: racecheck: shared memory not checked in a launch: no memory for its shadow\n");
        rc_nregions = 0;
        __ssk_racecheck = rcb_table != NULL;
        return 1;
    }
    __ssk_racecheck = 1;
    return 1;
}

/* A new barrier interval: at each block's start and each __syncthreads. */
static void rc_interval(void) {
    rcg_used = 0;
    if (++rc_epoch == 0) {
        if (rc_shadow)
            memset(rc_shadow, 0, rc_bytes * sizeof(rc_cell));
        memset(rcg_table, 0, RCG_SLOTS * sizeof(rcg_entry));
        rc_epoch = 1;
    }
}

static void rc_block(void) {
    if (!rc_on)
        return;
    rc_interval();
    memset(rc_wsync, 0, sizeof rc_wsync);
}

static void rc_barrier(void) {
    if (rc_on)
        rc_interval();
}

static void rc_warp_released(int warp) {
    if (rc_on)
        rc_wsync[warp]++;
}

static uint16_t rc_self(void) {
    return (uint16_t)(1 + __ssk_tid[0] + __ssk_ntid[0] * (__ssk_tid[1] + __ssk_ntid[1] * __ssk_tid[2]));
}

/* Whether the earlier access `a` is ordered before one by thread `t` now (lanes of one warp synchronised
 * since). */
static int rc_ordered(const rc_access *a, uint16_t t) {
    int wa = (a->tid - 1) / 32, wt = (t - 1) / 32;
    return wa == wt && rc_wsync[wt] != a->wsync;
}

static SSK_TLS uint64_t rcg_base, rcg_alen; /* the allocation of the global access being checked */

/* Records a hazard of `kind`: the earlier access by thread `first` (of block `other`, linear + 1, when it is
 * another block) at line `first_line`, the later by thread `t` of the running block at `line`. */
static void rc_hazard_between(int kind, int region, uint16_t first, uint32_t first_line, uint32_t other, uint16_t t,
                              uint32_t line, uint64_t offset, uint64_t size) {
    uint64_t base = region < 0 ? rcg_base : 0;
    for (int i = 0; i < rc_nhazards; i++) {
        rc_hazard *h = &rc_hazards[i];
        if (h->kind == kind && h->region == region && h->base == base && h->line_first == first_line &&
            h->line_second == line && (h->other != 0) == (other != 0)) {
            h->count++;
            return;
        }
    }
    if (rc_nhazards == RC_HAZARDS) {
        rc_dropped++;
        return;
    }
    rc_hazard *h = &rc_hazards[rc_nhazards++];
    *h = (rc_hazard){kind,       region, base, region < 0 ? rcg_alen : 0, first_line, line, 1,
                     {__ssk_ctaid[0], __ssk_ctaid[1], __ssk_ctaid[2]}, first, t, offset, size, other};
}

static void rc_hazard_at(int kind, int region, const rc_access *first, uint16_t t, uint32_t line, uint64_t offset,
                         uint64_t size) {
    rc_hazard_between(kind, region, first->tid, first->line, 0, t, line, offset, size);
}

/* One byte's access by thread `me.tid` against its cell; `found` keeps one hazard of each kind per access. */
static void rc_byte(rc_cell *c, const rc_access *me, uint32_t kind, int region, uint64_t off, uint64_t rest,
                    int *found) {
    uint16_t t = me->tid;
    if (kind == SSK_KIND_READ) {
        if (!found[RC_RAW] && c->w.tid && c->w.tid != t && !rc_ordered(&c->w, t)) {
            found[RC_RAW] = 1;
            rc_hazard_at(RC_RAW, region, &c->w, t, me->line, off, rest);
        }
        if (c->r1.tid == 0 || c->r1.tid == t)
            c->r1 = *me;
        else if (c->r2.tid == 0 || c->r2.tid == t)
            c->r2 = *me;
        return;
    }
    if (!found[RC_WAW] && c->w.tid && c->w.tid != t && !rc_ordered(&c->w, t)) {
        found[RC_WAW] = 1;
        rc_hazard_at(RC_WAW, region, &c->w, t, me->line, off, rest);
    }
    const rc_access *rd = NULL;
    if (c->r1.tid && c->r1.tid != t && !rc_ordered(&c->r1, t))
        rd = &c->r1;
    else if (c->r2.tid && c->r2.tid != t && !rc_ordered(&c->r2, t))
        rd = &c->r2;
    if (!found[RC_WAR] && rd) {
        found[RC_WAR] = 1;
        rc_hazard_at(RC_WAR, region, rd, t, me->line, off, rest);
    }
    c->w = *me;
}

/* The cell of global byte `addr` in the current interval (NULL: the table is full for it). */
static rc_cell *rcg_cell(uint64_t addr) {
    uint32_t h = (uint32_t)((addr * 0x9E3779B97F4A7C15ull) >> (64 - RCG_BITS));
    for (uint32_t probe = 0; probe < 64; probe++) {
        rcg_entry *e = &rcg_table[(h + probe) & (RCG_SLOTS - 1)];
        if (e->cell.epoch != rc_epoch) {
            if (rcg_used >= RCG_SLOTS / 4 * 3)
                return NULL;
            rcg_used++;
            memset(e, 0, sizeof *e);
            e->addr = addr;
            e->cell.epoch = rc_epoch;
            return &e->cell;
        }
        if (e->addr == addr)
            return &e->cell;
    }
    return NULL;
}

/* The launch-wide cell of global byte `addr` (NULL: the table is full). */
static rcb_entry *rcb_cell(uint64_t addr) {
    uint32_t h = (uint32_t)((addr * 0x9E3779B97F4A7C15ull) >> (64 - RCB_BITS));
    for (uint32_t probe = 0; probe < 64; probe++) {
        rcb_entry *e = &rcb_table[(h + probe) & (RCB_SLOTS - 1)];
        if (e->epoch != rcb_epoch) {
            if (rcb_used >= RCB_SLOTS / 4 * 3)
                return NULL;
            rcb_used++;
            memset(e, 0, sizeof *e);
            e->addr = addr;
            e->epoch = rcb_epoch;
            return e;
        }
        if (e->addr == addr)
            return e;
    }
    return NULL;
}

static uint32_t rcb_self(void) {
    return 1 + __ssk_ctaid[0] + __ssk_nctaid[0] * (__ssk_ctaid[1] + __ssk_nctaid[1] * __ssk_ctaid[2]);
}

/* Whether the access `a` of another block is ordered before the running block `me`'s access now: its block
 * released after it (a fence after the access, then an atomic) and `me` acquired (an atomic) after that. */
static int rcb_ordered(const rcb_access *a, uint32_t me) {
    const rcb_block *from = &rcb_blocks[a->block - 1];
    return from->released > a->fence && from->release_at <= rcb_blocks[me - 1].acquired_at;
}

/* A __threadfence by a thread of the running block (cuda_device.h). */
SSK_EXPORT void __ssk_fence(void) {
    if (rc_on && rcb_table)
        rcb_blocks[rcb_self() - 1].fences++;
}

/* A grid-wide barrier: everything before it is ordered before everything after it. */
static void rc_grid_barrier(void) {
    if (!rc_on || !rcb_table)
        return;
    rcb_used = 0;
    if (++rcb_epoch == 0) {
        memset(rcb_table, 0, RCB_SLOTS * sizeof(rcb_entry));
        rcb_epoch = 1;
    }
}

/* An atomic on global memory by the running block: it acquires, and releases what the block's fences cover. */
static void rcb_atomic(void) {
    rcb_block *mine = &rcb_blocks[rcb_self() - 1];
    uint64_t now = ++rcb_clock;
    mine->acquired_at = now;
    if (mine->fences > mine->released) {
        mine->released = mine->fences;
        mine->release_at = now;
    }
}

/* The between-blocks check of [addr, addr + size) (kind `kind`, source line `line`) by thread `t`. */
static void rcb_access_at(uint64_t addr, uint64_t size, uint32_t kind, uint32_t line, uint16_t t, uint64_t base) {
    if (kind == SSK_KIND_ATOMIC) {
        rcb_atomic();
        return;
    }
    uint32_t me = rcb_self();
    rcb_access self = {me, rcb_blocks[me - 1].fences, (line < (1u << 22) ? line << 10 : 0) | (uint32_t)(t - 1)};
    int found[3] = {0, 0, 0};
    for (uint64_t b = 0; b < size; b++) {
        rcb_entry *c = rcb_cell(addr + b);
        if (!c) {
            rcb_skipped += size - b;
            return;
        }
        uint64_t off = addr + b - base;
        if (c->w.block && c->w.block != me && !rcb_ordered(&c->w, me)) {
            int k = kind == SSK_KIND_READ ? RC_RAW : RC_WAW;
            if (!found[k]) {
                found[k] = 1;
                rc_hazard_between(k, -1, (uint16_t)((c->w.where & 1023) + 1), c->w.where >> 10, c->w.block, t,
                                  line, off, size - b);
            }
        }
        if (kind == SSK_KIND_READ) {
            c->r = self;
            continue;
        }
        if (c->r.block && c->r.block != me && !rcb_ordered(&c->r, me) && !found[RC_WAR]) {
            found[RC_WAR] = 1;
            rc_hazard_between(RC_WAR, -1, (uint16_t)((c->r.where & 1023) + 1), c->r.where >> 10, c->r.block, t,
                              line, off, size - b);
        }
        c->w = self;
    }
}

/* An access to device memory: [addr, addr + size) of the allocation at `base` of `alen` bytes. */
static void rc_global_access(uint64_t addr, uint64_t size, uint32_t flags, uint64_t base, uint64_t alen) {
    uint32_t kind = flags & 3;
    if (!rc_on)
        return;
    rcg_base = base;
    rcg_alen = alen;
    uint16_t t = rc_self();
    if (rcb_table)
        rcb_access_at(addr, size, kind, flags >> 12, t, base);
    if (kind == SSK_KIND_ATOMIC)
        return;
    rc_access me = {flags >> 12, t, 0, rc_wsync[(t - 1) / 32]};
    int found[3] = {0, 0, 0};
    for (uint64_t b = 0; b < size; b++) {
        rc_cell *c = rcg_cell(addr + b);
        if (!c) {
            rcg_skipped += size - b;
            return;
        }
        rc_byte(c, &me, kind, -1, addr + b - base, size - b, found);
    }
}

SSK_EXPORT void __ssk_shared_access(uint64_t addr, uint64_t size, uint32_t flags) {
    uint32_t kind = flags & 3;
    char *p = (char *)(uintptr_t)addr;
    int region = -1;
    for (int i = 0; i < rc_nregions; i++)
        if (p >= rc_regions[i].lo && p < rc_regions[i].lo + rc_regions[i].size) {
            region = i;
            break;
        }
    if (kind == SSK_KIND_ATOMIC) {
        /* Atomics on shared memory are not checked; one on a __device__ variable (host storage here) or on
         * managed or host memory orders blocks as one on an allocation does. */
        if (region < 0 && rcb_table)
            rcb_atomic();
        return;
    }
    if (region < 0)
        return; /* host memory, not shared: not checked (a thread's own locals are host memory too) */
    const rc_region *r = &rc_regions[region];
    uint64_t off = (uint64_t)(p - r->lo);
    if (size > r->size - off)
        size = r->size - off;
    uint16_t t = rc_self();
    rc_access me = {flags >> 12, t, 0, rc_wsync[(t - 1) / 32]};
    int found[3] = {0, 0, 0};
    for (uint64_t b = 0; b < size; b++) {
        rc_cell *c = &rc_shadow[r->window + off + b];
        if (c->epoch != rc_epoch) {
            memset(c, 0, sizeof *c);
            c->epoch = rc_epoch;
        }
        rc_byte(c, &me, kind, region, off + b, size - b, found);
    }
}

static void rc_thread(char *out, size_t len, uint16_t tid) {
    uint32_t i = tid - 1u, nx = __ssk_ntid[0], ny = __ssk_ntid[1];
    snprintf(out, len, "(%u,%u,%u)", i % nx, i / nx % ny, i / (nx * ny));
}

static void rc_at_line(char *out, size_t len, uint32_t line) {
    if (line)
        snprintf(out, len, " at line %u", line);
    else
        out[0] = 0;
}

/* At a launch's end: its hazards, reported, and the shadow dropped. */
static void rc_end(void) {
    static const char *const names[] = {"read-after-write", "write-after-read", "write-after-write"};
    static const char *const verbs[][2] = {{"wrote", "reads"}, {"read", "writes"}, {"wrote", "writes"}};
    for (int i = 0; i < rc_nhazards; i++) {
        const rc_hazard *h = &rc_hazards[i];
        char first[48], second[48], l1[32], l2[32], site[160], var[400], more[64], text[1024];
        rc_thread(first, sizeof first, h->first);
        rc_thread(second, sizeof second, h->second);
        rc_at_line(l1, sizeof l1, h->line_first);
        rc_at_line(l2, sizeof l2, h->line_second);
        if (h->region < 0) {
            /* ", cudaMalloc at line 12 of x.cu" when the program's build said where it allocated it. */
            streamsimCcSiteOf((unsigned long long)h->base, site, sizeof site);
            snprintf(var, sizeof var, "global memory at 0x%llx (offset %llu of the %llu-byte allocation at 0x%llx%s)",
                     (unsigned long long)(h->base + h->offset), (unsigned long long)h->offset,
                     (unsigned long long)h->alen, (unsigned long long)h->base, site);
        }
        else if (rc_regions[h->region].name)
            snprintf(var, sizeof var, "__shared__ 0x%llx (`%s`, offset %llu)",
                     (unsigned long long)(rc_regions[h->region].window + h->offset), rc_regions[h->region].name,
                     (unsigned long long)h->offset);
        else
            snprintf(var, sizeof var, "__shared__ 0x%llx (the dynamic shared memory, offset %llu)",
                     (unsigned long long)(rc_regions[h->region].window + h->offset), (unsigned long long)h->offset);
        if (h->count > 1)
            snprintf(more, sizeof more, " (%llu hazards like it in the launch)", (unsigned long long)h->count);
        else
            more[0] = 0;
        if (h->other) {
            uint32_t o = h->other - 1, gx = __ssk_nctaid[0], gy = __ssk_nctaid[1];
            snprintf(text, sizeof text,
                     "%s hazard on %s between blocks: thread %s of block (%u,%u,%u) %s %llu bytes%s that thread %s of "
                     "block (%u,%u,%u) %s%s, with no __threadfence and atomic ordering the blocks (they run in any "
                     "order)%s",
                     names[h->kind], var, second, h->block[0], h->block[1], h->block[2], verbs[h->kind][1],
                     (unsigned long long)h->size, l2, first, o % gx, o / gx % gy, o / (gx * gy), verbs[h->kind][0],
                     l1, more);
            streamsimCcReport("racecheck", text);
            continue;
        }
        snprintf(text, sizeof text,
                 "%s hazard on %s in block (%u,%u,%u): thread %s %s %llu bytes%s that thread %s %s%s, with no "
                 "__syncthreads%s between them%s",
                 names[h->kind], var, h->block[0], h->block[1], h->block[2], second, verbs[h->kind][1],
                 (unsigned long long)h->size, l2,
                 first, verbs[h->kind][0], l1, (h->first - 1) / 32 == (h->second - 1) / 32 ? " or __syncwarp" : "",
                 more);
        streamsimCcReport("racecheck", text);
    }
    if (rc_dropped) {
        char text[128];
        snprintf(text, sizeof text, "and %llu more hazards of other kinds and lines in the launch",
                 (unsigned long long)rc_dropped);
        streamsimCcReport("racecheck", text);
    }
    if (rcg_skipped)
        fprintf(stderr,
                "streamsim: racecheck: %llu bytes of global memory in the launch were not checked (a block touched "
                "more than %u bytes between two barriers)\n",
                (unsigned long long)rcg_skipped, RCG_SLOTS / 4 * 3);
    if (rcb_skipped && !rcb_said_skipped) {
        rcb_said_skipped = 1;
        fprintf(stderr,
                "streamsim: racecheck: %llu bytes of global memory in a launch were not checked between blocks (the "
                "launch touched more than %u bytes; said once, for the first such launch)\n",
                (unsigned long long)rcb_skipped, RCB_SLOTS / 4 * 3);
    }
    free(rc_shadow);
    rc_shadow = NULL;
    free(rcg_table);
    rcg_table = NULL;
    free(rcb_table);
    rcb_table = NULL;
    free(rcb_blocks);
    rcb_blocks = NULL;
    rc_nregions = 0;
    rc_nhazards = 0;
    rc_on = 0;
    __ssk_racecheck = 0;
}
