// SPDX-License-Identifier: GPL-2.0-only
/*
 * verbs_abi neg: requests the stack must refuse, each with the errno the
 * upstream stack gives. The comment on each case names where upstream
 * decides: the stock provider (rdma-core 56.1 providers/irdma), ib_core
 * (drivers/infiniband/core) or the upstream irdma driver
 * (drivers/infiniband/hw/irdma/verbs.c). Cases the provider or ib_core
 * decide pass whatever our driver does; they are here because the
 * application-visible result is part of the ABI, and because they must
 * leave nothing behind. After each refused modify the QP must still be in
 * its old state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "verbs_abi.h"

/* GEN_2 limits the provider learns from the kernel (hw-reference 2.7, 6.2). */
#define VA_MAX_INLINE 101
#define VA_MAX_WQ_QUANTA 32768

struct va_neg {
	struct va_env *env;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
};

static struct ibv_qp *va_try_qp(struct va_neg *n, enum ibv_qp_type type,
				uint32_t swr, uint32_t rwr, uint32_t ssge,
				uint32_t rsge, uint32_t inl)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = n->cq,
		.recv_cq = n->cq,
		.cap = {
			.max_send_wr = swr,
			.max_recv_wr = rwr,
			.max_send_sge = ssge,
			.max_recv_sge = rsge,
			.max_inline_data = inl,
		},
		.qp_type = type,
	};

	return ibv_create_qp(n->pd, &ia);
}

/* A QP create that must fail with want; destroys it if it did not. */
static void va_qp_refused(struct va_neg *n, const char *what, uint32_t swr,
			  uint32_t rwr, uint32_t ssge, uint32_t rsge,
			  uint32_t inl, int want)
{
	struct ibv_qp *qp = va_try_qp(n, IBV_QPT_RC, swr, rwr, ssge, rsge, inl);
	int err = errno;

	vt_expect_errno(what, !qp, err, want);
	if (qp)
		ibv_destroy_qp(qp);
}

/* A QP create at a limit that must succeed. */
static void va_qp_accepted(struct va_neg *n, const char *what, uint32_t swr,
			   uint32_t rwr, uint32_t ssge, uint32_t rsge,
			   uint32_t inl)
{
	struct ibv_qp *qp = va_try_qp(n, IBV_QPT_RC, swr, rwr, ssge, rsge, inl);

	if (!qp) {
		vt_fail("%s: %s", what, strerror(errno));
		return;
	}
	vt_ok("%s: created", what);
	vt_check(!ibv_destroy_qp(qp), "%s: destroyed", what);
}

static void va_neg_qp_sizes(struct va_neg *n)
{
	const struct ibv_device_attr *d = &n->env->dattr;
	uint32_t wr = d->max_qp_wr, sge = d->max_sge;

	/*
	 * The boundary itself: max_qp_wr WQEs of the largest size (max_sge
	 * SGEs, i.e. 8 quanta each, plus the 258 reserved quanta) fill the
	 * 32768-quanta ring exactly (docs/hw-reference.md 2.7: (32768 - 258) /
	 * 8 = 4063).
	 */
	va_qp_accepted(n, "QP at the limits (max_qp_wr, max_sge)", wr, wr,
		       sge, sge, 0);
	va_qp_accepted(n, "QP with max_inline_data 101", 16, 16, 1, 1,
		       VA_MAX_INLINE);
	/*
	 * One WQE more no longer fits: the provider's
	 * irdma_uk_calc_depth_shift_sq() (irdma_get_sqdepth) returns EINVAL;
	 * upstream irdma's user QP path computes the same depth and refuses
	 * it with -EINVAL too.
	 */
	va_qp_refused(n, "QP max_send_wr = max_qp_wr + 1 at max_sge", wr + 1,
		      16, sge, 1, 0, EINVAL);
	/*
	 * Beyond the ring size at any WQE size: irdma_ucreate_qp() checks
	 * max_send_wr/max_recv_wr against max_hw_wq_quanta/max_hw_rq_quanta
	 * (32768) and sets EINVAL.
	 */
	va_qp_refused(n, "QP max_send_wr = 32769", VA_MAX_WQ_QUANTA + 1, 16,
		      1, 1, 0, EINVAL);
	va_qp_refused(n, "QP max_recv_wr = 32769", 16, VA_MAX_WQ_QUANTA + 1,
		      1, 1, 0, EINVAL);
	va_qp_refused(n, "QP max_recv_wr = 4097 at max_sge (RQ depth 65536)",
		      16, 4097, 1, sge, 0, EINVAL);
	/*
	 * SGE counts and inline size above the device's: irdma_ucreate_qp()
	 * (EINVAL), and upstream irdma_validate_qp_attrs() (-EINVAL) for
	 * callers that bypass the provider.
	 */
	va_qp_refused(n, "QP max_send_sge = max_sge + 1", 16, 16, sge + 1, 1,
		      0, EINVAL);
	va_qp_refused(n, "QP max_recv_sge = max_sge + 1", 16, 16, 1, sge + 1,
		      0, EINVAL);
	va_qp_refused(n, "QP max_inline_data = 102", 16, 16, 1, 1,
		      VA_MAX_INLINE + 1, EINVAL);
}

