/*
 * Emulated E810: QP-level events of the data path -- fatal errors, flushes
 * (FLUSH_WQES and the device's own), state changes and teardown.
 *
 * A fatal error raises one AE (the first one; later errors of a QP in ERROR
 * are silent), moves the QP to ERROR, resets its transport state and
 * flushes both queues: the queue at fault with the flush code of the AE
 * (so the provider reports the failing WQE, its ring tail, with the right
 * status), the other with GENERAL_ERR (IBV_WC_WR_FLUSH_ERR). Local access
 * errors (an lkey in a WQE) report PROT_ERR whatever the AMP_* code, as
 * IB defines a local protection error; remote ones keep the kernel's map.
 *
 * A UD QP in RTS whose send fails (any SQ fault but an unreadable ring)
 * enters the IB Send Queue Error state instead: one AE, the SQ flushed
 * with the AE's code, the QP stays in RTS with its RQ receiving, and work
 * posted meanwhile is flushed. MODIFY_QP to RTS flushes what was posted up
 * to then and restarts the SQ at its fetch position (ib_mad's SQE -> RTS
 * recovery of QP1, ib_mad_send_error()).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "e810_core.h"
#include "e810_dp.h"

static bool is_amp(uint16_t ae)
{
    return ae >= E810_AE_AMP_UNALLOCATED_STAG &&
           ae <= E810_AE_AMP_FASTREG_PBLE_MISMATCH;
}

static bool local_source(uint8_t source)
{
    return source == E810_AE_SOURCE_SQ || source == E810_AE_SOURCE_SQ_0111 ||
           source == E810_AE_SOURCE_RQ || source == E810_AE_SOURCE_RQ_0011;
}

void e810_dp_qp_fatal(E810Core *core, E810Qp *qp, uint16_t ae, uint8_t source,
                      uint32_t wqe_idx)
{
    uint32_t id = qp - core->rdma.qp;
    uint8_t code = e810_dp_flush_code(ae);
    bool sq_fault = source == E810_AE_SOURCE_SQ ||
                    source == E810_AE_SOURCE_SQ_0111;
    bool was_error = qp->state == E810_QP_STATE_ERROR;

    if (is_amp(ae) && local_source(source) &&
        code != E810_FLUSH_MW_BIND_ERR) {
        code = E810_FLUSH_PROT_ERR;
    }
    if (sq_fault && qp->type == E810_QP_TYPE_ROCE_UD &&
        qp->state == E810_QP_STATE_RTS && !qp->fatal &&
        ae != E810_AE_LCE_QP_CATASTROPHIC) {
        /* Send Queue Error: the RQ goes on (see the top). */
        if (!qp->sq_error) {
            qp->sq_error = true;
            e810_qp_raise_ae(core, id, ae, source, wqe_idx);
        }
        e810_sq_flush(core, qp, E810_CQE_MAJ_FLUSH, code);
        return;
    }
    if (!qp->fatal) {
        qp->fatal = true;
        e810_qp_raise_ae(core, id, ae, source, wqe_idx);
    }
    qp->state = E810_QP_STATE_ERROR;
    qp->flush_sq = true;
    qp->flush_rq = true;
    if (!was_error) {
        e810_xport_qp_reset(core, id);
    }
    e810_sq_flush(core, qp, E810_CQE_MAJ_FLUSH,
                  sq_fault ? code : E810_FLUSH_GENERAL_ERR);
    e810_rq_flush(core, qp, E810_CQE_MAJ_FLUSH,
                  sq_fault ? E810_FLUSH_GENERAL_ERR : code);
}

uint16_t e810_dp_flush(E810Core *core, E810Qp *qp, bool sq, bool rq,
                       uint16_t sq_major, uint16_t sq_minor,
                       uint16_t rq_major, uint16_t rq_minor)
{
    bool did_sq = false, did_rq = false;

    if (qp->state != E810_QP_STATE_ERROR) {
        qp->state = E810_QP_STATE_ERROR;
        e810_xport_qp_reset(core, qp - core->rdma.qp);
    }
    if (sq) {
        qp->flush_sq = true;
        did_sq = e810_sq_flush(core, qp, sq_major, sq_minor);
    }
    if (rq) {
        qp->flush_rq = true;
        did_rq = e810_rq_flush(core, qp, rq_major, rq_minor);
    }
    if (did_sq && did_rq) {
        return E810_DP_COMPL_BOTH_FLUSHED;
    }
    if (did_sq) {
        return E810_CQP_COMPL_SQ_WQE_FLUSHED;
    }
    return did_rq ? E810_CQP_COMPL_RQ_WQE_FLUSHED :
                    E810_CQP_COMPL_NOTHING_FLUSHED;
}

void e810_dp_qp_release(E810Core *core, E810Qp *qp)
{
    free(qp->sq.slots);
    qp->sq.slots = NULL;
    qp->sq.ready = false;
    qp->rq.ready = false;
}

void e810_dp_qp_sq_recover(E810Core *core, E810Qp *qp)
{
    if (!qp->sq_error || qp->state != E810_QP_STATE_RTS) {
        return;
    }
    /* Posted in SQE: flushed, as the driver has reported it by now. */
    e810_sq_flush(core, qp, E810_CQE_MAJ_FLUSH, E810_FLUSH_GENERAL_ERR);
    qp->sq_error = false;
    e810_dp_sq_kick(core, qp - core->rdma.qp);
}

void e810_dp_qp_state(E810Core *core, E810Qp *qp, uint8_t old_state)
{
    uint32_t id = qp - core->rdma.qp;

    if (qp->state == old_state) {
        return;
    }
    switch (qp->state) {
    case E810_QP_STATE_RTS:
        /* WQEs may have been posted (and doorbells rung) before RTS. */
        e810_dp_sq_kick(core, id);
        break;
    case E810_QP_STATE_ERROR:
        e810_xport_qp_reset(core, id);
        break;
    /*
     * No case for IDLE: MODIFY_QP takes no QP back there (e810_qp.c);
     * DESTROY_QP and CREATE_QP start a QP over.
     */
    default:
        break;
    }
}
