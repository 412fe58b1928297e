/*
 * RC over RoCEv2 between two device models joined back to back: SEND/RECV,
 * RDMA WRITE (+IMM) and READ with payload checks across message sizes and
 * path MTUs, the error paths (bad lkey/rkey, out of bounds, RNR and retry
 * exhausted) with their CQE status and AEs, and 10^4 messages delivered
 * exactly once through a wire that loses 2 % of the frames.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "rc_rig.h"

#define XMEM        (40u << 20)
#define BIG         (16u << 20)

static RcRig *rig_new(uint32_t mtu)
{
    const RcRigShape sh = {
        .xmem = XMEM, .buf_len = BIG + 8192, .cq_size = 256,
        .sq_size = 256, .rq_size = 64, .mtu = mtu,
    };

    return rc_rig_new(&sh);
}

static DpSend one_sge(RcRig *r, unsigned op, uint64_t off, uint64_t len)
{
    DpSend s;

    memset(&s, 0, sizeof(s));
    s.op = op;
    s.signaled = true;
    s.nsge = len ? 1 : 0;
    s.sge[0].addr = r->buf[0] + off;
    s.sge[0].len = (uint32_t)len;
    s.sge[0].lkey = r->key[0];
    return s;
}

static void post_recv(RcRig *r, unsigned side, uint64_t off, uint64_t len)
{
    E810Sge sge = { r->buf[side] + off, (uint32_t)len, r->key[side] };

    dp_post_recv(&r->qp[side], &sge, 1);
}

/* The one CQE of a successful SQ WQE. */
static void expect_sq_ok(RcRig *r, unsigned op, uint32_t idx)
{
    DpCqe e;

    assert_true(dp_poll_cq(&r->scq[0], &e));
    if (e.error) {
        DpAe ae;

        while (dp_poll_ae(&r->b->dev[0], &ae)) {
            print_message("AE0 %#x src %u\n", ae.code, ae.source);
        }
        while (dp_poll_ae(&r->b->dev[1], &ae)) {
            print_message("AE1 %#x src %u\n", ae.code, ae.source);
        }
        print_message("major %u minor %u\n", e.major, e.minor);
    }
    assert_false(e.error);
    assert_true(e.sq);
    assert_int_equal(e.op, op);
    assert_int_equal(e.wqe_idx, idx);
    assert_int_equal(e.qp_id, r->qp[0].id);
    assert_false(dp_poll_cq(&r->scq[0], &e));
}

static void expect_rq_ok(RcRig *r, uint64_t len, bool imm, uint32_t immv)
{
    DpCqe e;

    assert_true(dp_poll_cq(&r->rcq[1], &e));
    assert_false(e.error);
    assert_false(e.sq);
    assert_int_equal(e.len, len);
    assert_int_equal(e.qp_id, r->qp[1].id);
    assert_int_equal(e.imm_valid, imm);
    if (imm) {
        assert_int_equal(e.imm, immv);
    }
    assert_false(dp_poll_cq(&r->rcq[1], &e));
}

/* One transfer of @len bytes with opcode @op (+imm), checked end to end. */
static void xfer(RcRig *r, unsigned op, bool imm, uint64_t len, uint32_t seed)
{
    bool read = op == E810_OP_RDMA_READ;
    bool write = op == E810_OP_RDMA_WRITE;
    unsigned src = read ? 1 : 0, dst = read ? 0 : 1;
    DpSend s = one_sge(r, op, 0, len);
    uint32_t idx;

    b2b_fill(rc_rig_buf(r, src, 0), len, seed);
    memset(rc_rig_buf(r, dst, 0), 0, len + 64);
    if (!write || imm) {
        if (!read) {
            post_recv(r, 1, 0, write ? 0 : len);
        }
    }
    if (read || write) {
        s.remote_va = r->buf[1];
        s.rkey = r->key[1];
    }
    s.imm_valid = imm;
    s.imm = seed ^ 0xabcd0000u;
    idx = dp_post_send(&r->qp[0], &s);
    dp_ring(&r->qp[0], false);
    b2b_run(r->b);
    expect_sq_ok(r, op, idx);
    if (!read && (!write || imm)) {
        expect_rq_ok(r, len, imm, s.imm);
    }
    assert_true(b2b_check(rc_rig_buf(r, dst, 0), len, seed));
    /* Nothing written past the message. */
    assert_int_equal(*rc_rig_buf(r, dst, len), 0);
}

static const uint64_t sizes[] = {
    0, 1, 3, 255, 256, 257, 1023, 1024, 4095, 4096, 4097, 65535,
    (1u << 20) + 13,
};

static void run_sizes(uint32_t mtu, bool big)
{
    RcRig *r = rig_new(mtu);
    unsigned i;
    uint32_t seed = mtu;

    for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        xfer(r, E810_OP_SEND, false, sizes[i], ++seed);
        xfer(r, E810_OP_SEND, true, sizes[i], ++seed);
        xfer(r, E810_OP_RDMA_WRITE, false, sizes[i], ++seed);
        xfer(r, E810_OP_RDMA_WRITE, true, sizes[i], ++seed);
        xfer(r, E810_OP_RDMA_READ, false, sizes[i], ++seed);
    }
    if (big) {
        xfer(r, E810_OP_SEND, false, BIG, ++seed);
        xfer(r, E810_OP_RDMA_WRITE, true, BIG, ++seed);
        xfer(r, E810_OP_RDMA_READ, false, BIG, ++seed);
    }
    /* Clean wire: nothing was ever sent twice. */
    assert_int_equal(b2b_stats(r->b, 0)->retransmits, 0);
    assert_int_equal(b2b_stats(r->b, 0)->timeouts, 0);
    assert_int_equal(b2b_stats(r->b, 1)->rx_drop[E810_ROCE_BAD_ICRC], 0);
    rc_rig_free(r);
}

