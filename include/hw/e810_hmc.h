/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * Intel E810 (irdma GEN_2) Host Memory Cache (HMC): object types, the
 * QUERY_FPM_VAL and COMMIT_FPM_VAL buffers, segment descriptors (SDs),
 * page descriptors (PDs) and page-buffer-list entries (PBLEs).
 *
 * Formats of docs/hw-reference.md chapter 3. The function's
 * private memory (FPM) is addressed in 2 MiB segments; segment n is backed
 * either directly by 2 MiB of host memory or through a 4 KiB page of 512
 * PD entries, each naming a 4 KiB host page.
 */
#ifndef E810_HMC_H
#define E810_HMC_H

#include "e810_compat.h"

/* ---- object types (index into hmc_obj[] and the FPM buffers) ----------- */

enum e810_hmc_obj_type {
	E810_HMC_QP = 0,
	E810_HMC_CQ = 1,
	E810_HMC_SRQ = 2,		/* reserved on GEN_2 */
	E810_HMC_HTE = 3,
	E810_HMC_ARP = 4,
	E810_HMC_APBVT = 5,		/* driver-defined: 1 x 8192 bytes */
	E810_HMC_MR = 6,
	E810_HMC_XF = 7,
	E810_HMC_XFFL = 8,		/* object size 4 */
	E810_HMC_Q1 = 9,
	E810_HMC_Q1FL = 10,		/* object size 4 */
	E810_HMC_TIMER = 11,
	E810_HMC_FSIMC = 12,
	E810_HMC_FSIAV = 13,
	E810_HMC_PBLE = 14,		/* object size 8 */
	E810_HMC_RRF = 15,
	E810_HMC_RRFFL = 16,		/* object size 4 */
	E810_HMC_HDR = 17,
	E810_HMC_MD = 18,
	E810_HMC_OOISC = 19,
	E810_HMC_OOISCFFL = 20,		/* object size 4 */
	E810_HMC_OBJ_MAX = 21,
};

#define E810_HMC_FL_OBJ_SIZE		4
#define E810_HMC_PBLE_OBJ_SIZE		8
#define E810_HMC_APBVT_OBJ_SIZE		8192

/* ---- QUERY_FPM_VAL buffer (176 bytes, written by the device) ------------ */

#define E810_FPM_BUF_SIZE		176

#define E810_FPM_QUERY_SD_OFF		0
#define E810_FPM_FIRST_PE_SD_INDEX	GENMASK_ULL(13, 0)
#define E810_FPM_MAX_PE_SDS		GENMASK_ULL(45, 32)
#define E810_FPM_QUERY_QP_OFF		8
#define E810_FPM_QUERY_CQ_OFF		16
#define E810_FPM_QUERY_SRQ_OFF		24
#define E810_FPM_QUERY_HTE_OFF		32
#define E810_FPM_QUERY_ARP_OFF		40
#define E810_FPM_QUERY_MR_OFF		48
#define E810_FPM_QUERY_XF_OFF		56
#define E810_FPM_QUERY_XFFL_OFF		64
#define E810_FPM_QUERY_Q1_OFF		72
#define E810_FPM_QUERY_Q1FL_OFF		80
#define E810_FPM_QUERY_TIMER_OFF	88
#define E810_FPM_QUERY_FSIMC_OFF	96
#define E810_FPM_QUERY_FSIAV_OFF	104
#define E810_FPM_QUERY_PBLE_OFF		112
#define E810_FPM_QUERY_MISC_OFF		120
#define E810_FPM_QUERY_RRF_OFF		128
#define E810_FPM_QUERY_RRFFL_OFF	136
#define E810_FPM_QUERY_HDR_OFF		144
#define E810_FPM_QUERY_MD_OFF		152
#define E810_FPM_QUERY_OOISC_OFF	160
#define E810_FPM_QUERY_OOISCFFL_OFF	168

/* Object entry: maximum count and log2 of the object size in bytes. */
#define E810_FPM_MAX_CNT		GENMASK_ULL(31, 0)
#define E810_FPM_MAX_QPS		GENMASK_ULL(18, 0)
#define E810_FPM_MAX_CQS		GENMASK_ULL(19, 0)
#define E810_FPM_OBJ_SIZE_LOG2		GENMASK_ULL(63, 32)
/* Free-list entries (XFFL, Q1FL, RRFFL, OOISCFFL): block size instead. */
#define E810_FPM_BLOCK_SIZE		GENMASK_ULL(63, 32)
/* Misc qword (off 120). */
#define E810_FPM_MAX_CEQS		GENMASK_ULL(9, 0)
#define E810_FPM_HTMULTIPLIER		GENMASK_ULL(19, 16)
#define E810_FPM_TIMERBUCKET		GENMASK_ULL(47, 32)
#define E810_FPM_MAX_IRD		GENMASK_ULL(53, 50)

