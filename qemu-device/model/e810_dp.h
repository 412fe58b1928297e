/*
 * Emulated E810: the RDMA data path's meeting point between the queue and
 * memory layer (SQ/RQ rings, WQEs, CQEs, STag checks: e810_sq.c, e810_rq.c,
 * e810_dp_cqe.c, e810_mem.c) and the transport (RoCEv2 packets, RC/UD,
 * loopback, timers: e810_xport*.c and friends).
 *
 * The queue layer fetches SQ WQEs (docs/hw-reference.md 5.2/5.3), runs the
 * local ones (FAST_REG_MR, BIND_MW, LOCAL_INVALIDATE, NOP) itself and hands
 * every transport opcode to e810_xport_send() as a decoded E810SendWqe. The
 * transport moves the payload through e810_dp_gather() / e810_dp_scatter() /
 * e810_dp_remote_write() / e810_dp_remote_read(), takes receive WQEs with
 * e810_dp_rq_take(), and reports the end of every WQE with
 * e810_dp_complete_sq() / e810_dp_complete_rq().
 *
 * Status values: every "status" below is an AE code (E810_AE_*, e810_ctx.h),
 * 0 meaning success. The AE code says exactly what went wrong; the CQE minor
 * (flush code) follows from it with e810_dp_flush_code(), which is also how a
 * responder picks its NAK: E810_FLUSH_REM_ACCESS_ERR -> remote access error,
 * E810_FLUSH_LOC_LEN_ERR / _REM_INV_REQ_ERR -> invalid request, others ->
 * remote operational error.
 *
 * Error completion model: a WQE that fails raises its AE, moves the QP to
 * ERROR and the device writes one flush CQE (major 1, minor = the flush code
 * of that AE) on each queue with work outstanding; the provider reports the
 * failing WQE (its ring tail) with that status and every later one as a
 * flush (hw-reference 5.6). A later FLUSH_WQES from the driver writes flush
 * CQEs again only for work posted since.
 *
 * Execution context: all functions run from the core's deferred work (or a
 * transport timer / receive path), never from an MMIO hook. None of them
 * re-enters the transport except where noted: e810_xport_send from SQ
 * processing, and e810_xport_qp_reset from QP state changes and from every
 * error path (an error status to e810_dp_complete_sq/_rq, e810_dp_rq_take
 * meeting a malformed WQE, e810_dp_qp_fatal). e810_xport_send may complete
 * the WQE it is given before returning (the WQE is already tracked).
 *
 * This header only grows: fields and functions are added, never changed.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef E810_DP_H
#define E810_DP_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/e810_ctx.h"
#include "hw/e810_uk.h"

struct E810Core;
struct E810Qp;
struct E810DmaMap;

/* Most fragments one WQE can encode: 8 quanta, 1 in quantum 0 + 2 x 7. */
#define E810_DP_MAX_SGE         15
/* Most inline bytes 8 quanta can carry: 8 in quantum 0 + 31 x 7. */
#define E810_DP_MAX_INLINE      (E810_INLINE_Q0_BYTES + \
                                 7 * E810_INLINE_QN_BYTES)
/* Largest message (GEN_2 max_hw_outbound_msg_size). */
#define E810_DP_MAX_MSG         0x7fffffffu
/* UD receive buffers start with this much room for the GRH. */
#define E810_DP_GRH_LEN         40

/* One scatter/gather element as the WQE gives it. */
typedef struct E810Sge {
    uint64_t addr;          /* VA (or offset for zero-based MRs) */
    uint32_t len;
    uint32_t lkey;          /* STag: index << 8 | key */
} E810Sge;

/*
 * One SQ WQE, decoded and checked for format (not for memory access: that
 * happens in e810_dp_gather when the bytes are needed).
 */
