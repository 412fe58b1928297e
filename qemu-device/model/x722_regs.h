/*
 * Emulated Intel X722 PF: the BAR0 registers the model implements.
 *
 * Offsets and fields are the X722's (the i40e register map, Linux
 * drivers/net/ethernet/intel/i40e/i40e_register.h names them with an
 * I40E_ prefix); what each one does in the model is docs/hw-model-x722.md.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef X722_REGS_H
#define X722_REGS_H

/* PCI identity: SFP+ X722 (i40e_devids.h I40E_DEV_ID_SFP_X722). */
#define X722_PCI_VENDOR_ID          0x8086
#define X722_PCI_DEVICE_ID_SFP      0x37d0
#define X722_PCI_REVISION           0x09
#define X722_PCI_SUBSYS_ID          0x0001

/*
 * BAR0 is 16 MiB on silicon; the register space i40e maps is its first
 * 4 MiB less the RDMA doorbell page (I40E_MAX_CSR_SPACE).
 */
#define X722_BAR0                   0
#define X722_BAR0_SIZE              (16u << 20)
#define X722_REG_SPACE              (4u << 20)
#define X722_BAR_MSIX               3
#define X722_BAR_MSIX_SIZE          (32u << 10)
#define X722_MSIX_TABLE_OFFSET      0
#define X722_MSIX_PBA_OFFSET        0x1000
#define X722_MSIX_VECTORS           129

/* LAN queues of the function (capabilities 0x0041/0x0042). */
#define X722_NUM_QUEUES             64
/* Queue contexts the LAN HMC can hold (GLHMC_LANQMAX). */
#define X722_LANQMAX                1536

/* ---- admin queue (Reset: EMPR) ---- */
#define X722_PF_ATQBAL              0x080000
#define X722_PF_ARQBAL              0x080080
#define X722_PF_ATQBAH              0x080100
#define X722_PF_ARQBAH              0x080180
#define X722_PF_ATQLEN              0x080200
#define X722_PF_ARQLEN              0x080280
#define X722_PF_ATQH                0x080300
#define X722_PF_ARQH                0x080380
#define X722_PF_ATQT                0x080400
#define X722_PF_ARQT                0x080480
#define X722_AQLEN_LEN              0x3ffu
#define X722_AQLEN_VFE              (1u << 28)
#define X722_AQLEN_OVFL             (1u << 29)
#define X722_AQLEN_CRIT             (1u << 30)
#define X722_AQLEN_ENABLE           (1u << 31)
#define X722_AQ_PTR                 0x3ffu

/* ---- global and reset ---- */
#define X722_GL_FWSTS               0x083048
#define X722_PFGEN_CTRL             0x092400
#define X722_PFGEN_CTRL_PFSWR       (1u << 0)
#define X722_PF_FUNC_RID            0x09c000
#define X722_GLNVM_ULD              0x0b6008
#define X722_GLNVM_ULD_CORE_DONE    (1u << 3)   /* CONF_CORE_DONE */
#define X722_GLNVM_ULD_GLOBAL_DONE  (1u << 4)   /* CONF_GLOBAL_DONE */
#define X722_GLNVM_ULD_DONE         (X722_GLNVM_ULD_CORE_DONE | \
                                     X722_GLNVM_ULD_GLOBAL_DONE)
