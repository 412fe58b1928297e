/*
 * Emulated E810: QP contexts (control side).
 *
 * CREATE_QP and MODIFY_QP load the 256-byte RoCEv2 host context the driver
 * (re)writes before each of them (docs/hw-reference.md 4.1), check it, keep a
 * copy for the data path in E810Qp and store it in the QP's HMC object as the
 * context cache would. RoCE RC and UD QPs are accepted, in iWARP mode also
 * iWARP and UDA QPs (create_type_ok()). MODIFY_QP takes only the state
 * transitions of qp_transitions[] (below), with REMOVEHASHENTRY also
 * dropping the quad hash entry of the 4-tuple last given with
 * TOECTXVALID (e810_iwarp.c). DESTROY_QP forgets the QP (with
 * REMOVEHASHENTRY also that entry); UPLOAD_CONTEXT
 * writes the stored context back to the driver.
 *
 * FLUSH_WQES moves the QP to ERROR and flushes the requested queues
 * (e810_dp_flush): one flush CQE per queue that has work outstanding, with
 * the driver's codes when USERFLCODE is set; the CQP minor says which queues
 * had any (0 / 2 RQ / 3 SQ / 1 both). GENERATE_AE (same opcode) raises the
 * AE the driver names. State changes and DESTROY tell the data path
 * (e810_dp_qp_state / e810_dp_qp_release) and the transport.
 *
 * The QS handle of a QP that may transmit (RTR, RTS, SQD, after MODIFY_QP
 * or RESUME_QP) must name an RDMA qset of this function's Tx scheduler
 * (the 0x0C33 leaf the parent added with that id). What the hardware does
 * otherwise is not documented (upstream irdma never names an unregistered
 * handle), so the model does not refuse the command: it counts the QP in
 * stats.bad_qs_handles and logs a guest error. A QP in IDLE may carry any
 * handle (the stock irdma creates QPs before their qset exists).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <string.h>

#include "e810_core.h"
#include "e810_dp.h"
#include "e810_iw_conn.h"

E810Qp *e810_qp_get(E810Core *core, uint32_t qp_id)
{
    E810Rdma *r = &core->rdma;

    if (!r->qp || qp_id >= e810_hmc_count(core, E810_HMC_QP) ||
        !r->qp[qp_id].valid) {
        return NULL;
    }
    return &r->qp[qp_id];
}

void e810_qp_raise_ae(E810Core *core, uint32_t qp_id, uint16_t code,
                      uint8_t source, uint32_t wqe_idx)
{
    E810Qp *qp = e810_qp_get(core, qp_id);
    E810Ae ae = {
        .code = code,
        .source = source,
        .id = qp_id,
        .wqe_idx = wqe_idx,
        .ctx = qp ? qp->compl_ctx : 0,
        .qp_state = qp ? qp->state : 0,
        .tcp_state = qp ? qp->tcp_state : 0,
    };

    e810_aeq_post(core, &ae);
}

/* The QP slot named by @field of the header; NULL (and @res) if bad. */
static E810Qp *qp_slot(E810Core *core, const E810CqpWqe *w, uint64_t field,
                       bool must_exist, E810CqpResult *res)
{
    uint32_t id = FIELD_GET(field, e810_wqe_hdr(w));
    E810Qp *qp;

    if (id >= e810_hmc_count(core, E810_HMC_QP)) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_INDEX, "QP %u beyond the "
                     "committed count", id);
        return NULL;
    }
    qp = &core->rdma.qp[id];
    if (qp->valid != must_exist) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_STATE, "QP %u %s", id,
                     must_exist ? "does not exist" : "exists");
        return NULL;
    }
    return qp;
}

static uint64_t ctxq(const uint64_t *ctx, unsigned off)
{
    return ctx[off >> 3];
}

