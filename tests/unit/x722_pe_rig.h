/*
 * The X722's RDMA protocol engine brought up through BAR0 as the stock
 * irdma's GEN_1 open does (irdma_ctrl_init_hw(): CQP create, QUERY/
 * COMMIT_FPM_VAL, UPDATE_PE_SDS, the CCQ, CEQ 0), and the ILQ on it
 * (irdma_puda_qp_create(), the CM's APBVT port and listener): shared by
 * tests/unit/test_x722_rdma.c and tests/fuzz/fuzz_x722_ilq.c. The helpers
 * assert with cmocka's macros (tests/fuzz/cmocka_shim.c in a fuzzer).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef X722_PE_RIG_H
#define X722_PE_RIG_H

#include "x722_rig.h"
#include "e810_iw_conn.h"
#include "e810_iwarp.h"
#include "hw/e810_ctx.h"
#include "hw/e810_gen.h"

/* Guest memory of the engine's structures: above the LAN rig's. */
#define PE_BASE         (XR_MEM_BASE + 0x100000)
#define PE_CTX          (PE_BASE + 0x0000)
#define PE_SQ           (PE_BASE + 0x1000)     /* 512-aligned */
#define PE_QUERY        (PE_BASE + 0x2000)
#define PE_COMMIT       (PE_BASE + 0x2200)
#define PE_CCQ          (PE_BASE + 0x3000)     /* 64 CQEs */
#define PE_CCQ_SHADOW   (PE_BASE + 0x3800)
#define PE_CEQ          (PE_BASE + 0x4000)     /* 64 CEQEs */
#define PE_CQ1          (PE_BASE + 0x5000)
#define PE_CQ1_SHADOW   (PE_BASE + 0x5800)
#define PE_PD           (PE_BASE + 0x6000)     /* PD page of SD 16 */
#define PE_PAGES        (PE_BASE + 0x10000)    /* backing pages */
#define PE_SQ_SIZE      16
#define PE_CCQ_SIZE     64
#define PE_CTX_VAL      0xffff888012345678ull
#define PE_CCQ_CTX      0x0123456789abcdeull

/* The GEN_1 control-QP field positions (the test's "driver" side). */
static const struct e810_hw_gen gen1 = E810_HW_GEN1;

typedef struct Pe {
    XRig r;
    uint32_t head;
    bool pol;
    uint32_t ccq_head;
    bool ccq_pol;
    bool ccq;
    uint64_t base[E810_HMC_OBJ_MAX];
    uint32_t next_page;
} Pe;

static inline uint64_t m64(Pe *p, uint64_t pa)
{
    return xr_get64(xr_ptr(&p->r, pa));
}

static inline void s64(Pe *p, uint64_t pa, uint64_t v)
{
    xr_put64(xr_ptr(&p->r, pa), v);
}

static inline void pe_ctx(Pe *p, unsigned majver, unsigned proto)
{
    memset(xr_ptr(&p->r, PE_CTX), 0, 64);
    /* SQSIZE code 3: 16 WQEs */
    s64(p, PE_CTX + E810_CQPHC_CFG_OFF,
        FIELD_PREP(E810_CQPHC_SQSIZE, 3) |
        FIELD_PREP(E810_CQPHC_PROTOCOL_USED, proto));
    s64(p, PE_CTX + E810_CQPHC_SQ_BASE_OFF, PE_SQ);
    s64(p, PE_CTX + E810_CQPHC_COMPL_CTX_OFF, PE_CTX_VAL);
    s64(p, PE_CTX + E810_CQPHC_VER_OFF,
        FIELD_PREP(E810_CQPHC_HW_MAJVER, majver));
}

