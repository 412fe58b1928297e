// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Completion queues of the E810 provider: ring and shadow area allocation
 * and registration (reg_type CQ), create/destroy/resize, arming, and both
 * polling interfaces (ibv_poll_cq and the ibv_cq_ex start/next/end ones).
 * Decoding itself is in the shared ring layer, lib/irdma-ring/cq.c.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "e810p.h"

#define E810P_CQ_WC_FLAGS \
	(IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_IMM | \
	 IBV_WC_EX_WITH_QP_NUM | IBV_WC_EX_WITH_SRC_QP | \
	 IBV_WC_EX_WITH_SLID | IBV_WC_EX_WITH_SL | \
	 IBV_WC_EX_WITH_DLID_PATH_BITS)

/* The ring, and on GEN_1 the shadow area in the page after it. */
static int cq_ring_alloc(struct e810p_context *ctx, struct e810p_qbuf *b,
			 const struct e810u_cq_bufs *l)
{
	struct irdma_mem_reg_req req = {
		.reg_type = IRDMA_MEMREG_TYPE_CQ,
		.cq_pages = l->cq_pages,
	};
	int ret;

	ret = e810p_qbuf_alloc(b, l->ring_len);
	if (ret)
		return ret;
	ret = e810p_qbuf_register(b, ctx->queue_pd, &req);
	if (ret)
		e810p_qbuf_free(b);
	return ret;
}

static int cq_shadow_alloc(struct e810p_context *ctx, struct e810p_qbuf *b)
{
	struct irdma_mem_reg_req req = {
		.reg_type = IRDMA_MEMREG_TYPE_CQ,
		.cq_pages = 1,
	};
	int ret;

	ret = e810p_qbuf_alloc(b, E810P_PAGE);
	if (ret)
		return ret;
	ret = e810p_qbuf_register(b, ctx->queue_pd, &req);
	if (ret)
		e810p_qbuf_free(b);
	return ret;
}

enum ibv_wc_status e810p_wc_status(const struct e810u_cqe *c)
{
	if (c->status == E810U_OK)
		return IBV_WC_SUCCESS;
	if (c->status == E810U_ERROR)
		return IBV_WC_GENERAL_ERR;
	switch (c->minor) {
	case E810_FLUSH_PROT_ERR:
		return IBV_WC_LOC_PROT_ERR;
	case E810_FLUSH_REM_ACCESS_ERR:
		return IBV_WC_REM_ACCESS_ERR;
	case E810_FLUSH_LOC_QP_OP_ERR:
		return IBV_WC_LOC_QP_OP_ERR;
	case E810_FLUSH_REM_OP_ERR:
		return IBV_WC_REM_OP_ERR;
	case E810_FLUSH_LOC_LEN_ERR:
		return IBV_WC_LOC_LEN_ERR;
	case E810_FLUSH_GENERAL_ERR:
		return IBV_WC_WR_FLUSH_ERR;
	case E810_FLUSH_RETRY_EXC_ERR:
		return IBV_WC_RETRY_EXC_ERR;
	case E810_FLUSH_MW_BIND_ERR:
		return IBV_WC_MW_BIND_ERR;
	case E810_FLUSH_REM_INV_REQ_ERR:
		return IBV_WC_REM_INV_REQ_ERR;
	case E810_FLUSH_RNR_RETRY_EXC_ERR:
		return IBV_WC_RNR_RETRY_EXC_ERR;
	case E810_FLUSH_FATAL_ERR:
	default:
		return IBV_WC_FATAL_ERR;
	}
}

enum ibv_wc_opcode e810p_wc_opcode(const struct e810u_cqe *c)
{
	const struct e810p_qp *qp = c->qp->owner;