#define X722_GLNVM_GENS             0x0b6100
#define X722_GLNVM_FLA              0x0b6108
#define X722_GLNVM_FLA_LOCKED       (1u << 6)
#define X722_GLGEN_STAT             0x0b612c
#define X722_PRTGEN_CNF(i)          (0x0b8120 + 4 * (i))
#define X722_PRTGEN_CNF_PORT_DIS    (1u << 0)
#define X722_GLGEN_RSTCTL           0x0b8180
#define X722_GLGEN_RTRIG            0x0b8190
#define X722_GLGEN_RSTAT            0x0b8188
#define X722_GLGEN_RSTAT_DEVSTATE   (3u << 0)
#define X722_GLGEN_RSTAT_TYPE_SHIFT 2           /* RESET_TYPE [3:2] */
#define X722_GLGEN_RTRIG_CORER      (1u << 0)
#define X722_GLGEN_RTRIG_GLOBR      (1u << 1)
#define X722_GLGEN_RTRIG_EMPFWR     (1u << 2)
/* GLGEN_RSTAT.RESET_TYPE (i40e_type.h enum i40e_reset_type) */
#define X722_RESET_CORER            1
#define X722_RESET_GLOBR            2
#define X722_RESET_EMPR             3
#define X722_PFPCI_SUBSYSID         0x0be100
#define X722_GLPCI_LBARCTRL         0x0be484
#define X722_GLPCI_CNF2             0x0be494
#define X722_GLPCI_CAPSUP           0x0be4a8
#define X722_PFLAN_QALLOC           0x1c0400
#define X722_PFGEN_PORTNUM          0x1c0480
#define X722_PF_VT_PFALLOC          0x1c0500
#define X722_PFQF_CTL_0             0x1c0ac0
#define X722_PFQF_CTL_0_LUT512      (1u << 16)  /* HASHLUTSIZE */
#define X722_PFQF_HENA(i)           (0x245900 + (i) * 0x80)
#define X722_PRTGL_SAH              0x1e2140
#define X722_PRTTSYN_CTL0           0x1e4200
#define X722_GLQF_FDEVICTENA(i)     (0x270384 + 4 * (i))
#define X722_GLLAN_RCTL_0           0x12a500
/* The protocol engine's readiness (irdma i40iw_hw.h) */
#define X722_GLPE_CPUSTATUS(i)      (0x00d040 + 4 * (i))

/*
 * The protocol engine's statistics (irdma i40iw_hw.h GLPES_PF*, the
 * registers of i40iw_stat_offsets[]): 16 instances each, 32-bit counters
 * 4 bytes apart, 48-bit ones (LO/HI) 8 bytes apart.
 */
#define X722_GLPES_FIRST            0x010000
#define X722_GLPES_END              0x014c00
#define X722_GLPES_INSTANCES        16

/*
 * ---- the RDMA protocol engine (irdma GEN_1: i40iw_hw.c i40iw_regs[]) ----
 * Run by an E810 core in GEN_1 mode (x722_rdma.c); the fields are those
 * of the E810 registers (include/hw/e810_regs.h) they map to.
 */
#define X722_PE_CQPDB               0x008000
#define X722_PE_CQPTAIL             0x008080
#define X722_PE_CCQPSTATUS          0x008100
#define X722_PE_CCQPLOW             0x008180
#define X722_PE_CCQPHIGH            0x008200
#define X722_PE_CQPERRCODES         0x008880
#define X722_PE_CQARM               0x131080
#define X722_PE_CQACK               0x131100
#define X722_PE_AEQALLOC            0x131180
#define X722_PE_WQEALLOC            0x138c00
#define X722_PFINT_CEQCTL(c)        (0x036800 + 4 * (c))
#define X722_PE_CEQS                256     /* CEQCTL entries mapped */
#define X722_PFINT_AEQCTL           0x038700
/* MSIX_INDX is [7:0] here, [10:8] is MSIX0_INDX (i40e_register.h) */
#define X722_INT_CTL_MSIX0_INDX     (7u << 8)
/* User doorbell page: 4 MiB - 64 KiB (i40iw_hw.h I40IW_DB_ADDR_OFFSET) */
#define X722_PE_DB_PAGE             0x3f0000
#define X722_PE_DB_PAGE_SIZE        0x1000

/* ---- interrupts ---- */
#define X722_PFINT_DYN_CTLN(n)      (0x034800 + 4 * (n))
#define X722_PFINT_LNKLSTN(n)       (0x035000 + 4 * (n))
#define X722_PFINT_DYN_CTL0         0x038480
#define X722_PFINT_LNKLST0          0x038500
#define X722_PFINT_ICR0             0x038780
#define X722_PFINT_ICR0_ENA         0x038800
#define X722_QINT_RQCTL(q)          (0x03a000 + 4 * (q))
#define X722_QINT_TQCTL(q)          (0x03c000 + 4 * (q))
#define X722_DYN_CTL_INTENA         (1u << 0)
#define X722_DYN_CTL_CLEARPBA       (1u << 1)
#define X722_DYN_CTL_SWINT_TRIG     (1u << 2)
#define X722_DYN_CTL_INTENA_MSK     (1u << 31)
#define X722_ICR0_INTEVENT          (1u << 0)
#define X722_ICR0_GRST              (1u << 20)  /* reset warning */
#define X722_ICR0_LINK_STAT_CHANGE  (1u << 25)
#define X722_ICR0_ADMINQ            (1u << 30)
#define X722_QINT_MSIX_INDX         0xffu
#define X722_QINT_CAUSE_ENA         (1u << 30)

