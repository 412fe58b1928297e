// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: verbs CQs.
 *
 * A user CQ's ring and its 64-byte shadow area are user pages the provider
 * registered beforehand with reg_type CQ (mr.c keeps them as qbufs,
 * docs/hw-reference.md 6.4); a kernel CQ has a coherent ring and shadow
 * area. Either way the device learns the CQ through CREATE_CQ /
 * MODIFY_CQ / DESTROY_CQ (hw-reference 2.5). The CQ context the device echoes
 * in CEQEs and CQ AEs is the CQ id (never a pointer); the CEQ tasklet
 * looks the CQ up in rf->cqs, in softirq context, so process context
 * changes rf->cqs with bottom halves off (the _bh calls).
 *
 * Kernel rings hold twice the requested entries (plus one) because a CQE
 * with immediate data or UD source fields takes the next slot as well
 * (hw-reference 5.6). CQE decoding is in uk.c.
 *
 * Resizing a kernel CQ (as upstream irdma_resize_cq() with its resize_list
 * and irdma_process_resize_list()): MODIFY_CQ gives the device a new ring
 * while poll goes on reading the old one, which the device writes until
 * it executes the command. Only then, under the CQ lock, does the old
 * ring join @old_rings and the new one become @kring. Poll drains the old
 * rings first, oldest first; a ring is done with once a newer ring shows
 * a CQE (the device writes in order and never goes back to a ring it
 * left), and each ring done with advances SW_CQ_SELECT by one and is
 * freed from a work item.
 */

#include <linux/bitfield.h>
#include <linux/version.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/irdma-abi.h>
#include <rdma/uverbs_ioctl.h>

#include <hw/e810_ctx.h>
#include <hw/e810_regs.h>

#include "cq.h"
#include "iw.h"
#include "mr.h"
#include "qp.h"

#define IRDMA_SHADOW_THRESH_MAX	0x3FFFF

static u32 irdma_cq_ceq(struct irdma_pci_f *rf, int vector)
{
	/* Vector 0 is CEQ 0; vector k is CEQ k while such a CEQ exists. */
	if (vector < 0 || (u32)vector > rf->ceq_cnt)
		return 0;
	return vector;
}

/*
 * CREATE_CQ, MODIFY_CQ (resize) or DESTROY_CQ for @cq with a ring of @size
 * entries at @pa (unless the ring is on a PBL).
 */
static int irdma_cq_cqp_ring(struct irdma_cq *cq, u8 op, u32 size, u64 pa)
{
	struct irdma_pci_f *rf = cq->rf;
	u64 q[8] = { };
	u64 hdr;

	q[E810_QW(E810_CQPSQ_CQ_SIZE_OFF)] =
		FIELD_PREP(E810_CQPSQ_CQ_CQSIZE, size);
	q[E810_QW(E810_CQPSQ_CQ_CTX_OFF)] =
		FIELD_PREP(E810_CQPSQ_CQ_CQCTX, cq->cq_id);
	q[E810_QW(E810_CQPSQ_CQ_SHADOW_OFF)] = cq->shadow_pa;
	if (cq->virt)
		q[E810_QW(E810_CQPSQ_CQ_PBL_OFF)] =
			FIELD_PREP(E810_CQPSQ_CQ_FIRSTPMPBLIDX, cq->pble);
	hdr = irdma_cq_hdr_ids(rf, cq->cq_id) |
	      E810_CQPSQ_CQ_ENCEQEMASK;
	if (cq->virt)
		hdr |= FIELD_PREP(E810_CQPSQ_CQ_LPBLSIZE, E810_LPBL_LEVEL1) |
		       E810_CQPSQ_CQ_VIRTMAP;
	if (op != E810_CQP_OP_MODIFY_CQ)
		hdr |= irdma_cq_hdr_ceq(rf, cq->ceq_id) |
		       E810_CQPSQ_CQ_CEQIDVALID;
	if (op != E810_CQP_OP_DESTROY_CQ) {
		q[E810_QW(E810_CQPSQ_CQ_THRESH_OFF)] =
			FIELD_PREP(E810_CQPSQ_CQ_SHADOW_READ_THRESHOLD,
				   min_t(u32, size / 2, IRDMA_SHADOW_THRESH_MAX));
		if (!cq->virt)
			q[E810_QW(E810_CQPSQ_CQ_PA_OFF)] = pa;
		q[E810_QW(E810_CQPSQ_CQ_TPH_OFF)] =
			FIELD_PREP(E810_CQPSQ_VSIIDX, rf->vsi_id);
		hdr |= E810_CQPSQ_CQ_CHKOVERFLOW;
	}
	if (op == E810_CQP_OP_MODIFY_CQ)
		hdr |= E810_CQPSQ_CQ_CQRESIZE;
	return irdma_cqp_exec(rf, op, hdr, q, NULL);
}

