/*
 * Emulated E810: the Tx scheduler tree (layers, TEIDs, LAN queue and RDMA qset leaves).
 *
 * What ice does with it (ice_sched.c, ice_common.c):
 *  - ice_sched_query_res_alloc(): 0x0412 gives the layer count and, per
 *    layer, the children a parent may have;
 *  - ice_sched_init_port(): 0x0400 gives the default branch root, TC,
 *    entry point, ... queue group; ice queries every node with 0x0404, takes
 *    the ENTRY_POINT depth as sw_entry_point_layer and deletes the default
 *    nodes from there down, bottom-up, with 0x040F;
 *  - ice_sched_cfg_vsi(): 0x0401 one node per layer from the entry point
 *    down to the queue group (each queried with 0x0404), 0x0409/0x040A to
 *    suspend/resume a VSI node;
 *  - ice_ena_vsi_txq() / ice_ena_vsi_rdma_qset(): 0x0C30 / 0x0C33 under a
 *    queue-group node, the leaf queried with 0x0404; ice_dis_vsi_txq() /
 *    ice_dis_vsi_rdma_qset(): 0x0C31 naming the leaf's parent;
 *  - ice_query_port_ets() (DCB): 0x040E gives the TC nodes' TEIDs;
 *  - after 0x02A4 or any reset ice rebuilds from 0x0400 again, so both
 *    bring the default tree back and drop every node and leaf the PF added.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <stddef.h>
#include <string.h>

#include "e810_core.h"

#define NO_NODE     0xFFFF
#define TEID_FIRST  1           /* 0 is never handed out */
#define TEID_LAST   0xFFFF

static const uint16_t layer_max_nodes[E810_SCHED_NUM_LAYERS] = {
    E810_SCHED_L0_NODES, E810_SCHED_L1_NODES, E810_SCHED_L2_NODES,
    E810_SCHED_L3_NODES, E810_SCHED_L4_NODES, E810_SCHED_L5_NODES,
    E810_SCHED_L6_NODES, E810_SCHED_L7_NODES, E810_SCHED_L8_NODES,
};

/* ---- the tree ------------------------------------------------------------ */

static E810SchedNode *find_node(E810Sched *s, uint32_t teid)
{
    unsigned i;

    for (i = 0; i < s->span; i++) {
        if (s->node[i].used && s->node[i].teid == teid) {
            return &s->node[i];
        }
    }
    return NULL;
}

const E810SchedNode *e810_sched_find(const E810Core *core, uint32_t teid)
{
    return find_node((E810Sched *)&core->sched, teid);
}

/* The node of @layer with @owner and @qid: a leaf, or (owner NONE) a TC. */
static E810SchedNode *find_qid(E810Sched *s, uint8_t layer, uint8_t owner,
                               uint16_t qid)
{
    unsigned i;

    for (i = 0; i < s->span; i++) {
        if (s->node[i].used && s->node[i].layer == layer &&
            s->node[i].owner == owner && s->node[i].qid == qid) {
            return &s->node[i];
        }
    }
    return NULL;
}

static E810SchedNode *find_leaf(E810Sched *s, uint8_t owner, uint16_t qid)
{
    return find_qid(s, E810_SCHED_LAYER_LEAF, owner, qid);
}

static E810SchedNode *find_tc(E810Sched *s, unsigned tc)
{
    return find_qid(s, E810_SCHED_LAYER_TC, E810_SCHED_OWNER_NONE, tc);
}

static uint16_t node_index(E810Sched *s, const E810SchedNode *n)
{
    return (uint16_t)(n - s->node);
}

bool e810_sched_rdma_qset_live(const E810Core *core, uint16_t qset_id)
{
    return find_leaf((E810Sched *)&core->sched, E810_SCHED_OWNER_RDMA,
                     qset_id) != NULL;
}

/* OK when @n more children fit under @parent (and in the layer below). */
static enum e810_aq_rc room_under(E810Sched *s, const E810SchedNode *parent,
                                  unsigned n)
{
    unsigned layer = parent->layer + 1u;

    if (parent->num_children + n > E810_SCHED_MAX_CHILDREN ||
        s->layer_nodes[layer] + n > layer_max_nodes[layer]) {
        return E810_AQ_RC_ENOSPC;
    }
    return E810_AQ_RC_OK;
}

static uint32_t new_teid(E810Sched *s)
{
    for (;;) {
        uint32_t teid = s->next_teid;

        s->next_teid = teid == TEID_LAST ? TEID_FIRST : teid + 1;
        if (!find_node(s, teid)) {
            return teid;
        }
    }
}

