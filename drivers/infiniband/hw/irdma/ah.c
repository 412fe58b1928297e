// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: address handles (FSIAV objects; docs/hw-reference.md 2.5).
 *
 * A RoCEv2 AH is written to the device with CREATE_ADDR_HANDLE: the source
 * GID's netdev MAC, the IP addresses of the source GID and of the
 * destination, VLAN and priority of the source GID's netdev, the traffic
 * class, hop limit and flow label, the PD and the ARP cache entry (arp.c)
 * holding the destination MAC ib_core resolved (ah_attr->roce.dmac), as
 * upstream's irdma_setup_ah() / irdma_sc_access_ah() do. UD send WQEs name
 * the AH by its index, which the provider learns from irdma_create_ah_resp.
 */

#include <linux/bitfield.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <net/ipv6.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>
#include <rdma/irdma-abi.h>

#include "main.h"
#include "mr.h"
#include "qp.h"

/* An address as the device wants it: host-order words, word 0 first. */
struct irdma_ip {
	u32 w[4];	/* IPv4: w[0] (arp.c's convention) */
	bool ipv4;
};

/* The IP address of a RoCEv2 GID. */
static void irdma_gid_to_ip(const union ib_gid *gid, struct irdma_ip *ip)
{
	unsigned int i;

	memset(ip, 0, sizeof(*ip));
	if (ipv6_addr_v4mapped((const struct in6_addr *)gid->raw)) {
		ip->ipv4 = true;
		ip->w[0] = ntohl(((const __be32 *)gid->raw)[3]);
		return;
	}
	for (i = 0; i < 4; i++)
		ip->w[i] = ntohl(((const __be32 *)gid->raw)[i]);
}

/* Puts @ip at the two WQE qwords @off01 (words 0/1) and @off23 (2/3). */
static void irdma_ah_put_ip(u64 *q, u32 off01, u32 off23,
			    const struct irdma_ip *ip)
{
	if (ip->ipv4) {
		q[E810_QW(off23)] = FIELD_PREP(E810_CQPSQ_AH_IP_LO, ip->w[0]);
		return;
	}
	q[E810_QW(off01)] = FIELD_PREP(E810_CQPSQ_AH_IP_HI, ip->w[0]) |
			    FIELD_PREP(E810_CQPSQ_AH_IP_LO, ip->w[1]);
	q[E810_QW(off23)] = FIELD_PREP(E810_CQPSQ_AH_IP_HI, ip->w[2]) |
			    FIELD_PREP(E810_CQPSQ_AH_IP_LO, ip->w[3]);
}

static bool irdma_ip_multicast(const struct irdma_ip *ip)
{
	return ip->ipv4 ? ipv4_is_multicast(htonl(ip->w[0])) :
			  (ip->w[0] >> 24) == 0xff;
}

/*
 * AH verbs the IB CM calls with spinlocks held (rdma_create_ah() and
 * rdma_destroy_ah() without the SLEEPABLE flag) cannot wait for the CQP
 * the usual way: they post the op with irdma_cqp_post_async() and poll the
 * CCQ themselves, as the CEQ 0 thread may not get to run meanwhile. The
 * completion callback finds the waiter by request id in the device's own
 * table (ids are per CQP); a completion that beats the waiter's
 * registration leaves its result as a value entry.
 */
#define IRDMA_AH_POLL_STEP_US	5
#define IRDMA_AH_POLL_MAX_US	2000000U

struct irdma_ah_wait {
	int state;	/* 0 pending, 1 done, < 0 errno */
};

static void irdma_ah_wait_cb(struct irdma_pci_f *rf, u32 id, int status,
			     u32 ret_val)
{
	struct xarray *waits = &rf->cqp.ah_waits;
	struct irdma_ah_wait *w;
	unsigned long flags;
	int state = status ? -EIO : 1;

	xa_lock_irqsave(waits, flags);
	w = xa_load(waits, id);
	if (w && !xa_is_value(w))
		WRITE_ONCE(w->state, state);
	else
		__xa_store(waits, id, xa_mk_value(state == 1),
			   GFP_ATOMIC);
	xa_unlock_irqrestore(waits, flags);
}

/* One CQP op posted and polled for without sleeping. */
static int irdma_ah_cqp_nowait(struct irdma_pci_f *rf, u8 op, u64 hdr,
			       const u64 *q)
{
	struct xarray *waits = &rf->cqp.ah_waits;
	struct irdma_ah_wait w = { };
	unsigned long flags;
	unsigned int us;
	void *e;
	u32 id;
	int err;

	err = irdma_cqp_post_async(rf, op, hdr, q, irdma_ah_wait_cb, &id);
	if (err)
		return err;
	xa_lock_irqsave(waits, flags);
	e = xa_load(waits, id);
	if (xa_is_value(e)) {
		w.state = xa_to_value(e) ? 1 : -EIO;
		__xa_erase(waits, id);
	} else {
		err = xa_err(__xa_store(waits, id, &w, GFP_ATOMIC));
	}
	xa_unlock_irqrestore(waits, flags);
	/* Not registered: the late callback records a value entry. */
	if (err)
		return err;
	for (us = 0; !READ_ONCE(w.state) && us < IRDMA_AH_POLL_MAX_US;
	     us += IRDMA_AH_POLL_STEP_US) {
		irdma_ccq_process(rf);
		if (READ_ONCE(w.state))
			break;
		udelay(IRDMA_AH_POLL_STEP_US);
	}
	xa_lock_irqsave(waits, flags);
	if (xa_load(waits, id) == &w)
		__xa_erase(waits, id);
	xa_unlock_irqrestore(waits, flags);
	if (!w.state) {
		dev_warn_ratelimited(irdma_rf_to_dev(rf),
				     "CQP op %u for an AH: no completion in %u ms\n",
				     op, IRDMA_AH_POLL_MAX_US / 1000);
		return -ETIMEDOUT;
	}
	return w.state < 0 ? w.state : 0;
}

