/*
 * Emulated Intel X722 PF: registers, interrupts, resets, deferred work.
 *
 * BAR0's register space is a flat array of 32-bit registers holding what
 * the driver wrote; the registers with behaviour (the admin queue tails,
 * the PF reset, PFINT_ICR0 read-to-clear, the interrupt enables, the LAN
 * HMC segment commands, the queue enables and tails) are dispatched in
 * x722_core_mmio_write()/read(). docs/hw-model-x722.md lists them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e810_card.h"
#include "x722_core.h"

uint32_t *x722_reg(X722Core *core, uint32_t off)
{
    return &core->regs[(off & (X722_REG_SPACE - 1)) / 4];
}

static uint32_t rd(X722Core *core, uint32_t off)
{
    return *x722_reg(core, off);
}

static void wr(X722Core *core, uint32_t off, uint32_t v)
{
    *x722_reg(core, off) = v;
}

void x722_log(X722Core *core, E810LogLevel level, const char *fmt, ...)
{
    char msg[256];
    va_list ap;

    if (!core->ops->log ||
        (core->ops->log_enabled && !core->ops->log_enabled(core->opaque,
                                                           level))) {
        return;
    }
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    core->ops->log(core->opaque, level, msg);
}

bool x722_dma_read(X722Core *core, uint64_t addr, void *buf, size_t len)
{
    if (core->ops->dma_read(core->opaque, addr, buf, len)) {
        core->stats.dma_errors++;
        x722_log(core, E810_LOG_GUEST_ERROR, "x722: DMA read of %zu bytes "
                 "at 0x%llx failed", len, (unsigned long long)addr);
        return false;
    }
    return true;
}

bool x722_dma_write(X722Core *core, uint64_t addr, const void *buf,
                    size_t len)
{
    if (core->ops->dma_write(core->opaque, addr, buf, len)) {
        core->stats.dma_errors++;
        x722_log(core, E810_LOG_GUEST_ERROR, "x722: DMA write of %zu bytes "
                 "at 0x%llx failed", len, (unsigned long long)addr);
        return false;
    }
    return true;
}

/* ---- interrupts ------------------------------------------------------- */

/*
 * Vector 0 carries the "other" causes latched in PFINT_ICR0 (enabled by
 * PFINT_ICR0_ENA) and fires while PFINT_DYN_CTL0.INTENA is set; vector
 * n >= 1 is gated by PFINT_DYN_CTLN(n - 1).INTENA. A vector that fires
 * clears its INTENA (the driver re-arms it, i40e_irq_dynamic_enable());
 * a cause arriving while it is clear stays pending until the re-arm.
 */
static uint32_t dyn_ctl_off(unsigned v)
{
    return v ? X722_PFINT_DYN_CTLN(v - 1) : X722_PFINT_DYN_CTL0;
}

static void fire(X722Core *core, unsigned v)
{
    uint32_t off = dyn_ctl_off(v);

    wr(core, off, rd(core, off) & ~X722_DYN_CTL_INTENA);
    core->ops->msix_notify(core->opaque, v);
}

static void icr0_update(X722Core *core)
{
    uint32_t icr = rd(core, X722_PFINT_ICR0);

    if (!(icr & rd(core, X722_PFINT_ICR0_ENA) & ~X722_ICR0_INTEVENT)) {
        return;
    }
    if (rd(core, X722_PFINT_DYN_CTL0) & X722_DYN_CTL_INTENA) {
        wr(core, X722_PFINT_ICR0, icr | X722_ICR0_INTEVENT);
        fire(core, 0);
        core->icr0_pending = false;
    } else {
        core->icr0_pending = true;
    }
}

void x722_icr0_cause(X722Core *core, uint32_t cause)
{
    wr(core, X722_PFINT_ICR0, rd(core, X722_PFINT_ICR0) | cause);
    icr0_update(core);
}

void x722_vector_cause(X722Core *core, unsigned v)
{
    if (v == 0 || v >= X722_MSIX_VECTORS) {
        x722_log(core, E810_LOG_GUEST_ERROR, "x722: queue cause on MSI-X "
                 "index %u (table of %u, 0 is the misc vector)", v,
                 X722_MSIX_VECTORS);
        return;
    }
    if (rd(core, dyn_ctl_off(v)) & X722_DYN_CTL_INTENA) {
        fire(core, v);
    } else {
        core->vec_pending[v / 8] |= 1u << (v % 8);
    }
}

