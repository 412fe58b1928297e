/*
 * Device model, data path: SQ processing. The test posts WQEs in the GEN_2
 * format (docs/hw-reference.md 5.2/5.3), rings the doorbell and plays the
 * transport through a tap: it checks what the queue layer decoded for every
 * opcode, inline data across quanta, NOP padding, polarity over many passes,
 * signalled/unsignalled CQE order, fences, back-pressure, fairness, and the AE
 * + flush CQE of malformed WQEs.
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

typedef struct Fix {
    Harness *h;
    DpDev dev;
    DpCq scq, rcq;
    DpQp qp;
    DpTap tap;
} Fix;

static int setup_common(void **state, bool virt)
{
    Fix *f = calloc(1, sizeof(*f));

    f->h = harness_new(0);
    dp_dev_init(&f->dev, f->h);
    dp_tap_install(&f->dev, &f->tap);
    dp_cq_create(&f->dev, &f->scq, 256);
    dp_cq_create(&f->dev, &f->rcq, 256);
    dp_qp_create(&f->dev, &f->qp, E810_QP_TYPE_ROCE_RC, &f->scq, &f->rcq, 64,
                 16, 1, virt, false);
    dp_qp_rts(&f->qp);
    *state = f;
    return 0;
}

static int setup(void **state)
{
    return setup_common(state, false);
}

static int setup_virt(void **state)
{
    return setup_common(state, true);
}

static int teardown(void **state)
{
    Fix *f = *state;

    harness_free(f->h);
    free(f);
    return 0;
}

static void go(Fix *f)
{
    dp_ring(&f->qp, false);
    dp_run(&f->dev);
}

static E810Sge sge(uint64_t addr, uint32_t len, uint32_t lkey)
{
    E810Sge s = { .addr = addr, .len = len, .lkey = lkey };

    return s;
}

/* Every transport opcode: the decoded fields the transport relies on. */
static void test_opcodes(void **state)
{
    static const unsigned ops[] = {
        E810_OP_SEND, E810_OP_SEND_SOL, E810_OP_SEND_INV,
        E810_OP_SEND_SOL_INV, E810_OP_RDMA_WRITE, E810_OP_RDMA_WRITE_SOL,
        E810_OP_RDMA_READ,
    };
    Fix *f = *state;
    unsigned i;

    for (i = 0; i < 7; i++) {
        DpSend s = { .op = ops[i], .signaled = i & 1, .nsge = 1,
                     .rkey = 0x1234500 + i, .remote_va = 0xabc000 + i };
        uint32_t idx;
        E810SendWqe *w;

        s.sge[0] = sge(0x5000 + i, 100 + i, 0x777);
        idx = dp_post_send(&f->qp, &s);
        go(f);
        assert_int_equal(f->tap.n, i + 1);
        w = &f->tap.w[i];
        assert_int_equal(w->qp_id, f->qp.id);
        assert_int_equal(w->wqe_idx, idx);
        assert_int_equal(w->quanta, 1);
        assert_int_equal(w->opcode, ops[i]);
        assert_int_equal(w->signaled, i & 1);
        assert_int_equal(w->solicited, ops[i] == E810_OP_SEND_SOL ||
                         ops[i] == E810_OP_SEND_SOL_INV ||
                         ops[i] == E810_OP_RDMA_WRITE_SOL);
        assert_int_equal(w->num_sge, 1);
        assert_true(w->sge[0].addr == 0x5000 + i);
        assert_int_equal(w->sge[0].len, 100 + i);
        assert_int_equal(w->sge[0].lkey, 0x777);
        assert_int_equal(w->total_len, 100 + i);
        assert_false(w->inline_data);
        assert_false(w->imm_valid);
        if (ops[i] == E810_OP_RDMA_WRITE || ops[i] == E810_OP_RDMA_READ ||
            ops[i] == E810_OP_RDMA_WRITE_SOL) {
            assert_int_equal(w->rkey, 0x1234500 + i);
            assert_true(w->remote_va == 0xabc000 + i);
        } else if (ops[i] == E810_OP_SEND_INV ||
                   ops[i] == E810_OP_SEND_SOL_INV) {
            assert_int_equal(w->inv_stag, 0x1234500 + i);
        } else {
            assert_int_equal(w->rkey, 0);
        }
    }
}

