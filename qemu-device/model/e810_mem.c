/*
 * Emulated E810: the memory layer of the RDMA data path.
 *
 * Every payload byte the engine moves goes through e810_mem_access():
 * STag -> MR (e810_mr.c table) with the key byte, PD, rights and bounds
 * checks, then the MR's offset -> PBL (none / level 1 / level 2, pages of
 * 4 KiB, 2 MiB or 1 GiB) -> host address through the HMC PBLE object
 * (e810_pble_resolve). Pages that turn out to be physically adjacent are
 * merged, so a contiguous buffer costs one DMA however many pages it spans.
 *
 * A bound memory window's STag is checked as the window (key, PD, its QP
 * for type 2, its remote rights, its bounds) and then resolved through its
 * parent MR's pages; a window is never a local key.
 *
 * Failures return the AE code the hardware raises for the access
 * (docs/hw-reference.md 4.4, AMP_*); which one maps to which completion status
 * is the kernel's table, reproduced in e810_dp_flush_code().
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "e810_core.h"
#include "e810_dp.h"

uint32_t e810_dp_qp_pd(const E810Qp *qp)
{
    return FIELD_GET(E810_QPC_PDIDX, qp->ctx[E810_QW(E810_QPC_PKEY_OFF)]) |
           FIELD_GET(E810_QPC_PDIDXHI, qp->ctx[E810_QW(E810_QPC_CFG_OFF)])
           << 16;
}

static unsigned page_shift(uint8_t hpage)
{
    switch (hpage) {
    case E810_HPAGE_2M:
        return 21;
    case E810_HPAGE_1G:
        return 30;
    default:
        return 12;
    }
}

/* The MR an STag names, if it can be used for data at all. */
static E810Mr *stag_mr(E810Core *core, uint32_t stag, uint16_t *status)
{
    uint32_t idx = e810_stag_index(core, stag >> 8);
    E810Mr *mr;

    if (!core->rdma.mr || idx >= e810_hmc_count(core, E810_HMC_MR)) {
        *status = E810_AE_AMP_INVALID_STAG;
        return NULL;
    }
    mr = &core->rdma.mr[idx];
    if (!mr->valid) {
        *status = E810_AE_AMP_UNALLOCATED_STAG;
        return NULL;
    }
    if (mr->is_mw ? !mr->mw_bound : !(mr->registered || mr->fr_valid)) {
        *status = E810_AE_AMP_INVALID_STAG;
        return NULL;
    }
    if (mr->key != (stag & 0xff)) {
        *status = E810_AE_AMP_BAD_STAG_KEY;
        return NULL;
    }
    return mr;
}

static bool rights_ok(const E810Qp *qp, const E810Mr *mr, int kind)
{
    uint64_t flags = qp->ctx[E810_QW(E810_QPC_FLAGS_OFF)];

    switch (kind) {
    case E810_MEM_LOCAL_READ:
        return true;            /* implied by every registration */
    case E810_MEM_LOCAL_WRITE:
        return mr->rights & E810_ACCESS_LOCAL_WRITE;
    case E810_MEM_REMOTE_READ:
        return (mr->rights & E810_ACCESS_REMOTE_READ) &&
               (flags & E810_QPC_RDOK);
    case E810_MEM_REMOTE_WRITE:
        return (mr->rights & E810_ACCESS_REMOTE_WRITE) &&
               (flags & E810_QPC_WRRDRSPOK);
    default:
        return false;
    }
}

/*
 * Host address of byte @off of @mr's buffer (counted from its first byte)
 * and how many bytes are contiguous from there, merging adjacent pages up
 * to @want.
 */
