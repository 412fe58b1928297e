// SPDX-License-Identifier: GPL-2.0-only
/*
 * cq_resize_stress: resizes the CQs of a kernel RC QP pair under traffic
 * and accounts for every completion (docs/testing.md, scenario cq_resize).
 *
 * One RC QP on each of two RDMA devices (module parameters dev0/dev1 and
 * their RoCEv2 GID indexes gid0/gid1), each QP with a send CQ and a
 * receive CQ of its own; each side sends to the other SEND, RDMA WRITE
 * and RDMA WRITE with immediate in turn, every WR signalled, every payload
 * a pattern of its direction and sequence number. A resizer thread
 * meanwhile resizes the four CQs, without a pause, through sizes from the
 * smallest that holds every completion that can be outstanding to 16
 * times that, while one thread (the writer of "run") posts, polls and
 * checks.
 *
 * Checked per WR: a send completion exactly once, in order, successful,
 * with its opcode; per message that consumes a receive: a receive
 * completion exactly once, in order, with its length, opcode, immediate
 * and payload (a plain RDMA WRITE's payload is checked when the WRITE
 * with immediate that follows it arrives). Traffic stops after
 * duration_ms; then every outstanding WR must complete, with no progress
 * for stall_ms counted as a stall. Afterwards the CQs must stay empty.
 *
 * <debugfs>/cq_resize_stress/run: a write runs the test and returns when
 * it is done; result: the counters of the last run, "name value" a line.
 */

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/version.h>
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#define CRS_SQ_DEPTH	32	/* WRs in flight per QP */
#define CRS_RQ_DEPTH	32	/* receives posted per QP */
#define CRS_MSG_MAX	512	/* largest payload */
#define CRS_HDR		8	/* seq, length */
/*
 * RDMA WRITE targets: a slot is written again CRS_SLOTS messages later.
 * A receive is posted again only after its message was checked, so when
 * message t lands, every receive-consuming message up to t - 1 - RQ_DEPTH
 * was checked; with every other message consuming a receive, a slot is
 * not overwritten before its check when CRS_SLOTS >= 2 * RQ_DEPTH + 3.
 */
#define CRS_SLOTS	(4 * CRS_RQ_DEPTH)
#define CRS_BATCH	16
#define CRS_REG_WRID	U64_MAX

static char *dev0 = "irdma0";
module_param(dev0, charp, 0444);
MODULE_PARM_DESC(dev0, "first RDMA device");
static char *dev1 = "irdma1";
module_param(dev1, charp, 0444);
MODULE_PARM_DESC(dev1, "second RDMA device");
static uint gid0;
module_param(gid0, uint, 0444);
MODULE_PARM_DESC(gid0, "RoCEv2 GID index of dev0, port 1");
static uint gid1;
module_param(gid1, uint, 0444);
MODULE_PARM_DESC(gid1, "RoCEv2 GID index of dev1, port 1");
static uint duration_ms = 20000;
module_param(duration_ms, uint, 0644);
MODULE_PARM_DESC(duration_ms, "how long to post new WRs");
static uint stall_ms = 10000;
module_param(stall_ms, uint, 0644);
MODULE_PARM_DESC(stall_ms, "no completion for this long is a stall");
static bool resize = true;
module_param(resize, bool, 0644);
MODULE_PARM_DESC(resize, "resize the CQs during the traffic");

enum crs_kind { CRS_SEND, CRS_WRITE, CRS_WRITE_IMM };

/* Message t of a direction: kinds in turn, lengths CRS_HDR..CRS_MSG_MAX. */
static enum crs_kind crs_kind(u64 t)
{
	return t % 3;
}

static u32 crs_len(u64 t)
{
	return CRS_HDR + (u32)((t * 37) % (CRS_MSG_MAX - CRS_HDR + 1));
}

static u8 crs_byte(u64 t, u32 i, int dir)
{
	return (u8)(t * 31 + i * 7 + dir * 101 + 0x5a);
}

