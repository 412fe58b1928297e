// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: memory regions (docs/hw-reference.md 2.5, 3.6, 6.4).
 *
 * A user MR pins its pages (ib_umem), takes the largest page size the
 * layout allows (4 KiB, 2 MiB, 1 GiB), describes the pages with no PBL (one
 * page, or physically contiguous), a level-1 or a level-2 PBL (pble.c), and
 * is registered under a new STag with REG_MR. The STag is the MR's HMC
 * index shifted left by 8, plus an 8-bit key. Fast-register MRs reserve
 * their STag and a level-1 list with ALLOC_STAG; map_mr_sg writes the list.
 *
 * The provider registers its QP and CQ rings as MRs too, with reg_type QP
 * or CQ: those get no STag and no CQP op; the pinned pages (and a level-1
 * list unless contiguous) wait on the ucontext's list until create_qp or
 * create_cq claims them (irdma_qbuf_claim()).
 */

#include <linux/bitfield.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <rdma/ib_umem.h>
#include <rdma/iter.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/ib_verbs.h>
#include <rdma/irdma-abi.h>
#include <rdma/uverbs_ioctl.h>

#include "main.h"
#include "mr.h"
#include "pble.h"
#include "quarantine.h"

#define IRDMA_MR_PGSZ_BITMAP	(SZ_4K | SZ_2M | SZ_1G)
#define IRDMA_MR_MAX_SIZE	0x200000000000ULL	/* hw-reference 2.7 */

/* Pins user memory: ib_umem_get_va() in newer kernels, ib_umem_get() before. */
static struct ib_umem *irdma_umem_get(struct ib_device *ibdev, u64 start,
				      u64 len, int access)
{
#ifdef IRDMA_HAVE_UMEM_GET_VA
	return ib_umem_get_va(ibdev, start, len, access);
#else
	return ib_umem_get(ibdev, start, len, access);
#endif
}

/*
 * Access flags an MR may carry. REMOTE_ATOMIC and ZERO_BASED are taken
 * and not written to the device, as upstream irdma_get_mr_access() does:
 * GEN_2 has no atomics (atomic_cap NONE), so the right grants nothing,
 * and an MR is addressed by its iova either way. Applications
 * ask for REMOTE_ATOMIC as a matter of course (qperf, UCX's memory domain,
 * libfabric's verbs provider for FI_REMOTE_WRITE). The optional range
 * (relaxed ordering, ...) and the hugetlb hint may be ignored by
 * definition. On-demand paging and flush are refused (ib_core's
 * ib_check_mr_access() already does for user MRs: the device has neither).
 */
#define IRDMA_MR_ACCESS_OK	(IB_ACCESS_LOCAL_WRITE |		\
				 IB_ACCESS_REMOTE_WRITE |		\
				 IB_ACCESS_REMOTE_READ |		\
				 IB_ACCESS_REMOTE_ATOMIC |		\
				 IB_ACCESS_MW_BIND |			\
				 IB_ZERO_BASED |			\
				 IB_ACCESS_HUGETLB |			\
				 IB_ACCESS_OPTIONAL)

static struct irdma_pci_f *irdma_ibdev_rf(struct ib_device *ibdev)
{
	return to_iwdev(ibdev)->rf;
}

/*
 * -EINVAL for combinations IB forbids, -EOPNOTSUPP for what E810 lacks
 * (the same answers as ib_check_mr_access()).
 */
