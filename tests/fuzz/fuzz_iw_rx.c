/*
 * libFuzzer harness for the iWARP engine's receive path: a device with
 * one offloaded connection (an iWARP QP handed over with its TCP context,
 * receives posted, an MR with all rights) takes arbitrary frames, TCP
 * segments built around fuzzed payloads (any flags, sequence and ACK
 * numbers near the expected ones, any MPA bytes) and well-formed FPDUs
 * around fuzzed DDP/RDMAP headers (valid CRC, so the DDP/RDMAP checks are
 * reached), mixed with posted SQ work, deferred work and the clock moving
 * on so retransmission timers fire.
 *
 * The device comes up once; every input gets a fresh QP and connection
 * in the same slot and memory, destroyed at the end (DESTROY_QP), so a
 * crash reproduces from its input alone.
 *
 * Input: commands, one byte each followed by operands (see run_command).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../unit/model_harness.c"
#include "../unit/rdma_driver.c"
#include "../unit/dp_driver.c"
#include "cmocka_shim.c"

#include "e810_iw.h"
#include "e810_iw_conn.h"

#define BUF_LEN     65536
#define LPORT       4791
#define RPORT       40000
#define LIP         0x0a000001u
#define RIP         0x0a000002u
#define ISN_L       0x11110000u
#define ISN_R       0xfffffff0u     /* the peer's stream wraps at once */

typedef struct Rx {
    Harness *h;
    DpDev dev;
    DpCq cq;
    DpQp qp;
    uint64_t buf;
    uint32_t key;
    uint64_t mem_mark;
    uint8_t frame[2048];
    uint8_t seg[1600];
} Rx;

typedef struct Input {
    const uint8_t *p;
    size_t left;
} Input;

static const uint8_t peer_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x99 };

static uint32_t take(Input *in, unsigned n)
{
    uint32_t v = 0;

    while (n--) {
        v <<= 8;
        if (in->left) {
            v |= *in->p++;
            in->left--;
        }
    }
    return v;
}

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

static void ctx_rmw(DpQp *qp, unsigned off, uint64_t mask, uint64_t val)
{
    uint64_t *c = &dp_qp_ctx(qp)[E810_QW(off)];

    *c = htole64((le64toh(*c) & ~mask) | (val & mask));
}

static uint64_t mac_u64(const uint8_t *m)
{
    uint64_t v = 0;
    unsigned i;

    for (i = 0; i < 6; i++) {
        v = v << 8 | m[i];
    }
    return v;
}

static void bringup(Rx *rx)
{
    uint64_t q[8] = { 0 };

    memset(rx, 0, sizeof(*rx));
    rx->h = harness_new(0);
    if (!rx->h) {
        abort();
    }
    rd_protocol = E810_PROTOCOL_IWARP_ONLY;     /* iWARP QPs need iWARP mode */
    dp_dev_init(&rx->dev, rx->h);
    rd_protocol = E810_PROTOCOL_ROCE_ONLY;
    q[E810_QW(E810_CQPSQ_MAT_MAC_OFF)] =
        FIELD_PREP(E810_CQPSQ_MAT_MACADDR, mac_u64(peer_mac));
    rd_do(&rx->dev.d, E810_CQP_OP_MANAGE_ARP,
          FIELD_PREP(E810_CQPSQ_MAT_ARPENTRYIDX, 1) |
          E810_CQPSQ_MAT_ENTRYVALID, q);
    dp_cq_create(&rx->dev, &rx->cq, 4096);
    rx->buf = mem_alloc_aligned(rx->h, BUF_LEN, 4096);
    rx->key = dp_mr_buf(&rx->dev, DP_PD, rx->buf, BUF_LEN,
                        E810_ACCESS_LOCAL_READ | E810_ACCESS_LOCAL_WRITE |
                        E810_ACCESS_REMOTE_READ | E810_ACCESS_REMOTE_WRITE);
    rx->mem_mark = rx->h->mem_next;
}

static void post_recv(Rx *rx, unsigned slot)
{
    E810Sge sge = { rx->buf + (slot % 16) * 4096, 4096, rx->key };

    dp_post_recv(&rx->qp, &sge, 1);
}

