/*
 * Protocol-engine statistics: RC traffic between two device models, then
 * GATHER_STATS, with exact packet, octet and message counts read at the
 * GEN_2 buffer offsets irdma decodes (icrdma_hw_stat_map[]); a QP counting
 * in an allocated instance (USESTATSINSTANCE); counters that run free and
 * wrap at their hardware width; instances zeroed by MANAGE_STATS and by a
 * PF reset; truncated datagrams; the GATHER_STATS error cases.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "rc_rig.h"

#define MTU         1024
#define FN          (-1)        /* gather the function's instance */

/* A counter as irdma_stat_val() reads it: qword @off, >> @shift, @bits. */
static uint64_t field(const uint8_t *b, unsigned off, unsigned shift,
                      unsigned bits)
{
    return (rd_le(b + off) >> shift) & ((1ull << bits) - 1);
}

/* Offsets of the GEN_2 layout (icrdma_hw_stat_map[]), written out here so
 * the test checks the header rather than restating it. */
#define IP4RXOCTS(b)    field(b, 8, 0, 48)
#define IP4RXPKTS(b)    field(b, 16, 0, 48)
#define IP4RXTRUNC(b)   field(b, 24, 0, 32)
#define IP6RXOCTS(b)    field(b, 56, 0, 48)
#define IP4TXOCTS(b)    field(b, 104, 0, 48)
#define IP4TXPKTS(b)    field(b, 112, 0, 48)
#define IP6TXPKTS(b)    field(b, 152, 0, 48)
#define UDPRXPKTS(b)    field(b, 224, 0, 48)
#define UDPTXPKTS(b)    field(b, 232, 0, 48)
#define RXWRS(b)        field(b, 240, 0, 48)
#define RXRDS(b)        field(b, 248, 0, 48)
#define RXSNDS(b)       field(b, 256, 0, 48)
#define TXWRS(b)        field(b, 264, 0, 48)
#define TXRDS(b)        field(b, 272, 0, 48)
#define TXSNDS(b)       field(b, 280, 0, 48)
#define CNPHANDLED(b)   field(b, 312, 0, 32)
#define CNPIGNORED(b)   field(b, 312, 32, 24)

static RcRig *rig_new(void)
{
    const RcRigShape sh = {
        .xmem = 4u << 20, .buf_len = 1u << 20, .cq_size = 64,
        .sq_size = 64, .rq_size = 16, .mtu = MTU,
    };

    return rc_rig_new(&sh);
}

static RdmaCompl gather_at(DpDev *d, int inst, uint64_t pa)
{
    uint64_t q[8] = { 0 };

    q[E810_QW(E810_CQPSQ_STATS_BUF_OFF)] = pa;
    return rd_exec(&d->d, E810_CQP_OP_GATHER_STATS,
                   inst == FN ? 0 : E810_CQPSQ_STATS_USE_INST |
                   FIELD_PREP(E810_CQPSQ_STATS_INST_INDEX, inst), q);
}

/* GATHER_STATS of @inst into a fresh buffer; its bytes (test memory). */
static const uint8_t *gather(DpDev *d, int inst)
{
    uint64_t pa = mem_alloc(d->h, E810_GATHER_STATS_BUF_SIZE);
    uint8_t *b = mem_ptr(d->h, pa);

    memset(b, 0x5a, E810_GATHER_STATS_BUF_SIZE);
    assert_false(gather_at(d, inst, pa).error);
    return b;
}

static uint32_t alloc_inst(DpDev *d)
{
    RdmaCompl c = rd_exec(&d->d, E810_CQP_OP_MANAGE_STATS,
                          E810_CQPSQ_STATS_ALLOC_INST, NULL);

    assert_false(c.error);
    return c.ret_val;
}

static void post(RcRig *r, unsigned op, uint64_t len)
{
    rc_rig_post(r, 0, op, 0, 65536, len);
}

/*
 * SEND of 3000 bytes (3 packets at MTU 1024), WRITE of 1024 (1), READ of
 * 2048 (a request, two responses), all acknowledged: returns when done.
 */
