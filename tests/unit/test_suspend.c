/*
 * SUSPEND_QP / RESUME_QP end to end, as irdma uses them around a traffic
 * class change: two device models back to back with an RC pair. While the
 * sender is suspended its WQEs stay on the SQ (no packet, no CQE, the
 * doorbells are remembered), a message already on the wire (sent, not
 * acknowledged) completes, and it still receives; RESUME_QP delivers everything, in order, with the
 * right payload. Bad QP ids fail with the CQP error and raise no AE.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "rc_rig.h"

#define XMEM        (8u << 20)
#define BUF         (2u << 20)
#define NMSG        8
#define SLOT        (64u << 10)     /* per-message area in the buffers */

static int setup(void **state)
{
    const RcRigShape sh = {
        .xmem = XMEM, .buf_len = BUF, .cq_size = 64, .sq_size = 64,
        .rq_size = 32, .mtu = 1024,
    };
    RcRig *r = rc_rig_new(&sh);

    memset(rc_rig_buf(r, 0, 0), 0, BUF);
    memset(rc_rig_buf(r, 1, 0), 0, BUF);
    *state = r;
    return 0;
}

static int teardown(void **state)
{
    rc_rig_free(*state);
    return 0;
}

static uint32_t post_send(RcRig *r, unsigned from, unsigned slot, uint32_t len,
                          uint32_t seed)
{
    DpSend s;

    memset(&s, 0, sizeof(s));
    s.op = E810_OP_SEND;
    s.signaled = true;
    s.nsge = 1;
    s.sge[0].addr = r->buf[from] + (uint64_t)slot * SLOT;
    s.sge[0].len = len;
    s.sge[0].lkey = r->key[from];
    b2b_fill(rc_rig_buf(r, from, (uint64_t)slot * SLOT), len, seed);
    return dp_post_send(&r->qp[from], &s);
}

/* A receive of @len bytes at slot @slot of the upper half of the buffer. */
static void post_recv(RcRig *r, unsigned side, unsigned slot, uint32_t len)
{
    E810Sge sge = { r->buf[side] + BUF / 2 + (uint64_t)slot * SLOT, len,
                    r->key[side] };

    dp_post_recv(&r->qp[side], &sge, 1);
}

static uint8_t *rslot(RcRig *r, unsigned side, unsigned slot)
{
    return rc_rig_buf(r, side, BUF / 2 + (uint64_t)slot * SLOT);
}

static void suspend(RcRig *r, unsigned side)
{
    DpAe ae;

    assert_true(rd_do(&r->b->dev[side].d, E810_CQP_OP_SUSPEND_QP,
                      FIELD_PREP(E810_CQPSQ_SUSPENDQP_QPID, r->qp[side].id),
                      NULL));
    assert_true(dp_model_qp(&r->qp[side])->suspended);
    /* Exactly one AE: QP suspend complete, naming the QP. */
    assert_true(dp_poll_ae(&r->b->dev[side], &ae));
    assert_int_equal(ae.code, E810_AE_QP_SUSPEND_COMPLETE);
    assert_int_equal(ae.id, r->qp[side].id);
    assert_false(dp_poll_ae(&r->b->dev[side], &ae));
}

static void resume(RcRig *r, unsigned side, uint32_t qs)
{
    uint64_t q[8] = { 0 };

    q[E810_QW(E810_CQPSQ_RESUMEQP_QS_OFF)] =
        FIELD_PREP(E810_CQPSQ_RESUMEQP_QSHANDLE, qs);
    assert_true(rd_do(&r->b->dev[side].d, E810_CQP_OP_RESUME_QP,
                      FIELD_PREP(E810_CQPSQ_RESUMEQP_QPID, r->qp[side].id),
                      q));
    assert_false(dp_model_qp(&r->qp[side])->suspended);
    assert_int_equal(dp_model_qp(&r->qp[side])->qs_handle, qs);
}

static uint32_t msg_len(unsigned i)
{
    static const uint32_t lens[NMSG] = {
        1, 1024, 1025, 4096, 9000, 333, 65536, 0,
    };

    return lens[i];
}

/*
 * WQEs posted to a suspended QP move nothing; the QP still receives;
 * RESUME_QP serves the remembered doorbells and every message arrives.
 */
static void test_suspend_holds_resume_delivers(void **state)
{
    RcRig *r = *state;
    uint32_t idx[NMSG];
    uint64_t tx_before;
    DpCqe e;
    unsigned i;

    for (i = 0; i < NMSG; i++) {
        post_recv(r, 1, i, SLOT);
    }
    suspend(r, 0);
    tx_before = b2b_stats(r->b, 0)->tx_packets;
    for (i = 0; i < NMSG; i++) {
        idx[i] = post_send(r, 0, i, msg_len(i), 100 + i);
        dp_ring(&r->qp[0], i & 1);  /* user page and kernel register */
    }
    b2b_run(r->b);

    /* Nothing left the sender, nothing completed on either side. */
    assert_int_equal(b2b_stats(r->b, 0)->tx_packets, tx_before);
    assert_false(dp_poll_cq(&r->scq[0], &e));
    assert_false(dp_poll_cq(&r->rcq[1], &e));
    for (i = 0; i < NMSG; i++) {
        assert_int_equal(*rslot(r, 1, i), 0);
    }

    /* A suspended QP still receives (and acknowledges). */
    post_recv(r, 0, 0, SLOT);
    assert_true(post_send(r, 1, 0, 2000, 7) == 0);
    dp_ring(&r->qp[1], false);
    b2b_run(r->b);
    assert_true(dp_poll_cq(&r->rcq[0], &e));
    assert_false(e.error);
    assert_int_equal(e.len, 2000);
    assert_true(b2b_check(rslot(r, 0, 0), 2000, 7));
    assert_true(dp_poll_cq(&r->scq[1], &e));
    assert_false(e.error);
    /* ... and still sends nothing of its own. */
    assert_false(dp_poll_cq(&r->scq[0], &e));

    resume(r, 0, 5);
    b2b_run(r->b);
    for (i = 0; i < NMSG; i++) {
        assert_true(dp_poll_cq(&r->scq[0], &e));
        assert_false(e.error);
        assert_true(e.sq);
        assert_int_equal(e.wqe_idx, idx[i]);
        assert_true(dp_poll_cq(&r->rcq[1], &e));
        assert_false(e.error);
        assert_int_equal(e.len, msg_len(i));
        assert_true(b2b_check(rslot(r, 1, i), msg_len(i), 100 + i));
        /* Not one byte past the message. */
        assert_int_equal(rslot(r, 1, i)[msg_len(i)], 0);
    }
    assert_false(dp_poll_cq(&r->scq[0], &e));
    assert_false(dp_poll_cq(&r->rcq[1], &e));
    /* Clean wire: nothing had to be sent twice. */
    assert_int_equal(b2b_stats(r->b, 0)->retransmits, 0);
}

