/*
 * libFuzzer harness for the X722 model's LAN queues
 * (qemu-device/model/x722_lan.c): queue contexts read from the LAN HMC,
 * Tx data and context descriptors (TSO, checksum offload, head
 * write-back), Rx descriptors and buffers, RSS (packet classifier types,
 * the Toeplitz hash, the PF LUT, PFQF_HENA and PFQF_CTL_0), and queue
 * enables, tails and segment descriptors written at any time.
 *
 * Input: a sequence of steps; each step's first byte picks
 *  - an Rx frame: up to 3 KiB of bytes, most of the time addressed to the
 *    function's MAC (so that it passes the filters and reaches RSS);
 *  - Tx: 1..8 raw 16-byte descriptors at queue 0's or 1's tail, buffer
 *    addresses folded into guest memory unless the input says otherwise,
 *    then the tail moves past them;
 *  - a register write: queue enables and tails, HENA, the LUT size,
 *    the HMC segment descriptor, interrupt control;
 *  - a context byte: one byte of a queue's context in the HMC changed,
 *    the queue enabled again;
 *  - RSS: a key and a PF LUT through the admin queue.
 * The model must never crash, leak, hang or hit undefined behaviour.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../unit/x722_rig.h"
#include "fuzz_input.h"

#define MAX_STEPS   32
#define RING        64
#define NQ          2

static XRig *rig;

static uint64_t txring(unsigned q)
{
    return XR_TXRING + q * 0x800;
}

static uint64_t rxring(unsigned q)
{
    return XR_RXRING + q * 0x800;
}

static uint8_t *txctx(unsigned q)
{
    return xr_ptr(rig, XR_HMC + q * 128);
}

static uint8_t *rxctx(unsigned q)
{
    return xr_ptr(rig, XR_HMC + X722_NUM_QUEUES * 128 + q * 32);
}

/* The LAN HMC, two Tx and two Rx queues, a VSI over both, as i40e. */
static void bring_up(void)
{
    uint8_t sw[512], props[128], p[16] = { 0 };
    unsigned q, i;

    xr_wr(rig, X722_PFHMC_SDDATAHIGH, (uint32_t)(XR_HMC >> 32));
    xr_wr(rig, X722_PFHMC_SDDATALOW, (uint32_t)XR_HMC | 512 << 2 | 2 | 1);
    xr_wr(rig, X722_PFHMC_SDCMD, X722_PFHMC_SDCMD_WR);
    xr_wr(rig, X722_GLHMC_LANTXBASE(0), 0);
    xr_wr(rig, X722_GLHMC_LANTXCNT(0), X722_NUM_QUEUES);
    xr_wr(rig, X722_GLHMC_LANRXBASE(0), X722_NUM_QUEUES * 128 / 512);
    xr_wr(rig, X722_GLHMC_LANRXCNT(0), X722_NUM_QUEUES);
    for (q = 0; q < NQ; q++) {
        uint8_t *c = txctx(q);

        memset(c, 0, 128);
        xr_set_bits(c, 32, 57, txring(q) / 128);
        xr_set_bits(c, 30, 1, 1);                  /* head write-back */
        xr_set_bits(c, 160, 1, 1);
        xr_set_bits(c, 161, 13, RING);
        xr_set_bits(c, 192, 64, txring(q) + RING * 16);
        xr_wr(rig, X722_QINT_TQCTL(q), X722_QINT_CAUSE_ENA | 1);
        xr_wr(rig, X722_QTX_ENA(q), X722_QENA_REQ);

        c = rxctx(q);
        memset(c, 0, 32);
        xr_set_bits(c, 32, 57, rxring(q) / 128);
        xr_set_bits(c, 89, 13, RING);
        xr_set_bits(c, 102, 7, 2048 / 128);
        xr_set_bits(c, 117, 1, 1);
        xr_set_bits(c, 174, 14, 9728);
        for (i = 0; i < RING; i++) {
            uint8_t *d = xr_ptr(rig, rxring(q) + i * 16);

            xr_put64(d, XR_BUFS + 0x10000 + (q * RING + i) * 2048);
            xr_put64(d + 8, 0);
        }
        xr_wr(rig, X722_QINT_RQCTL(q), X722_QINT_CAUSE_ENA | 1);
        xr_wr(rig, X722_QRX_ENA(q), X722_QENA_REQ);
        xr_wr(rig, X722_QRX_TAIL(q), RING - 1);
    }
    xr_wr(rig, X722_PFINT_DYN_CTLN(0), X722_DYN_CTL_INTENA);
    if (xr_cmd(rig, 0x0200, NULL, sw, sizeof(sw), false, NULL) == 0) {
        memset(props, 0, sizeof(props));
        xr_put16(props, 0x0040);
        xr_put16(props + 62, 1 << 9);           /* TC 0: 2 queues */
        xr_put16(p, xr_get16(sw + 18));
        xr_cmd(rig, 0x0211, p, props, sizeof(props), true, NULL);
    }
    xr_put16(p, 1);
    xr_put16(p + 2, 390 | 0x8000);
    memset(props, 0, 16);
    memcpy(props, rig->core.mac, 6);
    xr_cmd(rig, 0x0250, p, props, 16, true, NULL);
}

