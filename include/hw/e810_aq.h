/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * Intel E810 PF admin queue (AQ): descriptor, flags, return codes, opcodes
 * and the command layouts this project uses.
 *
 * Formats are those of the real E810 firmware interface as used by the
 * upstream ice driver (docs/hw-reference-lan.md chapters 2 and 3).
 * Every structure is little-endian; sizes are checked at compile time at
 * the end of this file.
 */
#ifndef E810_AQ_H
#define E810_AQ_H

#include "e810_compat.h"

/* ---- descriptor (32 bytes, same on ATQ and ARQ) ----------------------- */

struct e810_aq_generic {
	__le32 param0;
	__le32 param1;
	__le32 addr_high;	/* indirect buffer address (BUF set) */
	__le32 addr_low;
};

struct e810_aq_desc {
	__le16 flags;
	__le16 opcode;
	__le16 datalen;		/* device rewrites with the returned length */
	__le16 retval;		/* enum e810_aq_rc */
	__le32 cookie_high;	/* echoed */
	__le32 cookie_low;
	union {
		__u8 raw[16];
		struct e810_aq_generic generic;
	} params;
};

#define E810_AQ_DESC_SIZE		32
#define E810_AQ_MAX_BUF			4096
#define E810_AQ_LARGE_BUF		512	/* above this LB must be set */
#define E810_AQ_MAX_ENTRIES		1023	/* ATQLEN/ARQLEN.LEN is 10 bits */

#define E810_AQ_FLAG_DD		BIT(0)	/* descriptor done */
#define E810_AQ_FLAG_CMP	BIT(1)	/* command completed */
#define E810_AQ_FLAG_ERR	BIT(2)	/* completed with retval != 0 */
#define E810_AQ_FLAG_VFE	BIT(3)
#define E810_AQ_FLAG_LB		BIT(9)	/* buffer larger than 512 bytes */
#define E810_AQ_FLAG_RD		BIT(10)	/* buffer carries data to the FW */
#define E810_AQ_FLAG_VFC	BIT(11)
#define E810_AQ_FLAG_BUF	BIT(12)	/* indirect buffer attached */
#define E810_AQ_FLAG_SI		BIT(13)	/* no completion interrupt */
#define E810_AQ_FLAG_EI		BIT(14)	/* interrupt on error */
#define E810_AQ_FLAG_FE		BIT(15)	/* flush the rest on error */

/* Return codes (descriptor retval). */
enum e810_aq_rc {
	E810_AQ_RC_OK = 0,
	E810_AQ_RC_EPERM = 1,
	E810_AQ_RC_ENOENT = 2,
	E810_AQ_RC_ESRCH = 3,		/* bad opcode */
	E810_AQ_RC_EINTR = 4,
	E810_AQ_RC_EIO = 5,
	E810_AQ_RC_ENXIO = 6,
	E810_AQ_RC_E2BIG = 7,
	E810_AQ_RC_EAGAIN = 8,
	E810_AQ_RC_ENOMEM = 9,
	E810_AQ_RC_EACCES = 10,
	E810_AQ_RC_EFAULT = 11,
	E810_AQ_RC_EBUSY = 12,
	E810_AQ_RC_EEXIST = 13,
	E810_AQ_RC_EINVAL = 14,
	E810_AQ_RC_ENOTTY = 15,
	E810_AQ_RC_ENOSPC = 16,
	E810_AQ_RC_ENOSYS = 17,
	E810_AQ_RC_ERANGE = 18,
	E810_AQ_RC_EFLUSHED = 19,
	E810_AQ_RC_BAD_ADDR = 20,
	E810_AQ_RC_EMODE = 21,
	E810_AQ_RC_EFBIG = 22,
};

/* ---- opcodes ------------------------------------------------------------ */

enum e810_aq_opc {
	E810_AQC_GET_VER = 0x0001,
	E810_AQC_DRIVER_VER = 0x0002,
	E810_AQC_Q_SHUTDOWN = 0x0003,
	E810_AQC_LIST_FUNC_CAPS = 0x000A,
	E810_AQC_LIST_DEV_CAPS = 0x000B,
	E810_AQC_MANAGE_MAC_READ = 0x0107,
	E810_AQC_CLEAR_PXE = 0x0110,
	E810_AQC_ADD_VSI = 0x0210,
	E810_AQC_UPDATE_VSI = 0x0211,
	E810_AQC_FREE_VSI = 0x0213,
	E810_AQC_CLEAR_PF_CFG = 0x02A4,
	E810_AQC_SET_MAC_CFG = 0x0603,
	E810_AQC_GET_LINK_STATUS = 0x0607,	/* also the LSE event */
	E810_AQC_SET_EVENT_MASK = 0x0613,
	E810_AQC_ADD_TXQS = 0x0C30,
	E810_AQC_DIS_TXQS = 0x0C31,
	E810_AQC_ADD_RDMA_QSET = 0x0C33,
};

