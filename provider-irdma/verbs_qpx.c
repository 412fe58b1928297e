// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ibv_qp_ex work-request interface of the E810 provider. A builder call
 * (ibv_wr_send, ...) opens a WR, setters fill it in any order, and the
 * WR is written to the ring when the next builder or ibv_wr_complete
 * comes; ibv_wr_complete rings one doorbell for the batch, ibv_wr_abort
 * takes the batch back. Inline data is copied when set, as the API wants.
 */
#include <config.h>

#include <errno.h>
#include <string.h>

#include "e810p.h"

static struct e810p_qp *to_eqpx(struct ibv_qp_ex *qpx)
{
	return to_eqp(&qpx->qp_base);
}

static void wr_flush(struct e810p_qp *qp)
{
	int ret;

	if (!qp->x.pending)
		return;
	qp->x.pending = false;
	if (qp->x.err)
		return;
	ret = -e810u_post_send(&qp->uk, &qp->x.wr);
	if (ret)
		qp->x.err = ret;
}

/* Starts a new WR with the flags and wr_id the application set. */
static struct e810u_swr *wr_begin(struct ibv_qp_ex *qpx, uint8_t op,
				  uint8_t sol_op)
{
	struct e810p_qp *qp = to_eqpx(qpx);
	struct e810u_swr *s = &qp->x.wr;

	wr_flush(qp);
	memset(s, 0, sizeof(*s));
	s->wr_id = qpx->wr_id;
	s->op = qpx->wr_flags & IBV_SEND_SOLICITED ? sol_op : op;
	s->signaled = qp->sig_all || (qpx->wr_flags & IBV_SEND_SIGNALED);
	s->read_fence = qpx->wr_flags & IBV_SEND_FENCE;
	s->sg = qp->x.sge;
	qp->x.pending = true;
	/* nothing may be posted in RESET (verbs: an immediate error) */
	if (!qp->x.open || qpx->qp_base.state == IBV_QPS_RESET)
		qp->x.err = EINVAL;
	return s;
}

static void x_send(struct ibv_qp_ex *qpx)
{
	wr_begin(qpx, E810_OP_SEND, E810_OP_SEND_SOL);
}

static void x_send_imm(struct ibv_qp_ex *qpx, __be32 imm)
{
	struct e810u_swr *s = wr_begin(qpx, E810_OP_SEND, E810_OP_SEND_SOL);

	s->has_imm = true;
	s->imm = be32toh(imm);
}

static void x_send_inv(struct ibv_qp_ex *qpx, uint32_t rkey)
{
	struct e810u_swr *s = wr_begin(qpx, E810_OP_SEND_INV,
				       E810_OP_SEND_SOL_INV);

	s->inv_stag = rkey;
}

static void x_rdma_write(struct ibv_qp_ex *qpx, uint32_t rkey, uint64_t addr)
{
	struct e810u_swr *s = wr_begin(qpx, E810_OP_RDMA_WRITE,
				       E810_OP_RDMA_WRITE_SOL);

	s->rkey = rkey;
	s->remote_addr = addr;
}

static void x_rdma_write_imm(struct ibv_qp_ex *qpx, uint32_t rkey,
			     uint64_t addr, __be32 imm)
{
	struct e810u_swr *s = wr_begin(qpx, E810_OP_RDMA_WRITE,
				       E810_OP_RDMA_WRITE_SOL);

	s->rkey = rkey;
	s->remote_addr = addr;
	s->has_imm = true;
	s->imm = be32toh(imm);
}

static void x_rdma_read(struct ibv_qp_ex *qpx, uint32_t rkey, uint64_t addr)
{
	struct e810u_swr *s = wr_begin(qpx, E810_OP_RDMA_READ,
				       E810_OP_RDMA_READ);

	s->rkey = rkey;
	s->remote_addr = addr;
}

static void x_local_inv(struct ibv_qp_ex *qpx, uint32_t rkey)
{
	struct e810u_swr *s = wr_begin(qpx, E810_OP_LOCAL_INV,
				       E810_OP_LOCAL_INV);

	s->inv_stag = rkey;
}

/*
 * ibv_wr_bind_mw(): the BIND_MW of an IBV_WR_BIND_MW work request, built by
 * the same rules (e810p_bind_wr_to_uk()); a refused bind fails the batch
 * at ibv_wr_complete(). A type 2 window takes its new key when the bind is
 * built, as the key is the consumer's choice.
 */
static void x_bind_mw(struct ibv_qp_ex *qpx, struct ibv_mw *mw, uint32_t rkey,
		      const struct ibv_mw_bind_info *bind_info)
{
	struct e810u_swr *s = wr_begin(qpx, E810_OP_BIND_MW, E810_OP_BIND_MW);
	struct e810p_qp *qp = to_eqpx(qpx);
	struct ibv_send_wr wr = { .opcode = IBV_WR_BIND_MW };
	int ret;

	wr.bind_mw.mw = mw;
	wr.bind_mw.rkey = rkey;
	if (bind_info)
		wr.bind_mw.bind_info = *bind_info;
	ret = bind_info ? e810p_bind_wr_to_uk(qp->uk.ud, &wr, s) : EINVAL;
	if (ret) {
		if (!qp->x.err)
			qp->x.err = ret;
		return;
	}
	if (mw->type == IBV_MW_TYPE_2)
		mw->rkey = s->rkey;
}

static struct e810p_qp *setter_qp(struct ibv_qp_ex *qpx)
{
	struct e810p_qp *qp = to_eqpx(qpx);

