/*
 * Emulated E810: LAN Tx and Rx queues (E810_LAN_NUM_QUEUES of each).
 *
 * Tx: a queue exists once added with 0x0C30; QTX_COMM_DBELL(q) moves its
 * tail; the deferred work walks every enabled queue, gathers each packet
 * (an optional context descriptor, then data descriptors up to EOP),
 * applies the offloads the descriptors ask for (checksums, TSO: see
 * e810_lan_offload.c), sends the frame(s), writes DTYPE = DESC_DONE into
 * qword1 of every RS data descriptor, updates QTX_COMM_HEAD(q) and fires
 * the QINT_TQCTL(q) cause. Nonsense is dropped whole and counted, as
 * malicious-driver detection would drop it.
 *
 * Rx: the context comes from QRX_CONTEXT when the driver sets
 * QRX_CTRL.QENA_REQ; QRX_TAIL (low 3 bits ignored) posts buffers. RoCEv2
 * frames for the RDMA engine are steered away first, then the switch
 * (e810_switch_rx_dest()) picks the queue and the RSS hash; a frame fills
 * as many dbuf-sized buffers as it needs, each written back in the
 * 32-byte flex NIC format (RXDID 2) with DD, the last with EOF, packet
 * type, checksum status and hash (what ice_process_skb_fields() reads),
 * then the QINT_RQCTL(q) cause fires.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <stddef.h>
#include <string.h>

#include "e810_core.h"
#include "e810_switch.h"
#include "e810_xport.h"

#define QRX_TAIL_MASK       0x1fff
#define ETH_HLEN_MIN        14
#define FCS_LEN             4

void e810_lan_reset(E810Core *core)
{
    memset(core->lan.txq, 0, sizeof(core->lan.txq));
    memset(core->lan.rxq, 0, sizeof(core->lan.rxq));
    memset(&core->lan.hold, 0, sizeof(core->lan.hold));
}

/* ---- Tx ------------------------------------------------------------------ */

enum e810_aq_rc e810_lan_add_txq(E810Core *core, uint16_t q,
                                 const uint8_t *ctx, uint32_t teid)
{
    E810TxQueue *txq;
    uint32_t qlen;

    if (q >= E810_LAN_NUM_QUEUES) {
        e810_core_log(core, E810_LOG_GUEST_ERROR, "add Tx queue %u: the "
                      "function has %u", q, E810_LAN_NUM_QUEUES);
        return E810_AQ_RC_EINVAL;
    }
    txq = &core->lan.txq[q];
    if (txq->enabled) {
        return E810_AQ_RC_EEXIST;
    }
    qlen = e810_ctx_get(ctx, E810_TLAN_CTX_QLEN);
    if (qlen < E810_LAN_RING_MIN || qlen > E810_LAN_RING_MAX ||
        e810_ctx_get(ctx, E810_TLAN_CTX_PF_NUM) != core->pf_id ||
        e810_ctx_get(ctx, E810_TLAN_CTX_VMVF_TYPE) != E810_TLAN_VMVF_TYPE_PF) {
        e810_core_log(core, E810_LOG_GUEST_ERROR, "add Tx queue %u: bad "
                      "context (qlen %u, pf %u, type %u)", q, qlen,
                      (unsigned)e810_ctx_get(ctx, E810_TLAN_CTX_PF_NUM),
                      (unsigned)e810_ctx_get(ctx, E810_TLAN_CTX_VMVF_TYPE));
        return E810_AQ_RC_EINVAL;
    }
    memset(txq, 0, sizeof(*txq));
    txq->base = e810_ctx_get(ctx, E810_TLAN_CTX_BASE) << E810_TLAN_BASE_SHIFT;
    txq->qlen = qlen;
    txq->src_vsi = e810_ctx_get(ctx, E810_TLAN_CTX_SRC_VSI);
    txq->tso_ena = e810_ctx_get(ctx, E810_TLAN_CTX_TSO_ENA);
    txq->teid = teid;
    txq->enabled = true;
    *e810_regfile_ptr(&core->regs, E810_QTX_COMM_HEAD(q)) = 0;
    return E810_AQ_RC_OK;
}

