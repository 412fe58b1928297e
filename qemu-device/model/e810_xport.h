/*
 * Emulated E810: RoCEv2 transport (private to the model).
 *
 * e810_xport.c  per-QP transport state, wire and loopback transmit, the
 *               receive demux, the one device timer
 * e810_rc.c     RC requester (PSNs, segmentation, retransmission, READ
 *               responses) and responder (ACK/NAK, duplicates, RNR)
 * e810_ud.c     UD send and receive, multicast delivery
 *
 * The queue/memory layer (e810_dp.h) hands SQ WQEs to e810_xport_send();
 * everything here runs from deferred work, the network receive path or
 * the timer, never from an MMIO hook.
 *
 * Re-entrancy: frames to our own port are queued and drained only at the
 * outermost entry point, so a requester never sees its own responder (or
 * peer) run in the middle of an operation. A QP reset while its state is
 * in use only marks that state dead; it is freed at the outermost exit.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef E810_XPORT_H
#define E810_XPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "e810_core.h"
#include "e810_dp.h"
#include "e810_roce_pkt.h"

struct E810Core;
struct E810Qp;

/* In-flight SQ WQEs per RC QP; the SQ stalls (e810_dp_sq_kick) beyond. */
#define E810_XPORT_MAX_INFLIGHT 64
/* PSNs a requester may have sent and not yet seen acknowledged. */
#define E810_XPORT_WINDOW       1024
/* The requester asks for an ACK at least this often (packets). */
#define E810_XPORT_ACKREQ_EVERY 64
/* Retransmission timeout unit: QP context RTOMIN counts these. */
#define E810_XPORT_RTO_UNIT_NS  1000000ull
/* The adaptive retransmission timeout never exceeds this. */
#define E810_XPORT_RTO_MAX_NS   1000000000ull
/* After a timeout the requester's window restarts at this many PSNs. */
#define E810_XPORT_CWND_MIN     16
/* RNR NAK timer code the responder sends (IB encoding 14 = 1.28 ms). */
#define E810_XPORT_RNR_TIMER    14
/* The longest RNR wait: IB's longest RNR NAK timer (code 0, 655.36 ms). */
#define E810_XPORT_RNR_WAIT_MAX_NS 655360000ull
/* READ response packets sent per step; the rest continue from work. */
#define E810_XPORT_READ_BURST   256
/*
 * READ response packets one run of deferred work sends at most (over all
 * QPs, round robin), and packets one timer run lets out at most (the QPs
 * whose deadline passed and were not served wait for the next, at once).
 */
#define E810_XPORT_RUN_BUDGET   1024
/* READ requests a responder holds behind the one being answered (IRD). */
#define E810_XPORT_RD_QUEUE     128
/*
 * PSNs one message may use (a READ: its response packets). PSNs compare
 * modulo 2^24, so a requester can have at most half the space in flight;
 * a quarter keeps every comparison exact. It only binds at path MTU 256,
 * where irdma's max_msg_sz (0x7FFFFFFF, IRDMA_MAX_OUTBOUND_MSG_SIZE) would
 * need 2^23 packets: such a WQE fails at once (AE 0x020B), and a READ
 * request that large is answered with an Invalid Request NAK. 2^22
 * packets is 1 GiB at MTU 256, the largest message a ConnectX reports.
 */
#define E810_XPORT_MAX_SPAN     (1u << 22)
/* Loopback bytes queued at most (a bound against runaway loops). */
#define E810_XPORT_LOOP_MAX     (64u << 20)

