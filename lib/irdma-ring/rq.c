// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RQ side of the ring layer (docs/hw-reference.md 5.4). GEN_2 has no RQ
 * doorbell: the device takes the next WQE whose valid bit matches the pass when
 * a message arrives, so publishing the header is all a post does.
 */
#include "ring.h"

int e810u_post_recv(struct e810u_qp *qp, uint64_t wr_id,
		    const struct e810u_sge *sg, uint32_t num_sge)
{
	uint32_t idx = qp->rq_head;
	unsigned int addfrags;
	uint8_t *wqe;

	if (num_sge > qp->max_rq_frags ||
	    e810u_frag_quanta(qp->geom, num_sge) > (1u << qp->rq_shift))
		return -EINVAL;
	/* one entry stays free so that head == tail means empty */
	if ((idx + 1) % qp->rq_size == qp->rq_tail)
		return -ENOMEM;
	if (idx == 0)
		qp->rq_pol = !qp->rq_pol;
	wqe = qp->rq + ((size_t)idx << (qp->rq_shift + E810_WQE_QUANTUM_SHIFT));
	addfrags = e810u_put_frags(qp->geom, wqe, sg, num_sge, false,
				   qp->rq_pol);
	e810u_put64(wqe, E810_WQE_OPQ_OFF, 0);
	qp->rq_wrid[idx] = wr_id;
	qp->rq_head = (idx + 1) % qp->rq_size;
	e810u_wmb();
	e810u_put64(wqe, E810_WQE_HDR_OFF,
		    FIELD_PREP(E810_WQE_ADDFRAGCNT, addfrags) |
		    FIELD_PREP(E810_WQE_VALID, qp->rq_pol));
	return 0;
}