/* The same for @cq as it is now. */
static int irdma_cq_cqp(struct irdma_cq *cq, u8 op)
{
	return irdma_cq_cqp_ring(cq, op, cq->size, cq->ring_pa);
}

/* Ring fields of a user CQ from its registered buffer. */
static int irdma_cq_user_ring(struct irdma_cq *cq, struct irdma_qbuf *qb,
			      u32 entries)
{
	/* The buffer must hold every entry the device may write. */
	if ((u64)qb->npages * IRDMA_QBUF_PAGE < (u64)entries * E810_CQE_SIZE) {
		ibdev_dbg(cq->ibcq.device,
			  "CQ ring of %u pages too small for %u CQEs\n",
			  qb->npages, entries);
		return -EINVAL;
	}
	cq->virt = !qb->contig;
	cq->ring_pa = qb->contig ? qb->pa : 0;
	cq->pble = qb->contig ? 0 : qb->pble;
	return 0;
}

static int irdma_cq_user_init(struct irdma_cq *cq, u32 entries,
			      struct ib_udata *udata)
{
	struct irdma_ucontext *uctx = rdma_udata_to_drv_context(udata,
			struct irdma_ucontext, ibucontext);
	struct irdma_create_cq_req req = { };
	int err;

	if (udata->inlen < sizeof(req) ||
	    udata->outlen < sizeof(struct irdma_create_cq_resp))
		return -EINVAL;
	if (ib_copy_from_udata(&req, udata, sizeof(req)))
		return -EFAULT;
	cq->qb = irdma_qbuf_claim(uctx, req.user_cq_buf, IRDMA_MEMREG_TYPE_CQ);
	if (!cq->qb) {
		ibdev_dbg(cq->ibcq.device, "no CQ buffer registered at 0x%llx\n",
			  req.user_cq_buf);
		return -EPROTO;
	}
	/*
	 * Without the CQ resize feature (GEN_1) the provider puts the shadow
	 * area in the page after the ring, in the same buffer (upstream
	 * irdma_reg_user_mr() for a CQ: cqmr->shadow).
	 */
	if (irdma_is_gen1(cq->rf)) {
		err = irdma_cq_user_ring(cq, cq->qb, entries);
		if (!err && cq->qb->npages <= cq->qb->cq_pages)
			err = -EINVAL;
		if (!err && cq->qb->contig)
			cq->shadow_pa = cq->qb->pa +
					(u64)cq->qb->cq_pages * IRDMA_QBUF_PAGE;
		else if (!err)
			err = irdma_qbuf_page(cq->qb, cq->qb->cq_pages,
					      &cq->shadow_pa);
		if (err)
			goto err_ring;
		cq->uctx = uctx;
		cq->user = true;
		return 0;
	}
	cq->qb_shadow = irdma_qbuf_claim(uctx, req.user_shadow_area,
					 IRDMA_MEMREG_TYPE_CQ);
	if (!cq->qb_shadow) {
		ibdev_dbg(cq->ibcq.device,
			  "no CQ shadow area registered at 0x%llx\n",
			  req.user_shadow_area);
		err = -EPROTO;
		goto err_ring;
	}
	err = irdma_cq_user_ring(cq, cq->qb, entries);
	if (err)
		goto err_shadow;
	cq->shadow_pa = cq->qb_shadow->pa;
	cq->uctx = uctx;
	cq->user = true;
	return 0;

err_shadow:
	irdma_qbuf_release(uctx, cq->qb_shadow);
	cq->qb_shadow = NULL;
err_ring:
	irdma_qbuf_release(uctx, cq->qb);
	cq->qb = NULL;
	return err;
}

static void irdma_cq_user_fini(struct irdma_cq *cq)
{
	if (cq->qb_shadow)	/* none on GEN_1: in the ring's buffer */
		irdma_qbuf_release(cq->uctx, cq->qb_shadow);
	irdma_qbuf_release(cq->uctx, cq->qb);
	cq->qb_shadow = NULL;
	cq->qb = NULL;
}

