/*
 * A minimal admin-queue driver for the host tests.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "aq_driver.h"

static void arq_post(Harness *h, AqDriver *aq, unsigned i)
{
    struct e810_aq_desc *d = mem_ptr(h, aq->arq + i * sizeof(*d));
    uint64_t b = aq->arq_buf + (uint64_t)i * E810_AQ_MAX_BUF;

    memset(d, 0, sizeof(*d));
    d->flags = htole16(E810_AQ_FLAG_BUF | E810_AQ_FLAG_LB);
    d->datalen = htole16(E810_AQ_MAX_BUF);
    d->params.generic.addr_high = htole32(b >> 32);
    d->params.generic.addr_low = htole32((uint32_t)b);
}

void aq_init(Harness *h, AqDriver *aq)
{
    unsigned i;

    memset(aq, 0, sizeof(*aq));
    aq->len = AQ_TEST_LEN;
    aq->atq = mem_alloc(h, aq->len * E810_AQ_DESC_SIZE);
    aq->arq = mem_alloc(h, aq->len * E810_AQ_DESC_SIZE);
    aq->atq_buf = mem_alloc(h, aq->len * E810_AQ_MAX_BUF);
    aq->arq_buf = mem_alloc(h, aq->len * E810_AQ_MAX_BUF);
    for (i = 0; i < aq->len; i++) {
        arq_post(h, aq, i);
    }
    wr32(h, E810_PF_FW_ATQH, 0);
    wr32(h, E810_PF_FW_ATQT, 0);
    wr32(h, E810_PF_FW_ATQLEN, aq->len | E810_PF_FW_AQLEN_ENABLE);
    wr32(h, E810_PF_FW_ATQBAL, (uint32_t)aq->atq);
    wr32(h, E810_PF_FW_ATQBAH, aq->atq >> 32);
    assert_int_equal(rd32(h, E810_PF_FW_ATQBAL), (uint32_t)aq->atq);
    wr32(h, E810_PF_FW_ARQH, 0);
    wr32(h, E810_PF_FW_ARQT, 0);
    wr32(h, E810_PF_FW_ARQLEN, aq->len | E810_PF_FW_AQLEN_ENABLE);
    wr32(h, E810_PF_FW_ARQBAL, (uint32_t)aq->arq);
    wr32(h, E810_PF_FW_ARQBAH, aq->arq >> 32);
    wr32(h, E810_PF_FW_ARQT, aq->len - 1);
    harness_run_work(h);
}

struct e810_aq_desc aq_desc(uint16_t opcode)
{
    struct e810_aq_desc d;

    memset(&d, 0, sizeof(d));
    d.opcode = htole16(opcode);
    d.flags = htole16(E810_AQ_FLAG_SI);
    return d;
}

uint16_t aq_send(Harness *h, AqDriver *aq, struct e810_aq_desc *d,
                 void *buf, uint16_t len)
{
    unsigned slot = aq->atq_ntu;
    struct e810_aq_desc *ring = mem_ptr(h, aq->atq + slot * sizeof(*d));
    uint64_t b = aq->atq_buf + (uint64_t)slot * E810_AQ_MAX_BUF;

    if (buf) {
        uint16_t f = le16toh(d->flags) | E810_AQ_FLAG_BUF;

        if (len > E810_AQ_LARGE_BUF) {
            f |= E810_AQ_FLAG_LB;
        }
        d->flags = htole16(f);
        d->datalen = htole16(len);
        d->params.generic.addr_high = htole32(b >> 32);
        d->params.generic.addr_low = htole32((uint32_t)b);
        memcpy(mem_ptr(h, b), buf, len);
    }
    *ring = *d;
    aq->atq_ntu = (aq->atq_ntu + 1) % aq->len;
    wr32(h, E810_PF_FW_ATQT, aq->atq_ntu);
    harness_run_work(h);
    assert_int_equal(rd32(h, E810_PF_FW_ATQH), aq->atq_ntu);
    *d = *ring;
    if (buf) {
        uint16_t got = le16toh(d->datalen);

        assert_true(got <= len);
        memcpy(buf, mem_ptr(h, b), got);
    }
    return le16toh(d->retval);
}

bool aq_event(Harness *h, AqDriver *aq, struct e810_aq_desc *d, void *buf)
{
    unsigned ntc = aq->arq_ntc;
    struct e810_aq_desc *ring = mem_ptr(h, aq->arq + ntc * sizeof(*d));

    if ((rd32(h, E810_PF_FW_ARQH) & E810_PF_FW_AQ_PTR) == ntc) {
        return false;
    }
    *d = *ring;
    memcpy(buf, mem_ptr(h, aq->arq_buf + (uint64_t)ntc * E810_AQ_MAX_BUF),
           le16toh(d->datalen));
    arq_post(h, aq, ntc);
    wr32(h, E810_PF_FW_ARQT, ntc);
    aq->arq_ntc = (ntc + 1) % aq->len;
    return true;
}

/* 0x0401 with one node under @parent; returns the new node's TEID. */
uint32_t aq_sched_add_node(Harness *h, AqDriver *aq, uint32_t parent)
{
    struct {
        struct e810_aqc_txsched_topo_grp_info_hdr hdr;
        struct e810_aqc_txsched_elem_data el;
    } __attribute__((packed)) b;
    struct e810_aq_desc d = aq_desc(E810_AQC_ADD_SCHED_ELEMS);
    struct e810_aqc_sched_elem_cmd *p = (void *)d.params.raw;

    memset(&b, 0, sizeof(b));
    d.flags |= htole16(E810_AQ_FLAG_RD);
    p->num_elem_req = htole16(1);
    b.hdr.parent_teid = htole32(parent);
    b.hdr.num_elems = htole16(1);
    b.el.parent_teid = htole32(parent);
    b.el.data.elem_type = E810_AQC_ELEM_TYPE_SE_GENERIC;
    b.el.data.valid_sections = E810_AQC_ELEM_VALID_GENERIC;
    assert_int_equal(aq_send(h, aq, &d, &b, sizeof(b)), E810_AQ_RC_OK);
    assert_int_equal(le16toh(p->num_elem_resp), 1);
    return le32toh(b.el.node_teid);
}

