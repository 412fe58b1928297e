/*
 * Emulated E810: RoCEv2 RC transport.
 *
 * Requester: every WQE gets a PSN range when it is accepted (one PSN per
 * MTU-sized packet; a READ reserves one per response packet). Packets go
 * out while fewer than E810_XPORT_WINDOW PSNs are unacknowledged; the last
 * packet of a message (and every E810_XPORT_ACKREQ_EVERY-th) asks for an
 * ACK. Recovery is go-back-N from the first PSN not known delivered: on a
 * PSN sequence NAK at once, on the retransmission timer (QP context RTOMIN,
 * retried REXMIT_THRESH times), after an RNR NAK's delay (RNRNAK_THRESH
 * times, 7 = forever; counted retries back off, rnr_wait_ns()). A
 * partially answered READ is asked again for the rest only. WQEs complete
 * in PSN order when acknowledged (a READ when its last response arrived).
 *
 * Responder: accepts only the expected PSN. Older PSNs are duplicates (a
 * READ is executed again, anything else re-acknowledged if it asks);
 * newer ones are dropped with one sequence NAK per gap. ACKs are sent only
 * when a packet asks for one, which coalesces the others. Errors NAK the
 * requester (remote access, invalid request, remote operational) and move
 * the responder QP to ERROR, as IB class C/J errors do.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "e810_core.h"
#include "e810_xport.h"

/* IB AETH RNR timer encoding (5 bits) to microseconds x 100. */
static const uint32_t rnr_timer_10us[32] = {
    65536, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192,
    256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288,
    16384, 24576, 32768, 49152,
};

/*
 * The wait after the @n-th RNR NAK in a row for one message (@n 0 when
 * RNRNAK_THRESH is 7 and nothing counts): the NAK's timer @t10us,
 * quadrupled for each earlier one, at most IB's longest timer (655.36
 * ms). IB sets only the least wait (a requester waits at least the
 * timer). The timer is the device's own (E810_XPORT_RNR_TIMER, 1.28 ms;
 * the GEN_2 context has no minimum RNR timer) and runs on the host's
 * clock, while a TCG guest runs far slower than a host CPU: a guest that
 * posts the receive 10 ms after answering (a vCPU the host did not run)
 * used up rdma_cm's RNR retry count of 5 (pyverbs' ConnParam) in 8 ms.
 * Backed off, five retries span about 0.44 s; an unlimited count
 * (perftest) keeps the plain timer.
 */
static uint64_t rnr_wait_ns(uint32_t t10us, unsigned n)
{
    uint64_t t = (uint64_t)t10us * 10000;

    while (n-- > 1 && t < E810_XPORT_RNR_WAIT_MAX_NS) {
        t <<= 2;
    }
    return t < E810_XPORT_RNR_WAIT_MAX_NS ? t : E810_XPORT_RNR_WAIT_MAX_NS;
}

static E810XWqe *wq_at(E810XQp *x, uint32_t i)
{
    return &x->wq[(x->wq_head + i) % E810_XPORT_MAX_INFLIGHT];
}

/*
 * Retransmission timeout. RTOMIN is only the floor: a peer that answers
 * slower than that (a software RoCE stack in a busy guest takes tens of
 * ms) would otherwise get the whole window again every RTOMIN and drown
 * in duplicates until the retry count runs out. So, as TCP does (RFC
 * 6298), the requester times one ACK-requesting packet at a time, never
 * a retransmitted one, keeps a smoothed RTT and its variance, and waits
 * srtt + 4 * rttvar; each expiry in a row doubles that until a new
 * sample arrives. Against a fast peer this stays at RTOMIN.
 */
static uint64_t rto_ns(E810Qp *qp, E810XQp *x)
{
    uint64_t rto = FIELD_GET(E810_QPC_RTOMIN,
                             e810_qpc(qp, E810_QPC_RETRY_OFF));

    rto = (rto ? rto : 1) * E810_XPORT_RTO_UNIT_NS;
    if (x->srtt_ns && x->srtt_ns + 4 * x->rttvar_ns > rto) {
        rto = x->srtt_ns + 4 * x->rttvar_ns;
    }
    rto <<= x->backoff < 10 ? x->backoff : 10;
    return rto < E810_XPORT_RTO_MAX_NS ? rto : E810_XPORT_RTO_MAX_NS;
}

/*
 * Window after a timeout: go-back-N resends everything from the first
 * unacknowledged PSN, and against a slow peer that doubles its backlog
 * on each expiry. As TCP does, the window drops to E810_XPORT_CWND_MIN
 * PSNs at a timeout and grows again with the ACKs: by one PSN per PSN
 * acknowledged up to half the window that was in flight, then by about
 * one per window, never beyond E810_XPORT_WINDOW.
 */
static void cwnd_timeout(E810XQp *x)
{
    uint32_t flight = (uint32_t)e810_psn_diff(x->send_psn, x->acked_psn);

    x->ssthresh = flight / 2 > E810_XPORT_CWND_MIN ? flight / 2 :
                  E810_XPORT_CWND_MIN;
    x->cwnd = E810_XPORT_CWND_MIN;
    x->cwnd_acc = 0;
}

static void cwnd_acked(E810XQp *x, uint32_t n)
{
    if (x->cwnd < x->ssthresh) {
        x->cwnd += n;
    } else {
        x->cwnd_acc += n;
        if (x->cwnd_acc >= x->cwnd) {
            x->cwnd_acc -= x->cwnd;
            x->cwnd++;
        }
    }
    if (x->cwnd > E810_XPORT_WINDOW) {
        x->cwnd = E810_XPORT_WINDOW;
    }
}

/* Starts timing packet @psn if nothing is timed and it is sent first. */
static void rtt_start(E810Core *core, E810XQp *x, uint32_t psn)
{
    if (!x->rtt_timing && e810_psn_diff(psn, x->high_psn) >= 0) {
        x->rtt_timing = true;
        x->rtt_psn = psn;
        x->rtt_start = e810_xport_now(core);
    }
}

