/*
 * Emulated E810: the BAR0 register file (table, storage, decode, reset).
 *
 * Reset values are those the upstream drivers check (the steady state
 * of docs/hw-reference-lan.md 1.1, and docs/hw-reference.md 1.1).
 * Registers whose real reset source is not documented are put in the CORER
 * domain, the one a PF driver can trigger itself.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hw/e810_regs.h"
#include "e810_regfile.h"

#define R(nm, off, rstval, fl, src, ident) \
    { .name = #nm, .base = (off), .count = 1, .stride = 4, .reset = (rstval), \
      .flags = (fl), .rst = (src), .id = (ident) }
#define A(nm, off, n, rstval, fl, src, ident) \
    { .name = #nm, .base = (off), .count = (n), .stride = 4, \
      .reset = (rstval), .flags = (fl), .rst = (src), .id = (ident) }

#define RO      E810_REG_RO
#define WO      E810_REG_WO
#define RC      E810_REG_RC
#define PLAIN   E810_REGID_PLAIN

/* Sorted by offset; e810_regfile_init() rejects overlaps. */
static const E810RegInfo e810_regs[] = {
    R(GL_MDCK_TX_TDPU,  E810_GL_MDCK_TX_TDPU, 0, 0, E810_RST_CORER, PLAIN),
    /* Admin queue: EMPR domain, a PF reset does not clear them. */
    R(PF_FW_ATQBAL, E810_PF_FW_ATQBAL, 0, 0, E810_RST_EMPR, PLAIN),
    R(PF_FW_ARQBAL, E810_PF_FW_ARQBAL, 0, 0, E810_RST_EMPR, PLAIN),
    R(PF_FW_ATQBAH, E810_PF_FW_ATQBAH, 0, 0, E810_RST_EMPR, PLAIN),
    R(PF_FW_ARQBAH, E810_PF_FW_ARQBAH, 0, 0, E810_RST_EMPR, PLAIN),
    R(PF_FW_ATQLEN, E810_PF_FW_ATQLEN, 0, 0, E810_RST_EMPR, PLAIN),
    R(PF_FW_ARQLEN, E810_PF_FW_ARQLEN, 0, 0, E810_RST_EMPR, PLAIN),
    R(PF_FW_ATQH,   E810_PF_FW_ATQH,   0, 0, E810_RST_EMPR, PLAIN),
    R(PF_FW_ARQH,   E810_PF_FW_ARQH,   0, 0, E810_RST_EMPR, PLAIN),
    R(PF_FW_ATQT,   E810_PF_FW_ATQT,   0, 0, E810_RST_EMPR,
      E810_REGID_PF_FW_ATQT),
    R(PF_FW_ARQT,   E810_PF_FW_ARQT,   0, 0, E810_RST_EMPR, PLAIN),
    R(PRTDCB_GENS,  E810_PRTDCB_GENS,
      FIELD_PREP(E810_PRTDCB_GENS_DCBX_STATUS, E810_DCBX_STATUS_DIS), RO,
      E810_RST_POR, PLAIN),
    R(PFGEN_STATE,  E810_PFGEN_STATE,  0, RO, E810_RST_CORER, PLAIN),
    R(PFGEN_CTRL,   E810_PFGEN_CTRL,   0, 0, E810_RST_CORER,
      E810_REGID_PFGEN_CTRL),
    { .name = "PFPM_WUS", .base = E810_PFPM_WUS, .count = 1, .stride = 4,
      .w1c = 0xffffffffu, .rst = E810_RST_POR },
    R(GLPCI_LBARCTRL, E810_GLPCI_LBARCTRL,
      FIELD_PREP(E810_GLPCI_LBARCTRL_PE_DB_SIZE, E810_PE_DB_SIZE_8M),
      RO, E810_RST_POR, PLAIN),
    /* Reset value set by the core: it is the PCI function number. */
    R(PF_FUNC_RID,  E810_PF_FUNC_RID,  0, RO, E810_RST_POR, PLAIN),
    R(GLNVM_ULD,    E810_GLNVM_ULD, E810_GLNVM_ULD_ALL_MASK, RO,
      E810_RST_POR, PLAIN),
    /* Shadow RAM of 64 KB (2^6 KB), as on E810 parts. */
    R(GLNVM_GENS,   E810_GLNVM_GENS, FIELD_PREP(E810_GLNVM_GENS_SR_SIZE, 6),
      RO, E810_RST_POR, PLAIN),
    R(GLNVM_FLA,    E810_GLNVM_FLA, E810_GLNVM_FLA_LOCKED, RO,
      E810_RST_POR, PLAIN),
    R(GLGEN_STAT,   E810_GLGEN_STAT,   0, RO, E810_RST_POR, PLAIN),
    R(GL_MNG_FWSM,  E810_GL_MNG_FWSM,  0, RO, E810_RST_POR, PLAIN),
    R(GLGEN_RSTCTL, E810_GLGEN_RSTCTL, FIELD_PREP(E810_GLGEN_RSTCTL_GRSTDEL, 8),
      0, E810_RST_POR, PLAIN),
    R(GLGEN_RSTAT,  E810_GLGEN_RSTAT,  0, RO, E810_RST_POR, PLAIN),
    R(GLGEN_RTRIG,  E810_GLGEN_RTRIG,  0, 0, E810_RST_CORER,
      E810_REGID_GLGEN_RTRIG),
    /* CAR_MAX_BW = 1: a 100G part (2-us ITR granularity). */
    R(GL_PWR_MODE_CTL, E810_GL_PWR_MODE_CTL, 1u << 30, RO, E810_RST_POR,
      PLAIN),
    R(GLGEN_CLKSTAT_SRC, E810_GLGEN_CLKSTAT_SRC, 0, RO, E810_RST_POR, PLAIN),
    /* CACHELINE_SIZE clear: 64-byte lines, what ice assumes. */
    R(GLPCI_CNF2,   E810_GLPCI_CNF2,   0, RO, E810_RST_POR, PLAIN),
    A(QTX_COMM_HEAD, E810_QTX_COMM_HEAD(0), 16384, 0, RO, E810_RST_PFR,
      PLAIN),
    A(QRX_CTRL,     E810_QRX_CTRL(0), E810_LAN_MAX_QUEUES, 0, 0,
      E810_RST_PFR, E810_REGID_QRX_CTRL),
    A(QINT_TQCTL,   E810_QINT_TQCTL(0), 16384, 0, 0, E810_RST_CORER, PLAIN),
    A(QINT_RQCTL,   E810_QINT_RQCTL(0), E810_LAN_MAX_QUEUES, 0, 0,
      E810_RST_CORER, PLAIN),
    A(GLINT_ITR0,   E810_GLINT_ITR(0, 0), E810_MAX_VECTORS, 0, 0,
      E810_RST_CORER, PLAIN),
    A(GLINT_ITR1,   E810_GLINT_ITR(1, 0), E810_MAX_VECTORS, 0, 0,
      E810_RST_CORER, PLAIN),
    A(GLINT_ITR2,   E810_GLINT_ITR(2, 0), E810_MAX_VECTORS, 0, 0,
      E810_RST_CORER, PLAIN),
    A(GLINT_RATE,   E810_GLINT_RATE(0), E810_MAX_VECTORS, 0, 0,
      E810_RST_CORER, PLAIN),
    A(GLINT_CEQCTL, E810_GLINT_CEQCTL(0), E810_MAX_VECTORS, 0, 0,
      E810_RST_CORER, PLAIN),
    A(GLINT_DYN_CTL, E810_GLINT_DYN_CTL(0), E810_MAX_VECTORS, 0, 0,
      E810_RST_CORER, E810_REGID_GLINT_DYN_CTL),
    R(PFINT_MBX_CTL, E810_PFINT_MBX_CTL, 0, 0, E810_RST_CORER, PLAIN),
    R(PFINT_FW_CTL, E810_PFINT_FW_CTL, 0, 0, E810_RST_CORER, PLAIN),
    R(PFINT_OICR_ENA, E810_PFINT_OICR_ENA, 0, 0, E810_RST_CORER, PLAIN),
    R(PFINT_OICR,   E810_PFINT_OICR, 0, RC, E810_RST_CORER,
      E810_REGID_PFINT_OICR),
    R(PFINT_OICR_CTL, E810_PFINT_OICR_CTL, 0, 0, E810_RST_CORER, PLAIN),
    R(PFINT_AEQCTL, E810_PFINT_AEQCTL, 0, 0, E810_RST_CORER, PLAIN),
    R(GLINT_CTL,    E810_GLINT_CTL, 0, 0, E810_RST_CORER, PLAIN),
    /* Kept equal to the applied ETS map by e810_sched.c. */
    R(PRTDCB_TUP2TC, E810_PRTDCB_TUP2TC, 0, RO, E810_RST_PFR, PLAIN),
    /*
     * VF mailbox, PF side: no VF ever sends, so the rings only hold what
     * the driver programs (EMPR domain like the admin queue).
     */
    R(PF_MBX_ATQBAL, E810_PF_MBX_ATQBAL, 0, 0, E810_RST_EMPR, PLAIN),
    R(PF_MBX_ATQBAH, E810_PF_MBX_ATQBAH, 0, 0, E810_RST_EMPR, PLAIN),
    R(PF_MBX_ATQLEN, E810_PF_MBX_ATQLEN, 0, 0, E810_RST_EMPR, PLAIN),
    R(PF_MBX_ATQH,   E810_PF_MBX_ATQH,   0, 0, E810_RST_EMPR, PLAIN),
    R(PF_MBX_ATQT,   E810_PF_MBX_ATQT,   0, 0, E810_RST_EMPR, PLAIN),
    R(PF_MBX_ARQBAL, E810_PF_MBX_ARQBAL, 0, 0, E810_RST_EMPR, PLAIN),
    R(PF_MBX_ARQBAH, E810_PF_MBX_ARQBAH, 0, 0, E810_RST_EMPR, PLAIN),
    R(PF_MBX_ARQLEN, E810_PF_MBX_ARQLEN, 0, 0, E810_RST_EMPR, PLAIN),
    R(PF_MBX_ARQH,   E810_PF_MBX_ARQH,   0, 0, E810_RST_EMPR, PLAIN),
    R(PF_MBX_ARQT,   E810_PF_MBX_ARQT,   0, 0, E810_RST_EMPR, PLAIN),
    /* The eight dword arrays of the Rx context are contiguous. */
    A(QRX_CONTEXT,  E810_QRX_CONTEXT(0, 0), 8 * E810_LAN_MAX_QUEUES, 0, 0,
      E810_RST_PFR, PLAIN),
    A(QRX_TAIL,     E810_QRX_TAIL(0), E810_LAN_MAX_QUEUES, 0, 0,
      E810_RST_PFR, E810_REGID_QRX_TAIL),
    A(QTX_COMM_DBELL, E810_QTX_COMM_DBELL(0), 16384, 0, WO, E810_RST_PFR,
      E810_REGID_QTX_COMM_DBELL),
    A(VSIQF_PE_CTL1, E810_VSIQF_PE_CTL1(0), 768, 0, 0, E810_RST_CORER,
      PLAIN),
    R(PFQF_FD_ENA,  E810_PFQF_FD_ENA, 0, 0, E810_RST_CORER, PLAIN),
    R(GLQF_FD_SIZE, E810_GLQF_FD_SIZE,
      FIELD_PREP(E810_GLQF_FD_SIZE_GSIZE, E810_FD_GUAR_FILTERS) |
      FIELD_PREP(E810_GLQF_FD_SIZE_BSIZE, E810_FD_BEST_EFFORT_FILTERS),
      RO, E810_RST_POR, PLAIN),
    A(QRXFLXP_CNTXT, E810_QRXFLXP_CNTXT(0), E810_LAN_MAX_QUEUES, 0, 0,
      E810_RST_CORER, PLAIN),
    /*
     * RDMA engine (e810_rdma.c). The CQP registers are in the PFR domain:
     * a PF reset also resets the function's protocol engine state.
     */
    R(CQPDB,        E810_CQPDB,   0, WO, E810_RST_PFR, E810_REGID_CQPDB),
    R(CQPTAIL,      E810_CQPTAIL, 0, RO, E810_RST_PFR, E810_REGID_CQPTAIL),
    R(CQARM,        E810_CQARM,   0, WO, E810_RST_PFR, E810_REGID_CQARM),
    R(CQACK,        E810_CQACK,   0, WO, E810_RST_PFR, E810_REGID_CQACK),
    R(AEQALLOC,     E810_AEQALLOC, 0, WO, E810_RST_PFR,
      E810_REGID_AEQALLOC),
    R(WQEALLOC,     E810_WQEALLOC, 0, WO, E810_RST_PFR,
      E810_REGID_WQEALLOC),
    R(CCQPSTATUS,   E810_CCQPSTATUS, 0, RO, E810_RST_PFR,
      E810_REGID_CCQPSTATUS),
    R(CCQPLOW,      E810_CCQPLOW,  0, 0, E810_RST_PFR, E810_REGID_CCQPLOW),
    R(CCQPHIGH,     E810_CCQPHIGH, 0, 0, E810_RST_PFR, PLAIN),
    R(CQPERRCODES,  E810_CQPERRCODES, 0, RO, E810_RST_PFR, PLAIN),
    R(GLPE_CPUSTATUS0, E810_GLPE_CPUSTATUS0, E810_GLPE_CPUSTATUS_READY, RO,
      E810_RST_POR, PLAIN),
    R(GLPE_CPUSTATUS1, E810_GLPE_CPUSTATUS1, E810_GLPE_CPUSTATUS_READY, RO,
      E810_RST_POR, PLAIN),
    R(GLPE_CPUSTATUS2, E810_GLPE_CPUSTATUS2, E810_GLPE_CPUSTATUS_READY, RO,
      E810_RST_POR, PLAIN),
    /* HMC segment descriptors: SDCMD.PMSDWR applies SDDATAHIGH:LOW. */
    R(PFHMC_SDCMD,  E810_PFHMC_SDCMD, 0, 0, E810_RST_PFR,
      E810_REGID_PFHMC_SDCMD),
    R(PFHMC_SDDATALOW, E810_PFHMC_SDDATALOW, 0, 0, E810_RST_PFR, PLAIN),
    R(PFHMC_SDDATAHIGH, E810_PFHMC_SDDATAHIGH, 0, 0, E810_RST_PFR, PLAIN),
    R(PFHMC_PDINV,  E810_PFHMC_PDINV, 0, WO, E810_RST_PFR,
      E810_REGID_PFHMC_PDINV),
    R(PFHMC_ERRORINFO, E810_PFHMC_ERRORINFO, 0, RO, E810_RST_PFR, PLAIN),
    R(PFHMC_ERRORDATA, E810_PFHMC_ERRORDATA, 0, RO, E810_RST_PFR, PLAIN),
    R(GLPE_CRITERR, E810_GLPE_CRITERR, 0, RO, E810_RST_PFR, PLAIN),
};

