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

/* Base of the scheduler node ids handed out for queues and qsets. */
#define TEID_TXQ_BASE   0x1000
#define TEID_QSET_BASE  0x2000
#define VSI_NUM_BASE    3

typedef enum e810_aq_rc (*AqHandler)(E810Core *core, E810AqCmd *cmd);

#define PARAMS(cmd, type) ((type *)(void *)(cmd)->desc.params.raw)

static enum e810_aq_rc need_buf(E810AqCmd *cmd, size_t min)
{
    return (!cmd->has_buf || cmd->buf_len < min) ? E810_AQ_RC_EINVAL :
                                                   E810_AQ_RC_OK;
}

static enum e810_aq_rc cmd_get_ver(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_get_ver *p = PARAMS(cmd, struct e810_aqc_get_ver);

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

    if (need_buf(cmd, 1)) {
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
    struct e810_aqc_q_shutdown *p = PARAMS(cmd, struct e810_aqc_q_shutdown);

    if (p->driver_unloading & E810_AQC_DRIVER_UNLOADING) {
        core->aq.driver_loaded = false;
        core->aq.lse_enabled = false;
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
    struct e810_aqc_list_caps *p = PARAMS(cmd, struct e810_aqc_list_caps);
    bool dev = le16toh(cmd->desc.opcode) == E810_AQC_LIST_DEV_CAPS;
    struct e810_aqc_caps_elem caps[8];
    unsigned n = 0;

    if (dev) {
        /* Functions 0..pf_id exist: the model only knows its own number. */
        put_cap(&caps[n++], E810_CAP_VALID_FUNCTIONS,
                (2u << core->pf_id) - 1, 0, 0);
    } else {
        put_cap(&caps[n++], E810_CAP_VSI, 1, 0, 0);
        put_cap(&caps[n++], E810_CAP_RXQS, E810_LAN_NUM_QUEUES, 0, 0);
        put_cap(&caps[n++], E810_CAP_TXQS, E810_LAN_NUM_QUEUES, 0, 0);
        put_cap(&caps[n++], E810_CAP_MAX_MTU, E810_AQ_SET_MAC_FRAME_SIZE_MAX - 26,
                0, 0);
    }
    put_cap(&caps[n++], E810_CAP_MSIX, E810_MSIX_VECTORS, 0, 0);
    put_cap(&caps[n++], E810_CAP_RDMA, 1, 0, 0);

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
        PARAMS(cmd, struct e810_aqc_manage_mac_read);
    struct e810_aqc_manage_mac_read_resp r = {
        .lport_num = 0,
        .addr_type = E810_AQC_MAN_MAC_ADDR_TYPE_LAN,
    };

    if (need_buf(cmd, sizeof(r))) {
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

static enum e810_aq_rc cmd_vsi(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_add_update_free_vsi *p =
        PARAMS(cmd, struct e810_aqc_add_update_free_vsi);
    struct e810_aqc_add_update_free_vsi_resp *r =
        PARAMS(cmd, struct e810_aqc_add_update_free_vsi_resp);
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
        if (need_buf(cmd, sizeof(props))) {
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

static enum e810_aq_rc cmd_set_mac_cfg(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_set_mac_cfg *p = PARAMS(cmd, struct e810_aqc_set_mac_cfg);
    uint16_t mfs = le16toh(p->max_frame_size);

    if (mfs < 64 || mfs > E810_AQ_SET_MAC_FRAME_SIZE_MAX) {
        return E810_AQ_RC_EINVAL;
    }
    core->aq.max_frame = mfs;
    return E810_AQ_RC_OK;
}

static enum e810_aq_rc cmd_get_link_status(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_get_link_status *p =
        PARAMS(cmd, struct e810_aqc_get_link_status);
    struct e810_aqc_link_status_data ld;
    unsigned lse = FIELD_GET(E810_AQ_LSE, le16toh(p->cmd_flags));

    if (p->lport_num != 0) {
        return E810_AQ_RC_EINVAL;   /* one port per function */
    }
    if (lse == E810_AQ_LSE_ENA) {
        core->aq.lse_enabled = true;
    } else if (lse == E810_AQ_LSE_DIS) {
        core->aq.lse_enabled = false;
    }
    p->cmd_flags = htole16(core->aq.lse_enabled ? E810_AQ_LSE_IS_ENABLED : 0);
    if (cmd->has_buf) {
        e810_aq_link_data(core, &ld);
        cmd->resp_len = cmd->buf_len < sizeof(ld) ? cmd->buf_len : sizeof(ld);
        memcpy(cmd->buf, &ld, cmd->resp_len);
    }
    return E810_AQ_RC_OK;
}

static enum e810_aq_rc cmd_set_event_mask(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_set_event_mask *p =
        PARAMS(cmd, struct e810_aqc_set_event_mask);

    if (p->lport_num != 0) {
        return E810_AQ_RC_EINVAL;
    }
    core->aq.event_mask = le16toh(p->event_mask);
    return E810_AQ_RC_OK;
}

static enum e810_aq_rc cmd_add_txqs(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_add_txqs *p = PARAMS(cmd, struct e810_aqc_add_txqs);
    size_t off = 0;
    unsigned g;

    if (p->num_qgrps == 0 || !cmd->has_buf) {
        return E810_AQ_RC_EINVAL;
    }
    for (g = 0; g < p->num_qgrps; g++) {
        struct e810_aqc_add_tx_qgrp grp;
        unsigned q;

        if (off + sizeof(grp) > cmd->buf_len) {
            return E810_AQ_RC_EINVAL;
        }
        memcpy(&grp, cmd->buf + off, sizeof(grp));
        off += sizeof(grp);
        if (grp.num_txqs == 0 ||
            off + grp.num_txqs * sizeof(struct e810_aqc_add_txqs_perq) >
            cmd->buf_len) {
            return E810_AQ_RC_EINVAL;
        }
        for (q = 0; q < grp.num_txqs; q++) {
            struct e810_aqc_add_txqs_perq pq;
            enum e810_aq_rc rc;
            uint32_t teid;

            memcpy(&pq, cmd->buf + off, sizeof(pq));
            rc = e810_lan_add_txq(core, le16toh(pq.txq_id), pq.txq_ctx,
                                  &teid);
            if (rc != E810_AQ_RC_OK) {
                return rc;
            }
            pq.q_teid = htole32(teid);
            memcpy(cmd->buf + off, &pq, sizeof(pq));
            off += sizeof(pq);
        }
    }
    cmd->resp_len = off;
    return E810_AQ_RC_OK;
}

static enum e810_aq_rc remove_qset(E810Core *core, uint16_t id)
{
    unsigned i;

    for (i = 0; i < E810_AQ_MAX_QSETS; i++) {
        if (core->aq.qset_used[i] && core->aq.qset_id[i] == id) {
            core->aq.qset_used[i] = false;
            return E810_AQ_RC_OK;
        }
    }
    return E810_AQ_RC_ENOENT;
}

static enum e810_aq_rc cmd_dis_txqs(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_dis_txqs *p = PARAMS(cmd, struct e810_aqc_dis_txqs);
    size_t off = 0;
    unsigned e;

    if (p->num_entries == 0) {
        /* No list: only legal for VM/VF reset requests. */
        return FIELD_GET(E810_AQC_Q_DIS_CMD_S, p->cmd_type) ==
               E810_AQC_Q_DIS_CMD_NO_RESET ? E810_AQ_RC_EINVAL :
                                             E810_AQ_RC_OK;
    }
    if (!cmd->has_buf) {
        return E810_AQ_RC_EINVAL;
    }
    for (e = 0; e < p->num_entries; e++) {
        struct e810_aqc_dis_txq_item it;
        unsigned i;

        if (off + sizeof(it) > cmd->buf_len) {
            return E810_AQ_RC_EINVAL;
        }
        memcpy(&it, cmd->buf + off, sizeof(it));
        off += sizeof(it);
        if (it.num_qs == 0 || off + it.num_qs * 2u > cmd->buf_len) {
            return E810_AQ_RC_EINVAL;
        }
        for (i = 0; i < it.num_qs; i++) {
            uint16_t id = cmd->buf[off] | (cmd->buf[off + 1] << 8);
            enum e810_aq_rc rc;

            off += 2;
            if (id & E810_AQC_Q_DIS_BUF_ELEM_TYPE_RDMA_QSET) {
                rc = remove_qset(core,
                                 id & ~E810_AQC_Q_DIS_BUF_ELEM_TYPE_RDMA_QSET);
            } else {
                rc = e810_lan_dis_txq(core, id);
            }
            if (rc != E810_AQ_RC_OK) {
                return rc;
            }
        }
        /* Items with an even number of ids are padded to 4 bytes. */
        if (!(it.num_qs & 1)) {
            off += 2;
        }
    }
    return E810_AQ_RC_OK;
}

static enum e810_aq_rc cmd_add_rdma_qset(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_add_rdma_qset *p = PARAMS(cmd, struct e810_aqc_add_rdma_qset);
    size_t off = 0;
    unsigned g;

    if (p->num_qset_grps == 0 || !cmd->has_buf) {
        return E810_AQ_RC_EINVAL;
    }
    for (g = 0; g < p->num_qset_grps; g++) {
        struct e810_aqc_add_rdma_qset_grp grp;
        unsigned q, n;

        if (off + sizeof(grp) > cmd->buf_len) {
            return E810_AQ_RC_EINVAL;
        }
        memcpy(&grp, cmd->buf + off, sizeof(grp));
        off += sizeof(grp);
        n = le16toh(grp.num_qsets);
        if (n == 0 ||
            off + n * sizeof(struct e810_aqc_add_rdma_qset_perq) > cmd->buf_len) {
            return E810_AQ_RC_EINVAL;
        }
        for (q = 0; q < n; q++) {
            struct e810_aqc_add_rdma_qset_perq pq;
            unsigned i;

            memcpy(&pq, cmd->buf + off, sizeof(pq));
            for (i = 0; i < E810_AQ_MAX_QSETS; i++) {
                if (core->aq.qset_used[i] &&
                    core->aq.qset_id[i] == le16toh(pq.tx_qset_id)) {
                    return E810_AQ_RC_EEXIST;
                }
            }
            for (i = 0; i < E810_AQ_MAX_QSETS && core->aq.qset_used[i]; i++) {
                continue;
            }
            if (i == E810_AQ_MAX_QSETS) {
                return E810_AQ_RC_ENOSPC;
            }
            core->aq.qset_used[i] = true;
            core->aq.qset_id[i] = le16toh(pq.tx_qset_id);
            pq.qset_teid = htole32(TEID_QSET_BASE + i);
            memcpy(cmd->buf + off, &pq, sizeof(pq));
            off += sizeof(pq);
        }
    }
    cmd->resp_len = off;
    return E810_AQ_RC_OK;
}

static const struct {
    uint16_t opcode;
    AqHandler fn;
} aq_cmds[] = {
    { E810_AQC_GET_VER, cmd_get_ver },
    { E810_AQC_DRIVER_VER, cmd_driver_ver },
    { E810_AQC_Q_SHUTDOWN, cmd_q_shutdown },
    { E810_AQC_LIST_FUNC_CAPS, cmd_list_caps },
    { E810_AQC_LIST_DEV_CAPS, cmd_list_caps },
    { E810_AQC_MANAGE_MAC_READ, cmd_manage_mac_read },
    { E810_AQC_CLEAR_PXE, cmd_nop },
    { E810_AQC_ADD_VSI, cmd_vsi },
    { E810_AQC_UPDATE_VSI, cmd_vsi },
    { E810_AQC_FREE_VSI, cmd_vsi },
    { E810_AQC_CLEAR_PF_CFG, cmd_clear_pf_cfg },
    { E810_AQC_SET_MAC_CFG, cmd_set_mac_cfg },
    { E810_AQC_GET_LINK_STATUS, cmd_get_link_status },
    { E810_AQC_SET_EVENT_MASK, cmd_set_event_mask },
    { E810_AQC_ADD_TXQS, cmd_add_txqs },
    { E810_AQC_DIS_TXQS, cmd_dis_txqs },
    { E810_AQC_ADD_RDMA_QSET, cmd_add_rdma_qset },
};

enum e810_aq_rc e810_aq_execute(E810Core *core, E810AqCmd *cmd)
{
    uint16_t opc = le16toh(cmd->desc.opcode);
    unsigned i;

    for (i = 0; i < sizeof(aq_cmds) / sizeof(aq_cmds[0]); i++) {
        if (aq_cmds[i].opcode == opc) {
            return aq_cmds[i].fn(core, cmd);
        }
    }
    e810_core_log(core, E810_LOG_UNIMP, "admin queue opcode 0x%04x", opc);
    return E810_AQ_RC_ESRCH;
}