static void crs_fill(u8 *p, u64 t, int dir)
{
	u32 len = crs_len(t), i;

	put_unaligned_le32((u32)t, p);
	put_unaligned_le32(len, p + 4);
	for (i = CRS_HDR; i < len; i++)
		p[i] = crs_byte(t, i, dir);
}

static bool crs_check(const u8 *p, u64 t, int dir)
{
	u32 len = crs_len(t), i;

	if (get_unaligned_le32(p) != (u32)t || get_unaligned_le32(p + 4) != len)
		return false;
	for (i = CRS_HDR; i < len; i++)
		if (p[i] != crs_byte(t, i, dir))
			return false;
	return true;
}

/* Receive-consuming messages among 0 .. n - 1 (all but the plain WRITEs). */
static u64 crs_rx_count(u64 n)
{
	return n - (n + 1) / 3;
}

struct crs_stats {
	u64 wr_posted;
	u64 wr_ok;
	u64 wr_bad_status;
	u64 wr_unexpected;
	u64 rx_ok;
	u64 rx_bad_status;
	u64 rx_unexpected;
	u64 payload_bad;
	u64 post_err;
	u64 extra;
};

struct crs_run;

struct crs_side {
	struct crs_run *run;
	struct crs_side *peer;
	int idx;
	struct ib_device *dev;
	u32 gid_index;
	union ib_gid gid;
	u8 mac[ETH_ALEN];
	struct ib_pd *pd;
	struct ib_cq *scq;
	struct ib_cq *rcq;
	struct ib_qp *qp;
	struct ib_mr *mr;	/* the WRITE slots, for the peer */
	u8 *sbuf;		/* CRS_SQ_DEPTH send buffers */
	u64 sdma;
	u8 *rbuf;		/* CRS_RQ_DEPTH receive buffers */
	u64 rdma;
	u8 *slots;		/* CRS_SLOTS slots the peer writes */
	struct scatterlist slot_sg;
	bool slots_mapped;
	/* as a sender */
	u64 next_post;		/* sequence number of the next WR */
	u64 next_scomp;		/* the next send completion expected */
	/* as the receiver of the peer's messages */
	u64 rx_next;		/* the next receive-consuming message */
	u64 recv_posted;
	u64 recv_done;
	struct crs_stats st;
};

struct crs_run {
	struct crs_side side[2];
	wait_queue_head_t wq;
	atomic_t events;
	atomic_t async_err;
	int async_seen;		/* async_err before the QPs go to ERR */
	bool traffic_done;
	u64 resize_ok;
	u64 resize_err;
	int resize_last_err;
	u64 resize_max;
	u64 stalled;
	u64 elapsed_ms;
	int setup_err;
	const char *setup_step;
};

static DEFINE_MUTEX(crs_lock);	/* one run at a time; the result */
static char crs_result[2048];
static struct dentry *crs_dir;

static void crs_comp(struct ib_cq *cq, void *ctx)
{
	struct crs_run *run = ctx;

	atomic_inc(&run->events);
	wake_up(&run->wq);
}

/* CQ and QP asynchronous events (CQ overflow, QP fatal, ...). */
static void crs_async_event(struct ib_event *ev, void *ctx)
{
	struct crs_run *run = ctx;

	atomic_inc(&run->async_err);
}

