/*
 * Emulated E810: switch configuration, VSIs, switch rules and RSS.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <string.h>

#include "e810_core.h"

void e810_switch_reset(E810Core *core, E810ResetSource level)
{
    memset(&core->sw, 0, sizeof(core->sw));
}

void e810_switch_clear_pf_config(E810Core *core)
{
}

#define VSI_NUM_BASE    3

static enum e810_aq_rc cmd_vsi(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_add_update_free_vsi *p =
        E810_AQ_PARAMS(cmd, struct e810_aqc_add_update_free_vsi);
    struct e810_aqc_add_update_free_vsi_resp *r =
        E810_AQ_PARAMS(cmd, struct e810_aqc_add_update_free_vsi_resp);
    uint16_t opc = le16toh(cmd->desc.opcode);
    uint16_t num = VSI_NUM_BASE + core->pf_id;
    struct e810_aqc_vsi_props props;

    if (opc == E810_AQC_ADD_VSI) {
        if (FIELD_GET(E810_AQ_VSI_TYPE, le16toh(p->vsi_flags)) !=
            E810_AQ_VSI_TYPE_PF) {
            return E810_AQ_RC_EINVAL;   /* only the PF VSI is modelled */
        }
        if (core->aq.vsi_allocated) {
            return E810_AQ_RC_ENOSPC;
        }
    } else if (!core->aq.vsi_allocated ||
               FIELD_GET(E810_AQ_VSI_NUM, le16toh(p->vsi_num)) != num) {
        return E810_AQ_RC_ENOENT;
    }
    if (opc == E810_AQC_FREE_VSI) {
        core->aq.vsi_allocated = false;
        core->aq.pe_filter = false;
    } else {
        if (e810_aq_need_buf(cmd, sizeof(props))) {
            return E810_AQ_RC_EINVAL;
        }
        memcpy(&props, cmd->buf, sizeof(props));
        if (le16toh(props.valid_sections) & E810_AQ_VSI_PROP_Q_OPT_VALID) {
            core->aq.pe_filter =
                props.q_opt_flags & E810_AQ_VSI_Q_OPT_PE_FLTR_EN;
        }
        core->aq.vsi_allocated = true;
    }
    memset(r, 0, 8);
    r->vsi_num = htole16(num);
    r->vsi_used = htole16(core->aq.vsi_allocated ? 1 : 0);
    r->vsi_free = htole16(core->aq.vsi_allocated ? 767 : 768);
    return E810_AQ_RC_OK;
}

bool e810_switch_rx_dest(E810Core *core, const uint8_t *frame, size_t len,
                         uint16_t *rxq, uint32_t *hash, bool *hash_valid)
{
    *rxq = 0;
    *hash = 0;
    *hash_valid = false;
    return true;
}

const E810AqHandler e810_switch_aq_cmds[] = {
    { E810_AQC_ADD_VSI, cmd_vsi },
    { E810_AQC_UPDATE_VSI, cmd_vsi },
    { E810_AQC_FREE_VSI, cmd_vsi },
    { 0, NULL }
};
