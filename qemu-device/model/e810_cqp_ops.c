/*
 * Emulated E810: the CQP opcode table, and the small management ops that
 * keep no object state beyond a few tables (features, ARP cache, local MAC
 * table, push pages, statistics instances, user-priority map,
 * work-scheduler nodes). APBVT and quad hash: e810_iwarp.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <string.h>

#include "e810_core.h"

/* ---- QUERY_RDMA_FEATURES, NOP ------------------------------------------ */

static void op_nop(E810Core *core, const E810CqpWqe *w, E810CqpResult *res)
{
}

/*
 * Two entries: FW_INFO (with the entry count the driver requires to be at
 * least 2) and HW_VERSION_INFO. A short buffer gets what fits.
 */
static void op_query_rdma_features(E810Core *core, const E810CqpWqe *w,
                                   E810CqpResult *res)
{
    uint64_t pa = e810_wqe(w, E810_CQPSQ_QRF_BUF_OFF);
    uint32_t len = FIELD_GET(E810_CQPSQ_QRF_BUF_LEN, e810_wqe_hdr(w));
    __le64 feat[2];
    uint32_t n = len / 8 < 2 ? len / 8 : 2;

    if (n == 0) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_SIZE, "buffer of %u bytes",
                     len);
        return;
    }
    feat[0] = htole64(FIELD_PREP(E810_FEATURE_TYPE, E810_FEATURE_FW_INFO) |
                      FIELD_PREP(E810_FEATURE_CNT, 2) |
                      FIELD_PREP(E810_FW_VER_MAJOR, E810_PE_FW_MAJOR) |
                      FIELD_PREP(E810_FW_VER_MINOR, E810_PE_FW_MINOR));
    feat[1] = htole64(FIELD_PREP(E810_FEATURE_TYPE,
                                 E810_FEATURE_HW_VERSION_INFO) |
                      FIELD_PREP(E810_FEATURE_HW_MAJOR_VERSION,
                                 E810_PE_HW_MAJOR));
    if ((pa & 7) || !e810_core_dma_write(core, pa, feat, n * 8)) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_ADDR, "buffer 0x%llx",
                     (unsigned long long)pa);
    }
}

/* ---- ARP cache, local MAC table ------------------------------------------ */

static void op_manage_arp(E810Core *core, const E810CqpWqe *w,
                          E810CqpResult *res)
{
    uint64_t hdr = e810_wqe_hdr(w);
    uint32_t idx = FIELD_GET(E810_CQPSQ_MAT_ARPENTRYIDX, hdr);
    E810Arp *arp;

    if (idx >= e810_hmc_count(core, E810_HMC_ARP)) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_INDEX, "ARP entry %u", idx);
        return;
    }
    arp = &core->rdma.arp[idx];
    if (!(hdr & E810_CQPSQ_MAT_ENTRYVALID)) {
        memset(arp, 0, sizeof(*arp));   /* delete */
        return;
    }
    e810_mac_from_u64(arp->mac, FIELD_GET(E810_CQPSQ_MAT_MACADDR,
                                     e810_wqe(w, E810_CQPSQ_MAT_MAC_OFF)));
    arp->permanent = hdr & E810_CQPSQ_MAT_PERMANENT;
    arp->valid = true;
}

static void op_alloc_loc_mac(E810Core *core, const E810CqpWqe *w,
                             E810CqpResult *res)
{
    E810Rdma *r = &core->rdma;
    unsigned i;

    for (i = 0; i < E810_LOC_MAC_TABLE_SIZE; i++) {
        if (!(r->loc_mac_used & (1ull << i))) {
            r->loc_mac_used |= 1ull << i;
            memset(r->loc_mac[i], 0, 6);
            res->ret_val = i;
            return;
        }
    }
    e810_cqp_err(core, res, E810_CQP_MIN_BAD_STATE, "local MAC table full");
}

static void op_manage_loc_mac(E810Core *core, const E810CqpWqe *w,
                              E810CqpResult *res)
{
    E810Rdma *r = &core->rdma;
    uint64_t hdr = e810_wqe_hdr(w);
    unsigned idx = FIELD_GET(E810_CQPSQ_MLM_TABLEIDX, hdr);
    bool used = r->loc_mac_used & (1ull << idx);

    if (hdr & E810_CQPSQ_MLM_FREEENTRY) {
        if (!used && !(hdr & E810_CQPSQ_MLM_IGNORE_REF_CNT)) {
            e810_cqp_err(core, res, E810_CQP_MIN_BAD_STATE,
                         "local MAC entry %u is free", idx);
            return;
        }
        r->loc_mac_used &= ~(1ull << idx);
        return;
    }
    e810_mac_from_u64(r->loc_mac[idx], e810_wqe(w, E810_CQPSQ_MLM_MAC_OFF));
    r->loc_mac_used |= 1ull << idx;
}

