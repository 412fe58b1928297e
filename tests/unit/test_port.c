/*
 * Device model: the port (PHY capabilities and configuration, restart
 * auto-negotiation, link status), DCB in software mode (PFC mode, local
 * LLDP MIB) and firmware logging, driven as ice 6.12 drives them.
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

#include "aq_driver.h"

typedef struct Fixture {
    Harness *h;
    AqDriver aq;
} Fixture;

static int setup(void **state)
{
    Fixture *f = calloc(1, sizeof(*f));

    f->h = harness_new(0);
    if (!f->h) {
        return -1;
    }
    aq_init(f->h, &f->aq);
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

static uint16_t get_phy_caps(Fixture *f, unsigned mode,
                             struct e810_aqc_get_phy_caps_data *d)
{
    struct e810_aq_desc desc = aq_desc(E810_AQC_GET_PHY_CAPS);
    struct e810_aqc_get_phy_caps *p = (void *)desc.params.raw;

    p->param0 = htole16(FIELD_PREP(E810_AQC_REPORT_MODE, mode));
    memset(d, 0, sizeof(*d));
    return aq_send(f->h, &f->aq, &desc, d, sizeof(*d));
}

static uint16_t set_phy_cfg(Fixture *f, struct e810_aqc_set_phy_cfg_data *c)
{
    struct e810_aq_desc desc = aq_desc(E810_AQC_SET_PHY_CFG);

    desc.flags |= htole16(E810_AQ_FLAG_RD);
    return aq_send(f->h, &f->aq, &desc, c, sizeof(*c));
}

static void link_status(Fixture *f, struct e810_aqc_link_status_data *ld,
                        unsigned lse)
{
    struct e810_aq_desc d = aq_desc(E810_AQC_GET_LINK_STATUS);
    struct e810_aqc_get_link_status *p = (void *)d.params.raw;

    p->cmd_flags = htole16(FIELD_PREP(E810_AQ_LSE, lse));
    assert_int_equal(aq_send(f->h, &f->aq, &d, ld, sizeof(*ld)),
                     E810_AQ_RC_OK);
}

/* What ice_init_hw() and ice_init_link() read: a 100G copper QSFP28. */
static void test_phy_caps_topology_and_active(void **state)
{
    Fixture *f = *state;
    struct e810_aqc_get_phy_caps_data d;

    assert_int_equal(get_phy_caps(f, E810_AQC_REPORT_TOPO_CAP_MEDIA, &d),
                     E810_AQ_RC_OK);
    assert_true(le64toh(d.phy_type_low) & E810_PHY_TYPE_LOW_100GBASE_CR4);
    assert_true(le64toh(d.phy_type_low) & E810_PHY_TYPE_LOW_25GBASE_CR);
    assert_int_equal(le64toh(d.phy_type_high), 0);
    assert_int_equal(d.module_type[0], E810_AQC_MOD_TYPE_BYTE0_QSFP_PLUS);
    assert_true(d.caps & E810_AQC_PHY_EN_AUTO_FEC);
    assert_true(d.link_fec_options & E810_AQC_PHY_FEC_25G_RS_528_REQ);

    /* Without media the module bytes are not reported. */
    assert_int_equal(get_phy_caps(f, E810_AQC_REPORT_TOPO_CAP_NO_MEDIA, &d),
                     E810_AQ_RC_OK);
    assert_int_equal(d.module_type[0], 0);

    /* Power-on configuration: every type, link enabled. */
    assert_int_equal(get_phy_caps(f, E810_AQC_REPORT_ACTIVE_CFG, &d),
                     E810_AQ_RC_OK);
    assert_true(d.caps & E810_AQC_PHY_EN_LINK);
    assert_true(le64toh(d.phy_type_low) & E810_PHY_TYPE_LOW_100GBASE_CR4);

    /* Default-config reports need FW API 1.7.3; this firmware is 1.5. */
    assert_int_equal(get_phy_caps(f, E810_AQC_REPORT_DFLT_CFG, &d),
                     E810_AQ_RC_EINVAL);
}