/* A fresh QP, its TCP context (irdma_sc_qp_setctx()) and the offload. */
static void conn_create(Rx *rx, unsigned mss, unsigned ird_enc)
{
    uint64_t q[8] = { 0 };
    unsigned i;

    rx->h->mem_next = rx->mem_mark;
    rx->dev.next_qp = 10;
    dp_qp_create(&rx->dev, &rx->qp, E810_QP_TYPE_IWARP, &rx->cq, &rx->cq,
                 64, 16, 1, false, true);
    ctx_rmw(&rx->qp, 0, E810_QPC_IPV4 | 3, E810_QPC_IPV4 | 1);
    ctx_rmw(&rx->qp, 24, E810_QPC_TTL | E810_QPC_SRCPORTNUM |
            E810_QPC_DESTPORTNUM, 64 |
            FIELD_PREP(E810_QPC_SRCPORTNUM, LPORT) |
            FIELD_PREP(E810_QPC_DESTPORTNUM, RPORT));
    ctx_rmw(&rx->qp, 32, 0xffffffffull, RIP);
    ctx_rmw(&rx->qp, 184, 0xffffffffull, LIP);
    ctx_rmw(&rx->qp, 48, E810_QPC_SNDMSS | E810_QPC_ARPIDX,
            FIELD_PREP(E810_QPC_SNDMSS, mss) |
            FIELD_PREP(E810_QPC_ARPIDX, 1));
    ctx_rmw(&rx->qp, 56, GENMASK_ULL(43, 28),
            5ull << 28 | 2ull << 32 | 2ull << 40);
    ctx_rmw(&rx->qp, 80, ~0ull, (uint64_t)0x3fffc << 32 | ISN_L);
    ctx_rmw(&rx->qp, 88, ~0ull, (uint64_t)0x3fffc << 32 | ISN_R);
    ctx_rmw(&rx->qp, 96, ~0ull, (uint64_t)ISN_L << 32 | ISN_L);
    ctx_rmw(&rx->qp, 112, ~0ull, (uint64_t)(2 * mss) << 32 | 0x3fffffff);
    ctx_rmw(&rx->qp, 128, E810_QPC_REXMIT_THRESH,
            FIELD_PREP(E810_QPC_REXMIT_THRESH, 3));
    ctx_rmw(&rx->qp, 144, ~0xffull, mem_alloc_aligned(rx->h, 256, 256));
    ctx_rmw(&rx->qp, 160, E810_QPC_ORDSIZE | E810_QPC_IRDSIZE | BIT_ULL(20) |
            BIT_ULL(21) | BIT_ULL(28), 4 |
            FIELD_PREP(E810_QPC_IRDSIZE, ird_enc) | BIT_ULL(20) |
            BIT_ULL(21) | BIT_ULL(28));
    q[E810_QW(E810_CQPSQ_QP_CTX_OFF)] = rx->qp.ctx_pa;
    q[E810_QW(E810_CQPSQ_QP_DBSHADOW_OFF)] = rx->qp.shadow_pa;
    rd_do(&rx->dev.d, E810_CQP_OP_MODIFY_QP,
          FIELD_PREP(E810_CQPSQ_QP_QPID, rx->qp.id) |
          FIELD_PREP(E810_CQPSQ_QP_QPTYPE, E810_QP_TYPE_IWARP) |
          FIELD_PREP(E810_CQPSQ_QP_NEXTIWSTATE, E810_QP_STATE_RTS) |
          E810_CQPSQ_QP_TOECTXVALID | E810_CQPSQ_QP_CQNUMVALID, q);
    rx->qp.state = E810_QP_STATE_RTS;
    for (i = 0; i < 4; i++) {
        post_recv(rx, i);
    }
    dp_run(&rx->dev);
}

static void conn_destroy(Rx *rx)
{
    DpCqe e;
    DpAe ae;
    unsigned n = 0;

    dp_qp_destroy(&rx->qp);
    dp_run(&rx->dev);
    while (n++ < 10000 && dp_poll_cq(&rx->cq, &e)) {
    }
    n = 0;
    while (n++ < 10000 && dp_poll_ae(&rx->dev, &ae)) {
    }
}

static E810IwConn *conn(Rx *rx)
{
    return e810_iw_conn_of(&rx->h->core, rx->qp.id);
}

/* A TCP segment from the peer with @n payload bytes of rx->seg. */
static void segment(Rx *rx, uint32_t seq, uint32_t ack, uint8_t flags,
                    uint16_t win, uint32_t n)
{
    uint8_t *f = rx->frame, *ip = f + 14, *tcp = f + 34;
    size_t len;

    memcpy(f, rx->h->core.mac, 6);
    memcpy(f + 6, peer_mac, 6);
    put16(f + 12, 0x0800);
    memset(ip, 0, 40);
    ip[0] = 0x45;
    put16(ip + 2, (uint16_t)(40 + n));
    put16(ip + 6, 0x4000);
    ip[8] = 64;
    ip[9] = 6;
    put32(ip + 12, RIP);
    put32(ip + 16, LIP);
    put16(ip + 10, e810_iw_ip_csum(ip, 20));
    put16(tcp, RPORT);
    put16(tcp + 2, LPORT);
    put32(tcp + 4, seq);
    put32(tcp + 8, ack);
    tcp[12] = 5 << 4;
    tcp[13] = flags;
    put16(tcp + 14, win);
    memcpy(tcp + 20, rx->seg, n);
    put16(tcp + 16, e810_iw_tcp_csum(true, ip + 12, ip + 16, tcp, 20 + n));
    len = 54 + n < 60 ? 60 : 54 + n;
    e810_iw_conn_rx(&rx->h->core, f, len);
}

