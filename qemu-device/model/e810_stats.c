/*
 * Emulated E810: the port and VSI statistics registers.
 *
 * What ice reads in its service task (ice_update_pf_stats(),
 * ice_update_eth_stats(), ice_update_dcb_stats()): the GLPRT_* counters
 * of its logical port, PRTRPB_RDPC, GLSTAT_FD_CNT0 and the GLV_* counters
 * of each VSI. 40-bit counters are a pair of registers, L (bits 31:0) and
 * H at L + 4 (bits 39:32), and ice reads them with one 8-byte read of L
 * (ice_stat_update40()); 32-bit counters are single registers read with
 * 4-byte reads (ice_stat_update32()). Both wrap silently, as ice expects.
 *
 * The registers are not in the register file: they are computed on read
 * from 64-bit event counters the data paths bump (e810_lan.c, e810_xport.c),
 * so the value shown is the count modulo 2^40 or 2^32. Counters the model
 * has no events for (flow control, CRC and framing errors, MAC faults,
 * Flow Director matches) read as zero. All are read-only and in the CORER
 * domain: a PF reset keeps them, ice takes its baseline at probe.
 *
 * Counting rules:
 *  - port, Rx: every frame the MAC accepts (LAN or RoCE), before the
 *    switch; frames from the network backend come without FCS and, when
 *    short, without the padding the wire had, so the wire length is
 *    max(len, 60) + 4; it gives GORC and the size bucket. Shorter than an
 *    Ethernet header: RUC; longer than the MAC's maximum frame size
 *    (0x0603): ROC; both dropped.
 *  - port, Tx: every frame put on the wire (LAN or RoCE), the same way.
 *  - unicast/multicast/broadcast from the destination MAC.
 *  - VSI: frames written to one of its Rx queues and frames sent from its
 *    Tx queues (the queue context's SRC_VSI), counted with their length in
 *    host memory (no FCS); RDPC counts frames steered to it and dropped
 *    at its queue (queue off, too few buffers, longer than RXMAX), TEPC
 *    packets from its queues dropped as malformed.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stddef.h>
#include <string.h>

#include "e810_core.h"
#include "e810_stats.h"

/* The model's one physical port, the lport ice reads (0x0001 reply). */
#define STATS_LPORT     0
#define ETH_ZLEN        60
#define FCS_LEN         4
#define ETH_HLEN        14

#define MASK40          ((1ull << 40) - 1)

enum { SC_PORT, SC_VSI, SC_ZERO };

#define NONE            0xffff

typedef struct StatReg {
    uint32_t base;
    uint32_t count;
    uint8_t stride;
    uint8_t bits;       /* 40: L/H pair; 32: one register */
    uint8_t scope;
    uint16_t field;     /* offset in E810PortCounters / E810VsiCounters */
} StatReg;

#define P40(off, f) { (off), 8, 8, 40, SC_PORT, offsetof(E810PortCounters, f) }
#define P32(off, f) { (off), 8, 8, 32, SC_PORT, offsetof(E810PortCounters, f) }
#define V40(off, f) { (off), E810_STATS_NUM_VSI, 8, 40, SC_VSI, \
                      offsetof(E810VsiCounters, f) }
#define V32(off, f) { (off), E810_STATS_NUM_VSI, 4, 32, SC_VSI, \
                      offsetof(E810VsiCounters, f) }
#define Z32(off, n) { (off), (n), 8, 32, SC_ZERO, NONE }

