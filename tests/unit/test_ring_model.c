/*
 * The shared ring layer (lib/irdma-ring/: the kernel's and the provider's
 * one copy) with the device model as its consumer: WQEs the layer writes
 * are fetched and executed by the model core, two RC QPs of one device in
 * loopback, and the CQEs the model writes are polled back through the
 * layer. SEND with SGEs and immediate, RDMA WRITE with immediate, RDMA
 * READ, inline data of every quanta count, FAST_REG, BIND_MW, and a long
 * run of mixed WQE sizes that wraps the SQ with NOP padding and
 * ahead-clearing in both polarities.
 *
 * The layer is built with E810U_TEST_STORE_HOOK: after every qword it
 * stores into a ring the device is told (doorbell) and runs, as hardware
 * may fetch at any moment. A WQE whose header turns valid before its body
 * is complete is then executed half written. The RQ has no doorbell: a
 * receive WQE is taken when a message arrives, so test_rq_early_header
 * has a SEND arrive (an RNR retry) after every qword of a receive post.
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
#include "e810_xport.h"
#include "dp_driver.h"
#include "ring.h"

#define RW_ALL  (E810_ACCESS_LOCAL_READ | E810_ACCESS_LOCAL_WRITE | \
                 E810_ACCESS_REMOTE_READ | E810_ACCESS_REMOTE_WRITE)
#define SQ_QUANTA   512         /* the layer keeps 257 quanta of slack */
#define RQ_ENTRIES  64
#define RQ_SHIFT    2           /* 128-byte RQ WQEs: up to 7 SGEs */
#define CQ_SIZE     256
#define BUF_LEN     (16 * 4096)
/* Longer than any RNR NAK delay (E810_XPORT_RNR_TIMER, IB's 655 ms top) */
#define RNR_WAIT_NS 1000000000ull

/* One QP of the device as the layer sees it. */
typedef struct RingQp {
    DpQp dp;
    struct e810u_qp uk;
    uint32_t db;                /* the layer's doorbell write lands here */
} RingQp;

typedef struct Fix {
    Harness *h;
    DpDev dev;
    DpCq dscq, drcq;
    struct e810u_cq scq, rcq;
    uint32_t arm_db;
    RingQp a, b;
    uint64_t abuf, bbuf;
    uint32_t akey, bkey;
    bool race;                  /* run the device after every ring store */
    bool rq_arrivals;           /* ... and let an RNR retry arrive first */
    bool in_hook;
    unsigned hook_runs;
} Fix;

static Fix *cur;

/* The device's view after every qword the layer stores (ring_os.h). */
void e810u_test_store(void *base, size_t off)
{
    RingQp *qps[2];
    unsigned i;

    (void)off;
    if (!cur || !cur->race || cur->in_hook) {
        return;
    }
    cur->in_hook = true;
    qps[0] = &cur->a;
    qps[1] = &cur->b;
    for (i = 0; i < 2; i++) {
        const struct e810u_qp *uk = &qps[i]->uk;
        uint8_t *sq = uk->sq, *rq = uk->rq;

        if ((uint8_t *)base >= sq &&
            (uint8_t *)base < sq + (size_t)SQ_QUANTA * E810_WQE_QUANTUM) {
            dp_ring(&qps[i]->dp, true);
        }
        /* a message waiting on RNR comes again: the RQ is read now */
        if (cur->rq_arrivals && (uint8_t *)base >= rq &&
            (uint8_t *)base < rq + ((size_t)uk->rq_size <<
                                    (uk->rq_shift + E810_WQE_QUANTUM_SHIFT))) {
            harness_advance(cur->h, RNR_WAIT_NS);
        }
    }
    dp_run(&cur->dev);
    cur->hook_runs++;
    cur->in_hook = false;
}

