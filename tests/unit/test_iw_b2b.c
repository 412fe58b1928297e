/*
 * iWARP offloaded connections between two device models through a fake
 * wire the test controls: the hand-off as the stock irdma CM does it
 * (connection WQEs in SQ slots 0..2 without a doorbell, MODIFY_QP -> RTS
 * with the TCP context, AE 0x050E), SEND/WRITE/READ payloads and CQEs,
 * segments split and coalesced on the way, a lost segment retransmitted,
 * 2 % loss through the model's own knob (x-iwarp-drop-ppm) recovered,
 * FIN and RST with their AEs, and the error paths (bad CRC, bad STag) with
 * a Terminate on the wire and the AEs on both sides.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <errno.h>
#include <inttypes.h>

#include "b2b.h"
#include "e810_iw.h"
#include "e810_iw_conn.h"

#define XMEM        (4u << 20)
#define BUF_LEN     (1u << 20)
#define MSS         1460
#define PORT_A      40000
#define PORT_B      4791
#define ISN_A       0xfffff000u     /* wraps during the tests */
#define ISN_B       0x12345678u
#define MPA_REP_LEN 24              /* the LSMM bytes (an MPA Reply) */

/* ---- the wire ------------------------------------------------------------ */

typedef struct WFrame {
    struct WFrame *next;
    uint64_t at;            /* virtual time it may be delivered */
    size_t len;
    uint8_t data[];
} WFrame;

enum { MODE_PLAIN, MODE_SPLIT, MODE_COALESCE };

typedef struct Iw {
    B2B *b;
    DpCq scq[2], rcq[2];
    DpQp qp[2];
    uint64_t buf[2];
    uint32_t key[2];
    uint64_t lsmm_buf;
    uint32_t lsmm_key;
    WFrame *q[2];           /* frames side i sent, not yet delivered */
    int mode;
    int drop_data;          /* drop the Nth data segment A -> B (1-based) */
    int data_seen;
    int corrupt_data;       /* flip a payload byte of the Nth one A -> B */
    bool blackhole;         /* lose everything from now on */
    int zero_win;           /* side 1's next N frames advertise window 0 */
    unsigned delivered, not_taken, dropped, split, coalesced;
    unsigned term_frames[2];    /* Terminates seen leaving side i */
    bool v6;                /* IPv6 addresses in the contexts */
    uint64_t run_ns;        /* virtual time run() allows (0: 2 s) */
    uint64_t delay_ns[2];   /* what the wire holds side i's frames */
    unsigned dv[2];         /* device of each side ({0, 0}: loopback) */
    DpAe pend[64];          /* AEs polled for the other side */
    unsigned pend_tcp[64];
    uint64_t pend_info[64];     /* the AEQE's info qword */
    DpDev *pend_dev[64];
    unsigned npend;
} Iw;

#define HS(w, s)    ((w)->b->h[(w)->dv[s]])
#define DS(w, s)    (&(w)->b->dev[(w)->dv[s]])

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

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static void wq_push(WFrame **q, const uint8_t *f, size_t len, uint64_t at)
{
    WFrame *w = malloc(sizeof(*w) + len), **pp = q;

    assert_non_null(w);
    w->next = NULL;
    w->at = at;
    w->len = len;
    memcpy(w->data, f, len);
    while (*pp) {
        pp = &(*pp)->next;
    }
    *pp = w;
}

static void tx_hook0(void *arg, const uint8_t *f, size_t len)
{
    Iw *w = arg;

    wq_push(&w->q[0], f, len, w->b->h[0]->now_ns + w->delay_ns[0]);
}

static void tx_hook1(void *arg, const uint8_t *f, size_t len)
{
    Iw *w = arg;

    wq_push(&w->q[1], f, len, w->b->h[0]->now_ns + w->delay_ns[1]);
}

/* IPv4 + TCP without options (what the engine sends). */
#define L3  14
#define L4  (14 + 20)
#define PL  (14 + 20 + 20)

static uint32_t tcp_paylen(const uint8_t *f)
{
    return (uint32_t)(f[L3 + 2] << 8 | f[L3 + 3]) - 40;
}

/* A copy of frame @f with @n payload bytes @p and sequence number @seq. */
static size_t rebuild(uint8_t *out, const uint8_t *f, uint32_t seq,
                      const uint8_t *p, uint32_t n)
{
    memcpy(out, f, PL);
    memcpy(out + PL, p, n);
    put16(out + L3 + 2, (uint16_t)(40 + n));
    put16(out + L3 + 10, 0);
    put16(out + L3 + 10, e810_iw_ip_csum(out + L3, 20));
    put32(out + L4 + 4, seq);
    put16(out + L4 + 16, 0);
    put16(out + L4 + 16, e810_iw_tcp_csum(true, out + L3 + 12,
                                          out + L3 + 16, out + L4, 20 + n));
    return PL + n < 60 ? 60 : PL + n;
}

static void deliver(Iw *w, unsigned to, const uint8_t *f, size_t len)
{
    if (e810_iw_conn_rx(&w->b->h[to]->core, f, len)) {
        w->delivered++;
    } else {
        w->not_taken++;     /* no offloaded connection: the ILQ's */
    }
}

/* Every frame side @from queued, through the wire's mode. */
static bool wire_step(Iw *w, unsigned from)
{
    static uint8_t tmp[2][20000];
    WFrame *f;
    bool any = false;

    while ((f = w->q[from]) && f->at <= w->b->h[0]->now_ns) {
        uint32_t n = tcp_paylen(f->data);
        uint8_t *d = f->data;

        w->q[from] = f->next;
        any = true;
        if (w->blackhole) {
            w->dropped++;
            free(f);
            continue;
        }
        if (d[12] == 0x86 && d[13] == 0xdd) {
            deliver(w, !from, d, f->len);   /* IPv6: as it is */
            free(f);
            continue;
        }
        /* A Terminate is an untagged FPDU on queue 2. */
        if (n >= 20 && (d[PL + 2] & 0x80) == 0 && get32(d + PL + 2 + 6) == 2) {
            w->term_frames[from]++;
        }
        if (from == 1 && w->zero_win > 0) {
            w->zero_win--;
            put16(d + L4 + 14, 0);
            rebuild(tmp[1], d, get32(d + L4 + 4), d + PL, n);
            deliver(w, 0, tmp[1], f->len);
            free(f);
            continue;
        }
        if (from == 0 && n) {
            w->data_seen++;
            if (w->data_seen == w->drop_data) {
                w->dropped++;
                free(f);
                continue;
            }
            if (w->data_seen == w->corrupt_data && n > 30) {
                size_t l;

                memcpy(tmp[0], d + PL, n);
                tmp[0][n - 8] ^= 0x55;  /* in the payload, TCP sum fixed */
                l = rebuild(tmp[1], d, get32(d + L4 + 4), tmp[0], n);
                deliver(w, 1, tmp[1], l);
                free(f);
                continue;
            }
        }
        if (w->mode == MODE_SPLIT && n > 2) {
            uint32_t seq = get32(d + L4 + 4), a = n / 3, b = n / 3 + 1;
            size_t l;

            /* Three pieces: FPDUs cut anywhere, headers included. */
            l = rebuild(tmp[0], d, seq, d + PL, a);
            deliver(w, !from, tmp[0], l);
            l = rebuild(tmp[0], d, seq + a, d + PL + a, b);
            deliver(w, !from, tmp[0], l);
            l = rebuild(tmp[0], d, seq + a + b, d + PL + a + b, n - a - b);
            deliver(w, !from, tmp[0], l);
            w->split++;
        } else if (w->mode == MODE_COALESCE && n && f->next &&
                   tcp_paylen(f->next->data) &&
                   get32(f->next->data + L4 + 4) == get32(d + L4 + 4) + n &&
                   n + tcp_paylen(f->next->data) < sizeof(tmp[0])) {
            WFrame *g = f->next;
            uint32_t m = tcp_paylen(g->data);
            size_t l;

            /* Two segments as one (an ACK of the second's). */
            memcpy(tmp[0], d + PL, n);
            memcpy(tmp[0] + n, g->data + PL, m);
            l = rebuild(tmp[1], g->data, get32(d + L4 + 4), tmp[0], n + m);
            deliver(w, !from, tmp[1], l);
            w->q[from] = g->next;
            free(g);
            w->coalesced++;
        } else {
            deliver(w, !from, d, f->len);
        }
        free(f);
    }
    return any;
}

static bool step(Iw *w)
{
    bool busy = false;
    unsigned i;

    for (i = 0; i < 2; i++) {
        if (w->b->h[i]->core.work_pending) {
            harness_run_work(w->b->h[i]);
            busy = true;
        }
    }
    for (i = 0; i < 2; i++) {
        busy |= wire_step(w, i);
    }
    return busy;
}