static void test_sizes_mtu256(void **state) { run_sizes(256, true); }
static void test_sizes_mtu512(void **state) { run_sizes(512, false); }
static void test_sizes_mtu1024(void **state) { run_sizes(1024, false); }
static void test_sizes_mtu2048(void **state) { run_sizes(2048, false); }
static void test_sizes_mtu4096(void **state) { run_sizes(4096, true); }

/* Several WQEs in flight at once, mixed, completed in order. */
static void test_pipelined_mix(void **state)
{
    RcRig *r = rig_new(1024);
    uint32_t idx[24];
    unsigned i;
    DpCqe e;

    for (i = 0; i < 24; i++) {
        uint64_t off = (uint64_t)i * 16384;
        unsigned op = i % 3 == 0 ? E810_OP_SEND :
                      i % 3 == 1 ? E810_OP_RDMA_WRITE : E810_OP_RDMA_READ;
        DpSend s = one_sge(r, op, off, 5000 + i);

        if (op == E810_OP_RDMA_READ) {
            b2b_fill(rc_rig_buf(r, 1, off), 5000 + i, 100 + i);
        } else {
            b2b_fill(rc_rig_buf(r, 0, off), 5000 + i, 100 + i);
        }
        if (op == E810_OP_SEND) {
            post_recv(r, 1, off, 16384);
        }
        s.remote_va = r->buf[1] + off;
        s.rkey = r->key[1];
        idx[i] = dp_post_send(&r->qp[0], &s);
    }
    dp_ring(&r->qp[0], false);
    b2b_run(r->b);
    for (i = 0; i < 24; i++) {
        uint64_t off = (uint64_t)i * 16384;

        assert_true(dp_poll_cq(&r->scq[0], &e));
        assert_false(e.error);
        assert_int_equal(e.wqe_idx, idx[i]);
        assert_true(b2b_check(rc_rig_buf(r, i % 3 == 2 ? 0 : 1, off), 5000 + i,
                              100 + i));
    }
    assert_false(dp_poll_cq(&r->scq[0], &e));
    for (i = 0; i < 8; i++) {
        assert_true(dp_poll_cq(&r->rcq[1], &e));
        assert_int_equal(e.len, 5000 + 3 * i);
    }
    assert_false(dp_poll_cq(&r->rcq[1], &e));
    rc_rig_free(r);
}

/*
 * A READ longer than one response burst is answered from deferred work;
 * a SEND right behind it waits (the requester retries) and lands after.
 */
static void test_read_paced_then_send(void **state)
{
    RcRig *r = rig_new(256);
    DpSend rd = one_sge(r, E810_OP_RDMA_READ, 0, 200u << 10);
    DpSend sd = one_sge(r, E810_OP_SEND, 8u << 20, 3000);
    DpCqe e;

    b2b_fill(rc_rig_buf(r, 1, 0), 200u << 10, 61);
    b2b_fill(rc_rig_buf(r, 0, 8u << 20), 3000, 62);
    post_recv(r, 1, 12u << 20, 4096);
    rd.remote_va = r->buf[1];
    rd.rkey = r->key[1];
    dp_post_send(&r->qp[0], &rd);
    dp_post_send(&r->qp[0], &sd);
    dp_ring(&r->qp[0], false);
    b2b_run(r->b);
    assert_true(dp_poll_cq(&r->scq[0], &e));
    assert_false(e.error);
    assert_int_equal(e.op, E810_OP_RDMA_READ);
    assert_true(dp_poll_cq(&r->scq[0], &e));
    assert_false(e.error);
    assert_int_equal(e.op, E810_OP_SEND);
    expect_rq_ok(r, 3000, false, 0);
    assert_true(b2b_check(rc_rig_buf(r, 0, 0), 200u << 10, 61));
    assert_true(b2b_check(rc_rig_buf(r, 1, 12u << 20), 3000, 62));
    assert_int_equal(b2b_stats(r->b, 1)->read_resp_sent, (200u << 10) / 256);
    assert_true(b2b_stats(r->b, 1)->rx_busy > 0);
    rc_rig_free(r);
}

/* Two QPs of one device: frames to our own MAC never reach the wire. */
static void test_loopback_same_device(void **state)
{
    RcRig *r = rig_new(1024);
    DpQp lq[2];
    DpCq lcq;
    DpCqe e;
    unsigned i;
    uint64_t wire = r->b->h[0]->wire_sent;

    dp_cq_create(&r->b->dev[0], &lcq, 64);
    for (i = 0; i < 2; i++) {
        dp_qp_create(&r->b->dev[0], &lq[i], E810_QP_TYPE_ROCE_RC, &lcq, &lcq,
                     64, 16, 1, false, false);
    }
    b2b_connect(r->b, &lq[0], &lq[1], 2048);
    /* WRITE 100 KiB from one half of the buffer to the other, then READ
     * it back to a third place; SEND 5000 bytes. */
    b2b_fill(rc_rig_buf(r, 0, 0), 102400, 31);
    {
        DpSend s = one_sge(r, E810_OP_RDMA_WRITE, 0, 102400);
        E810Sge rsge = { r->buf[0] + (4u << 20), 8192, r->key[0] };

        s.remote_va = r->buf[0] + (1u << 20);
        s.rkey = r->key[0];
        dp_post_send(&lq[0], &s);
        s = one_sge(r, E810_OP_RDMA_READ, 2u << 20, 102400);
        s.remote_va = r->buf[0] + (1u << 20);
        s.rkey = r->key[0];
        dp_post_send(&lq[0], &s);
        dp_post_recv(&lq[1], &rsge, 1);
        s = one_sge(r, E810_OP_SEND, 0, 5000);
        dp_post_send(&lq[0], &s);
        dp_ring(&lq[0], false);
    }
    b2b_run(r->b);
    for (i = 0; i < 4; i++) {
        assert_true(dp_poll_cq(&lcq, &e));
        assert_false(e.error);
    }
    assert_false(dp_poll_cq(&lcq, &e));
    assert_true(b2b_check(rc_rig_buf(r, 0, 1u << 20), 102400, 31));
    assert_true(b2b_check(rc_rig_buf(r, 0, 2u << 20), 102400, 31));
    assert_true(b2b_check(rc_rig_buf(r, 0, 4u << 20), 5000, 31));
    assert_int_equal(r->b->h[0]->wire_sent, wire);
    assert_true(b2b_stats(r->b, 0)->loopback > 100);
    rc_rig_free(r);
}

