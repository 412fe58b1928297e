/*
 * The model's own loss injector (e810_core_set_roce_drop_ppm, the QEMU
 * property x-roce-drop-ppm): two device models back to back over a
 * lossless harness wire, with the devices themselves dropping 2 % of the
 * RoCE frames they send. A mix of SEND, WRITE with immediate and READ
 * must arrive exactly once, in order, with its payload; the drops and
 * the retransmissions that repaired them must show in the counters and
 * in the stats text. Also: the same seed loses the same frames, the
 * range is enforced, loopback frames are never dropped and the knob
 * outlives a device reset.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdio.h>

#include "rc_rig.h"
#include "e810_core.h"

#define XMEM        (4u << 20)
#define BUF_LEN     (1u << 20)
#define BATCH       40
#define SLOT        8192u
#define READ_AREA   (512u << 10)    /* READ sources / destinations */
#define PPM         20000u          /* 2 % */

static RcRig *rig_new(void)
{
    const RcRigShape sh = {
        .xmem = XMEM, .buf_len = BUF_LEN, .cq_size = 256, .sq_size = 256,
        .rq_size = 64, .mtu = 1024,
    };

    return rc_rig_new(&sh);
}

/* Message @i: opcode (SEND, WRITE+imm, READ in turn) and length. */
static unsigned msg_op(uint32_t i)
{
    static const unsigned ops[] = {
        E810_OP_SEND, E810_OP_RDMA_WRITE, E810_OP_RDMA_READ,
    };

    return ops[i % 3];
}

static uint32_t msg_len(uint32_t i)
{
    return (i * 2654435761u >> 9) % (SLOT - 1);   /* up to 8 packets */
}

static void post_one(RcRig *r, uint32_t i, unsigned k)
{
    unsigned op = msg_op(i);
    uint32_t len = msg_len(i);
    uint64_t off = (uint64_t)k * SLOT;
    DpSend s;

    memset(&s, 0, sizeof(s));
    s.op = op;
    s.signaled = true;
    s.nsge = len ? 1 : 0;
    s.sge[0].len = len;
    s.sge[0].lkey = r->key[0];
    s.rkey = r->key[1];
    if (op == E810_OP_RDMA_READ) {
        b2b_fill(rc_rig_buf(r, 1, READ_AREA + off), len, i);
        memset(rc_rig_buf(r, 0, READ_AREA + off), 0, SLOT);
        s.sge[0].addr = r->buf[0] + READ_AREA + off;
        s.remote_va = r->buf[1] + READ_AREA + off;
    } else {
        E810Sge rsge = { r->buf[1] + off, SLOT, r->key[1] };

        b2b_fill(rc_rig_buf(r, 0, off), len, i);
        memset(rc_rig_buf(r, 1, off), 0, SLOT);
        s.sge[0].addr = r->buf[0] + off;
        s.remote_va = r->buf[1] + off;
        s.imm_valid = true;
        s.imm = i;
        /* A WRITE with immediate consumes a receive too (its length 0). */
        rsge.len = op == E810_OP_SEND ? SLOT : 0;
        dp_post_recv(&r->qp[1], &rsge, 1);
    }
    dp_post_send(&r->qp[0], &s);
}

/* Every completion of one batch, in order, and every payload. */
static void check_batch(RcRig *r, uint32_t base)
{
    DpCqe e;
    unsigned k;

    for (k = 0; k < BATCH; k++) {
        uint32_t i = base + k, len = msg_len(i);
        uint64_t off = (uint64_t)k * SLOT;
        unsigned op = msg_op(i);

        assert_true(dp_poll_cq(&r->scq[0], &e));
        assert_false(e.error);
        assert_int_equal(e.op, op);
        if (op == E810_OP_RDMA_READ) {
            assert_true(b2b_check(rc_rig_buf(r, 0, READ_AREA + off), len, i));
            /* Nothing landed past the message. */
            assert_int_equal(*rc_rig_buf(r, 0, READ_AREA + off + len), 0);
            continue;
        }
        assert_true(dp_poll_cq(&r->rcq[1], &e));
        assert_false(e.error);
        assert_true(e.imm_valid);
        assert_int_equal(e.imm, i);
        assert_int_equal(e.len, len);
        assert_true(b2b_check(rc_rig_buf(r, 1, off), len, i));
        assert_int_equal(*rc_rig_buf(r, 1, off + len), 0);
    }
    assert_false(dp_poll_cq(&r->scq[0], &e));
    assert_false(dp_poll_cq(&r->rcq[1], &e));
}

