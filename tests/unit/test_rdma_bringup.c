/*
 * Device model: the RDMA control-plane bring-up and teardown, played the
 * way the GEN_2 irdma driver does it (docs/hw-reference.md 2.1), asserting what
 * the device writes to host memory and the interrupts it raises at each step.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "rdma_driver.h"

#define CEQ_VECTOR  1
#define AEQ_VECTOR  0
#define CEQ_SIZE    2048
#define AEQ_SIZE    3072
#define CCQ_SIZE    2049

/*
 * The state the bring-up steps hand on: each step asserts what the device
 * did, and the test of step N replays steps 1..N-1 first.
 */
typedef struct Bring {
    Harness *h;
    RdmaDriver d;
    uint64_t sd0, ceq_pa, aeq_pa, cq_pa, cq_shadow;
} Bring;

/* 1. PE ready and doorbell space. */
static void step_pe_ready(Bring *b)
{
    Harness *h = b->h;

    assert_int_equal(rd32(h, E810_GLPE_CPUSTATUS0), E810_GLPE_CPUSTATUS_READY);
    assert_int_equal(rd32(h, E810_GLPE_CPUSTATUS1), E810_GLPE_CPUSTATUS_READY);
    assert_int_equal(rd32(h, E810_GLPE_CPUSTATUS2), E810_GLPE_CPUSTATUS_READY);
    assert_int_equal(FIELD_GET(E810_GLPCI_LBARCTRL_PE_DB_SIZE,
                               rd32(h, E810_GLPCI_LBARCTRL)),
                     E810_PE_DB_SIZE_8M);
}

/*
 * 2. CQP: the zeroing writes are quiet; creation is done in the CCQPLOW write
 * itself (irdma_sc_cqp_create() polls only about 10 ms for it).
 */
static void step_cqp_create(Bring *b)
{
    Harness *h = b->h;

    rd_init(h, &b->d, 2048);
    wr32(h, E810_CQPTAIL, 0);
    wr32(h, E810_CQPDB, 0);
    wr32(h, E810_CCQPSTATUS, 0);
    assert_int_equal(h->log_guest_error, 0);
    wr32(h, E810_CCQPHIGH, b->d.ctx_pa >> 32);
    wr32(h, E810_CCQPLOW, (uint32_t)b->d.ctx_pa);
    assert_int_equal(rd32(h, E810_CCQPSTATUS), E810_CCQPSTATUS_CCQP_DONE);
    assert_int_equal(rd32(h, E810_CQPTAIL), 0);
}

/* 3. QUERY_FPM_VAL, completion by CQPTAIL (no CCQ yet). */
static void step_query_fpm(Bring *b)
{
    Harness *h = b->h;

    rd_query_fpm(&b->d);
    assert_int_equal(FIELD_GET(E810_CQPTAIL_WQTAIL, rd32(h, E810_CQPTAIL)), 1);
    assert_int_equal(b->d.first_sd, 0);
    assert_int_equal(b->d.max_sds, 32);
    assert_int_equal(b->d.obj[E810_HMC_QP].max, 262144);
    assert_int_equal(b->d.obj[E810_HMC_QP].size, 512);
    assert_int_equal(b->d.obj[E810_HMC_CQ].max, 524288);
    assert_int_equal(b->d.obj[E810_HMC_MR].max, 4194304);
    assert_int_equal(b->d.obj[E810_HMC_PBLE].max, 268435456);
    assert_int_equal(b->d.max_ceqs, 256);
    assert_true(b->d.xf_block && b->d.q1_block && b->d.rrf_block && b->d.ooiscf_block);
}

/*
 * 4. The driver's sizing shrinks the maxima (256K QPs) to the function's
 * default 32 SDs: 1024 QPs.
 */
static void step_size_fpm(Bring *b)
{


    assert_int_equal(b->d.max_sds, E810_PE_SDS_DEFAULT);
    assert_int_equal(b->d.obj[E810_HMC_QP].max, 262144);
    assert_true(rd_size_fpm(&b->d, 262144) > 1);
    assert_int_equal(b->d.obj[E810_HMC_QP].cnt, 1024);
    assert_int_equal(b->d.obj[E810_HMC_CQ].cnt, 2048);
    assert_int_equal(b->d.obj[E810_HMC_Q1].cnt, 262144);
    assert_true(rd_est_sd(&b->d) <= b->d.max_sds);
}