/* ---- 0x0001 get version (direct) --------------------------------------- */

struct e810_aqc_get_ver {
	__le32 rom_ver;
	__le32 fw_build;
	__u8 fw_branch;
	__u8 fw_major;
	__u8 fw_minor;
	__u8 fw_patch;
	__u8 api_branch;
	__u8 api_major;
	__u8 api_minor;
	__u8 api_patch;
};

/* API version ice expects from E810 firmware (major must not exceed it). */
#define E810_AQ_API_MAJOR		1
#define E810_AQ_API_MINOR		5

/* ---- 0x0002 driver version (indirect, RD: ASCII string) --------------- */

struct e810_aqc_driver_ver {
	__u8 major;
	__u8 minor;
	__u8 build;
	__u8 subbuild;
	__u8 reserved[4];
	__le32 addr_high;
	__le32 addr_low;
};

/* ---- 0x0003 queue shutdown (direct) ------------------------------------ */

struct e810_aqc_q_shutdown {
	__u8 driver_unloading;
#define E810_AQC_DRIVER_UNLOADING	BIT(0)
	__u8 reserved[15];
};

/* ---- 0x000A / 0x000B list capabilities (indirect) ---------------------- */

struct e810_aqc_list_caps {
	__u8 cmd_flags;
	__u8 pf_index;
	__u8 reserved[2];
	__le32 count;		/* response: elements written (or needed) */
	__le32 addr_high;
	__le32 addr_low;
};

struct e810_aqc_caps_elem {
	__le16 cap;
	__u8 major_ver;
	__u8 minor_ver;
	__le32 number;
	__le32 logical_id;
	__le32 phys_id;
	__le64 rsvd1;
	__le64 rsvd2;
};

#define E810_CAP_VALID_FUNCTIONS	0x0005	/* number = PF bitmap */
#define E810_CAP_VSI			0x0017
#define E810_CAP_DCB			0x0018	/* logical: TC map, phys: max */
#define E810_CAP_RSS			0x0040
#define E810_CAP_RXQS			0x0041	/* number, phys_id = first */
#define E810_CAP_TXQS			0x0042	/* number, phys_id = first */
#define E810_CAP_MSIX			0x0043	/* number, phys_id = first */
#define E810_CAP_FD			0x0045	/* Flow Director */
#define E810_CAP_MAX_MTU		0x0047
#define E810_CAP_RDMA			0x0051	/* number 1 = RDMA enabled */

#define E810_DEV_VSIS			768	/* VSIs of a whole E810 */
#define E810_RSS_PF_LUT_SIZE		2048	/* PF RSS lookup table entries */
#define E810_RSS_LUT_ENTRY_WIDTH	7	/* bits per LUT entry */

/* ---- 0x0107 manage MAC read (indirect) ---------------------------------- */

struct e810_aqc_manage_mac_read {
	__le16 flags;
#define E810_AQC_MAN_MAC_LAN_ADDR_VALID	BIT(4)
#define E810_AQC_MAN_MAC_PORT_ADDR_VALID	BIT(6)
	__u8 rsvd[2];
	__u8 num_addr;		/* response: entries in the buffer */
	__u8 rsvd1[3];
	__le32 addr_high;
	__le32 addr_low;
};

struct e810_aqc_manage_mac_read_resp {
	__u8 lport_num;
	__u8 addr_type;
#define E810_AQC_MAN_MAC_ADDR_TYPE_LAN	0
#define E810_AQC_MAN_MAC_ADDR_TYPE_WOL	1
	__u8 mac_addr[6];	/* network order */
};

/* ---- 0x0210 / 0x0211 / 0x0213 VSI (indirect) --------------------------- */

struct e810_aqc_add_update_free_vsi {
	__le16 vsi_num;
#define E810_AQ_VSI_NUM			GENMASK(9, 0)
#define E810_AQ_VSI_IS_VALID		BIT(15)
	__le16 cmd_flags;
	__u8 vf_id;
	__u8 reserved;
	__le16 vsi_flags;
#define E810_AQ_VSI_TYPE		GENMASK(1, 0)
#define E810_AQ_VSI_TYPE_PF		2
	__le32 addr_high;
	__le32 addr_low;
};

