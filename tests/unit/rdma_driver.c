/*
 * Host tests: the irdma driver's side of the RDMA control plane.
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

#include "rdma_driver.h"

unsigned rd_protocol = E810_PROTOCOL_ROCE_ONLY;

uint64_t *rd_cqp_ctx(RdmaDriver *d)
{
    return mem_ptr(d->h, d->ctx_pa);
}

static unsigned enc_sq_size(uint32_t size)
{
    unsigned enc = 1;

    for (size >>= 2; size > 1; size >>= 1) {
        enc++;
    }
    return enc;
}

void rd_init(Harness *h, RdmaDriver *d, uint32_t sq_size)
{
    uint64_t *ctx;

    memset(d, 0, sizeof(*d));
    d->h = h;
    d->sq_size = sq_size;
    d->compl_ctx = RD_CQP_CTX;
    d->ctx_pa = mem_alloc(h, E810_CQP_WQE_SIZE);
    d->query_pa = mem_alloc(h, E810_FPM_BUF_SIZE);
    d->commit_pa = mem_alloc(h, E810_FPM_BUF_SIZE);
    d->sq_pa = mem_alloc_aligned(h, sq_size * E810_CQP_WQE_SIZE,
                                 E810_CQP_SQ_ALIGN);
    d->sdbuf_pa = mem_alloc_aligned(h, sq_size * E810_UPDATE_SD_BUFF_SIZE,
                                    E810_SD_BUF_ALIGN);
    ctx = rd_cqp_ctx(d);
    ctx[E810_QW(E810_CQPHC_CFG_OFF)] =
        htole64(FIELD_PREP(E810_CQPHC_SQSIZE, enc_sq_size(sq_size)) |
                FIELD_PREP(E810_CQPHC_PROTOCOL_USED, rd_protocol) |
                E810_CQPHC_ROCEV2_RTO_POLICY);
    ctx[E810_QW(E810_CQPHC_SQ_BASE_OFF)] = htole64(d->sq_pa);
    ctx[E810_QW(E810_CQPHC_VF_OFF)] =
        htole64(FIELD_PREP(E810_CQPHC_HMC_PROFILE, 1));
    ctx[E810_QW(E810_CQPHC_COMPL_CTX_OFF)] = htole64(d->compl_ctx);
    ctx[E810_QW(E810_CQPHC_VER_OFF)] =
        htole64(FIELD_PREP(E810_CQPHC_HW_MAJVER, E810_CQPHC_HW_MAJVER_GEN_2));
}

uint32_t rd_cqp_create(RdmaDriver *d)
{
    /* irdma_sc_cqp_init() zeroes these first. */
    wr32(d->h, E810_CQPTAIL, 0);
    wr32(d->h, E810_CQPDB, 0);
    wr32(d->h, E810_CCQPSTATUS, 0);
    wr32(d->h, E810_CCQPHIGH, d->ctx_pa >> 32);
    wr32(d->h, E810_CCQPLOW, (uint32_t)d->ctx_pa);
    harness_run_work(d->h);
    return rd32(d->h, E810_CCQPSTATUS);
}

uint32_t rd_cqp_destroy(RdmaDriver *d)
{
    wr32(d->h, E810_CCQPHIGH, 0);
    wr32(d->h, E810_CCQPLOW, 0);
    harness_run_work(d->h);
    return rd32(d->h, E810_CCQPSTATUS);
}

/* ---- posting ------------------------------------------------------------- */

uint32_t rd_fill(RdmaDriver *d, unsigned op, uint64_t hdr, const uint64_t *q)
{
    uint32_t idx = d->sq_head;
    uint64_t pa = d->sq_pa + (uint64_t)idx * E810_CQP_WQE_SIZE;
    uint64_t *wqe = mem_ptr(d->h, pa);
    unsigned i;

    if (idx == 0) {
        d->sq_polarity = !d->sq_polarity;
    }
    d->sq_head = (d->sq_head + 1) % d->sq_size;
    memset(wqe, 0, E810_CQP_WQE_SIZE);
    for (i = 0; q && i < 8; i++) {
        if (i != E810_QW(E810_CQPSQ_HDR_OFF)) {
            wqe[i] = htole64(q[i]);
        }
    }
    /* Header last, with the pass's valid bit. */
    wqe[E810_QW(E810_CQPSQ_HDR_OFF)] =
        htole64(hdr | FIELD_PREP(E810_CQPSQ_OPCODE, op) |
                (d->sq_polarity ? E810_CQPSQ_WQEVALID : 0));
    return idx;
}