static void va_neg_cq(struct va_neg *n)
{
	struct ibv_context *ctx = n->env->ctx;
	struct ibv_cq *cq;
	int err;

	/*
	 * irdma_ucreate_cq() refuses cqe > max_hw_cq_size - 1 and cqe < 1
	 * (IRDMA_MIN_CQ_SIZE) with EINVAL; upstream irdma_create_cq()
	 * refuses entries > max_cqe with -EINVAL as well.
	 */
	cq = ibv_create_cq(ctx, n->env->dattr.max_cqe + 1, NULL, NULL, 0);
	err = errno;
	vt_expect_errno("CQ cqe = max_cqe + 1", !cq, err, EINVAL);
	if (cq)
		ibv_destroy_cq(cq);
	cq = ibv_create_cq(ctx, 0, NULL, NULL, 0);
	err = errno;
	vt_expect_errno("CQ cqe = 0", !cq, err, EINVAL);
	if (cq)
		ibv_destroy_cq(cq);
}

static void va_mr_refused(struct va_neg *n, const char *what, void *addr,
			  size_t len, int access, int want)
{
	struct ibv_mr *mr = ibv_reg_mr(n->pd, addr, len, access);
	int err = errno;

	vt_expect_errno(what, !mr, err, want);
	if (mr)
		ibv_dereg_mr(mr);
}

static void va_neg_mr(struct va_neg *n)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint8_t *p;

	p = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		vt_fail("mmap: %s", strerror(errno));
		return;
	}
	memset(p, 1, 4 * pg);
	/*
	 * Remote write or remote atomic without local write: ib_core's
	 * ib_check_mr_access() (include/rdma/ib_verbs.h), called by
	 * ib_uverbs_reg_mr() before the driver, returns -EINVAL.
	 */
	va_mr_refused(n, "MR REMOTE_WRITE without LOCAL_WRITE", p, pg,
		      IBV_ACCESS_REMOTE_WRITE, EINVAL);
	va_mr_refused(n, "MR REMOTE_ATOMIC without LOCAL_WRITE", p, pg,
		      IBV_ACCESS_REMOTE_ATOMIC | IBV_ACCESS_REMOTE_READ,
		      EINVAL);
	/*
	 * Memory that cannot be pinned: ib_umem_get() fails in
	 * pin_user_pages_fast() with -EFAULT, and upstream
	 * irdma_reg_user_mr() returns that error unchanged.
	 */
	munmap(p + pg, pg);
	va_mr_refused(n, "MR over a hole (middle page unmapped)", p, 3 * pg,
		      IBV_ACCESS_LOCAL_WRITE, EFAULT);
	mprotect(p + 2 * pg, pg, PROT_READ);
	va_mr_refused(n, "MR LOCAL_WRITE on a read-only page", p + 2 * pg, pg,
		      IBV_ACCESS_LOCAL_WRITE, EFAULT);
	munmap(p, 4 * pg);
	va_mr_refused(n, "MR on unmapped memory", p, 4 * pg,
		      IBV_ACCESS_LOCAL_WRITE, EFAULT);
}