struct e810_aqc_add_update_free_vsi_resp {
	__le16 vsi_num;
	__le16 ext_status;
	__le16 vsi_used;
	__le16 vsi_free;
	__le32 addr_high;
	__le32 addr_low;
};

/*
 * VSI properties buffer (128 bytes). Only the parts this project uses are
 * named; the rest stays reserved and is passed through.
 */
struct e810_aqc_vsi_props {
	__le16 valid_sections;
#define E810_AQ_VSI_PROP_SW_VALID	BIT(0)
#define E810_AQ_VSI_PROP_RXQ_MAP_VALID	BIT(6)
#define E810_AQ_VSI_PROP_Q_OPT_VALID	BIT(7)
	__u8 sw_id;
	__u8 sw_flags;
	__u8 rsvd_switch_security[24];	/* switch, security, VLAN, UP tables */
	__le16 mapping_flags;		/* off 28: b0 0 contiguous, 1 scattered */
	__le16 q_mapping[16];		/* off 30: [0] first queue, [1] count */
	__le16 tc_mapping[8];		/* off 62 */
	__u8 q_opt_rss;			/* off 78 */
	__u8 q_opt_tc;
	__u8 q_opt_flags;		/* off 80 */
#define E810_AQ_VSI_Q_OPT_PE_FLTR_EN	BIT(0)
	__u8 rsvd_tail[47];
};

/* ---- 0x0603 set MAC config (direct) ------------------------------------- */

struct e810_aqc_set_mac_cfg {
	__le16 max_frame_size;
	__u8 params;
	__u8 tx_tmr_priority;
	__le16 tx_tmr_value;
	__le16 fc_refresh_threshold;
	__u8 drop_opts;
	__u8 reserved[7];
};

#define E810_AQ_SET_MAC_FRAME_SIZE_MAX	9728

/* ---- 0x0607 get link status (indirect) / LSE event ----------------------- */

struct e810_aqc_get_link_status {
	__u8 lport_num;
	__u8 reserved;
	__le16 cmd_flags;
#define E810_AQ_LSE			GENMASK(1, 0)
#define E810_AQ_LSE_NOP			0
#define E810_AQ_LSE_DIS			2
#define E810_AQ_LSE_ENA			3
#define E810_AQ_LSE_IS_ENABLED		BIT(0)	/* response */
	__le32 reserved2;
	__le32 addr_high;
	__le32 addr_low;
};

/* Link status data, V1 (32 bytes): the response and the LSE payload. */
struct e810_aqc_link_status_data {
	__u8 topo_media_conflict;
	__u8 link_cfg_err;
	__u8 link_info;
#define E810_AQ_LINK_UP			BIT(0)
#define E810_AQ_MEDIA_AVAILABLE		BIT(6)
	__u8 an_info;
#define E810_AQ_AN_COMPLETED		BIT(0)
	__u8 ext_info;
	__u8 lb_status;
	__le16 max_frame_size;
	__u8 cfg;
	__u8 power_desc;
	__le16 link_speed;
#define E810_AQ_LINK_SPEED_10MB		BIT(0)
#define E810_AQ_LINK_SPEED_100MB	BIT(1)
#define E810_AQ_LINK_SPEED_1000MB	BIT(2)
#define E810_AQ_LINK_SPEED_2500MB	BIT(3)
#define E810_AQ_LINK_SPEED_5GB		BIT(4)
#define E810_AQ_LINK_SPEED_10GB		BIT(5)
#define E810_AQ_LINK_SPEED_20GB		BIT(6)
#define E810_AQ_LINK_SPEED_25GB		BIT(7)
#define E810_AQ_LINK_SPEED_40GB		BIT(8)
#define E810_AQ_LINK_SPEED_50GB		BIT(9)
#define E810_AQ_LINK_SPEED_100GB	BIT(10)
#define E810_AQ_LINK_SPEED_200GB	BIT(11)
#define E810_AQ_LINK_SPEED_UNKNOWN	BIT(15)
	__le16 reserved;
	__u8 ext_fec_status;
	__u8 reserved2;
	__le64 phy_type_low;
	__le64 phy_type_high;
};

/* ---- 0x0613 set event mask (direct) ---------------------------------------- */

