// SPDX-License-Identifier: GPL-2.0-only
/* ice_lite: Tx scheduler leaves. Add Tx LAN queues (0x0C30), add RDMA
 * qsets (0x0C33) and remove either with disable Tx queues (0x0C31).
 * Facts 3.11, 3.13.
 *
 * ice builds scheduler nodes down to the queue-group layer first and
 * passes the group's TEID as parent; ice_lite does not mirror the tree
 * and passes parent TEID 0, which the emulated firmware accepts.
 */

#include <linux/bitfield.h>

#include "ice_lite.h"

#define ICE_LITE_SCHED_PARENT_TEID	0

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

	buf.grp.parent_teid = cpu_to_le32(ICE_LITE_SCHED_PARENT_TEID);
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
 * @q_id: queue number, or qset id with %E810_AQC_Q_DIS_BUF_ELEM_TYPE_RDMA_QSET
 *
 * Flushes the pipe, as ice always asks for.
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
static int ice_lite_dis_txq_id(struct ice_lite_pf *pf, u16 q_id)
{
	struct ice_lite_dis_txq_buf buf = {};
	struct e810_aqc_dis_txqs *cmd;
	struct e810_aq_desc desc;
	int err;

	buf.item.parent_teid = cpu_to_le32(ICE_LITE_SCHED_PARENT_TEID);
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
	return ice_lite_dis_txq_id(pf, txq_id);
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

	buf.grp.parent_teid = cpu_to_le32(ICE_LITE_SCHED_PARENT_TEID);
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
	return ice_lite_dis_txq_id(pf, qset_id |
				   E810_AQC_Q_DIS_BUF_ELEM_TYPE_RDMA_QSET);
}
