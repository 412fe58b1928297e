/*
 * Emulated E810: the ILQ data path (iWARP mode).
 *
 * The ILQ (QP 1, a privileged UDA QP the driver creates straight in RTS,
 * upstream puda.c) is how irdma's connection manager sends and receives
 * the TCP segments of connections not yet offloaded (docs/hw-model.md,
 * "iWARP mode"):
 *
 * Transmit: an SQ WQE (SEND, one fragment, STag 0: a physical address)
 * holds a TCP header, its options and payload; the header qword names the
 * address handle (AHID) and the TCP header length (L4LEN, dwords). The
 * device prepends Ethernet (source MAC from the AH, else the port's;
 * destination from the ARP entry the AH names; an 802.1Q tag if the AH
 * inserts one) and IPv4 or IPv6 (addresses, TOS / traffic class, TTL /
 * hop limit from the AH), computes the IP and TCP checksums (the driver
 * leaves the TCP one zero: upstream irdma_form_ah_cm_frame()), sends the
 * frame on the wire or -- AH loopback, or a destination MAC of our own --
 * through our own receive path, and completes the WQE (upstream
 * irdma_puda_poll_cmpl() frees its buffer on that CQE only).
 *
 * Receive: a segment the steering gave the ILQ (e810_iw_steer()) goes into
 * the next RQ buffer without its Ethernet header, laid out as upstream
 * irdma_puda_get_tcpip_info() reads it on GEN_2: IPv4 header at byte 20
 * (bytes 0-19 zero), IPv6 header at byte 0, TCP header at byte 40; the CQE
 * reports 40 + TCP header + payload as its length, IPV4, and in its
 * extended half the source MAC and the VLAN tag (when there was one). A
 * segment that does not fit the buffer size the driver put in the ILQ
 * context (SNDMSS), or that finds no RQ WQE posted, is dropped and
 * counted: the driver's CM retransmits.
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
/* TCP header offset in an ILQ receive buffer (upstream IRDMA_TCP_OFFSET). */
#define ILQ_TCP_OFF     40
/* Largest segment the ILQ/IEQ send (IEQ buffers: MTU + 20). */
#define ILQ_SEG_MAX     (9728 + 20)
#define ILQ_FRAME_MAX   (ETH_HLEN + VLAN_HLEN + IPV6_HLEN + ILQ_SEG_MAX)

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = v >> 8;
    p[1] = v;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = v >> 24;
    p[1] = v >> 16;
    p[2] = v >> 8;
    p[3] = v;
}

/* Fails an ILQ send with AE @ae (the QP goes to ERROR, as any UDA QP's). */
static bool tx_failed(E810Core *core, E810Qp *qp, const E810SendWqe *wqe,
                      uint16_t ae)
{
    core->rdma.iw.stats.ilq_tx_errors++;
    e810_core_log(core, E810_LOG_GUEST_ERROR, "ILQ/IEQ QP %u send at %u: "
                  "AE 0x%04x", wqe->qp_id, wqe->wqe_idx, ae);
    e810_dp_complete_sq(core, qp, wqe, ae, 0);
    return true;
}

