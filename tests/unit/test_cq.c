/*
 * Device model: completion queues: create/modify/destroy checks, CQE
 * writing with polarity, arming through CQARM and the shadow area (next and
 * solicited-only), the doorbell-page alias, overflow, resize, CQACK.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "e810_core.h"
#include "rdma_driver.h"

typedef struct Fixture {
    Harness *h;
    RdmaDriver d;
    uint64_t ceq;           /* CEQ 0, 64 entries */
    uint64_t aeq;           /* AEQ, 64 entries */
} Fixture;

static int setup(void **state)
{
    Fixture *f = calloc(1, sizeof(*f));

    f->h = harness_new(0);
    if (!f->h) {
        return -1;
    }
    rd_bringup(f->h, &f->d);
    f->ceq = mem_alloc_aligned(f->h, 64 * E810_CEQE_SIZE, 256);
    f->aeq = mem_alloc_aligned(f->h, 64 * E810_AEQE_SIZE, 256);
    assert_false(rd_create_ceq(&f->d, 0, 64, f->ceq).error);
    assert_false(rd_create_aeq(&f->d, 64, f->aeq).error);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fixture *f = *state;

    harness_free(f->h);
    free(f);
    return 0;
}

static struct e810_cqe cqe_with(uint64_t ctx, uint64_t hdr)
{
    struct e810_cqe c = { 0 };

    c.qw[0] = htole64(0x1111);
    c.qw[1] = htole64(ctx);
    c.qw[2] = htole64(0x3333);
    c.qw[3] = htole64(hdr);
    return c;
}

static uint16_t cq_fails(Fixture *f, uint32_t id, uint32_t size,
                         uint64_t ring, uint64_t shadow, uint32_t ceq,
                         uint64_t hdr, uint64_t pble)
{
    uint64_t q[8] = { 0 };
    RdmaCompl c;

    q[E810_QW(E810_CQPSQ_CQ_SIZE_OFF)] = size;
    q[E810_QW(E810_CQPSQ_CQ_PA_OFF)] = ring;
    q[E810_QW(E810_CQPSQ_CQ_SHADOW_OFF)] = shadow;
    q[E810_QW(E810_CQPSQ_CQ_PBL_OFF)] = pble;
    c = rd_exec(&f->d, E810_CQP_OP_CREATE_CQ,
                FIELD_PREP(E810_CQPSQ_CQ_CQID, id) |
                FIELD_PREP(E810_CQPSQ_CQ_CEQID, ceq) |
                E810_CQPSQ_CQ_CEQIDVALID | hdr, q);
    return c.error ? c.minor : 0;
}

static void test_create_checks(void **state)
{
    Fixture *f = *state;
    uint64_t ring = mem_alloc_aligned(f->h, 64 * 32, 256);
    uint64_t sh = mem_alloc(f->h, 64);
    uint64_t vmap = E810_CQPSQ_CQ_VIRTMAP;

    assert_int_equal(cq_fails(f, 2048, 64, ring, sh, 0, 0, 0),
                     E810_CQP_MIN_BAD_INDEX);
    assert_int_equal(cq_fails(f, 0, 64, ring, sh, 0, 0, 0),
                     E810_CQP_MIN_BAD_STATE);       /* the CCQ */
    assert_int_equal(cq_fails(f, 3, 0, ring, sh, 0, 0, 0),
                     E810_CQP_MIN_BAD_SIZE);
    /* The ring upstream's provider makes for max_cqe (2 x 1048575). */
    assert_int_equal(cq_fails(f, 7, 2097150, ring, sh, 0, 0, 0), 0);
    assert_int_equal(cq_fails(f, 3, 64, ring, sh, 0,
                              E810_CQPSQ_CQ_AVOIDMEMCNFLCT, 0),
                     E810_CQP_MIN_BAD_PARAM);
    assert_int_equal(cq_fails(f, 3, 64, ring, sh, 256, 0, 0),
                     E810_CQP_MIN_BAD_INDEX);
    assert_int_equal(cq_fails(f, 3, 64, ring + 8, sh, 0, 0, 0),
                     E810_CQP_MIN_BAD_ADDR);
    assert_int_equal(cq_fails(f, 3, 64, ring, sh + 4, 0, 0, 0),
                     E810_CQP_MIN_BAD_ADDR);
    assert_int_equal(cq_fails(f, 3, 64, 0, sh, 0, vmap |
                              FIELD_PREP(E810_CQPSQ_CQ_LPBLSIZE, 3), 0),
                     E810_CQP_MIN_BAD_PARAM);
    assert_int_equal(cq_fails(f, 3, 64, 0, sh, 0, vmap |
                              FIELD_PREP(E810_CQPSQ_CQ_LPBLSIZE, 1), 1u << 27),
                     E810_CQP_MIN_BAD_INDEX);
    assert_int_equal(cq_fails(f, 3, 64, ring, sh, 0, 0, 0), 0);
    assert_non_null(e810_cq_get(&f->h->core, 3));
}

