/*
 * Emulated E810: SQ processing of the RDMA data path.
 *
 * The SQ doorbell (WQEALLOC, or user doorbell page +0) carries only the QP
 * id (docs/hw-reference.md 5.5): the MMIO hook queues the QP once in a FIFO and
 * asks for work. The work walks each queued QP's ring from the device's own
 * fetch position while the header valid bit of quantum 0 equals the pass
 * polarity (hw-reference 5.1/5.2), at most SQ_QP_BUDGET WQEs per QP per turn
 * and SQ_RUN_BUDGET per run, re-queueing a QP that has more, so one busy QP
 * cannot starve the others.
 *
 * A WQE is 1..8 quanta: inline length or ADDFRAGCNT gives the count, and
 * every quantum after the first must carry the pass polarity in its last
 * byte (fragment descriptor valid bit / inline valid byte). Local opcodes
 * (NOP, FAST_REG_MR, BIND_MW, LOCAL_INVALIDATE) run here; transport ones
 * go to e810_xport_send(). Each fetched WQE gets a slot (indexed by its first
 * quantum) until it is done; CQEs are written strictly in SQ order and only
 * for signalled WQEs -- the provider retires unsignalled ones implicitly
 * when it sees a later CQE. A fenced WQE waits until nothing is
 * outstanding. A malformed WQE or a failing local op makes the QP fatal
 * (e810_dp_qp_fatal): AE, ERROR, flush CQEs.
 *
 * The QP doorbell shadow area gets the next quantum the device will fetch
 * (hw-reference 5.1, read by rdma-core v37 to skip doorbells), written
 * before the device's last look at the ring (sq_turn).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <stdlib.h>
#include <string.h>

#include "e810_core.h"
#include "e810_dp.h"
#include "e810_iw_conn.h"

#define SQ_QP_BUDGET    32      /* WQEs per QP per turn */
#define SQ_RUN_BUDGET   512     /* WQEs per work run */
#define DB_QPID_MASK    0x7ffffu

static uint32_t qp_id_of(E810Core *core, const E810Qp *qp)
{
    return qp - core->rdma.qp;
}

/* ---- kicks ------------------------------------------------------------- */

void e810_dp_sq_kick(E810Core *core, uint32_t qp_id)
{
    E810Rdma *r = &core->rdma;
    uint32_t nqp = e810_hmc_count(core, E810_HMC_QP);
    E810Qp *qp = e810_qp_get(core, qp_id);

    if (!qp || !r->sq_fifo) {
        return;
    }
    qp->sq.stalled = false;
    qp->sq.kicks++;
    if (qp->sq.kick_pending || r->sq_count >= nqp) {
        return;
    }
    qp->sq.kick_pending = true;
    r->sq_fifo[(r->sq_head + r->sq_count++) % nqp] = qp_id;
    e810_core_request_work(core, E810_WORK_DP_SQ);
}

void e810_sq_doorbell(E810Core *core, uint32_t val)
{
    uint32_t id = val & DB_QPID_MASK;

    if (!e810_qp_get(core, id)) {
        core->rdma.stats.bad_doorbells++;
        e810_core_log(core, E810_LOG_GUEST_ERROR, "SQ doorbell for QP %u, "
                      "which does not exist", id);
        return;
    }
    e810_dp_sq_kick(core, id);
}

/* ---- ring geometry ------------------------------------------------------ */

static bool sq_setup(E810Core *core, E810Qp *qp)
{
    E810SqState *sq = &qp->sq;
    unsigned enc = FIELD_GET(E810_QPC_SQSIZE,
                             qp->ctx[E810_QW(E810_QPC_SIZES_OFF)]);

    if (sq->ready) {
        return true;
    }
    if (enc < E810_QPC_WQSIZE_ENC_MIN || enc > E810_QPC_WQSIZE_ENC_MAX) {
        return false;
    }
    free(sq->slots);
    memset(sq, 0, offsetof(E810SqState, kick_pending));
    sq->quanta = 1u << (enc + 2);
    sq->slots = calloc(sq->quanta, sizeof(*sq->slots));
    if (!sq->slots) {
        return false;
    }
    sq->base = qp->ctx[E810_QW(E810_QPC_SQADDR_OFF)];
    sq->fetch_pol = true;
    sq->ready = true;
    return true;
}