	/*
	 * A QP without SEND with immediate (iWARP) has no RoCE opcode in its
	 * receive CQEs: an immediate there came with a WRITE (upstream
	 * set_ib_wc_op_rq())
	 */
	if (!c->sq && !(qp->caps & E810P_QP_CAP_SEND_IMM))
		return c->imm_valid ? IBV_WC_RECV_RDMA_WITH_IMM : IBV_WC_RECV;
	if (!c->sq)
		return c->op == E810_RX_OP_RDMA_WRITE_LAST_IMM ||
		       c->op == E810_RX_OP_RDMA_WRITE_ONLY_IMM ?
		       IBV_WC_RECV_RDMA_WITH_IMM : IBV_WC_RECV;
	switch (c->op) {
	case E810_OP_RDMA_WRITE:
	case E810_OP_RDMA_WRITE_SOL:
		return IBV_WC_RDMA_WRITE;
	case E810_OP_RDMA_READ:
		return IBV_WC_RDMA_READ;
	case E810_OP_LOCAL_INV:
		return IBV_WC_LOCAL_INV;
	case E810_OP_BIND_MW:
		return IBV_WC_BIND_MW;
	default:
		return IBV_WC_SEND;
	}
}

static struct e810p_qp *cqe_qp(const struct e810u_cqe *c)
{
	return c->qp->owner;
}

static unsigned int cqe_wc_flags(const struct e810u_cqe *c)
{
	unsigned int f = 0;

	if (c->imm_valid)
		f |= IBV_WC_WITH_IMM;
	if (!c->sq && c->qp->ud)
		f |= IBV_WC_GRH;
	else if (!c->sq && c->stag_valid)
		f |= IBV_WC_WITH_INV;
	return f;
}

static uint32_t cqe_src_qp(const struct e810u_cqe *c)
{
	return c->qp->ud ? c->src_qpn : c->qp_id;
}

static uint8_t cqe_sl(const struct e810u_cqe *c)
{
	/* priority bits of the VLAN tag on UD receives */
	return c->vlan_valid ? c->vlan >> 13 : 0;
}

static void cqe_to_wc(const struct e810u_cqe *c, struct ibv_wc *wc)
{
	memset(wc, 0, sizeof(*wc));
	wc->wr_id = c->wr_id;
	wc->status = e810p_wc_status(c);
	wc->opcode = e810p_wc_opcode(c);
	wc->vendor_err = (uint32_t)c->major << 16 | c->minor;
	wc->byte_len = c->bytes;
	wc->qp_num = cqe_qp(c)->vqp.qp.qp_num;
	wc->src_qp = cqe_src_qp(c);
	wc->wc_flags = cqe_wc_flags(c);
	wc->sl = cqe_sl(c);
	if (c->imm_valid)
		wc->imm_data = htobe32(c->imm);
	else if (wc->wc_flags & IBV_WC_WITH_INV)
		wc->invalidated_rkey = c->inv_stag;
}

/* The old ring of a resize is freed once the ring layer drained it. */
static void cq_reap_old(struct e810p_cq *cq)
{
	if (cq->old_ring.va && !cq->uk.draining)
		e810p_qbuf_free(&cq->old_ring);
}

int e810p_poll_cq(struct ibv_cq *ibcq, int n, struct ibv_wc *wc)
{
	struct e810p_cq *cq = to_ecq(ibcq);
	struct e810u_cqe c;
	int got = 0, ret;

	if (n < 0)
		return -EINVAL;
	if (pthread_spin_lock(&cq->lock))
		return -EINVAL;
	while (got < n) {
		ret = e810u_cq_poll_one(&cq->uk, &c);
		if (ret)
			break;
		cqe_to_wc(&c, &wc[got++]);
	}
	cq_reap_old(cq);
	pthread_spin_unlock(&cq->lock);
	return got;
}

int e810p_req_notify_cq(struct ibv_cq *ibcq, int solicited_only)
{
	struct e810p_cq *cq = to_ecq(ibcq);

	if (pthread_spin_lock(&cq->lock))
		return EINVAL;
	e810u_cq_arm(&cq->uk, solicited_only);
	pthread_spin_unlock(&cq->lock);
	return 0;
}

/* ---- extended CQ ----------------------------------------------------- */

static struct e810p_cq *to_ecqx(struct ibv_cq_ex *cqx)
{
	return to_ecq(ibv_cq_ex_to_cq(cqx));
}