static int crs_post_recv(struct crs_side *s)
{
	u32 b = s->recv_posted % CRS_RQ_DEPTH;
	struct ib_sge sge = {
		.addr = s->rdma + (u64)b * CRS_MSG_MAX,
		.length = CRS_MSG_MAX,
		.lkey = s->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = {
		.wr_id = s->recv_posted,
		.sg_list = &sge,
		.num_sge = 1,
	};
	const struct ib_recv_wr *bad;
	int err;

	err = ib_post_recv(s->qp, &wr, &bad);
	if (err) {
		s->st.post_err++;
		return err;
	}
	s->recv_posted++;
	return 0;
}

/* Posts message s->next_post to the peer. */
static int crs_post_send(struct crs_side *s)
{
	struct crs_side *p = s->peer;
	u64 t = s->next_post;
	u32 b = t % CRS_SQ_DEPTH;
	u8 *buf = s->sbuf + (size_t)b * CRS_MSG_MAX;
	struct ib_sge sge = {
		.addr = s->sdma + (u64)b * CRS_MSG_MAX,
		.length = crs_len(t),
		.lkey = s->pd->local_dma_lkey,
	};
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_id = t,
			.sg_list = &sge,
			.num_sge = 1,
			.send_flags = IB_SEND_SIGNALED,
		},
	};
	const struct ib_send_wr *bad;
	int err;

	crs_fill(buf, t, s->idx);
	ib_dma_sync_single_for_device(s->dev, sge.addr, sge.length,
				      DMA_TO_DEVICE);
	switch (crs_kind(t)) {
	case CRS_SEND:
		wr.wr.opcode = IB_WR_SEND;
		break;
	case CRS_WRITE:
	case CRS_WRITE_IMM:
		wr.wr.opcode = crs_kind(t) == CRS_WRITE ? IB_WR_RDMA_WRITE :
			       IB_WR_RDMA_WRITE_WITH_IMM;
		wr.wr.ex.imm_data = cpu_to_be32((u32)t);
		wr.remote_addr = p->mr->iova + (t % CRS_SLOTS) * CRS_MSG_MAX;
		wr.rkey = p->mr->rkey;
		break;
	}
	err = ib_post_send(s->qp, &wr.wr, &bad);
	if (err) {
		s->st.post_err++;
		return err;
	}
	s->next_post++;
	s->st.wr_posted++;
	return 0;
}

static void crs_send_wc(struct crs_side *s, const struct ib_wc *wc)
{
	static const enum ib_wc_opcode op[] = {
		[CRS_SEND] = IB_WC_SEND,
		[CRS_WRITE] = IB_WC_RDMA_WRITE,
		[CRS_WRITE_IMM] = IB_WC_RDMA_WRITE,
	};

	if (wc->wr_id != s->next_scomp || wc->wr_id >= s->next_post) {
		/* Lost (a later one came) or duplicated (an earlier one). */
		s->st.wr_unexpected++;
		if (wc->wr_id < s->next_post)
			s->next_scomp = wc->wr_id + 1;
		return;
	}
	s->next_scomp++;
	if (wc->status != IB_WC_SUCCESS) {
		s->st.wr_bad_status++;
		return;
	}
	if (wc->opcode != op[crs_kind(wc->wr_id)]) {
		s->st.wr_unexpected++;
		return;
	}
	s->st.wr_ok++;
}

/*
 * A receive completion of side @s: a message of the peer. Returns false
 * for a duplicate, whose receive is not given back.
 */
static bool crs_recv_wc(struct crs_side *s, const struct ib_wc *wc)
{
	int dir = s->peer->idx;
	const u8 *buf;
	bool good;
	u64 t;

	if (wc->wr_id != s->recv_done) {
		s->st.rx_unexpected++;
		if (wc->wr_id < s->recv_done)
			return false;
	}
	s->recv_done = wc->wr_id + 1;
	buf = s->rbuf + (size_t)(wc->wr_id % CRS_RQ_DEPTH) * CRS_MSG_MAX;
	if (wc->status != IB_WC_SUCCESS) {
		s->st.rx_bad_status++;
		return true;
	}
	if (wc->opcode == IB_WC_RECV_RDMA_WITH_IMM &&
	    (wc->wc_flags & IB_WC_WITH_IMM)) {
		const u8 *slot;

		/* The low 32 bits of the sequence number. */
		t = (s->rx_next & ~0xffffffffULL) | be32_to_cpu(wc->ex.imm_data);
		/* byte_len of a WRITE with immediate is not checked: it varies. */
		good = crs_kind(t) == CRS_WRITE_IMM;
		ib_dma_sync_single_for_cpu(s->dev, sg_dma_address(&s->slot_sg),
					   CRS_SLOTS * CRS_MSG_MAX,
					   DMA_FROM_DEVICE);
		slot = s->slots + (t % CRS_SLOTS) * CRS_MSG_MAX;
		good = good && crs_check(slot, t, dir);
		slot = s->slots + ((t - 1) % CRS_SLOTS) * CRS_MSG_MAX;
		good = good && crs_check(slot, t - 1, dir);
	} else {
		ib_dma_sync_single_for_cpu(s->dev,
					   s->rdma + (wc->wr_id % CRS_RQ_DEPTH) *
					   CRS_MSG_MAX, CRS_MSG_MAX,
					   DMA_FROM_DEVICE);
		t = (s->rx_next & ~0xffffffffULL) | get_unaligned_le32(buf);
		good = wc->opcode == IB_WC_RECV && crs_kind(t) == CRS_SEND &&
		       wc->byte_len == crs_len(t) && crs_check(buf, t, dir);
	}
	if (t != s->rx_next)
		s->st.rx_unexpected++;
	else if (!good)
		s->st.payload_bad++;
	else
		s->st.rx_ok++;
	/* The next receive-consuming message after t. */
	s->rx_next = crs_kind(t) == CRS_SEND ? t + 2 : t + 1;
	return true;
}