static void connect(DpQp *qp, uint32_t dest, const struct e810u_qp *uk)
{
    uint64_t *c = dp_qp_ctx(qp);

    c[E810_QW(E810_QPC_DEST_OFF)] =
        htole64(FIELD_PREP(E810_QPC_DESTQP, dest) |
                FIELD_PREP(E810_QPC_QKEY, 0));
    c[E810_QW(E810_QPC_DESTIP23_OFF)] =
        htole64(FIELD_PREP(E810_QPC_IP_LO, 0x0a000001));
    c[E810_QW(E810_QPC_LOCALIP23_OFF)] =
        htole64(FIELD_PREP(E810_QPC_IP_LO, 0x0a000001));
    c[E810_QW(E810_QPC_MSS_OFF)] = htole64(FIELD_PREP(E810_QPC_SNDMSS, 1024));
    /* The completion context is the layer's QP, as the provider sets it;
     * windows may be bound (irdma's BINDEN). */
    c[E810_QW(E810_QPC_COMPL_CTX_OFF)] = htole64((uintptr_t)uk);
    c[E810_QW(E810_QPC_FLAGS_OFF)] =
        htole64(le64toh(c[E810_QW(E810_QPC_FLAGS_OFF)]) | E810_QPC_BINDEN);
    dp_qp_rts(qp);
}

static void ring_qp_init(Fix *f, RingQp *q)
{
    struct e810u_qp *uk = &q->uk;
    DpQp *dp = &q->dp;

    memset(uk, 0, sizeof(*uk));
    uk->sq = mem_ptr(f->h, dp->sq_pa);
    uk->sq_quanta = dp->sq_quanta;
    uk->sq_slots = calloc(dp->sq_quanta, sizeof(*uk->sq_slots));
    uk->max_sq_frags = E810_MAX_FRAGS;
    uk->max_inline = E810_MAX_INLINE;
    uk->rq = mem_ptr(f->h, dp->rq_pa);
    uk->rq_size = dp->rq_entries;
    uk->rq_shift = dp->rq_shift;
    uk->rq_wrid = calloc(dp->rq_entries, sizeof(*uk->rq_wrid));
    uk->max_rq_frags = (2u << dp->rq_shift) - 1;
    uk->shadow = mem_ptr(f->h, dp->shadow_pa);
    uk->qp_id = dp->id;
    uk->priv = true;
    uk->sq_db = &q->db;
    e810u_qp_reset(uk);
}

static void ring_cq_init(Fix *f, struct e810u_cq *cq, DpCq *dp)
{
    memset(cq, 0, sizeof(*cq));
    cq->ring.buf = mem_ptr(f->h, dp->ring);
    cq->ring.size = dp->size;
    cq->ring.pol = 1;
    cq->shadow = mem_ptr(f->h, dp->shadow);
    cq->arm_db = &f->arm_db;
    cq->cq_id = dp->id;
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
    dp_cq_create(&f->dev, &f->dscq, CQ_SIZE);
    dp_cq_create(&f->dev, &f->drcq, CQ_SIZE);
    ring_cq_init(f, &f->scq, &f->dscq);
    ring_cq_init(f, &f->rcq, &f->drcq);
    /* Kernel QPs (FASTREGEN): the layer serves both homes. Contiguous
     * rings: the layer sees them through one host pointer each. */
    dp_qp_create(&f->dev, &f->a.dp, E810_QP_TYPE_ROCE_RC, &f->dscq,
                 &f->drcq, SQ_QUANTA, RQ_ENTRIES, RQ_SHIFT, false, true);
    dp_qp_create(&f->dev, &f->b.dp, E810_QP_TYPE_ROCE_RC, &f->dscq,
                 &f->drcq, SQ_QUANTA, RQ_ENTRIES, RQ_SHIFT, false, true);
    ring_qp_init(f, &f->a);
    ring_qp_init(f, &f->b);
    connect(&f->a.dp, f->b.dp.id, &f->a.uk);
    connect(&f->b.dp, f->a.dp.id, &f->b.uk);
    f->abuf = mem_alloc_aligned(f->h, BUF_LEN, 4096);
    f->bbuf = mem_alloc_aligned(f->h, BUF_LEN, 4096);
    f->akey = dp_mr_buf(&f->dev, DP_PD, f->abuf, BUF_LEN,
                        RW_ALL | E810_ACCESS_BIND_WINDOW);
    f->bkey = dp_mr_buf(&f->dev, DP_PD, f->bbuf, BUF_LEN, RW_ALL);
    f->race = true;
    cur = f;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fix *f = *state;

    cur = NULL;
    free(f->a.uk.sq_slots);
    free(f->a.uk.rq_wrid);
    free(f->b.uk.sq_slots);
    free(f->b.uk.rq_wrid);
    harness_free(f->h);
    free(f);
    return 0;
}

