// SPDX-License-Identifier: GPL-2.0-only
/*
 * ice_lite: MSI-X vectors. Vector 0 is the misc/OICR (admin queue) vector,
 * vector 1 the LAN vector, the rest belong to the RDMA driver. No handler
 * is requested here; each user requests its own.
 */

#include <linux/cpumask.h>
#include <linux/minmax.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include "ice_lite.h"

/**
 * ice_lite_init_msix() - allocate the MSI-X vectors of the PF
 * @pf: the PF
 *
 * Asks for one RDMA vector per online CPU plus one (at least
 * %ICE_LITE_MIN_RDMA_MSIX), like irdma does for ice since 6.15, on top of
 * the fixed vectors. If the device has fewer, RDMA gets what is left as
 * long as that is at least %ICE_LITE_MIN_RDMA_MSIX.
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
int ice_lite_init_msix(struct ice_lite_pf *pf)
{
	struct device *dev = ice_lite_pf_to_dev(pf);
	struct pci_dev *pdev = pf->pdev;
	unsigned int want_rdma, i;
	int nvec, irq, err;

	want_rdma = max(num_online_cpus() + 1, ICE_LITE_MIN_RDMA_MSIX);
	nvec = pci_alloc_irq_vectors(pdev,
				     ICE_LITE_MSIX_RDMA_BASE +
				     ICE_LITE_MIN_RDMA_MSIX,
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