/* Immediate data and 0..13 fragments (with the GEN_2 padding fragment). */
static void test_imm_and_frags(void **state)
{
    Fix *f = *state;
    unsigned n, k, got = 0;

    for (n = 0; n <= 13; n++) {
        unsigned imm;

        for (imm = 0; imm < 2; imm++) {
            DpSend s = { .op = imm ? E810_OP_RDMA_WRITE : E810_OP_SEND,
                         .imm_valid = imm, .imm = 0xfeed0000 + n,
                         .nsge = n, .signaled = true };
            uint64_t total = 0;
            E810SendWqe *w;

            for (k = 0; k < n; k++) {
                s.sge[k] = sge(0x100000 * (k + 1) + n, 10 * k + 1, 0x100 + k);
                total += 10 * k + 1;
            }
            dp_post_send(&f->qp, &s);
            go(f);
            assert_int_equal(f->tap.n, got + 1);
            w = &f->tap.w[got++];
            assert_int_equal(w->quanta, dp_send_quanta(&s));
            assert_int_equal(w->imm_valid, imm);
            if (imm) {
                assert_int_equal(w->imm, 0xfeed0000 + n);
            }
            assert_int_equal(w->num_sge, n);
            assert_int_equal(w->total_len, total);
            for (k = 0; k < n; k++) {
                assert_true(w->sge[k].addr == 0x100000 * (k + 1) + n);
                assert_int_equal(w->sge[k].len, 10 * k + 1);
                assert_int_equal(w->sge[k].lkey, 0x100 + k);
            }
            /* Retire it so the ring never fills. */
            e810_dp_complete_sq(&f->h->core, dp_model_qp(&f->qp), w, 0, 0);
        }
    }
}

/* Inline payload across quanta, with and without immediate data. */
static void test_inline(void **state)
{
    static const unsigned lens[] = { 0, 1, 7, 8, 9, 38, 39, 40, 70, 71, 101 };
    Fix *f = *state;
    uint8_t src[128], out[128];
    unsigned i, k, got = 0;
    uint16_t st;

    for (i = 0; i < sizeof(src); i++) {
        src[i] = (uint8_t)(i * 37 + 11);
    }
    for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
        for (k = 0; k < 2; k++) {
            DpSend s = { .op = E810_OP_SEND, .inline_src = src + i,
                         .inline_len = lens[i], .imm_valid = k,
                         .imm = 0x11223344, .signaled = true };
            E810SendWqe *w;

            dp_post_send(&f->qp, &s);
            go(f);
            assert_int_equal(f->tap.n, got + 1);
            w = &f->tap.w[got++];
            assert_true(w->inline_data);
            assert_int_equal(w->inline_len, lens[i]);
            assert_int_equal(w->total_len, lens[i]);
            assert_int_equal(w->quanta, dp_send_quanta(&s));
            assert_int_equal(w->imm_valid, k);
            memset(out, 0, sizeof(out));
            assert_true(e810_dp_gather(&f->h->core, dp_model_qp(&f->qp), w, 0,
                                       out, lens[i], &st));
            assert_memory_equal(out, src + i, lens[i]);
            /* A piece from the middle, as a segmenting transport reads. */
            if (lens[i] > 10) {
                assert_true(e810_dp_gather(&f->h->core, dp_model_qp(&f->qp),
                                           w, 5, out, 5, &st));
                assert_memory_equal(out, src + i + 5, 5);
            }
            /* Beyond the payload: refused. */
            assert_false(e810_dp_gather(&f->h->core, dp_model_qp(&f->qp), w,
                                        lens[i], out, 1, &st));
            assert_int_equal(st, E810_AE_WQE_INVALID_PARAMETER);
            e810_dp_complete_sq(&f->h->core, dp_model_qp(&f->qp), w, 0, 0);
        }
    }
}

/*
 * Many passes over a 64-quantum ring with WQEs of 1..8 quanta: NOP padding
 * keeps WQEs inside 8-quantum chunks, polarity flips at every wrap, CQEs
 * carry the first quantum, the shadow area the next one to fetch.
 */