/* Checks a host context against the WQE header; 0 or a minor code. */
static uint16_t ctx_check(E810Core *core, const uint64_t *ctx, uint64_t hdr,
                          const char **why)
{
    uint64_t sizes = ctxq(ctx, E810_QPC_SIZES_OFF);
    uint64_t cqs = ctxq(ctx, E810_QPC_CQ_OFF);
    uint32_t npble = e810_hmc_count(core, E810_HMC_PBLE);
    uint64_t sq = ctxq(ctx, E810_QPC_SQADDR_OFF);
    uint64_t rq = ctxq(ctx, E810_QPC_RQADDR_OFF);

    if (FIELD_GET(E810_QPC_SQSIZE, sizes) > E810_QPC_WQSIZE_ENC_MAX ||
        FIELD_GET(E810_QPC_RQSIZE, sizes) > E810_QPC_WQSIZE_ENC_MAX) {
        *why = "SQ/RQ size code out of range";
        return E810_CQP_MIN_BAD_SIZE;
    }
    if (hdr & E810_CQPSQ_QP_VQ) {
        if (sq >= npble || rq >= npble) {
            *why = "SQ/RQ PBLE index beyond the committed count";
            return E810_CQP_MIN_BAD_INDEX;
        }
    } else if ((sq | rq) & (32 - 1)) {
        *why = "SQ/RQ not aligned to a 32-byte quantum";
        return E810_CQP_MIN_BAD_ADDR;
    }
    if ((hdr & E810_CQPSQ_QP_CQNUMVALID) &&
        (!e810_cq_get(core, FIELD_GET(E810_QPC_TXCQNUM, cqs)) ||
         !e810_cq_get(core, FIELD_GET(E810_QPC_RXCQNUM, cqs)))) {
        *why = "send or receive CQ does not exist";
        return E810_CQP_MIN_BAD_STATE;
    }
    if ((hdr & E810_CQPSQ_QP_ARPTABIDXVALID) &&
        FIELD_GET(E810_QPC_ARPIDX, ctxq(ctx, E810_QPC_MSS_OFF)) >=
        e810_hmc_count(core, E810_HMC_ARP)) {
        *why = "ARP index beyond the committed count";
        return E810_CQP_MIN_BAD_INDEX;
    }
    return 0;
}

/*
 * Reads and checks the host context named by the WQE, for QP @qp_id. On
 * success @ctx holds it in host order and it is stored in the HMC object.
 */
static bool load_ctx(E810Core *core, const E810CqpWqe *w, uint32_t qp_id,
                     uint64_t *ctx, E810CqpResult *res)
{
    uint64_t pa = e810_wqe(w, E810_CQPSQ_QP_CTX_OFF);
    __le64 raw[E810_QP_CTX_SIZE / 8];
    const char *why = NULL;
    uint16_t minor;
    unsigned i;

    if ((pa & 7) || !e810_core_dma_read(core, pa, raw, sizeof(raw))) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_ADDR, "QP %u context at "
                     "0x%llx", qp_id, (unsigned long long)pa);
        return false;
    }
    for (i = 0; i < E810_QP_CTX_SIZE / 8; i++) {
        ctx[i] = le64toh(raw[i]);
    }
    minor = ctx_check(core, ctx, e810_wqe_hdr(w), &why);
    if (minor) {
        e810_cqp_err(core, res, minor, "QP %u: %s", qp_id, why);
        return false;
    }
    if (!e810_hmc_check_backed(core, E810_HMC_QP, qp_id, res)) {
        return false;
    }
    if (!e810_hmc_write(core, E810_HMC_QP, qp_id, 0, raw, sizeof(raw))) {
        e810_cqp_fail(core, res, E810_CQP_MAJ_OBJCACHE_ERROR, E810_CQP_MIN_HMC,
                      "QP %u context not stored", qp_id);
        return false;
    }
    return true;
}

/* Takes the fields the data path needs from a loaded context. */
static void apply_ctx(E810Qp *qp, const E810CqpWqe *w, const uint64_t *ctx)
{
    uint64_t hdr = e810_wqe_hdr(w);
    uint64_t cqs = ctxq(ctx, E810_QPC_CQ_OFF);

    memcpy(qp->ctx, ctx, sizeof(qp->ctx));
    qp->ctx_pa = e810_wqe(w, E810_CQPSQ_QP_CTX_OFF);
    qp->shadow_pa = e810_wqe(w, E810_CQPSQ_QP_DBSHADOW_OFF);
    qp->virt = hdr & E810_CQPSQ_QP_VQ;
    qp->compl_ctx = ctxq(ctx, E810_QPC_COMPL_CTX_OFF);
    qp->qs_handle = FIELD_GET(E810_QPC_QSHANDLE, ctxq(ctx, E810_QPC_QS_OFF));
    if (hdr & E810_CQPSQ_QP_CQNUMVALID) {
        qp->send_cq = FIELD_GET(E810_QPC_TXCQNUM, cqs);
        qp->recv_cq = FIELD_GET(E810_QPC_RXCQNUM, cqs);
    }
}

