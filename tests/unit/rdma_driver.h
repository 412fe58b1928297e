/*
 * Host tests: the irdma driver's side of the RDMA control plane, written
 * from the formats of docs/hw-reference.md chapters 2-4. It posts CQP
 * WQEs the way irdma_sc_* does (body, then header with the pass's valid
 * bit, then CQPDB), waits by CQPTAIL before the CCQ exists and by CCQ CQEs
 * after, and sizes the HMC the way the GEN_2 driver does.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef RDMA_DRIVER_H
#define RDMA_DRIVER_H

#include <endian.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "hw/e810_cqp.h"
#include "hw/e810_ctx.h"
#include "hw/e810_hmc.h"
#include "model_harness.h"

typedef struct RdmaHmcObj {
    uint64_t base;
    uint32_t cnt;
    uint32_t max;
    uint32_t size;
} RdmaHmcObj;

/* One completion read from the CCQ. */
typedef struct RdmaCompl {
    uint32_t wqe_idx;
    uint16_t major;
    uint16_t minor;
    bool error;
    uint32_t ret_val;
    uint64_t ctx;
    unsigned op;            /* re-read from the SQ slot, as irdma does */
} RdmaCompl;

typedef struct RdmaDriver {
    Harness *h;
    uint64_t ctx_pa;        /* CQP host context */
    uint64_t sq_pa;
    uint64_t sdbuf_pa;      /* UPDATE_PE_SDS entries beyond three */
    uint64_t query_pa;
    uint64_t commit_pa;
    uint32_t sq_size;
    uint32_t sq_head;
    bool sq_polarity;       /* flips when slot 0 is handed out: 1 first */
    uint64_t compl_ctx;
    /* CCQ */
    bool ccq;
    uint64_t ccq_pa;
    uint64_t ccq_shadow_pa;
    uint32_t ccq_size;
    uint32_t ccq_head;
    bool ccq_polarity;
    uint64_t ccq_ctx;
    /* FPM as the driver parsed it */
    RdmaHmcObj obj[E810_HMC_OBJ_MAX];
    uint32_t first_sd;
    uint32_t max_sds;
    uint32_t max_ceqs;
    uint32_t ht_mult;
    uint32_t timer_bucket;
    uint32_t xf_block, q1_block, rrf_block, ooiscf_block;
    uint32_t sd_cnt;        /* from the committed bases */
    uint64_t sd_pa[32];     /* backing of the direct SDs rd_direct_sd() made */
    uint64_t pd_pa[32];     /* PD pages of rd_back_object()'s paged SDs */
} RdmaDriver;

#define RD_CCQ_CTX      0x0123456789abcdeull    /* "ccq pointer >> 1" */
#define RD_CQP_CTX      0xffff888012345678ull   /* "cqp pointer" */

/* Allocates the CQP buffers and writes a GEN_2 RoCE host context. */
/* PROTOCOL_USED rd_init() puts in the CQP context (RoCEv2 unless a test
 * sets another before its bring-up). */
extern unsigned rd_protocol;
void rd_init(Harness *h, RdmaDriver *d, uint32_t sq_size);
/* The host context qwords (host order is fine: tests run little-endian). */
uint64_t *rd_cqp_ctx(RdmaDriver *d);
/* CCQPHIGH/CCQPLOW, runs the work; returns CCQPSTATUS. */
uint32_t rd_cqp_create(RdmaDriver *d);
uint32_t rd_cqp_destroy(RdmaDriver *d);

/* Fills the next SQ slot (q[3] ignored) with @hdr | opcode | valid. */
uint32_t rd_fill(RdmaDriver *d, unsigned op, uint64_t hdr, const uint64_t *q);
/* Writes the SQ head to CQPDB. */
void rd_ring(RdmaDriver *d);
/* Fill + ring + run the work; returns CQPTAIL (poll-registers mode). */
uint32_t rd_exec_poll(RdmaDriver *d, unsigned op, uint64_t hdr,
                      const uint64_t *q);