static uint8_t *hbuf(Fix *f, uint64_t pa)
{
    return mem_ptr(f->h, pa);
}

static void fill(uint8_t *p, size_t len, unsigned seed)
{
    size_t i;

    for (i = 0; i < len; i++) {
        p[i] = (uint8_t)(i * 13 + seed * 7 + 1);
    }
}

/* Posts through the layer and rings as the provider does. */
static void post(RingQp *q, const struct e810u_swr *wr)
{
    assert_int_equal(e810u_post_send(&q->uk, wr), 0);
}

static void kick(RingQp *q)
{
    if (e810u_sq_kick(&q->uk)) {
        dp_ring(&q->dp, true);
    }
}

/* Collects @want completions of @cq through the layer. */
static unsigned poll_n(Fix *f, struct e810u_cq *cq, struct e810u_cqe *out,
                       unsigned want)
{
    unsigned n = 0, tries;

    for (tries = 0; tries < 200 && n < want; tries++) {
        dp_run(&f->dev);
        while (n < want && e810u_cq_poll_one(cq, &out[n]) == 0) {
            n++;
        }
    }
    return n;
}

static void expect_empty(Fix *f, struct e810u_cq *cq)
{
    struct e810u_cqe c;

    dp_run(&f->dev);
    assert_int_equal(e810u_cq_poll_one(cq, &c), -ENOENT);
}

static void expect_ok(const struct e810u_cqe *c, const RingQp *q,
                      uint64_t wr_id)
{
    assert_int_equal(c->status, E810U_OK);
    assert_ptr_equal(c->qp, &q->uk);
    assert_int_equal(c->qp_id, q->dp.id);
    assert_int_equal(c->wr_id, wr_id);
}

/* A SEND of @nsge SGEs (with immediate data) into a 3-SGE receive. */
static void send_sges(Fix *f, unsigned nsge, uint32_t len, unsigned seed,
                      uint64_t wr_id)
{
    struct e810u_sge r[3], s[E810_MAX_FRAGS];
    struct e810u_swr wr = { .wr_id = wr_id, .op = E810_OP_SEND,
                            .signaled = true, .has_imm = true,
                            .imm = 0xfeed0000 | seed, .sg = s,
                            .num_sge = nsge };
    uint32_t per = len / nsge, done = 0, i;
    struct e810u_cqe c;

    fill(hbuf(f, f->abuf), len, seed);
    for (i = 0; i < nsge; i++) {
        uint32_t n = i + 1 == nsge ? len - done : per;

        /* out of order in the buffer: the fragment order matters */
        s[i] = (struct e810u_sge){ .addr = f->abuf + done, .len = n,
                                   .lkey = f->akey };
        done += n;
    }
    memset(hbuf(f, f->bbuf), 0, BUF_LEN);
    r[0] = (struct e810u_sge){ .addr = f->bbuf + 8000, .len = 7,
                               .lkey = f->bkey };
    r[1] = (struct e810u_sge){ .addr = f->bbuf + 100, .len = 1000,
                               .lkey = f->bkey };
    r[2] = (struct e810u_sge){ .addr = f->bbuf + 20000, .len = 30000,
                               .lkey = f->bkey };
    assert_int_equal(e810u_post_recv(&f->b.uk, wr_id + 1, r, 3), 0);
    post(&f->a, &wr);
    kick(&f->a);
    assert_int_equal(poll_n(f, &f->rcq, &c, 1), 1);
    expect_ok(&c, &f->b, wr_id + 1);
    assert_false(c.sq);
    assert_int_equal(c.bytes, len);
    assert_true(c.imm_valid);
    assert_int_equal(c.imm, 0xfeed0000 | seed);
    assert_memory_equal(hbuf(f, f->bbuf + 8000), hbuf(f, f->abuf),
                        len < 7 ? len : 7);
    if (len > 7) {
        uint32_t n = len - 7 < 1000 ? len - 7 : 1000;

        assert_memory_equal(hbuf(f, f->bbuf + 100), hbuf(f, f->abuf + 7), n);
        if (len > 1007) {
            assert_memory_equal(hbuf(f, f->bbuf + 20000),
                                hbuf(f, f->abuf + 1007), len - 1007);
        }
    }
    assert_int_equal(poll_n(f, &f->scq, &c, 1), 1);
    expect_ok(&c, &f->a, wr_id);
    assert_true(c.sq);
    assert_int_equal(c.op, E810_OP_SEND);
    assert_int_equal(c.bytes, len);
}

