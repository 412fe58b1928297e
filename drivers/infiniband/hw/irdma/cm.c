// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: iWARP connections before the offload (docs/irdma.md "iWARP
 * mode", "Connections"). One node per TCP 4-tuple holds the connection's
 * state machine (e810cm_conn), its sequence space (e810cm_tcb) and its
 * MPA frame, all from lib/irdma-cm/; this file does the I/O they ask for,
 * as upstream irdma's cm.c does:
 *  - segments go out through the ILQ with an address handle of the node
 *    (CREATE_ADDR_HANDLE with the ARP entry of the peer, upstream
 *    irdma_cm_create_ah()) and come in through it once the node's
 *    connection entry is in the quad hash (ADD TCP_ESTABLISHED before our
 *    SYN or SYN-ACK: upstream irdma_connect(), irdma_ilq_ah_cb());
 *  - the frame awaiting an ACK is sent again after 1 s, doubling to 12 s
 *    (upstream irdma_cm_timer_tick());
 *  - iw_cm learns of a connection request (CONNECT_REQUEST) once the
 *    MPA Request came, and of its connect's outcome (CONNECT_REPLY).
 *  - an accept, or an MPA Reply to our connect, hands the connection to
 *    the QP (upstream irdma_accept(), irdma_cm_event_connected()): the
 *    connection WQEs, the context's TCP group and RTS (qp.c); the QP's
 *    AE 0x050E then makes it ESTABLISHED (CONNECT_REPLY on the active
 *    side), its AEs 0x0501..0x0503 and iw_cm's SQD/ERROR close it
 *    (upstream irdma_cm_disconn_true()): DISCONNECT and CLOSE to iw_cm.
 *
 * Everything runs in process context under rf->iw.lock: received segments
 * are copied by the CEQ 0 tasklet and handled by a work item, the
 * retransmissions by a delayed one, so the CQP may be waited for.
 */

#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/random.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/arp.h>
#include <net/ipv6.h>
#include <net/ndisc.h>
#if IS_MODULE(CONFIG_IPV6)
#include <net/ipv6_stubs.h>
#endif
#include <net/ndisc.h>
#include <net/neighbour.h>
#include <rdma/iw_cm.h>

#include <hw/e810_cqp.h>
#include <hw/e810_hmc.h>

#include "cm.h"
#include "iw.h"
#include "qp.h"

/* Received segments waiting for the work item, at most. */
#define IRDMA_CM_RXQ_MAX	256
/* TIME_WAIT and the close timer (upstream: HZ / 10). */
#define IRDMA_CM_CLOSE_MS	100
/* AH hop limit of the CM's segments (upstream irdma_cm_create_ah()). */
#define IRDMA_CM_TTL		64
/* An accept waits this long for AE 0x050E (upstream irdma_accept()). */
#define IRDMA_CM_EST_MS		12000

/**
 * struct irdma_cm_stats - connection counters (debugfs "iwarp")
 * @nodes: nodes now
 * @nodes_created: nodes made (connect or a listener's SYN)
 * @backlog_drops: SYNs for a listener whose backlog was full
 * @syn_sent: SYNs sent (first transmissions)
 * @synack_sent: SYN-ACKs sent (first transmissions)
 * @retransmits: frames sent again after their timer
 * @timeouts: connections given up after the last retransmission
 * @rst_sent: RSTs sent
 * @rst_rcvd: RSTs taken
 * @established_tcp: handshakes completed (SYN-ACK taken, or ACK of ours)
 * @mpa_req_sent: MPA Requests sent
 * @mpa_req_rcvd: valid MPA Requests received
 * @mpa_rep_rcvd: valid MPA Replies (not Rejects) received
 * @mpa_rej_sent: MPA Rejects sent
 * @mpa_rej_rcvd: MPA Rejects received
 * @mpa_bad: MPA frames refused (malformed, wrong key, failed negotiation)
 * @connect_requests: CONNECT_REQUEST events posted
 * @connect_replies: CONNECT_REPLY events posted
 * @connect_errors: of those, with an error
 * @offloads: connections handed to a QP (accepts and MPA Replies)
 * @offload_errors: hand-offs that failed (the connection is reset)
 * @established: AEs 0x050E taken (ESTABLISHED or CONNECT_REPLY 0 posted)
 * @disconnects: DISCONNECT events posted
 * @closes: CLOSE events posted
 * @segs_dropped: segments of a node its sequence space refused
 * @tx_errors: segments the ILQ could not take
 * @timer_runs: runs of the timer
 */
struct irdma_cm_stats {
	u64 nodes;
	u64 nodes_created;
	u64 backlog_drops;
	u64 syn_sent;
	u64 synack_sent;
	u64 retransmits;
	u64 timeouts;
	u64 rst_sent;
	u64 rst_rcvd;
	u64 established_tcp;
	u64 mpa_req_sent;
	u64 mpa_req_rcvd;
	u64 mpa_rep_rcvd;
	u64 mpa_rej_sent;
	u64 mpa_rej_rcvd;
	u64 mpa_bad;
	u64 connect_requests;
	u64 connect_replies;
	u64 connect_errors;
	u64 offloads;
	u64 offload_errors;
	u64 established;
	u64 disconnects;
	u64 closes;
	u64 segs_dropped;
	u64 tx_errors;
	u64 timer_runs;
};

/**
 * struct irdma_cm - the connections of one function
 * @rf: the function
 * @nodes: struct irdma_cm_node (under rf->iw.lock)
 * @rxq_lock: guards @rxq and @rxq_len
 * @rxq: segments the ILQ received, for @rx_work
 * @rxq_len: entries in @rxq
 * @rxq_drops: segments dropped for a full @rxq
 * @stopping: no more work is queued
 * @qpevq: QP events (struct irdma_cm_qpev) for @rx_work, under @rxq_lock
 * @rx_work: handles @rxq and @qpevq
 * @timer: retransmissions and close timers
 * @timer_armed: @timer is queued for @timer_next (under rf->iw.lock)
 * @timer_next: jiffies @timer runs at
 * @stats: counters (under rf->iw.lock)
 */
struct irdma_cm {
	struct irdma_pci_f *rf;
	struct list_head nodes;
	spinlock_t rxq_lock;	/* rxq, rxq_len, stopping */
	struct list_head rxq;
	u32 rxq_len;
	u64 rxq_drops;
	struct list_head qpevq;
	bool stopping;
	struct work_struct rx_work;
	struct delayed_work timer;
	bool timer_armed;
	unsigned long timer_next;
	struct irdma_cm_stats stats;
};

/* An AE of a connection's QP, or IRDMA_CM_QPEV_*. */
struct irdma_cm_qpev {
	struct list_head list;
	u32 qp_id;
	u16 ev;
};

/* One received segment, copied out of the ILQ buffer. */
struct irdma_cm_rxseg {
	struct list_head list;
	u32 len;
	bool ipv4;
	bool smac_valid;
	u8 smac[ETH_ALEN];
	bool vlan_valid;
	u16 vlan;
	u8 buf[];
};

enum irdma_cm_timer_kind {
	IRDMA_CM_TIMER_NONE,
	IRDMA_CM_TIMER_RETX,	/* @retx awaits its ACK */
	IRDMA_CM_TIMER_CLOSE,	/* TIME_WAIT */
	IRDMA_CM_TIMER_EST,	/* active, offloaded: AE 0x050E awaited */
};

/**
 * struct irdma_cm_node - one connection before the offload
 * @list: entry in irdma_cm.nodes
 * @refs: the list's reference, and iw_cm's while it holds @provider
 * @sm: the state machine
 * @tcb: the sequence space
 * @qh: the 4-tuple, as the connection entry in the quad hash
 * @qh_added: the entry is in the quad hash
 * @active: we connected (else a listener's SYN made us)
 * @apbvt: holds the local port in the APBVT (active side)
 * @arp_idx: ARP cache entry of the peer, or a negative errno
 * @ah_id: the AH id, valid with @ah_valid
 * @ah_valid: the AH exists in the device
 * @rmac: the peer's MAC
 * @listener: passive: the listener, until iw_cm has the request
 * @parent: passive: the listener whose SYN made us, held until we close
 *	(irdma_listener_child_gone())
 * @cm_id: the id the connection reports to (a reference held): active
 *	from the connect, passive from the accept, until CONNECT_REPLY with
 *	an error or CLOSE
 * @replied: active: CONNECT_REPLY posted
 * @established: ESTABLISHED or CONNECT_REPLY 0 posted: DISCONNECT and
 *	CLOSE may follow
 * @closed: CLOSE posted
 * @qp: the QP iw_cm named in the connect or accept (iw_cm holds it);
 *	NULL once destroyed (irdma_cm_qp_gone())
 * @est: passive: the accept waits for AE 0x050E
 * @est_status: what the accept returns
 * @rep: passive: the MPA Reply the Request calls for
 * @provider: iw_cm's id holds the node (CONNECT_REQUEST to accept/reject)
 * @neg: IRD, ORD and RTR, asked and agreed
 * @req: active: the MPA Request sent (its private data in @pd)
 * @pd: the private data of our Request (active) or Reject (passive)
 * @pd_len: its length
 * @peer_pd: active: the private data of the peer's MPA Reply, kept for
 *	the CONNECT_REPLY at AE 0x050E (upstream irdma_cm_event_connected())
 * @peer_pd_len: its length
 * @mpa: the peer's MPA frame as it comes in
 * @mpa_tx: our MPA Request as built
 * @timer: what @deadline is for
 * @deadline: jiffies when the timer fires
 * @sent: transmissions of @retx
 * @acked: @retx is acknowledged (an MPA Request awaiting its Reply): the
 *	countdown goes on, the frame is not sent again
 * @retx_len: bytes in @retx
 * @retx_hlen: its TCP header length
 * @retx: the frame awaiting an ACK
 * @seg: scratch for a segment being built
 */
