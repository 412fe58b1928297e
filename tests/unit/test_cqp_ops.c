/*
 * Device model: the management CQP ops the driver issues around bring-up
 * and for verbs objects: RDMA features, ARP cache, local MAC table, APBVT,
 * quad hash, push pages, statistics instances, gather stats, UP map,
 * work-scheduler nodes, STags (MR/MW), address handles, multicast groups,
 * and the VF-only ops this PF model refuses.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "e810_core.h"
#include "rdma_driver.h"

static int setup(void **state)
{
    RdmaDriver *d = calloc(1, sizeof(*d));
    Harness *h = harness_new(0);

    if (!d || !h) {
        return -1;
    }
    rd_bringup(h, d);
    *state = d;
    return 0;
}

static int teardown(void **state)
{
    RdmaDriver *d = *state;

    harness_free(d->h);
    free(d);
    return 0;
}

static void test_rdma_features_buffer(void **state)
{
    RdmaDriver *d = *state;
    uint64_t buf = mem_alloc(d->h, 64), q[8] = { 0 };

    memset(mem_ptr(d->h, buf), 0xee, 64);
    q[E810_QW(E810_CQPSQ_QRF_BUF_OFF)] = buf;
    /* Room for one entry: FW_INFO only, the rest untouched. */
    assert_false(rd_exec(d, E810_CQP_OP_QUERY_RDMA_FEATURES,
                         FIELD_PREP(E810_CQPSQ_QRF_BUF_LEN, 8), q).error);
    assert_int_equal(FIELD_GET(E810_FEATURE_CNT, rd_mem64(d, buf)), 2);
    assert_true(rd_mem64(d, buf + 8) == 0xeeeeeeeeeeeeeeeeull);
    assert_int_equal(rd_exec(d, E810_CQP_OP_QUERY_RDMA_FEATURES,
                             FIELD_PREP(E810_CQPSQ_QRF_BUF_LEN, 4), q).minor,
                     E810_CQP_MIN_BAD_SIZE);
    q[E810_QW(E810_CQPSQ_QRF_BUF_OFF)] = buf + 4;
    assert_int_equal(rd_exec(d, E810_CQP_OP_QUERY_RDMA_FEATURES,
                             FIELD_PREP(E810_CQPSQ_QRF_BUF_LEN, 224), q).minor,
                     E810_CQP_MIN_BAD_ADDR);
}

static void test_arp_cache(void **state)
{
    RdmaDriver *d = *state;
    uint64_t q[8] = { 0 };
    E810Arp *arp;

    q[E810_QW(E810_CQPSQ_MAT_MAC_OFF)] = 0x525400e81001ull;
    assert_false(rd_exec(d, E810_CQP_OP_MANAGE_ARP,
                         FIELD_PREP(E810_CQPSQ_MAT_ARPENTRYIDX, 5) |
                         E810_CQPSQ_MAT_ENTRYVALID | E810_CQPSQ_MAT_PERMANENT,
                         q).error);
    arp = &d->h->core.rdma.arp[5];
    assert_true(arp->valid && arp->permanent);
    assert_memory_equal(arp->mac, ((uint8_t[]){ 0x52, 0x54, 0x00, 0xe8, 0x10,
                                                0x01 }), 6);
    assert_false(rd_exec(d, E810_CQP_OP_MANAGE_ARP,
                         FIELD_PREP(E810_CQPSQ_MAT_ARPENTRYIDX, 5),
                         NULL).error);
    assert_false(arp->valid);
    assert_int_equal(rd_exec(d, E810_CQP_OP_MANAGE_ARP,
                             FIELD_PREP(E810_CQPSQ_MAT_ARPENTRYIDX, 2048) |
                             E810_CQPSQ_MAT_ENTRYVALID, q).minor,
                     E810_CQP_MIN_BAD_INDEX);
}

