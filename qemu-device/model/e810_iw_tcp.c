/*
 * Emulated E810: TCP of offloaded iWARP connections.
 *
 * What the context asks for (irdma_init_tcp_ctx(), docs/hw-model.md
 * "iWARP engine"): window scaling with the shifts of the context, no SACK,
 * no timestamps, MSS = SNDMSS, out-of-order segments dropped (DROPOOOSEG)
 * and answered with a duplicate ACK so the peer retransmits. Every data
 * segment received is acknowledged at once (an ACK rides on data when
 * there is some); the send side keeps every byte until it is acknowledged
 * in a ring (E810_IW_TXBUF) and sends from it: new data within min(peer
 * window, cwnd), go-back-N from SND.UNA on a timeout (REXMIT_THRESH
 * retransmissions before AE 0x050A), go-back-N from SND.UNA on the third
 * duplicate ACK too (the peer engine dropped what followed the gap), a
 * probe (SND.UNA - 1, no data) into a zero window. Slow start and
 * congestion avoidance as RFC 5681 has them, without fast recovery.
 *
 * The retransmission timeout is RFC 6298's: one segment of new data at a
 * time is timed until an ACK covers it (never one sent again: Karn's
 * rule, so a go-back-N or a timeout stops the timing), SRTT and RTTVAR
 * follow the samples (alpha 1/8, beta 1/4), RTO = SRTT + max(4 * RTTVAR,
 * 200 ms) -- the floor on the variance term as Linux has it (TCP_RTO_MIN),
 * which keeps a peer's delayed ACK (up to 200 ms) from looking like a
 * loss -- 1 s before the first sample, doubled on every timeout up to
 * 60 s and kept so until a new sample. The context's SRTT/RTTVAR (0 and
 * 6 from irdma_init_tcp_ctx()) and RTOMIN have no documented unit and
 * are not used.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "e810_iw.h"
#include "e810_xport.h"

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = v >> 8;
    p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = v >> 24;
    p[1] = v >> 16;
    p[2] = v >> 8;
    p[3] = (uint8_t)v;
}

uint32_t e810_iw_tx_room(const E810IwConn *c)
{
    return E810_IW_TXBUF - c->tx_len;
}

void e810_iw_tx_append(E810IwConn *c, const void *buf, uint32_t len)
{
    uint32_t pos = (c->tx_head + c->tx_len) % E810_IW_TXBUF;
    uint32_t first = len < E810_IW_TXBUF - pos ? len : E810_IW_TXBUF - pos;

    memcpy(c->txbuf + pos, buf, first);
    memcpy(c->txbuf, (const uint8_t *)buf + first, len - first);
    c->tx_len += len;
}

static uint16_t adv_window(const E810IwConn *c)
{
    uint32_t w = c->o.rcv_wnd >> c->o.rcv_scale;

    return w > 0xffff ? 0xffff : (uint16_t)w;
}

/*
 * One segment: @seq, @flags, @n stream bytes from ring offset @roff
 * (relative to SND.UNA). The ACK field is RCV.NXT whenever ACK is set.
 */