static bool mr_run(E810Core *core, const E810Mr *mr, uint64_t off,
                   uint64_t want, uint64_t *pa, uint64_t *run)
{
    unsigned shift = page_shift(mr->hpage);
    uint64_t pgmask = (1ull << shift) - 1;
    uint64_t pos = (mr->va & pgmask) + off;     /* from the first page */
    uint64_t got, next;

    if (mr->lpbl == E810_LPBL_NONE) {
        *pa = (mr->pa & ~pgmask) + pos;
        *run = want;
        return true;
    }
    if (!e810_pble_resolve(core, mr->first_pble, mr->lpbl, shift, pos, pa)) {
        return false;
    }
    got = (1ull << shift) - (pos & pgmask);
    while (got < want) {
        if (!e810_pble_resolve(core, mr->first_pble, mr->lpbl, shift,
                               pos + got, &next) || next != *pa + got) {
            break;
        }
        got += 1ull << shift;
    }
    *run = got < want ? got : want;
    return true;
}

/*
 * Every check of an access (docs/hw-reference.md 4.4) before a byte moves:
 * NULL *@mr with a status of 0 is the privileged QP's local DMA key (@va
 * is a bus address), else *@mr is the MR whose pages hold the range from
 * byte *@off (a window is already replaced by its parent).
 */
static bool mem_check(E810Core *core, E810Qp *qp, uint32_t stag, uint64_t va,
                      uint32_t len, int kind, E810Mr **pmr, uint64_t *poff,
                      uint16_t *status)
{
    uint64_t off;
    E810Mr *mr;

    *status = 0;
    *pmr = NULL;
    /*
     * STag 0 on a privileged (kernel) QP is the local DMA key: the address
     * is a bus address, no MR is consulted. Remote keys never are.
     */
    if (!stag && (kind == E810_MEM_LOCAL_READ || kind == E810_MEM_LOCAL_WRITE) &&
        (qp->ctx[E810_QW(E810_QPC_FLAGS_OFF)] & E810_QPC_PRIVEN)) {
        return true;
    }
    mr = stag_mr(core, stag, status);
    if (!mr) {
        return false;
    }
    if (mr->pd != e810_dp_qp_pd(qp)) {
        *status = E810_AE_AMP_BAD_PD;
        return false;
    }
    /* A type-2 window serves only the QP that bound it (IB type 2B). */
    if (mr->is_mw && !mr->mw_type1 && mr->mw_qp != qp - core->rdma.qp) {
        *status = E810_AE_AMP_BAD_QP;
        return false;
    }
    /* Windows grant remote access only: never usable as an lkey. */
    if ((mr->is_mw && (kind == E810_MEM_LOCAL_READ ||
                       kind == E810_MEM_LOCAL_WRITE)) ||
        !rights_ok(qp, mr, kind)) {
        *status = E810_AE_AMP_RIGHTS_VIOLATION;
        return false;
    }
    /* Zero-based MRs are addressed by offset, VA-based ones by VA. */
    off = mr->zero_based ? va : va - mr->va;
    if ((!mr->zero_based && va < mr->va) || off > mr->len ||
        len > mr->len - off) {
        *status = E810_AE_AMP_BOUNDS_VIOLATION;
        return false;
    }
    /* Within the window's bounds: continue in its parent MR. */
    if (mr->is_mw) {
        off += mr->mw_off;
        mr = &core->rdma.mr[mr->mw_parent];
    }
    *pmr = mr;
    *poff = off;
    return true;
}

bool e810_mem_access(E810Core *core, E810Qp *qp, uint32_t stag, uint64_t va,
                     void *buf, uint32_t len, int kind, uint16_t *status)
{
    bool write = kind == E810_MEM_LOCAL_WRITE || kind == E810_MEM_REMOTE_WRITE;
    uint8_t *p = buf;
    uint64_t off = 0, pa, run;
    E810Mr *mr;

    *status = 0;
    if (!len) {
        return true;
    }
    if (!mem_check(core, qp, stag, va, len, kind, &mr, &off, status)) {
        goto fail;
    }
    while (len) {
        if (!mr) {
            pa = va;                    /* local DMA key: one bus range */
            run = len;
        } else if (!mr_run(core, mr, off, len, &pa, &run)) {
            *status = E810_AE_AMP_BOUNDS_VIOLATION;   /* PBL unreachable */
            goto fail;
        }
        if (!e810_core_dma_payload(core, pa, p, run, write)) {
            *status = E810_AE_LCE_QP_CATASTROPHIC;
            goto fail;
        }
        core->rdma.stats.dp_dma_bytes += run;
        p += run;
        off += run;
        len -= run;
    }
    return true;

fail:
    core->rdma.stats.dp_access_errors++;
    return false;
}

