/*
 * Emulated E810: RoCEv2 UD transport.
 *
 * Send: one packet per WQE (the payload must fit the path MTU), headers
 * from the address handle, DETH with the WQE's Q_Key (or the QP's when
 * its high bit is set, as IB defines) and our QPN; the WQE completes once
 * the packet is out. Receive: Q_Key and P_Key checked against the QP
 * context, one receive WQE per datagram, the 40-byte GRH area first (IPv6:
 * the IPv6 header; IPv4: 20 zero bytes, then the IPv4 header), then the
 * payload. Datagrams to QPN 0xFFFFFF go to every QP attached to the
 * multicast group of their destination IP. A datagram with no receive WQE
 * posted is dropped and counted, as UD allows. Privileged (kernel) QPs may
 * name STag 0 in their SGEs: the address is then a bus address (the local
 * DMA lkey; ib_mad's QP1 buffers use it).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "e810_core.h"
#include "e810_xport.h"

#define QKEY_USE_QP     0x80000000u
#define QP1_QKEY        0x80010000u
#define DEFAULT_SPORT   0xc000

static uint32_t qp_pd(const E810Qp *qp)
{
    return FIELD_GET(E810_QPC_PDIDX, e810_qpc(qp, E810_QPC_PKEY_OFF)) |
           FIELD_GET(E810_QPC_PDIDXHI, e810_qpc(qp, E810_QPC_CFG_OFF)) << 16;
}

static uint32_t qp_qkey(const E810Qp *qp)
{
    if (e810_qpc(qp, E810_QPC_CFG_OFF) & E810_QPC_ISQP1) {
        return QP1_QKEY;
    }
    return FIELD_GET(E810_QPC_QKEY, e810_qpc(qp, E810_QPC_DEST_OFF));
}

/* The payload of @wqe into @buf; false with @status if it cannot be read. */
static bool ud_gather(E810Core *core, E810Qp *qp, const E810SendWqe *wqe,
                      uint8_t *buf, uint16_t *status)
{
    return e810_dp_gather(core, qp, wqe, 0, buf, wqe->total_len, status);
}

/* GRH area then payload into the receive WQE @rw. */
static bool ud_scatter(E810Core *core, E810Qp *qp, const E810RecvWqe *rw,
                       const uint8_t *grh, const E810RocePkt *p,
                       uint16_t *status)
{
    return e810_dp_scatter_grh(core, qp, rw, grh, status) &&
           (!p->paylen || e810_dp_scatter(core, qp, rw, E810_DP_GRH_LEN,
                                          p->payload, p->paylen, status));
}

bool e810_ud_send(E810Core *core, E810Qp *qp, const E810SendWqe *wqe)
{
    E810Xport *xp = core->xport;
    uint64_t sizes = e810_qpc(qp, E810_QPC_SIZES_OFF);
    uint64_t smac = FIELD_GET(E810_QPC_MACADDRESS,
                              e810_qpc(qp, E810_QPC_MAC_OFF));
    uint16_t pkey = FIELD_GET(E810_QPC_PKEY, e810_qpc(qp, E810_QPC_PKEY_OFF));
    E810XQp *x = e810_xqp_get(core, wqe->qp_id);
    uint8_t *frame = xp->frame;
    const E810Ah *ah;
    E810RocePkt p;
    uint16_t status;

    if (core->inject_ud_send_err && core->inject_ud_send_err == wqe->qp_id) {
        core->inject_ud_send_err = 0;    /* debug knob: a bad lkey */
        e810_dp_complete_sq(core, qp, wqe, E810_AE_AMP_BAD_STAG_KEY, 0);
        return true;
    }
    if (wqe->opcode != E810_OP_SEND && wqe->opcode != E810_OP_SEND_SOL) {
        e810_dp_complete_sq(core, qp, wqe, E810_AE_WQE_UNEXPECTED_OPCODE, 0);
        return true;
    }
    if (!core->rdma.ah || wqe->ah_id >= e810_hmc_count(core, E810_HMC_FSIAV) ||
        !core->rdma.ah[wqe->ah_id].valid) {
        e810_dp_complete_sq(core, qp, wqe, E810_AE_INVALID_AH_ENTRY, 0);
        return true;
    }
    ah = &core->rdma.ah[wqe->ah_id];
    if (ah->pd != qp_pd(qp)) {
        e810_dp_complete_sq(core, qp, wqe, E810_AE_UDA_XMIT_BAD_PD, 0);
        return true;
    }
    if (wqe->total_len > e810_xport_mtu(qp)) {
        e810_dp_complete_sq(core, qp, wqe, E810_AE_UDA_XMIT_DGRAM_TOO_LONG, 0);
        return true;
    }
    memset(&p, 0, sizeof(p));
    /*
     * The destination MAC is the ARP cache entry the AH names (an entry
     * that is not valid leaves it zero: a frame nobody takes, as for RC);
     * the source MAC is the AH's, else the QP's, else the port's.
     */
    if (core->rdma.arp && ah->arp_idx < e810_hmc_count(core, E810_HMC_ARP) &&
        core->rdma.arp[ah->arp_idx].valid) {
        memcpy(p.dmac, core->rdma.arp[ah->arp_idx].mac, 6);
    }
    if (memcmp(ah->smac, (const uint8_t[6]){ 0 }, 6)) {
        memcpy(p.smac, ah->smac, 6);
    } else if (smac) {
        e810_mac_from_u64(p.smac, smac);
    } else {
        memcpy(p.smac, core->mac, 6);
    }
    p.vlan = ah->insert_vlan;
    p.tci = ah->vlan;
    p.ipv4 = ah->ipv4;
    p.tclass = ah->tc;
    p.hop_limit = ah->hop_limit ? ah->hop_limit : 64;
    p.flow_label = ah->flow_label;
    memcpy(p.sip, ah->sip, sizeof(p.sip));
    memcpy(p.dip, ah->dip, sizeof(p.dip));
    p.sport = FIELD_GET(E810_QPC_SRCPORTNUM, sizes);
    if (!p.sport) {
        p.sport = DEFAULT_SPORT;
    }
    p.opcode = wqe->imm_valid ? E810_BTH_UD_SEND_ONLY_IMM :
               E810_BTH_UD_SEND_ONLY;
    p.se = wqe->solicited;
    p.pkey = pkey ? pkey : 0xffff;
    p.dqpn = wqe->dest_qpn & E810_BTH_QPN_MASK;
    if (x) {
        p.psn = x->next_psn;
        x->next_psn = e810_psn_add(x->next_psn, 1);
    }
    p.qkey = (wqe->qkey & QKEY_USE_QP) ? qp_qkey(qp) : wqe->qkey;
    p.sqpn = wqe->qp_id;
    p.imm = wqe->imm;
    if (wqe->total_len &&
        !ud_gather(core, qp, wqe, frame + e810_roce_hdr_len(&p), &status)) {
        e810_dp_complete_sq(core, qp, wqe, status, 0);
        return true;
    }
    e810_xport_tx(core, qp, &p, frame, wqe->total_len);
    xp->stats.ud_sent++;
    e810_rdma_stat_tx_msg(core, qp, p.opcode);
    e810_dp_complete_sq(core, qp, wqe, 0, wqe->total_len);
    return true;
}

