// SPDX-License-Identifier: GPL-2.0-only
/* ice_lite: MSI-X vectors and the misc vector. Vector 0 is the misc/OICR
 * (admin queue) vector, vector 1 the LAN vector, the rest belong to the
 * RDMA driver (docs/hw-reference-lan.md 5.3, 5.4).
 */

#include <linux/bitfield.h>
#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include <hw/e810_regs.h>

#include "ice_lite.h"

/* OICR causes ice enables (hw-reference-lan 5.2), and those meant for RDMA. */
#define ICE_LITE_OICR_RDMA_CRIT		(E810_PFINT_OICR_HMC_ERR | \
					 E810_PFINT_OICR_PE_PUSH | \
					 E810_PFINT_OICR_PE_CRITERR)
#define ICE_LITE_OICR_ENA		(E810_PFINT_OICR_ECC_ERR | \
					 E810_PFINT_OICR_MAL_DETECT | \
					 E810_PFINT_OICR_GRST | \
					 E810_PFINT_OICR_PCI_EXCEPTION | \
					 E810_PFINT_OICR_VFLR | \
					 ICE_LITE_OICR_RDMA_CRIT)

/* Re-arm value of a vector: enable, no ITR update (no CLEARPBA). */
#define ICE_LITE_DYN_CTL_REARM		(E810_GLINT_DYN_CTL_INTENA | \
					 FIELD_PREP(E810_GLINT_DYN_CTL_ITR_INDX, \
						    E810_ITR_IDX_NONE))

static unsigned int max_rdma_msix;
module_param(max_rdma_msix, uint, 0444);
MODULE_PARM_DESC(max_rdma_msix,
		 "Most MSI-X vectors granted to RDMA (0: no limit; 1 is below what irdma accepts)");

/**
 * ice_lite_init_msix() - allocate the MSI-X vectors of the PF
 * @pf: the PF, with its capabilities known
 *
 * With RDMA, asks for one RDMA vector per online CPU plus one (at least
 * %ICE_LITE_MIN_RDMA_MSIX), like irdma does for ice since 6.15, on top of
 * the fixed vectors, within what the MSI-X capability grants and the
 * max_rdma_msix parameter allows. If fewer are available RDMA gets what
 * is left as long as that is at least %ICE_LITE_MIN_RDMA_MSIX (or the
 * parameter, if lower); with less than that the function runs without
 * RDMA, as ice_reduce_msix_usage() decides. Without RDMA only the fixed
 * vectors are taken.
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
int ice_lite_init_msix(struct ice_lite_pf *pf)
{
	struct device *dev = ice_lite_pf_to_dev(pf);
	struct pci_dev *pdev = pf->pdev;
	unsigned int want_rdma = 0, min_rdma = 0, i;
	int nvec, irq, err;

	if (pf->caps.rdma) {
		want_rdma = max(num_online_cpus() + 1, ICE_LITE_MIN_RDMA_MSIX);
		min_rdma = ICE_LITE_MIN_RDMA_MSIX;
		if (max_rdma_msix) {
			want_rdma = min(want_rdma, max_rdma_msix);
			min_rdma = min(min_rdma, want_rdma);
		}
		want_rdma = min(want_rdma,
				pf->caps.num_msix - ICE_LITE_MSIX_RDMA_BASE);
		if (want_rdma < min_rdma) {
			dev_warn(dev, "%u MSI-X vectors: none left for RDMA\n",
				 pf->caps.num_msix);
			want_rdma = 0;
			min_rdma = 0;
		}
	}
	nvec = pci_alloc_irq_vectors(pdev, ICE_LITE_MSIX_RDMA_BASE + min_rdma,
				     ICE_LITE_MSIX_RDMA_BASE + want_rdma,
				     PCI_IRQ_MSIX);
	if (nvec < 0) {
		dev_err(dev, "cannot allocate MSI-X vectors: %d\n", nvec);
		return nvec;
	}
	pf->num_msix = nvec;
	pf->num_rdma_msix = nvec - ICE_LITE_MSIX_RDMA_BASE;
	if (pf->num_rdma_msix < want_rdma)
		dev_warn(dev, "RDMA gets %u MSI-X vectors instead of %u\n",
			 pf->num_rdma_msix, want_rdma);
	if (!pf->num_rdma_msix)
		return 0;

	pf->rdma_msix = kcalloc(pf->num_rdma_msix, sizeof(*pf->rdma_msix),
				GFP_KERNEL);
	if (!pf->rdma_msix) {
		err = -ENOMEM;
		goto err_free_vectors;
	}

	for (i = 0; i < pf->num_rdma_msix; i++) {
		irq = pci_irq_vector(pdev, ICE_LITE_MSIX_RDMA_BASE + i);
		if (irq < 0) {
			err = irq;
			goto err_free_entries;
		}
		pf->rdma_msix[i].entry = ICE_LITE_MSIX_RDMA_BASE + i;
		pf->rdma_msix[i].vector = irq;
	}

	return 0;

err_free_entries:
	kfree(pf->rdma_msix);
	pf->rdma_msix = NULL;
err_free_vectors:
	pci_free_irq_vectors(pdev);
	pf->num_rdma_msix = 0;
	pf->num_msix = 0;
	return err;
}

/**
 * ice_lite_clear_msix() - undo ice_lite_init_msix()
 * @pf: the PF
 *
 * Context: Process context; no handler may still be requested.
 */
