/*
 * Device model: QP contexts through the CQP: create/modify/destroy with the
 * checks on the host context, the state transitions MODIFY_QP takes (the
 * ones upstream irdma makes) and refuses, the copy stored in the QP's HMC
 * object,
 * UPLOAD_CONTEXT, FLUSH_WQES, GEN_AE and suspend/resume with their AEs.
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
#include "aq_driver.h"
#include "rdma_driver.h"

#define QP_COMPL_CTX    0xdead0000beef0000ull

typedef struct Fixture {
    Harness *h;
    RdmaDriver d;
    uint64_t aeq;
    uint64_t ctx_pa;        /* host context (256 bytes, Q2 in front in irdma) */
    uint64_t sq, rq, shadow;
} Fixture;

static int setup(void **state)
{
    Fixture *f = calloc(1, sizeof(*f));
    uint64_t ring, sh;

    f->h = harness_new(0);
    if (!f->h) {
        return -1;
    }
    rd_bringup(f->h, &f->d);
    f->aeq = mem_alloc_aligned(f->h, 16 * E810_AEQE_SIZE, 256);
    assert_false(rd_create_aeq(&f->d, 16, f->aeq).error);
    /* Send and receive CQs 3 and 4. */
    ring = mem_alloc_aligned(f->h, 2 * 64 * 32, 256);
    sh = mem_alloc(f->h, 128);
    assert_false(rd_create_cq(&f->d, 3, 64, ring, sh, 0, 3, 0).error);
    assert_false(rd_create_cq(&f->d, 4, 64, ring + 2048, sh + 64, 0, 4,
                              0).error);
    f->ctx_pa = mem_alloc_aligned(f->h, E810_QP_CTX_SIZE, 256);
    f->sq = mem_alloc_aligned(f->h, 4096, 4096);
    f->rq = mem_alloc_aligned(f->h, 4096, 4096);
    f->shadow = mem_alloc(f->h, 64);
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

/* The RoCE context irdma_sc_qp_setctx_roce() writes, the fields we check. */
static void write_ctx(Fixture *f, unsigned sq_enc, unsigned rq_enc,
                      uint32_t scq, uint32_t rcq, uint32_t dest_qp)
{
    uint64_t *c = mem_ptr(f->h, f->ctx_pa);

    memset(c, 0, E810_QP_CTX_SIZE);
    c[E810_QW(E810_QPC_CFG_OFF)] = htole64(E810_QPC_IPV4 |
                                           FIELD_PREP(E810_QPC_RQWQESIZE, 1));
    c[E810_QW(E810_QPC_SQADDR_OFF)] = htole64(f->sq);
    c[E810_QW(E810_QPC_RQADDR_OFF)] = htole64(f->rq);
    c[E810_QW(E810_QPC_SIZES_OFF)] =
        htole64(FIELD_PREP(E810_QPC_SQSIZE, sq_enc) |
                FIELD_PREP(E810_QPC_RQSIZE, rq_enc) |
                FIELD_PREP(E810_QPC_DESTPORTNUM, 4791) |
                FIELD_PREP(E810_QPC_SRCPORTNUM, 0xc000));
    c[E810_QW(E810_QPC_DEST_OFF)] = htole64(FIELD_PREP(E810_QPC_DESTQP,
                                                       dest_qp));
    c[E810_QW(E810_QPC_CQ_OFF)] = htole64(FIELD_PREP(E810_QPC_TXCQNUM, scq) |
                                          FIELD_PREP(E810_QPC_RXCQNUM, rcq));
    c[E810_QW(E810_QPC_COMPL_CTX_OFF)] = htole64(QP_COMPL_CTX);
    c[E810_QW(E810_QPC_QS_OFF)] = htole64(FIELD_PREP(E810_QPC_QSHANDLE, 7));
}

static RdmaCompl qp_op(Fixture *f, unsigned op, uint32_t qp, unsigned type,
                       unsigned next_state, uint64_t extra)
{
    uint64_t q[8] = { 0 };

    q[E810_QW(E810_CQPSQ_QP_CTX_OFF)] = f->ctx_pa;
    q[E810_QW(E810_CQPSQ_QP_DBSHADOW_OFF)] = f->shadow;
    return rd_exec(&f->d, op, FIELD_PREP(E810_CQPSQ_QP_QPID, qp) |
                   FIELD_PREP(E810_CQPSQ_QP_QPTYPE, type) |
                   FIELD_PREP(E810_CQPSQ_QP_NEXTIWSTATE, next_state) |
                   E810_CQPSQ_QP_CQNUMVALID | E810_CQPSQ_QP_MACVALID | extra,
                   q);
}

static void test_create_modify_destroy(void **state)
{
    Fixture *f = *state;
    E810Qp *qp;
    uint64_t obj;

    write_ctx(f, 4, 3, 3, 4, 0);
    assert_false(qp_op(f, E810_CQP_OP_CREATE_QP, 5, E810_QP_TYPE_ROCE_RC,
                       E810_QP_STATE_IDLE, 0).error);
    qp = e810_qp_get(&f->h->core, 5);
    assert_non_null(qp);
    assert_int_equal(qp->state, E810_QP_STATE_IDLE);
    assert_int_equal(qp->send_cq, 3);
    assert_int_equal(qp->recv_cq, 4);
    assert_true(qp->compl_ctx == QP_COMPL_CTX);
    assert_true(qp->shadow_pa == f->shadow);
    assert_int_equal(qp->qs_handle, 7);
    /* The context went to the QP's HMC object (direct SD 0, 512 B each). */
    obj = f->d.sd_pa[0] + rd_fpm_addr(&f->d, E810_HMC_QP, 5);
    assert_memory_equal(mem_ptr(f->h, obj), mem_ptr(f->h, f->ctx_pa),
                        E810_QP_CTX_SIZE);

    /* MODIFY reloads the rewritten context and moves the state. */
    write_ctx(f, 4, 3, 3, 4, 0x123456);
    assert_false(qp_op(f, E810_CQP_OP_MODIFY_QP, 5, E810_QP_TYPE_ROCE_RC,
                       E810_QP_STATE_RTR, E810_CQPSQ_QP_ARPTABIDXVALID).error);
    assert_int_equal(qp->state, E810_QP_STATE_RTR);
    assert_int_equal(FIELD_GET(E810_QPC_DESTQP, qp->ctx[E810_QW(
                     E810_QPC_DEST_OFF)]), 0x123456);
    assert_false(qp_op(f, E810_CQP_OP_MODIFY_QP, 5, E810_QP_TYPE_ROCE_RC,
                       E810_QP_STATE_RTS, E810_CQPSQ_QP_ORDVALID).error);
    assert_int_equal(qp->state, E810_QP_STATE_RTS);
    /* RTS -> RTS reloads the context and keeps the state. */
    write_ctx(f, 4, 3, 3, 4, 0x654321);
    assert_false(qp_op(f, E810_CQP_OP_MODIFY_QP, 5, E810_QP_TYPE_ROCE_RC,
                       E810_QP_STATE_RTS, 0).error);
    assert_int_equal(qp->state, E810_QP_STATE_RTS);
    assert_int_equal(FIELD_GET(E810_QPC_DESTQP, qp->ctx[E810_QW(
                     E810_QPC_DEST_OFF)]), 0x654321);

    assert_false(qp_op(f, E810_CQP_OP_DESTROY_QP, 5, E810_QP_TYPE_ROCE_RC,
                       0, 0).error);
    assert_null(e810_qp_get(&f->h->core, 5));
}

static void test_create_checks(void **state)
{
    Fixture *f = *state;

    write_ctx(f, 4, 3, 3, 4, 0);
    assert_int_equal(qp_op(f, E810_CQP_OP_CREATE_QP, 1024,
                           E810_QP_TYPE_ROCE_RC, 1, 0).minor,
                     E810_CQP_MIN_BAD_INDEX);
    assert_int_equal(qp_op(f, E810_CQP_OP_CREATE_QP, 6, E810_QP_TYPE_UDA,
                           1, 0).minor, E810_CQP_MIN_BAD_PARAM);
    assert_int_equal(qp_op(f, E810_CQP_OP_CREATE_QP, 6, E810_QP_TYPE_ROCE_UD,
                           E810_QP_STATE_RTS, 0).minor,
                     E810_CQP_MIN_BAD_PARAM);
    write_ctx(f, 14, 3, 3, 4, 0);
    assert_int_equal(qp_op(f, E810_CQP_OP_CREATE_QP, 6, E810_QP_TYPE_ROCE_UD,
                           1, 0).minor, E810_CQP_MIN_BAD_SIZE);
    write_ctx(f, 4, 3, 3, 9, 0);                /* no CQ 9 */
    assert_int_equal(qp_op(f, E810_CQP_OP_CREATE_QP, 6, E810_QP_TYPE_ROCE_UD,
                           1, 0).minor, E810_CQP_MIN_BAD_STATE);
    write_ctx(f, 4, 3, 3, 4, 0);
    ((uint64_t *)mem_ptr(f->h, f->ctx_pa))[1] = htole64(f->sq + 8);
    assert_int_equal(qp_op(f, E810_CQP_OP_CREATE_QP, 6, E810_QP_TYPE_ROCE_UD,
                           1, 0).minor, E810_CQP_MIN_BAD_ADDR);
    /* With VQ the addresses are PBLE indexes, which must exist. */
    ((uint64_t *)mem_ptr(f->h, f->ctx_pa))[1] = htole64(4194304);
    assert_int_equal(qp_op(f, E810_CQP_OP_CREATE_QP, 6, E810_QP_TYPE_ROCE_UD,
                           1, E810_CQPSQ_QP_VQ).minor,
                     E810_CQP_MIN_BAD_INDEX);
    write_ctx(f, 4, 3, 3, 4, 0);
    ((uint64_t *)mem_ptr(f->h, f->ctx_pa))[E810_QW(E810_QPC_MSS_OFF)] =
        htole64(FIELD_PREP(E810_QPC_ARPIDX, 2048));
    assert_int_equal(qp_op(f, E810_CQP_OP_CREATE_QP, 6, E810_QP_TYPE_ROCE_UD,
                           1, E810_CQPSQ_QP_ARPTABIDXVALID).minor,
                     E810_CQP_MIN_BAD_INDEX);
    write_ctx(f, 4, 3, 3, 4, 0);
    f->ctx_pa = 0x7000000000ull;                /* unreachable context */
    assert_int_equal(qp_op(f, E810_CQP_OP_CREATE_QP, 6, E810_QP_TYPE_ROCE_UD,
                           1, 0).minor, E810_CQP_MIN_BAD_ADDR);
    assert_null(e810_qp_get(&f->h->core, 6));
}

static void test_state_checks(void **state)
{
    Fixture *f = *state;

    write_ctx(f, 4, 3, 3, 4, 0);
    assert_false(qp_op(f, E810_CQP_OP_CREATE_QP, 1, E810_QP_TYPE_ROCE_UD,
                       1, 0).error);                /* the GSI QP */
    assert_int_equal(qp_op(f, E810_CQP_OP_CREATE_QP, 1, E810_QP_TYPE_ROCE_UD,
                           1, 0).minor, E810_CQP_MIN_BAD_STATE);
    assert_int_equal(qp_op(f, E810_CQP_OP_MODIFY_QP, 1, E810_QP_TYPE_ROCE_RC,
                           2, 0).minor, E810_CQP_MIN_BAD_PARAM);
    assert_int_equal(qp_op(f, E810_CQP_OP_MODIFY_QP, 1, E810_QP_TYPE_ROCE_UD,
                           7, 0).minor, E810_CQP_MIN_BAD_PARAM);
    assert_int_equal(qp_op(f, E810_CQP_OP_MODIFY_QP, 2, E810_QP_TYPE_ROCE_UD,
                           2, 0).minor, E810_CQP_MIN_BAD_STATE);
    assert_int_equal(qp_op(f, E810_CQP_OP_DESTROY_QP, 2, E810_QP_TYPE_ROCE_UD,
                           0, 0).minor, E810_CQP_MIN_BAD_STATE);
}

static void test_upload_context(void **state)
{
    Fixture *f = *state;
    uint64_t buf = mem_alloc(f->h, E810_QP_CTX_SIZE), q[8] = { 0 };

    write_ctx(f, 5, 2, 3, 4, 77);
    assert_false(qp_op(f, E810_CQP_OP_CREATE_QP, 9, E810_QP_TYPE_ROCE_RC,
                       1, 0).error);
    q[E810_QW(E810_CQPSQ_UCTX_BUF_OFF)] = buf;
    assert_false(rd_exec(&f->d, E810_CQP_OP_UPLOAD_CONTEXT,
                         FIELD_PREP(E810_CQPSQ_UCTX_QPID, 9) |
                         E810_CQPSQ_UCTX_RAWFORMAT, q).error);
    assert_memory_equal(mem_ptr(f->h, buf), mem_ptr(f->h, f->ctx_pa),
                        E810_QP_CTX_SIZE);
    assert_int_equal(rd_exec(&f->d, E810_CQP_OP_UPLOAD_CONTEXT,
                             FIELD_PREP(E810_CQPSQ_UCTX_QPID, 10), q).minor,
                     E810_CQP_MIN_BAD_STATE);
}

/* FLUSH_WQES: the QP goes to ERROR; nothing was outstanding (minor 0). */
static void test_flush_and_gen_ae(void **state)
{
    Fixture *f = *state;
    uint64_t q[8] = { 0 }, info;
    RdmaCompl c;

    write_ctx(f, 4, 3, 3, 4, 0);
    assert_false(qp_op(f, E810_CQP_OP_CREATE_QP, 12, E810_QP_TYPE_ROCE_RC,
                       1, 0).error);
    q[E810_QW(E810_CQPSQ_FWQE_CODES_OFF)] =
        FIELD_PREP(E810_CQPSQ_FWQE_SQMJERR, E810_CQE_MAJ_FLUSH) |
        FIELD_PREP(E810_CQPSQ_FWQE_SQMNERR, E810_FLUSH_GENERAL_ERR) |
        FIELD_PREP(E810_CQPSQ_FWQE_RQMJERR, E810_CQE_MAJ_FLUSH) |
        FIELD_PREP(E810_CQPSQ_FWQE_RQMNERR, E810_FLUSH_GENERAL_ERR);
    c = rd_exec(&f->d, E810_CQP_OP_FLUSH_WQES,
                FIELD_PREP(E810_CQPSQ_FWQE_QPID, 12) |
                E810_CQPSQ_FWQE_USERFLCODE | E810_CQPSQ_FWQE_FLUSHSQ |
                E810_CQPSQ_FWQE_FLUSHRQ, q);
    assert_false(c.error);
    assert_int_equal(c.minor, E810_CQP_COMPL_NOTHING_FLUSHED);
    assert_int_equal(e810_qp_get(&f->h->core, 12)->state,
                     E810_QP_STATE_ERROR);
    assert_true(e810_qp_get(&f->h->core, 12)->flush_sq);

    /* GEN_AE: same opcode, the AE the driver names, for that QP. */
    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_FWQE_AE_OFF)] =
        FIELD_PREP(E810_CQPSQ_FWQE_AECODE, E810_AE_LLP_CONNECTION_RESET) |
        FIELD_PREP(E810_CQPSQ_FWQE_AESOURCE, E810_AE_SOURCE_RQ);
    assert_false(rd_exec(&f->d, E810_CQP_OP_FLUSH_WQES,
                         FIELD_PREP(E810_CQPSQ_FWQE_QPID, 12) |
                         E810_CQPSQ_FWQE_GENERATE_AE, q).error);
    assert_true(rd_mem64(&f->d, f->aeq) == QP_COMPL_CTX);
    info = rd_mem64(&f->d, f->aeq + 8);
    assert_int_equal(FIELD_GET(E810_AEQE_AECODE, info),
                     E810_AE_LLP_CONNECTION_RESET);
    assert_int_equal(FIELD_GET(E810_AEQE_AESRC, info), E810_AE_SOURCE_RQ);
    assert_int_equal(FIELD_GET(E810_AEQE_QPCQID_LOW, info), 12);
    assert_int_equal(FIELD_GET(E810_AEQE_IWSTATE, info), E810_QP_STATE_ERROR);
    assert_true(info & E810_AEQE_VALID);

    /* A flush for a QP that does not exist. */
    assert_int_equal(rd_exec(&f->d, E810_CQP_OP_FLUSH_WQES,
                             FIELD_PREP(E810_CQPSQ_FWQE_QPID, 13) |
                             E810_CQPSQ_FWQE_FLUSHSQ, q).minor,
                     E810_CQP_MIN_BAD_STATE);
}

