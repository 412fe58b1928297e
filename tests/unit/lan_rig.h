/*
 * LAN queue rig for the host tests: Tx/Rx rings per queue in harness
 * memory, programmed the way ice does it (0x0C30 for Tx, QRX_CONTEXT and
 * QRX_CTRL for Rx), and a recorder of every transmitted frame.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef LAN_RIG_H
#define LAN_RIG_H

#include <endian.h>
#include <stdlib.h>
#include <string.h>

#include "hw/e810_lan.h"
#include "aq_driver.h"

#define RING 64
#define LAN_VECTOR 1
#define RIG_QUEUES 4            /* queues with their own rings */
#define RIG_BUF 2048            /* Rx buffer stride per descriptor */
#define RIG_MAX_FRAMES 128

/* Every frame the device sent, in order. */
typedef struct RigWire {
    unsigned n;
    size_t len[RIG_MAX_FRAMES];
    uint8_t frame[RIG_MAX_FRAMES][E810_FRAME_MAX];
} RigWire;

typedef struct Fixture {
    Harness *h;
    AqDriver aq;
    uint64_t txring[RIG_QUEUES], rxring[RIG_QUEUES];
    uint64_t bufs;              /* RING * RIG_BUF bytes per Rx queue */
    RigWire *wire;
    uint32_t qgrp;              /* scheduler queue group of the Tx queues */
    uint16_t vsi;               /* the PF VSI, RIG_QUEUES Rx queues */
} Fixture;

/* The PF's address: the switch steers frames for it to the PF VSI. */
static const uint8_t rig_mac[6] = { 0x02, 0, 0, 0, 0, 2 };

static inline void rig_record(void *arg, const uint8_t *frame, size_t len)
{
    RigWire *w = arg;

    if (w->n < RIG_MAX_FRAMES && len <= E810_FRAME_MAX) {
        memcpy(w->frame[w->n], frame, len);
        w->len[w->n] = len;
    }
    w->n++;
}

static inline int setup(void **state)
{
    Fixture *f = calloc(1, sizeof(*f));
    unsigned q;

    f->h = harness_new(0);
    f->wire = calloc(1, sizeof(*f->wire));
    if (!f->h || !f->wire) {
        return -1;
    }
    aq_init(f->h, &f->aq);
    /* As ice brings a PF up: the VSI's scheduler branch for its Tx
     * queues, the VSI itself and its unicast and broadcast filters. */
    f->qgrp = aq_sched_qgrp(f->h, &f->aq);
    f->vsi = aq_add_pf_vsi_and_mac_rules(f->h, &f->aq, rig_mac, RIG_QUEUES);
    for (q = 0; q < RIG_QUEUES; q++) {
        f->txring[q] = mem_alloc(f->h, RING * sizeof(struct e810_tx_desc));
        f->rxring[q] = mem_alloc(f->h, RING * 32);
    }
    f->bufs = mem_alloc(f->h, RIG_QUEUES * RING * RIG_BUF);
    f->h->tx_hook = rig_record;
    f->h->tx_hook_arg = f->wire;
    /* Queue 0's causes on vector 1, enabled, as ice programs them. */
    wr32(f->h, E810_QINT_TQCTL(0), E810_INT_CTL_CAUSE_ENA | LAN_VECTOR);
    wr32(f->h, E810_QINT_RQCTL(0), E810_INT_CTL_CAUSE_ENA | LAN_VECTOR);
    wr32(f->h, E810_GLINT_CTL, E810_GLINT_CTL_DIS_AUTOMASK);
    wr32(f->h, E810_GLINT_DYN_CTL(LAN_VECTOR), E810_GLINT_DYN_CTL_INTENA);
    *state = f;
    return 0;
}

static inline int teardown(void **state)
{
    Fixture *f = *state;

    harness_free(f->h);
    free(f->wire);
    free(f);
    return 0;
}

/*
 * 0x0C30 with one queue under the rig's queue group, TSO allowed or not
 * (ice_setup_tx_ctx() allows it); returns the AQ return code.
 */
static inline uint16_t add_txq_tso(Fixture *f, uint16_t q, uint32_t qlen,
                                   uint8_t pf, uint32_t *teid, bool tso)
{
    uint8_t ctx[E810_TXQ_CTX_SIZE];

    memset(ctx, 0, sizeof(ctx));
    e810_ctx_set(ctx, E810_TLAN_CTX_BASE,
                 f->txring[q % RIG_QUEUES] >> E810_TLAN_BASE_SHIFT);
    e810_ctx_set(ctx, E810_TLAN_CTX_QLEN, qlen);
    e810_ctx_set(ctx, E810_TLAN_CTX_PF_NUM, pf);
    e810_ctx_set(ctx, E810_TLAN_CTX_VMVF_TYPE, E810_TLAN_VMVF_TYPE_PF);
    e810_ctx_set(ctx, E810_TLAN_CTX_LEGACY_INT, 1);
    e810_ctx_set(ctx, E810_TLAN_CTX_TSO_ENA, tso);
    e810_ctx_set(ctx, E810_TLAN_CTX_TSO_QNUM, q);
    e810_ctx_set(ctx, E810_TLAN_CTX_SRC_VSI, f->vsi);  /* ice_setup_tx_ctx() */
    return aq_add_txq(f->h, &f->aq, f->qgrp, q, ctx, teid);
}

