/*
 * libFuzzer harness for the LAN data path: Tx queues added with 0x0C30
 * (context from the rig as ice_setup_tx_ctx() fills it, or with input
 * fields), Rx queues loaded through QRX_CONTEXT and enabled with QRX_CTRL
 * (as ice_setup_rx_ctx()/ice_write_rxq_ctx() do, or with raw context
 * words), then descriptor chains from the input: data descriptors with any
 * command, offset and size bits, context descriptors (TSO length, MSS,
 * IL2TAG2), multi-buffer frames, rings that wrap, doorbells and tails out
 * of range, small Rx buffers that split a frame, the Tx side looped back
 * into the Rx side, queues disabled mid-traffic, interrupt cause/ITR/DYN_CTL
 * writes and a PF reset in the middle of it all.
 *
 * One device and the unit tests' AQ driver are set up once; every input
 * starts from a power-on reset, a fresh VSI and zeroed rings and buffers.
 * Nothing may crash, leak, hit undefined behaviour or hang.
 *
 * Input: commands, one byte each followed by operands (run_command()).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../unit/model_harness.c"
#include "../unit/aq_driver.c"
#include "cmocka_shim.c"
#include "../unit/lan_rig.h"

#include "hw/e810_regs.h"

#define MAX_STEPS   96
#define TXBUF_LEN   (64u * 1024)

typedef struct Lz {
    Fixture f;
    uint64_t mark;          /* harness memory before the rig */
    uint64_t txbuf;         /* Tx frame bytes */
    unsigned tx_ntu[RIG_QUEUES];
    unsigned rx_ntu[RIG_QUEUES];
    unsigned rx_dbuf[RIG_QUEUES];
    uint32_t teid[RIG_QUEUES];
    bool txq_on[RIG_QUEUES];
    bool aq_ok;             /* the AQ still runs (no PF reset yet) */
    unsigned looped;        /* wire frames already looped back */
} Lz;

typedef struct Input {
    const uint8_t *p;
    size_t left;
} Input;

static uint32_t take(Input *in, unsigned n)
{
    uint32_t v = 0;
    unsigned i;

    for (i = 0; i < n; i++) {
        if (in->left) {
            v |= (uint32_t)*in->p++ << (8 * i);
            in->left--;
        }
    }
    return v;
}

static void run(Lz *z)
{
    unsigned i;

    for (i = 0; i < 16 && z->f.h->core.work_pending; i++) {
        harness_run_work(z->f.h);
    }
}

/* Power-on state, then the rig's bring-up (lan_rig.h setup()). */
static void start(Lz *z)
{
    Fixture *f = &z->f;
    unsigned q;

    e810_core_reset(&f->h->core);
    e810_core_set_mac(&f->h->core, (const uint8_t[6]){ 0x52, 0x54, 0x00,
                                                       0xe8, 0x10, 0 });
    e810_core_set_link(&f->h->core, true);
    memset(f->h->mem + z->mark, 0, f->h->mem_next - z->mark);
    f->h->mem_next = z->mark;
    f->h->tx_frames = 0;
    f->h->tx_hook = rig_record;
    f->h->tx_hook_arg = f->wire;
    f->wire->n = 0;
    aq_init(f->h, &f->aq);
    f->qgrp = aq_sched_qgrp(f->h, &f->aq);
    f->vsi = aq_add_pf_vsi_and_mac_rules(f->h, &f->aq, rig_mac, RIG_QUEUES);
    for (q = 0; q < RIG_QUEUES; q++) {
        f->txring[q] = mem_alloc(f->h, RING * sizeof(struct e810_tx_desc));
        f->rxring[q] = mem_alloc(f->h, RING * 32);
        z->tx_ntu[q] = 0;
        z->rx_ntu[q] = 0;
        z->rx_dbuf[q] = RIG_BUF;
        z->txq_on[q] = false;
    }
    f->bufs = mem_alloc(f->h, RIG_QUEUES * RING * RIG_BUF);
    z->txbuf = mem_alloc_aligned(f->h, TXBUF_LEN, 4096);
    z->aq_ok = true;
    z->looped = 0;
}

