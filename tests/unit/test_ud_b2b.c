/*
 * UD over RoCEv2 between two device models joined back to back: address
 * handles to headers, DETH and Q_Key checks, the 40-byte GRH area, the
 * UD fields of the receive CQE, datagrams too long for the path MTU,
 * multicast delivery to every QP attached to a group, and the Send Queue
 * Error state a failing UD send enters (RQ live, MODIFY_QP RTS recovers).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "b2b.h"

#define QKEY        0x11223344u
#define MC_IP       0xef010101u     /* 239.1.1.1 */
#define AH_PEER     3
#define AH_MCAST    4

typedef struct UdRig {
    B2B *b;
    DpCq cq[2];
    DpQp qp[2];
    DpQp qp_b2;             /* a second UD QP on side 1 (multicast) */
    uint64_t buf[2];
    uint32_t key[2];
} UdRig;

static void ud_ctx(DpQp *qp, uint32_t qkey)
{
    b2b_ctx_rmw(qp, E810_QPC_DEST_OFF, E810_QPC_QKEY,
                FIELD_PREP(E810_QPC_QKEY, qkey));
    dp_qp_rts(qp);
}

/*
 * AH idx on device dev to dmac, as irdma_setup_ah() writes one: qword 0 is
 * the source MAC (the device's own), the destination MAC an ARP cache
 * entry (index 8 + idx) the AH names.
 */
static void create_ah(UdRig *r, unsigned dev, uint32_t idx,
                      const uint8_t dmac[6], uint32_t sip, uint32_t dip)
{
    DpDev *d = &r->b->dev[dev];
    uint64_t q[8] = { 0 };
    uint32_t arp = 8 + idx;

    b2b_arp(d, arp, dmac);
    rd_back_object(&d->d, E810_HMC_FSIAV, idx);
    q[E810_QW(E810_CQPSQ_AH_MAC_OFF)] =
        FIELD_PREP(E810_CQPSQ_AH_MAC, b2b_mac_u64(r->b->h[dev]->core.mac));
    q[E810_QW(E810_CQPSQ_AH_VLAN_OFF)] =
        FIELD_PREP(E810_CQPSQ_AH_TC, 0x68) |
        FIELD_PREP(E810_CQPSQ_AH_PDINDEXLO, DP_PD);
    q[E810_QW(E810_CQPSQ_AH_FLOW_OFF)] =
        FIELD_PREP(E810_CQPSQ_AH_HOPLIMIT, 33) |
        FIELD_PREP(E810_CQPSQ_AH_ARPINDEX, arp);
    q[E810_QW(E810_CQPSQ_AH_DIP23_OFF)] = FIELD_PREP(E810_CQPSQ_AH_IP_LO, dip);
    q[E810_QW(E810_CQPSQ_AH_SIP23_OFF)] = FIELD_PREP(E810_CQPSQ_AH_IP_LO, sip);
    assert_true(rd_do(&d->d, E810_CQP_OP_CREATE_ADDR_HANDLE,
                      FIELD_PREP(E810_CQPSQ_AH_AVIDX, idx) |
                      E810_CQPSQ_AH_IPV4VALID, q));
}

static void create_mcg(DpDev *d, uint32_t idx, const uint8_t mac[6],
                       uint32_t ip, const uint32_t *qpn, unsigned n)
{
    uint64_t q[8] = { 0 }, ctx = mem_alloc(d->h, 8 * 8);
    uint64_t *ent = mem_ptr(d->h, ctx);
    unsigned i;

    for (i = 0; i < n; i++) {
        ent[i] = htole64(E810_MG_CTX_VALIDENT |
                         FIELD_PREP(E810_MG_CTX_QPID, qpn[i]));
    }
    rd_back_object(&d->d, E810_HMC_FSIMC, idx);
    q[E810_QW(E810_CQPSQ_MG_MAC_OFF)] =
        FIELD_PREP(E810_CQPSQ_MG_MAC, b2b_mac_u64(mac));
    q[E810_QW(E810_CQPSQ_MG_CTX_OFF)] = ctx;
    q[E810_QW(E810_CQPSQ_MG_DIP23_OFF)] = FIELD_PREP(E810_CQPSQ_AH_IP_LO, ip);
    assert_true(rd_do(&d->d, E810_CQP_OP_CREATE_MCAST_GRP,
                      FIELD_PREP(E810_CQPSQ_MG_MGIDX, idx) |
                      E810_CQPSQ_MG_IPV4VALID, q));
}

