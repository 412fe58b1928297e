/*
 * libFuzzer harness for the RoCEv2 receive path of the device model:
 * arbitrary frames and crafted-then-mutated RoCE packets delivered through
 * the network entry point of a device with live QPs (an RC QP with posted
 * receives and sends in flight, a UD QP in a multicast group, an MR), with
 * the clock moved on in between so retransmission and RNR timers fire.
 *
 * The device is brought up for every input with the unit tests' driver
 * (model_harness.c, rdma_driver.c, dp_driver.c, compiled in here), so a
 * crash reproduces from its input alone. The drivers use cmocka asserts;
 * cmocka_shim.c turns a failing one into abort().
 *
 * Input: commands, one byte each followed by operands (see run_command).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../unit/model_harness.c"
#include "../unit/rdma_driver.c"
#include "../unit/dp_driver.c"
#include "cmocka_shim.c"

#include "e810_icrc.h"
#include "e810_roce_pkt.h"
#include "e810_xport.h"

#define PEER_QPN    77
#define QKEY        0x600dcafeu
#define MC_IP       0xef010101u
#define BUF_LEN     65536

typedef struct Rx {
    Harness *h;
    DpDev dev;
    DpCq cq;
    DpQp rc, ud;
    uint64_t buf;
    uint32_t key;
    uint32_t seq;
    uint64_t mem_mark;      /* test memory reused by every input */
} Rx;

typedef struct Input {
    const uint8_t *p;
    size_t left;
} Input;

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

static const uint8_t peer_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x99 };
static const uint8_t mc_mac[6] = { 0x01, 0x00, 0x5e, 0x01, 0x01, 0x01 };

static uint64_t mac_u64(const uint8_t *m)
{
    uint64_t v = 0;
    unsigned i;

    for (i = 0; i < 6; i++) {
        v = v << 8 | m[i];
    }
    return v;
}

static void ctx_rmw(DpQp *qp, unsigned off, uint64_t mask, uint64_t val)
{
    uint64_t *c = &dp_qp_ctx(qp)[E810_QW(off)];

    *c = htole64((le64toh(*c) & ~mask) | (val & mask));
}

static void post_recv(Rx *rx, DpQp *qp, unsigned slot)
{
    E810Sge sge = { rx->buf + (slot % 16) * 4096, 4096, rx->key };

    dp_post_recv(qp, &sge, 1);
}

