/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * Intel E810 (irdma GEN_2) PF BAR0 register map: offsets and fields.
 *
 * One source of truth for the device model, ice_lite, irdma and the tests.
 * Offsets and bit positions are those of the real E810 as used by the
 * upstream ice and irdma drivers (see docs/hw-reference.md chapter 1 and
 * docs/hw-reference-lan.md chapters 1, 2, 4 and 5). All registers are 32 bits
 * wide and little-endian.
 */
#ifndef E810_REGS_H
#define E810_REGS_H

#include "e810_compat.h"

/* ---- PCI identity and BAR geometry ---------------------------------- */

#define E810_PCI_VENDOR_ID		0x8086
#define E810_PCI_DEVICE_ID_C_QSFP	0x1592	/* E810-C QSFP */
#define E810_PCI_SUBSYS_VENDOR_ID	0x8086
#define E810_PCI_SUBSYS_ID_C_Q2		0x0002	/* E810-C-Q2 */
#define E810_PCI_REVISION		0x02

#define E810_BAR0			0	/* registers, doorbells, push pages */
#define E810_BAR0_SIZE			(32u << 20)
#define E810_BAR_MSIX			3	/* MSI-X table and PBA */
#define E810_BAR_MSIX_SIZE		(64u << 10)
#define E810_MSIX_VECTORS		1024	/* table size of a real E810 PF */
#define E810_MSIX_TABLE_OFFSET		0x0000
#define E810_MSIX_PBA_OFFSET		0x8000

/* Interrupt vector space of the device (GLINT_DYN_CTL index range). */
#define E810_MAX_VECTORS		2048

/* ---- PF reset and readiness (hw-reference-lan 1.1) ------------------- */

#define E810_PFGEN_CTRL			0x00091000
#define E810_PFGEN_CTRL_PFSWR		BIT(0)
#define E810_PFGEN_STATE		0x00088000
#define E810_GLGEN_RSTCTL		0x000B8180
#define E810_GLGEN_RSTCTL_GRSTDEL	GENMASK(5, 0)
#define E810_GLGEN_RSTAT		0x000B8188
#define E810_GLGEN_RSTAT_DEVSTATE	GENMASK(1, 0)
#define E810_GLGEN_RSTAT_RESET_TYPE	GENMASK(3, 2)
#define E810_GLGEN_RTRIG		0x000B8190
#define E810_GLGEN_RTRIG_CORER		BIT(0)
#define E810_GLGEN_RTRIG_GLOBR		BIT(1)
#define E810_GLGEN_STAT			0x000B612C
#define E810_GLNVM_ULD			0x000B6008
#define E810_GLNVM_ULD_PCIER_DONE	BIT(0)
#define E810_GLNVM_ULD_PCIER_DONE_1	BIT(1)
#define E810_GLNVM_ULD_CORER_DONE	BIT(3)
#define E810_GLNVM_ULD_GLOBR_DONE	BIT(4)
#define E810_GLNVM_ULD_POR_DONE		BIT(5)
#define E810_GLNVM_ULD_POR_DONE_1	BIT(8)
#define E810_GLNVM_ULD_PCIER_DONE_2	BIT(9)
#define E810_GLNVM_ULD_PE_DONE		BIT(10)
/* The seven "non-PE" done bits ice waits for after any reset. */
#define E810_GLNVM_ULD_LAN_MASK		0x0000033B
#define E810_GLNVM_ULD_ALL_MASK		0x0000073B
#define E810_GLNVM_GENS			0x000B6100
#define E810_GLNVM_GENS_SR_SIZE		GENMASK(7, 5)
#define E810_GLNVM_FLA			0x000B6108
#define E810_GLNVM_FLA_LOCKED		BIT(6)
#define E810_GL_MNG_FWSM		0x000B6134
#define E810_GL_MNG_FWSM_FW_MODE	GENMASK(2, 0)
#define E810_GL_MNG_FWSM_FW_LOADING	BIT(30)
#define E810_PF_FUNC_RID		0x0009E880
#define E810_PF_FUNC_RID_FUNC_NUM	GENMASK(2, 0)
#define E810_GL_PWR_MODE_CTL		0x000B820C
/*
 * PRTDCB_GENS: DCBX_STATUS [2:0] of the firmware's DCBX agent. 7 means
 * "disabled": ice_init_dcb() then takes the software DCBX/LLDP path.
 */