static void test_suspend_resume(void **state)
{
    Fixture *f = *state;
    uint64_t q[8] = { 0 };

    write_ctx(f, 4, 3, 3, 4, 0);
    assert_false(qp_op(f, E810_CQP_OP_CREATE_QP, 20, E810_QP_TYPE_ROCE_RC,
                       1, 0).error);
    assert_false(rd_exec(&f->d, E810_CQP_OP_SUSPEND_QP,
                         FIELD_PREP(E810_CQPSQ_SUSPENDQP_QPID, 20),
                         NULL).error);
    assert_true(e810_qp_get(&f->h->core, 20)->suspended);
    assert_int_equal(FIELD_GET(E810_AEQE_AECODE, rd_mem64(&f->d, f->aeq + 8)),
                     E810_AE_QP_SUSPEND_COMPLETE);
    assert_int_equal(FIELD_GET(E810_AEQE_QPCQID_LOW,
                               rd_mem64(&f->d, f->aeq + 8)), 20);
    q[E810_QW(E810_CQPSQ_RESUMEQP_QS_OFF)] = 9;
    assert_false(rd_exec(&f->d, E810_CQP_OP_RESUME_QP,
                         FIELD_PREP(E810_CQPSQ_RESUMEQP_QPID, 20), q).error);
    assert_false(e810_qp_get(&f->h->core, 20)->suspended);
    assert_int_equal(e810_qp_get(&f->h->core, 20)->qs_handle, 9);
    assert_int_equal(rd_exec(&f->d, E810_CQP_OP_SUSPEND_QP,
                             FIELD_PREP(E810_CQPSQ_SUSPENDQP_QPID, 21),
                             NULL).minor, E810_CQP_MIN_BAD_STATE);
}

