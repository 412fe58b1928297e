/*
 * Emulated E810: the port. One QSFP28 cage with a 100G direct-attach
 * cable: PHY capabilities (0x0600), PHY configuration (0x0601), restart
 * auto-negotiation (0x0605), MAC configuration (0x0603), link status and
 * its event (0x0607, 0x0613), link topology (0x06E0).
 *
 * DCB: the firmware's DCBX agent is disabled (PRTDCB_GENS.DCBX_STATUS =
 * 7), so ice runs DCBX/LLDP in software (ice_init_pf_dcb(), "FW LLDP is
 * disabled"): it sets VLAN-based PFC (0x0303) and hands the firmware its
 * local MIB (0x0A08), whose ETS configuration the model applies to the
 * scheduler's TC nodes (reported by 0x040E).
 *
 * Netlist: 0x06E0 finds the QSFP28 cage and nothing else.
 *
 * The link is up when the wire has a carrier (the embedder's link state,
 * e810_core_set_link) and the PHY is enabled: at power-on firmware brings
 * the link up on its own; 0x0601 without ENA_LINK or 0x0605 without
 * LINK_ENABLE takes it down (ice does that for link-down-on-close). Its
 * speed is the fastest PHY type the configuration allows.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <string.h>

#include "e810_core.h"

/* What the cage and cable support (get PHY caps, topology). */
#define PHY_TYPES_SUPPORTED (E810_PHY_TYPE_LOW_100GBASE_CR4 | \
                             E810_PHY_TYPE_LOW_50GBASE_CR2 | \
                             E810_PHY_TYPE_LOW_40GBASE_CR4 | \
                             E810_PHY_TYPE_LOW_25GBASE_CR | \
                             E810_PHY_TYPE_LOW_10G_SFI_DA)
#define PHY_FEC_OPTIONS     (E810_AQC_PHY_FEC_25G_RS_528_REQ | \
                             E810_AQC_PHY_FEC_25G_RS_CLAUSE91_EN | \
                             E810_AQC_PHY_FEC_25G_KR_CLAUSE74_EN | \
                             E810_AQC_PHY_FEC_10G_KR_40G_KR4_EN)

/* PHY types from fastest to slowest, with the speed each links at. */
static const struct {
    uint64_t type;
    uint16_t speed;
} phy_speeds[] = {
    { E810_PHY_TYPE_LOW_100GBASE_CR4, E810_AQ_LINK_SPEED_100GB },
    { E810_PHY_TYPE_LOW_50GBASE_CR2, E810_AQ_LINK_SPEED_50GB },
    { E810_PHY_TYPE_LOW_40GBASE_CR4, E810_AQ_LINK_SPEED_40GB },
    { E810_PHY_TYPE_LOW_25GBASE_CR, E810_AQ_LINK_SPEED_25GB },
    { E810_PHY_TYPE_LOW_10G_SFI_DA, E810_AQ_LINK_SPEED_10GB },
};

void e810_port_reset(E810Core *core)
{
    struct e810_aqc_set_phy_cfg_data *c = &core->aq.phy_cfg;

    memset(c, 0, sizeof(*c));
    c->phy_type_low = htole64(PHY_TYPES_SUPPORTED);
    c->caps = E810_AQ_PHY_ENA_LINK | E810_AQ_PHY_ENA_AUTO_FEC |
              E810_AQ_PHY_ENA_TX_PAUSE | E810_AQ_PHY_ENA_RX_PAUSE;
    c->link_fec_opt = PHY_FEC_OPTIONS;
    core->aq.link_enabled = true;
}

/* The fastest configured type, 0 if none: no link can come up. */
static unsigned active_index(E810Core *core)
{
    uint64_t types = le64toh(core->aq.phy_cfg.phy_type_low) &
                     PHY_TYPES_SUPPORTED;
    unsigned i;

    for (i = 0; i < sizeof(phy_speeds) / sizeof(phy_speeds[0]); i++) {
        if (types & phy_speeds[i].type) {
            return i + 1;
        }
    }
    return 0;
}

