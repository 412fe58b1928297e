/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * irdma: iWARP mode (docs/irdma.md "iWARP mode"): the ILQ, the privileged
 * UDA QP the connection manager sends and receives TCP segments through
 * (ilq.c); the engine's port and connection tables, APBVT and quad hash,
 * and the iw_cm operations (iw.c).
 */
#ifndef IRDMA_IW_H
#define IRDMA_IW_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <rdma/iw_cm.h>

#include "cm.h"
#include "main.h"
#include "ring.h"

/* The ILQ's ids (upstream irdma_initialize_ilq()): QP 1 on CQ 1. */
#define IRDMA_ILQ_QP_ID		1
#define IRDMA_ILQ_CQ_ID		1
/*
 * QP 2 is the IEQ's id upstream (irdma_initialize_ieq()) and every iWARP
 * QP context names it as its exception queue; the model never steers a
 * segment there (docs/hw-model.md "iWARP mode"), so we create no IEQ but
 * keep the id out of the verbs QPs' range.
 */
#define IRDMA_IEQ_QP_ID		2
#define IRDMA_IW_FIRST_QP_ID	3
#define IRDMA_IW_FIRST_CQ_ID	2

/* ILQ geometry: one-quantum WQEs, 1 KiB buffers (upstream's ILQ size). */
#define IRDMA_ILQ_SQ_SIZE	128
#define IRDMA_ILQ_RQ_SIZE	128
#define IRDMA_ILQ_BUF_SIZE	1024
/* IPv4/IPv6 header area before the TCP header in a receive buffer. */
#define IRDMA_ILQ_TCP_OFF	40

/**
 * struct irdma_ilq_rx - one segment the ILQ received
 * @buf: the buffer: IPv4 header at 20 or IPv6 at 0, TCP header at 40
 * @len: bytes in @buf (40 + TCP header + payload), checked <= buffer size
 * @ipv4: IPv4 (else IPv6)
 * @smac_valid: @smac holds the source MAC
 * @smac: source MAC
 * @vlan_valid: @vlan holds the 802.1Q TCI
 * @vlan: TCI
 */
struct irdma_ilq_rx {
	const u8 *buf;
	u32 len;
	bool ipv4;
	bool smac_valid;
	u8 smac[ETH_ALEN];
	bool vlan_valid;
	u16 vlan;
};

/**
 * struct irdma_ilq_stats - ILQ counters (debugfs "iwarp")
 * @rx: segments received and handed to the connection manager
 * @rx_errors: receive CQEs with an error or a bad length (dropped)
 * @tx: segments sent
 * @tx_full: sends refused for want of a buffer
 * @tx_errors: send CQEs with an error
 */
struct irdma_ilq_stats {
	u64 rx;
	u64 rx_errors;
	u64 tx;
	u64 tx_full;
	u64 tx_errors;
};

/**
 * struct irdma_ilq - the ILQ (ilq.c)
 * @rf: the function
 * @qmem: SQ, RQ, QP shadow area and the 256-byte host context
 * @cqmem: CQ ring and its shadow area
 * @rxbuf: @IRDMA_ILQ_RQ_SIZE receive buffers
 * @txbuf: @IRDMA_ILQ_SQ_SIZE transmit buffers, one per SQ quantum
 * @ring: RQ bookkeeping in the shared ring layer
 * @cq: CQ ring in the shared ring layer
 * @sq_head: next SQ quantum
 * @sq_pol: valid bit of the current SQ pass
 * @sq_busy: SQ quanta (= transmit buffers) sent and not completed
 * @qs_handle: the qset the ILQ transmits on
 * @ws_tc: its traffic class
 * @created: the QP exists in the device
 * @cq_created: the CQ exists in the device
 * @lock: SQ, CQ polling, @stats
 * @stats: counters
 * @rx_frame: GEN_1: a received frame's segment, laid out as GEN_2's
 */
struct irdma_ilq {
	struct irdma_pci_f *rf;
	struct irdma_dma qmem;
	struct irdma_dma cqmem;
	struct irdma_dma rxbuf;
	struct irdma_dma txbuf;
	struct e810u_qp ring;
	struct e810u_cq_ring cq;
	u32 sq_head;
	u8 sq_pol;
	DECLARE_BITMAP(sq_busy, IRDMA_ILQ_SQ_SIZE);
	u16 qs_handle;
	u8 ws_tc;
	bool created;
	bool cq_created;
	spinlock_t lock;	/* SQ, CQ, stats */
	struct irdma_ilq_stats stats;
	u8 *rx_frame;
};

/* MANAGE field of MANAGE_QUAD_HASH_TABLE_ENTRY, and its entry types. */
#define IRDMA_QHASH_DEL		0
#define IRDMA_QHASH_ADD		1
#define IRDMA_QHASH_TCP_EST	1
#define IRDMA_QHASH_TCP_SYN	2

/**
 * struct irdma_qhash - one quad hash entry
 * @ipv4: IPv4 addresses (in word 0 of @lip/@rip)
 * @lip: local address, host order words, IPv6 word 0 most significant
 * @rip: remote address (connection entries)
 * @lport: local TCP port
 * @rport: remote TCP port (connection entries)
 * @vlan: VLAN id, or 0xffff for none
 * @est: a connection (TCP_ESTABLISHED) entry, else a listen (TCP_SYN) one
 */
