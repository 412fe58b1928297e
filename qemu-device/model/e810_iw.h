/*
 * Emulated E810: iWARP engine internals shared by e810_iw_*.c.
 * The entry points are in e810_iw_conn.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef E810_IW_H
#define E810_IW_H

#include <stdbool.h>
#include <stdint.h>

#include "e810_core.h"
#include "e810_crc32c.h"
#include "e810_dp.h"
#include "e810_iw_conn.h"

/* Stream bytes one connection keeps for (re)transmission. */
#define E810_IW_TXBUF           (256u << 10)
/* Largest FPDU: 2-byte length, 65535-byte ULPDU, 3 pad, 4 CRC. */
#define E810_IW_MAX_FPDU        (2u + 65535u + 3u + 4u)
/* Freed connections whose buffers are kept for the next (e810_iw_conn.c). */
#define E810_IW_CONN_SPARE_MAX  4
/* SQ WQEs the engine holds (framed or waiting for their ACK). */
#define E810_IW_TXQ             64
/* Inbound READ requests queued at most (the IRD cap of GEN_2). */
#define E810_IW_RDQ             128
/* Frames held while the engine is busy transmitting (bytes). */
#define E810_IW_DEFER_MAX       (4u << 20)
/* Frame scratch: Ethernet + VLAN + IPv6 + TCP (60) + the largest MSS. */
#define E810_IW_MAX_MSS         16383u
#define E810_IW_HDR_MAX         (14 + 4 + 40 + 60)
#define E810_IW_FRAME_MAX       (E810_IW_HDR_MAX + E810_IW_MAX_MSS)
/*
 * Retransmission timeout (RFC 6298, e810_iw_tcp.c): 1 s until the first
 * RTT sample, then SRTT + max(4 * RTTVAR, E810_IW_RTO_MIN_NS), doubled on
 * each timeout up to E810_IW_RTO_MAX_NS.
 */
#define E810_IW_RTO_INIT_NS     1000000000ull
#define E810_IW_RTO_MIN_NS      200000000ull
#define E810_IW_RTO_MAX_NS      60000000000ull

/* TCP states as the AEQE and the context code them (irdma defs.h). */
enum {
    E810_TCP_NONE = 0,
    E810_TCP_CLOSED = 1,
    E810_TCP_ESTABLISHED = 5,
    E810_TCP_CLOSE_WAIT = 6,
    E810_TCP_FIN_WAIT_1 = 7,
    E810_TCP_CLOSING = 8,
    E810_TCP_LAST_ACK = 9,
    E810_TCP_FIN_WAIT_2 = 10,
    E810_TCP_TIME_WAIT = 11,
};

/* TCP flags. */
#define E810_TCPF_FIN   0x01
#define E810_TCPF_SYN   0x02
#define E810_TCPF_RST   0x04
#define E810_TCPF_PSH   0x08
#define E810_TCPF_ACK   0x10

/* DDP / RDMAP header bytes (RFC 5041, RFC 5040). */
#define E810_DDP_T              0x80
#define E810_DDP_L              0x40
#define E810_DDP_VER            0x01
#define E810_RDMAP_VER          0x40    /* version 1 in the top 2 bits */
#define E810_DDP_TAGGED_HLEN    14
#define E810_DDP_UNTAGGED_HLEN  18
#define E810_RDMAP_READREQ_LEN  28
enum {
    E810_RDMAP_WRITE = 0,
    E810_RDMAP_READ_REQ = 1,
    E810_RDMAP_READ_RESP = 2,
    E810_RDMAP_SEND = 3,
    E810_RDMAP_SEND_INV = 4,
    E810_RDMAP_SEND_SE = 5,
    E810_RDMAP_SEND_SE_INV = 6,
    E810_RDMAP_TERMINATE = 7,
    /* RFC 7306: Immediate Data (8 bytes, untagged, queue 0) */
    E810_RDMAP_IMM = 8,
    E810_RDMAP_IMM_SE = 9,
};
#define E810_RDMAP_IMM_LEN      8
enum { E810_QN_SEND, E810_QN_READ, E810_QN_TERM, E810_QN_MAX };

/* Terminate control (RFC 5040; irdma type.h enum irdma_term_*). */
enum { E810_TERM_RDMAP = 0, E810_TERM_DDP = 1, E810_TERM_MPA = 2 };
#define E810_TERM_HDR_LEN       0x80    /* hdrct: DDP segment length */
#define E810_TERM_HDR_DDP       0x40    /* hdrct: DDP header */
#define E810_TERM_HDR_RDMAP     0x20    /* hdrct: RDMAP header */
/* The Terminate header the driver leaves in Q2: control, then what hdrct
 * names (segment length 2, DDP header 14/18, RDMAP header 28). */
#define E810_TERM_CTRL_LEN      4
#define E810_TERM_MAX_LEN       (E810_TERM_CTRL_LEN + 2 + \
                                 E810_DDP_UNTAGGED_HLEN + \
                                 E810_RDMAP_READREQ_LEN)