/* Counters a test or a debugger reads; never reset by the guest. */
typedef struct E810XportStats {
    uint64_t tx_packets;
    uint64_t tx_bytes;
    uint64_t tx_link_down;      /* not sent: no link */
    uint64_t tx_injected_drops; /* lost on purpose (loss injector) */
    uint64_t loopback;          /* frames that went to our own receive */
    uint64_t loop_overflow;
    uint64_t rx_deferred;       /* wire frames that arrived mid-transmit */
    uint64_t rx_packets;
    uint64_t rx_bytes;
    uint64_t rx_drop[E810_ROCE_ERR_MAX];   /* by parse error */
    uint64_t rx_bad_qp;         /* no such QP, wrong type or state */
    uint64_t rx_bad_pkey;
    uint64_t rx_bad_qkey;
    uint64_t rx_bad_opcode_seq; /* opcode out of sequence */
    uint64_t rx_psn_dup;        /* duplicates (re-acked or re-read) */
    uint64_t rx_psn_oos;        /* ahead of the expected PSN: dropped */
    uint64_t rx_stale;          /* ACK/response for nothing outstanding */
    uint64_t rx_mcast_no_group;
    uint64_t rx_no_rwqe;        /* UD: no receive WQE posted, dropped */
    uint64_t acks_sent;
    uint64_t naks_sent;         /* any NAK but RNR */
    uint64_t rnr_naks_sent;
    uint64_t acks_rcvd;
    uint64_t seq_naks_rcvd;
    uint64_t rnr_naks_rcvd;
    uint64_t err_naks_rcvd;
    uint64_t retransmits;       /* packets sent again */
    uint64_t timeouts;
    uint64_t retry_exceeded;
    uint64_t rnr_exceeded;
    uint64_t read_resp_sent;
    uint64_t rx_busy;           /* request dropped: READ responses go out */
    uint64_t rd_queued;         /* READ accepted behind another (IRD queue) */
    uint64_t sq_stalls;         /* e810_xport_send refused a WQE */
    uint64_t ud_sent;
    uint64_t ud_delivered;
    uint64_t budget_stops;  /* work or timer run ended by its budget */
    uint64_t timer_reentries;   /* timer fired inside a transport call */
} E810XportStats;

/* One in-flight RC WQE: a copy, with its place in the PSN space. */
typedef struct E810XWqe {
    E810SendWqe w;
    uint32_t first_psn;
    uint32_t npkts;         /* PSNs it uses (READ: response packets) */
    uint32_t rd_rcvd;       /* READ: response packets accepted */
    uint32_t rd_rereq;      /* READ: rd_rcvd when last re-requested */
    bool is_read;
} E810XWqe;

/* A READ request the responder accepted and has not answered yet. */
typedef struct E810XRead {
    uint32_t psn;           /* PSN of the request (of response 0) */
    uint64_t va;
    uint32_t rkey;
    uint64_t len;
    uint32_t npkts;
    uint32_t msn;
} E810XRead;

/* Transport state of one QP; allocated on first use. */
typedef struct E810XQp {
    uint32_t qp_id;
    bool dead;              /* reset while in use: freed at exit */
    struct E810XQp *next_dead;
    uint64_t deadline;      /* ns; 0 = no timer */
    /* requester */
    bool req_init;
    uint32_t mtu;
    uint32_t next_psn;      /* first PSN of the next new WQE */
    uint32_t send_psn;      /* next PSN to put on the wire */
    uint32_t acked_psn;     /* last PSN known delivered */
    uint32_t high_psn;      /* one past the highest PSN ever sent */
    E810XWqe wq[E810_XPORT_MAX_INFLIGHT];
    uint32_t wq_head;       /* oldest in flight */
    uint32_t wq_count;
    uint32_t reads;         /* READs in flight (ORD) */
    bool stalled;           /* e810_xport_send refused: kick when room */
    unsigned retries;
    unsigned rnr_retries;
    bool rnr_wait;          /* waiting out an RNR NAK's timer */
    /* round-trip estimate (e810_rc.c): one timed packet at a time */
    bool rtt_timing;
    uint32_t rtt_psn;       /* the timed packet (asks for an ACK) */
    uint64_t rtt_start;     /* ns it was sent */
    uint64_t srtt_ns;       /* smoothed RTT; 0 = no sample yet */
    uint64_t rttvar_ns;
    unsigned backoff;       /* timeouts in a row since the last sample */
    uint32_t cwnd;          /* PSNs that may be unacknowledged */
    uint32_t ssthresh;      /* cwnd grows per ACKed PSN below, slower above */
    uint32_t cwnd_acc;      /* PSNs acknowledged toward the next +1 */
    /* responder */
    bool resp_init;
    uint32_t epsn;
    uint32_t msn;
    bool nak_sent;          /* one NAK per gap */
    unsigned cur_op;        /* E810_OPF_SEND/_WRITE of the message going on */
    bool in_msg;
    bool have_rwqe;
    E810RecvWqe rwqe;
    uint64_t msg_off;
    uint64_t wr_va;
    uint32_t wr_rkey;
    uint64_t wr_len;
    /* responder: a READ whose responses are still being sent */
    bool rd_pending;
    E810XRead rd;           /* the READ being answered */
    uint32_t rd_next;       /* its next response packet */
    bool rd_stepping;       /* in e810_rc_read_step (frames re-enter) */
    /* READs accepted while rd is answered, in PSN order (IRD) */
    E810XRead rdq[E810_XPORT_RD_QUEUE];
    uint32_t rdq_head;
    uint32_t rdq_count;
} E810XQp;

