/*
 * Host tests: the verbs side of the RDMA data path (see dp_driver.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "dp_driver.h"

static unsigned log2u(uint32_t v)
{
    unsigned n = 0;

    while (v > 1) {
        v >>= 1;
        n++;
    }
    return n;
}

static uint64_t round4k(uint64_t v)
{
    return (v + 4095) & ~4095ull;
}

void dp_run(DpDev *dev)
{
    unsigned i;

    for (i = 0; i < 10000 && dev->h->core.work_pending; i++) {
        harness_run_work(dev->h);
    }
    assert_int_equal(dev->h->core.work_pending, 0);
}

void dp_dev_init(DpDev *dev, Harness *h)
{
    memset(dev, 0, sizeof(*dev));
    dev->h = h;
    rd_bringup(h, &dev->d);
    dev->aeq_pa = mem_alloc_aligned(h, DP_AEQ_SIZE * E810_AEQE_SIZE, 256);
    assert_false(rd_create_aeq(&dev->d, DP_AEQ_SIZE, dev->aeq_pa).error);
    dev->aeq_pol = true;
    dev->next_cq = 10;
    dev->next_qp = 10;
    dev->next_stag = 10;
    dev->next_pble = 0;
}

/* ---- CQs and the AEQ ----------------------------------------------------- */

void dp_cq_create(DpDev *dev, DpCq *cq, uint32_t size)
{
    memset(cq, 0, sizeof(*cq));
    cq->dev = dev;
    cq->id = dev->next_cq++;
    cq->size = size;
    cq->pol = true;
    rd_back_object(&dev->d, E810_HMC_CQ, cq->id);
    cq->ring = mem_alloc_aligned(dev->h, size * E810_CQE_SIZE, 256);
    cq->shadow = mem_alloc(dev->h, E810_CQ_SHADOW_SIZE);
    assert_false(rd_create_cq(&dev->d, cq->id, size, cq->ring, cq->shadow, 0,
                              0x1000 + cq->id, 0).error);
}

static uint64_t slot_qw(DpCq *cq, uint32_t slot, unsigned off)
{
    return rd_mem64(&cq->dev->d, cq->ring + (uint64_t)slot * E810_CQE_SIZE +
                    off);
}

static void cq_advance(DpCq *cq)
{
    if (++cq->head == cq->size) {
        cq->head = 0;
        cq->pol = !cq->pol;
    }
}

bool dp_poll_cq(DpCq *cq, DpCqe *e)
{
    uint64_t hdr = slot_qw(cq, cq->head, E810_CQE_HDR_OFF), q2, ext_hdr;

    if (!!(hdr & E810_CQE_VALID) != cq->pol) {
        return false;
    }
    memset(e, 0, sizeof(*e));
    q2 = slot_qw(cq, cq->head, E810_CQE_QP_OFF);
    e->sq = hdr & E810_CQE_SQ;
    e->error = hdr & E810_CQE_ERROR;
    e->major = FIELD_GET(E810_CQE_MAJERR, hdr);
    e->minor = FIELD_GET(E810_CQE_MINERR, hdr);
    e->wqe_idx = FIELD_GET(E810_CQE_WQEIDX, hdr);
    e->op = FIELD_GET(E810_CQE_OP, hdr);
    e->stag_or_ipv4 = hdr & E810_CQE_STAG;
    e->solicited = hdr & E810_CQE_SOEVENT;
    e->ctx = slot_qw(cq, cq->head, E810_CQE_CTX_OFF);
    e->len = FIELD_GET(E810_CQE_PAYLDLEN,
                       slot_qw(cq, cq->head, E810_CQE_LEN_OFF));
    e->qp_id = FIELD_GET(E810_CQE_QPID, q2);
    e->q2_low = (uint32_t)q2;
    e->ext = hdr & E810_CQE_EXTCQE;
    cq_advance(cq);
    if (e->ext) {
        uint64_t mac;
        unsigned i;

        ext_hdr = slot_qw(cq, cq->head, E810_CQE_EXT_HDR_OFF);
        /* The extension carries the polarity of its own slot. */
        assert_int_equal(!!(ext_hdr & E810_CQE_VALID), cq->pol);
        e->imm_valid = ext_hdr & E810_CQE_EXT_IMMVALID;
        e->imm = (uint32_t)slot_qw(cq, cq->head, E810_CQE_EXT_IMM_OFF);
        e->smac_valid = ext_hdr & E810_CQE_EXT_UDSMACVALID;
        e->vlan_valid = ext_hdr & E810_CQE_EXT_UDVLANVALID;
        mac = slot_qw(cq, cq->head, E810_CQE_EXT_UD_OFF);
        e->vlan = FIELD_GET(E810_CQE_EXT_UDVLAN, mac);
        for (i = 0; i < 6; i++) {
            e->smac[i] = mac >> (8 * (5 - i));
        }
        cq_advance(cq);
    }
    rd_set64(&cq->dev->d, cq->shadow + E810_CQ_DBSA_HEAD_OFF, cq->head);
    return true;
}

