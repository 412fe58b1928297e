// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: traffic-class (DCB/ETS) changes of the parent.
 *
 * Before the parent rebuilds its transmit scheduler it sends
 * BEFORE_TC_CHANGE: every QP that may transmit is suspended with
 * SUSPEND_QP (0x29) and we wait, bounded, for the AE 0x0900 "QP suspend
 * complete" of each one (docs/hw-reference.md 2.5 and 4.4). The CQP completion
 * and the AE arrive in either order, so the count of outstanding suspends is
 * raised before each request and lowered by the AE. After AFTER_TC_CHANGE the
 * QoS is read again, every QP moves to the qset of its priority's new traffic
 * class (ws.c) and each suspended QP gets RESUME_QP (0x2A) with that qset's QS
 * handle; doorbells rung in between are served then (the device remembered
 * them).
 */

#include <linux/bitmap.h>
#include <linux/bitfield.h>
#include <linux/jiffies.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include <hw/e810_ctx.h>

#include "main.h"
#include "events.h"
#include "qp.h"

/*
 * How long BEFORE_TC_CHANGE waits for the suspend AEs: upstream's
 * irdma_prep_tc_change() waits IRDMA_EVENT_TIMEOUT_MS, 5 s.
 */
#define IRDMA_TC_SUSPEND_MS	5000
/* How long a QP modify waits for a change in progress to end. */
#define IRDMA_TC_IDLE_MS	5000

/**
 * irdma_tc_set_qos() - take a QoS report from the parent
 * @rf: per-function state
 * @qos: what the parent reports
 *
 * Out-of-range values are logged and clamped: a traffic class beyond
 * num_tc becomes TC 0, which always exists.
 */
static void irdma_tc_set_qos(struct irdma_pci_f *rf,
			     const struct irdma_qos *qos)
{
	struct irdma_tc *tc = &rf->tc;
	unsigned int up;

	tc->qos = *qos;
	if (!tc->qos.num_tc || tc->qos.num_tc > IRDMA_MAX_UP) {
		dev_warn(irdma_rf_to_dev(rf), "TC: parent reports %u TCs, using 1\n",
			 qos->num_tc);
		tc->qos.num_tc = 1;
	}
	for (up = 0; up < IRDMA_MAX_UP; up++) {
		if (tc->qos.up2tc[up] < tc->qos.num_tc)
			continue;
		dev_warn(irdma_rf_to_dev(rf), "TC: priority %u maps to TC %u of %u, using TC 0\n",
			 up, tc->qos.up2tc[up], tc->qos.num_tc);
		tc->qos.up2tc[up] = 0;
	}
}

/**
 * irdma_tc_init() - set up traffic-class handling at probe
 * @rf: per-function state
 * @qos: the parent's QoS at probe
 *
 * Context: Process context.
 */
void irdma_tc_init(struct irdma_pci_f *rf, const struct irdma_qos *qos)
{
	struct irdma_tc *tc = &rf->tc;

	mutex_init(&tc->lock);
	init_waitqueue_head(&tc->wq);
	atomic_set(&tc->suspends_left, 0);
	atomic64_set(&tc->suspend_aes, 0);
	irdma_tc_set_qos(rf, qos);
	tc->rdma_tc = tc->qos.up2tc[0];
}

/**
 * irdma_tc_fini() - undo irdma_tc_init() at remove
 * @rf: per-function state
 *
 * A change the parent never finished (we are unbound between its two
 * events) leaves its bitmap behind; the QPs go away with the device.
 *
 * Context: Process context; no event handler runs any more.
 */
void irdma_tc_fini(struct irdma_pci_f *rf)
{
	struct irdma_tc *tc = &rf->tc;

	mutex_lock(&tc->lock);
	WRITE_ONCE(tc->pending, false);
	bitmap_free(tc->suspended);
	tc->suspended = NULL;
	tc->nbits = 0;
	mutex_unlock(&tc->lock);
	wake_up_all(&tc->wq);
	mutex_destroy(&tc->lock);
}

/* QPs that may transmit: the context is loaded and not in error. */
static bool irdma_tc_qp_active(struct irdma_qp *qp)
{
	u8 s = READ_ONCE(qp->hw_state);

	return s == E810_QP_STATE_RTR || s == E810_QP_STATE_RTS ||
	       s == E810_QP_STATE_SQD;
}

/*
 * Marks in @tc->suspended the QPs to suspend. Under the xarray lock a QP
 * found cannot be destroyed (destroy erases it first), so its state may
 * be read; the commands are sent afterwards by id only.
 */