void rd_ring(RdmaDriver *d)
{
    wr32(d->h, E810_CQPDB, d->sq_head);
}

uint32_t rd_exec_poll(RdmaDriver *d, unsigned op, uint64_t hdr,
                      const uint64_t *q)
{
    uint32_t before = FIELD_GET(E810_CQPTAIL_WQTAIL, rd32(d->h, E810_CQPTAIL));
    uint32_t tail;

    rd_fill(d, op, hdr, q);
    rd_ring(d);
    harness_run_work(d->h);
    tail = rd32(d->h, E810_CQPTAIL);
    /* irdma_cqp_poll_registers(): done when the tail moved or on error. */
    assert_true(FIELD_GET(E810_CQPTAIL_WQTAIL, tail) != before ||
                (tail & E810_CQPTAIL_CQP_OP_ERR));
    return tail;
}

bool rd_ccq_poll(RdmaDriver *d, RdmaCompl *c)
{
    uint64_t pa = d->ccq_pa + (uint64_t)d->ccq_head * E810_CQE_SIZE;
    uint64_t hdr = rd_mem64(d, pa + E810_CQE_HDR_OFF);
    uint64_t wqe;

    if (!!(hdr & E810_CQE_VALID) != d->ccq_polarity) {
        return false;
    }
    memset(c, 0, sizeof(*c));
    c->ctx = rd_mem64(d, pa + E810_CCQ_CQE_CTX_OFF);
    c->ret_val = FIELD_GET(E810_CCQ_OPRETVAL,
                           rd_mem64(d, pa + E810_CCQ_CQE_RET_OFF));
    c->error = hdr & E810_CQE_ERROR;
    c->minor = FIELD_GET(E810_CQE_MINERR, hdr);
    c->major = c->error ? FIELD_GET(E810_CQE_MAJERR, hdr) : 0;
    c->wqe_idx = FIELD_GET(E810_CQE_WQEIDX, hdr);
    wqe = rd_mem64(d, d->sq_pa + (uint64_t)c->wqe_idx * E810_CQP_WQE_SIZE +
                   E810_CQPSQ_HDR_OFF);
    c->op = FIELD_GET(E810_CQPSQ_OPCODE, wqe);
    d->ccq_head = (d->ccq_head + 1) % d->ccq_size;
    if (d->ccq_head == 0) {
        d->ccq_polarity = !d->ccq_polarity;
    }
    rd_set64(d, d->ccq_shadow_pa + E810_CQ_DBSA_HEAD_OFF, d->ccq_head);
    return true;
}

RdmaCompl rd_exec(RdmaDriver *d, unsigned op, uint64_t hdr, const uint64_t *q)
{
    uint32_t idx = rd_fill(d, op, hdr, q);
    RdmaCompl c;

    rd_ring(d);
    harness_run_work(d->h);
    assert_true(rd_ccq_poll(d, &c));
    assert_int_equal(c.wqe_idx, idx);
    assert_int_equal(c.op, op);
    assert_true(c.ctx == d->compl_ctx);
    return c;
}

bool rd_do(RdmaDriver *d, unsigned op, uint64_t hdr, const uint64_t *q)
{
    if (d->ccq) {
        return !rd_exec(d, op, hdr, q).error;
    }
    return !(rd_exec_poll(d, op, hdr, q) & E810_CQPTAIL_CQP_OP_ERR);
}

/* ---- HMC --------------------------------------------------------------- */

static const unsigned query_off[E810_HMC_OBJ_MAX] = E810_FPM_QUERY_OFFSETS;

static const unsigned commit_off[E810_HMC_OBJ_MAX] = E810_FPM_COMMIT_OFFSETS;