/* @n messages (a multiple of BATCH) through the current loss setting. */
static void run_mix(RcRig *r, uint32_t n)
{
    uint32_t base;
    unsigned k;

    for (base = 0; base < n; base += BATCH) {
        for (k = 0; k < BATCH; k++) {
            post_one(r, base + k, k);
        }
        dp_ring(&r->qp[0], false);
        b2b_run(r->b);
        check_batch(r, base);
    }
}

static void set_ppm(RcRig *r, uint32_t ppm, uint64_t seed)
{
    unsigned i;

    for (i = 0; i < 2; i++) {
        e810_core_set_roce_drop_seed(&r->b->h[i]->core, seed ? seed + i : 0);
        assert_int_equal(e810_core_set_roce_drop_ppm(&r->b->h[i]->core, ppm),
                         0);
    }
}

/* The value of "name=" in the stats text of device @i, or UINT64_MAX. */
static uint64_t stats_field(RcRig *r, unsigned i, const char *name)
{
    char buf[1024], key[64];
    const char *p;
    int n;

    n = e810_core_xport_stats(&r->b->h[i]->core, buf, sizeof(buf));
    assert_true(n > 0 && (size_t)n < sizeof(buf));
    snprintf(key, sizeof(key), " %s=", name);
    /* A leading blank anchors the name (the first one has none). */
    if (!strncmp(buf, key + 1, strlen(key + 1))) {
        p = buf + strlen(key + 1);
    } else {
        p = strstr(buf, key);
        if (!p) {
            return UINT64_MAX;
        }
        p += strlen(key);
    }
    return strtoull(p, NULL, 10);
}

static void test_knob_loss_exactly_once(void **state)
{
    RcRig *r = rig_new();
    E810XportStats *s0, *s1;

    set_ppm(r, PPM, 0);
    run_mix(r, 1200);
    s0 = b2b_stats(r->b, 0);
    s1 = b2b_stats(r->b, 1);
    print_message("# requester: %llu sent, %llu dropped, %llu retransmitted,"
                  " %llu timeouts; responder: %llu sent, %llu dropped\n",
                  (unsigned long long)s0->tx_packets,
                  (unsigned long long)s0->tx_injected_drops,
                  (unsigned long long)s0->retransmits,
                  (unsigned long long)s0->timeouts,
                  (unsigned long long)s1->tx_packets,
                  (unsigned long long)s1->tx_injected_drops);
    /* The devices lost the frames, not the (lossless) harness wire. */
    assert_int_equal(r->b->h[0]->wire_lost + r->b->h[1]->wire_lost, 0);
    assert_true(s0->tx_injected_drops > 0);
    assert_true(s1->tx_injected_drops > 0);     /* ACKs and READ data */
    assert_true(s0->retransmits > 0);
    /* About 2 %: between 0.5 % and 5 % of what each side sent. */
    assert_true(s0->tx_injected_drops * 200 > s0->tx_packets);
    assert_true(s0->tx_injected_drops * 20 < s0->tx_packets);
    assert_int_equal(s0->retry_exceeded, 0);
    /* The text a debugger reads says the same. */
    assert_int_equal(stats_field(r, 0, "tx_dropped_injected"),
                     s0->tx_injected_drops);
    assert_int_equal(stats_field(r, 0, "retransmits"), s0->retransmits);
    assert_int_equal(stats_field(r, 0, "tx_packets"), s0->tx_packets);
    assert_int_equal(stats_field(r, 1, "rx_packets"), s1->rx_packets);
    assert_int_equal(stats_field(r, 0, "drop_ppm"), PPM);

    /* Back to 0: a clean run adds no drop and no retransmission. */
    {
        uint64_t d0 = s0->tx_injected_drops, d1 = s1->tx_injected_drops;
        uint64_t rt = s0->retransmits;

        set_ppm(r, 0, 0);
        run_mix(r, 120);
        assert_int_equal(s0->tx_injected_drops, d0);
        assert_int_equal(s1->tx_injected_drops, d1);
        assert_int_equal(s0->retransmits, rt);
    }
    rc_rig_free(r);
}

