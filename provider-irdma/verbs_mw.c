// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory windows: allocation through the kernel (ALLOC_STAG of a window,
 * no driver data), binding with a BIND_MW WQE on the QP's SQ. A type 1
 * window is bound by ibv_bind_mw(), which posts that WQE with the next
 * key of the window's STag (ibv_inc_rkey()); a type 2 window by an
 * IBV_WR_BIND_MW work request carrying the key the consumer chose. The
 * engine checks the bind (PD, parent rights, range, type) and reports a
 * refused one as a MW_BIND_ERR completion (docs/hw-reference.md 5.3).
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hw/e810_cqp.h"
#include "e810p.h"

struct ibv_mw *e810p_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type)
{
	struct ib_uverbs_alloc_mw_resp resp;
	struct ibv_alloc_mw cmd;
	struct ibv_mw *mw;
	int ret;

	mw = calloc(1, sizeof(*mw));
	if (!mw)
		return NULL;
	ret = ibv_cmd_alloc_mw(pd, type, mw, &cmd, sizeof(cmd), &resp,
			       sizeof(resp));
	if (ret) {
		free(mw);
		errno = ret;
		return NULL;
	}
	return mw;
}

int e810p_dealloc_mw(struct ibv_mw *mw)
{
	int ret = ibv_cmd_dealloc_mw(mw);

	if (ret)
		return ret;
	free(mw);
	return 0;
}

/*
 * The hardware-level BIND_MW of an IBV_WR_BIND_MW work request (what
 * irdma_upost_send() accepts): RC only; a type 2 window takes the key
 * byte of bind_mw.rkey and may not be bound to a zero-based MR; the
 * window's rights are its remote read/write flags.
 */
int e810p_bind_wr_to_uk(bool ud, const struct ibv_send_wr *wr,
			struct e810u_swr *s)
{
	const struct ibv_mw_bind_info *bi = &wr->bind_mw.bind_info;
	const struct ibv_mw *mw = wr->bind_mw.mw;

	/*
	 * Every bind names a parent MR: the engine has no unbind form (a
	 * type 2 window is unbound by invalidation, a type 1 one by a new
	 * bind or its deallocation).
	 */
	if (ud || !mw || !bi->mr)
		return EINVAL;
	if (verbs_get_mr(bi->mr)->mr_type != IBV_MR_TYPE_MR)
		return ENOTSUP;
	if (mw->type == IBV_MW_TYPE_2 &&
	    (verbs_get_mr(bi->mr)->access & IBV_ACCESS_ZERO_BASED))
		return EINVAL;
	/*
	 * A zero-based window starts at its parent's first byte: the WQE
	 * carries no offset for it (irdma_upost_send() sends VA 0).
	 */
	if ((bi->mw_access_flags & IBV_ACCESS_ZERO_BASED) &&
	    (mw->type == IBV_MW_TYPE_1 || bi->addr != (uintptr_t)bi->mr->addr))
		return EINVAL;
	s->bind_mr_stag = bi->mr->rkey;
	s->op = E810_OP_BIND_MW;
	s->bind_type1 = mw->type == IBV_MW_TYPE_1;
	s->rkey = s->bind_type1 ? wr->bind_mw.rkey :
		  (mw->rkey & ~0xffu) | (wr->bind_mw.rkey & 0xff);
	s->remote_addr = bi->addr;
	s->bind_len = bi->length;
	s->bind_zero_based = bi->mw_access_flags & IBV_ACCESS_ZERO_BASED;
	if (bi->mw_access_flags & IBV_ACCESS_REMOTE_READ)
		s->bind_rights |= E810_ACCESS_REMOTE_READ;
	if (bi->mw_access_flags & IBV_ACCESS_REMOTE_WRITE)
		s->bind_rights |= E810_ACCESS_REMOTE_WRITE;
	return 0;
}

/* ibv_bind_mw() of a type 1 window: a BIND_MW WQE with the next key. */
int e810p_bind_mw(struct ibv_qp *qp, struct ibv_mw *mw,
		  struct ibv_mw_bind *bind)
{
	const struct ibv_mw_bind_info *bi = &bind->bind_info;
	struct ibv_send_wr wr = {}, *bad;
	int ret;

	if (mw->type != IBV_MW_TYPE_1 || !bi->mr)
		return EINVAL;
	if (mw->pd != bi->mr->pd)
		return EPERM;
	if (verbs_get_mr(bi->mr)->access & IBV_ACCESS_ZERO_BASED)
		return EINVAL;
	wr.wr_id = bind->wr_id;
	wr.send_flags = bind->send_flags;
	wr.opcode = IBV_WR_BIND_MW;
	wr.bind_mw.mw = mw;
	wr.bind_mw.rkey = ibv_inc_rkey(mw->rkey);
	wr.bind_mw.bind_info = *bi;
	ret = e810p_post_send(qp, &wr, &bad);
	if (!ret)
		mw->rkey = wr.bind_mw.rkey;
	return ret;
}