/* irdma_sc_cqp_init() + irdma_sc_cqp_create() with GEN_1's register map. */
static inline uint32_t pe_create(Pe *p)
{
    xr_wr(&p->r, X722_PE_CQPTAIL, 0);
    xr_wr(&p->r, X722_PE_CQPDB, 0);
    xr_wr(&p->r, X722_PE_CCQPSTATUS, 0);
    xr_wr(&p->r, X722_PE_CCQPHIGH, PE_CTX >> 32);
    xr_wr(&p->r, X722_PE_CCQPLOW, (uint32_t)PE_CTX);
    p->head = 0;
    p->pol = false;
    p->ccq = false;
    return xr_rd(&p->r, X722_PE_CCQPSTATUS);
}

static inline uint32_t pe_post(Pe *p, unsigned op, uint64_t hdr, const uint64_t *q)
{
    uint32_t idx = p->head;
    uint64_t pa = PE_SQ + (uint64_t)idx * E810_CQP_WQE_SIZE;
    unsigned i;

    if (idx == 0) {
        p->pol = !p->pol;
    }
    p->head = (p->head + 1) % PE_SQ_SIZE;
    for (i = 0; i < 8; i++) {
        s64(p, pa + 8 * i, q && i != E810_QW(E810_CQPSQ_HDR_OFF) ? q[i] : 0);
    }
    s64(p, pa + E810_CQPSQ_HDR_OFF,
        hdr | FIELD_PREP(E810_CQPSQ_OPCODE, op) |
        (p->pol ? E810_CQPSQ_WQEVALID : 0));
    xr_wr(&p->r, X722_PE_CQPDB, p->head);
    x722_core_run_work(&p->r.core);
    return idx;
}

/* One CCQ CQE, if there is one: its error flag and op_ret_val. */
static inline bool pe_ccq_poll(Pe *p, bool *err, uint32_t *ret, uint32_t *minor)
{
    uint64_t pa = PE_CCQ + (uint64_t)p->ccq_head * E810_CQE_SIZE;
    uint64_t hdr = m64(p, pa + E810_CQE_HDR_OFF);

    if (!!(hdr & E810_CQE_VALID) != p->ccq_pol) {
        return false;
    }
    assert_true(m64(p, pa + E810_CCQ_CQE_CTX_OFF) == PE_CTX_VAL);
    *err = hdr & E810_CQE_ERROR;
    *ret = FIELD_GET(E810_CCQ_OPRETVAL, m64(p, pa + E810_CCQ_CQE_RET_OFF));
    if (minor) {
        *minor = FIELD_GET(E810_CQE_MINERR, hdr);
    }
    p->ccq_head = (p->ccq_head + 1) % PE_CCQ_SIZE;
    if (!p->ccq_head) {
        p->ccq_pol = !p->ccq_pol;
    }
    s64(p, PE_CCQ_SHADOW + E810_CQ_DBSA_HEAD_OFF, p->ccq_head);
    return true;
}

/* Runs one WQE; true if it succeeded (CCQ CQE, or CQPTAIL without one). */
static inline bool pe_do(Pe *p, unsigned op, uint64_t hdr, const uint64_t *q,
                  uint32_t *ret)
{
    uint32_t before = xr_rd(&p->r, X722_PE_CQPTAIL) & 0x7ff, tail, r = 0;
    bool err;

    pe_post(p, op, hdr, q);
    if (p->ccq) {
        assert_true(pe_ccq_poll(p, &err, &r, NULL));
        if (ret) {
            *ret = r;
        }
        return !err;
    }
    tail = xr_rd(&p->r, X722_PE_CQPTAIL);
    assert_int_equal(tail & 0x7ff, (before + 1) % PE_SQ_SIZE);
    return !(tail & E810_CQPTAIL_CQP_OP_ERR);
}

static inline void pe_query(Pe *p)
{
    uint64_t q[8] = { 0 };

    q[E810_QW(E810_CQPSQ_FPM_FN_OFF)] = 0;
    q[E810_QW(E810_CQPSQ_FPM_BUF_OFF)] = PE_QUERY;
    assert_true(pe_do(p, E810_CQP_OP_QUERY_FPM_VAL, 0, q, NULL));
}