static void va_expect_qp_state(struct ibv_qp *qp, enum ibv_qp_state want,
			       const char *what)
{
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr a;
	int ret;

	ret = ibv_query_qp(qp, &a, IBV_QP_STATE, &ia);
	if (ret) {
		vt_fail("%s: ibv_query_qp: %s", what, strerror(ret));
		return;
	}
	vt_check(a.qp_state == want, "%s: QP still in state %d (got %d)",
		 what, want, a.qp_state);
}

/* A modify that must fail with want and leave the QP in state "stay". */
static void va_modify_refused(struct ibv_qp *qp, struct ibv_qp_attr *a,
			      int mask, const char *what, int want,
			      enum ibv_qp_state stay)
{
	int ret = ibv_modify_qp(qp, a, mask);

	vt_expect_errno(what, ret != 0, ret, want);
	va_expect_qp_state(qp, stay, what);
}

static bool va_modify_ok(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask,
			 const char *what)
{
	int ret = ibv_modify_qp(qp, a, mask);

	return vt_check(!ret, "%s: %s", what, ret ? strerror(ret) : "done");
}

#define VA_INIT_MASK (IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | \
		      IBV_QP_ACCESS_FLAGS)
#define VA_RTR_MASK (IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | \
		     IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | \
		     IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER)
#define VA_RTS_MASK (IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | \
		     IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | \
		     IBV_QP_MAX_QP_RD_ATOMIC)

static void va_rtr_attr(const struct va_env *env, struct ibv_qp_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->qp_state = IBV_QPS_RTR;
	a->path_mtu = IBV_MTU_1024;
	a->dest_qp_num = 0x123456;
	a->rq_psn = 1;
	a->max_dest_rd_atomic = 1;
	a->min_rnr_timer = 12;
	a->ah_attr.is_global = 1;
	a->ah_attr.port_num = 1;
	a->ah_attr.grh.dgid = env->dgid;
	a->ah_attr.grh.sgid_index = env->gid_index;
	a->ah_attr.grh.hop_limit = 64;
}

/* An in-range GID index with no entry, or -1. */
static int va_empty_gid_index(const struct va_env *env)
{
	struct ibv_gid_entry e;
	int i;

	for (i = env->pattr.gid_tbl_len - 1; i >= 0; i--)
		if (ibv_query_gid_ex(env->ctx, 1, i, &e, 0) == ENODATA)
			return i;
	return -1;
}

