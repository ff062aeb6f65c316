/*
 * kernel_rt.c — the CPU side of kernels built by `streamsim cc`: runs a grid's blocks in order, a block's
 * threads in order (as a loop when the kernel reaches no barrier or warp function; otherwise as region loops,
 * the kernel cut at its barriers (fission_rt.h), or, when those are not there or a check needs them, as
 * fibers switched at each barrier), and serves what the rewritten device code calls: special registers, the
 * device address translator's slow path, barriers, warp functions, clock64, printf and assert.
 *
 * `streamsim cc` compiles this file into every program it links (it is not part of libstreamsim: the
 * rewritten kernels read its thread-locals with the initial-exec model, which an executable's own TLS allows).
 * The semantics: docs/semantics/kernels-on-the-cpu.md.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "warp_ops.h"
#if !defined(__x86_64__)
#include <ucontext.h>
#endif

#define SSK_TLS __thread __attribute__((tls_model("initial-exec")))
#define SSK_EXPORT __attribute__((visibility("default")))

/* What the rewritten device code reads. */
SSK_EXPORT SSK_TLS uint32_t __ssk_tid[3];
SSK_EXPORT SSK_TLS uint32_t __ssk_ntid[3];
SSK_EXPORT SSK_TLS uint32_t __ssk_ctaid[3];
SSK_EXPORT SSK_TLS uint32_t __ssk_nctaid[3];
SSK_EXPORT SSK_TLS int32_t __ssk_lane;
/* The translator's cache: the allocations the running kernel touched last (the rewritten code checks them
 * inline; __ssk_resolve fills them round robin). With the launch tracked (__ssk_track), each entry also holds
 * the run of bytes last touched per kind of access, [lo, hi) offsets in the allocation, that the rewritten
 * code widens inline (src/tools/cc/ir.rs, `__ssk.note`); an empty run is [-1, -1). */
#define SSK_CACHE 8
enum { SSK_KIND_READ = 0, SSK_KIND_WRITE = 1, SSK_KIND_ATOMIC = 2, SSK_KINDS = 3 };
SSK_EXPORT SSK_TLS struct {
    uint64_t base, len;
    char *host;
    uint64_t run[SSK_KINDS][2];
} __ssk_cache[SSK_CACHE];
static SSK_TLS unsigned cache_next;
SSK_EXPORT SSK_TLS int32_t __ssk_track;

/* The byte ranges a tracked launch touched, per allocation and kind, coalesced as they are noted, with the
 * block and thread whose access began each (libstreamsim's streamsimCcAccessed takes them at the end). At
 * most SSK_RANGES: past that, neighbouring ranges of one allocation and kind are merged into their hull
 * (which can only widen a range, never lose an access). */
typedef struct {
    uint64_t base, lo, hi; /* the allocation's base; offsets in it */
    uint32_t kind;
    uint32_t who[6]; /* block x, y, z; thread x, y, z */
} ssk_range;
#define SSK_RANGES 1024
static SSK_TLS ssk_range ranges[SSK_RANGES];
static SSK_TLS uint32_t nranges;
static SSK_TLS uint32_t run_who[SSK_CACHE][SSK_KINDS][6];
/* Dynamic shared memory: sm_80's largest opt-in block size (163 KiB). */
#define SSK_DYN_SMEM_BYTES 166912
SSK_EXPORT SSK_TLS _Alignas(16) char __ssk_dyn_smem[SSK_DYN_SMEM_BYTES];

/* A row of a module's kernel table (src/tools/cc/ir.rs writes them). */
typedef struct {
    const char *name;
    uint64_t (*size)(void);
    void (*pack)(void **args, void *buf);
    void (*tramp)(void *buf);
    uint32_t flags; /* 1: can reach a barrier or warp function: threads run as fibers */
    void (*block)(void *buf); /* the threads of one block in order, for a kernel without barriers */
    void (*attrs)(uint64_t *out); /* [0] static shared bytes, [1] constant bytes it can reach */
    uint32_t (*shared)(void *out); /* racecheck: its static shared variables (ssk_shared_var rows) */
    void (*fblock)(void *buf); /* with flags & 1: one block's threads as region loops (NULL: fibers only) */
} ssk_kernel_row;

typedef struct {
    const char *name;
    void *addr;
} ssk_var_row;

/* Outcomes of a run (streamsimCcRun in src/facade/cc_runtime.rs maps them to the vendor's codes). */
enum {
    SSK_OK = 0,
    SSK_ILLEGAL_ADDRESS = 1,
    SSK_ASSERT = 2,
    SSK_LAUNCH_FAILURE = 3,
    SSK_TOO_MUCH_SHARED = 4,
    SSK_MISALIGNED = 5,
    SSK_BARRIER = 6, /* synccheck: barrier divergence */
    SSK_AT_GRID = 7, /* run_block_fibers: every live thread of the block waits at the grid barrier (internal) */
};

/* What streamsimCcLaunchChecks answers for a launch. */
/* SSK_CHECK_FIBERS and SSK_CHECK_REGION_REPORT are not checks: STREAMSIM_REGIONS=off and =report. */
enum {
    SSK_CHECK_TRACK = 1,
    SSK_CHECK_SYNC = 2,
    SSK_CHECK_RACE = 4,
    SSK_CHECK_INIT = 8,
    SSK_CHECK_COOP = 16,
    SSK_CHECK_FIBERS = 32,
    SSK_CHECK_REGION_REPORT = 64
};
static SSK_TLS uint32_t cur_checks;

typedef int (*ssk_runner)(const ssk_kernel_row *k, void *buf, const uint32_t *grid, const uint32_t *block,
                          uint64_t shmem, char *msg, size_t msglen);

/* libstreamsim's side. */
extern void streamsimCcRegisterModule(uint32_t version, const ssk_kernel_row *kernels, uint64_t nkernels,
                                      const ssk_var_row *vars, uint64_t nvars, ssk_runner runner);
extern int streamsimCcResolve(uint64_t addr, uint64_t size, uint32_t flags, const uint32_t *who, uint64_t *base,
                              uint64_t *len, void **host, char *msg, size_t msglen);
extern uint32_t streamsimCcLaunchChecks(void);
extern void streamsimCcAccessed(const ssk_range *ranges, uint64_t n);

/* ------------------------------------------------------------------------------------------ fibers */

