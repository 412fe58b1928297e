// SPDX-License-Identifier: GPL-2.0-only
/*
 * scale_qp_mr DEVICE IPV4 NQP NMR: NQP RC QPs and NMR MRs live at once on
 * one device, used, then destroyed, with the time each step took per
 * object (the scale target of docs/performance.md).
 *
 * The QPs are NQP/2 connected pairs of DEVICE (over the RoCEv2 GID of IPV4;
 * the engine loops the frames back). The MRs are NMR 64-byte slots of one
 * buffer, each registered on its own with remote write access. Checked:
 *  - the device offers at least NQP QPs and NMR MRs (ibv_query_device);
 *  - every QP is created and brought to RTS, every MR registered;
 *  - every MR is written by an RDMA WRITE through its own rkey, spread
 *    over all the client QPs, and then holds exactly the bytes sent (one
 *    comparison of the whole buffer; the first wrong slot is named);
 *  - every client QP then SENDs its index to its peer: NQP/2 send and
 *    NQP/2 receive completions, each successful, with the right opcode,
 *    wr_id, byte count and payload;
 *  - every MR deregisters, every QP and CQ is destroyed (return 0).
 * Timing lines (vt_info, indented) give microseconds per object for create,
 * connect, register, deregister and destroy; they are reported, not
 * checked. Exit 0 when every check passed, 1 otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vt.h"

#define SLOT		64u
#define PSN		0x123u
#define SEND_LEN	8u

struct pool {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *scq, *rcq;
	struct ibv_qp **qp;
	struct ibv_mr **mr;
	unsigned int nqp, nmr;
	uint8_t *dst, *src, *rbuf;
	struct ibv_mr *src_mr, *rbuf_mr;
	union ibv_gid gid;
	int gid_index;
};

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void die(const char *what)
{
	vt_fail("%s: %s", what, strerror(errno));
	exit(1);
}

static void *zalloc(size_t len)
{
	void *p;

	if (posix_memalign(&p, 4096, len))
		die("posix_memalign");
	memset(p, 0, len);
	return p;
}

static struct ibv_qp *create_qp(struct pool *p)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = p->scq,
		.recv_cq = p->rcq,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 16, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1,
			 .max_inline_data = SEND_LEN },
	};

	return ibv_create_qp(p->pd, &ia);
}

/* INIT, RTR towards @remote_qpn (our own GID), RTS. */
static int connect_qp(struct pool *p, struct ibv_qp *qp, uint32_t remote_qpn)
{
	return vt_rc_connect(qp, remote_qpn, &p->gid, p->gid_index,
			     IBV_MTU_1024, PSN, IBV_ACCESS_REMOTE_WRITE);
}

static void setup(struct pool *p, const char *dev, const char *ipv4)
{
	struct ibv_device_attr attr;

	p->ctx = vt_open_device(dev);
	if (ibv_query_device(p->ctx, &attr))
		die("ibv_query_device");
	vt_expect_ge("max_qp", p->nqp, attr.max_qp);
	vt_expect_ge("max_mr", p->nmr + 2, attr.max_mr);
	vt_expect_ge("max_cqe", p->nqp, attr.max_cqe);
	p->gid_index = vt_find_roce_v2_ipv4_gid(p->ctx, ipv4);
	if (p->gid_index < 0) {
		vt_fail("%s: no RoCEv2 GID for %s", dev, ipv4);
		exit(1);
	}
	if (ibv_query_gid(p->ctx, 1, p->gid_index, &p->gid))
		die("ibv_query_gid");
	p->pd = ibv_alloc_pd(p->ctx);
	if (!p->pd)
		die("ibv_alloc_pd");
	p->scq = ibv_create_cq(p->ctx, p->nqp, NULL, NULL, 0);
	p->rcq = ibv_create_cq(p->ctx, p->nqp, NULL, NULL, 0);
	if (!p->scq || !p->rcq)
		die("ibv_create_cq");
	p->qp = calloc(p->nqp, sizeof(*p->qp));
	p->mr = calloc(p->nmr, sizeof(*p->mr));
	p->dst = zalloc((size_t)p->nmr * SLOT);
	p->src = zalloc((size_t)p->nmr * SLOT);
	p->rbuf = zalloc((size_t)p->nqp * SEND_LEN);
	if (!p->qp || !p->mr)
		die("calloc");
	p->src_mr = ibv_reg_mr(p->pd, p->src, (size_t)p->nmr * SLOT,
			       IBV_ACCESS_LOCAL_WRITE);
	p->rbuf_mr = ibv_reg_mr(p->pd, p->rbuf, (size_t)p->nqp * SEND_LEN,
				IBV_ACCESS_LOCAL_WRITE);
	if (!p->src_mr || !p->rbuf_mr)
		die("ibv_reg_mr (buffers)");
}

