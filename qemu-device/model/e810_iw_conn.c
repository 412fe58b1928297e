/*
 * Emulated E810: iWARP offloaded connections -- the table, the hand-off
 * from the driver's CM (MODIFY_QP -> RTS with the TCP/iWARP context),
 * close and reset, the receive entry point, AEs and timers.
 *
 * A connection lives from the offload until DESTROY_QP (or CREATE_QP) of
 * its QP: the hardware keeps the 4-tuple until the driver removes the hash
 * entry, so a QP in ERROR still owns it (its segments are dropped, an RST
 * goes out when the driver asks with RESETCON).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e810_iw.h"
#include "e810_lan.h"
#include "e810_xport.h"

/* ---- table --------------------------------------------------------------- */

E810Iw *e810_iw_get(E810Core *core)
{
    if (!core->iw) {
        core->iw = calloc(1, sizeof(*core->iw));
    }
    return core->iw;
}

E810IwConn *e810_iw_conn_of(E810Core *core, uint32_t qp_id)
{
    E810Iw *iw = core->iw;

    if (!iw || qp_id >= iw->nqp) {
        return NULL;
    }
    return iw->by_qp[qp_id];
}

static void conn_free(E810IwConn *c)
{
    free(c->txbuf);
    free(c->rxbuf);
    free(c);
}

/*
 * A destroyed connection keeps its 320 KiB of stream buffers for the next
 * one, up to E810_IW_CONN_SPARE_MAX: connections come and go with QPs, and
 * each new one would otherwise map and fault in fresh memory. The buffers
 * are poisoned while spare, so that a stale pointer into them still trips
 * AddressSanitizer; the connection itself is not, since it holds the only
 * pointers to them and LeakSanitizer does not look into poisoned memory.
 */
static void conn_release(E810Iw *iw, E810IwConn *c)
{
    if (iw->nspare >= E810_IW_CONN_SPARE_MAX) {
        conn_free(c);
        return;
    }
    c->next = iw->spare;
    iw->spare = c;
    iw->nspare++;
    ASAN_POISON_MEMORY_REGION(c->txbuf, E810_IW_TXBUF);
    ASAN_POISON_MEMORY_REGION(c->rxbuf, E810_IW_MAX_FPDU);
}

/* Takes the first spare connection off the list, no longer poisoned. */
static E810IwConn *spare_take(E810Iw *iw)
{
    E810IwConn *c = iw->spare;

    ASAN_UNPOISON_MEMORY_REGION(c->txbuf, E810_IW_TXBUF);
    ASAN_UNPOISON_MEMORY_REGION(c->rxbuf, E810_IW_MAX_FPDU);
    iw->spare = c->next;
    iw->nspare--;
    return c;
}

/* A zeroed connection with its buffers (not zeroed), or NULL. */
static E810IwConn *conn_alloc(E810Iw *iw)
{
    E810IwConn *c;
    uint8_t *txbuf, *rxbuf;

    if (iw->spare) {
        c = spare_take(iw);
        txbuf = c->txbuf;
        rxbuf = c->rxbuf;
        memset(c, 0, sizeof(*c));
        c->txbuf = txbuf;
        c->rxbuf = rxbuf;
        return c;
    }
    c = calloc(1, sizeof(*c));
    if (!c || !(c->txbuf = malloc(E810_IW_TXBUF)) ||
        !(c->rxbuf = malloc(E810_IW_MAX_FPDU))) {
        if (c) {
            conn_free(c);
        }
        return NULL;
    }
    return c;
}

void e810_iw_conn_destroy(E810Core *core, uint32_t qp_id)
{
    E810Iw *iw = core->iw;
    E810IwConn *c = e810_iw_conn_of(core, qp_id), **pp;

    if (!c) {
        return;
    }
    iw->by_qp[qp_id] = NULL;
    for (pp = &iw->list; *pp; pp = &(*pp)->next) {
        if (*pp == c) {
            *pp = c->next;
            break;
        }
    }
    conn_release(iw, c);
}

static void drop_defer(E810Iw *iw)
{
    while (iw->defer_head) {
        E810IwDefer *f = iw->defer_head;

        iw->defer_head = f->next;
        free(f);
    }
    iw->defer_tail = NULL;
    iw->defer_bytes = 0;
}

void e810_iw_reset(E810Core *core)
{
    E810Iw *iw = core->iw;

    if (!iw) {
        return;
    }
    while (iw->list) {
        e810_iw_conn_destroy(core, iw->list->qp_id);
    }
    drop_defer(iw);
}

