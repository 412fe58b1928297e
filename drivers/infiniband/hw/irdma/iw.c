// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: the iWARP device (docs/irdma.md "iWARP mode"). What iw_cm sees of
 * us: an RNIC port (RDMA_CORE_PORT_IWARP, one GID: the MAC, as upstream
 * irdma_query_gid()), listeners, and connections (cm.c: set up to the
 * MPA exchange, not offloaded yet).
 *
 * The engine learns what is ours from two tables, kept here:
 *  - APBVT (MANAGE_APBVT): the local TCP ports the engine owns. One entry
 *    per port however many listeners and connections use it, refcounted
 *    (upstream irdma_add_apbvt()/irdma_del_apbvt());
 *  - quad hash (MANAGE_QUAD_HASH_TABLE_ENTRY): a listen entry (TCP_SYN:
 *    local address, port, VLAN) per address a listener listens on, a
 *    connection entry (TCP_ESTABLISHED: the 4-tuple) per connection being
 *    set up, each steering its segments to the ILQ.
 * A listener on the wildcard address gets a listen entry for each address
 * its netdev has (upstream irdma_add_mqh_4/6()), following later changes
 * (upstream irdma_if_notify()).
 * Connection state is one e810cm_conn per node, moved only by
 * e810cm_step() (lib/irdma-cm/).
 */

#include <linux/etherdevice.h>
#include <linux/inetdevice.h>
#include <linux/rculist.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <net/addrconf.h>
#include <net/if_inet6.h>
#include <rdma/iw_cm.h>

#include <hw/e810_cqp.h>

#include "cm.h"
#include "iw.h"
#include "qp.h"

/* Most addresses a wildcard listener takes (upstream: no limit). */
#define IRDMA_LISTEN_MAX_ADDRS	16

static u64 irdma_qh_ip_qword(u32 hi, u32 lo)
{
	return FIELD_PREP(E810_QPC_IP_HI, hi) | FIELD_PREP(E810_QPC_IP_LO, lo);
}

/* MANAGE_QUAD_HASH_TABLE_ENTRY (upstream irdma_sc_manage_qhash_table_entry()). */
int irdma_qhash_op(struct irdma_pci_f *rf, const struct irdma_qhash *e,
			  u8 manage)
{
	u64 q[8] = { };
	u64 hdr;

	q[E810_QW(E810_CQPSQ_QHASH_MAC_OFF)] =
		ether_addr_to_u64(rf->netdev->dev_addr);
	q[E810_QW(E810_CQPSQ_QHASH_PORTS_OFF)] =
		FIELD_PREP(E810_CQPSQ_QHASH_QPN, IRDMA_ILQ_QP_ID) |
		FIELD_PREP(E810_CQPSQ_QHASH_DEST_PORT, e->lport) |
		(e->est ? FIELD_PREP(E810_CQPSQ_QHASH_SRC_PORT, e->rport) : 0);
	q[E810_QW(E810_CQPSQ_QHASH_QS_OFF)] =
		FIELD_PREP(E810_CQPSQ_QHASH_QS_HANDLE, rf->ilq->qs_handle);
	if (e->vlan != 0xffff)
		q[E810_QW(E810_CQPSQ_QHASH_QS_OFF)] |=
			FIELD_PREP(E810_CQPSQ_QHASH_VLANID, e->vlan);
	if (e->ipv4) {
		q[E810_QW(E810_CQPSQ_QHASH_LIP23_OFF)] = e->lip[0];
		if (e->est)
			q[E810_QW(E810_CQPSQ_QHASH_RIP23_OFF)] = e->rip[0];
	} else {
		q[E810_QW(E810_CQPSQ_QHASH_LIP01_OFF)] =
			irdma_qh_ip_qword(e->lip[0], e->lip[1]);
		q[E810_QW(E810_CQPSQ_QHASH_LIP23_OFF)] =
			irdma_qh_ip_qword(e->lip[2], e->lip[3]);
		if (e->est) {
			q[E810_QW(E810_CQPSQ_QHASH_RIP01_OFF)] =
				irdma_qh_ip_qword(e->rip[0], e->rip[1]);
			q[E810_QW(E810_CQPSQ_QHASH_RIP23_OFF)] =
				irdma_qh_ip_qword(e->rip[2], e->rip[3]);
		}
	}
	hdr = FIELD_PREP(E810_CQPSQ_QHASH_MANAGE, manage) |
	      FIELD_PREP(E810_CQPSQ_QHASH_ENTRYTYPE,
			 e->est ? IRDMA_QHASH_TCP_EST : IRDMA_QHASH_TCP_SYN) |
	      (e->ipv4 ? E810_CQPSQ_QHASH_IPV4VALID : 0) |
	      (e->vlan != 0xffff ? E810_CQPSQ_QHASH_VLANVALID : 0);
	return irdma_cqp_exec(rf, E810_CQP_OP_MANAGE_QUAD_HASH_TABLE_ENTRY,
			      hdr, q, NULL);
}