typedef struct E810SendWqe {
    uint32_t qp_id;
    uint32_t wqe_idx;       /* SQ quantum index of its first quantum */
    uint8_t quanta;         /* 1..8 */
    uint8_t opcode;         /* E810_OP_* (e810_uk.h), as in the header */
    bool signaled;          /* SIGCOMPL: a CQE is written */
    bool read_fence;        /* READFENCE (IBV_SEND_FENCE) */
    bool local_fence;       /* LOCALFENCE (RC; the UDPHEADER bit on UD) */
    bool solicited;         /* SEND_SOL, SEND_SOL_INV, RDMA_WRITE_SOL */
    bool imm_valid;         /* IMMDATAFLAG */
    uint32_t imm;           /* host order, low 32 bits of qword 0 */
    uint32_t inv_stag;      /* SEND_INV / SEND_SOL_INV: STag to invalidate;
                             * READ_LOC_INV: the sink's (fragment 0) STag,
                             * invalidated when the READ completes */
    uint64_t remote_va;     /* RDMA WRITE / READ */
    uint32_t rkey;
    uint32_t ah_id;         /* UD SEND */
    uint32_t dest_qpn;
    uint32_t qkey;
    uint64_t opq;           /* raw qword 2 (GEN_1 UDA: the frame's headers) */
    bool inline_data;       /* payload is inline_buf[0..inline_len) */
    uint8_t inline_len;
    uint8_t inline_buf[E810_DP_MAX_INLINE];
    uint8_t num_sge;        /* fragments with a non-zero length */
    E810Sge sge[E810_DP_MAX_SGE];
    uint32_t total_len;     /* payload bytes (inline_len, or sum of SGEs) */
    uint64_t hdr;           /* raw header qword, for anything not above */
} E810SendWqe;

/* One RQ WQE taken by the transport for an incoming message. */
typedef struct E810RecvWqe {
    uint32_t qp_id;
    uint32_t wqe_idx;       /* RQ quantum index (reported in the CQE) */
    uint8_t num_sge;        /* fragments with a non-zero length */
    E810Sge sge[E810_DP_MAX_SGE];
    uint64_t capacity;      /* sum of the SGE lengths */
} E810RecvWqe;

/* What the transport tells the queue layer about a finished receive. */
typedef struct E810RecvInfo {
    uint16_t status;        /* AE code; 0 = success */
    uint32_t byte_len;      /* CQE PAYLDLEN; UD: including the 40 GRH bytes */
    uint8_t bth_opcode;     /* IB BTH opcode of the last packet (CQE OP) */
    uint32_t psn;           /* CQE qword 0 [63:32] */
    bool imm_valid;
    uint32_t imm;           /* host order */
    bool inv_valid;         /* SEND with INVALIDATE: inv_stag was invalidated */
    uint32_t inv_stag;
    bool solicited;         /* SE bit: CQE SOEVENT */
    /* UD only */
    bool ud;
    uint32_t src_qpn;
    uint8_t src_mac[6];
    bool ipv4;
    bool vlan_valid;
    uint16_t vlan;          /* TCI */
    /*
     * GEN_1 UDA (ILQ/IEQ) receive: no extended CQE; L3/L4 protocol in
     * qword 2, VLAN_TAG_VALID in qword 3 (include/hw/e810_gen.h).
     */
    bool gen1_uda;
    uint8_t l3proto, l4proto;
} E810RecvInfo;

/* ---- provided by the queue/memory layer (M1) ---------------------------- */

/*
 * Copies @len payload bytes at message offset @off of @wqe into @buf (from
 * the inline bytes, or through the SGEs' lkeys: MR valid, same PD as the
 * QP, LOCAL_READ right, bounds, key byte). False and *@status = the AE code
 * on failure (the caller then completes the WQE with that status).
 */
bool e810_dp_gather(struct E810Core *core, struct E810Qp *qp,
                    const E810SendWqe *wqe, uint64_t off, void *buf,
                    uint32_t len, uint16_t *status);

/*
 * Responder side: writes/reads @len bytes at remote VA @va under @rkey for
 * QP @qp (STag valid, PD match, REMOTE_WRITE / REMOTE_READ right, QP
 * context WRRDRSPOK / RDOK, bounds, key byte). False and *@status = the AE
 * code (its flush code is E810_FLUSH_REM_ACCESS_ERR: NAK remote access).
 * A zero-length access checks nothing and succeeds.
 */
