/*
 * Emulated E810: DDP (RFC 5041) and RDMAP (RFC 5040) of offloaded iWARP
 * connections.
 *
 * Transmit: SQ WQEs become FPDUs in order, each sized to one MSS: SEND
 * (/INV/SE) untagged on queue 0 with a per-message MSN and the message
 * offset, RDMA WRITE tagged with the remote STag and TO, RDMA READ one
 * Read Request on queue 1 (sink = the WQE's first fragment, ORD from the
 * context); the LSMM (STREAMMODE) as raw stream bytes. READ responses to
 * the peer's requests go first, whole, between messages. A SEND or WRITE
 * completes once TCP has it acknowledged, a READ when its last response
 * is placed; WAITFORRCVPDU holds the LSMM (and through the fence after
 * it, the SQ) until the peer's first FPDU came.
 *
 * Receive: each checked FPDU is placed at once. Tagged WRITE and Read
 * Response through the MR checks of e810_mem.c (STag, PD, rights,
 * bounds); untagged SEND into the next RQ WQE at its MO, MSN in order,
 * CQE on the last segment; Read Requests queue up to the IRD. An error
 * sends a Terminate (layer, type and code as irdma_bld_terminate_hdr()
 * maps the AE) and fails the QP with the AE; a Terminate received lands
 * in Q2 (+72, with an Ethernet header) with AE 0x0509.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "e810_iw.h"

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

static void put64(uint8_t *p, uint64_t v)
{
    put32(p, v >> 32);
    put32(p + 4, (uint32_t)v);
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
           (uint32_t)p[2] << 8 | p[3];
}

static uint64_t get64(const uint8_t *p)
{
    return (uint64_t)get32(p) << 32 | get32(p + 4);
}

/* Send-ring bytes an FPDU of @ulen ULPDU bytes takes. */
static uint32_t fpdu_size(uint32_t ulen)
{
    return ((2 + ulen + 3) & ~3u) + 4;
}

static bool qp_live(E810Qp *qp)
{
    return qp && (qp->state == E810_QP_STATE_RTS ||
                  qp->state == E810_QP_STATE_SQD);
}

/* ---- errors and Terminate ------------------------------------------------ */

/*
 * The frame at Q2 + 72 as upstream irdma reads it for a Terminate received
 * and for its own Terminate header (irdma_locate_mpa(): 14 bytes of
 * Ethernet, the IP and TCP headers, then the MPA length and the ULPDU);
 * the engine rebuilds the headers around the stream bytes it parsed.
 * False if there is no Q2 to write.
 */
static bool q2_frame(E810Core *core, E810IwConn *c, const uint8_t *u,
                     uint32_t ulen)
{
    uint8_t buf[256 - E810_IW_Q2_FRAME_OFF];
    const E810IwOffload *o = &c->o;
    uint32_t off = 14, l3 = o->ipv4 ? 20 : 40, n, i;

    memset(buf, 0, sizeof(buf));
    memcpy(buf, o->smac, 6);
    memcpy(buf + 6, o->dmac, 6);
    put16(buf + 12, o->ipv4 ? 0x0800 : 0x86dd);
    if (o->ipv4) {
        buf[off] = 0x45;
        buf[off + 9] = 6;
        put32(buf + off + 12, o->rip[3]);
        put32(buf + off + 16, o->lip[3]);
    } else {
        buf[off] = 0x60;
        buf[off + 6] = 6;
        for (i = 0; i < 4; i++) {
            put32(buf + off + 8 + 4 * i, o->rip[i]);
            put32(buf + off + 24 + 4 * i, o->lip[i]);
        }
    }
    off += l3;
    put16(buf + off, o->rport);
    put16(buf + off + 2, o->lport);
    buf[off + 12] = 5 << 4;
    buf[off + 13] = E810_TCPF_ACK;
    off += 20;
    put16(buf + off, (uint16_t)ulen);
    off += 2;
    n = ulen < sizeof(buf) - off ? ulen : (uint32_t)sizeof(buf) - off;
    memcpy(buf + off, u, n);
    if (o->ipv4) {
        put16(buf + 14 + 2, (uint16_t)(20 + 20 + 2 + ulen));
    } else {
        put16(buf + 14 + 4, (uint16_t)(20 + 2 + ulen));
    }
    return o->q2_pa && e810_core_dma_write(core, o->q2_pa +
                                           E810_IW_Q2_FRAME_OFF, buf,
                                           off + n);
}