static int irdma_mr_check_access(struct ib_device *ibdev, int access)
{
	if (access & ~IRDMA_MR_ACCESS_OK) {
		ibdev_dbg(ibdev, "MR: access 0x%x not supported\n", access);
		return -EOPNOTSUPP;
	}
	/* The responder writes local memory for a remote write or atomic. */
	if ((access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)) &&
	    !(access & IB_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	return 0;
}

/* ARIGHTS from IB access flags (hw-reference 2.5: remote implies local). */
static u64 irdma_mr_rights(int access)
{
	u64 r = E810_ACCESS_LOCAL_READ;

	if (access & IB_ACCESS_LOCAL_WRITE)
		r |= E810_ACCESS_LOCAL_WRITE;
	if (access & IB_ACCESS_REMOTE_READ)
		r |= E810_ACCESS_REMOTE_READ;
	if (access & IB_ACCESS_REMOTE_WRITE)
		r |= E810_ACCESS_REMOTE_WRITE | E810_ACCESS_LOCAL_WRITE;
	if (access & IB_ACCESS_MW_BIND)
		r |= E810_ACCESS_BIND_WINDOW;
	return r;
}

static u8 irdma_hpage_code(u32 page_shift)
{
	switch (page_shift) {
	case 30:
		return E810_HPAGE_1G;
	case 21:
		return E810_HPAGE_2M;
	default:
		return E810_HPAGE_4K;
	}
}

/* ---- STags ---------------------------------------------------------------- */

/**
 * irdma_stag_alloc() - a new STag for an MR or a window
 * @rf: per-function state
 * @stag: gets a free MR index (0 is reserved) and a random key
 *
 * Context: Any context that may sleep.
 * Return: 0 or -ENOMEM.
 */
int irdma_stag_alloc(struct irdma_pci_f *rf, u32 *stag)
{
	int idx = irdma_hmc_id_alloc(rf, E810_HMC_MR, 1);

	if (idx < 0)
		return idx == -ENOSPC ? -ENOMEM : idx;
	*stag = (u32)idx << 8 | get_random_u8();
	return 0;
}

/**
 * irdma_stag_free() - give back the index of irdma_stag_alloc()
 * @rf: per-function state
 * @stag: the STag
 *
 * Context: Any context.
 */
void irdma_stag_free(struct irdma_pci_f *rf, u32 stag)
{
	irdma_hmc_id_free(rf, E810_HMC_MR, stag >> 8);
}

/* The PBL fields of REG_MR / ALLOC_STAG: header bits and qwords 4 and 6. */
static u64 irdma_mr_pbl_fields(const struct irdma_mr *mr, u64 *q)
{
	if (mr->level == E810_LPBL_NONE)
		q[E810_QW(E810_CQPSQ_STAG_PA_OFF)] = mr->pa;
	else
		q[E810_QW(E810_CQPSQ_STAG_PBL_OFF)] =
			FIELD_PREP(E810_CQPSQ_STAG_FIRSTPMPBLIDX, mr->pble);
	return FIELD_PREP(E810_CQPSQ_STAG_LPBLSIZE, mr->level) |
	       FIELD_PREP(E810_CQPSQ_STAG_HPAGESIZE,
			  irdma_hpage_code(mr->page_shift));
}

/**
 * irdma_mr_reg_wqe() - the REG_MR WQE body and header bits of an MR
 * @rf: per-function state
 * @mr: the MR (a VA-based, non-shared MR under mr->stag, hw-reference 2.5)
 * @pd_id: its PD
 * @q: the 8 qwords, zeroed by the caller
 *
 * Also what `rdma resource show mr -r` dumps.
 *
 * Context: Any context.
 * Return: the header bits besides opcode and valid.
 */
u64 irdma_mr_reg_wqe(const struct irdma_pci_f *rf, const struct irdma_mr *mr,
		     u32 pd_id, u64 *q)
{
	u64 rights = irdma_mr_rights(mr->access);
	u64 hdr;

	q[E810_QW(E810_CQPSQ_STAG_VA_OFF)] = mr->iova;
	q[E810_QW(E810_CQPSQ_STAG_LEN_OFF)] =
		FIELD_PREP(E810_CQPSQ_STAG_STAGLEN, mr->len) |
		irdma_stag_pdid(rf, pd_id);
	q[E810_QW(E810_CQPSQ_STAG_IDX_OFF)] =
		FIELD_PREP(E810_CQPSQ_STAG_KEY, mr->stag & 0xff) |
		FIELD_PREP(E810_CQPSQ_STAG_IDX, mr->stag >> 8);
	hdr = E810_CQPSQ_STAG_MR | E810_CQPSQ_STAG_VABASEDTO |
	      FIELD_PREP(E810_CQPSQ_STAG_ARIGHTS, rights) |
	      irdma_mr_pbl_fields(mr, q);
	if (rights & (E810_ACCESS_REMOTE_READ | E810_ACCESS_REMOTE_WRITE))
		hdr |= E810_CQPSQ_STAG_REMACCENABLED;
	return hdr;
}

/* REG_MR. */
static int irdma_mr_reg(struct irdma_pci_f *rf, struct irdma_mr *mr, u32 pd_id)
{
	u64 q[8] = { };
	u64 hdr = irdma_mr_reg_wqe(rf, mr, pd_id, q);

	return irdma_cqp_exec(rf, E810_CQP_OP_REG_MR, hdr, q, NULL);
}

/* ALLOC_STAG for a fast-register MR: the STag and its level-1 list. */
static int irdma_mr_alloc_stag(struct irdma_pci_f *rf, struct irdma_mr *mr,
			       u32 pd_id)
{
	u64 q[8] = { };
	u64 hdr;

	q[E810_QW(E810_CQPSQ_STAG_LEN_OFF)] =
		FIELD_PREP(E810_CQPSQ_STAG_STAGLEN, mr->len) |
		irdma_stag_pdid(rf, pd_id);
	q[E810_QW(E810_CQPSQ_STAG_IDX_OFF)] =
		FIELD_PREP(E810_CQPSQ_STAG_IDX, mr->stag >> 8);
	hdr = E810_CQPSQ_STAG_MR |
	      FIELD_PREP(E810_CQPSQ_STAG_ARIGHTS, E810_ACCESS_LOCAL_READ) |
	      irdma_mr_pbl_fields(mr, q);
	return irdma_cqp_exec(rf, E810_CQP_OP_ALLOC_STAG, hdr, q, NULL);
}

/**
 * irdma_stag_dealloc() - DEALLOC_STAG of an MR or a window
 * @rf: per-function state
 * @stag: the STag
 * @pd_id: its PD
 * @is_mr: an MR (header MR bit), not a window
 *
 * Context: Process context, sleeps.
 * Return: what irdma_cqp_exec() returns.
 */
int irdma_stag_dealloc(struct irdma_pci_f *rf, u32 stag, u32 pd_id,
		       bool is_mr)
{
	u64 q[8] = { };

	q[E810_QW(E810_CQPSQ_STAG_LEN_OFF)] =
		irdma_stag_pdid(rf, pd_id);
	q[E810_QW(E810_CQPSQ_STAG_IDX_OFF)] =
		FIELD_PREP(E810_CQPSQ_STAG_IDX, stag >> 8);
	return irdma_cqp_exec(rf, E810_CQP_OP_DEALLOC_STAG,
			      is_mr ? E810_CQPSQ_STAG_MR : 0, q, NULL);
}

/* ---- page lists ------------------------------------------------------------ */

/*
 * True if the DMA blocks of @umem (of @pgsz) follow each other; *@first
 * gets the address of the first block either way.
 */
static bool irdma_umem_contig(struct ib_umem *umem, unsigned long pgsz,
			      u64 *first)
{
	struct ib_block_iter biter;
	u64 next = 0, pa;
	bool start = true;

	rdma_umem_for_each_dma_block(umem, &biter, pgsz) {
		pa = rdma_block_iter_dma_address(&biter);
		if (start) {
			*first = pa;
			start = false;
		} else if (pa != next) {
			return false;
		}
		next = pa + pgsz;
	}
	return true;
}

/*
 * Writes the page addresses of @umem into @a, a run of DMA-consecutive
 * pages at a time (irdma_pble_fill()).
 */
static void irdma_umem_to_pbl(struct irdma_pci_f *rf, struct ib_umem *umem,
			      unsigned long pgsz,
			      const struct irdma_pble_alloc *a)
{
	struct ib_block_iter biter;
	u32 k = 0, run = 0;
	u64 first = 0, pa;

	rdma_umem_for_each_dma_block(umem, &biter, pgsz) {
		pa = rdma_block_iter_dma_address(&biter);
		if (run && pa == first + (u64)run * pgsz) {
			run++;
			continue;
		}
		if (run)
			irdma_pble_fill(rf, a, k, first, pgsz, run);
		k += run;
		first = pa;
		run = 1;
	}
	if (run)
		irdma_pble_fill(rf, a, k, first, pgsz, run);
}

/*
 * Chooses no PBL, level 1 or level 2 for @npages pages of @umem and fills
 * mr->level, pa, pble and palloc.
 */
static int irdma_mr_build_pbl(struct irdma_pci_f *rf, struct irdma_mr *mr,
			      unsigned long pgsz, bool level1_only)
{
	int err;

	if (irdma_umem_contig(mr->umem, pgsz, &mr->pa)) {
		mr->level = E810_LPBL_NONE;
		return 0;
	}
	err = irdma_pble_get(rf, &mr->palloc, mr->npages, level1_only);
	if (err == -E2BIG)
		return -EINVAL;		/* longer than any list can be */
	if (err == -ENOSPC)
		return -ENOMEM;		/* the PBLE object is used up */
	if (err)
		return err;
	irdma_umem_to_pbl(rf, mr->umem, pgsz, &mr->palloc);
	mr->level = mr->palloc.level;
	mr->pble = mr->palloc.idx;
	return 0;
}

/* ---- queue buffers (reg_type QP / CQ) ------------------------------------ */

/**
 * irdma_qbuf_claim() - take the queue buffer registered at @va for a QP/CQ
 * @uctx: the user context that registered it
 * @va: the VA passed to reg_mr
 * @type: IRDMA_MEMREG_TYPE_QP or IRDMA_MEMREG_TYPE_CQ
 *
 * Context: Any context (takes @uctx->qbuf_lock).
 * Return: the buffer, now busy, or NULL if none is registered at @va with
 * @type or it is busy.
 */
struct irdma_qbuf *irdma_qbuf_claim(struct irdma_ucontext *uctx, u64 va,
				    u8 type)
{
	struct irdma_qbuf *qb, *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&uctx->qbuf_lock, flags);
	list_for_each_entry(qb, &uctx->qbufs, list) {
		if (qb->va == va && qb->type == type && !qb->busy) {
			qb->busy = true;
			found = qb;
			break;
		}
	}
	spin_unlock_irqrestore(&uctx->qbuf_lock, flags);
	return found;
}