static void irdma_tc_pick_qps(struct irdma_pci_f *rf)
{
	struct irdma_tc *tc = &rf->tc;
	struct irdma_qp *qp;
	unsigned long id;

	xa_lock_bh(&rf->qps);
	xa_for_each(&rf->qps, id, qp) {
		if (id < tc->nbits && irdma_tc_qp_active(qp))
			__set_bit(id, tc->suspended);
	}
	xa_unlock_bh(&rf->qps);
}

/**
 * irdma_tc_before() - BEFORE_TC_CHANGE: suspend every active QP
 * @rf: per-function state
 *
 * Returns when all suspend AEs arrived or after IRDMA_TC_SUSPEND_MS;
 * never fails: the parent goes on with its change either way.
 *
 * Context: Process context, sleeps; the parent holds the device lock.
 */
void irdma_tc_before(struct irdma_pci_f *rf)
{
	struct ib_device *ibdev = rf->iwdev ? &rf->iwdev->ibdev : NULL;
	struct irdma_tc *tc = &rf->tc;
	unsigned long id;
	u32 issued = 0;
	long left;
	int err;

	irdma_ev_inc(rf, IRDMA_EV_TC_BEFORE);
	mutex_lock(&tc->lock);
	if (tc->pending) {
		/* Two BEFOREs in a row: the QPs are suspended already. */
		mutex_unlock(&tc->lock);
		return;
	}
	tc->changes++;
	WRITE_ONCE(tc->pending, true);
	if (!ibdev || rf->resetting) {
		mutex_unlock(&tc->lock);
		return;
	}
	tc->nbits = rf->hmc.obj[E810_HMC_QP].cnt;
	tc->suspended = bitmap_zalloc(tc->nbits, GFP_KERNEL);
	if (!tc->suspended) {
		tc->nbits = 0;
		ibdev_warn(ibdev, "TC: no memory to track suspends, QPs keep running\n");
		mutex_unlock(&tc->lock);
		return;
	}
	irdma_tc_pick_qps(rf);

	for_each_set_bit(id, tc->suspended, tc->nbits) {
		/* The AE may come before the CQP completion: count first. */
		atomic_inc(&tc->suspends_left);
		err = irdma_cqp_exec(rf, E810_CQP_OP_SUSPEND_QP,
				     FIELD_PREP(E810_CQPSQ_SUSPENDQP_QPID, id),
				     NULL, NULL);
		if (err) {
			/* Destroyed meanwhile, or the CQP is gone: no AE. */
			atomic_dec(&tc->suspends_left);
			__clear_bit(id, tc->suspended);
			tc->errors++;
			ibdev_dbg(ibdev, "TC: SUSPEND_QP %lu failed: %d\n", id,
				  err);
			continue;
		}
		tc->suspends++;
		issued++;
	}

	left = wait_event_timeout(tc->wq, !atomic_read(&tc->suspends_left),
				  msecs_to_jiffies(IRDMA_TC_SUSPEND_MS));
	if (!left) {
		tc->timeouts++;
		ibdev_warn(ibdev, "TC: %d of %u QP suspends not confirmed after %u ms\n",
			   atomic_read(&tc->suspends_left), issued,
			   IRDMA_TC_SUSPEND_MS);
		/* Late AEs must not count against the next change. */
		atomic_set(&tc->suspends_left, 0);
	}
	ibdev_dbg(ibdev, "TC change: %u QPs suspended\n", issued);
	mutex_unlock(&tc->lock);
}

/* RESUME_QP of QP @id on the qset @qs (from irdma_ws_tc_changed()). */
static int irdma_tc_resume(struct irdma_pci_f *rf, u32 id, u16 qs)
{
	struct irdma_tc *tc = &rf->tc;
	u64 q[8] = { };
	int err;

	q[E810_QW(E810_CQPSQ_RESUMEQP_QS_OFF)] =
		FIELD_PREP(E810_CQPSQ_RESUMEQP_QSHANDLE, qs);
	err = irdma_cqp_exec(rf, E810_CQP_OP_RESUME_QP,
			     FIELD_PREP(E810_CQPSQ_RESUMEQP_QPID, id), q, NULL);
	if (err) {
		/* A QP destroyed while suspended is no error. */
		tc->errors++;
		dev_dbg(irdma_rf_to_dev(rf), "TC: RESUME_QP %u failed: %d\n",
			id, err);
		return err;
	}
	tc->resumes++;
	tc->resumed++;
	return 0;
}

/**
 * irdma_tc_after() - AFTER_TC_CHANGE: new QoS, resume the suspended QPs
 * @rf: per-function state
 * @qos: the parent's QoS after the change
 *
 * Context: Process context, sleeps; the parent holds the device lock.
 */