bool e810_port_link_up(E810Core *core)
{
    return core->link_up && core->aq.link_enabled && active_index(core);
}

void e810_aq_link_data(E810Core *core, struct e810_aqc_link_status_data *ld)
{
    const struct e810_aqc_set_phy_cfg_data *c = &core->aq.phy_cfg;
    unsigned i = active_index(core);

    memset(ld, 0, sizeof(*ld));
    ld->link_info = E810_AQ_MEDIA_AVAILABLE;
    ld->max_frame_size = htole16(core->aq.max_frame);
    if (!e810_port_link_up(core)) {
        return;
    }
    ld->link_info |= E810_AQ_LINK_UP;
    ld->an_info = E810_AQ_AN_COMPLETED;
    /* Pause as configured; the link partner is taken to agree. */
    if (c->caps & E810_AQ_PHY_ENA_TX_PAUSE) {
        ld->an_info |= E810_AQ_LINK_PAUSE_TX;
    }
    if (c->caps & E810_AQ_PHY_ENA_RX_PAUSE) {
        ld->an_info |= E810_AQ_LINK_PAUSE_RX;
    }
    ld->link_speed = htole16(phy_speeds[i - 1].speed);
    ld->phy_type_low = htole64(phy_speeds[i - 1].type);
    /* 100G over copper runs RS-FEC (clause 91) when FEC is allowed. */
    if (c->link_fec_opt & (E810_AQC_PHY_FEC_25G_RS_528_REQ |
                           E810_AQC_PHY_FEC_25G_RS_CLAUSE91_EN)) {
        ld->cfg = E810_AQ_FEC_RS_528_ENA;
    }
}

void e810_aq_link_changed(E810Core *core)
{
    struct e810_aqc_get_link_status p = { 0 };
    struct e810_aqc_link_status_data ld;

    if (!core->aq.lse_enabled ||
        (core->aq.event_mask & E810_AQ_LINK_EVENT_UPDOWN)) {
        return;
    }
    e810_aq_link_data(core, &ld);
    p.cmd_flags = htole16(E810_AQ_LSE_IS_ENABLED);
    e810_aq_post_event(core, E810_AQC_GET_LINK_STATUS, &p, &ld, sizeof(ld));
}

/* Applies a change of the PHY's own state; an event if the link moved. */
static void port_changed(E810Core *core, bool was_up)
{
    if (e810_port_link_up(core) != was_up) {
        e810_aq_link_changed(core);
    }
}

static enum e810_aq_rc cmd_get_phy_caps(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_get_phy_caps *p =
        E810_AQ_PARAMS(cmd, struct e810_aqc_get_phy_caps);
    unsigned mode = FIELD_GET(E810_AQC_REPORT_MODE, le16toh(p->param0));
    const struct e810_aqc_set_phy_cfg_data *c = &core->aq.phy_cfg;
    struct e810_aqc_get_phy_caps_data d;

    if (p->lport_num != 0 || e810_aq_need_buf(cmd, sizeof(d))) {
        return E810_AQ_RC_EINVAL;
    }
    memset(&d, 0, sizeof(d));
    switch (mode) {
    case E810_AQC_REPORT_TOPO_CAP_NO_MEDIA:
    case E810_AQC_REPORT_TOPO_CAP_MEDIA:
        d.phy_type_low = htole64(PHY_TYPES_SUPPORTED);
        d.caps = E810_AQC_PHY_EN_TX_LINK_PAUSE | E810_AQC_PHY_EN_RX_LINK_PAUSE |
                 E810_AQC_PHY_EN_AUTO_FEC | E810_AQC_PHY_AN_MODE;
        d.link_fec_options = PHY_FEC_OPTIONS;
        break;
    case E810_AQC_REPORT_ACTIVE_CFG:
        d.phy_type_low = c->phy_type_low;
        d.phy_type_high = c->phy_type_high;
        d.caps = c->caps & ~E810_AQ_PHY_ENA_AUTO_LINK_UPDT;
        d.low_power_ctrl_an = c->low_power_ctrl_an;
        d.eee_cap = c->eee_cap;
        d.eeer_value = c->eeer_value;
        d.link_fec_options = c->link_fec_opt;
        d.module_compliance_enforcement = c->module_compliance_enforcement;
        break;
    default:
        /* Default-config reports need FW API 1.7.3; this firmware is 1.5. */
        return E810_AQ_RC_EINVAL;
    }
    d.low_power_ctrl_an |= E810_AQC_PHY_AN_EN_CLAUSE73;
    if (mode != E810_AQC_REPORT_TOPO_CAP_NO_MEDIA) {
        /* The cage holds a QSFP28 passive copper cable. */
        d.module_type[0] = E810_AQC_MOD_TYPE_BYTE0_QSFP_PLUS;
        d.module_type[1] = E810_AQC_MOD_TYPE_BYTE1_CU_PASSIVE;
        d.module_type[2] = E810_AQC_MOD_TYPE_BYTE2_QSFP_PLUS;
    }
    memcpy(cmd->buf, &d, sizeof(d));
    cmd->resp_len = sizeof(d);
    return E810_AQ_RC_OK;
}