/* Q2 offsets (irdma defs.h Q2_BAD_FRAME_OFFSET). */
#define E810_IW_Q2_FRAME_OFF    72

/* An SQ WQE the engine holds. */
typedef struct E810IwTx {
    E810SendWqe w;
    bool stream;            /* STREAMMODE: raw bytes (the MPA Reply) */
    bool wait_pdu;          /* WAITFORRCVPDU */
    bool is_read;
    bool framed;            /* every byte is in the send ring */
    bool data_done;         /* WRITE with immediate: the data is framed */
    bool msn_taken;
    uint64_t off;           /* payload bytes framed so far */
    uint32_t end_seq;       /* SEND/WRITE: done once acknowledged */
    uint32_t msn;
    uint64_t rd_got;        /* READ: response bytes placed */
    bool rd_got_all;        /* READ: last response placed */
} E810IwTx;

/* An inbound READ request being answered or waiting (IRD). */
typedef struct E810IwRd {
    uint32_t sink_stag;
    uint64_t sink_to;
    uint32_t len;
    uint32_t src_stag;
    uint64_t src_to;
} E810IwRd;

typedef struct E810IwConn {
    uint32_t qp_id;
    struct E810IwConn *next;        /* the device's list */
    E810IwOffload o;
    uint8_t tcp_state;
    bool rst_sent;
    /* TCP send */
    uint32_t snd_una, snd_nxt, snd_max;
    uint32_t snd_wnd, cwnd, ssthresh;
    uint8_t *txbuf;                 /* ring: byte snd_una at tx_head */
    uint32_t tx_head, tx_len;
    bool fin_pending, fin_sent;
    uint32_t fin_seq;
    unsigned retries, dupacks;
    uint64_t rto_ns;                /* current RTO, backed off */
    uint64_t srtt_ns, rttvar_ns;    /* RFC 6298; valid once rtt_samples */
    uint64_t rtt_samples;
    bool rtt_timing;                /* one segment timed (Karn's rule) */
    uint32_t rtt_seq;               /* ... acknowledged by an ACK >= this */
    uint64_t rtt_t0;
    uint64_t deadline;              /* ns; 0 none */
    /* TCP receive */
    uint32_t rcv_nxt;
    bool ack_now;
    bool fin_rcvd;
    /* MPA receive */
    uint8_t *rxbuf;
    uint32_t rx_have, rx_need;
    bool got_fpdu;
    /* RDMAP/DDP transmit */
    E810IwTx txq[E810_IW_TXQ];
    uint32_t txq_head, txq_count, txq_framed;   /* framed: from head */
    uint32_t ord_out;
    uint32_t tx_msn[E810_QN_MAX];
    E810IwRd rdq[E810_IW_RDQ];
    uint32_t rdq_head, rdq_count;
    uint64_t rd_off;                /* bytes of rdq[head] framed */
    bool rts_ae_wait;               /* GEN_RTS_AE seen (statistics) */
    /* RDMAP/DDP receive */
    uint32_t rx_msn[E810_QN_MAX];
    bool in_send;
    E810RecvWqe rwqe;
    uint64_t send_off;
    bool term_sent, term_rcvd;
    /*
     * An error in the received stream: its AE is raised with the QP still
     * in RTS, nothing more is placed or framed, and the Terminate goes out
     * when the driver asks for it (MODIFY_QP -> TERMINATE).
     */
    bool failed;
} E810IwConn;

typedef struct E810IwConnStats {
    uint64_t offloads;
    uint64_t tx_segs, tx_bytes, tx_acks, tx_rst, tx_fin;
    uint64_t tx_dropped_injected;   /* the loss knob's */
    uint64_t retransmits, timeouts, fast_retransmits, probes;
    uint64_t rtt_samples;
    uint64_t rx_segs, rx_bytes, rx_bad_csum, rx_short;
    uint64_t rx_ooo, rx_dup, rx_rst, rx_fin, rx_syn, rx_no_ack;
    uint64_t rx_not_ours;
    uint64_t fpdus_rx, fpdus_tx, crc_errors;
    uint64_t terms_sent, terms_rcvd;
    uint64_t deferred, defer_drops;
    uint64_t read_reqs, read_resps;
    uint64_t late_closes;   /* CLOSING/TERMINATE refused in ERROR */
    uint64_t stream_errors;     /* errors in the peer's stream */
    uint64_t imm_tx, imm_rx;    /* RFC 7306 Immediate Data messages */
} E810IwConnStats;

typedef struct E810IwDefer {
    struct E810IwDefer *next;
    size_t len;
    uint8_t data[];
} E810IwDefer;

