/*
 * Host tests: the RC pair most back-to-back tests start from. Each side
 * has a send CQ, a receive CQ, one RC QP and one buffer in the harness's
 * extra memory registered through a page list; the QPs are connected.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef RC_RIG_H
#define RC_RIG_H

#include "b2b.h"

typedef struct RcRig {
    B2B *b;
    DpCq scq[2], rcq[2];
    DpQp qp[2];
    uint64_t buf[2];        /* registered, all rights */
    uint32_t key[2];
} RcRig;

/* Shapes of the rig's queues and buffers. */
typedef struct RcRigShape {
    uint64_t xmem;          /* harness extra memory per side */
    uint64_t buf_len;
    unsigned cq_size;       /* send and receive CQ */
    unsigned sq_size, rq_size;
    uint32_t mtu;
} RcRigShape;

/* @len bytes at @pa through a level 1 (or, past 512 pages, 2) list. */
static inline uint32_t rc_rig_reg(DpDev *dev, uint64_t pa, uint64_t len)
{
    unsigned n = (unsigned)((len + 4095) / 4096), i;
    uint64_t *pages = malloc(n * sizeof(*pages));
    uint32_t key;

    assert_non_null(pages);
    for (i = 0; i < n; i++) {
        pages[i] = pa + 4096ull * i;
    }
    key = dp_mr_reg(dev, DP_PD, pa, pages, n, len, B2B_ALL_RIGHTS,
                    n > 512 ? E810_LPBL_LEVEL2 : E810_LPBL_LEVEL1);
    free(pages);
    return key;
}

static inline RcRig *rc_rig_new(const RcRigShape *sh)
{
    RcRig *r = calloc(1, sizeof(*r));
    unsigned i;

    assert_non_null(r);
    r->b = b2b_new(sh->xmem);
    for (i = 0; i < 2; i++) {
        DpDev *d = &r->b->dev[i];

        dp_cq_create(d, &r->scq[i], sh->cq_size);
        dp_cq_create(d, &r->rcq[i], sh->cq_size);
        dp_qp_create(d, &r->qp[i], E810_QP_TYPE_ROCE_RC, &r->scq[i],
                     &r->rcq[i], sh->sq_size, sh->rq_size, 1, false, false);
        r->buf[i] = harness_xmem_alloc(r->b->h[i], sh->buf_len);
        r->key[i] = rc_rig_reg(d, r->buf[i], sh->buf_len);
    }
    b2b_connect(r->b, &r->qp[0], &r->qp[1], sh->mtu);
    return r;
}

static inline void rc_rig_free(RcRig *r)
{
    b2b_free(r->b);
    free(r);
}

/*
 * Posts one signaled @op of @len bytes from side @from's buffer at @off;
 * a WRITE or READ targets the other side's buffer at @roff. The caller
 * rings the doorbell.
 */
static inline void rc_rig_post(RcRig *r, unsigned from, unsigned op,
                               uint64_t off, uint64_t roff, uint64_t len)
{
    DpSend s;

    memset(&s, 0, sizeof(s));
    s.op = op;
    s.signaled = true;
    s.nsge = 1;
    s.sge[0].addr = r->buf[from] + off;
    s.sge[0].len = (uint32_t)len;
    s.sge[0].lkey = r->key[from];
    s.remote_va = r->buf[!from] + roff;
    s.rkey = r->key[!from];
    dp_post_send(&r->qp[from], &s);
}

/* Byte @off of side @side's buffer. */
static inline uint8_t *rc_rig_buf(RcRig *r, unsigned side, uint64_t off)
{
    return mem_ptr(r->b->h[side], r->buf[side] + off);
}

#endif
