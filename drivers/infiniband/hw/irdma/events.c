// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: per-function event counters.
 *
 * What happened to a PCI function's RDMA engine (binds, parent events,
 * resets asked for, CQP hangs, HMC teardowns, ...) is counted here instead
 * of logged on every healthy path. The counters of a function live from
 * its first bind until the module unloads, so that a function reset,
 * which unbinds the function and binds it again, does not lose them; they
 * are shown in /sys/kernel/debug/irdma/events/<PCI function>
 * (docs/debugging.md). Each is an atomic64_t: taken in any context, never
 * on a data path.
 */

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "main.h"
#include "events.h"

static const char * const irdma_ev_names[IRDMA_EV_NUM] = {
	[IRDMA_EV_BINDS] = "binds",
	[IRDMA_EV_UNBINDS] = "unbinds",
	[IRDMA_EV_PARENT_RESETS] = "parent_resets",
	[IRDMA_EV_CRIT_ERRORS] = "crit_errors",
	[IRDMA_EV_RESET_REQUESTS] = "reset_requests",
	[IRDMA_EV_CQP_HANGS] = "cqp_hangs",
	[IRDMA_EV_MTU_BEFORE] = "mtu_before",
	[IRDMA_EV_MTU_AFTER] = "mtu_after",
	[IRDMA_EV_TC_BEFORE] = "tc_before",
	[IRDMA_EV_TC_AFTER] = "tc_after",
	[IRDMA_EV_PORT_UP] = "port_up",
	[IRDMA_EV_PORT_DOWN] = "port_down",
	[IRDMA_EV_LOCAL_MAC_UPDATES] = "local_mac_updates",
	[IRDMA_EV_HMC_TEARDOWNS_CLEAN] = "hmc_teardowns_clean",
	[IRDMA_EV_HMC_TEARDOWNS_LEFTOVER] = "hmc_teardowns_leftover",
	[IRDMA_EV_HMC_TEARDOWNS_RESET] = "hmc_teardowns_reset",
	[IRDMA_EV_QUARANTINED_BUFS] = "quarantined_bufs",
	[IRDMA_EV_QUARANTINE_RELEASED] = "quarantine_released",
};

/**
 * struct irdma_fn_entry - the counters of one PCI function
 * @list: entry in irdma_fn_list
 * @name: the function's PCI name
 * @ev: the counters
 */
struct irdma_fn_entry {
	struct list_head list;
	char name[32];
	struct irdma_fn_events ev;
};

static LIST_HEAD(irdma_fn_list);
static DEFINE_MUTEX(irdma_fn_mutex);	/* irdma_fn_list */

/**
 * irdma_events_show() - the counters of one function, "name value" lines
 * @m: the seq_file
 * @ev: the counters
 */
void irdma_events_show(struct seq_file *m, struct irdma_fn_events *ev)
{
	unsigned int i;

	for (i = 0; i < IRDMA_EV_NUM; i++)
		seq_printf(m, "%s %lld\n", irdma_ev_names[i],
			   (long long)atomic64_read(&ev->ev[i]));
	seq_printf(m, "mtu %d\n", atomic_read(&ev->mtu));
}

/**
 * irdma_events_attach() - find or make the counters of @rf's function
 * @rf: per-function state, with @pcidev set
 *
 * Without memory the function works uncounted.
 *
 * Context: Process context, sleeps.
 * Return: 0 or -ENOMEM.
 */
int irdma_events_attach(struct irdma_pci_f *rf)
{
	const char *name = pci_name(rf->pcidev);
	struct irdma_fn_entry *e;

	mutex_lock(&irdma_fn_mutex);
	list_for_each_entry(e, &irdma_fn_list, list)
		if (!strcmp(e->name, name))
			goto found;
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e) {
		mutex_unlock(&irdma_fn_mutex);
		return -ENOMEM;
	}
	strscpy(e->name, name, sizeof(e->name));
	list_add_tail(&e->list, &irdma_fn_list);
	irdma_dbg_events_add(e->name, &e->ev);
found:
	rf->events = &e->ev;
	mutex_unlock(&irdma_fn_mutex);
	return 0;
}

/**
 * irdma_events_exit() - module unload: free every function's counters
 *
 * Runs after the debugfs files are gone and every function is unbound.
 */
void irdma_events_exit(void)
{
	struct irdma_fn_entry *e, *tmp;

	mutex_lock(&irdma_fn_mutex);
	list_for_each_entry_safe(e, tmp, &irdma_fn_list, list) {
		list_del(&e->list);
		kfree(e);
	}
	mutex_unlock(&irdma_fn_mutex);
}

/**
 * irdma_ev_add() - count @n events of kind @ev on @rf's function
 * @rf: per-function state
 * @ev: what happened
 * @n: how many times
 *
 * Context: Any context.
 */
void irdma_ev_add(struct irdma_pci_f *rf, enum irdma_ev ev, long n)
{
	if (rf && rf->events)
		atomic64_add(n, &rf->events->ev[ev]);
}

/**
 * irdma_ev_mtu() - count an MTU event and note the netdev's MTU
 * @rf: per-function state
 * @after: AFTER_MTU_CHANGE (else BEFORE_MTU_CHANGE)
 *
 * Context: Any context.
 */
void irdma_ev_mtu(struct irdma_pci_f *rf, bool after)
{
	if (!rf || !rf->events)
		return;
	atomic_set(&rf->events->mtu, READ_ONCE(rf->netdev->mtu));
	atomic64_inc(&rf->events->ev[after ? IRDMA_EV_MTU_AFTER :
					 IRDMA_EV_MTU_BEFORE]);
}