/* Host address of SQ quantum @idx. */
static bool sq_addr(E810Core *core, E810Qp *qp, uint32_t idx, uint64_t *pa)
{
    uint64_t off = (uint64_t)idx * E810_WQE_QUANTUM;

    if (!qp->virt) {
        *pa = qp->sq.base + off;
        return true;
    }
    return e810_pble_resolve(core, qp->sq.base, E810_LPBL_LEVEL1,
                             E810_HMC_PD_SHIFT, off, pa);
}

/* Reads quantum @idx as four host-order qwords, its valid word first. */
static bool read_quantum(E810Core *core, E810Qp *qp, uint32_t idx,
                         uint64_t q[4])
{
    uint64_t pa;
    unsigned i;

    if (!sq_addr(core, qp, idx, &pa) ||
        !e810_core_dma_read_entry(core, pa, q, E810_WQE_QUANTUM,
                                  E810_WQE_HDR_OFF)) {
        return false;
    }
    for (i = 0; i < 4; i++) {
        q[i] = le64toh(q[i]);
    }
    return true;
}

static void advance(E810SqState *sq, unsigned quanta)
{
    sq->fetch += quanta;
    if (sq->fetch >= sq->quanta) {
        sq->fetch -= sq->quanta;
        sq->fetch_pol = !sq->fetch_pol;
    }
}

static void write_shadow(E810Core *core, E810Qp *qp)
{
    uint64_t v = htole64(FIELD_PREP(E810_QP_DBSA_HW_SQ_TAIL, qp->sq.fetch));

    if (qp->shadow_pa) {
        e810_core_dma_write(core, qp->shadow_pa, &v, sizeof(v));
    }
}

/* ---- decoding ----------------------------------------------------------- */

/*
 * Quanta of a WQE from its header on generation @g; 0 if the header asks
 * for more than 8, or for more inline bytes than @g has.
 */
static unsigned wqe_quanta(const struct e810_hw_gen *g, uint64_t hdr)
{
    unsigned n;

    if (hdr & E810_WQE_INLINEDATAFLAG) {
        unsigned len = FIELD_GET(E810_WQE_INLINEDATALEN, hdr);

        if (len > g->max_inline) {
            return 0;
        }
        n = e810_gen_inline_quanta(g, len);
    } else {
        /* ADDFRAGCNT counts the fragments after fragment 0 */
        n = e810_frag_quanta(FIELD_GET(E810_WQE_ADDFRAGCNT, hdr) + 1);
    }
    return n <= E810_SQ_MAX_QUANTA ? n : 0;
}

static bool is_transport_op(unsigned op)
{
    switch (op) {
    case E810_OP_RDMA_WRITE:
    case E810_OP_RDMA_WRITE_SOL:
    case E810_OP_RDMA_READ:
    case E810_OP_RDMA_READ_LOC_INV:
    case E810_OP_SEND:
    case E810_OP_SEND_SOL:
    case E810_OP_SEND_INV:
    case E810_OP_SEND_SOL_INV:
        return true;
    default:
        return false;
    }
}

/* The opcodes a QP of this type may post; anything else is unexpected. */
static bool op_allowed(const E810Qp *qp, unsigned op)
{
    if (op == E810_OP_NOP) {
        return true;
    }
    if (qp->type == E810_QP_TYPE_ROCE_UD) {
        return op == E810_OP_SEND || op == E810_OP_SEND_SOL;
    }
    /* The CM's third connection WQE (irdma_sc_gen_rts_ae()). */
    if (qp->type == E810_QP_TYPE_IWARP && op == E810_IW_OP_GEN_RTS_AE) {
        return true;
    }
    return is_transport_op(op) || op == E810_OP_FAST_REG ||
           op == E810_OP_LOCAL_INV || op == E810_OP_BIND_MW;
}