uint32_t aq_sched_qgrp(Harness *h, AqDriver *aq)
{
    struct e810_aqc_get_topo_elem br;
    struct e810_aq_desc d = aq_desc(E810_AQC_GET_DFLT_TOPO);
    uint32_t teid;
    unsigned layer;

    memset(&br, 0, sizeof(br));
    assert_int_equal(aq_send(h, aq, &d, &br, sizeof(br)), E810_AQ_RC_OK);
    teid = le32toh(br.generic[E810_SCHED_LAYER_TC].node_teid);
    for (layer = E810_SCHED_LAYER_TC + 1; layer <= E810_SCHED_LAYER_QGRP;
         layer++) {
        teid = aq_sched_add_node(h, aq, teid);
    }
    return teid;
}

uint16_t aq_add_txq(Harness *h, AqDriver *aq, uint32_t parent, uint16_t q,
                    const uint8_t *ctx, uint32_t *teid)
{
    struct {
        struct e810_aqc_add_tx_qgrp grp;
        struct e810_aqc_add_txqs_perq q;
    } __attribute__((packed)) b;
    struct e810_aq_desc d = aq_desc(E810_AQC_ADD_TXQS);
    uint16_t rc;

    memset(&b, 0, sizeof(b));
    ((struct e810_aqc_add_txqs *)d.params.raw)->num_qgrps = 1;
    d.flags |= htole16(E810_AQ_FLAG_RD);
    b.grp.parent_teid = htole32(parent);
    b.grp.num_txqs = 1;
    b.q.txq_id = htole16(q);
    memcpy(b.q.txq_ctx, ctx, E810_TXQ_CTX_SIZE);
    /* ice_ena_vsi_txq(): the generic section must be valid. */
    b.q.info.valid_sections = E810_AQC_ELEM_VALID_GENERIC;
    rc = aq_send(h, aq, &d, &b, sizeof(b));
    if (teid) {
        *teid = le32toh(b.q.q_teid);
    }
    return rc;
}

uint16_t aq_add_rdma_qset(Harness *h, AqDriver *aq, uint32_t parent,
                          uint16_t id, uint32_t *teid)
{
    struct {
        struct e810_aqc_add_rdma_qset_grp grp;
        struct e810_aqc_add_rdma_qset_perq q;
    } __attribute__((packed)) b;
    struct e810_aq_desc d = aq_desc(E810_AQC_ADD_RDMA_QSET);
    uint16_t rc;

    memset(&b, 0, sizeof(b));
    ((struct e810_aqc_add_rdma_qset *)d.params.raw)->num_qset_grps = 1;
    d.flags |= htole16(E810_AQ_FLAG_RD);
    b.grp.parent_teid = htole32(parent);
    b.grp.num_qsets = htole16(1);
    b.q.tx_qset_id = htole16(id);
    b.q.info.valid_sections = E810_AQC_ELEM_VALID_GENERIC;
    rc = aq_send(h, aq, &d, &b, sizeof(b));
    if (teid) {
        *teid = le32toh(b.q.qset_teid);
    }
    return rc;
}

