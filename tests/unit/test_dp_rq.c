/*
 * Device model, data path: RQ consumption and completions. Receive WQEs
 * are taken by valid bit (no doorbell), scattered into (UD: after the
 * 40-byte GRH area), completed with the CQE fields the provider reads
 * (WQE index in quanta, BTH opcode, immediate and UD source in the
 * extended slot); flushes by FLUSH_WQES and by a fatal error.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "e810_core.h"
#include "dp_driver.h"

#define RW_ALL  (E810_ACCESS_LOCAL_READ | E810_ACCESS_LOCAL_WRITE | \
                 E810_ACCESS_REMOTE_READ | E810_ACCESS_REMOTE_WRITE)

/* IB BTH opcodes the transport reports. */
#define BTH_RC_SEND_ONLY            0x04
#define BTH_RC_SEND_ONLY_IMM        0x05
#define BTH_RC_SEND_ONLY_INV        0x17
#define BTH_UD_SEND_ONLY            0x64

typedef struct Fix {
    Harness *h;
    DpDev dev;
    DpCq scq, rcq;
    DpQp qp;
    DpTap tap;
    uint64_t buf;
    uint32_t stag;
} Fix;

static int setup(void **state)
{
    Fix *f = calloc(1, sizeof(*f));

    f->h = harness_new(0);
    dp_dev_init(&f->dev, f->h);
    dp_tap_install(&f->dev, &f->tap);
    dp_cq_create(&f->dev, &f->scq, 64);
    dp_cq_create(&f->dev, &f->rcq, 15);     /* odd: ext slots wrap */
    /* 128-byte RQ WQEs (shift 2): up to 7 fragments. */
    dp_qp_create(&f->dev, &f->qp, E810_QP_TYPE_ROCE_RC, &f->scq, &f->rcq, 64,
                 8, 2, true, false);
    dp_qp_rts(&f->qp);
    f->buf = mem_alloc_aligned(f->h, 16384, 4096);
    f->stag = dp_mr_buf(&f->dev, DP_PD, f->buf, 16384, RW_ALL);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fix *f = *state;

    harness_free(f->h);
    free(f);
    return 0;
}

static E810Sge sg(Fix *f, uint64_t off, uint32_t len)
{
    E810Sge s = { .addr = f->buf + off, .len = len, .lkey = f->stag };

    return s;
}

static E810Qp *mqp(Fix *f)
{
    return dp_model_qp(&f->qp);
}

/* Take, scatter across three SGEs, complete with immediate data. */
static void test_take_scatter_complete(void **state)
{
    Fix *f = *state;
    E810Sge s[3] = { sg(f, 0, 10), sg(f, 4096 - 5, 20), sg(f, 8192, 100) };
    uint8_t msg[130];
    E810RecvWqe w;
    E810RecvInfo info = { .byte_len = 125, .bth_opcode = BTH_RC_SEND_ONLY_IMM,
                          .imm_valid = true, .imm = 0xa1b2c3d4,
                          .solicited = true, .psn = 0x123456 };
    uint32_t idx;
    uint16_t st;
    unsigned i;
    DpCqe e;

    for (i = 0; i < sizeof(msg); i++) {
        msg[i] = (uint8_t)(i ^ 0x5c);
    }
    assert_false(e810_dp_rq_take(&f->h->core, mqp(f), &w));    /* RNR */
    assert_int_equal(mqp(f)->state, E810_QP_STATE_RTS);
    dp_post_recv(&f->qp, s, 2);
    idx = dp_post_recv(&f->qp, s, 3);
    assert_true(e810_dp_rq_take(&f->h->core, mqp(f), &w));
    assert_int_equal(w.wqe_idx, 0);
    assert_int_equal(w.num_sge, 2);
    assert_true(w.capacity == 30);
    e810_dp_complete_rq(&f->h->core, mqp(f), &w,
                        &(E810RecvInfo){ .bth_opcode = BTH_RC_SEND_ONLY });
    assert_true(dp_poll_cq(&f->rcq, &e));
    assert_int_equal(e.wqe_idx, 0);
    assert_int_equal(e.len, 0);
    assert_false(e.ext);

    assert_true(e810_dp_rq_take(&f->h->core, mqp(f), &w));
    assert_int_equal(w.wqe_idx, idx);
    assert_int_equal(idx, 1 << 2);      /* entry 1, in quanta */
    assert_int_equal(w.num_sge, 3);
    assert_true(w.capacity == 130);
    /* Two pieces, as a two-packet message would land. */
    assert_true(e810_dp_scatter(&f->h->core, mqp(f), &w, 0, msg, 25, &st));
    assert_true(e810_dp_scatter(&f->h->core, mqp(f), &w, 25, msg + 25, 100,
                                &st));
    assert_memory_equal(mem_ptr(f->h, f->buf), msg, 10);
    assert_memory_equal(mem_ptr(f->h, f->buf + 4096 - 5), msg + 10, 20);
    assert_memory_equal(mem_ptr(f->h, f->buf + 8192), msg + 30, 95);
    e810_dp_complete_rq(&f->h->core, mqp(f), &w, &info);
    assert_true(dp_poll_cq(&f->rcq, &e));
    assert_false(e.sq);
    assert_false(e.error);
    assert_int_equal(e.wqe_idx, idx);
    assert_int_equal(e.len, 125);
    assert_int_equal(e.op, BTH_RC_SEND_ONLY_IMM);
    assert_true(e.solicited);
    assert_true(e.ext && e.imm_valid);
    assert_int_equal(e.imm, 0xa1b2c3d4);
    assert_false(e.smac_valid);
    assert_true(e.ctx == f->qp.compl_ctx);
    assert_int_equal(e.qp_id, f->qp.id);
    assert_false(dp_poll_cq(&f->rcq, &e));
    assert_false(e810_dp_rq_take(&f->h->core, mqp(f), &w));
}