static UdRig *ud_rig_new(void)
{
    UdRig *r = calloc(1, sizeof(*r));
    unsigned i;

    assert_non_null(r);
    r->b = b2b_new(0);
    for (i = 0; i < 2; i++) {
        DpDev *d = &r->b->dev[i];

        dp_cq_create(d, &r->cq[i], 64);
        dp_qp_create(d, &r->qp[i], E810_QP_TYPE_ROCE_UD, &r->cq[i],
                     &r->cq[i], 64, 16, 1, false, false);
        b2b_ctx_rmw(&r->qp[i], E810_QPC_MAC_OFF, E810_QPC_MACADDRESS,
                    FIELD_PREP(E810_QPC_MACADDRESS,
                               b2b_mac_u64(r->b->h[i]->core.mac)));
        ud_ctx(&r->qp[i], QKEY);
        r->buf[i] = mem_alloc_aligned(r->b->h[i], 65536, 4096);
        r->key[i] = dp_mr_buf(d, DP_PD, r->buf[i], 65536, B2B_ALL_RIGHTS);
    }
    create_ah(r, 0, AH_PEER, r->b->h[1]->core.mac, B2B_IP(0), B2B_IP(1));
    return r;
}

static void ud_rig_free(UdRig *r)
{
    b2b_free(r->b);
    free(r);
}

static uint8_t *ubuf(UdRig *r, unsigned side, uint64_t off)
{
    return mem_ptr(r->b->h[side], r->buf[side] + off);
}

static uint32_t ud_send(UdRig *r, uint32_t ah, uint32_t dqpn, uint32_t qkey,
                        uint32_t len, bool imm)
{
    DpSend s;
    uint32_t idx;

    memset(&s, 0, sizeof(s));
    s.op = E810_OP_SEND;
    s.signaled = true;
    s.nsge = len ? 1 : 0;
    s.sge[0].addr = r->buf[0];
    s.sge[0].len = len;
    s.sge[0].lkey = r->key[0];
    s.ah_id = ah;
    s.dest_qpn = dqpn;
    s.qkey = qkey;
    s.imm_valid = imm;
    s.imm = 0x5eed0000u | len;
    idx = dp_post_send(&r->qp[0], &s);
    dp_ring(&r->qp[0], false);
    b2b_run(r->b);
    return idx;
}

static void ud_recv(UdRig *r, DpQp *qp, uint64_t off, uint32_t len)
{
    E810Sge sge = { r->buf[1] + off, len, r->key[1] };

    dp_post_recv(qp, &sge, 1);
}

static void expect_send_ok2(UdRig *r, unsigned side, uint32_t idx)
{
    DpCqe e;

    assert_true(dp_poll_cq(&r->cq[side], &e));
    assert_true(e.sq);
    assert_false(e.error);
    assert_int_equal(e.wqe_idx, idx);
}

static void expect_send_ok(UdRig *r, uint32_t idx)
{
    expect_send_ok2(r, 0, idx);
}