enum e810_aq_rc e810_lan_dis_txq(E810Core *core, uint16_t q)
{
    if (q >= E810_LAN_NUM_QUEUES || !core->lan.txq[q].enabled) {
        return E810_AQ_RC_ENOENT;
    }
    /* Flush: what the driver posted before the command still goes out. */
    e810_lan_process_tx(core);
    core->lan.txq[q].enabled = false;
    return E810_AQ_RC_OK;
}

void e810_lan_tx_doorbell(E810Core *core, unsigned q, uint32_t val)
{
    E810TxQueue *txq = q < E810_LAN_NUM_QUEUES ? &core->lan.txq[q] : NULL;

    if (!txq || !txq->enabled || val >= txq->qlen) {
        core->lan.stats.tx_bad_desc++;
        e810_core_log(core, E810_LOG_GUEST_ERROR, "Tx doorbell %u on queue "
                      "%u (%s)", val, q, txq && txq->enabled ?
                      "beyond the ring" : "not enabled");
        return;
    }
    txq->tail = val;
    e810_core_request_work(core, E810_WORK_TX);
}

/*
 * Descriptors the model follows for one packet. A plain packet may use
 * only E810_TX_MAX_DESC_PER_PKT data descriptors, a TSO packet that many
 * per segment; a longer chain is still consumed up to its EOP (or this
 * bound) and then dropped whole, as malicious-driver detection would drop
 * it.
 */
#define TX_CHAIN_MAX 256

/* Where one packet starts and what its descriptors said. */
typedef struct TxPacket {
    uint32_t idx[TX_CHAIN_MAX];
    uint64_t qw1[TX_CHAIN_MAX];
    uint32_t bend[TX_CHAIN_MAX];    /* end of each data buffer in frame[] */
    unsigned ndesc, ndata;
    uint64_t ctx_qw1;       /* the context descriptor's qw1, if any */
    bool has_ctx, tunnel;
    size_t len;
    bool bad;
} TxPacket;

static uint64_t txd_addr(E810TxQueue *txq, uint32_t i)
{
    return txq->base + (uint64_t)i * sizeof(struct e810_tx_desc);
}

/*
 * A context descriptor comes before the packet's data descriptors (one at
 * most, ice_tx_map()); it carries TSO parameters, tunnelling and tags.
 */
static void gather_ctx(TxPacket *pkt, const struct e810_tx_desc *d,
                       uint64_t qw1)
{
    struct e810_tx_ctx_desc c;

    memcpy(&c, d, sizeof(c));
    if (pkt->ndata || pkt->has_ctx) {
        pkt->bad = true;
    }
    pkt->has_ctx = true;
    pkt->ctx_qw1 = qw1;
    pkt->tunnel = c.tunneling_params != 0;
}

/*
 * Gathers the packet starting at txq->head. Returns false when it is not
 * complete yet (no EOP before the tail): it stays for the next doorbell.
 */
static bool gather_packet(E810Core *core, E810TxQueue *txq, TxPacket *pkt)
{
    uint32_t i = txq->head;

    pkt->ndesc = pkt->ndata = 0;
    pkt->ctx_qw1 = 0;
    pkt->has_ctx = pkt->tunnel = pkt->bad = false;
    pkt->len = 0;
    while (i != txq->tail) {
        struct e810_tx_desc d;
        uint64_t qw1, bsz;
        unsigned dtype;

        if (pkt->ndesc == TX_CHAIN_MAX) {
            pkt->bad = true;
            return true;    /* a runaway chain: dropped as it stands */
        }
        if (!e810_core_dma_read(core, txd_addr(txq, i), &d, sizeof(d))) {
            pkt->bad = true;
            pkt->qw1[pkt->ndesc] = 0;
            pkt->idx[pkt->ndesc++] = i;
            return true;
        }
        qw1 = le64toh(d.cmd_type_offset_bsz);
        pkt->idx[pkt->ndesc] = i;
        pkt->qw1[pkt->ndesc++] = qw1;
        i = (i + 1) % txq->qlen;
        dtype = FIELD_GET(E810_TXD_DTYPE, qw1);
        if (dtype == E810_TX_DESC_DTYPE_CTX) {
            gather_ctx(pkt, &d, qw1);
            continue;
        }
        if (dtype != E810_TX_DESC_DTYPE_DATA) {
            pkt->bad = true;
            return true;
        }
        bsz = FIELD_GET(E810_TXD_BUF_SZ, qw1);
        if (pkt->len + bsz > E810_TX_PKT_MAX) {
            pkt->bad = true;
        } else if (!pkt->bad && bsz &&
                   !e810_core_dma_read(core, le64toh(d.buf_addr),
                                       core->lan.frame + pkt->len, bsz)) {
            pkt->bad = true;
        } else {
            pkt->len += bsz;
        }
        pkt->bend[pkt->ndata++] = pkt->len;
        if (FIELD_GET(E810_TXD_CMD, qw1) & E810_TX_DESC_CMD_EOP) {
            return true;
        }
    }
    return pkt->bad;
}

