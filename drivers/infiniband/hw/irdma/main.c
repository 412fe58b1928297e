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
#include <linux/netdevice.h>
#include <linux/printk.h>
#include <rdma/ib_verbs.h>

#include "main.h"

/* Functions whose port the netdev notifier follows. */
static LIST_HEAD(irdma_rf_list);
static DEFINE_MUTEX(irdma_rf_list_mutex);

/* Asks the parent for a function reset (process context, no locks). */
static void irdma_reset_work(struct work_struct *work)
{
	struct irdma_pci_f *rf = container_of(work, struct irdma_pci_f,
					      reset_work);
	int err;

	err = rf->request_reset(rf);
	if (err)
		dev_err(irdma_rf_to_dev(rf), "reset request refused: %d\n",
			err);
}

/**
 * irdma_schedule_reset() - have the parent reset the function
 * @rf: per-function state
 * @why: reason, for the log
 *
 * The parent then withdraws our device (remove runs), resets the function
 * and publishes the device again (probe runs).
 *
 * Context: Any context.
 */
void irdma_schedule_reset(struct irdma_pci_f *rf, const char *why)
{
	if (READ_ONCE(rf->resetting))
		return;
	dev_warn(irdma_rf_to_dev(rf), "requesting a function reset: %s\n", why);
	schedule_work(&rf->reset_work);
}

/**
 * irdma_port_update() - report the netdev's link as the port state
 * @rf: per-function state
 *
 * Context: Process context.
 */
void irdma_port_update(struct irdma_pci_f *rf)
{
	irdma_ib_port_event(rf, netif_running(rf->netdev) &&
				netif_carrier_ok(rf->netdev));
}

/**
 * irdma_mtu_changed() - the netdev's MTU changed (parent event)
 * @rf: per-function state
 *
 * The L2 parameters of RoCE (path MTU of new QPs) are read from the netdev
 * when needed; QPs, once they exist (issue 6), get their MSS updated here.
 *
 * Context: Process context, RTNL held.
 */
void irdma_mtu_changed(struct irdma_pci_f *rf)
{
	if (rf->iwdev)
		ibdev_info(&rf->iwdev->ibdev, "MTU %u, active MTU %d\n",
			   READ_ONCE(rf->netdev->mtu),
			   ib_mtu_enum_to_int(ib_mtu_int_to_enum(READ_ONCE(rf->netdev->mtu))));
}