/* Runs until quiet and no timer is left, or @max_ns of virtual time. */
static void run_for(Iw *w, uint64_t max_ns)
{
    uint64_t start = w->b->h[0]->now_ns;
    unsigned long n;

    for (n = 0; n < 10000000ul; n++) {
        uint64_t d, delta;

        if (step(w)) {
            continue;
        }
        d = w->b->h[0]->timer_deadline < w->b->h[1]->timer_deadline ?
            w->b->h[0]->timer_deadline : w->b->h[1]->timer_deadline;
        /* A frame the wire holds is due as a timer is. */
        if (w->q[0] && w->q[0]->at < d) {
            d = w->q[0]->at;
        }
        if (w->q[1] && w->q[1]->at < d) {
            d = w->q[1]->at;
        }
        if (d == UINT64_MAX || d - start > max_ns) {
            return;
        }
        delta = d > w->b->h[0]->now_ns ? d - w->b->h[0]->now_ns : 0;
        b2b_advance(w->b, delta);
    }
    fail_msg("the wire never went quiet");
}

static void run(Iw *w)
{
    run_for(w, w->run_ns ? w->run_ns : 2000000000ull);
}

/* ---- connection set-up as irdma's CM leaves it --------------------------- */

static void ctx_rmw(DpQp *qp, unsigned off, uint64_t mask, uint64_t val)
{
    uint64_t *c = &dp_qp_ctx(qp)[E810_QW(off)];

    *c = htole64((le64toh(*c) & ~mask) | (val & mask));
}

/* irdma_sc_qp_setctx() for an offloaded connection (facts table 3). */
static void tcp_ctx(Iw *w, unsigned s)
{
    DpQp *qp = &w->qp[s];
    uint32_t snd = s ? ISN_B : ISN_A, rcv = s ? ISN_A : ISN_B + MPA_REP_LEN;

    ctx_rmw(qp, 0, E810_QPC_IPV4 | 3 | (3ull << 62),
            (w->v6 ? 0 : E810_QPC_IPV4) | 1 | (1ull << 62));
    ctx_rmw(qp, 24, E810_QPC_TTL | E810_QPC_TOS | E810_QPC_SRCPORTNUM |
            E810_QPC_DESTPORTNUM, 64 |
            FIELD_PREP(E810_QPC_SRCPORTNUM, s ? PORT_B : PORT_A) |
            FIELD_PREP(E810_QPC_DESTPORTNUM, s ? PORT_A : PORT_B));
    if (w->v6) {
        /* fd00::1 and fd00::2: words 0..3, word 3 low in off 32/184. */
        ctx_rmw(qp, 32, ~0ull, 1 + !s);
        ctx_rmw(qp, 40, ~0ull, 0xfd00000000000000ull);
        ctx_rmw(qp, 184, ~0ull, 1 + s);
        ctx_rmw(qp, 192, ~0ull, 0xfd00000000000000ull);
    } else {
        ctx_rmw(qp, 32, 0xffffffffull, B2B_IP(!s));
        ctx_rmw(qp, 184, 0xffffffffull, B2B_IP(s));
    }
    ctx_rmw(qp, 48, E810_QPC_SNDMSS | E810_QPC_ARPIDX,
            FIELD_PREP(E810_QPC_SNDMSS, MSS) |
            FIELD_PREP(E810_QPC_ARPIDX, w->dv[0] == w->dv[1] ?
                       B2B_ARP_SELF : B2B_ARP_IDX));
    ctx_rmw(qp, 56, GENMASK_ULL(43, 28) | BIT_ULL(20),
            BIT_ULL(20) | 5ull << 28 | 2ull << 32 | 2ull << 40);
    ctx_rmw(qp, 80, ~0ull, (uint64_t)0x3fffc << 32 | snd);
    ctx_rmw(qp, 88, ~0ull, (uint64_t)0x3fffc << 32 | rcv);
    ctx_rmw(qp, 96, ~0ull, (uint64_t)snd << 32 | snd);
    ctx_rmw(qp, 112, ~0ull, (uint64_t)(2 * MSS) << 32 | 0x3fffffff);
    ctx_rmw(qp, 120, ~0ull, (uint64_t)snd << 32 | rcv);
    ctx_rmw(qp, 128, 0xffffffffull | E810_QPC_REXMIT_THRESH |
            E810_QPC_RTOMIN, 0x3fffc | FIELD_PREP(E810_QPC_REXMIT_THRESH, 8) |
            FIELD_PREP(E810_QPC_RTOMIN, 5));
    ctx_rmw(qp, 144, ~0xffull, mem_alloc_aligned(HS(w, s), 256, 256));
    ctx_rmw(qp, 152, E810_QPC_MACADDRESS, FIELD_PREP(E810_QPC_MACADDRESS,
            b2b_mac_u64(HS(w, s)->core.mac)));
    ctx_rmw(qp, 160, E810_QPC_ORDSIZE | E810_QPC_IRDSIZE | BIT_ULL(20) |
            BIT_ULL(21) | BIT_ULL(28), 16 | FIELD_PREP(E810_QPC_IRDSIZE, 2) |
            BIT_ULL(20) | BIT_ULL(21) | BIT_ULL(28));
}

static bool modify(DpQp *qp, unsigned state, uint64_t extra)
{
    uint64_t q[8] = { 0 };

    q[E810_QW(E810_CQPSQ_QP_CTX_OFF)] = qp->ctx_pa;
    q[E810_QW(E810_CQPSQ_QP_DBSHADOW_OFF)] = qp->shadow_pa;
    if (!rd_do(&qp->dev->d, E810_CQP_OP_MODIFY_QP,
               FIELD_PREP(E810_CQPSQ_QP_QPID, qp->id) |
               FIELD_PREP(E810_CQPSQ_QP_QPTYPE, E810_QP_TYPE_IWARP) |
               FIELD_PREP(E810_CQPSQ_QP_NEXTIWSTATE, state) |
               E810_CQPSQ_QP_CQNUMVALID | extra, q)) {
        return false;
    }
    qp->state = state;
    return true;
}

static void post_raw(DpQp *qp, uint64_t q0, uint64_t q1, uint64_t q2,
                     uint64_t hdr)
{
    uint64_t q[4] = { q0, q1, q2, hdr };

    dp_post_raw(qp, q, 1, false);
}

/*
 * The connection WQEs (irdma_sc_send_lsmm() / _send_rtt(), NOP with a
 * local fence, irdma_sc_gen_rts_ae()) in slots 0..2, no doorbell.
 */
static void conn_wqes(Iw *w, unsigned s)
{
    DpQp *qp = &w->qp[s];

    if (s) {
        post_raw(qp, w->lsmm_buf, FIELD_PREP(E810_WQE_FRAG_STAG, w->lsmm_key) |
                 FIELD_PREP(E810_WQE_FRAG_LEN, MPA_REP_LEN), 0,
                 FIELD_PREP(E810_WQE_OPCODE, E810_OP_SEND) |
                 E810_WQE_STREAMMODE | E810_WQE_WAITFORRCVPDU);
    } else {
        post_raw(qp, 0, 0, 0, FIELD_PREP(E810_WQE_OPCODE,
                                         E810_OP_RDMA_WRITE));
    }
    post_raw(qp, 0, 0, 0, FIELD_PREP(E810_WQE_OPCODE, E810_OP_NOP) |
             E810_WQE_LOCALFENCE);
    post_raw(qp, 0, 0, 0, FIELD_PREP(E810_WQE_OPCODE, E810_IW_OP_GEN_RTS_AE));
}

/* AE @code for side @s's QP, with TCP state @tcp, from its device's AEQ
 * (AEs for the other QP of a shared device are kept for later); returns
 * the AEQE's info qword. */
static uint64_t expect_ae(Iw *w, unsigned s, uint16_t code, unsigned tcp)
{
    DpDev *d = DS(w, s);
    uint64_t *aeq = mem_ptr(d->h, d->aeq_pa);
    unsigned i;
    DpAe ae;

    for (;;) {
        for (i = 0; i < w->npend; i++) {
            if (w->pend[i].code == code && w->pend[i].id == w->qp[s].id &&
                w->pend_dev[i] == d) {
                uint64_t info = w->pend_info[i];

                assert_int_equal(w->pend_tcp[i], tcp);
                w->npend--;
                w->pend[i] = w->pend[w->npend];
                w->pend_tcp[i] = w->pend_tcp[w->npend];
                w->pend_info[i] = w->pend_info[w->npend];
                w->pend_dev[i] = w->pend_dev[w->npend];
                return info;
            }
        }
        if (!dp_poll_ae(d, &ae)) {
            fail_msg("side %u: no AE %#x", s, code);
        }
        assert_true(w->npend < 64);
        w->pend[w->npend] = ae;
        w->pend_dev[w->npend] = d;
        /* The TCP state of the entry just returned (one behind head). */
        i = (d->aeq_head + DP_AEQ_SIZE - 1) % DP_AEQ_SIZE;
        w->pend_info[w->npend] = le64toh(aeq[2 * i + 1]);
        w->pend_tcp[w->npend++] = FIELD_GET(E810_AEQE_TCPSTATE,
                                            le64toh(aeq[2 * i + 1]));
    }
}