/* MANAGE_APBVT (upstream irdma_sc_manage_apbvt_entry()). */
static int irdma_apbvt_op(struct irdma_pci_f *rf, u16 port, bool add)
{
	u64 q[8] = { };

	q[E810_QW(E810_CQPSQ_MAPT_PORT_OFF)] =
		FIELD_PREP(E810_CQPSQ_MAPT_PORT, port);
	return irdma_cqp_exec(rf, E810_CQP_OP_MANAGE_APBVT,
			      add ? E810_CQPSQ_MAPT_ADDPORT : 0, q, NULL);
}

/**
 * irdma_apbvt_get() - the engine owns local TCP port @port (one more user)
 * @rf: per-function state
 * @port: the port
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
int irdma_apbvt_get(struct irdma_pci_f *rf, u16 port)
{
	struct irdma_iw *iw = &rf->iw;
	unsigned long refs;
	void *old;
	int err = 0;

	mutex_lock(&iw->apbvt_lock);
	old = xa_load(&iw->apbvt, port);
	refs = old ? xa_to_value(old) : 0;
	if (!refs)
		err = irdma_apbvt_op(rf, port, true);
	if (!err)
		err = xa_err(xa_store(&iw->apbvt, port, xa_mk_value(refs + 1),
				      GFP_KERNEL));
	if (err && !refs)
		irdma_apbvt_op(rf, port, false);
	mutex_unlock(&iw->apbvt_lock);
	return err;
}

/**
 * irdma_apbvt_put() - undo irdma_apbvt_get()
 * @rf: per-function state
 * @port: the port
 *
 * The last user deletes the entry.
 *
 * Context: Process context, sleeps.
 */
void irdma_apbvt_put(struct irdma_pci_f *rf, u16 port)
{
	struct irdma_iw *iw = &rf->iw;
	unsigned long refs;
	void *old;

	mutex_lock(&iw->apbvt_lock);
	old = xa_load(&iw->apbvt, port);
	refs = old ? xa_to_value(old) : 0;
	if (WARN_ON_ONCE(!refs)) {
		mutex_unlock(&iw->apbvt_lock);
		return;
	}
	if (refs == 1) {
		xa_erase(&iw->apbvt, port);
		if (!rf->resetting)
			irdma_apbvt_op(rf, port, false);
	} else {
		xa_store(&iw->apbvt, port, xa_mk_value(refs - 1), GFP_KERNEL);
	}
	mutex_unlock(&iw->apbvt_lock);
}

/* ---- listeners ------------------------------------------------------------ */

