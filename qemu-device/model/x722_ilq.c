/*
 * Emulated Intel X722: the ILQ/IEQ data path of its GEN_1 protocol engine.
 *
 * The X722's engine is an E810 core run as GEN_1 (x722_rdma.c); its PUDA
 * queues (the ILQ, QP 1, through which irdma's connection manager sends
 * and receives the TCP segments of connections not yet offloaded, and the
 * IEQ, QP 2) carry whole Ethernet frames where GEN_2's carry TCP segments
 * behind address handles. e810_ilq_send() and e810_ilq_receive() hand a
 * GEN_1 engine's traffic to the two functions here.
 *
 * Transmit (upstream puda.c irdma_puda_send(), GEN_1 branch; the frames
 * come from cm.c irdma_form_uda_cm_frame()): a SEND WQE with one fragment
 * (LEN [31:0], STag 0: a physical address) holding an Ethernet frame,
 * optionally 802.1Q tagged, with an IPv4 or IPv6 header and a TCP
 * segment. Qword 2 says where the headers are: MACLEN (2-byte words: 14
 * or 18 bytes), IPLEN (dwords: 20 for IPv4, 40 for IPv6), L4T (1, TCP),
 * IIPT (3: IPv4 with its header checksum inserted, 1: IPv6), L4LEN (the
 * TCP header in dwords); the header qword's DOLOOPBACK turns the frame
 * back into our own receive path. The driver leaves both checksums 0:
 * the device inserts them (IPv4 header, TCP over the pseudo header) and
 * sends the frame as it is otherwise. A WQE whose fields do not describe
 * its frame fails the QP with an AE, as any UDA QP's: L4LEN outside the
 * segment (UDA_L4LEN_INVALID), a frame shorter than its headers or longer
 * than the largest segment (UDA_XMIT_DGRAM_TOO_SHORT / _TOO_LONG), another
 * opcode, L4 type, IP type or header length (WQE_INVALID_PARAMETER).
 *
 * Receive (upstream utils.c irdma_gen1_puda_get_tcpip_info(), puda.c
 * irdma_puda_poll_info()): the frame the steering gave the ILQ goes into
 * the next RQ buffer as it came from the wire, VLAN tag included; the CQE
 * has its length, no extended half, the L3 protocol (0 IPv4, 1 IPv6) and
 * the VLAN_TAG_VALID bit. A frame longer than the buffer size of the ILQ's
 * context (SNDMSS) or finding no RQ WQE is dropped and counted (the CM
 * retransmits).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "e810_core.h"
#include "e810_dp.h"
#include "e810_iw.h"
#include "e810_iwarp.h"

#define ETH_HLEN        14
#define VLAN_HLEN       4
#define ETH_ZLEN        60
#define IPV4_HLEN       20
#define IPV6_HLEN       40
#define TCP_HLEN_MIN    20
/* Largest frame: a 9728-byte MTU's, tagged (the IEQ's buffers: MTU + 20). */
#define GEN1_FRAME_MAX  (ETH_HLEN + VLAN_HLEN + 9728 + 20)

static uint16_t be16(const uint8_t *p)
{
    return p[0] << 8 | p[1];
}

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = v >> 8;
    p[1] = v;
}

static bool tx_failed(E810Core *core, E810Qp *qp, const E810SendWqe *wqe,
                      uint16_t ae)
{
    core->rdma.iw.stats.ilq_tx_errors++;
    e810_core_log(core, E810_LOG_GUEST_ERROR, "GEN_1 ILQ/IEQ QP %u send at "
                  "%u: AE 0x%04x", wqe->qp_id, wqe->wqe_idx, ae);
    e810_dp_complete_sq(core, qp, wqe, ae, 0);
    return true;
}