struct irdma_cm_node {
	struct list_head list;
	unsigned int refs;
	struct e810cm_conn sm;
	struct e810cm_tcb tcb;
	struct irdma_qhash qh;
	bool qh_added;
	bool active;
	bool apbvt;
	int arp_idx;
	u32 ah_id;
	bool ah_valid;
	u8 rmac[ETH_ALEN];
	struct irdma_listener *listener;
	struct irdma_listener *parent;
	struct iw_cm_id *cm_id;
	bool replied;
	bool established;
	bool closed;
	struct irdma_qp *qp;
	struct completion est;
	int est_status;
	struct e810cm_mpa rep;
	bool provider;
	struct e810cm_neg neg;
	struct e810cm_mpa req;
	u8 pd[E810CM_MPA_MAX_PD];
	u16 pd_len;
	u8 peer_pd[E810CM_MPA_MAX_PD];
	u16 peer_pd_len;
	struct e810cm_mpa_rx mpa;
	u8 mpa_tx[E810CM_MPA_MAX_FRAME];
	enum irdma_cm_timer_kind timer;
	unsigned long deadline;
	u32 sent;
	bool acked;
	u32 retx_len;
	u32 retx_hlen;
	u8 retx[IRDMA_ILQ_BUF_SIZE];
	u8 seg[IRDMA_ILQ_BUF_SIZE];
};

static struct irdma_cm *irdma_cm_of(struct irdma_pci_f *rf)
{
	return rf->iw.cm;
}

static struct ib_device *irdma_cm_ibdev(struct irdma_pci_f *rf)
{
	return rf->iwdev ? &rf->iwdev->ibdev : NULL;
}

/* ---- addresses --------------------------------------------------------- */

static void irdma_cm_sockaddr(struct sockaddr_storage *ss, bool ipv4,
			      const u32 ip[4], u16 port)
{
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;
	unsigned int i;

	memset(ss, 0, sizeof(*ss));
	if (ipv4) {
		s4->sin_family = AF_INET;
		s4->sin_addr.s_addr = htonl(ip[0]);
		s4->sin_port = htons(port);
		return;
	}
	s6->sin6_family = AF_INET6;
	for (i = 0; i < 4; i++)
		s6->sin6_addr.s6_addr32[i] = htonl(ip[i]);
	s6->sin6_port = htons(port);
}

/*
 * IPv6's neighbour table: nd_tbl where IPv6 is built in (it is exported;
 * Linux 7.x has no other way, its ipv6_stubs.h is gone), through
 * ipv6_stub where IPv6 is a module that may not be loaded.
 */
static struct neigh_table *irdma_cm_nd_tbl(void)
{
#if IS_BUILTIN(CONFIG_IPV6)
	return &nd_tbl;
#elif IS_MODULE(CONFIG_IPV6)
	return ipv6_stub ? ipv6_stub->nd_tbl : NULL;
#else
	return NULL;
#endif
}

/*
 * The peer's MAC from the kernel's neighbour table (a valid entry); ours
 * for a connection to our own address, which the neighbour table never
 * holds (upstream irdma_make_cm_node(): irdma_ipv4_is_lpb() or
 * irdma_ipv6_is_lpb(), the ARP cache entry irdma_inetaddr_event() made
 * for the local address; the AH loops back, irdma_cm_ah_create()).
 */
static int irdma_cm_neigh_mac(struct irdma_pci_f *rf,
			      const struct irdma_qhash *qh, u8 *mac)
{
	struct neighbour *neigh = NULL;
	struct in6_addr a6;
	__be32 a4;
	bool valid;
	int i;

	if (!memcmp(qh->lip, qh->rip, sizeof(qh->lip))) {
		ether_addr_copy(mac, rf->netdev->dev_addr);
		return 0;
	}
	if (qh->ipv4) {
		a4 = htonl(qh->rip[0]);
		neigh = neigh_lookup(&arp_tbl, &a4, rf->netdev);
	} else if (irdma_cm_nd_tbl()) {
		for (i = 0; i < 4; i++)
			a6.s6_addr32[i] = htonl(qh->rip[i]);
		neigh = neigh_lookup(irdma_cm_nd_tbl(), &a6, rf->netdev);
	}
	if (!neigh)
		return -EHOSTUNREACH;
	read_lock_bh(&neigh->lock);
	valid = neigh->nud_state & NUD_VALID;
	ether_addr_copy(mac, neigh->ha);
	read_unlock_bh(&neigh->lock);
	neigh_release(neigh);
	return valid && is_valid_ether_addr(mac) ? 0 : -EHOSTUNREACH;
}

/* ---- the node's AH, connection entry and port --------------------------- */

static void irdma_cm_put_ip(u64 *q, u32 off01, u32 off23, bool ipv4,
			    const u32 ip[4])
{
	if (ipv4) {
		q[E810_QW(off23)] = FIELD_PREP(E810_CQPSQ_AH_IP_LO, ip[0]);
		return;
	}
	q[E810_QW(off01)] = FIELD_PREP(E810_CQPSQ_AH_IP_HI, ip[0]) |
			    FIELD_PREP(E810_CQPSQ_AH_IP_LO, ip[1]);
	q[E810_QW(off23)] = FIELD_PREP(E810_CQPSQ_AH_IP_HI, ip[2]) |
			    FIELD_PREP(E810_CQPSQ_AH_IP_LO, ip[3]);
}

/*
 * The AH the node's segments go out with (upstream irdma_cm_create_ah()):
 * our MAC as source, the peer through its ARP entry, hop limit 64, to
 * ourselves by loopback.
 */
static int irdma_cm_ah_create(struct irdma_pci_f *rf, struct irdma_cm_node *n)
{
	const struct irdma_qhash *qh = &n->qh;
	u64 q[8] = { };
	u64 hdr;
	int id, err;

	n->arp_idx = irdma_arp_get(rf, qh->rip, qh->ipv4, n->rmac);
	if (n->arp_idx < 0)
		return n->arp_idx;
	/* GEN_1: no AHs; the ILQ frames the segments (irdma_cm_send()). */
	if (!irdma_has_ops(rf, E810_GEN_OP_AH)) {
		n->ah_valid = true;
		return 0;
	}
	id = irdma_hmc_id_alloc(rf, E810_HMC_FSIAV, 1);
	if (id < 0)
		return id == -ENOSPC ? -ENOMEM : id;
	q[E810_QW(E810_CQPSQ_AH_MAC_OFF)] =
		FIELD_PREP(E810_CQPSQ_AH_MAC,
			   ether_addr_to_u64(rf->netdev->dev_addr));
	hdr = FIELD_PREP(E810_CQPSQ_AH_AVIDX, id);
	if (qh->vlan != 0xffff) {
		q[E810_QW(E810_CQPSQ_AH_VLAN_OFF)] =
			FIELD_PREP(E810_CQPSQ_AH_VLANTAG, qh->vlan);
		hdr |= E810_CQPSQ_AH_INSERTVLANTAG;
	}
	q[E810_QW(E810_CQPSQ_AH_FLOW_OFF)] =
		FIELD_PREP(E810_CQPSQ_AH_HOPLIMIT, IRDMA_CM_TTL) |
		FIELD_PREP(E810_CQPSQ_AH_ARPINDEX, n->arp_idx);
	irdma_cm_put_ip(q, E810_CQPSQ_AH_DIP01_OFF, E810_CQPSQ_AH_DIP23_OFF,
			qh->ipv4, qh->rip);
	irdma_cm_put_ip(q, E810_CQPSQ_AH_SIP01_OFF, E810_CQPSQ_AH_SIP23_OFF,
			qh->ipv4, qh->lip);
	if (qh->ipv4)
		hdr |= E810_CQPSQ_AH_IPV4VALID;
	if (!memcmp(qh->lip, qh->rip, sizeof(qh->lip)))
		hdr |= E810_CQPSQ_AH_DOLOOPBACK;
	err = irdma_cqp_exec(rf, E810_CQP_OP_CREATE_ADDR_HANDLE, hdr, q, NULL);
	if (err) {
		irdma_hmc_id_free(rf, E810_HMC_FSIAV, id);
		return err;
	}
	n->ah_id = id;
	n->ah_valid = true;
	return 0;
}

/*
 * The AH, the ARP entry and the connection entry to the ILQ: what the
 * node needs before its first segment (our SYN or SYN-ACK).
 */
static int irdma_cm_node_setup(struct irdma_pci_f *rf, struct irdma_cm_node *n)
{
	int err;

	err = irdma_cm_ah_create(rf, n);
	if (err)
		return err;
	err = irdma_qhash_op(rf, &n->qh, IRDMA_QHASH_ADD);
	if (err)
		return err;
	n->qh_added = true;
	return 0;
}

/* The node's address handle, once its segments no longer need it. */
static void irdma_cm_ah_release(struct irdma_pci_f *rf,
				struct irdma_cm_node *n)
{
	u64 q[8] = { };

	/* GEN_1's node has none (irdma_cm_ah_create()). */
	if (!n->ah_valid || !irdma_has_ops(rf, E810_GEN_OP_AH)) {
		n->ah_valid = false;
		return;
	}
	if (!rf->resetting)
		irdma_cqp_exec(rf, E810_CQP_OP_DESTROY_ADDR_HANDLE,
			       FIELD_PREP(E810_CQPSQ_AH_AVIDX, n->ah_id), q,
			       NULL);
	irdma_hmc_id_free(rf, E810_HMC_FSIAV, n->ah_id);
	n->ah_valid = false;
}