static enum e810_aq_rc cmd_set_phy_cfg(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_set_phy_cfg_data c;
    bool was_up = e810_port_link_up(core);

    if (cmd->desc.params.raw[0] != 0 || e810_aq_need_buf(cmd, sizeof(c))) {
        return E810_AQ_RC_EINVAL;
    }
    memcpy(&c, cmd->buf, sizeof(c));
    if ((c.caps & ~E810_AQ_PHY_ENA_VALID_MASK) ||
        (le64toh(c.phy_type_low) & ~PHY_TYPES_SUPPORTED) || c.phy_type_high) {
        return E810_AQ_RC_EINVAL;   /* a type this port cannot run */
    }
    core->aq.phy_cfg = c;
    core->aq.link_enabled = c.caps & E810_AQ_PHY_ENA_LINK;
    port_changed(core, was_up);
    return E810_AQ_RC_OK;
}

static enum e810_aq_rc cmd_restart_an(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_restart_an *p =
        E810_AQ_PARAMS(cmd, struct e810_aqc_restart_an);
    bool was_up = e810_port_link_up(core);

    if (p->lport_num != 0) {
        return E810_AQ_RC_EINVAL;
    }
    core->aq.link_enabled = p->cmd_flags & E810_AQC_RESTART_AN_LINK_ENABLE;
    port_changed(core, was_up);
    return E810_AQ_RC_OK;
}

static enum e810_aq_rc cmd_set_mac_cfg(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_set_mac_cfg *p = 
        E810_AQ_PARAMS(cmd, struct e810_aqc_set_mac_cfg);
    uint16_t mfs = le16toh(p->max_frame_size);

    if (mfs < 64 || mfs > E810_AQ_SET_MAC_FRAME_SIZE_MAX) {
        return E810_AQ_RC_EINVAL;
    }
    core->aq.max_frame = mfs;
    return E810_AQ_RC_OK;
}

static enum e810_aq_rc cmd_get_link_status(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_get_link_status *p =
        E810_AQ_PARAMS(cmd, struct e810_aqc_get_link_status);
    struct e810_aqc_link_status_data ld;
    unsigned lse = FIELD_GET(E810_AQ_LSE, le16toh(p->cmd_flags));

    if (p->lport_num != 0) {
        return E810_AQ_RC_EINVAL;   /* one port per function */
    }
    if (lse == E810_AQ_LSE_ENA) {
        core->aq.lse_enabled = true;
    } else if (lse == E810_AQ_LSE_DIS) {
        core->aq.lse_enabled = false;
    }
    p->cmd_flags = htole16(core->aq.lse_enabled ? E810_AQ_LSE_IS_ENABLED : 0);
    if (cmd->has_buf) {
        e810_aq_link_data(core, &ld);
        cmd->resp_len = cmd->buf_len < sizeof(ld) ? cmd->buf_len : sizeof(ld);
        memcpy(cmd->buf, &ld, cmd->resp_len);
    }
    return E810_AQ_RC_OK;
}

