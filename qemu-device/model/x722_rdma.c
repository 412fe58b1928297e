/*
 * Emulated Intel X722 PF: the RDMA protocol engine (irdma GEN_1, iWARP).
 *
 * The X722's engine is the E810's generation before: the same control QP,
 * CCQ, CEQ/AEQ and HMC designs with a few fields moved, a smaller object
 * set and another register map (include/hw/e810_gen.h lists the
 * differences). So the X722 does not copy the E810 model's engine: it runs
 * one E810 core (e810_core.h) switched to GEN_1 (e810_core_set_gen()) as
 * its protocol engine, with the X722's DMA, MSI-X and transmit, and maps
 * its PE registers onto that core's:
 *
 *   CQPDB 0x8000, CQPTAIL 0x8080, CCQPSTATUS 0x8100, CCQPLOW 0x8180,
 *   CCQPHIGH 0x8200, CQPERRCODES 0x8880, CQARM 0x131080, CQACK 0x131100,
 *   AEQALLOC 0x131180, WQEALLOC 0x138C00 (upstream i40iw_hw.c i40iw_regs[]),
 *   PFHMC_PDINV 0xC0300, PFINT_CEQCTL(c) 0x36800, PFINT_AEQCTL 0x38700,
 *   and the user doorbell page at 0x3F0000.
 *
 * PFINT_DYN_CTLN(n) gates vector n + 1 for the LAN (x722_core.c) and for
 * the engine alike: each write goes to both. irdma links its CEQs into
 * PFINT_LNKLSTN itself (i40iw_config_ceq()); the engine raises the vector
 * PFINT_CEQCTL(c).MSIX_INDX names, as the E810's GLINT_CEQCTL does.
 *
 * The PE's segment descriptors share the function's SD table with the LAN
 * HMC (x722_lan.c): the LAN takes SDs below X722_PE_FIRST_SD, the engine
 * reports that SD as FIRST_PE_SD_INDEX and lays its objects out from it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e810_iw.h"
#include "e810_iwarp.h"
#include "x722_core.h"

typedef struct X722PeReg {
    uint32_t x722;      /* first X722 offset */
    uint32_t e810;      /* the E810 register it is */
    uint32_t n;         /* consecutive 32-bit registers */
} X722PeReg;

static const X722PeReg pe_regs[] = {
    { X722_PE_CQPDB, E810_CQPDB, 1 },
    { X722_PE_CQPTAIL, E810_CQPTAIL, 1 },
    { X722_PE_CCQPSTATUS, E810_CCQPSTATUS, 1 },
    { X722_PE_CCQPLOW, E810_CCQPLOW, 1 },
    { X722_PE_CCQPHIGH, E810_CCQPHIGH, 1 },
    { X722_PE_CQPERRCODES, E810_CQPERRCODES, 1 },
    { X722_PE_CQARM, E810_CQARM, 1 },
    { X722_PE_CQACK, E810_CQACK, 1 },
    { X722_PE_AEQALLOC, E810_AEQALLOC, 1 },
    { X722_PE_WQEALLOC, E810_WQEALLOC, 1 },
    { X722_PFHMC_PDINV, E810_PFHMC_PDINV, 1 },
    { X722_PFINT_AEQCTL, E810_PFINT_AEQCTL, 1 },
    { X722_PFINT_CEQCTL(0), E810_GLINT_CEQCTL(0), X722_PE_CEQS },
};

/* The E810 register behind X722 register @off, or false. */
static bool pe_reg(uint32_t off, uint32_t *e810)
{
    size_t i;

    if (off >= X722_PE_DB_PAGE && off < X722_PE_DB_PAGE +
        X722_PE_DB_PAGE_SIZE) {
        *e810 = E810_DB_ADDR_OFFSET + (off - X722_PE_DB_PAGE);
        return true;
    }
    for (i = 0; i < sizeof(pe_regs) / sizeof(pe_regs[0]); i++) {
        if (off >= pe_regs[i].x722 &&
            off < pe_regs[i].x722 + 4 * pe_regs[i].n) {
            *e810 = pe_regs[i].e810 + (off - pe_regs[i].x722);
            return true;
        }
    }
    return false;
}

