// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: verbs QPs, RoCEv2 RC and UD.
 *
 * A user QP's SQ, RQ and doorbell shadow area sit in one buffer the
 * provider registered with reg_type QP (docs/hw-reference.md 6.4); a
 * kernel QP has one coherent buffer laid out the same way. The device learns
 * the QP through CREATE_QP / MODIFY_QP / DESTROY_QP with the host context of
 * qp_ctx.c, rebuilt from the attributes before each of them.
 *
 * IB states map to device states (hw-reference 2.5): RESET and INIT = IDLE,
 * RTR = RTR, RTS and SQE = RTS, SQD = SQD (CLOSING), ERR = ERROR followed
 * by FLUSH_WQES. The device does not generate flush CQEs for WQEs it never
 * fetched, so kernel QPs complete those in software (uk.c, poll_cq); the
 * provider does the same for user QPs. MODIFY_QP only makes the state
 * transitions upstream irdma_modify_qp_roce() makes, the only ones known
 * to work on the hardware (docs/irdma.md). Nothing leaves ERROR: RESET
 * of a kernel QP the device took past IDLE destroys and re-creates the
 * device QP under the same id; a user QP in that case cannot go back to
 * INIT (-EINVAL, as upstream).
 *
 * QP ids: 0 is reserved, 1 is the GSI QP (ib_mad's QP1, kernel only),
 * verbs QPs start at 2. The E810 has no GSI QP type: on RoCEv2 QP1 is a
 * UD QP like any other (the device's UD receive path delivers datagrams
 * for destination QP 1 to it); its Q_Key 0x80010000 comes from ib_mad's
 * INIT modify and MAD sends ask for the QP's Q_Key (IB_QP_SET_QKEY).
 * AEs name the QP by id, never by a pointer (docs/irdma.md).
 */

#include <linux/bitfield.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/highmem.h>
#include <linux/if_vlan.h>
#include <linux/log2.h>
#include <linux/version.h>
#include <net/ipv6.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_umem.h>
#include <rdma/iter.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/irdma-abi.h>
#include <rdma/uverbs_ioctl.h>

#include <hw/e810_ctx.h>
#include <hw/e810_regs.h>
#include <hw/e810_uk.h>

#include "iw.h"
#include "mr.h"
#include "qp.h"

#define IRDMA_QP_CTX_ALLOC	512	/* context, 256-byte aligned */
#define IRDMA_PSN_MASK		0xFFFFFF

/* create_qp response qp_caps (hw-reference 6.2). */
#define IRDMA_QP_CAP_WRITE_WITH_IMM	BIT(0)
#define IRDMA_QP_CAP_SEND_WITH_IMM	BIT(1)
#define IRDMA_QP_CAP_ROCE		BIT(2)

/* SQ opcode of the connection-established WQE (upstream IRDMAQP_OP_GEN_RTS_AE). */
#define IRDMA_OP_GEN_RTS_AE	0x30
/* The RTR READ's STags (upstream irdma_sc_send_rtt()). */
#define IRDMA_RTR_READ_LKEY	0xabcd
#define IRDMA_RTR_READ_RKEY	0x1234
/* How long a destroy waits for iw_cm to let an iWARP QP go. */
#define IRDMA_IW_FREE_MS	10000

#define IRDMA_FLUSH_MAJOR	1
#define IRDMA_FLUSH_GENERAL	1

/* ---- sizes -------------------------------------------------------------- */

/*
 * SQ/RQ geometry from the requested capabilities (hw-reference 5.1), by
 * the ring layer's e810u_wq_sizes() on the generation's table, as the
 * provider sizes its rings. With raw attributes (every current provider
 * and kernel consumers) @cap holds the consumer's values; older providers
 * pass SQ/RQ sizes in WQEs of the shift.
 */
static int irdma_qp_sizes(struct irdma_qp *qp, struct ib_qp_cap *cap,
			  bool raw)
{
	const struct e810_wq_geom *g = irdma_geom(qp->rf);
	const struct e810u_wq_caps caps = E810U_WQ_CAPS(cap);
	struct e810u_wq_sizes s;
	int err;

	err = e810u_wq_sizes(g, &caps, g->min_wq_quanta, g->max_wq_quanta,
			     g->max_rq_quanta, !raw, &s);
	if (err)
		return err;
	qp->sq_shift = s.sq_shift;
	qp->rq_shift = s.rq_shift;
	qp->sq_depth = s.sq_depth;
	qp->rq_depth = s.rq_depth;
	qp->cap = *cap;
	qp->cap.max_send_wr = s.max_send_wr;
	qp->cap.max_recv_wr = s.max_recv_wr;
	return 0;
}

/* ---- user and kernel queue memory ---------------------------------------- */

/* DMA address of 4 KiB page @idx of a user buffer that is not contiguous. */
int irdma_qbuf_page(struct irdma_qbuf *qb, u32 idx, u64 *pa)
{
	struct ib_block_iter biter;
	u32 n = 0;

	rdma_umem_for_each_dma_block(qb->umem, &biter, SZ_4K) {
		if (n++ == idx) {
			*pa = rdma_block_iter_dma_address(&biter);
			return 0;
		}
	}
	return -EINVAL;
}

static int irdma_qp_user_init(struct irdma_qp *qp, struct ib_udata *udata)
{
	struct irdma_ucontext *uctx = rdma_udata_to_drv_context(udata,
			struct irdma_ucontext, ibucontext);
	struct irdma_create_qp_req req = { };
	struct irdma_qbuf *qb;
	u32 pages;
	int err;

	if (udata->inlen < offsetofend(struct irdma_create_qp_req,
				       user_compl_ctx) ||
	    udata->outlen < offsetofend(struct irdma_create_qp_resp, rsvd))
		return -EINVAL;
	if (ib_copy_from_udata(&req, udata, sizeof(req)))
		return -EFAULT;
	qb = irdma_qbuf_claim(uctx, req.user_wqe_bufs, IRDMA_MEMREG_TYPE_QP);
	if (!qb) {
		ibdev_dbg(qp->ibqp.device, "no QP buffer registered at 0x%llx\n",
			  req.user_wqe_bufs);
		return -ENODATA;
	}
	/* The announced layout must hold the rings and the shadow page. */
	pages = qb->sq_pages + qb->rq_pages;
	if ((u64)qb->sq_pages * SZ_4K < (u64)qp->sq_depth * E810_WQE_QUANTUM ||
	    (u64)qb->rq_pages * SZ_4K < (u64)qp->rq_depth * E810_WQE_QUANTUM ||
	    (u64)pages + 1 > qb->npages) {
		ibdev_dbg(qp->ibqp.device,
			  "QP buffer %u+%u of %u pages too small for %u/%u quanta\n",
			  qb->sq_pages, qb->rq_pages, qb->npages, qp->sq_depth,
			  qp->rq_depth);
		err = -EINVAL;
		goto err_release;
	}
	if (qb->contig) {
		qp->sq_addr = qb->pa;
		qp->rq_addr = qb->pa + (u64)qb->sq_pages * SZ_4K;
		qp->shadow_pa = qb->pa + (u64)pages * SZ_4K;
	} else {
		qp->virt = true;
		qp->sq_addr = qb->pble;
		qp->rq_addr = qb->pble + qb->sq_pages;
		err = irdma_qbuf_page(qb, pages, &qp->shadow_pa);
		if (err)
			goto err_release;
	}
	qp->qb = qb;
	qp->uctx = uctx;
	qp->user = true;
	qp->compl_ctx = req.user_compl_ctx;
	return 0;

err_release:
	irdma_qbuf_release(uctx, qb);
	return err;
}

static void irdma_cq_link(struct irdma_cq *cq, struct irdma_cq_link *l,
			  bool sq)
{
	unsigned long flags;

	l->sq = sq;
	spin_lock_irqsave(&cq->lock, flags);
	list_add_tail(&l->node, &cq->qps);
	spin_unlock_irqrestore(&cq->lock, flags);
}

static void irdma_cq_unlink(struct irdma_cq *cq, struct irdma_cq_link *l)
{
	unsigned long flags;

	spin_lock_irqsave(&cq->lock, flags);
	list_del(&l->node);
	spin_unlock_irqrestore(&cq->lock, flags);
}

static int irdma_qp_kernel_init(struct irdma_qp *qp)
{
	struct irdma_pci_f *rf = qp->rf;
	size_t sq = (size_t)qp->sq_depth * E810_WQE_QUANTUM;
	size_t rq = (size_t)qp->rq_depth * E810_WQE_QUANTUM;
	struct e810u_qp *r = &qp->ring;
	int err;

	r->sq_slots = kcalloc(qp->sq_depth, sizeof(*r->sq_slots), GFP_KERNEL);
	r->rq_wrid = kcalloc(qp->rq_depth >> qp->rq_shift, sizeof(*r->rq_wrid),
			     GFP_KERNEL);
	if (!r->sq_slots || !r->rq_wrid) {
		err = -ENOMEM;
		goto err_free;
	}
	err = irdma_dma_alloc(rf, &qp->kbuf, sq + rq + E810_QP_SHADOW_SIZE,
			      GFP_KERNEL);
	if (err)
		goto err_free;
	qp->sq_addr = qp->kbuf.pa;
	qp->rq_addr = qp->kbuf.pa + sq;
	qp->shadow_pa = qp->kbuf.pa + sq + rq;
	r->geom = irdma_geom(rf);
	r->sq = qp->kbuf.va;
	r->sq_quanta = qp->sq_depth;
	r->rq = qp->kbuf.va + sq;
	r->rq_size = qp->rq_depth >> qp->rq_shift;
	r->rq_shift = qp->rq_shift;
	r->max_sq_frags = qp->cap.max_send_sge;
	r->max_rq_frags = qp->cap.max_recv_sge;
	r->max_inline = qp->cap.max_inline_data;
	r->ud = irdma_qp_is_ud(qp);
	r->priv = true;
	r->qp_id = qp->qp_id;
	/* No doorbell skipping: every post that wrote WQEs rings. */
	r->shadow = NULL;
	r->sq_db = (u32 __iomem *)(rf->hw_addr + IRDMA_REG(rf, wqealloc));
	r->owner = qp;
	/* iWARP: the connection WQEs take the first slots (cm.c). */
	if (qp->hw_type == E810_QP_TYPE_IWARP)
		r->conn_wqes = irdma_is_gen1(rf) ? E810U_CONN_WQES :
						   E810U_CONN_WQES_RTS_AE;
	e810u_qp_reset(r);
	/* Kernel QPs are named by id in CQEs: 0 marks a cleaned CQE. */
	qp->compl_ctx = qp->qp_id;
	irdma_cq_link(qp->scq, &qp->slink, true);
	irdma_cq_link(qp->rcq, &qp->rlink, false);
	return 0;

err_free:
	kfree(r->rq_wrid);
	kfree(r->sq_slots);
	r->rq_wrid = NULL;
	r->sq_slots = NULL;
	return err;
}

static void irdma_qp_kernel_fini(struct irdma_qp *qp)
{
	irdma_cq_unlink(qp->scq, &qp->slink);
	irdma_cq_unlink(qp->rcq, &qp->rlink);
	irdma_cq_clean_qp(qp->scq, qp->qp_id);
	if (qp->rcq != qp->scq)
		irdma_cq_clean_qp(qp->rcq, qp->qp_id);
	irdma_dma_free(qp->rf, &qp->kbuf);
	kfree(qp->ring.rq_wrid);
	kfree(qp->ring.sq_slots);
}

/* Software rings back to empty (RESET). */
static void irdma_qp_kernel_reset(struct irdma_qp *qp)
{
	unsigned long flags;

	spin_lock_irqsave(&qp->lock, flags);
	memset(qp->kbuf.va, 0, qp->kbuf.size);
	e810u_qp_reset(&qp->ring);
	qp->flush_sq = false;
	qp->flush_rq = false;
	qp->sq_draining = false;
	spin_unlock_irqrestore(&qp->lock, flags);
}

/* ---- CQP ops -------------------------------------------------------------- */

static int irdma_qp_cqp_w8(struct irdma_qp *qp, u8 op, u64 hdr, u64 w8)
{
	u64 q[8] = { };

	q[E810_QW(E810_CQPSQ_QP_MSS_OFF)] = w8;
	q[E810_QW(E810_CQPSQ_QP_CTX_OFF)] = qp->ctx.pa;
	q[E810_QW(E810_CQPSQ_QP_DBSHADOW_OFF)] = qp->shadow_pa;
	hdr |= FIELD_PREP(E810_CQPSQ_QP_QPID, qp->qp_id) |
	       FIELD_PREP(E810_CQPSQ_QP_QPTYPE, qp->hw_type);
	if (op != E810_CQP_OP_DESTROY_QP && qp->virt)
		hdr |= E810_CQPSQ_QP_VQ;
	return irdma_cqp_exec(qp->rf, op, hdr, q, NULL);
}

static int irdma_qp_cqp(struct irdma_qp *qp, u8 op, u64 hdr)
{
	return irdma_qp_cqp_w8(qp, op, hdr, 0);
}

/*
 * Context rebuilt, then MODIFY_QP from the device state to @next, one of
 * the transitions upstream irdma_modify_qp_roce() makes (the device
 * refuses others with "Invalid State"). Caller holds qp->mutex.
 */
static int irdma_qp_hw_modify_w8(struct irdma_qp *qp, u8 next, u64 hdr,
				 u64 w8)
{
	int err;

	lockdep_assert_held(&qp->mutex);
	irdma_qp_ctx_write(qp);
	err = irdma_qp_cqp_w8(qp, E810_CQP_OP_MODIFY_QP,
			      hdr | E810_CQPSQ_QP_CQNUMVALID |
			      FIELD_PREP(E810_CQPSQ_QP_NEXTIWSTATE, next), w8);
	/*
	 * A Terminate the device refuses because it failed the QP on its
	 * own first is expected; irdma_term_send() ends the exchange.
	 */
	if (err && next == E810_QP_STATE_TERMINATE) {
		ibdev_dbg(qp->ibqp.device, "QP %u: MODIFY_QP %s -> %s failed: %d\n",
			  qp->qp_id, e810_qp_state_name(qp->hw_state),
			  e810_qp_state_name(next), err);
		return err;
	}
	if (err) {
		ibdev_err(qp->ibqp.device, "QP %u: MODIFY_QP %s -> %s failed: %d\n",
			  qp->qp_id, e810_qp_state_name(qp->hw_state),
			  e810_qp_state_name(next), err);
		return err;
	}
	WRITE_ONCE(qp->hw_state, next);
	return 0;
}

static int irdma_qp_hw_modify(struct irdma_qp *qp, u8 next, u64 hdr)
{
	return irdma_qp_hw_modify_w8(qp, next, hdr, 0);
}

/*
 * RTS -> SQD, as upstream irdma_modify_qp_roce() since 6.7: the modify
 * returns once the device says, with AE QP_SUSPEND_COMPLETE, that the
 * WQEs it had taken are done (irdma_qp_ae()); -EBUSY after 5 s without
 * it (IRDMA_EVENT_TIMEOUT_MS upstream). Caller holds qp->mutex.
 */
static int irdma_qp_to_sqd(struct irdma_qp *qp)
{
	struct irdma_pci_f *rf = qp->rf;
	int err;

	WRITE_ONCE(qp->suspend_pending, true);
	err = irdma_qp_hw_modify(qp, E810_QP_STATE_SQD, 0);
	if (err) {
		WRITE_ONCE(qp->suspend_pending, false);
		return err;
	}
	if (!wait_event_timeout(rf->suspend_wq, !READ_ONCE(qp->suspend_pending),
				msecs_to_jiffies(5000))) {
		WRITE_ONCE(qp->suspend_pending, false);
		ibdev_warn(qp->ibqp.device, "QP %u: no suspend-complete AE after SQD, last AE 0x%04x\n",
			   qp->qp_id, qp->last_ae);
		return -EBUSY;
	}
	return 0;
}

/* Device QP to ERROR (from any state); caller holds qp->mutex. */
static int irdma_qp_to_hw_err(struct irdma_qp *qp)
{
	if (qp->hw_state == E810_QP_STATE_ERROR)
		return 0;
	/*
	 * An offloaded connection the device's last AEQE left open is reset
	 * (upstream irdma_modify_qp(), IB_QPS_ERR: reset_tcp_conn from
	 * hw_tcp_state): the device sends an RST.
	 */
	return irdma_qp_hw_modify(qp, E810_QP_STATE_ERROR,
				  qp->iw_offloaded &&
				  e810_tcpstate_open(READ_ONCE(qp->hw_tcp_state)) ?
				  E810_CQPSQ_QP_RESETCON : 0);
}

static int irdma_qp_flush(struct irdma_qp *qp, bool sq, bool rq)
{
	u64 q[8] = { };
	u64 hdr;
	int err;

	hdr = FIELD_PREP(E810_CQPSQ_FWQE_QPID, qp->qp_id) |
	      E810_CQPSQ_FWQE_USERFLCODE |
	      (sq ? E810_CQPSQ_FWQE_FLUSHSQ : 0) |
	      (rq ? E810_CQPSQ_FWQE_FLUSHRQ : 0);
	q[E810_QW(E810_CQPSQ_FWQE_CODES_OFF)] =
		FIELD_PREP(E810_CQPSQ_FWQE_RQMNERR, IRDMA_FLUSH_GENERAL) |
		FIELD_PREP(E810_CQPSQ_FWQE_RQMJERR, IRDMA_FLUSH_MAJOR) |
		FIELD_PREP(E810_CQPSQ_FWQE_SQMNERR, IRDMA_FLUSH_GENERAL) |
		FIELD_PREP(E810_CQPSQ_FWQE_SQMJERR, IRDMA_FLUSH_MAJOR);
	err = irdma_cqp_exec(qp->rf, E810_CQP_OP_FLUSH_WQES, hdr, q, NULL);
	if (err)
		ibdev_err(qp->ibqp.device, "QP %u: FLUSH_WQES failed: %d\n",
			  qp->qp_id, err);
	return err;
}

/*
 * A user iWARP QP goes to ERROR mostly without its provider knowing: the
 * connection manager flushes it when the peer resets or closes (cm.c),
 * the Terminate exchange when it ends, iw_cm when the connection goes.
 * rdma_cm moved it, not the application, so rdma-core's irdma provider
 * never asks for another flush (irdma_upost_recv() and
 * irdma_upost_send() re-flush, irdma_issue_flush(), only once their own
 * ibv_qp state is ERROR). A receive posted after the flush has no
 * doorbell to tell the device of it and nothing would ever complete it:
 * rping's CQ thread reposts one as it takes each receive completion, and
 * when the peer's RST lands in between, the thread waits for a
 * completion event forever. So both queues are flushed again while the
 * QP stays in ERROR: at the application's rdma_disconnect() (SQD,
 * ucma_shutdown(), irdma_modify_qp()) and on a timer, 20 ms after the
 * flush (upstream IRDMA_FLUSH_DELAY_MS, its delay for a kernel QP's
 * post after a flush, irdma_post_recv()) doubling to once a second,
 * until the QP leaves ERROR or is destroyed. Empty queues get no
 * completion. Caller holds qp->mutex.
 */
#define IRDMA_REFLUSH_FIRST_MS	20
#define IRDMA_REFLUSH_MAX_MS	1000

static void irdma_iw_qp_reflush(struct irdma_qp *qp)
{
	lockdep_assert_held(&qp->mutex);
	if (qp->hw_state == E810_QP_STATE_ERROR && !qp->rf->resetting)
		irdma_qp_flush(qp, true, true);
}

static void irdma_iw_qp_reflush_work(struct work_struct *work)
{
	struct irdma_qp *qp = container_of(to_delayed_work(work),
					   struct irdma_qp, reflush);

	mutex_lock(&qp->mutex);
	if (qp->hw_state == E810_QP_STATE_ERROR && !qp->rf->resetting) {
		irdma_qp_flush(qp, true, true);
		qp->reflush_ms = min_t(u32, qp->reflush_ms * 2,
				       IRDMA_REFLUSH_MAX_MS);
		schedule_delayed_work(&qp->reflush,
				      msecs_to_jiffies(qp->reflush_ms));
	}
	mutex_unlock(&qp->mutex);
}

/* Device to ERROR, outstanding WQEs flushed. Caller holds qp->mutex. */
static int irdma_qp_to_err(struct irdma_qp *qp, bool sq, bool rq)
{
	unsigned long flags;
	int err;

	lockdep_assert_held(&qp->mutex);

	err = irdma_qp_to_hw_err(qp);
	if (err)
		return err;
	err = irdma_qp_flush(qp, sq, rq);
	if (qp->user) {
		if (!err && qp->hw_type == E810_QP_TYPE_IWARP &&
		    !delayed_work_pending(&qp->reflush)) {
			qp->reflush_ms = IRDMA_REFLUSH_FIRST_MS;
			schedule_delayed_work(&qp->reflush,
					      msecs_to_jiffies(qp->reflush_ms));
		}
		return err;
	}
	spin_lock_irqsave(&qp->lock, flags);
	qp->flush_sq |= sq;
	qp->flush_rq |= rq;
	spin_unlock_irqrestore(&qp->lock, flags);
	irdma_cq_kick(qp->scq);
	if (qp->rcq != qp->scq)
		irdma_cq_kick(qp->rcq);
	return err;
}

/* ---- iWARP Terminate ----------------------------------------------------- */

/*
 * Q2 follows the host context (qp_ctx.c): the device reads the Terminate
 * header the driver builds at Q2 + 0 and writes the segment an error AE
 * is about, or a Terminate received, at Q2 + 72 behind rebuilt
 * Ethernet/IP/TCP headers (upstream Q2_BAD_FRAME_OFFSET).
 */
#define IRDMA_Q2_OFF		256
#define IRDMA_Q2_FRAME_OFF	72
#define IRDMA_Q2_LEN		(IRDMA_QP_CTX_ALLOC - IRDMA_Q2_OFF)

/* MODIFY_QP -> TERMINATE: what the device sends (upstream IRDMAQP_TERM_*). */
#define IRDMA_TERMACT_TERM	1
#define IRDMA_TERMACT_FIN	2

/* RFC 5040 7.2: the Terminate control's layer (high nibble) and type. */
#define IRDMA_TERM_LAYER_RDMAP	0
#define IRDMA_TERM_LAYER_DDP	1
#define IRDMA_TERM_LAYER_LLP	2
#define IRDMA_TERM_LE(l, t)	(((l) << 4) | (t))
#define IRDMA_TERM_RDMAP_PROT	IRDMA_TERM_LE(IRDMA_TERM_LAYER_RDMAP, 1)
#define IRDMA_TERM_RDMAP_OP	IRDMA_TERM_LE(IRDMA_TERM_LAYER_RDMAP, 2)
#define IRDMA_TERM_DDP_CATAS	IRDMA_TERM_LE(IRDMA_TERM_LAYER_DDP, 0)
#define IRDMA_TERM_DDP_TAGGED	IRDMA_TERM_LE(IRDMA_TERM_LAYER_DDP, 1)
#define IRDMA_TERM_DDP_UNTAGGED	IRDMA_TERM_LE(IRDMA_TERM_LAYER_DDP, 2)
/* RFC 5044 8: an MPA error (CRC) reported as LLP, type 3 as upstream. */
#define IRDMA_TERM_MPA		IRDMA_TERM_LE(IRDMA_TERM_LAYER_LLP, 3)

/* Error codes: RDMAP (RFC 5040 7.2), DDP (RFC 5041 7.2), MPA (RFC 5044). */
enum {
	IRDMA_TERM_RDMAP_INV_STAG = 0x00,
	IRDMA_TERM_RDMAP_BOUNDS = 0x01,
	IRDMA_TERM_RDMAP_ACCESS = 0x02,
	IRDMA_TERM_RDMAP_UNASSOC = 0x03,
	IRDMA_TERM_RDMAP_WRAP = 0x04,
	IRDMA_TERM_RDMAP_VERSION = 0x05,
	IRDMA_TERM_RDMAP_CANT_INV = 0x09,
	IRDMA_TERM_RDMAP_UNSPEC = 0xff,
	IRDMA_TERM_DDP_LOCAL = 0x00,
	IRDMA_TERM_TAG_INV_STAG = 0x00,
	IRDMA_TERM_TAG_BOUNDS = 0x01,
	IRDMA_TERM_TAG_UNASSOC = 0x02,
	IRDMA_TERM_TAG_VERSION = 0x04,
	IRDMA_TERM_UNTAG_QN = 0x01,
	IRDMA_TERM_UNTAG_NO_BUF = 0x02,
	IRDMA_TERM_UNTAG_MSN = 0x03,
	IRDMA_TERM_UNTAG_MO = 0x04,
	IRDMA_TERM_UNTAG_TOO_LONG = 0x05,
	IRDMA_TERM_UNTAG_VERSION = 0x06,
	IRDMA_TERM_MPA_CRC = 0x02,
};

/* The Terminate's hdrct bits: what follows its 4-byte header. */
#define IRDMA_TERM_HDRCT_M	0x80	/* the DDP segment length */
#define IRDMA_TERM_HDRCT_D	0x40	/* the DDP header */
#define IRDMA_TERM_HDRCT_R	0x20	/* the RDMAP header (Read Request) */
#define IRDMA_TERM_DDP_TAGGED_LEN	14
#define IRDMA_TERM_DDP_UNTAGGED_LEN	18
#define IRDMA_TERM_RDMAP_RREQ_LEN	28
#define IRDMA_TERM_HDR_LEN		4

/* RDMAP opcodes the mapping looks at (RFC 5040 4.3). */
#define IRDMA_RDMAP_WRITE	0x0
#define IRDMA_RDMAP_READ_REQ	0x1
#define IRDMA_RDMAP_SEND_INV	0x4
#define IRDMA_RDMAP_SEND_SE_INV	0x6

static u32 irdma_term_be32(const u8 *p)
{
	return ((u32)p[0] << 24) | (p[1] << 16) | (p[2] << 8) | p[3];
}

/*
 * The MPA header of the frame at Q2 + 72 (Ethernet, IPv4 or IPv6, TCP),
 * or NULL when the headers do not leave room for a Terminate's fields.
 */
static const u8 *irdma_term_mpa(const u8 *q2)
{
	const u8 *f = q2 + IRDMA_Q2_FRAME_OFF;
	unsigned int off = ETH_HLEN;

	if ((f[off] >> 4) == 6)
		off += sizeof(struct ipv6hdr);
	else
		off += 4 * (f[off] & 0x0f);
	if (off + 13 >= IRDMA_Q2_LEN - IRDMA_Q2_FRAME_OFF)
		return NULL;
	off += 4 * (f[off + 12] >> 4);
	/* MPA length, DDP/RDMAP control, 16 more bytes, a Terminate header */
	if (off + 24 > IRDMA_Q2_LEN - IRDMA_Q2_FRAME_OFF)
		return NULL;
	return f + off;
}

/*
 * The Terminate's layer/type and code for error AE @ae (RFC 5040 7.2, the
 * same choice as upstream irdma_bld_terminate_hdr()); @op is the RDMAP
 * opcode of the offending segment or -1, @tagged its DDP T bit.
 */
static void irdma_term_code(u16 ae, int op, bool tagged, bool q2, u8 *le,
			    u8 *code)
{
	*le = IRDMA_TERM_RDMAP_PROT;
	switch (ae) {
	case E810_AE_AMP_UNALLOCATED_STAG:
		if (op == IRDMA_RDMAP_WRITE) {
			*le = IRDMA_TERM_DDP_TAGGED;
			*code = IRDMA_TERM_TAG_INV_STAG;
		} else {
			*code = IRDMA_TERM_RDMAP_INV_STAG;
		}
		return;
	case E810_AE_AMP_BOUNDS_VIOLATION:
		if (q2) {
			*le = IRDMA_TERM_DDP_TAGGED;
			*code = IRDMA_TERM_TAG_BOUNDS;
		} else {
			*code = IRDMA_TERM_RDMAP_BOUNDS;
		}
		return;
	case E810_AE_AMP_BAD_PD:
		if (op == IRDMA_RDMAP_WRITE) {
			*le = IRDMA_TERM_DDP_TAGGED;
			*code = IRDMA_TERM_TAG_UNASSOC;
		} else if (op == IRDMA_RDMAP_SEND_INV ||
			   op == IRDMA_RDMAP_SEND_SE_INV) {
			*code = IRDMA_TERM_RDMAP_CANT_INV;
		} else {
			*code = IRDMA_TERM_RDMAP_UNASSOC;
		}
		return;
	case E810_AE_AMP_INVALID_STAG:
		*code = IRDMA_TERM_RDMAP_INV_STAG;
		return;
	case E810_AE_AMP_BAD_QP:
		*le = IRDMA_TERM_DDP_UNTAGGED;
		*code = IRDMA_TERM_UNTAG_QN;
		return;
	case E810_AE_AMP_BAD_STAG_KEY:
	case E810_AE_AMP_BAD_STAG_INDEX:
		*le = IRDMA_TERM_RDMAP_OP;
		*code = (op == IRDMA_RDMAP_SEND_INV ||
			 op == IRDMA_RDMAP_SEND_SE_INV) ?
			IRDMA_TERM_RDMAP_CANT_INV : IRDMA_TERM_RDMAP_INV_STAG;
		return;
	case E810_AE_AMP_RIGHTS_VIOLATION:
	case E810_AE_AMP_INVALIDATE_NO_REMOTE_ACCESS_RIGHTS:
	case E810_AE_PRIV_OPERATION_DENIED:
		*code = IRDMA_TERM_RDMAP_ACCESS;
		return;
	case E810_AE_AMP_TO_WRAP:
		*code = IRDMA_TERM_RDMAP_WRAP;
		return;
	case E810_AE_LLP_RECEIVED_MPA_CRC_ERROR:
		*le = IRDMA_TERM_MPA;
		*code = IRDMA_TERM_MPA_CRC;
		return;
	case E810_AE_LLP_SEGMENT_TOO_SMALL:
	case E810_AE_LCE_QP_CATASTROPHIC:
	case E810_AE_DDP_NO_L_BIT:
		*le = IRDMA_TERM_DDP_CATAS;
		*code = IRDMA_TERM_DDP_LOCAL;
		return;
	case E810_AE_DDP_INVALID_MSN_GAP_IN_MSN:
		*le = IRDMA_TERM_DDP_UNTAGGED;
		*code = IRDMA_TERM_UNTAG_MSN;
		return;
	case E810_AE_DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER:
		*le = IRDMA_TERM_DDP_UNTAGGED;
		*code = IRDMA_TERM_UNTAG_TOO_LONG;
		return;
	case E810_AE_DDP_UBE_INVALID_DDP_VERSION:
		*le = tagged ? IRDMA_TERM_DDP_TAGGED : IRDMA_TERM_DDP_UNTAGGED;
		*code = tagged ? IRDMA_TERM_TAG_VERSION :
				 IRDMA_TERM_UNTAG_VERSION;
		return;
	case E810_AE_DDP_UBE_INVALID_MO:
		*le = IRDMA_TERM_DDP_UNTAGGED;
		*code = IRDMA_TERM_UNTAG_MO;
		return;
	case E810_AE_DDP_UBE_INVALID_MSN_NO_BUFFER_AVAILABLE:
		*le = IRDMA_TERM_DDP_UNTAGGED;
		*code = IRDMA_TERM_UNTAG_NO_BUF;
		return;
	case E810_AE_DDP_UBE_INVALID_QN:
		*le = IRDMA_TERM_DDP_UNTAGGED;
		*code = IRDMA_TERM_UNTAG_QN;
		return;
	case E810_AE_RDMAP_ROE_INVALID_RDMAP_VERSION:
		*le = IRDMA_TERM_RDMAP_OP;
		*code = IRDMA_TERM_RDMAP_VERSION;
		return;
	default:
		*le = IRDMA_TERM_RDMAP_OP;
		*code = IRDMA_TERM_RDMAP_UNSPEC;
		return;
	}
}

/*
 * Build the Terminate for qp->term_ae at Q2 + 0: the 4-byte header and,
 * as far as the offending segment has them, its MPA length, DDP header
 * and a Read Request's RDMAP header (RFC 5040 7.2). Returns its length.
 */
static unsigned int irdma_term_build(struct irdma_qp *qp)
{
	u8 *q2 = qp->ctx.va + IRDMA_Q2_OFF;
	const u8 *mpa = qp->term_q2 ? irdma_term_mpa(q2) : NULL;
	unsigned int copy = 0;
	bool tagged = false;
	u8 hdrct = 0;
	int op = -1;
	u16 seglen;

	if (mpa) {
		seglen = (mpa[0] << 8) | mpa[1];
		op = mpa[3] & 0x0f;
		tagged = mpa[2] & 0x80;
		if (seglen) {
			copy = 2;
			hdrct = IRDMA_TERM_HDRCT_M;
			if (tagged && seglen >= IRDMA_TERM_DDP_TAGGED_LEN) {
				copy += IRDMA_TERM_DDP_TAGGED_LEN;
				hdrct |= IRDMA_TERM_HDRCT_D;
			} else if (!tagged &&
				   seglen >= IRDMA_TERM_DDP_UNTAGGED_LEN) {
				copy += IRDMA_TERM_DDP_UNTAGGED_LEN;
				hdrct |= IRDMA_TERM_HDRCT_D;
				if (op == IRDMA_RDMAP_READ_REQ &&
				    seglen >= IRDMA_TERM_DDP_UNTAGGED_LEN +
					      IRDMA_TERM_RDMAP_RREQ_LEN) {
					copy += IRDMA_TERM_RDMAP_RREQ_LEN;
					hdrct |= IRDMA_TERM_HDRCT_R;
				}
			}
		}
		/* The segment's bytes stay where they are (Q2 + 72 on). */
		if (mpa + copy > q2 + IRDMA_Q2_LEN)
			copy = 0;
	}
	memset(q2, 0, IRDMA_Q2_FRAME_OFF);
	irdma_term_code(qp->term_ae, op, tagged, qp->term_q2, &q2[0], &q2[1]);
	q2[2] = hdrct;
	if (copy)
		memcpy(q2 + IRDMA_TERM_HDR_LEN, mpa, copy);
	return IRDMA_TERM_HDR_LEN + copy;
}

/* MODIFY_QP -> TERMINATE sending @act; the TERMLEN field as upstream. */
static int irdma_term_modify(struct irdma_qp *qp, u8 act, unsigned int len)
{
	u64 w8 = FIELD_PREP(E810_CQPSQ_QP_TERMLEN, len & 0xf);

	return irdma_qp_hw_modify_w8(qp, E810_QP_STATE_TERMINATE,
				     FIELD_PREP(E810_CQPSQ_QP_TERMACT, act), w8);
}

/*
 * The Terminate exchange is over (upstream irdma_terminate_done()): the
 * close completed, the peer's Terminate says the connection is gone, or
 * the 1 s timer ran out. The QP goes to ERROR, flushed (an RST if the
 * connection is still up), and the connection ends. Caller holds
 * qp->mutex.
 */
static void irdma_term_done(struct irdma_qp *qp, bool timeout)
{
	lockdep_assert_held(&qp->mutex);
	if (qp->term_flags & IRDMA_TERM_DONE)
		return;
	qp->term_flags |= IRDMA_TERM_DONE;
	ibdev_dbg(qp->ibqp.device, "QP %u: Terminate done%s, QP state %d\n",
		  qp->qp_id, timeout ? " (timeout)" : "", qp->state);
	if (timeout)
		atomic64_inc(&qp->rf->iw.terms_timeouts);
	else
		cancel_delayed_work(&qp->term_timer);
	if (qp->state != IB_QPS_ERR && qp->state != IB_QPS_RESET &&
	    !irdma_qp_to_err(qp, true, true)) {
		WRITE_ONCE(qp->state, IB_QPS_ERR);
		qp->attr.qp_state = IB_QPS_ERR;
	}
	irdma_cm_qp_event(qp->rf, qp->qp_id, IRDMA_CM_QPEV_ERR);
}

static void irdma_term_timeout(struct work_struct *work)
{
	struct irdma_qp *qp = container_of(to_delayed_work(work),
					   struct irdma_qp, term_timer);

	mutex_lock(&qp->mutex);
	irdma_term_done(qp, true);
	mutex_unlock(&qp->mutex);
}

/*
 * An error AE of an offloaded QP (upstream irdma_terminate_connection()):
 * the device sends a Terminate built from the offending segment, then
 * (AE 0x0602) the FIN; the close or the timer ends it. A QP the device
 * already failed, or one past RTS, goes to ERROR at once. Caller holds
 * qp->mutex.
 */
static void irdma_term_send(struct irdma_qp *qp)
{
	unsigned int len;

	lockdep_assert_held(&qp->mutex);
	if (qp->term_flags & (IRDMA_TERM_SENT | IRDMA_TERM_DONE))
		return;
	if (qp->hw_state != E810_QP_STATE_RTS || qp->state == IB_QPS_ERR ||
	    !e810_tcpstate_open(READ_ONCE(qp->hw_tcp_state))) {
		irdma_term_done(qp, false);
		return;
	}
	len = irdma_term_build(qp);
	ibdev_dbg(qp->ibqp.device, "QP %u: Terminate for AE 0x%04x\n",
		  qp->qp_id, qp->term_ae);
	qp->term_flags |= IRDMA_TERM_SENT;
	if (irdma_term_modify(qp, IRDMA_TERMACT_TERM, len)) {
		/* Invalid State: the device has failed the QP itself. */
		irdma_term_done(qp, false);
		return;
	}
	atomic64_inc(&qp->rf->iw.terms_sent);
	schedule_delayed_work(&qp->term_timer, HZ);
}

/* AE 0x0602: the Terminate went out; now the FIN (upstream irdma_terminate_send_fin()). */
static void irdma_term_fin(struct irdma_qp *qp)
{
	lockdep_assert_held(&qp->mutex);
	if ((qp->term_flags & IRDMA_TERM_DONE) ||
	    qp->hw_state != E810_QP_STATE_TERMINATE)
		return;
	if (irdma_term_modify(qp, IRDMA_TERMACT_FIN, 0))
		irdma_term_done(qp, false);
}

/*
 * AE 0x0509, the peer's Terminate at Q2 + 72 (upstream
 * irdma_terminate_received()): one that is not a well-formed Terminate
 * (untagged with L, DDP and RDMAP version 1, queue 2, MSN 1, MO 0) is
 * answered with a Terminate of ours; an RDMAP one ends the QP at once,
 * any other gets our FIN first.
 */
static void irdma_term_rcvd(struct irdma_qp *qp)
{
	const u8 *q2 = qp->ctx.va + IRDMA_Q2_OFF;
	const u8 *mpa = qp->term_q2 ? irdma_term_mpa(q2) : NULL;
	u16 ae = 0;

	lockdep_assert_held(&qp->mutex);
	if (qp->term_flags & IRDMA_TERM_DONE)
		return;
	atomic64_inc(&qp->rf->iw.terms_rcvd);
	if (mpa) {
		if ((mpa[2] & 0xc0) != 0x40)
			ae = E810_AE_LCE_QP_CATASTROPHIC;
		else if ((mpa[2] & 0x03) != 1)
			ae = E810_AE_DDP_UBE_INVALID_DDP_VERSION;
		else if (irdma_term_be32(mpa + 8) != 2)
			ae = E810_AE_DDP_UBE_INVALID_QN;
		else if (irdma_term_be32(mpa + 12) != 1)
			ae = E810_AE_DDP_INVALID_MSN_GAP_IN_MSN;
		else if (irdma_term_be32(mpa + 16) != 0)
			ae = E810_AE_DDP_UBE_INVALID_MO;
		else if ((mpa[3] & 0xc0) != 0x40)
			ae = E810_AE_RDMAP_ROE_INVALID_RDMAP_VERSION;
		if (ae) {
			qp->term_ae = ae;
			irdma_term_send(qp);
			return;
		}
	}
	qp->term_flags |= IRDMA_TERM_RCVD;
	if (mpa && (mpa[20] == IRDMA_TERM_RDMAP_PROT ||
		    mpa[20] == IRDMA_TERM_RDMAP_OP)) {
		irdma_term_done(qp, false);
		return;
	}
	if (qp->hw_state != E810_QP_STATE_RTS &&
	    qp->hw_state != E810_QP_STATE_TERMINATE) {
		irdma_term_done(qp, false);
		return;
	}
	if (irdma_term_modify(qp, IRDMA_TERMACT_FIN, 0)) {
		irdma_term_done(qp, false);
		return;
	}
	schedule_delayed_work(&qp->term_timer, HZ);
}

/*
 * SQE -> RTS of a UD QP: MODIFY_QP to RTS even though the device state
 * already is RTS (the emulated E810 keeps a UD QP whose send failed in RTS
 * with its SQ stopped, docs/hw-model.md): the device flushes what was
 * posted and restarts the SQ. A kernel QP's software flush then covers the
 * WQEs up to the device's fetch position (its doorbell shadow area), and
 * WQEs posted after that go to the device. Caller holds qp->mutex.
 */
static int irdma_qp_sq_recover(struct irdma_qp *qp)
{
	unsigned long flags;
	u32 end;
	int err;

	err = irdma_qp_hw_modify(qp, E810_QP_STATE_RTS, E810_CQPSQ_QP_ORDVALID);
	if (err || qp->user)
		return err;
	spin_lock_irqsave(&qp->lock, flags);
	end = FIELD_GET(E810_QP_DBSA_HW_SQ_TAIL,
			irdma_get64(&qp->kbuf, qp->shadow_pa - qp->kbuf.pa)) &
	      (qp->ring.sq_quanta - 1);
	qp->sq_flush_end = end;
	qp->sq_draining = qp->flush_sq && qp->ring.sq_tail != end;
	if (!qp->sq_draining)
		qp->flush_sq = false;
	if (end != qp->ring.sq_head)
		irdma_sq_ring(qp);	/* posted since: the device's now */
	spin_unlock_irqrestore(&qp->lock, flags);
	if (qp->sq_draining)
		irdma_cq_kick(qp->scq);
	return 0;
}

static void irdma_qp_ae_work(struct work_struct *work);
static void irdma_qp_wait_sqe(struct irdma_qp *qp);
static void irdma_iw_qp_release(struct irdma_qp *qp);
static void irdma_iw_qp_lsmm_free(struct irdma_qp *qp);
static int irdma_iw_qp_sqd(struct irdma_qp *qp);

/* ---- create / destroy ------------------------------------------------------ */

/* Reserves the QP id: 1 for the GSI QP, the lowest free one from 2 else. */
static int irdma_qp_id_alloc(struct irdma_pci_f *rf, bool gsi, u32 *id)
{
	u32 max = rf->hmc.obj[E810_HMC_QP].cnt - 1;
	int err;

	if (gsi) {
		/* One GSI QP per port; ib_mad creates it at registration. */
		err = xa_insert_bh(&rf->qps, IRDMA_GSI_QP_ID, NULL,
				   GFP_KERNEL);
		if (err)
			return err;
		*id = IRDMA_GSI_QP_ID;
		return 0;
	}
	/* iWARP mode: QP 1 is the ILQ, 2 the IEQ's id (iw.h). */
	err = xa_alloc_bh(&rf->qps, id, NULL,
			  XA_LIMIT(rf->iwarp ? IRDMA_IW_FIRST_QP_ID :
					       IRDMA_FIRST_QP_ID, max),
			  GFP_KERNEL);
	return err == -EBUSY ? -ENOMEM : err;
}

static const char *irdma_qp_type_name(enum ib_qp_type t)
{
	switch (t) {
	case IB_QPT_RC:
		return "RC";
	case IB_QPT_UD:
		return "UD";
	case IB_QPT_GSI:
		return "GSI";
	default:
		return "?";
	}
}

/**
 * irdma_qp_check_init() - refuse what irdma_create_qp() does not support
 * @rf: per-function state
 * @init: type, CQs, capabilities
 * @udata: user data or NULL
 *
 * Context: Any context.
 * Return: 0, -EOPNOTSUPP (type, flags, SRQ, a user or second-port GSI QP)
 * or -EINVAL (a CQ missing).
 */
static int irdma_qp_check_init(struct irdma_pci_f *rf,
			       const struct ib_qp_init_attr *init,
			       struct ib_udata *udata)
{
	if (init->qp_type != IB_QPT_RC && init->qp_type != IB_QPT_UD &&
	    init->qp_type != IB_QPT_GSI)
		return -EOPNOTSUPP;
	/* iWARP is reliable-connected only (upstream irdma_validate_qp_attrs()). */
	if (rf->iwarp && init->qp_type != IB_QPT_RC)
		return -EOPNOTSUPP;
	if (init->create_flags || init->srq)
		return -EOPNOTSUPP;
	/* QP1 belongs to ib_mad; user space reaches MADs through umad. */
	if (init->qp_type == IB_QPT_GSI && (udata || init->port_num > 1))
		return -EOPNOTSUPP;
	if (!init->send_cq || !init->recv_cq)
		return -EINVAL;
	return 0;
}

/**
 * irdma_qp_init_sw() - software state and ring geometry of a new QP
 * @rf: per-function state
 * @qp: the QP, not published yet
 * @init: type, CQs, capabilities
 * @udata: user data or NULL
 *
 * Context: Process context.
 * Return: 0, or -EINVAL (CQs of the other kind, capabilities out of range).
 */
static int irdma_qp_init_sw(struct irdma_pci_f *rf, struct irdma_qp *qp,
			    struct ib_qp_init_attr *init,
			    struct ib_udata *udata)
{
	struct irdma_ucontext *uctx;
	bool raw = true;

	if (udata) {
		uctx = rdma_udata_to_drv_context(udata, struct irdma_ucontext,
						 ibucontext);
		raw = uctx->use_raw_attrs;
	}
	qp->rf = rf;
	/* GSI: a UD QP to the device (RoCEv2 has no special QP1 type). */
	qp->hw_type = init->qp_type == IB_QPT_RC ? E810_QP_TYPE_ROCE_RC :
						   E810_QP_TYPE_ROCE_UD;
	if (rf->iwarp)
		qp->hw_type = E810_QP_TYPE_IWARP;
	/* iWARP: iw_cm's references; the QP's own is dropped at destroy. */
	refcount_set(&qp->iw_refs, 1);
	init_completion(&qp->iw_free);
	qp->pd_id = to_irdma_pd(qp->ibqp.pd)->pd_id;
	qp->scq = to_irdma_cq(init->send_cq);
	qp->rcq = to_irdma_cq(init->recv_cq);
	if (qp->scq->user != !!udata || qp->rcq->user != !!udata)
		return -EINVAL;
	qp->av.arp_idx = -1;
	spin_lock_init(&qp->lock);
	mutex_init(&qp->mutex);
	INIT_WORK(&qp->ae_work, irdma_qp_ae_work);
	INIT_DELAYED_WORK(&qp->term_timer, irdma_term_timeout);
	INIT_DELAYED_WORK(&qp->reflush, irdma_iw_qp_reflush_work);
	return irdma_qp_sizes(qp, &init->cap, raw);
}

/**
 * irdma_qp_mem_free() - release a QP's queue memory
 * @qp: the QP; irdma_qp_user_init() or irdma_qp_kernel_init() succeeded
 *
 * Context: Process context.
 */
static void irdma_qp_mem_free(struct irdma_qp *qp)
{
	if (qp->user)
		irdma_qbuf_release(qp->uctx, qp->qb);
	else
		irdma_qp_kernel_fini(qp);
}

/**
 * irdma_qp_ws_attach_default() - give a new QP the qset of priority 0
 * @qp: the QP, not published yet
 *
 * Priority 0 until an address vector says otherwise (upstream
 * irdma_create_qp()); its qset is made now if it is the first.
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
static int irdma_qp_ws_attach_default(struct irdma_qp *qp)
{
	int err;

	err = irdma_tc_wait_idle(qp->rf);
	if (!err)
		err = irdma_ws_qp_attach(qp, 0);
	if (err)
		ibdev_err(qp->ibqp.device, "QP %u: no RDMA qset for priority 0: %d\n",
			  qp->qp_id, err);
	return err;
}

/**
 * irdma_qp_hw_create() - hand a new QP to the device (CREATE_QP, IDLE)
 * @qp: the QP, its queues and context buffer allocated
 *
 * Context: Process context, sleeps.
 * Return: 0 or the CQP op's errno.
 */
static int irdma_qp_hw_create(struct irdma_qp *qp)
{
	int err;

	irdma_qp_ctx_write(qp);
	err = irdma_qp_cqp(qp, E810_CQP_OP_CREATE_QP,
			   E810_CQPSQ_QP_CQNUMVALID | E810_CQPSQ_QP_MACVALID |
			   FIELD_PREP(E810_CQPSQ_QP_NEXTIWSTATE,
				      E810_QP_STATE_IDLE));
	if (err)
		return err;
	qp->hw_state = E810_QP_STATE_IDLE;
	return 0;
}

/**
 * irdma_qp_create_resp() - the create_qp response of a user QP
 * @qp: the created QP
 * @init: its creation attributes
 * @udata: user data (struct irdma_create_qp_resp out)
 *
 * Context: Process context.
 * Return: 0 or -EFAULT.
 */
static int irdma_qp_create_resp(struct irdma_qp *qp,
				const struct ib_qp_init_attr *init,
				struct ib_udata *udata)
{
	struct irdma_create_qp_resp resp = { };

	resp.qp_id = qp->qp_id;
	resp.actual_sq_size = qp->sq_depth >> qp->sq_shift;
	resp.actual_rq_size = qp->rq_depth >> qp->rq_shift;
	resp.qp_caps = IRDMA_QP_CAP_SEND_WITH_IMM | IRDMA_QP_CAP_ROCE;
	if (init->qp_type == IB_QPT_RC)
		resp.qp_caps |= IRDMA_QP_CAP_WRITE_WITH_IMM;
	/*
	 * iWARP (upstream irdma_create_qp()): WRITE with immediate only, and
	 * the SQ starts after the connection WQEs (lsmm).
	 */
	if (qp->hw_type == E810_QP_TYPE_IWARP) {
		resp.qp_caps = IRDMA_QP_CAP_WRITE_WITH_IMM;
		resp.lsmm = 1;
	}
	if (ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen)))
		return -EFAULT;
	return 0;
}

