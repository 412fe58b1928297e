/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * E810 admin queue: the ddp commands' wire formats (see e810_aq.h for the
 * descriptor). Shared by the device model and the drivers.
 *
 * DDP package download (0x0C40), upload section (0x0C41), update package
 * (0x0C42), get package info list (0x0C43), set/get VLAN mode
 * (0x020C/0x020D), and the 4 KB package buffer format they carry.
 */
#ifndef E810_AQ_DDP_H
#define E810_AQ_DDP_H

#define E810_AQC_SET_VLAN_MODE		0x020C
#define E810_AQC_GET_VLAN_MODE		0x020D
#define E810_AQC_DOWNLOAD_PKG		0x0C40
#define E810_AQC_UPLOAD_SECTION		0x0C41
#define E810_AQC_UPDATE_PKG		0x0C42
#define E810_AQC_GET_PKG_INFO_LIST	0x0C43

/* Return codes of the package security checks (beyond enum e810_aq_rc). */
#define E810_AQ_RC_ENOSEC		24	/* no security manifest */
#define E810_AQ_RC_EBADSIG		25	/* bad RSA signature */
#define E810_AQ_RC_ESVN			26	/* security revision too low */
#define E810_AQ_RC_EBADMAN		27	/* manifest hash mismatch */
#define E810_AQ_RC_EBADBUF		28	/* buffer hash mismatch */

/* Resource ids of 0x0008/0x0009 that guard the package. */
#define E810_DDP_RES_CHANGE_LOCK	3
#define E810_DDP_RES_GLOBAL_CFG_LOCK	4

/* ---- 0x0C40 / 0x0C41 / 0x0C42 (indirect, RD) ---------------------------- */

struct e810_aqc_download_pkg {
	__u8 flags;
#define E810_AQC_DOWNLOAD_PKG_LAST_BUF	BIT(0)
	__u8 reserved[3];
	__le32 reserved1;
	__le32 addr_high;
	__le32 addr_low;
};

/* Written at the start of the buffer when a download/update fails. */
struct e810_aqc_download_pkg_resp {
	__le32 error_offset;	/* byte offset in the buffer of the fault */
	__le32 error_info;	/* E810_DDP_ERR_* */
	__le32 addr_high;
	__le32 addr_low;
};

/* error_info values of the model (what was wrong at error_offset). */
#define E810_DDP_ERR_SECT_COUNT		1	/* section_count out of range */
#define E810_DDP_ERR_DATA_END		2	/* data_end out of range */
#define E810_DDP_ERR_SECT_TABLE		3	/* table overlaps the data */
#define E810_DDP_ERR_SECT_TYPE		4	/* type 0 or a metadata type */
#define E810_DDP_ERR_SECT_OFFSET	5	/* section outside the data */
#define E810_DDP_ERR_SECT_SIZE		6	/* size 0 or past data_end */
#define E810_DDP_ERR_SEQUENCE		7	/* buffer out of order */
#define E810_DDP_ERR_BUF_LEN		8	/* not a whole 4 KB buffer */

/* ---- package buffer (4 KB): header, section table, section data --------- */

#define E810_PKG_BUF_SIZE		4096
#define E810_PKG_MIN_S_COUNT		1
#define E810_PKG_MAX_S_COUNT		511
#define E810_PKG_MIN_S_DATA_END		12
#define E810_PKG_MAX_S_DATA_END		4096
#define E810_PKG_MAX_S_SZ		4084
#define E810_PKG_METADATA_BUF		0x80000000u	/* section type b31 */

struct e810_pkg_section_entry {
	__le32 type;
	__le16 offset;
	__le16 size;
};

struct e810_pkg_buf_hdr {
	__le16 section_count;
	__le16 data_end;
	/* followed by section_count struct e810_pkg_section_entry */
};

