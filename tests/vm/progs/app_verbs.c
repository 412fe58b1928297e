// SPDX-License-Identifier: GPL-2.0-only
/*
 * app_verbs DEVICE IPV4: the verbs real applications use on an E810, as
 * they use them, checked for what upstream irdma (and its provider) gives
 * (docs/testing.md, "Compiled guest programs"; scenario apps_verbs).
 *
 * The requests are those of Debian bookworm's clients, read from their
 * sources:
 *  - qperf 0.4.11 (src/rdma.c): MRs with LOCAL_WRITE | REMOTE_READ |
 *    REMOTE_WRITE | REMOTE_ATOMIC (rd_mralloc); QPs with one SGE each way
 *    and no send or no receive WRs at all on the receiving or sending side
 *    of a one-way test (rd_open(.., NCQE, 0) / (.., 0, NCQE)), RC and UD;
 *    max_inline_data read back with ibv_query_qp(IBV_QP_CAP).
 *  - UCX 1.13.1 (uct/ib): its memory domain registers with LOCAL_WRITE |
 *    REMOTE_WRITE | REMOTE_READ | REMOTE_ATOMIC (UCT_IB_MEM_ACCESS_FLAGS),
 *    also with relaxed ordering; the ud_verbs interface creates its QP with
 *    ibv_create_qp_ex (comp_mask PD): UD, 256 send WRs of 6 SGEs and 64
 *    bytes inline, 4096 receive WRs of one SGE, sq_sig_all 0; INIT (P_Key
 *    index, port, Q_Key 0x1ee7a330), RTR, RTS (SQ PSN 0); asks
 *    ibv_query_qp for max_send_sge (> 1); registers 8 KiB receive buffers
 *    and posts them in chained lists of 16 until 128 are posted (a list
 *    that cannot be built because registration failed makes that loop
 *    spin forever); sends unsignaled, every 64th signaled.
 *  - libfabric 1.17 verbs provider: MRs for FI_REMOTE_WRITE with
 *    LOCAL_WRITE | REMOTE_WRITE | REMOTE_ATOMIC (vrb_mr_ofi2ibv_access),
 *    its registration cache with all four; vrb_find_max_inline(): QPs of
 *    1 WR, 1 SGE, sq_sig_all 1 with max_inline_data 2, 4, 8, ... until
 *    creation fails, then bisection; then the endpoint QP of 384 WRs and 4
 *    SGEs each way with that inline size.
 *
 * Checked: every such MR registers and is honoured (an RDMA WRITE into it
 * and an RDMA READ from it through its rkey between two RC QPs of DEVICE,
 * bytes compared; a zero-based registration at iova 0 likewise); every
 * such QP is created with at least the capabilities asked for; the inline
 * limit found by bisection is GEN_2's 101 bytes for RC and UD; the UCX UD
 * sequence moves 256 datagrams (inline and two-SGE sends) with every
 * payload compared, and the unsignaled sends free their slots (the SQ
 * never fills); RTS -> SQD with WRITEs in flight returns at once with
 * them all completed (the device's suspend-complete AE). Exit 0 when
 * every check passed, 1 otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vt.h"

#define GRH_LEN		40u
#define E810_MAX_INLINE	101u	/* GEN_2 max_hw_inline (hw-reference 5.1) */

#define QPERF_ACCESS	(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | \
			 IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC)
#define UCX_ACCESS	QPERF_ACCESS
#define FI_RW_ACCESS	(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
			 IBV_ACCESS_REMOTE_ATOMIC)

/* UCX ud_verbs defaults (uct_ib_iface_config_table, ud_iface_common.c). */
#define UCX_QKEY	0x1ee7a330u
#define UCX_TX_LEN	256u
#define UCX_RX_LEN	4096u
#define UCX_TX_SGE	6u	/* TX_MIN_SGE 5 + 1 */
#define UCX_INLINE	64u
#define UCX_SEG		8192u
#define UCX_RX_INIT	128u	/* RX_QUEUE_LEN_INIT */
#define UCX_RX_BATCH	16u	/* RX_MAX_BATCH */
#define UCX_TX_MOD	64u	/* UCT_UD_TX_MODERATION */
#define UD_MSGS		256u

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static union ibv_gid gid;
static int gidx;
static uint32_t seed = 0xa9905;

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* One completion from @cq within 10 s of clock time, or false. */
static bool poll1(struct ibv_cq *cq, struct ibv_wc *wc)
{
	double end = now_s() + 10;
	int n;

	do {
		n = ibv_poll_cq(cq, 1, wc);
		if (n)
			return n == 1;
	} while (now_s() < end);
	return false;
}