/*
 * Fragment list (imm mode: all from byte 32; else frag 0 in quantum 0),
 * with the fragment descriptor fields of generation @g.
 */
static uint16_t decode_frags(const struct e810_hw_gen *g, E810SendWqe *w,
                             const uint64_t *q)
{
    unsigned add = FIELD_GET(E810_WQE_ADDFRAGCNT, w->hdr), k;
    uint64_t total = 0;

    for (k = w->imm_valid ? 1 : 0; k <= add; k++) {
        unsigned off = k ? E810_WQE_EXT_FRAG_OFF +
                           (k - 1) * E810_WQE_FRAG_SIZE : 0;
        uint64_t desc = q[E810_QW(off) + 1];
        uint32_t len = FIELD_GET(g->frag_len, desc);

        if (!len) {
            continue;       /* padding fragment, or an empty SGE */
        }
        w->sge[w->num_sge].addr = q[E810_QW(off)];
        w->sge[w->num_sge].len = len;
        w->sge[w->num_sge].lkey = FIELD_GET(g->frag_stag, desc);
        w->num_sge++;
        total += len;
    }
    if (total > E810_DP_MAX_MSG) {
        return E810_AE_WQE_INVALID_PARAMETER;
    }
    w->total_len = total;
    return 0;
}

/* Inline payload in generation @g's layout (e810_gen_inline_get()). */
static void decode_inline(const struct e810_hw_gen *g, E810SendWqe *w,
                          const uint64_t *q)
{
    unsigned len = FIELD_GET(E810_WQE_INLINEDATALEN, w->hdr), k;
    uint64_t le[E810_SQ_MAX_QUANTA * 4];

    /* q is host order; the inline bytes are the little-endian image. */
    for (k = 0; k < w->quanta * 4u; k++) {
        le[k] = htole64(q[k]);
    }
    w->inline_data = true;
    w->inline_len = len;
    e810_gen_inline_get(g, (const uint8_t *)le, w->inline_buf, len);
    w->total_len = len;
}

/*
 * Decodes the WQE of @quanta quanta in @q (host order). 0, or the AE code
 * of a malformed WQE.
 */
