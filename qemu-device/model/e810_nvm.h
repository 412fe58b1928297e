/*
 * Emulated E810: NVM (Shadow RAM and flash) and resource ownership.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef E810_NVM_H_MODEL
#define E810_NVM_H_MODEL

#include <stdbool.h>
#include <stdint.h>

#include "hw/e810_aq.h"
#include "e810_regfile.h"

struct E810Core;

/* What this part of the firmware remembers. */
typedef struct E810Nvm {
    uint64_t commands;          /* executed, for tests and debugging */
} E810Nvm;

/* Device reset of strength @level (POR at power-on). */
void e810_nvm_reset(struct E810Core *core, E810ResetSource level);

/* 0x02A4 "clear PF configuration" (also run by a PF reset). */
void e810_nvm_clear_pf_config(struct E810Core *core);

/*
 * Resource ownership (0x0008/0x0009): whether the driver holds resource
 * @res_id (E810_AQ_RES_ID_*) with at least @write access now.
 */
bool e810_nvm_res_held(struct E810Core *core, uint16_t res_id, bool write);

#endif /* E810_NVM_H_MODEL */
