// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Queue pairs of the E810 provider (RC and UD): ring sizing, the single
 * registered SQ+RQ+shadow buffer (reg_type QP, docs/hw-reference.md 6.4),
 * create, modify, query, destroy, and ibv_post_send/ibv_post_recv
 * translated into ring layer work requests with one doorbell per post
 * list.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "e810p.h"

static size_t page_up(size_t n)
{
	return (n + E810P_PAGE - 1) & ~(size_t)(E810P_PAGE - 1);
}

struct qp_geom {
	struct e810u_wq_sizes s;	/* shifts, depths in quanta */
	size_t sq_bytes, rq_bytes;
};

static int qp_check_caps(struct e810p_context *ctx,
			 struct ibv_qp_init_attr_ex *attr)
{
	const struct ibv_qp_cap *cap = &attr->cap;

	if (attr->qp_type != IBV_QPT_RC && attr->qp_type != IBV_QPT_UD)
		return EOPNOTSUPP;
	/* iWARP has RC only (upstream irdma_validate_qp_attrs()) */
	if (attr->qp_type == IBV_QPT_UD &&
	    ctx->vctx.context.device->transport_type == IBV_TRANSPORT_IWARP)
		return EOPNOTSUPP;
	if (attr->srq || !attr->send_cq || !attr->recv_cq)
		return attr->srq ? EOPNOTSUPP : EINVAL;
	if (!(attr->comp_mask & IBV_QP_INIT_ATTR_PD) ||
	    attr->comp_mask & ~(uint32_t)(IBV_QP_INIT_ATTR_PD |
					  IBV_QP_INIT_ATTR_CREATE_FLAGS |
					  IBV_QP_INIT_ATTR_SEND_OPS_FLAGS))
		return EOPNOTSUPP;
	/* the mask may name create flags as long as none is set */
	if ((attr->comp_mask & IBV_QP_INIT_ATTR_CREATE_FLAGS) &&
	    attr->create_flags)
		return EOPNOTSUPP;
	if ((attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) &&
	    attr->send_ops_flags & ~(uint64_t)E810P_QPX_SEND_OPS)
		return EOPNOTSUPP;
	/*
	 * Zero send or receive WRs is a valid request (qperf's one-way
	 * tests: the receiver asks for no send WRs): the ring gets its
	 * minimum size, as upstream irdma_get_sqdepth() gives it.
	 */
	if (cap->max_send_sge > ctx->max_frags ||
	    cap->max_recv_sge > ctx->max_frags ||
	    cap->max_inline_data > ctx->max_inline)
		return EINVAL;
	return 0;
}

static int qp_geometry(struct e810p_context *ctx, const struct ibv_qp_cap *cap,
		       struct qp_geom *g)
{
	const struct e810u_wq_caps caps = E810U_WQ_CAPS(cap);
	int ret;

	/*
	 * as the kernel sizes its own QPs: the ring layer, one table (a
	 * kernel without raw attributes is told the result in WQEs)
	 */
	ret = e810u_wq_sizes(ctx->geom, &caps, ctx->min_wq_quanta,
			     ctx->max_wq_quanta, ctx->max_rq_quanta, false,
			     &g->s);
	if (ret)
		return -ret;
	g->sq_bytes = page_up((size_t)g->s.sq_depth * E810_WQE_QUANTUM);
	g->rq_bytes = page_up((size_t)g->s.rq_depth * E810_WQE_QUANTUM);
	return 0;
}

