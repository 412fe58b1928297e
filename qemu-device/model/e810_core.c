/*
 * Emulated E810 PF: core lifetime, BAR0 decode and deferred work.
 *
 * BAR0 holds three regions (docs/hw-reference.md 1.3):
 *   [0, DB_ADDR_OFFSET)                registers (32-bit accesses only, but
 *                                      8-byte reads of the 40-bit statistics
 *                                      counters: e810_stats.c)
 *   [DB_ADDR_OFFSET, +4 KiB)           the user doorbell page
 *   [PUSH_OFFSET, +(MAX_PAGES+1) pages) push WQE and push doorbell pages
 * Anything else inside the BAR is unimplemented and reads as zero.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "e810_card.h"
#include "e810_core.h"
#include "e810_iw_conn.h"
#include "e810_xport.h"

#define PUSH_END (E810_PUSH_OFFSET + (E810_PUSH_MAX_PAGES + 1) * 0x1000u)

static void e810_core_timer_arm(E810Core *core);

void e810_core_log(E810Core *core, E810LogLevel level, const char *fmt, ...)
{
    char msg[256];
    va_list ap;

    if (!core->ops->log ||
        (core->ops->log_enabled &&
         !core->ops->log_enabled(core->opaque, level))) {
        return;
    }
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    core->ops->log(core->opaque, level, msg);
}

bool e810_core_dma_read(E810Core *core, uint64_t addr, void *buf, size_t len)
{
    if (core->ops->dma_read(core->opaque, addr, buf, len) == 0) {
        return true;
    }
    core->stats.dma_errors++;
    e810_core_log(core, E810_LOG_GUEST_ERROR, "DMA read of %zu bytes at 0x%llx "
                  "failed", len, (unsigned long long)addr);
    return false;
}

/*
 * The guest fills a WQE and writes its header (valid bit) last, after a
 * write barrier (upstream irdma_uk_rdma_write() and the other writers:
 * dma_wmb(), then the header), while the device may be fetching further
 * down the same ring (it fetches while the valid bit matches, not up to a
 * doorbell index). One copy of the whole entry can read the body before
 * the guest wrote it and the header after: a WQE that looks valid with
 * the previous pass's addresses. So the header word is read first and the
 * rest only after an acquire fence.
 */
bool e810_core_dma_read_entry(E810Core *core, uint64_t addr, void *buf,
                              size_t len, size_t valid_off)
{
    uint8_t *p = buf;
    size_t tail = valid_off + 8;

    assert(tail <= len);
    if (!e810_core_dma_read(core, addr + valid_off, p + valid_off, 8)) {
        return false;
    }
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return (!valid_off || e810_core_dma_read(core, addr, p, valid_off)) &&
           (tail == len ||
            e810_core_dma_read(core, addr + tail, p + tail, len - tail));
}

bool e810_core_dma_write(E810Core *core, uint64_t addr, const void *buf,
                         size_t len)
{
    if (core->ops->dma_write(core->opaque, addr, buf, len) == 0) {
        return true;
    }
    core->stats.dma_errors++;
    e810_core_log(core, E810_LOG_GUEST_ERROR, "DMA write of %zu bytes at "
                  "0x%llx failed", len, (unsigned long long)addr);
    return false;
}

/* All of [addr, addr + len) mapped, or NULL (nothing left mapped). */
static void *map_whole(E810Core *core, uint64_t addr, size_t len, bool write)
{
    size_t got = len;
    void *p;

    if (!core->ops->dma_map || !len) {
        return NULL;
    }
    p = core->ops->dma_map(core->opaque, addr, &got, write);
    if (p && got < len) {
        /* Part of it only (a region boundary): the plain way instead. */
        core->ops->dma_unmap(core->opaque, p, got, write, 0);
        p = NULL;
    }
    return p;
}

bool e810_core_dma_map(E810Core *core, uint64_t addr, size_t len,
                       E810DmaMap *map)
{
    void *p = map_whole(core, addr, len, false);

    map->ptr = p;
    map->len = p ? len : 0;     /* what dma_unmap() is given back */
    return p;
}

