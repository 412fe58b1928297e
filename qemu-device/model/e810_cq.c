/*
 * Emulated E810: completion queues (including the CCQ, which is CQ 0).
 *
 * CQEs are 32-byte slots written with the ring's pass polarity in bit 63 of
 * the header qword (off 24), which is written after the rest of the entry.
 * Overflow check (CHKOVERFLOW): the device keeps the last consumer index it
 * read from shadow-area qword 0 and re-reads it only when the ring looks
 * full; at most size - 1 entries may be outstanding. An overflowing CQ gets
 * AE CQ_OPERATION_ERROR and writes no more CQEs.
 *
 * Arming (docs/hw-reference.md 5.7): the driver sets ARM_NEXT / ARM_NEXT_SE in
 * shadow qword 4, then writes the CQ id to CQARM (or doorbell page +0x40). The
 * work reads the arm word; the next CQE (or next solicited CQE when only
 * ARM_NEXT_SE is set) written afterwards raises one CEQE carrying the CQ
 * context on the CQ's CEQ, and disarms. An ARM_NEXT arm that finds CQEs beyond
 * the consumer index of shadow qword 0 raises the CEQE at once: a completion
 * that raced with the driver's last poll before re-arming is not left without
 * an event.
 *
 * CQACK: irdma writes it for every CEQE it takes off the CEQ
 * (irdma_sc_process_ceq() -> irdma_sc_cq_ack()). A CQ has at most one
 * CEQE in its CEQ that is not acknowledged yet; an event meanwhile (an arm
 * flood finding unconsumed CQEs each time) is held and written after the
 * CQACK. So a CEQ holds at most one entry per CQ, and irdma's CEQ (as many
 * entries as CQs, irdma_create_ceq()) cannot overflow. A CEQ sized smaller
 * than its CQs that is full gets no CEQE; the CQ gets AE 0x0203
 * (CQ_OPERATION_ERROR, the only CQ AE irdma_process_aeq() handles).
 *
 * Resize (MODIFY_CQ with CQRESIZE): the device switches to the new ring at
 * once and stops checking overflow until SW_CQ_SELECT moves, i.e. until the
 * driver has drained the old buffers and its head in the shadow area again
 * refers to the new ring.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <string.h>

#include "e810_core.h"

/*
 * The largest ring CQSIZE encodes. Upstream's max_hw_cq_size (1048575) is
 * what a verbs consumer may ask for, but on GEN_2 the providers make the
 * ring 2 x (cqe + 1) entries and upstream irdma passes a user ring's size
 * on unchecked: ibv_create_cq(max_cqe) reaches the device as 2097150
 * (pyverbs' test_create_cq). Which sizes the hardware refuses is not
 * public; the model takes what the field can say.
 */
#define CQ_MAX_SIZE     ((1u << 21) - 1)   /* CQSIZE is 21 bits */

E810Cq *e810_cq_get(E810Core *core, uint32_t cq_id)
{
    E810Rdma *r = &core->rdma;

    if (!r->cq || cq_id >= e810_hmc_count(core, E810_HMC_CQ) ||
        !r->cq[cq_id].valid) {
        return NULL;
    }
    return &r->cq[cq_id];
}

static bool read_shadow(E810Core *core, const E810Cq *cq, unsigned off,
                        uint64_t *val)
{
    if (!e810_core_dma_read(core, cq->shadow_pa + off, val, sizeof(*val))) {
        return false;
    }
    *val = le64toh(*val);
    return true;
}

/* ---- CQP ops ----------------------------------------------------------- */

