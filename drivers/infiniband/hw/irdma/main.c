// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: RDMA (RoCEv2) driver for the Intel E810 protocol engine (GEN_2).
 *
 * Module init/exit and the parent-independent part of probe/remove. The
 * auxiliary driver of each parent kind lives in its own *_if.c file and
 * calls irdma_probe_pf()/irdma_remove_pf().
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/printk.h>

#include "main.h"

/**
 * irdma_probe_pf() - bring up the RDMA engine of one PCI function
 * @rf: per-function state, filled in by the parent binding
 *
 * Checks that the protocol engine and the doorbell space are usable, then
 * creates the debugfs directory. irdma_remove_pf() undoes it in reverse.
 *
 * Context: Process context, sleeps; the auxiliary device lock is held.
 * Return: 0 or a negative errno.
 */
int irdma_probe_pf(struct irdma_pci_f *rf)
{
	int err;

	err = irdma_check_hw(rf);
	if (err)
		return err;

	irdma_dbg_pf_init(rf);
	return 0;
}

/**
 * irdma_remove_pf() - undo irdma_probe_pf()
 * @rf: per-function state
 *
 * Context: Process context; the auxiliary device lock is held.
 */
void irdma_remove_pf(struct irdma_pci_f *rf)
{
	irdma_dbg_pf_exit(rf);
}

static int __init irdma_init_module(void)
{
	int err;

	irdma_dbg_init();

	err = irdma_ice_lite_register();
	if (err) {
		pr_err("cannot register the ice_lite auxiliary driver: %d\n",
		       err);
		goto err_dbg_exit;
	}

	return 0;

err_dbg_exit:
	irdma_dbg_exit();
	return err;
}

static void __exit irdma_exit_module(void)
{
	irdma_ice_lite_unregister();
	irdma_dbg_exit();
}

module_init(irdma_init_module);
module_exit(irdma_exit_module);

MODULE_DESCRIPTION("RDMA driver for the Intel E810 (GEN_2) protocol engine");
MODULE_LICENSE("GPL");