/* Undoes irdma_cm_node_setup() and the port; the node stays allocated. */
static void irdma_cm_node_release(struct irdma_pci_f *rf,
				  struct irdma_cm_node *n)
{
	if (n->qh_added && !rf->resetting)
		irdma_qhash_op(rf, &n->qh, IRDMA_QHASH_DEL);
	n->qh_added = false;
	irdma_cm_ah_release(rf, n);
	if (n->arp_idx > 0)
		irdma_arp_put(rf, n->arp_idx);
	n->arp_idx = -ENOENT;
	if (n->apbvt)
		irdma_apbvt_put(rf, n->qh.lport);
	n->apbvt = false;
}

/* ---- nodes --------------------------------------------------------------- */

static struct irdma_cm_node *irdma_cm_node_alloc(struct irdma_pci_f *rf,
						 bool ipv4, const u32 lip[4],
						 const u32 rip[4], u16 lport,
						 u16 rport, u16 vlan)
{
	struct irdma_cm_node *n;
	u16 mss, min_mss;
	u32 mtu = READ_ONCE(rf->netdev->mtu);

	n = kzalloc(sizeof(*n), GFP_KERNEL);
	if (!n)
		return NULL;
	n->refs = 1;
	n->arp_idx = -ENOENT;
	init_completion(&n->est);
	n->qh.ipv4 = ipv4;
	memcpy(n->qh.lip, lip, sizeof(n->qh.lip));
	memcpy(n->qh.rip, rip, sizeof(n->qh.rip));
	n->qh.lport = lport;
	n->qh.rport = rport;
	n->qh.vlan = vlan;
	n->qh.est = true;
	/* Upstream irdma_make_cm_node(): MSS = MTU - 40 / - 60. */
	mss = ipv4 ? min_t(u32, mtu - 40, 0xffff) : min_t(u32, mtu - 60, 0xffff);
	min_mss = ipv4 ? 576 - 40 : 1280 - 60;
	e810cm_tcb_init(&n->tcb, get_random_u32(), mss, min_mss);
	n->tcb.lport = lport;
	n->tcb.rport = rport;
	e810cm_conn_init(&n->sm, 2);
	n->neg.ird = IRDMA_MAX_IRD;
	n->neg.ord = IRDMA_MAX_ORD;
	return n;
}

static void irdma_cm_node_put(struct irdma_cm_node *n)
{
	if (!--n->refs)
		kfree(n);
}

static struct irdma_cm_node *irdma_cm_find(struct irdma_cm *cm,
					   const struct e810cm_seg *s)
{
	struct irdma_cm_node *n;

	list_for_each_entry(n, &cm->nodes, list)
		if (n->qh.ipv4 == s->ipv4 && n->qh.lport == s->lport &&
		    n->qh.rport == s->rport &&
		    !memcmp(n->qh.lip, s->lip, sizeof(s->lip)) &&
		    !memcmp(n->qh.rip, s->rip, sizeof(s->rip)))
			return n;
	return NULL;
}

/* ---- sending ------------------------------------------------------------- */

/*
 * One segment out through the ILQ: behind the node's AH, or on GEN_1 in a
 * frame addressed as the AH would have done it.
 */
static int irdma_cm_send(struct irdma_pci_f *rf, struct irdma_cm_node *n,
			 const void *seg, u32 len, u32 hlen)
{
	struct irdma_ilq_l2 l2 = { };

	if (irdma_has_ops(rf, E810_GEN_OP_AH))
		return irdma_ilq_send(rf, n->ah_id, seg, len, hlen);
	ether_addr_copy(l2.dmac, n->rmac);
	l2.vlan = n->qh.vlan;
	l2.ipv4 = n->qh.ipv4;
	memcpy(l2.lip, n->qh.lip, sizeof(l2.lip));
	memcpy(l2.rip, n->qh.rip, sizeof(l2.rip));
	l2.loopback = !memcmp(n->qh.lip, n->qh.rip, sizeof(n->qh.lip));
	return irdma_ilq_send_gen1(rf, &l2, seg, len, hlen);
}

/* Builds and sends one segment; a frame awaiting an ACK is kept. */
static int irdma_cm_xmit(struct irdma_cm *cm, struct irdma_cm_node *n,
			 u8 flags, const u8 *payload, u32 len, bool keep)
{
	struct irdma_pci_f *rf = cm->rf;
	int seg, err;

	if (!n->ah_valid)
		return -ENOTCONN;
	seg = e810cm_tcb_tx(&n->tcb, flags, payload, len, n->seg,
			    sizeof(n->seg));
	if (seg < 0)
		return seg;
	err = irdma_cm_send(rf, n, n->seg, seg, seg - len);
	if (err)
		cm->stats.tx_errors++;
	if (keep) {
		memcpy(n->retx, n->seg, seg);
		n->retx_len = seg;
		n->retx_hlen = seg - len;
	}
	return err;
}

static void irdma_cm_timer_arm(struct irdma_cm *cm, struct irdma_cm_node *n,
			       enum irdma_cm_timer_kind kind, u32 ms)
{
	n->timer = kind;
	n->deadline = jiffies + msecs_to_jiffies(ms);
	/* One timer for all nodes: it runs at the earliest deadline. */
	if (cm->stopping ||
	    (cm->timer_armed && !time_before(n->deadline, cm->timer_next)))
		return;
	cm->timer_armed = true;
	cm->timer_next = n->deadline;
	mod_delayed_work(system_wq, &cm->timer, msecs_to_jiffies(ms));
}

/* ---- iw_cm events ----------------------------------------------------------- */

static int irdma_cm_event(struct irdma_cm_node *n, struct iw_cm_id *cm_id,
			  enum iw_cm_event_type type, int status,
			  const struct e810cm_mpa *mpa)
{
	struct iw_cm_event ev = {
		.event = type,
		.status = status,
		.ird = n->neg.ird,
		.ord = n->neg.ord,
	};

	irdma_cm_sockaddr(&ev.local_addr, n->qh.ipv4, n->qh.lip, n->qh.lport);
	irdma_cm_sockaddr(&ev.remote_addr, n->qh.ipv4, n->qh.rip, n->qh.rport);
	if (mpa && mpa->pd_len) {
		ev.private_data = (void *)mpa->pd;
		ev.private_data_len = min_t(u16, mpa->pd_len, U8_MAX);
	}
	if (type == IW_CM_EVENT_CONNECT_REQUEST)
		ev.provider_data = n;
	return cm_id->event_handler(cm_id, &ev);
}

/* iw_cm's id is let go. */
static void irdma_cm_put_id(struct irdma_cm_node *n)
{
	struct iw_cm_id *cm_id = n->cm_id;

	if (!cm_id)
		return;
	n->cm_id = NULL;
	cm_id->provider_data = NULL;
	cm_id->rem_ref(cm_id);
}

/* CONNECT_REPLY to our connect; after an error iw_cm's id is let go. */
static void irdma_cm_connect_reply(struct irdma_cm *cm,
				   struct irdma_cm_node *n, int status,
				   const struct e810cm_mpa *mpa)
{
	struct e810cm_mpa rep = { .pd = n->peer_pd, .pd_len = n->peer_pd_len };

	if (!n->cm_id || !n->active || n->replied)
		return;
	/*
	 * A success is answered once the QP is established, with the
	 * private data of the MPA Reply (upstream irdma_cm_event_connected()
	 * passes the node's pdata).
	 */
	if (!status && !mpa && n->peer_pd_len)
		mpa = &rep;
	n->replied = true;
	cm->stats.connect_replies++;
	if (status)
		cm->stats.connect_errors++;
	else
		n->established = true;
	irdma_cm_event(n, n->cm_id, IW_CM_EVENT_CONNECT_REPLY, status, mpa);
	if (status)
		irdma_cm_put_id(n);
}

/*
 * DISCONNECT or CLOSE of an established connection; after CLOSE iw_cm's
 * id is let go (upstream irdma_cm_disconn_true()).
 */
static void irdma_cm_post(struct irdma_cm *cm, struct irdma_cm_node *n,
			  enum iw_cm_event_type type, int status)
{
	if (!n->cm_id || !n->established || n->closed)
		return;
	if (type == IW_CM_EVENT_CLOSE) {
		n->closed = true;
		cm->stats.closes++;
	} else {
		cm->stats.disconnects++;
	}
	irdma_cm_event(n, n->cm_id, type, status, NULL);
	if (type == IW_CM_EVENT_CLOSE)
		irdma_cm_put_id(n);
}

/* ---- the state machine's actions ------------------------------------------- */

static void irdma_cm_close_node(struct irdma_cm *cm, struct irdma_cm_node *n);
static int irdma_cm_step(struct irdma_cm *cm, struct irdma_cm_node *n,
			 enum e810cm_event ev, const struct e810cm_mpa *mpa);

/*
 * Carries out @out (e810cm_step()'s answer to an event) for @n. @mpa is
 * the MPA frame the event came with (its private data for iw_cm).
 */