static void test_local_mac_table(void **state)
{
    RdmaDriver *d = *state;
    uint64_t q[8] = { 0 };
    RdmaCompl c;
    unsigned i;

    c = rd_exec(d, E810_CQP_OP_ALLOCATE_LOC_MAC_TABLE_ENTRY, 0, NULL);
    assert_false(c.error);
    assert_int_equal(c.ret_val, 0);
    q[E810_QW(E810_CQPSQ_MLM_MAC_OFF)] = 0x0a0b0c0d0e0full;
    assert_false(rd_exec(d, E810_CQP_OP_MANAGE_LOC_MAC_TABLE,
                         FIELD_PREP(E810_CQPSQ_MLM_TABLEIDX, 0), q).error);
    assert_int_equal(d->h->core.rdma.loc_mac[0][5], 0x0f);
    assert_false(rd_exec(d, E810_CQP_OP_MANAGE_LOC_MAC_TABLE,
                         E810_CQPSQ_MLM_FREEENTRY, NULL).error);
    assert_int_equal(rd_exec(d, E810_CQP_OP_MANAGE_LOC_MAC_TABLE,
                             E810_CQPSQ_MLM_FREEENTRY, NULL).minor,
                     E810_CQP_MIN_BAD_STATE);
    for (i = 0; i < E810_LOC_MAC_TABLE_SIZE; i++) {
        assert_int_equal(rd_exec(d, E810_CQP_OP_ALLOCATE_LOC_MAC_TABLE_ENTRY,
                                 0, NULL).ret_val, i);
    }
    assert_int_equal(rd_exec(d, E810_CQP_OP_ALLOCATE_LOC_MAC_TABLE_ENTRY, 0,
                             NULL).minor, E810_CQP_MIN_BAD_STATE);
}

/* The iWARP tables in RoCEv2 mode (test_iwarp covers iWARP mode): the
 * APBVT bitmap takes ports, the quad hash no TCP entry. */
static void test_iwarp_ops_in_roce_mode(void **state)
{
    RdmaDriver *d = *state;
    uint64_t q[8] = { 0 };

    q[E810_QW(E810_CQPSQ_MAPT_PORT_OFF)] = 4791;
    assert_false(rd_exec(d, E810_CQP_OP_MANAGE_APBVT,
                         E810_CQPSQ_MAPT_ADDPORT, q).error);
    assert_int_equal(rd_exec(d, E810_CQP_OP_MANAGE_QUAD_HASH_TABLE_ENTRY,
                             FIELD_PREP(E810_CQPSQ_QHASH_MANAGE, 1) |
                             FIELD_PREP(E810_CQPSQ_QHASH_ENTRYTYPE, 2),
                             q).minor, E810_CQP_MIN_BAD_STATE);
    assert_false(rd_exec(d, E810_CQP_OP_NOP, 0, NULL).error);
}

static void test_push_pages(void **state)
{
    RdmaDriver *d = *state;
    uint64_t q[8] = { 0 };
    RdmaCompl a, b;

    q[E810_QW(E810_CQPSQ_MPP_QS_OFF)] = 3;
    a = rd_exec(d, E810_CQP_OP_MANAGE_PUSH_PAGES, 0, q);
    b = rd_exec(d, E810_CQP_OP_MANAGE_PUSH_PAGES, 0, q);
    assert_false(a.error || b.error);
    assert_int_equal(a.ret_val, 0);
    assert_int_equal(b.ret_val, 1);
    assert_false(rd_exec(d, E810_CQP_OP_MANAGE_PUSH_PAGES,
                         FIELD_PREP(E810_CQPSQ_MPP_PPIDX, 0) |
                         E810_CQPSQ_MPP_FREE_PAGE, q).error);
    assert_int_equal(rd_exec(d, E810_CQP_OP_MANAGE_PUSH_PAGES,
                             FIELD_PREP(E810_CQPSQ_MPP_PPIDX, 0) |
                             E810_CQPSQ_MPP_FREE_PAGE, q).minor,
                     E810_CQP_MIN_BAD_STATE);
    /* The freed index is handed out again. */
    assert_int_equal(rd_exec(d, E810_CQP_OP_MANAGE_PUSH_PAGES, 0, q).ret_val,
                     0);
}

