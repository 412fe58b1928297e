// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: kernel SQ/RQ WQE encoding and CQE decoding (docs/hw-reference.md
 * 5.1-5.6).
 *
 * The rings are arrays of 32-byte quanta. A WQE's every quantum ends with
 * a qword whose bit 63 is the pass polarity (the header qword for quantum
 * 0, a fragment descriptor or the inline-valid byte for the others);
 * everything else is written first, then a write barrier, then the header.
 * SQ WQEs never cross an 8-quantum chunk (NOPs pad), and the ring keeps
 * 257 quanta of slack. The SQ doorbell names the QP only (WQEALLOC); the
 * RQ has none.
 *
 * Software tracking: sq_trk[] at a WQE's first quantum, rq_wrid[] per RQ
 * WQE. SQ CQEs name the first quantum of the completed WQE and imply
 * completion of everything before it.
 */

#include <linux/bitfield.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>

#include <hw/e810_ctx.h>
#include <hw/e810_regs.h>
#include <hw/e810_uk.h>

#include "mr.h"
#include "qp.h"

#define IRDMA_TRK_NOP		0xFF	/* sq_trk wc_op of a padding NOP */
#define IRDMA_CLEAR_WINDOW	(2 * E810_CLEAR_AHEAD_QUANTA)

static void irdma_wqe_set(void *wqe, size_t off, u64 val)
{
	WRITE_ONCE(*(__le64 *)(wqe + off), cpu_to_le64(val));
}

static u64 irdma_wqe_get(const void *wqe, size_t off)
{
	return le64_to_cpu(READ_ONCE(*(const __le64 *)(wqe + off)));
}

/*
 * Zeroes the @bytes of a WQE but its header. The device takes a WQE as soon
 * as the header's valid bit matches the pass, without waiting for a
 * doorbell (hw-reference 5.1): a header cleared to 0 is valid in every pass
 * of polarity 0, and the device would run the half-written WQE as a
 * zero-length RDMA WRITE and skip the real one. The header keeps last
 * pass's valid bit until it is written, last.
 */
static void irdma_wqe_clear(void *wqe, size_t bytes)
{
	memset(wqe, 0, E810_WQE_HDR_OFF);
	memset(wqe + E810_WQE_HDR_OFF + 8, 0, bytes - E810_WQE_HDR_OFF - 8);
}

static void irdma_put_frag(void *wqe, size_t off, u64 addr, u32 lkey, u32 len,
			   bool pol)
{
	irdma_wqe_set(wqe, off, addr);
	irdma_wqe_set(wqe, off + 8, FIELD_PREP(E810_WQE_FRAG_STAG, lkey) |
		      FIELD_PREP(E810_WQE_FRAG_LEN, len) |
		      (pol ? E810_WQE_FRAG_VALID : 0));
}

/*
 * Fragments from @first_off on (fragment k >= 1 at 32 + 16 (k - 1)); a
 * padding fragment when the count (with the immediate) is even. Returns
 * ADDFRAGCNT.
 */
static u32 irdma_put_sges(void *wqe, const struct ib_sge *sg, int num,
			  bool imm, bool pol)
{
	u32 n = num + imm, k = 0;
	size_t off;
	int i;

	for (i = 0; i < num; i++, k++) {
		/* Without an immediate SGE 0 is fragment 0 at off 0. */
		off = (!imm && i == 0) ? E810_WQE_FRAG0_ADDR_OFF :
		      E810_WQE_EXT_FRAG_OFF +
		      (size_t)(k + imm - 1) * E810_WQE_FRAG_SIZE;
		irdma_put_frag(wqe, off, sg[i].addr, sg[i].lkey, sg[i].length,
			       pol);
	}
	if (n && !(n & 1)) {
		off = E810_WQE_EXT_FRAG_OFF + (size_t)(n - 1) * E810_WQE_FRAG_SIZE;
		irdma_put_frag(wqe, off, 0, 0, 0, pol);
		return n;
	}
	if (!num && !imm)
		irdma_put_frag(wqe, E810_WQE_FRAG0_ADDR_OFF, 0, 0, 0, pol);
	return n ? n - 1 : 0;
}

/* Inline payload (e810_inline_put()); the valid bytes after the data. */
static int irdma_put_inline(void *wqe, const struct ib_sge *sg, int num,
			    bool pol)
{
	u32 pos = 0;
	int i;

	for (i = 0; i < num; i++) {
		e810_inline_put(wqe, pos, (const void *)(uintptr_t)sg[i].addr,
				sg[i].length);
		pos += sg[i].length;
	}
	e810_inline_set_valid(wqe, pos, pol);
	return pos;
}