/*
 * A QP that may transmit must be on an RDMA qset the function added
 * (0x0C33 tx_qset_id = the QS handle): otherwise the command still
 * succeeds (what hardware does is not documented) but the model counts
 * it and logs a guest error. IDLE QPs are not checked.
 */
static void test_qs_handle_check(void **state)
{
    Fixture *f = *state;
    E810Rdma *r = &f->h->core.rdma;
    uint64_t q[8] = { 0 };
    AqDriver aq;
    uint32_t qg;
    unsigned ge;

    aq_init(f->h, &aq);
    qg = aq_sched_qgrp(f->h, &aq);
    write_ctx(f, 4, 3, 3, 4, 0);               /* QS handle 7 */
    ge = f->h->log_guest_error;
    assert_false(qp_op(f, E810_CQP_OP_CREATE_QP, 6, E810_QP_TYPE_ROCE_RC,
                       E810_QP_STATE_IDLE, 0).error);
    assert_int_equal(r->stats.bad_qs_handles, 0);
    /* RTR on a handle no qset has: done, counted, logged. */
    assert_false(qp_op(f, E810_CQP_OP_MODIFY_QP, 6, E810_QP_TYPE_ROCE_RC,
                       E810_QP_STATE_RTR, 0).error);
    assert_int_equal(e810_qp_get(&f->h->core, 6)->state, E810_QP_STATE_RTR);
    assert_int_equal(r->stats.bad_qs_handles, 1);
    assert_int_equal(f->h->log_guest_error, ge + 1);
    assert_non_null(strstr(f->h->last_log, "QS handle 7"));

    /* With qset 7 added the same context passes. */
    assert_int_equal(aq_add_rdma_qset(f->h, &aq, qg, 7, NULL),
                     E810_AQ_RC_OK);
    assert_false(qp_op(f, E810_CQP_OP_MODIFY_QP, 6, E810_QP_TYPE_ROCE_RC,
                       E810_QP_STATE_RTS, 0).error);
    assert_int_equal(r->stats.bad_qs_handles, 1);

    /* RESUME_QP moving the QP to a handle without a qset ... */
    assert_false(rd_exec(&f->d, E810_CQP_OP_SUSPEND_QP,
                         FIELD_PREP(E810_CQPSQ_SUSPENDQP_QPID, 6),
                         NULL).error);
    q[E810_QW(E810_CQPSQ_RESUMEQP_QS_OFF)] = 9;
    assert_false(rd_exec(&f->d, E810_CQP_OP_RESUME_QP,
                         FIELD_PREP(E810_CQPSQ_RESUMEQP_QPID, 6), q).error);
    assert_int_equal(r->stats.bad_qs_handles, 2);
    /* ... and to one with a qset. */
    assert_int_equal(aq_add_rdma_qset(f->h, &aq, qg, 9, NULL),
                     E810_AQ_RC_OK);
    assert_false(rd_exec(&f->d, E810_CQP_OP_SUSPEND_QP,
                         FIELD_PREP(E810_CQPSQ_SUSPENDQP_QPID, 6),
                         NULL).error);
    assert_false(rd_exec(&f->d, E810_CQP_OP_RESUME_QP,
                         FIELD_PREP(E810_CQPSQ_RESUMEQP_QPID, 6), q).error);
    assert_int_equal(e810_qp_get(&f->h->core, 6)->qs_handle, 9);
    assert_int_equal(r->stats.bad_qs_handles, 2);

    /* Qset 7 removed: a reload of the (handle 7) context counts again. */
    assert_int_equal(aq_dis_rdma_qset(f->h, &aq, qg, 7), E810_AQ_RC_OK);
    assert_false(qp_op(f, E810_CQP_OP_MODIFY_QP, 6, E810_QP_TYPE_ROCE_RC,
                       E810_QP_STATE_RTS, 0).error);
    assert_int_equal(r->stats.bad_qs_handles, 3);
    assert_false(qp_op(f, E810_CQP_OP_MODIFY_QP, 6, E810_QP_TYPE_ROCE_RC,
                       E810_QP_STATE_SQD, 0).error);
    assert_int_equal(r->stats.bad_qs_handles, 4);
    /* A QP going to ERROR is not checked. */
    assert_false(qp_op(f, E810_CQP_OP_MODIFY_QP, 6, E810_QP_TYPE_ROCE_RC,
                       E810_QP_STATE_ERROR, 0).error);
    assert_int_equal(r->stats.bad_qs_handles, 4);
}

