/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The start of irdma's iWARP connection manager as a library without
 * I/O: MPA Request/Reply/Reject frames (RFC 5044 section 7.1, enhanced
 * with RFC 6581 "MPA v2"), IRD/ORD and RTR negotiation, and the state
 * machine of one connection (upstream keeps all of it in irdma's cm.c,
 * entangled with the ILQ, timers and locks). The state machine returns
 * what to do (segments to send, offload, iw_cm events to post); the glue
 * does it. docs/irdma.md, "iWARP connection manager (in progress)".
 *
 * Nothing here depends on kernel objects: each home compiles these files
 * against its own "cm_os.h" (drivers/infiniband/hw/irdma/ for irdma.ko,
 * tests/unit/ for the host tests and the fuzz harness), which provides
 * u8/u16/u32, bool, memcpy()/memset()/memcmp() and the errno values.
 * Functions return 0 (or a length) or a negative errno value.
 */
#ifndef E810CM_CM_H
#define E810CM_CM_H

#include "cm_os.h"	/* from the including home: see above */

/* ---- MPA frames --------------------------------------------------------- */

#define E810CM_MPA_KEY_LEN	16
/* Key, flags, revision, private data length. */
#define E810CM_MPA_HDR_LEN	(E810CM_MPA_KEY_LEN + 4)
/* RFC 6581 section 9: the IRD and ORD words that open v2 private data. */
#define E810CM_MPA_V2_RTR_LEN	4
/*
 * Longest private data field (v2: the RTR words included), as upstream
 * irdma (IETF_MAX_PRIV_DATA_LEN) and iw_cm (MPA_MAX_PRIVATE_DATA).
 */
#define E810CM_MPA_MAX_PD	512
#define E810CM_MPA_MAX_FRAME	(E810CM_MPA_HDR_LEN + E810CM_MPA_MAX_PD)

/* The flags byte (RFC 5044 section 7.1: M, C, R, then reserved bits). */
#define E810CM_MPA_FLAG_MARKERS		0x80
#define E810CM_MPA_FLAG_CRC		0x40
#define E810CM_MPA_FLAG_REJECT		0x20
/*
 * Sent in revision 2 frames by Linux's iWARP drivers (irdma, siw, cxgb4)
 * and not required on receipt (irdma does not check it).
 */
#define E810CM_MPA_FLAG_ENHANCED	0x10
#define E810CM_MPA_FLAG_RES		0x0f

/* RFC 6581 section 9: control flags A and B of the IRD word, C and D of ORD. */
#define E810CM_MPA_V2_IRD_P2P		0x8000	/* A: peer-to-peer, RTR wanted */
#define E810CM_MPA_V2_IRD_ZERO_RTR	0x4000	/* B: zero-length SEND RTR */
#define E810CM_MPA_V2_ORD_WRITE_RTR	0x8000	/* C: zero-length WRITE RTR */
#define E810CM_MPA_V2_ORD_READ_RTR	0x4000	/* D: zero-length READ RTR */
#define E810CM_MPA_V2_IRD_ORD_MASK	0x3fff
/* IRD/ORD value "no limit given" (irdma's IRDMA_MPA_IRD_ORD_NO_LIMIT_IND). */
#define E810CM_MPA_V2_NO_LIMIT		0x3fff

enum e810cm_mpa_type {
	E810CM_MPA_REQUEST,
	E810CM_MPA_REPLY,	/* a reject is a reply with the R flag */
};

/* RTR message types (bit mask: a request may offer several). */
#define E810CM_RTR_SEND		0x1	/* B */
#define E810CM_RTR_WRITE	0x2	/* C */
#define E810CM_RTR_READ		0x4	/* D */
#define E810CM_RTR_ALL		0x7

/**
 * struct e810cm_mpa - one MPA Request or Reply, decoded or to be built
 * @type: request or reply
 * @rev: 1 (RFC 5044) or 2 (RFC 6581)
 * @markers: M flag
 * @crc: C flag
 * @reject: R flag (replies only)
 * @enhanced: the 0x10 flag (built into every revision 2 frame)
 * @p2p: v2: A flag, the peer-to-peer model (an RTR message follows)
 * @rtr: v2: E810CM_RTR_* offered (request) or chosen (reply, at most one)
 * @ird: v2: IRD, 14 bits
 * @ord: v2: ORD, 14 bits
 * @pd: the user's private data (after the v2 words), into the frame
 * @pd_len: its length
 */
