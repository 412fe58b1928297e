// SPDX-License-Identifier: GPL-2.0-only
/* ice_lite: the switch rules of the PF VSI. Like ice (ice_init_mac_fltr()),
 * the VSI receives its unicast address and broadcast through MAC lookup
 * rules; multicast (IPv6 neighbour discovery, RoCE groups) comes through
 * one Rx multicast-promiscuous rule, as ice's allmulti. Without them the
 * switch delivers nothing to the VSI.
 */

#include <linux/bitfield.h>
#include <linux/etherdevice.h>

#include "ice_lite.h"

/* A lookup rule with its 16-byte header to match (ice's dummy header). */
struct ice_lite_lkup_rule {
	struct e810_sw_rule_lkup r;
	u8 hdr[E810_SW_RULE_DUMMY_ETH_LEN];
} __packed;

/**
 * ice_lite_get_lport() - learn the logical port from the switch config
 * @pf: the PF
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
static int ice_lite_get_lport(struct ice_lite_pf *pf)
{
	struct e810_aqc_get_sw_cfg_resp_elem *elem;
	struct e810_aqc_get_sw_cfg *cmd;
	struct e810_aq_desc desc;
	u16 i, n;
	void *buf;
	int err;

	buf = kzalloc(PAGE_SIZE / 2, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	ice_lite_aq_fill_desc(&desc, E810_AQC_GET_SW_CFG);
	cmd = (struct e810_aqc_get_sw_cfg *)desc.params.raw;
	err = ice_lite_aq_send(pf, &desc, buf, PAGE_SIZE / 2);
	if (err)
		goto out;
	n = min_t(u16, le16_to_cpu(cmd->num_elems),
		  PAGE_SIZE / 2 / sizeof(*elem));
	for (i = 0, elem = buf; i < n; i++, elem++) {
		u16 v = le16_to_cpu(elem->vsi_port_num);

		if (FIELD_GET(E810_AQC_SW_CFG_TYPE, v) ==
		    E810_AQC_SW_CFG_TYPE_PHYS_PORT) {
			pf->lport = FIELD_GET(E810_AQC_SW_CFG_NUM, v);
			break;
		}
	}
out:
	kfree(buf);
	return err;
}

/**
 * ice_lite_rule_add() - add one lookup rule for the PF VSI
 * @pf: the PF
 * @tx: a Tx rule (source: the VSI) rather than an Rx rule (the port)
 * @recipe: E810_SW_LKUP_MAC or E810_SW_LKUP_PROMISC
 * @da: destination MAC to match
 * @idx: out: the rule index the firmware answered with
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
static int ice_lite_rule_add(struct ice_lite_pf *pf, bool tx, u16 recipe,
			     const u8 *da, u16 *idx)
{
	struct ice_lite_lkup_rule rule = {};
	struct e810_aqc_sw_rules *cmd;
	struct e810_aq_desc desc;
	u32 act;
	int err;

	act = FIELD_PREP(E810_SW_ACT_VSI_ID, pf->vsi_num) | E810_SW_ACT_VALID;
	/* ice_fill_sw_info(): Tx rules loop back; the group/broadcast and
	 * directional ones also go to the LAN.
	 */
	if (tx)
		act |= E810_SW_ACT_LB_ENABLE;
	if (tx && (recipe != E810_SW_LKUP_MAC || !is_unicast_ether_addr(da)))
		act |= E810_SW_ACT_LAN_ENABLE;
	rule.r.hdr.type = cpu_to_le16(tx ? E810_SW_RULE_LKUP_TX :
				      E810_SW_RULE_LKUP_RX);
	rule.r.recipe_id = cpu_to_le16(recipe);
	rule.r.src = cpu_to_le16(tx ? pf->vsi_num : pf->lport);
	rule.r.act = cpu_to_le32(act);
	rule.r.hdr_len = cpu_to_le16(sizeof(rule.hdr));
	ether_addr_copy(rule.hdr, da);
	rule.hdr[6] = 0x02;
	rule.hdr[12] = 0x81;

	ice_lite_aq_fill_desc(&desc, E810_AQC_ADD_SW_RULES);
	desc.flags |= cpu_to_le16(E810_AQ_FLAG_RD);
	cmd = (struct e810_aqc_sw_rules *)desc.params.raw;
	cmd->num_rules = cpu_to_le16(1);
	err = ice_lite_aq_send(pf, &desc, &rule, sizeof(rule));
	if (err) {
		dev_err(ice_lite_pf_to_dev(pf),
			"add switch rule %pM failed: %d (retval %u)\n", da,
			err, le16_to_cpu(desc.retval));
		return err;
	}
	*idx = le16_to_cpu(rule.r.index);
	return 0;
}