/* Everything up to @psn is delivered: ends the timing if it covers it. */
static void rtt_ack(E810Core *core, E810XQp *x, uint32_t psn)
{
    uint64_t now = e810_xport_now(core), r, d;

    if (!x->rtt_timing || e810_psn_diff(psn, x->rtt_psn) < 0) {
        return;
    }
    x->rtt_timing = false;
    r = now > x->rtt_start ? now - x->rtt_start : 0;
    if (!x->srtt_ns) {
        x->srtt_ns = r ? r : 1;
        x->rttvar_ns = r / 2;
    } else {
        d = r > x->srtt_ns ? r - x->srtt_ns : x->srtt_ns - r;
        x->rttvar_ns = (3 * x->rttvar_ns + d) / 4;
        x->srtt_ns = (7 * x->srtt_ns + r) / 8;
        if (!x->srtt_ns) {
            x->srtt_ns = 1;
        }
    }
    x->backoff = 0;
}

static void req_init(E810Qp *qp, E810XQp *x)
{
    uint32_t psn;

    if (x->req_init) {
        return;
    }
    psn = FIELD_GET(E810_QPC_PSNNXT, e810_qpc(qp, E810_QPC_PSN_OFF));
    x->next_psn = x->send_psn = x->high_psn = psn;
    x->acked_psn = e810_psn_add(psn, E810_BTH_PSN_MASK);    /* psn - 1 */
    x->mtu = e810_xport_mtu(qp);
    x->cwnd = x->ssthresh = E810_XPORT_WINDOW;
    x->req_init = true;
}

static void resp_init(E810Qp *qp, E810XQp *x)
{
    if (x->resp_init) {
        return;
    }
    x->epsn = FIELD_GET(E810_QPC_EPSN, e810_qpc(qp, E810_QPC_EPSN_OFF));
    x->resp_init = true;
}

static bool outstanding(E810XQp *x)
{
    return x->wq_count != 0;
}

static void restart_timer(E810Core *core, E810Qp *qp, E810XQp *x)
{
    e810_xport_set_deadline(core, x, outstanding(x) ?
                            e810_xport_now(core) + rto_ns(qp, x) : 0);
}

/*
 * Completes @e with AE @ae: the queue layer raises it, moves the QP to
 * ERROR and flushes, which resets our state (@x is dead afterwards).
 */
static void fail_wqe(E810Core *core, E810Qp *qp, E810XWqe *e, uint16_t ae)
{
    E810SendWqe w = e->w;

    e810_dp_complete_sq(core, qp, &w, ae, 0);
}

/* ---- requester: transmit -------------------------------------------------- */

static uint8_t send_opcode(const E810SendWqe *w, bool first, bool last)
{
    bool imm = w->imm_valid;
    bool inv = w->opcode == E810_OP_SEND_INV ||
               w->opcode == E810_OP_SEND_SOL_INV;
    bool write = w->opcode == E810_OP_RDMA_WRITE ||
                 w->opcode == E810_OP_RDMA_WRITE_SOL;

    if (write) {
        if (first && last) {
            return imm ? E810_BTH_RC_WRITE_ONLY_IMM : E810_BTH_RC_WRITE_ONLY;
        }
        if (first) {
            return E810_BTH_RC_WRITE_FIRST;
        }
        if (last) {
            return imm ? E810_BTH_RC_WRITE_LAST_IMM : E810_BTH_RC_WRITE_LAST;
        }
        return E810_BTH_RC_WRITE_MIDDLE;
    }
    if (first && last) {
        return inv ? E810_BTH_RC_SEND_ONLY_INV :
               imm ? E810_BTH_RC_SEND_ONLY_IMM : E810_BTH_RC_SEND_ONLY;
    }
    if (first) {
        return E810_BTH_RC_SEND_FIRST;
    }
    if (last) {
        return inv ? E810_BTH_RC_SEND_LAST_INV :
               imm ? E810_BTH_RC_SEND_LAST_IMM : E810_BTH_RC_SEND_LAST;
    }
    return E810_BTH_RC_SEND_MIDDLE;
}

static void count_tx(E810Core *core, E810Qp *qp, E810XQp *x, uint32_t psn,
                     uint8_t opcode)
{
    if (e810_psn_diff(psn, x->high_psn) < 0) {
        core->xport->stats.retransmits++;
    } else {
        x->high_psn = e810_psn_add(psn, 1);
        e810_rdma_stat_tx_msg(core, qp, opcode);
    }
}

/*
 * The headers every packet of @qp starts from (e810_xport_rc_headers()),
 * built once per burst: nothing can change the QP context, the ARP table
 * or the MACs while the transport sends (frames that arrive meanwhile
 * only queue, e810_xport_receive()), so each packet copies them instead
 * of decoding the context again.
 */
static const E810RocePkt *burst_headers(E810Core *core, E810Qp *qp,
                                        E810RocePkt *hdr, bool *built)
{
    if (!*built) {
        memset(hdr, 0, sizeof(*hdr));
        e810_xport_rc_headers(core, qp, hdr);
        *built = true;
    }
    return hdr;
}

/*
 * Packet @k of a SEND or WRITE, from the QP's headers @hdr; false if the
 * WQE failed (QP now dead).
 */
