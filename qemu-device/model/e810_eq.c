/*
 * Emulated E810: completion event queues (CEQs) and the asynchronous event
 * queue (AEQ).
 *
 * CEQE (8 bytes): CQ context in [62:0], pass polarity in bit 63; then the
 * cause behind GLINT_CEQCTL(ceq) fires. The driver has no CEQ consumer
 * doorbell; the device counts a CEQE as taken when its CQ is CQACKed
 * (e810_cq.c), and a CQ has at most one unacknowledged CEQE, so a CEQ at
 * least as large as its CQ count never overflows.
 *
 * AEQE (16 bytes): context, then id/WQE index/code/source/state with the
 * polarity in bit 63 of the second qword, written last; then the
 * PFINT_AEQCTL cause fires. AEQALLOC returns consumed entries; with all
 * entries outstanding a new AE is lost and the next AEQE written carries
 * the OVERFLOW bit.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <string.h>

#include "e810_core.h"

/* ---- CQP ops ----------------------------------------------------------- */

static bool eq_ring_from_wqe(E810Core *core, const E810CqpWqe *w,
                             E810Ring *ring, uint32_t size, uint32_t align,
                             E810CqpResult *res)
{
    uint64_t hdr = e810_wqe_hdr(w);

    return e810_ring_setup(core, ring, size, hdr & E810_CQPSQ_EQ_VMAP,
                           FIELD_GET(E810_CQPSQ_EQ_LPBLSIZE, hdr),
                           e810_wqe(w, E810_CQPSQ_EQ_PA_OFF),
                           FIELD_GET(E810_CQPSQ_EQ_FIRSTPMPBLIDX,
                                     e810_wqe(w, E810_CQPSQ_EQ_PBL_OFF)),
                           align, res);
}

static E810Ceq *ceq_slot(E810Core *core, const E810CqpWqe *w,
                         E810CqpResult *res)
{
    uint32_t id = FIELD_GET(E810_CQPSQ_CEQ_CEQID, e810_wqe_hdr(w));

    if (id >= E810_PE_MAX_CEQS) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_INDEX, "CEQ %u, the function "
                     "has %u", id, E810_PE_MAX_CEQS);
        return NULL;
    }
    return &core->rdma.ceq[id];
}

void e810_op_create_ceq(E810Core *core, const E810CqpWqe *w,
                        E810CqpResult *res)
{
    uint32_t size = FIELD_GET(E810_CQPSQ_CEQ_CEQSIZE,
                              e810_wqe(w, E810_CQPSQ_EQ_SIZE_OFF));
    E810Ceq *ceq = ceq_slot(core, w, res);
    E810Ring ring;

    if (!ceq) {
        return;
    }
    if (ceq->valid) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_STATE, "CEQ %u exists",
                     (unsigned)(ceq - core->rdma.ceq));
        return;
    }
    if (size < 1 || size > E810_CEQ_MAX_ENTRIES) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_SIZE, "CEQ of %u entries",
                     size);
        return;
    }
    if (!eq_ring_from_wqe(core, w, &ring, size, E810_CEQ_ALIGN, res)) {
        return;
    }
    memset(ceq, 0, sizeof(*ceq));
    ceq->valid = true;
    ceq->ring = ring;
}

void e810_op_destroy_ceq(E810Core *core, const E810CqpWqe *w,
                         E810CqpResult *res)
{
    E810Ceq *ceq = ceq_slot(core, w, res);

    if (!ceq) {
        return;
    }
    if (!ceq->valid) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_STATE, "CEQ %u does not "
                     "exist", (unsigned)(ceq - core->rdma.ceq));
        return;
    }
    e810_cq_ceq_destroyed(core, ceq - core->rdma.ceq);
    memset(ceq, 0, sizeof(*ceq));
    ceq->destroyed = true;
}

void e810_op_create_aeq(E810Core *core, const E810CqpWqe *w,
                        E810CqpResult *res)
{
    E810Aeq *aeq = &core->rdma.aeq;
    uint32_t size = FIELD_GET(E810_CQPSQ_AEQ_AEQECNT,
                              e810_wqe(w, E810_CQPSQ_EQ_SIZE_OFF));
    E810Ring ring;

    if (aeq->valid) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_STATE, "AEQ exists");
        return;
    }
    if (size < 1 || size > E810_AEQ_MAX_ENTRIES) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_SIZE, "AEQ of %u entries",
                     size);
        return;
    }
    if (!eq_ring_from_wqe(core, w, &ring, size, E810_AEQ_ALIGN, res)) {
        return;
    }
    memset(aeq, 0, sizeof(*aeq));
    aeq->valid = true;
    aeq->ring = ring;
}

