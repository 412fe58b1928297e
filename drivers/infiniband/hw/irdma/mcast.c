// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: multicast groups for UD QPs (FSIMC objects;
 * docs/hw-reference.md 2.5).
 *
 * One device group per multicast GID, holding up to E810_MG_MAX_QPS QPs.
 * The group's QP list lives in a 4 KiB DMA "MG context" buffer that the
 * driver rewrites and the device reads on CREATE/MODIFY_MCAST_GRP; the
 * first attach creates the group, the last detach destroys it. The table
 * (rf->hmc.mcgs) is keyed by MGID and protected by rf->hmc.mcg_lock.
 */

#include <linux/bitfield.h>
#include <linux/etherdevice.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_verbs.h>

#include "main.h"
#include "mr.h"

/**
 * struct irdma_mcg - one multicast group
 * @list: entry in rf->hmc.mcgs
 * @mgid: the group's GID (an IPv4-mapped or IPv6 multicast address)
 * @idx: MG index (FSIMC object)
 * @ctx: MG context buffer
 * @qpn: attached QPs
 * @nqps: entries in @qpn
 */
struct irdma_mcg {
	struct list_head list;
	union ib_gid mgid;
	u32 idx;
	struct irdma_dma ctx;
	u32 qpn[E810_MG_MAX_QPS];
	u32 nqps;
};

static struct irdma_mcg *irdma_mcg_find(struct irdma_pci_f *rf,
					const union ib_gid *gid)
{
	struct irdma_mcg *g;

	lockdep_assert_held(&rf->hmc.mcg_lock);
	list_for_each_entry(g, &rf->hmc.mcgs, list)
		if (!memcmp(&g->mgid, gid, sizeof(*gid)))
			return g;
	return NULL;
}

/* Rewrites the MG context buffer from g->qpn. */
static void irdma_mcg_fill_ctx(struct irdma_mcg *g)
{
	u32 i;

	for (i = 0; i < E810_MG_MAX_QPS; i++)
		irdma_set64(&g->ctx, i * 8, i < g->nqps ?
			    E810_MG_CTX_VALIDENT |
			    FIELD_PREP(E810_MG_CTX_QPID, g->qpn[i]) : 0);
}

/* CREATE / MODIFY / DESTROY_MCAST_GRP for @g. */
static int irdma_mcg_cqp(struct irdma_pci_f *rf, struct irdma_mcg *g, u8 op)
{
	const __be32 *w = (const __be32 *)g->mgid.raw;
	bool ipv4 = ipv6_addr_v4mapped((const struct in6_addr *)g->mgid.raw);
	u16 vlan = rdma_vlan_dev_vlan_id(rf->netdev);
	u8 mac[ETH_ALEN];
	u64 q[8] = { };
	u64 hdr;

	hdr = FIELD_PREP(E810_CQPSQ_MG_MGIDX, g->idx);
	if (ipv4) {
		ip_eth_mc_map(w[3], mac);
		q[E810_QW(E810_CQPSQ_MG_DIP23_OFF)] =
			FIELD_PREP(E810_CQPSQ_AH_IP_LO, ntohl(w[3]));
		hdr |= E810_CQPSQ_MG_IPV4VALID;
	} else {
		ipv6_eth_mc_map((const struct in6_addr *)g->mgid.raw, mac);
		q[E810_QW(E810_CQPSQ_MG_DIP01_OFF)] =
			FIELD_PREP(E810_CQPSQ_AH_IP_HI, ntohl(w[0])) |
			FIELD_PREP(E810_CQPSQ_AH_IP_LO, ntohl(w[1]));
		q[E810_QW(E810_CQPSQ_MG_DIP23_OFF)] =
			FIELD_PREP(E810_CQPSQ_AH_IP_HI, ntohl(w[2])) |
			FIELD_PREP(E810_CQPSQ_AH_IP_LO, ntohl(w[3]));
	}
	q[E810_QW(E810_CQPSQ_MG_MAC_OFF)] =
		FIELD_PREP(E810_CQPSQ_MG_MAC, ether_addr_to_u64(mac));
	q[E810_QW(E810_CQPSQ_MG_FCN_OFF)] =
		FIELD_PREP(E810_CQPSQ_MG_HMC_FCN_ID, rf->pf_id);
	/*
	 * QS handle 0: the Tx queue set of the QPs' priority, the only one
	 * the PF uses until priorities get their own queue sets.
	 */
	if (vlan < VLAN_N_VID) {
		q[E810_QW(E810_CQPSQ_MG_VLAN_OFF)] =
			FIELD_PREP(E810_CQPSQ_MG_VLANID, vlan);
		hdr |= E810_CQPSQ_MG_VLANVALID;
	}
	q[E810_QW(E810_CQPSQ_MG_CTX_OFF)] = g->ctx.pa;
	/* The context buffer is written before the op that reads it. */
	dma_wmb();
	return irdma_cqp_exec(rf, op, hdr, q, NULL);
}

