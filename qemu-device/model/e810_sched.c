/*
 * Emulated E810: the Tx scheduler tree (layers, TEIDs, LAN queue and RDMA qset leaves).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <string.h>

#include "e810_core.h"

void e810_sched_reset(E810Core *core, E810ResetSource level)
{
    memset(&core->sched, 0, sizeof(core->sched));
}

void e810_sched_clear_pf_config(E810Core *core)
{
}

/* Base of the scheduler node ids handed out for queues and qsets. */
#define TEID_TXQ_BASE   0x1000
#define TEID_QSET_BASE  0x2000

static enum e810_aq_rc cmd_add_txqs(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_add_txqs *p = E810_AQ_PARAMS(cmd, struct e810_aqc_add_txqs);
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
            teid = TEID_TXQ_BASE + le16toh(pq.txq_id);
            rc = e810_lan_add_txq(core, le16toh(pq.txq_id), pq.txq_ctx,
                                  teid);
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
    struct e810_aqc_dis_txqs *p = E810_AQ_PARAMS(cmd, struct e810_aqc_dis_txqs);
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
    struct e810_aqc_add_rdma_qset *p = E810_AQ_PARAMS(cmd, struct e810_aqc_add_rdma_qset);
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

const E810AqHandler e810_sched_aq_cmds[] = {
    { E810_AQC_ADD_TXQS, cmd_add_txqs },
    { E810_AQC_DIS_TXQS, cmd_dis_txqs },
    { E810_AQC_ADD_RDMA_QSET, cmd_add_rdma_qset },
    { 0, NULL }
};