/* An FPDU around a fuzzed ULPDU of @ulen bytes (valid length and CRC). */
static uint32_t fpdu(Rx *rx, Input *in, uint32_t ulen)
{
    uint8_t *u = rx->seg + 2;
    uint32_t total = (2 + ulen + 3) & ~3u, crc, i;

    put16(rx->seg, (uint16_t)ulen);
    for (i = 0; i < ulen; i++) {
        u[i] = (uint8_t)take(in, 1);
    }
    /* Mostly version 1 with a plausible STag: the checks behind them. */
    if (ulen >= 2 && !(u[0] & 0x30)) {
        u[0] = (u[0] & 0xc0) | 1;
        u[1] = 0x40 | (u[1] & 0x0f);
    }
    if (ulen >= 6 && (u[0] & 0x80) && (u[2] & 1)) {
        put32(u + 2, rx->key);
    }
    memset(rx->seg + 2 + ulen, 0, total - 2 - ulen);
    crc = e810_crc32c(0, rx->seg, total);
    rx->seg[total] = (uint8_t)crc;
    rx->seg[total + 1] = crc >> 8;
    rx->seg[total + 2] = crc >> 16;
    rx->seg[total + 3] = crc >> 24;
    return total + 4;
}

static void run_command(Rx *rx, Input *in)
{
    unsigned cmd = take(in, 1);
    E810IwConn *c = conn(rx);
    uint32_t rcv = c ? c->rcv_nxt : 0, snd = c ? c->snd_nxt : 0;

    switch (cmd % 8) {
    case 0: {       /* a raw frame */
        uint32_t n = take(in, 2) % sizeof(rx->frame), i;

        for (i = 0; i < n; i++) {
            rx->frame[i] = (uint8_t)take(in, 1);
        }
        e810_iw_conn_rx(&rx->h->core, rx->frame, n);
        break;
    }
    case 1: {       /* a segment: fuzzed flags, numbers near the expected */
        uint8_t flags = (uint8_t)take(in, 1);
        int32_t ds = (int8_t)take(in, 1), da = (int8_t)take(in, 1);
        uint32_t n = take(in, 2) % 1400, i;

        for (i = 0; i < n; i++) {
            rx->seg[i] = (uint8_t)take(in, 1);
        }
        segment(rx, rcv + ds * 64, snd + da, flags,
                (uint16_t)take(in, 2), n);
        break;
    }
    case 2:         /* one well-formed FPDU, in order */
    case 3: {       /* ... cut in two segments */
        uint32_t ulen = take(in, 2) % 1300, n = fpdu(rx, in, ulen);
        uint32_t cut = cmd % 8 == 3 ? take(in, 2) % (n + 1) : n;

        if (cut) {
            segment(rx, rcv, snd, 0x18, 0xffff, cut);
        }
        if (cut < n) {
            memmove(rx->seg, rx->seg + cut, n - cut);
            segment(rx, rcv + cut, snd, 0x18, 0xffff, n - cut);
        }
        break;
    }
    case 4:         /* the clock: timers fire */
        harness_advance(rx->h, (uint64_t)take(in, 2) * 1000000ull);
        break;
    case 5: {       /* our own work: SEND, WRITE or READ */
        DpSend s;

        memset(&s, 0, sizeof(s));
        s.op = (unsigned[]){ E810_OP_SEND, E810_OP_RDMA_WRITE,
                             E810_OP_RDMA_READ, E810_OP_SEND_INV }
               [take(in, 1) % 4];
        s.signaled = true;
        s.nsge = 1;
        s.sge[0] = (E810Sge){ rx->buf, take(in, 2) % 8192, rx->key };
        s.remote_va = take(in, 4);
        s.rkey = take(in, 4);
        dp_post_send(&rx->qp, &s);
        dp_ring(&rx->qp, true);
        break;
    }
    case 6:         /* an ACK of everything sent, with a window */
        segment(rx, rcv, c ? c->snd_max : 0, 0x10,
                (uint16_t)take(in, 2), 0);
        break;
    default:
        post_recv(rx, take(in, 1));
        break;
    }
    harness_run_work(rx->h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Rx rx_state;
    static bool up;
    Rx *rx = &rx_state;
    Input in = { data, size };
    unsigned n = 0, mss;

    if (!up) {
        bringup(rx);
        up = true;
    }
    mss = 64 + take(&in, 2) % 1400;
    conn_create(rx, mss, take(&in, 1) % 8);
    while (in.left && n++ < 256) {
        run_command(rx, &in);
    }
    conn_destroy(rx);
    return 0;
}
