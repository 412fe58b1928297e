/*
 * Emulated E810: the Host Memory Cache (HMC) of one function.
 *
 * QUERY_FPM_VAL reports the object sizes and maximum counts below;
 * COMMIT_FPM_VAL takes the driver's counts, lays the objects out in the
 * function's private memory (FPM) and writes the bases back. Segment
 * descriptors (SDs, 2 MiB of FPM each) are programmed by UPDATE_PE_SDS or
 * PFHMC_SDCMD, direct (2 MiB of host memory) or paged (a 4 KiB page of
 * 512 PD entries). PD entries are read from host memory and cached until
 * PFHMC_PDINV (or an SD update) invalidates them, as a device would.
 *
 * e810_hmc_translate() is the one way from (object type, index) to a host
 * address; every other file goes through it. A translation that fails is
 * counted, logged and latched in PFHMC_ERRORINFO/ERRORDATA.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "e810_core.h"

#define NO_SLOT 0xffff

/* What the device reports per object type (docs/hw-reference.md 3.2, 3.3). */
typedef struct E810FpmParam {
    uint32_t max;           /* maximum count */
    uint32_t size;          /* bytes per object */
    uint32_t block;         /* free lists: block size reported in the query */
    uint16_t query_off;     /* qword in the query buffer, NO_SLOT if none */
    uint16_t commit_off;    /* qword in the commit buffer */
} E810FpmParam;

#define P(t, m, sz, blk) [E810_HMC_##t] = { .max = (m), .size = (sz), \
    .block = (blk), .query_off = E810_FPM_QUERY_##t##_OFF, \
    .commit_off = E810_FPM_COMMIT_##t##_OFF }

/*
 * The maxima a function reports. Where a real E810 is known they are its
 * values (an E810 PF shows 4194304 MRs and 131072 AHs through irdma: MR,
 * FSIAV); QP, CQ and the per-QP objects allow 256K QPs, the top of the
 * upstream resource table (irdma_cfg_fpm_val() with limits_sel 7), each
 * at least what that sizing derives from the QP count: CQ = 2 QP, HTE =
 * roundup_pow2(QP + FSIMC) * HT multiplier, XF = 4 * XF block * QP, Q1 =
 * roundup_pow2(127 * 2 * QP + 512), TIMER = (QP / 512 + 1) * bucket,
 * RRF and OOISC = 32 QP, each free list = count / block. What a driver
 * actually gets is decided by the function's FPM space (hmc->max_sds,
 * E810_PE_SDS_DEFAULT by default): the driver shrinks its request until
 * the layout fits. PBLE room is large because upstream gives every spare
 * SD to PBLEs (256K PBLEs per SD) after its sizing loop.
 */
static const E810FpmParam fpm_params[E810_HMC_OBJ_MAX] = {
    P(QP, 262144, 512, 0),
    P(CQ, 524288, 64, 0),
    P(SRQ, 0, 0, 0),
    P(HTE, 2097152, 32, 0),
    P(ARP, 2048, 64, 0),
    [E810_HMC_APBVT] = { .max = 1, .size = E810_HMC_APBVT_OBJ_SIZE,
                         .query_off = NO_SLOT,
                         .commit_off = E810_FPM_COMMIT_APBVT_OFF },
    P(MR, 4194304, 64, 0),
    P(XF, 4194304, 64, 0),
    P(XFFL, 1048576, E810_HMC_FL_OBJ_SIZE, E810_PE_XF_BLOCK),
    P(Q1, 134217728, 32, 0),
    P(Q1FL, 2097152, E810_HMC_FL_OBJ_SIZE, E810_PE_Q1_BLOCK),
    P(TIMER, 524288, 64, 0),
    P(FSIMC, 1024, 64, 0),
    P(FSIAV, 131072, 64, 0),
    P(PBLE, 268435456, E810_HMC_PBLE_OBJ_SIZE, 0),
    P(RRF, 8388608, 32, 0),
    P(RRFFL, 131072, E810_HMC_FL_OBJ_SIZE, E810_PE_RRF_BLOCK),
    P(HDR, 262144, 128, 0),
    P(MD, 1024, 64, 0),
    P(OOISC, 8388608, 64, 0),
    P(OOISCFFL, 131072, E810_HMC_FL_OBJ_SIZE, E810_PE_OOISCF_BLOCK),
};