/*
 * GEN_1's table entry (X722; upstream i40iw_hw.h, irdma_get_wqe_shift(),
 * irdma_uk_calc_shift_wq()): 3 fragments, 48 inline bytes, no immediate
 * fragment in the SQ shift, 128-byte RQ WQEs, max_qp_wr (2048 - 258) / 2.
 */
static void test_gen1_geometry(void **state)
{
    const struct e810_wq_geom *g = e810u_geom(E810_GEN_1);
    struct e810u_wq_caps caps = {
        .max_send_wr = 8, .max_recv_wr = 8,
        .max_send_sge = 1, .max_recv_sge = 1, .max_inline = 16,
    };
    struct e810u_wq_sizes s;

    (void)state;
    assert_non_null(g);
    assert_int_equal(g->gen, E810_GEN_1);
    assert_int_equal(e810u_max_qp_wr(g), 895);
    assert_int_equal(e810u_wq_sizes(g, &caps, g->min_wq_quanta,
                                    g->max_wq_quanta, g->max_wq_quanta,
                                    false, &s), 0);
    assert_int_equal(s.sq_shift, 0);    /* GEN_2 would take 1 here */
    assert_int_equal(s.rq_shift, 2);
    caps.max_send_sge = 3;
    caps.max_inline = 48;
    assert_int_equal(e810u_wq_sizes(g, &caps, g->min_wq_quanta,
                                    g->max_wq_quanta, g->max_wq_quanta,
                                    false, &s), 0);
    assert_int_equal(s.sq_shift, 1);
    caps.max_inline = 49;
    assert_int_not_equal(e810u_wq_sizes(g, &caps, g->min_wq_quanta,
                                        g->max_wq_quanta, g->max_wq_quanta,
                                        false, &s), 0);
    caps.max_inline = 0;
    caps.max_send_sge = 4;
    assert_int_not_equal(e810u_wq_sizes(g, &caps, g->min_wq_quanta,
                                        g->max_wq_quanta, g->max_wq_quanta,
                                        false, &s), 0);
    /* no extended CQEs: a CQE takes one ring entry */
    assert_int_equal(e810u_cq_entries(g, 99), 100);
}

static void test_send_sges(void **state)
{
    Fix *f = *state;
    unsigned n;

    /* 1..7 SGEs with the immediate: 1 to 5 quanta, even and odd counts */
    for (n = 1; n <= 7; n++) {
        send_sges(f, n, 3000 + n, n, 100 * n);
    }
    assert_true(f->hook_runs > 0);
    expect_empty(f, &f->scq);
    expect_empty(f, &f->rcq);
}

