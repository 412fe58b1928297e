/*
 * A minimal admin-queue driver for the host tests: rings and buffers in
 * the harness memory, programmed and used the way ice does
 * (docs/hw-reference-lan.md 2.2, 2.6, 2.7), so the model is tested as a driver
 * will drive it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef AQ_DRIVER_H
#define AQ_DRIVER_H

#include "hw/e810_aq.h"
#include "model_harness.h"

#define AQ_TEST_LEN 16

typedef struct AqDriver {
    unsigned len;
    uint64_t atq, arq;              /* descriptor rings */
    uint64_t atq_buf, arq_buf;      /* one 4 KiB buffer per slot */
    unsigned atq_ntu, arq_ntc;
} AqDriver;

void aq_init(Harness *h, AqDriver *aq);

/*
 * Sends @d (opcode and params filled by the caller) with @len bytes of
 * @buf as its indirect buffer (none if @buf is NULL), runs the device and
 * copies descriptor and returned data back. Returns the descriptor retval;
 * fails the test if the device did not advance ATQH past it.
 */
uint16_t aq_send(Harness *h, AqDriver *aq, struct e810_aq_desc *d,
                 void *buf, uint16_t len);

/* Takes the next ARQ event, if any; copies up to 4 KiB into @buf. */
bool aq_event(Harness *h, AqDriver *aq, struct e810_aq_desc *d, void *buf);

/* A descriptor for @opcode with flags SI, everything else zero. */
struct e810_aq_desc aq_desc(uint16_t opcode);

/* Tx scheduler: 0x0401 one generic node under @parent, returns its TEID. */
uint32_t aq_sched_add_node(Harness *h, AqDriver *aq, uint32_t parent);

/*
 * Tx scheduler: a queue-group node for Tx queues and RDMA qsets, built as
 * ice builds a VSI's branch (0x0400, then 0x0401 from the TC down).
 */
uint32_t aq_sched_qgrp(Harness *h, AqDriver *aq);

/*
 * 0x0C30 with Tx queue @q (packed context @ctx, E810_TXQ_CTX_SIZE bytes)
 * under the queue-group node @parent; the leaf's TEID into @teid if not
 * NULL. Returns the AQ return code.
 */
uint16_t aq_add_txq(Harness *h, AqDriver *aq, uint32_t parent, uint16_t q,
                    const uint8_t *ctx, uint32_t *teid);

/*
 * 0x0C33 with RDMA qset @id under the queue-group node @parent (as
 * ice_ena_vsi_rdma_qset()); the leaf's TEID into @teid if not NULL.
 * Returns the AQ return code.
 */
uint16_t aq_add_rdma_qset(Harness *h, AqDriver *aq, uint32_t parent,
                          uint16_t id, uint32_t *teid);

/* 0x0C31 removing RDMA qset @id from under @parent (ice_dis_vsi_rdma_qset()). */
uint16_t aq_dis_rdma_qset(Harness *h, AqDriver *aq, uint32_t parent,
                          uint16_t id);

/* 0x02A0 with one Tx MAC rule from @vsi for @da, as ice_fill_sw_rule(). */
void aq_add_mac_rule(Harness *h, AqDriver *aq, uint16_t vsi,
                     const uint8_t da[6]);

/*
 * The PF VSI as ice_vsi_init() adds it (type PF; @nq queues from PF queue
 * 0, all in TC 0; the PF RSS LUT) and the filters ice_init_mac_fltr()
 * adds for it: Tx MAC rules for @mac and for broadcast. The switch gives
 * a VSI no frame without a rule. Returns the VSI number.
 */
uint16_t aq_add_pf_vsi_and_mac_rules(Harness *h, AqDriver *aq,
                                     const uint8_t mac[6], unsigned nq);

#endif /* AQ_DRIVER_H */