/* Model's PFHMC_ERRORINFO.ERROR_TYPE values (the real ones are unknown). */
enum {
    HMC_ERR_INDEX = 1,      /* index beyond the committed count */
    HMC_ERR_SD = 2,         /* SD beyond the function or not valid */
    HMC_ERR_PD = 3,         /* beyond the SD's backing, or PD not valid */
};

static unsigned log2u(uint32_t v)
{
    unsigned n = 0;

    while (v > 1) {
        v >>= 1;
        n++;
    }
    return n;
}

void e810_hmc_reset(E810Core *core)
{
    E810Hmc *hmc = &core->rdma.hmc;
    unsigned t;

    memset(hmc, 0, sizeof(*hmc));
    hmc->max_sds = core->hmc_sds;
    hmc->first_sd = core->hmc_first_sd;
    for (t = 0; t < E810_HMC_OBJ_MAX; t++) {
        hmc->obj[t].max = fpm_params[t].max;
        hmc->obj[t].size = fpm_params[t].size;
    }
}

/*
 * The committed object counts as "QP=n CQ=n MR=n FSIAV=n PBLE=n" (all zero
 * before COMMIT_FPM_VAL): what the driver sized, seen from the device, so
 * that a test can hold any driver's reported limits against it. Returns
 * what snprintf() returns.
 */
int e810_hmc_format_counts(E810Core *core, char *buf, size_t len)
{
    return snprintf(buf, len, "QP=%" PRIu32 " CQ=%" PRIu32 " MR=%" PRIu32
                    " FSIAV=%" PRIu32 " FSIMC=%" PRIu32 " PBLE=%" PRIu32,
                    e810_hmc_count(core, E810_HMC_QP),
                    e810_hmc_count(core, E810_HMC_CQ),
                    e810_hmc_count(core, E810_HMC_MR),
                    e810_hmc_count(core, E810_HMC_FSIAV),
                    e810_hmc_count(core, E810_HMC_FSIMC),
                    e810_hmc_count(core, E810_HMC_PBLE));
}

/* ---- translation ------------------------------------------------------- */

static bool fault(E810Core *core, unsigned type, unsigned err, uint64_t fpm,
                  const char *why)
{
    core->rdma.hmc.faults++;
    *e810_regfile_ptr(&core->regs, E810_PFHMC_ERRORINFO) =
        E810_PFHMC_ERRORINFO_DETECTED |
        FIELD_PREP(E810_PFHMC_ERRORINFO_PMF_INDEX, core->pf_id) |
        FIELD_PREP(E810_PFHMC_ERRORINFO_ERROR_TYPE, err) |
        FIELD_PREP(E810_PFHMC_ERRORINFO_OBJ_TYPE, type);
    *e810_regfile_ptr(&core->regs, E810_PFHMC_ERRORDATA) = (uint32_t)fpm;
    e810_core_log(core, E810_LOG_GUEST_ERROR, "HMC: object type %u at FPM "
                  "0x%llx: %s", type, (unsigned long long)fpm, why);
    return false;
}

static void pd_cache_drop_sd(E810Hmc *hmc, unsigned sd)
{
    unsigned i;

    for (i = 0; i < E810_PE_PD_CACHE; i++) {
        if (hmc->pd_cache[i].sd == sd) {
            hmc->pd_cache[i].valid = false;
        }
    }
}

/* Backing page of PD @pd of paged SD @sd_idx; reads the PD on a miss. */
static bool pd_lookup(E810Core *core, unsigned sd_idx, unsigned pd,
                      uint64_t *page)
{
    E810Hmc *hmc = &core->rdma.hmc;
    E810PdCacheEntry *e = &hmc->pd_cache[(sd_idx * E810_HMC_PD_PER_SD + pd) %
                                         E810_PE_PD_CACHE];
    uint64_t pde;

    if (e->valid && e->sd == sd_idx && e->pd == pd) {
        *page = e->pa;
        return true;
    }
    if (!e810_core_dma_read(core, hmc->sd[sd_idx].pa + pd * sizeof(pde),
                            &pde, sizeof(pde))) {
        return false;
    }
    pde = le64toh(pde);
    if (!(pde & E810_HMC_PDE_VALID)) {
        return false;
    }
    e->valid = true;
    e->sd = sd_idx;
    e->pd = pd;
    e->pa = pde & E810_HMC_PDE_ADDR;
    *page = e->pa;
    return true;
}