/*
 * MODIFY_QP state transitions (current state -> NEXTIWSTATE), one bit per
 * next state: the pairs upstream irdma sends the device for RoCEv2 QPs
 * (irdma_modify_qp_roce(), also reached from irdma_cm_disconn_true() and
 * irdma_destroy_qp() through irdma_modify_qp_to_err()):
 *
 *   IDLE  -> IDLE   the first INIT (irdma creates QPs in IDLE)
 *   IDLE  -> RTR    INIT -> RTR
 *   IDLE  -> ERROR  RESET or ERR from RESET or INIT
 *   RTR   -> RTS
 *   RTR   -> ERROR
 *   RTS   -> RTS    RTS -> RTS
 *   RTS   -> SQD
 *   RTS   -> ERROR  (before 6.7 irdma went through SQD first)
 *   SQD   -> RTS
 *   SQD   -> ERROR
 *   ERROR -> ERROR  ERR after the device moved the QP to ERROR on its own
 *                   (an error AE, before irdma_cm_disconn_true() ran)
 *
 * Nothing leaves ERROR but DESTROY_QP: irdma refuses INIT and RTR from a
 * state past IDLE. Everything else, next state 0 included (irdma always
 * names one), completes with E810_CQP_MIN_INVALID_STATE and changes
 * nothing.
 *
 * iWARP QPs take what irdma_modify_qp(), irdma_next_iw_state() and
 * irdma_hw_modify_qp()'s fallback send: IDLE -> RTS (the hand-off with
 * the TCP context), RTS -> CLOSING (SQD's code: a graceful close, or FIN
 * received) and CLOSING -> CLOSING, IDLE/RTS/CLOSING -> TERMINATE,
 * TERMINATE -> TERMINATE (the FIN after the Terminate), anything ->
 * ERROR (RESETCON for an abortive close).
 */
#define QPS(s) (1u << E810_QP_STATE_##s)
static const uint8_t iwarp_transitions[E810_QP_STATE_ERROR + 1] = {
    [E810_QP_STATE_IDLE] = QPS(IDLE) | QPS(RTS) | QPS(TERMINATE) |
                           QPS(ERROR),
    [E810_QP_STATE_RTS] = QPS(RTS) | QPS(SQD) | QPS(TERMINATE) | QPS(ERROR),
    [E810_QP_STATE_SQD] = QPS(SQD) | QPS(TERMINATE) | QPS(ERROR),
    [E810_QP_STATE_TERMINATE] = QPS(TERMINATE) | QPS(ERROR),
    [E810_QP_STATE_ERROR] = QPS(ERROR),
};
static const uint8_t roce_transitions[E810_QP_STATE_ERROR + 1] = {
    [E810_QP_STATE_IDLE] = QPS(IDLE) | QPS(RTR) | QPS(ERROR),
    [E810_QP_STATE_RTR] = QPS(RTS) | QPS(ERROR),
    [E810_QP_STATE_RTS] = QPS(RTS) | QPS(SQD) | QPS(ERROR),
    [E810_QP_STATE_SQD] = QPS(RTS) | QPS(ERROR),
    [E810_QP_STATE_ERROR] = QPS(ERROR),
};
#undef QPS

/* Per QP type (CQP QPTYPE); a type without a table modifies nothing. */
static const uint8_t *const qp_transitions[] = {
    [E810_QP_TYPE_IWARP] = iwarp_transitions,
    [E810_QP_TYPE_ROCE_RC] = roce_transitions,
    [E810_QP_TYPE_ROCE_UD] = roce_transitions,
};

bool e810_qp_transition_ok(unsigned type, unsigned cur, unsigned next)
{
    const uint8_t *t;

    if (type >= sizeof(qp_transitions) / sizeof(qp_transitions[0]) ||
        !qp_transitions[type] || cur > E810_QP_STATE_ERROR ||
        next > E810_QP_STATE_ERROR) {
        return false;
    }
    t = qp_transitions[type];
    return t[cur] & (1u << next);
}