#define E810_NREGS (sizeof(e810_regs) / sizeof(e810_regs[0]))

static uint32_t entry_end(const E810RegInfo *ri)
{
    return ri->base + (ri->count - 1) * ri->stride + 4;
}

int e810_regfile_init(E810RegFile *rf)
{
    uint32_t n = 0;
    unsigned i;

    memset(rf, 0, sizeof(*rf));
    for (i = 0; i < E810_NREGS; i++) {
        const E810RegInfo *ri = &e810_regs[i];

        if (ri->count == 0 || ri->stride < 4 || (ri->base & 3) ||
            (i > 0 && entry_end(&e810_regs[i - 1]) > ri->base)) {
            return -EINVAL;  /* a table bug, caught by the unit tests */
        }
        n += ri->count;
    }
    rf->vals = calloc(n, sizeof(*rf->vals));
    rf->reset_vals = calloc(n, sizeof(*rf->reset_vals));
    rf->slot_base = calloc(E810_NREGS, sizeof(*rf->slot_base));
    if (!rf->vals || !rf->reset_vals || !rf->slot_base) {
        e810_regfile_fini(rf);
        return -ENOMEM;
    }
    n = 0;
    for (i = 0; i < E810_NREGS; i++) {
        const E810RegInfo *ri = &e810_regs[i];
        uint32_t j;

        rf->slot_base[i] = n;
        for (j = 0; j < ri->count; j++) {
            rf->reset_vals[n + j] = ri->reset;
        }
        n += ri->count;
    }
    rf->nslots = n;
    e810_regfile_reset(rf, E810_RST_POR);
    return 0;
}