bool e810_ilq_send(E810Core *core, E810Qp *qp, const E810SendWqe *wqe)
{
    E810IwStats *st = &core->rdma.iw.stats;
    uint32_t ah_id = FIELD_GET(E810_WQE_AHID, wqe->hdr);
    unsigned l4len = FIELD_GET(E810_WQE_L4LEN, wqe->hdr) * 4;
    uint8_t frame[ILQ_FRAME_MAX];
    const E810Ah *ah;
    uint32_t seglen = wqe->total_len;
    size_t off, l3, l4, flen;
    uint16_t status, ck;
    unsigned i;

    if (core->gen->gen == E810_GEN_1) {
        return e810_ilq_send_gen1(core, qp, wqe);   /* x722_ilq.c */
    }
    if (wqe->opcode != E810_OP_SEND) {
        return tx_failed(core, qp, wqe, E810_AE_WQE_UNEXPECTED_OPCODE);
    }
    if (!core->rdma.ah || ah_id >= e810_hmc_count(core, E810_HMC_FSIAV) ||
        !core->rdma.ah[ah_id].valid) {
        return tx_failed(core, qp, wqe, E810_AE_INVALID_AH_ENTRY);
    }
    ah = &core->rdma.ah[ah_id];
    if (seglen < TCP_HLEN_MIN || seglen > ILQ_SEG_MAX ||
        l4len < TCP_HLEN_MIN || l4len > seglen) {
        return tx_failed(core, qp, wqe, E810_AE_UDA_XMIT_DGRAM_TOO_LONG);
    }
    /* Ethernet */
    memset(frame, 0, ETH_HLEN + VLAN_HLEN + IPV6_HLEN);
    if (core->rdma.arp && ah->arp_idx < e810_hmc_count(core, E810_HMC_ARP) &&
        core->rdma.arp[ah->arp_idx].valid) {
        memcpy(frame, core->rdma.arp[ah->arp_idx].mac, 6);
    }
    if (memcmp(ah->smac, (const uint8_t[6]){ 0 }, 6)) {
        memcpy(frame + 6, ah->smac, 6);
    } else {
        memcpy(frame + 6, core->mac, 6);
    }
    off = 12;
    if (ah->insert_vlan) {
        put16(frame + off, 0x8100);
        put16(frame + off + 2, ah->vlan);
        off += VLAN_HLEN;
    }
    put16(frame + off, ah->ipv4 ? 0x0800 : 0x86dd);
    l3 = off + 2;
    l4 = l3 + (ah->ipv4 ? IPV4_HLEN : IPV6_HLEN);
    if (!e810_dp_gather(core, qp, wqe, 0, frame + l4, seglen, &status)) {
        return tx_failed(core, qp, wqe, status);
    }
    /* IP */
    if (ah->ipv4) {
        frame[l3] = 0x45;
        frame[l3 + 1] = ah->tc;
        put16(frame + l3 + 2, IPV4_HLEN + seglen);
        put16(frame + l3 + 6, 0x4000);     /* DF */
        frame[l3 + 8] = ah->hop_limit ? ah->hop_limit : 64;
        frame[l3 + 9] = 6;
        put32(frame + l3 + 12, ah->sip[3]);
        put32(frame + l3 + 16, ah->dip[3]);
        put16(frame + l3 + 10, e810_iw_ip_csum(frame + l3, IPV4_HLEN));
    } else {
        put32(frame + l3, 6u << 28 | (uint32_t)ah->tc << 20 |
              (ah->flow_label & 0xfffff));
        put16(frame + l3 + 4, seglen);
        frame[l3 + 6] = 6;
        frame[l3 + 7] = ah->hop_limit ? ah->hop_limit : 64;
        for (i = 0; i < 4; i++) {
            put32(frame + l3 + 8 + 4 * i, ah->sip[i]);
            put32(frame + l3 + 24 + 4 * i, ah->dip[i]);
        }
    }
    /* TCP: the checksum over the pseudo header and the whole segment */
    put16(frame + l4 + 16, 0);
    ck = ah->ipv4 ? e810_iw_tcp_csum(true, frame + l3 + 12, frame + l3 + 16,
                                     frame + l4, seglen)
                  : e810_iw_tcp_csum(false, frame + l3 + 8, frame + l3 + 24,
                                     frame + l4, seglen);
    put16(frame + l4 + 16, ck);
    flen = l4 + seglen;
    if (flen < ETH_ZLEN) {
        memset(frame + flen, 0, ETH_ZLEN - flen);
        flen = ETH_ZLEN;
    }
    st->ilq_tx++;
    e810_dp_complete_sq(core, qp, wqe, 0, 0);
    if (ah->loopback || e810_iw_mac_is_ours(core, frame)) {
        E810IwRx where = e810_iw_steer(core, frame, flen);

        st->ilq_tx_loopback++;
        if (where != E810_IW_RX_LAN) {
            e810_iw_receive(core, where, frame, flen);
        } else {
            e810_lan_receive(core, frame, flen);
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

void e810_ilq_receive(E810Core *core, const uint8_t *frame, size_t len)
{
    E810IwStats *st = &core->rdma.iw.stats;
    E810Qp *qp = e810_qp_get(core, E810_ILQ_QPN);
    uint8_t buf[ILQ_TCP_OFF + ILQ_SEG_MAX];
    E810RecvInfo info;
    E810RecvWqe rw;
    uint32_t bufsize, need;
    uint16_t status = 0;
    E810IwSeg s;

    if (core->gen->gen == E810_GEN_1) {
        e810_ilq_receive_gen1(core, frame, len);    /* x722_ilq.c */
        return;
    }
    if (!qp || qp->type != E810_QP_TYPE_UDA ||
        qp->state != E810_QP_STATE_RTS || !e810_iw_parse(frame, len, &s)) {
        st->ilq_rx_dropped++;
        return;
    }
    bufsize = FIELD_GET(E810_QPC_SNDMSS, qp->ctx[E810_QW(E810_QPC_MSS_OFF)]);
    need = ILQ_TCP_OFF + s.l4_len;
    if (s.l4_len > ILQ_SEG_MAX || need > bufsize) {
        st->ilq_rx_dropped++;
        return;
    }
    memset(buf, 0, ILQ_TCP_OFF);
    if (s.ipv4) {
        memcpy(buf + ILQ_TCP_OFF - IPV4_HLEN, frame + s.l3_off, IPV4_HLEN);
    } else {
        memcpy(buf, frame + s.l3_off, IPV6_HLEN);
    }
    memcpy(buf + ILQ_TCP_OFF, frame + s.l4_off, s.l4_len);
    if (!e810_dp_rq_take(core, qp, &rw)) {
        st->ilq_rx_dropped++;   /* no buffer posted (or the ILQ failed) */
        return;
    }
    memset(&info, 0, sizeof(info));
    if (!e810_dp_scatter(core, qp, &rw, 0, buf, need, &status)) {
        info.status = status;
        e810_dp_complete_rq(core, qp, &rw, &info);
        st->ilq_rx_dropped++;
        return;
    }
    info.byte_len = need;
    info.ud = true;             /* extended CQE: source MAC, VLAN */
    info.ipv4 = s.ipv4;
    memcpy(info.src_mac, frame + 6, 6);
    info.vlan_valid = s.vlan_valid;
    info.vlan = s.tci;
    e810_dp_complete_rq(core, qp, &rw, &info);
    st->ilq_rx++;
    st->ilq_rx_data += s.l4_len > (frame[s.l4_off + 12] >> 4) * 4u;
}