typedef struct E810Iw {
    E810IwConn **by_qp;     /* by QP id */
    uint32_t nqp;
    E810IwConn *list;
    unsigned depth;
    E810IwDefer *defer_head, *defer_tail;
    size_t defer_bytes;
    uint8_t frame[E810_IW_FRAME_MAX];
    uint8_t fpdu[E810_IW_MAX_FPDU];     /* transmit scratch */
    struct E810IwConn *spare;           /* freed, buffers kept */
    unsigned nspare;
    E810IwConnStats stats;
} E810Iw;

/* ---- e810_iw_conn.c ------------------------------------------------------ */
E810Iw *e810_iw_get(E810Core *core);
E810IwConn *e810_iw_conn_of(E810Core *core, uint32_t qp_id);
void e810_iw_enter(E810Core *core);
void e810_iw_exit(E810Core *core);
/* Sets the connection's TCP state (and the QP's, for AEQEs). */
void e810_iw_set_tcp_state(E810Core *core, E810IwConn *c, uint8_t st);
void e810_iw_ae(E810Core *core, E810IwConn *c, uint16_t code);
void e810_iw_arm(E810Core *core, E810IwConn *c, uint64_t deadline);
/* Internet checksums: 0 over a correct header/segment. */
uint16_t e810_iw_tcp_csum(bool ipv4, const uint8_t *src, const uint8_t *dst,
                          const uint8_t *seg, uint32_t len);
uint16_t e810_iw_ip_csum(const uint8_t *hdr, uint32_t len);
/* A frame we sent to our own MAC: received once the engine is idle. */
void e810_iw_loop(E810Core *core, const uint8_t *frame, size_t len);

/* ---- e810_iw_tcp.c ------------------------------------------------------- */
/* Room left in the send ring. */
uint32_t e810_iw_tx_room(const E810IwConn *c);
/* Appends stream bytes to the send ring (the caller checked the room). */
void e810_iw_tx_append(E810IwConn *c, const void *buf, uint32_t len);
/* Sends what the windows allow, a FIN when due, else an ACK if owed. */
void e810_iw_tcp_output(E810Core *core, E810IwConn *c);
void e810_iw_tcp_send_rst(E810Core *core, E810IwConn *c);
/* A segment for @c (headers parsed by e810_iw_conn_rx()). */
void e810_iw_tcp_input(E810Core *core, E810IwConn *c, uint32_t seq,
                       uint32_t ack, uint8_t flags, uint16_t win,
                       const uint8_t *data, uint32_t len);
void e810_iw_tcp_timer(E810Core *core, E810IwConn *c);

/* ---- e810_iw_mpa.c ------------------------------------------------------- */
/* CRC32c with e810_crc32c()'s conventions, by SSE4.2 where the host has it. */
uint32_t e810_iw_crc32c(uint32_t crc, const void *buf, size_t len);
/* Stream bytes in order from TCP; FPDUs go to e810_iw_fpdu_rx(). */
void e810_iw_mpa_rx(E810Core *core, E810IwConn *c, const uint8_t *data,
                    uint32_t len);
/* Frames @ulpdu (DDP header + payload, @ulen bytes, already at
 * iw->fpdu + 2) as an FPDU into the send ring. */
void e810_iw_mpa_tx(E810Core *core, E810IwConn *c, uint32_t ulen);
/* Bytes of DDP payload one FPDU of @hlen header bytes may carry. */
uint32_t e810_iw_mulpdu(const E810IwConn *c, uint32_t hlen);

/* ---- e810_iw_rdmap.c ----------------------------------------------------- */
/* A whole FPDU's ULPDU (CRC checked). */
void e810_iw_fpdu_rx(E810Core *core, E810IwConn *c, const uint8_t *u,
                     uint32_t ulen);
/* Frames READ responses and SQ WQEs while the send ring has room. */
void e810_iw_frame_more(E810Core *core, E810IwConn *c);
/* Completes the SQ WQEs the peer has acknowledged. */
void e810_iw_tx_acked(E810Core *core, E810IwConn *c);
/*
 * An error in what the peer sent (@ulpdu: the offending DDP segment, or
 * NULL): raises @ae for the QP, still in RTS, with the segment in Q2 (as
 * upstream irdma_bld_terminate_hdr() reads it) and stops the stream.
 */
void e810_iw_error(E810Core *core, E810IwConn *c, uint16_t ae,
                   const uint8_t *ulpdu, uint32_t ulen);
/* Sends a Terminate of the driver's header @th (@tlen bytes) from Q2. */
void e810_iw_send_terminate(E810Core *core, E810IwConn *c,
                            const uint8_t *th, uint32_t tlen);
/* Drops the SQ work and READ responses the engine holds (flushed later). */
void e810_iw_tx_abandon(E810IwConn *c);
/* Sequence arithmetic. */
static inline bool e810_seq_lt(uint32_t a, uint32_t b)
{
    return (int32_t)(a - b) < 0;
}

static inline bool e810_seq_le(uint32_t a, uint32_t b)
{
    return (int32_t)(a - b) <= 0;
}

#endif /* E810_IW_H */
