/*
 * Device model: the switch (switch config, resources, VSIs, rules, RSS)
 * driven the way ice drives it, and the Rx steering those settings make.
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

#define PF_ID   1

typedef struct Fixture {
    Harness *h;
    AqDriver aq;
} Fixture;

static int setup(void **state)
{
    Fixture *f = calloc(1, sizeof(*f));

    f->h = harness_new(PF_ID);
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

/* The Microsoft RSS verification key. */
static const uint8_t ms_key[40] = {
    0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67,
    0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb,
    0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30,
    0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

static const uint8_t our_mac[6] = { 0x52, 0x54, 0x00, 0xe8, 0x10, PF_ID };
static const uint8_t bcast_mac_t[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

/* ---- helpers: the commands as ice builds them ------------------------ */

/* Adds a VSI of @count queues from @first, TC 0 2^@pow, LUT type @lut. */
static uint16_t add_vsi_rc(Fixture *f, unsigned type, unsigned first,
                           unsigned count, unsigned pow, unsigned lut,
                           uint16_t *num)
{
    struct e810_aq_desc d = aq_desc(E810_AQC_ADD_VSI);
    struct e810_aqc_add_update_free_vsi *p = (void *)d.params.raw;
    struct e810_aqc_add_update_free_vsi_resp *r = (void *)d.params.raw;
    struct e810_aqc_vsi_props props;
    uint16_t rc;

    memset(&props, 0, sizeof(props));
    props.valid_sections = htole16(E810_AQ_VSI_PROP_SW_VALID |
                                   E810_AQ_VSI_PROP_RXQ_MAP_VALID |
                                   E810_AQ_VSI_PROP_Q_OPT_VALID);
    props.q_mapping[0] = htole16(first);
    props.q_mapping[1] = htole16(count);
    props.tc_mapping[0] = htole16(FIELD_PREP(E810_AQ_VSI_TC_Q_NUM, pow));
    props.q_opt_rss = FIELD_PREP(E810_AQ_VSI_Q_OPT_RSS_LUT, lut);
    p->vsi_flags = htole16(FIELD_PREP(E810_AQ_VSI_TYPE, type));
    rc = aq_send(f->h, &f->aq, &d, &props, sizeof(props));
    if (num) {
        *num = le16toh(r->vsi_num) & E810_AQ_VSI_NUM;
    }
    return rc;
}

static uint16_t add_pf_vsi(Fixture *f, unsigned count, unsigned pow)
{
    uint16_t num;

    assert_int_equal(add_vsi_rc(f, E810_AQ_VSI_TYPE_PF, 0, count, pow,
                                E810_AQ_VSI_Q_OPT_RSS_LUT_PF, &num),
                     E810_AQ_RC_OK);
    return num;
}

static uint16_t vsi_cmd(Fixture *f, uint16_t opc, uint16_t num,
                        struct e810_aqc_vsi_props *props)
{
    struct e810_aq_desc d = aq_desc(opc);
    struct e810_aqc_add_update_free_vsi *p = (void *)d.params.raw;

    p->vsi_num = htole16(num | E810_AQ_VSI_IS_VALID);
    return aq_send(f->h, &f->aq, &d, props, props ? sizeof(*props) : 0);
}

typedef struct {
    struct e810_sw_rule_lkup r;
    uint8_t hdr[16];
} __attribute__((packed)) LkupRule;

/* A lookup rule as ice_fill_sw_rule() builds it. */
static LkupRule lkup(bool tx, uint16_t recipe, uint16_t src, uint32_t act,
                     const uint8_t *da, int ethertype, int vid)
{
    static const uint8_t dummy[16] = { 2, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0,
                                       0x81, 0, 0, 0 };
    LkupRule l;

    memset(&l, 0, sizeof(l));
    memcpy(l.hdr, dummy, sizeof(dummy));
    l.r.hdr.type = htole16(tx ? E810_SW_RULE_LKUP_TX : E810_SW_RULE_LKUP_RX);
    l.r.recipe_id = htole16(recipe);
    l.r.src = htole16(src);
    l.r.act = htole32(act);
    l.r.hdr_len = htole16(16);
    if (da) {
        memcpy(l.hdr, da, 6);
    }
    if (ethertype >= 0) {
        l.hdr[12] = ethertype >> 8;
        l.hdr[13] = ethertype & 0xff;
    }
    if (vid >= 0) {
        l.hdr[12] = 0x81;
        l.hdr[13] = 0;
        l.hdr[14] = vid >> 8;
        l.hdr[15] = vid & 0xff;
    }
    return l;
}

static uint32_t fwd(uint16_t vsi)
{
    return FIELD_PREP(E810_SW_ACT_VSI_ID, vsi) | E810_SW_ACT_VALID |
           E810_SW_ACT_LB_ENABLE | E810_SW_ACT_LAN_ENABLE;
}

static uint16_t rule_add(Fixture *f, LkupRule *l)
{
    struct e810_aq_desc d = aq_desc(E810_AQC_ADD_SW_RULES);

    ((struct e810_aqc_sw_rules *)d.params.raw)->num_rules = htole16(1);
    d.flags |= htole16(E810_AQ_FLAG_RD);
    return aq_send(f->h, &f->aq, &d, l, sizeof(*l));
}

/* Adds @l and returns its rule index (asserting success). */
static uint16_t rule_add_ok(Fixture *f, LkupRule l)
{
    assert_int_equal(rule_add(f, &l), E810_AQ_RC_OK);
    assert_int_equal(le16toh(l.r.hdr.status), 0);
    return le16toh(l.r.index);
}

/* ice_remove_rule_internal(): only the 16 bytes without header. */
static uint16_t rule_remove(Fixture *f, uint16_t idx, bool tx)
{
    struct e810_aq_desc d = aq_desc(E810_AQC_REMOVE_SW_RULES);
    struct e810_sw_rule_lkup r;

    memset(&r, 0, sizeof(r));
    r.hdr.type = htole16(tx ? E810_SW_RULE_LKUP_TX : E810_SW_RULE_LKUP_RX);
    r.index = htole16(idx);
    ((struct e810_aqc_sw_rules *)d.params.raw)->num_rules = htole16(1);
    return aq_send(f->h, &f->aq, &d, &r, sizeof(r));
}

static uint16_t res_cmd(Fixture *f, uint16_t opc, uint16_t type,
                        uint16_t *id)
{
    struct e810_aq_desc d = aq_desc(opc);
    struct {
        struct e810_aqc_alloc_free_res_elem h;
        __le16 id;
    } b = { { htole16(type), htole16(1) }, htole16(*id) };
    uint16_t rc;

    ((struct e810_aqc_alloc_free_res *)d.params.raw)->num_entries = htole16(1);
    rc = aq_send(f->h, &f->aq, &d, &b, sizeof(b));
    if (opc == E810_AQC_ALLOC_RES && rc == E810_AQ_RC_OK) {
        *id = le16toh(b.id);
    }
    return rc;
}

static uint16_t vsi_list_set(Fixture *f, uint16_t type, uint16_t list,
                             uint16_t vsi)
{
    struct e810_aq_desc d = aq_desc(E810_AQC_ADD_SW_RULES);
    struct {
        struct e810_sw_rule_vsi_list l;
        __le16 vsi;
    } __attribute__((packed)) b;

    b.l.hdr.type = htole16(type);
    b.l.hdr.status = 0;
    b.l.index = htole16(list);
    b.l.number_vsi = htole16(1);
    b.vsi = htole16(vsi);
    ((struct e810_aqc_sw_rules *)d.params.raw)->num_rules = htole16(1);
    return aq_send(f->h, &f->aq, &d, &b, sizeof(b));
}

/* ---- frames --------------------------------------------------------- */

static size_t eth(uint8_t *b, const uint8_t *da, uint16_t type)
{
    memcpy(b, da, 6);
    memcpy(b + 6, (const uint8_t[6]){ 0x02, 0xaa, 0, 0, 0, 1 }, 6);
    b[12] = type >> 8;
    b[13] = type & 0xff;
    return 14;
}

static size_t tcp4(uint8_t *b, const uint8_t *da, const uint8_t src[4],
                   const uint8_t dst[4], uint16_t sp, uint16_t dp)
{
    size_t o = eth(b, da, 0x0800);

    memset(b + o, 0, 40);
    b[o] = 0x45;
    b[o + 3] = 40;
    b[o + 8] = 64;
    b[o + 9] = 6;
    memcpy(b + o + 12, src, 4);
    memcpy(b + o + 16, dst, 4);
    b[o + 20] = sp >> 8;
    b[o + 21] = sp & 0xff;
    b[o + 22] = dp >> 8;
    b[o + 23] = dp & 0xff;
    return o + 40;
}

static bool rx(Fixture *f, const uint8_t *b, size_t len, uint16_t *q,
               uint32_t *hash, bool *valid)
{
    uint16_t q0;
    uint32_t h0;
    bool v0;

    return e810_switch_rx_dest(&f->h->core, b, len, q ? q : &q0,
                               hash ? hash : &h0, valid ? valid : &v0);
}

static bool rx_to(Fixture *f, const uint8_t *da)
{
    uint8_t b[64] = { 0 };

    eth(b, da, 0x0800);
    return rx(f, b, 60, NULL, NULL, NULL);
}

/* ---- tests ------------------------------------------------------------ */

/* ice_get_initial_sw_cfg(): one physical port element, no more chunks. */
static void test_get_sw_cfg(void **state)
{
    Fixture *f = *state;
    struct e810_aq_desc d = aq_desc(E810_AQC_GET_SW_CFG);
    struct e810_aqc_get_sw_cfg *p = (void *)d.params.raw;
    uint8_t buf[2048];
    static const uint8_t want[6] = { 0x00, 0x00, PF_ID, 0x00, PF_ID, 0x00 };

    memset(buf, 0xee, sizeof(buf));
    assert_int_equal(aq_send(f->h, &f->aq, &d, buf, sizeof(buf)),
                     E810_AQ_RC_OK);
    assert_int_equal(le16toh(p->num_elems), 1);
    assert_int_equal(le16toh(p->element), 0);
    assert_int_equal(le16toh(d.datalen), 6);
    assert_memory_equal(buf, want, sizeof(want));

    /* A continuation that does not exist. */
    d = aq_desc(E810_AQC_GET_SW_CFG);
    ((struct e810_aqc_get_sw_cfg *)d.params.raw)->element = htole16(1);
    assert_int_equal(aq_send(f->h, &f->aq, &d, buf, sizeof(buf)),
                     E810_AQ_RC_EINVAL);
}

static void test_set_port_params(void **state)
{
    Fixture *f = *state;
    struct e810_aq_desc d = aq_desc(E810_AQC_SET_PORT_PARAMS);
    struct e810_aqc_set_port_params *p = (void *)d.params.raw;

    p->swid = htole16(PF_ID | E810_AQC_PORT_SWID_VALID);
    p->local_fwd_mode = E810_AQC_PORT_FWD_MODE_VALID;
    assert_int_equal(aq_send(f->h, &f->aq, &d, NULL, 0), E810_AQ_RC_OK);
    assert_false(f->h->core.sw.double_vlan);
    /* Another PF's switch id. */
    d = aq_desc(E810_AQC_SET_PORT_PARAMS);
    p->swid = htole16((PF_ID + 1) | E810_AQC_PORT_SWID_VALID);
    assert_int_equal(aq_send(f->h, &f->aq, &d, NULL, 0), E810_AQ_RC_EINVAL);
}

/* ice_alloc_fd_res_cntr() in ice_init_hw(), and VSI lists. */
static void test_alloc_free_res(void **state)
{
    Fixture *f = *state;
    struct e810_aq_desc d = aq_desc(E810_AQC_ALLOC_RES);
    uint8_t b[6] = { E810_AQC_RES_FD_COUNTER_BLOCK, 0, 1, 0, 0, 0 };
    static const uint8_t want[6] = { E810_AQC_RES_FD_COUNTER_BLOCK, 0, 1, 0,
                                     PF_ID * E810_SW_NUM_FD_CNT_BLK, 0 };
    uint16_t id = 0, l1 = 0, l2 = 0;

    ((struct e810_aqc_alloc_free_res *)d.params.raw)->num_entries = htole16(1);
    assert_int_equal(aq_send(f->h, &f->aq, &d, b, sizeof(b)), E810_AQ_RC_OK);
    assert_memory_equal(b, want, sizeof(want));
    id = b[4];
    assert_int_equal(res_cmd(f, E810_AQC_FREE_RES,
                             E810_AQC_RES_FD_COUNTER_BLOCK, &id),
                     E810_AQ_RC_OK);
    assert_int_equal(res_cmd(f, E810_AQC_FREE_RES,
                             E810_AQC_RES_FD_COUNTER_BLOCK, &id),
                     E810_AQ_RC_ENOENT);

    /* Two VSI lists get two ids; freeing as the wrong kind fails. */
    assert_int_equal(res_cmd(f, E810_AQC_ALLOC_RES, E810_AQC_RES_VSI_LIST_REP,
                             &l1), E810_AQ_RC_OK);
    assert_int_equal(res_cmd(f, E810_AQC_ALLOC_RES,
                             E810_AQC_RES_VSI_LIST_PRUNE |
                             E810_AQC_RES_FLAG_SHARED, &l2), E810_AQ_RC_OK);
    assert_int_not_equal(l1, l2);
    assert_int_equal(res_cmd(f, E810_AQC_FREE_RES, E810_AQC_RES_VSI_LIST_PRUNE,
                             &l1), E810_AQ_RC_ENOENT);
    assert_int_equal(res_cmd(f, E810_AQC_FREE_RES, E810_AQC_RES_VSI_LIST_REP,
                             &l1), E810_AQ_RC_OK);

    /* Hash profile ids: top first, bottom with SCAN_BOTTOM. */
    id = 0;
    assert_int_equal(res_cmd(f, E810_AQC_ALLOC_RES, E810_AQC_RES_HASH_PROF_ID,
                             &id), E810_AQ_RC_OK);
    assert_int_equal(id, 0);
    assert_int_equal(res_cmd(f, E810_AQC_ALLOC_RES, E810_AQC_RES_HASH_TCAM |
                             E810_AQC_RES_FLAG_SCAN_BOTTOM, &id),
                     E810_AQ_RC_OK);
    assert_int_equal(id, E810_SW_NUM_PROF - 1);

    /* Unknown type, two entries, a buffer shorter than num_elems. */
    assert_int_equal(res_cmd(f, E810_AQC_ALLOC_RES, 0x7f, &id),
                     E810_AQ_RC_EINVAL);
    d = aq_desc(E810_AQC_ALLOC_RES);
    ((struct e810_aqc_alloc_free_res *)d.params.raw)->num_entries = htole16(2);
    assert_int_equal(aq_send(f->h, &f->aq, &d, b, sizeof(b)),
                     E810_AQ_RC_EINVAL);
    d = aq_desc(E810_AQC_ALLOC_RES);
    ((struct e810_aqc_alloc_free_res *)d.params.raw)->num_entries = htole16(1);
    b[0] = E810_AQC_RES_VSI_LIST_REP;
    b[2] = 200;
    assert_int_equal(aq_send(f->h, &f->aq, &d, b, sizeof(b)),
                     E810_AQ_RC_EINVAL);
}

static void test_vsi_add_update_get_free(void **state)
{
    Fixture *f = *state;
    struct e810_aqc_vsi_props props;
    struct e810_aq_desc d;
    uint16_t pf, lb;

    pf = add_pf_vsi(f, 4, 2);
    assert_true(f->h->core.aq.vsi_allocated);
    /* The loopback VSI of the self test is a second PF-type VSI. */
    assert_int_equal(add_vsi_rc(f, E810_AQ_VSI_TYPE_PF, 4, 1, 0,
                                E810_AQ_VSI_Q_OPT_RSS_LUT_VSI, &lb),
                     E810_AQ_RC_OK);
    assert_int_not_equal(pf, lb);
    /* VF VSIs need VFs; a queue range past the device's is refused. */
    assert_int_equal(add_vsi_rc(f, E810_AQ_VSI_TYPE_VF, 0, 1, 0, 0, NULL),
                     E810_AQ_RC_EINVAL);
    assert_int_equal(add_vsi_rc(f, E810_AQ_VSI_TYPE_PF, 2047, 2, 0, 0, NULL),
                     E810_AQ_RC_EINVAL);

    /* Update only the queue options: the queue map stays. */
    memset(&props, 0, sizeof(props));
    props.valid_sections = htole16(E810_AQ_VSI_PROP_Q_OPT_VALID);
    props.q_opt_flags = E810_AQ_VSI_Q_OPT_PE_FLTR_EN;
    props.q_opt_rss = E810_AQ_VSI_Q_OPT_RSS_LUT_PF;    /* whole section */
    props.q_mapping[1] = htole16(99);
    assert_int_equal(vsi_cmd(f, E810_AQC_UPDATE_VSI, pf, &props),
                     E810_AQ_RC_OK);
    assert_true(f->h->core.aq.pe_filter);
    memset(&props, 0, sizeof(props));
    assert_int_equal(vsi_cmd(f, E810_AQC_GET_VSI_PARAMS, pf, &props),
                     E810_AQ_RC_OK);
    assert_int_equal(le16toh(props.q_mapping[0]), 0);
    assert_int_equal(le16toh(props.q_mapping[1]), 4);
    assert_int_equal(FIELD_GET(E810_AQ_VSI_TC_Q_NUM,
                               le16toh(props.tc_mapping[0])), 2);
    assert_int_equal(props.q_opt_flags, E810_AQ_VSI_Q_OPT_PE_FLTR_EN);
    assert_int_equal(props.q_opt_rss, E810_AQ_VSI_Q_OPT_RSS_LUT_PF);

    /* Free: used/free counts in the answer, then it is gone. */
    d = aq_desc(E810_AQC_FREE_VSI);
    ((struct e810_aqc_add_update_free_vsi *)d.params.raw)->vsi_num =
        htole16(lb | E810_AQ_VSI_IS_VALID);
    assert_int_equal(aq_send(f->h, &f->aq, &d, NULL, 0), E810_AQ_RC_OK);
    assert_int_equal(le16toh(((struct e810_aqc_add_update_free_vsi_resp *)
                              d.params.raw)->vsi_used), 1);
    assert_int_equal(vsi_cmd(f, E810_AQC_GET_VSI_PARAMS, lb, &props),
                     E810_AQ_RC_ENOENT);
    assert_int_equal(vsi_cmd(f, E810_AQC_FREE_VSI, pf, NULL), E810_AQ_RC_OK);
    assert_false(f->h->core.aq.vsi_allocated);
    assert_false(f->h->core.aq.pe_filter);
}

/* ice_vsi_init() adds with only some sections valid: add takes it all. */
static void test_vsi_add_takes_whole_context(void **state)
{
    Fixture *f = *state;
    struct e810_aq_desc d = aq_desc(E810_AQC_ADD_VSI);
    struct e810_aqc_add_update_free_vsi_resp *r = (void *)d.params.raw;
    struct e810_aqc_vsi_props props, got;

    memset(&props, 0, sizeof(props));
    props.valid_sections = htole16(E810_AQ_VSI_PROP_SECURITY_VALID);
    props.q_mapping[0] = htole16(8);
    props.q_mapping[1] = htole16(8);
    props.tc_mapping[0] = htole16(FIELD_PREP(E810_AQ_VSI_TC_Q_NUM, 3));
    props.q_opt_rss = E810_AQ_VSI_Q_OPT_RSS_LUT_PF;
    ((struct e810_aqc_add_update_free_vsi *)d.params.raw)->vsi_flags =
        htole16(FIELD_PREP(E810_AQ_VSI_TYPE, E810_AQ_VSI_TYPE_PF));
    assert_int_equal(aq_send(f->h, &f->aq, &d, &props, sizeof(props)),
                     E810_AQ_RC_OK);
    memset(&got, 0, sizeof(got));
    assert_int_equal(vsi_cmd(f, E810_AQC_GET_VSI_PARAMS,
                             le16toh(r->vsi_num) & E810_AQ_VSI_NUM, &got),
                     E810_AQ_RC_OK);
    assert_memory_equal(&got.mapping_flags, &props.mapping_flags, 50);
    assert_int_equal(got.q_opt_rss, E810_AQ_VSI_Q_OPT_RSS_LUT_PF);
}

static void test_free_vsi_takes_its_rules(void **state)
{
    Fixture *f = *state;
    uint16_t vsi = add_pf_vsi(f, 1, 0);
    uint16_t idx = rule_add_ok(f, lkup(true, E810_SW_LKUP_MAC, vsi, fwd(vsi),
                                       our_mac, -1, -1));

    assert_int_equal(vsi_cmd(f, E810_AQC_FREE_VSI, vsi, NULL), E810_AQ_RC_OK);
    assert_int_equal(rule_remove(f, idx, true), E810_AQ_RC_ENOENT);
    /* The next VSI may get the same number: nothing is delivered to it. */
    assert_int_equal(add_pf_vsi(f, 1, 0), vsi);
    assert_false(rx_to(f, our_mac));
}

static void test_rules_malformed(void **state)
{
    Fixture *f = *state;
    uint16_t vsi = add_pf_vsi(f, 1, 0);
    LkupRule l = lkup(true, E810_SW_LKUP_MAC, vsi, fwd(vsi), our_mac, -1, -1);
    struct e810_aq_desc d = aq_desc(E810_AQC_ADD_SW_RULES);

    /* Two rules announced, one in the buffer. */
    ((struct e810_aqc_sw_rules *)d.params.raw)->num_rules = htole16(2);
    assert_int_equal(aq_send(f->h, &f->aq, &d, &l, sizeof(l)),
                     E810_AQ_RC_EINVAL);
    /* A header length past the buffer; an unknown element type. */
    l = lkup(true, E810_SW_LKUP_MAC, vsi, fwd(vsi), our_mac, -1, -1);
    l.r.hdr_len = htole16(4000);
    assert_int_equal(rule_add(f, &l), E810_AQ_RC_EINVAL);
    l = lkup(true, E810_SW_LKUP_MAC, vsi, fwd(vsi), our_mac, -1, -1);
    l.r.hdr.type = htole16(9);
    assert_int_equal(rule_add(f, &l), E810_AQ_RC_EINVAL);
    d = aq_desc(E810_AQC_ADD_SW_RULES);
    assert_int_equal(aq_send(f->h, &f->aq, &d, &l, sizeof(l)),
                     E810_AQ_RC_EINVAL);     /* num_rules 0 */
}

static void test_rules_add_remove(void **state)
{
    Fixture *f = *state;
    uint16_t vsi = add_pf_vsi(f, 1, 0);
    LkupRule l = lkup(true, E810_SW_LKUP_MAC, vsi, fwd(vsi), our_mac, -1, -1);
    uint16_t a, b, list = 0;

    a = rule_add_ok(f, l);
    /* The same lookup again is a duplicate. */
    assert_int_equal(rule_add(f, &l), E810_AQ_RC_EEXIST);
    b = rule_add_ok(f, lkup(true, E810_SW_LKUP_MAC, vsi, fwd(vsi), bcast_mac_t,
                            -1, -1));
    assert_int_not_equal(a, b);

    /* Forwarding to a VSI or a VSI list that does not exist. */
    l = lkup(true, E810_SW_LKUP_MAC, vsi, fwd(vsi + 1),
             (const uint8_t[6]){ 0x02, 1, 2, 3, 4, 5 }, -1, -1);
    assert_int_equal(rule_add(f, &l), E810_AQ_RC_ENOENT);
    l = lkup(true, E810_SW_LKUP_MAC, vsi, fwd(7) | E810_SW_ACT_VSI_LIST,
             (const uint8_t[6]){ 0x02, 1, 2, 3, 4, 5 }, -1, -1);
    assert_int_equal(rule_add(f, &l), E810_AQ_RC_ENOENT);
    /* Rx rules come from the port, not from elsewhere; unknown recipe. */
    l = lkup(false, E810_SW_LKUP_PROMISC, 5, fwd(vsi), NULL, -1, -1);
    assert_int_equal(rule_add(f, &l), E810_AQ_RC_EINVAL);
    l = lkup(false, 6, 0, fwd(vsi), NULL, -1, -1);
    assert_int_equal(rule_add(f, &l), E810_AQ_RC_EINVAL);

    /* A VSI list with our VSI, and a rule through it. */
    assert_int_equal(res_cmd(f, E810_AQC_ALLOC_RES, E810_AQC_RES_VSI_LIST_REP,
                             &list), E810_AQ_RC_OK);
    assert_int_equal(vsi_list_set(f, E810_SW_RULE_VSI_LIST_SET, list, vsi),
                     E810_AQ_RC_OK);
    assert_int_equal(vsi_list_set(f, E810_SW_RULE_VSI_LIST_SET, list, vsi + 5),
                     E810_AQ_RC_ENOENT);
    assert_int_equal(vsi_list_set(f, E810_SW_RULE_PRUNE_LIST_SET, list, vsi),
                     E810_AQ_RC_ENOENT);
    rule_add_ok(f, lkup(true, E810_SW_LKUP_MAC, vsi,
                        fwd(list) | E810_SW_ACT_VSI_LIST,
                        (const uint8_t[6]){ 0x01, 0, 0x5e, 0, 0, 1 }, -1, -1));
    assert_true(rx_to(f, (const uint8_t[6]){ 0x01, 0, 0x5e, 0, 0, 1 }));

    /* Remove by id; a second time (or any unknown id) is ENOENT. */
    assert_int_equal(rule_remove(f, a, true), E810_AQ_RC_OK);
    assert_int_equal(rule_remove(f, a, true), E810_AQ_RC_ENOENT);
    assert_int_equal(rule_remove(f, 9999, true), E810_AQ_RC_ENOENT);
    assert_false(rx_to(f, our_mac));
    /* Now the same MAC can be added again. */
    rule_add_ok(f, lkup(true, E810_SW_LKUP_MAC, vsi, fwd(vsi), our_mac, -1,
                        -1));
    assert_true(rx_to(f, our_mac));
}

static void test_rule_update(void **state)
{
    Fixture *f = *state;
    uint16_t vsi = add_pf_vsi(f, 1, 0);
    uint16_t idx = rule_add_ok(f, lkup(false, E810_SW_LKUP_ETHERTYPE, 0,
                                       fwd(vsi), NULL, 0x88cc, -1));
    struct e810_aq_desc d = aq_desc(E810_AQC_UPDATE_SW_RULES);
    struct e810_sw_rule_lkup r;
    uint8_t b[64] = { 0 };

    eth(b, (const uint8_t[6]){ 0x01, 0x80, 0xc2, 0, 0, 0x0e }, 0x88cc);
    assert_true(rx(f, b, 60, NULL, NULL, NULL));
    /* ice_update_pkt_fwd_rule(): same index, new action (drop). */
    memset(&r, 0, sizeof(r));
    r.hdr.type = htole16(E810_SW_RULE_LKUP_RX);
    r.act = htole32(E810_SW_ACT_VALID | E810_SW_ACT_DROP);
    r.index = htole16(idx);
    ((struct e810_aqc_sw_rules *)d.params.raw)->num_rules = htole16(1);
    assert_int_equal(aq_send(f->h, &f->aq, &d, &r, sizeof(r)), E810_AQ_RC_OK);
    assert_false(rx(f, b, 60, NULL, NULL, NULL));
    d = aq_desc(E810_AQC_UPDATE_SW_RULES);
    r.index = htole16(idx + 1);
    ((struct e810_aqc_sw_rules *)d.params.raw)->num_rules = htole16(1);
    assert_int_equal(aq_send(f->h, &f->aq, &d, &r, sizeof(r)),
                     E810_AQ_RC_ENOENT);
}

static void test_rx_dest_decisions(void **state)
{
    Fixture *f = *state;
    uint16_t vsi = add_pf_vsi(f, 1, 0);
    const uint8_t other[6] = { 0x52, 0x54, 0x00, 0x11, 0x22, 0x33 };
    const uint8_t v6_all_nodes[6] = { 0x33, 0x33, 0, 0, 0, 1 };
    uint64_t dropped;
    uint16_t idx, q;

    /* No rules: nothing is taken, and it is counted. */
    dropped = f->h->core.sw.rx_dropped;
    assert_false(rx_to(f, our_mac));
    assert_int_equal(f->h->core.sw.rx_dropped, dropped + 1);

    /* ice_init_mac_fltr(): our unicast and broadcast. */
    rule_add_ok(f, lkup(true, E810_SW_LKUP_MAC, vsi, fwd(vsi), our_mac, -1,
                        -1));
    rule_add_ok(f, lkup(true, E810_SW_LKUP_MAC, vsi, fwd(vsi), bcast_mac_t, -1,
                        -1));
    assert_true(rx_to(f, our_mac));
    assert_false(rx_to(f, other));
    assert_true(rx_to(f, bcast_mac_t));
    assert_false(rx_to(f, v6_all_nodes));
    /* A multicast rule from the rx_mode sync. */
    idx = rule_add_ok(f, lkup(true, E810_SW_LKUP_MAC, vsi, fwd(vsi),
                              v6_all_nodes, -1, -1));
    assert_true(rx_to(f, v6_all_nodes));
    assert_false(rx_to(f, (const uint8_t[6]){ 0x33, 0x33, 0, 0, 0, 2 }));
    assert_int_equal(rule_remove(f, idx, true), E810_AQ_RC_OK);
    assert_false(rx_to(f, v6_all_nodes));
    /* Allmulti: the Rx multicast promiscuous rule takes every group ... */
    idx = rule_add_ok(f, lkup(false, E810_SW_LKUP_PROMISC, 0, fwd(vsi),
                              (const uint8_t[6]){ 0x03, 0, 0, 0, 0, 0 }, -1,
                              -1));
    assert_true(rx_to(f, v6_all_nodes));
    assert_true(rx_to(f, (const uint8_t[6]){ 0x01, 0, 0x5e, 1, 2, 3 }));
    /* ... but no foreign unicast. */
    assert_false(rx_to(f, other));
    /* A Tx promiscuous rule does not see Rx. */
    assert_int_equal(rule_remove(f, idx, false), E810_AQ_RC_OK);
    rule_add_ok(f, lkup(true, E810_SW_LKUP_PROMISC, vsi, fwd(vsi),
                        (const uint8_t[6]){ 0x03, 0, 0, 0, 0, 0 }, -1, -1));
    assert_false(rx_to(f, v6_all_nodes));
    /* The default VSI (promiscuous mode) takes everything. */
    rule_add_ok(f, lkup(false, E810_SW_LKUP_DFLT, 0, fwd(vsi), NULL, -1, -1));
    assert_true(rx_to(f, other));
    /* Without RSS the queue is the VSI's first. */
    {
        uint8_t b[64];
        uint32_t hash;
        bool valid;

        tcp4(b, our_mac, (const uint8_t[4]){ 10, 0, 0, 1 },
             (const uint8_t[4]){ 10, 0, 0, 2 }, 1, 2);
        assert_true(rx(f, b, 54, &q, &hash, &valid));
        assert_int_equal(q, 0);
        assert_false(valid);
    }
    /* Runts never match. */
    assert_false(rx(f, our_mac, 6, NULL, NULL, NULL));
}

static void test_vlan_pruning(void **state)
{
    Fixture *f = *state;
    uint16_t vsi = add_pf_vsi(f, 1, 0);
    struct e810_aqc_vsi_props props;
    uint16_t list = 0;
    uint8_t b[64] = { 0 };

    rule_add_ok(f, lkup(true, E810_SW_LKUP_MAC, vsi, fwd(vsi), our_mac, -1,
                        -1));
    /* ice_vsi_ena_rx_vlan_filtering(): Rx pruning in the switch section. */
    memset(&props, 0, sizeof(props));
    props.valid_sections = htole16(E810_AQ_VSI_PROP_SW_VALID);
    ((uint8_t *)&props)[E810_AQ_VSI_SW_FLAGS2_OFF] =
        E810_AQ_VSI_SW_FLAG_RX_VLAN_PRUNE_ENA | E810_AQ_VSI_SW_FLAG_LAN_ENA;
    assert_int_equal(vsi_cmd(f, E810_AQC_UPDATE_VSI, vsi, &props),
                     E810_AQ_RC_OK);
    assert_false(rx_to(f, our_mac));
    /* VLAN 0 (untagged) through a prune list, as ice_add_vlan_internal(). */
    assert_int_equal(res_cmd(f, E810_AQC_ALLOC_RES,
                             E810_AQC_RES_VSI_LIST_PRUNE |
                             E810_AQC_RES_FLAG_SHARED, &list), E810_AQ_RC_OK);
    assert_int_equal(vsi_list_set(f, E810_SW_RULE_PRUNE_LIST_SET, list, vsi),
                     E810_AQ_RC_OK);
    rule_add_ok(f, lkup(true, E810_SW_LKUP_VLAN, vsi,
                        E810_SW_ACT_TYPE_PRUNE | E810_SW_ACT_VSI_LIST |
                        FIELD_PREP(E810_SW_ACT_VSI_ID, list) |
                        E810_SW_ACT_EGRESS | E810_SW_ACT_INGRESS, NULL, -1, 0));
    assert_true(rx_to(f, our_mac));
    /* VLAN 5 is still pruned. */
    eth(b, our_mac, 0x8100);
    b[14] = 0;
    b[15] = 5;
    b[16] = 0x08;
    assert_false(rx(f, b, 60, NULL, NULL, NULL));
    rule_add_ok(f, lkup(true, E810_SW_LKUP_VLAN, vsi,
                        E810_SW_ACT_TYPE_PRUNE |
                        FIELD_PREP(E810_SW_ACT_VSI_ID, vsi) |
                        E810_SW_ACT_EGRESS | E810_SW_ACT_INGRESS, NULL, -1, 5));
    assert_true(rx(f, b, 60, NULL, NULL, NULL));
}

static uint16_t rss_key_cmd(Fixture *f, uint16_t opc, uint16_t vsi,
                            uint8_t *key, uint16_t len)
{
    struct e810_aq_desc d = aq_desc(opc);

    ((struct e810_aqc_get_set_rss_key *)d.params.raw)->vsi_id = htole16(vsi);
    return aq_send(f->h, &f->aq, &d, key, len);
}

static uint16_t rss_lut_cmd(Fixture *f, uint16_t opc, uint16_t vsi,
                            uint16_t flags, uint8_t *lut, uint16_t len)
{
    struct e810_aq_desc d = aq_desc(opc);
    struct e810_aqc_get_set_rss_lut *p = (void *)d.params.raw;

    p->vsi_id = htole16(vsi);
    p->flags = htole16(flags);
    return aq_send(f->h, &f->aq, &d, lut, len);
}

#define LUT_PF_FLAGS    (E810_AQC_LUT_TYPE_PF | \
                         FIELD_PREP(E810_AQC_LUT_SIZE, E810_AQC_LUT_SIZE_2K))

static void test_rss_key_lut(void **state)
{
    Fixture *f = *state;
    uint16_t vsi = add_pf_vsi(f, 4, 2) | E810_AQC_RSS_VSI_VALID;
    uint8_t key[E810_RSS_KEY_SIZE], got[E810_RSS_KEY_SIZE];
    static uint8_t lut[2048], lut2[2048];
    unsigned i;

    for (i = 0; i < sizeof(key); i++) {
        key[i] = i * 7 + 1;
    }
    assert_int_equal(rss_key_cmd(f, E810_AQC_SET_RSS_KEY, vsi, key,
                                 sizeof(key)), E810_AQ_RC_OK);
    memset(got, 0, sizeof(got));
    assert_int_equal(rss_key_cmd(f, E810_AQC_GET_RSS_KEY, vsi, got,
                                 sizeof(got)), E810_AQ_RC_OK);
    assert_memory_equal(key, got, sizeof(key));
    /* Only the whole 52 bytes; only a valid, existing VSI. */
    assert_int_equal(rss_key_cmd(f, E810_AQC_SET_RSS_KEY, vsi, key, 40),
                     E810_AQ_RC_EINVAL);
    assert_int_equal(rss_key_cmd(f, E810_AQC_SET_RSS_KEY,
                                 vsi & ~E810_AQC_RSS_VSI_VALID, key,
                                 sizeof(key)), E810_AQ_RC_ENOENT);
    assert_int_equal(rss_key_cmd(f, E810_AQC_SET_RSS_KEY, vsi + 1, key,
                                 sizeof(key)), E810_AQ_RC_ENOENT);

    /* PF LUT: 2048 entries with the 2K size code. */
    for (i = 0; i < sizeof(lut); i++) {
        lut[i] = i % 4;
    }
    assert_int_equal(rss_lut_cmd(f, E810_AQC_SET_RSS_LUT, vsi, LUT_PF_FLAGS,
                                 lut, sizeof(lut)), E810_AQ_RC_OK);
    assert_int_equal(rss_lut_cmd(f, E810_AQC_GET_RSS_LUT, vsi, LUT_PF_FLAGS,
                                 lut2, sizeof(lut2)), E810_AQ_RC_OK);
    assert_memory_equal(lut, lut2, sizeof(lut));
    /* Size code and type must agree; the buffer must be the LUT size. */
    assert_int_equal(rss_lut_cmd(f, E810_AQC_SET_RSS_LUT, vsi,
                                 E810_AQC_LUT_TYPE_PF, lut, sizeof(lut)),
                     E810_AQ_RC_EINVAL);
    assert_int_equal(rss_lut_cmd(f, E810_AQC_SET_RSS_LUT, vsi, LUT_PF_FLAGS,
                                 lut, 512), E810_AQ_RC_EINVAL);
    assert_int_equal(rss_lut_cmd(f, E810_AQC_SET_RSS_LUT, vsi, 3, lut, 64),
                     E810_AQ_RC_EINVAL);
    /* VSI LUT (64) and a global LUT (512, index 3). */
    assert_int_equal(rss_lut_cmd(f, E810_AQC_SET_RSS_LUT, vsi,
                                 E810_AQC_LUT_TYPE_VSI, lut, 64),
                     E810_AQ_RC_OK);
    assert_int_equal(rss_lut_cmd(f, E810_AQC_SET_RSS_LUT, vsi,
                                 E810_AQC_LUT_TYPE_GLOBAL |
                                 FIELD_PREP(E810_AQC_LUT_SIZE,
                                            E810_AQC_LUT_SIZE_512) |
                                 FIELD_PREP(E810_AQC_LUT_GLOBAL_IDX, 3),
                                 lut, 512), E810_AQ_RC_OK);
    assert_true(f->h->core.sw.glut_set[3]);
}

static void test_rss_spreads_flows(void **state)
{
    Fixture *f = *state;
    uint16_t vsi = add_pf_vsi(f, 4, 2);
    uint8_t key[E810_RSS_KEY_SIZE] = { 0 };
    static uint8_t lut[2048];
    unsigned i, seen = 0;
    uint8_t b[64], in[12];
    uint32_t hash;
    bool valid;
    uint16_t q;

    rule_add_ok(f, lkup(true, E810_SW_LKUP_MAC, vsi, fwd(vsi), our_mac, -1,
                        -1));
    memcpy(key, ms_key, sizeof(ms_key));
    for (i = 0; i < sizeof(lut); i++) {
        lut[i] = (i * 3) % 4;
    }
    assert_int_equal(rss_key_cmd(f, E810_AQC_SET_RSS_KEY,
                                 vsi | E810_AQC_RSS_VSI_VALID, key,
                                 sizeof(key)), E810_AQ_RC_OK);
    /* The key alone is not RSS yet. */
    tcp4(b, our_mac, (const uint8_t[4]){ 66, 9, 149, 187 },
         (const uint8_t[4]){ 161, 142, 100, 80 }, 2794, 1766);
    assert_true(rx(f, b, 54, &q, &hash, &valid));
    assert_false(valid);
    assert_int_equal(rss_lut_cmd(f, E810_AQC_SET_RSS_LUT,
                                 vsi | E810_AQC_RSS_VSI_VALID, LUT_PF_FLAGS,
                                 lut, sizeof(lut)), E810_AQ_RC_OK);
    /* The Microsoft vector: 66.9.149.187:2794 -> 161.142.100.80:1766. */
    assert_true(rx(f, b, 54, &q, &hash, &valid));
    assert_true(valid);
    assert_int_equal(hash, 0x51ccc178);
    assert_int_equal(q, lut[0x51ccc178 & 2047]);

    for (i = 0; i < 32; i++) {
        uint8_t src[4] = { 10, 0, 0, i + 1 };
        uint8_t dst[4] = { 10, 0, 1, 1 };

        tcp4(b, our_mac, src, dst, 1000 + i, 80);
        assert_true(rx(f, b, 54, &q, &hash, &valid));
        assert_true(valid);
        memcpy(in, src, 4);
        memcpy(in + 4, dst, 4);
        in[8] = (1000 + i) >> 8;
        in[9] = (1000 + i) & 0xff;
        in[10] = 0;
        in[11] = 80;
        assert_int_equal(hash, e810_toeplitz(ms_key, in, 12));
        assert_int_equal(q, lut[hash & 2047]);
        seen |= 1u << q;
    }
    assert_true(__builtin_popcount(seen) >= 3);
    /* Non-IP traffic has no hash and goes to the first queue. */
    memset(b, 0, sizeof(b));
    eth(b, our_mac, 0x88b5);
    assert_true(rx(f, b, 60, &q, &hash, &valid));
    assert_false(valid);
    assert_int_equal(q, 0);
}

/* Microsoft "Verifying the RSS hash calculation" vectors. */
static void test_toeplitz_vectors(void **state)
{
    static const struct {
        uint8_t src[4], dst[4];
        uint16_t sp, dp;
        uint32_t ip, tcp;
    } v4[] = {
        { { 66, 9, 149, 187 }, { 161, 142, 100, 80 }, 2794, 1766,
          0x323e8fc2, 0x51ccc178 },
        { { 199, 92, 111, 2 }, { 65, 69, 140, 83 }, 14230, 4739,
          0xd718262a, 0xc626b0ea },
        { { 24, 19, 198, 95 }, { 12, 22, 207, 184 }, 12898, 38024,
          0xd2d0a5de, 0x5c2b394a },
        { { 38, 27, 205, 30 }, { 209, 142, 163, 6 }, 48228, 2217,
          0x82989176, 0xafc7327f },
        { { 153, 39, 163, 191 }, { 202, 188, 127, 2 }, 44251, 1303,
          0x5d1809c5, 0x10e828a2 },
    };
    static const struct {
        uint8_t src[16], dst[16];
        uint16_t sp, dp;
        uint32_t ip, tcp;
    } v6[] = {
        { { 0x3f, 0xfe, 0x25, 0x01, 0x02, 0x00, 0x1f, 0xff,
            0, 0, 0, 0, 0, 0, 0, 7 },
          { 0x3f, 0xfe, 0x25, 0x01, 0x02, 0x00, 0, 3,
            0, 0, 0, 0, 0, 0, 0, 1 }, 2794, 1766, 0x2cc18cd5, 0x40207d3d },
        { { 0x3f, 0xfe, 0x05, 0x01, 0, 8, 0, 0,
            0x02, 0x60, 0x97, 0xff, 0xfe, 0x40, 0xef, 0xab },
          { 0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 },
          14230, 4739, 0x0f0c461c, 0xdde51bbf },
        { { 0x3f, 0xfe, 0x19, 0x00, 0x45, 0x45, 0, 3,
            0x02, 0x00, 0xf8, 0xff, 0xfe, 0x21, 0x67, 0xcf },
          { 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
            0x02, 0x00, 0xf8, 0xff, 0xfe, 0x21, 0x67, 0xcf },
          44251, 38024, 0x4b61e985, 0x02d1feef },
    };
    uint8_t in[36];
    unsigned i;

    for (i = 0; i < sizeof(v4) / sizeof(v4[0]); i++) {
        memcpy(in, v4[i].src, 4);
        memcpy(in + 4, v4[i].dst, 4);
        in[8] = v4[i].sp >> 8;
        in[9] = v4[i].sp & 0xff;
        in[10] = v4[i].dp >> 8;
        in[11] = v4[i].dp & 0xff;
        assert_int_equal(e810_toeplitz(ms_key, in, 8), v4[i].ip);
        assert_int_equal(e810_toeplitz(ms_key, in, 12), v4[i].tcp);
    }
    for (i = 0; i < sizeof(v6) / sizeof(v6[0]); i++) {
        memcpy(in, v6[i].src, 16);
        memcpy(in + 16, v6[i].dst, 16);
        in[32] = v6[i].sp >> 8;
        in[33] = v6[i].sp & 0xff;
        in[34] = v6[i].dp >> 8;
        in[35] = v6[i].dp & 0xff;
        assert_int_equal(e810_toeplitz(ms_key, in, 32), v6[i].ip);
        assert_int_equal(e810_toeplitz(ms_key, in, 36), v6[i].tcp);
    }
}

static void test_pf_reset_clears_switch(void **state)
{
    Fixture *f = *state;
    uint16_t vsi = add_pf_vsi(f, 1, 0);

    rule_add_ok(f, lkup(true, E810_SW_LKUP_MAC, vsi, fwd(vsi), our_mac, -1,
                        -1));
    assert_true(rx_to(f, our_mac));
    wr32(f->h, E810_PFGEN_CTRL, E810_PFGEN_CTRL_PFSWR);
    harness_run_work(f->h);
    assert_false(rx_to(f, our_mac));
    assert_int_equal(vsi_cmd(f, E810_AQC_GET_VSI_PARAMS, vsi, NULL),
                     E810_AQ_RC_ENOENT);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_get_sw_cfg),
        T(test_set_port_params),
        T(test_alloc_free_res),
        T(test_vsi_add_update_get_free),
        T(test_vsi_add_takes_whole_context),
        T(test_free_vsi_takes_its_rules),
        T(test_rules_malformed),
        T(test_rules_add_remove),
        T(test_rule_update),
        T(test_rx_dest_decisions),
        T(test_vlan_pruning),
        T(test_rss_key_lut),
        T(test_rss_spreads_flows),
        cmocka_unit_test(test_toeplitz_vectors),
        T(test_pf_reset_clears_switch),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_switch", tests, NULL, NULL);
}