static enum e810_aq_rc cmd_set_event_mask(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_set_event_mask *p =
        E810_AQ_PARAMS(cmd, struct e810_aqc_set_event_mask);

    if (p->lport_num != 0) {
        return E810_AQ_RC_EINVAL;
    }
    core->aq.event_mask = le16toh(p->event_mask);
    return E810_AQ_RC_OK;
}

static enum e810_aq_rc cmd_pfc_mode(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_set_query_pfc_mode *p =
        E810_AQ_PARAMS(cmd, struct e810_aqc_set_query_pfc_mode);

    if (le16toh(cmd->desc.opcode) == E810_AQC_SET_PFC_MODE) {
        if (p->pfc_mode != E810_AQC_PFC_VLAN_BASED_PFC &&
            p->pfc_mode != E810_AQC_PFC_DSCP_BASED_PFC) {
            return E810_AQ_RC_EINVAL;
        }
        core->aq.pfc_mode = p->pfc_mode;
    }
    memset(p, 0, sizeof(*p));
    p->pfc_mode = core->aq.pfc_mode;
    return E810_AQ_RC_OK;
}

/* The DCB configuration one local MIB carries, before it is applied. */
typedef struct LldpDcb {
    bool ets_seen;
    bool ets_rec_seen;
    bool pfc_seen;
    bool app_seen;
    bool dscp_bw_seen;
    uint8_t tc_map;             /* TCs the configuration uses */
    uint32_t up2tc;             /* 3 bits per user priority */
    uint8_t tc_bw[E810_SCHED_MAX_TCS];
} LldpDcb;

/* Bandwidth table: a percentage per TC. */
static bool lldp_bw_ok(const uint8_t *bw)
{
    unsigned tc;

    for (tc = 0; tc < E810_SCHED_MAX_TCS; tc++) {
        if (bw[tc] > 100) {
            return false;
        }
    }
    return true;
}

/*
 * An IEEE 802.1Qaz ETS configuration or recommendation value (after the
 * OUI and subtype): the priority assignment table must name TCs 0..7.
 */
static bool lldp_parse_ets(const uint8_t *v, uint32_t *up2tc, uint8_t *tc_map,
                           uint8_t *bw)
{
    unsigned up;

    *up2tc = 0;
    *tc_map = 0;
    for (up = 0; up < 8; up++) {
        uint8_t byte = v[E810_IEEE_ETS_PRIO_OFF + up / 2];
        uint8_t tc = up & 1 ? byte & 0xf : byte >> 4;

        if (tc >= E810_SCHED_MAX_TCS) {
            return false;
        }
        *up2tc |= (uint32_t)tc << (3 * up);
        *tc_map |= 1u << tc;
    }
    memcpy(bw, v + E810_IEEE_ETS_BW_OFF, E810_SCHED_MAX_TCS);
    return lldp_bw_ok(bw);
}