bool e810_core_dma_payload(E810Core *core, uint64_t addr, void *buf,
                           size_t len, bool write)
{
    void *p = len >= E810_DMA_MAP_PAYLOAD_MIN ?
              map_whole(core, addr, len, write) : NULL;

    if (!p) {
        return write ? e810_core_dma_write(core, addr, buf, len) :
                       e810_core_dma_read(core, addr, buf, len);
    }
    if (write) {
        memcpy(p, buf, len);
    } else {
        memcpy(buf, p, len);
    }
    core->ops->dma_unmap(core->opaque, p, len, write, write ? len : 0);
    return true;
}

void e810_core_dma_unmap(E810Core *core, E810DmaMap *map)
{
    if (map->ptr) {
        core->ops->dma_unmap(core->opaque, (void *)map->ptr, map->len, false,
                             0);
        map->ptr = NULL;
        map->len = 0;
    }
}

void e810_core_request_work(E810Core *core, uint32_t work)
{
    bool idle = !core->work_pending;

    core->work_pending |= work;
    if (idle) {
        core->ops->schedule_work(core->opaque);
    }
}

/*
 * For registers the drivers poll with a short budget (see
 * e810_cqp_ctx_written()): one bounded run of the work at once, in the
 * register write, instead of waiting for the embedder's bottom half. Work
 * recorded earlier goes with it in its usual order. Deferred as usual
 * from inside a run (a DMA reaching our own MMIO) or behind a pending
 * reset, which must go first.
 */
void e810_core_work_now(E810Core *core, uint32_t work)
{
    if (core->in_work ||
        (core->work_pending & (E810_WORK_PF_RESET | E810_WORK_CORE_RESET))) {
        e810_core_request_work(core, work);
        return;
    }
    core->work_pending |= work;
    e810_core_run_work(core);
}

static void set_identity(E810Core *core)
{
    *e810_regfile_ptr(&core->regs, E810_PF_FUNC_RID) =
        FIELD_PREP(E810_PF_FUNC_RID_FUNC_NUM, core->pf_id);
}

/* The irdma generations this core runs as (include/hw/e810_gen.h). */
static const struct e810_hw_gen hw_gen1 = E810_HW_GEN1;
static const struct e810_hw_gen hw_gen2 = E810_HW_GEN2;

int e810_core_init(E810Core *core, const E810CoreOps *ops, void *opaque,
                   uint8_t pf_id)
{
    int ret;

    memset(core, 0, sizeof(*core));
    if (pf_id > FIELD_GET(E810_PF_FUNC_RID_FUNC_NUM, 0xffffffffu)) {
        return -EINVAL;
    }
    core->ops = ops;
    core->opaque = opaque;
    core->pf_id = pf_id;
    core->card[pf_id] = core;
    core->grst_deadline = core->xport_deadline = UINT64_MAX;
    if (ops->crc32) {
        e810_crc32_set_impl(ops->crc32);
    }
    core->hmc_sds = E810_PE_SDS_DEFAULT;
    core->gen = &hw_gen2;
    ret = e810_regfile_init(&core->regs);
    if (ret) {
        return ret;
    }
    core->msix_vectors = E810_MSIX_VECTORS;
    e810_intr_init(&core->intr, core->msix_vectors);
    if (e810_xport_init(core)) {
        e810_regfile_fini(&core->regs);
        return -ENOMEM;
    }
    /*
     * Single VLAN mode only: double VLAN mode needs the switch recipes
     * (0x0290..0x0293), which the model does not implement, so the
     * package is reported without DVM support and ice stays in SVM
     * (ice_set_vlan_mode(): "QinQ functionality cannot be enabled").
     */
    core->ddp.svm_only = true;
    e810_core_reset(core);
    return 0;
}

void e810_core_fini(E810Core *core)
{
    e810_core_leave(core);
    e810_xport_fini(core);
    e810_iw_fini(core);
    e810_rdma_fini(core);
    e810_regfile_fini(&core->regs);
}

int e810_core_set_gen(E810Core *core, unsigned gen, uint32_t first_sd)
{
    const struct e810_hw_gen *g;

    switch (gen) {
    case E810_GEN_1:
        g = &hw_gen1;
        break;
    case E810_GEN_2:
        g = &hw_gen2;
        break;
    default:
        return -EINVAL;
    }
    if (first_sd >= E810_PE_SDS_LIMIT ||
        (first_sd && !g->sds_shared_with_lan)) {
        return -EINVAL;
    }
    core->gen = g;
    core->hmc_first_sd = first_sd;
    return 0;
}