/* Several laps of the RQ and the CQ (ext slots across the CQ wrap). */
static void test_wrap(void **state)
{
    Fix *f = *state;
    E810Sge s = sg(f, 0, 64);
    unsigned i;

    for (i = 0; i < 40; i++) {
        E810RecvInfo info = { .byte_len = i, .bth_opcode = BTH_RC_SEND_ONLY_INV,
                              .inv_valid = !(i & 1), .inv_stag = 0x4400 + i,
                              .imm_valid = i & 1, .imm = i };
        uint32_t idx = dp_post_recv(&f->qp, &s, 1);
        E810RecvWqe w;
        DpCqe e;

        assert_true(e810_dp_rq_take(&f->h->core, mqp(f), &w));
        assert_int_equal(w.wqe_idx, idx);
        assert_int_equal(idx, (i % 8) << 2);
        e810_dp_complete_rq(&f->h->core, mqp(f), &w, &info);
        assert_true(dp_poll_cq(&f->rcq, &e));
        assert_int_equal(e.len, i);
        assert_int_equal(e.wqe_idx, idx);
        if (i & 1) {
            assert_true(e.imm_valid);
            assert_int_equal(e.imm, i);
        } else {
            assert_true(e.stag_or_ipv4);
            assert_int_equal(e.q2_low, 0x4400 + i);
        }
        assert_false(dp_poll_cq(&f->rcq, &e));
    }
}

typedef struct RacePost {
    DpQp *qp;
    E810Sge sge;
    uint32_t idx;
} RacePost;

static void race_post(void *arg)
{
    RacePost *r = arg;

    r->idx = dp_post_recv(r->qp, &r->sge, 1);
}

/*
 * A SEND arrives while the guest is writing the RQ entry it will land in
 * (no doorbell orders the two): the entry must be taken whole, with the
 * new buffer, never last lap's buffer under this lap's valid bit.
 */
static void test_take_races_post(void **state)
{
    Fix *f = *state;
    RacePost r = { .qp = &f->qp, .sge = sg(f, 8192, 64) };
    E810Sge old = sg(f, 0, 64);
    E810RecvInfo info = { .byte_len = 64, .bth_opcode = BTH_RC_SEND_ONLY };
    E810RecvWqe w;
    unsigned i;
    DpCqe e;

    for (i = 0; i < f->qp.rq_entries; i++) {
        dp_post_recv(&f->qp, &old, 1);
        assert_true(e810_dp_rq_take(&f->h->core, mqp(f), &w));
        e810_dp_complete_rq(&f->h->core, mqp(f), &w, &info);
        assert_true(dp_poll_cq(&f->rcq, &e));
    }
    harness_race_arm(f->h, f->qp.rq_pa, f->qp.rq_pa + E810_WQE_HDR_OFF,
                     race_post, &r);
    assert_true(e810_dp_rq_take(&f->h->core, mqp(f), &w));
    assert_null(f->h->race_fn);
    assert_int_equal(w.wqe_idx, 0);
    assert_int_equal(w.num_sge, 1);
    assert_int_equal(w.sge[0].addr, f->buf + 8192);
}