static void step_rx(In *in)
{
    static uint8_t f[3072];
    uint8_t fl = take8(in);
    size_t len = take16(in) % sizeof(f), n;

    memset(f, 0, len);
    n = take_buf(in, f, len);
    if (fl & 1) {
        memcpy(f, rig->core.mac, len < 6 ? len : 6);
    }
    if (fl & 2 && len >= 14) {
        f[12] = 0x08;                           /* IPv4 */
        f[13] = 0x00;
    }
    (void)n;
    if (x722_core_can_receive(&rig->core)) {
        x722_core_receive(&rig->core, f, len);
    }
}

static void step_tx(In *in)
{
    uint8_t sel = take8(in);
    unsigned q = sel & 1, cnt = 1 + ((sel >> 1) & 7), i;
    uint32_t tail = xr_rd(rig, X722_QTX_TAIL(q)) % RING;

    for (i = 0; i < cnt && in->n; i++) {
        uint8_t *d = xr_ptr(rig, txring(q) + ((tail + i) % RING) * 16);
        uint64_t addr;

        take_buf(in, d, 16);
        addr = xr_get64(d);
        if (!(sel & 0x80)) {
            /* buffers in guest memory: XR_BUFS .. + 64 KiB */
            xr_put64(d, XR_BUFS + (addr & 0xffff));
        }
    }
    if (sel & 0x40) {
        take_buf(in, xr_ptr(rig, XR_BUFS), 256);    /* some frame bytes */
    }
    xr_wr(rig, X722_QTX_TAIL(q), (tail + i) % RING);
    x722_core_run_work(&rig->core);
}

static void step_reg(In *in)
{
    static const uint32_t regs[] = {
        X722_QTX_ENA(0), X722_QTX_ENA(1), X722_QRX_ENA(0), X722_QRX_ENA(1),
        X722_QTX_TAIL(0), X722_QTX_TAIL(1), X722_QRX_TAIL(0),
        X722_QRX_TAIL(1), X722_PFQF_HENA(0), X722_PFQF_HENA(1),
        X722_PFQF_CTL_0, X722_PFHMC_SDDATALOW, X722_PFHMC_SDCMD,
        X722_PFINT_DYN_CTLN(0), X722_QINT_RQCTL(0), X722_PFGEN_CTRL,
    };
    uint32_t off = regs[take8(in) % (sizeof(regs) / 4)];

    xr_wr(rig, off, take32(in));
    x722_core_run_work(&rig->core);
}

static void step_ctx(In *in)
{
    uint8_t sel = take8(in), v = take8(in);
    unsigned q = sel & 1;

    if (sel & 2) {
        rxctx(q)[(sel >> 2) % 32] = v;
        xr_wr(rig, X722_QRX_ENA(q), 0);
        xr_wr(rig, X722_QRX_ENA(q), X722_QENA_REQ);
    } else {
        txctx(q)[(sel >> 2) % 64] = v;
        xr_wr(rig, X722_QTX_ENA(q), 0);
        xr_wr(rig, X722_QTX_ENA(q), X722_QENA_REQ);
    }
    x722_core_run_work(&rig->core);
}

static void step_rss(In *in)
{
    uint8_t p[16] = { 0 }, key[52] = { 0 }, lut[512] = { 0 };
    uint8_t fl = take8(in);
    unsigned i;

    take_buf(in, key, sizeof(key));
    for (i = 0; i < sizeof(lut) && in->n; i++) {
        lut[i] = take8(in) & (fl & 1 ? 0xff : 1);
    }
    xr_put16(p, 6 | 0x8000);
    xr_cmd(rig, 0x0b02, p, key, sizeof(key), true, NULL);
    xr_put16(p + 2, fl >> 1 & 1);               /* PF or VSI LUT */
    xr_cmd(rig, 0x0b03, p, lut, fl & 4 ? 64 : sizeof(lut), true, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    In in = { data, size };
    unsigned steps;

    if (!rig) {
        rig = calloc(1, sizeof(*rig));
        if (!rig || xr_init(rig)) {
            abort();
        }
    }
    /* Power-on state, then the driver's set-up (x722_core_reset()). */
    x722_core_reset(&rig->core);
    rig->tx_log_len = 0;
    rig->core.carrier = true;
    memset(rig->mem, 0, 0x80000);      /* rings, HMC, buffers */
    xr_init_aq(rig);
    bring_up();
    xr_wr(rig, X722_PFQF_HENA(1), 1u << (33 - 32));
    xr_wr(rig, X722_PFQF_CTL_0, X722_PFQF_CTL_0_LUT512);
    for (steps = 0; in.n && steps < MAX_STEPS; steps++) {
        switch (take8(&in) % 8) {
        case 0:
        case 1:
        case 2:
            step_rx(&in);
            break;
        case 3:
        case 4:
            step_tx(&in);
            break;
        case 5:
            step_reg(&in);
            break;
        case 6:
            step_ctx(&in);
            break;
        default:
            step_rss(&in);
            break;
        }
    }
    return 0;
}
