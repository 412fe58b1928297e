/*
 * Emulated Intel X722 PF: the admin queue and the firmware behind it.
 *
 * The ring protocol is the one the E810 shares (include/hw/e810_aq.h's
 * 32-byte descriptor, docs/hw-reference-lan.md 2.6): commands run in order
 * from ATQH to ATQT - 1, each is written back (flags DD|CMP, ERR with a
 * non-zero retval, datalen = bytes returned) with its response data, and
 * ATQH moves only after that, which is all i40e_asq_send_command() polls.
 * Events go to the ARQ slot at ARQH and raise PFINT_ICR0.ADMINQ.
 *
 * The opcode set is the X722 firmware's (i40e_adminq_cmd.h) as far as
 * i40e uses it; docs/hw-model-x722.md lists each command, what the model
 * answers, and what it refuses. Every length, SEID, queue range and
 * buffer is checked as the firmware would.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "x722_core.h"

#define AQ_DESC_SIZE        32
#define AQ_FLAG_DD          0x0001
#define AQ_FLAG_CMP         0x0002
#define AQ_FLAG_ERR         0x0004
#define AQ_FLAG_LB          0x0200
#define AQ_FLAG_RD          0x0400
#define AQ_FLAG_BUF         0x1000
#define AQ_FLAG_SI          0x2000
#define AQ_LARGE_BUF        512

/* Switch elements the firmware presents after a reset. */
#define X722_MAC_SEID       2
#define X722_PF_SEID        16
#define X722_VSI_SEID       390
#define X722_VSI_NUMBER     6
#define X722_VSI_PROPS_LEN  128

/* Capabilities (i40e_adminq_cmd.h I40E_AQ_CAP_ID_*). */
#define CAP_FUNCTIONS_VALID 0x0005
#define CAP_VSI             0x0017
#define CAP_RSS             0x0040
#define CAP_RXQ             0x0041
#define CAP_TXQ             0x0042
#define CAP_MSIX            0x0043
#define CAP_IWARP           0x0051
#define CAP_ELEM_LEN        32

/* Link (i40e_adminq_cmd.h) */
#define PHY_TYPE_10GBASE_SR 0x14
#define LINK_SPEED_10GB     0x08
#define LINK_UP             0x01
#define MEDIA_AVAILABLE     0x40
#define AN_COMPLETED        0x01
#define QUALIFIED_MODULE    0x80
#define LSE_IS_ENABLED      0x01
#define LSE_MASK            0x03
#define LSE_ENABLE          0x03
#define LSE_DISABLE         0x02
#define MAX_FRAME           9728

typedef struct AqCmd {
    uint8_t *d;                 /* the descriptor */
    uint8_t *buf;               /* indirect buffer, NULL for direct */
    uint16_t buf_len;
    uint16_t resp_len;
    int datalen;                /* >= 0: datalen to report instead */
} AqCmd;

static uint16_t get16(const uint8_t *p)
{
    return p[0] | p[1] << 8;
}

static uint32_t get32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = v >> 8;
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, (uint16_t)v);
    put16(p + 2, v >> 16);
}

/* Direct parameter bytes: descriptor offset 16 + @off. */
#define P(c, off)   ((c)->d + 16 + (off))

static enum x722_aq_rc need_buf(const AqCmd *c, size_t min)
{
    return c->buf && c->buf_len >= min ? X722_AQ_RC_OK : X722_AQ_RC_EINVAL;
}

static bool vsi_seid_ok(uint16_t seid)
{
    return (seid & 0x3ff) == X722_VSI_SEID;
}

/* ---- generic ---- */

static enum x722_aq_rc aq_get_version(X722Core *core, AqCmd *c)
{
    put32(P(c, 0), 0x00000000);         /* rom_ver */
    put32(P(c, 4), 0x00012345);         /* fw_build */
    put16(P(c, 8), 3);                  /* fw 3.33 */
    put16(P(c, 10), 33);
    put16(P(c, 12), 1);                 /* API 1.12 (I40E_FW_API_VERSION_*) */
    put16(P(c, 14), 0x000c);
    return X722_AQ_RC_OK;
}

static enum x722_aq_rc aq_driver_version(X722Core *core, AqCmd *c)
{
    size_t n;