static bool send_data_pkt(E810Core *core, E810Qp *qp, E810XQp *x,
                          E810XWqe *e, uint32_t k, const E810RocePkt *hdr)
{
    const E810SendWqe *w = &e->w;
    uint8_t *frame = core->xport->frame;
    uint64_t off = (uint64_t)k * x->mtu;
    uint32_t len = w->total_len - off < x->mtu ? w->total_len - off : x->mtu;
    bool first = k == 0, last = k + 1 == e->npkts;
    E810RocePkt p = *hdr;
    E810DmaMap map;
    uint16_t status = 0;
    bool mapped;

    p.opcode = send_opcode(w, first, last);
    p.psn = e810_psn_add(e->first_psn, k);
    /*
     * The last packet the window lets out asks too: after a timeout the
     * window is smaller than a message, and a resend that never asks
     * would never be acknowledged (the retries would run out although
     * the responder has everything).
     */
    p.ackreq = last || k % E810_XPORT_ACKREQ_EVERY ==
               E810_XPORT_ACKREQ_EVERY - 1 ||
               e810_psn_diff(p.psn, x->acked_psn) >= (int32_t)x->cwnd;
    p.se = last && w->solicited;
    p.va = w->remote_va;
    p.rkey = w->rkey;
    p.dma_len = w->total_len;
    p.imm = w->imm;
    p.ieth = w->inv_stag;
    /* To ourselves: the payload stays where it is until it is received. */
    mapped = len && e810_xport_local(core, &p) &&
             e810_dp_gather_map(core, qp, w, off, len, &map, &status);
    if (len && !mapped &&
        (status || !e810_dp_gather(core, qp, w, off,
                                   frame + e810_roce_hdr_len(&p), len,
                                   &status))) {
        fail_wqe(core, qp, e, status);
        return false;
    }
    if (p.ackreq) {
        rtt_start(core, x, p.psn);
    }
    count_tx(core, qp, x, p.psn, p.opcode);
    if (mapped) {
        e810_xport_tx_mapped(core, qp, &p, frame, &map, len);
    } else {
        e810_xport_tx(core, qp, &p, frame, len);
    }
    return true;
}

/* A READ request for what is still missing from packet @k on. */
static void send_read_req(E810Core *core, E810Qp *qp, E810XQp *x,
                          E810XWqe *e, uint32_t k, const E810RocePkt *hdr)
{
    uint64_t off = (uint64_t)k * x->mtu;
    E810RocePkt p = *hdr;

    p.opcode = E810_BTH_RC_READ_REQ;
    p.psn = e810_psn_add(e->first_psn, k);
    p.ackreq = true;
    p.va = e->w.remote_va + off;
    p.rkey = e->w.rkey;
    p.dma_len = e->w.total_len - off;
    rtt_start(core, x, p.psn);
    count_tx(core, qp, x, e810_psn_add(e->first_psn, e->npkts - 1),
             p.opcode);
    if (e810_psn_diff(p.psn, x->high_psn) < 0 && k) {
        core->xport->stats.retransmits++;
    }
    e810_xport_tx(core, qp, &p, core->xport->frame, 0);
}

/* Sends what the window allows; false if the QP died on the way. */
static bool pump(E810Core *core, E810Qp *qp, E810XQp *x)
{
    E810RocePkt hdr;
    bool built = false;
    uint32_t i;

    if (x->rnr_wait) {
        return true;
    }
    for (i = 0; i < x->wq_count; i++) {
        E810XWqe *e = wq_at(x, i);
        int32_t k = e810_psn_diff(x->send_psn, e->first_psn);

        if (k < 0) {
            k = 0;
            x->send_psn = e->first_psn;
        }
        while ((uint32_t)k < e->npkts) {
            if (e810_psn_diff(x->send_psn, x->acked_psn) >
                (int32_t)x->cwnd) {
                goto out;
            }
            if (e->is_read) {
                send_read_req(core, qp, x, e, k,
                              burst_headers(core, qp, &hdr, &built));
                x->send_psn = e810_psn_add(e->first_psn, e->npkts);
                break;
            }
            if (!send_data_pkt(core, qp, x, e, k,
                               burst_headers(core, qp, &hdr, &built))) {
                return false;
            }
            k++;
            x->send_psn = e810_psn_add(x->send_psn, 1);
        }
    }
out:
    if (outstanding(x) && !x->deadline) {
        restart_timer(core, qp, x);
    }
    if (x->stalled && x->wq_count < E810_XPORT_MAX_INFLIGHT) {
        x->stalled = false;
        e810_dp_sq_kick(core, x->qp_id);
    }
    return true;
}

static bool valid_rc_opcode(uint8_t op)
{
    switch (op) {
    case E810_OP_RDMA_WRITE:
    case E810_OP_RDMA_WRITE_SOL:
    case E810_OP_RDMA_READ:
    case E810_OP_RDMA_READ_LOC_INV:
    case E810_OP_SEND:
    case E810_OP_SEND_SOL:
    case E810_OP_SEND_INV:
    case E810_OP_SEND_SOL_INV:
        return true;
    default:
        return false;
    }
}

bool e810_rc_send(E810Core *core, E810Qp *qp, E810XQp *x,
                  const E810SendWqe *wqe)
{
    uint32_t ord = FIELD_GET(E810_QPC_ORDSIZE,
                             e810_qpc(qp, E810_QPC_FLAGS_OFF));
    bool is_read;
    uint32_t npkts;
    E810XWqe *e;

    req_init(qp, x);
    if (!valid_rc_opcode(wqe->opcode)) {
        e810_dp_complete_sq(core, qp, wqe, E810_AE_WQE_UNEXPECTED_OPCODE, 0);
        return true;
    }
    is_read = wqe->opcode == E810_OP_RDMA_READ ||
              wqe->opcode == E810_OP_RDMA_READ_LOC_INV;
    if (is_read && !ord) {
        e810_dp_complete_sq(core, qp, wqe, E810_AE_RDMA_READ_WHILE_ORD_ZERO,
                            0);
        return true;
    }
    if (wqe->total_len > E810_DP_MAX_MSG) {
        e810_dp_complete_sq(core, qp, wqe, E810_AE_WQE_INVALID_PARAMETER, 0);
        return true;
    }
    npkts = wqe->total_len ? (wqe->total_len + x->mtu - 1) / x->mtu : 1;
    if (npkts > E810_XPORT_MAX_SPAN) {
        /* More PSNs than comparisons modulo 2^24 can keep apart. */
        e810_dp_complete_sq(core, qp, wqe, E810_AE_WQE_INVALID_PARAMETER, 0);
        return true;
    }
    /*
     * Stall (the queue layer waits for e810_dp_sq_kick) when the ring is
     * full, ORD reads are out, a fence waits, or the PSNs in flight would
     * pass a quarter of the PSN space (keeps PSN comparisons exact).
     */
    if (x->wq_count == E810_XPORT_MAX_INFLIGHT ||
        (is_read && x->reads >= ord) ||
        (wqe->read_fence && x->reads) ||
        (wqe->local_fence && x->wq_count) ||
        (x->wq_count && (uint32_t)e810_psn_diff(x->next_psn, x->acked_psn) +
                        npkts > E810_XPORT_MAX_SPAN)) {
        x->stalled = true;
        core->xport->stats.sq_stalls++;
        return false;
    }
    e = wq_at(x, x->wq_count);
    e->w = *wqe;
    e->is_read = is_read;
    e->first_psn = x->next_psn;
    e->npkts = npkts;
    e->rd_rcvd = 0;
    e->rd_rereq = UINT32_MAX;
    x->next_psn = e810_psn_add(x->next_psn, npkts);
    x->wq_count++;
    if (is_read) {
        x->reads++;
    }
    pump(core, qp, x);
    return true;
}