/* Reads the next CCQ CQE if valid; advances the CCQ head and shadow. */
bool rd_ccq_poll(RdmaDriver *d, RdmaCompl *c);
/* Fill + ring + run; returns the CCQ completion of that WQE (asserted). */
RdmaCompl rd_exec(RdmaDriver *d, unsigned op, uint64_t hdr, const uint64_t *q);
/* rd_exec() or rd_exec_poll() depending on whether the CCQ exists; true if
 * the op succeeded.
 */
bool rd_do(RdmaDriver *d, unsigned op, uint64_t hdr, const uint64_t *q);

/* QUERY_FPM_VAL (parsed into d->obj[].max/size and the misc fields). */
void rd_query_fpm(RdmaDriver *d);
/*
 * The GEN_2 driver's sizing for @qp_req QPs (irdma_cfg_fpm_val()); returns
 * its loop count, 0 if no layout fits the function's SDs.
 */
unsigned rd_size_fpm(RdmaDriver *d, uint32_t qp_req);
/* SDs the sizing needs, the driver's estimate. */
uint32_t rd_est_sd(RdmaDriver *d);
/* COMMIT_FPM_VAL with d->obj[].cnt; parses bases and sd_cnt. */
uint32_t rd_commit_fpm(RdmaDriver *d);
/* FPM address of object @idx of @type. */
uint64_t rd_fpm_addr(RdmaDriver *d, unsigned type, uint32_t idx);
/* UPDATE_PE_SDS entry encodings. */
uint32_t rd_sd_cmd(unsigned idx);
uint64_t rd_sd_data(uint64_t pa, bool direct, bool valid);
/* One UPDATE_PE_SDS with @n entries (> 3 go through the SD buffer). */
bool rd_update_sds(RdmaDriver *d, unsigned n, const uint32_t *cmd,
                   const uint64_t *data);
/* A direct 2 MiB segment for SD @idx in test memory; returns its PA. */
uint64_t rd_direct_sd(RdmaDriver *d, unsigned idx);

/* CREATE_CQ for the CCQ (CQ 0, CEQ 0), completion polled on the CCQ. */
RdmaCompl rd_create_ccq(RdmaDriver *d, uint32_t size);
/* Sets ARM_NEXT(|_SE) in a CQ shadow area (seq + 1) and writes CQARM. */
void rd_arm_cq(RdmaDriver *d, uint64_t shadow_pa, uint32_t cq_id, bool se_only);

/* CREATE_CQ of a (verbs) CQ with a contiguous ring; @hdr adds flags. */
RdmaCompl rd_create_cq(RdmaDriver *d, uint32_t id, uint32_t size,
                       uint64_t ring_pa, uint64_t shadow_pa, uint32_t ceq,
                       uint64_t ctx, uint64_t hdr);
/* CREATE_CEQ / CREATE_AEQ with a contiguous ring. */
RdmaCompl rd_create_ceq(RdmaDriver *d, uint32_t id, uint32_t size,
                        uint64_t ring_pa);
RdmaCompl rd_create_aeq(RdmaDriver *d, uint32_t size, uint64_t ring_pa);
/* Backs the page holding object @idx of @type (paged SD, PD entry,
 * PFHMC_PDINV) unless it already is; returns the object's host address.
 */
uint64_t rd_back_object(RdmaDriver *d, unsigned type, uint32_t idx);
/* Backs PBLEs 0..511 with a paged SD; returns the PA of PBLE 0. */
uint64_t rd_pble_page(RdmaDriver *d);

/* The complete bring-up up to a CCQ in CCQ mode (no CEQ). */
void rd_bringup(Harness *h, RdmaDriver *d);

static inline uint64_t rd_le(const void *p)
{
    uint64_t v;

    memcpy(&v, p, sizeof(v));
    return le64toh(v);
}

static inline uint64_t rd_mem64(RdmaDriver *d, uint64_t pa)
{
    return rd_le(mem_ptr(d->h, pa));
}

static inline void rd_set64(RdmaDriver *d, uint64_t pa, uint64_t v)
{
    v = htole64(v);
    memcpy(mem_ptr(d->h, pa), &v, sizeof(v));
}

#endif /* RDMA_DRIVER_H */
