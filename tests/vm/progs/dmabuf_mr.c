// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmabuf_mr DEVICE IPV4: an MR over a dma-buf (ibv_reg_dmabuf_mr(), the
 * kernel's reg_user_mr_dmabuf) used by RDMA WRITE and READ on the wire.
 *
 * The dma-buf comes from /dev/udmabuf (a sealed memfd exported as a
 * dma-buf), so its bytes are visible through the memfd's mapping. Two RC
 * QPs of DEVICE are connected to each other over the RoCEv2 GID of IPV4
 * (the engine loops the frames back). Checked:
 *  - the dma-buf MR registers at an IOVA of our choice, with remote access;
 *  - an RDMA WRITE from a normal MR into the dma-buf MR (at an offset)
 *    lands in the memfd, bytes compared, the bytes around it untouched;
 *  - an RDMA READ from the dma-buf MR into a normal MR returns its bytes;
 *  - an access beyond the dma-buf MR completes with a remote access error;
 *  - refusals: a file that is not a dma-buf (EINVAL/EBADF/ENOTSUP as the
 *    kernel decides: any error), a range beyond the dma-buf, a bad fd;
 *  - deregistration frees it (ibv_dereg_mr() returns 0).
 * Exit 0 when every check passed, 1 otherwise, 77 when the kernel has no
 * udmabuf.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/udmabuf.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "vt.h"

#define BUF_LEN		(1u << 20)
#define XFER_LEN	(64u << 10)
#define XFER_OFF	12345u
#define DMABUF_IOVA	0x7e5a00000000ull

struct side {
	struct ibv_qp *qp;
	struct ibv_cq *cq;
};

static int make_udmabuf(int *memfd, void **map)
{
	struct udmabuf_create create = { 0 };
	int dev, fd;

	dev = open("/dev/udmabuf", O_RDWR);
	if (dev < 0)
		vt_skip("no /dev/udmabuf: %s", strerror(errno));
	*memfd = memfd_create("dmabuf_mr", MFD_ALLOW_SEALING);
	if (*memfd < 0 || ftruncate(*memfd, BUF_LEN) ||
	    fcntl(*memfd, F_ADD_SEALS, F_SEAL_SHRINK)) {
		vt_fail("memfd: %s", strerror(errno));
		exit(1);
	}
	create.memfd = *memfd;
	create.flags = UDMABUF_FLAGS_CLOEXEC;
	create.offset = 0;
	create.size = BUF_LEN;
	fd = ioctl(dev, UDMABUF_CREATE, &create);
	close(dev);
	if (fd < 0) {
		vt_fail("UDMABUF_CREATE: %s", strerror(errno));
		exit(1);
	}
	*map = mmap(NULL, BUF_LEN, PROT_READ | PROT_WRITE, MAP_SHARED,
		    *memfd, 0);
	if (*map == MAP_FAILED) {
		vt_fail("mmap of the memfd: %s", strerror(errno));
		exit(1);
	}
	return fd;
}

static void side_init(struct side *s, struct ibv_context *ctx,
		      struct ibv_pd *pd)
{
	struct ibv_qp_attr a = { 0 };

	s->qp = vt_create_qp(ctx, pd, IBV_QPT_RC, 16, 8, &s->cq);
	a.qp_state = IBV_QPS_INIT;
	a.port_num = 1;
	a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
	if (ibv_modify_qp(s->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS)) {
		vt_fail("modify_qp INIT: %s", strerror(errno));
		exit(1);
	}
}

static void side_connect(struct side *s, uint32_t dqpn, int gid_index,
			 const union ibv_gid *gid)
{
	struct ibv_qp_attr a = { 0 };

	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = dqpn;
	a.rq_psn = 100;
	a.max_dest_rd_atomic = 4;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = *gid;
	a.ah_attr.grh.sgid_index = gid_index;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.port_num = 1;
	if (ibv_modify_qp(s->qp, &a, IBV_QP_STATE | IBV_QP_AV |
			  IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER)) {
		vt_fail("modify_qp RTR: %s", strerror(errno));
		exit(1);
	}
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = 100;
	a.max_rd_atomic = 4;
	if (ibv_modify_qp(s->qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT |
			  IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			  IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC)) {
		vt_fail("modify_qp RTS: %s", strerror(errno));
		exit(1);
	}
}

/* Posts one RDMA op and waits (5 s at most) for its completion status. */
static int rdma_op(struct side *s, enum ibv_wr_opcode op, struct ibv_mr *mr,
		   void *addr, uint32_t len, uint64_t raddr, uint32_t rkey)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)addr, .length = len, .lkey = mr->lkey,
	};
	struct ibv_send_wr wr = { 0 }, *bad;
	struct ibv_wc wc;
	int i, n;

	wr.wr_id = op;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = op;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = rkey;
	if (ibv_post_send(s->qp, &wr, &bad)) {
		vt_fail("post_send: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < 5000; i++) {
		n = ibv_poll_cq(s->cq, 1, &wc);
		if (n < 0)
			return -1;
		if (n == 1)
			return wc.status;
		usleep(1000);
	}
	vt_fail("no completion within 5 s");
	return -1;
}