static const char *const state_name[] = {
    "INVALID", "IDLE", "RTS", "SQD", "RTR", "TERMINATE", "ERROR",
};

/*
 * Every (state -> next state) pair upstream irdma (6.7 on) sends for a
 * RoCEv2 QP (irdma_modify_qp_roce(); ERROR -> ERROR after the device
 * moved the QP to ERROR on its own). Written out here, not taken from the
 * model.
 */
static bool irdma_makes(unsigned cur, unsigned next)
{
    static const unsigned pairs[][2] = {
        { E810_QP_STATE_IDLE, E810_QP_STATE_IDLE },
        { E810_QP_STATE_IDLE, E810_QP_STATE_RTR },
        { E810_QP_STATE_IDLE, E810_QP_STATE_ERROR },
        { E810_QP_STATE_RTR, E810_QP_STATE_RTS },
        { E810_QP_STATE_RTR, E810_QP_STATE_ERROR },
        { E810_QP_STATE_RTS, E810_QP_STATE_RTS },
        { E810_QP_STATE_RTS, E810_QP_STATE_SQD },
        { E810_QP_STATE_RTS, E810_QP_STATE_ERROR },
        { E810_QP_STATE_SQD, E810_QP_STATE_RTS },
        { E810_QP_STATE_SQD, E810_QP_STATE_ERROR },
        { E810_QP_STATE_ERROR, E810_QP_STATE_ERROR },
    };
    unsigned i;

    for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
        if (pairs[i][0] == cur && pairs[i][1] == next) {
            return true;
        }
    }
    return false;
}

