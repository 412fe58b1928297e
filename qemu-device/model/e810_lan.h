/*
 * Emulated E810: LAN queues. E810_LAN_NUM_QUEUES Tx and Rx queues per
 * function, with the real descriptor formats, queue contexts and offloads.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef E810_LAN_H_MODEL
#define E810_LAN_H_MODEL

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/e810_lan.h"

struct E810Core;

/*
 * LAN queue pairs per PF: the Tx/Rx queue capabilities (0x0041/0x0042)
 * report this; ice wants at least one pair per CPU.
 */
#define E810_LAN_NUM_QUEUES     64
#define E810_FRAME_MAX          (16 * 1024)
/* A TSO packet: TSO length (18 bits) plus its headers. */
#define E810_TX_PKT_MAX         (256 * 1024 + 1024)

typedef struct E810TxQueue {
    bool enabled;       /* added with 0x0C30, not yet disabled */
    uint64_t base;      /* ring address */
    uint32_t qlen;      /* descriptors */
    uint32_t head;      /* next descriptor the device reads */
    uint32_t tail;      /* QTX_COMM_DBELL */
    uint32_t teid;
    uint16_t src_vsi;
    bool tso_ena;       /* context TSO_ENA: TSO allowed on this queue */
} E810TxQueue;

typedef struct E810RxQueue {
    bool enabled;       /* QRX_CTRL.QENA_STAT */
    uint64_t base;
    uint32_t qlen;
    uint32_t dbuf;      /* data buffer size in bytes */
    uint32_t rxmax;     /* largest frame accepted */
    uint32_t head;
    uint32_t tail;      /* QRX_TAIL with the low 3 bits cleared */
} E810RxQueue;

typedef struct E810LanStats {
    uint64_t tx_packets, tx_bytes, tx_dropped, tx_bad_desc;
    uint64_t tx_mdd;        /* dropped for a bad offload/TSO request */
    uint64_t tx_tso;        /* TSO packets segmented */
    uint64_t rx_packets, rx_bytes, rx_dropped, rx_no_desc, rx_oversize;
    uint64_t rx_no_dest;    /* no switch rule took the frame */
    uint64_t rx_held_dropped;   /* held for a queue that stayed empty */
    uint64_t rx_ip_err, rx_l4_err;  /* reported with IPE / L4E */
} E810LanStats;

/* A frame the network layer holds back for a queue short of buffers. */
typedef struct E810RxHold {
    bool active;
    uint16_t q;         /* its queue */
    uint32_t need;      /* descriptors it needs */
    uint32_t kicks;     /* buffers posted on other queues since */
} E810RxHold;

typedef struct E810Lan {
    E810TxQueue txq[E810_LAN_NUM_QUEUES];
    E810RxQueue rxq[E810_LAN_NUM_QUEUES];
    E810LanStats stats;
    E810RxHold hold;
    uint16_t tx_vsi;    /* SRC_VSI of the queue whose packet is sent */
    uint8_t frame[E810_TX_PKT_MAX];     /* Tx gather buffer */
    uint8_t seg[E810_FRAME_MAX];        /* one TSO segment */
} E810Lan;

void e810_lan_reset(struct E810Core *core);

/*
 * Admin queue side: add (validated context) and disable a Tx queue. The
 * scheduler (e810_sched.c) owns the queue's leaf node, @teid.
 */
enum e810_aq_rc e810_lan_add_txq(struct E810Core *core, uint16_t q,
                                 const uint8_t *ctx, uint32_t teid);
enum e810_aq_rc e810_lan_dis_txq(struct E810Core *core, uint16_t q);

/* Register side effects. */
void e810_lan_qrx_ctrl_write(struct E810Core *core, unsigned q,
                             uint32_t *reg, uint32_t val);
void e810_lan_qrx_tail_write(struct E810Core *core, unsigned q,
                             uint32_t *reg, uint32_t val);
void e810_lan_tx_doorbell(struct E810Core *core, unsigned q, uint32_t val);

/* Deferred work: transmits what the driver posted. */
void e810_lan_process_tx(struct E810Core *core);

/* Receive path (from the network backend). */
bool e810_lan_can_receive(struct E810Core *core);
size_t e810_lan_receive(struct E810Core *core, const uint8_t *buf, size_t len);

/* ---- offloads (e810_lan_offload.c) ---- */

/*
 * Fills the checksums a data descriptor asks for (@cmd: its CMD field,
 * @off: its OFFSET field) into @f. False on an impossible request.
 */
bool e810_lan_tx_csum(uint8_t *f, size_t len, uint32_t cmd, uint32_t off);

/*
 * Segments the @len-byte TSO packet @pkt per its first data descriptor's
 * @qw1 and the context descriptor's @ctx_qw1 and transmits the segments.
 * @bend: where each of the @nb data buffers ends in @pkt. Returns the
 * segments sent, or -1 when the request is invalid (nothing is sent).
 */
int e810_lan_tso(struct E810Core *core, const uint8_t *pkt, size_t len,
                 uint64_t qw1, uint64_t ctx_qw1, const uint32_t *bend,
                 unsigned nb);

/*
 * Puts a finished frame on the wire, with the 802.1Q tag @tci inserted
 * when @tag (@f has room for 4 more bytes), and counts it.
 */
void e810_lan_tx_emit(struct E810Core *core, uint8_t *f, size_t len,
                      bool tag, uint16_t tci);

/* Packet type of a received frame; @status gets L3L4P/IPE/L4E. */
uint16_t e810_lan_rx_classify(const uint8_t *frame, size_t len,
                              uint16_t *status);

#endif /* E810_LAN_H_MODEL */
