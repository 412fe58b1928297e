// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: the engine's ARP cache (MANAGE_ARP, docs/hw-reference.md 2.5).
 *
 * RoCEv2 QP contexts and address handles name their destination MAC by an
 * index into this cache. Two kinds of entries share it:
 *  - local: every IPv4/IPv6 address of the netdev, with the netdev's MAC,
 *    added at bring-up and kept in step with the address notifiers (what
 *    the hardware uses to recognize traffic to itself and for loopback);
 *  - remote: destinations of QPs and AHs, reference counted, removed when
 *    the last user goes.
 * Entry 0 is reserved (hw-reference 2.1). Entries are written permanent: the
 * driver, not the engine, decides when they go.
 *
 * Kernel AHs are created in atomic context (the IB CM and MAD layers hold
 * spinlocks), so the cache is too, as upstream's irdma_add_arp(): the table
 * is under a spinlock and MANAGE_ARP is posted without waiting. The CQP
 * runs its WQEs in order, so a QP context or AH posted after the entry
 * finds it written; a MANAGE_ARP that fails is reported when it completes.
 */

#include <linux/etherdevice.h>
#include <linux/inetdevice.h>
#include <linux/netdevice.h>
#include <linux/seq_file.h>
#include <net/addrconf.h>
#include <net/if_inet6.h>

#include "main.h"

/* Addresses of one netdev looked at per resync; more are not cached. */
#define IRDMA_ARP_MAX_LOCAL	32

struct irdma_local_addr {
	u32 ip[4];
	bool ipv4;
};

static bool irdma_arp_match(const struct irdma_arp_entry *e, const u32 *ip,
			    bool ipv4)
{
	return (e->refs || e->local) && e->ipv4 == ipv4 &&
	       !memcmp(e->ip, ip, sizeof(e->ip));
}

static void irdma_arp_write_done(struct irdma_pci_f *rf, u32 id, int status,
				 u32 ret_val)
{
	if (status && !READ_ONCE(rf->resetting))
		dev_warn_ratelimited(irdma_rf_to_dev(rf),
				     "MANAGE_ARP (request %u) failed: %d\n",
				     id, status);
}

/*
 * Posts the write (or, with @mac NULL, the deletion) of entry @idx in the
 * device without waiting. Any context.
 */
static int irdma_arp_write(struct irdma_pci_f *rf, u32 idx, const u8 *mac)
{
	u64 hdr = FIELD_PREP(E810_CQPSQ_MAT_ARPENTRYIDX, idx);
	u64 q[8] = { };
	u32 id;

	if (READ_ONCE(rf->resetting))
		return -EIO;
	if (mac) {
		hdr |= E810_CQPSQ_MAT_ENTRYVALID | E810_CQPSQ_MAT_PERMANENT;
		q[E810_QW(E810_CQPSQ_MAT_MAC_OFF)] = ether_addr_to_u64(mac);
	}
	return irdma_cqp_post_async(rf, E810_CQP_OP_MANAGE_ARP, hdr, q,
				    irdma_arp_write_done, &id);
}

/* A free entry index, or -ENOSPC. Caller holds arp.lock. */
static int irdma_arp_free_idx(struct irdma_arp *arp)
{
	u32 i;

	lockdep_assert_held(&arp->lock);

	for (i = 1; i < arp->size; i++)
		if (!arp->tbl[i].refs && !arp->tbl[i].local)
			return i;
	return -ENOSPC;
}

/* Entry for @ip, or -ENOENT. Caller holds arp.lock. */
static int irdma_arp_find(struct irdma_arp *arp, const u32 *ip, bool ipv4)
{
	u32 i;

	lockdep_assert_held(&arp->lock);

	for (i = 1; i < arp->size; i++)
		if (irdma_arp_match(&arp->tbl[i], ip, ipv4))
			return i;
	return -ENOENT;
}

/*
 * Makes entry @idx hold @ip/@mac in the device. Caller holds arp.lock and
 * owns the entry (it is free or already holds @ip).
 */
static int irdma_arp_set(struct irdma_pci_f *rf, u32 idx, const u32 *ip,
			 bool ipv4, const u8 *mac)
{
	struct irdma_arp_entry *e = &rf->arp.tbl[idx];
	int err;

	lockdep_assert_held(&rf->arp.lock);

	if ((e->refs || e->local) && ether_addr_equal(e->mac, mac))
		return 0;
	err = irdma_arp_write(rf, idx, mac);
	if (err)
		return err;
	memcpy(e->ip, ip, sizeof(e->ip));
	e->ipv4 = ipv4;
	ether_addr_copy(e->mac, mac);
	return 0;
}