static void test_padding_and_wrap(void **state)
{
    Fix *f = *state;
    unsigned i, wraps = 0;
    uint32_t prev = 0;
    DpCqe e;

    for (i = 0; i < 300; i++) {
        DpSend s = { .op = E810_OP_SEND, .nsge = (i * 5) % 14,
                     .signaled = true };
        unsigned k;
        uint32_t idx;
        E810SendWqe *w;

        for (k = 0; k < s.nsge; k++) {
            s.sge[k] = sge(0x1000 * k, 1, 0x42);
        }
        idx = dp_post_send(&f->qp, &s);
        wraps += idx < prev;
        prev = idx;
        go(f);
        assert_int_equal(f->tap.n, 1);
        w = &f->tap.w[0];
        assert_int_equal(w->wqe_idx, idx);
        assert_int_equal(w->quanta, dp_send_quanta(&s));
        assert_true(idx % 8 + w->quanta <= 8);
        assert_int_equal(FIELD_GET(E810_QP_DBSA_HW_SQ_TAIL,
                                   rd_mem64(&f->dev.d, f->qp.shadow_pa)),
                         f->qp.sq_head);
        e810_dp_complete_sq(&f->h->core, dp_model_qp(&f->qp), w, 0,
                            w->total_len);
        assert_true(dp_poll_cq(&f->scq, &e));
        assert_true(e.sq);
        assert_false(e.error);
        assert_int_equal(e.wqe_idx, idx);
        assert_int_equal(e.op, E810_OP_SEND);
        assert_int_equal(e.qp_id, f->qp.id);
        assert_true(e.ctx == f->qp.compl_ctx);
        assert_false(dp_poll_cq(&f->scq, &e));
        f->tap.n = 0;
    }
    /* The 64-quantum ring wrapped many times; NOP padding was fetched. */
    assert_true(wraps >= 10);
    assert_true(f->h->core.rdma.stats.sq_wqes > 300);
}

/* The guest's half of test_fetch_races_post(): posts WQE B. */
typedef struct RacePost {
    DpQp *qp;
    DpSend s;
    uint32_t idx;
} RacePost;

static void race_post(void *arg)
{
    RacePost *r = arg;

    r->idx = dp_post_send(r->qp, &r->s);
}

/*
 * The device fetches while the valid bit matches, so it can read a slot
 * while the guest is filling it (vCPU and device run in different
 * threads). Slot 1 still holds last pass's WQE; the guest writes WQE B
 * there, header last, in the middle of the device's read of the slot. A
 * fetch that took the body before the header would run B with the old
 * pass's address; the model reads the header first, so B is B.
 */
static void test_fetch_races_post(void **state)
{
    Fix *f = *state;
    DpSend s = { .op = E810_OP_RDMA_WRITE, .nsge = 1, .signaled = true,
                 .rkey = 0x77, .remote_va = 0x9000 };
    RacePost r = { .qp = &f->qp, .s = s };
    E810Qp *m = dp_model_qp(&f->qp);
    unsigned i;
    DpCqe e;

    /* One pass of one-quantum WRITEs from "old" addresses. */
    for (i = 0; i < f->qp.sq_quanta; i++) {
        s.sge[0] = sge(0xd0000000ull + 0x1000 * i, 64, 0x42);
        assert_int_equal(dp_send_quanta(&s), 1);
        dp_post_send(&f->qp, &s);
        go(f);
        assert_int_equal(f->tap.n, 1);
        e810_dp_complete_sq(&f->h->core, m, &f->tap.w[0], 0, 64);
        assert_true(dp_poll_cq(&f->scq, &e));
        f->tap.n = 0;
    }
    assert_int_equal(f->qp.sq_head, 0);
    /* WQE A at slot 0, then the doorbell; B lands during the fetch. */
    s.sge[0] = sge(0xa0000000ull, 64, 0x42);
    dp_post_send(&f->qp, &s);
    r.s.sge[0] = sge(0xb0000000ull, 64, 0x42);
    harness_race_arm(f->h, f->qp.sq_pa + E810_WQE_QUANTUM,
                     f->qp.sq_pa + E810_WQE_QUANTUM + E810_WQE_HDR_OFF,
                     race_post, &r);
    go(f);
    assert_null(f->h->race_fn);             /* the race did happen */
    assert_int_equal(r.idx, 1);
    assert_int_equal(f->tap.n, 2);
    assert_int_equal(f->tap.w[0].sge[0].addr, 0xa0000000ull);
    assert_int_equal(f->tap.w[1].wqe_idx, 1);
    assert_int_equal(f->tap.w[1].sge[0].addr, 0xb0000000ull);
}

/* The guest's half of test_post_after_last_look(): posts WQE B, then
 * reads the shadow tail as upstream irdma_uk_qp_post_wr() does. */
typedef struct LatePost {
    DpQp *qp;
    DpSend s;
    uint32_t idx;
    uint32_t tail_seen;
} LatePost;