/*
 * The QP types CREATE_QP takes, each in the state it is created in:
 * RoCEv2 RC and UD in IDLE; in iWARP mode (e810_iwarp.h) also iWARP QPs
 * in IDLE and the two UDA QPs of the driver's PUDA (ILQ, IEQ: upstream
 * irdma_puda_qp_create()), which start in RTS.
 */
static bool create_type_ok(E810Core *core, unsigned type, unsigned next,
                           E810CqpResult *res)
{
    bool iw = e810_iw_mode(core);
    bool idle = next == E810_QP_STATE_INVALID || next == E810_QP_STATE_IDLE;

    if (type == E810_QP_TYPE_ROCE_RC || type == E810_QP_TYPE_ROCE_UD ||
        (iw && type == E810_QP_TYPE_IWARP)) {
        if (idle) {
            return true;
        }
    } else if (iw && type == E810_QP_TYPE_UDA) {
        if (next == E810_QP_STATE_RTS) {
            return true;
        }
    } else {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_PARAM, "QP type %u: only "
                     "RoCEv2 RC and UD%s are modelled", type,
                     iw ? ", iWARP and UDA" : "");
        return false;
    }
    e810_cqp_err(core, res, E810_CQP_MIN_BAD_PARAM, "QP of type %u created "
                 "in state %u", type, next);
    return false;
}

/* A QP that may transmit is on a live RDMA qset (see the top). */
static void check_qs_handle(E810Core *core, const E810Qp *qp, uint32_t id)
{
    if (qp->state != E810_QP_STATE_RTR && qp->state != E810_QP_STATE_RTS &&
        qp->state != E810_QP_STATE_SQD) {
        return;
    }
    if (e810_sched_rdma_qset_live(core, qp->qs_handle) ||
        (core->parent_qs_valid && qp->qs_handle == core->parent_qs_handle)) {
        return;
    }
    core->rdma.stats.bad_qs_handles++;
    e810_core_log(core, E810_LOG_GUEST_ERROR, "QP %u: QS handle %u is no "
                  "RDMA qset of this function", id, qp->qs_handle);
}

void e810_op_create_qp(E810Core *core, const E810CqpWqe *w,
                       E810CqpResult *res)
{
    uint64_t hdr = e810_wqe_hdr(w);
    unsigned type = FIELD_GET(E810_CQPSQ_QP_QPTYPE, hdr);
    unsigned next = FIELD_GET(E810_CQPSQ_QP_NEXTIWSTATE, hdr);
    uint64_t ctx[E810_QP_CTX_SIZE / 8];
    E810Qp *qp = qp_slot(core, w, E810_CQPSQ_QP_QPID, false, res);
    uint32_t id;

    if (!qp || !create_type_ok(core, type, next, res)) {
        return;
    }
    id = qp - core->rdma.qp;
    if (!load_ctx(core, w, id, ctx, res)) {
        return;
    }
    /*
     * irdma hands a destroyed QP's id out again: the new QP starts with
     * fresh PSNs, no WQE in flight, no timer. DESTROY_QP dropped that
     * state already; dropping it here too keeps it so for any path that
     * did not.
     */
    e810_xport_qp_reset(core, id);
    e810_iw_conn_destroy(core, id);
    memset(qp, 0, sizeof(*qp));
    qp->valid = true;
    qp->type = type;
    qp->state = type == E810_QP_TYPE_UDA ? E810_QP_STATE_RTS :
                E810_QP_STATE_IDLE;
    apply_ctx(qp, w, ctx);
}