static void dyn_ctl_write(X722Core *core, unsigned v, uint32_t val)
{
    bool pend;

    if (v == 0 && (val & X722_DYN_CTL_INTENA_MSK)) {
        /* INTENA_MSK: the write leaves INTENA as it was. */
        val = (val & ~X722_DYN_CTL_INTENA) |
              (rd(core, X722_PFINT_DYN_CTL0) & X722_DYN_CTL_INTENA);
    }
    wr(core, dyn_ctl_off(v), val & ~(X722_DYN_CTL_CLEARPBA |
                                     X722_DYN_CTL_SWINT_TRIG));
    if (val & X722_DYN_CTL_SWINT_TRIG) {
        core->ops->msix_notify(core->opaque, v);
        return;
    }
    if (!(val & X722_DYN_CTL_INTENA)) {
        return;
    }
    if (v == 0) {
        if (core->icr0_pending) {
            icr0_update(core);
        }
        return;
    }
    pend = core->vec_pending[v / 8] & (1u << (v % 8));
    if (pend) {
        core->vec_pending[v / 8] &= ~(1u << (v % 8));
        fire(core, v);
    }
}

/* ---- reset -------------------------------------------------------------- */

static void regs_reset(X722Core *core, bool por)
{
    uint32_t aq[10];
    static const uint32_t aq_regs[10] = {
        X722_PF_ATQBAL, X722_PF_ATQBAH, X722_PF_ATQLEN, X722_PF_ATQH,
        X722_PF_ATQT, X722_PF_ARQBAL, X722_PF_ARQBAH, X722_PF_ARQLEN,
        X722_PF_ARQH, X722_PF_ARQT,
    };
    int i;

    /* The admin queue registers are "Reset: EMPR": a PFR keeps them. */
    for (i = 0; i < 10; i++) {
        aq[i] = rd(core, aq_regs[i]);
    }
    memset(core->regs, 0, X722_REG_SPACE);
    if (!por) {
        for (i = 0; i < 10; i++) {
            wr(core, aq_regs[i], aq[i]);
        }
    }
    wr(core, X722_GLNVM_ULD, X722_GLNVM_ULD_DONE);
    wr(core, X722_GLNVM_GENS, 2u << 5);         /* SR_SIZE: 4 KiB */
    wr(core, X722_GLNVM_FLA, X722_GLNVM_FLA_LOCKED);
    wr(core, X722_GLGEN_RSTCTL, 8);             /* GRSTDEL */
    /* MSI_X_PF_N [12:2], MSI_X_VF_N [23:13] (none usable: no SR-IOV) */
    wr(core, X722_GLPCI_CNF2, X722_MSIX_VECTORS << 2 | 5u << 13);
    wr(core, X722_PFLAN_QALLOC, 0 | (X722_NUM_QUEUES - 1) << 16 | 1u << 31);
    wr(core, X722_PFGEN_PORTNUM, core->pf_id & 3);
    wr(core, X722_PF_FUNC_RID, core->pf_id & 7);
    wr(core, X722_PFPCI_SUBSYSID, X722_PCI_SUBSYS_ID);
    wr(core, X722_GLPCI_LBARCTRL, 1u << 4);     /* BAR size field, irdma */
    /* A two-port device: ports 2 and 3 absent. */
    wr(core, X722_PRTGEN_CNF(2), X722_PRTGEN_CNF_PORT_DIS);
    wr(core, X722_PRTGEN_CNF(3), X722_PRTGEN_CNF_PORT_DIS);
    wr(core, X722_GLHMC_LANTXOBJSZ, 7);         /* 128-byte Tx context */
    wr(core, X722_GLHMC_LANRXOBJSZ, 5);         /* 32-byte Rx context */
    wr(core, X722_GLHMC_LANQMAX, X722_LANQMAX);
    wr(core, X722_GLHMC_FCOEDDPOBJSZ, 6);
    wr(core, X722_GLHMC_FCOEFOBJSZ, 5);
    /*
     * FCoE filter space: i40e_validate_filter_settings() wants room for
     * its default 1K filters + 512 contexts even with FCoE unused.
     */
    wr(core, X722_GLHMC_FCOEMAX, 4096);
    wr(core, X722_GLHMC_FCOEFMAX, 0x2000);
    wr(core, X722_PRTTSYN_CTL0, 0xfu << 8);     /* PF_ID: no PF owns PTP */
    wr(core, X722_GLQF_FDEVICTENA(1), 0xc03);
    wr(core, X722_PRTGL_SAH, 0x2600u << 16);    /* MFS */
    core->fw.max_frame = 0;                     /* Set MAC Config (x722_aq.c) */
    for (i = 0; i < 3; i++) {
        wr(core, X722_GLPE_CPUSTATUS(i), 0x80);
    }
    wr(core, X722_PFINT_LNKLST0, 0x7ff);
    core->icr0_pending = false;
    memset(core->vec_pending, 0, sizeof(core->vec_pending));
}