/* CREATE_ADDR_HANDLE (or DESTROY with @create false) for @ah. */
static int irdma_ah_cqp(struct irdma_pci_f *rf, struct irdma_ah *ah,
			const struct rdma_ah_attr *attr,
			const struct ib_gid_attr *sgid_attr, bool create,
			bool sleep)
{
	const struct ib_global_route *grh = rdma_ah_read_grh(attr);
	struct irdma_ip sip, dip;
	u64 q[8] = { };
	u16 vlan_id = 0xffff;
	u8 smac[ETH_ALEN];
	u64 hdr;
	int err;

	hdr = FIELD_PREP(E810_CQPSQ_AH_AVIDX, ah->ah_id);
	if (!create)
		return sleep ? irdma_cqp_exec(rf, E810_CQP_OP_DESTROY_ADDR_HANDLE,
					      hdr, q, NULL) :
			       irdma_ah_cqp_nowait(rf,
						   E810_CQP_OP_DESTROY_ADDR_HANDLE,
						   hdr, q);

	irdma_gid_to_ip(&sgid_attr->gid, &sip);
	irdma_gid_to_ip(&grh->dgid, &dip);
	err = rdma_read_gid_l2_fields(sgid_attr, &vlan_id, smac);
	if (err)
		return err;
	q[E810_QW(E810_CQPSQ_AH_MAC_OFF)] =
		FIELD_PREP(E810_CQPSQ_AH_MAC, ether_addr_to_u64(smac));
	q[E810_QW(E810_CQPSQ_AH_VLAN_OFF)] =
		FIELD_PREP(E810_CQPSQ_AH_TC, grh->traffic_class) |
		FIELD_PREP(E810_CQPSQ_AH_PDINDEXLO, ah->pd_id & 0xffff);
	if (vlan_id < VLAN_N_VID) {
		/* PCP: the user priority of the traffic class, as for QPs */
		q[E810_QW(E810_CQPSQ_AH_VLAN_OFF)] |=
			FIELD_PREP(E810_CQPSQ_AH_VLANTAG,
				   vlan_id |
				   (u16)irdma_ws_up(sgid_attr, grh->traffic_class) <<
				   VLAN_PRIO_SHIFT);
		hdr |= E810_CQPSQ_AH_INSERTVLANTAG;
	}
	q[E810_QW(E810_CQPSQ_AH_FLOW_OFF)] =
		FIELD_PREP(E810_CQPSQ_AH_FLOWLABEL, grh->flow_label) |
		FIELD_PREP(E810_CQPSQ_AH_PDINDEXHI, ah->pd_id >> 16) |
		FIELD_PREP(E810_CQPSQ_AH_HOPLIMIT, grh->hop_limit) |
		FIELD_PREP(E810_CQPSQ_AH_ARPINDEX,
			   ah->arp_idx > 0 ? ah->arp_idx : 0);
	irdma_ah_put_ip(q, E810_CQPSQ_AH_DIP01_OFF, E810_CQPSQ_AH_DIP23_OFF,
			&dip);
	irdma_ah_put_ip(q, E810_CQPSQ_AH_SIP01_OFF, E810_CQPSQ_AH_SIP23_OFF,
			&sip);
	if (dip.ipv4)
		hdr |= E810_CQPSQ_AH_IPV4VALID;
	/* To ourselves or to a group we may be in: the engine loops back. */
	if (!memcmp(&sip, &dip, sizeof(sip)) || irdma_ip_multicast(&dip))
		hdr |= E810_CQPSQ_AH_DOLOOPBACK;
	if (!sleep)
		return irdma_ah_cqp_nowait(rf, E810_CQP_OP_CREATE_ADDR_HANDLE,
					   hdr, q);
	return irdma_cqp_exec(rf, E810_CQP_OP_CREATE_ADDR_HANDLE, hdr, q, NULL);
}