/*
 * The object qwords of the query buffer, as an initializer for a table
 * indexed by enum e810_hmc_obj_type. SRQ (reserved) and APBVT (sized by the
 * driver) have no entry: 0.
 */
#define E810_FPM_QUERY_OFFSETS { \
	[E810_HMC_QP] = E810_FPM_QUERY_QP_OFF, \
	[E810_HMC_CQ] = E810_FPM_QUERY_CQ_OFF, \
	[E810_HMC_HTE] = E810_FPM_QUERY_HTE_OFF, \
	[E810_HMC_ARP] = E810_FPM_QUERY_ARP_OFF, \
	[E810_HMC_MR] = E810_FPM_QUERY_MR_OFF, \
	[E810_HMC_XF] = E810_FPM_QUERY_XF_OFF, \
	[E810_HMC_XFFL] = E810_FPM_QUERY_XFFL_OFF, \
	[E810_HMC_Q1] = E810_FPM_QUERY_Q1_OFF, \
	[E810_HMC_Q1FL] = E810_FPM_QUERY_Q1FL_OFF, \
	[E810_HMC_TIMER] = E810_FPM_QUERY_TIMER_OFF, \
	[E810_HMC_FSIMC] = E810_FPM_QUERY_FSIMC_OFF, \
	[E810_HMC_FSIAV] = E810_FPM_QUERY_FSIAV_OFF, \
	[E810_HMC_PBLE] = E810_FPM_QUERY_PBLE_OFF, \
	[E810_HMC_RRF] = E810_FPM_QUERY_RRF_OFF, \
	[E810_HMC_RRFFL] = E810_FPM_QUERY_RRFFL_OFF, \
	[E810_HMC_HDR] = E810_FPM_QUERY_HDR_OFF, \
	[E810_HMC_MD] = E810_FPM_QUERY_MD_OFF, \
	[E810_HMC_OOISC] = E810_FPM_QUERY_OOISC_OFF, \
	[E810_HMC_OOISCFFL] = E810_FPM_QUERY_OOISCFFL_OFF, \
}

/* ---- COMMIT_FPM_VAL buffer (176 bytes) ------------------------------------
 * The driver writes one requested count per object; the device writes back
 * count | (base / 512) << 32 into the same qword.
 */
#define E810_FPM_COMMIT_QP_OFF		0
#define E810_FPM_COMMIT_CQ_OFF		8
#define E810_FPM_COMMIT_SRQ_OFF		16
#define E810_FPM_COMMIT_HTE_OFF		24
#define E810_FPM_COMMIT_ARP_OFF		32
#define E810_FPM_COMMIT_APBVT_OFF	40
#define E810_FPM_COMMIT_MR_OFF		48
#define E810_FPM_COMMIT_XF_OFF		56
#define E810_FPM_COMMIT_XFFL_OFF	64
#define E810_FPM_COMMIT_Q1_OFF		72
#define E810_FPM_COMMIT_Q1FL_OFF	80
#define E810_FPM_COMMIT_TIMER_OFF	88
#define E810_FPM_COMMIT_FSIMC_OFF	96
#define E810_FPM_COMMIT_FSIAV_OFF	104
#define E810_FPM_COMMIT_PBLE_OFF	112
#define E810_FPM_COMMIT_RSVD_OFF	120
#define E810_FPM_COMMIT_RRF_OFF		128
#define E810_FPM_COMMIT_RRFFL_OFF	136
#define E810_FPM_COMMIT_HDR_OFF		144
#define E810_FPM_COMMIT_MD_OFF		152
#define E810_FPM_COMMIT_OOISC_OFF	160
#define E810_FPM_COMMIT_OOISCFFL_OFF	168

#define E810_FPM_COMMIT_CNT		GENMASK_ULL(31, 0)
#define E810_FPM_COMMIT_QPCNT		GENMASK_ULL(18, 0)
#define E810_FPM_COMMIT_CQCNT		GENMASK_ULL(19, 0)
#define E810_FPM_COMMIT_BASE		GENMASK_ULL(63, 32)
#define E810_FPM_BASE_UNIT		512

