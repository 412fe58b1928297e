/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * Intel E810 (irdma GEN_2) work-queue formats shared by software that
 * builds WQEs (the rdma-core provider, the kernel) and the device model
 * that consumes them: SQ and RQ WQE fields, SQ opcodes, ring geometry.
 *
 * Described in docs/hw-reference.md 5.1-5.5. CQE fields and the
 * CQ/QP doorbell shadow areas are in e810_ctx.h; the doorbell page offsets
 * are in e810_regs.h (E810_DB_*). All WQEs are arrays of little-endian
 * qwords; E810_WQE_*_OFF is a qword's byte offset inside the WQE.
 */
#ifndef E810_UK_H
#define E810_UK_H

#include "e810_compat.h"

/* ---- Ring geometry (5.1) ------------------------------------------------- */

#define E810_WQE_QUANTUM		32	/* bytes: smallest WQE */
#define E810_WQE_QUANTUM_SHIFT		5
#define E810_SQ_CHUNK_QUANTA		8	/* WQEs never cross 256 B */
#define E810_SQ_MAX_QUANTA		8	/* largest SQ WQE (256 B) */
#define E810_SQ_RSVD_QUANTA		258	/* added to the SQ depth */
#define E810_RQ_RSVD_QUANTA		1
#define E810_SQ_SLACK_QUANTA		257	/* never outstanding */
#define E810_MIN_WQ_QUANTA		8	/* min_hw_wq_size default */
#define E810_MAX_WQ_QUANTA		32768
#define E810_MIN_CQ_ENTRIES		4	/* a ring for one CQE and more */
#define E810_MAX_CQ_ENTRIES		1048575	/* max_hw_cq_size */
#define E810_MAX_INLINE			101	/* GEN_2 inline limit, 4 quanta */
#define E810_MAX_FRAGS			13	/* max_hw_wq_frags */
#define E810_CLEAR_AHEAD_QUANTA		128	/* ahead-clearing window */
#define E810_QP_SHADOW_SIZE		64

/* ---- SQ/RQ WQE, quantum 0 (5.2) ----------------------------------------- */

#define E810_WQE_FRAG0_ADDR_OFF		0	/* or immediate data */
#define E810_WQE_IMM_OFF		0
#define E810_WQE_FRAG0_DESC_OFF		8
#define E810_WQE_OPQ_OFF		16	/* op-specific qword */
#define E810_WQE_HDR_OFF		24

/*
 * Fragment descriptor qword (off 8, and the second qword of every extra
 * fragment from off 32 on: two fragments per additional quantum).
 */
#define E810_WQE_FRAG_STAG		GENMASK_ULL(31, 0)
#define E810_WQE_FRAG_LEN		GENMASK_ULL(62, 32)
#define E810_WQE_FRAG_VALID		BIT_ULL(63)
#define E810_WQE_FRAG_SIZE		16	/* address + descriptor */
#define E810_WQE_EXT_FRAG_OFF		32	/* first fragment after q0 */

/* Op-specific qword (off 16). */
#define E810_WQE_REM_VA			GENMASK_ULL(63, 0)	/* write/read */
#define E810_WQE_UD_QKEY		GENMASK_ULL(31, 0)	/* UD send */
#define E810_WQE_UD_DESTQPN		GENMASK_ULL(55, 32)
#define E810_WQE_BIND_LEN		GENMASK_ULL(63, 0)	/* bind MW */

/* LOCAL_INVALIDATE: qword1 carries the target STag, valid bit 0. */
#define E810_WQE_INV_STAG		GENMASK_ULL(31, 0)
/* BIND_MW: qword1 = parent MR STag and MW STag. */
#define E810_WQE_BIND_PARENT_STAG	GENMASK_ULL(63, 32)
#define E810_WQE_BIND_MW_STAG		GENMASK_ULL(31, 0)

/*
 * FAST_REG (irdma_sc_mr_fast_register(), IRDMAQPSQ_*): qword 0 is the VA,
 * qword 1 the PBL's PA and the first PBLE's high bits, qword 2 the length
 * and its low bits; the header names the STag and its PBL shape (the same
 * bits as the CQP's REG_MR, E810_CQPSQ_STAG_* in e810_cqp.h; page size
 * codes E810_HPAGE_*).
 */
