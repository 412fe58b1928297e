// SPDX-License-Identifier: GPL-2.0-only
/*
 * verbs_abi "data" mode: bytes through the six MRs of the loop (4 KiB ..
 * 256 MiB), so that the page lists the driver writes for them (no PBL,
 * level 1, level 2) are checked by the device following them, not only
 * by the counts `rdma resource show` prints.
 *
 * Two RC QPs on the same port are connected to each other through the
 * port's own RoCEv2 GID, and every byte of each buffer is set to a
 * function of its position and the buffer, so that a page list entry
 * naming the wrong page shows. For each MR:
 *   sweep  RDMA READ of the whole MR, 1 MiB at a time, through its rkey
 *          (the responder follows the list), and RDMA WRITE of the whole
 *          MR with it as the local SGE (the requester follows the list),
 *          each compared with the buffer;
 *   probes RDMA WRITE of 4 KiB of new bytes into the MR through its rkey
 *          at the first page, across pages, across the 511/512 boundary
 *          of a level-2 list's leaves, in the middle and at the end; the
 *          bytes must arrive and the bytes on either side stay;
 * every completion checked for status, opcode and WR id.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "verbs_abi.h"

#define VD_PSN		0x1234
#define VD_WAIT_S	10	/* for one completion; RC retries end sooner */

#define VD_CHUNK	(1u << 20)	/* bytes per sweep transfer */
#define VD_PROBE	4096u		/* bytes per probe */

struct vd_rig {
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp[2];
	uint8_t *io;			/* VD_CHUNK of results, VD_PROBE of source */
	struct ibv_mr *io_mr;
	struct ibv_mr *mr[VA_NR_MR];
	uint32_t seed;
};

static bool vd_setup(struct va_env *env, struct vd_rig *r)
{
	const int rw = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
		       IBV_ACCESS_REMOTE_READ;
	struct ibv_qp_init_attr ia = { 0 };
	union ibv_gid gid;
	int i;

	r->pd = ibv_alloc_pd(env->ctx);
	r->cq = r->pd ? ibv_create_cq(env->ctx, 16, NULL, NULL, 0) : NULL;
	if (!r->cq)
		return vt_check(false, "data: PD and CQ: %s", strerror(errno));
	ia.send_cq = r->cq;
	ia.recv_cq = r->cq;
	ia.qp_type = IBV_QPT_RC;
	ia.cap.max_send_wr = 4;
	ia.cap.max_recv_wr = 1;
	ia.cap.max_send_sge = 1;
	ia.cap.max_recv_sge = 1;
	for (i = 0; i < 2; i++) {
		r->qp[i] = ibv_create_qp(r->pd, &ia);
		if (!r->qp[i])
			return vt_check(false, "data: create_qp: %s",
					strerror(errno));
	}
	if (ibv_query_gid(env->ctx, 1, env->gid_index, &gid) ||
	    vt_rc_connect(r->qp[0], r->qp[1]->qp_num, &gid, env->gid_index,
			  env->pattr.active_mtu, VD_PSN, rw) ||
	    vt_rc_connect(r->qp[1], r->qp[0]->qp_num, &gid, env->gid_index,
			  env->pattr.active_mtu, VD_PSN, rw))
		return vt_check(false, "data: QPs to RTS: %s", strerror(errno));
	if (posix_memalign((void **)&r->io, 4096, VD_CHUNK + VD_PROBE))
		return vt_check(false, "data: no memory");
	r->io_mr = ibv_reg_mr(r->pd, r->io, VD_CHUNK + VD_PROBE, rw);
	if (!r->io_mr)
		return vt_check(false, "data: reg_mr (I/O buffer): %s",
				strerror(errno));
	for (i = 0; i < env->nr_mr; i++) {
		r->mr[i] = ibv_reg_mr(r->pd, env->buf[i], env->len[i], rw);
		if (!r->mr[i])
			return vt_check(false, "data: reg_mr %zu bytes: %s",
					env->len[i], strerror(errno));
	}
	return vt_check(true, "data: two RC QPs (%u <-> %u) at RTS, %d MRs",
			r->qp[0]->qp_num, r->qp[1]->qp_num, env->nr_mr);
}

static bool vd_teardown(struct va_env *env, struct vd_rig *r)
{
	bool good = true;
	int i;

	for (i = 0; i < env->nr_mr; i++)
		if (r->mr[i] && ibv_dereg_mr(r->mr[i]))
			good = false;
	if (r->io_mr && ibv_dereg_mr(r->io_mr))
		good = false;
	for (i = 0; i < 2; i++)
		if (r->qp[i] && ibv_destroy_qp(r->qp[i]))
			good = false;
	if (r->cq && ibv_destroy_cq(r->cq))
		good = false;
	if (r->pd && ibv_dealloc_pd(r->pd))
		good = false;
	free(r->io);
	return vt_check(good, "data: everything destroyed");
}

/* One signalled WR on QP 0 and its completion; true if it succeeded. */
static bool vd_rdma(struct vd_rig *r, enum ibv_wr_opcode op,
		    struct ibv_sge *sge, uint64_t raddr, uint32_t rkey,
		    const char *what)
{
	enum ibv_wc_opcode want = op == IBV_WR_RDMA_READ ? IBV_WC_RDMA_READ :
							    IBV_WC_RDMA_WRITE;
	struct ibv_send_wr wr = { 0 }, *bad;
	struct timespec t0, t;
	struct ibv_wc wc;
	unsigned int n;
	int got = 0;

	wr.wr_id = raddr;
	wr.opcode = op;
	wr.sg_list = sge;
	wr.num_sge = 1;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = rkey;
	if (ibv_post_send(r->qp[0], &wr, &bad))
		return vt_check(false, "%s: post_send: %s", what,
				strerror(errno));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (n = 1; !got; n++) {
		got = ibv_poll_cq(r->cq, 1, &wc);
		if (!got && !(n % 1024)) {
			clock_gettime(CLOCK_MONOTONIC, &t);
			if (t.tv_sec - t0.tv_sec > VD_WAIT_S)
				break;
		}
	}
	if (got != 1)
		return vt_check(false, "%s: no completion (poll %d)", what, got);
	if (wc.status != IBV_WC_SUCCESS || wc.opcode != want ||
	    wc.wr_id != raddr)
		return vt_check(false, "%s: completion status %s, opcode %d (want %d), wr_id %s",
				what, ibv_wc_status_str(wc.status), wc.opcode,
				want, wc.wr_id == raddr ? "ok" : "wrong");
	return true;
}

