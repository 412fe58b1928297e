// SPDX-License-Identifier: GPL-2.0-only
/* ice_lite: MAC and link. Set MAC config (0x0603), set event mask
 * (0x0613), get link status (0x0607) and its link status events; the
 * netdev carrier follows what the firmware reports. Facts 3.7, 3.8.
 */

#include <linux/bitfield.h>
#include <linux/ethtool.h>

#include "ice_lite.h"

/* One-hot link speeds of get-link-status and their value in Mb/s. */
static const struct {
	u16 bit;
	u32 mbps;
} ice_lite_speeds[] = {
	{ E810_AQ_LINK_SPEED_10MB, SPEED_10 },
	{ E810_AQ_LINK_SPEED_100MB, SPEED_100 },
	{ E810_AQ_LINK_SPEED_1000MB, SPEED_1000 },
	{ E810_AQ_LINK_SPEED_2500MB, SPEED_2500 },
	{ E810_AQ_LINK_SPEED_5GB, SPEED_5000 },
	{ E810_AQ_LINK_SPEED_10GB, SPEED_10000 },
	{ E810_AQ_LINK_SPEED_20GB, SPEED_20000 },
	{ E810_AQ_LINK_SPEED_25GB, SPEED_25000 },
	{ E810_AQ_LINK_SPEED_40GB, SPEED_40000 },
	{ E810_AQ_LINK_SPEED_50GB, SPEED_50000 },
	{ E810_AQ_LINK_SPEED_100GB, SPEED_100000 },
	{ E810_AQ_LINK_SPEED_200GB, SPEED_200000 },
};

/**
 * ice_lite_link_speed_mbps() - Mb/s of a one-hot link speed
 * @speed: an E810_AQ_LINK_SPEED_* bit
 *
 * Return: the speed, or SPEED_UNKNOWN.
 */
u32 ice_lite_link_speed_mbps(u16 speed)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ice_lite_speeds); i++)
		if (speed == ice_lite_speeds[i].bit)
			return ice_lite_speeds[i].mbps;
	return SPEED_UNKNOWN;
}

/**
 * ice_lite_set_mac_cfg() - set MAC config (0x0603): largest frame 9728
 * @pf: the PF
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
int ice_lite_set_mac_cfg(struct ice_lite_pf *pf)
{
	struct e810_aqc_set_mac_cfg *cmd;
	struct e810_aq_desc desc;
	int err;

	ice_lite_aq_fill_desc(&desc, E810_AQC_SET_MAC_CFG);
	cmd = (struct e810_aqc_set_mac_cfg *)desc.params.raw;
	cmd->max_frame_size = cpu_to_le16(E810_AQ_SET_MAC_FRAME_SIZE_MAX);
	err = ice_lite_aq_send(pf, &desc, NULL, 0);
	if (err)
		dev_err(ice_lite_pf_to_dev(pf),
			"set MAC config failed: %d (retval %u)\n", err,
			le16_to_cpu(desc.retval));
	return err;
}

/**
 * ice_lite_set_event_mask() - set event mask (0x0613)
 * @pf: the PF
 *
 * Unmasks link up/down and media-not-available; everything else stays
 * masked (a set bit masks the event).
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
static int ice_lite_set_event_mask(struct ice_lite_pf *pf)
{
	struct e810_aqc_set_event_mask *cmd;
	struct e810_aq_desc desc;
	int err;

	ice_lite_aq_fill_desc(&desc, E810_AQC_SET_EVENT_MASK);
	cmd = (struct e810_aqc_set_event_mask *)desc.params.raw;
	cmd->lport_num = pf->lport;
	cmd->event_mask = cpu_to_le16((u16)~(E810_AQ_LINK_EVENT_UPDOWN |
					     E810_AQ_LINK_EVENT_MEDIA_NA));
	err = ice_lite_aq_send(pf, &desc, NULL, 0);
	if (err)
		dev_err(ice_lite_pf_to_dev(pf),
			"set event mask failed: %d (retval %u)\n", err,
			le16_to_cpu(desc.retval));
	return err;
}

/**
 * ice_lite_link_apply() - make the carrier follow the link state
 * @pf: the PF
 *
 * Context: Holds @pf->link_lock.
 */
static void ice_lite_link_apply(struct ice_lite_pf *pf)
{
	lockdep_assert_held(&pf->link_lock);

	if (!pf->link_netdev)
		return;
	if (pf->link.up)
		netif_carrier_on(pf->link_netdev);
	else
		netif_carrier_off(pf->link_netdev);
}

/**
 * ice_lite_link_update() - take new link status data
 * @pf: the PF
 * @ld: link status data from 0x0607 or its event
 *
 * Context: Process context.
 */