/**
 * irdma_create_ah() - create_ah / create_user_ah
 * @ibah: the AH ib_core allocated
 * @init: attributes and flags
 * @udata: user data (response irdma_create_ah_resp), or NULL
 *
 * Every AH, the kernel's too, holds an ARP cache entry for its destination
 * (the cache works in any context: the IB CM creates and destroys its AHs
 * with spinlocks held). Without RDMA_CREATE_AH_SLEEPABLE the CQP op is
 * polled for (irdma_ah_cqp_nowait()).
 *
 * Context: Process context; any context without RDMA_CREATE_AH_SLEEPABLE.
 * Return: 0 or a negative errno.
 */
int irdma_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		    struct ib_udata *udata)
{
	struct irdma_pci_f *rf = to_iwdev(ibah->device)->rf;
	struct rdma_ah_attr *attr = init->ah_attr;
	struct irdma_ah *ah = to_irdma_ah(ibah);
	struct irdma_create_ah_resp resp = { };
	const struct ib_global_route *grh;
	const struct ib_gid_attr *sgid_attr;
	bool sleep = init->flags & RDMA_CREATE_AH_SLEEPABLE;
	struct irdma_ip dip;
	int id, err;

	if (udata && (udata->outlen < sizeof(resp) || !sleep))
		return -EINVAL;
	if (!(rdma_ah_get_ah_flags(attr) & IB_AH_GRH))
		return -EINVAL;
	grh = rdma_ah_read_grh(attr);
	sgid_attr = grh->sgid_attr;
	if (!sgid_attr ||
	    rdma_gid_attr_network_type(sgid_attr) == RDMA_NETWORK_IB)
		return -EINVAL;	/* RoCEv2 only */

	ah->pd_id = to_irdma_pd(ibah->pd)->pd_id;
	irdma_gid_to_ip(&grh->dgid, &dip);
	ah->arp_idx = irdma_arp_get(rf, dip.w, dip.ipv4, attr->roce.dmac);
	if (ah->arp_idx < 0)
		return ah->arp_idx;
	id = irdma_hmc_id_alloc_gfp(rf, E810_HMC_FSIAV, 1,
				    sleep ? GFP_KERNEL : GFP_ATOMIC);
	if (id < 0) {
		err = id == -ENOSPC ? -ENOMEM : id;
		goto err_arp;
	}
	ah->ah_id = id;
	err = irdma_ah_cqp(rf, ah, attr, sgid_attr, true, sleep);
	if (err)
		goto err_id;

	ah->attr = *attr;
	ah->attr.grh.sgid_attr = NULL;	/* ib_core holds its own reference */
	if (udata) {
		resp.ah_id = ah->ah_id;
		err = ib_copy_to_udata(udata, &resp,
				       min(sizeof(resp), udata->outlen));
		if (err) {
			err = -EFAULT;
			goto err_destroy;
		}
	}
	return 0;

err_destroy:
	irdma_ah_cqp(rf, ah, attr, sgid_attr, false, true);
err_id:
	irdma_hmc_id_free(rf, E810_HMC_FSIAV, ah->ah_id);
err_arp:
	if (ah->arp_idx > 0)
		irdma_arp_put(rf, ah->arp_idx);
	return err;
}

/**
 * irdma_destroy_ah() - destroy an AH from irdma_create_ah()
 * @ibah: the AH
 * @flags: RDMA_DESTROY_AH_SLEEPABLE, or 0 when the caller holds spinlocks
 *	(the IB CM): then the CQP op is polled for. Only user AHs hold an
 *	ARP entry, and uverbs always destroys sleepable.
 *
 * Context: Process context; any context without RDMA_DESTROY_AH_SLEEPABLE.
 * Return: 0 (a failed DESTROY is logged; the device forgets the AH with a
 * reset anyway).
 */
int irdma_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	struct irdma_pci_f *rf = to_iwdev(ibah->device)->rf;
	struct irdma_ah *ah = to_irdma_ah(ibah);
	bool sleep = flags & RDMA_DESTROY_AH_SLEEPABLE;
	int err;

	err = irdma_ah_cqp(rf, ah, NULL, NULL, false, sleep);
	if (err)
		ibdev_warn_ratelimited(ibah->device,
				       "AH %u: DESTROY_ADDR_HANDLE: %d\n",
				       ah->ah_id, err);
	irdma_hmc_id_free(rf, E810_HMC_FSIAV, ah->ah_id);
	if (ah->arp_idx > 0)
		irdma_arp_put(rf, ah->arp_idx);
	return 0;
}

/**
 * irdma_query_ah() - the attributes an AH was created with
 * @ibah: the AH
 * @attr: filled (ib_core cleared it and set the type)
 *
 * Context: Any context.
 * Return: 0.
 */
int irdma_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	struct irdma_ah *ah = to_irdma_ah(ibah);
	struct ib_global_route *grh = &ah->attr.grh;

	attr->type = ibah->type;
	rdma_ah_set_sl(attr, rdma_ah_get_sl(&ah->attr));
	rdma_ah_set_port_num(attr, rdma_ah_get_port_num(&ah->attr));
	rdma_ah_set_grh(attr, &grh->dgid, grh->flow_label, grh->sgid_index,
			grh->hop_limit, grh->traffic_class);
	memcpy(attr->roce.dmac, ah->attr.roce.dmac, ETH_ALEN);
	return 0;
}