    if (need_buf(c, 1)) {
        return X722_AQ_RC_EINVAL;
    }
    n = c->buf_len < sizeof(core->fw.driver_ver) - 1 ?
        c->buf_len : sizeof(core->fw.driver_ver) - 1;
    memcpy(core->fw.driver_ver, c->buf, n);
    core->fw.driver_ver[n] = 0;
    return X722_AQ_RC_OK;
}

static enum x722_aq_rc aq_queue_shutdown(X722Core *core, AqCmd *c)
{
    core->fw.lse_enabled = false;
    return X722_AQ_RC_OK;
}

/* 0x0008 / 0x0009: only the NVM (resource 1) exists to be owned. */
static enum x722_aq_rc aq_request_resource(X722Core *core, AqCmd *c)
{
    uint16_t res = get16(P(c, 0)), access = get16(P(c, 2));

    if (res != 1 || (access != 1 && access != 2)) {
        return X722_AQ_RC_EINVAL;
    }
    core->fw.nvm_owned = true;
    put32(P(c, 4), 3000);               /* ms the driver may hold it */
    return X722_AQ_RC_OK;
}

static enum x722_aq_rc aq_release_resource(X722Core *core, AqCmd *c)
{
    if (get16(P(c, 0)) != 1) {
        return X722_AQ_RC_EINVAL;
    }
    core->fw.nvm_owned = false;
    return X722_AQ_RC_OK;
}

static void put_cap(uint8_t *e, uint16_t id, uint32_t number,
                    uint32_t logical, uint32_t phys)
{
    memset(e, 0, CAP_ELEM_LEN);
    put16(e, id);
    put32(e + 4, number);
    put32(e + 8, logical);
    put32(e + 12, phys);
}

/* 0x000A list function capabilities (i40e_parse_discover_capabilities) */
static enum x722_aq_rc aq_list_func_caps(X722Core *core, AqCmd *c)
{
    static const uint32_t caps[][4] = {
        { CAP_FUNCTIONS_VALID, 0x3, 0, 0 },     /* functions 0 and 1 */
        { CAP_VSI, 384, 0, 0 },
        { CAP_RSS, 512, 6, 0 },                 /* LUT 512, 6-bit entries */
        { CAP_RXQ, X722_NUM_QUEUES, 0, 0 },
        { CAP_TXQ, X722_NUM_QUEUES, 0, 0 },
        { CAP_MSIX, X722_MSIX_VECTORS, 0, 0 },
        { CAP_IWARP, 1, 0, 0 },
    };
    size_t n = sizeof(caps) / sizeof(caps[0]), i;

    if (!c->buf) {
        return X722_AQ_RC_EINVAL;
    }
    if (c->buf_len < n * CAP_ELEM_LEN) {
        /* i40e_get_capabilities() retries with the size returned. */
        c->datalen = n * CAP_ELEM_LEN;
        return X722_AQ_RC_ENOMEM;
    }
    for (i = 0; i < n; i++) {
        put_cap(c->buf + i * CAP_ELEM_LEN, caps[i][0], caps[i][1],
                caps[i][2], caps[i][3]);
    }
    put32(P(c, 4), n);
    c->resp_len = n * CAP_ELEM_LEN;
    return X722_AQ_RC_OK;
}

static enum x722_aq_rc aq_mac_read(X722Core *core, AqCmd *c)
{
    if (need_buf(c, 24)) {
        return X722_AQ_RC_EINVAL;
    }
    memset(c->buf, 0, 24);
    memcpy(c->buf, core->mac, 6);       /* pf_lan_mac */
    memcpy(c->buf + 12, core->mac, 6);  /* port_mac */
    memcpy(c->buf + 18, core->mac, 6);  /* pf_wol_mac */
    put16(P(c, 0), 0x10 | 0x40);        /* LAN_ADDR_VALID, PORT_ADDR_VALID */
    c->resp_len = 24;
    return X722_AQ_RC_OK;
}

static enum x722_aq_rc aq_clear_pxe(X722Core *core, AqCmd *c)
{
    if (P(c, 0)[0] != 2) {              /* rx_cnt: 2 is the only value */
        return X722_AQ_RC_EINVAL;
    }
    *x722_reg(core, X722_GLLAN_RCTL_0) &= ~1u;
    return X722_AQ_RC_OK;
}