static void test_ud_send_sizes(void **state)
{
    UdRig *r = ud_rig_new();
    static const uint32_t sizes[] = { 0, 1, 100, 1023, 1024 };
    unsigned i;

    for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        uint32_t len = sizes[i], idx;
        const uint8_t *grh;
        DpCqe e;

        b2b_fill(ubuf(r, 0, 0), len, 40 + i);
        memset(ubuf(r, 1, 0), 0xaa, 4096);
        ud_recv(r, &r->qp[1], 0, 4096);
        idx = ud_send(r, AH_PEER, r->qp[1].id, QKEY, len, i & 1);
        expect_send_ok(r, idx);
        assert_true(dp_poll_cq(&r->cq[1], &e));
        assert_false(e.error);
        assert_false(e.sq);
        assert_int_equal(e.len, len + 40);
        assert_int_equal(e.q2_low, r->qp[0].id);    /* source QPN */
        assert_true(e.smac_valid);
        assert_memory_equal(e.smac, r->b->h[0]->core.mac, 6);
        assert_int_equal(e.imm_valid, i & 1);
        if (i & 1) {
            assert_int_equal(e.imm, 0x5eed0000u | len);
        }
        /* GRH area: 20 zero bytes, then the IPv4 header as received. */
        grh = ubuf(r, 1, 0);
        assert_int_equal(grh[0], 0);
        assert_int_equal(grh[19], 0);
        assert_int_equal(grh[20], 0x45);
        assert_int_equal(grh[21], 0x68);            /* TOS from the AH */
        assert_int_equal(grh[28], 33);              /* TTL from the AH */
        assert_int_equal(grh[29], 17);              /* UDP */
        assert_int_equal(grh[32], 10);
        assert_int_equal(grh[35], 1);               /* source 10.0.0.1 */
        assert_int_equal(grh[39], 2);               /* destination .2 */
        assert_true(b2b_check(grh + 40, len, 40 + i));
        assert_int_equal(grh[40 + len], 0xaa);
    }
    assert_int_equal(b2b_stats(r->b, 1)->ud_delivered, 5);
    ud_rig_free(r);
}

/*
 * Privileged QPs (PRIVEN, kernel QPs) name STag 0 for plain bus addresses
 * (the local DMA lkey; ib_mad's QP1 buffers): send and receive work
 * without an MR; a QP without PRIVEN gets the access error.
 */
static void test_ud_priv_stag0(void **state)
{
    UdRig *r = ud_rig_new();
    uint32_t len = 256, idx;
    const uint8_t *grh;
    E810Sge sge;
    DpSend s;
    DpCqe e;
    unsigned i;

    for (i = 0; i < 2; i++) {
        b2b_ctx_rmw(&r->qp[i], E810_QPC_FLAGS_OFF, E810_QPC_PRIVEN,
                    E810_QPC_PRIVEN);
        dp_qp_rts(&r->qp[i]);
    }
    b2b_fill(ubuf(r, 0, 0), len, 7);
    memset(ubuf(r, 1, 0), 0xaa, 4096);
    sge = (E810Sge){ r->buf[1], 40 + len, 0 };
    dp_post_recv(&r->qp[1], &sge, 1);
    memset(&s, 0, sizeof(s));
    s.op = E810_OP_SEND;
    s.signaled = true;
    s.nsge = 2;                 /* header and payload, as ib_mad posts */
    s.sge[0] = (E810Sge){ r->buf[0], 24, 0 };
    s.sge[1] = (E810Sge){ r->buf[0] + 24, len - 24, 0 };
    s.ah_id = AH_PEER;
    s.dest_qpn = r->qp[1].id;
    s.qkey = 0x80000000u;       /* the QP's Q_Key */
    idx = dp_post_send(&r->qp[0], &s);
    dp_ring(&r->qp[0], false);
    b2b_run(r->b);
    expect_send_ok(r, idx);
    assert_true(dp_poll_cq(&r->cq[1], &e));
    assert_false(e.error);
    assert_int_equal(e.len, len + 40);
    grh = ubuf(r, 1, 0);
    assert_int_equal(grh[20], 0x45);
    assert_true(b2b_check(grh + 40, len, 7));
    assert_int_equal(grh[40 + len], 0xaa);

    /* Without PRIVEN STag 0 is just an invalid STag. */
    b2b_ctx_rmw(&r->qp[0], E810_QPC_FLAGS_OFF, E810_QPC_PRIVEN, 0);
    dp_qp_rts(&r->qp[0]);
    sge = (E810Sge){ r->buf[1], 40 + len, 0 };
    dp_post_recv(&r->qp[1], &sge, 1);
    idx = dp_post_send(&r->qp[0], &s);
    dp_ring(&r->qp[0], false);
    b2b_run(r->b);
    assert_true(dp_poll_cq(&r->cq[0], &e));
    assert_true(e.sq);
    assert_true(e.error);
    assert_int_equal(b2b_stats(r->b, 1)->ud_delivered, 1);
    ud_rig_free(r);
}

