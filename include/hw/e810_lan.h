/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * Intel E810 LAN queues: Tx/Rx descriptors and the packed Tx/Rx queue
 * contexts (docs/hw-reference-lan.md 3.12, 4.2, 4.4, 4.6).
 *
 * Queue contexts are little-endian bit streams: a field of WIDTH bits at
 * bit LSB. e810_ctx_get()/e810_ctx_set() are the one implementation of that
 * packing, used by the device model and by ice_lite alike.
 */
#ifndef E810_LAN_H
#define E810_LAN_H

#include "e810_compat.h"

/* ---- Tx data descriptor (16 bytes) -------------------------------------- */

struct e810_tx_desc {
	__le64 buf_addr;
	__le64 cmd_type_offset_bsz;
};

#define E810_TXD_DTYPE			GENMASK_ULL(3, 0)
#define E810_TXD_CMD			GENMASK_ULL(15, 4)
#define E810_TXD_OFFSET			GENMASK_ULL(33, 16)
#define E810_TXD_BUF_SZ			GENMASK_ULL(47, 34)
#define E810_TXD_L2TAG1			GENMASK_ULL(63, 48)

#define E810_TX_DESC_DTYPE_DATA		0x0
#define E810_TX_DESC_DTYPE_CTX		0x1
#define E810_TX_DESC_DTYPE_DESC_DONE	0xF	/* written back by the device */

#define E810_TX_DESC_CMD_EOP		0x001
#define E810_TX_DESC_CMD_RS		0x002
#define E810_TX_DESC_CMD_IL2TAG1	0x008
/* Inner IP type (CMD bits 6:5) and L4 type (CMD bits 9:8) for offloads. */
#define E810_TX_DESC_CMD_IIPT		0x060
#define E810_TX_DESC_CMD_IIPT_IPV6	0x020
#define E810_TX_DESC_CMD_IIPT_IPV4	0x040	/* IP checksum left alone */
#define E810_TX_DESC_CMD_IIPT_IPV4_CSUM	0x060	/* IP checksum computed */
#define E810_TX_DESC_CMD_L4T		0x300
#define E810_TX_DESC_CMD_L4T_TCP	0x100
#define E810_TX_DESC_CMD_L4T_SCTP	0x200
#define E810_TX_DESC_CMD_L4T_UDP	0x300

/* OFFSET field of a data descriptor: header lengths for the offloads. */
#define E810_TXD_OFF_MACLEN		GENMASK(6, 0)	/* 2-byte words */
#define E810_TXD_OFF_IPLEN		GENMASK(13, 7)	/* 4-byte words */
#define E810_TXD_OFF_L4LEN		GENMASK(17, 14)	/* 4-byte words */

/* ---- Tx context descriptor (16 bytes, DTYPE 1) -------------------------- */

struct e810_tx_ctx_desc {
	__le32 tunneling_params;
	__le16 l2tag2;
	__le16 rsvd;
	__le64 qw1;
};

#define E810_TXD_CTX_CMD		GENMASK_ULL(10, 4)
#define E810_TXD_CTX_TSO_LEN		GENMASK_ULL(47, 30)
#define E810_TXD_CTX_MSS		GENMASK_ULL(63, 50)

#define E810_TX_CTX_DESC_TSO		0x01
#define E810_TX_CTX_DESC_TSYN		0x02
#define E810_TX_CTX_DESC_IL2TAG2	0x04

/* MSS limits the device accepts for TSO. */
#define E810_TSO_MSS_MIN		64
#define E810_TSO_MSS_MAX		9668

/* A packet may use at most this many data descriptors (hardware limit). */
#define E810_TX_MAX_DESC_PER_PKT	8
#define E810_TX_MAX_BUF_SZ		(16 * 1024 - 1)

/* ---- Rx descriptors (32 bytes) ------------------------------------------- */

/* Read format, written by the driver. */
struct e810_rx_desc_read {
	__le64 pkt_addr;
	__le64 hdr_addr;	/* 0: no header split */
	__le64 rsvd1;
	__le64 rsvd2;
};

