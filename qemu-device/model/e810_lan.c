/*
 * Emulated E810: LAN Tx and Rx queues.
 *
 * Tx (e810-lan-facts.md 3.11, 3.12, 4.3, 4.4): a queue exists once added
 * with 0x0C30; QTX_COMM_DBELL moves the tail; the deferred work gathers
 * each packet's data descriptors up to EOP, sends the frame, writes
 * DTYPE = DESC_DONE into qword1 of every RS descriptor, updates
 * QTX_COMM_HEAD and fires the QINT_TQCTL cause.
 *
 * Rx (4.1, 4.2, 4.6): the context comes from QRX_CONTEXT when the driver
 * sets QRX_CTRL.QENA_REQ; QRX_TAIL (low 3 bits ignored) posts buffers; a
 * frame fills as many dbuf-sized buffers as it needs, each written back in
 * the 32-byte flex NIC format with DD (and EOF on the last), then the
 * QINT_RQCTL cause fires. With no buffer posted the frame is held back by
 * the network layer (can_receive) and retried when the tail moves.
 * RoCEv2 frames for the RDMA engine are steered away first (see
 * e810_lan_receive).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <string.h>

#include "e810_core.h"
#include "e810_xport.h"

#define QRX_TAIL_MASK       0x1fff
#define ETH_HLEN_MIN        14
#define FCS_LEN             4

void e810_lan_reset(E810Core *core)
{
    memset(core->lan.txq, 0, sizeof(core->lan.txq));
    memset(core->lan.rxq, 0, sizeof(core->lan.rxq));
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
 * Descriptors the model follows for one packet. A packet may use only
 * E810_TX_MAX_DESC_PER_PKT; a longer chain is still consumed up to its EOP
 * (or this bound) and then dropped whole, as malicious-driver detection
 * would drop it.
 */
#define TX_CHAIN_MAX 64

/* Where one packet starts and what its descriptors said. */
typedef struct TxPacket {
    uint32_t idx[TX_CHAIN_MAX];
    uint64_t qw1[TX_CHAIN_MAX];
    unsigned ndesc;
    size_t len;
    bool bad;
} TxPacket;

static uint64_t txd_addr(E810TxQueue *txq, uint32_t i)
{
    return txq->base + (uint64_t)i * sizeof(struct e810_tx_desc);
}

/*
 * Gathers the packet starting at txq->head. Returns false when it is not
 * complete yet (no EOP before the tail): it stays for the next doorbell.
 */
