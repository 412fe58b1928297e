/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * E810 admin queue: the switch commands' wire formats (see e810_aq.h for the
 * descriptor and the VSI command layouts). Shared by the device model and
 * the drivers.
 */
#ifndef E810_AQ_SWITCH_H
#define E810_AQ_SWITCH_H

#define E810_AQC_GET_SW_CFG		0x0200
#define E810_AQC_SET_PORT_PARAMS	0x0203
#define E810_AQC_ALLOC_RES		0x0208
#define E810_AQC_FREE_RES		0x0209
#define E810_AQC_GET_VSI_PARAMS		0x0212
#define E810_AQC_ADD_SW_RULES		0x02A0
#define E810_AQC_UPDATE_SW_RULES	0x02A1
#define E810_AQC_REMOVE_SW_RULES	0x02A2
#define E810_AQC_GET_SW_RULES		0x02A3
#define E810_AQC_SET_RSS_KEY		0x0B02
#define E810_AQC_SET_RSS_LUT		0x0B03
#define E810_AQC_GET_RSS_KEY		0x0B04
#define E810_AQC_GET_RSS_LUT		0x0B05

/* ---- 0x0200 get switch configuration (indirect) ------------------------ */

struct e810_aqc_get_sw_cfg {
	__le16 flags;
	__le16 element;		/* in: first element; out: next (0 = done) */
	__le16 num_elems;	/* out: elements in the buffer */
	__le16 rsvd;
	__le32 addr_high;
	__le32 addr_low;
};

struct e810_aqc_get_sw_cfg_resp_elem {
	__le16 vsi_port_num;
#define E810_AQC_SW_CFG_NUM		GENMASK(9, 0)
#define E810_AQC_SW_CFG_TYPE		GENMASK(15, 14)
#define E810_AQC_SW_CFG_TYPE_PHYS_PORT	0
#define E810_AQC_SW_CFG_TYPE_VIRT_PORT	1
#define E810_AQC_SW_CFG_TYPE_VSI	2
	__le16 swid;
	__le16 pf_vf_num;
#define E810_AQC_SW_CFG_FUNC_NUM	GENMASK(14, 0)
#define E810_AQC_SW_CFG_IS_VF		BIT(15)
};

/* ---- 0x0203 set port parameters (direct) ------------------------------- */

struct e810_aqc_set_port_params {
	__le16 cmd_flags;
#define E810_AQC_PORT_PARAMS_DOUBLE_VLAN	BIT(2)
	__le16 bad_frame_vsi;
	__le16 swid;
#define E810_AQC_PORT_SWID_VALID	BIT(15)
#define E810_AQC_PORT_SWID		GENMASK(7, 0)
	__u8 local_fwd_mode;
#define E810_AQC_PORT_FWD_MODE		GENMASK(1, 0)
#define E810_AQC_PORT_FWD_MODE_VALID	BIT(2)
	__u8 reserved[9];
};

/* ---- 0x0208 / 0x0209 allocate / free resources (indirect) -------------- */

struct e810_aqc_alloc_free_res {
	__le16 num_entries;	/* ice always sends 1 */
	__u8 reserved[6];
	__le32 addr_high;
	__le32 addr_low;
};

/* Buffer: this header, then num_elems __le16 resource ids. */
struct e810_aqc_alloc_free_res_elem {
	__le16 res_type;
#define E810_AQC_RES_TYPE		GENMASK(6, 0)
#define E810_AQC_RES_FLAG_SHARED	BIT(7)
#define E810_AQC_RES_FLAG_SCAN_BOTTOM	BIT(12)
#define E810_AQC_RES_FLAG_IGNORE_INDEX	BIT(13)
	__le16 num_elems;
};

#define E810_AQC_RES_VSI_LIST_REP	0x03
#define E810_AQC_RES_VSI_LIST_PRUNE	0x04
#define E810_AQC_RES_RECIPE		0x05
#define E810_AQC_RES_FD_COUNTER_BLOCK	0x21
#define E810_AQC_RES_FD_GUAR_ENTRIES	0x22	/* num_elems = filters */
#define E810_AQC_RES_FD_SHARED_ENTRIES	0x23
#define E810_AQC_RES_FD_GUAR_ENTRIES	0x22
#define E810_AQC_RES_FD_SHARED_ENTRIES	0x23
#define E810_AQC_RES_FD_PROF_ID		0x58
#define E810_AQC_RES_FD_TCAM		0x59
#define E810_AQC_RES_HASH_PROF_ID	0x60
#define E810_AQC_RES_HASH_TCAM		0x61