static void fill(uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)vt_rand(&seed);
}

static void *page_alloc(size_t len)
{
	void *p = aligned_alloc(4096, (len + 4095) & ~(size_t)4095);

	if (!p) {
		vt_fail("out of memory");
		exit(1);
	}
	memset(p, 0, len);
	return p;
}

/* ---- two connected RC QPs of the device ---------------------------------- */

struct rc_pair {
	struct ibv_cq *cq[2];
	struct ibv_qp *qp[2];
};

static bool rc_pair_init(struct rc_pair *p)
{
	int i;

	for (i = 0; i < 2; i++)
		p->qp[i] = vt_create_qp(ctx, pd, IBV_QPT_RC, 64, 16, &p->cq[i]);
	for (i = 0; i < 2; i++)
		if (vt_rc_connect(p->qp[i], p->qp[!i]->qp_num, &gid, gidx,
				  IBV_MTU_1024, 0x100,
				  IBV_ACCESS_REMOTE_READ |
				  IBV_ACCESS_REMOTE_WRITE |
				  IBV_ACCESS_REMOTE_ATOMIC)) {
			vt_fail("RC QP to RTS (access with REMOTE_ATOMIC, as qperf): %s",
				strerror(errno));
			return false;
		}
	return true;
}

static void rc_pair_fini(struct rc_pair *p)
{
	int i;

	for (i = 0; i < 2; i++) {
		ibv_destroy_qp(p->qp[i]);
		ibv_destroy_cq(p->cq[i]);
	}
}

/* An RDMA op from qp[0]: local [lbuf, len) of @lkey, remote @raddr/@rkey. */
static bool rdma_op(struct rc_pair *p, enum ibv_wr_opcode op, void *lbuf,
		    uint32_t len, uint32_t lkey, uint64_t raddr, uint32_t rkey,
		    const char *what)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)lbuf, .length = len, .lkey = lkey,
	};
	struct ibv_send_wr wr = { 0 }, *bad;
	struct ibv_wc wc;

	wr.wr_id = op;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = op;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = rkey;
	if (ibv_post_send(p->qp[0], &wr, &bad)) {
		vt_fail("%s: post_send: %s", what, strerror(errno));
		return false;
	}
	if (!poll1(p->cq[0], &wc)) {
		vt_fail("%s: no completion within 10 s", what);
		return false;
	}
	if (wc.status != IBV_WC_SUCCESS) {
		vt_fail("%s: %s", what, ibv_wc_status_str(wc.status));
		return false;
	}
	return true;
}

/* ---- 1. MR access flags ---------------------------------------------------- */

struct mr_case {
	const char *who;
	int access;
	bool zero_based;
};

static const struct mr_case mr_cases[] = {
	{ "qperf rd_mralloc", QPERF_ACCESS, false },
	{ "UCX memory domain", UCX_ACCESS, false },
	{ "UCX memory domain, relaxed ordering",
	  UCX_ACCESS | IBV_ACCESS_RELAXED_ORDERING, false },
	{ "libfabric verbs FI_REMOTE_WRITE | FI_RECV", FI_RW_ACCESS, false },
	{ "libfabric verbs FI_REMOTE_READ | FI_REMOTE_WRITE",
	  FI_RW_ACCESS | IBV_ACCESS_REMOTE_READ, false },
	{ "zero-based, iova 0",
	  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ |
	  IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_ZERO_BASED, true },
};

#define MR_LEN	(3 * 4096u)

/*
 * Registers @c over a fresh buffer, then WRITEs a pattern into it at an
 * offset across a page boundary through its rkey and, when it grants
 * REMOTE_READ, READs it back; the bytes must be those written.
 */