static void complete_packet(E810Core *core, E810TxQueue *txq, TxPacket *pkt)
{
    unsigned k;

    for (k = 0; k < pkt->ndesc; k++) {
        uint64_t qw1 = pkt->qw1[k];
        __le64 wb;

        if (FIELD_GET(E810_TXD_DTYPE, qw1) != E810_TX_DESC_DTYPE_DATA ||
            !(FIELD_GET(E810_TXD_CMD, qw1) & E810_TX_DESC_CMD_RS)) {
            continue;
        }
        qw1 = (qw1 & ~E810_TXD_DTYPE) |
              FIELD_PREP(E810_TXD_DTYPE, E810_TX_DESC_DTYPE_DESC_DONE);
        wb = htole64(qw1);
        e810_core_dma_write(core, txd_addr(txq, pkt->idx[k]) + 8, &wb,
                            sizeof(wb));
    }
    txq->head = (pkt->idx[pkt->ndesc - 1] + 1) % txq->qlen;
}

/* The first data descriptor's qw1: it holds the packet's offload request. */
static uint64_t first_data_qw1(const TxPacket *pkt)
{
    unsigned k;

    for (k = 0; k < pkt->ndesc; k++) {
        if (FIELD_GET(E810_TXD_DTYPE, pkt->qw1[k]) == E810_TX_DESC_DTYPE_DATA) {
            return pkt->qw1[k];
        }
    }
    return 0;
}

static void drop_packet(E810Core *core, unsigned q, const TxPacket *pkt,
                        const char *why)
{
    core->lan.stats.tx_dropped++;
    e810_stats_tx_error(core, core->lan.txq[q].src_vsi);
    e810_core_log(core, E810_LOG_GUEST_ERROR, "Tx queue %u: dropped a "
                  "%zu-byte packet of %u descriptors (%s)", q, pkt->len,
                  pkt->ndesc, why);
}