/* An address of @sa as quad hash words; false for another family. */
bool irdma_sa_words(const struct sockaddr_storage *sa, bool *ipv4, u32 ip[4],
		    u16 *port)
{
	const struct sockaddr_in *s4 = (const struct sockaddr_in *)sa;
	const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)sa;
	unsigned int i;

	memset(ip, 0, 4 * sizeof(u32));
	switch (sa->ss_family) {
	case AF_INET:
		*ipv4 = true;
		ip[0] = ntohl(s4->sin_addr.s_addr);
		*port = ntohs(s4->sin_port);
		return true;
	case AF_INET6:
		*ipv4 = false;
		for (i = 0; i < 4; i++)
			ip[i] = ntohl(s6->sin6_addr.s6_addr32[i]);
		*port = ntohs(s6->sin6_port);
		return true;
	default:
		return false;
	}
}

/*
 * The addresses a wildcard listener of family @ipv4 takes: the netdev's
 * own (upstream also walks its VLAN devices: not done here). Returns how
 * many went into @qh (at most IRDMA_LISTEN_MAX_ADDRS).
 */
static u32 irdma_listen_addrs(struct irdma_pci_f *rf, bool ipv4,
			      struct irdma_qhash *qh)
{
	struct net_device *nd = rf->netdev;
	u32 n = 0;

	if (ipv4) {
		const struct in_ifaddr *ifa;
		struct in_device *idev;

		rcu_read_lock();
		idev = __in_dev_get_rcu(nd);
		if (idev) {
			in_dev_for_each_ifa_rcu(ifa, idev) {
				if (n == IRDMA_LISTEN_MAX_ADDRS)
					break;
				qh[n].ipv4 = true;
				qh[n].lip[0] = ntohl(ifa->ifa_address);
				n++;
			}
		}
		rcu_read_unlock();
	} else {
		const struct inet6_ifaddr *ifp;
		struct inet6_dev *idev6;
		unsigned int i;

		idev6 = in6_dev_get(nd);
		if (!idev6)
			return 0;
		read_lock_bh(&idev6->lock);
		list_for_each_entry(ifp, &idev6->addr_list, if_list) {
			if (n == IRDMA_LISTEN_MAX_ADDRS)
				break;
			qh[n].ipv4 = false;
			for (i = 0; i < 4; i++)
				qh[n].lip[i] = ntohl(ifp->addr.s6_addr32[i]);
			n++;
		}
		read_unlock_bh(&idev6->lock);
		in6_dev_put(idev6);
	}
	return n;
}

static bool irdma_ip_any(const u32 ip[4])
{
	return !(ip[0] | ip[1] | ip[2] | ip[3]);
}

static void irdma_listener_unhash(struct irdma_pci_f *rf,
				  struct irdma_listener *l, u32 n)
{
	while (n--)
		if (!rf->resetting)
			irdma_qhash_op(rf, &l->qh[n], IRDMA_QHASH_DEL);
}

static void irdma_listener_resync(struct irdma_pci_f *rf,
				  struct irdma_listener *l,
				  struct irdma_qhash *now, u32 n);

/*
 * A listener iw_cm destroyed while connections it took were alive, on
 * port @port of family @ipv4: a listen there adopts it, its entries
 * brought to the new listen's addresses (upstream irdma_make_listen_node()
 * reuses a PASSIVE listener irdma_find_listener() matches).
 */
static struct irdma_listener *
irdma_listener_lingering(struct irdma_pci_f *rf, bool ipv4, u16 port)
{
	struct irdma_listener *l;

	lockdep_assert_held(&rf->iw.lock);
	list_for_each_entry(l, &rf->iw.listeners, node)
		if (l->gone && l->port == port && l->ipv4 == ipv4)
			return l;
	return NULL;
}

/* @l listens for @cm_id from now on. */
static int irdma_listener_start(struct irdma_listener *l,
				struct iw_cm_id *cm_id, int backlog)
{
	struct e810cm_out out;
	int err;

	e810cm_conn_init(&l->sm, 2);
	err = e810cm_step(&l->sm, E810CM_EV_USER_LISTEN, &out);
	if (err)
		return err;
	l->cm_id = cm_id;
	l->backlog = backlog;
	cm_id->add_ref(cm_id);
	cm_id->provider_data = l;
	return 0;
}

