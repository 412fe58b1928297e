/*
 * Emulated E810: NVM (Shadow RAM and flash) and resource ownership.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <string.h>

#include "e810_core.h"

void e810_nvm_reset(E810Core *core, E810ResetSource level)
{
    memset(&core->nvm, 0, sizeof(core->nvm));
}

void e810_nvm_clear_pf_config(E810Core *core)
{
}

bool e810_nvm_res_held(E810Core *core, uint16_t res_id, bool write)
{
    return true;
}

const E810AqHandler e810_nvm_aq_cmds[] = {
    { 0, NULL }
};