/* Sends one gathered packet, with its offloads, or drops it. */
static void send_packet(E810Core *core, unsigned q, TxPacket *pkt)
{
    const E810TxQueue *txq = &core->lan.txq[q];
    E810LanStats *st = &core->lan.stats;
    uint64_t qw1 = first_data_qw1(pkt);
    uint32_t cmd = FIELD_GET(E810_TXD_CMD, qw1);
    uint32_t off = FIELD_GET(E810_TXD_OFFSET, qw1);
    bool tag = cmd & E810_TX_DESC_CMD_IL2TAG1;
    bool tso = pkt->has_ctx &&
        (FIELD_GET(E810_TXD_CTX_CMD, pkt->ctx_qw1) & E810_TX_CTX_DESC_TSO);
    int nseg;

    if (pkt->bad || !pkt->ndata) {
        drop_packet(core, q, pkt, "malformed descriptors");
        return;
    }
    if (pkt->tunnel) {
        st->tx_dropped++;
        e810_core_log(core, E810_LOG_UNIMP, "Tx queue %u: tunnel offloads "
                      "are not modelled; packet dropped", q);
        return;
    }
    if (tso) {
        /* A queue without TSO_ENA in its context may not segment. */
        nseg = !txq->tso_ena ? -1 :
            e810_lan_tso(core, core->lan.frame, pkt->len, qw1, pkt->ctx_qw1,
                         pkt->bend, pkt->ndata);
        if (nseg < 0) {
            st->tx_mdd++;
            drop_packet(core, q, pkt, "bad TSO request");
        } else {
            st->tx_tso++;
        }
        return;
    }
    if (pkt->ndata > E810_TX_MAX_DESC_PER_PKT) {
        drop_packet(core, q, pkt, "too many data descriptors");
    } else if (pkt->len < ETH_HLEN_MIN ||
               pkt->len + (tag ? 4 : 0) + FCS_LEN > core->aq.max_frame) {
        drop_packet(core, q, pkt, "bad length");
    } else if (!e810_lan_tx_csum(core->lan.frame, pkt->len, cmd, off)) {
        st->tx_mdd++;
        drop_packet(core, q, pkt, "bad checksum offload request");
    } else {
        e810_lan_tx_emit(core, core->lan.frame, pkt->len, tag,
                         FIELD_GET(E810_TXD_L2TAG1, qw1));
    }
}

void e810_lan_process_tx(E810Core *core)
{
    TxPacket pkt;
    unsigned q;

    for (q = 0; q < E810_LAN_NUM_QUEUES; q++) {
        E810TxQueue *txq = &core->lan.txq[q];
        unsigned done = 0;

        /* Bounded: each packet consumes at least one descriptor. */
        while (txq->enabled && txq->head != txq->tail && done < txq->qlen &&
               gather_packet(core, txq, &pkt)) {
            core->lan.tx_vsi = txq->src_vsi;
            send_packet(core, q, &pkt);
            complete_packet(core, txq, &pkt);
            done += pkt.ndesc;
        }
        if (done) {
            *e810_regfile_ptr(&core->regs, E810_QTX_COMM_HEAD(q)) = txq->head;
            e810_intr_cause(core, E810_QINT_TQCTL(q));
        }
    }
}

/* ---- Rx ------------------------------------------------------------------ */

static bool load_rx_context(E810Core *core, unsigned q, E810RxQueue *rxq)
{
    uint8_t ctx[E810_RLAN_CTX_SIZE];
    uint32_t rxdid, tail;
    unsigned i;
    bool nobuf;

    for (i = 0; i < E810_RLAN_CTX_SIZE / 4; i++) {
        uint32_t dw = *e810_regfile_ptr(&core->regs, E810_QRX_CONTEXT(i, q));

        ctx[4 * i] = dw;
        ctx[4 * i + 1] = dw >> 8;
        ctx[4 * i + 2] = dw >> 16;
        ctx[4 * i + 3] = dw >> 24;
    }
    memset(rxq, 0, sizeof(*rxq));
    rxq->base = e810_ctx_get(ctx, E810_RLAN_CTX_BASE) << E810_RLAN_BASE_SHIFT;
    rxq->qlen = e810_ctx_get(ctx, E810_RLAN_CTX_QLEN);
    rxq->dbuf = e810_ctx_get(ctx, E810_RLAN_CTX_DBUF) << E810_RLAN_DBUF_SHIFT;
    rxq->rxmax = e810_ctx_get(ctx, E810_RLAN_CTX_RXMAX);
    rxq->head = e810_ctx_get(ctx, E810_RLAN_CTX_HEAD);
    /*
     * A queue without data buffers (DBUF and RXMAX both 0) is one: the
     * control VSI's, which only ever receives the flow director's
     * programming status write-backs. The 7.x ice's ice_setup_rx_ctx()
     * programs it so (only its PF and SF queues get a libeth page pool,
     * so rx_buf_len stays 0) and ice_vsi_open_ctrl() waits for its
     * QENA_STAT. Every frame steered to it is oversize.
     */
    nobuf = rxq->dbuf == 0 && rxq->rxmax == 0;
    if (rxq->qlen < E810_LAN_RING_MIN || rxq->qlen > E810_LAN_RING_MAX ||
        rxq->head >= rxq->qlen ||
        (!nobuf && (rxq->dbuf == 0 || rxq->rxmax < 64))) {
        e810_core_log(core, E810_LOG_GUEST_ERROR, "Rx queue %u: bad context "
                      "(qlen %u head %u dbuf %u rxmax %u)", q, rxq->qlen,
                      rxq->head, rxq->dbuf, rxq->rxmax);
        return false;
    }
    if (e810_ctx_get(ctx, E810_RLAN_CTX_DSIZE) != 1 ||
        e810_ctx_get(ctx, E810_RLAN_CTX_DTYPE) != 0) {
        e810_core_log(core, E810_LOG_UNIMP, "Rx queue %u: only 32-byte "
                      "descriptors without header split are modelled", q);
        return false;
    }
    rxdid = FIELD_GET(E810_QRXFLXP_CNTXT_RXDID_IDX,
                      *e810_regfile_ptr(&core->regs, E810_QRXFLXP_CNTXT(q)));
    if (rxdid != E810_RXDID_FLEX_NIC) {
        e810_core_log(core, E810_LOG_UNIMP, "Rx queue %u: RXDID %u; the model "
                      "writes the flex NIC format (2)", q, rxdid);
    }
    /* Buffers ice posted before enabling the queue (ice_alloc_rx_bufs()). */
    tail = *e810_regfile_ptr(&core->regs, E810_QRX_TAIL(q)) & QRX_TAIL_MASK &
           ~7u;
    rxq->tail = tail < rxq->qlen ? tail : rxq->head;
    return true;
}