/*
 * Adds a child of @parent (NULL: the root); the caller checked room_under().
 * The node count is bounded by the table, so a free TEID always exists.
 */
static E810SchedNode *add_node(E810Sched *s, E810SchedNode *parent,
                               uint8_t type,
                               const struct e810_aqc_txsched_elem *info)
{
    unsigned i;
    E810SchedNode *n;

    for (i = 0; i < E810_SCHED_MAX_NODES && s->node[i].used; i++) {
        continue;
    }
    if (i == E810_SCHED_MAX_NODES) {
        return NULL;
    }
    n = &s->node[i];
    memset(n, 0, sizeof(*n));
    n->used = true;
    if (i >= s->span) {
        s->span = i + 1;
    }
    n->teid = new_teid(s);
    if (info) {
        n->info = *info;
    }
    n->info.elem_type = type;
    n->info.flags = 0;
    if (parent) {
        n->layer = parent->layer + 1;
        n->parent = node_index(s, parent);
        parent->num_children++;
    } else {
        n->parent = i;
    }
    s->layer_nodes[n->layer]++;
    s->num_nodes++;
    return n;
}

/* Removes a node without children; never the root. */
static void remove_node(E810Sched *s, E810SchedNode *n)
{
    s->node[n->parent].num_children--;
    s->layer_nodes[n->layer]--;
    s->num_nodes--;
    if (n->owner == E810_SCHED_OWNER_LAN) {
        s->lan_leaves--;
    } else if (n->owner == E810_SCHED_OWNER_RDMA) {
        s->rdma_leaves--;
    }
    n->used = false;
}

/* The first child of @n (lowest table slot), or NULL. */
static E810SchedNode *first_child(E810Sched *s, const E810SchedNode *n)
{
    uint16_t idx = node_index(s, n);
    unsigned i;

    for (i = 0; i < s->span; i++) {
        if (s->node[i].used && i != idx && s->node[i].parent == idx) {
            return &s->node[i];
        }
    }
    return NULL;
}

/*
 * The tree firmware builds at reset: one branch for TC 0 from the root port
 * down to the queue-group layer, the entry point right under the TC (the
 * layer ice starts adding at).
 */
static void build_default(E810Sched *s)
{
    struct e810_aqc_txsched_elem info;
    E810SchedNode *n;
    unsigned layer;

    memset(s->node, 0, s->span * sizeof(s->node[0]));
    s->span = 0;
    memset(s->layer_nodes, 0, sizeof(s->layer_nodes));
    s->num_nodes = 0;
    s->lan_leaves = 0;
    s->rdma_leaves = 0;
    s->next_teid = TEID_FIRST;
    /* No DCB configuration: every priority in TC 0, all of the port. */
    s->ets_tc_map = 1;
    s->ets_up2tc = 0;
    memset(s->ets_bw, 0, sizeof(s->ets_bw));
    s->ets_bw[0] = 100;

    memset(&info, 0, sizeof(info));
    info.valid_sections = E810_AQC_ELEM_VALID_GENERIC |
                          E810_AQC_ELEM_VALID_CIR | E810_AQC_ELEM_VALID_EIR;
    info.cir_bw_profile_idx = htole16(E810_SCHED_DFLT_RL_PROF_ID);
    info.cir_bw_alloc = htole16(E810_SCHED_DFLT_BW_WT);
    info.eir_bw_profile_idx = htole16(E810_SCHED_DFLT_RL_PROF_ID);
    info.eir_bw_alloc = htole16(E810_SCHED_DFLT_BW_WT);

    n = add_node(s, NULL, E810_AQC_ELEM_TYPE_ROOT_PORT, &info);
    n = add_node(s, n, E810_AQC_ELEM_TYPE_TC, &info);
    n = add_node(s, n, E810_AQC_ELEM_TYPE_ENTRY_POINT, &info);
    for (layer = E810_SCHED_LAYER_TC + 2; layer <= E810_SCHED_LAYER_QGRP;
         layer++) {
        n = add_node(s, n, E810_AQC_ELEM_TYPE_SE_GENERIC, &info);
    }
}

/* PRTDCB_TUP2TC shows the user priority map the firmware applied. */
static void sync_tup2tc(E810Core *core)
{
    *e810_regfile_ptr(&core->regs, E810_PRTDCB_TUP2TC) =
        core->sched.ets_up2tc;
}