/* What the firmware keeps of the function: gone with its reset. */
static void fw_reset(X722Core *core)
{
    core->fw.lse_enabled = false;
    core->fw.nmacs = 0;
    core->fw.bcast = core->fw.uc_promisc = core->fw.mc_promisc = false;
    core->fw.vsi_queue_opt = 0;
    core->fw.port_vlan_flags = 0;
    core->fw.nvm_owned = false;
    /* The VSI's RSS key and LUT go with it; the driver sets them again. */
    core->fw.rss_key_set = core->fw.rss_lut_set = false;
}

/*
 * PFGEN_CTRL.PFSWR: the function's reset; PFSWR reads back 0 at once. A
 * core reset under way is not ended by it: its trigger, GLGEN_RSTAT and
 * GLNVM_ULD (global registers) read as before.
 */
static void pf_reset(X722Core *core)
{
    uint32_t rtrig = rd(core, X722_GLGEN_RTRIG);
    uint32_t rstat = rd(core, X722_GLGEN_RSTAT);
    uint32_t uld = rd(core, X722_GLNVM_ULD);

    core->stats.pf_resets++;
    regs_reset(core, false);
    if (core->grst_type) {
        wr(core, X722_GLGEN_RTRIG, rtrig);
        wr(core, X722_GLGEN_RSTAT, rstat);
        wr(core, X722_GLNVM_ULD, uld);
    }
    x722_lan_reset(core);
    x722_rdma_reset(core, false);
    fw_reset(core);
}

/* GLNVM_ULD: the done bits of what a reset of @type is resetting drop. */
static void uld_reset_begins(X722Core *core, unsigned type)
{
    uint32_t busy = X722_GLNVM_ULD_CORE_DONE;

    if (type >= X722_RESET_GLOBR) {
        busy |= X722_GLNVM_ULD_GLOBAL_DONE;
    }
    wr(core, X722_GLNVM_ULD, rd(core, X722_GLNVM_ULD) & ~busy);
}

/*
 * GLGEN_RTRIG.CORER / GLOBR (i40e_do_reset()): the core (or global) reset
 * of the card. First its warning, on each of the card's functions:
 * GLGEN_RSTAT says a reset of that type is under way (DEVSTATE 1,
 * RESET_TYPE) and PFINT_ICR0.GRST is raised (i40e_intr() reads the type
 * and counts it, and every PF's i40e_reset_subtask() recovers); the
 * trigger bit reads back set, and GLNVM_ULD's done bits of the reset's
 * domains (CONF_CORE_DONE, and CONF_GLOBAL_DONE for a GLOBR or EMPR) read
 * clear until it is over. X722_GRST_DELAY_NS later the reset itself,
 * per function: every register but the admin queue's ("Reset: EMPR", as
 * for the PF reset), the LAN HMC and queues, the firmware's switch state
 * (filters, VSI options, RSS), the protocol engine and its statistics
 * ("Reset: PE_CORER"); then DEVSTATE reads 0 with RESET_TYPE kept and
 * GLNVM_ULD's done bits set, which i40e_pf_reset() polls for before its
 * own PF reset. A GLOBR also resets the MAC and PHY; the link stays up
 * here (the emulated wire does not go down). The EMP reset
 * (x722_core_empr()) is warned the same way with type EMPR and resets the
 * admin queue's registers too.
 */
static void grst_warn_one(X722Core *core, unsigned type, uint32_t trig)
{
    wr(core, X722_GLGEN_RTRIG, rd(core, X722_GLGEN_RTRIG) | trig);
    if (core->grst_type) {
        core->grst_type = type > core->grst_type ? type : core->grst_type;
        uld_reset_begins(core, core->grst_type);
        return;     /* one reset, the larger of the two */
    }
    core->grst_type = type;
    uld_reset_begins(core, type);
    wr(core, X722_GLGEN_RSTAT, 1u | type << X722_GLGEN_RSTAT_TYPE_SHIFT);
    x722_icr0_cause(core, X722_ICR0_GRST);
    if (!x722_timer_grst(core, X722_GRST_DELAY_NS)) {
        core->ops->schedule_work(core->opaque);     /* no timer: at once */
    }
}