/* No AE @code pending or queued for side @s. */
static void expect_no_ae(Iw *w, unsigned s, uint16_t code)
{
    DpDev *d = DS(w, s);
    uint64_t *aeq = mem_ptr(d->h, d->aeq_pa);
    unsigned i;
    DpAe ae;

    while (dp_poll_ae(d, &ae)) {
        assert_true(w->npend < 64);
        w->pend[w->npend] = ae;
        w->pend_dev[w->npend] = d;
        i = (d->aeq_head + DP_AEQ_SIZE - 1) % DP_AEQ_SIZE;
        w->pend_info[w->npend] = le64toh(aeq[2 * i + 1]);
        w->pend_tcp[w->npend++] = FIELD_GET(E810_AEQE_TCPSTATE,
                                            le64toh(aeq[2 * i + 1]));
    }
    for (i = 0; i < w->npend; i++) {
        assert_false(w->pend[i].code == code &&
                     w->pend[i].id == w->qp[s].id && w->pend_dev[i] == d);
    }
}

static Iw *iw_new_opt(int mode, bool v6, bool loop)
{
    Iw *w = calloc(1, sizeof(*w));
    unsigned i;

    assert_non_null(w);
    w->b = calloc(1, sizeof(*w->b));
    assert_non_null(w->b);
    w->mode = mode;
    w->v6 = v6;
    w->dv[1] = !loop;
    for (i = 0; i < 2; i++) {
        w->b->h[i] = harness_new(i);
        assert_non_null(w->b->h[i]);
        harness_xmem_init(w->b->h[i], XMEM);
        rd_protocol = E810_PROTOCOL_IWARP_ONLY;     /* iWARP mode */
        dp_dev_init(&w->b->dev[i], w->b->h[i]);
        rd_protocol = E810_PROTOCOL_ROCE_ONLY;
        w->b->h[i]->tx_hook = i ? tx_hook1 : tx_hook0;
        w->b->h[i]->tx_hook_arg = w;
    }
    for (i = 0; i < 2; i++) {
        b2b_arp(&w->b->dev[i], B2B_ARP_IDX, w->b->h[1 - i]->core.mac);
        b2b_arp(&w->b->dev[i], B2B_ARP_SELF, w->b->h[i]->core.mac);
    }
    for (i = 0; i < 2; i++) {
        DpDev *d = DS(w, i);

        dp_cq_create(d, &w->scq[i], 256);
        dp_cq_create(d, &w->rcq[i], 256);
        dp_qp_create(d, &w->qp[i], E810_QP_TYPE_IWARP, &w->scq[i],
                     &w->rcq[i], 256, 64, 1, false, true);
        w->buf[i] = harness_xmem_alloc(HS(w, i), BUF_LEN);
        w->key[i] = dp_mr_buf(d, DP_PD, w->buf[i], BUF_LEN, B2B_ALL_RIGHTS);
        tcp_ctx(w, i);
    }
    w->lsmm_buf = w->buf[1] + BUF_LEN - 4096;
    w->lsmm_key = w->key[1];
    memset(mem_ptr(HS(w, 1), w->lsmm_buf), 'R', MPA_REP_LEN);
    /* irdma_cm_init_tsa_conn(): the active side first, then the passive. */
    for (i = 0; i < 2; i++) {
        conn_wqes(w, i);
        assert_true(modify(&w->qp[i], E810_QP_STATE_RTS,
                           E810_CQPSQ_QP_TOECTXVALID |
                           E810_CQPSQ_QP_ORDVALID));
    }
    run(w);
    expect_ae(w, 0, E810_AE_LLP_CONNECTION_ESTABLISHED, 5);
    expect_ae(w, 1, E810_AE_LLP_CONNECTION_ESTABLISHED, 5);
    return w;
}

static Iw *iw_new(int mode)
{
    return iw_new_opt(mode, false, false);
}

static void iw_free(Iw *w)
{
    unsigned i;

    for (i = 0; i < 2; i++) {
        while (w->q[i]) {
            WFrame *f = w->q[i];

            w->q[i] = f->next;
            free(f);
        }
    }
    b2b_free(w->b);
    free(w);
}

static E810IwConnStats *stats(Iw *w, unsigned s)
{
    return &HS(w, s)->core.iw->stats;
}

static E810IwConn *conn(Iw *w, unsigned s)
{
    E810IwConn *c = e810_iw_conn_of(&HS(w, s)->core, w->qp[s].id);

    assert_non_null(c);
    return c;
}

/* ---- the driver's Terminate (upstream irdma ctrl.c / utils.c) ----------- */

static uint64_t q2_pa(Iw *w, unsigned s)
{
    return le64toh(dp_qp_ctx(&w->qp[s])[E810_QW(144)]) & ~0xffull;
}

/* The MPA length of the frame at Q2 + 72 (irdma_locate_mpa()). */
static uint8_t *q2_mpa(Iw *w, unsigned s)
{
    uint8_t *pkt = mem_ptr(HS(w, s), q2_pa(w, s) + 72 + 14);

    pkt += 4 * (pkt[0] & 0x0f);
    return pkt + 4 * (pkt[12] >> 4);
}

/*
 * irdma_terminate_connection(): the Terminate header at Q2 + 0 (control,
 * and with Q2DATA the segment length and DDP header of the offending
 * segment, irdma_bld_termhdr_ddp_rdma()), MODIFY_QP -> TERMINATE with
 * TERMACT 1 (Terminate only).
 */
static void drv_terminate(Iw *w, unsigned s, uint64_t info, uint8_t le,
                          uint8_t code)
{
    uint8_t *q2 = mem_ptr(HS(w, s), q2_pa(w, s));
    unsigned copy = 0;

    memset(q2, 0, 72);
    q2[0] = le;
    q2[1] = code;
    if (FIELD_GET(E810_AEQE_Q2DATA, info)) {
        uint8_t *pkt = q2_mpa(w, s);
        unsigned seg = pkt[0] << 8 | pkt[1];

        if (seg) {
            copy = 2;
            q2[2] = 0x80;
            if (pkt[2] & 0x80) {
                if (seg >= 14) {
                    copy += 14;
                    q2[2] |= 0x40;
                }
            } else {
                if (seg >= 18) {
                    copy += 18;
                    q2[2] |= 0x40;
                }
                if (seg >= 18 + 28 && (pkt[3] & 0x0f) == 1) {
                    copy += 28;
                    q2[2] |= 0x20;
                }
            }
        }
        memcpy(q2 + 4, pkt, copy);
    }
    assert_true(modify(&w->qp[s], E810_QP_STATE_TERMINATE,
                       FIELD_PREP(E810_CQPSQ_QP_TERMACT, 1)));
}

/*
 * The whole exchange upstream irdma runs after side @s's device raised
 * the error AE @ae: the AE with the QP in RTS and nothing on the wire
 * yet; the driver's Terminate (AE 0x0602), the peer's AE 0x0509 with the
 * Terminate in its Q2; then irdma_terminate_send_fin() on @s and on the
 * peer irdma_terminate_received(): ERROR at once for an RDMAP remote
 * protection/operation error, else its FIN too; the close completes
 * (0x0501) and irdma_terminate_done() moves the QP to ERROR with RESETCON.
 * Returns the error AE's info qword.
 */