void ice_lite_clear_msix(struct ice_lite_pf *pf)
{
	kfree(pf->rdma_msix);
	pf->rdma_msix = NULL;
	pf->num_rdma_msix = 0;
	pci_free_irq_vectors(pf->pdev);
	pf->num_msix = 0;
}

/**
 * ice_lite_misc_irq() - the misc vector: OICR causes and the admin queue
 * @irq: the Linux irq
 * @data: the PF
 *
 * Reading PFINT_OICR clears it. Critical RDMA causes are masked until the
 * next reset and forwarded from a work item; the admin queue cause is
 * only a doorbell (it has no OICR bit), so the ARQ work always runs.
 * The vector was auto-masked when it fired and is re-armed here.
 *
 * Context: Hard interrupt.
 * Return: IRQ_HANDLED.
 */
static irqreturn_t ice_lite_misc_irq(int irq, void *data)
{
	struct ice_lite_pf *pf = data;
	u32 oicr, ena;

	oicr = ice_lite_rd32(pf, E810_PFINT_OICR);
	ena = ice_lite_rd32(pf, E810_PFINT_OICR_ENA);
	oicr &= ena;

	if (oicr & ICE_LITE_OICR_RDMA_CRIT) {
		spin_lock(&pf->oicr_lock);
		pf->oicr_err_reg |= oicr;
		spin_unlock(&pf->oicr_lock);
		ice_lite_wr32(pf, E810_PFINT_OICR_ENA,
			      ena & ~ICE_LITE_OICR_RDMA_CRIT);
		schedule_work(&pf->crit_work);
	}
	oicr &= ~ICE_LITE_OICR_RDMA_CRIT;
	if (oicr)
		dev_warn_ratelimited(ice_lite_pf_to_dev(pf),
				     "unhandled OICR causes 0x%08x\n", oicr);

	schedule_work(&pf->aq_work);

	ice_lite_wr32(pf, E810_GLINT_DYN_CTL(ICE_LITE_MSIX_MISC),
		      ICE_LITE_DYN_CTL_REARM);
	return IRQ_HANDLED;
}

/**
 * ice_lite_crit_work() - forward critical OICR causes to the RDMA driver
 * @work: &ice_lite_pf.crit_work
 *
 * Context: Process context (workqueue).
 */
void ice_lite_crit_work(struct work_struct *work)
{
	struct ice_lite_pf *pf = container_of(work, struct ice_lite_pf,
					      crit_work);
	u32 reg;

	spin_lock_irq(&pf->oicr_lock);
	reg = pf->oicr_err_reg;
	pf->oicr_err_reg = 0;
	spin_unlock_irq(&pf->oicr_lock);

	if (!reg)
		return;
	ice_lite_ev_inc(pf, ICE_LITE_EV_CRIT_ERRORS);
	dev_err(ice_lite_pf_to_dev(pf),
		"critical RDMA error, OICR 0x%08x\n", reg);
	ice_lite_rdma_notify(pf, ICE_LITE_RDMA_EVENT_CRIT_ERR, reg);
}