#define E810_WQE_FR_PBLADDR		GENMASK_ULL(51, 12)	/* qword 1 */
#define E810_WQE_FR_PBLIDX_HI		GENMASK_ULL(11, 0)	/* qword 1 */
#define E810_WQE_FR_LEN			GENMASK_ULL(40, 0)	/* qword 2 */
#define E810_WQE_FR_PBLIDX_LO		GENMASK_ULL(63, 48)	/* qword 2 */
#define E810_WQE_FR_STAGKEY		GENMASK_ULL(7, 0)	/* header */
#define E810_WQE_FR_STAGINDEX		GENMASK_ULL(31, 8)
#define E810_WQE_FR_LPBLSIZE		GENMASK_ULL(45, 44)
#define E810_WQE_FR_HPAGESIZE		GENMASK_ULL(47, 46)

/* Header qword (off 24). */
#define E810_WQE_REMSTAG		GENMASK_ULL(31, 0)	/* rkey / inv */
#define E810_WQE_AHID			GENMASK_ULL(16, 0)	/* UD */
#define E810_WQE_OPCODE			GENMASK_ULL(37, 32)
#define E810_WQE_ADDFRAGCNT		GENMASK_ULL(41, 38)
#define E810_WQE_L4LEN			GENMASK_ULL(45, 42)
#define E810_WQE_REPORTRTT		BIT_ULL(46)
#define E810_WQE_IMMDATAFLAG		BIT_ULL(47)
#define E810_WQE_INLINEDATALEN		GENMASK_ULL(55, 48)
#define E810_WQE_STAGRIGHTS		GENMASK_ULL(52, 48)	/* bind/fastreg */
#define E810_WQE_VABASEDTO		BIT_ULL(53)
#define E810_WQE_MEMWINDOWTYPE		BIT_ULL(54)
#define E810_WQE_PUSHWQE		BIT_ULL(56)
#define E810_WQE_INLINEDATAFLAG		BIT_ULL(57)
#define E810_WQE_STREAMMODE		BIT_ULL(58)
#define E810_WQE_WAITFORRCVPDU		BIT_ULL(59)
#define E810_WQE_READFENCE		BIT_ULL(60)
#define E810_WQE_LOCALFENCE		BIT_ULL(61)
#define E810_WQE_UDPHEADER		BIT_ULL(61)	/* UD, same bit */
#define E810_WQE_SIGCOMPL		BIT_ULL(62)
#define E810_WQE_VALID			BIT_ULL(63)

/* Bind-MW access rights in STAGRIGHTS. */
#define E810_WQE_RIGHTS_REMOTE_READ	0x4
#define E810_WQE_RIGHTS_REMOTE_WRITE	0x8

/* ---- SQ opcodes (5.3), header OPCODE and CQE OP of SQ completions ------- */

#define E810_OP_RDMA_WRITE		0x00
#define E810_OP_RDMA_READ		0x01
#define E810_OP_SEND			0x03
#define E810_OP_SEND_INV		0x04
#define E810_OP_SEND_SOL		0x05
#define E810_OP_SEND_SOL_INV		0x06
#define E810_OP_BIND_MW			0x08
#define E810_OP_FAST_REG		0x09	/* kernel only */
#define E810_OP_LOCAL_INV		0x0A
#define E810_OP_RDMA_READ_LOC_INV	0x0B	/* kernel only */
#define E810_OP_NOP			0x0C
#define E810_OP_RDMA_WRITE_SOL		0x0D

/* Receive CQE OP on GEN_2: the IB BTH opcode (low bits) of the message. */
#define E810_RX_OP_RDMA_WRITE_LAST_IMM	0x09
#define E810_RX_OP_RDMA_WRITE_ONLY_IMM	0x0B

/* ---- Inline data (5.3) --------------------------------------------------- */

#define E810_INLINE_Q0_OFF		8	/* first 8 bytes in qword 1 */
#define E810_INLINE_Q0_BYTES		8
#define E810_INLINE_QN_BYTES		31	/* per extra quantum */
#define E810_INLINE_VALID_BYTE		31	/* last byte of an extra quantum */
#define E810_INLINE_VALID_SHIFT		7	/* byte = polarity << 7 */

