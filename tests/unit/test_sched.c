/*
 * Device model: the Tx scheduler tree, driven as ice drives it
 * (ice_sched_query_res_alloc(), ice_sched_init_port(), ice_sched_cfg_vsi(),
 * ice_ena_vsi_txq(), ice_ena_vsi_rdma_qset(), ice_dis_vsi_txq()).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hw/e810_lan.h"
#include "aq_driver.h"

#define RING 64
#define DFLT_ELEMS (E810_SCHED_LAYER_QGRP + 1)    /* root .. queue group */

typedef struct Fixture {
    Harness *h;
    AqDriver aq;
    uint64_t txring;
} Fixture;

static int setup(void **state)
{
    Fixture *f = calloc(1, sizeof(*f));

    f->h = harness_new(0);
    if (!f->h) {
        return -1;
    }
    aq_init(f->h, &f->aq);
    f->txring = mem_alloc(f->h, RING * sizeof(struct e810_tx_desc));
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fixture *f = *state;

    harness_free(f->h);
    free(f);
    return 0;
}

/* ---- helpers: one command each, returning the AQ return code ------------ */

static uint16_t get_topo(Fixture *f, struct e810_aqc_get_topo_elem *br,
                         uint8_t *num_branches)
{
    struct e810_aq_desc d = aq_desc(E810_AQC_GET_DFLT_TOPO);
    uint8_t buf[E810_AQ_MAX_BUF];
    uint16_t rc;

    memset(buf, 0xA5, sizeof(buf));
    rc = aq_send(f->h, &f->aq, &d, buf, sizeof(buf));
    memcpy(br, buf, sizeof(*br));
    *num_branches = ((struct e810_aqc_get_topo *)d.params.raw)->num_branches;
    if (rc == E810_AQ_RC_OK) {
        assert_int_equal(le16toh(d.datalen), sizeof(*br));
    }
    return rc;
}

/*
 * A one-element (or one-group) element command @opc with @buf; asserts
 * num_elem_resp is 1 on success and 0 on error.
 */
static uint16_t one_elem_cmd(Fixture *f, uint16_t opc, void *buf,
                             uint16_t len)
{
    struct e810_aq_desc d = aq_desc(opc);
    struct e810_aqc_sched_elem_cmd *p = (void *)d.params.raw;
    uint16_t rc;

    d.flags |= htole16(E810_AQ_FLAG_RD);
    p->num_elem_req = htole16(1);
    rc = aq_send(f->h, &f->aq, &d, buf, len);
    assert_int_equal(le16toh(p->num_elem_resp), rc == E810_AQ_RC_OK);
    return rc;
}

/* 0x0404 for one TEID; @el gets the answer. */
static uint16_t get_elem(Fixture *f, uint32_t teid,
                         struct e810_aqc_txsched_elem_data *el)
{
    memset(el, 0, sizeof(*el));
    el->node_teid = htole32(teid);
    return one_elem_cmd(f, E810_AQC_GET_SCHED_ELEMS, el, sizeof(*el));
}

/* 0x0401 with @n generic nodes under @parent; TEIDs into @teids. */
static uint16_t add_nodes(Fixture *f, uint32_t parent, unsigned n,
                          uint32_t *teids)
{
    struct {
        struct e810_aqc_txsched_topo_grp_info_hdr hdr;
        struct e810_aqc_txsched_elem_data el[16];
    } __attribute__((packed)) b;
    struct e810_aq_desc d = aq_desc(E810_AQC_ADD_SCHED_ELEMS);
    struct e810_aqc_sched_elem_cmd *p = (void *)d.params.raw;
    uint16_t rc;
    unsigned i;

    assert_true(n <= 16);
    memset(&b, 0, sizeof(b));
    d.flags |= htole16(E810_AQ_FLAG_RD);
    p->num_elem_req = htole16(1);
    b.hdr.parent_teid = htole32(parent);
    b.hdr.num_elems = htole16(n);
    for (i = 0; i < n; i++) {
        b.el[i].parent_teid = htole32(parent);
        b.el[i].data.elem_type = E810_AQC_ELEM_TYPE_SE_GENERIC;
        b.el[i].data.valid_sections = E810_AQC_ELEM_VALID_GENERIC |
                                      E810_AQC_ELEM_VALID_CIR |
                                      E810_AQC_ELEM_VALID_EIR;
        b.el[i].data.cir_bw_alloc = htole16(E810_SCHED_DFLT_BW_WT);
        b.el[i].data.eir_bw_alloc = htole16(E810_SCHED_DFLT_BW_WT);
    }
    rc = aq_send(f->h, &f->aq, &d, &b, sizeof(b.hdr) + n * sizeof(b.el[0]));
    if (rc == E810_AQ_RC_OK) {
        assert_int_equal(le16toh(p->num_elem_resp), 1);
        assert_int_equal(le16toh(d.datalen),
                         sizeof(b.hdr) + n * sizeof(b.el[0]));
        for (i = 0; i < n && teids; i++) {
            teids[i] = le32toh(b.el[i].node_teid);
        }
    } else {
        assert_int_equal(le16toh(p->num_elem_resp), 0);
    }
    return rc;
}

/* 0x040F of @teid under @parent. */
static uint16_t del_node(Fixture *f, uint32_t parent, uint32_t teid)
{
    struct {
        struct e810_aqc_txsched_topo_grp_info_hdr hdr;
        __le32 teid;
    } __attribute__((packed)) b;

    memset(&b, 0, sizeof(b));
    b.hdr.parent_teid = htole32(parent);
    b.hdr.num_elems = htole16(1);
    b.teid = htole32(teid);
    return one_elem_cmd(f, E810_AQC_DELETE_SCHED_ELEMS, &b, sizeof(b));
}