void e810_iw_fini(E810Core *core)
{
    E810Iw *iw = core->iw;

    if (!iw) {
        return;
    }
    e810_iw_reset(core);
    while (iw->spare) {
        conn_free(spare_take(iw));
    }
    free(iw->by_qp);
    free(iw);
    core->iw = NULL;
}

/* ---- state, AEs, timers -------------------------------------------------- */

void e810_iw_set_tcp_state(E810Core *core, E810IwConn *c, uint8_t st)
{
    E810Qp *qp = e810_qp_get(core, c->qp_id);

    c->tcp_state = st;
    if (qp) {
        qp->tcp_state = st;
    }
}

void e810_iw_ae(E810Core *core, E810IwConn *c, uint16_t code)
{
    e810_qp_raise_ae(core, c->qp_id, code, E810_AE_SOURCE_RSVD, 0);
}

void e810_iw_arm(E810Core *core, E810IwConn *c, uint64_t deadline)
{
    E810XQp *x;

    c->deadline = deadline;
    if (!deadline) {
        return;
    }
    x = e810_xqp_get(core, c->qp_id);
    if (x && (!x->deadline || deadline < x->deadline)) {
        e810_xport_set_deadline(core, x, deadline);
    }
}

void e810_iw_conn_timer(E810Core *core, E810Qp *qp)
{
    E810IwConn *c = e810_iw_conn_of(core, qp - core->rdma.qp);

    if (!c || !c->deadline) {
        return;
    }
    if (c->deadline > e810_xport_now(core)) {
        e810_iw_arm(core, c, c->deadline);      /* not yet: keep it */
        return;
    }
    c->deadline = 0;
    e810_iw_enter(core);
    e810_iw_tcp_timer(core, c);
    e810_iw_exit(core);
}

/* ---- offload ------------------------------------------------------------- */

static uint64_t ctx(const E810Qp *qp, unsigned off)
{
    return qp->ctx[off >> 3];
}