/* ice_configure_phy(): the speed follows the configured types. */
static void test_set_phy_cfg_speed_and_link(void **state)
{
    Fixture *f = *state;
    struct e810_aqc_set_phy_cfg_data c;
    struct e810_aqc_link_status_data ld;
    struct e810_aqc_get_phy_caps_data d;
    struct e810_aq_desc ev;
    uint8_t evbuf[4096];

    link_status(f, &ld, E810_AQ_LSE_ENA);
    assert_int_equal(le16toh(ld.link_speed), E810_AQ_LINK_SPEED_100GB);
    assert_int_equal(le64toh(ld.phy_type_low), E810_PHY_TYPE_LOW_100GBASE_CR4);
    assert_int_equal(ld.cfg & 7, E810_AQ_FEC_RS_528_ENA);

    /* 25G only: the link comes back at 25G; no up/down, so no event. */
    memset(&c, 0, sizeof(c));
    c.phy_type_low = htole64(E810_PHY_TYPE_LOW_25GBASE_CR);
    c.caps = E810_AQ_PHY_ENA_LINK | E810_AQ_PHY_ENA_AUTO_LINK_UPDT;
    assert_int_equal(set_phy_cfg(f, &c), E810_AQ_RC_OK);
    link_status(f, &ld, E810_AQ_LSE_NOP);
    assert_int_equal(le16toh(ld.link_speed), E810_AQ_LINK_SPEED_25GB);
    assert_false(ld.an_info & (E810_AQ_LINK_PAUSE_TX | E810_AQ_LINK_PAUSE_RX));
    assert_int_equal(get_phy_caps(f, E810_AQC_REPORT_ACTIVE_CFG, &d),
                     E810_AQ_RC_OK);
    assert_int_equal(le64toh(d.phy_type_low), E810_PHY_TYPE_LOW_25GBASE_CR);
    assert_false(d.caps & E810_AQ_PHY_ENA_AUTO_LINK_UPDT);

    /* Link disabled: down, and the link status event says so. */
    c.caps = 0;
    assert_int_equal(set_phy_cfg(f, &c), E810_AQ_RC_OK);
    assert_true(aq_event(f->h, &f->aq, &ev, evbuf));
    assert_int_equal(le16toh(ev.opcode), E810_AQC_GET_LINK_STATUS);
    memcpy(&ld, evbuf, sizeof(ld));
    assert_false(ld.link_info & E810_AQ_LINK_UP);
    assert_true(ld.link_info & E810_AQ_MEDIA_AVAILABLE);

    /* A type the cage cannot run, or a reserved caps bit: refused. */
    c.phy_type_low = htole64(1ull << 0);     /* 100BASE-TX */
    c.caps = E810_AQ_PHY_ENA_LINK;
    assert_int_equal(set_phy_cfg(f, &c), E810_AQ_RC_EINVAL);
    c.phy_type_low = htole64(E810_PHY_TYPE_LOW_100GBASE_CR4);
    c.caps = E810_AQ_PHY_ENA_LINK | (1u << 4);
    assert_int_equal(set_phy_cfg(f, &c), E810_AQ_RC_EINVAL);
    link_status(f, &ld, E810_AQ_LSE_NOP);
    assert_false(ld.link_info & E810_AQ_LINK_UP);
}

/* ice_aq_set_link_restart_an(): link enable follows the command. */
static void test_restart_an(void **state)
{
    Fixture *f = *state;
    struct e810_aq_desc d = aq_desc(E810_AQC_RESTART_AN);
    struct e810_aqc_restart_an *p = (void *)d.params.raw;
    struct e810_aqc_link_status_data ld;

    p->cmd_flags = E810_AQC_RESTART_AN_LINK_RESTART;
    assert_int_equal(aq_send(f->h, &f->aq, &d, NULL, 0), E810_AQ_RC_OK);
    link_status(f, &ld, E810_AQ_LSE_NOP);
    assert_false(ld.link_info & E810_AQ_LINK_UP);

    d = aq_desc(E810_AQC_RESTART_AN);
    p = (void *)d.params.raw;
    p->cmd_flags = E810_AQC_RESTART_AN_LINK_RESTART |
                   E810_AQC_RESTART_AN_LINK_ENABLE;
    assert_int_equal(aq_send(f->h, &f->aq, &d, NULL, 0), E810_AQ_RC_OK);
    link_status(f, &ld, E810_AQ_LSE_NOP);
    assert_true(ld.link_info & E810_AQ_LINK_UP);

    /* One port per function. */
    p->lport_num = 1;
    assert_int_equal(aq_send(f->h, &f->aq, &d, NULL, 0), E810_AQ_RC_EINVAL);
}

