// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * CQ side of the ring layer (docs/hw-reference.md 5.6, 5.7): CQE
 * decoding, polarity, SQ/RQ tail bookkeeping, GEN_2 flush synthesis,
 * arming and resize.
 */
#include "ring.h"

static uint8_t *cqe_at(const struct e810u_cq_ring *r, uint32_t idx)
{
	return r->buf + (size_t)idx * E810_CQE_SIZE;
}

static bool cqe_valid(const struct e810u_cq_ring *r, uint32_t idx,
		      uint8_t pol)
{
	return FIELD_GET(E810_CQE_VALID,
			 e810u_get64(cqe_at(r, idx), E810_CQE_HDR_OFF)) == pol;
}

static void ring_step(struct e810u_cq_ring *r)
{
	if (++r->head == r->size) {
		r->head = 0;
		r->pol = !r->pol;
	}
}

bool e810u_cq_ring_has_cqe(const struct e810u_cq_ring *r)
{
	return cqe_valid(r, r->head, r->pol);
}

void e810u_cq_ring_step(struct e810u_cq_ring *r, bool ext)
{
	ring_step(r);
	if (ext)
		ring_step(r);
}

/* Consumes the entry at head (and its extension) and tells the device. */
static void cq_consume(struct e810u_cq *cq, struct e810u_cq_ring *r, bool ext)
{
	e810u_cq_ring_step(r, ext);
	if (r == &cq->ring && cq->shadow)
		e810u_shadow_set(cq->shadow, E810_CQ_DBSA_HEAD_OFF / 8,
				 FIELD_PREP(E810_CQ_DBSA_CQEIDX, r->head));
}

static void decode_ext(const uint8_t *ext, struct e810u_cqe *out)
{
	uint64_t hdr = e810u_get64(ext, E810_CQE_EXT_HDR_OFF);
	uint64_t ud = e810u_get64(ext, E810_CQE_EXT_UD_OFF);
	uint64_t mac = FIELD_GET(E810_CQE_EXT_UDSMAC, ud);
	int i;

	out->imm_valid = hdr & E810_CQE_EXT_IMMVALID;
	if (out->imm_valid)
		out->imm = (uint32_t)e810u_get64(ext, E810_CQE_EXT_IMM_OFF);
	out->smac_valid = hdr & E810_CQE_EXT_UDSMACVALID;
	for (i = 0; i < 6; i++)
		out->smac[i] = mac >> (8 * (5 - i));
	out->vlan_valid = hdr & E810_CQE_EXT_UDVLANVALID;
	out->vlan = FIELD_GET(E810_CQE_EXT_UDVLAN, ud);
}

static enum e810u_status cqe_status(const struct e810u_cqe *c, bool err,
				    bool ud)
{
	if (!err)
		return E810U_OK;
	if (c->major == E810_CQE_MAJ_FLUSH)
		return E810U_FLUSHED;
	/* UD sends: majors 0xE... are informational (hw-reference 5.6) */
	if (c->sq && ud &&
	    (c->major & E810_CQE_MAJ_UD_SQ_IGNORE_MASK) ==
	    E810_CQE_MAJ_UD_SQ_IGNORE)
		return E810U_OK;
	return E810U_ERROR;
}

static void sq_report(struct e810u_qp *qp, uint32_t idx,
		      struct e810u_cqe *out)
{
	const struct e810u_sq_slot *slot = &qp->sq_slots[idx];

	out->wr_id = slot->wr_id;
	out->bytes = slot->bytes;
	out->op = slot->op;
	qp->sq_tail = (idx + slot->quanta) % qp->sq_quanta;
}

/*
 * GEN_2 flush: one hardware CQE stands for every WQE left on the ring,
 * reported one by one from the tail. Returns false when none is left.
 */
static bool sq_flush_next(struct e810u_qp *qp, struct e810u_cqe *out)
{
	while (qp->sq_tail != qp->sq_head &&
	       qp->sq_slots[qp->sq_tail].op == E810_OP_NOP)
		qp->sq_tail = (qp->sq_tail + qp->sq_slots[qp->sq_tail].quanta) %
			      qp->sq_quanta;
	if (qp->sq_tail == qp->sq_head)
		return false;
	sq_report(qp, qp->sq_tail, out);
	return true;
}

static bool sq_more_to_flush(struct e810u_qp *qp)
{
	uint32_t t = qp->sq_tail;

	while (t != qp->sq_head) {
		if (qp->sq_slots[t].op != E810_OP_NOP)
			return true;
		t = (t + qp->sq_slots[t].quanta) % qp->sq_quanta;
	}
	return false;
}

/*
 * The SQ side of a CQE: the WQE at quantum @idx, or for a flush the next
 * outstanding one. 0 with *out filled, -EAGAIN if there is nothing to
 * report; *advance is cleared while a flush CQE has more WQEs to cover.
 */