/**
 * irdma_qbuf_release() - give back a buffer taken with irdma_qbuf_claim()
 * @uctx: the user context
 * @qb: the buffer; the device no longer uses its pages
 *
 * Context: Any context (takes @uctx->qbuf_lock).
 */
void irdma_qbuf_release(struct irdma_ucontext *uctx, struct irdma_qbuf *qb)
{
	unsigned long flags;

	spin_lock_irqsave(&uctx->qbuf_lock, flags);
	qb->busy = false;
	spin_unlock_irqrestore(&uctx->qbuf_lock, flags);
}

/* Checks the page counts the provider announced against what it pinned. */
static int irdma_qbuf_check(struct ib_device *ibdev,
			    const struct irdma_mem_reg_req *req, u32 npages)
{
	u32 need;

	if (req->reg_type == IRDMA_MEMREG_TYPE_QP) {
		/* SQ pages, RQ pages, then one page for the shadow area. */
		need = (u32)req->sq_pages + req->rq_pages + 1;
		if (!req->sq_pages)
			need = U32_MAX;
	} else {
		need = req->cq_pages ? req->cq_pages : U32_MAX;
	}
	if (npages < need) {
		ibdev_dbg(ibdev, "MR: queue buffer of %u pages, %s needs %u (sq %u rq %u cq %u)\n",
			  npages, req->reg_type == IRDMA_MEMREG_TYPE_QP ?
			  "QP" : "CQ", need, req->sq_pages, req->rq_pages,
			  req->cq_pages);
		return -EINVAL;
	}
	return 0;
}