int e810_core_set_hmc_sds(E810Core *core, uint32_t sds)
{
    if (sds < 1 || sds > E810_PE_SDS_LIMIT) {
        return -EINVAL;
    }
    core->hmc_sds = sds;
    return 0;
}

int e810_core_set_msix_vectors(E810Core *core, uint32_t n)
{
    if (n < E810_MSIX_VECTORS_MIN || n > E810_MAX_VECTORS) {
        return -EINVAL;
    }
    core->msix_vectors = n;
    core->intr.nvectors = n;
    return 0;
}

void e810_core_reset(E810Core *core)
{
    e810_regfile_reset(&core->regs, E810_RST_POR);
    set_identity(core);
    e810_intr_reset(&core->intr);
    e810_aq_reset(core);
    e810_aq_fw_reset(core, E810_RST_POR);
    e810_lan_reset(core);
    e810_stats_reset(core, E810_RST_POR);
    e810_xport_reset(core);
    e810_iw_reset(core);
    e810_rdma_reset(core);
    core->work_pending = 0;
    core->grst_type = 0;
    core->grst_deadline = UINT64_MAX;
    e810_core_timer_arm(core);
}

E810_DEFINE_CARD(e810_core, E810Core, E810_CARD_PFS)

void e810_core_set_mac(E810Core *core, const uint8_t mac[6])
{
    memcpy(core->mac, mac, sizeof(core->mac));
}

void e810_core_set_link(E810Core *core, bool up)
{
    bool was_up = e810_port_link_up(core);

    core->link_up = up;
    if (e810_port_link_up(core) != was_up) {
        e810_aq_link_changed(core);
    }
}

/*
 * Latches "other interrupt" causes in PFINT_OICR (read to clear) and
 * raises the OICR cause (PFINT_OICR_CTL's vector) if PFINT_OICR_ENA
 * enables any of them.
 */
static void oicr_raise(E810Core *core, uint32_t bits)
{
    *e810_regfile_ptr(&core->regs, E810_PFINT_OICR) |= bits;
    if (*e810_regfile_ptr(&core->regs, E810_PFINT_OICR_ENA) & bits) {
        e810_intr_cause(core, E810_PFINT_OICR_CTL);
    }
}

void e810_core_inject_pe_criterr(E810Core *core)
{
    *e810_regfile_ptr(&core->regs, E810_GLPE_CRITERR) =
        E810_PE_CRITERR_INJECTED;
    oicr_raise(core, E810_PFINT_OICR_PE_CRITERR);
}

void e810_core_inject_ud_send_error(E810Core *core, uint32_t qp_id)
{
    core->inject_ud_send_err = qp_id;
}

int e810_core_set_roce_drop_ppm(E810Core *core, uint32_t ppm)
{
    return e810_xport_set_drop_ppm(core, ppm);
}

uint32_t e810_core_roce_drop_ppm(E810Core *core)
{
    return core->xport->drop_ppm;
}

int e810_core_set_iwarp_drop_ppm(E810Core *core, uint32_t ppm)
{
    return e810_xport_set_iw_drop_ppm(core, ppm);
}

uint32_t e810_core_iwarp_drop_ppm(E810Core *core)
{
    return core->xport->iw_drop_ppm;
}

void e810_core_set_roce_drop_seed(E810Core *core, uint64_t seed)
{
    e810_xport_seed_drop(core, seed);
}

int e810_core_xport_stats(E810Core *core, char *buf, size_t len)
{
    return e810_xport_format_stats(core, buf, len);
}

int e810_core_hmc_counts(E810Core *core, char *buf, size_t len)
{
    return e810_hmc_format_counts(core, buf, len);
}