static int sq_cqe(struct e810u_qp *qp, uint32_t idx, struct e810u_cqe *out,
		  bool *advance)
{
	if (out->status == E810U_FLUSHED) {
		if (!sq_flush_next(qp, out))
			return -EAGAIN;
		*advance = !sq_more_to_flush(qp);
		return 0;
	}
	return e810u_sq_complete(qp, idx, out);
}

int e810u_sq_complete(struct e810u_qp *qp, uint32_t idx,
		      struct e810u_cqe *out)
{
	if (idx >= qp->sq_quanta || !qp->sq_slots[idx].quanta)
		return -EAGAIN;
	sq_report(qp, idx, out);
	return 0;
}

int e810u_rq_complete(struct e810u_qp *qp, uint32_t wqe_idx,
		      struct e810u_cqe *out)
{
	uint32_t idx = wqe_idx >> qp->rq_shift;

	if (idx >= qp->rq_size)
		return -EAGAIN;
	out->wr_id = qp->rq_wrid[idx];
	qp->rq_tail = (idx + 1) % qp->rq_size;
	return 0;
}

/*
 * The RQ side: the receive WQE the CQE names (a byte offset in units of
 * the RQ WQE size), or for a flush the oldest one posted; as sq_cqe().
 */
static int rq_cqe(struct e810u_qp *qp, uint32_t idx, struct e810u_cqe *out,
		  bool *advance)
{
	if (out->status != E810U_FLUSHED)
		return e810u_rq_complete(qp, idx, out);
	if (qp->rq_tail == qp->rq_head)
		return -EAGAIN;
	idx = qp->rq_tail;
	*advance = (idx + 1) % qp->rq_size == qp->rq_head;
	out->wr_id = qp->rq_wrid[idx];
	qp->rq_tail = (idx + 1) % qp->rq_size;
	return 0;
}

int e810u_cqe_peek(const struct e810u_cq_ring *r, struct e810u_cqe_raw *raw)
{
	const uint8_t *cqe = cqe_at(r, r->head);

	if (!cqe_valid(r, r->head, r->pol))
		return -ENOENT;
	/* the valid bit is read before the rest of the entry */
	e810u_rmb();
	raw->hdr = e810u_get64(cqe, E810_CQE_HDR_OFF);
	raw->ext = NULL;
	if (raw->hdr & E810_CQE_EXTCQE) {
		uint32_t n = (r->head + 1) % r->size;
		uint8_t pol = n ? r->pol : !r->pol;

		if (!cqe_valid(r, n, pol))
			return -ENOENT;	/* extension not written yet */
		e810u_rmb();
		raw->ext = cqe_at(r, n);
	}
	raw->qw0 = e810u_get64(cqe, E810_CQE_LEN_OFF);
	raw->ctx = e810u_get64(cqe, E810_CQE_CTX_OFF);
	raw->qw2 = e810u_get64(cqe, E810_CQE_QP_OFF);
	return 0;
}

void e810u_cqe_decode(const struct e810u_cqe_raw *raw, bool ud,
		      struct e810u_cqe *out)
{
	uint64_t hdr = raw->hdr, qw2 = raw->qw2;

	memset(out, 0, sizeof(*out));
	if (raw->ext)
		decode_ext(raw->ext, out);
	out->major = FIELD_GET(E810_CQE_MAJERR, hdr);
	out->minor = FIELD_GET(E810_CQE_MINERR, hdr);
	out->sq = hdr & E810_CQE_SQ;
	out->qp_id = FIELD_GET(E810_CQE_QPID, qw2);
	out->src_qpn = FIELD_GET(E810_CQE_UDSRCQPN, qw2);
	out->inv_stag = FIELD_GET(E810_CQE_INVSTAG, qw2);
	out->stag_valid = hdr & E810_CQE_STAG;
	out->ipv4 = hdr & E810_CQE_IPV4;
	out->solicited = hdr & E810_CQE_SOEVENT;
	out->status = cqe_status(out, hdr & E810_CQE_ERROR, ud);
	if (!out->sq) {
		out->op = FIELD_GET(E810_CQE_OP, hdr);
		if (out->status != E810U_FLUSHED)
			out->bytes = FIELD_GET(E810_CQE_PAYLDLEN, raw->qw0);
	}
}

/*
 * Decodes the CQE at the head of @r. Returns 0 with *out filled, -ENOENT if
 * the ring is empty, -EAGAIN if the entry was consumed without a completion
 * to report (destroyed QP, flush with nothing left, bad index).
 */
static int cq_poll_ring(struct e810u_cq *cq, struct e810u_cq_ring *r,
			struct e810u_cqe *out)
{
	struct e810u_cqe_raw raw;
	bool advance = true;
	struct e810u_qp *qp;
	uint32_t idx;
	int ret;

	ret = e810u_cqe_peek(r, &raw);
	if (ret)
		return ret;
	qp = (struct e810u_qp *)(uintptr_t)raw.ctx;
	if (!qp) {
		cq_consume(cq, r, raw.ext != NULL);
		return -EAGAIN;
	}
	e810u_cqe_decode(&raw, qp->ud, out);
	out->qp = qp;
	idx = FIELD_GET(E810_CQE_WQEIDX, raw.hdr);
	if (out->sq)
		ret = sq_cqe(qp, idx, out, &advance);
	else
		ret = rq_cqe(qp, idx, out, &advance);
	/* a flush CQE stays at the head until its ring is empty */
	if (ret || advance)
		cq_consume(cq, r, raw.ext != NULL);
	return ret;
}