#define SSK_STACK_BYTES (128 * 1024)
#define SSK_MAX_THREADS 1024

enum { F_RUN = 0, F_WAIT_BLOCK = 1, F_WAIT_WARP = 2, F_DONE = 3, F_WAIT_GRID = 4 };

typedef struct {
#if defined(__x86_64__)
    void *sp;
#else
    ucontext_t uc;
#endif
    uint32_t tid[3];
    int lane;
    int state;
    int op;
    uint32_t mask;
    uint64_t val;
    int32_t arg;
    int32_t width;
    uint64_t result;
    uint64_t clock;
    void *site; /* the __syncthreads it waits at (its return address), for synccheck */
    /* The part of its stack in use while it waits at the grid barrier, [low, top): what a cooperative launch
     * saves when the block steps aside for the next one (the block's scheduler is off the stack by then). */
    char *low, *top;
} ssk_fiber;

static SSK_TLS const ssk_kernel_row *cur_kernel;
static SSK_TLS void *cur_buf;
static SSK_TLS int cur_fault;
static SSK_TLS char *cur_msg;
static SSK_TLS size_t cur_msglen;
static SSK_TLS int fiber_mode;
static SSK_TLS ssk_fiber *fibers;
static SSK_TLS ssk_fiber *cur_fiber;
static SSK_TLS int fiber_count;
static SSK_TLS char *stacks[SSK_MAX_THREADS];
/* clock64()'s counter of the thread running in loop mode (the rewritten block loop resets it). */
SSK_EXPORT SSK_TLS uint64_t __ssk_loop_clock;
#if defined(__x86_64__)
static SSK_TLS void *sched_sp;
#else
static SSK_TLS ucontext_t sched_uc;
#endif
#include "racecheck_rt.h"

/* The loop mode's way out of a faulting thread. */
#include <setjmp.h>
static SSK_TLS jmp_buf *loop_exit;



#if defined(__x86_64__)
/* void __ssk_switch(void **save, void *to): saves the callee-saved registers on the current stack, stores its
 * pointer in *save, and resumes the stack `to`. The floating-point control words (MXCSR, x87) are not
 * switched: every fiber of a block runs the same kernel in the same environment, and restoring them costs
 * more than the rest of the switch. */
__asm__(".text\n"
        ".p2align 4\n"
        ".hidden __ssk_switch\n"
        ".globl __ssk_switch\n"
        ".type __ssk_switch,@function\n"
        "__ssk_switch:\n"
        "  pushq %rbp\n"
        "  pushq %rbx\n"
        "  pushq %r12\n"
        "  pushq %r13\n"
        "  pushq %r14\n"
        "  pushq %r15\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  popq %r15\n"
        "  popq %r14\n"
        "  popq %r13\n"
        "  popq %r12\n"
        "  popq %rbx\n"
        "  popq %rbp\n"
        "  ret\n"
        ".size __ssk_switch, .-__ssk_switch\n");
void __ssk_switch(void **save, void *to);
#endif

static void set_thread_regs(const ssk_fiber *f) {
    __ssk_tid[0] = f->tid[0];
    __ssk_tid[1] = f->tid[1];
    __ssk_tid[2] = f->tid[2];
    __ssk_lane = f->lane;
}

/* Back to the block's scheduler (from a fiber). */
static void yield_to_scheduler(void) {
#if defined(__x86_64__)
    /* A pass runs the block's runnable fibers in order: a fiber that stops hands over to the next runnable
     * one directly, and only the pass's last goes back to the scheduler (half the switches of a round trip
     * through it). A fault ends the pass at once. */
    ssk_fiber *me = cur_fiber;
    ssk_fiber *next = NULL;
    if (!cur_fault)
        for (int j = (int)(me - fibers) + 1; j < fiber_count; j++)
            if (fibers[j].state == F_RUN) {
                next = &fibers[j];
                break;
            }
    if (next) {
        cur_fiber = next;
        set_thread_regs(next);
        __ssk_switch(&me->sp, next->sp);
    } else {
        __ssk_switch(&me->sp, sched_sp);
    }
    cur_fiber = me;
#else
    swapcontext(&cur_fiber->uc, &sched_uc);
#endif
    set_thread_regs(cur_fiber);
}

static void fail(int code) {
    if (!cur_fault)
        cur_fault = code;
    if (fiber_mode) {
        cur_fiber->state = F_DONE;
        yield_to_scheduler();
        abort(); /* never resumed */
    }
    longjmp(*loop_exit, 1);
}

static void fiber_main(void) {
    cur_kernel->tramp(cur_buf);
    cur_fiber->state = F_DONE;
    yield_to_scheduler();
    abort();
}

#if defined(__x86_64__)
static void fiber_start(void) __attribute__((noreturn, used));
static void fiber_start(void) {
    fiber_main();
    abort();
}
#endif

static char *stack_for(int i) {
    if (!stacks[i]) {
        void *p = mmap(NULL, SSK_STACK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                       -1, 0);
        if (p == MAP_FAILED)
            return NULL;
        /* A guard page at the bottom: a kernel that overflows its stack faults instead of corrupting another. */
        mprotect(p, 4096, PROT_NONE);
        stacks[i] = (char *)p;
    }
    return stacks[i];
}

static int fiber_init(ssk_fiber *f, int i) {
    char *stack = stack_for(i);
    if (!stack)
        return 0;
#if defined(__x86_64__)
    /* Each fiber's stack top at its own offset within a page (in steps of 128 bytes): fibers' saved
     * registers then fall in different cache sets instead of all aliasing the same ones. */
    uintptr_t top = ((uintptr_t)(stack + SSK_STACK_BYTES - (uintptr_t)(i % 32) * 128)) & ~(uintptr_t)15;
    uint64_t *sp = (uint64_t *)(top - 16);
    sp[0] = (uint64_t)(uintptr_t)fiber_start; /* the `ret` of the first switch lands here */
    sp -= 6;                                   /* rbp rbx r12 r13 r14 r15 */
    memset(sp, 0, 6 * sizeof *sp);
    f->sp = sp;
    f->top = (char *)top;
#else
    getcontext(&f->uc);
    f->uc.uc_stack.ss_sp = stack + 4096;
    f->uc.uc_stack.ss_size = SSK_STACK_BYTES - 4096;
    f->uc.uc_link = NULL;
    makecontext(&f->uc, fiber_main, 0);
    f->top = stack + SSK_STACK_BYTES;
#endif
    return 1;
}