struct e810cm_mpa {
	enum e810cm_mpa_type type;
	u8 rev;
	bool markers;
	bool crc;
	bool reject;
	bool enhanced;
	bool p2p;
	u8 rtr;
	u16 ird;
	u16 ord;
	const u8 *pd;
	u16 pd_len;
};

int e810cm_mpa_build(u8 *buf, u32 len, const struct e810cm_mpa *mpa);
int e810cm_mpa_parse(const u8 *buf, u32 len, enum e810cm_mpa_type type,
		     u8 max_rev, struct e810cm_mpa *mpa);

/**
 * struct e810cm_mpa_rx - the MPA frame of one connection, gathered from
 *	the in-order payload of its segments before the offload
 * @len: bytes held
 * @buf: the bytes
 */
struct e810cm_mpa_rx {
	u32 len;
	u8 buf[E810CM_MPA_MAX_FRAME];
};

int e810cm_mpa_feed(struct e810cm_mpa_rx *rx, const u8 *data, u32 len,
		    enum e810cm_mpa_type type, u8 max_rev,
		    struct e810cm_mpa *mpa);

/* ---- IRD/ORD and RTR negotiation ---------------------------------------- */

/**
 * struct e810cm_neg - one side's limits and wishes, and the outcome
 * @ird: in: local IRD (RDMA Reads the QP accepts at once); out: advertised
 * @ord: in: local ORD wanted; out: ORD the QP may use
 * @rtr: in (initiator): RTR types offered; out: the one chosen, 0 if none
 * @p2p: out: the peer-to-peer model is in force (an RTR is exchanged)
 * @rev: out: the revision agreed
 */
struct e810cm_neg {
	u16 ird;
	u16 ord;
	u8 rtr;
	bool p2p;
	u8 rev;
};

void e810cm_mpa_request(const struct e810cm_neg *local, u8 rev,
			struct e810cm_mpa *req);
int e810cm_mpa_respond(const struct e810cm_mpa *req,
		       struct e810cm_neg *local, struct e810cm_mpa *rep);
int e810cm_mpa_complete(const struct e810cm_mpa *req,
			const struct e810cm_mpa *rep,
			struct e810cm_neg *local);

/* ---- the connection state machine --------------------------------------- */

enum e810cm_state {
	E810CM_IDLE,		/* created, neither listening nor connecting */
	E810CM_LISTENING,	/* listener, or a passive node before its SYN */
	E810CM_SYN_RCVD,	/* passive: SYN-ACK sent */
	E810CM_SYN_SENT,	/* active: SYN sent */
	E810CM_MPAREQ_WAIT,	/* passive: TCP up, waiting for the Request */
	E810CM_MPAREQ_RCVD,	/* passive: CONNECT_REQUEST posted, user decides */
	E810CM_MPAREQ_SENT,	/* active: Request sent, waiting for the Reply */
	E810CM_MPAREJ_RCVD,	/* active: Reject received, peer closes */
	E810CM_ACCEPTING,	/* passive: offloaded with the Reply, wait RTS */
	E810CM_OFFLOADED,	/* the hardware owns the connection (RTS) */
	E810CM_DISCONNECTING,	/* offloaded and closing (QP CLOSING) */
	E810CM_FIN_WAIT1,	/* not offloaded: our FIN sent */
	E810CM_FIN_WAIT2,	/* not offloaded: our FIN acknowledged */
	E810CM_TCP_CLOSING,	/* not offloaded: FINs crossed */
	E810CM_TIME_WAIT,	/* not offloaded: both FINs done */
	E810CM_LAST_ACK,	/* not offloaded: peer's FIN, then ours sent */
	E810CM_CLOSED,		/* nothing left to do; free when unreferenced */
	E810CM_NUM_STATES,
};