/**
 * irdma_create_qp() - create an RC or UD QP, user or kernel, or the GSI QP
 * @ibqp: allocated by ib_core
 * @init: type, CQs, capabilities
 * @udata: user data (struct irdma_create_qp_req) or NULL
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
int irdma_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		    struct ib_udata *udata)
{
	struct irdma_pci_f *rf = to_iwdev(ibqp->device)->rf;
	struct irdma_qp *qp = to_irdma_qp(ibqp);
	u32 id;
	int err;

	err = irdma_qp_check_init(rf, init, udata);
	if (err)
		return err;
	err = irdma_qp_init_sw(rf, qp, init, udata);
	if (err)
		return err;

	err = irdma_qp_id_alloc(rf, init->qp_type == IB_QPT_GSI, &id);
	if (err)
		return err;
	qp->qp_id = id;
	ibqp->qp_num = id;
	err = irdma_dma_alloc(rf, &qp->ctx, IRDMA_QP_CTX_ALLOC, GFP_KERNEL);
	if (err)
		goto err_id;
	err = udata ? irdma_qp_user_init(qp, udata) : irdma_qp_kernel_init(qp);
	if (err)
		goto err_ctx;

	qp->state = IB_QPS_RESET;
	qp->attr.qp_state = IB_QPS_RESET;
	qp->attr.port_num = 1;
	qp->attr.path_mtu = IB_MTU_1024;
	qp->sq_sig_type = init->sq_sig_type;
	err = irdma_qp_ws_attach_default(qp);
	if (err)
		goto err_mem;
	err = irdma_qp_hw_create(qp);
	if (err)
		goto err_ws;
	if (udata) {
		err = irdma_qp_create_resp(qp, init, udata);
		if (err)
			goto err_destroy;
	}
	init->cap = qp->cap;
	xa_store_bh(&rf->qps, id, qp, GFP_KERNEL);
	ibdev_dbg(ibqp->device, "QP %u: %s %s, SQ %u quanta, RQ %u quanta\n",
		  id, irdma_qp_type_name(init->qp_type),
		  udata ? "user" : "kernel", qp->sq_depth, qp->rq_depth);
	return 0;

err_destroy:
	irdma_qp_cqp(qp, E810_CQP_OP_DESTROY_QP, 0);
err_ws:
	irdma_ws_qp_detach(qp);
err_mem:
	irdma_qp_mem_free(qp);
err_ctx:
	irdma_dma_free(rf, &qp->ctx);
err_id:
	xa_erase_bh(&rf->qps, id);
	return err;
}

/**
 * irdma_destroy_qp() - destroy a QP
 * @ibqp: the QP
 * @udata: user data or NULL
 *
 * Context: Process context, sleeps.
 * Return: 0.
 */
