/*
 * Emulated E810: the admin queue commands the model implements.
 *
 * Each handler validates the command as firmware would and returns an AQ
 * return code; the engine (e810_aq.c) writes descriptor and data back.
 * Anything not in the table answers ESRCH, "bad opcode", as firmware does.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <string.h>

#include "e810_core.h"

/* Firmware identity reported by get-version (an E810 NVM 4.40 era FW). */
#define FW_MAJOR        7
#define FW_MINOR        4
#define FW_PATCH        0
#define FW_BUILD        0x2a3c1f30
#define ROM_VER         0x04280000

enum e810_aq_rc e810_aq_need_buf(const E810AqCmd *cmd, size_t min)
{
    return (!cmd->has_buf || cmd->buf_len < min) ? E810_AQ_RC_EINVAL :
                                                   E810_AQ_RC_OK;
}

static enum e810_aq_rc cmd_get_ver(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_get_ver *p = E810_AQ_PARAMS(cmd, struct e810_aqc_get_ver);

    memset(p, 0, sizeof(*p));
    p->rom_ver = htole32(ROM_VER);
    p->fw_build = htole32(FW_BUILD);
    p->fw_major = FW_MAJOR;
    p->fw_minor = FW_MINOR;
    p->fw_patch = FW_PATCH;
    p->api_major = E810_AQ_API_MAJOR;
    p->api_minor = E810_AQ_API_MINOR;
    core->aq.driver_loaded = true;
    return E810_AQ_RC_OK;
}

static enum e810_aq_rc cmd_driver_ver(E810Core *core, E810AqCmd *cmd)
{
    size_t n;

    if (e810_aq_need_buf(cmd, 1)) {
        return E810_AQ_RC_EINVAL;
    }
    n = cmd->buf_len < sizeof(core->aq.driver_ver) - 1 ?
        cmd->buf_len : sizeof(core->aq.driver_ver) - 1;
    memcpy(core->aq.driver_ver, cmd->buf, n);
    core->aq.driver_ver[n] = '\0';
    return E810_AQ_RC_OK;
}

static enum e810_aq_rc cmd_q_shutdown(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_q_shutdown *p = E810_AQ_PARAMS(cmd, struct e810_aqc_q_shutdown);

    if (p->driver_unloading & E810_AQC_DRIVER_UNLOADING) {
        core->aq.driver_loaded = false;
        core->aq.lse_enabled = false;
        e810_nvm_driver_unloaded(core);
    }
    return E810_AQ_RC_OK;
}

static void put_cap(struct e810_aqc_caps_elem *e, uint16_t id,
                    uint32_t number, uint32_t logical, uint32_t phys)
{
    memset(e, 0, sizeof(*e));
    e->cap = htole16(id);
    e->number = htole32(number);
    e->logical_id = htole32(logical);
    e->phys_id = htole32(phys);
}

