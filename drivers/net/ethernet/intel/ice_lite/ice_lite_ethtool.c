// SPDX-License-Identifier: GPL-2.0-only
/* ice_lite: ethtool operations: driver info, link and link settings, and
 * a PF reset.
 */

#include <linux/ethtool.h>
#include <linux/netdevice.h>

#include "ice_lite.h"

/**
 * ice_lite_get_drvinfo() - ethtool -i
 * @netdev: our netdev
 * @info: out: driver, firmware version, bus info
 */
static void ice_lite_get_drvinfo(struct net_device *netdev,
				 struct ethtool_drvinfo *info)
{
	struct ice_lite_pf *pf = ice_lite_netdev_to_pf(netdev);

	strscpy(info->driver, KBUILD_MODNAME, sizeof(info->driver));
	strscpy(info->fw_version, pf->fw_version, sizeof(info->fw_version));
	strscpy(info->bus_info, pci_name(pf->pdev), sizeof(info->bus_info));
}

/**
 * ice_lite_get_link_ksettings() - ethtool: speed and duplex of the link
 * @netdev: our netdev
 * @ks: out: the settings
 *
 * Speed and duplex come from the last link status the firmware gave;
 * the link is not configurable.
 *
 * Return: 0.
 */
static int ice_lite_get_link_ksettings(struct net_device *netdev,
				       struct ethtool_link_ksettings *ks)
{
	struct ice_lite_pf *pf = ice_lite_netdev_to_pf(netdev);
	struct ice_lite_link link;

	ice_lite_link_get(pf, &link);

	ethtool_link_ksettings_zero_link_mode(ks, supported);
	ethtool_link_ksettings_zero_link_mode(ks, advertising);
	ethtool_link_ksettings_add_link_mode(ks, supported, FIBRE);
	ks->base.port = PORT_FIBRE;
	ks->base.autoneg = AUTONEG_DISABLE;
	if (link.up) {
		ks->base.speed = ice_lite_link_speed_mbps(link.speed);
		ks->base.duplex = DUPLEX_FULL;
	} else {
		ks->base.speed = SPEED_UNKNOWN;
		ks->base.duplex = DUPLEX_UNKNOWN;
	}
	return 0;
}

/* What a PF reset resets: the function's own state, not the port. */
#define ICE_LITE_PFR_COMPONENTS	(ETH_RESET_IRQ | ETH_RESET_DMA | \
				 ETH_RESET_FILTER | ETH_RESET_OFFLOAD)

/**
 * ice_lite_ethtool_reset() - ethtool --reset: PF reset and rebuild
 * @netdev: our netdev
 * @flags: in: components to reset; out: those that were not
 *
 * The same reset the RDMA driver can request: scheduled, not waited for.
 *
 * Context: Process context, RTNL held.
 * Return: 0, -EOPNOTSUPP if no component a PF reset covers was asked
 * for, -ENODEV while the PF is removed.
 */
static int ice_lite_ethtool_reset(struct net_device *netdev, u32 *flags)
{
	struct ice_lite_pf *pf = ice_lite_netdev_to_pf(netdev);
	int err;

	if (!(*flags & ICE_LITE_PFR_COMPONENTS))
		return -EOPNOTSUPP;
	err = ice_lite_schedule_reset(pf);
	if (err)
		return err;
	netdev_dbg(netdev, "PF reset requested through ethtool\n");
	*flags &= ~ICE_LITE_PFR_COMPONENTS;
	return 0;
}

static const struct ethtool_ops ice_lite_ethtool_ops = {
	.get_drvinfo = ice_lite_get_drvinfo,
	.get_link = ethtool_op_get_link,
	.get_link_ksettings = ice_lite_get_link_ksettings,
	.reset = ice_lite_ethtool_reset,
};

/**
 * ice_lite_set_ethtool_ops() - attach our ethtool operations
 * @netdev: our netdev, before registration
 */
void ice_lite_set_ethtool_ops(struct net_device *netdev)
{
	netdev->ethtool_ops = &ice_lite_ethtool_ops;
}