/**
 * ice_lite_rule_remove() - remove a lookup rule by its index
 * @pf: the PF
 * @tx: the rule is a Tx rule
 * @idx: its index
 *
 * After a reset the firmware has forgotten the rule already; that is not
 * an error worth more than a debug line.
 *
 * Context: Process context.
 */
static void ice_lite_rule_remove(struct ice_lite_pf *pf, bool tx, u16 idx)
{
	struct e810_sw_rule_lkup rule = {};
	struct e810_aqc_sw_rules *cmd;
	struct e810_aq_desc desc;
	int err;

	rule.hdr.type = cpu_to_le16(tx ? E810_SW_RULE_LKUP_TX :
				    E810_SW_RULE_LKUP_RX);
	rule.index = cpu_to_le16(idx);
	ice_lite_aq_fill_desc(&desc, E810_AQC_REMOVE_SW_RULES);
	desc.flags |= cpu_to_le16(E810_AQ_FLAG_RD);
	cmd = (struct e810_aqc_sw_rules *)desc.params.raw;
	cmd->num_rules = cpu_to_le16(1);
	err = ice_lite_aq_send(pf, &desc, &rule, sizeof(rule));
	if (err)
		dev_dbg(ice_lite_pf_to_dev(pf),
			"remove switch rule %u: %d (retval %u)\n", idx, err,
			le16_to_cpu(desc.retval));
}

/**
 * ice_lite_fltr_add() - the PF VSI's unicast, broadcast and multicast rules
 * @pf: the PF, with its VSI added
 *
 * The unicast rule uses @pf->fltr.mac, the permanent address until the
 * user sets another.
 *
 * Context: Process context.
 * Return: 0 or a negative errno; nothing stays added on error.
 */
int ice_lite_fltr_add(struct ice_lite_pf *pf)
{
	static const u8 mcast_any[ETH_ALEN] = { 0x03, 0, 0, 0, 0, 0 };
	static const u8 bcast[ETH_ALEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	struct ice_lite_fltr *f = &pf->fltr;
	int err;

	err = ice_lite_get_lport(pf);
	if (err)
		return err;
	if (!is_valid_ether_addr(f->mac))
		ether_addr_copy(f->mac, pf->perm_addr);
	err = ice_lite_rule_add(pf, true, E810_SW_LKUP_MAC, f->mac, &f->uc);
	if (err)
		return err;
	err = ice_lite_rule_add(pf, true, E810_SW_LKUP_MAC, bcast, &f->bc);
	if (err)
		goto err_uc;
	err = ice_lite_rule_add(pf, false, E810_SW_LKUP_PROMISC, mcast_any,
				&f->mc);
	if (err)
		goto err_bc;
	f->added = true;
	return 0;

err_bc:
	ice_lite_rule_remove(pf, true, f->bc);
err_uc:
	ice_lite_rule_remove(pf, true, f->uc);
	return err;
}

/**
 * ice_lite_fltr_remove() - remove what ice_lite_fltr_add() added
 * @pf: the PF
 *
 * Context: Process context.
 */
void ice_lite_fltr_remove(struct ice_lite_pf *pf)
{
	struct ice_lite_fltr *f = &pf->fltr;

	if (!f->added)
		return;
	ice_lite_rule_remove(pf, false, f->mc);
	ice_lite_rule_remove(pf, true, f->bc);
	ice_lite_rule_remove(pf, true, f->uc);
	f->added = false;
}

/**
 * ice_lite_set_mac_address() - ndo_set_mac_address: move the unicast rule
 * @netdev: the netdev
 * @p: a struct sockaddr with the new address
 *
 * The rule for the new address goes in before the old one goes away, so
 * a failure leaves the old address working.
 *
 * Context: Process context, RTNL held.
 * Return: 0 or a negative errno.
 */
int ice_lite_set_mac_address(struct net_device *netdev, void *p)
{
	struct ice_lite_pf *pf = ice_lite_netdev_to_pf(netdev);
	struct ice_lite_fltr *f = &pf->fltr;
	struct sockaddr *addr = p;
	u16 idx;
	int err;

	if (!is_valid_ether_addr(addr->sa_data))
		return -EADDRNOTAVAIL;
	if (ether_addr_equal(netdev->dev_addr, addr->sa_data))
		return 0;
	if (f->added) {
		err = ice_lite_rule_add(pf, true, E810_SW_LKUP_MAC,
					addr->sa_data, &idx);
		if (err)
			return err;
		ice_lite_rule_remove(pf, true, f->uc);
		f->uc = idx;
	}
	ether_addr_copy(f->mac, addr->sa_data);
	eth_hw_addr_set(netdev, addr->sa_data);
	return 0;
}