#define E810_PRTDCB_GENS		0x00083020
#define E810_PRTDCB_GENS_DCBX_STATUS	GENMASK(2, 0)
#define E810_DCBX_STATUS_DIS		7
/*
 * PRTDCB_TUP2TC: the port's transmit user priority to TC map, 3 bits per
 * priority (ice_get_qos_params() reads it for the RDMA driver's QoS).
 */
#define E810_PRTDCB_TUP2TC		0x001D26C0

/* [5:4] PSM clock source; 0 = 367 MHz (ice_sched_get_psm_clk_freq()). */
#define E810_GLGEN_CLKSTAT_SRC		0x000B826C
#define E810_GLPCI_CNF2			0x000BE004
#define E810_PFPM_WUS			0x0009DB80
#define E810_PFQF_FD_ENA		0x0043A000
/*
 * Flow Director filter space of the device: [14:0] guaranteed, [30:16]
 * best effort (ice_parse_fdir_func_caps() divides the guaranteed part
 * among the functions).
 */
#define E810_GLQF_FD_SIZE		0x00460010
#define E810_GLQF_FD_SIZE_GSIZE		GENMASK(14, 0)
#define E810_GLQF_FD_SIZE_BSIZE		GENMASK(30, 16)
#define E810_FD_GUAR_FILTERS		2048
#define E810_FD_BEST_EFFORT_FILTERS	8192
#define E810_GL_MDCK_TX_TDPU		0x00049348

/* ---- Admin queue (hw-reference-lan 2.1) ------------------------------- */

#define E810_PF_FW_ATQBAL		0x00080000
#define E810_PF_FW_ARQBAL		0x00080080
#define E810_PF_FW_ATQBAH		0x00080100
#define E810_PF_FW_ARQBAH		0x00080180
#define E810_PF_FW_ATQLEN		0x00080200
#define E810_PF_FW_ARQLEN		0x00080280
#define E810_PF_FW_ATQH			0x00080300
#define E810_PF_FW_ARQH			0x00080380
#define E810_PF_FW_ATQT			0x00080400
#define E810_PF_FW_ARQT			0x00080480

/*
 * The PF side of the VF mailbox: the same ring registers as the admin
 * queue (LEN has only CRIT b30 and ENABLE b31). ice programs and reads
 * them back at probe even without VFs (ice_init_all_ctrlq()).
 */
#define E810_PF_MBX_ATQBAL		0x0022E100
#define E810_PF_MBX_ATQBAH		0x0022E180
#define E810_PF_MBX_ATQLEN		0x0022E200
#define E810_PF_MBX_ATQH		0x0022E280
#define E810_PF_MBX_ATQT		0x0022E300
#define E810_PF_MBX_ARQBAL		0x0022E380
#define E810_PF_MBX_ARQBAH		0x0022E400
#define E810_PF_MBX_ARQLEN		0x0022E480
#define E810_PF_MBX_ARQH		0x0022E500
#define E810_PF_MBX_ARQT		0x0022E580
#define E810_PF_FW_AQLEN_LEN		GENMASK(9, 0)
#define E810_PF_FW_AQLEN_VFE		BIT(28)
#define E810_PF_FW_AQLEN_OVFL		BIT(29)
#define E810_PF_FW_AQLEN_CRIT		BIT(30)
#define E810_PF_FW_AQLEN_ENABLE		BIT(31)
#define E810_PF_FW_AQ_PTR		GENMASK(9, 0)	/* H and T */

/* ---- Interrupts (hw-reference-lan 5.1, hw-reference 1.1/1.2) --------- */