/* reg_mr with reg_type QP/CQ: pin, describe, queue on the ucontext. */
static int irdma_qbuf_reg(struct irdma_mr *mr, struct ib_udata *udata,
			  const struct irdma_mem_reg_req *req)
{
	struct ib_device *ibdev = mr->ibmr.device;
	struct irdma_pci_f *rf = irdma_ibdev_rf(ibdev);
	struct irdma_ucontext *uctx;
	struct irdma_qbuf *qb;
	unsigned long flags;
	int err;

	uctx = rdma_udata_to_drv_context(udata, struct irdma_ucontext,
					 ibucontext);
	if ((mr->iova | (u64)ib_umem_offset(mr->umem)) & (IRDMA_QBUF_PAGE - 1))
		return -EINVAL;
	mr->page_shift = ilog2(IRDMA_QBUF_PAGE);
	mr->npages = ib_umem_num_dma_blocks(mr->umem, IRDMA_QBUF_PAGE);
	err = irdma_qbuf_check(ibdev, req, mr->npages);
	if (err)
		return err;
	qb = kzalloc(sizeof(*qb), GFP_KERNEL);
	if (!qb)
		return -ENOMEM;
	err = irdma_mr_build_pbl(rf, mr, IRDMA_QBUF_PAGE, true);
	if (err) {
		kfree(qb);
		return err;
	}
	qb->va = mr->iova;
	qb->type = req->reg_type;
	qb->sq_pages = req->sq_pages;
	qb->rq_pages = req->rq_pages;
	qb->cq_pages = req->cq_pages;
	qb->npages = mr->npages;
	qb->contig = mr->level == E810_LPBL_NONE;
	qb->pa = mr->pa;
	qb->pble = mr->pble;
	qb->umem = mr->umem;
	mr->qbuf = qb;
	spin_lock_irqsave(&uctx->qbuf_lock, flags);
	list_add_tail(&qb->list, &uctx->qbufs);
	spin_unlock_irqrestore(&uctx->qbuf_lock, flags);
	return 0;
}

/*
 * Takes the queue buffer of @mr off its ucontext's list. A buffer a QP or
 * CQ still holds is refused with -EBUSY rather than freed: its pages are
 * the live rings of that queue, and the device writes them until the queue
 * is destroyed. ib_uverbs then keeps the MR; on process exit it destroys
 * the (newer) QP/CQ first and retries the MR.
 */
static int irdma_qbuf_unlink(struct irdma_mr *mr, struct ib_udata *udata)
{
	struct irdma_ucontext *uctx;
	unsigned long flags;
	int err = 0;

	uctx = rdma_udata_to_drv_context(udata, struct irdma_ucontext,
					 ibucontext);
	spin_lock_irqsave(&uctx->qbuf_lock, flags);
	if (mr->qbuf->busy)
		err = -EBUSY;
	else
		list_del(&mr->qbuf->list);
	spin_unlock_irqrestore(&uctx->qbuf_lock, flags);
	if (!err) {
		kfree(mr->qbuf);
		mr->qbuf = NULL;
	}
	return err;
}

/*
 * Takes a free STag and has the device bind it to @mr: a registration for
 * a memory or DMA MR, an invalid STag awaiting FAST_REGISTER otherwise.
 * Sets both keys.
 */
static int irdma_mr_bind_stag(struct irdma_pci_f *rf, struct irdma_mr *mr,
			      u32 pd_id)
{
	int err;

	err = irdma_stag_alloc(rf, &mr->stag);
	if (err)
		return err;
	if (mr->is_fastreg)
		err = irdma_mr_alloc_stag(rf, mr, pd_id);
	else
		err = irdma_mr_reg(rf, mr, pd_id);
	if (err) {
		irdma_stag_free(rf, mr->stag);
		return err;
	}
	mr->ibmr.lkey = mr->stag;
	mr->ibmr.rkey = mr->stag;
	return 0;
}

/* ---- verbs ----------------------------------------------------------------- */

