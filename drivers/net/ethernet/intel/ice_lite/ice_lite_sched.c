// SPDX-License-Identifier: GPL-2.0-only
/* ice_lite: the Tx scheduler. Builds the PF's branch of the firmware's
 * scheduler tree, adds Tx LAN queues (0x0C30) and RDMA qsets (0x0C33) as
 * leaves of it and removes either with disable Tx queues (0x0C31).
 *
 * As ice_sched_cfg_vsi() does for its VSI: the default topology (0x0400)
 * gives the TC 0 node; one generic node per layer (0x0401) goes from
 * under it down to the VSI layer, and below the VSI node one branch per
 * owner (LAN, RDMA) down to a queue-group node, the parent of the
 * owner's leaves. The nodes are deleted (0x040F), leaves first, when the
 * VSI goes away; a reset drops them in the firmware anyway.
 */

#include <linux/bitfield.h>

#include "ice_lite.h"

/* 9 layers (E810 default): VSI layer as ice_sched_get_vsi_layer(). */
#define ICE_LITE_SCHED_VSI_LAYER	(E810_SCHED_NUM_LAYERS - 4)

static_assert(ICE_LITE_SCHED_MAX_NODES >=
	      ICE_LITE_SCHED_VSI_LAYER - E810_SCHED_LAYER_TC +
	      2 * (E810_SCHED_LAYER_QGRP - ICE_LITE_SCHED_VSI_LAYER));

/* 0x0401 buffer: one group holding one node. */
struct ice_lite_add_node_buf {
	struct e810_aqc_txsched_topo_grp_info_hdr hdr;
	struct e810_aqc_txsched_elem_data elem;
};

static_assert(sizeof(struct ice_lite_add_node_buf) == 8 + 24);

/* 0x040F buffer: one group holding one TEID. */
struct ice_lite_del_node_buf {
	struct e810_aqc_txsched_topo_grp_info_hdr hdr;
	__le32 teid;
};

static_assert(sizeof(struct ice_lite_del_node_buf) == 8 + 4);

/* 0x0C30 buffer: one group holding one queue. */
struct ice_lite_add_txq_buf {
	struct e810_aqc_add_tx_qgrp grp;
	struct e810_aqc_add_txqs_perq q;
};

static_assert(sizeof(struct ice_lite_add_txq_buf) == 8 + 48);

/* 0x0C31 buffer: one item with one id; num_qs is odd, so no padding. */
struct ice_lite_dis_txq_buf {
	struct e810_aqc_dis_txq_item item;
	__le16 q_id;
} __packed;

static_assert(sizeof(struct ice_lite_dis_txq_buf) == 8);

/* 0x0C33 buffer: one group holding one qset. */
struct ice_lite_add_qset_buf {
	struct e810_aqc_add_rdma_qset_grp grp;
	struct e810_aqc_add_rdma_qset_perq q;
};

static_assert(sizeof(struct ice_lite_add_qset_buf) == 8 + 24);

/**
 * ice_lite_sched_dflt_elem() - scheduler element info ice gives a leaf
 * @info: the element info to fill
 */
static void ice_lite_sched_dflt_elem(struct e810_aqc_txsched_elem *info)
{
	info->valid_sections = E810_AQC_ELEM_VALID_GENERIC |
			       E810_AQC_ELEM_VALID_CIR |
			       E810_AQC_ELEM_VALID_EIR;
	info->cir_bw_profile_idx = cpu_to_le16(E810_SCHED_DFLT_RL_PROF_ID);
	info->cir_bw_alloc = cpu_to_le16(E810_SCHED_DFLT_BW_WT);
	info->eir_bw_profile_idx = cpu_to_le16(E810_SCHED_DFLT_RL_PROF_ID);
	info->eir_bw_alloc = cpu_to_le16(E810_SCHED_DFLT_BW_WT);
}