/* Section types the firmware looks into. */
#define E810_SID_MANIFEST		2	/* signed manifest */
#define E810_SID_BUF_HASHES		3	/* hash table of the buffers */
#define E810_SID_METADATA		1	/* struct e810_pkg_meta_sect */
#define E810_SID_RXPARSER_BOOST_TCAM	56
#define E810_SID_RXPARSER_METADATA_INIT	58
#define E810_SID_TXPARSER_BOOST_TCAM	66

/* The package's identity, carried by section E810_SID_METADATA. */
struct e810_pkg_ver {
	__u8 major;
	__u8 minor;
	__u8 update;
	__u8 draft;
};

#define E810_PKG_META_NAME_SIZE		28

struct e810_pkg_meta_sect {
	struct e810_pkg_ver ver;
	char name[E810_PKG_META_NAME_SIZE];
	__le32 track_id;
};

/* Rx parser metadata init table: 24-byte entries, bit 183 = DVM capable. */
#define E810_META_INIT_ENTRY_SIZE	24
#define E810_META_INIT_MAX_ENTRIES	64
#define E810_META_VLAN_MODE_ENTRY	0
#define E810_META_VLAN_MODE_BIT		183

struct e810_pkg_meta_init_sect {
	__le16 count;
	__le16 offset;		/* first entry index */
	/* followed by count entries of E810_META_INIT_ENTRY_SIZE bytes */
};

/* ---- 0x0C43 get package info list (indirect) ----------------------------- */

#define E810_PKG_NAME_SIZE		32
#define E810_PKG_INFO_NAME_SIZE		28

struct e810_aqc_get_pkg_info {
	struct e810_pkg_ver ver;
	char name[E810_PKG_INFO_NAME_SIZE];
	__le32 track_id;
	__u8 is_in_nvm;
	__u8 is_active;
	__u8 is_active_at_boot;
	__u8 is_modified;
};

struct e810_aqc_get_pkg_info_resp {
	__le32 count;
	/* followed by count struct e810_aqc_get_pkg_info */
};

/* ---- 0x020C set / 0x020D get VLAN mode (indirect, 100 bytes) ------------- */

struct e810_aqc_set_vlan_mode {
	__u8 reserved;
	__u8 l2tag_prio_tagging;
#define E810_AQ_VLAN_PRIO_TAG_MAX		4
	__u8 l2tag_reserved[64];
	__u8 rdma_packet;
#define E810_AQ_SVM_VLAN_RDMA_PKT_FLAG_SETTING	0x10
#define E810_AQ_DVM_VLAN_RDMA_PKT_FLAG_SETTING	0x1A
	__u8 rdma_reserved[2];
	__u8 mng_vlan_prot_id;
#define E810_AQ_VLAN_MNG_PROTOCOL_ID_OUTER	0x10
#define E810_AQ_VLAN_MNG_PROTOCOL_ID_INNER	0x11
	__u8 prot_id_reserved[30];
};

struct e810_aqc_get_vlan_mode {
	__u8 vlan_mode;
#define E810_AQ_VLAN_MODE_DVM_ENA		BIT(0)
	__u8 l2tag_prio_tagging;
	__u8 reserved[98];
};

E810_AQ_CHECK_SIZE(e810_aqc_download_pkg, 16);
E810_AQ_CHECK_SIZE(e810_aqc_download_pkg_resp, 16);
E810_AQ_CHECK_SIZE(e810_pkg_section_entry, 8);
E810_AQ_CHECK_SIZE(e810_pkg_buf_hdr, 4);
E810_AQ_CHECK_SIZE(e810_pkg_ver, 4);
E810_AQ_CHECK_SIZE(e810_pkg_meta_sect, 36);
E810_AQ_CHECK_SIZE(e810_pkg_meta_init_sect, 4);
E810_AQ_CHECK_SIZE(e810_aqc_get_pkg_info, 40);
E810_AQ_CHECK_SIZE(e810_aqc_get_pkg_info_resp, 4);
E810_AQ_CHECK_SIZE(e810_aqc_set_vlan_mode, 100);
E810_AQ_CHECK_SIZE(e810_aqc_get_vlan_mode, 100);

#endif /* E810_AQ_DDP_H */