static uint64_t term_flow(Iw *w, unsigned s, uint16_t ae, uint8_t le,
                          uint8_t code)
{
    unsigned p = !s;
    uint64_t info = expect_ae(w, s, ae, 5);
    uint64_t pinfo;
    const uint8_t *t;
    bool remote = le == 0x01 || le == 0x02;

    assert_int_equal(FIELD_GET(E810_AEQE_IWSTATE, info), E810_QP_STATE_RTS);
    assert_int_equal(e810_qp_get(&HS(w, s)->core, w->qp[s].id)->state,
                     E810_QP_STATE_RTS);
    assert_int_equal(w->term_frames[s], 0);
    expect_no_ae(w, p, E810_AE_LLP_TERMINATE_RECEIVED);
    assert_int_equal(stats(w, s)->stream_errors, 1);
    drv_terminate(w, s, info, le, code);
    run(w);
    expect_ae(w, s, E810_AE_TERMINATE_SENT, 5);
    assert_int_equal(w->term_frames[s], 1);
    assert_int_equal(stats(w, s)->terms_sent, 1);
    pinfo = expect_ae(w, p, E810_AE_LLP_TERMINATE_RECEIVED, 5);
    assert_true(FIELD_GET(E810_AEQE_Q2DATA, pinfo));
    /* irdma_terminate_received()'s checks, then the header. */
    t = q2_mpa(w, p) + 2;
    assert_int_equal(t[0], 0x40 | 0x01);            /* DDP: L, untagged */
    assert_int_equal(t[1], 0x40 | 0x07);            /* RDMAP Terminate */
    assert_int_equal(get32(t + 6), 2);              /* QN 2 */
    assert_int_equal(get32(t + 10), 1);             /* MSN 1 */
    assert_int_equal(get32(t + 14), 0);             /* MO 0 */
    assert_int_equal(t[18], le);
    assert_int_equal(t[19], code);
    assert_memory_equal(t + 18, mem_ptr(HS(w, s), q2_pa(w, s)), 4);
    assert_true(modify(&w->qp[s], E810_QP_STATE_TERMINATE,
                       FIELD_PREP(E810_CQPSQ_QP_TERMACT, 2)));
    if (remote) {
        assert_true(modify(&w->qp[p], E810_QP_STATE_ERROR,
                           E810_CQPSQ_QP_RESETCON));
    } else {
        assert_true(modify(&w->qp[p], E810_QP_STATE_TERMINATE,
                           FIELD_PREP(E810_CQPSQ_QP_TERMACT, 2)));
    }
    run(w);
    if (remote) {
        expect_ae(w, s, E810_AE_LLP_CONNECTION_RESET, 1);
    } else {
        expect_ae(w, s, E810_AE_LLP_CLOSE_COMPLETE, 11);
        expect_ae(w, p, E810_AE_LLP_CLOSE_COMPLETE, 11);
        assert_true(modify(&w->qp[p], E810_QP_STATE_ERROR,
                           E810_CQPSQ_QP_RESETCON));
    }
    assert_true(modify(&w->qp[s], E810_QP_STATE_ERROR,
                       E810_CQPSQ_QP_RESETCON));
    run(w);
    assert_int_equal(stats(w, s)->late_closes + stats(w, p)->late_closes, 0);
    assert_int_equal(stats(w, s)->terms_sent, 1);
    assert_int_equal(stats(w, p)->terms_sent, 0);
    assert_int_equal(stats(w, p)->terms_rcvd, 1);
    return info;
}

/* ---- transfers ----------------------------------------------------------- */

static uint8_t *bufp(Iw *w, unsigned s, uint64_t off)
{
    return mem_ptr(HS(w, s), w->buf[s] + off);
}

static void expect_sq(Iw *w, unsigned s, unsigned op)
{
    DpCqe e;

    assert_true(dp_poll_cq(&w->scq[s], &e));
    assert_false(e.error);
    assert_true(e.sq);
    assert_int_equal(e.op, op);
    assert_int_equal(e.qp_id, w->qp[s].id);
    assert_false(dp_poll_cq(&w->scq[s], &e));
}

/* One transfer A -> B (READ: B's bytes into A), checked end to end. */
static void xfer(Iw *w, unsigned op, uint32_t len, uint32_t seed)
{
    bool read = op == E810_OP_RDMA_READ, send = !read &&
                op != E810_OP_RDMA_WRITE;
    unsigned src = read ? 1 : 0, dst = !src;
    DpSend s;
    DpCqe e;

    b2b_fill(bufp(w, src, 0), len, seed);
    memset(bufp(w, dst, 0), 0, len + 64);
    if (send) {
        E810Sge sge = { w->buf[1], len + 16, w->key[1] };

        dp_post_recv(&w->qp[1], &sge, 1);
    }
    memset(&s, 0, sizeof(s));
    s.op = op;
    s.signaled = true;
    s.nsge = 1;
    s.sge[0].addr = w->buf[0];
    s.sge[0].len = len;
    s.sge[0].lkey = w->key[0];
    s.remote_va = w->buf[1];
    s.rkey = op == E810_OP_SEND_INV ? 0 : w->key[1];
    dp_post_send(&w->qp[0], &s);
    dp_ring(&w->qp[0], true);
    run(w);
    expect_sq(w, 0, op);
    if (send) {
        assert_true(dp_poll_cq(&w->rcq[1], &e));
        assert_false(e.error);
        assert_false(e.sq);
        assert_int_equal(e.len, len);
        assert_int_equal(e.solicited, op == E810_OP_SEND_SOL);
    }
    assert_false(dp_poll_cq(&w->rcq[1], &e));
    assert_true(b2b_check(bufp(w, dst, 0), len, seed));
    assert_int_equal(*bufp(w, dst, len), 0);
}

static const uint32_t sizes[] = { 0, 1, 3, 1000, 1404, 1405, 5000, 65536,
                                  300001 };

static void run_sizes(int mode)
{
    Iw *w = iw_new(mode);
    uint32_t seed = 1 + mode * 100;
    unsigned i;

    for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        xfer(w, E810_OP_SEND, sizes[i], seed++);
        xfer(w, E810_OP_SEND_SOL, sizes[i], seed++);
        xfer(w, E810_OP_RDMA_WRITE, sizes[i], seed++);
        xfer(w, E810_OP_RDMA_READ, sizes[i], seed++);
    }
    assert_int_equal(stats(w, 0)->crc_errors + stats(w, 1)->crc_errors, 0);
    assert_int_equal(stats(w, 0)->terms_sent + stats(w, 1)->terms_sent, 0);
    assert_int_equal(stats(w, 0)->retransmits + stats(w, 1)->retransmits, 0);
    if (mode == MODE_SPLIT) {
        assert_true(w->split > 500);
    }
    if (mode == MODE_COALESCE) {
        assert_true(w->coalesced > 100);
    }
    iw_free(w);
}

static void test_connect(void **state)
{
    Iw *w = iw_new(MODE_PLAIN);

    /* The LSMM went out as raw stream bytes; the RTT as one FPDU. */
    assert_int_equal(stats(w, 1)->offloads, 1);
    assert_int_equal(stats(w, 1)->fpdus_rx, 1);
    assert_int_equal(w->b->h[0]->core.iw->by_qp[w->qp[0].id]->snd_una,
                     w->b->h[1]->core.iw->by_qp[w->qp[1].id]->rcv_nxt);
    assert_int_equal(w->b->h[1]->core.iw->by_qp[w->qp[1].id]->snd_una,
                     ISN_B + MPA_REP_LEN);
    iw_free(w);
}

static void test_sizes(void **state)
{
    run_sizes(MODE_PLAIN);
}

static void test_split(void **state)
{
    run_sizes(MODE_SPLIT);
}

static void test_coalesce(void **state)
{
    run_sizes(MODE_COALESCE);
}

static void test_loss(void **state)
{
    Iw *w = iw_new(MODE_PLAIN);

    w->data_seen = 0;
    w->drop_data = 3;
    xfer(w, E810_OP_SEND, 20000, 77);
    assert_int_equal(w->dropped, 1);
    assert_true(stats(w, 0)->retransmits >= 1);
    assert_true(stats(w, 1)->rx_ooo >= 1);
    w->data_seen = 0;
    w->drop_data = 1;
    xfer(w, E810_OP_RDMA_WRITE, 3000, 78);
    assert_int_equal(w->dropped, 2);
    iw_free(w);
}

static void test_fin(void **state)
{
    Iw *w = iw_new(MODE_PLAIN);

    /* rdma_disconnect(): the QP to SQD = CLOSING; FIN after the SQ. */
    assert_true(modify(&w->qp[0], E810_QP_STATE_SQD, 0));
    run(w);
    assert_int_equal(stats(w, 0)->tx_fin, 1);
    expect_ae(w, 1, E810_AE_LLP_FIN_RECEIVED, 6);
    /* irdma answers AE 0x0503 with CLOSING: the other FIN. */
    assert_true(modify(&w->qp[1], E810_QP_STATE_SQD, 0));
    run(w);
    expect_ae(w, 0, E810_AE_LLP_CLOSE_COMPLETE, 11);
    expect_ae(w, 1, E810_AE_LLP_CLOSE_COMPLETE, 1);
    iw_free(w);
}

static void test_rst(void **state)
{
    Iw *w = iw_new(MODE_PLAIN);

    assert_true(modify(&w->qp[0], E810_QP_STATE_ERROR,
                       E810_CQPSQ_QP_RESETCON));
    run(w);
    assert_int_equal(stats(w, 0)->tx_rst, 1);
    expect_ae(w, 1, E810_AE_LLP_CONNECTION_RESET, 1);
    iw_free(w);
}

static void test_bad_crc(void **state)
{
    Iw *w = iw_new(MODE_PLAIN);
    E810Sge sge = { w->buf[1], 4096, w->key[1] };
    uint64_t info;
    DpSend s;
    DpCqe e;

    dp_post_recv(&w->qp[1], &sge, 1);
    w->data_seen = 0;
    w->corrupt_data = 1;
    memset(&s, 0, sizeof(s));
    s.op = E810_OP_SEND;
    s.signaled = true;
    s.nsge = 1;
    s.sge[0] = (E810Sge){ w->buf[0], 1000, w->key[0] };
    dp_post_send(&w->qp[0], &s);
    dp_ring(&w->qp[0], true);
    run(w);
    assert_int_equal(stats(w, 1)->crc_errors, 1);
    /* Nothing placed: no RQ CQE. The driver's MPA CRC Terminate. */
    assert_false(dp_poll_cq(&w->rcq[1], &e));
    info = term_flow(w, 1, E810_AE_LLP_RECEIVED_MPA_CRC_ERROR, 2 << 4 | 3, 2);
    assert_true(FIELD_GET(E810_AEQE_Q2DATA, info));
    iw_free(w);
}