/* Port arrays _i=0...7, per-TC ones 8 x 8 (offsets: include/hw/e810_regs.h). */
static const StatReg stat_regs[] = {
    { E810_PRTRPB_RDPC, 1, 4, 32, SC_PORT,
      offsetof(E810PortCounters, rdpc) },
    V32(E810_GLV_RDPC, rdpc),
    V40(E810_GLV_GOTCL, gotc),
    V40(E810_GLV_UPTCL, uptc),
    V40(E810_GLV_MPTCL, mptc),
    V40(E810_GLV_BPTCL, bptc),
    V32(E810_GLV_TEPC, tepc),
    P40(E810_GLPRT_GORCL, gorc),
    Z32(E810_GLPRT_MLFC, 8),
    Z32(E810_GLPRT_MRFC, 8),
    Z32(E810_GLPRT_CRCERRS, 8),
    Z32(E810_GLPRT_RLEC, 8),
    Z32(E810_GLPRT_ILLERRC, 8),
    P32(E810_GLPRT_RUC, ruc),
    P32(E810_GLPRT_ROC, roc),
    Z32(E810_GLPRT_LXONRXC, 8),
    Z32(E810_GLPRT_LXOFFRXC, 8),
    Z32(E810_GLPRT_PXONRXC, 64),
    Z32(E810_GLPRT_PXOFFRXC, 64),
    Z32(E810_GLPRT_RXON2OFFCNT, 64),
    P40(E810_GLPRT_PRC64L, prc[0]),
    P40(E810_GLPRT_PRC127L, prc[1]),
    P40(E810_GLPRT_PRC255L, prc[2]),
    P40(E810_GLPRT_PRC511L, prc[3]),
    P40(E810_GLPRT_PRC1023L, prc[4]),
    P40(E810_GLPRT_PRC1522L, prc[5]),
    P40(E810_GLPRT_PRC9522L, prc[6]),
    Z32(E810_GLPRT_RFC, 8),
    Z32(E810_GLPRT_RJC, 8),
    P40(E810_GLPRT_GOTCL, gotc),
    P40(E810_GLPRT_PTC64L, ptc[0]),
    P40(E810_GLPRT_PTC127L, ptc[1]),
    P40(E810_GLPRT_PTC255L, ptc[2]),
    P40(E810_GLPRT_PTC511L, ptc[3]),
    P40(E810_GLPRT_PTC1023L, ptc[4]),
    P40(E810_GLPRT_PTC1522L, ptc[5]),
    P40(E810_GLPRT_PTC9522L, ptc[6]),
    Z32(E810_GLPRT_PXONTXC, 64),
    Z32(E810_GLPRT_PXOFFTXC, 64),
    Z32(E810_GLPRT_LXONTXC, 8),
    Z32(E810_GLPRT_LXOFFTXC, 8),
    P40(E810_GLPRT_UPTCL, uptc),
    P40(E810_GLPRT_MPTCL, mptc),
    P40(E810_GLPRT_BPTCL, bptc),
    P32(E810_GLPRT_TDOLD, tdold),
    P40(E810_GLPRT_UPRCL, uprc),
    P40(E810_GLPRT_MPRCL, mprc),
    P40(E810_GLPRT_BPRCL, bprc),
    /* GLSTAT_FD_CNT0L, _i=0...4095: no Flow Director matching modelled. */
    { E810_GLSTAT_FD_CNT0L, 4096, 8, 40, SC_ZERO, NONE },
    V40(E810_GLV_GORCL, gorc),
    V40(E810_GLV_UPRCL, uprc),
    V40(E810_GLV_MPRCL, mprc),
    V40(E810_GLV_BPRCL, bprc),
};

#define N_STAT_REGS (sizeof(stat_regs) / sizeof(stat_regs[0]))
#define STATS_LO    E810_PRTRPB_RDPC
#define STATS_MID   E810_GLV_RDPC
#define STATS_HI    (E810_GLV_BPRCL + E810_STATS_NUM_VSI * 8)

/* A decoded statistics access. */
typedef struct StatRef {
    const StatReg *reg;
    uint32_t index;
    bool high;          /* the H half of a 40-bit pair */
} StatRef;

static bool stat_lookup(uint64_t addr, StatRef *ref)
{
    unsigned i;

    if (addr & 3 ||
        (addr != STATS_LO && (addr < STATS_MID || addr >= STATS_HI))) {
        return false;
    }
    for (i = 0; i < N_STAT_REGS; i++) {
        const StatReg *r = &stat_regs[i];
        uint64_t delta;

        if (addr < r->base || addr >= r->base + (uint64_t)r->count * r->stride) {
            continue;
        }
        delta = addr - r->base;
        ref->reg = r;
        ref->index = delta / r->stride;
        ref->high = delta % r->stride == 4;
        if (delta % r->stride && !(r->bits == 40 && ref->high)) {
            return false;
        }
        return true;
    }
    return false;
}

static uint64_t stat_value(E810Core *core, const StatRef *ref)
{
    const StatReg *r = ref->reg;
    const uint8_t *base;
    uint64_t v;

    switch (r->scope) {
    case SC_PORT:
        if (ref->index != STATS_LPORT) {
            return 0;   /* no such port on this device */
        }
        base = (const uint8_t *)&core->hwstats.port;
        break;
    case SC_VSI:
        base = (const uint8_t *)&core->hwstats.vsi[ref->index];
        break;
    default:
        return 0;
    }
    memcpy(&v, base + r->field, sizeof(v));
    return r->bits == 40 ? v & MASK40 : (uint32_t)v;
}