void rd_query_fpm(RdmaDriver *d)
{
    uint64_t q[8] = { 0 }, v;
    unsigned t;

    q[E810_QW(E810_CQPSQ_FPM_FN_OFF)] = d->h->core.pf_id;
    q[E810_QW(E810_CQPSQ_FPM_BUF_OFF)] = d->query_pa;
    assert_true(rd_do(d, E810_CQP_OP_QUERY_FPM_VAL, 0, q));
    v = rd_mem64(d, d->query_pa + E810_FPM_QUERY_SD_OFF);
    d->first_sd = FIELD_GET(E810_FPM_FIRST_PE_SD_INDEX, v);
    d->max_sds = FIELD_GET(E810_FPM_MAX_PE_SDS, v);
    for (t = 0; t < E810_HMC_OBJ_MAX; t++) {
        if (!query_off[t]) {
            continue;
        }
        v = rd_mem64(d, d->query_pa + query_off[t]);
        d->obj[t].max = (uint32_t)v;
        /* Free lists carry a block size instead; fixed sizes below. */
        d->obj[t].size = (v >> 32) < 32 ? 1u << (v >> 32) : 0;
    }
    d->obj[E810_HMC_QP].max = FIELD_GET(E810_FPM_MAX_QPS,
        rd_mem64(d, d->query_pa + E810_FPM_QUERY_QP_OFF));
    d->obj[E810_HMC_CQ].max = FIELD_GET(E810_FPM_MAX_CQS,
        rd_mem64(d, d->query_pa + E810_FPM_QUERY_CQ_OFF));
    d->obj[E810_HMC_APBVT].max = 1;
    d->obj[E810_HMC_APBVT].size = E810_HMC_APBVT_OBJ_SIZE;
    d->obj[E810_HMC_PBLE].size = E810_HMC_PBLE_OBJ_SIZE;
    d->xf_block = rd_mem64(d, d->query_pa + E810_FPM_QUERY_XFFL_OFF) >> 32;
    d->q1_block = rd_mem64(d, d->query_pa + E810_FPM_QUERY_Q1FL_OFF) >> 32;
    d->rrf_block = rd_mem64(d, d->query_pa + E810_FPM_QUERY_RRFFL_OFF) >> 32;
    d->ooiscf_block = rd_mem64(d, d->query_pa +
                               E810_FPM_QUERY_OOISCFFL_OFF) >> 32;
    d->obj[E810_HMC_XFFL].size = E810_HMC_FL_OBJ_SIZE;
    d->obj[E810_HMC_Q1FL].size = E810_HMC_FL_OBJ_SIZE;
    d->obj[E810_HMC_RRFFL].size = E810_HMC_FL_OBJ_SIZE;
    d->obj[E810_HMC_OOISCFFL].size = E810_HMC_FL_OBJ_SIZE;
    v = rd_mem64(d, d->query_pa + E810_FPM_QUERY_MISC_OFF);
    d->max_ceqs = FIELD_GET(E810_FPM_MAX_CEQS, v);
    d->ht_mult = FIELD_GET(E810_FPM_HTMULTIPLIER, v);
    d->timer_bucket = FIELD_GET(E810_FPM_TIMERBUCKET, v);
}

static uint64_t round_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) / a * a;
}

static uint32_t pow2_at_least(uint32_t v)
{
    uint32_t p = 1;

    while (p < v) {
        p *= 2;
    }
    return p;
}

uint32_t rd_est_sd(RdmaDriver *d)
{
    uint64_t size = 0;
    unsigned t;

    for (t = 0; t < E810_HMC_OBJ_MAX; t++) {
        size += round_up((uint64_t)d->obj[t].cnt * d->obj[t].size, 512);
    }
    return (size + E810_HMC_SD_SIZE - 1) >> E810_HMC_SD_SHIFT;
}

#define RD_FPM_MULTIPLIER 1024u   /* upstream FPM_MULTIPLIER */

static uint32_t q1_cnt(uint32_t qp)
{
    return pow2_at_least(127 * 2 * qp + 512);   /* max_hw_ird = 127, RoCE */
}