/* ---- VSI properties: sections beyond those named in e810_aq.h ---------- */

#define E810_AQ_VSI_TYPE_VF		0
#define E810_AQ_VSI_TYPE_VMDQ2		1
#define E810_AQ_VSI_TYPE_EMP_MNG	3
#define E810_AQ_VSI_KEEP_ALLOC		BIT(0)	/* 0x0213 cmd_flags */

#define E810_AQ_VSI_PROP_SECURITY_VALID	BIT(1)
#define E810_AQ_VSI_PROP_VLAN_VALID	BIT(2)
#define E810_AQ_VSI_PROP_OUTER_TAG_VALID	BIT(3)
#define E810_AQ_VSI_PROP_INGRESS_UP_VALID	BIT(4)
#define E810_AQ_VSI_PROP_EGRESS_UP_VALID	BIT(5)
#define E810_AQ_VSI_PROP_OUTER_UP_VALID	BIT(8)
#define E810_AQ_VSI_PROP_FLOW_DIR_VALID	BIT(11)
#define E810_AQ_VSI_PROP_PASID_VALID	BIT(12)

/* Byte offset of sw_flags2 (switch section) in the properties. */
#define E810_AQ_VSI_SW_FLAGS2_OFF	4
#define E810_AQ_VSI_SW_FLAG_RX_VLAN_PRUNE_ENA	BIT(0)
#define E810_AQ_VSI_SW_FLAG_LAN_ENA	BIT(4)

/* mapping_flags, tc_mapping and q_opt_rss fields. */
#define E810_AQ_VSI_Q_MAP_NONCONTIG	BIT(0)
#define E810_AQ_VSI_TC_Q_OFFSET		GENMASK(10, 0)
#define E810_AQ_VSI_TC_Q_NUM		GENMASK(14, 11)	/* log2 of count */
#define E810_AQ_VSI_Q_OPT_RSS_LUT	GENMASK(1, 0)
#define E810_AQ_VSI_Q_OPT_RSS_LUT_VSI	0
#define E810_AQ_VSI_Q_OPT_RSS_LUT_PF	2
#define E810_AQ_VSI_Q_OPT_RSS_LUT_GBL	3
#define E810_AQ_VSI_Q_OPT_RSS_GBL_LUT	GENMASK(5, 2)
#define E810_AQ_VSI_Q_OPT_RSS_HASH	GENMASK(7, 6)

/* ---- 0x02A0..0x02A3 switch rules (indirect) ---------------------------- */

struct e810_aqc_sw_rules {
	__le16 num_rules;	/* add/update/remove: elements in the buffer */
	__u8 reserved[6];
	__le32 addr_high;
	__le32 addr_low;
};

struct e810_aqc_sw_rule_hdr {
	__le16 type;
#define E810_SW_RULE_LKUP_RX		0
#define E810_SW_RULE_LKUP_TX		1
#define E810_SW_RULE_LG_ACT		2
#define E810_SW_RULE_VSI_LIST_SET	3
#define E810_SW_RULE_VSI_LIST_CLEAR	4
#define E810_SW_RULE_PRUNE_LIST_SET	5
#define E810_SW_RULE_PRUNE_LIST_CLEAR	6
	__le16 status;
};