/* Page size, page count and PBL of the pinned pages of a user MR. */
static int irdma_umr_layout(struct irdma_pci_f *rf, struct irdma_mr *mr)
{
	unsigned long pgsz;

	pgsz = ib_umem_find_best_pgsz(mr->umem, IRDMA_MR_PGSZ_BITMAP, mr->iova);
	if (!pgsz)
		return -EOPNOTSUPP;
	mr->page_shift = __ffs(pgsz);
	mr->npages = ib_umem_num_dma_blocks(mr->umem, pgsz);
	return irdma_mr_build_pbl(rf, mr, pgsz, false);
}

/* Registers a user MR (reg_type MEM). */
static int irdma_umr_reg(struct irdma_mr *mr, struct irdma_pd *pd)
{
	struct ib_device *ibdev = mr->ibmr.device;
	struct irdma_pci_f *rf = irdma_ibdev_rf(ibdev);
	int err;

	err = irdma_umr_layout(rf, mr);
	if (err)
		return err;
	err = irdma_mr_bind_stag(rf, mr, pd->pd_id);
	if (err)
		goto err_pbl;
	ibdev_dbg(ibdev, "MR: stag 0x%08x len %llu pages %u of %lu level %u pble %u\n",
		  mr->stag, mr->len, mr->npages, 1UL << mr->page_shift,
		  mr->level, mr->pble);
	return 0;

err_pbl:
	irdma_pble_put(rf, &mr->palloc);
	return err;
}

static struct ib_mr *irdma_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 len,
				       u64 virt, int access,
				       struct ib_udata *udata)
{
	struct ib_device *ibdev = ibpd->device;
	struct irdma_mem_reg_req req = { };
	struct irdma_mr *mr;
	int err;

	if (!udata || udata->inlen < sizeof(req))
		return ERR_PTR(-EINVAL);
	if (ib_copy_from_udata(&req, udata, sizeof(req)))
		return ERR_PTR(-EFAULT);
	if (req.reg_type != IRDMA_MEMREG_TYPE_MEM &&
	    req.reg_type != IRDMA_MEMREG_TYPE_QP &&
	    req.reg_type != IRDMA_MEMREG_TYPE_CQ)
		return ERR_PTR(-EINVAL);
	if (!len || len > IRDMA_MR_MAX_SIZE)
		return ERR_PTR(-EINVAL);
	/*
	 * The device writes a CQ ring, and the provider the QP rings and
	 * shadow areas the device reads: without LOCAL_WRITE ib_umem_get()
	 * pins the pages read-only, which may be the shared zero page or
	 * the page cache of a file the user cannot write.
	 */
	if (req.reg_type != IRDMA_MEMREG_TYPE_MEM &&
	    !(access & IB_ACCESS_LOCAL_WRITE)) {
		ibdev_dbg(ibdev, "MR: queue buffer without LOCAL_WRITE\n");
		return ERR_PTR(-EINVAL);
	}
	err = irdma_mr_check_access(ibdev, access);
	if (err)
		return ERR_PTR(err);

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->ibmr.device = ibdev;
	mr->iova = virt;
	mr->len = len;
	mr->access = access;
	mr->umem = irdma_umem_get(ibdev, start, len, access);
	if (IS_ERR(mr->umem)) {
		err = PTR_ERR(mr->umem);
		ibdev_dbg(ibdev, "MR: pinning 0x%llx+%llu: %d\n", start, len,
			  err);
		goto err_free;
	}
	if (req.reg_type == IRDMA_MEMREG_TYPE_MEM)
		err = irdma_umr_reg(mr, to_irdma_pd(ibpd));
	else
		err = irdma_qbuf_reg(mr, udata, &req);
	if (err)
		goto err_release;
	return &mr->ibmr;

err_release:
	ib_umem_release(mr->umem);
err_free:
	kfree(mr);
	return ERR_PTR(err);
}

/* What a translation change replaces; kept to undo a failed rereg. */
struct irdma_mr_trans {
	struct ib_umem *umem;
	struct irdma_pble_alloc palloc;
	u64 iova, len, pa;
	u32 pble, npages, page_shift;
	u8 level;
};

static void irdma_mr_trans_save(const struct irdma_mr *mr,
				struct irdma_mr_trans *t)
{
	t->umem = mr->umem;
	t->palloc = mr->palloc;
	t->iova = mr->iova;
	t->len = mr->len;
	t->pa = mr->pa;
	t->pble = mr->pble;
	t->npages = mr->npages;
	t->page_shift = mr->page_shift;
	t->level = mr->level;
}

static void irdma_mr_trans_load(struct irdma_mr *mr,
				const struct irdma_mr_trans *t)
{
	mr->umem = t->umem;
	mr->palloc = t->palloc;
	mr->iova = t->iova;
	mr->len = t->len;
	mr->pa = t->pa;
	mr->pble = t->pble;
	mr->npages = t->npages;
	mr->page_shift = t->page_shift;
	mr->level = t->level;
}