static void late_post(void *arg)
{
    LatePost *r = arg;

    r->idx = dp_post_send(r->qp, &r->s);
    r->tail_seen = FIELD_GET(E810_QP_DBSA_HW_SQ_TAIL,
                             rd_mem64(&r->qp->dev->d, r->qp->shadow_pa));
}

/*
 * The kernel's irdma_uk_qp_post_wr() rings only when the shadow tail lies
 * in its new WQEs; a tail behind them means "the device is still
 * fetching". Here the device looks at slot 1 (empty), then the guest
 * writes B there and reads the shadow before the device wrote its new
 * tail: it sees 0 (behind B) and rings nothing. The device must publish
 * its tail and look at slot 1 again before it stops, or B waits forever.
 */
static void test_post_after_last_look(void **state)
{
    Fix *f = *state;
    DpSend s = { .op = E810_OP_RDMA_WRITE, .nsge = 1, .signaled = true,
                 .rkey = 0x77, .remote_va = 0x9000 };
    LatePost r = { .qp = &f->qp, .s = s };
    uint64_t hdr1 = f->qp.sq_pa + E810_WQE_QUANTUM + E810_WQE_HDR_OFF;

    s.sge[0] = sge(0xa0000000ull, 64, 0x42);
    dp_post_send(&f->qp, &s);
    r.s.sge[0] = sge(0xb0000000ull, 64, 0x42);
    /* the whole header word is read (old, invalid) before B is posted */
    harness_race_arm(f->h, hdr1, hdr1 + 8, late_post, &r);
    go(f);
    assert_null(f->h->race_fn);             /* the race did happen */
    assert_int_equal(r.idx, 1);
    assert_int_equal(r.tail_seen, 0);       /* so no doorbell for B */
    assert_int_equal(f->tap.n, 2);
    assert_int_equal(f->tap.w[0].sge[0].addr, 0xa0000000ull);
    assert_int_equal(f->tap.w[1].wqe_idx, 1);
    assert_int_equal(f->tap.w[1].sge[0].addr, 0xb0000000ull);
    assert_int_equal(FIELD_GET(E810_QP_DBSA_HW_SQ_TAIL,
                               rd_mem64(&f->dev.d, f->qp.shadow_pa)), 2);
}

/*
 * Only signalled WQEs get CQEs, in SQ order even when the transport
 * finishes a younger WQE first.
 */
static void test_signaled_order(void **state)
{
    Fix *f = *state;
    DpSend s = { .op = E810_OP_RDMA_WRITE, .nsge = 0 };
    uint32_t idx[4];
    E810Qp *m = dp_model_qp(&f->qp);
    unsigned i;
    DpCqe e;

    for (i = 0; i < 4; i++) {
        s.signaled = i & 1;
        idx[i] = dp_post_send(&f->qp, &s);
    }
    go(f);
    assert_int_equal(f->tap.n, 4);
    /* WQE 1 (signalled) done first: waits for WQE 0. */
    e810_dp_complete_sq(&f->h->core, m, &f->tap.w[1], 0, 0);
    assert_false(dp_poll_cq(&f->scq, &e));
    e810_dp_complete_sq(&f->h->core, m, &f->tap.w[0], 0, 0);
    assert_true(dp_poll_cq(&f->scq, &e));
    assert_int_equal(e.wqe_idx, idx[1]);
    assert_false(dp_poll_cq(&f->scq, &e));
    /* Duplicate completion is ignored. */
    e810_dp_complete_sq(&f->h->core, m, &f->tap.w[1], 0, 0);
    e810_dp_complete_sq(&f->h->core, m, &f->tap.w[2], 0, 0);
    assert_false(dp_poll_cq(&f->scq, &e));
    e810_dp_complete_sq(&f->h->core, m, &f->tap.w[3], 0, 0);
    assert_true(dp_poll_cq(&f->scq, &e));
    assert_int_equal(e.wqe_idx, idx[3]);
    assert_false(dp_poll_cq(&f->scq, &e));
    assert_int_equal(m->sq.pending, 0);
}

