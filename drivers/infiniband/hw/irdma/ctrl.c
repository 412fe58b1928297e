// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: the control QP (CQP), its completion queue (CCQ) and the CQP
 * command layer (docs/hw-reference.md 2.2-2.6).
 *
 * A request is a 64-byte WQE: body first, then the header qword with the
 * opcode and the pass's valid bit, then the new SQ head to CQPDB. Each SQ
 * slot remembers the id of its request (the "scratch", host memory only);
 * a completion names the slot, the slot names the id, and the id is looked
 * up among the requests in flight, so a late completion for a request that
 * gave up finds nothing. Completions are detected by CQPTAIL before the
 * CCQ exists, by polling the CCQ before CEQ 0 exists, and from the CEQ 0
 * interrupt after that. A request that sees no forward progress of the
 * CQP for IRDMA_CQP_HUNG_MS declares the CQP hung and asks the parent for
 * a function reset.
 */

#include <linux/bitfield.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/iopoll.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/slab.h>

#include <hw/e810_ctx.h>
#include <hw/e810_regs.h>

#include "main.h"
#include "events.h"

#define IRDMA_CQP_SQ_SIZE	2048	/* hw-reference 2.7 */
#define IRDMA_GEN1_FW_VER	2	/* upstream IRDMA_FW_VER_DEFAULT */
#define IRDMA_CCQ_SIZE		2049
#define IRDMA_CCQ_CTX		0	/* the CCQ is CQ 0: its CEQE ctx */
#define IRDMA_CCQ_SHADOW_THRESH	16
#define IRDMA_CQP_COMPL_CTX	0x4952444dULL	/* "IRDM", echoed in CQEs */
#define IRDMA_FEAT_BUF_SIZE	(E810_MAX_FEATURES * 8)
#define IRDMA_POLL_US		10
#define IRDMA_POLL_TIMEOUT_US	(1000 * IRDMA_POLL_US * 100)
#define IRDMA_CQP_WAIT_MS	100	/* one watchdog check */
/*
 * No progress for this long: hung. Generous because under TCG on a loaded
 * host the device model can be starved for seconds of guest time.
 */
#define IRDMA_CQP_HUNG_MS	10000

/**
 * irdma_cqp_op_name() - name of a CQP opcode
 * @op: opcode
 *
 * Return: the name, or "?" for an opcode without one.
 */
const char *irdma_cqp_op_name(u8 op)
{
	const char *name = e810_cqp_op_str(op);

	return name ? name : "?";
}

/*
 * The CQP errors that come with the normal course of a connection's end
 * (upstream irdma_noncrit_err_list, irdma_cqp_crit_err()): e.g. a
 * Terminate asked for on a QP the device has just failed on its own
 * ("Invalid State"), or a flush with nothing to flush. The caller still
 * gets the error; only the log line drops to debug level.
 */
static bool irdma_cqp_err_noncrit(u16 major, u16 minor)
{
	return major == 0xffff &&
	       (minor == 0x8002 || minor == 0x8006 || minor == 0x8007 ||
		minor == 0x8009 || minor == 0x800a);
}