static void test_destroy_checks(void **state)
{
    Fixture *f = *state;

    assert_int_equal(rd_exec(&f->d, E810_CQP_OP_DESTROY_CQ,
                             FIELD_PREP(E810_CQPSQ_CQ_CQID, 5), NULL).minor,
                     E810_CQP_MIN_BAD_STATE);
    assert_int_equal(rd_exec(&f->d, E810_CQP_OP_DESTROY_CQ,
                             FIELD_PREP(E810_CQPSQ_CQ_CQID, 4000), NULL).minor,
                     E810_CQP_MIN_BAD_INDEX);
}

/* 4 slots, 6 CQEs: the second pass writes valid bit 0, header last. */
static void test_cqe_polarity(void **state)
{
    Fixture *f = *state;
    uint64_t ring = mem_alloc_aligned(f->h, 4 * 32, 256);
    uint64_t sh = mem_alloc(f->h, 64);
    struct e810_cqe c;
    unsigned i;

    assert_false(rd_create_cq(&f->d, 3, 4, ring, sh, 0, 0x42, 0).error);
    for (i = 0; i < 6; i++) {
        c = cqe_with(100 + i, FIELD_PREP(E810_CQE_WQEIDX, i));
        assert_true(e810_cq_post(&f->h->core, 3, &c, 1));
    }
    for (i = 0; i < 4; i++) {
        uint64_t hdr = rd_mem64(&f->d, ring + 32 * i + 24);
        unsigned want = i < 2 ? 4 + i : i;

        assert_true(rd_mem64(&f->d, ring + 32 * i + 8) == 100 + want);
        assert_true(rd_mem64(&f->d, ring + 32 * i) == 0x1111);
        assert_int_equal(FIELD_GET(E810_CQE_WQEIDX, hdr), want);
        assert_int_equal(!!(hdr & E810_CQE_VALID), i >= 2);
    }
    /* A two-slot (extended) CQE takes consecutive slots. */
    c = cqe_with(7, E810_CQE_EXTCQE);
    {
        struct e810_cqe two[2] = { c, cqe_with(8, 0) };

        assert_true(e810_cq_post(&f->h->core, 3, two, 2));
    }
    assert_true(rd_mem64(&f->d, ring + 32 * 2 + 8) == 7);
    assert_true(rd_mem64(&f->d, ring + 32 * 3 + 8) == 8);
    assert_false(rd_mem64(&f->d, ring + 32 * 3 + 24) & E810_CQE_VALID);
}