/* A fenced WQE waits until everything before it is complete. */
static void test_fence(void **state)
{
    Fix *f = *state;
    DpSend rd = { .op = E810_OP_RDMA_READ, .nsge = 0, .signaled = true };
    DpSend snd = { .op = E810_OP_SEND, .read_fence = true, .signaled = true };
    DpSend lf = { .op = E810_OP_SEND, .local_fence = true };
    E810Qp *m = dp_model_qp(&f->qp);

    dp_post_send(&f->qp, &rd);
    dp_post_send(&f->qp, &snd);
    dp_post_send(&f->qp, &lf);
    go(f);
    assert_int_equal(f->tap.n, 1);
    go(f);
    assert_int_equal(f->tap.n, 1);
    e810_dp_complete_sq(&f->h->core, m, &f->tap.w[0], 0, 0);
    dp_run(&f->dev);
    assert_int_equal(f->tap.n, 2);
    assert_true(f->tap.w[1].read_fence);
    e810_dp_complete_sq(&f->h->core, m, &f->tap.w[1], 0, 0);
    dp_run(&f->dev);
    assert_int_equal(f->tap.n, 3);
    assert_true(f->tap.w[2].local_fence);
}

/* Back-pressure: a refused WQE is fetched again after the kick. */
static void test_refuse_and_kick(void **state)
{
    Fix *f = *state;
    DpSend s = { .op = E810_OP_SEND, .signaled = true };
    uint32_t idx = dp_post_send(&f->qp, &s);

    f->tap.refuse = true;
    go(f);
    assert_int_equal(f->tap.n, 0);
    f->tap.refuse = false;
    dp_run(&f->dev);
    assert_int_equal(f->tap.n, 0);      /* waits for the transport's kick */
    e810_dp_sq_kick(&f->h->core, f->qp.id);
    dp_run(&f->dev);
    assert_int_equal(f->tap.n, 1);
    assert_int_equal(f->tap.w[0].wqe_idx, idx);
    assert_true(f->h->core.rdma.stats.sq_wqes == 1);
}

/* A guest overwriting outstanding WQEs is held off until they retire. */
static void test_overrun(void **state)
{
    Fix *f = *state;
    DpSend s = { .op = E810_OP_SEND };
    E810Qp *m = dp_model_qp(&f->qp);
    unsigned i;

    for (i = 0; i < 64; i++) {
        dp_post_send(&f->qp, &s);
    }
    go(f);
    assert_int_equal(f->tap.n, 64);
    assert_int_equal(dp_post_send(&f->qp, &s), 0);     /* next pass */
    go(f);
    assert_int_equal(f->tap.n, 64);
    assert_true(m->sq.overruns >= 1);
    e810_dp_complete_sq(&f->h->core, m, &f->tap.w[0], 0, 0);
    dp_run(&f->dev);
    assert_int_equal(f->tap.n, 65);
    assert_int_equal(f->tap.w[64].wqe_idx, 0);
}

/* The transport's kick may come while it is still refusing. */
static void test_kick_during_refusal(void **state)
{
    Fix *f = *state;
    DpSend s = { .op = E810_OP_SEND };

    dp_post_send(&f->qp, &s);
    f->tap.kick_in_refusal = true;
    go(f);
    assert_int_equal(f->tap.n, 1);
    assert_false(f->tap.kick_in_refusal);
}

/*
 * An armed send CQ raises one CEQE for the next data-path CQE (an
 * unsignalled WQE writes none and so raises none).
 */
static void test_arm_ceqe(void **state)
{
    Fix *f = *state;
    uint64_t ceq = mem_alloc_aligned(f->h, 64 * E810_CEQE_SIZE, 256);
    DpSend quiet = { .op = E810_OP_SEND }, loud = { .op = E810_OP_SEND,
                                                      .signaled = true };
    E810Qp *m = dp_model_qp(&f->qp);
    uint64_t ceqe;
    DpCqe e;

    assert_false(rd_create_ceq(&f->dev.d, 0, 64, ceq).error);
    rd_arm_cq(&f->dev.d, f->scq.shadow, f->scq.id, false);
    dp_run(&f->dev);
    dp_post_send(&f->qp, &quiet);
    dp_post_send(&f->qp, &loud);
    go(f);
    e810_dp_complete_sq(&f->h->core, m, &f->tap.w[0], 0, 0);
    assert_int_equal(rd_mem64(&f->dev.d, ceq), 0);
    e810_dp_complete_sq(&f->h->core, m, &f->tap.w[1], 0, 0);
    ceqe = rd_mem64(&f->dev.d, ceq);
    assert_true(ceqe & E810_CEQE_VALID);
    assert_true(FIELD_GET(E810_CEQE_CQCTX, ceqe) == 0x1000 + f->scq.id);
    assert_true(dp_poll_cq(&f->scq, &e));
    assert_int_equal(e.wqe_idx, f->tap.w[1].wqe_idx);
    /* Disarmed: the next CQE raises nothing. */
    dp_post_send(&f->qp, &loud);
    go(f);
    e810_dp_complete_sq(&f->h->core, m, &f->tap.w[2], 0, 0);
    assert_int_equal(rd_mem64(&f->dev.d, ceq + E810_CEQE_SIZE), 0);
}