bool e810_ilq_send_gen1(E810Core *core, E810Qp *qp, const E810SendWqe *wqe)
{
    E810IwStats *st = &core->rdma.iw.stats;
    unsigned maclen = FIELD_GET(E810_GEN1_UDA_MACLEN, wqe->opq) * 2;
    unsigned iplen = FIELD_GET(E810_GEN1_UDA_IPLEN, wqe->opq) * 4;
    unsigned l4len = FIELD_GET(E810_GEN1_UDA_L4LEN, wqe->opq) * 4;
    unsigned iipt = FIELD_GET(E810_GEN1_UDA_IIPT, wqe->opq);
    unsigned l4t = FIELD_GET(E810_GEN1_UDA_L4T, wqe->opq);
    uint8_t frame[GEN1_FRAME_MAX];
    uint32_t len = wqe->total_len, seglen;
    uint16_t status, type;
    size_t flen, l3, l4;
    bool ipv4;

    if (wqe->opcode != E810_OP_SEND) {
        return tx_failed(core, qp, wqe, E810_AE_WQE_UNEXPECTED_OPCODE);
    }
    if (l4t != E810_GEN1_UDA_L4T_TCP ||
        (iipt != E810_GEN1_UDA_IIPT_IPV4_CSUM &&
         iipt != E810_GEN1_UDA_IIPT_IPV6) ||
        (maclen != ETH_HLEN && maclen != ETH_HLEN + VLAN_HLEN)) {
        return tx_failed(core, qp, wqe, E810_AE_WQE_INVALID_PARAMETER);
    }
    ipv4 = iipt == E810_GEN1_UDA_IIPT_IPV4_CSUM;
    if (iplen != (ipv4 ? IPV4_HLEN : IPV6_HLEN)) {
        return tx_failed(core, qp, wqe, E810_AE_WQE_INVALID_PARAMETER);
    }
    if (len > GEN1_FRAME_MAX) {
        return tx_failed(core, qp, wqe, E810_AE_UDA_XMIT_DGRAM_TOO_LONG);
    }
    if (len < maclen + iplen + TCP_HLEN_MIN) {
        return tx_failed(core, qp, wqe, E810_AE_UDA_XMIT_DGRAM_TOO_SHORT);
    }
    seglen = len - maclen - iplen;
    if (l4len < TCP_HLEN_MIN || l4len > seglen) {
        return tx_failed(core, qp, wqe, E810_AE_UDA_L4LEN_INVALID);
    }
    if (!e810_dp_gather(core, qp, wqe, 0, frame, len, &status)) {
        return tx_failed(core, qp, wqe, status);
    }
    /* The headers must be what the WQE says they are. */
    l3 = maclen;
    l4 = l3 + iplen;
    type = be16(frame + maclen - 2);
    if ((maclen == ETH_HLEN + VLAN_HLEN && be16(frame + 12) != 0x8100) ||
        type != (ipv4 ? 0x0800 : 0x86dd) ||
        (frame[l3] >> 4) != (ipv4 ? 4 : 6) ||
        (ipv4 ? (frame[l3] & 0xf) * 4u != IPV4_HLEN || frame[l3 + 9] != 6 ||
                be16(frame + l3 + 2) != iplen + seglen
              : frame[l3 + 6] != 6 || be16(frame + l3 + 4) != seglen) ||
        (frame[l4 + 12] >> 4) * 4u != l4len) {
        return tx_failed(core, qp, wqe, E810_AE_WQE_INVALID_PARAMETER);
    }
    /* Checksums: the IPv4 header's (IIPT 3) and TCP's, both left 0. */
    put16(frame + l4 + 16, 0);
    if (ipv4) {
        put16(frame + l3 + 10, 0);
        put16(frame + l3 + 10, e810_iw_ip_csum(frame + l3, IPV4_HLEN));
        put16(frame + l4 + 16, e810_iw_tcp_csum(true, frame + l3 + 12,
                                                frame + l3 + 16, frame + l4,
                                                seglen));
    } else {
        put16(frame + l4 + 16, e810_iw_tcp_csum(false, frame + l3 + 8,
                                                frame + l3 + 24, frame + l4,
                                                seglen));
    }
    flen = len;
    if (flen < ETH_ZLEN) {
        memset(frame + flen, 0, ETH_ZLEN - flen);
        flen = ETH_ZLEN;
    }
    st->ilq_tx++;
    e810_dp_complete_sq(core, qp, wqe, 0, 0);
    if ((wqe->hdr & E810_GEN1_UDA_DOLOOPBACK) || e810_iw_mac_is_ours(core, frame)) {
        E810IwRx where = e810_iw_steer(core, frame, flen);

        st->ilq_tx_loopback++;
        if (where != E810_IW_RX_LAN) {
            e810_iw_receive(core, where, frame, flen);
        } else {
            e810_core_log(core, E810_LOG_UNIMP, "GEN_1 ILQ loopback of a "
                          "frame for the LAN: not modelled, dropped");
        }
        return true;
    }
    if (!e810_port_link_up(core)) {
        e810_stats_tx_link_down(core);
        return true;
    }
    core->ops->transmit(core->opaque, frame, flen);
    e810_stats_tx(core, -1, frame, flen);
    return true;
}

void e810_ilq_receive_gen1(E810Core *core, const uint8_t *frame, size_t len)
{
    E810IwStats *st = &core->rdma.iw.stats;
    E810Qp *qp = e810_qp_get(core, E810_ILQ_QPN);
    E810RecvInfo info;
    E810RecvWqe rw;
    uint16_t status = 0;
    uint32_t bufsize;
    E810IwSeg s;

    if (!qp || qp->type != E810_QP_TYPE_UDA ||
        qp->state != E810_QP_STATE_RTS || !e810_iw_parse(frame, len, &s)) {
        st->ilq_rx_dropped++;
        return;
    }
    bufsize = FIELD_GET(E810_QPC_SNDMSS, qp->ctx[E810_QW(E810_QPC_MSS_OFF)]);
    if (len > bufsize) {
        st->ilq_rx_dropped++;
        return;
    }
    if (!e810_dp_rq_take(core, qp, &rw)) {
        st->ilq_rx_dropped++;   /* no buffer posted (or the ILQ failed) */
        return;
    }
    memset(&info, 0, sizeof(info));
    if (!e810_dp_scatter(core, qp, &rw, 0, frame, len, &status)) {
        info.status = status;
        e810_dp_complete_rq(core, qp, &rw, &info);
        st->ilq_rx_dropped++;
        return;
    }
    info.byte_len = len;
    info.ud = true;
    info.gen1_uda = true;
    info.ipv4 = s.ipv4;
    info.l3proto = s.ipv4 ? 0 : E810_GEN1_UDA_L3PROTO_IPV6;
    info.vlan_valid = s.vlan_valid;
    info.vlan = s.tci;
    e810_dp_complete_rq(core, qp, &rw, &info);
    st->ilq_rx++;
    st->ilq_rx_data += s.l4_len > (frame[s.l4_off + 12] >> 4) * 4u;
}