bool e810_hmc_translate(E810Core *core, enum e810_hmc_obj_type type,
                        uint32_t idx, uint32_t off, uint64_t *pa,
                        uint32_t *contig)
{
    E810Hmc *hmc = &core->rdma.hmc;
    const E810HmcObj *o;
    uint64_t fpm, in_sd, page;
    uint32_t run, left;
    unsigned sd_idx;
    E810Sd *sd;

    if (type >= E810_HMC_OBJ_MAX || !hmc->committed) {
        return fault(core, type, HMC_ERR_INDEX, 0, "no committed layout");
    }
    o = &hmc->obj[type];
    if (idx >= o->cnt || off >= o->size) {
        return fault(core, type, HMC_ERR_INDEX, o->base,
                     "index beyond the committed count");
    }
    fpm = o->base + (uint64_t)idx * o->size + off;
    sd_idx = fpm >> E810_HMC_SD_SHIFT;
    if (!e810_hmc_sd_ours(hmc, sd_idx) || !hmc->sd[sd_idx].valid) {
        return fault(core, type, HMC_ERR_SD, fpm, "segment not valid");
    }
    sd = &hmc->sd[sd_idx];
    in_sd = fpm & (E810_HMC_SD_SIZE - 1);
    if ((in_sd >> E810_HMC_PD_SHIFT) >= sd->bp_count) {
        return fault(core, type, HMC_ERR_PD, fpm,
                     "beyond the segment's backing pages");
    }
    if (sd->direct) {
        *pa = sd->pa + in_sd;
        run = ((uint32_t)sd->bp_count << E810_HMC_PD_SHIFT) - in_sd;
    } else {
        if (!pd_lookup(core, sd_idx, in_sd >> E810_HMC_PD_SHIFT, &page)) {
            return fault(core, type, HMC_ERR_PD, fpm, "page not valid");
        }
        *pa = page + (in_sd & (E810_HMC_PD_SIZE - 1));
        run = E810_HMC_PD_SIZE - (in_sd & (E810_HMC_PD_SIZE - 1));
    }
    left = o->size - off;
    if (contig) {
        *contig = run < left ? run : left;
    }
    return true;
}

/* Reads into @rd, or writes from @wr, @len object bytes page by page. */
static bool hmc_access(E810Core *core, enum e810_hmc_obj_type type,
                       uint32_t idx, uint32_t off, uint8_t *rd,
                       const uint8_t *wr, uint32_t len)
{
    uint32_t run, done = 0;
    uint64_t pa;

    while (done < len) {
        if (!e810_hmc_translate(core, type, idx, off + done, &pa, &run)) {
            return false;
        }
        run = run < len - done ? run : len - done;
        if (wr ? !e810_core_dma_write(core, pa, wr + done, run)
               : !e810_core_dma_read(core, pa, rd + done, run)) {
            return false;
        }
        done += run;
    }
    return true;
}

bool e810_hmc_read(E810Core *core, enum e810_hmc_obj_type type, uint32_t idx,
                   uint32_t off, void *buf, uint32_t len)
{
    return hmc_access(core, type, idx, off, buf, NULL, len);
}

bool e810_hmc_write(E810Core *core, enum e810_hmc_obj_type type, uint32_t idx,
                    uint32_t off, const void *buf, uint32_t len)
{
    return hmc_access(core, type, idx, off, NULL, buf, len);
}

bool e810_hmc_check_backed(E810Core *core, enum e810_hmc_obj_type type,
                           uint32_t idx, E810CqpResult *res)
{
    uint64_t pa;

    if (e810_hmc_translate(core, type, idx, 0, &pa, NULL)) {
        return true;
    }
    e810_cqp_fail(core, res, E810_CQP_MAJ_OBJCACHE_ERROR, E810_CQP_MIN_HMC,
                  "object %u of type %u has no backing memory", idx, type);
    return false;
}