struct e810_aqc_set_event_mask {
	__u8 lport_num;
	__u8 reserved[7];
	__le16 event_mask;	/* bit set = event masked */
#define E810_AQ_LINK_EVENT_UPDOWN	BIT(1)
#define E810_AQ_LINK_EVENT_MEDIA_NA	BIT(2)
	__u8 reserved1[6];
};

/* ---- Tx scheduler element info (16 bytes, inside queue commands) -------- */

struct e810_aqc_txsched_elem {
	__u8 elem_type;
	__u8 valid_sections;
	__u8 generic;
	__u8 flags;
	__le16 cir_bw_profile_idx;
	__le16 cir_bw_alloc;
	__le16 eir_bw_profile_idx;
	__le16 eir_bw_alloc;
	__le16 srl_id;
	__le16 reserved2;
};

/* valid_sections of an element: which parts the firmware should apply. */
#define E810_AQC_ELEM_VALID_GENERIC	BIT(0)
#define E810_AQC_ELEM_VALID_CIR		BIT(1)
#define E810_AQC_ELEM_VALID_EIR		BIT(2)
#define E810_AQC_ELEM_VALID_SHARED	BIT(3)

/* Default rate-limit profile and bandwidth weight ice gives new nodes. */
#define E810_SCHED_DFLT_RL_PROF_ID	0
#define E810_SCHED_DFLT_BW_WT		4

/* ---- 0x0C30 add Tx LAN queues (indirect, RD; TEIDs written back) ------- */

struct e810_aqc_add_txqs {
	__u8 num_qgrps;
	__u8 reserved[7];
	__le32 addr_high;
	__le32 addr_low;
};

#define E810_TXQ_CTX_SIZE		22	/* packed context bytes */

struct e810_aqc_add_txqs_perq {
	__le16 txq_id;		/* PF-relative queue number */
	__u8 rsvd[2];
	__le32 q_teid;		/* written back by the device */
	__u8 txq_ctx[E810_TXQ_CTX_SIZE];
	__u8 rsvd2[2];
	struct e810_aqc_txsched_elem info;
};

struct e810_aqc_add_tx_qgrp {
	__le32 parent_teid;
	__u8 num_txqs;
	__u8 rsvd[3];
	/* followed by num_txqs struct e810_aqc_add_txqs_perq */
};

/* ---- 0x0C31 disable Tx LAN queues (indirect, RD) ------------------------ */

struct e810_aqc_dis_txqs {
	__u8 cmd_type;
#define E810_AQC_Q_DIS_CMD_S		GENMASK(1, 0)
#define E810_AQC_Q_DIS_CMD_NO_RESET	0
#define E810_AQC_Q_DIS_CMD_FLUSH_PIPE	BIT(3)
	__u8 num_entries;
	__le16 vmvf_and_timeout;
#define E810_AQC_Q_DIS_VMVF_NUM		GENMASK(9, 0)
#define E810_AQC_Q_DIS_TIMEOUT		GENMASK(15, 10)
#define E810_AQC_Q_DIS_TIMEOUT_DFLT	5	/* the value ice sends */
	__le32 blocked_cgds;
	__le32 addr_high;
	__le32 addr_low;
};

/*
 * One item of the 0x0C31 buffer: header plus num_qs __le16 queue ids
 * (b15 set = RDMA qset), then 2 bytes of padding when num_qs is even.
 */
struct e810_aqc_dis_txq_item {
	__le32 parent_teid;
	__u8 num_qs;
	__u8 rsvd;
	/* followed by __le16 q_id[num_qs] */
} E810_PACKED;

#define E810_AQC_Q_DIS_BUF_ELEM_TYPE_RDMA_QSET	BIT(15)

/* ---- 0x0C33 add RDMA qsets (indirect) ---------------------------------------- */

struct e810_aqc_add_rdma_qset {
	__u8 num_qset_grps;
	__u8 reserved[7];
	__le32 addr_high;
	__le32 addr_low;
};

struct e810_aqc_add_rdma_qset_perq {
	__le16 tx_qset_id;
	__u8 rsvd[2];
	__le32 qset_teid;	/* written back by the device */
	struct e810_aqc_txsched_elem info;
};

struct e810_aqc_add_rdma_qset_grp {
	__le32 parent_teid;
	__le16 num_qsets;
	__u8 rsvd[2];
	/* followed by num_qsets struct e810_aqc_add_rdma_qset_perq */
};

