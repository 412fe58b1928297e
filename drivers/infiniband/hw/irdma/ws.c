// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: the RDMA work-scheduler tree and its qsets (one per traffic class).
 *
 * As upstream's irdma_ws_add() builds it for GEN_2: a root node (id 0,
 * its own parent), one node for the VSI under it and, per traffic class
 * in use, a leaf under the VSI node, all created with the CQP op
 * WORK_SCHED_NODE. The device answers a leaf's add with its QS handle
 * (op_ret_val). The leaf is then registered with the parent as an RDMA
 * qset of that traffic class (irdma_lan_register_qset(): the parent adds
 * a Tx scheduler leaf named by the QS handle, admin command 0x0C33, and
 * returns its TEID, needed to remove it again) and enabled (MODIFY). Every
 * QP context carries the QS handle of its user priority's traffic class.
 *
 * Leaves are made when the first QP of a traffic class needs one and
 * removed when the last one leaves (irdma_ws_remove(): WORK_SCHED_NODE
 * delete, then the parent's qset removal; the VSI node and the root go
 * with the last leaf). A QP holds its leaf from create to destroy; a
 * modify with a new address vector may move it to another user priority.
 * After a traffic-class change each QP moves to the leaf of its priority's
 * new traffic class before it is resumed (tc.c, as upstream's
 * irdma_sc_suspend_resume_qps()), the old leaf goes with its last QP.
 *
 * The parent refusing a qset fails the QP create or modify that needed it
 * (upstream fails them too); a QP that cannot move after a change is
 * resumed on its old qset and moved to the error state, as upstream does.
 */

#include <linux/bitfield.h>
#include <linux/if_vlan.h>
#include <linux/net.h>
#include <linux/seq_file.h>
#include <net/route.h>

#include "main.h"
#include "qp.h"

#define IRDMA_WS_ROOT_ID	0
/* Priority type of every node: weighted round robin (upstream's). */
#define IRDMA_WS_PRIO_WRR	1

/* One WORK_SCHED_NODE request; @qs_handle gets op_ret_val (may be NULL). */
static int irdma_ws_cqp(struct irdma_pci_f *rf, u8 op, u16 id, u16 parent,
			bool leaf, u8 tc, u8 weight, bool enable, u16 *qs_handle)
{
	u64 q[8] = { };
	u64 hdr;
	u32 ret = 0;
	int err;

	q[E810_QW(E810_CQPSQ_WS_VSI_OFF)] =
		FIELD_PREP(E810_CQPSQ_WS_VSI, rf->vsi_id) |
		FIELD_PREP(E810_CQPSQ_WS_WEIGHT, weight ? weight : 1);
	hdr = FIELD_PREP(E810_CQPSQ_WS_NODEOP, op) |
	      (enable ? E810_CQPSQ_WS_ENABLENODE : 0) |
	      (leaf ? E810_CQPSQ_WS_NODETYPE : 0) |
	      FIELD_PREP(E810_CQPSQ_WS_PRIOTYPE, IRDMA_WS_PRIO_WRR) |
	      FIELD_PREP(E810_CQPSQ_WS_TC, tc) |
	      FIELD_PREP(E810_CQPSQ_WS_PARENTID, parent) |
	      FIELD_PREP(E810_CQPSQ_WS_NODEID, id);
	err = irdma_cqp_exec(rf, E810_CQP_OP_WORK_SCHED_NODE, hdr, q, &ret);
	if (err)
		dev_err(irdma_rf_to_dev(rf), "WS: %s of node %u (parent %u%s) failed: %d\n",
			op == E810_WS_ADD_NODE ? "add" :
			op == E810_WS_MODIFY_NODE ? "modify" : "delete",
			id, parent, leaf ? ", leaf" : "", err);
	else if (qs_handle)
		*qs_handle = ret;
	return err;
}

/* Deletes a node; nothing reaches a device that is being reset. */
static void irdma_ws_del_node(struct irdma_pci_f *rf, u16 id, u16 parent,
			      bool leaf, u8 tc)
{
	if (!rf->resetting)
		irdma_ws_cqp(rf, E810_WS_DEL_NODE, id, parent, leaf, tc, 1,
			     false, NULL);
}