int irdma_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct irdma_qp *qp = to_irdma_qp(ibqp);
	struct irdma_pci_f *rf = qp->rf;

	/*
	 * No AE handler finds it from now on (the id stays reserved until
	 * the device forgot the QP), and a move to ERR an earlier AE queued
	 * is done or cancelled before DESTROY_QP.
	 */
	xa_store_bh(&rf->qps, qp->qp_id, NULL, GFP_KERNEL);
	cancel_work_sync(&qp->ae_work);
	cancel_delayed_work_sync(&qp->term_timer);
	if (qp->hw_type == E810_QP_TYPE_IWARP)
		irdma_iw_qp_release(qp);
	/* After iw_cm let go: its move to ERROR may have armed it. */
	cancel_delayed_work_sync(&qp->reflush);
	mutex_lock(&qp->mutex);
	/*
	 * As upstream irdma_destroy_qp(): a QP in RTS goes to ERROR before
	 * DESTROY_QP, so the device never destroys a live QP. No flush: the
	 * QP's CQEs are not wanted any more. No device QP after a re-create
	 * for RESET that failed.
	 */
	if (!rf->resetting && (qp->hw_state == E810_QP_STATE_RTS ||
			       qp->hw_state == E810_QP_STATE_TERMINATE))
		irdma_qp_to_hw_err(qp);
	/*
	 * An offloaded connection's quad hash entry goes with the QP
	 * (upstream irdma_cqp_qp_destroy_cmd(): REMOVEHASHENTRY).
	 */
	if (!rf->resetting && qp->hw_state != E810_QP_STATE_INVALID &&
	    irdma_qp_cqp(qp, E810_CQP_OP_DESTROY_QP, qp->iw_offloaded ?
			 E810_CQPSQ_QP_REMOVEHASHENTRY : 0))
		ibdev_warn(ibqp->device, "QP %u: DESTROY_QP failed\n",
			   qp->qp_id);
	mutex_unlock(&qp->mutex);
	irdma_ws_qp_detach(qp);
	xa_erase_bh(&rf->qps, qp->qp_id);
	irdma_qp_mem_free(qp);
	if (qp->av.arp_idx >= 0)
		irdma_arp_put(rf, qp->av.arp_idx);
	irdma_iw_qp_lsmm_free(qp);
	irdma_dma_free(rf, &qp->ctx);
	mutex_destroy(&qp->mutex);
	return 0;
}