/*
 * rereg_mr: new access rights, PD and/or pages under the same STag. The new
 * pages are pinned and described first; then DEALLOC_STAG and REG_MR. If
 * REG_MR fails the old registration is put back, so the MR stays usable.
 */
static struct ib_mr *irdma_rereg_user_mr(struct ib_mr *ibmr, int flags,
					 u64 start, u64 len, u64 virt,
					 int access, struct ib_pd *new_pd,
					 struct ib_udata *udata)
{
	struct ib_device *ibdev = ibmr->device;
	struct irdma_pci_f *rf = irdma_ibdev_rf(ibdev);
	struct irdma_mr *mr = to_irdma_mr(ibmr);
	u32 old_pd = to_irdma_pd(ibmr->pd)->pd_id, pd_id = old_pd;
	int old_access = mr->access;
	struct irdma_mr_trans old;
	int err;

	if (mr->qbuf || !mr->umem)
		return ERR_PTR(-EINVAL);
	if (flags & ~(IB_MR_REREG_TRANS | IB_MR_REREG_PD | IB_MR_REREG_ACCESS))
		return ERR_PTR(-EOPNOTSUPP);
	if (flags & IB_MR_REREG_ACCESS) {
		err = irdma_mr_check_access(ibdev, access);
		if (err)
			return ERR_PTR(err);
		/*
		 * Pages pinned read-only (the zero page, a file the user may
		 * not write) stay so: write rights need new pinning, as
		 * ib_umem_check_rereg() says (not in every kernel we build
		 * for, hence written out).
		 */
		if (!(flags & IB_MR_REREG_TRANS) && ib_access_writable(access) &&
		    !mr->umem->writable)
			return ERR_PTR(-EACCES);
		mr->access = access;
	}
	if (flags & IB_MR_REREG_PD)
		pd_id = to_irdma_pd(new_pd)->pd_id;

	irdma_mr_trans_save(mr, &old);
	if (flags & IB_MR_REREG_TRANS) {
		err = -EINVAL;
		if (!len || len > IRDMA_MR_MAX_SIZE)
			goto err_access;
		mr->umem = irdma_umem_get(ibdev, start, len, mr->access);
		if (IS_ERR(mr->umem)) {
			err = PTR_ERR(mr->umem);
			goto err_access;
		}
		mr->iova = virt;
		mr->len = len;
		memset(&mr->palloc, 0, sizeof(mr->palloc));
		err = irdma_umr_layout(rf, mr);
		if (err)
			goto err_umem;
	}

	err = irdma_stag_dealloc(rf, mr->stag, old_pd, true);
	if (err)
		goto err_pbl;
	err = irdma_mr_reg(rf, mr, pd_id);
	if (err) {
		ibdev_dbg(ibdev, "MR: rereg of 0x%08x: %d\n", mr->stag, err);
		goto err_restore;
	}
	if (flags & IB_MR_REREG_TRANS) {
		irdma_pble_put(rf, &old.palloc);
		ib_umem_release(old.umem);
	}
	return NULL;

err_restore:
	if (flags & IB_MR_REREG_TRANS) {
		irdma_pble_put(rf, &mr->palloc);
		ib_umem_release(mr->umem);
		irdma_mr_trans_load(mr, &old);
	}
	mr->access = old_access;
	if (irdma_mr_reg(rf, mr, old_pd))
		ibdev_warn_ratelimited(ibdev,
				       "MR: 0x%08x lost its registration\n",
				       mr->stag);
	return ERR_PTR(err);
err_pbl:
	if (flags & IB_MR_REREG_TRANS)
		irdma_pble_put(rf, &mr->palloc);
err_umem:
	if (flags & IB_MR_REREG_TRANS)
		ib_umem_release(mr->umem);
	irdma_mr_trans_load(mr, &old);
err_access:
	mr->access = old_access;
	return ERR_PTR(err);
}

/*
 * A DMA MR: VA-based with VA 0 and page address 0 over the whole MR size,
 * so that its addresses are bus addresses.
 */
static struct ib_mr *irdma_get_dma_mr(struct ib_pd *ibpd, int access)
{
	struct irdma_pci_f *rf = irdma_ibdev_rf(ibpd->device);
	struct irdma_mr *mr;
	int err;

	/*
	 * Only unsupported bits are refused: ib_core itself asks for remote
	 * read and write without local write (IB_PD_UNSAFE_GLOBAL_RKEY); the
	 * rights written to the device include local write then.
	 */
	if (access & ~IRDMA_MR_ACCESS_OK)
		return ERR_PTR(-EOPNOTSUPP);
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->is_dma = true;
	mr->access = access;
	mr->len = IRDMA_MR_MAX_SIZE;
	mr->page_shift = PAGE_SHIFT;
	mr->level = E810_LPBL_NONE;
	err = irdma_mr_bind_stag(rf, mr, to_irdma_pd(ibpd)->pd_id);
	if (err) {
		kfree(mr);
		return ERR_PTR(err);
	}
	return &mr->ibmr;
}

