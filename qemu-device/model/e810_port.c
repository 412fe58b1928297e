/*
 * Emulated E810: the port (PHY capabilities and configuration, link, MAC
 * configuration) and the DCB/LLDP agent.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <string.h>

#include "e810_core.h"

const E810AqHandler e810_port_aq_cmds[] = {
    { 0, NULL }
};