/* Root and VSI node, if missing. Caller holds ws->lock. */
static int irdma_ws_add_vsi(struct irdma_pci_f *rf)
{
	struct irdma_ws *ws = &rf->ws;
	int id, err;

	lockdep_assert_held(&ws->lock);

	if (!ws->root) {
		err = irdma_ws_cqp(rf, E810_WS_ADD_NODE, IRDMA_WS_ROOT_ID,
				   IRDMA_WS_ROOT_ID, false, 0, 1, true, NULL);
		if (err)
			return err;
		ws->root = true;
	}
	if (ws->vsi_node)
		return 0;
	id = ida_alloc_range(&ws->ids, 1, E810_WS_NODE_MAX - 1, GFP_KERNEL);
	if (id < 0)
		return id;
	err = irdma_ws_cqp(rf, E810_WS_ADD_NODE, id, IRDMA_WS_ROOT_ID, false, 0,
			   1, true, NULL);
	if (err) {
		ida_free(&ws->ids, id);
		return err;
	}
	ws->vsi_node = id;
	return 0;
}

/* VSI node and root once no leaf is left. Caller holds ws->lock. */
static void irdma_ws_del_vsi(struct irdma_pci_f *rf)
{
	struct irdma_ws *ws = &rf->ws;
	unsigned int tc;

	lockdep_assert_held(&ws->lock);

	for (tc = 0; tc < IRDMA_MAX_UP; tc++)
		if (ws->leaf[tc].node)
			return;
	if (ws->vsi_node) {
		irdma_ws_del_node(rf, ws->vsi_node, IRDMA_WS_ROOT_ID, false, 0);
		ida_free(&ws->ids, ws->vsi_node);
		ws->vsi_node = 0;
	}
	if (ws->root) {
		irdma_ws_del_node(rf, IRDMA_WS_ROOT_ID, IRDMA_WS_ROOT_ID, false,
				  0);
		ws->root = false;
	}
}

/* Removes the leaf of @tc: device node, then the parent's qset. */
static void irdma_ws_del_leaf(struct irdma_pci_f *rf, u8 tc)
{
	struct irdma_ws_leaf *l = &rf->ws.leaf[tc];
	int err;

	irdma_ws_del_node(rf, l->node, rf->ws.vsi_node, true, tc);
	err = rf->del_qset(rf, tc, l->qs_handle, l->teid);
	if (err)
		dev_dbg(irdma_rf_to_dev(rf), "WS: parent did not remove qset %u of TC %u: %d\n",
			l->qs_handle, tc, err);
	dev_dbg(irdma_rf_to_dev(rf), "WS: TC %u: qset %u (node %u, TEID 0x%x) removed\n",
		tc, l->qs_handle, l->node, l->teid);
	ida_free(&rf->ws.ids, l->node);
	memset(l, 0, sizeof(*l));
	rf->ws.removes++;
	irdma_ws_del_vsi(rf);
}

/* Makes the leaf of @tc: node, parent's qset, enable. */
static int irdma_ws_add_leaf(struct irdma_pci_f *rf, u8 tc)
{
	struct irdma_ws *ws = &rf->ws;
	struct irdma_ws_leaf *l = &ws->leaf[tc];
	u8 weight = rf->tc.qos.rel_bw[tc];
	u16 qs = 0;
	u32 teid = 0;
	int id, err;

	err = irdma_ws_add_vsi(rf);
	if (err)
		goto err_vsi;
	id = ida_alloc_range(&ws->ids, 1, E810_WS_NODE_MAX - 1, GFP_KERNEL);
	if (id < 0) {
		err = id;
		goto err_vsi;
	}
	err = irdma_ws_cqp(rf, E810_WS_ADD_NODE, id, ws->vsi_node, true, tc,
			   weight, false, &qs);
	if (err)
		goto err_id;
	err = rf->add_qset(rf, tc, qs, &teid);
	if (err) {
		dev_err(irdma_rf_to_dev(rf), "WS: the parent refused the RDMA qset of TC %u (QS handle %u): %d\n",
			tc, qs, err);
		goto err_node;
	}
	err = irdma_ws_cqp(rf, E810_WS_MODIFY_NODE, id, ws->vsi_node, true, tc,
			   weight, true, NULL);
	if (err)
		goto err_qset;
	l->node = id;
	l->qs_handle = qs;
	l->teid = teid;
	ws->adds++;
	dev_dbg(irdma_rf_to_dev(rf), "WS: TC %u: qset %u (node %u, TEID 0x%x)\n",
		tc, qs, id, teid);
	return 0;

err_qset:
	rf->del_qset(rf, tc, qs, teid);
err_node:
	irdma_ws_del_node(rf, id, ws->vsi_node, true, tc);
err_id:
	ida_free(&ws->ids, id);
err_vsi:
	ws->errors++;
	irdma_ws_del_vsi(rf);
	return err;
}