static void ice_lite_link_update(struct ice_lite_pf *pf,
				 const struct e810_aqc_link_status_data *ld)
{
	struct ice_lite_link link = {
		.up = ld->link_info & E810_AQ_LINK_UP,
		.speed = le16_to_cpu(ld->link_speed),
		.max_frame = le16_to_cpu(ld->max_frame_size),
	};
	bool changed;

	if (!link.up)
		link.speed = 0;

	spin_lock_bh(&pf->link_lock);
	changed = link.up != pf->link.up || link.speed != pf->link.speed;
	pf->link = link;
	ice_lite_link_apply(pf);
	spin_unlock_bh(&pf->link_lock);

	if (!changed)
		return;
	ice_lite_ev_inc(pf, link.up ? ICE_LITE_EV_LINK_UP : ICE_LITE_EV_LINK_DOWN);
	if (link.up)
		dev_info(ice_lite_pf_to_dev(pf),
			 "NIC Link is up %u Mbps Full Duplex, max frame %u%s\n",
			 ice_lite_link_speed_mbps(link.speed), link.max_frame,
			 ld->link_info & E810_AQ_MEDIA_AVAILABLE ?
			 "" : ", no media");
	else
		dev_info(ice_lite_pf_to_dev(pf), "NIC Link is down%s\n",
			 ld->link_info & E810_AQ_MEDIA_AVAILABLE ?
			 "" : ", no media");
}

/**
 * ice_lite_get_link_status() - get link status (0x0607), events on
 * @pf: the PF
 *
 * Asks for link status events (LSE enable) and applies the answer.
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
static int ice_lite_get_link_status(struct ice_lite_pf *pf)
{
	struct e810_aqc_link_status_data ld = {};
	struct e810_aqc_get_link_status *cmd;
	struct device *dev = ice_lite_pf_to_dev(pf);
	struct e810_aq_desc desc;
	int err;

	ice_lite_aq_fill_desc(&desc, E810_AQC_GET_LINK_STATUS);
	cmd = (struct e810_aqc_get_link_status *)desc.params.raw;
	cmd->lport_num = pf->lport;
	cmd->cmd_flags = cpu_to_le16(FIELD_PREP(E810_AQ_LSE, E810_AQ_LSE_ENA));
	err = ice_lite_aq_send(pf, &desc, &ld, sizeof(ld));
	if (err) {
		dev_err(dev, "get link status failed: %d (retval %u)\n", err,
			le16_to_cpu(desc.retval));
		return err;
	}
	if (!(le16_to_cpu(cmd->cmd_flags) & E810_AQ_LSE_IS_ENABLED))
		dev_warn(dev, "firmware did not enable link status events\n");
	if (le16_to_cpu(desc.datalen) < sizeof(ld)) {
		dev_err(dev, "link status data is %u bytes\n",
			le16_to_cpu(desc.datalen));
		return -EIO;
	}

	ice_lite_link_update(pf, &ld);
	return 0;
}

/**
 * ice_lite_init_link() - event mask, then link status with events on
 * @pf: the PF, with the misc vector serving the ARQ
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
int ice_lite_init_link(struct ice_lite_pf *pf)
{
	int err;

	err = ice_lite_set_event_mask(pf);
	if (err)
		return err;
	return ice_lite_get_link_status(pf);
}

/**
 * ice_lite_link_event() - handle a link status event (0x0607 on the ARQ)
 * @pf: the PF
 * @buf: the event data
 * @len: its length
 *
 * Context: Process context (the ARQ work).
 */
void ice_lite_link_event(struct ice_lite_pf *pf, const void *buf, u16 len)
{
	if (len < sizeof(struct e810_aqc_link_status_data)) {
		dev_warn_ratelimited(ice_lite_pf_to_dev(pf),
				     "short link status event: %u bytes\n",
				     len);
		return;
	}
	ice_lite_link_update(pf, buf);
}

/**
 * ice_lite_link_attach() - let the carrier of @netdev follow the link
 * @pf: the PF
 * @netdev: the netdev
 *
 * Context: Process context.
 */
void ice_lite_link_attach(struct ice_lite_pf *pf, struct net_device *netdev)
{
	spin_lock_bh(&pf->link_lock);
	pf->link_netdev = netdev;
	ice_lite_link_apply(pf);
	spin_unlock_bh(&pf->link_lock);
}

/**
 * ice_lite_link_detach() - stop updating the carrier of the netdev
 * @pf: the PF
 *
 * Context: Process context.
 */
void ice_lite_link_detach(struct ice_lite_pf *pf)
{
	spin_lock_bh(&pf->link_lock);
	pf->link_netdev = NULL;
	spin_unlock_bh(&pf->link_lock);
}

/**
 * ice_lite_link_get() - a consistent copy of the link state
 * @pf: the PF
 * @link: out: the state
 *
 * Context: Any context but hard interrupt.
 */
void ice_lite_link_get(struct ice_lite_pf *pf, struct ice_lite_link *link)
{
	spin_lock_bh(&pf->link_lock);
	*link = pf->link;
	spin_unlock_bh(&pf->link_lock);
}