/* 0x0C30 with Tx queue @q under @parent. */
static uint16_t add_txq(Fixture *f, uint32_t parent, uint16_t q,
                        uint32_t *teid)
{
    uint8_t ctx[E810_TXQ_CTX_SIZE];

    memset(ctx, 0, sizeof(ctx));
    e810_ctx_set(ctx, E810_TLAN_CTX_BASE, f->txring >> E810_TLAN_BASE_SHIFT);
    e810_ctx_set(ctx, E810_TLAN_CTX_QLEN, RING);
    e810_ctx_set(ctx, E810_TLAN_CTX_VMVF_TYPE, E810_TLAN_VMVF_TYPE_PF);
    return aq_add_txq(f->h, &f->aq, parent, q, ctx, teid);
}

/* 0x0C33 with qsets @first .. @first + @n - 1 under @parent. */
static uint16_t add_qsets(Fixture *f, uint32_t parent, uint16_t first,
                          unsigned n, uint32_t *teids)
{
    struct {
        struct e810_aqc_add_rdma_qset_grp grp;
        struct e810_aqc_add_rdma_qset_perq q[16];
    } __attribute__((packed)) b;
    struct e810_aq_desc d = aq_desc(E810_AQC_ADD_RDMA_QSET);
    uint16_t rc;
    unsigned i;

    assert_true(n <= 16);
    memset(&b, 0, sizeof(b));
    ((struct e810_aqc_add_rdma_qset *)d.params.raw)->num_qset_grps = 1;
    d.flags |= htole16(E810_AQ_FLAG_RD);
    b.grp.parent_teid = htole32(parent);
    b.grp.num_qsets = htole16(n);
    for (i = 0; i < n; i++) {
        b.q[i].tx_qset_id = htole16(first + i);
        b.q[i].info.valid_sections = E810_AQC_ELEM_VALID_GENERIC;
    }
    rc = aq_send(f->h, &f->aq, &d, &b, sizeof(b.grp) + n * sizeof(b.q[0]));
    for (i = 0; i < n && teids && rc == E810_AQ_RC_OK; i++) {
        teids[i] = le32toh(b.q[i].qset_teid);
    }
    return rc;
}

/* 0x0C31 with one item of @n ids under @parent (padded when n is even). */
static uint16_t dis_ids(Fixture *f, uint32_t parent, const uint16_t *ids,
                        unsigned n)
{
    uint8_t b[64];
    struct e810_aqc_dis_txq_item it;
    struct e810_aq_desc d = aq_desc(E810_AQC_DIS_TXQS);
    struct e810_aqc_dis_txqs *p = (void *)d.params.raw;
    unsigned i, len = sizeof(it) + 2 * n + (n % 2 ? 0 : 2);

    memset(b, 0, sizeof(b));
    memset(&it, 0, sizeof(it));
    it.parent_teid = htole32(parent);
    it.num_qs = n;
    memcpy(b, &it, sizeof(it));
    for (i = 0; i < n; i++) {
        b[sizeof(it) + 2 * i] = ids[i] & 0xFF;
        b[sizeof(it) + 2 * i + 1] = ids[i] >> 8;
    }
    d.flags |= htole16(E810_AQ_FLAG_RD);
    p->num_entries = 1;
    p->cmd_type = E810_AQC_Q_DIS_CMD_FLUSH_PIPE;
    return aq_send(f->h, &f->aq, &d, b, len);
}

static uint16_t dis_one(Fixture *f, uint32_t parent, uint16_t id)
{
    return dis_ids(f, parent, &id, 1);
}

/* The default branch: @teid[layer] for root .. queue group. */
static void dflt_teids(Fixture *f, uint32_t *teid)
{
    struct e810_aqc_get_topo_elem br;
    uint8_t nb;
    unsigned i;

    assert_int_equal(get_topo(f, &br, &nb), E810_AQ_RC_OK);
    assert_int_equal(le16toh(br.hdr.num_elems), DFLT_ELEMS);
    for (i = 0; i < DFLT_ELEMS; i++) {
        teid[i] = le32toh(br.generic[i].node_teid);
    }
}

/* ---- tests ---------------------------------------------------------------- */

static void test_query_res(void **state)
{
    Fixture *f = *state;
    struct e810_aqc_query_txsched_res_resp r;
    struct e810_aq_desc d = aq_desc(E810_AQC_QUERY_SCHED_RES);
    unsigned i;

    memset(&r, 0xA5, sizeof(r));
    assert_int_equal(aq_send(f->h, &f->aq, &d, &r, sizeof(r)), E810_AQ_RC_OK);
    assert_int_equal(le16toh(d.datalen), 320);
    assert_int_equal(le16toh(r.sched_props.logical_levels), 9);
    assert_int_equal(le16toh(r.sched_props.phys_levels), 9);
    assert_int_equal(le16toh(r.sched_props.rdma_qsets),
                     E810_SCHED_RDMA_QSETS);
    assert_int_equal(r.sched_props.flattening_bitmap, 0);
    for (i = 0; i < 9; i++) {
        assert_int_equal(r.layer_props[i].logical_layer, i);
        assert_true(le16toh(r.layer_props[i].max_pf_nodes) >= 1);
        assert_true(le16toh(r.layer_props[i].max_device_nodes) >=
                    le16toh(r.layer_props[i].max_pf_nodes));
        /* ice's max_children[i - 1]: non-zero wherever children go. */
        if (i > 0) {
            assert_int_equal(le16toh(r.layer_props[i].max_sibl_grp_sz),
                             E810_SCHED_MAX_CHILDREN);
        }
    }
    assert_int_equal(le16toh(r.layer_props[1].max_pf_nodes), 8);
    assert_int_equal(le16toh(r.layer_props[8].max_pf_nodes),
                     E810_SCHED_L8_NODES);
    /* Reserved bytes are zero. */
    assert_int_equal(r.sched_props.rsvd1[0], 0);
    assert_int_equal(r.layer_props[4].rsvd1[13], 0);
    /* A short buffer is refused. */
    d = aq_desc(E810_AQC_QUERY_SCHED_RES);
    assert_int_equal(aq_send(f->h, &f->aq, &d, &r, 100), E810_AQ_RC_EINVAL);
}