/* ---- LAN HMC ---- */
#define X722_PFHMC_SDCMD            0x0c0000
#define X722_PFHMC_SDCMD_IDX        0xfffu
#define X722_PFHMC_SDCMD_WR         (1u << 31)
#define X722_PFHMC_SDDATALOW        0x0c0100
#define X722_PFHMC_SDDATAHIGH       0x0c0200
#define X722_SD_VALID               (1u << 0)
#define X722_SD_TYPE_DIRECT         (1u << 1)
#define X722_SD_BPCOUNT(v)          (((v) >> 2) & 0x3ffu)
#define X722_SD_ADDR_MASK           0xfffff000u
#define X722_PFHMC_PDINV            0x0c0300
#define X722_GLHMC_LANTXOBJSZ       0x0c2004
#define X722_GLHMC_LANQMAX          0x0c2008
#define X722_GLHMC_LANRXOBJSZ       0x0c200c
#define X722_GLHMC_FCOEDDPOBJSZ     0x0c2010
#define X722_GLHMC_FCOEMAX          0x0c2014
#define X722_GLHMC_FCOEFOBJSZ       0x0c2018
#define X722_GLHMC_FCOEFMAX         0x0c20d0
#define X722_GLHMC_LANTXBASE(f)     (0x0c6200 + 4 * (f))
#define X722_GLHMC_LANTXCNT(f)      (0x0c6300 + 4 * (f))
#define X722_GLHMC_LANRXBASE(f)     (0x0c6400 + 4 * (f))
#define X722_GLHMC_LANRXCNT(f)      (0x0c6500 + 4 * (f))
/* Direct SDs only (the LAN's): 2 MiB each; the table has this many. */
#define X722_HMC_SD_SIZE            (2u << 20)
#define X722_HMC_MAX_SDS            16
#define X722_TXQ_CTX_SIZE           128
#define X722_RXQ_CTX_SIZE           32

/* ---- queues ---- */
#define X722_QTX_HEAD(q)            (0x0e4000 + 4 * (q))
#define X722_GLLAN_TXPRE_QDIS(b)    (0x0e6500 + 4 * (b))
#define X722_QTX_ENA(q)             (0x100000 + 4 * (q))
#define X722_QTX_CTL(q)             (0x104000 + 4 * (q))
#define X722_QTX_TAIL(q)            (0x108000 + 4 * (q))
#define X722_QRX_ENA(q)             (0x120000 + 4 * (q))
#define X722_QRX_TAIL(q)            (0x128000 + 4 * (q))
#define X722_QENA_REQ               (1u << 0)
#define X722_QENA_STAT              (1u << 2)
#define X722_QTX_CTL_PFVF_Q_PF      2u

/* ---- VSI VLAN handling: port_vlan_flags (i40e_aqc_vsi_properties_data) */
#define X722_PVLAN_EMOD_MASK        0x18
#define X722_PVLAN_EMOD_STR_BOTH    0x00
#define X722_PVLAN_EMOD_STR         0x10
#define X722_PVLAN_EMOD_NOTHING     0x18

/* VSI queueing_opt_flags: TCP to the protocol engine (I40E_AQ_VSI_QUE_OPT_TCP_ENA) */
#define X722_VSI_TCP_ENA            0x10

/* ---- RSS: packet classifier types (enum i40e_filter_pctype) ---- */
#define X722_PCTYPE_NONF_UNICAST_IPV4_UDP   29
#define X722_PCTYPE_FRAG_IPV4               36
#define X722_PCTYPE_NONF_UNICAST_IPV6_UDP   39
#define X722_PCTYPE_FRAG_IPV6               46

#endif /* X722_REGS_H */