/* ice_init_pf_dcb() in software mode: PFC mode, then the local MIB. */
static void test_dcb_sw_mode(void **state)
{
    Fixture *f = *state;
    struct e810_aq_desc d = aq_desc(E810_AQC_SET_PFC_MODE);
    struct e810_aqc_set_query_pfc_mode *p = (void *)d.params.raw;
    struct e810_aqc_lldp_set_local_mib *m;
    uint8_t mib[64];

    /* DCBX agent disabled: ice takes the software path. */
    assert_int_equal(FIELD_GET(E810_PRTDCB_GENS_DCBX_STATUS,
                               rd32(f->h, E810_PRTDCB_GENS)),
                     E810_DCBX_STATUS_DIS);

    p->pfc_mode = E810_AQC_PFC_VLAN_BASED_PFC;
    assert_int_equal(aq_send(f->h, &f->aq, &d, NULL, 0), E810_AQ_RC_OK);
    assert_int_equal(p->pfc_mode, E810_AQC_PFC_VLAN_BASED_PFC);
    d = aq_desc(E810_AQC_QUERY_PFC_MODE);
    p = (void *)d.params.raw;
    assert_int_equal(aq_send(f->h, &f->aq, &d, NULL, 0), E810_AQ_RC_OK);
    assert_int_equal(p->pfc_mode, E810_AQC_PFC_VLAN_BASED_PFC);
    d = aq_desc(E810_AQC_SET_PFC_MODE);
    p = (void *)d.params.raw;
    p->pfc_mode = 3;
    assert_int_equal(aq_send(f->h, &f->aq, &d, NULL, 0), E810_AQ_RC_EINVAL);

    memset(mib, 0, sizeof(mib));
    d = aq_desc(E810_AQC_LLDP_SET_LOCAL_MIB);
    d.flags |= htole16(E810_AQ_FLAG_RD);
    m = (void *)d.params.raw;
    m->length = htole16(sizeof(mib));
    assert_int_equal(aq_send(f->h, &f->aq, &d, mib, sizeof(mib)),
                     E810_AQ_RC_OK);
    assert_int_equal(f->h->core.aq.lldp_mib_len, sizeof(mib));
    /* Longer than the buffer that came along: refused, nothing kept. */
    d = aq_desc(E810_AQC_LLDP_SET_LOCAL_MIB);
    d.flags |= htole16(E810_AQ_FLAG_RD);
    m = (void *)d.params.raw;
    m->length = htole16(sizeof(mib) + 1);
    assert_int_equal(aq_send(f->h, &f->aq, &d, mib, sizeof(mib)),
                     E810_AQ_RC_EINVAL);
    assert_int_equal(f->h->core.aq.lldp_mib_sets, 1);
}

/* ---- DCB: the local MIB's ETS configuration and 0x040E ------------------- */

/* An IEEE ETS configuration / recommendation TLV as ice_add_ieee_ets_tlv(). */
static unsigned put_ets_tlv(uint8_t *b, uint8_t subtype, const uint8_t *prio,
                            const uint8_t *bw, const uint8_t *tsa)
{
    unsigned i;

    b[0] = (E810_LLDP_TLV_TYPE_ORG << 1) | (E810_IEEE_ETS_TLV_LEN >> 8);
    b[1] = E810_IEEE_ETS_TLV_LEN & 0xff;
    b[2] = 0x00;
    b[3] = 0x80;
    b[4] = 0xC2;
    b[5] = subtype;
    b[6] = subtype == E810_IEEE_SUBTYPE_ETS_CFG ? 8 : 0;    /* max TCs */
    for (i = 0; i < 4; i++) {
        b[7 + i] = (prio[2 * i] << 4) | prio[2 * i + 1];
    }
    memcpy(b + 11, bw, 8);
    memcpy(b + 19, tsa, 8);
    return 2 + E810_IEEE_ETS_TLV_LEN;
}

/*
 * The LLDPDU ice_dcb_cfg_to_lldp() builds in VLAN mode: ETS configuration,
 * ETS recommendation, PFC, and an APP TLV with @napps entries (none: no
 * TLV); no END TLV. Returns its length.
 */
static unsigned build_mib(uint8_t *b, const uint8_t *prio, const uint8_t *bw,
                          unsigned napps)
{
    static const uint8_t tsa_ets[8] = { 2, 2, 2, 2, 2, 2, 2, 2 };
    unsigned off = 0, i;

    off += put_ets_tlv(b + off, E810_IEEE_SUBTYPE_ETS_CFG, prio, bw, tsa_ets);
    off += put_ets_tlv(b + off, E810_IEEE_SUBTYPE_ETS_REC, prio, bw, tsa_ets);
    b[off++] = E810_LLDP_TLV_TYPE_ORG << 1;
    b[off++] = E810_IEEE_PFC_TLV_LEN;
    b[off++] = 0x00;
    b[off++] = 0x80;
    b[off++] = 0xC2;
    b[off++] = E810_IEEE_SUBTYPE_PFC_CFG;
    b[off++] = 8;           /* PFC capability */
    b[off++] = 0x02;        /* PFC on priority 1 */
    if (napps) {
        b[off++] = E810_LLDP_TLV_TYPE_ORG << 1;
        b[off++] = 5 + 3 * napps;
        b[off++] = 0x00;
        b[off++] = 0x80;
        b[off++] = 0xC2;
        b[off++] = E810_IEEE_SUBTYPE_APP_PRI;
        b[off++] = 0;
        for (i = 0; i < napps; i++) {
            b[off++] = (3 << 5) | 1;    /* priority 3, ethertype */
            b[off++] = 0x89;
            b[off++] = 0x06 + i;
        }
    }
    return off;
}