/*
 * Out of the list and the tables, then freed. Every reader of the list
 * holds rf->iw.lock (irdma_cm_listener() on the ILQ's receive work
 * included), so nothing can still see @l once it is unlinked.
 */
static void irdma_listener_free(struct irdma_pci_f *rf,
				struct irdma_listener *l)
{
	lockdep_assert_held(&rf->iw.lock);
	list_del(&l->node);
	irdma_listener_unhash(rf, l, l->nqh);
	irdma_apbvt_put(rf, l->port);
	kfree(l);
}

/**
 * irdma_create_listen() - iw_cm create_listen
 * @cm_id: the listening id (its mapped local address)
 * @backlog: pending connection requests allowed
 *
 * The port into the APBVT, then a listen entry per address (the netdev's
 * addresses of the family for the wildcard address).
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
static int irdma_create_listen(struct iw_cm_id *cm_id, int backlog)
{
	struct irdma_pci_f *rf = to_iwdev(cm_id->device)->rf;
	struct irdma_listener *l, *old;
	struct irdma_qhash *qh;
	struct e810cm_out out;
	u32 ip[4], n, i;
	bool ipv4;
	u16 port;
	int err;

	if (!irdma_sa_words(&cm_id->m_local_addr, &ipv4, ip, &port) || !port)
		return -EINVAL;
	l = kzalloc(struct_size(l, qh, IRDMA_LISTEN_MAX_ADDRS), GFP_KERNEL);
	if (!l)
		return -ENOMEM;
	qh = l->qh;
	l->ipv4 = ipv4;
	l->wildcard = irdma_ip_any(ip);
	if (l->wildcard) {
		n = irdma_listen_addrs(rf, ipv4, qh);
	} else {
		qh[0].ipv4 = ipv4;
		memcpy(qh[0].lip, ip, sizeof(ip));
		n = 1;
	}
	for (i = 0; i < n; i++) {
		qh[i].lport = port;
		qh[i].vlan = 0xffff;
	}
	mutex_lock(&rf->iw.lock);
	old = irdma_listener_lingering(rf, ipv4, port);
	if (old) {
		/* Its port is in the APBVT, its entries need no CQP op. */
		old->wildcard = l->wildcard;
		irdma_listener_resync(rf, old, qh, n);
		err = irdma_listener_start(old, cm_id, backlog);
		if (!err) {
			old->gone = false;
			rf->iw.listens++;
		}
		mutex_unlock(&rf->iw.lock);
		kfree(l);
		return err;
	}
	mutex_unlock(&rf->iw.lock);
	l->cm_id = cm_id;
	l->port = port;
	l->backlog = backlog;
	e810cm_conn_init(&l->sm, 2);
	err = e810cm_step(&l->sm, E810CM_EV_USER_LISTEN, &out);
	if (err)
		goto err_free;

	err = irdma_apbvt_get(rf, port);
	if (err)
		goto err_free;
	mutex_lock(&rf->iw.lock);
	for (i = 0; i < n; i++) {
		err = irdma_qhash_op(rf, &qh[i], IRDMA_QHASH_ADD);
		if (err) {
			irdma_listener_unhash(rf, l, i);
			mutex_unlock(&rf->iw.lock);
			goto err_apbvt;
		}
	}
	l->nqh = n;
	cm_id->add_ref(cm_id);
	cm_id->provider_data = l;
	list_add_tail(&l->node, &rf->iw.listeners);
	rf->iw.listens++;
	mutex_unlock(&rf->iw.lock);
	ibdev_dbg(cm_id->device, "CM: listening on port %u, %u addresses\n",
		  port, n);
	return 0;

err_apbvt:
	irdma_apbvt_put(rf, port);
err_free:
	kfree(l);
	return err;
}

/**
 * irdma_destroy_listen() - iw_cm destroy_listen
 * @cm_id: an id irdma_create_listen() succeeded on
 *
 * Context: Process context, sleeps.
 * Return: 0.
 */