void e810_sched_reset(E810Core *core, E810ResetSource level)
{
    uint64_t commands = level == E810_RST_POR ? 0 : core->sched.commands;

    build_default(&core->sched);
    core->sched.commands = commands;
    sync_tup2tc(core);
}

void e810_sched_clear_pf_config(E810Core *core)
{
    build_default(&core->sched);
    sync_tup2tc(core);
}

bool e810_sched_set_tcs(E810Core *core, uint8_t tc_map)
{
    E810Sched *s = &core->sched;
    bool done = true;
    unsigned tc;

    s->ets_tc_map = tc_map | 1;
    for (tc = 1; tc < E810_SCHED_MAX_TCS; tc++) {
        E810SchedNode *n = find_tc(s, tc);

        if ((tc_map & (1u << tc)) && !n) {
            /* Room: the root takes E810_SCHED_MAX_TCS children. */
            n = add_node(s, &s->node[0], E810_AQC_ELEM_TYPE_TC,
                         &find_tc(s, 0)->info);
            n->qid = tc;
        } else if (!(tc_map & (1u << tc)) && n) {
            if (n->num_children) {
                done = false;   /* software still hangs nodes under it */
            } else {
                remove_node(s, n);
            }
        }
    }
    return done;
}

bool e810_sched_set_ets(E810Core *core, uint8_t tc_map, uint32_t up2tc,
                        const uint8_t *tc_bw)
{
    E810Sched *s = &core->sched;
    unsigned tc;

    s->ets_up2tc = up2tc & 0xffffff;
    sync_tup2tc(core);
    for (tc = 0; tc < E810_SCHED_MAX_TCS; tc++) {
        s->ets_bw[tc] = (tc_map | 1) & (1u << tc) ? tc_bw[tc] : 0;
    }
    return e810_sched_set_tcs(core, tc_map);
}

static void put_elem(E810Sched *s, const E810SchedNode *n,
                     struct e810_aqc_txsched_elem_data *d)
{
    d->parent_teid = htole32(n->layer == E810_SCHED_LAYER_ROOT ?
                             E810_SCHED_INVAL_TEID :
                             s->node[n->parent].teid);
    d->node_teid = htole32(n->teid);
    d->data = n->info;
}

/* Parameters of the element commands; counts their completion. */
static struct e810_aqc_sched_elem_cmd *elem_cmd(E810Core *core,
                                                E810AqCmd *cmd)
{
    core->sched.commands++;
    return E810_AQ_PARAMS(cmd, struct e810_aqc_sched_elem_cmd);
}

/* ---- 0x0412, 0x0400, 0x040E: what firmware reports ----------------------- */

static enum e810_aq_rc cmd_query_res(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_query_txsched_res_resp r;
    enum e810_aq_rc rc = e810_aq_need_buf(cmd, sizeof(r));
    unsigned i;

    core->sched.commands++;
    if (rc != E810_AQ_RC_OK) {
        return rc;
    }
    memset(&r, 0, sizeof(r));
    r.sched_props.phys_levels = htole16(E810_SCHED_NUM_LAYERS);
    r.sched_props.logical_levels = htole16(E810_SCHED_NUM_LAYERS);
    r.sched_props.rdma_qsets = htole16(E810_SCHED_RDMA_QSETS);
    for (i = 0; i < E810_SCHED_NUM_LAYERS; i++) {
        struct e810_aqc_layer_props *l = &r.layer_props[i];

        l->logical_layer = i;
        l->max_device_nodes = htole16(layer_max_nodes[i]);
        l->max_pf_nodes = htole16(layer_max_nodes[i]);
        l->max_sibl_grp_sz = htole16(i == E810_SCHED_LAYER_ROOT ? 1 :
                                     E810_SCHED_MAX_CHILDREN);
    }
    memcpy(cmd->buf, &r, sizeof(r));
    cmd->resp_len = sizeof(r);
    return E810_AQ_RC_OK;
}