bool dp_poll_ae(DpDev *dev, DpAe *ae)
{
    uint64_t pa = dev->aeq_pa + (uint64_t)dev->aeq_head * E810_AEQE_SIZE;
    uint64_t info = rd_mem64(&dev->d, pa + E810_AEQE_INFO_OFF);

    if (!!(info & E810_AEQE_VALID) != dev->aeq_pol) {
        return false;
    }
    ae->ctx = rd_mem64(&dev->d, pa + E810_AEQE_CTX_OFF);
    ae->code = FIELD_GET(E810_AEQE_AECODE, info);
    ae->source = FIELD_GET(E810_AEQE_AESRC, info);
    ae->wqe_idx = FIELD_GET(E810_AEQE_WQDESCIDX, info);
    ae->id = FIELD_GET(E810_AEQE_QPCQID_LOW, info) |
             (info & E810_AEQE_QPCQID_HI ? 1u << 18 : 0);
    if (++dev->aeq_head == DP_AEQ_SIZE) {
        dev->aeq_head = 0;
        dev->aeq_pol = !dev->aeq_pol;
    }
    wr32(dev->h, E810_AEQALLOC, 1);
    return true;
}

/* ---- PBLEs and MRs ------------------------------------------------------- */

/*
 * One backing look-up per 4 KiB of FPM space: a page of PBLEs is one
 * page of guest memory, paged or direct SD (the fuzzers write up to 32768
 * PBLEs per MR).
 */
uint32_t dp_pble_write(DpDev *dev, const uint64_t *vals, unsigned n)
{
    uint32_t first = dev->next_pble;
    unsigned i = 0, k;

    while (i < n) {
        uint64_t fpm = rd_fpm_addr(&dev->d, E810_HMC_PBLE, first + i);
        uint64_t pa = rd_back_object(&dev->d, E810_HMC_PBLE, first + i);
        uint8_t *p;

        k = (E810_HMC_PD_SIZE - (fpm & (E810_HMC_PD_SIZE - 1))) / 8;
        k = k < n - i ? k : n - i;
        p = mem_ptr(dev->h, pa);
        /* The whole run is guest memory, as one page is. */
        mem_ptr(dev->h, pa + 8 * k - 1);
#if __BYTE_ORDER == __LITTLE_ENDIAN
        memcpy(p, vals + i, 8 * k);
#else
        for (unsigned j = 0; j < k; j++) {
            uint64_t v = htole64(vals[i + j]);

            memcpy(p + 8 * j, &v, 8);
        }
#endif
        i += k;
    }
    dev->next_pble += n;
    return first;
}

static uint32_t stag_slot(DpDev *dev, uint8_t *key)
{
    uint32_t idx = dev->next_stag++;

    rd_back_object(&dev->d, E810_HMC_MR, idx);
    *key = (uint8_t)(0x5a + idx);
    return idx;
}