/* One 802.1Qaz TLV (@v: the value after OUI and subtype, @n bytes). */
static bool lldp_ieee_tlv(LldpDcb *dcb, uint8_t subtype, const uint8_t *v,
                          unsigned n)
{
    uint8_t bw[E810_SCHED_MAX_TCS], map;
    uint32_t up2tc;

    switch (subtype) {
    case E810_IEEE_SUBTYPE_ETS_CFG:
        if (dcb->ets_seen || dcb->dscp_bw_seen ||
            n + E810_LLDP_ORG_HDR_LEN != E810_IEEE_ETS_TLV_LEN ||
            !lldp_parse_ets(v, &dcb->up2tc, &dcb->tc_map, dcb->tc_bw)) {
            return false;
        }
        dcb->ets_seen = true;
        return true;
    case E810_IEEE_SUBTYPE_ETS_REC:
        /* Advertised to the peer only; checked, not applied. */
        if (dcb->ets_rec_seen ||
            n + E810_LLDP_ORG_HDR_LEN != E810_IEEE_ETS_TLV_LEN ||
            !lldp_parse_ets(v, &up2tc, &map, bw)) {
            return false;
        }
        dcb->ets_rec_seen = true;
        return true;
    case E810_IEEE_SUBTYPE_PFC_CFG:
        /* PFC capability: at most 8 classes. */
        if (dcb->pfc_seen || n + E810_LLDP_ORG_HDR_LEN != E810_IEEE_PFC_TLV_LEN ||
            FIELD_GET(E810_IEEE_PFC_CAP_M, v[0]) > E810_SCHED_MAX_TCS) {
            return false;
        }
        dcb->pfc_seen = true;
        return true;
    case E810_IEEE_SUBTYPE_APP_PRI:
        /* A reserved byte, then 3-byte entries (at least one). */
        if (dcb->app_seen || n < 1 + E810_IEEE_APP_ENTRY_LEN ||
            (n - 1) % E810_IEEE_APP_ENTRY_LEN) {
            return false;
        }
        dcb->app_seen = true;
        return true;
    default:
        return true;        /* another 802.1 feature: not ours */
    }
}

/* One DSCP QoS TLV (ice_add_dcb_tlv() in DSCP mode). */
static bool lldp_dscp_tlv(LldpDcb *dcb, uint8_t subtype, const uint8_t *v,
                          unsigned n)
{
    unsigned len = n + E810_LLDP_ORG_HDR_LEN, tc;

    switch (subtype) {
    case E810_DSCP_SUBTYPE_DSCP2UP:
        return len == E810_DSCP_UP_TLV_LEN;
    case E810_DSCP_SUBTYPE_ENFORCE:
        return len == E810_DSCP_ENF_TLV_LEN;
    case E810_DSCP_SUBTYPE_PFC:
        return len == E810_DSCP_PFC_TLV_LEN &&
               FIELD_GET(E810_IEEE_PFC_CAP_M, v[0]) <= E810_SCHED_MAX_TCS;
    case E810_DSCP_SUBTYPE_TCBW:
        /*
         * No priority table in DSCP mode: the TCs are those given
         * bandwidth; user priorities stay in TC 0.
         */
        if (dcb->dscp_bw_seen || dcb->ets_seen ||
            len != E810_DSCP_TC_BW_TLV_LEN) {
            return false;
        }
        memcpy(dcb->tc_bw, v + E810_DSCP_TC_BW_OFF, E810_SCHED_MAX_TCS);
        dcb->tc_map = 0;
        dcb->up2tc = 0;
        for (tc = 0; tc < E810_SCHED_MAX_TCS; tc++) {
            if (dcb->tc_bw[tc]) {
                dcb->tc_map |= 1u << tc;
            }
        }
        dcb->dscp_bw_seen = true;
        return lldp_bw_ok(dcb->tc_bw);
    default:
        return false;
    }
}

/*
 * Walks the TLV chain of a local MIB (@len bytes): every TLV inside the
 * MIB, organizationally specific ones long enough for their OUI, each DCB
 * TLV once and of its own length; an END TLV stops the walk.
 */