bool e810_iw_parse_ctx(E810Core *core, E810Qp *qp, E810IwOffload *o)
{
    uint64_t cfg = ctx(qp, 0), sizes = ctx(qp, 24), mss = ctx(qp, 48);
    uint64_t scale = ctx(qp, 56), flags = ctx(qp, 160);
    uint64_t d23 = ctx(qp, 32), d01 = ctx(qp, 40);
    uint64_t l23 = ctx(qp, 184), l01 = ctx(qp, 192);
    uint32_t arp = FIELD_GET(E810_QPC_ARPIDX, mss);
    uint64_t smac = FIELD_GET(E810_QPC_MACADDRESS, ctx(qp, 152));
    static const uint32_t ird_of[8] = { 2, 8, 32, 64, 128, 128, 128, 128 };

    memset(o, 0, sizeof(*o));
    o->ipv4 = cfg & E810_QPC_IPV4;
    o->vlan = cfg & E810_QPC_INSERTVLANTAG;
    o->tci = FIELD_GET(E810_QPC_VLANTAG, mss);
    o->ttl = FIELD_GET(E810_QPC_TTL, sizes);
    if (!o->ttl) {
        o->ttl = 64;
    }
    o->tos = FIELD_GET(E810_QPC_TOS, sizes);
    o->lport = FIELD_GET(E810_QPC_SRCPORTNUM, sizes);
    o->rport = FIELD_GET(E810_QPC_DESTPORTNUM, sizes);
    o->rip[0] = d01 >> 32;
    o->rip[1] = (uint32_t)d01;
    o->rip[2] = d23 >> 32;
    o->rip[3] = (uint32_t)d23;
    o->lip[0] = l01 >> 32;
    o->lip[1] = (uint32_t)l01;
    o->lip[2] = l23 >> 32;
    o->lip[3] = (uint32_t)l23;
    if (o->ipv4) {
        o->rip[0] = o->rip[1] = o->rip[2] = 0;
        o->lip[0] = o->lip[1] = o->lip[2] = 0;
    }
    o->mss = FIELD_GET(E810_QPC_SNDMSS, mss);
    o->snd_scale = FIELD_GET(GENMASK_ULL(43, 40), scale);
    o->rcv_scale = FIELD_GET(GENMASK_ULL(35, 32), scale);
    o->snd_nxt = (uint32_t)ctx(qp, 80);
    o->snd_wnd = ctx(qp, 80) >> 32;
    o->rcv_nxt = (uint32_t)ctx(qp, 88);
    o->rcv_wnd = ctx(qp, 88) >> 32;
    o->snd_max = (uint32_t)ctx(qp, 96);
    o->snd_una = ctx(qp, 96) >> 32;
    o->ssthresh = (uint32_t)ctx(qp, 112);
    o->cwnd = ctx(qp, 112) >> 32;
    o->max_snd_wnd = (uint32_t)ctx(qp, 128);
    o->rexmit_thresh = FIELD_GET(E810_QPC_REXMIT_THRESH, ctx(qp, 128));
    o->rtomin = FIELD_GET(E810_QPC_RTOMIN, ctx(qp, 128));
    o->q2_pa = ctx(qp, 144) & ~0xffull;
    o->ord = FIELD_GET(E810_QPC_ORDSIZE, flags);
    o->ird = ird_of[FIELD_GET(E810_QPC_IRDSIZE, flags)];
    o->snd_markers = flags & BIT_ULL(22);
    o->rcv_no_crc = flags & BIT_ULL(31);
    if (core->gen->gen == E810_GEN_1) {
        /* GEN_1: a local MAC table index, not a MAC (e810_gen.h) */
        unsigned idx = FIELD_GET(E810_GEN1_QPC_SRCMACADDRIDX, sizes);

        if (idx >= E810_LOC_MAC_TABLE_SIZE ||
            !(core->rdma.loc_mac_used & (1ull << idx))) {
            e810_core_log(core, E810_LOG_GUEST_ERROR, "iWARP QP %u: source "
                          "MAC index %u is no local MAC table entry",
                          (unsigned)(qp - core->rdma.qp), idx);
            return false;
        }
        memcpy(o->smac, core->rdma.loc_mac[idx], 6);
    } else if (smac) {
        e810_mac_from_u64(o->smac, smac);
    } else {
        memcpy(o->smac, core->mac, 6);
    }
    if (!core->rdma.arp || arp >= e810_hmc_count(core, E810_HMC_ARP) ||
        !core->rdma.arp[arp].valid) {
        e810_core_log(core, E810_LOG_GUEST_ERROR, "iWARP QP %u: ARP index "
                      "%u is no valid entry", (unsigned)(qp - core->rdma.qp),
                      arp);
        return false;
    }
    memcpy(o->dmac, core->rdma.arp[arp].mac, 6);
    if (!o->lport || !o->rport || o->mss < 64 || o->mss > E810_IW_MAX_MSS ||
        o->snd_scale > 14 || o->rcv_scale > 14 || o->snd_markers) {
        e810_core_log(core, E810_LOG_GUEST_ERROR, "iWARP QP %u: context "
                      "not offloadable (ports %u/%u, MSS %u, scale %u/%u%s)",
                      (unsigned)(qp - core->rdma.qp), o->lport, o->rport,
                      o->mss, o->snd_scale, o->rcv_scale,
                      o->snd_markers ? ", markers" : "");
        return false;
    }
    return true;
}

static bool same_tuple(const E810IwOffload *a, const E810IwOffload *b)
{
    return a->ipv4 == b->ipv4 && a->lport == b->lport &&
           a->rport == b->rport && !memcmp(a->lip, b->lip, sizeof(a->lip)) &&
           !memcmp(a->rip, b->rip, sizeof(a->rip));
}

