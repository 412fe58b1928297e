/*
 * Emulated E810: switch configuration, VSIs, switch rules and RSS.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef E810_SWITCH_H_MODEL
#define E810_SWITCH_H_MODEL

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/e810_aq.h"
#include "e810_regfile.h"

struct E810Core;

/* Limits of this model (a real E810 shares 768 VSIs among its PFs). */
#define E810_SW_MAX_VSI         16      /* per PF */
#define E810_SW_VSI_POOL        768
#define E810_SW_MAX_RULES       256
#define E810_SW_MAX_VSI_LISTS   64
#define E810_SW_NUM_GLUT        16      /* global RSS LUTs */
#define E810_SW_NUM_FD_CNT_BLK  4       /* FD counter blocks per PF */
#define E810_SW_NUM_PROF        256     /* profile / TCAM ids per block */

typedef struct E810Vsi {
    bool used;
    uint16_t num;                       /* absolute VSI number */
    uint8_t type;                       /* E810_AQ_VSI_TYPE_* */
    struct e810_aqc_vsi_props props;    /* as the driver last set them */
    bool key_set;
    uint8_t rss_key[E810_RSS_KEY_SIZE];
    bool lut_set;
    uint8_t lut[E810_RSS_LUT_VSI_SIZE]; /* the VSI's own LUT */
} E810Vsi;

typedef struct E810SwRule {
    bool used;
    bool tx;                            /* LKUP_TX, else LKUP_RX */
    uint16_t recipe;                    /* E810_SW_LKUP_* */
    uint16_t src;
    uint32_t act;
    uint8_t hdr[E810_SW_RULE_DUMMY_ETH_LEN];
} E810SwRule;

typedef struct E810VsiList {
    bool used;
    bool prune;                         /* a prune list (VLAN rules) */
    uint32_t members;                   /* bit i: slot i of sw.vsi */
} E810VsiList;

/* What this part of the firmware remembers. */
typedef struct E810Switch {
    E810Vsi vsi[E810_SW_MAX_VSI];
    E810SwRule rule[E810_SW_MAX_RULES];
    E810VsiList vsi_list[E810_SW_MAX_VSI_LISTS];
    bool pf_lut_set;
    uint8_t pf_lut[E810_RSS_LUT_PF_SIZE];
    bool glut_set[E810_SW_NUM_GLUT];
    uint8_t glut[E810_SW_NUM_GLUT][E810_RSS_LUT_GLOBAL_SIZE];
    uint8_t fd_cnt_blk_used;            /* bitmap of counter blocks */
    /* Flow Director filter space taken (0x22 guaranteed, 0x23 shared). */
    uint16_t fd_guar_taken, fd_shared_taken;
    uint8_t prof_used[4][E810_SW_NUM_PROF / 8];  /* FD/hash prof, TCAM */
    bool double_vlan;                   /* 0x0203 */
    uint8_t local_fwd_mode;
    uint64_t commands;                  /* executed, for tests and debugging */
    uint64_t rx_dropped;                /* frames no rule took */
} E810Switch;

/* Device reset of strength @level (POR at power-on). */
void e810_switch_reset(struct E810Core *core, E810ResetSource level);

/* 0x02A4 "clear PF configuration" (also run by a PF reset). */
void e810_switch_clear_pf_config(struct E810Core *core);

/*
 * Rx steering for a frame from the wire (not RoCE for the protocol
 * engine): which PF-relative Rx queue gets it, after the switch rules and
 * RSS. Returns false when no rule takes the frame (it is dropped and
 * counted). @hash/@hash_valid: the RSS hash for the write-back.
 */
bool e810_switch_rx_dest(struct E810Core *core, const uint8_t *frame,
                         size_t len, uint16_t *rxq, uint32_t *hash,
                         bool *hash_valid);

/* The same, also giving the absolute number of the VSI that takes the
 * frame (E810_SW_VSI_POOL when none does). */
bool e810_switch_rx_steer(struct E810Core *core, const uint8_t *frame,
                          size_t len, uint16_t *rxq, uint32_t *hash,
                          bool *hash_valid, uint16_t *vsi);

/*
 * The RSS hash input of @frame (@len bytes, its L3 header at @l3 with
 * @ethertype): source and destination address, then source and
 * destination port for TCP, UDP and SCTP (not for a fragment). Returns its
 * length (8, 12, 32 or 36), 0 for a frame that is not IP.
 */
size_t e810_rss_input(const uint8_t *frame, size_t len, size_t l3,
                      uint16_t ethertype, uint8_t in[36]);

/*
 * The Microsoft RSS Toeplitz hash of @len bytes of @data under @key (at
 * least @len + 4 bytes long).
 */
uint32_t e810_toeplitz(const uint8_t *key, const uint8_t *data, size_t len);

#endif /* E810_SWITCH_H_MODEL */