void e810_pble_cache_drop(E810Core *core)
{
    E810Hmc *hmc = &core->rdma.hmc;
    unsigned i;

    for (i = 0; i < E810_PBLE_CACHE_BLOCKS; i++) {
        hmc->pble_cache[i].n = 0;
    }
}

/*
 * A cache miss for PBLE @idx: translates @idx exactly as an uncached read
 * would (the same faults), then reads up to E810_PBLE_CACHE_RUN entries
 * from there that lie in the same backing page and below the committed
 * count, so nothing is read that a plain read of a later entry would
 * refuse. A buffer's leaf list is walked in order, so one read serves the
 * next 31 pages. Apart from pble_read() so that a hit saves no registers.
 */
static __attribute__((noinline)) bool pble_fill(E810Core *core, uint32_t idx,
                                                uint64_t *val)
{
    E810Hmc *hmc = &core->rdma.hmc;
    E810PbleBlock *b;
    uint64_t pa, n, left;

    if (!e810_hmc_translate(core, E810_HMC_PBLE, idx, 0, &pa, NULL)) {
        return false;
    }
    left = (E810_HMC_PD_SIZE - (pa & (E810_HMC_PD_SIZE - 1))) / 8;
    n = hmc->obj[E810_HMC_PBLE].cnt - idx;
    n = n < left ? n : left;
    n = n < E810_PBLE_CACHE_RUN ? n : E810_PBLE_CACHE_RUN;
    b = &hmc->pble_cache[hmc->pble_next++ % E810_PBLE_CACHE_BLOCKS];
    b->n = 0;
    /* One page of guest memory: readable as a whole or not at all. */
    if (!e810_core_dma_read(core, pa, b->ent, n * 8)) {
        return false;
    }
    b->idx = idx;
    b->n = n;
    *val = le64toh(b->ent[0]);
    return true;
}

/* PBLE @idx through the cache (E810Hmc.pble_cache). */
static bool pble_read(E810Core *core, uint64_t idx, uint64_t *val)
{
    const E810PbleBlock *b = core->rdma.hmc.pble_cache;
    unsigned i;

    if (idx > UINT32_MAX) {
        return false;
    }
    /* A message walks up to 4 runs at once (root and leaf of two MRs). */
    for (i = 0; i < E810_PBLE_CACHE_BLOCKS; i++, b++) {
        /* Unsigned: an index below the block wraps and is out too. */
        if (idx - b->idx < b->n) {
            *val = le64toh(b->ent[idx - b->idx]);
            return true;
        }
    }
    return pble_fill(core, (uint32_t)idx, val);
}

bool e810_pble_resolve(E810Core *core, uint32_t first, uint8_t lpbl,
                       unsigned shift, uint64_t off, uint64_t *pa)
{
    uint64_t page = off >> shift, pble;

    if (lpbl == E810_LPBL_LEVEL2) {
        /* The root entry holds the PBLE index of a leaf list of 512. */
        if (!pble_read(core, (uint64_t)first + page / E810_PBLE_LEAF_ENTRIES,
                       &pble)) {
            return false;
        }
        first = (uint32_t)pble;
        page %= E810_PBLE_LEAF_ENTRIES;
    } else if (lpbl != E810_LPBL_LEVEL1) {
        return false;
    }
    if (!pble_read(core, (uint64_t)first + page, &pble)) {
        return false;
    }
    *pa = (pble & ~((1ull << shift) - 1)) + (off & ((1ull << shift) - 1));
    return true;
}

/* ---- segment descriptors ----------------------------------------------- */

/* Checks one SD command/data pair; 0 or the minor error code. */
static uint16_t sd_check(const E810Hmc *hmc, uint32_t cmd, uint64_t data)
{
    unsigned bp = FIELD_GET(E810_HMC_SDDATA_BPCOUNT, data);

    if (!(cmd & E810_HMC_SDCMD_WR)) {
        return E810_CQP_MIN_BAD_PARAM;      /* reads only via PFHMC_SDCMD */
    }
    if (!e810_hmc_sd_ours(hmc, FIELD_GET(E810_HMC_SDCMD_IDX, cmd))) {
        return E810_CQP_MIN_BAD_INDEX;
    }
    if ((data & E810_HMC_SDDATA_VALID) &&
        (bp == 0 || bp > E810_HMC_MAX_BP_COUNT)) {
        return E810_CQP_MIN_BAD_PARAM;
    }
    return 0;
}

