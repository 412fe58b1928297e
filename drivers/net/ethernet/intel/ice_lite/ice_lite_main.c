// SPDX-License-Identifier: GPL-2.0-only
/* ice_lite: a small PF driver for the emulated Intel E810 (8086:1592).
 *
 * It brings the PCI function up the way the ice driver does (BAR0, DMA,
 * PF reset, admin queue, capabilities, MSI-X, VSI, link), registers one
 * Ethernet netdev with one queue pair, and then publishes the RDMA
 * auxiliary device "ice_lite.roce.N" for irdma. This file holds the PCI
 * driver: probe, remove, module glue, and the setup steps a reset repeats.
 */

#include <linux/bitfield.h>
#include <linux/delay.h>
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

/* Admin queue bring-up is retried like ice: 10 times, 100 ms apart. */
#define ICE_LITE_AQ_INIT_TRIES		10
#define ICE_LITE_AQ_INIT_DELAY_MS	100

/**
 * ice_lite_init_aq() - bring the admin queue up and check the firmware
 * @pf: the PF, after a PF reset
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
static int ice_lite_init_aq(struct ice_lite_pf *pf)
{
	unsigned int try;
	int err = -EIO;

	for (try = 0; try < ICE_LITE_AQ_INIT_TRIES && err == -EIO; try++) {
		if (try)
			msleep(ICE_LITE_AQ_INIT_DELAY_MS);
		err = ice_lite_aq_init(pf);
		if (err)
			continue;
		err = ice_lite_get_fw_version(pf);
		if (err)
			ice_lite_aq_deinit(pf, false);
	}
	return err;
}

/**
 * ice_lite_init_hw() - reset the PF and learn what it is
 * @pf: the PF, with BAR0 mapped
 *
 * PF reset, admin queue (get version), clear PF configuration (0x02A4),
 * device and function capabilities, MAC address, MAC config. Run at
 * probe and again when the function is rebuilt after a reset.
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno; on error the admin queue is down.
 */
int ice_lite_init_hw(struct ice_lite_pf *pf)
{
	int err;

	err = ice_lite_pf_reset(pf);
	if (err)
		return err;
	err = ice_lite_init_aq(pf);
	if (err)
		return err;

	err = ice_lite_clear_pf_cfg(pf);
	if (err)
		goto err_deinit_aq;
	err = ice_lite_get_caps(pf);
	if (err)
		goto err_deinit_aq;
	err = ice_lite_read_mac(pf);
	if (err)
		goto err_deinit_aq;
	err = ice_lite_set_mac_cfg(pf);
	if (err)
		goto err_deinit_aq;
	return 0;

err_deinit_aq:
	ice_lite_aq_deinit(pf, true);
	return err;
}

/**
 * ice_lite_init_sw() - configure the function for LAN
 * @pf: the PF, with the admin queue up and the misc vector serving it
 *
 * Adds the PF VSI (0x0210) and its Tx scheduler branch (0x0400, 0x0401),
 * unmasks link events and asks for link status with events on (0x0613,
 * 0x0607), and sends the driver version (0x0002).
 *
 * Context: Process context.
 * Return: 0 or a negative errno; on error the VSI is freed again.
 */
int ice_lite_init_sw(struct ice_lite_pf *pf)
{
	int err;

	err = ice_lite_add_vsi(pf);
	if (err)
		return err;
	err = ice_lite_sched_init(pf);
	if (err)
		goto err_free_vsi;
	err = ice_lite_init_link(pf);
	if (err)
		goto err_free_vsi;
	err = ice_lite_send_driver_version(pf);
	if (err)
		goto err_free_vsi;
	return 0;

err_free_vsi:
	ice_lite_sched_deinit(pf);
	ice_lite_free_vsi(pf);
	return err;
}

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
 * ice_lite_alloc_pf() - allocate and initialise the PF structure
 * @pdev: the PCI function
 *
 * Return: the PF or NULL.
 */
static struct ice_lite_pf *ice_lite_alloc_pf(struct pci_dev *pdev)
{
	struct ice_lite_pf *pf;

	pf = kzalloc(sizeof(*pf), GFP_KERNEL);
	if (!pf)
		return NULL;
	pf->pdev = pdev;
	mutex_init(&pf->adev_mutex);
	mutex_init(&pf->rdma_lock);
	pf->aux_id = -1;
	mutex_init(&pf->vsi_lock);
	spin_lock_init(&pf->link_lock);
	spin_lock_init(&pf->oicr_lock);
	ice_lite_aq_init_locks(pf);
	INIT_WORK(&pf->aq_work, ice_lite_aq_work);
	INIT_WORK(&pf->crit_work, ice_lite_crit_work);
	INIT_WORK(&pf->reset_work, ice_lite_reset_work);
	atomic64_set(&pf->tx_dropped, 0);
	return pf;
}

/**
 * ice_lite_free_pf() - undo ice_lite_alloc_pf()
 * @pf: the PF
 */
static void ice_lite_free_pf(struct ice_lite_pf *pf)
{
	ice_lite_aq_destroy_locks(pf);
	mutex_destroy(&pf->vsi_lock);
	mutex_destroy(&pf->rdma_lock);
	mutex_destroy(&pf->adev_mutex);
	kfree(pf);
}