static int cqx_fetch(struct ibv_cq_ex *cqx)
{
	struct e810p_cq *cq = to_ecqx(cqx);
	int ret;

	/* ENOENT when empty, positive as ibv_start_poll() returns it */
	ret = -e810u_cq_poll_one(&cq->uk, &cq->cur);
	if (ret)
		return ret;
	cqx->wr_id = cq->cur.wr_id;
	cqx->status = e810p_wc_status(&cq->cur);
	return 0;
}

static int cqx_start_poll(struct ibv_cq_ex *cqx, struct ibv_poll_cq_attr *attr)
{
	struct e810p_cq *cq = to_ecqx(cqx);
	int ret;

	if (attr->comp_mask)
		return EINVAL;
	if (pthread_spin_lock(&cq->lock))
		return EINVAL;
	ret = cqx_fetch(cqx);
	if (ret) {
		/* no end_poll follows an empty start_poll */
		cq_reap_old(cq);
		pthread_spin_unlock(&cq->lock);
	}
	return ret;
}

static int cqx_next_poll(struct ibv_cq_ex *cqx)
{
	return cqx_fetch(cqx);
}

static void cqx_end_poll(struct ibv_cq_ex *cqx)
{
	struct e810p_cq *cq = to_ecqx(cqx);

	cq_reap_old(cq);
	pthread_spin_unlock(&cq->lock);
}

static enum ibv_wc_opcode cqx_read_opcode(struct ibv_cq_ex *cqx)
{
	return e810p_wc_opcode(&to_ecqx(cqx)->cur);
}

static uint32_t cqx_read_vendor_err(struct ibv_cq_ex *cqx)
{
	const struct e810u_cqe *c = &to_ecqx(cqx)->cur;

	return (uint32_t)c->major << 16 | c->minor;
}

static uint32_t cqx_read_byte_len(struct ibv_cq_ex *cqx)
{
	return to_ecqx(cqx)->cur.bytes;
}

static __be32 cqx_read_imm_data(struct ibv_cq_ex *cqx)
{
	const struct e810u_cqe *c = &to_ecqx(cqx)->cur;

	if (c->imm_valid)
		return htobe32(c->imm);
	/* the union member of ibv_wc: invalidated rkey */
	return (cqe_wc_flags(c) & IBV_WC_WITH_INV) ? htobe32(c->inv_stag) : 0;
}

static uint32_t cqx_read_qp_num(struct ibv_cq_ex *cqx)
{
	return cqe_qp(&to_ecqx(cqx)->cur)->vqp.qp.qp_num;
}

static uint32_t cqx_read_src_qp(struct ibv_cq_ex *cqx)
{
	return cqe_src_qp(&to_ecqx(cqx)->cur);
}

static unsigned int cqx_read_wc_flags(struct ibv_cq_ex *cqx)
{
	return cqe_wc_flags(&to_ecqx(cqx)->cur);
}

static uint32_t cqx_read_slid(struct ibv_cq_ex *cqx)
{
	(void)cqx;
	return 0;	/* RoCE: no LIDs */
}

static uint8_t cqx_read_sl(struct ibv_cq_ex *cqx)
{
	return cqe_sl(&to_ecqx(cqx)->cur);
}

static uint8_t cqx_read_dlid_path_bits(struct ibv_cq_ex *cqx)
{
	(void)cqx;
	return 0;
}