static int qp_setup_rings(struct e810p_context *ctx, struct e810p_qp *qp,
			  const struct qp_geom *g,
			  const struct e810p_create_qp_resp *resp)
{
	struct e810u_qp *uk = &qp->uk;
	uint64_t sq_quanta = (uint64_t)resp->actual_sq_size << g->s.sq_shift;
	uint32_t rq_entries = resp->actual_rq_size;

	/* the kernel sized the rings from the same caps: it must fit ours */
	if (!sq_quanta || sq_quanta > g->s.sq_depth ||
	    rq_entries > g->s.rq_depth >> g->s.rq_shift)
		return EPROTO;
	if (!rq_entries)
		rq_entries = 1;
	uk->sq = qp->buf.va;
	uk->sq_quanta = sq_quanta;
	uk->rq = (uint8_t *)qp->buf.va + g->sq_bytes;
	uk->rq_size = rq_entries;
	uk->rq_shift = g->s.rq_shift;
	uk->shadow = (volatile uint64_t *)((uint8_t *)uk->rq + g->rq_bytes);
	uk->sq_slots = calloc(sq_quanta, sizeof(*uk->sq_slots));
	uk->rq_wrid = calloc(rq_entries, sizeof(*uk->rq_wrid));
	if (!uk->sq_slots || !uk->rq_wrid)
		return ENOMEM;
	uk->geom = ctx->geom;
	uk->max_sq_frags = ctx->max_frags;
	uk->max_rq_frags = ctx->max_frags;
	uk->max_inline = ctx->max_inline;
	uk->qp_id = resp->qp_id;
	/*
	 * lsmm: the connection manager puts its WQEs at the start of the SQ
	 * (iWARP), three with RTS_AE (upstream irdma_vmapped_qp(),
	 * irdma_setup_connection_wqes())
	 */
	if (resp->lsmm)
		uk->conn_wqes = ctx->features & E810P_FEAT_RTS_AE ?
				E810U_CONN_WQES_RTS_AE : E810U_CONN_WQES;
	uk->sq_db = (volatile uint32_t *)((uint8_t *)ctx->db +
					  E810_DB_QP_OFFSET);
	uk->owner = qp;
	e810u_qp_reset(uk);
	qp->sq_size = resp->actual_sq_size;
	qp->rq_size = resp->actual_rq_size;
	qp->caps = resp->qp_caps;
	/*
	 * GEN_1 WQEs have no immediate data (upstream uk.c imm_support is
	 * GEN_2 on; its SQ sizing leaves no room): the kernel's WRITE with
	 * immediate cap names the verb, not what the ring can carry
	 */
	if (!ctx->geom->imm_frag)
		qp->caps &= ~(E810P_QP_CAP_WRITE_IMM | E810P_QP_CAP_SEND_IMM);
	return 0;
}

static void qp_free_rings(struct e810p_qp *qp)
{
	free(qp->uk.sq_slots);
	free(qp->uk.rq_wrid);
	qp->uk.sq_slots = NULL;
	qp->uk.rq_wrid = NULL;
}

struct ibv_qp *e810p_create_qp_ex(struct ibv_context *ibctx,
				  struct ibv_qp_init_attr_ex *attr)
{
	struct e810p_context *ctx = to_ectx(ibctx);
	struct irdma_mem_reg_req req = { .reg_type = IRDMA_MEMREG_TYPE_QP };
	struct e810p_create_qp_resp resp = {};
	struct e810p_create_qp cmd = {};
	struct ibv_qp_cap app_cap;
	uint32_t app_mask;
	struct e810p_qp *qp;
	struct qp_geom g;
	int ret;

	ret = qp_check_caps(ctx, attr);
	if (!ret)
		ret = qp_geometry(ctx, &attr->cap, &g);
	if (ret) {
		errno = ret;
		return NULL;
	}
	qp = calloc(1, sizeof(*qp));
	if (!qp)
		return NULL;
	ret = pthread_spin_init(&qp->lock, PTHREAD_PROCESS_PRIVATE);
	if (ret)
		goto err_free;
	/* SQ pages, RQ pages, then one page for the shadow area */
	ret = e810p_qbuf_alloc(&qp->buf, g.sq_bytes + g.rq_bytes +
				       E810_QP_SHADOW_SIZE);
	if (ret)
		goto err_lock;
	req.sq_pages = g.sq_bytes / E810P_PAGE;
	req.rq_pages = g.rq_bytes / E810P_PAGE;
	ret = e810p_qbuf_register(&qp->buf, attr->pd, &req);
	if (ret)
		goto err_buf;

	cmd.user_wqe_bufs = (uintptr_t)qp->buf.va;
	cmd.user_compl_ctx = (uintptr_t)&qp->uk;
	app_cap = attr->cap;
	if (!ctx->raw_attrs) {
		/* older kernels take ring entries, not application WRs */
		attr->cap.max_send_wr = g.s.sq_depth >> g.s.sq_shift;
		attr->cap.max_recv_wr = g.s.rq_depth >> g.s.rq_shift;
	}
	/* no create flag is set (qp_check_caps); the command takes none */
	app_mask = attr->comp_mask;
	attr->comp_mask &= ~(uint32_t)IBV_QP_INIT_ATTR_CREATE_FLAGS;
	ret = ibv_cmd_create_qp_ex(ibctx, &qp->vqp, attr, &cmd.ibv_cmd,
				   sizeof(cmd), &resp.ibv_resp, sizeof(resp));
	attr->comp_mask = app_mask;
	attr->cap = app_cap;
	if (ret)
		goto err_buf;
	ret = qp_setup_rings(ctx, qp, &g, &resp);
	if (ret)
		goto err_qp;
	/*
	 * an immediate form the QP cannot carry is refused here, not lost
	 * (an RDMA WRITE on a UD QP fails when posted, as before)
	 */
	if (attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS &&
	    ((attr->send_ops_flags & IBV_QP_EX_WITH_SEND_WITH_IMM &&
	      !(qp->caps & E810P_QP_CAP_SEND_IMM)) ||
	     (attr->qp_type == IBV_QPT_RC &&
	      attr->send_ops_flags & IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM &&
	      !(qp->caps & E810P_QP_CAP_WRITE_IMM)))) {
		ret = EOPNOTSUPP;
		goto err_qp;
	}