void e810_lan_qrx_ctrl_write(E810Core *core, unsigned q, uint32_t *reg,
                             uint32_t val)
{
    E810RxQueue *rxq = q < E810_LAN_NUM_QUEUES ? &core->lan.rxq[q] : NULL;
    bool req = val & E810_QRX_CTRL_QENA_REQ;

    /* QENA_STAT belongs to the device. */
    *reg = (val & ~E810_QRX_CTRL_QENA_STAT) | (*reg & E810_QRX_CTRL_QENA_STAT);
    if (!rxq) {
        if (req) {
            e810_core_log(core, E810_LOG_GUEST_ERROR, "Rx queue %u enabled: "
                          "the function has %u", q, E810_LAN_NUM_QUEUES);
        }
        return;
    }
    if (req && !rxq->enabled) {
        rxq->enabled = load_rx_context(core, q, rxq);
    } else if (!req) {
        rxq->enabled = false;
        if (core->lan.hold.active && core->lan.hold.q == q) {
            /* The frame held for it can go now (it is dropped). */
            e810_core_request_work(core, E810_WORK_RX_READY);
        }
    }
    if (rxq->enabled) {
        *reg |= E810_QRX_CTRL_QENA_STAT;
    } else {
        *reg &= ~E810_QRX_CTRL_QENA_STAT;
    }
}

void e810_lan_qrx_tail_write(E810Core *core, unsigned q, uint32_t *reg,
                             uint32_t val)
{
    E810RxQueue *rxq = q < E810_LAN_NUM_QUEUES ? &core->lan.rxq[q] : NULL;
    uint32_t tail = val & QRX_TAIL_MASK & ~7u;

    *reg = val;
    if (!rxq || !rxq->enabled) {
        return;
    }
    if (tail >= rxq->qlen) {
        e810_core_log(core, E810_LOG_GUEST_ERROR, "Rx queue %u: tail %u "
                      "beyond a ring of %u", q, tail, rxq->qlen);
        return;
    }
    rxq->tail = tail;
    if (core->lan.hold.active && core->lan.hold.q != q) {
        core->lan.hold.kicks++;
    }
    e810_core_request_work(core, E810_WORK_RX_READY);
}

static uint32_t rx_free(const E810RxQueue *rxq)
{
    return (rxq->tail + rxq->qlen - rxq->head) % rxq->qlen;
}

