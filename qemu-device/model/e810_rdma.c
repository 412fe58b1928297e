/*
 * Emulated E810: RDMA protocol engine lifetime, register hooks and the
 * dispatch of its deferred work.
 *
 * The engine's state is dropped by a PF reset, a core reset and by the
 * destruction of the CQP (a new CQP starts a new session: the driver
 * queries and commits the FPM again).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "e810_core.h"

static void set_reg(E810Core *core, uint32_t off, uint32_t val)
{
    *e810_regfile_ptr(&core->regs, off) = val;
}

void e810_rdma_tables_free(E810Core *core)
{
    E810Rdma *r = &core->rdma;
    uint32_t i;

    /* Per-QP data-path allocations first. */
    for (i = 0; r->qp && i < r->qp_alloc; i++) {
        e810_dp_qp_release(core, &r->qp[i]);
    }

    free(r->cq);
    free(r->qp);
    free(r->mr);
    free(r->ah);
    free(r->mcg);
    free(r->arp);
    free(r->arm_fifo);
    free(r->sq_fifo);
    r->cq = NULL;
    r->qp = NULL;
    r->mr = NULL;
    r->ah = NULL;
    r->mcg = NULL;
    r->arp = NULL;
    r->arm_fifo = NULL;
    r->arm_head = 0;
    r->arm_count = 0;
    r->sq_fifo = NULL;
    r->qp_alloc = 0;
    r->sq_head = 0;
    r->sq_count = 0;
}

/* calloc() that accepts a zero count (a table the driver did not ask for). */
static void *table(uint32_t n, size_t size)
{
    return calloc(n ? n : 1, size);
}

bool e810_rdma_tables_alloc(E810Core *core)
{
    E810Rdma *r = &core->rdma;
    uint32_t ncq = e810_hmc_count(core, E810_HMC_CQ);

    e810_rdma_tables_free(core);
    r->cq = table(ncq, sizeof(*r->cq));
    r->arm_fifo = table(ncq, sizeof(*r->arm_fifo));
    r->qp = table(e810_hmc_count(core, E810_HMC_QP), sizeof(*r->qp));
    r->sq_fifo = table(e810_hmc_count(core, E810_HMC_QP),
                       sizeof(*r->sq_fifo));
    r->qp_alloc = e810_hmc_count(core, E810_HMC_QP);
    r->mr = table(e810_hmc_count(core, E810_HMC_MR), sizeof(*r->mr));
    r->ah = table(e810_hmc_count(core, E810_HMC_FSIAV), sizeof(*r->ah));
    r->mcg = table(e810_hmc_count(core, E810_HMC_FSIMC), sizeof(*r->mcg));
    r->arp = table(e810_hmc_count(core, E810_HMC_ARP), sizeof(*r->arp));
    if (!r->cq || !r->arm_fifo || !r->qp || !r->sq_fifo || !r->mr ||
        !r->ah || !r->mcg || !r->arp) {
        e810_rdma_tables_free(core);
        return false;
    }
    return true;
}

bool e810_rdma_objects_exist(E810Core *core)
{
    E810Rdma *r = &core->rdma;
    uint32_t i, n;

    if (r->aeq.valid) {
        return true;
    }
    for (i = 0; i < E810_PE_MAX_CEQS; i++) {
        if (r->ceq[i].valid) {
            return true;
        }
    }
    n = r->cq ? e810_hmc_count(core, E810_HMC_CQ) : 0;
    for (i = 0; i < n; i++) {
        if (r->cq[i].valid) {
            return true;
        }
    }
    n = r->qp ? e810_hmc_count(core, E810_HMC_QP) : 0;
    for (i = 0; i < n; i++) {
        if (r->qp[i].valid) {
            return true;
        }
    }
    return false;
}

void e810_rdma_reset(E810Core *core)
{
    e810_rdma_tables_free(core);
    memset(&core->rdma, 0, sizeof(core->rdma));
    e810_hmc_reset(core);
    set_reg(core, E810_CQPTAIL, 0);
    set_reg(core, E810_CCQPSTATUS, 0);
    set_reg(core, E810_CQPERRCODES, 0);
}

void e810_rdma_fini(E810Core *core)
{
    e810_rdma_tables_free(core);
}

/*
 * CQPTAIL and CCQPSTATUS are read-only, but the driver writes 0 to both
 * before it creates the CQP (docs/hw-reference.md 2.2). Those writes change
 * nothing and are accepted quietly; any other write is a read-only violation.
 */
static bool cqp_status_write(E810Core *core, uint32_t val)
{
    return val == 0 && !core->rdma.cqp.created;
}

bool e810_rdma_write_register(E810Core *core, E810RegRef *ref, uint32_t val)
{
    switch (ref->info->id) {
    case E810_REGID_CCQPLOW:
        *ref->val = val;
        e810_cqp_ctx_written(core);
        return true;
    case E810_REGID_CQPDB:
        e810_cqp_doorbell(core, val);
        return true;
    case E810_REGID_CQPTAIL:
    case E810_REGID_CCQPSTATUS:
        return cqp_status_write(core, val);
    case E810_REGID_CQARM:
        e810_cq_arm_doorbell(core, val);
        return true;
    case E810_REGID_CQACK:
        e810_cq_ack(core, val);
        return true;
    case E810_REGID_AEQALLOC:
        e810_aeq_alloc(core, val);
        return true;
    case E810_REGID_PFHMC_SDCMD:
        *ref->val = val;
        e810_hmc_sdcmd_write(core, val);
        return true;
    case E810_REGID_PFHMC_PDINV:
        e810_hmc_pdinv_write(core, val);
        return true;
    case E810_REGID_WQEALLOC:
        e810_sq_doorbell(core, val);
        return true;
    default:
        return false;
    }
}

void e810_rdma_doorbell_page_write(E810Core *core, uint32_t offset,
                                   uint32_t val)
{
    switch (offset) {
    case E810_DB_CQ_OFFSET:
        e810_cq_arm_doorbell(core, val);
        break;
    case E810_DB_QP_OFFSET:
        e810_sq_doorbell(core, val);
        break;
    default:
        core->rdma.stats.bad_doorbells++;
        e810_core_log(core, E810_LOG_GUEST_ERROR, "write 0x%08x to doorbell "
                      "page offset 0x%x, which has no doorbell", val, offset);
        break;
    }
}

void e810_rdma_run_work(E810Core *core, uint32_t work)
{
    /* Create the CQP first, apply arms before completions that follow them. */
    if (work & E810_WORK_CQP_CTX) {
        e810_cqp_process_ctx(core);
    }
    if (work & E810_WORK_CQ_ARM) {
        e810_cq_process_arms(core);
    }
    /*
     * SQ doorbells rung before the CQP one complete first, as on hardware,
     * where a WQE completes long before the driver's next CQP command
     * (e.g. a CQ resize must find their CQEs in the old ring).
     */
    if ((work & E810_WORK_CQP) && (work & E810_WORK_DP_SQ)) {
        e810_sq_process(core);
    }
    if (work & E810_WORK_CQP) {
        e810_cqp_process(core);
    }
    /* After the CQP: a QP it just moved to RTS may have WQEs waiting. */
    if (work & E810_WORK_DP_SQ) {
        e810_sq_process(core);
    }
}