static int irdma_cq_kernel_init(struct irdma_cq *cq, u32 entries)
{
	struct irdma_pci_f *rf = cq->rf;
	int err;

	err = irdma_dma_alloc(rf, &cq->kring.mem,
			      (size_t)entries * E810_CQE_SIZE, GFP_KERNEL);
	if (err)
		return err;
	err = irdma_dma_alloc(rf, &cq->shadow, E810_CQ_SHADOW_SIZE,
			      GFP_KERNEL);
	if (err) {
		irdma_dma_free(rf, &cq->kring.mem);
		return err;
	}
	cq->ring_pa = cq->kring.mem.pa;
	cq->shadow_pa = cq->shadow.pa;
	cq->kring.uk.buf = cq->kring.mem.va;
	cq->kring.uk.size = entries;
	cq->kring.uk.head = 0;
	cq->kring.uk.pol = 1;
	return 0;
}

static void irdma_cq_free_rings(struct irdma_cq *cq, struct list_head *list)
{
	struct irdma_cq_ring *r, *tmp;

	list_for_each_entry_safe(r, tmp, list, node) {
		list_del(&r->node);
		irdma_dma_free(cq->rf, &r->mem);
		kfree(r);
	}
}

/* Frees the old rings poll found done with (it may run in any context). */
static void irdma_cq_free_work(struct work_struct *work)
{
	struct irdma_cq *cq = container_of(work, struct irdma_cq, free_work);
	unsigned long flags;
	LIST_HEAD(list);

	spin_lock_irqsave(&cq->lock, flags);
	list_splice_init(&cq->retired, &list);
	spin_unlock_irqrestore(&cq->lock, flags);
	irdma_cq_free_rings(cq, &list);
}

/* After DESTROY_CQ (or when CREATE_CQ failed): nothing writes the rings. */
static void irdma_cq_kernel_fini(struct irdma_cq *cq)
{
	cancel_work_sync(&cq->free_work);
	irdma_cq_free_rings(cq, &cq->retired);
	irdma_cq_free_rings(cq, &cq->old_rings);
	irdma_dma_free(cq->rf, &cq->shadow);
	irdma_dma_free(cq->rf, &cq->kring.mem);
}

/**
 * irdma_create_cq() - create a user or kernel CQ
 * @ibcq: allocated by ib_core
 * @attr: size, completion vector, flags
 * @attrs: (or @udata before 6.11) user data: struct irdma_create_cq_req
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
int irdma_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		    struct uverbs_attr_bundle *attrs)
#else
int irdma_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		    struct ib_udata *udata)
#endif
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
	struct ib_udata *udata = attrs ? &attrs->driver_udata : NULL;
#endif
	struct irdma_pci_f *rf = to_iwdev(ibcq->device)->rf;
	struct irdma_cq *cq = to_irdma_cq(ibcq);
	struct irdma_create_cq_resp resp = { };
	u32 entries, id;
	int err;

	if (attr->flags)
		return -EOPNOTSUPP;
	/* User: ring entries the provider sized; kernel: CQEs wanted. */
	if (attr->cqe < 1 ||
	    attr->cqe > (udata ? IRDMA_MAX_CQ_RING : irdma_max_cq_req(rf)))
		return -EINVAL;
	cq->rf = rf;
	spin_lock_init(&cq->lock);
	mutex_init(&cq->resize_lock);
	INIT_LIST_HEAD(&cq->qps);
	INIT_LIST_HEAD(&cq->old_rings);
	INIT_LIST_HEAD(&cq->retired);
	INIT_WORK(&cq->free_work, irdma_cq_free_work);
	cq->ceq_id = irdma_cq_ceq(rf, attr->comp_vector);
	if (udata) {
		/* The provider already sized the ring for extended CQEs. */
		entries = attr->cqe;
	} else {
		entries = e810u_cq_entries(irdma_geom(rf), attr->cqe);
	}
	cq->size = entries;

	/* Reserve the id; the CQ becomes visible once the device has it. */
	/* In iWARP mode CQ 1 is the ILQ's (iw.h). */
	err = xa_alloc_bh(&rf->cqs, &id, NULL,
			  XA_LIMIT(rf->iwarp ? IRDMA_IW_FIRST_CQ_ID : 1,
				   rf->hmc.obj[E810_HMC_CQ].cnt - 1),
			  GFP_KERNEL);
	if (err)
		return err == -EBUSY ? -ENOMEM : err;
	cq->cq_id = id;

	err = udata ? irdma_cq_user_init(cq, entries, udata) :
		      irdma_cq_kernel_init(cq, entries);
	if (err)
		goto err_id;
	err = irdma_cq_cqp(cq, E810_CQP_OP_CREATE_CQ);
	if (err)
		goto err_mem;
	if (udata) {
		resp.cq_id = cq->cq_id;
		resp.cq_size = cq->size;
		if (ib_copy_to_udata(udata, &resp,
				     min(sizeof(resp), udata->outlen))) {
			err = -EFAULT;
			goto err_destroy;
		}
		ibcq->cqe = cq->size;
	} else {
		ibcq->cqe = attr->cqe;
	}
	xa_store_bh(&rf->cqs, cq->cq_id, cq, GFP_KERNEL);
	ibdev_dbg(ibcq->device, "CQ %u: %u entries, CEQ %u, %s\n", cq->cq_id,
		  cq->size, cq->ceq_id, cq->user ? "user" : "kernel");
	return 0;