static void test_default_topology(void **state)
{
    Fixture *f = *state;
    struct e810_aqc_get_topo_elem br;
    struct e810_aq_desc d;
    uint8_t nb = 0;
    unsigned i, j;

    assert_int_equal(get_topo(f, &br, &nb), E810_AQ_RC_OK);
    assert_int_equal(nb, 1);
    assert_int_equal(le16toh(br.hdr.num_elems), DFLT_ELEMS);
    assert_int_equal(le32toh(br.hdr.parent_teid), E810_SCHED_INVAL_TEID);
    assert_int_equal(br.generic[0].data.elem_type,
                     E810_AQC_ELEM_TYPE_ROOT_PORT);
    assert_int_equal(le32toh(br.generic[0].parent_teid), E810_SCHED_INVAL_TEID);
    assert_int_equal(br.generic[1].data.elem_type, E810_AQC_ELEM_TYPE_TC);
    /* The entry point right under the TC: sw_entry_point_layer = 2. */
    assert_int_equal(br.generic[2].data.elem_type,
                     E810_AQC_ELEM_TYPE_ENTRY_POINT);
    for (i = 3; i < DFLT_ELEMS; i++) {
        assert_int_equal(br.generic[i].data.elem_type,
                         E810_AQC_ELEM_TYPE_SE_GENERIC);
    }
    for (i = 0; i < DFLT_ELEMS; i++) {
        uint32_t t = le32toh(br.generic[i].node_teid);

        assert_int_not_equal(t, 0);
        assert_int_not_equal(t, E810_SCHED_INVAL_TEID);
        if (i > 0) {
            assert_int_equal(le32toh(br.generic[i].parent_teid),
                             le32toh(br.generic[i - 1].node_teid));
        }
        for (j = 0; j < i; j++) {
            assert_int_not_equal(t, le32toh(br.generic[j].node_teid));
        }
        assert_int_equal(br.generic[i].data.valid_sections,
                         E810_AQC_ELEM_VALID_GENERIC |
                         E810_AQC_ELEM_VALID_CIR | E810_AQC_ELEM_VALID_EIR);
        assert_int_equal(le16toh(br.generic[i].data.cir_bw_alloc),
                         E810_SCHED_DFLT_BW_WT);
        assert_int_equal(br.generic[i].data.flags, 0);
    }
    /* The unused records of the branch are zero. */
    assert_int_equal(br.generic[DFLT_ELEMS].node_teid, 0);
    /* Another port does not exist; a short buffer is refused. */
    d = aq_desc(E810_AQC_GET_DFLT_TOPO);
    ((struct e810_aqc_get_topo *)d.params.raw)->port_num = 1;
    assert_int_equal(aq_send(f->h, &f->aq, &d, &br, sizeof(br)),
                     E810_AQ_RC_EINVAL);
    d = aq_desc(E810_AQC_GET_DFLT_TOPO);
    assert_int_equal(aq_send(f->h, &f->aq, &d, &br, 100), E810_AQ_RC_EINVAL);
}

static void test_get_elems(void **state)
{
    Fixture *f = *state;
    struct e810_aqc_txsched_elem_data el[3];
    struct e810_aq_desc d;
    struct e810_aqc_sched_elem_cmd *p;
    uint32_t t[DFLT_ELEMS];

    dflt_teids(f, t);
    assert_int_equal(get_elem(f, t[2], &el[0]), E810_AQ_RC_OK);
    assert_int_equal(le32toh(el[0].node_teid), t[2]);
    assert_int_equal(le32toh(el[0].parent_teid), t[1]);
    assert_int_equal(el[0].data.elem_type, E810_AQC_ELEM_TYPE_ENTRY_POINT);
    assert_int_equal(le16toh(el[0].data.eir_bw_alloc), E810_SCHED_DFLT_BW_WT);
    /* Unknown TEIDs (0 too) are refused. */
    assert_int_equal(get_elem(f, 0, &el[0]), E810_AQ_RC_ENOENT);
    assert_int_equal(get_elem(f, 0x7FFF, &el[0]), E810_AQ_RC_ENOENT);
    /* Several at once; the first unknown one stops the list. */
    memset(el, 0, sizeof(el));
    el[0].node_teid = htole32(t[0]);
    el[1].node_teid = htole32(t[7]);
    el[2].node_teid = htole32(0x7FFF);
    d = aq_desc(E810_AQC_GET_SCHED_ELEMS);
    p = (void *)d.params.raw;
    p->num_elem_req = htole16(2);
    assert_int_equal(aq_send(f->h, &f->aq, &d, el, 2 * sizeof(el[0])),
                     E810_AQ_RC_OK);
    assert_int_equal(le16toh(p->num_elem_resp), 2);
    assert_int_equal(el[0].data.elem_type, E810_AQC_ELEM_TYPE_ROOT_PORT);
    assert_int_equal(le32toh(el[1].parent_teid), t[6]);
    d = aq_desc(E810_AQC_GET_SCHED_ELEMS);
    p->num_elem_req = htole16(3);
    assert_int_equal(aq_send(f->h, &f->aq, &d, el, sizeof(el)),
                     E810_AQ_RC_ENOENT);
    assert_int_equal(le16toh(p->num_elem_resp), 2);
    /* More elements than the buffer holds, or none. */
    d = aq_desc(E810_AQC_GET_SCHED_ELEMS);
    p->num_elem_req = htole16(4);
    assert_int_equal(aq_send(f->h, &f->aq, &d, el, sizeof(el)),
                     E810_AQ_RC_EINVAL);
    d = aq_desc(E810_AQC_GET_SCHED_ELEMS);
    p->num_elem_req = 0;
    assert_int_equal(aq_send(f->h, &f->aq, &d, el, sizeof(el)),
                     E810_AQ_RC_EINVAL);
}

