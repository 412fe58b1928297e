/*
 * RC transport work per run is bounded: READ responses of many QPs go out
 * E810_XPORT_RUN_BUDGET packets per run of deferred work, round robin,
 * and the rest follows in the next runs with every byte delivered; a
 * timer that fires inside a transport call only asks to fire again.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "rc_rig.h"

#define NQP     8
#define LEN     (1u << 20)      /* 1024 packets at MTU 1024 */
#define MTU     1024

typedef struct Pairs {
    B2B *b;
    DpCq cq[2];
    DpQp qp[2][NQP];
    uint64_t buf[2];
    uint32_t key[2];
} Pairs;

static Pairs *pairs_new(void)
{
    Pairs *p = calloc(1, sizeof(*p));
    unsigned i, k;

    assert_non_null(p);
    p->b = b2b_new(NQP * LEN + (4u << 20));
    for (i = 0; i < 2; i++) {
        DpDev *d = &p->b->dev[i];
        uint64_t pa;

        dp_cq_create(d, &p->cq[i], 256);
        for (k = 0; k < NQP; k++) {
            dp_qp_create(d, &p->qp[i][k], E810_QP_TYPE_ROCE_RC, &p->cq[i],
                         &p->cq[i], 64, 16, 1, false, false);
        }
        pa = harness_xmem_alloc(p->b->h[i], NQP * LEN);
        p->buf[i] = pa;
        p->key[i] = rc_rig_reg(d, pa, NQP * LEN);
    }
    for (k = 0; k < NQP; k++) {
        b2b_connect(p->b, &p->qp[0][k], &p->qp[1][k], MTU);
    }
    return p;
}

static void pairs_free(Pairs *p)
{
    b2b_free(p->b);
    free(p);
}

/* Delivers the wire both ways until quiet, running only side 0's work. */
static void settle_without_side1_work(Pairs *p)
{
    bool busy = true;

    while (busy) {
        busy = false;
        if (p->b->h[0]->core.work_pending) {
            harness_run_work(p->b->h[0]);
            busy = true;
        }
        busy |= harness_wire_deliver(p->b->h[0]) != 0;
        busy |= harness_wire_deliver(p->b->h[1]) != 0;
    }
}

static void test_read_responses_budget(void **state)
{
    Pairs *p = pairs_new();
    E810Core *c1 = &p->b->h[1]->core;
    uint64_t before, runs = 0;
    unsigned k, done = 0;
    DpCqe e;

    b2b_fill(mem_ptr(p->b->h[1], p->buf[1]), NQP * LEN, 42);
    for (k = 0; k < NQP; k++) {
        DpSend s;

        memset(&s, 0, sizeof(s));
        s.op = E810_OP_RDMA_READ;
        s.signaled = true;
        s.nsge = 1;
        s.sge[0].addr = p->buf[0] + (uint64_t)k * LEN;
        s.sge[0].len = LEN;
        s.sge[0].lkey = p->key[0];
        s.remote_va = p->buf[1] + (uint64_t)k * LEN;
        s.rkey = p->key[1];
        dp_post_send(&p->qp[0][k], &s);
        dp_ring(&p->qp[0][k], false);
    }
    /* Every request arrives; each sends its first burst on arrival. */
    settle_without_side1_work(p);
    assert_int_equal(c1->xport->stats.read_resp_sent,
                     NQP * E810_XPORT_READ_BURST);
    assert_true(c1->work_pending & E810_WORK_XPORT);

    /* One run: the budget, not the NQP * 768 packets left. */
    before = c1->xport->stats.read_resp_sent;
    harness_run_work(p->b->h[1]);
    assert_int_equal(c1->xport->stats.read_resp_sent - before,
                     E810_XPORT_RUN_BUDGET);
    assert_true(c1->work_pending & E810_WORK_XPORT);
    assert_int_equal(c1->xport->stats.budget_stops, 1);

    /* The next runs, each within the budget, finish it all. */
    while (c1->work_pending) {
        before = c1->xport->stats.read_resp_sent;
        harness_run_work(p->b->h[1]);
        assert_true(c1->xport->stats.read_resp_sent - before <=
                    E810_XPORT_RUN_BUDGET);
        runs++;
        assert_true(runs < 100);
    }
    assert_int_equal(c1->xport->stats.read_resp_sent, NQP * LEN / MTU);
    b2b_run(p->b);
    while (dp_poll_cq(&p->cq[0], &e)) {
        assert_false(e.error);
        done++;
    }
    assert_int_equal(done, NQP);
    assert_true(b2b_check(mem_ptr(p->b->h[0], p->buf[0]), NQP * LEN, 42));
    assert_int_equal(b2b_stats(p->b, 0)->timeouts, 0);
    pairs_free(p);
}

/*
 * 80 QPs time out together, each resending 16 packets (the window after
 * a timeout): one timer run stops once 1024 packets went out and fires
 * again at once; the next run serves the QPs left, none twice.
 */
#define TQP     80