/* IPv6 with an 802.1Q tag: the other header shapes over the wire. */
static void test_ipv6_vlan(void **state)
{
    RcRig *r = calloc(1, sizeof(*r));
    unsigned i;

    assert_non_null(r);
    r->b = b2b_new(XMEM);
    for (i = 0; i < 2; i++) {
        DpDev *d = &r->b->dev[i];

        dp_cq_create(d, &r->scq[i], 256);
        dp_cq_create(d, &r->rcq[i], 256);
        dp_qp_create(d, &r->qp[i], E810_QP_TYPE_ROCE_RC, &r->scq[i],
                     &r->rcq[i], 256, 64, 1, false, false);
        r->buf[i] = harness_xmem_alloc(r->b->h[i], 1u << 20);
        r->key[i] = rc_rig_reg(d, r->buf[i], 1u << 20);
        b2b_ctx_rmw(&r->qp[i], E810_QPC_CFG_OFF,
                    E810_QPC_IPV4 | E810_QPC_INSERTVLANTAG,
                    E810_QPC_INSERTVLANTAG);
        b2b_ctx_rmw(&r->qp[i], E810_QPC_MSS_OFF, E810_QPC_VLANTAG,
                    FIELD_PREP(E810_QPC_VLANTAG, 3 << 13 | 42));
        b2b_ctx_rmw(&r->qp[i], E810_QPC_PKEY_OFF, E810_QPC_FLOWLABEL,
                    FIELD_PREP(E810_QPC_FLOWLABEL, 0x12345));
        b2b_ctx_rmw(&r->qp[i], E810_QPC_DESTIP01_OFF, ~0ull,
                    0xfe80000000000000ull);
        b2b_ctx_rmw(&r->qp[i], E810_QPC_LOCALIP01_OFF, ~0ull,
                    0x00000000fe800000ull);
    }
    b2b_connect(r->b, &r->qp[0], &r->qp[1], 4096);
    xfer(r, E810_OP_SEND, true, 10000, 1);
    xfer(r, E810_OP_RDMA_WRITE, false, 100000, 2);
    xfer(r, E810_OP_RDMA_READ, false, 100000, 3);
    /* What went over the wire was IPv6 in a VLAN tag, ICRC and all. */
    assert_int_equal(r->b->h[0]->tx_frame[12], 0x81);
    assert_int_equal(r->b->h[0]->tx_frame[13], 0x00);
    assert_int_equal(r->b->h[0]->tx_frame[14], 0x60);   /* priority 3 */
    assert_int_equal(r->b->h[0]->tx_frame[15], 42);     /* VLAN id */
    assert_int_equal(r->b->h[0]->tx_frame[16], 0x86);
    assert_int_equal(r->b->h[0]->tx_frame[17], 0xdd);
    assert_int_equal(b2b_stats(r->b, 1)->rx_drop[E810_ROCE_BAD_ICRC], 0);
    assert_true(b2b_stats(r->b, 1)->rx_packets >= 29);  /* 3 + 25 + 1 */
    rc_rig_free(r);
}

/*
 * Three READs of @len bytes each, posted back to back with one doorbell:
 * side 1's buffer (filled from @seed) into side 0's. Each must complete
 * successfully, in order, and the data must match.
 */
static void three_reads(RcRig *r, uint32_t len, uint32_t seed)
{
    uint32_t idx[3];
    unsigned i;
    DpCqe e;

    b2b_fill(rc_rig_buf(r, 1, 0), 3ull * len, seed);
    memset(rc_rig_buf(r, 0, 0), 0, 3ull * len + 4096);
    for (i = 0; i < 3; i++) {
        DpSend s = one_sge(r, E810_OP_RDMA_READ, (uint64_t)len * i, len);

        s.remote_va = r->buf[1] + (uint64_t)len * i;
        s.rkey = r->key[1];
        idx[i] = dp_post_send(&r->qp[0], &s);
    }
    dp_ring(&r->qp[0], false);
    b2b_run(r->b);
    for (i = 0; i < 3; i++) {
        assert_true(dp_poll_cq(&r->scq[0], &e));
        assert_false(e.error);
        assert_int_equal(e.op, E810_OP_RDMA_READ);
        assert_int_equal(e.wqe_idx, idx[i]);
    }
    assert_false(dp_poll_cq(&r->scq[0], &e));
    assert_true(b2b_check(rc_rig_buf(r, 0, 0), 3ull * len, seed));
    assert_int_equal(*rc_rig_buf(r, 0, 3ull * len), 0);
}

/*
 * READs longer than one response burst, three requested at once (their
 * 900 PSNs fit the requester's window): the responder queues a request
 * that arrives while it answers another instead of dropping it, so
 * nothing waits for a retransmission timeout.
 */
