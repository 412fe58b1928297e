// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: kernel QPs on the shared ring layer (lib/irdma-ring/, compiled
 * into this module through ring_os.h; docs/hw-reference.md 5.1-5.6).
 *
 * The layer encodes the WQEs (NOP padding, ahead-clearing, slack,
 * polarity), keeps the per-quantum SQ tracking and the RQ wr_ids, and
 * decodes CQEs. What is left here is what only the kernel has: ib_*
 * work requests and completions, the QP lookup of a CQE by QP id, and
 * the software flush of QPs in error (flush_sq, flush_rq and the SQE
 * recovery's sq_flush_end), reported WQE by WQE from the layer's
 * tracking.
 */

#include <linux/etherdevice.h>
#include <linux/if_vlan.h>

#include <hw/e810_ctx.h>
#include <hw/e810_regs.h>
#include <hw/e810_uk.h>

#include "mr.h"
#include "qp.h"

/* The completion opcode of an SQ WQE of device opcode @op. */
static enum ib_wc_opcode irdma_sq_wc_op(u8 op)
{
	switch (op) {
	case E810_OP_RDMA_WRITE:
	case E810_OP_RDMA_WRITE_SOL:
		return IB_WC_RDMA_WRITE;
	case E810_OP_RDMA_READ:
	case E810_OP_RDMA_READ_LOC_INV:
		return IB_WC_RDMA_READ;
	case E810_OP_LOCAL_INV:
		return IB_WC_LOCAL_INV;
	case E810_OP_FAST_REG:
		return IB_WC_REG_MR;
	case E810_OP_BIND_MW:
		return IB_WC_BIND_MW;
	default:
		return IB_WC_SEND;
	}
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

/**
 * irdma_swr_reg_mr() - the fast-register fields of a REG_MR work request
 * @rw: the IB_WR_REG_MR work request
 * @s: filled: VA, STag, page list, page size code and rights
 *
 * Context: Any context.
 * Return: 0, or -EINVAL for a page size without a device code.
 */
static int irdma_swr_reg_mr(const struct ib_reg_wr *rw, struct e810u_swr *s)
{
	struct irdma_mr *mr = to_irdma_mr(rw->mr);

	switch (ilog2(rw->mr->page_size)) {
	case 12:
		s->fr_page_code = E810_HPAGE_4K;
		break;
	case 21:
		s->fr_page_code = E810_HPAGE_2M;
		break;
	case 30:
		s->fr_page_code = E810_HPAGE_1G;
		break;
	default:
		return -EINVAL;
	}
	s->op = E810_OP_FAST_REG;
	s->remote_addr = rw->mr->iova;
	s->rkey = rw->key;
	s->fr_pbl_pa = mr->pa;
	s->fr_first_pble = mr->pble;
	s->fr_len = rw->mr->length;
	s->fr_levels = mr->level;
	s->fr_rights = irdma_access_rights(rw->access);
	return 0;
}

/**
 * irdma_swr_build() - an ib_send_wr in the ring layer's terms
 * @qp: the kernel QP
 * @wr: the work request
 * @s: filled
 * @sg: room for @wr's SGEs (qp->cap.max_send_sge of them)
 *
 * The layer checks the rest (QP type, inline size, fragments) before it
 * touches the ring.
 *
 * Context: Any context.
 * Return: 0 or -EINVAL.
 */
static int irdma_swr_build(struct irdma_qp *qp, const struct ib_send_wr *wr,
			   struct e810u_swr *s, struct e810u_sge *sg)
{
	bool sol = wr->send_flags & IB_SEND_SOLICITED;
	int i;

	memset(s, 0, sizeof(*s));
	if (wr->num_sge < 0 || wr->num_sge > qp->cap.max_send_sge)
		return -EINVAL;
	for (i = 0; i < wr->num_sge; i++) {
		sg[i].addr = wr->sg_list[i].addr;
		sg[i].len = wr->sg_list[i].length;
		sg[i].lkey = wr->sg_list[i].lkey;
	}
	s->wr_id = wr->wr_id;
	s->sg = sg;
	s->num_sge = wr->num_sge;
	s->inline_data = wr->send_flags & IB_SEND_INLINE;
	s->signaled = (wr->send_flags & IB_SEND_SIGNALED) ||
		      qp->sq_sig_type == IB_SIGNAL_ALL_WR;
	s->read_fence = wr->send_flags & IB_SEND_FENCE;

	switch (wr->opcode) {
	case IB_WR_SEND_WITH_IMM:
		s->has_imm = true;
		s->imm = be32_to_cpu(wr->ex.imm_data);
		fallthrough;
	case IB_WR_SEND:
		s->op = sol ? E810_OP_SEND_SOL : E810_OP_SEND;
		break;
	case IB_WR_SEND_WITH_INV:
		s->op = sol ? E810_OP_SEND_SOL_INV : E810_OP_SEND_INV;
		s->inv_stag = wr->ex.invalidate_rkey;
		break;
	case IB_WR_RDMA_WRITE_WITH_IMM:
		s->has_imm = true;
		s->imm = be32_to_cpu(wr->ex.imm_data);
		fallthrough;
	case IB_WR_RDMA_WRITE:
		s->op = sol ? E810_OP_RDMA_WRITE_SOL : E810_OP_RDMA_WRITE;
		s->remote_addr = rdma_wr(wr)->remote_addr;
		s->rkey = rdma_wr(wr)->rkey;
		break;
	case IB_WR_RDMA_READ_WITH_INV:
	case IB_WR_RDMA_READ:
		/*
		 * irdma_uk_rdma_read() with inv_stag: only the opcode differs;
		 * the device invalidates the sink's STag (fragment 0's lkey)
		 * once the data is placed, ex.invalidate_rkey is not used.
		 */
		s->op = wr->opcode == IB_WR_RDMA_READ ?
			E810_OP_RDMA_READ : E810_OP_RDMA_READ_LOC_INV;
		s->remote_addr = rdma_wr(wr)->remote_addr;
		s->rkey = rdma_wr(wr)->rkey;
		break;
	case IB_WR_LOCAL_INV:
		s->op = E810_OP_LOCAL_INV;
		s->inv_stag = wr->ex.invalidate_rkey;
		break;
	case IB_WR_REG_MR:
		return irdma_swr_reg_mr(reg_wr(wr), s);
	default:
		return -EINVAL;
	}
	if (irdma_qp_is_ud(qp)) {
		s->ah_id = to_irdma_ah(ud_wr(wr)->ah)->ah_id;
		s->dest_qpn = ud_wr(wr)->remote_qpn;
		s->qkey = ud_wr(wr)->remote_qkey;
	}
	return 0;
}

/* The SQ doorbell of a kernel QP; caller holds qp->lock. */
void irdma_sq_ring(struct irdma_qp *qp)
{
	/* WQEs visible before the doorbell. */
	wmb();
	qp->ring.unrung = 0;
	irdma_wr32(qp->rf, IRDMA_REG(qp->rf, wqealloc), qp->qp_id);
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
	struct e810u_sge sg[IRDMA_MAX_SGE];
	struct e810u_swr s;
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
		err = irdma_swr_build(qp, wr, &s, sg);
		if (!err)
			err = e810u_post_send(&qp->ring, &s);
		if (err) {
			*bad_wr = wr;
			break;
		}
		posted = true;
	}
	/* Recovering from SQE, new WQEs go to the device again. */
	flush = qp->flush_sq && !qp->sq_draining;
	if (posted && !flush)
		e810u_sq_kick(&qp->ring);
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
	struct e810u_sge sg[IRDMA_MAX_SGE];
	unsigned long flags;
	bool posted = false, flush;
	int err = 0, i;

	if (qp->user || READ_ONCE(qp->state) == IB_QPS_RESET) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&qp->lock, flags);
	for (; wr; wr = wr->next) {
		if (wr->num_sge < 0 || wr->num_sge > qp->cap.max_recv_sge) {
			err = -EINVAL;
		} else {
			for (i = 0; i < wr->num_sge; i++) {
				sg[i].addr = wr->sg_list[i].addr;
				sg[i].len = wr->sg_list[i].length;
				sg[i].lkey = wr->sg_list[i].lkey;
			}
			err = e810u_post_recv(&qp->ring, wr->wr_id, sg,
					      wr->num_sge);
		}
		if (err) {
			*bad_wr = wr;
			break;
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

/* Receive-side fields of a decoded CQE. */
static void irdma_rx_wc(struct irdma_qp *qp, struct ib_wc *wc,
			const struct e810u_cqe *c)
{
	wc->byte_len = c->bytes;
	wc->opcode = c->op == E810_RX_OP_RDMA_WRITE_LAST_IMM ||
		     c->op == E810_RX_OP_RDMA_WRITE_ONLY_IMM ?
		     IB_WC_RECV_RDMA_WITH_IMM : IB_WC_RECV;
	if (c->imm_valid) {
		wc->ex.imm_data = cpu_to_be32(c->imm);
		wc->wc_flags |= IB_WC_WITH_IMM;
	}
	if (irdma_qp_is_ud(qp)) {
		/* The buffer starts with the 40-byte GRH area the device wrote. */
		wc->src_qp = c->src_qpn;
		wc->wc_flags |= IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE;
		wc->network_hdr_type = c->ipv4 ? RDMA_NETWORK_IPV4 :
						 RDMA_NETWORK_IPV6;
		if (c->smac_valid) {
			ether_addr_copy(wc->smac, c->smac);
			wc->wc_flags |= IB_WC_WITH_SMAC;
		}
		if (c->vlan_valid) {
			wc->vlan_id = c->vlan & VLAN_VID_MASK;
			wc->sl = c->vlan >> VLAN_PRIO_SHIFT;
			wc->wc_flags |= IB_WC_WITH_VLAN;
		}
	} else if (c->stag_valid) {
		wc->ex.invalidate_rkey = c->inv_stag;
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
	struct e810u_cqe_raw raw;
	struct irdma_qp *qp;
	struct e810u_cqe c;
	u32 wqe_idx;

	lockdep_assert_held(&cq->lock);

	if (e810u_cqe_peek(&r->uk, &raw))
		return 0;
	e810u_cq_ring_step(&r->uk, raw.ext != NULL);
	if (r == &cq->kring)
		irdma_set64(&cq->shadow, E810_CQ_DBSA_HEAD_OFF,
			    FIELD_PREP(E810_CQ_DBSA_CQEIDX, r->uk.head));

	qp = raw.ctx ? xa_load(&cq->rf->qps, FIELD_GET(E810_CQE_QPID, raw.qw2)) :
		       NULL;
	if (!qp || qp->compl_ctx != raw.ctx || qp->user)
		return -1;
	e810u_cqe_decode(&raw, irdma_qp_is_ud(qp), &c);
	wqe_idx = FIELD_GET(E810_CQE_WQEIDX, raw.hdr);
	memset(wc, 0, sizeof(*wc));
	wc->qp = &qp->ibqp;
	wc->port_num = 1;
	wc->status = IB_WC_SUCCESS;
	if (raw.hdr & E810_CQE_ERROR)
		wc->vendor_err = (u32)c.major << 16 | c.minor;
	if (c.status == E810U_FLUSHED)
		wc->status = irdma_flush_status(c.minor);
	else if (c.status == E810U_ERROR)
		wc->status = IB_WC_GENERAL_ERR;

	spin_lock(&qp->lock);
	if (c.sq) {
		if (wqe_idx >= qp->ring.sq_quanta)
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
		if (e810u_sq_complete(&qp->ring, wqe_idx, &c))
			goto skip;
		wc->wr_id = c.wr_id;
		wc->opcode = irdma_sq_wc_op(c.op);
		wc->byte_len = c.bytes;
	} else {
		if (wc->status == IB_WC_WR_FLUSH_ERR) {
			if ((wqe_idx >> qp->ring.rq_shift) < qp->ring.rq_size)
				qp->flush_rq = true;
			goto skip;
		}
		if (e810u_rq_complete(&qp->ring, wqe_idx, &c))
			goto skip;
		wc->wr_id = c.wr_id;
		irdma_rx_wc(qp, wc, &c);
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
	const struct e810u_sq_slot *t;
	struct irdma_cq_link *l;
	struct e810u_qp *r;
	struct irdma_qp *qp;

	lockdep_assert_held(&cq->lock);

	list_for_each_entry(l, &cq->qps, node) {
		qp = l->sq ? container_of(l, struct irdma_qp, slink) :
			     container_of(l, struct irdma_qp, rlink);
		r = &qp->ring;
		spin_lock(&qp->lock);
		if (l->sq) {
			while (qp->flush_sq &&
			       r->sq_tail != irdma_qp_sq_flush_end(qp)) {
				t = &r->sq_slots[r->sq_tail];
				r->sq_tail = (r->sq_tail + t->quanta) &
					     (r->sq_quanta - 1);
				if (t->op == E810_OP_NOP)
					continue;
				memset(wc, 0, sizeof(*wc));
				wc->wr_id = t->wr_id;
				wc->opcode = irdma_sq_wc_op(t->op);
				goto found;
			}
			if (qp->sq_draining) {
				/* All the device flushed is reported. */
				qp->sq_draining = false;
				qp->flush_sq = false;
			}
		} else if (qp->flush_rq && r->rq_tail != r->rq_head) {
			memset(wc, 0, sizeof(*wc));
			wc->wr_id = r->rq_wrid[r->rq_tail];
			wc->opcode = IB_WC_RECV;
			if (++r->rq_tail == r->rq_size)
				r->rq_tail = 0;
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