/**
 * ice_lite_sched_tc_node() - TC 0 node of the default topology (0x0400)
 * @pf: the PF
 * @teid: out: the TC node
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
static int ice_lite_sched_tc_node(struct ice_lite_pf *pf, u32 *teid)
{
	struct e810_aqc_get_topo_elem *buf;
	struct e810_aqc_get_topo *cmd;
	struct e810_aq_desc desc;
	int err;

	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	ice_lite_aq_fill_desc(&desc, E810_AQC_GET_DFLT_TOPO);
	cmd = (struct e810_aqc_get_topo *)desc.params.raw;
	cmd->port_num = pf->lport;
	err = ice_lite_aq_send(pf, &desc, buf, sizeof(*buf));
	if (err) {
		dev_err(ice_lite_pf_to_dev(pf),
			"get default Tx topology failed: %d (retval %u)\n",
			err, le16_to_cpu(desc.retval));
	} else if (!cmd->num_branches ||
		   le16_to_cpu(buf->hdr.num_elems) <= E810_SCHED_LAYER_TC ||
		   buf->generic[E810_SCHED_LAYER_TC].data.elem_type !=
		   E810_AQC_ELEM_TYPE_TC) {
		dev_err(ice_lite_pf_to_dev(pf),
			"default Tx topology without a TC node\n");
		err = -EIO;
	} else {
		*teid = le32_to_cpu(buf->generic[E810_SCHED_LAYER_TC].node_teid);
	}
	kfree(buf);
	return err;
}

/**
 * ice_lite_sched_add_node() - add one generic scheduler node (0x0401)
 * @pf: the PF
 * @parent: TEID of the parent, one layer up
 *
 * The node is remembered in @pf->sched for ice_lite_sched_deinit().
 *
 * Context: Process context.
 * Return: the new node's TEID, or a negative errno.
 */
static s64 ice_lite_sched_add_node(struct ice_lite_pf *pf, u32 parent)
{
	struct ice_lite_sched *sched = &pf->sched;
	struct ice_lite_add_node_buf buf = {};
	struct e810_aqc_sched_elem_cmd *cmd;
	struct e810_aq_desc desc;
	u32 teid;
	int err;

	if (sched->num_nodes == ICE_LITE_SCHED_MAX_NODES)
		return -ENOSPC;
	buf.hdr.parent_teid = cpu_to_le32(parent);
	buf.hdr.num_elems = cpu_to_le16(1);
	buf.elem.parent_teid = cpu_to_le32(parent);
	ice_lite_sched_dflt_elem(&buf.elem.data);
	buf.elem.data.elem_type = E810_AQC_ELEM_TYPE_SE_GENERIC;

	ice_lite_aq_fill_desc(&desc, E810_AQC_ADD_SCHED_ELEMS);
	desc.flags |= cpu_to_le16(E810_AQ_FLAG_RD);
	cmd = (struct e810_aqc_sched_elem_cmd *)desc.params.raw;
	cmd->num_elem_req = cpu_to_le16(1);
	err = ice_lite_aq_send(pf, &desc, &buf, sizeof(buf));
	if (!err && le16_to_cpu(cmd->num_elem_resp) != 1)
		err = -EIO;
	if (err) {
		dev_err(ice_lite_pf_to_dev(pf),
			"add scheduler node under 0x%x failed: %d (retval %u)\n",
			parent, err, le16_to_cpu(desc.retval));
		return err;
	}
	teid = le32_to_cpu(buf.elem.node_teid);
	sched->nodes[sched->num_nodes].parent = parent;
	sched->nodes[sched->num_nodes].teid = teid;
	sched->num_nodes++;
	return teid;
}

/**
 * ice_lite_sched_qgrp() - add a branch from the VSI node to a queue group
 * @pf: the PF
 * @vsi: TEID of the VSI node
 * @qgrp: out: the queue-group node
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
static int ice_lite_sched_qgrp(struct ice_lite_pf *pf, u32 vsi, u32 *qgrp)
{
	s64 teid = vsi;
	int layer;

	for (layer = ICE_LITE_SCHED_VSI_LAYER + 1;
	     layer <= E810_SCHED_LAYER_QGRP; layer++) {
		teid = ice_lite_sched_add_node(pf, teid);
		if (teid < 0)
			return teid;
	}
	*qgrp = teid;
	return 0;
}

/**
 * ice_lite_sched_init() - build the PF VSI's scheduler branch
 * @pf: the PF, after clear-PF-config (the tree is the default one)
 *
 * Sets @pf->sched.lan_qgrp and, with RDMA, @pf->sched.rdma_qgrp.
 *
 * Context: Process context.
 * Return: 0 or a negative errno; on error what was added is deleted.
 */
int ice_lite_sched_init(struct ice_lite_pf *pf)
{
	struct ice_lite_sched *sched = &pf->sched;
	u32 tc;
	s64 teid;
	int layer, err;

	memset(sched, 0, sizeof(*sched));
	err = ice_lite_sched_tc_node(pf, &tc);
	if (err)
		return err;
	teid = tc;
	for (layer = E810_SCHED_LAYER_TC + 1;
	     layer <= ICE_LITE_SCHED_VSI_LAYER; layer++) {
		teid = ice_lite_sched_add_node(pf, teid);
		if (teid < 0) {
			err = teid;
			goto err_deinit;
		}
	}
	err = ice_lite_sched_qgrp(pf, teid, &sched->lan_qgrp);
	if (!err && pf->caps.rdma)
		err = ice_lite_sched_qgrp(pf, teid, &sched->rdma_qgrp);
	if (err)
		goto err_deinit;
	return 0;

err_deinit:
	ice_lite_sched_deinit(pf);
	return err;
}

