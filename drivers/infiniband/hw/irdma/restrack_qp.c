// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: driver attributes of QPs and CQs for `rdma resource show -dd`.
 *
 * QP: device state, HMC object index (the QP id), SQ/RQ geometry and, for
 * kernel QPs, the software ring positions; raw: the host context as last
 * given to the device. CQ: size, CEQ, ring placement and, for kernel CQs,
 * head and polarity; raw: the CQ's shadow area (kernel CQs). Rings on a
 * page list show their first PBLE; physical addresses are never shown to
 * anyone (ib_core gives the raw dumps to CAP_NET_ADMIN only).
 */

#include <net/netlink.h>
#include <rdma/rdma_netlink.h>
#include <rdma/restrack.h>

#include <hw/e810_ctx.h>

#include "cq.h"
#include "qp.h"

/**
 * irdma_fill_res_qp_entry() - QP driver attributes
 * @msg: the netlink message
 * @ibqp: the QP
 *
 * Context: Process context.
 * Return: 0 or -EMSGSIZE.
 */
int irdma_fill_res_qp_entry(struct sk_buff *msg, struct ib_qp *ibqp)
{
	struct irdma_qp *qp = to_irdma_qp(ibqp);
	struct nlattr *table;

	table = nla_nest_start(msg, RDMA_NLDEV_ATTR_DRIVER);
	if (!table)
		return -EMSGSIZE;
	if (rdma_nl_put_driver_string(msg, "hw_state",
				      e810_qp_state_name(qp->hw_state)) ||
	    rdma_nl_put_driver_u32(msg, "hmc_idx", qp->qp_id) ||
	    rdma_nl_put_driver_u32(msg, "sq_quanta", qp->sq_depth) ||
	    rdma_nl_put_driver_u32(msg, "rq_quanta", qp->rq_depth) ||
	    rdma_nl_put_driver_u32(msg, "rq_wqe_size",
				   32U << qp->rq_shift) ||
	    rdma_nl_put_driver_string(msg, "mem",
				      qp->user ? (qp->virt ? "user-pbl" :
						  "user-contig") : "kernel") ||
	    rdma_nl_put_driver_u32_hex(msg, "last_ae", qp->last_ae) ||
	    rdma_nl_put_driver_u32(msg, "user_pri", qp->user_pri) ||
	    rdma_nl_put_driver_u32(msg, "tc", qp->ws_tc) ||
	    rdma_nl_put_driver_u32(msg, "qs_handle", READ_ONCE(qp->qs_handle)))
		goto err;
	/* sq_addr/rq_addr are PBLE indexes on a page list, else addresses. */
	if (qp->virt &&
	    (rdma_nl_put_driver_u32(msg, "sq_first_pble", qp->sq_addr) ||
	     rdma_nl_put_driver_u32(msg, "rq_first_pble", qp->rq_addr)))
		goto err;
	if (qp->av.valid && qp->av.arp_idx >= 0 &&
	    rdma_nl_put_driver_u32(msg, "arp_idx", qp->av.arp_idx))
		goto err;
	if (!qp->user &&
	    (rdma_nl_put_driver_u32(msg, "sq_head", qp->ring.sq_head) ||
	     rdma_nl_put_driver_u32(msg, "sq_tail", qp->ring.sq_tail) ||
	     rdma_nl_put_driver_u32(msg, "rq_head", qp->ring.rq_head) ||
	     rdma_nl_put_driver_u32(msg, "rq_tail", qp->ring.rq_tail) ||
	     rdma_nl_put_driver_u32(msg, "flushing",
				    qp->flush_sq || qp->flush_rq)))
		goto err;
	nla_nest_end(msg, table);
	return 0;

err:
	nla_nest_cancel(msg, table);
	return -EMSGSIZE;
}

/**
 * irdma_fill_res_qp_entry_raw() - the QP host context (256 bytes)
 * @msg: the netlink message
 * @ibqp: the QP
 *
 * Context: Process context.
 * Return: 0 or -EMSGSIZE.
 */
int irdma_fill_res_qp_entry_raw(struct sk_buff *msg, struct ib_qp *ibqp)
{
	struct irdma_qp *qp = to_irdma_qp(ibqp);

	return nla_put(msg, RDMA_NLDEV_ATTR_RES_RAW, E810_QP_CTX_SIZE,
		       qp->ctx.va);
}

/**
 * irdma_fill_res_cq_entry() - CQ driver attributes
 * @msg: the netlink message
 * @ibcq: the CQ
 *
 * Context: Process context.
 * Return: 0 or -EMSGSIZE.
 */
int irdma_fill_res_cq_entry(struct sk_buff *msg, struct ib_cq *ibcq)
{
	struct irdma_cq *cq = to_irdma_cq(ibcq);
	struct nlattr *table;

	table = nla_nest_start(msg, RDMA_NLDEV_ATTR_DRIVER);
	if (!table)
		return -EMSGSIZE;
	if (rdma_nl_put_driver_u32(msg, "hmc_idx", cq->cq_id) ||
	    rdma_nl_put_driver_u32(msg, "cq_size", cq->size) ||
	    rdma_nl_put_driver_u32(msg, "ceq_id", cq->ceq_id) ||
	    rdma_nl_put_driver_string(msg, "mem",
				      cq->user ? (cq->virt ? "user-pbl" :
						  "user-contig") : "kernel"))
		goto err;
	if (cq->virt && rdma_nl_put_driver_u32(msg, "first_pble", cq->pble))
		goto err;
	if (!cq->user &&
	    (rdma_nl_put_driver_u32(msg, "head", cq->kring.uk.head) ||
	     rdma_nl_put_driver_u32(msg, "polarity", cq->kring.uk.pol) ||
	     rdma_nl_put_driver_u32(msg, "armed", cq->armed) ||
	     rdma_nl_put_driver_u32(msg, "resizes", cq->resizes)))
		goto err;
	nla_nest_end(msg, table);
	return 0;

err:
	nla_nest_cancel(msg, table);
	return -EMSGSIZE;
}

/**
 * irdma_fill_res_cq_entry_raw() - a kernel CQ's shadow area (64 bytes)
 * @msg: the netlink message
 * @ibcq: the CQ
 *
 * Context: Process context.
 * Return: 0, -EMSGSIZE, or -EOPNOTSUPP for user CQs (user memory).
 */
int irdma_fill_res_cq_entry_raw(struct sk_buff *msg, struct ib_cq *ibcq)
{
	struct irdma_cq *cq = to_irdma_cq(ibcq);

	if (cq->user)
		return -EOPNOTSUPP;
	return nla_put(msg, RDMA_NLDEV_ATTR_RES_RAW, E810_CQ_SHADOW_SIZE,
		       cq->shadow.va);
}