static void test_stats_instances(void **state)
{
    RdmaDriver *d = *state;
    uint64_t q[8] = { 0 }, buf = mem_alloc(d->h, E810_GATHER_STATS_BUF_SIZE);
    RdmaCompl c;

    c = rd_exec(d, E810_CQP_OP_MANAGE_STATS, E810_CQPSQ_STATS_ALLOC_INST,
                NULL);
    assert_false(c.error);
    assert_int_equal(c.ret_val, 0);
    assert_int_equal(rd_exec(d, E810_CQP_OP_MANAGE_STATS,
                             E810_CQPSQ_STATS_ALLOC_INST, NULL).ret_val, 1);
    /* Gather: the buffer is written (an idle instance reads all zero). */
    memset(mem_ptr(d->h, buf), 0x5a, E810_GATHER_STATS_BUF_SIZE);
    q[E810_QW(E810_CQPSQ_STATS_BUF_OFF)] = buf;
    assert_false(rd_exec(d, E810_CQP_OP_GATHER_STATS,
                         E810_CQPSQ_STATS_USE_INST |
                         FIELD_PREP(E810_CQPSQ_STATS_INST_INDEX, 1), q).error);
    assert_int_equal(rd_mem64(d, buf + E810_GATHER_STATS_BUF_SIZE - 8), 0);
    /* Another function's index is refused. */
    q[E810_QW(E810_CQPSQ_STATS_FCN_OFF)] = 3;
    assert_int_equal(rd_exec(d, E810_CQP_OP_GATHER_STATS,
                             E810_CQPSQ_STATS_USE_HMC_FCN_INDEX, q).minor,
                     E810_CQP_MIN_BAD_FN);
    q[E810_QW(E810_CQPSQ_STATS_FCN_OFF)] = 0;
    q[E810_QW(E810_CQPSQ_STATS_BUF_OFF)] = 0x7000000000ull;
    assert_int_equal(rd_exec(d, E810_CQP_OP_GATHER_STATS, 0, q).minor,
                     E810_CQP_MIN_BAD_ADDR);
    /* Free 1, then it is not allocated any more. */
    assert_false(rd_exec(d, E810_CQP_OP_MANAGE_STATS,
                         FIELD_PREP(E810_CQPSQ_STATS_INST_INDEX, 1),
                         NULL).error);
    assert_int_equal(rd_exec(d, E810_CQP_OP_MANAGE_STATS,
                             FIELD_PREP(E810_CQPSQ_STATS_INST_INDEX, 1),
                             NULL).minor, E810_CQP_MIN_BAD_STATE);
}

