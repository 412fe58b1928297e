/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * E810 admin queue: the port commands' wire formats (PHY capabilities and
 * configuration, restart auto-negotiation). Layouts as ice 6.12 uses them:
 * struct ice_aqc_get_phy_caps / _data, ice_aqc_set_phy_cfg_data and
 * ice_aqc_restart_an in ice_adminq_cmd.h.
 */
#ifndef E810_AQ_PORT_H
#define E810_AQ_PORT_H

#define E810_AQC_GET_PHY_CAPS		0x0600
#define E810_AQC_SET_PHY_CFG		0x0601
#define E810_AQC_RESTART_AN		0x0605

/* ---- 0x0600 get PHY capabilities (indirect) ----------------------------- */

struct e810_aqc_get_phy_caps {
	__u8 lport_num;
	__u8 reserved;
	__le16 param0;
#define E810_AQC_GET_PHY_RQM		BIT(0)	/* report qualified modules */
#define E810_AQC_REPORT_MODE		GENMASK(3, 1)
#define E810_AQC_REPORT_TOPO_CAP_NO_MEDIA	0
#define E810_AQC_REPORT_TOPO_CAP_MEDIA	1	/* field values (>> 1) */
#define E810_AQC_REPORT_ACTIVE_CFG	2
#define E810_AQC_REPORT_DFLT_CFG	4
	__le32 reserved1;
	__le32 addr_high;
	__le32 addr_low;
};

/* PHY types (phy_type_low) of a QSFP28 port with a direct-attach cable. */
#define E810_PHY_TYPE_LOW_10G_SFI_DA	BIT_ULL(13)
#define E810_PHY_TYPE_LOW_25GBASE_CR	BIT_ULL(21)
#define E810_PHY_TYPE_LOW_40GBASE_CR4	BIT_ULL(33)
#define E810_PHY_TYPE_LOW_50GBASE_CR2	BIT_ULL(40)
#define E810_PHY_TYPE_LOW_100GBASE_CR4	BIT_ULL(51)

struct e810_aqc_get_phy_caps_data {
	__le64 phy_type_low;
	__le64 phy_type_high;
	__u8 caps;
#define E810_AQC_PHY_EN_TX_LINK_PAUSE	BIT(0)
#define E810_AQC_PHY_EN_RX_LINK_PAUSE	BIT(1)
#define E810_AQC_PHY_LOW_POWER_MODE	BIT(2)
#define E810_AQC_PHY_EN_LINK		BIT(3)
#define E810_AQC_PHY_AN_MODE		BIT(4)
#define E810_AQC_GET_PHY_EN_MOD_QUAL	BIT(5)
#define E810_AQC_PHY_EN_AUTO_FEC	BIT(7)
	__u8 low_power_ctrl_an;
#define E810_AQC_PHY_AN_EN_CLAUSE73	BIT(2)
	__le16 eee_cap;
	__le16 eeer_value;
	__u8 phy_id_oui[4];
	__u8 phy_fw_ver[8];
	__u8 link_fec_options;
#define E810_AQC_PHY_FEC_10G_KR_40G_KR4_EN	BIT(0)
#define E810_AQC_PHY_FEC_10G_KR_40G_KR4_REQ	BIT(1)
#define E810_AQC_PHY_FEC_25G_RS_528_REQ	BIT(2)
#define E810_AQC_PHY_FEC_25G_KR_REQ	BIT(3)
#define E810_AQC_PHY_FEC_25G_RS_544_REQ	BIT(4)
#define E810_AQC_PHY_FEC_25G_RS_CLAUSE91_EN	BIT(6)
#define E810_AQC_PHY_FEC_25G_KR_CLAUSE74_EN	BIT(7)
	__u8 module_compliance_enforcement;
#define E810_AQC_MOD_ENFORCE_STRICT_MODE	BIT(0)
	__u8 extended_compliance_code;
	__u8 module_type[3];
#define E810_AQC_MOD_TYPE_BYTE0_QSFP_PLUS	0x80
#define E810_AQC_MOD_TYPE_BYTE1_CU_PASSIVE	BIT(0)
#define E810_AQC_MOD_TYPE_BYTE2_QSFP_PLUS	0x86
	__u8 qualified_module_count;
	__u8 rsvd2[7];
	struct {
		__u8 v_oui[3];
		__u8 rsvd3;
		__u8 v_part[16];
		__le32 v_rev;
		__le64 rsvd4;
	} qual_modules[16];
};

/* ---- 0x0601 set PHY configuration (indirect, RD) ------------------------- */