static int irdma_destroy_listen(struct iw_cm_id *cm_id)
{
	struct irdma_pci_f *rf = to_iwdev(cm_id->device)->rf;
	struct irdma_listener *l = cm_id->provider_data;
	struct e810cm_out out;

	if (!l)
		return 0;
	mutex_lock(&rf->iw.lock);
	irdma_cm_listener_gone(rf, l);
	e810cm_step(&l->sm, E810CM_EV_USER_CLOSE, &out);
	l->cm_id = NULL;
	cm_id->provider_data = NULL;
	/*
	 * Connections it took hold its entries (upstream
	 * irdma_cm_del_listen(): the listener goes PASSIVE, its quad hash
	 * entries and port go with its last reference): a SYN to it until
	 * then is dropped by us, not reset by the host stack, and the peer
	 * tries again (perftest -R's server listens on the port again).
	 */
	if (l->children)
		l->gone = true;
	else
		irdma_listener_free(rf, l);
	mutex_unlock(&rf->iw.lock);
	cm_id->rem_ref(cm_id);
	return 0;
}

/**
 * irdma_listener_child_gone() - a connection @l's SYN made is closed
 * @rf: per-function state
 * @l: its listener
 *
 * Context: Process context, rf->iw.lock held.
 */
void irdma_listener_child_gone(struct irdma_pci_f *rf,
			       struct irdma_listener *l)
{
	lockdep_assert_held(&rf->iw.lock);
	if (!WARN_ON(!l->children) && --l->children)
		return;
	if (l->gone)
		irdma_listener_free(rf, l);
}

static bool irdma_qh_in(const struct irdma_qhash *e,
			const struct irdma_qhash *set, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (set[i].ipv4 == e->ipv4 &&
		    !memcmp(set[i].lip, e->lip, sizeof(e->lip)))
			return true;
	return false;
}

/* Brings one listener's entries in line with @now (@n addresses). */
static void irdma_listener_resync(struct irdma_pci_f *rf,
				  struct irdma_listener *l,
				  struct irdma_qhash *now, u32 n)
{
	u32 i, j;

	for (i = 0; i < n; i++) {
		now[i].lport = l->port;
		now[i].vlan = 0xffff;
	}
	/* Gone: delete, then drop from the list the receive path reads. */
	for (i = 0; i < l->nqh;) {
		if (irdma_qh_in(&l->qh[i], now, n)) {
			i++;
			continue;
		}
		irdma_qhash_op(rf, &l->qh[i], IRDMA_QHASH_DEL);
		spin_lock_bh(&rf->iw.qh_lock);
		l->qh[i] = l->qh[--l->nqh];
		spin_unlock_bh(&rf->iw.qh_lock);
	}
	/* New: add, then list. */
	for (j = 0; j < n && l->nqh < IRDMA_LISTEN_MAX_ADDRS; j++) {
		if (irdma_qh_in(&now[j], l->qh, l->nqh) ||
		    irdma_qhash_op(rf, &now[j], IRDMA_QHASH_ADD))
			continue;
		spin_lock_bh(&rf->iw.qh_lock);
		l->qh[l->nqh++] = now[j];
		spin_unlock_bh(&rf->iw.qh_lock);
	}
}

/*
 * The netdev's addresses changed: wildcard listeners follow them, as
 * upstream irdma_if_notify() adds and deletes their listen entries.
 */
static void irdma_iw_addr_work(struct work_struct *work)
{
	struct irdma_pci_f *rf = container_of(work, struct irdma_pci_f,
					      iw.addr_work);
	struct irdma_listener *l;
	struct irdma_qhash *now;
	u32 n;

	now = kcalloc(IRDMA_LISTEN_MAX_ADDRS, sizeof(*now), GFP_KERNEL);
	if (!now)
		return;
	mutex_lock(&rf->iw.lock);
	list_for_each_entry(l, &rf->iw.listeners, node) {
		if (!l->wildcard || rf->resetting)
			continue;
		memset(now, 0, IRDMA_LISTEN_MAX_ADDRS * sizeof(*now));
		n = irdma_listen_addrs(rf, l->ipv4, now);
		irdma_listener_resync(rf, l, now, n);
	}
	mutex_unlock(&rf->iw.lock);
	kfree(now);
}