/*
 * What the silicon does on an error in the received stream, as upstream
 * irdma expects it (hw.c: irdma_process_aeq()): the AE, with the offending
 * segment in Q2 (Q2DATA) and the QP still in RTS in the AEQE, so that the
 * driver builds the Terminate header itself (irdma_bld_terminate_hdr())
 * and asks for it with MODIFY_QP -> TERMINATE (irdma_terminate_connection(),
 * e810_iw_conn_modify()); then TERMINATE again for the FIN, and ERROR once
 * the close is done or its 1 s timer fired (irdma_terminate_done()).
 * Until then nothing more is placed (the bytes are acknowledged and
 * dropped) and no new SQ work is framed.
 */
void e810_iw_error(E810Core *core, E810IwConn *c, uint16_t ae,
                   const uint8_t *ulpdu, uint32_t ulen)
{
    E810Qp *qp = e810_qp_get(core, c->qp_id);
    E810Ae a = {
        .code = ae,
        .source = E810_AE_SOURCE_RQ,
        .id = c->qp_id,
    };

    if (c->failed || c->term_sent || !qp) {
        return;
    }
    c->failed = true;
    c->in_send = false;
    a.ctx = qp->compl_ctx;
    a.qp_state = qp->state;
    a.tcp_state = c->tcp_state;
    a.q2data = ulpdu && ulen >= 2 && q2_frame(core, c, ulpdu, ulen);
    core->iw->stats.stream_errors++;
    e810_aeq_post(core, &a);
}

/* Bytes of the Terminate header at @th its hdrct names (RFC 5040 4.8). */
static uint32_t term_len(const uint8_t *th, uint32_t avail)
{
    uint32_t n = E810_TERM_CTRL_LEN;

    if (th[2] & E810_TERM_HDR_LEN) {
        n += 2;
    }
    if (th[2] & E810_TERM_HDR_DDP) {
        n += (avail > n && (th[n] & E810_DDP_T)) ? E810_DDP_TAGGED_HLEN :
             E810_DDP_UNTAGGED_HLEN;
    }
    if (th[2] & E810_TERM_HDR_RDMAP) {
        n += E810_RDMAP_READREQ_LEN;
    }
    return n < avail ? n : avail;
}

void e810_iw_send_terminate(E810Core *core, E810IwConn *c,
                            const uint8_t *th, uint32_t tlen)
{
    E810Iw *iw = core->iw;
    uint8_t *u = iw->fpdu + 2;
    uint32_t n;

    if (c->term_sent) {
        return;
    }
    c->term_sent = true;
    c->in_send = false;
    tlen = term_len(th, tlen);
    n = E810_DDP_UNTAGGED_HLEN + tlen;
    memset(u, 0, E810_DDP_UNTAGGED_HLEN);
    u[0] = E810_DDP_L | E810_DDP_VER;
    u[1] = E810_RDMAP_VER | E810_RDMAP_TERMINATE;
    put32(u + 6, E810_QN_TERM);
    put32(u + 10, c->tx_msn[E810_QN_TERM]++);
    memcpy(u + E810_DDP_UNTAGGED_HLEN, th, tlen);
    if (e810_iw_tx_room(c) >= fpdu_size(n) &&
        c->tcp_state != E810_TCP_CLOSED && !c->fin_sent && !c->rst_sent) {
        e810_iw_mpa_tx(core, c, n);
        iw->stats.terms_sent++;
    }
    e810_iw_tcp_output(core, c);
}

/* ---- transmit ------------------------------------------------------------ */

void e810_iw_tx_abandon(E810IwConn *c)
{
    c->txq_count = c->txq_framed = 0;
    c->rdq_count = 0;
    c->rd_off = 0;
    c->ord_out = 0;
}