/* ---- switch and VSI ---- */

static enum x722_aq_rc aq_get_switch_config(X722Core *core, AqCmd *c)
{
    uint8_t *e;

    if (need_buf(c, 32)) {
        return X722_AQ_RC_EINVAL;
    }
    if (get16(P(c, 0)) != 0) {
        return X722_AQ_RC_EINVAL;       /* one page holds everything */
    }
    memset(c->buf, 0, 32);
    put16(c->buf, 1);                   /* num_reported */
    put16(c->buf + 2, 1);               /* num_total */
    e = c->buf + 16;
    e[0] = 19;                          /* VSI */
    put16(e + 2, X722_VSI_SEID);
    put16(e + 4, X722_MAC_SEID);
    put16(e + 6, X722_PF_SEID);
    e[11] = 1;                          /* connection_type: regular */
    put16(P(c, 0), 0);                  /* next seid: done */
    c->resp_len = 32;
    return X722_AQ_RC_OK;
}

static enum x722_aq_rc aq_set_switch_config(X722Core *core, AqCmd *c)
{
    return X722_AQ_RC_OK;
}

static void vsi_props(X722Core *core, uint8_t *p)
{
    int i;

    memset(p, 0, X722_VSI_PROPS_LEN);
    put16(p, 0x00ff);                   /* valid_sections */
    memcpy(p + 28, core->fw.vsi_map, sizeof(core->fw.vsi_map));
    p[12] = core->fw.port_vlan_flags;
    put16(p + 78, core->fw.vsi_queue_opt);
    for (i = 0; i < 8; i++) {
        put16(p + 96 + 2 * i, i == 0 ? X722_QS_HANDLE : 0xffff);
    }
    put16(p + 112, core->pf_id);        /* stat_counter_idx */
}

static void vsi_completion(AqCmd *c)
{
    put16(P(c, 0), X722_VSI_SEID);
    put16(P(c, 2), X722_VSI_NUMBER);
    put16(P(c, 4), 1);                  /* vsi_used */
    put16(P(c, 6), 383);                /* vsi_free */
}

static enum x722_aq_rc aq_get_vsi_params(X722Core *core, AqCmd *c)
{
    if (need_buf(c, X722_VSI_PROPS_LEN)) {
        return X722_AQ_RC_EINVAL;
    }
    if (!vsi_seid_ok(get16(P(c, 0)))) {
        return X722_AQ_RC_ENOENT;
    }
    vsi_props(core, c->buf);
    vsi_completion(c);
    c->resp_len = X722_VSI_PROPS_LEN;
    return X722_AQ_RC_OK;
}

/*
 * 0x0211: the sections the driver marks valid replace the firmware's.
 * A contiguous queue map must stay inside the function's queues.
 */
static enum x722_aq_rc aq_update_vsi_params(X722Core *core, AqCmd *c)
{
    uint8_t *p = c->buf;
    uint16_t valid;

    if (need_buf(c, X722_VSI_PROPS_LEN)) {
        return X722_AQ_RC_EINVAL;
    }
    if (!vsi_seid_ok(get16(P(c, 0)))) {
        return X722_AQ_RC_ENOENT;
    }
    valid = get16(p);
    if (valid & 0x0040) {               /* QUEUE_MAP_VALID */
        uint16_t flags = get16(p + 28), base = get16(p + 30);
        int tc;

        if (flags & 1) {                /* non-contiguous: not modelled */
            x722_log(core, E810_LOG_UNIMP, "x722: 0x0211 non-contiguous "
                     "queue map");
            return X722_AQ_RC_EINVAL;
        }
        for (tc = 0; tc < 8; tc++) {
            uint16_t m = get16(p + 62 + 2 * tc);
            uint32_t off = m & 0x1ff, n = 1u << ((m >> 9) & 0xf);

            if (tc > 0 && m == 0) {
                continue;
            }
            if (base + off + n > X722_NUM_QUEUES) {
                return X722_AQ_RC_EINVAL;
            }
        }
        memcpy(core->fw.vsi_map, p + 28, sizeof(core->fw.vsi_map));
    }
    if (valid & 0x0080) {               /* QUEUE_OPT_VALID */
        core->fw.vsi_queue_opt = get16(p + 78);
        x722_rdma_set_tcp_ena(core);
    }
    if (valid & 0x0004) {               /* VLAN_VALID: stripping */
        core->fw.port_vlan_flags = p[12];
    }
    vsi_completion(c);
    return X722_AQ_RC_OK;
}