/* ice_sched_init_port(): the default nodes from the entry point down go. */
static void test_delete_default_nodes(void **state)
{
    Fixture *f = *state;
    struct e810_aqc_get_topo_elem br;
    uint32_t t[DFLT_ELEMS];
    uint8_t nb;
    int i;

    dflt_teids(f, t);
    /* A node with children, the TC and the root are refused. */
    assert_int_equal(del_node(f, t[1], t[2]), E810_AQ_RC_EBUSY);
    assert_int_equal(del_node(f, t[0], t[1]), E810_AQ_RC_EINVAL);
    /* The parent must be the node's own; unknown TEIDs are refused. */
    assert_int_equal(del_node(f, t[5], t[7]), E810_AQ_RC_EINVAL);
    assert_int_equal(del_node(f, 0x7FFF, t[7]), E810_AQ_RC_ENOENT);
    assert_int_equal(del_node(f, t[6], 0x7FFF), E810_AQ_RC_ENOENT);
    for (i = DFLT_ELEMS - 1; i >= 2; i--) {
        assert_int_equal(del_node(f, t[i - 1], t[i]), E810_AQ_RC_OK);
        assert_int_equal(get_elem(f, t[i], &br.generic[0]), E810_AQ_RC_ENOENT);
    }
    assert_int_equal(f->h->core.sched.num_nodes, 2);
    assert_int_equal(get_topo(f, &br, &nb), E810_AQ_RC_OK);
    assert_int_equal(le16toh(br.hdr.num_elems), 2);
}

static void test_add_elems(void **state)
{
    Fixture *f = *state;
    struct e810_aqc_txsched_elem_data el;
    uint32_t t[DFLT_ELEMS], kids[16], n5, qg;
    unsigned i, j;

    dflt_teids(f, t);
    /* ice_sched_add_vsi_support_nodes(): one node per layer from the TC. */
    assert_int_equal(add_nodes(f, t[1], 1, kids), E810_AQ_RC_OK);
    assert_int_equal(get_elem(f, kids[0], &el), E810_AQ_RC_OK);
    assert_int_equal(le32toh(el.parent_teid), t[1]);
    assert_int_equal(el.data.elem_type, E810_AQC_ELEM_TYPE_SE_GENERIC);
    assert_int_equal(f->h->core.sched.node[0].num_children, 1);
    n5 = kids[0];
    for (i = 3; i <= 5; i++) {
        assert_int_equal(add_nodes(f, n5, 1, &n5), E810_AQ_RC_OK);
    }
    assert_int_equal(e810_sched_find(&f->h->core, n5)->layer, 5);
    /* Up to E810_SCHED_MAX_CHILDREN children, TEIDs all different. */
    assert_int_equal(add_nodes(f, n5, 7, kids), E810_AQ_RC_OK);
    assert_int_equal(add_nodes(f, n5, 1, kids + 7), E810_AQ_RC_OK);
    for (i = 0; i < 8; i++) {
        for (j = 0; j < DFLT_ELEMS; j++) {
            assert_int_not_equal(kids[i], t[j]);
        }
        for (j = 0; j < i; j++) {
            assert_int_not_equal(kids[i], kids[j]);
        }
        assert_int_equal(get_elem(f, kids[i], &el), E810_AQ_RC_OK);
        assert_int_equal(le32toh(el.parent_teid), n5);
    }
    assert_int_equal(e810_sched_find(&f->h->core, n5)->num_children, 8);
    assert_int_equal(add_nodes(f, n5, 1, NULL), E810_AQ_RC_ENOSPC);
    /* A group that does not fit is refused whole. */
    assert_int_equal(add_nodes(f, kids[0], 9, NULL), E810_AQ_RC_ENOSPC);
    assert_int_equal(e810_sched_find(&f->h->core, kids[0])->num_children, 0);
    /* Unknown parent; below a queue group (leaves come from 0x0C30/33). */
    assert_int_equal(add_nodes(f, 0x7FFF, 1, NULL), E810_AQ_RC_ENOENT);
    assert_int_equal(add_nodes(f, kids[0], 1, &qg), E810_AQ_RC_OK);
    assert_int_equal(e810_sched_find(&f->h->core, qg)->layer,
                     E810_SCHED_LAYER_QGRP);
    assert_int_equal(add_nodes(f, qg, 1, NULL), E810_AQ_RC_EINVAL);
    /* No new TC under the root through 0x0401. */
    assert_int_equal(add_nodes(f, t[0], 1, NULL), E810_AQ_RC_EINVAL);
    /* The node deleted, its TEID is unknown again. */
    assert_int_equal(del_node(f, kids[0], qg), E810_AQ_RC_OK);
    assert_int_equal(get_elem(f, qg, &el), E810_AQ_RC_ENOENT);
}