static void test_reads_queued(void **state)
{
    RcRig *r = rig_new(1024);
    const uint32_t len = 300u << 10;            /* 300 responses each */

    three_reads(r, len, 71);
    assert_int_equal(b2b_stats(r->b, 1)->read_resp_sent, 3 * 300);
    assert_int_equal(b2b_stats(r->b, 1)->rd_queued, 2);
    assert_int_equal(b2b_stats(r->b, 1)->rx_busy, 0);
    assert_int_equal(b2b_stats(r->b, 0)->retransmits, 0);
    assert_int_equal(b2b_stats(r->b, 0)->timeouts, 0);
    rc_rig_free(r);
}

/*
 * Overlapping multi-burst READs under 2 % frame loss: re-requests arrive
 * while others are queued (the responder drops what it holds from the
 * re-requested PSN on); every READ still completes once, in order, with
 * its own data.
 */
static void test_loss_reads_queued(void **state)
{
    RcRig *r = rig_new(1024);
    unsigned round;

    r->b->h[0]->loss_ppm = 20000;
    r->b->h[1]->loss_ppm = 20000;
    for (round = 0; round < 8; round++) {
        three_reads(r, 300u << 10, 300 + round);
    }
    assert_true(b2b_stats(r->b, 1)->rd_queued > 0);
    assert_true(b2b_stats(r->b, 0)->timeouts + b2b_stats(r->b, 0)->retransmits
                > 0);
    rc_rig_free(r);
}

/* ---- error paths ------------------------------------------------------------ */

static void expect_sq_err(RcRig *r, uint8_t minor)
{
    DpCqe e;

    assert_true(dp_poll_cq(&r->scq[0], &e));
    assert_true(e.error);
    assert_int_equal(e.major, E810_CQE_MAJ_FLUSH);
    assert_int_equal(e.minor, minor);
}

static DpAe expect_ae(RcRig *r, unsigned side)
{
    DpAe ae;

    assert_true(dp_poll_ae(&r->b->dev[side], &ae));
    assert_int_equal(ae.id, r->qp[side].id);
    assert_true(ae.ctx == r->qp[side].compl_ctx);
    return ae;
}

static void no_more_ae(RcRig *r, unsigned side)
{
    DpAe ae;

    assert_false(dp_poll_ae(&r->b->dev[side], &ae));
}

static void test_bad_rkey(void **state)
{
    RcRig *r = rig_new(1024);
    DpSend s = one_sge(r, E810_OP_RDMA_WRITE, 0, 3000);
    DpAe ae;

    s.remote_va = r->buf[1];
    s.rkey = r->key[1] ^ 0x01;      /* wrong key byte */
    dp_post_send(&r->qp[0], &s);
    dp_ring(&r->qp[0], false);
    b2b_run(r->b);
    expect_sq_err(r, E810_FLUSH_REM_ACCESS_ERR);
    ae = expect_ae(r, 0);
    assert_int_equal(ae.code, E810_AE_IB_REMOTE_ACCESS_ERROR);
    /* The responder raises its own, access-protection AE and stops. */
    ae = expect_ae(r, 1);
    assert_int_equal(ae.code, E810_AE_AMP_BAD_STAG_KEY);
    no_more_ae(r, 0);
    no_more_ae(r, 1);
    assert_int_equal(b2b_stats(r->b, 1)->naks_sent, 1);
    assert_int_equal(b2b_stats(r->b, 0)->err_naks_rcvd, 1);
    rc_rig_free(r);
}

static void test_read_out_of_bounds(void **state)
{
    RcRig *r = rig_new(1024);
    DpSend s = one_sge(r, E810_OP_RDMA_READ, 0, 8192);
    DpAe ae;

    /* Starts inside the remote MR, ends past it. */
    s.remote_va = r->buf[1] + BIG + 8192 - 4096;
    s.rkey = r->key[1];
    dp_post_send(&r->qp[0], &s);
    dp_ring(&r->qp[0], false);
    b2b_run(r->b);
    expect_sq_err(r, E810_FLUSH_REM_ACCESS_ERR);
    ae = expect_ae(r, 0);
    assert_int_equal(ae.code, E810_AE_IB_REMOTE_ACCESS_ERROR);
    ae = expect_ae(r, 1);
    assert_int_equal(ae.code, E810_AE_AMP_BOUNDS_VIOLATION);
    rc_rig_free(r);
}

/*
 * max_msg_sz (0x7FFFFFFF) at path MTU 256 is 2^23 packets, half the PSN
 * space: the requester fails such a WQE at once (AE 0x020B) instead of
 * putting a span on the wire that its PSN comparisons cannot order.
 */
static void test_max_msg_mtu256_requester(void **state)
{
    static const unsigned ops[] = { E810_OP_RDMA_READ, E810_OP_RDMA_WRITE,
                                    E810_OP_SEND };
    unsigned i;

    for (i = 0; i < 3; i++) {
        RcRig *r = rig_new(256);
        DpAe ae;

        rc_rig_post(r, 0, ops[i], 0, 0, 0x7fffffff);
        dp_ring(&r->qp[0], false);
        b2b_run(r->b);
        expect_sq_err(r, E810_FLUSH_FATAL_ERR);
        ae = expect_ae(r, 0);
        assert_int_equal(ae.code, E810_AE_WQE_INVALID_PARAMETER);
        assert_int_equal(b2b_stats(r->b, 0)->tx_packets, 0);
        no_more_ae(r, 1);
        rc_rig_free(r);
    }
}