static int mac_find(X722Core *core, const uint8_t *mac)
{
    int i;

    for (i = 0; i < core->fw.nmacs; i++) {
        if (!memcmp(core->fw.macs[i], mac, 6)) {
            return i;
        }
    }
    return -1;
}

/* 0x0250 / 0x0251: 16-byte elements, each answered in place. */
static enum x722_aq_rc aq_macvlan(X722Core *core, AqCmd *c, bool add)
{
    uint16_t n = get16(P(c, 0)), seid = get16(P(c, 2));
    enum x722_aq_rc rc = X722_AQ_RC_OK;
    int i, k;

    if (n == 0 || need_buf(c, (size_t)n * 16) ||
        !(seid & 0x8000)) {
        return X722_AQ_RC_EINVAL;
    }
    if (!vsi_seid_ok(seid)) {
        return X722_AQ_RC_ENOENT;
    }
    for (i = 0; i < n; i++) {
        uint8_t *e = c->buf + i * 16;

        k = mac_find(core, e);
        if (add) {
            if (k < 0 && core->fw.nmacs < X722_MAX_MACS) {
                memcpy(core->fw.macs[core->fw.nmacs++], e, 6);
                k = 0;
            }
            e[12] = k < 0 ? 0xff : 0x01;    /* match_method */
            if (k < 0) {
                rc = X722_AQ_RC_ENOSPC;
            }
        } else {
            if (k >= 0) {
                memmove(core->fw.macs[k], core->fw.macs[k + 1],
                        (core->fw.nmacs - k - 1) * 6);
                core->fw.nmacs--;
            } else {
                rc = X722_AQ_RC_ENOENT;
            }
            e[12] = k >= 0 ? 0 : 0xff;      /* error_code */
        }
    }
    c->resp_len = n * 16;
    return rc;
}

static enum x722_aq_rc aq_add_macvlan(X722Core *core, AqCmd *c)
{
    return aq_macvlan(core, c, true);
}

static enum x722_aq_rc aq_remove_macvlan(X722Core *core, AqCmd *c)
{
    return aq_macvlan(core, c, false);
}

static enum x722_aq_rc aq_set_promisc(X722Core *core, AqCmd *c)
{
    uint16_t flags = get16(P(c, 0)), valid = get16(P(c, 2));

    if (!vsi_seid_ok(get16(P(c, 4)))) {
        return X722_AQ_RC_EINVAL;
    }
    if (valid & 0x01) {
        core->fw.uc_promisc = flags & 0x01;
    }
    if (valid & 0x02) {
        core->fw.mc_promisc = flags & 0x02;
    }
    if (valid & 0x04) {
        core->fw.bcast = flags & 0x04;
    }
    return X722_AQ_RC_OK;
}

static enum x722_aq_rc aq_control_packet_filter(X722Core *core, AqCmd *c)
{
    /* Drop-Tx-pause style filters: accepted, nothing to filter. */
    return X722_AQ_RC_OK;
}

static enum x722_aq_rc aq_vsi_bw_limit(X722Core *core, AqCmd *c)
{
    if (!vsi_seid_ok(get16(P(c, 0)))) {
        return X722_AQ_RC_EINVAL;
    }
    return get16(P(c, 4)) ? X722_AQ_RC_EINVAL : X722_AQ_RC_OK;
}

static enum x722_aq_rc aq_query_vsi_bw(X722Core *core, AqCmd *c)
{
    int i;

    if (need_buf(c, 64)) {
        return X722_AQ_RC_EINVAL;
    }
    if (!vsi_seid_ok(get16(P(c, 0)))) {
        return X722_AQ_RC_EINVAL;
    }
    memset(c->buf, 0, 64);
    c->buf[0] = 1;                      /* tc_valid_bits: TC0 */
    for (i = 0; i < 8; i++) {
        put16(c->buf + 16 + 2 * i, i == 0 ? X722_QS_HANDLE : 0xffff);
    }
    c->resp_len = 64;
    return X722_AQ_RC_OK;
}

