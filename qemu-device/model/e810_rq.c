/*
 * Emulated E810: RQ consumption of the RDMA data path.
 *
 * There is no RQ doorbell on GEN_2 (docs/hw-reference.md 5.4): when a message
 * arrives the transport asks for the next WQE and the device takes it if its
 * header valid bit (off 24, b63) equals the RQ pass polarity (1 on the first
 * pass). RQ WQEs are all 32 << RQWQESIZE bytes; fragment 0 sits in quantum 0,
 * ADDFRAGCNT more follow from byte 32 (two per quantum), padding fragments have
 * length 0 and are dropped. CQEs name the WQE by its quantum index (entry <<
 * shift).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <string.h>

#include "e810_core.h"
#include "e810_dp.h"

#define RQ_MAX_WQE      256     /* bytes, RQWQESIZE 3 */

static bool rq_setup(E810Qp *qp)
{
    E810RqState *rq = &qp->rq;
    uint64_t cfg = qp->ctx[E810_QW(E810_QPC_CFG_OFF)];
    unsigned enc = FIELD_GET(E810_QPC_RQSIZE,
                             qp->ctx[E810_QW(E810_QPC_SIZES_OFF)]);

    if (rq->ready) {
        return true;
    }
    if (enc < E810_QPC_WQSIZE_ENC_MIN || enc > E810_QPC_WQSIZE_ENC_MAX) {
        return false;
    }
    memset(rq, 0, sizeof(*rq));
    rq->quanta = 1u << (enc + 2);
    rq->shift = FIELD_GET(E810_QPC_RQWQESIZE, cfg);
    rq->base = qp->ctx[E810_QW(E810_QPC_RQADDR_OFF)];
    rq->pol = true;
    rq->ready = true;
    return true;
}

static uint32_t rq_entries(const E810RqState *rq)
{
    return rq->quanta >> rq->shift;     /* >= 1: quanta >= 8, shift <= 3 */
}

/* Reads RQ entry @entry (32 << shift bytes) as host-order qwords. */
static bool rq_read(E810Core *core, E810Qp *qp, uint32_t entry, uint64_t *q)
{
    unsigned size = E810_WQE_QUANTUM << qp->rq.shift, i;
    uint64_t off = (uint64_t)entry * size, pa;

    if (qp->virt) {
        /* Entries never straddle a 4 KiB ring page (sizes divide it). */
        if (!e810_pble_resolve(core, qp->rq.base, E810_LPBL_LEVEL1,
                               E810_HMC_PD_SHIFT, off, &pa)) {
            return false;
        }
    } else {
        pa = qp->rq.base + off;
    }
    if (!e810_core_dma_read_entry(core, pa, q, size, E810_WQE_HDR_OFF)) {
        return false;
    }
    for (i = 0; i < size / 8; i++) {
        q[i] = le64toh(q[i]);
    }
    return true;
}

static bool rq_valid(const E810Qp *qp, const uint64_t *q)
{
    return !!(q[E810_QW(E810_WQE_HDR_OFF)] & E810_WQE_VALID) == qp->rq.pol;
}

static void rq_advance(E810RqState *rq)
{
    if (++rq->head == rq_entries(rq)) {
        rq->head = 0;
        rq->pol = !rq->pol;
    }
}

/* Decodes the fragments of @q; 0 or the AE of a malformed WQE. */
static uint16_t rq_decode(const E810Core *core, const E810Qp *qp,
                          const uint64_t *q, E810RecvWqe *w)
{
    unsigned add = FIELD_GET(E810_WQE_ADDFRAGCNT,
                             q[E810_QW(E810_WQE_HDR_OFF)]), k;
    unsigned size = E810_WQE_QUANTUM << qp->rq.shift;

    if (add && E810_WQE_EXT_FRAG_OFF + add * E810_WQE_FRAG_SIZE > size) {
        return E810_AE_WQE_INVALID_FRAG_DATA;
    }
    w->num_sge = 0;
    w->capacity = 0;
    for (k = 0; k <= add; k++) {
        unsigned off = k ? E810_WQE_EXT_FRAG_OFF +
                           (k - 1) * E810_WQE_FRAG_SIZE : 0;
        uint64_t desc = q[E810_QW(off) + 1];
        /* the generation's fragment fields (GEN_1: LEN [31:0]) */
        uint32_t len = FIELD_GET(core->gen->frag_len, desc);

        if (!len) {
            continue;
        }
        w->sge[w->num_sge].addr = q[E810_QW(off)];
        w->sge[w->num_sge].len = len;
        w->sge[w->num_sge].lkey = FIELD_GET(core->gen->frag_stag, desc);
        w->num_sge++;
        w->capacity += len;
    }
    return 0;
}