static void resume(ssk_fiber *f) {
    cur_fiber = f;
    set_thread_regs(f);
#if defined(__x86_64__)
    __ssk_switch(&sched_sp, f->sp);
#else
    swapcontext(&sched_uc, &f->uc);
#endif
}

/* ------------------------------------------------------------------------------------------ warp ops */


/* One lane's result of its warp's operation: lane `l` of `nlanes`, `arrived` the lanes waiting at a warp
 * operation, `vals` their values. Shared by the fiber runner and the region loops (fission_rt.h), so that both
 * give the same answers. */
static inline __attribute__((always_inline)) uint64_t warp_result(int l, int nlanes, uint32_t arrived, int op,
                                                                  uint32_t mask, uint64_t val, int32_t arg,
                                                                  int32_t width, const uint64_t *vals) {
    uint32_t members = mask & arrived;
    width = width <= 0 || width > 32 ? 32 : width;
    int seg = l & ~(width - 1);
    int in = l & (width - 1);
    int src = l;
    switch (op) {
    case STREAMSIM_W_IDX:
        src = seg + (arg & (width - 1));
        break;
    case STREAMSIM_W_UP:
        src = in >= arg ? l - arg : l;
        break;
    case STREAMSIM_W_DOWN:
        src = in + arg < width ? l + arg : l;
        break;
    case STREAMSIM_W_XOR:
        src = (l ^ arg);
        if (src < seg || src >= seg + width)
            src = l;
        break;
    default:
        break;
    }
    switch (op) {
    case STREAMSIM_W_IDX:
    case STREAMSIM_W_UP:
    case STREAMSIM_W_DOWN:
    case STREAMSIM_W_XOR:
        return (src < nlanes && (arrived >> src & 1)) ? vals[src] : val;
    case STREAMSIM_W_BALLOT: {
        uint32_t b = 0;
        for (int m = 0; m < nlanes; m++)
            if ((members >> m & 1) && vals[m])
                b |= 1u << m;
        return b;
    }
    case STREAMSIM_W_ANY:
    case STREAMSIM_W_ALL: {
        int any = 0, all = 1;
        for (int m = 0; m < nlanes; m++)
            if (members >> m & 1) {
                any |= vals[m] != 0;
                all &= vals[m] != 0;
            }
        return op == STREAMSIM_W_ANY ? (uint64_t)any : (uint64_t)all;
    }
    case STREAMSIM_W_ACTIVEMASK:
        return arrived;
    case STREAMSIM_W_MATCH_ANY: {
        uint32_t b = 0;
        for (int m = 0; m < nlanes; m++)
            if ((members >> m & 1) && vals[m] == val)
                b |= 1u << m;
        return b;
    }
    case STREAMSIM_W_MATCH_ALL: {
        int same = 1;
        for (int m = 0; m < nlanes; m++)
            if ((members >> m & 1) && vals[m] != val)
                same = 0;
        return same ? members : 0;
    }
    default:
        return 0;
    }
}

/* The results of one warp's operation, all lanes at once (before any of them resumes). */
static void warp_results(ssk_fiber *w, int nlanes) {
    uint32_t arrived = 0;
    uint64_t vals[32];
    for (int l = 0; l < nlanes; l++) {
        vals[l] = w[l].val;
        if (w[l].state == F_WAIT_WARP)
            arrived |= 1u << l;
    }
    for (int l = 0; l < nlanes; l++) {
        ssk_fiber *f = &w[l];
        if (f->state != F_WAIT_WARP)
            continue;
        f->result = warp_result(l, nlanes, arrived, f->op, f->mask, f->val, f->arg, f->width, vals);
        f->state = F_RUN;
    }
}

/* ------------------------------------------------------------------------------------------ a block */

/* The block's threads from their start. */
static int start_block_fibers(int n) {
    for (int i = 0; i < n; i++) {
        if (!fiber_init(&fibers[i], i)) {
            snprintf(cur_msg, cur_msglen, "cannot map a stack for thread %d of the block", i);
            return SSK_LAUNCH_FAILURE;
        }
        fibers[i].state = F_RUN;
        fibers[i].clock = 0;
    }
    fiber_count = n;
    return SSK_OK;
}

/* Runs the block's threads until all are done (SSK_OK), every live one waits at the grid barrier
 * (SSK_AT_GRID), or the kernel faults. */