static void irdma_cm_do(struct irdma_cm *cm, struct irdma_cm_node *n,
			const struct e810cm_out *out,
			const struct e810cm_mpa *mpa)
{
	u32 a = out->actions;
	bool keep_syn = a & E810CM_ACT_START_RETX;
	struct e810cm_mpa rej;
	int len, i;

	if (out->ignored)
		return;
	if (a & E810CM_ACT_STOP_RETX) {
		if (n->timer == IRDMA_CM_TIMER_RETX)
			n->timer = IRDMA_CM_TIMER_NONE;
		n->sent = 0;
	}
	if (a & E810CM_ACT_SEND_SYN) {
		/* A new SYN (MPA v1 retry): a fresh sequence space. */
		if (n->tcb.synced)
			e810cm_tcb_init(&n->tcb, get_random_u32(), n->tcb.mss,
					n->tcb.min_mss);
		n->tcb.lport = n->qh.lport;
		n->tcb.rport = n->qh.rport;
		n->mpa.len = 0;
		irdma_cm_xmit(cm, n, E810CM_TCP_SYN, NULL, 0, keep_syn);
		cm->stats.syn_sent++;
	}
	if (a & E810CM_ACT_SEND_SYNACK) {
		/* Again (the peer's SYN again): same sequence number. */
		if (n->sent && n->retx_len) {
			irdma_cm_send(cm->rf, n, n->retx, n->retx_len,
				      n->retx_hlen);
			cm->stats.retransmits++;
		} else {
			irdma_cm_xmit(cm, n, E810CM_TCP_SYN | E810CM_TCP_ACK,
				      NULL, 0, keep_syn);
			cm->stats.synack_sent++;
		}
	}
	if (a & E810CM_ACT_SEND_ACK)
		irdma_cm_xmit(cm, n, E810CM_TCP_ACK, NULL, 0, false);
	if (a & E810CM_ACT_SEND_MPA_REQ) {
		e810cm_mpa_request(&n->neg, n->sm.mpa_rev, &n->req);
		n->req.pd = n->pd;
		n->req.pd_len = n->pd_len;
		len = e810cm_mpa_build(n->mpa_tx, sizeof(n->mpa_tx), &n->req);
		if (len > 0) {
			irdma_cm_xmit(cm, n, E810CM_TCP_ACK, n->mpa_tx, len,
				      true);
			cm->stats.mpa_req_sent++;
		}
	}
	if (a & E810CM_ACT_SEND_MPA_REJ) {
		memset(&rej, 0, sizeof(rej));
		rej.type = E810CM_MPA_REPLY;
		rej.rev = n->neg.rev ? n->neg.rev : 1;
		rej.crc = true;
		rej.reject = true;
		rej.enhanced = rej.rev == 2;
		rej.pd = n->pd;
		rej.pd_len = n->pd_len;
		/* passive: @mpa_tx holds no Request */
		len = e810cm_mpa_build(n->mpa_tx, sizeof(n->mpa_tx), &rej);
		if (len > 0)
			irdma_cm_xmit(cm, n, E810CM_TCP_ACK |
				      ((a & E810CM_ACT_SEND_FIN) ?
				       E810CM_TCP_FIN : 0), n->mpa_tx, len,
				      true);
		cm->stats.mpa_rej_sent++;
	} else if (a & E810CM_ACT_SEND_FIN) {
		irdma_cm_xmit(cm, n, E810CM_TCP_FIN | E810CM_TCP_ACK, NULL, 0,
			      true);
	}
	if (a & E810CM_ACT_SEND_RST) {
		irdma_cm_xmit(cm, n, E810CM_TCP_RST | E810CM_TCP_ACK, NULL, 0,
			      false);
		cm->stats.rst_sent++;
	}
	if (a & E810CM_ACT_START_RETX) {
		n->sent = 1;
		n->acked = false;
		irdma_cm_timer_arm(cm, n, IRDMA_CM_TIMER_RETX,
				   e810cm_retx_timeout(1));
	}
	if (a & E810CM_ACT_CLOSE_TIMER)
		irdma_cm_timer_arm(cm, n, IRDMA_CM_TIMER_CLOSE,
				   IRDMA_CM_CLOSE_MS);
	/* The QP's side (offloaded connections; the QP may be gone). */
	if (n->qp && !cm->rf->resetting) {
		if (a & E810CM_ACT_QP_RESET)
			irdma_iw_qp_close(n->qp, true);
		else if (a & E810CM_ACT_QP_CLOSE)
			irdma_iw_qp_close(n->qp, false);
		if (a & E810CM_ACT_QP_FLUSH) {
			/*
			 * The connection is over for the driver: no RST
			 * (upstream irdma_handle_close_entry() sets
			 * hw_tcp_state CLOSED, RESET_SENT, before the flush).
			 */
			WRITE_ONCE(n->qp->hw_tcp_state, E810_TCPSTATE_CLOSED);
			irdma_iw_qp_flush(n->qp);
		}
	}

	for (i = 0; i < out->num_iw; i++) {
		switch (out->iw[i].type) {
		case E810CM_IW_CONNECT_REQUEST:
			if (!n->listener)
				break;
			n->refs++;
			n->provider = true;
			cm->stats.connect_requests++;
			if (!irdma_cm_event(n, n->listener->cm_id,
					    IW_CM_EVENT_CONNECT_REQUEST, 0, mpa))
				break;
			/* iw_cm could not take it (no memory): reset. */
			n->provider = false;
			n->refs--;
			irdma_cm_step(cm, n, E810CM_EV_USER_CLOSE, NULL);
			return;
		case E810CM_IW_CONNECT_REPLY:
			/* Success waits for the QP's AE 0x050E. */
			if (out->iw[i].status) {
				irdma_cm_connect_reply(cm, n,
						       out->iw[i].status, mpa);
			} else if (mpa) {
				n->peer_pd_len = min_t(u16, mpa->pd_len,
						       sizeof(n->peer_pd));
				if (n->peer_pd_len)
					memcpy(n->peer_pd, mpa->pd,
					       n->peer_pd_len);
			}
			break;
		case E810CM_IW_ESTABLISHED:
			if (!n->cm_id || n->established)
				break;
			n->established = true;
			cm->stats.established++;
			irdma_cm_event(n, n->cm_id, IW_CM_EVENT_ESTABLISHED, 0,
				       NULL);
			break;
		case E810CM_IW_DISCONNECT:
			irdma_cm_post(cm, n, IW_CM_EVENT_DISCONNECT,
				      out->iw[i].status);
			break;
		case E810CM_IW_CLOSE:
			irdma_cm_post(cm, n, IW_CM_EVENT_CLOSE,
				      out->iw[i].status);
			break;
		default:
			break;
		}
	}
	if (n->sm.state == E810CM_CLOSED)
		irdma_cm_close_node(cm, n);
}

/* Feeds @ev to @n and carries the answer out. */
static int irdma_cm_step(struct irdma_cm *cm, struct irdma_cm_node *n,
			 enum e810cm_event ev, const struct e810cm_mpa *mpa)
{
	struct ib_device *ibdev = irdma_cm_ibdev(cm->rf);
	enum e810cm_state was = n->sm.state;
	struct e810cm_out out;
	int err;

	err = e810cm_step(&n->sm, ev, &out);
	if (err)
		return err;
	if (ibdev && was != out.state)
		ibdev_dbg(ibdev, "CM: port %u to %u: %s: %s -> %s\n",
			  n->qh.lport, n->qh.rport, e810cm_event_name(ev),
			  e810cm_state_name(was), e810cm_state_name(out.state));
	else if (ibdev && out.ignored && n->qp)
		ibdev_dbg(ibdev, "CM: port %u to %u: %s ignored in %s\n",
			  n->qh.lport, n->qh.rport, e810cm_event_name(ev),
			  e810cm_state_name(was));
	irdma_cm_do(cm, n, &out, mpa);
	return out.status;
}

/*
 * The node is done: out of the list, its table entries and AH gone, a
 * pending connect answered. iw_cm may still hold it (@provider) until
 * its accept or reject.
 */
static void irdma_cm_close_node(struct irdma_cm *cm, struct irdma_cm_node *n)
{
	n->sm.state = E810CM_CLOSED;
	n->timer = IRDMA_CM_TIMER_NONE;
	irdma_cm_connect_reply(cm, n, -ECONNRESET, NULL);
	/* iw_cm lets the QP go on CLOSE: it always comes. */
	irdma_cm_post(cm, n, IW_CM_EVENT_CLOSE, -ECONNRESET);
	irdma_cm_put_id(n);
	n->qp = NULL;
	if (list_empty(&n->list))
		return;
	list_del_init(&n->list);
	cm->stats.nodes--;
	irdma_cm_node_release(cm->rf, n);
	n->listener = NULL;
	if (n->parent)
		irdma_listener_child_gone(cm->rf, n->parent);
	n->parent = NULL;
	irdma_cm_node_put(n);
}

/* A hand-off that failed: the connection ends with an RST. */
static void irdma_cm_offload_failed(struct irdma_cm *cm,
				    struct irdma_cm_node *n, int err)
{
	struct ib_device *ibdev = irdma_cm_ibdev(cm->rf);

	cm->stats.offload_errors++;
	if (ibdev)
		ibdev_dbg(ibdev, "CM: port %u to %u: offload failed: %d\n",
			  n->qh.lport, n->qh.rport, err);
	irdma_cm_xmit(cm, n, E810CM_TCP_RST | E810CM_TCP_ACK, NULL, 0, false);
	cm->stats.rst_sent++;
	if (n->qp)
		irdma_iw_qp_flush(n->qp);
	irdma_cm_close_node(cm, n);
}

/*
 * Hands the connection to its QP (upstream irdma_cm_init_tsa_conn(),
 * irdma_init_tcp_ctx()): the connection WQEs (@lsmm: the MPA Reply on
 * the passive side, else the RTR), the TCP group from the sequence space,
 * RTS. The device owns the 4-tuple from then on: the node's AH goes, its
 * connection entry is the QP's (removed with DESTROY_QP).
 */