/* ---- statistics (GLPES_PF*) ------------------------------------------------
 *
 * irdma's GEN_1 reads the engine's statistics from registers, no CQP op
 * (utils.c irdma_cqp_gather_stats_gen1(): instance hmc_fn_id, 32-bit
 * counters with rd32, 48-bit ones with rd64, each masked to its width by
 * irdma_process_stats()). The counters are the engine's: every frame it
 * transmits (its offloaded connections' segments and the ILQ's frames)
 * and every frame the steering gives it (x722_rdma_receive()), counted on
 * the wire as the E810 model counts its RoCE frames (e810_rdma_stats.c):
 * IP packets and octets (the datagram), multicast, TCP segments; RDMA
 * messages by the last segment of each (DDP L bit) in the FPDUs of a
 * segment (RDMA Write, Read Request, the four Sends); retransmitted
 * segments by the engine's TCP (E810IwConnStats); window binds and
 * invalidations by the engine's own counters. Not modelled (read 0): the
 * discards, fragments, "no route", VLAN, TCP option and protocol errors,
 * UDP (iWARP only). Frames the engine turns back to itself (a connection
 * to its own MAC) never reach the wire and are not counted. The
 * registers are read-only; a PF reset keeps them (Reset: PE_CORER).
 */
typedef struct X722PesReg {
    uint32_t off;       /* instance 0's */
    uint8_t stat;       /* enum x722_pes, or X722_PES_MAX: reads 0 */
    uint8_t bits;       /* 24, 32: 4-byte stride; 48: 8-byte, LO/HI */
} X722PesReg;

#define PES32(o, s, b)  { (o), (s), (b) }
#define PES48(o, s)     { (o), (s), 48 }

/* i40iw_hw.c i40iw_stat_offsets[] and the widths of i40iw_hw_stat_map[]. */
static const X722PesReg pes_regs[] = {
    PES32(0x10000, X722_PES_MAX, 24),            /* RXVLANERR */
    PES48(0x10200, X722_PES_IP4RXOCTS),
    PES48(0x10400, X722_PES_IP4RXPKTS),
    PES32(0x10600, X722_PES_MAX, 32),            /* IP4RXDISCARD */
    PES32(0x10700, X722_PES_IP4RXTRUNC, 32),
    PES48(0x10800, X722_PES_MAX),                /* IP4RXFRAGS */
    PES48(0x10a00, X722_PES_IP4RXMCOCTS),
    PES48(0x10c00, X722_PES_IP4RXMCPKTS),
    PES48(0x10e00, X722_PES_IP6RXOCTS),
    PES48(0x11000, X722_PES_IP6RXPKTS),
    PES32(0x11200, X722_PES_MAX, 32),            /* IP6RXDISCARD */
    PES32(0x11300, X722_PES_IP6RXTRUNC, 32),
    PES48(0x11400, X722_PES_MAX),                /* IP6RXFRAGS */
    PES48(0x11600, X722_PES_IP6RXMCOCTS),
    PES48(0x11800, X722_PES_IP6RXMCPKTS),
    PES48(0x11a00, X722_PES_IP4TXOCTS),
    PES48(0x11c00, X722_PES_IP4TXPKTS),
    PES48(0x11e00, X722_PES_MAX),                /* IP4TXFRAGS */
    PES48(0x12000, X722_PES_IP4TXMCOCTS),
    PES48(0x12200, X722_PES_IP4TXMCPKTS),
    PES48(0x12400, X722_PES_IP6TXOCTS),
    PES48(0x12600, X722_PES_IP6TXPKTS),
    PES48(0x12800, X722_PES_MAX),                /* IP6TXFRAGS */
    PES48(0x12a00, X722_PES_IP6TXMCOCTS),
    PES48(0x12c00, X722_PES_IP6TXMCPKTS),
    PES32(0x12e00, X722_PES_MAX, 24),            /* IP4TXNOROUTE */
    PES32(0x12f00, X722_PES_MAX, 24),            /* IP6TXNOROUTE */
    PES48(0x13000, X722_PES_TCPRXSEGS),
    PES32(0x13200, X722_PES_MAX, 24),            /* TCPRXOPTERR */
    PES32(0x13300, X722_PES_MAX, 24),            /* TCPRXPROTOERR */
    PES48(0x13400, X722_PES_TCPTXSEG),
    PES32(0x13600, X722_PES_TCPRTXSEG, 32),
    PES48(0x13800, X722_PES_MAX),                /* UDPRXPKTS */
    PES48(0x13a00, X722_PES_MAX),                /* UDPTXPKTS */
    PES48(0x13c00, X722_PES_RDMARXWRS),
    PES48(0x13e00, X722_PES_RDMARXRDS),
    PES48(0x14000, X722_PES_RDMARXSNDS),
    PES48(0x14200, X722_PES_RDMATXWRS),
    PES48(0x14400, X722_PES_RDMATXRDS),
    PES48(0x14600, X722_PES_RDMATXSNDS),
    PES48(0x14800, X722_PES_RDMAVBND),
    PES48(0x14a00, X722_PES_RDMAVINV),
};