enum e810cm_event {
	E810CM_EV_USER_LISTEN,	/* iw_cm create_listen */
	E810CM_EV_USER_CONNECT,	/* iw_cm connect */
	E810CM_EV_USER_ACCEPT,	/* iw_cm accept */
	E810CM_EV_USER_REJECT,	/* iw_cm reject */
	E810CM_EV_USER_CLOSE,	/* disconnect, destroy_listen, cm_id gone */
	E810CM_EV_RX_SYN,	/* SYN without ACK */
	E810CM_EV_RX_SYNACK,
	E810CM_EV_RX_ACK,	/* an ACK that acknowledges something new */
	E810CM_EV_RX_FIN,	/* segment or AE 0x0503 LLP_FIN_RECEIVED */
	E810CM_EV_RX_RST,	/* segment or AE 0x0502 LLP_CONNECTION_RESET */
	E810CM_EV_RX_MPA_REQ,	/* a valid, acceptable MPA Request */
	E810CM_EV_RX_MPA_REP,	/* a valid MPA Reply, negotiation succeeded */
	E810CM_EV_RX_MPA_REJ,	/* a valid MPA Reply with the R flag */
	E810CM_EV_RX_MPA_BAD,	/* malformed MPA, wrong key, failed negotiation */
	E810CM_EV_TIMEOUT,	/* retransmissions exhausted or state timer */
	E810CM_EV_HW_ESTABLISHED, /* AE 0x050E LLP_CONNECTION_ESTABLISHED */
	E810CM_EV_HW_CLOSED,	/* AE 0x0501 LLP_CLOSE_COMPLETE */
	E810CM_NUM_EVENTS,
};

/* Actions (a bit mask), in the order the glue carries them out. */
#define E810CM_ACT_STOP_RETX	0x0001	/* the frame awaiting an ACK is acked */
#define E810CM_ACT_SEND_SYN	0x0002
#define E810CM_ACT_SEND_SYNACK	0x0004
#define E810CM_ACT_SEND_ACK	0x0008	/* a pure ACK */
#define E810CM_ACT_SEND_MPA_REQ	0x0010
#define E810CM_ACT_SEND_MPA_REJ	0x0020	/* Reply with R, private data */
#define E810CM_ACT_SEND_FIN	0x0040	/* FIN|ACK (after the Reject) */
#define E810CM_ACT_SEND_RST	0x0080
/* Hand the connection to the hardware (context, connection WQEs, RTS);
 * with SEND_MPA_REP the Reply is the LSMM (first stream bytes).
 */
#define E810CM_ACT_SEND_MPA_REP	0x0100
#define E810CM_ACT_OFFLOAD	0x0200
#define E810CM_ACT_QP_CLOSE	0x0400	/* QP to CLOSING: hardware sends FIN */
#define E810CM_ACT_QP_RESET	0x0800	/* QP to ERROR with RESETCON: RST */
#define E810CM_ACT_QP_FLUSH	0x1000	/* flush the QP's SQ and RQ */
#define E810CM_ACT_START_RETX	0x2000	/* retransmit the frame just sent */
#define E810CM_ACT_CLOSE_TIMER	0x4000	/* TIME_WAIT / close timer */

/* iw_cm events to post, as IW_CM_EVENT_*. */
enum e810cm_iw_event {
	E810CM_IW_NONE,
	E810CM_IW_CONNECT_REQUEST,
	E810CM_IW_CONNECT_REPLY,
	E810CM_IW_ESTABLISHED,
	E810CM_IW_DISCONNECT,
	E810CM_IW_CLOSE,
};

#define E810CM_MAX_IW_EVENTS	2

/**
 * struct e810cm_out - what one transition asks the glue to do
 * @state: the state after the transition
 * @actions: E810CM_ACT_*
 * @num_iw: number of entries in @iw
 * @iw: iw_cm events to post, in order, with their status
 * @status: for USER_ACCEPT: what the accept returns (0 or -ECONNRESET)
 * @ignored: the event means nothing in this state (a stray segment):
 *	nothing changed, nothing to do
 */
struct e810cm_out {
	enum e810cm_state state;
	u32 actions;
	u8 num_iw;
	struct {
		enum e810cm_iw_event type;
		int status;
	} iw[E810CM_MAX_IW_EVENTS];
	int status;
	bool ignored;
};

/**
 * struct e810cm_conn - one connection's state machine
 * @state: E810CM_*
 * @mpa_rev: MPA revision used next (2, or 1 after an RST to a v2 attempt)
 * @disc_posted: DISCONNECT already posted to iw_cm
 */
struct e810cm_conn {
	enum e810cm_state state;
	u8 mpa_rev;
	bool disc_posted;
};

void e810cm_conn_init(struct e810cm_conn *conn, u8 mpa_rev);
int e810cm_step(struct e810cm_conn *conn, enum e810cm_event ev,
		struct e810cm_out *out);
const char *e810cm_state_name(enum e810cm_state state);
const char *e810cm_event_name(enum e810cm_event ev);

/* ---- TCP segments (tcp.c) ------------------------------------------------ */