static void test_arm_next(void **state)
{
    Fixture *f = *state;
    uint64_t ring = mem_alloc_aligned(f->h, 16 * 32, 256);
    uint64_t sh = mem_alloc(f->h, 64);
    struct e810_cqe c = cqe_with(1, 0);
    unsigned posted;

    assert_false(rd_create_cq(&f->d, 3, 16, ring, sh, 0, 0xabcdef, 0).error);
    posted = f->h->core.rdma.ceq[0].posted;
    /* Before any arm: no event. The driver polls that CQE. */
    assert_true(e810_cq_post(&f->h->core, 3, &c, 1));
    assert_int_equal(f->h->core.rdma.ceq[0].posted, posted);
    rd_set64(&f->d, sh + E810_CQ_DBSA_HEAD_OFF, 1);
    /* The arm only reaches the CQ when the work runs. */
    rd_arm_cq(&f->d, sh, 3, false);
    assert_false(f->h->core.rdma.cq[3].arm_next);
    harness_run_work(f->h);
    assert_true(f->h->core.rdma.cq[3].arm_next);
    assert_int_equal(f->h->core.rdma.ceq[0].posted, posted);
    assert_true(e810_cq_post(&f->h->core, 3, &c, 1));
    assert_int_equal(f->h->core.rdma.ceq[0].posted, posted + 1);
    assert_true(FIELD_GET(E810_CEQE_CQCTX, rd_mem64(&f->d, f->ceq + 8 * posted))
                == 0xabcdef);
    /* One event per arm. */
    assert_true(e810_cq_post(&f->h->core, 3, &c, 1));
    assert_int_equal(f->h->core.rdma.ceq[0].posted, posted + 1);
}

/*
 * A CQE that arrived after the driver's last poll but before its re-arm:
 * the arm finds it beyond the shadow head and raises the event at once.
 */
static void test_arm_with_unpolled_cqe(void **state)
{
    Fixture *f = *state;
    uint64_t ring = mem_alloc_aligned(f->h, 16 * 32, 256);
    uint64_t sh = mem_alloc(f->h, 64);
    struct e810_cqe c = cqe_with(1, 0);
    unsigned posted;

    assert_false(rd_create_cq(&f->d, 3, 16, ring, sh, 0, 0x31, 0).error);
    posted = f->h->core.rdma.ceq[0].posted;
    assert_true(e810_cq_post(&f->h->core, 3, &c, 1));
    /* Solicited-only arms cannot tell: no event. */
    rd_arm_cq(&f->d, sh, 3, true);
    harness_run_work(f->h);
    assert_int_equal(f->h->core.rdma.ceq[0].posted, posted);
    rd_arm_cq(&f->d, sh, 3, false);
    harness_run_work(f->h);
    assert_int_equal(f->h->core.rdma.ceq[0].posted, posted + 1);
    assert_false(f->h->core.rdma.cq[3].arm_next);
    assert_true(FIELD_GET(E810_CEQE_CQCTX, rd_mem64(&f->d, f->ceq + 8 * posted))
                == 0x31);
}

static void test_arm_solicited_only(void **state)
{
    Fixture *f = *state;
    uint64_t ring = mem_alloc_aligned(f->h, 16 * 32, 256);
    uint64_t sh = mem_alloc(f->h, 64);
    struct e810_cqe plain = cqe_with(1, 0);
    struct e810_cqe se = cqe_with(2, E810_CQE_SOEVENT);
    unsigned posted;

    assert_false(rd_create_cq(&f->d, 4, 16, ring, sh, 0, 0x99, 0).error);
    posted = f->h->core.rdma.ceq[0].posted;
    rd_arm_cq(&f->d, sh, 4, true);
    harness_run_work(f->h);
    assert_true(e810_cq_post(&f->h->core, 4, &plain, 1));
    assert_int_equal(f->h->core.rdma.ceq[0].posted, posted);
    assert_true(e810_cq_post(&f->h->core, 4, &se, 1));
    assert_int_equal(f->h->core.rdma.ceq[0].posted, posted + 1);
}