/* Inline bytes a WQE of @quanta quanta holds: 39 in 2, 101 in 4. */
#define E810_INLINE_BYTES_IN(quanta) \
	(E810_INLINE_Q0_BYTES + ((quanta) - 1) * E810_INLINE_QN_BYTES)

/* ---- WQE geometry (5.1, 5.3): the kernel, the provider and the model ----- */

/*
 * Size code of a queue's WQEs (log2 of their quanta) for @sge fragments
 * (on the SQ, the immediate counts as one) and @inline_len inline bytes:
 * irdma_get_wqe_shift() for GEN_2.
 */
static inline __u8 e810_wqe_shift(__u32 sge, __u32 inline_len)
{
	if (sge <= 1 && inline_len <= E810_INLINE_BYTES_IN(1))
		return 0;
	if (sge < 4 && inline_len <= E810_INLINE_BYTES_IN(2))
		return 1;
	if (sge < 8 && inline_len <= E810_INLINE_BYTES_IN(4))
		return 2;
	return 3;
}

/*
 * Quanta of a WQE with @frags fragments (the immediate counts as one):
 * fragment 0 in quantum 0, two per extra quantum; 15 take 8
 * (irdma_fragcnt_to_quanta_sq()).
 */
static inline __u32 e810_frag_quanta(__u32 frags)
{
	return frags / 2 + 1;
}

/* Quanta of an inline WQE of @len bytes (irdma_inline_data_size_to_quanta()). */
static inline __u32 e810_inline_quanta(__u32 len)
{
	if (len <= E810_INLINE_Q0_BYTES)
		return 1;
	return 1 + (len - E810_INLINE_Q0_BYTES + E810_INLINE_QN_BYTES - 1) /
		   E810_INLINE_QN_BYTES;
}

/*
 * Byte offset inside the WQE of inline payload byte @i, and how many bytes
 * from there on are contiguous: 8 in qword 1, then 31 at the start of each
 * extra quantum, whose last byte is the inline-valid byte
 * (irdma_copy_inline_data()).
 */
static inline __u32 e810_inline_off(__u32 i)
{
	if (i < E810_INLINE_Q0_BYTES)
		return E810_INLINE_Q0_OFF + i;
	i -= E810_INLINE_Q0_BYTES;
	return (1 + i / E810_INLINE_QN_BYTES) * E810_WQE_QUANTUM +
	       i % E810_INLINE_QN_BYTES;
}

static inline __u32 e810_inline_run(__u32 i)
{
	if (i < E810_INLINE_Q0_BYTES)
		return E810_INLINE_Q0_BYTES - i;
	return E810_INLINE_QN_BYTES -
	       (i - E810_INLINE_Q0_BYTES) % E810_INLINE_QN_BYTES;
}

/* Copies @len bytes into the inline payload of @wqe from payload byte @pos. */
static inline void e810_inline_put(__u8 *wqe, __u32 pos, const void *src,
				   __u32 len)
{
	const __u8 *s = (const __u8 *)src;

	while (len) {
		__u32 n = e810_inline_run(pos);

		if (n > len)
			n = len;
		memcpy(wqe + e810_inline_off(pos), s, n);
		s += n;
		pos += n;
		len -= n;
	}
}

/* Copies the first @len inline payload bytes of @wqe to @dst. */
static inline void e810_inline_get(const __u8 *wqe, void *dst, __u32 len)
{
	__u8 *d = (__u8 *)dst;
	__u32 pos = 0;

	while (pos < len) {
		__u32 n = e810_inline_run(pos);

		if (n > len - pos)
			n = len - pos;
		memcpy(d + pos, wqe + e810_inline_off(pos), n);
		pos += n;
	}
}

/* The inline-valid byte of every extra quantum of a @len-byte inline WQE. */
static inline void e810_inline_set_valid(__u8 *wqe, __u32 len, __u8 pol)
{
	__u32 q;

	for (q = 1; q < e810_inline_quanta(len); q++)
		wqe[q * E810_WQE_QUANTUM + E810_INLINE_VALID_BYTE] =
			pol ? 1 << E810_INLINE_VALID_SHIFT : 0;
}

