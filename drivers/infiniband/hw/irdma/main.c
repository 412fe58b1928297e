// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: RDMA driver for the Intel E810 protocol engine (GEN_2, RoCEv2 and
 * iWARP) and the X722's (GEN_1, iWARP).
 *
 * Module init/exit and the parent-independent part of probe/remove. The
 * auxiliary driver of each parent kind lives in its own *_if.c file and
 * calls irdma_probe_pf()/irdma_remove_pf().
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/inetdevice.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <net/addrconf.h>
#include <rdma/ib_verbs.h>

#include "main.h"
#include "events.h"
#include "iw.h"
#include "quarantine.h"

/*
 * Functions whose port the notifiers follow. Changes take the mutex and
 * the spinlock; the netdev notifier (process context) reads under the
 * mutex, the IPv6 address notifier (atomic) under the spinlock.
 */
static LIST_HEAD(irdma_rf_list);
static DEFINE_MUTEX(irdma_rf_list_mutex);
static DEFINE_SPINLOCK(irdma_rf_list_lock);

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
	if (schedule_work(&rf->reset_work))
		irdma_ev_inc(rf, IRDMA_EV_RESET_REQUESTS);
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
 * @after: AFTER_MTU_CHANGE (else BEFORE_MTU_CHANGE)
 *
 * The L2 parameters of RoCE (path MTU of new QPs) are read from the netdev
 * when needed. Existing QPs keep the path MTU they were given at RTR, as
 * they do on upstream irdma for RoCEv2 (its MSS update is for iWARP's TCP
 * connections); nothing to tell the device here. The event is counted
 * (debugfs events: mtu_before, mtu_after, mtu).
 *
 * Context: Process context (the stock ice sends AFTER without RTNL).
 */
void irdma_mtu_changed(struct irdma_pci_f *rf, bool after)
{
	unsigned int mtu = READ_ONCE(rf->netdev->mtu);

	irdma_ev_mtu(rf, after);
	dev_dbg(irdma_rf_to_dev(rf), "MTU change: %s, mtu %u, active MTU %d\n",
		after ? "after" : "before", mtu,
		ib_mtu_enum_to_int(ib_mtu_int_to_enum(mtu)));
}

/*
 * The netdev's MAC changed: rewrite our local MAC table entry (same index)
 * and the local ARP entries, which carry that MAC.
 */
static void irdma_mac_changed(struct irdma_pci_f *rf)
{
	int err;

	if (ether_addr_equal(rf->mac, rf->netdev->dev_addr))
		return;
	err = irdma_local_mac_update(rf);
	if (err) {
		dev_err(irdma_rf_to_dev(rf), "local MAC not updated: %d\n", err);
		return;
	}
	irdma_arp_sync_local(rf);
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
	case NETDEV_CHANGEADDR:
		break;
	default:
		return NOTIFY_DONE;
	}
	mutex_lock(&irdma_rf_list_mutex);
	list_for_each_entry(rf, &irdma_rf_list, list) {
		if (rf->netdev != netdev)
			continue;
		if (event == NETDEV_CHANGEADDR)
			irdma_mac_changed(rf);
		else
			irdma_port_update(rf);
	}
	mutex_unlock(&irdma_rf_list_mutex);
	return NOTIFY_DONE;
}

/*
 * An address of @netdev came or went: resync the local ARP entries and, in
 * iWARP mode, the wildcard listeners' quad hash entries.
 */
static void irdma_addr_event(struct net_device *netdev)
{
	struct irdma_pci_f *rf;
	unsigned long flags;

	spin_lock_irqsave(&irdma_rf_list_lock, flags);
	list_for_each_entry(rf, &irdma_rf_list, list)
		if (rf->netdev == netdev) {
			schedule_work(&rf->arp.sync_work);
			if (rf->iwarp)
				irdma_iw_addrs_changed(rf);
		}
	spin_unlock_irqrestore(&irdma_rf_list_lock, flags);
}

static int irdma_inetaddr_event(struct notifier_block *nb,
				unsigned long event, void *ptr)
{
	struct in_ifaddr *ifa = ptr;

	if (event == NETDEV_UP || event == NETDEV_DOWN)
		irdma_addr_event(ifa->ifa_dev->dev);
	return NOTIFY_DONE;
}

static int irdma_inet6addr_event(struct notifier_block *nb,
				 unsigned long event, void *ptr)
{
	struct inet6_ifaddr *ifp = ptr;

	if (event == NETDEV_UP || event == NETDEV_DOWN)
		irdma_addr_event(ifp->idev->dev);
	return NOTIFY_DONE;
}