static void sd_apply(E810Core *core, uint32_t cmd, uint64_t data)
{
    E810Hmc *hmc = &core->rdma.hmc;
    unsigned idx = FIELD_GET(E810_HMC_SDCMD_IDX, cmd);
    E810Sd *sd = &hmc->sd[idx];

    sd->valid = data & E810_HMC_SDDATA_VALID;
    sd->direct = FIELD_GET(E810_HMC_SDDATA_TYPE, data) ==
                 E810_HMC_SD_TYPE_DIRECT;
    sd->bp_count = FIELD_GET(E810_HMC_SDDATA_BPCOUNT, data);
    sd->pa = data & E810_HMC_SDDATA_ADDR;
    pd_cache_drop_sd(hmc, idx);
    e810_pble_cache_drop(core);
}

static uint64_t sd_data(const E810Sd *sd)
{
    return (sd->valid ? E810_HMC_SDDATA_VALID : 0) |
           FIELD_PREP(E810_HMC_SDDATA_TYPE, sd->direct) |
           FIELD_PREP(E810_HMC_SDDATA_BPCOUNT, sd->bp_count) | sd->pa;
}

/* PFHMC_SDCMD: write from SDDATAHIGH:LOW, or read back into them. */
void e810_hmc_sdcmd_write(E810Core *core, uint32_t val)
{
    uint32_t *lo = e810_regfile_ptr(&core->regs, E810_PFHMC_SDDATALOW);
    uint32_t *hi = e810_regfile_ptr(&core->regs, E810_PFHMC_SDDATAHIGH);
    unsigned idx = FIELD_GET(E810_HMC_SDCMD_IDX, val);
    uint64_t data = ((uint64_t)*hi << 32) | *lo;

    if (!e810_hmc_sd_ours(&core->rdma.hmc, idx)) {
        /* Beyond the function's SDs: dropped, as the hardware does. */
        e810_core_log(core, E810_LOG_GUEST_ERROR, "PFHMC_SDCMD: SD %u beyond "
                      "the %u of this function", idx, core->rdma.hmc.max_sds);
        return;
    }
    if (!(val & E810_HMC_SDCMD_WR)) {
        data = sd_data(&core->rdma.hmc.sd[idx]);
        *lo = (uint32_t)data;
        *hi = data >> 32;
        return;
    }
    if (sd_check(&core->rdma.hmc, val, data)) {
        e810_core_log(core, E810_LOG_GUEST_ERROR, "PFHMC_SDCMD: bad SD data "
                      "0x%llx for SD %u", (unsigned long long)data, idx);
        return;
    }
    sd_apply(core, val, data);
}

void e810_hmc_pdinv_write(E810Core *core, uint32_t val)
{
    E810Hmc *hmc = &core->rdma.hmc;
    unsigned sd = FIELD_GET(E810_PFHMC_PDINV_PMSDIDX, val);
    unsigned pd = FIELD_GET(E810_PFHMC_PDINV_PMPDIDX, val);
    E810PdCacheEntry *e;

    if (!e810_hmc_sd_ours(hmc, sd)) {
        e810_core_log(core, E810_LOG_GUEST_ERROR, "PFHMC_PDINV: SD %u not "
                      "one of the %u from %u of this function", sd,
                      hmc->max_sds, hmc->first_sd);
        return;
    }
    e = &hmc->pd_cache[(sd * E810_HMC_PD_PER_SD + pd) % E810_PE_PD_CACHE];
    if (e->sd == sd && e->pd == pd) {
        e->valid = false;
    }
    e810_pble_cache_drop(core);
}

/* ---- CQP ops ----------------------------------------------------------- */

static bool fn_ok(E810Core *core, unsigned fn, E810CqpResult *res)
{
    if (fn != core->pf_id) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_FN, "HMC function %u is not "
                     "this PF (%u)", fn, core->pf_id);
        return false;
    }
    return true;
}

