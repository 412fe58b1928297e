/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * irdma: verbs completion queues (docs/hw-reference.md 2.5 CQ ops, 5.6
 * CQEs, 5.7 arming).
 */
#ifndef IRDMA_CQ_H
#define IRDMA_CQ_H

#include <linux/bitfield.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/version.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

#include <hw/e810_cqp.h>

#include "main.h"
#include "ring.h"

struct irdma_qbuf;

/*
 * The ring geometry of the function's generation (include/hw's table,
 * through the ring layer): the provider sizes its rings from the same
 * entry.
 */
static inline const struct e810_wq_geom *irdma_geom(const struct irdma_pci_f *rf)
{
	return e810u_geom(rf->gen->hw.gen);
}

/*
 * CQEs a consumer may ask for: query_device's max_cqe, as upstream
 * reports it (max_hw_cq_size - 1, irdma_sc_dev_init()).
 */
static inline u32 irdma_max_cq_req(const struct irdma_pci_f *rf)
{
	return irdma_geom(rf)->max_cq_entries - 1;
}

/*
 * Ring entries CREATE_CQ takes: what its 21-bit CQSIZE field holds. A
 * ring has (cqe + 1) * 2 entries because a CQE may take two slots (both
 * providers size user rings so, irdma_ucreate_cq()), and for the largest
 * request that is 2097150: it fits.
 */
#define IRDMA_MAX_CQ_RING	FIELD_MAX(E810_CQPSQ_CQ_CQSIZE)

/**
 * struct irdma_cq_ring - a kernel CQ's ring as software reads it
 * @node: on irdma_cq.old_rings (or .retired) once a resize replaced it
 * @mem: the ring
 * @uk: the ring in the shared ring layer (lib/irdma-ring/): @mem's
 *	entries, the next CQE to read and the valid bit expected there
 */
struct irdma_cq_ring {
	struct list_head node;
	struct irdma_dma mem;
	struct e810u_cq_ring uk;
};

/**
 * struct irdma_cq - a verbs CQ
 * @ibcq: the ib_cq (first)
 * @rf: the function
 * @cq_id: CQ id; also the CQ context the device echoes in CEQEs and AEQEs
 * @size: ring entries the device knows
 * @ceq_id: CEQ its events go to (the completion vector)
 * @user: the ring is user memory (@qb); else @ring
 * @virt: the ring is described by a level-1 PBL at @pble
 * @ring_pa: ring DMA address when !@virt
 * @pble: first PBLE of the ring when @virt
 * @shadow_pa: DMA address of the 64-byte shadow area
 * @uctx: user context of a user CQ
 * @qb: user ring buffer
 * @qb_shadow: user shadow-area buffer
 * @kring: kernel: the ring the device writes
 * @shadow: kernel shadow area
 * @armed: kernel: an arm is outstanding (no CEQE seen since)
 * @resizes: kernel: completed resizes (SW_CQ_SELECT)
 * @resize_lock: ring geometry across a MODIFY_CQ
 * @lock: kernel: rings, @qps, arming
 * @qps: kernel QPs whose SQ or RQ completes here (struct irdma_cq_link)
 * @old_rings: kernel: rings replaced by a resize that may still hold
 *	CQEs, oldest first; polled before @kring
 * @retired: kernel: old rings done with, for @free_work
 * @free_work: frees @retired (poll may run where memory cannot be freed)
 */
struct irdma_cq {
	struct ib_cq ibcq;
	struct irdma_pci_f *rf;
	u32 cq_id;
	u32 size;
	u32 ceq_id;
	bool user;
	bool virt;
	u64 ring_pa;
	u32 pble;
	u64 shadow_pa;
	struct irdma_ucontext *uctx;
	struct irdma_qbuf *qb;
	struct irdma_qbuf *qb_shadow;
	struct irdma_cq_ring kring;
	struct irdma_dma shadow;
	bool armed;
	u32 resizes;
	struct mutex resize_lock;	/* ring geometry across a MODIFY_CQ */
	spinlock_t lock;	/* rings, qps, arming */
	struct list_head qps;
	struct list_head old_rings;
	struct list_head retired;
	struct work_struct free_work;
};

/* A kernel QP's SQ or RQ on a CQ's list. */
struct irdma_cq_link {
	struct list_head node;
	bool sq;
};

static inline struct irdma_cq *to_irdma_cq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct irdma_cq, ibcq);
}

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
int irdma_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		    struct uverbs_attr_bundle *attrs);
#else
int irdma_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		    struct ib_udata *udata);
#endif
int irdma_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
int irdma_resize_cq(struct ib_cq *ibcq, int entries, struct ib_udata *udata);
#ifdef IRDMA_HAVE_RESIZE_USER_CQ
int irdma_resize_cq_user_op(struct ib_cq *ibcq, unsigned int entries,
			    struct ib_udata *udata);
#endif
int irdma_poll_cq(struct ib_cq *ibcq, int num, struct ib_wc *wc);
int irdma_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);
void irdma_cq_kick(struct irdma_cq *cq);
void irdma_cq_clean_qp(struct irdma_cq *cq, u32 qp_id);

/* restrack_qp.c */
int irdma_fill_res_cq_entry(struct sk_buff *msg, struct ib_cq *ibcq);
int irdma_fill_res_cq_entry_raw(struct sk_buff *msg, struct ib_cq *ibcq);

#endif /* IRDMA_CQ_H */