/* Creates, connects and registers everything; prints the time per object. */
static bool build(struct pool *p)
{
	unsigned int i;
	double t0, t1;

	t0 = now_us();
	for (i = 0; i < p->nqp; i++) {
		p->qp[i] = create_qp(p);
		if (!p->qp[i]) {
			vt_fail("ibv_create_qp #%u of %u: %s", i, p->nqp,
				strerror(errno));
			return false;
		}
	}
	t1 = now_us();
	vt_ok("%u RC QPs created", p->nqp);
	vt_info("create_qp: %.1f us/QP", (t1 - t0) / p->nqp);
	for (i = 0; i < p->nqp; i++) {
		if (connect_qp(p, p->qp[i], p->qp[i ^ 1]->qp_num)) {
			vt_fail("QP #%u (qpn %u) to RTS: %s", i,
				p->qp[i]->qp_num, strerror(errno));
			return false;
		}
	}
	t0 = now_us();
	vt_ok("%u QPs connected in pairs (INIT, RTR, RTS)", p->nqp);
	vt_info("modify_qp x3: %.1f us/QP", (t0 - t1) / p->nqp);
	for (i = 0; i < p->nmr; i++) {
		p->mr[i] = ibv_reg_mr(p->pd, p->dst + (size_t)i * SLOT, SLOT,
				      IBV_ACCESS_LOCAL_WRITE |
				      IBV_ACCESS_REMOTE_WRITE);
		if (!p->mr[i]) {
			vt_fail("ibv_reg_mr #%u of %u: %s", i, p->nmr,
				strerror(errno));
			return false;
		}
	}
	t1 = now_us();
	vt_ok("%u MRs registered", p->nmr);
	vt_info("reg_mr: %.1f us/MR", (t1 - t0) / p->nmr);
	return true;
}

/* Polls @n completions of @cq; checks each with @check. */
static unsigned int drain(struct ibv_cq *cq, unsigned int n, double secs,
			  bool (*check)(struct pool *, const struct ibv_wc *),
			  struct pool *p)
{
	struct ibv_wc wc[64];
	double end = now_us() + secs * 1e6;
	unsigned int got = 0, bad = 0;
	int k, i;

	while (got < n && now_us() < end) {
		k = ibv_poll_cq(cq, 64, wc);
		if (k < 0)
			die("ibv_poll_cq");
		for (i = 0; i < k; i++)
			if (!check(p, &wc[i]) && bad++ < 5)
				vt_fail("completion wr_id %llu: status %s, opcode %d, %u bytes",
					(unsigned long long)wc[i].wr_id,
					ibv_wc_status_str(wc[i].status),
					wc[i].opcode, wc[i].byte_len);
		got += k;
	}
	return bad ? 0 : got;
}

static bool send_ok(struct pool *p, const struct ibv_wc *wc)
{
	return wc->status == IBV_WC_SUCCESS && wc->opcode == IBV_WC_SEND &&
	       wc->wr_id < p->nqp && !(wc->wr_id & 1);
}

static bool recv_ok(struct pool *p, const struct ibv_wc *wc)
{
	uint64_t got;

	if (wc->status != IBV_WC_SUCCESS || wc->opcode != IBV_WC_RECV ||
	    wc->byte_len != SEND_LEN || wc->wr_id >= p->nqp ||
	    !(wc->wr_id & 1) || wc->qp_num != p->qp[wc->wr_id]->qp_num)
		return false;
	memcpy(&got, p->rbuf + wc->wr_id * SEND_LEN, sizeof(got));
	/* The client (even) QP sent its own index. */
	return got == (wc->wr_id ^ 1);
}

/*
 * Every MR gets one RDMA WRITE through its rkey, from the client QPs in
 * turn (unsignalled); then each client QP sends its index (signalled) to
 * its server, whose RQ holds one buffer.
 */