/* User CQs arm through the doorbell page at +0x40. */
static void test_arm_via_doorbell_page(void **state)
{
    Fixture *f = *state;
    uint64_t ring = mem_alloc_aligned(f->h, 16 * 32, 256);
    uint64_t sh = mem_alloc(f->h, 64);

    assert_false(rd_create_cq(&f->d, 5, 16, ring, sh, 0, 0x5, 0).error);
    rd_set64(&f->d, sh + E810_CQ_DBSA_ARM_OFF,
             E810_CQ_DBSA_ARM_NEXT | E810_CQ_DBSA_ARM_NEXT_SE);
    e810_core_mmio_write(&f->h->core, E810_DB_ADDR_OFFSET + E810_DB_CQ_OFFSET,
                         5, 4);
    harness_run_work(f->h);
    assert_true(f->h->core.rdma.cq[5].arm_next);
    /* Other sizes and offsets in the doorbell page are refused. */
    e810_core_mmio_write(&f->h->core, E810_DB_ADDR_OFFSET + E810_DB_CQ_OFFSET,
                         5, 8);
    e810_core_mmio_write(&f->h->core, E810_DB_ADDR_OFFSET + 0x80, 5, 4);
    assert_int_equal(f->h->log_guest_error, 2);
}

static void test_arm_and_ack_missing_cq(void **state)
{
    Fixture *f = *state;

    wr32(f->h, E810_CQARM, 77);
    wr32(f->h, E810_CQACK, 77);
    harness_run_work(f->h);
    assert_int_equal(f->h->core.rdma.stats.bad_doorbells, 2);
    assert_int_equal(f->h->log_guest_error, 2);
}

/*
 * 4 slots with CHKOVERFLOW: 3 CQEs fit; the 4th overflows unless the
 * consumer moved on in the shadow area. An overflow raises AE 0x0203 with
 * the CQ's context and stops the CQ.
 */
static void test_overflow(void **state)
{
    Fixture *f = *state;
    uint64_t ring = mem_alloc_aligned(f->h, 4 * 32, 256);
    uint64_t sh = mem_alloc(f->h, 64);
    struct e810_cqe c = cqe_with(1, 0);
    uint64_t info;
    unsigned i;

    assert_false(rd_create_cq(&f->d, 6, 4, ring, sh, 0, 0xc0ffee,
                              E810_CQPSQ_CQ_CHKOVERFLOW).error);
    for (i = 0; i < 3; i++) {
        assert_true(e810_cq_post(&f->h->core, 6, &c, 1));
    }
    rd_set64(&f->d, sh + E810_CQ_DBSA_HEAD_OFF, 2);   /* consumed two */
    assert_true(e810_cq_post(&f->h->core, 6, &c, 1));
    assert_true(e810_cq_post(&f->h->core, 6, &c, 1));
    assert_false(e810_cq_post(&f->h->core, 6, &c, 1));
    assert_true(f->h->core.rdma.cq[6].error);
    assert_int_equal(f->h->core.rdma.stats.cq_overflows, 1);
    assert_true(rd_mem64(&f->d, f->aeq) == 0xc0ffee);
    info = rd_mem64(&f->d, f->aeq + 8);
    assert_int_equal(FIELD_GET(E810_AEQE_AECODE, info),
                     E810_AE_CQ_OPERATION_ERROR);
    assert_int_equal(FIELD_GET(E810_AEQE_AESRC, info), E810_AE_SOURCE_CQ);
    assert_int_equal(FIELD_GET(E810_AEQE_QPCQID_LOW, info), 6);
    /* Nothing more is written, even with room again. */
    rd_set64(&f->d, sh + E810_CQ_DBSA_HEAD_OFF, 1);
    assert_false(e810_cq_post(&f->h->core, 6, &c, 1));
}

/*
 * MODIFY_CQ with CQRESIZE: new CQEs go to the new ring at once; overflow
 * checking resumes when SW_CQ_SELECT moves (old buffers drained).
 */
