/*
 * Emulated Intel X722 PF: the LAN HMC and the LAN queues.
 *
 * Queue contexts live in host memory, in the function's LAN HMC: the
 * driver programs segment descriptors (PFHMC_SDDATAHIGH/LOW, committed by
 * PFHMC_SDCMD), places the Tx contexts (128 bytes) at GLHMC_LANTXBASE x
 * 512 and the Rx contexts (32 bytes) at GLHMC_LANRXBASE x 512 of the FPM
 * space, and writes them there itself (i40e_set_lan_tx_queue_context()).
 * The device reads a queue's context when QTX_ENA/QRX_ENA asks for the
 * queue, and refuses it (QENA_STAT stays clear) when the context is not
 * one it can run.
 *
 * Tx: 16-byte data descriptors (and context descriptors for TSO);
 * completion is the head write-back the context enables (i40e never reads
 * descriptor done bits). Rx: 16-byte read descriptors written back in the
 * 16-byte format (i40e_rx_desc wb.qword1: status, error, ptype, length;
 * qword0's upper half the RSS hash, FLTSTAT 3 saying so).
 *
 * VLAN: an 802.1Q tag is stripped into the last descriptor's L2TAG1 while
 * the VSI's port_vlan_flags say so (the default; i40e turns it off with
 * "rx-vlan-offload off").
 *
 * RSS: a frame whose packet classifier type (enum i40e_filter_pctype)
 * PFQF_HENA enables is hashed with the Toeplitz key of set RSS key
 * (0x0B02) over its addresses and ports, and the PF LUT of set RSS LUT
 * (0x0B03), 128 or 512 entries as PFQF_CTL_0.HASHLUTSIZE says, picks the
 * queue within the VSI's TC 0 queue region; without a key, a LUT or an
 * enabled type the frame goes to the region's first queue.
 * The checksum and packet-type logic is the E810 model's
 * (e810_lan_tx_csum(), e810_lan_rx_classify(): the offload fields and
 * packet types are the same in both families).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "e810_switch.h"    /* e810_rss_input(), e810_toeplitz() */
#include "x722_core.h"

#define TXD_DTYPE_DATA      0x0
#define TXD_DTYPE_CONTEXT   0x1
#define TXD_CMD_EOP         0x001
#define TXD_CMD_IL2TAG1     0x008
#define TXD_CMD_DUMMY       0x010
#define TXD_BUF_MAX         16383
#define TXD_CTX_TSO         0x01
#define TSO_MSS_MIN         64
#define TSO_MSS_MAX         9668
#define RXD_DD              (1ull << 0)
#define RXD_EOF             (1ull << 1)
#define RXD_L2TAG1P         (1ull << 2)
#define RXD_L3L4P           (1ull << 3)
#define RXD_FLTSTAT_RSS     (3ull << 12)
#define RXD_ERR_IPE         (1ull << 22)
#define RXD_ERR_L4E         (1ull << 23)
#define RXD_PTYPE_SHIFT     30
#define RXD_LEN_SHIFT       38
#define ETH_HLEN            14
#define ETH_ZLEN            60

static uint64_t ld64(const uint8_t *p)
{
    uint64_t v = 0;
    int i;

    for (i = 7; i >= 0; i--) {
        v = v << 8 | p[i];
    }
    return v;
}