/* The warning of a reset of @type on each of @core's card's functions. */
static void grst_warn(X722Core *core, unsigned type, uint32_t trig)
{
    int i;

    for (i = 0; i < X722_CARD_PFS; i++) {
        if (core->card[i]) {
            grst_warn_one(core->card[i], type, trig);
        }
    }
}

void x722_core_grst_done(X722Core *core)
{
    unsigned type = core->grst_type;

    if (!type) {
        return;
    }
    core->grst_type = 0;
    if (type == X722_RESET_EMPR) {
        core->stats.emp_resets++;
    } else if (type == X722_RESET_GLOBR) {
        core->stats.global_resets++;
    } else {
        core->stats.core_resets++;
    }
    /* An EMPR resets the "Reset: EMPR" registers (the admin queue's) too. */
    regs_reset(core, type == X722_RESET_EMPR);
    x722_lan_reset(core);
    if (type == X722_RESET_EMPR) {
        x722_aq_reset(core);
        core->atq_pending = false;
    }
    x722_rdma_reset(core, true);
    fw_reset(core);
    wr(core, X722_GLGEN_RSTAT, type << X722_GLGEN_RSTAT_TYPE_SHIFT);
}

void x722_core_empr(X722Core *core)
{
    grst_warn(core, X722_RESET_EMPR, 0);
}

E810_DEFINE_CARD(x722_core, X722Core, X722_CARD_PFS)

void x722_core_reset(X722Core *core)
{
    core->grst_type = 0;
    regs_reset(core, true);
    x722_lan_reset(core);
    x722_aq_reset(core);
    if (core->pe) {
        x722_rdma_reset(core, true);
    }
    core->atq_pending = false;
}

int x722_core_init(X722Core *core, const E810CoreOps *ops, void *opaque,
                   unsigned pf_id)
{
    memset(core, 0, sizeof(*core));
    core->ops = ops;
    core->opaque = opaque;
    core->pf_id = pf_id;
    core->card[pf_id % X722_CARD_PFS] = core;
    core->regs = calloc(1, X722_REG_SPACE);
    if (!core->regs) {
        return -12;
    }
    x722_nvm_init(core);
    if (x722_rdma_init(core)) {
        free(core->regs);
        core->regs = NULL;
        return -12;
    }
    x722_core_reset(core);
    return 0;
}

void x722_core_fini(X722Core *core)
{
    x722_core_leave(core);
    x722_rdma_fini(core);
    free(core->regs);
    core->regs = NULL;
}

void x722_core_set_mac(X722Core *core, const uint8_t mac[6])
{
    memcpy(core->mac, mac, 6);
    x722_rdma_set_link(core);
}

void x722_core_set_link(X722Core *core, bool up)
{
    if (core->carrier == up) {
        return;
    }
    core->carrier = up;
    x722_rdma_set_link(core);
    x722_aq_link_changed(core);
}

/* ---- MMIO --------------------------------------------------------------- */

/* Registers that only the device changes: writes are ignored and counted. */
static bool read_only(uint32_t off)
{
    switch (off) {
    case X722_GL_FWSTS:
    case X722_PF_FUNC_RID:
    case X722_GLNVM_ULD:
    case X722_GLNVM_GENS:
    case X722_GLNVM_FLA:
    case X722_GLGEN_RSTAT:
    case X722_GLGEN_RSTCTL:
    case X722_PFPCI_SUBSYSID:
    case X722_GLPCI_LBARCTRL:
    case X722_GLPCI_CNF2:
    case X722_GLPCI_CAPSUP:
    case X722_PFLAN_QALLOC:
    case X722_PFGEN_PORTNUM:
    case X722_PF_VT_PFALLOC:
    case X722_GLHMC_LANTXOBJSZ:
    case X722_GLHMC_LANRXOBJSZ:
    case X722_GLHMC_LANQMAX:
    case X722_GLHMC_FCOEDDPOBJSZ:
    case X722_GLHMC_FCOEFOBJSZ:
    case X722_GLHMC_FCOEMAX:
    case X722_GLHMC_FCOEFMAX:
    case X722_PRTGL_SAH:
        return true;
    }
    return off >= X722_PRTGEN_CNF(0) && off <= X722_PRTGEN_CNF(3);
}