int main(int argc, char **argv)
{
	const int rw = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
		       IBV_ACCESS_REMOTE_READ;
	struct ibv_mr *dmr, *mr, *bad;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct side a, b;
	union ibv_gid gid;
	uint8_t *src, *dst;
	int memfd, fd, gidx, st;
	uint8_t *buf;
	void *map;
	uint32_t i;

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
	fd = make_udmabuf(&memfd, &map);
	buf = map;
	memset(buf, 0xee, BUF_LEN);

	pd = ibv_alloc_pd(ctx);
	src = aligned_alloc(4096, 2 * XFER_LEN);
	dst = src + XFER_LEN;
	mr = pd ? ibv_reg_mr(pd, src, 2 * XFER_LEN, rw) : NULL;
	if (!mr) {
		vt_fail("pd / reg_mr: %s", strerror(errno));
		return 1;
	}

	/* Refusals first: nothing may be left registered by them. */
	bad = ibv_reg_dmabuf_mr(pd, 0, BUF_LEN, DMABUF_IOVA, memfd, rw);
	if (!vt_check(!bad, "a memfd that is not a dma-buf is refused (%s)",
		      bad ? "registered" : strerror(errno)))
		ibv_dereg_mr(bad);
	bad = ibv_reg_dmabuf_mr(pd, BUF_LEN / 2, BUF_LEN, DMABUF_IOVA, fd, rw);
	if (!vt_check(!bad, "a range beyond the dma-buf is refused (%s)",
		      bad ? "registered" : strerror(errno)))
		ibv_dereg_mr(bad);
	bad = ibv_reg_dmabuf_mr(pd, 0, BUF_LEN, DMABUF_IOVA, 1000, rw);
	if (!vt_check(!bad, "a closed fd is refused (%s)",
		      bad ? "registered" : strerror(errno)))
		ibv_dereg_mr(bad);

	dmr = ibv_reg_dmabuf_mr(pd, 0, BUF_LEN, DMABUF_IOVA, fd, rw);
	if (!vt_check(dmr != NULL, "ibv_reg_dmabuf_mr of a 1 MiB udmabuf (%s)",
		      dmr ? "ok" : strerror(errno)))
		return 1;
	vt_expect_u64("dma-buf MR length", BUF_LEN, dmr->length);

	side_init(&a, ctx, pd);
	side_init(&b, ctx, pd);
	side_connect(&a, b.qp->qp_num, gidx, &gid);
	side_connect(&b, a.qp->qp_num, gidx, &gid);

	for (i = 0; i < XFER_LEN; i++)
		src[i] = (uint8_t)(i * 7 + 3);
	st = rdma_op(&a, IBV_WR_RDMA_WRITE, mr, src, XFER_LEN,
		     DMABUF_IOVA + XFER_OFF, dmr->rkey);
	vt_check(st == IBV_WC_SUCCESS, "RDMA WRITE 64 KiB into the dma-buf MR: %s",
		 st >= 0 ? ibv_wc_status_str(st) : "error");
	vt_check(!memcmp(buf + XFER_OFF, src, XFER_LEN),
		 "the memfd holds the written bytes");
	vt_check(buf[XFER_OFF - 1] == 0xee && buf[XFER_OFF + XFER_LEN] == 0xee,
		 "the bytes around them are untouched");

	for (i = 0; i < XFER_LEN; i++)
		buf[BUF_LEN - XFER_LEN + i] = (uint8_t)(i * 13 + 1);
	memset(dst, 0, XFER_LEN);
	st = rdma_op(&a, IBV_WR_RDMA_READ, mr, dst, XFER_LEN,
		     DMABUF_IOVA + BUF_LEN - XFER_LEN, dmr->rkey);
	vt_check(st == IBV_WC_SUCCESS, "RDMA READ 64 KiB from the dma-buf MR's end: %s",
		 st >= 0 ? ibv_wc_status_str(st) : "error");
	vt_check(!memcmp(dst, buf + BUF_LEN - XFER_LEN, XFER_LEN),
		 "the READ returned the memfd's bytes");

	st = rdma_op(&b, IBV_WR_RDMA_WRITE, mr, src, 4096,
		     DMABUF_IOVA + BUF_LEN - 2048, dmr->rkey);
	vt_check(st == IBV_WC_REM_ACCESS_ERR,
		 "a WRITE past the dma-buf MR's end: %s (want remote access error)",
		 st >= 0 ? ibv_wc_status_str(st) : "error");

	ibv_destroy_qp(a.qp);
	ibv_destroy_qp(b.qp);
	ibv_destroy_cq(a.cq);
	ibv_destroy_cq(b.cq);
	vt_check(ibv_dereg_mr(dmr) == 0, "dereg of the dma-buf MR");
	ibv_dereg_mr(mr);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	munmap(map, BUF_LEN);
	close(fd);
	close(memfd);
	free(src);
	return vt_fails ? 1 : 0;
}
