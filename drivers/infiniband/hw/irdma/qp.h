/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * irdma: verbs QPs (RoCEv2 RC and UD): state machine, the 256-byte host
 * context (docs/hw-reference.md 4.1) and the kernel rings (chapter 5).
 */
#ifndef IRDMA_QP_H
#define IRDMA_QP_H

#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

#include <hw/e810_ctx.h>
#include <hw/e810_uk.h>

#include "cq.h"
#include "main.h"
#include "ring.h"

struct irdma_qbuf;

/* GEN_2 QP limits (hw-reference 2.7, 6.2), advertised and enforced. */
#define IRDMA_MAX_SGE		E810_MAX_FRAGS	/* bounds stack arrays */
#define IRDMA_MAX_IRD		127
#define IRDMA_MAX_ORD		255

/* QP 0 is never used on RoCE; QP 1 is the GSI QP; users get the rest. */
#define IRDMA_GSI_QP_ID		1
#define IRDMA_FIRST_QP_ID	2

/**
 * struct irdma_iw_tcp - an iWARP connection as handed to the device: the
 *	TCP group of the context (upstream irdma_init_tcp_ctx()) and the
 *	agreed ORD/IRD
 * @ipv4: IPv4 (addresses in word 0), else IPv6 (word 0 most significant)
 * @lip: local address
 * @rip: remote address
 * @lport: local TCP port
 * @rport: remote TCP port
 * @vlan: VLAN id, 0xffff if none
 * @up: user priority (VLAN PCP)
 * @tos: IP TOS
 * @mss: MSS in force
 * @snd_wscale: the peer's window scale
 * @rcv_wscale: ours
 * @snd_nxt: next sequence number to send (after our MPA frame, if sent)
 * @rcv_nxt: next sequence number expected
 * @snd_wnd: the peer's window, scaled
 * @rcv_wnd: our window, scaled
 * @arp_idx: ARP entry of the peer
 * @ord: ORD the QP may use
 * @ird: IRD advertised
 */
struct irdma_iw_tcp {
	bool ipv4;
	u32 lip[4];
	u32 rip[4];
	u16 lport;
	u16 rport;
	u16 vlan;
	u8 up;
	u8 tos;
	u16 mss;
	u8 snd_wscale;
	u8 rcv_wscale;
	u32 snd_nxt;
	u32 rcv_nxt;
	u32 snd_wnd;
	u32 rcv_wnd;
	int arp_idx;
	u16 ord;
	u16 ird;
};

/* Attributes the context is built from, as set by modify_qp. */
struct irdma_qp_av {
	bool valid;
	bool ipv4;
	u32 sip[4];
	u32 dip[4];
	u8 dmac[ETH_ALEN];
	u16 vlan;	/* VLAN id, 0xffff if none */
	u8 up;		/* user priority: qset and VLAN PCP */
	u8 tclass;
	u8 hop_limit;
	u32 flow_label;
	u16 sport;
	int arp_idx;
};

