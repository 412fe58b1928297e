// SPDX-License-Identifier: GPL-2.0-only
/*
 * ice_lite: PF reset, done the way the ice driver does it at probe
 * (shared/facts/e810-lan-facts.md section 1.2).
 */

#include <linux/bitfield.h>
#include <linux/iopoll.h>

#include <hw/e810_regs.h>

#include "ice_lite.h"

/*
 * PFGEN_CTRL.PFSWR is polled every 1 ms for the global config lock timeout
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