static uint64_t rstat_sum(X722Core *core, unsigned stat)
{
    uint64_t n = 0;
    unsigned i;

    for (i = 0; i <= E810_MAX_STATS_INST; i++) {
        n += core->pe->rdma.rstat[i][stat];
    }
    return n;
}

static uint64_t iw_retransmits(X722Core *core)
{
    return core->pe->iw ? core->pe->iw->stats.retransmits : 0;
}

static uint64_t pes_value(X722Core *core, unsigned stat)
{
    switch (stat) {
    case X722_PES_TCPRTXSEG:
        return iw_retransmits(core) - core->pes_rtx_base;
    case X722_PES_RDMAVBND:
        return core->pes[stat] + rstat_sum(core, E810_RSTAT_RDMAVBND);
    case X722_PES_RDMAVINV:
        return core->pes[stat] + rstat_sum(core, E810_RSTAT_RDMAVINV);
    default:
        return stat < X722_PES_MAX ? core->pes[stat] : 0;
    }
}

/* A GLPES_PF* register: true, with its value (0 for another instance). */
static bool pes_read(X722Core *core, uint32_t off, uint32_t *val)
{
    size_t i;

    if (off < X722_GLPES_FIRST || off >= X722_GLPES_END) {
        return false;
    }
    for (i = 0; i < sizeof(pes_regs) / sizeof(pes_regs[0]); i++) {
        const X722PesReg *r = &pes_regs[i];
        unsigned stride = r->bits == 48 ? 8 : 4;
        uint64_t v;

        if (off < r->off || off >= r->off + stride * X722_GLPES_INSTANCES) {
            continue;
        }
        if ((off - r->off) / stride != core->pf_id) {
            *val = 0;   /* another function's instance */
            return true;
        }
        v = pes_value(core, r->stat) & ((1ull << r->bits) - 1);
        *val = (off - r->off) % stride ? (uint32_t)(v >> 32) : (uint32_t)v;
        return true;
    }
    *val = 0;
    return true;
}

static uint16_t be16(const uint8_t *p)
{
    return p[0] << 8 | p[1];
}

