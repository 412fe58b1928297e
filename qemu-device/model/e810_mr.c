/*
 * Emulated E810: memory regions and windows (STags), control side.
 *
 * ALLOC_STAG reserves an STag index for a fast-register MR or a memory
 * window; REG_MR registers a non-shared MR; DEALLOC_STAG frees either.
 * The index (STag >> 8) must be within the committed MR count and backed
 * by the HMC. Failures use the CQP's "STag invalid" minor code. What the
 * data path needs to check an access (PD, key, rights, bounds, PBL) is kept
 * in E810Mr. An MR allocated by ALLOC_STAG becomes usable by FAST_REG_MR
 * (an SQ WQE of a kernel QP, below) and unusable again by an invalidation
 * (e810_dp_invalidate).
 *
 * Memory windows: ALLOC_STAG without the MR bit (irdma_sc_mw_alloc(); the
 * MWTYPE bit set means type 1) allocates an unbound window in a PD. A
 * BIND_MW SQ WQE (below) binds it to a range of a registered parent MR
 * with its own key, remote rights and addressing; e810_mem.c then resolves
 * the window's STag through the parent. Type-2 windows are tied to the QP
 * that bound them (IB type 2B) and are unbound by LOCAL_INVALIDATE or SEND
 * with INVALIDATE; type-1 windows only by rebinding or DEALLOC_STAG.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "e810_core.h"
#include "e810_dp.h"

#define MR_MAX_SIZE     0x200000000000ull   /* GEN_2 max_mr_size */

/* The bind WQE's rights are stored as the window's E810_ACCESS_* rights. */
_Static_assert(E810_WQE_RIGHTS_REMOTE_READ == E810_ACCESS_REMOTE_READ &&
               E810_WQE_RIGHTS_REMOTE_WRITE == E810_ACCESS_REMOTE_WRITE,
               "bind-MW rights are the access-rights bits");

uint32_t e810_stag_index(E810Core *core, uint32_t stag_hi)
{
    uint32_t count = e810_hmc_count(core, E810_HMC_MR);
    /* The fewest bits that count 0 .. count - 1, 14 to 24 of them. */
    unsigned bits = count > 1u << 14 ? 32 - __builtin_clz(count - 1) : 14;

    return stag_hi & ((1u << (bits < 24 ? bits : 24)) - 1);
}

/* The MR slot an STag WQE names; NULL (and @res) if out of range. */
static E810Mr *mr_slot(E810Core *core, const E810CqpWqe *w,
                       E810CqpResult *res)
{
    uint32_t idx = e810_stag_index(core,
                                   FIELD_GET(E810_CQPSQ_STAG_IDX,
                                             e810_wqe(w, E810_CQPSQ_STAG_IDX_OFF)));

    if (idx >= e810_hmc_count(core, E810_HMC_MR)) {
        e810_cqp_err(core, res, E810_CQP_MIN_STAG_INVALID, "STag index %u "
                     "beyond the committed count", idx);
        return NULL;
    }
    return &core->rdma.mr[idx];
}