uint32_t dp_mr_reg(DpDev *dev, uint32_t pd, uint64_t va, const uint64_t *pages,
                   unsigned npages, uint64_t len, uint8_t rights,
                   unsigned lpbl)
{
    uint64_t q[8] = { 0 };
    uint32_t first = 0;
    uint8_t key;
    uint32_t idx = stag_slot(dev, &key);

    if (lpbl == E810_LPBL_LEVEL1) {
        first = dp_pble_write(dev, pages, npages);
    } else if (lpbl == E810_LPBL_LEVEL2) {
        uint64_t roots[64];
        unsigned nleaf = (npages + 511) / 512, i;

        assert_true(nleaf <= 64);
        for (i = 0; i < nleaf; i++) {
            unsigned n = npages - i * 512 < 512 ? npages - i * 512 : 512;

            roots[i] = dp_pble_write(dev, pages + i * 512, n);
        }
        first = dp_pble_write(dev, roots, nleaf);
    }
    q[E810_QW(E810_CQPSQ_STAG_VA_OFF)] = va;
    q[E810_QW(E810_CQPSQ_STAG_LEN_OFF)] =
        FIELD_PREP(E810_CQPSQ_STAG_STAGLEN, len) |
        FIELD_PREP(E810_CQPSQ_STAG_PDID, pd);
    q[E810_QW(E810_CQPSQ_STAG_IDX_OFF)] =
        FIELD_PREP(E810_CQPSQ_STAG_KEY, key) |
        FIELD_PREP(E810_CQPSQ_STAG_IDX, idx);
    q[E810_QW(E810_CQPSQ_STAG_PA_OFF)] = pages[0];
    q[E810_QW(E810_CQPSQ_STAG_PBL_OFF)] = first;
    assert_true(rd_do(&dev->d, E810_CQP_OP_REG_MR,
                      E810_CQPSQ_STAG_MR |
                      FIELD_PREP(E810_CQPSQ_STAG_LPBLSIZE, lpbl) |
                      FIELD_PREP(E810_CQPSQ_STAG_HPAGESIZE, E810_HPAGE_4K) |
                      FIELD_PREP(E810_CQPSQ_STAG_ARIGHTS, rights) |
                      (rights & (E810_ACCESS_REMOTE_READ |
                                 E810_ACCESS_REMOTE_WRITE) ?
                       E810_CQPSQ_STAG_REMACCENABLED : 0) |
                      E810_CQPSQ_STAG_VABASEDTO, q));
    return idx << 8 | key;
}

uint32_t dp_mr_buf(DpDev *dev, uint32_t pd, uint64_t pa, uint64_t len,
                   uint8_t rights)
{
    uint64_t base = pa & ~4095ull, pages[2048];
    unsigned n = (round4k(pa + len) - base) / 4096, i;

    assert_true(n >= 1 && n <= 2048);
    for (i = 0; i < n; i++) {
        pages[i] = base + 4096ull * i;
    }
    return dp_mr_reg(dev, pd, pa, pages, n, len, rights, E810_LPBL_LEVEL1);
}

uint32_t dp_mr_alloc_drv(DpDev *dev, uint32_t pd, uint32_t drv, uint8_t key)
{
    uint64_t q[8] = { 0 };
    uint8_t unused;
    uint32_t stag = drv | stag_slot(dev, &unused) << 8 | key;

    q[E810_QW(E810_CQPSQ_STAG_LEN_OFF)] = FIELD_PREP(E810_CQPSQ_STAG_PDID, pd);
    q[E810_QW(E810_CQPSQ_STAG_IDX_OFF)] = FIELD_PREP(E810_CQPSQ_STAG_IDX,
                                                     stag >> 8);
    assert_true(rd_do(&dev->d, E810_CQP_OP_ALLOC_STAG, E810_CQPSQ_STAG_MR, q));
    return stag;
}

uint32_t dp_mr_alloc(DpDev *dev, uint32_t pd, uint8_t key)
{
    return dp_mr_alloc_drv(dev, pd, 0, key);
}