/* RDMA messages: the last DDP segment of each FPDU in a TCP payload. */
static void pes_count_fpdus(X722Core *core, const uint8_t *p, size_t n,
                            bool tx)
{
    while (n >= 2) {
        size_t ulpdu = be16(p), fpdu = (2 + ulpdu + 3) / 4 * 4 + 4;
        uint8_t ddp, op;
        int s = -1;

        /* An MPA request or reply ("MPA ID ...") never fits: not FPDUs. */
        if (ulpdu < 14 || fpdu > n) {
            return;
        }
        ddp = p[2];
        op = p[3];
        if ((ddp & 3) != 1 || (op >> 6) != 1) {
            return;             /* not DDP/RDMAP version 1 */
        }
        if (ddp & 0x40) {       /* L: the message's last segment */
            switch (op & 0xf) {
            case 0:
                s = tx ? X722_PES_RDMATXWRS : X722_PES_RDMARXWRS;
                break;
            case 1:
                s = tx ? X722_PES_RDMATXRDS : X722_PES_RDMARXRDS;
                break;
            case 3: case 4: case 5: case 6:
                s = tx ? X722_PES_RDMATXSNDS : X722_PES_RDMARXSNDS;
                break;
            }
        }
        if (s >= 0) {
            core->pes[s]++;
        }
        p += fpdu;
        n -= fpdu;
    }
}

/* Counts one frame the engine sent (@tx) or took from the wire. */
static void pes_count(X722Core *core, const uint8_t *f, size_t len, bool tx)
{
    size_t l3 = 14, iplen, l4, hl;
    uint16_t type;
    bool v4, mc;
    uint8_t proto;

    if (len < l3) {
        return;
    }
    type = be16(f + 12);
    if (type == 0x8100 && len >= 18) {
        type = be16(f + 16);
        l3 = 18;
    }
    if (type != 0x0800 && type != 0x86dd) {
        return;
    }
    v4 = type == 0x0800;
    hl = v4 ? 20 : 40;
    if (len < l3 + hl) {
        if (!tx) {
            core->pes[v4 ? X722_PES_IP4RXTRUNC : X722_PES_IP6RXTRUNC]++;
        }
        return;
    }
    if (v4) {
        iplen = be16(f + l3 + 2);
        hl = (f[l3] & 0xf) * 4;
        proto = f[l3 + 9];
        mc = (f[l3 + 16] >> 4) == 0xe;
    } else {
        iplen = 40 + be16(f + l3 + 4);
        proto = f[l3 + 6];
        mc = f[l3 + 24] == 0xff;
    }
    if (iplen > len - l3 || iplen < hl) {
        if (!tx) {
            core->pes[v4 ? X722_PES_IP4RXTRUNC : X722_PES_IP6RXTRUNC]++;
        }
        return;
    }
    if (v4) {
        core->pes[tx ? X722_PES_IP4TXPKTS : X722_PES_IP4RXPKTS]++;
        core->pes[tx ? X722_PES_IP4TXOCTS : X722_PES_IP4RXOCTS] += iplen;
        if (mc) {
            core->pes[tx ? X722_PES_IP4TXMCPKTS : X722_PES_IP4RXMCPKTS]++;
            core->pes[tx ? X722_PES_IP4TXMCOCTS :
                      X722_PES_IP4RXMCOCTS] += iplen;
        }
    } else {
        core->pes[tx ? X722_PES_IP6TXPKTS : X722_PES_IP6RXPKTS]++;
        core->pes[tx ? X722_PES_IP6TXOCTS : X722_PES_IP6RXOCTS] += iplen;
        if (mc) {
            core->pes[tx ? X722_PES_IP6TXMCPKTS : X722_PES_IP6RXMCPKTS]++;
            core->pes[tx ? X722_PES_IP6TXMCOCTS :
                      X722_PES_IP6RXMCOCTS] += iplen;
        }
    }
    if (proto != 6 || (v4 && (f[l3 + 6] & 0x3f || f[l3 + 7]))) {
        return;         /* not TCP, or a fragment */
    }
    l4 = l3 + hl;
    if (iplen < hl + 20 || (size_t)(f[l4 + 12] >> 4) * 4 > iplen - hl ||
        (f[l4 + 12] >> 4) < 5) {
        return;
    }
    core->pes[tx ? X722_PES_TCPTXSEG : X722_PES_TCPRXSEGS]++;
    hl += (f[l4 + 12] >> 4) * 4;
    pes_count_fpdus(core, f + l3 + hl, iplen - hl, tx);
}