/* Frames the READ response at the head of the IRD queue; false: stop. */
static bool frame_read_resp(E810Core *core, E810IwConn *c, E810Qp *qp)
{
    E810Iw *iw = core->iw;
    E810IwRd *rd = &c->rdq[c->rdq_head];
    uint32_t max = e810_iw_mulpdu(c, E810_DDP_TAGGED_HLEN);
    uint8_t *u = iw->fpdu + 2;

    for (;;) {
        uint32_t n = rd->len - (uint32_t)c->rd_off;
        bool last;
        uint16_t st = 0;

        if (n > max) {
            n = max;
        }
        last = c->rd_off + n == rd->len;
        if (e810_iw_tx_room(c) < fpdu_size(E810_DDP_TAGGED_HLEN + n)) {
            return false;
        }
        u[0] = E810_DDP_T | E810_DDP_VER | (last ? E810_DDP_L : 0);
        u[1] = E810_RDMAP_VER | E810_RDMAP_READ_RESP;
        put32(u + 2, rd->sink_stag);
        put64(u + 6, rd->sink_to + c->rd_off);
        if (n && !e810_dp_remote_read(core, qp, rd->src_stag,
                                      rd->src_to + c->rd_off,
                                      u + E810_DDP_TAGGED_HLEN, n, &st)) {
            e810_iw_error(core, c, st, NULL, 0);
            return false;
        }
        e810_iw_mpa_tx(core, c, E810_DDP_TAGGED_HLEN + n);
        c->rd_off += n;
        if (last) {
            iw->stats.read_resps++;
            c->rdq_head = (c->rdq_head + 1) % E810_IW_RDQ;
            c->rdq_count--;
            c->rd_off = 0;
            return true;
        }
    }
}

static bool gather(E810Core *core, E810Qp *qp, E810IwTx *t, void *buf,
                   uint32_t n)
{
    uint16_t st = 0;

    if (!n) {
        return true;
    }
    if (t->w.inline_data) {
        memcpy(buf, t->w.inline_buf + t->off, n);
        return true;
    }
    if (!e810_dp_gather(core, qp, &t->w, t->off, buf, n, &st)) {
        e810_dp_complete_sq(core, qp, &t->w, st, 0);
        return false;
    }
    return true;
}