int e810_core_stats(E810Core *core, char *buf, size_t len)
{
    const E810Hmc *hmc = &core->rdma.hmc;
    uint32_t i, valid = 0;

    for (i = hmc->first_sd; e810_hmc_sd_ours(hmc, i); i++) {
        valid += hmc->sd[i].valid;
    }
    return snprintf(buf, len, "pf_resets=%" PRIu64 " core_resets=%" PRIu64
                    " global_resets=%" PRIu64 " valid_sds=%" PRIu32
                    " hmc_faults=%" PRIu64 " mmio_bad_access=%" PRIu64
                    " mmio_unimplemented=%" PRIu64 " mmio_ro_write=%" PRIu64
                    " dma_errors=%" PRIu64 " bad_qp_transitions=%" PRIu64
                    " destroy_live_qps=%" PRIu64,
                    core->stats.pf_resets, core->stats.core_resets,
                    core->stats.global_resets, valid, hmc->faults,
                    core->stats.mmio_bad_access,
                    core->stats.mmio_unimplemented,
                    core->stats.mmio_ro_write, core->stats.dma_errors,
                    core->rdma.stats.bad_qp_transitions,
                    core->rdma.stats.destroy_live_qps);
}

/*
 * The embedder's one timer carries the transport's deadlines (e810_xport.c)
 * and a warned core reset's: armed for the earlier of the two.
 */
static void e810_core_timer_arm(E810Core *core)
{
    if (core->ops->timer_mod) {
        core->ops->timer_mod(core->opaque,
                             core->grst_deadline < core->xport_deadline ?
                             core->grst_deadline : core->xport_deadline);
    }
}

void e810_core_timer_mod(E810Core *core, uint64_t deadline_ns)
{
    core->xport_deadline = deadline_ns;
    e810_core_timer_arm(core);
}

void e810_core_timer_fire(E810Core *core)
{
    if (core->grst_deadline <= e810_xport_now(core)) {
        core->grst_deadline = UINT64_MAX;
        e810_core_request_work(core, E810_WORK_CORE_RESET);
        e810_core_timer_arm(core);
    }
    /* Early for the transport is harmless: it rescans and re-arms. */
    e810_xport_timer(core);
}

bool e810_core_can_receive(E810Core *core)
{
    return e810_lan_can_receive(core);
}

size_t e810_core_receive(E810Core *core, const uint8_t *buf, size_t len)
{
    return e810_lan_receive(core, buf, len);
}

/* ---- register writes with side effects -------------------------------- */

static void write_pfgen_ctrl(E810Core *core, uint32_t *reg, uint32_t val)
{
    /* PFSWR stays set until the reset has run, then clears itself. */
    *reg = val & E810_PFGEN_CTRL_PFSWR;
    if (val & E810_PFGEN_CTRL_PFSWR) {
        e810_core_request_work(core, E810_WORK_PF_RESET);
    }
}

/*
 * GLGEN_RTRIG.CORER / GLOBR (ice_reset()): the core (or global) reset of
 * the card, of every function joined to this one (e810_core_join()), as on
 * silicon, where each PF's ice gets the warning and recovers. First the
 * warning, on each function: the trigger bit reads back set, GLGEN_RSTAT
 * says a reset of that type is under way (DEVSTATE 1, RESET_TYPE 1 CORER
 * or 2 GLOBR), GLNVM_ULD's done bits of what the reset resets read clear
 * until it is over (ice_check_reset() waits for them after DEVSTATE; which
 * bits drop is inferred from that wait: CORER_DONE and PE_DONE, GLOBR_DONE
 * too for a GLOBR) and PFINT_OICR.GRST is raised, with the OICR cause if
 * PFINT_OICR_ENA enables it: ice_misc_intr() reads the type and sets
 * ICE_RESET_OICR_RECV, on the PF that wrote the trigger too, whose
 * ice_do_reset() does not rebuild. GRSTDEL x 100 ms later (GLGEN_RSTCTL;
 * ice_check_reset() polls GRSTDEL + 10 times, 100 ms apart; an embedder
 * without a timer: at the next deferred work) the reset of each function,
 * do_core_reset(). A trigger during the warning adds to the same reset,
 * the larger of the two, at the first deadline.
 */
enum {
    GRST_CORER = 1,     /* GLGEN_RSTAT.RESET_TYPE, ice_reset_req */
    GRST_GLOBR = 2,
};

