/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * E810 admin queue: the nvm commands' wire formats (see e810_aq.h for the
 * descriptor). Shared by the device model and the drivers.
 */
#ifndef E810_AQ_NVM_H
#define E810_AQ_NVM_H

enum e810_aq_nvm_opc {
	E810_AQC_REQ_RES = 0x0008,
	E810_AQC_RELEASE_RES = 0x0009,
	E810_AQC_NVM_READ = 0x0701,
	E810_AQC_NVM_ERASE = 0x0702,
	E810_AQC_NVM_WRITE = 0x0703,
	E810_AQC_NVM_CHECKSUM = 0x0706,
	E810_AQC_NVM_WRITE_ACTIVATE = 0x0707,
	E810_AQC_NVM_UPDATE_EMPR = 0x0709,
	E810_AQC_NVM_PKG_DATA = 0x070A,
	E810_AQC_NVM_PASS_COMP_TBL = 0x070B,
};

/* ---- 0x0008 request / 0x0009 release resource ownership (direct) ------- */

struct e810_aqc_req_res {
	__le16 res_id;
#define E810_AQ_RES_ID_NVM		1
#define E810_AQ_RES_ID_SDP		2
#define E810_AQ_RES_ID_CHNG_LOCK	3
#define E810_AQ_RES_ID_GLBL_LOCK	4
	__le16 access_type;
#define E810_AQ_RES_ACCESS_READ		1
#define E810_AQ_RES_ACCESS_WRITE	2
	/* request: ms wanted (0: default); response: ms granted/left */
	__le32 timeout;
#define E810_AQ_RES_NVM_READ_DFLT_TIMEOUT_MS	3000
#define E810_AQ_RES_NVM_WRITE_DFLT_TIMEOUT_MS	180000
#define E810_AQ_RES_CHNG_LOCK_DFLT_TIMEOUT_MS	1000
#define E810_AQ_RES_GLBL_LOCK_DFLT_TIMEOUT_MS	3000
	__le32 res_number;	/* SDP: pin number */
	__le16 status;		/* global config lock only */
#define E810_AQ_RES_GLBL_SUCCESS	0
#define E810_AQ_RES_GLBL_IN_PROG	1
#define E810_AQ_RES_GLBL_DONE		2
	__u8 reserved[2];
};

/* ---- 0x0701 NVM read (indirect), 0x0702 erase, 0x0703 write ------------ */

struct e810_aqc_nvm {
	__le16 offset_low;
	__u8 offset_high;	/* byte offset bits 23:16 */
	__u8 cmd_flags;
#define E810_AQC_NVM_LAST_CMD		BIT(0)
#define E810_AQC_NVM_FLASH_ONLY		BIT(7)	/* raw flash, not Shadow RAM */
	__le16 module_typeid;
#define E810_AQC_NVM_START_POINT	0	/* flat addressing */
#define E810_AQC_NVM_TX_TOPO_MOD_ID	0x14B	/* PFA TLV: Tx topology choice */
	__le16 length;
	__le32 addr_high;
	__le32 addr_low;
};

#define E810_AQC_NVM_MAX_OFFSET		0xFFFFFF
#define E810_NVM_SECTOR_SIZE		4096	/* no read crosses one */

/* ---- 0x0706 NVM checksum (direct) -------------------------------------- */

struct e810_aqc_nvm_checksum {
	__u8 flags;
#define E810_AQC_NVM_CHECKSUM_VERIFY	BIT(0)
#define E810_AQC_NVM_CHECKSUM_RECALC	BIT(1)
	__u8 rsvd;
	__le16 checksum;	/* response */
#define E810_AQC_NVM_CHECKSUM_CORRECT	0xBABA
	__u8 rsvd2[12];
};

/* ---- Shadow RAM words and flash module layout ice reads ---------------- */

#define E810_SR_CTRL_WORD		0x00
#define E810_SR_CTRL_WORD_VALID_M	GENMASK(7, 6)
#define E810_SR_CTRL_WORD_VALID		0x1	/* in VALID_M */
#define E810_SR_CTRL_WORD_OROM_BANK	BIT(3)
#define E810_SR_CTRL_WORD_NETLIST_BANK	BIT(4)
#define E810_SR_CTRL_WORD_NVM_BANK	BIT(5)
#define E810_SR_PBA_BLOCK_PTR		0x16	/* also the PBA TLV type */
#define E810_SR_NVM_DEV_STARTER_VER	0x18
#define E810_SR_NVM_VER_HI_M		GENMASK(15, 12)
#define E810_SR_NVM_VER_LO_M		GENMASK(7, 0)
#define E810_SR_NVM_WOL_CFG		0x19
#define E810_SR_NVM_EETRACK_LO		0x2D
#define E810_SR_NVM_EETRACK_HI		0x2E
#define E810_SR_PFA_PTR			0x40
#define E810_SR_1ST_NVM_BANK_PTR	0x42
#define E810_SR_NVM_BANK_SIZE		0x43
#define E810_SR_1ST_OROM_BANK_PTR	0x44
#define E810_SR_OROM_BANK_SIZE		0x45
#define E810_SR_NETLIST_BANK_PTR	0x46
#define E810_SR_NETLIST_BANK_SIZE	0x47
#define E810_SR_PTR_4KB_UNITS		BIT(15)
#define E810_SR_LINK_DFLT_OVERRIDE_TLV	0x134
#define E810_SR_LINK_OVERRIDE_WORDS	10	/* per port */

/* NVM bank: CSS header (dword fields), then the Shadow RAM copy. */
#define E810_NVM_CSS_HDR_LEN_L		0x02
#define E810_NVM_CSS_HDR_LEN_H		0x03
#define E810_NVM_CSS_SREV_L		0x14
#define E810_NVM_CSS_SREV_H		0x15
#define E810_NVM_AUTH_HEADER_LEN	8	/* words after the CSS header */

/* Netlist bank: link topology module with the netlist ID block. */
#define E810_NETLIST_LINK_TOPO_MOD_ID	0x011B
#define E810_NETLIST_ID_BLK_SIZE	0x30	/* words */

/* Option ROM bank: 512-byte aligned "$CIV" combo version block. */
struct e810_orom_civd {
	__u8 signature[4];	/* "$CIV" */
	__u8 checksum;		/* all bytes sum to 0 mod 256 */
	__le32 combo_ver;	/* major 31:24, build 23:8, patch 7:0 */
	__u8 combo_name_len;
	__le16 combo_name[32];
} E810_PACKED;

E810_AQ_CHECK_SIZE(e810_aqc_req_res, 16);
E810_AQ_CHECK_SIZE(e810_aqc_nvm, 16);
E810_AQ_CHECK_SIZE(e810_aqc_nvm_checksum, 16);
E810_AQ_CHECK_SIZE(e810_orom_civd, 74);

#endif /* E810_AQ_NVM_H */