/* A reference on the leaf of @tc, made if needed. Caller holds ws->lock. */
static int irdma_ws_get(struct irdma_pci_f *rf, u8 tc)
{
	struct irdma_ws_leaf *l = &rf->ws.leaf[tc];
	int err;

	lockdep_assert_held(&rf->ws.lock);

	/* GEN_1: no tree; the parent's VSI queue set is the leaf. */
	if (!irdma_has_ops(rf, E810_GEN_OP_WS)) {
		l->qs_handle = rf->qs_handle;
		l->refs++;
		return 0;
	}
	if (!l->refs) {
		if (rf->resetting)
			return -EBUSY;
		err = irdma_ws_add_leaf(rf, tc);
		if (err)
			return err;
	}
	l->refs++;
	return 0;
}

/* Drops a reference taken by irdma_ws_get(). Caller holds ws->lock. */
static void irdma_ws_put(struct irdma_pci_f *rf, u8 tc)
{
	struct irdma_ws_leaf *l = &rf->ws.leaf[tc];

	lockdep_assert_held(&rf->ws.lock);

	if (!WARN_ON_ONCE(!l->refs) && !--l->refs &&
	    irdma_has_ops(rf, E810_GEN_OP_WS))
		irdma_ws_del_leaf(rf, tc);
}

/**
 * irdma_ws_up() - the user priority of a QP's or AH's traffic
 * @sgid: the source GID's attribute (its netdev may be a VLAN device)
 * @tclass: the traffic class (DSCP and ECN) of its GRH
 *
 * As upstream irdma_modify_qp_roce() and irdma_create_ah() take it
 * (without a DSCP map): rt_tos2priority() of the IP TOS byte, through the
 * VLAN device's egress priority map when the GID belongs to one
 * (upstream irdma_roce_get_vlan_prio()). It picks the qset and is the PCP
 * of the VLAN tag; the address's SL plays no part on RoCE.
 *
 * Context: Any context.
 * Return: 0..7.
 */
u8 irdma_ws_up(const struct ib_gid_attr *sgid, u8 tclass)
{
	u8 up = rt_tos2priority(tclass) & (IRDMA_MAX_UP - 1);
	struct net_device *ndev;

	rcu_read_lock();
	ndev = rcu_dereference(sgid->ndev);
	if (ndev && is_vlan_dev(ndev))
		up = (vlan_dev_get_egress_qos_mask(ndev, up) & VLAN_PRIO_MASK) >>
		     VLAN_PRIO_SHIFT;
	rcu_read_unlock();
	return up;
}

/**
 * irdma_ws_qp_attach() - give a new QP the qset of user priority @up
 * @qp: the QP, not yet created in the device
 * @up: user priority
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno (the parent refused the qset, the device
 * refused the node, a traffic-class change is in progress).
 */
int irdma_ws_qp_attach(struct irdma_qp *qp, u8 up)
{
	struct irdma_pci_f *rf = qp->rf;
	struct irdma_ws *ws = &rf->ws;
	u8 tc;
	int err;

	mutex_lock(&ws->lock);
	tc = rf->tc.qos.up2tc[up];
	err = READ_ONCE(rf->tc.pending) ? -EBUSY : irdma_ws_get(rf, tc);
	if (!err) {
		qp->user_pri = up;
		qp->ws_tc = tc;
		WRITE_ONCE(qp->qs_handle, ws->leaf[tc].qs_handle);
		list_add_tail(&qp->ws_link, &ws->qps);
	}
	mutex_unlock(&ws->lock);
	return err;
}