static int run_block_fibers(int n) {
    fiber_count = n;
    for (;;) {
        int ran = 0;
        for (int i = 0; i < n; i++) {
            if (fibers[i].state != F_RUN)
                continue;
            ran = 1;
            resume(&fibers[i]);
            if (cur_fault)
                return cur_fault;
#if defined(__x86_64__)
            break; /* the pass ran every runnable fiber from i on (see yield_to_scheduler) */
#endif
        }
        int live = 0, at_block = 0, at_grid = 0;
        for (int i = 0; i < n; i++) {
            live += fibers[i].state != F_DONE;
            at_block += fibers[i].state == F_WAIT_BLOCK;
            at_grid += fibers[i].state == F_WAIT_GRID;
        }
        if (!live)
            return SSK_OK;
        if (at_grid == live) {
            /* Threads that exited count as arrived, as at __syncthreads; synccheck holds them divergence. */
            if (at_grid < n && (cur_checks & SSK_CHECK_SYNC)) {
                int first = -1, gone = -1;
                for (int i = 0; i < n && (first < 0 || gone < 0); i++) {
                    if (fibers[i].state == F_DONE && gone < 0)
                        gone = i;
                    if (fibers[i].state == F_WAIT_GRID && first < 0)
                        first = i;
                }
                const ssk_fiber *w = &fibers[first], *d = &fibers[gone];
                snprintf(cur_msg, cur_msglen,
                         "barrier divergence in block (%u,%u,%u): thread (%u,%u,%u) waits at a grid.sync() that "
                         "thread (%u,%u,%u) does not reach (it exited)",
                         __ssk_ctaid[0], __ssk_ctaid[1], __ssk_ctaid[2], w->tid[0], w->tid[1], w->tid[2], d->tid[0],
                         d->tid[1], d->tid[2]);
                return SSK_BARRIER;
            }
            return SSK_AT_GRID;
        }
        int released = 0;
        /* Warps whose live threads are all at a warp operation. */
        for (int w0 = 0; w0 < n; w0 += 32) {
            int lanes = n - w0 < 32 ? n - w0 : 32;
            int waiting = 0, alive = 0;
            for (int l = 0; l < lanes; l++) {
                int st = fibers[w0 + l].state;
                alive += st != F_DONE && st != F_WAIT_BLOCK && st != F_WAIT_GRID;
                waiting += fibers[w0 + l].state == F_WAIT_WARP;
            }
            if (waiting && waiting == alive) {
                warp_results(&fibers[w0], lanes);
                rc_warp_released(w0 / 32);
                released = 1;
            }
        }
        if (!released && at_block == live && (cur_checks & SSK_CHECK_SYNC)) {
            /* synccheck: every thread of the block must reach the same __syncthreads. */
            int first = -1, other = -1, gone = -1;
            for (int i = 0; i < n; i++) {
                if (fibers[i].state == F_DONE) {
                    if (gone < 0)
                        gone = i;
                } else if (first < 0) {
                    first = i;
                } else if (other < 0 && fibers[i].site != fibers[first].site) {
                    other = i;
                }
            }
            if (other >= 0 || gone >= 0) {
                const ssk_fiber *w = &fibers[first], *d = &fibers[other >= 0 ? other : gone];
                snprintf(cur_msg, cur_msglen,
                         "barrier divergence in block (%u,%u,%u): thread (%u,%u,%u) waits at a __syncthreads that "
                         "thread (%u,%u,%u) %s",
                         __ssk_ctaid[0], __ssk_ctaid[1], __ssk_ctaid[2], w->tid[0], w->tid[1], w->tid[2], d->tid[0],
                         d->tid[1], d->tid[2],
                         other >= 0 ? "does not reach (it waits at another one)"
                                    : "does not reach (it exited)");
                return SSK_BARRIER;
            }
        }
        if (!released && at_block == live) {
            /* __syncthreads: every live thread arrived (threads that exited count as arrived). */
            int count = 0, all = 1, any = 0;
            for (int i = 0; i < n; i++)
                if (fibers[i].state == F_WAIT_BLOCK) {
                    count += fibers[i].val != 0;
                    all &= fibers[i].val != 0;
                    any |= fibers[i].val != 0;
                }
            for (int i = 0; i < n; i++)
                if (fibers[i].state == F_WAIT_BLOCK) {
                    int op = fibers[i].op;
                    fibers[i].result = op == 1 ? (uint64_t)count : op == 2 ? (uint64_t)all : (uint64_t)any;
                    fibers[i].state = F_RUN;
                }
            rc_barrier();
            released = 1;
        }
        if (!released && !ran && at_grid) {
            snprintf(cur_msg, cur_msglen,
                     "the threads of block (%u,%u,%u) cannot go on: %d at grid.sync(), %d at __syncthreads%s "
                     "(barrier divergence)",
                     __ssk_ctaid[0], __ssk_ctaid[1], __ssk_ctaid[2], at_grid, at_block,
                     at_grid + at_block < live ? ", the others at a warp function whose lanes are not all there"
                                               : "");
            return (cur_checks & SSK_CHECK_SYNC) ? SSK_BARRIER : SSK_LAUNCH_FAILURE;
        }
        if (!released && !ran) {
            snprintf(cur_msg, cur_msglen,
                     "the threads of block (%u,%u,%u) cannot go on: %d at __syncthreads, the others at a warp "
                     "function whose lanes are not all there (barrier divergence)",
                     __ssk_ctaid[0], __ssk_ctaid[1], __ssk_ctaid[2], at_block);
            return SSK_LAUNCH_FAILURE;
        }
    }
}

/* ------------------------------------------------------------------------------------------ the tracker */

static void current_who(uint32_t *who) {
    for (int i = 0; i < 3; i++) {
        who[i] = __ssk_ctaid[i];
        who[3 + i] = __ssk_tid[i];
    }
}

/* Shortens the list: each range takes in the next one of its allocation and kind among the following sixteen
 * (into their hull), in the order the runs ended, so the result is the same on every run. */
static void coarsen(void) {
    for (uint32_t i = 0; i < nranges; i++) {
        ssk_range *r = &ranges[i];
        if (r->kind == UINT32_MAX)
            continue;
        for (uint32_t j = i + 1; j < nranges && j <= i + 16; j++) {
            ssk_range *q = &ranges[j];
            if (q->kind == r->kind && q->base == r->base) {
                r->lo = q->lo < r->lo ? q->lo : r->lo;
                r->hi = q->hi > r->hi ? q->hi : r->hi;
                q->kind = UINT32_MAX; /* taken in */
                break;
            }
        }
    }
    uint32_t w = 0;
    for (uint32_t i = 0; i < nranges; i++)
        if (ranges[i].kind != UINT32_MAX)
            ranges[w++] = ranges[i];
    nranges = w;
}

/* Keeps the run [lo, hi) of kind `kind` in the allocation at `base`, begun by `who`. */
static void keep_range(uint64_t base, uint32_t kind, uint64_t lo, uint64_t hi, const uint32_t *who) {
    /* The same allocation and kind as a recent range, touching or overlapping it: widen that one. */
    for (uint32_t i = nranges, seen = 0; i > 0 && seen < 4; i--, seen++) {
        ssk_range *r = &ranges[i - 1];
        if (r->base == base && r->kind == kind && lo <= r->hi && hi >= r->lo) {
            r->lo = lo < r->lo ? lo : r->lo;
            r->hi = hi > r->hi ? hi : r->hi;
            return;
        }
    }
    if (nranges == SSK_RANGES)
        coarsen();
    if (nranges == SSK_RANGES) {
        /* Nothing merged: the run joins the latest range of its allocation and kind, wherever it is. Only a
         * kernel touching more than SSK_RANGES allocations loses ranges (the oldest). */
        for (uint32_t i = nranges; i > 0; i--) {
            ssk_range *q = &ranges[i - 1];
            if (q->base == base && q->kind == kind) {
                q->lo = lo < q->lo ? lo : q->lo;
                q->hi = hi > q->hi ? hi : q->hi;
                return;
            }
        }
        memmove(ranges, ranges + 1, (SSK_RANGES - 1) * sizeof *ranges);
        nranges--;
    }
    ssk_range *r = &ranges[nranges++];
    r->base = base;
    r->kind = kind;
    r->lo = lo;
    r->hi = hi;
    memcpy(r->who, who, sizeof r->who);
}