/* ---- requester: acknowledgements ------------------------------------------ */

/* Completes the WQEs at the head that are done; false if the QP died. */
static bool complete_done(E810Core *core, E810Qp *qp, E810XQp *x)
{
    while (x->wq_count) {
        E810XWqe *e = wq_at(x, 0);
        uint32_t last = e810_psn_add(e->first_psn, e->npkts - 1);
        E810SendWqe w;

        if (e->is_read ? e->rd_rcvd < e->npkts :
            e810_psn_diff(last, x->acked_psn) > 0) {
            break;
        }
        w = e->w;
        x->wq_head = (x->wq_head + 1) % E810_XPORT_MAX_INFLIGHT;
        x->wq_count--;
        if (e->is_read) {
            x->reads--;
        }
        e810_dp_complete_sq(core, qp, &w, 0, w.total_len);
        if (x->dead) {
            return false;
        }
    }
    restart_timer(core, qp, x);
    return pump(core, qp, x);
}

/* Everything up to @psn arrived; false if the QP died. */
static bool ack_upto(E810Core *core, E810Qp *qp, E810XQp *x, uint32_t psn)
{
    if (e810_psn_diff(psn, x->acked_psn) <= 0) {
        return true;    /* nothing new */
    }
    if (e810_psn_diff(psn, x->high_psn) >= 0) {
        core->xport->stats.rx_stale++;  /* acknowledges what we never sent */
        return true;
    }
    cwnd_acked(x, (uint32_t)e810_psn_diff(psn, x->acked_psn));
    x->acked_psn = psn;
    x->retries = 0;
    x->rnr_retries = 0;
    rtt_ack(core, x, psn);
    /*
     * After a go-back the peer may acknowledge, from its backlog, PSNs we
     * are about to send again: skip them (unless a READ is out, whose
     * responses may still be missing below @psn).
     */
    if (!x->reads && e810_psn_diff(x->send_psn, psn) <= 0) {
        x->send_psn = e810_psn_add(psn, 1);
    }
    return complete_done(core, qp, x);
}

/* The in-flight WQE whose PSN range holds @psn. */
static E810XWqe *wqe_of_psn(E810XQp *x, uint32_t psn)
{
    uint32_t i;

    for (i = 0; i < x->wq_count; i++) {
        E810XWqe *e = wq_at(x, i);
        int32_t k = e810_psn_diff(psn, e->first_psn);

        if (k >= 0 && (uint32_t)k < e->npkts) {
            return e;
        }
    }
    return NULL;
}

/* First PSN not known delivered: where go-back-N restarts. */
static uint32_t una_psn(E810XQp *x)
{
    E810XWqe *e = wq_at(x, 0);

    if (e->is_read) {
        return e810_psn_add(e->first_psn, e->rd_rcvd);
    }
    if (e810_psn_diff(e810_psn_add(x->acked_psn, 1), e->first_psn) < 0) {
        return e->first_psn;
    }
    return e810_psn_add(x->acked_psn, 1);
}

static void go_back(E810XQp *x, uint32_t psn)
{
    if (e810_psn_diff(psn, x->send_psn) < 0) {
        x->send_psn = psn;
    }
}

static uint16_t nak_to_ae(uint8_t code)
{
    switch (code) {
    case E810_NAK_REM_ACCESS:
        return E810_AE_IB_REMOTE_ACCESS_ERROR;
    case E810_NAK_INV_REQ:
        return E810_AE_IB_INVALID_REQUEST;
    default:
        return E810_AE_IB_REMOTE_OP_ERROR;
    }
}

static void rx_ack(E810Core *core, E810Qp *qp, E810XQp *x,
                   const E810RocePkt *p)
{
    E810XportStats *st = &core->xport->stats;
    uint8_t type = p->syndrome & E810_AETH_TYPE_MASK;
    uint32_t prev = e810_psn_add(p->psn, E810_BTH_PSN_MASK);
    uint32_t rnr;
    E810XWqe *e;

    if (type == E810_AETH_ACK) {
        st->acks_rcvd++;
        ack_upto(core, qp, x, p->psn);
        return;
    }
    if (type != E810_AETH_RNR && type != E810_AETH_NAK) {
        st->rx_stale++;
        return;
    }
    /* A NAK names the PSN it refuses: everything before it arrived. */
    if (!ack_upto(core, qp, x, prev)) {
        return;
    }
    e = wqe_of_psn(x, p->psn);
    if (!e || e810_psn_diff(p->psn, x->high_psn) >= 0) {
        st->rx_stale++;
        return;
    }
    if (type == E810_AETH_RNR) {
        unsigned thresh = FIELD_GET(E810_QPC_RNRNAK_THRESH,
                                    e810_qpc(qp, E810_QPC_RETRY_OFF));

        st->rnr_naks_rcvd++;
        if (thresh != 7 && ++x->rnr_retries > thresh) {
            st->rnr_exceeded++;
            fail_wqe(core, qp, e, E810_AE_LLP_TOO_MANY_RNRS);
            return;
        }
        rnr = rnr_timer_10us[p->syndrome & 0x1f];
        x->rtt_timing = false;  /* what is timed will be sent again */
        x->rnr_wait = true;
        x->send_psn = p->psn;
        e810_xport_set_deadline(core, x, e810_xport_now(core) +
                                rnr_wait_ns(rnr, x->rnr_retries));
        return;
    }
    if ((p->syndrome & 0x1f) == E810_NAK_PSN_SEQ) {
        st->seq_naks_rcvd++;
        x->rtt_timing = false;
        go_back(x, p->psn);
        pump(core, qp, x);
        return;
    }
    st->err_naks_rcvd++;
    fail_wqe(core, qp, e, nak_to_ae(p->syndrome & 0x1f));
}