/*
 * Messages of 64 packets under 2 % loss: a timeout in the middle of one
 * shrinks the window below the AckReq spacing, so the packets resent
 * after it must still ask for an ACK (the last one the window lets out
 * does). Without that no ACK ever came and the retry count ran out at
 * message 24.
 */
static void test_knob_loss_long_messages(void **state)
{
    RcRig *r = rig_new();
    uint32_t i, len = 65536;
    DpCqe e;

    set_ppm(r, PPM, 0x5eed);
    for (i = 0; i < 100; i++) {
        DpSend s;

        memset(&s, 0, sizeof(s));
        s.op = E810_OP_RDMA_WRITE;
        s.signaled = true;
        s.nsge = 1;
        s.sge[0].addr = r->buf[0];
        s.sge[0].len = len;
        s.sge[0].lkey = r->key[0];
        s.remote_va = r->buf[1] + READ_AREA;
        s.rkey = r->key[1];
        b2b_fill(rc_rig_buf(r, 0, 0), len, 700 + i);
        memset(rc_rig_buf(r, 1, READ_AREA), 0, len + 64);
        dp_post_send(&r->qp[0], &s);
        dp_ring(&r->qp[0], false);
        b2b_run(r->b);
        assert_true(dp_poll_cq(&r->scq[0], &e));
        assert_false(e.error);
        assert_true(b2b_check(rc_rig_buf(r, 1, READ_AREA), len, 700 + i));
        assert_int_equal(*rc_rig_buf(r, 1, READ_AREA + len), 0);
    }
    print_message("# 64 KiB WRITEs: %llu drops, %llu timeouts, %llu resent\n",
                  (unsigned long long)b2b_stats(r->b, 0)->tx_injected_drops,
                  (unsigned long long)b2b_stats(r->b, 0)->timeouts,
                  (unsigned long long)b2b_stats(r->b, 0)->retransmits);
    assert_true(b2b_stats(r->b, 0)->tx_injected_drops > 0);
    assert_true(b2b_stats(r->b, 0)->retransmits > 0);
    rc_rig_free(r);
}

/* The same seeds lose the same frames: a failure can be replayed. */
static void test_knob_deterministic(void **state)
{
    uint64_t drops[2][2], rexmit[2];
    unsigned run, i;

    for (run = 0; run < 2; run++) {
        RcRig *r = rig_new();

        set_ppm(r, 50000, 0x1234567);
        run_mix(r, 240);
        for (i = 0; i < 2; i++) {
            drops[run][i] = b2b_stats(r->b, i)->tx_injected_drops;
        }
        rexmit[run] = b2b_stats(r->b, 0)->retransmits;
        rc_rig_free(r);
    }
    assert_true(drops[0][0] > 0);
    assert_int_equal(drops[0][0], drops[1][0]);
    assert_int_equal(drops[0][1], drops[1][1]);
    assert_int_equal(rexmit[0], rexmit[1]);
}

static void test_knob_range_and_reset(void **state)
{
    Harness *h = harness_new(0);
    char small[8];
    int n;

    assert_non_null(h);
    assert_int_equal(e810_core_roce_drop_ppm(&h->core), 0);
    assert_int_equal(e810_core_set_roce_drop_ppm(&h->core, 1000000), 0);
    assert_int_equal(e810_core_roce_drop_ppm(&h->core), 1000000);
    assert_int_equal(e810_core_set_roce_drop_ppm(&h->core, 1000001),
                     -EINVAL);
    assert_int_equal(e810_core_set_roce_drop_ppm(&h->core, UINT32_MAX),
                     -EINVAL);
    assert_int_equal(e810_core_roce_drop_ppm(&h->core), 1000000);
    assert_int_equal(e810_core_set_roce_drop_ppm(&h->core, 123), 0);
    /* A host-side setting, not guest state: a device reset keeps it. */
    e810_core_reset(&h->core);
    assert_int_equal(e810_core_roce_drop_ppm(&h->core), 123);
    /* snprintf conventions: truncated, NUL-terminated, full length. */
    memset(small, 'x', sizeof(small));
    n = e810_core_xport_stats(&h->core, small, sizeof(small));
    assert_true(n > (int)sizeof(small));
    assert_int_equal(small[sizeof(small) - 1], '\0');
    assert_int_equal(e810_core_xport_stats(&h->core, NULL, 0), n);
    harness_free(h);
}