/* 5. COMMIT_FPM_VAL: bases written back, 512-granular, no overlap. */
static void step_commit_fpm(Bring *b)
{
    uint32_t sds;
    unsigned t;

    sds = rd_commit_fpm(&b->d);
    assert_true(sds > 0 && sds <= b->d.max_sds);
    assert_int_equal(b->d.obj[E810_HMC_QP].base, 0);
    assert_int_equal(b->d.obj[E810_HMC_APBVT].cnt, 1);
    for (t = 0; t < E810_HMC_OBJ_MAX; t++) {
        unsigned u;

        assert_int_equal(b->d.obj[t].base % 512, 0);
        for (u = 0; u < E810_HMC_OBJ_MAX; u++) {
            uint64_t te = b->d.obj[t].base + (uint64_t)b->d.obj[t].cnt *
                          b->d.obj[t].size;

            if (u == t || !b->d.obj[t].cnt || !b->d.obj[u].cnt) {
                continue;
            }
            assert_true(te <= b->d.obj[u].base || b->d.obj[u].base +
                        (uint64_t)b->d.obj[u].cnt * b->d.obj[u].size <=
                        b->d.obj[t].base);
        }
    }
    /* PBLEs start on their own segment. */
    assert_int_equal(b->d.obj[E810_HMC_PBLE].base % E810_HMC_SD_SIZE, 0);
}

/* 6. Segment 0 direct (QPs, CQs, MRs live there), by UPDATE_PE_SDS. */
static void step_direct_sd(Bring *b)
{
    Harness *h = b->h;
    uint64_t q[8];
    uint32_t tail;

    b->sd0 = rd_direct_sd(&b->d, 0);
    assert_true(rd_fpm_addr(&b->d, E810_HMC_CQ, 2047) < E810_HMC_SD_SIZE);
    q[0] = 0;
    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_SHMC_FN_OFF)] = h->core.pf_id;
    tail = rd_exec_poll(&b->d, E810_CQP_OP_SHMC_PAGES_ALLOCATED, 0, q);
    assert_false(tail & E810_CQPTAIL_CQP_OP_ERR);
}

/* 7. The CCQ; its own CREATE_CQ completes into it. */
static void step_ccq(Bring *b)
{
    Harness *h = b->h;
    uint64_t v;
    RdmaCompl c;

    c = rd_create_ccq(&b->d, CCQ_SIZE);
    assert_false(c.error);
    assert_int_equal(c.op, E810_CQP_OP_CREATE_CQ);
    assert_true(c.ctx == RD_CQP_CTX);
    v = rd_mem64(&b->d, b->d.ccq_pa + E810_CQE_HDR_OFF);
    assert_true(v & E810_CQE_VALID);
    assert_int_equal(FIELD_GET(E810_CQE_WQEIDX, v), 4);
    /* And the CQ's HMC object is where the committed layout says. */
    assert_int_equal(FIELD_GET(E810_CQPTAIL_WQTAIL, rd32(h, E810_CQPTAIL)),
                     5);
}

/* 8. QUERY_RDMA_FEATURES through the CCQ. */
static void step_query_features(Bring *b)
{
    Harness *h = b->h;
    uint64_t q[8];
    uint64_t v;
    uint64_t feat;
    RdmaCompl c;

    feat = mem_alloc(h, 224);
    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_QRF_BUF_OFF)] = feat;
    c = rd_exec(&b->d, E810_CQP_OP_QUERY_RDMA_FEATURES,
                FIELD_PREP(E810_CQPSQ_QRF_BUF_LEN, 224), q);
    assert_false(c.error);
    v = rd_mem64(&b->d, feat);
    assert_int_equal(FIELD_GET(E810_FEATURE_TYPE, v), E810_FEATURE_FW_INFO);
    assert_true(FIELD_GET(E810_FEATURE_CNT, v) >= 2);
    assert_int_equal(FIELD_GET(E810_FW_VER_MAJOR, v), 1);
    assert_int_equal(FIELD_GET(E810_FW_VER_MINOR, v), 74);
    assert_int_equal(FIELD_GET(E810_FEATURE_TYPE, rd_mem64(&b->d, feat + 8)),
                     E810_FEATURE_HW_VERSION_INFO);
}

/* 9. CEQ 0, then its interrupt: GLINT_CEQCTL(0) and the vector. */
static void step_ceq(Bring *b)
{
    Harness *h = b->h;
    uint64_t q[8];
    RdmaCompl c;

    b->ceq_pa = mem_alloc_aligned(h, CEQ_SIZE * E810_CEQE_SIZE, E810_CEQ_ALIGN);
    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_EQ_SIZE_OFF)] = CEQ_SIZE;
    q[E810_QW(E810_CQPSQ_EQ_PA_OFF)] = b->ceq_pa;
    c = rd_exec(&b->d, E810_CQP_OP_CREATE_CEQ,
                FIELD_PREP(E810_CQPSQ_CEQ_CEQID, 0), q);
    assert_false(c.error);
    wr32(h, E810_GLINT_CEQCTL(0), E810_INT_CTL_CAUSE_ENA | CEQ_VECTOR |
         FIELD_PREP(E810_INT_CTL_ITR_INDX, 3));
    wr32(h, E810_GLINT_DYN_CTL(CEQ_VECTOR), E810_GLINT_DYN_CTL_INTENA |
         E810_GLINT_DYN_CTL_CLEARPBA);
}