static void test_add_elems_bad_records(void **state)
{
    Fixture *f = *state;
    struct {
        struct e810_aqc_txsched_topo_grp_info_hdr hdr;
        struct e810_aqc_txsched_elem_data el;
    } __attribute__((packed)) b;
    struct e810_aq_desc d;
    struct e810_aqc_sched_elem_cmd *p;
    uint32_t t[DFLT_ELEMS];
    unsigned nodes = f->h->core.sched.num_nodes;
    unsigned round;

    dflt_teids(f, t);
    for (round = 0; round < 5; round++) {
        memset(&b, 0, sizeof(b));
        b.hdr.parent_teid = htole32(t[1]);
        b.hdr.num_elems = htole16(1);
        b.el.parent_teid = htole32(t[1]);
        b.el.data.elem_type = E810_AQC_ELEM_TYPE_SE_GENERIC;
        b.el.data.valid_sections = E810_AQC_ELEM_VALID_GENERIC;
        d = aq_desc(E810_AQC_ADD_SCHED_ELEMS);
        p = (void *)d.params.raw;
        p->num_elem_req = htole16(1);
        switch (round) {
        case 0:     /* record's parent differs from the group's */
            b.el.parent_teid = htole32(t[2]);
            break;
        case 1:     /* a leaf is no generic node */
            b.el.data.elem_type = E810_AQC_ELEM_TYPE_LEAF;
            break;
        case 2:     /* generic section missing */
            b.el.data.valid_sections = E810_AQC_ELEM_VALID_CIR;
            break;
        case 3:     /* more elements than the buffer holds */
            b.hdr.num_elems = htole16(2);
            break;
        default:    /* more groups than the buffer holds */
            p->num_elem_req = htole16(2);
            break;
        }
        assert_int_equal(aq_send(f->h, &f->aq, &d, &b, sizeof(b)),
                         E810_AQ_RC_EINVAL);
        /* Groups go one by one: only the complete first one was added. */
        assert_int_equal(le16toh(p->num_elem_resp), round == 4);
        assert_int_equal(f->h->core.sched.num_nodes, nodes + (round == 4));
    }
}

/* ice_ena_vsi_txq() / ice_dis_vsi_txq() against a real queue group. */
static void test_txq_leaf(void **state)
{
    Fixture *f = *state;
    struct e810_aqc_txsched_elem_data el;
    uint32_t t[DFLT_ELEMS], qg, qparent, teid = 0;

    dflt_teids(f, t);
    qg = aq_sched_qgrp(f->h, &f->aq);
    /* Parent 0, unknown or not a queue group: refused, no queue. */
    assert_int_equal(add_txq(f, 0, 0, NULL), E810_AQ_RC_ENOENT);
    assert_int_equal(add_txq(f, t[6], 0, NULL), E810_AQ_RC_EINVAL);
    assert_false(f->h->core.lan.txq[0].enabled);
    /* A bad context leaves no leaf behind. */
    assert_int_equal(add_txq(f, qg, E810_LAN_NUM_QUEUES, NULL),
                     E810_AQ_RC_EINVAL);
    assert_int_equal(f->h->core.sched.lan_leaves, 0);
    assert_int_equal(add_txq(f, qg, 0, &teid), E810_AQ_RC_OK);
    assert_true(f->h->core.lan.txq[0].enabled);
    assert_int_equal(f->h->core.sched.lan_leaves, 1);
    assert_int_equal(get_elem(f, teid, &el), E810_AQ_RC_OK);
    assert_int_equal(el.data.elem_type, E810_AQC_ELEM_TYPE_LEAF);
    assert_int_equal(le32toh(el.parent_teid), qg);
    assert_int_equal(e810_sched_find(&f->h->core, teid)->layer,
                     E810_SCHED_LAYER_LEAF);
    assert_int_equal(add_txq(f, qg, 0, NULL), E810_AQ_RC_EEXIST);
    /* The queue group is busy while the queue hangs under it. */
    qparent = f->h->core.sched.node[e810_sched_find(&f->h->core, qg)->parent]
                  .teid;
    assert_int_equal(del_node(f, qparent, qg), E810_AQ_RC_EBUSY);
    /* A leaf is removed by 0x0C31 only, naming its parent. */
    assert_int_equal(del_node(f, qg, teid), E810_AQ_RC_EINVAL);
    assert_int_equal(dis_one(f, t[7], 0), E810_AQ_RC_EINVAL);
    assert_true(f->h->core.lan.txq[0].enabled);
    assert_int_equal(dis_one(f, qg, 0), E810_AQ_RC_OK);
    assert_false(f->h->core.lan.txq[0].enabled);
    assert_int_equal(get_elem(f, teid, &el), E810_AQ_RC_ENOENT);
    assert_int_equal(f->h->core.sched.lan_leaves, 0);
    assert_int_equal(dis_one(f, qg, 0), E810_AQ_RC_ENOENT);
}