struct e810_aqc_set_phy_cfg_data {
	__le64 phy_type_low;
	__le64 phy_type_high;
	__u8 caps;
#define E810_AQ_PHY_ENA_VALID_MASK	0xef
#define E810_AQ_PHY_ENA_TX_PAUSE	BIT(0)
#define E810_AQ_PHY_ENA_RX_PAUSE	BIT(1)
#define E810_AQ_PHY_ENA_LOW_POWER	BIT(2)
#define E810_AQ_PHY_ENA_LINK		BIT(3)
#define E810_AQ_PHY_ENA_AUTO_LINK_UPDT	BIT(5)
#define E810_AQ_PHY_ENA_LESM		BIT(6)
#define E810_AQ_PHY_ENA_AUTO_FEC	BIT(7)
	__u8 low_power_ctrl_an;
	__le16 eee_cap;
	__le16 eeer_value;
	__u8 link_fec_opt;
	__u8 module_compliance_enforcement;
};

/* ---- 0x0605 restart auto-negotiation (direct) ---------------------------- */

struct e810_aqc_restart_an {
	__u8 lport_num;
	__u8 reserved;
	__u8 cmd_flags;
#define E810_AQC_RESTART_AN_LINK_RESTART	BIT(1)
#define E810_AQC_RESTART_AN_LINK_ENABLE		BIT(2)
	__u8 reserved2[13];
};

/* ---- DCB: 0x0302 query / 0x0303 set PFC mode (direct) -------------------- */

#define E810_AQC_QUERY_PFC_MODE		0x0302
#define E810_AQC_SET_PFC_MODE		0x0303

struct e810_aqc_set_query_pfc_mode {
	__u8 pfc_mode;
#define E810_AQC_PFC_VLAN_BASED_PFC	1
#define E810_AQC_PFC_DSCP_BASED_PFC	2
	__u8 rsvd[15];
};

/* ---- LLDP: 0x0A08 set local MIB (indirect) -------------------------------- */

#define E810_AQC_LLDP_SET_LOCAL_MIB	0x0A08
#define E810_LLDPDU_SIZE		1500

struct e810_aqc_lldp_set_local_mib {
	__u8 type;
#define E810_SET_LOCAL_MIB_TYPE_DCBX	BIT(0)
#define E810_SET_LOCAL_MIB_TYPE_CEE	BIT(1)
	__u8 reserved0;
	__le16 length;
	__u8 reserved1[4];
	__le32 addr_high;
	__le32 addr_low;
};

/*
 * The LLDPDU of 0x0A08 as ice builds it (ice_dcb_cfg_to_lldp()): a chain of
 * TLVs, each a big-endian type (7 bits) / length (9 bits) word and its
 * value; organizationally specific TLVs (type 127) start their value with a
 * 3-byte OUI and a subtype. An END TLV (type 0, length 0) ends the chain.
 */
#define E810_LLDP_TLV_LEN_M		GENMASK(8, 0)
#define E810_LLDP_TLV_TYPE_M		GENMASK(15, 9)
#define E810_LLDP_TLV_TYPE_END		0
#define E810_LLDP_TLV_TYPE_ORG		127
#define E810_LLDP_ORG_HDR_LEN		4	/* OUI + subtype */
#define E810_IEEE_8021QAZ_OUI		0x0080C2
#define E810_IEEE_SUBTYPE_ETS_CFG	9
#define E810_IEEE_SUBTYPE_ETS_REC	10
#define E810_IEEE_SUBTYPE_PFC_CFG	11
#define E810_IEEE_SUBTYPE_APP_PRI	12
#define E810_IEEE_ETS_TLV_LEN		25
#define E810_IEEE_PFC_TLV_LEN		6
#define E810_IEEE_APP_ENTRY_LEN		3
/*
 * ETS value: flags/max TCs, 4 bytes of priority nibbles (priority 0 in the
 * high nibble of the first), 8 TC bandwidth percentages, 8 TSA values.
 */
#define E810_IEEE_ETS_PRIO_OFF		1
#define E810_IEEE_ETS_BW_OFF		5
#define E810_IEEE_ETS_TSA_OFF		13
#define E810_IEEE_PFC_CAP_M		GENMASK(3, 0)
/* DSCP-based QoS (pfc_mode DSCP): Intel TLVs under OUI 0xFFFFFF. */
#define E810_DSCP_OUI			0xFFFFFF
#define E810_DSCP_SUBTYPE_DSCP2UP	0x41
#define E810_DSCP_SUBTYPE_ENFORCE	0x42
#define E810_DSCP_SUBTYPE_TCBW		0x43
#define E810_DSCP_SUBTYPE_PFC		0x44
#define E810_DSCP_UP_TLV_LEN		148
#define E810_DSCP_ENF_TLV_LEN		132
#define E810_DSCP_TC_BW_TLV_LEN		25
#define E810_DSCP_PFC_TLV_LEN		6
#define E810_DSCP_TC_BW_OFF		5	/* then 8 TSA values */