/* Ring fields common to CREATE_CQ and MODIFY_CQ; false (and @res) if bad. */
static bool cq_ring_from_wqe(E810Core *core, const E810CqpWqe *w,
                             E810Ring *ring, E810CqpResult *res)
{
    uint64_t hdr = e810_wqe_hdr(w);
    uint32_t size = FIELD_GET(E810_CQPSQ_CQ_CQSIZE,
                              e810_wqe(w, E810_CQPSQ_CQ_SIZE_OFF));

    if (size < 1 || size > CQ_MAX_SIZE) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_SIZE, "CQ of %u entries",
                     size);
        return false;
    }
    if (hdr & E810_CQPSQ_CQ_AVOIDMEMCNFLCT) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_PARAM, "64-byte CQEs are a "
                     "GEN_3 feature");
        return false;
    }
    return e810_ring_setup(core, ring, size, hdr & E810_CQPSQ_CQ_VIRTMAP,
                           FIELD_GET(E810_CQPSQ_CQ_LPBLSIZE, hdr),
                           e810_wqe(w, E810_CQPSQ_CQ_PA_OFF),
                           FIELD_GET(E810_CQPSQ_CQ_FIRSTPMPBLIDX,
                                     e810_wqe(w, E810_CQPSQ_CQ_PBL_OFF)),
                           E810_CQE_SIZE, res);
}

/* The CQ named by a WQE header; NULL (and @res) if out of range. */
static E810Cq *cq_slot(E810Core *core, const E810CqpWqe *w,
                       E810CqpResult *res)
{
    uint32_t id = FIELD_GET(core->gen->cq_cqid, e810_wqe_hdr(w));

    if (id >= e810_hmc_count(core, E810_HMC_CQ)) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_INDEX, "CQ %u beyond the "
                     "committed count", id);
        return NULL;
    }
    return &core->rdma.cq[id];
}

/* A CQ going away (or its CEQ): its unacknowledged CEQE no longer counts. */
static void cq_drop_ceqe(E810Core *core, E810Cq *cq)
{
    E810Ceq *ceq = &core->rdma.ceq[cq->ceq_id];

    if (cq->ceqe_out && ceq->outstanding) {
        ceq->outstanding--;
    }
    cq->ceqe_out = false;
    cq->event_held = false;
}

void e810_op_create_cq(E810Core *core, const E810CqpWqe *w,
                       E810CqpResult *res)
{
    uint64_t hdr = e810_wqe_hdr(w);
    uint64_t shadow = e810_wqe(w, E810_CQPSQ_CQ_SHADOW_OFF);
    uint32_t ceq = FIELD_GET(core->gen->cq_ceqid, hdr);
    E810Cq *cq = cq_slot(core, w, res);
    E810Ring ring;

    if (!cq) {
        return;
    }
    if (cq->valid) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_STATE, "CQ %u exists",
                     (unsigned)(cq - core->rdma.cq));
        return;
    }
    if ((hdr & E810_CQPSQ_CQ_CEQIDVALID) && ceq >= E810_PE_MAX_CEQS) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_INDEX, "CEQ %u", ceq);
        return;
    }
    if (shadow & 7) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_ADDR, "shadow area 0x%llx",
                     (unsigned long long)shadow);
        return;
    }
    if (!cq_ring_from_wqe(core, w, &ring, res) ||
        !e810_hmc_check_backed(core, E810_HMC_CQ, cq - core->rdma.cq, res)) {
        return;
    }
    memset(cq, 0, sizeof(*cq));
    cq->valid = true;
    cq->ring = ring;
    cq->shadow_pa = shadow;
    cq->ctx = FIELD_GET(E810_CQPSQ_CQ_CQCTX,
                        e810_wqe(w, E810_CQPSQ_CQ_CTX_OFF));
    cq->ceq_valid = hdr & E810_CQPSQ_CQ_CEQIDVALID;
    cq->ceq_id = cq->ceq_valid ? ceq : 0;
    cq->ceqe_mask = hdr & E810_CQPSQ_CQ_ENCEQEMASK;
    cq->chk_overflow = hdr & E810_CQPSQ_CQ_CHKOVERFLOW;
    cq->read_threshold = FIELD_GET(E810_CQPSQ_CQ_SHADOW_READ_THRESHOLD,
                                   e810_wqe(w, E810_CQPSQ_CQ_THRESH_OFF));
}

