/*
 * Emulated E810: protocol-engine statistics (what GATHER_STATS reports).
 *
 * Each statistics instance holds the GEN_2 counters of
 * include/hw/e810_rdma_stats.h. The function has its own instance (the one
 * a GATHER_STATS without USE_INST reads, and the one the stock irdma uses:
 * irdma_vsi_stats_init() keeps the HMC function id unless the instance is
 * allocated); MANAGE_STATS hands out the 128 others. A QP counts in the
 * instance its context names when USESTATSINSTANCE is set (STAT_INDEX,
 * irdma_sc_qp_setctx_roce()), else in the function's.
 *
 * Counters run free: gathering does not clear them, and the buffer shows
 * each one modulo its hardware width so the driver's wrap arithmetic
 * (irdma_stat_delta()) sees what it would on hardware. An instance is
 * zeroed when MANAGE_STATS allocates or frees it and by every engine reset
 * (e810_rdma_reset()).
 *
 * What is counted, and where:
 *   IPv4/IPv6 Tx packets, octets (the IP datagram: IP header to ICRC),
 *   multicast packets and octets (IP destination multicast), UDP Tx: every
 *   RoCE frame the engine emits (e810_xport_tx(), loopback included).
 *   The same Rx: every frame the receive path parsed (rx_one()); Rx
 *   truncated: a frame shorter than its IP header or IP length says.
 *   RDMA Tx SEND/WRITE/READ: a message (its first packet, or the READ
 *   request) sent the first time (e810_rc.c count_tx(), e810_ud_send()).
 *   RDMA Rx SEND/WRITE/READ: a message the responder accepted in sequence
 *   (e810_rc.c rx_request(), UD delivery).
 *   Invalidations: an STag invalidated (e810_dp_invalidate()). Window
 *   binds (RDMAVBND): where a bind succeeds, once binds are modelled.
 *   Rx ECN marked: IP ECN field = CE (3) on a received frame.
 * Not modelled (read 0): IP discards (the engine never runs out of
 * buffers), fragments (RoCE sets DF; the parser drops fragments), "no
 * route", VLAN errors, every TCP counter (iWARP only), and the DCQCN CNP
 * counters (the engine does no congestion control; CNPs are not parsed).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <string.h>

#include "e810_core.h"
#include "e810_roce_pkt.h"
#include "e810_xport.h"

#define ETHERTYPE_VLAN  0x8100
#define ETHERTYPE_IPV4  0x0800
#define ETHERTYPE_IPV6  0x86dd

/* Where each counter goes in the gather buffer. */
typedef struct RstatLayout {
    uint16_t off;
    uint8_t shift;
    uint8_t bits;
} RstatLayout;

static const RstatLayout layout[E810_RSTAT_MAX] = E810_RSTAT_LAYOUT;

static uint64_t *inst_of(E810Core *core, const E810Qp *qp)
{
    unsigned inst = E810_RSTAT_FN_INST;

    if (qp && (e810_qpc(qp, E810_QPC_FLAGS_OFF) & E810_QPC_USESTATSINSTANCE)) {
        inst = FIELD_GET(E810_QPC_STAT_INDEX, e810_qpc(qp, E810_QPC_STAT_OFF));
    }
    return core->rdma.rstat[inst];
}

void e810_rdma_stat_add(E810Core *core, const E810Qp *qp, unsigned stat,
                        uint64_t n)
{
    if (stat < E810_RSTAT_MAX) {
        inst_of(core, qp)[stat] += n;
    }
}

void e810_rdma_stat_clear(E810Core *core, unsigned inst)
{
    if (inst <= E810_RSTAT_FN_INST) {
        memset(core->rdma.rstat[inst], 0, sizeof(core->rdma.rstat[inst]));
    }
}

void e810_rdma_stat_fill(E810Core *core, unsigned inst,
                         uint8_t buf[E810_GATHER_STATS_BUF_SIZE])
{
    uint64_t q[E810_GATHER_STATS_BUF_SIZE / 8] = { 0 };
    unsigned i;

    if (inst > E810_RSTAT_FN_INST) {
        inst = E810_RSTAT_FN_INST;
    }
    for (i = 0; i < E810_RSTAT_MAX; i++) {
        uint64_t mask = (1ull << layout[i].bits) - 1;

        q[layout[i].off / 8] |=
            (core->rdma.rstat[inst][i] & mask) << layout[i].shift;
    }
    for (i = 0; i < E810_GATHER_STATS_BUF_SIZE / 8; i++) {
        q[i] = htole64(q[i]);
    }
    memcpy(buf, q, sizeof(q));
}

/* ---- events ---------------------------------------------------------------- */

static bool ip_mcast(const E810RocePkt *p)
{
    return p->ipv4 ? (p->dip[3] >> 28) == 0xe : (p->dip[0] >> 24) == 0xff;
}