/* UD: the GRH area, the payload after it, source QPN/MAC/VLAN in the CQE. */
static void test_ud_grh(void **state)
{
    Fix *f = *state;
    DpQp ud;
    E810Sge s = sg(f, 100, 300);
    uint8_t grh[E810_DP_GRH_LEN], pay[200];
    E810RecvInfo info = { .byte_len = 240, .bth_opcode = BTH_UD_SEND_ONLY,
                          .ud = true, .src_qpn = 0x654321, .ipv4 = true,
                          .src_mac = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 },
                          .vlan_valid = true, .vlan = 0x2005 };
    E810RecvWqe w;
    uint16_t st;
    unsigned i;
    DpCqe e;

    dp_qp_create(&f->dev, &ud, E810_QP_TYPE_ROCE_UD, &f->scq, &f->rcq, 64,
                 8, 1, false, false);
    dp_qp_rts(&ud);
    for (i = 0; i < sizeof(grh); i++) {
        grh[i] = 0x60 + i;
    }
    for (i = 0; i < sizeof(pay); i++) {
        pay[i] = (uint8_t)(i * 3);
    }
    dp_post_recv(&ud, &s, 1);
    assert_true(e810_dp_rq_take(&f->h->core, dp_model_qp(&ud), &w));
    assert_true(e810_dp_scatter_grh(&f->h->core, dp_model_qp(&ud), &w, grh,
                                    &st));
    assert_true(e810_dp_scatter(&f->h->core, dp_model_qp(&ud), &w,
                                E810_DP_GRH_LEN, pay, sizeof(pay), &st));
    assert_memory_equal(mem_ptr(f->h, f->buf + 100), grh, sizeof(grh));
    assert_memory_equal(mem_ptr(f->h, f->buf + 140), pay, sizeof(pay));
    e810_dp_complete_rq(&f->h->core, dp_model_qp(&ud), &w, &info);
    assert_true(dp_poll_cq(&f->rcq, &e));
    assert_int_equal(e.len, 240);
    /* The CQE OP field has 6 bits: the UD opcode arrives truncated. */
    assert_int_equal(e.op, BTH_UD_SEND_ONLY & 0x3f);
    assert_int_equal(e.q2_low, 0x654321);
    assert_true(e.stag_or_ipv4);
    assert_true(e.ext && e.smac_valid && e.vlan_valid);
    assert_memory_equal(e.smac, info.src_mac, 6);
    assert_int_equal(e.vlan, 0x2005);
    assert_false(e.imm_valid);
    assert_int_equal(e.qp_id, ud.id);
}

/* A message too long for the WQE: AE from the RQ, RQ flushed with it. */
static void test_too_long(void **state)
{
    Fix *f = *state;
    E810Sge s = sg(f, 0, 16);
    uint8_t msg[32] = { 0 };
    E810RecvWqe w;
    E810RecvInfo info = { 0 };
    uint32_t idx = dp_post_recv(&f->qp, &s, 1);
    DpSend snd = { .op = E810_OP_SEND };
    uint16_t st;
    DpAe ae;
    DpCqe e;

    dp_post_recv(&f->qp, &s, 1);
    dp_post_send(&f->qp, &snd);             /* one SQ WQE in flight */
    dp_ring(&f->qp, false);
    dp_run(&f->dev);
    assert_int_equal(f->tap.n, 1);
    assert_true(e810_dp_rq_take(&f->h->core, mqp(f), &w));
    assert_false(e810_dp_scatter(&f->h->core, mqp(f), &w, 0, msg, 32, &st));
    assert_int_equal(st,
                     E810_AE_DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER);
    info.status = st;
    e810_dp_complete_rq(&f->h->core, mqp(f), &w, &info);
    assert_true(dp_poll_ae(&f->dev, &ae));
    assert_int_equal(ae.code, st);
    assert_int_equal(ae.source, E810_AE_SOURCE_RQ);
    assert_int_equal(ae.wqe_idx, idx);
    assert_int_equal(mqp(f)->state, E810_QP_STATE_ERROR);
    /* RQ: one flush CQE at the failing WQE with LOC_LEN. */
    assert_true(dp_poll_cq(&f->rcq, &e));
    assert_false(e.sq);
    assert_int_equal(e.major, E810_CQE_MAJ_FLUSH);
    assert_int_equal(e.minor, E810_FLUSH_LOC_LEN_ERR);
    assert_int_equal(e.wqe_idx, idx);
    assert_false(dp_poll_cq(&f->rcq, &e));
    /* SQ: the in-flight WQE is flushed as a plain flush. */
    assert_true(dp_poll_cq(&f->scq, &e));
    assert_true(e.sq);
    assert_int_equal(e.minor, E810_FLUSH_GENERAL_ERR);
    /* No more receives in ERROR. */
    assert_false(e810_dp_rq_take(&f->h->core, mqp(f), &w));
}

