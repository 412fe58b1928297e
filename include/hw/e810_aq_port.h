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

#endif /* E810_AQ_PORT_H */