/**
 * struct irdma_qp - a verbs QP
 * @ibqp: the ib_qp (first)
 * @rf: the function
 * @qp_id: QP number
 * @hw_type: E810_QP_TYPE_ROCE_RC or _UD
 * @user: rings in user memory (@qb)
 * @virt: SQ/RQ addresses are PBLE indexes (VQ)
 * @sq_addr: SQ PA or PBLE index
 * @rq_addr: RQ PA or PBLE index
 * @shadow_pa: QP doorbell shadow area
 * @compl_ctx: QP completion context (ctx off 168)
 * @uctx: user context of a user QP
 * @qb: user ring buffer
 * @ctx: the host context (256 bytes)
 * @kbuf: kernel rings + shadow area
 * @sq_shift: SQ WQE size code (limits SGEs per WQE)
 * @rq_shift: RQ WQE size code
 * @sq_depth: SQ quanta
 * @rq_depth: RQ quanta
 * @ring: kernel SQ and RQ in the shared ring layer (lib/irdma-ring/):
 *	heads, tails, polarity, per-WQE tracking
 * @cap: capabilities reported to the consumer
 * @sq_sig_type: every send WR signaled, or only those that ask
 * @state: IB state
 * @hw_state: E810_QP_STATE_* last sent (INVALID: no device QP, a re-create
 *	for RESET failed)
 * @attr: the attributes set so far (query_qp)
 * @av: resolved address vector (RC)
 * @pd_id: PD
 * @scq: send CQ
 * @rcq: receive CQ
 * @slink: link on @scq's list (kernel)
 * @rlink: link on @rcq's list (kernel)
 * @flush_sq: kernel: outstanding SQ WQEs complete with flush status
 * @flush_rq: kernel: outstanding RQ WQEs complete with flush status
 * @sq_draining: kernel: @flush_sq covers the WQEs up to @sq_flush_end only
 *	(those the device flushed before an SQE -> RTS recovery)
 * @sq_flush_end: kernel: the device's SQ fetch position at that recovery
 * @ae_flags: IRDMA_QP_AE_* of AEs @ae_work has yet to act on
 * @lock: kernel rings and flush flags
 * @mutex: serializes modify/destroy
 * @ae_work: moves the QP to ERR after a fatal AE, a UD QP to SQE after a
 *	send error
 * @last_ae: last AE code seen
 * @suspend_pending: moved to SQD, the device's suspend-complete AE not seen
 *	yet (rf->suspend_wq)
 * @user_pri: user priority of the QP's traffic (ws.c)
 * @ws_tc: traffic class whose qset the QP holds (ws.c)
 * @qs_handle: QS handle of that qset, written into the context
 * @ws_link: entry in rf->ws.qps
 * @iw_tcp: iWARP: the connection handed to the device, valid with
 *	@iw_offloaded (the context's TCP group is written from then on)
 * @iw_offloaded: iWARP: MODIFY_QP to RTS with TOECTXVALID was sent
 * @hw_tcp_state: iWARP: the TCP state (E810_TCPSTATE_*) of the QP's last
 *	AEQE, ESTABLISHED from the offload, CLOSED once the connection
 *	manager let it go (upstream hw_tcp_state): a move to ERROR resets
 *	the connection while it is open (e810_tcpstate_open())
 * @hw_iwarp_state: iWARP: the QP state of the QP's last AEQE (upstream
 *	hw_iwarp_state): an error AE in RTS or TERMINATE is answered with a
 *	Terminate, in any other state with ERROR
 * @iw_refs: iWARP: iw_cm's references (iw_add_ref/iw_rem_ref)
 * @iw_free: iWARP: completed when @iw_refs drops to 0
 * @lsmm: iWARP, passive side: the MPA Reply the LSMM WQE sends
 * @term_flags: iWARP: IRDMA_TERM_* of the Terminate exchange (upstream
 *	term_flags), under @mutex
 * @term_ae: iWARP: the error AE a Terminate is to answer
 * @term_q2: iWARP: that AE's Q2DATA (the segment is at Q2 + 72)
 * @term_timer: iWARP: ends the Terminate exchange after 1 s (upstream
 *	irdma_terminate_start_timer())
 * @reflush: iWARP, user QPs: flushes both queues again while the QP is
 *	in ERROR (irdma_iw_qp_reflush_work())
 * @reflush_ms: @reflush's next interval
 * @lsmm_mr: the DMA MR @lsmm is sent through
 */
struct irdma_qp {
	struct ib_qp ibqp;
	struct irdma_pci_f *rf;
	u32 qp_id;
	u8 hw_type;
	bool user;
	bool virt;
	u64 sq_addr;
	u64 rq_addr;
	u64 shadow_pa;
	u64 compl_ctx;
	struct irdma_ucontext *uctx;
	struct irdma_qbuf *qb;
	struct irdma_dma ctx;
	struct irdma_dma kbuf;
	u8 sq_shift;
	u8 rq_shift;
	u32 sq_depth;
	u32 rq_depth;
	struct e810u_qp ring;
	struct ib_qp_cap cap;
	enum ib_sig_type sq_sig_type;
	enum ib_qp_state state;
	u8 hw_state;
	struct ib_qp_attr attr;
	struct irdma_qp_av av;
	u32 pd_id;
	struct irdma_cq *scq;
	struct irdma_cq *rcq;
	struct irdma_cq_link slink;
	struct irdma_cq_link rlink;
	bool flush_sq;
	bool flush_rq;
	bool sq_draining;
	u32 sq_flush_end;
	unsigned long ae_flags;
	spinlock_t lock;	/* kernel rings, flush flags */
	struct mutex mutex;	/* modify, destroy */
	struct work_struct ae_work;
	u16 last_ae;
	bool suspend_pending;
	u8 user_pri;
	u8 ws_tc;
	u16 qs_handle;
	struct list_head ws_link;
	struct irdma_iw_tcp iw_tcp;
	bool iw_offloaded;
	u8 hw_tcp_state;
	u8 hw_iwarp_state;
	refcount_t iw_refs;
	struct completion iw_free;
	struct irdma_dma lsmm;
	struct ib_mr *lsmm_mr;
	u8 term_flags;
	u16 term_ae;
	u8 term_q2;
	struct delayed_work term_timer;
	struct delayed_work reflush;
	u32 reflush_ms;
};