static int irdma_cm_offload(struct irdma_cm *cm, struct irdma_cm_node *n,
			    const u8 *lsmm, u32 lsmm_len)
{
	struct irdma_pci_f *rf = cm->rf;
	struct irdma_iw_tcp t = { };
	int err;

	if (!n->qp || n->arp_idx <= 0)
		return -EINVAL;
	/*
	 * Passive: wait for the peer's RTR only if it asked for the
	 * peer-to-peer model (a v2 Request without P2P sends none).
	 */
	err = irdma_iw_qp_conn_wqes(n->qp, lsmm, lsmm_len,
				    lsmm ? n->neg.p2p :
				    n->neg.rtr == E810CM_RTR_READ);
	if (err)
		return err;
	t.ipv4 = n->qh.ipv4;
	memcpy(t.lip, n->qh.lip, sizeof(t.lip));
	memcpy(t.rip, n->qh.rip, sizeof(t.rip));
	t.lport = n->qh.lport;
	t.rport = n->qh.rport;
	t.vlan = n->qh.vlan;
	t.mss = n->tcb.mss;
	t.snd_wscale = n->tcb.snd_wscale;
	t.rcv_wscale = n->tcb.rcv_wscale;
	t.snd_nxt = n->tcb.snd_nxt;
	t.rcv_nxt = n->tcb.rcv_nxt;
	t.snd_wnd = n->tcb.snd_wnd;
	t.rcv_wnd = n->tcb.rcv_wnd;
	t.arp_idx = n->arp_idx;
	t.ord = n->neg.ord;
	t.ird = n->neg.ird;
	err = irdma_iw_qp_offload(n->qp, &t);
	if (err)
		return err;
	cm->stats.offloads++;
	n->timer = IRDMA_CM_TIMER_NONE;
	n->qh_added = false;
	irdma_cm_ah_release(rf, n);
	return 0;
}

/* ---- receiving ----------------------------------------------------------- */

/* The MPA frame's bytes came: what they mean for the state machine. */
static void irdma_cm_rx_mpa(struct irdma_cm *cm, struct irdma_cm_node *n,
			    const u8 *data, u32 len)
{
	enum e810cm_mpa_type type = n->active ? E810CM_MPA_REPLY :
						E810CM_MPA_REQUEST;
	struct e810cm_neg neg = n->neg;
	struct e810cm_mpa mpa, rep;
	enum e810cm_event ev;
	struct e810cm_out out;
	int ret;

	ret = e810cm_mpa_feed(&n->mpa, data, len, type, n->sm.mpa_rev, &mpa);
	if (ret == -EAGAIN)
		return;
	if (ret < 0) {
		ev = E810CM_EV_RX_MPA_BAD;
	} else if (!n->active) {
		ev = e810cm_mpa_respond(&mpa, &neg, &rep) ?
		     E810CM_EV_RX_MPA_BAD : E810CM_EV_RX_MPA_REQ;
		if (ev == E810CM_EV_RX_MPA_REQ)
			n->rep = rep;
	} else {
		ret = e810cm_mpa_complete(&n->req, &mpa, &neg);
		ev = ret == -ECONNREFUSED ? E810CM_EV_RX_MPA_REJ :
		     ret ? E810CM_EV_RX_MPA_BAD : E810CM_EV_RX_MPA_REP;
	}
	switch (ev) {
	case E810CM_EV_RX_MPA_REQ:
		cm->stats.mpa_req_rcvd++;
		break;
	case E810CM_EV_RX_MPA_REP:
		cm->stats.mpa_rep_rcvd++;
		break;
	case E810CM_EV_RX_MPA_REJ:
		cm->stats.mpa_rej_rcvd++;
		break;
	default:
		cm->stats.mpa_bad++;
		break;
	}
	if (e810cm_step(&n->sm, ev, &out) || out.ignored)
		return;
	if (ev != E810CM_EV_RX_MPA_BAD)
		n->neg = neg;
	irdma_cm_do(cm, n, &out, &mpa);
	if (out.actions & E810CM_ACT_OFFLOAD) {
		/*
		 * The Reply to our connect, acknowledged: the RTR goes out
		 * from the QP, CONNECT_REPLY comes with its AE 0x050E.
		 */
		ret = irdma_cm_offload(cm, n, NULL, 0);
		if (ret) {
			irdma_cm_connect_reply(cm, n, ret, &mpa);
			irdma_cm_offload_failed(cm, n, ret);
			return;
		}
		/*
		 * GEN_1 has no RTS AE: upstream irdma_cm_event_connected()
		 * answers the connect with the offload.
		 */
		if (irdma_is_gen1(cm->rf)) {
			cm->stats.established++;
			irdma_cm_connect_reply(cm, n, 0, NULL);
			return;
		}
		irdma_cm_timer_arm(cm, n, IRDMA_CM_TIMER_EST, IRDMA_CM_EST_MS);
		return;
	}
	/* The Request is acknowledged at once (upstream irdma_send_ack()). */
	if (ev == E810CM_EV_RX_MPA_REQ && n->sm.state == E810CM_MPAREQ_RCVD)
		irdma_cm_xmit(cm, n, E810CM_TCP_ACK, NULL, 0, false);
}

/* A segment for an existing node. */
static void irdma_cm_rx_node(struct irdma_cm *cm, struct irdma_cm_node *n,
			     const struct e810cm_seg *s)
{
	struct e810cm_rx rx;
	bool fin = false;
	int err, i;

	/* The device owns the connection: stragglers of the ILQ go. */
	if (n->sm.state == E810CM_CLOSED ||
	    n->sm.state == E810CM_ACCEPTING ||
	    n->sm.state == E810CM_OFFLOADED ||
	    n->sm.state == E810CM_DISCONNECTING) {
		cm->stats.segs_dropped++;
		return;
	}
	err = e810cm_tcb_rx(&n->tcb, s, &rx);
	if (err == -ECONNRESET) {
		/* A SYN-ACK for something else (upstream: RST, abort). */
		cm->stats.segs_dropped++;
		irdma_cm_step(cm, n, E810CM_EV_RX_RST, NULL);
		return;
	}
	if (err) {
		cm->stats.segs_dropped++;
		/* The peer's SYN again while ours is answered: SYN-ACK again. */
		if ((s->flags & (E810CM_TCP_SYN | E810CM_TCP_ACK)) ==
		    E810CM_TCP_SYN && n->sm.state == E810CM_SYN_RCVD)
			irdma_cm_step(cm, n, E810CM_EV_RX_SYN, NULL);
		/*
		 * Data or FIN we already have, sent again: our ACK was lost
		 * (RFC 9293 3.10.7.4: answer with an ACK).
		 */
		else if (n->tcb.synced && !(s->flags & E810CM_TCP_RST) &&
			 (s->payload_len || (s->flags & E810CM_TCP_FIN)) &&
			 e810cm_seq_before(s->seq, n->tcb.rcv_nxt))
			irdma_cm_xmit(cm, n, E810CM_TCP_ACK, NULL, 0, false);
		return;
	}
	for (i = 0; i < rx.num; i++) {
		switch (rx.ev[i]) {
		case E810CM_EV_RX_FIN:
			fin = true;
			continue;
		case E810CM_EV_RX_RST:
			cm->stats.rst_rcvd++;
			break;
		case E810CM_EV_RX_SYNACK:
			cm->stats.established_tcp++;
			break;
		case E810CM_EV_RX_ACK:
			if (n->sm.state == E810CM_SYN_RCVD)
				cm->stats.established_tcp++;
			break;
		default:
			break;
		}
		irdma_cm_step(cm, n, rx.ev[i], NULL);
		if (n->sm.state == E810CM_CLOSED)
			return;
	}
	/*
	 * Our MPA Request is acknowledged: not sent again, its countdown
	 * goes on (upstream irdma_handle_ack_pkt(): ack_rcvd).
	 */
	if (n->sm.state == E810CM_MPAREQ_SENT &&
	    n->timer == IRDMA_CM_TIMER_RETX &&
	    n->tcb.snd_una == n->tcb.snd_nxt)
		n->acked = true;
	if (rx.data_len) {
		if (n->sm.state == E810CM_MPAREQ_WAIT ||
		    n->sm.state == E810CM_MPAREQ_SENT)
			irdma_cm_rx_mpa(cm, n, rx.data, rx.data_len);
		else
			/* Data where no MPA frame is due (RFC 5044 7.1). */
			irdma_cm_step(cm, n, E810CM_EV_RX_MPA_BAD, NULL);
		if (n->sm.state == E810CM_CLOSED)
			return;
	}
	if (fin)
		irdma_cm_step(cm, n, E810CM_EV_RX_FIN, NULL);
}

/* The listener a SYN to @s's local address and port is for, if any. */
static struct irdma_listener *irdma_cm_listener(struct irdma_pci_f *rf,
						const struct e810cm_seg *s)
{
	struct irdma_listener *l;
	u32 i;

	lockdep_assert_held(&rf->iw.lock);
	list_for_each_entry(l, &rf->iw.listeners, node) {
		/* A destroyed one's SYNs are dropped (upstream: PASSIVE). */
		if (l->port != s->lport || l->gone)
			continue;
		for (i = 0; i < l->nqh; i++)
			if (l->qh[i].ipv4 == s->ipv4 &&
			    !memcmp(l->qh[i].lip, s->lip, sizeof(s->lip)))
				return l;
	}
	return NULL;
}