/* Is @t an object of this generation's HMC? */
static bool gen_obj(const E810Core *core, unsigned t)
{
    return core->gen->fpm_objs & E810_HMC_OBJ_BIT(t);
}

/* The maximum reported for @t: the table's, within the generation's fields. */
static uint32_t gen_max(const E810Core *core, unsigned t)
{
    uint32_t max = gen_obj(core, t) ? fpm_params[t].max : 0;
    uint64_t cqcnt = core->gen->fpm_commit_cqcnt;

    cqcnt >>= __builtin_ctzll(cqcnt);
    if (t == E810_HMC_CQ && max > cqcnt) {
        max = cqcnt;
    }
    return max;
}

void e810_op_query_fpm_val(E810Core *core, const E810CqpWqe *w,
                           E810CqpResult *res)
{
    uint64_t pa = e810_wqe(w, E810_CQPSQ_FPM_BUF_OFF);
    __le64 buf[E810_FPM_BUF_SIZE / 8] = { 0 };
    unsigned t;

    if (!fn_ok(core, FIELD_GET(E810_CQPSQ_FPM_HMCFNID,
                               e810_wqe(w, E810_CQPSQ_FPM_FN_OFF)), res)) {
        return;
    }
    buf[E810_QW(E810_FPM_QUERY_SD_OFF)] =
        htole64(FIELD_PREP(E810_FPM_FIRST_PE_SD_INDEX,
                           core->rdma.hmc.first_sd) |
                FIELD_PREP(E810_FPM_MAX_PE_SDS, core->rdma.hmc.max_sds));
    for (t = 0; t < E810_HMC_OBJ_MAX; t++) {
        const E810FpmParam *p = &fpm_params[t];
        uint32_t max = gen_max(core, t);
        uint64_t v;

        if (p->query_off == NO_SLOT || !max ||
            p->query_off >= core->gen->fpm_query_len) {
            continue;
        }
        v = FIELD_PREP(E810_FPM_MAX_CNT, max);
        if (p->block) {
            v |= FIELD_PREP(E810_FPM_BLOCK_SIZE, p->block);
        } else if (t != E810_HMC_PBLE) {
            v |= FIELD_PREP(E810_FPM_OBJ_SIZE_LOG2, log2u(p->size));
        }
        buf[E810_QW(p->query_off)] = htole64(v);
    }
    buf[E810_QW(E810_FPM_QUERY_MISC_OFF)] =
        htole64(FIELD_PREP(E810_FPM_MAX_CEQS, E810_PE_MAX_CEQS) |
                FIELD_PREP(E810_FPM_HTMULTIPLIER, E810_PE_HT_MULTIPLIER) |
                FIELD_PREP(E810_FPM_TIMERBUCKET, E810_PE_TIMER_BUCKET));
    if ((pa & 3) ||
        !e810_core_dma_write(core, pa, buf, core->gen->fpm_query_len)) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_ADDR, "query buffer 0x%llx",
                     (unsigned long long)pa);
    }
}

/*
 * Lays the objects out in type order at 512-byte granular bases; PBLEs go
 * last, on an SD boundary of their own (the driver grows its PBLE pool one
 * SD at a time). Objects with no count keep base 0, so the driver's search
 * for the object with the highest base finds the true end. Returns the
 * number of SDs spanned.
 */