/**
 * ice_lite_misc_enable() - route the OICR and admin queue causes
 * @pf: the PF, with the misc handler requested
 *
 * As ice programs it (hw-reference-lan 5.3): enables the OICR causes after
 * clearing any stale ones, points OICR and FW (admin queue) causes at vector 0
 * and arms the vector. Also run after a PF reset.
 */
void ice_lite_misc_enable(struct ice_lite_pf *pf)
{
	u32 ctl = FIELD_PREP(E810_INT_CTL_MSIX_INDX, ICE_LITE_MSIX_MISC) |
		  E810_INT_CTL_CAUSE_ENA;

	ice_lite_wr32(pf, E810_PFINT_OICR_ENA, 0);
	ice_lite_rd32(pf, E810_PFINT_OICR);
	ice_lite_wr32(pf, E810_PFINT_OICR_ENA, ICE_LITE_OICR_ENA);
	ice_lite_wr32(pf, E810_GLINT_DYN_CTL(ICE_LITE_MSIX_MISC),
		      E810_GLINT_DYN_CTL_SW_ITR_INDX |
		      E810_GLINT_DYN_CTL_INTENA_MSK);
	ice_lite_wr32(pf, E810_PFINT_OICR_CTL, ctl);
	ice_lite_wr32(pf, E810_PFINT_FW_CTL, ctl);
	ice_lite_wr32(pf, E810_GLINT_DYN_CTL(ICE_LITE_MSIX_MISC),
		      E810_GLINT_DYN_CTL_INTENA |
		      E810_GLINT_DYN_CTL_CLEARPBA |
		      FIELD_PREP(E810_GLINT_DYN_CTL_ITR_INDX,
				 E810_ITR_IDX_NONE));
}

/**
 * ice_lite_misc_disable() - stop the misc causes and their work
 * @pf: the PF
 *
 * Unroutes the causes, masks the vector, waits for a running handler and
 * for the work it may have scheduled.
 *
 * Context: Process context.
 */
void ice_lite_misc_disable(struct ice_lite_pf *pf)
{
	ice_lite_wr32(pf, E810_PFINT_OICR_ENA, 0);
	ice_lite_wr32(pf, E810_PFINT_OICR_CTL, 0);
	ice_lite_wr32(pf, E810_PFINT_FW_CTL, 0);
	ice_lite_wr32(pf, E810_GLINT_DYN_CTL(ICE_LITE_MSIX_MISC), 0);
	synchronize_irq(pci_irq_vector(pf->pdev, ICE_LITE_MSIX_MISC));
	cancel_work_sync(&pf->aq_work);
	cancel_work_sync(&pf->crit_work);
}

/**
 * ice_lite_req_misc_irq() - request and enable the misc vector
 * @pf: the PF, with MSI-X allocated and the admin queue up
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
int ice_lite_req_misc_irq(struct ice_lite_pf *pf)
{
	int err;

	snprintf(pf->misc_irq_name, sizeof(pf->misc_irq_name), "%s-%s:misc",
		 KBUILD_MODNAME, pci_name(pf->pdev));
	err = request_irq(pci_irq_vector(pf->pdev, ICE_LITE_MSIX_MISC),
			  ice_lite_misc_irq, 0, pf->misc_irq_name, pf);
	if (err) {
		dev_err(ice_lite_pf_to_dev(pf),
			"cannot request the misc vector: %d\n", err);
		return err;
	}
	set_bit(ICE_LITE_STATE_MISC_IRQ, pf->state);
	ice_lite_misc_enable(pf);
	return 0;
}

/**
 * ice_lite_free_misc_irq() - undo ice_lite_req_misc_irq()
 * @pf: the PF
 *
 * Context: Process context.
 */
void ice_lite_free_misc_irq(struct ice_lite_pf *pf)
{
	if (!test_and_clear_bit(ICE_LITE_STATE_MISC_IRQ, pf->state))
		return;
	ice_lite_misc_disable(pf);
	free_irq(pci_irq_vector(pf->pdev, ICE_LITE_MSIX_MISC), pf);
}
