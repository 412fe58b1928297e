/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * The irdma hardware generations as data: what differs between GEN_1
 * (X722, upstream i40iw_hw.[ch] and the GEN_1 branches of ctrl.c and
 * hw.c) and GEN_2 (E810, icrdma_hw.[ch]) in the control-plane formats a
 * device, a driver or the ring layer must agree on. Everything not named
 * here is common to both (include/hw/e810_cqp.h, e810_hmc.h, e810_ctx.h).
 *
 * The work-queue side of a generation is struct e810_wq_geom
 * (e810_uk.h); e810_hw_gen names its E810_GEN_* so that a user of both
 * finds the matching entry (lib/irdma-ring's e810u_geom()).
 *
 * Entries are initializers (E810_HW_GEN1, E810_HW_GEN2) so that each home
 * keeps one const table of its own; GEN_2 values are the E810_* defines of
 * the other include/hw headers, unchanged.
 */
#ifndef E810_GEN_H
#define E810_GEN_H

#include "e810_compat.h"
#include "e810_cqp.h"
#include "e810_hmc.h"
#include "e810_uk.h"		/* E810_GEN_1, E810_GEN_2 */

/* GEN_1 positions (i40iw_masks[] / i40iw_shifts[] of i40iw_hw.c). */
#define E810_GEN1_CQPSQ_CQ_CQID		GENMASK_ULL(15, 0)
#define E810_GEN1_CQPSQ_CQ_CEQID	GENMASK_ULL(30, 24)
#define E810_GEN1_CQPSQ_STAG_PDID	GENMASK_ULL(62, 48)	/* 15 bits */
#define E810_GEN1_FPM_COMMIT_CQCNT	GENMASK_ULL(17, 0)

/*
 * GEN_1 work-queue fragment descriptor (the qword after a fragment's
 * address; upstream IRDMAQPSQ_GEN1_FRAG_LEN / _STAG): no valid bit.
 */
#define E810_GEN1_WQE_FRAG_LEN		GENMASK_ULL(31, 0)
#define E810_GEN1_WQE_FRAG_STAG		GENMASK_ULL(63, 32)

/*
 * GEN_1 inline payload (upstream uk.c irdma_copy_inline_data_gen_1(),
 * irdma_inline_data_size_to_quanta_gen_1()): 16 bytes from WQE offset 0,
 * the rest from offset 32 (quantum 1, all of its 32 bytes: no valid
 * byte); 48 bytes at most (i40iw_hw.h I40IW_MAX_INLINE_DATA_SIZE).
 */
#define E810_GEN1_INLINE_Q0_BYTES	16
#define E810_GEN1_INLINE_QN_BYTES	32
#define E810_GEN1_MAX_INLINE		48

/* GEN_1 SQ chunk: i40iw_hw.h I40IW_MAX_QUANTA_PER_WR (max_hw_sq_chunk). */
#define E810_GEN1_SQ_CHUNK_QUANTA	2

/*
 * GEN_1 iWARP QP context qword 3 (offset 24): the source MAC is an index
 * into the local MAC table (upstream IRDMAQPC_GEN1_SRCMACADDRIDX); GEN_2
 * has the MAC itself at offset 152, which GEN_1 leaves 0.
 */
#define E810_GEN1_QPC_SRCMACADDRIDX	GENMASK_ULL(21, 16)

/*
 * GEN_1 UDA (ILQ/IEQ) send WQE qword 2: the driver hands the device a
 * whole Ethernet frame and says where its headers are (upstream
 * irdma_puda_send(): IRDMA_UDA_QPSQ_MACLEN in 2-byte words, IPLEN and
 * L4LEN in dwords, L4T 1 = TCP, IIPT 1 = IPv6, 3 = IPv4 with its header
 * checksum); header qword b44 DOLOOPBACK.
 */
#define E810_GEN1_UDA_MACLEN		GENMASK_ULL(62, 56)
#define E810_GEN1_UDA_IPLEN		GENMASK_ULL(54, 48)
#define E810_GEN1_UDA_L4T		GENMASK_ULL(31, 30)
#define E810_GEN1_UDA_IIPT		GENMASK_ULL(29, 28)
#define E810_GEN1_UDA_L4LEN		GENMASK_ULL(27, 24)
#define E810_GEN1_UDA_DOLOOPBACK	BIT_ULL(44)
#define E810_GEN1_UDA_L4T_TCP		1
#define E810_GEN1_UDA_IIPT_IPV6		1
#define E810_GEN1_UDA_IIPT_IPV4_CSUM	3

/*
 * GEN_1 UDA receive CQE (upstream irdma_puda_poll_info()): no extended
 * CQE; qword 2 L3 protocol [1:0] (0 IPv4, else IPv6) and L4 protocol
 * [17:16], qword 3 b50 VLAN tag present (GEN_2's EXTCQE bit).
 */
#define E810_GEN1_CQE_UDA_L3PROTO	GENMASK_ULL(1, 0)
#define E810_GEN1_CQE_UDA_L4PROTO	GENMASK_ULL(17, 16)
#define E810_GEN1_CQE_VLAN_TAG_VALID	BIT_ULL(50)
#define E810_GEN1_UDA_L3PROTO_IPV6	1

/* The CQP host context's HW_MAJVER of each generation. */
#define E810_CQPHC_HW_MAJVER_GEN_1	0

/* Object set as a mask of 1 << enum e810_hmc_obj_type. */
#define E810_HMC_OBJ_BIT(t)		(1u << (t))
#define E810_HMC_OBJS_GEN1						\
	(E810_HMC_OBJ_BIT(E810_HMC_QP) | E810_HMC_OBJ_BIT(E810_HMC_CQ) |	\
	 E810_HMC_OBJ_BIT(E810_HMC_HTE) | E810_HMC_OBJ_BIT(E810_HMC_ARP) |	\
	 E810_HMC_OBJ_BIT(E810_HMC_APBVT) | E810_HMC_OBJ_BIT(E810_HMC_MR) |	\
	 E810_HMC_OBJ_BIT(E810_HMC_XF) | E810_HMC_OBJ_BIT(E810_HMC_XFFL) |	\
	 E810_HMC_OBJ_BIT(E810_HMC_Q1) | E810_HMC_OBJ_BIT(E810_HMC_Q1FL) |	\
	 E810_HMC_OBJ_BIT(E810_HMC_TIMER) | E810_HMC_OBJ_BIT(E810_HMC_PBLE))
#define E810_HMC_OBJS_GEN2						\
	(((1u << E810_HMC_OBJ_MAX) - 1) & ~E810_HMC_OBJ_BIT(E810_HMC_SRQ))

/*
 * GEN_1 parses the QUERY_FPM_VAL buffer up to the misc qword (offset
 * 120) only (irdma_sc_parse_fpm_query_buf() returns there for GEN_1).
 */
#define E810_FPM_QUERY_LEN_GEN1		(E810_FPM_QUERY_MISC_OFF + 8)

/* Optional control-QP operations a generation has (E810_GEN_OP_*). */
#define E810_GEN_OP_RDMA_FEATURES	BIT(0)	/* QUERY_RDMA_FEATURES */
#define E810_GEN_OP_STATS		BIT(1)	/* MANAGE/GATHER_STATS */
#define E810_GEN_OP_WS			BIT(2)	/* WORK_SCHED_NODE, UP_MAP */
#define E810_GEN_OP_PUSH		BIT(3)	/* MANAGE_PUSH_PAGES */
#define E810_GEN_OP_AH			BIT(4)	/* address handles, mcast */
#define E810_GEN_OP_LOC_MAC		BIT(5)	/* local MAC table */

struct e810_hw_gen {
	__u8 gen;			/* E810_GEN_* */
	const char *name;
	/* CQP host context */
	__u8 cqp_hw_majver;
	__u8 iwarp_only;		/* PROTOCOL_USED is 0 and means iWARP */
	/* sizes of the control structures, bytes */
	__u8 cqp_wqe_size;
	__u8 cqe_size;			/* CCQ and kernel CQEs */
	__u8 ceqe_size;
	__u8 aeqe_size;
	/* the control-QP fields whose position differs */
	__u64 cq_cqid;			/* CREATE/MODIFY/DESTROY_CQ header */
	__u64 cq_ceqid;
	__u64 stag_pdid;		/* ALLOC_STAG / REG_MR qword 2 */
	__u64 fpm_commit_cqcnt;		/* COMMIT_FPM_VAL CQ count */
	/* HMC */
	__u32 fpm_objs;			/* E810_HMC_OBJS_* */
	__u16 fpm_query_len;		/* bytes of the query buffer parsed */
	/*
	 * The PE's segment descriptors share one table with the LAN HMC's
	 * (X722): the PE's FPM starts at QUERY_FPM_VAL's FIRST_PE_SD_INDEX
	 * and the bases COMMIT_FPM_VAL returns are FPM addresses of that
	 * shared space.
	 */
	__u8 sds_shared_with_lan;
	__u32 ops;			/* E810_GEN_OP_* */
	/* SQ/RQ fragment descriptor fields; frag_valid 0: none */
	__u64 frag_len;
	__u64 frag_stag;
	__u64 frag_valid;
	/* inline payload: q0 bytes at q0_off, then qn per extra quantum */
	__u8 inline_q0_off;
	__u8 inline_q0_bytes;
	__u8 inline_qn_bytes;
	__u8 inline_valid_byte;		/* an extra quantum's last byte is it */
	__u8 max_inline;
	/*
	 * No SQ WQE crosses a chunk of this many quanta (uk_attrs
	 * max_hw_sq_chunk: the driver pads with NOPs to the next chunk), so
	 * no WQE is longer: GEN_1 2 (i40iw_hw.h I40IW_MAX_QUANTA_PER_WR, 3
	 * fragments at most), GEN_2 8.
	 */
	__u8 sq_chunk_quanta;
	/*
	 * BIND_MW qword 1: where the parent MR's and the window's STags are;
	 * GEN_1 swaps them (uk.c irdma_set_mw_bind_wqe_gen_1()).
	 */
	__u64 bind_parent_stag;
	__u64 bind_mw_stag;
};

#define E810_HW_GEN1 {							\
	.gen = E810_GEN_1,						\
	.name = "GEN_1",						\
	.cqp_hw_majver = E810_CQPHC_HW_MAJVER_GEN_1,			\
	.iwarp_only = 1,						\
	.cqp_wqe_size = E810_CQP_WQE_SIZE,				\
	.cqe_size = 32,							\
	.ceqe_size = 8,							\
	.aeqe_size = 16,						\
	.cq_cqid = E810_GEN1_CQPSQ_CQ_CQID,				\
	.cq_ceqid = E810_GEN1_CQPSQ_CQ_CEQID,				\
	.stag_pdid = E810_GEN1_CQPSQ_STAG_PDID,				\
	.fpm_commit_cqcnt = E810_GEN1_FPM_COMMIT_CQCNT,			\
	.fpm_objs = E810_HMC_OBJS_GEN1,					\
	.fpm_query_len = E810_FPM_QUERY_LEN_GEN1,			\
	.sds_shared_with_lan = 1,					\
	.ops = E810_GEN_OP_LOC_MAC,					\
	.frag_len = E810_GEN1_WQE_FRAG_LEN,				\
	.frag_stag = E810_GEN1_WQE_FRAG_STAG,				\
	.frag_valid = 0,						\
	.inline_q0_off = 0,						\
	.inline_q0_bytes = E810_GEN1_INLINE_Q0_BYTES,			\
	.inline_qn_bytes = E810_GEN1_INLINE_QN_BYTES,			\
	.inline_valid_byte = 0,						\
	.max_inline = E810_GEN1_MAX_INLINE,				\
	.sq_chunk_quanta = E810_GEN1_SQ_CHUNK_QUANTA,			\
	.bind_parent_stag = E810_WQE_BIND_MW_STAG,			\
	.bind_mw_stag = E810_WQE_BIND_PARENT_STAG,			\
}