unsigned rd_size_fpm(RdmaDriver *d, uint32_t qp_req)
{
    RdmaHmcObj *o = d->obj;
    uint32_t qp, mr, pble, p, sds = 0, diff;
    unsigned t, loops = 0;

    for (t = 0; t < E810_HMC_OBJ_MAX; t++) {
        o[t].cnt = o[t].max;
    }
    qp = qp_req < o[E810_HMC_QP].max ? qp_req : o[E810_HMC_QP].max;
    for (p = 1; p * 2 <= qp; p *= 2) {
    }
    qp = p;
    mr = o[E810_HMC_MR].max;
    pble = o[E810_HMC_PBLE].max;
    o[E810_HMC_APBVT].cnt = 1;
    while (q1_cnt(qp) > o[E810_HMC_Q1].max) {
        qp /= 2;
    }
    do {
        loops++;
        o[E810_HMC_QP].cnt = qp;
        o[E810_HMC_CQ].cnt = 2 * qp < o[E810_HMC_CQ].cnt ? 2 * qp :
                             o[E810_HMC_CQ].cnt;
        o[E810_HMC_SRQ].cnt = 0;
        o[E810_HMC_MR].cnt = mr;
        o[E810_HMC_HTE].cnt = pow2_at_least(round_up(qp +
                                            o[E810_HMC_FSIMC].cnt, 512)) *
                              d->ht_mult;
        o[E810_HMC_XF].cnt = 4 * d->xf_block * qp;
        o[E810_HMC_HDR].cnt = qp;
        if (o[E810_HMC_RRF].max) {
            o[E810_HMC_RRF].cnt = 32 * qp;
        }
        if (o[E810_HMC_RRFFL].max) {
            o[E810_HMC_RRFFL].cnt = o[E810_HMC_RRF].cnt / d->rrf_block;
        }
        if (o[E810_HMC_OOISC].max) {
            o[E810_HMC_OOISC].cnt = 32 * qp;
        }
        if (o[E810_HMC_OOISCFFL].max) {
            o[E810_HMC_OOISCFFL].cnt = o[E810_HMC_OOISC].cnt /
                                       d->ooiscf_block;
        }
        o[E810_HMC_Q1].cnt = q1_cnt(qp);
        o[E810_HMC_XFFL].cnt = o[E810_HMC_XF].cnt / d->xf_block;
        o[E810_HMC_Q1FL].cnt = o[E810_HMC_Q1].cnt / d->q1_block;
        o[E810_HMC_TIMER].cnt = (round_up(qp, 512) / 512 + 1) *
                                d->timer_bucket;
        o[E810_HMC_PBLE].cnt = pble;
        sds = rd_est_sd(d);
        if (sds <= d->max_sds) {
            break;
        }
        /* irdma_cfg_fpm_val()'s shrinking, step for step */
        diff = sds - d->max_sds;
        if (diff > 128) {
            if (!(loops % 2) && qp > 128) {
                qp /= 2;
            } else {
                mr /= 2;
                pble /= 2;
            }
            continue;
        }
        if (pble > 512 * RD_FPM_MULTIPLIER * diff) {
            pble -= 256 * RD_FPM_MULTIPLIER * diff;
            continue;
        } else if (pble > 100 * RD_FPM_MULTIPLIER) {
            pble -= 10 * RD_FPM_MULTIPLIER;
        } else if (pble > RD_FPM_MULTIPLIER) {
            pble -= RD_FPM_MULTIPLIER;
        } else if (qp <= 128) {
            if (o[E810_HMC_FSIMC].cnt > 256) {
                o[E810_HMC_FSIMC].cnt /= 2;
            }
            if (o[E810_HMC_FSIAV].cnt > 256) {
                o[E810_HMC_FSIAV].cnt /= 2;
            }
        }
        if (mr > RD_FPM_MULTIPLIER) {
            mr -= RD_FPM_MULTIPLIER;
        }
        if (!(loops % 10) && qp > 128) {
            qp /= 2;
            if (o[E810_HMC_FSIAV].cnt > 256) {
                o[E810_HMC_FSIAV].cnt /= 2;
            }
        }
    } while (loops < 2000);
    if (sds > d->max_sds) {
        return 0;
    }
    /* Spare SDs become PBLEs, 256K per SD. */
    if (loops > 1 && sds < d->max_sds) {
        o[E810_HMC_PBLE].cnt += (d->max_sds - sds) * 256 * RD_FPM_MULTIPLIER;
    }
    return loops;
}