#define E810_GLINT_DYN_CTL(n)		(0x00160000 + 4 * (n))
#define E810_GLINT_DYN_CTL_INTENA	BIT(0)
#define E810_GLINT_DYN_CTL_CLEARPBA	BIT(1)
#define E810_GLINT_DYN_CTL_SWINT_TRIG	BIT(2)
#define E810_GLINT_DYN_CTL_ITR_INDX	GENMASK(4, 3)
#define E810_GLINT_DYN_CTL_INTERVAL	GENMASK(16, 5)
#define E810_GLINT_DYN_CTL_SW_ITR_INDX_ENA BIT(24)
#define E810_GLINT_DYN_CTL_SW_ITR_INDX	GENMASK(26, 25)
#define E810_GLINT_DYN_CTL_WB_ON_ITR	BIT(30)
#define E810_GLINT_DYN_CTL_INTENA_MSK	BIT(31)
/* ITR_INDX values: ITR0/1/2, or 3 = no ITR (immediate, no ITR update). */
#define E810_ITR_IDX_0			0
#define E810_ITR_IDX_1			1
#define E810_ITR_IDX_NONE		3
#define E810_GLINT_ITR(i, n)		(0x00154000 + (i) * 0x2000 + 4 * (n))
#define E810_GLINT_RATE(n)		(0x0015A000 + 4 * (n))
#define E810_GLINT_RATE_INTERVAL	GENMASK(5, 0)
#define E810_GLINT_RATE_INTRL_ENA	BIT(6)
#define E810_GLINT_CTL			0x0016CC54
#define E810_GLINT_CTL_DIS_AUTOMASK	BIT(0)
#define E810_GLINT_CEQCTL(n)		(0x0015C000 + 4 * (n))
#define E810_QINT_RQCTL(q)		(0x00150000 + 4 * (q))
#define E810_QINT_TQCTL(q)		(0x00140000 + 4 * (q))
#define E810_PFINT_FW_CTL		0x0016C800
#define E810_PFINT_MBX_CTL		0x0016B280
#define E810_PFINT_OICR			0x0016CA00
#define E810_PFINT_OICR_ENA		0x0016C900
#define E810_PFINT_OICR_CTL		0x0016CA80
#define E810_PFINT_AEQCTL		0x0016CB00
/* Layout shared by every *_CTL cause register above (CEQCTL, AEQCTL, ...). */
#define E810_INT_CTL_MSIX_INDX		GENMASK(10, 0)
#define E810_INT_CTL_ITR_INDX		GENMASK(12, 11)
#define E810_INT_CTL_CAUSE_ENA		BIT(30)

#define E810_PFINT_OICR_TSYN_TX		BIT(11)
#define E810_PFINT_OICR_ECC_ERR		BIT(16)
#define E810_PFINT_OICR_MAL_DETECT	BIT(19)
#define E810_PFINT_OICR_GRST		BIT(20)
#define E810_PFINT_OICR_PCI_EXCEPTION	BIT(21)
#define E810_PFINT_OICR_HMC_ERR		BIT(26)
#define E810_PFINT_OICR_PE_PUSH		BIT(27)
#define E810_PFINT_OICR_PE_CRITERR	BIT(28)
#define E810_PFINT_OICR_VFLR		BIT(29)
#define E810_PFINT_OICR_SWINT		BIT(31)

/* ---- LAN queues (hw-reference-lan 4.1, 4.3) --------------------------- */

#define E810_LAN_MAX_QUEUES		2048
#define E810_QRX_CONTEXT(i, q)		(0x00280000 + (i) * 0x2000 + 4 * (q))
#define E810_QRX_CTRL(q)		(0x00120000 + 4 * (q))
#define E810_QRX_CTRL_QENA_REQ		BIT(0)
#define E810_QRX_CTRL_QENA_STAT		BIT(2)
#define E810_QRX_TAIL(q)		(0x00290000 + 4 * (q))
#define E810_QRXFLXP_CNTXT(q)		(0x00480000 + 4 * (q))
#define E810_QRXFLXP_CNTXT_RXDID_IDX	GENMASK(5, 0)
#define E810_QRXFLXP_CNTXT_RXDID_PRIO	GENMASK(10, 8)
#define E810_QRXFLXP_CNTXT_TS		BIT(11)
#define E810_QTX_COMM_DBELL(q)		(0x002C0000 + 4 * (q))
#define E810_QTX_COMM_HEAD(q)		(0x000E0000 + 4 * (q))