static uint16_t set_mib(Fixture *f, const uint8_t *mib, unsigned len)
{
    struct e810_aq_desc d = aq_desc(E810_AQC_LLDP_SET_LOCAL_MIB);
    struct e810_aqc_lldp_set_local_mib *m = (void *)d.params.raw;
    uint8_t copy[E810_LLDPDU_SIZE];

    memcpy(copy, mib, len);
    d.flags |= htole16(E810_AQ_FLAG_RD);
    m->length = htole16(len);
    return aq_send(f->h, &f->aq, &d, copy, len);
}

/* ice_aq_query_port_ets(): the root's TEID, a 64-byte answer. */
static void query_ets(Fixture *f, struct e810_aqc_port_ets_elem *e)
{
    struct e810_aq_desc d = aq_desc(E810_AQC_QUERY_PORT_ETS);
    struct e810_aqc_query_port_ets *p = (void *)d.params.raw;

    p->port_teid = htole32(f->h->core.sched.node[0].teid);
    memset(e, 0xA5, sizeof(*e));
    assert_int_equal(aq_send(f->h, &f->aq, &d, e, sizeof(*e)),
                     E810_AQ_RC_OK);
    assert_int_equal(le16toh(d.datalen), sizeof(*e));
}

/* The TC node 0x040E names for @tc: a TC element right under the root. */
static uint32_t check_tc_node(Fixture *f, const struct e810_aqc_port_ets_elem *e,
                              unsigned tc)
{
    uint32_t teid = le32toh(e->tc_node_teid[tc]);
    const E810SchedNode *n = e810_sched_find(&f->h->core, teid);

    assert_non_null(n);
    assert_int_equal(n->layer, E810_SCHED_LAYER_TC);
    assert_int_equal(n->qid, tc);
    assert_int_equal(n->info.elem_type, E810_AQC_ELEM_TYPE_TC);
    assert_int_equal(n->parent, 0);
    return teid;
}

/* ice_dcb_sw_dflt_cfg(): every priority in TC 0 with all the bandwidth. */
static void test_dcb_ets_one_tc(void **state)
{
    Fixture *f = *state;
    static const uint8_t prio[8] = { 0 };
    static const uint8_t bw[8] = { 100 };
    struct e810_aqc_port_ets_elem e;
    uint8_t mib[E810_LLDPDU_SIZE];
    unsigned len = build_mib(mib, prio, bw, 0), tc;
    uint32_t tc0;

    query_ets(f, &e);
    tc0 = check_tc_node(f, &e, 0);
    assert_int_equal(len, 62);
    assert_int_equal(set_mib(f, mib, len), E810_AQ_RC_OK);
    assert_int_equal(f->h->core.aq.lldp_mib_len, len);
    query_ets(f, &e);
    assert_int_equal(e.tc_valid_bits, 0x01);
    assert_int_equal(le32toh(e.up2tc), 0);
    assert_int_equal(e.tc_bw_share[0], 100);
    assert_int_equal(check_tc_node(f, &e, 0), tc0);
    for (tc = 1; tc < 8; tc++) {
        assert_int_equal(e.tc_bw_share[tc], 0);
        assert_int_equal(le32toh(e.tc_node_teid[tc]), E810_SCHED_INVAL_TEID);
    }
    assert_int_equal(f->h->core.sched.layer_nodes[E810_SCHED_LAYER_TC], 1);
}

/* dcb ets set: priorities 0/1/2 in TCs 0/1/2, 50/30/20 percent. */
static void test_dcb_ets_three_tcs(void **state)
{
    Fixture *f = *state;
    static const uint8_t prio[8] = { 0, 1, 2, 0, 0, 0, 0, 0 };
    static const uint8_t bw[8] = { 50, 30, 20 };
    static const uint8_t prio1[8] = { 0 };
    static const uint8_t bw1[8] = { 100, 30, 20 };
    struct e810_aqc_port_ets_elem e;
    uint8_t mib[E810_LLDPDU_SIZE];
    unsigned len = build_mib(mib, prio, bw, 2), tc;
    uint32_t teid[3];

    assert_int_equal(set_mib(f, mib, len), E810_AQ_RC_OK);
    query_ets(f, &e);
    assert_int_equal(e.tc_valid_bits, 0x07);
    /* 3 bits per priority: 1 -> TC 1, 2 -> TC 2. */
    assert_int_equal(le32toh(e.up2tc), (1u << 3) | (2u << 6));
    assert_int_equal(e.tc_bw_share[0], 50);
    assert_int_equal(e.tc_bw_share[1], 30);
    assert_int_equal(e.tc_bw_share[2], 20);
    for (tc = 0; tc < 3; tc++) {
        teid[tc] = check_tc_node(f, &e, tc);
    }
    assert_int_not_equal(teid[0], teid[1]);
    assert_int_not_equal(teid[1], teid[2]);
    for (tc = 3; tc < 8; tc++) {
        assert_int_equal(e.tc_bw_share[tc], 0);
        assert_int_equal(le32toh(e.tc_node_teid[tc]), E810_SCHED_INVAL_TEID);
    }
    assert_int_equal(f->h->core.sched.layer_nodes[E810_SCHED_LAYER_TC], 3);
    /* The same MIB again: the same nodes. */
    assert_int_equal(set_mib(f, mib, len), E810_AQ_RC_OK);
    query_ets(f, &e);
    assert_int_equal(le32toh(e.tc_node_teid[1]), teid[1]);
    assert_int_equal(le32toh(e.tc_node_teid[2]), teid[2]);

    /* Back to one TC (ice_dcb_bwchk() left other shares): TCs 1, 2 go. */
    len = build_mib(mib, prio1, bw1, 0);
    assert_int_equal(set_mib(f, mib, len), E810_AQ_RC_OK);
    query_ets(f, &e);
    assert_int_equal(e.tc_valid_bits, 0x01);
    assert_int_equal(le32toh(e.up2tc), 0);
    assert_int_equal(e.tc_bw_share[0], 100);
    assert_int_equal(e.tc_bw_share[1], 0);
    assert_int_equal(check_tc_node(f, &e, 0), teid[0]);
    assert_null(e810_sched_find(&f->h->core, teid[1]));
    assert_null(e810_sched_find(&f->h->core, teid[2]));

    /* A MIB without ETS (only an END TLV): TC 0 only. */
    len = build_mib(mib, prio, bw, 0);
    assert_int_equal(set_mib(f, mib, len), E810_AQ_RC_OK);
    memset(mib, 0, 2);
    assert_int_equal(set_mib(f, mib, 2), E810_AQ_RC_OK);
    query_ets(f, &e);
    assert_int_equal(e.tc_valid_bits, 0x01);
    assert_int_equal(e.tc_bw_share[0], 100);
}