static void xmit(E810Core *core, E810IwConn *c, uint32_t seq, uint8_t flags,
                 uint32_t roff, uint32_t n)
{
    E810Iw *iw = core->iw;
    uint8_t *f = iw->frame, *ip, *tcp;
    const E810IwOffload *o = &c->o;
    uint32_t off = 12, l3, i, pos;
    size_t len;

    memcpy(f, o->dmac, 6);
    memcpy(f + 6, o->smac, 6);
    if (o->vlan) {
        put16(f + 12, 0x8100);
        put16(f + 14, o->tci);
        off = 16;
    }
    put16(f + off, o->ipv4 ? 0x0800 : 0x86dd);
    ip = f + off + 2;
    l3 = o->ipv4 ? 20 : 40;
    tcp = ip + l3;
    /* TCP header, no options. */
    put16(tcp, o->lport);
    put16(tcp + 2, o->rport);
    put32(tcp + 4, seq);
    put32(tcp + 8, (flags & E810_TCPF_ACK) ? c->rcv_nxt : 0);
    tcp[12] = 5 << 4;
    tcp[13] = flags;
    put16(tcp + 14, adv_window(c));
    put16(tcp + 16, 0);
    put16(tcp + 18, 0);
    pos = (c->tx_head + roff) % E810_IW_TXBUF;
    for (i = 0; i < n;) {
        uint32_t k = n - i < E810_IW_TXBUF - pos ? n - i :
                     E810_IW_TXBUF - pos;

        memcpy(tcp + 20 + i, c->txbuf + pos, k);
        i += k;
        pos = (pos + k) % E810_IW_TXBUF;
    }
    if (o->ipv4) {
        ip[0] = 0x45;
        ip[1] = o->tos;
        put16(ip + 2, (uint16_t)(20 + 20 + n));
        put16(ip + 4, (uint16_t)c->snd_max);   /* any ID: DF is set */
        put16(ip + 6, 0x4000);
        ip[8] = o->ttl;
        ip[9] = 6;
        put16(ip + 10, 0);
        put32(ip + 12, o->lip[3]);
        put32(ip + 16, o->rip[3]);
        put16(ip + 10, e810_iw_ip_csum(ip, 20));
    } else {
        put32(ip, 6u << 28 | (uint32_t)o->tos << 20);
        put16(ip + 4, (uint16_t)(20 + n));
        ip[6] = 6;
        ip[7] = o->ttl;
        for (i = 0; i < 4; i++) {
            put32(ip + 8 + 4 * i, o->lip[i]);
            put32(ip + 24 + 4 * i, o->rip[i]);
        }
    }
    put16(tcp + 16, e810_iw_tcp_csum(o->ipv4, o->ipv4 ? ip + 12 : ip + 8,
                                     o->ipv4 ? ip + 16 : ip + 24, tcp,
                                     20 + n));
    len = (size_t)(tcp - f) + 20 + n;
    if (len < 60) {
        memset(f + len, 0, 60 - len);
        len = 60;
    }
    iw->stats.tx_segs++;
    iw->stats.tx_bytes += n;
    if (!memcmp(o->dmac, core->mac, 6)) {
        e810_iw_loop(core, f, len);
        return;
    }
    if (!e810_port_link_up(core)) {
        return;
    }
    /* Only the wire loses segments (e810_core_set_iwarp_drop_ppm()). */
    if (e810_xport_iw_drop(core)) {
        iw->stats.tx_dropped_injected++;
        return;
    }
    core->ops->transmit(core->opaque, f, len);
    e810_stats_tx(core, -1, f, len);
}

static uint64_t now(E810Core *core)
{
    return e810_xport_now(core);
}

static void arm_rto(E810Core *core, E810IwConn *c)
{
    e810_iw_arm(core, c, now(core) + c->rto_ns);
}

/* RFC 6298 section 2: RTO from SRTT and RTTVAR, within the bounds. */
static uint64_t rto_of(const E810IwConn *c)
{
    uint64_t var = 4 * c->rttvar_ns, rto;

    rto = c->srtt_ns + (var > E810_IW_RTO_MIN_NS ? var : E810_IW_RTO_MIN_NS);
    return rto < E810_IW_RTO_MAX_NS ? rto : E810_IW_RTO_MAX_NS;
}

/* One RTT measurement @r (ns): RFC 6298 sections 2.2 and 2.3. */
static void rtt_sample(E810Core *core, E810IwConn *c, uint64_t r)
{
    if (r > E810_IW_RTO_MAX_NS) {
        r = E810_IW_RTO_MAX_NS;         /* a clock jump: keep it sane */
    }
    if (!c->rtt_samples) {
        c->srtt_ns = r;
        c->rttvar_ns = r / 2;
    } else {
        uint64_t d = c->srtt_ns > r ? c->srtt_ns - r : r - c->srtt_ns;

        c->rttvar_ns = (3 * c->rttvar_ns + d) / 4;
        c->srtt_ns = (7 * c->srtt_ns + r) / 8;
    }
    c->rtt_samples++;
    core->iw->stats.rtt_samples++;
    c->rto_ns = rto_of(c);      /* collapses a backed-off RTO (5.7) */
}