/* Frames what fits of @t; false if the QP failed on it. */
static bool frame_wqe(E810Core *core, E810IwConn *c, E810Qp *qp,
                      E810IwTx *t)
{
    E810Iw *iw = core->iw;
    uint8_t *u = iw->fpdu + 2;
    const E810SendWqe *w = &t->w;
    bool tagged = w->opcode == E810_OP_RDMA_WRITE ||
                  w->opcode == E810_OP_RDMA_WRITE_SOL;

    if (t->stream) {
        while (t->off < w->total_len) {
            uint32_t n = w->total_len - (uint32_t)t->off;
            uint32_t room = e810_iw_tx_room(c);

            if (n > room) {
                n = room;
            }
            if (n > E810_IW_MAX_FPDU) {
                n = E810_IW_MAX_FPDU;
            }
            if (!n) {
                return true;
            }
            if (!gather(core, qp, t, iw->fpdu, n)) {
                return false;
            }
            e810_iw_tx_append(c, iw->fpdu, n);
            t->off += n;
        }
        t->framed = true;
        t->end_seq = c->snd_una + c->tx_len;
        return true;
    }
    if (t->is_read) {
        uint32_t n = E810_DDP_UNTAGGED_HLEN + E810_RDMAP_READREQ_LEN;

        if (e810_iw_tx_room(c) < fpdu_size(n)) {
            return true;
        }
        memset(u, 0, n);
        u[0] = E810_DDP_L | E810_DDP_VER;
        u[1] = E810_RDMAP_VER | E810_RDMAP_READ_REQ;
        put32(u + 6, E810_QN_READ);
        put32(u + 10, c->tx_msn[E810_QN_READ]++);
        put32(u + 18, w->num_sge ? w->sge[0].lkey : 0);
        put64(u + 22, w->num_sge ? w->sge[0].addr : 0);
        put32(u + 30, w->total_len);
        put32(u + 34, w->rkey);
        put64(u + 38, w->remote_va);
        e810_iw_mpa_tx(core, c, n);
        t->framed = true;
        return true;
    }
    while (!t->data_done) {
        uint32_t h = tagged ? E810_DDP_TAGGED_HLEN : E810_DDP_UNTAGGED_HLEN;
        uint32_t n = w->total_len - (uint32_t)t->off;
        uint32_t max = e810_iw_mulpdu(c, h);
        bool last;

        if (n > max) {
            n = max;
        }
        last = t->off + n == w->total_len;
        if (e810_iw_tx_room(c) < fpdu_size(h + n)) {
            return true;
        }
        if (tagged) {
            u[0] = E810_DDP_T | E810_DDP_VER | (last ? E810_DDP_L : 0);
            /* Solicited has no wire form for a WRITE (RFC 5040). */
            u[1] = E810_RDMAP_VER | E810_RDMAP_WRITE;
            put32(u + 2, w->rkey);
            put64(u + 6, w->remote_va + t->off);
        } else {
            if (!t->msn_taken) {
                t->msn = c->tx_msn[E810_QN_SEND]++;
                t->msn_taken = true;
            }
            u[0] = E810_DDP_VER | (last ? E810_DDP_L : 0);
            /* SQ opcodes 0x03-0x06 are the RDMAP ones (irdma ctrl.c). */
            u[1] = E810_RDMAP_VER | (w->opcode & 0x0f);
            put32(u + 2, (w->opcode == E810_OP_SEND_INV ||
                          w->opcode == E810_OP_SEND_SOL_INV) ?
                         w->inv_stag : 0);
            put32(u + 6, E810_QN_SEND);
            put32(u + 10, t->msn);
            put32(u + 14, (uint32_t)t->off);
        }
        if (!gather(core, qp, t, u + h, n)) {
            return false;
        }
        e810_iw_mpa_tx(core, c, h + n);
        t->off += n;
        t->data_done = last;
    }
    if (tagged && w->imm_valid) {
        /*
         * RDMA WRITE with immediate: the WRITE, then an RFC 7306
         * Immediate Data message (with SE for RDMA_WRITE_SOL) on queue 0,
         * which takes the peer's next RQ WQE; its 8 bytes are the WQE's
         * immediate qword (irdma puts the 32-bit value in its low half).
         */
        uint32_t h = E810_DDP_UNTAGGED_HLEN;

        if (e810_iw_tx_room(c) < fpdu_size(h + E810_RDMAP_IMM_LEN)) {
            return true;
        }
        if (!t->msn_taken) {
            t->msn = c->tx_msn[E810_QN_SEND]++;
            t->msn_taken = true;
        }
        memset(u, 0, h + E810_RDMAP_IMM_LEN);
        u[0] = E810_DDP_L | E810_DDP_VER;
        u[1] = E810_RDMAP_VER | (w->solicited ? E810_RDMAP_IMM_SE :
                                 E810_RDMAP_IMM);
        put32(u + 6, E810_QN_SEND);
        put32(u + 10, t->msn);
        put32(u + h + 4, w->imm);
        e810_iw_mpa_tx(core, c, h + E810_RDMAP_IMM_LEN);
        core->iw->stats.imm_tx++;
    }
    t->framed = true;
    t->end_seq = c->snd_una + c->tx_len;
    return true;
}

void e810_iw_frame_more(E810Core *core, E810IwConn *c)
{
    E810Qp *qp = e810_qp_get(core, c->qp_id);

    if (!qp_live(qp) || c->term_sent || c->term_rcvd || c->failed ||
        c->rst_sent || c->fin_sent) {
        if (!qp_live(qp)) {
            e810_iw_tx_abandon(c);
        }
        return;
    }
    for (;;) {
        if (c->rdq_count) {
            if (!frame_read_resp(core, c, qp)) {
                return;
            }
            continue;
        }
        if (c->txq_framed < c->txq_count) {
            E810IwTx *t = &c->txq[(c->txq_head + c->txq_framed) %
                                  E810_IW_TXQ];
            E810IwTx *prev = c->txq_framed ?
                &c->txq[(c->txq_head + c->txq_framed - 1) % E810_IW_TXQ] :
                NULL;

            /* Nothing follows the LSMM before the peer's first FPDU. */
            if (prev && prev->wait_pdu && !c->got_fpdu) {
                return;
            }
            if (!frame_wqe(core, c, qp, t)) {
                e810_iw_tx_abandon(c);
                return;
            }
            if (!t->framed) {
                return;
            }
            c->txq_framed++;
            continue;
        }
        return;
    }
}