void e810_op_modify_cq(E810Core *core, const E810CqpWqe *w,
                       E810CqpResult *res)
{
    uint64_t hdr = e810_wqe_hdr(w);
    E810Cq *cq = cq_slot(core, w, res);
    uint64_t arm;
    E810Ring ring;

    if (!cq) {
        return;
    }
    if (!cq->valid) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_STATE, "CQ %u does not "
                     "exist", (unsigned)(cq - core->rdma.cq));
        return;
    }
    if (hdr & E810_CQPSQ_CQ_CQRESIZE) {
        if (!cq_ring_from_wqe(core, w, &ring, res)) {
            return;
        }
        if (!read_shadow(core, cq, E810_CQ_DBSA_ARM_OFF, &arm)) {
            e810_cqp_err(core, res, E810_CQP_MIN_BAD_ADDR, "shadow area "
                         "unreadable");
            return;
        }
        cq->ring = ring;
        cq->sw_head = 0;
        cq->resize_pending = true;
        cq->sw_select = FIELD_GET(E810_CQ_DBSA_SW_CQ_SELECT, arm);
    }
    cq->chk_overflow = hdr & E810_CQPSQ_CQ_CHKOVERFLOW;
    cq->ceqe_mask = hdr & E810_CQPSQ_CQ_ENCEQEMASK;
    cq->read_threshold = FIELD_GET(E810_CQPSQ_CQ_SHADOW_READ_THRESHOLD,
                                   e810_wqe(w, E810_CQPSQ_CQ_THRESH_OFF));
}

void e810_op_destroy_cq(E810Core *core, const E810CqpWqe *w,
                        E810CqpResult *res)
{
    E810Cq *cq = cq_slot(core, w, res);

    if (!cq) {
        return;
    }
    if (!cq->valid) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_STATE, "CQ %u does not "
                     "exist", (unsigned)(cq - core->rdma.cq));
        return;
    }
    /* A queued arm for it is skipped (queued is clear). */
    cq_drop_ceqe(core, cq);
    memset(cq, 0, sizeof(*cq));
}

/* ---- CQEs -------------------------------------------------------------- */

/* True if @n more entries fit; refreshes the consumer index if needed. */
static bool cq_has_room(E810Core *core, E810Cq *cq, unsigned n)
{
    uint32_t size = cq->ring.size;
    uint64_t v;

    if (cq->resize_pending) {
        if (!read_shadow(core, cq, E810_CQ_DBSA_ARM_OFF, &v) ||
            FIELD_GET(E810_CQ_DBSA_SW_CQ_SELECT, v) == cq->sw_select) {
            return true;        /* old buffers still draining: no check */
        }
        cq->resize_pending = false;
    }
    if (!cq->chk_overflow) {
        return true;
    }
    if ((cq->ring.head + size - cq->sw_head) % size + n <= size - 1) {
        return true;
    }
    if (!read_shadow(core, cq, E810_CQ_DBSA_HEAD_OFF, &v)) {
        return false;
    }
    cq->sw_head = FIELD_GET(E810_CQ_DBSA_CQEIDX, v) % size;
    return (cq->ring.head + size - cq->sw_head) % size + n <= size - 1;
}

static void cq_overflow(E810Core *core, uint32_t cq_id, E810Cq *cq)
{
    E810Ae ae = {
        .code = E810_AE_CQ_OPERATION_ERROR,
        .source = E810_AE_SOURCE_CQ,
        .id = cq_id,
        .ctx = cq->ctx,
    };

    cq->error = true;
    core->rdma.stats.cq_overflows++;
    e810_core_log(core, E810_LOG_GUEST_ERROR, "CQ %u overflow: no more "
                  "CQEs", cq_id);
    e810_aeq_post(core, &ae);
}

