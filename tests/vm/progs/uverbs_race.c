// SPDX-License-Identifier: GPL-2.0-only
/*
 * uverbs_fuzz race: concurrent RESIZE_CQ on one CQ.
 *
 * ib_uverbs runs RESIZE_CQ with the CQ only read-locked, so two threads
 * can resize one CQ at once. Each iteration two threads issue raw
 * RESIZE_CQ commands (the provider serializes its own resizes, so they go
 * straight to the context's command fd) on the CQ of an RC QP, to two CQ
 * buffers this program registered:
 *   iteration % 3 == 0  both valid (256 and 512 entries): both succeed;
 *   iteration % 3 == 1  one valid, one larger than its buffer: EINVAL;
 *   iteration % 3 == 2  both to the same buffer: exactly one succeeds
 * (with -S, the stock irdma, only the first is checked: upstream sizes no
 * ring and keeps no buffer busy).
 * Then the provider resizes the CQ to a ring of its own (ibv_resize_cq),
 * after which neither raced buffer may still be held by the CQ: both
 * deregister. Then 4 messages each way over the RC QP pair; every
 * completion on the raced CQ must come back with its wr_id, opcode and
 * byte length, and the data must arrive intact: the device writes the
 * ring the kernel and the provider believe it uses.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <rdma/irdma-abi.h>

#include "uverbs_fuzz.h"

#define UR_MSGS 4
#define UR_MSG_MAX 1024
#define UR_PAGE 4096

struct ur_side {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buf;		/* UR_MSGS send + UR_MSGS receive slots */
	int gid;
	union ibv_gid lgid;
};

struct ur_thread {
	pthread_t t;
	pthread_barrier_t *bar;
	int fd;
	uint32_t cq;
	uint32_t cqe;
	uint64_t ring;
	int err;
	bool stop;
};

static void *ur_resizer(void *arg)
{
	struct ur_thread *t = arg;

	for (;;) {
		pthread_barrier_wait(t->bar);
		if (t->stop)
			return NULL;
		t->err = uf_resize_cq(t->fd, t->cq, t->cqe, t->ring, 8);
		pthread_barrier_wait(t->bar);
	}
}

static bool ur_setup(struct ur_side *s, const char *dev, const char *ip)
{
	struct ibv_qp_init_attr ia = { };

	s->ctx = vt_open_device(dev);
	s->gid = vt_find_roce_v2_ipv4_gid(s->ctx, ip);
	if (s->gid < 0) {
		vt_fail("%s: no RoCEv2 GID for %s", dev, ip);
		return false;
	}
	vt_ipv4_gid(ip, &s->lgid);
	s->pd = ibv_alloc_pd(s->ctx);
	s->cq = ibv_create_cq(s->ctx, 64, NULL, NULL, 0);
	s->buf = aligned_alloc(UR_PAGE, 2 * UR_MSGS * UR_MSG_MAX);
	if (!s->pd || !s->cq || !s->buf) {
		vt_fail("%s: PD/CQ: %s", dev, strerror(errno));
		return false;
	}
	s->mr = ibv_reg_mr(s->pd, s->buf, 2 * UR_MSGS * UR_MSG_MAX,
			   IBV_ACCESS_LOCAL_WRITE);
	ia.send_cq = s->cq;
	ia.recv_cq = s->cq;
	ia.cap.max_send_wr = 16;
	ia.cap.max_recv_wr = 16;
	ia.cap.max_send_sge = 1;
	ia.cap.max_recv_sge = 1;
	ia.qp_type = IBV_QPT_RC;
	ia.sq_sig_all = 1;
	s->qp = ibv_create_qp(s->pd, &ia);
	if (!s->mr || !s->qp) {
		vt_fail("%s: MR/QP: %s", dev, strerror(errno));
		return false;
	}
	return true;
}

static bool ur_connect(struct ur_side *s, const struct ur_side *peer)
{
	int ret;

	ret = vt_rc_connect(s->qp, peer->qp->qp_num, &peer->lgid, s->gid,
			    IBV_MTU_1024, 0, IBV_ACCESS_LOCAL_WRITE);
	if (!ret)
		return true;
	vt_fail("QP %u to RTS: %s", s->qp->qp_num, strerror(ret));
	return false;
}

static uint32_t ur_len(unsigned int iter, unsigned int i)
{
	return 1 + (iter * 37 + i * 211) % UR_MSG_MAX;
}

static uint8_t ur_byte(unsigned int iter, unsigned int i, unsigned int k,
		       bool from0)
{
	return (uint8_t)(iter * 7 + i * 31 + k + (from0 ? 0x80 : 0));
}