/* DSCP mode (ice_add_dscp_tc_bw_tlv()): the TCs are those with bandwidth. */
static void test_dcb_dscp_tc_bw(void **state)
{
    Fixture *f = *state;
    struct e810_aqc_port_ets_elem e;
    uint8_t mib[64];

    memset(mib, 0, sizeof(mib));
    mib[0] = E810_LLDP_TLV_TYPE_ORG << 1;
    mib[1] = E810_DSCP_TC_BW_TLV_LEN;
    mib[2] = mib[3] = mib[4] = 0xFF;
    mib[5] = E810_DSCP_SUBTYPE_TCBW;
    mib[6] = 8;
    mib[11] = 60;           /* TC 0 */
    mib[12] = 40;           /* TC 1 */
    assert_int_equal(set_mib(f, mib, 2 + E810_DSCP_TC_BW_TLV_LEN),
                     E810_AQ_RC_OK);
    query_ets(f, &e);
    assert_int_equal(e.tc_valid_bits, 0x03);
    assert_int_equal(le32toh(e.up2tc), 0);
    assert_int_equal(e.tc_bw_share[0], 60);
    assert_int_equal(e.tc_bw_share[1], 40);
    check_tc_node(f, &e, 1);
    /* Wrong length for its subtype. */
    mib[1] = E810_DSCP_TC_BW_TLV_LEN - 1;
    assert_int_equal(set_mib(f, mib, 1 + E810_DSCP_TC_BW_TLV_LEN),
                     E810_AQ_RC_EINVAL);
}

/* Malformed MIBs: EINVAL, and the applied configuration stays. */
static void test_dcb_bad_mib(void **state)
{
    Fixture *f = *state;
    static const uint8_t prio[8] = { 0, 1, 2, 0, 0, 0, 0, 0 };
    static const uint8_t bw[8] = { 50, 30, 20 };
    static const uint8_t prio1[8] = { 0 };
    static const uint8_t bw1[8] = { 100 };
    struct e810_aqc_port_ets_elem before, after;
    uint8_t good[E810_LLDPDU_SIZE], one[E810_LLDPDU_SIZE];
    uint8_t bad[E810_LLDPDU_SIZE];
    unsigned len = build_mib(good, prio, bw, 1);
    unsigned len1 = build_mib(one, prio1, bw1, 0);
    uint64_t sets;
    uint16_t nodes;

    assert_int_equal(set_mib(f, good, len), E810_AQ_RC_OK);
    query_ets(f, &before);
    sets = f->h->core.aq.lldp_mib_sets;
    nodes = f->h->core.sched.num_nodes;

#define REFUSED(buf, n) do { \
        assert_int_equal(set_mib(f, (buf), (n)), E810_AQ_RC_EINVAL); \
        query_ets(f, &after); \
        assert_memory_equal(&before, &after, sizeof(before)); \
        assert_int_equal(f->h->core.aq.lldp_mib_sets, sets); \
        assert_int_equal(f->h->core.sched.num_nodes, nodes); \
    } while (0)

    /* The one-TC MIB with its last TLV running past the MIB. */
    memcpy(bad, one, len1);
    REFUSED(bad, len1 - 1);
    /* A dangling byte after the last TLV. */
    bad[len1] = 0;
    REFUSED(bad, len1 + 1);
    /* ETS configuration one byte short (and the chain re-synced). */
    memcpy(bad, one, len1);
    bad[1] = E810_IEEE_ETS_TLV_LEN - 1;
    REFUSED(bad, len1);
    /* Priority 3 in TC 8. */
    memcpy(bad, one, len1);
    bad[8] = 0x08;
    REFUSED(bad, len1);
    /* A TC with 101 percent. */
    memcpy(bad, one, len1);
    bad[11] = 101;
    REFUSED(bad, len1);
    /* Two ETS configuration TLVs. */
    memcpy(bad, one, len1);
    memcpy(bad + len1, one, 2 + E810_IEEE_ETS_TLV_LEN);
    REFUSED(bad, len1 + 2 + E810_IEEE_ETS_TLV_LEN);
    /* An END TLV with a length. */
    memcpy(bad, one, len1);
    bad[len1] = 0;
    bad[len1 + 1] = 1;
    bad[len1 + 2] = 0;
    REFUSED(bad, len1 + 3);
    /* An organizational TLV too short for its OUI. */
    bad[0] = E810_LLDP_TLV_TYPE_ORG << 1;
    bad[1] = 3;
    REFUSED(bad, 5);
    /* APP TLV with a partial entry. */
    memcpy(bad, good, len);
    bad[len - 3 - 7 + 1] += 1;
    bad[len] = 0;
    REFUSED(bad, len + 1);
    /* PFC capability of 9 classes. */
    memcpy(bad, one, len1);
    bad[2 * (2 + E810_IEEE_ETS_TLV_LEN) + 6] = 9;
    REFUSED(bad, len1);