static void test_ud_qkey_mismatch_dropped(void **state)
{
    UdRig *r = ud_rig_new();
    uint32_t idx;
    DpCqe e;

    ud_recv(r, &r->qp[1], 0, 4096);
    idx = ud_send(r, AH_PEER, r->qp[1].id, QKEY + 1, 64, false);
    /* The sender completes (UD is unreliable); the receiver drops it. */
    expect_send_ok(r, idx);
    assert_false(dp_poll_cq(&r->cq[1], &e));
    assert_int_equal(b2b_stats(r->b, 1)->rx_bad_qkey, 1);
    /* Q_Key with the high bit set: the sender's QP Q_Key is used. */
    idx = ud_send(r, AH_PEER, r->qp[1].id, 0x80000000u, 64, false);
    expect_send_ok(r, idx);
    assert_true(dp_poll_cq(&r->cq[1], &e));
    assert_false(e.error);
    ud_rig_free(r);
}

static void test_ud_no_rwqe_and_bad_qp(void **state)
{
    UdRig *r = ud_rig_new();
    DpCqe e;

    expect_send_ok(r, ud_send(r, AH_PEER, r->qp[1].id, QKEY, 10, false));
    assert_int_equal(b2b_stats(r->b, 1)->rx_no_rwqe, 1);
    expect_send_ok(r, ud_send(r, AH_PEER, 4000, QKEY, 10, false));
    assert_int_equal(b2b_stats(r->b, 1)->rx_bad_qp, 1);
    assert_false(dp_poll_cq(&r->cq[1], &e));
    ud_rig_free(r);
}

static void test_ud_too_long_and_bad_ah(void **state)
{
    UdRig *r = ud_rig_new();
    DpCqe e;
    DpAe ae;

    ud_send(r, AH_PEER, r->qp[1].id, QKEY, 1025, false);
    assert_true(dp_poll_cq(&r->cq[0], &e));
    assert_true(e.error);
    assert_int_equal(e.minor, E810_FLUSH_LOC_LEN_ERR);
    assert_true(dp_poll_ae(&r->b->dev[0], &ae));
    assert_int_equal(ae.code, E810_AE_UDA_XMIT_DGRAM_TOO_LONG);
    assert_int_equal(b2b_stats(r->b, 0)->tx_packets, 0);
    ud_rig_free(r);

    r = ud_rig_new();
    ud_send(r, 17, r->qp[1].id, QKEY, 10, false);   /* no such AH */
    assert_true(dp_poll_cq(&r->cq[0], &e));
    assert_true(e.error);
    assert_true(dp_poll_ae(&r->b->dev[0], &ae));
    assert_int_equal(ae.code, E810_AE_INVALID_AH_ENTRY);
    ud_rig_free(r);
}

/* A send of @len bytes at @off of side @side's buffer from qp[@side]. */
static uint32_t side_send(UdRig *r, unsigned side, uint32_t lkey,
                          uint64_t off, uint32_t len)
{
    DpSend s;
    uint32_t idx;

    memset(&s, 0, sizeof(s));
    s.op = E810_OP_SEND;
    s.signaled = true;
    s.nsge = 1;
    s.sge[0].addr = r->buf[side] + off;
    s.sge[0].len = len;
    s.sge[0].lkey = lkey;
    s.ah_id = AH_PEER;
    s.dest_qpn = r->qp[!side].id;
    s.qkey = QKEY;
    idx = dp_post_send(&r->qp[side], &s);
    dp_ring(&r->qp[side], false);
    b2b_run(r->b);
    return idx;
}