typedef struct E810LoopFrame {
    struct E810LoopFrame *next;
    size_t len;             /* the whole frame, a payload by reference too */
    bool wire;              /* from the wire (ICRC to check), not looped */
    /*
     * Payload by reference (e810_xport_tx_mapped()): data holds the
     * headers (hlen bytes), the payload is read in place through map at
     * delivery and the mapping given back after it. map.ptr NULL: the
     * whole frame is in data.
     */
    E810DmaMap map;
    uint32_t hlen;
    uint32_t paylen;
    bool spare;             /* E810_ROCE_MAX_HDR bytes: reusable */
    uint8_t data[];
} E810LoopFrame;

/* Per-QP transport states kept for reuse at most. */
#define E810_XPORT_XQP_SPARE_MAX    8

/* Header-only frames kept for reuse at most (one window's worth). */
#define E810_XPORT_SPARE_MAX    E810_XPORT_WINDOW

typedef struct E810Xport {
    E810XQp **qp;           /* by QP id; NULL = no state yet */
    uint32_t nqp;
    unsigned depth;         /* nesting of entry points */
    E810XQp *dead;          /* freed when depth returns to 0 */
    E810LoopFrame *loop_head, *loop_tail;
    size_t loop_bytes;
    /* Header-only loopback frames freed, for the next ones (no malloc). */
    E810LoopFrame *spare;
    unsigned nspare;
    /* Per-QP states freed, for the next QPs (E810_XPORT_XQP_SPARE_MAX). */
    E810XQp *xqp_spare;
    unsigned nxqp_spare;
    uint64_t armed;         /* deadline the device timer is set to; 0 none */
    uint32_t work_next;     /* QP the next work run serves first */
    uint32_t timer_next;    /* QP the next timer run serves first */
    /*
     * Loss injector (a debug knob of the embedder, not guest state: a
     * device reset keeps it). Each RoCE frame headed for the wire is
     * dropped with probability drop_ppm / 10^6, drawn from a xorshift64
     * generator so a given seed always loses the same frames.
     */
    uint32_t drop_ppm;
    /* The same for the iWARP engine's TCP segments (e810_iw_tcp.c). */
    uint32_t iw_drop_ppm;
    uint64_t drop_rng;      /* never 0 */
    uint8_t frame[E810_ROCE_MAX_FRAME];
    E810XportStats stats;
} E810Xport;

/* ---- e810_xport.c ---------------------------------------------------------- */

int e810_xport_init(struct E810Core *core);
void e810_xport_fini(struct E810Core *core);
/* Device reset: every QP's transport state and queued frame dropped. */
void e810_xport_reset(struct E810Core *core);
/* Receive path: a frame the steering gave to the engine. */
void e810_xport_receive(struct E810Core *core, const uint8_t *frame,
                        size_t len);
