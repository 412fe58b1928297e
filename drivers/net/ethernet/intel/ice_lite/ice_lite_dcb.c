// SPDX-License-Identifier: GPL-2.0-only
/* ice_lite: IEEE DCB netlink (dcbnl) interface, ETS only.
 *
 * Like ice when the firmware LLDP agent is off, DCBX is done by the host
 * in IEEE mode: a user sets ETS with `dcb ets set` (iproute2) or lldpad
 * and the driver applies it. Applying means telling the RDMA driver:
 * BEFORE_TC_CHANGE (it suspends its QPs), the new QoS in its device info,
 * AFTER_TC_CHANGE (it resumes them). The emulated device has a single
 * LAN queue and no per-TC scheduler, so nothing is programmed for LAN.
 */

#include <linux/netdevice.h>
#include <linux/rtnetlink.h>

#include "ice_lite.h"

/* The only mode we offer (and accept from setdcbx). */
#define ICE_LITE_DCBX_MODE	(DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE)

/* Factory setting: one TC, all priorities on it, all the bandwidth. */
static void ice_lite_dcb_default(struct ieee_ets *ets)
{
	unsigned int i;

	memset(ets, 0, sizeof(*ets));
	ets->ets_cap = IEEE_8021QAZ_MAX_TCS;
	for (i = 0; i < IEEE_8021QAZ_MAX_TCS; i++) {
		ets->tc_tsa[i] = IEEE_8021QAZ_TSA_ETS;
		ets->tc_reco_tsa[i] = IEEE_8021QAZ_TSA_ETS;
	}
	ets->tc_tx_bw[0] = 100;
	ets->tc_reco_bw[0] = 100;
}

/* Traffic classes the priority table uses: highest TC + 1. */
static unsigned int ice_lite_dcb_num_tc(const struct ieee_ets *ets)
{
	unsigned int i, n = 1;

	for (i = 0; i < IEEE_8021QAZ_MAX_TCS; i++)
		n = max_t(unsigned int, n, ets->prio_tc[i] + 1);
	return n;
}

/**
 * ice_lite_dcb_qos() - the RDMA QoS parameters of the current ETS setting
 * @pf: the PF
 * @qos: filled (all of it)
 *
 * Context: Any; the caller holds RTNL or @pf->adev_mutex.
 */
void ice_lite_dcb_qos(const struct ice_lite_pf *pf,
		      struct ice_lite_rdma_qos *qos)
{
	const struct ieee_ets *ets = &pf->ets;
	unsigned int i;

	lockdep_assert(lockdep_rtnl_is_held() ||
		       lockdep_is_held(&pf->adev_mutex));

	memset(qos, 0, sizeof(*qos));
	qos->num_tc = ice_lite_dcb_num_tc(ets);
	for (i = 0; i < IEEE_8021QAZ_MAX_TCS; i++) {
		qos->up2tc[i] = ets->prio_tc[i];
		if (i < qos->num_tc)
			qos->tc_info[i].rel_bw = ets->tc_tx_bw[i];
	}
	if (!memchr_inv(ets->tc_tx_bw, 0, sizeof(ets->tc_tx_bw)))
		qos->tc_info[0].rel_bw = 100;	/* before any setting */
}

/**
 * ice_lite_dcb_check() - validate an ETS setting as ice does
 * @pf: the PF
 * @ets: the setting from user space
 *
 * Priorities must map to TCs below 8, the TCs used must be contiguous from
 * 0, TSAs must be strict or ETS, and the ETS bandwidth must add up to 100
 * (or be all 0: TC 0 then gets it all).
 *
 * Return: 0 or -EINVAL.
 */