/* ---- Work-queue geometry of a hardware generation (5.1-5.4) -------------- */

#define E810_GEN_1			1	/* X722 (i40iw) */
#define E810_GEN_2			2	/* E810 */

/*
 * What the ring layer (lib/irdma-ring/) takes from the hardware generation
 * instead of spelling it: ring sizes and rules, the fragment descriptor's
 * fields, the inline payload's layout and the BIND_MW STag fields. Flags
 * are 0 or 1. E810_WQ_GEOM_GEN2 below is the E810's; GEN_1 (X722: 2-quantum
 * chunks and WQEs, 3 fragments, 48 inline bytes as 16 at off 0 and 32 in
 * quantum 1 without a valid byte, fragment LEN [31:0] and STAG [63:32]
 * without a valid bit or padding fragment, no immediate slot, the BIND_MW
 * STags swapped; upstream i40iw_hw.h and the GEN_1 branches of uk.c) is
 * another such entry plus its one encoder rule the data cannot say: a
 * 1-quantum WQE at an odd index invalidates the next quantum.
 */
struct e810_wq_geom {
	__u8 gen;			/* E810_GEN_* */
	__u8 chunk_quanta;		/* no SQ WQE crosses such a chunk */
	__u8 max_sq_quanta;		/* largest SQ WQE */
	__u8 max_frags;
	__u16 max_inline;
	__u16 sq_rsvd_quanta;		/* added to an SQ's depth */
	__u16 rq_rsvd_quanta;
	__u16 sq_slack_quanta;		/* never outstanding */
	__u16 min_wq_quanta;		/* fewest WQEs of an SQ or RQ */
	__u32 max_wq_quanta;		/* largest SQ (max_hw_wq_quanta) */
	__u32 max_rq_quanta;		/* largest RQ (max_hw_rq_quanta) */
	__u8 max_read_sges;		/* RDMA READ list (max_hw_read_sges) */
	__u32 min_cq_entries;		/* smallest CQ ring a QP sizes */
	__u32 max_cq_entries;		/* max_hw_cq_size */
	__u8 cqe_slots;			/* ring entries a CQE may take */
	__u16 clear_ahead_quanta;	/* ahead-clearing window */
	/* fragment descriptor: the qword after each fragment's address */
	__u64 frag_stag;
	__u64 frag_len;
	__u64 frag_valid;		/* 0: no per-fragment valid bit */
	__u8 frag_pad;			/* an even count gets an empty fragment */
	__u8 imm_frag;			/* immediate data takes fragment 0's slot */
	/* inline: q0 bytes at q0_off, then qn bytes per extra quantum */
	__u8 inline_q0_off;
	__u8 inline_q0_bytes;
	__u8 inline_qn_bytes;
	__u8 inline_valid_byte;		/* the last byte of an extra quantum */
	/* BIND_MW qword 1 */
	__u64 bind_parent_stag;
	__u64 bind_mw_stag;
};

#define E810_WQ_GEOM_GEN2 {						\
	.gen = E810_GEN_2,						\
	.chunk_quanta = E810_SQ_CHUNK_QUANTA,				\
	.max_sq_quanta = E810_SQ_MAX_QUANTA,				\
	.max_frags = E810_MAX_FRAGS,					\
	.max_inline = E810_MAX_INLINE,					\
	.sq_rsvd_quanta = E810_SQ_RSVD_QUANTA,				\
	.rq_rsvd_quanta = E810_RQ_RSVD_QUANTA,				\
	.sq_slack_quanta = E810_SQ_SLACK_QUANTA,			\
	.min_wq_quanta = E810_MIN_WQ_QUANTA,				\
	.max_wq_quanta = E810_MAX_WQ_QUANTA,				\
	.max_rq_quanta = E810_MAX_WQ_QUANTA,				\
	.max_read_sges = E810_MAX_FRAGS,				\
	.min_cq_entries = E810_MIN_CQ_ENTRIES,				\
	.max_cq_entries = E810_MAX_CQ_ENTRIES,				\
	.cqe_slots = 2,							\
	.clear_ahead_quanta = E810_CLEAR_AHEAD_QUANTA,			\
	.frag_stag = E810_WQE_FRAG_STAG,				\
	.frag_len = E810_WQE_FRAG_LEN,					\
	.frag_valid = E810_WQE_FRAG_VALID,				\
	.frag_pad = 1,							\
	.imm_frag = 1,							\
	.inline_q0_off = E810_INLINE_Q0_OFF,				\
	.inline_q0_bytes = E810_INLINE_Q0_BYTES,			\
	.inline_qn_bytes = E810_INLINE_QN_BYTES,			\
	.inline_valid_byte = 1,						\
	.bind_parent_stag = E810_WQE_BIND_PARENT_STAG,			\
	.bind_mw_stag = E810_WQE_BIND_MW_STAG,				\
}