static u32 irdma_sq_used(const struct irdma_kring *r)
{
	return (r->head - r->tail) & (r->size - 1);
}

static void *irdma_sq_slot(struct irdma_qp *qp, u32 idx)
{
	return qp->sq.va + (size_t)idx * E810_WQE_QUANTUM;
}

/* Makes the window 128 quanta ahead read invalid for its next pass. */
static void irdma_sq_clear_ahead(struct irdma_qp *qp)
{
	struct irdma_kring *r = &qp->sq;
	u32 at = r->head + E810_CLEAR_AHEAD_QUANTA;
	bool next_pol = r->polarity;

	if (r->size <= IRDMA_CLEAR_WINDOW || r->head % E810_CLEAR_AHEAD_QUANTA)
		return;
	if (at >= r->size) {
		at -= r->size;
		next_pol = !next_pol;
	}
	memset(irdma_sq_slot(qp, at), next_pol ? 0x00 : 0xFF,
	       E810_CLEAR_AHEAD_QUANTA * E810_WQE_QUANTUM);
}

static void irdma_sq_advance(struct irdma_kring *r, u32 quanta)
{
	r->head += quanta;
	if (r->head >= r->size) {
		r->head -= r->size;
		r->polarity = !r->polarity;
	}
}

/*
 * Room for a WQE of @quanta: pads the chunk with NOPs if needed, clears
 * ahead, and returns the WQE's first quantum index (or -ENOMEM).
 */
static int irdma_sq_reserve(struct irdma_qp *qp, u32 quanta, bool *pol)
{
	struct irdma_kring *r = &qp->sq;
	u32 in_chunk = r->head % E810_SQ_CHUNK_QUANTA;
	u32 pad = in_chunk + quanta > E810_SQ_CHUNK_QUANTA ?
		  E810_SQ_CHUNK_QUANTA - in_chunk : 0;
	u32 idx;
	void *w;

	if (irdma_sq_used(r) + pad + quanta > r->size - E810_SQ_SLACK_QUANTA)
		return -ENOMEM;
	while (pad--) {
		irdma_sq_clear_ahead(qp);
		idx = r->head;
		w = irdma_sq_slot(qp, idx);
		irdma_wqe_set(w, E810_WQE_FRAG0_ADDR_OFF, 0);
		irdma_wqe_set(w, E810_WQE_FRAG0_DESC_OFF, 0);
		irdma_wqe_set(w, E810_WQE_OPQ_OFF, 0);
		qp->sq_trk[idx] = (struct irdma_sq_trk){ .quanta = 1,
			.wc_op = IRDMA_TRK_NOP };
		dma_wmb();
		irdma_wqe_set(w, E810_WQE_HDR_OFF,
			      FIELD_PREP(E810_WQE_OPCODE, E810_OP_NOP) |
			      (r->polarity ? E810_WQE_VALID : 0));
		irdma_sq_advance(r, 1);
	}
	irdma_sq_clear_ahead(qp);
	idx = r->head;
	*pol = r->polarity;
	irdma_sq_advance(r, quanta);
	return idx;
}

static u32 irdma_sge_bytes(const struct ib_sge *sg, int num)
{
	u32 n = 0;
	int i;

	for (i = 0; i < num; i++)
		n += sg[i].length;
	return n;
}

static u8 irdma_access_rights(int access)
{
	u8 r = E810_ACCESS_LOCAL_READ;

	if (access & IB_ACCESS_LOCAL_WRITE)
		r |= E810_ACCESS_LOCAL_WRITE;
	if (access & IB_ACCESS_REMOTE_READ)
		r |= E810_ACCESS_REMOTE_READ;
	if (access & IB_ACCESS_REMOTE_WRITE)
		r |= E810_ACCESS_REMOTE_WRITE;
	return r;
}

/*
 * A send WR in device terms (upstream's struct irdma_post_sq_info): what
 * irdma_sq_wr_build() decided and irdma_sq_wqe_write() lays down.
 */
enum irdma_sq_body {
	IRDMA_SQ_BODY_DATA,	/* send, write, read: SGEs or inline data */
	IRDMA_SQ_BODY_LOCAL_INV,
	IRDMA_SQ_BODY_REG_MR,
};

struct irdma_sq_wr {
	u64 hdr;	/* header but ADDFRAGCNT and the valid bit */
	u64 opq;	/* op-specific qword of a data WQE */
	u32 bytes;	/* reported in the completion */
	u32 quanta;
	u8 wc_op;	/* enum ib_wc_opcode */
	u8 body;	/* enum irdma_sq_body */
	bool imm;
	bool inl;
};

/**
 * irdma_reg_mr_hdr() - header of a fast-register WQE
 * @rw: the IB_WR_REG_MR work request
 * @hdr: set to the opcode, STag, PBL level, page size and access rights
 *
 * Context: Any context.
 * Return: 0, or -EINVAL for a page size without a device code.
 */