/**
 * ice_lite_probe() - bring up one E810 PF
 * @pdev: the PCI function
 * @ent: the matching id table entry
 *
 * Order: enable the device, 64-bit DMA, map BAR0, bus mastering, read the
 * PF number; PF reset, admin queue, capabilities, MAC (init_hw); MSI-X,
 * misc vector; VSI, link, driver version (init_sw); netdev; the RDMA
 * auxiliary device (in RoCEv2 mode, as ice); and last the devlink
 * instance, whose parameters can switch the protocol. Errors unwind in
 * exactly the reverse order; ice_lite_remove() is the same list.
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
static int ice_lite_probe(struct pci_dev *pdev, const struct pci_device_id *ent)
{
	struct device *dev = &pdev->dev;
	struct ice_lite_pf *pf;
	int err;

	pf = ice_lite_alloc_pf(pdev);
	if (!pf)
		return -ENOMEM;
	pci_set_drvdata(pdev, pf);
	ice_lite_dbg_pf_init(pf);

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
	/* One port per function; without get-switch-config its number is 0. */
	pf->lport = 0;

	err = ice_lite_init_hw(pf);
	if (err)
		goto err_clear_master;

	err = ice_lite_init_msix(pf);
	if (err)
		goto err_deinit_aq;

	err = ice_lite_req_misc_irq(pf);
	if (err)
		goto err_clear_msix;

	err = ice_lite_init_sw(pf);
	if (err)
		goto err_free_misc_irq;

	err = ice_lite_netdev_create(pf);
	if (err)
		goto err_free_vsi;

	err = ice_lite_rdma_init(pf);
	if (err)
		goto err_netdev_destroy;
	mutex_lock(&pf->rdma_lock);
	err = ice_lite_rdma_plug(pf);
	mutex_unlock(&pf->rdma_lock);
	if (err)
		goto err_rdma_deinit;

	err = ice_lite_devlink_init(pf);
	if (err)
		goto err_rdma_unplug;

	dev_dbg(dev,
		"PF %u up: %s, MAC %pM, VSI %u, %u MSI-X vectors, %u for RDMA\n",
		pf->pf_id, netdev_name(pf->netdev), pf->perm_addr, pf->vsi_num,
		pf->num_msix, pf->num_rdma_msix);
	return 0;

err_rdma_unplug:
	mutex_lock(&pf->rdma_lock);
	ice_lite_rdma_unplug(pf);
	mutex_unlock(&pf->rdma_lock);
err_rdma_deinit:
	ice_lite_rdma_deinit(pf);
err_netdev_destroy:
	ice_lite_netdev_destroy(pf);
err_free_vsi:
	ice_lite_sched_deinit(pf);
	ice_lite_free_vsi(pf);
err_free_misc_irq:
	ice_lite_free_misc_irq(pf);
err_clear_msix:
	ice_lite_clear_msix(pf);
err_deinit_aq:
	ice_lite_aq_deinit(pf, true);
err_clear_master:
	pci_clear_master(pdev);
	ice_lite_unmap_bar0(pf);
err_disable_device:
	pci_disable_device(pdev);
err_free_pf:
	ice_lite_dbg_pf_exit(pf);
	pci_set_drvdata(pdev, NULL);
	ice_lite_free_pf(pf);
	return err;
}

/**
 * ice_lite_remove() - take one E810 PF down
 * @pdev: the PCI function
 *
 * Stops devlink and reset requests, then undoes ice_lite_probe() step by
 * step in reverse order: the RDMA auxiliary device goes first, before the
 * netdev.
 *
 * Context: Process context.
 */
static void ice_lite_remove(struct pci_dev *pdev)
{
	struct ice_lite_pf *pf = pci_get_drvdata(pdev);

	set_bit(ICE_LITE_STATE_REMOVING, pf->state);
	ice_lite_devlink_unregister(pf);
	cancel_work_sync(&pf->reset_work);

	mutex_lock(&pf->rdma_lock);
	ice_lite_rdma_unplug(pf);
	mutex_unlock(&pf->rdma_lock);
	ice_lite_devlink_free(pf);
	ice_lite_rdma_deinit(pf);
	ice_lite_netdev_destroy(pf);
	ice_lite_sched_deinit(pf);
	ice_lite_free_vsi(pf);
	ice_lite_free_misc_irq(pf);
	ice_lite_clear_msix(pf);
	ice_lite_aq_deinit(pf, true);
	pci_clear_master(pdev);
	ice_lite_unmap_bar0(pf);
	pci_disable_device(pdev);
	ice_lite_dbg_pf_exit(pf);
	pci_set_drvdata(pdev, NULL);
	ice_lite_free_pf(pf);
}

static struct pci_driver ice_lite_driver = {
	.name = KBUILD_MODNAME,
	.id_table = ice_lite_pci_tbl,
	.probe = ice_lite_probe,
	.remove = ice_lite_remove,
};

static int __init ice_lite_init_module(void)
{
	int err;

	ice_lite_dbg_init();
	err = pci_register_driver(&ice_lite_driver);
	if (err)
		ice_lite_dbg_exit();
	return err;
}
module_init(ice_lite_init_module);

static void __exit ice_lite_exit_module(void)
{
	pci_unregister_driver(&ice_lite_driver);
	ice_lite_dbg_exit();
}
module_exit(ice_lite_exit_module);

MODULE_DESCRIPTION("PF driver for the emulated Intel E810 (parent of irdma)");
MODULE_LICENSE("GPL");
