/*
 * Device model: CEQs and the AEQ: create/destroy checks, entry formats and
 * polarity across wraps, virtual (PBL) rings, MSI-X routing through
 * GLINT_CEQCTL / PFINT_AEQCTL and GLINT_DYN_CTL, AEQALLOC accounting.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "e810_core.h"
#include "rdma_driver.h"

#define ENA (E810_GLINT_DYN_CTL_INTENA | E810_GLINT_DYN_CTL_CLEARPBA)

static uint16_t ceq_fails(RdmaDriver *d, uint32_t id, uint32_t size,
                          uint64_t pa, uint64_t hdr, uint64_t pble)
{
    uint64_t q[8] = { 0 };
    RdmaCompl c;

    q[E810_QW(E810_CQPSQ_EQ_SIZE_OFF)] = size;
    q[E810_QW(E810_CQPSQ_EQ_PA_OFF)] = pa;
    q[E810_QW(E810_CQPSQ_EQ_PBL_OFF)] = pble;
    c = rd_exec(d, E810_CQP_OP_CREATE_CEQ,
                FIELD_PREP(E810_CQPSQ_CEQ_CEQID, id) | hdr, q);
    return c.error ? c.minor : 0;
}

static void test_ceq_create_checks(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    uint64_t ring, vmap = E810_CQPSQ_EQ_VMAP;

    rd_bringup(h, &d);
    ring = mem_alloc_aligned(h, 4096, 256);
    assert_int_equal(ceq_fails(&d, 256, 16, ring, 0, 0),
                     E810_CQP_MIN_BAD_INDEX);
    assert_int_equal(ceq_fails(&d, 1, 0, ring, 0, 0), E810_CQP_MIN_BAD_SIZE);
    assert_int_equal(ceq_fails(&d, 1, E810_CEQ_MAX_ENTRIES + 1, ring, 0, 0),
                     E810_CQP_MIN_BAD_SIZE);
    assert_int_equal(ceq_fails(&d, 1, 16, ring + 64, 0, 0),
                     E810_CQP_MIN_BAD_ADDR);
    assert_int_equal(ceq_fails(&d, 1, 16, 0, vmap, 0), E810_CQP_MIN_BAD_PARAM);
    assert_int_equal(ceq_fails(&d, 1, 16, 0, vmap |
                               FIELD_PREP(E810_CQPSQ_EQ_LPBLSIZE, 1),
                               e810_hmc_count(&h->core, E810_HMC_PBLE)),
                     E810_CQP_MIN_BAD_INDEX);
    assert_int_equal(ceq_fails(&d, 1, 16, ring, 0, 0), 0);
    assert_int_equal(ceq_fails(&d, 1, 16, ring, 0, 0), E810_CQP_MIN_BAD_STATE);
    assert_false(rd_exec(&d, E810_CQP_OP_DESTROY_CEQ,
                         FIELD_PREP(E810_CQPSQ_CEQ_CEQID, 1), NULL).error);
    assert_int_equal(rd_exec(&d, E810_CQP_OP_DESTROY_CEQ,
                             FIELD_PREP(E810_CQPSQ_CEQ_CEQID, 1), NULL).minor,
                     E810_CQP_MIN_BAD_STATE);
}

/*
 * CEQ 0 of 4 entries carrying the CCQ's events: each CQP op with the CCQ
 * armed writes one CEQE; the fifth lands in slot 0 with valid bit 0.
 */
static void test_ceqe_polarity_and_msix(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    uint64_t ceq, v;
    RdmaCompl c;
    unsigned i;

    rd_bringup(h, &d);
    ceq = mem_alloc_aligned(h, 4 * E810_CEQE_SIZE, 256);
    assert_false(rd_create_ceq(&d, 0, 4, ceq).error);
    wr32(h, E810_GLINT_CEQCTL(0), E810_INT_CTL_CAUSE_ENA | 5);
    wr32(h, E810_GLINT_DYN_CTL(5), ENA);
    for (i = 0; i < 5; i++) {
        rd_arm_cq(&d, d.ccq_shadow_pa, 0, false);
        rd_fill(&d, E810_CQP_OP_NOP, 0, NULL);
        rd_ring(&d);
        harness_run_work(h);
        assert_true(rd_ccq_poll(&d, &c));
        assert_int_equal(h->msix_count, i + 1);
        assert_int_equal(h->msix_last, 5);
        /* Auto-masked until the handler re-enables the vector. */
        assert_int_equal(rd32(h, E810_GLINT_DYN_CTL(5)) &
                         E810_GLINT_DYN_CTL_INTENA, 0);
        wr32(h, E810_CQACK, 0);
        wr32(h, E810_GLINT_DYN_CTL(5), ENA);
    }
    for (i = 0; i < 4; i++) {
        v = rd_mem64(&d, ceq + 8 * i);
        assert_true(FIELD_GET(E810_CEQE_CQCTX, v) == RD_CCQ_CTX);
        assert_int_equal(!!(v & E810_CEQE_VALID), i != 0);
    }
    assert_int_equal(h->core.rdma.ceq[0].posted, 5);
    assert_int_equal(h->core.rdma.cq[0].acks, 5);
    /* An event while the vector is masked waits for INTENA. */
    wr32(h, E810_GLINT_DYN_CTL(5), 0);
    rd_arm_cq(&d, d.ccq_shadow_pa, 0, false);
    rd_exec(&d, E810_CQP_OP_NOP, 0, NULL);
    assert_int_equal(h->msix_count, 5);
    wr32(h, E810_GLINT_DYN_CTL(5), E810_GLINT_DYN_CTL_INTENA);
    assert_int_equal(h->msix_count, 6);
}