/* Flexible NIC write-back (RXDID 2), written by the device. */
struct e810_rx_flex_desc_nic {
	__u8 rxdid;
	__u8 mir_id_umb_cast;
	__le16 ptype_flex_flags0;
	__le16 pkt_len;
	__le16 hdr_len_sph_flex_flags1;
	__le16 status_error0;
	__le16 l2tag1;
	__le32 rss_hash;
	__le16 status_error1;
	__u8 flexi_flags2;
	__u8 ts_low;
	__le16 raw_csum;
	__le16 l2tag2_2nd;
	__le32 flow_id;
	__le32 flow_id_ipv6;
};

#define E810_RXDID_FLEX_NIC		2
#define E810_RX_FLEX_PTYPE		GENMASK(9, 0)
#define E810_RX_FLEX_PKT_LEN		GENMASK(13, 0)
#define E810_RX_FLEX_UMBCAST		GENMASK(7, 6)
#define E810_RX_FLEX_STATUS0_DD		BIT(0)
#define E810_RX_FLEX_STATUS0_EOF	BIT(1)
#define E810_RX_FLEX_STATUS0_L3L4P	BIT(3)	/* checksums were checked */
#define E810_RX_FLEX_STATUS0_IPE	BIT(4)	/* bad IPv4 header checksum */
#define E810_RX_FLEX_STATUS0_L4E	BIT(5)	/* bad TCP/UDP/SCTP checksum */
#define E810_RX_FLEX_STATUS0_RXE	BIT(10)
#define E810_RX_FLEX_STATUS0_RSS_VALID	BIT(12)

/* Packet types the model reports (ptype table of the default package). */
#define E810_PTYPE_MAC_PAY2		1	/* L2 only */
#define E810_PTYPE_MAC_ARP		11
#define E810_PTYPE_IPV4_FRAG		22
#define E810_PTYPE_IPV4_PAY		23
#define E810_PTYPE_IPV4_UDP		24
#define E810_PTYPE_IPV4_TCP		26
#define E810_PTYPE_IPV4_SCTP		27
#define E810_PTYPE_IPV4_ICMP		28
#define E810_PTYPE_IPV6_FRAG		88
#define E810_PTYPE_IPV6_PAY		89
#define E810_PTYPE_IPV6_UDP		90
#define E810_PTYPE_IPV6_TCP		92
#define E810_PTYPE_IPV6_SCTP		93
#define E810_PTYPE_IPV6_ICMP		94

/* ---- packed queue contexts ----------------------------------------------- */

struct e810_ctx_field {
	__u16 lsb;
	__u16 width;
};

/* Rx LAN queue context (32 bytes, QRX_CONTEXT(0..7, q)). */
#define E810_RLAN_CTX_SIZE		32
#define E810_RLAN_CTX_HEAD		((struct e810_ctx_field){ 0, 13 })
#define E810_RLAN_CTX_CPUID		((struct e810_ctx_field){ 13, 8 })
#define E810_RLAN_CTX_BASE		((struct e810_ctx_field){ 32, 57 })
#define E810_RLAN_CTX_QLEN		((struct e810_ctx_field){ 89, 13 })
#define E810_RLAN_CTX_DBUF		((struct e810_ctx_field){ 102, 7 })
#define E810_RLAN_CTX_HBUF		((struct e810_ctx_field){ 109, 5 })
#define E810_RLAN_CTX_DTYPE		((struct e810_ctx_field){ 114, 2 })
#define E810_RLAN_CTX_DSIZE		((struct e810_ctx_field){ 116, 1 })
#define E810_RLAN_CTX_CRCSTRIP		((struct e810_ctx_field){ 117, 1 })
#define E810_RLAN_CTX_L2TSEL		((struct e810_ctx_field){ 119, 1 })
#define E810_RLAN_CTX_HSPLIT_0		((struct e810_ctx_field){ 120, 4 })
#define E810_RLAN_CTX_HSPLIT_1		((struct e810_ctx_field){ 124, 2 })
#define E810_RLAN_CTX_SHOWIV		((struct e810_ctx_field){ 127, 1 })
#define E810_RLAN_CTX_RXMAX		((struct e810_ctx_field){ 174, 14 })
#define E810_RLAN_CTX_LRXQTHRESH	((struct e810_ctx_field){ 198, 3 })
#define E810_RLAN_CTX_PREFENA		((struct e810_ctx_field){ 201, 1 })