static enum x722_aq_rc aq_query_vsi_ets(X722Core *core, AqCmd *c)
{
    if (need_buf(c, 32)) {
        return X722_AQ_RC_EINVAL;
    }
    if (!vsi_seid_ok(get16(P(c, 0)))) {
        return X722_AQ_RC_EINVAL;
    }
    memset(c->buf, 0, 32);
    c->buf[0] = 1;
    c->buf[4] = 1;                      /* share_credits[0] */
    c->resp_len = 32;
    return X722_AQ_RC_OK;
}

/* ---- port ---- */

static enum x722_aq_rc aq_get_phy_abilities(X722Core *core, AqCmd *c)
{
    uint8_t *r = c->buf;

    if (need_buf(c, 0x218)) {
        return X722_AQ_RC_EINVAL;
    }
    memset(r, 0, 0x218);
    put32(r, 1u << PHY_TYPE_10GBASE_SR);
    r[4] = LINK_SPEED_10GB;
    r[5] = 0x08 | 0x10;                 /* LINK_ENABLED, AN_ENABLED */
    c->resp_len = 0x218;
    return X722_AQ_RC_OK;
}

static enum x722_aq_rc aq_set_phy_config(X722Core *core, AqCmd *c)
{
    uint32_t types = get32(P(c, 0));

    if (types & ~(1u << PHY_TYPE_10GBASE_SR)) {
        return X722_AQ_RC_EINVAL;
    }
    return X722_AQ_RC_OK;
}

static void link_params(X722Core *core, uint8_t *p)
{
    memset(p, 0, 16);
    put16(p, core->fw.lse_enabled ? LSE_IS_ENABLED : 0);
    p[2] = PHY_TYPE_10GBASE_SR;
    p[3] = LINK_SPEED_10GB;
    p[4] = MEDIA_AVAILABLE | (core->carrier ? LINK_UP : 0);
    p[5] = QUALIFIED_MODULE | (core->carrier ? AN_COMPLETED : 0);
    put16(p + 8, core->fw.max_frame ? core->fw.max_frame : MAX_FRAME);
}

static enum x722_aq_rc aq_get_link_status(X722Core *core, AqCmd *c)
{
    uint16_t f = get16(P(c, 0)) & LSE_MASK;

    if (f == LSE_ENABLE) {
        core->fw.lse_enabled = true;
    } else if (f == LSE_DISABLE) {
        core->fw.lse_enabled = false;
    } else if (f != 0) {
        return X722_AQ_RC_EINVAL;
    }
    link_params(core, P(c, 0));
    return X722_AQ_RC_OK;
}

/*
 * Set MAC Config (i40e_adminq_cmd.h struct i40e_aq_set_mac_config): the
 * largest frame the MAC takes, which Get Link Status reports back. The
 * 7.x i40e sends it at probe (i40e_aq_set_mac_config() with 9728); 6.12's
 * never does. 0 or more than the MAC's 9728 is refused.
 */
static enum x722_aq_rc aq_set_mac_config(X722Core *core, AqCmd *c)
{
    uint16_t max = get16(P(c, 0));

    if (max == 0 || max > MAX_FRAME) {
        return X722_AQ_RC_EINVAL;
    }
    core->fw.max_frame = max;
    return X722_AQ_RC_OK;
}

static enum x722_aq_rc aq_set_phy_int_mask(X722Core *core, AqCmd *c)
{
    return X722_AQ_RC_OK;
}

/* ---- NVM ---- */

static enum x722_aq_rc aq_nvm_read(X722Core *core, AqCmd *c)
{
    uint8_t module = P(c, 0)[1];
    uint16_t len = get16(P(c, 2));
    uint32_t off = get32(P(c, 4));
    enum x722_aq_rc rc;

    if (!core->fw.nvm_owned) {
        /* i40e_read_nvm_word() takes the NVM first on the X722. */
        return X722_AQ_RC_EPERM;
    }
    if (off >> 24 || need_buf(c, len) || len == 0) {
        return X722_AQ_RC_EINVAL;
    }
    rc = x722_nvm_read(core, module, off, len, c->buf);
    if (rc == X722_AQ_RC_OK) {
        c->resp_len = len;
    }
    return rc;
}

/* ---- DCB / LLDP ---- */