static uint64_t layout(E810Hmc *hmc)
{
    uint64_t fpm = (uint64_t)hmc->first_sd << E810_HMC_SD_SHIFT;
    unsigned t;

    for (t = 0; t < E810_HMC_OBJ_MAX; t++) {
        E810HmcObj *o = &hmc->obj[t];

        if (t == E810_HMC_PBLE || !o->cnt) {
            o->base = 0;
            continue;
        }
        o->base = fpm;
        fpm += ((uint64_t)o->cnt * o->size + E810_FPM_BASE_UNIT - 1) &
               ~(uint64_t)(E810_FPM_BASE_UNIT - 1);
    }
    if (hmc->obj[E810_HMC_PBLE].cnt) {
        E810HmcObj *o = &hmc->obj[E810_HMC_PBLE];
        uint64_t room = (uint64_t)(hmc->first_sd + hmc->max_sds) <<
                        E810_HMC_SD_SHIFT;
        uint64_t packed = fpm + (((uint64_t)o->cnt * o->size +
                                  E810_FPM_BASE_UNIT - 1) &
                                 ~(uint64_t)(E810_FPM_BASE_UNIT - 1));

        o->base = (fpm + E810_HMC_SD_SIZE - 1) & ~(uint64_t)(E810_HMC_SD_SIZE -
                                                             1);
        /*
         * The driver sized the function by packing everything (upstream
         * irdma_est_sd()); the SD of their own the PBLEs get here costs up
         * to one SD more. When only that does not fit, the function holds
         * fewer PBLEs: the count written back says so, and the driver
         * takes the counts from it (irdma_sc_parse_fpm_commit_buf()).
         */
        if (packed <= room && o->base < room &&
            o->base + (uint64_t)o->cnt * o->size > room) {
            o->cnt = (room - o->base) / o->size;
        }
        fpm = o->base + (uint64_t)o->cnt * o->size;
    }
    return (fpm + E810_HMC_SD_SIZE - 1) >> E810_HMC_SD_SHIFT;
}

static uint32_t requested(const uint64_t *buf, unsigned t)
{
    if (t == E810_HMC_APBVT) {
        return 1;           /* the driver always uses one 8 KiB table */
    }
    if (t == E810_HMC_SRQ) {
        return 0;           /* reserved on GEN_2 */
    }
    return FIELD_GET(E810_FPM_COMMIT_CNT,
                     buf[E810_QW(fpm_params[t].commit_off)]);
}

void e810_op_commit_fpm_val(E810Core *core, const E810CqpWqe *w,
                            E810CqpResult *res)
{
    E810Hmc *hmc = &core->rdma.hmc;
    uint64_t pa = e810_wqe(w, E810_CQPSQ_FPM_BUF_OFF);
    uint32_t len = FIELD_GET(E810_CQPSQ_BUFSIZE, e810_wqe_hdr(w));
    __le64 raw[E810_FPM_BUF_SIZE / 8];
    uint64_t buf[E810_FPM_BUF_SIZE / 8];
    uint64_t sds;
    unsigned t;

    if (!fn_ok(core, FIELD_GET(E810_CQPSQ_FPM_HMCFNID,
                               e810_wqe(w, E810_CQPSQ_FPM_FN_OFF)), res)) {
        return;
    }
    if (len < E810_FPM_BUF_SIZE) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_SIZE, "commit buffer of %u "
                     "bytes", len);
        return;
    }
    if (e810_rdma_objects_exist(core)) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_STATE, "queues or QPs still "
                     "exist");
        return;
    }
    if ((pa & 3) || !e810_core_dma_read(core, pa, raw, sizeof(raw))) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_ADDR, "commit buffer 0x%llx",
                     (unsigned long long)pa);
        return;
    }
    for (t = 0; t < E810_FPM_BUF_SIZE / 8; t++) {
        buf[t] = le64toh(raw[t]);
    }
    for (t = 0; t < E810_HMC_OBJ_MAX; t++) {
        uint32_t cnt = requested(buf, t);

        if (cnt > gen_max(core, t)) {
            e810_cqp_err(core, res, E810_CQP_MIN_BAD_PARAM, "%u objects of "
                         "type %u, at most %u (%s)", cnt, t, gen_max(core, t),
                         core->gen->name);
            return;
        }
    }
    e810_hmc_reset(core);
    for (t = 0; t < E810_HMC_OBJ_MAX; t++) {
        hmc->obj[t].cnt = requested(buf, t);
    }
    sds = layout(hmc);
    if (sds > hmc->first_sd + hmc->max_sds) {
        uint32_t max_sds = hmc->max_sds;

        e810_hmc_reset(core);
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_SIZE, "layout needs %llu "
                     "SDs, the function has %u", (unsigned long long)sds,
                     max_sds);
        return;
    }
    hmc->sd_cnt = sds;
    hmc->committed = true;
    if (!e810_rdma_tables_alloc(core)) {
        e810_hmc_reset(core);
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_PARAM, "out of memory");
        return;
    }
    memset(buf, 0, sizeof(buf));
    for (t = 0; t < E810_HMC_OBJ_MAX; t++) {
        const E810HmcObj *o = &hmc->obj[t];

        buf[E810_QW(fpm_params[t].commit_off)] =
            FIELD_PREP(E810_FPM_COMMIT_CNT, o->cnt) |
            FIELD_PREP(E810_FPM_COMMIT_BASE, o->base / E810_FPM_BASE_UNIT);
    }
    for (t = 0; t < E810_FPM_BUF_SIZE / 8; t++) {
        raw[t] = htole64(buf[t]);
    }
    if (!e810_core_dma_write(core, pa, raw, sizeof(raw))) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_ADDR, "commit buffer 0x%llx",
                     (unsigned long long)pa);
    }
}