static void test_ws_nodes_and_up_map(void **state)
{
    RdmaDriver *d = *state;
    uint64_t q[8] = { 0 };
    RdmaCompl c;

    /* Root (its own parent), then a leaf under it: the leaf's qs_handle
     * comes back. */
    c = rd_exec(d, E810_CQP_OP_WORK_SCHED_NODE,
                FIELD_PREP(E810_CQPSQ_WS_NODEID, 1) |
                FIELD_PREP(E810_CQPSQ_WS_PARENTID, 1) |
                E810_CQPSQ_WS_ENABLENODE, q);
    assert_false(c.error);
    assert_int_equal(c.ret_val, 0);
    /* A parent that does not exist. */
    assert_int_equal(rd_exec(d, E810_CQP_OP_WORK_SCHED_NODE,
                             FIELD_PREP(E810_CQPSQ_WS_NODEID, 3) |
                             FIELD_PREP(E810_CQPSQ_WS_PARENTID, 9) |
                             E810_CQPSQ_WS_NODETYPE, q).minor,
                     E810_CQP_MIN_BAD_PARAM);
    c = rd_exec(d, E810_CQP_OP_WORK_SCHED_NODE,
                FIELD_PREP(E810_CQPSQ_WS_NODEID, 2) |
                FIELD_PREP(E810_CQPSQ_WS_PARENTID, 1) |
                E810_CQPSQ_WS_NODETYPE, q);
    assert_false(c.error);
    assert_int_equal(c.ret_val, 2);
    assert_false(d->h->core.rdma.ws[2].enabled);
    /* Nothing hangs below a leaf; a parent with children stays. */
    assert_int_equal(rd_exec(d, E810_CQP_OP_WORK_SCHED_NODE,
                             FIELD_PREP(E810_CQPSQ_WS_NODEID, 3) |
                             FIELD_PREP(E810_CQPSQ_WS_PARENTID, 2) |
                             E810_CQPSQ_WS_NODETYPE, q).minor,
                     E810_CQP_MIN_BAD_PARAM);
    assert_int_equal(rd_exec(d, E810_CQP_OP_WORK_SCHED_NODE,
                             FIELD_PREP(E810_CQPSQ_WS_NODEID, 1) |
                             FIELD_PREP(E810_CQPSQ_WS_NODEOP, E810_WS_DEL_NODE),
                             q).minor, E810_CQP_MIN_BAD_STATE);
    assert_int_equal(rd_exec(d, E810_CQP_OP_WORK_SCHED_NODE,
                             FIELD_PREP(E810_CQPSQ_WS_NODEID, 2) |
                             FIELD_PREP(E810_CQPSQ_WS_PARENTID, 1), q).minor,
                     E810_CQP_MIN_BAD_STATE);
    /* MODIFY enables the leaf (irdma_ws_add() after register_qset). */
    assert_false(rd_exec(d, E810_CQP_OP_WORK_SCHED_NODE,
                         FIELD_PREP(E810_CQPSQ_WS_NODEID, 2) |
                         FIELD_PREP(E810_CQPSQ_WS_PARENTID, 1) |
                         FIELD_PREP(E810_CQPSQ_WS_TC, 3) |
                         FIELD_PREP(E810_CQPSQ_WS_NODEOP, E810_WS_MODIFY_NODE) |
                         E810_CQPSQ_WS_NODETYPE | E810_CQPSQ_WS_ENABLENODE,
                         q).error);
    assert_true(d->h->core.rdma.ws[2].enabled);
    assert_int_equal(d->h->core.rdma.ws[2].tc, 3);
    assert_false(rd_exec(d, E810_CQP_OP_WORK_SCHED_NODE,
                         FIELD_PREP(E810_CQPSQ_WS_NODEID, 2) |
                         FIELD_PREP(E810_CQPSQ_WS_NODEOP, E810_WS_DEL_NODE),
                         q).error);
    assert_int_equal(rd_exec(d, E810_CQP_OP_WORK_SCHED_NODE,
                             FIELD_PREP(E810_CQPSQ_WS_NODEID, 2) |
                             FIELD_PREP(E810_CQPSQ_WS_NODEOP, E810_WS_DEL_NODE),
                             q).minor, E810_CQP_MIN_BAD_STATE);
    /* The root goes once its children are gone. */
    assert_false(rd_exec(d, E810_CQP_OP_WORK_SCHED_NODE,
                         FIELD_PREP(E810_CQPSQ_WS_NODEID, 1) |
                         FIELD_PREP(E810_CQPSQ_WS_NODEOP, E810_WS_DEL_NODE),
                         q).error);
    assert_int_equal(rd_exec(d, E810_CQP_OP_WORK_SCHED_NODE,
                             FIELD_PREP(E810_CQPSQ_WS_NODEOP, 3), q).minor,
                     E810_CQP_MIN_BAD_PARAM);
    q[E810_QW(E810_CQPSQ_UP_MAP_OFF)] = 0x0706050403020100ull;
    assert_false(rd_exec(d, E810_CQP_OP_UP_MAP, 0, q).error);
    assert_int_equal(d->h->core.rdma.up_map[7], 7);
}