static int ice_lite_dcb_check(struct ice_lite_pf *pf,
			      const struct ieee_ets *ets)
{
	struct device *dev = ice_lite_pf_to_dev(pf);
	unsigned int i, bw = 0, num_tc;
	u8 used = 0;

	for (i = 0; i < IEEE_8021QAZ_MAX_TCS; i++) {
		if (ets->prio_tc[i] >= IEEE_8021QAZ_MAX_TCS) {
			dev_err(dev, "DCB: priority %u to TC %u: no such TC\n",
				i, ets->prio_tc[i]);
			return -EINVAL;
		}
		used |= BIT(ets->prio_tc[i]);
		if (ets->tc_tsa[i] != IEEE_8021QAZ_TSA_STRICT &&
		    ets->tc_tsa[i] != IEEE_8021QAZ_TSA_ETS) {
			dev_err(dev, "DCB: TC %u: TSA %u not supported\n", i,
				ets->tc_tsa[i]);
			return -EINVAL;
		}
		bw += ets->tc_tx_bw[i];
	}
	num_tc = ice_lite_dcb_num_tc(ets);
	if (used != GENMASK(num_tc - 1, 0)) {
		dev_err(dev, "DCB: TCs in use 0x%02x are not contiguous\n", used);
		return -EINVAL;
	}
	if (bw && bw != 100) {
		dev_err(dev, "DCB: ETS bandwidth adds up to %u%%, not 100%%\n",
			bw);
		return -EINVAL;
	}
	return 0;
}

static int ice_lite_dcbnl_getets(struct net_device *netdev,
				 struct ieee_ets *ets)
{
	struct ice_lite_pf *pf = ice_lite_netdev_to_pf(netdev);

	*ets = pf->ets;
	return 0;
}

/**
 * ice_lite_dcbnl_setets() - apply an IEEE ETS setting
 * @netdev: our netdev
 * @ets: the setting
 *
 * A setting equal to the current one changes nothing and sends no event.
 *
 * Context: Process context, RTNL held (dcbnl); sleeps while the RDMA
 * driver suspends and resumes its QPs.
 * Return: 0 or -EINVAL.
 */
static int ice_lite_dcbnl_setets(struct net_device *netdev,
				 struct ieee_ets *ets)
{
	struct ice_lite_pf *pf = ice_lite_netdev_to_pf(netdev);
	struct ieee_ets new;
	int err;

	ASSERT_RTNL();
	if (pf->dcbx_cap != ICE_LITE_DCBX_MODE)
		return -EINVAL;
	err = ice_lite_dcb_check(pf, ets);
	if (err) {
		ice_lite_ev_inc(pf, ICE_LITE_EV_ETS_REFUSED);
		return err;
	}

	new = *ets;
	new.ets_cap = IEEE_8021QAZ_MAX_TCS;
	if (!memchr_inv(new.tc_tx_bw, 0, sizeof(new.tc_tx_bw)))
		new.tc_tx_bw[0] = 100;
	if (!memchr_inv(new.tc_reco_bw, 0, sizeof(new.tc_reco_bw)))
		new.tc_reco_bw[0] = 100;
	if (!memcmp(&new, &pf->ets, sizeof(new)))
		return 0;

	ice_lite_rdma_tc_change(pf, &new);
	ice_lite_ev_inc(pf, ICE_LITE_EV_ETS_APPLIED);
	dev_dbg(ice_lite_pf_to_dev(pf), "DCB: ETS applied, %u TCs\n",
		ice_lite_dcb_num_tc(&new));
	return 0;
}

static u8 ice_lite_dcbnl_getdcbx(struct net_device *netdev)
{
	return ice_lite_netdev_to_pf(netdev)->dcbx_cap;
}

/* Only host-managed IEEE DCBX: 0 if @mode is that, 1 (not applied) else. */
static u8 ice_lite_dcbnl_setdcbx(struct net_device *netdev, u8 mode)
{
	return mode == ICE_LITE_DCBX_MODE ? 0 : 1;
}

static const struct dcbnl_rtnl_ops ice_lite_dcbnl_ops = {
	.ieee_getets = ice_lite_dcbnl_getets,
	.ieee_setets = ice_lite_dcbnl_setets,
	.getdcbx = ice_lite_dcbnl_getdcbx,
	.setdcbx = ice_lite_dcbnl_setdcbx,
};

/**
 * ice_lite_dcb_setup() - give @netdev the dcbnl ops
 * @pf: the PF
 * @netdev: its netdev, not registered yet
 *
 * The ETS setting starts at the factory default the first time and is
 * kept when the netdev is created again.
 *
 * Context: Process context.
 */
void ice_lite_dcb_setup(struct ice_lite_pf *pf, struct net_device *netdev)
{
	if (!pf->dcbx_cap) {
		pf->dcbx_cap = ICE_LITE_DCBX_MODE;
		ice_lite_dcb_default(&pf->ets);
	}
	netdev->dcbnl_ops = &ice_lite_dcbnl_ops;
}