/*
 * GEN_1 (X722; upstream i40iw_hw.h: I40IW_MAX_QUANTA_PER_WR,
 * I40IW_MAX_WQ_FRAGMENT_COUNT, I40IW_MAX_INLINE_DATA_SIZE,
 * I40IW_MIN_WQ_SIZE, I40IW_QP_SW_MAX_WQ_QUANTA, I40IW_QP_SW_MAX_RQ_QUANTA,
 * I40IW_MAX_SGE_RD; the reserves and the CQ limits are common to both
 * generations). The fragment and inline
 * layouts are e810_gen.h's E810_GEN1_*; no CQE takes two entries (no
 * extended CQEs); BIND_MW's STags swapped (irdma_set_mw_bind_wqe_gen_1()).
 */
#define E810_GEN1_SQ_CHUNK_QUANTA	2
#define E810_GEN1_MIN_WQ_QUANTA		4
#define E810_GEN1_MAX_WQ_QUANTA		2048
#define E810_GEN1_MAX_RQ_QUANTA		16384
#define E810_GEN1_MAX_SGE_RD		1

#define E810_WQ_GEOM_GEN1 {						\
	.gen = E810_GEN_1,						\
	.chunk_quanta = E810_GEN1_SQ_CHUNK_QUANTA,			\
	.max_sq_quanta = E810_GEN1_SQ_CHUNK_QUANTA,			\
	.max_frags = 3,							\
	.max_inline = 48,						\
	.sq_rsvd_quanta = E810_SQ_RSVD_QUANTA,				\
	.rq_rsvd_quanta = E810_RQ_RSVD_QUANTA,				\
	.sq_slack_quanta = E810_SQ_SLACK_QUANTA,			\
	.min_wq_quanta = E810_GEN1_MIN_WQ_QUANTA,			\
	.max_wq_quanta = E810_GEN1_MAX_WQ_QUANTA,			\
	.max_rq_quanta = E810_GEN1_MAX_RQ_QUANTA,			\
	.max_read_sges = E810_GEN1_MAX_SGE_RD,				\
	.min_cq_entries = E810_MIN_CQ_ENTRIES,				\
	.max_cq_entries = E810_MAX_CQ_ENTRIES,				\
	.cqe_slots = 1,							\
	.clear_ahead_quanta = E810_CLEAR_AHEAD_QUANTA,			\
	.frag_stag = GENMASK_ULL(63, 32),				\
	.frag_len = GENMASK_ULL(31, 0),					\
	.frag_valid = 0,						\
	.frag_pad = 0,							\
	.imm_frag = 0,							\
	.inline_q0_off = 0,						\
	.inline_q0_bytes = 16,						\
	.inline_qn_bytes = 32,						\
	.inline_valid_byte = 0,						\
	.bind_parent_stag = E810_WQE_BIND_MW_STAG,			\
	.bind_mw_stag = E810_WQE_BIND_PARENT_STAG,			\
}

/* ---- CQ ring (5.6) ------------------------------------------------------- */

/* Major error codes of CQEs beyond flush (E810_CQE_MAJ_FLUSH, e810_ctx.h). */
#define E810_CQE_MAJ_UD_SQ_IGNORE_MASK	0xF000	/* 0xE... on UD SQ = ok */
#define E810_CQE_MAJ_UD_SQ_IGNORE	0xE000

#endif /* E810_UK_H */