bool e810_dp_remote_write(struct E810Core *core, struct E810Qp *qp,
                          uint32_t rkey, uint64_t va, const void *buf,
                          uint32_t len, uint16_t *status);
bool e810_dp_remote_read(struct E810Core *core, struct E810Qp *qp,
                         uint32_t rkey, uint64_t va, void *buf, uint32_t len,
                         uint16_t *status);
/*
 * The payload in place instead of copied (a frame that stays in the
 * device carries it by reference, e810_xport_tx_mapped()): gather and
 * remote read with the same checks and statuses, true with *@map to give
 * back (e810_core_dma_unmap()) when the bytes are one mapped run. False
 * with *@status 0: not mappable so (inline data, SGE or page breaks, no
 * map op, a short or failed map), the caller copies with the functions
 * above; false with *@status set: the access itself failed.
 */
bool e810_dp_gather_map(struct E810Core *core, struct E810Qp *qp,
                        const E810SendWqe *wqe, uint64_t off, uint32_t len,
                        struct E810DmaMap *map, uint16_t *status);
bool e810_dp_remote_read_map(struct E810Core *core, struct E810Qp *qp,
                             uint32_t rkey, uint64_t va, uint32_t len,
                             struct E810DmaMap *map, uint16_t *status);
/*
 * Requester side of RDMA READ: writes response bytes at offset @off of the
 * READ WQE's local SGEs (LOCAL_WRITE right). Same contract as gather.
 */
bool e810_dp_read_resp_scatter(struct E810Core *core, struct E810Qp *qp,
                               const E810SendWqe *wqe, uint64_t off,
                               const void *buf, uint32_t len,
                               uint16_t *status);

/*
 * Takes the next posted RQ WQE (valid bit == RQ pass polarity) and moves
 * the device's RQ head past it. False: none posted (RNR) -- or the WQE was
 * malformed, in which case the QP is now in ERROR (check qp->state).
 */
bool e810_dp_rq_take(struct E810Core *core, struct E810Qp *qp,
                     E810RecvWqe *wqe);
/*
 * Writes @len bytes at message offset @off of the receive buffers of @wqe
 * (LOCAL_WRITE right, PD, bounds). UD: the GRH goes at offset 0 (see
 * e810_dp_scatter_grh) and the payload from E810_DP_GRH_LEN on. Too long
 * for the WQE -> E810_AE_DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER.
 */
bool e810_dp_scatter(struct E810Core *core, struct E810Qp *qp,
                     const E810RecvWqe *wqe, uint64_t off, const void *buf,
                     uint32_t len, uint16_t *status);
/* UD: the 40-byte GRH area at the start of the first receive buffer. */
bool e810_dp_scatter_grh(struct E810Core *core, struct E810Qp *qp,
                         const E810RecvWqe *wqe,
                         const uint8_t grh[E810_DP_GRH_LEN],
                         uint16_t *status);

/*
 * The transport is done with @wqe (a copy of what e810_xport_send got is
 * fine: only qp_id, wqe_idx, quanta, opcode and signaled are used).
 * @status 0: success, @bytes is not reported (the provider knows it).
 * Otherwise: AE @status is raised for the QP (source SQ, WQE index), the QP
 * goes to ERROR and both queues are flushed (see above). CQEs are written
 * in SQ order, so a WQE completed before an older one waits for it.
 */
void e810_dp_complete_sq(struct E810Core *core, struct E810Qp *qp,
                         const E810SendWqe *wqe, uint16_t status,
                         uint32_t bytes);
/* RQ completion: one CQE (+ extended slot for imm / UD) per info. An
 * error status makes the QP fatal as for the SQ (source RQ). */
void e810_dp_complete_rq(struct E810Core *core, struct E810Qp *qp,
                         const E810RecvWqe *wqe, const E810RecvInfo *info);