bool e810_dp_rq_take(E810Core *core, E810Qp *qp, E810RecvWqe *wqe)
{
    E810RqState *rq = &qp->rq;
    uint64_t q[RQ_MAX_WQE / 8];
    uint32_t entry;
    uint16_t ae;

    if (qp->state != E810_QP_STATE_RTR && qp->state != E810_QP_STATE_RTS &&
        qp->state != E810_QP_STATE_SQD) {
        return false;
    }
    if (!rq_setup(qp)) {
        e810_dp_qp_fatal(core, qp, E810_AE_WQE_INVALID_PARAMETER,
                         E810_AE_SOURCE_RQ, 0);
        return false;
    }
    entry = rq->head;
    if (!rq_read(core, qp, entry, q)) {
        e810_dp_qp_fatal(core, qp, E810_AE_LCE_QP_CATASTROPHIC,
                         E810_AE_SOURCE_RQ, entry << rq->shift);
        return false;
    }
    if (!rq_valid(qp, q)) {
        return false;
    }
    ae = rq_decode(core, qp, q, wqe);
    if (ae) {
        e810_dp_qp_fatal(core, qp, ae, E810_AE_SOURCE_RQ, entry << rq->shift);
        return false;
    }
    wqe->qp_id = qp - core->rdma.qp;
    wqe->wqe_idx = entry << rq->shift;
    if (!rq->outstanding) {
        rq->oldest = entry;
    }
    rq->outstanding++;
    rq->taken++;
    rq_advance(rq);
    return true;
}

void e810_dp_complete_rq(E810Core *core, E810Qp *qp, const E810RecvWqe *wqe,
                         const E810RecvInfo *info)
{
    E810RqState *rq = &qp->rq;
    uint32_t entry;

    if (!rq->ready || !rq->outstanding) {
        return;     /* flushed meanwhile */
    }
    entry = wqe->wqe_idx >> rq->shift;
    if (entry != rq->oldest) {
        e810_core_log(core, E810_LOG_GUEST_ERROR, "QP %u: RQ completion for "
                      "entry %u while %u is the oldest", wqe->qp_id, entry,
                      rq->oldest);
        return;
    }
    if (info->status) {
        /* The flush reports this WQE (the oldest) with the status. */
        e810_dp_qp_fatal(core, qp, info->status, E810_AE_SOURCE_RQ,
                         wqe->wqe_idx);
        return;
    }
    rq->outstanding--;
    rq->oldest = (entry + 1) % rq_entries(rq);
    e810_dp_rq_cqe(core, qp, wqe->wqe_idx, info);
}

bool e810_rq_flush(E810Core *core, E810Qp *qp, uint16_t major,
                   uint16_t minor)
{
    E810RqState *rq = &qp->rq;
    uint64_t q[RQ_MAX_WQE / 8];
    uint32_t first, n;
    bool any;

    if (!rq_setup(qp)) {
        return false;
    }
    any = rq->outstanding;
    first = any ? rq->oldest : rq->head;
    for (n = 0; n < rq_entries(rq) && rq_read(core, qp, rq->head, q) &&
         rq_valid(qp, q); n++) {
        any = true;
        rq_advance(rq);
    }
    /* A long walk counts against the CQP run that asked for it. */
    core->rdma.cqp.run_cost += (n << rq->shift) / E810_CQP_FLUSH_QUANTA;
    rq->outstanding = 0;
    rq->oldest = rq->head;
    if (any) {
        e810_dp_rq_flush_cqe(core, qp, first << rq->shift, major, minor);
    }
    return any;
}