/* ---- modify ---------------------------------------------------------------- */

#define IRDMA_QP_MASK_SUPPORTED \
	(IB_QP_STATE | IB_QP_CUR_STATE | IB_QP_ACCESS_FLAGS | \
	 IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_QKEY | IB_QP_AV | \
	 IB_QP_PATH_MTU | IB_QP_TIMEOUT | IB_QP_RETRY_CNT | \
	 IB_QP_RNR_RETRY | IB_QP_RQ_PSN | IB_QP_MAX_QP_RD_ATOMIC | \
	 IB_QP_MIN_RNR_TIMER | IB_QP_SQ_PSN | IB_QP_MAX_DEST_RD_ATOMIC | \
	 IB_QP_DEST_QPN)

#define IRDMA_ACCESS_SUPPORTED \
	(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | \
	 IB_ACCESS_REMOTE_READ)
/*
 * RDMA FLUSH rights exist from 6.2 on. Before, ib_core still passes the
 * bits from user space (rdma-core's IBV_ACCESS_FLUSH_GLOBAL and
 * _PERSISTENT, bits 8 and 9, IB_UVERBS_ACCESS_FLUSH_* from 6.2 on) and
 * upstream irdma ignores them there too.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define IRDMA_ACCESS_FLUSH \
	(IB_ACCESS_FLUSH_GLOBAL | IB_ACCESS_FLUSH_PERSISTENT)
#else
#define IRDMA_ACCESS_FLUSH (BIT(8) | BIT(9))
#endif
#define IRDMA_ACCESS_IGNORED \
	(IB_ACCESS_REMOTE_ATOMIC | IRDMA_ACCESS_FLUSH | IB_ACCESS_MW_BIND)

/* Values of @attr the mask names, each in its range. */
static int irdma_qp_check_attr(struct irdma_qp *qp, struct ib_qp_attr *attr,
			       int mask)
{
	if (mask & ~IRDMA_QP_MASK_SUPPORTED)
		return -EOPNOTSUPP;
	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index >= 1)
		return -EINVAL;
	if ((mask & IB_QP_PORT) && attr->port_num != 1)
		return -EINVAL;
	if ((mask & IB_QP_PATH_MTU) &&
	    (attr->path_mtu < IB_MTU_256 || attr->path_mtu > IB_MTU_4096))
		return -EINVAL;
	if ((mask & IB_QP_TIMEOUT) && attr->timeout > 31)
		return -EINVAL;
	if ((mask & IB_QP_RETRY_CNT) && attr->retry_cnt > 7)
		return -EINVAL;
	if ((mask & IB_QP_RNR_RETRY) && attr->rnr_retry > 7)
		return -EINVAL;
	if ((mask & IB_QP_MIN_RNR_TIMER) && attr->min_rnr_timer > 31)
		return -EINVAL;
	if ((mask & IB_QP_SQ_PSN) && attr->sq_psn > IRDMA_PSN_MASK)
		return -EINVAL;
	if ((mask & IB_QP_RQ_PSN) && attr->rq_psn > IRDMA_PSN_MASK)
		return -EINVAL;
	if ((mask & IB_QP_DEST_QPN) && attr->dest_qp_num > IRDMA_PSN_MASK)
		return -EINVAL;
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) &&
	    attr->max_rd_atomic > IRDMA_MAX_ORD)
		return -EINVAL;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic > IRDMA_MAX_IRD)
		return -EINVAL;
	/*
	 * Atomic and flush rights are accepted and have no effect (as
	 * upstream irdma does): the E810 responder rejects those opcodes
	 * whatever the QP allows, and no MR can grant them (mr.c). Binding
	 * windows is always enabled (qp_ctx.c), so MW_BIND changes nothing.
	 */
	if ((mask & IB_QP_ACCESS_FLAGS) &&
	    (attr->qp_access_flags & ~(IRDMA_ACCESS_SUPPORTED |
				       IRDMA_ACCESS_IGNORED)))
		return -EINVAL;
	return 0;
}