#define E810_HW_GEN2 {							\
	.gen = E810_GEN_2,						\
	.name = "GEN_2",						\
	.cqp_hw_majver = E810_CQPHC_HW_MAJVER_GEN_2,			\
	.iwarp_only = 0,						\
	.cqp_wqe_size = E810_CQP_WQE_SIZE,				\
	.cqe_size = 32,							\
	.ceqe_size = 8,							\
	.aeqe_size = 16,						\
	.cq_cqid = E810_CQPSQ_CQ_CQID,					\
	.cq_ceqid = E810_CQPSQ_CQ_CEQID,				\
	.stag_pdid = E810_CQPSQ_STAG_PDID,				\
	.fpm_commit_cqcnt = E810_FPM_COMMIT_CQCNT,			\
	.fpm_objs = E810_HMC_OBJS_GEN2,					\
	.fpm_query_len = E810_FPM_BUF_SIZE,				\
	.sds_shared_with_lan = 0,					\
	.ops = E810_GEN_OP_RDMA_FEATURES | E810_GEN_OP_STATS |		\
	       E810_GEN_OP_WS | E810_GEN_OP_PUSH | E810_GEN_OP_AH |	\
	       E810_GEN_OP_LOC_MAC,					\
	.frag_len = E810_WQE_FRAG_LEN,					\
	.frag_stag = E810_WQE_FRAG_STAG,				\
	.frag_valid = E810_WQE_FRAG_VALID,				\
	.inline_q0_off = E810_INLINE_Q0_OFF,				\
	.inline_q0_bytes = E810_INLINE_Q0_BYTES,			\
	.inline_qn_bytes = E810_INLINE_QN_BYTES,			\
	.inline_valid_byte = 1,						\
	/* what 8 quanta hold; irdma's own limit is E810_MAX_INLINE */	\
	.max_inline = E810_INLINE_BYTES_IN(E810_SQ_MAX_QUANTA),		\
	.sq_chunk_quanta = E810_SQ_CHUNK_QUANTA,			\
	.bind_parent_stag = E810_WQE_BIND_PARENT_STAG,			\
	.bind_mw_stag = E810_WQE_BIND_MW_STAG,				\
}