static void offload(E810Core *core, E810Qp *qp)
{
    uint32_t id = qp - core->rdma.qp;
    E810Iw *iw = e810_iw_get(core);
    E810IwOffload o;
    E810IwConn *c, *old;

    if (!iw || !e810_iw_parse_ctx(core, qp, &o)) {
        return;
    }
    if (id >= iw->nqp) {
        uint32_t n = e810_hmc_count(core, E810_HMC_QP);
        E810IwConn **t;

        if (id >= n) {
            return;
        }
        t = realloc(iw->by_qp, n * sizeof(*t));
        if (!t) {
            return;
        }
        memset(t + iw->nqp, 0, (n - iw->nqp) * sizeof(*t));
        iw->by_qp = t;
        iw->nqp = n;
    }
    /* A second offload of the id, or a stale owner of the 4-tuple. */
    e810_iw_conn_destroy(core, id);
    for (old = iw->list; old; old = old->next) {
        if (same_tuple(&old->o, &o)) {
            e810_iw_conn_destroy(core, old->qp_id);
            break;
        }
    }
    c = conn_alloc(iw);
    if (!c) {
        e810_core_log(core, E810_LOG_GUEST_ERROR, "iWARP QP %u: no memory "
                      "for the connection", id);
        return;
    }
    c->qp_id = id;
    c->o = o;
    /*
     * irdma_init_tcp_ctx() sets SNDNXT = SNDMAX = SNDUNA: nothing of the
     * stream is unacknowledged at the hand-off (the CM's frames were
     * acknowledged or die with it), so the engine starts at SNDNXT.
     */
    c->snd_una = c->snd_nxt = c->snd_max = o.snd_nxt;
    c->snd_wnd = o.snd_wnd;
    c->cwnd = o.cwnd ? o.cwnd : 2u * o.mss;
    c->ssthresh = o.ssthresh ? o.ssthresh : 0x3fffffff;
    c->rcv_nxt = o.rcv_nxt;
    c->rto_ns = E810_IW_RTO_INIT_NS;
    c->tx_msn[E810_QN_SEND] = c->tx_msn[E810_QN_READ] =
        c->tx_msn[E810_QN_TERM] = 1;
    c->rx_msn[E810_QN_SEND] = c->rx_msn[E810_QN_READ] =
        c->rx_msn[E810_QN_TERM] = 1;
    c->next = iw->list;
    iw->list = c;
    iw->by_qp[id] = c;
    iw->stats.offloads++;
    e810_iw_set_tcp_state(core, c, E810_TCP_ESTABLISHED);
}

/* ---- MODIFY_QP ----------------------------------------------------------- */

static void start_close(E810Core *core, E810IwConn *c)
{
    if (c->fin_pending || c->rst_sent) {
        return;
    }
    if (c->failed || c->term_rcvd) {
        /* The stream stopped: what the SQ had left is never framed. */
        e810_iw_tx_abandon(c);
    }
    switch (c->tcp_state) {
    case E810_TCP_ESTABLISHED:
        c->fin_pending = true;
        e810_iw_set_tcp_state(core, c, E810_TCP_FIN_WAIT_1);
        break;
    case E810_TCP_CLOSE_WAIT:
        c->fin_pending = true;
        e810_iw_set_tcp_state(core, c, E810_TCP_LAST_ACK);
        break;
    default:
        return;
    }
    e810_iw_tcp_output(core, c);
}

void e810_iw_conn_modify(E810Core *core, E810Qp *qp, unsigned next,
                         uint64_t hdr, uint64_t qw1)
{
    uint32_t id = qp - core->rdma.qp;
    E810IwConn *c;

    if (next == E810_QP_STATE_RTS && (hdr & E810_CQPSQ_QP_TOECTXVALID) &&
        qp->state != E810_QP_STATE_RTS) {
        offload(core, qp);
        return;
    }
    c = e810_iw_conn_of(core, id);
    if (!c) {
        return;
    }
    e810_iw_enter(core);
    if (hdr & E810_CQPSQ_QP_RESETCON) {
        e810_iw_tcp_send_rst(core, c);
    } else if (next == E810_QP_STATE_SQD) {
        start_close(core, c);
    } else if (next == E810_QP_STATE_TERMINATE) {
        unsigned act = FIELD_GET(E810_CQPSQ_QP_TERMACT, hdr);

        /*
         * 0 Terminate and FIN, 1 Terminate only, 2 FIN only, 3 neither.
         * The SQ work still held is abandoned (the driver flushes it).
         */
        e810_iw_tx_abandon(c);
        if ((act == 0 || act == 1) && !c->term_sent) {
            uint8_t th[E810_TERM_MAX_LEN] = { 0 };

            /*
             * The driver's Terminate header is at Q2 + 0
             * (irdma_bld_terminate_hdr()); TERMLEN is 4 bits wide and
             * cannot hold its length, the hdrct bits in it can.
             */
            e810_core_dma_read(core, c->o.q2_pa, th, sizeof(th));
            e810_iw_send_terminate(core, c, th, sizeof(th));
            if (act == 1) {
                /* The driver answers with TERMINATE again, FIN only. */
                e810_iw_ae(core, c, E810_AE_TERMINATE_SENT);
            }
        }
        if (act == 0 || act == 2) {
            start_close(core, c);
        }
    }
    e810_iw_exit(core);
}