/* TCP header offset in an ILQ receive buffer (upstream IRDMA_TCP_OFFSET). */
#define E810CM_ILQ_TCP_OFF	40
#define E810CM_TCP_HLEN_MIN	20

/* TCP flags (the header's byte 13). */
#define E810CM_TCP_FIN		0x01
#define E810CM_TCP_SYN		0x02
#define E810CM_TCP_RST		0x04
#define E810CM_TCP_PSH		0x08
#define E810CM_TCP_ACK		0x10
#define E810CM_TCP_URG		0x20

/**
 * struct e810cm_seg - one TCP segment, received (parsed) or to send
 * @ipv4: IPv4 (addresses in word 0), else IPv6 (word 0 most significant)
 * @lip: local address (received: the IP destination)
 * @rip: remote address (received: the IP source)
 * @tos: IPv4 TOS / IPv6 traffic class (received)
 * @ttl: TTL / hop limit (received)
 * @lport: local port (received: destination; sent: source)
 * @rport: remote port
 * @seq: sequence number
 * @ack: acknowledgment number
 * @flags: E810CM_TCP_*
 * @window: window field, unscaled
 * @has_mss: an MSS option (sent: with the window scale option)
 * @mss: its value
 * @has_ws: a window scale option
 * @ws: its shift (received: at most 14)
 * @hlen: TCP header length with options
 * @payload: the bytes after the header
 * @payload_len: their number
 */
struct e810cm_seg {
	bool ipv4;
	u32 lip[4];
	u32 rip[4];
	u8 tos;
	u8 ttl;
	u16 lport;
	u16 rport;
	u32 seq;
	u32 ack;
	u8 flags;
	u16 window;
	bool has_mss;
	u16 mss;
	bool has_ws;
	u8 ws;
	u32 hlen;
	const u8 *payload;
	u32 payload_len;
};

int e810cm_seg_parse(const u8 *buf, u32 len, bool ipv4, struct e810cm_seg *s);
int e810cm_seg_build(u8 *buf, u32 len, struct e810cm_seg *s);
bool e810cm_seq_before(u32 a, u32 b);

/**
 * struct e810cm_tcb - one connection's sequence space before the offload
 * @lport: our port
 * @rport: the peer's
 * @snd_nxt: next sequence number we send (upstream loc_seq_num)
 * @snd_una: oldest we sent that is not acknowledged
 * @snd_wnd: the peer's window, scaled
 * @rcv_nxt: next sequence number we expect
 * @rcv_wnd: our receive window, scaled
 * @mss: MSS in force: ours, lowered to the peer's
 * @min_mss: below this a peer's MSS aborts the open
 * @snd_wscale: the peer's window scale (0 without the option)
 * @rcv_wscale: ours
 * @synced: the peer's SYN was taken (rcv_nxt is valid)
 * @fin_rcvd: the peer's FIN was taken
 */
struct e810cm_tcb {
	u16 lport;
	u16 rport;
	u32 snd_nxt;
	u32 snd_una;
	u32 snd_wnd;
	u32 rcv_nxt;
	u32 rcv_wnd;
	u16 mss;
	u16 min_mss;
	u8 snd_wscale;
	u8 rcv_wscale;
	bool synced;
	bool fin_rcvd;
};

/**
 * struct e810cm_rx - what one received segment means
 * @num: entries in @ev
 * @ev: events for e810cm_step(), in order
 * @data: new in-order payload, or NULL
 * @data_len: its length
 */
struct e810cm_rx {
	u8 num;
	enum e810cm_event ev[2];
	const u8 *data;
	u32 data_len;
};

void e810cm_tcb_init(struct e810cm_tcb *t, u32 isn, u16 mss, u16 min_mss);
int e810cm_tcb_rx(struct e810cm_tcb *t, const struct e810cm_seg *s,
		  struct e810cm_rx *rx);
int e810cm_tcb_tx(struct e810cm_tcb *t, u8 flags, const u8 *payload, u32 len,
		  u8 *buf, u32 buflen);

/* ---- retransmission before the offload (tcp.c) -------------------------- */

/* Upstream IRDMA_RETRY_TIMEOUT, IRDMA_MAX_TIMEOUT, IRDMA_DEFAULT_RETRANS. */
#define E810CM_RETX_FIRST_MS	1000
#define E810CM_RETX_MAX_MS	12000
#define E810CM_RETX_MAX		32

u32 e810cm_retx_timeout(u32 sent);

#endif /* E810CM_CM_H */