/* The old buffers are done: SW_CQ_SELECT tells it (hw-reference 5.7). */
static void cq_report_resizes(struct e810u_cq *cq)
{
	uint64_t v;

	if (!cq->shadow)
		return;
	v = e810u_shadow_get(cq->shadow, E810_CQ_DBSA_ARM_OFF / 8);
	v = (v & ~E810_CQ_DBSA_SW_CQ_SELECT) |
	    FIELD_PREP(E810_CQ_DBSA_SW_CQ_SELECT,
		       FIELD_GET(E810_CQ_DBSA_SW_CQ_SELECT, v) +
		       cq->resizes_done);
	e810u_shadow_set(cq->shadow, E810_CQ_DBSA_ARM_OFF / 8, v);
	cq->resizes_done = 0;
}

int e810u_cq_poll_one(struct e810u_cq *cq, struct e810u_cqe *out)
{
	uint32_t budget;
	int ret;

	while (cq->draining) {
		ret = cq_poll_ring(cq, &cq->old, out);
		if (ret == 0)
			return 0;
		if (ret == -ENOENT) {
			cq->draining = false;
			cq->resizes_done++;
			cq_report_resizes(cq);
		}
	}
	/* skipped entries are bounded by the ring size */
	for (budget = cq->ring.size; budget; budget--) {
		ret = cq_poll_ring(cq, &cq->ring, out);
		if (ret != -EAGAIN)
			return ret;
	}
	return -ENOENT;
}

void e810u_cq_arm(struct e810u_cq *cq, bool solicited_only)
{
	uint64_t v = e810u_shadow_get(cq->shadow, E810_CQ_DBSA_ARM_OFF / 8);
	uint64_t seq = FIELD_GET(E810_CQ_DBSA_ARM_SEQ_NUM, v) + 1;

	v = FIELD_PREP(E810_CQ_DBSA_SW_CQ_SELECT,
		       FIELD_GET(E810_CQ_DBSA_SW_CQ_SELECT, v)) |
	    FIELD_PREP(E810_CQ_DBSA_ARM_SEQ_NUM, seq) |
	    E810_CQ_DBSA_ARM_NEXT_SE |
	    (solicited_only ? 0 : E810_CQ_DBSA_ARM_NEXT);
	e810u_shadow_set(cq->shadow, E810_CQ_DBSA_ARM_OFF / 8, v);
	/* the device reads the shadow area when the doorbell arrives */
	e810u_wmb();
	e810u_mmio_write32(cq->arm_db, cq->cq_id);
}

void e810u_cq_retire_old(struct e810u_cq *cq)
{
	struct e810u_cq_ring *r = &cq->old;

	if (!cq->draining || cqe_valid(r, r->head, r->pol))
		return;
	cq->draining = false;
	cq->resizes_done++;
	cq_report_resizes(cq);
}

void e810u_cq_resize_begin(struct e810u_cq *cq, uint8_t *buf, uint32_t size)
{
	cq->old = cq->ring;
	cq->draining = true;
	cq->ring.buf = buf;
	cq->ring.size = size;
	cq->ring.head = 0;
	cq->ring.pol = 1;
}

/*
 * Clears the completion context of the valid CQEs of @r that carry @ctx
 * (@by_qp_id: whose QP id is @key) so that polling skips them.
 */
static void ring_forget(struct e810u_cq_ring *r, bool by_qp_id, uint64_t key)
{
	uint32_t idx = r->head, n;
	uint8_t pol = r->pol;

	for (n = 0; n < r->size && cqe_valid(r, idx, pol); n++) {
		uint8_t *cqe = cqe_at(r, idx);
		unsigned int step = e810u_get64(cqe, E810_CQE_HDR_OFF) &
				    E810_CQE_EXTCQE ? 2 : 1;
		uint64_t v = by_qp_id ?
			     FIELD_GET(E810_CQE_QPID,
				       e810u_get64(cqe, E810_CQE_QP_OFF)) :
			     e810u_get64(cqe, E810_CQE_CTX_OFF);

		if (v == key)
			e810u_put64(cqe, E810_CQE_CTX_OFF, 0);
		while (step--) {
			if (++idx == r->size) {
				idx = 0;
				pol = !pol;
			}
		}
	}
}

void e810u_cq_forget(struct e810u_cq *cq, void *ctx)
{
	if (cq->draining)
		ring_forget(&cq->old, false, (uintptr_t)ctx);
	ring_forget(&cq->ring, false, (uintptr_t)ctx);
}

void e810u_cq_ring_forget_qp(struct e810u_cq_ring *r, uint32_t qp_id)
{
	ring_forget(r, true, qp_id);
}