/* 10. Arm the CCQ: from now on CQP completions are events. */
static void step_arm_ccq(Bring *b)
{
    Harness *h = b->h;

    rd_arm_cq(&b->d, b->d.ccq_shadow_pa, 0, false);
    harness_run_work(h);
}

/* 11. The AEQ and its interrupt. */
static void step_aeq(Bring *b)
{
    Harness *h = b->h;
    uint64_t q[8];
    uint64_t v;
    RdmaCompl c;

    b->aeq_pa = mem_alloc_aligned(h, AEQ_SIZE * E810_AEQE_SIZE, E810_AEQ_ALIGN);
    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_EQ_SIZE_OFF)] = AEQ_SIZE;
    q[E810_QW(E810_CQPSQ_EQ_PA_OFF)] = b->aeq_pa;
    assert_int_equal(h->msix_count, 0);
    c = rd_exec(&b->d, E810_CQP_OP_CREATE_AEQ, 0, q);
    assert_false(c.error);
    wr32(h, E810_PFINT_AEQCTL, E810_INT_CTL_CAUSE_ENA | AEQ_VECTOR |
         FIELD_PREP(E810_INT_CTL_ITR_INDX, 3));

    /* That completion went CCQ -> CEQE (CCQ context) -> MSI-X. */
    assert_int_equal(h->msix_count, 1);
    assert_int_equal(h->msix_last, CEQ_VECTOR);
    v = rd_mem64(&b->d, b->ceq_pa);
    assert_true(v & E810_CEQE_VALID);
    assert_true(FIELD_GET(E810_CEQE_CQCTX, v) == RD_CCQ_CTX);
    assert_int_equal(rd_mem64(&b->d, b->ceq_pa + 8), 0);   /* one CEQE only */
    /* The vector auto-masked; the handler acks, re-arms and re-enables. */
    assert_int_equal(rd32(h, E810_GLINT_DYN_CTL(CEQ_VECTOR)) &
                     E810_GLINT_DYN_CTL_INTENA, 0);
    wr32(h, E810_CQACK, 0);
    rd_arm_cq(&b->d, b->d.ccq_shadow_pa, 0, false);
    wr32(h, E810_GLINT_DYN_CTL(CEQ_VECTOR), E810_GLINT_DYN_CTL_INTENA |
         E810_GLINT_DYN_CTL_CLEARPBA);
    harness_run_work(h);
    assert_int_equal(h->core.rdma.cq[0].acks, 1);
}

/* 12. A verbs CQ (id 3 on CEQ 0), armed. */
static void step_verbs_cq(Bring *b)
{
    Harness *h = b->h;
    uint64_t q[8];
    RdmaCompl c;

    b->cq_pa = mem_alloc_aligned(h, 64 * E810_CQE_SIZE, 256);
    b->cq_shadow = mem_alloc(h, E810_CQ_SHADOW_SIZE);
    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_CQ_SIZE_OFF)] = 64;
    q[E810_QW(E810_CQPSQ_CQ_CTX_OFF)] = 0x5555aaaa;
    q[E810_QW(E810_CQPSQ_CQ_THRESH_OFF)] = 32;
    q[E810_QW(E810_CQPSQ_CQ_PA_OFF)] = b->cq_pa;
    q[E810_QW(E810_CQPSQ_CQ_SHADOW_OFF)] = b->cq_shadow;
    c = rd_exec(&b->d, E810_CQP_OP_CREATE_CQ,
                FIELD_PREP(E810_CQPSQ_CQ_CQID, 3) |
                FIELD_PREP(E810_CQPSQ_CQ_CEQID, 0) | E810_CQPSQ_CQ_CEQIDVALID |
                E810_CQPSQ_CQ_ENCEQEMASK | E810_CQPSQ_CQ_CHKOVERFLOW, q);
    assert_false(c.error);
    assert_int_equal(h->msix_count, 2);
    assert_true(FIELD_GET(E810_CEQE_CQCTX, rd_mem64(&b->d, b->ceq_pa + 8)) ==
                RD_CCQ_CTX);
    rd_arm_cq(&b->d, b->cq_shadow, 3, false);
    harness_run_work(h);
    assert_true(h->core.rdma.cq[3].arm_next);
}