static uint16_t decode(E810Core *core, E810Qp *qp, uint32_t qp_id,
                       uint32_t idx, unsigned quanta, const uint64_t *q,
                       E810SendWqe *w)
{
    uint64_t hdr = q[E810_QW(E810_WQE_HDR_OFF)];
    uint64_t opq = q[E810_QW(E810_WQE_OPQ_OFF)];
    unsigned op = FIELD_GET(E810_WQE_OPCODE, hdr);

    memset(w, 0, offsetof(E810SendWqe, inline_buf));
    w->num_sge = 0;
    w->total_len = 0;
    w->qp_id = qp_id;
    w->wqe_idx = idx;
    w->quanta = quanta;
    w->opcode = op;
    w->hdr = hdr;
    w->opq = opq;
    if (!op_allowed(qp, op)) {
        return E810_AE_WQE_UNEXPECTED_OPCODE;
    }
    w->signaled = hdr & E810_WQE_SIGCOMPL;
    w->read_fence = hdr & E810_WQE_READFENCE;
    w->local_fence = (qp->type == E810_QP_TYPE_ROCE_RC ||
                      qp->type == E810_QP_TYPE_IWARP) &&
                     (hdr & E810_WQE_LOCALFENCE);
    w->solicited = op == E810_OP_SEND_SOL || op == E810_OP_SEND_SOL_INV ||
                   op == E810_OP_RDMA_WRITE_SOL;
    if (!is_transport_op(op)) {
        return 0;           /* local ops read their own qwords */
    }
    /* READ with local invalidate is for kernel QPs only (hw-reference 5.3). */
    if (op == E810_OP_RDMA_READ_LOC_INV &&
        !(qp->ctx[E810_QW(E810_QPC_FLAGS_OFF)] & E810_QPC_PRIVEN)) {
        return E810_AE_PRIV_OPERATION_DENIED;
    }
    if ((hdr & E810_WQE_IMMDATAFLAG) && op != E810_OP_RDMA_READ &&
        op != E810_OP_RDMA_READ_LOC_INV) {
        w->imm_valid = true;
        w->imm = (uint32_t)q[E810_QW(E810_WQE_IMM_OFF)];
    }
    switch (op) {
    case E810_OP_RDMA_READ_LOC_INV:
        /*
         * The STag invalidated is the data sink's: fragment 0's, as
         * irdma_uk_rdma_read() encodes no other (its inv_stag flag only
         * changes the opcode).
         */
        w->inv_stag = FIELD_GET(E810_WQE_FRAG_STAG,
                                q[E810_QW(E810_WQE_FRAG0_DESC_OFF)]);
        /* fall through */
    case E810_OP_RDMA_READ:
        if (hdr & E810_WQE_INLINEDATAFLAG) {
            return E810_AE_WQE_INVALID_PARAMETER;   /* nowhere to land */
        }
        /* fall through */
    case E810_OP_RDMA_WRITE:
    case E810_OP_RDMA_WRITE_SOL:
        w->remote_va = opq;
        w->rkey = FIELD_GET(E810_WQE_REMSTAG, hdr);
        break;
    case E810_OP_SEND_INV:
    case E810_OP_SEND_SOL_INV:
        w->inv_stag = FIELD_GET(E810_WQE_REMSTAG, hdr);
        break;
    default:
        break;
    }
    if (qp->type == E810_QP_TYPE_ROCE_UD) {
        w->ah_id = FIELD_GET(E810_WQE_AHID, hdr);
        w->qkey = FIELD_GET(E810_WQE_UD_QKEY, opq);
        w->dest_qpn = FIELD_GET(E810_WQE_UD_DESTQPN, opq);
    }
    if (hdr & E810_WQE_INLINEDATAFLAG) {
        decode_inline(core->gen, w, q);
        return 0;
    }
    return decode_frags(core->gen, w, q);
}

/* ---- completion tracking ------------------------------------------------ */

/* Writes the CQEs that are due, oldest first; stops at a failed WQE. */
static void sq_retire(E810Core *core, E810Qp *qp)
{
    E810SqState *sq = &qp->sq;

    while (sq->pending) {
        E810SqSlot *s = &sq->slots[sq->retire];

        if (!s->done || s->status) {
            break;
        }
        if (s->signaled) {
            e810_dp_sq_cqe(core, qp, sq->retire, s->opcode, 0, 0);
            sq->cqes++;
        }
        sq->retire = (sq->retire + s->quanta) & (sq->quanta - 1);
        sq->pending--;
        memset(s, 0, sizeof(*s));
    }
    e810_qp_sqd_drained(core, qp);
}

void e810_dp_complete_sq(E810Core *core, E810Qp *qp, const E810SendWqe *wqe,
                         uint16_t status, uint32_t bytes)
{
    E810SqState *sq = &qp->sq;
    E810SqSlot *s;

    if (!sq->ready || wqe->wqe_idx >= sq->quanta) {
        return;
    }
    s = &sq->slots[wqe->wqe_idx];
    if (!s->quanta || s->done) {
        return;     /* flushed meanwhile, or completed twice */
    }
    /* READ with local invalidate: the data is placed, the sink STag goes. */
    if (!status && wqe->opcode == E810_OP_RDMA_READ_LOC_INV) {
        e810_dp_invalidate(core, qp, wqe->inv_stag, false, &status);
    }
    s->done = true;
    s->status = status;
    sq_retire(core, qp);
    if (status) {
        e810_dp_qp_fatal(core, qp, status, E810_AE_SOURCE_SQ, wqe->wqe_idx);
        return;
    }
    /* A fenced WQE or a full ring may be waiting for exactly this. */
    if (sq->wait_retire) {
        sq->wait_retire = false;
        e810_dp_sq_kick(core, qp_id_of(core, qp));
    }
}