static bool bad_access(X722Core *core, uint64_t addr, unsigned size,
                       bool write)
{
    if ((size != 4 && size != 8) || (addr & (size - 1))) {
        core->stats.mmio_bad_access++;
        x722_log(core, E810_LOG_GUEST_ERROR, "x722: %u-byte %s at 0x%llx",
                 size, write ? "write" : "read", (unsigned long long)addr);
        return true;
    }
    if (addr + size > X722_REG_SPACE) {
        core->stats.mmio_bad_access++;
        x722_log(core, E810_LOG_UNIMP, "x722: %s at 0x%llx beyond the "
                 "register space (nothing is mapped there)",
                 write ? "write" : "read", (unsigned long long)addr);
        return true;
    }
    return false;
}

static uint32_t reg_read(X722Core *core, uint32_t off)
{
    uint32_t v = rd(core, off);

    if (x722_rdma_mmio_read(core, off, &v)) {
        return v;
    }
    if (off == X722_PFINT_ICR0) {
        /* Read to clear (i40e_intr() reads it once per interrupt). */
        wr(core, X722_PFINT_ICR0, 0);
    }
    return v;
}

uint64_t x722_core_mmio_read(X722Core *core, uint64_t addr, unsigned size)
{
    uint64_t v;

    if (bad_access(core, addr, size, false)) {
        return 0;
    }
    v = reg_read(core, addr);
    if (size == 8) {
        v |= (uint64_t)reg_read(core, addr + 4) << 32;
    }
    return v;
}

static void reg_write(X722Core *core, uint32_t off, uint32_t val)
{
    if (read_only(off)) {
        core->stats.mmio_ro_write++;
        return;
    }
    if (off == X722_PFGEN_CTRL) {
        if (val & X722_PFGEN_CTRL_PFSWR) {
            pf_reset(core);
        }
        return;
    }
    if (off == X722_GLGEN_RTRIG) {
        if (val & X722_GLGEN_RTRIG_EMPFWR) {
            /* the firmware's own: the EMP reset comes from x722_core_empr() */
            x722_log(core, E810_LOG_GUEST_ERROR, "x722: GLGEN_RTRIG 0x%x: "
                     "EMPFWR is the firmware's, ignored", val);
        }
        if (val & (X722_GLGEN_RTRIG_CORER | X722_GLGEN_RTRIG_GLOBR)) {
            grst_warn(core, (val & X722_GLGEN_RTRIG_GLOBR) ?
                      X722_RESET_GLOBR : X722_RESET_CORER,
                      val & (X722_GLGEN_RTRIG_CORER | X722_GLGEN_RTRIG_GLOBR));
        }
        return;
    }
    if (x722_rdma_mmio_write(core, off, val)) {
        return;
    }
    if (off >= X722_PFINT_DYN_CTLN(0) &&
        off < X722_PFINT_DYN_CTLN(X722_MSIX_VECTORS - 1)) {
        unsigned v = (off - X722_PFINT_DYN_CTLN(0)) / 4 + 1;

        dyn_ctl_write(core, v, val);
        x722_rdma_dyn_ctl(core, v, val);
        return;
    }
    if (off >= X722_QTX_ENA(0) && off < X722_QTX_ENA(X722_NUM_QUEUES)) {
        x722_lan_qtx_ena(core, (off - X722_QTX_ENA(0)) / 4, val);
        return;
    }
    if (off >= X722_QRX_ENA(0) && off < X722_QRX_ENA(X722_NUM_QUEUES)) {
        x722_lan_qrx_ena(core, (off - X722_QRX_ENA(0)) / 4, val);
        return;
    }
    if (off >= X722_QTX_TAIL(0) && off < X722_QTX_TAIL(X722_NUM_QUEUES)) {
        wr(core, off, val);
        x722_lan_qtx_tail(core, (off - X722_QTX_TAIL(0)) / 4, val);
        return;
    }
    if (off >= X722_QRX_TAIL(0) && off < X722_QRX_TAIL(X722_NUM_QUEUES)) {
        wr(core, off, val);
        x722_lan_qrx_tail(core, (off - X722_QRX_TAIL(0)) / 4, val);
        return;
    }
    switch (off) {
    case X722_PFINT_DYN_CTL0:
        dyn_ctl_write(core, 0, val);
        return;
    case X722_PFINT_ICR0:
        return;     /* read to clear only */
    case X722_PFINT_ICR0_ENA:
        wr(core, off, val);
        icr0_update(core);
        return;
    case X722_PF_ATQT:
        wr(core, off, val);
        core->atq_pending = true;
        core->ops->schedule_work(core->opaque);
        return;
    case X722_PF_ARQT:
    case X722_PF_ATQH:      /* the driver zeroes them at set-up */
    case X722_PF_ARQH:
        wr(core, off, val & X722_AQ_PTR);
        return;
    case X722_PF_ATQLEN:
    case X722_PF_ARQLEN:
        /* The error bits are the device's; the driver writes 0 to them. */
        wr(core, off, (val & (X722_AQLEN_LEN | X722_AQLEN_ENABLE)) |
           (rd(core, off) & val & (X722_AQLEN_VFE | X722_AQLEN_OVFL |
                                   X722_AQLEN_CRIT)));
        return;
    case X722_PF_ATQBAL:
    case X722_PF_ARQBAL:
        /* 64-byte aligned ring bases: the low bits do not exist. */
        wr(core, off, val & ~0x3fu);
        return;
    case X722_PFHMC_SDCMD:
        wr(core, off, val);
        x722_lan_sd_cmd(core, val);
        return;
    }
    wr(core, off, val);
}