/* 13. Teardown: AEQ (cause off first), CQ, CEQ, CCQ, SDs, CQP. */
static void step_teardown(Bring *b)
{
    Harness *h = b->h;
    uint64_t q[8];
    uint32_t tail;
    uint32_t cmd;
    uint64_t data;

    wr32(h, E810_GLINT_DYN_CTL(CEQ_VECTOR), 0);
    wr32(h, E810_PFINT_AEQCTL, 0);
    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_EQ_SIZE_OFF)] = AEQ_SIZE;
    assert_false(rd_exec(&b->d, E810_CQP_OP_DESTROY_AEQ, 0, q).error);
    memset(q, 0, sizeof(q));
    assert_false(rd_exec(&b->d, E810_CQP_OP_DESTROY_CQ,
                         FIELD_PREP(E810_CQPSQ_CQ_CQID, 3), q).error);
    assert_false(rd_exec(&b->d, E810_CQP_OP_DESTROY_CEQ,
                         FIELD_PREP(E810_CQPSQ_CEQ_CEQID, 0), q).error);
    /* The CCQ's own destroy completes by CQPTAIL only. */
    q[E810_QW(E810_CQPSQ_CQ_SIZE_OFF)] = CCQ_SIZE;
    tail = rd_exec_poll(&b->d, E810_CQP_OP_DESTROY_CQ, 0, q);
    assert_false(tail & E810_CQPTAIL_CQP_OP_ERR);
    assert_null(e810_cq_get(&h->core, 0));
    b->d.ccq = false;
    cmd = rd_sd_cmd(0);
    data = rd_sd_data(0, true, false);
    assert_true(rd_update_sds(&b->d, 1, &cmd, &data));
    assert_int_equal(rd_cqp_destroy(&b->d), 0);
    /* Nothing was written where the device had no business writing. */
    assert_int_equal(rd_mem64(&b->d, b->sd0), 0);
    assert_int_equal(h->core.rdma.hmc.faults, 0);
    assert_int_equal(h->log_guest_error, 0);
}

static void (*const steps[])(Bring *b) = {
    step_pe_ready, step_cqp_create, step_query_fpm, step_size_fpm,
    step_commit_fpm, step_direct_sd, step_ccq, step_query_features,
    step_ceq, step_arm_ccq, step_aeq, step_verbs_cq, step_teardown,
};

/* Runs the steps up to and including @last (1-based). */
static void run_to(void **state, unsigned last)
{
    Bring b = { .h = *state };
    unsigned i;

    for (i = 0; i < last; i++) {
        steps[i](&b);
    }
}

static void test_01_pe_ready(void **state)
{
    run_to(state, 1);
}

static void test_02_cqp_create(void **state)
{
    run_to(state, 2);
}

static void test_03_query_fpm(void **state)
{
    run_to(state, 3);
}

static void test_04_size_fpm(void **state)
{
    run_to(state, 4);
}

static void test_05_commit_fpm(void **state)
{
    run_to(state, 5);
}

static void test_06_direct_sd(void **state)
{
    run_to(state, 6);
}

static void test_07_ccq(void **state)
{
    run_to(state, 7);
}

static void test_08_query_features(void **state)
{
    run_to(state, 8);
}

static void test_09_ceq(void **state)
{
    run_to(state, 9);
}

static void test_10_arm_ccq(void **state)
{
    run_to(state, 10);
}

static void test_11_aeq(void **state)
{
    run_to(state, 11);
}

static void test_12_verbs_cq(void **state)
{
    run_to(state, 12);
}

static void test_13_teardown(void **state)
{
    run_to(state, 13);
}

/* A second session after the CQP is destroyed starts from scratch. */
static void test_reload(void **state)
{
    Harness *h = *state;
    RdmaDriver d;

    rd_bringup(h, &d);
    assert_int_equal(rd_cqp_destroy(&d), 0);
    assert_null(e810_cq_get(&h->core, 0));
    assert_false(h->core.rdma.hmc.committed);
    rd_bringup(h, &d);
    assert_int_equal(h->log_guest_error, 0);
}

/* A PF reset takes the PE function down with it. */
static void test_pf_reset_drops_engine(void **state)
{
    Harness *h = *state;
    RdmaDriver d;

    rd_bringup(h, &d);
    wr32(h, E810_PFGEN_CTRL, E810_PFGEN_CTRL_PFSWR);
    harness_run_work(h);
    assert_int_equal(rd32(h, E810_CCQPSTATUS), 0);
    assert_false(h->core.rdma.cqp.created);
    assert_null(e810_cq_get(&h->core, 0));
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, harness_setup, \
                                              harness_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_01_pe_ready),
        T(test_02_cqp_create),
        T(test_03_query_fpm),
        T(test_04_size_fpm),
        T(test_05_commit_fpm),
        T(test_06_direct_sd),
        T(test_07_ccq),
        T(test_08_query_features),
        T(test_09_ceq),
        T(test_10_arm_ccq),
        T(test_11_aeq),
        T(test_12_verbs_cq),
        T(test_13_teardown),
        T(test_reload),
        T(test_pf_reset_drops_engine),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_rdma_bringup", tests, NULL,
                                       NULL);
}