static int irdma_netdev_event(struct notifier_block *nb, unsigned long event,
			      void *ptr)
{
	struct net_device *netdev = netdev_notifier_info_to_dev(ptr);
	struct irdma_pci_f *rf;

	switch (event) {
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		break;
	default:
		return NOTIFY_DONE;
	}
	mutex_lock(&irdma_rf_list_mutex);
	list_for_each_entry(rf, &irdma_rf_list, list)
		if (rf->netdev == netdev)
			irdma_port_update(rf);
	mutex_unlock(&irdma_rf_list_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block irdma_netdev_nb = {
	.notifier_call = irdma_netdev_event,
};

/* Undoes the bring-up from rf->state down, in reverse order. */
static void irdma_unwind(struct irdma_pci_f *rf)
{
	switch (rf->state) {
	case IRDMA_INIT_IBDEV:
		mutex_lock(&irdma_rf_list_mutex);
		list_del(&rf->list);
		mutex_unlock(&irdma_rf_list_mutex);
		irdma_ib_unregister(rf);
		fallthrough;
	case IRDMA_INIT_VSI_FILTER:
		if (!rf->resetting)
			rf->vsi_filter(rf, false);
		fallthrough;
	case IRDMA_INIT_LOCAL_MAC:
		irdma_local_mac_del(rf);
		fallthrough;
	case IRDMA_INIT_AEQ:
		irdma_ceq0_quiesce(rf);
		irdma_aeq_teardown(rf);
		fallthrough;
	case IRDMA_INIT_CEQS:
		irdma_ceq0_quiesce(rf);
		irdma_ceqs_teardown(rf);
		fallthrough;
	case IRDMA_INIT_CEQ0:
		irdma_ceq0_teardown(rf);
		fallthrough;
	case IRDMA_INIT_CCQ:
		irdma_ccq_destroy(rf);
		fallthrough;
	case IRDMA_INIT_HMC:
		irdma_hmc_teardown(rf);
		fallthrough;
	case IRDMA_INIT_CQP:
		irdma_cqp_destroy(rf);
		fallthrough;
	case IRDMA_INIT_NONE:
		break;
	}
	rf->state = IRDMA_INIT_NONE;
}

/**
 * irdma_probe_pf() - bring up the RDMA engine of one PCI function
 * @rf: per-function state, filled in by the parent binding
 *
 * In order: PE ready and doorbell checks; CQP; HMC (query, size, commit,
 * SDs); CCQ; firmware features; CEQ 0 and its interrupt (CQP completions
 * by event from then on); the per-CPU CEQs; AEQ and its interrupt; the netdev's MAC in the
 * local MAC table; the VSI's RoCEv2 filter
 * through the parent; the ib_device. Each step has its undo, run in
 * reverse by irdma_remove_pf() or when a later step fails.
 *
 * Context: Process context, sleeps; the auxiliary device lock is held.
 * Return: 0 or a negative errno.
 */
int irdma_probe_pf(struct irdma_pci_f *rf)
{
	struct device *dev = irdma_rf_to_dev(rf);
	int err;

	INIT_WORK(&rf->reset_work, irdma_reset_work);
	INIT_LIST_HEAD(&rf->list);
	rf->state = IRDMA_INIT_NONE;

	err = irdma_check_hw(rf);
	if (err)
		return err;

	err = irdma_cqp_create(rf);
	if (err)
		goto err_unwind;
	rf->state = IRDMA_INIT_CQP;

	err = irdma_hmc_setup(rf);
	if (err)
		goto err_unwind;
	rf->state = IRDMA_INIT_HMC;

	err = irdma_ccq_create(rf);
	if (err)
		goto err_unwind;
	rf->state = IRDMA_INIT_CCQ;

	err = irdma_query_features(rf);
	if (err)
		goto err_unwind;

	err = irdma_ceq0_setup(rf);
	if (err)
		goto err_unwind;
	rf->state = IRDMA_INIT_CEQ0;

	err = irdma_ceqs_setup(rf);
	if (err)
		goto err_unwind;
	rf->state = IRDMA_INIT_CEQS;

	err = irdma_aeq_setup(rf);
	if (err)
		goto err_unwind;
	rf->state = IRDMA_INIT_AEQ;

	err = irdma_local_mac_add(rf);
	if (err)
		goto err_unwind;
	rf->state = IRDMA_INIT_LOCAL_MAC;

	err = rf->vsi_filter(rf, true);
	if (err) {
		dev_err(dev, "VSI %u: RoCEv2 filter not enabled: %d\n",
			rf->vsi_id, err);
		goto err_unwind;
	}
	rf->state = IRDMA_INIT_VSI_FILTER;

	irdma_dbg_pf_init(rf);

	err = irdma_ib_register(rf);
	if (err) {
		dev_err(dev, "ib_device registration failed: %d\n", err);
		goto err_dbg;
	}
	mutex_lock(&irdma_rf_list_mutex);
	list_add_tail(&rf->list, &irdma_rf_list);
	mutex_unlock(&irdma_rf_list_mutex);
	rf->state = IRDMA_INIT_IBDEV;
	/* The link may have changed while the device registered. */
	mutex_lock(&irdma_rf_list_mutex);
	irdma_port_update(rf);
	mutex_unlock(&irdma_rf_list_mutex);
	return 0;

err_dbg:
	irdma_dbg_pf_exit(rf);
err_unwind:
	irdma_unwind(rf);
	return err;
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
	irdma_unwind(rf);
	cancel_work_sync(&rf->reset_work);
}

static int __init irdma_init_module(void)
{
	int err;

	irdma_dbg_init();

	err = register_netdevice_notifier(&irdma_netdev_nb);
	if (err) {
		pr_err("cannot register the netdev notifier: %d\n", err);
		goto err_dbg_exit;
	}

	err = irdma_ice_lite_register();
	if (err) {
		pr_err("cannot register the ice_lite auxiliary driver: %d\n",
		       err);
		goto err_notifier;
	}

	return 0;

err_notifier:
	unregister_netdevice_notifier(&irdma_netdev_nb);
err_dbg_exit:
	irdma_dbg_exit();
	return err;
}

static void __exit irdma_exit_module(void)
{
	irdma_ice_lite_unregister();
	unregister_netdevice_notifier(&irdma_netdev_nb);
	irdma_dbg_exit();
}

module_init(irdma_init_module);
module_exit(irdma_exit_module);

MODULE_DESCRIPTION("RDMA driver for the Intel E810 (GEN_2) protocol engine");
MODULE_LICENSE("GPL");