static bool lldp_parse_mib(const uint8_t *mib, unsigned len, LldpDcb *dcb)
{
    unsigned off = 0;

    memset(dcb, 0, sizeof(*dcb));
    while (off < len) {
        unsigned type, n;
        const uint8_t *v;
        uint32_t oui;

        if (len - off < 2) {
            return false;   /* half a TLV header */
        }
        type = FIELD_GET(E810_LLDP_TLV_TYPE_M, (mib[off] << 8) | mib[off + 1]);
        n = FIELD_GET(E810_LLDP_TLV_LEN_M, (mib[off] << 8) | mib[off + 1]);
        off += 2;
        if (n > len - off) {
            return false;   /* runs past the MIB */
        }
        v = mib + off;
        off += n;
        if (type == E810_LLDP_TLV_TYPE_END) {
            return n == 0;
        }
        if (type != E810_LLDP_TLV_TYPE_ORG) {
            continue;       /* chassis, port, TTL, ...: not DCB */
        }
        if (n < E810_LLDP_ORG_HDR_LEN) {
            return false;
        }
        oui = (v[0] << 16) | (v[1] << 8) | v[2];
        if (oui == E810_IEEE_8021QAZ_OUI) {
            if (!lldp_ieee_tlv(dcb, v[3], v + E810_LLDP_ORG_HDR_LEN,
                               n - E810_LLDP_ORG_HDR_LEN)) {
                return false;
            }
        } else if (oui == E810_DSCP_OUI) {
            if (!lldp_dscp_tlv(dcb, v[3], v + E810_LLDP_ORG_HDR_LEN,
                               n - E810_LLDP_ORG_HDR_LEN)) {
                return false;
            }
        }
    }
    return true;
}

/*
 * ice_set_dcb_cfg(): the LLDPDU ice built from its DCB configuration. The
 * firmware applies its ETS configuration (the ETS configuration TLV, or the
 * DSCP TC bandwidth TLV): one TC node per TC in use, the map and the
 * shares ice then reads with 0x040E (ice_query_port_ets()). Without an ETS
 * TLV every priority goes back to TC 0. A bad MIB changes nothing.
 */
static enum e810_aq_rc cmd_lldp_set_local_mib(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_lldp_set_local_mib *p =
        E810_AQ_PARAMS(cmd, struct e810_aqc_lldp_set_local_mib);
    uint16_t len = le16toh(p->length);
    LldpDcb dcb;

    /* An LLDPDU: at least one TLV header, at most one frame's worth. */
    if (len < 2 || len > E810_LLDPDU_SIZE || e810_aq_need_buf(cmd, len) ||
        (p->type & ~(E810_SET_LOCAL_MIB_TYPE_DCBX |
                     E810_SET_LOCAL_MIB_TYPE_CEE)) ||
        !lldp_parse_mib(cmd->buf, len, &dcb)) {
        return E810_AQ_RC_EINVAL;
    }
    if (!dcb.ets_seen && !dcb.dscp_bw_seen) {
        dcb.tc_map = 1;
        dcb.up2tc = 0;
        memset(dcb.tc_bw, 0, sizeof(dcb.tc_bw));
        dcb.tc_bw[0] = 100;
    }
    /* A TC software still hangs nodes under stays until they go. */
    e810_sched_set_ets(core, dcb.tc_map, dcb.up2tc, dcb.tc_bw);
    core->aq.lldp_mib_len = len;
    core->aq.lldp_mib_type = p->type;
    core->aq.lldp_mib_sets++;
    return E810_AQ_RC_OK;
}

/*
 * ice_find_netlist_node(), ice_is_pf_c827(), ice_get_port_topology():
 * the netlist of this board holds the port's QSFP28 cage and no external
 * PHY, clock generator, clock mux or GNSS module; a node it does not hold
 * is ENOENT (ice takes any error as "not in the netlist").
 */