static void test_vf_ops_refused(void **state)
{
    RdmaDriver *d = *state;

    assert_int_equal(rd_exec(d, E810_CQP_OP_MANAGE_HMC_PM_FUNC_TABLE, 0,
                             NULL).minor, E810_CQP_MIN_BAD_OPCODE);
    assert_int_equal(rd_exec(d, E810_CQP_OP_MANAGE_VF_PBLE_BP, 0,
                             NULL).minor, E810_CQP_MIN_BAD_OPCODE);
    assert_int_equal(rd_exec(d, E810_CQP_OP_REG_SMR, 0, NULL).minor,
                     E810_CQP_MIN_BAD_OPCODE);
    assert_int_equal(d->h->log_unimp, 3);
}

static RdmaCompl stag_op(RdmaDriver *d, unsigned op, uint32_t idx,
                         uint8_t key, uint64_t hdr, uint64_t len,
                         uint32_t pble)
{
    uint64_t q[8] = { 0 };

    q[E810_QW(E810_CQPSQ_STAG_VA_OFF)] = 0x7f0000001000ull;
    q[E810_QW(E810_CQPSQ_STAG_LEN_OFF)] =
        FIELD_PREP(E810_CQPSQ_STAG_STAGLEN, len) |
        FIELD_PREP(E810_CQPSQ_STAG_PDID, 0x20005);
    q[E810_QW(E810_CQPSQ_STAG_IDX_OFF)] =
        FIELD_PREP(E810_CQPSQ_STAG_IDX, idx) |
        FIELD_PREP(E810_CQPSQ_STAG_KEY, key);
    q[E810_QW(E810_CQPSQ_STAG_PA_OFF)] = 0x12345000;
    q[E810_QW(E810_CQPSQ_STAG_PBL_OFF)] = pble;
    return rd_exec(d, op, hdr, q);
}

