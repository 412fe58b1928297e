/*
 * Device model, data path: the queue/memory layer with the real RoCEv2
 * transport, two RC QPs of one device talking through loopback (the ARP
 * entry names the device's own MAC). Checks that the e810_dp.h contract
 * holds end to end: SEND into a posted receive, RDMA WRITE with immediate,
 * RDMA READ, payloads byte for byte and the CQEs on both sides. The
 * transport's own rules are tested by its tests; this is the seam.
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
#define LEN     5000        /* five 1024-byte packets */

typedef struct Fix {
    Harness *h;
    DpDev dev;
    DpCq scq, rcq;
    DpQp a, b;
    uint64_t abuf, bbuf;
    uint32_t akey, bkey;
} Fix;

static void connect(DpQp *qp, uint32_t dest)
{
    uint64_t *c = dp_qp_ctx(qp);

    c[E810_QW(E810_QPC_DEST_OFF)] =
        htole64(FIELD_PREP(E810_QPC_DESTQP, dest) |
                FIELD_PREP(E810_QPC_QKEY, 0));
    c[E810_QW(E810_QPC_DESTIP23_OFF)] =
        htole64(FIELD_PREP(E810_QPC_IP_LO, 0x0a000001));
    c[E810_QW(E810_QPC_LOCALIP23_OFF)] =
        htole64(FIELD_PREP(E810_QPC_IP_LO, 0x0a000001));
    /* ARP index 0 (MSS qword ARPIDX), path MTU 1024. */
    c[E810_QW(E810_QPC_MSS_OFF)] = htole64(FIELD_PREP(E810_QPC_SNDMSS, 1024));
    dp_qp_rts(qp);
}