uint32_t rd_commit_fpm(RdmaDriver *d)
{
    uint64_t q[8] = { 0 }, v, end, max_base = 0;
    unsigned t, last = 0;

    memset(mem_ptr(d->h, d->commit_pa), 0, E810_FPM_BUF_SIZE);
    for (t = 0; t < E810_HMC_OBJ_MAX; t++) {
        if (t != E810_HMC_SRQ && t != E810_HMC_APBVT) {
            rd_set64(d, d->commit_pa + commit_off[t], d->obj[t].cnt);
        }
    }
    q[E810_QW(E810_CQPSQ_FPM_FN_OFF)] = d->h->core.pf_id;
    q[E810_QW(E810_CQPSQ_FPM_BUF_OFF)] = d->commit_pa;
    if (!rd_do(d, E810_CQP_OP_COMMIT_FPM_VAL,
               FIELD_PREP(E810_CQPSQ_BUFSIZE, E810_FPM_BUF_SIZE), q)) {
        return 0;
    }
    /* irdma_sc_parse_fpm_commit_buf() */
    for (t = 0; t < E810_HMC_OBJ_MAX; t++) {
        if (t == E810_HMC_SRQ) {
            continue;
        }
        v = rd_mem64(d, d->commit_pa + commit_off[t]);
        d->obj[t].cnt = t == E810_HMC_QP ? FIELD_GET(E810_FPM_COMMIT_QPCNT, v) :
                        t == E810_HMC_CQ ? FIELD_GET(E810_FPM_COMMIT_CQCNT, v) :
                        t == E810_HMC_APBVT ? 1 : (uint32_t)v;
        d->obj[t].base = (v >> 32) * E810_FPM_BASE_UNIT;
        if (d->obj[t].base > max_base) {
            max_base = d->obj[t].base;
            last = t;
        }
    }
    end = d->obj[last].base + (uint64_t)d->obj[last].cnt * d->obj[last].size;
    d->sd_cnt = (end + E810_HMC_SD_SIZE - 1) >> E810_HMC_SD_SHIFT;
    return d->sd_cnt;
}

uint64_t rd_fpm_addr(RdmaDriver *d, unsigned type, uint32_t idx)
{
    return d->obj[type].base + (uint64_t)idx * d->obj[type].size;
}

uint32_t rd_sd_cmd(unsigned idx)
{
    return idx | E810_HMC_SDCMD_PARTSEL | E810_HMC_SDCMD_WR;
}

uint64_t rd_sd_data(uint64_t pa, bool direct, bool valid)
{
    return (valid ? pa | E810_HMC_SDDATA_VALID : 0) |
           FIELD_PREP(E810_HMC_SDDATA_BPCOUNT, E810_HMC_MAX_BP_COUNT) |
           FIELD_PREP(E810_HMC_SDDATA_TYPE,
                      direct ? E810_HMC_SD_TYPE_DIRECT :
                               E810_HMC_SD_TYPE_PAGED);
}

bool rd_update_sds(RdmaDriver *d, unsigned n, const uint32_t *cmd,
                   const uint64_t *data)
{
    uint64_t q[8] = { 0 };
    unsigned i, inl = n > 3 ? 3 : n, mem = n - inl;
    uint64_t buf = 0;

    if (mem) {
        /* Entries 3.. go to the SD buffer slot of this WQE's index. */
        buf = d->sdbuf_pa + (uint64_t)d->sq_head * E810_UPDATE_SD_BUFF_SIZE;
        for (i = 0; i < mem; i++) {
            rd_set64(d, buf + 16 * i, cmd[3 + i]);
            rd_set64(d, buf + 16 * i + 8, data[3 + i]);
        }
    }
    q[E810_QW(E810_CQPSQ_UPESD_BUF_OFF)] =
        buf | FIELD_PREP(E810_CQPSQ_UPESD_HMCFNID, d->h->core.pf_id);
    q[E810_QW(E810_CQPSQ_UPESD_E0_CMD_OFF)] = cmd[0];
    q[E810_QW(E810_CQPSQ_UPESD_E0_DATA_OFF)] = data[0];
    if (inl > 1) {
        q[E810_QW(E810_CQPSQ_UPESD_E1_CMD_OFF)] =
            cmd[1] | E810_CQPSQ_UPESD_ENTRY_VALID;
        q[E810_QW(E810_CQPSQ_UPESD_E1_DATA_OFF)] = data[1];
    }
    if (inl > 2) {
        q[E810_QW(E810_CQPSQ_UPESD_E2_CMD_OFF)] =
            cmd[2] | E810_CQPSQ_UPESD_ENTRY_VALID;
        q[E810_QW(E810_CQPSQ_UPESD_E2_DATA_OFF)] = data[2];
    }
    return rd_do(d, E810_CQP_OP_UPDATE_PE_SDS,
                 FIELD_PREP(E810_CQPSQ_UPESD_ENTRY_COUNT, mem), q);
}

