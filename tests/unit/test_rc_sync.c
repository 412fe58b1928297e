/*
 * RC between two device models on a synchronous wire (wire_sync): each
 * frame reaches the peer from inside the sender's transmit and the peer's
 * answer comes straight back, as on a QEMU hub. Hardware takes frames in
 * its own time; the model defers a frame that arrives mid-transmit
 * (e810_xport_receive()). Without that, an ACK that overtook the
 * requester's own bookkeeping made it skip the next message's first PSN,
 * which then waited for a retransmission timeout (a 5 ms round trip for
 * every 8-byte ib_send_lat message), and a READ response was built in the
 * frame buffer the peer was still parsing.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "rc_rig.h"

#define MTU     1024

static RcRig *sync_rig(void)
{
    const RcRigShape sh = {
        .xmem = 4u << 20, .buf_len = 1u << 20, .cq_size = 64,
        .sq_size = 64, .rq_size = 16, .mtu = MTU,
    };
    RcRig *r = rc_rig_new(&sh);

    r->b->h[0]->wire_sync = true;
    r->b->h[1]->wire_sync = true;
    return r;
}

/* Runs both devices' deferred work without letting any time pass. */
static void settle(RcRig *r)
{
    bool busy = true;
    unsigned i, n;

    for (n = 0; busy; n++) {
        assert_true(n < 100000);
        busy = false;
        for (i = 0; i < 2; i++) {
            if (r->b->h[i]->core.work_pending) {
                harness_run_work(r->b->h[i]);
                busy = true;
            }
            if (harness_wire_deliver(r->b->h[i])) {
                busy = true;
            }
        }
    }
}

static void post(RcRig *r, unsigned from, unsigned op, uint64_t off,
                 uint64_t len)
{
    DpSend s;

    memset(&s, 0, sizeof(s));
    s.op = op;
    s.signaled = true;
    s.nsge = 1;
    s.sge[0].addr = r->buf[from] + off;
    s.sge[0].len = (uint32_t)len;
    s.sge[0].lkey = r->key[from];
    s.remote_va = r->buf[!from] + off;
    s.rkey = r->key[!from];
    dp_post_send(&r->qp[from], &s);
    dp_ring(&r->qp[from], false);
}

static void no_timeouts(RcRig *r)
{
    unsigned i;

    for (i = 0; i < 2; i++) {
        assert_int_equal(b2b_stats(r->b, i)->timeouts, 0);
        assert_int_equal(b2b_stats(r->b, i)->retransmits, 0);
    }
}

/*
 * ibv_rc_pingpong's pattern, 1 B and 3000 B (3 packets): each message
 * completes on both sides with no time passing at all.
 */
static void test_pingpong(void **state)
{
    RcRig *r = sync_rig();
    static const uint32_t sizes[] = { 1, 3000 };
    unsigned it, k, from;
    E810Sge sge;
    DpCqe e;

    for (k = 0; k < 2; k++) {
        for (it = 0; it < 20; it++) {
            from = it & 1;
            sge = (E810Sge){ r->buf[!from] + 65536, 4096, r->key[!from] };
            dp_post_recv(&r->qp[!from], &sge, 1);
            b2b_fill(rc_rig_buf(r, from, 0), sizes[k], it + 1);
            post(r, from, E810_OP_SEND, 0, sizes[k]);
            settle(r);
            assert_true(dp_poll_cq(&r->scq[from], &e));
            assert_false(e.error);
            assert_true(dp_poll_cq(&r->rcq[!from], &e));
            assert_false(e.error);
            assert_int_equal(e.len, sizes[k]);
            assert_true(b2b_check(rc_rig_buf(r, !from, 65536), sizes[k],
                                  it + 1));
        }
    }
    no_timeouts(r);
    rc_rig_free(r);
}

/* A 64 KiB READ and a WRITE after it: data intact, no timer involved. */
static void test_read_write(void **state)
{
    RcRig *r = sync_rig();
    DpCqe e;

    b2b_fill(rc_rig_buf(r, 1, 0), 65536, 7);
    post(r, 0, E810_OP_RDMA_READ, 0, 65536);
    settle(r);
    assert_true(dp_poll_cq(&r->scq[0], &e));
    assert_false(e.error);
    assert_true(b2b_check(rc_rig_buf(r, 0, 0), 65536, 7));
    b2b_fill(rc_rig_buf(r, 0, 131072), 5000, 8);
    post(r, 0, E810_OP_RDMA_WRITE, 131072, 5000);
    settle(r);
    assert_true(dp_poll_cq(&r->scq[0], &e));
    assert_false(e.error);
    assert_true(b2b_check(rc_rig_buf(r, 1, 131072), 5000, 8));
    no_timeouts(r);
    assert_true(b2b_stats(r->b, 0)->rx_deferred > 0);
    rc_rig_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pingpong),
        cmocka_unit_test(test_read_write),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
