// SPDX-License-Identifier: GPL-2.0-only
/* ice_lite: PF reset, done the way the ice driver does it at probe
 * (docs/hw-reference-lan.md 1.2), and the reset-and-rebuild
 * the RDMA driver can ask for.
 */

#include <linux/bitfield.h>
#include <linux/iopoll.h>
#include <linux/rtnetlink.h>

#include <hw/e810_regs.h>

#include "ice_lite.h"

/* PFGEN_CTRL.PFSWR is polled every 1 ms for the global config lock timeout
 * (3000) plus the PF reset wait (300), as ice does.
 */
#define ICE_LITE_PFR_POLL_US		USEC_PER_MSEC
#define ICE_LITE_PFR_TIMEOUT_US		((3000 + 300) * ICE_LITE_PFR_POLL_US)

/* GLGEN_RSTAT.DEVSTATE: every 100 ms, GLGEN_RSTCTL.GRSTDEL + 10 times. */
#define ICE_LITE_RSTAT_POLL_US		(100 * USEC_PER_MSEC)
#define ICE_LITE_RSTAT_EXTRA_POLLS	10

/* GLNVM_ULD done bits: every 10 ms, 300 times. */
#define ICE_LITE_ULD_POLL_US		(10 * USEC_PER_MSEC)
#define ICE_LITE_ULD_TIMEOUT_US		(300 * ICE_LITE_ULD_POLL_US)

/**
 * ice_lite_wait_reset_done() - wait until the firmware reports reset done
 * @pf: the PF
 * @mask: GLNVM_ULD bits that must all be set
 *
 * Context: Process context, sleeps.
 * Return: 0, or -ETIMEDOUT if a bit of @mask stays clear.
 */
static int ice_lite_wait_reset_done(struct ice_lite_pf *pf, u32 mask)
{
	u32 uld;
	int err;

	err = readl_poll_timeout(pf->hw_addr + E810_GLNVM_ULD, uld,
				 (uld & mask) == mask, ICE_LITE_ULD_POLL_US,
				 ICE_LITE_ULD_TIMEOUT_US);
	if (err)
		dev_err(ice_lite_pf_to_dev(pf),
			"reset not done: GLNVM_ULD 0x%08x, want 0x%08x\n",
			uld, mask);
	return err;
}

/**
 * ice_lite_check_reset() - wait for a global reset to finish
 * @pf: the PF
 *
 * Polls GLGEN_RSTAT until the device is active again, then waits for the
 * LAN reset-done bits in GLNVM_ULD (PE_DONE is not waited for: the device
 * capabilities that say whether RDMA exists are not known yet).
 *
 * Context: Process context, sleeps.
 * Return: 0, -EBUSY if the device stays in a global reset, -ETIMEDOUT if
 * the reset-done bits do not come up.
 */
static int ice_lite_check_reset(struct ice_lite_pf *pf)
{
	u32 grstdel, rstat;
	int err;

	grstdel = FIELD_GET(E810_GLGEN_RSTCTL_GRSTDEL,
			    ice_lite_rd32(pf, E810_GLGEN_RSTCTL));
	err = readl_poll_timeout(pf->hw_addr + E810_GLGEN_RSTAT, rstat,
				 !FIELD_GET(E810_GLGEN_RSTAT_DEVSTATE, rstat),
				 ICE_LITE_RSTAT_POLL_US,
				 (grstdel + ICE_LITE_RSTAT_EXTRA_POLLS) *
				 ICE_LITE_RSTAT_POLL_US);
	if (err) {
		dev_err(ice_lite_pf_to_dev(pf),
			"global reset does not finish: GLGEN_RSTAT 0x%08x\n",
			rstat);
		return -EBUSY;
	}

	return ice_lite_wait_reset_done(pf, E810_GLNVM_ULD_LAN_MASK);
}

/**
 * ice_lite_pf_reset() - reset the PF before it is used
 * @pf: the PF
 *
 * If a global reset is already under way (device not active, or a LAN
 * reset-done bit clear), wait for it instead of issuing a PF reset.
 * Otherwise set PFGEN_CTRL.PFSWR, wait for the device to clear it and for
 * the reset-done bits.
 *
 * Context: Process context, sleeps (up to a few seconds).
 * Return: 0, -EBUSY or -ETIMEDOUT.
 */
