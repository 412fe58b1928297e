/*
 * Emulated E810: the iWARP offloaded-connection engine (interface).
 *
 * In iWARP mode the driver runs the TCP handshake and the MPA Request/
 * Reply exchange itself through the ILQ, then hands the connection to the
 * device with MODIFY_QP -> RTS carrying a full TCP/iWARP host context
 * (TOECTXVALID; upstream irdma_sc_qp_setctx(), docs/hw-model.md "iWARP
 * engine"). From then on the engine owns the 4-tuple: TCP (in-order only,
 * cumulative ACKs, window scaling, retransmission), MPA framing with
 * CRC32c (RFC 5044/6581, no markers) and DDP/RDMAP (RFC 5041/5040) in both
 * directions, with placement, STag checks and completions through the
 * data-path layer (e810_dp.h).
 *
 * e810_iw_conn.c  connection table, offload, close/reset, AEs, timers
 * e810_iw_tcp.c   TCP segments in and out, retransmission
 * e810_iw_mpa.c   CRC32c, FPDU framing, the receive stream parser
 * e810_iw_rdmap.c DDP/RDMAP receive (placement) and transmit (SQ WQEs,
 *                 READ responses, TERMINATE)
 *
 * Entry points and their callers:
 *
 *   e810_iw_conn_modify()   MODIFY_QP of an iWARP QP (e810_qp.c), before
 *                           the new state is applied: RTS with TOECTXVALID
 *                           offloads; CLOSING sends FIN after the SQ;
 *                           TERMINATE sends a Terminate and/or FIN
 *                           (TERMACT); RESETCON sends RST.
 *   e810_iw_conn_destroy()  DESTROY_QP / CREATE_QP of the id: forgets the
 *                           4-tuple (REMOVEHASHENTRY).
 *   e810_iw_conn_rx()       Rx steering (TCP frames for our MAC): true if an
 *                           offloaded connection owns the 4-tuple (the frame
 *                           is consumed), false to let the ILQ/LAN have it.
 *   e810_iw_conn_send()     e810_xport_send() for iWARP QPs: one SQ WQE
 *                           (SEND*, RDMA WRITE, RDMA READ, LSMM stream
 *                           mode); same contract as e810_xport_send().
 *   e810_iw_conn_sq_local() the SQ's local opcodes of iWARP QPs
 *                           (GEN_RTS_AE 0x30): true if it handled @opcode.
 *   e810_iw_conn_timer()    the device timer (e810_xport_timer()), for a
 *                           QP of type iWARP whose deadline passed.
 *   e810_iw_reset()/_fini() device reset / teardown.
 *
 * Everything runs from deferred work, the receive path or the timer, never
 * from an MMIO hook. Frames are transmitted with core->ops->transmit; a
 * frame that arrives while the engine is transmitting (a synchronous peer)
 * waits until the outermost entry point returns.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef E810_IW_CONN_H
#define E810_IW_CONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct E810Core;
struct E810Qp;
struct E810SendWqe;

/* SQ opcode of the third connection WQE (irdma_sc_gen_rts_ae()). */
#define E810_IW_OP_GEN_RTS_AE   0x30

/* Offload parameters, as parsed from the host context (facts table 3). */
typedef struct E810IwOffload {
    bool ipv4;
    uint32_t lip[4], rip[4];    /* IPv4 in word 3 */
    uint16_t lport, rport;
    uint8_t dmac[6];            /* from ARPIDX */
    uint8_t smac[6];            /* ctx off 152, else the port MAC */
    bool vlan;
    uint16_t tci;
    uint8_t ttl, tos;
    uint32_t snd_nxt, snd_una, snd_max, rcv_nxt;
    uint32_t snd_wnd, max_snd_wnd, rcv_wnd;
    uint8_t snd_scale, rcv_scale;
    uint16_t mss;
    uint32_t cwnd, ssthresh;
    uint8_t rexmit_thresh;      /* retransmissions before AE 0x050A */
    uint8_t rtomin;
    uint32_t ord;               /* ORDSIZE */
    uint32_t ird;               /* from IRDSIZE */
    bool rcv_no_crc;            /* RCVNOMPACRC: peer sends no CRC */
    bool snd_markers;           /* SNDMARKERS: not modelled, refused */
    uint64_t q2_pa;             /* Q2 buffer (Terminate frames at +72) */
} E810IwOffload;

/* Parses @qp's host context; false (and a log) if it cannot be offloaded. */
bool e810_iw_parse_ctx(struct E810Core *core, struct E810Qp *qp,
                       E810IwOffload *o);

/* MODIFY_QP hook; @cqp_hdr is the CQP WQE header (RESETCON, TERMACT...). */
void e810_iw_conn_modify(struct E810Core *core, struct E810Qp *qp,
                         unsigned next_state, uint64_t cqp_hdr,
                         uint64_t cqp_qw1);
void e810_iw_conn_destroy(struct E810Core *core, uint32_t qp_id);
/*
 * MODIFY_QP of an iWARP QP the device holds in ERROR to CLOSING (SQD's
 * code) or TERMINATE: true (counted) if it is such a request, which the
 * caller refuses with Invalid State as for any other bad transition but
 * neither logs nor counts as a driver fault (see e810_iw_conn.c).
 */
bool e810_iw_conn_refuse_late_close(struct E810Core *core,
                                    const struct E810Qp *qp,
                                    unsigned next_state);
bool e810_iw_conn_rx(struct E810Core *core, const uint8_t *frame, size_t len);
/* True if an offloaded connection has this 4-tuple (IPv4: index 3 only). */
bool e810_iw_conn_owns(struct E810Core *core, bool ipv4, const uint32_t lip[4],
                       uint16_t lport, const uint32_t rip[4], uint16_t rport);
bool e810_iw_conn_send(struct E810Core *core, struct E810Qp *qp,
                       const struct E810SendWqe *wqe);
bool e810_iw_conn_sq_local(struct E810Core *core, struct E810Qp *qp,
                           const struct E810SendWqe *wqe);
void e810_iw_conn_timer(struct E810Core *core, struct E810Qp *qp);
void e810_iw_reset(struct E810Core *core);
void e810_iw_fini(struct E810Core *core);

/*
 * "conns=N" (offloaded connections now: each lives until DESTROY_QP of its
 * QP) and the counters (never reset by the guest), "name=value ..." text.
 */
int e810_iw_format_stats(struct E810Core *core, char *buf, size_t len);

/*
 * One line per offloaded connection, for a scenario to print when a close
 * hangs (QMP x-iwarp-conns): "qp=N lport=N rport=N tcp=N unacked=N
 * unsent=N txq=N rdq=N ord_out=N fin=pending|sent|none fin_rcvd=0|1
 * rst_sent=0|1 term=sent|rcvd|none failed=0|1", lines joined by "; ";
 * "" without one. tcp is the AEQE's TCP state code (irdma defs.h).
 */
int e810_iw_format_conns(struct E810Core *core, char *buf, size_t len);

#endif /* E810_IW_CONN_H */