/*
 * The driver's view of the QP state lags the device's: the device moves an
 * iWARP QP to ERROR on its own (a fatal AE: a bad STag, a CRC error, the
 * retry limit) and FLUSH_WQES does too, while upstream irdma still holds
 * it in RTS and answers AE 0x0503 (FIN received) with CLOSING
 * (irdma_next_iw_state()), an error AE with TERMINATE
 * (irdma_terminate_connection()) and rdma_disconnect() with CLOSING
 * (irdma_modify_qp(), IB_QPS_SQD). The device answers those with "Invalid
 * State" (major 0xFFFF, minor 0x8002, which irdma_noncrit_err_list names
 * as a non-critical CQP error) and irdma_hw_modify_qp() expects it: a
 * failed CLOSING or TERMINATE marks the terminate done and moves the QP
 * to ERROR with RESETCON instead. So the request is refused like any bad
 * transition, but counted here (late_closes) and not as a driver fault.
 */
bool e810_iw_conn_refuse_late_close(E810Core *core, const E810Qp *qp,
                                    unsigned next)
{
    E810Iw *iw = e810_iw_get(core);

    if (qp->state != E810_QP_STATE_ERROR ||
        (next != E810_QP_STATE_SQD && next != E810_QP_STATE_TERMINATE)) {
        return false;
    }
    if (iw) {
        iw->stats.late_closes++;
    }
    return true;
}

/* ---- SQ ------------------------------------------------------------------ */

bool e810_iw_conn_send(E810Core *core, E810Qp *qp, const E810SendWqe *wqe)
{
    E810IwConn *c = e810_iw_conn_of(core, wqe->qp_id);
    E810IwTx *t;
    bool read = wqe->opcode == E810_OP_RDMA_READ ||
                wqe->opcode == E810_OP_RDMA_READ_LOC_INV;

    if (c && (c->failed || c->term_sent || c->term_rcvd)) {
        /*
         * The stream stopped on an error (either side's) and the driver
         * is terminating the connection: the WQE waits in the SQ for the
         * driver's FLUSH_WQES, as the silicon processes no new work then.
         */
        return false;
    }
    if (!c || c->rst_sent ||
        (c->tcp_state != E810_TCP_ESTABLISHED &&
         c->tcp_state != E810_TCP_CLOSE_WAIT)) {
        /* No connection to carry it: as a WQE the hardware cannot run. */
        e810_dp_complete_sq(core, qp, wqe, E810_AE_LLP_CONNECTION_RESET, 0);
        return true;
    }
    if (wqe->imm_valid && wqe->opcode != E810_OP_RDMA_WRITE &&
        wqe->opcode != E810_OP_RDMA_WRITE_SOL) {
        /*
         * iWARP has no Send with immediate (upstream irdma_create_qp()
         * gives iWARP QPs IRDMA_WRITE_WITH_IMM only; set_ib_wc_op_rq()
         * reads an immediate on iWARP as an RDMA WRITE's): refused, not
         * sent without it.
         */
        e810_core_log(core, E810_LOG_GUEST_ERROR, "iWARP QP %u: SQ opcode "
                      "%#x with immediate data", wqe->qp_id, wqe->opcode);
        e810_dp_complete_sq(core, qp, wqe, E810_AE_WQE_UNEXPECTED_OPCODE, 0);
        return true;
    }
    if (c->txq_count >= E810_IW_TXQ) {
        return false;
    }
    if (read) {
        if (!c->o.ord) {
            e810_dp_complete_sq(core, qp, wqe,
                                E810_AE_RDMA_READ_WHILE_ORD_ZERO, 0);
            return true;
        }
        if (c->ord_out >= c->o.ord) {
            return false;       /* kicked when a READ completes */
        }
    }
    t = &c->txq[(c->txq_head + c->txq_count++) % E810_IW_TXQ];
    memset(t, 0, sizeof(*t));
    t->w = *wqe;
    t->is_read = read;
    t->stream = wqe->hdr & E810_WQE_STREAMMODE;
    t->wait_pdu = wqe->hdr & E810_WQE_WAITFORRCVPDU;
    if (read) {
        c->ord_out++;
    }
    e810_iw_enter(core);
    e810_iw_frame_more(core, c);
    e810_iw_tcp_output(core, c);
    e810_iw_exit(core);
    return true;
}