/**
 * ice_lite_sched_deinit() - delete the nodes ice_lite_sched_init() added
 * @pf: the PF, its queues and qsets already removed
 *
 * Deletes them (0x040F) in reverse order, so every node is childless when
 * its turn comes. Errors are logged: the next reset drops them anyway.
 *
 * Context: Process context.
 */
void ice_lite_sched_deinit(struct ice_lite_pf *pf)
{
	struct ice_lite_sched *sched = &pf->sched;
	struct e810_aqc_sched_elem_cmd *cmd;
	struct e810_aq_desc desc;
	int err;

	while (sched->num_nodes) {
		struct ice_lite_sched_node *node;
		struct ice_lite_del_node_buf buf = {};

		node = &sched->nodes[--sched->num_nodes];
		buf.hdr.parent_teid = cpu_to_le32(node->parent);
		buf.hdr.num_elems = cpu_to_le16(1);
		buf.teid = cpu_to_le32(node->teid);
		ice_lite_aq_fill_desc(&desc, E810_AQC_DELETE_SCHED_ELEMS);
		desc.flags |= cpu_to_le16(E810_AQ_FLAG_RD);
		cmd = (struct e810_aqc_sched_elem_cmd *)desc.params.raw;
		cmd->num_elem_req = cpu_to_le16(1);
		err = ice_lite_aq_send(pf, &desc, &buf, sizeof(buf));
		if (err)
			dev_warn(ice_lite_pf_to_dev(pf),
				 "delete scheduler node 0x%x failed: %d (retval %u)\n",
				 node->teid, err, le16_to_cpu(desc.retval));
	}
	sched->lan_qgrp = 0;
	sched->rdma_qgrp = 0;
}

