/*
 * Emulated E810: the Tx scheduler tree (layers, TEIDs, LAN queue and RDMA qset leaves).
 *
 * One port, 9 logical layers as a stock E810 reports them (0x0412):
 *   0 root port, 1 TC, 2 entry point (first layer software may add to),
 *   3..6 generic nodes (ice: aggregator 3, VSI 5), 7 queue group, 8 leaf
 *   (LAN Tx queue or RDMA qset).
 * The tree lives in a fixed table; node 0 is always the root. Limits per
 * layer (nodes this PF may own, children per parent) are the answer of
 * 0x0412 and are enforced by every command that adds to the tree.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef E810_SCHED_H_MODEL
#define E810_SCHED_H_MODEL

#include <stdbool.h>
#include <stdint.h>

#include "hw/e810_aq.h"
#include "e810_regfile.h"

struct E810Core;

/* Nodes this PF may own per layer (0x0412 max_pf_nodes). */
#define E810_SCHED_L0_NODES     1
#define E810_SCHED_L1_NODES     E810_SCHED_MAX_TCS
#define E810_SCHED_L2_NODES     8
#define E810_SCHED_L3_NODES     8
#define E810_SCHED_L4_NODES     8
#define E810_SCHED_L5_NODES     16
#define E810_SCHED_L6_NODES     32
#define E810_SCHED_L7_NODES     64      /* queue groups */
#define E810_SCHED_L8_NODES     512     /* leaves: Tx queues and qsets */
/* Children one node may have (0x0412 max_sibl_grp_sz of the layer below). */
#define E810_SCHED_MAX_CHILDREN 8
/* RDMA qsets among the leaves (0x0412 rdma_qsets). */
#define E810_SCHED_RDMA_QSETS   256
#define E810_SCHED_MAX_NODES \
    (E810_SCHED_L0_NODES + E810_SCHED_L1_NODES + E810_SCHED_L2_NODES + \
     E810_SCHED_L3_NODES + E810_SCHED_L4_NODES + E810_SCHED_L5_NODES + \
     E810_SCHED_L6_NODES + E810_SCHED_L7_NODES + E810_SCHED_L8_NODES)

/* What a leaf stands for. */
enum e810_sched_owner {
    E810_SCHED_OWNER_NONE,      /* not a leaf */
    E810_SCHED_OWNER_LAN,       /* Tx LAN queue (0x0C30), qid = queue */
    E810_SCHED_OWNER_RDMA,      /* RDMA qset (0x0C33), qid = qset id */
};

typedef struct E810SchedNode {
    bool used;
    uint8_t layer;
    uint8_t owner;              /* enum e810_sched_owner */
    uint16_t qid;               /* leaf: queue / qset id; TC node: TC */
    uint16_t parent;            /* index of the parent (root: itself) */
    uint16_t num_children;
    uint32_t teid;
    struct e810_aqc_txsched_elem info;  /* type, bandwidth, suspend flag */
} E810SchedNode;

/* What this part of the firmware remembers. */
typedef struct E810Sched {
    E810SchedNode node[E810_SCHED_MAX_NODES];
    /*
     * Slots at and above this one were never used since the tree was
     * last built: the lookups, run for every Tx queue and qset command,
     * stop here instead of walking the whole table.
     */
    uint16_t span;
    uint16_t layer_nodes[E810_SCHED_NUM_LAYERS];    /* nodes per layer */
    uint16_t num_nodes;
    uint16_t lan_leaves;        /* Tx LAN queues in the tree */
    uint16_t rdma_leaves;       /* RDMA qsets in the tree */
    uint32_t next_teid;         /* next id to try for a new node */
    /* The port's ETS configuration as 0x040E reports it (DCB side). */
    uint8_t ets_tc_map;         /* TCs enabled (bit 0 always set) */
    uint32_t ets_up2tc;         /* 3 bits per user priority */
    uint8_t ets_bw[E810_SCHED_MAX_TCS];     /* percent per TC */
    uint64_t commands;          /* executed, for tests and debugging */
} E810Sched;

/* Device reset of strength @level (POR at power-on). */
void e810_sched_reset(struct E810Core *core, E810ResetSource level);

/* 0x02A4 "clear PF configuration" (also run by a PF reset). */
void e810_sched_clear_pf_config(struct E810Core *core);

/*
 * The DCB side enabled the traffic classes of @tc_map (bit n = TC n; TC 0
 * always stays): a TC node is added under the root for each new TC, and
 * removed for each TC gone, unless software still has nodes under it
 * (then false). ice learns them with 0x040E (ice_query_port_ets()).
 */
bool e810_sched_set_tcs(struct E810Core *core, uint8_t tc_map);

/*
 * The DCB side applied an ETS configuration: the TCs of @tc_map (see
 * e810_sched_set_tcs(), same result), the user priority to TC map @up2tc
 * (3 bits per priority) and the bandwidth share of each TC @tc_bw (percent,
 * E810_SCHED_MAX_TCS entries), all reported by 0x040E.
 */
bool e810_sched_set_ets(struct E810Core *core, uint8_t tc_map,
                        uint32_t up2tc, const uint8_t *tc_bw);

/* The node with @teid, or NULL (for tests and debugging). */
const E810SchedNode *e810_sched_find(const struct E810Core *core,
                                     uint32_t teid);

/*
 * An RDMA qset with id @qset_id (0x0C33 tx_qset_id, the QS handle the RDMA
 * driver got from WORK_SCHED_NODE) is a leaf of this function's tree.
 */
bool e810_sched_rdma_qset_live(const struct E810Core *core, uint16_t qset_id);

#endif /* E810_SCHED_H_MODEL */