static void test_stags(void **state)
{
    RdmaDriver *d = *state;
    uint64_t mr_hdr = E810_CQPSQ_STAG_MR | E810_CQPSQ_STAG_VABASEDTO |
                      FIELD_PREP(E810_CQPSQ_STAG_ARIGHTS,
                                 E810_ACCESS_LOCAL_READ |
                                 E810_ACCESS_REMOTE_WRITE) |
                      E810_CQPSQ_STAG_REMACCENABLED;
    uint32_t nmr;
    unsigned bits;
    E810Mr *mr;

    /* REG_MR of a single-page MR. */
    assert_false(stag_op(d, E810_CQP_OP_REG_MR, 100, 0x5a, mr_hdr, 4096,
                         0).error);
    mr = &d->h->core.rdma.mr[100];
    assert_true(mr->valid && mr->registered && mr->remote && !mr->zero_based);
    assert_int_equal(mr->key, 0x5a);
    assert_int_equal(mr->pd, 0x20005);
    assert_true(mr->va == 0x7f0000001000ull && mr->pa == 0x12345000);
    assert_int_equal(mr->rights, E810_ACCESS_LOCAL_READ |
                                 E810_ACCESS_REMOTE_WRITE);
    /*
     * In use; in use through the driver-key bits above the index bits of
     * the committed table (at least 14: irdma_create_stag()'s mrdrvbits,
     * which name MR 100 too, as the driver relies on); bad PBL level;
     * PBLE beyond the count.
     */
    nmr = e810_hmc_count(&d->h->core, E810_HMC_MR);
    for (bits = 14; (1u << bits) < nmr; bits++) {
    }
    assert_int_equal(stag_op(d, E810_CQP_OP_REG_MR, 100, 1, mr_hdr, 4096,
                             0).minor, E810_CQP_MIN_STAG_INVALID);
    assert_int_equal(stag_op(d, E810_CQP_OP_REG_MR, 5u << bits | 100, 1,
                             mr_hdr, 4096, 0).minor,
                     E810_CQP_MIN_STAG_INVALID);
    /* A driver key in the STag: the MR lands at the masked index. */
    assert_false(stag_op(d, E810_CQP_OP_REG_MR, 3u << bits | 200, 0x11,
                         mr_hdr, 4096, 0).error);
    assert_true(d->h->core.rdma.mr[200].valid);
    assert_int_equal(d->h->core.rdma.mr[200].key, 0x11);
    assert_int_equal(stag_op(d, E810_CQP_OP_REG_MR, 101, 1, mr_hdr |
                             FIELD_PREP(E810_CQPSQ_STAG_LPBLSIZE, 2), 4096,
                             0).minor, E810_CQP_MIN_BAD_PARAM);
    assert_int_equal(stag_op(d, E810_CQP_OP_REG_MR, 101, 1, mr_hdr |
                             FIELD_PREP(E810_CQPSQ_STAG_LPBLSIZE, 1), 8192,
                             e810_hmc_count(&d->h->core, E810_HMC_PBLE)).minor,
                     E810_CQP_MIN_BAD_INDEX);
    assert_int_equal(stag_op(d, E810_CQP_OP_REG_MR, 101, 1, mr_hdr |
                             FIELD_PREP(E810_CQPSQ_STAG_HPAGESIZE, 3), 8192,
                             0).minor, E810_CQP_MIN_BAD_PARAM);
    assert_int_equal(stag_op(d, E810_CQP_OP_REG_MR, 101, 1, mr_hdr,
                             0x200000000001ull, 0).minor,
                     E810_CQP_MIN_BAD_SIZE);
    /* A level-2 MR. */
    assert_false(stag_op(d, E810_CQP_OP_REG_MR, 101, 1, mr_hdr |
                         FIELD_PREP(E810_CQPSQ_STAG_LPBLSIZE, 3), 1 << 30,
                         77).error);
    assert_int_equal(d->h->core.rdma.mr[101].first_pble, 77);
    /* ALLOC_STAG for fast-reg, and a type-1 window. */
    assert_false(stag_op(d, E810_CQP_OP_ALLOC_STAG, 102, 0,
                         E810_CQPSQ_STAG_MR |
                         FIELD_PREP(E810_CQPSQ_STAG_LPBLSIZE, 1), 1 << 20,
                         10).error);
    assert_false(d->h->core.rdma.mr[102].registered);
    assert_false(stag_op(d, E810_CQP_OP_ALLOC_STAG, 103, 0,
                         E810_CQPSQ_STAG_MWTYPE, 0, 0).error);
    assert_true(d->h->core.rdma.mr[103].is_mw &&
                d->h->core.rdma.mr[103].mw_type1);
    assert_int_equal(stag_op(d, E810_CQP_OP_ALLOC_STAG, 103, 0, 0, 0,
                             0).minor, E810_CQP_MIN_STAG_INVALID);
    /* Dealloc, twice. */
    assert_false(stag_op(d, E810_CQP_OP_DEALLOC_STAG, 100, 0,
                         E810_CQPSQ_STAG_MR, 0, 0).error);
    assert_false(mr->valid);
    assert_int_equal(stag_op(d, E810_CQP_OP_DEALLOC_STAG, 100, 0,
                             E810_CQPSQ_STAG_MR, 0, 0).minor,
                     E810_CQP_MIN_STAG_INVALID);
}