/* PBL / page-size fields of ALLOC_STAG and REG_MR; false (and @res). */
static bool mr_layout(E810Core *core, const E810CqpWqe *w, E810Mr *mr,
                      E810CqpResult *res)
{
    uint64_t hdr = e810_wqe_hdr(w);

    mr->lpbl = FIELD_GET(E810_CQPSQ_STAG_LPBLSIZE, hdr);
    mr->hpage = FIELD_GET(E810_CQPSQ_STAG_HPAGESIZE, hdr);
    mr->first_pble = FIELD_GET(E810_CQPSQ_STAG_FIRSTPMPBLIDX,
                               e810_wqe(w, E810_CQPSQ_STAG_PBL_OFF));
    mr->len = FIELD_GET(E810_CQPSQ_STAG_STAGLEN,
                        e810_wqe(w, E810_CQPSQ_STAG_LEN_OFF));
    if (mr->hpage > E810_HPAGE_1G) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_PARAM, "page size code %u",
                     mr->hpage);
        return false;
    }
    if (mr->len > MR_MAX_SIZE) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_SIZE, "MR of 0x%llx bytes",
                     (unsigned long long)mr->len);
        return false;
    }
    switch (mr->lpbl) {
    case E810_LPBL_NONE:
        return true;
    case E810_LPBL_LEVEL1:
    case E810_LPBL_LEVEL2:
        if (mr->first_pble >= e810_hmc_count(core, E810_HMC_PBLE)) {
            e810_cqp_err(core, res, E810_CQP_MIN_BAD_INDEX, "PBLE %u beyond "
                         "the committed count", mr->first_pble);
            return false;
        }
        return true;
    default:
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_PARAM, "PBL level code %u",
                     mr->lpbl);
        return false;
    }
}

/* The STag slot a WQE names, if it exists and is not in use. */
static E810Mr *free_mr_slot(E810Core *core, const E810CqpWqe *w,
                            E810CqpResult *res)
{
    E810Mr *mr = mr_slot(core, w, res);

    if (mr && mr->valid) {
        e810_cqp_err(core, res, E810_CQP_MIN_STAG_INVALID, "STag index %u in "
                     "use", (unsigned)(mr - core->rdma.mr));
        return NULL;
    }
    return mr;
}

void e810_op_alloc_stag(E810Core *core, const E810CqpWqe *w,
                        E810CqpResult *res)
{
    uint64_t hdr = e810_wqe_hdr(w);
    E810Mr *mr = free_mr_slot(core, w, res), m = { 0 };
    uint32_t idx;

    if (!mr) {
        return;
    }
    idx = mr - core->rdma.mr;
    m.is_mw = !(hdr & E810_CQPSQ_STAG_MR);
    m.pd = FIELD_GET(core->gen->stag_pdid,
                     e810_wqe(w, E810_CQPSQ_STAG_LEN_OFF));
    if (m.is_mw) {
        m.mw_type1 = hdr & E810_CQPSQ_STAG_MWTYPE;
    } else {
        m.fast_reg_ok = true;
        m.rights = FIELD_GET(E810_CQPSQ_STAG_ARIGHTS, hdr);
        m.remote = hdr & E810_CQPSQ_STAG_REMACCENABLED;
        if (!mr_layout(core, w, &m, res)) {
            return;
        }
    }
    if (!e810_hmc_check_backed(core, E810_HMC_MR, idx, res)) {
        return;
    }
    m.valid = true;
    *mr = m;
}

void e810_op_reg_mr(E810Core *core, const E810CqpWqe *w, E810CqpResult *res)
{
    uint64_t hdr = e810_wqe_hdr(w);
    E810Mr *mr = free_mr_slot(core, w, res), m = { 0 };
    uint32_t idx;

    if (!mr) {
        return;
    }
    idx = mr - core->rdma.mr;
    if (!(hdr & E810_CQPSQ_STAG_MR)) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_PARAM, "REG_MR without the "
                     "MR bit");
        return;
    }
    m.registered = true;
    m.key = FIELD_GET(E810_CQPSQ_STAG_KEY,
                      e810_wqe(w, E810_CQPSQ_STAG_IDX_OFF));
    m.pd = FIELD_GET(core->gen->stag_pdid,
                     e810_wqe(w, E810_CQPSQ_STAG_LEN_OFF));
    m.rights = FIELD_GET(E810_CQPSQ_STAG_ARIGHTS, hdr);
    m.remote = hdr & E810_CQPSQ_STAG_REMACCENABLED;
    m.zero_based = !(hdr & E810_CQPSQ_STAG_VABASEDTO);
    m.va = e810_wqe(w, E810_CQPSQ_STAG_VA_OFF);
    m.pa = e810_wqe(w, E810_CQPSQ_STAG_PA_OFF);
    if (!mr_layout(core, w, &m, res) ||
        !e810_hmc_check_backed(core, E810_HMC_MR, idx, res)) {
        return;
    }
    m.valid = true;
    *mr = m;
}