/* Creates QP @id of @type and takes it to @state by accepted steps. */
static void qp_to_state(Fixture *f, uint32_t id, unsigned type,
                        unsigned state)
{
    static const unsigned path[] = {
        E810_QP_STATE_RTR, E810_QP_STATE_RTS, E810_QP_STATE_SQD,
    };
    unsigned i;

    write_ctx(f, 4, 3, 3, 4, 0x111);
    assert_false(qp_op(f, E810_CQP_OP_CREATE_QP, id, type,
                       E810_QP_STATE_IDLE, 0).error);
    if (state == E810_QP_STATE_ERROR) {
        assert_false(qp_op(f, E810_CQP_OP_MODIFY_QP, id, type,
                           E810_QP_STATE_ERROR, 0).error);
    }
    for (i = 0; state != E810_QP_STATE_IDLE &&
         state != E810_QP_STATE_ERROR && i < 3; i++) {
        assert_false(qp_op(f, E810_CQP_OP_MODIFY_QP, id, type, path[i],
                           0).error);
        if (path[i] == state) {
            break;
        }
    }
    assert_int_equal(e810_qp_get(&f->h->core, id)->state, state);
}

/*
 * MODIFY_QP from each state a RoCE QP can be in to each next state 0..6:
 * the pairs irdma makes succeed and take the state; every other one fails
 * with major 0xFFFF / minor "Invalid State" (0x8002, the code upstream's
 * irdma_noncrit_err_list names), counted and logged, and leaves the QP as
 * it was: state, the context the data path uses and the one in the HMC.
 */
