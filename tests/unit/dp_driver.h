/*
 * Host tests: the verbs side of the RDMA data path, playing both the irdma
 * kernel driver (PD/CQ/QP/MR through CQP ops, AEQ) and the provider (SQ/RQ
 * WQEs in the GEN_2 "uk" format of docs/hw-reference.md chapter 5, doorbells,
 * CQ polling).
 *
 * Instance-agnostic: every object carries its DpDev, and a DpDev owns one
 * Harness + RdmaDriver pair, so a test can run two devices back to back.
 * Nothing here peeks into model state: it sees only what a driver sees
 * (host memory, registers, CQEs, AEQEs).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef DP_DRIVER_H
#define DP_DRIVER_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/e810_uk.h"
#include "e810_dp.h"
#include "rdma_driver.h"

#define DP_AEQ_SIZE     64
#define DP_PD           5       /* default PD of the helpers */

typedef struct DpDev {
    Harness *h;
    RdmaDriver d;
    uint64_t aeq_pa;
    uint32_t aeq_head;
    bool aeq_pol;
    uint32_t next_cq;       /* ids handed out by the helpers */
    uint32_t next_qp;
    uint32_t next_stag;     /* STag index */
    uint32_t next_pble;
} DpDev;

typedef struct DpCq {
    DpDev *dev;
    uint32_t id;
    uint32_t size;
    uint64_t ring;
    uint64_t shadow;
    uint32_t head;
    bool pol;
} DpCq;

typedef struct DpQp {
    DpDev *dev;
    uint32_t id;
    unsigned type;          /* E810_QP_TYPE_ROCE_RC / _UD */
    uint32_t pd;
    uint64_t compl_ctx;
    uint64_t ctx_pa;        /* host context: dp_qp_ctx() to edit it */
    uint64_t shadow_pa;
    bool virt;              /* rings through PBLEs */
    uint64_t sq_pa;         /* ring memory (contiguous in test memory) */
    uint32_t sq_quanta;
    uint32_t sq_head;       /* next quantum the "provider" writes */
    bool sq_pol;
    uint64_t rq_pa;
    uint32_t rq_entries;
    unsigned rq_shift;
    uint32_t rq_head;
    bool rq_pol;
    DpCq *scq;
    DpCq *rcq;
    unsigned state;
} DpQp;

/* One work request for dp_post_send(). */
typedef struct DpSend {
    unsigned op;            /* E810_OP_* */
    bool signaled;
    bool read_fence;
    bool local_fence;
    bool imm_valid;
    uint32_t imm;
    uint32_t rkey;          /* WRITE/READ; SEND_INV: STag to invalidate */
    uint64_t remote_va;
    uint32_t ah_id;         /* UD */
    uint32_t dest_qpn;
    uint32_t qkey;
    unsigned nsge;
    E810Sge sge[E810_DP_MAX_SGE];
    const void *inline_src; /* non-NULL: inline, inline_len bytes */
    unsigned inline_len;
    /* FAST_REG / LOCAL_INV: raw qwords 0..2 and header extras */
    uint64_t raw[3];
    uint64_t raw_hdr;
} DpSend;

/* A CQE as the provider decodes it (ext part merged in). */
typedef struct DpCqe {
    bool sq;
    bool error;
    uint16_t major;
    uint16_t minor;
    uint32_t qp_id;
    uint32_t wqe_idx;
    uint8_t op;
    uint64_t ctx;
    uint32_t len;
    uint32_t q2_low;        /* invalidated STag / UD source QPN */
    bool stag_or_ipv4;
    bool solicited;
    bool ext;
    bool imm_valid;
    uint32_t imm;
    bool smac_valid;
    uint8_t smac[6];
    bool vlan_valid;
    uint16_t vlan;
} DpCqe;

typedef struct DpAe {
    uint16_t code;
    uint8_t source;
    uint32_t id;
    uint32_t wqe_idx;
    uint64_t ctx;
} DpAe;

/* Bring-up up to CCQ + AEQ on a fresh harness. */
void dp_dev_init(DpDev *dev, Harness *h);
/* Runs deferred work until none is pending (bounded). */
void dp_run(DpDev *dev);

void dp_cq_create(DpDev *dev, DpCq *cq, uint32_t size);
/* Next CQE (valid bit == pass polarity); advances head + shadow. */
bool dp_poll_cq(DpCq *cq, DpCqe *e);
/* Next AEQE; returns it to the device with AEQALLOC. */
bool dp_poll_ae(DpDev *dev, DpAe *ae);

/*
 * Creates a QP (IDLE) with an SQ of @sq_quanta quanta and an RQ of
 * @rq_entries WQEs of 32 << @rq_shift bytes. @virt: rings described by a
 * level-1 PBL (VQ). The context has FASTREGEN set when @kernel.
 */