bool e810_sq_flush(E810Core *core, E810Qp *qp, uint16_t major,
                   uint16_t minor)
{
    E810SqState *sq = &qp->sq;
    uint32_t first, walked = 0;
    uint8_t op = 0;
    uint64_t q[4];
    bool any;

    if (!sq_setup(core, qp)) {
        return false;
    }
    sq_retire(core, qp);
    any = sq->pending;
    first = any ? sq->retire : sq->fetch;
    if (any) {
        op = sq->slots[sq->retire].opcode;
    }
    /*
     * Posted and never fetched: consumed by the flush, as by hardware.
     * The tail is published before the last look, as in sq_turn().
     */
    for (;;) {
        while (walked < sq->quanta && read_quantum(core, qp, sq->fetch, q) &&
               !!(q[3] & E810_WQE_VALID) == sq->fetch_pol) {
            unsigned n = wqe_quanta(core->gen, q[3]);

            if (!any) {
                op = FIELD_GET(E810_WQE_OPCODE, q[3]);
            }
            any = true;
            n = n ? n : 1;
            advance(sq, n);
            walked += n;
        }
        write_shadow(core, qp);
        if (walked >= sq->quanta || !read_quantum(core, qp, sq->fetch, q) ||
            !!(q[3] & E810_WQE_VALID) != sq->fetch_pol) {
            break;
        }
    }
    /* A long walk counts against the CQP run that asked for it. */
    core->rdma.cqp.run_cost += walked / E810_CQP_FLUSH_QUANTA;
    memset(sq->slots, 0, sq->quanta * sizeof(*sq->slots));
    sq->pending = 0;
    sq->retire = sq->fetch;
    if (any) {
        e810_dp_sq_cqe(core, qp, first, op, major, minor);
    }
    return any;
}

/* ---- processing --------------------------------------------------------- */

static void wqe_failed(E810Core *core, E810Qp *qp, uint32_t idx,
                       uint16_t ae)
{
    core->rdma.stats.sq_bad_wqes++;
    e810_core_log(core, E810_LOG_GUEST_ERROR, "QP %u SQ WQE at quantum %u: "
                  "AE 0x%04x", qp_id_of(core, qp), idx, ae);
    e810_dp_qp_fatal(core, qp, ae, E810_AE_SOURCE_SQ, idx);
}

/* Runs a local opcode; 0 or the AE code. */
static uint16_t local_op(E810Core *core, E810Qp *qp, const E810SendWqe *w,
                         const uint64_t *q)
{
    uint16_t st = 0;

    /* FAST_REG comes with PBLEs the driver just wrote. */
    e810_pble_cache_drop(core);
    switch (w->opcode) {
    case E810_OP_FAST_REG:
        return e810_mr_fast_reg(core, qp, q);
    case E810_OP_BIND_MW:
        return e810_mr_bind_mw(core, qp, q);
    case E810_OP_LOCAL_INV:
        e810_dp_invalidate(core, qp, FIELD_GET(E810_WQE_INV_STAG,
                           q[E810_QW(E810_WQE_FRAG0_DESC_OFF)]), false, &st);
        return st;
    case E810_IW_OP_GEN_RTS_AE:
        e810_iw_conn_sq_local(core, qp, w);
        return 0;
    default:
        return 0;           /* NOP */
    }
}

/*
 * Reads the WQE at the fetch position into @q (all its quanta, each with
 * the valid bit of this pass) and decodes it into @w. False if nothing
 * (more) is posted there, or if the WQE is bad: the QP was failed then.
 */