int ice_lite_pf_reset(struct ice_lite_pf *pf)
{
	u32 ctrl, uld;
	int err;

	uld = ice_lite_rd32(pf, E810_GLNVM_ULD);
	if (FIELD_GET(E810_GLGEN_RSTAT_DEVSTATE,
		      ice_lite_rd32(pf, E810_GLGEN_RSTAT)) ||
	    (uld & E810_GLNVM_ULD_LAN_MASK) != E810_GLNVM_ULD_LAN_MASK) {
		dev_dbg(ice_lite_pf_to_dev(pf),
			"global reset in progress, waiting for it\n");
		return ice_lite_check_reset(pf);
	}

	ctrl = ice_lite_rd32(pf, E810_PFGEN_CTRL);
	ice_lite_wr32(pf, E810_PFGEN_CTRL, ctrl | E810_PFGEN_CTRL_PFSWR);
	ice_lite_ev_inc(pf, ICE_LITE_EV_PF_RESETS);

	err = readl_poll_timeout(pf->hw_addr + E810_PFGEN_CTRL, ctrl,
				 !(ctrl & E810_PFGEN_CTRL_PFSWR),
				 ICE_LITE_PFR_POLL_US, ICE_LITE_PFR_TIMEOUT_US);
	if (err) {
		dev_err(ice_lite_pf_to_dev(pf),
			"PF reset does not finish: PFGEN_CTRL 0x%08x\n", ctrl);
		return err;
	}

	return ice_lite_wait_reset_done(pf, E810_GLNVM_ULD_LAN_MASK);
}

/**
 * ice_lite_schedule_reset() - ask for a PF reset and rebuild
 * @pf: the PF
 *
 * Context: Any process context (the work does the reset).
 * Return: 0 (also if a reset is already pending), -ENODEV while the PF is
 * being removed.
 */
int ice_lite_schedule_reset(struct ice_lite_pf *pf)
{
	if (test_bit(ICE_LITE_STATE_REMOVING, pf->state))
		return -ENODEV;
	if (!test_and_set_bit(ICE_LITE_STATE_RESETTING, pf->state)) {
		ice_lite_ev_inc(pf, ICE_LITE_EV_RESET_REQUESTS);
		schedule_work(&pf->reset_work);
	}
	return 0;
}

/**
 * ice_lite_rebuild() - reset the PF and bring everything back
 * @pf: the PF, with the RDMA device withdrawn
 *
 * Takes the function down as remove does (rings, VSI, misc causes, admin
 * queue), resets the PF and runs the probe's hardware and software setup
 * again, then restarts the rings if they were running. MSI-X vectors and
 * the netdev are kept.
 *
 * Context: Process context; takes RTNL.
 * Return: 0 or a negative errno; the netdev then stays detached.
 */
static int ice_lite_rebuild(struct ice_lite_pf *pf)
{
	bool was_up;
	int err;

	rtnl_lock();
	netif_device_detach(pf->netdev);
	was_up = test_bit(ICE_LITE_STATE_UP, pf->state);
	ice_lite_down(pf);
	ice_lite_sched_deinit(pf);
	ice_lite_free_vsi(pf);
	ice_lite_misc_disable(pf);
	netif_carrier_off(pf->netdev);
	ice_lite_aq_deinit(pf, false);

	err = ice_lite_init_hw(pf);
	if (err)
		goto out_unlock;
	ice_lite_misc_enable(pf);
	err = ice_lite_init_sw(pf);
	if (err)
		goto out_unlock;
	if (was_up) {
		err = ice_lite_up(pf);
		if (err)
			goto out_unlock;
	}
	netif_device_attach(pf->netdev);

out_unlock:
	rtnl_unlock();
	return err;
}

/**
 * ice_lite_reset_work() - PF reset requested by the RDMA driver
 * @work: &ice_lite_pf.reset_work
 *
 * Warns the RDMA driver, withdraws its auxiliary device (its state in the
 * protocol engine does not survive the reset), rebuilds, and publishes
 * the auxiliary device again.
 *
 * Context: Process context (workqueue).
 */
void ice_lite_reset_work(struct work_struct *work)
{
	struct ice_lite_pf *pf = container_of(work, struct ice_lite_pf,
					      reset_work);
	struct device *dev = ice_lite_pf_to_dev(pf);
	int err;

	dev_dbg(dev, "PF reset requested\n");
	ice_lite_rdma_notify(pf, ICE_LITE_RDMA_EVENT_WARN_RESET, 0);
	mutex_lock(&pf->rdma_lock);
	ice_lite_rdma_unplug(pf);
	mutex_unlock(&pf->rdma_lock);

	err = ice_lite_rebuild(pf);
	/* devlink may have changed the protocol meanwhile; it left the
	 * publishing to us while RESETTING was set.
	 */
	mutex_lock(&pf->rdma_lock);
	clear_bit(ICE_LITE_STATE_RESETTING, pf->state);
	if (err) {
		mutex_unlock(&pf->rdma_lock);
		ice_lite_ev_inc(pf, ICE_LITE_EV_REBUILD_ERRORS);
		dev_err(dev, "rebuild after PF reset failed: %d\n", err);
		return;
	}
	err = ice_lite_rdma_plug(pf);
	mutex_unlock(&pf->rdma_lock);
	if (err)
		dev_err(dev, "RDMA device not published again: %d\n", err);
	ice_lite_ev_inc(pf, ICE_LITE_EV_REBUILDS);
	dev_info(dev, "PF reset done, function rebuilt\n");
}
