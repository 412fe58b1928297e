/*
 * Emulated E810: the Tx scheduler tree (layers, TEIDs, LAN queue and RDMA qset leaves).
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

/* What this part of the firmware remembers. */
typedef struct E810Sched {
    uint64_t commands;          /* executed, for tests and debugging */
} E810Sched;

/* Device reset of strength @level (POR at power-on). */
void e810_sched_reset(struct E810Core *core, E810ResetSource level);

/* 0x02A4 "clear PF configuration" (also run by a PF reset). */
void e810_sched_clear_pf_config(struct E810Core *core);

#endif /* E810_SCHED_H_MODEL */