static void test_write_imm_read(void **state)
{
    Fix *f = *state;
    struct e810u_sge ws[2] = {
        { .addr = f->abuf + 5000, .len = 3000, .lkey = f->akey },
        { .addr = f->abuf, .len = 2000, .lkey = f->akey },
    };
    struct e810u_sge rs[3] = {
        { .addr = f->abuf + 40000, .len = 100, .lkey = f->akey },
        { .addr = f->abuf + 30000, .len = 4000, .lkey = f->akey },
        { .addr = f->abuf + 50000, .len = 900, .lkey = f->akey },
    };
    struct e810u_swr w = { .wr_id = 1, .op = E810_OP_RDMA_WRITE,
                           .signaled = true, .has_imm = true,
                           .imm = 0x600dbeef, .sg = ws, .num_sge = 2,
                           .remote_addr = f->bbuf + 4096, .rkey = f->bkey };
    struct e810u_swr rd = { .wr_id = 2, .op = E810_OP_RDMA_READ,
                            .signaled = true, .sg = rs, .num_sge = 3,
                            .remote_addr = f->bbuf + 4096,
                            .rkey = f->bkey };
    struct e810u_cqe c[2];

    fill(hbuf(f, f->abuf), 8000, 5);
    assert_int_equal(e810u_post_recv(&f->b.uk, 77, NULL, 0), 0);
    post(&f->a, &w);
    post(&f->a, &rd);
    kick(&f->a);
    assert_int_equal(poll_n(f, &f->scq, c, 2), 2);
    expect_ok(&c[0], &f->a, 1);
    assert_int_equal(c[0].op, E810_OP_RDMA_WRITE);
    assert_int_equal(c[0].bytes, 5000);
    expect_ok(&c[1], &f->a, 2);
    assert_int_equal(c[1].op, E810_OP_RDMA_READ);
    assert_int_equal(c[1].bytes, 5000);
    assert_memory_equal(hbuf(f, f->bbuf + 4096), hbuf(f, f->abuf + 5000),
                        3000);
    assert_memory_equal(hbuf(f, f->bbuf + 4096 + 3000), hbuf(f, f->abuf),
                        2000);
    assert_memory_equal(hbuf(f, f->abuf + 40000), hbuf(f, f->bbuf + 4096),
                        100);
    assert_memory_equal(hbuf(f, f->abuf + 30000),
                        hbuf(f, f->bbuf + 4096 + 100), 4000);
    assert_memory_equal(hbuf(f, f->abuf + 50000),
                        hbuf(f, f->bbuf + 4096 + 4100), 900);
    assert_int_equal(poll_n(f, &f->rcq, c, 1), 1);
    expect_ok(&c[0], &f->b, 77);
    assert_true(c[0].imm_valid);
    assert_int_equal(c[0].imm, 0x600dbeef);
    assert_int_equal(c[0].bytes, 5000);
}

/* Inline SENDs of every quanta count, from two host buffers. */
static void test_inline(void **state)
{
    static const uint32_t lens[] = { 0, 1, 8, 9, 39, 40, 70, 71, 100, 101 };
    Fix *f = *state;
    uint8_t src[E810_MAX_INLINE];
    struct e810u_sge s[2], r = { .addr = f->bbuf, .len = 4096,
                                 .lkey = f->bkey };
    struct e810u_swr wr = { .op = E810_OP_SEND, .signaled = true,
                            .inline_data = true, .sg = s, .num_sge = 2 };
    struct e810u_cqe c;
    unsigned i;

    for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
        uint32_t len = lens[i], first = len / 3;

        fill(src, sizeof(src), i + 20);
        s[0] = (struct e810u_sge){ .addr = (uintptr_t)src, .len = first };
        s[1] = (struct e810u_sge){ .addr = (uintptr_t)(src + first),
                                   .len = len - first };
        memset(hbuf(f, f->bbuf), 0xee, 200);
        assert_int_equal(e810u_post_recv(&f->b.uk, 500 + i, &r, 1), 0);
        wr.wr_id = i;
        post(&f->a, &wr);
        kick(&f->a);
        assert_int_equal(poll_n(f, &f->rcq, &c, 1), 1);
        expect_ok(&c, &f->b, 500 + i);
        assert_int_equal(c.bytes, len);
        assert_memory_equal(hbuf(f, f->bbuf), src, len);
        assert_int_equal(hbuf(f, f->bbuf)[len], 0xee);
        assert_int_equal(poll_n(f, &f->scq, &c, 1), 1);
        expect_ok(&c, &f->a, i);
        assert_int_equal(c.bytes, len);
    }
}