/*
 * ERROR, then DESTROY_QP + CREATE_QP under the same id (how our irdma
 * resets a used kernel QP: ERROR -> IDLE is no transition the device
 * takes), then RTS: both rings start over at index 0, polarity 1.
 */
static void test_reset_restarts_rings(void **state)
{
    Fix *f = *state;
    DpSend s = { .op = E810_OP_SEND, .signaled = true };
    E810Sge r = { .addr = 0x1000, .len = 8, .lkey = 0x100 };
    E810RecvWqe rw;
    unsigned i;
    DpCqe e;

    for (i = 0; i < 5; i++) {
        dp_post_send(&f->qp, &s);
        dp_post_recv(&f->qp, &r, 1);
    }
    go(f);
    assert_int_equal(f->tap.n, 5);
    assert_true(e810_dp_rq_take(&f->h->core, dp_model_qp(&f->qp), &rw));
    assert_true(dp_qp_modify(&f->qp, E810_QP_STATE_ERROR));
    dp_qp_flush(&f->qp, true, true, E810_FLUSH_GENERAL_ERR,
                E810_FLUSH_GENERAL_ERR);
    assert_true(dp_poll_cq(&f->scq, &e) && e.error);
    assert_true(dp_poll_cq(&f->rcq, &e) && e.error);
    assert_false(dp_qp_modify(&f->qp, E810_QP_STATE_IDLE));
    assert_true(dp_qp_recycle(&f->qp));
    dp_qp_rts(&f->qp);
    f->tap.n = 0;
    assert_int_equal(dp_post_send(&f->qp, &s), 0);
    assert_int_equal(dp_post_recv(&f->qp, &r, 1), 0);
    go(f);
    assert_int_equal(f->tap.n, 1);
    assert_int_equal(f->tap.w[0].wqe_idx, 0);
    assert_true(e810_dp_rq_take(&f->h->core, dp_model_qp(&f->qp), &rw));
    assert_int_equal(rw.wqe_idx, 0);
    /* No AE was raised by any of this. */
    {
        DpAe ae;

        assert_false(dp_poll_ae(&f->dev, &ae));
    }
}

/* A suspended QP fetches nothing; RESUME_QP serves the doorbells missed. */
static void test_suspend_resume(void **state)
{
    Fix *f = *state;
    DpSend s = { .op = E810_OP_SEND };
    uint64_t q[8] = { 0 };
    DpAe ae;

    assert_true(rd_do(&f->dev.d, E810_CQP_OP_SUSPEND_QP,
                      FIELD_PREP(E810_CQPSQ_SUSPENDQP_QPID, f->qp.id), q));
    assert_true(dp_poll_ae(&f->dev, &ae));
    assert_int_equal(ae.code, E810_AE_QP_SUSPEND_COMPLETE);
    dp_post_send(&f->qp, &s);
    go(f);
    assert_int_equal(f->tap.n, 0);
    assert_true(rd_do(&f->dev.d, E810_CQP_OP_RESUME_QP,
                      FIELD_PREP(E810_CQPSQ_RESUMEQP_QPID, f->qp.id), q));
    dp_run(&f->dev);
    assert_int_equal(f->tap.n, 1);
}

/* WQEs posted before RTS are fetched when the QP gets there. */
static void test_not_before_rts(void **state)
{
    Fix *f = *state;
    DpQp qp2;
    DpSend s = { .op = E810_OP_SEND };

    dp_qp_create(&f->dev, &qp2, E810_QP_TYPE_ROCE_RC, &f->scq, &f->rcq, 64,
                 16, 1, false, false);
    dp_post_send(&qp2, &s);
    dp_ring(&qp2, true);                 /* the kernel register this time */
    dp_run(&f->dev);
    assert_int_equal(f->tap.n, 0);
    assert_true(dp_qp_modify(&qp2, E810_QP_STATE_RTR));
    assert_int_equal(f->tap.n, 0);
    assert_true(dp_qp_modify(&qp2, E810_QP_STATE_RTS));
    assert_int_equal(f->tap.n, 1);
    assert_int_equal(f->tap.w[0].qp_id, qp2.id);
    /* A doorbell for a QP that does not exist is counted and ignored. */
    wr32(f->h, E810_DB_ADDR_OFFSET, 999);
    assert_true(f->h->core.rdma.stats.bad_doorbells == 1);
}