DpSend dp_fast_reg(uint32_t stag, uint64_t va, uint32_t first_pble,
                   uint64_t pa, uint64_t len, uint8_t rights, unsigned lpbl)
{
    DpSend s = { .op = E810_OP_FAST_REG, .signaled = true,
                 .read_fence = true, .local_fence = true };

    s.raw[0] = va;
    s.raw[1] = (pa & E810_WQE_FR_PBLADDR) |
               FIELD_PREP(E810_WQE_FR_PBLIDX_HI, first_pble >> 16);
    s.raw[2] = FIELD_PREP(E810_WQE_FR_LEN, len) |
               FIELD_PREP(E810_WQE_FR_PBLIDX_LO, first_pble & 0xffff);
    s.raw_hdr = FIELD_PREP(E810_WQE_FR_STAGKEY, stag & 0xff) |
                FIELD_PREP(E810_WQE_FR_STAGINDEX, stag >> 8) |
                FIELD_PREP(E810_WQE_FR_LPBLSIZE, lpbl) |
                FIELD_PREP(E810_WQE_FR_HPAGESIZE, E810_HPAGE_4K) |
                FIELD_PREP(E810_WQE_STAGRIGHTS, rights) |
                E810_WQE_VABASEDTO;
    return s;
}

/* ---- QPs ----------------------------------------------------------------- */

uint64_t *dp_qp_ctx(DpQp *qp)
{
    return mem_ptr(qp->dev->h, qp->ctx_pa);
}

static void ctx_set(DpQp *qp, unsigned off, uint64_t v)
{
    dp_qp_ctx(qp)[E810_QW(off)] = htole64(v);
}

static bool qp_op(DpQp *qp, unsigned op, unsigned state)
{
    uint64_t q[8] = { 0 };

    q[E810_QW(E810_CQPSQ_QP_CTX_OFF)] = qp->ctx_pa;
    q[E810_QW(E810_CQPSQ_QP_DBSHADOW_OFF)] = qp->shadow_pa;
    return rd_do(&qp->dev->d, op, FIELD_PREP(E810_CQPSQ_QP_QPID, qp->id) |
                 FIELD_PREP(E810_CQPSQ_QP_QPTYPE, qp->type) |
                 FIELD_PREP(E810_CQPSQ_QP_NEXTIWSTATE, state) |
                 E810_CQPSQ_QP_CQNUMVALID | E810_CQPSQ_QP_MACVALID |
                 (qp->virt ? E810_CQPSQ_QP_VQ : 0), q);
}