static enum e810_aq_rc cmd_get_dflt_topo(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_get_topo *p = E810_AQ_PARAMS(cmd, struct e810_aqc_get_topo);
    struct e810_aqc_get_topo_elem br;
    E810Sched *s = &core->sched;
    enum e810_aq_rc rc = e810_aq_need_buf(cmd, sizeof(br));
    const E810SchedNode *n = &s->node[0];
    unsigned k = 0;

    s->commands++;
    if (rc != E810_AQ_RC_OK) {
        return rc;
    }
    if (p->port_num != 0) {
        return E810_AQ_RC_EINVAL;
    }
    /* One branch (TC 0): the root and each first child down the tree. */
    memset(&br, 0, sizeof(br));
    while (n && k < E810_SCHED_NUM_LAYERS) {
        put_elem(s, n, &br.generic[k++]);
        n = first_child(s, n);
    }
    br.hdr.parent_teid = htole32(E810_SCHED_INVAL_TEID);
    br.hdr.num_elems = htole16(k);
    memcpy(cmd->buf, &br, sizeof(br));
    cmd->resp_len = sizeof(br);
    p->num_branches = 1;
    return E810_AQ_RC_OK;
}

static enum e810_aq_rc cmd_query_port_ets(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_query_port_ets *p =
        E810_AQ_PARAMS(cmd, struct e810_aqc_query_port_ets);
    struct e810_aqc_port_ets_elem e;
    E810Sched *s = &core->sched;
    enum e810_aq_rc rc = e810_aq_need_buf(cmd, sizeof(e));
    unsigned i, tc;

    s->commands++;
    if (rc != E810_AQ_RC_OK) {
        return rc;
    }
    if (le32toh(p->port_teid) != s->node[0].teid) {
        return E810_AQ_RC_EINVAL;
    }
    memset(&e, 0, sizeof(e));
    for (i = 0; i < E810_SCHED_MAX_TCS; i++) {
        e.tc_node_teid[i] = htole32(E810_SCHED_INVAL_TEID);
    }
    /*
     * The TCs the ETS configuration enables. A disabled TC whose node
     * software still uses stays in the tree unreported: ice marks it not
     * in use (ice_update_port_tc_tree_cfg()) and finds it again by TEID.
     */
    for (tc = 0; tc < E810_SCHED_MAX_TCS; tc++) {
        const E810SchedNode *n = find_tc(s, tc);

        if (n && (s->ets_tc_map & (1u << tc))) {
            e.tc_valid_bits |= 1u << tc;
            e.tc_node_teid[tc] = htole32(n->teid);
            e.tc_bw_share[tc] = s->ets_bw[tc];
        }
    }
    e.up2tc = htole32(s->ets_up2tc);
    memcpy(cmd->buf, &e, sizeof(e));
    cmd->resp_len = sizeof(e);
    return E810_AQ_RC_OK;
}

/* ---- 0x0401 add, 0x040F delete, 0x0408 move ------------------------------ */

/* A node software may hang nodes under: from the TC down to above QGRP. */
static bool accepts_se(const E810SchedNode *parent)
{
    return parent->layer >= E810_SCHED_LAYER_TC &&
           parent->layer < E810_SCHED_LAYER_QGRP;
}

/* Software may delete what it could have added (and the default nodes). */
static bool deletable(const E810SchedNode *n)
{
    return n->layer > E810_SCHED_LAYER_TC && n->layer < E810_SCHED_LAYER_LEAF;
}

/*
 * The next group of a 0x0401 / 0x040F buffer at *@off: its header, then
 * @n records of @rec bytes under @parent. Advances *@off past the header.
 */
static enum e810_aq_rc read_group(E810Sched *s, const E810AqCmd *cmd,
                                  size_t *off, size_t rec, unsigned *n,
                                  E810SchedNode **parent)
{
    struct e810_aqc_txsched_topo_grp_info_hdr hdr;

    if (*off + sizeof(hdr) > cmd->buf_len) {
        return E810_AQ_RC_EINVAL;
    }
    memcpy(&hdr, cmd->buf + *off, sizeof(hdr));
    *off += sizeof(hdr);
    *n = le16toh(hdr.num_elems);
    if (*n == 0 || *off + *n * rec > cmd->buf_len) {
        return E810_AQ_RC_EINVAL;
    }
    *parent = find_node(s, le32toh(hdr.parent_teid));
    return *parent ? E810_AQ_RC_OK : E810_AQ_RC_ENOENT;
}

