/*
 * Device model: the control QP: creation and its checks, doorbell and
 * valid-bit rules, polarity across wraps, completion by CQPTAIL and by CCQ
 * CQEs, and the error codes of failed WQEs.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "e810_rdma.h"
#include "rdma_driver.h"

#define ERRCODES(min) (((uint32_t)E810_CQP_MAJ_ERROR << 16) | (min))

static uint32_t create_with(Harness *h, RdmaDriver *d, unsigned qw,
                            uint64_t clear, uint64_t set)
{
    uint64_t *ctx;

    rd_init(h, d, 64);
    ctx = rd_cqp_ctx(d);
    ctx[qw] = htole64((le64toh(ctx[qw]) & ~clear) | set);
    return rd_cqp_create(d);
}

static void test_create_sets_done(void **state)
{
    Harness *h = *state;
    RdmaDriver d;

    assert_int_equal(create_with(h, &d, 0, 0, 0), E810_CCQPSTATUS_CCQP_DONE);
    assert_true(h->core.rdma.cqp.created);
    assert_int_equal(h->core.rdma.cqp.sq_size, 64);
    assert_true(h->core.rdma.cqp.compl_ctx == RD_CQP_CTX);
    assert_int_equal(rd32(h, E810_CQPERRCODES), 0);
    assert_int_equal(h->log_guest_error, 0);
}

static void test_create_bad_sq_size(void **state)
{
    Harness *h = *state;
    RdmaDriver d;

    assert_int_equal(create_with(h, &d, E810_QW(E810_CQPHC_CFG_OFF),
                                 E810_CQPHC_SQSIZE, 0),
                     E810_CCQPSTATUS_CCQP_ERR);
    assert_int_equal(rd32(h, E810_CQPERRCODES),
                     ERRCODES(E810_CQP_MIN_BAD_SIZE));
    assert_false(h->core.rdma.cqp.created);
    /* 11 would be 4096 WQEs: more than the 2048 a CQP can have. */
    wr32(h, E810_CCQPHIGH, 0);
    wr32(h, E810_CCQPLOW, 0);
    harness_run_work(h);
    assert_int_equal(create_with(h, &d, E810_QW(E810_CQPHC_CFG_OFF),
                                 E810_CQPHC_SQSIZE,
                                 FIELD_PREP(E810_CQPHC_SQSIZE, 11)),
                     E810_CCQPSTATUS_CCQP_ERR);
}

static void test_create_misaligned_sq(void **state)
{
    Harness *h = *state;
    RdmaDriver d;

    assert_int_equal(create_with(h, &d, E810_QW(E810_CQPHC_SQ_BASE_OFF), 0,
                                 0x100), E810_CCQPSTATUS_CCQP_ERR);
    assert_int_equal(rd32(h, E810_CQPERRCODES),
                     ERRCODES(E810_CQP_MIN_BAD_ADDR));
}

static void test_create_unreadable_context(void **state)
{
    Harness *h = *state;

    wr32(h, E810_CCQPHIGH, 0x7);    /* far outside the test memory */
    wr32(h, E810_CCQPLOW, 0x1000);
    harness_run_work(h);
    assert_int_equal(rd32(h, E810_CCQPSTATUS), E810_CCQPSTATUS_CCQP_ERR);
    assert_int_equal(rd32(h, E810_CQPERRCODES),
                     ERRCODES(E810_CQP_MIN_BAD_ADDR));
}

static void test_create_other_generation(void **state)
{
    Harness *h = *state;
    RdmaDriver d;

    assert_int_equal(create_with(h, &d, E810_QW(E810_CQPHC_VER_OFF),
                                 E810_CQPHC_HW_MAJVER, 0),
                     E810_CCQPSTATUS_CCQP_ERR);
    assert_int_equal(rd32(h, E810_CQPERRCODES),
                     ERRCODES(E810_CQP_MIN_BAD_VERSION));
}

/* PROTOCOL_USED 1 (iWARP only) is iWARP mode (e810_iwarp.h); 3 is no
 * protocol the driver names. */
static void test_create_protocol(void **state)
{
    Harness *h = *state;
    RdmaDriver d;

    assert_int_equal(create_with(h, &d, E810_QW(E810_CQPHC_CFG_OFF),
                                 E810_CQPHC_PROTOCOL_USED,
                                 FIELD_PREP(E810_CQPHC_PROTOCOL_USED,
                                            E810_PROTOCOL_IWARP_ONLY)),
                     E810_CCQPSTATUS_CCQP_DONE);
    assert_true(e810_iw_mode(&h->core));
    rd_cqp_destroy(&d);
    assert_false(e810_iw_mode(&h->core));
    assert_int_equal(create_with(h, &d, E810_QW(E810_CQPHC_CFG_OFF),
                                 E810_CQPHC_PROTOCOL_USED,
                                 E810_CQPHC_PROTOCOL_USED),
                     E810_CCQPSTATUS_CCQP_ERR);
    assert_int_equal(rd32(h, E810_CQPERRCODES),
                     ERRCODES(E810_CQP_MIN_BAD_PARAM));
}