/* ALLOC_STAG of a type-2 window (irdma_hw_alloc_mw()); index << 8 | key. */
static uint32_t mw_alloc(Fix *f, uint8_t key)
{
    uint64_t q[8] = { 0 };
    uint32_t idx = f->dev.next_stag++;

    rd_back_object(&f->dev.d, E810_HMC_MR, idx);
    q[E810_QW(E810_CQPSQ_STAG_LEN_OFF)] = FIELD_PREP(E810_CQPSQ_STAG_PDID,
                                                     DP_PD);
    q[E810_QW(E810_CQPSQ_STAG_IDX_OFF)] = FIELD_PREP(E810_CQPSQ_STAG_IDX, idx);
    assert_true(rd_do(&f->dev.d, E810_CQP_OP_ALLOC_STAG, 0, q));
    return idx << 8 | key;
}

/* B writes @len bytes through @rkey at @va; its completion. */
static void remote_write(Fix *f, uint32_t rkey, uint64_t va, uint32_t len,
                         uint64_t wr_id)
{
    struct e810u_sge s = { .addr = f->bbuf, .len = len, .lkey = f->bkey };
    struct e810u_swr w = { .wr_id = wr_id, .op = E810_OP_RDMA_WRITE,
                           .signaled = true, .sg = &s, .num_sge = 1,
                           .remote_addr = va, .rkey = rkey };
    struct e810u_cqe c;

    post(&f->b, &w);
    kick(&f->b);
    assert_int_equal(poll_n(f, &f->scq, &c, 1), 1);
    expect_ok(&c, &f->b, wr_id);
    assert_int_equal(c.op, E810_OP_RDMA_WRITE);
}

static void test_fast_reg_bind_mw(void **state)
{
    Fix *f = *state;
    uint64_t pages[2] = { f->abuf + 8 * 4096, f->abuf + 3 * 4096 };
    uint32_t stag = dp_mr_alloc(&f->dev, DP_PD, 0x33);
    uint32_t first = dp_pble_write(&f->dev, pages, 2);
    uint32_t mw = mw_alloc(f, 0x44);
    struct e810u_swr fr = { .wr_id = 9, .op = E810_OP_FAST_REG,
                            .signaled = true, .read_fence = true,
                            .local_fence = true, .remote_addr = 0x400000,
                            .rkey = stag, .fr_first_pble = first,
                            .fr_len = 8192, .fr_levels = E810_LPBL_LEVEL1,
                            .fr_page_code = E810_HPAGE_4K,
                            .fr_rights = RW_ALL };
    struct e810u_swr bind = { .wr_id = 10, .op = E810_OP_BIND_MW,
                              .signaled = true,
                              .remote_addr = f->abuf + 12 * 4096,
                              .rkey = mw, .bind_mr_stag = f->akey,
                              .bind_len = 4096,
                              .bind_rights = E810_ACCESS_REMOTE_WRITE };
    struct e810u_cqe c;

    post(&f->a, &fr);
    kick(&f->a);
    assert_int_equal(poll_n(f, &f->scq, &c, 1), 1);
    expect_ok(&c, &f->a, 9);
    assert_int_equal(c.op, E810_OP_FAST_REG);
    /* VA page 0 is abuf page 8, page 1 abuf page 3 */
    fill(hbuf(f, f->bbuf), 6000, 9);
    remote_write(f, stag, 0x400000 + 100, 6000, 11);
    assert_memory_equal(hbuf(f, pages[0] + 100), hbuf(f, f->bbuf),
                        4096 - 100);
    assert_memory_equal(hbuf(f, pages[1]), hbuf(f, f->bbuf + 4096 - 100),
                        6000 - (4096 - 100));

    post(&f->a, &bind);
    kick(&f->a);
    assert_int_equal(poll_n(f, &f->scq, &c, 1), 1);
    expect_ok(&c, &f->a, 10);
    assert_int_equal(c.op, E810_OP_BIND_MW);
    fill(hbuf(f, f->bbuf), 4096, 10);
    remote_write(f, mw, f->abuf + 12 * 4096, 4096, 12);
    assert_memory_equal(hbuf(f, f->abuf + 12 * 4096), hbuf(f, f->bbuf), 4096);
}

