// SPDX-License-Identifier: GPL-2.0-only
/*
 * ud_sqe DEVICE IPV4: a UD QP whose send fails enters the Send Queue
 * Error state and recovers with ibv_modify_qp(RTS, cur_qp_state = SQE),
 * the path ib_mad takes for QP1 (ib_mad_send_error()).
 *
 * Two UD QPs of DEVICE talk over the RoCEv2 GID of IPV4 (the engine loops
 * the frames back). Checked:
 *  - a send with a bad lkey completes with IBV_WC_LOC_PROT_ERR, opcode
 *    SEND and its wr_id; the QP then reports IBV_QPS_SQE;
 *  - in SQE the QP still receives: a datagram to it lands, bytes compared;
 *  - modify to RTS with IBV_QP_CUR_STATE = SQE succeeds, the QP reports RTS;
 *  - then SENDS datagrams of different sizes arrive, each completion
 *    successful, each payload's checksum as sent.
 * Exit 0 when every check passed, 1 otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vt.h"

#define QKEY		0x11111111u
#define GRH_LEN		40u
#define SLOT		2048u
#define SENDS		8u

struct side {
	struct ibv_qp *qp;
	struct ibv_cq *cq;
};

static void side_init(struct side *s, struct ibv_context *ctx,
		      struct ibv_pd *pd)
{
	struct ibv_qp_attr a = { 0 };

	s->qp = vt_create_qp(ctx, pd, IBV_QPT_UD, 64, 16, &s->cq);
	a.qp_state = IBV_QPS_INIT;
	a.port_num = 1;
	a.qkey = QKEY;
	if (ibv_modify_qp(s->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_QKEY)) {
		vt_fail("modify_qp INIT: %s", strerror(errno));
		exit(1);
	}
	a.qp_state = IBV_QPS_RTR;
	if (ibv_modify_qp(s->qp, &a, IBV_QP_STATE)) {
		vt_fail("modify_qp RTR: %s", strerror(errno));
		exit(1);
	}
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 7;
	if (ibv_modify_qp(s->qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN)) {
		vt_fail("modify_qp RTS: %s", strerror(errno));
		exit(1);
	}
}

static void post_recv(struct side *s, struct ibv_mr *mr, uint8_t *addr,
		      uint64_t wr_id)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)addr, .length = SLOT, .lkey = mr->lkey,
	};
	struct ibv_recv_wr wr = { 0 }, *bad;

	wr.wr_id = wr_id;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	if (ibv_post_recv(s->qp, &wr, &bad)) {
		vt_fail("post_recv: %s", strerror(errno));
		exit(1);
	}
}

static bool post_send(struct side *s, struct ibv_ah *ah, uint32_t dqpn,
		      uint8_t *addr, uint32_t len, uint32_t lkey,
		      uint64_t wr_id)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)addr, .length = len, .lkey = lkey,
	};
	struct ibv_send_wr wr = { 0 }, *bad;

	wr.wr_id = wr_id;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_SEND;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = dqpn;
	wr.wr.ud.remote_qkey = QKEY;
	if (ibv_post_send(s->qp, &wr, &bad)) {
		vt_fail("post_send: %s", strerror(errno));
		return false;
	}
	return true;
}

/* One completion of @s within 5 s; false (and a FAIL) if none came. */
static bool poll_one(struct side *s, struct ibv_wc *wc)
{
	int i, n;

	for (i = 0; i < 5000; i++) {
		n = ibv_poll_cq(s->cq, 1, wc);
		if (n < 0)
			break;
		if (n == 1)
			return true;
		usleep(1000);
	}
	vt_fail("no completion within 5 s");
	return false;
}

static enum ibv_qp_state qp_state(struct ibv_qp *qp)
{
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr a;

	if (ibv_query_qp(qp, &a, IBV_QP_STATE, &ia))
		return (enum ibv_qp_state)-1;
	return a.qp_state;
}

static uint32_t sum(const uint8_t *p, uint32_t len)
{
	uint32_t s = 0, i;

	for (i = 0; i < len; i++)
		s = s * 31 + p[i];
	return s;
}

static void fill(uint8_t *p, uint32_t len, uint32_t *seed)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)vt_rand(seed);
}

/* A send of @len bytes a -> b that must complete and arrive intact. */
static void send_checked(struct side *a, struct side *b, struct ibv_ah *ah,
			 struct ibv_mr *mr, uint8_t *src, uint8_t *dst,
			 uint32_t len, uint64_t id, uint32_t *seed)
{
	struct ibv_wc wc;
	uint32_t want;

	fill(src, len, seed);
	want = sum(src, len);
	post_recv(b, mr, dst, 1000 + id);
	if (!post_send(a, ah, b->qp->qp_num, src, len, mr->lkey, id))
		return;
	if (poll_one(a, &wc))
		vt_check(wc.status == IBV_WC_SUCCESS && wc.wr_id == id &&
			 wc.opcode == IBV_WC_SEND,
			 "send %llu of %u bytes completes (%s, wr_id %llu)",
			 (unsigned long long)id, len,
			 ibv_wc_status_str(wc.status),
			 (unsigned long long)wc.wr_id);
	if (poll_one(b, &wc))
		vt_check(wc.status == IBV_WC_SUCCESS && wc.wr_id == 1000 + id &&
			 wc.byte_len == GRH_LEN + len &&
			 sum(dst + GRH_LEN, len) == want,
			 "datagram %llu of %u bytes received, checksum %08x (%s, %u bytes)",
			 (unsigned long long)id, len, want,
			 ibv_wc_status_str(wc.status), wc.byte_len);
}