/* ice_ena_vsi_rdma_qset() / ice_dis_vsi_rdma_qset(). */
static void test_rdma_qset_leaves(void **state)
{
    Fixture *f = *state;
    struct e810_aqc_txsched_elem_data el;
    uint32_t qg = aq_sched_qgrp(f->h, &f->aq), teid[8];
    uint16_t ids[2] = { 3 | E810_AQC_Q_DIS_BUF_ELEM_TYPE_RDMA_QSET,
                        4 | E810_AQC_Q_DIS_BUF_ELEM_TYPE_RDMA_QSET };
    unsigned i;

    assert_int_equal(add_qsets(f, 0, 1, 1, NULL), E810_AQ_RC_ENOENT);
    assert_int_equal(add_qsets(f, qg, 1, 8, teid), E810_AQ_RC_OK);
    assert_int_equal(f->h->core.sched.rdma_leaves, 8);
    for (i = 0; i < 8; i++) {
        assert_int_equal(get_elem(f, teid[i], &el), E810_AQ_RC_OK);
        assert_int_equal(el.data.elem_type, E810_AQC_ELEM_TYPE_LEAF);
        assert_int_equal(le32toh(el.parent_teid), qg);
    }
    /* The queue group is full. */
    assert_int_equal(add_qsets(f, qg, 9, 1, NULL), E810_AQ_RC_ENOSPC);
    /* A qset id is no LAN queue id: without bit 15 nothing is found. */
    assert_int_equal(dis_one(f, qg, 3), E810_AQ_RC_ENOENT);
    /* Two ids in one item (padded to 4 bytes). */
    assert_int_equal(dis_ids(f, qg, ids, 2), E810_AQ_RC_OK);
    assert_int_equal(f->h->core.sched.rdma_leaves, 6);
    assert_int_equal(get_elem(f, teid[2], &el), E810_AQ_RC_ENOENT);
    assert_int_equal(get_elem(f, teid[3], &el), E810_AQ_RC_ENOENT);
    assert_int_equal(add_qsets(f, qg, 9, 1, teid + 2), E810_AQ_RC_OK);
    /* The same qset id twice is refused. */
    assert_int_equal(add_qsets(f, qg, 1, 1, NULL), E810_AQ_RC_EEXIST);
}

static void test_suspend_resume_cfg(void **state)
{
    Fixture *f = *state;
    struct e810_aqc_txsched_elem_data el;
    struct e810_aq_desc d;
    struct e810_aqc_sched_elem_cmd *p;
    uint32_t t[DFLT_ELEMS];
    __le32 teids[2];

    dflt_teids(f, t);
    teids[0] = htole32(t[5]);
    teids[1] = htole32(t[6]);
    d = aq_desc(E810_AQC_SUSPEND_SCHED_ELEMS);
    p = (void *)d.params.raw;
    p->num_elem_req = htole16(2);
    assert_int_equal(aq_send(f->h, &f->aq, &d, teids, sizeof(teids)),
                     E810_AQ_RC_OK);
    assert_int_equal(le16toh(p->num_elem_resp), 2);
    assert_int_equal(get_elem(f, t[5], &el), E810_AQ_RC_OK);
    assert_int_equal(el.data.flags, E810_AQC_ELEM_FLAG_SUSPEND);
    d = aq_desc(E810_AQC_RESUME_SCHED_ELEMS);
    p->num_elem_req = htole16(1);
    assert_int_equal(aq_send(f->h, &f->aq, &d, teids, 4), E810_AQ_RC_OK);
    assert_int_equal(get_elem(f, t[5], &el), E810_AQ_RC_OK);
    assert_int_equal(el.data.flags, 0);
    assert_int_equal(get_elem(f, t[6], &el), E810_AQ_RC_OK);
    assert_int_equal(el.data.flags, E810_AQC_ELEM_FLAG_SUSPEND);
    teids[0] = htole32(0x7FFF);
    d = aq_desc(E810_AQC_SUSPEND_SCHED_ELEMS);
    p->num_elem_req = htole16(1);
    assert_int_equal(aq_send(f->h, &f->aq, &d, teids, 4), E810_AQ_RC_ENOENT);

    /* ice_sched_update_elem(): only the valid sections change. */
    memset(&el, 0, sizeof(el));
    el.node_teid = htole32(t[4]);
    el.data.valid_sections = E810_AQC_ELEM_VALID_CIR;
    el.data.cir_bw_profile_idx = htole16(7);
    el.data.cir_bw_alloc = htole16(9);
    el.data.eir_bw_alloc = htole16(11);
    d = aq_desc(E810_AQC_CFG_SCHED_ELEMS);
    p->num_elem_req = htole16(1);
    assert_int_equal(aq_send(f->h, &f->aq, &d, &el, sizeof(el)),
                     E810_AQ_RC_OK);
    assert_int_equal(le16toh(p->num_elem_resp), 1);
    assert_int_equal(get_elem(f, t[4], &el), E810_AQ_RC_OK);
    assert_int_equal(le16toh(el.data.cir_bw_profile_idx), 7);
    assert_int_equal(le16toh(el.data.cir_bw_alloc), 9);
    assert_int_equal(le16toh(el.data.eir_bw_alloc), E810_SCHED_DFLT_BW_WT);
    assert_int_equal(el.data.elem_type, E810_AQC_ELEM_TYPE_SE_GENERIC);
}

static void test_move_elems(void **state)
{
    Fixture *f = *state;
    struct {
        struct e810_aqc_txsched_move_grp_info_hdr hdr;
        __le32 teid;
    } __attribute__((packed)) b;
    struct e810_aqc_txsched_elem_data el;
    struct e810_aq_desc d;
    struct e810_aqc_sched_elem_cmd *p;
    uint32_t t[DFLT_ELEMS], other;

    dflt_teids(f, t);
    /* A second layer-3 node; move the default layer-4 node under it. */
    assert_int_equal(add_nodes(f, t[2], 1, &other), E810_AQ_RC_OK);
    memset(&b, 0, sizeof(b));
    b.hdr.src_parent_teid = htole32(t[3]);
    b.hdr.dest_parent_teid = htole32(other);
    b.hdr.num_elems = htole16(1);
    b.teid = htole32(t[4]);
    d = aq_desc(E810_AQC_MOVE_SCHED_ELEMS);
    p = (void *)d.params.raw;
    p->num_elem_req = htole16(1);
    assert_int_equal(aq_send(f->h, &f->aq, &d, &b, sizeof(b)), E810_AQ_RC_OK);
    assert_int_equal(le16toh(p->num_elem_resp), 1);
    assert_int_equal(get_elem(f, t[4], &el), E810_AQ_RC_OK);
    assert_int_equal(le32toh(el.parent_teid), other);
    assert_int_equal(del_node(f, t[2], t[3]), E810_AQ_RC_OK);
    /* Not a child of the source any more; destination on another layer. */
    d = aq_desc(E810_AQC_MOVE_SCHED_ELEMS);
    p->num_elem_req = htole16(1);
    b.hdr.src_parent_teid = htole32(t[2]);
    assert_int_equal(aq_send(f->h, &f->aq, &d, &b, sizeof(b)),
                     E810_AQ_RC_EINVAL);
}