/*
 * A UD send with a bad lkey: the SQ enters Send Queue Error (one AE, the
 * WQE fails with PROT_ERR, later sends are flushed and nothing goes out),
 * the QP stays in RTS and keeps receiving; MODIFY_QP to RTS (ib_mad's
 * SQE -> RTS, ib_mad_send_error()) restarts the SQ where it stands.
 */
static void test_ud_send_error_sqe_recover(void **state)
{
    UdRig *r = ud_rig_new();
    E810Qp *mq = &r->b->h[0]->core.rdma.qp[r->qp[0].id];
    E810Sge sge = { r->buf[0] + 32768, 4096, r->key[0] };
    uint64_t tx;
    uint32_t idx;
    unsigned i;
    DpCqe e;
    DpAe ae;

    create_ah(r, 1, AH_PEER, r->b->h[0]->core.mac, B2B_IP(1), B2B_IP(0));
    dp_post_recv(&r->qp[0], &sge, 1);
    tx = b2b_stats(r->b, 0)->tx_packets;

    idx = side_send(r, 0, r->key[0] ^ 0x5a, 0, 64);
    assert_true(dp_poll_cq(&r->cq[0], &e));
    assert_true(e.sq && e.error);
    assert_int_equal(e.wqe_idx, idx);
    assert_int_equal(e.major, E810_CQE_MAJ_FLUSH);
    assert_int_equal(e.minor, E810_FLUSH_PROT_ERR);
    assert_false(dp_poll_cq(&r->cq[0], &e));
    assert_true(dp_poll_ae(&r->b->dev[0], &ae));
    assert_int_equal(ae.source, E810_AE_SOURCE_SQ);
    assert_int_equal(ae.id, r->qp[0].id);
    assert_true(ae.code >= E810_AE_AMP_UNALLOCATED_STAG &&
                ae.code <= E810_AE_AMP_FASTREG_PBLE_MISMATCH);
    assert_int_equal(mq->state, E810_QP_STATE_RTS);
    assert_true(mq->sq_error);

    /* Posted in SQE: flushed, no second AE, nothing on the wire. */
    side_send(r, 0, r->key[0], 0, 64);
    assert_true(dp_poll_cq(&r->cq[0], &e));
    assert_true(e.sq && e.error);
    assert_int_equal(e.minor, E810_FLUSH_GENERAL_ERR);
    assert_false(dp_poll_ae(&r->b->dev[0], &ae));
    assert_int_equal(b2b_stats(r->b, 0)->tx_packets, tx);

    /* The RQ was not flushed and still receives. */
    b2b_fill(ubuf(r, 1, 0), 300, 4);
    expect_send_ok2(r, 1, side_send(r, 1, r->key[1], 0, 300));
    assert_true(dp_poll_cq(&r->cq[0], &e));
    assert_false(e.sq || e.error);
    assert_int_equal(e.len, 340);
    assert_true(b2b_check(mem_ptr(r->b->h[0], r->buf[0] + 32768 + 40), 300,
                          4));

    /* SQE -> RTS: sends flow again, payloads intact. */
    assert_true(dp_qp_modify(&r->qp[0], E810_QP_STATE_RTS));
    assert_false(mq->sq_error);
    for (i = 0; i < 4; i++) {
        ud_recv(r, &r->qp[1], 4096 * i, 4096);
        b2b_fill(ubuf(r, 0, 1024 * i), 100 + i, 10 + i);
        expect_send_ok2(r, 0, side_send(r, 0, r->key[0], 1024 * i, 100 + i));
        assert_true(dp_poll_cq(&r->cq[1], &e));
        assert_false(e.sq || e.error);
        assert_int_equal(e.len, 140 + i);
        assert_true(b2b_check(ubuf(r, 1, 4096 * i + 40), 100 + i, 10 + i));
    }
    assert_int_equal(b2b_stats(r->b, 0)->tx_packets, tx + 4);

    /* A second error after the recovery raises its own AE again. */
    side_send(r, 0, r->key[0] ^ 0x5a, 0, 64);
    assert_true(dp_poll_cq(&r->cq[0], &e));
    assert_true(e.error);
    assert_true(dp_poll_ae(&r->b->dev[0], &ae));
    assert_true(mq->sq_error);
    ud_rig_free(r);
}