/* Adds the @n records at @off under @parent, all checked first. */
static enum e810_aq_rc add_group(E810Sched *s, E810AqCmd *cmd, size_t off,
                                 unsigned n, E810SchedNode *parent)
{
    struct e810_aqc_txsched_elem_data el;
    unsigned i;

    if (!accepts_se(parent)) {
        return E810_AQ_RC_EINVAL;
    }
    for (i = 0; i < n; i++) {
        memcpy(&el, cmd->buf + off + i * sizeof(el), sizeof(el));
        if (le32toh(el.parent_teid) != parent->teid ||
            (el.data.elem_type != E810_AQC_ELEM_TYPE_SE_GENERIC &&
             el.data.elem_type != E810_AQC_ELEM_TYPE_SE_PADDED) ||
            !(el.data.valid_sections & E810_AQC_ELEM_VALID_GENERIC)) {
            return E810_AQ_RC_EINVAL;
        }
    }
    if (room_under(s, parent, n) != E810_AQ_RC_OK) {
        return E810_AQ_RC_ENOSPC;
    }
    for (i = 0; i < n; i++, off += sizeof(el)) {
        memcpy(&el, cmd->buf + off, sizeof(el));
        el.node_teid = htole32(add_node(s, parent, el.data.elem_type,
                                        &el.data)->teid);
        memcpy(cmd->buf + off, &el, sizeof(el));
    }
    return E810_AQ_RC_OK;
}

/* Deletes the @n TEIDs at @off, children of @parent without children. */
static enum e810_aq_rc delete_group(E810Sched *s, E810AqCmd *cmd, size_t off,
                                    unsigned n, E810SchedNode *parent)
{
    unsigned i;

    for (i = 0; i < n; i++, off += 4) {
        __le32 t;
        E810SchedNode *c;

        memcpy(&t, cmd->buf + off, sizeof(t));
        c = find_node(s, le32toh(t));
        if (!c) {
            return E810_AQ_RC_ENOENT;
        }
        if (c->parent != node_index(s, parent) || !deletable(c)) {
            return E810_AQ_RC_EINVAL;
        }
        if (c->num_children) {
            return E810_AQ_RC_EBUSY;
        }
        remove_node(s, c);
    }
    return E810_AQ_RC_OK;
}

/*
 * 0x0401 and 0x040F: num_elem_req groups, each done whole or not at all
 * and in order; num_elem_resp counts the groups done.
 */
static enum e810_aq_rc group_cmd(E810Core *core, E810AqCmd *cmd, bool add)
{
    struct e810_aqc_sched_elem_cmd *p = elem_cmd(core, cmd);
    E810Sched *s = &core->sched;
    size_t rec = add ? sizeof(struct e810_aqc_txsched_elem_data) : 4;
    unsigned g, ngrp = le16toh(p->num_elem_req);
    size_t off = 0;

    p->num_elem_resp = 0;
    if (ngrp == 0 || !cmd->has_buf) {
        return E810_AQ_RC_EINVAL;
    }
    for (g = 0; g < ngrp; g++) {
        E810SchedNode *parent;
        enum e810_aq_rc rc;
        unsigned n;

        rc = read_group(s, cmd, &off, rec, &n, &parent);
        if (rc == E810_AQ_RC_OK) {
            rc = add ? add_group(s, cmd, off, n, parent) :
                       delete_group(s, cmd, off, n, parent);
        }
        if (rc != E810_AQ_RC_OK) {
            return rc;
        }
        off += n * rec;
        p->num_elem_resp = htole16(g + 1);
    }
    if (add) {
        cmd->resp_len = off;
    }
    return E810_AQ_RC_OK;
}

static enum e810_aq_rc cmd_add_elems(E810Core *core, E810AqCmd *cmd)
{
    return group_cmd(core, cmd, true);
}

static enum e810_aq_rc cmd_delete_elems(E810Core *core, E810AqCmd *cmd)
{
    return group_cmd(core, cmd, false);
}