static void test_port_ets(void **state)
{
    Fixture *f = *state;
    struct e810_aqc_port_ets_elem e;
    struct e810_aqc_txsched_elem_data el;
    struct e810_aq_desc d;
    uint32_t t[DFLT_ELEMS], tc2, n;
    uint8_t bw[8] = { 0 };
    unsigned i;

    dflt_teids(f, t);
    d = aq_desc(E810_AQC_QUERY_PORT_ETS);
    ((struct e810_aqc_query_port_ets *)d.params.raw)->port_teid = htole32(t[0]);
    memset(&e, 0xA5, sizeof(e));
    assert_int_equal(aq_send(f->h, &f->aq, &d, &e, sizeof(e)), E810_AQ_RC_OK);
    assert_int_equal(le16toh(d.datalen), 64);
    assert_int_equal(e.tc_valid_bits, 1);
    assert_int_equal(le32toh(e.up2tc), 0);
    assert_int_equal(e.tc_bw_share[0], 100);
    assert_int_equal(le32toh(e.tc_node_teid[0]), t[1]);
    /* ice_update_port_tc_tree_cfg() skips ICE_INVAL_TEID. */
    for (i = 1; i < 8; i++) {
        assert_int_equal(le32toh(e.tc_node_teid[i]), E810_SCHED_INVAL_TEID);
    }
    d = aq_desc(E810_AQC_QUERY_PORT_ETS);
    ((struct e810_aqc_query_port_ets *)d.params.raw)->port_teid = htole32(t[1]);
    assert_int_equal(aq_send(f->h, &f->aq, &d, &e, sizeof(e)),
                     E810_AQ_RC_EINVAL);

    /* DCB enables TC 2: a new TC node ice can build a VSI branch under. */
    assert_true(e810_sched_set_tcs(&f->h->core, 0x05));
    d = aq_desc(E810_AQC_QUERY_PORT_ETS);
    ((struct e810_aqc_query_port_ets *)d.params.raw)->port_teid = htole32(t[0]);
    assert_int_equal(aq_send(f->h, &f->aq, &d, &e, sizeof(e)), E810_AQ_RC_OK);
    assert_int_equal(e.tc_valid_bits, 0x05);
    assert_int_equal(le32toh(e.tc_node_teid[0]), t[1]);
    assert_int_equal(le32toh(e.tc_node_teid[1]), E810_SCHED_INVAL_TEID);
    tc2 = le32toh(e.tc_node_teid[2]);
    assert_int_equal(get_elem(f, tc2, &el), E810_AQ_RC_OK);
    assert_int_equal(el.data.elem_type, E810_AQC_ELEM_TYPE_TC);
    assert_int_equal(le32toh(el.parent_teid), t[0]);
    assert_int_equal(add_nodes(f, tc2, 1, &n), E810_AQ_RC_OK);
    /* TC 2 off: its node stays while software has nodes under it. */
    assert_false(e810_sched_set_tcs(&f->h->core, 0x01));
    assert_int_equal(get_elem(f, tc2, &el), E810_AQ_RC_OK);
    /* ... unreported: ice_update_port_tc_tree_cfg() marks it unused. */
    d = aq_desc(E810_AQC_QUERY_PORT_ETS);
    ((struct e810_aqc_query_port_ets *)d.params.raw)->port_teid = htole32(t[0]);
    assert_int_equal(aq_send(f->h, &f->aq, &d, &e, sizeof(e)), E810_AQ_RC_OK);
    assert_int_equal(e.tc_valid_bits, 0x01);
    assert_int_equal(le32toh(e.tc_node_teid[2]), E810_SCHED_INVAL_TEID);
    /* TC 2 back with its shares: the same node, found again by TEID. */
    bw[0] = 70;
    bw[2] = 30;
    assert_true(e810_sched_set_ets(&f->h->core, 0x05, 2u << 9, bw));
    d = aq_desc(E810_AQC_QUERY_PORT_ETS);
    ((struct e810_aqc_query_port_ets *)d.params.raw)->port_teid = htole32(t[0]);
    assert_int_equal(aq_send(f->h, &f->aq, &d, &e, sizeof(e)), E810_AQ_RC_OK);
    assert_int_equal(e.tc_valid_bits, 0x05);
    assert_int_equal(le32toh(e.tc_node_teid[2]), tc2);
    assert_int_equal(le32toh(e.up2tc), 2u << 9);
    /* ... and PRTDCB_TUP2TC, which ice_get_qos_params() reads. */
    assert_int_equal(rd32(f->h, E810_PRTDCB_TUP2TC), 2u << 9);
    assert_int_equal(e.tc_bw_share[0], 70);
    assert_int_equal(e.tc_bw_share[2], 30);
    assert_false(e810_sched_set_tcs(&f->h->core, 0x01));
    assert_int_equal(del_node(f, tc2, n), E810_AQ_RC_OK);
    assert_true(e810_sched_set_tcs(&f->h->core, 0x01));
    assert_int_equal(get_elem(f, tc2, &el), E810_AQ_RC_ENOENT);
    /* 0x02A4 (and a PF reset) forget the DCB map. */
    e810_sched_clear_pf_config(&f->h->core);
    assert_int_equal(rd32(f->h, E810_PRTDCB_TUP2TC), 0);
}