/* Lookup rule: 16 bytes, then hdr_len bytes of header to match. */
struct e810_sw_rule_lkup {
	struct e810_aqc_sw_rule_hdr hdr;
	__le16 recipe_id;	/* the lookup type of the default recipes */
#define E810_SW_LKUP_ETHERTYPE		0
#define E810_SW_LKUP_MAC		1
#define E810_SW_LKUP_MAC_VLAN		2
#define E810_SW_LKUP_PROMISC		3
#define E810_SW_LKUP_VLAN		4
#define E810_SW_LKUP_DFLT		5
#define E810_SW_LKUP_ETHERTYPE_MAC	8
#define E810_SW_LKUP_PROMISC_VLAN	9
	__le16 src;		/* Rx: logical port; Tx: source VSI */
	__le32 act;
#define E810_SW_ACT_TYPE		GENMASK(1, 0)
#define E810_SW_ACT_TYPE_FWD_VSI	0
#define E810_SW_ACT_TYPE_TO_Q		1
#define E810_SW_ACT_TYPE_PRUNE		2
#define E810_SW_ACT_TYPE_OTHER		3
#define E810_SW_ACT_LB_ENABLE		BIT(2)
#define E810_SW_ACT_LAN_ENABLE		BIT(3)
#define E810_SW_ACT_VSI_ID		GENMASK(13, 4)	/* or VSI list id */
#define E810_SW_ACT_VSI_LIST		BIT(14)
#define E810_SW_ACT_EGRESS		BIT(15)
#define E810_SW_ACT_INGRESS		BIT(16)
#define E810_SW_ACT_VALID		BIT(17)
#define E810_SW_ACT_DROP		BIT(18)
#define E810_SW_ACT_Q_INDEX		GENMASK(14, 4)
#define E810_SW_ACT_Q_REGION		GENMASK(17, 15)
	__le16 index;		/* out on add; in on update/remove */
	__le16 hdr_len;
	/* followed by hdr_len bytes */
} E810_PACKED;

#define E810_SW_RULE_DUMMY_ETH_LEN	16

/* VSI list / prune list rule: 8 bytes, then number_vsi __le16 VSIs. */
struct e810_sw_rule_vsi_list {
	struct e810_aqc_sw_rule_hdr hdr;
	__le16 index;
	__le16 number_vsi;
} E810_PACKED;

/* Large action: 8 bytes, then size __le32 actions. */
struct e810_sw_rule_lg_act {
	struct e810_aqc_sw_rule_hdr hdr;
	__le16 index;
	__le16 size;
} E810_PACKED;

/* ---- 0x0B02..0x0B05 RSS key and lookup table (indirect) ---------------- */

#define E810_AQC_RSS_VSI_VALID		BIT(15)
#define E810_AQC_RSS_VSI_ID		GENMASK(9, 0)

struct e810_aqc_get_set_rss_key {
	__le16 vsi_id;
	__u8 reserved[6];
	__le32 addr_high;
	__le32 addr_low;
};

#define E810_RSS_KEY_STD_SIZE		40
#define E810_RSS_KEY_EXT_SIZE		12
#define E810_RSS_KEY_SIZE		52	/* standard + extended */

struct e810_aqc_get_set_rss_lut {
	__le16 vsi_id;
	__le16 flags;
#define E810_AQC_LUT_TYPE		GENMASK(1, 0)
#define E810_AQC_LUT_TYPE_VSI		0
#define E810_AQC_LUT_TYPE_PF		1
#define E810_AQC_LUT_TYPE_GLOBAL	2
#define E810_AQC_LUT_SIZE		GENMASK(3, 2)
#define E810_AQC_LUT_SIZE_SMALL		0	/* 64 (VSI) or 128 */
#define E810_AQC_LUT_SIZE_512		1
#define E810_AQC_LUT_SIZE_2K		2
#define E810_AQC_LUT_GLOBAL_IDX		GENMASK(7, 4)
	__le32 reserved;
	__le32 addr_high;
	__le32 addr_low;
};

#define E810_RSS_LUT_VSI_SIZE		64
#define E810_RSS_LUT_GLOBAL_SIZE	512
#define E810_RSS_LUT_PF_SIZE		2048

E810_AQ_CHECK_SIZE(e810_aqc_get_sw_cfg, 16);
E810_AQ_CHECK_SIZE(e810_aqc_get_sw_cfg_resp_elem, 6);
E810_AQ_CHECK_SIZE(e810_aqc_set_port_params, 16);
E810_AQ_CHECK_SIZE(e810_aqc_alloc_free_res, 16);
E810_AQ_CHECK_SIZE(e810_aqc_alloc_free_res_elem, 4);
E810_AQ_CHECK_SIZE(e810_aqc_sw_rules, 16);
E810_AQ_CHECK_SIZE(e810_sw_rule_lkup, 16);
E810_AQ_CHECK_SIZE(e810_sw_rule_vsi_list, 8);
E810_AQ_CHECK_SIZE(e810_sw_rule_lg_act, 8);
E810_AQ_CHECK_SIZE(e810_aqc_get_set_rss_key, 16);
E810_AQ_CHECK_SIZE(e810_aqc_get_set_rss_lut, 16);

#endif /* E810_AQ_SWITCH_H */