/* IP words of a GID, host order, word 0 most significant (hw-reference 2.5). */
static void irdma_gid_words(const union ib_gid *gid, bool ipv4, u32 *w)
{
	union {
		struct sockaddr_in v4;
		struct sockaddr_in6 v6;
	} sa;
	int i;

	memset(w, 0, 4 * sizeof(*w));
	rdma_gid2ip((struct sockaddr *)&sa, gid);
	if (ipv4) {
		w[3] = ntohl(sa.v4.sin_addr.s_addr);
		return;
	}
	for (i = 0; i < 4; i++)
		w[i] = ntohl(sa.v6.sin6_addr.s6_addr32[i]);
}

/* Resolves the address vector of @attr into @av (RC, IB_QP_AV). */
static int irdma_qp_resolve_av(struct irdma_qp *qp, struct ib_qp_attr *attr,
			       int mask, struct irdma_qp_av *av)
{
	const struct ib_global_route *grh;
	const struct ib_gid_attr *sgid;
	u8 smac[ETH_ALEN];
	u32 dqpn;
	int err;

	if (!(rdma_ah_get_ah_flags(&attr->ah_attr) & IB_AH_GRH))
		return -EINVAL;
	grh = rdma_ah_read_grh(&attr->ah_attr);
	sgid = grh->sgid_attr;
	if (!sgid || sgid->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP)
		return -EINVAL;
	memset(av, 0, sizeof(*av));
	err = rdma_read_gid_l2_fields(sgid, &av->vlan, smac);
	if (err)
		return err;
	av->ipv4 = rdma_gid_attr_network_type(sgid) == RDMA_NETWORK_IPV4;
	if (av->ipv4 != ipv6_addr_v4mapped((struct in6_addr *)grh->dgid.raw))
		return -EINVAL;
	irdma_gid_words(&sgid->gid, av->ipv4, av->sip);
	irdma_gid_words(&grh->dgid, av->ipv4, av->dip);
	ether_addr_copy(av->dmac, attr->ah_attr.roce.dmac);
	if (is_zero_ether_addr(av->dmac) || is_multicast_ether_addr(av->dmac))
		return -EINVAL;
	av->tclass = grh->traffic_class;
	av->up = irdma_ws_up(sgid, av->tclass);
	av->hop_limit = grh->hop_limit;
	av->flow_label = grh->flow_label;
	dqpn = mask & IB_QP_DEST_QPN ? attr->dest_qp_num : qp->attr.dest_qp_num;
	av->sport = rdma_get_udp_sport(grh->flow_label, qp->qp_id, dqpn);
	av->arp_idx = irdma_arp_get(qp->rf, av->dip, av->ipv4, av->dmac);
	if (av->arp_idx < 0)
		return av->arp_idx;
	av->valid = true;
	return 0;
}

/* Copies the attributes the mask names into the QP's saved set. */
static void irdma_qp_save_attr(struct irdma_qp *qp, struct ib_qp_attr *attr,
			       int mask)
{
	struct ib_qp_attr *a = &qp->attr;

	if (mask & IB_QP_ACCESS_FLAGS)
		a->qp_access_flags = attr->qp_access_flags;
	if (mask & IB_QP_PKEY_INDEX)
		a->pkey_index = attr->pkey_index;
	if (mask & IB_QP_PORT)
		a->port_num = attr->port_num;
	if (mask & IB_QP_QKEY)
		a->qkey = attr->qkey;
	if (mask & IB_QP_AV) {
		/* No reference kept: query returns the index only. */
		a->ah_attr = attr->ah_attr;
		a->ah_attr.grh.sgid_attr = NULL;
	}
	if (mask & IB_QP_PATH_MTU)
		a->path_mtu = attr->path_mtu;
	if (mask & IB_QP_TIMEOUT)
		a->timeout = attr->timeout;
	if (mask & IB_QP_RETRY_CNT)
		a->retry_cnt = attr->retry_cnt;
	if (mask & IB_QP_RNR_RETRY)
		a->rnr_retry = attr->rnr_retry;
	if (mask & IB_QP_RQ_PSN)
		a->rq_psn = attr->rq_psn;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		a->max_rd_atomic = attr->max_rd_atomic;
	if (mask & IB_QP_MIN_RNR_TIMER)
		a->min_rnr_timer = attr->min_rnr_timer;
	if (mask & IB_QP_SQ_PSN)
		a->sq_psn = attr->sq_psn;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		a->max_dest_rd_atomic = attr->max_dest_rd_atomic;
	if (mask & IB_QP_DEST_QPN)
		a->dest_qp_num = attr->dest_qp_num;
}

/**
 * irdma_qp_recycle() - a new device QP under a kernel QP's id
 * @qp: a kernel QP the device took past IDLE, being reset; caller holds
 *	qp->mutex
 *
 * The device never takes a QP back to IDLE, so RESET destroys the device
 * QP (in ERROR first, as upstream irdma_destroy_qp() leaves an RTS QP) and
 * creates it again with the same id, context buffer and rings: the rings
 * restart empty at index 0, polarity 1, on both sides, and the CQEs the
 * old QP left on its CQs are dropped. Without a device QP (a re-create
 * that failed before) only CREATE_QP is sent.
 *
 * Context: Process context, sleeps.
 * Return: 0 or the CQP op's errno (then @qp may have no device QP left:
 * hw_state INVALID).
 */
static int irdma_qp_recycle(struct irdma_qp *qp)
{
	int err;

	lockdep_assert_held(&qp->mutex);
	if (qp->hw_state != E810_QP_STATE_INVALID) {
		err = irdma_qp_to_hw_err(qp);
		if (err)
			return err;
		err = irdma_qp_cqp(qp, E810_CQP_OP_DESTROY_QP, 0);
		if (err) {
			ibdev_err(qp->ibqp.device, "QP %u: DESTROY_QP for RESET failed: %d\n",
				  qp->qp_id, err);
			return err;
		}
		WRITE_ONCE(qp->hw_state, E810_QP_STATE_INVALID);
	}
	irdma_cq_clean_qp(qp->scq, qp->qp_id);
	if (qp->rcq != qp->scq)
		irdma_cq_clean_qp(qp->rcq, qp->qp_id);
	irdma_qp_kernel_reset(qp);
	err = irdma_qp_hw_create(qp);
	if (err)
		ibdev_err(qp->ibqp.device, "QP %u: CREATE_QP for RESET failed: %d\n",
			  qp->qp_id, err);
	return err;
}