static int crs_poll(struct crs_side *s, struct ib_cq *cq, bool send)
{
	struct ib_wc wc[CRS_BATCH];
	int n, i, done = 0;

	do {
		n = ib_poll_cq(cq, CRS_BATCH, wc);
		for (i = 0; i < n; i++) {
			if (send)
				crs_send_wc(s, &wc[i]);
			else if (crs_recv_wc(s, &wc[i]))
				crs_post_recv(s);
		}
		done += max(n, 0);
	} while (n == CRS_BATCH);
	return done;
}

static bool crs_side_done(struct crs_side *s, bool posting)
{
	u64 rx_want = crs_rx_count(s->peer->next_post);

	return !posting && s->next_scomp == s->next_post &&
	       s->st.rx_ok + s->st.rx_bad_status + s->st.payload_bad >= rx_want;
}

static void crs_traffic(struct crs_run *run)
{
	unsigned long start = jiffies, last = jiffies;
	unsigned long end = start + msecs_to_jiffies(duration_ms);
	bool posting = true;
	int i, seen, got;

	for (;;) {
		got = 0;
		if (posting && time_after(jiffies, end))
			posting = false;
		for (i = 0; i < 2; i++) {
			struct crs_side *s = &run->side[i];

			while (posting && s->next_post - s->next_scomp <
			       CRS_SQ_DEPTH && !crs_post_send(s))
				;
			got += crs_poll(s, s->scq, true);
			got += crs_poll(s, s->rcq, false);
		}
		if (!posting && crs_side_done(&run->side[0], posting) &&
		    crs_side_done(&run->side[1], posting))
			break;
		if (run->side[0].st.post_err || run->side[1].st.post_err)
			break;
		if (got) {
			last = jiffies;
			cond_resched();
			continue;
		}
		if (time_after(jiffies, last + msecs_to_jiffies(stall_ms))) {
			run->stalled = 1;
			break;
		}
		seen = atomic_read(&run->events);
		got = 0;
		for (i = 0; i < 2; i++) {
			struct crs_side *s = &run->side[i];
			int f = IB_CQ_NEXT_COMP | IB_CQ_REPORT_MISSED_EVENTS;

			got += ib_req_notify_cq(s->scq, f) > 0;
			got += ib_req_notify_cq(s->rcq, f) > 0;
		}
		if (!got)
			wait_event_timeout(run->wq,
					   atomic_read(&run->events) != seen,
					   msecs_to_jiffies(5));
	}
	run->elapsed_ms = jiffies_to_msecs(jiffies - start);
}