void dp_qp_create(DpDev *dev, DpQp *qp, unsigned type, DpCq *scq, DpCq *rcq,
                  uint32_t sq_quanta, uint32_t rq_entries, unsigned rq_shift,
                  bool virt, bool kernel)
{
    uint32_t rq_quanta = rq_entries << rq_shift;
    uint64_t sq_bytes = round4k(sq_quanta * 32ull);
    uint64_t rq_bytes = round4k(rq_quanta * 32ull), sq_addr, rq_addr;

    assert_true(sq_quanta >= 8 && !(sq_quanta & (sq_quanta - 1)));
    assert_true(rq_quanta >= 8 && !(rq_quanta & (rq_quanta - 1)));
    memset(qp, 0, sizeof(*qp));
    qp->dev = dev;
    qp->id = dev->next_qp++;
    qp->type = type;
    qp->pd = DP_PD;
    qp->scq = scq;
    qp->rcq = rcq;
    qp->virt = virt;
    qp->compl_ctx = 0xc0de000000000000ull | qp->id;
    qp->sq_quanta = sq_quanta;
    qp->sq_pol = false;     /* flips to 1 when slot 0 is first written */
    qp->rq_entries = rq_entries;
    qp->rq_shift = rq_shift;
    qp->rq_pol = true;
    rd_back_object(&dev->d, E810_HMC_QP, qp->id);
    qp->ctx_pa = mem_alloc_aligned(dev->h, E810_QP_CTX_SIZE, 256);
    qp->shadow_pa = mem_alloc(dev->h, E810_QP_SHADOW_SIZE);
    qp->sq_pa = mem_alloc_aligned(dev->h, sq_bytes, 4096);
    qp->rq_pa = mem_alloc_aligned(dev->h, rq_bytes, 4096);
    sq_addr = qp->sq_pa;
    rq_addr = qp->rq_pa;
    if (virt) {
        uint64_t pages[64];
        unsigned i, ns = sq_bytes / 4096, nr = rq_bytes / 4096;

        assert_true(ns + nr <= 64);
        /* SQ pages then RQ pages, each ring's pages in reverse physical
         * order, so only a PBL walk finds the right page (see ring_pa). */
        for (i = 0; i < ns; i++) {
            pages[i] = qp->sq_pa + 4096ull * (ns - 1 - i);
        }
        for (i = 0; i < nr; i++) {
            pages[ns + i] = qp->rq_pa + 4096ull * (nr - 1 - i);
        }
        sq_addr = dp_pble_write(dev, pages, ns + nr);
        rq_addr = sq_addr + ns;
    }
    memset(dp_qp_ctx(qp), 0, E810_QP_CTX_SIZE);
    ctx_set(qp, E810_QPC_CFG_OFF, E810_QPC_IPV4 |
            FIELD_PREP(E810_QPC_RQWQESIZE, rq_shift) |
            FIELD_PREP(E810_QPC_PDIDXHI, qp->pd >> 16));
    ctx_set(qp, E810_QPC_SQADDR_OFF, sq_addr);
    ctx_set(qp, E810_QPC_RQADDR_OFF, rq_addr);
    ctx_set(qp, E810_QPC_SIZES_OFF,
            FIELD_PREP(E810_QPC_TTL, 64) |
            FIELD_PREP(E810_QPC_SQSIZE, log2u(sq_quanta) - 2) |
            FIELD_PREP(E810_QPC_RQSIZE, log2u(rq_quanta) - 2) |
            FIELD_PREP(E810_QPC_SRCPORTNUM, 0xc000) |
            FIELD_PREP(E810_QPC_DESTPORTNUM, 4791));
    ctx_set(qp, E810_QPC_MSS_OFF, FIELD_PREP(E810_QPC_SNDMSS, 1024));
    ctx_set(qp, E810_QPC_PKEY_OFF, FIELD_PREP(E810_QPC_PKEY, 0xffff) |
            FIELD_PREP(E810_QPC_PDIDX, qp->pd & 0xffff) |
            FIELD_PREP(E810_QPC_ACKCREDITS, 0x1e));
    ctx_set(qp, E810_QPC_RETRY_OFF, FIELD_PREP(E810_QPC_REXMIT_THRESH, 2) |
            FIELD_PREP(E810_QPC_RNRNAK_THRESH, 2) |
            FIELD_PREP(E810_QPC_RTOMIN, 5));
    ctx_set(qp, E810_QPC_CQ_OFF, FIELD_PREP(E810_QPC_TXCQNUM, scq->id) |
            FIELD_PREP(E810_QPC_RXCQNUM, rcq->id));
    ctx_set(qp, E810_QPC_FLAGS_OFF, FIELD_PREP(E810_QPC_ORDSIZE, 16) |
            FIELD_PREP(E810_QPC_IRDSIZE, 2) | E810_QPC_WRRDRSPOK |
            E810_QPC_RDOK |
            (kernel ? E810_QPC_FASTREGEN | E810_QPC_PRIVEN : 0));
    ctx_set(qp, E810_QPC_COMPL_CTX_OFF, qp->compl_ctx);
    /* UDA QPs (the iWARP ILQ/IEQ) are created straight in RTS. */
    qp->state = type == E810_QP_TYPE_UDA ? E810_QP_STATE_RTS :
                E810_QP_STATE_IDLE;
    assert_true(qp_op(qp, E810_CQP_OP_CREATE_QP, qp->state));
}

bool dp_qp_modify(DpQp *qp, unsigned state)
{
    if (!qp_op(qp, E810_CQP_OP_MODIFY_QP, state)) {
        return false;
    }
    qp->state = state;
    dp_run(qp->dev);
    return true;
}

void dp_qp_rts(DpQp *qp)
{
    /* A QP in RTS already takes RTS -> RTS (a context reload). */
    if (qp->state != E810_QP_STATE_RTS) {
        assert_true(dp_qp_modify(qp, E810_QP_STATE_RTR));
    }
    assert_true(dp_qp_modify(qp, E810_QP_STATE_RTS));
}