static void st64(uint8_t *p, uint64_t v)
{
    int i;

    for (i = 0; i < 8; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

/* Bits [lsb, lsb + width) of a little-endian context image. */
static uint64_t bits(const uint8_t *ctx, unsigned lsb, unsigned width)
{
    uint64_t v = 0;
    unsigned i;

    for (i = 0; i < width; i++) {
        unsigned b = lsb + i;

        v |= (uint64_t)((ctx[b / 8] >> (b % 8)) & 1) << i;
    }
    return v;
}

void x722_lan_reset(X722Core *core)
{
    memset(core->sd_addr, 0, sizeof(core->sd_addr));
    memset(core->sd_bpcount, 0, sizeof(core->sd_bpcount));
    memset(core->sd_valid, 0, sizeof(core->sd_valid));
    memset(core->txq, 0, sizeof(core->txq));
    memset(core->rxq, 0, sizeof(core->rxq));
}

/* ---- HMC ---------------------------------------------------------------- */

void x722_lan_sd_cmd(X722Core *core, uint32_t val)
{
    uint32_t idx = val & X722_PFHMC_SDCMD_IDX;
    uint32_t lo = *x722_reg(core, X722_PFHMC_SDDATALOW);
    uint32_t hi = *x722_reg(core, X722_PFHMC_SDDATAHIGH);

    if (!(val & X722_PFHMC_SDCMD_WR)) {
        /* A read of the SD back into SDDATA*: not used by i40e. */
        x722_log(core, E810_LOG_UNIMP, "x722: PFHMC_SDCMD read of SD %u",
                 idx);
        return;
    }
    if (idx >= X722_HMC_MAX_SDS) {
        x722_log(core, E810_LOG_GUEST_ERROR, "x722: PFHMC_SDCMD SD %u "
                 "beyond the function's %u", idx, X722_HMC_MAX_SDS);
        core->stats.hmc_faults++;
        return;
    }
    core->stats.hmc_sd_writes++;
    if (!(lo & X722_SD_VALID)) {
        core->sd_valid[idx] = false;
        return;
    }
    if (!(lo & X722_SD_TYPE_DIRECT)) {
        /* Paged SDs back the protocol engine's objects, not the LAN's. */
        x722_log(core, E810_LOG_UNIMP, "x722: paged SD %u not modelled",
                 idx);
        core->sd_valid[idx] = false;
        return;
    }
    if (X722_SD_BPCOUNT(lo) == 0 || X722_SD_BPCOUNT(lo) > 512) {
        x722_log(core, E810_LOG_GUEST_ERROR, "x722: SD %u with %u backing "
                 "pages", idx, X722_SD_BPCOUNT(lo));
        core->sd_valid[idx] = false;
        core->stats.hmc_faults++;
        return;
    }
    core->sd_addr[idx] = (uint64_t)hi << 32 | (lo & X722_SD_ADDR_MASK);
    core->sd_bpcount[idx] = X722_SD_BPCOUNT(lo);
    core->sd_valid[idx] = true;
}

bool x722_hmc_translate(X722Core *core, uint64_t fpm, size_t len,
                        uint64_t *pa)
{
    uint64_t sd = fpm / X722_HMC_SD_SIZE, off = fpm % X722_HMC_SD_SIZE;

    if (sd >= X722_HMC_MAX_SDS || !core->sd_valid[sd] ||
        off + len > (uint64_t)core->sd_bpcount[sd] * 4096) {
        core->stats.hmc_faults++;
        x722_log(core, E810_LOG_GUEST_ERROR, "x722: HMC access at FPM "
                 "0x%llx (SD %llu) with no valid segment",
                 (unsigned long long)fpm, (unsigned long long)sd);
        return false;
    }
    *pa = core->sd_addr[sd] + off;
    return true;
}

/* Reads queue @q's context of @size bytes from the object @base/@cnt. */
static bool read_ctx(X722Core *core, uint32_t base_reg, uint32_t cnt_reg,
                     unsigned q, unsigned size, uint8_t *ctx)
{
    uint64_t fpm, pa;
    uint32_t cnt = *x722_reg(core, cnt_reg);

    if (q >= cnt) {
        x722_log(core, E810_LOG_GUEST_ERROR, "x722: queue %u beyond the %u "
                 "contexts of the LAN HMC", q, cnt);
        core->stats.bad_ctx++;
        return false;
    }
    fpm = (uint64_t)(*x722_reg(core, base_reg) & 0xffffff) * 512 +
          (uint64_t)q * size;
    return x722_hmc_translate(core, fpm, size, &pa) &&
           x722_dma_read(core, pa, ctx, size);
}

static bool ring_len_ok(uint32_t qlen)
{
    /* Multiples of 32 descriptors, at most 8160 (i40e_txrx.h limits). */
    return qlen >= 32 && qlen <= 8160 && !(qlen % 32);
}

static void ctx_refused(X722Core *core, const char *what, unsigned q,
                        const char *why)
{
    core->stats.bad_ctx++;
    x722_log(core, E810_LOG_GUEST_ERROR, "x722: %s queue %u context "
             "refused: %s", what, q, why);
}

static bool load_txq(X722Core *core, unsigned q)
{
    uint8_t ctx[X722_TXQ_CTX_SIZE];
    X722TxQueue *t = &core->txq[q];

    if (!read_ctx(core, X722_GLHMC_LANTXBASE(core->pf_id),
                  X722_GLHMC_LANTXCNT(core->pf_id), q, sizeof(ctx), ctx)) {
        return false;
    }
    memset(t, 0, sizeof(*t));
    t->base = bits(ctx, 32, 57) * 128;
    t->qlen = bits(ctx, 161, 13);
    t->head = bits(ctx, 0, 13);
    t->head_wb = bits(ctx, 160, 1);
    t->head_wb_addr = bits(ctx, 192, 64);
    if (!t->base || !ring_len_ok(t->qlen) || t->head >= t->qlen) {
        ctx_refused(core, "Tx", q, "base, length or head");
        return false;
    }
    if (bits(ctx, 90, 1) || bits(ctx, 91, 1)) {
        x722_log(core, E810_LOG_UNIMP, "x722: Tx queue %u asks for "
                 "timesync or flow director, not modelled", q);
        core->stats.bad_ctx++;
        return false;
    }
    if (t->head_wb && (t->head_wb_addr & 3)) {
        ctx_refused(core, "Tx", q, "head write-back address not aligned");
        return false;
    }
    /* The tail register may have moved before the queue was enabled. */
    t->tail = *x722_reg(core, X722_QTX_TAIL(q));
    if (t->tail >= t->qlen) {
        t->tail = t->head;
    }
    t->enabled = true;
    return true;
}

static bool load_rxq(X722Core *core, unsigned q)
{
    uint8_t ctx[X722_RXQ_CTX_SIZE];
    X722RxQueue *r = &core->rxq[q];

    if (!read_ctx(core, X722_GLHMC_LANRXBASE(core->pf_id),
                  X722_GLHMC_LANRXCNT(core->pf_id), q, sizeof(ctx), ctx)) {
        return false;
    }
    memset(r, 0, sizeof(*r));
    r->head = bits(ctx, 0, 13);
    r->base = bits(ctx, 32, 57) * 128;
    r->qlen = bits(ctx, 89, 13);
    r->dbuf = bits(ctx, 102, 7) * 128;
    r->rxmax = bits(ctx, 174, 14);
    r->crcstrip = bits(ctx, 117, 1);
    if (!r->base || !ring_len_ok(r->qlen) || r->head >= r->qlen) {
        ctx_refused(core, "Rx", q, "base, length or head");
        return false;
    }
    if (r->dbuf < 1024 || r->rxmax < ETH_ZLEN || r->rxmax > 9728 ||
        r->rxmax > 5 * r->dbuf) {
        ctx_refused(core, "Rx", q, "buffer size or rxmax");
        return false;
    }
    if (bits(ctx, 116, 1) || bits(ctx, 114, 2) || !r->crcstrip) {
        x722_log(core, E810_LOG_UNIMP, "x722: Rx queue %u: 32-byte "
                 "descriptors, header split or CRC kept: not modelled", q);
        core->stats.bad_ctx++;
        return false;
    }
    /*
     * i40e_configure_rx_ring() posts its buffers (QRX_TAIL) before the
     * queue is enabled: the device starts from that tail.
     */
    r->tail = *x722_reg(core, X722_QRX_TAIL(q));
    if (r->tail >= r->qlen) {
        r->tail = r->head;
    }
    r->enabled = true;
    return true;
}

void x722_lan_qtx_ena(X722Core *core, unsigned q, uint32_t val)
{
    uint32_t *reg = x722_reg(core, X722_QTX_ENA(q));

    if (val & X722_QENA_REQ) {
        if (!core->txq[q].enabled) {
            if (!load_txq(core, q)) {
                *reg = X722_QENA_REQ;   /* requested, never running */
                return;
            }
            if (core->txq[q].tail != core->txq[q].head) {
                core->ops->schedule_work(core->opaque);
            }
        }
        *reg = X722_QENA_REQ | X722_QENA_STAT;
    } else {
        core->txq[q].enabled = false;
        *reg = 0;
    }
}

void x722_lan_qrx_ena(X722Core *core, unsigned q, uint32_t val)
{
    uint32_t *reg = x722_reg(core, X722_QRX_ENA(q));

    if (val & X722_QENA_REQ) {
        if (!core->rxq[q].enabled) {
            if (!load_rxq(core, q)) {
                *reg = X722_QENA_REQ;
                return;
            }
            if (core->ops->rx_ready) {
                core->ops->rx_ready(core->opaque);
            }
        }
        *reg = X722_QENA_REQ | X722_QENA_STAT;
    } else {
        core->rxq[q].enabled = false;
        *reg = 0;
    }
}

void x722_lan_qtx_tail(X722Core *core, unsigned q, uint32_t val)
{
    X722TxQueue *t = &core->txq[q];

    if (!t->enabled) {
        return;
    }
    if (val >= t->qlen) {
        x722_log(core, E810_LOG_GUEST_ERROR, "x722: QTX_TAIL(%u) %u beyond "
                 "a ring of %u", q, val, t->qlen);
        return;
    }
    t->tail = val;
    core->ops->schedule_work(core->opaque);
}

void x722_lan_qrx_tail(X722Core *core, unsigned q, uint32_t val)
{
    X722RxQueue *r = &core->rxq[q];

    if (!r->enabled) {
        return;
    }
    if (val >= r->qlen) {
        x722_log(core, E810_LOG_GUEST_ERROR, "x722: QRX_TAIL(%u) %u beyond "
                 "a ring of %u", q, val, r->qlen);
        return;
    }
    r->tail = val;
    if (core->ops->rx_ready) {
        core->ops->rx_ready(core->opaque);
    }
}

static void queue_cause(X722Core *core, uint32_t ctl_reg)
{
    uint32_t ctl = *x722_reg(core, ctl_reg);

    if (ctl & X722_QINT_CAUSE_ENA) {
        x722_vector_cause(core, ctl & X722_QINT_MSIX_INDX);
    }
}

/* ---- Tx ----------------------------------------------------------------- */

static uint16_t csum_fold(uint32_t s)
{
    while (s >> 16) {
        s = (s & 0xffff) + (s >> 16);
    }
    return (uint16_t)s;
}

static void transmit(X722Core *core, uint8_t *f, size_t len, bool tag,
                     uint16_t tci)
{
    if (tag) {
        memmove(f + 16, f + 12, len - 12);
        f[12] = 0x81;
        f[13] = 0x00;
        f[14] = tci >> 8;
        f[15] = (uint8_t)tci;
        len += 4;
    }
    core->ops->transmit(core->opaque, f, len);
    core->stats.tx_packets++;
    core->stats.tx_bytes += len;
}

/*
 * TSO (context descriptor CMD.TSO): the headers of the first data
 * descriptor's MACLEN + IPLEN + L4LEN are repeated in front of each MSS
 * bytes of the TSO length; per segment the device sets the IPv4 total
 * length and ID (or the IPv6 payload length), the TCP sequence number and
 * flags, and the checksums, adding the segment's L4 length to the
 * pseudo-header sum i40e_tso() left in the TCP checksum.
 */
static bool tso(X722Core *core, uint8_t *pkt, size_t len, uint32_t cmd,
                uint32_t off, uint64_t ctx_qw1, bool tag, uint16_t tci)
{
    size_t l3 = (off & 0x7f) * 2, iplen = ((off >> 7) & 0x7f) * 4;
    size_t l4 = l3 + iplen, hlen = l4 + ((off >> 14) & 0xf) * 4;
    uint32_t mss = (ctx_qw1 >> 50) & 0x3fff;
    size_t tso_len = (ctx_qw1 >> 30) & 0x3ffff;
    bool v4 = (cmd & 0x60) >= 0x40;
    uint32_t seq0, sent = 0;
    uint16_t id0, pcsum;
    uint8_t *seg = core->seg;
    unsigned i = 0;

    if ((cmd & 0x300) != 0x100 || !(cmd & 0x60) || l3 < ETH_HLEN ||
        hlen - l4 < 20 || hlen + tso_len != len || mss < TSO_MSS_MIN ||
        mss > TSO_MSS_MAX || hlen + mss > sizeof(core->seg) - 4 ||
        tso_len == 0) {
        return false;
    }
    seq0 = (uint32_t)pkt[l4 + 4] << 24 | pkt[l4 + 5] << 16 |
           pkt[l4 + 6] << 8 | pkt[l4 + 7];
    id0 = v4 ? pkt[l3 + 4] << 8 | pkt[l3 + 5] : 0;
    pcsum = pkt[l4 + 16] << 8 | pkt[l4 + 17];
    while (sent < tso_len) {
        uint32_t n = tso_len - sent < mss ? tso_len - sent : mss;
        size_t slen = hlen + n;
        uint32_t seq = seq0 + sent;
        uint8_t *tcp = seg + l4;
        uint16_t l4len = (uint16_t)(slen - l4);
        bool last = sent + n == tso_len;

        memcpy(seg, pkt, hlen);
        memcpy(seg + hlen, pkt + hlen + sent, n);
        if (v4) {
            uint16_t tot = (uint16_t)(slen - l3), id = id0 + i;

            seg[l3 + 2] = tot >> 8;
            seg[l3 + 3] = (uint8_t)tot;
            seg[l3 + 4] = id >> 8;
            seg[l3 + 5] = (uint8_t)id;
        } else {
            uint16_t pl = (uint16_t)(slen - l3 - 40);

            seg[l3 + 4] = pl >> 8;
            seg[l3 + 5] = (uint8_t)pl;
        }
        tcp[4] = seq >> 24;
        tcp[5] = (uint8_t)(seq >> 16);
        tcp[6] = (uint8_t)(seq >> 8);
        tcp[7] = (uint8_t)seq;
        if (!last) {
            tcp[13] &= ~(0x01 | 0x08);  /* FIN, PSH on the last only */
        }
        if (i) {
            tcp[13] &= ~0x80;           /* CWR on the first only */
        }
        /* The pseudo-header sum with this segment's L4 length. */
        {
            uint16_t c = csum_fold((uint32_t)pcsum + l4len);

            tcp[16] = c >> 8;
            tcp[17] = (uint8_t)c;
        }
        if (!e810_lan_tx_csum(seg, slen, cmd, off)) {
            return false;
        }
        transmit(core, seg, slen, tag, tci);
        core->stats.tx_tso_segs++;
        sent += n;
        i++;
    }
    return true;
}

/* Sends the packet in descriptors [first, eop]; false if malformed. */
static bool tx_packet(X722Core *core, X722TxQueue *t, uint32_t first,
                      uint32_t eop, uint64_t ctx_qw1, bool has_ctx)
{
    uint32_t i = first, cmd0 = 0, off0 = 0;
    size_t len = 0;
    bool tag = false;
    uint16_t tci = 0;
    unsigned nd = 0;

    for (;;) {
        uint8_t d[16];
        uint64_t qw1, addr;
        uint32_t size;

        if (!x722_dma_read(core, t->base + (uint64_t)i * 16, d, 16)) {
            return false;
        }
        addr = ld64(d);
        qw1 = ld64(d + 8);
        size = (qw1 >> 34) & 0x3fff;
        if ((qw1 & 0xf) == TXD_DTYPE_DATA) {
            if (nd++ == 0) {
                cmd0 = (qw1 >> 4) & 0x3ff;
                off0 = (qw1 >> 16) & 0x3ffff;
                tag = cmd0 & TXD_CMD_IL2TAG1;
                tci = qw1 >> 48;
            }
            if (size == 0 || len + size > sizeof(core->frame) - 4) {
                return false;
            }
            if (!x722_dma_read(core, addr, core->frame + len, size)) {
                return false;
            }
            len += size;
        }
        if (i == eop) {
            break;
        }
        i = (i + 1) % t->qlen;
    }
    if (has_ctx && (((ctx_qw1 >> 4) & 0xfff) & TXD_CTX_TSO)) {
        return tso(core, core->frame, len, cmd0, off0, ctx_qw1, tag, tci);
    }
    /* Without TSO a packet spans at most 8 buffers (i40e_chk_linearize) */
    if (nd > X722_TX_MAX_BUFS || len < ETH_HLEN || len > 9728 + 18) {
        return false;
    }
    if (!e810_lan_tx_csum(core->frame, len, cmd0, off0)) {
        return false;
    }
    if (len < ETH_ZLEN) {
        memset(core->frame + len, 0, ETH_ZLEN - len);   /* padding */
        len = ETH_ZLEN;
    }
    transmit(core, core->frame, len, tag, tci);
    return true;
}

static void process_txq(X722Core *core, unsigned q)
{
    X722TxQueue *t = &core->txq[q];
    uint32_t start = t->head, n = 0;
    uint64_t ctx_qw1 = 0;
    bool has_ctx = false, any = false;

    while (t->head != t->tail && n++ < t->qlen) {
        uint32_t i = t->head, eop = UINT32_MAX, j;
        uint8_t d[16];
        uint64_t qw1;

        /* A packet runs to its EOP; wait until all of it is posted. */
        for (j = i; j != t->tail; j = (j + 1) % t->qlen) {
            if (!x722_dma_read(core, t->base + (uint64_t)j * 16, d, 16)) {
                return;
            }
            qw1 = ld64(d + 8);
            if ((qw1 & 0xf) == TXD_DTYPE_CONTEXT) {
                continue;
            }
            if ((qw1 & 0xf) != TXD_DTYPE_DATA) {
                break;
            }
            if ((qw1 >> 4) & TXD_CMD_EOP) {
                eop = j;
                break;
            }
        }
        if (j == t->tail) {
            break;      /* not complete yet */
        }
        if (eop == UINT32_MAX) {
            /* A descriptor type this model does not run: skip it. */
            x722_log(core, E810_LOG_GUEST_ERROR, "x722: Tx queue %u "
                     "descriptor %u of type %u", q, j,
                     (unsigned)(ld64(d + 8) & 0xf));
            core->stats.tx_bad_desc++;
            t->head = (j + 1) % t->qlen;
            any = true;
            continue;
        }
        /* The context descriptor, if any, is the first one. */
        if (!x722_dma_read(core, t->base + (uint64_t)i * 16, d, 16)) {
            return;
        }
        qw1 = ld64(d + 8);
        has_ctx = (qw1 & 0xf) == TXD_DTYPE_CONTEXT;
        ctx_qw1 = has_ctx ? qw1 : 0;
        if (!tx_packet(core, t, i, eop, ctx_qw1, has_ctx)) {
            core->stats.tx_dropped++;
            x722_log(core, E810_LOG_GUEST_ERROR, "x722: Tx queue %u packet "
                     "at %u..%u malformed, dropped", q, i, eop);
        }
        t->head = (eop + 1) % t->qlen;
        any = true;
    }
    if (!any || t->head == start) {
        return;
    }
    if (t->head_wb) {
        uint8_t h[4] = { (uint8_t)t->head, (uint8_t)(t->head >> 8), 0, 0 };

        x722_dma_write(core, t->head_wb_addr, h, 4);
    }
    *x722_reg(core, X722_QTX_HEAD(q)) = t->head;
    queue_cause(core, X722_QINT_TQCTL(q));
}

void x722_lan_process_tx(X722Core *core)
{
    unsigned q;

    for (q = 0; q < X722_NUM_QUEUES; q++) {
        if (core->txq[q].enabled && core->txq[q].head != core->txq[q].tail) {
            process_txq(core, q);
        }
    }
}

/* ---- Rx ----------------------------------------------------------------- */

static bool accept(X722Core *core, const uint8_t *f)
{
    static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    int i;

    if (core->fw.uc_promisc) {
        return true;
    }
    if (!memcmp(f, bcast, 6)) {
        return core->fw.bcast;
    }
    if ((f[0] & 1) && core->fw.mc_promisc) {
        return true;
    }
    for (i = 0; i < core->fw.nmacs; i++) {
        if (!memcmp(core->fw.macs[i], f, 6)) {
            return true;
        }
    }
    return false;
}

static uint32_t rx_free(const X722RxQueue *r)
{
    return (r->tail + r->qlen - r->head) % r->qlen;
}

/* The VSI's first queue (queue_mapping[0], contiguous mapping). */
static unsigned vsi_base_queue(const X722Core *core)
{
    return core->fw.vsi_map[2] | core->fw.vsi_map[3] << 8;
}

static uint16_t be16_at(const uint8_t *p)
{
    return p[0] << 8 | p[1];
}

/*
 * The packet classifier type the X722 gives an IP frame for RSS, or -1:
 * TCP SYN without ACK and unicast/multicast UDP have types of their own
 * on the X722 (i40e's I40E_HW_CAP_MULTI_TCP_UDP_RSS_PCTYPE).
 */
int x722_rss_pctype(const uint8_t *f, size_t len, size_t l3, uint16_t et)
{
    const uint8_t *ip = f + l3;
    size_t rest = len > l3 ? len - l3 : 0, l4;
    uint8_t proto;
    bool v6 = et == 0x86dd, mcast;
    int base;

    if (et == 0x0800) {
        if (rest < 20 || (ip[0] >> 4) != 4 || (ip[0] & 15) < 5 ||
            rest < (size_t)(ip[0] & 15) * 4) {
            return -1;
        }
        if (be16_at(ip + 6) & 0x3fff) {
            return X722_PCTYPE_FRAG_IPV4;
        }
        proto = ip[9];
        l4 = (ip[0] & 15) * 4;
        mcast = (ip[16] & 0xf0) == 0xe0;
        base = X722_PCTYPE_NONF_UNICAST_IPV4_UDP;
    } else if (v6) {
        if (rest < 40 || (ip[0] >> 4) != 6) {
            return -1;
        }
        proto = ip[6];
        if (proto == 44) {
            return X722_PCTYPE_FRAG_IPV6;
        }
        l4 = 40;
        mcast = ip[24] == 0xff;
        base = X722_PCTYPE_NONF_UNICAST_IPV6_UDP;
    } else {
        return -1;
    }
    /* Offsets from the unicast UDP type, the same for IPv4 and IPv6. */
    switch (proto) {
    case 6:
        if (rest >= l4 + 14 && (ip[l4 + 13] & 0x12) == 0x02) {
            return base + 3;                    /* TCP SYN without ACK */
        }
        return base + 4;                        /* TCP */
    case 17:
        return base + (mcast ? 1 : 0);          /* UDP */
    case 132:
        return base + 5;                        /* SCTP */
    default:
        return base + 6;                        /* other */
    }
}

/*
 * The queue a frame goes to, and its RSS hash when it was hashed (see the
 * top of the file).
 */
static unsigned rx_queue(X722Core *core, const uint8_t *buf, size_t len,
                         uint32_t *hash, bool *hashed)
{
    const uint8_t *m = core->fw.vsi_map;
    uint16_t tc = m[34] | m[35] << 8;           /* tc_mapping[0] */
    unsigned qoff = tc & 0x1ff, qpow = (tc >> 9) & 7, lut_size, q;
    uint64_t hena;
    uint8_t in[36];
    size_t l3 = 14, n;
    uint16_t et;
    int pct;

    *hashed = false;
    q = vsi_base_queue(core) + qoff;
    if (!core->fw.rss_key_set || !core->fw.rss_lut_set || len < 14) {
        return q;
    }
    et = be16_at(buf + 12);
    if ((et == 0x8100 || et == 0x88a8) && len >= 18) {
        et = be16_at(buf + 16);
        l3 = 18;
    }
    pct = x722_rss_pctype(buf, len, l3, et);
    hena = *x722_reg(core, X722_PFQF_HENA(0)) |
           (uint64_t)*x722_reg(core, X722_PFQF_HENA(1)) << 32;
    if (pct < 0 || !(hena >> pct & 1)) {
        return q;
    }
    n = e810_rss_input(buf, len, l3, et, in);
    if (!n) {
        return q;
    }
    *hash = e810_toeplitz(core->fw.rss_key, in, n);
    *hashed = true;
    lut_size = *x722_reg(core, X722_PFQF_CTL_0) & X722_PFQF_CTL_0_LUT512 ?
               512 : 128;
    return q + (core->fw.rss_lut[*hash & (lut_size - 1)] &
                ((1u << qpow) - 1));
}

bool x722_lan_can_receive(X722Core *core)
{
    const uint8_t *m = core->fw.vsi_map;
    uint16_t tc = m[34] | m[35] << 8;
    unsigned q = vsi_base_queue(core) + (tc & 0x1ff);
    unsigned n = 1u << ((tc >> 9) & 7), i;

    /*
     * Frames wait (QEMU queues them) only while every queue RSS may pick
     * is enabled and full; x722_lan_receive() holds back a frame whose
     * own queue is full.
     */
    for (i = 0; i < n; i++) {
        if (q + i >= X722_NUM_QUEUES || !core->rxq[q + i].enabled ||
            rx_free(&core->rxq[q + i]) > 0) {
            return true;
        }
    }
    return false;
}

/*
 * Whether the VSI strips an 802.1Q tag into the descriptor: its
 * port_vlan_flags EMOD is "strip both" (the VSI's default, the 0 that
 * i40e_vlan_stripping_enable() reads as already enabled) or "strip";
 * i40e_vlan_stripping_disable() sets "nothing".
 */
static bool vlan_strip(const X722Core *core)
{
    unsigned emod = core->fw.port_vlan_flags & X722_PVLAN_EMOD_MASK;

    return emod == X722_PVLAN_EMOD_STR_BOTH || emod == X722_PVLAN_EMOD_STR;
}

size_t x722_lan_receive(X722Core *core, const uint8_t *buf, size_t len)
{
    unsigned q;
    X722RxQueue *r;
    uint16_t st = 0, ptype, tci = 0;
    uint32_t need, k, hash = 0;
    uint64_t status, qw0;
    size_t done = 0, dlen = len;
    const uint8_t *data = buf;
    bool hashed, tagged;

    if (len < ETH_HLEN || !accept(core, buf)) {
        core->stats.rx_filtered++;
        return len;
    }
    q = rx_queue(core, buf, len, &hash, &hashed);
    if (q >= X722_NUM_QUEUES || !core->rxq[q].enabled) {
        core->stats.rx_no_desc++;
        return len;
    }
    r = &core->rxq[q];
    if (len > r->rxmax) {
        core->stats.rx_oversize++;
        return len;
    }
    /* The tag goes into L2TAG1 (qword 0) with L2TAG1P, the rest shifts. */
    tagged = len >= ETH_HLEN + 4 && buf[12] == 0x81 && buf[13] == 0x00 &&
             vlan_strip(core);
    if (tagged) {
        tci = buf[14] << 8 | buf[15];
        memcpy(core->rx_frame, buf, 12);
        memcpy(core->rx_frame + 12, buf + 16, len - 16);
        data = core->rx_frame;
        dlen = len - 4;
    }
    need = (dlen + r->dbuf - 1) / r->dbuf;
    if (rx_free(r) < need) {
        return 0;               /* held back until buffers are posted */
    }
    ptype = e810_lan_rx_classify(data, dlen, &st);
    status = RXD_DD;
    if (st & E810_RX_FLEX_STATUS0_L3L4P) {
        status |= RXD_L3L4P;
    }
    if (st & E810_RX_FLEX_STATUS0_IPE) {
        status |= RXD_ERR_IPE;
    }
    if (st & E810_RX_FLEX_STATUS0_L4E) {
        status |= RXD_ERR_L4E;
    }
    status |= (uint64_t)(ptype & 0xff) << RXD_PTYPE_SHIFT;
    for (k = 0; k < need; k++) {
        uint64_t daddr = r->base + (uint64_t)r->head * 16;
        uint8_t d[16];
        size_t n = dlen - done < r->dbuf ? dlen - done : r->dbuf;
        uint64_t qw1 = status | (uint64_t)n << RXD_LEN_SHIFT;

        if (!x722_dma_read(core, daddr, d, 16) ||
            !x722_dma_write(core, ld64(d), data + done, n)) {
            core->stats.rx_no_desc++;
            return len;
        }
        qw0 = 0;
        if (k == need - 1) {
            qw1 |= RXD_EOF;
            if (hashed) {
                qw1 |= RXD_FLTSTAT_RSS;
                qw0 |= (uint64_t)hash << 32;
            }
            if (tagged) {
                qw1 |= RXD_L2TAG1P;
                qw0 |= tci;
            }
        }
        /* The write-back fields of a frame are its last descriptor's. */
        st64(d, qw0);
        st64(d + 8, qw1);
        x722_dma_write(core, daddr, d, 16);
        done += n;
        r->head = (r->head + 1) % r->qlen;
    }
    core->stats.rx_packets++;
    core->stats.rx_bytes += len;
    queue_cause(core, X722_QINT_RQCTL(q));
    return len;
}