static void rx_read_resp(E810Core *core, E810Qp *qp, E810XQp *x,
                         const E810RocePkt *p)
{
    E810XportStats *st = &core->xport->stats;
    E810XWqe *e = wqe_of_psn(x, p->psn);
    uint32_t k, len;
    bool ends;
    uint16_t status;
    uint64_t off;

    if (!e || !e->is_read || e810_psn_diff(p->psn, x->high_psn) >= 0) {
        st->rx_stale++;
        return;
    }
    /* A response implicitly acknowledges every PSN before its READ. */
    if (!ack_upto(core, qp, x, e810_psn_add(e->first_psn,
                                             E810_BTH_PSN_MASK))) {
        return;
    }
    k = e810_psn_diff(p->psn, e->first_psn);
    if (k != e->rd_rcvd) {
        if (k > e->rd_rcvd && e->rd_rereq != e->rd_rcvd) {
            /* Responses were lost: ask again for the rest, once a gap. */
            e->rd_rereq = e->rd_rcvd;
            go_back(x, e810_psn_add(e->first_psn, e->rd_rcvd));
            pump(core, qp, x);
        } else {
            st->rx_psn_dup++;
        }
        return;
    }
    /*
     * A READ asked again from packet k is answered FIRST..LAST from k on,
     * so only "is this the last packet" and the length are checked.
     */
    ends = p->opcode == E810_BTH_RC_READ_RESP_LAST ||
           p->opcode == E810_BTH_RC_READ_RESP_ONLY;
    off = (uint64_t)k * x->mtu;
    len = e->w.total_len - off < x->mtu ? e->w.total_len - off : x->mtu;
    if (ends != (k + 1 == e->npkts) || p->paylen != len) {
        /* The responder disagrees on the message shape. */
        st->rx_bad_opcode_seq++;
        fail_wqe(core, qp, e, E810_AE_ROCE_RSP_LENGTH_ERROR);
        return;
    }
    if (len && !e810_dp_read_resp_scatter(core, qp, &e->w, off, p->payload,
                                          len, &status)) {
        fail_wqe(core, qp, e, status);
        return;
    }
    e->rd_rcvd++;
    if (e810_psn_diff(p->psn, x->acked_psn) > 0) {
        cwnd_acked(x, (uint32_t)e810_psn_diff(p->psn, x->acked_psn));
        x->acked_psn = p->psn;
        rtt_ack(core, x, p->psn);
    }
    x->retries = 0;
    if (e->rd_rcvd == e->npkts) {
        complete_done(core, qp, x);
    } else {
        restart_timer(core, qp, x);
    }
}

void e810_rc_timer(E810Core *core, E810Qp *qp, E810XQp *x)
{
    E810XportStats *st = &core->xport->stats;
    unsigned thresh;

    if (x->rnr_wait) {
        x->rnr_wait = false;
        pump(core, qp, x);
        return;
    }
    /* SQD finishes what it started: retransmission goes on there too. */
    if (!outstanding(x) || (qp->state != E810_QP_STATE_RTS &&
                            qp->state != E810_QP_STATE_SQD)) {
        return;
    }
    st->timeouts++;
    thresh = FIELD_GET(E810_QPC_REXMIT_THRESH,
                       e810_qpc(qp, E810_QPC_RETRY_OFF));
    if (++x->retries > thresh) {
        st->retry_exceeded++;
        fail_wqe(core, qp, wq_at(x, 0), E810_AE_LLP_TOO_MANY_RETRIES);
        return;
    }
    cwnd_timeout(x);
    x->send_psn = una_psn(x);
    wq_at(x, 0)->rd_rereq = UINT32_MAX;
    x->rtt_timing = false;      /* Karn: no sample from a resent packet */
    x->backoff++;
    restart_timer(core, qp, x);
    pump(core, qp, x);
}

/* ---- responder ------------------------------------------------------------- */

static void send_aeth(E810Core *core, E810Qp *qp, E810XQp *x, uint8_t syn,
                      uint32_t psn)
{
    E810XportStats *st = &core->xport->stats;
    E810RocePkt p;

    memset(&p, 0, sizeof(p));
    e810_xport_rc_headers(core, qp, &p);
    p.opcode = E810_BTH_RC_ACK;
    p.psn = psn;
    p.syndrome = syn;
    p.msn = x->msn;
    switch (syn & E810_AETH_TYPE_MASK) {
    case E810_AETH_ACK:
        st->acks_sent++;
        break;
    case E810_AETH_RNR:
        st->rnr_naks_sent++;
        break;
    default:
        st->naks_sent++;
        break;
    }
    e810_xport_tx(core, qp, &p, core->xport->frame, 0);
}

static uint8_t nak_for_status(uint16_t status)
{
    /* Any STag/access check failing at the responder is a remote access
     * error for the requester, whatever it means locally. */
    if (status >= E810_AE_AMP_UNALLOCATED_STAG &&
        status <= E810_AE_AMP_FASTREG_PBLE_MISMATCH) {
        return E810_AETH_NAK | E810_NAK_REM_ACCESS;
    }
    switch (e810_dp_flush_code(status)) {
    case E810_FLUSH_REM_ACCESS_ERR:
        return E810_AETH_NAK | E810_NAK_REM_ACCESS;
    case E810_FLUSH_LOC_LEN_ERR:
    case E810_FLUSH_REM_INV_REQ_ERR:
        return E810_AETH_NAK | E810_NAK_INV_REQ;
    default:
        return E810_AETH_NAK | E810_NAK_REM_OP;
    }
}