#undef REFUSED

    /* The unchanged good MIBs still apply. */
    assert_int_equal(set_mib(f, one, len1), E810_AQ_RC_OK);
    query_ets(f, &after);
    assert_int_equal(after.tc_valid_bits, 0x01);
}

/*
 * 0x06E0 as ice_find_netlist_node() / ice_is_pf_c827() /
 * ice_get_port_topology() send it.
 */
static uint16_t link_topo(Fixture *f, uint8_t type, uint8_t ctx, uint8_t idx,
                          struct e810_aqc_get_link_topo *out)
{
    struct e810_aq_desc d = aq_desc(E810_AQC_GET_LINK_TOPO);
    struct e810_aqc_get_link_topo *p = (void *)d.params.raw;
    uint16_t rc;

    p->node_type_ctx = FIELD_PREP(E810_AQC_LINK_TOPO_NODE_TYPE_M, type) |
                       FIELD_PREP(E810_AQC_LINK_TOPO_NODE_CTX_M, ctx);
    p->index = idx;
    if (out) {
        p->lport_num = out->lport_num;
        p->lport_num_valid = out->lport_num_valid;
    }
    rc = aq_send(f->h, &f->aq, &d, NULL, 0);
    if (out) {
        memcpy(out, d.params.raw, sizeof(*out));
    }
    return rc;
}

static void test_link_topo(void **state)
{
    Fixture *f = *state;
    struct e810_aqc_get_link_topo t;

    /* ice_is_pf_c827() on 8086:1592: the port's PHY, no C827. */
    assert_int_equal(link_topo(f, E810_AQC_LINK_TOPO_NODE_TYPE_PHY,
                               E810_AQC_LINK_TOPO_NODE_CTX_PORT, 0, NULL),
                     E810_AQ_RC_ENOENT);
    /* CGU (clock controller 9), clock mux (10), GNSS (11): none. */
    assert_int_equal(link_topo(f, 9, E810_AQC_LINK_TOPO_NODE_CTX_GLOBAL, 0,
                               NULL), E810_AQ_RC_ENOENT);
    assert_int_equal(link_topo(f, 10, E810_AQC_LINK_TOPO_NODE_CTX_GLOBAL, 0,
                               NULL), E810_AQ_RC_ENOENT);
    assert_int_equal(link_topo(f, E810_AQC_LINK_TOPO_NODE_TYPE_GPS,
                               E810_AQC_LINK_TOPO_NODE_CTX_GLOBAL, 0, NULL),
                     E810_AQ_RC_ENOENT);
    /* The port's cage: a QSFP28 (ice_get_port_topology()). */
    memset(&t, 0, sizeof(t));
    assert_int_equal(link_topo(f, E810_AQC_LINK_TOPO_NODE_TYPE_CAGE,
                               E810_AQC_LINK_TOPO_NODE_CTX_PORT, 0, &t),
                     E810_AQ_RC_OK);
    assert_int_equal(t.node_part_num, E810_AQC_LINK_TOPO_PART_QSFP28);
    assert_int_equal(link_topo(f, E810_AQC_LINK_TOPO_NODE_TYPE_CAGE,
                               E810_AQC_LINK_TOPO_NODE_CTX_PORT, 1, NULL),
                     E810_AQ_RC_ENOENT);
    /* Bad parameters. */
    memset(&t, 0, sizeof(t));
    t.lport_num = 1;
    t.lport_num_valid = E810_AQC_LINK_TOPO_PORT_NUM_VALID;
    assert_int_equal(link_topo(f, E810_AQC_LINK_TOPO_NODE_TYPE_CAGE,
                               E810_AQC_LINK_TOPO_NODE_CTX_PORT, 0, &t),
                     E810_AQ_RC_EINVAL);
    memset(&t, 0, sizeof(t));
    t.lport_num_valid = 0x80;
    assert_int_equal(link_topo(f, E810_AQC_LINK_TOPO_NODE_TYPE_CAGE,
                               E810_AQC_LINK_TOPO_NODE_CTX_PORT, 0, &t),
                     E810_AQ_RC_EINVAL);
    assert_int_equal(link_topo(f, 12, E810_AQC_LINK_TOPO_NODE_CTX_PORT, 0,
                               NULL), E810_AQ_RC_EINVAL);
    assert_int_equal(link_topo(f, E810_AQC_LINK_TOPO_NODE_TYPE_PHY, 6, 0,
                               NULL), E810_AQ_RC_EINVAL);
}