/* ---- RDMA protocol engine (hw-reference 1.1/1.2) ---------------------- */

#define E810_CQPTAIL			0x00500880
#define E810_CQPTAIL_WQTAIL		GENMASK(10, 0)
#define E810_CQPTAIL_CQP_OP_ERR		BIT(31)
#define E810_CQPDB			0x00500800
#define E810_CCQPSTATUS			0x0050A000
#define E810_CCQPSTATUS_CCQP_DONE	BIT(0)
#define E810_CCQPSTATUS_CCQP_ERR	BIT(31)
#define E810_CCQPHIGH			0x0050A100
#define E810_CCQPLOW			0x0050A080
#define E810_CQARM			0x00502C00
#define E810_CQARM_CQID			GENMASK(18, 0)
#define E810_CQACK			0x00502C80
#define E810_CQACK_CQID			GENMASK(18, 0)
#define E810_AEQALLOC			0x00502D00
#define E810_CQPERRCODES		0x0050A200
#define E810_CQPERRCODES_MINOR		GENMASK(15, 0)
#define E810_CQPERRCODES_MAJOR		GENMASK(31, 16)
#define E810_WQEALLOC			0x00504400
#define E810_WQEALLOC_WQE_DESC_INDEX	GENMASK(31, 20)
#define E810_GLPCI_LBARCTRL		0x0009DE74
#define E810_GLPCI_LBARCTRL_PE_DB_SIZE	GENMASK(5, 4)
#define E810_PE_DB_SIZE_4M		1
#define E810_PE_DB_SIZE_8M		2
#define E810_GLPE_CPUSTATUS0		0x0050BA5C
#define E810_GLPE_CPUSTATUS1		0x0050BA60
#define E810_GLPE_CPUSTATUS2		0x0050BA64
#define E810_GLPE_CPUSTATUS_READY	0x80
#define E810_VSIQF_PE_CTL1(n)		(0x00414000 + 4 * (n))
/*
 * PFHMC_SDCMD/SDDATALOW/SDDATAHIGH: not used by the GEN_2 driver (it sends
 * the same encodings through UPDATE_PE_SDS, see e810_hmc.h); offsets follow
 * the PFHMC block layout shared with PDINV and ERRORINFO/ERRORDATA.
 */
#define E810_PFHMC_SDCMD		0x00520000
#define E810_PFHMC_SDDATALOW		0x00520100
#define E810_PFHMC_SDDATAHIGH		0x00520200
#define E810_PFHMC_PDINV		0x00520300
#define E810_PFHMC_PDINV_PMSDIDX	GENMASK(11, 0)
#define E810_PFHMC_PDINV_PMSDPARTSEL	BIT(15)
#define E810_PFHMC_PDINV_PMPDIDX	GENMASK(24, 16)
/* ERRORINFO fields: the X710 PFHMC layout, assumed for E810. */
#define E810_PFHMC_ERRORINFO		0x00520400
#define E810_PFHMC_ERRORINFO_PMF_INDEX	GENMASK(4, 0)
#define E810_PFHMC_ERRORINFO_ERROR_TYPE	GENMASK(11, 8)
#define E810_PFHMC_ERRORINFO_OBJ_TYPE	GENMASK(20, 16)
#define E810_PFHMC_ERRORINFO_DETECTED	BIT(31)
#define E810_PFHMC_ERRORDATA		0x00520500
#define E810_GLPE_CRITERR		0x00534000