/* ---- push pages, statistics instances, UP map, WS nodes ------------------ */

/* Lowest clear bit of @map (@n bits) set and returned, or -1. */
static int pool_alloc(uint64_t *map, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        if (!e810_bit_test(map, i)) {
            e810_bit_assign(map, i, true);
            return i;
        }
    }
    return -1;
}

static void op_manage_push_pages(E810Core *core, const E810CqpWqe *w,
                                 E810CqpResult *res)
{
    uint64_t hdr = e810_wqe_hdr(w);
    uint32_t idx = FIELD_GET(E810_CQPSQ_MPP_PPIDX, hdr);
    uint64_t *map = core->rdma.push_pages;
    int got;

    if (hdr & E810_CQPSQ_MPP_FREE_PAGE) {
        if (!e810_bit_test(map, idx)) {
            e810_cqp_err(core, res, E810_CQP_MIN_BAD_STATE, "push page %u "
                         "not allocated", idx);
            return;
        }
        e810_bit_assign(map, idx, false);
        return;
    }
    got = pool_alloc(map, E810_PE_MAX_PUSH_PAGES);
    if (got < 0) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_STATE, "no push page left");
        return;
    }
    res->ret_val = got;
}

static bool fcn_ok(E810Core *core, const E810CqpWqe *w, E810CqpResult *res)
{
    uint64_t hdr = e810_wqe_hdr(w);
    unsigned fn = FIELD_GET(E810_CQPSQ_STATS_HMC_FCN_INDEX,
                            e810_wqe(w, E810_CQPSQ_STATS_FCN_OFF));

    if ((hdr & E810_CQPSQ_STATS_USE_HMC_FCN_INDEX) && fn != core->pf_id) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_FN, "HMC function %u", fn);
        return false;
    }
    return true;
}

static void op_manage_stats(E810Core *core, const E810CqpWqe *w,
                            E810CqpResult *res)
{
    uint64_t hdr = e810_wqe_hdr(w);
    unsigned idx = FIELD_GET(E810_CQPSQ_STATS_INST_INDEX, hdr);
    uint64_t *map = core->rdma.stats_inst;
    int got;

    if (!fcn_ok(core, w, res)) {
        return;
    }
    if (!(hdr & E810_CQPSQ_STATS_ALLOC_INST)) {
        if (!e810_bit_test(map, idx)) {
            e810_cqp_err(core, res, E810_CQP_MIN_BAD_STATE, "statistics "
                         "instance %u not allocated", idx);
            return;
        }
        e810_bit_assign(map, idx, false);
        e810_rdma_stat_clear(core, idx);
        return;
    }
    got = pool_alloc(map, E810_MAX_STATS_INST);
    if (got < 0) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_STATE, "no statistics "
                     "instance left");
        return;
    }
    e810_rdma_stat_clear(core, got);    /* a new instance starts at zero */
    res->ret_val = got;
}

/*
 * The counters of one instance (e810_rdma_stats.c): an allocated one with
 * USE_INST, else the function's own (irdma_sc_gather_stats() asks for
 * that one unless the VSI allocated an instance).
 */
static void op_gather_stats(E810Core *core, const E810CqpWqe *w,
                            E810CqpResult *res)
{
    uint8_t buf[E810_GATHER_STATS_BUF_SIZE];
    uint64_t hdr = e810_wqe_hdr(w);
    uint64_t pa = e810_wqe(w, E810_CQPSQ_STATS_BUF_OFF);
    unsigned inst = E810_RSTAT_FN_INST;

    if (!fcn_ok(core, w, res)) {
        return;
    }
    if (hdr & E810_CQPSQ_STATS_USE_INST) {
        inst = FIELD_GET(E810_CQPSQ_STATS_INST_INDEX, hdr);
        if (!e810_bit_test(core->rdma.stats_inst, inst)) {
            e810_cqp_err(core, res, E810_CQP_MIN_BAD_STATE, "statistics "
                         "instance %u not allocated", inst);
            return;
        }
    }
    e810_rdma_stat_fill(core, inst, buf);
    if ((pa & 7) || !e810_core_dma_write(core, pa, buf, sizeof(buf))) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_ADDR, "statistics buffer "
                     "0x%llx", (unsigned long long)pa);
    }
}

static void op_up_map(E810Core *core, const E810CqpWqe *w,
                      E810CqpResult *res)
{
    uint64_t map = e810_wqe(w, E810_CQPSQ_UP_MAP_OFF);
    unsigned i;

    for (i = 0; i < 8; i++) {
        core->rdma.up_map[i] = (map >> (8 * i)) & 7;
    }
}