void e810_op_modify_qp(E810Core *core, const E810CqpWqe *w,
                       E810CqpResult *res)
{
    uint64_t hdr = e810_wqe_hdr(w);
    unsigned type = FIELD_GET(E810_CQPSQ_QP_QPTYPE, hdr);
    unsigned next = FIELD_GET(E810_CQPSQ_QP_NEXTIWSTATE, hdr);
    uint64_t ctx[E810_QP_CTX_SIZE / 8];
    E810Qp *qp = qp_slot(core, w, E810_CQPSQ_QP_QPID, true, res);
    uint32_t id;
    uint8_t old;

    if (!qp) {
        return;
    }
    id = qp - core->rdma.qp;
    if (type != qp->type) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_PARAM, "QP %u is of type "
                     "%u, not %u", id, qp->type, type);
        return;
    }
    if (next > E810_QP_STATE_ERROR) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_PARAM, "QP %u to state %u",
                     id, next);
        return;
    }
    if (!e810_qp_transition_ok(type, qp->state, next)) {
        if (type == E810_QP_TYPE_IWARP &&
            e810_iw_conn_refuse_late_close(core, qp, next)) {
            /* Expected by upstream irdma: refused, not a driver fault. */
            res->major = E810_CQP_MAJ_ERROR;
            res->minor = E810_CQP_MIN_INVALID_STATE;
            return;
        }
        core->rdma.stats.bad_qp_transitions++;
        e810_cqp_err(core, res, E810_CQP_MIN_INVALID_STATE, "QP %u: %s -> "
                     "%s is no transition irdma makes", id,
                     e810_qp_state_name(qp->state), e810_qp_state_name(next));
        return;
    }
    if (!load_ctx(core, w, id, ctx, res)) {
        return;
    }
    apply_ctx(qp, w, ctx);
    if (type == E810_QP_TYPE_IWARP && (hdr & E810_CQPSQ_QP_TOECTXVALID)) {
        e810_iw_qp_toe_loaded(qp, ctx);
    }
    if (type == E810_QP_TYPE_IWARP && (hdr & E810_CQPSQ_QP_REMOVEHASHENTRY)) {
        /* irdma_terminate_done(): ERROR, and the entry the QP had. */
        e810_iw_qp_remove_hash(core, qp, id, qp->ctx_pa);
    }
    if (type == E810_QP_TYPE_IWARP) {
        /* Offload, FIN, Terminate or RST before the new state applies. */
        e810_iw_conn_modify(core, qp, next, hdr, e810_wqe(w, 8));
    }
    old = qp->state;
    qp->state = next;
    /*
     * RTS -> SQD stops the SQ at a WQE boundary; the device tells when
     * the WQEs it had fetched are done: AE QP_SUSPEND_COMPLETE, which
     * upstream irdma_modify_qp_roce() waits for (irdma_wait_for_suspend(),
     * since 6.7; ibv_modify_qp() fails with EBUSY after 5 s without it).
     */
    qp->sqd_ae_due = old == E810_QP_STATE_RTS && next == E810_QP_STATE_SQD;
    e810_dp_qp_state(core, qp, old);
    e810_qp_sqd_drained(core, qp);
    if (next == E810_QP_STATE_RTS) {
        e810_dp_qp_sq_recover(core, qp);        /* UD SQE -> RTS */
    }
    check_qs_handle(core, qp, id);
}

void e810_qp_sqd_drained(E810Core *core, E810Qp *qp)
{
    if (!qp->sqd_ae_due || qp->state != E810_QP_STATE_SQD || qp->sq.pending) {
        return;
    }
    qp->sqd_ae_due = false;
    e810_qp_raise_ae(core, qp - core->rdma.qp, E810_AE_QP_SUSPEND_COMPLETE,
                     E810_AE_SOURCE_RSVD, 0);
}

void e810_op_destroy_qp(E810Core *core, const E810CqpWqe *w,
                        E810CqpResult *res)
{
    E810Qp *qp = qp_slot(core, w, E810_CQPSQ_QP_QPID, true, res);

    if (qp) {
        /*
         * Upstream irdma_destroy_qp() moves an RTS QP to ERROR first
         * (irdma_modify_qp_to_err()), so the device never sees a live QP
         * destroyed; whether the silicon refuses it is not known, so it
         * is done and counted (x-core-stats) for the scenarios to assert.
         */
        if (qp->state == E810_QP_STATE_RTS) {
            core->rdma.stats.destroy_live_qps++;
        }
        if (e810_wqe_hdr(w) & E810_CQPSQ_QP_REMOVEHASHENTRY) {
            e810_iw_qp_remove_hash(core, qp, qp - core->rdma.qp,
                                   e810_wqe(w, E810_CQPSQ_QP_CTX_OFF));
        }
        e810_xport_qp_reset(core, qp - core->rdma.qp);
        e810_iw_conn_destroy(core, qp - core->rdma.qp);
        e810_dp_qp_release(core, qp);
        memset(qp, 0, sizeof(*qp));
    }
}