err_destroy:
	irdma_cq_cqp(cq, E810_CQP_OP_DESTROY_CQ);
err_mem:
	if (udata)
		irdma_cq_user_fini(cq);
	else
		irdma_cq_kernel_fini(cq);
err_id:
	xa_erase_bh(&rf->cqs, cq->cq_id);
	return err;
}

/**
 * irdma_destroy_cq() - destroy a CQ (no QP uses it any more)
 * @ibcq: the CQ
 * @udata: user data or NULL
 *
 * Context: Process context, sleeps.
 * Return: 0.
 */
int irdma_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct irdma_cq *cq = to_irdma_cq(ibcq);
	struct irdma_pci_f *rf = cq->rf;

	if (!rf->resetting && irdma_cq_cqp(cq, E810_CQP_OP_DESTROY_CQ))
		ibdev_warn(ibcq->device, "CQ %u: DESTROY_CQ failed\n",
			   cq->cq_id);
	/* After this no CEQ or AE handler can find it. */
	xa_erase_bh(&rf->cqs, cq->cq_id);
	if (cq->user)
		irdma_cq_user_fini(cq);
	else
		irdma_cq_kernel_fini(cq);
	mutex_destroy(&cq->resize_lock);
	return 0;
}

static bool irdma_ring_has_cqe(struct irdma_cq_ring *r)
{
	return e810u_cq_ring_has_cqe(&r->uk);
}

/* A CQE waits in the current ring or an old one; cq->lock held. */
static bool irdma_cq_has_cqe(struct irdma_cq *cq)
{
	struct irdma_cq_ring *r;

	list_for_each_entry(r, &cq->old_rings, node)
		if (irdma_ring_has_cqe(r))
			return true;
	return irdma_ring_has_cqe(&cq->kring);
}

static int irdma_resize_kernel_cq(struct irdma_cq *cq, u32 entries)
{
	struct irdma_cq_ring *old;
	struct irdma_dma ring;
	unsigned long flags;
	int err;

	old = kzalloc(sizeof(*old), GFP_KERNEL);
	if (!old)
		return -ENOMEM;
	err = irdma_dma_alloc(cq->rf, &ring, (size_t)entries * E810_CQE_SIZE,
			      GFP_KERNEL);
	if (err)
		goto err_old;
	/*
	 * The device writes the current ring until it executes MODIFY_CQ,
	 * and poll reads it meanwhile: nothing poll uses changes before the
	 * device has the new ring.
	 */
	err = irdma_cq_cqp_ring(cq, E810_CQP_OP_MODIFY_CQ, entries, ring.pa);
	if (err)
		goto err_ring;
	spin_lock_irqsave(&cq->lock, flags);
	old->mem = cq->kring.mem;
	old->uk = cq->kring.uk;
	list_add_tail(&old->node, &cq->old_rings);
	cq->kring.mem = ring;
	cq->kring.uk.buf = cq->kring.mem.va;
	cq->kring.uk.size = entries;
	cq->kring.uk.head = 0;
	cq->kring.uk.pol = 1;
	cq->size = entries;
	cq->ring_pa = ring.pa;
	/* The consumer index the device reads is the new ring's. */
	irdma_set64(&cq->shadow, E810_CQ_DBSA_HEAD_OFF, 0);
	spin_unlock_irqrestore(&cq->lock, flags);
	return 0;

err_ring:
	irdma_dma_free(cq->rf, &ring);
err_old:
	kfree(old);
	return err;
}