bool e810_iw_conn_sq_local(E810Core *core, E810Qp *qp,
                           const E810SendWqe *wqe)
{
    E810IwConn *c = e810_iw_conn_of(core, wqe->qp_id);

    if (wqe->opcode != E810_IW_OP_GEN_RTS_AE) {
        return false;
    }
    if (c) {
        c->rts_ae_wait = true;
        e810_iw_ae(core, c, E810_AE_LLP_CONNECTION_ESTABLISHED);
    }
    return true;
}

/* ---- receive ------------------------------------------------------------- */

/*
 * Adds the 16-bit big-endian words of @p (from an even offset of the
 * summed data) to @sum. Summed in host order 8 bytes at a time and
 * swapped once at the end: the one's complement sum does not depend on
 * the byte order (RFC 1071 2.B).
 */
static uint32_t csum_add(uint32_t sum, const uint8_t *p, size_t len)
{
    uint64_t s = 0;
    uint16_t h;

    while (len >= 8) {
        uint64_t v;

        memcpy(&v, p, 8);
        s += (v & 0xffffffffu) + (v >> 32);
        p += 8;
        len -= 8;
    }
    if (len >= 4) {
        uint32_t v;

        memcpy(&v, p, 4);
        s += v;
        p += 4;
        len -= 4;
    }
    if (len >= 2) {
        uint16_t v;

        memcpy(&v, p, 2);
        s += v;
        p += 2;
        len -= 2;
    }
    if (len) {
        uint8_t last[2] = { *p, 0 };

        memcpy(&h, last, 2);
        s += h;
    }
    while (s >> 16) {
        s = (s & 0xffff) + (s >> 16);
    }
    h = (uint16_t)s;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    h = (uint16_t)(h << 8 | h >> 8);
#endif
    return sum + h;
}

static uint16_t csum_fold(uint32_t sum)
{
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return (uint16_t)~sum;
}

/* Internet checksum of the TCP segment with its pseudo-header. */
uint16_t e810_iw_tcp_csum(bool ipv4, const uint8_t *src, const uint8_t *dst,
                          const uint8_t *seg, uint32_t len)
{
    uint32_t sum = 0;
    size_t alen = ipv4 ? 4 : 16;

    sum = csum_add(sum, src, alen);
    sum = csum_add(sum, dst, alen);
    sum += 6 + (len >> 16) + (len & 0xffff);
    sum = csum_add(sum, seg, len);
    return csum_fold(sum);
}

uint16_t e810_iw_ip_csum(const uint8_t *hdr, uint32_t len)
{
    return csum_fold(csum_add(0, hdr, len));
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
           (uint32_t)p[2] << 8 | p[3];
}

