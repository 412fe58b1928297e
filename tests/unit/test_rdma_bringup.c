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

static void test_full_bringup_and_teardown(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    uint64_t q[8], sd0, ceq_pa, aeq_pa, cq_pa, cq_shadow, feat, v;
    uint32_t tail, sds, cmd;
    uint64_t data;
    RdmaCompl c;
    unsigned t;

    /* 1. PE ready and doorbell space. */
    assert_int_equal(rd32(h, E810_GLPE_CPUSTATUS0), E810_GLPE_CPUSTATUS_READY);
    assert_int_equal(rd32(h, E810_GLPE_CPUSTATUS1), E810_GLPE_CPUSTATUS_READY);
    assert_int_equal(rd32(h, E810_GLPE_CPUSTATUS2), E810_GLPE_CPUSTATUS_READY);
    assert_int_equal(FIELD_GET(E810_GLPCI_LBARCTRL_PE_DB_SIZE,
                               rd32(h, E810_GLPCI_LBARCTRL)),
                     E810_PE_DB_SIZE_8M);

    /* 2. CQP: the zeroing writes are quiet; creation is deferred work. */
    rd_init(h, &d, 2048);
    wr32(h, E810_CQPTAIL, 0);
    wr32(h, E810_CQPDB, 0);
    wr32(h, E810_CCQPSTATUS, 0);
    assert_int_equal(h->log_guest_error, 0);
    wr32(h, E810_CCQPHIGH, d.ctx_pa >> 32);
    wr32(h, E810_CCQPLOW, (uint32_t)d.ctx_pa);
    assert_int_equal(rd32(h, E810_CCQPSTATUS), 0);
    harness_run_work(h);
    assert_int_equal(rd32(h, E810_CCQPSTATUS), E810_CCQPSTATUS_CCQP_DONE);
    assert_int_equal(rd32(h, E810_CQPTAIL), 0);

    /* 3. QUERY_FPM_VAL, completion by CQPTAIL (no CCQ yet). */
    rd_query_fpm(&d);
    assert_int_equal(FIELD_GET(E810_CQPTAIL_WQTAIL, rd32(h, E810_CQPTAIL)), 1);
    assert_int_equal(d.first_sd, 0);
    assert_int_equal(d.max_sds, 32);
    assert_int_equal(d.obj[E810_HMC_QP].max, 1024);
    assert_int_equal(d.obj[E810_HMC_QP].size, 512);
    assert_int_equal(d.obj[E810_HMC_CQ].max, 2048);
    assert_int_equal(d.obj[E810_HMC_MR].max, 16384);
    assert_int_equal(d.obj[E810_HMC_PBLE].max, 4194304);
    assert_int_equal(d.max_ceqs, 256);
    assert_true(d.xf_block && d.q1_block && d.rrf_block && d.ooiscf_block);

    /* 4. The driver's sizing takes the maxima at once (loop count 1). */
    assert_int_equal(rd_size_fpm(&d, 262144), 1);
    assert_int_equal(d.obj[E810_HMC_QP].cnt, 1024);
    assert_int_equal(d.obj[E810_HMC_CQ].cnt, 2048);
    assert_int_equal(d.obj[E810_HMC_Q1].cnt, 262144);
    assert_true(rd_est_sd(&d) <= d.max_sds);

    /* 5. COMMIT_FPM_VAL: bases written back, 512-granular, no overlap. */
    sds = rd_commit_fpm(&d);
    assert_true(sds > 0 && sds <= d.max_sds);
    assert_int_equal(d.obj[E810_HMC_QP].base, 0);
    assert_int_equal(d.obj[E810_HMC_APBVT].cnt, 1);
    for (t = 0; t < E810_HMC_OBJ_MAX; t++) {
        unsigned u;

        assert_int_equal(d.obj[t].base % 512, 0);
        for (u = 0; u < E810_HMC_OBJ_MAX; u++) {
            uint64_t te = d.obj[t].base + (uint64_t)d.obj[t].cnt *
                          d.obj[t].size;

            if (u == t || !d.obj[t].cnt || !d.obj[u].cnt) {
                continue;
            }
            assert_true(te <= d.obj[u].base || d.obj[u].base +
                        (uint64_t)d.obj[u].cnt * d.obj[u].size <=
                        d.obj[t].base);
        }
    }
    /* PBLEs start on their own segment. */
    assert_int_equal(d.obj[E810_HMC_PBLE].base % E810_HMC_SD_SIZE, 0);

    /* 6. Segment 0 direct (QPs, CQs, MRs live there), by UPDATE_PE_SDS. */
    sd0 = rd_direct_sd(&d, 0);
    assert_true(rd_fpm_addr(&d, E810_HMC_CQ, 2047) < E810_HMC_SD_SIZE);
    q[0] = 0;
    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_SHMC_FN_OFF)] = h->core.pf_id;
    tail = rd_exec_poll(&d, E810_CQP_OP_SHMC_PAGES_ALLOCATED, 0, q);
    assert_false(tail & E810_CQPTAIL_CQP_OP_ERR);

    /* 7. The CCQ; its own CREATE_CQ completes into it. */
    c = rd_create_ccq(&d, CCQ_SIZE);
    assert_false(c.error);
    assert_int_equal(c.op, E810_CQP_OP_CREATE_CQ);
    assert_true(c.ctx == RD_CQP_CTX);
    v = rd_mem64(&d, d.ccq_pa + E810_CQE_HDR_OFF);
    assert_true(v & E810_CQE_VALID);
    assert_int_equal(FIELD_GET(E810_CQE_WQEIDX, v), 4);
    /* And the CQ's HMC object is where the committed layout says. */
    assert_int_equal(FIELD_GET(E810_CQPTAIL_WQTAIL, rd32(h, E810_CQPTAIL)),
                     5);

    /* 8. QUERY_RDMA_FEATURES through the CCQ. */
    feat = mem_alloc(h, 224);
    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_QRF_BUF_OFF)] = feat;
    c = rd_exec(&d, E810_CQP_OP_QUERY_RDMA_FEATURES,
                FIELD_PREP(E810_CQPSQ_QRF_BUF_LEN, 224), q);
    assert_false(c.error);
    v = rd_mem64(&d, feat);
    assert_int_equal(FIELD_GET(E810_FEATURE_TYPE, v), E810_FEATURE_FW_INFO);
    assert_true(FIELD_GET(E810_FEATURE_CNT, v) >= 2);
    assert_int_equal(FIELD_GET(E810_FW_VER_MAJOR, v), 1);
    assert_int_equal(FIELD_GET(E810_FW_VER_MINOR, v), 74);
    assert_int_equal(FIELD_GET(E810_FEATURE_TYPE, rd_mem64(&d, feat + 8)),
                     E810_FEATURE_HW_VERSION_INFO);

    /* 9. CEQ 0, then its interrupt: GLINT_CEQCTL(0) and the vector. */
    ceq_pa = mem_alloc_aligned(h, CEQ_SIZE * E810_CEQE_SIZE, E810_CEQ_ALIGN);
    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_EQ_SIZE_OFF)] = CEQ_SIZE;
    q[E810_QW(E810_CQPSQ_EQ_PA_OFF)] = ceq_pa;
    c = rd_exec(&d, E810_CQP_OP_CREATE_CEQ,
                FIELD_PREP(E810_CQPSQ_CEQ_CEQID, 0), q);
    assert_false(c.error);
    wr32(h, E810_GLINT_CEQCTL(0), E810_INT_CTL_CAUSE_ENA | CEQ_VECTOR |
         FIELD_PREP(E810_INT_CTL_ITR_INDX, 3));
    wr32(h, E810_GLINT_DYN_CTL(CEQ_VECTOR), E810_GLINT_DYN_CTL_INTENA |
         E810_GLINT_DYN_CTL_CLEARPBA);

    /* 10. Arm the CCQ: from now on CQP completions are events. */
    rd_arm_cq(&d, d.ccq_shadow_pa, 0, false);
    harness_run_work(h);

    /* 11. The AEQ and its interrupt. */
    aeq_pa = mem_alloc_aligned(h, AEQ_SIZE * E810_AEQE_SIZE, E810_AEQ_ALIGN);
    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_EQ_SIZE_OFF)] = AEQ_SIZE;
    q[E810_QW(E810_CQPSQ_EQ_PA_OFF)] = aeq_pa;
    assert_int_equal(h->msix_count, 0);
    c = rd_exec(&d, E810_CQP_OP_CREATE_AEQ, 0, q);
    assert_false(c.error);
    wr32(h, E810_PFINT_AEQCTL, E810_INT_CTL_CAUSE_ENA | AEQ_VECTOR |
         FIELD_PREP(E810_INT_CTL_ITR_INDX, 3));

    /* That completion went CCQ -> CEQE (CCQ context) -> MSI-X. */
    assert_int_equal(h->msix_count, 1);
    assert_int_equal(h->msix_last, CEQ_VECTOR);
    v = rd_mem64(&d, ceq_pa);
    assert_true(v & E810_CEQE_VALID);
    assert_true(FIELD_GET(E810_CEQE_CQCTX, v) == RD_CCQ_CTX);
    assert_int_equal(rd_mem64(&d, ceq_pa + 8), 0);   /* one CEQE only */
    /* The vector auto-masked; the handler acks, re-arms and re-enables. */
    assert_int_equal(rd32(h, E810_GLINT_DYN_CTL(CEQ_VECTOR)) &
                     E810_GLINT_DYN_CTL_INTENA, 0);
    wr32(h, E810_CQACK, 0);
    rd_arm_cq(&d, d.ccq_shadow_pa, 0, false);
    wr32(h, E810_GLINT_DYN_CTL(CEQ_VECTOR), E810_GLINT_DYN_CTL_INTENA |
         E810_GLINT_DYN_CTL_CLEARPBA);
    harness_run_work(h);
    assert_int_equal(h->core.rdma.cq[0].acks, 1);

    /* 12. A verbs CQ (id 3 on CEQ 0), armed. */
    cq_pa = mem_alloc_aligned(h, 64 * E810_CQE_SIZE, 256);
    cq_shadow = mem_alloc(h, E810_CQ_SHADOW_SIZE);
    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_CQ_SIZE_OFF)] = 64;
    q[E810_QW(E810_CQPSQ_CQ_CTX_OFF)] = 0x5555aaaa;
    q[E810_QW(E810_CQPSQ_CQ_THRESH_OFF)] = 32;
    q[E810_QW(E810_CQPSQ_CQ_PA_OFF)] = cq_pa;
    q[E810_QW(E810_CQPSQ_CQ_SHADOW_OFF)] = cq_shadow;
    c = rd_exec(&d, E810_CQP_OP_CREATE_CQ,
                FIELD_PREP(E810_CQPSQ_CQ_CQID, 3) |
                FIELD_PREP(E810_CQPSQ_CQ_CEQID, 0) | E810_CQPSQ_CQ_CEQIDVALID |
                E810_CQPSQ_CQ_ENCEQEMASK | E810_CQPSQ_CQ_CHKOVERFLOW, q);
    assert_false(c.error);
    assert_int_equal(h->msix_count, 2);
    assert_true(FIELD_GET(E810_CEQE_CQCTX, rd_mem64(&d, ceq_pa + 8)) ==
                RD_CCQ_CTX);
    rd_arm_cq(&d, cq_shadow, 3, false);
    harness_run_work(h);
    assert_true(h->core.rdma.cq[3].arm_next);

    /* 13. Teardown: AEQ (cause off first), CQ, CEQ, CCQ, SDs, CQP. */
    wr32(h, E810_GLINT_DYN_CTL(CEQ_VECTOR), 0);
    wr32(h, E810_PFINT_AEQCTL, 0);
    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_EQ_SIZE_OFF)] = AEQ_SIZE;
    assert_false(rd_exec(&d, E810_CQP_OP_DESTROY_AEQ, 0, q).error);
    memset(q, 0, sizeof(q));
    assert_false(rd_exec(&d, E810_CQP_OP_DESTROY_CQ,
                         FIELD_PREP(E810_CQPSQ_CQ_CQID, 3), q).error);
    assert_false(rd_exec(&d, E810_CQP_OP_DESTROY_CEQ,
                         FIELD_PREP(E810_CQPSQ_CEQ_CEQID, 0), q).error);
    /* The CCQ's own destroy completes by CQPTAIL only. */
    q[E810_QW(E810_CQPSQ_CQ_SIZE_OFF)] = CCQ_SIZE;
    tail = rd_exec_poll(&d, E810_CQP_OP_DESTROY_CQ, 0, q);
    assert_false(tail & E810_CQPTAIL_CQP_OP_ERR);
    assert_null(e810_cq_get(&h->core, 0));
    d.ccq = false;
    cmd = rd_sd_cmd(0);
    data = rd_sd_data(0, true, false);
    assert_true(rd_update_sds(&d, 1, &cmd, &data));
    assert_int_equal(rd_cqp_destroy(&d), 0);
    /* Nothing was written where the device had no business writing. */
    assert_int_equal(rd_mem64(&d, sd0), 0);
    assert_int_equal(h->core.rdma.hmc.faults, 0);
    assert_int_equal(h->log_guest_error, 0);
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
        T(test_full_bringup_and_teardown),
        T(test_reload),
        T(test_pf_reset_drops_engine),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_rdma_bringup", tests, NULL,
                                       NULL);
}