static void test_timer_budget(void **state)
{
    B2B *b = b2b_new(0);
    Harness *h = b->h[0];
    E810Core *c0 = &h->core;
    DpCq cq;
    DpQp *qp = calloc(TQP, sizeof(*qp));
    uint64_t buf, tx0, first;
    uint32_t key;
    unsigned k;

    assert_non_null(qp);
    dp_cq_create(&b->dev[0], &cq, 1024);
    buf = mem_alloc_aligned(h, 65536, 4096);
    key = dp_mr_buf(&b->dev[0], DP_PD, buf, 65536, B2B_ALL_RIGHTS);
    h->loss_ppm = 1000000;
    for (k = 0; k < TQP; k++) {
        DpQp peer = { .dev = &b->dev[1], .id = 10 + k };
        DpSend s;

        dp_qp_create(&b->dev[0], &qp[k], E810_QP_TYPE_ROCE_RC, &cq, &cq,
                     64, 16, 1, false, false);
        b2b_connect_one(b, &qp[k], &peer, MTU, 0x100, 0x100);
        memset(&s, 0, sizeof(s));
        s.op = E810_OP_RDMA_WRITE;
        s.signaled = true;
        s.nsge = 1;
        s.sge[0].addr = buf;
        s.sge[0].len = 65536;
        s.sge[0].lkey = key;
        s.remote_va = 0x10000;
        s.rkey = 0x1234;
        dp_post_send(&qp[k], &s);
        dp_ring(&qp[k], false);
    }
    while (c0->work_pending) {
        harness_run_work(h);
    }
    assert_int_equal(c0->xport->stats.tx_packets, TQP * 64);
    assert_true(h->timer_deadline != UINT64_MAX);

    /* Every deadline has passed: one run, the budget. */
    h->now_ns = h->timer_deadline;
    tx0 = c0->xport->stats.tx_packets;
    e810_core_timer_fire(c0);
    first = c0->xport->stats.tx_packets - tx0;
    assert_int_equal(first, E810_XPORT_RUN_BUDGET);
    assert_int_equal(c0->xport->stats.timeouts,
                     E810_XPORT_RUN_BUDGET / E810_XPORT_CWND_MIN);
    assert_int_equal(c0->xport->stats.budget_stops, 1);
    assert_true(h->timer_deadline <= h->now_ns);

    /* The next run serves the rest, and no QP twice. */
    e810_core_timer_fire(c0);
    assert_int_equal(c0->xport->stats.timeouts, TQP);
    assert_int_equal(c0->xport->stats.tx_packets - tx0,
                     TQP * E810_XPORT_CWND_MIN);
    assert_true(h->timer_deadline > h->now_ns);
    free(qp);
    b2b_free(b);
}

/* The timer fired from inside a transport call waits for the next fire. */
static void test_timer_reentry(void **state)
{
    Pairs *p = pairs_new();
    E810Core *c0 = &p->b->h[0]->core;

    e810_xport_enter(c0);
    e810_core_timer_fire(c0);
    assert_int_equal(c0->xport->stats.timer_reentries, 1);
    assert_int_equal(c0->xport->stats.timeouts, 0);
    assert_true(p->b->h[0]->timer_deadline != UINT64_MAX);
    e810_xport_exit(c0);
    pairs_free(p);
}

/*
 * Both wires synchronous (a QEMU hub): each packet's ACK comes straight
 * back while the sender is still in its transmit, waits in the deferred
 * queue and, drained when the outermost call returns, lets the window
 * send more, whose ACKs come back the same way. That chain is bounded
 * too: one run of work sends about the budget, asks for another run, and
 * the runs that follow finish the message with every byte right.
 */
static void test_sync_ack_chain_budget(void **state)
{
    Pairs *p = pairs_new();
    E810Core *c0 = &p->b->h[0]->core;
    uint64_t before, runs = 0;
    DpCqe e;
    DpSend s;

    p->b->h[0]->wire_sync = true;
    p->b->h[1]->wire_sync = true;
    b2b_fill(mem_ptr(p->b->h[0], p->buf[0]), NQP * LEN, 7);
    memset(&s, 0, sizeof(s));
    s.op = E810_OP_RDMA_WRITE;
    s.signaled = true;
    s.nsge = 1;
    s.sge[0].addr = p->buf[0];
    s.sge[0].len = NQP * LEN;
    s.sge[0].lkey = p->key[0];
    s.remote_va = p->buf[1];
    s.rkey = p->key[1];
    dp_post_send(&p->qp[0][0], &s);
    dp_ring(&p->qp[0][0], false);

    /* One run: not the 8192 packets of the whole message. */
    before = c0->xport->stats.tx_packets;
    harness_run_work(p->b->h[0]);
    assert_true(c0->xport->stats.tx_packets - before <=
                E810_XPORT_RUN_BUDGET + E810_XPORT_WINDOW);
    assert_true(c0->work_pending & E810_WORK_XPORT);
    while (c0->work_pending) {
        before = c0->xport->stats.tx_packets;
        harness_run_work(p->b->h[0]);
        assert_true(c0->xport->stats.tx_packets - before <=
                    E810_XPORT_RUN_BUDGET + E810_XPORT_WINDOW);
        assert_true(++runs < 100);
    }
    b2b_run(p->b);
    assert_true(dp_poll_cq(&p->cq[0], &e));
    assert_false(e.error);
    assert_true(b2b_check(mem_ptr(p->b->h[1], p->buf[1]), NQP * LEN, 7));
    assert_int_equal(b2b_stats(p->b, 0)->timeouts, 0);
    pairs_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_responses_budget),
        cmocka_unit_test(test_timer_budget),
        cmocka_unit_test(test_timer_reentry),
        cmocka_unit_test(test_sync_ack_chain_budget),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_rc_budget", tests, NULL, NULL);
}
