/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * E810 admin queue: the sched commands' wire formats (see e810_aq.h for the
 * descriptor). Shared by the device model and the drivers.
 *
 * The element info itself (struct e810_aqc_txsched_elem) and the queue
 * commands 0x0C30/0x0C31/0x0C33 stay in e810_aq.h.
 */
#ifndef E810_AQ_SCHED_H
#define E810_AQ_SCHED_H

enum e810_aq_sched_opc {
	E810_AQC_GET_DFLT_TOPO = 0x0400,
	E810_AQC_ADD_SCHED_ELEMS = 0x0401,
	E810_AQC_CFG_SCHED_ELEMS = 0x0403,
	E810_AQC_GET_SCHED_ELEMS = 0x0404,
	E810_AQC_MOVE_SCHED_ELEMS = 0x0408,
	E810_AQC_SUSPEND_SCHED_ELEMS = 0x0409,
	E810_AQC_RESUME_SCHED_ELEMS = 0x040A,
	E810_AQC_QUERY_PORT_ETS = 0x040E,
	E810_AQC_DELETE_SCHED_ELEMS = 0x040F,
	E810_AQC_QUERY_SCHED_RES = 0x0412,
};

/* Logical layers of the default (9-layer) tree and the ones ice uses. */
#define E810_SCHED_NUM_LAYERS		9
#define E810_SCHED_LAYER_ROOT		0
#define E810_SCHED_LAYER_TC		1
#define E810_SCHED_LAYER_QGRP		(E810_SCHED_NUM_LAYERS - 2)
#define E810_SCHED_LAYER_LEAF		(E810_SCHED_NUM_LAYERS - 1)
#define E810_SCHED_MAX_TCS		8
#define E810_SCHED_INVAL_TEID		0xFFFFFFFFu

/* elem_type of struct e810_aqc_txsched_elem */
#define E810_AQC_ELEM_TYPE_UNDEFINED	0
#define E810_AQC_ELEM_TYPE_ROOT_PORT	1
#define E810_AQC_ELEM_TYPE_TC		2
#define E810_AQC_ELEM_TYPE_SE_GENERIC	3
#define E810_AQC_ELEM_TYPE_ENTRY_POINT	4
#define E810_AQC_ELEM_TYPE_LEAF		5
#define E810_AQC_ELEM_TYPE_SE_PADDED	6

/* flags of struct e810_aqc_txsched_elem */
#define E810_AQC_ELEM_FLAG_SUSPEND	BIT(0)

/* ---- 0x0400 get default topology (indirect) ---------------------------- */

struct e810_aqc_get_topo {
	__u8 port_num;
	__u8 num_branches;	/* response: 1..8 */
	__le16 reserved1;
	__le32 reserved2;
	__le32 addr_high;
	__le32 addr_low;
};

/* ---- 0x0401/0x0403/0x0404/0x0408/0x0409/0x040A/0x040F (indirect) ------- */

struct e810_aqc_sched_elem_cmd {
	__le16 num_elem_req;	/* groups (add, delete, move) or elements */
	__le16 num_elem_resp;	/* response: how many were done */
	__le32 reserved;
	__le32 addr_high;
	__le32 addr_low;
};

/* One element: where it hangs, its id and its info. */
struct e810_aqc_txsched_elem_data {
	__le32 parent_teid;
	__le32 node_teid;	/* 0x0401: written back by the device */
	struct e810_aqc_txsched_elem data;
};

/* Group header of 0x0401 (+ elem_data[]), 0x040F (+ __le32 teid[]), 0x0400. */
struct e810_aqc_txsched_topo_grp_info_hdr {
	__le32 parent_teid;
	__le16 num_elems;
	__le16 reserved2;
};

/* One branch of the 0x0400 answer: always room for every layer. */
struct e810_aqc_get_topo_elem {
	struct e810_aqc_txsched_topo_grp_info_hdr hdr;
	struct e810_aqc_txsched_elem_data generic[E810_SCHED_NUM_LAYERS];
};

/* 0x0408 group header, followed by __le32 teid[num_elems]. */
struct e810_aqc_txsched_move_grp_info_hdr {
	__le32 src_parent_teid;
	__le32 dest_parent_teid;
	__le16 num_elems;
	__u8 mode;
#define E810_AQC_MOVE_ELEM_MODE_SAME_PF	0
	__u8 reserved;
};

/* ---- 0x040E query port ETS (indirect) ----------------------------------- */

struct e810_aqc_query_port_ets {
	__le32 port_teid;	/* the root element */
	__le32 reserved;
	__le32 addr_high;
	__le32 addr_low;
};

struct e810_aqc_port_ets_elem {
	__u8 tc_valid_bits;
	__u8 reserved[3];
	__le32 up2tc;		/* 3 bits per user priority */
	__u8 tc_bw_share[E810_SCHED_MAX_TCS];
	__le32 port_eir_prof_id;
	__le32 port_cir_prof_id;
	__le32 tc_node_prio;
	__u8 reserved1[4];
	__le32 tc_node_teid[E810_SCHED_MAX_TCS];	/* INVAL_TEID: no TC */
};

/* ---- 0x0412 query scheduler resource allocation (indirect) -------------- */

struct e810_aqc_generic_sched_props {
	__le16 phys_levels;
	__le16 logical_levels;
	__u8 flattening_bitmap;
	__u8 max_device_cgds;
	__u8 max_pf_cgds;
	__u8 rsvd0;
	__le16 rdma_qsets;
	__u8 rsvd1[22];
};

struct e810_aqc_layer_props {
	__u8 logical_layer;
	__u8 chunk_size;
	__le16 max_device_nodes;
	__le16 max_pf_nodes;
	__u8 rsvd0[4];
	__le16 max_sibl_grp_sz;	/* children one parent of the layer above has */
	__le16 max_cir_rl_profiles;
	__le16 max_eir_rl_profiles;
	__le16 max_srl_profiles;
	__u8 rsvd1[14];
};

struct e810_aqc_query_txsched_res_resp {
	struct e810_aqc_generic_sched_props sched_props;
	struct e810_aqc_layer_props layer_props[E810_SCHED_NUM_LAYERS];
};

E810_AQ_CHECK_SIZE(e810_aqc_get_topo, 16);
E810_AQ_CHECK_SIZE(e810_aqc_sched_elem_cmd, 16);
E810_AQ_CHECK_SIZE(e810_aqc_txsched_elem_data, 24);
E810_AQ_CHECK_SIZE(e810_aqc_txsched_topo_grp_info_hdr, 8);
E810_AQ_CHECK_SIZE(e810_aqc_get_topo_elem, 224);
E810_AQ_CHECK_SIZE(e810_aqc_txsched_move_grp_info_hdr, 12);
E810_AQ_CHECK_SIZE(e810_aqc_query_port_ets, 16);
E810_AQ_CHECK_SIZE(e810_aqc_port_ets_elem, 64);
E810_AQ_CHECK_SIZE(e810_aqc_generic_sched_props, 32);
E810_AQ_CHECK_SIZE(e810_aqc_layer_props, 32);
E810_AQ_CHECK_SIZE(e810_aqc_query_txsched_res_resp, 320);

#endif /* E810_AQ_SCHED_H */