static void traffic(RcRig *r)
{
    E810Sge sge = { r->buf[1], 4096, r->key[1] };
    DpCqe e;
    unsigned i;

    dp_post_recv(&r->qp[1], &sge, 1);
    post(r, E810_OP_SEND, 3000);
    post(r, E810_OP_RDMA_WRITE, 1024);
    post(r, E810_OP_RDMA_READ, 2048);
    dp_ring(&r->qp[0], false);
    b2b_run(r->b);
    for (i = 0; i < 3; i++) {
        assert_true(dp_poll_cq(&r->scq[0], &e));
        assert_false(e.error);
    }
    assert_true(dp_poll_cq(&r->rcq[1], &e));
    assert_false(e.error);
}

/*
 * IPv4 datagram sizes: IP 20 + UDP 8 + BTH 12 + ICRC 4 = 44, plus RETH 16
 * (WRITE, READ request), AETH 4 (ACK, first and last READ response).
 */
#define REQ_PKTS    5       /* SEND x3, WRITE, READ request */
#define REQ_OCTS    ((44 + 1024) * 2 + (44 + 952) + (60 + 1024) + 60)
#define RESP_PKTS   4       /* ACK (SEND), ACK (WRITE), READ responses x2 */
#define RESP_OCTS   (48 * 2 + (48 + 1024) * 2)

/*
 * One side's counts: the requester sent REQ_* and received RESP_*, the
 * responder the other way round. Messages count on the side that sent or
 * accepted them: READ responses and ACKs are no messages of their own.
 */
static void check_side(const uint8_t *b, bool requester)
{
    uint64_t out = requester ? REQ_PKTS : RESP_PKTS;
    uint64_t in = requester ? RESP_PKTS : REQ_PKTS;

    assert_int_equal(IP4TXPKTS(b), out);
    assert_int_equal(IP4TXOCTS(b), requester ? REQ_OCTS : RESP_OCTS);
    assert_int_equal(UDPTXPKTS(b), out);
    assert_int_equal(IP4RXPKTS(b), in);
    assert_int_equal(IP4RXOCTS(b), requester ? RESP_OCTS : REQ_OCTS);
    assert_int_equal(UDPRXPKTS(b), in);
    /* One message of each kind, read as the digits READ WRITE SEND. */
    assert_int_equal(TXSNDS(b) + TXWRS(b) * 10 + TXRDS(b) * 100,
                     requester ? 111 : 0);
    assert_int_equal(RXSNDS(b) + RXWRS(b) * 10 + RXRDS(b) * 100,
                     requester ? 0 : 111);
    assert_int_equal(IP6TXPKTS(b) + IP6RXOCTS(b), 0);
}

#define check_requester(b) check_side(b, true)
#define check_responder(b) check_side(b, false)

/* Both functions' own instances count the traffic of their QPs. */
static void test_rc_counts(void **state)
{
    RcRig *r = rig_new();
    const uint8_t *b;
    unsigned i;

    traffic(r);
    b = gather(&r->b->dev[0], FN);
    check_requester(b);
    /* Nothing past the layout; the ECN/CNP counters were never hit. */
    for (i = 328; i < E810_GATHER_STATS_BUF_SIZE; i++) {
        assert_int_equal(b[i], 0);
    }
    assert_int_equal(rd_le(b + 304) + rd_le(b + 312) + rd_le(b + 320), 0);
    check_responder(gather(&r->b->dev[1], FN));
    /* The engine's own counters agree (frames are 14 bytes longer). */
    assert_int_equal(b2b_stats(r->b, 0)->tx_packets, REQ_PKTS);
    assert_int_equal(b2b_stats(r->b, 0)->tx_bytes, REQ_OCTS + 14 * REQ_PKTS);
    /* Free-running: a second gather shows the same, twice the traffic
     * twice the counts. */
    check_requester(gather(&r->b->dev[0], FN));
    traffic(r);
    b = gather(&r->b->dev[0], FN);
    assert_int_equal(IP4TXPKTS(b), 2 * REQ_PKTS);
    assert_int_equal(TXSNDS(b), 2);
    rc_rig_free(r);
}