uint64_t rd_direct_sd(RdmaDriver *d, unsigned idx)
{
    uint64_t pa = mem_alloc_aligned(d->h, E810_HMC_SD_SIZE, E810_HMC_PD_SIZE);
    uint32_t cmd = rd_sd_cmd(idx);
    uint64_t data = rd_sd_data(pa, true, true);

    assert_true(rd_update_sds(d, 1, &cmd, &data));
    if (idx < 32) {
        d->sd_pa[idx] = pa;
    }
    return pa;
}

/* ---- CCQ --------------------------------------------------------------- */

RdmaCompl rd_create_ccq(RdmaDriver *d, uint32_t size)
{
    uint64_t q[8] = { 0 };
    uint32_t idx;
    RdmaCompl c;

    d->ccq_size = size;
    d->ccq_pa = mem_alloc_aligned(d->h, size * E810_CQE_SIZE, 256);
    d->ccq_shadow_pa = mem_alloc(d->h, E810_CQ_SHADOW_SIZE);
    d->ccq_polarity = true;
    d->ccq_head = 0;
    d->ccq_ctx = RD_CCQ_CTX;
    q[E810_QW(E810_CQPSQ_CQ_SIZE_OFF)] = size;
    q[E810_QW(E810_CQPSQ_CQ_CTX_OFF)] = d->ccq_ctx;
    q[E810_QW(E810_CQPSQ_CQ_THRESH_OFF)] = 16;
    q[E810_QW(E810_CQPSQ_CQ_PA_OFF)] = d->ccq_pa;
    q[E810_QW(E810_CQPSQ_CQ_SHADOW_OFF)] = d->ccq_shadow_pa;
    idx = rd_fill(d, E810_CQP_OP_CREATE_CQ,
                  FIELD_PREP(E810_CQPSQ_CQ_CQID, 0) |
                  FIELD_PREP(E810_CQPSQ_CQ_CEQID, 0) |
                  E810_CQPSQ_CQ_CEQIDVALID | E810_CQPSQ_CQ_CHKOVERFLOW, q);
    rd_ring(d);
    harness_run_work(d->h);
    /* The CREATE_CQ of the CCQ completes into the new CCQ itself. */
    memset(&c, 0, sizeof(c));
    if (rd_ccq_poll(d, &c)) {
        assert_int_equal(c.wqe_idx, idx);
        d->ccq = !c.error;
    } else {
        c.error = true;
    }
    return c;
}

void rd_arm_cq(RdmaDriver *d, uint64_t shadow_pa, uint32_t cq_id, bool se_only)
{
    uint64_t v = rd_mem64(d, shadow_pa + E810_CQ_DBSA_ARM_OFF);
    unsigned seq = FIELD_GET(E810_CQ_DBSA_ARM_SEQ_NUM, v) + 1;

    v = FIELD_PREP(E810_CQ_DBSA_ARM_SEQ_NUM, seq) |
        (v & E810_CQ_DBSA_SW_CQ_SELECT) | E810_CQ_DBSA_ARM_NEXT_SE |
        (se_only ? 0 : E810_CQ_DBSA_ARM_NEXT);
    rd_set64(d, shadow_pa + E810_CQ_DBSA_ARM_OFF, v);
    wr32(d->h, E810_CQARM, cq_id);
}

