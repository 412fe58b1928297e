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

/* Where table @k of E810_RDMA_NTABLES keeps its pointer. */
static void **table_ref(E810Rdma *r, unsigned k)
{
    void **t[E810_RDMA_NTABLES] = {
        (void **)&r->cq, (void **)&r->qp, (void **)&r->mr, (void **)&r->ah,
        (void **)&r->mcg, (void **)&r->arp, (void **)&r->arm_fifo,
        (void **)&r->sq_fifo,
    };

    return t[k];
}

static void spare_free(E810Rdma *r, unsigned k)
{
    if (r->spare[k]) {
        ASAN_UNPOISON_MEMORY_REGION(r->spare[k], r->spare_len[k]);
        free(r->spare[k]);
        r->spare[k] = NULL;
    }
}

/*
 * The tables go, but are kept as spares: a reset is mostly followed by a
 * commit of the same FPM, and reusing them costs a memset() where a free
 * and calloc() of the ~8 MiB a full commit takes (the MR table alone is
 * most of it) would map and fault in fresh pages each time. Poisoned
 * while spare, so that a stale pointer into one still trips
 * AddressSanitizer.
 */
void e810_rdma_tables_free(E810Core *core)
{
    E810Rdma *r = &core->rdma;
    uint32_t i;

    /* Per-QP data-path allocations first. */
    for (i = 0; r->qp && i < r->qp_alloc; i++) {
        e810_dp_qp_release(core, &r->qp[i]);
    }
    for (i = 0; i < E810_RDMA_NTABLES; i++) {
        void **t = table_ref(r, i);

        if (*t) {
            spare_free(r, i);
            r->spare[i] = *t;
            r->spare_len[i] = r->table_len[i];
            ASAN_POISON_MEMORY_REGION(*t, r->table_len[i]);
            *t = NULL;
        }
    }
    r->arm_head = 0;
    r->arm_count = 0;
    r->qp_alloc = 0;
    r->sq_head = 0;
    r->sq_count = 0;
}

/*
 * Table @k of @n entries of @size, zeroed: the spare if it has that size,
 * else a new one (a zero count is a table the driver did not ask for).
 */
static bool table(E810Rdma *r, unsigned k, uint32_t n, size_t size)
{
    size_t len = (size_t)(n ? n : 1) * size;
    void *p = r->spare[k];

    if (p && r->spare_len[k] == len) {
        r->spare[k] = NULL;
        ASAN_UNPOISON_MEMORY_REGION(p, len);
        memset(p, 0, len);
    } else {
        spare_free(r, k);
        p = calloc(n ? n : 1, size);
    }
    *table_ref(r, k) = p;
    r->table_len[k] = len;
    return p != NULL;
}

bool e810_rdma_tables_alloc(E810Core *core)
{
    E810Rdma *r = &core->rdma;
    uint32_t ncq = e810_hmc_count(core, E810_HMC_CQ);
    uint32_t nqp = e810_hmc_count(core, E810_HMC_QP);

    e810_rdma_tables_free(core);
    if (!table(r, 0, ncq, sizeof(*r->cq)) ||
        !table(r, 1, nqp, sizeof(*r->qp)) ||
        !table(r, 2, e810_hmc_count(core, E810_HMC_MR), sizeof(*r->mr)) ||
        !table(r, 3, e810_hmc_count(core, E810_HMC_FSIAV),
               sizeof(*r->ah)) ||
        !table(r, 4, e810_hmc_count(core, E810_HMC_FSIMC),
               sizeof(*r->mcg)) ||
        !table(r, 5, e810_hmc_count(core, E810_HMC_ARP), sizeof(*r->arp)) ||
        !table(r, 6, ncq, sizeof(*r->arm_fifo)) ||
        !table(r, 7, nqp, sizeof(*r->sq_fifo))) {
        e810_rdma_tables_free(core);
        return false;
    }
    r->qp_alloc = nqp;
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
    E810Rdma *r = &core->rdma;
    void *spare[E810_RDMA_NTABLES];
    size_t spare_len[E810_RDMA_NTABLES];

    e810_rdma_tables_free(core);
    memcpy(spare, r->spare, sizeof(spare));
    memcpy(spare_len, r->spare_len, sizeof(spare_len));
    memset(r, 0, sizeof(*r));
    memcpy(r->spare, spare, sizeof(spare));
    memcpy(r->spare_len, spare_len, sizeof(spare_len));
    e810_hmc_reset(core);
    set_reg(core, E810_CQPTAIL, 0);
    set_reg(core, E810_CCQPSTATUS, 0);
    set_reg(core, E810_CQPERRCODES, 0);
}

void e810_rdma_fini(E810Core *core)
{
    unsigned i;

    e810_rdma_tables_free(core);
    for (i = 0; i < E810_RDMA_NTABLES; i++) {
        spare_free(&core->rdma, i);
    }
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