/**
 * irdma_iw_addrs_changed() - an address of the netdev came or went
 * @rf: per-function state in iWARP mode
 *
 * Context: Any context.
 */
void irdma_iw_addrs_changed(struct irdma_pci_f *rf)
{
	schedule_work(&rf->iw.addr_work);
}

/* ---- connections (cm.c) -------------------------------------------------- */

static struct ib_qp *irdma_iw_get_qp(struct ib_device *ibdev, int qpn)
{
	struct irdma_pci_f *rf = to_iwdev(ibdev)->rf;
	struct irdma_qp *qp;

	xa_lock_bh(&rf->qps);
	qp = xa_load(&rf->qps, qpn);
	xa_unlock_bh(&rf->qps);
	return qp ? &qp->ibqp : NULL;
}

/*
 * iw_cm's references on a QP, from accept/connect to CLOSE: a destroy
 * waits for them (upstream irdma_qp_add_ref()/irdma_qp_rem_ref()).
 */
static void irdma_iw_add_ref(struct ib_qp *ibqp)
{
	irdma_iw_qp_add_ref(to_irdma_qp(ibqp));
}

static void irdma_iw_rem_ref(struct ib_qp *ibqp)
{
	irdma_iw_qp_rem_ref(to_irdma_qp(ibqp));
}

/**
 * irdma_iw_rx() - a segment the ILQ received
 * @rf: per-function state
 * @rx: the segment
 *
 * Handed to the connection manager (cm.c), which checks it first
 * (lib/irdma-cm/tcp.c: it came from the wire) and finds its connection or
 * listener; upstream drops what matches neither and answers no stray
 * segment (irdma_receive_ilq()).
 *
 * Context: Softirq (CEQ 0's tasklet).
 */
void irdma_iw_rx(struct irdma_pci_f *rf, const struct irdma_ilq_rx *rx)
{
	irdma_cm_rx(rf, rx);
}

/* ---- the device ----------------------------------------------------------- */

static int irdma_iw_query_gid(struct ib_device *ibdev, u32 port, int index,
			      union ib_gid *gid)
{
	struct irdma_pci_f *rf = to_iwdev(ibdev)->rf;

	if (index)
		return -EINVAL;
	memset(gid, 0, sizeof(*gid));
	ether_addr_copy(gid->raw, rf->netdev->dev_addr);
	return 0;
}

static int irdma_iw_port_immutable(struct ib_device *ibdev, u32 port,
				   struct ib_port_immutable *immutable)
{
	struct ib_port_attr attr;
	int err;

	immutable->core_cap_flags = RDMA_CORE_PORT_IWARP;
	err = ib_query_port(ibdev, port, &attr);
	if (err)
		return err;
	immutable->gid_tbl_len = attr.gid_tbl_len;
	return 0;
}

static const struct ib_device_ops irdma_iw_ops = {
	.get_port_immutable = irdma_iw_port_immutable,
	.query_gid = irdma_iw_query_gid,
	.iw_create_listen = irdma_create_listen,
	.iw_destroy_listen = irdma_destroy_listen,
	.iw_connect = irdma_cm_connect,
	.iw_accept = irdma_cm_accept,
	.iw_reject = irdma_cm_reject,
	.iw_get_qp = irdma_iw_get_qp,
	.iw_add_ref = irdma_iw_add_ref,
	.iw_rem_ref = irdma_iw_rem_ref,
};

/**
 * irdma_iw_set_device_ops() - make @ibdev an iWARP RNIC
 * @ibdev: the device being set up
 */
void irdma_iw_set_device_ops(struct ib_device *ibdev)
{
	ib_set_device_ops(ibdev, &irdma_iw_ops);
}