#define irdma_cqp_err_log(rf, major, minor, fmt, ...)			\
	do {								\
		if (irdma_cqp_err_noncrit(major, minor))		\
			dev_dbg(irdma_rf_to_dev(rf), fmt, ##__VA_ARGS__); \
		else							\
			dev_err(irdma_rf_to_dev(rf), fmt, ##__VA_ARGS__); \
	} while (0)

/* SQSIZE encoding: 4 -> 1, 8 -> 2, ... 2048 -> 10. */
static u32 irdma_cqp_sq_enc(u32 size)
{
	return ilog2(size / E810_CQP_SQ_MIN) + E810_CQP_SQSIZE_ENC_MIN;
}

/*
 * Takes the first request nobody waits for out of the table (the caller
 * then owns it), or returns NULL. Caller holds cqp->lock.
 */
static struct irdma_cqp_req *irdma_cqp_take_async(struct irdma_cqp *cqp)
{
	struct irdma_cqp_req *req;
	unsigned long id;

	lockdep_assert_held(&cqp->lock);

	xa_for_each(&cqp->reqs, id, req) {
		if (req->cb) {
			xa_erase(&cqp->reqs, id);
			cqp->async_pending--;
			return req;
		}
	}
	return NULL;
}

/* Fails every request nobody waits for: the CQP is hung or going away. */
static void irdma_cqp_fail_async(struct irdma_pci_f *rf)
{
	struct irdma_cqp_req *req;
	unsigned long flags;

	for (;;) {
		spin_lock_irqsave(&rf->cqp.lock, flags);
		req = irdma_cqp_take_async(&rf->cqp);
		spin_unlock_irqrestore(&rf->cqp.lock, flags);
		if (!req)
			return;
		req->cb(rf, req->id, -EIO, 0);
		kfree(req);
	}
}

/*
 * The watchdog of irdma_cqp_wait() for requests nobody waits for (ARP
 * cache writes, for one): while any is outstanding, no progress of the
 * CQP for IRDMA_CQP_HUNG_MS declares it hung and asks for a reset.
 */
static void irdma_cqp_async_wd(struct work_struct *work)
{
	struct irdma_cqp *cqp = container_of(to_delayed_work(work),
					     struct irdma_cqp, async_wd);
	struct irdma_pci_f *rf = container_of(cqp, struct irdma_pci_f, cqp);
	struct irdma_cqp_req *req = NULL;
	u64 c = READ_ONCE(cqp->stats.completed);
	unsigned long flags;
	u32 t = irdma_rd32(rf, IRDMA_REG(rf, cqptail));
	bool stuck;

	if (READ_ONCE(cqp->hung) || READ_ONCE(rf->resetting)) {
		irdma_cqp_fail_async(rf);
		return;
	}
	spin_lock_irqsave(&cqp->lock, flags);
	if (!cqp->async_pending) {
		spin_unlock_irqrestore(&cqp->lock, flags);
		return;
	}
	if (c != cqp->wd_seen || t != cqp->wd_tail) {
		cqp->wd_seen = c;
		cqp->wd_tail = t;
		cqp->wd_last = jiffies;
	}
	stuck = time_after(jiffies, cqp->wd_last +
			   msecs_to_jiffies(IRDMA_CQP_HUNG_MS));
	if (stuck) {
		req = irdma_cqp_take_async(cqp);
		cqp->stats.timeouts++;
		cqp->hung = true;
		irdma_ev_inc(rf, IRDMA_EV_CQP_HANGS);
	}
	spin_unlock_irqrestore(&cqp->lock, flags);
	if (!stuck) {
		schedule_delayed_work(&cqp->async_wd,
				      msecs_to_jiffies(IRDMA_CQP_WAIT_MS * 5));
		return;
	}
	if (req) {
		dev_err(irdma_rf_to_dev(rf),
			"CQP hung: %s (request %u) not completed, CQPTAIL 0x%08x, CQPERRCODES 0x%08x (nobody waiting)\n",
			irdma_cqp_op_name(req->op), req->id, t,
			irdma_rd32(rf, IRDMA_REG(rf, cqperrcodes)));
		req->cb(rf, req->id, -EIO, 0);
		kfree(req);
	}
	irdma_schedule_reset(rf, "CQP hung");
	irdma_cqp_fail_async(rf);
}

/**
 * irdma_cqp_create() - allocate the CQP and create it in the device
 * @rf: per-function state
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
int irdma_cqp_create(struct irdma_pci_f *rf)
{
	struct irdma_cqp *cqp = &rf->cqp;
	struct device *dev = irdma_rf_to_dev(rf);
	u32 status;
	int err;

	spin_lock_init(&cqp->lock);
	mutex_init(&cqp->mutex);
	xa_init(&cqp->reqs);
	xa_init_flags(&cqp->ah_waits, XA_FLAGS_LOCK_IRQ);
	INIT_DELAYED_WORK(&cqp->async_wd, irdma_cqp_async_wd);
	cqp->async_pending = 0;
	cqp->sq_size = IRDMA_CQP_SQ_SIZE;
	cqp->head = 0;
	cqp->polarity = false;
	cqp->mode = IRDMA_CQP_POLL_TAIL;
	cqp->next_id = 1;

	cqp->scratch = kcalloc(cqp->sq_size, sizeof(*cqp->scratch), GFP_KERNEL);
	if (!cqp->scratch)
		return -ENOMEM;
	err = irdma_dma_alloc(rf, &cqp->ctx, sizeof(struct e810_cqp_ctx),
			      GFP_KERNEL);
	if (err)
		goto err_scratch;
	err = irdma_dma_alloc(rf, &cqp->sq, cqp->sq_size * E810_CQP_WQE_SIZE,
			      GFP_KERNEL);
	if (err)
		goto err_ctx;
	err = irdma_dma_alloc(rf, &cqp->fpm_buf, E810_FPM_BUF_SIZE, GFP_KERNEL);
	if (err)
		goto err_sq;
	err = irdma_dma_alloc(rf, &cqp->feat_buf, IRDMA_FEAT_BUF_SIZE,
			      GFP_KERNEL);
	if (err)
		goto err_fpm;

	/*
	 * The mode lasts as long as the CQP (upstream irdma_sc_cqp_create()).
	 * GEN_1 is iWARP only and has neither the protocol nor the RTO
	 * policy field: both stay 0 there.
	 */
	irdma_set64(&cqp->ctx, E810_CQPHC_CFG_OFF,
		    FIELD_PREP(E810_CQPHC_SQSIZE,
			       irdma_cqp_sq_enc(cqp->sq_size)) |
		    (rf->gen->hw.iwarp_only ? 0 : rf->iwarp ?
		     FIELD_PREP(E810_CQPHC_PROTOCOL_USED,
				E810_PROTOCOL_IWARP_ONLY) :
		     FIELD_PREP(E810_CQPHC_PROTOCOL_USED,
				E810_PROTOCOL_ROCE_ONLY) |
		     E810_CQPHC_ROCEV2_RTO_POLICY));
	irdma_set64(&cqp->ctx, E810_CQPHC_SQ_BASE_OFF, cqp->sq.pa);
	irdma_set64(&cqp->ctx, E810_CQPHC_VF_OFF,
		    FIELD_PREP(E810_CQPHC_HMC_PROFILE, 1));
	irdma_set64(&cqp->ctx, E810_CQPHC_COMPL_CTX_OFF, IRDMA_CQP_COMPL_CTX);
	irdma_set64(&cqp->ctx, E810_CQPHC_VER_OFF,
		    FIELD_PREP(E810_CQPHC_HW_MAJVER,
			       rf->gen->hw.cqp_hw_majver));

	/* Like irdma_sc_cqp_init(): clear, then the context PA, high first. */
	irdma_wr32(rf, IRDMA_REG(rf, cqptail), 0);
	irdma_wr32(rf, IRDMA_REG(rf, cqpdb), 0);
	irdma_wr32(rf, IRDMA_REG(rf, ccqpstatus), 0);
	irdma_wr32(rf, IRDMA_REG(rf, ccqphigh), upper_32_bits(cqp->ctx.pa));
	irdma_wr32(rf, IRDMA_REG(rf, ccqplow), lower_32_bits(cqp->ctx.pa));
	err = readl_poll_timeout(rf->hw_addr + IRDMA_REG(rf, ccqpstatus), status, status,
				 IRDMA_POLL_US, IRDMA_POLL_TIMEOUT_US);
	if (err || (status & E810_CCQPSTATUS_CCQP_ERR)) {
		u32 codes = irdma_rd32(rf, IRDMA_REG(rf, cqperrcodes));

		dev_err(dev, "CQP create failed: CCQPSTATUS 0x%08x, major 0x%04lx minor 0x%04lx\n",
			status, FIELD_GET(E810_CQPERRCODES_MAJOR, codes),
			FIELD_GET(E810_CQPERRCODES_MINOR, codes));
		err = -EIO;
		goto err_regs;
	}
	dev_dbg(dev, "INIT: CQP created, %u WQEs\n", cqp->sq_size);
	return 0;

err_regs:
	irdma_wr32(rf, IRDMA_REG(rf, ccqphigh), 0);
	irdma_wr32(rf, IRDMA_REG(rf, ccqplow), 0);
	irdma_dma_free(rf, &cqp->feat_buf);
err_fpm:
	irdma_dma_free(rf, &cqp->fpm_buf);
err_sq:
	irdma_dma_free(rf, &cqp->sq);
err_ctx:
	irdma_dma_free(rf, &cqp->ctx);
err_scratch:
	kfree(cqp->scratch);
	cqp->scratch = NULL;
	return err;
}

/**
 * irdma_cqp_destroy() - undo irdma_cqp_create()
 * @rf: per-function state
 *
 * Context: Process context, sleeps.
 */
void irdma_cqp_destroy(struct irdma_pci_f *rf)
{
	struct irdma_cqp *cqp = &rf->cqp;
	u32 status;

	if (!rf->resetting) {
		irdma_wr32(rf, IRDMA_REG(rf, ccqphigh), 0);
		irdma_wr32(rf, IRDMA_REG(rf, ccqplow), 0);
		if (readl_poll_timeout(rf->hw_addr + IRDMA_REG(rf, ccqpstatus), status,
				       !(status & E810_CCQPSTATUS_CCQP_DONE),
				       IRDMA_POLL_US, IRDMA_POLL_TIMEOUT_US))
			dev_warn(irdma_rf_to_dev(rf),
				 "CQP destroy: CCQPSTATUS stays 0x%08x\n",
				 status);
	}
	cancel_delayed_work_sync(&cqp->async_wd);
	irdma_cqp_fail_async(rf);
	WARN_ON(!xa_empty(&cqp->reqs));
	xa_destroy(&cqp->reqs);
	/* Value entries of completions whose waiter had timed out. */
	xa_destroy(&cqp->ah_waits);
	irdma_dma_free(rf, &cqp->feat_buf);
	irdma_dma_free(rf, &cqp->fpm_buf);
	irdma_dma_free(rf, &cqp->sq);
	irdma_dma_free(rf, &cqp->ctx);
	kfree(cqp->scratch);
	cqp->scratch = NULL;
	mutex_destroy(&cqp->mutex);
}

/*
 * Fills the next SQ slot with @q (qword 3 ignored) and a header of @hdr,
 * @op and the valid bit, remembers @id for it and rings the doorbell.
 * Caller holds cqp->lock. Returns the slot, or -EBUSY if the SQ is full.
 */
static int irdma_cqp_post_locked(struct irdma_pci_f *rf, u8 op, u64 hdr,
				 const u64 *q, u32 id)
{
	struct irdma_cqp *cqp = &rf->cqp;
	u32 idx = cqp->head;
	__le64 *wqe;
	unsigned int i;

	lockdep_assert_held(&cqp->lock);

	if (cqp->in_flight >= cqp->sq_size - 1)
		return -EBUSY;
	if (idx == 0)
		cqp->polarity = !cqp->polarity;
	wqe = (__le64 *)cqp->sq.va + idx * (E810_CQP_WQE_SIZE / 8);
	for (i = 0; i < E810_CQP_WQE_SIZE / 8; i++)
		if (i != E810_QW(E810_CQPSQ_HDR_OFF))
			WRITE_ONCE(wqe[i], cpu_to_le64(q ? q[i] : 0));
	cqp->scratch[idx] = id;
	/* Body before header: the device takes a valid header as complete. */
	dma_wmb();
	WRITE_ONCE(wqe[E810_QW(E810_CQPSQ_HDR_OFF)],
		   cpu_to_le64(hdr | FIELD_PREP(E810_CQPSQ_OPCODE, op) |
			       (cqp->polarity ? E810_CQPSQ_WQEVALID : 0)));
	cqp->head = (idx + 1) % cqp->sq_size;
	cqp->in_flight++;
	cqp->stats.posted[op & E810_CQP_OP_MAX]++;
	/* Header before the doorbell. */
	wmb();
	irdma_wr32(rf, IRDMA_REG(rf, cqpdb), cqp->head);
	return idx;
}

/*
 * Hands a completion to its request (by id); returns an asynchronous
 * request whose callback the caller must run, without the lock, and free.
 */
static struct irdma_cqp_req *irdma_cqp_complete_locked(struct irdma_pci_f *rf,
							u32 id, bool error,
							u16 major, u16 minor,
							u32 ret_val)
{
	struct irdma_cqp *cqp = &rf->cqp;
	struct irdma_cqp_req *req;

	cqp->in_flight--;
	cqp->stats.completed++;
	if (error)
		cqp->stats.errors++;
	req = xa_erase(&cqp->reqs, id);
	if (!req) {
		/* Its waiter gave up: nothing left to tell. */
		cqp->stats.stale++;
		return NULL;
	}
	req->error = error;
	req->major = major;
	req->minor = minor;
	req->ret_val = ret_val;
	req->done = true;
	if (req->cb) {
		cqp->async_pending--;
		return req;
	}
	complete(&req->cmpl);
	return NULL;
}

/**
 * irdma_ccq_process() - consume every valid CQE of the CCQ
 * @rf: per-function state
 *
 * Context: Any context: CEQ 0's tasklet, a polling request, a non-sleeping
 * AH request (ah.c).
 */
void irdma_ccq_process(struct irdma_pci_f *rf)
{
	struct irdma_cqp *cqp = &rf->cqp;
	struct irdma_cqp_req *done[16];
	unsigned long flags;
	unsigned int n, i;
	u64 hdr, ret, wqe_hdr;
	size_t off;
	u32 idx;

	do {
		n = 0;
		spin_lock_irqsave(&cqp->lock, flags);
		while (n < ARRAY_SIZE(done)) {
			off = (size_t)cqp->ccq_head * E810_CQE_SIZE;
			hdr = irdma_get64(&cqp->ccq_ring, off + E810_CQE_HDR_OFF);
			if (!!(hdr & E810_CQE_VALID) != cqp->ccq_polarity)
				break;
			/* The rest of the CQE after its valid bit. */
			dma_rmb();
			hdr = irdma_get64(&cqp->ccq_ring, off + E810_CQE_HDR_OFF);
			ret = irdma_get64(&cqp->ccq_ring,
					  off + E810_CCQ_CQE_RET_OFF);
			idx = FIELD_GET(E810_CQE_WQEIDX, hdr) % cqp->sq_size;
			wqe_hdr = irdma_get64(&cqp->sq, idx * E810_CQP_WQE_SIZE +
					      E810_CQPSQ_HDR_OFF);
			if (hdr & E810_CQE_ERROR)
				irdma_cqp_err_log(rf,
					FIELD_GET(E810_CQE_MAJERR, hdr),
					FIELD_GET(E810_CQE_MINERR, hdr),
					"CQP op %s (slot %u) failed: major 0x%04llx minor 0x%04llx\n",
					irdma_cqp_op_name(FIELD_GET(E810_CQPSQ_OPCODE,
								    wqe_hdr)),
					idx, FIELD_GET(E810_CQE_MAJERR, hdr),
					FIELD_GET(E810_CQE_MINERR, hdr));
			done[n] = irdma_cqp_complete_locked(rf,
					cqp->scratch[idx],
					hdr & E810_CQE_ERROR,
					FIELD_GET(E810_CQE_MAJERR, hdr),
					FIELD_GET(E810_CQE_MINERR, hdr),
					FIELD_GET(E810_CCQ_OPRETVAL, ret));
			if (done[n])
				n++;
			cqp->ccq_head++;
			if (cqp->ccq_head == cqp->ccq_size) {
				cqp->ccq_head = 0;
				cqp->ccq_polarity = !cqp->ccq_polarity;
			}
			irdma_set64(&cqp->ccq_shadow, E810_CQ_DBSA_HEAD_OFF,
				    FIELD_PREP(E810_CQ_DBSA_CQEIDX,
					       cqp->ccq_head));
		}
		spin_unlock_irqrestore(&cqp->lock, flags);
		for (i = 0; i < n; i++) {
			done[i]->cb(rf, done[i]->id,
				    done[i]->error ? -EIO : 0, done[i]->ret_val);
			kfree(done[i]);
		}
	} while (n == ARRAY_SIZE(done));
}

/**
 * irdma_ccq_arm() - ask for a CEQE on the next CCQ completion
 * @rf: per-function state
 */
void irdma_ccq_arm(struct irdma_pci_f *rf)
{
	struct irdma_cqp *cqp = &rf->cqp;
	unsigned long flags;
	u64 v;

	spin_lock_irqsave(&cqp->lock, flags);
	v = irdma_get64(&cqp->ccq_shadow, E810_CQ_DBSA_ARM_OFF);
	v = FIELD_PREP(E810_CQ_DBSA_ARM_SEQ_NUM,
		       FIELD_GET(E810_CQ_DBSA_ARM_SEQ_NUM, v) + 1) |
	    (v & E810_CQ_DBSA_SW_CQ_SELECT) | E810_CQ_DBSA_ARM_NEXT_SE |
	    E810_CQ_DBSA_ARM_NEXT;
	irdma_set64(&cqp->ccq_shadow, E810_CQ_DBSA_ARM_OFF, v);
	spin_unlock_irqrestore(&cqp->lock, flags);
	/* The arm word before the doorbell. */
	wmb();
	irdma_wr32(rf, IRDMA_REG(rf, cqarm), FIELD_PREP(E810_CQARM_CQID, 0));
}

/* Posts under the lock with a fresh id registered for @req. */
static int irdma_cqp_post_req(struct irdma_pci_f *rf, struct irdma_cqp_req *req,
			      u64 hdr, const u64 *q, u32 *id)
{
	struct irdma_cqp *cqp = &rf->cqp;
	unsigned long flags;
	int ret;

	if (cqp->hung || rf->resetting)
		return -EIO;
	spin_lock_irqsave(&cqp->lock, flags);
	req->id = cqp->next_id++;
	if (!cqp->next_id)
		cqp->next_id = 1;
	*id = req->id;
	ret = xa_err(xa_store(&cqp->reqs, req->id, req, GFP_ATOMIC));
	if (!ret) {
		ret = irdma_cqp_post_locked(rf, req->op, hdr, q, req->id);
		if (ret < 0)
			xa_erase(&cqp->reqs, req->id);
	}
	spin_unlock_irqrestore(&cqp->lock, flags);
	return ret < 0 ? ret : 0;
}

/*
 * The watchdog gave up on @req: forget it and ask for a reset. Returns
 * false if its completion slipped in meanwhile (then nothing is wrong).
 */
static bool irdma_cqp_hung(struct irdma_pci_f *rf, struct irdma_cqp_req *req)
{
	struct irdma_cqp *cqp = &rf->cqp;
	u32 head, in_flight, ccq_head;
	bool pending, ccq_valid;
	unsigned long flags;

	spin_lock_irqsave(&cqp->lock, flags);
	pending = xa_erase(&cqp->reqs, req->id);
	if (pending) {
		cqp->stats.timeouts++;
		cqp->hung = true;
		irdma_ev_inc(rf, IRDMA_EV_CQP_HANGS);
	}
	head = cqp->head;
	in_flight = cqp->in_flight;
	ccq_head = cqp->ccq_head;
	ccq_valid = !!(irdma_get64(&cqp->ccq_ring,
				   (size_t)ccq_head * E810_CQE_SIZE +
				   E810_CQE_HDR_OFF) & E810_CQE_VALID) ==
		    cqp->ccq_polarity;
	spin_unlock_irqrestore(&cqp->lock, flags);
	if (!pending)
		return false;
	if (rf->resetting)
		return true;
	/* Enough state to tell a lost doorbell from a lost completion. */
	dev_err(irdma_rf_to_dev(rf),
		"CQP hung: %s (request %u) not completed, CQPTAIL 0x%08x, CQPERRCODES 0x%08x, SQ head %u, in flight %u, CCQ head %u%s\n",
		irdma_cqp_op_name(req->op), req->id,
		irdma_rd32(rf, IRDMA_REG(rf, cqptail)), irdma_rd32(rf, IRDMA_REG(rf, cqperrcodes)),
		head, in_flight, ccq_head,
		ccq_valid ? " (CQE waiting: completion event lost)" : "");
	irdma_schedule_reset(rf, "CQP hung");
	return true;
}

/*
 * Waits for @req in CCQ mode (polling the CCQ, or by interrupt). Any
 * completion or CQPTAIL movement counts as progress; none for
 * IRDMA_CQP_HUNG_MS and the CQP is declared hung.
 */
static int irdma_cqp_wait(struct irdma_pci_f *rf, struct irdma_cqp_req *req)
{
	struct irdma_cqp *cqp = &rf->cqp;
	unsigned long last = jiffies;
	u64 seen = READ_ONCE(cqp->stats.completed), c;
	u32 tail = irdma_rd32(rf, IRDMA_REG(rf, cqptail)), t;

	for (;;) {
		if (cqp->mode == IRDMA_CQP_IRQ) {
			if (wait_for_completion_timeout(&req->cmpl,
				msecs_to_jiffies(IRDMA_CQP_WAIT_MS)))
				return 0;
		} else {
			irdma_ccq_process(rf);
			if (READ_ONCE(req->done))
				return 0;
			usleep_range(IRDMA_POLL_US, 2 * IRDMA_POLL_US);
		}
		t = irdma_rd32(rf, IRDMA_REG(rf, cqptail));
		c = READ_ONCE(cqp->stats.completed);
		if (c != seen || t != tail) {
			seen = c;
			tail = t;
			last = jiffies;
		}
		if (time_after(jiffies, last + msecs_to_jiffies(IRDMA_CQP_HUNG_MS)) ||
		    READ_ONCE(cqp->hung) || READ_ONCE(rf->resetting))
			break;
	}
	if (!irdma_cqp_hung(rf, req))
		return 0;
	return -ETIMEDOUT;
}

/* Posts and waits by CQPTAIL (no CCQ yet). */
static int irdma_cqp_exec_tail(struct irdma_pci_f *rf, u8 op, u64 hdr,
			       const u64 *q)
{
	struct irdma_cqp *cqp = &rf->cqp;
	unsigned long flags;
	u32 before, tail;
	int ret;

	if (cqp->hung || rf->resetting)
		return -EIO;
	before = FIELD_GET(E810_CQPTAIL_WQTAIL, irdma_rd32(rf, IRDMA_REG(rf, cqptail)));
	spin_lock_irqsave(&cqp->lock, flags);
	ret = irdma_cqp_post_locked(rf, op, hdr, q, 0);
	spin_unlock_irqrestore(&cqp->lock, flags);
	if (ret < 0)
		return ret;
	ret = readl_poll_timeout(rf->hw_addr + IRDMA_REG(rf, cqptail), tail,
				 FIELD_GET(E810_CQPTAIL_WQTAIL, tail) != before ||
				 (tail & E810_CQPTAIL_CQP_OP_ERR),
				 IRDMA_POLL_US, IRDMA_POLL_TIMEOUT_US);
	spin_lock_irqsave(&cqp->lock, flags);
	cqp->in_flight--;
	cqp->stats.completed++;
	spin_unlock_irqrestore(&cqp->lock, flags);
	if (ret) {
		cqp->stats.timeouts++;
		cqp->hung = true;
		irdma_ev_inc(rf, IRDMA_EV_CQP_HANGS);
		dev_err(irdma_rf_to_dev(rf), "CQP %s: CQPTAIL stays 0x%08x\n",
			irdma_cqp_op_name(op), tail);
		return ret;
	}
	if (tail & E810_CQPTAIL_CQP_OP_ERR) {
		u32 codes = irdma_rd32(rf, IRDMA_REG(rf, cqperrcodes));

		cqp->stats.errors++;
		irdma_cqp_err_log(rf, FIELD_GET(E810_CQPERRCODES_MAJOR, codes),
			FIELD_GET(E810_CQPERRCODES_MINOR, codes),
			"CQP op %s failed: major 0x%04lx minor 0x%04lx\n",
			irdma_cqp_op_name(op),
			FIELD_GET(E810_CQPERRCODES_MAJOR, codes),
			FIELD_GET(E810_CQPERRCODES_MINOR, codes));
		return -EIO;
	}
	return 0;
}

/**
 * irdma_cqp_exec() - run one CQP request and wait for its completion
 * @rf: per-function state
 * @op: CQP opcode
 * @hdr: header bits besides opcode and valid
 * @q: the 8 qwords of the WQE body (qword 3 ignored), or NULL
 * @ret_val: op_ret_val of the completion (NULL if not needed; not
 *	available before the CCQ exists)
 *
 * Context: Process context, sleeps.
 * Return: 0, -EIO if the device reported an error or the CQP is unusable,
 * -ETIMEDOUT if the watchdog gave up (a reset has been requested), -EBUSY
 * if the SQ is full.
 */
int irdma_cqp_exec(struct irdma_pci_f *rf, u8 op, u64 hdr, const u64 *q,
		   u32 *ret_val)
{
	struct irdma_cqp *cqp = &rf->cqp;
	struct irdma_cqp_req req = { .op = op };
	ktime_t start = ktime_get();
	bool polled;
	u32 req_id;
	u64 us;
	int err;

	if (cqp->mode == IRDMA_CQP_POLL_TAIL) {
		mutex_lock(&cqp->mutex);
		err = irdma_cqp_exec_tail(rf, op, hdr, q);
		mutex_unlock(&cqp->mutex);
		return err;
	}

	init_completion(&req.cmpl);
	/* Polled completions: one waiter at a time consumes the CCQ. */
	polled = cqp->mode == IRDMA_CQP_POLL_CCQ;
	if (polled)
		mutex_lock(&cqp->mutex);
	err = irdma_cqp_post_req(rf, &req, hdr, q, &req_id);
	if (!err)
		err = irdma_cqp_wait(rf, &req);
	if (polled)
		mutex_unlock(&cqp->mutex);
	if (err)
		return err;

	us = ktime_us_delta(ktime_get(), start);
	if (us > cqp->stats.max_wait_us)
		cqp->stats.max_wait_us = us;
	if (ret_val)
		*ret_val = req.ret_val;
	return req.error ? -EIO : 0;
}

/**
 * irdma_cqp_post_async() - post a CQP request without waiting
 * @rf: per-function state
 * @op: CQP opcode
 * @hdr: header bits besides opcode and valid
 * @q: the WQE body, or NULL
 * @cb: called with the request id, 0 or -EIO and op_ret_val when the
 *	completion arrives (from the CEQ 0 handler)
 * @id: the request id, for the caller to match in @cb
 *
 * Only once completions are interrupt driven.
 *
 * Context: Any context that may allocate with GFP_ATOMIC.
 * Return: 0 or a negative errno (then @cb is never called).
 */
int irdma_cqp_post_async(struct irdma_pci_f *rf, u8 op, u64 hdr,
			 const u64 *q, irdma_cqp_cb cb, u32 *id)
{
	struct irdma_cqp_req *req;
	unsigned long flags;
	int err;

	if (rf->cqp.mode != IRDMA_CQP_IRQ)
		return -EAGAIN;
	req = kzalloc(sizeof(*req), GFP_ATOMIC);
	if (!req)
		return -ENOMEM;
	req->op = op;
	req->cb = cb;
	/* Counted before the post: its completion may come at once. */
	spin_lock_irqsave(&rf->cqp.lock, flags);
	if (!rf->cqp.async_pending++)
		rf->cqp.wd_last = jiffies;	/* a new watch starts */
	spin_unlock_irqrestore(&rf->cqp.lock, flags);
	/*
	 * The id is taken under the CQP lock: once posted, the completion
	 * may free @req on another CPU before this function goes on.
	 */
	err = irdma_cqp_post_req(rf, req, hdr, q, id);
	if (err) {
		spin_lock_irqsave(&rf->cqp.lock, flags);
		rf->cqp.async_pending--;
		spin_unlock_irqrestore(&rf->cqp.lock, flags);
		kfree(req);
		return err;
	}
	schedule_delayed_work(&rf->cqp.async_wd,
			      msecs_to_jiffies(IRDMA_CQP_WAIT_MS * 5));
	return 0;
}

/**
 * irdma_ccq_create() - create the CCQ (CQ 0) and switch to CCQ completions
 * @rf: per-function state
 *
 * The CREATE_CQ of the CCQ completes into the new CCQ itself (hw-reference
 * 2.1).
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
int irdma_ccq_create(struct irdma_pci_f *rf)
{
	struct irdma_cqp *cqp = &rf->cqp;
	u64 q[8] = { };
	int err;

	cqp->ccq_size = IRDMA_CCQ_SIZE;
	err = irdma_dma_alloc(rf, &cqp->ccq_ring,
			      cqp->ccq_size * E810_CQE_SIZE, GFP_KERNEL);
	if (err)
		return err;
	err = irdma_dma_alloc(rf, &cqp->ccq_shadow, E810_CQ_SHADOW_SIZE,
			      GFP_KERNEL);
	if (err)
		goto err_ring;
	cqp->ccq_head = 0;
	cqp->ccq_polarity = true;

	q[E810_QW(E810_CQPSQ_CQ_SIZE_OFF)] =
		FIELD_PREP(E810_CQPSQ_CQ_CQSIZE, cqp->ccq_size);
	q[E810_QW(E810_CQPSQ_CQ_CTX_OFF)] = IRDMA_CCQ_CTX;
	q[E810_QW(E810_CQPSQ_CQ_THRESH_OFF)] =
		FIELD_PREP(E810_CQPSQ_CQ_SHADOW_READ_THRESHOLD,
			   IRDMA_CCQ_SHADOW_THRESH);
	q[E810_QW(E810_CQPSQ_CQ_PA_OFF)] = cqp->ccq_ring.pa;
	q[E810_QW(E810_CQPSQ_CQ_SHADOW_OFF)] = cqp->ccq_shadow.pa;
	cqp->mode = IRDMA_CQP_POLL_CCQ;
	err = irdma_cqp_exec(rf, E810_CQP_OP_CREATE_CQ,
			     irdma_cq_hdr_ids(rf, 0) |
			     irdma_cq_hdr_ceq(rf, 0) |
			     E810_CQPSQ_CQ_CEQIDVALID |
			     E810_CQPSQ_CQ_CHKOVERFLOW, q, NULL);
	if (err) {
		cqp->mode = IRDMA_CQP_POLL_TAIL;
		goto err_shadow;
	}
	dev_dbg(irdma_rf_to_dev(rf), "INIT: CCQ created, %u CQEs\n",
		cqp->ccq_size);
	return 0;

err_shadow:
	irdma_dma_free(rf, &cqp->ccq_shadow);
err_ring:
	irdma_dma_free(rf, &cqp->ccq_ring);
	return err;
}

/**
 * irdma_ccq_destroy() - undo irdma_ccq_create()
 * @rf: per-function state
 *
 * Completions are polled again by CQPTAIL: the CCQ's own destroy
 * completes there only.
 *
 * Context: Process context, sleeps.
 */
void irdma_ccq_destroy(struct irdma_pci_f *rf)
{
	struct irdma_cqp *cqp = &rf->cqp;
	u64 q[8] = { };

	cqp->mode = IRDMA_CQP_POLL_TAIL;
	q[E810_QW(E810_CQPSQ_CQ_SIZE_OFF)] =
		FIELD_PREP(E810_CQPSQ_CQ_CQSIZE, cqp->ccq_size);
	q[E810_QW(E810_CQPSQ_CQ_CTX_OFF)] = IRDMA_CCQ_CTX;
	q[E810_QW(E810_CQPSQ_CQ_PA_OFF)] = cqp->ccq_ring.pa;
	q[E810_QW(E810_CQPSQ_CQ_SHADOW_OFF)] = cqp->ccq_shadow.pa;
	if (!rf->resetting)
		irdma_cqp_exec(rf, E810_CQP_OP_DESTROY_CQ,
			       irdma_cq_hdr_ids(rf, 0) |
			       irdma_cq_hdr_ceq(rf, 0) |
			       E810_CQPSQ_CQ_CEQIDVALID, q, NULL);
	irdma_dma_free(rf, &cqp->ccq_shadow);
	irdma_dma_free(rf, &cqp->ccq_ring);
}

/**
 * irdma_query_features() - QUERY_RDMA_FEATURES: the firmware version
 * @rf: per-function state
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
int irdma_query_features(struct irdma_pci_f *rf)
{
	struct irdma_dma *buf = &rf->cqp.feat_buf;
	u64 q[8] = { };
	u64 v;
	int err;

	/*
	 * GEN_1 has no QUERY_RDMA_FEATURES: upstream keeps its default
	 * firmware info there, version 0.2 (IRDMA_FW_VER_DEFAULT).
	 */
	if (!irdma_has_ops(rf, E810_GEN_OP_RDMA_FEATURES)) {
		rf->fw_major = 0;
		rf->fw_minor = IRDMA_GEN1_FW_VER;
		return 0;
	}
	memset(buf->va, 0, buf->size);
	q[E810_QW(E810_CQPSQ_QRF_BUF_OFF)] = buf->pa;
	err = irdma_cqp_exec(rf, E810_CQP_OP_QUERY_RDMA_FEATURES,
			     FIELD_PREP(E810_CQPSQ_QRF_BUF_LEN, buf->size), q,
			     NULL);
	if (err)
		return err;
	v = irdma_get64(buf, 0);
	if (FIELD_GET(E810_FEATURE_TYPE, v) == E810_FEATURE_FW_INFO) {
		rf->fw_major = FIELD_GET(E810_FW_VER_MAJOR, v);
		rf->fw_minor = FIELD_GET(E810_FW_VER_MINOR, v);
	}
	dev_dbg(irdma_rf_to_dev(rf), "INIT: firmware %u.%u, %llu features\n",
		rf->fw_major, rf->fw_minor, FIELD_GET(E810_FEATURE_CNT, v));
	return 0;
}