/*
 * Mixed WQE sizes (1, 2, 3, 4, 5 and 8 quanta; inline and SGEs; signaled
 * and not) for three passes over the SQ: NOP padding at chunk ends, the
 * wrap, ahead-clearing, both polarities. Every receive's payload and every
 * signaled completion is checked; an unsignaled WQE completes with the
 * next signaled one.
 */
static void test_wrap_nop_padding(void **state)
{
    static const unsigned sges[] = { 1, 3, 4, 6, 8, 13, 2, 0 };
    Fix *f = *state;
    struct e810u_sge s[E810_MAX_FRAGS], r;
    struct e810u_cqe c;
    uint8_t inl[64];
    unsigned i, flips = 0, nops = 0;
    uint8_t pol = f->a.uk.sq_pol;
    uint32_t prev_head = 0;

    for (i = 0; i < 700; i++) {
        unsigned nsge = sges[i % 8], k;
        bool use_inline = (i % 5) == 4;
        uint32_t len = 0, seed = i & 0xff;
        struct e810u_swr wr = { .wr_id = 1000 + i, .op = E810_OP_SEND,
                                .signaled = (i % 3) != 1, .sg = s };

        fill(hbuf(f, f->abuf), 16 * 100, seed);
        if (use_inline) {
            fill(inl, sizeof(inl), seed);
            s[0] = (struct e810u_sge){ .addr = (uintptr_t)inl,
                                       .len = 10 + i % 54 };
            wr.inline_data = true;
            wr.num_sge = 1;
            len = s[0].len;
        } else {
            for (k = 0; k < nsge; k++) {
                s[k] = (struct e810u_sge){ .addr = f->abuf + 100 * k,
                                           .len = 100 - k,
                                           .lkey = f->akey };
                len += 100 - k;
            }
            wr.num_sge = nsge;
        }
        r = (struct e810u_sge){ .addr = f->bbuf, .len = 4096,
                                .lkey = f->bkey };
        memset(hbuf(f, f->bbuf), 0, 2048);
        assert_int_equal(e810u_post_recv(&f->b.uk, i, &r, 1), 0);
        post(&f->a, &wr);
        if (f->a.uk.sq_pol != pol) {
            pol = f->a.uk.sq_pol;
            flips++;
        }
        for (k = prev_head; k != f->a.uk.sq_head; k = (k + 1) % SQ_QUANTA) {
            nops += f->a.uk.sq_slots[k].op == E810_OP_NOP &&
                    f->a.uk.sq_slots[k].quanta == 1;
        }
        prev_head = f->a.uk.sq_head;
        kick(&f->a);
        assert_int_equal(poll_n(f, &f->rcq, &c, 1), 1);
        expect_ok(&c, &f->b, i);
        assert_int_equal(c.bytes, len);
        if (use_inline) {
            assert_memory_equal(hbuf(f, f->bbuf), inl, len);
        } else {
            uint32_t off = 0;

            for (k = 0; k < nsge; k++) {
                assert_memory_equal(hbuf(f, f->bbuf + off),
                                    hbuf(f, f->abuf + 100 * k), 100 - k);
                off += 100 - k;
            }
        }
        if (wr.signaled) {
            assert_int_equal(poll_n(f, &f->scq, &c, 1), 1);
            expect_ok(&c, &f->a, 1000 + i);
            assert_int_equal(c.bytes, len);
            /* the SQ is empty again: nothing was lost or doubled */
            assert_int_equal(e810u_sq_used(&f->a.uk), 0);
        }
        expect_empty(f, &f->scq);
    }
    assert_true(flips >= 2);
    assert_true(nops > 10);
    expect_empty(f, &f->rcq);
}

