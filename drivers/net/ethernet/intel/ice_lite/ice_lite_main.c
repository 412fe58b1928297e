// SPDX-License-Identifier: GPL-2.0-only
/*
 * ice_lite: a small PF driver for the emulated Intel E810 (8086:1592).
 *
 * It brings the PCI function up the way the ice driver does (BAR0, DMA,
 * PF reset, MSI-X) and publishes the RDMA auxiliary device "ice_lite.roce.N"
 * for irdma. This file holds the PCI driver: probe, remove, module glue.
 */

#include <linux/bitfield.h>
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include <hw/e810_regs.h>

#include "ice_lite.h"

static const struct pci_device_id ice_lite_pci_tbl[] = {
	{ PCI_DEVICE(E810_PCI_VENDOR_ID, E810_PCI_DEVICE_ID_C_QSFP) },
	{ }
};
MODULE_DEVICE_TABLE(pci, ice_lite_pci_tbl);

/**
 * ice_lite_map_bar0() - claim and map all of BAR0
 * @pf: the PF
 *
 * BAR0 holds the registers, the RDMA doorbell page and the push pages, so
 * the whole BAR is mapped (uncached) and handed to the RDMA driver as is.
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
static int ice_lite_map_bar0(struct ice_lite_pf *pf)
{
	struct device *dev = ice_lite_pf_to_dev(pf);
	struct pci_dev *pdev = pf->pdev;
	resource_size_t len;
	int err;

	len = pci_resource_len(pdev, E810_BAR0);
	if (!(pci_resource_flags(pdev, E810_BAR0) & IORESOURCE_MEM) ||
	    len < E810_BAR0_SIZE) {
		dev_err(dev,
			"BAR0 is not a memory BAR of %u bytes (length %pa)\n",
			E810_BAR0_SIZE, &len);
		return -ENODEV;
	}

	err = pci_request_region(pdev, E810_BAR0, KBUILD_MODNAME);
	if (err) {
		dev_err(dev, "cannot claim BAR0: %d\n", err);
		return err;
	}

	pf->hw_addr = pci_iomap(pdev, E810_BAR0, 0);
	if (!pf->hw_addr) {
		dev_err(dev, "cannot map BAR0\n");
		pci_release_region(pdev, E810_BAR0);
		return -ENOMEM;
	}

	return 0;
}

/**
 * ice_lite_unmap_bar0() - undo ice_lite_map_bar0()
 * @pf: the PF
 */
static void ice_lite_unmap_bar0(struct ice_lite_pf *pf)
{
	pci_iounmap(pf->pdev, pf->hw_addr);
	pf->hw_addr = NULL;
	pci_release_region(pf->pdev, E810_BAR0);
}

/**
 * ice_lite_probe() - bring up one E810 PF
 * @pdev: the PCI function
 * @ent: the matching id table entry
 *
 * Order: enable the device, 64-bit DMA, map BAR0, bus mastering, read the
 * PF number, PF reset, MSI-X, publish the RDMA auxiliary device. Errors
 * unwind in exactly the reverse order; ice_lite_remove() is the same list.
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
static int ice_lite_probe(struct pci_dev *pdev, const struct pci_device_id *ent)
{
	struct device *dev = &pdev->dev;
	struct ice_lite_pf *pf;
	int err;

	pf = kzalloc(sizeof(*pf), GFP_KERNEL);
	if (!pf)
		return -ENOMEM;
	pf->pdev = pdev;
	mutex_init(&pf->adev_mutex);
	pci_set_drvdata(pdev, pf);

	err = pci_enable_device(pdev);
	if (err) {
		dev_err(dev, "cannot enable PCI device: %d\n", err);
		goto err_free_pf;
	}

	err = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (err) {
		dev_err(dev, "64-bit DMA is not available: %d\n", err);
		goto err_disable_device;
	}

	err = ice_lite_map_bar0(pf);
	if (err)
		goto err_disable_device;

	pci_set_master(pdev);

	pf->pf_id = FIELD_GET(E810_PF_FUNC_RID_FUNC_NUM,
			      ice_lite_rd32(pf, E810_PF_FUNC_RID));

	err = ice_lite_pf_reset(pf);
	if (err)
		goto err_clear_master;

	err = ice_lite_init_msix(pf);
	if (err)
		goto err_clear_master;

	err = ice_lite_rdma_plug(pf);
	if (err)
		goto err_clear_msix;

	dev_info(dev, "PF %u up: %u MSI-X vectors, %u for RDMA\n",
		 pf->pf_id, pf->num_msix, pf->num_rdma_msix);
	return 0;

err_clear_msix:
	ice_lite_clear_msix(pf);
err_clear_master:
	pci_clear_master(pdev);
	ice_lite_unmap_bar0(pf);
err_disable_device:
	pci_disable_device(pdev);
err_free_pf:
	pci_set_drvdata(pdev, NULL);
	mutex_destroy(&pf->adev_mutex);
	kfree(pf);
	return err;
}

/**
 * ice_lite_remove() - take one E810 PF down
 * @pdev: the PCI function
 *
 * Undoes ice_lite_probe() step by step in reverse order.
 *
 * Context: Process context.
 */
static void ice_lite_remove(struct pci_dev *pdev)
{
	struct ice_lite_pf *pf = pci_get_drvdata(pdev);

	ice_lite_rdma_unplug(pf);
	ice_lite_clear_msix(pf);
	pci_clear_master(pdev);
	ice_lite_unmap_bar0(pf);
	pci_disable_device(pdev);
	pci_set_drvdata(pdev, NULL);
	mutex_destroy(&pf->adev_mutex);
	kfree(pf);
}

static struct pci_driver ice_lite_driver = {
	.name = KBUILD_MODNAME,
	.id_table = ice_lite_pci_tbl,
	.probe = ice_lite_probe,
	.remove = ice_lite_remove,
};
module_pci_driver(ice_lite_driver);

MODULE_DESCRIPTION("PF driver for the emulated Intel E810 (parent of irdma)");
MODULE_LICENSE("GPL");