static void test_create_twice(void **state)
{
    Harness *h = *state;
    RdmaDriver d;

    assert_int_equal(create_with(h, &d, 0, 0, 0), E810_CCQPSTATUS_CCQP_DONE);
    assert_int_equal(rd_cqp_create(&d), E810_CCQPSTATUS_CCQP_ERR);
    assert_int_equal(rd32(h, E810_CQPERRCODES),
                     ERRCODES(E810_CQP_MIN_BAD_STATE));
    assert_true(h->core.rdma.cqp.created);
}

static void test_destroy_clears_done(void **state)
{
    Harness *h = *state;
    RdmaDriver d;

    assert_int_equal(create_with(h, &d, 0, 0, 0), E810_CCQPSTATUS_CCQP_DONE);
    assert_int_equal(rd_cqp_destroy(&d), 0);
    assert_false(h->core.rdma.cqp.created);
    /* A doorbell now goes nowhere. */
    wr32(h, E810_CQPDB, 1);
    assert_int_equal(h->core.rdma.stats.bad_doorbells, 1);
}

/* The status registers are read-only once the CQP exists. */
static void test_status_registers_read_only(void **state)
{
    Harness *h = *state;
    RdmaDriver d;

    assert_int_equal(create_with(h, &d, 0, 0, 0), E810_CCQPSTATUS_CCQP_DONE);
    wr32(h, E810_CCQPSTATUS, 0);
    wr32(h, E810_CQPTAIL, 0);
    assert_int_equal(rd32(h, E810_CCQPSTATUS), E810_CCQPSTATUS_CCQP_DONE);
    assert_int_equal(h->core.stats.mmio_ro_write, 2);
}

static void test_poll_mode_completion(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    uint32_t tail;

    assert_int_equal(create_with(h, &d, 0, 0, 0), E810_CCQPSTATUS_CCQP_DONE);
    rd_fill(&d, E810_CQP_OP_NOP, 0, NULL);
    h->work_scheduled = 0;
    rd_ring(&d);
    /*
     * Without a CCQ, done in the doorbell write itself
     * (irdma_cqp_poll_registers() gives it ~10 ms), nothing left for the
     * bottom half.
     */
    tail = rd32(h, E810_CQPTAIL);
    assert_int_equal(h->work_scheduled, 0);
    assert_int_equal(h->core.work_pending, 0);
    assert_int_equal(tail, 1);
    assert_int_equal(h->core.rdma.cqp.ops, 1);
    /* WQEs are not written back: irdma re-reads their opcode. */
    assert_int_equal(FIELD_GET(E810_CQPSQ_OPCODE,
                               rd_mem64(&d, d.sq_pa + E810_CQPSQ_HDR_OFF)),
                     E810_CQP_OP_NOP);
}

static void test_doorbell_beyond_sq(void **state)
{
    Harness *h = *state;
    RdmaDriver d;

    assert_int_equal(create_with(h, &d, 0, 0, 0), E810_CCQPSTATUS_CCQP_DONE);
    h->work_scheduled = 0;
    wr32(h, E810_CQPDB, 64);
    assert_int_equal(h->work_scheduled, 0);
    assert_int_equal(h->core.rdma.stats.bad_doorbells, 1);
    assert_int_equal(h->log_guest_error, 1);
}

/* The device stops at the first WQE whose valid bit is not this pass's. */
static void test_stops_at_invalid_wqe(void **state)
{
    Harness *h = *state;
    RdmaDriver d;

    assert_int_equal(create_with(h, &d, 0, 0, 0), E810_CCQPSTATUS_CCQP_DONE);
    rd_fill(&d, E810_CQP_OP_NOP, 0, NULL);
    wr32(h, E810_CQPDB, 3);         /* two WQEs more than were written */
    harness_run_work(h);
    assert_int_equal(rd32(h, E810_CQPTAIL), 1);
    assert_int_equal(h->log_guest_error, 1);
    /* Once written, they run on the next doorbell. */
    rd_fill(&d, E810_CQP_OP_NOP, 0, NULL);
    rd_fill(&d, E810_CQP_OP_NOP, 0, NULL);
    rd_ring(&d);
    harness_run_work(h);
    assert_int_equal(rd32(h, E810_CQPTAIL), 3);
}