void e810_iw_tx_acked(E810Core *core, E810IwConn *c)
{
    E810Qp *qp = e810_qp_get(core, c->qp_id);
    bool any = false;

    while (c->txq_count && qp_live(qp)) {
        E810IwTx *t = &c->txq[c->txq_head];

        if (!t->framed) {
            break;
        }
        if (t->is_read ? !t->rd_got_all :
            (e810_seq_lt(c->snd_una, t->end_seq) ||
             (t->wait_pdu && !c->got_fpdu))) {
            break;
        }
        c->txq_head = (c->txq_head + 1) % E810_IW_TXQ;
        c->txq_count--;
        c->txq_framed--;
        any = true;
        e810_dp_complete_sq(core, qp, &t->w, 0, t->w.total_len);
        qp = e810_qp_get(core, c->qp_id);
    }
    if (any && qp_live(qp)) {
        e810_dp_sq_kick(core, c->qp_id);
    }
}

/* ---- receive ------------------------------------------------------------- */

static void term_rcvd(E810Core *core, E810IwConn *c, const uint8_t *u,
                      uint32_t ulen)
{
    E810Qp *qp = e810_qp_get(core, c->qp_id);
    E810Ae ae = {
        .code = E810_AE_LLP_TERMINATE_RECEIVED,
        .source = E810_AE_SOURCE_RSVD,
        .id = c->qp_id,
        .ctx = qp ? qp->compl_ctx : 0,
        .qp_state = qp ? qp->state : 0,
        .tcp_state = c->tcp_state,
    };

    c->term_rcvd = true;
    core->iw->stats.terms_rcvd++;
    /* The driver checks it in Q2 (irdma_terminate_received()). */
    ae.q2data = q2_frame(core, c, u, ulen);
    e810_aeq_post(core, &ae);
}

/* The READ the peer answers: the oldest one not complete. */
static E810IwTx *read_in_flight(E810IwConn *c)
{
    uint32_t i;

    for (i = 0; i < c->txq_framed; i++) {
        E810IwTx *t = &c->txq[(c->txq_head + i) % E810_IW_TXQ];

        if (t->is_read && !t->rd_got_all) {
            return t;
        }
    }
    return NULL;
}

static void rx_read_resp(E810Core *core, E810IwConn *c, E810Qp *qp,
                         const uint8_t *u, uint32_t ulen)
{
    E810IwTx *t = read_in_flight(c);
    uint32_t stag = get32(u + 2), n = ulen - E810_DDP_TAGGED_HLEN;
    uint64_t to = get64(u + 6);
    bool last = u[0] & E810_DDP_L;
    uint16_t st = 0;
    uint32_t sink = t && t->w.num_sge ? t->w.sge[0].lkey : 0;
    uint64_t base = t && t->w.num_sge ? t->w.sge[0].addr : 0;

    if (!t || stag != sink || to - base != t->rd_got ||
        t->rd_got + n > t->w.total_len ||
        (last && t->rd_got + n != t->w.total_len)) {
        e810_iw_error(core, c,
                      E810_AE_ROE_INVALID_RDMA_WRITE_OR_READ_RESP, u, ulen);
        return;
    }
    if (n && !e810_dp_read_resp_scatter(core, qp, &t->w, t->rd_got,
                                        u + E810_DDP_TAGGED_HLEN, n, &st)) {
        c->term_sent = true;    /* the local side failed: no more input */
        e810_dp_complete_sq(core, qp, &t->w, st, 0);
        return;
    }
    t->rd_got += n;
    if (last) {
        t->rd_got_all = true;
        if (c->ord_out) {
            c->ord_out--;
        }
        e810_iw_tx_acked(core, c);
        if (qp_live(e810_qp_get(core, c->qp_id))) {
            e810_dp_sq_kick(core, c->qp_id);
        }
    }
}