bool e810_mem_map_read(E810Core *core, E810Qp *qp, uint32_t stag, uint64_t va,
                       uint32_t len, int kind, E810DmaMap *map,
                       uint16_t *status)
{
    uint64_t off = 0, pa = va, run = len;
    E810Mr *mr;

    map->ptr = NULL;
    map->len = 0;
    if (!core->ops->dma_map || !len) {
        *status = 0;
        return false;
    }
    if (!mem_check(core, qp, stag, va, len, kind, &mr, &off, status)) {
        core->rdma.stats.dp_access_errors++;
        return false;
    }
    /*
     * Only a range that is one physically contiguous run is mapped; the
     * caller copies anything else with e810_mem_access(), which checks
     * the same again and reports an unreachable PBL.
     */
    if ((mr && !mr_run(core, mr, off, len, &pa, &run)) || run < len ||
        !e810_core_dma_map(core, pa, len, map)) {
        return false;
    }
    core->rdma.stats.dp_dma_bytes += len;
    return true;
}

/* ---- the transport-facing wrappers (e810_dp.h) --------------------------- */

bool e810_dp_remote_write(E810Core *core, E810Qp *qp, uint32_t rkey,
                          uint64_t va, const void *buf, uint32_t len,
                          uint16_t *status)
{
    return e810_mem_access(core, qp, rkey, va, (void *)buf, len,
                           E810_MEM_REMOTE_WRITE, status);
}

bool e810_dp_remote_read(E810Core *core, E810Qp *qp, uint32_t rkey,
                         uint64_t va, void *buf, uint32_t len,
                         uint16_t *status)
{
    return e810_mem_access(core, qp, rkey, va, buf, len, E810_MEM_REMOTE_READ,
                           status);
}

bool e810_dp_remote_read_map(E810Core *core, E810Qp *qp, uint32_t rkey,
                             uint64_t va, uint32_t len, E810DmaMap *map,
                             uint16_t *status)
{
    return e810_mem_map_read(core, qp, rkey, va, len, E810_MEM_REMOTE_READ,
                             map, status);
}

/*
 * Walks the SGE list from message offset @off for @len bytes, one access
 * per SGE piece. @room: the SGEs' total; beyond it is @too_long.
 */
static bool sge_walk(E810Core *core, E810Qp *qp, const E810Sge *sge,
                     unsigned n, uint64_t off, uint8_t *buf, uint32_t len,
                     int kind, uint16_t too_long, uint16_t *status)
{
    unsigned i;

    *status = 0;
    for (i = 0; i < n && len; i++) {
        uint32_t piece;

        if (off >= sge[i].len) {
            off -= sge[i].len;
            continue;
        }
        piece = sge[i].len - off < len ? sge[i].len - off : len;
        if (!e810_mem_access(core, qp, sge[i].lkey, sge[i].addr + off, buf,
                             piece, kind, status)) {
            return false;
        }
        buf += piece;
        len -= piece;
        off = 0;
    }
    if (len) {
        *status = too_long;
        return false;
    }
    return true;
}

bool e810_dp_gather(E810Core *core, E810Qp *qp, const E810SendWqe *wqe,
                    uint64_t off, void *buf, uint32_t len, uint16_t *status)
{
    *status = 0;
    if (wqe->inline_data) {
        if (off > wqe->inline_len || len > wqe->inline_len - off) {
            *status = E810_AE_WQE_INVALID_PARAMETER;
            return false;
        }
        memcpy(buf, wqe->inline_buf + off, len);
        return true;
    }
    return sge_walk(core, qp, wqe->sge, wqe->num_sge, off, buf, len,
                    E810_MEM_LOCAL_READ, E810_AE_WQE_INVALID_PARAMETER,
                    status);
}