bool e810_stats_is_reg(uint64_t addr)
{
    StatRef ref;

    return stat_lookup(addr, &ref);
}

bool e810_stats_mmio_read(E810Core *core, uint64_t addr, unsigned size,
                          uint64_t *val)
{
    StatRef ref;
    uint64_t v;

    if (!stat_lookup(addr, &ref)) {
        return false;
    }
    /* 8-byte reads: the low half of a 40-bit pair only. */
    if (size == 8 ? ref.reg->bits != 40 || ref.high : size != 4) {
        return false;
    }
    v = stat_value(core, &ref);
    if (size == 8) {
        *val = v;
    } else {
        *val = ref.high ? (uint32_t)(v >> 32) : (uint32_t)v;
    }
    return true;
}

void e810_stats_reset(E810Core *core, E810ResetSource level)
{
    if (level >= E810_RST_CORER) {
        memset(&core->hwstats, 0, sizeof(core->hwstats));
    }
}

/* ---- events ------------------------------------------------------------ */

static unsigned size_bucket(size_t wire)
{
    static const size_t top[E810_STATS_NUM_SIZES - 1] = {
        64, 127, 255, 511, 1023, 1522
    };
    unsigned i;

    for (i = 0; i < E810_STATS_NUM_SIZES - 1 && wire > top[i]; i++) {
    }
    return i;
}

static size_t wire_len(size_t len)
{
    return (len < ETH_ZLEN ? ETH_ZLEN : len) + FCS_LEN;
}

/* Bumps the unicast, multicast or broadcast counter of three. */
static void count_cast(const uint8_t *frame, uint64_t *uc, uint64_t *mc,
                       uint64_t *bc)
{
    static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

    if (!memcmp(frame, bcast, sizeof(bcast))) {
        (*bc)++;
    } else if (frame[0] & 1) {
        (*mc)++;
    } else {
        (*uc)++;
    }
}

bool e810_stats_rx_mac_ok(E810Core *core, size_t len)
{
    E810PortCounters *p = &core->hwstats.port;

    if (len < ETH_HLEN) {
        p->ruc++;
        return false;
    }
    if (len + FCS_LEN > core->aq.max_frame) {
        p->roc++;
        return false;
    }
    return true;
}

void e810_stats_rx_port(E810Core *core, const uint8_t *frame, size_t len)
{
    E810PortCounters *p = &core->hwstats.port;
    size_t wire = wire_len(len);

    p->gorc += wire;
    p->prc[size_bucket(wire)]++;
    count_cast(frame, &p->uprc, &p->mprc, &p->bprc);
}

void e810_stats_rx_vsi(E810Core *core, uint16_t vsi, const uint8_t *frame,
                       size_t len)
{
    E810VsiCounters *v;

    if (vsi >= E810_STATS_NUM_VSI) {
        return;
    }
    v = &core->hwstats.vsi[vsi];
    v->gorc += len;
    count_cast(frame, &v->uprc, &v->mprc, &v->bprc);
}

void e810_stats_rx_drop(E810Core *core, uint16_t vsi)
{
    core->hwstats.port.rdpc++;
    if (vsi < E810_STATS_NUM_VSI) {
        core->hwstats.vsi[vsi].rdpc++;
    }
}

void e810_stats_tx(E810Core *core, int vsi, const uint8_t *frame, size_t len)
{
    E810PortCounters *p = &core->hwstats.port;
    size_t wire = wire_len(len);

    if (len < ETH_HLEN) {
        return;     /* never sent: the data paths drop such frames */
    }
    p->gotc += wire;
    p->ptc[size_bucket(wire)]++;
    count_cast(frame, &p->uptc, &p->mptc, &p->bptc);
    if (vsi >= 0 && vsi < E810_STATS_NUM_VSI) {
        E810VsiCounters *v = &core->hwstats.vsi[vsi];

        v->gotc += len;
        count_cast(frame, &v->uptc, &v->mptc, &v->bptc);
    }
}

void e810_stats_tx_error(E810Core *core, uint16_t vsi)
{
    if (vsi < E810_STATS_NUM_VSI) {
        core->hwstats.vsi[vsi].tepc++;
    }
}

void e810_stats_tx_link_down(E810Core *core)
{
    core->hwstats.port.tdold++;
}
