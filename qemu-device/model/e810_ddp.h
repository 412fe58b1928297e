/*
 * Emulated E810: the DDP package download and package information.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef E810_DDP_H_MODEL
#define E810_DDP_H_MODEL

#include <stdbool.h>
#include <stdint.h>

#include "hw/e810_aq.h"
#include "e810_regfile.h"

struct E810Core;

/* What this part of the firmware remembers. */
typedef struct E810Ddp {
    uint64_t commands;          /* executed, for tests and debugging */
} E810Ddp;

/* Device reset of strength @level (POR at power-on). */
void e810_ddp_reset(struct E810Core *core, E810ResetSource level);

/* 0x02A4 "clear PF configuration" (also run by a PF reset). */
void e810_ddp_clear_pf_config(struct E810Core *core);

/*
 * A DDP package has been downloaded and is active (what 0x0C43 reports as
 * active, and what makes the global config lock answer "done").
 */
bool e810_ddp_pkg_loaded(struct E810Core *core);

#endif /* E810_DDP_H_MODEL */