static void grst_warn_one(E810Core *core, unsigned type, uint32_t trig)
{
    uint32_t *rstat = e810_regfile_ptr(&core->regs, E810_GLGEN_RSTAT);
    uint32_t del = FIELD_GET(E810_GLGEN_RSTCTL_GRSTDEL,
                             *e810_regfile_ptr(&core->regs, E810_GLGEN_RSTCTL));

    *e810_regfile_ptr(&core->regs, E810_GLGEN_RTRIG) |= trig;
    if (core->grst_type >= type) {
        return;
    }
    *rstat = FIELD_PREP(E810_GLGEN_RSTAT_DEVSTATE, 1) |
             FIELD_PREP(E810_GLGEN_RSTAT_RESET_TYPE, type);
    *e810_regfile_ptr(&core->regs, E810_GLNVM_ULD) &=
        ~(E810_GLNVM_ULD_CORER_DONE | E810_GLNVM_ULD_PE_DONE |
          (type == GRST_GLOBR ? E810_GLNVM_ULD_GLOBR_DONE : 0));
    if (core->grst_type) {
        core->grst_type = type;     /* already warned and timed */
        return;
    }
    core->grst_type = type;
    oicr_raise(core, E810_PFINT_OICR_GRST);
    if (!core->ops->now_ns || !core->ops->timer_mod) {
        e810_core_request_work(core, E810_WORK_CORE_RESET);
        return;
    }
    core->grst_deadline = e810_xport_now(core) + del * E810_GRSTDEL_UNIT_NS;
    e810_core_timer_arm(core);
}

static void write_glgen_rtrig(E810Core *core, uint32_t *reg, uint32_t val)
{
    uint32_t trig = val & (E810_GLGEN_RTRIG_CORER | E810_GLGEN_RTRIG_GLOBR);
    unsigned i;

    if (!trig) {
        return;
    }
    for (i = 0; i < E810_CARD_PFS; i++) {
        if (core->card[i]) {
            grst_warn_one(core->card[i],
                          trig & E810_GLGEN_RTRIG_GLOBR ? GRST_GLOBR :
                                                          GRST_CORER, trig);
        }
    }
}

static void write_register(E810Core *core, E810RegRef *ref, uint32_t val)
{
    const E810RegInfo *ri = ref->info;

    /* RDMA engine registers (CQP, CQ/AEQ doorbells, HMC): e810_rdma.c. */
    if (e810_rdma_write_register(core, ref, val)) {
        return;
    }
    if (ri->flags & E810_REG_RO) {
        core->stats.mmio_ro_write++;
        e810_core_log(core, E810_LOG_GUEST_ERROR,
                      "write 0x%08x to read-only %s[%u] ignored",
                      val, ri->name, ref->index);
        return;
    }
    switch (ri->id) {
    case E810_REGID_PFGEN_CTRL:
        write_pfgen_ctrl(core, ref->val, val);
        return;
    case E810_REGID_GLGEN_RTRIG:
        write_glgen_rtrig(core, ref->val, val);
        return;
    case E810_REGID_PFINT_OICR:
        /*
         * A write sets causes: ice's "software interrupt" that makes
         * its handler run again for Tx timestamps
         * (ice_ptp_restore_timestamp_mode(), ice_misc_intr_thread_fn()).
         */
        oicr_raise(core, val);
        return;
    case E810_REGID_GLINT_DYN_CTL:
        e810_intr_dyn_ctl_write(core, ref->index, ref->val, val);
        return;
    case E810_REGID_PF_FW_ATQT:
        *ref->val = val;
        e810_core_request_work(core, E810_WORK_ATQ);
        return;
    case E810_REGID_QRX_CTRL:
        e810_lan_qrx_ctrl_write(core, ref->index, ref->val, val);
        return;
    case E810_REGID_QRX_TAIL:
        e810_lan_qrx_tail_write(core, ref->index, ref->val, val);
        return;
    case E810_REGID_QTX_COMM_DBELL:
        e810_lan_tx_doorbell(core, ref->index, val);
        return;
    default:
        break;
    }
    if (ri->w1c) {
        val = (*ref->val & ~(val & ri->w1c)) | (val & ~ri->w1c);
    }
    *ref->val = val;
}

static uint32_t read_register(E810Core *core, E810RegRef *ref)
{
    uint32_t val;

    if (ref->info->flags & E810_REG_WO) {
        return 0;
    }
    val = *ref->val;
    if (ref->info->flags & E810_REG_RC) {
        *ref->val = 0;
    }
    return val;
}

/* ---- BAR0 decode ------------------------------------------------------- */