/* Parses and, if ours, takes one frame. */
static bool rx_frame(E810Core *core, const uint8_t *f, size_t len,
                     bool deferred)
{
    E810Iw *iw = core->iw;
    size_t off = 14, l3len;
    uint16_t et;
    const uint8_t *ip, *tcp, *sa, *da;
    uint32_t sip[4] = { 0 }, dip[4] = { 0 }, tlen, hl;
    uint16_t sport, dport;
    bool ipv4;
    E810IwConn *c;
    unsigned i;

    if (!iw || !iw->list || len < 14) {
        return false;
    }
    et = f[12] << 8 | f[13];
    if (et == 0x8100) {
        if (len < 18) {
            return false;
        }
        et = f[16] << 8 | f[17];
        off = 18;
    }
    ip = f + off;
    l3len = len - off;
    if (et == 0x0800) {
        unsigned ihl, tot;

        if (l3len < 20 || (ip[0] >> 4) != 4 || ip[9] != 6) {
            return false;
        }
        ihl = (ip[0] & 15) * 4;
        tot = ip[2] << 8 | ip[3];
        if (ihl < 20 || tot < ihl || tot > l3len ||
            ((ip[6] & 0x3f) | ip[7])) {
            return false;       /* malformed or a fragment: not ours */
        }
        ipv4 = true;
        sa = ip + 12;
        da = ip + 16;
        sip[3] = be32(sa);
        dip[3] = be32(da);
        tcp = ip + ihl;
        tlen = tot - ihl;
        hl = ihl;
    } else if (et == 0x86dd) {
        unsigned pl;

        if (l3len < 40 || (ip[0] >> 4) != 6 || ip[6] != 6) {
            return false;
        }
        pl = ip[4] << 8 | ip[5];
        if (pl > l3len - 40) {
            return false;
        }
        ipv4 = false;
        sa = ip + 8;
        da = ip + 24;
        for (i = 0; i < 4; i++) {
            sip[i] = be32(sa + 4 * i);
            dip[i] = be32(da + 4 * i);
        }
        tcp = ip + 40;
        tlen = pl;
        hl = 40;
    } else {
        return false;
    }
    if (tlen < 20) {
        return false;
    }
    sport = tcp[0] << 8 | tcp[1];
    dport = tcp[2] << 8 | tcp[3];
    for (c = iw->list; c; c = c->next) {
        if (c->o.ipv4 == ipv4 && c->o.lport == dport &&
            c->o.rport == sport && !memcmp(c->o.lip, dip, sizeof(dip)) &&
            !memcmp(c->o.rip, sip, sizeof(sip))) {
            break;
        }
    }
    if (!c) {
        iw->stats.rx_not_ours++;
        return false;
    }
    if (iw->depth && !deferred) {
        E810IwDefer *d;

        if (iw->defer_bytes + len > E810_IW_DEFER_MAX ||
            !(d = malloc(sizeof(*d) + len))) {
            iw->stats.defer_drops++;
            return true;        /* lost: TCP recovers */
        }
        d->next = NULL;
        d->len = len;
        memcpy(d->data, f, len);
        if (iw->defer_tail) {
            iw->defer_tail->next = d;
        } else {
            iw->defer_head = d;
        }
        iw->defer_tail = d;
        iw->defer_bytes += len;
        iw->stats.deferred++;
        return true;
    }
    {
        unsigned doff = (tcp[12] >> 4) * 4;

        if ((ipv4 && e810_iw_ip_csum(ip, hl)) ||
            e810_iw_tcp_csum(ipv4, sa, da, tcp, tlen)) {
            iw->stats.rx_bad_csum++;
            return true;
        }
        if (doff < 20 || doff > tlen) {
            iw->stats.rx_short++;
            return true;
        }
        e810_iw_enter(core);
        e810_iw_tcp_input(core, c, be32(tcp + 4), be32(tcp + 8),
                          tcp[13], tcp[14] << 8 | tcp[15], tcp + doff,
                          tlen - doff);
        e810_iw_exit(core);
    }
    return true;
}

bool e810_iw_conn_owns(E810Core *core, bool ipv4, const uint32_t lip[4],
                       uint16_t lport, const uint32_t rip[4], uint16_t rport)
{
    E810Iw *iw = core->iw;
    const E810IwConn *c;
    unsigned from = ipv4 ? 3 : 0, i;

    for (c = iw ? iw->list : NULL; c; c = c->next) {
        if (c->o.ipv4 != ipv4 || c->o.lport != lport || c->o.rport != rport) {
            continue;
        }
        for (i = from; i < 4; i++) {
            if (c->o.lip[i] != lip[i] || c->o.rip[i] != rip[i]) {
                break;
            }
        }
        if (i == 4) {
            return true;
        }
    }
    return false;
}

bool e810_iw_conn_rx(E810Core *core, const uint8_t *frame, size_t len)
{
    return rx_frame(core, frame, len, false);
}

void e810_iw_enter(E810Core *core)
{
    core->iw->depth++;
}

void e810_iw_exit(E810Core *core)
{
    E810Iw *iw = core->iw;
    unsigned n = 0;

    if (iw->depth > 1) {
        iw->depth--;
        return;
    }
    /*
     * Outermost: the frames that came in meanwhile (our own loopback, a
     * synchronous peer's answers). Each may make more; a bound keeps one
     * call from running forever on a ping-pong through a fast peer.
     */
    while (iw->defer_head && n++ < 4096) {
        E810IwDefer *d = iw->defer_head;

        iw->defer_head = d->next;
        if (!iw->defer_head) {
            iw->defer_tail = NULL;
        }
        iw->defer_bytes -= d->len;
        rx_frame(core, d->data, d->len, true);
        free(d);
    }
    if (iw->defer_head) {
        drop_defer(iw);
        iw->stats.defer_drops++;
    }
    iw->depth = 0;
}

/*
 * Frames to our own MAC: those of our offloaded connections come back
 * through the deferred queue; any other one takes the receive path a
 * frame from the wire takes (the LAN MAC checks, then e810_iw_steer()):
 * the peer of an offloaded QP on this port may still be in the driver's
 * CM, waiting on the ILQ for the MPA reply the LSMM carries.
 */