#define E810_RLAN_BASE_SHIFT		7	/* base in 128-byte units */
#define E810_RLAN_DBUF_SHIFT		7	/* dbuf in 128-byte units */

/* Tx LAN queue context (22 bytes inside 0x0C30). */
#define E810_TLAN_CTX_BASE		((struct e810_ctx_field){ 0, 57 })
#define E810_TLAN_CTX_PORT_NUM		((struct e810_ctx_field){ 57, 3 })
#define E810_TLAN_CTX_CGD_NUM		((struct e810_ctx_field){ 60, 5 })
#define E810_TLAN_CTX_PF_NUM		((struct e810_ctx_field){ 65, 3 })
#define E810_TLAN_CTX_VMVF_NUM		((struct e810_ctx_field){ 68, 10 })
#define E810_TLAN_CTX_VMVF_TYPE		((struct e810_ctx_field){ 78, 2 })
#define E810_TLAN_CTX_SRC_VSI		((struct e810_ctx_field){ 80, 10 })
#define E810_TLAN_CTX_TSYN_ENA		((struct e810_ctx_field){ 90, 1 })
#define E810_TLAN_CTX_WB_MODE		((struct e810_ctx_field){ 101, 1 })
#define E810_TLAN_CTX_QLEN		((struct e810_ctx_field){ 135, 13 })
#define E810_TLAN_CTX_TSO_ENA		((struct e810_ctx_field){ 152, 1 })
#define E810_TLAN_CTX_TSO_QNUM		((struct e810_ctx_field){ 153, 11 })
#define E810_TLAN_CTX_LEGACY_INT	((struct e810_ctx_field){ 164, 1 })

#define E810_TLAN_BASE_SHIFT		7
#define E810_TLAN_VMVF_TYPE_PF		2

/* Ring length limits (QLEN is 13 bits; ice needs multiples of 32). */
#define E810_LAN_RING_MIN		8
#define E810_LAN_RING_MAX		8160

/**
 * e810_ctx_get() - read a field of a packed queue context
 * @ctx: the context bytes (little-endian bit stream)
 * @f: field position and width (width <= 64)
 */
static inline __u64 e810_ctx_get(const __u8 *ctx, struct e810_ctx_field f)
{
	__u64 v = 0;
	unsigned int i;

	for (i = 0; i < f.width; i++) {
		unsigned int bit = f.lsb + i;

		if (ctx[bit / 8] & (1u << (bit % 8)))
			v |= 1ULL << i;
	}
	return v;
}

/**
 * e810_ctx_set() - write a field of a packed queue context
 * @ctx: the context bytes (little-endian bit stream)
 * @f: field position and width (width <= 64)
 * @v: value; bits above the width are ignored
 */
static inline void e810_ctx_set(__u8 *ctx, struct e810_ctx_field f, __u64 v)
{
	unsigned int i;

	for (i = 0; i < f.width; i++) {
		unsigned int bit = f.lsb + i;
		__u8 m = (__u8)(1u << (bit % 8));

		if ((v >> i) & 1)
			ctx[bit / 8] |= m;
		else
			ctx[bit / 8] &= (__u8)~m;
	}
}

_Static_assert(sizeof(struct e810_tx_desc) == 16, "Tx descriptor is 16 bytes");
_Static_assert(sizeof(struct e810_tx_ctx_desc) == 16,
	       "Tx context descriptor is 16 bytes");
_Static_assert(sizeof(struct e810_rx_desc_read) == 32, "Rx descriptor is 32 bytes");
_Static_assert(sizeof(struct e810_rx_flex_desc_nic) == 32,
	       "Rx flex write-back is 32 bytes");

#endif /* E810_LAN_H */