/* Ends the runs of cache entry `e` (they go to the list) and empties them. */
static void flush_entry(int e) {
    for (int k = 0; k < SSK_KINDS; k++) {
        uint64_t *run = __ssk_cache[e].run[k];
        if (run[0] < run[1])
            keep_range(__ssk_cache[e].base, (uint32_t)k, run[0], run[1], run_who[e][k]);
        run[0] = run[1] = UINT64_MAX;
    }
}

/* The rewritten code's way out of `__ssk.note`: the access [d, end) of kind `kind` does not touch the run of
 * cache entry `e`, which ends; the access begins the next one. */
SSK_EXPORT void __ssk_flush(int32_t e, int32_t kind, uint64_t d, uint64_t end) {
    uint64_t *run = __ssk_cache[e].run[kind];
    if (run[0] < run[1])
        keep_range(__ssk_cache[e].base, (uint32_t)kind, run[0], run[1], run_who[e][kind]);
    run[0] = d;
    run[1] = end;
    current_who(run_who[e][kind]);
}

#include "initcheck_rt.h"
#include "fission_rt.h"

/* ------------------------------------------------------------------------------------------ the grid barrier */

/*
 * A cooperative launch (cudaLaunchCooperativeKernel) runs its blocks in order, as any launch does, but a block
 * runs only until every live thread of it waits at the grid barrier (grid.sync()). Its state is then saved —
 * its fibers, the used part of each one's stack (the stacks are reused at the same addresses when it resumes,
 * so pointers into them stay valid), its static __shared__ variables and its dynamic shared memory — and the
 * next block runs. When every block waits at the barrier (or some exited and synccheck does not object), the
 * blocks resume in order, each restored, to the next grid barrier or the end. The saved states are bounded by
 * the grid, which the launch bounds by what the device holds co-resident (cudaErrorCooperativeLaunchTooLarge).
 */

enum { B_RUN = 0, B_AT_GRID = 1, B_DONE = 2 };

typedef struct {
    int status;
    ssk_fiber *fibers; /* the block's fibers */
    char *bytes;       /* their stacks' used parts, in thread order, then the shared memory */
} ssk_saved_block;

/* The launch is cooperative. */
static SSK_TLS int cur_coop;
/* A cooperative launch's static __shared__ variables (the kernel row's table) and dynamic shared bytes. */
static SSK_TLS ssk_shared_var *cur_shared;
static SSK_TLS uint32_t cur_nshared;
static SSK_TLS uint64_t cur_shmem;

/* The kernel's static shared variables, for saving a block's shared memory. 0: no memory for the table. */
static int coop_shared_table(const ssk_kernel_row *k) {
    cur_nshared = k->shared ? k->shared(NULL) : 0;
    cur_shared = NULL;
    if (!cur_nshared)
        return 1;
    cur_shared = calloc(cur_nshared, sizeof *cur_shared);
    if (!cur_shared)
        return 0;
    (void)k->shared(cur_shared);
    return 1;
}

static uint64_t shared_bytes(void) {
    uint64_t b = cur_shmem;
    for (uint32_t i = 0; i < cur_nshared; i++)
        b += cur_shared[i].size;
    return b;
}

/* Copies the block's shared memory to (`out` = 1) or from `p`; returns the end of its bytes there. */
static char *copy_shared(char *p, int out) {
    for (uint32_t i = 0; i < cur_nshared; i++) {
        if (out)
            memcpy(p, cur_shared[i].addr, cur_shared[i].size);
        else
            memcpy(cur_shared[i].addr, p, cur_shared[i].size);
        p += cur_shared[i].size;
    }
    if (out)
        memcpy(p, __ssk_dyn_smem, cur_shmem);
    else
        memcpy(__ssk_dyn_smem, p, cur_shmem);
    return p + cur_shmem;
}

/* The lowest byte of a waiting fiber's stack that is in use. */
static char *fiber_low(const ssk_fiber *f) {
#if defined(__x86_64__)
    return (char *)f->sp;
#else
    return f->low;
#endif
}

/* Saves the block whose threads all wait at the grid barrier (or are done). 0: no memory. */
static int save_block(ssk_saved_block *sb, int n) {
    uint64_t bytes = shared_bytes();
    for (int i = 0; i < n; i++)
        if (fibers[i].state == F_WAIT_GRID)
            bytes += (uint64_t)(fibers[i].top - fiber_low(&fibers[i]));
    if (!sb->fibers)
        sb->fibers = malloc((size_t)n * sizeof(ssk_fiber));
    free(sb->bytes);
    sb->bytes = malloc(bytes ? bytes : 1);
    if (!sb->fibers || !sb->bytes)
        return 0;
    memcpy(sb->fibers, fibers, (size_t)n * sizeof(ssk_fiber));
    char *p = sb->bytes;
    for (int i = 0; i < n; i++)
        if (fibers[i].state == F_WAIT_GRID) {
            size_t used = (size_t)(fibers[i].top - fiber_low(&fibers[i]));
            memcpy(p, fiber_low(&fibers[i]), used);
            p += used;
        }
    (void)copy_shared(p, 1);
    sb->status = B_AT_GRID;
    return 1;
}

/* Puts a saved block back (its fibers, stacks and shared memory) and releases its threads from the barrier. */
static void restore_block(ssk_saved_block *sb, int n) {
    memcpy(fibers, sb->fibers, (size_t)n * sizeof(ssk_fiber));
    char *p = sb->bytes;
    for (int i = 0; i < n; i++)
        if (fibers[i].state == F_WAIT_GRID) {
            size_t used = (size_t)(fibers[i].top - fiber_low(&fibers[i]));
            memcpy(fiber_low(&fibers[i]), p, used);
            p += used;
            fibers[i].state = F_RUN;
        }
    (void)copy_shared(p, 0);
    free(sb->bytes);
    sb->bytes = NULL;
    sb->status = B_RUN;
}