/* A QP whose context names an allocated instance counts there only. */
static void test_qp_stats_instance(void **state)
{
    const RcRigShape sh = {
        .xmem = 4u << 20, .buf_len = 1u << 20, .cq_size = 64,
        .sq_size = 64, .rq_size = 16, .mtu = MTU,
    };
    RcRig *r = calloc(1, sizeof(*r));
    uint32_t inst[2];
    unsigned i;

    assert_non_null(r);
    r->b = b2b_new(sh.xmem);
    for (i = 0; i < 2; i++) {
        DpDev *d = &r->b->dev[i];

        inst[i] = alloc_inst(d);
        if (i) {
            inst[i] = alloc_inst(d);    /* side 1 uses its second one */
        }
        dp_cq_create(d, &r->scq[i], sh.cq_size);
        dp_cq_create(d, &r->rcq[i], sh.cq_size);
        dp_qp_create(d, &r->qp[i], E810_QP_TYPE_ROCE_RC, &r->scq[i],
                     &r->rcq[i], sh.sq_size, sh.rq_size, 1, false, false);
        r->buf[i] = harness_xmem_alloc(r->b->h[i], sh.buf_len);
        r->key[i] = rc_rig_reg(d, r->buf[i], sh.buf_len);
        b2b_ctx_rmw(&r->qp[i], E810_QPC_STAT_OFF, E810_QPC_STAT_INDEX,
                    FIELD_PREP(E810_QPC_STAT_INDEX, inst[i]));
        b2b_ctx_rmw(&r->qp[i], E810_QPC_FLAGS_OFF, E810_QPC_USESTATSINSTANCE,
                    E810_QPC_USESTATSINSTANCE);
    }
    assert_int_equal(inst[0], 0);
    assert_int_equal(inst[1], 1);
    b2b_connect(r->b, &r->qp[0], &r->qp[1], MTU);
    traffic(r);
    check_requester(gather(&r->b->dev[0], inst[0]));
    check_responder(gather(&r->b->dev[1], inst[1]));
    /* The functions' instances and side 1's first one saw nothing. */
    assert_int_equal(IP4TXPKTS(gather(&r->b->dev[0], FN)), 0);
    assert_int_equal(IP4RXPKTS(gather(&r->b->dev[1], FN)), 0);
    assert_int_equal(IP4RXPKTS(gather(&r->b->dev[1], 0)), 0);
    rc_rig_free(r);
}

/*
 * Counters wrap at their width in the buffer, and irdma's delta
 * (irdma_stat_delta(): new - old, or max - old + new + 1) stays right.
 */
static void test_wrap_width(void **state)
{
    RcRig *r = rig_new();
    uint64_t *c = r->b->h[0]->core.rdma.rstat[E810_RSTAT_FN_INST];
    const uint64_t max48 = (1ull << 48) - 1;
    const uint8_t *b;
    uint64_t old, new;

    c[E810_RSTAT_RDMATXSNDS] = max48;
    c[E810_RSTAT_IP4TXPKTS] = max48 - 1;
    /* Two counters sharing a qword keep to their bits. */
    c[E810_RSTAT_RXRPCNPIGNORED] = (1ull << 24) + 5;
    c[E810_RSTAT_RXRPCNPHANDLED] = (1ull << 32) + 7;
    b = gather(&r->b->dev[0], FN);
    old = TXSNDS(b);
    assert_int_equal(old, max48);
    assert_int_equal(CNPIGNORED(b), 5);
    assert_int_equal(CNPHANDLED(b), 7);
    assert_int_equal(rd_le(b + 312) >> 56, 0);
    traffic(r);
    b = gather(&r->b->dev[0], FN);
    new = TXSNDS(b);
    assert_int_equal(new, 0);
    assert_int_equal(max48 - old + new + 1, 1);
    assert_int_equal(IP4TXPKTS(b), REQ_PKTS - 2);
    rc_rig_free(r);
}

/* MANAGE_STATS zeroes an instance it allocates or frees; a PF reset zeroes
 * them all. */