/**
 * ice_lite_add_txq() - add one Tx LAN queue (0x0C30)
 * @pf: the PF
 * @txq_id: PF-relative queue number
 * @ctx: the packed Tx queue context, %E810_TXQ_CTX_SIZE bytes
 * @teid: out: the scheduler node of the queue
 *
 * The queue is live once this succeeds.
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
int ice_lite_add_txq(struct ice_lite_pf *pf, u16 txq_id, const u8 *ctx,
		     u32 *teid)
{
	struct ice_lite_add_txq_buf buf = {};
	struct e810_aqc_add_txqs *cmd;
	struct e810_aq_desc desc;
	int err;

	buf.grp.parent_teid = cpu_to_le32(pf->sched.lan_qgrp);
	buf.grp.num_txqs = 1;
	buf.q.txq_id = cpu_to_le16(txq_id);
	memcpy(buf.q.txq_ctx, ctx, E810_TXQ_CTX_SIZE);
	ice_lite_sched_dflt_elem(&buf.q.info);

	ice_lite_aq_fill_desc(&desc, E810_AQC_ADD_TXQS);
	desc.flags |= cpu_to_le16(E810_AQ_FLAG_RD);
	cmd = (struct e810_aqc_add_txqs *)desc.params.raw;
	cmd->num_qgrps = 1;
	err = ice_lite_aq_send(pf, &desc, &buf, sizeof(buf));
	if (err) {
		dev_err(ice_lite_pf_to_dev(pf),
			"add Tx queue %u failed: %d (retval %u)\n", txq_id, err,
			le16_to_cpu(desc.retval));
		return err;
	}
	if (le16_to_cpu(desc.datalen) < sizeof(buf)) {
		dev_err(ice_lite_pf_to_dev(pf),
			"add Tx queue %u: %u bytes returned\n", txq_id,
			le16_to_cpu(desc.datalen));
		return -EIO;
	}
	*teid = le32_to_cpu(buf.q.q_teid);
	return 0;
}

/**
 * ice_lite_dis_txq_id() - disable one Tx queue or RDMA qset (0x0C31)
 * @pf: the PF
 * @parent: the queue-group node the queue or qset hangs under
 * @q_id: queue number, or qset id with %E810_AQC_Q_DIS_BUF_ELEM_TYPE_RDMA_QSET
 *
 * Flushes the pipe, as ice always asks for.
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
static int ice_lite_dis_txq_id(struct ice_lite_pf *pf, u32 parent, u16 q_id)
{
	struct ice_lite_dis_txq_buf buf = {};
	struct e810_aqc_dis_txqs *cmd;
	struct e810_aq_desc desc;
	int err;

	buf.item.parent_teid = cpu_to_le32(parent);
	buf.item.num_qs = 1;
	buf.q_id = cpu_to_le16(q_id);

	ice_lite_aq_fill_desc(&desc, E810_AQC_DIS_TXQS);
	desc.flags |= cpu_to_le16(E810_AQ_FLAG_RD);
	cmd = (struct e810_aqc_dis_txqs *)desc.params.raw;
	cmd->cmd_type = FIELD_PREP(E810_AQC_Q_DIS_CMD_S,
				   E810_AQC_Q_DIS_CMD_NO_RESET) |
			E810_AQC_Q_DIS_CMD_FLUSH_PIPE;
	cmd->num_entries = 1;
	cmd->vmvf_and_timeout = cpu_to_le16(FIELD_PREP(E810_AQC_Q_DIS_TIMEOUT,
						       E810_AQC_Q_DIS_TIMEOUT_DFLT));
	err = ice_lite_aq_send(pf, &desc, &buf, sizeof(buf));
	if (err) {
		bool qset = q_id & E810_AQC_Q_DIS_BUF_ELEM_TYPE_RDMA_QSET;
		u16 id = q_id & ~(u16)E810_AQC_Q_DIS_BUF_ELEM_TYPE_RDMA_QSET;

		dev_err(ice_lite_pf_to_dev(pf),
			"disable Tx %s %u failed: %d (retval %u)\n",
			qset ? "qset" : "queue", id, err,
			le16_to_cpu(desc.retval));
	}
	return err;
}

/**
 * ice_lite_dis_txq() - disable one Tx LAN queue
 * @pf: the PF
 * @txq_id: PF-relative queue number
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
int ice_lite_dis_txq(struct ice_lite_pf *pf, u16 txq_id)
{
	if (txq_id & E810_AQC_Q_DIS_BUF_ELEM_TYPE_RDMA_QSET)
		return -EINVAL;
	return ice_lite_dis_txq_id(pf, pf->sched.lan_qgrp, txq_id);
}

/**
 * ice_lite_add_rdma_qset() - add one RDMA qset (0x0C33)
 * @pf: the PF
 * @qset_id: the qset handle the RDMA driver chose
 * @teid: out: the scheduler node of the qset
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
int ice_lite_add_rdma_qset(struct ice_lite_pf *pf, u16 qset_id, u32 *teid)
{
	struct ice_lite_add_qset_buf buf = {};
	struct e810_aqc_add_rdma_qset *cmd;
	struct e810_aq_desc desc;
	int err;

	buf.grp.parent_teid = cpu_to_le32(pf->sched.rdma_qgrp);
	buf.grp.num_qsets = cpu_to_le16(1);
	buf.q.tx_qset_id = cpu_to_le16(qset_id);
	ice_lite_sched_dflt_elem(&buf.q.info);

	ice_lite_aq_fill_desc(&desc, E810_AQC_ADD_RDMA_QSET);
	desc.flags |= cpu_to_le16(E810_AQ_FLAG_RD);
	cmd = (struct e810_aqc_add_rdma_qset *)desc.params.raw;
	cmd->num_qset_grps = 1;
	err = ice_lite_aq_send(pf, &desc, &buf, sizeof(buf));
	if (err) {
		dev_err(ice_lite_pf_to_dev(pf),
			"add RDMA qset %u failed: %d (retval %u)\n", qset_id,
			err, le16_to_cpu(desc.retval));
		return err;
	}
	if (le16_to_cpu(desc.datalen) < sizeof(buf)) {
		dev_err(ice_lite_pf_to_dev(pf),
			"add RDMA qset %u: %u bytes returned\n", qset_id,
			le16_to_cpu(desc.datalen));
		return -EIO;
	}
	*teid = le32_to_cpu(buf.q.qset_teid);
	return 0;
}

/**
 * ice_lite_dis_rdma_qset() - remove an RDMA qset
 * @pf: the PF
 * @qset_id: the qset handle given to ice_lite_add_rdma_qset()
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
int ice_lite_dis_rdma_qset(struct ice_lite_pf *pf, u16 qset_id)
{
	if (qset_id & E810_AQC_Q_DIS_BUF_ELEM_TYPE_RDMA_QSET)
		return -EINVAL;
	return ice_lite_dis_txq_id(pf, pf->sched.rdma_qgrp, qset_id |
				   E810_AQC_Q_DIS_BUF_ELEM_TYPE_RDMA_QSET);
}