static const unsigned commit_off[E810_HMC_OBJ_MAX] = E810_FPM_COMMIT_OFFSETS;

/* A small GEN_1 object set (the counts irdma_cfg_fpm_val() could pick). */
static inline bool pe_commit(Pe *p, uint32_t fsimc)
{
    static const struct { unsigned t; uint32_t cnt; } want[] = {
        { E810_HMC_QP, 8 }, { E810_HMC_CQ, 8 }, { E810_HMC_HTE, 64 },
        { E810_HMC_ARP, 16 }, { E810_HMC_APBVT, 1 }, { E810_HMC_MR, 16 },
        { E810_HMC_XF, 16 }, { E810_HMC_XFFL, 1 }, { E810_HMC_Q1, 16 },
        { E810_HMC_Q1FL, 1 }, { E810_HMC_TIMER, 8 }, { E810_HMC_PBLE, 512 },
    };
    uint64_t q[8] = { 0 };
    unsigned i;
    bool ok;

    memset(xr_ptr(&p->r, PE_COMMIT), 0, E810_FPM_BUF_SIZE);
    for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        s64(p, PE_COMMIT + commit_off[want[i].t], want[i].cnt);
    }
    s64(p, PE_COMMIT + commit_off[E810_HMC_FSIMC], fsimc);
    q[E810_QW(E810_CQPSQ_FPM_FN_OFF)] = 0;
    q[E810_QW(E810_CQPSQ_FPM_BUF_OFF)] = PE_COMMIT;
    ok = pe_do(p, E810_CQP_OP_COMMIT_FPM_VAL,
               FIELD_PREP(E810_CQPSQ_BUFSIZE, E810_FPM_BUF_SIZE), q, NULL);
    for (i = 0; ok && i < E810_HMC_OBJ_MAX; i++) {
        p->base[i] = FIELD_GET(E810_FPM_COMMIT_BASE,
                               m64(p, PE_COMMIT + commit_off[i])) *
                     E810_FPM_BASE_UNIT;
    }
    return ok;
}

static inline bool pe_sd(Pe *p, unsigned sd, uint64_t pa, bool direct)
{
    uint64_t q[8] = { 0 };

    q[E810_QW(E810_CQPSQ_UPESD_BUF_OFF)] =
        FIELD_PREP(E810_CQPSQ_UPESD_HMCFNID, 0);
    q[E810_QW(E810_CQPSQ_UPESD_E0_CMD_OFF)] =
        sd | E810_HMC_SDCMD_PARTSEL | E810_HMC_SDCMD_WR;
    q[E810_QW(E810_CQPSQ_UPESD_E0_DATA_OFF)] =
        pa | E810_HMC_SDDATA_VALID |
        FIELD_PREP(E810_HMC_SDDATA_BPCOUNT, E810_HMC_MAX_BP_COUNT) |
        FIELD_PREP(E810_HMC_SDDATA_TYPE, direct ? E810_HMC_SD_TYPE_DIRECT :
                                                  E810_HMC_SD_TYPE_PAGED);
    return pe_do(p, E810_CQP_OP_UPDATE_PE_SDS, 0, q, NULL);
}

/* Backs the page of object @t index @idx through the paged SD 16. */
static inline void pe_back(Pe *p, unsigned t, uint32_t idx, uint32_t size)
{
    uint64_t fpm = p->base[t] + (uint64_t)idx * size;
    unsigned pd = (fpm & (E810_HMC_SD_SIZE - 1)) >> E810_HMC_PD_SHIFT;
    uint64_t page;

    assert_int_equal(fpm >> E810_HMC_SD_SHIFT, X722_PE_FIRST_SD);
    if (m64(p, PE_PD + 8 * pd) & E810_HMC_PDE_VALID) {
        return;
    }
    page = PE_PAGES + 4096ull * p->next_page++;
    s64(p, PE_PD + 8 * pd, page | E810_HMC_PDE_VALID);
    /* irdma_invalidate_pf_hmc_pd() */
    xr_wr(&p->r, X722_PFHMC_PDINV, X722_PE_FIRST_SD |
          E810_PFHMC_PDINV_PMSDPARTSEL |
          FIELD_PREP(E810_PFHMC_PDINV_PMPDIDX, pd));
}