/*
 * The engine's embedder interface: the X722's (core->ops), with its
 * transmit counted. The engine calls these with the X722 core as opaque.
 */
static int pe_dma_read(void *o, uint64_t addr, void *buf, size_t len)
{
    X722Core *core = o;

    return core->ops->dma_read(core->opaque, addr, buf, len);
}

static int pe_dma_write(void *o, uint64_t addr, const void *buf, size_t len)
{
    X722Core *core = o;

    return core->ops->dma_write(core->opaque, addr, buf, len);
}

static void *pe_dma_map(void *o, uint64_t addr, size_t *len, bool write)
{
    X722Core *core = o;

    return core->ops->dma_map(core->opaque, addr, len, write);
}

static void pe_dma_unmap(void *o, void *ptr, size_t len, bool write,
                         size_t access_len)
{
    X722Core *core = o;

    core->ops->dma_unmap(core->opaque, ptr, len, write, access_len);
}

static void pe_msix_notify(void *o, unsigned vector)
{
    X722Core *core = o;

    core->ops->msix_notify(core->opaque, vector);
}

static void pe_schedule_work(void *o)
{
    X722Core *core = o;

    core->ops->schedule_work(core->opaque);
}

static void pe_transmit(void *o, const uint8_t *frame, size_t len)
{
    X722Core *core = o;

    pes_count(core, frame, len, true);
    core->ops->transmit(core->opaque, frame, len);
}

static void pe_rx_ready(void *o)
{
    X722Core *core = o;

    core->ops->rx_ready(core->opaque);
}

static void pe_log(void *o, E810LogLevel level, const char *msg)
{
    X722Core *core = o;

    core->ops->log(core->opaque, level, msg);
}

static bool pe_log_enabled(void *o, E810LogLevel level)
{
    X722Core *core = o;

    return core->ops->log_enabled(core->opaque, level);
}

static void pe_trace(void *o, E810TraceEvent ev, uint64_t a, uint64_t b,
                     uint64_t c)
{
    X722Core *core = o;

    core->ops->trace(core->opaque, ev, a, b, c);
}

static uint64_t pe_now_ns(void *o)
{
    X722Core *core = o;

    return core->ops->now_ns(core->opaque);
}

/* The glue's one timer: the earlier of the engine's and the reset's. */
static void timer_arm(X722Core *core)
{
    core->ops->timer_mod(core->opaque, core->pe_deadline < core->grst_deadline ?
                         core->pe_deadline : core->grst_deadline);
}

static void pe_timer_mod(void *o, uint64_t deadline_ns)
{
    X722Core *core = o;

    core->pe_deadline = deadline_ns;
    timer_arm(core);
}

bool x722_timer_grst(X722Core *core, uint64_t delay_ns)
{
    if (!core->ops->now_ns || !core->ops->timer_mod) {
        return false;
    }
    core->grst_deadline = core->ops->now_ns(core->opaque) + delay_ns;
    timer_arm(core);
    return true;
}

static void pe_ops_init(X722Core *core)
{
    const E810CoreOps *p = core->ops;
    E810CoreOps *o = &core->pe_ops;

    memset(o, 0, sizeof(*o));
    core->pe_deadline = core->grst_deadline = UINT64_MAX;
    o->dma_read = pe_dma_read;
    o->dma_write = pe_dma_write;
    if (p->dma_map && p->dma_unmap) {
        o->dma_map = pe_dma_map;
        o->dma_unmap = pe_dma_unmap;
    }
    o->msix_notify = pe_msix_notify;
    o->schedule_work = pe_schedule_work;
    o->transmit = pe_transmit;
    o->rx_ready = p->rx_ready ? pe_rx_ready : NULL;
    o->log = p->log ? pe_log : NULL;
    o->log_enabled = p->log_enabled ? pe_log_enabled : NULL;
    o->trace = p->trace ? pe_trace : NULL;
    if (p->now_ns && p->timer_mod) {
        o->now_ns = pe_now_ns;
        o->timer_mod = pe_timer_mod;
    }
    o->crc32 = p->crc32;
}