static void test_ceq_cause_disabled(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    uint64_t ceq;

    rd_bringup(h, &d);
    ceq = mem_alloc_aligned(h, 64 * E810_CEQE_SIZE, 256);
    assert_false(rd_create_ceq(&d, 0, 64, ceq).error);
    wr32(h, E810_GLINT_CEQCTL(0), 5);       /* CAUSE_ENA clear */
    wr32(h, E810_GLINT_DYN_CTL(5), ENA);
    rd_arm_cq(&d, d.ccq_shadow_pa, 0, false);
    rd_exec(&d, E810_CQP_OP_NOP, 0, NULL);
    assert_true(rd_mem64(&d, ceq) & E810_CEQE_VALID);
    assert_int_equal(h->msix_count, 0);
}

/* A CEQ through a level-1 PBL: entry 512 is the first of the 2nd page. */
static void test_virtual_ceq(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    uint64_t pbl, pg0, pg1, q[8] = { 0 };
    unsigned i;

    rd_bringup(h, &d);
    pbl = rd_pble_page(&d);
    pg0 = mem_alloc_aligned(h, 4096, 4096);
    pg1 = mem_alloc_aligned(h, 4096, 4096);
    rd_set64(&d, pbl + 8 * 7, pg0);
    rd_set64(&d, pbl + 8 * 8, pg1);
    q[E810_QW(E810_CQPSQ_EQ_SIZE_OFF)] = 1024;
    q[E810_QW(E810_CQPSQ_EQ_PBL_OFF)] = 7;
    assert_false(rd_exec(&d, E810_CQP_OP_CREATE_CEQ,
                         FIELD_PREP(E810_CQPSQ_CEQ_CEQID, 2) |
                         E810_CQPSQ_EQ_VMAP |
                         FIELD_PREP(E810_CQPSQ_EQ_LPBLSIZE, E810_LPBL_LEVEL1),
                         q).error);
    for (i = 0; i < 513; i++) {
        assert_true(e810_ceq_post(&h->core, 2, 0x1000 + i));
    }
    assert_true(rd_mem64(&d, pg0) == (E810_CEQE_VALID | 0x1000));
    assert_true(rd_mem64(&d, pg0 + 8 * 511) == (E810_CEQE_VALID | 0x11ff));
    assert_true(rd_mem64(&d, pg1) == (E810_CEQE_VALID | 0x1200));
}

/* An armed CQ whose CEQ does not exist: the CQE is written, the event lost. */
static void test_event_for_missing_ceq(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    struct e810_cqe cqe = { 0 };
    uint64_t ring = mem_alloc_aligned(h, 16 * 32, 256);
    uint64_t shadow = mem_alloc(h, 64);

    rd_bringup(h, &d);
    assert_false(rd_create_cq(&d, 3, 16, ring, shadow, 9, 0x77, 0).error);
    rd_arm_cq(&d, shadow, 3, false);
    harness_run_work(h);
    assert_true(e810_cq_post(&h->core, 3, &cqe, 1));
    assert_true(rd_mem64(&d, ring + 24) & E810_CQE_VALID);
    assert_int_equal(h->core.rdma.stats.events_dropped, 1);
    assert_int_equal(h->log_guest_error, 1);
}

/*
 * The CEQ destroyed under an armed CQ, as irdma_ctrl_deinit_hw() deletes
 * CEQ 0 before the CCQ: the event is dropped and counted, not a guest
 * error; a CEQ created again under that id gets the next event.
 */