static void test_transition_table(void **state)
{
    static const unsigned from[] = {
        E810_QP_STATE_IDLE, E810_QP_STATE_RTR, E810_QP_STATE_RTS,
        E810_QP_STATE_SQD, E810_QP_STATE_ERROR,
    };
    static const unsigned types[] = {
        E810_QP_TYPE_ROCE_RC, E810_QP_TYPE_ROCE_UD,
    };
    Fixture *f = *state;
    E810Rdma *r = &f->h->core.rdma;
    unsigned t, i, next, refused = 0;

    for (t = 0; t < 2; t++) {
        for (i = 0; i < 5; i++) {
            for (next = 0; next <= E810_QP_STATE_ERROR; next++) {
                const uint32_t id = 30;
                uint64_t obj = f->d.sd_pa[0] +
                               rd_fpm_addr(&f->d, E810_HMC_QP, id);
                uint64_t before[E810_QP_CTX_SIZE / 8];
                unsigned ge, bad;
                RdmaCompl c;
                E810Qp *qp;

                qp_to_state(f, id, types[t], from[i]);
                qp = e810_qp_get(&f->h->core, id);
                memcpy(before, qp->ctx, sizeof(before));
                write_ctx(f, 4, 3, 3, 4, 0x222);    /* a new DESTQP */
                ge = f->h->log_guest_error;
                bad = r->stats.bad_qp_transitions;
                c = qp_op(f, E810_CQP_OP_MODIFY_QP, id, types[t], next, 0);
                if (irdma_makes(from[i], next)) {
                    if (c.error) {
                        fail_msg("type %u %s -> %s refused", types[t],
                                 state_name[from[i]], state_name[next]);
                    }
                    assert_int_equal(qp->state, next);
                    assert_int_equal(FIELD_GET(E810_QPC_DESTQP, qp->ctx[
                                     E810_QW(E810_QPC_DEST_OFF)]), 0x222);
                    assert_int_equal(r->stats.bad_qp_transitions, bad);
                } else {
                    if (!c.error) {
                        fail_msg("type %u %s -> %s accepted", types[t],
                                 state_name[from[i]], state_name[next]);
                    }
                    assert_int_equal(c.major, E810_CQP_MAJ_ERROR);
                    assert_int_equal(c.minor, 0x8002);
                    assert_int_equal(qp->state, from[i]);
                    assert_memory_equal(qp->ctx, before, sizeof(before));
                    assert_memory_equal(mem_ptr(f->h, obj), before,
                                        sizeof(before));
                    assert_int_equal(r->stats.bad_qp_transitions, bad + 1);
                    assert_int_equal(f->h->log_guest_error, ge + 1);
                    assert_non_null(strstr(f->h->last_log, "QP 30"));
                    refused++;
                }
                assert_false(qp_op(f, E810_CQP_OP_DESTROY_QP, id, types[t],
                                   0, 0).error);
            }
        }
    }
    /* 5 states x 7 next states, 11 pairs made, per type. */
    assert_int_equal(refused, 2 * (35 - 11));
}