static bool access_ok(E810Core *core, uint64_t addr, unsigned size, bool wr)
{
    if ((size == 1 || size == 2 || size == 4 || size == 8) &&
        addr < E810_BAR0_SIZE && size <= E810_BAR0_SIZE - addr &&
        !(addr & (size - 1))) {
        return true;
    }
    core->stats.mmio_bad_access++;
    e810_core_log(core, E810_LOG_GUEST_ERROR,
                  "bad BAR0 %s: offset 0x%llx size %u", wr ? "write" : "read",
                  (unsigned long long)addr, size);
    return false;
}

static void unimplemented(E810Core *core, uint64_t addr, bool wr)
{
    core->stats.mmio_unimplemented++;
    e810_core_log(core, E810_LOG_UNIMP, "%s of unimplemented BAR0 offset 0x%llx",
                  wr ? "write" : "read", (unsigned long long)addr);
}

static bool in_register_space(uint64_t addr, unsigned size, E810Core *core,
                              bool wr)
{
    if (addr >= E810_DB_ADDR_OFFSET) {
        return false;
    }
    if (size != 4) {
        /* The drivers use readl/writel only; the hardware does the same. */
        core->stats.mmio_bad_access++;
        e810_core_log(core, E810_LOG_GUEST_ERROR,
                      "%u-byte register %s at 0x%llx ignored", size,
                      wr ? "write" : "read", (unsigned long long)addr);
        return false;
    }
    return true;
}

uint64_t e810_core_mmio_read(E810Core *core, uint64_t addr, unsigned size)
{
    E810RegRef ref;
    uint64_t val;

    if (!access_ok(core, addr, size, false)) {
        return 0;
    }
    if (addr >= E810_DB_ADDR_OFFSET &&
        addr < E810_DB_ADDR_OFFSET + E810_DB_PAGE_SIZE) {
        return 0;   /* doorbells are write-only */
    }
    if (addr >= E810_PUSH_OFFSET && addr < PUSH_END) {
        return 0;   /* push pages are write-combined, write-only */
    }
    /* Statistics counters, the only registers with 8-byte reads. */
    if (addr < E810_DB_ADDR_OFFSET &&
        e810_stats_mmio_read(core, addr, size, &val)) {
        return val;
    }
    if (!in_register_space(addr, size, core, false)) {
        if (addr >= E810_DB_ADDR_OFFSET) {
            unimplemented(core, addr, false);
        }
        return 0;
    }
    if (!e810_regfile_lookup(&core->regs, addr, &ref)) {
        unimplemented(core, addr, false);
        return 0;
    }
    return read_register(core, &ref);
}

void e810_core_mmio_write(E810Core *core, uint64_t addr, uint64_t val,
                          unsigned size)
{
    E810RegRef ref;

    if (!access_ok(core, addr, size, true)) {
        return;
    }
    if (addr >= E810_DB_ADDR_OFFSET &&
        addr < E810_DB_ADDR_OFFSET + E810_DB_PAGE_SIZE) {
        if (size != 4) {
            core->stats.mmio_bad_access++;
            e810_core_log(core, E810_LOG_GUEST_ERROR, "%u-byte doorbell "
                          "write at 0x%llx ignored", size,
                          (unsigned long long)addr);
            return;
        }
        e810_rdma_doorbell_page_write(core, addr - E810_DB_ADDR_OFFSET,
                                      (uint32_t)val);
        return;
    }
    if (addr >= E810_PUSH_OFFSET && addr < PUSH_END) {
        e810_core_log(core, E810_LOG_UNIMP,
                      "push page write at 0x%llx ignored: push WQEs are "
                      "not modelled", (unsigned long long)addr);
        return;
    }
    if (!in_register_space(addr, size, core, true)) {
        if (addr >= E810_DB_ADDR_OFFSET) {
            unimplemented(core, addr, true);
        }
        return;
    }
    if (!e810_regfile_lookup(&core->regs, addr, &ref)) {
        if (e810_stats_is_reg(addr)) {
            core->stats.mmio_ro_write++;
            e810_core_log(core, E810_LOG_GUEST_ERROR, "write 0x%08x to "
                          "statistics register 0x%llx ignored", (uint32_t)val,
                          (unsigned long long)addr);
            return;
        }
        unimplemented(core, addr, true);
        return;
    }
    write_register(core, &ref, (uint32_t)val);
}

/* ---- deferred work ----------------------------------------------------- */