static bool ur_post(struct ur_side *s, unsigned int iter, bool from0)
{
	struct ibv_recv_wr rw, *brw;
	struct ibv_sge sge;
	unsigned int i, k;

	for (i = 0; i < UR_MSGS; i++) {
		sge.addr = (uintptr_t)s->buf + (UR_MSGS + i) * UR_MSG_MAX;
		sge.length = UR_MSG_MAX;
		sge.lkey = s->mr->lkey;
		memset(s->buf + (UR_MSGS + i) * UR_MSG_MAX, 0, UR_MSG_MAX);
		memset(&rw, 0, sizeof(rw));
		rw.wr_id = 0x10000 | (iter << 8) | i;
		rw.sg_list = &sge;
		rw.num_sge = 1;
		if (ibv_post_recv(s->qp, &rw, &brw))
			return false;
	}
	for (i = 0; i < UR_MSGS; i++) {
		uint8_t *p = s->buf + i * UR_MSG_MAX;

		for (k = 0; k < ur_len(iter, i); k++)
			p[k] = ur_byte(iter, i, k, from0);
	}
	return true;
}

static bool ur_send(struct ur_side *s, unsigned int iter)
{
	struct ibv_send_wr sw, *bsw;
	struct ibv_sge sge;
	unsigned int i;

	for (i = 0; i < UR_MSGS; i++) {
		sge.addr = (uintptr_t)s->buf + i * UR_MSG_MAX;
		sge.length = ur_len(iter, i);
		sge.lkey = s->mr->lkey;
		memset(&sw, 0, sizeof(sw));
		sw.wr_id = (iter << 8) | i;
		sw.sg_list = &sge;
		sw.num_sge = 1;
		sw.opcode = IBV_WR_SEND;
		if (ibv_post_send(s->qp, &sw, &bsw))
			return false;
	}
	return true;
}

/* Polls 2 * UR_MSGS completions of @s and checks every one. */
static bool ur_poll(struct ur_side *s, unsigned int iter, bool from0,
		    const char *who)
{
	unsigned int got = 0, sends = 0, recvs = 0, k;
	struct timespec t0, t;
	struct ibv_wc wc[8];
	bool good = true;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (got < 2 * UR_MSGS) {
		int n = ibv_poll_cq(s->cq, 8, wc), j;

		if (n < 0) {
			vt_fail("%s: ibv_poll_cq: %d", who, n);
			return false;
		}
		for (j = 0; j < n; j++, got++) {
			struct ibv_wc *w = &wc[j];
			unsigned int i = w->wr_id & 0xff;

			if (w->status != IBV_WC_SUCCESS) {
				vt_fail("%s iter %u: wr_id 0x%llx status %s",
					who, iter, (unsigned long long)w->wr_id,
					ibv_wc_status_str(w->status));
				good = false;
				continue;
			}
			if (w->wr_id == ((iter << 8) | i) &&
			    w->opcode == IBV_WC_SEND && i < UR_MSGS) {
				sends |= 1u << i;
				continue;
			}
			if (w->wr_id == (0x10000 | (iter << 8) | i) &&
			    w->opcode == IBV_WC_RECV && i < UR_MSGS &&
			    w->byte_len == ur_len(iter, i)) {
				const uint8_t *p = s->buf +
						   (UR_MSGS + i) * UR_MSG_MAX;

				for (k = 0; k < w->byte_len; k++)
					if (p[k] != ur_byte(iter, i, k, !from0))
						break;
				if (k == w->byte_len) {
					recvs |= 1u << i;
					continue;
				}
			}
			vt_fail("%s iter %u: unexpected completion wr_id 0x%llx opcode %d byte_len %u",
				who, iter, (unsigned long long)w->wr_id,
				w->opcode, w->byte_len);
			good = false;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 10) {
			vt_fail("%s iter %u: %u of %u completions in 10 s",
				who, iter, got, 2 * UR_MSGS);
			return false;
		}
	}
	return good && sends == (1u << UR_MSGS) - 1 &&
	       recvs == (1u << UR_MSGS) - 1;
}