/* The debug knob fails the next send of one UD QP, once. */
static void test_ud_inject_send_error(void **state)
{
    UdRig *r = ud_rig_new();
    E810Core *core = &r->b->h[0]->core;
    DpCqe e;
    DpAe ae;

    e810_core_inject_ud_send_error(core, r->qp[0].id);
    side_send(r, 0, r->key[0], 0, 64);
    assert_true(dp_poll_cq(&r->cq[0], &e));
    assert_true(e.sq && e.error);
    assert_int_equal(e.minor, E810_FLUSH_PROT_ERR);
    assert_true(dp_poll_ae(&r->b->dev[0], &ae));
    assert_int_equal(ae.code, E810_AE_AMP_BAD_STAG_KEY);
    assert_int_equal(core->inject_ud_send_err, 0);
    assert_true(core->rdma.qp[r->qp[0].id].sq_error);
    assert_true(dp_qp_modify(&r->qp[0], E810_QP_STATE_RTS));
    ud_recv(r, &r->qp[1], 0, 4096);
    expect_send_ok(r, side_send(r, 0, r->key[0], 0, 64));
    ud_rig_free(r);
}

/* An RC QP's send error stays fatal: ERROR, both queues flushed. */
static void test_rc_send_error_still_fatal(void **state)
{
    UdRig *r = ud_rig_new();
    DpQp rc;
    E810Sge sge = { r->buf[0] + 32768, 4096, r->key[0] };
    E810Qp *mq;
    DpSend s;
    DpCqe e;
    bool sq = false, rq = false;

    dp_qp_create(&r->b->dev[0], &rc, E810_QP_TYPE_ROCE_RC, &r->cq[0],
                 &r->cq[0], 64, 16, 1, false, false);
    dp_qp_rts(&rc);
    mq = &r->b->h[0]->core.rdma.qp[rc.id];
    dp_post_recv(&rc, &sge, 1);
    memset(&s, 0, sizeof(s));
    s.op = E810_OP_SEND;
    s.signaled = true;
    s.nsge = 1;
    s.sge[0].addr = r->buf[0];
    s.sge[0].len = 64;
    s.sge[0].lkey = r->key[0] ^ 0x5a;
    dp_post_send(&rc, &s);
    dp_ring(&rc, false);
    b2b_run(r->b);
    while (dp_poll_cq(&r->cq[0], &e)) {
        assert_true(e.error);
        sq |= e.sq;
        rq |= !e.sq;
    }
    assert_true(sq && rq);
    assert_int_equal(mq->state, E810_QP_STATE_ERROR);
    assert_false(mq->sq_error);
    ud_rig_free(r);
}

/*
 * A CQ resize (MODIFY_CQ) that reaches the device after SQ doorbells:
 * those WQEs complete into the old ring, as on hardware, where they are
 * done long before the driver's next CQP command. The CQEs must not land
 * in the new ring, which the provider only reads after the old one.
 */