void e810_op_upload_context(E810Core *core, const E810CqpWqe *w,
                            E810CqpResult *res)
{
    E810Qp *qp = qp_slot(core, w, E810_CQPSQ_UCTX_QPID, true, res);
    uint64_t pa = e810_wqe(w, E810_CQPSQ_UCTX_BUF_OFF);
    __le64 raw[E810_QP_CTX_SIZE / 8];
    unsigned i;

    if (!qp) {
        return;
    }
    for (i = 0; i < E810_QP_CTX_SIZE / 8; i++) {
        raw[i] = htole64(qp->ctx[i]);
    }
    if ((pa & 7) || !e810_core_dma_write(core, pa, raw, sizeof(raw))) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_ADDR, "upload buffer 0x%llx",
                     (unsigned long long)pa);
    }
}

void e810_op_flush_wqes(E810Core *core, const E810CqpWqe *w,
                        E810CqpResult *res)
{
    uint64_t hdr = e810_wqe_hdr(w);
    uint64_t ae = e810_wqe(w, E810_CQPSQ_FWQE_AE_OFF);
    E810Qp *qp = qp_slot(core, w, E810_CQPSQ_FWQE_QPID, true, res);
    uint32_t id;

    if (!qp) {
        return;
    }
    id = qp - core->rdma.qp;
    if (hdr & (E810_CQPSQ_FWQE_FLUSHSQ | E810_CQPSQ_FWQE_FLUSHRQ)) {
        uint64_t codes = e810_wqe(w, E810_CQPSQ_FWQE_CODES_OFF);
        uint16_t sq_maj = E810_CQE_MAJ_FLUSH, rq_maj = E810_CQE_MAJ_FLUSH;
        uint16_t sq_min = E810_FLUSH_GENERAL_ERR;
        uint16_t rq_min = E810_FLUSH_GENERAL_ERR;

        if (hdr & E810_CQPSQ_FWQE_USERFLCODE) {
            sq_maj = FIELD_GET(E810_CQPSQ_FWQE_SQMJERR, codes) ?: sq_maj;
            rq_maj = FIELD_GET(E810_CQPSQ_FWQE_RQMJERR, codes) ?: rq_maj;
            sq_min = FIELD_GET(E810_CQPSQ_FWQE_SQMNERR, codes);
            rq_min = FIELD_GET(E810_CQPSQ_FWQE_RQMNERR, codes);
        }
        res->minor = e810_dp_flush(core, qp,
                                   hdr & E810_CQPSQ_FWQE_FLUSHSQ,
                                   hdr & E810_CQPSQ_FWQE_FLUSHRQ,
                                   sq_maj, sq_min, rq_maj, rq_min);
    }
    if (hdr & E810_CQPSQ_FWQE_GENERATE_AE) {
        e810_qp_raise_ae(core, id, FIELD_GET(E810_CQPSQ_FWQE_AECODE, ae),
                         FIELD_GET(E810_CQPSQ_FWQE_AESOURCE, ae), 0);
    }
}

void e810_op_suspend_qp(E810Core *core, const E810CqpWqe *w,
                        E810CqpResult *res)
{
    E810Qp *qp = qp_slot(core, w, E810_CQPSQ_SUSPENDQP_QPID, true, res);

    if (!qp) {
        return;
    }
    qp->suspended = true;
    /* Nothing is in flight: the suspend completes at once (AE 0x0900). */
    e810_qp_raise_ae(core, qp - core->rdma.qp, E810_AE_QP_SUSPEND_COMPLETE,
                     E810_AE_SOURCE_RSVD, 0);
}

void e810_op_resume_qp(E810Core *core, const E810CqpWqe *w,
                       E810CqpResult *res)
{
    E810Qp *qp = qp_slot(core, w, E810_CQPSQ_RESUMEQP_QPID, true, res);

    if (!qp) {
        return;
    }
    qp->suspended = false;
    /* The handle field is 32 bits wide; QS handles are 10 bits. */
    qp->qs_handle = FIELD_GET(E810_CQPSQ_RESUMEQP_QSHANDLE,
                              e810_wqe(w, E810_CQPSQ_RESUMEQP_QS_OFF)) &
                    0x3ff;
    check_qs_handle(core, qp, qp - core->rdma.qp);
    /* Doorbells rung while suspended were not served. */
    e810_dp_sq_kick(core, qp - core->rdma.qp);
}