void dp_qp_reset_rings(DpQp *qp)
{
    memset(mem_ptr(qp->dev->h, qp->sq_pa), 0, round4k(qp->sq_quanta * 32ull));
    memset(mem_ptr(qp->dev->h, qp->rq_pa), 0,
           round4k(((uint64_t)qp->rq_entries << qp->rq_shift) * 32));
    qp->sq_head = 0;
    qp->sq_pol = false;
    qp->rq_head = 0;
    qp->rq_pol = true;
}

bool dp_qp_destroy(DpQp *qp)
{
    return qp_op(qp, E810_CQP_OP_DESTROY_QP, 0);
}

bool dp_qp_recycle(DpQp *qp)
{
    if (!qp_op(qp, E810_CQP_OP_DESTROY_QP, 0) ||
        !qp_op(qp, E810_CQP_OP_CREATE_QP, E810_QP_STATE_IDLE)) {
        return false;
    }
    qp->state = E810_QP_STATE_IDLE;
    dp_qp_reset_rings(qp);
    return true;
}

RdmaCompl dp_qp_flush(DpQp *qp, bool sq, bool rq, uint16_t sq_minor,
                      uint16_t rq_minor)
{
    uint64_t q[8] = { 0 };
    RdmaCompl c;

    q[E810_QW(E810_CQPSQ_FWQE_CODES_OFF)] =
        FIELD_PREP(E810_CQPSQ_FWQE_SQMJERR, E810_CQE_MAJ_FLUSH) |
        FIELD_PREP(E810_CQPSQ_FWQE_SQMNERR, sq_minor) |
        FIELD_PREP(E810_CQPSQ_FWQE_RQMJERR, E810_CQE_MAJ_FLUSH) |
        FIELD_PREP(E810_CQPSQ_FWQE_RQMNERR, rq_minor);
    c = rd_exec(&qp->dev->d, E810_CQP_OP_FLUSH_WQES,
                FIELD_PREP(E810_CQPSQ_FWQE_QPID, qp->id) |
                E810_CQPSQ_FWQE_USERFLCODE |
                (sq ? E810_CQPSQ_FWQE_FLUSHSQ : 0) |
                (rq ? E810_CQPSQ_FWQE_FLUSHRQ : 0), q);
    dp_run(qp->dev);
    return c;
}

/* ---- SQ WQEs ------------------------------------------------------------- */

static bool is_local(unsigned op)
{
    return op == E810_OP_FAST_REG || op == E810_OP_LOCAL_INV ||
           op == E810_OP_NOP;
}

unsigned dp_send_quanta(const DpSend *s)
{
    unsigned n;

    if (is_local(s->op)) {
        return 1;
    }
    if (s->inline_src) {
        n = s->inline_len;
        return n <= 8 ? 1 : 1 + (n - 8 + 30) / 31;
    }
    n = s->nsge + (s->imm_valid ? 1 : 0);
    return 1 + n / 2;
}

/* Test-memory address of byte @off of a ring (virt: pages reversed). */
static uint64_t ring_pa(const DpQp *qp, uint64_t base, uint64_t bytes,
                        uint64_t off)
{
    uint64_t npages = round4k(bytes) / 4096;

    if (!qp->virt) {
        return base + off;
    }
    return base + 4096 * (npages - 1 - off / 4096) + off % 4096;
}

static uint64_t *sq_quantum(DpQp *qp, uint32_t idx)
{
    return mem_ptr(qp->dev->h, ring_pa(qp, qp->sq_pa, qp->sq_quanta * 32ull,
                                       (uint64_t)idx * 32));
}

/* Copies @quanta quanta to the ring at sq_head, header qword last. */
static uint32_t sq_write(DpQp *qp, const uint64_t *q, unsigned quanta)
{
    uint32_t idx = qp->sq_head;
    uint64_t *dst = sq_quantum(qp, idx);
    unsigned i;

    for (i = 0; i < quanta * 4; i++) {
        if (i != 3) {
            dst[i] = htole64(q[i]);
        }
    }
    dst[3] = htole64(q[3]);
    qp->sq_head = (qp->sq_head + quanta) % qp->sq_quanta;
    return idx;
}

