// SPDX-License-Identifier: GPL-2.0-only
/* ice_lite: the Ethernet netdev of the PF and its net_device_ops.
 */

#include <linux/if_vlan.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>

#include <hw/e810_regs.h>

#include "ice_lite.h"

/* Largest MTU: a 9728-byte frame holds header, two VLAN tags and FCS. */
#define ICE_LITE_MAX_MTU	(E810_AQ_SET_MAC_FRAME_SIZE_MAX - ETH_HLEN - \
				 ETH_FCS_LEN - 2 * VLAN_HLEN)

/**
 * ice_lite_open() - ndo_open: start the queue pair
 * @netdev: our netdev
 *
 * Context: Process context, RTNL held.
 * Return: 0 or a negative errno.
 */
static int ice_lite_open(struct net_device *netdev)
{
	return ice_lite_up(ice_lite_netdev_to_pf(netdev));
}

/**
 * ice_lite_stop() - ndo_stop: stop the queue pair
 * @netdev: our netdev
 *
 * Context: Process context, RTNL held.
 * Return: 0.
 */
static int ice_lite_stop(struct net_device *netdev)
{
	ice_lite_down(ice_lite_netdev_to_pf(netdev));
	return 0;
}

/**
 * ice_lite_change_mtu() - ndo_change_mtu
 * @netdev: our netdev
 * @new_mtu: the MTU, already checked against min_mtu/max_mtu
 *
 * Tells the RDMA driver before and after. Running rings are restarted
 * so that the Rx buffers fit a whole frame of the new size; if that
 * fails, the old MTU is restored.
 *
 * Context: Process context, RTNL held.
 * Return: 0 or a negative errno.
 */
static int ice_lite_change_mtu(struct net_device *netdev, int new_mtu)
{
	struct ice_lite_pf *pf = ice_lite_netdev_to_pf(netdev);
	unsigned int old_mtu = netdev->mtu;
	bool running = test_bit(ICE_LITE_STATE_UP, pf->state);
	int err = 0;

	ice_lite_rdma_notify(pf, ICE_LITE_RDMA_EVENT_BEFORE_MTU_CHANGE, 0);

	if (running)
		ice_lite_down(pf);
	WRITE_ONCE(netdev->mtu, new_mtu);
	if (running) {
		err = ice_lite_up(pf);
		if (err) {
			netdev_err(netdev, "cannot restart at MTU %d: %d\n",
				   new_mtu, err);
			WRITE_ONCE(netdev->mtu, old_mtu);
			if (ice_lite_up(pf)) {
				netdev_err(netdev,
					   "cannot restart at MTU %u either; detached\n",
					   old_mtu);
				netif_device_detach(netdev);
			}
		}
	}

	ice_lite_rdma_notify(pf, ICE_LITE_RDMA_EVENT_AFTER_MTU_CHANGE, 0);
	if (!err) {
		ice_lite_ev_inc(pf, ICE_LITE_EV_MTU_CHANGES);
		netdev_dbg(netdev, "MTU changed from %u to %d\n", old_mtu,
			   new_mtu);
	}
	return err;
}

/**
 * ice_lite_get_stats64() - ndo_get_stats64
 * @netdev: our netdev
 * @stats: out: the counters
 *
 * Context: Any context.
 */
static void ice_lite_get_stats64(struct net_device *netdev,
				 struct rtnl_link_stats64 *stats)
{
	struct ice_lite_pf *pf = ice_lite_netdev_to_pf(netdev);
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&pf->rx_stats.syncp);
		stats->rx_packets = pf->rx_stats.packets;
		stats->rx_bytes = pf->rx_stats.bytes;
		stats->rx_length_errors = pf->rx_stats.length_errors;
		stats->rx_errors = pf->rx_stats.errors +
				   pf->rx_stats.length_errors;
	} while (u64_stats_fetch_retry(&pf->rx_stats.syncp, start));

	do {
		start = u64_stats_fetch_begin(&pf->tx_stats.syncp);
		stats->tx_packets = pf->tx_stats.packets;
		stats->tx_bytes = pf->tx_stats.bytes;
	} while (u64_stats_fetch_retry(&pf->tx_stats.syncp, start));
	stats->tx_dropped = atomic64_read(&pf->tx_dropped);
}