/*
 * A bad STag in a WRITE: AE 0x0102 (another STag index) with the QP in
 * RTS and the tagged segment in Q2, nothing more placed and no new SQ
 * work framed until the driver terminates (Terminate, FIN, ERROR).
 */
static void test_bad_stag(void **state)
{
    Iw *w = iw_new(MODE_PLAIN);
    E810Sge sge = { w->buf[1], 4096, w->key[1] };
    uint64_t fpdus;
    const uint8_t *pkt;
    DpSend s;
    DpCqe e;

    memset(&s, 0, sizeof(s));
    s.op = E810_OP_RDMA_WRITE;
    s.signaled = true;
    s.nsge = 1;
    s.sge[0] = (E810Sge){ w->buf[0], 100, w->key[0] };
    s.remote_va = w->buf[1];
    s.rkey = w->key[1] ^ 0x100;         /* another index */
    dp_post_send(&w->qp[0], &s);
    dp_ring(&w->qp[0], true);
    run(w);
    /* TCP acknowledged the WRITE: it completed on the sender. */
    expect_sq(w, 0, E810_OP_RDMA_WRITE);
    assert_int_equal(w->term_frames[1], 0);
    /* The offending segment in side 1's Q2: tagged, the bad STag. */
    pkt = q2_mpa(w, 1);
    assert_int_equal(pkt[0] << 8 | pkt[1], 14 + 100);
    assert_int_equal(pkt[2], 0x80 | 0x40 | 0x01);
    assert_int_equal(get32(pkt + 4), w->key[1] ^ 0x100);
    /* A SEND now is acknowledged but not placed; side 1's SQ holds. */
    dp_post_recv(&w->qp[1], &sge, 1);
    s.op = E810_OP_SEND;
    dp_post_send(&w->qp[0], &s);
    dp_ring(&w->qp[0], true);
    fpdus = stats(w, 0)->fpdus_rx;
    s.sge[0] = (E810Sge){ w->buf[1], 100, w->key[1] };
    dp_post_send(&w->qp[1], &s);
    dp_ring(&w->qp[1], true);
    run(w);
    assert_false(dp_poll_cq(&w->rcq[1], &e));
    assert_false(dp_poll_cq(&w->scq[1], &e));
    assert_int_equal(stats(w, 0)->fpdus_rx, fpdus);
    /* DDP tagged buffer error, invalid STag (irdma_bld_terminate_hdr()). */
    term_flow(w, 1, E810_AE_AMP_UNALLOCATED_STAG, 1 << 4 | 1, 0);
    assert_int_equal(stats(w, 0)->terms_rcvd, 1);
    {
        /* The copy of the DDP header in the Terminate side 0 got. */
        const uint8_t *t = q2_mpa(w, 0) + 2 + 18;

        assert_int_equal(t[2], 0x80 | 0x40);
        assert_int_equal(t[4] << 8 | t[5], 14 + 100);
        assert_int_equal(get32(t + 8), w->key[1] ^ 0x100);
    }
    iw_free(w);
}

/*
 * rdma_disconnect() (CLOSING) of a QP whose stream stopped on an error,
 * before the driver's Terminate: the FIN goes out even with SQ work
 * framed in part (a WRITE larger than the send ring), which is dropped
 * and left to the driver's flush.
 */
static void test_close_after_error(void **state)
{
    Iw *w = iw_new(MODE_PLAIN);
    DpSend s;

    /* Side 1 starts a WRITE larger than its send ring... */
    memset(&s, 0, sizeof(s));
    s.op = E810_OP_RDMA_WRITE;
    s.signaled = true;
    s.nsge = 1;
    s.sge[0] = (E810Sge){ w->buf[1], 600000, w->key[1] };
    s.remote_va = w->buf[0];
    s.rkey = w->key[0];
    dp_post_send(&w->qp[1], &s);
    /* ...and side 0 a WRITE through a bad STag, both before any run. */
    s.sge[0] = (E810Sge){ w->buf[0], 100, w->key[0] };
    s.remote_va = w->buf[1];
    s.rkey = w->key[1] ^ 0x100;
    dp_post_send(&w->qp[0], &s);
    dp_ring(&w->qp[0], true);
    dp_ring(&w->qp[1], true);
    run(w);
    expect_ae(w, 1, E810_AE_AMP_UNALLOCATED_STAG, 5);
    assert_true(conn(w, 1)->failed);
    assert_int_equal(stats(w, 1)->tx_fin, 0);
    assert_true(modify(&w->qp[1], E810_QP_STATE_SQD, 0));
    run(w);
    assert_int_equal(stats(w, 1)->tx_fin, 1);
    expect_ae(w, 0, E810_AE_LLP_FIN_RECEIVED, 6);
    iw_free(w);
}

/*
 * The device failed the QP on its own (the retry limit, AE 0x050A, the
 * QP in ERROR) while upstream irdma, still holding it in RTS, answers the
 * AE with TERMINATE (irdma_terminate_connection()), or rdma_disconnect()
 * with CLOSING: refused with Invalid State, which irdma_hw_modify_qp()
 * expects, so counted as a late close and not as a bad transition; the
 * ERROR with RESETCON that follows passes.
 */
static void test_late_close(void **state)
{
    Iw *w = iw_new(MODE_PLAIN);
    E810Core *c0 = &HS(w, 0)->core;
    uint64_t bad = c0->rdma.stats.bad_qp_transitions;
    DpSend s;

    w->blackhole = true;
    memset(&s, 0, sizeof(s));
    s.op = E810_OP_RDMA_WRITE;
    s.signaled = true;
    s.nsge = 1;
    s.sge[0] = (E810Sge){ w->buf[0], 100, w->key[0] };
    s.remote_va = w->buf[1];
    s.rkey = w->key[1];
    dp_post_send(&w->qp[0], &s);
    dp_ring(&w->qp[0], true);
    run_for(w, 120000000000ull);
    expect_ae(w, 0, E810_AE_LLP_TOO_MANY_RETRIES, 1);
    assert_int_equal(e810_qp_get(c0, w->qp[0].id)->state,
                     E810_QP_STATE_ERROR);
    assert_false(modify(&w->qp[0], E810_QP_STATE_TERMINATE,
                        FIELD_PREP(E810_CQPSQ_QP_TERMACT, 1)));
    assert_false(modify(&w->qp[0], E810_QP_STATE_SQD, 0));
    assert_int_equal(stats(w, 0)->late_closes, 2);
    assert_int_equal(c0->rdma.stats.bad_qp_transitions, bad);
    /* Anything else out of ERROR is still a bad transition. */
    assert_false(modify(&w->qp[0], E810_QP_STATE_RTS, 0));
    assert_int_equal(c0->rdma.stats.bad_qp_transitions, bad + 1);
    assert_int_equal(stats(w, 0)->late_closes, 2);
    /* irdma's fallback: ERROR with RESETCON. */
    assert_true(modify(&w->qp[0], E810_QP_STATE_ERROR,
                       E810_CQPSQ_QP_RESETCON));
    run(w);
    iw_free(w);
}

/* The same over IPv6, and between two QPs of one device (loopback). */
static void run_variant(bool v6, bool loop)
{
    Iw *w = iw_new_opt(MODE_PLAIN, v6, loop);
    uint32_t seed = 500 + v6 * 10 + loop;
    static const uint32_t len[] = { 0, 7, 1404, 70000 };
    unsigned i;

    for (i = 0; i < 4; i++) {
        xfer(w, E810_OP_SEND, len[i], seed++);
        xfer(w, E810_OP_RDMA_WRITE, len[i], seed++);
        xfer(w, E810_OP_RDMA_READ, len[i], seed++);
    }
    if (loop) {
        assert_int_equal(w->delivered + w->not_taken, 0);
    } else {
        assert_true(w->delivered > 50);
    }
    assert_true(stats(w, 0)->fpdus_rx > 10);
    iw_free(w);
}

static void test_ipv6(void **state)
{
    run_variant(true, false);
}

static void test_loopback(void **state)
{
    run_variant(false, true);
}

/*
 * A segment an offloaded connection sends to our own MAC for a 4-tuple
 * that is not offloaded (the peer still in the driver's CM, its MPA reply
 * due on the ILQ) goes through the device's receive path, not lost.
 */