/* CREATE_CQ with the GEN_1 CQ and CEQ id fields. */
static inline uint64_t cq_hdr(uint32_t cq, uint32_t ceq)
{
    return FIELD_PREP(gen1.cq_cqid, cq) | FIELD_PREP(gen1.cq_ceqid, ceq) |
           E810_CQPSQ_CQ_CEQIDVALID;
}

static inline void pe_ccq(Pe *p)
{
    uint64_t q[8] = { 0 };
    bool err;
    uint32_t ret;

    memset(xr_ptr(&p->r, PE_CCQ), 0, PE_CCQ_SIZE * E810_CQE_SIZE);
    q[E810_QW(E810_CQPSQ_CQ_SIZE_OFF)] = PE_CCQ_SIZE;
    q[E810_QW(E810_CQPSQ_CQ_CTX_OFF)] = PE_CCQ_CTX;
    q[E810_QW(E810_CQPSQ_CQ_THRESH_OFF)] = 16;
    q[E810_QW(E810_CQPSQ_CQ_PA_OFF)] = PE_CCQ;
    q[E810_QW(E810_CQPSQ_CQ_SHADOW_OFF)] = PE_CCQ_SHADOW;
    pe_post(p, E810_CQP_OP_CREATE_CQ,
            cq_hdr(0, 0) | E810_CQPSQ_CQ_CHKOVERFLOW, q);
    p->ccq_pol = true;
    p->ccq_head = 0;
    /* The CCQ's own CREATE_CQ completes into it. */
    assert_true(pe_ccq_poll(p, &err, &ret, NULL));
    assert_false(err);
    p->ccq = true;
}

/* Up to the CCQ: what irdma_ctrl_init_hw() does before CEQ 0. */
static inline void pe_bringup(Pe *p)
{
    pe_ctx(p, E810_CQPHC_HW_MAJVER_GEN_1, 0);
    assert_int_equal(pe_create(p), E810_CCQPSTATUS_CCQP_DONE);
    pe_query(p);
    assert_true(pe_commit(p, 0));
    assert_true(pe_sd(p, X722_PE_FIRST_SD, PE_PD, false));
    pe_back(p, E810_HMC_CQ, 0, 64);
    pe_back(p, E810_HMC_CQ, 1, 64);
    pe_ccq(p);
}

/* ---- the ILQ: GEN_1 frames (x722_ilq.c) ---- */

#define ILQ_SQ          (PE_BASE + 0x7000)     /* 8 quanta */
#define ILQ_RQ          (PE_BASE + 0x7400)     /* 8 x 32 bytes */
#define ILQ_SHADOW      (PE_BASE + 0x7800)
#define ILQ_CTX         (PE_BASE + 0x7900)
#define ILQ_RXBUF       (PE_BASE + 0x8000)     /* 2 x 1024 */
#define ILQ_TXBUF       (PE_BASE + 0x8800)
#define ILQ_CTX_VAL     0xffff8880abcd0000ull
#define ILQ_LPORT       7174
#define ILQ_RPORT       40000
#define ILQ_LIP         0xc0a80101u            /* 192.168.1.1: ours */
#define ILQ_RIP         0xc0a80102u
static const uint8_t ilq_peer[6] = { 0x52, 0x54, 0x00, 0x72, 0x20, 0x02 };

typedef struct Ilq {
    uint32_t sq_head, rq_head, cq_head;
} Ilq;