/* FLUSH_WQES: which queues had work, flush CQEs with the driver's codes. */
static void test_flush_wqes(void **state)
{
    Fix *f = *state;
    E810Sge s = sg(f, 0, 16);
    DpSend snd = { .op = E810_OP_SEND, .signaled = true };
    uint32_t sidx, ridx;
    RdmaCompl c;
    E810RecvWqe w;
    DpCqe e;

    sidx = dp_post_send(&f->qp, &snd);
    dp_post_send(&f->qp, &snd);
    dp_ring(&f->qp, false);
    dp_run(&f->dev);
    assert_int_equal(f->tap.n, 2);
    ridx = dp_post_recv(&f->qp, &s, 1);
    dp_post_recv(&f->qp, &s, 1);
    assert_true(e810_dp_rq_take(&f->h->core, mqp(f), &w));
    /* Driver: modify to ERROR, then flush both with its codes. */
    assert_true(dp_qp_modify(&f->qp, E810_QP_STATE_ERROR));
    c = dp_qp_flush(&f->qp, true, true, E810_FLUSH_RETRY_EXC_ERR,
                    E810_FLUSH_GENERAL_ERR);
    assert_false(c.error);
    assert_int_equal(c.minor, E810_DP_COMPL_BOTH_FLUSHED);
    assert_true(dp_poll_cq(&f->scq, &e));
    assert_true(e.sq && e.error);
    assert_int_equal(e.major, E810_CQE_MAJ_FLUSH);
    assert_int_equal(e.minor, E810_FLUSH_RETRY_EXC_ERR);
    assert_int_equal(e.wqe_idx, sidx);
    assert_false(dp_poll_cq(&f->scq, &e));
    assert_true(dp_poll_cq(&f->rcq, &e));
    assert_false(e.sq);
    assert_int_equal(e.minor, E810_FLUSH_GENERAL_ERR);
    assert_int_equal(e.wqe_idx, ridx);
    assert_false(dp_poll_cq(&f->rcq, &e));
    /* A late completion of a flushed WQE writes nothing. */
    e810_dp_complete_sq(&f->h->core, mqp(f), &f->tap.w[0], 0, 0);
    e810_dp_complete_rq(&f->h->core, mqp(f), &w, &(E810RecvInfo){ 0 });
    assert_false(dp_poll_cq(&f->scq, &e));
    assert_false(dp_poll_cq(&f->rcq, &e));
    /* Nothing left: minor 0. Then only an RQ post: minor 2 (RQ). */
    c = dp_qp_flush(&f->qp, true, true, 1, 1);
    assert_int_equal(c.minor, E810_CQP_COMPL_NOTHING_FLUSHED);
    ridx = dp_post_recv(&f->qp, &s, 1);
    c = dp_qp_flush(&f->qp, true, true, 1, 1);
    assert_int_equal(c.minor, E810_CQP_COMPL_RQ_WQE_FLUSHED);
    assert_true(dp_poll_cq(&f->rcq, &e));
    assert_int_equal(e.wqe_idx, ridx);
    dp_post_send(&f->qp, &snd);
    c = dp_qp_flush(&f->qp, true, false, 1, 1);
    assert_int_equal(c.minor, E810_CQP_COMPL_SQ_WQE_FLUSHED);
    assert_true(dp_poll_cq(&f->scq, &e));
    assert_false(dp_poll_cq(&f->scq, &e));
    assert_int_equal(f->tap.n, 2);
}

/* An RQ WQE whose fragments do not fit its size makes the QP fatal. */
static void test_rq_malformed(void **state)
{
    Fix *f = *state;
    DpQp q32;
    uint64_t *wqe;
    E810RecvWqe w;
    DpAe ae;

    /* 32-byte RQ WQEs: ADDFRAGCNT must be 0. */
    dp_qp_create(&f->dev, &q32, E810_QP_TYPE_ROCE_RC, &f->scq, &f->rcq, 64,
                 8, 0, false, false);
    dp_qp_rts(&q32);
    wqe = mem_ptr(f->h, q32.rq_pa);
    wqe[3] = htole64(FIELD_PREP(E810_WQE_ADDFRAGCNT, 2) | E810_WQE_VALID);
    assert_false(e810_dp_rq_take(&f->h->core, dp_model_qp(&q32), &w));
    assert_int_equal(dp_model_qp(&q32)->state, E810_QP_STATE_ERROR);
    assert_true(dp_poll_ae(&f->dev, &ae));
    assert_int_equal(ae.code, E810_AE_WQE_INVALID_FRAG_DATA);
    assert_int_equal(ae.source, E810_AE_SOURCE_RQ);
    assert_int_equal(ae.id, q32.id);
    /* Teardown of a QP with data-path state leaves nothing behind. */
    assert_true(dp_qp_destroy(&q32));
    assert_null(e810_qp_get(&f->h->core, q32.id));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_take_scatter_complete, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_wrap, setup, teardown),
        cmocka_unit_test_setup_teardown(test_take_races_post, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ud_grh, setup, teardown),
        cmocka_unit_test_setup_teardown(test_too_long, setup, teardown),
        cmocka_unit_test_setup_teardown(test_flush_wqes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rq_malformed, setup, teardown),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