static void test_loopback_not_offloaded(void **state)
{
    Iw *w = iw_new_opt(MODE_PLAIN, false, true);
    E810Core *core = &HS(w, 0)->core;
    uint64_t gorc = core->hwstats.port.gorc;
    uint64_t not_ours = core->iw->stats.rx_not_ours;
    uint8_t f[60] = { 0 };

    memcpy(f, core->mac, 6);
    memcpy(f + 6, core->mac, 6);
    put16(f + 12, 0x0800);
    f[14] = 0x45;
    put16(f + 16, 40);
    f[22] = 64;
    f[23] = 6;
    put32(f + 26, B2B_IP(0));
    put32(f + 30, B2B_IP(0));
    put16(f + 34, PORT_B);
    put16(f + 36, PORT_B + 1);      /* no connection has this port */
    f[46] = 5 << 4;
    f[47] = 0x18;                   /* PSH, ACK */
    e810_iw_loop(core, f, sizeof(f));
    assert_int_equal(core->iw->stats.rx_not_ours, not_ours + 1);
    assert_true(core->hwstats.port.gorc > gorc);
    iw_free(w);
}

/* The peer vanishes: REXMIT_THRESH timeouts, then AE 0x050A. */
static void test_retry_limit(void **state)
{
    Iw *w = iw_new(MODE_PLAIN);
    uint64_t t0 = w->b->h[0]->now_ns;
    DpSend s;
    DpCqe e;

    w->blackhole = true;
    memset(&s, 0, sizeof(s));
    s.op = E810_OP_RDMA_WRITE;
    s.signaled = true;
    s.nsge = 1;
    s.sge[0] = (E810Sge){ w->buf[0], 5000, w->key[0] };
    s.remote_va = w->buf[1];
    s.rkey = w->key[1];
    dp_post_send(&w->qp[0], &s);
    dp_ring(&w->qp[0], true);
    run_for(w, 120000000000ull);
    /*
     * 8 retransmissions, the RTO doubling from 200 ms (the set-up's RTT
     * samples on an instant wire: SRTT + the 200 ms floor): 0.2 + 0.4 +
     * ... + 25.6 s, then the ninth timeout (51.2 s) fails the QP.
     */
    assert_int_equal(stats(w, 0)->timeouts, 9);
    assert_int_equal(stats(w, 0)->retransmits, 8);
    assert_true(w->b->h[0]->now_ns - t0 >= 102200000000ull);
    assert_true(w->b->h[0]->now_ns - t0 < 103000000000ull);
    expect_ae(w, 0, E810_AE_LLP_TOO_MANY_RETRIES, 1);
    /* The WRITE is flushed with an error CQE. */
    assert_true(dp_poll_cq(&w->scq[0], &e));
    assert_true(e.error);
    iw_free(w);
}

/*
 * The driver's own Terminate (irdma_terminate_connection()): its header
 * in Q2, MODIFY_QP -> TERMINATE with TERMACT 1 (Terminate only), AE
 * 0x0602; then TERMINATE again with TERMACT 2 (FIN only).
 */
static void test_driver_terminate(void **state)
{
    Iw *w = iw_new(MODE_PLAIN);
    uint64_t q2 = le64toh(dp_qp_ctx(&w->qp[0])[E810_QW(144)]) & ~0xffull;
    uint64_t q2b = le64toh(dp_qp_ctx(&w->qp[1])[E810_QW(144)]) & ~0xffull;
    uint8_t *th = mem_ptr(HS(w, 0), q2);
    const uint8_t *t;

    th[0] = 0x12;       /* RDMAP remote operation... */
    th[1] = 0x05;       /* ...invalid RDMAP version */
    assert_true(modify(&w->qp[0], E810_QP_STATE_TERMINATE,
                       FIELD_PREP(E810_CQPSQ_QP_TERMACT, 1)));
    run(w);
    expect_ae(w, 0, E810_AE_TERMINATE_SENT, 5);
    expect_ae(w, 1, E810_AE_LLP_TERMINATE_RECEIVED, 5);
    t = mem_ptr(HS(w, 1), q2b + 72 + 14 + 20 + 20 + 2);
    assert_int_equal(t[18], 0x12);
    assert_int_equal(t[19], 0x05);
    assert_int_equal(stats(w, 0)->tx_fin, 0);
    assert_true(modify(&w->qp[0], E810_QP_STATE_TERMINATE,
                       FIELD_PREP(E810_CQPSQ_QP_TERMACT, 2)));
    run(w);
    assert_int_equal(stats(w, 0)->tx_fin, 1);
    expect_ae(w, 1, E810_AE_LLP_FIN_RECEIVED, 6);
    iw_free(w);
}

/*
 * RFC 6298 against a peer that delays its ACKs (Linux's delayed ACK is up
 * to 200 ms, and a TCG guest's timers run late): the samples raise SRTT
 * and RTTVAR, so an ACK 240 ms late is no loss once a few came in. A
 * fixed 200 ms RTO retransmitted each of those WRITEs.
 */
static void test_rto_delayed_ack(void **state)
{
    static const unsigned delay_ms[] = { 100, 180, 240, 240, 240, 240 };
    Iw *w = iw_new(MODE_PLAIN);
    E810IwConn *c = conn(w, 0);
    uint64_t samples = c->rtt_samples, var;
    unsigned i;

    for (i = 0; i < sizeof(delay_ms) / sizeof(delay_ms[0]); i++) {
        w->delay_ns[1] = delay_ms[i] * 1000000ull;
        xfer(w, E810_OP_RDMA_WRITE, 1000, 300 + i);
    }
    assert_int_equal(stats(w, 0)->timeouts, 0);
    assert_int_equal(stats(w, 0)->retransmits, 0);
    /* One sample per WRITE (one segment each, never sent twice). */
    assert_int_equal(c->rtt_samples, samples + 6);
    /* SRTT between the smallest and the largest delay, RTO per 2.3. */
    assert_true(c->srtt_ns > 50000000ull && c->srtt_ns < 240000000ull);
    var = 4 * c->rttvar_ns > 200000000ull ? 4 * c->rttvar_ns : 200000000ull;
    assert_int_equal(c->rto_ns, c->srtt_ns + var);
    assert_true(c->rto_ns > 240000000ull);
    iw_free(w);
}

/*
 * Karn's rule and the backoff (RFC 6298 5.5, 5.7): a lost segment is
 * retransmitted after the RTO, which doubles; the ACK of the copy gives
 * no RTT sample and leaves the RTO backed off; the next new segment is
 * timed again and its ACK brings the RTO back from SRTT and RTTVAR.
 */
static void test_rto_karn(void **state)
{
    Iw *w = iw_new(MODE_PLAIN);
    E810IwConn *c = conn(w, 0);
    uint64_t samples = c->rtt_samples, rto0 = c->rto_ns;

    assert_true(samples >= 1);              /* the set-up's exchange */
    assert_int_equal(rto0, 200000000ull);   /* SRTT 0 + the floor */
    w->data_seen = 0;
    w->drop_data = 1;
    w->delay_ns[1] = 30000000ull;           /* every ACK 30 ms late */
    xfer(w, E810_OP_RDMA_WRITE, 1000, 310);
    assert_int_equal(w->dropped, 1);
    assert_int_equal(stats(w, 0)->timeouts, 1);
    assert_int_equal(stats(w, 0)->retransmits, 1);
    assert_int_equal(c->rtt_samples, samples);
    assert_int_equal(c->rto_ns, 2 * rto0);
    xfer(w, E810_OP_RDMA_WRITE, 1000, 311);
    assert_int_equal(c->rtt_samples, samples + 1);
    /* First sample after 0s: 30 ms; SRTT 30/8, RTTVAR 30/4 -> the floor. */
    assert_int_equal(c->srtt_ns, 30000000ull / 8);
    assert_int_equal(c->rto_ns, 30000000ull / 8 + 200000000ull);
    assert_int_equal(stats(w, 0)->timeouts, 1);
    iw_free(w);
}

/* The receiver closes its window; probes find it open again. */
static void test_zero_window(void **state)
{
    Iw *w = iw_new(MODE_PLAIN);

    w->zero_win = 2;
    xfer(w, E810_OP_RDMA_WRITE, 20000, 91);
    assert_true(stats(w, 0)->probes >= 1);
    assert_int_equal(stats(w, 0)->retransmits, 0);
    iw_free(w);
}

/* A SEND with no receive posted: no RNR in iWARP, AE 0x0306, Terminate. */
static void test_no_rwqe(void **state)
{
    Iw *w = iw_new(MODE_PLAIN);
    DpSend s;
    DpCqe e;

    memset(&s, 0, sizeof(s));
    s.op = E810_OP_SEND;
    s.signaled = true;
    s.nsge = 1;
    s.sge[0] = (E810Sge){ w->buf[0], 64, w->key[0] };
    dp_post_send(&w->qp[0], &s);
    dp_ring(&w->qp[0], true);
    run(w);
    /* The sender's SEND was acknowledged by TCP: it completed. */
    assert_true(dp_poll_cq(&w->scq[0], &e));
    assert_false(e.error);
    /* DDP untagged buffer error, no buffer (irdma_bld_terminate_hdr()). */
    term_flow(w, 1, E810_AE_DDP_UBE_INVALID_MSN_NO_BUFFER_AVAILABLE,
              1 << 4 | 2, 2);
    iw_free(w);
}