/* 0x0C30 for queue @q: the rig's context, some fields from the input. */
static void add_tx(Lz *z, Input *in)
{
    Fixture *f = &z->f;
    uint32_t sel = take(in, 1), q = sel % RIG_QUEUES;
    uint8_t ctx[E810_TXQ_CTX_SIZE];

    if (!z->aq_ok) {
        return;
    }
    memset(ctx, 0, sizeof(ctx));
    e810_ctx_set(ctx, E810_TLAN_CTX_BASE, f->txring[q] >> E810_TLAN_BASE_SHIFT);
    /* Mostly the ring's length; sometimes anything (longer than the ring
     * still lands in harness memory, up to 8191 descriptors). */
    e810_ctx_set(ctx, E810_TLAN_CTX_QLEN,
                 sel & 0x80 ? take(in, 2) & 0x1fff : (sel & 0x40 ? 8 : RING));
    e810_ctx_set(ctx, E810_TLAN_CTX_PF_NUM, sel & 0x20 ? take(in, 1) & 7 : 0);
    e810_ctx_set(ctx, E810_TLAN_CTX_VMVF_TYPE, E810_TLAN_VMVF_TYPE_PF);
    e810_ctx_set(ctx, E810_TLAN_CTX_LEGACY_INT, 1);
    e810_ctx_set(ctx, E810_TLAN_CTX_TSO_ENA, !(sel & 0x10));
    e810_ctx_set(ctx, E810_TLAN_CTX_TSO_QNUM, q);
    e810_ctx_set(ctx, E810_TLAN_CTX_SRC_VSI,
                 sel & 0x08 ? take(in, 2) & 0x3ff : f->vsi);
    if (aq_add_txq(f->h, &f->aq, f->qgrp, q, ctx, &z->teid[q]) ==
        E810_AQ_RC_OK) {
        z->txq_on[q] = true;
        z->tx_ntu[q] = 0;
    }
}

/* 0x0C31 for queue @q, flushing or not (ice_dis_vsi_txq()). */
static void dis_tx(Lz *z, Input *in)
{
    Fixture *f = &z->f;
    uint32_t sel = take(in, 1), q = sel % RIG_QUEUES;
    struct {
        struct e810_aqc_dis_txq_item it;
        __le16 id;
    } __attribute__((packed)) dis;
    struct e810_aq_desc d = aq_desc(E810_AQC_DIS_TXQS);

    if (!z->aq_ok) {
        return;
    }
    memset(&dis, 0, sizeof(dis));
    dis.it.parent_teid = htole32(f->qgrp);
    dis.it.num_qs = 1;
    dis.id = htole16(q);
    ((struct e810_aqc_dis_txqs *)d.params.raw)->num_entries = 1;
    ((struct e810_aqc_dis_txqs *)d.params.raw)->cmd_type =
        sel & 0x80 ? E810_AQC_Q_DIS_CMD_FLUSH_PIPE : 0;
    if (aq_send(f->h, &f->aq, &d, &dis, sizeof(dis)) == E810_AQ_RC_OK) {
        z->txq_on[q] = false;
    }
}

/* Rx queue @q: the rig's context with the input's buffer size and limits,
 * or raw context words; then QRX_CTRL. */
static void load_rx(Lz *z, Input *in)
{
    Fixture *f = &z->f;
    uint32_t sel = take(in, 1), q = sel % RIG_QUEUES;
    unsigned i;

    if (sel & 0x80) {
        for (i = 0; i < E810_RLAN_CTX_SIZE / 4; i++) {
            wr32(f->h, E810_QRX_CONTEXT(i, q), take(in, 4));
        }
        wr32(f->h, E810_QRX_CTRL(q), take(in, 1));
    } else {
        /* 128-byte multiples up to the rig's stride. */
        unsigned dbuf = (1 + (take(in, 1) & 0xf)) * 128;

        rx_enable_q(f, q, dbuf, sel & 0x40 ? take(in, 2) & 0x3fff : 9728,
                    !(sel & 0x20));     /* 32-byte descriptors, or 16 */
        z->rx_dbuf[q] = dbuf;
        z->rx_ntu[q] = 0;
    }
    run(z);
}

/* Posts @n Rx buffers on @q from its next-to-use, tail after them (or
 * anywhere). */
static void post_rx(Lz *z, Input *in)
{
    Fixture *f = &z->f;
    uint32_t sel = take(in, 1), q = sel % RIG_QUEUES;
    unsigned n = take(in, 1) % RING, i;

    for (i = 0; i < n; i++) {
        unsigned slot = (z->rx_ntu[q] + i) % RING;
        struct e810_rx_desc_read *d = mem_ptr(f->h, f->rxring[q] + slot * 32);

        memset(d, 0, sizeof(*d));
        d->pkt_addr = htole64(f->bufs + (uint64_t)q * RING * RIG_BUF +
                              (uint64_t)slot * z->rx_dbuf[q]);
        if ((sel & 0x60) == 0x60 && i == n / 2) {
            /* A buffer outside guest memory. */
            d->pkt_addr = htole64(0xdead00000000ull);
        }
    }
    z->rx_ntu[q] = (z->rx_ntu[q] + n) % RING;
    wr32(f->h, E810_QRX_TAIL(q), sel & 0x80 ? take(in, 2) : z->rx_ntu[q]);
    run(z);
}

