/*
 * initcheck_rt.h — initcheck for kernels run on the CPU (part of kernel_rt.c, which includes it once): a
 * kernel's read of device memory that nothing wrote since its allocation, in the manner of compute-sanitizer's
 * initcheck tool.
 *
 * (racecheck sends global accesses through the same path: racecheck_rt.h.)
 *
 * libstreamsim keeps one bit per byte of each device allocation while initcheck is on (src/engine/memory/
 * init.rs), set by copies and memsets. While a launch runs initcheck, the translator's inline cache is kept
 * empty (each entry's length 0), so that every access to device memory reaches __ssk_resolve; there the four
 * allocations touched last are found again here (ic_len holds their lengths), and each store (and atomic) sets
 * its bits, each load (and atomic) checks them first. The bits are updated atomically: kernels on other streams
 * may touch other bytes of the same words at once.
 *
 * The first unwritten read of each allocation in a launch is reported at the launch's end with the count of
 * such reads (libstreamsim's streamsimCcInitReport names the allocation). The semantics:
 * docs/semantics/sanitizer.md.
 */

#define IC_REPORTS 16

static SSK_TLS uint64_t ic_len[SSK_CACHE];
static SSK_TLS uint64_t *ic_words[SSK_CACHE];
static SSK_TLS uint64_t ic_bit0[SSK_CACHE];
static SSK_TLS struct {
    uint64_t base, addr, size, count;
    uint32_t who[6];
} ic_reports[IC_REPORTS];
static SSK_TLS int ic_nreports;

extern const void *streamsimCcInitBits(uint64_t base, uint64_t *bit0);
extern void streamsimCcInitReport(uint64_t addr, uint64_t size, const uint32_t *who, uint64_t count);

static void ic_begin(void) {
    memset(ic_len, 0, sizeof ic_len);
    memset(ic_words, 0, sizeof ic_words);
    ic_nreports = 0;
}

/* The cache entry holding [addr, addr + size), aligned as `flags` needs, or -1. */
static int ic_find(uint64_t addr, uint64_t size, uint32_t flags) {
    if (addr & ((flags >> 8) & 15))
        return -1; /* misaligned: libstreamsim faults it */
    for (int e = 0; e < SSK_CACHE; e++) {
        uint64_t d = addr - __ssk_cache[e].base;
        if (ic_len[e] && d < ic_len[e] && ic_len[e] - d >= size)
            return e;
    }
    return -1;
}

/* Entry `e` now holds the allocation at `base` of `len` bytes: an empty inline entry, and with initcheck
 * (`init`) the allocation's record. */
static void ic_take(int e, uint64_t base, uint64_t len, int init) {
    ic_len[e] = len;
    __ssk_cache[e].len = 0;
    ic_words[e] = init ? (uint64_t *)streamsimCcInitBits(base, &ic_bit0[e]) : NULL;
}

static void ic_unwritten(uint64_t base, uint64_t addr, uint64_t size) {
    for (int i = 0; i < ic_nreports; i++)
        if (ic_reports[i].base == base) {
            ic_reports[i].count++;
            return;
        }
    if (ic_nreports == IC_REPORTS)
        return;
    ic_reports[ic_nreports].base = base;
    ic_reports[ic_nreports].addr = addr;
    ic_reports[ic_nreports].size = size;
    ic_reports[ic_nreports].count = 1;
    current_who(ic_reports[ic_nreports].who);
    ic_nreports++;
}

/* The access [d, d + size) of entry `e`'s allocation, of kind `kind`. */
static void ic_access(int e, uint64_t d, uint64_t size, uint32_t kind) {
    uint64_t *w = ic_words[e];
    if (!w)
        return;
    uint64_t b0 = ic_bit0[e] + d;
    if (kind != SSK_KIND_WRITE)
        for (uint64_t b = b0; b < b0 + size; b++)
            if (!(__atomic_load_n(&w[b / 64], __ATOMIC_RELAXED) >> (b % 64) & 1)) {
                ic_unwritten(__ssk_cache[e].base, __ssk_cache[e].base + d, size);
                break;
            }
    if (kind != SSK_KIND_READ)
        for (uint64_t b = b0; b < b0 + size;) {
            uint64_t lo = b % 64, hi = b0 + size - (b - lo) < 64 ? b0 + size - (b - lo) : 64;
            uint64_t mask = hi - lo == 64 ? ~(uint64_t)0 : (((uint64_t)1 << (hi - lo)) - 1) << lo;
            __atomic_fetch_or(&w[b / 64], mask, __ATOMIC_RELAXED);
            b = b - lo + hi;
        }
}

/* At the launch's end (before libstreamsim lets its blocks go). */
static void ic_end(void) {
    for (int i = 0; i < ic_nreports; i++)
        streamsimCcInitReport(ic_reports[i].addr, ic_reports[i].size, ic_reports[i].who, ic_reports[i].count);
    ic_nreports = 0;
}