static enum e810_aq_rc cmd_move_elems(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_sched_elem_cmd *p = elem_cmd(core, cmd);
    struct e810_aqc_txsched_move_grp_info_hdr hdr;
    E810Sched *s = &core->sched;
    E810SchedNode *src, *dst;
    unsigned i, n;

    p->num_elem_resp = 0;
    if (le16toh(p->num_elem_req) != 1 ||
        e810_aq_need_buf(cmd, sizeof(hdr)) != E810_AQ_RC_OK) {
        return E810_AQ_RC_EINVAL;
    }
    memcpy(&hdr, cmd->buf, sizeof(hdr));
    n = le16toh(hdr.num_elems);
    if (n == 0 || sizeof(hdr) + n * 4u > cmd->buf_len ||
        hdr.mode != E810_AQC_MOVE_ELEM_MODE_SAME_PF) {
        return E810_AQ_RC_EINVAL;
    }
    src = find_node(s, le32toh(hdr.src_parent_teid));
    dst = find_node(s, le32toh(hdr.dest_parent_teid));
    if (!src || !dst) {
        return E810_AQ_RC_ENOENT;
    }
    if (src->layer != dst->layer || !accepts_se(dst)) {
        return E810_AQ_RC_EINVAL;
    }
    for (i = 0; i < n; i++) {
        __le32 t;
        E810SchedNode *c;

        memcpy(&t, cmd->buf + sizeof(hdr) + i * 4u, sizeof(t));
        c = find_node(s, le32toh(t));
        if (!c) {
            return E810_AQ_RC_ENOENT;
        }
        if (c->parent != node_index(s, src)) {
            return E810_AQ_RC_EINVAL;
        }
    }
    if (src != dst && dst->num_children + n > E810_SCHED_MAX_CHILDREN) {
        return E810_AQ_RC_ENOSPC;
    }
    for (i = 0; i < n; i++) {
        __le32 t;
        E810SchedNode *c;

        memcpy(&t, cmd->buf + sizeof(hdr) + i * 4u, sizeof(t));
        c = find_node(s, le32toh(t));
        src->num_children--;
        dst->num_children++;
        c->parent = node_index(s, dst);
    }
    p->num_elem_resp = htole16(1);
    return E810_AQ_RC_OK;
}

/* ---- 0x0404 get, 0x0403 update, 0x0409/0x040A suspend/resume ------------- */

/* 0x0403: the sections @d marks valid replace the node's. */
static void update_elem(E810SchedNode *node,
                        const struct e810_aqc_txsched_elem *d)
{
    uint8_t v = d->valid_sections;

    if (v & E810_AQC_ELEM_VALID_GENERIC) {
        node->info.generic = d->generic;
    }
    if (v & E810_AQC_ELEM_VALID_CIR) {
        node->info.cir_bw_profile_idx = d->cir_bw_profile_idx;
        node->info.cir_bw_alloc = d->cir_bw_alloc;
    }
    if (v & E810_AQC_ELEM_VALID_EIR) {
        node->info.eir_bw_profile_idx = d->eir_bw_profile_idx;
        node->info.eir_bw_alloc = d->eir_bw_alloc;
    }
    if (v & E810_AQC_ELEM_VALID_SHARED) {
        node->info.srl_id = d->srl_id;
    }
    node->info.valid_sections |= v & (E810_AQC_ELEM_VALID_GENERIC |
                                      E810_AQC_ELEM_VALID_CIR |
                                      E810_AQC_ELEM_VALID_EIR |
                                      E810_AQC_ELEM_VALID_SHARED);
}

enum elem_op { ELEM_GET, ELEM_UPDATE, ELEM_SUSPEND, ELEM_RESUME };

/*
 * Commands on a list of num_elem_req elements: 24-byte element records
 * (get, update) or TEIDs (suspend, resume). The first unknown TEID stops
 * the list; num_elem_resp counts the elements done.
 */
static enum e810_aq_rc elem_list_cmd(E810Core *core, E810AqCmd *cmd,
                                     enum elem_op op)
{
    struct e810_aqc_sched_elem_cmd *p = elem_cmd(core, cmd);
    E810Sched *s = &core->sched;
    size_t rec = op <= ELEM_UPDATE ?
                 sizeof(struct e810_aqc_txsched_elem_data) : 4;
    unsigned i, n = le16toh(p->num_elem_req);
    enum e810_aq_rc rc = n ? e810_aq_need_buf(cmd, n * rec) :
                             E810_AQ_RC_EINVAL;

    p->num_elem_resp = 0;
    for (i = 0; i < n && rc == E810_AQ_RC_OK; i++) {
        struct e810_aqc_txsched_elem_data d;
        E810SchedNode *node;
        __le32 t;

        memcpy(&d, cmd->buf + i * rec, rec);
        memcpy(&t, cmd->buf + i * rec +
               (rec == 4 ? 0 : offsetof(struct e810_aqc_txsched_elem_data,
                                        node_teid)), sizeof(t));
        node = find_node(s, le32toh(t));
        if (!node) {
            return E810_AQ_RC_ENOENT;
        }
        switch (op) {
        case ELEM_GET:
            put_elem(s, node, &d);
            memcpy(cmd->buf + i * rec, &d, rec);
            cmd->resp_len = (i + 1) * rec;
            break;
        case ELEM_UPDATE:
            update_elem(node, &d.data);
            break;
        default:
            if (node->layer == E810_SCHED_LAYER_ROOT) {
                return E810_AQ_RC_EINVAL;
            }
            node->info.flags &= ~E810_AQC_ELEM_FLAG_SUSPEND;
            if (op == ELEM_SUSPEND) {
                node->info.flags |= E810_AQC_ELEM_FLAG_SUSPEND;
            }
            break;
        }
        p->num_elem_resp = htole16(i + 1);
    }
    return rc;
}