uint16_t aq_dis_rdma_qset(Harness *h, AqDriver *aq, uint32_t parent,
                          uint16_t id)
{
    struct {
        struct e810_aqc_dis_txq_item it;
        uint16_t id;
        uint16_t pad;
    } __attribute__((packed)) b;
    struct e810_aq_desc d = aq_desc(E810_AQC_DIS_TXQS);
    struct e810_aqc_dis_txqs *p = (void *)d.params.raw;

    memset(&b, 0, sizeof(b));
    b.it.parent_teid = htole32(parent);
    b.it.num_qs = 1;
    b.id = htole16(id | E810_AQC_Q_DIS_BUF_ELEM_TYPE_RDMA_QSET);
    d.flags |= htole16(E810_AQ_FLAG_RD);
    p->num_entries = 1;
    p->cmd_type = E810_AQC_Q_DIS_CMD_FLUSH_PIPE;
    /* One id: no padding (ice_aq_dis_lan_txq()). */
    return aq_send(h, aq, &d, &b, sizeof(b.it) + 2);
}

/* 0x02A0 with one Tx MAC rule from @vsi for @da, as ice_fill_sw_rule(). */
void aq_add_mac_rule(Harness *h, AqDriver *aq, uint16_t vsi,
                     const uint8_t da[6])
{
    struct {
        struct e810_sw_rule_lkup r;
        uint8_t hdr[16];
    } __attribute__((packed)) b;
    struct e810_aq_desc d = aq_desc(E810_AQC_ADD_SW_RULES);
    uint32_t act = FIELD_PREP(E810_SW_ACT_VSI_ID, vsi) | E810_SW_ACT_VALID |
                   E810_SW_ACT_LB_ENABLE;

    /* ice_fill_sw_info(): group and broadcast addresses also go out. */
    if (da[0] & 1) {
        act |= E810_SW_ACT_LAN_ENABLE;
    }
    memset(&b, 0, sizeof(b));
    b.r.hdr.type = htole16(E810_SW_RULE_LKUP_TX);
    b.r.recipe_id = htole16(E810_SW_LKUP_MAC);
    b.r.src = htole16(vsi);
    b.r.act = htole32(act);
    b.r.hdr_len = htole16(sizeof(b.hdr));
    memcpy(b.hdr, da, 6);
    b.hdr[6] = 0x02;            /* the dummy header's source address */
    b.hdr[12] = 0x81;           /* and its VLAN TPID */
    ((struct e810_aqc_sw_rules *)d.params.raw)->num_rules = htole16(1);
    d.flags |= htole16(E810_AQ_FLAG_RD);
    assert_int_equal(aq_send(h, aq, &d, &b, sizeof(b)), E810_AQ_RC_OK);
    assert_int_equal(le16toh(b.r.hdr.status), 0);
}

uint16_t aq_add_pf_vsi_and_mac_rules(Harness *h, AqDriver *aq,
                                     const uint8_t mac[6], unsigned nq)
{
    static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    struct e810_aq_desc d = aq_desc(E810_AQC_ADD_VSI);
    struct e810_aqc_add_update_free_vsi *p = (void *)d.params.raw;
    struct e810_aqc_add_update_free_vsi_resp *r = (void *)d.params.raw;
    struct e810_aqc_vsi_props props;
    unsigned pow = 0;
    uint16_t vsi;

    while ((1u << pow) < nq) {
        pow++;
    }
    memset(&props, 0, sizeof(props));
    props.valid_sections = htole16(E810_AQ_VSI_PROP_SW_VALID |
                                   E810_AQ_VSI_PROP_RXQ_MAP_VALID |
                                   E810_AQ_VSI_PROP_Q_OPT_VALID);
    props.q_mapping[0] = htole16(0);
    props.q_mapping[1] = htole16(nq);
    props.tc_mapping[0] = htole16(FIELD_PREP(E810_AQ_VSI_TC_Q_NUM, pow));
    props.q_opt_rss = FIELD_PREP(E810_AQ_VSI_Q_OPT_RSS_LUT,
                                 E810_AQ_VSI_Q_OPT_RSS_LUT_PF);
    p->vsi_flags = htole16(FIELD_PREP(E810_AQ_VSI_TYPE, E810_AQ_VSI_TYPE_PF));
    assert_int_equal(aq_send(h, aq, &d, &props, sizeof(props)),
                     E810_AQ_RC_OK);
    vsi = le16toh(r->vsi_num) & E810_AQ_VSI_NUM;
    aq_add_mac_rule(h, aq, vsi, mac);
    aq_add_mac_rule(h, aq, vsi, bcast);
    return vsi;
}
