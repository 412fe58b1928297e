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
        T(test_fw_logging),
#undef T
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_port", tests, NULL, NULL);
}