RdmaCompl rd_create_cq(RdmaDriver *d, uint32_t id, uint32_t size,
                       uint64_t ring_pa, uint64_t shadow_pa, uint32_t ceq,
                       uint64_t ctx, uint64_t hdr)
{
    uint64_t q[8] = { 0 };

    q[E810_QW(E810_CQPSQ_CQ_SIZE_OFF)] = size;
    q[E810_QW(E810_CQPSQ_CQ_CTX_OFF)] = ctx;
    q[E810_QW(E810_CQPSQ_CQ_THRESH_OFF)] = size / 2;
    q[E810_QW(E810_CQPSQ_CQ_PA_OFF)] = ring_pa;
    q[E810_QW(E810_CQPSQ_CQ_SHADOW_OFF)] = shadow_pa;
    return rd_exec(d, E810_CQP_OP_CREATE_CQ,
                   FIELD_PREP(E810_CQPSQ_CQ_CQID, id) |
                   FIELD_PREP(E810_CQPSQ_CQ_CEQID, ceq) |
                   E810_CQPSQ_CQ_CEQIDVALID | E810_CQPSQ_CQ_ENCEQEMASK | hdr,
                   q);
}

RdmaCompl rd_create_ceq(RdmaDriver *d, uint32_t id, uint32_t size,
                        uint64_t ring_pa)
{
    uint64_t q[8] = { 0 };

    q[E810_QW(E810_CQPSQ_EQ_SIZE_OFF)] = size;
    q[E810_QW(E810_CQPSQ_EQ_PA_OFF)] = ring_pa;
    return rd_exec(d, E810_CQP_OP_CREATE_CEQ,
                   FIELD_PREP(E810_CQPSQ_CEQ_CEQID, id), q);
}

RdmaCompl rd_create_aeq(RdmaDriver *d, uint32_t size, uint64_t ring_pa)
{
    uint64_t q[8] = { 0 };

    q[E810_QW(E810_CQPSQ_EQ_SIZE_OFF)] = size;
    q[E810_QW(E810_CQPSQ_EQ_PA_OFF)] = ring_pa;
    return rd_exec(d, E810_CQP_OP_CREATE_AEQ, 0, q);
}

uint64_t rd_back_object(RdmaDriver *d, unsigned type, uint32_t idx)
{
    uint64_t fpm = rd_fpm_addr(d, type, idx);
    unsigned sd = fpm >> E810_HMC_SD_SHIFT;
    uint64_t pde_pa, page;
    uint32_t pd = (fpm & (E810_HMC_SD_SIZE - 1)) >> E810_HMC_PD_SHIFT;

    assert_true(sd < 32);
    if (d->sd_pa[sd]) {
        return d->sd_pa[sd] + (fpm & (E810_HMC_SD_SIZE - 1));
    }
    if (!d->pd_pa[sd]) {
        uint32_t cmd = rd_sd_cmd(sd);
        uint64_t data;

        d->pd_pa[sd] = mem_alloc_aligned(d->h, 4096, 4096);
        data = rd_sd_data(d->pd_pa[sd], false, true);
        assert_true(rd_update_sds(d, 1, &cmd, &data));
    }
    pde_pa = d->pd_pa[sd] + 8 * pd;
    page = rd_mem64(d, pde_pa) & E810_HMC_PDE_ADDR;
    if (!page) {
        page = mem_alloc_aligned(d->h, 4096, 4096);
        rd_set64(d, pde_pa, page | E810_HMC_PDE_VALID);
        wr32(d->h, E810_PFHMC_PDINV, sd | E810_PFHMC_PDINV_PMSDPARTSEL |
             FIELD_PREP(E810_PFHMC_PDINV_PMPDIDX, pd));
    }
    return page + (fpm & (E810_HMC_PD_SIZE - 1));
}

uint64_t rd_pble_page(RdmaDriver *d)
{
    return rd_back_object(d, E810_HMC_PBLE, 0);
}

void rd_bringup(Harness *h, RdmaDriver *d)
{
    rd_init(h, d, 64);
    assert_int_equal(rd_cqp_create(d), E810_CCQPSTATUS_CCQP_DONE);
    rd_query_fpm(d);
    assert_true(rd_size_fpm(d, 262144) > 0);
    assert_true(rd_commit_fpm(d) > 0);
    rd_direct_sd(d, 0);
    assert_false(rd_create_ccq(d, 256).error);
}