/* A new, empty group for @gid with an MG index and a context buffer. */
static struct irdma_mcg *irdma_mcg_alloc(struct irdma_pci_f *rf,
					 const union ib_gid *gid)
{
	struct irdma_mcg *g;
	int idx;

	g = kzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return ERR_PTR(-ENOMEM);
	idx = irdma_hmc_id_alloc(rf, E810_HMC_FSIMC, 0);
	if (idx < 0) {
		kfree(g);
		return ERR_PTR(idx == -ENOSPC ? -ENOMEM : idx);
	}
	g->idx = idx;
	if (irdma_dma_alloc(rf, &g->ctx, E810_HMC_PD_SIZE, GFP_KERNEL)) {
		irdma_hmc_id_free(rf, E810_HMC_FSIMC, g->idx);
		kfree(g);
		return ERR_PTR(-ENOMEM);
	}
	g->mgid = *gid;
	return g;
}

static void irdma_mcg_free(struct irdma_pci_f *rf, struct irdma_mcg *g)
{
	irdma_dma_free(rf, &g->ctx);
	irdma_hmc_id_free(rf, E810_HMC_FSIMC, g->idx);
	kfree(g);
}

/**
 * irdma_attach_mcast() - add a UD QP to the multicast group @gid
 * @ibqp: the QP (ib_core checked it is UD and @gid is multicast)
 * @gid: the group
 * @lid: unused on RoCE
 *
 * Attaching a QP that is already in the group succeeds without a change.
 *
 * Context: Process context, sleeps.
 * Return: 0, -ENOMEM when the group is full (E810_MG_MAX_QPS) or no group
 * index is left, or the CQP op's error.
 */
int irdma_attach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	struct irdma_pci_f *rf = to_iwdev(ibqp->device)->rf;
	struct irdma_mcg *g;
	bool created = false;
	int err = 0;
	u32 i;

	mutex_lock(&rf->hmc.mcg_lock);
	g = irdma_mcg_find(rf, gid);
	if (!g) {
		g = irdma_mcg_alloc(rf, gid);
		if (IS_ERR(g)) {
			err = PTR_ERR(g);
			goto out;
		}
		created = true;
	}
	for (i = 0; i < g->nqps; i++)
		if (g->qpn[i] == ibqp->qp_num)
			goto out;
	if (g->nqps == E810_MG_MAX_QPS) {
		err = -ENOMEM;
		goto out;
	}
	g->qpn[g->nqps++] = ibqp->qp_num;
	irdma_mcg_fill_ctx(g);
	err = irdma_mcg_cqp(rf, g, created ? E810_CQP_OP_CREATE_MCAST_GRP :
					     E810_CQP_OP_MODIFY_MCAST_GRP);
	if (err) {
		g->nqps--;
		irdma_mcg_fill_ctx(g);
		if (created)
			irdma_mcg_free(rf, g);
		goto out;
	}
	if (created)
		list_add_tail(&g->list, &rf->hmc.mcgs);
	ibdev_dbg(ibqp->device, "MCAST: QP %u joined group %u (%pI6, %u QPs)\n",
		  ibqp->qp_num, g->idx, gid->raw, g->nqps);
out:
	mutex_unlock(&rf->hmc.mcg_lock);
	return err;
}

/**
 * irdma_detach_mcast() - remove a UD QP from the multicast group @gid
 * @ibqp: the QP
 * @gid: the group
 * @lid: unused on RoCE
 *
 * The last QP out destroys the group.
 *
 * Context: Process context, sleeps.
 * Return: 0, -EINVAL if the QP is not in the group, or the CQP op's error.
 */
int irdma_detach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	struct irdma_pci_f *rf = to_iwdev(ibqp->device)->rf;
	struct irdma_mcg *g;
	int err = -EINVAL;
	u32 i;

	mutex_lock(&rf->hmc.mcg_lock);
	g = irdma_mcg_find(rf, gid);
	if (!g)
		goto out;
	for (i = 0; i < g->nqps && g->qpn[i] != ibqp->qp_num; i++)
		;
	if (i == g->nqps)
		goto out;
	g->qpn[i] = g->qpn[--g->nqps];
	irdma_mcg_fill_ctx(g);
	if (g->nqps) {
		err = irdma_mcg_cqp(rf, g, E810_CQP_OP_MODIFY_MCAST_GRP);
		goto out;
	}
	/* Gone from the table either way: a failed DESTROY means a reset. */
	err = irdma_mcg_cqp(rf, g, E810_CQP_OP_DESTROY_MCAST_GRP);
	if (err)
		ibdev_warn_ratelimited(ibqp->device,
				       "MCAST: group %u not destroyed: %d\n",
				       g->idx, err);
	list_del(&g->list);
	irdma_mcg_free(rf, g);
	err = 0;
out:
	mutex_unlock(&rf->hmc.mcg_lock);
	return err;
}

/**
 * irdma_mcast_fini() - free groups nobody detached (the HMC goes away)
 * @rf: per-function state
 *
 * Context: Process context.
 */
void irdma_mcast_fini(struct irdma_pci_f *rf)
{
	struct irdma_mcg *g, *tmp;

	list_for_each_entry_safe(g, tmp, &rf->hmc.mcgs, list) {
		list_del(&g->list);
		irdma_mcg_free(rf, g);
	}
}