void dp_qp_create(DpDev *dev, DpQp *qp, unsigned type, DpCq *scq, DpCq *rcq,
                  uint32_t sq_quanta, uint32_t rq_entries, unsigned rq_shift,
                  bool virt, bool kernel);
/* Host context of @qp (edit, then dp_qp_modify to load it). */
uint64_t *dp_qp_ctx(DpQp *qp);
/* MODIFY_QP to @state (reloads the context); true if it succeeded. */
bool dp_qp_modify(DpQp *qp, unsigned state);
/* IDLE -> RTR -> RTS; RTS -> RTS from RTS (reloads the context). */
void dp_qp_rts(DpQp *qp);
bool dp_qp_destroy(DpQp *qp);
/*
 * DESTROY_QP + CREATE_QP under the same id and context (our irdma's RESET
 * of a used kernel QP): IDLE again, rings back at index 0; true if both
 * succeeded.
 */
bool dp_qp_recycle(DpQp *qp);
/* The provider's side of a reset: rings cleared, indexes and polarities
 * back to their initial values. */
void dp_qp_reset_rings(DpQp *qp);
/* FLUSH_WQES with user codes; returns the CCQ completion. */
RdmaCompl dp_qp_flush(DpQp *qp, bool sq, bool rq, uint16_t sq_minor,
                      uint16_t rq_minor);

/*
 * REG_MR of @len bytes at VA @va backed by the 4 KiB pages @pages (@npages;
 * @lpbl E810_LPBL_NONE uses pages[0] only). Returns the STag (key 0x5a + n).
 */
uint32_t dp_mr_reg(DpDev *dev, uint32_t pd, uint64_t va, const uint64_t *pages,
                   unsigned npages, uint64_t len, uint8_t rights,
                   unsigned lpbl);
/* A contiguous test buffer registered VA == PA through a level-1 PBL. */
uint32_t dp_mr_buf(DpDev *dev, uint32_t pd, uint64_t pa, uint64_t len,
                   uint8_t rights);
/* ALLOC_STAG of an MR for FAST_REG; returns the STag (key @key). */
uint32_t dp_mr_alloc(DpDev *dev, uint32_t pd, uint8_t key);
/*
 * The same with the STag laid out as upstream irdma_create_stag() does:
 * @drv (bits above the MR table's index bits, irdma's driver key) ORed
 * over index << 8 | @key, and ALLOC_STAG given STag >> 8 as its index
 * (irdma_hw_alloc_stag()). Returns the STag.
 */
uint32_t dp_mr_alloc_drv(DpDev *dev, uint32_t pd, uint32_t drv, uint8_t key);
/* Writes @n PBLEs (page PAs) and returns the first index. */
uint32_t dp_pble_write(DpDev *dev, const uint64_t *vals, unsigned n);
/*
 * A signaled, fenced FAST_REG_MR WQE (irdma_sc_mr_fast_register(),
 * hw-reference 5.3): VA-based, 4 KiB pages, @lpbl list at PBLE @first_pble (or @pa).
 */
DpSend dp_fast_reg(uint32_t stag, uint64_t va, uint32_t first_pble,
                   uint64_t pa, uint64_t len, uint8_t rights, unsigned lpbl);

/*
 * Writes one SQ WQE as the provider does (NOP padding to the next 8-quantum
 * chunk first when needed, header last). Returns its first quantum.
 */
uint32_t dp_post_send(DpQp *qp, const DpSend *s);
/* Raw WQE (@quanta quanta, qwords in host order, header valid bit set
 * here unless @keep_valid). */
uint32_t dp_post_raw(DpQp *qp, const uint64_t *q, unsigned quanta,
                     bool keep_valid);
/* Quanta dp_post_send() will use for @s (the provider's rule). */
unsigned dp_send_quanta(const DpSend *s);
/* Doorbell: user page +0 (or WQEALLOC when @kernel_reg). */
void dp_ring(DpQp *qp, bool kernel_reg);
/* One RQ WQE; returns its quantum index. */
uint32_t dp_post_recv(DpQp *qp, const E810Sge *sge, unsigned n);

/*
 * A stand-in transport for queue-layer tests: records every WQE the SQ
 * hands over (Harness.xport_send) and accepts it unless @refuse.
 * The test then plays the transport with e810_dp_complete_sq() etc.
 */
#define DP_TAP_MAX  512
typedef struct DpTap {
    unsigned n;
    bool refuse;
    bool kick_in_refusal;   /* refuse once, kicking before returning */
    E810SendWqe w[DP_TAP_MAX];
} DpTap;

void dp_tap_install(DpDev *dev, DpTap *tap);
/* The model's view of @qp (for calls into the e810_dp.h API). */
E810Qp *dp_model_qp(DpQp *qp);

#endif /* DP_DRIVER_H */