static int irdma_reg_mr_hdr(const struct ib_reg_wr *rw, u64 *hdr)
{
	struct irdma_mr *mr = to_irdma_mr(rw->mr);
	u8 hps;

	switch (ilog2(rw->mr->page_size)) {
	case 12:
		hps = E810_HPAGE_4K;
		break;
	case 21:
		hps = E810_HPAGE_2M;
		break;
	case 30:
		hps = E810_HPAGE_1G;
		break;
	default:
		return -EINVAL;
	}
	*hdr = FIELD_PREP(E810_WQE_OPCODE, E810_OP_FAST_REG) |
	       FIELD_PREP(E810_WQE_FR_STAGKEY, rw->key & 0xFF) |
	       FIELD_PREP(E810_WQE_FR_STAGINDEX, rw->key >> 8) |
	       FIELD_PREP(E810_WQE_FR_LPBLSIZE, mr->level) |
	       FIELD_PREP(E810_WQE_FR_HPAGESIZE, hps) |
	       FIELD_PREP(E810_WQE_STAGRIGHTS, irdma_access_rights(rw->access)) |
	       E810_WQE_VABASEDTO;
	return 0;
}

/**
 * irdma_sq_wr_mem_op() - translate a LOCAL_INV or REG_MR work request
 * @ud: the QP is a UD QP
 * @wr: the work request
 * @s: its translation (one quantum, no payload)
 *
 * Context: Any context.
 * Return: 0, or -EINVAL on a UD QP or for an unsupported page size.
 */
static int irdma_sq_wr_mem_op(bool ud, const struct ib_send_wr *wr,
			      struct irdma_sq_wr *s)
{
	if (ud)
		return -EINVAL;
	s->quanta = 1;
	s->bytes = 0;
	if (wr->opcode == IB_WR_LOCAL_INV) {
		s->body = IRDMA_SQ_BODY_LOCAL_INV;
		s->hdr = FIELD_PREP(E810_WQE_OPCODE, E810_OP_LOCAL_INV);
		s->wc_op = IB_WC_LOCAL_INV;
		return 0;
	}
	s->body = IRDMA_SQ_BODY_REG_MR;
	s->wc_op = IB_WC_REG_MR;
	return irdma_reg_mr_hdr(reg_wr(wr), &s->hdr);
}

/**
 * irdma_sq_wr_opcode() - device opcode and remote fields of a data WR
 * @ud: the QP is a UD QP (sends only)
 * @wr: a send, RDMA write or RDMA read work request
 * @s: its translation: imm, opq, and in hdr the opcode and remote STag
 *
 * Context: Any context.
 * Return: 0, or -EINVAL for an opcode the QP type (or inline data, for a
 * read) does not allow.
 */
static int irdma_sq_wr_opcode(bool ud, const struct ib_send_wr *wr,
			      struct irdma_sq_wr *s)
{
	bool sol = wr->send_flags & IB_SEND_SOLICITED;
	u8 op;

	switch (wr->opcode) {
	case IB_WR_SEND_WITH_IMM:
		s->imm = true;
		fallthrough;
	case IB_WR_SEND:
		op = sol ? E810_OP_SEND_SOL : E810_OP_SEND;
		s->wc_op = IB_WC_SEND;
		break;
	case IB_WR_SEND_WITH_INV:
		if (ud)
			return -EINVAL;
		op = sol ? E810_OP_SEND_SOL_INV : E810_OP_SEND_INV;
		s->hdr |= FIELD_PREP(E810_WQE_REMSTAG, wr->ex.invalidate_rkey);
		s->wc_op = IB_WC_SEND;
		break;
	case IB_WR_RDMA_WRITE_WITH_IMM:
		s->imm = true;
		fallthrough;
	case IB_WR_RDMA_WRITE:
		if (ud)
			return -EINVAL;
		op = sol ? E810_OP_RDMA_WRITE_SOL : E810_OP_RDMA_WRITE;
		s->opq = rdma_wr(wr)->remote_addr;
		s->hdr |= FIELD_PREP(E810_WQE_REMSTAG, rdma_wr(wr)->rkey);
		s->wc_op = IB_WC_RDMA_WRITE;
		break;
	case IB_WR_RDMA_READ_WITH_INV:
	case IB_WR_RDMA_READ:
		if (ud || s->inl)
			return -EINVAL;
		/*
		 * irdma_uk_rdma_read() with inv_stag: only the opcode differs;
		 * the device invalidates the sink's STag (fragment 0's lkey)
		 * once the data is placed, ex.invalidate_rkey is not used.
		 */
		op = wr->opcode == IB_WR_RDMA_READ ? E810_OP_RDMA_READ :
						     E810_OP_RDMA_READ_LOC_INV;
		s->opq = rdma_wr(wr)->remote_addr;
		s->hdr |= FIELD_PREP(E810_WQE_REMSTAG, rdma_wr(wr)->rkey);
		s->wc_op = IB_WC_RDMA_READ;
		break;
	default:
		return -EINVAL;
	}
	s->hdr |= FIELD_PREP(E810_WQE_OPCODE, op);
	return 0;
}