/**
 * ice_lite_tx_timeout() - ndo_tx_timeout: report a stuck Tx queue
 * @netdev: our netdev
 * @txqueue: the queue
 *
 * Context: Softirq (the Tx watchdog).
 */
static void ice_lite_tx_timeout(struct net_device *netdev,
				unsigned int txqueue)
{
	struct ice_lite_pf *pf = ice_lite_netdev_to_pf(netdev);

	netdev_err(netdev,
		   "Tx queue %u timed out: hw head %u, next_to_use %u, next_to_clean %u\n",
		   txqueue,
		   ice_lite_rd32(pf, E810_QTX_COMM_HEAD(ICE_LITE_LAN_Q)),
		   READ_ONCE(pf->tx_ring.next_to_use),
		   READ_ONCE(pf->tx_ring.next_to_clean));
}

static const struct net_device_ops ice_lite_netdev_ops = {
	.ndo_open = ice_lite_open,
	.ndo_stop = ice_lite_stop,
	.ndo_start_xmit = ice_lite_start_xmit,
	.ndo_change_mtu = ice_lite_change_mtu,
	.ndo_get_stats64 = ice_lite_get_stats64,
	.ndo_tx_timeout = ice_lite_tx_timeout,
	.ndo_validate_addr = eth_validate_addr,
	/* moves the unicast switch rule, as ice does */
	.ndo_set_mac_address = ice_lite_set_mac_address,
};

/**
 * ice_lite_netdev_create() - allocate and register the netdev
 * @pf: the PF, with its MAC address, VSI and link state known
 *
 * The MAC from manage-MAC-read is both the permanent and the current
 * address; once registered, the carrier follows the link.
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
int ice_lite_netdev_create(struct ice_lite_pf *pf)
{
	struct ice_lite_netdev_priv *priv;
	struct net_device *netdev;
	int err;

	netdev = alloc_etherdev(sizeof(*priv));
	if (!netdev)
		return -ENOMEM;
	priv = netdev_priv(netdev);
	priv->pf = pf;
	SET_NETDEV_DEV(netdev, ice_lite_pf_to_dev(pf));

	netdev->netdev_ops = &ice_lite_netdev_ops;
	ice_lite_set_ethtool_ops(netdev);
	ice_lite_dcb_setup(pf, netdev);
	netdev->watchdog_timeo = 5 * HZ;
	netdev->priv_flags |= IFF_LIVE_ADDR_CHANGE;
	netdev->min_mtu = ETH_MIN_MTU;
	netdev->max_mtu = ICE_LITE_MAX_MTU;
	if (pf->caps.max_mtu && pf->caps.max_mtu < ICE_LITE_MAX_MTU)
		netdev->max_mtu = pf->caps.max_mtu;
	eth_hw_addr_set(netdev, pf->perm_addr);
	ether_addr_copy(netdev->perm_addr, pf->perm_addr);
	netif_napi_add(netdev, &pf->napi, ice_lite_napi_poll);

	u64_stats_init(&pf->tx_stats.syncp);
	u64_stats_init(&pf->rx_stats.syncp);
	pf->netdev = netdev;
	netif_carrier_off(netdev);

	err = register_netdev(netdev);
	if (err) {
		dev_err(ice_lite_pf_to_dev(pf),
			"cannot register the netdev: %d\n", err);
		pf->netdev = NULL;
		netif_napi_del(&pf->napi);
		free_netdev(netdev);
		return err;
	}
	/* Only now: a carrier change before registration sets no operstate. */
	ice_lite_link_attach(pf, netdev);
	return 0;
}

/**
 * ice_lite_netdev_destroy() - unregister and free the netdev
 * @pf: the PF
 *
 * Safe to call when there is none.
 *
 * Context: Process context.
 */
void ice_lite_netdev_destroy(struct ice_lite_pf *pf)
{
	struct net_device *netdev = pf->netdev;

	if (!netdev)
		return;
	ice_lite_link_detach(pf);
	unregister_netdev(netdev);
	netif_napi_del(&pf->napi);
	pf->netdev = NULL;
	free_netdev(netdev);
}