static void rx_send(E810Core *core, E810IwConn *c, E810Qp *qp,
                    const uint8_t *u, uint32_t ulen)
{
    uint8_t op = u[1] & 0x0f;
    uint32_t inv = get32(u + 2), msn = get32(u + 10), mo = get32(u + 14);
    uint32_t n = ulen - E810_DDP_UNTAGGED_HLEN;
    bool last = u[0] & E810_DDP_L;
    bool imm = op == E810_RDMAP_IMM || op == E810_RDMAP_IMM_SE;
    uint16_t st = 0;

    if (!imm && (op < E810_RDMAP_SEND || op > E810_RDMAP_SEND_SE_INV)) {
        e810_iw_error(core, c, E810_AE_RDMAP_ROE_UNEXPECTED_OPCODE, u, ulen);
        return;
    }
    /* RFC 7306 Immediate Data: one whole segment of 8 bytes, not inside a
     * Send message. */
    if (imm && (!last || c->in_send || mo || n != E810_RDMAP_IMM_LEN)) {
        e810_iw_error(core, c, last ? E810_AE_RDMAP_ROE_UNEXPECTED_OPCODE :
                      E810_AE_DDP_NO_L_BIT, u, ulen);
        return;
    }
    if (msn != c->rx_msn[E810_QN_SEND]) {
        e810_iw_error(core, c, E810_AE_DDP_INVALID_MSN_GAP_IN_MSN, u, ulen);
        return;
    }
    if (!c->in_send) {
        if (mo) {
            e810_iw_error(core, c, E810_AE_DDP_UBE_INVALID_MO, u, ulen);
            return;
        }
        if (!e810_dp_rq_take(core, qp, &c->rwqe)) {
            if (qp_live(qp)) {
                e810_iw_error(core, c,
                              E810_AE_DDP_UBE_INVALID_MSN_NO_BUFFER_AVAILABLE,
                              u, ulen);
            } else {
                c->term_sent = true;    /* a bad RQ WQE failed the QP */
            }
            return;
        }
        c->in_send = true;
        c->send_off = 0;
    }
    if (imm) {
        E810RecvInfo info;

        /* No data placed: the CQE has length 0, the immediate and SE. */
        memset(&info, 0, sizeof(info));
        info.bth_opcode = op;
        info.imm_valid = true;
        info.imm = get32(u + E810_DDP_UNTAGGED_HLEN + 4);
        info.solicited = op == E810_RDMAP_IMM_SE;
        c->in_send = false;
        c->rx_msn[E810_QN_SEND]++;
        core->iw->stats.imm_rx++;
        e810_dp_complete_rq(core, qp, &c->rwqe, &info);
        return;
    }
    if (mo != c->send_off) {
        e810_iw_error(core, c, E810_AE_DDP_UBE_INVALID_MO, u, ulen);
        return;
    }
    if (n && !e810_dp_scatter(core, qp, &c->rwqe, mo,
                              u + E810_DDP_UNTAGGED_HLEN, n, &st)) {
        if (st == E810_AE_DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER) {
            e810_iw_error(core, c, st, u, ulen);
        } else {
            e810_iw_error(core, c, st, u, ulen);
        }
        return;
    }
    c->send_off += n;
    if (last) {
        E810RecvInfo info;

        memset(&info, 0, sizeof(info));
        info.byte_len = (uint32_t)c->send_off;
        info.bth_opcode = op;
        info.solicited = op == E810_RDMAP_SEND_SE ||
                         op == E810_RDMAP_SEND_SE_INV;
        if (op == E810_RDMAP_SEND_INV || op == E810_RDMAP_SEND_SE_INV) {
            if (!e810_dp_invalidate(core, qp, inv, true, &st)) {
                e810_iw_error(core, c, st, u, ulen);
                return;
            }
            info.inv_valid = true;
            info.inv_stag = inv;
        }
        c->in_send = false;
        c->rx_msn[E810_QN_SEND]++;
        e810_dp_complete_rq(core, qp, &c->rwqe, &info);
    }
}