static enum x722_aq_rc aq_lldp_get_mib(X722Core *core, AqCmd *c)
{
    /* The firmware's LLDP agent runs and has no MIB yet. */
    return X722_AQ_RC_ENOENT;
}

static enum x722_aq_rc aq_set_dcb_params(X722Core *core, AqCmd *c)
{
    return X722_AQ_RC_OK;
}

/* ---- RSS ---- */

static enum x722_aq_rc aq_set_rss_key(X722Core *core, AqCmd *c)
{
    uint16_t vsi = get16(P(c, 0));

    enum x722_aq_rc rc;

    if (!(vsi & 0x8000) || (vsi & 0x3ff) != X722_VSI_NUMBER) {
        return X722_AQ_RC_EINVAL;
    }
    rc = need_buf(c, sizeof(core->fw.rss_key));
    if (rc == X722_AQ_RC_OK) {
        memcpy(core->fw.rss_key, c->buf, sizeof(core->fw.rss_key));
        core->fw.rss_key_set = true;
    }
    return rc;
}

static enum x722_aq_rc aq_set_rss_lut(X722Core *core, AqCmd *c)
{
    uint16_t vsi = get16(P(c, 0)), flags = get16(P(c, 2));
    unsigned i;

    if (!(vsi & 0x8000) || (vsi & 0x3ff) != X722_VSI_NUMBER) {
        return X722_AQ_RC_EINVAL;
    }
    if (!(flags & 1)) {                 /* VSI LUT: 64 entries */
        return need_buf(c, 64) ? X722_AQ_RC_EINVAL : X722_AQ_RC_OK;
    }
    if (need_buf(c, 512)) {
        return X722_AQ_RC_EINVAL;
    }
    for (i = 0; i < 512; i++) {
        if (c->buf[i] >= X722_NUM_QUEUES) {
            return X722_AQ_RC_EINVAL;
        }
    }
    memcpy(core->fw.rss_lut, c->buf, 512);
    core->fw.rss_lut_set = true;
    return X722_AQ_RC_OK;
}

/* ethtool -x (i40e_get_rss_aq()): the key and the PF LUT as set. */
static enum x722_aq_rc aq_get_rss_key(X722Core *core, AqCmd *c)
{
    uint16_t vsi = get16(P(c, 0));

    if (!(vsi & 0x8000) || (vsi & 0x3ff) != X722_VSI_NUMBER ||
        need_buf(c, sizeof(core->fw.rss_key))) {
        return X722_AQ_RC_EINVAL;
    }
    memcpy(c->buf, core->fw.rss_key, sizeof(core->fw.rss_key));
    c->resp_len = sizeof(core->fw.rss_key);
    return X722_AQ_RC_OK;
}

static enum x722_aq_rc aq_get_rss_lut(X722Core *core, AqCmd *c)
{
    uint16_t vsi = get16(P(c, 0)), flags = get16(P(c, 2));

    /* Only the PF LUT is ever set (i40e's main VSI uses it). */
    if (!(vsi & 0x8000) || (vsi & 0x3ff) != X722_VSI_NUMBER ||
        !(flags & 1) || need_buf(c, sizeof(core->fw.rss_lut))) {
        return X722_AQ_RC_EINVAL;
    }
    memcpy(c->buf, core->fw.rss_lut, sizeof(core->fw.rss_lut));
    c->resp_len = sizeof(core->fw.rss_lut);
    return X722_AQ_RC_OK;
}

/* ---- debug ---- */

static enum x722_aq_rc aq_debug_read_reg(X722Core *core, AqCmd *c)
{
    uint32_t addr = get32(P(c, 0));

    if (addr & 3 || addr >= X722_REG_SPACE) {
        return X722_AQ_RC_EINVAL;
    }
    put32(P(c, 8), 0);
    put32(P(c, 12), *x722_reg(core, addr));
    return X722_AQ_RC_OK;
}

typedef struct AqHandler {
    uint16_t opcode;
    enum x722_aq_rc (*fn)(X722Core *core, AqCmd *c);
} AqHandler;