/* Frees entry @idx if nobody holds it any more. Caller holds arp.lock. */
static void irdma_arp_release(struct irdma_pci_f *rf, u32 idx)
{
	struct irdma_arp_entry *e = &rf->arp.tbl[idx];

	lockdep_assert_held(&rf->arp.lock);

	if (e->refs || e->local)
		return;
	if (irdma_arp_write(rf, idx, NULL) && !READ_ONCE(rf->resetting))
		dev_warn(irdma_rf_to_dev(rf), "ARP entry %u not deleted\n",
			 idx);
	memset(e, 0, sizeof(*e));
}

/**
 * irdma_arp_get() - an ARP cache entry for a destination
 * @rf: per-function state
 * @ip: IPv4 address in ip[0] (host order, the rest 0) or IPv6 address with
 *	ip[0] the most significant word
 * @ipv4: which of the two
 * @mac: destination MAC (unicast, or a group's multicast MAC)
 *
 * An entry for @ip is shared; if its MAC differs (the neighbour moved) the
 * entry is rewritten, which every user of it wants.
 *
 * Context: Any context.
 * Return: the entry index (> 0) to put in a QP context or AH, or a
 * negative errno (-ENOSPC when the cache is full).
 */
int irdma_arp_get(struct irdma_pci_f *rf, const u32 ip[4], bool ipv4,
		  const u8 *mac)
{
	struct irdma_arp *arp = &rf->arp;
	unsigned long flags;
	int idx, err;

	if (is_zero_ether_addr(mac))
		return -EINVAL;
	spin_lock_irqsave(&arp->lock, flags);
	idx = irdma_arp_find(arp, ip, ipv4);
	if (idx < 0)
		idx = irdma_arp_free_idx(arp);
	if (idx < 0)
		goto out;
	err = irdma_arp_set(rf, idx, ip, ipv4, mac);
	if (err) {
		idx = err;
		goto out;
	}
	arp->tbl[idx].refs++;
out:
	spin_unlock_irqrestore(&arp->lock, flags);
	return idx;
}

/**
 * irdma_arp_put() - drop a reference taken by irdma_arp_get()
 * @rf: per-function state
 * @idx: the index irdma_arp_get() returned
 *
 * Context: Any context.
 */
void irdma_arp_put(struct irdma_pci_f *rf, int idx)
{
	struct irdma_arp *arp = &rf->arp;
	unsigned long flags;

	spin_lock_irqsave(&arp->lock, flags);
	if (idx <= 0 || idx >= arp->size || !arp->tbl[idx].refs) {
		dev_warn(irdma_rf_to_dev(rf), "ARP entry %d put twice\n", idx);
	} else {
		arp->tbl[idx].refs--;
		irdma_arp_release(rf, idx);
	}
	spin_unlock_irqrestore(&arp->lock, flags);
}

/* Reads the netdev's addresses without RTNL (RCU / the inet6 lock). */
static unsigned int irdma_local_addrs(struct net_device *netdev,
				      struct irdma_local_addr *a)
{
	const struct in_ifaddr *ifa;
	struct inet6_ifaddr *ifp;
	struct inet6_dev *idev;
	struct in_device *in;
	unsigned int n = 0, i;

	rcu_read_lock();
	in = __in_dev_get_rcu(netdev);
	if (in) {
		in_dev_for_each_ifa_rcu(ifa, in) {
			if (n == IRDMA_ARP_MAX_LOCAL)
				break;
			memset(&a[n], 0, sizeof(a[n]));
			a[n].ip[0] = ntohl(ifa->ifa_address);
			a[n++].ipv4 = true;
		}
	}
	rcu_read_unlock();

	idev = in6_dev_get(netdev);
	if (!idev)
		return n;
	read_lock_bh(&idev->lock);
	list_for_each_entry(ifp, &idev->addr_list, if_list) {
		if (n == IRDMA_ARP_MAX_LOCAL)
			break;
		for (i = 0; i < 4; i++)
			a[n].ip[i] = ntohl(ifp->addr.s6_addr32[i]);
		a[n++].ipv4 = false;
	}
	read_unlock_bh(&idev->lock);
	in6_dev_put(idev);
	return n;
}

/**
 * irdma_arp_sync_local() - make the local entries match the netdev
 * @rf: per-function state
 *
 * Adds an entry with the netdev's MAC for each of its addresses, rewrites
 * local entries whose MAC is stale (MAC change) and drops those whose
 * address is gone.
 *
 * Context: Process context, sleeps; RTNL not needed.
 */