static void use(struct pool *p)
{
	unsigned int pairs = p->nqp / 2, i, q, per;
	struct ibv_send_wr wr, *bad;
	struct ibv_recv_wr rwr, *rbad;
	struct ibv_sge sge;
	uint64_t idx[1];
	size_t k;
	double t0;

	for (k = 0; k < (size_t)p->nmr * SLOT; k++)
		p->src[k] = (uint8_t)(k * 7 + k / SLOT * 13 + 1);
	for (i = 1; i < p->nqp; i += 2) {
		sge = (struct ibv_sge){ (uintptr_t)(p->rbuf + i * SEND_LEN),
					SEND_LEN, p->rbuf_mr->lkey };
		rwr = (struct ibv_recv_wr){ .wr_id = i, .sg_list = &sge,
					    .num_sge = 1 };
		if (ibv_post_recv(p->qp[i], &rwr, &rbad))
			die("ibv_post_recv");
	}
	t0 = now_us();
	per = (p->nmr + pairs - 1) / pairs;
	if (per > 15) {
		vt_fail("%u MRs over %u client QPs: more than 15 WRITEs each",
			p->nmr, pairs);
		exit(1);
	}
	for (q = 0; q < pairs; q++) {
		for (i = q * per; i < (q + 1) * per && i < p->nmr; i++) {
			sge = (struct ibv_sge){ (uintptr_t)(p->src + (size_t)i * SLOT),
						SLOT, p->src_mr->lkey };
			wr = (struct ibv_send_wr){
				.wr_id = ~0ull, .sg_list = &sge, .num_sge = 1,
				.opcode = IBV_WR_RDMA_WRITE,
				.wr.rdma = { (uintptr_t)(p->dst + (size_t)i * SLOT),
					     p->mr[i]->rkey },
			};
			if (ibv_post_send(p->qp[2 * q], &wr, &bad))
				die("ibv_post_send (WRITE)");
		}
		idx[0] = 2 * q;
		sge = (struct ibv_sge){ (uintptr_t)idx, SEND_LEN, 0 };
		wr = (struct ibv_send_wr){
			.wr_id = 2 * q, .sg_list = &sge, .num_sge = 1,
			.opcode = IBV_WR_SEND,
			.send_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE,
		};
		if (ibv_post_send(p->qp[2 * q], &wr, &bad))
			die("ibv_post_send (SEND)");
	}
	vt_expect_u64("send completions (successful, SEND)", pairs,
		      drain(p->scq, pairs, 600, send_ok, p));
	vt_expect_u64("receive completions (successful, RECV, payload)",
		      pairs, drain(p->rcq, pairs, 60, recv_ok, p));
	vt_info("%u WRITEs + %u SENDs: %.0f ms", p->nmr, pairs,
		(now_us() - t0) / 1e3);
	for (k = 0; k < (size_t)p->nmr * SLOT; k += SLOT)
		if (memcmp(p->dst + k, p->src + k, SLOT))
			break;
	vt_check(k == (size_t)p->nmr * SLOT,
		 "all %u MRs hold the bytes written through their own rkey%s",
		 p->nmr, k == (size_t)p->nmr * SLOT ? "" : " (first wrong slot below)");
	if (k != (size_t)p->nmr * SLOT)
		vt_info("slot %zu (MR rkey 0x%x) differs", k / SLOT,
			p->mr[k / SLOT]->rkey);
}

static void teardown(struct pool *p)
{
	unsigned int i, bad = 0;
	double t0, t1;

	/* After a failed build only what exists goes. */
	t0 = now_us();
	for (i = 0; i < p->nmr && p->mr[i]; i++)
		bad += !!ibv_dereg_mr(p->mr[i]);
	t1 = now_us();
	vt_expect_u64("MRs that failed to deregister", 0, bad);
	vt_info("dereg_mr: %.1f us/MR", (t1 - t0) / p->nmr);
	for (i = 0, bad = 0; i < p->nqp && p->qp[i]; i++)
		bad += !!ibv_destroy_qp(p->qp[i]);
	t0 = now_us();
	vt_expect_u64("QPs that failed to be destroyed", 0, bad);
	vt_info("destroy_qp: %.1f us/QP", (t0 - t1) / p->nqp);
	bad = !!ibv_dereg_mr(p->src_mr) + !!ibv_dereg_mr(p->rbuf_mr) +
	      !!ibv_destroy_cq(p->scq) + !!ibv_destroy_cq(p->rcq) +
	      !!ibv_dealloc_pd(p->pd) + !!ibv_close_device(p->ctx);
	vt_expect_u64("buffers, CQs, PD and context that failed to go", 0, bad);
}

int main(int argc, char **argv)
{
	struct pool p = { 0 };

	if (argc != 5) {
		fprintf(stderr, "usage: %s DEVICE IPV4 NQP NMR\n", argv[0]);
		return 2;
	}
	p.nqp = strtoul(argv[3], NULL, 0) & ~1u;
	p.nmr = strtoul(argv[4], NULL, 0);
	if (p.nqp < 2 || !p.nmr) {
		fprintf(stderr, "NQP must be at least 2, NMR at least 1\n");
		return 2;
	}
	setup(&p, argv[1], argv[2]);
	if (build(&p))
		use(&p);
	teardown(&p);
	return vt_fails ? 1 : 0;
}