/* 1 GiB at MTU 256 is 2^22 packets, the largest span: it is accepted. */
static void test_max_span_mtu256_accepted(void **state)
{
    RcRig *r = rig_new(256);
    DpAe ae;

    rc_rig_post(r, 0, E810_OP_RDMA_READ, 0, 0, 1u << 30);
    dp_ring(&r->qp[0], false);
    b2b_run(r->b);
    /* It goes out; the responder's MR is far smaller than 1 GiB. */
    expect_sq_err(r, E810_FLUSH_REM_ACCESS_ERR);
    ae = expect_ae(r, 1);
    assert_int_equal(ae.code, E810_AE_AMP_BOUNDS_VIOLATION);
    rc_rig_free(r);
}

/* A peer's READ request of 0x7FFFFFFF bytes at MTU 256: Invalid Request. */
static void test_max_msg_mtu256_responder(void **state)
{
    RcRig *r = rig_new(256);
    E810Core *c = &r->b->h[0]->core;
    E810Qp *qp = e810_qp_get(c, r->qp[0].id);
    E810RocePkt p = { 0 };  /* rc_headers() fills only L2..L4 */
    DpAe ae;

    e810_xport_enter(c);
    e810_xport_rc_headers(c, qp, &p);
    p.opcode = E810_BTH_RC_READ_REQ;
    p.psn = 0xfffff0;       /* side 1's expected PSN (b2b_connect) */
    p.ackreq = true;
    p.va = r->buf[1];
    p.rkey = r->key[1];
    p.dma_len = 0x7fffffff;
    e810_xport_tx(c, qp, &p, c->xport->frame, 0);
    e810_xport_exit(c);
    b2b_run(r->b);
    ae = expect_ae(r, 1);
    assert_int_equal(ae.code, E810_AE_IB_INVALID_REQUEST);
    assert_int_equal(b2b_stats(r->b, 1)->read_resp_sent, 0);
    assert_int_equal(b2b_stats(r->b, 1)->naks_sent, 1);
    rc_rig_free(r);
}

static void test_bad_lkey(void **state)
{
    RcRig *r = rig_new(1024);
    DpSend s = one_sge(r, E810_OP_SEND, 0, 100);
    DpAe ae;

    s.sge[0].lkey = r->key[0] + 0x100;  /* an STag index never allocated */
    post_recv(r, 1, 0, 4096);
    dp_post_send(&r->qp[0], &s);
    dp_ring(&r->qp[0], false);
    b2b_run(r->b);
    expect_sq_err(r, E810_FLUSH_PROT_ERR);
    ae = expect_ae(r, 0);
    assert_true(ae.code >= E810_AE_AMP_UNALLOCATED_STAG &&
                ae.code <= E810_AE_AMP_FASTREG_PBLE_MISMATCH);
    /* Nothing reached the wire; the peer is untouched. */
    assert_int_equal(b2b_stats(r->b, 1)->rx_packets, 0);
    no_more_ae(r, 1);
    rc_rig_free(r);
}

/*
 * STag 0 is the local DMA key of privileged (kernel) QPs: SEND and receive
 * SGEs with lkey 0 are bus addresses. It is never a remote key: an RDMA
 * WRITE with rkey 0 is a remote access error.
 */
static void test_priv_stag0(void **state)
{
    RcRig *r = rig_new(1024);
    DpSend s = one_sge(r, E810_OP_SEND, 0, 5000);
    E810Sge sge = { r->buf[1], 8192, 0 };
    uint32_t idx;
    unsigned i;
    DpAe ae;

    for (i = 0; i < 2; i++) {
        b2b_ctx_rmw(&r->qp[i], E810_QPC_FLAGS_OFF, E810_QPC_PRIVEN,
                    E810_QPC_PRIVEN);
        dp_qp_rts(&r->qp[i]);
    }
    b2b_fill(rc_rig_buf(r, 0, 0), 5000, 11);
    memset(rc_rig_buf(r, 1, 0), 0xaa, 8192);
    s.sge[0].lkey = 0;
    dp_post_recv(&r->qp[1], &sge, 1);
    idx = dp_post_send(&r->qp[0], &s);
    dp_ring(&r->qp[0], false);
    b2b_run(r->b);
    expect_sq_ok(r, E810_OP_SEND, idx);
    expect_rq_ok(r, 5000, false, 0);
    assert_true(b2b_check(rc_rig_buf(r, 1, 0), 5000, 11));
    assert_int_equal(rc_rig_buf(r, 1, 0)[5000], 0xaa);

    s = one_sge(r, E810_OP_RDMA_WRITE, 0, 100);
    s.remote_va = r->buf[1];
    s.rkey = 0;
    dp_post_send(&r->qp[0], &s);
    dp_ring(&r->qp[0], false);
    b2b_run(r->b);
    expect_sq_err(r, E810_FLUSH_REM_ACCESS_ERR);
    ae = expect_ae(r, 0);
    assert_int_equal(ae.code, E810_AE_IB_REMOTE_ACCESS_ERROR);
    rc_rig_free(r);
}

/* A SEND longer than the receive WQE: invalid request on both ends. */
static void test_recv_too_small(void **state)
{
    RcRig *r = rig_new(1024);
    DpSend s = one_sge(r, E810_OP_SEND, 0, 5000);
    DpCqe e;
    DpAe ae;

    post_recv(r, 1, 0, 4096);
    dp_post_send(&r->qp[0], &s);
    dp_ring(&r->qp[0], false);
    b2b_run(r->b);
    expect_sq_err(r, e810_dp_flush_code(E810_AE_IB_INVALID_REQUEST));
    ae = expect_ae(r, 0);
    assert_int_equal(ae.code, E810_AE_IB_INVALID_REQUEST);
    assert_true(dp_poll_cq(&r->rcq[1], &e));
    assert_true(e.error);
    assert_int_equal(e.minor, E810_FLUSH_LOC_LEN_ERR);
    ae = expect_ae(r, 1);
    assert_int_equal(ae.code,
                     E810_AE_DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER);
    rc_rig_free(r);
}