/*
 * The PE registers a driver of each generation writes, as BAR0 offsets
 * (upstream i40iw_regs[] of i40iw_hw.c, icrdma_regs[] of icrdma_hw.c).
 * Interrupt vector v's dynamic control register is dyn_ctl + 4 * (v -
 * dyn_ctl_first): GEN_1's PFINT_DYN_CTLN(v - 1), GEN_2's GLINT_DYN_CTL(v).
 * GEN_1 also links each CEQ into its vector's cause list (lnklstn, upstream
 * i40iw_config_ceq()); 0 there: no such register. sdcmd 0: the PE's SDs
 * cannot be read back (GEN_1: PFHMC_SDCMD is the LAN HMC's).
 */
struct e810_pe_regs {
	__u32 cqptail;
	__u32 cqpdb;
	__u32 ccqpstatus;
	__u32 ccqphigh;
	__u32 ccqplow;
	__u32 cqperrcodes;
	__u32 cqarm;
	__u32 cqack;
	__u32 aeqalloc;
	__u32 wqealloc;
	__u32 dyn_ctl;
	__u32 dyn_ctl_first;
	__u32 ceqctl;
	__u32 aeqctl;
	__u32 lnklstn;
	__u32 pdinv;
	__u32 sdcmd;
	__u32 sddatalow;
	__u32 sddatahigh;
	__u32 lbarctrl;
	__u32 cpustatus[3];
	__u32 db_addr;		/* the user doorbell page */
};