static void rx_read_req(E810Core *core, E810IwConn *c, const uint8_t *u,
                        uint32_t ulen)
{
    const uint8_t *p = u + E810_DDP_UNTAGGED_HLEN;
    uint32_t cap = c->o.ird < E810_IW_RDQ ? c->o.ird : E810_IW_RDQ;
    E810IwRd *rd;

    if ((u[1] & 0x0f) != E810_RDMAP_READ_REQ || !(u[0] & E810_DDP_L) ||
        get32(u + 14) || ulen != E810_DDP_UNTAGGED_HLEN +
        E810_RDMAP_READREQ_LEN || get32(u + 10) != c->rx_msn[E810_QN_READ]) {
        e810_iw_error(core, c, E810_AE_ROE_INVALID_RDMA_READ_REQUEST, u, ulen);
        return;
    }
    if (c->rdq_count >= cap) {
        e810_iw_error(core, c, E810_AE_IB_RREQ_AND_Q1_FULL, u, ulen);
        return;
    }
    rd = &c->rdq[(c->rdq_head + c->rdq_count++) % E810_IW_RDQ];
    rd->sink_stag = get32(p);
    rd->sink_to = get64(p + 4);
    rd->len = get32(p + 12);
    rd->src_stag = get32(p + 16);
    rd->src_to = get64(p + 20);
    c->rx_msn[E810_QN_READ]++;
    core->iw->stats.read_reqs++;
    if (rd->len > E810_DP_MAX_MSG) {
        c->rdq_count--;
        e810_iw_error(core, c, E810_AE_ROE_INVALID_RDMA_READ_REQUEST, u, ulen);
    }
}

void e810_iw_fpdu_rx(E810Core *core, E810IwConn *c, const uint8_t *u,
                     uint32_t ulen)
{
    E810Qp *qp = e810_qp_get(core, c->qp_id);
    bool was = c->got_fpdu;
    uint8_t ctrl, rc;
    uint16_t st = 0;

    if (!qp_live(qp)) {
        return;
    }
    c->got_fpdu = true;
    /* The driver may have rewritten PBLEs since the last FPDU. */
    e810_pble_cache_drop(core);
    if (ulen < 2) {
        e810_iw_error(core, c, E810_AE_LLP_SEGMENT_TOO_SMALL, u, ulen);
        return;
    }
    ctrl = u[0];
    rc = u[1];
    if ((ctrl & 3) != E810_DDP_VER) {
        e810_iw_error(core, c, E810_AE_DDP_UBE_INVALID_DDP_VERSION, u, ulen);
        return;
    }
    if ((rc >> 6) != 1) {
        e810_iw_error(core, c,
                      E810_AE_RDMAP_ROE_INVALID_RDMAP_VERSION, u, ulen);
        return;
    }
    if (ctrl & E810_DDP_T) {
        if (ulen < E810_DDP_TAGGED_HLEN) {
            e810_iw_error(core, c, E810_AE_LLP_SEGMENT_TOO_SMALL, u, ulen);
            return;
        }
        switch (rc & 0x0f) {
        case E810_RDMAP_WRITE:
            if (!e810_dp_remote_write(core, qp, get32(u + 2), get64(u + 6),
                                      u + E810_DDP_TAGGED_HLEN,
                                      ulen - E810_DDP_TAGGED_HLEN, &st)) {
                e810_iw_error(core, c, st, u, ulen);
            }
            break;
        case E810_RDMAP_READ_RESP:
            rx_read_resp(core, c, qp, u, ulen);
            break;
        default:
            e810_iw_error(core, c,
                          E810_AE_RDMAP_ROE_UNEXPECTED_OPCODE, u, ulen);
            return;
        }
    } else {
        if (ulen < E810_DDP_UNTAGGED_HLEN) {
            e810_iw_error(core, c, E810_AE_LLP_SEGMENT_TOO_SMALL, u, ulen);
            return;
        }
        switch (get32(u + 6)) {
        case E810_QN_SEND:
            rx_send(core, c, qp, u, ulen);
            break;
        case E810_QN_READ:
            rx_read_req(core, c, u, ulen);
            break;
        case E810_QN_TERM:
            term_rcvd(core, c, u, ulen);
            break;
        default:
            e810_iw_error(core, c, E810_AE_DDP_UBE_INVALID_QN, u, ulen);
            return;
        }
    }
    if (!was) {
        e810_iw_tx_acked(core, c);      /* the LSMM waited for this */
    }
}