static void mr_case_run(struct rc_pair *p, const struct mr_case *c,
			struct ibv_mr *lmr, uint8_t *lbuf)
{
	uint8_t *buf = page_alloc(MR_LEN);
	uint64_t base = (uintptr_t)buf, off = 4096 - 100;
	const uint32_t len = 1000;
	struct ibv_mr *mr;
	char what[160];

	if (c->zero_based) {
		mr = ibv_reg_mr_iova2(pd, buf, MR_LEN, 0, c->access);
		base = 0;
	} else {
		mr = ibv_reg_mr(pd, buf, MR_LEN, c->access);
	}
	if (!vt_check(mr != NULL, "MR of %s (access 0x%x) registers%s%s",
		      c->who, c->access, mr ? "" : ": ",
		      mr ? "" : strerror(errno)))
		goto out;
	snprintf(what, sizeof(what), "RDMA WRITE into the MR of %s", c->who);
	fill(lbuf, len);
	if (rdma_op(p, IBV_WR_RDMA_WRITE, lbuf, len, lmr->lkey, base + off,
		    mr->rkey, what))
		vt_check(!memcmp(buf + off, lbuf, len) && !buf[off - 1] &&
			 !buf[off + len],
			 "%s: %u bytes at offset %llu landed, nothing beside",
			 what, len, (unsigned long long)off);
	if (c->access & IBV_ACCESS_REMOTE_READ) {
		snprintf(what, sizeof(what), "RDMA READ from the MR of %s",
			 c->who);
		fill(buf + off, len);
		memset(lbuf, 0, len);
		if (rdma_op(p, IBV_WR_RDMA_READ, lbuf, len, lmr->lkey,
			    base + off, mr->rkey, what))
			vt_check(!memcmp(buf + off, lbuf, len),
				 "%s: %u bytes as in the MR", what, len);
	}
	vt_check(!ibv_dereg_mr(mr), "MR of %s deregisters", c->who);
out:
	free(buf);
}

static void test_mrs(void)
{
	uint8_t *lbuf = page_alloc(8192);
	struct ibv_mr *lmr;
	struct rc_pair p;
	unsigned int i;

	lmr = ibv_reg_mr(pd, lbuf, 8192, IBV_ACCESS_LOCAL_WRITE);
	if (!lmr) {
		vt_fail("local MR: %s", strerror(errno));
		exit(1);
	}
	if (rc_pair_init(&p)) {
		for (i = 0; i < sizeof(mr_cases) / sizeof(mr_cases[0]); i++)
			mr_case_run(&p, &mr_cases[i], lmr, lbuf);
	}
	rc_pair_fini(&p);
	ibv_dereg_mr(lmr);
	free(lbuf);
}

/* ---- 1b. SQD: drain and resume ----------------------------------------- */

/*
 * RTS -> SQD with RDMA WRITEs in flight: the modify returns (upstream
 * irdma waits for the device's suspend-complete AE, at most 5 s) with
 * every WRITE completed and the QP in SQD. Not SQD -> RTS: upstream
 * irdma_modify_qp_roce() flushes a QP it took past RTS, SQD included, so
 * the device QP is in ERROR after it and the resume fails there.
 */
#define SQD_WRITES	8u
#define SQD_LEN		4096u