/* Delivers @p to UD QP @qpn, if it exists and the keys match. */
static void deliver(E810Core *core, uint32_t qpn, const E810RocePkt *p)
{
    E810XportStats *st = &core->xport->stats;
    E810Qp *qp = e810_qp_get(core, qpn);
    uint8_t grh[E810_DP_GRH_LEN];
    E810RecvWqe rw;
    uint16_t status = 0;
    uint16_t pkey;

    if (!qp || qp->type != E810_QP_TYPE_ROCE_UD ||
        (qp->state != E810_QP_STATE_RTR && qp->state != E810_QP_STATE_RTS &&
         qp->state != E810_QP_STATE_SQD)) {
        st->rx_bad_qp++;
        return;
    }
    pkey = FIELD_GET(E810_QPC_PKEY, e810_qpc(qp, E810_QPC_PKEY_OFF));
    if (pkey && ((pkey ^ p->pkey) & 0x7fff)) {
        st->rx_bad_pkey++;
        return;
    }
    if (p->qkey != qp_qkey(qp)) {
        st->rx_bad_qkey++;
        return;
    }
    if (!e810_dp_rq_take(core, qp, &rw)) {
        st->rx_no_rwqe++;
        return;
    }
    memset(grh, 0, sizeof(grh));
    if (p->ipv4) {
        memcpy(grh + E810_DP_GRH_LEN - E810_IPV4_HLEN, p->l3, E810_IPV4_HLEN);
    } else {
        memcpy(grh, p->l3, E810_IPV6_HLEN);
    }
    if (ud_scatter(core, qp, &rw, grh, p, &status)) {
        status = 0;
        st->ud_delivered++;
        e810_rdma_stat_rx_msg(core, qp, p->opcode);
    }
    {
        E810RecvInfo info = {
            .status = status,
            .byte_len = p->paylen + E810_DP_GRH_LEN,
            .bth_opcode = p->opcode,
            .psn = p->psn,
            .imm_valid = p->opcode == E810_BTH_UD_SEND_ONLY_IMM,
            .imm = p->imm,
            .solicited = p->se,
            .ud = true,
            .src_qpn = p->sqpn,
            .ipv4 = p->ipv4,
            .vlan_valid = p->vlan,
            .vlan = p->tci,
        };

        memcpy(info.src_mac, p->smac, 6);
        e810_dp_complete_rq(core, qp, &rw, &info);
    }
}

void e810_ud_receive(E810Core *core, const E810RocePkt *p)
{
    uint32_t i, n;
    bool found = false;

    if (p->dqpn != E810_MCAST_QPN) {
        deliver(core, p->dqpn, p);
        return;
    }
    n = core->rdma.mcg ? e810_hmc_count(core, E810_HMC_FSIMC) : 0;
    for (i = 0; i < n; i++) {
        const E810Mcg *m = &core->rdma.mcg[i];
        unsigned q;

        if (!m->valid || m->ipv4 != p->ipv4 ||
            memcmp(m->dip, p->dip, sizeof(m->dip))) {
            continue;
        }
        found = true;
        for (q = 0; q < m->nqps; q++) {
            /* The group may be changed by a completion: re-check. */
            if (!core->rdma.mcg || !core->rdma.mcg[i].valid) {
                break;
            }
            deliver(core, m->qpn[q], p);
        }
    }
    if (!found) {
        core->xport->stats.rx_mcast_no_group++;
    }
}
