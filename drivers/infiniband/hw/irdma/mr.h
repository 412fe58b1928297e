/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * irdma: memory regions, the user queue buffers the provider registers
 * with reg_type QP/CQ (docs/hw-reference.md 6.4), and address handles.
 */
#ifndef IRDMA_MR_H
#define IRDMA_MR_H

#include <linux/list.h>
#include <linux/sizes.h>
#include <linux/types.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>

#include <hw/e810_hmc.h>

#include "pble.h"

/*
 * Queue buffers are pinned and described in 4 KiB pages whatever the
 * kernel's PAGE_SIZE: the device's rings and PBLEs use 4 KiB pages.
 */
#define IRDMA_QBUF_PAGE		SZ_4K

/*
 * Longest fast-register page list (upstream's IRDMA_MAX_PAGES_PER_FMR):
 * above IRDMA_PBLE_CHUNK pages the list is a level-2 PBL, which the
 * FAST_REGISTER WQE takes like REG_MR does.
 */
#define IRDMA_MAX_FR_PAGES	262144

struct irdma_ucontext;
struct irdma_device;
struct irdma_pci_f;

/**
 * struct irdma_qbuf - a user queue buffer registered with reg_type QP or CQ
 * @list: entry in the ucontext's qbuf list
 * @va: user VA the provider registered (and later names in create_qp/cq)
 * @type: IRDMA_MEMREG_TYPE_QP or IRDMA_MEMREG_TYPE_CQ
 * @sq_pages: SQ pages the provider announced (QP)
 * @rq_pages: RQ pages the provider announced (QP)
 * @cq_pages: CQ pages the provider announced (CQ)
 * @npages: 4 KiB pages pinned
 * @contig: the pages are physically contiguous: use @pa, no PBL
 * @pa: DMA address of page 0
 * @pble: first level-1 PBLE of a list covering all @npages pages (page k
 *	at @pble + k), valid when !@contig
 * @busy: claimed by a QP or CQ (the device may be using the pages)
 * @umem: the pinned pages (owned by the registering MR)
 *
 * Lives until the MR that registered it is deregistered; the MR owns the
 * pinned pages and the PBLEs, and its dereg is refused while @busy.
 */
struct irdma_qbuf {
	struct list_head list;
	u64 va;
	u8 type;
	u32 sq_pages, rq_pages, cq_pages;
	u32 npages;
	bool contig;
	u64 pa;
	u32 pble;
	bool busy;
	struct ib_umem *umem;
};

/**
 * irdma_qbuf_claim() - take the queue buffer registered at @va for a QP/CQ
 * @uctx: the user context that registered it
 * @va: the VA passed to reg_mr (user_wqe_bufs, user_cq_buf, ...)
 * @type: IRDMA_MEMREG_TYPE_QP or IRDMA_MEMREG_TYPE_CQ
 *
 * Context: Any context (takes the ucontext's qbuf spinlock).
 * Return: the buffer, now marked busy, or NULL when none is registered at
 * @va with @type or it is already busy.
 */
struct irdma_qbuf *irdma_qbuf_claim(struct irdma_ucontext *uctx, u64 va,
				    u8 type);

/**
 * irdma_qbuf_release() - give back a buffer taken with irdma_qbuf_claim()
 * @uctx: the user context
 * @qb: the buffer; the device must no longer use its pages
 *
 * Context: Any context (takes the ucontext's qbuf spinlock).
 */
void irdma_qbuf_release(struct irdma_ucontext *uctx, struct irdma_qbuf *qb);

/**
 * struct irdma_mr - a memory region (or a QP/CQ queue-buffer registration)
 * @ibmr: the ib_mr (first)
 * @stag: STag = index << 8 | key (0 for queue buffers)
 * @level: E810_LPBL_NONE, E810_LPBL_LEVEL1 or E810_LPBL_LEVEL2
 * @pble: first PBLE (level 1: the list; level 2: the root)
 * @pa: page 0 DMA address when @level is E810_LPBL_NONE; fast-reg MRs:
 *	DMA address of the first PBLE or root (its page goes in the FAST_REGISTER
 *	WQE)
 * @npages: pages of @page_shift size the MR covers
 * @page_shift: 12, 21 or 30
 * @iova: the I/O virtual address of byte 0
 * @len: length in bytes
 * @access: IB access flags
 * @umem: pinned user memory (NULL for DMA and fast-reg MRs)
 * @qbuf: queue buffer registration (no STag), or NULL
 * @palloc: the PBLEs (level 1: @pble = first entry; level 2: root)
 * @max_pages: fast-reg MRs: pages the list can hold (map_mr_sg fills
 *	@npages of them)
 * @is_dma: get_dma_mr
 * @is_fastreg: alloc_mr
 */
struct irdma_mr {
	struct ib_mr ibmr;
	u32 stag;
	u8 level;
	u32 pble;
	u64 pa;
	u32 npages;
	u32 page_shift;
	u64 iova;
	u64 len;
	int access;
	struct ib_umem *umem;
	struct irdma_qbuf *qbuf;
	struct irdma_pble_alloc palloc;
	u32 max_pages;
	bool is_dma;
	bool is_fastreg;
};

static inline struct irdma_mr *to_irdma_mr(struct ib_mr *ibmr)
{
	return container_of(ibmr, struct irdma_mr, ibmr);
}

/**
 * struct irdma_ah - an address handle (FSIAV object)
 * @ibah: the ib_ah (first)
 * @ah_id: AH index in the device (AVIDX; returned to user space)
 * @arp_idx: ARP table entry the AH holds a reference on (or -1)
 * @pd_id: PD it was created on
 * @attr: the attributes it was created with (no sgid_attr), for query_ah
 */
struct irdma_ah {
	struct ib_ah ibah;
	u32 ah_id;
	int arp_idx;
	u32 pd_id;
	struct rdma_ah_attr attr;
};

static inline struct irdma_ah *to_irdma_ah(struct ib_ah *ibah)
{
	return container_of(ibah, struct irdma_ah, ibah);
}

/* mr.c: every verb of mr.c, ah.c, mcast.c and restrack_mr.c */
extern const struct ib_device_ops irdma_mem_ops;
extern const struct ib_device_ops irdma_roce_ops;
extern const struct ib_device_ops irdma_mw_ops;

struct ib_mr *irdma_kernel_dma_mr(struct ib_pd *pd);
void irdma_kernel_dma_mr_put(struct ib_mr *mr);
int irdma_stag_alloc(struct irdma_pci_f *rf, u32 *stag);
void irdma_stag_free(struct irdma_pci_f *rf, u32 stag);
int irdma_stag_dealloc(struct irdma_pci_f *rf, u32 stag, u32 pd_id,
		       bool is_mr);
int irdma_qbuf_page(struct irdma_qbuf *qb, u32 idx, u64 *pa);
u64 irdma_mr_reg_wqe(const struct irdma_pci_f *rf, const struct irdma_mr *mr,
		     u32 pd_id, u64 *q);

/* ah.c */
int irdma_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *attr,
		    struct ib_udata *udata);
int irdma_destroy_ah(struct ib_ah *ibah, u32 flags);
int irdma_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr);

/* mcast.c */
void irdma_mcast_fini(struct irdma_pci_f *rf);
int irdma_attach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid);
int irdma_detach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid);

/* restrack_mr.c */
int irdma_fill_res_mr_entry(struct sk_buff *msg, struct ib_mr *ibmr);
int irdma_fill_res_mr_entry_raw(struct sk_buff *msg, struct ib_mr *ibmr);

#endif /* IRDMA_MR_H */