/* More READs than ORD: they wait, then all complete in order. */
static void test_ord(void **state)
{
    Iw *w = iw_new(MODE_PLAIN);
    unsigned i;
    DpCqe e;

    ctx_rmw(&w->qp[0], 160, E810_QPC_ORDSIZE, 2);
    w->b->h[0]->core.iw->by_qp[w->qp[0].id]->o.ord = 2;
    b2b_fill(bufp(w, 1, 0), 8 * 4096, 99);
    for (i = 0; i < 8; i++) {
        DpSend s;

        memset(&s, 0, sizeof(s));
        s.op = E810_OP_RDMA_READ;
        s.signaled = true;
        s.nsge = 1;
        s.sge[0] = (E810Sge){ w->buf[0] + 4096 * i, 4096, w->key[0] };
        s.remote_va = w->buf[1] + 4096 * i;
        s.rkey = w->key[1];
        dp_post_send(&w->qp[0], &s);
    }
    dp_ring(&w->qp[0], true);
    run(w);
    for (i = 0; i < 8; i++) {
        assert_true(dp_poll_cq(&w->scq[0], &e));
        assert_false(e.error);
        assert_int_equal(e.op, E810_OP_RDMA_READ);
    }
    assert_true(b2b_check(bufp(w, 0, 0), 8 * 4096, 99));
    assert_int_equal(stats(w, 1)->read_reqs, 8);
    iw_free(w);
}

/* SEND with invalidate: the responder's STag goes, the CQE says which. */
static void test_send_inv(void **state)
{
    Iw *w = iw_new(MODE_PLAIN);
    uint32_t stag = dp_mr_buf(&w->b->dev[1], DP_PD, w->buf[1] + 65536, 4096,
                              B2B_ALL_RIGHTS);
    E810Sge sge = { w->buf[1], 4096, w->key[1] };
    DpSend s;
    DpCqe e;

    dp_post_recv(&w->qp[1], &sge, 1);
    memset(&s, 0, sizeof(s));
    s.op = E810_OP_SEND_INV;
    s.signaled = true;
    s.nsge = 1;
    s.sge[0] = (E810Sge){ w->buf[0], 100, w->key[0] };
    s.rkey = stag;
    dp_post_send(&w->qp[0], &s);
    dp_ring(&w->qp[0], true);
    run(w);
    expect_sq(w, 0, E810_OP_SEND_INV);
    assert_true(dp_poll_cq(&w->rcq[1], &e));
    assert_false(e.error);
    assert_true(e.stag_or_ipv4);
    assert_int_equal(e.q2_low, stag);
    /* A WRITE through the invalidated STag is refused now. */
    memset(&s, 0, sizeof(s));
    s.op = E810_OP_RDMA_WRITE;
    s.signaled = true;
    s.nsge = 1;
    s.sge[0] = (E810Sge){ w->buf[0], 100, w->key[0] };
    s.remote_va = w->buf[1] + 65536;
    s.rkey = stag;
    dp_post_send(&w->qp[0], &s);
    dp_ring(&w->qp[0], true);
    run(w);
    /* RDMAP remote protection error, invalid STag: the peer ends at once
     * (irdma_terminate_received()). */
    term_flow(w, 1, E810_AE_AMP_INVALID_STAG, 0 << 4 | 1, 0);
    iw_free(w);
}

/*
 * The engine's CRC32c (SSE4.2 where the host has it) against the
 * embedder's (here host_crc32c.c, a byte at a time): every length to 300
 * from every alignment mod 8, continued over two calls, and RFC 3720's
 * 32 bytes of zeros.
 */
static void test_crc32c_fast(void **state)
{
    static const uint8_t zeros[32];
    uint8_t buf[320];
    unsigned len, off, cut;

    for (len = 0; len < sizeof(buf); len++) {
        buf[len] = (uint8_t)(len * 131 + 7);
    }
    assert_int_equal(e810_iw_crc32c(0, zeros, 32), 0x8a9136aau);
    for (off = 0; off < 8; off++) {
        for (len = 0; len + off <= 300; len++) {
            uint32_t want = e810_crc32c(0, buf + off, len);

            assert_int_equal(e810_iw_crc32c(0, buf + off, len), want);
            cut = len / 3;
            assert_int_equal(e810_iw_crc32c(e810_iw_crc32c(0, buf + off, cut),
                                            buf + off + cut, len - cut),
                             want);
        }
    }
}

/* QMP x-iwarp-stats: live connections first, then the counters. */
/*
 * RDMA WRITE with immediate (IRDMA_WRITE_WITH_IMM, the one immediate
 * upstream irdma allows on iWARP QPs): the WRITE, then an RFC 7306
 * Immediate Data message that takes the peer's RQ WQE; its CQE carries
 * the immediate (IMMVALID), length 0, SE for a solicited WRITE.
 */
static void test_write_imm(void **state)
{
    Iw *w = iw_new(MODE_SPLIT);
    static const uint32_t len[] = { 0, 5000 };
    unsigned i;

    for (i = 0; i < 2; i++) {
        E810Sge sge = { w->buf[1] + 512 * 1024, 64, w->key[1] };
        DpSend s;
        DpCqe e;

        b2b_fill(bufp(w, 0, 0), len[i], 900 + i);
        memset(bufp(w, 1, 0), 0, len[i] + 64);
        dp_post_recv(&w->qp[1], &sge, 1);
        memset(&s, 0, sizeof(s));
        s.op = i ? E810_OP_RDMA_WRITE_SOL : E810_OP_RDMA_WRITE;
        s.signaled = true;
        s.imm_valid = true;
        s.imm = 0xdead0000u + i;
        s.nsge = 1;
        s.sge[0] = (E810Sge){ w->buf[0], len[i], w->key[0] };
        s.remote_va = w->buf[1];
        s.rkey = w->key[1];
        dp_post_send(&w->qp[0], &s);
        dp_ring(&w->qp[0], true);
        run(w);
        expect_sq(w, 0, s.op);
        assert_true(b2b_check(bufp(w, 1, 0), len[i], 900 + i));
        assert_true(dp_poll_cq(&w->rcq[1], &e));
        assert_false(e.error);
        assert_false(e.sq);
        assert_true(e.imm_valid);
        assert_int_equal(e.imm, 0xdead0000u + i);
        assert_int_equal(e.len, 0);
        assert_int_equal(e.solicited, i);
        assert_false(dp_poll_cq(&w->rcq[1], &e));
    }
    assert_int_equal(stats(w, 0)->imm_tx, 2);
    assert_int_equal(stats(w, 1)->imm_rx, 2);
    /* The Immediate Data took MSNs of queue 0: a SEND after it works. */
    xfer(w, E810_OP_SEND, 3000, 910);
    assert_int_equal(stats(w, 0)->terms_sent + stats(w, 1)->terms_sent, 0);
    iw_free(w);
}

/* WRITE with immediate and no RQ WQE posted: as a SEND's, AE 0x0306. */
static void test_write_imm_no_rwqe(void **state)
{
    Iw *w = iw_new(MODE_PLAIN);
    DpSend s;

    memset(&s, 0, sizeof(s));
    s.op = E810_OP_RDMA_WRITE;
    s.signaled = true;
    s.imm_valid = true;
    s.imm = 7;
    s.nsge = 1;
    s.sge[0] = (E810Sge){ w->buf[0], 64, w->key[0] };
    s.remote_va = w->buf[1];
    s.rkey = w->key[1];
    dp_post_send(&w->qp[0], &s);
    dp_ring(&w->qp[0], true);
    run(w);
    expect_sq(w, 0, E810_OP_RDMA_WRITE);
    term_flow(w, 1, E810_AE_DDP_UBE_INVALID_MSN_NO_BUFFER_AVAILABLE,
              1 << 4 | 2, 2);
    iw_free(w);
}

/*
 * SEND with immediate has no iWARP form (upstream irdma_create_qp() gives
 * iWARP QPs no IRDMA_SEND_WITH_IMM): refused with an error CQE and AE
 * 0x020A, nothing sent without it.
 */
static void test_send_imm_refused(void **state)
{
    Iw *w = iw_new(MODE_PLAIN);
    E810Sge sge = { w->buf[1], 4096, w->key[1] };
    uint64_t fpdus = stats(w, 1)->fpdus_rx;
    DpSend s;
    DpCqe e;

    dp_post_recv(&w->qp[1], &sge, 1);
    memset(&s, 0, sizeof(s));
    s.op = E810_OP_SEND;
    s.signaled = true;
    s.imm_valid = true;
    s.imm = 7;
    s.nsge = 1;
    s.sge[0] = (E810Sge){ w->buf[0], 64, w->key[0] };
    dp_post_send(&w->qp[0], &s);
    dp_ring(&w->qp[0], true);
    run(w);
    assert_true(dp_poll_cq(&w->scq[0], &e));
    assert_true(e.error);
    expect_ae(w, 0, E810_AE_WQE_UNEXPECTED_OPCODE, 5);
    assert_int_equal(stats(w, 1)->fpdus_rx, fpdus);
    assert_false(dp_poll_cq(&w->rcq[1], &e));
    iw_free(w);
}