/* X722 PF offsets (i40iw_hw.h, i40e_register.h). */
#define E810_PE_REGS_GEN1 {						\
	.cqptail = 0x00008080, .cqpdb = 0x00008000,			\
	.ccqpstatus = 0x00008100, .ccqphigh = 0x00008200,		\
	.ccqplow = 0x00008180, .cqperrcodes = 0x00008880,		\
	.cqarm = 0x00131080, .cqack = 0x00131100,			\
	.aeqalloc = 0x00131180, .wqealloc = 0x00138C00,			\
	.dyn_ctl = 0x00034800, .dyn_ctl_first = 1,			\
	.ceqctl = 0x00036800, .aeqctl = 0x00038700,			\
	.lnklstn = 0x00035000, .pdinv = 0x000C0300,			\
	.sdcmd = 0, .sddatalow = 0, .sddatahigh = 0,			\
	.lbarctrl = 0x000BE484,						\
	.cpustatus = { 0x0000D040, 0x0000D044, 0x0000D048 },		\
	.db_addr = 0x003F0000,						\
}

/* E810 PF offsets: the E810_* of e810_regs.h, which a user includes. */
#define E810_PE_REGS_GEN2 {						\
	.cqptail = E810_CQPTAIL, .cqpdb = E810_CQPDB,			\
	.ccqpstatus = E810_CCQPSTATUS, .ccqphigh = E810_CCQPHIGH,	\
	.ccqplow = E810_CCQPLOW, .cqperrcodes = E810_CQPERRCODES,	\
	.cqarm = E810_CQARM, .cqack = E810_CQACK,			\
	.aeqalloc = E810_AEQALLOC, .wqealloc = E810_WQEALLOC,		\
	.dyn_ctl = E810_GLINT_DYN_CTL(0), .dyn_ctl_first = 0,		\
	.ceqctl = E810_GLINT_CEQCTL(0), .aeqctl = E810_PFINT_AEQCTL,	\
	.lnklstn = 0, .pdinv = E810_PFHMC_PDINV,			\
	.sdcmd = E810_PFHMC_SDCMD, .sddatalow = E810_PFHMC_SDDATALOW,	\
	.sddatahigh = E810_PFHMC_SDDATAHIGH,				\
	.lbarctrl = E810_GLPCI_LBARCTRL,				\
	.cpustatus = { E810_GLPE_CPUSTATUS0, E810_GLPE_CPUSTATUS1,	\
		       E810_GLPE_CPUSTATUS2 },				\
	.db_addr = E810_DB_ADDR_OFFSET,					\
}