/*
 * After an error AE the device has moved the QP to ERROR while irdma
 * still sees RTS: its ERR sends ERROR, which the device takes; RTS or SQD
 * (a modify racing the AE) is refused, and only DESTROY_QP + CREATE_QP
 * give the id an IDLE QP again.
 */
static void test_err_after_device_error(void **state)
{
    static const unsigned refused[] = {
        E810_QP_STATE_IDLE, E810_QP_STATE_RTR, E810_QP_STATE_RTS,
        E810_QP_STATE_SQD,
    };
    Fixture *f = *state;
    uint64_t q[8] = { 0 };
    unsigned i;
    RdmaCompl c;

    qp_to_state(f, 31, E810_QP_TYPE_ROCE_RC, E810_QP_STATE_RTS);
    /* FLUSH_WQES stands for the device's own move to ERROR. */
    assert_false(rd_exec(&f->d, E810_CQP_OP_FLUSH_WQES,
                         FIELD_PREP(E810_CQPSQ_FWQE_QPID, 31) |
                         E810_CQPSQ_FWQE_FLUSHSQ, q).error);
    assert_int_equal(e810_qp_get(&f->h->core, 31)->state,
                     E810_QP_STATE_ERROR);
    for (i = 0; i < 4; i++) {
        c = qp_op(f, E810_CQP_OP_MODIFY_QP, 31, E810_QP_TYPE_ROCE_RC,
                  refused[i], 0);
        assert_true(c.error);
        assert_int_equal(c.minor, E810_CQP_MIN_INVALID_STATE);
    }
    assert_false(qp_op(f, E810_CQP_OP_MODIFY_QP, 31, E810_QP_TYPE_ROCE_RC,
                       E810_QP_STATE_ERROR, 0).error);
    assert_int_equal(e810_qp_get(&f->h->core, 31)->state,
                     E810_QP_STATE_ERROR);
    assert_false(qp_op(f, E810_CQP_OP_DESTROY_QP, 31, E810_QP_TYPE_ROCE_RC,
                       0, 0).error);
    assert_false(qp_op(f, E810_CQP_OP_CREATE_QP, 31, E810_QP_TYPE_ROCE_RC,
                       E810_QP_STATE_IDLE, 0).error);
    assert_false(qp_op(f, E810_CQP_OP_MODIFY_QP, 31, E810_QP_TYPE_ROCE_RC,
                       E810_QP_STATE_IDLE, 0).error);
    assert_int_equal(e810_qp_get(&f->h->core, 31)->state,
                     E810_QP_STATE_IDLE);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_create_modify_destroy),
        T(test_create_checks),
        T(test_state_checks),
        T(test_upload_context),
        T(test_flush_and_gen_ae),
        T(test_suspend_resume),
        T(test_qs_handle_check),
        T(test_transition_table),
        T(test_err_after_device_error),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_qp", tests, NULL, NULL);
}