static enum e810_aq_rc cmd_get_elems(E810Core *core, E810AqCmd *cmd)
{
    return elem_list_cmd(core, cmd, ELEM_GET);
}

static enum e810_aq_rc cmd_cfg_elems(E810Core *core, E810AqCmd *cmd)
{
    return elem_list_cmd(core, cmd, ELEM_UPDATE);
}

static enum e810_aq_rc cmd_suspend_elems(E810Core *core, E810AqCmd *cmd)
{
    return elem_list_cmd(core, cmd, ELEM_SUSPEND);
}

static enum e810_aq_rc cmd_resume_elems(E810Core *core, E810AqCmd *cmd)
{
    return elem_list_cmd(core, cmd, ELEM_RESUME);
}

/* ---- 0x0C30 / 0x0C33 leaves, 0x0C31 their removal ------------------------ */

/*
 * The queue-group node @teid, with room for @n more leaves; what firmware
 * checks before it adds queues or qsets under it.
 */
static enum e810_aq_rc leaf_parent(E810Sched *s, uint32_t teid, unsigned n,
                                   E810SchedNode **parent)
{
    *parent = find_node(s, teid);
    if (!*parent) {
        return E810_AQ_RC_ENOENT;
    }
    if ((*parent)->layer != E810_SCHED_LAYER_QGRP) {
        return E810_AQ_RC_EINVAL;
    }
    return room_under(s, *parent, n);
}

static E810SchedNode *add_leaf(E810Sched *s, E810SchedNode *parent,
                               uint8_t owner, uint16_t qid,
                               const struct e810_aqc_txsched_elem *info)
{
    E810SchedNode *n = add_node(s, parent, E810_AQC_ELEM_TYPE_LEAF, info);

    n->owner = owner;
    n->qid = qid;
    if (owner == E810_SCHED_OWNER_LAN) {
        s->lan_leaves++;
    } else {
        s->rdma_leaves++;
    }
    return n;
}

static enum e810_aq_rc cmd_add_txqs(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_add_txqs *p = E810_AQ_PARAMS(cmd, struct e810_aqc_add_txqs);
    E810Sched *s = &core->sched;
    size_t off = 0;
    unsigned g;

    s->commands++;
    if (p->num_qgrps == 0 || !cmd->has_buf) {
        return E810_AQ_RC_EINVAL;
    }
    for (g = 0; g < p->num_qgrps; g++) {
        struct e810_aqc_add_tx_qgrp grp;
        E810SchedNode *parent;
        enum e810_aq_rc rc;
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
        rc = leaf_parent(s, le32toh(grp.parent_teid), grp.num_txqs, &parent);
        if (rc != E810_AQ_RC_OK) {
            return rc;
        }
        for (q = 0; q < grp.num_txqs; q++) {
            struct e810_aqc_add_txqs_perq pq;
            uint16_t id;
            E810SchedNode *leaf;

            memcpy(&pq, cmd->buf + off, sizeof(pq));
            id = le16toh(pq.txq_id);
            /* ice_ena_vsi_txq(): without the generic section, EINVAL. */
            if (!(pq.info.valid_sections & E810_AQC_ELEM_VALID_GENERIC)) {
                return E810_AQ_RC_EINVAL;
            }
            if (find_leaf(s, E810_SCHED_OWNER_LAN, id)) {
                return E810_AQ_RC_EEXIST;
            }
            /* The LAN side validates the context; refused, no leaf. */
            leaf = add_leaf(s, parent, E810_SCHED_OWNER_LAN, id, &pq.info);
            rc = e810_lan_add_txq(core, id, pq.txq_ctx, leaf->teid);
            if (rc != E810_AQ_RC_OK) {
                remove_node(s, leaf);
                return rc;
            }
            pq.q_teid = htole32(leaf->teid);
            memcpy(cmd->buf + off, &pq, sizeof(pq));
            off += sizeof(pq);
        }
    }
    cmd->resp_len = off;
    return E810_AQ_RC_OK;
}