static void test_resize_after_doorbells(void **state)
{
    UdRig *r = ud_rig_new();
    DpDev *d = &r->b->dev[0];
    uint64_t ring2 = mem_alloc_aligned(r->b->h[0], 4 * E810_CQE_SIZE, 256);
    uint64_t q[8] = { 0 };
    uint32_t idx[3];
    DpSend s;
    DpCqe e;
    unsigned i;

    memset(&s, 0, sizeof(s));
    s.op = E810_OP_SEND;
    s.signaled = true;
    s.ah_id = AH_PEER;
    s.dest_qpn = r->qp[1].id;
    s.qkey = QKEY;
    for (i = 0; i < 3; i++) {
        idx[i] = dp_post_send(&r->qp[0], &s);
        dp_ring(&r->qp[0], false);
    }
    /* No work has run yet: the CQP and the SQ work are both pending. */
    q[E810_QW(E810_CQPSQ_CQ_SIZE_OFF)] = 4;
    q[E810_QW(E810_CQPSQ_CQ_PA_OFF)] = ring2;
    q[E810_QW(E810_CQPSQ_CQ_SHADOW_OFF)] = r->cq[0].shadow;
    assert_false(rd_exec(&d->d, E810_CQP_OP_MODIFY_CQ,
                         FIELD_PREP(E810_CQPSQ_CQ_CQID, r->cq[0].id) |
                         E810_CQPSQ_CQ_CQRESIZE, q).error);
    for (i = 0; i < 3; i++) {
        assert_true(dp_poll_cq(&r->cq[0], &e));
        assert_true(e.sq);
        assert_false(e.error);
        assert_int_equal(e.wqe_idx, idx[i]);
    }
    assert_false(rd_mem64(&d->d, ring2 + E810_CQE_HDR_OFF) & E810_CQE_VALID);
    b2b_run(r->b);
    ud_rig_free(r);
}

static void test_ud_multicast(void **state)
{
    static const uint8_t mc_mac[6] = { 0x01, 0x00, 0x5e, 0x01, 0x01, 0x01 };
    UdRig *r = ud_rig_new();
    uint32_t qpn[2];
    DpCqe e;
    unsigned n = 0;

    dp_qp_create(&r->b->dev[1], &r->qp_b2, E810_QP_TYPE_ROCE_UD, &r->cq[1],
                 &r->cq[1], 64, 16, 1, false, false);
    ud_ctx(&r->qp_b2, QKEY);
    qpn[0] = r->qp[1].id;
    qpn[1] = r->qp_b2.id;
    create_mcg(&r->b->dev[1], 2, mc_mac, MC_IP, qpn, 2);
    create_ah(r, 0, AH_MCAST, mc_mac, B2B_IP(0), MC_IP);
    ud_recv(r, &r->qp[1], 0, 4096);
    ud_recv(r, &r->qp_b2, 8192, 4096);
    b2b_fill(ubuf(r, 0, 0), 500, 9);
    expect_send_ok(r, ud_send(r, AH_MCAST, E810_MCAST_QPN, QKEY, 500, false));
    while (dp_poll_cq(&r->cq[1], &e)) {
        assert_false(e.error);
        assert_int_equal(e.len, 540);
        assert_true(e.qp_id == qpn[0] || e.qp_id == qpn[1]);
        n++;
    }
    assert_int_equal(n, 2);
    assert_true(b2b_check(ubuf(r, 1, 40), 500, 9));
    assert_true(b2b_check(ubuf(r, 1, 8192 + 40), 500, 9));
    /* A group nobody here joined: dropped before the engine. */
    create_ah(r, 0, AH_MCAST + 1,
              (const uint8_t[6]){ 0x01, 0x00, 0x5e, 0x02, 0x02, 0x02 },
              B2B_IP(0), 0xef020202u);
    expect_send_ok(r, ud_send(r, AH_MCAST + 1, E810_MCAST_QPN, QKEY, 5,
                              false));
    assert_false(dp_poll_cq(&r->cq[1], &e));
    ud_rig_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ud_send_sizes),
        cmocka_unit_test(test_ud_qkey_mismatch_dropped),
        cmocka_unit_test(test_ud_no_rwqe_and_bad_qp),
        cmocka_unit_test(test_ud_too_long_and_bad_ah),
        cmocka_unit_test(test_ud_multicast),
        cmocka_unit_test(test_ud_priv_stag0),
        cmocka_unit_test(test_resize_after_doorbells),
        cmocka_unit_test(test_ud_send_error_sqe_recover),
        cmocka_unit_test(test_rc_send_error_still_fatal),
        cmocka_unit_test(test_ud_inject_send_error),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_ud_b2b", tests, NULL, NULL);
}