/* Frames to our own port never reach the wire and are never dropped. */
static void test_knob_spares_loopback(void **state)
{
    RcRig *r = rig_new();
    E810Sge rsge;
    DpQp lq[2];
    DpCq lcq;
    DpSend s;
    DpCqe e;
    unsigned i;

    e810_core_set_roce_drop_ppm(&r->b->h[0]->core, 1000000);
    dp_cq_create(&r->b->dev[0], &lcq, 64);
    for (i = 0; i < 2; i++) {
        dp_qp_create(&r->b->dev[0], &lq[i], E810_QP_TYPE_ROCE_RC, &lcq, &lcq,
                     64, 16, 1, false, false);
    }
    b2b_connect(r->b, &lq[0], &lq[1], 1024);
    b2b_fill(rc_rig_buf(r, 0, 0), 65536, 9);
    memset(&s, 0, sizeof(s));
    s.op = E810_OP_RDMA_WRITE;
    s.signaled = true;
    s.nsge = 1;
    s.sge[0].addr = r->buf[0];
    s.sge[0].len = 65536;
    s.sge[0].lkey = r->key[0];
    s.remote_va = r->buf[0] + READ_AREA;
    s.rkey = r->key[0];
    dp_post_send(&lq[0], &s);
    rsge.addr = r->buf[0] + READ_AREA + 65536;
    rsge.len = 8192;
    rsge.lkey = r->key[0];
    dp_post_recv(&lq[1], &rsge, 1);
    s.op = E810_OP_SEND;
    s.sge[0].len = 5000;
    dp_post_send(&lq[0], &s);
    dp_ring(&lq[0], false);
    b2b_run(r->b);
    for (i = 0; i < 3; i++) {
        assert_true(dp_poll_cq(&lcq, &e));
        assert_false(e.error);
    }
    assert_false(dp_poll_cq(&lcq, &e));
    assert_true(b2b_check(rc_rig_buf(r, 0, READ_AREA), 65536, 9));
    assert_true(b2b_check(rc_rig_buf(r, 0, READ_AREA + 65536), 5000, 9));
    assert_int_equal(b2b_stats(r->b, 0)->tx_injected_drops, 0);
    assert_int_equal(b2b_stats(r->b, 0)->retransmits, 0);
    assert_true(b2b_stats(r->b, 0)->loopback > 60);
    rc_rig_free(r);
}

/* At 10^6 ppm nothing gets through: the requester gives up as on a cut. */
static void test_knob_total_loss(void **state)
{
    RcRig *r = rig_new();
    DpSend s;
    DpCqe e;

    e810_core_set_roce_drop_ppm(&r->b->h[0]->core, 1000000);
    memset(&s, 0, sizeof(s));
    s.op = E810_OP_RDMA_WRITE;
    s.signaled = true;
    s.nsge = 1;
    s.sge[0].addr = r->buf[0];
    s.sge[0].len = 3000;
    s.sge[0].lkey = r->key[0];
    s.remote_va = r->buf[1];
    s.rkey = r->key[1];
    dp_post_send(&r->qp[0], &s);
    dp_ring(&r->qp[0], false);
    b2b_run(r->b);
    assert_true(dp_poll_cq(&r->scq[0], &e));
    assert_true(e.error);
    assert_int_equal(b2b_stats(r->b, 0)->retry_exceeded, 1);
    assert_int_equal(r->b->h[0]->wire_sent, 0);
    assert_int_equal(b2b_stats(r->b, 0)->tx_injected_drops,
                     b2b_stats(r->b, 0)->tx_packets);
    rc_rig_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_knob_loss_exactly_once),
        cmocka_unit_test(test_knob_loss_long_messages),
        cmocka_unit_test(test_knob_deterministic),
        cmocka_unit_test(test_knob_range_and_reset),
        cmocka_unit_test(test_knob_spares_loopback),
        cmocka_unit_test(test_knob_total_loss),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_rc_loss_knob", tests, NULL,
                                       NULL);
}