/* Removes the leaf @id names, which must hang under @parent_teid. */
static enum e810_aq_rc remove_leaf(E810Core *core, uint32_t parent_teid,
                                   uint16_t id)
{
    E810Sched *s = &core->sched;
    bool qset = id & E810_AQC_Q_DIS_BUF_ELEM_TYPE_RDMA_QSET;
    uint16_t qid = id & ~E810_AQC_Q_DIS_BUF_ELEM_TYPE_RDMA_QSET;
    E810SchedNode *leaf = find_leaf(s, qset ? E810_SCHED_OWNER_RDMA :
                                              E810_SCHED_OWNER_LAN, qid);
    enum e810_aq_rc rc;

    if (!leaf) {
        return E810_AQ_RC_ENOENT;
    }
    if (s->node[leaf->parent].teid != parent_teid) {
        return E810_AQ_RC_EINVAL;
    }
    if (!qset) {
        rc = e810_lan_dis_txq(core, qid);
        if (rc != E810_AQ_RC_OK) {
            return rc;
        }
    }
    remove_node(s, leaf);
    return E810_AQ_RC_OK;
}

static enum e810_aq_rc cmd_dis_txqs(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_dis_txqs *p = E810_AQ_PARAMS(cmd, struct e810_aqc_dis_txqs);
    size_t off = 0;
    unsigned e;

    core->sched.commands++;
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
            rc = remove_leaf(core, le32toh(it.parent_teid), id);
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
    E810Sched *s = &core->sched;
    size_t off = 0;
    unsigned g;

    s->commands++;
    if (p->num_qset_grps == 0 || !cmd->has_buf) {
        return E810_AQ_RC_EINVAL;
    }
    for (g = 0; g < p->num_qset_grps; g++) {
        struct e810_aqc_add_rdma_qset_grp grp;
        E810SchedNode *parent;
        enum e810_aq_rc rc;
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
        rc = leaf_parent(s, le32toh(grp.parent_teid), n, &parent);
        if (rc != E810_AQ_RC_OK) {
            return rc;
        }
        if (s->rdma_leaves + n > E810_SCHED_RDMA_QSETS) {
            return E810_AQ_RC_ENOSPC;
        }
        for (q = 0; q < n; q++) {
            struct e810_aqc_add_rdma_qset_perq pq;
            uint16_t id;
            E810SchedNode *leaf;

            memcpy(&pq, cmd->buf + off, sizeof(pq));
            id = le16toh(pq.tx_qset_id);
            if (!(pq.info.valid_sections & E810_AQC_ELEM_VALID_GENERIC) ||
                (id & E810_AQC_Q_DIS_BUF_ELEM_TYPE_RDMA_QSET)) {
                return E810_AQ_RC_EINVAL;
            }
            if (find_leaf(s, E810_SCHED_OWNER_RDMA, id)) {
                return E810_AQ_RC_EEXIST;
            }
            leaf = add_leaf(s, parent, E810_SCHED_OWNER_RDMA, id, &pq.info);
            pq.qset_teid = htole32(leaf->teid);
            memcpy(cmd->buf + off, &pq, sizeof(pq));
            off += sizeof(pq);
        }
    }
    cmd->resp_len = off;
    return E810_AQ_RC_OK;
}

const E810AqHandler e810_sched_aq_cmds[] = {
    { E810_AQC_GET_DFLT_TOPO, cmd_get_dflt_topo },
    { E810_AQC_ADD_SCHED_ELEMS, cmd_add_elems },
    { E810_AQC_CFG_SCHED_ELEMS, cmd_cfg_elems },
    { E810_AQC_GET_SCHED_ELEMS, cmd_get_elems },
    { E810_AQC_MOVE_SCHED_ELEMS, cmd_move_elems },
    { E810_AQC_SUSPEND_SCHED_ELEMS, cmd_suspend_elems },
    { E810_AQC_RESUME_SCHED_ELEMS, cmd_resume_elems },
    { E810_AQC_QUERY_PORT_ETS, cmd_query_port_ets },
    { E810_AQC_DELETE_SCHED_ELEMS, cmd_delete_elems },
    { E810_AQC_QUERY_SCHED_RES, cmd_query_res },
    { E810_AQC_ADD_TXQS, cmd_add_txqs },
    { E810_AQC_DIS_TXQS, cmd_dis_txqs },
    { E810_AQC_ADD_RDMA_QSET, cmd_add_rdma_qset },
    { 0, NULL }
};