/* One busy QP does not starve another, and a run's work is bounded. */
static void test_fairness(void **state)
{
    Fix *f = *state;
    DpQp a;
    DpSend s = { .op = E810_OP_SEND };
    unsigned i, before;

    dp_qp_create(&f->dev, &a, E810_QP_TYPE_ROCE_RC, &f->scq, &f->rcq, 1024,
                 16, 1, false, false);
    dp_qp_rts(&a);
    for (i = 0; i < 400; i++) {
        dp_post_send(&a, &s);
    }
    dp_ring(&a, false);
    dp_post_send(&f->qp, &s);
    dp_ring(&f->qp, false);
    harness_run_work(f->h);
    before = f->tap.n;
    assert_true(before < 400);
    /* f->qp's WQE went in the first run. */
    for (i = 0; i < before && f->tap.w[i].qp_id != f->qp.id; i++) {
    }
    assert_true(i < before);
    dp_run(&f->dev);
    assert_int_equal(f->tap.n, 401);
}

/* UD: AH, Q_Key and destination QPN; RDMA opcodes are not allowed. */
static void test_ud(void **state)
{
    Fix *f = *state;
    DpQp ud;
    DpSend s = { .op = E810_OP_SEND, .ah_id = 77, .qkey = 0x11112222,
                 .dest_qpn = 0xabcdef, .nsge = 1, .signaled = true };
    DpAe ae;
    DpCqe e;
    uint32_t bad;

    dp_qp_create(&f->dev, &ud, E810_QP_TYPE_ROCE_UD, &f->scq, &f->rcq, 64,
                 16, 1, false, false);
    dp_qp_rts(&ud);
    s.sge[0] = sge(0x9000, 64, 0x55);
    dp_post_send(&ud, &s);
    dp_ring(&ud, false);
    dp_run(&f->dev);
    assert_int_equal(f->tap.n, 1);
    assert_int_equal(f->tap.w[0].ah_id, 77);
    assert_int_equal(f->tap.w[0].qkey, 0x11112222);
    assert_int_equal(f->tap.w[0].dest_qpn, 0xabcdef);
    e810_dp_complete_sq(&f->h->core, dp_model_qp(&ud), &f->tap.w[0], 0, 64);
    assert_true(dp_poll_cq(&f->scq, &e));
    s.op = E810_OP_RDMA_WRITE;
    bad = dp_post_send(&ud, &s);
    dp_ring(&ud, false);
    dp_run(&f->dev);
    assert_int_equal(f->tap.n, 1);
    assert_true(dp_poll_ae(&f->dev, &ae));
    assert_int_equal(ae.code, E810_AE_WQE_UNEXPECTED_OPCODE);
    assert_int_equal(ae.id, ud.id);
    assert_int_equal(ae.wqe_idx, bad);
    assert_true(dp_poll_cq(&f->scq, &e));
    assert_true(e.error);
    assert_int_equal(e.minor, E810_FLUSH_LOC_QP_OP_ERR);
}

/* Bad opcode and malformed WQEs: AE, QP to ERROR, flush CQE at the WQE. */
static void expect_bad(Fix *f, uint32_t idx, uint16_t code, uint16_t minor)
{
    DpAe ae;
    DpCqe e;

    go(f);
    assert_true(dp_poll_ae(&f->dev, &ae));
    assert_int_equal(ae.code, code);
    assert_int_equal(ae.source, E810_AE_SOURCE_SQ);
    assert_int_equal(ae.id, f->qp.id);
    assert_int_equal(ae.wqe_idx, idx);
    assert_true(ae.ctx == f->qp.compl_ctx);
    assert_int_equal(dp_model_qp(&f->qp)->state, E810_QP_STATE_ERROR);
    assert_true(dp_poll_cq(&f->scq, &e));
    assert_true(e.sq && e.error);
    assert_int_equal(e.major, E810_CQE_MAJ_FLUSH);
    assert_int_equal(e.minor, minor);
    assert_int_equal(e.wqe_idx, idx);
    assert_false(dp_poll_cq(&f->scq, &e));
    assert_false(dp_poll_ae(&f->dev, &ae));
    assert_true(f->h->core.rdma.stats.sq_bad_wqes == 1);
}