/* 4-entry SQ, 10 ops one at a time: the valid bit flips at each wrap. */
static void test_polarity_wraps(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    unsigned i;

    rd_init(h, &d, 4);
    assert_int_equal(rd_cqp_create(&d), E810_CCQPSTATUS_CCQP_DONE);
    for (i = 1; i <= 10; i++) {
        rd_exec_poll(&d, E810_CQP_OP_NOP, 0, NULL);
        assert_int_equal(rd32(h, E810_CQPTAIL), i % 4);
        assert_int_equal(h->core.rdma.cqp.polarity, (i / 4) % 2 == 0);
    }
    /* A stale WQE of the previous pass is not run again. */
    wr32(h, E810_CQPDB, 3);
    harness_run_work(h);
    assert_int_equal(rd32(h, E810_CQPTAIL), 2);
    assert_int_equal(h->core.rdma.cqp.ops, 10);
}

static void test_error_flag_in_poll_mode(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    uint32_t tail;

    assert_int_equal(create_with(h, &d, 0, 0, 0), E810_CCQPSTATUS_CCQP_DONE);
    tail = rd_exec_poll(&d, E810_CQP_OP_CREATE_SRQ, 0, NULL);
    assert_int_equal(tail, 1 | E810_CQPTAIL_CQP_OP_ERR);
    assert_int_equal(rd32(h, E810_CQPERRCODES),
                     ERRCODES(E810_CQP_MIN_BAD_OPCODE));
    assert_int_equal(h->log_unimp, 1);
    /* The next doorbell starts a new batch: the flag clears. */
    rd_fill(&d, E810_CQP_OP_NOP, 0, NULL);
    rd_ring(&d);
    assert_int_equal(rd32(h, E810_CQPTAIL), 2);
    /* CQPERRCODES keeps the last failure for the driver's debug print. */
    assert_int_equal(rd32(h, E810_CQPERRCODES),
                     ERRCODES(E810_CQP_MIN_BAD_OPCODE));
}

static void test_error_in_ccq_cqe(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    RdmaCompl c;

    rd_bringup(h, &d);
    c = rd_exec(&d, 0x17, 0, NULL);         /* no such opcode */
    assert_true(c.error);
    assert_int_equal(c.major, E810_CQP_MAJ_ERROR);
    assert_int_equal(c.minor, E810_CQP_MIN_BAD_OPCODE);
    assert_int_equal(c.op, 0x17);
    assert_int_equal(rd32(h, E810_CQPERRCODES),
                     ERRCODES(E810_CQP_MIN_BAD_OPCODE));
    /* A good op after it completes cleanly. */
    c = rd_exec(&d, E810_CQP_OP_NOP, 0, NULL);
    assert_false(c.error);
    assert_int_equal(c.major, 0);
}

/* Several WQEs, one doorbell: completed in order, one CQE each. */
static void test_batch_in_order(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    uint32_t first, i;
    RdmaCompl c;

    rd_bringup(h, &d);
    first = rd_fill(&d, E810_CQP_OP_NOP, 0, NULL);
    for (i = 1; i < 5; i++) {
        rd_fill(&d, E810_CQP_OP_NOP, 0, NULL);
    }
    rd_ring(&d);
    harness_run_work(h);
    for (i = 0; i < 5; i++) {
        assert_true(rd_ccq_poll(&d, &c));
        assert_int_equal(c.wqe_idx, first + i);
        assert_false(c.error);
    }
    assert_false(rd_ccq_poll(&d, &c));
    assert_int_equal(FIELD_GET(E810_CQPTAIL_WQTAIL, rd32(h, E810_CQPTAIL)),
                     first + 5);
}

/*
 * 200 WQEs behind one doorbell: a run of deferred work executes
 * E810_CQP_RUN_BUDGET of them and asks for another run; the next runs
 * finish the rest, every one completed once and in order.
 */