bool e810_dp_gather_map(E810Core *core, E810Qp *qp, const E810SendWqe *wqe,
                        uint64_t off, uint32_t len, E810DmaMap *map,
                        uint16_t *status)
{
    unsigned i;

    *status = 0;
    if (wqe->inline_data) {
        return false;       /* a few bytes in the WQE copy: copied */
    }
    for (i = 0; i < wqe->num_sge; i++) {
        if (off < wqe->sge[i].len) {
            /* Only a packet within one SGE is mapped; others are copied. */
            return wqe->sge[i].len - off >= len &&
                   e810_mem_map_read(core, qp, wqe->sge[i].lkey,
                                     wqe->sge[i].addr + off, len,
                                     E810_MEM_LOCAL_READ, map, status);
        }
        off -= wqe->sge[i].len;
    }
    return false;
}

bool e810_dp_read_resp_scatter(E810Core *core, E810Qp *qp,
                               const E810SendWqe *wqe, uint64_t off,
                               const void *buf, uint32_t len,
                               uint16_t *status)
{
    return sge_walk(core, qp, wqe->sge, wqe->num_sge, off, (uint8_t *)buf,
                    len, E810_MEM_LOCAL_WRITE, E810_AE_ROCE_RSP_LENGTH_ERROR,
                    status);
}

bool e810_dp_scatter(E810Core *core, E810Qp *qp, const E810RecvWqe *wqe,
                     uint64_t off, const void *buf, uint32_t len,
                     uint16_t *status)
{
    return sge_walk(core, qp, wqe->sge, wqe->num_sge, off, (uint8_t *)buf,
                    len, E810_MEM_LOCAL_WRITE,
                    E810_AE_DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER,
                    status);
}

bool e810_dp_scatter_grh(E810Core *core, E810Qp *qp, const E810RecvWqe *wqe,
                         const uint8_t grh[E810_DP_GRH_LEN], uint16_t *status)
{
    return e810_dp_scatter(core, qp, wqe, 0, grh, E810_DP_GRH_LEN, status);
}

/* ---- invalidation ------------------------------------------------------- */

bool e810_dp_invalidate(E810Core *core, E810Qp *qp, uint32_t stag,
                        bool remote, uint16_t *status)
{
    uint32_t idx = e810_stag_index(core, stag >> 8);
    E810Mr *mr;

    *status = 0;
    if (!core->rdma.mr || idx >= e810_hmc_count(core, E810_HMC_MR) ||
        !core->rdma.mr[idx].valid) {
        *status = E810_AE_AMP_INVALID_STAG;
        return false;
    }
    mr = &core->rdma.mr[idx];
    if (mr->is_mw && mr->mw_type1) {
        *status = E810_AE_AMP_INVALIDATE_TYPE1_MW;
        return false;
    }
    if (mr->pd != e810_dp_qp_pd(qp)) {
        *status = E810_AE_AMP_BAD_PD;
        return false;
    }
    if (mr->is_mw) {
        /* A type-2 window: bound, and bound by this QP (IB type 2B). */
        if (!mr->mw_bound) {
            *status = E810_AE_AMP_INVALID_STAG;
            return false;
        }
        if (mr->mw_qp != qp - core->rdma.qp) {
            *status = E810_AE_AMP_BAD_QP;
            return false;
        }
    }
    if (mr->key != (stag & 0xff)) {
        *status = E810_AE_AMP_BAD_STAG_KEY;
        return false;
    }
    if (mr->is_mw) {
        e810_mw_unbind(core, mr);
        return true;
    }
    if (mr->bound_mws) {
        *status = E810_AE_AMP_INVALIDATE_MR_WITH_BOUND_WINDOWS;
        return false;
    }
    if (remote && !mr->remote) {
        *status = E810_AE_AMP_INVALIDATE_NO_REMOTE_ACCESS_RIGHTS;
        return false;
    }
    mr->fr_valid = false;
    mr->registered = false;
    e810_rdma_stat_add(core, qp, E810_RSTAT_RDMAVINV, 1);
    return true;
}