static void do_pf_reset(E810Core *core)
{
    e810_regfile_reset(&core->regs, E810_RST_PFR);
    e810_intr_reset(&core->intr);
    e810_lan_reset(core);
    e810_aq_clear_pf_config(core);  /* firmware frees the PF's VSI, qsets */
    e810_aq_fw_reset(core, E810_RST_PFR);
    e810_xport_reset(core);
    e810_iw_reset(core);
    e810_rdma_reset(core);  /* the PE function is reset with the PF */
    *e810_regfile_ptr(&core->regs, E810_PFGEN_CTRL) &= ~E810_PFGEN_CTRL_PFSWR;
    core->stats.pf_resets++;
}

/*
 * The core (global) reset of one function, warned by grst_warn_one(): the
 * CORER (GLOBR) domain's registers (the trigger bits and PFINT_OICR among
 * them), the admin queue, the firmware's state of the function (VSIs,
 * scheduler, switch rules, the DDP package, which ice_rebuild() loads
 * again after a CORER or GLOBR), the LAN queues, the statistics, the
 * protocol engine. Then DEVSTATE 0 with RESET_TYPE kept, which
 * ice_check_reset() polls for, and GLNVM_ULD's done bits set again.
 */
static void do_core_reset(E810Core *core)
{
    uint32_t *rstat = e810_regfile_ptr(&core->regs, E810_GLGEN_RSTAT);
    unsigned type = core->grst_type;
    E810ResetSource level = type == GRST_GLOBR ? E810_RST_GLOBR :
                                                 E810_RST_CORER;

    if (!type) {
        return;     /* a power-on reset came first */
    }
    core->grst_type = 0;
    core->grst_deadline = UINT64_MAX;
    e810_regfile_reset(&core->regs, level);
    set_identity(core);
    e810_intr_reset(&core->intr);
    e810_aq_reset(core);
    e810_aq_fw_reset(core, level);
    e810_lan_reset(core);
    e810_stats_reset(core, level);
    e810_xport_reset(core);
    e810_iw_reset(core);
    e810_rdma_reset(core);
    if (type == GRST_GLOBR) {
        core->stats.global_resets++;
    } else {
        core->stats.core_resets++;
    }
    /* Done: device active again, last reset type kept for the driver. */
    *rstat = FIELD_PREP(E810_GLGEN_RSTAT_RESET_TYPE, type);
    *e810_regfile_ptr(&core->regs, E810_GLNVM_ULD) |=
        E810_GLNVM_ULD_CORER_DONE | E810_GLNVM_ULD_GLOBR_DONE |
        E810_GLNVM_ULD_PE_DONE;
}

/*
 * The function alone; a core reset the card warned of stays pending (its
 * deadline re-armed: the embedder may have stopped its timer).
 */
void e810_core_flr(E810Core *core)
{
    core->work_pending &= E810_WORK_CORE_RESET;
    do_pf_reset(core);
    if (core->work_pending) {
        core->ops->schedule_work(core->opaque);
    }
    e810_core_timer_arm(core);
}

/*
 * One run of deferred work. Each area bounds what one run does (CQP WQEs,
 * SQ WQEs, READ response packets; the transport timer likewise) and asks
 * for another run for the rest, so the embedder's bottom half never runs
 * long. A run entered from inside another (a DMA that reaches our own
 * MMIO, an embedder calling back) leaves the work pending for the next.
 */
void e810_core_run_work(E810Core *core)
{
    uint32_t work = core->work_pending;

    if (core->in_work) {
        core->stats.work_reentries++;
        core->ops->schedule_work(core->opaque);
        return;
    }
    core->in_work = true;
    core->work_pending = 0;
    core->stats.work_runs++;
    if (work & E810_WORK_CORE_RESET) {
        do_core_reset(core);
    }
    if (work & E810_WORK_PF_RESET) {
        do_pf_reset(core);
    }
    if (work & E810_WORK_ATQ) {
        e810_aq_process_atq(core);
    }
    if (work & E810_WORK_TX) {
        e810_lan_process_tx(core);
    }
    if ((work & E810_WORK_RX_READY) && core->ops->rx_ready) {
        core->ops->rx_ready(core->opaque);
    }
    if (work & E810_WORK_RDMA) {
        e810_rdma_run_work(core, work);
    }
    if (work & E810_WORK_XPORT) {
        e810_xport_run_work(core);
    }
    core->in_work = false;
}
