/*
 * Device model, data path: memory windows. ALLOC_STAG of type-1 and type-2
 * windows (irdma_sc_mw_alloc()), the BIND_MW SQ WQE as rdma-core's
 * irdma_uk_mw_bind() writes it and its completion, remote WRITE/READ
 * through a window's STag with the window's bounds, rights, key and QP
 * checks, invalidation (LOCAL_INVALIDATE, SEND with INVALIDATE) and its
 * refusal for type-1 windows and for MRs with windows bound, every bind
 * error with its AE and flush code, DEALLOC_STAG of windows and parents.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
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
#define RW_BIND (RW_ALL | E810_ACCESS_BIND_WINDOW)
#define W_RD    E810_WQE_RIGHTS_REMOTE_READ
#define W_WR    E810_WQE_RIGHTS_REMOTE_WRITE
#define BUF_LEN 0x2000

typedef struct Fix {
    Harness *h;
    DpDev dev;
    DpCq scq, rcq;
    DpQp qp;        /* user RC QP with BINDEN, as the stock irdma makes them */
    DpQp qp2;       /* a second one in the same PD */
    uint64_t buf;   /* parent MR memory, registered VA == PA */
    uint32_t mr;    /* RW_BIND over buf */
} Fix;

static void qp_bind_rts(Fix *f, DpQp *qp, bool binden)
{
    uint64_t *c;

    dp_qp_create(&f->dev, qp, E810_QP_TYPE_ROCE_RC, &f->scq, &f->rcq, 64, 16,
                 1, false, false);
    c = dp_qp_ctx(qp);
    if (binden) {
        c[E810_QW(E810_QPC_FLAGS_OFF)] =
            htole64(le64toh(c[E810_QW(E810_QPC_FLAGS_OFF)]) |
                    E810_QPC_BINDEN);
    }
    dp_qp_rts(qp);
}