/*
 * DEALLOC_STAG of an MR that still has windows bound: the windows lose
 * their parent and become unbound (upstream irdma_dereg_mr() does not wait
 * for them, and nothing may reach the freed pages through them).
 */
static void unbind_children(E810Core *core, uint32_t parent)
{
    uint32_t i, n = e810_hmc_count(core, E810_HMC_MR);
    E810Mr *p = &core->rdma.mr[parent];

    for (i = 0; i < n && p->bound_mws; i++) {
        E810Mr *w = &core->rdma.mr[i];

        if (w->valid && w->is_mw && w->mw_bound && w->mw_parent == parent) {
            e810_mw_unbind(core, w);
        }
    }
}

void e810_op_dealloc_stag(E810Core *core, const E810CqpWqe *w,
                          E810CqpResult *res)
{
    E810Mr *mr = mr_slot(core, w, res);

    if (!mr) {
        return;
    }
    if (!mr->valid) {
        e810_cqp_err(core, res, E810_CQP_MIN_STAG_INVALID, "STag index %u not "
                     "allocated", (unsigned)(mr - core->rdma.mr));
        return;
    }
    if (mr->is_mw) {
        e810_mw_unbind(core, mr);
    } else if (mr->bound_mws) {
        unbind_children(core, mr - core->rdma.mr);
    }
    memset(mr, 0, sizeof(*mr));
}

/* ---- FAST_REG_MR from an SQ WQE (docs/hw-reference.md 5.3) --------------- */

uint16_t e810_mr_fast_reg(E810Core *core, E810Qp *qp, const uint64_t *q)
{
    uint64_t hdr = q[E810_QW(E810_WQE_HDR_OFF)];
    uint64_t q1 = q[E810_QW(E810_WQE_FRAG0_DESC_OFF)];
    uint64_t q2 = q[E810_QW(E810_WQE_OPQ_OFF)];
    /* Masked as REG_MR's: irdma_create_stag() keys the bits above. */
    uint32_t idx = e810_stag_index(core, FIELD_GET(E810_WQE_FR_STAGINDEX,
                                                   hdr));
    uint8_t rights = FIELD_GET(E810_WQE_STAGRIGHTS, hdr);
    uint8_t lpbl = FIELD_GET(E810_WQE_FR_LPBLSIZE, hdr);
    uint8_t hpage = FIELD_GET(E810_WQE_FR_HPAGESIZE, hdr);
    uint32_t first = FIELD_GET(E810_WQE_FR_PBLIDX_HI, q1) << 16 |
                     FIELD_GET(E810_WQE_FR_PBLIDX_LO, q2);
    uint64_t len = FIELD_GET(E810_WQE_FR_LEN, q2);
    E810Mr *mr;

    if (!(qp->ctx[E810_QW(E810_QPC_FLAGS_OFF)] & E810_QPC_FASTREGEN)) {
        return E810_AE_PRIV_OPERATION_DENIED;   /* user QPs may not */
    }
    if (idx >= e810_hmc_count(core, E810_HMC_MR) ||
        !core->rdma.mr[idx].valid) {
        return E810_AE_AMP_INVALID_STAG;
    }
    mr = &core->rdma.mr[idx];
    if (mr->is_mw) {
        return E810_AE_AMP_FASTREG_MW_STAG;
    }
    if (!mr->fast_reg_ok || mr->fr_valid || mr->registered) {
        return E810_AE_AMP_FASTREG_VALID_STAG;  /* REG_MR'd, or still valid */
    }
    if (mr->pd != e810_dp_qp_pd(qp)) {
        return E810_AE_AMP_BAD_PD;
    }
    if ((rights & E810_ACCESS_REMOTE_WRITE) &&
        !(rights & E810_ACCESS_LOCAL_WRITE)) {
        return E810_AE_AMP_FASTREG_INVALID_RIGHTS;
    }
    if (len > MR_MAX_SIZE) {
        return E810_AE_AMP_FASTREG_INVALID_LENGTH;
    }
    if (hpage > E810_HPAGE_1G ||
        (lpbl != E810_LPBL_NONE && lpbl != E810_LPBL_LEVEL1 &&
         lpbl != E810_LPBL_LEVEL2)) {
        return E810_AE_AMP_FASTREG_INVALID_PBL_HPS_CFG;
    }
    if (lpbl != E810_LPBL_NONE && first >= e810_hmc_count(core,
                                                          E810_HMC_PBLE)) {
        return E810_AE_AMP_FASTREG_PBLE_MISMATCH;
    }
    mr->key = FIELD_GET(E810_WQE_FR_STAGKEY, hdr);
    mr->rights = rights;
    mr->remote = rights & (E810_ACCESS_REMOTE_READ | E810_ACCESS_REMOTE_WRITE);
    mr->zero_based = !(hdr & E810_WQE_VABASEDTO);
    mr->va = q[E810_QW(E810_WQE_FRAG0_ADDR_OFF)];
    mr->lpbl = lpbl;
    mr->hpage = hpage;
    mr->first_pble = first;
    mr->len = len;
    mr->pa = q1 & E810_WQE_FR_PBLADDR;
    mr->fr_valid = true;
    return 0;
}