/* ---- 0x06E0 get link topology handle (direct) ---------------------------- */

#define E810_AQC_GET_LINK_TOPO		0x06E0

struct e810_aqc_get_link_topo {
	__u8 lport_num;
	__u8 lport_num_valid;
#define E810_AQC_LINK_TOPO_PORT_NUM_VALID	BIT(0)
	__u8 node_type_ctx;
#define E810_AQC_LINK_TOPO_NODE_TYPE_M	GENMASK(3, 0)
#define E810_AQC_LINK_TOPO_NODE_TYPE_PHY	0
#define E810_AQC_LINK_TOPO_NODE_TYPE_CAGE	6
#define E810_AQC_LINK_TOPO_NODE_TYPE_GPS	11	/* the highest type */
#define E810_AQC_LINK_TOPO_NODE_CTX_M	GENMASK(7, 4)
#define E810_AQC_LINK_TOPO_NODE_CTX_GLOBAL	0
#define E810_AQC_LINK_TOPO_NODE_CTX_PORT	2
#define E810_AQC_LINK_TOPO_NODE_CTX_OVERRIDE	5	/* the highest context */
	__u8 index;
	__le16 handle;		/* response: the node's handle */
#define E810_AQC_LINK_TOPO_HANDLE_M	GENMASK(9, 0)
	__u8 node_part_num;	/* response: what the node is */
#define E810_AQC_LINK_TOPO_PART_QSFP28	0x14	/* cage: QSFP28 */
	__u8 rsvd[9];
};

/* ---- 0x06EA get port options (indirect) ------------------------------- */

#define E810_AQC_GET_PORT_OPTIONS	0x06EA
#define E810_AQC_PORT_OPT_LPORTS	8	/* logical ports of a device */

struct e810_aqc_get_port_options {
	__u8 lport_num;
	__u8 lport_num_valid;
#define E810_AQC_PORT_OPT_LPORT_VALID	BIT(0)
	__u8 port_options_count;	/* response */
#define E810_AQC_PORT_OPT_COUNT_M	GENMASK(3, 0)
	__u8 innermost_phy_index;
	__u8 port_options;		/* response: the active option */
#define E810_AQC_PORT_OPT_ACTIVE_M	GENMASK(3, 0)
#define E810_AQC_PORT_OPT_VALID		BIT(7)
	__u8 pending_port_option_status;
	__u8 rsvd[2];
	__le32 addr_high;
	__le32 addr_low;
};

/* One option in the buffer. */
struct e810_aqc_get_port_options_elem {
	__u8 pmd;			/* [3:0] PMDs of the option */
	__u8 max_lane_speed;		/* [3:0] */
#define E810_AQC_PORT_OPT_MAX_LANE_100G	7
#define E810_AQC_PORT_OPT_MAX_LANE_40G	9	/* the highest speed code */
#define E810_AQC_PORT_OPT_MAX_LANE_NONE	0xF	/* no lane: no speed code */
	__u8 global_scid[2];
	__u8 phy_scid[2];
	__u8 pf2port_cid[2];
};

/* Link status (0x0607) bits the port reports beyond e810_aq.h's. */
#define E810_AQ_LINK_PAUSE_TX		BIT(5)	/* an_info */
#define E810_AQ_LINK_PAUSE_RX		BIT(6)
#define E810_AQ_FEC_RS_528_ENA		BIT(1)	/* cfg [2:0] */

E810_AQ_CHECK_SIZE(e810_aqc_get_phy_caps, 16);
E810_AQ_CHECK_SIZE(e810_aqc_get_phy_caps_data, 560);
E810_AQ_CHECK_SIZE(e810_aqc_set_phy_cfg_data, 24);
E810_AQ_CHECK_SIZE(e810_aqc_restart_an, 16);
E810_AQ_CHECK_SIZE(e810_aqc_set_query_pfc_mode, 16);
E810_AQ_CHECK_SIZE(e810_aqc_lldp_set_local_mib, 16);
E810_AQ_CHECK_SIZE(e810_aqc_get_link_topo, 16);
E810_AQ_CHECK_SIZE(e810_aqc_get_port_options, 16);
E810_AQ_CHECK_SIZE(e810_aqc_get_port_options_elem, 8);

#endif /* E810_AQ_PORT_H */