/* The pass polarity for a WQE starting at sq_head. */
static bool sq_pass(DpQp *qp)
{
    if (qp->sq_head == 0) {
        qp->sq_pol = !qp->sq_pol;
    }
    return qp->sq_pol;
}

uint32_t dp_post_raw(DpQp *qp, const uint64_t *q, unsigned quanta,
                     bool keep_valid)
{
    uint64_t tmp[8 * 4];
    bool pol = sq_pass(qp);

    assert_true(quanta >= 1 && quanta <= 8);
    memcpy(tmp, q, quanta * 32);
    if (!keep_valid) {
        tmp[3] = (tmp[3] & ~E810_WQE_VALID) | (pol ? E810_WQE_VALID : 0);
    }
    return sq_write(qp, tmp, quanta);
}

static void post_nop(DpQp *qp)
{
    uint64_t q[4] = { 0 };

    q[3] = FIELD_PREP(E810_WQE_OPCODE, E810_OP_NOP) |
           (sq_pass(qp) ? E810_WQE_VALID : 0);
    sq_write(qp, q, 1);
}

static void put_frag(uint64_t *q, unsigned off, const E810Sge *sge, bool pol)
{
    q[E810_QW(off)] = sge ? sge->addr : 0;
    q[E810_QW(off) + 1] = (sge ? FIELD_PREP(E810_WQE_FRAG_STAG, sge->lkey) |
                           FIELD_PREP(E810_WQE_FRAG_LEN, sge->len) : 0) |
                          (pol ? E810_WQE_VALID : 0);
}

uint32_t dp_post_send(DpQp *qp, const DpSend *s)
{
    unsigned quanta = dp_send_quanta(s), add = 0, i;
    uint64_t q[8 * 4];
    uint64_t hdr;
    bool pol;

    assert_true(quanta <= 8);
    /* Chunk rule: pad the rest of the 8-quantum chunk with NOPs. */
    while ((qp->sq_head % 8) + quanta > 8) {
        post_nop(qp);
    }
    pol = sq_pass(qp);
    memset(q, 0, sizeof(q));
    hdr = FIELD_PREP(E810_WQE_OPCODE, s->op) |
          (s->signaled ? E810_WQE_SIGCOMPL : 0) |
          (s->read_fence ? E810_WQE_READFENCE : 0) |
          (s->local_fence ? E810_WQE_LOCALFENCE : 0);
    if (is_local(s->op)) {
        q[0] = s->raw[0];
        q[1] = s->raw[1];
        q[2] = s->raw[2];
        hdr |= s->raw_hdr;
    } else if (s->inline_src) {
        uint8_t *b = (uint8_t *)q;
        unsigned done = s->inline_len < 8 ? s->inline_len : 8;

        memcpy(b + 8, s->inline_src, done);
        for (i = 1; i < quanta; i++) {
            unsigned n = s->inline_len - done < 31 ? s->inline_len - done : 31;

            memcpy(b + 32 * i, (const uint8_t *)s->inline_src + done, n);
            b[32 * i + 31] = pol << 7;
            done += n;
        }
        /* Built as little-endian bytes: convert to the host-order array. */
        for (i = 0; i < quanta * 4; i++) {
            q[i] = le64toh(q[i]);
        }
        hdr |= E810_WQE_INLINEDATAFLAG |
               FIELD_PREP(E810_WQE_INLINEDATALEN, s->inline_len);
    } else {
        unsigned cnt = s->nsge + (s->imm_valid ? 1 : 0), k = 0, slot;

        if (!s->imm_valid && s->nsge) {
            put_frag(q, 0, &s->sge[0], pol);
            k = 1;
        }
        for (slot = 0; k < s->nsge; k++, slot++) {
            put_frag(q, 32 + 16 * slot, &s->sge[k], pol);
            add++;
        }
        if (cnt && !(cnt & 1)) {
            put_frag(q, 32 + 16 * slot, NULL, pol);
            add++;
        }
    }
    if (s->imm_valid) {
        q[0] = s->imm;
        hdr |= E810_WQE_IMMDATAFLAG;
    }
    switch (s->op) {
    case E810_OP_RDMA_WRITE:
    case E810_OP_RDMA_WRITE_SOL:
    case E810_OP_RDMA_READ:
    case E810_OP_RDMA_READ_LOC_INV:
        q[2] = s->remote_va;
        hdr |= FIELD_PREP(E810_WQE_REMSTAG, s->rkey);
        break;
    case E810_OP_SEND_INV:
    case E810_OP_SEND_SOL_INV:
        hdr |= FIELD_PREP(E810_WQE_REMSTAG, s->rkey);
        break;
    case E810_OP_SEND:
    case E810_OP_SEND_SOL:
        if (qp->type == E810_QP_TYPE_ROCE_UD) {
            q[2] = FIELD_PREP(E810_WQE_UD_QKEY, s->qkey) |
                   FIELD_PREP(E810_WQE_UD_DESTQPN, s->dest_qpn);
            hdr |= FIELD_PREP(E810_WQE_AHID, s->ah_id);
        }
        break;
    default:
        break;
    }
    hdr |= FIELD_PREP(E810_WQE_ADDFRAGCNT, add) | (pol ? E810_WQE_VALID : 0);
    q[3] = hdr;
    return sq_write(qp, q, quanta);
}