static void va_neg_rc_states(struct va_neg *n)
{
	const struct va_env *env = n->env;
	struct ibv_qp_attr a;
	struct ibv_qp *qp;
	int empty;

	qp = va_try_qp(n, IBV_QPT_RC, 16, 16, 1, 1, 0);
	if (!qp) {
		vt_fail("RC QP for the state cases: %s", strerror(errno));
		return;
	}
	/*
	 * Transitions the IB state table does not allow: upstream
	 * irdma_modify_qp_roce() checks ib_modify_qp_is_ok() and returns
	 * -EINVAL (with a warning in the log).
	 */
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	va_modify_refused(qp, &a, IBV_QP_STATE, "RC RESET->RTS", EINVAL,
			  IBV_QPS_RESET);
	va_rtr_attr(env, &a);
	va_modify_refused(qp, &a, VA_RTR_MASK, "RC RESET->RTR", EINVAL,
			  IBV_QPS_RESET);
	/* RESET->INIT needs PKEY_INDEX, PORT and ACCESS_FLAGS (same check). */
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.port_num = 1;
	va_modify_refused(qp, &a, IBV_QP_STATE | IBV_QP_PORT,
			  "RC RESET->INIT without PKEY_INDEX/ACCESS_FLAGS",
			  EINVAL, IBV_QPS_RESET);
	/* A state beyond ERR: ib_uverbs modify_qp() returns -EINVAL. */
	memset(&a, 0, sizeof(a));
	a.qp_state = (enum ibv_qp_state)42;
	va_modify_refused(qp, &a, IBV_QP_STATE, "RC to state 42", EINVAL,
			  IBV_QPS_RESET);
	/*
	 * P_Key index beyond the one-entry table: upstream
	 * irdma_modify_qp_roce() gets -EINVAL from irdma_query_pkey().
	 */
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.pkey_index = 1;
	a.port_num = 1;
	a.qp_access_flags = IBV_ACCESS_LOCAL_WRITE;
	va_modify_refused(qp, &a, VA_INIT_MASK, "RC RESET->INIT pkey_index 1",
			  EINVAL, IBV_QPS_RESET);

	a.pkey_index = 0;
	if (!va_modify_ok(qp, &a, VA_INIT_MASK, "RC RESET->INIT"))
		goto out;
	/* Back to RESET and INIT again: the device QP never left IDLE. */
	a.qp_state = IBV_QPS_RESET;
	if (!va_modify_ok(qp, &a, IBV_QP_STATE, "RC INIT->RESET"))
		goto out;
	a.qp_state = IBV_QPS_INIT;
	if (!va_modify_ok(qp, &a, VA_INIT_MASK, "RC INIT->RESET->INIT"))
		goto out;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 1;
	va_modify_refused(qp, &a, VA_RTS_MASK, "RC INIT->RTS", EINVAL,
			  IBV_QPS_INIT);

	/*
	 * Source GID index beyond the table: ib_core's rdma_fill_sgid_attr()
	 * -> rdma_get_gid_attr() returns -EINVAL for index >= table size,
	 * and -ENODATA for an index inside the table without an entry
	 * (drivers/infiniband/core/cache.c).
	 */
	va_rtr_attr(env, &a);
	a.ah_attr.grh.sgid_index = env->pattr.gid_tbl_len;
	va_modify_refused(qp, &a, VA_RTR_MASK, "RC RTR sgid_index = gid_tbl_len",
			  EINVAL, IBV_QPS_INIT);
	a.ah_attr.grh.sgid_index = 255;
	va_modify_refused(qp, &a, VA_RTR_MASK, "RC RTR sgid_index = 255",
			  EINVAL, IBV_QPS_INIT);
	empty = va_empty_gid_index(env);
	if (empty >= 0) {
		char what[64];

		a.ah_attr.grh.sgid_index = empty;
		snprintf(what, sizeof(what), "RC RTR sgid_index %d (empty entry)",
			 empty);
		va_modify_refused(qp, &a, VA_RTR_MASK, what, ENODATA,
				  IBV_QPS_INIT);
	}
	/*
	 * Responder resources above the device's IRD: upstream
	 * irdma_modify_qp_roce() returns -EINVAL (max_hw_ird).
	 */
	va_rtr_attr(env, &a);
	if (env->dattr.max_qp_rd_atom < 255) {
		a.max_dest_rd_atomic = env->dattr.max_qp_rd_atom + 1;
		va_modify_refused(qp, &a, VA_RTR_MASK,
				  "RC RTR max_dest_rd_atomic = max_qp_rd_atom + 1",
				  EINVAL, IBV_QPS_INIT);
	}
	va_rtr_attr(env, &a);
	if (!va_modify_ok(qp, &a, VA_RTR_MASK, "RC INIT->RTR"))
		goto out;
	/* Initiator depth above the device's ORD: same function, -EINVAL. */
	if (env->dattr.max_qp_init_rd_atom < 255) {
		memset(&a, 0, sizeof(a));
		a.qp_state = IBV_QPS_RTS;
		a.timeout = 14;
		a.retry_cnt = 7;
		a.rnr_retry = 7;
		a.max_rd_atomic = env->dattr.max_qp_init_rd_atom + 1;
		va_modify_refused(qp, &a, VA_RTS_MASK,
				  "RC RTS max_rd_atomic = max_qp_init_rd_atom + 1",
				  EINVAL, IBV_QPS_RTR);
	}
	/* RTR -> INIT is not a transition either. */
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.port_num = 1;
	a.qp_access_flags = IBV_ACCESS_LOCAL_WRITE;
	va_modify_refused(qp, &a, VA_INIT_MASK, "RC RTR->INIT", EINVAL,
			  IBV_QPS_RTR);
	/* Any state -> ERR -> RESET is always allowed. */
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_ERR;
	if (va_modify_ok(qp, &a, IBV_QP_STATE, "RC RTR->ERR"))
		va_expect_qp_state(qp, IBV_QPS_ERR, "RC after ERR");
	a.qp_state = IBV_QPS_RESET;
	if (!va_modify_ok(qp, &a, IBV_QP_STATE, "RC ERR->RESET"))
		goto out;
	va_expect_qp_state(qp, IBV_QPS_RESET, "RC after RESET");
	/*
	 * A user QP whose device QP left IDLE is not taken back to INIT
	 * (docs/irdma.md "RESET and reuse"), as upstream irdma refuses INIT
	 * past IDLE.
	 */
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.port_num = 1;
	a.qp_access_flags = IBV_ACCESS_LOCAL_WRITE;
	va_modify_refused(qp, &a, VA_INIT_MASK, "RC used QP RESET->INIT",
			  EINVAL, IBV_QPS_RESET);
out:
	vt_check(!ibv_destroy_qp(qp), "state-case RC QP destroyed");
}