/* ---- size checks --------------------------------------------------------- */

#define E810_AQ_CHECK_SIZE(s, n) \
	_Static_assert(sizeof(struct s) == (n), #s " must be " #n " bytes")

E810_AQ_CHECK_SIZE(e810_aq_desc, 32);
E810_AQ_CHECK_SIZE(e810_aqc_get_ver, 16);
E810_AQ_CHECK_SIZE(e810_aqc_driver_ver, 16);
E810_AQ_CHECK_SIZE(e810_aqc_q_shutdown, 16);
E810_AQ_CHECK_SIZE(e810_aqc_list_caps, 16);
E810_AQ_CHECK_SIZE(e810_aqc_caps_elem, 32);
E810_AQ_CHECK_SIZE(e810_aqc_manage_mac_read, 16);
E810_AQ_CHECK_SIZE(e810_aqc_manage_mac_read_resp, 8);
E810_AQ_CHECK_SIZE(e810_aqc_add_update_free_vsi, 16);
E810_AQ_CHECK_SIZE(e810_aqc_add_update_free_vsi_resp, 16);
E810_AQ_CHECK_SIZE(e810_aqc_vsi_props, 128);
E810_AQ_CHECK_SIZE(e810_aqc_set_mac_cfg, 16);
E810_AQ_CHECK_SIZE(e810_aqc_get_link_status, 16);
E810_AQ_CHECK_SIZE(e810_aqc_link_status_data, 32);
E810_AQ_CHECK_SIZE(e810_aqc_set_event_mask, 16);
E810_AQ_CHECK_SIZE(e810_aqc_txsched_elem, 16);
E810_AQ_CHECK_SIZE(e810_aqc_add_txqs, 16);
E810_AQ_CHECK_SIZE(e810_aqc_add_txqs_perq, 48);
E810_AQ_CHECK_SIZE(e810_aqc_add_tx_qgrp, 8);
E810_AQ_CHECK_SIZE(e810_aqc_dis_txqs, 16);
E810_AQ_CHECK_SIZE(e810_aqc_dis_txq_item, 6);
E810_AQ_CHECK_SIZE(e810_aqc_add_rdma_qset, 16);
E810_AQ_CHECK_SIZE(e810_aqc_add_rdma_qset_perq, 24);
E810_AQ_CHECK_SIZE(e810_aqc_add_rdma_qset_grp, 8);

/* ---- 0xFF30 / 0xFF31 / 0xFF32 firmware logging (direct, indirect) ------ */

#define E810_AQC_FW_LOGS_CONFIG		0xFF30
#define E810_AQC_FW_LOGS_REGISTER	0xFF31
#define E810_AQC_FW_LOGS_QUERY		0xFF32
#define E810_FW_LOG_MODULES		32	/* ICE_AQC_FW_LOG_ID_MAX */
#define E810_FW_LOG_LEVEL_MAX		4	/* verbose */
#define E810_FW_LOG_RESOLUTION_MIN	1
#define E810_FW_LOG_RESOLUTION_MAX	128

struct e810_aqc_fw_log {
	__u8 cmd_flags;
#define E810_AQC_FW_LOG_CONF_UART_EN	BIT(0)
#define E810_AQC_FW_LOG_CONF_AQ_EN	BIT(1)
#define E810_AQC_FW_LOG_QUERY_REGISTERED BIT(2)	/* query response */
#define E810_AQC_FW_LOG_CONF_SET_VALID	BIT(3)
#define E810_AQC_FW_LOG_AQ_REGISTER	BIT(0)	/* 0xFF31 */
	__u8 rsp_flag;
	__le16 fw_rt_msb;
	__le16 log_resolution;
	__le16 mdl_cnt;
	__le32 addr_high;
	__le32 addr_low;
};

/* One module's level, in the 0xFF30 buffer and the 0xFF32 answer. */
struct e810_aqc_fw_log_module {
	__le16 module_identifier;
	__u8 log_level;
	__u8 rsvd0;
};

E810_AQ_CHECK_SIZE(e810_aqc_fw_log, 16);
E810_AQ_CHECK_SIZE(e810_aqc_fw_log_module, 4);

/* The wire formats of each firmware area, kept in their own headers. */
#include "e810_aq_nvm.h"
#include "e810_aq_sched.h"
#include "e810_aq_ddp.h"
#include "e810_aq_switch.h"
#include "e810_aq_port.h"

#endif /* E810_AQ_H */