static RdmaCompl ah_op(RdmaDriver *d, unsigned op, uint32_t idx, bool ipv4)
{
    uint64_t q[8] = { 0 };

    q[E810_QW(E810_CQPSQ_AH_MAC_OFF)] = 0x020304050607ull << 16;
    q[E810_QW(E810_CQPSQ_AH_VLAN_OFF)] =
        FIELD_PREP(E810_CQPSQ_AH_VLANTAG, (3 << 13) | 100) |
        FIELD_PREP(E810_CQPSQ_AH_TC, 0x88) |
        FIELD_PREP(E810_CQPSQ_AH_PDINDEXLO, 0x0006);
    q[E810_QW(E810_CQPSQ_AH_FLOW_OFF)] =
        FIELD_PREP(E810_CQPSQ_AH_FLOWLABEL, 0x12345) |
        FIELD_PREP(E810_CQPSQ_AH_PDINDEXHI, 2) |
        FIELD_PREP(E810_CQPSQ_AH_HOPLIMIT, 64) |
        FIELD_PREP(E810_CQPSQ_AH_ARPINDEX, 9);
    q[E810_QW(E810_CQPSQ_AH_DIP23_OFF)] = 0x0a000002;
    q[E810_QW(E810_CQPSQ_AH_SIP23_OFF)] = 0x0a000001;
    if (!ipv4) {
        q[E810_QW(E810_CQPSQ_AH_DIP01_OFF)] = 0xfe80000000000000ull;
        q[E810_QW(E810_CQPSQ_AH_DIP23_OFF)] = 0x00000000aabbccddull;
    }
    return rd_exec(d, op, FIELD_PREP(E810_CQPSQ_AH_AVIDX, idx) |
                   (ipv4 ? E810_CQPSQ_AH_IPV4VALID : 0) |
                   E810_CQPSQ_AH_INSERTVLANTAG, q);
}

static void test_address_handles(void **state)
{
    RdmaDriver *d = *state;
    E810Ah *ah = &d->h->core.rdma.ah[4];

    /* Address handles live beyond SD 0: back AH 4's page. */
    rd_back_object(d, E810_HMC_FSIAV, 4);
    assert_false(ah_op(d, E810_CQP_OP_CREATE_ADDR_HANDLE, 4, true).error);
    assert_true(ah->valid && ah->ipv4 && ah->insert_vlan);
    assert_memory_equal(ah->smac, ((uint8_t[]){ 2, 3, 4, 5, 6, 7 }), 6);
    assert_int_equal(ah->vlan, (3 << 13) | 100);
    assert_int_equal(ah->pd, 0x20006);
    assert_int_equal(ah->tc, 0x88);
    assert_int_equal(ah->flow_label, 0x12345);
    assert_int_equal(ah->hop_limit, 64);
    assert_int_equal(ah->arp_idx, 9);
    assert_int_equal(ah->dip[3], 0x0a000002);
    assert_int_equal(ah->sip[3], 0x0a000001);
    assert_int_equal(ah->dip[0], 0);
    assert_int_equal(ah_op(d, E810_CQP_OP_CREATE_ADDR_HANDLE, 4,
                           true).minor, E810_CQP_MIN_BAD_STATE);
    assert_false(ah_op(d, E810_CQP_OP_MODIFY_ADDR_HANDLE, 4, false).error);
    assert_false(ah->ipv4);
    assert_int_equal(ah->dip[0], 0xfe800000);
    assert_int_equal(ah->dip[3], 0xaabbccdd);
    assert_false(ah_op(d, E810_CQP_OP_DESTROY_ADDR_HANDLE, 4, true).error);
    assert_false(ah->valid);
    assert_int_equal(ah_op(d, E810_CQP_OP_DESTROY_ADDR_HANDLE, 4,
                           true).minor, E810_CQP_MIN_BAD_STATE);
    assert_int_equal(ah_op(d, E810_CQP_OP_CREATE_ADDR_HANDLE, 8192,
                           true).minor, E810_CQP_MIN_BAD_INDEX);
    /* AH 4000 is in a page that is not backed: an HMC error. */
    assert_int_equal(ah_op(d, E810_CQP_OP_CREATE_ADDR_HANDLE, 4000,
                           true).major, E810_CQP_MAJ_OBJCACHE_ERROR);
}