static int irdma_resize_user_cq(struct irdma_cq *cq, u32 entries,
				struct ib_udata *udata)
{
	struct irdma_ucontext *uctx = rdma_udata_to_drv_context(udata,
			struct irdma_ucontext, ibucontext);
	struct irdma_resize_cq_req req = { };
	struct irdma_qbuf *qb, *old = cq->qb;
	u32 old_size = cq->size, old_pble = cq->pble;
	u64 old_pa = cq->ring_pa;
	bool old_virt = cq->virt;
	int err;

	if (udata->inlen < sizeof(req))
		return -EINVAL;
	if (ib_copy_from_udata(&req, udata, sizeof(req)))
		return -EFAULT;
	qb = irdma_qbuf_claim(uctx, req.user_cq_buffer, IRDMA_MEMREG_TYPE_CQ);
	if (!qb)
		return -EPROTO;
	err = irdma_cq_user_ring(cq, qb, entries);
	if (err)
		goto err_restore;
	cq->size = entries;
	err = irdma_cq_cqp(cq, E810_CQP_OP_MODIFY_CQ);
	if (err)
		goto err_restore;
	/* The provider deregisters the old buffer once it drained it. */
	cq->qb = qb;
	irdma_qbuf_release(uctx, old);
	return 0;

err_restore:
	cq->size = old_size;
	cq->virt = old_virt;
	cq->ring_pa = old_pa;
	cq->pble = old_pble;
	irdma_qbuf_release(uctx, qb);
	return err;
}

/**
 * irdma_resize_cq() - move a CQ to a ring of another size (MODIFY_CQ)
 * @ibcq: the CQ
 * @entries: user: ring entries (the provider sized them); kernel: CQEs
 * @udata: user data (struct irdma_resize_cq_req) or NULL
 *
 * ib_uverbs calls this with the CQ's uobject only read-locked, so two
 * resizes of one CQ can run at once: @resize_lock keeps the ring fields,
 * the queue buffers and the device's MODIFY_CQ of one resize together.
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
int irdma_resize_cq(struct ib_cq *ibcq, int entries, struct ib_udata *udata)
{
	struct irdma_cq *cq = to_irdma_cq(ibcq);
	struct irdma_pci_f *rf = cq->rf;
	u32 n;
	int err;

	if (!!udata != cq->user)
		return -EINVAL;
	if (entries < 1 ||
	    entries > (udata ? IRDMA_MAX_CQ_RING : irdma_max_cq_req(rf)))
		return -EINVAL;
	n = udata ? entries : e810u_cq_entries(irdma_geom(rf), entries);
	mutex_lock(&cq->resize_lock);
	err = udata ? irdma_resize_user_cq(cq, n, udata) :
		      irdma_resize_kernel_cq(cq, n);
	if (!err)
		ibcq->cqe = udata ? n : entries;
	mutex_unlock(&cq->resize_lock);
	if (err)
		return err;
	ibdev_dbg(ibcq->device, "CQ %u resized to %u entries\n", cq->cq_id, n);
	return 0;
}

#ifdef IRDMA_HAVE_RESIZE_USER_CQ
/**
 * irdma_resize_cq_user_op() - ib_device_ops.resize_user_cq
 * @ibcq: the CQ
 * @entries: ring entries
 * @udata: user data
 *
 * Newer kernels resize only user CQs, through an op with an unsigned
 * count; the work is irdma_resize_cq()'s.
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
int irdma_resize_cq_user_op(struct ib_cq *ibcq, unsigned int entries,
			    struct ib_udata *udata)
{
	if (entries > INT_MAX)
		return -EINVAL;
	return irdma_resize_cq(ibcq, entries, udata);
}
#endif

/*
 * Up to @num completions from ring @r into @wc; *@seen when it consumed a
 * CQE (one that reports nothing included).
 */