/* irdma_puda_qp_create() of the ILQ on CQ 1 (GEN_1: RQ LEN [31:0]). */
static inline void ilq_make(Pe *p, Ilq *l)
{
    uint64_t q[8] = { 0 };
    unsigned i;

    pe_bringup(p);
    pe_back(p, E810_HMC_QP, E810_ILQ_QPN, 512);
    memset(xr_ptr(&p->r, PE_CQ1), 0, 32 * E810_CQE_SIZE);
    q[E810_QW(E810_CQPSQ_CQ_SIZE_OFF)] = 32;
    q[E810_QW(E810_CQPSQ_CQ_CTX_OFF)] = 0x1111;
    q[E810_QW(E810_CQPSQ_CQ_THRESH_OFF)] = 16;
    q[E810_QW(E810_CQPSQ_CQ_PA_OFF)] = PE_CQ1;
    q[E810_QW(E810_CQPSQ_CQ_SHADOW_OFF)] = PE_CQ1_SHADOW;
    assert_true(pe_do(p, E810_CQP_OP_CREATE_CQ, cq_hdr(1, 0), q, NULL));
    memset(xr_ptr(&p->r, ILQ_SQ), 0, 0x1000);
    memset(xr_ptr(&p->r, ILQ_CTX), 0, E810_QP_CTX_SIZE);
    s64(p, ILQ_CTX + E810_QPC_SQADDR_OFF, ILQ_SQ);
    s64(p, ILQ_CTX + E810_QPC_RQADDR_OFF, ILQ_RQ);
    s64(p, ILQ_CTX + E810_QPC_SIZES_OFF, FIELD_PREP(E810_QPC_RQSIZE, 1) |
        FIELD_PREP(E810_QPC_SQSIZE, 1));
    s64(p, ILQ_CTX + E810_QPC_MSS_OFF, FIELD_PREP(E810_QPC_SNDMSS, 1024));
    s64(p, ILQ_CTX + 64, 1);
    s64(p, ILQ_CTX + E810_QPC_CQ_OFF, FIELD_PREP(E810_QPC_TXCQNUM, 1) |
        FIELD_PREP(E810_QPC_RXCQNUM, 1));
    s64(p, ILQ_CTX + E810_QPC_FLAGS_OFF, E810_QPC_PRIVEN);
    s64(p, ILQ_CTX + E810_QPC_COMPL_CTX_OFF, ILQ_CTX_VAL);
    /* the VSI's queue set (0x0212 qs_handle[0]), as i40e hands it over */
    s64(p, ILQ_CTX + E810_QPC_QS_OFF, FIELD_PREP(E810_QPC_QSHANDLE, X722_QS_HANDLE));
    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_QP_CTX_OFF)] = ILQ_CTX;
    q[E810_QW(E810_CQPSQ_QP_DBSHADOW_OFF)] = ILQ_SHADOW;
    assert_true(pe_do(p, E810_CQP_OP_CREATE_QP,
                      FIELD_PREP(E810_CQPSQ_QP_QPID, E810_ILQ_QPN) |
                      FIELD_PREP(E810_CQPSQ_QP_QPTYPE, E810_QP_TYPE_UDA) |
                      FIELD_PREP(E810_CQPSQ_QP_NEXTIWSTATE,
                                 E810_QP_STATE_RTS) |
                      E810_CQPSQ_QP_CQNUMVALID, q, NULL));
    /* two receive buffers (irdma_puda_post_recvbuf(), GEN_1 branch) */
    for (i = 0; i < 2; i++) {
        s64(p, ILQ_RQ + 32 * i, ILQ_RXBUF + 1024 * i);
        s64(p, ILQ_RQ + 32 * i + 8, FIELD_PREP(gen1.frag_len, 1024));
        s64(p, ILQ_RQ + 32 * i + 16, 0);
        s64(p, ILQ_RQ + 32 * i + 24, E810_WQE_VALID);
    }
    memset(l, 0, sizeof(*l));
    /* the CM's port and listener (irdma_add_apbvt(), irdma_manage_qhash()) */
    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_MAPT_PORT_OFF)] = ILQ_LPORT;
    assert_true(pe_do(p, E810_CQP_OP_MANAGE_APBVT, E810_CQPSQ_MAPT_ADDPORT,
                      q, NULL));
    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_QHASH_PORTS_OFF)] =
        FIELD_PREP(E810_CQPSQ_QHASH_QPN, E810_ILQ_QPN) |
        FIELD_PREP(E810_CQPSQ_QHASH_DEST_PORT, ILQ_LPORT);
    q[E810_QW(E810_CQPSQ_QHASH_LIP23_OFF)] = ILQ_LIP;
    assert_true(pe_do(p, E810_CQP_OP_MANAGE_QUAD_HASH_TABLE_ENTRY,
                      FIELD_PREP(E810_CQPSQ_QHASH_MANAGE,
                                 E810_QHASH_MANAGE_ADD) |
                      FIELD_PREP(E810_CQPSQ_QHASH_ENTRYTYPE,
                                 E810_QHASH_TYPE_TCP_SYN) |
                      E810_CQPSQ_QHASH_IPV4VALID, q, NULL));
}