/* RFC 6298 section 5.5: the timer expired, back off. */
static void rto_backoff(E810IwConn *c)
{
    c->rto_ns = c->rto_ns * 2 < E810_IW_RTO_MAX_NS ? c->rto_ns * 2 :
                E810_IW_RTO_MAX_NS;
}

void e810_iw_tcp_output(E810Core *core, E810IwConn *c)
{
    uint32_t win = c->snd_wnd < c->cwnd ? c->snd_wnd : c->cwnd;
    bool sent = false;

    if (c->rst_sent || c->tcp_state == E810_TCP_CLOSED ||
        c->tcp_state == E810_TCP_NONE) {
        return;
    }
    for (;;) {
        uint32_t flight = c->snd_nxt - c->snd_una;
        uint32_t avail = win > flight ? win - flight : 0;
        uint32_t n;

        if (flight >= c->tx_len) {
            break;
        }
        n = c->tx_len - flight;
        if (n > c->o.mss) {
            n = c->o.mss;
        }
        if (avail < n) {
            /* No silly windows: wait for ACKs unless nothing is out. */
            if (!avail || flight) {
                break;
            }
            n = avail;
        }
        xmit(core, c, c->snd_nxt, E810_TCPF_ACK | E810_TCPF_PSH, flight, n);
        if (!c->rtt_timing && e810_seq_le(c->snd_max, c->snd_nxt)) {
            /* New data, never sent before: time it (Karn's rule). */
            c->rtt_timing = true;
            c->rtt_seq = c->snd_nxt + n;
            c->rtt_t0 = now(core);
        }
        c->snd_nxt += n;
        if (e810_seq_lt(c->snd_max, c->snd_nxt)) {
            c->snd_max = c->snd_nxt;
        }
        sent = true;
    }
    if (c->fin_pending && !c->fin_sent && c->snd_nxt - c->snd_una ==
        c->tx_len && !c->txq_count && !c->rdq_count) {
        xmit(core, c, c->snd_nxt, E810_TCPF_ACK | E810_TCPF_FIN, 0, 0);
        c->fin_seq = c->snd_nxt;
        c->snd_nxt++;
        if (e810_seq_lt(c->snd_max, c->snd_nxt)) {
            c->snd_max = c->snd_nxt;
        }
        c->fin_sent = true;
        core->iw->stats.tx_fin++;
        sent = true;
    }
    if (!sent && c->ack_now) {
        xmit(core, c, c->snd_nxt, E810_TCPF_ACK, 0, 0);
        core->iw->stats.tx_acks++;
    }
    c->ack_now = false;
    /* Something out (or a zero window to probe): the timer runs. */
    if (!c->deadline && (c->snd_nxt != c->snd_una ||
                         c->snd_nxt - c->snd_una < c->tx_len)) {
        arm_rto(core, c);
    }
}

void e810_iw_tcp_send_rst(E810Core *core, E810IwConn *c)
{
    if (c->rst_sent || c->tcp_state == E810_TCP_CLOSED ||
        c->tcp_state == E810_TCP_TIME_WAIT) {
        return;
    }
    xmit(core, c, c->snd_nxt, E810_TCPF_RST | E810_TCPF_ACK, 0, 0);
    core->iw->stats.tx_rst++;
    c->rst_sent = true;
    c->deadline = 0;
    e810_iw_set_tcp_state(core, c, E810_TCP_CLOSED);
}

static void fin_acked(E810Core *core, E810IwConn *c)
{
    switch (c->tcp_state) {
    case E810_TCP_FIN_WAIT_1:
        e810_iw_set_tcp_state(core, c, E810_TCP_FIN_WAIT_2);
        break;
    case E810_TCP_CLOSING:
        e810_iw_set_tcp_state(core, c, E810_TCP_TIME_WAIT);
        e810_iw_ae(core, c, E810_AE_LLP_CLOSE_COMPLETE);
        break;
    case E810_TCP_LAST_ACK:
        e810_iw_set_tcp_state(core, c, E810_TCP_CLOSED);
        e810_iw_ae(core, c, E810_AE_LLP_CLOSE_COMPLETE);
        break;
    default:
        break;
    }
}

