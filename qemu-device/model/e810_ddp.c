/*
 * Emulated E810: the DDP package download and package information.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <string.h>

#include "e810_core.h"

void e810_ddp_reset(E810Core *core, E810ResetSource level)
{
    memset(&core->ddp, 0, sizeof(core->ddp));
}

void e810_ddp_clear_pf_config(E810Core *core)
{
}

bool e810_ddp_pkg_loaded(E810Core *core)
{
    return false;
}

const E810AqHandler e810_ddp_aq_cmds[] = {
    { 0, NULL }
};