	qp->uk.ud = attr->qp_type == IBV_QPT_UD;
	qp->sig_all = attr->sq_sig_all;
	/* what the rings really hold (hw-reference 5.1) */
	attr->cap.max_send_wr = g.s.max_send_wr;
	attr->cap.max_recv_wr = g.s.max_recv_wr;
	if (attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS)
		e810p_qpx_init(qp, attr->send_ops_flags);
	return &qp->vqp.qp;

err_qp:
	ibv_cmd_destroy_qp(&qp->vqp.qp);
	qp_free_rings(qp);
err_buf:
	e810p_qbuf_free(&qp->buf);
err_lock:
	pthread_spin_destroy(&qp->lock);
err_free:
	free(qp);
	errno = ret;
	return NULL;
}

struct ibv_qp *e810p_create_qp(struct ibv_pd *pd,
			       struct ibv_qp_init_attr *attr)
{
	struct ibv_qp_init_attr_ex ax = {};
	struct ibv_qp *qp;

	memcpy(&ax, attr, sizeof(*attr));
	ax.comp_mask = IBV_QP_INIT_ATTR_PD;
	ax.pd = pd;
	qp = e810p_create_qp_ex(pd->context, &ax);
	if (qp)
		memcpy(attr, &ax, sizeof(*attr));
	return qp;
}

int e810p_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask,
		   struct ibv_qp_init_attr *init)
{
	struct ibv_query_qp cmd;

	return ibv_cmd_query_qp(qp, attr, mask, init, &cmd, sizeof(cmd));
}

/* Drops CQEs of @qp still queued on its CQs (destroy or reset). */
static void qp_forget_cqes(struct e810p_qp *qp)
{
	struct ibv_qp *ib = &qp->vqp.qp;
	struct e810p_cq *scq = to_ecq(ib->send_cq);
	struct e810p_cq *rcq = to_ecq(ib->recv_cq);

	pthread_spin_lock(&scq->lock);
	e810u_cq_forget(&scq->uk, &qp->uk);
	pthread_spin_unlock(&scq->lock);
	if (rcq != scq) {
		pthread_spin_lock(&rcq->lock);
		e810u_cq_forget(&rcq->uk, &qp->uk);
		pthread_spin_unlock(&rcq->lock);
	}
}

int e810p_modify_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr, int mask)
{
	struct e810p_qp *qp = to_eqp(ibqp);
	struct ibv_modify_qp cmd = {};
	int ret;

	ret = ibv_cmd_modify_qp(ibqp, attr, mask, &cmd, sizeof(cmd));
	if (ret || !(mask & IBV_QP_STATE) || attr->qp_state != IBV_QPS_RESET)
		return ret;
	/* back to RESET: the rings restart at index 0, first pass again */
	qp_forget_cqes(qp);
	pthread_spin_lock(&qp->lock);
	memset(qp->buf.va, 0, qp->buf.len);
	e810u_qp_reset(&qp->uk);
	pthread_spin_unlock(&qp->lock);
	return 0;
}

int e810p_destroy_qp(struct ibv_qp *ibqp)
{
	struct e810p_qp *qp = to_eqp(ibqp);
	int ret;

	ret = ibv_cmd_destroy_qp(ibqp);
	if (ret)
		return ret;
	qp_forget_cqes(qp);
	qp_free_rings(qp);
	e810p_qbuf_free(&qp->buf);
	pthread_spin_destroy(&qp->lock);
	free(qp);
	return 0;
}

static int copy_sges(struct e810u_sge *dst, const struct ibv_sge *src, int n)
{
	int i;

	if (n < 0 || n > E810_MAX_FRAGS)
		return EINVAL;
	for (i = 0; i < n; i++) {
		dst[i].addr = src[i].addr;
		dst[i].len = src[i].length;
		dst[i].lkey = src[i].lkey;
	}
	return 0;
}

static int send_wr_to_uk(struct e810p_qp *qp, const struct ibv_send_wr *wr,
			 struct e810u_swr *s, struct e810u_sge *sg)
{
	struct e810p_context *ctx = to_ectx(qp->vqp.qp.context);
	bool sol = wr->send_flags & IBV_SEND_SOLICITED;
	int ret;