static enum e810_aq_rc cmd_list_caps(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_list_caps *p = E810_AQ_PARAMS(cmd, struct e810_aqc_list_caps);
    bool dev = le16toh(cmd->desc.opcode) == E810_AQC_LIST_DEV_CAPS;
    struct e810_aqc_caps_elem caps[12];
    unsigned n = 0;

    /*
     * What ice_parse_dev_caps() / ice_parse_func_caps() read. Not listed,
     * so ice leaves the features off: IEEE 1588 (0x0046), SR-IOV
     * (0x0012), LAG (0x0092), Tx topology (0x0085). Flow Director is
     * listed: every E810 has it, and ice 6.12 sets up its control VSI
     * whether or not the capability is there (ice_init_features()).
     */
    if (dev) {
        /* Functions 0..pf_id exist: the model only knows its own number. */
        put_cap(&caps[n++], E810_CAP_VALID_FUNCTIONS,
                (2u << core->pf_id) - 1, 0, 0);
        /* VSIs of the device left to the host. */
        put_cap(&caps[n++], E810_CAP_VSI, E810_DEV_VSIS, 0, 0);
        put_cap(&caps[n++], E810_CAP_FD, E810_FD_GUAR_FILTERS +
                E810_FD_BEST_EFFORT_FILTERS, 0, 0);
    } else {
        /* ice sizes the function's share itself (768 / functions). */
        put_cap(&caps[n++], E810_CAP_VSI, 1, 0, 0);
        /* Present: the sizes come from GLQF_FD_SIZE. */
        put_cap(&caps[n++], E810_CAP_FD, 0, 0, 0);
    }
    put_cap(&caps[n++], E810_CAP_RXQS, E810_LAN_NUM_QUEUES, 0, 0);
    put_cap(&caps[n++], E810_CAP_TXQS, E810_LAN_NUM_QUEUES, 0, 0);
    put_cap(&caps[n++], E810_CAP_MAX_MTU, E810_AQ_SET_MAC_FRAME_SIZE_MAX - 26,
            0, 0);
    /* The PF's RSS lookup table: 2048 entries of 7 bits (queue index). */
    put_cap(&caps[n++], E810_CAP_RSS, E810_RSS_PF_LUT_SIZE,
            E810_RSS_LUT_ENTRY_WIDTH, 0);
    put_cap(&caps[n++], E810_CAP_MSIX, core->msix_vectors, 0, 0);
    put_cap(&caps[n++], E810_CAP_RDMA, 1, 0, 0);
    /* DCB capable, TC 0 active, up to 8 TCs (ice_parse_common_caps()). */
    put_cap(&caps[n++], E810_CAP_DCB, 1, 0x1, 8);

    if (!cmd->has_buf) {
        return E810_AQ_RC_EINVAL;
    }
    if (cmd->buf_len < n * sizeof(caps[0])) {
        p->count = htole32(n);  /* what the driver must make room for */
        return E810_AQ_RC_ENOMEM;
    }
    memcpy(cmd->buf, caps, n * sizeof(caps[0]));
    cmd->resp_len = n * sizeof(caps[0]);
    p->count = htole32(n);
    return E810_AQ_RC_OK;
}

static enum e810_aq_rc cmd_manage_mac_read(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_manage_mac_read *p =
        E810_AQ_PARAMS(cmd, struct e810_aqc_manage_mac_read);
    struct e810_aqc_manage_mac_read_resp r = {
        .lport_num = 0,
        .addr_type = E810_AQC_MAN_MAC_ADDR_TYPE_LAN,
    };

    if (e810_aq_need_buf(cmd, sizeof(r))) {
        return E810_AQ_RC_EINVAL;
    }
    memcpy(r.mac_addr, core->mac, sizeof(r.mac_addr));
    memcpy(cmd->buf, &r, sizeof(r));
    cmd->resp_len = sizeof(r);
    p->flags = htole16(E810_AQC_MAN_MAC_LAN_ADDR_VALID |
                       E810_AQC_MAN_MAC_PORT_ADDR_VALID);
    p->num_addr = 1;
    return E810_AQ_RC_OK;
}

static enum e810_aq_rc cmd_nop(E810Core *core, E810AqCmd *cmd)
{
    return E810_AQ_RC_OK;
}

static enum e810_aq_rc cmd_clear_pf_cfg(E810Core *core, E810AqCmd *cmd)
{
    e810_aq_clear_pf_config(core);
    return E810_AQ_RC_OK;
}

/*
 * Firmware logging (ice_fwlog_init(), ice_fwlog_deinit()): per-module
 * levels, the resolution and where logs go (UART, ARQ) are kept and
 * reported back; the model's firmware produces no log, so no 0xFF33 event
 * is ever posted.
 */