static void test_resize(void **state)
{
    Fixture *f = *state;
    uint64_t ring = mem_alloc_aligned(f->h, 4 * 32, 256);
    uint64_t ring2 = mem_alloc_aligned(f->h, 4 * 32, 256);
    uint64_t sh = mem_alloc(f->h, 64);
    struct e810_cqe c = cqe_with(9, 0);
    uint64_t q[8] = { 0 };
    unsigned i;

    assert_false(rd_create_cq(&f->d, 7, 4, ring, sh, 0, 0x7,
                              E810_CQPSQ_CQ_CHKOVERFLOW).error);
    assert_true(e810_cq_post(&f->h->core, 7, &c, 1));
    q[E810_QW(E810_CQPSQ_CQ_SIZE_OFF)] = 4;
    q[E810_QW(E810_CQPSQ_CQ_PA_OFF)] = ring2;
    assert_false(rd_exec(&f->d, E810_CQP_OP_MODIFY_CQ,
                         FIELD_PREP(E810_CQPSQ_CQ_CQID, 7) |
                         E810_CQPSQ_CQ_CQRESIZE | E810_CQPSQ_CQ_CHKOVERFLOW,
                         q).error);
    /* Old buffers draining (the shadow head is the old ring's): CQEs go
     * to the new ring, not checked against that head.
     */
    rd_set64(&f->d, sh + E810_CQ_DBSA_HEAD_OFF, 3);
    for (i = 0; i < 2; i++) {
        assert_true(e810_cq_post(&f->h->core, 7, &c, 1));
    }
    assert_true(rd_mem64(&f->d, ring2 + 24) & E810_CQE_VALID);
    assert_true(rd_mem64(&f->d, ring2 + 32 + 24) & E810_CQE_VALID);
    assert_false(rd_mem64(&f->d, ring + 32 + 24) & E810_CQE_VALID);
    /* Resize done (select 1), nothing consumed from the new ring: one
     * more fits, then it is full.
     */
    rd_set64(&f->d, sh + E810_CQ_DBSA_ARM_OFF,
             FIELD_PREP(E810_CQ_DBSA_SW_CQ_SELECT, 1));
    rd_set64(&f->d, sh + E810_CQ_DBSA_HEAD_OFF, 0);
    assert_true(e810_cq_post(&f->h->core, 7, &c, 1));
    assert_false(e810_cq_post(&f->h->core, 7, &c, 1));
    /* A resize to a bad ring is refused, the CQ is unchanged. */
    q[E810_QW(E810_CQPSQ_CQ_PA_OFF)] = ring2 + 4;
    assert_int_equal(rd_exec(&f->d, E810_CQP_OP_MODIFY_CQ,
                             FIELD_PREP(E810_CQPSQ_CQ_CQID, 7) |
                             E810_CQPSQ_CQ_CQRESIZE, q).minor,
                     E810_CQP_MIN_BAD_ADDR);
    assert_int_equal(rd_exec(&f->d, E810_CQP_OP_MODIFY_CQ,
                             FIELD_PREP(E810_CQPSQ_CQ_CQID, 8), q).minor,
                     E810_CQP_MIN_BAD_STATE);
}

/* A CQ ring through a level-1 PBL. */
static void test_virtual_cq(void **state)
{
    Fixture *f = *state;
    uint64_t pbl = rd_pble_page(&f->d);
    uint64_t pg0 = mem_alloc_aligned(f->h, 4096, 4096);
    uint64_t pg1 = mem_alloc_aligned(f->h, 4096, 4096);
    uint64_t sh = mem_alloc(f->h, 64);
    struct e810_cqe c = cqe_with(3, 0);
    uint64_t q[8] = { 0 };
    unsigned i;

    rd_set64(&f->d, pbl + 8 * 20, pg0);
    rd_set64(&f->d, pbl + 8 * 21, pg1);
    q[E810_QW(E810_CQPSQ_CQ_SIZE_OFF)] = 256;     /* two pages */
    q[E810_QW(E810_CQPSQ_CQ_SHADOW_OFF)] = sh;
    q[E810_QW(E810_CQPSQ_CQ_PBL_OFF)] = 20;
    assert_false(rd_exec(&f->d, E810_CQP_OP_CREATE_CQ,
                         FIELD_PREP(E810_CQPSQ_CQ_CQID, 9) |
                         E810_CQPSQ_CQ_VIRTMAP |
                         FIELD_PREP(E810_CQPSQ_CQ_LPBLSIZE, 1), q).error);
    for (i = 0; i < 129; i++) {
        assert_true(e810_cq_post(&f->h->core, 9, &c, 1));
    }
    assert_true(rd_mem64(&f->d, pg0 + 127 * 32 + 24) & E810_CQE_VALID);
    assert_true(rd_mem64(&f->d, pg1 + 24) & E810_CQE_VALID);
    assert_true(rd_mem64(&f->d, pg1 + 8) == 3);
}

