/*
 * Emulated E810: switch configuration, VSIs, switch rules and RSS.
 *
 * One PF of the switch: its physical port (logical port 0), the VSIs the
 * driver adds, the lookup rules of the default recipes (MAC, MAC_VLAN,
 * VLAN, ethertype, promiscuous, default VSI) with VSI and prune lists,
 * the resources ice allocates at probe (VSI lists, the Flow Director
 * counter block, profile ids and TCAM entries), and per-VSI/PF RSS keys
 * and lookup tables. e810_switch_rx_dest() applies all of it to a frame
 * from the wire.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <string.h>

#include "e810_core.h"

/* The physical port's logical number, the source of every Rx rule. */
#define SW_LPORT        0
/* The device's Rx queue space: 11-bit queue ids in maps and actions. */
#define SW_PF_QUEUES    2048
/* First VSI number of PF 0; each PF owns a block of E810_SW_MAX_VSI. */
#define VSI_NUM_BASE    3

static const uint8_t bcast_mac[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

/* ---- state ------------------------------------------------------------- */

static void sync_aq_flags(E810Core *core)
{
    unsigned i;

    core->aq.vsi_allocated = false;
    core->aq.pe_filter = false;
    for (i = 0; i < E810_SW_MAX_VSI; i++) {
        E810Vsi *v = &core->sw.vsi[i];

        if (!v->used) {
            continue;
        }
        if (v->type == E810_AQ_VSI_TYPE_PF) {
            core->aq.vsi_allocated = true;
        }
        if (v->props.q_opt_flags & E810_AQ_VSI_Q_OPT_PE_FLTR_EN) {
            core->aq.pe_filter = true;
        }
    }
}

void e810_switch_reset(E810Core *core, E810ResetSource level)
{
    memset(&core->sw, 0, sizeof(core->sw));
}

void e810_switch_clear_pf_config(E810Core *core)
{
    E810Switch *sw = &core->sw;
    uint64_t commands = sw->commands, dropped = sw->rx_dropped;

    /* Everything belongs to this PF: VSIs, rules, lists, LUTs, ids. */
    memset(sw, 0, sizeof(*sw));
    sw->commands = commands;
    sw->rx_dropped = dropped;
    sync_aq_flags(core);
}

static uint16_t vsi_num_of(E810Core *core, unsigned slot)
{
    return VSI_NUM_BASE + core->pf_id * E810_SW_MAX_VSI + slot;
}

static int vsi_slot(E810Core *core, uint16_t num)
{
    unsigned base = vsi_num_of(core, 0);

    if (num < base || num >= base + E810_SW_MAX_VSI ||
        !core->sw.vsi[num - base].used) {
        return -1;
    }
    return num - base;
}

static unsigned vsis_used(E810Core *core)
{
    unsigned i, n = 0;

    for (i = 0; i < E810_SW_MAX_VSI; i++) {
        n += core->sw.vsi[i].used;
    }
    return n;
}

/* ---- 0x0200 get switch configuration ----------------------------------- */

/*
 * ice_get_initial_sw_cfg() learns its port from the one physical-port
 * element (logical port, switch id, function); it skips VSI elements.
 */
static enum e810_aq_rc cmd_get_sw_cfg(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_get_sw_cfg *p =
        E810_AQ_PARAMS(cmd, struct e810_aqc_get_sw_cfg);
    struct e810_aqc_get_sw_cfg_resp_elem e;

    if (e810_aq_need_buf(cmd, sizeof(e))) {
        return E810_AQ_RC_EINVAL;
    }
    if (le16toh(p->element) != 0) {
        return E810_AQ_RC_EINVAL;   /* there is no second chunk */
    }
    e.vsi_port_num = htole16(FIELD_PREP(E810_AQC_SW_CFG_NUM, SW_LPORT) |
                             FIELD_PREP(E810_AQC_SW_CFG_TYPE,
                                        E810_AQC_SW_CFG_TYPE_PHYS_PORT));
    e.swid = htole16(core->pf_id);
    e.pf_vf_num = htole16(core->pf_id);
    memcpy(cmd->buf, &e, sizeof(e));
    cmd->resp_len = sizeof(e);
    p->element = 0;
    p->num_elems = htole16(1);
    return E810_AQ_RC_OK;
}

/* ---- 0x0203 set port parameters ---------------------------------------- */

/* ice_aq_set_port_params(): our switch id, VLAN mode, local forwarding. */
static enum e810_aq_rc cmd_set_port_params(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_set_port_params *p =
        E810_AQ_PARAMS(cmd, struct e810_aqc_set_port_params);
    uint16_t swid = le16toh(p->swid);
    uint16_t bad = le16toh(p->bad_frame_vsi);

    if ((swid & E810_AQC_PORT_SWID_VALID) &&
        FIELD_GET(E810_AQC_PORT_SWID, swid) != core->pf_id) {
        return E810_AQ_RC_EINVAL;
    }
    if ((bad & E810_AQ_VSI_IS_VALID) &&
        vsi_slot(core, FIELD_GET(E810_AQ_VSI_NUM, bad)) < 0) {
        return E810_AQ_RC_ENOENT;
    }
    if (p->local_fwd_mode & E810_AQC_PORT_FWD_MODE_VALID) {
        if (FIELD_GET(E810_AQC_PORT_FWD_MODE, p->local_fwd_mode) > 2) {
            return E810_AQ_RC_EINVAL;
        }
        core->sw.local_fwd_mode = FIELD_GET(E810_AQC_PORT_FWD_MODE,
                                            p->local_fwd_mode);
    }
    core->sw.double_vlan =
        le16toh(p->cmd_flags) & E810_AQC_PORT_PARAMS_DOUBLE_VLAN;
    return E810_AQ_RC_OK;
}

/* ---- 0x0208 / 0x0209 resources ------------------------------------------ */

/* Bitmap of a profile/TCAM resource type, NULL if not one. */
static uint8_t *prof_map(E810Core *core, unsigned type)
{
    switch (type) {
    case E810_AQC_RES_FD_PROF_ID:
        return core->sw.prof_used[0];
    case E810_AQC_RES_FD_TCAM:
        return core->sw.prof_used[1];
    case E810_AQC_RES_HASH_PROF_ID:
        return core->sw.prof_used[2];
    case E810_AQC_RES_HASH_TCAM:
        return core->sw.prof_used[3];
    default:
        return NULL;
    }
}

static bool res_take(E810Core *core, unsigned type, bool bottom,
                     uint16_t *id)
{
    uint8_t *map = prof_map(core, type);
    unsigned i, n;

    if (type == E810_AQC_RES_VSI_LIST_REP ||
        type == E810_AQC_RES_VSI_LIST_PRUNE) {
        for (i = 0; i < E810_SW_MAX_VSI_LISTS; i++) {
            E810VsiList *l = &core->sw.vsi_list[i];

            if (!l->used) {
                memset(l, 0, sizeof(*l));
                l->used = true;
                l->prune = type == E810_AQC_RES_VSI_LIST_PRUNE;
                *id = i;
                return true;
            }
        }
        return false;
    }
    if (type == E810_AQC_RES_FD_COUNTER_BLOCK) {
        for (i = 0; i < E810_SW_NUM_FD_CNT_BLK; i++) {
            if (!(core->sw.fd_cnt_blk_used & (1u << i))) {
                core->sw.fd_cnt_blk_used |= 1u << i;
                *id = core->pf_id * E810_SW_NUM_FD_CNT_BLK + i;
                return true;
            }
        }
        return false;
    }
    for (n = 0; n < E810_SW_NUM_PROF; n++) {
        i = bottom ? E810_SW_NUM_PROF - 1 - n : n;
        if (!(map[i / 8] & (1u << (i % 8)))) {
            map[i / 8] |= 1u << (i % 8);
            *id = i;
            return true;
        }
    }
    return false;
}

static bool res_put(E810Core *core, unsigned type, uint16_t id)
{
    uint8_t *map = prof_map(core, type);
    unsigned blk;

    if (type == E810_AQC_RES_VSI_LIST_REP ||
        type == E810_AQC_RES_VSI_LIST_PRUNE) {
        if (id >= E810_SW_MAX_VSI_LISTS || !core->sw.vsi_list[id].used ||
            core->sw.vsi_list[id].prune !=
                (type == E810_AQC_RES_VSI_LIST_PRUNE)) {
            return false;
        }
        core->sw.vsi_list[id].used = false;
        return true;
    }
    if (type == E810_AQC_RES_FD_COUNTER_BLOCK) {
        blk = id - core->pf_id * E810_SW_NUM_FD_CNT_BLK;
        if (id < core->pf_id * E810_SW_NUM_FD_CNT_BLK ||
            blk >= E810_SW_NUM_FD_CNT_BLK ||
            !(core->sw.fd_cnt_blk_used & (1u << blk))) {
            return false;
        }
        core->sw.fd_cnt_blk_used &= ~(1u << blk);
        return true;
    }
    if (id >= E810_SW_NUM_PROF || !(map[id / 8] & (1u << (id % 8)))) {
        return false;
    }
    map[id / 8] &= ~(1u << (id % 8));
    return true;
}

/*
 * Flow Director filter space (ice_alloc_fd_guar_item(),
 * ice_alloc_fd_shrd_item()): num_elems is the number of filters, and the
 * one element of the answer is the base index of the block taken. The
 * block is the whole space of its kind that is left, as GLQF_FD_SIZE
 * describes it; freeing gives it back.
 */
static enum e810_aq_rc fd_entries(E810Core *core, E810AqCmd *cmd,
                                  unsigned type, bool alloc, uint16_t n)
{
    bool guar = type == E810_AQC_RES_FD_GUAR_ENTRIES;
    uint16_t *taken = guar ? &core->sw.fd_guar_taken :
                             &core->sw.fd_shared_taken;
    unsigned space = guar ? E810_FD_GUAR_FILTERS : E810_FD_BEST_EFFORT_FILTERS;
    struct e810_aqc_alloc_free_res_elem h;
    uint16_t base;

    if (n == 0 || e810_aq_need_buf(cmd, sizeof(h) + 2)) {
        return E810_AQ_RC_EINVAL;
    }
    if (!alloc) {
        if (!*taken || n != *taken) {
            return E810_AQ_RC_ENOENT;
        }
        *taken = 0;
        return E810_AQ_RC_OK;
    }
    if (*taken || n > space) {
        return E810_AQ_RC_ENOSPC;
    }
    *taken = n;
    base = htole16(0);
    memcpy(cmd->buf + sizeof(h), &base, sizeof(base));
    cmd->resp_len = sizeof(h) + 2;
    return E810_AQ_RC_OK;
}

/*
 * ice_aq_alloc_free_res(): one entry (res_type, num_elems, ids). Allocation
 * writes the ids back (ice_alloc_res_cntr() reads elem[0]); a request
 * that does not fit gets ENOSPC and allocates nothing.
 */
static enum e810_aq_rc cmd_alloc_free_res(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_alloc_free_res *p =
        E810_AQ_PARAMS(cmd, struct e810_aqc_alloc_free_res);
    bool alloc = le16toh(cmd->desc.opcode) == E810_AQC_ALLOC_RES;
    struct e810_aqc_alloc_free_res_elem h;
    uint16_t rt, n, i, id;
    unsigned type;
    size_t need;

    if (le16toh(p->num_entries) != 1 || e810_aq_need_buf(cmd, sizeof(h))) {
        return E810_AQ_RC_EINVAL;
    }
    memcpy(&h, cmd->buf, sizeof(h));
    rt = le16toh(h.res_type);
    type = FIELD_GET(E810_AQC_RES_TYPE, rt);
    n = le16toh(h.num_elems);
    if (type == E810_AQC_RES_FD_GUAR_ENTRIES ||
        type == E810_AQC_RES_FD_SHARED_ENTRIES) {
        return fd_entries(core, cmd, type, alloc, n);
    }
    need = sizeof(h) + 2u * n;
    if (n == 0 || need > cmd->buf_len) {
        return E810_AQ_RC_EINVAL;
    }
    if (type != E810_AQC_RES_VSI_LIST_REP &&
        type != E810_AQC_RES_VSI_LIST_PRUNE &&
        type != E810_AQC_RES_FD_COUNTER_BLOCK && !prof_map(core, type)) {
        return E810_AQ_RC_EINVAL;   /* not a type this PF may allocate */
    }
    if (type == E810_AQC_RES_FD_COUNTER_BLOCK && n != 1) {
        return E810_AQ_RC_EINVAL;   /* one block, its base id answered */
    }
    if (alloc) {
        for (i = 0; i < n; i++) {
            if (!res_take(core, type, rt & E810_AQC_RES_FLAG_SCAN_BOTTOM,
                          &id)) {
                while (i--) {
                    memcpy(&id, cmd->buf + sizeof(h) + 2 * i, 2);
                    res_put(core, type, le16toh(id));
                }
                return E810_AQ_RC_ENOSPC;
            }
            id = htole16(id);
            memcpy(cmd->buf + sizeof(h) + 2 * i, &id, 2);
        }
        cmd->resp_len = need;
        return E810_AQ_RC_OK;
    }
    for (i = 0; i < n; i++) {
        memcpy(&id, cmd->buf + sizeof(h) + 2 * i, 2);
        if (!res_put(core, type, le16toh(id))) {
            return E810_AQ_RC_ENOENT;
        }
    }
    return E810_AQ_RC_OK;
}

/* ---- 0x0210..0x0213 VSIs ------------------------------------------------ */

/*
 * A freed VSI takes its rules along: those it is the source of (Tx) or
 * the single destination of, and its place in VSI lists.
 */
static void vsi_forget(E810Core *core, unsigned slot)
{
    E810Vsi *v = &core->sw.vsi[slot];
    unsigned i;

    for (i = 0; i < E810_SW_MAX_RULES; i++) {
        E810SwRule *r = &core->sw.rule[i];
        uint32_t t = FIELD_GET(E810_SW_ACT_TYPE, r->act);

        if ((r->tx && r->src == v->num) ||
            ((t == E810_SW_ACT_TYPE_FWD_VSI || t == E810_SW_ACT_TYPE_PRUNE) &&
             !(r->act & (E810_SW_ACT_VSI_LIST | E810_SW_ACT_DROP)) &&
             FIELD_GET(E810_SW_ACT_VSI_ID, r->act) == v->num)) {
            r->used = false;
        }
    }
    for (i = 0; i < E810_SW_MAX_VSI_LISTS; i++) {
        core->sw.vsi_list[i].members &= ~(1u << slot);
    }
    v->used = false;
}

/* Byte ranges of the VSI property sections, by valid_sections bit. */
static const struct {
    uint16_t bit;
    uint8_t off, len;
} vsi_sections[] = {
    { E810_AQ_VSI_PROP_SW_VALID, 2, 4 },
    { E810_AQ_VSI_PROP_SECURITY_VALID, 6, 2 },
    { E810_AQ_VSI_PROP_VLAN_VALID, 8, 8 },
    { E810_AQ_VSI_PROP_INGRESS_UP_VALID, 16, 4 },
    { E810_AQ_VSI_PROP_EGRESS_UP_VALID, 20, 4 },
    { E810_AQ_VSI_PROP_OUTER_TAG_VALID, 24, 4 },
    { E810_AQ_VSI_PROP_RXQ_MAP_VALID, 28, 50 },
    { E810_AQ_VSI_PROP_Q_OPT_VALID, 78, 6 },
    { E810_AQ_VSI_PROP_OUTER_UP_VALID, 84, 4 },
    { E810_AQ_VSI_PROP_FLOW_DIR_VALID, 90, 12 },
    { E810_AQ_VSI_PROP_PASID_VALID, 102, 4 },
};

/*
 * The queue map and queue options of @p make sense for this PF (@add: all
 * of them count, whatever valid_sections says).
 */
static bool vsi_props_ok(const struct e810_aqc_vsi_props *p, bool add)
{
    uint16_t valid = add ? 0xffff : le16toh(p->valid_sections);
    unsigned i, first, count;

    if (valid & E810_AQ_VSI_PROP_RXQ_MAP_VALID) {
        if (le16toh(p->mapping_flags) & E810_AQ_VSI_Q_MAP_NONCONTIG) {
            for (i = 0; i < 16; i++) {
                if (le16toh(p->q_mapping[i]) >= SW_PF_QUEUES) {
                    return false;
                }
            }
        } else {
            first = le16toh(p->q_mapping[0]);
            count = le16toh(p->q_mapping[1]);
            if (first + count > SW_PF_QUEUES) {
                return false;
            }
        }
        for (i = 0; i < 8; i++) {
            if (FIELD_GET(E810_AQ_VSI_TC_Q_NUM, le16toh(p->tc_mapping[i])) >
                11) {
                return false;
            }
        }
    }
    if ((valid & E810_AQ_VSI_PROP_Q_OPT_VALID) &&
        FIELD_GET(E810_AQ_VSI_Q_OPT_RSS_LUT, p->q_opt_rss) == 1) {
        return false;   /* LUT type 1 is not defined */
    }
    return true;
}

static void vsi_resp(E810Core *core, E810AqCmd *cmd, uint16_t num)
{
    struct e810_aqc_add_update_free_vsi_resp *r =
        E810_AQ_PARAMS(cmd, struct e810_aqc_add_update_free_vsi_resp);
    unsigned used = vsis_used(core);

    r->vsi_num = htole16(num);
    r->ext_status = 0;
    r->vsi_used = htole16(used);
    r->vsi_free = htole16(E810_SW_VSI_POOL - used);
}

/*
 * ice_vsi_init() adds the PF VSI (type PF, number from the pool), later a
 * loopback VSI for the ethtool self test (also type PF) and channel VSIs
 * (VMDQ2); updates come from ice_vsi_vlan_ops (VLAN and prune flags),
 * ice_vsi_cfg_rss / PE_FLTR_EN (RDMA) and the queue map on a TC change.
 */
static enum e810_aq_rc cmd_vsi(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_add_update_free_vsi *p =
        E810_AQ_PARAMS(cmd, struct e810_aqc_add_update_free_vsi);
    uint16_t opc = le16toh(cmd->desc.opcode);
    uint16_t reqnum = le16toh(p->vsi_num);
    struct e810_aqc_vsi_props in;
    uint8_t *dst, *src = (uint8_t *)&in;
    unsigned type, i;
    E810Vsi *v;
    int slot;

    if (opc == E810_AQC_ADD_VSI) {
        type = FIELD_GET(E810_AQ_VSI_TYPE, le16toh(p->vsi_flags));
        if (type != E810_AQ_VSI_TYPE_PF && type != E810_AQ_VSI_TYPE_VMDQ2) {
            return E810_AQ_RC_EINVAL;   /* no VFs, no management VSI */
        }
        if (e810_aq_need_buf(cmd, sizeof(in))) {
            return E810_AQ_RC_EINVAL;
        }
        memcpy(&in, cmd->buf, sizeof(in));
        if (!vsi_props_ok(&in, true)) {
            return E810_AQ_RC_EINVAL;
        }
        if (reqnum & E810_AQ_VSI_IS_VALID) {
            /* A given number: it must be one of ours and free. */
            slot = (int)FIELD_GET(E810_AQ_VSI_NUM, reqnum) -
                   (int)vsi_num_of(core, 0);
            if (slot < 0 || slot >= E810_SW_MAX_VSI) {
                return E810_AQ_RC_EINVAL;
            }
            if (core->sw.vsi[slot].used) {
                return E810_AQ_RC_EEXIST;
            }
        } else {
            for (slot = 0; slot < E810_SW_MAX_VSI; slot++) {
                if (!core->sw.vsi[slot].used) {
                    break;
                }
            }
            if (slot == E810_SW_MAX_VSI) {
                return E810_AQ_RC_ENOSPC;
            }
        }
        v = &core->sw.vsi[slot];
        memset(v, 0, sizeof(*v));
        v->used = true;
        v->type = type;
        v->num = vsi_num_of(core, slot);
    } else {
        slot = (reqnum & E810_AQ_VSI_IS_VALID) ?
               vsi_slot(core, FIELD_GET(E810_AQ_VSI_NUM, reqnum)) : -1;
        if (slot < 0) {
            return E810_AQ_RC_ENOENT;
        }
        v = &core->sw.vsi[slot];
        if (opc == E810_AQC_FREE_VSI) {
            vsi_forget(core, slot);
            vsi_resp(core, cmd, v->num);
            sync_aq_flags(core);
            return E810_AQ_RC_OK;
        }
        if (opc == E810_AQC_GET_VSI_PARAMS) {
            if (e810_aq_need_buf(cmd, sizeof(v->props))) {
                return E810_AQ_RC_EINVAL;
            }
            memcpy(cmd->buf, &v->props, sizeof(v->props));
            cmd->resp_len = sizeof(v->props);
            vsi_resp(core, cmd, v->num);
            return E810_AQ_RC_OK;
        }
        if (e810_aq_need_buf(cmd, sizeof(in))) {
            return E810_AQ_RC_EINVAL;
        }
        memcpy(&in, cmd->buf, sizeof(in));
        if (!vsi_props_ok(&in, false)) {
            return E810_AQ_RC_EINVAL;
        }
    }
    /*
     * Add takes the whole context: ice_vsi_init() marks neither the queue
     * map nor the queue options valid when it adds. An update changes
     * only the sections marked valid.
     */
    dst = (uint8_t *)&v->props;
    if (opc == E810_AQC_ADD_VSI) {
        memcpy(dst, src, sizeof(in));
    } else {
        for (i = 0; i < sizeof(vsi_sections) / sizeof(vsi_sections[0]); i++) {
            if (le16toh(in.valid_sections) & vsi_sections[i].bit) {
                memcpy(dst + vsi_sections[i].off, src + vsi_sections[i].off,
                       vsi_sections[i].len);
            }
        }
        v->props.valid_sections |= in.valid_sections;
    }
    vsi_resp(core, cmd, v->num);
    sync_aq_flags(core);
    return E810_AQ_RC_OK;
}

/* ---- 0x02A0..0x02A2 switch rules ----------------------------------------- */

static bool known_recipe(uint16_t r)
{
    return r <= E810_SW_LKUP_DFLT || r == E810_SW_LKUP_ETHERTYPE_MAC ||
           r == E810_SW_LKUP_PROMISC_VLAN;
}

/* The action's VSI or VSI list exists (a drop needs neither). */
static enum e810_aq_rc check_act(E810Core *core, uint32_t act)
{
    unsigned t = FIELD_GET(E810_SW_ACT_TYPE, act);
    unsigned id = FIELD_GET(E810_SW_ACT_VSI_ID, act);

    if (t == E810_SW_ACT_TYPE_TO_Q) {
        return FIELD_GET(E810_SW_ACT_Q_INDEX, act) < SW_PF_QUEUES ?
               E810_AQ_RC_OK : E810_AQ_RC_EINVAL;
    }
    if (t == E810_SW_ACT_TYPE_OTHER ||
        (t == E810_SW_ACT_TYPE_FWD_VSI && (act & E810_SW_ACT_DROP))) {
        return E810_AQ_RC_OK;
    }
    if (act & E810_SW_ACT_VSI_LIST) {
        return id < E810_SW_MAX_VSI_LISTS && core->sw.vsi_list[id].used ?
               E810_AQ_RC_OK : E810_AQ_RC_ENOENT;
    }
    return vsi_slot(core, id) >= 0 ? E810_AQ_RC_OK : E810_AQ_RC_ENOENT;
}

static enum e810_aq_rc rule_lkup(E810Core *core, uint16_t opc,
                                 uint8_t *el, size_t len)
{
    struct e810_sw_rule_lkup r;
    uint16_t type, idx, recipe, src;
    enum e810_aq_rc rc;
    E810SwRule *s;
    unsigned i;

    memcpy(&r, el, sizeof(r));
    type = le16toh(r.hdr.type);
    idx = le16toh(r.index);
    if (opc == E810_AQC_REMOVE_SW_RULES || opc == E810_AQC_UPDATE_SW_RULES) {
        /*
         * A removal names the rule by index alone: ice_fill_sw_rule()
         * returns before it sets the Rx/Tx type for one, so the type of
         * a removal is always 0 (Rx). An update carries the real type.
         */
        if (idx >= E810_SW_MAX_RULES || !core->sw.rule[idx].used ||
            (opc == E810_AQC_UPDATE_SW_RULES &&
             core->sw.rule[idx].tx != (type == E810_SW_RULE_LKUP_TX))) {
            return E810_AQ_RC_ENOENT;
        }
        s = &core->sw.rule[idx];
        if (opc == E810_AQC_REMOVE_SW_RULES) {
            s->used = false;
            return E810_AQ_RC_OK;
        }
        rc = check_act(core, le32toh(r.act));
        if (rc == E810_AQ_RC_OK) {
            s->act = le32toh(r.act);
        }
        return rc;
    }
    recipe = le16toh(r.recipe_id);
    src = le16toh(r.src);
    if (!known_recipe(recipe) || le16toh(r.hdr_len) != sizeof(s->hdr) ||
        len < sizeof(r) + sizeof(s->hdr)) {
        return E810_AQ_RC_EINVAL;
    }
    if (type == E810_SW_RULE_LKUP_RX ? src != SW_LPORT :
                                       vsi_slot(core, src) < 0) {
        return E810_AQ_RC_EINVAL;
    }
    rc = check_act(core, le32toh(r.act));
    if (rc) {
        return rc;
    }
    for (i = 0; i < E810_SW_MAX_RULES; i++) {
        s = &core->sw.rule[i];
        if (s->used && s->tx == (type == E810_SW_RULE_LKUP_TX) &&
            s->recipe == recipe && s->src == src &&
            !memcmp(s->hdr, el + sizeof(r), sizeof(s->hdr))) {
            return E810_AQ_RC_EEXIST;
        }
    }
    for (i = 0; i < E810_SW_MAX_RULES && core->sw.rule[i].used; i++) {
    }
    if (i == E810_SW_MAX_RULES) {
        return E810_AQ_RC_ENOSPC;
    }
    s = &core->sw.rule[i];
    s->used = true;
    s->tx = type == E810_SW_RULE_LKUP_TX;
    s->recipe = recipe;
    s->src = src;
    s->act = le32toh(r.act);
    memcpy(s->hdr, el + sizeof(r), sizeof(s->hdr));
    r.index = htole16(i);
    memcpy(el, &r, sizeof(r));
    return E810_AQ_RC_OK;
}

/* VSI_LIST_SET/CLEAR, PRUNE_LIST_SET/CLEAR: members in or out of a list. */
static enum e810_aq_rc rule_vsi_list(E810Core *core, uint8_t *el)
{
    struct e810_sw_rule_vsi_list r;
    uint16_t type, idx, n, num, i;
    uint32_t bits = 0;
    bool prune, set;
    E810VsiList *l;
    int slot;

    memcpy(&r, el, sizeof(r));
    type = le16toh(r.hdr.type);
    idx = le16toh(r.index);
    n = le16toh(r.number_vsi);
    prune = type == E810_SW_RULE_PRUNE_LIST_SET ||
            type == E810_SW_RULE_PRUNE_LIST_CLEAR;
    set = type == E810_SW_RULE_VSI_LIST_SET ||
          type == E810_SW_RULE_PRUNE_LIST_SET;
    if (idx >= E810_SW_MAX_VSI_LISTS || !core->sw.vsi_list[idx].used ||
        core->sw.vsi_list[idx].prune != prune) {
        return E810_AQ_RC_ENOENT;
    }
    l = &core->sw.vsi_list[idx];
    for (i = 0; i < n; i++) {
        memcpy(&num, el + sizeof(r) + 2 * i, 2);
        slot = vsi_slot(core, FIELD_GET(E810_AQ_VSI_NUM, le16toh(num)));
        if (slot < 0) {
            return E810_AQ_RC_ENOENT;
        }
        bits |= 1u << slot;
    }
    l->members = set ? l->members | bits : l->members & ~bits;
    return E810_AQ_RC_OK;
}

/* Size of the rule element at @el (@avail bytes left), 0 if malformed. */
static size_t rule_size(const uint8_t *el, size_t avail)
{
    struct e810_aqc_sw_rule_hdr h;
    struct e810_sw_rule_lkup lk;
    struct e810_sw_rule_vsi_list vl;
    size_t n;

    if (avail < sizeof(h)) {
        return 0;
    }
    memcpy(&h, el, sizeof(h));
    switch (le16toh(h.type)) {
    case E810_SW_RULE_LKUP_RX:
    case E810_SW_RULE_LKUP_TX:
        if (avail < sizeof(lk)) {
            return 0;
        }
        memcpy(&lk, el, sizeof(lk));
        n = sizeof(lk) + le16toh(lk.hdr_len);
        break;
    case E810_SW_RULE_VSI_LIST_SET:
    case E810_SW_RULE_VSI_LIST_CLEAR:
    case E810_SW_RULE_PRUNE_LIST_SET:
    case E810_SW_RULE_PRUNE_LIST_CLEAR:
        if (avail < sizeof(vl)) {
            return 0;
        }
        memcpy(&vl, el, sizeof(vl));
        n = sizeof(vl) + 2u * le16toh(vl.number_vsi);
        break;
    default:
        return 0;
    }
    return n <= avail ? n : 0;
}

/*
 * ice_aq_sw_rules(): num_rules elements back to back; the answer is the
 * same buffer with each element's status and, on add, the rule index the
 * driver later updates or removes by (fltr_rule_id). An unknown index on
 * update/remove answers ENOENT, which ice reports as -ENOENT.
 */
static enum e810_aq_rc cmd_sw_rules(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_sw_rules *p = E810_AQ_PARAMS(cmd, struct e810_aqc_sw_rules);
    uint16_t opc = le16toh(cmd->desc.opcode);
    unsigned n = le16toh(p->num_rules), i;
    enum e810_aq_rc rc = E810_AQ_RC_OK;
    struct e810_aqc_sw_rule_hdr h;
    size_t off = 0, sz;

    if (n == 0 || e810_aq_need_buf(cmd, sizeof(h))) {
        return E810_AQ_RC_EINVAL;
    }
    for (i = 0; i < n && rc == E810_AQ_RC_OK; i++) {
        uint8_t *el = cmd->buf + off;

        if (cmd->buf_len - off < sizeof(h)) {
            return E810_AQ_RC_EINVAL;   /* fewer elements than num_rules */
        }
        memcpy(&h, el, sizeof(h));
        sz = (opc == E810_AQC_REMOVE_SW_RULES &&
              le16toh(h.type) <= E810_SW_RULE_LKUP_TX) ?
             (cmd->buf_len - off >= sizeof(struct e810_sw_rule_lkup) ?
              sizeof(struct e810_sw_rule_lkup) : 0) :
             rule_size(el, cmd->buf_len - off);
        if (sz == 0) {
            return E810_AQ_RC_EINVAL;
        }
        if (le16toh(h.type) <= E810_SW_RULE_LKUP_TX) {
            rc = rule_lkup(core, opc, el, sz);
        } else {
            rc = rule_vsi_list(core, el);
        }
        memcpy(&h, el, sizeof(h));
        h.status = htole16(rc);
        memcpy(el, &h, sizeof(h));
        off += sz;
    }
    cmd->resp_len = off;
    return rc;
}

/* ---- 0x0B02..0x0B05 RSS key and LUT ------------------------------------- */

static int rss_vsi(E810Core *core, uint16_t vsi_id)
{
    if (!(vsi_id & E810_AQC_RSS_VSI_VALID)) {
        return -1;
    }
    return vsi_slot(core, FIELD_GET(E810_AQC_RSS_VSI_ID, vsi_id));
}

/* ice_set_rss_key(): 40 bytes of Toeplitz key and 12 of hash key. */
static enum e810_aq_rc cmd_rss_key(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_get_set_rss_key *p =
        E810_AQ_PARAMS(cmd, struct e810_aqc_get_set_rss_key);
    int slot = rss_vsi(core, le16toh(p->vsi_id));
    E810Vsi *v;

    if (slot < 0) {
        return E810_AQ_RC_ENOENT;
    }
    if (e810_aq_need_buf(cmd, E810_RSS_KEY_SIZE) ||
        cmd->buf_len != E810_RSS_KEY_SIZE) {
        return E810_AQ_RC_EINVAL;
    }
    v = &core->sw.vsi[slot];
    if (le16toh(cmd->desc.opcode) == E810_AQC_SET_RSS_KEY) {
        memcpy(v->rss_key, cmd->buf, E810_RSS_KEY_SIZE);
        v->key_set = true;
    } else {
        memcpy(cmd->buf, v->rss_key, E810_RSS_KEY_SIZE);
        cmd->resp_len = E810_RSS_KEY_SIZE;
    }
    return E810_AQ_RC_OK;
}

/*
 * __ice_aq_get_set_rss_lut(): flags carry the LUT type (VSI 64 entries,
 * PF 2048, global 512 with its index) and the matching size code; the
 * buffer is exactly one byte per entry.
 */
static enum e810_aq_rc cmd_rss_lut(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_get_set_rss_lut *p =
        E810_AQ_PARAMS(cmd, struct e810_aqc_get_set_rss_lut);
    uint16_t flags = le16toh(p->flags);
    unsigned type = FIELD_GET(E810_AQC_LUT_TYPE, flags);
    unsigned size_code = FIELD_GET(E810_AQC_LUT_SIZE, flags);
    unsigned gidx = FIELD_GET(E810_AQC_LUT_GLOBAL_IDX, flags);
    bool set = le16toh(cmd->desc.opcode) == E810_AQC_SET_RSS_LUT;
    int slot = rss_vsi(core, le16toh(p->vsi_id));
    unsigned size;
    uint8_t *lut;
    bool *valid;

    if (slot < 0) {
        return E810_AQ_RC_ENOENT;
    }
    switch (type) {
    case E810_AQC_LUT_TYPE_VSI:
        size = E810_RSS_LUT_VSI_SIZE;
        lut = core->sw.vsi[slot].lut;
        valid = &core->sw.vsi[slot].lut_set;
        if (size_code != E810_AQC_LUT_SIZE_SMALL) {
            return E810_AQ_RC_EINVAL;
        }
        break;
    case E810_AQC_LUT_TYPE_PF:
        size = E810_RSS_LUT_PF_SIZE;
        lut = core->sw.pf_lut;
        valid = &core->sw.pf_lut_set;
        if (size_code != E810_AQC_LUT_SIZE_2K) {
            return E810_AQ_RC_EINVAL;
        }
        break;
    case E810_AQC_LUT_TYPE_GLOBAL:
        size = E810_RSS_LUT_GLOBAL_SIZE;
        lut = core->sw.glut[gidx];
        valid = &core->sw.glut_set[gidx];
        if (size_code != E810_AQC_LUT_SIZE_512) {
            return E810_AQ_RC_EINVAL;
        }
        break;
    default:
        return E810_AQ_RC_EINVAL;
    }
    if (e810_aq_need_buf(cmd, size) || (set && cmd->buf_len != size)) {
        return E810_AQ_RC_EINVAL;
    }
    if (set) {
        memcpy(lut, cmd->buf, size);
        *valid = true;
    } else {
        memcpy(cmd->buf, lut, size);
        cmd->resp_len = size;
    }
    return E810_AQ_RC_OK;
}

/* ---- Toeplitz hash ------------------------------------------------------ */

uint32_t e810_toeplitz(const uint8_t *key, const uint8_t *data, size_t len)
{
    uint32_t hash = 0;
    uint32_t window = ((uint32_t)key[0] << 24) | ((uint32_t)key[1] << 16) |
                      ((uint32_t)key[2] << 8) | key[3];
    size_t i;
    int b;

    /* For every input bit set, add the 32 key bits starting at it. */
    for (i = 0; i < len; i++) {
        for (b = 7; b >= 0; b--) {
            if (data[i] & (1u << b)) {
                hash ^= window;
            }
            window = (window << 1) | ((key[i + 4] >> b) & 1);
        }
    }
    return hash;
}

/* ---- Rx steering -------------------------------------------------------- */

typedef struct RxFrame {
    const uint8_t *da;
    uint16_t ethertype;         /* after one VLAN tag, if any */
    bool tagged;
    uint16_t vid;               /* 0 when untagged */
    size_t l3;                  /* offset of the L3 header */
} RxFrame;

static uint16_t rd16be(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

static int mac_class(const uint8_t *mac)
{
    if (!memcmp(mac, bcast_mac, 6)) {
        return 2;
    }
    return mac[0] & 1;          /* 1 multicast, 0 unicast */
}

static bool rule_matches(const E810SwRule *r, const RxFrame *f)
{
    uint16_t rvid = rd16be(r->hdr + 14) & 0xfff;

    switch (r->recipe) {
    case E810_SW_LKUP_ETHERTYPE:
        return f->ethertype == rd16be(r->hdr + 12);
    case E810_SW_LKUP_ETHERTYPE_MAC:
        return f->ethertype == rd16be(r->hdr + 12) &&
               !memcmp(f->da, r->hdr, 6);
    case E810_SW_LKUP_MAC:
        return !memcmp(f->da, r->hdr, 6);
    case E810_SW_LKUP_MAC_VLAN:
        return !memcmp(f->da, r->hdr, 6) && f->tagged && f->vid == rvid;
    case E810_SW_LKUP_PROMISC:
        /* ice_set_vsi_promisc(): the DA's kind stands for all of its kind */
        return mac_class(f->da) == mac_class(r->hdr);
    case E810_SW_LKUP_PROMISC_VLAN:
        return mac_class(f->da) == mac_class(r->hdr) && f->vid == rvid;
    case E810_SW_LKUP_DFLT:
        return true;
    default:
        return false;
    }
}

/*
 * ice adds its MAC and MAC_VLAN filters as Tx rules (source: the VSI,
 * ice_add_mac()): an address lookup names the VSI that owns the address,
 * so it steers frames from the wire too. The other lookups are
 * directional (see ice_fill_sw_info()): only their Rx rules see Rx.
 */
static bool addr_lookup(uint16_t recipe)
{
    return recipe == E810_SW_LKUP_MAC || recipe == E810_SW_LKUP_MAC_VLAN;
}

/* The VSI slots an action forwards to. */
static uint32_t act_targets(E810Core *core, uint32_t act)
{
    unsigned id = FIELD_GET(E810_SW_ACT_VSI_ID, act);
    int slot;

    if (act & E810_SW_ACT_VSI_LIST) {
        return id < E810_SW_MAX_VSI_LISTS && core->sw.vsi_list[id].used ?
               core->sw.vsi_list[id].members : 0;
    }
    slot = vsi_slot(core, id);
    return slot < 0 ? 0 : 1u << slot;
}

/* VSIs with Rx VLAN pruning keep only VLANs a VLAN rule lets in. */
static uint32_t vlan_prune(E810Core *core, const RxFrame *f, uint32_t to)
{
    uint32_t allowed = 0;
    unsigned i;

    for (i = 0; i < E810_SW_MAX_RULES; i++) {
        const E810SwRule *r = &core->sw.rule[i];

        if (r->used && r->recipe == E810_SW_LKUP_VLAN &&
            (rd16be(r->hdr + 14) & 0xfff) == f->vid) {
            allowed |= act_targets(core, r->act);
        }
    }
    for (i = 0; i < E810_SW_MAX_VSI; i++) {
        const uint8_t *pr = (const uint8_t *)&core->sw.vsi[i].props;

        if ((to & (1u << i)) &&
            (pr[E810_AQ_VSI_SW_FLAGS2_OFF] &
             E810_AQ_VSI_SW_FLAG_RX_VLAN_PRUNE_ENA) &&
            !(allowed & (1u << i))) {
            to &= ~(1u << i);
        }
    }
    return to;
}

/*
 * The default hash input (ice_vsi_set_rss_flow_fld()): IPv4/IPv6 source
 * and destination, plus TCP/UDP/SCTP ports of unfragmented packets, in
 * the Microsoft RSS order. Returns the input length, 0 if not IP.
 */
size_t e810_rss_input(const uint8_t *frame, size_t len, size_t l3,
                      uint16_t ethertype, uint8_t in[36])
{
    const uint8_t *ip = frame + l3;
    size_t rest = len > l3 ? len - l3 : 0, alen, l4;
    uint8_t proto;

    if (ethertype == 0x0800) {
        if (rest < 20 || (ip[0] >> 4) != 4 || (ip[0] & 15) < 5 ||
            rest < (size_t)(ip[0] & 15) * 4) {
            return 0;
        }
        alen = 4;
        proto = ip[9];
        l4 = (ip[0] & 15) * 4;
        memcpy(in, ip + 12, 8);
        if (rd16be(ip + 6) & 0x3fff) {
            return 8;           /* a fragment: addresses only */
        }
    } else if (ethertype == 0x86dd) {
        if (rest < 40 || (ip[0] >> 4) != 6) {
            return 0;
        }
        alen = 16;
        proto = ip[6];
        l4 = 40;
        memcpy(in, ip + 8, 32);
    } else {
        return 0;
    }
    if ((proto == 6 || proto == 17 || proto == 132) && rest >= l4 + 4) {
        memcpy(in + 2 * alen, ip + l4, 4);
        return 2 * alen + 4;
    }
    return 2 * alen;
}

/* The VSI-relative queue @vq of @v, as an absolute PF queue. */
static uint16_t vsi_queue(const E810Vsi *v, unsigned vq)
{
    const struct e810_aqc_vsi_props *p = &v->props;

    if (le16toh(p->mapping_flags) & E810_AQ_VSI_Q_MAP_NONCONTIG) {
        return le16toh(p->q_mapping[vq < 16 ? vq : 0]);
    }
    if (vq >= le16toh(p->q_mapping[1])) {
        vq = 0;
    }
    return le16toh(p->q_mapping[0]) + vq;
}

bool e810_switch_rx_dest(E810Core *core, const uint8_t *frame, size_t len,
                         uint16_t *rxq, uint32_t *hash, bool *hash_valid)
{
    uint16_t vsi;

    return e810_switch_rx_steer(core, frame, len, rxq, hash, hash_valid,
                                &vsi);
}

bool e810_switch_rx_steer(E810Core *core, const uint8_t *frame, size_t len,
                          uint16_t *rxq, uint32_t *hash, bool *hash_valid,
                          uint16_t *vsi)
{
    uint32_t to = 0;
    bool drop = false;
    uint8_t in[36];
    size_t n;
    const uint8_t *lut = NULL;
    unsigned i, lut_size = 0, tc, qoff, qpow, lt;
    const E810Vsi *v;
    RxFrame f;

    *rxq = 0;
    *hash = 0;
    *hash_valid = false;
    *vsi = E810_SW_VSI_POOL;
    if (len < 14) {
        core->sw.rx_dropped++;
        return false;
    }
    memset(&f, 0, sizeof(f));
    f.da = frame;
    f.ethertype = rd16be(frame + 12);
    f.l3 = 14;
    if ((f.ethertype == 0x8100 || f.ethertype == 0x88a8) && len >= 18) {
        f.tagged = true;
        f.vid = rd16be(frame + 14) & 0xfff;
        f.ethertype = rd16be(frame + 16);
        f.l3 = 18;
    }
    for (i = 0; i < E810_SW_MAX_RULES; i++) {
        const E810SwRule *r = &core->sw.rule[i];

        if (!r->used || r->recipe == E810_SW_LKUP_VLAN ||
            (r->tx && !addr_lookup(r->recipe)) || !rule_matches(r, &f)) {
            continue;
        }
        if (FIELD_GET(E810_SW_ACT_TYPE, r->act) != E810_SW_ACT_TYPE_FWD_VSI ||
            !(r->act & E810_SW_ACT_VALID)) {
            continue;
        }
        if (r->act & E810_SW_ACT_DROP) {
            drop = true;
        } else {
            to |= act_targets(core, r->act);
        }
    }
    to = drop ? 0 : vlan_prune(core, &f, to);
    if (!to) {
        core->sw.rx_dropped++;
        return false;
    }
    /* One destination: the first VSI (the PF VSI) the frame reached. */
    for (i = 0; !(to & (1u << i)); i++) {
    }
    v = &core->sw.vsi[i];
    *vsi = vsi_num_of(core, i);
    tc = le16toh(v->props.tc_mapping[0]);
    qoff = FIELD_GET(E810_AQ_VSI_TC_Q_OFFSET, tc);
    qpow = FIELD_GET(E810_AQ_VSI_TC_Q_NUM, tc);

    lt = FIELD_GET(E810_AQ_VSI_Q_OPT_RSS_LUT, v->props.q_opt_rss);
    if (lt == E810_AQ_VSI_Q_OPT_RSS_LUT_VSI && v->lut_set) {
        lut = v->lut;
        lut_size = E810_RSS_LUT_VSI_SIZE;
    } else if (lt == E810_AQ_VSI_Q_OPT_RSS_LUT_PF && core->sw.pf_lut_set) {
        lut = core->sw.pf_lut;
        lut_size = E810_RSS_LUT_PF_SIZE;
    } else if (lt == E810_AQ_VSI_Q_OPT_RSS_LUT_GBL) {
        unsigned g = FIELD_GET(E810_AQ_VSI_Q_OPT_RSS_GBL_LUT,
                               v->props.q_opt_rss);

        if (core->sw.glut_set[g]) {
            lut = core->sw.glut[g];
            lut_size = E810_RSS_LUT_GLOBAL_SIZE;
        }
    }
    n = e810_rss_input(frame, len, f.l3, f.ethertype, in);
    if (lut && v->key_set && n &&
        FIELD_GET(E810_AQ_VSI_Q_OPT_RSS_HASH, v->props.q_opt_rss) == 0) {
        *hash = e810_toeplitz(v->rss_key, in, n);
        *hash_valid = true;
        *rxq = vsi_queue(v, qoff + (lut[*hash & (lut_size - 1)] &
                                    ((1u << qpow) - 1)));
    } else {
        *rxq = vsi_queue(v, qoff);
    }
    return true;
}

const E810AqHandler e810_switch_aq_cmds[] = {
    { E810_AQC_GET_SW_CFG, cmd_get_sw_cfg },
    { E810_AQC_SET_PORT_PARAMS, cmd_set_port_params },
    { E810_AQC_ALLOC_RES, cmd_alloc_free_res },
    { E810_AQC_FREE_RES, cmd_alloc_free_res },
    { E810_AQC_ADD_VSI, cmd_vsi },
    { E810_AQC_UPDATE_VSI, cmd_vsi },
    { E810_AQC_GET_VSI_PARAMS, cmd_vsi },
    { E810_AQC_FREE_VSI, cmd_vsi },
    { E810_AQC_ADD_SW_RULES, cmd_sw_rules },
    { E810_AQC_UPDATE_SW_RULES, cmd_sw_rules },
    { E810_AQC_REMOVE_SW_RULES, cmd_sw_rules },
    { E810_AQC_SET_RSS_KEY, cmd_rss_key },
    { E810_AQC_SET_RSS_LUT, cmd_rss_lut },
    { E810_AQC_GET_RSS_KEY, cmd_rss_key },
    { E810_AQC_GET_RSS_LUT, cmd_rss_lut },
    { 0, NULL }
};