static void test_batch_budget(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    uint32_t first, i, tail, runs;
    RdmaCompl c;

    rd_init(h, &d, 256);
    assert_int_equal(rd_cqp_create(&d), E810_CCQPSTATUS_CCQP_DONE);
    rd_query_fpm(&d);
    assert_true(rd_size_fpm(&d, 262144) > 0);
    assert_true(rd_commit_fpm(&d) > 0);
    rd_direct_sd(&d, 0);
    assert_false(rd_create_ccq(&d, 512).error);
    first = rd_fill(&d, E810_CQP_OP_NOP, 0, NULL);
    for (i = 1; i < 200; i++) {
        rd_fill(&d, E810_CQP_OP_NOP, 0, NULL);
    }
    /*
     * With a CCQ the doorbell only records work: a CQE and its interrupt
     * must not come before the write returns.
     */
    h->work_scheduled = 0;
    rd_ring(&d);
    assert_int_equal(FIELD_GET(E810_CQPTAIL_WQTAIL, rd32(h, E810_CQPTAIL)),
                     first);
    assert_int_equal(h->work_scheduled, 1);
    harness_run_work(h);
    tail = FIELD_GET(E810_CQPTAIL_WQTAIL, rd32(h, E810_CQPTAIL));
    assert_int_equal(tail, first + E810_CQP_RUN_BUDGET);
    assert_true(h->core.work_pending & E810_WORK_CQP);
    assert_true(h->work_scheduled > 0);
    for (runs = 1; h->core.work_pending; runs++) {
        assert_true(runs < 10);
        harness_run_work(h);
    }
    assert_int_equal(runs, (200 + E810_CQP_RUN_BUDGET - 1) /
                           E810_CQP_RUN_BUDGET);
    assert_int_equal(FIELD_GET(E810_CQPTAIL_WQTAIL, rd32(h, E810_CQPTAIL)),
                     first + 200);
    for (i = 0; i < 200; i++) {
        assert_true(rd_ccq_poll(&d, &c));
        assert_int_equal(c.wqe_idx, first + i);
        assert_false(c.error);
    }
    assert_false(rd_ccq_poll(&d, &c));
}

/* Deferred work entered from inside itself leaves its work pending. */
static void test_run_work_reentry(void **state)
{
    Harness *h = *state;

    h->core.in_work = true;
    h->core.work_pending = E810_WORK_ATQ;
    h->work_scheduled = 0;
    harness_run_work(h);
    assert_int_equal(h->core.work_pending, E810_WORK_ATQ);
    assert_int_equal(h->core.stats.work_reentries, 1);
    assert_int_equal(h->work_scheduled, 1);
    h->core.in_work = false;
}

/*
 * A CQPDB write from inside a run (a DMA that reached our own BAR) is not
 * run there: it waits for the next run, like any other work.
 */
static void test_doorbell_in_work_deferred(void **state)
{
    Harness *h = *state;
    RdmaDriver d;

    assert_int_equal(create_with(h, &d, 0, 0, 0), E810_CCQPSTATUS_CCQP_DONE);
    rd_fill(&d, E810_CQP_OP_NOP, 0, NULL);
    h->core.in_work = true;
    h->work_scheduled = 0;
    rd_ring(&d);
    h->core.in_work = false;
    assert_int_equal(rd32(h, E810_CQPTAIL), 0);
    assert_true(h->core.work_pending & E810_WORK_CQP);
    assert_int_equal(h->work_scheduled, 1);
    harness_run_work(h);
    assert_int_equal(rd32(h, E810_CQPTAIL), 1);
    assert_int_equal(h->core.rdma.cqp.ops, 1);
}

/* An SQ the device cannot reach: flagged, nothing consumed, no crash. */
static void test_sq_unreachable(void **state)
{
    Harness *h = *state;
    RdmaDriver d;

    rd_init(h, &d, 64);
    rd_cqp_ctx(&d)[E810_QW(E810_CQPHC_SQ_BASE_OFF)] = htole64(0x7000000000ull);
    assert_int_equal(rd_cqp_create(&d), E810_CCQPSTATUS_CCQP_DONE);
    wr32(h, E810_CQPDB, 1);
    harness_run_work(h);
    assert_int_equal(rd32(h, E810_CQPTAIL), E810_CQPTAIL_CQP_OP_ERR);
    assert_int_equal(rd32(h, E810_CQPERRCODES),
                     ERRCODES(E810_CQP_MIN_BAD_ADDR));
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, harness_setup, \
                                              harness_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_create_sets_done),
        T(test_create_bad_sq_size),
        T(test_create_misaligned_sq),
        T(test_create_unreadable_context),
        T(test_create_other_generation),
        T(test_create_protocol),
        T(test_create_twice),
        T(test_destroy_clears_done),
        T(test_status_registers_read_only),
        T(test_poll_mode_completion),
        T(test_doorbell_beyond_sq),
        T(test_stops_at_invalid_wqe),
        T(test_polarity_wraps),
        T(test_error_flag_in_poll_mode),
        T(test_error_in_ccq_cqe),
        T(test_batch_budget),
        T(test_run_work_reentry),
        T(test_doorbell_in_work_deferred),
        T(test_batch_in_order),
        T(test_sq_unreachable),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_cqp", tests, NULL, NULL);
}