void e810_regfile_fini(E810RegFile *rf)
{
    free(rf->vals);
    free(rf->reset_vals);
    free(rf->slot_base);
    rf->vals = NULL;
    rf->reset_vals = NULL;
    rf->slot_base = NULL;
    rf->nslots = 0;
}

/*
 * Copies the reset values of every register in the domain, a run of
 * neighbouring table entries at a time: the core resets the whole file
 * at every power-on, and the fuzz harnesses do so for every input.
 */
void e810_regfile_reset(E810RegFile *rf, E810ResetSource level)
{
    unsigned i = 0, j;

    while (i < E810_NREGS) {
        if (e810_regs[i].rst > level) {
            i++;
            continue;
        }
        for (j = i + 1; j < E810_NREGS && e810_regs[j].rst <= level; j++) {
        }
        /* Entries i..j-1 occupy consecutive slots. */
        memcpy(&rf->vals[rf->slot_base[i]], &rf->reset_vals[rf->slot_base[i]],
               (size_t)(rf->slot_base[j - 1] + e810_regs[j - 1].count -
                        rf->slot_base[i]) * sizeof(*rf->vals));
        i = j;
    }
}

bool e810_regfile_lookup(E810RegFile *rf, uint32_t offset, E810RegRef *ref)
{
    unsigned lo = 0, hi = E810_NREGS;

    if (offset & 3) {
        return false;
    }
    /* Binary search for the last entry whose base is <= offset. */
    while (hi - lo > 1) {
        unsigned mid = (lo + hi) / 2;

        if (e810_regs[mid].base <= offset) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    {
        const E810RegInfo *ri = &e810_regs[lo];
        uint32_t delta;

        if (offset < ri->base || offset >= entry_end(ri)) {
            return false;
        }
        delta = offset - ri->base;
        if (delta % ri->stride) {
            return false;
        }
        ref->info = ri;
        ref->index = delta / ri->stride;
        ref->val = &rf->vals[rf->slot_base[lo] + ref->index];
    }
    return true;
}

uint32_t *e810_regfile_ptr(E810RegFile *rf, uint32_t offset)
{
    E810RegRef ref;

    return e810_regfile_lookup(rf, offset, &ref) ? ref.val : NULL;
}

const E810RegInfo *e810_regfile_table(unsigned *count)
{
    *count = E810_NREGS;
    return e810_regs;
}