/* A listener's SYN: a passive node (upstream irdma_receive_ilq()). */
static void irdma_cm_rx_syn(struct irdma_cm *cm, struct irdma_listener *l,
			    const struct e810cm_seg *s,
			    const struct irdma_cm_rxseg *r)
{
	struct irdma_pci_f *rf = cm->rf;
	struct irdma_cm_node *n;
	struct e810cm_out out;
	struct e810cm_rx rx;
	int pending = 0;

	list_for_each_entry(n, &cm->nodes, list)
		if (n->listener == l)
			pending++;
	if (pending > l->backlog) {
		cm->stats.backlog_drops++;
		return;
	}
	n = irdma_cm_node_alloc(rf, s->ipv4, s->lip, s->rip, s->lport,
				s->rport, r->vlan_valid ?
				(r->vlan & VLAN_VID_MASK) : 0xffff);
	if (!n)
		return;
	n->listener = l;
	INIT_LIST_HEAD(&n->list);
	if (e810cm_step(&n->sm, E810CM_EV_USER_LISTEN, &out) ||
	    e810cm_tcb_rx(&n->tcb, s, &rx) || rx.num != 1 ||
	    rx.ev[0] != E810CM_EV_RX_SYN) {
		cm->stats.segs_dropped++;
		goto err_free;
	}
	if (r->smac_valid && is_valid_ether_addr(r->smac))
		ether_addr_copy(n->rmac, r->smac);
	else if (irdma_cm_neigh_mac(rf, &n->qh, n->rmac))
		goto err_free;
	if (irdma_cm_node_setup(rf, n))
		goto err_release;
	/*
	 * The node holds the port too: the engine keeps steering its
	 * segments to the ILQ when the listener goes first.
	 */
	if (irdma_apbvt_get(rf, n->qh.lport))
		goto err_release;
	n->apbvt = true;
	list_add_tail(&n->list, &cm->nodes);
	n->parent = l;
	l->children++;
	cm->stats.nodes++;
	cm->stats.nodes_created++;
	irdma_cm_step(cm, n, E810CM_EV_RX_SYN, NULL);
	return;

err_release:
	irdma_cm_node_release(rf, n);
err_free:
	kfree(n);
}

static void irdma_cm_rx_one(struct irdma_cm *cm, struct irdma_cm_rxseg *r)
{
	struct irdma_pci_f *rf = cm->rf;
	struct irdma_iw *iw = &rf->iw;
	struct irdma_listener *l;
	struct irdma_cm_node *n;
	struct e810cm_seg s;

	if (e810cm_seg_parse(r->buf, r->len, r->ipv4, &s)) {
		atomic64_inc(&iw->rx_malformed);
		return;
	}
	n = irdma_cm_find(cm, &s);
	if (n) {
		irdma_cm_rx_node(cm, n, &s);
		return;
	}
	if ((s.flags & (E810CM_TCP_SYN | E810CM_TCP_ACK | E810CM_TCP_RST)) !=
	    E810CM_TCP_SYN) {
		atomic64_inc(&iw->rx_dropped);
		return;
	}
	l = irdma_cm_listener(rf, &s);
	if (!l) {
		atomic64_inc(&iw->rx_dropped);
		return;
	}
	atomic64_inc(&iw->rx_listen_syns);
	irdma_cm_rx_syn(cm, l, &s, r);
}

static struct irdma_cm_node *irdma_cm_find_qp(struct irdma_cm *cm,
					      u32 qp_id)
{
	struct irdma_cm_node *n;

	list_for_each_entry(n, &cm->nodes, list)
		if (n->qp && n->qp->qp_id == qp_id)
			return n;
	return NULL;
}

/*
 * An AE of a connection's QP, or what its QP did (upstream
 * irdma_process_aeq(): 0x050E wakes the accept or completes the connect,
 * 0x0503/0x0202 are the peer's FIN, 0x0501 the close done, 0x0502,
 * 0x0601, 0x0201 a reset).
 */
static void irdma_cm_qpev_one(struct irdma_cm *cm, u32 qp_id, u16 ev)
{
	struct irdma_cm_node *n = irdma_cm_find_qp(cm, qp_id);

	if (!n || n->sm.state == E810CM_CLOSED) {
		ibdev_dbg(irdma_cm_ibdev(cm->rf),
			  "CM: QP %u: event 0x%04x for no open connection\n",
			  qp_id, ev);
		return;
	}
	switch (ev) {
	case E810_AE_LLP_CONNECTION_ESTABLISHED:
		if (n->active) {
			if (n->sm.state == E810CM_OFFLOADED && !n->replied) {
				cm->stats.established++;
				if (n->timer == IRDMA_CM_TIMER_EST)
					n->timer = IRDMA_CM_TIMER_NONE;
				irdma_cm_connect_reply(cm, n, 0, NULL);
			}
			return;
		}
		irdma_cm_step(cm, n, E810CM_EV_HW_ESTABLISHED, NULL);
		if (n->established) {
			n->est_status = 0;
			complete(&n->est);
		}
		return;
	case E810_AE_LLP_FIN_RECEIVED:
	case E810_AE_RDMAP_ROE_BAD_LLP_CLOSE:
		irdma_cm_step(cm, n, E810CM_EV_RX_FIN, NULL);
		return;
	case E810_AE_LLP_CLOSE_COMPLETE:
		irdma_cm_step(cm, n, E810CM_EV_HW_CLOSED, NULL);
		return;
	case IRDMA_CM_QPEV_CLOSING:
		irdma_cm_step(cm, n, E810CM_EV_USER_CLOSE, NULL);
		return;
	default:
		/* A reset, or the QP failed: the connection is over. */
		irdma_cm_step(cm, n, E810CM_EV_RX_RST, NULL);
		if (n->sm.state == E810CM_CLOSED && !n->active &&
		    !n->established) {
			n->est_status = -ECONNRESET;
			complete(&n->est);
		}
		return;
	}
}

static void irdma_cm_rx_work(struct work_struct *work)
{
	struct irdma_cm *cm = container_of(work, struct irdma_cm, rx_work);
	struct irdma_cm_qpev *e;
	struct irdma_cm_rxseg *r;

	for (;;) {
		spin_lock_bh(&cm->rxq_lock);
		r = list_first_entry_or_null(&cm->rxq, struct irdma_cm_rxseg,
					     list);
		if (r) {
			list_del(&r->list);
			cm->rxq_len--;
		}
		e = r ? NULL : list_first_entry_or_null(&cm->qpevq,
							struct irdma_cm_qpev,
							list);
		if (e)
			list_del(&e->list);
		spin_unlock_bh(&cm->rxq_lock);
		if (!r && !e)
			return;
		mutex_lock(&cm->rf->iw.lock);
		if (r)
			irdma_cm_rx_one(cm, r);
		else
			irdma_cm_qpev_one(cm, e->qp_id, e->ev);
		mutex_unlock(&cm->rf->iw.lock);
		kfree(r);
		kfree(e);
	}
}

/**
 * irdma_cm_qp_event() - an AE of an iWARP QP's connection, or a change
 *	the QP made (IRDMA_CM_QPEV_*), for the connection manager
 * @rf: per-function state
 * @qp_id: the QP
 * @ev: the AE code or IRDMA_CM_QPEV_*
 *
 * Queued for the work item (dropped and counted when memory is short).
 *
 * Context: Any context.
 */
void irdma_cm_qp_event(struct irdma_pci_f *rf, u32 qp_id, u16 ev)
{
	struct irdma_cm *cm = irdma_cm_of(rf);
	struct irdma_cm_qpev *e;
	unsigned long flags;

	if (!cm)
		return;
	e = kmalloc(sizeof(*e), GFP_ATOMIC);
	if (!e) {
		atomic64_inc(&rf->iw.rx_dropped);
		return;
	}
	e->qp_id = qp_id;
	e->ev = ev;
	spin_lock_irqsave(&cm->rxq_lock, flags);
	if (cm->stopping) {
		spin_unlock_irqrestore(&cm->rxq_lock, flags);
		kfree(e);
		return;
	}
	list_add_tail(&e->list, &cm->qpevq);
	spin_unlock_irqrestore(&cm->rxq_lock, flags);
	schedule_work(&cm->rx_work);
}

/**
 * irdma_cm_qp_gone() - a QP with a connection is being destroyed
 * @rf: per-function state
 * @qp: the QP
 *
 * Its connection ends at once (DISCONNECT, CLOSE to iw_cm, which then
 * lets the QP go) and forgets the QP; the destroy does the device's side.
 *
 * Context: Process context, sleeps.
 */
void irdma_cm_qp_gone(struct irdma_pci_f *rf, struct irdma_qp *qp)
{
	struct irdma_cm *cm = irdma_cm_of(rf);
	struct irdma_cm_node *n, *tmp;

	if (!cm)
		return;
	mutex_lock(&rf->iw.lock);
	list_for_each_entry_safe(n, tmp, &cm->nodes, list) {
		if (n->qp != qp)
			continue;
		n->qp = NULL;
		if (!n->active && !n->established) {
			n->est_status = -ECONNRESET;
			complete(&n->est);
		}
		irdma_cm_step(cm, n, E810CM_EV_RX_RST, NULL);
		if (n->sm.state != E810CM_CLOSED)
			irdma_cm_close_node(cm, n);
	}
	mutex_unlock(&rf->iw.lock);
}

/**
 * irdma_cm_rx() - a segment the ILQ received
 * @rf: per-function state in iWARP mode
 * @rx: the segment (its buffer is reused when this returns)
 *
 * Copied and handed to the work item; dropped (counted) when too many
 * wait or memory is short: the peer retransmits.
 *
 * Context: Softirq (CEQ 0's tasklet).
 */