/*
 * A fast-register MR: STag and a list of @max_num_sg PBLEs, level 1 when
 * one run is free, else level 2 (upstream irdma_alloc_mr() asks
 * irdma_get_pble() for either too).
 */
static struct ib_mr *irdma_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type type,
				    u32 max_num_sg)
{
	struct irdma_pci_f *rf = irdma_ibdev_rf(ibpd->device);
	struct irdma_mr *mr;
	int err;

	if (type != IB_MR_TYPE_MEM_REG)
		return ERR_PTR(-EOPNOTSUPP);
	if (!max_num_sg || max_num_sg > IRDMA_MAX_FR_PAGES)
		return ERR_PTR(-EINVAL);
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->is_fastreg = true;
	mr->max_pages = max_num_sg;
	mr->page_shift = PAGE_SHIFT;
	mr->len = (u64)max_num_sg * PAGE_SIZE;
	err = irdma_pble_get(rf, &mr->palloc, max_num_sg, false);
	if (err) {
		/* The PBLE object is used up: irdma_get_pble()'s -ENOMEM. */
		if (err == -ENOSPC)
			err = -ENOMEM;
		goto err_free;
	}
	mr->level = mr->palloc.level;
	mr->pble = mr->palloc.idx;
	/*
	 * FAST_REGISTER names the host page holding the list, or its root
	 * (hw-reference 5.3).
	 */
	mr->pa = irdma_pble_dma(rf, mr->pble);
	err = irdma_mr_bind_stag(rf, mr, to_irdma_pd(ibpd)->pd_id);
	if (err)
		goto err_pbl;
	return &mr->ibmr;

err_pbl:
	irdma_pble_put(rf, &mr->palloc);
err_free:
	kfree(mr);
	return ERR_PTR(err);
}

/* ib_sg_to_pages() callback: page @addr goes into the next PBLE. */
static int irdma_mr_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct irdma_mr *mr = to_irdma_mr(ibmr);

	if (mr->npages >= mr->max_pages)
		return -ENOMEM;
	irdma_pble_set(irdma_ibdev_rf(ibmr->device), &mr->palloc,
		       mr->npages++, addr);
	return 0;
}

static int irdma_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg,
			   int sg_nents, unsigned int *sg_offset)
{
	struct irdma_mr *mr = to_irdma_mr(ibmr);
	int n;

	mr->npages = 0;
	n = ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, irdma_mr_set_page);
	mr->iova = ibmr->iova;
	mr->len = ibmr->length;
	mr->page_shift = ilog2(ibmr->page_size);
	return n;
}

static int irdma_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct irdma_pci_f *rf = irdma_ibdev_rf(ibmr->device);
	struct irdma_mr *mr = to_irdma_mr(ibmr);
	bool qbuf = mr->qbuf != NULL;	/* unlinking clears it */
	int err;

	if (qbuf) {
		err = irdma_qbuf_unlink(mr, udata);
		if (err)
			return err;
	} else {
		/*
		 * A STag the device refused to deallocate is one it does not
		 * know. One whose DEALLOC_STAG could not run (the CQP hung, a
		 * reset is under way) still maps the memory until the
		 * function reset.
		 */
		err = irdma_stag_dealloc(rf, mr->stag,
					 to_irdma_pd(ibmr->pd)->pd_id, true);
		if (err)
			ibdev_warn_ratelimited(ibmr->device,
					       "MR: DEALLOC_STAG 0x%08x: %d\n",
					       mr->stag, err);
	}
	/*
	 * The STag index and the PBLEs are not reused while the engine may
	 * still translate through them: a new MR would inherit the old STag's
	 * access. They go with the HMC at the next bind.
	 */
	if (!irdma_engine_may_reach(rf)) {
		if (!qbuf)
			irdma_stag_free(rf, mr->stag);
		irdma_pble_put(rf, &mr->palloc);
	}
	if (mr->umem)
		irdma_umem_retire(rf, mr->umem);
	kfree(mr);
	return 0;
}

/**
 * irdma_kernel_dma_mr() - a DMA MR of the driver's own on @pd
 * @pd: the PD (a QP's, user or kernel)
 *
 * For the MPA Reply the LSMM WQE of an iWARP QP sends (upstream
 * irdma_accept() registers a physical MR on the QP's PD for it).
 *
 * Context: Process context, sleeps.
 * Return: the MR (its lkey names bus addresses) or an ERR_PTR.
 */
struct ib_mr *irdma_kernel_dma_mr(struct ib_pd *pd)
{
	struct ib_mr *mr = irdma_get_dma_mr(pd, IB_ACCESS_LOCAL_WRITE);

	if (IS_ERR(mr))
		return mr;
	mr->device = pd->device;
	mr->pd = pd;
	mr->type = IB_MR_TYPE_DMA;
	return mr;
}

/**
 * irdma_kernel_dma_mr_put() - deregister an MR of irdma_kernel_dma_mr()
 * @mr: the MR
 *
 * Context: Process context, sleeps.
 */
void irdma_kernel_dma_mr_put(struct ib_mr *mr)
{
	irdma_dereg_mr(mr, NULL);
}