static void cqx_set_ops(struct e810p_cq *cq, uint64_t wc_flags)
{
	struct ibv_cq_ex *cqx = &cq->vcq.cq_ex;

	cqx->start_poll = cqx_start_poll;
	cqx->next_poll = cqx_next_poll;
	cqx->end_poll = cqx_end_poll;
	cqx->read_opcode = cqx_read_opcode;
	cqx->read_vendor_err = cqx_read_vendor_err;
	cqx->read_wc_flags = cqx_read_wc_flags;
	if (wc_flags & IBV_WC_EX_WITH_BYTE_LEN)
		cqx->read_byte_len = cqx_read_byte_len;
	if (wc_flags & IBV_WC_EX_WITH_IMM)
		cqx->read_imm_data = cqx_read_imm_data;
	if (wc_flags & IBV_WC_EX_WITH_QP_NUM)
		cqx->read_qp_num = cqx_read_qp_num;
	if (wc_flags & IBV_WC_EX_WITH_SRC_QP)
		cqx->read_src_qp = cqx_read_src_qp;
	if (wc_flags & IBV_WC_EX_WITH_SLID)
		cqx->read_slid = cqx_read_slid;
	if (wc_flags & IBV_WC_EX_WITH_SL)
		cqx->read_sl = cqx_read_sl;
	if (wc_flags & IBV_WC_EX_WITH_DLID_PATH_BITS)
		cqx->read_dlid_path_bits = cqx_read_dlid_path_bits;
}

/* ---- create / destroy / resize ---------------------------------------- */

static struct e810p_cq *cq_create(struct ibv_context *ibctx,
				  struct ibv_cq_init_attr_ex *attr, bool ext)
{
	struct e810p_context *ctx = to_ectx(ibctx);
	struct ib_uverbs_ex_create_cq_resp *uresp;
	struct e810p_create_cq_resp resp = {};
	struct e810p_create_cq cmd = {};
	bool resize = ctx->features & E810P_FEAT_CQ_RESIZE;
	uint32_t want = attr->cqe;
	struct e810u_cq_bufs l;
	struct e810p_cq *cq;
	int ret;

	if (!attr->cqe || attr->cqe >= ctx->max_cq_size ||
	    attr->comp_mask & ~(uint32_t)IBV_CQ_INIT_ATTR_MASK_FLAGS ||
	    (ext && attr->wc_flags & ~(uint64_t)E810P_CQ_WC_FLAGS)) {
		errno = attr->wc_flags & ~(uint64_t)E810P_CQ_WC_FLAGS ?
			EOPNOTSUPP : EINVAL;
		return NULL;
	}
	if ((attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_FLAGS) && attr->flags) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	/*
	 * GEN_1 has no extended CQ in the stock provider either (upstream
	 * ucreate_cq() refuses ext_cq on IRDMA_GEN_1); ibv_create_cq() works.
	 */
	if (ext && ctx->geom->gen == E810_GEN_1) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	cq = calloc(1, sizeof(*cq));
	if (!cq)
		return NULL;
	ret = pthread_spin_init(&cq->lock, PTHREAD_PROCESS_PRIVATE);
	if (ret)
		goto err_free;
	/*
	 * a CQE may take two slots (extended part) on GEN_2, as the kernel
	 * sizes; without resize (GEN_1) the shadow follows the ring
	 */
	e810u_cq_bufs(ctx->geom, resize, want, E810P_PAGE, &l);
	ret = cq_ring_alloc(ctx, &cq->ring, &l);
	if (ret)
		goto err_lock;
	if (resize) {
		ret = cq_shadow_alloc(ctx, &cq->shadow);
		if (ret)
			goto err_ring;
	}

	cmd.user_cq_buf = (uintptr_t)cq->ring.va;
	cmd.user_shadow_area = resize ? (uintptr_t)cq->shadow.va :
			       (uintptr_t)cq->ring.va + l.shadow_off;
	attr->cqe = l.entries;
	uresp = &resp.ibv_resp;
	ret = ibv_cmd_create_cq_ex(ibctx, attr, &cq->vcq, &cmd.ibv_cmd,
				   sizeof(cmd), uresp, sizeof(resp), 0);
	attr->cqe = want;
	if (ret)
		goto err_shadow;

	/* report what the application asked for, not the doubled ring */
	cq->vcq.cq.cqe = want;
	cq->uk.ring.buf = cq->ring.va;
	cq->uk.ring.size = l.entries;
	cq->uk.ring.head = 0;
	cq->uk.ring.pol = 1;
	cq->uk.shadow = (E810U_SHADOW *)(uintptr_t)cmd.user_shadow_area;
	cq->uk.arm_db = (volatile uint32_t *)((uint8_t *)ctx->db +
					      E810_DB_CQ_OFFSET);
	cq->uk.cq_id = resp.cq_id;
	cq->wc_flags = attr->wc_flags;
	if (ext)
		cqx_set_ops(cq, attr->wc_flags);
	return cq;

err_shadow:
	e810p_qbuf_free(&cq->shadow);
err_ring:
	e810p_qbuf_free(&cq->ring);
err_lock:
	pthread_spin_destroy(&cq->lock);
err_free:
	free(cq);
	errno = ret;
	return NULL;
}