static int irdma_poll_ring(struct irdma_cq *cq, struct irdma_cq_ring *r,
			   int num, struct ib_wc *wc, bool *seen)
{
	int n = 0, ret;

	while (n < num) {
		ret = irdma_poll_one(cq, r, &wc[n]);
		if (ret == 0)
			break;
		*seen = true;
		if (ret > 0)
			n++;
	}
	return n;
}

/*
 * The old rings before @last (all of them if @last is NULL) are done with:
 * off to @free_work, and SW_CQ_SELECT counts them (upstream
 * irdma_process_resize_list(), irdma_uk_cq_set_resized_cnt()).
 */
static void irdma_cq_retire(struct irdma_cq *cq, struct irdma_cq_ring *last)
{
	struct irdma_cq_ring *r, *tmp;
	u32 done = 0;
	u64 arm;

	list_for_each_entry_safe(r, tmp, &cq->old_rings, node) {
		if (r == last)
			break;
		list_move_tail(&r->node, &cq->retired);
		done++;
	}
	if (!done)
		return;
	cq->resizes += done;
	arm = irdma_get64(&cq->shadow, E810_CQ_DBSA_ARM_OFF);
	arm &= ~E810_CQ_DBSA_SW_CQ_SELECT;
	arm |= FIELD_PREP(E810_CQ_DBSA_SW_CQ_SELECT, cq->resizes);
	irdma_set64(&cq->shadow, E810_CQ_DBSA_ARM_OFF, arm);
	schedule_work(&cq->free_work);
}

/**
 * irdma_poll_cq() - kernel CQ: hardware CQEs, then software flushes
 * @ibcq: the CQ
 * @num: room in @wc
 * @wc: completions
 *
 * Rings a resize replaced come first, oldest first; each one is done with
 * once a newer ring had a CQE.
 *
 * Context: Any context.
 * Return: completions written.
 */
int irdma_poll_cq(struct ib_cq *ibcq, int num, struct ib_wc *wc)
{
	struct irdma_cq *cq = to_irdma_cq(ibcq);
	struct irdma_cq_ring *r, *last = NULL;
	unsigned long flags;
	bool seen;
	int n = 0;

	if (cq->user)
		return -EINVAL;
	spin_lock_irqsave(&cq->lock, flags);
	list_for_each_entry(r, &cq->old_rings, node) {
		seen = false;
		n += irdma_poll_ring(cq, r, num - n, wc + n, &seen);
		if (seen)
			last = r;
	}
	seen = false;
	n += irdma_poll_ring(cq, &cq->kring, num - n, wc + n, &seen);
	if (seen || last)
		irdma_cq_retire(cq, seen ? NULL : last);
	/* WQEs of QPs in error that the device did not complete. */
	while (n < num && irdma_flush_one(cq, &wc[n]))
		n++;
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}

static bool irdma_cq_flush_pending(struct irdma_cq *cq)
{
	struct irdma_cq_link *l;
	struct irdma_qp *qp;

	list_for_each_entry(l, &cq->qps, node) {
		qp = l->sq ? container_of(l, struct irdma_qp, slink) :
			     container_of(l, struct irdma_qp, rlink);
		if (l->sq ? qp->flush_sq &&
			    qp->ring.sq_tail != irdma_qp_sq_flush_end(qp) :
			    qp->flush_rq && qp->ring.rq_tail != qp->ring.rq_head)
			return true;
	}
	return false;
}

/**
 * irdma_req_notify_cq() - arm a kernel CQ (hw-reference 5.7)
 * @ibcq: the CQ
 * @flags: IB_CQ_SOLICITED or IB_CQ_NEXT_COMP, IB_CQ_REPORT_MISSED_EVENTS
 *
 * Context: Any context.
 * Return: 1 if completions are already waiting and the caller asked to
 * know, else 0.
 */
int irdma_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct irdma_cq *cq = to_irdma_cq(ibcq);
	unsigned long irqf;
	int ret = 0;
	u64 arm;

	if (cq->user)
		return -EINVAL;
	spin_lock_irqsave(&cq->lock, irqf);
	arm = irdma_get64(&cq->shadow, E810_CQ_DBSA_ARM_OFF);
	arm = (arm & E810_CQ_DBSA_SW_CQ_SELECT) |
	      FIELD_PREP(E810_CQ_DBSA_ARM_SEQ_NUM,
			 FIELD_GET(E810_CQ_DBSA_ARM_SEQ_NUM, arm) + 1) |
	      E810_CQ_DBSA_ARM_NEXT_SE;
	if ((flags & IB_CQ_SOLICITED_MASK) != IB_CQ_SOLICITED)
		arm |= E810_CQ_DBSA_ARM_NEXT;
	irdma_set64(&cq->shadow, E810_CQ_DBSA_ARM_OFF, arm);
	cq->armed = true;
	/* The shadow write must be visible before the doorbell. */
	wmb();
	irdma_wr32(cq->rf, IRDMA_REG(cq->rf, cqarm), FIELD_PREP(E810_CQARM_CQID, cq->cq_id));
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) &&
	    (irdma_cq_has_cqe(cq) || irdma_cq_flush_pending(cq)))
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, irqf);
	return ret;
}