/* Writes @cq's CEQE, or holds it while the last one is unacknowledged. */
static void cq_post_ceqe(E810Core *core, E810Cq *cq)
{
    E810Ceq *ceq = &core->rdma.ceq[cq->ceq_id];
    uint32_t id = cq - core->rdma.cq;

    if (cq->ceqe_out) {
        cq->event_held = true;
        core->rdma.stats.events_held++;
        return;
    }
    if (ceq->valid && ceq->outstanding >= ceq->ring.size) {
        E810Ae ae = {
            .code = E810_AE_CQ_OPERATION_ERROR,
            .source = E810_AE_SOURCE_CQ,
            .id = id,
            .ctx = cq->ctx,
        };

        ceq->overflows++;
        core->rdma.stats.events_dropped++;
        e810_core_log(core, E810_LOG_GUEST_ERROR, "CEQ %u full (%u "
                      "entries unacknowledged): event of CQ %u lost",
                      cq->ceq_id, ceq->outstanding, id);
        e810_aeq_post(core, &ae);
        return;
    }
    if (e810_ceq_post(core, cq->ceq_id, cq->ctx)) {
        cq->ceqe_out = true;
        ceq->outstanding++;
    }
}

/* Disarms the CQ and raises its CEQE. */
static void cq_event(E810Core *core, E810Cq *cq)
{
    cq->arm_next = false;
    cq->arm_se = false;
    cq->events++;
    if (cq->ceq_valid) {
        cq_post_ceqe(core, cq);
    }
}

/* Queues CQ @id for e810_cq_process_arms() (once). */
static void cq_queue(E810Core *core, uint32_t id, E810Cq *cq)
{
    E810Rdma *r = &core->rdma;
    uint32_t ncq = e810_hmc_count(core, E810_HMC_CQ);

    if (cq->queued || r->arm_count >= ncq) {
        return;
    }
    cq->queued = true;
    r->arm_fifo[(r->arm_head + r->arm_count++) % ncq] = id;
    e810_core_request_work(core, E810_WORK_CQ_ARM);
}

void e810_cq_ceq_destroyed(E810Core *core, uint32_t ceq_id)
{
    uint32_t i, ncq = e810_hmc_count(core, E810_HMC_CQ);

    for (i = 0; core->rdma.cq && i < ncq; i++) {
        E810Cq *cq = &core->rdma.cq[i];

        if (cq->valid && cq->ceq_valid && cq->ceq_id == ceq_id) {
            cq_drop_ceqe(core, cq);
        }
    }
}

/* Writes one slot: qwords 0..2 first, then the header with the valid bit. */
static bool write_slot(E810Core *core, E810Cq *cq, const struct e810_cqe *src)
{
    struct e810_cqe cqe = *src;
    uint64_t hdr = le64toh(cqe.qw[E810_QW(E810_CQE_HDR_OFF)]);
    uint64_t pa;

    hdr &= ~E810_CQE_VALID;
    if (cq->ring.polarity) {
        hdr |= E810_CQE_VALID;
    }
    cqe.qw[E810_QW(E810_CQE_HDR_OFF)] = htole64(hdr);
    if (!e810_ring_addr(core, &cq->ring, cq->ring.head, E810_CQE_SIZE, &pa) ||
        !e810_core_dma_write(core, pa, &cqe, E810_CQE_HDR_OFF) ||
        !e810_core_dma_write(core, pa + E810_CQE_HDR_OFF,
                             &cqe.qw[E810_QW(E810_CQE_HDR_OFF)], 8)) {
        return false;
    }
    e810_ring_advance(&cq->ring);
    return true;
}