/*
 * Work-scheduler tree (irdma_sc_manage_ws_node(), irdma_ws_add()): a root
 * names itself as parent, every other node an existing non-leaf; a leaf
 * added gets its QS handle back (op_ret_val; the model uses the node id);
 * MODIFY changes enable, weight, priority type and TC in place; a node
 * with children cannot be deleted.
 */
static void op_work_sched_node(E810Core *core, const E810CqpWqe *w,
                               E810CqpResult *res)
{
    uint64_t hdr = e810_wqe_hdr(w);
    uint64_t q4 = e810_wqe(w, E810_CQPSQ_WS_VSI_OFF);
    unsigned id = FIELD_GET(E810_CQPSQ_WS_NODEID, hdr);
    unsigned parent = FIELD_GET(E810_CQPSQ_WS_PARENTID, hdr);
    unsigned op = FIELD_GET(E810_CQPSQ_WS_NODEOP, hdr);
    E810WsNode *ws = core->rdma.ws, *n = &ws[id];

    switch (op) {
    case E810_WS_ADD_NODE:
        if (n->used) {
            e810_cqp_err(core, res, E810_CQP_MIN_BAD_STATE, "WS node %u "
                         "exists", id);
            return;
        }
        if (parent != id && (!ws[parent].used || ws[parent].leaf)) {
            e810_cqp_err(core, res, E810_CQP_MIN_BAD_PARAM, "WS node %u: "
                         "parent %u is not a node that takes children", id,
                         parent);
            return;
        }
        memset(n, 0, sizeof(*n));
        n->used = true;
        n->leaf = hdr & E810_CQPSQ_WS_NODETYPE;
        n->parent = parent;
        n->vsi = FIELD_GET(E810_CQPSQ_WS_VSI, q4);
        if (parent != id) {
            ws[parent].children++;
        }
        if (n->leaf) {
            res->ret_val = id;
        }
        break;
    case E810_WS_MODIFY_NODE:
    case E810_WS_DEL_NODE:
        if (!n->used) {
            e810_cqp_err(core, res, E810_CQP_MIN_BAD_STATE, "WS node %u does "
                         "not exist", id);
            return;
        }
        if (op == E810_WS_DEL_NODE) {
            if (n->children) {
                e810_cqp_err(core, res, E810_CQP_MIN_BAD_STATE, "WS node %u "
                             "still has %u children", id, n->children);
                return;
            }
            if (n->parent != id) {
                ws[n->parent].children--;
            }
            memset(n, 0, sizeof(*n));
            return;
        }
        break;
    default:
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_PARAM, "WS node op %u", op);
        return;
    }
    n->enabled = hdr & E810_CQPSQ_WS_ENABLENODE;
    n->tc = FIELD_GET(E810_CQPSQ_WS_TC, hdr);
    n->prio_type = FIELD_GET(E810_CQPSQ_WS_PRIOTYPE, hdr);
    n->weight = FIELD_GET(E810_CQPSQ_WS_WEIGHT, q4);
}

/* ---- the opcode table -------------------------------------------------- */

/* NULL: not supported by this device model (names: e810_cqp_op_str()). */
#define OP(code, fn) [E810_CQP_OP_##code] = fn