/*
 * RESET: a kernel QP gets a new device QP if the device took it past IDLE
 * (irdma_qp_recycle()), else empty rings. A user QP's device QP goes to
 * ERROR if it left IDLE: its rings' positions live in the provider, and
 * the stock one keeps them over RESET, so the QP stays there until
 * destroyed (INIT is refused).
 */
static int irdma_qp_to_reset(struct irdma_qp *qp)
{
	if (qp->user)
		return qp->hw_state == E810_QP_STATE_IDLE ? 0 :
		       irdma_qp_to_hw_err(qp);
	if (qp->hw_state == E810_QP_STATE_IDLE) {
		irdma_qp_kernel_reset(qp);
		return 0;
	}
	return irdma_qp_recycle(qp);
}

/* The device side of a transition to @new; caller holds qp->mutex. */
static int irdma_qp_apply(struct irdma_qp *qp, enum ib_qp_state cur,
			  enum ib_qp_state new, int mask)
{
	int err;

	lockdep_assert_held(&qp->mutex);

	switch (new) {
	case IB_QPS_RESET:
		return irdma_qp_to_reset(qp);
	case IB_QPS_INIT:
		/*
		 * Upstream irdma_modify_qp_roce() refuses INIT past IDLE.
		 * A kernel QP is IDLE again after RESET (re-created here if
		 * that failed); a user QP reset after it left IDLE is not.
		 */
		if (!qp->user && qp->hw_state == E810_QP_STATE_INVALID) {
			err = irdma_qp_recycle(qp);
			if (err)
				return err;
		}
		if (qp->hw_state != E810_QP_STATE_IDLE) {
			ibdev_dbg(qp->ibqp.device, "QP %u: INIT refused, the device QP is in %s\n",
				  qp->qp_id, e810_qp_state_name(qp->hw_state));
			return -EINVAL;
		}
		return irdma_qp_hw_modify(qp, E810_QP_STATE_IDLE, 0);
	case IB_QPS_RTR:
		/* iWARP: upstream irdma_modify_qp() sends nothing for RTR. */
		if (qp->rf->iwarp)
			return 0;
		return irdma_qp_hw_modify(qp, E810_QP_STATE_RTR,
					  qp->av.valid && qp->av.arp_idx >= 0 ?
					  E810_CQPSQ_QP_ARPTABIDXVALID : 0);
	case IB_QPS_RTS:
		/*
		 * iWARP: RTS comes with the connection's offload (iw.c), not
		 * from the user (upstream irdma_modify_qp() wants a cm_id).
		 */
		if (qp->rf->iwarp)
			return -EINVAL;
		if (cur == IB_QPS_SQE)
			return irdma_qp_sq_recover(qp);
		fallthrough;
	case IB_QPS_SQE:
		return irdma_qp_hw_modify(qp, E810_QP_STATE_RTS,
					  E810_CQPSQ_QP_ORDVALID);
	case IB_QPS_SQD:
		if (qp->hw_type == E810_QP_TYPE_IWARP)
			return irdma_iw_qp_sqd(qp);
		/* SQD -> SQD: upstream sends nothing; the context waits. */
		if (qp->hw_state == E810_QP_STATE_SQD) {
			irdma_qp_ctx_write(qp);
			return 0;
		}
		return irdma_qp_to_sqd(qp);
	case IB_QPS_ERR:
		err = irdma_qp_to_err(qp, true, true);
		/* iWARP: the connection ends too (CLOSE to iw_cm, cm.c). */
		if (!err && qp->iw_offloaded)
			irdma_cm_qp_event(qp->rf, qp->qp_id, IRDMA_CM_QPEV_ERR);
		return err;
	}
	return -EINVAL;
}

/* What irdma_modify_qp() changes before the device op, to undo it. */
struct irdma_qp_undo {
	struct ib_qp_attr attr;
	struct irdma_qp_av av;
	u8 user_pri;
};

/**
 * irdma_qp_modify_udata() - check and read the modify_qp user data
 * @udata: user data or NULL
 * @req: filled from struct irdma_modify_qp_req if there is one
 *
 * Context: Process context.
 * Return: 0, -EINVAL (a request or response buffer too short) or -EFAULT.
 */
static int irdma_qp_modify_udata(struct ib_udata *udata,
				 struct irdma_modify_qp_req *req)
{
	if (udata && udata->inlen) {
		if (udata->inlen < offsetofend(struct irdma_modify_qp_req,
					       rq_flush))
			return -EINVAL;
		if (ib_copy_from_udata(req, udata,
				       min(sizeof(*req), udata->inlen)))
			return -EFAULT;
	}
	if (udata && udata->outlen &&
	    udata->outlen < offsetofend(struct irdma_modify_qp_resp,
					push_valid))
		return -EINVAL;
	return 0;
}

/**
 * irdma_qp_modify_quiesce() - what a transition waits for before the mutex
 * @qp: the QP
 * @attr: the attributes
 * @mask: which of them are valid
 *
 * Context: Process context, sleeps.
 * Return: 0 or the errno of irdma_tc_wait_idle().
 */
static int irdma_qp_modify_quiesce(struct irdma_qp *qp,
				   const struct ib_qp_attr *attr, int mask)
{
	int err;

	/*
	 * A QP that starts to transmit while a traffic-class change is in
	 * progress would miss both the suspend and the resume: it waits.
	 */
	if ((mask & IB_QP_STATE) &&
	    (attr->qp_state == IB_QPS_RTR || attr->qp_state == IB_QPS_RTS)) {
		err = irdma_tc_wait_idle(qp->rf);
		if (err)
			return err;
	}
	/*
	 * An error AE of the incarnation being reset must not reach the
	 * next one (a queued ae_work would move the new INIT/RTR QP to ERR).
	 */
	if ((mask & IB_QP_STATE) && attr->qp_state == IB_QPS_RESET) {
		cancel_work(&qp->ae_work);
		clear_bit(IRDMA_QP_AE_FATAL, &qp->ae_flags);
		clear_bit(IRDMA_QP_AE_SQE, &qp->ae_flags);
	}
	/*
	 * ib_mad_send_error() recovers from the error completion, which can
	 * be polled before the send error's AE moved the QP to SQE.
	 */
	if ((mask & IB_QP_STATE) && (mask & IB_QP_CUR_STATE) &&
	    attr->qp_state == IB_QPS_RTS && attr->cur_qp_state == IB_QPS_SQE &&
	    irdma_qp_is_ud(qp))
		irdma_qp_wait_sqe(qp);
	return 0;
}

/*
 * iWARP QPs: iw_cm and rdma_cm name only the state and the access flags
 * (iwcm_init_qp_init_attr()), and an RTS without a state (mask 0), none of
 * IB's required attributes; as upstream irdma_modify_qp() only the state
 * pair is checked.
 */
static bool irdma_iw_qp_transition_ok(enum ib_qp_state cur,
				      enum ib_qp_state new, int mask)
{
	if (!(mask & IB_QP_STATE) || new == IB_QPS_RESET ||
	    new == IB_QPS_ERR)
		return true;
	switch (cur) {
	case IB_QPS_RESET:
		return new == IB_QPS_INIT;
	case IB_QPS_INIT:
		return new == IB_QPS_INIT || new == IB_QPS_RTR;
	case IB_QPS_RTR:
		return new == IB_QPS_RTS;
	case IB_QPS_RTS:
	case IB_QPS_SQD:
		return new == IB_QPS_RTS || new == IB_QPS_SQD;
	default:
		return false;
	}
}

/**
 * irdma_qp_modify_check() - the transition and the attributes it names
 * @qp: the QP; caller holds qp->mutex
 * @attr: the attributes
 * @mask: which of them are valid
 * @cur: set to the current state (IB_QP_CUR_STATE or the QP's)
 * @new: set to the state asked for (IB_QP_STATE or @cur)
 *
 * Context: Process context.
 * Return: 0, -EINVAL (transition or a value out of range) or -EOPNOTSUPP.
 */
static int irdma_qp_modify_check(struct irdma_qp *qp, struct ib_qp_attr *attr,
				 int mask, enum ib_qp_state *cur,
				 enum ib_qp_state *new)
{
	*cur = mask & IB_QP_CUR_STATE ? attr->cur_qp_state : qp->state;
	*new = mask & IB_QP_STATE ? attr->qp_state : *cur;
	if (*cur != qp->state ||
	    !(qp->rf->iwarp ? irdma_iw_qp_transition_ok(*cur, *new, mask) :
	      ib_modify_qp_is_ok(*cur, *new, qp->ibqp.qp_type, mask))) {
		ibdev_dbg(qp->ibqp.device, "QP %u: %d -> %d with mask 0x%x refused\n",
			  qp->qp_id, *cur, *new, mask);
		return -EINVAL;
	}
	return irdma_qp_check_attr(qp, attr, mask);
}

/**
 * irdma_qp_modify_stage() - take the new attributes into the QP
 * @qp: the QP; caller holds qp->mutex
 * @attr: the attributes
 * @mask: which of them are valid
 * @av: the resolved address vector, or NULL if there is no new one
 * @undo: filled with what the QP had, for irdma_qp_modify_undo()
 *
 * A new address vector's traffic class picks the priority and its qset;
 * if that fails, the vector's ARP reference is dropped and nothing changed.
 *
 * Context: Process context, sleeps.
 * Return: 0 or the errno of irdma_ws_qp_set_up().
 */
static int irdma_qp_modify_stage(struct irdma_qp *qp, struct ib_qp_attr *attr,
				 int mask, const struct irdma_qp_av *av,
				 struct irdma_qp_undo *undo)
{
	int err;

	undo->attr = qp->attr;
	undo->av = qp->av;
	undo->user_pri = qp->user_pri;
	if (av) {
		err = irdma_ws_qp_set_up(qp, av->up);
		if (err) {
			ibdev_err(qp->ibqp.device, "QP %u: no RDMA qset for priority %u: %d\n",
				  qp->qp_id, av->up, err);
			irdma_arp_put(qp->rf, av->arp_idx);
			return err;
		}
	}
	irdma_qp_save_attr(qp, attr, mask);
	if (av)
		qp->av = *av;
	return 0;
}

/**
 * irdma_qp_transition() - the device side of @cur -> @new
 * @qp: the QP; caller holds qp->mutex
 * @cur: the current IB state
 * @new: the new IB state
 * @mask: which attributes are valid
 * @req: the user's flush request (ERR -> ERR)
 *
 * ERR -> ERR flushes again if the provider asks (hw-reference 6.3), RESET
 * -> RESET does nothing, everything else is irdma_qp_apply().
 *
 * Context: Process context, sleeps.
 * Return: 0 or the CQP op's errno.
 */
static int irdma_qp_transition(struct irdma_qp *qp, enum ib_qp_state cur,
			       enum ib_qp_state new, int mask,
			       const struct irdma_modify_qp_req *req)
{
	if (new == IB_QPS_ERR && cur == IB_QPS_ERR) {
		if (req->sq_flush || req->rq_flush)
			return irdma_qp_flush(qp, req->sq_flush,
					      req->rq_flush);
		return 0;
	}
	if (new == IB_QPS_RESET && cur == IB_QPS_RESET)
		return 0;
	return irdma_qp_apply(qp, cur, new, mask);
}

/**
 * irdma_qp_modify_undo() - back to the QP irdma_qp_modify_stage() found
 * @qp: the QP; caller holds qp->mutex
 * @av: the new address vector (its ARP reference is dropped) or NULL
 * @undo: what the QP had
 *
 * Context: Process context, sleeps.
 */
static void irdma_qp_modify_undo(struct irdma_qp *qp,
				 const struct irdma_qp_av *av,
				 const struct irdma_qp_undo *undo)
{
	qp->attr = undo->attr;
	qp->av = undo->av;
	if (av) {
		irdma_arp_put(qp->rf, av->arp_idx);
		/*
		 * The old priority's qset may be gone by now (its last QP was
		 * this one) and a new one may not come (a TC change pending, a
		 * CQP error): the QP then keeps the new qset, which works, and
		 * its user_pri says so.
		 */
		if (irdma_ws_qp_set_up(qp, undo->user_pri))
			ibdev_warn(qp->ibqp.device, "QP %u: modify failed, QP stays on the qset of priority %u\n",
				   qp->qp_id, qp->user_pri);
	}
}

/**
 * irdma_qp_modify_commit() - the QP is in @new: drop the old vector
 * @qp: the QP; caller holds qp->mutex
 * @av: the new address vector, or NULL (then the old one stays)
 * @undo: what the QP had (its old vector's ARP reference is dropped)
 * @new: the new IB state
 *
 * Context: Process context.
 */