/* Frame bytes into the Tx buffer area: raw, or an Ethernet/IPv4/TCP or
 * UDP header for the rig's MAC (what TSO and the checksums parse). */
static void put_bytes(Lz *z, Input *in)
{
    Fixture *f = &z->f;
    uint32_t sel = take(in, 1), off = take(in, 2) % (TXBUF_LEN - 256);
    uint8_t *p = mem_ptr(f->h, z->txbuf + off);
    unsigned n, i;

    if (sel & 1) {
        n = take(in, 1);
        for (i = 0; i < n; i++) {
            p[i] = take(in, 1);
        }
        return;
    }
    memcpy(p, sel & 2 ? (const uint8_t[6]){ 0xff, 0xff, 0xff, 0xff, 0xff,
                                            0xff } : rig_mac, 6);
    memcpy(p + 6, (const uint8_t[6]){ 0x02, 0, 0, 0, 0, 9 }, 6);
    if (sel & 4) {
        /* IPv6 + TCP/UDP. */
        p[12] = 0x86;
        p[13] = 0xdd;
        memset(p + 14, 0, 40);
        p[14] = 0x60;
        p[18] = take(in, 1);
        p[19] = take(in, 1);
        p[20] = sel & 8 ? 17 : 6;
        p[21] = 64;
        memset(p + 54, 0, 20);
        p[66] = 0x50;
        return;
    }
    p[12] = 0x08;
    p[13] = 0x00;
    memset(p + 14, 0, 20);
    p[14] = 0x45;
    p[16] = take(in, 1);
    p[17] = take(in, 1);
    p[22] = 64;
    p[23] = sel & 8 ? 17 : 6;
    p[26] = 10;
    p[30] = 10;
    p[33] = 2;
    memset(p + 34, 0, 20);
    p[46] = (sel & 0x10 ? take(in, 1) & 0xf0 : 0x50);   /* TCP doff */
    p[38] = sel;                                        /* seq */
}

/* A chain of descriptors on Tx queue @q, then (usually) its doorbell. */
static void post_tx(Lz *z, Input *in)
{
    Fixture *f = &z->f;
    uint32_t sel = take(in, 1), q = sel % RIG_QUEUES;
    unsigned n = 1 + take(in, 1) % 12, i;

    for (i = 0; i < n; i++) {
        unsigned slot = z->tx_ntu[q] % RING;
        uint32_t k = take(in, 1);

        if (k & 0x80) {
            /* Context descriptor: TSO (mostly) with length and MSS. */
            uint64_t qw1 = E810_TX_DESC_DTYPE_CTX |
                FIELD_PREP(E810_TXD_CTX_CMD, k & 0x40 ? take(in, 1) :
                           E810_TX_CTX_DESC_TSO) |
                FIELD_PREP(E810_TXD_CTX_TSO_LEN, take(in, 3)) |
                FIELD_PREP(E810_TXD_CTX_MSS, take(in, 2));

            txd_put(f, q, slot, (uint64_t)take(in, 2) << 32, qw1);
        } else {
            uint64_t addr = z->txbuf + take(in, 2) % TXBUF_LEN;
            uint32_t len = take(in, 2) & 0x3fff;
            uint32_t cmd = (k & 1 ? E810_TX_DESC_CMD_EOP : 0) |
                           (k & 2 ? E810_TX_DESC_CMD_RS : 0);

            if (k & 4) {
                cmd |= take(in, 2) & 0xfff;
            }
            if ((k & 0x60) == 0x60) {
                addr = 0xdead00000000ull | addr;
            }
            txd_put(f, q, slot, addr,
                    FIELD_PREP(E810_TXD_DTYPE, k & 8 ? take(in, 1) & 0xf :
                               E810_TX_DESC_DTYPE_DATA) |
                    FIELD_PREP(E810_TXD_CMD, cmd) |
                    FIELD_PREP(E810_TXD_OFFSET, k & 0x10 ? take(in, 3) :
                               FIELD_PREP(E810_TXD_OFF_MACLEN, 7) |
                               FIELD_PREP(E810_TXD_OFF_IPLEN, 5) |
                               FIELD_PREP(E810_TXD_OFF_L4LEN, 5)) |
                    FIELD_PREP(E810_TXD_BUF_SZ, len) |
                    FIELD_PREP(E810_TXD_L2TAG1, k));
        }
        z->tx_ntu[q]++;
    }
    if (sel & 0x40) {
        return;     /* written, not yet rung */
    }
    wr32(f->h, E810_QTX_COMM_DBELL(q),
         sel & 0x80 ? take(in, 2) : z->tx_ntu[q] % RING);
    run(z);
}