static bool is_int_ctl(uint32_t off)
{
    return off == X722_PFINT_AEQCTL ||
           (off >= X722_PFINT_CEQCTL(0) &&
            off < X722_PFINT_CEQCTL(X722_PE_CEQS));
}

int x722_rdma_init(X722Core *core)
{
    E810Core *pe = calloc(1, sizeof(*pe));

    if (!pe) {
        return -ENOMEM;
    }
    pe_ops_init(core);
    if (e810_core_init(pe, &core->pe_ops, core, core->pf_id) ||
        e810_core_set_gen(pe, E810_GEN_1, X722_PE_FIRST_SD) ||
        e810_core_set_hmc_sds(pe, X722_PE_SDS) ||
        e810_core_set_msix_vectors(pe, X722_MSIX_VECTORS)) {
        e810_core_fini(pe);
        free(pe);
        return -EINVAL;
    }
    core->pe = pe;
    x722_rdma_reset(core, true);
    return 0;
}

void x722_rdma_fini(X722Core *core)
{
    if (core->pe) {
        e810_core_fini(core->pe);
        free(core->pe);
        core->pe = NULL;
    }
}

/*
 * The engine forgets a CQP's counters with the CQP (its destroy, a PF
 * reset): keep them, so that x-pe-stats also counts a teardown's errors.
 */
static void cqp_counters_keep(X722Core *core)
{
    core->stats.pe_cqp_ops_done += core->pe->rdma.cqp.ops;
    core->stats.pe_cqp_errors_done += core->pe->rdma.cqp.errors;
}

void x722_rdma_reset(X722Core *core, bool por)
{
    cqp_counters_keep(core);
    /* The engine's window and invalidation counters go with its reset. */
    core->pes[X722_PES_RDMAVBND] += rstat_sum(core, E810_RSTAT_RDMAVBND);
    core->pes[X722_PES_RDMAVINV] += rstat_sum(core, E810_RSTAT_RDMAVINV);
    if (por) {
        memset(core->pes, 0, sizeof(core->pes));
        core->pes_rtx_base = iw_retransmits(core);
    }
    /* The settings above take effect at the engine's HMC reset. */
    if (por) {
        e810_core_reset(core->pe);
    } else {
        e810_core_flr(core->pe);
    }
    e810_core_set_mac(core->pe, core->mac);
    e810_core_set_link(core->pe, core->carrier);
    /* The queue set the engine's QPs name: the VSI's (0x0212). */
    core->pe->parent_qs_valid = true;
    core->pe->parent_qs_handle = X722_QS_HANDLE;
}

void x722_rdma_set_link(X722Core *core)
{
    e810_core_set_mac(core->pe, core->mac);
    e810_core_set_link(core->pe, core->carrier);
}

bool x722_rdma_mmio_read(X722Core *core, uint32_t off, uint32_t *val)
{
    uint32_t e;

    if (pes_read(core, off, val)) {
        return true;
    }
    if (!pe_reg(off, &e)) {
        return false;
    }
    *val = (uint32_t)e810_core_mmio_read(core->pe, e, 4);
    return true;
}

static uint32_t ccqphigh(X722Core *core)
{
    return (uint32_t)e810_core_mmio_read(core->pe, E810_CCQPHIGH, 4);
}

bool x722_rdma_mmio_write(X722Core *core, uint32_t off, uint32_t val)
{
    uint32_t e;

    if (off >= X722_GLPES_FIRST && off < X722_GLPES_END) {
        core->stats.mmio_ro_write++;    /* the statistics are read-only */
        return true;
    }
    if (!pe_reg(off, &e)) {
        return false;
    }
    if (is_int_ctl(off) && (val & X722_INT_CTL_MSIX0_INDX)) {
        /* MSIX0_INDX selects among vector 0's causes: none are the PE's. */
        x722_log(core, E810_LOG_GUEST_ERROR, "x722: 0x%x: MSIX0_INDX %u in "
                 "a PE cause register, ignored", off,
                 (val & X722_INT_CTL_MSIX0_INDX) >> 8);
        val &= ~X722_INT_CTL_MSIX0_INDX;
    }
    core->stats.pe_reg_writes++;
    if (off == X722_PE_CCQPLOW && !val &&
        !ccqphigh(core) && core->pe->rdma.cqp.created) {
        cqp_counters_keep(core);     /* 0:0 destroys the CQP */
    }
    e810_core_mmio_write(core->pe, e, val, 4);
    return true;
}

