// SPDX-License-Identifier: GPL-2.0-only
/*
 * ice_reset_req: asks the stock ice for a reset of one of its functions
 * the way an RDMA driver does, through ice_rdma_request_reset() (the IIDC
 * request a driver bound to ice's RDMA auxiliary device makes, with
 * IIDC_CORER or IIDC_GLOBR too), for the VM scenario lan_corer
 * (tests/vm/lan_corer.sh). ice schedules the reset
 * (ice_schedule_reset()) and its service task does it
 * (ice_reset_subtask(), ice_do_reset()).
 *
 * Two generations of the interface: up to 6.15 (linux/net/intel/iidc.h)
 * the call takes the function's struct ice_pf and knows a PF, core and
 * global reset; from 6.16 (linux/net/intel/iidc_rdma_ice.h) it takes the
 * core device info ice hands its RDMA auxiliary device, and knows only
 * IIDC_FUNC_RESET (a PF reset) and IIDC_DEV_RESET (a core reset), so a
 * global reset is refused with EOPNOTSUPP there, and any request needs
 * the function's RDMA auxiliary device (ice.roce.N or ice.iwarp.N).
 *
 * <debugfs>/ice_reset_req/request: write "<PCI address> pfr|corer|globr",
 * e.g. "0000:00:04.0 corer"; the write fails with ice's error, or ENODEV
 * if ice does not drive that function (or, from 6.16, gave it no RDMA
 * auxiliary device).
 */

#include <linux/auxiliary_bus.h>
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/uaccess.h>
#include <linux/version.h>
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
#include <linux/net/intel/iidc_rdma.h>
#include <linux/net/intel/iidc_rdma_ice.h>
#define IRR_CDEV_INFO 1
#define IRR_PFR IIDC_FUNC_RESET
#define IRR_CORER IIDC_DEV_RESET
#define IRR_GLOBR (-EOPNOTSUPP)
#else
#include <linux/net/intel/iidc.h>
#define IRR_PFR IIDC_PFR
#define IRR_CORER IIDC_CORER
#define IRR_GLOBR IIDC_GLOBR
#endif

static struct dentry *irr_dir;

/* irr_type() - the IIDC reset type a request names, or a negative errno */
static int irr_type(const char *s)
{
	if (!strcmp(s, "pfr"))
		return IRR_PFR;
	if (!strcmp(s, "corer"))
		return IRR_CORER;
	if (!strcmp(s, "globr"))
		return IRR_GLOBR;
	return -EINVAL;
}

#ifdef IRR_CDEV_INFO
/* ice names its RDMA auxiliary devices "ice.roce.N" and "ice.iwarp.N". */
static int irr_is_ice_rdma(struct device *dev, const void *unused)
{
	return !strncmp(dev_name(dev), "ice.roce.", 9) ||
	       !strncmp(dev_name(dev), "ice.iwarp.", 10);
}

static int irr_reset(struct pci_dev *pdev, int t)
{
	struct iidc_rdma_core_auxiliary_dev *iadev;
	struct device *adev;
	int err;

	adev = device_find_child(&pdev->dev, NULL, irr_is_ice_rdma);
	if (!adev)
		return -ENODEV;
	iadev = container_of(to_auxiliary_dev(adev),
			     struct iidc_rdma_core_auxiliary_dev, adev);
	err = ice_rdma_request_reset(iadev->cdev_info, t);
	put_device(adev);
	return err;
}
#else
static int irr_reset(struct pci_dev *pdev, int t)
{
	return ice_rdma_request_reset(pci_get_drvdata(pdev), t);
}
#endif

static ssize_t irr_request(struct file *file, const char __user *ubuf,
			   size_t len, loff_t *ppos)
{
	unsigned int dom, bus, dev, fn;
	struct pci_dev *pdev;
	char buf[64], type[8];
	int err, t;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%x:%x:%x.%x %7s", &dom, &bus, &dev, &fn, type) != 5)
		return -EINVAL;
	t = irr_type(type);
	if (t < 0)
		return t;
	pdev = pci_get_domain_bus_and_slot(dom, bus, PCI_DEVFN(dev, fn));
	if (!pdev)
		return -ENODEV;
	device_lock(&pdev->dev);
	if (pdev->dev.driver && !strcmp(pdev->dev.driver->name, "ice"))
		err = irr_reset(pdev, t);
	else
		err = -ENODEV;
	device_unlock(&pdev->dev);
	pci_dev_put(pdev);
	return err ? err : len;
}

static const struct file_operations irr_fops = {
	.owner = THIS_MODULE,
	.write = irr_request,
};

static int __init irr_init(void)
{
	irr_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("request", 0200, irr_dir, NULL, &irr_fops);
	return 0;
}

static void __exit irr_exit(void)
{
	debugfs_remove_recursive(irr_dir);
}

module_init(irr_init);
module_exit(irr_exit);
MODULE_DESCRIPTION("Test: ask the stock ice for a PF, core or global reset");
MODULE_LICENSE("GPL");