/* The PF's nodes and leaves, then 0x02A4 / PF reset / CORER. */
static void check_back_to_default(Fixture *f, uint32_t qg, uint32_t leaf,
                                  const uint32_t *t)
{
    struct e810_aqc_get_topo_elem br;
    const E810Sched *s = &f->h->core.sched;
    uint8_t nb;
    unsigned i;

    assert_int_equal(s->num_nodes, DFLT_ELEMS);
    assert_int_equal(s->lan_leaves, 0);
    assert_int_equal(s->rdma_leaves, 0);
    for (i = 0; i < E810_SCHED_NUM_LAYERS; i++) {
        assert_int_equal(s->layer_nodes[i], i < DFLT_ELEMS ? 1 : 0);
    }
    if (!t) {
        return;     /* no admin queue after a core reset */
    }
    assert_int_equal(get_elem(f, qg, &br.generic[0]), E810_AQ_RC_ENOENT);
    assert_int_equal(get_elem(f, leaf, &br.generic[0]), E810_AQ_RC_ENOENT);
    assert_int_equal(get_topo(f, &br, &nb), E810_AQ_RC_OK);
    assert_int_equal(le16toh(br.hdr.num_elems), DFLT_ELEMS);
    assert_int_equal(br.generic[2].data.elem_type,
                     E810_AQC_ELEM_TYPE_ENTRY_POINT);
    assert_int_equal(br.generic[DFLT_ELEMS - 1].data.elem_type,
                     E810_AQC_ELEM_TYPE_SE_GENERIC);
    for (i = 0; i < DFLT_ELEMS; i++) {
        assert_int_equal(get_elem(f, le32toh(br.generic[i].node_teid),
                                  &br.generic[DFLT_ELEMS]), E810_AQ_RC_OK);
    }
}

static void build_pf_tree(Fixture *f, uint32_t *qg, uint32_t *leaf)
{
    uint32_t t[DFLT_ELEMS];
    int i;

    /* As ice_sched_init_port(): default nodes below the TC deleted. */
    dflt_teids(f, t);
    for (i = DFLT_ELEMS - 1; i >= 2; i--) {
        assert_int_equal(del_node(f, t[i - 1], t[i]), E810_AQ_RC_OK);
    }
    *qg = aq_sched_qgrp(f->h, &f->aq);
    assert_int_equal(add_txq(f, *qg, 0, leaf), E810_AQ_RC_OK);
    assert_int_equal(add_qsets(f, *qg, 5, 1, NULL), E810_AQ_RC_OK);
    assert_int_equal(f->h->core.sched.num_nodes, 2 + 6 + 2);
}

static void test_clear_pf_config_restores_default(void **state)
{
    Fixture *f = *state;
    struct e810_aq_desc d = aq_desc(E810_AQC_CLEAR_PF_CFG);
    uint32_t t[DFLT_ELEMS], qg, leaf;

    build_pf_tree(f, &qg, &leaf);
    assert_int_equal(aq_send(f->h, &f->aq, &d, NULL, 0), E810_AQ_RC_OK);
    dflt_teids(f, t);
    check_back_to_default(f, qg, leaf, t);
    /* ice builds again, as at probe. */
    qg = aq_sched_qgrp(f->h, &f->aq);
    assert_int_equal(add_qsets(f, qg, 5, 1, NULL), E810_AQ_RC_OK);
}

static void test_pf_reset_restores_default(void **state)
{
    Fixture *f = *state;
    uint32_t t[DFLT_ELEMS], qg, leaf;

    build_pf_tree(f, &qg, &leaf);
    wr32(f->h, E810_PFGEN_CTRL, E810_PFGEN_CTRL_PFSWR);
    harness_run_work(f->h);
    /* The queue is gone with its leaf. */
    assert_false(f->h->core.lan.txq[0].enabled);
    dflt_teids(f, t);
    check_back_to_default(f, qg, leaf, t);
    qg = aq_sched_qgrp(f->h, &f->aq);
    assert_int_equal(add_txq(f, qg, 0, NULL), E810_AQ_RC_OK);
}

static void test_core_reset_restores_default(void **state)
{
    Fixture *f = *state;
    uint32_t qg, leaf;

    build_pf_tree(f, &qg, &leaf);
    wr32(f->h, E810_GLGEN_RTRIG, E810_GLGEN_RTRIG_CORER);
    assert_true(harness_wait_grst(f->h, NULL));
    check_back_to_default(f, qg, leaf, NULL);
    /* The driver sets its admin queue up again and rebuilds. */
    aq_init(f->h, &f->aq);
    qg = aq_sched_qgrp(f->h, &f->aq);
    assert_int_equal(add_txq(f, qg, 0, NULL), E810_AQ_RC_OK);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_query_res),
        T(test_default_topology),
        T(test_get_elems),
        T(test_delete_default_nodes),
        T(test_add_elems),
        T(test_add_elems_bad_records),
        T(test_txq_leaf),
        T(test_rdma_qset_leaves),
        T(test_suspend_resume_cfg),
        T(test_move_elems),
        T(test_port_ets),
        T(test_clear_pf_config_restores_default),
        T(test_pf_reset_restores_default),
        T(test_core_reset_restores_default),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_sched", tests, NULL, NULL);
}