	memset(s, 0, sizeof(*s));
	s->wr_id = wr->wr_id;
	s->signaled = qp->sig_all || (wr->send_flags & IBV_SEND_SIGNALED);
	s->read_fence = wr->send_flags & IBV_SEND_FENCE;
	s->inline_data = wr->send_flags & IBV_SEND_INLINE;
	switch (wr->opcode) {
	case IBV_WR_SEND_WITH_IMM:
		if (!(qp->caps & E810P_QP_CAP_SEND_IMM))
			return EINVAL;
		s->has_imm = true;
		s->imm = be32toh(wr->imm_data);
		/* fall through */
	case IBV_WR_SEND:
		s->op = sol ? E810_OP_SEND_SOL : E810_OP_SEND;
		break;
	case IBV_WR_SEND_WITH_INV:
		s->op = sol ? E810_OP_SEND_SOL_INV : E810_OP_SEND_INV;
		s->inv_stag = wr->invalidate_rkey;
		break;
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		if (!(qp->caps & E810P_QP_CAP_WRITE_IMM))
			return EINVAL;
		s->has_imm = true;
		s->imm = be32toh(wr->imm_data);
		/* fall through */
	case IBV_WR_RDMA_WRITE:
		s->op = sol ? E810_OP_RDMA_WRITE_SOL : E810_OP_RDMA_WRITE;
		s->remote_addr = wr->wr.rdma.remote_addr;
		s->rkey = wr->wr.rdma.rkey;
		break;
	case IBV_WR_RDMA_READ:
		if (wr->num_sge > (int)ctx->max_read_sges)
			return EINVAL;
		s->op = E810_OP_RDMA_READ;
		s->remote_addr = wr->wr.rdma.remote_addr;
		s->rkey = wr->wr.rdma.rkey;
		s->inline_data = false;
		break;
	case IBV_WR_LOCAL_INV:
		s->op = E810_OP_LOCAL_INV;
		s->inv_stag = wr->invalidate_rkey;
		return 0;
	case IBV_WR_BIND_MW:
		return e810p_bind_wr_to_uk(qp->uk.ud, wr, s);
	default:
		return EINVAL;
	}
	if (qp->uk.ud) {
		if (!wr->wr.ud.ah)
			return EINVAL;
		s->ah_id = to_eah(wr->wr.ud.ah)->ah_id;
		s->dest_qpn = wr->wr.ud.remote_qpn;
		s->qkey = wr->wr.ud.remote_qkey;
	}
	ret = copy_sges(sg, wr->sg_list, wr->num_sge);
	s->sg = sg;
	s->num_sge = wr->num_sge;
	return ret;
}

int e810p_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr,
		    struct ibv_send_wr **bad)
{
	struct e810p_qp *qp = to_eqp(ibqp);
	struct e810u_sge sg[E810_MAX_FRAGS];
	struct e810u_swr s;
	int ret = 0;

	/* nothing may be posted in RESET (verbs: an immediate error) */
	if (ibqp->state == IBV_QPS_RESET || pthread_spin_lock(&qp->lock)) {
		*bad = wr;
		return EINVAL;
	}
	for (; wr; wr = wr->next) {
		ret = send_wr_to_uk(qp, wr, &s, sg);
		if (!ret)
			ret = -e810u_post_send(&qp->uk, &s);
		if (ret) {
			*bad = wr;
			break;
		}
		/* A type 2 window carries its new key from the post on. */
		if (wr->opcode == IBV_WR_BIND_MW &&
		    wr->bind_mw.mw->type == IBV_MW_TYPE_2)
			wr->bind_mw.mw->rkey = s.rkey;
	}
	/* one doorbell for the whole list, also for the part before an error */
	e810u_sq_kick(&qp->uk);
	pthread_spin_unlock(&qp->lock);
	return ret;
}

int e810p_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr,
		    struct ibv_recv_wr **bad)
{
	struct e810p_qp *qp = to_eqp(ibqp);
	struct e810u_sge sg[E810_MAX_FRAGS];
	int ret = 0;

	if (ibqp->state == IBV_QPS_RESET || pthread_spin_lock(&qp->lock)) {
		*bad = wr;
		return EINVAL;
	}
	for (; wr; wr = wr->next) {
		ret = copy_sges(sg, wr->sg_list, wr->num_sge);
		if (!ret)
			ret = -e810u_post_recv(&qp->uk, wr->wr_id, sg,
					       wr->num_sge);
		if (ret) {
			*bad = wr;
			break;
		}
	}
	pthread_spin_unlock(&qp->lock);
	return ret;
}

int e810p_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
		       uint16_t lid)
{
	return ibv_cmd_attach_mcast(qp, gid, lid);
}

int e810p_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
		       uint16_t lid)
{
	return ibv_cmd_detach_mcast(qp, gid, lid);
}