/**
 * irdma_iw_init() - empty tables, no connections
 * @rf: per-function state
 *
 * Return: 0 or -ENOMEM (irdma_iw_fini() undoes what was done).
 */
int irdma_iw_init(struct irdma_pci_f *rf)
{
	struct irdma_iw *iw = &rf->iw;

	mutex_init(&iw->lock);
	mutex_init(&iw->apbvt_lock);
	xa_init(&iw->apbvt);
	INIT_LIST_HEAD(&iw->listeners);
	atomic64_set(&iw->rx_dropped, 0);
	atomic64_set(&iw->rx_malformed, 0);
	atomic64_set(&iw->rx_listen_syns, 0);
	atomic64_set(&iw->terms_sent, 0);
	atomic64_set(&iw->terms_rcvd, 0);
	atomic64_set(&iw->terms_timeouts, 0);
	spin_lock_init(&iw->qh_lock);
	INIT_WORK(&iw->addr_work, irdma_iw_addr_work);
	return irdma_cm_init(rf);
}

/**
 * irdma_iw_fini() - undo irdma_iw_init(); the ib_device is gone
 * @rf: per-function state
 *
 * iw_cm destroyed every listener before the device went; what is left is
 * a bug, reported and its table entries removed.
 */
void irdma_iw_fini(struct irdma_pci_f *rf)
{
	struct irdma_iw *iw = &rf->iw;
	unsigned long port;
	void *v;

	cancel_work_sync(&iw->addr_work);
	irdma_cm_fini(rf);
	WARN_ON(!list_empty(&iw->listeners));
	xa_for_each(&iw->apbvt, port, v) {
		dev_warn(irdma_rf_to_dev(rf), "APBVT port %lu still in use at teardown\n",
			 port);
		if (!rf->resetting)
			irdma_apbvt_op(rf, port, false);
	}
	xa_destroy(&iw->apbvt);
	mutex_destroy(&iw->apbvt_lock);
	mutex_destroy(&iw->lock);
}

/**
 * irdma_iw_show() - debugfs "iwarp"
 * @m: the seq_file
 * @rf: per-function state
 *
 * Return: 0.
 */
int irdma_iw_show(struct seq_file *m, struct irdma_pci_f *rf)
{
	struct irdma_iw *iw = &rf->iw;
	struct irdma_listener *l;
	unsigned long port;
	u32 listeners = 0;
	void *v;

	if (!rf->iwarp) {
		seq_puts(m, "mode roce\n");
		return 0;
	}
	seq_puts(m, "mode iwarp\n");
	irdma_ilq_show(m, rf);
	seq_printf(m, "rx_dropped %lld\nrx_malformed %lld\nrx_listen_syns %lld\n",
		   atomic64_read(&iw->rx_dropped),
		   atomic64_read(&iw->rx_malformed),
		   atomic64_read(&iw->rx_listen_syns));
	seq_printf(m, "terms_sent %lld\nterms_rcvd %lld\nterms_timeouts %lld\n",
		   atomic64_read(&iw->terms_sent),
		   atomic64_read(&iw->terms_rcvd),
		   atomic64_read(&iw->terms_timeouts));
	mutex_lock(&iw->lock);
	list_for_each_entry(l, &iw->listeners, node)
		listeners++;
	seq_printf(m, "listeners %u\nlistens %llu\n", listeners, iw->listens);
	list_for_each_entry(l, &iw->listeners, node)
		seq_printf(m, "listener port %u addrs %u state %s conns %u%s\n",
			   l->port, l->nqh, e810cm_state_name(l->sm.state),
			   l->children, l->gone ? " destroyed" : "");
	irdma_cm_show(m, rf);
	mutex_unlock(&iw->lock);
	mutex_lock(&iw->apbvt_lock);
	xa_for_each(&iw->apbvt, port, v)
		seq_printf(m, "apbvt port %lu refs %lu\n", port,
			   xa_to_value(v));
	mutex_unlock(&iw->apbvt_lock);
	return 0;
}