/* GEN_1's PFINT_LNKLSTN: the first cause of the vector (a PE CEQ). */
#define E810_GEN1_LNKLSTN_FIRSTQ_INDX	GENMASK(10, 0)
#define E810_GEN1_LNKLSTN_FIRSTQ_TYPE	GENMASK(12, 11)
#define E810_GEN1_QUEUE_TYPE_PE_CEQ	2
/* GEN_1's PFINT_CEQCTL: the end of a vector's cause list. */
#define E810_GEN1_CEQCTL_NEXTQ_INDX	GENMASK(26, 16)
#define E810_GEN1_CEQCTL_NEXTQ_NONE	0x7FF

/* GEN_1 limits (i40iw_hw.h, i40iw_init_hw()). */
#define E810_GEN1_MAX_WQ_FRAGS		3
#define E810_GEN1_MAX_IRD		63
#define E810_GEN1_MAX_ORD		127
#define E810_GEN1_MAX_WQ_ENTRIES	2048
#define E810_GEN1_MAX_PDS		32768

/* Quanta of an inline WQE of @len bytes on generation @g. */
static inline __u32 e810_gen_inline_quanta(const struct e810_hw_gen *g,
					   __u32 len)
{
	if (len <= g->inline_q0_bytes)
		return 1;
	return 1 + (len - g->inline_q0_bytes + g->inline_qn_bytes - 1) /
		   g->inline_qn_bytes;
}

/* Copies the first @len inline payload bytes of @wqe to @dst. */
static inline void e810_gen_inline_get(const struct e810_hw_gen *g,
				       const __u8 *wqe, void *dst, __u32 len)
{
	__u8 *d = (__u8 *)dst;
	__u32 pos = 0, off, n;

	while (pos < len) {
		if (pos < g->inline_q0_bytes) {
			off = g->inline_q0_off + pos;
			n = g->inline_q0_bytes - pos;
		} else {
			__u32 i = pos - g->inline_q0_bytes;

			off = (1 + i / g->inline_qn_bytes) * E810_WQE_QUANTUM +
			      i % g->inline_qn_bytes;
			n = g->inline_qn_bytes - i % g->inline_qn_bytes;
		}
		if (n > len - pos)
			n = len - pos;
		memcpy(d + pos, wqe + off, n);
		pos += n;
	}
}

#endif /* E810_GEN_H */