/*
 * A receive WQE turns valid only once its fragments are written (the
 * provider's udma_to_device_barrier(), the kernel's dma_wmb() before the
 * header): GEN_2 has no RQ doorbell, the device takes the next valid WQE
 * whenever a message arrives. A SEND from A waits on RNR (retried without
 * limit) while B posts the receive; its retry reaches B after every
 * qword the layer stores into the RQ. The device must refuse the WQE
 * (one more RNR NAK) until the header, then place the data where the
 * fragments say. Two passes over the RQ: on the second, a header valid
 * too early would come with the previous pass's fragments.
 */
static void test_rq_early_header(void **state)
{
    Fix *f = *state;
    E810XportStats *st = &f->h->core.xport->stats;
    uint64_t *ctx = dp_qp_ctx(&f->a.dp);
    uint64_t early = 0, retry;
    struct e810u_cqe c;
    unsigned i;

    retry = le64toh(ctx[E810_QW(E810_QPC_RETRY_OFF)]);
    retry &= ~E810_QPC_RNRNAK_THRESH;
    ctx[E810_QW(E810_QPC_RETRY_OFF)] =
        htole64(retry | FIELD_PREP(E810_QPC_RNRNAK_THRESH, 7));
    dp_qp_rts(&f->a.dp);
    for (i = 0; i < 2 * RQ_ENTRIES; i++) {
        uint32_t len = 300 + i, off = (i % 7) * 4096 + 8 * i;
        struct e810u_sge s = { .addr = f->abuf, .len = len,
                               .lkey = f->akey };
        struct e810u_sge r = { .addr = f->bbuf + off, .len = len,
                               .lkey = f->bkey };
        struct e810u_swr wr = { .wr_id = i, .op = E810_OP_SEND,
                                .signaled = true, .sg = &s, .num_sge = 1 };
        uint64_t naks = st->rnr_naks_sent;

        fill(hbuf(f, f->abuf), len, i);
        memset(hbuf(f, f->bbuf), 0, BUF_LEN);
        post(&f->a, &wr);
        kick(&f->a);
        dp_run(&f->dev);
        /* nothing to receive into yet */
        assert_true(st->rnr_naks_sent > naks);
        naks = st->rnr_naks_sent;
        f->rq_arrivals = true;
        assert_int_equal(e810u_post_recv(&f->b.uk, 5000 + i, &r, 1), 0);
        f->rq_arrivals = false;
        early += st->rnr_naks_sent - naks;
        /* the retry after the header store took it: no further wait */
        assert_int_equal(poll_n(f, &f->rcq, &c, 1), 1);
        expect_ok(&c, &f->b, 5000 + i);
        assert_int_equal(c.bytes, len);
        assert_memory_equal(hbuf(f, f->bbuf + off), hbuf(f, f->abuf), len);
        assert_int_equal(hbuf(f, f->bbuf + off + len)[0], 0);
        if (off) {
            assert_int_equal(hbuf(f, f->bbuf + off - 1)[0], 0);
        }
        assert_int_equal(poll_n(f, &f->scq, &c, 1), 1);
        expect_ok(&c, &f->a, i);
        expect_empty(f, &f->rcq);
    }
    /* every post met at least one arrival before its header was valid */
    assert_true(early >= 2 * RQ_ENTRIES);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gen1_geometry),
        cmocka_unit_test_setup_teardown(test_send_sges, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_imm_read, setup, teardown),
        cmocka_unit_test_setup_teardown(test_inline, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fast_reg_bind_mw, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_wrap_nop_padding, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_rq_early_header, setup,
                                        teardown),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("ring_model", tests, NULL, NULL);
}
