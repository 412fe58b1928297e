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

/* Offsets: ice_hw_autogen.h. Port arrays _i=0...7, per-TC ones 8 x 8. */
static const StatReg stat_regs[] = {
    { 0x000AC260, 1, 4, 32, SC_PORT, offsetof(E810PortCounters, rdpc) },
    V32(0x00294C04, rdpc),                  /* GLV_RDPC */
    V40(0x00300000, gotc),                  /* GLV_GOTCL */
    V40(0x0030A000, uptc),                  /* GLV_UPTCL */
    V40(0x0030C000, mptc),                  /* GLV_MPTCL */
    V40(0x0030E000, bptc),                  /* GLV_BPTCL */
    V32(0x00312000, tepc),                  /* GLV_TEPC */
    P40(0x00380000, gorc),                  /* GLPRT_GORCL */
    Z32(0x00380040, 8),                     /* GLPRT_MLFC */
    Z32(0x00380080, 8),                     /* GLPRT_MRFC */
    Z32(0x00380100, 8),                     /* GLPRT_CRCERRS */
    Z32(0x00380140, 8),                     /* GLPRT_RLEC */
    Z32(0x003801C0, 8),                     /* GLPRT_ILLERRC */
    P32(0x00380200, ruc),                   /* GLPRT_RUC */
    P32(0x00380240, roc),                   /* GLPRT_ROC */
    Z32(0x00380280, 8),                     /* GLPRT_LXONRXC */
    Z32(0x003802C0, 8),                     /* GLPRT_LXOFFRXC */
    Z32(0x00380300, 64),                    /* GLPRT_PXONRXC */
    Z32(0x00380500, 64),                    /* GLPRT_PXOFFRXC */
    Z32(0x00380700, 64),                    /* GLPRT_RXON2OFFCNT */
    P40(0x00380900, prc[0]),                /* GLPRT_PRC64L */
    P40(0x00380940, prc[1]),                /* GLPRT_PRC127L */
    P40(0x00380980, prc[2]),                /* GLPRT_PRC255L */
    P40(0x003809C0, prc[3]),                /* GLPRT_PRC511L */
    P40(0x00380A00, prc[4]),                /* GLPRT_PRC1023L */
    P40(0x00380A40, prc[5]),                /* GLPRT_PRC1522L */
    P40(0x00380A80, prc[6]),                /* GLPRT_PRC9522L */
    Z32(0x00380AC0, 8),                     /* GLPRT_RFC */
    Z32(0x00380B00, 8),                     /* GLPRT_RJC */
    P40(0x00380B40, gotc),                  /* GLPRT_GOTCL */
    P40(0x00380B80, ptc[0]),                /* GLPRT_PTC64L */
    P40(0x00380BC0, ptc[1]),                /* GLPRT_PTC127L */
    P40(0x00380C00, ptc[2]),                /* GLPRT_PTC255L */
    P40(0x00380C40, ptc[3]),                /* GLPRT_PTC511L */
    P40(0x00380C80, ptc[4]),                /* GLPRT_PTC1023L */
    P40(0x00380CC0, ptc[5]),                /* GLPRT_PTC1522L */
    P40(0x00380D00, ptc[6]),                /* GLPRT_PTC9522L */
    Z32(0x00380D40, 64),                    /* GLPRT_PXONTXC */
    Z32(0x00380F40, 64),                    /* GLPRT_PXOFFTXC */
    Z32(0x00381140, 8),                     /* GLPRT_LXONTXC */
    Z32(0x00381180, 8),                     /* GLPRT_LXOFFTXC */
    P40(0x003811C0, uptc),                  /* GLPRT_UPTCL */
    P40(0x00381200, mptc),                  /* GLPRT_MPTCL */
    P40(0x00381240, bptc),                  /* GLPRT_BPTCL */
    P32(0x00381280, tdold),                 /* GLPRT_TDOLD */
    P40(0x00381300, uprc),                  /* GLPRT_UPRCL */
    P40(0x00381340, mprc),                  /* GLPRT_MPRCL */
    P40(0x00381380, bprc),                  /* GLPRT_BPRCL */
    /* GLSTAT_FD_CNT0L, _i=0...4095: no Flow Director matching modelled. */
    { 0x003A0000, 4096, 8, 40, SC_ZERO, NONE },
    V40(0x003B0000, gorc),                  /* GLV_GORCL */
    V40(0x003B2000, uprc),                  /* GLV_UPRCL */
    V40(0x003B4000, mprc),                  /* GLV_MPRCL */
    V40(0x003B6000, bprc),                  /* GLV_BPRCL */
};

#define N_STAT_REGS (sizeof(stat_regs) / sizeof(stat_regs[0]))
#define STATS_LO    0x000AC260u
#define STATS_MID   0x00294C04u
#define STATS_HI    (0x003B6000u + E810_STATS_NUM_VSI * 8)

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