static void set_block_index(uint64_t b, const uint32_t *grid) {
    __ssk_ctaid[0] = (uint32_t)(b % grid[0]);
    __ssk_ctaid[1] = (uint32_t)(b / grid[0] % grid[1]);
    __ssk_ctaid[2] = (uint32_t)(b / ((uint64_t)grid[0] * grid[1]));
}

/* The blocks of a launch whose threads run as fibers: in order, and, in a cooperative launch, from one grid
 * barrier to the next (see above). */
static int run_fiber_grid(const uint32_t *grid, int n) {
    uint64_t nblocks = (uint64_t)grid[0] * grid[1] * grid[2];
    ssk_saved_block *saved = NULL; /* made when a block first waits at the grid barrier */
    int r = SSK_OK;
    for (int first = 1; r == SSK_OK; first = 0) {
        uint64_t waiting = 0, first_wait = 0, first_done = 0; /* in this pass over the grid */
        int done_now = 0;
        for (uint64_t b = 0; b < nblocks && r == SSK_OK; b++) {
            if (!first && saved[b].status != B_AT_GRID)
                continue;
            set_block_index(b, grid);
            rc_block();
            if (first)
                r = start_block_fibers(n);
            else
                restore_block(&saved[b], n);
            if (r != SSK_OK)
                break;
            r = run_block_fibers(n);
            if (r == SSK_AT_GRID) {
                r = SSK_OK;
                if (!saved) {
                    saved = calloc(nblocks, sizeof *saved);
                    if (!saved) {
                        snprintf(cur_msg, cur_msglen, "cannot save the state of %llu blocks at a grid barrier",
                                 (unsigned long long)nblocks);
                        r = SSK_LAUNCH_FAILURE;
                        break;
                    }
                }
                if (!save_block(&saved[b], n)) {
                    snprintf(cur_msg, cur_msglen, "cannot save the state of block (%u,%u,%u) at a grid barrier",
                             __ssk_ctaid[0], __ssk_ctaid[1], __ssk_ctaid[2]);
                    r = SSK_LAUNCH_FAILURE;
                    break;
                }
                if (!waiting++)
                    first_wait = b;
            } else if (r == SSK_OK) {
                if (saved)
                    saved[b].status = B_DONE;
                if (!done_now++)
                    first_done = b;
            }
        }
        if (r != SSK_OK || !waiting)
            break;
        if (done_now) {
            /* On the device the barrier would wait for the exited block for ever. */
            uint32_t w[3], d[3];
            set_block_index(first_wait, grid);
            memcpy(w, __ssk_ctaid, sizeof w);
            set_block_index(first_done, grid);
            memcpy(d, __ssk_ctaid, sizeof d);
            snprintf(cur_msg, cur_msglen,
                     "barrier divergence: block (%u,%u,%u) waits at a grid.sync() that block (%u,%u,%u) does not "
                     "reach (its threads exited)",
                     w[0], w[1], w[2], d[0], d[1], d[2]);
            r = (cur_checks & SSK_CHECK_SYNC) ? SSK_BARRIER : SSK_LAUNCH_FAILURE;
        }
        /* Every block waits at the barrier, which releases: racecheck orders what came before it. */
        if (r == SSK_OK)
            rc_grid_barrier();
    }
    if (saved) {
        for (uint64_t b = 0; b < nblocks; b++) {
            free(saved[b].fibers);
            free(saved[b].bytes);
        }
        free(saved);
    }
    return r;
}

static int run(const ssk_kernel_row *k, void *buf, const uint32_t *grid, const uint32_t *block, uint64_t shmem,
               char *msg, size_t msglen) {
    if (shmem > SSK_DYN_SMEM_BYTES) {
        snprintf(msg, msglen, "%llu bytes of dynamic shared memory, more than the %d a block can have",
                 (unsigned long long)shmem, SSK_DYN_SMEM_BYTES);
        return SSK_TOO_MUCH_SHARED;
    }
    cur_kernel = k;
    cur_buf = buf;
    cur_fault = SSK_OK;
    cur_msg = msg;
    cur_msglen = msglen;
    msg[0] = 0;
    /* A launch starts with nothing cached: an allocation freed since the last kernel is resolved again. */
    memset(__ssk_cache, 0, sizeof __ssk_cache);
    cache_next = 0;
    cur_checks = streamsimCcLaunchChecks();
    __ssk_track = (cur_checks & SSK_CHECK_TRACK) != 0;
    nranges = 0;
    for (int e = 0; e < SSK_CACHE; e++)
        for (int k = 0; k < SSK_KINDS; k++)
            __ssk_cache[e].run[k][0] = __ssk_cache[e].run[k][1] = UINT64_MAX;
    for (int i = 0; i < 3; i++) {
        __ssk_ntid[i] = block[i];
        __ssk_nctaid[i] = grid[i];
    }
    uint32_t n = block[0] * block[1] * block[2];
    fiber_mode = (k->flags & 1) != 0;
    /* Region loops instead of fibers, unless a check needs the fibers' bookkeeping (synccheck's barrier
     * sites, racecheck's barrier epochs, a cooperative launch's grid barrier). */
    int regions =
        fiber_mode && k->fblock && !(cur_checks & (SSK_CHECK_SYNC | SSK_CHECK_RACE | SSK_CHECK_COOP | SSK_CHECK_FIBERS));
    if (regions)
        fiber_mode = 0;
    if (fiber_mode) {
        fibers = calloc(n, sizeof(ssk_fiber));
        if (!fibers) {
            snprintf(msg, msglen, "cannot allocate %u fibers", n);
            return SSK_LAUNCH_FAILURE;
        }
        uint32_t i = 0;
        for (uint32_t z = 0; z < block[2]; z++)
            for (uint32_t y = 0; y < block[1]; y++)
                for (uint32_t x = 0; x < block[0]; x++, i++) {
                    fibers[i].tid[0] = x;
                    fibers[i].tid[1] = y;
                    fibers[i].tid[2] = z;
                    fibers[i].lane = (int)(i & 31);
                }
    }
    if (cur_checks & SSK_CHECK_RACE)
        (void)rc_begin(k, shmem);
    if (cur_checks & (SSK_CHECK_INIT | SSK_CHECK_RACE))
        ic_begin();
    int r = SSK_OK;
    jmp_buf exit;
    loop_exit = &exit;
    cur_coop = (cur_checks & SSK_CHECK_COOP) != 0;
    cur_shmem = shmem;
    if (fiber_mode && cur_coop && !coop_shared_table(k)) {
        snprintf(msg, msglen, "cannot allocate the table of the kernel's shared variables");
        r = SSK_LAUNCH_FAILURE;
    } else if (fiber_mode) {
        r = run_fiber_grid(grid, (int)n);
    } else if (regions) {
        r = run_region_grid(k, buf, grid, &exit);
    } else {
        for (uint32_t bz = 0; bz < grid[2] && r == SSK_OK; bz++)
            for (uint32_t by = 0; by < grid[1] && r == SSK_OK; by++)
                for (uint32_t bx = 0; bx < grid[0] && r == SSK_OK; bx++) {
                    __ssk_ctaid[0] = bx;
                    __ssk_ctaid[1] = by;
                    __ssk_ctaid[2] = bz;
                    rc_block();
                    if (setjmp(exit)) {
                        r = cur_fault;
                        break;
                    }
                    k->block(buf);
                }
    }
    if (fiber_mode) {
        free(fibers);
        fibers = NULL;
    }
    free(cur_shared);
    cur_shared = NULL;
    cur_nshared = 0;
    cur_coop = 0;
    if (cur_checks & SSK_CHECK_RACE)
        rc_end();
    if (cur_checks & SSK_CHECK_INIT)
        ic_end();
    if (__ssk_track) {
        for (int e = 0; e < SSK_CACHE; e++)
            flush_entry(e);
        streamsimCcAccessed(ranges, nranges);
        __ssk_track = 0;
    }
    fiber_mode = 0;
    cur_kernel = NULL;
    return r;
}