struct ibv_cq *e810p_create_cq(struct ibv_context *ctx, int cqe,
			       struct ibv_comp_channel *ch, int vec)
{
	struct ibv_cq_init_attr_ex attr = {
		.cqe = cqe,
		.channel = ch,
		.comp_vector = vec,
		.wc_flags = IBV_WC_STANDARD_FLAGS,
	};
	struct e810p_cq *cq;

	if (cqe <= 0) {
		errno = EINVAL;
		return NULL;
	}
	cq = cq_create(ctx, &attr, false);
	return cq ? &cq->vcq.cq : NULL;
}

struct ibv_cq_ex *e810p_create_cq_ex(struct ibv_context *ctx,
				     struct ibv_cq_init_attr_ex *attr)
{
	struct e810p_cq *cq = cq_create(ctx, attr, true);

	return cq ? &cq->vcq.cq_ex : NULL;
}

int e810p_destroy_cq(struct ibv_cq *ibcq)
{
	struct e810p_cq *cq = to_ecq(ibcq);
	int ret;

	ret = ibv_cmd_destroy_cq(ibcq);
	if (ret)
		return ret;
	e810p_qbuf_free(&cq->old_ring);
	e810p_qbuf_free(&cq->shadow);
	e810p_qbuf_free(&cq->ring);
	pthread_spin_destroy(&cq->lock);
	free(cq);
	return 0;
}

int e810p_resize_cq(struct ibv_cq *ibcq, int cqe)
{
	struct e810p_context *ctx = to_ectx(ibcq->context);
	struct e810p_cq *cq = to_ecq(ibcq);
	struct ib_uverbs_resize_cq_resp resp;
	struct e810p_resize_cq cmd = {};
	struct e810u_cq_bufs l;
	struct e810p_qbuf nb;
	int ret;

	/*
	 * GEN_1 cannot resize (upstream irdma_uresize_cq() without
	 * IRDMA_FEATURE_CQ_RESIZE): its shadow area lives in the ring's pages
	 */
	if (!(ctx->features & E810P_FEAT_CQ_RESIZE))
		return EOPNOTSUPP;
	if (cqe <= 0 || (uint32_t)cqe >= ctx->max_cq_size)
		return EINVAL;
	e810u_cq_bufs(ctx->geom, true, cqe, E810P_PAGE, &l);
	if (l.entries == cq->uk.ring.size)
		return 0;
	ret = cq_ring_alloc(ctx, &nb, &l);
	if (ret)
		return ret;
	if (pthread_spin_lock(&cq->lock)) {
		e810p_qbuf_free(&nb);
		return EINVAL;
	}
	/*
	 * The ring layer tracks a single old ring. One without CQEs is done
	 * with: the device writes only to the newest ring after a resize.
	 */
	e810u_cq_retire_old(&cq->uk);
	cq_reap_old(cq);
	if (cq->uk.draining) {
		ret = EBUSY;
		goto err_unlock;
	}
	cmd.user_cq_buffer = (uintptr_t)nb.va;
	ret = ibv_cmd_resize_cq(ibcq, l.entries, &cmd.ibv_cmd, sizeof(cmd),
				&resp, sizeof(resp));
	if (ret)
		goto err_unlock;
	cq->old_ring = cq->ring;
	cq->ring = nb;
	e810u_cq_resize_begin(&cq->uk, nb.va, l.entries);
	ibcq->cqe = cqe;
	pthread_spin_unlock(&cq->lock);
	return 0;

err_unlock:
	pthread_spin_unlock(&cq->lock);
	e810p_qbuf_free(&nb);
	return ret;
}