/*
 * A receive WQE whose lkey is bad (e.g. the MR was re-registered to
 * another PD): the responder's own fault, so the requester sees a Remote
 * Operational Error, not a remote access error (IB 9.7.5.2.4).
 */
static void test_recv_bad_lkey(void **state)
{
    RcRig *r = rig_new(1024);
    DpSend s = one_sge(r, E810_OP_SEND, 0, 100);
    E810Sge sge = { r->buf[1], 4096, r->key[1] + 0x100 };
    DpCqe e;
    DpAe ae;

    dp_post_recv(&r->qp[1], &sge, 1);
    dp_post_send(&r->qp[0], &s);
    dp_ring(&r->qp[0], false);
    b2b_run(r->b);
    expect_sq_err(r, E810_FLUSH_REM_OP_ERR);
    ae = expect_ae(r, 0);
    assert_int_equal(ae.code, E810_AE_IB_REMOTE_OP_ERROR);
    /* The responder completes its receive WQE with a protection error. */
    assert_true(dp_poll_cq(&r->rcq[1], &e));
    assert_true(e.error);
    ae = expect_ae(r, 1);
    assert_true(ae.code >= E810_AE_AMP_UNALLOCATED_STAG &&
                ae.code <= E810_AE_AMP_FASTREG_PBLE_MISMATCH);
    assert_int_equal(b2b_stats(r->b, 1)->naks_sent, 1);
    rc_rig_free(r);
}

static void test_rnr_exhausted(void **state)
{
    RcRig *r = rig_new(1024);
    DpSend s = one_sge(r, E810_OP_SEND, 0, 100);
    DpAe ae;

    dp_post_send(&r->qp[0], &s);    /* and no receive posted at all */
    dp_ring(&r->qp[0], false);
    b2b_run(r->b);
    expect_sq_err(r, E810_FLUSH_RNR_RETRY_EXC_ERR);
    ae = expect_ae(r, 0);
    assert_int_equal(ae.code, E810_AE_LLP_TOO_MANY_RNRS);
    /* RNRNAK_THRESH 2: the first try and two retries were refused. */
    assert_int_equal(b2b_stats(r->b, 1)->rnr_naks_sent, 3);
    no_more_ae(r, 1);
    rc_rig_free(r);
}

/*
 * A SEND that finds no receive until @after_ns, which gets @naks RNR
 * NAKs meanwhile (and has not failed), then completes with the receive.
 */
static void send_late_recv(uint64_t after_ns, unsigned naks)
{
    RcRig *r = rig_new(1024);
    DpSend s = one_sge(r, E810_OP_SEND, 0, 3000);
    DpCqe e;
    uint32_t idx;

    b2b_fill(rc_rig_buf(r, 0, 0), 3000, 77);
    idx = dp_post_send(&r->qp[0], &s);
    dp_ring(&r->qp[0], false);
    b2b_run_for(r->b, after_ns);
    assert_false(dp_poll_cq(&r->scq[0], &e));
    assert_int_equal(b2b_stats(r->b, 1)->rnr_naks_sent, naks);
    post_recv(r, 1, 0, 4096);
    b2b_run(r->b);
    expect_sq_ok(r, E810_OP_SEND, idx);
    expect_rq_ok(r, 3000, false, 0);
    assert_true(b2b_check(rc_rig_buf(r, 1, 0), 3000, 77));
    assert_int_equal(b2b_stats(r->b, 1)->rnr_naks_sent, naks);
    rc_rig_free(r);
}

static void test_rnr_then_recovers(void **state)
{
    send_late_recv(500000, 1);      /* less than one RNR delay */
}

/*
 * The receive comes 5 ms after the SEND (a guest the host did not run):
 * with RNRNAK_THRESH 2 three plain 1.28 ms timers ran out at 2.56 ms
 * (rdma-core's test_rdmacm_async_traffic_external_qp failed so). The
 * counted retries back off (1.28 ms, then 5.12 ms): the retry at 6.4 ms
 * finds the receive.
 */
static void test_rnr_backs_off(void **state)
{
    send_late_recv(5000000, 2);
}

static void test_retry_exhausted(void **state)
{
    RcRig *r = rig_new(1024);
    DpSend s = one_sge(r, E810_OP_RDMA_WRITE, 0, 5000);
    DpAe ae;

    s.remote_va = r->buf[1];
    s.rkey = r->key[1];
    r->b->h[0]->loss_ppm = 1000000;     /* the wire eats everything */
    dp_post_send(&r->qp[0], &s);
    dp_ring(&r->qp[0], false);
    b2b_run(r->b);
    expect_sq_err(r, E810_FLUSH_RETRY_EXC_ERR);
    ae = expect_ae(r, 0);
    assert_int_equal(ae.code, E810_AE_LLP_TOO_MANY_RETRIES);
    /* REXMIT_THRESH 2: two retransmissions, the third timeout gives up. */
    assert_int_equal(b2b_stats(r->b, 0)->timeouts, 3);
    assert_int_equal(b2b_stats(r->b, 0)->retransmits, 2 * 5);
    rc_rig_free(r);
}

/*
 * DESTROY_QP drops the transport state with the QP (irdma reuses QP ids:
 * irdma_alloc_rsrc() hands a freed id out again). Side 0 leaves WQEs in
 * flight, its PSNs advanced and its retransmission timer armed; both QPs
 * are destroyed and created again with the same ids and other PSNs, and
 * the new pair starts clean: nothing of the old one goes out again.
 */