#ifdef IRDMA_HAVE_DMAH
/* reg_user_mr() of kernels with DMA handles: the E810 takes none. */
static struct ib_mr *irdma_reg_user_mr_dmah(struct ib_pd *ibpd, u64 start,
					    u64 len, u64 virt, int access,
					    struct ib_dmah *dmah,
					    struct ib_udata *udata)
{
	if (dmah)
		return ERR_PTR(-EOPNOTSUPP);
	return irdma_reg_user_mr(ibpd, start, len, virt, access, udata);
}
#endif

/*
 * A user MR over a dma-buf (ibv_reg_dmabuf_mr()): the exporter's pages,
 * pinned for the MR's life, registered like pinned user memory
 * (upstream irdma_reg_user_mr_dmabuf()).
 */
static struct ib_mr *irdma_reg_dmabuf_mr(struct ib_pd *ibpd, u64 offset,
					 u64 len, u64 virt, int fd, int access)
{
	struct ib_device *ibdev = ibpd->device;
	struct ib_umem_dmabuf *umem_dmabuf;
	struct irdma_mr *mr;
	int err;

	if (!len || len > IRDMA_MR_MAX_SIZE)
		return ERR_PTR(-EINVAL);
	err = irdma_mr_check_access(ibdev, access);
	if (err)
		return ERR_PTR(err);
	umem_dmabuf = ib_umem_dmabuf_get_pinned(ibdev, offset, len, fd, access);
	if (IS_ERR(umem_dmabuf)) {
		ibdev_dbg(ibdev, "MR: dma-buf %d +0x%llx len %llu: %ld\n", fd,
			  offset, len, PTR_ERR(umem_dmabuf));
		return ERR_CAST(umem_dmabuf);
	}
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr) {
		err = -ENOMEM;
		goto err_release;
	}
	mr->ibmr.device = ibdev;
	mr->iova = virt;
	mr->len = len;
	mr->access = access;
	mr->umem = &umem_dmabuf->umem;
	err = irdma_umr_reg(mr, to_irdma_pd(ibpd));
	if (err)
		goto err_free;
	return &mr->ibmr;

err_free:
	kfree(mr);
err_release:
	ib_umem_release(&umem_dmabuf->umem);
	return ERR_PTR(err);
}

/* The prototype of reg_user_mr_dmabuf() changed twice after 6.1 (Kbuild). */
#if defined(IRDMA_HAVE_DMAH)
static struct ib_mr *irdma_reg_user_mr_dmabuf(struct ib_pd *ibpd, u64 offset,
					      u64 len, u64 virt, int fd,
					      int access, struct ib_dmah *dmah,
					      struct uverbs_attr_bundle *attrs)
{
	if (dmah)
		return ERR_PTR(-EOPNOTSUPP);
	return irdma_reg_dmabuf_mr(ibpd, offset, len, virt, fd, access);
}
#elif defined(IRDMA_DMABUF_ATTRS)
static struct ib_mr *irdma_reg_user_mr_dmabuf(struct ib_pd *ibpd, u64 offset,
					      u64 len, u64 virt, int fd,
					      int access,
					      struct uverbs_attr_bundle *attrs)
{
	return irdma_reg_dmabuf_mr(ibpd, offset, len, virt, fd, access);
}
#else
static struct ib_mr *irdma_reg_user_mr_dmabuf(struct ib_pd *ibpd, u64 offset,
					      u64 len, u64 virt, int fd,
					      int access, struct ib_udata *udata)
{
	return irdma_reg_dmabuf_mr(ibpd, offset, len, virt, fd, access);
}
#endif

/* Memory registration (mr.c); installed by verbs.c. */
const struct ib_device_ops irdma_mem_ops = {
#ifdef IRDMA_HAVE_DMAH
	.reg_user_mr = irdma_reg_user_mr_dmah,
#else
	.reg_user_mr = irdma_reg_user_mr,
#endif
	.reg_user_mr_dmabuf = irdma_reg_user_mr_dmabuf,
	.rereg_user_mr = irdma_rereg_user_mr,
	.get_dma_mr = irdma_get_dma_mr,
	.alloc_mr = irdma_alloc_mr,
	.map_mr_sg = irdma_map_mr_sg,
	.dereg_mr = irdma_dereg_mr,
	.fill_res_mr_entry = irdma_fill_res_mr_entry,
	.fill_res_mr_entry_raw = irdma_fill_res_mr_entry_raw,
};

/* Address handles and multicast: RoCEv2 only (no AH on iWARP). */
const struct ib_device_ops irdma_roce_ops = {
	.create_ah = irdma_create_ah,
	.create_user_ah = irdma_create_ah,
	.destroy_ah = irdma_destroy_ah,
	.query_ah = irdma_query_ah,
	.attach_mcast = irdma_attach_mcast,
	.detach_mcast = irdma_detach_mcast,

	INIT_RDMA_OBJ_SIZE(ib_ah, irdma_ah, ibah),
};