void irdma_tc_after(struct irdma_pci_f *rf, const struct irdma_qos *qos)
{
	struct ib_device *ibdev = rf->iwdev ? &rf->iwdev->ibdev : NULL;
	struct irdma_tc *tc = &rf->tc;
	u32 resumed, moved;
	u8 old_tc;

	irdma_ev_inc(rf, IRDMA_EV_TC_AFTER);
	mutex_lock(&tc->lock);
	old_tc = tc->rdma_tc;
	/* QPs being created or modified read the QoS under ws.lock. */
	mutex_lock(&rf->ws.lock);
	irdma_tc_set_qos(rf, qos);
	mutex_unlock(&rf->ws.lock);
	tc->rdma_tc = tc->qos.up2tc[0];
	if (ibdev && tc->rdma_tc != old_tc)
		ibdev_dbg(ibdev, "TC: RDMA priority 0 moves from TC %u to TC %u\n",
			   old_tc, tc->rdma_tc);
	moved = irdma_ws_tc_changed(rf, tc->suspended, tc->nbits,
				    irdma_tc_resume);
	tc->moved += moved;
	resumed = tc->resumed;
	tc->resumed = 0;
	bitmap_free(tc->suspended);
	tc->suspended = NULL;
	tc->nbits = 0;
	WRITE_ONCE(tc->pending, false);
	if (ibdev)
		ibdev_dbg(ibdev, "TC change: %u TCs, %u QPs resumed, %u on a new qset\n",
			   tc->qos.num_tc, resumed, moved);
	mutex_unlock(&tc->lock);
	wake_up_all(&tc->wq);
}

/**
 * irdma_tc_suspend_ae() - AE 0x0900 "QP suspend complete"
 * @rf: per-function state
 * @qp_id: the QP the AE names
 *
 * Context: Softirq (the AEQ's tasklet).
 */
void irdma_tc_suspend_ae(struct irdma_pci_f *rf, u32 qp_id)
{
	struct irdma_tc *tc = &rf->tc;

	atomic64_inc(&tc->suspend_aes);
	/* Late AEs (after a timeout) find the count at 0 and leave it. */
	if (atomic_dec_if_positive(&tc->suspends_left) == 0)
		wake_up_all(&tc->wq);
	dev_dbg(irdma_rf_to_dev(rf), "TC: QP %u suspended\n", qp_id);
}

/**
 * irdma_tc_wait_idle() - wait until no traffic-class change is in progress
 * @rf: per-function state
 *
 * For paths that make a QP able to transmit (modify to RTR/RTS): a QP
 * that comes up during a change would miss both the suspend and the
 * resume, so it waits for the change to end instead.
 *
 * Context: Process context, sleeps; the caller must not hold the parent's
 * device lock.
 * Return: 0, -EBUSY if the change did not end in IRDMA_TC_IDLE_MS,
 * -EINTR on a fatal signal.
 */
int irdma_tc_wait_idle(struct irdma_pci_f *rf)
{
	struct irdma_tc *tc = &rf->tc;
	long left;

	if (!READ_ONCE(tc->pending))
		return 0;
	left = wait_event_killable_timeout(tc->wq, !READ_ONCE(tc->pending),
					   msecs_to_jiffies(IRDMA_TC_IDLE_MS));
	if (left < 0)
		return -EINTR;
	return left ? 0 : -EBUSY;
}

/**
 * irdma_tc_show() - debugfs "tc": QoS and suspend/resume counters
 * @m: the seq_file
 * @rf: per-function state
 *
 * Return: 0.
 */
int irdma_tc_show(struct seq_file *m, struct irdma_pci_f *rf)
{
	struct irdma_tc *tc = &rf->tc;
	unsigned int i;

	mutex_lock(&tc->lock);
	seq_printf(m, "num_tc %u\nup2tc", tc->qos.num_tc);
	for (i = 0; i < IRDMA_MAX_UP; i++)
		seq_printf(m, " %u", tc->qos.up2tc[i]);
	seq_puts(m, "\nrel_bw");
	for (i = 0; i < IRDMA_MAX_UP; i++)
		seq_printf(m, " %u", tc->qos.rel_bw[i]);
	seq_printf(m, "\nrdma_tc %u\npending %d\nmoved %llu\n",
		   tc->rdma_tc, tc->pending, tc->moved);
	seq_printf(m, "changes %llu\nsuspends %llu\nsuspend_aes %lld\nresumes %llu\ntimeouts %llu\nerrors %llu\n",
		   tc->changes, tc->suspends,
		   (long long)atomic64_read(&tc->suspend_aes), tc->resumes,
		   tc->timeouts, tc->errors);
	irdma_ws_show(m, rf);
	mutex_unlock(&tc->lock);
	return 0;
}