void irdma_arp_sync_local(struct irdma_pci_f *rf)
{
	struct irdma_local_addr *addrs;
	struct irdma_arp *arp = &rf->arp;
	struct irdma_arp_entry *e;
	unsigned int n, i;
	u8 mac[ETH_ALEN];
	int idx;

	if (!arp->tbl)
		return;
	addrs = kcalloc(IRDMA_ARP_MAX_LOCAL, sizeof(*addrs), GFP_KERNEL);
	if (!addrs)
		return;
	n = irdma_local_addrs(rf->netdev, addrs);
	ether_addr_copy(mac, rf->mac);

	spin_lock_irq(&arp->lock);
	for (i = 1; i < arp->size; i++)
		arp->tbl[i].stale = arp->tbl[i].local;
	for (i = 0; i < n; i++) {
		idx = irdma_arp_find(arp, addrs[i].ip, addrs[i].ipv4);
		if (idx < 0)
			idx = irdma_arp_free_idx(arp);
		if (idx < 0) {
			dev_warn(irdma_rf_to_dev(rf),
				 "ARP cache full: local address %u not added\n",
				 i);
			break;
		}
		if (irdma_arp_set(rf, idx, addrs[i].ip, addrs[i].ipv4, mac))
			continue;
		e = &arp->tbl[idx];
		e->local = true;
		e->stale = false;
	}
	for (i = 1; i < arp->size; i++) {
		e = &arp->tbl[i];
		if (!e->stale)
			continue;
		e->stale = false;
		e->local = false;
		irdma_arp_release(rf, i);
	}
	spin_unlock_irq(&arp->lock);
	kfree(addrs);
}

static void irdma_arp_sync_work(struct work_struct *work)
{
	struct irdma_pci_f *rf = container_of(work, struct irdma_pci_f,
					      arp.sync_work);

	irdma_arp_sync_local(rf);
}

/**
 * irdma_arp_init() - allocate the cache and add the local addresses
 * @rf: per-function state; HMC committed, CQP commands work
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
int irdma_arp_init(struct irdma_pci_f *rf)
{
	struct irdma_arp *arp = &rf->arp;
	u32 size = rf->hmc.obj[E810_HMC_ARP].cnt;

	if (size < 2) {
		dev_err(irdma_rf_to_dev(rf), "HMC has %u ARP entries\n", size);
		return -EINVAL;
	}
	arp->tbl = kcalloc(size, sizeof(*arp->tbl), GFP_KERNEL);
	if (!arp->tbl)
		return -ENOMEM;
	arp->size = size;
	spin_lock_init(&arp->lock);
	INIT_WORK(&arp->sync_work, irdma_arp_sync_work);
	irdma_arp_sync_local(rf);
	return 0;
}

/**
 * irdma_arp_fini() - delete every entry and free the cache
 * @rf: per-function state
 *
 * QPs and AHs are gone by now; an entry still referenced is a leak of its
 * user and reported.
 *
 * Context: Process context, sleeps.
 */
void irdma_arp_fini(struct irdma_pci_f *rf)
{
	struct irdma_arp *arp = &rf->arp;
	u32 i;

	if (!arp->tbl)
		return;
	cancel_work_sync(&arp->sync_work);
	spin_lock_irq(&arp->lock);
	for (i = 1; i < arp->size; i++) {
		struct irdma_arp_entry *e = &arp->tbl[i];

		if (e->refs)
			dev_warn(irdma_rf_to_dev(rf),
				 "ARP entry %u still has %u users\n", i,
				 e->refs);
		e->refs = 0;
		e->local = false;
		if (!is_zero_ether_addr(e->mac))
			irdma_arp_release(rf, i);
	}
	spin_unlock_irq(&arp->lock);
	kfree(arp->tbl);
	arp->tbl = NULL;
	arp->size = 0;
}

/**
 * irdma_arp_show() - debugfs view of the used entries
 * @m: seq_file
 * @rf: per-function state
 *
 * Return: 0.
 */
int irdma_arp_show(struct seq_file *m, struct irdma_pci_f *rf)
{
	struct irdma_arp *arp = &rf->arp;
	__be32 ip6[4];
	u32 i, w;

	if (!arp->tbl)
		return 0;
	seq_printf(m, "size %u\n", arp->size);
	spin_lock_irq(&arp->lock);
	for (i = 1; i < arp->size; i++) {
		const struct irdma_arp_entry *e = &arp->tbl[i];

		if (!e->refs && !e->local)
			continue;
		if (e->ipv4) {
			seq_printf(m, "%4u %pI4h %pM %s refs %u\n", i, &e->ip[0],
				   e->mac, e->local ? "local" : "remote",
				   e->refs);
			continue;
		}
		for (w = 0; w < 4; w++)
			ip6[w] = htonl(e->ip[w]);
		seq_printf(m, "%4u %pI6c %pM %s refs %u\n", i, ip6, e->mac,
			   e->local ? "local" : "remote", e->refs);
	}
	spin_unlock_irq(&arp->lock);
	return 0;
}