/*
 * Flow control towards the network layer, with many queues. The port is
 * never held back as a whole: a frame is taken unless it is for an
 * enabled queue that has too few buffers posted. Such a frame is held
 * (receive returns 0, the network layer keeps it and offers it again when
 * the work signals rx_ready), since the driver refills its queues as it
 * consumes them. While it is held, can_receive is false until its queue
 * has room, is disabled (then the frame is dropped), or the driver has
 * posted buffers E810_RX_HOLD_KICKS times on other queues but none on
 * this one: the queue is not being served, and the frame is dropped
 * (counted in rx_held_dropped) rather than stalling every other queue.
 */
#define E810_RX_HOLD_KICKS 64

bool e810_lan_can_receive(E810Core *core)
{
    const E810RxHold *hold = &core->lan.hold;
    const E810RxQueue *rxq = &core->lan.rxq[hold->q];

    return !hold->active || !rxq->enabled || rx_free(rxq) >= hold->need ||
           hold->kicks >= E810_RX_HOLD_KICKS;
}

static uint8_t umbcast(const uint8_t *frame)
{
    static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

    if (!memcmp(frame, bcast, sizeof(bcast))) {
        return 2;
    }
    return (frame[0] & 1) ? 1 : 0;
}

/* What the write-back says about the whole packet (its last descriptor). */
typedef struct RxMeta {
    uint16_t ptype;
    uint16_t status;        /* L3L4P, IPE, L4E, RSS_VALID */
    uint32_t hash;
    uint8_t umbcast;
} RxMeta;

/* Writes @len bytes into queue @q's buffers; the queue has room. */
static void rx_fill(E810Core *core, E810RxQueue *rxq, const uint8_t *buf,
                    size_t len, const RxMeta *m)
{
    size_t off = 0;

    while (off < len) {
        uint64_t daddr = rxq->base + (uint64_t)rxq->head * 32;
        size_t chunk = len - off < rxq->dbuf ? len - off : rxq->dbuf;
        struct e810_rx_desc_read rd;
        struct e810_rx_flex_desc_nic wb;
        uint16_t status = E810_RX_FLEX_STATUS0_DD;

        memset(&wb, 0, sizeof(wb));
        if (!e810_core_dma_read(core, daddr, &rd, sizeof(rd)) ||
            !e810_core_dma_write(core, le64toh(rd.pkt_addr), buf + off,
                                 chunk)) {
            /* A bad buffer address: the frame is reported as an error. */
            status |= E810_RX_FLEX_STATUS0_RXE;
            chunk = len - off;
        }
        off += chunk;
        if (off == len) {
            status |= E810_RX_FLEX_STATUS0_EOF | m->status;
            wb.rss_hash = htole32(m->hash);
        }
        wb.rxdid = E810_RXDID_FLEX_NIC;
        wb.mir_id_umb_cast = FIELD_PREP(E810_RX_FLEX_UMBCAST, m->umbcast);
        wb.ptype_flex_flags0 = htole16(m->ptype & E810_RX_FLEX_PTYPE);
        wb.pkt_len = htole16(chunk & E810_RX_FLEX_PKT_LEN);
        /*
         * DD goes last, as the CQ's valid bit: ice_clean_rx_irq() reads
         * status_error0, then (dma_rmb()) the rest of the descriptor.
         */
        if (e810_core_dma_write(core, daddr, &wb, sizeof(wb))) {
            wb.status_error0 = htole16(status);
            e810_core_dma_write(core, daddr +
                                offsetof(struct e810_rx_flex_desc_nic,
                                         status_error0),
                                &wb.status_error0, sizeof(wb.status_error0));
        }
        rxq->head = (rxq->head + 1) % rxq->qlen;
    }
}

/*
 * The frame fits nowhere now: held (returns false) or, when its queue is
 * not being served (see e810_lan_can_receive), dropped (returns true).
 */
static bool rx_hold(E810Core *core, uint16_t q, uint32_t need)
{
    E810RxHold *hold = &core->lan.hold;

    if (hold->active && hold->q == q && hold->kicks >= E810_RX_HOLD_KICKS) {
        hold->active = false;
        core->lan.stats.rx_held_dropped++;
        return true;
    }
    if (!hold->active || hold->q != q) {
        hold->kicks = 0;
    }
    hold->active = true;
    hold->q = q;
    hold->need = need;
    core->lan.stats.rx_no_desc++;
    return false;
}