void irdma_cm_rx(struct irdma_pci_f *rf, const struct irdma_ilq_rx *rx)
{
	struct irdma_cm *cm = irdma_cm_of(rf);
	struct irdma_cm_rxseg *r;

	if (!cm || rx->len > IRDMA_ILQ_BUF_SIZE) {
		atomic64_inc(&rf->iw.rx_dropped);
		return;
	}
	r = kmalloc(struct_size(r, buf, rx->len), GFP_ATOMIC);
	if (!r) {
		atomic64_inc(&rf->iw.rx_dropped);
		return;
	}
	r->len = rx->len;
	r->ipv4 = rx->ipv4;
	r->smac_valid = rx->smac_valid;
	ether_addr_copy(r->smac, rx->smac);
	r->vlan_valid = rx->vlan_valid;
	r->vlan = rx->vlan;
	memcpy(r->buf, rx->buf, rx->len);
	spin_lock(&cm->rxq_lock);
	if (cm->stopping || cm->rxq_len >= IRDMA_CM_RXQ_MAX) {
		cm->rxq_drops++;
		spin_unlock(&cm->rxq_lock);
		kfree(r);
		return;
	}
	list_add_tail(&r->list, &cm->rxq);
	cm->rxq_len++;
	spin_unlock(&cm->rxq_lock);
	schedule_work(&cm->rx_work);
}

/* ---- timers ----------------------------------------------------------------- */

static void irdma_cm_timer_work(struct work_struct *work)
{
	struct irdma_cm *cm = container_of(to_delayed_work(work),
					   struct irdma_cm, timer);
	struct irdma_cm_node *n, *tmp;
	unsigned long now = jiffies, next = 0;
	bool any = false;
	u32 ms;

	mutex_lock(&cm->rf->iw.lock);
	cm->stats.timer_runs++;
	cm->timer_armed = false;
	list_for_each_entry_safe(n, tmp, &cm->nodes, list) {
		if (n->timer == IRDMA_CM_TIMER_NONE)
			continue;
		if (time_before(now, n->deadline)) {
			if (!any || time_before(n->deadline, next))
				next = n->deadline;
			any = true;
			continue;
		}
		ms = n->timer == IRDMA_CM_TIMER_RETX ?
		     e810cm_retx_timeout(n->sent + 1) : 0;
		if (ms) {
			/* Upstream irdma_cm_timer_tick(): send it again. */
			n->sent++;
			if (!n->acked) {
				irdma_cm_send(cm->rf, n, n->retx,
					      n->retx_len, n->retx_hlen);
				cm->stats.retransmits++;
			}
			n->deadline = now + msecs_to_jiffies(ms);
			if (!any || time_before(n->deadline, next))
				next = n->deadline;
			any = true;
			continue;
		}
		if (n->timer == IRDMA_CM_TIMER_RETX)
			cm->stats.timeouts++;
		if (n->timer == IRDMA_CM_TIMER_EST) {
			/*
			 * No AE 0x050E in 12 s: upstream
			 * irdma_cm_event_connected() logs a slow connection
			 * and answers the connect all the same.
			 */
			n->timer = IRDMA_CM_TIMER_NONE;
			ibdev_dbg(irdma_cm_ibdev(cm->rf),
				  "CM: port %u to %u: slow connection, no AE 0x050E in %u ms\n",
				  n->qh.lport, n->qh.rport, IRDMA_CM_EST_MS);
			irdma_cm_connect_reply(cm, n, 0, NULL);
			continue;
		}
		n->timer = IRDMA_CM_TIMER_NONE;
		irdma_cm_step(cm, n, E810CM_EV_TIMEOUT, NULL);
	}
	/* Steps above may have armed it for an earlier deadline. */
	if (any && !cm->stopping &&
	    (!cm->timer_armed || time_before(next, cm->timer_next))) {
		cm->timer_armed = true;
		cm->timer_next = next;
		mod_delayed_work(system_wq, &cm->timer,
				 time_after(next, now) ? next - now : 0);
	}
	mutex_unlock(&cm->rf->iw.lock);
}

/* The QP iw_cm names in a connect or accept. */
static struct irdma_qp *irdma_cm_qp_of(struct irdma_pci_f *rf, u32 qpn)
{
	struct irdma_qp *qp;

	xa_lock_bh(&rf->qps);
	qp = xa_load(&rf->qps, qpn);
	xa_unlock_bh(&rf->qps);
	return qp && qp->hw_type == E810_QP_TYPE_IWARP ? qp : NULL;
}

/* ---- iw_cm operations -------------------------------------------------------- */

/**
 * irdma_cm_connect() - iw_cm connect: SYN to the peer
 * @cm_id: the id, with the (mapped) local and remote addresses
 * @param: private data, IRD and ORD, the QP
 *
 * The port into the APBVT, the AH and the connection entry, then the SYN
 * (upstream irdma_connect()). The outcome comes as CONNECT_REPLY.
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
int irdma_cm_connect(struct iw_cm_id *cm_id, struct iw_cm_conn_param *param)
{
	struct irdma_pci_f *rf = to_iwdev(cm_id->device)->rf;
	struct irdma_cm *cm = irdma_cm_of(rf);
	struct irdma_cm_node *n;
	u32 lip[4], rip[4];
	bool ipv4, ipv4r;
	u16 lport, rport;
	int err;

	if (!cm || READ_ONCE(cm->stopping))
		return -ENODEV;
	if (!irdma_sa_words(&cm_id->m_local_addr, &ipv4, lip, &lport) ||
	    !irdma_sa_words(&cm_id->m_remote_addr, &ipv4r, rip, &rport) ||
	    ipv4 != ipv4r || !lport || !rport)
		return -EINVAL;
	if (param->private_data_len > E810CM_MPA_MAX_PD -
	    E810CM_MPA_V2_RTR_LEN)
		return -EINVAL;
	if (READ_ONCE(rf->netdev->mtu) < (ipv4 ? 576 : 1280))
		return -EINVAL;
	n = irdma_cm_node_alloc(rf, ipv4, lip, rip, lport, rport, 0xffff);
	if (!n)
		return -ENOMEM;
	INIT_LIST_HEAD(&n->list);
	n->active = true;
	n->neg.ird = min_t(u32, param->ird, IRDMA_MAX_IRD);
	n->neg.ord = min_t(u32, param->ord, IRDMA_MAX_ORD);
	/* Upstream irdma_record_ird_ord(): a READ RTR needs an ORD. */
	if (!n->neg.ord)
		n->neg.ord = 1;
	n->neg.rtr = E810CM_RTR_WRITE | E810CM_RTR_READ;
	memcpy(n->pd, param->private_data, param->private_data_len);
	n->pd_len = param->private_data_len;
	err = irdma_cm_neigh_mac(rf, &n->qh, n->rmac);
	if (err)
		goto err_free;

	mutex_lock(&rf->iw.lock);
	/* iw_cm holds the QP (iw_add_ref) until CLOSE or a failed reply. */
	n->qp = irdma_cm_qp_of(rf, param->qpn);
	if (!n->qp) {
		err = -EINVAL;
		goto err_unlock;
	}
	err = irdma_apbvt_get(rf, lport);
	if (err)
		goto err_unlock;
	n->apbvt = true;
	err = irdma_cm_node_setup(rf, n);
	if (err)
		goto err_release;
	cm_id->add_ref(cm_id);
	cm_id->provider_data = n;
	n->cm_id = cm_id;
	list_add_tail(&n->list, &cm->nodes);
	cm->stats.nodes++;
	cm->stats.nodes_created++;
	irdma_cm_step(cm, n, E810CM_EV_USER_CONNECT, NULL);
	mutex_unlock(&rf->iw.lock);
	ibdev_dbg(cm_id->device, "CM: connect %pISpc -> %pISpc\n",
		  &cm_id->m_local_addr, &cm_id->m_remote_addr);
	return 0;

err_release:
	irdma_cm_node_release(rf, n);
err_unlock:
	mutex_unlock(&rf->iw.lock);
err_free:
	kfree(n);
	return err;
}

/* iw_cm's hold on a node from CONNECT_REQUEST, let go. */
static struct irdma_cm_node *irdma_cm_take(struct iw_cm_id *cm_id)
{
	struct irdma_cm_node *n = cm_id->provider_data;

	if (!n || !n->provider)
		return NULL;
	n->provider = false;
	cm_id->provider_data = NULL;
	return n;
}

/**
 * irdma_cm_accept() - iw_cm accept of a CONNECT_REQUEST
 * @cm_id: the new id iw_cm made for the request
 * @param: private data, IRD, ORD and the QP
 *
 * The MPA Reply becomes the QP's first stream bytes (the LSMM WQE), the
 * connection goes to the QP (upstream irdma_accept()); the accept returns
 * once the QP's AE 0x050E says the peer's RTR came, ESTABLISHED posted.
 *
 * Context: Process context, sleeps.
 * Return: 0, -ECONNRESET when the peer left first or the QP never came
 * up (12 s), or another negative errno.
 */