static inline struct irdma_qp *to_irdma_qp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct irdma_qp, ibqp);
}

#define IRDMA_QP_AE_FATAL	0	/* ae_flags bit: to ERR */
#define IRDMA_QP_AE_SQE		1	/* ae_flags bit: UD send error, to SQE */
#define IRDMA_QP_AE_TERM	2	/* iWARP error AE: send a Terminate */
#define IRDMA_QP_AE_TERM_FIN	3	/* iWARP: Terminate sent, now the FIN */
#define IRDMA_QP_AE_TERM_RCVD	4	/* iWARP: the peer's Terminate in Q2 */
#define IRDMA_QP_AE_TERM_DONE	5	/* iWARP: close done after a Terminate */

#define IRDMA_TERM_SENT		BIT(0)	/* our Terminate went out */
#define IRDMA_TERM_RCVD		BIT(1)	/* the peer's Terminate came in */
#define IRDMA_TERM_DONE		BIT(2)	/* the QP went to ERROR after it */

/* Last SQ quantum (exclusive) a kernel flush reports; caller holds lock. */
static inline u32 irdma_qp_sq_flush_end(const struct irdma_qp *qp)
{
	return qp->sq_draining ? qp->sq_flush_end : qp->ring.sq_head;
}

/* UD and the GSI QP (a UD QP to the device) share the UD paths. */
static inline bool irdma_qp_is_ud(const struct irdma_qp *qp)
{
	return qp->hw_type == E810_QP_TYPE_ROCE_UD;
}

/* qp.c */
int irdma_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		    struct ib_udata *udata);
int irdma_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		    struct ib_udata *udata);
int irdma_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		   struct ib_qp_init_attr *init);
int irdma_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);

/* qp.c: iWARP (iw_cm's QP references, the offload from cm.c) */
void irdma_iw_qp_add_ref(struct irdma_qp *qp);
void irdma_iw_qp_rem_ref(struct irdma_qp *qp);
int irdma_iw_qp_conn_wqes(struct irdma_qp *qp, const void *lsmm, u32 len,
			  bool rtr);
int irdma_iw_qp_offload(struct irdma_qp *qp, const struct irdma_iw_tcp *tcp);
int irdma_iw_qp_close(struct irdma_qp *qp, bool reset);
int irdma_iw_qp_flush(struct irdma_qp *qp);

/* qp_ctx.c */
void irdma_qp_ctx_write(struct irdma_qp *qp);
u32 irdma_qp_wq_size_code(u32 quanta);

/* uk.c: kernel rings */
void irdma_sq_ring(struct irdma_qp *qp);
int irdma_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		    const struct ib_send_wr **bad_wr);
int irdma_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		    const struct ib_recv_wr **bad_wr);
int irdma_poll_one(struct irdma_cq *cq, struct irdma_cq_ring *r,
		   struct ib_wc *wc);
int irdma_flush_one(struct irdma_cq *cq, struct ib_wc *wc);

/* ws.c */
u8 irdma_ws_up(const struct ib_gid_attr *sgid, u8 tclass);
int irdma_ws_qp_attach(struct irdma_qp *qp, u8 up);
void irdma_ws_qp_detach(struct irdma_qp *qp);
int irdma_ws_qp_set_up(struct irdma_qp *qp, u8 up);

/* restrack_qp.c */
int irdma_fill_res_qp_entry(struct sk_buff *msg, struct ib_qp *ibqp);
int irdma_fill_res_qp_entry_raw(struct sk_buff *msg, struct ib_qp *ibqp);

#endif /* IRDMA_QP_H */