static void test_bad_opcode(void **state)
{
    Fix *f = *state;
    DpSend s = { .op = 0x07, .signaled = true };

    expect_bad(f, dp_post_send(&f->qp, &s), E810_AE_WQE_UNEXPECTED_OPCODE,
               E810_FLUSH_LOC_QP_OP_ERR);
}

static void test_bad_fragcnt(void **state)
{
    Fix *f = *state;
    uint64_t q[4] = { 0, 0, 0, FIELD_PREP(E810_WQE_OPCODE, E810_OP_SEND) |
                      FIELD_PREP(E810_WQE_ADDFRAGCNT, 15) };

    expect_bad(f, dp_post_raw(&f->qp, q, 1, false),
               E810_AE_WQE_INVALID_FRAG_DATA, E810_FLUSH_FATAL_ERR);
}

static void test_bad_chunk(void **state)
{
    Fix *f = *state;
    DpSend nop = { .op = E810_OP_NOP };
    uint64_t q[8] = { 0, 0, 0, FIELD_PREP(E810_WQE_OPCODE, E810_OP_SEND) |
                      FIELD_PREP(E810_WQE_ADDFRAGCNT, 2), 0, 0, 0,
                      E810_WQE_VALID };
    unsigned i;

    /* Seven NOPs, then a 2-quantum WQE at quantum 7 crossing the chunk. */
    for (i = 0; i < 7; i++) {
        dp_post_send(&f->qp, &nop);
    }
    expect_bad(f, dp_post_raw(&f->qp, q, 2, false),
               E810_AE_WQE_INVALID_FRAG_DATA, E810_FLUSH_FATAL_ERR);
}

static void test_bad_extra_quantum(void **state)
{
    Fix *f = *state;
    /* Second quantum's valid bit left at the old polarity (0). */
    uint64_t q[8] = { 0, 0, 0, FIELD_PREP(E810_WQE_OPCODE, E810_OP_SEND) |
                      FIELD_PREP(E810_WQE_ADDFRAGCNT, 2), 0, 0, 0, 0 };

    expect_bad(f, dp_post_raw(&f->qp, q, 2, false),
               E810_AE_WQE_INVALID_FRAG_DATA, E810_FLUSH_FATAL_ERR);
}

/* After the error, newly posted WQEs are flushed on the next doorbell. */
static void test_post_after_error(void **state)
{
    Fix *f = *state;
    DpSend bad = { .op = 0x3f }, s = { .op = E810_OP_SEND };
    uint32_t idx;
    DpCqe e;

    expect_bad(f, dp_post_send(&f->qp, &bad), E810_AE_WQE_UNEXPECTED_OPCODE,
               E810_FLUSH_LOC_QP_OP_ERR);
    idx = dp_post_send(&f->qp, &s);
    dp_post_send(&f->qp, &s);
    go(f);
    assert_int_equal(f->tap.n, 0);
    assert_true(dp_poll_cq(&f->scq, &e));
    assert_int_equal(e.major, E810_CQE_MAJ_FLUSH);
    assert_int_equal(e.minor, E810_FLUSH_GENERAL_ERR);
    assert_int_equal(e.wqe_idx, idx);
    assert_false(dp_poll_cq(&f->scq, &e));
    /* Nothing new: no CQE. */
    go(f);
    assert_false(dp_poll_cq(&f->scq, &e));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_opcodes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fetch_races_post, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_fetch_races_post, setup_virt,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_opcodes, setup_virt, teardown),
        cmocka_unit_test_setup_teardown(test_imm_and_frags, setup, teardown),
        cmocka_unit_test_setup_teardown(test_inline, setup, teardown),
        cmocka_unit_test_setup_teardown(test_inline, setup_virt, teardown),
        cmocka_unit_test_setup_teardown(test_post_after_last_look, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_padding_and_wrap, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_padding_and_wrap, setup_virt,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_signaled_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fence, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refuse_and_kick, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_overrun, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kick_during_refusal, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_arm_ceqe, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reset_restarts_rings, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_reset_restarts_rings, setup_virt,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_suspend_resume, setup, teardown),
        cmocka_unit_test_setup_teardown(test_not_before_rts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fairness, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ud, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_opcode, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_fragcnt, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_chunk, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_extra_quantum, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_post_after_error, setup,
                                        teardown),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