/**
 * irdma_sq_wr_data() - translate a send, RDMA write or RDMA read
 * @qp: the kernel QP
 * @wr: the work request
 * @s: its translation; bytes and inl already set
 *
 * Context: Any context.
 * Return: 0, or -EINVAL (opcode, or inline data over the QP's limit).
 */
static int irdma_sq_wr_data(struct irdma_qp *qp, const struct ib_send_wr *wr,
			    struct irdma_sq_wr *s)
{
	bool ud = irdma_qp_is_ud(qp);
	int err;

	err = irdma_sq_wr_opcode(ud, wr, s);
	if (err)
		return err;
	if (ud) {
		s->opq = FIELD_PREP(E810_WQE_UD_QKEY, ud_wr(wr)->remote_qkey) |
			 FIELD_PREP(E810_WQE_UD_DESTQPN, ud_wr(wr)->remote_qpn);
		s->hdr |= FIELD_PREP(E810_WQE_AHID,
				     to_irdma_ah(ud_wr(wr)->ah)->ah_id);
	}
	if (s->imm)
		s->hdr |= E810_WQE_IMMDATAFLAG;
	if (s->inl) {
		if (s->bytes > qp->cap.max_inline_data)
			return -EINVAL;
		s->quanta = e810_inline_quanta(s->bytes);
		s->hdr |= E810_WQE_INLINEDATAFLAG |
			  FIELD_PREP(E810_WQE_INLINEDATALEN, s->bytes);
	} else {
		s->quanta = e810_frag_quanta(wr->num_sge + s->imm);
	}
	return 0;
}

/**
 * irdma_sq_wr_build() - translate and check one send WR
 * @qp: the kernel QP
 * @wr: the work request
 * @s: filled: header fields and flags, op-specific qword, size in quanta,
 *	byte count and completion opcode
 *
 * Nothing touches the ring: every refusal comes before space is reserved.
 *
 * Context: Any context.
 * Return: 0 or -EINVAL.
 */
static int irdma_sq_wr_build(struct irdma_qp *qp, const struct ib_send_wr *wr,
			     struct irdma_sq_wr *s)
{
	int err;

	memset(s, 0, sizeof(*s));
	if (wr->num_sge < 0 || wr->num_sge > qp->cap.max_send_sge)
		return -EINVAL;
	s->bytes = irdma_sge_bytes(wr->sg_list, wr->num_sge);
	s->inl = wr->send_flags & IB_SEND_INLINE;
	if (wr->opcode == IB_WR_LOCAL_INV || wr->opcode == IB_WR_REG_MR)
		err = irdma_sq_wr_mem_op(irdma_qp_is_ud(qp), wr, s);
	else
		err = irdma_sq_wr_data(qp, wr, s);
	if (err)
		return err;
	if ((wr->send_flags & IB_SEND_SIGNALED) ||
	    qp->sq_sig_type == IB_SIGNAL_ALL_WR)
		s->hdr |= E810_WQE_SIGCOMPL;
	if (wr->send_flags & IB_SEND_FENCE)
		s->hdr |= E810_WQE_READFENCE;
	return 0;
}

/**
 * irdma_put_local_inv() - body of a local-invalidate WQE
 * @w: its quantum
 * @stag: the STag to invalidate
 *
 * Context: Any context.
 */
static void irdma_put_local_inv(void *w, u32 stag)
{
	irdma_wqe_set(w, 0, 0);
	irdma_wqe_set(w, 8, FIELD_PREP(E810_WQE_INV_STAG, stag));
	irdma_wqe_set(w, 16, 0);
}

/**
 * irdma_put_reg_mr() - body of a fast-register WQE (hw-reference 5.3)
 * @w: its quantum
 * @rw: the IB_WR_REG_MR work request
 *
 * Context: Any context.
 */
static void irdma_put_reg_mr(void *w, const struct ib_reg_wr *rw)
{
	struct irdma_mr *mr = to_irdma_mr(rw->mr);
	u32 pble = mr->pble;

	irdma_wqe_set(w, 0, rw->mr->iova);
	irdma_wqe_set(w, 8, (mr->pa & E810_WQE_FR_PBLADDR) |
		      FIELD_PREP(E810_WQE_FR_PBLIDX_HI, pble >> 16));
	irdma_wqe_set(w, 16, FIELD_PREP(E810_WQE_FR_LEN, rw->mr->length) |
		      FIELD_PREP(E810_WQE_FR_PBLIDX_LO, pble & 0xFFFF));
}