bool e810_cq_post(E810Core *core, uint32_t cq_id, const struct e810_cqe *cqe,
                  unsigned n)
{
    E810Cq *cq = e810_cq_get(core, cq_id);
    bool solicited;
    unsigned i;

    if (!cq || n < 1 || n > 2) {
        e810_core_log(core, E810_LOG_GUEST_ERROR, "CQE for CQ %u, which does "
                      "not exist", cq_id);
        return false;
    }
    if (cq->error) {
        return false;
    }
    if (!cq_has_room(core, cq, n)) {
        cq_overflow(core, cq_id, cq);
        return false;
    }
    for (i = 0; i < n; i++) {
        if (!write_slot(core, cq, &cqe[i])) {
            e810_core_log(core, E810_LOG_GUEST_ERROR, "CQ %u: ring entry %u "
                          "unreachable", cq_id, cq->ring.head);
            return false;
        }
    }
    cq->cqes++;
    solicited = le64toh(cqe[0].qw[E810_QW(E810_CQE_HDR_OFF)]) &
                E810_CQE_SOEVENT;
    if (cq->arm_next || (cq->arm_se && solicited)) {
        cq_event(core, cq);
    }
    return true;
}

/* ---- doorbells --------------------------------------------------------- */

void e810_cq_arm_doorbell(E810Core *core, uint32_t val)
{
    E810Rdma *r = &core->rdma;
    uint32_t id = FIELD_GET(E810_CQARM_CQID, val);
    E810Cq *cq = e810_cq_get(core, id);

    if (!cq) {
        r->stats.bad_doorbells++;
        e810_core_log(core, E810_LOG_GUEST_ERROR, "CQ arm for CQ %u, which "
                      "does not exist", id);
        return;
    }
    /* Queued once: the work reads the latest arm word. */
    cq->arm_pending = true;
    cq_queue(core, id, cq);
}

void e810_cq_process_arms(E810Core *core)
{
    E810Rdma *r = &core->rdma;
    uint32_t ncq = e810_hmc_count(core, E810_HMC_CQ);
    uint64_t arm, head;
    E810Cq *cq;

    while (r->arm_count) {
        uint32_t id = r->arm_fifo[r->arm_head];

        r->arm_head = (r->arm_head + 1) % ncq;
        r->arm_count--;
        cq = e810_cq_get(core, id);
        if (!cq || !cq->queued) {
            continue;
        }
        cq->queued = false;
        /* The event held for the CQACK now that it came. */
        if (cq->event_held && !cq->ceqe_out) {
            cq->event_held = false;
            cq_post_ceqe(core, cq);
        }
        if (!cq->arm_pending) {
            continue;
        }
        cq->arm_pending = false;
        if (!read_shadow(core, cq, E810_CQ_DBSA_ARM_OFF, &arm)) {
            continue;
        }
        cq->arm_next = arm & E810_CQ_DBSA_ARM_NEXT;
        cq->arm_se = arm & E810_CQ_DBSA_ARM_NEXT_SE;
        /* CQEs the driver has not consumed yet: the event is due now. */
        if (cq->arm_next && !cq->error &&
            read_shadow(core, cq, E810_CQ_DBSA_HEAD_OFF, &head) &&
            FIELD_GET(E810_CQ_DBSA_CQEIDX, head) % cq->ring.size !=
            cq->ring.head) {
            cq_event(core, cq);
        }
    }
}

void e810_cq_ack(E810Core *core, uint32_t val)
{
    uint32_t id = FIELD_GET(E810_CQACK_CQID, val);
    E810Cq *cq = e810_cq_get(core, id);

    if (!cq) {
        core->rdma.stats.bad_doorbells++;
        e810_core_log(core, E810_LOG_GUEST_ERROR, "CQACK for CQ %u, which "
                      "does not exist", id);
        return;
    }
    cq->acks++;
    if (cq->ceqe_out) {
        E810Ceq *ceq = &core->rdma.ceq[cq->ceq_id];

        if (ceq->outstanding) {
            ceq->outstanding--;
        }
        cq->ceqe_out = false;
        if (cq->event_held) {
            cq_queue(core, id, cq);     /* the work writes it: no DMA here */
        }
    }
}