static E810CqpOpFn *const cqp_ops[E810_CQP_OP_MAX + 1] = {
    OP(CREATE_QP, e810_op_create_qp),
    OP(MODIFY_QP, e810_op_modify_qp),
    OP(DESTROY_QP, e810_op_destroy_qp),
    OP(CREATE_CQ, e810_op_create_cq),
    OP(MODIFY_CQ, e810_op_modify_cq),
    OP(DESTROY_CQ, e810_op_destroy_cq),
    OP(CREATE_SRQ, NULL),                       /* GEN_3 */
    OP(MODIFY_SRQ, NULL),
    OP(DESTROY_SRQ, NULL),
    OP(ALLOC_STAG, e810_op_alloc_stag),
    OP(REG_MR, e810_op_reg_mr),
    OP(QUERY_STAG, NULL),
    OP(REG_SMR, NULL),
    OP(DEALLOC_STAG, e810_op_dealloc_stag),
    OP(MANAGE_LOC_MAC_TABLE, op_manage_loc_mac),
    OP(MANAGE_ARP, op_manage_arp),
    OP(MANAGE_VF_PBLE_BP, NULL),                /* VFs are not modelled */
    OP(MANAGE_PUSH_PAGES, op_manage_push_pages),
    OP(QUERY_RDMA_FEATURES, op_query_rdma_features),
    OP(UPLOAD_CONTEXT, e810_op_upload_context),
    OP(ALLOCATE_LOC_MAC_TABLE_ENTRY, op_alloc_loc_mac),
    OP(MANAGE_HMC_PM_FUNC_TABLE, NULL),         /* VFs are not modelled */
    OP(CREATE_CEQ, e810_op_create_ceq),
    OP(DESTROY_CEQ, e810_op_destroy_ceq),
    OP(CREATE_AEQ, e810_op_create_aeq),
    OP(DESTROY_AEQ, e810_op_destroy_aeq),
    OP(CREATE_ADDR_HANDLE, e810_op_manage_ah),
    OP(MODIFY_ADDR_HANDLE, e810_op_manage_ah),
    OP(DESTROY_ADDR_HANDLE, e810_op_manage_ah),
    OP(UPDATE_PE_SDS, e810_op_update_pe_sds),
    OP(QUERY_FPM_VAL, e810_op_query_fpm_val),
    OP(COMMIT_FPM_VAL, e810_op_commit_fpm_val),
    OP(FLUSH_WQES, e810_op_flush_wqes),
    OP(MANAGE_APBVT, e810_op_manage_apbvt),
    OP(NOP, op_nop),
    OP(MANAGE_QUAD_HASH_TABLE_ENTRY, e810_op_manage_qhash),
    OP(CREATE_MCAST_GRP, e810_op_manage_mcg),
    OP(MODIFY_MCAST_GRP, e810_op_manage_mcg),
    OP(DESTROY_MCAST_GRP, e810_op_manage_mcg),
    OP(SUSPEND_QP, e810_op_suspend_qp),
    OP(RESUME_QP, e810_op_resume_qp),
    OP(SHMC_PAGES_ALLOCATED, e810_op_shmc_pages_allocated),
    OP(WORK_SCHED_NODE, op_work_sched_node),
    OP(MANAGE_STATS, op_manage_stats),
    OP(GATHER_STATS, op_gather_stats),
    OP(UP_MAP, op_up_map),
};

/* The E810_GEN_OP_* an opcode needs; 0: every generation has it. */
static uint32_t op_gen_feature(unsigned op)
{
    switch (op) {
    case E810_CQP_OP_QUERY_RDMA_FEATURES:
        return E810_GEN_OP_RDMA_FEATURES;
    case E810_CQP_OP_MANAGE_STATS:
    case E810_CQP_OP_GATHER_STATS:
        return E810_GEN_OP_STATS;
    case E810_CQP_OP_WORK_SCHED_NODE:
    case E810_CQP_OP_UP_MAP:
        return E810_GEN_OP_WS;
    case E810_CQP_OP_MANAGE_PUSH_PAGES:
        return E810_GEN_OP_PUSH;
    case E810_CQP_OP_CREATE_ADDR_HANDLE:
    case E810_CQP_OP_MODIFY_ADDR_HANDLE:
    case E810_CQP_OP_DESTROY_ADDR_HANDLE:
    case E810_CQP_OP_CREATE_MCAST_GRP:
    case E810_CQP_OP_MODIFY_MCAST_GRP:
    case E810_CQP_OP_DESTROY_MCAST_GRP:
        return E810_GEN_OP_AH;
    case E810_CQP_OP_ALLOCATE_LOC_MAC_TABLE_ENTRY:
    case E810_CQP_OP_MANAGE_LOC_MAC_TABLE:
        return E810_GEN_OP_LOC_MAC;
    }
    return 0;
}

const char *e810_cqp_op_name(unsigned opcode)
{
    const char *name = e810_cqp_op_str(opcode);

    return name ? name : "(unknown)";
}

void e810_cqp_execute(E810Core *core, const E810CqpWqe *w, E810CqpResult *res)
{
    unsigned op = FIELD_GET(E810_CQPSQ_OPCODE, e810_wqe_hdr(w));
    E810CqpOpFn *fn = cqp_ops[op];
    uint32_t need = op_gen_feature(op);

    /* Any op may have changed PBLEs or the MRs using them. */
    e810_pble_cache_drop(core);
    if (fn && need && !(core->gen->ops & need)) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_OPCODE, "opcode 0x%02x %s "
                     "does not exist on %s", op, e810_cqp_op_name(op),
                     core->gen->name);
        return;
    }
    if (!fn) {
        e810_core_log(core, E810_LOG_UNIMP, "CQP opcode 0x%02x %s is not "
                      "modelled", op, e810_cqp_op_name(op));
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_OPCODE, "opcode 0x%02x",
                     op);
        return;
    }
    fn(core, w, res);
}