/**
 * irdma_put_data() - body of a send, RDMA write or RDMA read WQE
 * @w: its first quantum (@s->quanta of them reserved)
 * @wr: the work request (SGEs, immediate data)
 * @s: its translation
 * @pol: the WQE's pass polarity
 *
 * Context: Any context.
 * Return: the header's ADDFRAGCNT field (0 with inline data).
 */
static u64 irdma_put_data(void *w, const struct ib_send_wr *wr,
			  const struct irdma_sq_wr *s, bool pol)
{
	u32 addfrag;

	irdma_wqe_clear(w, (size_t)s->quanta * E810_WQE_QUANTUM);
	if (s->imm)
		irdma_wqe_set(w, E810_WQE_IMM_OFF,
			      be32_to_cpu(wr->ex.imm_data));
	irdma_wqe_set(w, E810_WQE_OPQ_OFF, s->opq);
	if (s->inl) {
		irdma_put_inline(w, wr->sg_list, wr->num_sge, pol);
		return 0;
	}
	addfrag = irdma_put_sges(w, wr->sg_list, wr->num_sge, s->imm, pol);
	return FIELD_PREP(E810_WQE_ADDFRAGCNT, addfrag);
}

/**
 * irdma_sq_wqe_write() - lay a translated send WR down in the SQ
 * @qp: the kernel QP
 * @wr: the work request
 * @s: its translation
 * @idx: the WQE's first quantum, reserved by irdma_sq_reserve()
 * @pol: its pass polarity
 *
 * The body and the tracking entry first, then a write barrier, then the
 * header with the valid bit: from then on the device may fetch the WQE.
 *
 * Context: Any context; caller holds qp->lock.
 */
static void irdma_sq_wqe_write(struct irdma_qp *qp,
			       const struct ib_send_wr *wr,
			       const struct irdma_sq_wr *s, u32 idx, bool pol)
{
	void *w = irdma_sq_slot(qp, idx);
	u64 hdr = s->hdr;

	switch (s->body) {
	case IRDMA_SQ_BODY_LOCAL_INV:
		irdma_put_local_inv(w, wr->ex.invalidate_rkey);
		break;
	case IRDMA_SQ_BODY_REG_MR:
		irdma_put_reg_mr(w, reg_wr(wr));
		break;
	default:
		hdr |= irdma_put_data(w, wr, s, pol);
		break;
	}
	qp->sq_trk[idx] = (struct irdma_sq_trk){
		.wr_id = wr->wr_id,
		.bytes = s->bytes,
		.quanta = s->quanta,
		.wc_op = s->wc_op,
		.signaled = !!(hdr & E810_WQE_SIGCOMPL),
	};
	dma_wmb();
	irdma_wqe_set(w, E810_WQE_HDR_OFF, hdr | (pol ? E810_WQE_VALID : 0));
}

/**
 * irdma_post_one_send() - check, reserve and write one send WR
 * @qp: the kernel QP; caller holds qp->lock
 * @wr: the work request
 *
 * Context: Any context.
 * Return: 0, -EINVAL (the WR), or -ENOMEM (SQ full).
 */
static int irdma_post_one_send(struct irdma_qp *qp, const struct ib_send_wr *wr)
{
	struct irdma_sq_wr s;
	bool pol;
	int idx, err;

	err = irdma_sq_wr_build(qp, wr, &s);
	if (err)
		return err;
	idx = irdma_sq_reserve(qp, s.quanta, &pol);
	if (idx < 0)
		return idx;
	irdma_sq_wqe_write(qp, wr, &s, idx, pol);
	return 0;
}

/* The SQ doorbell of a kernel QP; caller holds qp->lock. */
void irdma_sq_ring(struct irdma_qp *qp)
{
	/* WQEs visible before the doorbell. */
	wmb();
	irdma_wr32(qp->rf, E810_WQEALLOC, qp->qp_id);
}

/**
 * irdma_post_send() - post kernel send WRs and ring the SQ doorbell
 * @ibqp: a kernel QP in RTS, SQD, SQE or ERR (then the WRs are flushed)
 * @wr: the chain
 * @bad_wr: the first WR not posted
 *
 * Context: Any context.
 * Return: 0 or a negative errno (-ENOMEM: SQ full).
 */