static void test_event_after_ceq_destroyed(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    struct e810_cqe cqe = { 0 };
    uint64_t ring = mem_alloc_aligned(h, 16 * 32, 256);
    uint64_t shadow = mem_alloc(h, 64);
    uint64_t ceq = mem_alloc_aligned(h, 4096, 256);

    rd_bringup(h, &d);
    assert_int_equal(ceq_fails(&d, 5, 16, ceq, 0, 0), 0);
    assert_false(rd_create_cq(&d, 3, 16, ring, shadow, 5, 0x77, 0).error);
    assert_false(rd_exec(&d, E810_CQP_OP_DESTROY_CEQ,
                         FIELD_PREP(E810_CQPSQ_CEQ_CEQID, 5), NULL).error);
    rd_arm_cq(&d, shadow, 3, false);
    harness_run_work(h);
    assert_true(e810_cq_post(&h->core, 3, &cqe, 1));
    assert_int_equal(h->core.rdma.stats.events_dropped, 1);
    assert_int_equal(h->log_guest_error, 0);

    assert_int_equal(ceq_fails(&d, 5, 16, ceq, 0, 0), 0);
    rd_arm_cq(&d, shadow, 3, false);
    harness_run_work(h);
    assert_true(e810_cq_post(&h->core, 3, &cqe, 1));
    assert_int_equal(h->core.rdma.stats.events_dropped, 1);
    assert_int_equal(h->core.rdma.ceq[5].posted, 1);
    assert_int_equal(h->log_guest_error, 0);
}

static void test_aeq_create_checks(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    uint64_t ring;

    rd_bringup(h, &d);
    ring = mem_alloc_aligned(h, 16 * E810_AEQE_SIZE, 256);
    assert_int_equal(rd_create_aeq(&d, 0, ring).minor, E810_CQP_MIN_BAD_SIZE);
    assert_int_equal(rd_create_aeq(&d, E810_AEQ_MAX_ENTRIES + 1, ring).minor,
                     E810_CQP_MIN_BAD_SIZE);
    assert_int_equal(rd_create_aeq(&d, 16, ring + 16).minor,
                     E810_CQP_MIN_BAD_ADDR);
    assert_false(rd_create_aeq(&d, 16, ring).error);
    assert_int_equal(rd_create_aeq(&d, 16, ring).minor,
                     E810_CQP_MIN_BAD_STATE);
    assert_false(rd_exec(&d, E810_CQP_OP_DESTROY_AEQ, 0, NULL).error);
    assert_int_equal(rd_exec(&d, E810_CQP_OP_DESTROY_AEQ, 0, NULL).minor,
                     E810_CQP_MIN_BAD_STATE);
}

static void test_aeqe_format(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    uint64_t ring, info;
    E810Ae ae = {
        .code = E810_AE_LLP_TOO_MANY_RETRIES,
        .source = E810_AE_SOURCE_SQ,
        .id = (1u << 18) | 0x2345,          /* needs the high id bit */
        .wqe_idx = 0x1abc,
        .ctx = 0xfeedfacecafebeefull,
        .qp_state = E810_QP_STATE_RTS,
        .tcp_state = E810_TCPSTATE_CLOSE_WAIT,
    };

    rd_bringup(h, &d);
    ring = mem_alloc_aligned(h, 8 * E810_AEQE_SIZE, 256);
    assert_false(rd_create_aeq(&d, 8, ring).error);
    wr32(h, E810_PFINT_AEQCTL, E810_INT_CTL_CAUSE_ENA | 2);
    wr32(h, E810_GLINT_DYN_CTL(2), ENA);
    assert_true(e810_aeq_post(&h->core, &ae));
    assert_true(rd_mem64(&d, ring) == ae.ctx);
    info = rd_mem64(&d, ring + 8);
    assert_int_equal(FIELD_GET(E810_AEQE_QPCQID_LOW, info) |
                     FIELD_GET(E810_AEQE_QPCQID_HI, info) << 18, ae.id);
    assert_int_equal(FIELD_GET(E810_AEQE_WQDESCIDX, info), ae.wqe_idx);
    assert_int_equal(FIELD_GET(E810_AEQE_AECODE, info), ae.code);
    assert_int_equal(FIELD_GET(E810_AEQE_AESRC, info), ae.source);
    assert_int_equal(FIELD_GET(E810_AEQE_IWSTATE, info), ae.qp_state);
    assert_int_equal(FIELD_GET(E810_AEQE_TCPSTATE, info), ae.tcp_state);
    assert_false(info & E810_AEQE_OVERFLOW);
    assert_true(info & E810_AEQE_VALID);
    assert_int_equal(h->msix_count, 1);
    assert_int_equal(h->msix_last, 2);
}