static void test_multicast_groups(void **state)
{
    RdmaDriver *d = *state;
    uint64_t ctx = mem_alloc(d->h, 4096), q[8] = { 0 };
    E810Mcg *m = &d->h->core.rdma.mcg[3];

    rd_back_object(d, E810_HMC_FSIMC, 3);
    rd_set64(d, ctx, E810_MG_CTX_VALIDENT | FIELD_PREP(E810_MG_CTX_QPID, 17) |
             FIELD_PREP(E810_MG_CTX_DESTPORT, 4791));
    rd_set64(d, ctx + 16, E810_MG_CTX_VALIDENT |
             FIELD_PREP(E810_MG_CTX_QPID, 18));
    q[E810_QW(E810_CQPSQ_MG_MAC_OFF)] = 0x01005e000001ull;
    q[E810_QW(E810_CQPSQ_MG_VLAN_OFF)] = FIELD_PREP(E810_CQPSQ_MG_VLANID, 5);
    q[E810_QW(E810_CQPSQ_MG_CTX_OFF)] = ctx;
    q[E810_QW(E810_CQPSQ_MG_DIP23_OFF)] = 0xe0000001;
    assert_false(rd_exec(d, E810_CQP_OP_CREATE_MCAST_GRP,
                         FIELD_PREP(E810_CQPSQ_MG_MGIDX, 3) |
                         E810_CQPSQ_MG_IPV4VALID | E810_CQPSQ_MG_VLANVALID,
                         q).error);
    assert_true(m->valid && m->ipv4 && m->vlan_valid);
    assert_int_equal(m->nqps, 2);
    assert_int_equal(m->qpn[0], 17);
    assert_int_equal(m->qpn[1], 18);
    assert_int_equal(m->dport[0], 4791);
    assert_int_equal(m->dip[3], 0xe0000001);
    assert_int_equal(m->dmac[0], 0x01);
    /* Modify with one QP left; destroy; bad buffer; bad index. */
    rd_set64(d, ctx + 16, 0);
    assert_false(rd_exec(d, E810_CQP_OP_MODIFY_MCAST_GRP,
                         FIELD_PREP(E810_CQPSQ_MG_MGIDX, 3) |
                         E810_CQPSQ_MG_IPV4VALID, q).error);
    assert_int_equal(m->nqps, 1);
    assert_false(rd_exec(d, E810_CQP_OP_DESTROY_MCAST_GRP,
                         FIELD_PREP(E810_CQPSQ_MG_MGIDX, 3), q).error);
    assert_false(m->valid);
    /* A MODIFY that overtook its CREATE (irdma_attach_mcast()) creates. */
    assert_false(rd_exec(d, E810_CQP_OP_MODIFY_MCAST_GRP,
                         FIELD_PREP(E810_CQPSQ_MG_MGIDX, 3) |
                         E810_CQPSQ_MG_IPV4VALID, q).error);
    assert_true(m->valid);
    assert_int_equal(m->nqps, 1);
    assert_false(rd_exec(d, E810_CQP_OP_DESTROY_MCAST_GRP,
                         FIELD_PREP(E810_CQPSQ_MG_MGIDX, 3), q).error);
    assert_int_equal(rd_exec(d, E810_CQP_OP_DESTROY_MCAST_GRP,
                             FIELD_PREP(E810_CQPSQ_MG_MGIDX, 3), q).minor,
                     E810_CQP_MIN_BAD_STATE);
    q[E810_QW(E810_CQPSQ_MG_CTX_OFF)] = 0x7000000000ull;
    assert_int_equal(rd_exec(d, E810_CQP_OP_CREATE_MCAST_GRP,
                             FIELD_PREP(E810_CQPSQ_MG_MGIDX, 3), q).minor,
                     E810_CQP_MIN_BAD_ADDR);
    assert_int_equal(rd_exec(d, E810_CQP_OP_CREATE_MCAST_GRP,
                             FIELD_PREP(E810_CQPSQ_MG_MGIDX, 1024), q).minor,
                     E810_CQP_MIN_BAD_INDEX);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_rdma_features_buffer),
        T(test_arp_cache),
        T(test_local_mac_table),
        T(test_iwarp_ops_in_roce_mode),
        T(test_push_pages),
        T(test_stats_instances),
        T(test_ws_nodes_and_up_map),
        T(test_vf_ops_refused),
        T(test_stags),
        T(test_address_handles),
        T(test_multicast_groups),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_cqp_ops", tests, NULL, NULL);
}