static const AqHandler handlers[] = {
    { 0x0001, aq_get_version },
    { 0x0002, aq_driver_version },
    { 0x0003, aq_queue_shutdown },
    { 0x0008, aq_request_resource },
    { 0x0009, aq_release_resource },
    { 0x000a, aq_list_func_caps },
    { 0x0107, aq_mac_read },
    { 0x0110, aq_clear_pxe },
    { 0x0200, aq_get_switch_config },
    { 0x0205, aq_set_switch_config },
    { 0x0211, aq_update_vsi_params },
    { 0x0212, aq_get_vsi_params },
    { 0x0250, aq_add_macvlan },
    { 0x0251, aq_remove_macvlan },
    { 0x0254, aq_set_promisc },
    { 0x025a, aq_control_packet_filter },
    { 0x0303, aq_set_dcb_params },
    { 0x0400, aq_vsi_bw_limit },
    { 0x0408, aq_query_vsi_bw },
    { 0x040a, aq_query_vsi_ets },
    { 0x0600, aq_get_phy_abilities },
    { 0x0601, aq_set_phy_config },
    { 0x0603, aq_set_mac_config },
    { 0x0607, aq_get_link_status },
    { 0x0613, aq_set_phy_int_mask },
    { 0x0701, aq_nvm_read },
    { 0x0a00, aq_lldp_get_mib },
    { 0x0b02, aq_set_rss_key },
    { 0x0b03, aq_set_rss_lut },
    { 0x0b04, aq_get_rss_key },
    { 0x0b05, aq_get_rss_lut },
    { 0xff03, aq_debug_read_reg },
};

enum x722_aq_rc x722_aq_execute(X722Core *core, uint8_t *desc, uint8_t *buf,
                                uint16_t buf_len, uint16_t *resp_len)
{
    AqCmd c = { .d = desc, .buf = buf, .buf_len = buf_len, .datalen = -1 };
    uint16_t op = get16(desc + 2);
    enum x722_aq_rc rc = X722_AQ_RC_ENOSYS;
    size_t i;

    for (i = 0; i < sizeof(handlers) / sizeof(handlers[0]); i++) {
        if (handlers[i].opcode == op) {
            rc = handlers[i].fn(core, &c);
            break;
        }
    }
    if (i == sizeof(handlers) / sizeof(handlers[0])) {
        core->stats.aq_unknown++;
        x722_log(core, E810_LOG_UNIMP, "x722: admin queue opcode 0x%04x "
                 "not modelled", op);
    }
    if (c.resp_len > buf_len) {
        c.resp_len = buf_len;
    }
    *resp_len = c.resp_len;
    if (c.datalen >= 0) {
        put16(desc + 4, (uint16_t)c.datalen);
    } else if (buf) {
        put16(desc + 4, c.resp_len);
    }
    return rc;
}

/* ---- the rings ---- */

void x722_aq_reset(X722Core *core)
{
    /* After reset the VSI's queue map is TC0 = queue 0 alone (zeros). */
    memset(&core->fw, 0, sizeof(core->fw));
}

static uint32_t ring(X722Core *core, uint32_t len_off, uint32_t bal_off,
                     uint32_t bah_off, uint64_t *base)
{
    uint32_t lenreg = *x722_reg(core, len_off);
    uint32_t len = lenreg & X722_AQLEN_LEN;

    if (!(lenreg & X722_AQLEN_ENABLE) || len == 0) {
        return 0;
    }
    *base = (uint64_t)*x722_reg(core, bah_off) << 32 |
            *x722_reg(core, bal_off);
    return len;
}