static void irdma_qp_modify_commit(struct irdma_qp *qp,
				   const struct irdma_qp_av *av,
				   const struct irdma_qp_undo *undo,
				   enum ib_qp_state new)
{
	if (av && undo->av.arp_idx >= 0)
		irdma_arp_put(qp->rf, undo->av.arp_idx);
	WRITE_ONCE(qp->state, new);
	qp->attr.qp_state = new;
	qp->attr.cur_qp_state = new;
}

/**
 * irdma_modify_qp() - IB state machine and attributes
 * @ibqp: the QP
 * @attr: the attributes
 * @mask: which of them are valid (IB_QP_*)
 * @udata: user data (struct irdma_modify_qp_req) or NULL
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno; on error nothing changed.
 */
int irdma_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		    struct ib_udata *udata)
{
	struct irdma_qp *qp = to_irdma_qp(ibqp);
	struct irdma_modify_qp_req req = { };
	struct irdma_modify_qp_resp resp = { };
	struct irdma_qp_av av, *new_av = NULL;
	struct irdma_qp_undo undo;
	enum ib_qp_state cur, new;
	int err;

	err = irdma_qp_modify_udata(udata, &req);
	if (err)
		return err;
	err = irdma_qp_modify_quiesce(qp, attr, mask);
	if (err)
		return err;
	mutex_lock(&qp->mutex);
	/*
	 * iWARP: a graceful disconnect of a QP whose connection is over (or
	 * never was) changes nothing and is no error: upstream
	 * irdma_modify_qp() returns 0 for SQD past RTS or below it.
	 * librdmacm's rdma_disconnect() asks for SQD after the peer closed
	 * (ucma_shutdown()): a user QP in ERROR is flushed again there
	 * (irdma_iw_qp_reflush()).
	 */
	if (qp->rf->iwarp && (mask & IB_QP_STATE) &&
	    attr->qp_state == IB_QPS_SQD && qp->state != IB_QPS_RTS &&
	    qp->state != IB_QPS_SQD) {
		if (qp->user && qp->state == IB_QPS_ERR)
			irdma_iw_qp_reflush(qp);
		goto out;
	}
	err = irdma_qp_modify_check(qp, attr, mask, &cur, &new);
	if (err)
		goto out;
	if ((mask & IB_QP_AV) && ibqp->qp_type == IB_QPT_RC) {
		err = irdma_qp_resolve_av(qp, attr, mask, &av);
		if (err)
			goto out;
		new_av = &av;
	}
	err = irdma_qp_modify_stage(qp, attr, mask, new_av, &undo);
	if (err)
		goto out;
	err = irdma_qp_transition(qp, cur, new, mask, &req);
	if (err) {
		irdma_qp_modify_undo(qp, new_av, &undo);
		goto out;
	}
	irdma_qp_modify_commit(qp, new_av, &undo, new);
	if (udata && udata->outlen &&
	    ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen)))
		err = -EFAULT;
	ibdev_dbg(ibqp->device, "QP %u: %d -> %d (device %s)\n", qp->qp_id,
		  cur, new, e810_qp_state_name(qp->hw_state));
out:
	mutex_unlock(&qp->mutex);
	return err;
}

/**
 * irdma_query_qp() - the attributes as set
 * @ibqp: the QP
 * @attr: filled
 * @mask: ignored: everything is returned
 * @init: filled with the creation attributes
 *
 * Context: Process context.
 * Return: 0.
 */
int irdma_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		   struct ib_qp_init_attr *init)
{
	struct irdma_qp *qp = to_irdma_qp(ibqp);

	mutex_lock(&qp->mutex);
	*attr = qp->attr;
	attr->qp_state = qp->state;
	attr->cur_qp_state = qp->state;
	attr->cap = qp->cap;
	attr->ah_attr.type = RDMA_AH_ATTR_TYPE_ROCE;
	attr->ah_attr.port_num = 1;
	memset(init, 0, sizeof(*init));
	init->event_handler = ibqp->event_handler;
	init->qp_context = ibqp->qp_context;
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->cap = qp->cap;
	init->sq_sig_type = qp->sq_sig_type;
	init->qp_type = ibqp->qp_type;
	init->port_num = 1;
	mutex_unlock(&qp->mutex);
	return 0;
}

/* ---- iWARP ------------------------------------------------------------------ */

/**
 * irdma_iw_qp_add_ref() - iw_cm holds the QP (iw_add_ref)
 * @qp: the QP
 *
 * Context: Any context.
 */
void irdma_iw_qp_add_ref(struct irdma_qp *qp)
{
	refcount_inc(&qp->iw_refs);
}

/**
 * irdma_iw_qp_rem_ref() - iw_cm lets the QP go (iw_rem_ref)
 * @qp: the QP
 *
 * Context: Any context.
 */
void irdma_iw_qp_rem_ref(struct irdma_qp *qp)
{
	if (refcount_dec_and_test(&qp->iw_refs))
		complete(&qp->iw_free);
}

/*
 * Destroy of an iWARP QP: its connection ends first (cm.c posts CLOSE,
 * after which iw_cm drops its references), and the destroy waits for
 * them, as upstream irdma_destroy_qp() waits for free_qp: without a
 * limit, since the QP's memory goes once this returns. A wait past
 * IRDMA_IW_FREE_MS is said once.
 */
static void irdma_iw_qp_release(struct irdma_qp *qp)
{
	irdma_cm_qp_gone(qp->rf, qp);
	irdma_iw_qp_rem_ref(qp);
	if (wait_for_completion_timeout(&qp->iw_free,
					msecs_to_jiffies(IRDMA_IW_FREE_MS)))
		return;
	ibdev_warn(qp->ibqp.device,
		   "QP %u: destroy still waits for iw_cm to let go of it\n",
		   qp->qp_id);
	wait_for_completion(&qp->iw_free);
}

static void irdma_iw_qp_lsmm_free(struct irdma_qp *qp)
{
	if (qp->lsmm_mr)
		irdma_kernel_dma_mr_put(qp->lsmm_mr);
	qp->lsmm_mr = NULL;
	if (qp->lsmm.va)
		irdma_dma_free(qp->rf, &qp->lsmm);
}

/* Quantum 0 of the SQ, mapped: a user QP's from page 0 of its buffer. */
static void *irdma_iw_qp_sq_map(struct irdma_qp *qp, struct page **pg)
{
	struct ib_umem *umem;
	unsigned long off;

	*pg = NULL;
	if (!qp->user)
		return qp->kbuf.va;
	umem = qp->qb->umem;
	off = ib_umem_offset(umem);
	if (off + 3 * E810_WQE_QUANTUM > PAGE_SIZE)
		return NULL;
	*pg = sg_page(umem->sgt_append.sgt.sgl);
	return (u8 *)kmap_local_page(*pg) + off;
}

/**
 * irdma_iw_qp_conn_wqes() - the connection WQEs, in SQ slots 0..2
 * @qp: an iWARP QP in IDLE
 * @lsmm: passive side: the MPA Reply, sent as stream bytes (LSMM); NULL
 *	on the active side (the RTR)
 * @len: its length
 * @rtr: passive side: the peer sends an RTR, the QP waits for it
 *	(WAITFORRCVPDU); active side: a zero-length READ as RTR, else a
 *	WRITE
 *
 * No doorbell: the device starts the SQ at index 0 when the QP goes to
 * RTS (upstream irdma_sc_send_lsmm(), irdma_sc_send_rtt(),
 * irdma_sc_gen_rts_ae()). The MPA Reply goes through a DMA MR on the
 * QP's PD, kept until the QP is destroyed.
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
int irdma_iw_qp_conn_wqes(struct irdma_qp *qp, const void *lsmm, u32 len,
			  bool rtr)
{
	const struct e810_hw_gen *g = &qp->rf->gen->hw;
	/* GEN_1: the LSMM/RTR only (no RTS AE feature, upstream). */
	int i, err, n = irdma_is_gen1(qp->rf) ? 1 : 3;
	u64 w[3][4] = { };
	struct ib_mr *mr;
	struct page *pg;
	u8 *sq;

	if (lsmm) {
		if (qp->lsmm_mr)
			return -EBUSY;
		err = irdma_dma_alloc(qp->rf, &qp->lsmm, len, GFP_KERNEL);
		if (err)
			return err;
		memcpy(qp->lsmm.va, lsmm, len);
		mr = irdma_kernel_dma_mr(qp->ibqp.pd);
		if (IS_ERR(mr)) {
			irdma_dma_free(qp->rf, &qp->lsmm);
			return PTR_ERR(mr);
		}
		qp->lsmm_mr = mr;
		w[0][0] = qp->lsmm.pa;
		w[0][1] = irdma_fprep(g->frag_len, len) |
			  irdma_fprep(g->frag_stag, mr->lkey) | g->frag_valid;
		w[0][3] = FIELD_PREP(E810_WQE_OPCODE, E810_OP_SEND) |
			  E810_WQE_STREAMMODE |
			  (rtr ? E810_WQE_WAITFORRCVPDU : 0);
	} else if (rtr) {
		w[0][1] = irdma_fprep(g->frag_stag, IRDMA_RTR_READ_LKEY) |
			  g->frag_valid;
		w[0][3] = FIELD_PREP(E810_WQE_REMSTAG, IRDMA_RTR_READ_RKEY) |
			  FIELD_PREP(E810_WQE_OPCODE, E810_OP_RDMA_READ);
	} else {
		w[0][1] = g->frag_valid;
		w[0][3] = FIELD_PREP(E810_WQE_OPCODE, E810_OP_RDMA_WRITE);
	}
	w[1][3] = FIELD_PREP(E810_WQE_OPCODE, E810_OP_NOP) |
		  E810_WQE_LOCALFENCE;
	w[2][3] = FIELD_PREP(E810_WQE_OPCODE, IRDMA_OP_GEN_RTS_AE);
	sq = irdma_iw_qp_sq_map(qp, &pg);
	if (!sq)
		return -EINVAL;
	/* First pass of the ring: valid bit 1. */
	for (i = 0; i < n; i++) {
		__le64 *q = (__le64 *)(sq + i * E810_WQE_QUANTUM);

		q[0] = cpu_to_le64(w[i][0]);
		q[1] = cpu_to_le64(w[i][1]);
		q[2] = cpu_to_le64(w[i][2]);
		dma_wmb();	/* the WQE before its valid bit */
		q[3] = cpu_to_le64(w[i][3] | E810_WQE_VALID);
	}
	if (pg) {
		flush_dcache_page(pg);
		kunmap_local(sq);
	}
	return 0;
}

/**
 * irdma_iw_qp_offload() - hand an iWARP connection to the device
 * @qp: the QP, its connection WQEs written
 * @tcp: the connection
 *
 * The context with its TCP group and MODIFY_QP to RTS with TOECTXVALID
 * (upstream irdma_cm_init_tsa_conn(), irdma_modify_qp() to RTS).
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
int irdma_iw_qp_offload(struct irdma_qp *qp, const struct irdma_iw_tcp *tcp)
{
	int err;

	mutex_lock(&qp->mutex);
	if (qp->hw_state != E810_QP_STATE_IDLE || qp->iw_offloaded) {
		err = -EINVAL;
		goto out;
	}
	qp->iw_tcp = *tcp;
	qp->iw_offloaded = true;
	/* Upstream irdma_modify_qp() to RTS. */
	WRITE_ONCE(qp->hw_tcp_state, E810_TCPSTATE_ESTABLISHED);
	WRITE_ONCE(qp->hw_iwarp_state, E810_QP_STATE_RTS);
	err = irdma_qp_hw_modify(qp, E810_QP_STATE_RTS,
				 E810_CQPSQ_QP_TOECTXVALID |
				 E810_CQPSQ_QP_ORDVALID |
				 E810_CQPSQ_QP_ARPTABIDXVALID);
	if (err) {
		qp->iw_offloaded = false;
		goto out;
	}
	WRITE_ONCE(qp->state, IB_QPS_RTS);
	qp->attr.qp_state = IB_QPS_RTS;
	qp->attr.cur_qp_state = IB_QPS_RTS;
out:
	mutex_unlock(&qp->mutex);
	return err;
}

/* iw_cm's SQD (a graceful disconnect): CLOSING, the device sends FIN. */
static int irdma_iw_qp_sqd(struct irdma_qp *qp)
{
	int err;

	if (qp->hw_state == E810_QP_STATE_SQD)
		return 0;
	if (qp->hw_state != E810_QP_STATE_RTS)
		return -EINVAL;
	err = irdma_qp_hw_modify(qp, E810_QP_STATE_SQD, 0);
	if (!err)
		irdma_cm_qp_event(qp->rf, qp->qp_id, IRDMA_CM_QPEV_CLOSING);
	return err;
}