/* ---- BIND_MW from an SQ WQE (irdma_uk_mw_bind()) ------------------------- */

void e810_mw_unbind(E810Core *core, E810Mr *mw)
{
    E810Mr *p;

    if (!mw->is_mw || !mw->mw_bound) {
        return;
    }
    mw->mw_bound = false;
    if (mw->mw_parent < e810_hmc_count(core, E810_HMC_MR)) {
        p = &core->rdma.mr[mw->mw_parent];
        if (p->bound_mws) {
            p->bound_mws--;
        }
    }
}

/* The table slot an STag names, NULL if beyond the committed count. */
static E810Mr *stag_slot(E810Core *core, uint32_t stag)
{
    uint32_t idx = e810_stag_index(core, stag >> 8);

    if (!core->rdma.mr || idx >= e810_hmc_count(core, E810_HMC_MR)) {
        return NULL;
    }
    return &core->rdma.mr[idx];
}

/*
 * The window's checks, as irdma_uk_mw_bind() / irdma_upost_send() encode
 * the WQE: qword0 = window VA (VA-based) or first-byte offset into the
 * parent (zero-based; the provider writes 0), qword1 = parent MR STag and
 * window STag (new key byte: ibv_inc_rkey() for type 1, the consumer's key
 * for type 2), qword2 = length, header STAGRIGHTS (remote read 4, remote
 * write 8), VABASEDTO, MEMWINDOWTYPE (1 = type 1). The AE codes are the
 * AMP_MWBIND_* family irdma_ae_to_qp_err_code() turns into MW_BIND_ERR.
 */