void e810_iw_loop(E810Core *core, const uint8_t *frame, size_t len)
{
    E810Iw *iw = core->iw;
    bool ours;

    iw->depth++;
    ours = rx_frame(core, frame, len, false);
    iw->depth--;
    if (!ours) {
        e810_lan_receive(core, frame, len);
    }
}

int e810_iw_format_conns(E810Core *core, char *buf, size_t len)
{
    const E810IwConn *c;
    size_t n = 0;
    int r;

    if (len) {
        buf[0] = '\0';
    }
    for (c = core->iw ? core->iw->list : NULL; c; c = c->next) {
        r = snprintf(n < len ? buf + n : NULL, n < len ? len - n : 0,
                     "%sqp=%u lport=%u rport=%u tcp=%u unacked=%u unsent=%u "
                     "txq=%u rdq=%u ord_out=%u fin=%s fin_rcvd=%d "
                     "rst_sent=%d term=%s failed=%d", n ? "; " : "",
                     c->qp_id, c->o.lport, c->o.rport, c->tcp_state,
                     c->snd_nxt - c->snd_una,
                     c->tx_len - (c->snd_nxt - c->snd_una), c->txq_count,
                     c->rdq_count, c->ord_out,
                     c->fin_sent ? "sent" : c->fin_pending ? "pending" :
                     "none", c->fin_rcvd, c->rst_sent,
                     c->term_sent ? "sent" : c->term_rcvd ? "rcvd" : "none",
                     c->failed);
        if (r < 0) {
            return -1;
        }
        n += r;
    }
    return n;
}

int e810_iw_format_stats(E810Core *core, char *buf, size_t len)
{
    static const E810IwConnStats zero;
    const E810IwConnStats *s = core->iw ? &core->iw->stats : &zero;
    const E810IwConn *c;
    unsigned conns = 0;

    for (c = core->iw ? core->iw->list : NULL; c; c = c->next) {
        conns++;
    }
    return snprintf(buf, len,
                    "conns=%u offloads=%" PRIu64 " tx_segs=%" PRIu64
                    " tx_bytes=%" PRIu64 " tx_acks=%" PRIu64
                    " tx_rst=%" PRIu64 " tx_fin=%" PRIu64
                    " tx_dropped_injected=%" PRIu64
                    " retransmits=%" PRIu64 " timeouts=%" PRIu64
                    " fast_retransmits=%" PRIu64 " probes=%" PRIu64
                    " rtt_samples=%" PRIu64
                    " rx_segs=%" PRIu64
                    " rx_bytes=%" PRIu64 " rx_bad_csum=%" PRIu64
                    " rx_short=%" PRIu64
                    " rx_ooo=%" PRIu64 " rx_dup=%" PRIu64
                    " rx_rst=%" PRIu64 " rx_fin=%" PRIu64
                    " rx_syn=%" PRIu64 " rx_no_ack=%" PRIu64
                    " rx_not_ours=%" PRIu64
                    " fpdus_rx=%" PRIu64 " fpdus_tx=%" PRIu64
                    " crc_errors=%" PRIu64 " terms_sent=%" PRIu64
                    " terms_rcvd=%" PRIu64 " deferred=%" PRIu64
                    " defer_drops=%" PRIu64 " read_reqs=%" PRIu64
                    " read_resps=%" PRIu64 " late_closes=%" PRIu64
                    " stream_errors=%" PRIu64 " imm_tx=%" PRIu64
                    " imm_rx=%" PRIu64 " drop_ppm=%" PRIu32,
                    conns, s->offloads, s->tx_segs, s->tx_bytes, s->tx_acks,
                    s->tx_rst, s->tx_fin, s->tx_dropped_injected,
                    s->retransmits, s->timeouts,
                    s->fast_retransmits, s->probes, s->rtt_samples,
                    s->rx_segs, s->rx_bytes,
                    s->rx_bad_csum, s->rx_short, s->rx_ooo, s->rx_dup,
                    s->rx_rst, s->rx_fin, s->rx_syn, s->rx_no_ack,
                    s->rx_not_ours, s->fpdus_rx, s->fpdus_tx, s->crc_errors,
                    s->terms_sent, s->terms_rcvd, s->deferred,
                    s->defer_drops, s->read_reqs, s->read_resps,
                    s->late_closes, s->stream_errors, s->imm_tx, s->imm_rx,
                    e810_core_iwarp_drop_ppm(core));
}
