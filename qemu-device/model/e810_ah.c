/*
 * Emulated E810: address handles (FSIAV objects) and multicast groups
 * (FSIMC objects), control side.
 *
 * Create needs a free index within the committed count, backed by the
 * HMC; modify and destroy need an existing one. The decoded fields are
 * kept for the data path (UD sends, multicast receive).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <string.h>

#include "e810_core.h"

/* Create/modify/destroy share one handler; which one is in the opcode. */
enum { OBJ_CREATE, OBJ_MODIFY, OBJ_DESTROY };

static int obj_action(const E810CqpWqe *w, unsigned create_op)
{
    return FIELD_GET(E810_CQPSQ_OPCODE, e810_wqe_hdr(w)) - create_op;
}

/* Checks the slot against the action; false (and @res) if it cannot. */
static bool slot_ok(E810Core *core, bool valid, int action, const char *what,
                    uint32_t idx, E810CqpResult *res)
{
    if (action == OBJ_CREATE && valid) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_STATE, "%s %u exists", what,
                     idx);
        return false;
    }
    if (action != OBJ_CREATE && !valid) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_STATE, "%s %u does not "
                     "exist", what, idx);
        return false;
    }
    return true;
}

/* IP words from a pair of qwords: [hi, lo] = words 0/1 and 2/3. */
static void ip_from_wqe(uint32_t ip[4], bool ipv4, uint64_t q01, uint64_t q23)
{
    memset(ip, 0, 4 * sizeof(*ip));
    ip[3] = FIELD_GET(E810_CQPSQ_AH_IP_LO, q23);
    if (!ipv4) {
        ip[0] = FIELD_GET(E810_CQPSQ_AH_IP_HI, q01);
        ip[1] = FIELD_GET(E810_CQPSQ_AH_IP_LO, q01);
        ip[2] = FIELD_GET(E810_CQPSQ_AH_IP_HI, q23);
    }
}

void e810_op_manage_ah(E810Core *core, const E810CqpWqe *w,
                       E810CqpResult *res)
{
    uint64_t hdr = e810_wqe_hdr(w);
    uint64_t q1 = e810_wqe(w, E810_CQPSQ_AH_VLAN_OFF);
    uint64_t q2 = e810_wqe(w, E810_CQPSQ_AH_FLOW_OFF);
    uint32_t idx = FIELD_GET(E810_CQPSQ_AH_AVIDX, hdr);
    int action = obj_action(w, E810_CQP_OP_CREATE_ADDR_HANDLE);
    E810Ah *ah;

    if (idx >= e810_hmc_count(core, E810_HMC_FSIAV)) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_INDEX, "AH %u beyond the "
                     "committed count", idx);
        return;
    }
    ah = &core->rdma.ah[idx];
    if (!slot_ok(core, ah->valid, action, "AH", idx, res)) {
        return;
    }
    if (action == OBJ_DESTROY) {
        memset(ah, 0, sizeof(*ah));
        return;
    }
    if (!e810_hmc_check_backed(core, E810_HMC_FSIAV, idx, res)) {
        return;
    }
    memset(ah, 0, sizeof(*ah));
    ah->valid = true;
    ah->ipv4 = hdr & E810_CQPSQ_AH_IPV4VALID;
    ah->insert_vlan = hdr & E810_CQPSQ_AH_INSERTVLANTAG;
    ah->loopback = hdr & E810_CQPSQ_AH_DOLOOPBACK;
    e810_mac_from_u64(ah->smac, FIELD_GET(E810_CQPSQ_AH_MAC,
                                     e810_wqe(w, E810_CQPSQ_AH_MAC_OFF)));
    ah->vlan = FIELD_GET(E810_CQPSQ_AH_VLANTAG, q1);
    ah->tc = FIELD_GET(E810_CQPSQ_AH_TC, q1);
    ah->pd = FIELD_GET(E810_CQPSQ_AH_PDINDEXLO, q1) |
             FIELD_GET(E810_CQPSQ_AH_PDINDEXHI, q2) << 16;
    ah->flow_label = FIELD_GET(E810_CQPSQ_AH_FLOWLABEL, q2);
    ah->hop_limit = FIELD_GET(E810_CQPSQ_AH_HOPLIMIT, q2);
    ah->arp_idx = FIELD_GET(E810_CQPSQ_AH_ARPINDEX, q2);
    ip_from_wqe(ah->dip, ah->ipv4, e810_wqe(w, E810_CQPSQ_AH_DIP01_OFF),
                e810_wqe(w, E810_CQPSQ_AH_DIP23_OFF));
    ip_from_wqe(ah->sip, ah->ipv4, e810_wqe(w, E810_CQPSQ_AH_SIP01_OFF),
                e810_wqe(w, E810_CQPSQ_AH_SIP23_OFF));
}