static int setup(void **state)
{
    Fix *f = calloc(1, sizeof(*f));

    f->h = harness_new(0);
    dp_dev_init(&f->dev, f->h);
    dp_cq_create(&f->dev, &f->scq, 64);
    dp_cq_create(&f->dev, &f->rcq, 64);
    qp_bind_rts(f, &f->qp, true);
    qp_bind_rts(f, &f->qp2, true);
    f->buf = mem_alloc_aligned(f->h, BUF_LEN, 4096);
    f->mr = dp_mr_buf(&f->dev, DP_PD, f->buf, BUF_LEN, RW_BIND);
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

/* ALLOC_STAG of a window (irdma_hw_alloc_mw(): no MR bit, MWTYPE = type 1,
 * no key in the WQE); returns index << 8 | @key. */
static uint32_t mw_alloc(Fix *f, uint32_t pd, bool type1, uint8_t key)
{
    uint64_t q[8] = { 0 };
    uint32_t idx = f->dev.next_stag++;

    rd_back_object(&f->dev.d, E810_HMC_MR, idx);
    q[E810_QW(E810_CQPSQ_STAG_LEN_OFF)] = FIELD_PREP(E810_CQPSQ_STAG_PDID, pd);
    q[E810_QW(E810_CQPSQ_STAG_IDX_OFF)] = FIELD_PREP(E810_CQPSQ_STAG_IDX, idx);
    assert_true(rd_do(&f->dev.d, E810_CQP_OP_ALLOC_STAG,
                      type1 ? E810_CQPSQ_STAG_MWTYPE : 0, q));
    return idx << 8 | key;
}

/* DEALLOC_STAG (irdma_dealloc_mw(): MR bit clear; irdma_dereg_mr(): set). */
static bool stag_dealloc(Fix *f, uint32_t stag, bool mr)
{
    uint64_t q[8] = { 0 };

    q[E810_QW(E810_CQPSQ_STAG_LEN_OFF)] = FIELD_PREP(E810_CQPSQ_STAG_PDID,
                                                     DP_PD);
    q[E810_QW(E810_CQPSQ_STAG_IDX_OFF)] = FIELD_PREP(E810_CQPSQ_STAG_IDX,
                                                     stag >> 8);
    return rd_do(&f->dev.d, E810_CQP_OP_DEALLOC_STAG,
                 mr ? E810_CQPSQ_STAG_MR : 0, q);
}

/* The BIND_MW WQE of irdma_uk_mw_bind() (valid bit set by dp_post_raw). */
static uint32_t post_bind(DpQp *qp, uint32_t mw, uint32_t mr, uint64_t va,
                          uint64_t len, uint8_t rights, bool type1,
                          bool zero_based)
{
    uint64_t q[4];

    q[0] = va;
    q[1] = FIELD_PREP(E810_WQE_BIND_PARENT_STAG, mr) |
           FIELD_PREP(E810_WQE_BIND_MW_STAG, mw);
    q[2] = FIELD_PREP(E810_WQE_BIND_LEN, len);
    q[3] = FIELD_PREP(E810_WQE_OPCODE, E810_OP_BIND_MW) |
           FIELD_PREP(E810_WQE_STAGRIGHTS, rights) |
           (zero_based ? 0 : E810_WQE_VABASEDTO) |
           (type1 ? E810_WQE_MEMWINDOWTYPE : 0) | E810_WQE_SIGCOMPL;
    return dp_post_raw(qp, q, 1, false);
}

/* Runs a bind that must succeed; checks its CQE. */
static void bind_ok(Fix *f, DpQp *qp, uint32_t mw, uint32_t mr, uint64_t va,
                    uint64_t len, uint8_t rights, bool type1,
                    bool zero_based)
{
    uint32_t idx = post_bind(qp, mw, mr, va, len, rights, type1, zero_based);
    DpCqe e;
    DpAe ae;

    dp_ring(qp, false);
    dp_run(&f->dev);
    assert_true(dp_poll_cq(qp->scq, &e));
    assert_false(e.error);
    assert_true(e.sq);
    assert_int_equal(e.op, E810_OP_BIND_MW);
    assert_int_equal(e.wqe_idx, idx);
    assert_int_equal(e.qp_id, qp->id);
    assert_false(dp_poll_ae(&f->dev, &ae));
}

/* A local WQE that must fail: AE @code for @qp naming it, flush CQE with
 * the flush code the kernel's table gives, QP in ERROR. */
static void wqe_fails(Fix *f, DpQp *qp, uint32_t idx, uint16_t code,
                      uint8_t minor)
{
    DpCqe e;
    DpAe ae;

    dp_ring(qp, false);
    dp_run(&f->dev);
    assert_true(dp_poll_ae(&f->dev, &ae));
    assert_int_equal(ae.code, code);
    assert_int_equal(ae.id, qp->id);
    assert_int_equal(ae.source, E810_AE_SOURCE_SQ);
    assert_int_equal(ae.wqe_idx, idx);
    assert_true(dp_poll_cq(qp->scq, &e));
    assert_true(e.error && e.sq);
    assert_int_equal(e.major, E810_CQE_MAJ_FLUSH);
    assert_int_equal(e.minor, minor);
    assert_int_equal(e.wqe_idx, idx);
    assert_int_equal(dp_model_qp(qp)->state, E810_QP_STATE_ERROR);
}

static bool rw(Fix *f, DpQp *qp, uint32_t stag, uint64_t va, void *buf,
               uint32_t len, int kind, uint16_t *st)
{
    return e810_mem_access(&f->h->core, dp_model_qp(qp), stag, va, buf, len,
                           kind, st);
}

static void fill(uint8_t *p, size_t n, unsigned seed)
{
    size_t i;

    for (i = 0; i < n; i++) {
        p[i] = (uint8_t)(i * 37 + seed * 11 + (i >> 7));
    }
}

/* Both types allocate; unbound windows name nothing; DEALLOC frees. */
static void test_alloc_dealloc(void **state)
{
    Fix *f = *state;
    uint32_t t1 = mw_alloc(f, DP_PD, true, 0x21);
    uint32_t t2 = mw_alloc(f, DP_PD, false, 0x22);
    E810Mr *m1 = &f->h->core.rdma.mr[t1 >> 8];
    E810Mr *m2 = &f->h->core.rdma.mr[t2 >> 8];
    uint8_t b[8];
    uint16_t st;

    assert_true(m1->valid && m1->is_mw && m1->mw_type1);
    assert_true(m2->valid && m2->is_mw && !m2->mw_type1);
    assert_int_equal(m2->pd, DP_PD);
    assert_false(rw(f, &f->qp, t1, f->buf, b, 8, E810_MEM_REMOTE_READ, &st));
    assert_int_equal(st, E810_AE_AMP_INVALID_STAG);
    assert_false(rw(f, &f->qp, t2, f->buf, b, 8, E810_MEM_REMOTE_WRITE, &st));
    assert_int_equal(st, E810_AE_AMP_INVALID_STAG);
    /* Allocating an index in use is refused. */
    {
        uint64_t q[8] = { 0 };

        q[E810_QW(E810_CQPSQ_STAG_IDX_OFF)] =
            FIELD_PREP(E810_CQPSQ_STAG_IDX, t2 >> 8);
        assert_false(rd_do(&f->dev.d, E810_CQP_OP_ALLOC_STAG, 0, q));
    }
    assert_true(stag_dealloc(f, t1, false));
    assert_true(stag_dealloc(f, t2, false));
    assert_false(m1->valid || m2->valid);
    assert_false(stag_dealloc(f, t2, false));
    assert_false(rw(f, &f->qp, t2, f->buf, b, 8, E810_MEM_REMOTE_READ, &st));
    assert_int_equal(st, E810_AE_AMP_UNALLOCATED_STAG);
}

/* Type 2 bound VA-based over part of the MR: data, bounds, rights, key,
 * QP association, lkey use. */
static void test_type2_remote_access(void **state)
{
    Fix *f = *state;
    uint32_t mw = mw_alloc(f, DP_PD, false, 0x00);
    uint32_t ro = mw_alloc(f, DP_PD, false, 0x00);
    uint32_t key = (mw & ~0xffu) | 0x77, rokey = (ro & ~0xffu) | 0x78;
    uint64_t wva = f->buf + 0x100;
    uint8_t data[0x200], out[0x200];
    uint16_t st;

    bind_ok(f, &f->qp, key, f->mr, wva, 0x200, W_RD | W_WR, false, false);
    fill(data, sizeof(data), 1);
    memset(mem_ptr(f->h, f->buf), 0, BUF_LEN);
    assert_true(e810_dp_remote_write(&f->h->core, dp_model_qp(&f->qp), key,
                                     wva, data, sizeof(data), &st));
    assert_memory_equal(mem_ptr(f->h, f->buf + 0x100), data, sizeof(data));
    assert_int_equal(*(uint8_t *)mem_ptr(f->h, f->buf + 0xff), 0);
    assert_int_equal(*(uint8_t *)mem_ptr(f->h, f->buf + 0x300), 0);
    memset(out, 0, sizeof(out));
    assert_true(e810_dp_remote_read(&f->h->core, dp_model_qp(&f->qp), key,
                                    wva + 0x10, out, 0x100, &st));
    assert_memory_equal(out, data + 0x10, 0x100);

    /* Inside the MR but outside the window, on either side. */
    assert_false(rw(f, &f->qp, key, wva + 0x1f8, out, 16,
                    E810_MEM_REMOTE_READ, &st));
    assert_int_equal(st, E810_AE_AMP_BOUNDS_VIOLATION);
    assert_false(rw(f, &f->qp, key, wva - 1, out, 4, E810_MEM_REMOTE_WRITE,
                    &st));
    assert_int_equal(st, E810_AE_AMP_BOUNDS_VIOLATION);
    /* Wrong key byte; an unbound window's STag. */
    assert_false(rw(f, &f->qp, key ^ 1, wva, out, 4, E810_MEM_REMOTE_READ,
                    &st));
    assert_int_equal(st, E810_AE_AMP_BAD_STAG_KEY);
    /* Type 2 belongs to the QP that bound it. */
    assert_false(rw(f, &f->qp2, key, wva, out, 4, E810_MEM_REMOTE_READ, &st));
    assert_int_equal(st, E810_AE_AMP_BAD_QP);
    /* Never an lkey. */
    assert_false(rw(f, &f->qp, key, wva, out, 4, E810_MEM_LOCAL_READ, &st));
    assert_int_equal(st, E810_AE_AMP_RIGHTS_VIOLATION);
    assert_false(rw(f, &f->qp, key, wva, out, 4, E810_MEM_LOCAL_WRITE, &st));
    assert_int_equal(st, E810_AE_AMP_RIGHTS_VIOLATION);

    /* A read-only window over the same MR: writes refused. */
    bind_ok(f, &f->qp, rokey, f->mr, f->buf, 0x100, W_RD, false, false);
    assert_false(rw(f, &f->qp, rokey, f->buf, data, 4, E810_MEM_REMOTE_WRITE,
                    &st));
    assert_int_equal(st, E810_AE_AMP_RIGHTS_VIOLATION);
    assert_true(rw(f, &f->qp, rokey, f->buf + 0x100 - 4, out, 4,
                   E810_MEM_REMOTE_READ, &st));
    /* The parent MR's own rkey still works. */
    assert_true(rw(f, &f->qp, f->mr, f->buf, out, 16, E810_MEM_REMOTE_READ,
                   &st));
    assert_int_equal(f->h->core.rdma.mr[f->mr >> 8].bound_mws, 2);
}

/* A zero-based type-2 window: addressed by offset from its first byte,
 * which is the parent's byte at the WQE's qword 0. */
static void test_type2_zero_based(void **state)
{
    Fix *f = *state;
    uint32_t mw = mw_alloc(f, DP_PD, false, 0);
    uint32_t key = (mw & ~0xffu) | 0x05;
    uint8_t data[64], out[64];
    uint16_t st;

    bind_ok(f, &f->qp, key, f->mr, 0x1000, 0x800, W_RD | W_WR, false, true);
    fill(data, sizeof(data), 2);
    assert_true(rw(f, &f->qp, key, 0x10, data, sizeof(data),
                   E810_MEM_REMOTE_WRITE, &st));
    assert_memory_equal(mem_ptr(f->h, f->buf + 0x1010), data, sizeof(data));
    assert_true(rw(f, &f->qp, key, 0x10, out, sizeof(out),
                   E810_MEM_REMOTE_READ, &st));
    assert_memory_equal(out, data, sizeof(out));
    assert_false(rw(f, &f->qp, key, 0x7f0, out, 0x20, E810_MEM_REMOTE_READ,
                    &st));
    assert_int_equal(st, E810_AE_AMP_BOUNDS_VIOLATION);
}

/* LOCAL_INVALIDATE and SEND with INVALIDATE of a type-2 window; rebind. */
static void test_type2_invalidate(void **state)
{
    Fix *f = *state;
    uint32_t mw = mw_alloc(f, DP_PD, false, 0);
    uint32_t k1 = (mw & ~0xffu) | 0x31, k2 = (mw & ~0xffu) | 0x32;
    DpSend inv = { .op = E810_OP_LOCAL_INV, .signaled = true };
    E810Qp *m = dp_model_qp(&f->qp);
    uint8_t b[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    uint32_t idx;
    uint16_t st;
    DpCqe e;

    bind_ok(f, &f->qp, k1, f->mr, f->buf, 0x100, W_WR, false, false);
    /* Bound windows keep their parent from being invalidated. */
    assert_false(e810_dp_invalidate(&f->h->core, m, f->mr, false, &st));
    assert_int_equal(st, E810_AE_AMP_INVALIDATE_MR_WITH_BOUND_WINDOWS);
    /* Another QP may not invalidate it; a stale key neither. */
    assert_false(e810_dp_invalidate(&f->h->core, dp_model_qp(&f->qp2), k1,
                                    true, &st));
    assert_int_equal(st, E810_AE_AMP_BAD_QP);
    assert_false(e810_dp_invalidate(&f->h->core, m, k2, false, &st));
    assert_int_equal(st, E810_AE_AMP_BAD_STAG_KEY);

    inv.raw[1] = k1;
    idx = dp_post_send(&f->qp, &inv);
    dp_ring(&f->qp, false);
    dp_run(&f->dev);
    assert_true(dp_poll_cq(&f->scq, &e));
    assert_false(e.error);
    assert_int_equal(e.op, E810_OP_LOCAL_INV);
    assert_int_equal(e.wqe_idx, idx);
    assert_false(rw(f, &f->qp, k1, f->buf, b, 8, E810_MEM_REMOTE_WRITE, &st));
    assert_int_equal(st, E810_AE_AMP_INVALID_STAG);
    assert_int_equal(f->h->core.rdma.mr[f->mr >> 8].bound_mws, 0);
    /* Invalidating it again: nothing is bound. */
    assert_false(e810_dp_invalidate(&f->h->core, m, k1, false, &st));
    assert_int_equal(st, E810_AE_AMP_INVALID_STAG);

    /* Rebound under a new key: only the new key works. */
    bind_ok(f, &f->qp, k2, f->mr, f->buf + 0x80, 0x80, W_WR, false, false);
    assert_true(rw(f, &f->qp, k2, f->buf + 0x80, b, 8, E810_MEM_REMOTE_WRITE,
                   &st));
    assert_memory_equal(mem_ptr(f->h, f->buf + 0x80), b, 8);
    assert_false(rw(f, &f->qp, k1, f->buf + 0x80, b, 8,
                    E810_MEM_REMOTE_WRITE, &st));
    assert_int_equal(st, E810_AE_AMP_BAD_STAG_KEY);
    /* Remote invalidation (the responder of SEND with INVALIDATE). */
    assert_true(e810_dp_invalidate(&f->h->core, m, k2, true, &st));
    assert_false(rw(f, &f->qp, k2, f->buf + 0x80, b, 8,
                    E810_MEM_REMOTE_WRITE, &st));
    assert_int_equal(st, E810_AE_AMP_INVALID_STAG);
    /* With no window left the parent invalidates as before. */
    assert_true(e810_dp_invalidate(&f->h->core, m, f->mr, false, &st));
}

/* Type 1: bound through the SQ too (irdma_ubind_mw()), any QP of the PD
 * uses it, rebinding replaces it, it cannot be invalidated. */
static void test_type1(void **state)
{
    Fix *f = *state;
    uint32_t mw = mw_alloc(f, DP_PD, true, 0x40);
    uint32_t k1 = mw + 1, k2 = mw + 2;      /* ibv_inc_rkey() */
    DpSend inv = { .op = E810_OP_LOCAL_INV, .signaled = true };
    uint8_t b[16], out[16];
    uint32_t idx;
    uint16_t st;

    bind_ok(f, &f->qp, k1, f->mr, f->buf + 0x400, 0x400, W_RD | W_WR, true,
            false);
    fill(b, sizeof(b), 3);
    assert_true(rw(f, &f->qp2, k1, f->buf + 0x7f0, b, 16,
                   E810_MEM_REMOTE_WRITE, &st));
    assert_memory_equal(mem_ptr(f->h, f->buf + 0x7f0), b, 16);
    assert_true(rw(f, &f->qp, k1, f->buf + 0x7f0, out, 16,
                   E810_MEM_REMOTE_READ, &st));
    assert_memory_equal(out, b, 16);
    assert_false(rw(f, &f->qp, k1, f->buf + 0x7f8, out, 16,
                    E810_MEM_REMOTE_READ, &st));
    assert_int_equal(st, E810_AE_AMP_BOUNDS_VIOLATION);

    /* Rebind while bound: allowed, new range and key, one binding counted. */
    bind_ok(f, &f->qp2, k2, f->mr, f->buf, 0x10, W_RD, true, false);
    assert_false(rw(f, &f->qp, k1, f->buf, out, 4, E810_MEM_REMOTE_READ, &st));
    assert_int_equal(st, E810_AE_AMP_BAD_STAG_KEY);
    assert_true(rw(f, &f->qp, k2, f->buf, out, 16, E810_MEM_REMOTE_READ, &st));
    assert_false(rw(f, &f->qp, k2, f->buf, out, 4, E810_MEM_REMOTE_WRITE,
                    &st));
    assert_int_equal(st, E810_AE_AMP_RIGHTS_VIOLATION);
    assert_int_equal(f->h->core.rdma.mr[f->mr >> 8].bound_mws, 1);

    /* No invalidation of type 1, remote or local. */
    assert_false(e810_dp_invalidate(&f->h->core, dp_model_qp(&f->qp), k2,
                                    true, &st));
    assert_int_equal(st, E810_AE_AMP_INVALIDATE_TYPE1_MW);
    inv.raw[1] = k2;
    idx = dp_post_send(&f->qp, &inv);
    wqe_fails(f, &f->qp, idx, E810_AE_AMP_INVALIDATE_TYPE1_MW,
              E810_FLUSH_PROT_ERR);
    /* Still bound. */
    assert_true(rw(f, &f->qp2, k2, f->buf, out, 4, E810_MEM_REMOTE_READ,
                   &st));
}

/* Every bind refusal: the AE, and MW_BIND_ERR (a PD mismatch: PROT_ERR,
 * as for every other local memory-protection AE). */
static void bind_fails(Fix *f, bool binden, uint32_t mw, uint32_t mr,
                       uint64_t va, uint64_t len, uint8_t rights, bool type1,
                       bool zero_based, uint16_t code)
{
    DpQp qp;
    uint32_t idx;

    qp_bind_rts(f, &qp, binden);
    idx = post_bind(&qp, mw, mr, va, len, rights, type1, zero_based);
    wqe_fails(f, &qp, idx, code, code == E810_AE_AMP_BAD_PD ?
              E810_FLUSH_PROT_ERR : E810_FLUSH_MW_BIND_ERR);
}

static void test_bind_errors(void **state)
{
    Fix *f = *state;
    uint32_t t2 = mw_alloc(f, DP_PD, false, 0x11);
    uint32_t t1 = mw_alloc(f, DP_PD, true, 0x12);
    uint32_t other_pd = mw_alloc(f, DP_PD + 1, false, 0x13);
    uint32_t nobind = dp_mr_buf(&f->dev, DP_PD, f->buf, BUF_LEN, RW_ALL);
    uint32_t ro = dp_mr_buf(&f->dev, DP_PD, f->buf, BUF_LEN,
                            E810_ACCESS_LOCAL_READ | E810_ACCESS_BIND_WINDOW);
    uint32_t mr_pd = dp_mr_buf(&f->dev, DP_PD + 1, f->buf, BUF_LEN, RW_BIND);
    uint64_t b = f->buf;
    uint8_t x[4];
    uint16_t st;

    /* The parent lacks IB_ACCESS_MW_BIND. */
    bind_fails(f, true, t2, nobind, b, 16, W_RD, false, false,
               E810_AE_AMP_MWBIND_INVALID_RIGHTS);
    /* Remote write over memory the parent does not let be written. */
    bind_fails(f, true, t2, ro, b, 16, W_WR, false, false,
               E810_AE_AMP_MWBIND_INVALID_RIGHTS);
    /* Beyond the parent, before it, and wrapping. */
    bind_fails(f, true, t2, f->mr, b + BUF_LEN - 8, 16, W_RD, false, false,
               E810_AE_AMP_MWBIND_INVALID_BOUNDS);
    bind_fails(f, true, t2, f->mr, b - 8, 16, W_RD, false, false,
               E810_AE_AMP_MWBIND_INVALID_BOUNDS);
    bind_fails(f, true, t2, f->mr, b + 8, ~0ull, W_RD, false, false,
               E810_AE_AMP_MWBIND_INVALID_BOUNDS);
    /* Type bit not the allocated type; zero-based type 1. */
    bind_fails(f, true, t2, f->mr, b, 16, W_RD, true, false,
               E810_AE_AMP_MWBIND_WRONG_TYPE);
    bind_fails(f, true, t1, f->mr, 0, 16, W_RD, true, true,
               E810_AE_AMP_MWBIND_ZERO_BASED_TYPE1_MW);
    /* The window STag names an MR; the parent STag names a window, an
     * unallocated slot, or carries a wrong key. */
    bind_fails(f, true, nobind, f->mr, b, 16, W_RD, false, false,
               E810_AE_AMP_MWBIND_OF_MR_STAG);
    bind_fails(f, true, t2, t1, b, 16, W_RD, false, false,
               E810_AE_AMP_MWBIND_TO_MW_STAG);
    bind_fails(f, true, t2, (f->dev.next_stag + 5) << 8, b, 16, W_RD, false,
               false, E810_AE_AMP_MWBIND_TO_INVALID_PARENT);
    bind_fails(f, true, t2, f->mr ^ 0x40, b, 16, W_RD, false, false,
               E810_AE_AMP_MWBIND_TO_INVALID_PARENT);
    /* PDs: the window's, the parent's. */
    bind_fails(f, true, other_pd, f->mr, b, 16, W_RD, false, false,
               E810_AE_AMP_BAD_PD);
    bind_fails(f, true, t2, mr_pd, b, 16, W_RD, false, false,
               E810_AE_AMP_BAD_PD);
    /* A QP without BINDEN in its context. */
    bind_fails(f, false, t2, f->mr, b, 16, W_RD, false, false,
               E810_AE_AMP_MWBIND_BIND_DISABLED);
    /* Local rights in a window. */
    bind_fails(f, true, t2, f->mr, b, 16, W_RD | E810_ACCESS_LOCAL_WRITE,
               false, false, E810_AE_AMP_MWBIND_INVALID_RIGHTS);
    /* None of it bound anything. */
    assert_false(rw(f, &f->qp, t2, b, x, 4, E810_MEM_REMOTE_READ, &st));
    assert_int_equal(st, E810_AE_AMP_INVALID_STAG);
    assert_int_equal(f->h->core.rdma.mr[f->mr >> 8].bound_mws, 0);

    /* Type 2 bound twice without an invalidation in between. */
    bind_ok(f, &f->qp, t2, f->mr, b, 16, W_RD, false, false);
    bind_fails(f, true, t2, f->mr, b, 32, W_RD, false, false,
               E810_AE_AMP_MWBIND_VALID_STAG);
    /* The first binding is intact. */
    assert_true(rw(f, &f->qp, t2, b, x, 4, E810_MEM_REMOTE_READ, &st));
}

/* DEALLOC_STAG of a parent with windows bound takes the windows with it;
 * DEALLOC of a bound window releases its parent. */
static void test_dealloc_bound(void **state)
{
    Fix *f = *state;
    uint32_t t1 = mw_alloc(f, DP_PD, true, 0x50) + 1;
    uint32_t t2 = mw_alloc(f, DP_PD, false, 0x51);
    uint32_t mr2 = dp_mr_buf(&f->dev, DP_PD, f->buf, BUF_LEN, RW_BIND);
    uint8_t x[4];
    uint16_t st;

    bind_ok(f, &f->qp, t1, f->mr, f->buf, 64, W_RD, true, false);
    bind_ok(f, &f->qp, t2, f->mr, f->buf, 64, W_RD, false, false);
    assert_true(stag_dealloc(f, f->mr, true));
    assert_false(rw(f, &f->qp, t1, f->buf, x, 4, E810_MEM_REMOTE_READ, &st));
    assert_int_equal(st, E810_AE_AMP_INVALID_STAG);
    assert_false(rw(f, &f->qp, t2, f->buf, x, 4, E810_MEM_REMOTE_READ, &st));
    assert_int_equal(st, E810_AE_AMP_INVALID_STAG);

    /* Both rebindable elsewhere; a bound window's DEALLOC frees it. */
    bind_ok(f, &f->qp, t2, mr2, f->buf, 64, W_RD, false, false);
    assert_int_equal(f->h->core.rdma.mr[mr2 >> 8].bound_mws, 1);
    assert_true(stag_dealloc(f, t2, false));
    assert_int_equal(f->h->core.rdma.mr[mr2 >> 8].bound_mws, 0);
    assert_false(rw(f, &f->qp, t2, f->buf, x, 4, E810_MEM_REMOTE_READ, &st));
    assert_int_equal(st, E810_AE_AMP_UNALLOCATED_STAG);
    assert_true(stag_dealloc(f, t1, false));
    assert_true(stag_dealloc(f, mr2, true));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_alloc_dealloc, setup, teardown),
        cmocka_unit_test_setup_teardown(test_type2_remote_access, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_type2_zero_based, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_type2_invalidate, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_type1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bind_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dealloc_bound, setup, teardown),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