/* i40e_client_update_vsi_ctxt(): the VSI's TCP_ENA queueing option. */
static inline void ilq_tcp_ena(Pe *p, bool on)
{
    uint8_t params[16] = { 0 }, props[128] = { 0 };

    xr_put16(params, 390);                      /* the VSI's SEID */
    xr_put16(props, 0x0080);                    /* QUEUE_OPT_VALID */
    props[78] = on ? X722_VSI_TCP_ENA : 0;
    assert_int_equal(xr_cmd(&p->r, 0x0211, params, props, sizeof(props),
                            true, NULL), 0);
}

static inline void be16p(uint8_t *p, uint16_t v)
{
    p[0] = v >> 8;
    p[1] = (uint8_t)v;
}

static inline void be32p(uint8_t *p, uint32_t v)
{
    be16p(p, v >> 16);
    be16p(p + 2, (uint16_t)v);
}

/* A TCP/IPv4 frame from the peer to us (irdma_form_uda_cm_frame()'s
 * layout; @to_us: else from us), 802.1Q tagged if @vlan; checksums 0. */
static inline size_t ilq_frame(Pe *p, uint8_t *f, bool to_us, bool vlan,
                        uint8_t flags, unsigned plen)
{
    size_t l3 = vlan ? 18 : 14, l4 = l3 + 20;

    memset(f, 0, l4 + 20 + plen);
    memcpy(f, to_us ? p->r.core.mac : ilq_peer, 6);
    memcpy(f + 6, to_us ? ilq_peer : p->r.core.mac, 6);
    if (vlan) {
        be16p(f + 12, 0x8100);
        be16p(f + 14, 0x2007);
    }
    be16p(f + l3 - 2, 0x0800);
    f[l3] = 0x45;
    be16p(f + l3 + 2, 20 + 20 + plen);
    be16p(f + l3 + 6, 0x4000);
    f[l3 + 8] = 64;
    f[l3 + 9] = 6;
    be32p(f + l3 + 12, to_us ? ILQ_RIP : ILQ_LIP);
    be32p(f + l3 + 16, to_us ? ILQ_LIP : ILQ_RIP);
    be16p(f + l4, to_us ? ILQ_RPORT : ILQ_LPORT);
    be16p(f + l4 + 2, to_us ? ILQ_LPORT : ILQ_RPORT);
    be32p(f + l4 + 4, 0x11223344);
    f[l4 + 12] = 5 << 4;
    f[l4 + 13] = flags;
    be16p(f + l4 + 14, 0xffff);
    memset(f + l4 + 20, 0x5a, plen);
    return l4 + 20 + plen;
}

#endif /* X722_PE_RIG_H */