static void va_neg_ud(struct va_neg *n)
{
	struct ibv_qp_attr a;
	struct ibv_qp *qp;

	qp = va_try_qp(n, IBV_QPT_UD, 16, 16, 1, 1, 0);
	if (!qp) {
		vt_fail("UD QP for the state cases: %s", strerror(errno));
		return;
	}
	/* UD RESET->INIT needs a Q_Key: ib_modify_qp_is_ok(), -EINVAL. */
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.port_num = 1;
	va_modify_refused(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT,
			  "UD RESET->INIT without QKEY", EINVAL, IBV_QPS_RESET);
	vt_check(!ibv_destroy_qp(qp), "state-case UD QP destroyed");
}

/*
 * Objects still in use: ib_core refuses to destroy a CQ a QP uses, or a
 * PD with MRs/QPs, with -EBUSY (uverbs ib_destroy_usecnt()).
 */
static void va_neg_busy(struct va_neg *n)
{
	struct ibv_qp *qp = va_try_qp(n, IBV_QPT_RC, 16, 16, 1, 1, 0);
	int ret;

	if (!qp) {
		vt_fail("RC QP for the busy cases: %s", strerror(errno));
		return;
	}
	ret = ibv_destroy_cq(n->cq);
	vt_expect_errno("destroy a CQ a QP uses", ret != 0, ret, EBUSY);
	ret = ibv_dealloc_pd(n->pd);
	vt_expect_errno("dealloc a PD a QP uses", ret != 0, ret, EBUSY);
	vt_check(!ibv_destroy_qp(qp), "busy-case QP destroyed");
}

void va_negative(struct va_env *env)
{
	struct va_neg n = { .env = env };

	n.pd = ibv_alloc_pd(env->ctx);
	if (!n.pd) {
		vt_fail("ibv_alloc_pd: %s", strerror(errno));
		return;
	}
	n.cq = ibv_create_cq(env->ctx, 64, NULL, NULL, 0);
	if (!n.cq) {
		va_skip_if_unsupported("ibv_create_cq", errno);
		vt_fail("ibv_create_cq: %s", strerror(errno));
		ibv_dealloc_pd(n.pd);
		return;
	}
	/* Probe QP and MR support first: a skip, not 20 failures. */
	{
		struct ibv_qp *qp = va_try_qp(&n, IBV_QPT_RC, 16, 16, 1, 1, 0);
		struct ibv_mr *mr;
		char b[64];

		if (!qp)
			va_skip_if_unsupported("ibv_create_qp", errno);
		else
			ibv_destroy_qp(qp);
		mr = ibv_reg_mr(n.pd, b, sizeof(b), IBV_ACCESS_LOCAL_WRITE);
		if (!mr)
			va_skip_if_unsupported("ibv_reg_mr", errno);
		else
			ibv_dereg_mr(mr);
	}
	va_first_use = false;

	va_neg_cq(&n);
	va_neg_qp_sizes(&n);
	va_neg_mr(&n);
	va_neg_rc_states(&n);
	va_neg_ud(&n);
	va_neg_busy(&n);

	vt_check(!ibv_destroy_cq(n.cq), "CQ destroyed");
	vt_check(!ibv_dealloc_pd(n.pd), "PD deallocated");
}