SSK_EXPORT void __ssk_register_module(uint32_t version, const ssk_kernel_row *kernels, uint64_t nkernels,
                                      const ssk_var_row *vars, uint64_t nvars) {
    streamsimCcRegisterModule(version, kernels, nkernels, vars, nvars, run);
}

/* ------------------------------------------------------------------------------------------ device calls */

static void where(char *out, size_t len) {
    snprintf(out, len, "block (%u,%u,%u), thread (%u,%u,%u)", __ssk_ctaid[0], __ssk_ctaid[1], __ssk_ctaid[2],
             __ssk_tid[0], __ssk_tid[1], __ssk_tid[2]);
}

/* The translator's slow path: `flags` is the access's kind (bits 0-1), the mask of the address bits its
 * alignment needs to be 0 (bits 8-11) and the source line (bits 12-31, 0: unknown). libstreamsim resolves the
 * address (and, failing, describes it). */
SSK_EXPORT void *__ssk_resolve(uint64_t addr, uint64_t size, uint32_t flags) {
    uint64_t base = 0, len = 0;
    void *host = NULL;
    char why[1024];
    uint32_t who[6];
    int init = (cur_checks & SSK_CHECK_INIT) != 0;
    /* initcheck and racecheck: the inline cache is empty, and its allocations are found here. */
    int slow = (cur_checks & (SSK_CHECK_INIT | SSK_CHECK_RACE)) != 0;
    int slot = slow ? ic_find(addr, size, flags) : -1;
    int code = 0;
    if (slot >= 0) {
        base = __ssk_cache[slot].base;
        host = __ssk_cache[slot].host;
    } else {
        current_who(who);
        code = streamsimCcResolve(addr, size, flags, who, &base, &len, &host, why, sizeof why);
    }
    if (code == 0) {
        /* An allocation already cached (a misaligned-looking miss cannot be: it faulted) or a new one. */
        for (int e = 0; e < SSK_CACHE && slot < 0; e++)
            if (__ssk_cache[e].base == base && (slow ? ic_len[e] : __ssk_cache[e].len) == len &&
                __ssk_cache[e].host == host)
                slot = e;
        if (slot < 0) {
            slot = (int)(cache_next++ % SSK_CACHE);
            if (__ssk_track)
                flush_entry(slot);
            __ssk_cache[slot].base = base;
            __ssk_cache[slot].len = len;
            __ssk_cache[slot].host = (char *)host;
            if (slow)
                ic_take(slot, base, len, init);
        }
        if (init)
            ic_access(slot, addr - base, size, flags & 3);
        if (cur_checks & SSK_CHECK_RACE)
            rc_global_access(addr, size, flags, base, ic_len[slot]);
        if (__ssk_track) {
            uint32_t kind = flags & 3;
            uint64_t d = addr - base, *run = __ssk_cache[slot].run[kind];
            if (d <= run[1] && d + size >= run[0]) {
                run[0] = d < run[0] ? d : run[0];
                run[1] = d + size > run[1] ? d + size : run[1];
            } else {
                __ssk_flush(slot, (int32_t)kind, d, d + size);
            }
        }
        return (char *)host + (addr - base);
    }
    /* libstreamsim's message names the block and thread. */
    snprintf(cur_msg, cur_msglen, "%s", why);
    fail(code == 2 ? SSK_MISALIGNED : SSK_ILLEGAL_ADDRESS);
    return NULL;
}

static int sync_at(int op, int pred, void *site) {
    if (!fiber_mode)
        return pred;
    cur_fiber->op = op;
    cur_fiber->val = pred != 0;
    cur_fiber->site = site;
    cur_fiber->state = F_WAIT_BLOCK;
    yield_to_scheduler();
    return (int)cur_fiber->result;
}

/* Each barrier is known by where the kernel calls it from (synccheck compares them). */
SSK_EXPORT int __ssk_syncthreads_op(int op, int pred) { return sync_at(op, pred, __builtin_return_address(0)); }

SSK_EXPORT void __ssk_syncthreads(void) { (void)sync_at(0, 0, __builtin_return_address(0)); }

SSK_EXPORT uint64_t __ssk_warp_op64(int op, uint32_t mask, uint64_t val, int32_t arg, int32_t width) {
    if (!fiber_mode)
        return val;
    cur_fiber->op = op;
    cur_fiber->mask = mask;
    cur_fiber->val = val;
    cur_fiber->arg = arg;
    cur_fiber->width = width;
    cur_fiber->state = F_WAIT_WARP;
    yield_to_scheduler();
    return cur_fiber->result;
}

SSK_EXPORT uint32_t __ssk_warp_op(int op, uint32_t mask, uint32_t val, int32_t arg, int32_t width) {
    return (uint32_t)__ssk_warp_op64(op, mask, val, arg, width);
}