static void fin_received(E810Core *core, E810IwConn *c)
{
    core->iw->stats.rx_fin++;
    switch (c->tcp_state) {
    case E810_TCP_ESTABLISHED:
        e810_iw_set_tcp_state(core, c, E810_TCP_CLOSE_WAIT);
        e810_iw_ae(core, c, c->in_send ? E810_AE_RDMAP_ROE_BAD_LLP_CLOSE :
                                         E810_AE_LLP_FIN_RECEIVED);
        break;
    case E810_TCP_FIN_WAIT_1:
        e810_iw_set_tcp_state(core, c, E810_TCP_CLOSING);
        break;
    case E810_TCP_FIN_WAIT_2:
        e810_iw_set_tcp_state(core, c, E810_TCP_TIME_WAIT);
        e810_iw_ae(core, c, E810_AE_LLP_CLOSE_COMPLETE);
        break;
    default:
        break;
    }
}

static void on_ack(E810Core *core, E810IwConn *c, uint32_t ack)
{
    uint32_t acked = ack - c->snd_una;
    uint32_t bytes = acked < c->tx_len ? acked : c->tx_len;
    uint32_t mss = c->o.mss;

    c->tx_head = (c->tx_head + bytes) % E810_IW_TXBUF;
    c->tx_len -= bytes;
    c->snd_una = ack;
    if (e810_seq_lt(c->snd_nxt, c->snd_una)) {
        c->snd_nxt = c->snd_una;
    }
    c->retries = 0;
    c->dupacks = 0;
    if (c->rtt_timing && e810_seq_le(c->rtt_seq, ack)) {
        c->rtt_timing = false;
        rtt_sample(core, c, now(core) - c->rtt_t0);
    }
    if (c->cwnd < c->ssthresh) {
        c->cwnd += bytes < mss ? bytes : mss;
    } else {
        c->cwnd += mss * mss / c->cwnd ? mss * mss / c->cwnd : 1;
    }
    if (c->cwnd > (1u << 30)) {
        c->cwnd = 1u << 30;
    }
    c->deadline = 0;
    if (c->snd_nxt != c->snd_una) {
        arm_rto(core, c);
    }
    if (c->fin_sent && ack == c->fin_seq + 1) {
        fin_acked(core, c);
    }
    e810_iw_tx_acked(core, c);
}

