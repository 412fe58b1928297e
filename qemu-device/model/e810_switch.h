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

/* What this part of the firmware remembers. */
typedef struct E810Switch {
    uint64_t commands;          /* executed, for tests and debugging */
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

#endif /* E810_SWITCH_H_MODEL */