/* A CCQ that is never drained overflows with an AE. */
static void test_ccq_overflow(void **state)
{
    Harness *h = harness_new(0);
    RdmaDriver d;
    uint64_t aeq;
    unsigned i;

    rd_init(h, &d, 64);
    assert_int_equal(rd_cqp_create(&d), E810_CCQPSTATUS_CCQP_DONE);
    rd_query_fpm(&d);
    rd_size_fpm(&d, 262144);
    rd_commit_fpm(&d);
    rd_direct_sd(&d, 0);
    assert_false(rd_create_ccq(&d, 4).error);   /* 1 CQE used by itself */
    aeq = mem_alloc_aligned(h, 16 * 16, 256);
    assert_false(rd_create_aeq(&d, 16, aeq).error);
    /* Three slots hold CQEs the driver consumed; four more do not fit. */
    for (i = 0; i < 4; i++) {
        rd_fill(&d, E810_CQP_OP_NOP, 0, NULL);
    }
    rd_ring(&d);
    harness_run_work(h);
    assert_true(h->core.rdma.cq[0].error);
    assert_int_equal(FIELD_GET(E810_AEQE_AECODE, rd_mem64(&d, aeq + 8)),
                     E810_AE_CQ_OPERATION_ERROR);
    /* The CQP itself went on: the tail still advanced. */
    assert_int_equal(FIELD_GET(E810_CQPTAIL_WQTAIL, rd32(h, E810_CQPTAIL)),
                     d.sq_head);
    harness_free(h);
}

/* The CQ context of CEQE @i of CEQ 0. */
static uint64_t ceqe_ctx(Fixture *f, unsigned i)
{
    return FIELD_GET(E810_CEQE_CQCTX, rd_mem64(&f->d, f->ceq + 8 * (i % 64)));
}

static void cqack(Fixture *f, uint32_t id)
{
    wr32(f->h, E810_CQACK, FIELD_PREP(E810_CQACK_CQID, id));
}

/*
 * 10^6 arms of a CQ whose CQE the driver never consumes: each would be
 * due at once, but a CQ has one CEQE in its CEQ until the CQACK, so CEQ 0
 * gets one entry and never overflows, and the CCQ's event still arrives.
 * After each CQACK the held event is written: one CEQE per arm cycle.
 */
static void test_arm_flood(void **state)
{
    Fixture *f = *state;
    E810Rdma *r = &f->h->core.rdma;
    uint64_t ring = mem_alloc_aligned(f->h, 16 * 32, 256);
    uint64_t sh = mem_alloc(f->h, 64);
    struct e810_cqe c = cqe_with(1, 0);
    unsigned posted, i;
    RdmaCompl cc;

    assert_false(rd_create_cq(&f->d, 3, 16, ring, sh, 0, 0x77, 0).error);
    posted = r->ceq[0].posted;
    assert_true(e810_cq_post(&f->h->core, 3, &c, 1));
    for (i = 0; i < 1000000; i++) {
        rd_arm_cq(&f->d, sh, 3, false);
        harness_run_work(f->h);
    }
    assert_int_equal(r->ceq[0].posted, posted + 1);
    assert_int_equal(ceqe_ctx(f, posted), 0x77);
    assert_int_equal(r->ceq[0].outstanding, 1);
    assert_int_equal(r->ceq[0].overflows, 0);
    assert_int_equal(r->stats.events_held, 1000000 - 1);

    /* The CCQ, armed, completes a CQP op: its CEQE comes next. */
    rd_arm_cq(&f->d, f->d.ccq_shadow_pa, 0, false);
    harness_run_work(f->h);
    cc = rd_exec(&f->d, E810_CQP_OP_NOP, 0, NULL);
    assert_false(cc.error);
    assert_int_equal(r->ceq[0].posted, posted + 2);
    assert_int_equal(ceqe_ctx(f, posted + 1), r->cq[0].ctx);

    /* The driver takes both: the CQ's held event follows its CQACK. */
    cqack(f, 0);
    cqack(f, 3);
    assert_int_equal(r->ceq[0].outstanding, 0);
    harness_run_work(f->h);
    assert_int_equal(r->ceq[0].posted, posted + 3);
    assert_int_equal(ceqe_ctx(f, posted + 2), 0x77);

    /* Arm, event, CQACK, 1000 times: one CEQE each, at most one out. */
    for (i = 0; i < 1000; i++) {
        cqack(f, 3);
        rd_arm_cq(&f->d, sh, 3, false);
        harness_run_work(f->h);
        assert_int_equal(r->ceq[0].outstanding, 1);
    }
    assert_int_equal(r->ceq[0].posted, posted + 3 + 1000);
    assert_int_equal(r->ceq[0].overflows, 0);
}