static int crs_resizer(void *arg)
{
	/* Multiples of the smallest size that holds what can be outstanding. */
	static const u8 mult[] = { 4, 1, 16, 2, 8, 1, 3, 12, 1, 6 };
	struct crs_run *run = arg;
	unsigned int k = 0;
	int err;

	while (!kthread_should_stop()) {
		struct crs_side *s = &run->side[k / 2 % 2];
		bool scq = k % 2;
		struct ib_cq *cq = scq ? s->scq : s->rcq;
		/* The send CQ also took the REG_MR completion. */
		int base = scq ? CRS_SQ_DEPTH + 1 : CRS_RQ_DEPTH;
		int n = base * mult[k / 4 % ARRAY_SIZE(mult)] + k % 3;

		if (READ_ONCE(run->traffic_done)) {
			schedule_timeout_interruptible(HZ / 100);
			continue;
		}
		err = ib_resize_cq(cq, n);
		if (err) {
			run->resize_err++;
			run->resize_last_err = err;
		} else {
			run->resize_ok++;
			run->resize_max = max_t(u64, run->resize_max, n);
		}
		k++;
		cond_resched();
	}
	return 0;
}

static int crs_find_dev(struct crs_side *s, const char *name, u32 gidx)
{
	const struct ib_gid_attr *attr;
	struct net_device *ndev;

	s->dev = ib_device_get_by_name(name, RDMA_DRIVER_UNKNOWN);
	if (!s->dev)
		return -ENODEV;
	s->gid_index = gidx;
	attr = rdma_get_gid_attr(s->dev, 1, gidx);
	if (IS_ERR(attr))
		return PTR_ERR(attr);
	s->gid = attr->gid;
	rcu_read_lock();
	ndev = rdma_read_gid_attr_ndev_rcu(attr);
	if (!IS_ERR(ndev))
		ether_addr_copy(s->mac, ndev->dev_addr);
	rcu_read_unlock();
	rdma_put_gid_attr(attr);
	return IS_ERR(ndev) ? PTR_ERR(ndev) : 0;
}

static int crs_map(struct crs_side *s, u8 **buf, u64 *dma, size_t size)
{
	*buf = kzalloc(size, GFP_KERNEL);
	if (!*buf)
		return -ENOMEM;
	*dma = ib_dma_map_single(s->dev, *buf, size, DMA_BIDIRECTIONAL);
	if (ib_dma_mapping_error(s->dev, *dma)) {
		kfree(*buf);
		*buf = NULL;
		return -ENOMEM;
	}
	return 0;
}

static void crs_unmap(struct crs_side *s, u8 **buf, u64 dma, size_t size)
{
	if (!*buf)
		return;
	ib_dma_unmap_single(s->dev, dma, size, DMA_BIDIRECTIONAL);
	kfree(*buf);
	*buf = NULL;
}