/* Doorbell page and push pages (hw-reference 1.3). */
#define E810_DB_ADDR_OFFSET		0x007F0000
#define E810_DB_PAGE_SIZE		0x1000
#define E810_DB_QP_OFFSET		0x00	/* SQ doorbell: qp_id */
#define E810_DB_CQ_OFFSET		0x40	/* CQ arm doorbell: cq_id */
#define E810_PUSH_OFFSET		0x00800000
#define E810_PUSH_MAX_PAGES		1024

/*
 * Statistics (ice_update_pf_stats(), ice_update_eth_stats()): the first
 * element of each array; port arrays step 8 bytes per port (_i = 0..7,
 * per-TC ones 8 x 8), VSI arrays 8 bytes (40-bit L/H pairs) or 4 bytes
 * (32-bit) per VSI. A 40-bit counter's H register is at L + 4.
 */
#define E810_PRTRPB_RDPC	0x000AC260
#define E810_GLV_RDPC		0x00294C04
#define E810_GLV_GOTCL		0x00300000
#define E810_GLV_UPTCL		0x0030A000
#define E810_GLV_MPTCL		0x0030C000
#define E810_GLV_BPTCL		0x0030E000
#define E810_GLV_TEPC		0x00312000
#define E810_GLPRT_GORCL	0x00380000
#define E810_GLPRT_MLFC		0x00380040
#define E810_GLPRT_MRFC		0x00380080
#define E810_GLPRT_CRCERRS	0x00380100
#define E810_GLPRT_RLEC		0x00380140
#define E810_GLPRT_ILLERRC	0x003801C0
#define E810_GLPRT_RUC		0x00380200
#define E810_GLPRT_ROC		0x00380240
#define E810_GLPRT_LXONRXC	0x00380280
#define E810_GLPRT_LXOFFRXC	0x003802C0
#define E810_GLPRT_PXONRXC	0x00380300
#define E810_GLPRT_PXOFFRXC	0x00380500
#define E810_GLPRT_RXON2OFFCNT	0x00380700
#define E810_GLPRT_PRC64L	0x00380900
#define E810_GLPRT_PRC127L	0x00380940
#define E810_GLPRT_PRC255L	0x00380980
#define E810_GLPRT_PRC511L	0x003809C0
#define E810_GLPRT_PRC1023L	0x00380A00
#define E810_GLPRT_PRC1522L	0x00380A40
#define E810_GLPRT_PRC9522L	0x00380A80
#define E810_GLPRT_RFC		0x00380AC0
#define E810_GLPRT_RJC		0x00380B00
#define E810_GLPRT_GOTCL	0x00380B40
#define E810_GLPRT_PTC64L	0x00380B80
#define E810_GLPRT_PTC127L	0x00380BC0
#define E810_GLPRT_PTC255L	0x00380C00
#define E810_GLPRT_PTC511L	0x00380C40
#define E810_GLPRT_PTC1023L	0x00380C80
#define E810_GLPRT_PTC1522L	0x00380CC0
#define E810_GLPRT_PTC9522L	0x00380D00
#define E810_GLPRT_PXONTXC	0x00380D40
#define E810_GLPRT_PXOFFTXC	0x00380F40
#define E810_GLPRT_LXONTXC	0x00381140
#define E810_GLPRT_LXOFFTXC	0x00381180
#define E810_GLPRT_UPTCL	0x003811C0
#define E810_GLPRT_MPTCL	0x00381200
#define E810_GLPRT_BPTCL	0x00381240
#define E810_GLPRT_TDOLD	0x00381280
#define E810_GLPRT_UPRCL	0x00381300
#define E810_GLPRT_MPRCL	0x00381340
#define E810_GLPRT_BPRCL	0x00381380
#define E810_GLSTAT_FD_CNT0L	0x003A0000
#define E810_GLV_GORCL		0x003B0000
#define E810_GLV_UPRCL		0x003B2000
#define E810_GLV_MPRCL		0x003B4000
#define E810_GLV_BPRCL		0x003B6000

#endif /* E810_REGS_H */