int irdma_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		    const struct ib_send_wr **bad_wr)
{
	struct irdma_qp *qp = to_irdma_qp(ibqp);
	enum ib_qp_state state = READ_ONCE(qp->state);
	unsigned long flags;
	bool posted = false, flush;
	int err = 0;

	if (qp->user || state == IB_QPS_RESET || state == IB_QPS_INIT ||
	    state == IB_QPS_RTR) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&qp->lock, flags);
	for (; wr; wr = wr->next) {
		err = irdma_post_one_send(qp, wr);
		if (err) {
			*bad_wr = wr;
			break;
		}
		posted = true;
	}
	/* Recovering from SQE, new WQEs go to the device again. */
	flush = qp->flush_sq && !qp->sq_draining;
	if (posted && !flush)
		irdma_sq_ring(qp);
	spin_unlock_irqrestore(&qp->lock, flags);
	if (posted && flush)
		irdma_cq_kick(qp->scq);
	return err;
}

/**
 * irdma_post_recv() - post kernel receive WRs (no doorbell on GEN_2)
 * @ibqp: a kernel QP not in RESET
 * @wr: the chain
 * @bad_wr: the first WR not posted
 *
 * Context: Any context.
 * Return: 0 or a negative errno (-ENOMEM: RQ full).
 */
int irdma_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		    const struct ib_recv_wr **bad_wr)
{
	struct irdma_qp *qp = to_irdma_qp(ibqp);
	struct irdma_kring *r = &qp->rq;
	unsigned long flags;
	bool posted = false, flush;
	int err = 0;
	u32 addfrag;
	void *w;

	if (qp->user || READ_ONCE(qp->state) == IB_QPS_RESET) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&qp->lock, flags);
	for (; wr; wr = wr->next) {
		if (wr->num_sge < 0 || wr->num_sge > qp->cap.max_recv_sge ||
		    e810_frag_quanta(wr->num_sge) > (1U << qp->rq_shift)) {
			err = -EINVAL;
		} else if (((r->head - r->tail) & (r->size - 1)) >=
			   r->size - 1) {
			err = -ENOMEM;
		}
		if (err) {
			*bad_wr = wr;
			break;
		}
		w = r->va + ((size_t)r->head << (qp->rq_shift +
						 E810_WQE_QUANTUM_SHIFT));
		irdma_wqe_clear(w, E810_WQE_QUANTUM << qp->rq_shift);
		addfrag = irdma_put_sges(w, wr->sg_list, wr->num_sge, false,
					 r->polarity);
		qp->rq_wrid[r->head] = wr->wr_id;
		dma_wmb();
		irdma_wqe_set(w, E810_WQE_HDR_OFF,
			      FIELD_PREP(E810_WQE_ADDFRAGCNT, addfrag) |
			      (r->polarity ? E810_WQE_VALID : 0));
		if (++r->head == r->size) {
			r->head = 0;
			r->polarity = !r->polarity;
		}
		posted = true;
	}
	flush = qp->flush_rq;
	spin_unlock_irqrestore(&qp->lock, flags);
	if (posted && flush)
		irdma_cq_kick(qp->rcq);
	return err;
}

/* ---- completions -------------------------------------------------------- */

static enum ib_wc_status irdma_flush_status(u16 minor)
{
	switch (minor) {
	case E810_FLUSH_PROT_ERR:
		return IB_WC_LOC_PROT_ERR;
	case E810_FLUSH_REM_ACCESS_ERR:
		return IB_WC_REM_ACCESS_ERR;
	case E810_FLUSH_LOC_QP_OP_ERR:
		return IB_WC_LOC_QP_OP_ERR;
	case E810_FLUSH_REM_OP_ERR:
		return IB_WC_REM_OP_ERR;
	case E810_FLUSH_LOC_LEN_ERR:
		return IB_WC_LOC_LEN_ERR;
	case E810_FLUSH_FATAL_ERR:
		return IB_WC_FATAL_ERR;
	case E810_FLUSH_RETRY_EXC_ERR:
		return IB_WC_RETRY_EXC_ERR;
	case E810_FLUSH_MW_BIND_ERR:
		return IB_WC_MW_BIND_ERR;
	case E810_FLUSH_REM_INV_REQ_ERR:
		return IB_WC_REM_INV_REQ_ERR;
	case E810_FLUSH_RNR_RETRY_EXC_ERR:
		return IB_WC_RNR_RETRY_EXC_ERR;
	default:
		return IB_WC_WR_FLUSH_ERR;
	}
}

static void irdma_cq_step(struct irdma_cq_ring *r)
{
	if (++r->head == r->size) {
		r->head = 0;
		r->polarity = !r->polarity;
	}
}