/* AEQ of 4: the 5th AE is lost until AEQALLOC returns entries; the next
 * AEQE carries OVERFLOW, and the wrap flips the valid bit.
 */
static void test_aeqalloc_credits(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    uint64_t ring;
    E810Ae ae = { .code = E810_AE_QP_SUSPEND_COMPLETE };
    unsigned i;

    rd_bringup(h, &d);
    ring = mem_alloc_aligned(h, 4 * E810_AEQE_SIZE, 256);
    assert_false(rd_create_aeq(&d, 4, ring).error);
    for (i = 0; i < 4; i++) {
        ae.id = i;
        assert_true(e810_aeq_post(&h->core, &ae));
    }
    ae.id = 4;
    assert_false(e810_aeq_post(&h->core, &ae));
    assert_int_equal(h->core.rdma.aeq.dropped, 1);
    wr32(h, E810_AEQALLOC, 2);
    ae.id = 5;
    assert_true(e810_aeq_post(&h->core, &ae));
    assert_true(rd_mem64(&d, ring + 8) == (FIELD_PREP(E810_AEQE_AECODE,
                                                      ae.code) | 5 |
                                           E810_AEQE_OVERFLOW));
    ae.id = 6;
    assert_true(e810_aeq_post(&h->core, &ae));
    assert_false(rd_mem64(&d, ring + 16 + 8) & E810_AEQE_OVERFLOW);
    assert_false(rd_mem64(&d, ring + 16 + 8) & E810_AEQE_VALID);
    /* Returning more than are outstanding is a driver bug. */
    wr32(h, E810_AEQALLOC, 9);
    assert_int_equal(h->core.rdma.aeq.outstanding, 0);
    assert_int_equal(h->core.rdma.stats.bad_doorbells, 1);
}

static void test_ae_without_aeq(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    E810Ae ae = { .code = E810_AE_CQ_OPERATION_ERROR };

    rd_bringup(h, &d);
    assert_false(e810_aeq_post(&h->core, &ae));
    assert_int_equal(h->core.rdma.aeq.dropped, 1);
    wr32(h, E810_AEQALLOC, 1);
    assert_int_equal(h->core.rdma.stats.bad_doorbells, 1);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, harness_setup, \
                                              harness_teardown)

/*
 * The AEQE's TCP state as the driver decodes it: a move to ERROR resets
 * (RESETCON) an open connection only, above CLOSED and not TIME_WAIT
 * (upstream irdma_modify_qp()), from the AEQE of each close the model
 * reports.
 */
static void test_aeqe_tcpstate_open(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    uint64_t ring, info;
    unsigned int st, i;
    E810Ae ae = {
        .code = E810_AE_LLP_CLOSE_COMPLETE,
        .source = E810_AE_SOURCE_RSVD,
        .id = 3,
        .qp_state = E810_QP_STATE_RTS,
    };

    for (st = 0; st < 16; st++) {
        assert_int_equal(!!e810_tcpstate_open(st),
                         st > E810_TCPSTATE_CLOSED &&
                         st != E810_TCPSTATE_TIME_WAIT);
    }
    rd_bringup(h, &d);
    ring = mem_alloc_aligned(h, 8 * E810_AEQE_SIZE, 256);
    assert_false(rd_create_aeq(&d, 8, ring).error);
    for (i = 0; i < 4; i++) {
        static const unsigned int states[4] = {
            E810_TCPSTATE_TIME_WAIT, E810_TCPSTATE_CLOSED,
            E810_TCPSTATE_CLOSE_WAIT, E810_TCPSTATE_ESTABLISHED,
        };

        ae.tcp_state = states[i];
        assert_true(e810_aeq_post(&h->core, &ae));
        info = rd_mem64(&d, ring + i * E810_AEQE_SIZE + 8);
        assert_int_equal(FIELD_GET(E810_AEQE_TCPSTATE, info), states[i]);
        assert_int_equal(!!e810_tcpstate_open(FIELD_GET(E810_AEQE_TCPSTATE,
                                                        info)), i >= 2);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_ceq_create_checks),
        T(test_ceqe_polarity_and_msix),
        T(test_ceq_cause_disabled),
        T(test_virtual_ceq),
        T(test_event_for_missing_ceq),
        T(test_event_after_ceq_destroyed),
        T(test_aeq_create_checks),
        T(test_aeqe_format),
        T(test_aeqe_tcpstate_open),
        T(test_aeqalloc_credits),
        T(test_ae_without_aeq),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_eq", tests, NULL, NULL);
}
