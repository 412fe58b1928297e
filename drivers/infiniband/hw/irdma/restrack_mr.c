// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: `rdma resource show mr -dd` (driver attributes) and `-r` (raw).
 *
 * The driver attributes say how the device sees the MR: STag, PBL level,
 * page size and count, the first PBLE (level 1: the list; level 2: the
 * root) and, for level 2, the leaf lists. The STag is a key: like ib_core's
 * lkey/rkey (fill_res_mr_entry() in nldev.c) only a CAP_NET_ADMIN caller
 * sees it. Physical addresses are never shown (the raw dump, which has
 * them, needs CAP_NET_ADMIN in ib_core already). Queue-buffer registrations
 * (reg_type QP/CQ) show as kind qp-ring/cq-ring and whether a queue holds
 * them. The raw dump is the REG_MR WQE body the MR was registered with
 * (8 little-endian qwords, qword 3 the header bits without opcode/valid).
 */

#include <linux/capability.h>
#include <net/netlink.h>
#include <rdma/ib_verbs.h>
#include <rdma/irdma-abi.h>
#include <rdma/restrack.h>
#include <uapi/rdma/rdma_netlink.h>

#include "main.h"
#include "mr.h"

static const char *irdma_mr_kind(const struct irdma_mr *mr)
{
	if (mr->qbuf)
		return mr->qbuf->type == IRDMA_MEMREG_TYPE_QP ? "qp-ring" :
								"cq-ring";
	if (mr->is_dma)
		return "dma";
	if (mr->is_fastreg)
		return "fast-reg";
	return "user";
}

static int irdma_mr_put_attrs(struct sk_buff *msg, const struct irdma_mr *mr)
{
	if (rdma_nl_put_driver_string(msg, "kind", irdma_mr_kind(mr)))
		return -EMSGSIZE;
	if (capable(CAP_NET_ADMIN) &&
	    rdma_nl_put_driver_u32_hex(msg, "stag", mr->stag))
		return -EMSGSIZE;
	if (rdma_nl_put_driver_u32(msg, "pbl_level",
				   mr->level == E810_LPBL_LEVEL2 ? 2 :
				   mr->level == E810_LPBL_LEVEL1 ? 1 : 0) ||
	    rdma_nl_put_driver_u32(msg, "page_size", 1U << mr->page_shift) ||
	    rdma_nl_put_driver_u32(msg, "pages", mr->npages))
		return -EMSGSIZE;
	if (mr->level != E810_LPBL_NONE &&
	    rdma_nl_put_driver_u32(msg, "first_pble", mr->pble))
		return -EMSGSIZE;
	if (mr->level == E810_LPBL_LEVEL2 &&
	    rdma_nl_put_driver_u32(msg, "pbl_leaves", mr->palloc.nleaves))
		return -EMSGSIZE;
	if (mr->is_fastreg &&
	    rdma_nl_put_driver_u32(msg, "max_pages", mr->max_pages))
		return -EMSGSIZE;
	if (mr->qbuf &&
	    rdma_nl_put_driver_string(msg, "in_use",
				      READ_ONCE(mr->qbuf->busy) ? "yes" : "no"))
		return -EMSGSIZE;
	return 0;
}

/**
 * irdma_fill_res_mr_entry() - driver attributes of an MR for rdma tool
 * @msg: the netlink message
 * @ibmr: the MR
 *
 * Context: Process context (restrack holds a reference on the MR).
 * Return: 0 or -EMSGSIZE.
 */
int irdma_fill_res_mr_entry(struct sk_buff *msg, struct ib_mr *ibmr)
{
	struct nlattr *nest;

	nest = nla_nest_start_noflag(msg, RDMA_NLDEV_ATTR_DRIVER);
	if (!nest)
		return -EMSGSIZE;
	if (irdma_mr_put_attrs(msg, to_irdma_mr(ibmr))) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

/**
 * irdma_fill_res_mr_entry_raw() - the MR's REG_MR WQE body, raw
 * @msg: the netlink message
 * @ibmr: the MR
 *
 * Context: Process context.
 * Return: 0 or -EMSGSIZE.
 */
int irdma_fill_res_mr_entry_raw(struct sk_buff *msg, struct ib_mr *ibmr)
{
	struct irdma_mr *mr = to_irdma_mr(ibmr);
	struct irdma_pd *pd = ibmr->pd ? to_irdma_pd(ibmr->pd) : NULL;
	__le64 raw[8];
	u64 q[8] = { };
	unsigned int i;

	q[E810_QW(E810_CQPSQ_HDR_OFF)] =
		irdma_mr_reg_wqe(to_iwdev(ibmr->device)->rf, mr,
				 pd ? pd->pd_id : 0, q);
	for (i = 0; i < ARRAY_SIZE(raw); i++)
		raw[i] = cpu_to_le64(q[i]);
	return nla_put(msg, RDMA_NLDEV_ATTR_RES_RAW, sizeof(raw), raw);
}