static int crs_side_setup(struct crs_run *run, struct crs_side *s)
{
	struct ib_cq_init_attr ca = { .cqe = CRS_SQ_DEPTH + 1 };
	struct ib_qp_init_attr qa = {
		.qp_context = run,
		.event_handler = crs_async_event,
		.cap = {
			.max_send_wr = CRS_SQ_DEPTH + 1,
			.max_recv_wr = CRS_RQ_DEPTH,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.qp_type = IB_QPT_RC,
	};
	int err;

	run->setup_step = "pd";
	s->pd = ib_alloc_pd(s->dev, 0);
	if (IS_ERR(s->pd)) {
		err = PTR_ERR(s->pd);
		s->pd = NULL;
		return err;
	}
	run->setup_step = "cq";
	s->scq = ib_create_cq(s->dev, crs_comp, crs_async_event, run, &ca);
	if (IS_ERR(s->scq)) {
		err = PTR_ERR(s->scq);
		s->scq = NULL;
		return err;
	}
	ca.cqe = CRS_RQ_DEPTH;
	s->rcq = ib_create_cq(s->dev, crs_comp, crs_async_event, run, &ca);
	if (IS_ERR(s->rcq)) {
		err = PTR_ERR(s->rcq);
		s->rcq = NULL;
		return err;
	}
	run->setup_step = "qp";
	qa.send_cq = s->scq;
	qa.recv_cq = s->rcq;
	s->qp = ib_create_qp(s->pd, &qa);
	if (IS_ERR(s->qp)) {
		err = PTR_ERR(s->qp);
		s->qp = NULL;
		return err;
	}
	run->setup_step = "buffers";
	err = crs_map(s, &s->sbuf, &s->sdma, CRS_SQ_DEPTH * CRS_MSG_MAX);
	if (err)
		return err;
	err = crs_map(s, &s->rbuf, &s->rdma, CRS_RQ_DEPTH * CRS_MSG_MAX);
	if (err)
		return err;
	s->slots = kzalloc(CRS_SLOTS * CRS_MSG_MAX, GFP_KERNEL);
	if (!s->slots)
		return -ENOMEM;
	sg_init_one(&s->slot_sg, s->slots, CRS_SLOTS * CRS_MSG_MAX);
	if (ib_dma_map_sg(s->dev, &s->slot_sg, 1, DMA_BIDIRECTIONAL) != 1)
		return -ENOMEM;
	s->slots_mapped = true;
	run->setup_step = "mr";
	s->mr = ib_alloc_mr(s->pd, IB_MR_TYPE_MEM_REG,
			    DIV_ROUND_UP(CRS_SLOTS * CRS_MSG_MAX, PAGE_SIZE));
	if (IS_ERR(s->mr)) {
		err = PTR_ERR(s->mr);
		s->mr = NULL;
		return err;
	}
	err = ib_map_mr_sg(s->mr, &s->slot_sg, 1, NULL, PAGE_SIZE);
	return err == 1 ? 0 : -EINVAL;
}

static int crs_modify(struct crs_side *s)
{
	struct crs_side *p = s->peer;
	struct ib_qp_attr a = {
		.qp_state = IB_QPS_INIT,
		.pkey_index = 0,
		.port_num = 1,
		.qp_access_flags = IB_ACCESS_LOCAL_WRITE |
				   IB_ACCESS_REMOTE_WRITE,
	};
	int err;

	err = ib_modify_qp(s->qp, &a, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	if (err)
		return err;
	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTR;
	a.path_mtu = IB_MTU_1024;
	a.dest_qp_num = p->qp->qp_num;
	a.rq_psn = 0;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 1;
	a.ah_attr.type = RDMA_AH_ATTR_TYPE_ROCE;
	rdma_ah_set_port_num(&a.ah_attr, 1);
	rdma_ah_set_grh(&a.ah_attr, &p->gid, 0, s->gid_index, 64, 0);
	memcpy(a.ah_attr.roce.dmac, p->mac, ETH_ALEN);
	err = ib_modify_qp(s->qp, &a, IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
			   IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			   IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
	if (err)
		return err;
	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTS;
	a.sq_psn = 0;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	return ib_modify_qp(s->qp, &a, IB_QP_STATE | IB_QP_SQ_PSN |
			    IB_QP_TIMEOUT | IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
			    IB_QP_MAX_QP_RD_ATOMIC);
}

/* Registers the slots for the peer's WRITEs (REG_MR) and waits for it. */
static int crs_reg(struct crs_side *s)
{
	struct ib_reg_wr wr = {
		.wr = {
			.wr_id = CRS_REG_WRID,
			.opcode = IB_WR_REG_MR,
			.send_flags = IB_SEND_SIGNALED,
		},
		.mr = s->mr,
		.key = s->mr->rkey,
		.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE,
	};
	unsigned long end = jiffies + 5 * HZ;
	const struct ib_send_wr *bad;
	struct ib_wc wc;
	int err, n;

	err = ib_post_send(s->qp, &wr.wr, &bad);
	if (err)
		return err;
	do {
		n = ib_poll_cq(s->scq, 1, &wc);
		if (n > 0)
			return wc.wr_id == CRS_REG_WRID &&
			       wc.status == IB_WC_SUCCESS ? 0 : -EIO;
		usleep_range(100, 200);
	} while (time_before(jiffies, end));
	return -ETIMEDOUT;
}

/* After the verdict: no further completion may arrive; then flush. */
static void crs_quiesce(struct crs_run *run)
{
	struct ib_qp_attr a = { .qp_state = IB_QPS_ERR };
	struct ib_wc wc[CRS_BATCH];
	unsigned long end;
	int i, n;

	msleep(200);
	for (i = 0; i < 2; i++) {
		struct crs_side *s = &run->side[i];

		while ((n = ib_poll_cq(s->scq, CRS_BATCH, wc)) > 0)
			s->st.extra += n;
		while ((n = ib_poll_cq(s->rcq, CRS_BATCH, wc)) > 0)
			s->st.extra += n;
	}
	run->async_seen = atomic_read(&run->async_err);
	/* The posted receives (and anything stuck) come back flushed. */
	for (i = 0; i < 2; i++)
		if (run->side[i].qp)
			ib_modify_qp(run->side[i].qp, &a, IB_QP_STATE);
	end = jiffies + 5 * HZ;
	do {
		n = 0;
		for (i = 0; i < 2; i++) {
			n += max(ib_poll_cq(run->side[i].scq, CRS_BATCH, wc), 0);
			n += max(ib_poll_cq(run->side[i].rcq, CRS_BATCH, wc), 0);
		}
		if (!n)
			msleep(20);
	} while (n && time_before(jiffies, end));
}

static void crs_side_free(struct crs_side *s)
{
	if (s->mr)
		ib_dereg_mr(s->mr);
	if (s->slots_mapped)
		ib_dma_unmap_sg(s->dev, &s->slot_sg, 1, DMA_BIDIRECTIONAL);
	kfree(s->slots);
	crs_unmap(s, &s->rbuf, s->rdma, CRS_RQ_DEPTH * CRS_MSG_MAX);
	crs_unmap(s, &s->sbuf, s->sdma, CRS_SQ_DEPTH * CRS_MSG_MAX);
	if (s->qp)
		ib_destroy_qp(s->qp);
	if (s->rcq)
		ib_destroy_cq(s->rcq);
	if (s->scq)
		ib_destroy_cq(s->scq);
	if (s->pd)
		ib_dealloc_pd(s->pd);
	if (s->dev)
		ib_device_put(s->dev);
}

static void crs_report(struct crs_run *run)
{
	struct crs_stats t = { };
	u64 posted[2], lost_wr = 0, lost_rx = 0;
	size_t len = 0;
	int i;

	for (i = 0; i < 2; i++) {
		struct crs_stats *st = &run->side[i].st;
		u64 rx_want = crs_rx_count(run->side[i].peer->next_post);

		posted[i] = st->wr_posted;
		t.wr_posted += st->wr_posted;
		t.wr_ok += st->wr_ok;
		t.wr_bad_status += st->wr_bad_status;
		t.wr_unexpected += st->wr_unexpected;
		t.rx_ok += st->rx_ok;
		t.rx_bad_status += st->rx_bad_status;
		t.rx_unexpected += st->rx_unexpected;
		t.payload_bad += st->payload_bad;
		t.post_err += st->post_err;
		t.extra += st->extra;
		if (st->wr_posted > st->wr_ok)
			lost_wr += st->wr_posted - st->wr_ok;
		if (rx_want > st->rx_ok)
			lost_rx += rx_want - st->rx_ok;
	}
#define CRS_PUT(fmt, ...) \
	(len += scnprintf(crs_result + len, sizeof(crs_result) - len, \
			  fmt "\n", ##__VA_ARGS__))
	CRS_PUT("setup_err %d", run->setup_err);
	if (run->setup_err)
		CRS_PUT("setup_step %s", run->setup_step);
	CRS_PUT("elapsed_ms %llu", run->elapsed_ms);
	CRS_PUT("wr_posted %llu", t.wr_posted);
	CRS_PUT("wr_posted_0 %llu", posted[0]);
	CRS_PUT("wr_posted_1 %llu", posted[1]);
	CRS_PUT("wr_ok %llu", t.wr_ok);
	CRS_PUT("wr_lost %llu", lost_wr);
	CRS_PUT("wr_bad_status %llu", t.wr_bad_status);
	CRS_PUT("wr_unexpected %llu", t.wr_unexpected);
	CRS_PUT("rx_ok %llu", t.rx_ok);
	CRS_PUT("rx_lost %llu", lost_rx);
	CRS_PUT("rx_bad_status %llu", t.rx_bad_status);
	CRS_PUT("rx_unexpected %llu", t.rx_unexpected);
	CRS_PUT("payload_bad %llu", t.payload_bad);
	CRS_PUT("post_err %llu", t.post_err);
	CRS_PUT("extra %llu", t.extra);
	CRS_PUT("async_err %d", run->async_seen);
	CRS_PUT("stalled %llu", run->stalled);
	CRS_PUT("resize_ok %llu", run->resize_ok);
	CRS_PUT("resize_err %llu", run->resize_err);
	CRS_PUT("resize_last_err %d", run->resize_last_err);
	CRS_PUT("resize_max %llu", run->resize_max);
#undef CRS_PUT
}

static int crs_run_once(void)
{
	struct task_struct *resizer = NULL;
	struct crs_run *run;
	int i, err;

	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!run)
		return -ENOMEM;
	init_waitqueue_head(&run->wq);
	for (i = 0; i < 2; i++) {
		run->side[i].run = run;
		run->side[i].idx = i;
		run->side[i].peer = &run->side[!i];
	}
	run->setup_step = "device";
	err = crs_find_dev(&run->side[0], dev0, gid0);
	if (!err)
		err = crs_find_dev(&run->side[1], dev1, gid1);
	for (i = 0; i < 2 && !err; i++)
		err = crs_side_setup(run, &run->side[i]);
	if (!err)
		run->setup_step = "connect";
	for (i = 0; i < 2 && !err; i++)
		err = crs_modify(&run->side[i]);
	if (!err)
		run->setup_step = "reg_mr";
	for (i = 0; i < 2 && !err; i++)
		err = crs_reg(&run->side[i]);
	for (i = 0; i < 2 && !err; i++)
		while (run->side[i].recv_posted < CRS_RQ_DEPTH && !err)
			err = crs_post_recv(&run->side[i]);
	if (!err && resize) {
		run->setup_step = "resizer";
		resizer = kthread_run(crs_resizer, run, "crs_resizer");
		if (IS_ERR(resizer)) {
			err = PTR_ERR(resizer);
			resizer = NULL;
		}
	}
	run->setup_err = err;
	if (!err)
		crs_traffic(run);
	WRITE_ONCE(run->traffic_done, true);
	if (resizer)
		kthread_stop(resizer);
	if (!err)
		crs_quiesce(run);
	crs_report(run);
	for (i = 0; i < 2; i++)
		crs_side_free(&run->side[i]);
	kfree(run);
	return err;
}

static ssize_t crs_run_write(struct file *f, const char __user *ubuf,
			     size_t len, loff_t *off)
{
	int err;

	mutex_lock(&crs_lock);
	err = crs_run_once();
	mutex_unlock(&crs_lock);
	/* The outcome is in "result"; a setup error fails the write too. */
	return err ? err : len;
}

static ssize_t crs_result_read(struct file *f, char __user *ubuf, size_t len,
			       loff_t *off)
{
	ssize_t n;

	mutex_lock(&crs_lock);
	n = simple_read_from_buffer(ubuf, len, off, crs_result,
				    strlen(crs_result));
	mutex_unlock(&crs_lock);
	return n;
}

static const struct file_operations crs_run_fops = {
	.owner = THIS_MODULE,
	.write = crs_run_write,
};

static const struct file_operations crs_result_fops = {
	.owner = THIS_MODULE,
	.read = crs_result_read,
};

static int __init crs_init(void)
{
	crs_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("run", 0200, crs_dir, NULL, &crs_run_fops);
	debugfs_create_file("result", 0400, crs_dir, NULL, &crs_result_fops);
	return 0;
}

static void __exit crs_exit(void)
{
	debugfs_remove_recursive(crs_dir);
}

module_init(crs_init);
module_exit(crs_exit);
MODULE_DESCRIPTION("Kernel CQ resize under RC traffic: every completion counted");
MODULE_LICENSE("GPL");