/*
 * The VSI's TCP_ENA queueing option (I40E_AQ_VSI_QUE_OPT_TCP_ENA, which
 * i40e sets through i40e_client_update_vsi_ctxt() while the netdev is up)
 * lets the engine see TCP: it is the X722's counterpart of the E810 VSI's
 * PE filter, which the engine's steering (e810_iw_steer()) reads.
 */
void x722_rdma_set_tcp_ena(X722Core *core)
{
    core->pe->aq.pe_filter = !!(core->fw.vsi_queue_opt & X722_VSI_TCP_ENA);
}

bool x722_rdma_receive(X722Core *core, const uint8_t *buf, size_t len)
{
    E810IwRx where = e810_iw_steer(core->pe, buf, len);

    if (where == E810_IW_RX_LAN) {
        return false;
    }
    pes_count(core, buf, len, false);
    e810_iw_receive(core->pe, where, buf, len);
    return true;
}

void x722_rdma_dyn_ctl(X722Core *core, unsigned v, uint32_t val)
{
    e810_core_mmio_write(core->pe, E810_GLINT_DYN_CTL(v), val, 4);
}

void x722_rdma_run_work(X722Core *core)
{
    e810_core_run_work(core->pe);
}

void x722_rdma_timer_fire(X722Core *core)
{
    uint64_t now = core->ops->now_ns(core->opaque);

    if (core->grst_deadline <= now) {
        core->grst_deadline = UINT64_MAX;
        x722_core_grst_done(core);
    }
    if (core->pe_deadline <= now) {
        core->pe_deadline = UINT64_MAX;
        e810_core_timer_fire(core->pe);     /* it arms its next deadline */
    }
    timer_arm(core);
}

void x722_rdma_format_stats(X722Core *core, char *out, size_t n)
{
    const E810Rdma *r = &core->pe->rdma;
    unsigned i, ceqs = 0, cqs = 0, qps = 0, cnt;
    char counts[160];

    for (i = 0; i < E810_PE_MAX_CEQS; i++) {
        ceqs += r->ceq[i].valid;
    }
    cnt = r->cq ? e810_hmc_count(core->pe, E810_HMC_CQ) : 0;
    for (i = 0; i < cnt; i++) {
        cqs += r->cq[i].valid;
    }
    cnt = r->qp ? e810_hmc_count(core->pe, E810_HMC_QP) : 0;
    for (i = 0; i < cnt; i++) {
        qps += r->qp[i].valid;
    }
    e810_core_hmc_counts(core->pe, counts, sizeof(counts));
    snprintf(out, n, "pe_cqp=%u pe_cqp_ops=%" PRIu64 " pe_cqp_errors=%"
             PRIu64 " pe_first_sd=%u pe_hmc_committed=%u pe_ceqs=%u "
             "pe_aeq=%u pe_cqs=%u pe_qps=%u pe_loc_macs=%u "
             "pe_bad_qs_handles=%" PRIu64 " %s",
             r->cqp.created,
             core->stats.pe_cqp_ops_done + (uint64_t)r->cqp.ops,
             core->stats.pe_cqp_errors_done + (uint64_t)r->cqp.errors,
             r->hmc.first_sd, r->hmc.committed, ceqs, r->aeq.valid, cqs, qps,
             (unsigned)__builtin_popcountll(r->loc_mac_used),
             r->stats.bad_qs_handles, counts);
}