/* A frame from the wire: the input's bytes behind a chosen address. */
static void rx_frame(Lz *z, Input *in)
{
    static uint8_t fr[E810_FRAME_MAX + 64];
    uint32_t sel = take(in, 1);
    size_t len = take(in, 2) % sizeof(fr), i;

    memset(fr, 0, len);
    if (len >= 14) {
        memcpy(fr, sel & 1 ? (const uint8_t[6]){ 0xff, 0xff, 0xff, 0xff,
                                                 0xff, 0xff } : rig_mac, 6);
        fr[12] = sel & 2 ? 0x86 : 0x08;
        fr[13] = sel & 2 ? 0xdd : 0x00;
    }
    for (i = 14; i < len && i < 14 + 64; i++) {
        fr[i] = take(in, 1);
    }
    e810_core_receive(&z->f.h->core, fr, len);
    run(z);
}

/* The frames the device sent since the last loopback, back into it. */
static void loopback(Lz *z)
{
    RigWire *w = z->f.wire;

    while (z->looped < w->n && z->looped < RIG_MAX_FRAMES) {
        e810_core_receive(&z->f.h->core, w->frame[z->looped],
                          w->len[z->looped]);
        z->looped++;
        run(z);
    }
}

/* Interrupt registers: cause control, DYN_CTL, ITR, GLINT_CTL. */
static void intr(Lz *z, Input *in)
{
    Harness *h = z->f.h;
    uint32_t sel = take(in, 1), v = take(in, 4), n = sel >> 3 & 7;

    switch (sel & 7) {
    case 0:
        wr32(h, E810_QINT_TQCTL(n % RIG_QUEUES), v);
        break;
    case 1:
        wr32(h, E810_QINT_RQCTL(n % RIG_QUEUES), v);
        break;
    case 2:
    case 3:
        wr32(h, E810_GLINT_DYN_CTL(n), v);
        break;
    case 4:
        wr32(h, E810_GLINT_ITR(sel >> 6 & 3, n), v);
        break;
    case 5:
        wr32(h, E810_GLINT_CTL, v);
        break;
    default:
        harness_advance(h, (uint64_t)v << 4);
        break;
    }
    run(z);
}

static void run_command(Lz *z, Input *in)
{
    uint32_t c = take(in, 1);

    switch (c % 12) {
    case 0:
        add_tx(z, in);
        break;
    case 1:
        load_rx(z, in);
        break;
    case 2:
        post_rx(z, in);
        break;
    case 3:
        put_bytes(z, in);
        break;
    case 4:
    case 5:
        post_tx(z, in);
        break;
    case 6:
        rx_frame(z, in);
        break;
    case 7:
        loopback(z);
        break;
    case 8:
        intr(z, in);
        break;
    case 9:
        if (c & 0x80) {
            /* Rx queue disabled mid-traffic. */
            wr32(z->f.h, E810_QRX_CTRL((c >> 4) % RIG_QUEUES), 0);
            run(z);
        } else {
            dis_tx(z, in);
        }
        break;
    case 10:
        if ((c >> 4) == 0xf) {
            /* PF software reset; the rig's AQ is gone with it. */
            wr32(z->f.h, E810_PFGEN_CTRL, E810_PFGEN_CTRL_PFSWR);
            run(z);
            z->aq_ok = false;
        } else {
            run(z);
        }
        break;
    default:
        z->f.wire->n = z->looped = 0;
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Lz *z;
    Input in = { data, size };
    unsigned n;

    if (!z) {
        z = calloc(1, sizeof(*z));
        if (!z) {
            abort();
        }
        z->f.h = harness_new(0);
        z->f.wire = calloc(1, sizeof(*z->f.wire));
        if (!z->f.h || !z->f.wire) {
            abort();
        }
        z->mark = z->f.h->mem_next;
    }
    start(z);
    for (n = 0; in.left && n < MAX_STEPS; n++) {
        run_command(z, &in);
    }
    run(z);
    return 0;
}