static inline uint16_t add_txq(Fixture *f, uint16_t q, uint32_t qlen,
                               uint8_t pf, uint32_t *teid)
{
    return add_txq_tso(f, q, qlen, pf, teid, true);
}

static inline struct e810_tx_desc *txd_q(Fixture *f, unsigned q,
                                         unsigned i)
{
    return mem_ptr(f->h, f->txring[q] + i * sizeof(struct e810_tx_desc));
}

/* A raw descriptor: @qw0 and @qw1 as the driver writes them. */
static inline void txd_put(Fixture *f, unsigned q, unsigned i,
                           uint64_t qw0, uint64_t qw1)
{
    struct e810_tx_desc *d = txd_q(f, q, i);

    d->buf_addr = htole64(qw0);
    d->cmd_type_offset_bsz = htole64(qw1);
}

static inline void put_txd(Fixture *f, unsigned i, uint64_t addr,
                           unsigned len, unsigned cmd, unsigned dtype)
{
    txd_put(f, 0, i, addr, FIELD_PREP(E810_TXD_DTYPE, dtype) |
            FIELD_PREP(E810_TXD_CMD, cmd) | FIELD_PREP(E810_TXD_BUF_SZ, len));
}

static inline uint64_t txd_qw1(Fixture *f, unsigned i)
{
    return le64toh(txd_q(f, 0, i)->cmd_type_offset_bsz);
}

/* Programs and enables Rx queue @q with @dbuf-byte buffers. */
static inline void rx_enable_q(Fixture *f, unsigned q, unsigned dbuf,
                               unsigned rxmax, unsigned dsize)
{
    uint8_t ctx[E810_RLAN_CTX_SIZE];
    unsigned i;

    memset(ctx, 0, sizeof(ctx));
    e810_ctx_set(ctx, E810_RLAN_CTX_BASE, f->rxring[q] >> E810_RLAN_BASE_SHIFT);
    e810_ctx_set(ctx, E810_RLAN_CTX_QLEN, RING);
    e810_ctx_set(ctx, E810_RLAN_CTX_DBUF, dbuf >> E810_RLAN_DBUF_SHIFT);
    e810_ctx_set(ctx, E810_RLAN_CTX_DSIZE, dsize);
    e810_ctx_set(ctx, E810_RLAN_CTX_CRCSTRIP, 1);
    e810_ctx_set(ctx, E810_RLAN_CTX_RXMAX, rxmax);
    e810_ctx_set(ctx, E810_RLAN_CTX_PREFENA, 1);
    wr32(f->h, E810_QRXFLXP_CNTXT(q), E810_RXDID_FLEX_NIC | (3 << 8));
    for (i = 0; i < E810_RLAN_CTX_SIZE / 4; i++) {
        wr32(f->h, E810_QRX_CONTEXT(i, q), ctx[4 * i] | ctx[4 * i + 1] << 8 |
             ctx[4 * i + 2] << 16 | (uint32_t)ctx[4 * i + 3] << 24);
    }
    wr32(f->h, E810_QRX_TAIL(q), 0);
    wr32(f->h, E810_QRX_CTRL(q), E810_QRX_CTRL_QENA_REQ);
}

static inline void rx_enable(Fixture *f, unsigned dbuf, unsigned rxmax,
                             unsigned dsize)
{
    rx_enable_q(f, 0, dbuf, rxmax, dsize);
}

/* Fills descriptors [from, to) of queue @q and moves its tail to @to. */
static inline void rx_post_q(Fixture *f, unsigned q, unsigned from,
                             unsigned to, unsigned dbuf)
{
    unsigned i;

    for (i = from; i < to; i++) {
        struct e810_rx_desc_read *d = mem_ptr(f->h, f->rxring[q] + i * 32);

        memset(d, 0, sizeof(*d));
        d->pkt_addr = htole64(f->bufs + (uint64_t)q * RING * RIG_BUF +
                              (uint64_t)i * dbuf);
    }
    wr32(f->h, E810_QRX_TAIL(q), to);
    harness_run_work(f->h);
}

static inline void rx_post(Fixture *f, unsigned from, unsigned to,
                           unsigned dbuf)
{
    rx_post_q(f, 0, from, to, dbuf);
}

static inline struct e810_rx_flex_desc_nic *rxd_q(Fixture *f, unsigned q,
                                                  unsigned i)
{
    return mem_ptr(f->h, f->rxring[q] + i * 32);
}

static inline struct e810_rx_flex_desc_nic *rxd(Fixture *f, unsigned i)
{
    return rxd_q(f, 0, i);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

#endif /* LAN_RIG_H */