int uf_race_main(const char *dev0, const char *dev1, const char *ip0,
		 const char *ip1, unsigned int iters)
{
	struct ur_side s0 = { }, s1 = { };
	struct ur_thread th[2] = { };
	pthread_barrier_t bar;
	unsigned int iter, i, both = 0, one = 0, bad = 0;
	uint8_t *rings;
	int fd;

	if (!ur_setup(&s0, dev0, ip0) || !ur_setup(&s1, dev1, ip1) ||
	    !ur_connect(&s0, &s1) || !ur_connect(&s1, &s0))
		return 1;
	fd = s0.ctx->cmd_fd;
	/* RA: 2 pages (256 CQEs), RB: 4 pages (512 CQEs). */
	rings = mmap(NULL, 6 * UR_PAGE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (rings == MAP_FAILED)
		return 1;
	memset(rings, 0, 6 * UR_PAGE);
	pthread_barrier_init(&bar, NULL, 3);
	for (i = 0; i < 2; i++) {
		th[i].bar = &bar;
		th[i].fd = fd;
		th[i].cq = s0.cq->handle;
		pthread_create(&th[i].t, NULL, ur_resizer, &th[i]);
	}
	vt_info("%u iterations of two concurrent RESIZE_CQ on CQ handle %u",
		iters, s0.cq->handle);
	for (iter = 0; iter < iters && bad < 5; iter++) {
		uint64_t ra = (uintptr_t)rings, rb = (uintptr_t)rings + 2 * UR_PAGE;
		uint32_t mra, mrb;
		int err, ok;

		if (uf_reg(fd, s0.pd->handle, rings, 2 * UR_PAGE, ra, 1, 2, 2,
			   0, 0, &mra) ||
		    uf_reg(fd, s0.pd->handle, rings + 2 * UR_PAGE, 4 * UR_PAGE,
			   rb, 1, 2, 4, 0, 0, &mrb)) {
			vt_fail("iter %u: CQ buffers not registered", iter);
			return 1;
		}
		th[0].ring = ra;
		th[0].cqe = 256;
		switch (iter % 3) {
		case 0:
			th[1].ring = rb;
			th[1].cqe = 512;
			break;
		case 1:
			th[1].ring = rb;
			th[1].cqe = 1024;
			break;
		default:
			th[1].ring = ra;
			th[1].cqe = 128;
			break;
		}
		pthread_barrier_wait(&bar);
		pthread_barrier_wait(&bar);
		ok = !th[0].err + !th[1].err;
		for (i = 0; i < 2; i++)
			uf_errno("race_resize", th[i].err);
		/*
		 * Upstream irdma sizes no ring and keeps no buffer busy: it
		 * accepts both of the last two variants.
		 */
		if (iter % 3 == 0 && ok != 2)
			vt_fail("iter %u: both valid resizes must succeed: %d/%d",
				iter, th[0].err, th[1].err);
		if (!uf_stock && iter % 3 == 1 &&
		    (th[0].err || th[1].err != -EINVAL))
			vt_fail("iter %u: want 0/EINVAL, got %d/%d", iter,
				th[0].err, th[1].err);
		if (!uf_stock && iter % 3 == 2 && ok != 1)
			vt_fail("iter %u: one of two resizes to one buffer must succeed: %d/%d",
				iter, th[0].err, th[1].err);
		both += ok == 2;
		one += ok == 1;
		/* The provider's own ring; then neither raced buffer is held. */
		err = ibv_resize_cq(s0.cq, iter % 2 ? 64 : 96);
		if (err) {
			vt_fail("iter %u: ibv_resize_cq: %s", iter,
				strerror(err));
			bad++;
		}
		err = uf_dereg(fd, mra);
		if (err) {
			vt_fail("iter %u: the 256-entry buffer is still held after the CQ moved on: %s",
				iter, strerror(-err));
			bad++;
		}
		err = uf_dereg(fd, mrb);
		if (err) {
			vt_fail("iter %u: the 512-entry buffer is still held after the CQ moved on: %s",
				iter, strerror(-err));
			bad++;
		}
		if (err || bad) {
			/* A held buffer cannot be reused: stop here. */
			break;
		}
		if (!ur_post(&s0, iter, true) || !ur_post(&s1, iter, false) ||
		    !ur_send(&s0, iter) || !ur_send(&s1, iter)) {
			vt_fail("iter %u: post: %s", iter, strerror(errno));
			bad++;
			break;
		}
		if (!ur_poll(&s0, iter, true, "raced CQ") ||
		    !ur_poll(&s1, iter, false, "peer CQ"))
			bad++;
	}
	for (i = 0; i < 2; i++)
		th[i].stop = true;
	pthread_barrier_wait(&bar);
	for (i = 0; i < 2; i++)
		pthread_join(th[i].t, NULL);
	vt_check(!bad && !vt_fails,
		 "race: %u iterations (%u with both resizes done, %u with one), traffic checked after each",
		 iter, both, one);
	ibv_destroy_qp(s0.qp);
	ibv_destroy_qp(s1.qp);
	ibv_dereg_mr(s0.mr);
	ibv_dereg_mr(s1.mr);
	ibv_destroy_cq(s0.cq);
	ibv_destroy_cq(s1.cq);
	ibv_dealloc_pd(s0.pd);
	ibv_dealloc_pd(s1.pd);
	return vt_fails ? 1 : 0;
}