/* Byte index of the first difference, or -1. */
static long vd_diff(const uint8_t *a, const uint8_t *b, size_t n)
{
	size_t i;

	if (!memcmp(a, b, n))
		return -1;
	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			break;
	return (long)i;
}

/* Every 8 bytes of the buffer: their offset and the buffer's number. */
static void vd_stamp(uint8_t *p, size_t len, int i)
{
	uint64_t w;
	size_t o;

	for (o = 0; o + 8 <= len; o += 8) {
		w = o | (uint64_t)(i + 1) << 56;
		memcpy(p + o, &w, 8);
	}
}

/* READ and WRITE-from of the whole MR @i; true if every byte was right. */
static bool vd_sweep(struct va_env *env, struct vd_rig *r, int i)
{
	uint8_t *p = env->buf[i];
	size_t len = env->len[i], o, n;
	struct ibv_sge sge;
	char what[96];
	long d;

	for (o = 0; o < len; o += n) {
		n = len - o < VD_CHUNK ? len - o : VD_CHUNK;
		snprintf(what, sizeof(what), "data: MR of %zu bytes, %zu at %zu",
			 len, n, o);
		memset(r->io, 0, n);
		sge = (struct ibv_sge){ (uintptr_t)r->io, (uint32_t)n,
					r->io_mr->lkey };
		if (!vd_rdma(r, IBV_WR_RDMA_READ, &sge, (uintptr_t)(p + o),
			     r->mr[i]->rkey, what))
			return false;
		d = vd_diff(r->io, p + o, n);
		if (d >= 0)
			return vt_check(false, "%s: READ: byte %ld is 0x%02x, want 0x%02x",
					what, d, r->io[d], p[o + d]);
		memset(r->io, 0, n);
		sge = (struct ibv_sge){ (uintptr_t)(p + o), (uint32_t)n,
					r->mr[i]->lkey };
		if (!vd_rdma(r, IBV_WR_RDMA_WRITE, &sge, (uintptr_t)r->io,
			     r->io_mr->rkey, what))
			return false;
		d = vd_diff(r->io, p + o, n);
		if (d >= 0)
			return vt_check(false, "%s: WRITE from it: byte %ld is 0x%02x, want 0x%02x",
					what, d, r->io[d], p[o + d]);
	}
	return true;
}

/* 4 KiB of new bytes WRITTEN into MR @i at @off; true if they arrived. */
static bool vd_probe(struct va_env *env, struct vd_rig *r, int i, size_t off)
{
	uint8_t *m = (uint8_t *)env->buf[i] + off, *src = r->io + VD_CHUNK;
	size_t len = env->len[i] - off < VD_PROBE ? env->len[i] - off : VD_PROBE;
	bool has_after = off + len < env->len[i];
	uint8_t before = off ? m[-1] : 0, after = has_after ? m[len] : 0;
	struct ibv_sge sge = { (uintptr_t)src, (uint32_t)len, r->io_mr->lkey };
	char what[96];
	size_t k;
	long d;

	snprintf(what, sizeof(what), "data: MR of %zu bytes, WRITE at %zu",
		 env->len[i], off);
	for (k = 0; k < len; k++)
		src[k] = (uint8_t)vt_rand(&r->seed);
	if (!vd_rdma(r, IBV_WR_RDMA_WRITE, &sge, (uintptr_t)m, r->mr[i]->rkey,
		     what))
		return false;
	d = vd_diff(m, src, len);
	if (d >= 0)
		return vt_check(false, "%s: byte %ld is 0x%02x, want 0x%02x",
				what, d, m[d], src[d]);
	if ((off && m[-1] != before) || (has_after && m[len] != after))
		return vt_check(false, "%s: a byte beside the target changed",
				what);
	return true;
}

void va_data(struct va_env *env)
{
	struct vd_rig r = { .seed = 0x5eed };
	unsigned int probes, good;
	size_t at[6];
	int i, k;

	if (vd_setup(env, &r)) {
		for (i = 0; i < env->nr_mr; i++) {
			vd_stamp((uint8_t *)env->buf[i], env->len[i], i);
			vt_check(vd_sweep(env, &r, i),
				 "data: MR of %zu bytes: every byte READ through its rkey and sent from it through its lkey",
				 env->len[i]);
			/* first page, across pages, leaf 511/512, middle, end */
			at[0] = 0;
			at[1] = 4096 + 100;
			at[2] = 511 * 4096 + 2048;
			at[3] = 512 * 4096;
			at[4] = env->len[i] / 2 + 12344;
			at[5] = env->len[i] - 100;
			probes = good = 0;
			for (k = 0; k < 6; k++) {
				if (at[k] >= env->len[i])
					continue;
				probes++;
				good += vd_probe(env, &r, i, at[k]);
			}
			vt_check(good == probes,
				 "data: MR of %zu bytes: %u of %u WRITEs through its rkey arrived",
				 env->len[i], good, probes);
		}
	}
	vd_teardown(env, &r);
}