/**
 * irdma_cq_kick() - signal software completions (flushes) to an armed CQ
 * @cq: a kernel CQ
 *
 * The device raises no CEQE for completions it did not write.
 *
 * Context: Any context; no CQ or QP lock held.
 */
void irdma_cq_kick(struct irdma_cq *cq)
{
	unsigned long flags;
	bool armed;

	spin_lock_irqsave(&cq->lock, flags);
	armed = cq->armed;
	cq->armed = false;
	spin_unlock_irqrestore(&cq->lock, flags);
	if (armed && cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
}

/**
 * irdma_cq_clean_qp() - drop the CQEs of a destroyed QP from a kernel CQ
 * @cq: the CQ
 * @qp_id: the QP, already destroyed in the device
 *
 * Its CQEs stay in the rings (old ones of a resize too) with a zero QP
 * context, which poll skips.
 *
 * Context: Any context.
 */
void irdma_cq_clean_qp(struct irdma_cq *cq, u32 qp_id)
{
	struct irdma_cq_ring *r;
	unsigned long flags;

	spin_lock_irqsave(&cq->lock, flags);
	list_for_each_entry(r, &cq->old_rings, node)
		e810u_cq_ring_forget_qp(&r->uk, qp_id);
	e810u_cq_ring_forget_qp(&cq->kring.uk, qp_id);
	spin_unlock_irqrestore(&cq->lock, flags);
}

/**
 * irdma_cq_ceq_event() - a CEQE named CQ @cq_id (from the CEQ handler)
 * @rf: per-function state
 * @cq_id: the CQ context of the CEQE
 *
 * Context: Softirq (the CEQ's tasklet).
 */
void irdma_cq_ceq_event(struct irdma_pci_f *rf, u32 cq_id)
{
	struct irdma_cq *cq;

	if (irdma_ilq_ceq_event(rf, cq_id))
		return;
	xa_lock(&rf->cqs);
	cq = xa_load(&rf->cqs, cq_id);
	if (cq) {
		if (!cq->user) {
			unsigned long flags;

			spin_lock_irqsave(&cq->lock, flags);
			cq->armed = false;
			spin_unlock_irqrestore(&cq->lock, flags);
		}
		if (cq->ibcq.comp_handler)
			cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
	}
	xa_unlock(&rf->cqs);
	if (!cq)
		dev_dbg_ratelimited(irdma_rf_to_dev(rf),
				    "CEQE for unknown CQ %u\n", cq_id);
	irdma_wr32(rf, IRDMA_REG(rf, cqack), FIELD_PREP(E810_CQACK_CQID, cq_id));
}

/**
 * irdma_cq_ae() - an AE about CQ @cq_id
 * @rf: per-function state
 * @cq_id: CQ id from the AEQE
 * @code: AE code
 *
 * Context: Softirq (the AEQ's tasklet).
 * Return: true if the CQ exists.
 */
bool irdma_cq_ae(struct irdma_pci_f *rf, u32 cq_id, u16 code)
{
	struct ib_event ev = { };
	struct irdma_cq *cq;

	xa_lock(&rf->cqs);
	cq = xa_load(&rf->cqs, cq_id);
	if (cq) {
		ibdev_err(cq->ibcq.device, "CQ %u: AE 0x%04x (%s)\n", cq_id,
			  code, irdma_ae_name(code));
		if (cq->ibcq.event_handler) {
			ev.device = cq->ibcq.device;
			ev.element.cq = &cq->ibcq;
			ev.event = IB_EVENT_CQ_ERR;
			cq->ibcq.event_handler(&ev, cq->ibcq.cq_context);
		}
	}
	xa_unlock(&rf->cqs);
	return !!cq;
}