/*
 * Raises AE @ae (from @source, naming WQE @wqe_idx) for @qp, moves it to
 * ERROR, tells the transport (e810_xport_qp_reset) and writes the flush
 * CQEs. Idempotent once the QP is in ERROR (only the first AE is raised).
 */
void e810_dp_qp_fatal(struct E810Core *core, struct E810Qp *qp, uint16_t ae,
                      uint8_t source, uint32_t wqe_idx);

/* Flush code (CQE minor, enum e810_flush_code) for an AE code. */
uint8_t e810_dp_flush_code(uint16_t ae);

/*
 * Resumes SQ fetching for @qp_id (after e810_xport_send returned false, or
 * after completions). Safe from any context: it only queues work.
 */
void e810_dp_sq_kick(struct E810Core *core, uint32_t qp_id);

/*
 * Invalidates @stag for @qp: LOCAL_INVALIDATE, or (@remote) the responder
 * of a SEND with INVALIDATE. Checks: STag allocated, key byte, same PD,
 * not a type-1 window, a type-2 window bound (by @qp), an MR without
 * windows bound to it. False and *@status = the AE code.
 */
bool e810_dp_invalidate(struct E810Core *core, struct E810Qp *qp,
                        uint32_t stag, bool remote, uint16_t *status);

/* ---- memory layer (e810_mem.c), also usable by the transport ------------ */

enum {
    E810_MEM_LOCAL_READ,    /* gather for SEND/WRITE payload */
    E810_MEM_LOCAL_WRITE,   /* scatter of a receive or READ response */
    E810_MEM_REMOTE_READ,   /* responder of an RDMA READ */
    E810_MEM_REMOTE_WRITE,  /* responder of an RDMA WRITE */
};

/*
 * Copies @len bytes between @buf and the memory STag @stag names at @va,
 * for QP @qp and access @kind (E810_MEM_*): STag valid, key, PD, rights,
 * bounds, then STag -> MR -> PBL (level 0/1/2) -> host pages, one DMA per
 * physically contiguous run. False and *@status = the AE code.
 */
bool e810_mem_access(struct E810Core *core, struct E810Qp *qp, uint32_t stag,
                     uint64_t va, void *buf, uint32_t len, int kind,
                     uint16_t *status);

/*
 * The same checks as e810_mem_access() for reading @len bytes, then the
 * range mapped in place (ops->dma_map) when it is one physically
 * contiguous run the embedder maps whole: true, *@map to give back with
 * e810_core_dma_unmap(). False with *@status = the AE code when a check
 * fails; false with *@status 0 when it cannot be mapped so (no map op, a
 * page break, a short or failed map): the caller copies instead.
 */
bool e810_mem_map_read(struct E810Core *core, struct E810Qp *qp,
                       uint32_t stag, uint64_t va, uint32_t len, int kind,
                       struct E810DmaMap *map, uint16_t *status);

/* PD of a QP, from its context (PDIDX | PDIDXHI << 16). */
uint32_t e810_dp_qp_pd(const struct E810Qp *qp);

/* RQ WQE: no opcode; ADDFRAGCNT and VALID as in the SQ header. */

/* CQP FLUSH_WQES minor when both queues had work (driver checks 0/2/3). */
#define E810_DP_COMPL_BOTH_FLUSHED  1

/* ---- provided by the transport (M2) ------------------------------------- */

/*
 * Starts @wqe (SEND*, RDMA_WRITE*, RDMA_READ). False: cannot take it now
 * (window full...); the queue layer stops fetching this QP and resumes on
 * e810_dp_sq_kick(). The transport must copy what it keeps of @wqe.
 */
bool e810_xport_send(struct E810Core *core, struct E810Qp *qp,
                     const E810SendWqe *wqe);
/* @qp_id is destroyed or leaves RTS for RESET/ERROR: drop all its state. */
void e810_xport_qp_reset(struct E810Core *core, uint32_t qp_id);

#endif /* E810_DP_H */