/*
 * A receive WQE the responder cannot scatter into is its own fault, not
 * the requester's: a bad local key or PD there is a Remote Operational
 * Error for the requester (IB 9.7.5.2.4), a too-short buffer an Invalid
 * Request as for any length error.
 */
static uint8_t nak_for_rq_status(uint16_t status)
{
    if (e810_dp_flush_code(status) == E810_FLUSH_LOC_LEN_ERR) {
        return E810_AETH_NAK | E810_NAK_INV_REQ;
    }
    return E810_AETH_NAK | E810_NAK_REM_OP;
}

/* NAKs @p and moves the responder to ERROR with AE @ae. */
static void resp_fatal(E810Core *core, E810Qp *qp, E810XQp *x,
                       const E810RocePkt *p, uint8_t syn, uint16_t ae,
                       uint8_t source)
{
    send_aeth(core, qp, x, syn, p->psn);
    x->nak_sent = true;
    if (x->have_rwqe) {
        E810RecvInfo info = { .status = ae, .psn = p->psn,
                              .bth_opcode = p->opcode };
        E810RecvWqe rw = x->rwqe;

        x->have_rwqe = false;
        e810_dp_complete_rq(core, qp, &rw, &info);
        return;
    }
    e810_dp_qp_fatal(core, qp, ae, source, 0);
}

/* Makes the oldest queued READ the one being answered; false if none. */
static bool read_next_queued(E810XQp *x)
{
    if (!x->rdq_count) {
        return false;
    }
    x->rd = x->rdq[x->rdq_head];
    x->rd_next = 0;
    x->rdq_head = (x->rdq_head + 1) % E810_XPORT_RD_QUEUE;
    x->rdq_count--;
    return true;
}

/*
 * Sends up to E810_XPORT_READ_BURST responses, of the READ in x->rd_* and
 * then of those queued behind it; the rest continue from deferred work,
 * so that requests cannot keep the device (and the wire) busy for long.
 */
void e810_rc_read_step(E810Core *core, E810Qp *qp, E810XQp *x)
{
    uint32_t mtu = e810_xport_mtu(qp);
    uint8_t *frame = core->xport->frame;
    unsigned n = 0;
    E810RocePkt hdr;
    bool built = false;

    /*
     * A frame sent may come back through the backend before the call
     * returns (a READ request the peer sends on completion): requests
     * that arrive meanwhile only queue or reset x->rd_*, never recurse.
     */
    x->rd_stepping = true;
    for (;;) {
        for (; n < E810_XPORT_READ_BURST && x->rd_next < x->rd.npkts; n++) {
            uint32_t k = x->rd_next;
            uint64_t off = (uint64_t)k * mtu;
            uint32_t chunk = x->rd.len - off < mtu ?
                             (uint32_t)(x->rd.len - off) : mtu;
            E810RocePkt r = *burst_headers(core, qp, &hdr, &built);
            E810DmaMap map;
            uint16_t status;
            bool mapped;

            r.opcode = x->rd.npkts == 1 ? E810_BTH_RC_READ_RESP_ONLY :
                       k == 0 ? E810_BTH_RC_READ_RESP_FIRST :
                       k + 1 == x->rd.npkts ? E810_BTH_RC_READ_RESP_LAST :
                       E810_BTH_RC_READ_RESP_MIDDLE;
            r.psn = e810_psn_add(x->rd.psn, k);
            r.syndrome = E810_AETH_ACK | E810_AETH_CREDIT_INVALID;
            r.msn = x->rd.msn;
            status = 0;
            mapped = chunk && e810_xport_local(core, &r) &&
                     e810_dp_remote_read_map(core, qp, x->rd.rkey,
                                             x->rd.va + off, chunk, &map,
                                             &status);
            if (chunk && !mapped &&
                (status ||
                 !e810_dp_remote_read(core, qp, x->rd.rkey, x->rd.va + off,
                                      frame + e810_roce_hdr_len(&r), chunk,
                                      &status))) {
                E810RocePkt req = { .opcode = E810_BTH_RC_READ_REQ,
                                    .psn = x->rd.psn };

                x->rd_pending = false;
                x->rdq_count = 0;
                x->rd_stepping = false;
                resp_fatal(core, qp, x, &req, nak_for_status(status), status,
                           E810_AE_SOURCE_OUT_RR);
                return;
            }
            x->rd_next++;
            if (mapped) {
                e810_xport_tx_mapped(core, qp, &r, frame, &map, chunk);
            } else {
                e810_xport_tx(core, qp, &r, frame, chunk);
            }
            core->xport->stats.read_resp_sent++;
        }
        if (x->rd_next < x->rd.npkts || !read_next_queued(x)) {
            break;
        }
    }
    x->rd_stepping = false;
    x->rd_pending = x->rd_next < x->rd.npkts;
    if (x->rd_pending) {
        e810_core_request_work(core, E810_WORK_XPORT);
    }
}

/*
 * A READ request the responder can take: at most max_msg_sz bytes and
 * E810_XPORT_MAX_SPAN response packets (else its PSN span is ambiguous).
 */
static bool read_len_ok(const E810RocePkt *p, uint32_t mtu)
{
    return p->dma_len <= E810_DP_MAX_MSG &&
           ((uint64_t)p->dma_len + mtu - 1) / mtu <= E810_XPORT_MAX_SPAN;
}

/* READ request @p as the responder keeps it, answered with MSN @msn. */
static E810XRead read_of(const E810RocePkt *p, uint32_t mtu, uint32_t msn)
{
    return (E810XRead){
        .psn = p->psn,
        .va = p->va,
        .rkey = p->rkey,
        .len = p->dma_len,
        .npkts = p->dma_len ? (uint32_t)((p->dma_len + mtu - 1) / mtu) : 1,
        .msn = msn,
    };
}