/* 0x06EA for lane @lport (< 0: the function's own), as ice sends it. */
static uint16_t port_options(Fixture *f, int lport,
                             struct e810_aqc_get_port_options *out,
                             struct e810_aqc_get_port_options_elem *opts,
                             unsigned nopts)
{
    struct e810_aq_desc d = aq_desc(E810_AQC_GET_PORT_OPTIONS);
    struct e810_aqc_get_port_options *p = (void *)d.params.raw;
    uint16_t rc;

    if (lport >= 0) {
        p->lport_num = lport;
        p->lport_num_valid = E810_AQC_PORT_OPT_LPORT_VALID;
    }
    memset(opts, 0xee, nopts * sizeof(*opts));
    rc = aq_send(f->h, &f->aq, &d, opts, nopts * sizeof(*opts));
    memcpy(out, d.params.raw, sizeof(*out));
    return rc;
}

/*
 * ice_get_phy_lane_number() (the 7.x ice, at every probe): lanes 0.. in
 * turn, the pf_id-th with an active option of a real speed is the
 * function's. Before 0x06EA existed in the model it was ESRCH and ice's
 * hw->lane_num an error.
 */
static int lane_of(Harness *h, AqDriver *aq, unsigned pf_id)
{
    Fixture f = { .h = h };
    struct e810_aqc_get_port_options p;
    struct e810_aqc_get_port_options_elem o[16];
    unsigned lane, lport = 0;

    f.aq = *aq;
    for (lane = 0; lane < E810_AQC_PORT_OPT_LPORTS; lane++) {
        if (port_options(&f, lane, &p, o, 16) != E810_AQ_RC_OK) {
            *aq = f.aq;
            return -1;
        }
        if (!(p.port_options & E810_AQC_PORT_OPT_VALID) ||
            (o[p.port_options & E810_AQC_PORT_OPT_ACTIVE_M].max_lane_speed &
             0xf) > E810_AQC_PORT_OPT_MAX_LANE_40G) {
            continue;
        }
        if (lport++ == pf_id) {
            *aq = f.aq;
            return lane;
        }
    }
    *aq = f.aq;
    return -1;
}

static void test_port_options(void **state)
{
    Fixture *f = *state;
    struct e810_aqc_get_port_options p;
    struct e810_aqc_get_port_options_elem o[16];
    Harness *h1;
    AqDriver aq1;

    assert_int_equal(port_options(f, 0, &p, o, 16), E810_AQ_RC_OK);
    assert_int_equal(p.port_options_count & E810_AQC_PORT_OPT_COUNT_M, 1);
    assert_int_equal(p.port_options, E810_AQC_PORT_OPT_VALID | 0);
    assert_int_equal(p.pending_port_option_status, 0);
    assert_int_equal(o[0].pmd, 1);
    assert_int_equal(o[0].max_lane_speed, E810_AQC_PORT_OPT_MAX_LANE_100G);
    /* Its own lane without lport_num; a lane it does not know: no speed. */
    assert_int_equal(port_options(f, -1, &p, o, 16), E810_AQ_RC_OK);
    assert_int_equal(o[0].max_lane_speed, E810_AQC_PORT_OPT_MAX_LANE_100G);
    assert_int_equal(port_options(f, 1, &p, o, 16), E810_AQ_RC_OK);
    assert_int_equal(o[0].max_lane_speed, E810_AQC_PORT_OPT_MAX_LANE_NONE);
    assert_int_equal(lane_of(f->h, &f->aq, 0), 0);
    /* Bad parameters: a lane beyond the device, no room for an option. */
    assert_int_equal(port_options(f, E810_AQC_PORT_OPT_LPORTS, &p, o, 16),
                     E810_AQ_RC_EINVAL);
    assert_int_equal(port_options(f, 0, &p, o, 0), E810_AQ_RC_EINVAL);

    /* Function 1 finds lane 1 the way ice does. */
    h1 = harness_new(1);
    assert_non_null(h1);
    aq_init(h1, &aq1);
    assert_int_equal(lane_of(h1, &aq1, 1), 1);
    harness_free(h1);
}

