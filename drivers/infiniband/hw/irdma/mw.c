// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: memory windows (type 1 and type 2).
 *
 * A window is an STag from the MR index space that ALLOC_STAG creates
 * without a parent: MWTYPE set for a type 1 window (upstream's "mw_wide",
 * irdma_hw_alloc_mw()), clear for type 2. It maps nothing until a BIND_MW
 * WQE on a QP's SQ binds it to a range of an MR that allows binding
 * (ibv_bind_mw() for type 1, IBV_WR_BIND_MW for type 2: both built by the
 * provider, checked by the engine, which reports a failed bind as a
 * MW_BIND_ERR completion). A type 2 window is unbound again by a local or
 * remote invalidate of its STag. DEALLOC_STAG destroys either.
 */

#include <linux/bitfield.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "main.h"
#include "mr.h"
#include "quarantine.h"

/**
 * struct irdma_mw - a memory window
 * @ibmw: the ib_mw (first; rkey is the STag)
 */
struct irdma_mw {
	struct ib_mw ibmw;
};

static u32 irdma_mw_pd_id(const struct ib_mw *ibmw)
{
	return to_irdma_pd(ibmw->pd)->pd_id;
}

static int irdma_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata)
{
	struct irdma_pci_f *rf = to_iwdev(ibmw->device)->rf;
	u64 q[8] = { };
	u64 hdr = 0;
	u32 stag;
	int err;

	/* Neither provider passes data with a window. */
	if (udata && (udata->inlen || udata->outlen))
		return -EINVAL;
	err = irdma_stag_alloc(rf, &stag);
	if (err)
		return err;
	q[E810_QW(E810_CQPSQ_STAG_LEN_OFF)] =
		irdma_stag_pdid(rf, irdma_mw_pd_id(ibmw));
	q[E810_QW(E810_CQPSQ_STAG_IDX_OFF)] =
		FIELD_PREP(E810_CQPSQ_STAG_IDX, stag >> 8);
	if (ibmw->type == IB_MW_TYPE_1)
		hdr |= E810_CQPSQ_STAG_MWTYPE;
	err = irdma_cqp_exec(rf, E810_CQP_OP_ALLOC_STAG, hdr, q, NULL);
	if (err) {
		if (!irdma_engine_may_reach(rf))
			irdma_stag_free(rf, stag);
		return err;
	}
	ibmw->rkey = stag;
	return 0;
}

static int irdma_dealloc_mw(struct ib_mw *ibmw)
{
	struct irdma_pci_f *rf = to_iwdev(ibmw->device)->rf;
	int err;

	err = irdma_stag_dealloc(rf, ibmw->rkey, irdma_mw_pd_id(ibmw), false);
	if (err)
		ibdev_warn_ratelimited(ibmw->device,
				       "MW: DEALLOC_STAG 0x%08x: %d\n",
				       ibmw->rkey, err);
	/* As for an MR (irdma_dereg_mr()): the index waits for the reset. */
	if (!irdma_engine_may_reach(rf))
		irdma_stag_free(rf, ibmw->rkey);
	return 0;
}

/* Installed by verbs.c. */
const struct ib_device_ops irdma_mw_ops = {
	.alloc_mw = irdma_alloc_mw,
	.dealloc_mw = irdma_dealloc_mw,

	INIT_RDMA_OBJ_SIZE(ib_mw, irdma_mw, ibmw),
};