/* grid.sync(): the grid barrier of a cooperative launch (see run_fiber_grid). Elsewhere NVIDIA's header traps
 * (`_CG_ABORT()` when `!is_valid()`), and so does this one, with a message that says why. */
SSK_EXPORT void __ssk_grid_sync(void) {
    if (!cur_coop || !fiber_mode) {
        char at[96];
        where(at, sizeof at);
        /* (A kernel that can reach grid.sync() always runs its threads as fibers: ir.rs's SYNC_FUNCTIONS.) */
        snprintf(cur_msg, cur_msglen,
                 cur_coop ? "%s: grid.sync() in a kernel whose threads do not run as fibers (a streamsim bug)"
                          : "%s: grid.sync() in a kernel that was not launched cooperatively "
                            "(cudaLaunchCooperativeKernel, or cudaLaunchKernelExC with cudaLaunchAttributeCooperative)",
                 at);
        fail(SSK_LAUNCH_FAILURE);
        return;
    }
#if !defined(__x86_64__)
    /* What of the stack to keep while it waits: on x86-64 from its saved stack pointer; elsewhere from this
     * frame less room for the calls that switch away (within the mapped stack, above its guard page). */
    {
        uintptr_t frame = (uintptr_t)__builtin_frame_address(0);
        uintptr_t bottom = (uintptr_t)stacks[cur_fiber - fibers] + 4096;
        cur_fiber->low = (char *)(frame - bottom > 4096 ? frame - 4096 : bottom);
    }
#endif
    cur_fiber->site = __builtin_return_address(0);
    cur_fiber->state = F_WAIT_GRID;
    yield_to_scheduler();
}

/* this_grid().is_valid(): whether the grid can synchronize (the launch is cooperative). */
SSK_EXPORT int __ssk_grid_valid(void) { return cur_coop; }

SSK_EXPORT void __ssk_syncwarp(uint32_t mask) { (void)__ssk_warp_op64(STREAMSIM_W_SYNC, mask, 0, 0, 32); }

/* clock64(): a per-thread counter that advances by 64 on every read (so a kernel that spins until it passes
 * a bound ends, after the same number of reads on every run). */
SSK_EXPORT long long __ssk_clock64(void) {
    uint64_t *c = fiber_mode ? &cur_fiber->clock : &__ssk_loop_clock;
    *c += 64;
    return (long long)*c;
}

SSK_EXPORT void __ssk_trap(void) {
    char at[96];
    where(at, sizeof at);
    snprintf(cur_msg, cur_msglen, "%s: __trap()", at);
    fail(SSK_LAUNCH_FAILURE);
}

SSK_EXPORT void __assertfail(const char *message, const char *file, unsigned line, const char *function,
                             size_t charSize) {
    (void)charSize;
    /* CUDA's own format. */
    fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", file, line,
            function, __ssk_ctaid[0], __ssk_ctaid[1], __ssk_ctaid[2], __ssk_tid[0], __ssk_tid[1], __ssk_tid[2],
            message);
    fflush(stderr);
    char at[96];
    where(at, sizeof at);
    snprintf(cur_msg, cur_msglen, "%s: assertion `%s` failed at %s:%u", at, message, file, line);
    fail(SSK_ASSERT);
}

/* glibc's assert() in device code. */
SSK_EXPORT void __ssk_assert_fail(const char *message, const char *file, unsigned line, const char *function) {
    __assertfail(message, file, line, function, 1);
}

/* Device printf: clang packs the arguments in a struct, each at its natural alignment (floats promoted to
 * double, small integers to int). One write per call, so lines of different threads never interleave. */
SSK_EXPORT int __ssk_vprintf(const char *fmt, void *args) {
    char out[4096];
    size_t o = 0;
    const char *a = (const char *)args;
    size_t off = 0;
#define SSK_TAKE(T)                                                                                           \
    ({                                                                                                        \
        off = (off + _Alignof(T) - 1) & ~(size_t)(_Alignof(T) - 1);                                           \
        T v_;                                                                                                 \
        memcpy(&v_, a + off, sizeof(T));                                                                      \
        off += sizeof(T);                                                                                     \
        v_;                                                                                                   \
    })
    for (const char *p = fmt; *p && o < sizeof out - 1;) {
        if (*p != '%') {
            out[o++] = *p++;
            continue;
        }
        if (p[1] == '%') {
            out[o++] = '%';
            p += 2;
            continue;
        }
        const char *start = p++;
        while (*p && strchr("-+ #0", *p))
            p++;
        while (*p && (*p >= '0' && *p <= '9'))
            p++;
        if (*p == '.') {
            p++;
            while (*p && (*p >= '0' && *p <= '9'))
                p++;
        }
        int longs = 0;
        while (*p && strchr("hlLqjzt", *p)) {
            if (*p == 'l' || *p == 'q' || *p == 'j' || *p == 'z' || *p == 't' || *p == 'L')
                longs++;
            p++;
        }
        char conv = *p ? *p++ : 0;
        char spec[64];
        size_t sl = (size_t)(p - start) < sizeof spec - 1 ? (size_t)(p - start) : sizeof spec - 1;
        memcpy(spec, start, sl);
        spec[sl] = 0;
        size_t room = sizeof out - o;
        int w = 0;
        switch (conv) {
        case 'd':
        case 'i':
        case 'u':
        case 'x':
        case 'X':
        case 'o':
        case 'c':
            if (longs)
                w = snprintf(out + o, room, spec, SSK_TAKE(long long));
            else
                w = snprintf(out + o, room, spec, SSK_TAKE(int));
            break;
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
        case 'a':
        case 'A':
            w = snprintf(out + o, room, spec, SSK_TAKE(double));
            break;
        case 's': {
            const char *s = SSK_TAKE(const char *);
            w = snprintf(out + o, room, spec, s ? s : "(null)");
            break;
        }
        case 'p':
            w = snprintf(out + o, room, spec, SSK_TAKE(void *));
            break;
        default:
            w = snprintf(out + o, room, "%s", spec);
        }
        if (w > 0)
            o += (size_t)w < room ? (size_t)w : room - 1;
    }
#undef SSK_TAKE
    fwrite(out, 1, o, stdout);
    return (int)o;
}