static enum e810_aq_rc cmd_get_link_topo(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_get_link_topo *p =
        E810_AQ_PARAMS(cmd, struct e810_aqc_get_link_topo);
    unsigned type = FIELD_GET(E810_AQC_LINK_TOPO_NODE_TYPE_M,
                              p->node_type_ctx);
    unsigned ctx = FIELD_GET(E810_AQC_LINK_TOPO_NODE_CTX_M, p->node_type_ctx);

    (void)core;
    if ((p->lport_num_valid & ~E810_AQC_LINK_TOPO_PORT_NUM_VALID) ||
        ((p->lport_num_valid & E810_AQC_LINK_TOPO_PORT_NUM_VALID) &&
         p->lport_num != 0) ||
        type > E810_AQC_LINK_TOPO_NODE_TYPE_GPS ||
        ctx > E810_AQC_LINK_TOPO_NODE_CTX_OVERRIDE ||
        (le16toh(p->handle) & ~E810_AQC_LINK_TOPO_HANDLE_M)) {
        return E810_AQ_RC_EINVAL;
    }
    if (type == E810_AQC_LINK_TOPO_NODE_TYPE_CAGE &&
        ctx == E810_AQC_LINK_TOPO_NODE_CTX_PORT && p->index == 0) {
        p->handle = htole16(0);
        p->node_part_num = E810_AQC_LINK_TOPO_PART_QSFP28;
        return E810_AQ_RC_OK;
    }
    return E810_AQ_RC_ENOENT;
}

/*
 * 0x06EA: the port options of logical port (lane) lport_num, or of this
 * function's own. The 7.x ice asks at every probe for lanes 0.. until the
 * pf_id-th occupied one (ice_get_phy_lane_number(), hw->lane_num for
 * PTP and DPLL): each function here has one 100G port on lane pf_id, and
 * the model knows only functions 0..pf_id exist (as its valid-functions
 * capability says), so those lanes each report one active option, 1x100G,
 * and a later lane an option without a speed code, which ice reads as
 * unoccupied. Nothing is pending: 0x06EB (set) is not modelled.
 */
static enum e810_aq_rc cmd_get_port_options(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_get_port_options *p =
        E810_AQ_PARAMS(cmd, struct e810_aqc_get_port_options);
    struct e810_aqc_get_port_options_elem e;
    unsigned lane = core->pf_id;

    if ((p->lport_num_valid & ~E810_AQC_PORT_OPT_LPORT_VALID) ||
        e810_aq_need_buf(cmd, sizeof(e))) {
        return E810_AQ_RC_EINVAL;
    }
    if (p->lport_num_valid & E810_AQC_PORT_OPT_LPORT_VALID) {
        if (p->lport_num >= E810_AQC_PORT_OPT_LPORTS) {
            return E810_AQ_RC_EINVAL;
        }
        lane = p->lport_num;
    }
    memset(&e, 0, sizeof(e));
    e.pmd = 1;
    e.max_lane_speed = lane <= core->pf_id ? E810_AQC_PORT_OPT_MAX_LANE_100G :
                                             E810_AQC_PORT_OPT_MAX_LANE_NONE;
    p->port_options_count = 1;
    p->innermost_phy_index = 0;
    p->port_options = E810_AQC_PORT_OPT_VALID | 0;
    p->pending_port_option_status = 0;
    memcpy(cmd->buf, &e, sizeof(e));
    cmd->resp_len = sizeof(e);
    return E810_AQ_RC_OK;
}

const E810AqHandler e810_port_aq_cmds[] = {
    { E810_AQC_GET_PHY_CAPS, cmd_get_phy_caps },
    { E810_AQC_SET_PHY_CFG, cmd_set_phy_cfg },
    { E810_AQC_RESTART_AN, cmd_restart_an },
    { E810_AQC_SET_MAC_CFG, cmd_set_mac_cfg },
    { E810_AQC_GET_LINK_STATUS, cmd_get_link_status },
    { E810_AQC_SET_EVENT_MASK, cmd_set_event_mask },
    { E810_AQC_QUERY_PFC_MODE, cmd_pfc_mode },
    { E810_AQC_SET_PFC_MODE, cmd_pfc_mode },
    { E810_AQC_LLDP_SET_LOCAL_MIB, cmd_lldp_set_local_mib },
    { E810_AQC_GET_LINK_TOPO, cmd_get_link_topo },
    { E810_AQC_GET_PORT_OPTIONS, cmd_get_port_options },
    { 0, NULL }
};