/**
 * irdma_ws_ref() - a qset for a driver queue that is no verbs QP (the ILQ)
 * @rf: per-function state
 * @up: user priority
 * @tc: the traffic class it maps to (out)
 * @qs_handle: that class's QS handle (out)
 *
 * The queue keeps the qset until irdma_ws_unref(); a traffic-class change
 * does not move it (it carries only connection set-up segments).
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
int irdma_ws_ref(struct irdma_pci_f *rf, u8 up, u8 *tc, u16 *qs_handle)
{
	struct irdma_ws *ws = &rf->ws;
	int err;

	mutex_lock(&ws->lock);
	*tc = rf->tc.qos.up2tc[up];
	err = irdma_ws_get(rf, *tc);
	if (!err)
		*qs_handle = ws->leaf[*tc].qs_handle;
	mutex_unlock(&ws->lock);
	return err;
}

/**
 * irdma_ws_unref() - undo irdma_ws_ref()
 * @rf: per-function state
 * @tc: the traffic class irdma_ws_ref() returned
 *
 * Context: Process context, sleeps.
 */
void irdma_ws_unref(struct irdma_pci_f *rf, u8 tc)
{
	mutex_lock(&rf->ws.lock);
	irdma_ws_put(rf, tc);
	mutex_unlock(&rf->ws.lock);
}

/**
 * irdma_ws_qp_detach() - a destroyed QP gives up its qset
 * @qp: the QP, attached
 *
 * Context: Process context, sleeps.
 */
void irdma_ws_qp_detach(struct irdma_qp *qp)
{
	struct irdma_pci_f *rf = qp->rf;

	mutex_lock(&rf->ws.lock);
	list_del(&qp->ws_link);
	irdma_ws_put(rf, qp->ws_tc);
	mutex_unlock(&rf->ws.lock);
}

/**
 * irdma_ws_qp_set_up() - move an attached QP to user priority @up
 * @qp: the QP; caller holds its mutex
 * @up: the new user priority
 *
 * The QP keeps its qset if the new priority maps to the same traffic class.
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno; on error the QP keeps its priority.
 */
int irdma_ws_qp_set_up(struct irdma_qp *qp, u8 up)
{
	struct irdma_pci_f *rf = qp->rf;
	struct irdma_ws *ws = &rf->ws;
	u8 tc;
	int err = 0;

	lockdep_assert_held(&qp->mutex);

	mutex_lock(&ws->lock);
	tc = rf->tc.qos.up2tc[up];
	if (tc != qp->ws_tc) {
		err = READ_ONCE(rf->tc.pending) ? -EBUSY : irdma_ws_get(rf, tc);
		if (!err) {
			irdma_ws_put(rf, qp->ws_tc);
			qp->ws_tc = tc;
			WRITE_ONCE(qp->qs_handle, ws->leaf[tc].qs_handle);
		}
	}
	if (!err)
		qp->user_pri = up;
	mutex_unlock(&ws->lock);
	return err;
}

/*
 * Moves the QP to the leaf of its priority's traffic class under the QoS
 * now in rf->tc.qos. Caller holds ws->lock.
 */
static int irdma_ws_qp_move(struct irdma_pci_f *rf, struct irdma_qp *qp)
{
	u8 tc = rf->tc.qos.up2tc[qp->user_pri];
	int err;

	lockdep_assert_held(&rf->ws.lock);

	if (tc == qp->ws_tc)
		return 0;
	err = irdma_ws_get(rf, tc);
	if (err)
		return err;
	irdma_ws_put(rf, qp->ws_tc);
	qp->ws_tc = tc;
	WRITE_ONCE(qp->qs_handle, rf->ws.leaf[tc].qs_handle);
	return 0;
}

/* The QP to ERR from a worker, if it is not being destroyed. */
static void irdma_ws_qp_fail(struct irdma_pci_f *rf, struct irdma_qp *qp)
{
	xa_lock_bh(&rf->qps);
	if (xa_load(&rf->qps, qp->qp_id) == qp) {
		set_bit(IRDMA_QP_AE_FATAL, &qp->ae_flags);
		queue_work(system_wq, &qp->ae_work);
	}
	xa_unlock_bh(&rf->qps);
}