void dp_ring(DpQp *qp, bool kernel_reg)
{
    wr32(qp->dev->h, kernel_reg ? E810_WQEALLOC :
         E810_DB_ADDR_OFFSET + E810_DB_QP_OFFSET, qp->id);
}

/* ---- RQ WQEs ------------------------------------------------------------- */

uint32_t dp_post_recv(DpQp *qp, const E810Sge *sge, unsigned n)
{
    unsigned size = 32u << qp->rq_shift, add = 0, k;
    uint64_t q[32];
    uint64_t *dst = mem_ptr(qp->dev->h,
                            ring_pa(qp, qp->rq_pa,
                                    (uint64_t)qp->rq_entries * size,
                                    (uint64_t)qp->rq_head * size));
    uint32_t idx = qp->rq_head << qp->rq_shift;

    memset(q, 0, sizeof(q));
    if (n) {
        put_frag(q, 0, &sge[0], qp->rq_pol);
    }
    for (k = 1; k < n; k++) {
        put_frag(q, 32 + 16 * (k - 1), &sge[k], qp->rq_pol);
        add++;
    }
    if (n && !(n & 1)) {
        put_frag(q, 32 + 16 * (k - 1), NULL, qp->rq_pol);
        add++;
    }
    assert_true(add == 0 || 32 + 16 * add <= size);
    q[3] = FIELD_PREP(E810_WQE_ADDFRAGCNT, add) |
           (qp->rq_pol ? E810_WQE_VALID : 0);
    for (k = 0; k < size / 8; k++) {
        if (k != 3) {
            dst[k] = htole64(q[k]);
        }
    }
    dst[3] = htole64(q[3]);
    if (++qp->rq_head == qp->rq_entries) {
        qp->rq_head = 0;
        qp->rq_pol = !qp->rq_pol;
    }
    return idx;
}

/* ---- stand-in transport -------------------------------------------------- */

static bool tap_send(Harness *h, E810Qp *qp, const E810SendWqe *wqe)
{
    DpTap *t = h->xport_send_arg;

    if (t->kick_in_refusal) {
        t->kick_in_refusal = false;
        e810_dp_sq_kick(&h->core, wqe->qp_id);
        return false;
    }
    if (t->refuse) {
        return false;
    }
    assert_true(t->n < DP_TAP_MAX);
    t->w[t->n++] = *wqe;
    return true;
}

void dp_tap_install(DpDev *dev, DpTap *tap)
{
    memset(tap, 0, sizeof(*tap));
    dev->h->xport_send_arg = tap;
    dev->h->xport_send = tap_send;
}

E810Qp *dp_model_qp(DpQp *qp)
{
    E810Qp *m = e810_qp_get(&qp->dev->h->core, qp->id);

    assert_non_null(m);
    return m;
}