static void test_format_stats(void **state)
{
    Iw *w = iw_new(MODE_PLAIN);
    E810Core *c0 = &HS(w, 0)->core;
    char buf[1024], want[64];
    int n;

    xfer(w, E810_OP_RDMA_WRITE, 5000, 91);
    n = e810_iw_format_stats(c0, buf, sizeof(buf));
    assert_true(n > 0 && (size_t)n < sizeof(buf));
    assert_int_equal(e810_iw_format_stats(c0, NULL, 0), n);
    assert_int_equal(strncmp(buf, "conns=1 offloads=1 ", 19), 0);
    snprintf(want, sizeof(want), " tx_bytes=%llu ",
             (unsigned long long)stats(w, 0)->tx_bytes);
    assert_non_null(strstr(buf, want));
    /* Reset: the connection is kept until DESTROY_QP of its QP. */
    assert_true(modify(&w->qp[0], E810_QP_STATE_ERROR,
                       E810_CQPSQ_QP_RESETCON));
    run(w);
    e810_iw_format_stats(c0, buf, sizeof(buf));
    assert_int_equal(strncmp(buf, "conns=1 ", 8), 0);
    assert_non_null(strstr(buf, " tx_rst=1 "));
    e810_iw_conn_destroy(c0, w->qp[0].id);
    e810_iw_format_stats(c0, buf, sizeof(buf));
    assert_int_equal(strncmp(buf, "conns=0 offloads=1 ", 19), 0);
    iw_free(w);
}

/*
 * x-iwarp-conns: one line per offloaded connection with its ports, TCP
 * state and what it still holds; the FIN the driver asks for shows as
 * sent, an RST as rst_sent; nothing once the connection is gone.
 */
static void test_format_conns(void **state)
{
    Iw *w = iw_new(MODE_PLAIN);
    E810Core *c0 = &HS(w, 0)->core;
    char buf[512], want[192];
    int n;

    xfer(w, E810_OP_RDMA_WRITE, 5000, 91);
    n = e810_iw_format_conns(c0, buf, sizeof(buf));
    assert_true(n > 0 && (size_t)n < sizeof(buf));
    assert_int_equal(e810_iw_format_conns(c0, NULL, 0), n);
    assert_null(strchr(buf, ';'));
    snprintf(want, sizeof(want), "qp=%u lport=%u rport=%u tcp=5 unacked=0 "
             "unsent=0 txq=0 rdq=0 ord_out=0 fin=none fin_rcvd=0 rst_sent=0 "
             "term=none failed=0", w->qp[0].id, PORT_A, PORT_B);
    assert_string_equal(buf, want);
    /* a short buffer gets what fits, terminated */
    assert_int_equal(e810_iw_format_conns(c0, buf, 8), n);
    assert_int_equal(strlen(buf), 7);
    assert_true(modify(&w->qp[0], E810_QP_STATE_SQD, 0));
    run(w);
    e810_iw_format_conns(c0, buf, sizeof(buf));
    assert_non_null(strstr(buf, " fin=sent "));
    assert_true(modify(&w->qp[0], E810_QP_STATE_ERROR,
                       E810_CQPSQ_QP_RESETCON));
    run(w);
    e810_iw_format_conns(c0, buf, sizeof(buf));
    assert_non_null(strstr(buf, " tcp=1 "));
    assert_non_null(strstr(buf, " rst_sent=1 "));
    e810_iw_conn_destroy(c0, w->qp[0].id);
    assert_int_equal(e810_iw_format_conns(c0, buf, sizeof(buf)), 0);
    assert_string_equal(buf, "");
    iw_free(w);
}

/*
 * The loss knob (e810_core_set_iwarp_drop_ppm()): both ends lose 2 % of
 * the segments they send (data, ACKs, READ requests and responses); the
 * engine's retransmission (fast retransmit, RTO with go-back-N) gets
 * every payload through intact, nothing is terminated, and the drops
 * are counted. Virtual time is printed: every loss the fast retransmit
 * does not cover costs an RTO of 200 ms.
 */
static void test_drop_knob(void **state)
{
    static const uint32_t lsizes[] = { 1, 1000, 1405, 5000, 65536, 300001,
                                       1000000 };
    Iw *w = iw_new(MODE_PLAIN);
    uint64_t t0 = w->b->h[0]->now_ns, segs = 0, drops = 0, bytes = 0;
    uint64_t timeouts = 0;
    uint32_t seed = 900;
    unsigned i, r, s;

    for (s = 0; s < 2; s++) {
        E810Core *core = &w->b->h[s]->core;

        assert_int_equal(e810_core_set_iwarp_drop_ppm(core, 1000001),
                         -EINVAL);
        assert_int_equal(e810_core_iwarp_drop_ppm(core), 0);
        assert_int_equal(e810_core_set_iwarp_drop_ppm(core, 20000), 0);
        assert_int_equal(e810_core_iwarp_drop_ppm(core), 20000);
    }
    w->run_ns = 60000000000ull;
    for (r = 0; r < 3; r++) {
        for (i = 0; i < sizeof(lsizes) / sizeof(lsizes[0]); i++) {
            xfer(w, E810_OP_SEND, lsizes[i], seed++);
            xfer(w, E810_OP_RDMA_WRITE, lsizes[i], seed++);
            xfer(w, E810_OP_RDMA_READ, lsizes[i], seed++);
            bytes += 3ull * lsizes[i];
        }
    }
    print_message("# %" PRIu64 " payload bytes in %" PRIu64
                  " ms of virtual time\n", bytes,
                  (w->b->h[0]->now_ns - t0) / 1000000);
    for (s = 0; s < 2; s++) {
        const E810IwConnStats *st = stats(w, s);

        print_message("# side %u: %" PRIu64 " segments, %" PRIu64
                      " dropped, %" PRIu64 " retransmits (%" PRIu64
                      " fast), %" PRIu64 " timeouts, %" PRIu64
                      " out of order received\n", s, st->tx_segs,
                      st->tx_dropped_injected, st->retransmits,
                      st->fast_retransmits, st->timeouts, st->rx_ooo);
        assert_true(st->tx_dropped_injected > 0);
        assert_true(st->retransmits > 0);
        assert_int_equal(st->terms_sent, 0);
        assert_int_equal(st->crc_errors, 0);
        segs += st->tx_segs;
        drops += st->tx_dropped_injected;
        timeouts += st->timeouts;
    }
    /*
     * Most losses are repaired by the fast retransmit, without waiting
     * for an RTO: only a loss with fewer than three segments behind it
     * (the tail of a message, a READ request, a lost ACK) needs the timer.
     */
    assert_true(timeouts * 4 < drops);
    /* 2 % of what was sent, within the draw's spread. */
    assert_true(drops * 1000 > segs * 10 && drops * 1000 < segs * 30);
    assert_int_equal(w->dropped, 0);    /* the wire lost nothing itself */
    /* Off again: nothing more is lost. */
    for (s = 0; s < 2; s++) {
        assert_int_equal(e810_core_set_iwarp_drop_ppm(&w->b->h[s]->core, 0),
                         0);
    }
    drops = stats(w, 0)->tx_dropped_injected +
            stats(w, 1)->tx_dropped_injected;
    xfer(w, E810_OP_RDMA_WRITE, 300001, seed++);
    assert_int_equal(stats(w, 0)->tx_dropped_injected +
                     stats(w, 1)->tx_dropped_injected, drops);
    iw_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_connect),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_coalesce),
        cmocka_unit_test(test_loss),
        cmocka_unit_test(test_fin),
        cmocka_unit_test(test_rst),
        cmocka_unit_test(test_bad_crc),
        cmocka_unit_test(test_bad_stag),
        cmocka_unit_test(test_late_close),
        cmocka_unit_test(test_close_after_error),
        cmocka_unit_test(test_ipv6),
        cmocka_unit_test(test_loopback),
        cmocka_unit_test(test_loopback_not_offloaded),
        cmocka_unit_test(test_retry_limit),
        cmocka_unit_test(test_driver_terminate),
        cmocka_unit_test(test_rto_delayed_ack),
        cmocka_unit_test(test_rto_karn),
        cmocka_unit_test(test_zero_window),
        cmocka_unit_test(test_no_rwqe),
        cmocka_unit_test(test_ord),
        cmocka_unit_test(test_send_inv),
        cmocka_unit_test(test_write_imm),
        cmocka_unit_test(test_write_imm_no_rwqe),
        cmocka_unit_test(test_send_imm_refused),
        cmocka_unit_test(test_crc32c_fast),
        cmocka_unit_test(test_format_stats),
        cmocka_unit_test(test_format_conns),
        cmocka_unit_test(test_drop_knob),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_iw_b2b", tests, NULL, NULL);
}