/**
 * irdma_ws_tc_changed() - after a traffic-class change: move and resume
 * @rf: per-function state, rf->tc.qos already the new QoS
 * @suspended: the QPs to resume (by id), or NULL
 * @nbits: bits in @suspended
 * @resume: sends RESUME_QP for a QP id with a QS handle; 0 or an errno
 *
 * Every QP moves to the qset of its priority's new traffic class; the
 * suspended ones are then resumed with it. A QP whose new qset cannot be
 * made is resumed on its old one and moved to the error state (upstream
 * irdma_sc_suspend_resume_qps()).
 *
 * Context: Process context, sleeps; caller holds rf->tc.lock.
 * Return: the number of QPs that moved to another qset.
 */
u32 irdma_ws_tc_changed(struct irdma_pci_f *rf, unsigned long *suspended,
			u32 nbits,
			int (*resume)(struct irdma_pci_f *rf, u32 id, u16 qs))
{
	struct irdma_ws *ws = &rf->ws;
	struct irdma_qp *qp;
	u32 moved = 0;
	u16 old;
	int err;

	lockdep_assert_held(&rf->tc.lock);

	mutex_lock(&ws->lock);
	list_for_each_entry(qp, &ws->qps, ws_link) {
		old = qp->qs_handle;
		err = irdma_ws_qp_move(rf, qp);
		if (err)
			dev_err(irdma_rf_to_dev(rf),
				"TC: QP %u: no qset for TC %u (%d): it goes to the error state\n",
				qp->qp_id, rf->tc.qos.up2tc[qp->user_pri], err);
		else if (old != qp->qs_handle)
			moved++;
		if (suspended && qp->qp_id < nbits &&
		    test_bit(qp->qp_id, suspended)) {
			__clear_bit(qp->qp_id, suspended);
			resume(rf, qp->qp_id, qp->qs_handle);
		}
		if (err)
			irdma_ws_qp_fail(rf, qp);
	}
	mutex_unlock(&ws->lock);
	return moved;
}

/**
 * irdma_ws_init() - set up the work-scheduler state at bind
 * @rf: per-function state
 */
void irdma_ws_init(struct irdma_pci_f *rf)
{
	mutex_init(&rf->ws.lock);
	ida_init(&rf->ws.ids);
	INIT_LIST_HEAD(&rf->ws.qps);
}

/**
 * irdma_ws_reset() - remove every leaf left (upstream irdma_ws_reset())
 * @rf: per-function state
 *
 * Called at teardown after the QPs are gone; normally nothing is left.
 *
 * Context: Process context, sleeps.
 */
void irdma_ws_reset(struct irdma_pci_f *rf)
{
	struct irdma_ws *ws = &rf->ws;
	unsigned int tc;

	mutex_lock(&ws->lock);
	for (tc = 0; tc < IRDMA_MAX_UP; tc++) {
		if (!ws->leaf[tc].node)
			continue;
		dev_warn(irdma_rf_to_dev(rf), "WS: TC %u still has %u QPs at teardown\n",
			 tc, ws->leaf[tc].refs);
		irdma_ws_del_leaf(rf, tc);
	}
	irdma_ws_del_vsi(rf);
	mutex_unlock(&ws->lock);
}

/**
 * irdma_ws_fini() - undo irdma_ws_init()
 * @rf: per-function state
 */
void irdma_ws_fini(struct irdma_pci_f *rf)
{
	ida_destroy(&rf->ws.ids);
	mutex_destroy(&rf->ws.lock);
}

/**
 * irdma_ws_show() - the tree for debugfs "tc"
 * @m: the seq_file
 * @rf: per-function state
 */
void irdma_ws_show(struct seq_file *m, struct irdma_pci_f *rf)
{
	struct irdma_ws *ws = &rf->ws;
	unsigned int tc;

	mutex_lock(&ws->lock);
	seq_printf(m, "ws_root %d\nws_vsi_node %u\nws_adds %llu\nws_removes %llu\nws_errors %llu\n",
		   ws->root, ws->vsi_node, ws->adds, ws->removes, ws->errors);
	for (tc = 0; tc < IRDMA_MAX_UP; tc++) {
		const struct irdma_ws_leaf *l = &ws->leaf[tc];

		if (l->node)
			seq_printf(m, "qset tc %u qs_handle %u node %u teid 0x%x qps %u\n",
				   tc, l->qs_handle, l->node, l->teid, l->refs);
	}
	mutex_unlock(&ws->lock);
}