/* Receive-side fields of a CQE (and its extension @ext, or NULL). */
static void irdma_rx_wc(struct irdma_qp *qp, struct ib_wc *wc, u64 q0, u64 q2,
			u64 hdr, const void *ext)
{
	u8 op = FIELD_GET(E810_CQE_OP, hdr);
	u64 eh = ext ? irdma_wqe_get(ext, E810_CQE_EXT_HDR_OFF) : 0;
	u64 eud = ext ? irdma_wqe_get(ext, E810_CQE_EXT_UD_OFF) : 0;

	wc->byte_len = FIELD_GET(E810_CQE_PAYLDLEN, q0);
	wc->opcode = op == E810_RX_OP_RDMA_WRITE_LAST_IMM ||
		     op == E810_RX_OP_RDMA_WRITE_ONLY_IMM ?
		     IB_WC_RECV_RDMA_WITH_IMM : IB_WC_RECV;
	if (eh & E810_CQE_EXT_IMMVALID) {
		u32 imm = irdma_wqe_get(ext, E810_CQE_EXT_IMM_OFF);

		wc->ex.imm_data = cpu_to_be32(imm);
		wc->wc_flags |= IB_WC_WITH_IMM;
	}
	if (irdma_qp_is_ud(qp)) {
		/* The buffer starts with the 40-byte GRH area the device wrote. */
		wc->src_qp = FIELD_GET(E810_CQE_UDSRCQPN, q2);
		wc->wc_flags |= IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE;
		wc->network_hdr_type = hdr & E810_CQE_IPV4 ?
				       RDMA_NETWORK_IPV4 : RDMA_NETWORK_IPV6;
		if (eh & E810_CQE_EXT_UDSMACVALID) {
			u64_to_ether_addr(FIELD_GET(E810_CQE_EXT_UDSMAC, eud),
					  wc->smac);
			wc->wc_flags |= IB_WC_WITH_SMAC;
		}
		if (eh & E810_CQE_EXT_UDVLANVALID) {
			u16 tci = FIELD_GET(E810_CQE_EXT_UDVLAN, eud);

			wc->vlan_id = tci & VLAN_VID_MASK;
			wc->sl = tci >> VLAN_PRIO_SHIFT;
			wc->wc_flags |= IB_WC_WITH_VLAN;
		}
	} else if (hdr & E810_CQE_STAG) {
		wc->ex.invalidate_rkey = FIELD_GET(E810_CQE_INVSTAG, q2);
		wc->wc_flags |= IB_WC_WITH_INVALIDATE;
	}
}

/**
 * irdma_poll_one() - decode the CQE at the head of a ring of a kernel CQ
 * @cq: the CQ; caller holds its lock
 * @r: its current ring (@cq->kring) or one a resize replaced
 * @wc: filled when 1 is returned
 *
 * The head in the shadow area is the current ring's: the device checks
 * overflow there, and writes no more into an old ring.
 *
 * Return: 1 completion written, 0 no CQE (yet), -1 a CQE was consumed that
 * reports nothing (cleaned, unknown QP, or a flush that software reports
 * per WQE).
 */
int irdma_poll_one(struct irdma_cq *cq, struct irdma_cq_ring *r,
		   struct ib_wc *wc)
{
	void *cqe = r->mem.va + (size_t)r->head * E810_CQE_SIZE;
	void *ext = NULL;
	u64 q0, ctx, q2, hdr;
	u16 major, minor;
	struct irdma_qp *qp;
	u32 wqe_idx, idx;
	bool sq;

	lockdep_assert_held(&cq->lock);

	hdr = irdma_wqe_get(cqe, E810_CQE_HDR_OFF);
	if (!!(hdr & E810_CQE_VALID) != r->polarity)
		return 0;
	if (hdr & E810_CQE_EXTCQE) {
		u32 next = r->head + 1 == r->size ? 0 : r->head + 1;
		bool pol = next ? r->polarity : !r->polarity;

		ext = r->mem.va + (size_t)next * E810_CQE_SIZE;
		if (!!(irdma_wqe_get(ext, E810_CQE_EXT_HDR_OFF) &
		       E810_CQE_VALID) != pol)
			return 0;
	}
	dma_rmb();
	q0 = irdma_wqe_get(cqe, E810_CQE_LEN_OFF);
	ctx = irdma_wqe_get(cqe, E810_CQE_CTX_OFF);
	q2 = irdma_wqe_get(cqe, E810_CQE_QP_OFF);
	irdma_cq_step(r);
	if (ext)
		irdma_cq_step(r);
	if (r == &cq->kring)
		irdma_set64(&cq->shadow, E810_CQ_DBSA_HEAD_OFF,
			    FIELD_PREP(E810_CQ_DBSA_CQEIDX, r->head));