static void test_instance_lifecycle(void **state)
{
    RcRig *r = rig_new();
    DpDev *d = &r->b->dev[0];
    E810Core *core = &r->b->h[0]->core;
    uint32_t i = alloc_inst(d);
    unsigned s;

    assert_int_equal(i, 0);
    core->rdma.rstat[i][E810_RSTAT_IP4TXPKTS] = 42;
    assert_int_equal(IP4TXPKTS(gather(d, i)), 42);
    assert_false(rd_exec(&d->d, E810_CQP_OP_MANAGE_STATS,
                         FIELD_PREP(E810_CQPSQ_STATS_INST_INDEX, i),
                         NULL).error);
    assert_int_equal(core->rdma.rstat[i][E810_RSTAT_IP4TXPKTS], 0);
    /* Stale counts of a free instance do not survive its allocation. */
    core->rdma.rstat[i][E810_RSTAT_IP4TXPKTS] = 9;
    assert_int_equal(alloc_inst(d), i);
    assert_int_equal(IP4TXPKTS(gather(d, i)), 0);
    /* A PF reset: every instance, the function's too. */
    traffic(r);
    assert_int_equal(IP4TXPKTS(gather(d, FN)), REQ_PKTS);
    wr32(r->b->h[0], E810_PFGEN_CTRL, E810_PFGEN_CTRL_PFSWR);
    harness_run_work(r->b->h[0]);
    for (s = 0; s <= E810_RSTAT_FN_INST; s++) {
        unsigned k;

        for (k = 0; k < E810_RSTAT_MAX; k++) {
            assert_int_equal(core->rdma.rstat[s][k], 0);
        }
    }
    rc_rig_free(r);
}

/* A datagram shorter than its IP length is counted as truncated. */
static void test_rx_truncated(void **state)
{
    RcRig *r = rig_new();
    E810Core *core = &r->b->h[1]->core;
    uint8_t f[64];

    memset(f, 0, sizeof(f));
    memcpy(f, core->mac, 6);
    f[12] = 0x08;               /* IPv4 */
    f[14] = 0x45;
    f[16] = 0x03;               /* total length 1000: 50 bytes present */
    f[17] = 0xe8;
    f[22] = 64;
    f[23] = 17;                 /* UDP */
    e810_xport_receive(core, f, sizeof(f));
    assert_int_equal(IP4RXTRUNC(gather(&r->b->dev[1], FN)), 1);
    assert_int_equal(IP4RXPKTS(gather(&r->b->dev[1], FN)), 0);
    rc_rig_free(r);
}

/* The CQP errors: buffer address, instance not allocated, function. */
static void test_gather_errors(void **state)
{
    RcRig *r = rig_new();
    DpDev *d = &r->b->dev[0];
    uint64_t pa = mem_alloc(d->h, E810_GATHER_STATS_BUF_SIZE + 8);
    uint8_t *b = mem_ptr(d->h, pa);
    uint64_t q[8] = { 0 };
    RdmaCompl c;

    memset(b, 0x5a, E810_GATHER_STATS_BUF_SIZE + 8);
    c = gather_at(d, FN, pa + 4);
    assert_true(c.error);
    assert_int_equal(c.minor, E810_CQP_MIN_BAD_ADDR);
    assert_int_equal(b[4], 0x5a);               /* nothing written */
    c = gather_at(d, FN, 0x7000000000ull);      /* beyond guest memory */
    assert_int_equal(c.minor, E810_CQP_MIN_BAD_ADDR);
    c = gather_at(d, 5, pa);                    /* never allocated */
    assert_true(c.error);
    assert_int_equal(c.minor, E810_CQP_MIN_BAD_STATE);
    assert_int_equal(b[0], 0x5a);
    q[E810_QW(E810_CQPSQ_STATS_BUF_OFF)] = pa;
    q[E810_QW(E810_CQPSQ_STATS_FCN_OFF)] = 7;
    c = rd_exec(&d->d, E810_CQP_OP_GATHER_STATS,
                E810_CQPSQ_STATS_USE_HMC_FCN_INDEX, q);
    assert_int_equal(c.minor, E810_CQP_MIN_BAD_FN);
    /* Our own function by number is the default instance. */
    q[E810_QW(E810_CQPSQ_STATS_FCN_OFF)] = 0;
    assert_false(rd_exec(&d->d, E810_CQP_OP_GATHER_STATS,
                         E810_CQPSQ_STATS_USE_HMC_FCN_INDEX, q).error);
    assert_int_equal(b[0], 0);
    rc_rig_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rc_counts),
        cmocka_unit_test(test_qp_stats_instance),
        cmocka_unit_test(test_wrap_width),
        cmocka_unit_test(test_instance_lifecycle),
        cmocka_unit_test(test_rx_truncated),
        cmocka_unit_test(test_gather_errors),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_rdma_stats", tests, NULL, NULL);
}