static uint16_t fwlog_query(Fixture *f, struct e810_aqc_fw_log *out,
                            struct e810_aqc_fw_log_module *mods)
{
    struct e810_aq_desc d = aq_desc(E810_AQC_FW_LOGS_QUERY);
    uint16_t rc;

    rc = aq_send(f->h, &f->aq, &d, mods,
                 E810_FW_LOG_MODULES * sizeof(*mods));
    memcpy(out, d.params.raw, sizeof(*out));
    return rc;
}

/* ice_fwlog_init() / ice_fwlog_deinit(): query, set, register. */
static void test_fw_logging(void **state)
{
    Fixture *f = *state;
    struct e810_aqc_fw_log_module mods[E810_FW_LOG_MODULES];
    struct e810_aqc_fw_log r;
    struct e810_aq_desc d;
    struct e810_aqc_fw_log *p;

    assert_int_equal(fwlog_query(f, &r, mods), E810_AQ_RC_OK);
    assert_int_equal(le16toh(r.mdl_cnt), E810_FW_LOG_MODULES);
    assert_int_equal(le16toh(mods[5].module_identifier), 5);
    assert_int_equal(mods[5].log_level, 0);
    assert_false(r.cmd_flags & E810_AQC_FW_LOG_QUERY_REGISTERED);

    /* Module 5 verbose, logs over the ARQ, resolution 20. */
    memset(mods, 0, sizeof(mods[0]));
    mods[0].module_identifier = htole16(5);
    mods[0].log_level = E810_FW_LOG_LEVEL_MAX;
    d = aq_desc(E810_AQC_FW_LOGS_CONFIG);
    d.flags |= htole16(E810_AQ_FLAG_RD);
    p = (void *)d.params.raw;
    p->cmd_flags = E810_AQC_FW_LOG_CONF_SET_VALID | E810_AQC_FW_LOG_CONF_AQ_EN;
    p->log_resolution = htole16(20);
    p->mdl_cnt = htole16(1);
    assert_int_equal(aq_send(f->h, &f->aq, &d, mods, sizeof(mods[0])),
                     E810_AQ_RC_OK);
    d = aq_desc(E810_AQC_FW_LOGS_REGISTER);
    ((struct e810_aqc_fw_log *)d.params.raw)->cmd_flags =
        E810_AQC_FW_LOG_AQ_REGISTER;
    assert_int_equal(aq_send(f->h, &f->aq, &d, NULL, 0), E810_AQ_RC_OK);

    assert_int_equal(fwlog_query(f, &r, mods), E810_AQ_RC_OK);
    assert_int_equal(mods[5].log_level, E810_FW_LOG_LEVEL_MAX);
    assert_int_equal(le16toh(r.log_resolution), 20);
    assert_true(r.cmd_flags & E810_AQC_FW_LOG_CONF_AQ_EN);
    assert_true(r.cmd_flags & E810_AQC_FW_LOG_QUERY_REGISTERED);

    /* A module id or level out of range changes nothing. */
    mods[0].module_identifier = htole16(E810_FW_LOG_MODULES);
    mods[0].log_level = 1;
    mods[1].module_identifier = htole16(6);
    mods[1].log_level = 1;
    d = aq_desc(E810_AQC_FW_LOGS_CONFIG);
    d.flags |= htole16(E810_AQ_FLAG_RD);
    p = (void *)d.params.raw;
    p->cmd_flags = E810_AQC_FW_LOG_CONF_SET_VALID;
    p->log_resolution = htole16(20);
    p->mdl_cnt = htole16(2);
    assert_int_equal(aq_send(f->h, &f->aq, &d, mods, 2 * sizeof(mods[0])),
                     E810_AQ_RC_EINVAL);
    assert_int_equal(fwlog_query(f, &r, mods), E810_AQ_RC_OK);
    assert_int_equal(mods[6].log_level, 0);
    assert_true(r.cmd_flags & E810_AQC_FW_LOG_CONF_AQ_EN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
        T(test_phy_caps_topology_and_active),
        T(test_set_phy_cfg_speed_and_link),
        T(test_restart_an),
        T(test_dcb_sw_mode),
        T(test_dcb_ets_one_tc),
        T(test_dcb_ets_three_tcs),
        T(test_dcb_dscp_tc_bw),
        T(test_dcb_bad_mib),
        T(test_link_topo),
        T(test_port_options),
        T(test_fw_logging),
#undef T
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_port", tests, NULL, NULL);
}