static struct notifier_block irdma_inetaddr_nb = {
	.notifier_call = irdma_inetaddr_event,
};

static struct notifier_block irdma_inet6addr_nb = {
	.notifier_call = irdma_inet6addr_event,
};

static void irdma_rf_list_add(struct irdma_pci_f *rf)
{
	mutex_lock(&irdma_rf_list_mutex);
	spin_lock_irq(&irdma_rf_list_lock);
	list_add_tail(&rf->list, &irdma_rf_list);
	spin_unlock_irq(&irdma_rf_list_lock);
	/* The link may have changed while the device registered. */
	irdma_port_update(rf);
	mutex_unlock(&irdma_rf_list_mutex);
	/* So may the addresses. */
	schedule_work(&rf->arp.sync_work);
}

static void irdma_rf_list_del(struct irdma_pci_f *rf)
{
	mutex_lock(&irdma_rf_list_mutex);
	spin_lock_irq(&irdma_rf_list_lock);
	list_del(&rf->list);
	spin_unlock_irq(&irdma_rf_list_lock);
	mutex_unlock(&irdma_rf_list_mutex);
}

static struct notifier_block irdma_netdev_nb = {
	.notifier_call = irdma_netdev_event,
};

/* Undoes the bring-up from rf->state down, in reverse order. */
static void irdma_unwind(struct irdma_pci_f *rf)
{
	switch (rf->state) {
	case IRDMA_INIT_IBDEV:
		irdma_rf_list_del(rf);
		if (rf->iwarp)
			irdma_cm_stop(rf);	/* pending connects answered */
		irdma_ib_unregister(rf);
		fallthrough;
	case IRDMA_INIT_ILQ:
		if (rf->iwarp) {
			/* Its work may use the ILQ's qset. */
			irdma_iw_fini(rf);
			irdma_ilq_destroy(rf);
		}
		fallthrough;
	case IRDMA_INIT_VSI_FILTER:
		irdma_ws_reset(rf);
		if (!rf->resetting)
			rf->vsi_filter(rf, false);
		fallthrough;
	case IRDMA_INIT_ARP:
		irdma_arp_fini(rf);
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
 * local MAC table; the ARP cache with the netdev's own addresses; the VSI's RoCEv2 filter
 * through the parent; in iWARP mode the ILQ; the ib_device. Each step has its undo, run in
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

	if (rf->msix_count < IRDMA_MIN_MSIX) {
		dev_err(dev, "the parent granted %u MSI-X vectors for RDMA, %u needed\n",
			rf->msix_count, IRDMA_MIN_MSIX);
		return -ENOSPC;
	}
	err = irdma_check_hw(rf);
	if (err)
		return err;
	/* Memory an earlier bind left to the engine, if it was reset since. */
	irdma_quarantine_release(rf);

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

	err = irdma_arp_init(rf);
	if (err)
		goto err_unwind;
	rf->state = IRDMA_INIT_ARP;

	err = rf->vsi_filter(rf, true);
	if (err) {
		dev_err(dev, "VSI %u: RoCEv2 filter not enabled: %d\n",
			rf->vsi_id, err);
		goto err_unwind;
	}
	rf->state = IRDMA_INIT_VSI_FILTER;

	if (rf->iwarp) {
		err = irdma_iw_init(rf);
		if (!err)
			err = irdma_ilq_create(rf);
		if (err) {
			dev_err(dev, "ILQ not created: %d\n", err);
			irdma_iw_fini(rf);
			goto err_unwind;
		}
	}
	rf->state = IRDMA_INIT_ILQ;

	irdma_dbg_pf_init(rf);

	err = irdma_ib_register(rf);
	if (err) {
		dev_err(dev, "ib_device registration failed: %d\n", err);
		goto err_dbg;
	}
	rf->state = IRDMA_INIT_IBDEV;
	irdma_rf_list_add(rf);
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
	unsigned int held;
	size_t bytes;

	irdma_engine_check_reset(rf);
	irdma_dbg_pf_exit(rf);
	irdma_unwind(rf);
	irdma_ev_inc(rf, IRDMA_EV_UNBINDS);
	cancel_work_sync(&rf->reset_work);
	/* Held after failed DESTROYs: free once the CQP is gone. */
	if (!irdma_engine_may_reach(rf)) {
		irdma_quarantine_release(rf);
		return;
	}
	held = irdma_quarantine_count(rf, &bytes);
	irdma_ev_add(rf, IRDMA_EV_QUARANTINED_BUFS, held);
	if (held)
		dev_warn(irdma_rf_to_dev(rf),
			 "unbound before a function reset: %u buffers (%zu KiB) the engine may still reach are held until then\n",
			 held, bytes >> 10);
}

/**
 * irdma_bind() - common part of a parent binding's probe
 * @rf: per-function state (kzalloc'ed), with the generic fields filled in;
 *	@rf->gen unset means GEN_2
 * @qos: the parent's QoS at probe
 *
 * Takes ownership of @rf: on failure it is freed.
 *
 * Context: Process context; the auxiliary device lock is held.
 * Return: 0 or a negative errno.
 */
int irdma_bind(struct irdma_pci_f *rf, const struct irdma_qos *qos)
{
	int err;

	if (!rf->gen)
		rf->gen = &irdma_gen_2;
	irdma_tc_init(rf, qos);
	irdma_ws_init(rf);
	auxiliary_set_drvdata(rf->adev, rf);
	/* Without memory for the counters the function works uncounted. */
	irdma_events_attach(rf);

	err = irdma_probe_pf(rf);
	if (err)
		goto err_tc_fini;
	irdma_ev_inc(rf, IRDMA_EV_BINDS);

	dev_dbg(irdma_rf_to_dev(rf), "INIT: PF %u bound, %u MSI-X vectors\n",
		rf->pf_id, rf->msix_count);
	return 0;

err_tc_fini:
	auxiliary_set_drvdata(rf->adev, NULL);
	irdma_ws_fini(rf);
	irdma_tc_fini(rf);
	kfree(rf);
	return err;
}

/**
 * irdma_unbind() - undo irdma_bind() and free @rf
 * @rf: per-function state
 *
 * Context: Process context; the auxiliary device lock is held.
 */
void irdma_unbind(struct irdma_pci_f *rf)
{
	struct auxiliary_device *adev = rf->adev;

	irdma_remove_pf(rf);
	auxiliary_set_drvdata(adev, NULL);
	irdma_ws_fini(rf);
	irdma_tc_fini(rf);
	kfree(rf);
}

/**
 * irdma_crit_err() - the parent reports a critical error
 * @rf: per-function state
 * @oicr: the parent's PFINT_OICR value
 *
 * Device commands stop and the parent is asked for a function reset, which
 * unbinds us and binds us again.
 *
 * Context: Process context.
 */
void irdma_crit_err(struct irdma_pci_f *rf, u32 oicr)
{
	irdma_ev_inc(rf, IRDMA_EV_CRIT_ERRORS);
	dev_err(irdma_rf_to_dev(rf), "critical error: OICR 0x%08x\n", oicr);
	irdma_schedule_reset(rf, "critical error");
	WRITE_ONCE(rf->resetting, true);
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
	err = register_inetaddr_notifier(&irdma_inetaddr_nb);
	if (err)
		goto err_netdev_nb;
	err = register_inet6addr_notifier(&irdma_inet6addr_nb);
	if (err)
		goto err_inet_nb;

	err = irdma_ice_lite_register();
	if (err) {
		pr_err("cannot register the ice_lite auxiliary driver: %d\n",
		       err);
		goto err_inet6_nb;
	}

	err = irdma_ice_register();
	if (err) {
		pr_err("cannot register the ice auxiliary driver: %d\n", err);
		goto err_ice_lite;
	}

	err = irdma_i40e_register();
	if (err) {
		pr_err("cannot register the i40e auxiliary driver: %d\n", err);
		goto err_ice;
	}

	return 0;

err_ice:
	irdma_ice_unregister();
err_ice_lite:
	irdma_ice_lite_unregister();
err_inet6_nb:
	unregister_inet6addr_notifier(&irdma_inet6addr_nb);
err_inet_nb:
	unregister_inetaddr_notifier(&irdma_inetaddr_nb);
err_netdev_nb:
	unregister_netdevice_notifier(&irdma_netdev_nb);
err_dbg_exit:
	irdma_dbg_exit();
	irdma_events_exit();
	return err;
}

static void __exit irdma_exit_module(void)
{
	irdma_i40e_unregister();
	irdma_ice_unregister();
	irdma_ice_lite_unregister();
	unregister_inet6addr_notifier(&irdma_inet6addr_nb);
	unregister_inetaddr_notifier(&irdma_inetaddr_nb);
	unregister_netdevice_notifier(&irdma_netdev_nb);
	irdma_dbg_exit();
	irdma_events_exit();
	irdma_quarantine_exit();
}

module_init(irdma_init_module);
module_exit(irdma_exit_module);

MODULE_DESCRIPTION("RDMA driver for the Intel E810 (GEN_2) and X722 (GEN_1) protocol engines");
MODULE_LICENSE("GPL");
/* User space reaches the device through uverbs; load it with us. */
MODULE_SOFTDEP("pre: ib_uverbs");