/* Queues READ request @p behind the one being answered. */
static E810XRead *read_enqueue(E810XQp *x, const E810RocePkt *p,
                               uint32_t mtu, uint32_t msn)
{
    E810XRead *r = &x->rdq[(x->rdq_head + x->rdq_count) %
                           E810_XPORT_RD_QUEUE];

    *r = read_of(p, mtu, msn);
    x->rdq_count++;
    return r;
}

/* Starts a READ request (again, for a duplicate). */
static void do_read(E810Core *core, E810Qp *qp, E810XQp *x,
                    const E810RocePkt *p, bool dup)
{
    /* A repeated request replaces whatever was still being answered. */
    x->rd_pending = true;
    x->rd = read_of(p, e810_xport_mtu(qp), x->msn);
    x->rd_next = 0;
    if (!dup) {
        x->epsn = e810_psn_add(x->epsn, x->rd.npkts);
        x->msn = (x->msn + 1) & 0xffffff;
        x->rd.msn = x->msn;
        x->nak_sent = false;
    }
    x->rdq_count = 0;
    if (!x->rd_stepping) {
        e810_rc_read_step(core, qp, x);
    }
}

/*
 * A READ asked again: responses were lost, and the requester goes back to
 * its PSN and sends every later request again too. What this responder
 * holds from that PSN on is dropped; a READ being answered that ends
 * before it carries on, and the request queues behind it.
 */
static void read_again(E810Core *core, E810Qp *qp, E810XQp *x,
                       const E810RocePkt *p)
{
    uint32_t i;

    if (!read_len_ok(p, e810_xport_mtu(qp))) {
        core->xport->stats.rx_busy++;
        return;
    }
    if (!x->rd_pending ||
        e810_psn_diff(p->psn, e810_psn_add(x->rd.psn, x->rd.npkts)) < 0) {
        do_read(core, qp, x, p, true);
        return;
    }
    for (i = 0; i < x->rdq_count; i++) {
        E810XRead *r = &x->rdq[(x->rdq_head + i) % E810_XPORT_RD_QUEUE];

        if (e810_psn_diff(p->psn, e810_psn_add(r->psn, r->npkts)) < 0) {
            break;
        }
    }
    x->rdq_count = i;
    if (x->rdq_count < E810_XPORT_RD_QUEUE) {
        read_enqueue(x, p, e810_xport_mtu(qp), x->msn);
    }
}

static void rx_duplicate(E810Core *core, E810Qp *qp, E810XQp *x,
                         const E810RocePkt *p)
{
    core->xport->stats.rx_psn_dup++;
    if (p->opcode == E810_BTH_RC_READ_REQ) {
        /* Responses were lost: the requester asks for the rest again. */
        read_again(core, qp, x, p);
        return;
    }
    if (p->ackreq) {
        send_aeth(core, qp, x, E810_AETH_ACK | E810_AETH_CREDIT_INVALID,
                  e810_psn_add(x->epsn, E810_BTH_PSN_MASK));
    }
}

/* Opcode sequence: a FIRST only between messages, else a continuation. */
static bool opcode_in_sequence(E810XQp *x, unsigned fl)
{
    if (!x->in_msg) {
        return fl & E810_OPF_FIRST;
    }
    return !(fl & E810_OPF_FIRST) &&
           (fl & (E810_OPF_SEND | E810_OPF_WRITE)) == x->cur_op;
}

static void rnr_nak(E810Core *core, E810Qp *qp, E810XQp *x,
                    const E810RocePkt *p)
{
    send_aeth(core, qp, x, E810_AETH_RNR | E810_XPORT_RNR_TIMER, p->psn);
    x->nak_sent = true;     /* later packets are dropped quietly */
}

/* The SEND part of an in-sequence packet; false if it was not accepted. */
static bool rx_send(E810Core *core, E810Qp *qp, E810XQp *x,
                    const E810RocePkt *p, unsigned fl)
{
    uint16_t status;

    if (fl & E810_OPF_FIRST) {
        if (!e810_dp_rq_take(core, qp, &x->rwqe)) {
            if (qp->state != E810_QP_STATE_ERROR) {
                rnr_nak(core, qp, x, p);
            }
            return false;
        }
        x->have_rwqe = true;
        x->msg_off = 0;
    }
    if (p->paylen && !e810_dp_scatter(core, qp, &x->rwqe, x->msg_off,
                                      p->payload, p->paylen, &status)) {
        resp_fatal(core, qp, x, p, nak_for_rq_status(status), status,
                   E810_AE_SOURCE_RQ);
        return false;
    }
    x->msg_off += p->paylen;
    /*
     * SEND with Invalidate: the STag in the IETH is invalidated before the
     * receive completes (IB 9.4.1.3; upstream reports it as
     * IB_WC_WITH_INVALIDATE). One the responder may not invalidate (not
     * its PD, a type 1 window, an MR with bound windows, no remote
     * access) fails the message like any other access check.
     */
    if ((fl & (E810_OPF_LAST | E810_OPF_IETH)) ==
        (E810_OPF_LAST | E810_OPF_IETH) &&
        !e810_dp_invalidate(core, qp, p->ieth, true, &status)) {
        resp_fatal(core, qp, x, p, nak_for_status(status), status,
                   E810_AE_SOURCE_RQ);
        return false;
    }
    if (fl & E810_OPF_LAST) {
        E810RecvInfo info = {
            .byte_len = (uint32_t)x->msg_off,
            .bth_opcode = p->opcode,
            .psn = p->psn,
            .imm_valid = fl & E810_OPF_IMM,
            .imm = p->imm,
            .inv_valid = fl & E810_OPF_IETH,
            .inv_stag = p->ieth,
            .solicited = p->se,
        };
        E810RecvWqe rw = x->rwqe;

        x->have_rwqe = false;
        x->msn = (x->msn + 1) & 0xffffff;
        e810_dp_complete_rq(core, qp, &rw, &info);
    }
    return true;
}