/* Rx steering: does this frame belong to the RDMA engine? */
bool e810_xport_wants(struct E810Core *core, const uint8_t *frame,
                      size_t len);
/* The device timer fired. */
void e810_xport_timer(struct E810Core *core);
/* Deferred work (E810_WORK_XPORT): continues paced READ responses. */
void e810_xport_run_work(struct E810Core *core);
/* Loss injector (e810_core.h): -EINVAL, nothing changed, if @ppm > 10^6. */
int e810_xport_set_drop_ppm(struct E810Core *core, uint32_t ppm);
/* The iWARP knob: -EINVAL, nothing changed, if @ppm > 10^6. */
int e810_xport_set_iw_drop_ppm(struct E810Core *core, uint32_t ppm);
/* One draw of the iWARP knob: true if the segment in hand is lost. */
bool e810_xport_iw_drop(struct E810Core *core);
/* Restarts the injector's sequence; 0 selects the per-function default. */
void e810_xport_seed_drop(struct E810Core *core, uint64_t seed);
/* The counters as "name=value ..." text; snprintf's return convention. */
int e810_xport_format_stats(struct E810Core *core, char *buf, size_t len);

/* Internal helpers for e810_rc.c / e810_ud.c. */
void e810_xport_enter(struct E810Core *core);
void e810_xport_exit(struct E810Core *core);
E810XQp *e810_xqp_get(struct E810Core *core, uint32_t qp_id);
uint64_t e810_xport_now(struct E810Core *core);
void e810_xport_set_deadline(struct E810Core *core, E810XQp *x, uint64_t d);
/* Fills L2/L3/L4 and BTH P_Key/dest QPN of an RC packet from the QP. */
void e810_xport_rc_headers(struct E810Core *core, struct E810Qp *qp,
                           E810RocePkt *p);
/* Builds around the payload already at e810_roce_hdr_len() and sends;
 * @qp (NULL: none) is the QP whose statistics instance counts it. */
void e810_xport_tx(struct E810Core *core, const struct E810Qp *qp,
                   E810RocePkt *p, uint8_t *frame, uint32_t paylen);
/*
 * Does @p (headers filled) stay in the device: unicast to one of our own
 * MACs. Such a frame needs no ICRC and may carry its payload by reference.
 */
bool e810_xport_local(struct E810Core *core, const E810RocePkt *p);
/*
 * e810_xport_tx() for a frame that stays in the device with its @paylen
 * payload bytes in place at @map (from e810_dp_gather_map() or
 * e810_dp_remote_read_map()) instead of in @frame: they are moved once,
 * by the receive path, straight from the sender's memory to the
 * receiver's. Only for frames e810_xport_local() said stay in the device.
 * Takes over @map (given back after delivery or on a drop).
 */
void e810_xport_tx_mapped(struct E810Core *core, const struct E810Qp *qp,
                          E810RocePkt *p, uint8_t *frame, E810DmaMap *map,
                          uint32_t paylen);
/* Path MTU of @qp's context, clamped to 256..4096. */
uint32_t e810_xport_mtu(struct E810Qp *qp);
uint64_t e810_qpc(const struct E810Qp *qp, unsigned off);

/* ---- e810_rc.c ------------------------------------------------------------- */

bool e810_rc_send(struct E810Core *core, struct E810Qp *qp, E810XQp *x,
                  const E810SendWqe *wqe);
void e810_rc_receive(struct E810Core *core, struct E810Qp *qp, E810XQp *x,
                     const E810RocePkt *p);
void e810_rc_timer(struct E810Core *core, struct E810Qp *qp, E810XQp *x);
/* Sends the next burst of a paced READ response. */
void e810_rc_read_step(struct E810Core *core, struct E810Qp *qp, E810XQp *x);

/* ---- e810_ud.c ------------------------------------------------------------- */

bool e810_ud_send(struct E810Core *core, struct E810Qp *qp,
                  const E810SendWqe *wqe);
void e810_ud_receive(struct E810Core *core, const E810RocePkt *p);

#endif /* E810_XPORT_H */