/**
 * irdma_local_mac_add() - put the netdev's MAC into the local MAC table
 * @rf: per-function state; CQP completions work
 *
 * ALLOCATE_LOC_MAC_TABLE_ENTRY returns the entry index, MANAGE_LOC_MAC_TABLE
 * writes the MAC into it. The engine recognizes RoCE traffic to this MAC.
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
int irdma_local_mac_add(struct irdma_pci_f *rf)
{
	u64 q[8] = { };
	u32 idx;
	int err;

	err = irdma_cqp_exec(rf, E810_CQP_OP_ALLOCATE_LOC_MAC_TABLE_ENTRY, 0,
			     NULL, &idx);
	if (err)
		return err;
	if (idx >= E810_LOC_MAC_TABLE_SIZE) {
		dev_err(irdma_rf_to_dev(rf), "local MAC entry %u out of range\n",
			idx);
		return -EIO;
	}
	rf->mac_idx = idx;
	ether_addr_copy(rf->mac, rf->netdev->dev_addr);
	q[E810_QW(E810_CQPSQ_MLM_MAC_OFF)] = ether_addr_to_u64(rf->mac);
	err = irdma_cqp_exec(rf, E810_CQP_OP_MANAGE_LOC_MAC_TABLE,
			     FIELD_PREP(E810_CQPSQ_MLM_TABLEIDX, idx), q, NULL);
	if (err) {
		irdma_local_mac_del(rf);
		return err;
	}
	dev_dbg(irdma_rf_to_dev(rf), "INIT: local MAC %pM at entry %u\n",
		rf->mac, idx);
	return 0;
}

/**
 * irdma_local_mac_update() - the netdev's MAC changed: rewrite our entry
 * @rf: per-function state
 *
 * The entry keeps its index, so nothing that refers to it changes.
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
int irdma_local_mac_update(struct irdma_pci_f *rf)
{
	u64 q[8] = { };
	u8 mac[ETH_ALEN];
	int err;

	ether_addr_copy(mac, rf->netdev->dev_addr);
	q[E810_QW(E810_CQPSQ_MLM_MAC_OFF)] = ether_addr_to_u64(mac);
	err = irdma_cqp_exec(rf, E810_CQP_OP_MANAGE_LOC_MAC_TABLE,
			     FIELD_PREP(E810_CQPSQ_MLM_TABLEIDX, rf->mac_idx),
			     q, NULL);
	if (err)
		return err;
	irdma_ev_inc(rf, IRDMA_EV_LOCAL_MAC_UPDATES);
	dev_dbg(irdma_rf_to_dev(rf), "local MAC %pM -> %pM (entry %u)\n",
		rf->mac, mac, rf->mac_idx);
	ether_addr_copy(rf->mac, mac);
	return 0;
}

/**
 * irdma_local_mac_del() - free the local MAC table entry
 * @rf: per-function state
 *
 * Context: Process context, sleeps.
 */
void irdma_local_mac_del(struct irdma_pci_f *rf)
{
	if (rf->resetting)
		return;
	if (irdma_cqp_exec(rf, E810_CQP_OP_MANAGE_LOC_MAC_TABLE,
			   FIELD_PREP(E810_CQPSQ_MLM_TABLEIDX, rf->mac_idx) |
			   E810_CQPSQ_MLM_FREEENTRY |
			   E810_CQPSQ_MLM_IGNORE_REF_CNT, NULL, NULL))
		dev_warn(irdma_rf_to_dev(rf),
			 "local MAC entry %u not freed\n", rf->mac_idx);
}