/* The commit buffer's qwords, indexed by enum e810_hmc_obj_type. */
#define E810_FPM_COMMIT_OFFSETS { \
	[E810_HMC_QP] = E810_FPM_COMMIT_QP_OFF, \
	[E810_HMC_CQ] = E810_FPM_COMMIT_CQ_OFF, \
	[E810_HMC_SRQ] = E810_FPM_COMMIT_SRQ_OFF, \
	[E810_HMC_HTE] = E810_FPM_COMMIT_HTE_OFF, \
	[E810_HMC_ARP] = E810_FPM_COMMIT_ARP_OFF, \
	[E810_HMC_APBVT] = E810_FPM_COMMIT_APBVT_OFF, \
	[E810_HMC_MR] = E810_FPM_COMMIT_MR_OFF, \
	[E810_HMC_XF] = E810_FPM_COMMIT_XF_OFF, \
	[E810_HMC_XFFL] = E810_FPM_COMMIT_XFFL_OFF, \
	[E810_HMC_Q1] = E810_FPM_COMMIT_Q1_OFF, \
	[E810_HMC_Q1FL] = E810_FPM_COMMIT_Q1FL_OFF, \
	[E810_HMC_TIMER] = E810_FPM_COMMIT_TIMER_OFF, \
	[E810_HMC_FSIMC] = E810_FPM_COMMIT_FSIMC_OFF, \
	[E810_HMC_FSIAV] = E810_FPM_COMMIT_FSIAV_OFF, \
	[E810_HMC_PBLE] = E810_FPM_COMMIT_PBLE_OFF, \
	[E810_HMC_RRF] = E810_FPM_COMMIT_RRF_OFF, \
	[E810_HMC_RRFFL] = E810_FPM_COMMIT_RRFFL_OFF, \
	[E810_HMC_HDR] = E810_FPM_COMMIT_HDR_OFF, \
	[E810_HMC_MD] = E810_FPM_COMMIT_MD_OFF, \
	[E810_HMC_OOISC] = E810_FPM_COMMIT_OOISC_OFF, \
	[E810_HMC_OOISCFFL] = E810_FPM_COMMIT_OOISCFFL_OFF, \
}

/* ---- segment and page descriptors --------------------------------------- */

#define E810_HMC_SD_SIZE		0x200000	/* 2 MiB */
#define E810_HMC_SD_SHIFT		21
#define E810_HMC_PD_SIZE		0x1000		/* 4 KiB */
#define E810_HMC_PD_SHIFT		12
#define E810_HMC_PD_PER_SD		512
#define E810_HMC_MAX_BP_COUNT		512
#define E810_HMC_MAX_SD_COUNT		8192

/* SD command: PFHMC_SDCMD and the cmd qword of an UPDATE_PE_SDS entry. */
#define E810_HMC_SDCMD_IDX		GENMASK(11, 0)
#define E810_HMC_SDCMD_PARTSEL		BIT(15)
#define E810_HMC_SDCMD_WR		BIT(31)

/* SD data: PFHMC_SDDATAHIGH:SDDATALOW and the data qword of an entry. */
#define E810_HMC_SDDATA_VALID		BIT_ULL(0)
#define E810_HMC_SDDATA_TYPE		BIT_ULL(1)
#define E810_HMC_SDDATA_BPCOUNT		GENMASK_ULL(11, 2)
#define E810_HMC_SDDATA_ADDR		GENMASK_ULL(63, 12)
#define E810_HMC_SD_TYPE_PAGED		0
#define E810_HMC_SD_TYPE_DIRECT		1

/* PD entry (u64 in the SD's PD page). */
#define E810_HMC_PDE_VALID		BIT_ULL(0)
#define E810_HMC_PDE_ADDR		GENMASK_ULL(63, 12)

/* ---- PBLEs ---------------------------------------------------------------
 * PBLE i lives at FPM address PBLE base + 8 * i. A level-1 list holds page
 * addresses; a level-2 root holds PBLE indexes of leaf lists of up to 512.
 */
#define E810_PBLE_ADDR			GENMASK_ULL(63, 12)
#define E810_PBLE_LEAF_ENTRIES		512

/* LPBLSIZE ("chunk size") of queue and MR WQEs. */
#define E810_LPBL_NONE			0
#define E810_LPBL_LEVEL1		1
#define E810_LPBL_LEVEL2		3

#endif /* E810_HMC_H */
