/*
 * Emulated Intel X722 PF: the RDMA protocol engine (irdma GEN_1, iWARP).
 *
 * The X722's engine is the E810's generation before: the same control QP,
 * CCQ, CEQ/AEQ and HMC designs with a few fields moved, a smaller object
 * set and another register map (include/hw/e810_gen.h lists the
 * differences). So the X722 does not copy the E810 model's engine: it runs
 * one E810 core (e810_core.h) switched to GEN_1 (e810_core_set_gen()) as
 * its protocol engine, with the X722's DMA, MSI-X and transmit, and maps
 * its PE registers onto that core's:
 *
 *   CQPDB 0x8000, CQPTAIL 0x8080, CCQPSTATUS 0x8100, CCQPLOW 0x8180,
 *   CCQPHIGH 0x8200, CQPERRCODES 0x8880, CQARM 0x131080, CQACK 0x131100,
 *   AEQALLOC 0x131180, WQEALLOC 0x138C00 (upstream i40iw_hw.c i40iw_regs[]),
 *   PFHMC_PDINV 0xC0300, PFINT_CEQCTL(c) 0x36800, PFINT_AEQCTL 0x38700,
 *   and the user doorbell page at 0x3F0000.
 *
 * PFINT_DYN_CTLN(n) gates vector n + 1 for the LAN (x722_core.c) and for
 * the engine alike: each write goes to both. irdma links its CEQs into
 * PFINT_LNKLSTN itself (i40iw_config_ceq()); the engine raises the vector
 * PFINT_CEQCTL(c).MSIX_INDX names, as the E810's GLINT_CEQCTL does.
 *
 * The PE's segment descriptors share the function's SD table with the LAN
 * HMC (x722_lan.c): the LAN takes SDs below X722_PE_FIRST_SD, the engine
 * reports that SD as FIRST_PE_SD_INDEX and lays its objects out from it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e810_iwarp.h"
#include "x722_core.h"

typedef struct X722PeReg {
    uint32_t x722;      /* first X722 offset */
    uint32_t e810;      /* the E810 register it is */
    uint32_t n;         /* consecutive 32-bit registers */
} X722PeReg;

static const X722PeReg pe_regs[] = {
    { X722_PE_CQPDB, E810_CQPDB, 1 },
    { X722_PE_CQPTAIL, E810_CQPTAIL, 1 },
    { X722_PE_CCQPSTATUS, E810_CCQPSTATUS, 1 },
    { X722_PE_CCQPLOW, E810_CCQPLOW, 1 },
    { X722_PE_CCQPHIGH, E810_CCQPHIGH, 1 },
    { X722_PE_CQPERRCODES, E810_CQPERRCODES, 1 },
    { X722_PE_CQARM, E810_CQARM, 1 },
    { X722_PE_CQACK, E810_CQACK, 1 },
    { X722_PE_AEQALLOC, E810_AEQALLOC, 1 },
    { X722_PE_WQEALLOC, E810_WQEALLOC, 1 },
    { X722_PFHMC_PDINV, E810_PFHMC_PDINV, 1 },
    { X722_PFINT_AEQCTL, E810_PFINT_AEQCTL, 1 },
    { X722_PFINT_CEQCTL(0), E810_GLINT_CEQCTL(0), X722_PE_CEQS },
};

/* The E810 register behind X722 register @off, or false. */
static bool pe_reg(uint32_t off, uint32_t *e810)
{
    size_t i;

    if (off >= X722_PE_DB_PAGE && off < X722_PE_DB_PAGE +
        X722_PE_DB_PAGE_SIZE) {
        *e810 = E810_DB_ADDR_OFFSET + (off - X722_PE_DB_PAGE);
        return true;
    }
    for (i = 0; i < sizeof(pe_regs) / sizeof(pe_regs[0]); i++) {
        if (off >= pe_regs[i].x722 &&
            off < pe_regs[i].x722 + 4 * pe_regs[i].n) {
            *e810 = pe_regs[i].e810 + (off - pe_regs[i].x722);
            return true;
        }
    }
    return false;
}

static bool is_int_ctl(uint32_t off)
{
    return off == X722_PFINT_AEQCTL ||
           (off >= X722_PFINT_CEQCTL(0) &&
            off < X722_PFINT_CEQCTL(X722_PE_CEQS));
}

int x722_rdma_init(X722Core *core)
{
    E810Core *pe = calloc(1, sizeof(*pe));

    if (!pe) {
        return -ENOMEM;
    }
    if (e810_core_init(pe, core->ops, core->opaque, core->pf_id) ||
        e810_core_set_gen(pe, E810_GEN_1, X722_PE_FIRST_SD) ||
        e810_core_set_hmc_sds(pe, X722_PE_SDS) ||
        e810_core_set_msix_vectors(pe, X722_MSIX_VECTORS)) {
        e810_core_fini(pe);
        free(pe);
        return -EINVAL;
    }
    core->pe = pe;
    x722_rdma_reset(core, true);
    return 0;
}

void x722_rdma_fini(X722Core *core)
{
    if (core->pe) {
        e810_core_fini(core->pe);
        free(core->pe);
        core->pe = NULL;
    }
}

/*
 * The engine forgets a CQP's counters with the CQP (its destroy, a PF
 * reset): keep them, so that x-pe-stats also counts a teardown's errors.
 */