void x722_core_mmio_write(X722Core *core, uint64_t addr, uint64_t val,
                          unsigned size)
{
    if (bad_access(core, addr, size, true)) {
        return;
    }
    reg_write(core, addr, (uint32_t)val);
    if (size == 8) {
        reg_write(core, addr + 4, (uint32_t)(val >> 32));
    }
}

void x722_core_run_work(X722Core *core)
{
    if (core->running) {
        return;
    }
    core->running = true;
    if (core->grst_type && !(core->ops->now_ns && core->ops->timer_mod)) {
        x722_core_grst_done(core);  /* no timer: the reset at once */
    }
    if (core->atq_pending) {
        core->atq_pending = false;
        x722_aq_process_atq(core);
    }
    x722_lan_process_tx(core);
    x722_rdma_run_work(core);
    core->running = false;
}

bool x722_core_can_receive(X722Core *core)
{
    return x722_lan_can_receive(core);
}

size_t x722_core_receive(X722Core *core, const uint8_t *buf, size_t len)
{
    /* The engine's TCP segments first (x722_rdma.c), then the LAN's. */
    if (x722_rdma_receive(core, buf, len)) {
        return len;
    }
    return x722_lan_receive(core, buf, len);
}

void x722_core_format_stats(X722Core *core, char *out, size_t n)
{
    const X722Stats *s = &core->stats;

    snprintf(out, n, "aq_commands=%llu aq_errors=%llu aq_unknown=%llu "
             "events_posted=%llu events_dropped=%llu mmio_bad_access=%llu "
             "mmio_ro_write=%llu pf_resets=%llu core_resets=%llu "
             "global_resets=%llu emp_resets=%llu dma_errors=%llu "
             "hmc_sd_writes=%llu hmc_faults=%llu bad_ctx=%llu "
             "tx_packets=%llu tx_bytes=%llu tx_bad_desc=%llu tx_dropped=%llu "
             "tx_tso_segs=%llu rx_packets=%llu rx_bytes=%llu rx_no_desc=%llu "
             "rx_filtered=%llu rx_oversize=%llu",
             (unsigned long long)s->aq_commands,
             (unsigned long long)s->aq_errors,
             (unsigned long long)s->aq_unknown,
             (unsigned long long)s->events_posted,
             (unsigned long long)s->events_dropped,
             (unsigned long long)s->mmio_bad_access,
             (unsigned long long)s->mmio_ro_write,
             (unsigned long long)s->pf_resets,
             (unsigned long long)s->core_resets,
             (unsigned long long)s->global_resets,
             (unsigned long long)s->emp_resets,
             (unsigned long long)s->dma_errors,
             (unsigned long long)s->hmc_sd_writes,
             (unsigned long long)s->hmc_faults,
             (unsigned long long)s->bad_ctx,
             (unsigned long long)s->tx_packets,
             (unsigned long long)s->tx_bytes,
             (unsigned long long)s->tx_bad_desc,
             (unsigned long long)s->tx_dropped,
             (unsigned long long)s->tx_tso_segs,
             (unsigned long long)s->rx_packets,
             (unsigned long long)s->rx_bytes,
             (unsigned long long)s->rx_no_desc,
             (unsigned long long)s->rx_filtered,
             (unsigned long long)s->rx_oversize);
}