int irdma_cm_accept(struct iw_cm_id *cm_id, struct iw_cm_conn_param *param)
{
	struct irdma_pci_f *rf = to_iwdev(cm_id->device)->rf;
	struct irdma_cm *cm = irdma_cm_of(rf);
	u8 buf[E810CM_MPA_MAX_FRAME];
	struct irdma_cm_node *n;
	struct e810cm_mpa rep;
	int len, err;

	if (!cm)
		return -ENODEV;
	if (param->private_data_len > E810CM_MPA_MAX_PD -
	    E810CM_MPA_V2_RTR_LEN)
		return -EINVAL;
	mutex_lock(&rf->iw.lock);
	n = irdma_cm_take(cm_id);
	if (!n) {
		mutex_unlock(&rf->iw.lock);
		return -EINVAL;
	}
	n->listener = NULL;
	if (n->sm.state != E810CM_MPAREQ_RCVD) {
		err = -ECONNRESET;
		goto out;
	}
	n->qp = irdma_cm_qp_of(rf, param->qpn);
	rep = n->rep;
	rep.pd = param->private_data;
	rep.pd_len = param->private_data_len;
	len = e810cm_mpa_build(buf, sizeof(buf), &rep);
	err = irdma_cm_step(cm, n, E810CM_EV_USER_ACCEPT, NULL);
	if (err)
		goto out;
	cm_id->add_ref(cm_id);
	cm_id->provider_data = n;
	n->cm_id = cm_id;
	err = len < 0 ? len : irdma_cm_offload(cm, n, buf, len);
	if (err) {
		irdma_cm_offload_failed(cm, n, err);
		goto out;
	}
	/*
	 * GEN_1 has no RTS AE: upstream irdma_accept() waits for it only
	 * with IRDMA_FEATURE_RTS_AE; the connection is up with the offload.
	 */
	if (irdma_is_gen1(rf)) {
		irdma_cm_step(cm, n, E810CM_EV_HW_ESTABLISHED, NULL);
		err = n->established ? 0 : -ECONNRESET;
		goto out;
	}
	/* The node stays ours while the accept waits for the AE. */
	n->refs++;
	mutex_unlock(&rf->iw.lock);
	if (!wait_for_completion_timeout(&n->est,
					 msecs_to_jiffies(IRDMA_CM_EST_MS)))
		n->est_status = -ETIMEDOUT;
	mutex_lock(&rf->iw.lock);
	err = n->est_status;
	if (err == -ETIMEDOUT) {
		/* No RTS AE in time: the accept fails, the QP is reset. */
		irdma_cm_step(cm, n, E810CM_EV_TIMEOUT, NULL);
		err = -ECONNRESET;
	}
	irdma_cm_node_put(n);
out:
	irdma_cm_node_put(n);
	mutex_unlock(&rf->iw.lock);
	return err;
}

/**
 * irdma_cm_reject() - iw_cm reject of a CONNECT_REQUEST
 * @cm_id: the new id iw_cm made for the request
 * @pdata: private data for the Reject
 * @pdata_len: its length
 *
 * An MPA Reply with the R flag, with FIN; the node then closes on its
 * own (upstream irdma_cm_reject()).
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
int irdma_cm_reject(struct iw_cm_id *cm_id, const void *pdata, u8 pdata_len)
{
	struct irdma_pci_f *rf = to_iwdev(cm_id->device)->rf;
	struct irdma_cm *cm = irdma_cm_of(rf);
	struct irdma_cm_node *n;

	if (!cm)
		return -ENODEV;
	mutex_lock(&rf->iw.lock);
	n = irdma_cm_take(cm_id);
	if (!n) {
		mutex_unlock(&rf->iw.lock);
		return -EINVAL;
	}
	n->listener = NULL;
	/* The Reject carries it (upstream irdma_send_mpa_reject()). */
	n->pd_len = min_t(u16, pdata_len, E810CM_MPA_MAX_PD -
			  E810CM_MPA_V2_RTR_LEN);
	memcpy(n->pd, pdata, n->pd_len);
	if (n->sm.state == E810CM_MPAREQ_RCVD)
		irdma_cm_step(cm, n, E810CM_EV_USER_REJECT, NULL);
	irdma_cm_node_put(n);
	mutex_unlock(&rf->iw.lock);
	return 0;
}

/**
 * irdma_cm_listener_gone() - a listener is being destroyed
 * @rf: per-function state
 * @l: the listener
 *
 * Its connections iw_cm has not heard of are reset.
 *
 * Context: Process context, rf->iw.lock held.
 */
void irdma_cm_listener_gone(struct irdma_pci_f *rf, struct irdma_listener *l)
{
	struct irdma_cm *cm = irdma_cm_of(rf);
	struct irdma_cm_node *n, *tmp;

	lockdep_assert_held(&rf->iw.lock);
	if (!cm)
		return;
	list_for_each_entry_safe(n, tmp, &cm->nodes, list) {
		if (n->listener != l)
			continue;
		n->listener = NULL;
		if (!n->provider)
			irdma_cm_step(cm, n, E810CM_EV_USER_CLOSE, NULL);
	}
}

/* ---- setup and teardown ------------------------------------------------------ */

/**
 * irdma_cm_init() - no connections yet
 * @rf: per-function state in iWARP mode
 *
 * Context: Process context.
 * Return: 0 or -ENOMEM.
 */
int irdma_cm_init(struct irdma_pci_f *rf)
{
	struct irdma_cm *cm;

	cm = kzalloc(sizeof(*cm), GFP_KERNEL);
	if (!cm)
		return -ENOMEM;
	cm->rf = rf;
	INIT_LIST_HEAD(&cm->nodes);
	INIT_LIST_HEAD(&cm->rxq);
	INIT_LIST_HEAD(&cm->qpevq);
	spin_lock_init(&cm->rxq_lock);
	INIT_WORK(&cm->rx_work, irdma_cm_rx_work);
	INIT_DELAYED_WORK(&cm->timer, irdma_cm_timer_work);
	rf->iw.cm = cm;
	return 0;
}

/**
 * irdma_cm_stop() - the ib_device is going: end every connection
 * @rf: per-function state
 *
 * Nothing more is received or retransmitted; connects still pending are
 * answered (CONNECT_REPLY -ECONNRESET) so that iw_cm lets their ids go.
 *
 * Context: Process context, sleeps.
 */
void irdma_cm_stop(struct irdma_pci_f *rf)
{
	struct irdma_cm *cm = irdma_cm_of(rf);
	struct irdma_cm_node *n, *tmp;
	struct irdma_cm_rxseg *r, *rt;
	struct irdma_cm_qpev *e, *et;
	LIST_HEAD(qpevq);
	LIST_HEAD(rxq);

	if (!cm)
		return;
	spin_lock_bh(&cm->rxq_lock);
	WRITE_ONCE(cm->stopping, true);
	list_splice_init(&cm->rxq, &rxq);
	list_splice_init(&cm->qpevq, &qpevq);
	cm->rxq_len = 0;
	spin_unlock_bh(&cm->rxq_lock);
	cancel_work_sync(&cm->rx_work);
	cancel_delayed_work_sync(&cm->timer);
	list_for_each_entry_safe(r, rt, &rxq, list)
		kfree(r);
	list_for_each_entry_safe(e, et, &qpevq, list)
		kfree(e);
	mutex_lock(&rf->iw.lock);
	list_for_each_entry_safe(n, tmp, &cm->nodes, list)
		irdma_cm_close_node(cm, n);
	mutex_unlock(&rf->iw.lock);
}

/**
 * irdma_cm_fini() - undo irdma_cm_init()
 * @rf: per-function state
 *
 * Context: Process context, sleeps.
 */
void irdma_cm_fini(struct irdma_pci_f *rf)
{
	struct irdma_cm *cm = irdma_cm_of(rf);

	if (!cm)
		return;
	irdma_cm_stop(rf);
	rf->iw.cm = NULL;
	kfree(cm);
}

/**
 * irdma_cm_show() - the connection counters and nodes for debugfs "iwarp"
 * @m: the seq_file
 * @rf: per-function state
 *
 * Context: Process context, rf->iw.lock held.
 */
void irdma_cm_show(struct seq_file *m, struct irdma_pci_f *rf)
{
	struct irdma_cm *cm = irdma_cm_of(rf);
	const struct irdma_cm_stats *st;
	struct irdma_cm_node *n;

	if (!cm)
		return;
	st = &cm->stats;
	seq_printf(m, "cm_nodes %llu\ncm_nodes_created %llu\ncm_backlog_drops %llu\n",
		   st->nodes, st->nodes_created, st->backlog_drops);
	seq_printf(m, "cm_syn_sent %llu\ncm_synack_sent %llu\ncm_retransmits %llu\ncm_timeouts %llu\n",
		   st->syn_sent, st->synack_sent, st->retransmits,
		   st->timeouts);
	seq_printf(m, "cm_rst_sent %llu\ncm_rst_rcvd %llu\ncm_established_tcp %llu\n",
		   st->rst_sent, st->rst_rcvd, st->established_tcp);
	seq_printf(m, "cm_mpa_req_sent %llu\ncm_mpa_req_rcvd %llu\ncm_mpa_rep_rcvd %llu\n",
		   st->mpa_req_sent, st->mpa_req_rcvd, st->mpa_rep_rcvd);
	seq_printf(m, "cm_mpa_rej_sent %llu\ncm_mpa_rej_rcvd %llu\ncm_mpa_bad %llu\n",
		   st->mpa_rej_sent, st->mpa_rej_rcvd, st->mpa_bad);
	seq_printf(m, "cm_connect_requests %llu\ncm_connect_replies %llu\ncm_connect_errors %llu\n",
		   st->connect_requests, st->connect_replies,
		   st->connect_errors);
	seq_printf(m, "cm_offloads %llu\ncm_offload_errors %llu\ncm_established %llu\ncm_disconnects %llu\ncm_closes %llu\n",
		   st->offloads, st->offload_errors, st->established,
		   st->disconnects, st->closes);
	seq_printf(m, "cm_segs_dropped %llu\ncm_tx_errors %llu\ncm_rxq_drops %llu\ncm_timer_runs %llu\n",
		   st->segs_dropped, st->tx_errors, cm->rxq_drops,
		   st->timer_runs);
	list_for_each_entry(n, &cm->nodes, list)
		seq_printf(m, "conn %s lport %u rport %u state %s mpa_rev %u timer %u sent %u due %ld\n",
			   n->active ? "active" : "passive", n->qh.lport,
			   n->qh.rport, e810cm_state_name(n->sm.state),
			   n->sm.mpa_rev, n->timer, n->sent,
			   n->timer ? (long)(n->deadline - jiffies) : 0L);
}