static void run_one(X722Core *core, uint64_t addr)
{
    uint8_t d[AQ_DESC_SIZE];
    uint16_t flags, buf_len = 0, resp_len = 0;
    uint64_t baddr;
    enum x722_aq_rc rc = X722_AQ_RC_OK;
    uint8_t *buf = NULL;

    if (!x722_dma_read(core, addr, d, sizeof(d))) {
        return;
    }
    flags = get16(d);
    baddr = (uint64_t)get32(d + 24) << 32 | get32(d + 28);
    if (flags & AQ_FLAG_BUF) {
        buf_len = get16(d + 4);
        buf = core->aq_buf;
        if (buf_len == 0 || buf_len > X722_AQ_BUF_MAX ||
            (buf_len > AQ_LARGE_BUF && !(flags & AQ_FLAG_LB))) {
            rc = X722_AQ_RC_EINVAL;
        } else {
            memset(buf, 0, X722_AQ_BUF_MAX);
            /* RD: the buffer carries data to the firmware. */
            if ((flags & AQ_FLAG_RD) &&
                !x722_dma_read(core, baddr, buf, buf_len)) {
                rc = X722_AQ_RC_EIO;
            }
        }
    }
    if (rc == X722_AQ_RC_OK) {
        rc = x722_aq_execute(core, d, buf, buf_len, &resp_len);
    } else if (buf) {
        put16(d + 4, 0);
    }
    core->stats.aq_commands++;
    if (resp_len && !x722_dma_write(core, baddr, buf, resp_len)) {
        rc = X722_AQ_RC_EIO;
    }
    if (rc != X722_AQ_RC_OK) {
        core->stats.aq_errors++;
        flags |= AQ_FLAG_ERR;
    }
    put16(d, flags | AQ_FLAG_DD | AQ_FLAG_CMP);
    put16(d + 6, rc);
    x722_dma_write(core, addr, d, sizeof(d));
    if (core->ops->trace) {
        core->ops->trace(core->opaque, E810_TRACE_AQ_CMD, get16(d + 2), rc,
                         get16(d + 4));
    }
}

void x722_aq_process_atq(X722Core *core)
{
    uint64_t base;
    uint32_t len, head, tail, n;

    len = ring(core, X722_PF_ATQLEN, X722_PF_ATQBAL, X722_PF_ATQBAH, &base);
    if (!len) {
        return;
    }
    head = *x722_reg(core, X722_PF_ATQH) & X722_AQ_PTR;
    tail = *x722_reg(core, X722_PF_ATQT) & X722_AQ_PTR;
    if (head >= len || tail >= len) {
        x722_log(core, E810_LOG_GUEST_ERROR, "x722: ATQ head %u / tail %u "
                 "outside a ring of %u", head, tail, len);
        return;
    }
    for (n = 0; head != tail && n < len; n++) {
        run_one(core, base + (uint64_t)head * AQ_DESC_SIZE);
        head = (head + 1) % len;
        *x722_reg(core, X722_PF_ATQH) = head;
    }
}

bool x722_aq_post_event(X722Core *core, uint16_t opcode, const void *params,
                        const void *data, uint16_t len)
{
    uint8_t d[AQ_DESC_SIZE];
    uint64_t base, addr, baddr;
    uint32_t n, head, tail;
    uint16_t room;

    n = ring(core, X722_PF_ARQLEN, X722_PF_ARQBAL, X722_PF_ARQBAH, &base);
    head = *x722_reg(core, X722_PF_ARQH) & X722_AQ_PTR;
    tail = *x722_reg(core, X722_PF_ARQT) & X722_AQ_PTR;
    if (!n || head >= n || tail >= n || head == tail) {
        if (n && head < n && tail < n) {
            *x722_reg(core, X722_PF_ARQLEN) |= X722_AQLEN_OVFL;
        }
        core->stats.events_dropped++;
        return false;
    }
    addr = base + (uint64_t)head * AQ_DESC_SIZE;
    if (!x722_dma_read(core, addr, d, sizeof(d))) {
        core->stats.events_dropped++;
        return false;
    }
    room = (get16(d) & AQ_FLAG_BUF) ? get16(d + 4) : 0;
    baddr = (uint64_t)get32(d + 24) << 32 | get32(d + 28);
    if (len > room || (len && !x722_dma_write(core, baddr, data, len))) {
        core->stats.events_dropped++;
        return false;
    }
    put16(d, get16(d) | AQ_FLAG_DD | AQ_FLAG_CMP);
    put16(d + 2, opcode);
    put16(d + 4, len);
    put16(d + 6, 0);
    memset(d + 8, 0, 8);
    if (params) {
        memcpy(d + 16, params, 8);
    }
    x722_dma_write(core, addr, d, sizeof(d));
    *x722_reg(core, X722_PF_ARQH) = (head + 1) % n;
    core->stats.events_posted++;
    x722_icr0_cause(core, X722_ICR0_ADMINQ);
    return true;
}

void x722_aq_link_changed(X722Core *core)
{
    uint8_t p[16];

    if (!core->fw.lse_enabled) {
        return;
    }
    link_params(core, p);
    x722_aq_post_event(core, 0x0607, p, NULL, 0);
}