	if (!qp->x.pending && !qp->x.err)
		qp->x.err = EINVAL;	/* setter without a builder */
	return qp;
}

static void x_set_sge_list(struct ibv_qp_ex *qpx, size_t n,
			   const struct ibv_sge *sg)
{
	struct e810p_qp *qp = setter_qp(qpx);
	size_t i;

	if (n > E810_MAX_FRAGS) {
		qp->x.err = EINVAL;
		return;
	}
	for (i = 0; i < n; i++) {
		qp->x.sge[i].addr = sg[i].addr;
		qp->x.sge[i].len = sg[i].length;
		qp->x.sge[i].lkey = sg[i].lkey;
	}
	qp->x.wr.num_sge = n;
	qp->x.wr.inline_data = false;
}

static void x_set_sge(struct ibv_qp_ex *qpx, uint32_t lkey, uint64_t addr,
		      uint32_t length)
{
	struct ibv_sge sg = { .addr = addr, .length = length, .lkey = lkey };

	x_set_sge_list(qpx, 1, &sg);
}

static void x_set_inline_data_list(struct ibv_qp_ex *qpx, size_t n,
				   const struct ibv_data_buf *buf)
{
	struct e810p_qp *qp = setter_qp(qpx);
	size_t i, len = 0;

	for (i = 0; i < n; i++) {
		if (buf[i].length > qp->uk.max_inline - len) {
			qp->x.err = EINVAL;
			return;
		}
		memcpy(qp->x.inl + len, buf[i].addr, buf[i].length);
		len += buf[i].length;
	}
	qp->x.sge[0].addr = (uintptr_t)qp->x.inl;
	qp->x.sge[0].len = len;
	qp->x.sge[0].lkey = 0;
	qp->x.wr.num_sge = 1;
	qp->x.wr.inline_data = true;
}

static void x_set_inline_data(struct ibv_qp_ex *qpx, void *addr,
			      size_t length)
{
	struct ibv_data_buf b = { .addr = addr, .length = length };

	x_set_inline_data_list(qpx, 1, &b);
}

static void x_set_ud_addr(struct ibv_qp_ex *qpx, struct ibv_ah *ah,
			  uint32_t remote_qpn, uint32_t remote_qkey)
{
	struct e810p_qp *qp = setter_qp(qpx);

	if (!qp->uk.ud || !ah) {
		qp->x.err = EINVAL;
		return;
	}
	qp->x.wr.ah_id = to_eah(ah)->ah_id;
	qp->x.wr.dest_qpn = remote_qpn;
	qp->x.wr.qkey = remote_qkey;
}

static void x_start(struct ibv_qp_ex *qpx)
{
	struct e810p_qp *qp = to_eqpx(qpx);

	pthread_spin_lock(&qp->lock);
	qp->x.open = true;
	qp->x.pending = false;
	qp->x.err = 0;
	e810u_sq_mark(&qp->uk, &qp->x.mark);
}

static int x_complete(struct ibv_qp_ex *qpx)
{
	struct e810p_qp *qp = to_eqpx(qpx);
	int ret;

	wr_flush(qp);
	ret = qp->x.err;
	if (ret)
		e810u_sq_rollback(&qp->uk, &qp->x.mark);
	else
		e810u_sq_kick(&qp->uk);
	qp->x.open = false;
	pthread_spin_unlock(&qp->lock);
	return ret;
}

static void x_abort(struct ibv_qp_ex *qpx)
{
	struct e810p_qp *qp = to_eqpx(qpx);

	qp->x.pending = false;
	e810u_sq_rollback(&qp->uk, &qp->x.mark);
	qp->x.open = false;
	pthread_spin_unlock(&qp->lock);
}

void e810p_qpx_init(struct e810p_qp *qp, uint64_t ops)
{
	struct ibv_qp_ex *qpx = &qp->vqp.qp_ex;

	qp->vqp.comp_mask |= VERBS_QP_EX;
	qpx->wr_start = x_start;
	qpx->wr_complete = x_complete;
	qpx->wr_abort = x_abort;
	if (ops & IBV_QP_EX_WITH_SEND)
		qpx->wr_send = x_send;
	if (ops & IBV_QP_EX_WITH_SEND_WITH_IMM)
		qpx->wr_send_imm = x_send_imm;
	if (ops & IBV_QP_EX_WITH_SEND_WITH_INV)
		qpx->wr_send_inv = x_send_inv;
	if (ops & IBV_QP_EX_WITH_RDMA_WRITE)
		qpx->wr_rdma_write = x_rdma_write;
	if (ops & IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM)
		qpx->wr_rdma_write_imm = x_rdma_write_imm;
	if (ops & IBV_QP_EX_WITH_RDMA_READ)
		qpx->wr_rdma_read = x_rdma_read;
	if (ops & IBV_QP_EX_WITH_LOCAL_INV)
		qpx->wr_local_inv = x_local_inv;
	if (ops & IBV_QP_EX_WITH_BIND_MW)
		qpx->wr_bind_mw = x_bind_mw;
	qpx->wr_set_sge = x_set_sge;
	qpx->wr_set_sge_list = x_set_sge_list;
	qpx->wr_set_inline_data = x_set_inline_data;
	qpx->wr_set_inline_data_list = x_set_inline_data_list;
	if (qp->uk.ud)
		qpx->wr_set_ud_addr = x_set_ud_addr;
}