void e810_op_destroy_aeq(E810Core *core, const E810CqpWqe *w,
                         E810CqpResult *res)
{
    E810Aeq *aeq = &core->rdma.aeq;

    if (!aeq->valid) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_STATE, "no AEQ");
        return;
    }
    memset(aeq, 0, sizeof(*aeq));
}

/* ---- entries ----------------------------------------------------------- */

bool e810_ceq_post(E810Core *core, uint32_t ceq_id, uint64_t ctx)
{
    E810Ceq *ceq = ceq_id < E810_PE_MAX_CEQS ? &core->rdma.ceq[ceq_id] : NULL;
    uint64_t pa, e;

    if (!ceq || !ceq->valid) {
        core->rdma.stats.events_dropped++;
        /*
         * A CEQ destroyed under live CQs is the driver's teardown order,
         * not a fault: irdma_ctrl_deinit_hw() deletes CEQ 0 before the
         * CCQ, whose last completions still ask for an event.
         */
        if (!ceq || !ceq->destroyed) {
            e810_core_log(core, E810_LOG_GUEST_ERROR, "CQ event for CEQ %u, "
                          "which does not exist: dropped", ceq_id);
        }
        return false;
    }
    e = FIELD_PREP(E810_CEQE_CQCTX, ctx) |
        (ceq->ring.polarity ? E810_CEQE_VALID : 0);
    e = htole64(e);
    if (!e810_ring_addr(core, &ceq->ring, ceq->ring.head, E810_CEQE_SIZE,
                        &pa) ||
        !e810_core_dma_write(core, pa, &e, sizeof(e))) {
        core->rdma.stats.events_dropped++;
        return false;
    }
    e810_ring_advance(&ceq->ring);
    ceq->posted++;
    e810_intr_cause(core, E810_GLINT_CEQCTL(ceq_id));
    return true;
}

bool e810_aeq_post(E810Core *core, const E810Ae *ae)
{
    E810Aeq *aeq = &core->rdma.aeq;
    uint64_t pa, info;
    __le64 ctx;

    if (!aeq->valid) {
        aeq->dropped++;
        e810_core_log(core, E810_LOG_GUEST_ERROR, "AE 0x%04x for id %u with "
                      "no AEQ: dropped", ae->code, ae->id);
        return false;
    }
    if (aeq->outstanding >= aeq->ring.size) {
        aeq->overflow = true;
        aeq->dropped++;
        e810_core_log(core, E810_LOG_GUEST_ERROR, "AEQ full: AE 0x%04x lost",
                      ae->code);
        return false;
    }
    info = FIELD_PREP(E810_AEQE_QPCQID_LOW, ae->id) |
           FIELD_PREP(E810_AEQE_QPCQID_HI, ae->id >> 18) |
           FIELD_PREP(E810_AEQE_WQDESCIDX, ae->wqe_idx) |
           FIELD_PREP(E810_AEQE_AECODE, ae->code) |
           FIELD_PREP(E810_AEQE_AESRC, ae->source) |
           FIELD_PREP(E810_AEQE_IWSTATE, ae->qp_state) |
           FIELD_PREP(E810_AEQE_TCPSTATE, ae->tcp_state) |
           FIELD_PREP(E810_AEQE_Q2DATA, ae->q2data) |
           (aeq->overflow ? E810_AEQE_OVERFLOW : 0) |
           (aeq->ring.polarity ? E810_AEQE_VALID : 0);
    ctx = htole64(ae->ctx);
    info = htole64(info);
    if (!e810_ring_addr(core, &aeq->ring, aeq->ring.head, E810_AEQE_SIZE,
                        &pa) ||
        !e810_core_dma_write(core, pa + E810_AEQE_CTX_OFF, &ctx, 8) ||
        !e810_core_dma_write(core, pa + E810_AEQE_INFO_OFF, &info, 8)) {
        aeq->dropped++;
        return false;
    }
    aeq->overflow = false;
    aeq->outstanding++;
    aeq->posted++;
    e810_ring_advance(&aeq->ring);
    e810_intr_cause(core, E810_PFINT_AEQCTL);
    return true;
}

void e810_aeq_alloc(E810Core *core, uint32_t val)
{
    E810Aeq *aeq = &core->rdma.aeq;

    if (!aeq->valid || val > aeq->outstanding) {
        core->rdma.stats.bad_doorbells++;
        e810_core_log(core, E810_LOG_GUEST_ERROR, "AEQALLOC %u with %u AEQEs "
                      "outstanding", val, aeq->valid ? aeq->outstanding : 0);
        aeq->outstanding = 0;
        return;
    }
    aeq->outstanding -= val;
}