static bool fetch_wqe(E810Core *core, E810Qp *qp, uint64_t *q,
                      E810SendWqe *w, unsigned *quanta)
{
    E810SqState *sq = &qp->sq;
    uint32_t idx = sq->fetch, id = qp_id_of(core, qp);
    bool pol = sq->fetch_pol;
    unsigned k;
    uint16_t ae;

    if (!read_quantum(core, qp, idx, q)) {
        wqe_failed(core, qp, idx, E810_AE_LCE_QP_CATASTROPHIC);
        return false;
    }
    if (!!(q[3] & E810_WQE_VALID) != pol) {
        qp->sq.idle = true;     /* nothing (more) posted */
        return false;
    }
    *quanta = wqe_quanta(core->gen, q[3]);
    /* the generation's chunk (GEN_1: 2 quanta, so 3 fragments at most) */
    if (!*quanta || (idx % core->gen->sq_chunk_quanta) + *quanta >
        core->gen->sq_chunk_quanta) {
        wqe_failed(core, qp, idx, E810_AE_WQE_INVALID_FRAG_DATA);
        return false;
    }
    for (k = 1; k < *quanta; k++) {
        if (!read_quantum(core, qp, idx + k, q + 4 * k)) {
            wqe_failed(core, qp, idx, E810_AE_LCE_QP_CATASTROPHIC);
            return false;
        }
        /* GEN_1 quanta after the first carry no valid bit */
        if (core->gen->frag_valid &&
            !!(q[4 * k + 3] & E810_WQE_VALID) != pol) {
            wqe_failed(core, qp, idx, E810_AE_WQE_INVALID_FRAG_DATA);
            return false;
        }
    }
    ae = decode(core, qp, id, idx, *quanta, q, w);
    if (ae) {
        wqe_failed(core, qp, idx, ae);
        return false;
    }
    return true;
}

/*
 * True if the fetched WQE at @idx must wait for older ones to retire: a
 * fence with work outstanding, or a guest overwriting WQEs still
 * outstanding (the provider keeps 257 quanta free).
 */
static bool must_wait(E810SqState *sq, const E810SendWqe *w, uint32_t idx,
                      unsigned quanta)
{
    if ((w->read_fence || w->local_fence) && sq->pending) {
        sq->wait_retire = true;     /* resumed by the completion */
        return true;
    }
    if (sq->pending && ((idx - sq->retire - 1) & (sq->quanta - 1)) + 1 +
        quanta > sq->quanta) {
        sq->overruns++;
        sq->wait_retire = true;
        return true;
    }
    return false;
}

/*
 * Hands a tracked transport WQE (slot @s, fetched at @idx in pass @pol)
 * to the transport. One it does not take is untracked and fetched again
 * on the transport's kick (unless that kick already came while it was
 * refusing).
 */
static bool send_transport(E810Core *core, E810Qp *qp, E810SendWqe *w,
                           E810SqSlot *s, uint32_t idx, bool pol)
{
    E810SqState *sq = &qp->sq;
    uint32_t kicks = sq->kicks;

    if (e810_xport_send(core, qp, w)) {
        return qp->state == E810_QP_STATE_RTS && !qp->sq_error;
    }
    if (qp->state != E810_QP_STATE_RTS || qp->sq_error) {
        return false;   /* it failed the QP meanwhile: all flushed */
    }
    memset(s, 0, sizeof(*s));
    sq->pending--;
    sq->wqes--;
    core->rdma.stats.sq_wqes--;
    sq->fetch = idx;
    sq->fetch_pol = pol;
    sq->stalled = sq->kicks == kicks;
    return false;
}

/*
 * Fetches and starts one WQE. Returns false when the QP cannot go on now
 * (nothing posted, fence, transport full, error).
 */