void e810_iw_tcp_input(E810Core *core, E810IwConn *c, uint32_t seq,
                       uint32_t ack, uint8_t flags, uint16_t win,
                       const uint8_t *data, uint32_t len)
{
    E810IwConnStats *st = &core->iw->stats;
    uint32_t wnd = (uint32_t)win << c->o.snd_scale;
    uint32_t rwnd = c->o.rcv_wnd ? c->o.rcv_wnd : 1;
    bool fin = flags & E810_TCPF_FIN;
    uint32_t skip = 0;

    st->rx_segs++;
    if (c->rst_sent || c->tcp_state == E810_TCP_CLOSED ||
        c->tcp_state == E810_TCP_NONE) {
        return;
    }
    if (flags & E810_TCPF_RST) {
        /* RFC 793: acceptable if it lies in the receive window. */
        if (seq - c->rcv_nxt < rwnd) {
            st->rx_rst++;
            c->deadline = 0;
            e810_iw_set_tcp_state(core, c, E810_TCP_CLOSED);
            e810_iw_ae(core, c, E810_AE_LLP_CONNECTION_RESET);
        }
        return;
    }
    if (flags & E810_TCPF_SYN) {
        st->rx_syn++;
        c->ack_now = true;
        e810_iw_tcp_output(core, c);
        return;
    }
    if (!(flags & E810_TCPF_ACK)) {
        st->rx_no_ack++;
        return;
    }
    if (e810_seq_lt(c->snd_una, ack) && e810_seq_le(ack, c->snd_max)) {
        c->snd_wnd = wnd;
        on_ack(core, c, ack);
    } else if (ack == c->snd_una) {
        if (!len && !fin && c->snd_nxt != c->snd_una && wnd == c->snd_wnd &&
            ++c->dupacks == 3) {
            uint32_t flight = c->snd_nxt - c->snd_una;

            /*
             * The peer engine drops what follows a gap (DROPOOOSEG), so
             * the whole flight after SND.UNA is gone: go back to SND.UNA
             * now rather than one segment now and the rest after an RTO.
             */
            c->ssthresh = flight / 2 > 2u * c->o.mss ? flight / 2 :
                          2u * c->o.mss;
            c->cwnd = c->ssthresh;
            st->fast_retransmits++;
            st->retransmits++;
            c->snd_nxt = c->snd_una;
            c->rtt_timing = false;      /* Karn: what is timed goes again */
            if (c->fin_sent) {
                c->fin_sent = false;
            }
            c->deadline = 0;
            e810_iw_tcp_output(core, c);
        }
        c->snd_wnd = wnd;
    } else if (e810_seq_lt(c->snd_max, ack)) {
        c->ack_now = true;      /* acknowledges what was never sent */
        e810_iw_tcp_output(core, c);
        return;
    }
    if (!len && !fin && seq == c->rcv_nxt - 1) {
        c->ack_now = true;      /* a window probe: say where we are */
    }
    if (len || fin) {
        if (e810_seq_lt(seq, c->rcv_nxt)) {
            skip = c->rcv_nxt - seq;
            if (skip >= len + fin) {
                st->rx_dup++;
                c->ack_now = true;
                goto out;
            }
            if (skip > len) {
                skip = len;
            }
        } else if (seq != c->rcv_nxt) {
            st->rx_ooo++;
            c->ack_now = true;  /* a duplicate ACK asks for the gap */
            goto out;
        }
        if (c->fin_rcvd) {
            c->ack_now = true;
            goto out;
        }
        len -= skip;
        if (len) {
            E810Qp *qp = e810_qp_get(core, c->qp_id);

            /* After a Terminate, or in ERROR, bytes are taken unread. */
            c->rcv_nxt += len;
            st->rx_bytes += len;
            if (qp && !c->term_sent && !c->term_rcvd && !c->failed &&
                (qp->state == E810_QP_STATE_RTS ||
                 qp->state == E810_QP_STATE_SQD)) {
                e810_iw_mpa_rx(core, c, data + skip, len);
            }
            c->ack_now = true;
        }
        if (fin) {
            c->rcv_nxt++;
            c->fin_rcvd = true;
            c->ack_now = true;
            fin_received(core, c);
        }
    }
out:
    e810_iw_frame_more(core, c);
    e810_iw_tcp_output(core, c);
}

void e810_iw_tcp_timer(E810Core *core, E810IwConn *c)
{
    E810IwConnStats *st = &core->iw->stats;
    unsigned limit = c->o.rexmit_thresh ? c->o.rexmit_thresh : 8;
    uint32_t flight = c->snd_nxt - c->snd_una;

    if (c->rst_sent || c->tcp_state == E810_TCP_CLOSED ||
        c->tcp_state == E810_TCP_TIME_WAIT) {
        return;
    }
    if (flight) {
        st->timeouts++;
        if (++c->retries > limit) {
            E810Qp *qp = e810_qp_get(core, c->qp_id);

            /* The peer is gone: the driver terminates or errors the QP. */
            e810_iw_set_tcp_state(core, c, E810_TCP_CLOSED);
            if (qp) {
                e810_dp_qp_fatal(core, qp, E810_AE_LLP_TOO_MANY_RETRIES,
                                 E810_AE_SOURCE_RSVD, 0);
            }
            return;
        }
        c->ssthresh = flight / 2 > 2u * c->o.mss ? flight / 2 :
                      2u * c->o.mss;
        c->cwnd = c->o.mss;
        c->snd_nxt = c->snd_una;
        c->rtt_timing = false;          /* Karn's rule */
        if (c->fin_sent) {
            c->fin_sent = false;        /* not acknowledged: again */
        }
        st->retransmits++;
        rto_backoff(c);
        e810_iw_tcp_output(core, c);
        return;
    }
    if (c->tx_len) {
        /*
         * Zero window: a probe the peer answers with an ACK carrying its
         * window, an old sequence number and no data (as Linux's
         * tcp_xmit_probe_skb()), so nothing is taken by a peer that
         * would accept it.
         */
        xmit(core, c, c->snd_una - 1, E810_TCPF_ACK, 0, 0);
        st->probes++;
        rto_backoff(c);
        arm_rto(core, c);
    }
}