static void test_destroy_recreate_same_id(void **state)
{
    RcRig *r = rig_new(1024);
    E810Core *c0 = &r->b->h[0]->core;
    uint32_t id[2] = { r->qp[0].id, r->qp[1].id };
    uint64_t tx_before;
    unsigned i;
    DpCqe e;

    r->b->h[0]->loss_ppm = 1000000;     /* nothing arrives */
    for (i = 0; i < 3; i++) {
        rc_rig_post(r, 0, E810_OP_RDMA_WRITE, 0, 0, 5000);
    }
    dp_ring(&r->qp[0], false);
    b2b_run_for(r->b, 1);
    assert_non_null(c0->xport->qp[id[0]]);
    assert_int_equal(c0->xport->qp[id[0]]->wq_count, 3);
    assert_true(c0->xport->qp[id[0]]->deadline != 0);

    for (i = 0; i < 2; i++) {
        E810Xport *xp = r->b->h[i]->core.xport;

        assert_true(dp_qp_destroy(&r->qp[i]));
        assert_true(id[i] >= xp->nqp || !xp->qp[id[i]]);
    }
    r->b->h[0]->loss_ppm = 0;
    for (i = 0; i < 2; i++) {
        DpDev *d = &r->b->dev[i];

        d->next_qp = id[i];
        dp_qp_create(d, &r->qp[i], E810_QP_TYPE_ROCE_RC, &r->scq[i],
                     &r->rcq[i], 256, 64, 1, false, false);
        assert_int_equal(r->qp[i].id, id[i]);
    }
    b2b_connect_one(r->b, &r->qp[0], &r->qp[1], 1024, 0x123456, 0x654321);
    b2b_connect_one(r->b, &r->qp[1], &r->qp[0], 1024, 0x654321, 0x123456);
    tx_before = b2b_stats(r->b, 0)->tx_packets;
    /* Not a timer of the old QP fires, not one of its WQEs goes out. */
    b2b_run(r->b);
    assert_int_equal(b2b_stats(r->b, 0)->tx_packets, tx_before);
    assert_false(dp_poll_cq(&r->scq[0], &e));

    b2b_fill(rc_rig_buf(r, 0, 0), 3000, 5);
    rc_rig_post(r, 0, E810_OP_RDMA_WRITE, 0, 65536, 3000);
    dp_ring(&r->qp[0], false);
    b2b_run(r->b);
    assert_true(dp_poll_cq(&r->scq[0], &e));
    assert_false(e.error);
    assert_false(dp_poll_cq(&r->scq[0], &e));
    assert_true(b2b_check(rc_rig_buf(r, 1, 65536), 3000, 5));
    /* Three packets from the new PSN, none resent, in one round trip. */
    assert_int_equal(b2b_stats(r->b, 0)->tx_packets, tx_before + 3);
    assert_int_equal(c0->xport->qp[id[0]]->next_psn, 0x123456 + 3);
    assert_int_equal(b2b_stats(r->b, 1)->rx_psn_oos, 0);
    assert_int_equal(b2b_stats(r->b, 1)->rx_psn_dup, 0);
    rc_rig_free(r);
}

/*
 * RTS -> SQD with WQEs in flight: the suspend-complete AE (which upstream
 * irdma waits for) comes only once they completed; an idle QP's comes at
 * once. SQD -> RTS then sends again.
 */
static void test_sqd_drain_ae(void **state)
{
    RcRig *r = rig_new(1024);
    DpDev *d0 = &r->b->dev[0];
    unsigned i;
    DpCqe e;
    DpAe ae;

    r->b->h[0]->loss_ppm = 1000000;     /* nothing arrives: all in flight */
    for (i = 0; i < 3; i++) {
        rc_rig_post(r, 0, E810_OP_RDMA_WRITE, 0, 0, 3000);
    }
    dp_ring(&r->qp[0], false);
    b2b_run_for(r->b, 1);
    assert_true(dp_qp_modify(&r->qp[0], E810_QP_STATE_SQD));
    assert_false(dp_poll_ae(d0, &ae));
    r->b->h[0]->loss_ppm = 0;
    b2b_run(r->b);                      /* retransmitted, acknowledged */
    for (i = 0; i < 3; i++) {
        assert_true(dp_poll_cq(&r->scq[0], &e));
        assert_false(e.error);
    }
    assert_true(dp_poll_ae(d0, &ae));
    assert_int_equal(ae.code, E810_AE_QP_SUSPEND_COMPLETE);
    assert_int_equal(ae.id, r->qp[0].id);
    assert_false(dp_poll_ae(d0, &ae));

    /* Back to RTS and again to SQD, idle now: the AE at once. */
    assert_true(dp_qp_modify(&r->qp[0], E810_QP_STATE_RTS));
    b2b_fill(rc_rig_buf(r, 0, 0), 2000, 9);
    rc_rig_post(r, 0, E810_OP_RDMA_WRITE, 0, 65536, 2000);
    dp_ring(&r->qp[0], false);
    b2b_run(r->b);
    assert_true(dp_poll_cq(&r->scq[0], &e));
    assert_false(e.error);
    assert_true(b2b_check(rc_rig_buf(r, 1, 65536), 2000, 9));
    assert_false(dp_poll_ae(d0, &ae));
    assert_true(dp_qp_modify(&r->qp[0], E810_QP_STATE_SQD));
    assert_true(dp_poll_ae(d0, &ae));
    assert_int_equal(ae.code, E810_AE_QP_SUSPEND_COMPLETE);
    rc_rig_free(r);
}