/* Reads the group's QP list from the MG context buffer. */
static bool mcg_load_qps(E810Core *core, E810Mcg *m, uint64_t pa,
                         E810CqpResult *res)
{
    __le64 ent[E810_MG_MAX_QPS];
    unsigned i;

    if ((pa & 7) || !e810_core_dma_read(core, pa, ent, sizeof(ent))) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_ADDR, "MG context buffer "
                     "0x%llx", (unsigned long long)pa);
        return false;
    }
    m->nqps = 0;
    for (i = 0; i < E810_MG_MAX_QPS; i++) {
        uint64_t e = le64toh(ent[i]);

        if (e & E810_MG_CTX_VALIDENT) {
            m->qpn[m->nqps] = FIELD_GET(E810_MG_CTX_QPID, e);
            m->dport[m->nqps++] = FIELD_GET(E810_MG_CTX_DESTPORT, e);
        }
    }
    return true;
}

void e810_op_manage_mcg(E810Core *core, const E810CqpWqe *w,
                        E810CqpResult *res)
{
    uint64_t hdr = e810_wqe_hdr(w);
    uint64_t q2 = e810_wqe(w, E810_CQPSQ_MG_VLAN_OFF);
    uint32_t idx = FIELD_GET(E810_CQPSQ_MG_MGIDX, hdr);
    int action = obj_action(w, E810_CQP_OP_CREATE_MCAST_GRP);
    E810Mcg *mcg, m = { 0 };

    if (idx >= e810_hmc_count(core, E810_HMC_FSIMC)) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_INDEX, "multicast group %u "
                     "beyond the committed count", idx);
        return;
    }
    mcg = &core->rdma.mcg[idx];
    /*
     * A MODIFY carries the whole group, as CREATE does. Upstream
     * irdma_attach_mcast() posts CREATE or MODIFY after dropping its list
     * lock, so a second QP's MODIFY can reach the CQP before the first
     * QP's CREATE: the group is taken as created (and the guest told in
     * the log), rather than failing a detach the verbs layer cannot undo.
     */
    if (action == OBJ_MODIFY && !mcg->valid) {
        e810_core_log(core, E810_LOG_GUEST_ERROR, "MODIFY_MCAST_GRP of "
                      "group %u, which was not created: taken as CREATE",
                      idx);
        action = OBJ_CREATE;
    }
    if (!slot_ok(core, mcg->valid, action, "multicast group", idx, res)) {
        return;
    }
    if (action == OBJ_DESTROY) {
        memset(mcg, 0, sizeof(*mcg));
        return;
    }
    if (!mcg_load_qps(core, &m, e810_wqe(w, E810_CQPSQ_MG_CTX_OFF), res) ||
        !e810_hmc_check_backed(core, E810_HMC_FSIMC, idx, res)) {
        return;
    }
    m.valid = true;
    m.ipv4 = hdr & E810_CQPSQ_MG_IPV4VALID;
    m.vlan_valid = hdr & E810_CQPSQ_MG_VLANVALID;
    e810_mac_from_u64(m.dmac, FIELD_GET(E810_CQPSQ_MG_MAC,
                                   e810_wqe(w, E810_CQPSQ_MG_MAC_OFF)));
    m.vlan = FIELD_GET(E810_CQPSQ_MG_VLANID, q2);
    m.qs_handle = FIELD_GET(E810_CQPSQ_MG_QS_HANDLE, q2);
    ip_from_wqe(m.dip, m.ipv4, e810_wqe(w, E810_CQPSQ_MG_DIP01_OFF),
                e810_wqe(w, E810_CQPSQ_MG_DIP23_OFF));
    *mcg = m;
}