static bool rx_write(E810Core *core, E810Qp *qp, E810XQp *x,
                     const E810RocePkt *p, unsigned fl)
{
    uint16_t status;

    if (fl & E810_OPF_FIRST) {
        x->wr_va = p->va;
        x->wr_rkey = p->rkey;
        x->wr_len = p->dma_len;
        x->msg_off = 0;
    }
    if (x->msg_off + p->paylen > x->wr_len ||
        ((fl & E810_OPF_LAST) && x->msg_off + p->paylen != x->wr_len)) {
        resp_fatal(core, qp, x, p, E810_AETH_NAK | E810_NAK_INV_REQ,
                   E810_AE_IB_INVALID_REQUEST, E810_AE_SOURCE_IN_RR_WR);
        return false;
    }
    if (p->paylen && !e810_dp_remote_write(core, qp, x->wr_rkey,
                                           x->wr_va + x->msg_off, p->payload,
                                           p->paylen, &status)) {
        resp_fatal(core, qp, x, p, nak_for_status(status), status,
                   E810_AE_SOURCE_IN_RR_WR);
        return false;
    }
    if (fl & E810_OPF_IMM) {
        /* The immediate needs a receive WQE; without one, RNR (the data
         * of this packet is simply written again on the retry). */
        E810RecvInfo info = {
            .byte_len = (uint32_t)x->wr_len,
            .bth_opcode = p->opcode,
            .psn = p->psn,
            .imm_valid = true,
            .imm = p->imm,
            .solicited = p->se,
        };
        E810RecvWqe rw;

        if (!e810_dp_rq_take(core, qp, &rw)) {
            if (qp->state != E810_QP_STATE_ERROR) {
                rnr_nak(core, qp, x, p);
            }
            return false;
        }
        x->msn = (x->msn + 1) & 0xffffff;
        e810_dp_complete_rq(core, qp, &rw, &info);
        return true;
    }
    x->msg_off += p->paylen;
    if (fl & E810_OPF_LAST) {
        x->msn = (x->msn + 1) & 0xffffff;
    }
    return true;
}

static void rx_request(E810Core *core, E810Qp *qp, E810XQp *x,
                       const E810RocePkt *p)
{
    E810XportStats *st = &core->xport->stats;
    unsigned fl = e810_roce_op_flags(p->opcode);
    uint32_t mtu = e810_xport_mtu(qp);
    int32_t d;

    resp_init(qp, x);
    d = e810_psn_diff(p->psn, x->epsn);
    if (d < 0) {
        rx_duplicate(core, qp, x, p);
        return;
    }
    if (x->rd_pending) {
        /*
         * Responses go out in PSN order. The next READ queues behind the
         * one being answered, up to the IRD the queue holds; any other
         * request waits (the requester sends it again).
         */
        if (d == 0 && p->opcode == E810_BTH_RC_READ_REQ &&
            read_len_ok(p, mtu) &&
            x->rdq_count < E810_XPORT_RD_QUEUE) {
            x->msn = (x->msn + 1) & 0xffffff;
            x->epsn = e810_psn_add(x->epsn,
                                   read_enqueue(x, p, mtu, x->msn)->npkts);
            x->nak_sent = false;
            st->rd_queued++;
            e810_rdma_stat_rx_msg(core, qp, p->opcode);
            return;
        }
        st->rx_busy++;
        return;
    }
    if (d > 0) {
        st->rx_psn_oos++;
        if (!x->nak_sent) {
            x->nak_sent = true;
            send_aeth(core, qp, x, E810_AETH_NAK | E810_NAK_PSN_SEQ, x->epsn);
        }
        return;
    }
    if (!opcode_in_sequence(x, fl) ||
        (!(fl & E810_OPF_LAST) && p->paylen != mtu) || p->paylen > mtu) {
        st->rx_bad_opcode_seq++;
        resp_fatal(core, qp, x, p, E810_AETH_NAK | E810_NAK_INV_REQ,
                   E810_AE_IB_INVALID_REQUEST, E810_AE_SOURCE_RQ);
        return;
    }
    if (p->opcode == E810_BTH_RC_READ_REQ) {
        if (!read_len_ok(p, mtu)) {
            resp_fatal(core, qp, x, p, E810_AETH_NAK | E810_NAK_INV_REQ,
                       E810_AE_IB_INVALID_REQUEST, E810_AE_SOURCE_OUT_RR);
            return;
        }
        e810_rdma_stat_rx_msg(core, qp, p->opcode);
        do_read(core, qp, x, p, false);
        return;
    }
    if (!((fl & E810_OPF_SEND) ? rx_send(core, qp, x, p, fl) :
          rx_write(core, qp, x, p, fl)) || x->dead) {
        return;
    }
    x->in_msg = !(fl & E810_OPF_LAST);
    x->cur_op = fl & (E810_OPF_SEND | E810_OPF_WRITE);
    x->epsn = e810_psn_add(x->epsn, 1);
    x->nak_sent = false;
    e810_rdma_stat_rx_msg(core, qp, p->opcode);
    if (p->ackreq) {
        send_aeth(core, qp, x, E810_AETH_ACK | E810_AETH_CREDIT_INVALID,
                  p->psn);
    }
}

void e810_rc_receive(E810Core *core, E810Qp *qp, E810XQp *x,
                     const E810RocePkt *p)
{
    unsigned fl = e810_roce_op_flags(p->opcode);

    if (p->opcode == E810_BTH_RC_ACK || (fl & E810_OPF_READ_RESP)) {
        if (!x->req_init || !x->wq_count) {
            core->xport->stats.rx_stale++;
            return;
        }
        if (p->opcode == E810_BTH_RC_ACK) {
            rx_ack(core, qp, x, p);
        } else {
            rx_read_resp(core, qp, x, p);
        }
        return;
    }
    if ((fl & (E810_OPF_DETH)) || p->opcode >= 0x20) {
        core->xport->stats.rx_drop[E810_ROCE_BAD_OPCODE]++;
        return;
    }
    rx_request(core, qp, x, p);
}