/*
 * A message already handed to the transport when the suspend comes is
 * finished (its state is kept); the ones behind it wait for the resume.
 */
static void test_in_flight_kept(void **state)
{
    RcRig *r = *state;
    const uint32_t big = 512u << 10;        /* 512 packets at MTU 1024 */
    uint64_t sent;
    uint32_t first, second;
    DpCqe e;

    post_recv(r, 1, 0, big);        /* slots 0-7 */
    post_recv(r, 1, 8, SLOT);
    first = post_send(r, 0, 0, big, 11);
    dp_ring(&r->qp[0], false);
    /* The sender's own work only: packets leave, no ACK comes back. */
    harness_run_work(r->b->h[0]);
    sent = b2b_stats(r->b, 0)->tx_packets;
    assert_true(sent > 0);
    assert_false(dp_poll_cq(&r->scq[0], &e));

    suspend(r, 0);
    second = post_send(r, 0, 9, 3000, 12);
    dp_ring(&r->qp[0], false);
    b2b_run(r->b);
    assert_true(dp_poll_cq(&r->scq[0], &e));
    assert_false(e.error);
    assert_int_equal(e.wqe_idx, first);
    assert_false(dp_poll_cq(&r->scq[0], &e));
    assert_true(dp_poll_cq(&r->rcq[1], &e));
    assert_int_equal(e.len, big);
    assert_true(b2b_check(rslot(r, 1, 0), big, 11));
    assert_false(dp_poll_cq(&r->rcq[1], &e));

    resume(r, 0, 0);
    b2b_run(r->b);
    assert_true(dp_poll_cq(&r->scq[0], &e));
    assert_false(e.error);
    assert_int_equal(e.wqe_idx, second);
    assert_true(dp_poll_cq(&r->rcq[1], &e));
    assert_int_equal(e.len, 3000);
    assert_true(b2b_check(rslot(r, 1, 8), 3000, 12));
}

/* QP ids beyond the committed count or of no QP: CQP error, no AE. */
static void test_bad_qpid(void **state)
{
    RcRig *r = *state;
    RdmaDriver *d = &r->b->dev[0].d;
    uint32_t nqp = e810_hmc_count(&r->b->h[0]->core, E810_HMC_QP);
    uint32_t unused = r->qp[0].id + 7;
    uint64_t q[8] = { 0 };
    RdmaCompl c;
    DpAe ae;

    assert_true(unused < nqp);
    assert_false(e810_qp_get(&r->b->h[0]->core, unused) &&
                 e810_qp_get(&r->b->h[0]->core, unused)->valid);

    c = rd_exec(d, E810_CQP_OP_SUSPEND_QP,
                FIELD_PREP(E810_CQPSQ_SUSPENDQP_QPID, nqp), NULL);
    assert_true(c.error);
    assert_int_equal(c.minor, E810_CQP_MIN_BAD_INDEX);
    c = rd_exec(d, E810_CQP_OP_SUSPEND_QP,
                FIELD_PREP(E810_CQPSQ_SUSPENDQP_QPID, unused), NULL);
    assert_true(c.error);
    assert_int_equal(c.minor, E810_CQP_MIN_BAD_STATE);
    c = rd_exec(d, E810_CQP_OP_RESUME_QP,
                FIELD_PREP(E810_CQPSQ_RESUMEQP_QPID, 0xffffff), q);
    assert_true(c.error);
    assert_int_equal(c.minor, E810_CQP_MIN_BAD_INDEX);
    c = rd_exec(d, E810_CQP_OP_RESUME_QP,
                FIELD_PREP(E810_CQPSQ_RESUMEQP_QPID, unused), q);
    assert_true(c.error);
    assert_int_equal(c.minor, E810_CQP_MIN_BAD_STATE);
    assert_false(dp_poll_ae(&r->b->dev[0], &ae));
    /* The real QP was not touched. */
    assert_false(dp_model_qp(&r->qp[0])->suspended);
}

/* A QP recycled while suspended (DESTROY + CREATE) comes back unsuspended. */
static void test_reset_clears_suspend(void **state)
{
    RcRig *r = *state;

    suspend(r, 0);
    assert_true(dp_qp_modify(&r->qp[0], E810_QP_STATE_ERROR));
    assert_true(dp_qp_recycle(&r->qp[0]));
    assert_false(dp_model_qp(&r->qp[0])->suspended);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_suspend_holds_resume_delivers),
        T(test_in_flight_kept),
        T(test_bad_qpid),
        T(test_reset_clears_suspend),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_suspend", tests, NULL, NULL);
}
