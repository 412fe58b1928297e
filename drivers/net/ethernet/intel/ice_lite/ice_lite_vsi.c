// SPDX-License-Identifier: GPL-2.0-only
/* ice_lite: the PF VSI. Add (0x0210, then its switch rules), update
 * (0x0211, the RDMA filter queue option) and free (0x0213).
 */

#include <linux/bitfield.h>

#include "ice_lite.h"

/**
 * ice_lite_vsi_cmd() - send one add/update VSI command
 * @pf: the PF
 * @opcode: E810_AQC_ADD_VSI or E810_AQC_UPDATE_VSI
 * @props: the properties to send (not modified)
 * @vsi_num: out: the VSI number the firmware answered with
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
static int ice_lite_vsi_cmd(struct ice_lite_pf *pf, u16 opcode,
			    const struct e810_aqc_vsi_props *props,
			    u16 *vsi_num)
{
	struct e810_aqc_add_update_free_vsi_resp *resp;
	struct e810_aqc_add_update_free_vsi *cmd;
	struct e810_aqc_vsi_props buf = *props;
	struct e810_aq_desc desc;
	int err;

	ice_lite_aq_fill_desc(&desc, opcode);
	desc.flags |= cpu_to_le16(E810_AQ_FLAG_RD);
	cmd = (struct e810_aqc_add_update_free_vsi *)desc.params.raw;
	if (opcode == E810_AQC_ADD_VSI) {
		cmd->vsi_flags = cpu_to_le16(FIELD_PREP(E810_AQ_VSI_TYPE,
							E810_AQ_VSI_TYPE_PF));
	} else {
		cmd->vsi_num = cpu_to_le16(FIELD_PREP(E810_AQ_VSI_NUM,
						      pf->vsi_num) |
					   E810_AQ_VSI_IS_VALID);
	}
	err = ice_lite_aq_send(pf, &desc, &buf, sizeof(buf));
	if (err) {
		dev_err(ice_lite_pf_to_dev(pf),
			"%s VSI failed: %d (retval %u)\n",
			opcode == E810_AQC_ADD_VSI ? "add" : "update", err,
			le16_to_cpu(desc.retval));
		return err;
	}
	resp = (struct e810_aqc_add_update_free_vsi_resp *)desc.params.raw;
	*vsi_num = FIELD_GET(E810_AQ_VSI_NUM, le16_to_cpu(resp->vsi_num));
	return 0;
}

/**
 * ice_lite_add_vsi() - add the PF VSI and learn its number
 * @pf: the PF
 *
 * One contiguous queue range of one queue (PF queue 0) in TC 0, no RDMA
 * filter yet.
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
int ice_lite_add_vsi(struct ice_lite_pf *pf)
{
	struct e810_aqc_vsi_props props = {};
	u16 vsi_num;
	int err;

	props.valid_sections = cpu_to_le16(E810_AQ_VSI_PROP_RXQ_MAP_VALID |
					   E810_AQ_VSI_PROP_Q_OPT_VALID);
	props.mapping_flags = 0;		/* contiguous */
	props.q_mapping[0] = cpu_to_le16(0);	/* first PF queue */
	props.q_mapping[1] = cpu_to_le16(1);	/* number of queues */
	props.tc_mapping[0] = 0;		/* offset 0, 2^0 queues */

	err = ice_lite_vsi_cmd(pf, E810_AQC_ADD_VSI, &props, &vsi_num);
	if (err)
		return err;

	mutex_lock(&pf->vsi_lock);
	pf->vsi_num = vsi_num;
	pf->vsi_props = props;
	mutex_unlock(&pf->vsi_lock);
	dev_dbg(ice_lite_pf_to_dev(pf), "PF VSI %u added\n", vsi_num);

	/* the switch delivers nothing to a VSI without rules */
	err = ice_lite_fltr_add(pf);
	if (err)
		ice_lite_free_vsi(pf);
	return err;
}

/**
 * ice_lite_free_vsi() - free the PF VSI (0x0213)
 * @pf: the PF
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
int ice_lite_free_vsi(struct ice_lite_pf *pf)
{
	struct e810_aqc_add_update_free_vsi *cmd;
	struct e810_aq_desc desc;
	int err;

	ice_lite_fltr_remove(pf);
	ice_lite_aq_fill_desc(&desc, E810_AQC_FREE_VSI);
	cmd = (struct e810_aqc_add_update_free_vsi *)desc.params.raw;
	cmd->vsi_num = cpu_to_le16(FIELD_PREP(E810_AQ_VSI_NUM, pf->vsi_num) |
				   E810_AQ_VSI_IS_VALID);
	err = ice_lite_aq_send(pf, &desc, NULL, 0);
	if (err)
		dev_warn(ice_lite_pf_to_dev(pf),
			 "free VSI %u failed: %d (retval %u)\n", pf->vsi_num,
			 err, le16_to_cpu(desc.retval));
	return err;
}

/**
 * ice_lite_vsi_set_pe_filter() - steer RoCEv2 traffic to the RDMA engine
 * @pf: the PF
 * @enable: set or clear PE_FLTR_EN in the VSI queue options
 *
 * Context: Process context; takes @pf->vsi_lock.
 * Return: 0 or a negative errno.
 */
int ice_lite_vsi_set_pe_filter(struct ice_lite_pf *pf, bool enable)
{
	struct e810_aqc_vsi_props props;
	u16 vsi_num;
	int err;

	mutex_lock(&pf->vsi_lock);
	props = pf->vsi_props;
	props.valid_sections = cpu_to_le16(E810_AQ_VSI_PROP_Q_OPT_VALID);
	if (enable)
		props.q_opt_flags |= E810_AQ_VSI_Q_OPT_PE_FLTR_EN;
	else
		props.q_opt_flags &= ~E810_AQ_VSI_Q_OPT_PE_FLTR_EN;

	err = ice_lite_vsi_cmd(pf, E810_AQC_UPDATE_VSI, &props, &vsi_num);
	if (!err)
		pf->vsi_props.q_opt_flags = props.q_opt_flags;
	mutex_unlock(&pf->vsi_lock);
	return err;
}