static int setup(void **state)
{
    Fix *f = calloc(1, sizeof(*f));
    uint64_t q[8] = { 0 }, mac = 0;
    unsigned i;

    f->h = harness_new(0);
    dp_dev_init(&f->dev, f->h);
    for (i = 0; i < 6; i++) {
        mac = mac << 8 | f->h->core.mac[i];
    }
    q[E810_QW(E810_CQPSQ_MAT_MAC_OFF)] = mac;
    assert_true(rd_do(&f->dev.d, E810_CQP_OP_MANAGE_ARP,
                      FIELD_PREP(E810_CQPSQ_MAT_ARPENTRYIDX, 0) |
                      E810_CQPSQ_MAT_ENTRYVALID, q));
    dp_cq_create(&f->dev, &f->scq, 64);
    dp_cq_create(&f->dev, &f->rcq, 64);
    dp_qp_create(&f->dev, &f->a, E810_QP_TYPE_ROCE_RC, &f->scq, &f->rcq, 64,
                 16, 1, false, false);
    dp_qp_create(&f->dev, &f->b, E810_QP_TYPE_ROCE_RC, &f->scq, &f->rcq, 64,
                 16, 1, true, false);
    connect(&f->a, f->b.id);
    connect(&f->b, f->a.id);
    f->abuf = mem_alloc_aligned(f->h, 3 * 4096, 4096);
    f->bbuf = mem_alloc_aligned(f->h, 3 * 4096, 4096);
    f->akey = dp_mr_buf(&f->dev, DP_PD, f->abuf, 3 * 4096, RW_ALL);
    f->bkey = dp_mr_buf(&f->dev, DP_PD, f->bbuf, 3 * 4096, RW_ALL);
    for (i = 0; i < LEN; i++) {
        ((uint8_t *)mem_ptr(f->h, f->abuf))[i] = (uint8_t)(i * 7 + 3);
    }
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

/* Two more RC QPs of the device, connected to each other. */
static void qp_pair(Fix *f, DpQp *c, DpQp *d, bool kernel)
{
    dp_qp_create(&f->dev, c, E810_QP_TYPE_ROCE_RC, &f->scq, &f->rcq, 64, 16,
                 1, false, kernel);
    dp_qp_create(&f->dev, d, E810_QP_TYPE_ROCE_RC, &f->scq, &f->rcq, 64, 16,
                 1, false, kernel);
    connect(c, d->id);
    connect(d, c->id);
}

/* Collects CQEs until @want arrived (the work may need several runs). */
static unsigned poll_all(Fix *f, DpCq *cq, DpCqe *e, unsigned want)
{
    unsigned n = 0, tries;

    for (tries = 0; tries < 100 && n < want; tries++) {
        dp_run(&f->dev);
        while (n < want && dp_poll_cq(cq, &e[n])) {
            n++;
        }
    }
    return n;
}

static void send_recv(Fix *f, uint32_t len)
{
    E810Sge r = { .addr = f->bbuf + 10, .len = 3 * 4096 - 10,
                  .lkey = f->bkey };
    DpSend s = { .op = E810_OP_SEND, .signaled = true, .nsge = 2 };
    uint32_t ridx, sidx, first = len / 3;
    DpCqe e[2];

    s.sge[0] = (E810Sge){ .addr = f->abuf, .len = first, .lkey = f->akey };
    s.sge[1] = (E810Sge){ .addr = f->abuf + first, .len = len - first,
                          .lkey = f->akey };
    ridx = dp_post_recv(&f->b, &r, 1);
    sidx = dp_post_send(&f->a, &s);
    dp_ring(&f->a, false);
    assert_int_equal(poll_all(f, &f->rcq, e, 1), 1);
    assert_false(e[0].error);
    assert_int_equal(e[0].qp_id, f->b.id);
    assert_int_equal(e[0].wqe_idx, ridx);
    assert_int_equal(e[0].len, len);
    assert_memory_equal(mem_ptr(f->h, f->bbuf + 10), mem_ptr(f->h, f->abuf),
                        len);
    assert_int_equal(poll_all(f, &f->scq, e, 1), 1);
    assert_false(e[0].error);
    assert_true(e[0].sq);
    assert_int_equal(e[0].qp_id, f->a.id);
    assert_int_equal(e[0].wqe_idx, sidx);
    assert_int_equal(e[0].op, E810_OP_SEND);
}

static void test_send_recv_one_packet(void **state)
{
    send_recv(*state, 1000);
}

static void test_send_recv_multi_packet(void **state)
{
    send_recv(*state, LEN);
}

static void write_read(Fix *f, uint32_t wlen, uint32_t rlen)
{
    E810Sge r = { 0 };
    DpSend w = { .op = E810_OP_RDMA_WRITE, .signaled = true, .nsge = 1,
                 .imm_valid = true, .imm = 0x600dbeef, .rkey = f->bkey,
                 .remote_va = f->bbuf + 4096 };
    DpSend rd = { .op = E810_OP_RDMA_READ, .signaled = true, .nsge = 1,
                  .rkey = f->bkey, .remote_va = f->bbuf + 4096 };
    DpCqe e[2];
    unsigned n;

    w.sge[0] = (E810Sge){ .addr = f->abuf, .len = wlen, .lkey = f->akey };
    rd.sge[0] = (E810Sge){ .addr = f->abuf + 6000, .len = rlen,
                           .lkey = f->akey };
    dp_post_recv(&f->b, &r, 0);         /* consumed by the immediate */
    dp_post_send(&f->a, &w);
    dp_post_send(&f->a, &rd);
    dp_ring(&f->a, false);
    n = poll_all(f, &f->scq, e, 2);
    assert_int_equal(n, 2);
    assert_false(e[0].error);
    assert_int_equal(e[0].op, E810_OP_RDMA_WRITE);
    assert_int_equal(e[0].qp_id, f->a.id);
    assert_false(e[1].error);
    assert_int_equal(e[1].op, E810_OP_RDMA_READ);
    assert_memory_equal(mem_ptr(f->h, f->bbuf + 4096), mem_ptr(f->h, f->abuf),
                        wlen);
    assert_memory_equal(mem_ptr(f->h, f->abuf + 6000), mem_ptr(f->h, f->abuf),
                        rlen);
    assert_int_equal(poll_all(f, &f->rcq, e, 1), 1);
    assert_false(e[0].error);
    assert_true(e[0].imm_valid);
    assert_int_equal(e[0].imm, 0x600dbeef);
    assert_int_equal(e[0].len, wlen);   /* as rxe: the WRITE length */
}

static void test_write_imm_read_one_packet(void **state)
{
    write_read(*state, 1000, 800);
}

static void test_write_imm_read_multi_packet(void **state)
{
    write_read(*state, LEN, 3000);
}

/* A WRITE to a bad rkey: the requester's WQE fails with REM_ACCESS. */
static void test_bad_rkey(void **state)
{
    Fix *f = *state;
    DpSend w = { .op = E810_OP_RDMA_WRITE, .signaled = true, .nsge = 1,
                 .rkey = f->bkey ^ 0x40, .remote_va = f->bbuf };
    uint32_t idx;
    DpCqe e[2];
    DpAe ae;

    w.sge[0] = (E810Sge){ .addr = f->abuf, .len = 64, .lkey = f->akey };
    idx = dp_post_send(&f->a, &w);
    dp_ring(&f->a, false);
    assert_int_equal(poll_all(f, &f->scq, e, 1), 1);
    assert_true(e[0].error);
    assert_int_equal(e[0].major, E810_CQE_MAJ_FLUSH);
    assert_int_equal(e[0].minor, E810_FLUSH_REM_ACCESS_ERR);
    assert_int_equal(e[0].wqe_idx, idx);
    /* Both QPs raised their AE. */
    assert_true(dp_poll_ae(&f->dev, &ae));
    assert_true(ae.id == f->a.id || ae.id == f->b.id);
}

/*
 * IB_WR_RDMA_READ_WITH_INV as irdma_post_send() posts it on a kernel QP
 * (irdma_uk_rdma_read() with inv_stag: opcode RDMA_READ_LOC_INV, nothing
 * else changes): the data lands in the fast-registered sink and the sink's
 * STag is invalid afterwards. A plain READ into the same sink leaves it
 * valid; a user QP may not post the opcode.
 */
static void test_read_with_local_inv(void **state)
{
    Fix *f = *state;
    DpQp c, d;
    uint64_t page = f->abuf + 8192, va = 0x500000;
    uint32_t sink = dp_mr_alloc(&f->dev, DP_PD, 0x51);
    uint32_t first = dp_pble_write(&f->dev, &page, 1);
    DpSend fr = dp_fast_reg(sink, va, first, 0, 4096, RW_ALL,
                            E810_LPBL_LEVEL1);
    DpSend rd = { .op = E810_OP_RDMA_READ, .signaled = true, .nsge = 1,
                  .rkey = f->bkey, .remote_va = f->bbuf + 100 };
    uint8_t *src = mem_ptr(f->h, f->bbuf + 100);
    uint8_t *dst = mem_ptr(f->h, page + 16);
    uint8_t b[8];
    uint32_t idx;
    uint16_t st;
    unsigned i;
    DpCqe e[2];
    DpAe ae;

    qp_pair(f, &c, &d, true);
    for (i = 0; i < 3000; i++) {
        src[i] = (uint8_t)(i * 13 + 5);
    }
    rd.sge[0] = (E810Sge){ .addr = va + 16, .len = 3000, .lkey = sink };
    dp_post_send(&c, &fr);
    dp_post_send(&c, &rd);
    dp_ring(&c, true);
    assert_int_equal(poll_all(f, &f->scq, e, 2), 2);
    assert_false(e[0].error);
    assert_int_equal(e[0].op, E810_OP_FAST_REG);
    assert_false(e[1].error);
    assert_int_equal(e[1].op, E810_OP_RDMA_READ);
    assert_memory_equal(dst, src, 3000);
    assert_true(e810_mem_access(&f->h->core, dp_model_qp(&c), sink, va, b,
                                sizeof(b), E810_MEM_LOCAL_WRITE, &st));

    memset(dst, 0, 3000);
    rd.op = E810_OP_RDMA_READ_LOC_INV;
    idx = dp_post_send(&c, &rd);
    dp_ring(&c, true);
    assert_int_equal(poll_all(f, &f->scq, e, 1), 1);
    assert_false(e[0].error);
    assert_int_equal(e[0].op, E810_OP_RDMA_READ_LOC_INV);
    assert_int_equal(e[0].wqe_idx, idx);
    assert_memory_equal(dst, src, 3000);
    assert_false(e810_mem_access(&f->h->core, dp_model_qp(&c), sink, va, b,
                                 sizeof(b), E810_MEM_LOCAL_WRITE, &st));
    assert_int_equal(st, E810_AE_AMP_INVALID_STAG);
    /* Registered again, the STag works again: only its validity went. */
    fr = dp_fast_reg((sink & ~0xffu) | 0x52, va, first, 0, 4096, RW_ALL,
                     E810_LPBL_LEVEL1);
    dp_post_send(&c, &fr);
    dp_ring(&c, true);
    assert_int_equal(poll_all(f, &f->scq, e, 1), 1);
    assert_false(e[0].error);

    /* A user QP: the WQE is refused (the QP goes to error). */
    rd.sge[0] = (E810Sge){ .addr = f->abuf, .len = 64, .lkey = f->akey };
    idx = dp_post_send(&f->a, &rd);
    dp_ring(&f->a, false);
    assert_int_equal(poll_all(f, &f->scq, e, 1), 1);
    assert_true(e[0].error);
    assert_int_equal(e[0].wqe_idx, idx);
    /* A local AMP error: protection error (e810_dp_qp_fatal()). */
    assert_int_equal(e[0].minor, E810_FLUSH_PROT_ERR);
    assert_true(dp_poll_ae(&f->dev, &ae));
    assert_int_equal(ae.id, f->a.id);
    assert_int_equal(ae.code, E810_AE_PRIV_OPERATION_DENIED);
}

/*
 * FAST_REG_MR of an STag laid out as upstream irdma builds it
 * (irdma_create_stag(): random driver-key bits above the MR table's index
 * bits; irdma_post_send() puts STag >> 8 in the WQE's STag index field for
 * IB_WR_REG_MR): the MR is the one at the masked index, as for REG_MR.
 * The pattern of iSER: the target fast-registers its buffer, the
 * initiator WRITEs into it and READs it back into a fast-registered sink
 * of its own, the target invalidates its STag locally and a WRITE through
 * it fails.
 */
static void test_fast_reg_driver_key(void **state)
{
    Fix *f = *state;
    uint32_t nmr = e810_hmc_count(&f->h->core, E810_HMC_MR);
    uint64_t tpage = f->bbuf + 8192, spage = f->abuf + 8192;
    uint64_t tva = 0x600000, sva = 0x700000;
    uint32_t tgt, sink, drv_mask, tidx;
    unsigned bits = 14;
    DpSend fr, inv = { .op = E810_OP_LOCAL_INV, .signaled = true };
    DpSend w = { .op = E810_OP_RDMA_WRITE, .signaled = true, .nsge = 1,
                 .remote_va = tva + 100 };
    DpSend rd = { .op = E810_OP_RDMA_READ, .signaled = true, .nsge = 1,
                  .remote_va = tva + 100 };
    uint8_t *src = mem_ptr(f->h, f->abuf);
    DpQp c, d;
    DpCqe e[3];
    DpAe ae;

    while ((1u << bits) < nmr) {
        bits++;
    }
    drv_mask = ~((1u << (8 + bits)) - 1);
    assert_true(drv_mask);
    qp_pair(f, &c, &d, true);
    tgt = dp_mr_alloc_drv(&f->dev, DP_PD, 0xa5a5a5a5u & drv_mask, 0x61);
    sink = dp_mr_alloc_drv(&f->dev, DP_PD, 0x5a5a5a5au & drv_mask, 0x62);
    assert_true(tgt & drv_mask);
    assert_true(sink & drv_mask);

    /* The target registers its page; no AE, a plain completion. */
    fr = dp_fast_reg(tgt, tva, dp_pble_write(&f->dev, &tpage, 1), 0, 4096,
                     RW_ALL, E810_LPBL_LEVEL1);
    tidx = dp_post_send(&d, &fr);
    dp_ring(&d, true);
    assert_int_equal(poll_all(f, &f->scq, e, 1), 1);
    assert_false(dp_poll_ae(&f->dev, &ae));
    assert_false(e[0].error);
    assert_int_equal(e[0].op, E810_OP_FAST_REG);
    assert_int_equal(e[0].qp_id, d.id);
    assert_int_equal(e[0].wqe_idx, tidx);

    /* The initiator: its sink, a WRITE and a READ through the rkey. */
    fr = dp_fast_reg(sink, sva, dp_pble_write(&f->dev, &spage, 1), 0, 4096,
                     RW_ALL, E810_LPBL_LEVEL1);
    w.rkey = tgt;
    w.sge[0] = (E810Sge){ .addr = f->abuf, .len = 3000, .lkey = f->akey };
    rd.rkey = tgt;
    rd.sge[0] = (E810Sge){ .addr = sva + 16, .len = 3000, .lkey = sink };
    dp_post_send(&c, &fr);
    dp_post_send(&c, &w);
    dp_post_send(&c, &rd);
    dp_ring(&c, true);
    assert_int_equal(poll_all(f, &f->scq, e, 3), 3);
    assert_false(dp_poll_ae(&f->dev, &ae));
    assert_false(e[0].error);
    assert_int_equal(e[0].op, E810_OP_FAST_REG);
    assert_false(e[1].error);
    assert_int_equal(e[1].op, E810_OP_RDMA_WRITE);
    assert_false(e[2].error);
    assert_int_equal(e[2].op, E810_OP_RDMA_READ);
    assert_memory_equal(mem_ptr(f->h, tpage + 100), src, 3000);
    assert_memory_equal(mem_ptr(f->h, spage + 16), src, 3000);

    /* The target invalidates the STag; the next WRITE to it fails. */
    inv.raw[1] = tgt;
    dp_post_send(&d, &inv);
    dp_ring(&d, true);
    assert_int_equal(poll_all(f, &f->scq, e, 1), 1);
    assert_false(e[0].error);
    assert_int_equal(e[0].op, E810_OP_LOCAL_INV);
    dp_post_send(&c, &w);
    dp_ring(&c, true);
    assert_int_equal(poll_all(f, &f->scq, e, 1), 1);
    assert_true(e[0].error);
    assert_int_equal(e[0].minor, E810_FLUSH_REM_ACCESS_ERR);
}

/*
 * SEND with Invalidate: the responder invalidates the IETH's STag before
 * the receive completes and names it in the CQE. An STag the responder
 * does not have fails the message there (its receive completes in error)
 * and the requester gets a remote access error.
 */
static void test_send_with_invalidate(void **state)
{
    Fix *f = *state;
    uint32_t target = dp_mr_buf(&f->dev, DP_PD, f->bbuf + 8192, 4096, RW_ALL);
    E810Sge r = { .addr = f->bbuf, .len = 4096, .lkey = f->bkey };
    DpSend s = { .op = E810_OP_SEND_INV, .signaled = true, .nsge = 1,
                 .rkey = target };
    uint8_t b[8];
    uint16_t st;
    DpCqe e[2];

    s.sge[0] = (E810Sge){ .addr = f->abuf, .len = 100, .lkey = f->akey };
    assert_true(e810_mem_access(&f->h->core, dp_model_qp(&f->b), target,
                                f->bbuf + 8192, b, sizeof(b),
                                E810_MEM_REMOTE_WRITE, &st));
    dp_post_recv(&f->b, &r, 1);
    dp_post_send(&f->a, &s);
    dp_ring(&f->a, false);
    assert_int_equal(poll_all(f, &f->rcq, e, 1), 1);
    assert_false(e[0].error);
    assert_int_equal(e[0].len, 100);
    assert_true(e[0].stag_or_ipv4);
    assert_int_equal(e[0].q2_low, target);
    assert_int_equal(poll_all(f, &f->scq, e, 1), 1);
    assert_false(e[0].error);
    assert_false(e810_mem_access(&f->h->core, dp_model_qp(&f->b), target,
                                 f->bbuf + 8192, b, sizeof(b),
                                 E810_MEM_REMOTE_WRITE, &st));
    assert_int_equal(st, E810_AE_AMP_INVALID_STAG);

    s.rkey = 0xfffff00;     /* an index beyond the MR table */
    dp_post_recv(&f->b, &r, 1);
    dp_post_send(&f->a, &s);
    dp_ring(&f->a, false);
    assert_int_equal(poll_all(f, &f->rcq, e, 1), 1);
    assert_true(e[0].error);
    assert_int_equal(poll_all(f, &f->scq, e, 1), 1);
    assert_true(e[0].error);
    assert_int_equal(e[0].minor, E810_FLUSH_REM_ACCESS_ERR);
}

/*
 * PBLEs read ahead are good for one message only: the driver rewrites a
 * fast-registered MR's PBLE (the READ before invalidated it) and
 * registers it again (FAST_REG), and the next READ lands in the new page,
 * not in the one the old entry named.
 */
static void test_pble_cache_refreshed(void **state)
{
    Fix *f = *state;
    uint64_t pg[2] = { f->abuf + 8192, f->bbuf + 8192 }, va = 0x700000;
    uint32_t sink = dp_mr_alloc(&f->dev, DP_PD, 0x61);
    uint32_t first = dp_pble_write(&f->dev, &pg[0], 1);
    DpSend rd = { .op = E810_OP_RDMA_READ_LOC_INV, .signaled = true, .nsge = 1,
                  .rkey = f->bkey, .remote_va = f->bbuf + 100 };
    uint8_t *src = mem_ptr(f->h, f->bbuf + 100);
    DpSend fr;
    DpQp c, d;
    DpCqe e[2];
    unsigned i, k;

    qp_pair(f, &c, &d, true);
    for (i = 0; i < 2000; i++) {
        src[i] = (uint8_t)(i * 5 + 1);
    }
    for (k = 0; k < 2; k++) {
        uint32_t key = (sink & ~0xffu) | (0x61 + k);

        memset(mem_ptr(f->h, pg[0]), 0, 4096);
        memset(mem_ptr(f->h, pg[1]), 0, 4096);
        rd_set64(&f->dev.d, rd_back_object(&f->dev.d, E810_HMC_PBLE, first),
                 pg[k]);
        fr = dp_fast_reg(key, va, first, 0, 4096, RW_ALL, E810_LPBL_LEVEL1);
        rd.sge[0] = (E810Sge){ .addr = va + 8, .len = 2000, .lkey = key };
        dp_post_send(&c, &fr);
        dp_post_send(&c, &rd);
        dp_ring(&c, true);
        assert_int_equal(poll_all(f, &f->scq, e, 2), 2);
        assert_false(e[0].error);
        assert_false(e[1].error);
        assert_memory_equal(mem_ptr(f->h, pg[k] + 8), src, 2000);
        assert_int_equal(((uint8_t *)mem_ptr(f->h, pg[1 - k] + 8))[1],
                         0);
    }
}

/*
 * The payload by reference (E810CoreOps.dma_map): with direct maps the
 * loopback frames carry it in place; maps cut short or failing fall back
 * to the copy, with the same bytes and CQEs. Every map is given back.
 */
static void map_mode_round(Fix *f, int mode)
{
    unsigned long calls = f->h->map_calls;

    f->h->map_mode = mode;
    memset(mem_ptr(f->h, f->bbuf), 0, 3 * 4096);
    memset(mem_ptr(f->h, f->abuf + 6000), 0, 3000);
    send_recv(f, LEN);
    write_read(f, LEN, 3000);
    assert_true(f->h->map_calls > calls);
    assert_int_equal(f->h->maps_live, 0);
}

static void test_map_direct(void **state)
{
    map_mode_round(*state, HARNESS_MAP_DIRECT);
}

static void test_map_short(void **state)
{
    map_mode_round(*state, HARNESS_MAP_SHORT);
}

static void test_map_fail(void **state)
{
    map_mode_round(*state, HARNESS_MAP_FAIL);
}

/*
 * A bad lkey fails the same way whether the payload would have been
 * mapped or copied: the checks run before any map.
 */
static void test_map_bad_lkey(void **state)
{
    Fix *f = *state;
    int modes[2] = { HARNESS_MAP_DIRECT, HARNESS_MAP_FAIL };
    unsigned minor[2], i;

    for (i = 0; i < 2; i++) {
        DpSend w = { .op = E810_OP_RDMA_WRITE, .signaled = true, .nsge = 1,
                     .rkey = f->bkey, .remote_va = f->bbuf };
        DpQp c, d;
        DpCqe e;

        f->h->map_mode = modes[i];
        qp_pair(f, &c, &d, false);
        w.sge[0] = (E810Sge){ .addr = f->abuf, .len = 2048,
                              .lkey = f->akey ^ 0x40 };
        dp_post_send(&c, &w);
        dp_ring(&c, false);
        assert_int_equal(poll_all(f, &f->scq, &e, 1), 1);
        assert_true(e.error);
        minor[i] = e.minor;
        assert_int_equal(f->h->maps_live, 0);
    }
    assert_int_equal(minor[0], minor[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_send_recv_one_packet, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_send_with_invalidate, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_send_recv_multi_packet, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_write_imm_read_one_packet,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_imm_read_multi_packet,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_rkey, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pble_cache_refreshed, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_map_direct, setup, teardown),
        cmocka_unit_test_setup_teardown(test_map_short, setup, teardown),
        cmocka_unit_test_setup_teardown(test_map_fail, setup, teardown),
        cmocka_unit_test_setup_teardown(test_map_bad_lkey, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_with_local_inv, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_fast_reg_driver_key, setup,
                                        teardown),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
