/*
 * Emulated E810: switch configuration, VSIs, switch rules and RSS.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef E810_SWITCH_H_MODEL
#define E810_SWITCH_H_MODEL

#include <stdbool.h>
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

#endif /* E810_SWITCH_H_MODEL */