static void cqp_counters_keep(X722Core *core)
{
    core->stats.pe_cqp_ops_done += core->pe->rdma.cqp.ops;
    core->stats.pe_cqp_errors_done += core->pe->rdma.cqp.errors;
}

void x722_rdma_reset(X722Core *core, bool por)
{
    cqp_counters_keep(core);
    /* The settings above take effect at the engine's HMC reset. */
    if (por) {
        e810_core_reset(core->pe);
    } else {
        e810_core_flr(core->pe);
    }
    e810_core_set_mac(core->pe, core->mac);
    e810_core_set_link(core->pe, core->carrier);
    /* The queue set the engine's QPs name: the VSI's (0x0212). */
    core->pe->parent_qs_valid = true;
    core->pe->parent_qs_handle = X722_QS_HANDLE;
}

void x722_rdma_set_link(X722Core *core)
{
    e810_core_set_mac(core->pe, core->mac);
    e810_core_set_link(core->pe, core->carrier);
}

bool x722_rdma_mmio_read(X722Core *core, uint32_t off, uint32_t *val)
{
    uint32_t e;

    if (!pe_reg(off, &e)) {
        return false;
    }
    *val = (uint32_t)e810_core_mmio_read(core->pe, e, 4);
    return true;
}

static uint32_t ccqphigh(X722Core *core)
{
    return (uint32_t)e810_core_mmio_read(core->pe, E810_CCQPHIGH, 4);
}

bool x722_rdma_mmio_write(X722Core *core, uint32_t off, uint32_t val)
{
    uint32_t e;

    if (!pe_reg(off, &e)) {
        return false;
    }
    if (is_int_ctl(off) && (val & X722_INT_CTL_MSIX0_INDX)) {
        /* MSIX0_INDX selects among vector 0's causes: none are the PE's. */
        x722_log(core, E810_LOG_GUEST_ERROR, "x722: 0x%x: MSIX0_INDX %u in "
                 "a PE cause register, ignored", off,
                 (val & X722_INT_CTL_MSIX0_INDX) >> 8);
        val &= ~X722_INT_CTL_MSIX0_INDX;
    }
    core->stats.pe_reg_writes++;
    if (off == X722_PE_CCQPLOW && !val &&
        !ccqphigh(core) && core->pe->rdma.cqp.created) {
        cqp_counters_keep(core);     /* 0:0 destroys the CQP */
    }
    e810_core_mmio_write(core->pe, e, val, 4);
    return true;
}

/*
 * The VSI's TCP_ENA queueing option (I40E_AQ_VSI_QUE_OPT_TCP_ENA, which
 * i40e sets through i40e_client_update_vsi_ctxt() while the netdev is up)
 * lets the engine see TCP: it is the X722's counterpart of the E810 VSI's
 * PE filter, which the engine's steering (e810_iw_steer()) reads.
 */
void x722_rdma_set_tcp_ena(X722Core *core)
{
    core->pe->aq.pe_filter = !!(core->fw.vsi_queue_opt & X722_VSI_TCP_ENA);
}

bool x722_rdma_receive(X722Core *core, const uint8_t *buf, size_t len)
{
    E810IwRx where = e810_iw_steer(core->pe, buf, len);

    if (where == E810_IW_RX_LAN) {
        return false;
    }
    e810_iw_receive(core->pe, where, buf, len);
    return true;
}

void x722_rdma_dyn_ctl(X722Core *core, unsigned v, uint32_t val)
{
    e810_core_mmio_write(core->pe, E810_GLINT_DYN_CTL(v), val, 4);
}

void x722_rdma_run_work(X722Core *core)
{
    e810_core_run_work(core->pe);
}

void x722_rdma_timer_fire(X722Core *core)
{
    e810_core_timer_fire(core->pe);
}

void x722_rdma_format_stats(X722Core *core, char *out, size_t n)
{
    const E810Rdma *r = &core->pe->rdma;
    unsigned i, ceqs = 0, cqs = 0, qps = 0, cnt;
    char counts[160];

    for (i = 0; i < E810_PE_MAX_CEQS; i++) {
        ceqs += r->ceq[i].valid;
    }
    cnt = r->cq ? e810_hmc_count(core->pe, E810_HMC_CQ) : 0;
    for (i = 0; i < cnt; i++) {
        cqs += r->cq[i].valid;
    }
    cnt = r->qp ? e810_hmc_count(core->pe, E810_HMC_QP) : 0;
    for (i = 0; i < cnt; i++) {
        qps += r->qp[i].valid;
    }
    e810_core_hmc_counts(core->pe, counts, sizeof(counts));
    snprintf(out, n, "pe_cqp=%u pe_cqp_ops=%" PRIu64 " pe_cqp_errors=%"
             PRIu64 " pe_first_sd=%u pe_hmc_committed=%u pe_ceqs=%u "
             "pe_aeq=%u pe_cqs=%u pe_qps=%u pe_loc_macs=%u "
             "pe_bad_qs_handles=%" PRIu64 " %s",
             r->cqp.created,
             core->stats.pe_cqp_ops_done + (uint64_t)r->cqp.ops,
             core->stats.pe_cqp_errors_done + (uint64_t)r->cqp.errors,
             r->hmc.first_sd, r->hmc.committed, ceqs, r->aeq.valid, cqs, qps,
             (unsigned)__builtin_popcountll(r->loc_mac_used),
             r->stats.bad_qs_handles, counts);
}