/* ---- loss ---------------------------------------------------------------- */

#define LOSS_MSGS   10000
#define LOSS_BATCH  40
#define LOSS_SLOT   4096

static uint32_t loss_len(uint32_t i)
{
    return (i * 2654435761u >> 7) % 3001;   /* 0..3000 bytes */
}

static void test_loss_exactly_once(void **state)
{
    RcRig *r = rig_new(1024);
    uint32_t base, seen = 0;
    DpCqe e;

    r->b->h[0]->loss_ppm = 20000;
    r->b->h[1]->loss_ppm = 20000;
    for (base = 0; base < LOSS_MSGS; base += LOSS_BATCH) {
        unsigned k;

        for (k = 0; k < LOSS_BATCH; k++) {
            uint32_t i = base + k, len = loss_len(i);
            uint64_t off = (uint64_t)k * LOSS_SLOT;
            bool write = i & 1;
            DpSend s = one_sge(r, write ? E810_OP_RDMA_WRITE : E810_OP_SEND,
                               off, len);

            b2b_fill(rc_rig_buf(r, 0, off), len, i);
            memset(rc_rig_buf(r, 1, off), 0, LOSS_SLOT);
            post_recv(r, 1, off, write ? 0 : LOSS_SLOT);
            s.imm_valid = true;
            s.imm = i;
            s.remote_va = r->buf[1] + off;
            s.rkey = r->key[1];
            dp_post_send(&r->qp[0], &s);
        }
        dp_ring(&r->qp[0], false);
        b2b_run(r->b);
        for (k = 0; k < LOSS_BATCH; k++) {
            uint32_t i = base + k, len = loss_len(i);

            assert_true(dp_poll_cq(&r->scq[0], &e));
            assert_false(e.error);
            /* In order, each once, with its own payload. */
            assert_true(dp_poll_cq(&r->rcq[1], &e));
            assert_false(e.error);
            assert_true(e.imm_valid);
            assert_int_equal(e.imm, i);
            assert_int_equal(e.len, len);
            assert_true(b2b_check(rc_rig_buf(r, 1, (uint64_t)k * LOSS_SLOT), len,
                                  i));
            seen++;
        }
        assert_false(dp_poll_cq(&r->scq[0], &e));
        assert_false(dp_poll_cq(&r->rcq[1], &e));
    }
    assert_int_equal(seen, LOSS_MSGS);
    /* The wire really lost frames and the transport recovered them. */
    assert_true(r->b->h[0]->wire_lost > 100);
    assert_true(b2b_stats(r->b, 0)->retransmits > 100);
    assert_true(b2b_stats(r->b, 1)->rx_psn_dup > 0 ||
                b2b_stats(r->b, 1)->rx_psn_oos > 0);
    rc_rig_free(r);
}

/* READs under 5 % loss: partial responses are asked for again. */
static void test_loss_reads(void **state)
{
    RcRig *r = rig_new(512);
    unsigned i;
    DpCqe e;

    r->b->h[0]->loss_ppm = 50000;
    r->b->h[1]->loss_ppm = 50000;
    for (i = 0; i < 200; i++) {
        uint32_t len = (i * 7919u) % 20000;
        DpSend s = one_sge(r, E810_OP_RDMA_READ, 0, len);

        b2b_fill(rc_rig_buf(r, 1, 4096), len, 5000 + i);
        memset(rc_rig_buf(r, 0, 0), 0, 20480);
        s.remote_va = r->buf[1] + 4096;
        s.rkey = r->key[1];
        dp_post_send(&r->qp[0], &s);
        dp_ring(&r->qp[0], false);
        b2b_run(r->b);
        assert_true(dp_poll_cq(&r->scq[0], &e));
        assert_false(e.error);
        assert_true(b2b_check(rc_rig_buf(r, 0, 0), len, 5000 + i));
        assert_int_equal(*rc_rig_buf(r, 0, len), 0);
    }
    assert_true(b2b_stats(r->b, 0)->timeouts + b2b_stats(r->b, 0)->retransmits
                > 0);
    rc_rig_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes_mtu256),
        cmocka_unit_test(test_sizes_mtu512),
        cmocka_unit_test(test_sizes_mtu1024),
        cmocka_unit_test(test_sizes_mtu2048),
        cmocka_unit_test(test_sizes_mtu4096),
        cmocka_unit_test(test_pipelined_mix),
        cmocka_unit_test(test_read_paced_then_send),
        cmocka_unit_test(test_reads_queued),
        cmocka_unit_test(test_loss_reads_queued),
        cmocka_unit_test(test_ipv6_vlan),
        cmocka_unit_test(test_loopback_same_device),
        cmocka_unit_test(test_bad_rkey),
        cmocka_unit_test(test_read_out_of_bounds),
        cmocka_unit_test(test_max_msg_mtu256_requester),
        cmocka_unit_test(test_max_span_mtu256_accepted),
        cmocka_unit_test(test_max_msg_mtu256_responder),
        cmocka_unit_test(test_bad_lkey),
        cmocka_unit_test(test_priv_stag0),
        cmocka_unit_test(test_recv_too_small),
        cmocka_unit_test(test_recv_bad_lkey),
        cmocka_unit_test(test_rnr_exhausted),
        cmocka_unit_test(test_rnr_then_recovers),
        cmocka_unit_test(test_rnr_backs_off),
        cmocka_unit_test(test_retry_exhausted),
        cmocka_unit_test(test_destroy_recreate_same_id),
        cmocka_unit_test(test_sqd_drain_ae),
        cmocka_unit_test(test_loss_exactly_once),
        cmocka_unit_test(test_loss_reads),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_rc_b2b", tests, NULL, NULL);
}