static bool sq_step(E810Core *core, E810Qp *qp, E810SendWqe *w)
{
    E810SqState *sq = &qp->sq;
    uint32_t idx = sq->fetch;
    uint64_t q[E810_SQ_MAX_QUANTA * 4];
    bool pol = sq->fetch_pol;
    unsigned quanta;
    E810SqSlot *s;

    if (!fetch_wqe(core, qp, q, w, &quanta) ||
        must_wait(sq, w, idx, quanta)) {
        return false;
    }
    core->rdma.stats.sq_wqes++;
    sq->wqes++;
    /* Track it before anything can complete it (loopback is synchronous). */
    s = &sq->slots[idx];
    memset(s, 0, sizeof(*s));
    s->quanta = quanta;
    s->opcode = w->opcode;
    s->signaled = w->signaled;
    sq->pending++;
    advance(sq, quanta);
    if (!is_transport_op(w->opcode)) {
        e810_dp_complete_sq(core, qp, w, local_op(core, qp, w, q), 0);
        return qp->state == E810_QP_STATE_RTS && !qp->sq_error;
    }
    return send_transport(core, qp, w, s, idx, pol);
}

/* One turn of @qp: up to @budget WQEs. True if it has more to do. */
static bool sq_turn(E810Core *core, E810Qp *qp, unsigned budget,
                    unsigned *used)
{
    E810SendWqe w;
    bool more = false;

    *used = 0;
    if (qp->state == E810_QP_STATE_ERROR || qp->sq_error) {
        /* Work posted to a QP in error is flushed (hw-reference 5.6). */
        if (qp->flush_sq || qp->sq_error) {
            e810_sq_flush(core, qp, E810_CQE_MAJ_FLUSH,
                          E810_FLUSH_GENERAL_ERR);
        }
    } else if (qp->state == E810_QP_STATE_RTS && !qp->suspended &&
               !qp->sq.stalled) {
        if (!sq_setup(core, qp)) {
            e810_dp_qp_fatal(core, qp, E810_AE_WQE_INVALID_PARAMETER,
                             E810_AE_SOURCE_SQ, 0);
        } else {
            unsigned before = 0;
            bool published = false;

            /*
             * The provider skips its doorbell while the shadow tail says
             * the device is still behind its new WQEs (upstream
             * irdma_uk_qp_post_wr()). So a turn that stopped on an empty
             * quantum publishes the tail first and then looks at that
             * quantum again (the DMA read is ordered after the write): a
             * WQE written after the first look, by a provider that read
             * the older tail, is taken now instead of waiting forever.
             */
            do {
                before = *used;
                qp->sq.idle = false;
                while (*used < budget && sq_step(core, qp, &w)) {
                    (*used)++;
                }
                more = *used == budget;
                if (!published || *used != before) {
                    write_shadow(core, qp);
                    published = true;
                }
            } while (!more && qp->sq.idle && *used != before &&
                     qp->state == E810_QP_STATE_RTS && !qp->sq_error &&
                     !qp->suspended && !qp->sq.stalled);
        }
    }
    return more;
}

void e810_sq_process(E810Core *core)
{
    E810Rdma *r = &core->rdma;
    uint32_t nqp = e810_hmc_count(core, E810_HMC_QP);
    unsigned budget = SQ_RUN_BUDGET, turns = r->sq_count;

    while (turns-- && r->sq_count && budget) {
        uint32_t id = r->sq_fifo[r->sq_head];
        unsigned used;
        E810Qp *qp;

        r->sq_head = (r->sq_head + 1) % nqp;
        r->sq_count--;
        qp = e810_qp_get(core, id);
        if (!qp || !qp->sq.kick_pending) {
            continue;
        }
        qp->sq.kick_pending = false;
        if (sq_turn(core, qp, budget < SQ_QP_BUDGET ? budget : SQ_QP_BUDGET,
                    &used)) {
            e810_dp_sq_kick(core, id);
        }
        budget -= used;
    }
    if (r->sq_count) {
        e810_core_request_work(core, E810_WORK_DP_SQ);
    }
}