int main(int argc, char **argv)
{
	struct ibv_ah_attr aa = { 0 };
	struct ibv_qp_attr attr = { 0 };
	struct ibv_context *ctx;
	enum ibv_qp_state st;
	uint32_t seed = 0x5e5e, i, want;
	struct side a, b;
	struct ibv_wc wc;
	struct ibv_mr *mr;
	struct ibv_pd *pd;
	struct ibv_ah *ah;
	uint8_t *buf;
	int gidx, err;

	if (argc != 3) {
		fprintf(stderr, "usage: %s DEVICE IPV4\n", argv[0]);
		return 2;
	}
	ctx = vt_open_device(argv[1]);
	gidx = vt_find_roce_v2_ipv4_gid(ctx, argv[2]);
	if (gidx < 0 || ibv_query_gid(ctx, 1, gidx, &aa.grh.dgid)) {
		vt_fail("no RoCEv2 GID for %s on %s", argv[2], argv[1]);
		return 1;
	}
	pd = ibv_alloc_pd(ctx);
	buf = aligned_alloc(4096, 64 * SLOT);
	mr = pd && buf ? ibv_reg_mr(pd, buf, 64 * SLOT,
				    IBV_ACCESS_LOCAL_WRITE) : NULL;
	if (!mr) {
		vt_fail("pd / reg_mr: %s", strerror(errno));
		return 1;
	}
	side_init(&a, ctx, pd);
	side_init(&b, ctx, pd);
	aa.is_global = 1;
	aa.grh.sgid_index = gidx;
	aa.grh.hop_limit = 64;
	aa.port_num = 1;
	ah = ibv_create_ah(pd, &aa);
	if (!ah) {
		vt_fail("create_ah: %s", strerror(errno));
		return 1;
	}
	/* a's receive, posted before the error: SQE must not flush it. */
	post_recv(&a, mr, buf + 40 * SLOT, 500);

	/* 1. a send with a bad lkey */
	fill(buf, 64, &seed);
	if (post_send(&a, ah, b.qp->qp_num, buf, 64, mr->lkey ^ 0x5a, 42) &&
	    poll_one(&a, &wc))
		vt_check(wc.status == IBV_WC_LOC_PROT_ERR && wc.wr_id == 42 &&
			 wc.opcode == IBV_WC_SEND,
			 "a send with a bad lkey fails: %s, wr_id %llu, opcode %d",
			 ibv_wc_status_str(wc.status),
			 (unsigned long long)wc.wr_id, wc.opcode);
	/* The AE that moves it to SQE is asynchronous to the completion. */
	for (i = 0; i < 200 && (st = qp_state(a.qp)) == IBV_QPS_RTS; i++)
		usleep(10000);
	vt_check(st == IBV_QPS_SQE, "the QP is in SQE (state %d)", st);

	/* 2. in SQE the RQ works */
	fill(buf + 2 * SLOT, 300, &seed);
	want = sum(buf + 2 * SLOT, 300);
	if (post_send(&b, ah, a.qp->qp_num, buf + 2 * SLOT, 300, mr->lkey, 7) &&
	    poll_one(&b, &wc))
		vt_check(wc.status == IBV_WC_SUCCESS, "b -> a send completes (%s)",
			 ibv_wc_status_str(wc.status));
	if (poll_one(&a, &wc))
		vt_check(wc.status == IBV_WC_SUCCESS && wc.wr_id == 500 &&
			 wc.byte_len == GRH_LEN + 300 &&
			 sum(buf + 40 * SLOT + GRH_LEN, 300) == want,
			 "the QP in SQE receives a datagram intact (%s, wr_id %llu, %u bytes)",
			 ibv_wc_status_str(wc.status),
			 (unsigned long long)wc.wr_id, wc.byte_len);

	/* 3. SQE -> RTS, as ib_mad_send_error() does for QP1 */
	attr.qp_state = IBV_QPS_RTS;
	attr.cur_qp_state = IBV_QPS_SQE;
	err = ibv_modify_qp(a.qp, &attr, IBV_QP_STATE | IBV_QP_CUR_STATE);
	vt_check(!err, "modify_qp(RTS, cur_qp_state SQE): %s",
		 err ? strerror(err) : "ok");
	st = qp_state(a.qp);
	vt_check(st == IBV_QPS_RTS, "the QP is in RTS again (state %d)", st);

	/* 4. sends flow again */
	for (i = 0; i < SENDS; i++)
		send_checked(&a, &b, ah, mr, buf + (4 + i) * SLOT,
			     buf + (20 + i) * SLOT, 1 + i * 137, 100 + i,
			     &seed);
	vt_check(ibv_poll_cq(a.cq, 1, &wc) == 0 && ibv_poll_cq(b.cq, 1, &wc) == 0,
		 "no completion left over");

	ibv_destroy_ah(ah);
	ibv_destroy_qp(a.qp);
	ibv_destroy_qp(b.qp);
	ibv_destroy_cq(a.cq);
	ibv_destroy_cq(b.cq);
	ibv_dereg_mr(mr);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	free(buf);
	return vt_fails ? 1 : 0;
}
