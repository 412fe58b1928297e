/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * irdma: per-function event counters (events.c), for debugfs.
 */
#ifndef IRDMA_EVENTS_H
#define IRDMA_EVENTS_H

#include <linux/atomic.h>
#include <linux/types.h>

struct irdma_pci_f;

/*
 * What is counted per PCI function, from its first bind until irdma
 * unloads (so across the unbind and bind of a function reset). The names
 * debugfs prints are in events.c; docs/debugging.md explains them.
 */
enum irdma_ev {
	IRDMA_EV_BINDS,			/* bound, ib_device registered */
	IRDMA_EV_UNBINDS,		/* unbound */
	IRDMA_EV_PARENT_RESETS,		/* the parent resets the function */
	IRDMA_EV_CRIT_ERRORS,		/* CRIT_ERR events */
	IRDMA_EV_RESET_REQUESTS,	/* function resets we asked for */
	IRDMA_EV_CQP_HANGS,		/* the CQP watchdog gave up */
	IRDMA_EV_MTU_BEFORE,		/* BEFORE_MTU_CHANGE events */
	IRDMA_EV_MTU_AFTER,		/* AFTER_MTU_CHANGE events */
	IRDMA_EV_TC_BEFORE,		/* BEFORE_TC_CHANGE events */
	IRDMA_EV_TC_AFTER,		/* AFTER_TC_CHANGE events */
	IRDMA_EV_PORT_UP,		/* port ACTIVE reported to ib_core */
	IRDMA_EV_PORT_DOWN,		/* port DOWN reported to ib_core */
	IRDMA_EV_LOCAL_MAC_UPDATES,	/* local MAC table entry rewritten */
	IRDMA_EV_HMC_TEARDOWNS_CLEAN,	/* HMC torn down, 0 valid SDs left */
	IRDMA_EV_HMC_TEARDOWNS_LEFTOVER,/* HMC torn down, valid SDs left */
	IRDMA_EV_HMC_TEARDOWNS_RESET,	/* HMC torn down during a reset */
	IRDMA_EV_QUARANTINED_BUFS,	/* buffers held at an unbind */
	IRDMA_EV_QUARANTINE_RELEASED,	/* held buffers freed after a reset */
	IRDMA_EV_NUM,
};

/**
 * struct irdma_fn_events - the counters of one PCI function
 * @ev: per enum irdma_ev
 * @mtu: the netdev's MTU at the last MTU event
 */
struct irdma_fn_events {
	atomic64_t ev[IRDMA_EV_NUM];
	atomic_t mtu;
};

int irdma_events_attach(struct irdma_pci_f *rf);
void irdma_events_exit(void);
void irdma_ev_add(struct irdma_pci_f *rf, enum irdma_ev ev, long n);
void irdma_ev_mtu(struct irdma_pci_f *rf, bool after);

static inline void irdma_ev_inc(struct irdma_pci_f *rf, enum irdma_ev ev)
{
	irdma_ev_add(rf, ev, 1);
}

#endif /* IRDMA_EVENTS_H */