void e810_op_update_pe_sds(E810Core *core, const E810CqpWqe *w,
                           E810CqpResult *res)
{
    uint64_t bufq = e810_wqe(w, E810_CQPSQ_UPESD_BUF_OFF);
    unsigned nbuf = FIELD_GET(E810_CQPSQ_UPESD_ENTRY_COUNT, e810_wqe_hdr(w));
    uint64_t cmd[E810_PE_MAX_SDS_PER_WQE], data[E810_PE_MAX_SDS_PER_WQE];
    __le64 ext[2 * 15];
    unsigned n = 0, i;

    if (!fn_ok(core, FIELD_GET(E810_CQPSQ_UPESD_HMCFNID, bufq), res)) {
        return;
    }
    cmd[n] = e810_wqe(w, E810_CQPSQ_UPESD_E0_CMD_OFF);
    data[n++] = e810_wqe(w, E810_CQPSQ_UPESD_E0_DATA_OFF);
    if (e810_wqe(w, E810_CQPSQ_UPESD_E1_CMD_OFF) &
        E810_CQPSQ_UPESD_ENTRY_VALID) {
        cmd[n] = e810_wqe(w, E810_CQPSQ_UPESD_E1_CMD_OFF);
        data[n++] = e810_wqe(w, E810_CQPSQ_UPESD_E1_DATA_OFF);
    }
    if (e810_wqe(w, E810_CQPSQ_UPESD_E2_CMD_OFF) &
        E810_CQPSQ_UPESD_ENTRY_VALID) {
        cmd[n] = e810_wqe(w, E810_CQPSQ_UPESD_E2_CMD_OFF);
        data[n++] = e810_wqe(w, E810_CQPSQ_UPESD_E2_DATA_OFF);
    }
    if (nbuf) {
        uint64_t pa = bufq & E810_CQPSQ_UPESD_BUF_PA;

        if (!e810_core_dma_read(core, pa, ext, nbuf * 16)) {
            e810_cqp_err(core, res, E810_CQP_MIN_BAD_ADDR, "SD buffer 0x%llx",
                         (unsigned long long)pa);
            return;
        }
        for (i = 0; i < nbuf; i++) {
            cmd[n] = le64toh(ext[2 * i]);
            data[n++] = le64toh(ext[2 * i + 1]);
        }
    }
    /* All or nothing: check every entry before applying any. */
    for (i = 0; i < n; i++) {
        uint16_t minor = sd_check(&core->rdma.hmc,
                                  FIELD_GET(E810_CQPSQ_UPESD_SDCMD, cmd[i]),
                                  data[i]);

        if (minor) {
            e810_cqp_err(core, res, minor, "entry %u: SD command 0x%08x data "
                         "0x%llx", i, (uint32_t)cmd[i],
                         (unsigned long long)data[i]);
            return;
        }
    }
    for (i = 0; i < n; i++) {
        sd_apply(core, FIELD_GET(E810_CQPSQ_UPESD_SDCMD, cmd[i]), data[i]);
    }
}

void e810_op_shmc_pages_allocated(E810Core *core, const E810CqpWqe *w,
                                  E810CqpResult *res)
{
    if (fn_ok(core, FIELD_GET(E810_CQPSQ_SHMC_HMC_FN_ID,
                              e810_wqe(w, E810_CQPSQ_SHMC_FN_OFF)), res)) {
        core->rdma.hmc.pages_allocated = true;
    }
}