static bool gather_packet(E810Core *core, E810TxQueue *txq, TxPacket *pkt)
{
    uint32_t i = txq->head;

    memset(pkt, 0, sizeof(*pkt));
    while (i != txq->tail) {
        struct e810_tx_desc d;
        uint64_t qw1, bsz;
        unsigned dtype;

        if (pkt->ndesc == TX_CHAIN_MAX) {
            return true;    /* a runaway chain: dropped as it stands */
        }
        if (pkt->ndesc == E810_TX_MAX_DESC_PER_PKT) {
            pkt->bad = true;
        }
        if (!e810_core_dma_read(core, txd_addr(txq, i), &d, sizeof(d))) {
            pkt->bad = true;
            pkt->idx[pkt->ndesc++] = i;
            return true;
        }
        qw1 = le64toh(d.cmd_type_offset_bsz);
        pkt->idx[pkt->ndesc] = i;
        pkt->qw1[pkt->ndesc++] = qw1;
        i = (i + 1) % txq->qlen;
        dtype = FIELD_GET(E810_TXD_DTYPE, qw1);
        if (dtype == E810_TX_DESC_DTYPE_CTX) {
            continue;   /* offload hints: nothing the model acts on */
        }
        if (dtype != E810_TX_DESC_DTYPE_DATA) {
            pkt->bad = true;
            return true;
        }
        bsz = FIELD_GET(E810_TXD_BUF_SZ, qw1);
        if (pkt->len + bsz > E810_FRAME_MAX) {
            pkt->bad = true;
        } else if (!pkt->bad && bsz &&
                   !e810_core_dma_read(core, le64toh(d.buf_addr),
                                       core->lan.frame + pkt->len, bsz)) {
            pkt->bad = true;
        } else {
            pkt->len += bsz;
        }
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

        if (!(FIELD_GET(E810_TXD_CMD, qw1) & E810_TX_DESC_CMD_RS)) {
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

void e810_lan_process_tx(E810Core *core)
{
    unsigned q;

    for (q = 0; q < E810_LAN_NUM_QUEUES; q++) {
        E810TxQueue *txq = &core->lan.txq[q];
        E810LanStats *st = &core->lan.stats;
        unsigned done = 0;
        TxPacket pkt;

        /* Bounded: each packet consumes at least one descriptor. */
        while (txq->enabled && txq->head != txq->tail && done < txq->qlen &&
               gather_packet(core, txq, &pkt)) {
            if (pkt.bad || pkt.len < ETH_HLEN_MIN ||
                pkt.len + FCS_LEN > core->aq.max_frame) {
                st->tx_dropped++;
                e810_core_log(core, E810_LOG_GUEST_ERROR, "Tx queue %u: "
                              "dropped a %zu-byte packet of %u descriptors",
                              q, pkt.len, pkt.ndesc);
            } else {
                core->ops->transmit(core->opaque, core->lan.frame, pkt.len);
                st->tx_packets++;
                st->tx_bytes += pkt.len;
            }
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
    uint32_t rxdid;
    unsigned i;

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
    if (rxq->qlen < E810_LAN_RING_MIN || rxq->qlen > E810_LAN_RING_MAX ||
        rxq->head >= rxq->qlen || rxq->dbuf == 0 || rxq->rxmax < 64) {
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
    rxq->tail = rxq->head;
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
    e810_core_request_work(core, E810_WORK_RX_READY);
}

static uint32_t rx_free(const E810RxQueue *rxq)
{
    return (rxq->tail + rxq->qlen - rxq->head) % rxq->qlen;
}

bool e810_lan_can_receive(E810Core *core)
{
    E810RxQueue *rxq = &core->lan.rxq[0];

    /* A disabled queue drops frames; an enabled one waits for buffers. */
    return !rxq->enabled || rx_free(rxq) > 0;
}

static uint8_t umbcast(const uint8_t *frame)
{
    static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

    if (!memcmp(frame, bcast, sizeof(bcast))) {
        return 2;
    }
    return (frame[0] & 1) ? 1 : 0;
}

size_t e810_lan_receive(E810Core *core, const uint8_t *buf, size_t len)
{
    E810RxQueue *rxq = &core->lan.rxq[0];
    E810LanStats *st = &core->lan.stats;
    size_t off = 0;
    uint32_t need;

    /*
     * Rx steering: with the VSI's PE filter on (VSI queue option
     * PE_FLTR_EN), RoCEv2 frames (UDP 4791) for our MAC or an attached
     * multicast group go to the protocol engine, not to a LAN queue.
     */
    if (e810_xport_wants(core, buf, len)) {
        e810_xport_receive(core, buf, len);
        return len;
    }
    if (!rxq->enabled || len < ETH_HLEN_MIN) {
        st->rx_dropped++;
        return len;
    }
    if (len > rxq->rxmax) {
        st->rx_oversize++;
        return len;
    }
    need = (len + rxq->dbuf - 1) / rxq->dbuf;
    if (need > rxq->qlen - 1) {
        /* More buffers than the ring can ever offer: waiting would stall
         * the port for good, so it is dropped as oversize. */
        st->rx_oversize++;
        return len;
    }
    if (need > rx_free(rxq)) {
        st->rx_no_desc++;
        return 0;   /* held back until the driver posts buffers */
    }
    while (off < len) {
        uint64_t daddr = rxq->base + (uint64_t)rxq->head * 32;
        size_t chunk = len - off < rxq->dbuf ? len - off : rxq->dbuf;
        struct e810_rx_desc_read rd;
        struct e810_rx_flex_desc_nic wb;
        uint16_t status = E810_RX_FLEX_STATUS0_DD;

        if (!e810_core_dma_read(core, daddr, &rd, sizeof(rd)) ||
            !e810_core_dma_write(core, le64toh(rd.pkt_addr), buf + off,
                                 chunk)) {
            /* A bad buffer address: the frame is reported as an error. */
            status |= E810_RX_FLEX_STATUS0_RXE;
            chunk = len - off;
        }
        off += chunk;
        if (off == len) {
            status |= E810_RX_FLEX_STATUS0_EOF;
        }
        memset(&wb, 0, sizeof(wb));
        wb.rxdid = E810_RXDID_FLEX_NIC;
        wb.mir_id_umb_cast = FIELD_PREP(E810_RX_FLEX_UMBCAST, umbcast(buf));
        wb.ptype_flex_flags0 = htole16(E810_PTYPE_MAC_PAY2);
        wb.pkt_len = htole16(chunk & E810_RX_FLEX_PKT_LEN);
        wb.status_error0 = htole16(status);
        e810_core_dma_write(core, daddr, &wb, sizeof(wb));
        rxq->head = (rxq->head + 1) % rxq->qlen;
    }
    st->rx_packets++;
    st->rx_bytes += len;
    e810_intr_cause(core, E810_QINT_RQCTL(0));
    return len;
}