static void test_sqd(void)
{
	uint8_t *lbuf = page_alloc(SQD_LEN), *rbuf = page_alloc(SQD_LEN * SQD_WRITES);
	struct ibv_mr *lmr = NULL, *rmr = NULL;
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr attr;
	struct ibv_send_wr wr, *bad;
	struct ibv_sge sge;
	struct ibv_wc wc;
	struct rc_pair p;
	unsigned int i, good = 0;
	double t0, dt;
	int err;

	lmr = ibv_reg_mr(pd, lbuf, SQD_LEN, IBV_ACCESS_LOCAL_WRITE);
	rmr = ibv_reg_mr(pd, rbuf, SQD_LEN * SQD_WRITES,
			 IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (!lmr || !rmr) {
		vt_fail("SQD: MRs: %s", strerror(errno));
		goto out_mr;
	}
	if (!rc_pair_init(&p))
		goto out;
	fill(lbuf, SQD_LEN);
	memset(rbuf, 0, SQD_LEN * SQD_WRITES);
	for (i = 0; i < SQD_WRITES; i++) {
		sge = (struct ibv_sge){ (uintptr_t)lbuf, SQD_LEN, lmr->lkey };
		memset(&wr, 0, sizeof(wr));
		wr.wr_id = i;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		wr.opcode = IBV_WR_RDMA_WRITE;
		wr.send_flags = IBV_SEND_SIGNALED;
		wr.wr.rdma.remote_addr = (uintptr_t)rbuf + i * SQD_LEN;
		wr.wr.rdma.rkey = rmr->rkey;
		if (ibv_post_send(p.qp[0], &wr, &bad)) {
			vt_fail("SQD: post_send %u: %s", i, strerror(errno));
			goto out;
		}
	}
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_SQD;
	t0 = now_s();
	err = ibv_modify_qp(p.qp[0], &attr, IBV_QP_STATE);
	dt = now_s() - t0;
	if (!vt_check(!err && dt < 2.0,
		      "SQD: RTS -> SQD with %u WRITEs posted returns 0 in under 2 s (%d after %.3f s)",
		      SQD_WRITES, err, dt))
		goto out;
	vt_check(!ibv_query_qp(p.qp[0], &attr, IBV_QP_STATE, &init) &&
		 attr.qp_state == IBV_QPS_SQD, "SQD: the QP queries as SQD");
	for (i = 0; i < SQD_WRITES; i++)
		if (poll1(p.cq[0], &wc) && wc.status == IBV_WC_SUCCESS &&
		    !memcmp(rbuf + (size_t)wc.wr_id * SQD_LEN, lbuf, SQD_LEN))
			good++;
	vt_check(good == SQD_WRITES,
		 "SQD: all %u WRITEs posted before it completed, data right (%u)",
		 SQD_WRITES, good);
out:
	rc_pair_fini(&p);
out_mr:
	if (rmr)
		ibv_dereg_mr(rmr);
	if (lmr)
		ibv_dereg_mr(lmr);
	free(rbuf);
	free(lbuf);
}

/* ---- 2. QP shapes ------------------------------------------------------------ */

static struct ibv_cq *shape_cq;

/*
 * Creates a QP of @type with @cap (plain ibv_create_qp), checks that the
 * capabilities returned and those ibv_query_qp(IBV_QP_CAP) reports are at
 * least the ones asked for, and destroys it.
 */
static void qp_shape(const char *who, enum ibv_qp_type type,
		     struct ibv_qp_cap cap, int sig_all)
{
	struct ibv_qp_init_attr ia = { 0 }, qia;
	struct ibv_qp_attr qa;
	struct ibv_qp *qp;

	ia.send_cq = shape_cq;
	ia.recv_cq = shape_cq;
	ia.qp_type = type;
	ia.cap = cap;
	ia.sq_sig_all = sig_all;
	qp = ibv_create_qp(pd, &ia);
	if (!vt_check(qp != NULL,
		      "%s: %s QP, send %u WR x %u SGE, recv %u WR x %u SGE, inline %u: %s",
		      who, type == IBV_QPT_RC ? "RC" : "UD", cap.max_send_wr,
		      cap.max_send_sge, cap.max_recv_wr, cap.max_recv_sge,
		      cap.max_inline_data, qp ? "created" : strerror(errno)))
		return;
	vt_check(ia.cap.max_send_wr >= cap.max_send_wr &&
		 ia.cap.max_recv_wr >= cap.max_recv_wr &&
		 ia.cap.max_send_sge >= cap.max_send_sge &&
		 ia.cap.max_recv_sge >= cap.max_recv_sge &&
		 ia.cap.max_inline_data >= cap.max_inline_data,
		 "%s: capabilities returned %u/%u WR, %u/%u SGE, inline %u",
		 who, ia.cap.max_send_wr, ia.cap.max_recv_wr,
		 ia.cap.max_send_sge, ia.cap.max_recv_sge,
		 ia.cap.max_inline_data);
	if (!ibv_query_qp(qp, &qa, IBV_QP_CAP, &qia))
		vt_check(qa.cap.max_send_sge >= cap.max_send_sge &&
			 qa.cap.max_recv_sge >= cap.max_recv_sge &&
			 qa.cap.max_inline_data >= cap.max_inline_data,
			 "%s: ibv_query_qp(IBV_QP_CAP): %u/%u SGE, inline %u",
			 who, qa.cap.max_send_sge, qa.cap.max_recv_sge,
			 qa.cap.max_inline_data);
	else
		vt_fail("%s: ibv_query_qp: %s", who, strerror(errno));
	ibv_destroy_qp(qp);
}

/* libfabric's vrb_find_max_inline(): doubling, then bisection. */
static int find_max_inline(enum ibv_qp_type type)
{
	struct ibv_qp_init_attr ia = { 0 };
	struct ibv_qp *qp = NULL;
	int max = 2, rst = 0, pos, neg;

	ia.send_cq = shape_cq;
	ia.recv_cq = shape_cq;
	ia.qp_type = type;
	ia.cap.max_send_wr = 1;
	ia.cap.max_send_sge = 1;
	ia.cap.max_recv_wr = 1;
	ia.cap.max_recv_sge = 1;
	ia.sq_sig_all = 1;
	do {
		if (qp)
			ibv_destroy_qp(qp);
		ia.cap.max_inline_data = max;
		qp = ibv_create_qp(pd, &ia);
		if (qp)
			rst = max;
	} while (qp && max < (1 << 20) && (max *= 2));
	if (rst) {
		pos = rst;
		neg = max;
		do {
			max = pos + (neg - pos) / 2;
			if (qp)
				ibv_destroy_qp(qp);
			ia.cap.max_inline_data = max;
			qp = ibv_create_qp(pd, &ia);
			if (qp)
				pos = max;
			else
				neg = max;
		} while (neg - pos > 1);
		rst = pos;
	}
	if (qp)
		ibv_destroy_qp(qp);
	return rst;
}

static void test_qp_shapes(void)
{
	struct ibv_qp_cap c;
	int inl;

	shape_cq = ibv_create_cq(ctx, 4096, NULL, NULL, 0);
	if (!shape_cq) {
		vt_fail("create_cq: %s", strerror(errno));
		exit(1);
	}
	/* qperf rd_open(): one SGE each way, NCQE = 1024 */
	c = (struct ibv_qp_cap){ .max_send_wr = 0, .max_recv_wr = 1024,
				 .max_send_sge = 1, .max_recv_sge = 1 };
	qp_shape("qperf rc_bw server", IBV_QPT_RC, c, 0);
	qp_shape("qperf ud_bw server", IBV_QPT_UD, c, 0);
	c.max_send_wr = 1024;
	c.max_recv_wr = 0;
	qp_shape("qperf rc_bw client", IBV_QPT_RC, c, 0);
	qp_shape("qperf ud_bw client", IBV_QPT_UD, c, 0);
	c.max_send_wr = 1;
	c.max_recv_wr = 0;
	qp_shape("qperf rc_rdma_read_lat", IBV_QPT_RC, c, 0);
	c.max_send_wr = 0;
	c.max_recv_wr = 1;
	qp_shape("qperf rc_rdma_write_bw server (rd_server_nop)", IBV_QPT_RC,
		 c, 0);
	c.max_send_wr = 1;
	c.max_recv_wr = 1;
	qp_shape("qperf rc_lat", IBV_QPT_RC, c, 0);

	/* libfabric vrb_find_max_inline() and vrb_get_qp_cap() */
	inl = find_max_inline(IBV_QPT_RC);
	vt_expect_u64("libfabric inline bisection, RC QP", E810_MAX_INLINE,
		      inl);
	vt_expect_u64("libfabric inline bisection, UD QP", E810_MAX_INLINE,
		      find_max_inline(IBV_QPT_UD));
	c = (struct ibv_qp_cap){ .max_send_wr = 384, .max_recv_wr = 384,
				 .max_send_sge = 4, .max_recv_sge = 4,
				 .max_inline_data = inl };
	qp_shape("libfabric verbs msg endpoint", IBV_QPT_RC, c, 0);
	qp_shape("libfabric verbs dgram endpoint", IBV_QPT_UD, c, 0);
	ibv_destroy_cq(shape_cq);
}

/* ---- 3. UCX's ud_verbs interface ------------------------------------------- */

struct ucx_ud {
	struct ibv_cq *scq, *rcq;
	struct ibv_qp *qp;
	struct ibv_mr *rx_mr;
	uint8_t *rx;		/* UCX_RX_INIT segments of UCX_SEG + GRH */
	uint32_t rx_posted, rx_next;
};

#define RX_SLOT	(UCX_SEG + GRH_LEN)

/* uct_ud_iface_create_qp() */
static bool ucx_ud_open(struct ucx_ud *u)
{
	struct ibv_qp_init_attr_ex ia = { 0 };
	struct ibv_qp_init_attr qia;
	struct ibv_qp_attr a = { 0 };

	u->scq = ibv_create_cq(ctx, UCX_TX_LEN, NULL, NULL, 0);
	u->rcq = ibv_create_cq(ctx, UCX_RX_LEN, NULL, NULL, 0);
	if (!u->scq || !u->rcq) {
		vt_fail("UCX ud: create_cq: %s", strerror(errno));
		return false;
	}
	ia.send_cq = u->scq;
	ia.recv_cq = u->rcq;
	ia.qp_type = IBV_QPT_UD;
	ia.sq_sig_all = 0;
	ia.cap.max_send_wr = UCX_TX_LEN;
	ia.cap.max_recv_wr = UCX_RX_LEN;
	ia.cap.max_send_sge = UCX_TX_SGE;
	ia.cap.max_recv_sge = 1;
	ia.cap.max_inline_data = UCX_INLINE;
	ia.comp_mask = IBV_QP_INIT_ATTR_PD;
	ia.pd = pd;
	u->qp = ibv_create_qp_ex(ctx, &ia);
	if (!vt_check(u->qp != NULL,
		      "UCX ud: ibv_create_qp_ex UD 256 x 6 SGE, 4096 x 1 SGE, inline 64%s%s",
		      u->qp ? "" : ": ", u->qp ? "" : strerror(errno)))
		return false;
	vt_check(ia.cap.max_inline_data >= UCX_INLINE,
		 "UCX ud: max_inline_data %u >= 64", ia.cap.max_inline_data);
	a.qp_state = IBV_QPS_INIT;
	a.pkey_index = 0;
	a.port_num = 1;
	a.qkey = UCX_QKEY;
	if (ibv_modify_qp(u->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_QKEY)) {
		vt_fail("UCX ud: modify INIT: %s", strerror(errno));
		return false;
	}
	a.qp_state = IBV_QPS_RTR;
	if (ibv_modify_qp(u->qp, &a, IBV_QP_STATE)) {
		vt_fail("UCX ud: modify RTR: %s", strerror(errno));
		return false;
	}
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0;
	if (ibv_modify_qp(u->qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN)) {
		vt_fail("UCX ud: modify RTS: %s", strerror(errno));
		return false;
	}
	/* uct_ud_verbs_qp_max_send_sge(): asserts max_send_sge > 1 */
	memset(&a, 0, sizeof(a));
	if (ibv_query_qp(u->qp, &a, IBV_QP_CAP, &qia) ||
	    !vt_check(a.cap.max_send_sge > 1,
		      "UCX ud: ibv_query_qp max_send_sge %u > 1",
		      a.cap.max_send_sge))
		return false;
	/* uct_ib_iface_recv_mpool_init(): registered with the MD's flags */
	u->rx = page_alloc((size_t)UCX_RX_INIT * RX_SLOT);
	u->rx_mr = ibv_reg_mr(pd, u->rx, (size_t)UCX_RX_INIT * RX_SLOT,
			      UCX_ACCESS);
	return vt_check(u->rx_mr != NULL,
			"UCX ud: receive pool of 128 x 8 KiB registers with the MD's access%s%s",
			u->rx_mr ? "" : ": ", u->rx_mr ? "" : strerror(errno));
}

/* uct_ud_verbs_iface_post_recv_always(): a chained list of @n receives */
static bool ucx_ud_post_recvs(struct ucx_ud *u, uint32_t n)
{
	struct ibv_recv_wr wr[UCX_RX_BATCH], *bad;
	struct ibv_sge sge[UCX_RX_BATCH];
	uint32_t i, slot;

	for (i = 0; i < n; i++) {
		slot = (u->rx_next + i) % UCX_RX_INIT;
		sge[i].addr = (uintptr_t)(u->rx + (size_t)slot * RX_SLOT);
		sge[i].length = RX_SLOT;
		sge[i].lkey = u->rx_mr->lkey;
		wr[i].wr_id = slot;
		wr[i].sg_list = &sge[i];
		wr[i].num_sge = 1;
		wr[i].next = i + 1 < n ? &wr[i + 1] : NULL;
	}
	if (ibv_post_recv(u->qp, wr, &bad)) {
		vt_fail("UCX ud: post_recv of %u: %s", n, strerror(errno));
		return false;
	}
	u->rx_next = (u->rx_next + n) % UCX_RX_INIT;
	u->rx_posted += n;
	return true;
}

static void ucx_ud_close(struct ucx_ud *u)
{
	if (u->qp)
		ibv_destroy_qp(u->qp);
	if (u->rx_mr)
		ibv_dereg_mr(u->rx_mr);
	if (u->scq)
		ibv_destroy_cq(u->scq);
	if (u->rcq)
		ibv_destroy_cq(u->rcq);
	free(u->rx);
}

/*
 * 256 datagrams a -> b: even ones inline (<= 64 bytes, as UCX's short
 * active messages), odd ones a header and a payload in two SGEs (its
 * bcopy/zcopy path), every 64th signaled. Each arrives with its GRH and
 * bytes; a's SQ keeps room (the unsignaled WQEs are retired by the
 * signaled ones).
 */
static void ucx_ud_traffic(struct ucx_ud *a, struct ucx_ud *b)
{
	uint32_t i, len, good = 0, sent = 0, signaled = 0, comps = 0;
	uint8_t *tx = page_alloc(UD_MSGS * 1024), *msg;
	struct ibv_ah_attr aa = { 0 };
	struct ibv_send_wr wr, *bad;
	struct ibv_sge sge[2];
	struct ibv_mr *txmr;
	struct ibv_wc wc;
	struct ibv_ah *ah;

	txmr = ibv_reg_mr(pd, tx, UD_MSGS * 1024, UCX_ACCESS);
	aa.is_global = 1;
	aa.grh.dgid = gid;
	aa.grh.sgid_index = gidx;
	aa.grh.hop_limit = 255;
	aa.port_num = 1;
	ah = ibv_create_ah(pd, &aa);
	if (!txmr || !ah) {
		vt_fail("UCX ud: tx MR / AH: %s", strerror(errno));
		goto out;
	}
	for (i = 0; i < UD_MSGS; i++) {
		msg = tx + (size_t)i * 1024;
		len = i % 2 ? 100 + (i * 37) % 900 : 8 + i % (UCX_INLINE - 7);
		fill(msg, len);
		memset(&wr, 0, sizeof(wr));
		wr.wr_id = i;
		wr.opcode = IBV_WR_SEND;
		wr.sg_list = sge;
		wr.wr.ud.ah = ah;
		wr.wr.ud.remote_qpn = b->qp->qp_num;
		wr.wr.ud.remote_qkey = UCX_QKEY;
		if (i % 2) {
			sge[0] = (struct ibv_sge){ (uintptr_t)msg, 16,
						   txmr->lkey };
			sge[1] = (struct ibv_sge){ (uintptr_t)msg + 16,
						   len - 16, txmr->lkey };
			wr.num_sge = 2;
		} else {
			sge[0] = (struct ibv_sge){ (uintptr_t)msg, len, 0 };
			wr.num_sge = 1;
			wr.send_flags = IBV_SEND_INLINE;
		}
		if ((i + 1) % UCX_TX_MOD == 0) {
			wr.send_flags |= IBV_SEND_SIGNALED;
			signaled++;
		}
		if (ibv_post_send(a->qp, &wr, &bad)) {
			vt_fail("UCX ud: post_send %u: %s", i, strerror(errno));
			break;
		}
		sent++;
		/* receive as it arrives; keep b's RQ topped up by batches */
		while (comps < sent) {
			if (!poll1(b->rcq, &wc)) {
				vt_fail("UCX ud: datagram %u not received in 10 s",
					comps);
				goto out;
			}
			msg = tx + (size_t)comps * 1024;
			len = comps % 2 ? 100 + (comps * 37) % 900 :
					  8 + comps % (UCX_INLINE - 7);
			if (wc.status == IBV_WC_SUCCESS &&
			    wc.byte_len == GRH_LEN + len &&
			    (wc.wc_flags & IBV_WC_GRH) &&
			    wc.src_qp == a->qp->qp_num &&
			    !memcmp(b->rx + (size_t)wc.wr_id * RX_SLOT + GRH_LEN,
				    msg, len))
				good++;
			else if (comps - good < 4)
				vt_fail("UCX ud: datagram %u: %s, %u bytes (want %u), wc_flags 0x%x, src_qp %u",
					comps, ibv_wc_status_str(wc.status),
					wc.byte_len, GRH_LEN + len, wc.wc_flags,
					wc.src_qp);
			comps++;
			b->rx_posted--;
			if (UCX_RX_INIT - b->rx_posted >= UCX_RX_BATCH &&
			    !ucx_ud_post_recvs(b, UCX_RX_BATCH))
				goto out;
		}
		if ((i + 1) % UCX_TX_MOD == 0) {
			if (!poll1(a->scq, &wc) || wc.status != IBV_WC_SUCCESS ||
			    wc.wr_id != i) {
				vt_fail("UCX ud: signaled send %u: no good completion", i);
				goto out;
			}
		}
	}
	vt_check(good == UD_MSGS,
		 "UCX ud: %u of %u datagrams (inline and 2-SGE sends, every 64th signaled) arrived intact",
		 good, UD_MSGS);
	vt_check(ibv_poll_cq(a->scq, 1, &wc) == 0,
		 "UCX ud: exactly %u send completions (the signaled ones)",
		 signaled);
out:
	if (ah)
		ibv_destroy_ah(ah);
	if (txmr)
		ibv_dereg_mr(txmr);
	free(tx);
}

static void test_ucx_ud(void)
{
	struct ucx_ud a = { 0 }, b = { 0 };
	double t0;

	if (!ucx_ud_open(&a) || !ucx_ud_open(&b))
		goto out;
	/* uct_ud_verbs_iface_t init: post until fewer than a batch remain */
	t0 = now_s();
	while (b.rx_posted + UCX_RX_BATCH <= UCX_RX_INIT && now_s() < t0 + 10)
		if (!ucx_ud_post_recvs(&b, UCX_RX_BATCH))
			goto out;
	if (!vt_check(b.rx_posted == UCX_RX_INIT,
		      "UCX ud: %u receives posted in lists of 16", b.rx_posted))
		goto out;
	ucx_ud_traffic(&a, &b);
out:
	ucx_ud_close(&a);
	ucx_ud_close(&b);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s DEVICE IPV4\n", argv[0]);
		return 2;
	}
	ctx = vt_open_device(argv[1]);
	gidx = vt_find_roce_v2_ipv4_gid(ctx, argv[2]);
	if (gidx < 0 || ibv_query_gid(ctx, 1, gidx, &gid)) {
		vt_fail("no RoCEv2 GID for %s on %s", argv[2], argv[1]);
		return 1;
	}
	pd = ibv_alloc_pd(ctx);
	if (!pd) {
		vt_fail("alloc_pd: %s", strerror(errno));
		return 1;
	}
	test_mrs();
	test_sqd();
	test_qp_shapes();
	test_ucx_ud();
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return vt_fails ? 1 : 0;
}