/*
 * Takes a frame the MAC accepted: to the protocol engine or a LAN queue.
 * Returns 0 when it is held back (offered again later), else @len.
 */
static size_t lan_rx_frame(E810Core *core, const uint8_t *buf, size_t len)
{
    E810LanStats *st = &core->lan.stats;
    E810RxQueue *rxq;
    bool hash_valid = false;
    uint16_t q = 0, vsi;
    RxMeta m = { 0 };
    uint32_t need;
    E810IwRx iw;

    /*
     * Rx steering: with the VSI's PE filter on (VSI queue option
     * PE_FLTR_EN), RoCEv2 frames (UDP 4791) for our MAC or an attached
     * multicast group go to the protocol engine, not to a LAN queue.
     */
    /*
     * In iWARP mode, TCP segments to the engine's ports (APBVT) that
     * belong to its connections (quad hash) go to the ILQ or to the
     * offloaded connection (e810_iwarp.c).
     */
    iw = e810_iw_steer(core, buf, len);
    if (iw != E810_IW_RX_LAN) {
        e810_iw_receive(core, iw, buf, len);
        return len;
    }
    if (e810_xport_wants(core, buf, len)) {
        e810_xport_receive(core, buf, len);
        return len;
    }
    if (len < ETH_HLEN_MIN) {
        st->rx_dropped++;
        return len;
    }
    /* Then the switch rules and RSS pick the queue. */
    if (!e810_switch_rx_steer(core, buf, len, &q, &m.hash, &hash_valid,
                              &vsi)) {
        st->rx_no_dest++;
        return len;
    }
    if (q >= E810_LAN_NUM_QUEUES || !core->lan.rxq[q].enabled) {
        st->rx_dropped++;
        e810_stats_rx_drop(core, vsi);
        core->lan.hold.active = false;
        return len;
    }
    rxq = &core->lan.rxq[q];
    /* (a queue without buffers has RXMAX 0: load_rx_context()) */
    if (len > rxq->rxmax) {
        st->rx_oversize++;
        e810_stats_rx_drop(core, vsi);
        return len;
    }
    need = (len + rxq->dbuf - 1) / rxq->dbuf;
    if (need > rxq->qlen - 1) {
        /* More buffers than the ring can ever offer: waiting would stall
         * the port for good, so it is dropped as oversize. */
        st->rx_oversize++;
        e810_stats_rx_drop(core, vsi);
        return len;
    }
    if (need > rx_free(rxq)) {
        if (!rx_hold(core, q, need)) {
            return 0;
        }
        e810_stats_rx_drop(core, vsi);
        return len;
    }
    core->lan.hold.active = false;
    m.ptype = e810_lan_rx_classify(buf, len, &m.status);
    if (hash_valid) {
        m.status |= E810_RX_FLEX_STATUS0_RSS_VALID;
    } else {
        m.hash = 0;
    }
    st->rx_ip_err += !!(m.status & E810_RX_FLEX_STATUS0_IPE);
    st->rx_l4_err += !!(m.status & E810_RX_FLEX_STATUS0_L4E);
    m.umbcast = umbcast(buf);
    rx_fill(core, rxq, buf, len, &m);
    st->rx_packets++;
    st->rx_bytes += len;
    e810_stats_rx_vsi(core, vsi, buf, len);
    e810_intr_cause(core, E810_QINT_RQCTL(q));
    return len;
}

size_t e810_lan_receive(E810Core *core, const uint8_t *buf, size_t len)
{
    size_t taken;

    /* The MAC first: runts and frames over the maximum size stop here. */
    if (!e810_stats_rx_mac_ok(core, len)) {
        core->lan.stats.rx_dropped++;
        return len;
    }
    taken = lan_rx_frame(core, buf, len);
    if (taken) {
        /* Counted once, when the frame is taken (not while held). */
        e810_stats_rx_port(core, buf, len);
    }
    return taken;
}