/* Once per process: device, ARP entry, CQ, MR, multicast group. */
static void bringup(Rx *rx)
{
    uint64_t q[8] = { 0 };

    memset(rx, 0, sizeof(*rx));
    rx->h = harness_new(0);
    if (!rx->h) {
        abort();
    }
    dp_dev_init(&rx->dev, rx->h);
    rx->h->core.aq.pe_filter = true;
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

/*
 * Per input: a fresh RC QP (connected to a peer that does not exist) and
 * UD QP in the same slots and memory, with receives posted, and the
 * multicast group rebuilt around the UD QP.
 */
static void qps_create(Rx *rx)
{
    uint64_t q[8] = { 0 }, mg;
    unsigned i;

    /* Fresh rings are zeroed, as the driver allocates them: the last
     * input's WQEs would look valid to the new QP and run at RTS. */
    memset(rx->h->mem + rx->mem_mark, 0, rx->h->mem_next - rx->mem_mark);
    rx->h->mem_next = rx->mem_mark;
    rx->dev.next_qp = 10;
    rx->seq = 0;
    dp_qp_create(&rx->dev, &rx->rc, E810_QP_TYPE_ROCE_RC, &rx->cq, &rx->cq,
                 64, 16, 1, false, false);
    dp_qp_create(&rx->dev, &rx->ud, E810_QP_TYPE_ROCE_UD, &rx->cq, &rx->cq,
                 64, 16, 1, false, false);
    ctx_rmw(&rx->rc, E810_QPC_MSS_OFF, E810_QPC_SNDMSS | E810_QPC_ARPIDX,
            FIELD_PREP(E810_QPC_SNDMSS, 256) |
            FIELD_PREP(E810_QPC_ARPIDX, 1));
    ctx_rmw(&rx->rc, E810_QPC_DEST_OFF, E810_QPC_DESTQP,
            FIELD_PREP(E810_QPC_DESTQP, PEER_QPN));
    ctx_rmw(&rx->rc, E810_QPC_PSN_OFF, E810_QPC_PSNNXT, 100);
    ctx_rmw(&rx->rc, E810_QPC_EPSN_OFF, E810_QPC_EPSN, 0xfffffe);
    ctx_rmw(&rx->ud, E810_QPC_DEST_OFF, E810_QPC_QKEY,
            FIELD_PREP(E810_QPC_QKEY, QKEY));
    dp_qp_rts(&rx->rc);
    dp_qp_rts(&rx->ud);
    for (i = 0; i < 4; i++) {
        post_recv(rx, &rx->rc, i);
        post_recv(rx, &rx->ud, i);
    }
    mg = mem_alloc(rx->h, 64);
    *(uint64_t *)mem_ptr(rx->h, mg) =
        htole64(E810_MG_CTX_VALIDENT | FIELD_PREP(E810_MG_CTX_QPID,
                                                  rx->ud.id));
    rd_back_object(&rx->dev.d, E810_HMC_FSIMC, 2);
    q[E810_QW(E810_CQPSQ_MG_MAC_OFF)] =
        FIELD_PREP(E810_CQPSQ_MG_MAC, mac_u64(mc_mac));
    q[E810_QW(E810_CQPSQ_MG_CTX_OFF)] = mg;
    q[E810_QW(E810_CQPSQ_MG_DIP23_OFF)] = MC_IP;
    rd_do(&rx->dev.d, E810_CQP_OP_CREATE_MCAST_GRP,
          FIELD_PREP(E810_CQPSQ_MG_MGIDX, 2) | E810_CQPSQ_MG_IPV4VALID, q);
    dp_run(&rx->dev);
}

static void drain(Rx *rx);

static void qps_destroy(Rx *rx)
{
    uint64_t q[8] = { 0 };

    rd_do(&rx->dev.d, E810_CQP_OP_DESTROY_MCAST_GRP,
          FIELD_PREP(E810_CQPSQ_MG_MGIDX, 2) | E810_CQPSQ_MG_IPV4VALID, q);
    dp_qp_destroy(&rx->rc);
    dp_qp_destroy(&rx->ud);
    dp_run(&rx->dev);
    drain(rx);
}

static const uint8_t ops[] = {
    E810_BTH_RC_SEND_FIRST, E810_BTH_RC_SEND_MIDDLE, E810_BTH_RC_SEND_LAST,
    E810_BTH_RC_SEND_LAST_IMM, E810_BTH_RC_SEND_ONLY,
    E810_BTH_RC_SEND_ONLY_IMM, E810_BTH_RC_WRITE_FIRST,
    E810_BTH_RC_WRITE_MIDDLE, E810_BTH_RC_WRITE_LAST,
    E810_BTH_RC_WRITE_LAST_IMM, E810_BTH_RC_WRITE_ONLY,
    E810_BTH_RC_WRITE_ONLY_IMM, E810_BTH_RC_READ_REQ,
    E810_BTH_RC_READ_RESP_FIRST, E810_BTH_RC_READ_RESP_MIDDLE,
    E810_BTH_RC_READ_RESP_LAST, E810_BTH_RC_READ_RESP_ONLY,
    E810_BTH_RC_ACK, E810_BTH_RC_SEND_LAST_INV, E810_BTH_RC_SEND_ONLY_INV,
    E810_BTH_UD_SEND_ONLY, E810_BTH_UD_SEND_ONLY_IMM,
};

/* A well-formed packet whose fields come from the input, then mutated. */
static void crafted(Rx *rx, Input *in)
{
    static uint8_t frame[E810_ROCE_MAX_FRAME];
    E810Core *core = &rx->h->core;
    E810XQp *x = core->xport->qp && rx->rc.id < core->xport->nqp ?
                 core->xport->qp[rx->rc.id] : NULL;
    uint32_t sel = take(in, 1), base;
    E810RocePkt p;
    uint32_t paylen, i;
    size_t len;

    memset(&p, 0, sizeof(p));
    memcpy(p.dmac, core->mac, 6);
    memcpy(p.smac, peer_mac, 6);
    p.ipv4 = !(sel & 0x80);
    p.vlan = sel & 0x40;
    p.sip[3] = 0x0a000002;
    p.dip[3] = 0x0a000001;
    p.hop_limit = 64;
    p.sport = 0xc000;
    p.opcode = ops[take(in, 1) % sizeof(ops)];
    p.pkey = (sel & 0x20) ? take(in, 2) : 0xffff;
    switch (sel & 3) {
    case 0:
        p.dqpn = rx->rc.id;
        break;
    case 1:
        p.dqpn = rx->ud.id;
        break;
    case 2:
        p.dqpn = E810_MCAST_QPN;
        memcpy(p.dmac, mc_mac, 6);
        p.dip[3] = MC_IP;
        break;
    default:
        p.dqpn = take(in, 3);
        break;
    }
    /* PSNs near what the QP expects, or sent, reach the deep paths. */
    base = !x ? 0 : (sel & 4) ? x->epsn : (sel & 8) ? x->acked_psn :
           x->send_psn;
    p.psn = e810_psn_add(base, (uint32_t)(int8_t)take(in, 1));
    p.ackreq = sel & 0x10;
    p.se = sel & 1;
    p.qkey = (sel & 8) ? QKEY : take(in, 4);
    p.sqpn = PEER_QPN;
    p.va = rx->buf + (take(in, 2) << 4) - 0x100;
    p.rkey = (sel & 4) ? rx->key : take(in, 4);
    p.dma_len = take(in, 3) & 0x3ffff;
    p.syndrome = take(in, 1);
    p.msn = take(in, 3);
    p.imm = take(in, 4);
    p.ieth = (sel & 2) ? rx->key : take(in, 4);
    paylen = 0;
    if (e810_roce_op_flags(p.opcode) & E810_OPF_PAYLOAD) {
        paylen = take(in, 2) % 300;
        if (sel & 0x10) {
            paylen = 256;   /* the MTU: FIRST/MIDDLE need exactly that */
        }
    }
    for (i = 0; i < paylen; i++) {
        frame[e810_roce_hdr_len(&p) + i] = i * 31 + sel;
    }
    len = e810_roce_finish(&p, frame, paylen, true);
    /* Optional mutation: some byte replaced, or the frame cut short. */
    switch (take(in, 1) & 3) {
    case 1:
        frame[take(in, 2) % len] = take(in, 1);
        break;
    case 2:
        len = take(in, 2) % (len + 1);
        break;
    default:
        break;
    }
    e810_core_receive(core, frame, len);
}

static void raw(Rx *rx, Input *in)
{
    static uint8_t frame[1024];
    size_t len = take(in, 2) % sizeof(frame), i;
    bool ours = take(in, 1) & 1;

    for (i = 0; i < len; i++) {
        frame[i] = take(in, 1);
    }
    if (ours && len >= 6) {
        memcpy(frame, rx->h->core.mac, 6);
    }
    e810_core_receive(&rx->h->core, frame, len);
}

static void post_send(Rx *rx, Input *in)
{
    static const unsigned sops[] = {
        E810_OP_SEND, E810_OP_RDMA_WRITE, E810_OP_RDMA_READ,
        E810_OP_SEND_INV,
    };
    uint32_t sel = take(in, 1);
    DpSend s;

    memset(&s, 0, sizeof(s));
    s.op = sops[sel & 3];
    s.signaled = true;
    s.imm_valid = sel & 4;
    s.imm = sel;
    s.nsge = 1;
    s.sge[0].addr = rx->buf + (take(in, 1) << 8);
    s.sge[0].len = take(in, 2) % 3000;
    s.sge[0].lkey = rx->key;
    s.remote_va = 0x100000 + take(in, 2);
    s.rkey = take(in, 4);
    s.ah_id = 0;
    s.dest_qpn = PEER_QPN;
    if (rx->rc.state == E810_QP_STATE_RTS && rx->seq < 48) {
        dp_post_send(&rx->rc, &s);
        dp_ring(&rx->rc, false);
        rx->seq++;
    }
}

static void drain(Rx *rx)
{
    DpCqe e;
    DpAe ae;
    unsigned n = 0;

    while (n++ < 1000 && dp_poll_cq(&rx->cq, &e)) {
    }
    while (n++ < 2000 && dp_poll_ae(&rx->dev, &ae)) {
    }
}

static void run_command(Rx *rx, Input *in)
{
    switch (take(in, 1) % 8) {
    case 0:
        raw(rx, in);
        break;
    case 1:
    case 2:
    case 3:
        crafted(rx, in);
        break;
    case 4:
        post_send(rx, in);
        break;
    case 5:
        post_recv(rx, (take(in, 1) & 1) ? &rx->rc : &rx->ud, rx->seq++);
        break;
    case 6:
        /* Up to ~0.26 s of virtual time: retransmission and RNR timers. */
        harness_advance(rx->h, (uint64_t)take(in, 1) << 20);
        break;
    default:
        drain(rx);
        break;
    }
    {
        unsigned i;

        for (i = 0; i < 64 && rx->h->core.work_pending; i++) {
            harness_run_work(rx->h);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Rx *rx;
    Input in = { data, size };
    unsigned n;

    if (!rx) {
        rx = malloc(sizeof(*rx));
        if (!rx) {
            abort();
        }
        bringup(rx);
    }
    qps_create(rx);
    for (n = 0; in.left && n < 128; n++) {
        run_command(rx, &in);
        drain(rx);
    }
    /* Let every timer run out before the QPs go away. */
    harness_advance(rx->h, 10000000000ull);
    qps_destroy(rx);
    return 0;
}
