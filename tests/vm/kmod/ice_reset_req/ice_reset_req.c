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
 * <debugfs>/ice_reset_req/request: write "<PCI address> pfr|corer|globr",
 * e.g. "0000:00:04.0 corer"; the write fails with ice's error, or ENODEV
 * if ice does not drive that function.
 */

#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/net/intel/iidc.h>
#include <linux/pci.h>
#include <linux/uaccess.h>

static struct dentry *irr_dir;

static int irr_type(const char *s, enum iidc_reset_type *t)
{
	if (!strcmp(s, "pfr"))
		*t = IIDC_PFR;
	else if (!strcmp(s, "corer"))
		*t = IIDC_CORER;
	else if (!strcmp(s, "globr"))
		*t = IIDC_GLOBR;
	else
		return -EINVAL;
	return 0;
}

static ssize_t irr_request(struct file *file, const char __user *ubuf,
			   size_t len, loff_t *ppos)
{
	unsigned int dom, bus, dev, fn;
	enum iidc_reset_type t;
	struct pci_dev *pdev;
	char buf[64], type[8];
	int err;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%x:%x:%x.%x %7s", &dom, &bus, &dev, &fn, type) != 5 ||
	    irr_type(type, &t))
		return -EINVAL;
	pdev = pci_get_domain_bus_and_slot(dom, bus, PCI_DEVFN(dev, fn));
	if (!pdev)
		return -ENODEV;
	device_lock(&pdev->dev);
	if (pdev->dev.driver && !strcmp(pdev->dev.driver->name, "ice"))
		err = ice_rdma_request_reset(pci_get_drvdata(pdev), t);
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