struct irdma_qhash {
	bool ipv4;
	u32 lip[4];
	u32 rip[4];
	u16 lport;
	u16 rport;
	u16 vlan;
	bool est;
};

/**
 * struct irdma_listener - one iw_cm listener
 * @node: entry in rf->iw.listeners (under rf->iw.lock, readers too)
 * @cm_id: its iw_cm id (a reference held)
 * @sm: its state (LISTENING while it listens)
 * @port: local TCP port
 * @backlog: connection requests it may have pending
 * @wildcard: bound to the wildcard address of its family: its entries
 *	follow the netdev's addresses (irdma_iw_addr_work())
 * @ipv4: its family
 * @children: passive connections its SYNs made that are not closed: its
 *	listen entries, APBVT reference and memory stay while there are any
 *	(upstream's listener refcount, irdma_dec_refcnt_listen())
 * @gone: iw_cm destroyed it while it had @children: it takes no SYN (the
 *	engine still steers them to the ILQ, where they are dropped) until
 *	a listen on the same address and port adopts it (upstream
 *	IRDMA_CM_LISTENER_PASSIVE_STATE and reused_node)
 * @nqh: entries in @qh
 * @qh: its listen entries in the quad hash
 */
struct irdma_listener {
	struct list_head node;
	struct iw_cm_id *cm_id;
	struct e810cm_conn sm;
	u16 port;
	int backlog;
	bool wildcard;
	bool ipv4;
	u32 children;
	bool gone;
	u32 nqh;
	struct irdma_qhash qh[];
};

/* ilq.c */
int irdma_ilq_create(struct irdma_pci_f *rf);
void irdma_ilq_destroy(struct irdma_pci_f *rf);
bool irdma_ilq_ceq_event(struct irdma_pci_f *rf, u32 cq_id);
int irdma_ilq_send(struct irdma_pci_f *rf, u32 ah_id, const void *seg,
		   u32 len, u32 tcp_hlen);

/**
 * struct irdma_ilq_l2 - GEN_1: the addressing of a frame the ILQ builds
 * @dmac: next hop's MAC
 * @vlan: 802.1Q TCI, or 0xffff for none
 * @ipv4: IPv4 (else IPv6)
 * @lip: source address (struct irdma_qhash's word order)
 * @rip: destination address
 * @ip_id: IPv4 identification
 * @loopback: to ourselves: the device turns the frame around
 */
struct irdma_ilq_l2 {
	u8 dmac[ETH_ALEN];
	u16 vlan;
	bool ipv4;
	u32 lip[4];
	u32 rip[4];
	u16 ip_id;
	bool loopback;
};

int irdma_ilq_send_gen1(struct irdma_pci_f *rf, const struct irdma_ilq_l2 *l2,
			const void *seg, u32 len, u32 tcp_hlen);
void irdma_ilq_show(struct seq_file *m, struct irdma_pci_f *rf);

/* iw.c */
int irdma_qhash_op(struct irdma_pci_f *rf, const struct irdma_qhash *e,
		   u8 manage);
int irdma_apbvt_get(struct irdma_pci_f *rf, u16 port);
void irdma_apbvt_put(struct irdma_pci_f *rf, u16 port);
int irdma_iw_init(struct irdma_pci_f *rf);
void irdma_iw_fini(struct irdma_pci_f *rf);
void irdma_iw_addrs_changed(struct irdma_pci_f *rf);
void irdma_iw_rx(struct irdma_pci_f *rf, const struct irdma_ilq_rx *rx);
void irdma_iw_set_device_ops(struct ib_device *ibdev);
int irdma_iw_show(struct seq_file *m, struct irdma_pci_f *rf);
void irdma_listener_child_gone(struct irdma_pci_f *rf,
			       struct irdma_listener *l);

/* cm.c: connections */
int irdma_cm_init(struct irdma_pci_f *rf);
void irdma_cm_stop(struct irdma_pci_f *rf);
void irdma_cm_fini(struct irdma_pci_f *rf);
void irdma_cm_rx(struct irdma_pci_f *rf, const struct irdma_ilq_rx *rx);
void irdma_cm_listener_gone(struct irdma_pci_f *rf, struct irdma_listener *l);
int irdma_cm_connect(struct iw_cm_id *cm_id, struct iw_cm_conn_param *param);
int irdma_cm_accept(struct iw_cm_id *cm_id, struct iw_cm_conn_param *param);
int irdma_cm_reject(struct iw_cm_id *cm_id, const void *pdata, u8 pdata_len);
void irdma_cm_show(struct seq_file *m, struct irdma_pci_f *rf);

/*
 * What a QP tells its connection besides its AEs (cm.c takes the AE
 * codes of the connection, 0x050E, 0x0501..0x0503, 0x0201, 0x0202, 0x0601).
 */
#define IRDMA_CM_QPEV_CLOSING	0xF001	/* iw_cm's SQD: CLOSING sent */
#define IRDMA_CM_QPEV_ERR	0xF002	/* the QP went to ERROR */

struct irdma_qp;
void irdma_cm_qp_event(struct irdma_pci_f *rf, u32 qp_id, u16 ev);
void irdma_cm_qp_gone(struct irdma_pci_f *rf, struct irdma_qp *qp);

/* An address of @sa as quad hash words; false for another family. */
bool irdma_sa_words(const struct sockaddr_storage *sa, bool *ipv4, u32 ip[4],
		    u16 *port);

#endif /* IRDMA_IW_H */
