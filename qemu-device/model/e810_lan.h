/*
 * Emulated E810: LAN queues. One Tx and one Rx queue (queue 0) per
 * function, with the real descriptor formats and queue contexts.
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

#define E810_LAN_NUM_QUEUES     1
#define E810_FRAME_MAX          (16 * 1024)

typedef struct E810TxQueue {
    bool enabled;       /* added with 0x0C30, not yet disabled */
    uint64_t base;      /* ring address */
    uint32_t qlen;      /* descriptors */
    uint32_t head;      /* next descriptor the device reads */
    uint32_t tail;      /* QTX_COMM_DBELL */
    uint32_t teid;
    uint16_t src_vsi;
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
    uint64_t rx_packets, rx_bytes, rx_dropped, rx_no_desc, rx_oversize;
} E810LanStats;

typedef struct E810Lan {
    E810TxQueue txq[E810_LAN_NUM_QUEUES];
    E810RxQueue rxq[E810_LAN_NUM_QUEUES];
    E810LanStats stats;
    uint8_t frame[E810_FRAME_MAX];  /* Tx gather buffer */
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

#endif /* E810_LAN_H_MODEL */