/* The IP and UDP counters of one datagram of @octets bytes. */
static void count_ip(uint64_t *c, const E810RocePkt *p, uint64_t octets,
                     bool tx)
{
    bool mc = ip_mcast(p);

    if (p->ipv4) {
        c[tx ? E810_RSTAT_IP4TXPKTS : E810_RSTAT_IP4RXPKTS]++;
        c[tx ? E810_RSTAT_IP4TXOCTS : E810_RSTAT_IP4RXOCTS] += octets;
        if (mc) {
            c[tx ? E810_RSTAT_IP4TXMCPKTS : E810_RSTAT_IP4RXMCPKTS]++;
            c[tx ? E810_RSTAT_IP4TXMCOCTS : E810_RSTAT_IP4RXMCOCTS] += octets;
        }
    } else {
        c[tx ? E810_RSTAT_IP6TXPKTS : E810_RSTAT_IP6RXPKTS]++;
        c[tx ? E810_RSTAT_IP6TXOCTS : E810_RSTAT_IP6RXOCTS] += octets;
        if (mc) {
            c[tx ? E810_RSTAT_IP6TXMCPKTS : E810_RSTAT_IP6RXMCPKTS]++;
            c[tx ? E810_RSTAT_IP6TXMCOCTS : E810_RSTAT_IP6RXMCOCTS] += octets;
        }
    }
    c[tx ? E810_RSTAT_UDPTXPKTS : E810_RSTAT_UDPRXPKTS]++;
}

void e810_rdma_stat_tx(E810Core *core, const E810Qp *qp, const E810RocePkt *p,
                       size_t len)
{
    size_t l2 = E810_ETH_HLEN + (p->vlan ? E810_VLAN_HLEN : 0);

    count_ip(inst_of(core, qp), p, len > l2 ? len - l2 : 0, true);
}

void e810_rdma_stat_rx(E810Core *core, const E810Qp *qp, const E810RocePkt *p,
                       const uint8_t *frame, size_t len)
{
    const uint8_t *h = p->l3;
    uint64_t *c;
    uint64_t octets;

    if (!h || h < frame || h >= frame + len) {
        return;
    }
    /* The datagram, not the frame: the wire may have padded a short one. */
    octets = p->ipv4 ? (uint64_t)(h[2] << 8 | h[3]) :
             E810_IPV6_HLEN + (uint64_t)(h[4] << 8 | h[5]);
    c = inst_of(core, qp);
    count_ip(c, p, octets, false);
    if ((p->tclass & 3) == 3) {
        c[E810_RSTAT_RXNPECNMARKEDPKTS]++;
    }
}

void e810_rdma_stat_rx_short(E810Core *core, const uint8_t *frame,
                             size_t len)
{
    size_t off = E810_ETH_HLEN;
    uint16_t type;
    uint64_t *c = core->rdma.rstat[E810_RSTAT_FN_INST];

    if (len < off) {
        return;
    }
    type = frame[12] << 8 | frame[13];
    if (type == ETHERTYPE_VLAN && len >= off + E810_VLAN_HLEN) {
        type = frame[16] << 8 | frame[17];
        off += E810_VLAN_HLEN;
    }
    if (type == ETHERTYPE_IPV4) {
        if (len < off + E810_IPV4_HLEN ||
            (size_t)(frame[off + 2] << 8 | frame[off + 3]) > len - off) {
            c[E810_RSTAT_IP4RXTRUNC]++;
        }
    } else if (type == ETHERTYPE_IPV6) {
        if (len < off + E810_IPV6_HLEN ||
            (size_t)(frame[off + 4] << 8 | frame[off + 5]) >
            len - off - E810_IPV6_HLEN) {
            c[E810_RSTAT_IP6RXTRUNC]++;
        }
    }
}

/* The counter a message-opening packet with BTH @opcode bumps, or -1. */
static int msg_stat(uint8_t opcode, bool tx)
{
    unsigned fl = e810_roce_op_flags(opcode);

    if (opcode == E810_BTH_RC_READ_REQ) {
        return tx ? E810_RSTAT_RDMATXRDS : E810_RSTAT_RDMARXRDS;
    }
    if (!(fl & E810_OPF_FIRST)) {
        return -1;
    }
    if (fl & E810_OPF_SEND) {
        return tx ? E810_RSTAT_RDMATXSNDS : E810_RSTAT_RDMARXSNDS;
    }
    if (fl & E810_OPF_WRITE) {
        return tx ? E810_RSTAT_RDMATXWRS : E810_RSTAT_RDMARXWRS;
    }
    return -1;
}

void e810_rdma_stat_tx_msg(E810Core *core, const E810Qp *qp, uint8_t opcode)
{
    int s = msg_stat(opcode, true);

    if (s >= 0) {
        inst_of(core, qp)[s]++;
    }
}

void e810_rdma_stat_rx_msg(E810Core *core, const E810Qp *qp, uint8_t opcode)
{
    int s = msg_stat(opcode, false);

    if (s >= 0) {
        inst_of(core, qp)[s]++;
    }
}