/**
 * irdma_iw_qp_close() - the connection manager closes the QP's connection
 * @qp: an offloaded QP
 * @reset: abortive: ERROR with RESETCON and a flush; else CLOSING (FIN)
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
int irdma_iw_qp_close(struct irdma_qp *qp, bool reset)
{
	int err = 0;

	mutex_lock(&qp->mutex);
	if (reset) {
		if (qp->state != IB_QPS_ERR)
			err = irdma_qp_to_err(qp, true, true);
		if (!err) {
			WRITE_ONCE(qp->state, IB_QPS_ERR);
			qp->attr.qp_state = IB_QPS_ERR;
		}
	} else if (qp->hw_state == E810_QP_STATE_RTS) {
		err = irdma_qp_hw_modify(qp, E810_QP_STATE_SQD, 0);
		if (!err) {
			WRITE_ONCE(qp->state, IB_QPS_SQD);
			qp->attr.qp_state = IB_QPS_SQD;
		}
	}
	mutex_unlock(&qp->mutex);
	return err;
}

/**
 * irdma_iw_qp_flush() - the connection is over: QP to ERROR, flushed
 * @qp: an offloaded QP
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
int irdma_iw_qp_flush(struct irdma_qp *qp)
{
	int err = 0;

	mutex_lock(&qp->mutex);
	if (qp->state != IB_QPS_ERR && qp->state != IB_QPS_RESET) {
		err = irdma_qp_to_err(qp, true, true);
		if (!err) {
			WRITE_ONCE(qp->state, IB_QPS_ERR);
			qp->attr.qp_state = IB_QPS_ERR;
		}
	}
	mutex_unlock(&qp->mutex);
	return err;
}

/* ---- asynchronous events ----------------------------------------------------- */

/*
 * A UD send error: the device stopped the SQ and flushed it (the RQ goes
 * on); software reports the kernel WQEs it had outstanding.
 */
static void irdma_qp_to_sqe(struct irdma_qp *qp)
{
	unsigned long flags;

	lockdep_assert_held(&qp->mutex);
	if (!qp->user) {
		spin_lock_irqsave(&qp->lock, flags);
		qp->flush_sq = true;
		qp->sq_draining = false;
		spin_unlock_irqrestore(&qp->lock, flags);
		irdma_cq_kick(qp->scq);
	}
	WRITE_ONCE(qp->state, IB_QPS_SQE);
	qp->attr.qp_state = IB_QPS_SQE;
}

static void irdma_qp_ae_work(struct work_struct *work)
{
	struct irdma_qp *qp = container_of(work, struct irdma_qp, ae_work);
	bool fatal = test_and_clear_bit(IRDMA_QP_AE_FATAL, &qp->ae_flags);
	bool sqe = test_and_clear_bit(IRDMA_QP_AE_SQE, &qp->ae_flags);

	mutex_lock(&qp->mutex);
	/* The Terminate exchange of an iWARP QP (see irdma_term_send()). */
	if (!qp->rf->resetting && qp->state != IB_QPS_RESET) {
		/*
		 * Upstream irdma_process_aeq(): a Terminate only from RTS
		 * or TERMINATE as the error AE's AEQE reported them.
		 */
		if (test_bit(IRDMA_QP_AE_TERM, &qp->ae_flags)) {
			u8 st = READ_ONCE(qp->hw_iwarp_state);

			if (st == E810_QP_STATE_RTS ||
			    st == E810_QP_STATE_TERMINATE)
				irdma_term_send(qp);
			else
				irdma_term_done(qp, false);
		}
		clear_bit(IRDMA_QP_AE_TERM, &qp->ae_flags);
		if (test_and_clear_bit(IRDMA_QP_AE_TERM_RCVD, &qp->ae_flags))
			irdma_term_rcvd(qp);
		if (test_and_clear_bit(IRDMA_QP_AE_TERM_FIN, &qp->ae_flags))
			irdma_term_fin(qp);
		if (test_and_clear_bit(IRDMA_QP_AE_TERM_DONE, &qp->ae_flags))
			irdma_term_done(qp, false);
	}
	/* RESET and INIT QPs carry no traffic: the AE is a stale one. */
	if ((!fatal && !sqe) || qp->state == IB_QPS_RESET ||
	    qp->state == IB_QPS_INIT || qp->state == IB_QPS_ERR ||
	    qp->rf->resetting)
		goto out;
	if (sqe && !fatal && qp->state == IB_QPS_RTS) {
		irdma_qp_to_sqe(qp);
		goto out;
	}
	/* Else a fatal error, or a UD send error outside RTS (then fatal). */
	if ((fatal || qp->state != IB_QPS_SQE) &&
	    !irdma_qp_to_err(qp, true, true)) {
		WRITE_ONCE(qp->state, IB_QPS_ERR);
		qp->attr.qp_state = IB_QPS_ERR;
	}
out:
	mutex_unlock(&qp->mutex);
}

/*
 * Up to 1 s for the AE of a UD send error to move the QP to SQE. Polled:
 * ib_mad calls from a WQ_MEM_RECLAIM workqueue, which must not flush
 * ae_work (system_wq).
 */
static void irdma_qp_wait_sqe(struct irdma_qp *qp)
{
	int i;

	for (i = 0; i < 50 && READ_ONCE(qp->state) == IB_QPS_RTS; i++)
		msleep(20);
}

/* The IB event of an error AE, or 0 for AEs that are not errors. */
static enum ib_event_type irdma_ae_event(u16 code, bool *err)
{
	*err = true;
	switch (code) {
	case E810_AE_LLP_CONNECTION_ESTABLISHED:
	case E810_AE_QP_SUSPEND_COMPLETE:
	case E810_AE_CQP_DEFERRED_COMPLETE:
	case E810_AE_LLP_CLOSE_COMPLETE:
		*err = false;
		return 0;
	case E810_AE_AMP_UNALLOCATED_STAG:
	case E810_AE_AMP_INVALID_STAG:
	case E810_AE_AMP_BAD_PD:
	case E810_AE_AMP_BAD_STAG_KEY:
	case E810_AE_AMP_BAD_STAG_INDEX:
	case E810_AE_AMP_BOUNDS_VIOLATION:
	case E810_AE_AMP_RIGHTS_VIOLATION:
	case E810_AE_AMP_TO_WRAP:
	case E810_AE_AMP_INVALIDATE_NO_REMOTE_ACCESS_RIGHTS:
	case E810_AE_PRIV_OPERATION_DENIED:
	case E810_AE_IB_REMOTE_ACCESS_ERROR:
	case E810_AE_UDA_XMIT_BAD_PD:
		return IB_EVENT_QP_ACCESS_ERR;
	case E810_AE_AMP_BAD_QP:
	case E810_AE_WQE_UNEXPECTED_OPCODE:
	case E810_AE_IB_INVALID_REQUEST:
	case E810_AE_WQE_INVALID_PARAMETER:
	case E810_AE_WQE_INVALID_FRAG_DATA:
		return IB_EVENT_QP_REQ_ERR;
	default:
		return IB_EVENT_QP_FATAL;
	}
}

/*
 * The AEs of an iWARP connection (upstream irdma_process_aeq()): to the
 * connection manager, which acts on them in process context. True if
 * taken; the others are errors, for the error path.
 */
static bool irdma_iw_qp_ae(struct irdma_qp *qp, u16 code, u8 q2)
{
	ibdev_dbg(qp->ibqp.device,
		  "QP %u: iWARP AE 0x%04x, TCP state %u, QP state %u, Terminate 0x%x/0x%lx\n",
		  qp->qp_id, code, READ_ONCE(qp->hw_tcp_state),
		  READ_ONCE(qp->hw_iwarp_state), READ_ONCE(qp->term_flags),
		  READ_ONCE(qp->ae_flags));
	/*
	 * A Terminate under way: the peer's FIN is part of it, and the close
	 * completing (or the peer's RST) ends it (upstream
	 * irdma_terminate_done()).
	 */
	if (READ_ONCE(qp->term_flags) ||
	    test_bit(IRDMA_QP_AE_TERM, &qp->ae_flags) ||
	    test_bit(IRDMA_QP_AE_TERM_RCVD, &qp->ae_flags)) {
		switch (code) {
		case E810_AE_LLP_FIN_RECEIVED:
		case E810_AE_RDMAP_ROE_BAD_LLP_CLOSE:
			return true;
		case E810_AE_LLP_CLOSE_COMPLETE:
		case E810_AE_LLP_CONNECTION_RESET:
		case E810_AE_RESET_SENT:
		case E810_AE_BAD_CLOSE:
			set_bit(IRDMA_QP_AE_TERM_DONE, &qp->ae_flags);
			queue_work(system_wq, &qp->ae_work);
			return true;
		default:
			break;
		}
	}
	switch (code) {
	case E810_AE_LLP_CONNECTION_ESTABLISHED:
	case E810_AE_LLP_FIN_RECEIVED:
	case E810_AE_RDMAP_ROE_BAD_LLP_CLOSE:
		break;
	case E810_AE_LLP_CLOSE_COMPLETE:
	case E810_AE_LLP_CONNECTION_RESET:
	case E810_AE_RESET_SENT:
	case E810_AE_BAD_CLOSE:
		break;
	case E810_AE_TERMINATE_SENT:
		set_bit(IRDMA_QP_AE_TERM_FIN, &qp->ae_flags);
		queue_work(system_wq, &qp->ae_work);
		return true;
	case E810_AE_LLP_TERMINATE_RECEIVED:
		WRITE_ONCE(qp->term_q2, q2);
		set_bit(IRDMA_QP_AE_TERM_RCVD, &qp->ae_flags);
		queue_work(system_wq, &qp->ae_work);
		return true;
	case E810_AE_RESET_NOT_SENT:
	case E810_AE_LLP_DOUBT_REACHABILITY:
	case E810_AE_RESOURCE_EXHAUSTION:
		return true;
	default:
		return false;
	}
	irdma_cm_qp_event(qp->rf, qp->qp_id, code);
	return true;
}

/**
 * irdma_qp_ae() - an AE about QP @qp_id (from the AEQ handler)
 * @rf: per-function state
 * @qp_id: QP id of the AEQE
 * @code: AE code
 * @src: AE source
 * @wqe_idx: WQE index of the AEQE
 * @q2: the AEQE's Q2DATA (iWARP: a segment was written to Q2)
 * @tcp_state: the AEQE's TCPSTATE (iWARP: E810_TCPSTATE_*)
 * @iw_state: the AEQE's IWSTATE (the QP's state in the device)
 *
 * Error AEs raise the IB event and move the QP to ERR (work queue: the
 * CQP ops sleep).
 *
 * Context: Softirq (the AEQ's tasklet).
 * Return: true if the QP exists.
 */
bool irdma_qp_ae(struct irdma_pci_f *rf, u32 qp_id, u16 code, u8 src,
		 u32 wqe_idx, u8 q2, u8 tcp_state, u8 iw_state)
{
	struct ib_event ev = { };
	struct irdma_qp *qp;
	bool err;

	ev.event = irdma_ae_event(code, &err);
	xa_lock(&rf->qps);
	qp = xa_load(&rf->qps, qp_id);
	if (qp) {
		qp->last_ae = code;
		if (qp->hw_type == E810_QP_TYPE_IWARP) {
			/* Upstream irdma_process_aeq(): every QP AE. */
			WRITE_ONCE(qp->hw_tcp_state, tcp_state);
			WRITE_ONCE(qp->hw_iwarp_state, iw_state);
			if (irdma_iw_qp_ae(qp, code, q2))
				goto out;
		}
		if (code == E810_AE_QP_SUSPEND_COMPLETE &&
		    READ_ONCE(qp->suspend_pending)) {
			WRITE_ONCE(qp->suspend_pending, false);
			wake_up(&rf->suspend_wq);
		}
		if (err) {
			ibdev_dbg(qp->ibqp.device,
				  "QP %u: AE 0x%04x (%s) source 0x%x WQE %u\n",
				  qp_id, code, irdma_ae_name(code), src,
				  wqe_idx);
			/*
			 * A UD send error is the Send Queue Error state of
			 * IB: reported by the completion, no async event.
			 */
			if (irdma_qp_is_ud(qp) &&
			    (src == E810_AE_SOURCE_SQ ||
			     src == E810_AE_SOURCE_SQ_0111) &&
			    code != E810_AE_LCE_QP_CATASTROPHIC) {
				set_bit(IRDMA_QP_AE_SQE, &qp->ae_flags);
				queue_work(system_wq, &qp->ae_work);
				goto out;
			}
			/*
			 * An offloaded connection first tells the peer with a
			 * Terminate (upstream irdma_terminate_connection());
			 * it ends with the QP (cm.c) once that is done.
			 */
			if (qp->iw_offloaded && !READ_ONCE(qp->term_flags) &&
			    !test_bit(IRDMA_QP_AE_TERM, &qp->ae_flags)) {
				/* AEs come one at a time (the AEQ tasklet). */
				WRITE_ONCE(qp->term_ae, code);
				WRITE_ONCE(qp->term_q2, q2);
				set_bit(IRDMA_QP_AE_TERM, &qp->ae_flags);
			} else if (qp->iw_offloaded) {
				goto out;
			} else {
				set_bit(IRDMA_QP_AE_FATAL, &qp->ae_flags);
			}
			if (qp->ibqp.event_handler) {
				ev.device = qp->ibqp.device;
				ev.element.qp = &qp->ibqp;
				qp->ibqp.event_handler(&ev,
						       qp->ibqp.qp_context);
			}
			queue_work(system_wq, &qp->ae_work);
		}
	}
out:
	xa_unlock(&rf->qps);
	return !!qp;
}