	qp = ctx ? xa_load(&cq->rf->qps, FIELD_GET(E810_CQE_QPID, q2)) : NULL;
	if (!qp || qp->compl_ctx != ctx || qp->user)
		return -1;
	sq = hdr & E810_CQE_SQ;
	wqe_idx = FIELD_GET(E810_CQE_WQEIDX, hdr);
	major = FIELD_GET(E810_CQE_MAJERR, hdr);
	minor = FIELD_GET(E810_CQE_MINERR, hdr);
	memset(wc, 0, sizeof(*wc));
	wc->qp = &qp->ibqp;
	wc->port_num = 1;
	wc->status = IB_WC_SUCCESS;
	if (hdr & E810_CQE_ERROR) {
		wc->vendor_err = (u32)major << 16 | minor;
		if (major == E810_CQE_MAJ_FLUSH)
			wc->status = irdma_flush_status(minor);
		else if (!(sq && irdma_qp_is_ud(qp) &&
			   (major & E810_CQE_MAJ_UD_SQ_IGNORE_MASK) ==
			   E810_CQE_MAJ_UD_SQ_IGNORE))
			wc->status = IB_WC_GENERAL_ERR;
	}

	spin_lock(&qp->lock);
	if (sq) {
		struct irdma_sq_trk *t;

		if (wqe_idx >= qp->sq.size)
			goto skip;
		if (wc->status == IB_WC_WR_FLUSH_ERR) {
			/*
			 * Software reports every outstanding WQE. A UD QP in
			 * RTS takes that from its AE work (SQE) or recovery:
			 * a flush CQE polled after SQE -> RTS is a stale one.
			 */
			if (!irdma_qp_is_ud(qp) ||
			    READ_ONCE(qp->state) != IB_QPS_RTS)
				qp->flush_sq = true;
			goto skip;
		}
		t = &qp->sq_trk[wqe_idx];
		wc->wr_id = t->wr_id;
		wc->opcode = t->wc_op;
		wc->byte_len = t->bytes;
		qp->sq.tail = (wqe_idx + t->quanta) & (qp->sq.size - 1);
	} else {
		idx = wqe_idx >> qp->rq_shift;
		if (idx >= qp->rq.size)
			goto skip;
		if (wc->status == IB_WC_WR_FLUSH_ERR) {
			qp->flush_rq = true;
			goto skip;
		}
		wc->wr_id = qp->rq_wrid[idx];
		qp->rq.tail = idx + 1 == qp->rq.size ? 0 : idx + 1;
		irdma_rx_wc(qp, wc, q0, q2, hdr, ext);
	}
	spin_unlock(&qp->lock);
	return 1;

skip:
	spin_unlock(&qp->lock);
	return -1;
}

/**
 * irdma_flush_one() - a flush completion for an outstanding WQE of a QP
 *	in error whose SQ or RQ completes on @cq
 * @cq: the CQ; caller holds its lock
 * @wc: filled when true is returned
 *
 * Return: true if @wc was filled.
 */
int irdma_flush_one(struct irdma_cq *cq, struct ib_wc *wc)
{
	struct irdma_cq_link *l;
	struct irdma_sq_trk *t;
	struct irdma_qp *qp;

	lockdep_assert_held(&cq->lock);

	list_for_each_entry(l, &cq->qps, node) {
		qp = l->sq ? container_of(l, struct irdma_qp, slink) :
			     container_of(l, struct irdma_qp, rlink);
		spin_lock(&qp->lock);
		if (l->sq) {
			while (qp->flush_sq &&
			       qp->sq.tail != irdma_qp_sq_flush_end(qp)) {
				t = &qp->sq_trk[qp->sq.tail];
				qp->sq.tail = (qp->sq.tail + t->quanta) &
					      (qp->sq.size - 1);
				if (t->wc_op == IRDMA_TRK_NOP)
					continue;
				memset(wc, 0, sizeof(*wc));
				wc->wr_id = t->wr_id;
				wc->opcode = t->wc_op;
				goto found;
			}
			if (qp->sq_draining) {
				/* All the device flushed is reported. */
				qp->sq_draining = false;
				qp->flush_sq = false;
			}
		} else if (qp->flush_rq && qp->rq.tail != qp->rq.head) {
			memset(wc, 0, sizeof(*wc));
			wc->wr_id = qp->rq_wrid[qp->rq.tail];
			wc->opcode = IB_WC_RECV;
			if (++qp->rq.tail == qp->rq.size)
				qp->rq.tail = 0;
			goto found;
		}
		spin_unlock(&qp->lock);
	}
	return 0;

found:
	spin_unlock(&qp->lock);
	wc->qp = &qp->ibqp;
	wc->status = IB_WC_WR_FLUSH_ERR;
	wc->port_num = 1;
	return 1;
}