uint16_t e810_mr_bind_mw(E810Core *core, E810Qp *qp, const uint64_t *q)
{
    uint64_t hdr = q[E810_QW(E810_WQE_HDR_OFF)];
    uint64_t q1 = q[E810_QW(E810_WQE_FRAG0_DESC_OFF)];
    uint64_t addr = q[E810_QW(E810_WQE_FRAG0_ADDR_OFF)];
    uint64_t len = FIELD_GET(E810_WQE_BIND_LEN, q[E810_QW(E810_WQE_OPQ_OFF)]);
    /* GEN_1 swaps the two (e810_hw_gen.bind_parent_stag/bind_mw_stag) */
    uint32_t mw_stag = FIELD_GET(core->gen->bind_mw_stag, q1);
    uint32_t mr_stag = FIELD_GET(core->gen->bind_parent_stag, q1);
    uint8_t rights = FIELD_GET(E810_WQE_STAGRIGHTS, hdr);
    bool type1 = hdr & E810_WQE_MEMWINDOWTYPE;
    bool zero_based = !(hdr & E810_WQE_VABASEDTO);
    uint32_t pd = e810_dp_qp_pd(qp);
    E810Mr *mw = stag_slot(core, mw_stag), *mr = stag_slot(core, mr_stag);
    uint64_t off;

    if (!(qp->ctx[E810_QW(E810_QPC_FLAGS_OFF)] & E810_QPC_BINDEN)) {
        return E810_AE_AMP_MWBIND_BIND_DISABLED;
    }
    if (!mw || !mw->valid) {
        return E810_AE_AMP_INVALID_STAG;
    }
    if (!mw->is_mw) {
        return E810_AE_AMP_MWBIND_OF_MR_STAG;
    }
    if (mw->mw_type1 != type1) {
        return E810_AE_AMP_MWBIND_WRONG_TYPE;
    }
    if (mw->pd != pd) {
        return E810_AE_AMP_BAD_PD;
    }
    if (!type1 && mw->mw_bound) {
        return E810_AE_AMP_MWBIND_VALID_STAG;   /* type 2: invalidate first */
    }
    if (type1 && zero_based) {
        return E810_AE_AMP_MWBIND_ZERO_BASED_TYPE1_MW;
    }
    if (!mr || !mr->valid) {
        return E810_AE_AMP_MWBIND_TO_INVALID_PARENT;
    }
    if (mr->is_mw) {
        return E810_AE_AMP_MWBIND_TO_MW_STAG;
    }
    if (!(mr->registered || mr->fr_valid) || mr->key != (mr_stag & 0xff)) {
        return E810_AE_AMP_MWBIND_TO_INVALID_PARENT;
    }
    if (mr->pd != pd) {
        return E810_AE_AMP_BAD_PD;
    }
    if (mr->zero_based) {
        return E810_AE_AMP_MWBIND_TO_ZERO_BASED_STAG;
    }
    /* The parent must allow binding (IB_ACCESS_MW_BIND); a window may grant
     * remote write only over locally writable memory; windows carry remote
     * rights only. */
    if (!(mr->rights & E810_ACCESS_BIND_WINDOW) ||
        (rights & ~(E810_WQE_RIGHTS_REMOTE_READ |
                    E810_WQE_RIGHTS_REMOTE_WRITE)) ||
        ((rights & E810_WQE_RIGHTS_REMOTE_WRITE) &&
         !(mr->rights & E810_ACCESS_LOCAL_WRITE))) {
        return E810_AE_AMP_MWBIND_INVALID_RIGHTS;
    }
    if (zero_based) {
        off = addr;
    } else if (addr >= mr->va) {
        off = addr - mr->va;
    } else {
        return E810_AE_AMP_MWBIND_INVALID_BOUNDS;
    }
    if (off > mr->len || len > mr->len - off) {
        return E810_AE_AMP_MWBIND_INVALID_BOUNDS;
    }
    e810_mw_unbind(core, mw);       /* type 1: a rebind replaces */
    mw->mw_bound = true;
    mw->mw_parent = mr - core->rdma.mr;
    mw->mw_off = off;
    mw->mw_qp = qp - core->rdma.qp;
    mw->key = mw_stag & 0xff;
    mw->rights = rights;            /* E810_WQE_RIGHTS_* == E810_ACCESS_* */
    mw->remote = true;
    mw->zero_based = zero_based;
    mw->va = zero_based ? 0 : addr;
    mw->len = len;
    mr->bound_mws++;
    e810_rdma_stat_add(core, qp, E810_RSTAT_RDMAVBND, 1);
    return 0;
}