static enum e810_aq_rc cmd_fwlog(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_fw_log *p = E810_AQ_PARAMS(cmd, struct e810_aqc_fw_log);
    uint16_t opc = le16toh(cmd->desc.opcode);
    struct e810_aqc_fw_log_module m;
    unsigned i, n;

    if (opc == E810_AQC_FW_LOGS_REGISTER) {
        core->aq.fwlog_registered = p->cmd_flags & E810_AQC_FW_LOG_AQ_REGISTER;
        return E810_AQ_RC_OK;
    }
    if (opc == E810_AQC_FW_LOGS_QUERY) {
        if (e810_aq_need_buf(cmd, E810_FW_LOG_MODULES * sizeof(m))) {
            return E810_AQ_RC_ENOMEM;
        }
        for (i = 0; i < E810_FW_LOG_MODULES; i++) {
            memset(&m, 0, sizeof(m));
            m.module_identifier = htole16(i);
            m.log_level = core->aq.fwlog_level[i];
            memcpy(cmd->buf + i * sizeof(m), &m, sizeof(m));
        }
        cmd->resp_len = E810_FW_LOG_MODULES * sizeof(m);
        p->cmd_flags = core->aq.fwlog_flags |
                       (core->aq.fwlog_registered ?
                        E810_AQC_FW_LOG_QUERY_REGISTERED : 0);
        p->log_resolution = htole16(core->aq.fwlog_resolution);
        p->mdl_cnt = htole16(E810_FW_LOG_MODULES);
        return E810_AQ_RC_OK;
    }
    /* 0xFF30: validate everything, then apply. */
    n = le16toh(p->mdl_cnt);
    if (!(p->cmd_flags & E810_AQC_FW_LOG_CONF_SET_VALID) ||
        le16toh(p->log_resolution) < E810_FW_LOG_RESOLUTION_MIN ||
        le16toh(p->log_resolution) > E810_FW_LOG_RESOLUTION_MAX ||
        n > E810_FW_LOG_MODULES || (n && e810_aq_need_buf(cmd, n * sizeof(m)))) {
        return E810_AQ_RC_EINVAL;
    }
    for (i = 0; i < n; i++) {
        memcpy(&m, cmd->buf + i * sizeof(m), sizeof(m));
        if (le16toh(m.module_identifier) >= E810_FW_LOG_MODULES ||
            m.log_level > E810_FW_LOG_LEVEL_MAX) {
            return E810_AQ_RC_EINVAL;
        }
    }
    for (i = 0; i < n; i++) {
        memcpy(&m, cmd->buf + i * sizeof(m), sizeof(m));
        core->aq.fwlog_level[le16toh(m.module_identifier)] = m.log_level;
    }
    core->aq.fwlog_resolution = le16toh(p->log_resolution);
    core->aq.fwlog_flags = p->cmd_flags & (E810_AQC_FW_LOG_CONF_UART_EN |
                                           E810_AQC_FW_LOG_CONF_AQ_EN);
    return E810_AQ_RC_OK;
}

static const E810AqHandler aq_cmds[] = {
    { E810_AQC_GET_VER, cmd_get_ver },
    { E810_AQC_DRIVER_VER, cmd_driver_ver },
    { E810_AQC_Q_SHUTDOWN, cmd_q_shutdown },
    { E810_AQC_LIST_FUNC_CAPS, cmd_list_caps },
    { E810_AQC_LIST_DEV_CAPS, cmd_list_caps },
    { E810_AQC_MANAGE_MAC_READ, cmd_manage_mac_read },
    { E810_AQC_CLEAR_PXE, cmd_nop },
    { E810_AQC_CLEAR_PF_CFG, cmd_clear_pf_cfg },
    { E810_AQC_FW_LOGS_CONFIG, cmd_fwlog },
    { E810_AQC_FW_LOGS_REGISTER, cmd_fwlog },
    { E810_AQC_FW_LOGS_QUERY, cmd_fwlog },
    { 0, NULL }
};

/* Every area's table; each is a few entries, a linear search is fine. */
static const E810AqHandler *const aq_tables[] = {
    aq_cmds,
    e810_nvm_aq_cmds,
    e810_sched_aq_cmds,
    e810_ddp_aq_cmds,
    e810_switch_aq_cmds,
    e810_port_aq_cmds,
};

enum e810_aq_rc e810_aq_execute(E810Core *core, E810AqCmd *cmd)
{
    uint16_t opc = le16toh(cmd->desc.opcode);
    unsigned t, i;

    for (t = 0; t < sizeof(aq_tables) / sizeof(aq_tables[0]); t++) {
        for (i = 0; aq_tables[t][i].fn; i++) {
            if (aq_tables[t][i].opcode == opc) {
                return aq_tables[t][i].fn(core, cmd);
            }
        }
    }
    e810_core_log(core, E810_LOG_UNIMP, "admin queue opcode 0x%04x", opc);
    return E810_AQ_RC_ESRCH;
}