/*
 * A CEQ smaller than its CQs: with every entry unacknowledged, the next
 * event is not written; the CQ gets AE 0x0203 (CQ_OPERATION_ERROR). A
 * CQACK makes room again.
 */
static void test_ceq_overflow(void **state)
{
    Fixture *f = *state;
    E810Rdma *r = &f->h->core.rdma;
    uint64_t ceq1 = mem_alloc_aligned(f->h, 256, 256);
    struct e810_cqe c = cqe_with(1, 0);
    uint64_t sh[3];
    unsigned i;

    assert_false(rd_create_ceq(&f->d, 1, 2, ceq1).error);
    for (i = 0; i < 3; i++) {
        uint64_t ring = mem_alloc_aligned(f->h, 16 * 32, 256);

        sh[i] = mem_alloc(f->h, 64);
        assert_false(rd_create_cq(&f->d, 5 + i, 16, ring, sh[i], 1,
                                  0x500 + i, 0).error);
        rd_arm_cq(&f->d, sh[i], 5 + i, false);
    }
    harness_run_work(f->h);
    for (i = 0; i < 3; i++) {
        assert_true(e810_cq_post(&f->h->core, 5 + i, &c, 1));
    }
    assert_int_equal(r->ceq[1].posted, 2);
    assert_int_equal(r->ceq[1].overflows, 1);
    assert_int_equal(FIELD_GET(E810_AEQE_AECODE,
                               rd_mem64(&f->d, f->aeq + E810_AEQE_INFO_OFF)),
                     E810_AE_CQ_OPERATION_ERROR);
    assert_int_equal(FIELD_GET(E810_AEQE_AESRC,
                               rd_mem64(&f->d, f->aeq + E810_AEQE_INFO_OFF)),
                     E810_AE_SOURCE_CQ);
    assert_int_equal(FIELD_GET(E810_AEQE_QPCQID_LOW,
                               rd_mem64(&f->d, f->aeq + E810_AEQE_INFO_OFF)),
                     7);
    /* One taken and acknowledged: the third CQ's next event fits. */
    cqack(f, 5);
    rd_arm_cq(&f->d, sh[2], 7, false);
    harness_run_work(f->h);
    assert_int_equal(r->ceq[1].posted, 3);
    /* Entry 2 of a 2-entry ring: slot 0 again, taken by the driver. */
    assert_int_equal(FIELD_GET(E810_CEQE_CQCTX,
                               rd_mem64(&f->d, ceq1 + 8 * 0)), 0x502);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_create_checks),
        T(test_destroy_checks),
        T(test_cqe_polarity),
        T(test_arm_next),
        T(test_arm_with_unpolled_cqe),
        T(test_arm_solicited_only),
        T(test_arm_via_doorbell_page),
        T(test_arm_and_ack_missing_cq),
        T(test_overflow),
        T(test_resize),
        T(test_virtual_cq),
        cmocka_unit_test(test_ccq_overflow),
        T(test_arm_flood),
        T(test_ceq_overflow),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_cq", tests, NULL, NULL);
}
